//! Go as the server hosts it: the engine's game ([`GoGame`], the spec's rules) with the dead-stone
//! agreement after two passes ([`scoring`]), as KGS and OGS play it. `pbem engine go` never makes
//! one (it starts games with `new_game`), so its `status` stays Tromp–Taylor; a challenge starts one
//! with `new_hosted_game`, and its document says `"scoring": "agreement"`.
//!
//! The move list holds the step's acts between the moves (`dead d4`, `accept`, `resume`), each with
//! the seat that sent it, so that the stored document replays to the same step after a restart.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::board::{BLACK, WHITE};
use super::options::{GoOptions, half_points};
use super::scoring::{self, Act, Step, read_act};
use super::{GoGame, SIDES, render};
use crate::games::replay;
use crate::games::{GameState, MoveRecord, Outcome, RuleError, SgfForm, Status};

/// The document's mark of a hosted game.
const AGREEMENT: &str = "agreement";

/// True when `json` is the document of a hosted game (one with the scoring step).
pub fn is_hosted(json: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(json)
        .ok()
        .and_then(|v| v.get("scoring")?.as_str().map(|s| s == AGREEMENT))
        .unwrap_or(false)
}

#[derive(Serialize, Deserialize)]
struct Doc {
    game: String,
    size: u8,
    komi: String,
    #[serde(default)]
    handicap: u8,
    /// Always `agreement`: two passes open the scoring step.
    scoring: String,
    /// The engine's entries (`d4`, `pass`, `resign 0`, `draw`) and the step's acts with the side
    /// that sent them (`white dead d4 q16`, `black accept`), in order.
    moves: Vec<String>,
    /// For people reading the document; ignored when it is read.
    #[serde(default)]
    status: String,
}

/// One entry of the move list.
#[derive(Debug, Clone)]
enum Logged {
    /// The engine's next entry; `opened` when it was the second pass, which opened the step.
    Game { opened: bool },
    /// An act of the scoring step, as its canonical text.
    Act { seat: usize, text: String },
}

/// A hosted game of Go.
#[derive(Debug, Clone)]
pub struct HostedGo {
    game: GoGame,
    log: Vec<Logged>,
    /// The scoring step, open or (after the agreement) closed with its marking.
    step: Option<Step>,
    /// The result both players accepted.
    agreed: Option<Outcome>,
}

impl HostedGo {
    /// A new game.
    pub fn new(opts: GoOptions) -> HostedGo {
        HostedGo {
            game: GoGame::new(opts),
            log: Vec::new(),
            step: None,
            agreed: None,
        }
    }

    /// Reads the document and replays it, the step's acts included.
    pub fn from_json(json: &str) -> Result<HostedGo, RuleError> {
        let doc: Doc = serde_json::from_str(json)
            .map_err(|e| RuleError(format!("this is not a hosted Go game document: {e}")))?;
        if doc.game != "go" || doc.scoring != AGREEMENT {
            return Err(RuleError(format!(
                "this document is a game of '{}' with scoring '{}', not go with agreement",
                doc.game, doc.scoring
            )));
        }
        let opts = GoGame::options_of(doc.size, &doc.komi, doc.handicap)?;
        HostedGo::replayed(opts, &doc.moves)
    }

    fn replayed(opts: GoOptions, moves: &[String]) -> Result<HostedGo, RuleError> {
        let mut g = HostedGo::new(opts);
        for (i, m) in moves.iter().enumerate() {
            let done = if let Some(rest) = m.strip_prefix("black ") {
                g.play_for(0, rest)
            } else if let Some(rest) = m.strip_prefix("white ") {
                g.play_for(1, rest)
            } else {
                replay::entry(&mut g, m)
            };
            done.map_err(|e| RuleError(format!("move {} of the document ('{m}'): {e}", i + 1)))?;
        }
        Ok(g)
    }

    /// The scoring step, open or closed by the agreement; `None` in play.
    pub fn step(&self) -> Option<&Step> {
        self.step.as_ref()
    }

