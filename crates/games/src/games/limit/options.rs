//! The challenge options of rules section 3.

use serde::{Deserialize, Serialize};

use crate::games::{GameOption, RuleError};

/// How a movement turn combines the pawn move and the tile removal (rules 5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Both if possible, with the fallbacks of 5.2 (the default).
    Both,
    /// `-move_and_remove`: a player who cannot do both is eliminated.
    MoveAndRemove,
    /// `-move_or_remove`: a move or a removal, not both.
    MoveOrRemove,
}

/// The rules in force for one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// `-classic`: Browne's rules (plain tiles, two tiles and a ball per placement turn, elimination).
    pub classic: bool,
    /// Pawns per player and tiles per colour (`-size`).
    pub size: u32,
    /// `-manual`: tiles laid by hand (always true under `-classic`).
    pub manual: bool,
    /// `-must_touch`: tiles each tile after the first two must touch.
    pub must_touch: u32,
    /// `-free_edges`: free edges a tile needs to be removed.
    pub free_edges: u32,
    /// The first-move equaliser (5.5).
    pub equaliser: bool,
    /// `-can_isolate` (true) or `-no_isolate` (false), 5.3.
    pub can_isolate: bool,
    /// 5.4.
    pub mode: Mode,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            classic: false,
            size: 8,
            manual: false,
            must_touch: 2,
            free_edges: 1,
            equaliser: true,
            can_isolate: false,
            mode: Mode::Both,
        }
    }
}

/// The list of valid options, quoted in every option error.
pub const VALID_OPTIONS: &str = "valid options: -size=n (2 to 16, default 8), -manual, -classic, \
-must_touch=k (1 or 2, default 2), -free_edges=k (1 to 3, default 1), -equaliser | -no_equaliser, \
-no_isolate | -can_isolate, -move_and_remove | -move_or_remove";

fn err(msg: String) -> RuleError {
    RuleError(format!("{msg}; {VALID_OPTIONS}"))
}

fn number(opt: &GameOption, lo: u32, hi: u32) -> Result<u32, RuleError> {
    let name = opt.name.to_ascii_lowercase();
    let Some(v) = &opt.value else {
        return Err(err(format!(
            "option -{name} needs a value, e.g. -{name}={lo}"
        )));
    };
    let n: u32 = v.trim().parse().map_err(|_| {
        err(format!(
            "option -{name}={v}: the value must be a whole number from {lo} to {hi}"
        ))
    })?;
    if !(lo..=hi).contains(&n) {
        return Err(err(format!(
            "option -{name}={v} is out of range: it takes {lo} to {hi}"
        )));
    }
    Ok(n)
}

impl Config {
    /// Reads the challenge options (names compared ignoring case). Refuses unknown options, bad or missing
    /// values, values given to flags, options given twice and contradictory pairs, with the list of valid
    /// options.
    pub fn from_options(options: &[GameOption]) -> Result<Config, RuleError> {
        let mut c = Config::default();
        let mut seen: Vec<String> = Vec::new();
        let mut equaliser: Option<(bool, String)> = None;
        let mut isolate: Option<(bool, String)> = None;
        let mut mode: Option<(Mode, String)> = None;
        for opt in options {
            let name = opt.name.to_ascii_lowercase();
            if seen.contains(&name) {
                return Err(err(format!("option -{name} is given twice")));
            }
            seen.push(name.clone());
            let flag = |o: &GameOption| -> Result<(), RuleError> {
                match &o.value {
                    Some(v) => Err(err(format!(
                        "option -{name} takes no value (write -{name}, not -{name}={v})"
                    ))),
                    None => Ok(()),
                }
            };
            match name.as_str() {
                "size" => c.size = number(opt, 2, 16)?,
                "must_touch" => c.must_touch = number(opt, 1, 2)?,
                "free_edges" => c.free_edges = number(opt, 1, 3)?,
                "manual" => {
                    flag(opt)?;
                    c.manual = true;
                }
                "classic" => {
                    flag(opt)?;
                    c.classic = true;
                }
                "equaliser" | "no_equaliser" => {
                    flag(opt)?;
                    let on = name == "equaliser";
                    if let Some((_, other)) = &equaliser {
                        return Err(err(format!(
                            "options -{other} and -{name} contradict each other"
                        )));
                    }
                    equaliser = Some((on, name.clone()));
                    c.equaliser = on;
                }
                "no_isolate" | "can_isolate" => {
                    flag(opt)?;
                    if let Some((_, other)) = &isolate {
                        return Err(err(format!(
                            "options -{other} and -{name} contradict each other"
                        )));
                    }
                    let can = name == "can_isolate";
                    isolate = Some((can, name.clone()));
                    c.can_isolate = can;
                }
                "move_and_remove" | "move_or_remove" => {
                    flag(opt)?;
                    if let Some((_, other)) = &mode {
                        return Err(err(format!(
                            "options -{other} and -{name} contradict each other"
                        )));
                    }
                    let m = if name == "move_and_remove" {
                        Mode::MoveAndRemove
                    } else {
                        Mode::MoveOrRemove
                    };
                    mode = Some((m, name.clone()));
                    c.mode = m;
                }
                "random" => {
                    return Err(err(
                        "option -random is not a Limit option: in pbmserv's test options it belongs to \
another game (\"pieces along the winning path need not touch face-to-face\"); Limit lays its tiles at \
random unless -manual or -classic is given"
                            .to_string(),
                    ));
                }
                _ => return Err(err(format!("unknown option -{}", opt.name))),
            }
        }
        if c.classic {
            if c.mode == Mode::MoveOrRemove {
                return Err(err(
                    "options -classic and -move_or_remove contradict each other: the classic rules \
always move and remove"
                        .to_string(),
                ));
            }
            c.manual = true;
            c.mode = Mode::MoveAndRemove;
        }
        Ok(c)
    }

