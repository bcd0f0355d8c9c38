//! Drawing a Hex rhombus ([`Grid::rhombus`]) as ASCII and as SVG, for Hex and Chameleon (and any game
//! on the rhombus): row 1 on top, column `a` on the left, each row half a cell to the right of the row
//! above, as HexGui draws it.

use std::fmt::Write as _;

use super::{EMPTY, Grid};
use crate::picture::{Painter, Style};

/// The widest ASCII board [`ascii`] draws for a rhombus of side `n`: at most `3n + 7` columns (40 at
/// 11, 64 at 19), so every size up to 21 fits a 72-column mail.
pub fn ascii_width(n: u8) -> usize {
    3 * n as usize + 7
}

/// The rhombus as text: column letters above and below, row numbers on both sides, one character a
/// cell (`glyph(cell)`, `.` for an empty one is the caller's choice), and the cell `last` between
/// parentheses. Lines have no trailing blanks.
pub fn ascii(grid: &Grid, glyph: impl Fn(usize) -> char, last: Option<usize>) -> String {
    let n = grid.columns();
    let letters: String = (0..n)
        .map(|c| ((b'a' + c) as char).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = format!("    {letters}\n");
    for r in 1..=grid.rows() {
        let mut line = format!("{}{r:>2} ", " ".repeat(r as usize - 1));
        for c in 1..=n {
            let Some(cell) = grid.cell(c, r) else {
                line.push_str("  ");
                continue;
            };
            let is_last = last == Some(cell);
            if is_last {
                line.push('(');
            } else if !line.ends_with(')') {
                line.push(' ');
            }
            line.push(glyph(cell));
            if is_last {
                line.push(')');
            }
        }
        let line = line.trim_end();
        let _ = writeln!(out, "{line}  {r}");
    }
    let _ = writeln!(out, "{}{letters}", " ".repeat(n as usize + 3));
    out
}

/// How [`paint`] paints the stones and the edges. The picture's own colours (and best the palette's) have
/// channels in steps of 51 (`#ffcc99`): the PNG of a mail ([`crate::picture`]) rounds every colour to
/// those steps when a picture has more than 256, and a colour off them would change on the way.
pub struct Palette<'a> {
    /// Fill and outline of a stone, by its colour in the board's stones (colour 1 first).
    pub stones: &'a [(&'a str, &'a str)],
    /// The colour of the top and bottom edges.
    pub top_bottom: &'a str,
    /// The colour of the left and right edges.
    pub left_right: &'a str,
}

/// Half the distance between opposite corners of a cell, in picture units.
const HEX: f64 = 20.0;
/// Room around the board for the labels and the edges.
const MARGIN: f64 = 44.0;

fn centre(c: u8, r: u8) -> (f64, f64) {
    let w = 3f64.sqrt() * HEX;
    (
        MARGIN + w * (f64::from(c) - 1.0 + (f64::from(r) - 1.0) / 2.0),
        MARGIN + 1.5 * HEX * (f64::from(r) - 1.0),
    )
}

fn corners(x: f64, y: f64, size: f64) -> [(f64, f64); 6] {
    std::array::from_fn(|k| {
        let a = std::f64::consts::PI / 180.0 * (60.0 * k as f64 - 30.0);
        (x + size * a.cos(), y + size * a.sin())
    })
}

