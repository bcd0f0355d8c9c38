//! Drawing a Hex rhombus ([`Grid::rhombus`]) as ASCII and as a picture, for Hex and Chameleon (and
//! any game on the rhombus). The ASCII board has row 1 on top, column `a` on the left, each row half
//! a cell to the right of the row above, as HexGui draws it; the picture stands the rhombus on its
//! corner a1, which fits a phone's width better ([`Layout`]).

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
    /// The rhombus stands on its corner a1 ([`Layout`]): for Hex, whose players are Black and
    /// White; Chameleon's are Vertical and Horizontal, named by the board drawn with a side on top.
    pub on_corner: bool,
}

/// Half the distance between opposite corners of a cell, in picture units.
const HEX: f64 = 20.0;
/// Room around the board's edges and labels.
const PAD: f64 = 8.0;
/// The labels' font size.
const LABEL: f64 = 14.0;
/// The caption's font size.
const CAPTION: f64 = 15.0;

/// Where the picture puts things: the axial layout (row 1 on top, each row half a cell to the right
/// of the one above), turned by 0 or 60 degrees ([`Palette::on_corner`]), then shifted so that
/// everything drawn lies in the picture. Turned, the rhombus stands on its acute corner, row 1 and
/// column `a` meeting at the top, so that its short diagonal spans the width: drawn with a side on
/// top the rhombus is 1.5 times as wide, and a phone's 390 pixels showed an 11 x 11 board's cells
/// a third smaller (issue 37, section 5).
struct Layout {
    /// Whether the layout is turned by 60 degrees.
    on_corner: bool,
    /// Added to every point after the turn.
    shift: (f64, f64),
}

impl Layout {
    /// The centre of the cell at column `c`, row `r` (from 1; 0 is the label's place beside the
    /// board) before the shift.
    fn turned(&self, c: u8, r: u8) -> (f64, f64) {
        let w = 3f64.sqrt() * HEX;
        let (x, y) = (
            w * (f64::from(c) - 1.0 + (f64::from(r) - 1.0) / 2.0),
            1.5 * HEX * (f64::from(r) - 1.0),
        );
        if !self.on_corner {
            return (x, y);
        }
        let (sin, cos) = (std::f64::consts::FRAC_PI_3.sin(), 0.5);
        (x * cos - y * sin, x * sin + y * cos)
    }

    fn centre(&self, c: u8, r: u8) -> (f64, f64) {
        let (x, y) = self.turned(c, r);
        (x + self.shift.0, y + self.shift.1)
    }
}

