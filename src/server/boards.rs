//! Boards: the summary a board mail shows, the mails of a new position, `show`.

use super::{Core, Letter, Outcome, Picture, Refused, Sign, Step};
use crate::decision::PlayRefusal;
use crate::games::{GameRules, GameState, Status};
use crate::mail_out::BoardPage;
use crate::reply_token::Target;
use crate::storage::{Comment, GameRow, Listed, SavedStatus, StorageError, Tx};
use crate::summary::{self, Summary};

impl Core {
    /// The current summary of a board, if it exists and loads (for error mails).
    pub(super) fn board_text(
        &self,
        tx: &Tx<'_>,
        game_type: &str,
        board: u32,
    ) -> Result<Option<String>, StorageError> {
        let Some(rules) = self.games.find(game_type) else {
            return Ok(None);
        };
        let Some(row) = tx.game(game_type, board)? else {
            return Ok(None);
        };
        let Ok(state) = rules.load(&row.state) else {
            return Ok(None);
        };
        Ok(Some(self.summary(tx, rules, &row, state.as_ref(), &[])?))
    }

    /// A board's summary as its mails show it, with what the server adds to the game itself: open
    /// proposals and vacations under the status, rating changes, subscribers.
    pub(super) fn summary(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        row: &GameRow,
        state: &dyn GameState,
        comments: &[Comment],
    ) -> Result<String, StorageError> {
        self.summary_with(tx, rules, row, state, comments, true)
    }

    /// [`Core::summary`], with the ASCII board or without it (the HTML part shows the picture).
    fn summary_with(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        row: &GameRow,
        state: &dyn GameState,
        comments: &[Comment],
        with_board: bool,
    ) -> Result<String, StorageError> {
        let players = userids(row);
        let mut status_notes = self.proposal_lines(tx, rules, row, state)?;
        status_notes.extend(self.agreement_lines(tx, rules, row, state)?);
        status_notes.extend(self.away_lines(tx, row)?);
        // `show 101#5` of a finished game shows a position before its end: no rating changes there.
        let rating_changes = if matches!(state.status(), Status::Over(_)) {
            self.rating_lines(tx, row)?
        } else {
            Vec::new()
        };
        let subscribers = self.subscriber_names(tx, row)?;
        let summary = Summary {
            title: rules.title(),
            board: row.board,
            state,
            players: &players,
            comments,
            status_notes: &status_notes,
            rating_changes: &rating_changes,
            subscribers: &subscribers,
            started: row.created_at,
            last_move: row.updated_at,
            now: self.now,
            time_used: &tx.time_used(row.id)?,
        };
        Ok(if with_board {
            summary.render()
        } else {
            summary.render_without_board()
        })
    }

    /// Every player's own board mail, and each subscriber's. `actor` is the seat that acted (their mail
    /// is the reply).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn board_mails(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        row: &GameRow,
        state: &dyn GameState,
        comments: &[Comment],
        new: bool,
        actor: Option<usize>,
    ) -> Step<Outcome> {
        let players = userids(row);
        let subject = summary::board_subject(
            rules.title(),
            row.board,
            state,
            &players,
            new,
            !comments.is_empty(),
        );
        let mut body = self.summary(tx, rules, row, state, comments)?;
        let web_line = self
            .cfg
            .web
            .game_url(rules.name(), row.board)
            .map(|url| format!("The game on the web: {url}\n"))
            .unwrap_or_default();
        body.push_str(&web_line);
        let next = next_move_lines(rules, row, state);
        // One SVG for every mail of this move: the sender draws it once (`picture::png` remembers it).
        let picture = match self.cfg.mail.pictures {
            true => state.svg().map(|svg| {
                let details = self.summary_with(tx, rules, row, state, comments, false)?;
                Ok::<_, StorageError>((svg, details + &web_line))
            }),
            false => None,
        }
        .transpose()?;
        let picture_for = |seat: Option<usize>| {
            picture.as_ref().map(|(svg, details)| {
                let lead = board_lead(rules, row, state, seat);
                Picture {
                    svg: svg.clone(),
                    page: BoardPage {
                        news: lead.news,
                        send: lead.send,
                        caption: caption(rules, row, state),
                        details: details.clone(),
                    },
                }
            })
        };
        let mut letters: Vec<Letter> = row
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| Letter {
                to: p.addresses.clone(),
                subject: subject.clone(),
                body: match &next {
                    Some((to_move, lines)) if *to_move == seat => format!("{body}\n{lines}"),
                    _ => body.clone(),
                },
                reply: Some(seat) == actor,
                picture: picture_for(Some(seat)),
                sign: Some(Sign {
                    reader: p.id,
                    target: Target::Board(row.id),
                }),
            })
            .collect();
        letters.extend(
            self.subscriber_letters(tx, row, &subject, &body)?
                .into_iter()
                .map(|l| Letter {
                    picture: picture_for(None),
                    ..l
                }),
        );
        Ok(Outcome {
            ok: true,
            text: body,
            subject,
            letters,
            ..Outcome::default()
        })
    }

    pub(super) fn show(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        boards: &[(u32, Option<u32>)],
    ) -> Step<Outcome> {
        let mut text = String::new();
        let mut subject = None;
        for &(board, at) in boards {
            let (row, state) = self.load_game(tx, rules, board)?;
            let now_at = state.move_number();
            let state = match at {
                Some(n) => state
                    .at_move(n)
                    .map_err(|e| Refused::on(PlayRefusal::Rules(e), rules.name(), board))?,
                None => state,
            };
            let players = userids(&row);
            subject.get_or_insert_with(|| {
                summary::board_subject(rules.title(), board, state.as_ref(), &players, false, false)
            });
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            if let Some(n) = at.filter(|&n| n != now_at) {
                text.push_str(&format!(
                    "This is board {board} as it was at move {n}; the game is now at move \
                     {now_at}. Send `{} show {board}` for the board as it stands.\n\n",
                    rules.name()
                ));
            }
            // The comments that came with the last move, as its board mail showed them.
            let comments: Vec<Comment> = if at.is_none() {
                tx.comments(row.id)?
                    .into_iter()
                    .filter(|c| c.created_at == row.updated_at)
                    .collect()
            } else {
                Vec::new()
            };
            text.push_str(&self.summary(tx, rules, &row, state.as_ref(), &comments)?);
        }
        Ok(Outcome::reply(
            subject.unwrap_or_else(|| format!("{} show", rules.title())),
            text,
        ))
    }
}

