//! Drawing a position of a stone-placing game on a hex grid (Y, Unlur): the ASCII board of the mails
//! and the SVG picture, from a list of cells with their place in the drawing. The game says where
//! each cell goes (in half cells across, one text row per grid row), which stone is on it and where
//! the column letters stand; this module knows no rules.
//!
//! The ASCII board puts neighbouring cells of a row two columns apart and each row one column off
//! the row above, so that a character cell's usual 1:2 aspect gives the hex lattice its true shape;
//! row numbers stand at both ends of each row. The last stone is written in parentheses: `(B)`.

use crate::picture::{Painter, Style};

/// A stone's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stone {
    /// A black stone, `B` on the ASCII board.
    Black,
    /// A white stone, `W`.
    White,
}

impl Stone {
    fn letter(self) -> char {
        match self {
            Stone::Black => 'B',
            Stone::White => 'W',
        }
    }
}

/// One cell as drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spot {
    /// The cell's name (`c5`), written in the picture's empty cells.
    pub name: String,
    /// The grid row (from 1): the text row of the ASCII board.
    pub row: u8,
    /// Across, in half cells: neighbours in a row are 2 apart.
    pub x: i32,
    /// The stone on it, if any.
    pub stone: Option<Stone>,
    /// True for the cell of the last stone (or the stone the swap turned).
    pub marked: bool,
    /// True for a cell drawn in the darker shade (Unlur's edge cells; Y's none).
    pub shaded: bool,
}

/// A column letter (or any short label) at a place of the drawing: `row` 0 is above grid row 1,
/// `rows + 1` below the last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// The text, a letter.
    pub text: String,
    /// The text row (see above).
    pub row: u8,
    /// Across, in half cells, as [`Spot::x`].
    pub x: i32,
}

/// A whole position to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawing {
    /// The game's name for the picture's title: `Y`.
    pub title: String,
    /// The move now awaited.
    pub move_number: u32,
    /// The number of grid rows.
    pub rows: u8,
    /// Every cell.
    pub spots: Vec<Spot>,
    /// The column letters.
    pub labels: Vec<Label>,
    /// Lines under the board: the legend, whose turn.
    pub lines: Vec<String>,
}

