//! Othello as players see it: the ASCII board of the mails (`X` Black, `O` White, `+` where the
//! player to move may play, the last disc in brackets) and the picture (a green board, the discs,
//! the last disc ringed, small dots on the legal squares).

use std::fmt::Write as _;

use super::notation::name;
use super::position::{Position, SIDES};
use super::{Othello, OthelloGame};
use crate::games::matchplay::View;
use crate::games::{GameState, Outcome, Status};
use crate::picture::{Painter, Style};

/// One line: whose turn or how it ended, with the disc count.
pub fn status_line(g: &OthelloGame) -> String {
    let [b, w] = g.position().counts();
    let count = format!("Black {b}, White {w}");
    match g.status() {
        Status::ToMove(s) => format!("{} to move ({count})", SIDES[s]),
        Status::Over(Outcome::Winner(s)) => format!("{} wins ({count})", SIDES[s]),
        Status::Over(Outcome::Draw(_)) => format!("Draw ({count})"),
    }
}

/// The squares to mark as legal: the player to move's, none once the game is over.
fn legal(g: &OthelloGame) -> u64 {
    match g.status() {
        Status::ToMove(_) => g.position().legal_set(),
        Status::Over(_) => 0,
    }
}

impl View for Position {
    fn ascii(g: &OthelloGame) -> String {
        let p = g.position();
        let last = g.last_move().map(|(_, sq)| sq);
        let legal = legal(g);
        let mut out = String::from("    a  b  c  d  e  f  g  h\n");
        for row in 0..8u8 {
            let _ = write!(out, " {} ", row + 1);
            for col in 0..8u8 {
                let sq = row * 8 + col;
                let c = match p.at(sq) {
                    Some(0) => 'X',
                    Some(_) => 'O',
                    None if legal >> sq & 1 == 1 => '+',
                    None => '.',
                };
                if last == Some(sq) {
                    let _ = write!(out, "[{c}]");
                } else {
                    let _ = write!(out, " {c} ");
                }
            }
            let _ = writeln!(out, " {}", row + 1);
        }
        out.push_str("    a  b  c  d  e  f  g  h\n\n");
        let mover = match g.status() {
            Status::ToMove(s) => format!("  + where {} may play", SIDES[s]),
            Status::Over(_) => String::new(),
        };
        let _ = writeln!(out, "X Black  O White{mover}  [ ] the last disc");
        let _ = writeln!(out, "{}", status_line(g));
        out
    }

    fn paint(g: &OthelloGame, pt: &mut dyn Painter) -> bool {
        paint(g, pt);
        true
    }

    fn notes(g: &OthelloGame) -> Vec<String> {
        let [b, w] = g.position().counts();
        vec![format!("Discs: Black {b}, White {w}.")]
    }

    fn setup_text(&self) -> Option<String> {
        let names = |s: usize| -> String {
            let v: Vec<String> = Position::squares(self.discs[s]).map(name).collect();
            v.join(" ")
        };
        Some(format!("Black: {}  White: {}", names(0), names(1)))
    }
}

const CELL: f64 = 48.0;
const MARGIN: f64 = 30.0;

/// Paints the board: the squares, the coordinates on all four sides, the discs, the last disc
/// ringed in orange, a dot on each square where the player to move may play, and the status.
pub fn paint(g: &OthelloGame, pt: &mut dyn Painter) {
    let p = g.position();
    let side = CELL * 8.0;
    let (w, h) = (MARGIN * 2.0 + side, MARGIN * 2.0 + side + 30.0);
    pt.grid(CELL);
    pt.begin(w, h, "DejaVu Sans, Arial, sans-serif");
    pt.title(&format!("{} move {}", Othello::TITLE, g.move_number()));
    pt.background("#f0ead6");
    let board = Style {
        fill: Some("#006633"),
        stroke: Some("#003319"),
        stroke_width: Some(2.0),
        ..Style::default()
    };
    pt.rect(
        MARGIN,
        MARGIN,
        side,
        side,
        0.0,
        &board,
        &[("class", "board")],
    );
    let grid = Style {
        stroke: Some("#003319"),
        stroke_width: Some(1.0),
        ..Style::default()
    };
    for i in 1..8 {
        let at = MARGIN + CELL * f64::from(i);
        pt.line(at, MARGIN, at, MARGIN + side, &grid, &[]);
        pt.line(MARGIN, at, MARGIN + side, at, &grid, &[]);
    }
    let label = Style {
        fill: Some("#333"),
        font_size: Some(14.0),
        anchor: Some("middle"),
        ..Style::default()
    };
    for i in 0..8u8 {
        let mid = MARGIN + CELL * (f64::from(i) + 0.5);
        let col = ((b'a' + i) as char).to_string();
        let row = (i + 1).to_string();
        pt.text(mid, MARGIN - 10.0, &col, &label, &[("class", "label")]);
        pt.text(
            mid,
            MARGIN + side + 20.0,
            &col,
            &label,
            &[("class", "label")],
        );
        pt.text(MARGIN / 2.0, mid + 5.0, &row, &label, &[("class", "label")]);
        pt.text(
            w - MARGIN / 2.0,
            mid + 5.0,
            &row,
            &label,
            &[("class", "label")],
        );
    }
    let last = g.last_move().map(|(_, sq)| sq);
    let legal = legal(g);
    for sq in 0..64u8 {
        let cx = MARGIN + CELL * (f64::from(sq % 8) + 0.5);
        let cy = MARGIN + CELL * (f64::from(sq / 8) + 0.5);
        let square = name(sq);
        match p.at(sq) {
            Some(s) => {
                let (fill, ring) = if s == 0 {
                    ("#111", "#000")
                } else {
                    ("#fafafa", "#777")
                };
                let (ring, width) = if last == Some(sq) {
                    ("#ff8800", 4.0)
                } else {
                    (ring, 1.5)
                };
                let disc = Style {
                    fill: Some(fill),
                    stroke: Some(ring),
                    stroke_width: Some(width),
                    ..Style::default()
                };
                let attrs = [
                    ("class", "disc"),
                    ("data-side", ["black", "white"][s]),
                    ("data-square", square.as_str()),
                ];
                pt.circle(cx, cy, CELL * 0.4, &disc, &attrs);
            }
            None if legal >> sq & 1 == 1 => {
                let dot = Style {
                    fill: Some("#99cc99"),
                    ..Style::default()
                };
                let attrs = [("class", "legal"), ("data-square", square.as_str())];
                pt.circle(cx, cy, CELL * 0.1, &dot, &attrs);
            }
            None => {}
        }
    }
    let text = Style {
        fill: Some("#111"),
        font_size: Some(15.0),
        ..Style::default()
    };
    pt.text(MARGIN, h - 12.0, &status_line(g), &text, &[]);
}
