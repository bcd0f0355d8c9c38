//! The games this server hosts.
//!
//! A game is one folder under `games/` that implements [`GameRules`] (the game type: how to start a game,
//! its help page) and [`GameState`] (one game in progress: its moves, its board, its result). The server,
//! the mail layout and the `pbem engine` command only ever talk to these two traits, so a new game is added
//! by writing its rules and listing it in [`Registry::standard`]; the web pages and `pbem engine` are
//! handed a [`Registry`] value.
//!
//! Game states travel as JSON text: that is what the database stores and what `pbem engine` reads and
//! writes, so a game's JSON document is its whole, self-contained state.

use std::fmt;

pub mod ataxx;
mod bitword;
pub mod board;
pub mod cellgrid;
pub mod chameleon;
pub mod cups;
pub mod go;
pub mod hex;
pub mod hexgrid;
pub mod limit;
pub mod matchplay;
pub mod othello;
pub mod paradux;
#[cfg(test)]
mod picture_tests; // every game's picture against its reference PNG
pub mod search;
pub mod stones;
pub mod unlur;
pub mod y;

pub use board::Board;

/// A game option from a challenge, as the command language wrote it: `-size=8` is
/// `GameOption { name: "size", value: Some("8") }`, `-manual` has no value. The name has no leading dash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOption {
    /// The option's name, without the leading `-`, as written (case is kept; games compare ignoring case).
    pub name: String,
    /// The text after `=`, if any.
    pub value: Option<String>,
}

impl GameOption {
    /// An option without a value, such as `-manual`.
    pub fn flag(name: &str) -> Self {
        GameOption {
            name: name.to_string(),
            value: None,
        }
    }

    /// Reads one word of the command language as a game option: `-size=8`, `-manual`. Returns `None` for
    /// a word that does not start with a single `-` followed by a name (server options start with `--`).
    pub fn parse(word: &str) -> Option<GameOption> {
        let rest = word.strip_prefix('-')?;
        if rest.starts_with('-') {
            return None;
        }
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (rest, None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        Some(GameOption {
            name: name.to_string(),
            value,
        })
    }

    /// An option with a value, such as `-size=8`.
    pub fn with_value(name: &str, value: &str) -> Self {
        GameOption {
            name: name.to_string(),
            value: Some(value.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_words() {
        assert_eq!(
            GameOption::parse("-size=8"),
            Some(GameOption::with_value("size", "8"))
        );
        assert_eq!(
            GameOption::parse("-manual"),
            Some(GameOption::flag("manual"))
        );
        assert_eq!(GameOption::parse("--nagtime=3"), None);
        assert_eq!(GameOption::parse("alice"), None);
        assert_eq!(GameOption::parse("-"), None);
        assert_eq!(GameOption::parse("-=3"), None);
    }

    /// `rematch` starts a game from the finished one's `options_summary`, read back as options:
    /// every game's summary must give the same game again, on its default and a changed size.
    #[test]
    fn every_games_options_summary_reads_back_as_its_options() {
        for rules in Registry::standard().iter() {
            let players = *rules.players().start();
            for given in [vec![], vec![GameOption::with_value("size", "5")]] {
                let Ok(first) = rules.new_hosted_game(&given, players, 7) else {
                    continue;
                };
                let summary = first.options_summary();
                let read: Vec<GameOption> = summary
                    .split_whitespace()
                    .filter_map(GameOption::parse)
                    .collect();
                assert_eq!(
                    read.len(),
                    summary.split_whitespace().count(),
                    "{}: {summary}",
                    rules.name()
                );
                let again = rules
                    .new_hosted_game(&read, players, 7)
                    .unwrap_or_else(|e| panic!("{}: {summary}: {e}", rules.name()));
                assert_eq!(again.options_summary(), summary, "{}", rules.name());
            }
        }
    }
}

impl fmt::Display for GameOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            Some(v) => write!(f, "-{}={}", self.name, v),
            None => write!(f, "-{}", self.name),
        }
    }
}

/// Where a game stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The game goes on; the seat (0-based, in the order the players were challenged) is to move.
    ToMove(usize),
    /// The game is over.
    Over(Outcome),
}

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// One seat won.
    Winner(usize),
    /// A draw (or tie) shared by these seats; the others lost.
    Draw(Vec<usize>),
}

