//! The top of a board mail: the news for its reader (who played what and what it took from them, a
//! proposal to answer, that they are out, how the game ended), then the line to send. It comes
//! before the board so that what to do is read first (issue 25, section 2).
//!
//! [`top_of_mail`] is the one place that words it; the HTML part takes the same text.

use crate::games::{GameState, Loss, Status};

/// Who a board mail goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// The player in this seat (0-based).
    Seat(usize),
    /// A subscriber, or the admin: nobody's "your".
    Spectator,
}

/// A proposal open on the board.
pub struct OpenProposal {
    /// How it reads: `alice proposes a draw (move 12)`.
    pub text: String,
    /// The seats still to answer it.
    pub waiting: Vec<usize>,
}

/// A rating change of a finished game.
#[derive(Debug, Clone, Copy)]
pub struct RatingChange {
    /// The seat, 0-based.
    pub seat: usize,
    /// The rating before the game.
    pub before: i32,
    /// The rating after it.
    pub after: i32,
}

/// Everything the news of one board mail is drawn from.
pub struct News<'a> {
    /// The game's command word: `limit`.
    pub game: &'a str,
    /// The board number.
    pub board: u32,
    /// The game as it stands.
    pub state: &'a dyn GameState,
    /// The userids, seat by seat.
    pub players: &'a [String],
    /// The first entry of the move list this mail reports (0-based); `None`: no move to tell.
    pub since: Option<usize>,
    /// The seats that were still in the game before those moves.
    pub was_in: &'a [usize],
    /// The seats in the game now (none once it is over).
    pub seats_in: &'a [usize],
    /// The proposal open on the board, if any.
    pub proposal: Option<&'a OpenProposal>,
    /// The rating changes, once a rated game is over.
    pub ratings: &'a [RatingChange],
    /// The game's title (`Limit`) when this is the first mail of a new game: its news is the game
    /// itself, who plays which side (before any move a robot made in the same run).
    pub new_game: Option<&'a str>,
}

/// The news for `reader` and, when it is their move, the line to send, as the first lines of the
/// board mail (each ending in a newline; a blank line between the news and the line to send).
/// Empty when there is nothing to tell and nothing to send. `bare_reply`: the mail carries the
/// reader's signed Reply-To, so the move alone is offered first ([`line_to_send`]).
pub fn top_of_mail(news: &News<'_>, reader: Reader, bare_reply: bool) -> String {
    let mut out = news_of(news, reader);
    if let Reader::Seat(me) = reader
        && let Some(send) = line_to_send(news, me, bare_reply)
    {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&send);
    }
    out
}

/// The news for `reader` alone (what was played, what it took, who is out, how the game ended, an
/// open proposal), each line ending in a newline: the top of the mail without the line to send, as
/// the HTML part shows it above the picture.
pub fn news_of(news: &News<'_>, reader: Reader) -> String {
    let mut lines = Vec::new();
    if let Some(title) = news.new_game {
        let seats: Vec<String> = (0..news.players.len())
            .map(|s| crate::summary::seat_label(news.state, news.players, s))
            .collect();
        lines.push(format!(
            "A new game on {title} Board {}: {}.",
            news.board,
            seats.join(", ")
        ));
    }
    if let Some(since) = news.since {
        for (k, m) in news.state.moves().iter().enumerate().skip(since) {
            lines.extend(move_news(news, reader, k, m));
        }
    }
    if let Reader::Seat(me) = reader
        && news.was_in.contains(&me)
        && !news.seats_in.contains(&me)
        && matches!(news.state.status(), Status::ToMove(_))
    {
        lines.push(
            "You are out of this game; you will keep getting its board mails as a spectator."
                .to_string(),
        );
    }
    if let Reader::Seat(me) = reader
        && matches!(news.state.status(), Status::ToMove(s) if s != me)
        && let Some(note) = news.state.waiting_note(me)
    {
        lines.push(note);
    }
    if let Some(over) = game_over(news, reader) {
        lines.push(over);
    }
    let mut out: String = lines
        .iter()
        .flat_map(|l| crate::summary::wrap(l, crate::summary::ERROR_WIDTH))
        .map(|l| format!("{l}\n"))
        .collect();
    if let Some(p) = news.proposal {
        // Wrapped as the lines above are; the indented answer lines stand as they are.
        for line in proposal_news(news, p, reader).lines() {
            for part in crate::summary::wrap(line, crate::summary::ERROR_WIDTH) {
                out.push_str(part);
                out.push('\n');
            }
        }
    }
    out
}

