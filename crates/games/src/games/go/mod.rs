//! Go as `go-rules.md` settles it: area scoring in the Tromp–Taylor form, positional superko, no
//! suicide, two passes end the game, komi, optional fixed handicap; and the server's dead-stone
//! agreement after two passes ([`scoring`], [`hosted`]). A game is a position on the shared move
//! record ([`crate::games::matchplay::Match`]): [`GoPosition`] is the rules ([`board`] those of one
//! board) and the notation, [`view`] the board mail's words, [`render`] the board, [`playout`] the
//! robot's policy. The move list, resignations, draws, earlier positions and the stored document are
//! the record's; Go only keeps its document's keys in their old order ([`Rules::document`]).

pub mod board;
pub mod hosted;
pub mod options;
pub mod playout;
pub mod render;
pub mod scoring;
pub mod view;

use serde::Serialize;
use serde_json::{Map, Value};

use super::matchplay::{Entry, Match, Rules, Search};
use super::{GameOption, GameRules, GameState, Outcome, RuleError};
use board::{BLACK, Goban, Illegal, WHITE};
use options::GoOptions;
use scoring::{Act, Step, read_act};

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
        Ok(Box::new(GoGame::new(options, players)?))
    }
    fn new_hosted_game(
        &self,
        options: &[GameOption],
        players: usize,
        _seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        // A challenge has the scoring step after two passes (a server feature, go-rules.md 5)
        // unless it says -scoring=area.
        let mut options = options.to_vec();
        if options::take_scoring(&options)?.0.is_none() {
            options.push(GameOption::with_value("scoring", AGREEMENT));
        }
        Ok(Box::new(GoGame::new(&options, players)?))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(GoGame::load(json)?))
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

/// A game of Go: the spec's rules, or with the scoring step (`-scoring=agreement`) as a challenge
/// makes it.
pub type GoGame = Match<GoPosition>;

/// A game of `opts`, with the scoring step after two passes when `agreement`.
pub fn game(opts: GoOptions, agreement: bool) -> GoGame {
    GoGame::from_position(GoPosition::new(opts, agreement))
}

/// The document's mark of a game with the scoring step, and its option's value.
const AGREEMENT: &str = "agreement";

/// One move: a stone, a pass, or an act of the scoring step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GoMove {
    /// A stone on (column, row), 0-based, row 0 at the bottom: a point's name needs no board.
    Place(u8, u8),
    /// A pass.
    Pass,
    /// An act of the scoring step (boxed: a playout's moves stay small).
    Act(Box<StepAct>),
}

/// An act of the scoring step, by the seat that sent it (either may act).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepAct {
    /// The seat that sent it.
    pub seat: usize,
    /// What it does.
    pub act: Act,
    /// Its canonical text, `dead d4 q16` (the board names the points).
    pub text: String,
}

/// Go's position: the board, whose turn, the passes in a row, and with the server's scoring step
/// (`agreement`) the step and the result both players accepted.
#[derive(Debug, Clone)]
pub struct GoPosition {
    opts: GoOptions,
    agreement: bool,
    board: Goban,
    to_move: usize,
    /// Passes in a row since the last stone or since play resumed after the step: the second ends
    /// play.
    passes: u8,
    /// The point of the last move if it placed a stone (the policy answers it; the board marks it).
    last: Option<usize>,
    /// The point of the move before it if that placed a stone.
    previous: Option<usize>,
    /// Whether the last move was a pass (a pass may then end the game, for the search).
    last_pass: bool,
    /// The end by two passes and the count (the spec's rules, without the step).
    result: Option<Outcome>,
    /// The scoring step, open or (after the agreement) closed with its marking.
    step: Option<Step>,
    /// The result both players accepted.
    agreed: Option<Outcome>,
}

fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

const SIDES: [&str; 2] = ["Black", "White"];

/// The winner (or a draw) of half-point scores.
fn by_score(b: i32, w: i32) -> Outcome {
    match b.cmp(&w) {
        std::cmp::Ordering::Greater => Outcome::Winner(0),
        std::cmp::Ordering::Less => Outcome::Winner(1),
        std::cmp::Ordering::Equal => Outcome::Draw(vec![0, 1]),
    }
}

