//! The options of `go challenge` (`go-rules.md` section 3): size, komi, fixed handicap.

use super::board::LETTERS;
use crate::games::{GameOption, RuleError};

/// The options in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoOptions {
    /// Points per side, 2..=25.
    pub size: u8,
    /// The komi in half points (7.5 is 15), so that equality is exact.
    pub komi_halves: i32,
    /// Black's handicap stones (0: none).
    pub handicap: u8,
}

const VALID: &str = "the options are -size=N (2 to 25, default 19), -komi=K (a whole or half \
                     number, default 7.5, or 0.5 with a handicap), -handicap=H (2 to 9 on odd \
                     sizes from 9, 2 to 4 on even sizes from 8) and -scoring=agreement or area \
                     (a challenge's default: agreement)";

/// How a game ends after two passes, from `-scoring=` (the server's option, on top of
/// `go-rules.md`): the dead-stone agreement (`agreement`, a challenge's default) or the
/// Tromp–Taylor count at once (`area`, `pbem engine go new`'s default). `None` when not given.
/// Returns the other options.
pub fn take_scoring(options: &[GameOption]) -> Result<(Option<bool>, Vec<GameOption>), RuleError> {
    let mut agreement = None;
    let mut rest = Vec::new();
    for o in options {
        if !o.name.eq_ignore_ascii_case("scoring") {
            rest.push(o.clone());
            continue;
        }
        if agreement.is_some() {
            return Err(RuleError("-scoring is given twice: give it once".into()));
        }
        let value = o.value.as_deref().unwrap_or("").trim().to_ascii_lowercase();
        agreement = Some(match value.as_str() {
            "agreement" => true,
            "area" => false,
            _ => {
                return Err(RuleError(format!(
                    "-scoring is agreement (after two passes the players agree on dead stones, \
                     as on KGS) or area (two passes end the game, every stone counted): \
                     -scoring=agreement; '{value}' is neither"
                )));
            }
        });
    }
    Ok((agreement, rest))
}

impl GoOptions {
    /// Reads a challenge's options.
    pub fn read(options: &[GameOption]) -> Result<GoOptions, RuleError> {
        let (mut size, mut komi, mut handicap) = (None, None, None);
        for o in options {
            let value = o.value.as_deref().map(str::trim).unwrap_or("");
            let slot = match o.name.to_ascii_lowercase().as_str() {
                "size" => &mut size,
                "komi" => &mut komi,
                "handicap" => &mut handicap,
                _ => return Err(RuleError(format!("Go has no option -{}: {VALID}", o.name))),
            };
            if slot.is_some() {
                return Err(RuleError(format!(
                    "-{} is given twice: give it once",
                    o.name
                )));
            }
            *slot = Some(value.to_string());
        }
        let size = match size {
            None => 19,
            Some(v) => v
                .parse::<u8>()
                .ok()
                .filter(|n| (2..=25).contains(n))
                .ok_or_else(|| {
                    RuleError(format!(
                        "-size takes a number from 2 to 25, such as -size=9; '{v}' is not one"
                    ))
                })?,
        };
        let handicap = match handicap {
            None => 0,
            Some(v) => {
                let h = v.parse::<u8>().map_err(|_| {
                    RuleError(format!(
                        "-handicap takes a number of stones, such as -handicap=4; '{v}' is not one"
                    ))
                })?;
                let most = max_handicap(size);
                if h == 1 {
                    return Err(RuleError(
                        "-handicap=1 is just Black's first move: for a smaller komi write \
                         -komi=0.5 instead"
                            .into(),
                    ));
                }
                if most == 0 {
                    return Err(RuleError(format!(
                        "a {size}x{size} board takes no handicap: handicaps are for sizes 8 to 25"
                    )));
                }
                if !(2..=most).contains(&h) {
                    return Err(RuleError(format!(
                        "-handicap on {size}x{size} takes 2 to {most} stones; {h} is not allowed"
                    )));
                }
                h
            }
        };
        let komi_halves = match komi {
            None if handicap > 0 => 1,
            None => 15,
            Some(v) => {
                let k: f64 = v.parse().map_err(|_| {
                    RuleError(format!(
                        "-komi takes a whole or half number, such as -komi=6.5; '{v}' is not one"
                    ))
                })?;
                let halves = k * 2.0;
                if halves.fract() != 0.0 || !halves.is_finite() {
                    return Err(RuleError(format!(
                        "-komi must be a whole or half number (6, 6.5); '{v}' is not"
                    )));
                }
                let most = f64::from(size) * f64::from(size);
                if k.abs() > most {
                    return Err(RuleError(format!(
                        "-komi on {size}x{size} is at most {most} points either way; {v} is too much"
                    )));
                }
                halves as i32
            }
        };
        Ok(GoOptions {
            size,
            komi_halves,
            handicap,
        })
    }

