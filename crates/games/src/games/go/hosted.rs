//! Go as the server hosts it: the spec's rules with the dead-stone agreement after two passes
//! ([`scoring`]), as KGS and OGS play it. `pbem engine go` never makes one (it starts games with
//! `new_game`), so its `status` stays Tromp–Taylor; a challenge starts one with `new_hosted_game`,
//! and its document says `"scoring": "agreement"`.
//!
//! The step's acts (`dead d4`, `accept`, `resume`) are moves of the record ([`super::GoMove::Act`]),
//! each with the seat that sent it; the stored document writes that side before them (`white dead
//! d4`), so that it replays to the same step after a restart. This module holds what the board
//! mail says of the step: its notes, the news of an act, the note to the player who is not awaited,
//! the robot's answer and the agreement in the SGF.

use std::collections::BTreeSet;

use super::board::{BLACK, WHITE};
use super::options::half_points;
use super::scoring::{self, Step};
use super::{GoGame, GoPosition, SIDES};
use crate::games::SgfForm;
use crate::text::wrap;

/// What a robot sends in the step: it accepts a marking whose score is not worse for it than the
/// Tromp–Taylor score of the board as it stands, and resumes play otherwise; it never marks.
pub(super) fn robot_answer(pos: &GoPosition, step: &Step) -> &'static str {
    let seat = step.awaited;
    let for_seat = |(b, w): (i32, i32)| if seat == 0 { b - w } else { w - b };
    let marked = for_seat(pos.marked_halves(&step.dead));
    let plain = for_seat(pos.marked_halves(&BTreeSet::new()));
    if marked >= plain { "accept" } else { "resume" }
}

/// The score line with the marked stones taken off.
fn marked_line(pos: &GoPosition, dead: &BTreeSet<usize>) -> String {
    let (b, w) = scoring::area(pos.board(), dead);
    let o = pos.go_options();
    scoring::score_line(b, w, o.komi_halves, &o.komi_text())
}

/// The last line of the board when the step is or was open: whose acceptance it waits for, or the
/// agreed result with its margin (so that `pbem engine go show` of a replayed record shows it).
pub(super) fn step_status(pos: &GoPosition, step: &Step) -> String {
    match pos.agreed.as_ref() {
        Some(o) => {
            let (b, w) = pos.marked_halves(&step.dead);
            match o {
                crate::games::Outcome::Winner(s) => format!(
                    "{} wins by {} (the agreed score)",
                    SIDES[*s],
                    half_points((b - w).abs())
                ),
                crate::games::Outcome::Draw(_) => "Draw by the agreed score".into(),
            }
        }
        None => format!(
            "Scoring step: waiting for {} to accept, mark or resume",
            SIDES[step.awaited]
        ),
    }
}