/// One entry of a game's move list, as players read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    /// The seat that made the move (or for whom the engine made it).
    pub seat: usize,
    /// The move in canonical notation (`3-7,4`, `r3`, `resign`, `pass`, `eliminated`, …).
    pub text: String,
    /// True for the entries the engine applied itself (passes, eliminations), printed `(Auto)`.
    pub auto: bool,
}

/// Pieces of one seat that one move took off the board (see [`GameState::losses`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loss {
    /// The seat whose pieces went.
    pub seat: usize,
    /// Where they stood, as players name the cells (`3`, `18`).
    pub cells: Vec<String>,
    /// What the game calls one of them (`pawn`).
    pub piece: &'static str,
}

/// A computer player, as `pbem engine <game> match` and the server's robot accounts name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Robot {
    /// A uniformly random legal move.
    Random,
    /// The game's one-ply player (for Limit: the turn that wins the most pawns at once).
    Greedy,
    /// The game's search player at a named strength, 1 (weakest) to 3.
    Level(u8),
    /// The game's search player with this many playouts a move.
    Playouts(u32),
    /// The game's search player at a level, stopping at `millis` of thinking if its playouts are not
    /// done by then (the server's robot accounts: an answer in time even on a busy machine; the move
    /// is fixed by the seed unless the cap cuts the search short).
    Within {
        /// The level, 1 to 3.
        level: u8,
        /// The most milliseconds to think.
        millis: u64,
    },
}

/// A rule-level error: an option, a move or a state document that the game refuses. The text says what
/// was wrong and how to write it right; it is shown to players as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError(pub String);

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RuleError {}

