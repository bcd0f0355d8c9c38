//! The board as an SVG picture (issue "See the board", item 1), drawn from the same [`BoardView`] as
//! the ASCII board: hexagonal tiles in their colours, each also marked with its letter (the colours are
//! the Okabe-Ito palette, told apart by the common colour-blindnesses, and the letter does not depend
//! on colour at all), pawns as circles in their side's colour with the side's letter, the position
//! number small in each cell, the last move marked (an arrow from where the pawn stood to where it
//! went, the removed tile's outline dashed), and whose turn it is.
//!
//! Pure text out: no fonts or files are read; the picture names a font family and falls back to any
//! sans-serif.

use std::fmt::Write as _;

use super::Game;
use super::geom;
use super::notation::Move;
use super::view::{BoardView, Side, TileColour};

/// Half the distance between opposite corners of a hexagon, in picture units.
const HEX: f64 = 28.0;
/// Space around the board and below it for the status lines.
const MARGIN: f64 = 16.0;
/// The status line below the board, then one legend line a side.
const STATUS_LINE: f64 = 30.0;
const LEGEND_LINE: f64 = 18.0;

/// A tile's fill and the colour of the text on it.
fn tile_paint(c: TileColour) -> (&'static str, &'static str, &'static str) {
    match c {
        TileColour::Red => ("#D55E00", "#FFFFFF", "r"),
        TileColour::Blue => ("#0072B2", "#FFFFFF", "b"),
        TileColour::Green => ("#009E73", "#FFFFFF", "g"),
        TileColour::Black => ("#333333", "#FFFFFF", "k"),
        TileColour::Plain => ("#E8DFC8", "#333333", ""),
    }
}

/// A pawn's fill, outline and letter: light fills with a dark ring stand out on every tile colour.
fn pawn_paint(s: Side) -> (&'static str, &'static str, &'static str) {
    match s {
        Side::Red => ("#F5B48C", "#7A2E00", "R"),
        Side::Blue => ("#9CCBEF", "#003A5C", "B"),
        Side::Green => ("#A6E3CF", "#00533D", "G"),
        Side::White => ("#FFFFFF", "#222222", "W"),
        Side::Black => ("#222222", "#FFFFFF", "K"),
    }
}

