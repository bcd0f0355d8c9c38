//! The options of `hex challenge` (`hex-rules.md` section 3); the sizes and the `-size` reader are
//! the rhombus's, which Chameleon shares ([`crate::games::hexgrid::rhombus`]).

use crate::games::{GameOption, RuleError};

pub use crate::games::hexgrid::rhombus::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, read_size};

/// The options of one Hex game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The board is `size × size`.
    pub size: u8,
    /// The swap (pie rule) is on.
    pub swap: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            size: DEFAULT_SIZE,
            swap: true,
        }
    }
}

/// What `hex challenge` takes, for the errors.
const VALID: &str = "the options of hex are -size=n (n from 2 to 19, default 11) and -swap or -no_swap \
                     (the swap rule on or off, default -swap)";

impl Config {
    /// Reads a challenge's options; an unknown option, a value out of range, an option given twice or
    /// a contradiction is refused with the list of valid options.
    pub fn from_options(options: &[GameOption]) -> Result<Config, RuleError> {
        let mut cfg = Config::default();
        let mut size_seen = false;
        let mut swap_seen: Option<bool> = None;
        for o in options {
            match o.name.to_ascii_lowercase().as_str() {
                "size" => {
                    if size_seen {
                        return Err(RuleError(format!("-size is given twice; {VALID}")));
                    }
                    size_seen = true;
                    cfg.size = read_size(o, VALID)?;
                }
                name @ ("swap" | "no_swap") => {
                    if o.value.is_some() {
                        return Err(RuleError(format!("-{name} takes no value; {VALID}")));
                    }
                    let on = name == "swap";
                    if swap_seen.is_some_and(|seen| seen != on) {
                        return Err(RuleError(format!(
                            "-swap and -no_swap contradict each other: give one; {VALID}"
                        )));
                    }
                    swap_seen = Some(on);
                    cfg.swap = on;
                }
                _ => return Err(RuleError(format!("unknown option {o}; {VALID}"))),
            }
        }
        Ok(cfg)
    }

    /// The options in force, as a challenge writes them: `-size=11 -swap`.
    pub fn summary(&self) -> String {
        format!(
            "-size={} {}",
            self.size,
            if self.swap { "-swap" } else { "-no_swap" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(words: &[&str]) -> Result<Config, RuleError> {
        let opts: Vec<GameOption> = words
            .iter()
            .map(|w| GameOption::parse(w).unwrap())
            .collect();
        Config::from_options(&opts)
    }

    #[test]
    fn options_are_read_and_refused_as_the_page_says() {
        assert_eq!(read(&[]), Ok(Config::default()));
        assert_eq!(
            read(&["-size=5", "-no_swap"]),
            Ok(Config {
                size: 5,
                swap: false
            })
        );
        assert_eq!(read(&["-SIZE=19", "-Swap"]).unwrap().size, 19);
        assert_eq!(read(&["-size=2"]).unwrap().summary(), "-size=2 -swap");
        for (bad, says) in [
            (&["-size=1"][..], "first stone would win"),
            (&["-size=20"], "out of range"),
            (&["-size=x"], "out of range"),
            (&["-size"], "needs a value"),
            (&["-size=5", "-size=7"], "twice"),
            (&["-swap", "-no_swap"], "contradict"),
            (&["-swap=1"], "takes no value"),
            (&["-komi=3"], "unknown option -komi=3"),
        ] {
            let e = read(bad).unwrap_err().0;
            assert!(e.contains(says), "{bad:?}: {e}");
            assert!(e.contains("-size=n"), "{bad:?} lists the options: {e}");
        }
    }
}