/// A game type: the rules as a whole, before any game is started.
pub trait GameRules: Sync {
    /// The command word, lowercase: `limit`.
    fn name(&self) -> &'static str;
    /// The name as printed in subjects and summaries: `Limit`.
    fn title(&self) -> &'static str;
    /// The fewest and most players a game takes.
    fn players(&self) -> std::ops::RangeInclusive<usize>;
    /// The help page mailed for `<game> help`: rules, options, move syntax.
    fn help(&self) -> String;
    /// Starts a game for `players` players with the challenge's options; `seed` drives anything random
    /// (such as a random layout) and is stored in the state so that the game can be replayed.
    fn new_game(
        &self,
        options: &[GameOption],
        players: usize,
        seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError>;
    /// Starts a game the server hosts (a challenge). By default [`GameRules::new_game`]; a game whose
    /// play by mail adds a step the engine's rules leave out (Go's dead-stone agreement after two
    /// passes) returns that form here, and `pbem engine` keeps to `new_game`, the spec's rules.
    fn new_hosted_game(
        &self,
        options: &[GameOption],
        players: usize,
        seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        self.new_game(options, players, seed)
    }
    /// Reads a game back from its JSON document (as written by [`GameState::to_json`]).
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError>;
    /// Checks that `mv` (as written, its `#N` guard already taken off by the command language) is in
    /// the game's move notation, not that it is legal anywhere: a queued move is read when it is
    /// queued, so that only a move is stored and mailed back later, and played when its turn comes.
    fn read_move(&self, mv: &str) -> Result<(), RuleError>;
    /// Whether a line of a reply to a board mail is a move of this game: by default what
    /// [`GameRules::read_move`] reads; a game adds the words it takes only at the moment they are
    /// sent and so refuses to queue (Go's scoring step: `resume` replied alone was a chat).
    fn reads_as_move(&self, mv: &str) -> bool {
        self.read_move(mv).is_ok()
    }
    /// True when the game has a robot player ([`GameState::robot_move`]): only then may the robot
    /// accounts (robot1..robot3) be challenged to it. Every game has one by default: the generic
    /// search ([`search`]) plays any game, through action ids when the game gives them and through
    /// `legal_moves`/`play` otherwise.
    fn has_robot(&self) -> bool {
        true
    }
}

/// [`GameState::robot_move`]'s default, for a game that plays only some robots itself: plays
/// [`Robot::Random`] and hands the other robots to the generic search ([`search::robot_move`]).
pub fn default_robot_move<S: GameState + ?Sized>(
    game: &S,
    robot: Robot,
    seed: u64,
) -> Option<String> {
    if robot != Robot::Random {
        return search::robot_move(game.clone_box(), robot, seed);
    }
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut x = seed ^ 0x9e37_79b9_7f4a_7c15;
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    Some(moves[(x % moves.len() as u64) as usize].clone())
}

/// One game in progress (or finished). Moves are always played by the seat whose turn it is; the server
/// checks who may move before it calls [`GameState::play`].
pub trait GameState: Send {
    /// The whole game as a JSON document; [`GameRules::load`] reads it back to an equal game.
    fn to_json(&self) -> String;
    /// A copy of this game, to try moves on (`preview`, perft, playouts).
    fn clone_box(&self) -> Box<dyn GameState>;
    /// Whose turn it is, or how the game ended.
    fn status(&self) -> Status;
    /// The name of each seat's side as players read it (`Red`, `Blue`, `Green`; `White`, `Red`, `Black`).
    fn seat_names(&self) -> Vec<String>;
    /// How `pbem engine GAME status` and `playout` name a seat: by default its name in lower case
    /// (`red`); a game whose spec names seats by number (Hex: `to-move 0`) returns the number.
    fn status_seat(&self, seat: usize) -> String {
        self.seat_names()
            .get(seat)
            .map(|n| n.to_lowercase())
            .unwrap_or_else(|| format!("seat{seat}"))
    }
    /// The number of the move now awaited: one more than the number of entries in the move list. Used by
    /// the `#N` guards and printed as `Move N` in every summary.
    fn move_number(&self) -> u32;
    /// The move list, every entry, `(Auto)` ones included.
    fn moves(&self) -> Vec<MoveRecord>;
    /// The options in force, one human-readable line (`-size=8 -must_touch=2 …`).
    fn options_summary(&self) -> String;
    /// Every legal move for the player to move, in canonical notation, sorted; empty once the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays one move (in any accepted notation, without a `#N` guard) for the player to move, then
    /// whatever the engine applies by itself (passes, eliminations). An illegal move changes nothing and
    /// the error says why it is illegal.
    fn play(&mut self, mv: &str) -> Result<(), RuleError>;
    /// Whether `seat` may send a move although [`GameState::status`] awaits another seat: false by
    /// default; Go's scoring step lets either player mark dead stones or accept, and awaits (for the
    /// clocks and the robots) the player who has not accepted.
    fn acts_out_of_turn(&self, seat: usize) -> bool {
        let _ = seat;
        false
    }
    /// Plays `mv` for `seat`, which is the seat to move or one that [`GameState::acts_out_of_turn`]
    /// allows. By default [`GameState::play`] (the seat to move's).
    fn play_for(&mut self, seat: usize, mv: &str) -> Result<(), RuleError> {
        let _ = seat;
        self.play(mv)
    }
    /// The seat resigns (whether or not it is their turn); the game may end or go on without them.
    fn resign(&mut self, seat: usize) -> Result<(), RuleError>;
    /// The seat loses on time (the server's forfeit clock). Like [`GameState::resign`], but a game that
    /// can should record it so that the move list says why.
    fn forfeit(&mut self, seat: usize) -> Result<(), RuleError> {
        self.resign(seat)
    }
    /// The players still in agree to end the game as a draw between them (an accepted draw proposal).
    fn agree_draw(&mut self) -> Result<(), RuleError>;
    /// The game as it stood when move `n` was awaited (`show 101#5`): replays the first `n - 1` entries.
    fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError>;
    /// The position as a game-neutral board (cells, tiles, pieces, whose turn, the last move), which
    /// renderers draw without knowing the game. The default has no cells ([`Board::without_cells`]).
    fn board_view(&self) -> Board {
        Board::without_cells(self)
    }
    /// The ASCII board a player reads (fits 72 columns at the default size), with legend and whose turn.
    fn render(&self) -> String;
    /// Paints the board, with the last move marked, through `painter` (which writes the web's
    /// SVG or fills the mail's PNG, see [`crate::picture::paint`]); false for a game without a
    /// picture (nothing painted).
    fn paint(&self, painter: &mut dyn crate::picture::Painter) -> bool {
        let _ = painter;
        false
    }
    /// The board as an SVG picture, with the last move marked; `None` for a game without one.
    /// Written by [`GameState::paint`].
    fn svg(&self) -> Option<String> {
        crate::picture::svg_of(|p| self.paint(p))
    }
    /// The board as a mail's PNG ([`crate::picture::png_of`]); `None` for a game without a picture.
    fn png(&self) -> Option<Result<Vec<u8>, String>> {
        crate::picture::png_of(|p| self.paint(p))
    }
    /// The number of legal move sequences of length `depth` (perft), counting from this position.
    /// Games override this with a faster walk over their own types.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut next = self.clone_box();
                next.play(m).expect("a listed move is legal");
                next.perft(depth - 1)
            })
            .sum()
    }
    /// Plays random legal moves until the game is over; `pick(n)` chooses an index below `n`. Returns the
    /// number of moves played. Games override this with a faster loop over their own types.
    fn random_playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        let mut played = 0;
        loop {
            let moves = self.legal_moves();
            if moves.is_empty() {
                return played;
            }
            let m = &moves[pick(moves.len())];
            self.play(m).expect("a listed move is legal");
            played += 1;
        }
    }
    /// How many action ids this game uses (every id is below it), for the search; 0 when the game gives
    /// none, and the search then works on `legal_moves()` and `play` (slower, no RAVE).
    fn action_space(&self) -> u32 {
        0
    }
    /// The legal moves as action ids into `out` (cleared first). An id names the same move in every
    /// position of this game (a cell, `swap`), so statistics per action (RAVE) carry over.
    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
    }
    /// Plays an action listed by `legal_actions` (then whatever the engine applies by itself).
    /// Only called with a listed action; a game without action ids is never asked.
    fn apply_action(&mut self, action: u32) {
        let _ = action;
        unreachable!("apply_action on a game whose action_space() is 0")
    }
    /// The action in the game's canonical move notation (`c3`, `swap`).
    fn action_text(&self, action: u32) -> String {
        let _ = action;
        String::new()
    }
    /// The move `robot` chooses for the player to move, in canonical notation, with `seed` driving any
    /// randomness (the same seed gives the same move, unless a time cap cuts the search short or the
    /// search reuses its tree from an earlier move of the same game); `None` once the game is over.
    /// The default plays [`Robot::Random`] itself and hands the other robots to the generic search
    /// ([`search::robot_move`]); a game overrides this only for players of its own (Limit's `greedy`).
    fn robot_move(&self, robot: Robot, seed: u64) -> Option<String> {
        default_robot_move(self, robot, seed)
    }
    // ---- optional hooks of the search (games/search/), each with a default that works ----------
    /// Whether the search keeps all-moves-as-first (RAVE) statistics: they help where a move's worth
    /// hardly depends on when it is played (connection games). By default on whenever the game gives
    /// action ids.
    fn search_rave(&self) -> bool {
        self.action_space() > 0
    }
    /// A copy of this position for the search to play on: a game may leave out what the rules do not
    /// need (Limit drops its move list, so that the thousands of copies a search makes stay cheap).
    fn search_copy(&self) -> Box<dyn GameState> {
        self.clone_box()
    }
    /// How promising each of `actions` (legal here) looks before any search, higher first, into `out`
    /// (one score per action); `f32::INFINITY` marks an action the game knows wins at once. Left empty
    /// (the default), the search tries the actions in a random order.
    fn action_priors(&self, actions: &[u32], out: &mut Vec<f32>) {
        let _ = actions;
        out.clear();
    }
    /// Priors as results already seen (MoGo's "prior knowledge"): a new child of the tree whose prior
    /// is `prior` starts as if `visits` playouts had given it a mean reward of `mean` (0 to 1, for the
    /// player choosing it), so that the search trusts a good prior until real playouts say otherwise.
    /// `None` (the default): priors only order the progressive widening.
    fn prior_results(&self, prior: f32) -> Option<(u32, f32)> {
        let _ = prior;
        None
    }
    /// Whether `action` (legal here) could win the game at once; the search plays each action for which
    /// this is true when it first lists a position's actions, to find wins in one. `false` is a promise
    /// that it cannot (a game that marks its winning actions in [`GameState::action_priors`] may say
    /// `false` for all). The default, `true`, is always right and costs a copy and a move per action.
    fn may_win_at_once(&self, action: u32) -> bool {
        let _ = action;
        true
    }
    /// Splits a turn in two for the search: actions with the same group are first chosen as a group,
    /// then one of them, both by the player to move (Limit: the pawn move, then the removal). `None`, the
    /// default, leaves the action on its own.
    fn action_group(&self, action: u32) -> Option<u32> {
        let _ = action;
        None
    }
    /// Plays the game to its end with the game's own playout policy, `pick(n)` giving an index below `n`
    /// (or, with `n = usize::MAX`, a random number to seed a generator); pushes each action played and
    /// its seat onto `played` when given (for RAVE). Returns `false`, having changed nothing, when the
    /// game has no policy of its own (the default): the search then plays random actions (or, for a
    /// game without action ids, [`GameState::random_playout`]).
    fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        let _ = (pick, played);
        false
    }
    /// The worth to `seat` (0 to 1, the chance it wins as the game judges it) of a position where the
    /// game's own playout ([`GameState::search_playout`]) stopped before the end. A game whose random
    /// games are long and whose material says much (Ataxx) cuts its playouts short and scores the
    /// position instead: many short playouts tell the search more than a few long ones. `None` (the
    /// default): a playout that stops before the end counts as a shared point, as a draw. The search
    /// takes no contempt off a judged value: it is an estimate, not a draw on offer.
    fn playout_value(&self, seat: usize) -> Option<f32> {
        let _ = seat;
        None
    }
    /// The part of its share of a draw that the robot the search is for gives up (contempt, 0 to 0.99),
    /// which the others in the draw gain; `None` (the default) takes the search's 0.8. Limit under
    /// `-move_or_remove` asks for more: there a draw is on offer at almost every turn, and a robot that
    /// counted it worth a tenth of a point still took draws where playing on won against a random player.
    fn search_contempt(&self) -> Option<f32> {
        None
    }
    /// The playouts a robot level (1 to 3) spends on a move in this position; `None` (the default) takes
    /// the search's table ([`search::level_playouts`]). Limit spends fewer on placements, whose playouts
    /// cost ten to forty times more.
    fn level_playouts(&self, level: u8) -> Option<u32> {
        let _ = level;
        None
    }
    /// The moves the board mail to the player on move shows as whole lines to send, each a legal move
    /// here: by default the first legal move; a game adds the moves a player might not think of (Hex's
    /// `swap`). Empty once the game is over.
    fn example_moves(&self) -> Vec<String> {
        self.legal_moves().into_iter().take(1).collect()
    }
    /// What happened from move `since` (the move then awaited) to now, in words, for the board mail:
    /// why an `(Auto)` entry was made, stones that changed. Captures are not told here but by
    /// [`GameState::losses`], so that each reader's news can say "your pawn". Empty when there is
    /// nothing to tell.
    fn turn_notes(&self, since: u32) -> Vec<String> {
        let _ = since;
        Vec::new()
    }
    /// The pieces the entry `index` (0-based, of [`GameState::moves`]) took off the board, a seat at a
    /// time, for the news at the top of a board mail. Empty by default.
    fn losses(&self, index: usize) -> Vec<Loss> {
        let _ = index;
        Vec::new()
    }
    /// How the news of a board mail tells the entry `index` (0-based, of [`GameState::moves`])
    /// after its player's name, when `played <move>` would not read right: Go's `passed`,
    /// `accepted the marking`. `None` (the default): `played <move>`.
    fn entry_news(&self, index: usize) -> Option<String> {
        let _ = index;
        None
    }
    /// A line for the board mail of `seat` when the game waits for another seat but `seat` may
    /// act too ([`GameState::acts_out_of_turn`]): what happens next and what they may send. `None`
    /// by default.
    fn waiting_note(&self, seat: usize) -> Option<String> {
        let _ = seat;
        None
    }
    /// The margin and the scores when a count decided the finished game, as a text record's
    /// `Result:` line carries them after `wins by` (records.md 1.1): `7.5 (Black 1, White 1 +
    /// 7.5)`. `None` (the default) for a game without a count or not ended by one.
    fn score_result(&self) -> Option<String> {
        None
    }
    /// Lines the summary prints under the status (pawns left in the box, and the like); may be empty.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// The position, in one or more lines, as a game record's `0: Setup` shows the start
    /// (records.md section 1): `Empty board.`, or the pieces of each side by the cells players name.
    /// Called on the game at move 1. The default lists the pieces [`GameState::board_view`] shows.
    fn setup_text(&self) -> String {
        setup_lines(&self.board_view())
    }
    /// The game in SGF terms, for games whose players' tools read SGF (records.md section 2: Go, Hex);
    /// `None` for the others, which export the text record only.
    fn sgf_form(&self) -> Option<SgfForm> {
        None
    }
    /// The FEN of the start position, for a game exported as PGN (records.md section 3: Ataxx on 7×7);
    /// `None` for the others. The moves are the move list's entries as they stand (`0000` for a pass).
    fn pgn_start(&self) -> Option<String> {
        None
    }
}