/// `bob`, or `You` when the reader is that seat.
fn who(news: &News<'_>, reader: Reader, seat: usize) -> String {
    if reader == Reader::Seat(seat) {
        "You".to_string()
    } else {
        news.players
            .get(seat)
            .cloned()
            .unwrap_or_else(|| "?".into())
    }
}

/// `3`, `2 and 18`, `2, 5 and 18`.
fn cell_list(cells: &[String]) -> String {
    match cells {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `your pawn on 3`, `bob's pawns on 2 and 18`, `its own pawn on 5`.
fn loss_words(news: &News<'_>, reader: Reader, mover: usize, loss: &Loss) -> String {
    let owner = if reader == Reader::Seat(loss.seat) {
        if loss.seat == mover {
            "your own".to_string()
        } else {
            "your".to_string()
        }
    } else if loss.seat == mover {
        "their own".to_string()
    } else {
        format!(
            "{}'s",
            news.players.get(loss.seat).map_or("?", String::as_str)
        )
    };
    let plural = if loss.cells.len() == 1 { "" } else { "s" };
    format!(
        "{owner} {}{plural} on {}",
        loss.piece,
        cell_list(&loss.cells)
    )
}

/// The lines telling one entry of the move list: `bob played 2-19,59 and captured your pawn on 3.`,
/// the game's own notes on it (why an `(Auto)` entry was made, stones that changed).
fn move_news(
    news: &News<'_>,
    reader: Reader,
    k: usize,
    m: &crate::games::MoveRecord,
) -> Vec<String> {
    let st = news.state;
    // The game's notes for entry k alone: those from k on, less those from k + 1 on.
    let mut notes = st.turn_notes(k as u32 + 1);
    let later = st.turn_notes(k as u32 + 2).len();
    notes.truncate(notes.len().saturating_sub(later));
    let subject = who(news, reader, m.seat);
    let mut out = Vec::new();
    // The game's own words for the entry (Go's `passed`), said once in place of `played <move>`.
    let words = st.entry_news(k);
    if !m.auto {
        match m.text.as_str() {
            "resign" => out.push(format!("{subject} resigned.")),
            "forfeit" => out.push(format!("{subject} lost on time (forfeit).")),
            // An agreed draw is told by the end of the game.
            "draw" => {}
            _ if words.is_some() => out.extend(words.iter().map(|w| format!("{subject} {w}."))),
            text => {
                let losses = st.losses(k);
                let captured: Vec<String> = losses
                    .iter()
                    .filter(|l| l.seat != m.seat)
                    .map(|l| loss_words(news, reader, m.seat, l))
                    .collect();
                let lost: Vec<String> = losses
                    .iter()
                    .filter(|l| l.seat == m.seat)
                    .map(|l| loss_words(news, reader, m.seat, l))
                    .collect();
                let mut line = format!("{subject} played {text}");
                if !captured.is_empty() {
                    line.push_str(&format!(" and captured {}", captured.join(" and ")));
                }
                if !lost.is_empty() {
                    line.push_str(&format!(" and lost {}", lost.join(" and ")));
                }
                line.push('.');
                out.push(line);
            }
        }
    }
    out.extend(notes);
    out
}

/// `Game over: alice wins; your rating 1600 -> 1632.` (the rating part only for a rated game's
/// players).
fn game_over(news: &News<'_>, reader: Reader) -> Option<String> {
    let Status::Over(outcome) = news.state.status() else {
        return None;
    };
    let name = |s: usize| news.players.get(s).map_or("?", String::as_str).to_string();
    let mut line = match outcome {
        crate::games::Outcome::Winner(s) if reader == Reader::Seat(s) => {
            "Game over: you win".to_string()
        }
        crate::games::Outcome::Winner(s) => format!("Game over: {} wins", name(s)),
        crate::games::Outcome::Draw(seats) => {
            let who: Vec<String> = seats.iter().map(|&s| name(s)).collect();
            format!("Game over: a draw between {}", who.join(" and "))
        }
    };
    if let Reader::Seat(me) = reader
        && let Some(r) = news.ratings.iter().find(|r| r.seat == me)
    {
        line.push_str(&format!(
            "; your rating {} -> {} ({:+})",
            r.before,
            r.after,
            r.after - r.before
        ));
    }
    line.push('.');
    Some(line)
}

/// The open proposal: who proposes what, and for a reader who is to answer, the two lines to send.
fn proposal_news(news: &News<'_>, p: &OpenProposal, reader: Reader) -> String {
    let me = match reader {
        Reader::Seat(s) => Some(s),
        Reader::Spectator => None,
    };
    if let Some(me) = me.filter(|s| p.waiting.contains(s)) {
        let line = format!(
            "{} move {} {} <password>",
            news.game,
            news.board,
            news.players.get(me).map_or("?", String::as_str)
        );
        return format!(
            "{}: answer with one of these lines.\n\n    {line} accept\n    {line} reject\n",
            p.text
        );
    }
    let waiting: Vec<&str> = p
        .waiting
        .iter()
        .filter_map(|&s| news.players.get(s).map(String::as_str))
        .collect();
    let line = if waiting.is_empty() {
        format!("{}.", p.text)
    } else {
        format!("{}; waiting for {}.", p.text, waiting.join(" and "))
    };
    crate::summary::wrap(&line, crate::summary::ERROR_WIDTH)
        .into_iter()
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The line to send for the player to move (`None` when `seat` is not to move or the game shows no
/// example), in one line of words each (issue 37): first the bare reply, the move alone (when
/// `bare_reply`: the reader's board mail carries their signed Reply-To, server/reply.rs), then the
/// exact command with their board, userid and `<password>`; the game's example moves of this
/// position ([`GameState::example_moves`]: one legal move, and Hex's `swap` where it is legal), a
/// line each.
pub fn line_to_send(news: &News<'_>, seat: usize, bare_reply: bool) -> Option<String> {
    let st = news.state;
    if st.status() != Status::ToMove(seat) {
        return None;
    }
    let who = news.players.get(seat)?;
    let examples = st.example_moves();
    examples.first()?;
    let lines: String = send_lines(news.game, news.board, who, st).concat();
    let para = |text: String| -> String {
        crate::summary::wrap(&text, crate::summary::ERROR_WIDTH)
            .into_iter()
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let which = match examples.len() {
        1 => ", for example",
        _ => ", one of these for example",
    };
    let command = match examples.len() {
        1 => "this line",
        _ => "one of these lines",
    };
    if !bare_reply {
        return Some(format!(
            "{}{lines}",
            para(format!(
                "Your move, {who}: send {command} as the Subject, with your password and your \
                 move in place of the example:"
            ))
        ));
    }
    let bare: String = examples.iter().map(|m| format!("    {m}\n")).collect();
    Some(format!(
        "{}{bare}{}{lines}",
        para(format!(
            "Your move, {who}: reply with just your move{which}:"
        )),
        para(format!(
            "Or send {command} as the Subject, with your password:"
        )),
    ))
}

/// The lines to send for `who` on move in `state` (each indented and ending in a newline), one per
/// example move of the position: what the board mail shows under "Your move" and the digest
/// lists per game.
pub fn send_lines(game: &str, board: u32, who: &str, state: &dyn GameState) -> Vec<String> {
    let n = state.move_number();
    state
        .example_moves()
        .iter()
        .map(|m| format!("    {game} move {board} {who} <password> {m}#{n}\n"))
        .collect()
}
