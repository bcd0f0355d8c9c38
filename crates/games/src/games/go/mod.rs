//! Go as `go-rules.md` settles it: area scoring in the Tromp–Taylor form, positional superko, no
//! suicide, two passes end the game, komi, optional fixed handicap. [`board`] holds the rules of one
//! board; this module keeps the move list and the JSON document (the options and the moves,
//! replayed on load) and implements the server's traits; [`render`] draws the board.

pub mod board;
pub mod hosted;
pub mod options;
pub mod playout;
pub mod render;
pub mod scoring;

use serde::{Deserialize, Serialize};

use super::{
    GameOption, GameRules, GameState, Loss, MoveRecord, Outcome, RuleError, SgfForm, Status,
};
use board::{BLACK, Goban, Illegal, WHITE};
use options::{GoOptions, half_points};

/// The game type Go.
pub struct Go;

impl GameRules for Go {
    fn name(&self) -> &'static str {
        "go"
    }
    fn title(&self) -> &'static str {
        "Go"
    }
    fn players(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }
    fn help(&self) -> String {
        include_str!("help.txt").to_string()
    }
    fn new_game(
        &self,
        options: &[GameOption],
        players: usize,
        _seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        // `pbem engine go new` gives the spec's rules alone unless -scoring=agreement asks for the
        // server's step, so that a record's Options line makes the game it was played as.
        new(options, players, false)
    }
    fn new_hosted_game(
        &self,
        options: &[GameOption],
        players: usize,
        _seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        // A challenge has the scoring step after two passes (a server feature, go-rules.md 5)
        // unless it says -scoring=area.
        new(options, players, true)
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        if hosted::is_hosted(json) {
            return Ok(Box::new(hosted::HostedGo::from_json(json)?));
        }
        Ok(Box::new(GoGame::from_json(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        let first = mv.split_whitespace().next().unwrap_or("").to_lowercase();
        if matches!(first.as_str(), "dead" | "alive" | "accept" | "resume") {
            return Err(RuleError(format!(
                "'{first}' answers the scoring step after two passes and cannot be queued: \
                 send it with go move when the step is open"
            )));
        }
        let t = normalise(mv);
        if t == "pass" {
            return Ok(());
        }
        Goban::new(25).read(&t).map(|_| ()).map_err(RuleError)
    }
    fn reads_as_move(&self, mv: &str) -> bool {
        // The scoring step's words, read on the largest board (the game's own reads them again).
        self.read_move(mv).is_ok() || matches!(scoring::read_act(&Goban::new(25), mv), Ok(Some(_)))
    }
}

/// A new game of `options`, with the scoring step when they say so or (not saying) by `agreement`.
fn new(
    options: &[GameOption],
    players: usize,
    agreement: bool,
) -> Result<Box<dyn GameState>, RuleError> {
    if players != 2 {
        return Err(RuleError(format!(
            "Go is a game for two players, not {players}"
        )));
    }
    let (given, rest) = options::take_scoring(options)?;
    let opts = GoOptions::read(&rest)?;
    Ok(if given.unwrap_or(agreement) {
        Box::new(hosted::HostedGo::new(opts))
    } else {
        Box::new(GoGame::new(opts))
    })
}

/// One entry of the move list.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    Placed {
        seat: usize,
        point: usize,
        captured: u32,
    },
    Passed {
        seat: usize,
    },
    Left {
        seat: usize,
        how: &'static str,
    },
    Drawn {
        seat: usize,
    },
}

/// A game of Go.
#[derive(Debug, Clone)]
pub struct GoGame {
    opts: GoOptions,
    board: Goban,
    to_move: usize,
    entries: Vec<Entry>,
    result: Option<Outcome>,
    /// The number of entries when play last resumed after two passes (the hosted game's scoring
    /// step, [`hosted`]): a pass right after it does not end the game, whatever came before.
    resumed_at: usize,
}

#[derive(Serialize, Deserialize)]
struct Doc {
    game: String,
    size: u8,
    komi: String,
    #[serde(default)]
    handicap: u8,
    /// The entries in order: points, `pass`, `resign 0`, `forfeit 1`, `draw`.
    moves: Vec<String>,
    /// For people reading the document; ignored when it is read.
    #[serde(default)]
    status: String,
}

fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

const SIDES: [&str; 2] = ["Black", "White"];

