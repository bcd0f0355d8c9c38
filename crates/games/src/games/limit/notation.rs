//! Move notation (rules section 7): lenient parsing and the canonical form.

use std::fmt;

use super::view::TileColour;

/// A move as a player writes it, with position numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// Manual placement: lay a tile of this colour at this position (`r3`).
    Lay {
        /// The tile's colour (never plain).
        colour: TileColour,
        /// Where.
        at: u32,
    },
    /// Classic placement: two tiles, smaller number first, and perhaps a ball (`12,13@13`, `12,13`).
    Pair {
        /// The smaller position.
        a: u32,
        /// The larger position.
        b: u32,
        /// The tile the ball goes on, one of `a` and `b`.
        ball: Option<u32>,
    },
    /// Classic, tiles run out: a ball on a tile (`@17`).
    Ball {
        /// The tile.
        at: u32,
    },
    /// A movement turn: move the pawn, then remove a tile (`3-7,4`).
    Turn {
        /// Where the pawn stands.
        from: u32,
        /// Where it goes.
        to: u32,
        /// The tile removed.
        remove: u32,
    },
    /// A pawn move alone (`3-7`).
    Step {
        /// Where the pawn stands.
        from: u32,
        /// Where it goes.
        to: u32,
    },
    /// A tile removal alone (`x4`).
    Remove {
        /// The tile removed.
        tile: u32,
    },
}

/// Why a text is not a move at all (before any rule is asked).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot read the move \"{text}\": {why}. Write a movement turn as 3-7,4 (move the pawn on 3 to 7, \
remove tile 4), a move alone as 3-7, a removal alone as x4, a manual placement as r3 (r, b, g, k = red, blue, \
green, black), a classic placement as 12,13@13 or 12,13, a classic ball as @17; a move may end in #N"
)]
pub struct ParseError {
    /// The text as given.
    pub text: String,
    /// What was wrong.
    pub why: String,
}

fn colour_letter(c: TileColour) -> char {
    match c {
        TileColour::Red => 'r',
        TileColour::Blue => 'b',
        TileColour::Green => 'g',
        TileColour::Black => 'k',
        TileColour::Plain => 'p',
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Lay { colour, at } => write!(f, "{}{at}", colour_letter(colour)),
            Move::Pair {
                a,
                b,
                ball: Some(x),
            } => write!(f, "{a},{b}@{x}"),
            Move::Pair { a, b, ball: None } => write!(f, "{a},{b}"),
            Move::Ball { at } => write!(f, "@{at}"),
            Move::Turn { from, to, remove } => write!(f, "{from}-{to},{remove}"),
            Move::Step { from, to } => write!(f, "{from}-{to}"),
            Move::Remove { tile } => write!(f, "x{tile}"),
        }
    }
}

fn pos(s: &str, what: &str) -> Result<u32, String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "expected the position number of {what}, found \"{s}\""
        ));
    }
    match s.parse::<u32>() {
        Ok(0) => Err("position numbers start at 1".to_string()),
        Ok(n) if n <= 1_000_000 => Ok(n),
        _ => Err(format!("position {s} is far off any board")),
    }
}

/// Reads a move as a player writes it ([`crate::games::matchplay::Rules::read_here`]); a `#N`
/// guard is accepted and ignored (the server checks it).
pub fn read(text: &str) -> Result<Move, crate::games::RuleError> {
    Move::parse(text)
        .map(|(m, _)| m)
        .map_err(|e| crate::games::RuleError(e.to_string()))
}

impl Move {
    /// Reads a move, ignoring case and spaces. A trailing `#N` guard is returned beside the move.
    pub fn parse(text: &str) -> Result<(Move, Option<u32>), ParseError> {
        let fail = |why: String| ParseError {
            text: text.trim().to_string(),
            why,
        };
        let s: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        let (body, guard) = match s.split_once('#') {
            Some((b, g)) => {
                let n = g.parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(|| {
                    fail(format!(
                        "\"#{g}\" is not a move number (write #N with N >= 1)"
                    ))
                })?;
                (b, Some(n))
            }
            None => (s.as_str(), None),
        };
        if body.is_empty() {
            return Err(fail("there is no move".to_string()));
        }
        let mv = Self::parse_body(body).map_err(fail)?;
        Ok((mv, guard))
    }

