//! The board as an SVG picture (issue "See the board", item 1), drawn from the same neutral [`Board`] as
//! the ASCII board: hexagonal tiles in their colours, each also marked with its letter (the colours, the
//! Okabe-Ito palette, come with the board from [`super::view`]; the letter does not depend on colour at
//! all), pawns as circles in their side's colour with the side's letter, the position
//! number small in each cell, the last move marked (a thick dark arrow with a light edge from where
//! the pawn stood to where it went, the removed tile's outline dashed, the pawns it captured faded
//! and crossed out where they stood), and whose turn it is.
//!
//! Pure text out: no fonts or files are read; the picture names a font family and falls back to any
//! sans-serif.

use super::Game;
use crate::games::board::{Board, Spot};
use crate::games::matchplay::Entry;
use crate::picture::{Painter, Step, Style};

/// Half the distance between opposite corners of a hexagon, in picture units.
const HEX: f64 = 28.0;
/// Space around the board and below it for the status lines.
const MARGIN: f64 = 16.0;
/// The status line below the board, then one legend line a side.
const STATUS_LINE: f64 = 30.0;
const LEGEND_LINE: f64 = 18.0;

/// The centre of cell (q, r), pointy-top hexagons, rows growing downwards (as the ASCII board).
fn centre(q: i32, r: i32) -> (f64, f64) {
    let s3 = 3f64.sqrt();
    (
        HEX * s3 * (f64::from(q) + f64::from(r) / 2.0),
        HEX * 1.5 * f64::from(r),
    )
}

/// The six corners of the hexagon at (x, y).
fn corners(x: f64, y: f64, size: f64) -> [(f64, f64); 6] {
    std::array::from_fn(|k| {
        let a = std::f64::consts::PI / 180.0 * (60.0 * k as f64 - 30.0);
        (x + size * a.cos(), y + size * a.sin())
    })
}

/// A cell drawn as a dashed outline with its number: an open cell, or the tile the last move took.
struct Outline {
    class: &'static str,
    stroke: &'static str,
    width: f32,
    dash: &'static [f32],
    ink: &'static str,
}

impl Outline {
    fn paint(&self, p: &mut dyn Painter, n: u32, x: f64, y: f64) {
        let number = n.to_string();
        p.group(&[("class", self.class), ("data-number", &number)]);
        let line = Style {
            fill: Some("none"),
            stroke: Some(self.stroke),
            stroke_width: Some(self.width),
            dash: self.dash,
            ..Style::default()
        };
        p.polygon(&corners(x, y, HEX - 1.0), &line, &[]);
        let ink = Style {
            fill: Some(self.ink),
            font_size: Some(9.0),
            anchor: Some("middle"),
            ..Style::default()
        };
        p.text(x, y + 3.0, &number, &ink, &[]);
        p.end_group();
    }
}

/// The position as an SVG document (see [`paint`]).
pub fn svg(g: &Game) -> String {
    crate::picture::svg_with(|p| paint(g, p))
}

/// Paints the position, the pawns the last move captured marked where they stood, framed around
/// every tile laid in the game, taken or not: the picture keeps its size and the board its place
/// from move to move (the eye finds the cells where they were).
pub fn paint(g: &Game, p: &mut dyn Painter) {
    let laid: Vec<(i32, i32)> = g.board().qr.clone();
    draw(p, "Limit", &g.board_view(), &captured(g), &laid);
}

/// The pawns the last move (a player's, not the engine's) took off the board: where each stood and
/// whose it was. The position before that move is replayed; the moved pawn's old cell is not a
/// capture.
fn captured(g: &Game) -> Vec<(Spot, usize)> {
    let entries = g.entries();
    let Some(k) = entries
        .iter()
        .rposition(|e| !matches!(e, Entry::Passed { .. }))
    else {
        return Vec::new();
    };
    let Ok(before) = crate::games::GameState::at_move(g, k as u32 + 1) else {
        return Vec::new();
    };
    let view = g.board_view();
    let from = view
        .last_move
        .as_ref()
        .and_then(|m| m.from)
        .map(|s| s.number);
    let now: std::collections::HashMap<u32, Option<usize>> =
        view.cells.iter().map(|c| (c.number, c.piece)).collect();
    before
        .board_view()
        .cells
        .into_iter()
        .filter_map(|c| {
            let seat = c.piece?;
            let gone = now.get(&c.number).copied().flatten() != Some(seat);
            (gone && Some(c.number) != from).then_some((
                Spot {
                    number: c.number,
                    q: c.q,
                    r: c.r,
                },
                seat,
            ))
        })
        .collect()
}