impl GoPosition {
    /// A new game: the handicap stones placed, White to move after them.
    pub fn new(opts: GoOptions, agreement: bool) -> GoPosition {
        let mut board = Goban::new(opts.size as usize);
        for (c, r) in opts.handicap_points() {
            let p = board.point(c, r);
            board.setup(p, BLACK);
        }
        GoPosition {
            opts,
            agreement,
            board,
            to_move: usize::from(opts.handicap > 0),
            passes: 0,
            last: None,
            previous: None,
            last_pass: false,
            result: None,
            step: None,
            agreed: None,
        }
    }

    /// The board.
    pub fn board(&self) -> &Goban {
        &self.board
    }

    /// The options.
    pub fn go_options(&self) -> GoOptions {
        self.opts
    }

    /// Whether two passes open the scoring step (a challenge's game) rather than end the game.
    pub fn agreement(&self) -> bool {
        self.agreement
    }

    /// Black's and White's scores in half points, komi included (section 5).
    pub fn scores_halves(&self) -> (i32, i32) {
        let (b, w) = self.board.area();
        (2 * b as i32, 2 * w as i32 + self.opts.komi_halves)
    }

    /// The score line: `Black 40, White 41 + 7.5 = 48.5: White wins by 8.5`.
    pub fn score_line(&self) -> String {
        let (b, w) = self.board.area();
        scoring::score_line(b, w, self.opts.komi_halves, &self.opts.komi_text())
    }

    /// True when two passes ended the game by the count (the spec's rules).
    pub fn ended_by_passes(&self) -> bool {
        self.result.is_some()
    }

    /// True after one pass that a second would answer (ending play).
    fn one_pass(&self) -> bool {
        self.passes == 1 && self.result.is_none() && self.step.is_none()
    }

    fn colour(seat: usize) -> u8 {
        if seat == 0 { BLACK } else { WHITE }
    }

    /// The move of a board point.
    fn place_move(&self, p: usize) -> GoMove {
        let (c, r) = self.board.coords(p);
        GoMove::Place(c as u8, r as u8)
    }

    /// The board point of an action id (`row * n + column`), or `None` for the pass (`n * n`).
    fn action_point(&self, action: u32) -> Option<usize> {
        let n = self.board.n;
        let a = action as usize;
        (a < n * n).then(|| self.board.point(a % n, a / n))
    }

    /// The action id of a board point (`row * n + column`; the pass is `n * n`).
    fn point_action(&self, p: usize) -> u32 {
        let (c, r) = self.board.coords(p);
        (r * self.board.n + c) as u32
    }

    /// Places a stone for the player to move if it is legal, and says how many stones it took;
    /// else nothing changes.
    fn place_listed(&mut self, p: usize) -> Result<u32, Illegal> {
        let captured = self.board.place(p, Self::colour(self.to_move))?;
        self.previous = self.last;
        self.last = Some(p);
        self.last_pass = false;
        self.passes = 0;
        self.to_move = 1 - self.to_move;
        Ok(captured)
    }

    /// The player to move passes: the second pass in a row ends play, by the count or (with the
    /// agreement) by opening the step, which waits first for the player who passed first.
    fn pass(&mut self) {
        self.previous = self.last;
        self.last = None;
        self.last_pass = true;
        self.to_move = 1 - self.to_move;
        self.passes += 1;
        if self.passes < 2 {
            return;
        }
        self.passes = 0;
        if self.agreement {
            self.step = Some(Step::open(self.to_move));
        } else {
            let (b, w) = self.scores_halves();
            self.result = Some(by_score(b, w));
        }
    }

    /// True when every neighbour of the empty point `p` is the mover's stone or the edge: a point a
    /// playout never fills (it would take a liberty the group needs to live).
    fn own_eye(&self, p: usize, colour: u8) -> bool {
        let s = self.board.n + 2;
        [p - 1, p + 1, p - s, p + s]
            .iter()
            .all(|&q| matches!(self.board.at(q), c if c == colour || c == 3))
    }

    /// Black's and White's scores in half points with the marked stones taken off, komi included.
    fn marked_halves(&self, dead: &std::collections::BTreeSet<usize>) -> (i32, i32) {
        let (b, w) = scoring::area(&self.board, dead);
        (2 * b as i32, 2 * w as i32 + self.opts.komi_halves)
    }