pub(super) fn userids(row: &GameRow) -> Vec<String> {
    row.players.iter().map(|p| p.userid.clone()).collect()
}

/// The end of the board mail to the player on move: the exact line to send, with their board, userid
/// and `<password>`, and the game's example moves of this position ([`GameState::example_moves`]: one
/// legal move, and Hex's `swap` where it is legal), a line each (`None` once the game is over or when the
/// position has no move to show).
pub(super) fn next_move_lines(
    rules: &dyn GameRules,
    row: &GameRow,
    state: &dyn GameState,
) -> Option<(usize, String)> {
    let Status::ToMove(seat) = state.status() else {
        return None;
    };
    let who = &row.players.get(seat)?.userid;
    let examples = state.example_moves();
    let first = examples.first()?;
    let n = state.move_number();
    let lines = send_lines(rules, row, state, who);
    let which = match examples.as_slice() {
        [_] => format!("{first} is one legal move here"),
        [rest @ .., last] => format!("{} and {last} are legal moves here", rest.join(", ")),
        [] => return None,
    };
    let send = if examples.len() == 1 {
        "this line"
    } else {
        "one of these lines"
    };
    Some((
        seat,
        format!(
            "It is your move, {who}. Send {send} as the Subject (or alone on a line\n\
             of a reply), with your password and your move in place of the example:\n\n\
             {}\n\
             ({which}; #{n} makes sure the move is played only at move {n}.)\n",
            lines.concat(),
        ),
    ))
}

/// What a board mail tells its reader first, before any board.
pub(super) struct Lead {
    /// What happened: the last move and whose turn it is (or how the game ended).
    pub(super) news: String,
    /// The line(s) to send with the words around them; empty unless the reader is to move.
    pub(super) send: String,
}

/// The news and the line to send of a board mail to the player in `seat` (`None`: a subscriber).
/// The HTML part takes both from here and nowhere else, so that it says what the text part says.
pub(super) fn board_lead(
    rules: &dyn GameRules,
    row: &GameRow,
    state: &dyn GameState,
    seat: Option<usize>,
) -> Lead {
    let players = userids(row);
    let mut news = String::new();
    if let Some(last) = state.moves().iter().rev().find(|m| !m.auto) {
        let who = match seat {
            Some(s) if s == last.seat => "You".to_string(),
            _ => summary::seat_label(state, &players, last.seat),
        };
        news.push_str(&format!("{who} played {}.\n", last.text));
    }
    news.push_str(&summary::status_line(state, &players));
    news.push('\n');
    let send = match next_move_lines(rules, row, state) {
        Some((to_move, lines)) if Some(to_move) == seat => lines,
        _ => String::new(),
    };
    Lead { news, send }
}

/// The caption of a board's picture: the game, the board, the move and who plays which side.
pub(super) fn caption(rules: &dyn GameRules, row: &GameRow, state: &dyn GameState) -> String {
    let players = userids(row);
    let seats: Vec<String> = (0..players.len())
        .map(|s| summary::seat_label(state, &players, s))
        .collect();
    let when = match state.status() {
        Status::ToMove(_) => format!("move {}", state.move_number()),
        Status::Over(_) => format!("game over after {} moves", state.moves().len()),
    };
    format!(
        "{} Board {}, {when}: {}",
        rules.title(),
        row.board,
        seats.join(", ")
    )
}

/// The lines to send of the board mail to `who` on move (each indented and ending in a newline):
/// one per example move of the position; the digest shows them too.
pub(super) fn send_lines(
    rules: &dyn GameRules,
    row: &GameRow,
    state: &dyn GameState,
    who: &str,
) -> Vec<String> {
    let n = state.move_number();
    state
        .example_moves()
        .iter()
        .map(|m| {
            format!(
                "    {} move {} {who} <password> {m}#{n}\n",
                rules.name(),
                row.board
            )
        })
        .collect()
}

/// What the lists show of a game, saved with its state.
pub(super) fn saved_status(state: &dyn GameState, players: &[String]) -> SavedStatus {
    let (finished, to_move) = match state.status() {
        Status::ToMove(seat) => (false, Some(seat)),
        Status::Over(_) => (true, None),
    };
    SavedStatus {
        finished,
        to_move,
        line: summary::status_line(state, players),
    }
}

/// A listed game's status line: the saved one, or, for a game not saved since the lists began to
/// keep it, its state's (which is then saved, so that this happens once a game).
pub(super) fn listed_status(
    tx: &Tx<'_>,
    rules: &dyn GameRules,
    game: &Listed,
) -> Result<String, StorageError> {
    if let Some(line) = &game.status {
        return Ok(line.clone());
    }
    match rules.load(&tx.game_state(game.id)?) {
        Ok(state) => {
            let status = saved_status(state.as_ref(), &game.players);
            tx.set_status(game.id, &status)?;
            Ok(status.line)
        }
        Err(e) => Ok(format!("unreadable: {e}")),
    }
}