/// A unit vector from `from` to `to`.
fn towards(from: (f64, f64), to: (f64, f64)) -> (f64, f64) {
    let (vx, vy) = (to.0 - from.0, to.1 - from.1);
    let len = (vx * vx + vy * vy).sqrt().max(1e-9);
    (vx / len, vy / len)
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
    let rows = grid.rows();
    let base = Layout {
        on_corner: palette.on_corner,
        shift: (0.0, 0.0),
    };
    let (ax, ay) = base.turned(1, 1);
    let (bx, by) = base.turned(n, 1);
    let (cx, cy) = base.turned(n, rows);
    let (dx, dy) = base.turned(1, rows);
    let (mx, my) = ((ax + cx) / 2.0, (ay + cy) / 2.0);
    // Corners pushed out from the middle so the coloured triangles show beyond the cells.
    let out = |x: f64, y: f64| {
        let (ux, uy) = towards((mx, my), (x, y));
        (x + ux * 2.2 * HEX, y + uy * 2.2 * HEX)
    };
    let (a, b, c, d) = (out(ax, ay), out(bx, by), out(cx, cy), out(dx, dy));
    // Labels sit outside the sides from a1: the numbers where a column 0 would be, the letters
    // where a row 0 would be.
    // Drawn with a side on top, the letters stand straight above their column.
    let up_right = match palette.on_corner {
        true => towards((dx, dy), (ax, ay)),
        false => (0.0, -0.8),
    };
    let up_left = towards((bx, by), (ax, ay));
    let letter_at = |col: u8| {
        let (x, y) = base.turned(col, 1);
        (x + up_right.0 * 2.4 * HEX, y + up_right.1 * 2.4 * HEX)
    };
    let number_at = |row: u8| {
        let (x, y) = base.turned(1, row);
        (x + up_left.0 * 2.4 * HEX, y + up_left.1 * 2.4 * HEX)
    };
    // The box of everything drawn: the edges' corners, and the labels with room for two digits.
    let mut xs = vec![a.0, b.0, c.0, d.0];
    let mut ys = vec![a.1, b.1, c.1, d.1];
    for col in 1..=n {
        let (x, y) = letter_at(col);
        xs.extend([x - LABEL, x + LABEL]);
        ys.push(y - LABEL);
    }
    for row in 1..=rows {
        let (x, y) = number_at(row);
        xs.extend([x - 1.4 * LABEL, x + 1.4 * LABEL]);
        ys.push(y - LABEL);
    }
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (left, top) = (min(&xs), min(&ys));
    let layout = Layout {
        shift: (PAD - left, PAD - top),
        ..base
    };
    let shift = |q: (f64, f64)| (q.0 + layout.shift.0, q.1 + layout.shift.1);
    // About 0.6 of the font size a character: the caption is never cut on a small board.
    let caption_width = caption.chars().count() as f64 * 0.6 * CAPTION;
    let width = (max(&xs) - left + 2.0 * PAD).max(caption_width + 2.0 * PAD);
    let height = max(&ys) - top + 2.0 * PAD + CAPTION + 10.0;
    // Cells are half a hexagon apart across, with a side on top or on the corner alike.
    p.grid(3f64.sqrt() * HEX / 2.0);
    p.begin(width.ceil(), height.ceil(), "DejaVu Sans, sans-serif");
    p.background("#999999");
    let (a, b, c, d) = (shift(a), shift(b), shift(c), shift(d));
    // Each edge a band from the outer corners to the corner cells' centres: the cells cover the
    // rest of what a triangle to the middle would fill, and filling it was a tenth of a Hex
    // board's instructions.
    let inner = [(ax, ay), (bx, by), (cx, cy), (dx, dy)].map(shift);
    let mut band = |q: (f64, f64), r: (f64, f64), qi: usize, ri: usize, fill: &str| {
        let s = Style {
            fill: Some(fill),
            aliased: true,
            ..Style::default()
        };
        p.polygon(&[inner[qi], q, r, inner[ri]], &s, &[]);
    };
    band(a, b, 0, 1, palette.top_bottom);
    band(c, d, 2, 3, palette.top_bottom);
    band(b, c, 1, 2, palette.left_right);
    band(d, a, 3, 0, palette.left_right);
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
        let (x, y) = layout.centre(col, row);
        p.polygon(&corners(x, y, HEX), &cell_style, &[]);
        if colour != EMPTY
            && let Some((fill, ring)) = palette.stones.get(colour as usize - 1)
        {
            let s = Style {
                fill: Some(fill),
                stroke: Some(ring),
                stroke_width: Some(2.0),
                ..Style::default()
            };
            p.circle(x, y, HEX * 0.74, &s, &[]);
        }
        if last == Some(cell) {
            p.circle(x, y, HEX * 0.22, &last_style, &[]);
        }
    }
    let label = |anchor| Style {
        font_size: Some(LABEL as f32),
        anchor: Some(anchor),
        ..Style::default()
    };
    for col in 1..=n {
        let (x, y) = shift(letter_at(col));
        let letter = ((b'a' + col - 1) as char).to_string();
        p.text(x, y + 0.35 * LABEL, &letter, &label("middle"), &[]);
    }
    for row in 1..=rows {
        let (x, y) = shift(number_at(row));
        p.text(x, y + 0.35 * LABEL, &row.to_string(), &label("middle"), &[]);
    }
    let s = Style {
        font_size: Some(CAPTION as f32),
        ..Style::default()
    };
    p.text(PAD, height - 10.0, caption, &s, &[]);
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