/// The last move's arrow as one outlined shape (shaft and head), from `(x1, y1)` to its tip at
/// `(x2, y2)`: thick and dark with a light edge, so that it shows on every tile colour.
fn arrow(p: &mut dyn Painter, (x1, y1): (f64, f64), (x2, y2): (f64, f64)) {
    let len = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt().max(1.0);
    let (ux, uy) = ((x2 - x1) / len, (y2 - y1) / len);
    let (nx, ny) = (-uy, ux);
    let (shaft, head, head_len) = (3.0, 9.0, 14.0_f64.min(len * 0.6));
    let (bx, by) = (x2 - ux * head_len, y2 - uy * head_len);
    let points = [
        (x1 + nx * shaft, y1 + ny * shaft),
        (bx + nx * shaft, by + ny * shaft),
        (bx + nx * head, by + ny * head),
        (x2, y2),
        (bx - nx * head, by - ny * head),
        (bx - nx * shaft, by - ny * shaft),
        (x1 - nx * shaft, y1 - ny * shaft),
    ];
    let style = Style {
        fill: Some("#111111"),
        stroke: Some("#FFFFFF"),
        stroke_width: Some(2.5),
        round_joins: true,
        stroke_first: true,
        ..Style::default()
    };
    p.polygon(&points, &style, &[("class", "last-move")]);
}

