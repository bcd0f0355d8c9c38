//! The dead-stone agreement after two passes, as KGS and OGS hold it (a server step on top of
//! `go-rules.md` section 5, whose Tromp–Taylor score the engine keeps): what a player may send in
//! it, the marking of dead blocks and the area score with the marked stones taken off. The board no
//! longer changes during the step, so blocks are found on it as it stands. [`super::hosted`] keeps
//! the step in the game's move list.

use std::collections::BTreeSet;

use super::board::{BLACK, EMPTY, Goban, WHITE};
use super::options::half_points;

/// What a player sends in the scoring step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// Marks the blocks of these stones dead.
    Dead(Vec<usize>),
    /// Takes the mark off the blocks of these stones.
    Alive(Vec<usize>),
    /// Accepts the marking as it stands.
    Accept,
    /// Disagrees: play goes on, the other player to move.
    Resume,
}

impl Act {
    /// The canonical text, as the move list shows it: `dead d4 q16`, `accept`.
    pub fn text(&self, board: &Goban) -> String {
        let points = |word: &str, ps: &[usize]| {
            let names: Vec<String> = ps.iter().map(|&p| board.name(p)).collect();
            format!("{word} {}", names.join(" "))
        };
        match self {
            Act::Dead(ps) => points("dead", ps),
            Act::Alive(ps) => points("alive", ps),
            Act::Accept => "accept".into(),
            Act::Resume => "resume".into(),
        }
    }
}

/// Reads a scoring word and its points: `Ok(None)` when `text` does not start with one (a stone or
/// `pass`), an error saying what is wrong when it does but the rest is not right.
pub fn read_act(board: &Goban, text: &str) -> Result<Option<Act>, String> {
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let Some(first) = words.first() else {
        return Ok(None);
    };
    let rest = &words[1..];
    match first.as_str() {
        "dead" | "alive" => {
            if rest.is_empty() {
                return Err(format!(
                    "'{first}' needs the points of the groups it names: write {first} d4, or \
                     {first} d4 q16 for several"
                ));
            }
            let points = rest
                .iter()
                .map(|w| board.read(w))
                .collect::<Result<Vec<usize>, String>>()?;
            Ok(Some(if first == "dead" {
                Act::Dead(points)
            } else {
                Act::Alive(points)
            }))
        }
        "accept" | "resume" => {
            if !rest.is_empty() {
                return Err(format!(
                    "'{first}' takes nothing after it (you wrote '{}')",
                    text.trim()
                ));
            }
            Ok(Some(if first == "accept" {
                Act::Accept
            } else {
                Act::Resume
            }))
        }
        _ => Ok(None),
    }
}

/// The stones of the block on `p` (a stone), a1 side first.
pub fn block(board: &Goban, p: usize) -> Vec<usize> {
    let colour = board.at(p);
    let s = board.n + 2;
    let mut stones = vec![p];
    let mut i = 0;
    while i < stones.len() {
        let q = stones[i];
        for r in [q - 1, q + 1, q - s, q + s] {
            if board.at(r) == colour && !stones.contains(&r) {
                stones.push(r);
            }
        }
        i += 1;
    }
    stones.sort_unstable();
    stones
}

/// Who owns each point once the stones on `dead` are taken off, by Tromp–Taylor reach: a stone's
/// colour for a live stone, the colour an empty region reaches alone, `EMPTY` for dame.
pub fn owners(board: &Goban, dead: &BTreeSet<usize>) -> Vec<u8> {
    let at = |p: usize| {
        let c = board.at(p);
        if (c == BLACK || c == WHITE) && dead.contains(&p) {
            EMPTY
        } else {
            c
        }
    };
    let s = board.n + 2;
    let mut owner = vec![EMPTY; s * s];
    let mut seen = vec![false; s * s];
    for p in board.points() {
        let c = at(p);
        if c != EMPTY {
            owner[p] = c;
            continue;
        }
        if seen[p] {
            continue;
        }
        let mut region = vec![p];
        seen[p] = true;
        let mut reaches = [false; 3];
        let mut i = 0;
        while i < region.len() {
            let q = region[i];
            for r in [q - 1, q + 1, q - s, q + s] {
                match at(r) {
                    EMPTY if !seen[r] => {
                        seen[r] = true;
                        region.push(r);
                    }
                    c @ (BLACK | WHITE) => reaches[c as usize] = true,
                    _ => {}
                }
            }
            i += 1;
        }
        let who = match (reaches[1], reaches[2]) {
            (true, false) => BLACK,
            (false, true) => WHITE,
            _ => EMPTY,
        };
        for q in region {
            owner[q] = who;
        }
    }
    owner
}

/// Black's and White's area with the stones on `dead` taken off.
pub fn area(board: &Goban, dead: &BTreeSet<usize>) -> (u32, u32) {
    let owner = owners(board, dead);
    let count = |c: u8| board.points().filter(|&p| owner[p] == c).count() as u32;
    (count(BLACK), count(WHITE))
}