    /// The document's entries.
    fn entries(&self) -> Vec<String> {
        self.moves_and_texts(|m| match m.text.as_str() {
            "resign" | "forfeit" => replay::left(&m.text, m.seat),
            _ => m.text.clone(),
        })
    }

    /// The move list, each engine entry written by `engine` and each act with its side.
    fn moves_and_texts(&self, engine: impl Fn(&MoveRecord) -> String) -> Vec<String> {
        let mut inner = self.game.moves().into_iter();
        self.log
            .iter()
            .map(|l| match l {
                Logged::Game { .. } => engine(&inner.next().expect("one engine entry a log entry")),
                Logged::Act { seat, text } => format!("{} {text}", SIDES[*seat].to_lowercase()),
            })
            .collect()
    }

    /// Black's and White's scores in half points with the marked stones taken off, komi included.
    fn marked_halves(&self, dead: &BTreeSet<usize>) -> (i32, i32) {
        let (b, w) = scoring::area(self.game.board(), dead);
        (2 * b as i32, 2 * w as i32 + self.game.options().komi_halves)
    }

    fn marked_line(&self, dead: &BTreeSet<usize>) -> String {
        let (b, w) = scoring::area(self.game.board(), dead);
        let o = self.game.options();
        scoring::score_line(b, w, o.komi_halves, &o.komi_text())
    }

    fn over(&self) -> RuleError {
        RuleError(format!("the game is over ({})", self.status_text()))
    }

    /// The last line of the board: whose turn, the step, or how it ended.
    fn status_text(&self) -> String {
        match (&self.step, &self.agreed) {
            // The margin, so that `pbem engine go show` of a replayed record shows its Result.
            (Some(step), Some(o)) => {
                let (b, w) = self.marked_halves(&step.dead);
                match o {
                    Outcome::Winner(s) => format!(
                        "{} wins by {} (the agreed score)",
                        SIDES[*s],
                        half_points((b - w).abs())
                    ),
                    Outcome::Draw(_) => "Draw by the agreed score".into(),
                }
            }
            (Some(step), None) => format!(
                "Scoring step: waiting for {} to accept, mark or resume",
                SIDES[step.awaited]
            ),
            (None, _) => render::status_line(&self.game),
        }
    }

    /// An act of the scoring step by `seat`.
    fn act_in_step(&mut self, seat: usize, text: &str) -> Result<(), RuleError> {
        let board = self.game.board();
        let act = match read_act(board, text) {
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
        let step = self.step.as_mut().expect("in the step");
        let both = match &act {
            Act::Dead(points) => step.mark(board, seat, points, true).map(|()| false),
            Act::Alive(points) => step.mark(board, seat, points, false).map(|()| false),
            Act::Accept => step.accept(seat, SIDES),
            Act::Resume => Ok(false),
        }
        .map_err(RuleError)?;
        if both {
            let dead = step.dead.clone();
            let (b, w) = self.marked_halves(&dead);
            self.agreed = Some(match b.cmp(&w) {
                std::cmp::Ordering::Greater => Outcome::Winner(0),
                std::cmp::Ordering::Less => Outcome::Winner(1),
                std::cmp::Ordering::Equal => Outcome::Draw(vec![0, 1]),
            });
        }
        if act == Act::Resume {
            // As KGS does: the player who resumes gives the move to the other.
            self.step = None;
            self.game.resume(1 - seat);
        }
        let text = act.text(self.game.board());
        self.log.push(Logged::Act { seat, text });
        Ok(())
    }

    /// What a robot sends in the step: it accepts a marking whose score is not worse for it than
    /// the Tromp–Taylor score of the board as it stands, and resumes play otherwise; it never marks.
    fn robot_answer(&self, step: &Step) -> &'static str {
        let seat = step.awaited;
        let for_seat = |(b, w): (i32, i32)| if seat == 0 { b - w } else { w - b };
        let marked = for_seat(self.marked_halves(&step.dead));
        let plain = for_seat(self.marked_halves(&BTreeSet::new()));
        if marked >= plain { "accept" } else { "resume" }
    }

