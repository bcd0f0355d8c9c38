//! Othello's notation (`othello-rules.md`, "Board and notation"): a move is the square of the new
//! disc, a column `a`–`h` and a row `1`–`8` counted from the top, such as `f5`; case and white space
//! do not matter. There is no pass to write: the engine passes for a player who has no move.

use crate::games::RuleError;

/// A square: `row * 8 + column`, both from 0 (`a1` is 0, `h8` 63).
pub type Square = u8;

/// The square's name, `f5`.
pub fn name(sq: Square) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

/// Reads a square as a player writes it: `f5`, `F5`, ` f 5 `.
pub fn read(text: &str) -> Result<Square, RuleError> {
    let word: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    if word == "pass" {
        return Err(RuleError(
            "pass is not a move you choose in Othello: when you have no legal move the engine \
             passes for you; write the square of your disc, like f5"
                .into(),
        ));
    }
    let b = word.as_bytes();
    match b {
        [c @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok((r - b'1') * 8 + (c - b'a')),
        _ => Err(RuleError(format!(
            "'{}' is not a square of the board: write a column a to h and a row 1 to 8 (counted \
             from the top), like f5",
            text.trim()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_reads_back_in_either_case() {
        for sq in 0..64 {
            let n = name(sq);
            assert_eq!(read(&n), Ok(sq));
            assert_eq!(read(&format!(" {} ", n.to_uppercase())), Ok(sq));
        }
        assert_eq!(name(0), "a1");
        assert_eq!(name(63), "h8");
        assert_eq!(read("F 5"), Ok(37));
    }

    #[test]
    fn a_word_that_is_no_square_names_the_right_form() {
        for bad in ["i1", "a9", "a0", "f55", "5f", "", "resign"] {
            let e = read(bad).unwrap_err().0;
            assert!(e.contains("column a to h and a row 1 to 8"), "{bad}: {e}");
            assert!(e.contains("like f5"), "{e}");
        }
        let e = read("PASS").unwrap_err().0;
        assert!(e.contains("the engine passes for you"), "{e}");
    }
}