/// The score line from the areas and the komi, as the board mail shows it:
/// `Black 40, White 41 + 7.5 = 48.5: White wins by 8.5`.
pub fn score_line(b: u32, w: u32, komi_halves: i32, komi: &str) -> String {
    let (bh, wh) = (2 * b as i32, 2 * w as i32 + komi_halves);
    let verdict = match bh.cmp(&wh) {
        std::cmp::Ordering::Greater => format!("Black wins by {}", half_points(bh - wh)),
        std::cmp::Ordering::Less => format!("White wins by {}", half_points(wh - bh)),
        std::cmp::Ordering::Equal => "a draw".to_string(),
    };
    format!(
        "Black {b}, White {w} + {komi} = {}: {verdict}",
        half_points(wh)
    )
}

/// The margin and the scores as a text record's `Result:` line gives them after `wins by`
/// (records.md 1.1): `7.5 (Black 36, White 36 + 7.5)`.
pub fn result_words(b: u32, w: u32, komi_halves: i32, komi: &str) -> String {
    let margin = (2 * b as i32 - 2 * w as i32 - komi_halves).abs();
    format!("{} (Black {b}, White {w} + {komi})", half_points(margin))
}

/// The scoring step in progress: the marking and who accepted it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Every stone of the blocks marked dead.
    pub dead: BTreeSet<usize>,
    /// The point the player named for each marked block, in the order marked: the board mail
    /// names a block by it (issue 37: `dead g4` was listed as `h1 (7 black stones)`, the block's
    /// first stone, which the player never wrote).
    pub named: Vec<usize>,
    /// Which seats accepted the marking as it stands.
    pub accepted: [bool; 2],
    /// The seat the step waits for (the clocks and the robots read it): a seat that has not
    /// accepted.
    pub awaited: usize,
}

impl Step {
    /// A step with nothing marked, waiting for `seat` (the player who would have moved).
    pub fn open(seat: usize) -> Step {
        Step {
            dead: BTreeSet::new(),
            named: Vec::new(),
            accepted: [false; 2],
            awaited: seat,
        }
    }

    /// `seat` marks the blocks of `points` dead (`dead` true) or takes the mark off (false). Any
    /// change clears both acceptances and waits for the other player. Nothing changes on an error.
    pub fn mark(
        &mut self,
        board: &Goban,
        seat: usize,
        points: &[usize],
        dead: bool,
    ) -> Result<(), String> {
        let mut next = self.dead.clone();
        let mut named = self.named.clone();
        for &p in points {
            let name = board.name(p);
            if board.at(p) == EMPTY {
                return Err(format!(
                    "{name} is empty: name a stone of each group, such as the point of one of \
                     its stones"
                ));
            }
            let stones = block(board, p);
            let marked = self.dead.contains(&p);
            if dead && marked {
                return Err(format!(
                    "the group on {name} is already marked dead; to take the mark off, send \
                     alive {name}"
                ));
            }
            if !dead && !marked {
                return Err(format!(
                    "the group on {name} is not marked dead: there is no mark to take off"
                ));
            }
            if dead {
                // `dead b5 b4` names one block twice: it is listed once, by the first name.
                if !next.contains(&p) {
                    named.push(p);
                }
                next.extend(stones);
            } else {
                named.retain(|q| !stones.contains(q));
                for q in stones {
                    next.remove(&q);
                }
            }
        }
        self.dead = next;
        self.named = named;
        self.accepted = [false; 2];
        self.awaited = 1 - seat;
        Ok(())
    }

    /// `seat` accepts the marking; true when both have now accepted it.
    pub fn accept(&mut self, seat: usize, sides: [&str; 2]) -> Result<bool, String> {
        if self.accepted[seat] {
            return Err(format!(
                "you have already accepted this marking; the game waits for {} to accept it, \
                 change it or resume play",
                sides[1 - seat]
            ));
        }
        self.accepted[seat] = true;
        self.awaited = 1 - seat;
        Ok(self.accepted == [true, true])
    }

    /// The marked blocks in words, in the order marked, each by the point its player named:
    /// `d4 (3 black stones), q16 (1 white stone)`; `none` when nothing is marked.
    pub fn describe(&self, board: &Goban) -> String {
        if self.named.is_empty() {
            return "none".into();
        }
        let parts: Vec<String> = self.named.iter().map(|&p| group_words(board, p)).collect();
        parts.join(", ")
    }
}

