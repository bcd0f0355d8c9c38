//! The mail command language: tokenizer, parser, password redaction and password candidates.
//!
//! Properties: no panic; parsing is deterministic; the redacted form of a command contains none of its
//! passwords anywhere, even as part of a word; finding the candidates of any line does not panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pbem::command;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let tokens = command::tokenize(line);
    assert!(tokens.len() <= line.split_whitespace().count());
    let parsed = command::parse(line);
    assert_eq!(parsed, command::parse(line), "parse is not deterministic");
    let _ = command::looks_like_command(line, &["limit"]);
    let _ = command::password_candidates(line, &["limit"]);
    let _ = command::sets_new_password(line);
    if let Ok(cmd) = parsed {
        let shown = cmd.redacted();
        for p in cmd.passwords() {
            if p.is_empty() {
                continue;
            }
            assert!(
                !shown.contains(p),
                "redacted() shows password {p:?}: {shown:?} from {line:?}"
            );
        }
    }
});