fn side_title(s: Side) -> &'static str {
    match s {
        Side::Red => "Red",
        Side::Blue => "Blue",
        Side::Green => "Green",
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// The centre of cell (q, r), pointy-top hexagons, rows growing downwards (as the ASCII board).
fn centre(q: i32, r: i32) -> (f64, f64) {
    let s3 = 3f64.sqrt();
    (
        HEX * s3 * (f64::from(q) + f64::from(r) / 2.0),
        HEX * 1.5 * f64::from(r),
    )
}

/// The six corners of the hexagon at (x, y), as an SVG points list.
fn corners(x: f64, y: f64, size: f64) -> String {
    (0..6)
        .map(|k| {
            let a = std::f64::consts::PI / 180.0 * (60.0 * f64::from(k) - 30.0);
            format!("{:.1},{:.1}", x + size * a.cos(), y + size * a.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A cell drawn as a dashed outline with its number: an open cell, or the tile the last move took.
struct Outline {
    class: &'static str,
    stroke: &'static str,
    width: &'static str,
    dash: &'static str,
    ink: &'static str,
}

impl Outline {
    fn write(&self, out: &mut String, n: u32, x: f64, y: f64) {
        let Outline {
            class,
            stroke,
            width,
            dash,
            ink,
        } = self;
        let _ = writeln!(
            out,
            "<g class=\"{class}\" data-number=\"{n}\"><polygon points=\"{}\" fill=\"none\" \
             stroke=\"{stroke}\" stroke-width=\"{width}\" stroke-dasharray=\"{dash}\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"9\" fill=\"{ink}\" \
             text-anchor=\"middle\">{n}</text></g>",
            corners(x, y, HEX - 1.0),
            y + 3.0,
        );
    }
}

/// Escapes text for SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The last move that moved a pawn or took a tile: where from, where to, which tile went.
fn last_turn(g: &Game) -> (Option<(u32, u32)>, Option<u32>) {
    let Some(rec) = g.records().iter().rev().find(|r| !r.auto) else {
        return (None, None);
    };
    match Move::parse(&rec.text) {
        Ok((Move::Turn { from, to, remove }, _)) => (Some((from, to)), Some(remove)),
        Ok((Move::Step { from, to }, _)) => (Some((from, to)), None),
        Ok((Move::Remove { tile }, _)) => (None, Some(tile)),
        _ => (None, None),
    }
}

/// The position as an SVG document.
pub fn svg(g: &Game) -> String {
    let view: BoardView = g.view();
    let (moved, removed) = last_turn(g);
    let mut points: Vec<(f64, f64)> = view.cells.iter().map(|c| centre(c.q, c.r)).collect();
    if let Some(n) = removed {
        let (q, r) = geom::axial(n);
        points.push(centre(q, r));
    }
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

    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n\
         <title>Limit board, move {}</title>\n\
         <defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"5\" \
         markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#111111\"/></marker></defs>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#FAFAF5\"/>\n",
        g.records().len() + 1
    );
    for c in &view.cells {
        let (x, y) = at(c.q, c.r);
        match c.tile {
            Some(colour) => {
                let (fill, ink, letter) = tile_paint(colour);
                let _ = writeln!(
                    out,
                    "<g class=\"tile\" data-number=\"{n}\"><polygon points=\"{}\" fill=\"{fill}\" \
                     stroke=\"#111111\" stroke-width=\"1.5\"/>\
                     <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"9\" fill=\"{ink}\" \
                     text-anchor=\"middle\">{n}</text>\
                     <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"{ink}\" \
                     text-anchor=\"middle\">{letter}</text></g>",
                    corners(x, y, HEX - 1.0),
                    y - HEX * 0.55,
                    x,
                    y + HEX * 0.78,
                    n = c.number,
                );
            }
            None => {
                // A cell where a tile may be laid now (placement phases).
                let outline = Outline {
                    class: "open",
                    stroke: "#999999",
                    width: "1",
                    dash: "2 3",
                    ink: "#777777",
                };
                outline.write(&mut out, c.number, x, y);
            }
        }
        if let Some(side) = c.pawn {
            let (fill, ring, letter) = pawn_paint(side);
            let _ = writeln!(
                out,
                "<g class=\"pawn\" data-side=\"{}\"><circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"{:.1}\" \
                 fill=\"{fill}\" stroke=\"{ring}\" stroke-width=\"2.5\"/>\
                 <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"12\" font-weight=\"bold\" fill=\"{ring}\" \
                 text-anchor=\"middle\">{letter}</text></g>",
                side.name(),
                y + 1.0,
                HEX * 0.42,
                y + 5.5,
            );
        }
    }
    if let Some(n) = removed {
        let (q, r) = geom::axial(n);
        let (x, y) = at(q, r);
        let outline = Outline {
            class: "removed",
            stroke: "#111111",
            width: "2",
            dash: "5 4",
            ink: "#111111",
        };
        outline.write(&mut out, n, x, y);
    }
    if let Some((from, to)) = moved {
        let (fq, fr) = geom::axial(from);
        let (tq, tr) = geom::axial(to);
        let ((x1, y1), (x2, y2)) = (at(fq, fr), at(tq, tr));
        // Stop short of the pawn at the end, so that the head stays visible.
        let len = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt().max(1.0);
        let short = HEX * 0.5 / len;
        let (ex, ey) = (x2 - (x2 - x1) * short, y2 - (y2 - y1) * short);
        let _ = writeln!(
            out,
            "<line class=\"last-move\" x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{ex:.1}\" y2=\"{ey:.1}\" \
             stroke=\"#111111\" stroke-width=\"3\" stroke-opacity=\"0.8\" marker-end=\"url(#head)\"/>"
        );
    }
    // Whose turn, and each side's pawns.
    let base = height - footer + 22.0;
    let _ = writeln!(
        out,
        "<text class=\"status\" x=\"{MARGIN}\" y=\"{base:.0}\" font-size=\"15\" fill=\"#111111\">{}</text>",
        esc(&view.status)
    );
    for (k, s) in view.sides.iter().enumerate() {
        let line = format!(
            "{} ({}): {} on the board{}{}",
            side_title(s.side),
            pawn_paint(s.side).2,
            s.on_board,
            if s.in_box > 0 {
                format!(", {} in the box", s.in_box)
            } else {
                String::new()
            },
            if s.in_game { "" } else { ", out" }
        );
        let _ = writeln!(
            out,
            "<text class=\"legend\" x=\"{MARGIN}\" y=\"{:.0}\" font-size=\"12\" fill=\"#333333\">{}</text>",
            base + 20.0 + LEGEND_LINE * k as f64,
            esc(&line)
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameState;
    use crate::games::limit::Config;

    #[test]
    fn the_picture_has_every_tile_pawn_and_the_last_move() {
        let mut g = Game::new(Config::default(), 2, 7).unwrap();
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
    fn text_is_escaped_and_sizes_fit_every_board() {
        assert_eq!(esc("a<b&c>"), "a&lt;b&amp;c&gt;");
        for size in [4, 8, 16] {
            let c = Config {
                size,
                ..Config::default()
            };
            let g = Game::new(c, 3, 1).unwrap();
            let s = svg(&g);
            assert_eq!(
                s.matches("class=\"tile\"").count(),
                4 * size as usize,
                "size {size}"
            );
        }
    }
}
