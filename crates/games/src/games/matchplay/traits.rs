//! What a game on [`Match`] implements: its rules as a position ([`Rules`]), its view ([`View`])
//! and the robot's optional hooks ([`Search`]). Each optional method's default keeps a game as
//! Othello, the first on the record, is.

use std::fmt;

use serde_json::{Map, Value};

use super::{Entry, Match};
#[cfg(doc)]
use crate::games::GameState;
use crate::games::{Board, GameOption, Loss, Outcome, Robot, RuleError, SgfForm};
use crate::picture::Painter;

/// A game's rules as a position: everything [`Match`] needs to keep a game of it. Two players or
/// more take turns; the position knows whose turn it is and when the game is over.
pub trait Rules: Clone + Send + Sync + 'static {
    /// One move as the rules see it (a square, a jump); its text is [`Rules::write_here`]. `Clone`,
    /// not `Copy`: Go's marking in its scoring step names any number of points.
    type Move: Clone + PartialEq + fmt::Debug + Send + Sync;
    /// The command word, lower case, as the stored document names the game: `othello`.
    const GAME: &'static str;
    /// The start position for a challenge's options; a refused option says what may be written.
    fn start(options: &[GameOption], players: usize) -> Result<Self, RuleError>;
    /// The options in force, canonical, so that [`Rules::start`] with them (and as many players as
    /// there are seats) gives this game's start again: the same in every position of the game
    /// ([`Match::start`] makes a new game's start from them when it is first asked for).
    fn options(&self) -> Vec<GameOption>;
    /// The name of each seat's side (`Black`, `White`).
    fn seat_names(&self) -> Vec<String>;
    /// The seat to move (whatever it is once the game is over).
    fn to_move(&self) -> usize;
    /// How the game ended by its rules, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// The legal moves of the seat to move into `out` (cleared first); empty once the game is over.
    fn legal(&self, out: &mut Vec<Self::Move>);
    /// Whether `mv` is legal here; if not, the error says why (and how a legal move looks).
    fn check(&self, mv: Self::Move) -> Result<(), RuleError>;
    /// Plays a legal move, then the passes the rules make by themselves; returns how many passes were
    /// made (each by the next seat in turn).
    fn apply(&mut self, mv: Self::Move) -> u32;
    /// Reads a move as a player writes it (the notation, not its legality here); the error names the
    /// right form. The position is there for a notation that depends on the board (Ataxx's cells are
    /// numbered by its size, Cups's refusal names the cups there are); a game whose notation needs no
    /// board reads without it, and its [`crate::games::GameRules::read_move`] calls the same reader.
    fn read_here(&self, text: &str) -> Result<Self::Move, RuleError>;
    /// The move in canonical notation on this position's board (what `moves` lists and the record
    /// prints and stores).
    fn write_here(&self, mv: Self::Move) -> String;
    /// Why the players may not agree a draw, for a game that has none (Hex); `None`, the default:
    /// they may.
    fn no_draw(&self) -> Option<RuleError> {
        None
    }
    /// Rewrites a document an earlier version of the game wrote into the record's shape, before
    /// [`Match::load`] reads it (Hex's `"swap": false` is `"no_swap": true`); by default nothing.
    fn upgrade(doc: &mut Map<String, Value>) -> Result<(), RuleError> {
        let _ = doc;
        Ok(())
    }
    /// The action id of `mv` on this position's board: by default [`Rules::action`]; a game whose
    /// ids depend on the board's size (Hex's cell indices) gives it here.
    fn action_here(&self, mv: Self::Move) -> u32 {
        Self::action(mv)
    }
    /// The move of an action id on this position's board: by default [`Rules::from_action`].
    fn move_here(&self, action: u32) -> Self::Move {
        Self::from_action(action)
    }
    /// How many action ids the search may use (every id below it); 0: the search works on the moves'
    /// texts. A game with ids gives [`Rules::action`] and [`Rules::from_action`] too.
    fn action_space(&self) -> u32 {
        0
    }
    /// The action id of a move (the same id for the same move in every position).
    fn action(mv: Self::Move) -> u32 {
        let _ = mv;
        unreachable!("Rules::action on a game without action ids")
    }
    /// The move of an action id.
    fn from_action(action: u32) -> Self::Move {
        let _ = action;
        unreachable!("Rules::from_action on a game without action ids")
    }
    // ---- appended for Cups, Ataxx, Hexxagon and Paradux (issue 36 section 1): optional, with
    // defaults that keep a game as it was --------------------------------------------------------
    /// Whether `legal_moves` lists the moves' texts sorted (the default) or in the order of
    /// [`Rules::legal`]: a game searched through its texts keeps the order its robots were made
    /// with (Cups: `d1` to `d10`, then the sows).
    fn sorted_texts(&self) -> bool {
        true
    }
    /// How a refused move (the game says it on its record) names the end of a finished game, in `the game is over (…)`; `None`,
    /// the default: `Black won`, `it was drawn`.
    fn over_text(game: &Match<Self>) -> Option<String> {
        let _ = game;
        None
    }
    /// How many seats play, without naming them (the record counts them on every pass of a
    /// playout); by default the number of [`Rules::seat_names`].
    fn seats(&self) -> usize {
        self.seat_names().len()
    }
    // ---- appended for Limit (issue 36 section 1): games of more than two players, where a seat
    // that leaves does not end the game (see `matchplay/seats.rs`); optional ---------------------
    /// Takes `seat` out after it resigned or lost on time. `Ok(None)`, the default: the game ends
    /// there, the other seat of two wins. `Ok(Some(passes))`: the position went on without the seat
    /// (its [`Rules::outcome`] says if that ended the game), then made `passes` automatic passes
    /// (their seats by [`Rules::pass_seat`]). An error (the seat is out already) changes nothing.
    fn seat_left(&mut self, seat: usize) -> Result<Option<u32>, RuleError> {
        let _ = seat;
        Ok(None)
    }
    /// The seat of the `k`-th automatic pass (from 0) the last [`Rules::apply`] or
    /// [`Rules::seat_left`] made after `mover`'s turn: by default the seats in turn after it.
    fn pass_seat(&self, mover: usize, k: u32) -> usize {
        (mover + 1 + k as usize) % self.seats().max(1)
    }
    /// The automatic passes the start position made before the first seat to move (their seats by
    /// [`Rules::pass_seat`]): none by default.
    fn start_passes(&self) -> u32 {
        0
    }
    /// The players agreed a draw: the seats it is between (by default every seat; Limit's, the
    /// seats still in). A position that keeps its own ending ends here too.
    fn draw_agreed(&mut self) -> Vec<usize> {
        (0..self.seats()).collect()
    }
    // ---- appended for Go (issue 36 section 1): optional, with defaults that keep a game as it
    // was; see `matchplay/scoring.rs` ------------------------------------------------------------
    /// The seat that makes `mv` here: by default the seat to move; Go's scoring step takes acts
    /// from either player.
    fn mover(&self, mv: &Self::Move) -> usize {
        let _ = mv;
        self.to_move()
    }
    /// Whether `seat` may move although another is awaited ([`GameState::acts_out_of_turn`]);
    /// false by default.
    fn acts_out_of_turn(&self, seat: usize) -> bool {
        let _ = seat;
        false
    }
    /// Reads a move `seat` sends ([`GameState::play_for`]), refusing it if that seat may not make
    /// it; by default [`Rules::read_here`], as the seat to move's.
    fn read_by(&self, seat: usize, text: &str) -> Result<Self::Move, RuleError> {
        let _ = seat;
        self.read_here(text)
    }
    /// How the stored document writes `seat`'s move: by default [`Rules::write_here`] (Go writes
    /// the side before an act of its scoring step, `white dead d4`, which either player may send).
    fn write_stored(&self, seat: usize, mv: &Self::Move) -> String {
        let _ = seat;
        self.write_here(mv.clone())
    }
    /// The stored document from the record's entries as written by [`Rules::write_stored`] (and
    /// `resign 0`, `forfeit 1`, `draw`), for a game whose documents keep a shape older than the
    /// record's, byte for byte (Go's keys in their order and its status line); `None`, the
    /// default: the record's document.
    fn document(game: &Match<Self>, moves: Vec<String>) -> Option<String> {
        let _ = (game, moves);
        None
    }
}