    /// A stone or a pass as a player writes it (the spec's notation).
    fn read_plain(&self, text: &str) -> Result<GoMove, RuleError> {
        let t = normalise(text);
        if t == "pass" {
            return Ok(GoMove::Pass);
        }
        if t == "resign" {
            return Err(RuleError(
                "resigning is a command of its own (resign), not a move".into(),
            ));
        }
        let p = self.board.read(&t).map_err(RuleError)?;
        Ok(self.place_move(p))
    }

    /// An act of the scoring step by `seat`.
    fn read_act_by(&self, seat: usize, text: &str) -> Result<GoMove, RuleError> {
        let act = match read_act(&self.board, text) {
            Ok(Some(act)) => act,
            Ok(None) => {
                return Err(RuleError(format!(
                    "both players passed and the game is in its scoring step, where a stone \
                     or a pass is not a move. Mark dead groups with dead d4 (one stone names \
                     its whole block), take a mark off with alive d4, agree with accept, or \
                     send resume to play on ({} then moves first).",
                    SIDES[1 - seat]
                )));
            }
            Err(e) => return Err(RuleError(e)),
        };
        let text = act.text(&self.board);
        Ok(GoMove::Act(Box::new(StepAct { seat, act, text })))
    }

    /// `mv`'s act on the step, by its seat; true when both have now accepted the marking.
    fn act_on(&self, step: &mut Step, a: &StepAct) -> Result<bool, String> {
        match &a.act {
            Act::Dead(points) => step.mark(&self.board, a.seat, points, true).map(|()| false),
            Act::Alive(points) => step
                .mark(&self.board, a.seat, points, false)
                .map(|()| false),
            Act::Accept => step.accept(a.seat, SIDES),
            Act::Resume => Ok(false),
        }
    }
}

/// The komi a game has when its challenge gives none (go-rules.md section 3).
pub(super) fn default_komi(handicap: u8) -> &'static str {
    if handicap > 0 { "0.5" } else { "7.5" }
}

impl GoPosition {
    /// Every option in force, the komi too, as the summaries print them.
    pub(super) fn option_words(&self) -> Vec<GameOption> {
        let o = self.opts;
        let mut out = vec![
            GameOption::with_value("size", &o.size.to_string()),
            GameOption::with_value("komi", &o.komi_text()),
        ];
        if o.handicap > 0 {
            out.push(GameOption::with_value("handicap", &o.handicap.to_string()));
        }
        // Said, since a challenge's default is the scoring step: a rematch reads this line back.
        let scoring = if self.agreement { AGREEMENT } else { "area" };
        out.push(GameOption::with_value("scoring", scoring));
        out
    }
}

/// A move's text: a point's name needs no board (a stone is `(column, row)`), an act of the scoring
/// step keeps the words it was sent with.
fn write_move(mv: GoMove) -> String {
    match mv {
        GoMove::Place(c, r) => options::point_name(usize::from(c), usize::from(r)),
        GoMove::Pass => "pass".into(),
        GoMove::Act(a) => a.text,
    }
}

impl Rules for GoPosition {
    type Move = GoMove;
    const GAME: &'static str = "go";