    /// A point for `seat`'s example of marking: a stone of the smallest unmarked block of the
    /// other side (dead groups are most often the small ones inside a player's area; before, the
    /// example named the first stone from a1, often a wall of the other side's that was plainly
    /// alive), else of its own.
    fn unmarked_example(&self, step: &Step, seat: usize) -> Option<String> {
        let board = self.game.board();
        let other = if seat == 0 { WHITE } else { BLACK };
        let smallest = |colour: u8| {
            board
                .points()
                .filter(|&p| board.at(p) == colour && !step.dead.contains(&p))
                .min_by_key(|&p| scoring::block(board, p).len())
        };
        smallest(other)
            .or_else(|| smallest(3 - other))
            .map(|p| board.name(p))
    }

    /// The index in the engine's move list of the log's entry `index` (an engine entry).
    fn engine_index(&self, index: usize) -> usize {
        self.log[..index]
            .iter()
            .filter(|l| matches!(l, Logged::Game { .. }))
            .count()
    }

    /// The SGF point of a board point: column from `a` without skipping i, row from the top.
    fn sgf_point(&self, p: usize) -> String {
        let n = self.game.board().n;
        let (c, r) = self.game.board().coords(p);
        format!(
            "{}{}",
            (b'a' + c as u8) as char,
            (b'a' + (n - 1 - r) as u8) as char
        )
    }

    /// The agreement in the last SGF node: `TB`/`TW` on every point of a side's area that holds no
    /// live stone of it (its empty points and the dead stones in it), and the comment.
    fn sgf_agreement(&self, step: &Step, form: &mut SgfForm) {
        let board = self.game.board();
        let owner = scoring::owners(board, &step.dead);
        let marks = |colour: u8| -> Vec<String> {
            board
                .points()
                .filter(|&p| {
                    owner[p] == colour && (board.at(p) != colour || step.dead.contains(&p))
                })
                .map(|p| self.sgf_point(p))
                .collect()
        };
        form.last_node = vec![("TB".into(), marks(BLACK)), ("TW".into(), marks(WHITE))];
        let (b, w) = self.marked_halves(&step.dead);
        form.margin = (b != w).then(|| half_points((b - w).abs()));
        form.last_comment = Some(format!(
            "The result used the players' agreement on dead stones after two passes (a \
             server step on top of the Tromp-Taylor rules; TB/TW mark each side's area \
             without its live stones). Dead: {}. Score: {}. Tromp-Taylor, every stone \
             alive: {}.",
            step.describe(board),
            self.marked_line(&step.dead),
            self.game.score_line()
        ));
    }
}