/// How a game is shown: the ASCII board is required, the rest optional.
pub trait View: Rules {
    /// The ASCII board a player reads, with its legend and whose turn it is.
    fn ascii(game: &Match<Self>) -> String;
    /// Paints the board (see [`GameState::paint`]); false, the default, for a game without a picture.
    fn paint(game: &Match<Self>, painter: &mut dyn Painter) -> bool {
        let _ = (game, painter);
        false
    }
    /// Lines under the status in the summary (disc counts and the like).
    fn notes(game: &Match<Self>) -> Vec<String> {
        let _ = game;
        Vec::new()
    }
    /// The start position for the record's `0: Setup` (records.md section 1); `None`: `Empty board.`
    fn setup_text(&self) -> Option<String> {
        None
    }
    /// How `pbem engine GAME status` names a seat ([`GameState::status_seat`]); `None`, the default:
    /// its name in lower case.
    fn status_seat(seat: usize) -> Option<String> {
        let _ = seat;
        None
    }
    /// The game-neutral board ([`GameState::board_view`]); `None`, the default: a board without cells.
    fn board_view(game: &Match<Self>) -> Option<Board> {
        let _ = game;
        None
    }
    /// The lines to send the board mail shows ([`GameState::example_moves`]); `None`, the default:
    /// the first legal move.
    fn example_moves(game: &Match<Self>) -> Option<Vec<String>> {
        let _ = game;
        None
    }
    /// What happened from move `since` to now, in words, for the board mail
    /// ([`GameState::turn_notes`]); `None`, the default: the record's own note for each engine's
    /// pass. A game that tells its passes itself (Ataxx's, Paradux's reasons) says them here.
    fn turn_notes(game: &Match<Self>, since: u32) -> Option<Vec<String>> {
        let _ = (game, since);
        None
    }
    /// How the move list names the engine's pass for a seat with no move: `pass` by default,
    /// Ataxx's `0000` (its notation's null move).
    fn pass_text(&self) -> &'static str {
        "pass"
    }
    /// The FEN of the start for a PGN export ([`GameState::pgn_start`]); `None` by default.
    fn pgn_start(&self) -> Option<String> {
        None
    }
    /// The pieces the entry `index` took ([`GameState::losses`]).
    fn losses(game: &Match<Self>, index: usize) -> Vec<Loss> {
        let _ = (game, index);
        Vec::new()
    }
    /// The game in SGF terms ([`GameState::sgf_form`]), for a game whose players' tools read SGF.
    fn sgf_form(game: &Match<Self>) -> Option<SgfForm> {
        let _ = game;
        None
    }
    // ---- appended for Limit: optional --------------------------------------------------------
    /// The move list's word for the automatic entry `index` (an engine's pass); `None`, the
    /// default: [`View::pass_text`]. Limit's pass that takes a seat out reads `eliminated`.
    fn auto_text(game: &Match<Self>, index: usize) -> Option<String> {
        let _ = (game, index);
        None
    }
    /// The options as the summaries print them ([`GameState::options_summary`]); `None`, the
    /// default: [`Rules::options`] as option words.
    fn options_summary(&self) -> Option<String> {
        None
    }
    // ---- appended for Go: optional, each `None` by default as [`GameState`]'s -------------------
    /// How the news tells the entry `index` ([`GameState::entry_news`]): Go's `passed`.
    fn entry_news(game: &Match<Self>, index: usize) -> Option<String> {
        let _ = (game, index);
        None
    }
    /// A line for `seat` while another seat is awaited but `seat` may act too
    /// ([`GameState::waiting_note`]).
    fn waiting_note(game: &Match<Self>, seat: usize) -> Option<String> {
        let _ = (game, seat);
        None
    }
    /// The margin and the scores when a count decided the game ([`GameState::score_result`]).
    fn score_result(game: &Match<Self>) -> Option<String> {
        let _ = game;
        None
    }
}

