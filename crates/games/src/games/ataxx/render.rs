//! The board as players see it: the ASCII board of every mail (Ataxx as a chess-like grid, Hexxagon as
//! the Abalone hexagon), the game-neutral [`Board`] view, and the SVG picture.

use std::fmt::Write as _;

use super::game::{AtaxxGame, Kind};
use super::rules::Move;
use crate::games::board::{Board, Cell, Grid, LastMove, Mark, SideInfo, Spot};
use crate::games::cellgrid::geometry::Shape;
use crate::games::{GameState, Outcome, Status};
use crate::picture::{Painter, Style};

/// The letters of the pieces: Black `X`, White `O` (as UAI positions write them).
const LETTERS: [char; 2] = ['X', 'O'];
const FILL: [&str; 2] = ["#1a1a1a", "#f4f4f4"];
const RING: [&str; 2] = ["#000000", "#333333"];

/// One line: whose turn or how it ended.
pub fn status_line<K: Kind>(g: &AtaxxGame<K>) -> String {
    match g.status() {
        Status::ToMove(0) => "Black (X) to move".into(),
        Status::ToMove(_) => "White (O) to move".into(),
        Status::Over(Outcome::Winner(0)) => "Black (X) wins".into(),
        Status::Over(Outcome::Winner(_)) => "White (O) wins".into(),
        Status::Over(Outcome::Draw(_)) => "Draw".into(),
    }
}

/// What a cell shows: the piece's letter or `.`, framed `[X]` where the last move put a piece and
/// `(.)` where a jump left from.
fn cell_text<K: Kind>(g: &AtaxxGame<K>, cell: usize) -> String {
    let p = g.position();
    let ch = if p.pieces[0].has(cell) {
        LETTERS[0]
    } else if p.pieces[1].has(cell) {
        LETTERS[1]
    } else {
        '.'
    };
    match g.last_move().map(|(_, m)| m) {
        Some(Move::Clone(to)) | Some(Move::Jump(_, to)) if to == cell => format!("[{ch}]"),
        Some(Move::Jump(from, _)) if from == cell => format!("({ch})"),
        _ => format!(" {ch} "),
    }
}

/// The ASCII board with its legend: at most 72 columns on every board (Hexxagon's rows name their
/// end cells up to side 7).
pub fn ascii<K: Kind>(g: &AtaxxGame<K>) -> String {
    let geo = g.geometry();
    let n = geo.size as i8;
    let mut out = String::new();
    match geo.shape {
        Shape::Square => {
            let files: String = (1..=n)
                .map(|f| format!(" {} ", (b'a' + f as u8 - 1) as char))
                .collect();
            let _ = writeln!(out, "    {}", files.trim_end());
            for rank in (1..=n).rev() {
                let row: String = (1..=n)
                    .map(|f| cell_text(g, geo.at(rank, f).expect("on the board")))
                    .collect();
                let _ = writeln!(out, "{rank:>2}  {row}  {rank}");
            }
            let _ = writeln!(out, "    {}", files.trim_end());
        }
        Shape::Hexagon => {
            // Row a at the bottom, as on an Abalone board; each row starts half a cell further in
            // the nearer it is to the middle, and ends with the names of its first and last cells.
            for r in (1..=2 * n - 1).rev() {
                let cells: Vec<usize> = (1..=2 * n - 1).filter_map(|d| geo.at(r, d)).collect();
                let indent = (2 * n - 1 - cells.len() as i8) as usize * 2;
                let row: String = cells
                    .iter()
                    .map(|&c| format!("{} ", cell_text(g, c)))
                    .collect();
                // The names of the row's ends fit 72 columns up to side 7; larger boards omit them.
                let ends = if n <= 7 {
                    format!(
                        "{}   {} .. {}",
                        " ".repeat(indent),
                        geo.name(cells[0]),
                        geo.name(*cells.last().expect("a row has cells"))
                    )
                } else {
                    String::new()
                };
                let line = format!(
                    "{}{}  {}{ends}",
                    " ".repeat(indent),
                    (b'a' + r as u8 - 1) as char,
                    row,
                );
                let _ = writeln!(out, "{}", line.trim_end());
            }
        }
    }
    let p = g.position();
    let _ = writeln!(
        out,
        "\nX Black: {} pieces   O White: {} pieces   [ ] last move   ( ) jumped from",
        p.pieces[0].count(),
        p.pieces[1].count()
    );
    let _ = writeln!(out, "{}", status_line(g));
    out
}