    fn start(options: &[GameOption], players: usize) -> Result<GoPosition, RuleError> {
        if players != 2 {
            return Err(RuleError(format!(
                "Go is a game for two players, not {players}"
            )));
        }
        let (given, rest) = options::take_scoring(options)?;
        Ok(GoPosition::new(
            GoOptions::read(&rest)?,
            given.unwrap_or(false),
        ))
    }
    /// The komi only when it is not the default: a default komi is beyond the bound a challenge's
    /// `-komi` keeps on the smallest boards (7.5 on 2x2), and [`Match`] starts a game again from
    /// these options. The summaries say it all the same ([`View::options_summary`]).
    fn options(&self) -> Vec<GameOption> {
        let mut out = self.option_words();
        if self.opts.komi_text() == default_komi(self.opts.handicap) {
            out.retain(|o| o.name != "komi");
        }
        out
    }
    fn seat_names(&self) -> Vec<String> {
        SIDES.iter().map(|s| s.to_string()).collect()
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> usize {
        match &self.step {
            Some(step) if self.agreed.is_none() => step.awaited,
            _ => self.to_move,
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.agreed.clone().or_else(|| self.result.clone())
    }
    fn legal(&self, out: &mut Vec<GoMove>) {
        out.clear();
        if self.result.is_some() || self.agreed.is_some() {
            return;
        }
        if let Some(step) = &self.step {
            // The marking words take points; the list names the two words that stand alone.
            for (act, text) in [(Act::Accept, "accept"), (Act::Resume, "resume")] {
                let seat = step.awaited;
                out.push(GoMove::Act(Box::new(StepAct {
                    seat,
                    act,
                    text: text.into(),
                })));
            }
            return;
        }
        let colour = Self::colour(self.to_move);
        for p in self.board.points() {
            if self.board.legal(p, colour) {
                out.push(self.place_move(p));
            }
        }
        out.push(GoMove::Pass);
    }
    fn check(&self, mv: GoMove) -> Result<(), RuleError> {
        match (&mv, &self.step) {
            (GoMove::Act(a), Some(step)) => self
                .act_on(&mut step.clone(), a)
                .map(|_| ())
                .map_err(RuleError),
            (GoMove::Act(_), None) => Err(RuleError(
                "the scoring step opens after two passes in a row".into(),
            )),
            (_, Some(_)) => Err(RuleError(
                "the game is in its scoring step, where a stone or a pass is not a move".into(),
            )),
            (GoMove::Pass, None) => Ok(()),
            (GoMove::Place(c, r), None) => {
                let (c, r) = (usize::from(*c), usize::from(*r));
                let n = self.board.n;
                let t = write_move(mv.clone());
                if c >= n || r >= n {
                    return Err(RuleError(format!(
                        "{t} is off this {n}x{n} board: write a point such as d4, or pass"
                    )));
                }
                let p = self.board.point(c, r);
                let colour = Self::colour(self.to_move);
                let mut probe = self.board.clone();
                probe.place(p, colour).map(|_| ()).map_err(|why| {
                    RuleError(match why {
                        Illegal::Occupied => format!("{t} is not empty"),
                        Illegal::Suicide => format!(
                            "a stone on {t} would have no liberty and captures nothing: suicide \
                             is not allowed"
                        ),
                        Illegal::Superko => format!(
                            "a stone on {t} would repeat an earlier position of this game (ko: \
                             positional superko); play elsewhere first"
                        ),
                    })
                })
            }
        }
    }
    fn apply(&mut self, mv: GoMove) -> u32 {
        match mv {
            GoMove::Place(c, r) => {
                let p = self.board.point(usize::from(c), usize::from(r));
                self.place_listed(p).expect("a checked move is legal");
            }
            GoMove::Pass => self.pass(),
            GoMove::Act(a) => {
                let mut step = self.step.take().expect("an act in the scoring step");
                let both = self.act_on(&mut step, &a).expect("a checked act is legal");
                if both {
                    let (b, w) = self.marked_halves(&step.dead);
                    self.agreed = Some(by_score(b, w));
                }
                if a.act == Act::Resume {
                    // As KGS does: the player who resumes gives the move to the other.
                    self.to_move = 1 - a.seat;
                    self.passes = 0;
                } else {
                    self.step = Some(step);
                }
            }
        }
        0
    }
    fn read_here(&self, text: &str) -> Result<GoMove, RuleError> {
        if !self.agreement {
            return self.read_plain(text);
        }
        // `white dead d4`: an entry as the text record and the document write it, with its side,
        // so that a record replays through `pbem engine go play` though either player may act in
        // the step.
        let lower = text.trim_start().to_lowercase();
        for (seat, side) in ["black ", "white "].iter().enumerate() {
            if let Some(rest) = lower.strip_prefix(side) {
                let s = self.to_move();
                if s != seat && !self.acts_out_of_turn(seat) {
                    return Err(RuleError(format!(
                        "it is {}'s move, not {}'s",
                        SIDES[s], SIDES[seat]
                    )));
                }
                return self.read_by(seat, rest);
            }
        }
        self.read_by(self.to_move(), text)
    }
    fn write_here(&self, mv: GoMove) -> String {
        write_move(mv)
    }
    fn mover(&self, mv: &GoMove) -> usize {
        match mv {
            GoMove::Act(a) => a.seat,
            _ => self.to_move,
        }
    }
    fn acts_out_of_turn(&self, seat: usize) -> bool {
        seat < 2 && self.step.is_some() && self.agreed.is_none()
    }
    fn read_by(&self, seat: usize, text: &str) -> Result<GoMove, RuleError> {
        if !self.agreement {
            return self.read_plain(text);
        }
        if self.step.is_some() {
            return self.read_act_by(seat, text);
        }
        if !matches!(read_act(&self.board, text), Ok(None)) {
            return Err(RuleError(format!(
                "'{}' belongs to the scoring step, which opens after two passes in a row; now \
                 {} is to move: send a point such as d4, or pass",
                text.trim(),
                SIDES[self.to_move]
            )));
        }
        if seat != self.to_move {
            return Err(RuleError(format!(
                "it is {}'s move, not {}'s",
                SIDES[self.to_move], SIDES[seat]
            )));
        }
        self.read_plain(text)
    }
    fn write_stored(&self, seat: usize, mv: &GoMove) -> String {
        match mv {
            GoMove::Act(a) => format!("{} {}", SIDES[seat].to_lowercase(), a.text),
            _ => write_move(mv.clone()),
        }
    }
    fn document(game: &GoGame, moves: Vec<String>) -> Option<String> {
        /// The keys in the order Go's documents have had them since before the record.
        #[derive(Serialize)]
        struct Doc<'a> {
            game: &'a str,
            size: u8,
            komi: String,
            handicap: u8,
            #[serde(skip_serializing_if = "Option::is_none")]
            scoring: Option<&'a str>,
            moves: Vec<String>,
            /// For people reading the document; never read.
            status: String,
        }
        let o = game.start().go_options();
        let doc = Doc {
            game: "go",
            size: o.size,
            komi: o.komi_text(),
            handicap: o.handicap,
            scoring: game.agreement().then_some(AGREEMENT),
            moves,
            status: view::status_text(game),
        };
        Some(serde_json::to_string_pretty(&doc).expect("the document serializes"))
    }
    fn upgrade(doc: &mut Map<String, Value>) -> Result<(), RuleError> {
        // Go's documents always say the handicap (0: none) and the komi; the komi's bound applies
        // to a -komi a challenge gives, not to the default (go-rules.md section 3), so a default
        // komi is read back as the default, and 7.5 on 2x2 loads.
        let handicap = doc.get("handicap").and_then(Value::as_u64);
        if handicap == Some(0) {
            doc.remove("handicap");
        }
        let default = default_komi(u8::from(handicap.unwrap_or(0) > 0));
        if doc.get("komi").and_then(Value::as_str) == Some(default) {
            doc.remove("komi");
        }
        Ok(())
    }
    fn over_text(game: &GoGame) -> Option<String> {
        Some(view::status_text(game))
    }
    fn action_space(&self) -> u32 {
        // With the scoring step the search works on the moves' texts, as it did on the server's
        // game before the record (its robot searches the spec's rules: `Search::robot_game`).
        if self.agreement {
            return 0;
        }
        (self.board.n * self.board.n) as u32 + 1
    }
    fn action_here(&self, mv: GoMove) -> u32 {
        let n = self.board.n as u32;
        match mv {
            GoMove::Place(c, r) => u32::from(r) * n + u32::from(c),
            GoMove::Pass => n * n,
            GoMove::Act(_) => unreachable!("the search never plays in the scoring step"),
        }
    }
    fn move_here(&self, action: u32) -> GoMove {
        let n = self.board.n as u32;
        if action < n * n {
            GoMove::Place((action % n) as u8, (action / n) as u8)
        } else {
            GoMove::Pass
        }
    }
}

/// The robot's hooks for the spec's rules. A game with the scoring step is searched as any game
/// without hooks of its own (texts, uniform playouts that accept the empty marking), as the
/// server's game was before the record: what the robots' draw answers read
/// (`search::think` on the game); its robot's moves search the spec's rules
/// ([`Search::robot_game`]).
impl Search for GoPosition {
    fn legal_actions(&self, out: &mut Vec<u32>) -> bool {
        out.clear();
        // In the scoring step a robot answers without searching (`robot_answer`): no actions.
        if self.agreement || self.outcome().is_some() || self.step.is_some() {
            return true;
        }
        let colour = Self::colour(self.to_move);
        for p in self.board.points() {
            if self.board.legal(p, colour) {
                out.push(self.point_action(p));
            }
        }
        out.push(self.action_space() - 1);
        true
    }
    fn playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        if self.agreement {
            return false;
        }
        playout::run(self, pick, played);
        true
    }
    fn priors(&self, actions: &[u32], out: &mut Vec<f32>) {
        if self.agreement {
            out.clear();
            return;
        }
        playout::priors(self, actions, out);
    }
    fn prior_results(&self, prior: f32) -> Option<(u32, f32)> {
        (!self.agreement).then(|| playout::prior_results(prior))
    }
    fn level_playouts(&self, level: u8) -> Option<u32> {
        if self.agreement {
            return None;
        }
        playout::level_playouts(usize::from(self.opts.size), level)
    }
    fn may_win_at_once(&self, action: u32) -> bool {
        // Only the second pass in a row ends a game; a stone never does.
        self.agreement || (action == self.action_space() - 1 && self.last_pass)
    }
    /// The spec's rules: uniform over the legal moves without listing them: draw among the empty
    /// points and `pass`, and throw back a point that proves illegal (rejection without
    /// replacement). With the scoring step: a move of the legal ones in the order of their texts,
    /// to two passes, then both accept the empty marking (the words that take points are not
    /// listed, so a random game could not pick them anyway).
    fn random_moves(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: &mut Vec<Entry<GoMove>>,
    ) -> Option<u32> {
        let mut count = 0;
        if self.agreement {
            let mut moves = Vec::new();
            while self.result.is_none() && self.agreed.is_none() {
                let seat = self.to_move();
                self.legal(&mut moves);
                let mut listed: Vec<(String, GoMove)> = moves
                    .drain(..)
                    .map(|m| (write_move(m.clone()), m))
                    .collect();
                listed.sort_by(|a, b| a.0.cmp(&b.0));
                let mv = if self.step.is_some() {
                    GoMove::Act(Box::new(StepAct {
                        seat,
                        act: Act::Accept,
                        text: "accept".into(),
                    }))
                } else {
                    listed.swap_remove(pick(listed.len())).1
                };
                self.apply(mv.clone());
                played.push(Entry::Moved { seat, mv });
                count += 1;
            }
            return Some(count);
        }
        let mut open: Vec<usize> = Vec::with_capacity(self.board.n * self.board.n);
        while self.result.is_none() {
            let seat = self.to_move;
            self.board.empty_points(&mut open);
            loop {
                // Index `open.len()` is the pass.
                let k = pick(open.len() + 1);
                if k == open.len() {
                    self.pass();
                    played.push(Entry::Moved {
                        seat,
                        mv: GoMove::Pass,
                    });
                    count += 1;
                    break;
                }
                let p = open.swap_remove(k);
                if self.place_listed(p).is_ok() {
                    played.push(Entry::Moved {
                        seat,
                        mv: self.place_move(p),
                    });
                    count += 1;
                    break;
                }
            }
        }
        Some(count)
    }
    fn searched(&self) -> GoPosition {
        let mut g = self.clone();
        if !self.agreement {
            // The copy is played to the end: room for about a game's moves at once.
            g.board.reserve(2 * self.board.n * self.board.n);
        }
        g
    }
    fn robot_answer(&self) -> Option<String> {
        let step = self.step.as_ref().filter(|_| self.agreed.is_none())?;
        Some(hosted::robot_answer(self, step).into())
    }
    /// The game under the spec's rules with the same moves: the second pass ends it by the count
    /// (which the search scores), and where the players resumed after the step it plays on, the
    /// resuming player's opponent to move. Its record is the stones and passes (not the step's
    /// acts), so that a robot's tree is kept between its moves.
    fn robot_game(hosted: &GoGame) -> Option<GoGame> {
        let pos = hosted.position();
        if !pos.agreement || pos.step.is_some() || hosted.outcome().is_some() {
            return None;
        }
        let mut plain = game(pos.opts, false);
        for e in hosted.entries() {
            match e {
                Entry::Moved {
                    mv: GoMove::Act(a),
                    seat,
                } if a.act == Act::Resume => {
                    let p = plain.position_mut();
                    p.result = None;
                    p.to_move = 1 - seat;
                    p.passes = 0;
                }
                Entry::Moved {
                    mv: GoMove::Act(_), ..
                } => {}
                Entry::Moved { mv, .. } => plain.push(mv.clone()),
                // A game that goes on has neither.
                Entry::Left { .. } | Entry::Drawn { .. } | Entry::Passed { .. } => {}
            }
        }
        Some(plain)
    }
}

#[cfg(test)]
mod tests;