/// What a game gives [`crate::records::sgf`]: the parts of its SGF file that depend on the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SgfForm {
    /// The `GM` number (1 Go, 11 Hex).
    pub game_number: u32,
    /// The `SZ` value (`11`, or `cols:rows`).
    pub size: String,
    /// Further root properties after `SZ`, each with its values, unescaped (`KM` `7.5`; `AB` with
    /// several points).
    pub root: Vec<(String, Vec<String>)>,
    /// One entry a move-list entry: the node's colour property (`B` or `W`) and value, or `None` for
    /// an entry that is not a node.
    pub nodes: Vec<Option<(char, String)>>,
    /// The winner's margin for `RE` when the game was won on points (`7.5`), if any.
    pub margin: Option<String>,
    /// Properties the last node gets after its move (Go's agreed dead stones: `TB`, `TW`).
    pub last_node: Vec<(String, Vec<String>)>,
    /// A comment the last node gets after the players' (how the result was reached).
    pub last_comment: Option<String>,
}

/// The games this crate has, in list order.
const STANDARD: &[&dyn GameRules] = &[
    &limit::Limit,
    &hex::Hex,
    &y::Y,
    &chameleon::Chameleon,
    &unlur::Unlur,
    &go::Go,
    &ataxx::Ataxx,
    &ataxx::Hexxagon,
    &cups::Cups,
    &paradux::Paradux,
    &othello::Othello,
];