/// The view's coordinates of a cell: Ataxx (file, rows from the top); Hexxagon axial (q = d,
/// r counted from the top row).
fn view_coords<K: Kind>(g: &AtaxxGame<K>, cell: usize) -> (i32, i32) {
    let geo = g.geometry();
    let (row, col) = geo.coords[cell];
    let top = match geo.shape {
        Shape::Square => i32::from(geo.size),
        Shape::Hexagon => 2 * i32::from(geo.size) - 1,
    };
    (i32::from(col), top - i32::from(row))
}

/// The position as the game-neutral board (cell numbers count from 1 in the board's own order).
pub fn board_view<K: Kind>(g: &AtaxxGame<K>) -> Board {
    let geo = g.geometry();
    let p = g.position();
    let last = g.last_move();
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
            let piece = (0..2).find(|&s| p.pieces[s].has(c));
            let mark = match last.map(|(_, m)| m) {
                Some(Move::Clone(to) | Move::Jump(_, to)) if to == c => Some(Mark::To),
                Some(Move::Jump(from, _)) if from == c => Some(Mark::From),
                _ => None,
            };
            Cell {
                number: c as u32 + 1,
                q,
                r,
                tile: None,
                open: false,
                piece,
                mark,
            }
        })
        .collect();
    Board {
        grid: match geo.shape {
            Shape::Square => Grid::Square,
            Shape::Hexagon => Grid::Hex,
        },
        move_number: g.move_number(),
        cells,
        tiles: Vec::new(),
        sides: (0..2)
            .map(|s| SideInfo {
                name: ["Black", "White"][s].into(),
                letter: LETTERS[s],
                fill: FILL[s].into(),
                ring: RING[s].into(),
                on_board: p.pieces[s].count(),
                in_reserve: 0,
                in_game: p.result.is_none() || p.pieces[s].count() > 0,
            })
            .collect(),
        to_move: match g.status() {
            Status::ToMove(s) => Some(s),
            Status::Over(_) => None,
        },
        status: status_line(g),
        last_move: last.map(|(seat, m)| LastMove {
            seat,
            text: super::notation::write(geo, m),
            from: match m {
                Move::Jump(from, _) => Some(spot(from)),
                Move::Clone(_) => None,
            },
            to: Some(match m {
                Move::Clone(to) | Move::Jump(_, to) => spot(to),
            }),
            removed: None,
        }),
    }
}

/// Picture units: a square's side, or the distance between hexagon centres.
const UNIT: f64 = 44.0;
const MARGIN: f64 = 30.0;

