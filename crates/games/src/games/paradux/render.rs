//! The board as players see it: the ASCII hexagon of every mail (as the page draws it, row a at the
//! bottom), the game-neutral [`Board`] view, and the SVG picture with the last move's steps drawn.

use std::fmt::Write as _;

use super::game::ParaduxGame;
use super::rules::{Move, SIDES};
use crate::games::board::{Board, Cell, Grid, LastMove, Mark, SideInfo, Spot};
use crate::games::{GameState, Outcome, Status};
use crate::picture::{Painter, Style};

/// The letters of the pieces: Black `X`, White `O` (the page's diagram).
const LETTERS: [char; 2] = ['X', 'O'];
const FILL: [&str; 2] = ["#1a1a1a", "#f4f4f4"];
const RING: [&str; 2] = ["#000000", "#333333"];

/// One line: whose turn or how it ended.
pub fn status_line(g: &ParaduxGame) -> String {
    match g.status() {
        Status::ToMove(s) => format!("{} ({}) to move", SIDES[s], LETTERS[s]),
        Status::Over(Outcome::Winner(s)) => format!("{} ({}) wins", SIDES[s], LETTERS[s]),
        Status::Over(Outcome::Draw(_)) => "Draw".into(),
    }
}

/// What the last move did at a cell: a piece arrived, or a piece left and none came.
fn mark(g: &ParaduxGame, cell: usize) -> Option<Mark> {
    let (_, mv) = g.last_move()?;
    match mv {
        Move::Switch(a, b) if cell == a || cell == b => Some(Mark::To),
        Move::Pair { to, .. } if to.contains(&cell) => Some(Mark::To),
        Move::Pair { from, .. } if from.contains(&cell) => Some(Mark::From),
        _ => None,
    }
}

/// What a cell shows: the piece's letter or `.`, framed `[X]` where the last move put a piece and
/// `(.)` where it left one.
fn cell_text(g: &ParaduxGame, cell: usize) -> String {
    let ch = g.position().owner(cell).map_or('.', |s| LETTERS[s]);
    match mark(g, cell) {
        Some(Mark::To) => format!("[{ch}]"),
        Some(Mark::From) => format!("({ch})"),
        None => format!(" {ch} "),
    }
}