/// The game types a server hosts, in the order `list` prints them. The server, the web page and
/// `pbem engine` are given one; nothing looks games up globally, so a test can host a game of its own.
#[derive(Clone)]
pub struct Registry {
    games: Vec<&'static dyn GameRules>,
}

impl Registry {
    /// Every game this crate has.
    pub fn standard() -> Registry {
        Registry::new(STANDARD.to_vec())
    }

    /// Exactly these games, in this order.
    pub fn new(games: Vec<&'static dyn GameRules>) -> Registry {
        Registry { games }
    }

    /// This registry with one more game, listed last.
    pub fn with(mut self, game: &'static dyn GameRules) -> Registry {
        self.games.push(game);
        self
    }

    /// The game type named `name` (compared ignoring case).
    pub fn find(&self, name: &str) -> Option<&'static dyn GameRules> {
        self.games
            .iter()
            .copied()
            .find(|g| g.name().eq_ignore_ascii_case(name))
    }

    /// The games in list order.
    pub fn iter(&self) -> impl Iterator<Item = &'static dyn GameRules> + '_ {
        self.games.iter().copied()
    }

    /// The games' command words in list order: `limit`.
    pub fn names(&self) -> Vec<&'static str> {
        self.iter().map(|g| g.name()).collect()
    }
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::standard()
    }
}

/// [`GameState::setup_text`]'s default: the pieces (and tiles) `view` shows, or `Empty board.`
pub fn setup_lines(view: &Board) -> String {
    let mut lines = Vec::new();
    // Where the board itself differs cell by cell (Limit's coloured tiles), the record names it.
    if view.tiles.len() > 1 {
        for kind in &view.tiles {
            let cells: Vec<String> = view
                .cells
                .iter()
                .filter(|c| c.tile.as_deref() == Some(kind.name.as_str()))
                .map(|c| c.number.to_string())
                .collect();
            lines.push(format!("{} tiles: {}", kind.name, cells.join(" ")));
        }
    }
    let mut parts = Vec::new();
    for (seat, side) in view.sides.iter().enumerate() {
        let cells: Vec<String> = view
            .cells
            .iter()
            .filter(|c| c.piece == Some(seat))
            .map(|c| c.number.to_string())
            .collect();
        if !cells.is_empty() {
            parts.push(format!("{}: {}", side.name, cells.join(" ")));
        }
    }
    if parts.is_empty() && lines.is_empty() {
        return "Empty board.".to_string();
    }
    if !parts.is_empty() {
        lines.push(parts.join("  "));
    }
    lines.join("\n")
}