/// The ASCII board: the rows with their numbers at both ends, the letters, then [`Drawing::lines`].
pub fn ascii(d: &Drawing) -> String {
    // (text row, first column, text); columns may go negative before the shift below.
    let mut items: Vec<(usize, i32, String)> = Vec::new();
    for row in 1..=d.rows {
        let xs: Vec<i32> = d
            .spots
            .iter()
            .filter(|s| s.row == row)
            .map(|s| s.x)
            .collect();
        let (Some(&lo), Some(&hi)) = (xs.iter().min(), xs.iter().max()) else {
            continue;
        };
        let number = row.to_string();
        items.push((row as usize, lo - 4, format!("{number:>2}")));
        items.push((row as usize, hi + 3, number));
    }
    for s in &d.spots {
        let ch = s.stone.map_or('.', Stone::letter);
        if s.marked {
            items.push((s.row as usize, s.x - 1, format!("({ch})")));
        } else {
            items.push((s.row as usize, s.x, ch.to_string()));
        }
    }
    for l in &d.labels {
        items.push((l.row as usize, l.x, l.text.clone()));
    }
    let shift = items.iter().map(|i| i.1).min().unwrap_or(0);
    let mut lines = vec![Vec::<char>::new(); d.rows as usize + 2];
    for (row, x, text) in items {
        let line = &mut lines[row];
        let start = (x - shift) as usize;
        for (k, ch) in text.chars().enumerate() {
            if line.len() <= start + k {
                line.resize(start + k + 1, ' ');
            }
            line[start + k] = ch;
        }
    }
    let mut out = String::new();
    for line in lines.iter().filter(|l| !l.is_empty()) {
        let text: String = line.iter().collect();
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out.push('\n');
    for l in &d.lines {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// Half the distance between opposite corners of a cell, in picture units.
const HEX: f64 = 20.0;
/// Space around the board.
const MARGIN: f64 = 30.0;
/// The height of a line of text under the board.
const LINE: f64 = 19.0;

/// The six corners of the pointy-top hexagon at (x, y).
fn corners(x: f64, y: f64, size: f64) -> [(f64, f64); 6] {
    std::array::from_fn(|k| {
        let a = std::f64::consts::PI / 180.0 * (60.0 * k as f64 - 30.0);
        (x + size * a.cos(), y + size * a.sin())
    })
}

/// Paints the picture: hexagonal cells (shaded ones darker), stones as black and white discs, the
/// last stone ringed in red, the row numbers and column letters, then [`Drawing::lines`] below.
pub fn paint(d: &Drawing, p: &mut dyn Painter) {
    let s3 = 3f64.sqrt();
    let place = |x: i32, row: f64| (f64::from(x) * HEX * s3 / 2.0, row * HEX * 1.5);
    let min_x = d.spots.iter().map(|s| s.x).min().unwrap_or(0) - 4;
    let max_x = d.spots.iter().map(|s| s.x).max().unwrap_or(0) + 4;
    let (x0, _) = place(min_x, 0.0);
    let (x1, _) = place(max_x, 0.0);
    let board_w = x1 - x0;
    let board_h = (f64::from(d.rows) + 1.0) * HEX * 1.5;
    let width = (board_w + 2.0 * MARGIN).max(360.0);
    let height = board_h + 2.0 * MARGIN + LINE * d.lines.len() as f64 + 10.0;
    let dx = MARGIN - x0 + (width - board_w - 2.0 * MARGIN) / 2.0;
    let dy = MARGIN;
    let at = |x: i32, row: f64| {
        let (px, py) = place(x, row);
        (px + dx, py + dy)
    };
    // Cells are half a hexagon apart across (rows offset by half a cell).
    p.grid(HEX * s3 / 2.0);
    p.begin(width, height, "DejaVu Sans, Verdana, sans-serif");
    p.title(&format!("{} board, move {}", d.title, d.move_number));
    p.background("#FFFFFF");
    let name_style = Style {
        fill: Some("#996633"),
        font_size: Some(8.0),
        anchor: Some("middle"),
        ..Style::default()
    };
    let mark_style = Style {
        fill: Some("none"),
        stroke: Some("#FF3300"),
        stroke_width: Some(3.0),
        ..Style::default()
    };
    for s in &d.spots {
        let (x, y) = at(s.x, f64::from(s.row));
        // Colours on the six-level grid the mail's paletted PNG keeps exactly (multiples of 0x33).
        let cell = Style {
            fill: Some(if s.shaded { "#CC9966" } else { "#FFCC99" }),
            stroke: Some("#663300"),
            stroke_width: Some(1.0),
            ..Style::default()
        };
        p.group(&[("class", "cell"), ("data-name", &s.name)]);
        p.polygon(&corners(x, y, HEX), &cell, &[]);
        match s.stone {
            Some(stone) => {
                let (fill, ring, class) = match stone {
                    Stone::Black => ("#111111", "#000000", "stone black"),
                    Stone::White => ("#FFFFFF", "#333333", "stone white"),
                };
                let style = Style {
                    fill: Some(fill),
                    stroke: Some(ring),
                    stroke_width: Some(1.5),
                    ..Style::default()
                };
                p.circle(x, y, HEX * 0.72, &style, &[("class", class)]);
            }
            None => p.text(x, y + 3.0, &s.name, &name_style, &[]),
        }
        if s.marked {
            p.circle(x, y, HEX * 0.45, &mark_style, &[("class", "last-move")]);
        }
        p.end_group();
    }
    // Row numbers at both ends of each row, then the column letters.
    let label = Style {
        fill: Some("#333333"),
        font_size: Some(11.0),
        anchor: Some("middle"),
        ..Style::default()
    };
    for row in 1..=d.rows {
        let xs = d.spots.iter().filter(|s| s.row == row).map(|s| s.x);
        let (Some(lo), Some(hi)) = (xs.clone().min(), xs.max()) else {
            continue;
        };
        for x in [lo - 2, hi + 2] {
            let (px, py) = at(x, f64::from(row));
            p.text(px, py + 4.0, &row.to_string(), &label, &[("class", "row")]);
        }
    }
    for l in &d.labels {
        let (px, py) = at(l.x, f64::from(l.row));
        p.text(px, py + 4.0, &l.text, &label, &[("class", "column")]);
    }
    let base = board_h + 2.0 * MARGIN + 4.0;
    let status = Style {
        fill: Some("#111111"),
        font_size: Some(13.0),
        ..Style::default()
    };
    for (k, line) in d.lines.iter().enumerate() {
        let y = (base + LINE * k as f64).round();
        p.text(MARGIN, y, line, &status, &[("class", "status")]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawing() -> Drawing {
        // Three cells in a triangle: a1 on row 1, a2 b2 on row 2.
        let spot = |name: &str, row, x, stone, marked| Spot {
            name: name.into(),
            row,
            x,
            stone,
            marked,
            shaded: false,
        };
        Drawing {
            title: "Y".into(),
            move_number: 3,
            rows: 2,
            spots: vec![
                spot("a1", 1, 1, Some(Stone::Black), false),
                spot("a2", 2, 0, None, false),
                spot("b2", 2, 2, Some(Stone::White), true),
            ],
            labels: vec![
                Label {
                    text: "a".into(),
                    row: 3,
                    x: -1,
                },
                Label {
                    text: "b".into(),
                    row: 3,
                    x: 1,
                },
            ],
            lines: vec!["Black to move".into()],
        }
    }

    #[test]
    fn the_ascii_board_has_rows_numbers_letters_and_the_last_stone() {
        let text = ascii(&drawing());
        assert_eq!(
            text, "  1  B  1\n 2  .(W) 2\n   a b\n\nBlack to move\n",
            "{text}"
        );
    }

    #[test]
    fn the_picture_has_every_cell_stone_and_label() {
        let pic = crate::picture::svg_with(|p| paint(&drawing(), p));
        assert_eq!(pic.matches("class=\"cell\"").count(), 3);
        assert_eq!(pic.matches("class=\"stone black\"").count(), 1);
        assert_eq!(pic.matches("class=\"stone white\"").count(), 1);
        assert_eq!(pic.matches("class=\"last-move\"").count(), 1);
        assert_eq!(pic.matches("class=\"row\"").count(), 4);
        assert_eq!(pic.matches("class=\"column\"").count(), 2);
        assert!(pic.contains(">Black to move</text>"));
        assert!(pic.starts_with("<svg ") && pic.ends_with("</svg>\n"));
    }
}
