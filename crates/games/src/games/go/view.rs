//! What a player reads of a game of Go on the record: the board and its last line, the notes under
//! it, the news of an entry, the stones a capture took, the SGF; with the scoring step's words
//! from [`super::hosted`].

use std::collections::BTreeSet;

use super::options::{self, half_points};
use super::scoring::{self, Step};
use super::{GoGame, GoMove, GoPosition, hosted, render};
use crate::games::matchplay::{Entry, Rules, View};
use crate::games::{Loss, SgfForm};

impl GoGame {
    /// The scoring step, open or closed by the agreement; `None` in play and once a player left
    /// or a draw was agreed (which end the step with the game).
    pub fn step(&self) -> Option<&Step> {
        if self.ended_early() {
            return None;
        }
        self.position().step.as_ref()
    }

    /// The last stone placed, if the last move of the game placed one.
    pub fn last_point(&self) -> Option<usize> {
        if self.ended_early() {
            return None;
        }
        self.position().last
    }
}

/// The last line of the board: whose turn, the step, or how the game ended.
pub fn status_text(game: &GoGame) -> String {
    match game.step() {
        Some(step) => hosted::step_status(game.position(), step),
        None => render::status_line(game),
    }
}

/// After a pass that a second one would answer, what that second pass does and the score as it
/// stands; nothing otherwise. The score is told only then: after move 1 it read "Black wins by
/// 73.5" (issue 37), true by the rules and useless to a player. With the scoring `step` (the hosted
/// game) the second pass opens it instead of ending the game.
pub(super) fn pass_notes(game: &GoGame, step: bool) -> Vec<String> {
    if game.outcome().is_some() || !game.position().one_pass() {
        return Vec::new();
    }
    let line = game.position().score_line();
    if step {
        vec![
            "The last move was a pass: a second pass ends play and opens the scoring step.".into(),
            format!("Score now, every stone alive: {line}."),
        ]
    } else {
        vec![
            "The last move was a pass: a second pass ends the game.".into(),
            format!("Score if the game ended now: {line}."),
        ]
    }
}

/// Whether each entry was the second pass that opened the scoring step.
fn opened_step(game: &GoGame) -> Vec<bool> {
    let mut passes = 0;
    game.entries()
        .iter()
        .map(|e| {
            let mv = match e {
                Entry::Moved { mv, .. } => mv,
                _ => return false,
            };
            match mv {
                GoMove::Pass => passes += 1,
                GoMove::Place(..) => passes = 0,
                GoMove::Act(a) if a.act == scoring::Act::Resume => passes = 0,
                GoMove::Act(_) => {}
            }
            let opened = game.agreement() && passes == 2;
            if opened {
                passes = 0;
            }
            opened
        })
        .collect()
}

