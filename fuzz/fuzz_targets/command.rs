//! The mail command language: tokenizer, parser and password redaction.
//!
//! Properties: no panic; parsing is deterministic; neither the redacted form of a command nor the
//! redaction of any line (parsed or not) contains any of its passwords anywhere, even as part of a word.

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
    let redacted_line = command::redact_line(line);
    for p in command::line_passwords(line) {
        assert!(
            !redacted_line.contains(p),
            "redact_line left password {p:?} in {redacted_line:?}"
        );
    }
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
