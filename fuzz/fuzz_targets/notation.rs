//! Limit's move notation.
//!
//! Properties: no panic; a move that parses prints as text that parses back to the same move (with no
//! `#N` guard), and parsing ignores case and spaces.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pbem::games::limit::Move;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = Move::parse(text);
    if let Ok((m, guard)) = &parsed {
        let printed = m.to_string();
        assert_eq!(
            Move::parse(&printed),
            Ok((*m, None)),
            "{text:?} parsed to {m:?}, printed as {printed:?}, which does not parse back"
        );
        if let Some(g) = guard {
            assert_eq!(Move::parse(&format!("{printed} #{g}")), Ok((*m, Some(*g))));
        }
        if text.is_ascii() {
            let upper = text.to_ascii_uppercase();
            assert_eq!(
                Move::parse(&upper).ok(),
                parsed.clone().ok(),
                "case matters for {text:?}"
            );
        }
    }
});