impl View for GoPosition {
    /// With the komi, default or not, as before the record.
    fn options_summary(&self) -> Option<String> {
        let words: Vec<String> = self.option_words().iter().map(|o| o.to_string()).collect();
        Some(words.join(" "))
    }
    fn ascii(game: &GoGame) -> String {
        let none = BTreeSet::new();
        let dead = game.step().map_or(&none, |s| &s.dead);
        render::ascii_marked(game, dead, &status_text(game))
    }
    fn paint(game: &GoGame, painter: &mut dyn crate::picture::Painter) -> bool {
        let none = BTreeSet::new();
        let dead = game.step().map_or(&none, |s| &s.dead);
        render::paint_marked(game, dead, &status_text(game), painter);
        true
    }
    fn notes(game: &GoGame) -> Vec<String> {
        let pos = game.position();
        if pos.agreement() {
            return hosted::notes(game, game.step());
        }
        let mut notes = vec![format!(
            "Komi {} (added to White's score).",
            pos.go_options().komi_text()
        )];
        if pos.ended_by_passes() {
            notes.push(format!(
                "Final score (area, every stone counts): {}.",
                pos.score_line()
            ));
        } else {
            notes.extend(pass_notes(game, false));
        }
        notes
    }
    fn setup_text(&self) -> Option<String> {
        let pts = self.opts.handicap_points();
        if pts.is_empty() {
            return None;
        }
        let names: Vec<String> = pts
            .iter()
            .map(|&(c, r)| options::point_name(c, r))
            .collect();
        Some(format!("Handicap {}: {}", pts.len(), names.join(" ")))
    }
    fn example_moves(game: &GoGame) -> Option<Vec<String>> {
        let step = game.step().filter(|_| game.outcome().is_none())?;
        Some(hosted::step_examples(game.position(), step))
    }
    fn turn_notes(game: &GoGame, since: u32) -> Option<Vec<String>> {
        if !game.agreement() {
            return Some(Vec::new());
        }
        // The entries themselves are told by their news lines and losses; the notes say what the
        // step makes of them.
        let mut notes: Vec<String> = opened_step(game)
            .into_iter()
            .skip(since.saturating_sub(1) as usize)
            .filter(|&opened| opened)
            .map(|_| "Both players passed: the scoring step is open (see below).".to_string())
            .collect();
        let agreed = game.step().is_some() && game.position().agreed.is_some();
        if agreed && since <= game.entries().len() as u32 {
            notes.push("Both players accepted the marking: the game ends with its score.".into());
        }
        Some(notes)
    }
    fn losses(game: &GoGame, index: usize) -> Vec<Loss> {
        // The stones a capture took, by point, so that the news says `bob played e5 and captured
        // your stones on d4 and d5.` (before: `bob played e5.` and a note `White on e5 captured 2
        // stones.`). The board is replayed from the start to the move.
        let Some(Entry::Moved {
            seat,
            mv: mv @ GoMove::Place(..),
        }) = game.entries().get(index)
        else {
            return Vec::new();
        };
        let mut pos = game.start().clone();
        for e in &game.entries()[..index] {
            if let Entry::Moved { mv, .. } = e {
                pos.apply(mv.clone());
            }
        }
        let board = pos.board().clone();
        let foe = GoPosition::colour(1 - seat);
        let before: Vec<usize> = board.points().filter(|&p| board.at(p) == foe).collect();
        pos.apply(mv.clone());
        let after = pos.board();
        let cells: Vec<String> = before
            .into_iter()
            .filter(|&p| after.at(p) != foe)
            .map(|p| after.name(p))
            .collect();
        if cells.is_empty() {
            return Vec::new();
        }
        vec![Loss {
            seat: 1 - seat,
            cells,
            piece: "stone",
        }]
    }
    fn sgf_form(game: &GoGame) -> Option<SgfForm> {
        let pos = game.position();
        let o = pos.go_options();
        let n = o.size as usize;
        // SGF: column letter from `a` without skipping i; row counted from the top.
        let sgf_point = |c: usize, r: usize| {
            format!(
                "{}{}",
                (b'a' + c as u8) as char,
                (b'a' + (n - 1 - r) as u8) as char
            )
        };
        let mut root = vec![
            ("KM".to_string(), vec![o.komi_text()]),
            (
                "RU".to_string(),
                vec!["koPOSITIONALscoreAREAtaxALLsui0".to_string()],
            ),
        ];
        let pts = o.handicap_points();
        if !pts.is_empty() {
            root.push(("HA".into(), vec![pts.len().to_string()]));
            root.push((
                "AB".into(),
                pts.iter().map(|&(c, r)| sgf_point(c, r)).collect(),
            ));
            root.push(("PL".into(), vec!["W".into()]));
        }
        let colour = |s: usize| if s == 0 { 'B' } else { 'W' };
        let nodes = game
            .entries()
            .iter()
            .map(|e| match e {
                Entry::Moved {
                    seat,
                    mv: GoMove::Place(c, r),
                } => Some((colour(*seat), sgf_point(usize::from(*c), usize::from(*r)))),
                Entry::Moved {
                    seat,
                    mv: GoMove::Pass,
                } => Some((colour(*seat), String::new())),
                _ => None,
            })
            .collect();
        let margin = pos.ended_by_passes().then(|| {
            let (b, w) = pos.scores_halves();
            half_points((b - w).abs())
        });
        let mut form = SgfForm {
            game_number: 1,
            size: n.to_string(),
            root,
            nodes,
            margin,
            last_node: Vec::new(),
            last_comment: None,
        };
        if let (Some(step), Some(_)) = (game.step(), &pos.agreed) {
            hosted::sgf_agreement(pos, step, &mut form);
        }
        Some(form)
    }
    fn entry_news(game: &GoGame, index: usize) -> Option<String> {
        // `alice passed.`, not `alice played pass.` and a second line `Black passed.` (issue 37).
        match game.entries().get(index)? {
            Entry::Moved {
                mv: GoMove::Pass, ..
            } => Some("passed".into()),
            Entry::Moved {
                seat,
                mv: GoMove::Act(a),
            } => Some(hosted::act_news(game.position(), *seat, &a.text)),
            _ => None,
        }
    }
    fn waiting_note(game: &GoGame, seat: usize) -> Option<String> {
        let step = game.step().filter(|_| game.outcome().is_none())?;
        hosted::waiting_note(game.position(), step, seat)
    }
    fn score_result(game: &GoGame) -> Option<String> {
        let pos = game.position();
        if pos.ended_by_passes() {
            let (b, w) = pos.board().area();
            let o = pos.go_options();
            return Some(scoring::result_words(b, w, o.komi_halves, &o.komi_text()));
        }
        let step = game.step().filter(|_| pos.agreed.is_some())?;
        Some(hosted::agreed_result(pos, step))
    }
}