impl GoGame {
    /// A new game: the handicap stones placed, White to move after them.
    pub fn new(opts: GoOptions) -> GoGame {
        let mut board = Goban::new(opts.size as usize);
        for (c, r) in opts.handicap_points() {
            let p = board.point(c, r);
            board.setup(p, BLACK);
        }
        GoGame {
            opts,
            board,
            to_move: usize::from(opts.handicap > 0),
            entries: Vec::new(),
            result: None,
            resumed_at: 0,
        }
    }

    /// Undoes the end by two passes (the hosted game's scoring step): the game goes on with `seat` to
    /// move, and it takes two new passes to end it again.
    pub(super) fn resume(&mut self, seat: usize) {
        self.result = None;
        self.to_move = seat;
        self.resumed_at = self.entries.len();
    }

    /// The game's options as its document writes them, read back.
    pub(super) fn options_of(size: u8, komi: &str, handicap: u8) -> Result<GoOptions, RuleError> {
        let mut opts = vec![GameOption::with_value("size", &size.to_string())];
        // The komi's bound applies to a -komi a challenge gives, not to the default (go-rules.md
        // section 3): a default komi is read back as the default, so that 7.5 on 2x2 loads.
        let default = if handicap > 0 { "0.5" } else { "7.5" };
        if komi != default {
            opts.push(GameOption::with_value("komi", komi));
        }
        if handicap > 0 {
            opts.push(GameOption::with_value("handicap", &handicap.to_string()));
        }
        GoOptions::read(&opts)
    }

    /// The board.
    pub fn board(&self) -> &Goban {
        &self.board
    }

    /// The options.
    pub fn options(&self) -> GoOptions {
        self.opts
    }

    /// The last stone placed, if the last entry of a player placed one.
    pub fn last_point(&self) -> Option<usize> {
        match self.entries.last() {
            Some(Entry::Placed { point, .. }) => Some(*point),
            _ => None,
        }
    }

    /// Black's and White's scores in half points, komi included (section 5).
    pub fn scores_halves(&self) -> (i32, i32) {
        let (b, w) = self.board.area();
        (2 * b as i32, 2 * w as i32 + self.opts.komi_halves)
    }

    /// The score line: `Black 40, White 41 + 7.5 = 48.5: White wins by 8.5`.
    pub fn score_line(&self) -> String {
        let (b, w) = self.board.area();
        let (bh, wh) = self.scores_halves();
        let verdict = match bh.cmp(&wh) {
            std::cmp::Ordering::Greater => format!("Black wins by {}", half_points(bh - wh)),
            std::cmp::Ordering::Less => format!("White wins by {}", half_points(wh - bh)),
            std::cmp::Ordering::Equal => "a draw".to_string(),
        };
        format!(
            "Black {b}, White {w} + {} = {}: {verdict}",
            self.opts.komi_text(),
            half_points(wh)
        )
    }

    /// After a pass that a second one would answer, what that second pass does and the score as
    /// it stands; nothing otherwise. The score is told only then: after move 1 it read "Black wins
    /// by 73.5" (issue 37), true by the rules and useless to a player. With the scoring `step` (the
    /// hosted game) the second pass opens it instead of ending the game.
    pub(super) fn pass_notes(&self, step: bool) -> Vec<String> {
        if self.result.is_some()
            || !matches!(self.entries.last(), Some(Entry::Passed { .. }))
            || self.entries.len() <= self.resumed_at
        {
            return Vec::new();
        }
        if step {
            vec![
                "The last move was a pass: a second pass ends play and opens the scoring step."
                    .into(),
                format!("Score now, every stone alive: {}.", self.score_line()),
            ]
        } else {
            vec![
                "The last move was a pass: a second pass ends the game.".into(),
                format!("Score if the game ended now: {}.", self.score_line()),
            ]
        }
    }

    /// True when the game ended by two passes (so the score decided it).
    fn ended_by_passes(&self) -> bool {
        self.result.is_some()
            && matches!(
                self.entries[..],
                [.., Entry::Passed { .. }, Entry::Passed { .. }]
            )
    }

    /// Reads the document and replays it.
    pub fn from_json(json: &str) -> Result<GoGame, RuleError> {
        let doc: Doc = serde_json::from_str(json)
            .map_err(|e| RuleError(format!("this is not a Go game document: {e}")))?;
        if doc.game != "go" {
            return Err(RuleError(format!(
                "this document is a game of '{}', not go",
                doc.game
            )));
        }
        let mut g = GoGame::new(GoGame::options_of(doc.size, &doc.komi, doc.handicap)?);
        super::replay::replay(&mut g, &doc.moves)?;
        Ok(g)
    }