/// The robot's optional hooks (see the same-named methods of [`GameState`]), on the position.
pub trait Search: Rules {
    /// Whether the search keeps all-moves-as-first statistics; by default when the game has ids.
    fn rave(&self) -> bool {
        self.action_space() > 0
    }
    /// Scores of `actions` before any search, higher first ([`GameState::action_priors`]).
    fn priors(&self, actions: &[u32], out: &mut Vec<f32>) {
        let _ = actions;
        out.clear();
    }
    /// Plays to the end with the game's own policy ([`GameState::search_playout`]); false, having
    /// changed nothing, for a game without one.
    fn playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        let _ = (pick, played);
        false
    }
    /// Plays uniformly random legal moves to the end ([`GameState::random_playout`]) with the game's
    /// own loop, faster than listing the legal moves every turn (Hex keeps its empty cells, Ataxx
    /// draws a move without listing them), recording each move and the passes the rules made after
    /// it onto `played` as [`Match::push`] does ([`Entry::push_move`]); returns the number of moves
    /// played (the passes not counted). `None`, the default, having changed nothing: [`Match`]
    /// lists the legal moves every turn and picks one of them.
    fn random_moves(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: &mut Vec<Entry<Self::Move>>,
    ) -> Option<u32> {
        let _ = (pick, played);
        None
    }
    /// The playouts a robot level spends here ([`GameState::level_playouts`]); `None`: the search's.
    fn level_playouts(&self, level: u8) -> Option<u32> {
        let _ = level;
        None
    }
    /// Whether `action` could end the game at once ([`GameState::may_win_at_once`]).
    fn may_win_at_once(&self, action: u32) -> bool {
        let _ = action;
        true
    }
    // ---- appended for Cups, Ataxx, Hexxagon and Paradux: optional -------------------------------
    /// The legal moves as action ids in the game's own order, into `out` (cleared first); false,
    /// the default, having written nothing: the ids of [`Rules::legal`]'s moves in its order.
    fn legal_actions(&self, out: &mut Vec<u32>) -> bool {
        let _ = out;
        false
    }
    /// The worth to `seat` of a position where [`Search::playout`] stopped before the end
    /// ([`GameState::playout_value`]); `None` by default.
    fn playout_value(&self, seat: usize) -> Option<f32> {
        let _ = seat;
        None
    }
    // ---- appended for Limit: optional ---------------------------------------------------------
    /// The game's own move for `robot` ([`GameState::robot_move`]): `Some(None)` once the game is
    /// over; `None`, the default, leaves the robot to the search.
    fn robot_move(&self, robot: Robot, seed: u64) -> Option<Option<Self::Move>> {
        let _ = (robot, seed);
        None
    }
    /// The group an action belongs to for the search ([`GameState::action_group`]); `None` by
    /// default.
    fn action_group(&self, action: u32) -> Option<u32> {
        let _ = action;
        None
    }
    /// The search's contempt for a draw here ([`GameState::search_contempt`]); `None` by default.
    fn contempt(&self) -> Option<f32> {
        None
    }
    // ---- appended for Go: optional --------------------------------------------------------------
    /// Priors as results already seen ([`GameState::prior_results`]); `None` by default.
    fn prior_results(&self, prior: f32) -> Option<(u32, f32)> {
        let _ = prior;
        None
    }
    /// The position the search plays on, from this one ([`GameState::search_copy`]): by default a
    /// copy (Go's makes room for a game's stones at once).
    fn searched(&self) -> Self {
        self.clone()
    }
    /// The move a robot sends here without searching, if there is one: Go's answer in its scoring
    /// step (accept or resume). `None` by default: the robot searches.
    fn robot_answer(&self) -> Option<String> {
        None
    }
    /// The game a robot searches for its move instead of `game`, if another: Go's with the scoring
    /// step searches the same moves under the spec's rules (two passes end its playouts by the
    /// count), with the same record, so that its trees are kept between moves as before. `None`
    /// by default: `game` itself.
    fn robot_game(game: &Match<Self>) -> Option<Match<Self>> {
        let _ = game;
        None
    }
}