    /// The options in force as one line of option words (`-size=8 -must_touch=2 …`).
    pub fn summary(&self) -> String {
        let mut s = format!("-size={}", self.size);
        if self.classic {
            s.push_str(" -classic");
        } else if self.manual {
            s.push_str(" -manual");
        }
        s.push_str(&format!(
            " -must_touch={} -free_edges={} {} {}",
            self.must_touch,
            self.free_edges,
            if self.equaliser {
                "-equaliser"
            } else {
                "-no_equaliser"
            },
            if self.can_isolate {
                "-can_isolate"
            } else {
                "-no_isolate"
            }
        ));
        match self.mode {
            Mode::Both => {}
            Mode::MoveAndRemove if !self.classic => s.push_str(" -move_and_remove"),
            Mode::MoveAndRemove => {}
            Mode::MoveOrRemove => s.push_str(" -move_or_remove"),
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(words: &[&str]) -> Result<Config, RuleError> {
        let opts: Vec<GameOption> = words
            .iter()
            .map(|w| GameOption::parse(w).unwrap())
            .collect();
        Config::from_options(&opts)
    }

    #[test]
    fn s3_defaults() {
        let c = parse(&[]).unwrap();
        assert_eq!(c, Config::default());
        assert_eq!(c.size, 8);
        assert_eq!(c.must_touch, 2);
        assert_eq!(c.free_edges, 1);
        assert!(c.equaliser && !c.can_isolate && !c.manual && !c.classic);
        assert_eq!(
            c.summary(),
            "-size=8 -must_touch=2 -free_edges=1 -equaliser -no_isolate"
        );
    }

    #[test]
    fn s3_options_are_read_ignoring_case() {
        let c = parse(&[
            "-SIZE=5",
            "-Manual",
            "-Must_Touch=1",
            "-free_edges=3",
            "-No_Equaliser",
            "-can_isolate",
            "-move_or_remove",
        ])
        .unwrap();
        assert_eq!(c.size, 5);
        assert!(c.manual);
        assert_eq!(c.must_touch, 1);
        assert_eq!(c.free_edges, 3);
        assert!(!c.equaliser);
        assert!(c.can_isolate);
        assert_eq!(c.mode, Mode::MoveOrRemove);
        assert_eq!(
            parse(&["-move_and_remove"]).unwrap().mode,
            Mode::MoveAndRemove
        );
    }

    #[test]
    fn s3_classic_implies_hand_placement() {
        let c = parse(&["-classic"]).unwrap();
        assert!(c.classic && c.manual);
        assert_eq!(c.mode, Mode::MoveAndRemove);
        assert!(parse(&["-classic", "-move_and_remove"]).is_ok());
    }

    #[test]
    fn s3_bad_options_are_refused_with_the_list() {
        for (words, why) in [
            (&["-size=1"][..], "out of range"),
            (&["-size=17"][..], "out of range"),
            (&["-size=x"][..], "whole number"),
            (&["-size"][..], "needs a value"),
            (&["-must_touch=3"][..], "out of range"),
            (&["-free_edges=0"][..], "out of range"),
            (&["-free_edges=4"][..], "out of range"),
            (&["-manual=1"][..], "takes no value"),
            (&["-bogus"][..], "unknown option"),
            (&["-equaliser", "-no_equaliser"][..], "contradict"),
            (&["-can_isolate", "-no_isolate"][..], "contradict"),
            (&["-move_and_remove", "-move_or_remove"][..], "contradict"),
            (&["-classic", "-move_or_remove"][..], "contradict"),
            (&["-size=4", "-size=5"][..], "twice"),
            (&["-random"][..], "winning path"),
        ] {
            let e = parse(words).unwrap_err().0;
            assert!(e.contains(why), "{words:?}: {e}");
            assert!(e.contains("valid options"), "{words:?}: {e}");
        }
    }
}