impl GameState for HostedGo {
    fn to_json(&self) -> String {
        let o = self.game.options();
        serde_json::to_string_pretty(&Doc {
            game: "go".into(),
            size: o.size,
            komi: o.komi_text(),
            handicap: o.handicap,
            scoring: AGREEMENT.into(),
            moves: self.entries(),
            status: self.status_text(),
        })
        .expect("the document serializes")
    }
    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(self.clone())
    }
    fn status(&self) -> Status {
        match (&self.agreed, &self.step) {
            (Some(o), _) => Status::Over(o.clone()),
            (None, Some(step)) => Status::ToMove(step.awaited),
            (None, None) => self.game.status(),
        }
    }
    fn seat_names(&self) -> Vec<String> {
        self.game.seat_names()
    }
    fn move_number(&self) -> u32 {
        self.log.len() as u32 + 1
    }
    fn moves(&self) -> Vec<MoveRecord> {
        let mut inner = self.game.moves().into_iter();
        self.log
            .iter()
            .map(|l| match l {
                Logged::Game { .. } => inner.next().expect("one engine entry a log entry"),
                Logged::Act { seat, text } => MoveRecord {
                    seat: *seat,
                    text: text.clone(),
                    auto: false,
                },
            })
            .collect()
    }
    fn options_summary(&self) -> String {
        format!("{} -scoring=agreement", self.game.options().summary())
    }
    fn legal_moves(&self) -> Vec<String> {
        match (&self.agreed, &self.step) {
            (Some(_), _) => Vec::new(),
            // The marking words take points; the list names the two words that stand alone.
            (None, Some(_)) => vec!["accept".into(), "resume".into()],
            (None, None) => self.game.legal_moves(),
        }
    }
    fn play(&mut self, mv: &str) -> Result<(), RuleError> {
        // `white dead d4`: an entry as the text record and the document write it, with its side,
        // so that a record replays through `pbem engine go play` though either player may act in
        // the step.
        let lower = mv.trim_start().to_lowercase();
        for (seat, side) in ["black ", "white "].iter().enumerate() {
            if let Some(rest) = lower.strip_prefix(side) {
                return match self.status() {
                    Status::Over(_) => Err(self.over()),
                    Status::ToMove(s) if s == seat || self.acts_out_of_turn(seat) => {
                        self.play_for(seat, rest)
                    }
                    Status::ToMove(s) => Err(RuleError(format!(
                        "it is {}'s move, not {}'s",
                        SIDES[s], SIDES[seat]
                    ))),
                };
            }
        }
        match self.status() {
            Status::ToMove(seat) => self.play_for(seat, mv),
            Status::Over(_) => Err(self.over()),
        }
    }
    fn acts_out_of_turn(&self, seat: usize) -> bool {
        seat < 2 && self.step.is_some() && self.agreed.is_none()
    }
    fn play_for(&mut self, seat: usize, mv: &str) -> Result<(), RuleError> {
        if self.agreed.is_some() {
            return Err(self.over());
        }
        if self.step.is_some() {
            return self.act_in_step(seat, mv);
        }
        let Status::ToMove(to_move) = self.game.status() else {
            return Err(self.over());
        };
        if !matches!(read_act(self.game.board(), mv), Ok(None)) {
            return Err(RuleError(format!(
                "'{}' belongs to the scoring step, which opens after two passes in a row; now \
                 {} is to move: send a point such as d4, or pass",
                mv.trim(),
                SIDES[to_move]
            )));
        }
        if seat != to_move {
            return Err(RuleError(format!(
                "it is {}'s move, not {}'s",
                SIDES[to_move], SIDES[seat]
            )));
        }
        self.game.play(mv)?;
        let opened = matches!(self.game.status(), Status::Over(_));
        if opened {
            // Two passes: the engine scored the board; the step replaces that end, waiting first
            // for the player who passed first (the one who would move next).
            self.game.resume(1 - seat);
            self.step = Some(Step::open(1 - seat));
        }
        self.log.push(Logged::Game { opened });
        Ok(())
    }
    fn resign(&mut self, seat: usize) -> Result<(), RuleError> {
        if self.agreed.is_some() {
            return Err(RuleError("the game is already over".into()));
        }
        self.game.resign(seat)?;
        self.step = None;
        self.log.push(Logged::Game { opened: false });
        Ok(())
    }
    fn forfeit(&mut self, seat: usize) -> Result<(), RuleError> {
        if self.agreed.is_some() {
            return Err(RuleError("the game is already over".into()));
        }
        self.game.forfeit(seat)?;
        self.step = None;
        self.log.push(Logged::Game { opened: false });
        Ok(())
    }
    fn agree_draw(&mut self) -> Result<(), RuleError> {
        if self.agreed.is_some() {
            return Err(RuleError("the game is already over".into()));
        }
        self.game.agree_draw()?;
        self.step = None;
        self.log.push(Logged::Game { opened: false });
        Ok(())
    }
    fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError> {
        if n == 0 || n > self.move_number() {
            return Err(RuleError(format!(
                "move {n} does not exist: this game is at move {}",
                self.move_number()
            )));
        }
        let entries = self.entries();
        Ok(Box::new(HostedGo::replayed(
            self.game.options(),
            &entries[..n as usize - 1],
        )?))
    }
    fn render(&self) -> String {
        let none = BTreeSet::new();
        let dead = self.step.as_ref().map_or(&none, |s| &s.dead);
        render::ascii_marked(&self.game, dead, &self.status_text())
    }
    fn paint(&self, p: &mut dyn crate::picture::Painter) -> bool {
        let none = BTreeSet::new();
        let dead = self.step.as_ref().map_or(&none, |s| &s.dead);
        render::paint_marked(&self.game, dead, &self.status_text(), p);
        true
    }
    fn random_playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        // Random moves to two passes; then both accept the empty marking (the words that take
        // points are not listed, so a random game could not pick them anyway).
        let mut played = 0;
        while let Status::ToMove(seat) = self.status() {
            let mv = if self.step.is_some() {
                "accept".to_string()
            } else {
                let moves = self.game.legal_moves();
                moves[pick(moves.len())].clone()
            };
            self.play_for(seat, &mv).expect("a listed move is legal");
            played += 1;
        }
        played
    }
    fn robot_move(&self, robot: crate::games::Robot, seed: u64) -> Option<String> {
        if self.agreed.is_some() {
            return None;
        }
        match &self.step {
            Some(step) => Some(self.robot_answer(step).into()),
            None => self.game.robot_move(robot, seed),
        }
    }
    fn example_moves(&self) -> Vec<String> {
        let (Some(step), None) = (&self.step, &self.agreed) else {
            return self.game.example_moves();
        };
        let mut out = vec!["accept".to_string()];
        if let Some(p) = self.unmarked_example(step, step.awaited) {
            out.push(format!("dead {p}"));
        }
        out.push("resume".into());
        out
    }
    fn turn_notes(&self, since: u32) -> Vec<String> {
        // The entries themselves are told by their news lines ([`HostedGo::entry_news`]) and
        // losses; the notes say what the step makes of them.
        let mut notes: Vec<String> = self
            .log
            .iter()
            .skip(since.saturating_sub(1) as usize)
            .filter(|l| matches!(l, Logged::Game { opened: true }))
            .map(|_| "Both players passed: the scoring step is open (see below).".to_string())
            .collect();
        if self.agreed.is_some() && since <= self.log.len() as u32 {
            notes.push("Both players accepted the marking: the game ends with its score.".into());
        }
        notes
    }
    fn losses(&self, index: usize) -> Vec<crate::games::Loss> {
        match self.log.get(index) {
            Some(Logged::Game { .. }) => self.game.losses(self.engine_index(index)),
            _ => Vec::new(),
        }
    }
    fn entry_news(&self, index: usize) -> Option<String> {
        match self.log.get(index)? {
            Logged::Game { .. } => self.game.entry_news(self.engine_index(index)),
            Logged::Act { seat, text } => {
                let board = self.game.board();
                let groups = |points: &str| {
                    let named: Vec<String> = points
                        .split_whitespace()
                        .filter_map(|w| board.read(w).ok())
                        .map(|p| scoring::group_words(board, p))
                        .collect();
                    named.join(", ")
                };
                Some(match text.split_once(' ') {
                    None if text == "accept" => "accepted the marking".into(),
                    None if text == "resume" => {
                        format!("resumed play; {} moves next", SIDES[1 - seat])
                    }
                    Some(("dead", points)) => format!("marked dead: {}", groups(points)),
                    Some((_, points)) => format!("took the dead mark off: {}", groups(points)),
                    None => text.clone(),
                })
            }
        }
    }
    fn waiting_note(&self, seat: usize) -> Option<String> {
        let (Some(step), None) = (&self.step, &self.agreed) else {
            return None;
        };
        if seat > 1 || step.awaited == seat {
            return None;
        }
        let other = SIDES[step.awaited];
        let board = self.game.board();
        // The examples: a group of the other side's as one to mark, a marked one to take off.
        let mark = self.unmarked_example(step, seat);
        let unmark = step.named.first().map(|&p| board.name(p));
        let examples = match (mark, unmark) {
            (Some(m), Some(u)) => format!("dead {m} or alive {u}"),
            (Some(m), None) => format!("dead {m}"),
            (None, Some(u)) => format!("alive {u}"),
            (None, None) => String::new(),
        };
        let change = if examples.is_empty() {
            "change the marking".to_string()
        } else {
            format!("change the marking ({examples})")
        };
        Some(if step.accepted[seat] {
            format!(
                "The game ends when {other} accepts this marking too; until then you may still \
                 {change} or resume play."
            )
        } else {
            format!(
                "The scoring step waits for {other} to accept the marking, change it or resume \
                 play. You may act too: {change}, accept it or resume play; the game ends when \
                 you both accept the same marking."
            )
        })
    }
    fn score_result(&self) -> Option<String> {
        let (Some(step), Some(_)) = (&self.step, &self.agreed) else {
            return None;
        };
        let (b, w) = scoring::area(self.game.board(), &step.dead);
        let o = self.game.options();
        Some(scoring::result_words(b, w, o.komi_halves, &o.komi_text()))
    }
    fn notes(&self) -> Vec<String> {
        let o = self.game.options();
        let mut notes = vec![format!("Komi {} (added to White's score).", o.komi_text())];
        let board = self.game.board();
        // Each note a line of at most 72 columns: the marking may name many groups.
        let mut say = |text: String| notes.extend(wrap(&text));
        match (&self.step, &self.agreed) {
            (Some(step), Some(_)) if step.dead.is_empty() => {
                // The same score twice (agreed, and every stone alive) said once.
                say("Final score by the players' agreement, every stone alive:".into());
                say(format!("  {}.", self.game.score_line()));
            }
            (Some(step), Some(_)) => {
                say(format!(
                    "Final score by the players' agreement, dead: {}.",
                    step.describe(board)
                ));
                say(format!("  {}.", self.marked_line(&step.dead)));
                say("Tromp-Taylor, every stone alive:".into());
                say(format!("  {}.", self.game.score_line()));
            }
            (Some(step), None) => {
                say(
                    "Scoring step: either player marks dead groups; both accept the same \
                     marking to end the game, or one resumes play (see go help)."
                        .into(),
                );
                say(format!("Marked dead: {}.", step.describe(board)));
                say("Score with the marked stones taken off:".into());
                say(format!("  {}.", self.marked_line(&step.dead)));
                say(match step.accepted {
                    [false, false] => "Nobody has accepted this marking yet.".into(),
                    [a, _] => format!(
                        "{} has accepted this marking; {} has not.",
                        SIDES[usize::from(!a)],
                        SIDES[usize::from(a)]
                    ),
                });
            }
            (None, _) => notes.extend(self.game.pass_notes(true)),
        }
        notes
    }
    fn setup_text(&self) -> String {
        self.game.setup_text()
    }
    fn sgf_form(&self) -> Option<SgfForm> {
        let mut form = self.game.sgf_form()?;
        let mut inner = std::mem::take(&mut form.nodes).into_iter();
        form.nodes = self
            .log
            .iter()
            .map(|l| match l {
                Logged::Game { .. } => inner.next().flatten(),
                Logged::Act { .. } => None,
            })
            .collect();
        if let (Some(step), Some(_)) = (&self.step, &self.agreed) {
            self.sgf_agreement(step, &mut form);
        }
        Some(form)
    }
}

/// A line of prose broken between words into lines of at most 72 columns (mail lines); its
/// leading blanks start every line.
fn wrap(text: &str) -> Vec<String> {
    wrap_to(text, 72)
}

/// [`wrap`] at `width` columns (the picture's caption wraps at the picture's width).
pub(super) fn wrap_to(text: &str, width: usize) -> Vec<String> {
    let indent = &text[..text.len() - text.trim_start().len()];
    let mut out: Vec<String> = Vec::new();
    let mut line = indent.to_string();
    for word in text.split_whitespace() {
        let used = line.chars().count();
        if used > indent.len() && used + 1 + word.chars().count() > width {
            out.push(std::mem::replace(&mut line, indent.to_string()));
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push(line);
    out
}

#[cfg(test)]
mod tests;