/// Paints the board: cells with their names, pieces as discs, the last move ringed (and a jump's
/// origin dashed), the status below.
pub fn paint<K: Kind>(g: &AtaxxGame<K>, pt: &mut dyn Painter) {
    let geo = g.geometry();
    let p = g.position();
    let s3 = 3f64.sqrt();
    let centre = |c: usize| -> (f64, f64) {
        let (q, r) = view_coords(g, c);
        match geo.shape {
            Shape::Square => (
                MARGIN + (f64::from(q) - 0.5) * UNIT,
                MARGIN + (f64::from(r) + 0.5) * UNIT,
            ),
            Shape::Hexagon => {
                let n = f64::from(geo.size);
                // Row r from the top: a cell's x is d − R/2 with R the row from the bottom
                // (= 2n − 1 − r), shifted so that the leftmost cell (middle row, d = 1) is at 0.5.
                let x =
                    (f64::from(q) + 0.5 * f64::from(r) - (n - 0.5) + n / 2.0 - 0.5 + 1.0) * UNIT;
                (
                    MARGIN + x,
                    MARGIN + UNIT * 0.6 + f64::from(r) * UNIT * s3 / 2.0,
                )
            }
        }
    };
    let (mut w, mut h) = (0f64, 0f64);
    for c in 0..geo.cells() {
        let (x, y) = centre(c);
        w = w.max(x);
        h = h.max(y);
    }
    let (w, h) = (w + UNIT / 2.0 + MARGIN, h + UNIT / 2.0 + MARGIN + 30.0);
    // Cells are half a unit apart across on the hexagon (and a whole unit on the square).
    pt.grid(UNIT / 2.0);
    pt.begin(w, h, "DejaVu Sans, Arial, sans-serif");
    pt.title(&format!(
        "{} move {}",
        super::title(geo.shape),
        g.move_number()
    ));
    pt.background("#c9d7c0");
    let cell = Style {
        fill: Some("#e8efe3"),
        stroke: Some("#6b7f62"),
        stroke_width: Some(1.0),
        ..Style::default()
    };
    let name = Style {
        fill: Some("#6b7f62"),
        font_size: Some(8.0),
        anchor: Some("middle"),
        ..Style::default()
    };
    let last = g.last_move().map(|(_, m)| m);
    for c in 0..geo.cells() {
        let (x, y) = centre(c);
        match geo.shape {
            Shape::Square => pt.rect(x - UNIT / 2.0, y - UNIT / 2.0, UNIT, UNIT, 0.0, &cell, &[]),
            Shape::Hexagon => {
                let r = UNIT / s3;
                let corners: [(f64, f64); 6] = std::array::from_fn(|k| {
                    let a = std::f64::consts::PI / 180.0 * (60.0 * k as f64 - 30.0);
                    (x + r * a.cos(), y + r * a.sin())
                });
                pt.polygon(&corners, &cell, &[]);
            }
        }
        pt.text(x, y + UNIT * 0.42 - 4.0, &geo.name(c), &name, &[]);
        if let Some(s) = (0..2).find(|&s| p.pieces[s].has(c)) {
            let piece = Style {
                fill: Some(FILL[s]),
                stroke: Some(RING[s]),
                stroke_width: Some(2.0),
                ..Style::default()
            };
            pt.circle(
                x,
                y,
                UNIT * 0.33,
                &piece,
                &[("data-side", ["black", "white"][s])],
            );
        }
        let ring: Option<&[f32]> = match last {
            Some(Move::Clone(to) | Move::Jump(_, to)) if to == c => Some(&[]),
            Some(Move::Jump(from, _)) if from == c => Some(&[5.0, 4.0]),
            _ => None,
        };
        if let Some(dash) = ring {
            let style = Style {
                fill: Some("none"),
                stroke: Some("#d55e00"),
                stroke_width: Some(3.0),
                dash,
                ..Style::default()
            };
            pt.circle(x, y, UNIT * 0.42, &style, &[("class", "last")]);
        }
    }
    let status = Style {
        fill: Some("#1a1a1a"),
        font_size: Some(14.0),
        ..Style::default()
    };
    let line = format!(
        "{} · Black {} White {}",
        status_line(g),
        p.pieces[0].count(),
        p.pieces[1].count()
    );
    pt.text(MARGIN, h - MARGIN + 6.0, &line, &status, &[]);
}

#[cfg(test)]
mod tests {
    use super::super::game::new_game;
    use super::super::{Ataxx, Hexxagon};
    use super::*;

    fn fits_a_mail<K: Kind>(size: u8) {
        let mut g = new_game::<K>(size);
        let first = g.legal_moves()[0].clone();
        g.play(&first).unwrap();
        let shape = g.shape();
        let text = ascii(&g);
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= 72, "{shape:?} {size}: {widest}\n{text}");
        assert!(text.contains('['), "the last move is marked\n{text}");
        let svg = crate::picture::svg_with(|p| paint(&g, p));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        let pieces = g.position().pieces[0].count() + g.position().pieces[1].count();
        assert_eq!(svg.matches("data-side=").count(), pieces as usize);
    }

    #[test]
    fn the_boards_fit_a_mail() {
        fits_a_mail::<Ataxx>(7);
        fits_a_mail::<Ataxx>(10);
        fits_a_mail::<Hexxagon>(5);
        fits_a_mail::<Hexxagon>(9);
    }

    #[test]
    fn the_ataxx_start_as_players_read_it() {
        let g = new_game::<Ataxx>(7);
        let text = ascii(&g);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "     a  b  c  d  e  f  g");
        assert_eq!(lines[1], " 7   X  .  .  .  .  .  O   7");
        assert_eq!(lines[7], " 1   O  .  .  .  .  .  X   1");
    }
}