/// The ASCII board with its legend: row a at the bottom, each row half a cell further in the
/// nearer it is to the top or bottom, and the names of its first and last cells after it. Every
/// size the game has (side 4 to 7) fits 72 columns: side 7 is 67.
pub fn ascii(g: &ParaduxGame) -> String {
    let p = g.position();
    let geo = p.geo();
    let n = geo.size as i8;
    let mut out = String::new();
    for r in (1..=2 * n - 1).rev() {
        let cells: Vec<usize> = (1..=2 * n - 1).filter_map(|d| geo.at(r, d)).collect();
        let indent = " ".repeat((2 * n - 1 - cells.len() as i8) as usize * 2);
        let row: String = cells
            .iter()
            .map(|&c| format!("{} ", cell_text(g, c)))
            .collect();
        let line = format!(
            "{indent}{}  {row}{indent}   {} .. {}",
            (b'a' + r as u8 - 1) as char,
            geo.name(cells[0]),
            geo.name(*cells.last().expect("a row has cells"))
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(
        out,
        "\nX Black: {}   O White: {}   [ ] moved here   ( ) moved away",
        p.pieces[0].count(),
        p.pieces[1].count()
    );
    let _ = writeln!(out, "{}", status_line(g));
    out
}

/// The view's coordinates of a cell: axial, q = the number d, r counted from the top row.
fn view_coords(g: &ParaduxGame, cell: usize) -> (i32, i32) {
    let geo = g.position().geo();
    let (row, d) = geo.coords[cell];
    (i32::from(d), 2 * i32::from(geo.size) - 1 - i32::from(row))
}

/// The position as the game-neutral board (cell numbers count from 1 in the board's order).
pub fn board_view(g: &ParaduxGame) -> Board {
    let p = g.position();
    let geo = p.geo();
    let spot = |c: usize| {
        let (q, r) = view_coords(g, c);
        Spot {
            number: c as u32 + 1,
            q,
            r,
        }
    };
    let cells = (0..geo.cells())
        .map(|c| {
            let (q, r) = view_coords(g, c);
            Cell {
                number: c as u32 + 1,
                q,
                r,
                tile: None,
                open: false,
                piece: p.owner(c),
                mark: mark(g, c),
            }
        })
        .collect();
    Board {
        grid: Grid::Hex,
        move_number: g.move_number(),
        cells,
        tiles: Vec::new(),
        sides: (0..2)
            .map(|s| SideInfo {
                name: SIDES[s].into(),
                letter: LETTERS[s],
                fill: FILL[s].into(),
                ring: RING[s].into(),
                on_board: p.pieces[s].count(),
                in_reserve: 0,
                in_game: true,
            })
            .collect(),
        to_move: match g.status() {
            Status::ToMove(s) => Some(s),
            Status::Over(_) => None,
        },
        status: status_line(g),
        // The view has one step a move: the mover's piece (a pair moves two; the marks show both).
        last_move: g.last_move().map(|(seat, m)| {
            let (from, to) = match m {
                Move::Switch(a, b) => (a, b),
                Move::Pair { from, to } => {
                    let i = usize::from(p.owner(to[0]) != Some(seat));
                    (from[i], to[i])
                }
            };
            LastMove {
                seat,
                text: super::notation::write(geo, m),
                from: Some(spot(from)),
                to: Some(spot(to)),
                removed: None,
            }
        }),
    }
}

/// The distance between hexagon centres in the picture.
const UNIT: f64 = 48.0;
const MARGIN: f64 = 24.0;
const LAST: &str = "#d55e00";

/// Paints the board: the hexagon with the cell names, the pieces, the last move's cells ringed
/// (dashed where a piece left) and an arrow for each piece it moved; the status below.
pub fn paint(g: &ParaduxGame, pt: &mut dyn Painter) {
    let p = g.position();
    let geo = p.geo();
    let n = f64::from(geo.size);
    let s3 = 3f64.sqrt();
    let centre = |c: usize| -> (f64, f64) {
        let (row, d) = geo.coords[c];
        let (row, d) = (f64::from(row), f64::from(d));
        // Abalone's layout: x = d − row/2, the leftmost cell (middle row, d = 1) at half a cell.
        let x = MARGIN + (d - row / 2.0 - (1.0 - n / 2.0) + 0.5) * UNIT;
        let y = MARGIN + UNIT * 0.6 + (2.0 * n - 1.0 - row) * UNIT * s3 / 2.0;
        (x, y)
    };
    let w = 2.0 * MARGIN + (2.0 * n - 1.0) * UNIT;
    let h = 2.0 * MARGIN + UNIT * 1.2 + (2.0 * n - 2.0) * UNIT * s3 / 2.0 + 30.0;
    // Cells are half a unit apart across (rows offset by half a cell).
    pt.grid(UNIT / 2.0);
    pt.begin(w, h, "DejaVu Sans, Arial, sans-serif");
    pt.title(&format!("Paradux move {}", g.move_number()));
    pt.background("#d8cdb4");
    let cell = Style {
        fill: Some("#f3ead6"),
        stroke: Some("#8a7a5a"),
        stroke_width: Some(1.0),
        ..Style::default()
    };
    let name = Style {
        fill: Some("#8a7a5a"),
        font_size: Some(8.0),
        anchor: Some("middle"),
        ..Style::default()
    };
    for c in 0..geo.cells() {
        let (x, y) = centre(c);
        let r = UNIT / s3;
        let corners: [(f64, f64); 6] = std::array::from_fn(|k| {
            let a = std::f64::consts::PI / 180.0 * (60.0 * k as f64 - 30.0);
            (x + r * a.cos(), y + r * a.sin())
        });
        pt.polygon(&corners, &cell, &[]);
        pt.text(x, y + UNIT * 0.46, &geo.name(c), &name, &[]);
        if let Some(s) = p.owner(c) {
            let piece = Style {
                fill: Some(FILL[s]),
                stroke: Some(RING[s]),
                stroke_width: Some(2.0),
                ..Style::default()
            };
            let side = SIDES[s].to_lowercase();
            pt.circle(x, y, UNIT * 0.29, &piece, &[("data-side", &side)]);
        }
        let dash: Option<&[f32]> = match mark(g, c) {
            Some(Mark::To) => Some(&[]),
            Some(Mark::From) => Some(&[5.0, 4.0]),
            None => None,
        };
        if let Some(dash) = dash {
            let ring = Style {
                fill: Some("none"),
                stroke: Some(LAST),
                stroke_width: Some(3.0),
                dash,
                ..Style::default()
            };
            pt.circle(x, y, UNIT * 0.36, &ring, &[("class", "last")]);
        }
    }
    // The steps of the last move: one arrow a piece (a switch's two pieces cross, one line with
    // two heads).
    let steps: Vec<(usize, usize, bool)> = match g.last_move().map(|(_, m)| m) {
        Some(Move::Switch(a, b)) => vec![(a, b, true)],
        Some(Move::Pair { from, to }) => vec![(from[0], to[0], false), (from[1], to[1], false)],
        None => Vec::new(),
    };
    let line = Style {
        stroke: Some(LAST),
        stroke_width: Some(3.0),
        ..Style::default()
    };
    let head_style = Style {
        fill: Some(LAST),
        ..Style::default()
    };
    for (a, b, both) in steps {
        let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
        // From a fifth of the way to four fifths, so that the arrow sits between the discs' centres.
        let (dx, dy) = (x2 - x1, y2 - y1);
        let (from, to) = (
            (x1 + dx * 0.2, y1 + dy * 0.2),
            (x1 + dx * 0.8, y1 + dy * 0.8),
        );
        pt.line(from.0, from.1, to.0, to.1, &line, &[("class", "step")]);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / len, dy / len);
        let mut heads = vec![(to, (ux, uy))];
        if both {
            heads.push((from, (-ux, -uy)));
        }
        for ((x, y), (ux, uy)) in heads {
            // A head 15 units long and 15 wide, its tip 3 past the line's end (as the SVG marker
            // of a 3-wide line drew it before).
            let at = |along: f64, across: f64| {
                (x + ux * along - uy * across, y + uy * along + ux * across)
            };
            let head = [at(-12.0, -7.5), at(3.0, 0.0), at(-12.0, 7.5)];
            pt.polygon(&head, &head_style, &[("class", "head")]);
        }
    }
    let last = g
        .last_move()
        .map(|(s, m)| format!(" · last: {} {}", SIDES[s], super::notation::write(geo, m)))
        .unwrap_or_default();
    let status = Style {
        fill: Some("#1a1a1a"),
        font_size: Some(14.0),
        ..Style::default()
    };
    let text = format!("{}{last}", status_line(g));
    pt.text(MARGIN, h - MARGIN + 6.0, &text, &status, &[]);
}

#[cfg(test)]
mod tests {
    use super::super::Options;
    use super::super::game::new_game;
    use super::*;

    #[test]
    fn the_start_is_drawn_as_the_page_draws_it() {
        let g = new_game(Options { size: 4, line: 4 });
        let text = ascii(&g);
        let board: Vec<String> = text
            .lines()
            .take(7)
            .map(|l| {
                // The page's diagram: lower-case letters, without the cell names at the ends.
                let words: Vec<&str> = l.split_whitespace().collect();
                words[..words.len() - 3].join(" ").to_lowercase()
            })
            .collect();
        assert_eq!(
            board,
            [
                "g x o x o",
                "f o . . . x",
                "e x . . . . o",
                "d o . x . o . x",
                "c x . . . . o",
                "b o . . . x",
                "a x o x o"
            ],
            "{text}"
        );
        assert!(text.lines().next().unwrap().ends_with("g4 .. g7"), "{text}");
        assert!(text.contains("Black (X) to move"));
    }

    #[test]
    fn every_size_fits_a_mail_and_marks_the_last_move() {
        for size in 4..=7 {
            let mut g = new_game(Options { size, line: 4 });
            g.play("a1a2-b2b3").unwrap();
            let text = ascii(&g);
            let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
            assert!(widest <= 72, "side {size}: {widest}\n{text}");
            assert_eq!(text.matches("[X]").count() + text.matches("[O]").count(), 2);
            assert_eq!(text.matches("(.)").count(), 2, "{text}");
            let svg = crate::picture::svg_with(|p| paint(&g, p));
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
            let pieces = g.position().pieces[0].count() + g.position().pieces[1].count();
            assert_eq!(svg.matches("data-side=").count(), pieces as usize);
            assert_eq!(svg.matches("class=\"step\"").count(), 2);
            assert_eq!(svg.matches("class=\"last\"").count(), 4);
            let view = board_view(&g);
            assert_eq!(
                view.cells.len(),
                3 * size as usize * (size as usize - 1) + 1
            );
            assert_eq!(view.last_move.unwrap().text, "a1a2-b2b3");
        }
    }
}
