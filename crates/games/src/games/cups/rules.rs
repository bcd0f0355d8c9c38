//! Cups (Sid Sackson's mancala, `cups-rules.md`): drops from the reserve, sows into the bowl,
//! captures by a drop's last bean landing in an empty cup, automatic passes, the end when nobody can
//! move. Positions are values.

use crate::games::Outcome;

/// One turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// `dK`: K beans from the reserve, one into each of cups 1..=K.
    Drop(u8),
    /// `sI`: cup I (holding exactly n + 1 − I beans) sown towards the bowl.
    Sow(u8),
}

impl Move {
    /// The canonical text: `d3`, `s2`.
    pub fn text(self) -> String {
        match self {
            Move::Drop(k) => format!("d{k}"),
            Move::Sow(i) => format!("s{i}"),
        }
    }

    /// Reads a move (case and white space ignored); the error says how to write one.
    pub fn read(text: &str, n: u8) -> Result<Move, String> {
        let t: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        let how = format!(
            "write a drop as d and the number of beans (d1 to d{n}), a sow as s and the cup (s1 to s{n})"
        );
        if t == "pass" {
            return Err(format!(
                "you cannot pass: a player who has a move must make one, and the engine passes for \
                 a player who has none; {how}"
            ));
        }
        if t == "resign" {
            return Err("resigning is a command of its own (resign), not a move".into());
        }
        let (kind, num) = t.split_at(t.chars().next().map_or(0, char::len_utf8));
        let k: u8 = num
            .parse()
            .ok()
            .filter(|k| (1..=n).contains(k) && !num.starts_with('0'))
            .ok_or_else(|| format!("'{t}' is not a move: {how}"))?;
        match kind {
            "d" => Ok(Move::Drop(k)),
            "s" => Ok(Move::Sow(k)),
            _ => Err(format!("'{t}' is not a move: {how}")),
        }
    }
}

/// A position: both sides' cups (index 0 is the side's own cup 1), bowls and reserves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// Cups per side.
    pub n: u8,
    /// Beans in each cup, per seat (0 South, 1 North), numbered from that side's own left.
    pub cups: [Vec<u16>; 2],
    /// Beans in each bowl.
    pub bowls: [u16; 2],
    /// Beans in each reserve.
    pub reserves: [u16; 2],
    /// The seat to move (meaningless once over).
    pub to_move: usize,
    /// The result once nobody can move.
    pub result: Option<Outcome>,
}

impl Position {
    /// The start: empty cups and bowls, 10 n beans in each reserve.
    pub fn start(n: u8) -> Position {
        Position {
            n,
            cups: [vec![0; n as usize], vec![0; n as usize]],
            bowls: [0, 0],
            reserves: [10 * u16::from(n); 2],
            to_move: 0,
            result: None,
        }
    }

    /// The legal moves of `seat`: drops then sows, by number.
    pub fn moves_of(&self, seat: usize, out: &mut Vec<Move>) {
        out.clear();
        let drops = u16::from(self.n).min(self.reserves[seat]) as u8;
        out.extend((1..=drops).map(Move::Drop));
        out.extend(
            (1..=self.n)
                .filter(|&i| self.cups[seat][i as usize - 1] == u16::from(self.n + 1 - i))
                .map(Move::Sow),
        );
    }

    fn can_move(&self, seat: usize) -> bool {
        self.reserves[seat] > 0
            || (1..=self.n).any(|i| self.cups[seat][i as usize - 1] == u16::from(self.n + 1 - i))
    }