    fn parse_body(s: &str) -> Result<Move, String> {
        if s == "pass" {
            return Err("passes are never written: the server plays them itself when you have no legal move".into());
        }
        if s == "resign" {
            return Err("resigning is a command of its own (resign), not a move".into());
        }
        let first = s.chars().next().unwrap_or(' ');
        if let Some(c) = match first {
            'r' => Some(TileColour::Red),
            'b' => Some(TileColour::Blue),
            'g' => Some(TileColour::Green),
            'k' => Some(TileColour::Black),
            _ => None,
        } {
            return Ok(Move::Lay {
                colour: c,
                at: pos(&s[1..], "the tile")?,
            });
        }
        if let Some(rest) = s.strip_prefix('x') {
            return Ok(Move::Remove {
                tile: pos(rest, "the tile to remove")?,
            });
        }
        if let Some(rest) = s.strip_prefix('@') {
            return Ok(Move::Ball {
                at: pos(rest, "the tile for the ball")?,
            });
        }
        if let Some((from, rest)) = s.split_once('-') {
            let from = pos(from, "the pawn to move")?;
            return Ok(match rest.split_once(',') {
                Some((to, rem)) => Move::Turn {
                    from,
                    to: pos(to, "the pawn's destination")?,
                    remove: pos(rem, "the tile to remove")?,
                },
                None => Move::Step {
                    from,
                    to: pos(rest, "the pawn's destination")?,
                },
            });
        }
        if let Some((a, rest)) = s.split_once(',') {
            let a = pos(a, "the first tile")?;
            let (b, ball) = match rest.split_once('@') {
                Some((b, x)) => (pos(b, "the second tile")?, Some(pos(x, "the ball's tile")?)),
                None => (pos(rest, "the second tile")?, None),
            };
            if a == b {
                return Err(format!("the two tiles must be different, found {a} twice"));
            }
            if let Some(x) = ball
                && x != a
                && x != b
            {
                return Err(format!(
                    "the ball must go on one of the two tiles laid ({a} or {b}), not on {x}"
                ));
            }
            return Ok(Move::Pair {
                a: a.min(b),
                b: a.max(b),
                ball,
            });
        }
        Err("it matches none of the move forms".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s7_canonical_forms_round_trip() {
        for t in [
            "r3", "b12", "g7", "k1", "12,13@13", "12,13@12", "12,13", "@17", "3-7,4", "3-7", "x4",
        ] {
            let (m, g) = Move::parse(t).unwrap();
            assert_eq!(g, None);
            assert_eq!(m.to_string(), t);
        }
    }

    #[test]
    fn s7_lenient_case_spaces_and_order() {
        assert_eq!(
            Move::parse(" 3 - 7 , 4 ").unwrap().0,
            Move::Turn {
                from: 3,
                to: 7,
                remove: 4
            }
        );
        assert_eq!(Move::parse("R3").unwrap().0.to_string(), "r3");
        assert_eq!(Move::parse("X 4").unwrap().0.to_string(), "x4");
        assert_eq!(Move::parse("13,12@13").unwrap().0.to_string(), "12,13@13");
        assert_eq!(Move::parse("13, 12").unwrap().0.to_string(), "12,13");
    }

    #[test]
    fn s7_guard_is_parsed() {
        assert_eq!(
            Move::parse("3-7,4#12").unwrap(),
            (
                Move::Turn {
                    from: 3,
                    to: 7,
                    remove: 4
                },
                Some(12)
            )
        );
        assert_eq!(Move::parse("r3 # 2").unwrap().1, Some(2));
        assert!(Move::parse("r3#").is_err());
        assert!(Move::parse("r3#x").is_err());
        assert!(Move::parse("r3#0").is_err());
    }

    #[test]
    fn s7_nonsense_is_refused_with_the_forms() {
        for t in [
            "", "pass", "resign", "3-", "-7", "q3", "3-7,", "0-1,2", "12,12", "12,13@14", "x", "@",
            "3-7,4,5", "hello",
        ] {
            let e = Move::parse(t).unwrap_err();
            assert!(e.to_string().contains("3-7,4"), "{t}: {e}");
        }
    }
}