    fn leave(&mut self, seat: usize, how: &'static str) -> Result<(), RuleError> {
        if seat > 1 {
            return Err(RuleError(format!("there is no seat {seat}")));
        }
        if self.result.is_some() {
            return Err(RuleError("the game is already over".into()));
        }
        self.result = Some(Outcome::Winner(1 - seat));
        self.entries.push(Entry::Left { seat, how });
        Ok(())
    }

    fn colour(seat: usize) -> u8 {
        if seat == 0 { BLACK } else { WHITE }
    }

    /// The board point of an action id (`row * n + column`), or `None` for the pass (`n * n`).
    fn action_point(&self, action: u32) -> Option<usize> {
        let n = self.board.n;
        let a = action as usize;
        (a < n * n).then(|| self.board.point(a % n, a / n))
    }

    /// The action id of a board point.
    fn point_action(&self, p: usize) -> u32 {
        let (c, r) = self.board.coords(p);
        (r * self.board.n + c) as u32
    }

    /// Places a stone for the player to move (legal: checked by the caller) and lists it.
    fn place_listed(&mut self, p: usize) -> Result<(), Illegal> {
        let seat = self.to_move;
        let captured = self.board.place(p, Self::colour(seat))?;
        self.entries.push(Entry::Placed {
            seat,
            point: p,
            captured,
        });
        self.to_move = 1 - seat;
        Ok(())
    }

    /// True when every neighbour of the empty point `p` is the mover's stone or the edge: a point a
    /// playout never fills (it would take a liberty the group needs to live).
    fn own_eye(&self, p: usize, colour: u8) -> bool {
        let s = self.board.n + 2;
        [p - 1, p + 1, p - s, p + s]
            .iter()
            .all(|&q| matches!(self.board.at(q), c if c == colour || c == 3))
    }

    fn pass(&mut self) {
        let seat = self.to_move;
        let second = matches!(self.entries.last(), Some(Entry::Passed { .. }))
            && self.entries.len() > self.resumed_at;
        self.entries.push(Entry::Passed { seat });
        self.to_move = 1 - seat;
        if second {
            let (b, w) = self.scores_halves();
            self.result = Some(match b.cmp(&w) {
                std::cmp::Ordering::Greater => Outcome::Winner(0),
                std::cmp::Ordering::Less => Outcome::Winner(1),
                std::cmp::Ordering::Equal => Outcome::Draw(vec![0, 1]),
            });
        }
    }
}