/// Paints a board of hexagons, titled with the game's name; `captured` are the pawns the last move
/// took, drawn faded and crossed out where they stood. The frame holds the board's cells and the
/// cells at `also` (axial coordinates: the tiles taken off).
pub fn draw(
    p: &mut dyn Painter,
    game: &str,
    view: &Board,
    captured: &[(Spot, usize)],
    also: &[(i32, i32)],
) {
    let last = view.last_move.as_ref();
    let removed = last.and_then(|m| m.removed);
    let moved = last.and_then(|m| m.from.zip(m.to));
    let mut points: Vec<(f64, f64)> = view.cells.iter().map(|c| centre(c.q, c.r)).collect();
    if let Some(spot) = removed {
        points.push(centre(spot.q, spot.r));
    }
    points.extend(also.iter().map(|&(q, r)| centre(q, r)));
    let min_x = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min) - HEX;
    let max_x = points.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max) + HEX;
    let min_y = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min) - HEX;
    let max_y = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max) + HEX;
    let width = (max_x - min_x + 2.0 * MARGIN).max(320.0);
    let footer = STATUS_LINE + LEGEND_LINE * view.sides.len() as f64 + 8.0;
    let height = max_y - min_y + 2.0 * MARGIN + footer;
    // Board coordinates are shifted so that the board is centred and starts at the margin.
    let dx = MARGIN - min_x + (width - (max_x - min_x + 2.0 * MARGIN)) / 2.0;
    let dy = MARGIN - min_y;
    let at = |q: i32, r: i32| {
        let (x, y) = centre(q, r);
        (x + dx, y + dy)
    };

    // Cells are half a hexagon apart across (rows offset by half a cell).
    p.grid(3f64.sqrt() * HEX / 2.0);
    p.begin(width, height, "DejaVu Sans, Verdana, sans-serif");
    p.title(&format!("{game} board, move {}", view.move_number));
    p.background("#FAFAF5");
    let ink = |fill, size| Style {
        fill: Some(fill),
        font_size: Some(size),
        anchor: Some("middle"),
        ..Style::default()
    };
    for c in &view.cells {
        let (x, y) = at(c.q, c.r);
        let number = c.number.to_string();
        match view.tile_of(c) {
            Some(kind) => {
                let letter = kind.letter.map(String::from).unwrap_or_default();
                p.group(&[("class", "tile"), ("data-number", &number)]);
                let tile = Style {
                    fill: Some(&kind.fill),
                    stroke: Some("#111111"),
                    stroke_width: Some(1.5),
                    ..Style::default()
                };
                p.polygon(&corners(x, y, HEX - 1.0), &tile, &[]);
                p.text(x, y - HEX * 0.55, &number, &ink(&kind.ink, 9.0), &[]);
                p.text(x, y + HEX * 0.78, &letter, &ink(&kind.ink, 10.0), &[]);
                p.end_group();
            }
            None => {
                // A cell where a tile may be laid now (placement phases).
                let outline = Outline {
                    class: "open",
                    stroke: "#999999",
                    width: 1.0,
                    dash: &[2.0, 3.0],
                    ink: "#777777",
                };
                outline.paint(p, c.number, x, y);
            }
        }
        if let Some(side) = view.piece_of(c) {
            let name = side.name.to_lowercase();
            p.group(&[("class", "pawn"), ("data-side", &name)]);
            let pawn = Style {
                fill: Some(&side.fill),
                stroke: Some(&side.ring),
                stroke_width: Some(2.5),
                ..Style::default()
            };
            p.circle(x, y + 1.0, HEX * 0.42, &pawn, &[]);
            let letter = Style {
                bold: true,
                ..ink(&side.ring, 12.0)
            };
            p.text(x, y + 5.5, &side.letter.to_string(), &letter, &[]);
            p.end_group();
        }
    }
    if let Some(spot) = removed {
        let (x, y) = at(spot.q, spot.r);
        let outline = Outline {
            class: "removed",
            stroke: "#111111",
            width: 2.0,
            dash: &[5.0, 4.0],
            ink: "#111111",
        };
        outline.paint(p, spot.number, x, y);
    }
    for (spot, seat) in captured {
        let Some(side) = view.sides.get(*seat) else {
            continue;
        };
        let (x, y) = at(spot.q, spot.r);
        let (r, d) = (HEX * 0.42, HEX * 0.36);
        let (number, name) = (spot.number.to_string(), side.name.to_lowercase());
        p.group(&[
            ("class", "captured"),
            ("data-number", &number),
            ("data-side", &name),
        ]);
        let faded = Style {
            fill: Some(&side.fill),
            fill_opacity: Some(0.5),
            stroke: Some(&side.ring),
            stroke_width: Some(2.0),
            dash: &[3.0, 2.0],
            ..Style::default()
        };
        p.circle(x, y + 1.0, r, &faded, &[]);
        let cross = [
            Step::Move(x - d, y - d),
            Step::Line(x + d, y + d),
            Step::Move(x - d, y + d),
            Step::Line(x + d, y - d),
        ];
        for (colour, width) in [("#FFFFFF", 6.0), ("#111111", 3.0)] {
            let stroke = Style {
                stroke: Some(colour),
                stroke_width: Some(width),
                round_caps: true,
                ..Style::default()
            };
            p.path(&cross, &stroke, &[]);
        }
        p.end_group();
    }
    if let Some((from, to)) = moved {
        let (start, end) = (at(from.q, from.r), at(to.q, to.r));
        // Stop short of the pawn at the end, so that the head stays visible.
        let len = ((end.0 - start.0).powi(2) + (end.1 - start.1).powi(2))
            .sqrt()
            .max(1.0);
        let short = HEX * 0.45 / len;
        let tip = (
            end.0 - (end.0 - start.0) * short,
            end.1 - (end.1 - start.1) * short,
        );
        arrow(p, start, tip);
    }
    // Whose turn, and each side's pawns.
    let base = (height - footer + 22.0).round();
    let status = Style {
        fill: Some("#111111"),
        font_size: Some(15.0),
        ..Style::default()
    };
    p.text(MARGIN, base, &view.status, &status, &[("class", "status")]);
    let legend = Style {
        fill: Some("#333333"),
        font_size: Some(12.0),
        ..Style::default()
    };
    for (k, s) in view.sides.iter().enumerate() {
        let line = format!(
            "{} ({}): {} on the board{}{}",
            s.name,
            s.letter,
            s.on_board,
            if s.in_reserve > 0 {
                format!(", {} in the box", s.in_reserve)
            } else {
                String::new()
            },
            if s.in_game { "" } else { ", out" }
        );
        let y = (base + 20.0 + LEGEND_LINE * k as f64).round();
        p.text(MARGIN, y, &line, &legend, &[("class", "legend")]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameState;
    use crate::games::limit::Config;

    #[test]
    fn the_picture_has_every_tile_pawn_and_the_last_move() {
        let mut g = crate::games::limit::new_game(Config::default(), 2, 7).unwrap();
        let start = svg(&g);
        assert_eq!(
            start.matches("class=\"tile\"").count(),
            32,
            "size 8: 32 tiles"
        );
        assert_eq!(start.matches("class=\"pawn\"").count(), 16);
        assert!(!start.contains("last-move") && !start.contains("class=\"removed\""));
        assert!(start.contains("Red to move"), "{start}");
        let mv = GameState::legal_moves(&g)[0].clone();
        GameState::play(&mut g, &mv).unwrap();
        let after = svg(&g);
        assert_eq!(
            after.matches("class=\"tile\"").count(),
            31,
            "one tile removed"
        );
        assert!(after.contains("class=\"last-move\""), "{after}");
        let removed = mv.split(',').nth(1).unwrap();
        assert!(
            after.contains(&format!("class=\"removed\" data-number=\"{removed}\"")),
            "{mv}: {after}"
        );
        assert!(after.contains("Blue to move"), "{after}");
        assert!(after.starts_with("<svg ") && after.ends_with("</svg>\n"));
    }

    #[test]
    fn a_capture_is_marked_where_the_pawn_stood() {
        let mut g = crate::games::limit::new_game(Config::default(), 2, 7).unwrap();
        assert!(!svg(&g).contains("class=\"captured\""));
        for _ in 0..100 {
            let moves = GameState::legal_moves(&g);
            let pawns = |g: &Game| -> Vec<(u32, usize)> {
                let v = g.board_view();
                v.cells
                    .iter()
                    .filter_map(|c| Some((c.number, c.piece?)))
                    .collect()
            };
            let before = pawns(&g);
            for mv in &moves {
                let mut h = g.clone();
                GameState::play(&mut h, mv).unwrap();
                let last = h.board_view().last_move.unwrap();
                let after = pawns(&h);
                let taken: Vec<u32> = before
                    .iter()
                    .filter(|(n, seat)| *seat != last.seat && !after.contains(&(*n, *seat)))
                    .map(|(n, _)| *n)
                    .collect();
                if taken.is_empty() {
                    continue;
                }
                let picture = svg(&h);
                for n in &taken {
                    assert!(
                        picture.contains(&format!("class=\"captured\" data-number=\"{n}\"")),
                        "{mv} took the pawn on {n}: {picture}"
                    );
                }
                let from = last.from.unwrap().number;
                assert!(
                    !picture.contains(&format!("class=\"captured\" data-number=\"{from}\"")),
                    "the moved pawn is not a capture"
                );
                return;
            }
            GameState::play(&mut g, &moves[0]).unwrap();
        }
        panic!("no capture in 100 moves");
    }

    #[test]
    fn the_frame_stays_the_same_through_a_game() {
        for (size, players) in [(8, 2), (4, 3), (16, 2)] {
            let cfg = Config {
                size,
                ..Config::default()
            };
            let mut g = crate::games::limit::new_game(cfg, players, 7).unwrap();
            let head = |g: &Game| svg(g).lines().next().unwrap().to_string();
            let first = head(&g);
            for k in 0..40 {
                let Some(mv) = GameState::legal_moves(&g).into_iter().next() else {
                    break;
                };
                GameState::play(&mut g, &mv).unwrap();
                assert_eq!(head(&g), first, "size {size}, after move {k}");
            }
        }
    }

    #[test]
    fn sizes_fit_every_board() {
        for size in [4, 8, 16] {
            let c = Config {
                size,
                ..Config::default()
            };
            let g = crate::games::limit::new_game(c, 3, 1).unwrap();
            let s = svg(&g);
            assert_eq!(
                s.matches("class=\"tile\"").count(),
                4 * size as usize,
                "size {size}"
            );
        }
    }
}