    /// The komi as players write it: `7.5`, `6`, `-0.5`.
    pub fn komi_text(&self) -> String {
        half_points(self.komi_halves)
    }

    /// The options line of the board summary.
    pub fn summary(&self) -> String {
        let mut s = format!("-size={} -komi={}", self.size, self.komi_text());
        if self.handicap > 0 {
            s.push_str(&format!(" -handicap={}", self.handicap));
        }
        s
    }

    /// The handicap points as (column, row), 0-based, in the page's order.
    pub fn handicap_points(&self) -> Vec<(usize, usize)> {
        handicap_points(self.size, self.handicap)
    }
}

/// Half points as text: 15 is `7.5`, 12 is `6`, -1 is `-0.5`.
pub fn half_points(halves: i32) -> String {
    if halves % 2 == 0 {
        (halves / 2).to_string()
    } else {
        format!(
            "{}{}.5",
            if halves < 0 { "-" } else { "" },
            (halves / 2).abs()
        )
    }
}

/// The most handicap stones a size takes: 9 on odd sizes 9..25, 4 on even sizes 8..24, else 0.
pub fn max_handicap(size: u8) -> u8 {
    match size {
        8..=25 if size % 2 == 1 => 9,
        8..=25 => 4,
        _ => 0,
    }
}

/// GTP's fixed handicap points (section 3.2), 0-based (column, row).
pub fn handicap_points(size: u8, stones: u8) -> Vec<(usize, usize)> {
    if stones < 2 {
        // No stones: and the corners below are not defined on boards under 5x5.
        return Vec::new();
    }
    let n = size as usize;
    let e = if n < 13 { 3 } else { 4 };
    let (lo, hi, mid) = (e - 1, n - e, n.div_ceil(2) - 1);
    let corners = [(lo, lo), (hi, hi), (lo, hi), (hi, lo)];
    let mut pts: Vec<(usize, usize)> = match stones {
        0 | 1 => Vec::new(),
        2..=4 => corners[..stones as usize].to_vec(),
        5 => [&corners[..], &[(mid, mid)]].concat(),
        _ => [&corners[..], &[(lo, mid), (hi, mid)]].concat(),
    };
    match stones {
        7 => pts.push((mid, mid)),
        8 | 9 => {
            pts.extend([(mid, lo), (mid, hi)]);
            if stones == 9 {
                pts.push((mid, mid));
            }
        }
        _ => {}
    }
    pts
}

/// A point's GTP name from 0-based (column, row).
pub fn point_name(c: usize, r: usize) -> String {
    format!("{}{}", LETTERS[c] as char, r + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(size: u8, h: u8) -> Vec<String> {
        handicap_points(size, h)
            .into_iter()
            .map(|(c, r)| point_name(c, r))
            .collect()
    }

    #[test]
    fn the_pages_handicap_points() {
        assert_eq!(names(19, 2), ["d4", "q16"]);
        assert_eq!(names(19, 4), ["d4", "q16", "d16", "q4"]);
        assert_eq!(
            names(19, 9),
            ["d4", "q16", "d16", "q4", "d10", "q10", "k4", "k16", "k10"]
        );
        assert_eq!(names(9, 2), ["c3", "g7"]);
        assert_eq!(names(19, 5)[4], "k10");
        assert_eq!(names(19, 7).len(), 7);
    }

    #[test]
    fn options_and_their_errors() {
        let o = |s: &[(&str, &str)]| {
            GoOptions::read(
                &s.iter()
                    .map(|(n, v)| GameOption::with_value(n, v))
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(o(&[]).unwrap().summary(), "-size=19 -komi=7.5");
        assert_eq!(
            o(&[("size", "9"), ("handicap", "2")]).unwrap().summary(),
            "-size=9 -komi=0.5 -handicap=2"
        );
        assert_eq!(o(&[("komi", "-0.5")]).unwrap().komi_text(), "-0.5");
        assert_eq!(o(&[("komi", "6")]).unwrap().komi_text(), "6");
        assert!(o(&[("komi", "6.3")]).is_err());
        assert!(o(&[("size", "26")]).is_err());
        assert!(o(&[("handicap", "1")]).unwrap_err().0.contains("-komi=0.5"));
        assert!(o(&[("size", "8"), ("handicap", "5")]).is_err());
        assert!(o(&[("size", "7"), ("handicap", "2")]).is_err());
        assert!(o(&[("size", "3"), ("komi", "10")]).is_err());
        assert!(o(&[("swap", "")]).unwrap_err().0.contains("-size=N"));
    }
}