impl GameState for GoGame {
    fn to_json(&self) -> String {
        let moves = self
            .entries
            .iter()
            .map(|e| match e {
                Entry::Placed { point, .. } => self.board.name(*point),
                Entry::Passed { .. } => "pass".into(),
                Entry::Left { seat, how } => crate::games::replay::left(how, *seat),
                Entry::Drawn { .. } => "draw".into(),
            })
            .collect();
        serde_json::to_string_pretty(&Doc {
            game: "go".into(),
            size: self.opts.size,
            komi: self.opts.komi_text(),
            handicap: self.opts.handicap,
            moves,
            status: render::status_line(self),
        })
        .expect("the document serializes")
    }
    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(self.clone())
    }
    fn search_copy(&self) -> Box<dyn GameState> {
        // The copy is played to the end: room for about a game's moves at once.
        let mut g = self.clone();
        let room = 2 * self.board.n * self.board.n;
        g.board.reserve(room);
        g.entries.reserve(room);
        Box::new(g)
    }
    fn status(&self) -> Status {
        match &self.result {
            Some(r) => Status::Over(r.clone()),
            None => Status::ToMove(self.to_move),
        }
    }
    fn seat_names(&self) -> Vec<String> {
        SIDES.iter().map(|s| s.to_string()).collect()
    }
    fn move_number(&self) -> u32 {
        self.entries.len() as u32 + 1
    }
    fn moves(&self) -> Vec<MoveRecord> {
        self.entries
            .iter()
            .map(|e| {
                let (seat, text) = match e {
                    Entry::Placed { seat, point, .. } => (*seat, self.board.name(*point)),
                    Entry::Passed { seat } => (*seat, "pass".into()),
                    Entry::Left { seat, how } => (*seat, (*how).into()),
                    Entry::Drawn { seat } => (*seat, "draw".into()),
                };
                MoveRecord {
                    seat,
                    text,
                    auto: false,
                }
            })
            .collect()
    }
    fn options_summary(&self) -> String {
        // Said, since a challenge's default is the scoring step: a rematch reads this line back.
        format!("{} -scoring=area", self.opts.summary())
    }
    fn legal_moves(&self) -> Vec<String> {
        if self.result.is_some() {
            return Vec::new();
        }
        let colour = Self::colour(self.to_move);
        let mut out: Vec<String> = self
            .board
            .points()
            .filter(|&p| self.board.legal(p, colour))
            .map(|p| self.board.name(p))
            .collect();
        out.push("pass".into());
        out.sort();
        out
    }
    fn play(&mut self, text: &str) -> Result<(), RuleError> {
        if self.result.is_some() {
            return Err(RuleError(format!(
                "the game is over ({})",
                render::status_line(self)
            )));
        }
        let t = normalise(text);
        if t == "pass" {
            self.pass();
            return Ok(());
        }
        if t == "resign" {
            return Err(RuleError(
                "resigning is a command of its own (resign), not a move".into(),
            ));
        }
        let p = self.board.read(&t).map_err(RuleError)?;
        self.place_listed(p).map_err(|why| {
            RuleError(match why {
                Illegal::Occupied => format!("{t} is not empty"),
                Illegal::Suicide => format!(
                    "a stone on {t} would have no liberty and captures nothing: suicide is not \
                     allowed"
                ),
                Illegal::Superko => format!(
                    "a stone on {t} would repeat an earlier position of this game (ko: positional \
                     superko); play elsewhere first"
                ),
            })
        })
    }
    fn action_space(&self) -> u32 {
        (self.board.n * self.board.n) as u32 + 1
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let colour = Self::colour(self.to_move);
        for p in self.board.points() {
            if self.board.legal(p, colour) {
                out.push(self.point_action(p));
            }
        }
        out.push(self.action_space() - 1);
    }
    fn apply_action(&mut self, action: u32) {
        match self.action_point(action) {
            Some(p) => self
                .place_listed(p)
                .expect("the search plays listed actions only"),
            None => self.pass(),
        }
    }
    fn action_text(&self, action: u32) -> String {
        match self.action_point(action) {
            Some(p) => self.board.name(p),
            None => "pass".into(),
        }
    }
    fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        playout::run(self, pick, played);
        true
    }
    fn action_priors(&self, actions: &[u32], out: &mut Vec<f32>) {
        playout::priors(self, actions, out);
    }
    fn prior_results(&self, prior: f32) -> Option<(u32, f32)> {
        Some(playout::prior_results(prior))
    }
    fn level_playouts(&self, level: u8) -> Option<u32> {
        playout::level_playouts(usize::from(self.opts.size), level)
    }
    fn may_win_at_once(&self, action: u32) -> bool {
        // Only the second pass in a row ends a game; a stone never does.
        self.action_point(action).is_none()
            && matches!(self.entries.last(), Some(Entry::Passed { .. }))
    }
    fn resign(&mut self, seat: usize) -> Result<(), RuleError> {
        self.leave(seat, "resign")
    }
    fn forfeit(&mut self, seat: usize) -> Result<(), RuleError> {
        self.leave(seat, "forfeit")
    }
    fn agree_draw(&mut self) -> Result<(), RuleError> {
        if self.result.is_some() {
            return Err(RuleError("the game is already over".into()));
        }
        self.result = Some(Outcome::Draw(vec![0, 1]));
        self.entries.push(Entry::Drawn { seat: self.to_move });
        Ok(())
    }
    fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError> {
        if n == 0 || n > self.move_number() {
            return Err(RuleError(format!(
                "move {n} does not exist: this game is at move {}",
                self.move_number()
            )));
        }
        let mut g = GoGame::new(self.opts);
        for e in &self.entries[..n as usize - 1] {
            match e {
                Entry::Placed { point, .. } => g.play(&self.board.name(*point))?,
                Entry::Passed { .. } => g.pass(),
                Entry::Left { seat, how } => g.leave(*seat, how)?,
                Entry::Drawn { .. } => g.agree_draw()?,
            }
        }
        Ok(Box::new(g))
    }
    fn render(&self) -> String {
        render::ascii(self)
    }
    fn random_playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        // Uniform over the legal moves without listing them: draw among the empty points and
        // `pass`, and throw back a point that proves illegal (rejection without replacement).
        let mut played = 0;
        let mut open: Vec<usize> = Vec::with_capacity(self.board.n * self.board.n);
        while self.result.is_none() {
            self.board.empty_points(&mut open);
            loop {
                // Index `open.len()` is the pass.
                let k = pick(open.len() + 1);
                if k == open.len() {
                    self.pass();
                    break;
                }
                let p = open.swap_remove(k);
                if self.place_listed(p).is_ok() {
                    break;
                }
            }
            played += 1;
        }
        played
    }
    fn paint(&self, p: &mut dyn crate::picture::Painter) -> bool {
        render::paint(self, p);
        true
    }
    fn losses(&self, index: usize) -> Vec<Loss> {
        // The stones a capture took, by point, so that the news says `bob played e5 and captured
        // your stones on d4 and d5.` (before: `bob played e5.` and a note `White on e5 captured 2
        // stones.`). The board is replayed from the start: only placing changes it, so a game
        // resumed after the scoring step replays too.
        let Some(&Entry::Placed {
            seat,
            point,
            captured,
        }) = self.entries.get(index)
        else {
            return Vec::new();
        };
        if captured == 0 {
            return Vec::new();
        }
        let mut board = GoGame::new(self.opts).board;
        for e in &self.entries[..index] {
            if let Entry::Placed { seat, point, .. } = e {
                let _ = board.place(*point, Self::colour(*seat));
            }
        }
        let foe = Self::colour(1 - seat);
        let before: Vec<usize> = board.points().filter(|&p| board.at(p) == foe).collect();
        let _ = board.place(point, Self::colour(seat));
        vec![Loss {
            seat: 1 - seat,
            cells: before
                .into_iter()
                .filter(|&p| board.at(p) != foe)
                .map(|p| board.name(p))
                .collect(),
            piece: "stone",
        }]
    }
    fn entry_news(&self, index: usize) -> Option<String> {
        // `alice passed.`, not `alice played pass.` and a second line `Black passed.` (issue 37).
        matches!(self.entries.get(index), Some(Entry::Passed { .. })).then(|| "passed".into())
    }
    fn score_result(&self) -> Option<String> {
        self.ended_by_passes().then(|| {
            let (b, w) = self.board.area();
            let o = self.opts;
            scoring::result_words(b, w, o.komi_halves, &o.komi_text())
        })
    }
    fn notes(&self) -> Vec<String> {
        let mut notes = vec![format!(
            "Komi {} (added to White's score).",
            self.opts.komi_text()
        )];
        if self.ended_by_passes() {
            notes.push(format!(
                "Final score (area, every stone counts): {}.",
                self.score_line()
            ));
        } else {
            notes.extend(self.pass_notes(false));
        }
        notes
    }
    fn setup_text(&self) -> String {
        let pts = self.opts.handicap_points();
        if pts.is_empty() {
            return "Empty board.".into();
        }
        let names: Vec<String> = pts
            .iter()
            .map(|&(c, r)| options::point_name(c, r))
            .collect();
        format!("Handicap {}: {}", pts.len(), names.join(" "))
    }
    fn sgf_form(&self) -> Option<SgfForm> {
        let n = self.opts.size as usize;
        // SGF: column letter from `a` without skipping i; row counted from the top.
        let sgf_point = |c: usize, r: usize| {
            format!(
                "{}{}",
                (b'a' + c as u8) as char,
                (b'a' + (n - 1 - r) as u8) as char
            )
        };
        let mut root = vec![
            ("KM".to_string(), vec![self.opts.komi_text()]),
            (
                "RU".to_string(),
                vec!["koPOSITIONALscoreAREAtaxALLsui0".to_string()],
            ),
        ];
        let pts = self.opts.handicap_points();
        if !pts.is_empty() {
            root.push(("HA".into(), vec![pts.len().to_string()]));
            root.push((
                "AB".into(),
                pts.iter().map(|&(c, r)| sgf_point(c, r)).collect(),
            ));
            root.push(("PL".into(), vec!["W".into()]));
        }
        let nodes = self
            .entries
            .iter()
            .map(|e| {
                let colour = |s: usize| if s == 0 { 'B' } else { 'W' };
                match e {
                    Entry::Placed { seat, point, .. } => {
                        let (c, r) = self.board.coords(*point);
                        Some((colour(*seat), sgf_point(c, r)))
                    }
                    Entry::Passed { seat } => Some((colour(*seat), String::new())),
                    _ => None,
                }
            })
            .collect();
        let margin = self.ended_by_passes().then(|| {
            let (b, w) = self.scores_halves();
            half_points((b - w).abs())
        });
        Some(SgfForm {
            game_number: 1,
            size: n.to_string(),
            root,
            nodes,
            margin,
            last_node: Vec::new(),
            last_comment: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new(opts: &[(&str, &str)]) -> GoGame {
        let o: Vec<GameOption> = opts
            .iter()
            .map(|(n, v)| GameOption::with_value(n, v))
            .collect();
        GoGame::new(GoOptions::read(&o).unwrap())
    }

    #[test]
    fn perft_from_the_start_matches_the_page() {
        assert_eq!(
            (1..=4)
                .map(|d| new(&[("size", "3")]).perft(d))
                .collect::<Vec<_>>(),
            [10, 91, 738, 5_281]
        );
        assert_eq!(
            (1..=2)
                .map(|d| new(&[("size", "5")]).perft(d))
                .collect::<Vec<_>>(),
            [26, 651]
        );
        assert_eq!(new(&[("size", "9")]).perft(2), 6_643);
    }

    #[test]
    fn random_playouts_are_legal_games() {
        let mut seed = 5u64;
        let mut pick = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            ((seed >> 33) as usize) % n
        };
        for _ in 0..20 {
            let mut g = new(&[("size", "5")]);
            let played = g.random_playout(&mut pick);
            assert!(matches!(g.status(), Status::Over(_)));
            assert_eq!(g.moves().len() as u32, played);
            // Every move of the playout is legal when replayed through `play`.
            let back = GoGame::from_json(&g.to_json()).unwrap();
            assert_eq!(back.status(), g.status());
        }
    }

    #[test]
    fn the_default_komi_loads_on_every_size() {
        for size in 2..=25u8 {
            let g = new(&[("size", &size.to_string())]);
            let back = Go
                .load(&g.to_json())
                .unwrap_or_else(|e| panic!("{size}x{size}: {e}"));
            assert_eq!(back.to_json(), g.to_json(), "{size}x{size}");
        }
        // A komi given by the challenge keeps its bound.
        let opts = [
            GameOption::with_value("size", "2"),
            GameOption::with_value("komi", "7.5"),
        ];
        assert!(GoOptions::read(&opts).is_err());
    }

    #[test]
    fn two_passes_end_the_game_on_the_area_score() {
        let mut g = new(&[("size", "5")]);
        for m in ["c3", "pass", "pass"] {
            g.play(m).unwrap();
        }
        assert_eq!(g.status(), Status::Over(Outcome::Winner(0)));
        assert_eq!(
            g.score_line(),
            "Black 25, White 0 + 7.5 = 7.5: Black wins by 17.5"
        );
        assert!(g.legal_moves().is_empty());
        let mut g = new(&[("size", "3"), ("komi", "0")]);
        g.play("pass").unwrap();
        g.play("pass").unwrap();
        assert_eq!(
            g.status(),
            Status::Over(Outcome::Draw(vec![0, 1])),
            "empty board, komi 0"
        );
        let sgf = g.sgf_form().unwrap();
        assert_eq!(
            sgf.nodes,
            [Some(('B', String::new())), Some(('W', String::new()))]
        );
    }

    #[test]
    fn a_handicap_game_starts_with_white_and_round_trips() {
        let mut g = new(&[("size", "9"), ("handicap", "2")]);
        assert_eq!(g.status(), Status::ToMove(1));
        assert_eq!(g.setup_text(), "Handicap 2: c3 g7");
        assert!(g.play("c3").unwrap_err().0.contains("not empty"));
        g.play("E5").unwrap();
        g.play("d4").unwrap();
        let back = GoGame::from_json(&g.to_json()).unwrap();
        assert_eq!(back.to_json(), g.to_json());
        assert_eq!(back.moves(), g.moves());
        let sgf = g.sgf_form().unwrap();
        assert!(
            sgf.root
                .contains(&("AB".into(), vec!["cg".into(), "gc".into()])),
            "{:?}",
            sgf.root
        );
        assert_eq!(sgf.nodes[0], Some(('W', "ee".into())));
        assert_eq!(g.at_move(2).unwrap().moves().len(), 1);
    }
}