/// Paints the rhombus: the four edges in their colours, every cell, the stones (`stones[cell]` is
/// a colour of `palette.stones`, or [`EMPTY`]), the last stone marked with a dot, and `caption`
/// (whose turn, who won) below the board.
pub fn paint(
    p: &mut dyn Painter,
    grid: &Grid,
    stones: &[u8],
    palette: &Palette<'_>,
    last: Option<usize>,
    caption: &str,
) {
    let n = grid.columns();
    let (ax, ay) = centre(1, 1);
    let (bx, by) = centre(n, 1);
    let (cx, cy) = centre(n, n);
    let (dx, dy) = centre(1, n);
    let (mx, my) = ((ax + cx) / 2.0, (ay + cy) / 2.0);
    // Corners pushed out from the middle so the coloured triangles show beyond the cells.
    let out = |x: f64, y: f64| {
        let (vx, vy) = (x - mx, y - my);
        let len = (vx * vx + vy * vy).sqrt().max(1.0);
        (x + vx / len * 2.2 * HEX, y + vy / len * 2.2 * HEX)
    };
    let (a, b, c, d) = (out(ax, ay), out(bx, by), out(cx, cy), out(dx, dy));
    let width = cx + MARGIN + HEX;
    let height = cy + MARGIN + 24.0;
    p.begin(width, height, "DejaVu Sans, sans-serif");
    p.background("#cccccc");
    let mut tri = |q: (f64, f64), r: (f64, f64), fill: &str| {
        let s = Style {
            fill: Some(fill),
            ..Style::default()
        };
        p.polygon(&[(mx, my), q, r], &s, &[]);
    };
    tri(a, b, palette.top_bottom);
    tri(c, d, palette.top_bottom);
    tri(b, c, palette.left_right);
    tri(d, a, palette.left_right);
    let cell_style = Style {
        fill: Some("#ffcc99"),
        stroke: Some("#996633"),
        stroke_width: Some(1.2),
        ..Style::default()
    };
    let last_style = Style {
        fill: Some("#cc0000"),
        ..Style::default()
    };
    for (cell, &colour) in stones.iter().enumerate().take(grid.len()) {
        let (col, row) = grid.coords(cell);
        let (x, y) = centre(col, row);
        p.polygon(&corners(x, y, HEX), &cell_style, &[]);
        if colour != EMPTY
            && let Some((fill, ring)) = palette.stones.get(colour as usize - 1)
        {
            let s = Style {
                fill: Some(fill),
                stroke: Some(ring),
                stroke_width: Some(1.5),
                ..Style::default()
            };
            p.circle(x, y, HEX * 0.72, &s, &[]);
        }
        if last == Some(cell) {
            p.circle(x, y, HEX * 0.22, &last_style, &[]);
        }
    }
    let label = |anchor| Style {
        font_size: Some(13.0),
        anchor: Some(anchor),
        ..Style::default()
    };
    for col in 1..=n {
        let (x, y) = centre(col, 1);
        let letter = ((b'a' + col - 1) as char).to_string();
        p.text(x, y - 1.5 * HEX, &letter, &label("middle"), &[]);
    }
    for row in 1..=grid.rows() {
        let (x, y) = centre(1, row);
        p.text(x - 1.7 * HEX, y + 4.5, &row.to_string(), &label("end"), &[]);
    }
    let s = Style {
        font_size: Some(15.0),
        ..Style::default()
    };
    p.text(MARGIN / 2.0, height - 10.0, caption, &s, &[]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_board_fits_72_columns_up_to_19_and_marks_the_last_move() {
        for n in 2..=19 {
            let g = Grid::rhombus(n);
            let text = ascii(g, |_| '.', Some(g.len() - 1));
            let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
            assert!(widest <= ascii_width(n), "size {n}: {widest}\n{text}");
            assert!(widest <= 72);
            assert_eq!(text.lines().count(), n as usize + 2);
        }
        let g = Grid::rhombus(3);
        let c2 = g.parse("c2").unwrap();
        let b2 = g.parse("b2").unwrap();
        let text = ascii(g, |i| if i == b2 { 'X' } else { '.' }, Some(b2));
        assert_eq!(
            text,
            "    a b c\n 1  . . .  1\n  2  .(X).  2\n   3  . . .  3\n      a b c\n"
        );
        let text = ascii(g, |_| '.', Some(c2));
        assert!(text.contains("  2  . .(.)  2\n"), "{text}");
    }
}