/// A point for `seat`'s example of marking: a stone of the smallest unmarked block of the other
/// side (dead groups are most often the small ones inside a player's area; before, the example
/// named the first stone from a1, often a wall of the other side's that was plainly alive), else
/// of its own.
fn unmarked_example(pos: &GoPosition, step: &Step, seat: usize) -> Option<String> {
    let board = pos.board();
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

/// The lines to send while the step is open: accept, a marking, resume.
pub(super) fn step_examples(pos: &GoPosition, step: &Step) -> Vec<String> {
    let mut out = vec!["accept".to_string()];
    if let Some(p) = unmarked_example(pos, step, step.awaited) {
        out.push(format!("dead {p}"));
    }
    out.push("resume".into());
    out
}

/// The news of an act by `seat` (its canonical text): `marked dead: d4 (3 black stones)`.
pub(super) fn act_news(pos: &GoPosition, seat: usize, text: &str) -> String {
    let board = pos.board();
    let groups = |points: &str| {
        let named: Vec<String> = points
            .split_whitespace()
            .filter_map(|w| board.read(w).ok())
            .map(|p| scoring::group_words(board, p))
            .collect();
        named.join(", ")
    };
    match text.split_once(' ') {
        None if text == "accept" => "accepted the marking".into(),
        None if text == "resume" => format!("resumed play; {} moves next", SIDES[1 - seat]),
        Some(("dead", points)) => format!("marked dead: {}", groups(points)),
        Some((_, points)) => format!("took the dead mark off: {}", groups(points)),
        None => text.to_string(),
    }
}

/// The line for `seat` while the step waits for the other player, who may act too.
pub(super) fn waiting_note(pos: &GoPosition, step: &Step, seat: usize) -> Option<String> {
    if seat > 1 || step.awaited == seat {
        return None;
    }
    let other = SIDES[step.awaited];
    let board = pos.board();
    // The examples: a group of the other side's as one to mark, a marked one to take off.
    let mark = unmarked_example(pos, step, seat);
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

/// The notes under the board of a game with the step: the agreed score, the step as it stands, or
/// (in play) what a pass would do.
pub(super) fn notes(game: &GoGame, step: Option<&Step>) -> Vec<String> {
    let pos = game.position();
    let mut notes = vec![format!(
        "Komi {} (added to White's score).",
        pos.go_options().komi_text()
    )];
    let board = pos.board();
    // Each note a line of at most 72 columns: the marking may name many groups.
    let mut say = |text: String| notes.extend(wrap(&text, 72).into_iter().map(String::from));
    match (step, &pos.agreed) {
        (Some(step), Some(_)) if step.dead.is_empty() => {
            // The same score twice (agreed, and every stone alive) said once.
            say("Final score by the players' agreement, every stone alive:".into());
            say(format!("  {}.", pos.score_line()));
        }
        (Some(step), Some(_)) => {
            say(format!(
                "Final score by the players' agreement, dead: {}.",
                step.describe(board)
            ));
            say(format!("  {}.", marked_line(pos, &step.dead)));
            say("Tromp-Taylor, every stone alive:".into());
            say(format!("  {}.", pos.score_line()));
        }
        (Some(step), None) => {
            say(
                "Scoring step: either player marks dead groups; both accept the same marking to \
                 end the game, or one resumes play (see go help)."
                    .into(),
            );
            say(format!("Marked dead: {}.", step.describe(board)));
            say("Score with the marked stones taken off:".into());
            say(format!("  {}.", marked_line(pos, &step.dead)));
            say(match step.accepted {
                [false, false] => "Nobody has accepted this marking yet.".into(),
                [a, _] => format!(
                    "{} has accepted this marking; {} has not.",
                    SIDES[usize::from(!a)],
                    SIDES[usize::from(a)]
                ),
            });
        }
        (None, _) => notes.extend(super::view::pass_notes(game, true)),
    }
    notes
}

/// The margin and the scores of the agreed count, for the record's `Result:` line.
pub(super) fn agreed_result(pos: &GoPosition, step: &Step) -> String {
    let (b, w) = scoring::area(pos.board(), &step.dead);
    let o = pos.go_options();
    scoring::result_words(b, w, o.komi_halves, &o.komi_text())
}

/// The SGF point of a board point: column from `a` without skipping i, row from the top.
fn sgf_point(pos: &GoPosition, p: usize) -> String {
    let n = pos.board().n;
    let (c, r) = pos.board().coords(p);
    format!(
        "{}{}",
        (b'a' + c as u8) as char,
        (b'a' + (n - 1 - r) as u8) as char
    )
}

/// The agreement in the last SGF node: `TB`/`TW` on every point of a side's area that holds no
/// live stone of it (its empty points and the dead stones in it), and the comment.
pub(super) fn sgf_agreement(pos: &GoPosition, step: &Step, form: &mut SgfForm) {
    let board = pos.board();
    let owner = scoring::owners(board, &step.dead);
    let marks = |colour: u8| -> Vec<String> {
        board
            .points()
            .filter(|&p| owner[p] == colour && (board.at(p) != colour || step.dead.contains(&p)))
            .map(|p| sgf_point(pos, p))
            .collect()
    };
    form.last_node = vec![("TB".into(), marks(BLACK)), ("TW".into(), marks(WHITE))];
    let (b, w) = pos.marked_halves(&step.dead);
    form.margin = (b != w).then(|| half_points((b - w).abs()));
    form.last_comment = Some(format!(
        "The result used the players' agreement on dead stones after two passes (a server step \
         on top of the Tromp-Taylor rules; TB/TW mark each side's area without its live stones). \
         Dead: {}. Score: {}. Tromp-Taylor, every stone alive: {}.",
        step.describe(board),
        marked_line(pos, &step.dead),
        pos.score_line()
    ));
}

#[cfg(test)]
mod tests;