/// The block on `p` in words: `b5 (2 white stones)`; the point alone when it holds no stone.
pub fn group_words(board: &Goban, p: usize) -> String {
    let colour = match board.at(p) {
        BLACK => "black",
        WHITE => "white",
        _ => return board.name(p),
    };
    let n = block(board, p).len();
    let plural = if n == 1 { "" } else { "s" };
    format!("{} ({n} {colour} stone{plural})", board.name(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 5×5 board from rows written top first: `X` Black, `O` White, `.` empty.
    fn board(rows: &[&str]) -> Goban {
        let n = rows.len();
        let mut g = Goban::new(n);
        for (i, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let p = g.point(c, n - 1 - i);
                match ch {
                    'X' => g.setup(p, BLACK),
                    'O' => g.setup(p, WHITE),
                    _ => {}
                }
            }
        }
        g
    }

    fn pts(g: &Goban, names: &[&str]) -> Vec<usize> {
        names.iter().map(|n| g.read(n).unwrap()).collect()
    }

    // Black's wall on the b-column and White's on the d-column; a white stone sits dead on a3 in
    // Black's area, a black one on e3 in White's.
    const ROWS: [&str; 5] = [".X.O.", ".XXO.", "OX.OX", ".X.O.", ".X.O."];

    #[test]
    fn reading_the_words_of_the_step() {
        let g = Goban::new(9);
        assert_eq!(
            read_act(&g, "Dead D4, e5").unwrap(),
            Some(Act::Dead(pts(&g, &["d4", "e5"])))
        );
        assert_eq!(read_act(&g, " accept ").unwrap(), Some(Act::Accept));
        assert_eq!(read_act(&g, "resume").unwrap(), Some(Act::Resume));
        assert_eq!(read_act(&g, "d4").unwrap(), None);
        assert_eq!(read_act(&g, "pass").unwrap(), None);
        assert!(read_act(&g, "dead").unwrap_err().contains("write dead d4"));
        assert!(
            read_act(&g, "dead i4")
                .unwrap_err()
                .contains("skip the letter i")
        );
        assert!(
            read_act(&g, "accept d4")
                .unwrap_err()
                .contains("nothing after")
        );
        assert_eq!(Act::Dead(pts(&g, &["d4", "e5"])).text(&g), "dead d4 e5");
    }

    #[test]
    fn dead_stones_count_for_the_side_whose_area_they_sit_in() {
        let g = board(&ROWS);
        // Tromp–Taylor as it stands: the white a3 and the black e3 make every empty point dame.
        assert_eq!(area(&g, &BTreeSet::new()), g.area());
        assert_eq!(g.area(), (7, 6));
        let mut step = Step::open(0);
        step.mark(&g, 0, &pts(&g, &["a3", "e3"]), true).unwrap();
        // Black: 6 live stones and the a-column; White: 5 stones and the e-column; the c-column
        // touches both and stays dame.
        assert_eq!(area(&g, &step.dead), (6 + 5, 5 + 5));
        assert_eq!(
            score_line(11, 10, 15, "7.5"),
            "Black 11, White 10 + 7.5 = 17.5: White wins by 6.5"
        );
        assert_eq!(step.describe(&g), "a3 (1 white stone), e3 (1 black stone)");
    }

    #[test]
    fn marking_names_whole_blocks_and_any_change_clears_acceptances() {
        let g = board(&ROWS);
        let mut step = Step::open(1);
        assert!(!step.accept(1, ["Black", "White"]).unwrap());
        assert_eq!(step.awaited, 0);
        assert!(
            step.accept(1, ["Black", "White"])
                .unwrap_err()
                .contains("waits for Black")
        );
        // One point names the whole block: b1 takes b1..b5 and c4.
        step.mark(&g, 0, &pts(&g, &["b1"]), true).unwrap();
        assert_eq!(step.dead.len(), 6);
        assert_eq!(step.accepted, [false, false], "the change cleared White's");
        assert_eq!(step.awaited, 1);
        let before = step.clone();
        let e = step.mark(&g, 1, &pts(&g, &["d1", "b3"]), true).unwrap_err();
        assert!(
            e.contains("already marked dead") && e.contains("alive b3"),
            "{e}"
        );
        assert_eq!(step, before, "an error changes nothing, d1 included");
        assert!(
            step.mark(&g, 1, &pts(&g, &["c3"]), true)
                .unwrap_err()
                .contains("empty")
        );
        assert!(
            step.mark(&g, 1, &pts(&g, &["d1"]), false)
                .unwrap_err()
                .contains("not marked")
        );
        step.mark(&g, 1, &pts(&g, &["c4"]), false).unwrap();
        assert!(step.dead.is_empty());
        assert!(!step.accept(0, ["Black", "White"]).unwrap());
        assert!(step.accept(1, ["Black", "White"]).unwrap());
    }

    #[test]
    fn a_marked_group_is_named_by_the_stone_its_player_named() {
        let g = board(&ROWS);
        let mut step = Step::open(0);
        // b3 is in the middle of Black's block b1..b5 + c4; e3 is White's single stone's foe.
        step.mark(&g, 1, &pts(&g, &["b3", "b4"]), true).unwrap();
        step.mark(&g, 0, &pts(&g, &["a3"]), true).unwrap();
        assert_eq!(
            step.describe(&g),
            "b3 (6 black stones), a3 (1 white stone)",
            "in the order marked, each block once, by its first name"
        );
        // Taking the mark off by another stone of the block drops its name.
        step.mark(&g, 0, &pts(&g, &["c4"]), false).unwrap();
        assert_eq!(step.describe(&g), "a3 (1 white stone)");
        assert_eq!(group_words(&g, g.read("c3").unwrap()), "c3");
    }
}
