//! Drawing a Hex rhombus ([`Grid::rhombus`]) as ASCII and as SVG, for Hex and Chameleon (and any game
//! on the rhombus): row 1 on top, column `a` on the left, each row half a cell to the right of the row
//! above, as HexGui draws it.

use std::fmt::Write as _;

use super::{EMPTY, Grid};
use crate::html::escape as esc;

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

/// How [`svg`] paints the stones and the edges. The picture's own colours (and best the palette's) have
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

fn corners(x: f64, y: f64, size: f64) -> String {
    (0..6)
        .map(|k| {
            let a = std::f64::consts::PI / 180.0 * (60.0 * f64::from(k) - 30.0);
            format!("{:.1},{:.1}", x + size * a.cos(), y + size * a.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The rhombus as an SVG picture: the four edges in their colours, every cell, the stones
/// (`stones[cell]` is a colour of `palette.stones`, or [`EMPTY`]), the last stone marked with a dot,
/// and `caption` (whose turn, who won) below the board.
pub fn svg(
    grid: &Grid,
    stones: &[u8],
    palette: &Palette<'_>,
    last: Option<usize>,
    caption: &str,
) -> String {
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
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"DejaVu Sans, sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#cccccc\"/>\n"
    );
    let tri = |s: &mut String, p: (f64, f64), q: (f64, f64), fill: &str| {
        let _ = writeln!(
            s,
            "<polygon points=\"{mx:.1},{my:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{}\"/>",
            p.0,
            p.1,
            q.0,
            q.1,
            esc(fill)
        );
    };
    tri(&mut s, a, b, palette.top_bottom);
    tri(&mut s, c, d, palette.top_bottom);
    tri(&mut s, b, c, palette.left_right);
    tri(&mut s, d, a, palette.left_right);
    for (cell, &colour) in stones.iter().enumerate().take(grid.len()) {
        let (col, row) = grid.coords(cell);
        let (x, y) = centre(col, row);
        let _ = writeln!(
            s,
            "<polygon points=\"{}\" fill=\"#ffcc99\" stroke=\"#996633\" stroke-width=\"1.2\"/>",
            corners(x, y, HEX)
        );
        if colour != EMPTY
            && let Some((fill, ring)) = palette.stones.get(colour as usize - 1)
        {
            let _ = writeln!(
                s,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.5\"/>",
                HEX * 0.72,
                esc(fill),
                esc(ring)
            );
        }
        if last == Some(cell) {
            let _ = writeln!(
                s,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"#cc0000\"/>",
                HEX * 0.22
            );
        }
    }
    for col in 1..=n {
        let (x, y) = centre(col, 1);
        let _ = writeln!(
            s,
            "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"13\" text-anchor=\"middle\">{}</text>",
            y - 1.5 * HEX,
            (b'a' + col - 1) as char
        );
    }
    for row in 1..=grid.rows() {
        let (x, y) = centre(1, row);
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\" text-anchor=\"end\">{row}</text>",
            x - 1.7 * HEX,
            y + 4.5
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"15\">{}</text>\n</svg>",
        MARGIN / 2.0,
        height - 10.0,
        esc(caption)
    );
    s
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