    /// The legal moves of the player to move; none once over.
    pub fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.result.is_none() {
            self.moves_of(self.to_move, out);
        }
    }

    /// Why `mv` is illegal here, if it is.
    pub fn check(&self, mv: Move) -> Result<(), String> {
        if self.result.is_some() {
            return Err("the game is over".into());
        }
        let seat = self.to_move;
        match mv {
            Move::Drop(k) if u16::from(k) > self.reserves[seat] => Err(format!(
                "your reserve holds {} bean{}: you cannot drop {k}",
                self.reserves[seat],
                if self.reserves[seat] == 1 { "" } else { "s" }
            )),
            Move::Sow(i) => {
                let want = u16::from(self.n + 1 - i);
                let has = self.cups[seat][i as usize - 1];
                if has == want {
                    Ok(())
                } else {
                    Err(format!(
                        "cup {i} must hold exactly {want} bean{} to be sown; it holds {has}",
                        if want == 1 { "" } else { "s" }
                    ))
                }
            }
            Move::Drop(_) => Ok(()),
        }
    }

    /// Plays a legal move, then the automatic passes and the end. Returns (beans captured, passes
    /// made after the move).
    pub fn apply(&mut self, mv: Move) -> (u16, u32) {
        let seat = self.to_move;
        let n = self.n as usize;
        let mut captured = 0;
        match mv {
            Move::Drop(k) => {
                let k = k as usize;
                self.reserves[seat] -= k as u16;
                let was_empty = self.cups[seat][k - 1] == 0;
                for c in &mut self.cups[seat][..k] {
                    *c += 1;
                }
                if was_empty {
                    // The facing cup is the opponent's n + 1 − K, index n − K.
                    let facing = &mut self.cups[1 - seat][n - k];
                    captured = *facing;
                    *facing = 0;
                    self.bowls[seat] += captured;
                }
            }
            Move::Sow(i) => {
                let i = i as usize;
                self.cups[seat][i - 1] = 0;
                for c in &mut self.cups[seat][i..] {
                    *c += 1;
                }
                self.bowls[seat] += 1;
            }
        }
        self.to_move = 1 - seat;
        let mut passes = 0;
        if !self.can_move(self.to_move) {
            if self.can_move(seat) {
                self.to_move = seat;
                passes = 1;
            } else {
                self.result = Some(match self.bowls[0].cmp(&self.bowls[1]) {
                    std::cmp::Ordering::Greater => Outcome::Winner(0),
                    std::cmp::Ordering::Less => Outcome::Winner(1),
                    std::cmp::Ordering::Equal => Outcome::Draw(vec![0, 1]),
                });
            }
        }
        (captured, passes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_from_the_start_matches_the_page() {
        // Through the record's walk, which the game's perft is (passes take no depth).
        let p = Position::start(4);
        let got: Vec<u64> = (1..=5)
            .map(|d| crate::games::matchplay::perft(&p, d))
            .collect();
        assert_eq!(got, [4, 16, 67, 281, 1_252]);
    }

    #[test]
    fn wikipedias_opening_captures_one_bean() {
        // South drops 4; North drops 3 into empty cups: its cup 3 faces South's cup 2 (n + 1 − 3).
        let mut p = Position::start(4);
        p.apply(Move::Drop(4));
        assert_eq!(p.cups[0], [1, 1, 1, 1]);
        let (captured, _) = p.apply(Move::Drop(3));
        assert_eq!(captured, 1);
        assert_eq!(p.cups[0], [1, 0, 1, 1]);
        assert_eq!(p.bowls, [0, 1]);
        assert_eq!(p.cups[1], [1, 1, 1, 0], "the capturing bean stays");
    }

    #[test]
    fn a_sow_needs_the_exact_count_and_ends_in_the_bowl() {
        let mut p = Position::start(4);
        p.cups[0] = vec![0, 3, 0, 0];
        assert!(
            p.check(Move::Sow(1))
                .unwrap_err()
                .contains("cup 1 must hold exactly 4 beans")
        );
        p.apply(Move::Sow(2));
        assert_eq!((p.cups[0].clone(), p.bowls[0]), (vec![0, 0, 1, 1], 1));
        let e = Move::read("x2", 4).unwrap_err();
        assert!(e.contains("d1 to d4"), "{e}");
        assert_eq!(Move::read(" S 3", 4).unwrap(), Move::Sow(3));
        assert!(Move::read("d5", 4).is_err() && Move::read("d01", 4).is_err());
        assert!(Move::read("pass", 4).unwrap_err().contains("cannot pass"));
    }

    #[test]
    fn a_stuck_player_passes_and_the_game_ends_when_nobody_moves() {
        let mut p = Position::start(3);
        p.reserves = [1, 0];
        p.cups = [vec![0, 0, 0], vec![0, 0, 0]];
        // North is stuck already; South drops its last bean: nobody can move, bowls 0-0: a draw.
        let (_, passes) = p.apply(Move::Drop(1));
        assert_eq!(passes, 0);
        assert_eq!(p.result, Some(Outcome::Draw(vec![0, 1])));

        let mut p = Position::start(3);
        p.reserves = [2, 0];
        p.cups = [vec![0, 0, 0], vec![0, 0, 0]];
        let (_, passes) = p.apply(Move::Drop(1));
        assert_eq!(
            (passes, p.to_move, p.result.clone()),
            (1, 0, None),
            "North passes"
        );
        p.bowls = [0, 2];
        p.apply(Move::Drop(1));
        // South's cup 1 holds 2 beans, not 3: no sow; nobody can move; North's bowl wins.
        assert_eq!(p.result, Some(Outcome::Winner(1)));
    }
}
