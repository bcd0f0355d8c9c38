//! The Go board as Go players read it: column letters without `i` above and below, row numbers on
//! both sides, `+` on the star points, `X` Black and `O` White, the last stone in parentheses; and the
//! picture: a wooden board with lines, star points, stones and the last stone marked.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::GoGame;
use super::board::{BLACK, LETTERS, WHITE};
use super::options::handicap_points;
use crate::games::{GameState, Outcome, Status};
use crate::picture::{Painter, Step, Style};

/// One line: whose turn or how it ended.
pub fn status_line(g: &GoGame) -> String {
    match g.status() {
        Status::ToMove(0) => "Black (X) to move".into(),
        Status::ToMove(_) => "White (O) to move".into(),
        Status::Over(Outcome::Winner(s)) => format!("{} wins", ["Black", "White"][s]),
        Status::Over(Outcome::Draw(_)) => "Draw".into(),
    }
}

/// The star points: the nine handicap points on odd boards from 13, four corners and the centre on
/// 9 to 12 (the centre only on odd sizes), none below 9.
fn stars(n: u8) -> Vec<(usize, usize)> {
    match n {
        0..=8 => Vec::new(),
        9..=12 => {
            let mut s = handicap_points(n, 4);
            if n % 2 == 1 {
                let mid = (n as usize).div_ceil(2) - 1;
                s.push((mid, mid));
            }
            s
        }
        _ if n % 2 == 1 => handicap_points(n, 9),
        _ => handicap_points(n, 4),
    }
}

/// The ASCII board: 2 columns a point, 47 columns at 19×19, 59 at 25×25.
pub fn ascii(g: &GoGame) -> String {
    ascii_marked(g, &BTreeSet::new(), &status_line(g))
}

/// The ASCII board with the stones on `dead` drawn as `x` and `o` (the scoring step) and `status`
/// as its last line.
pub fn ascii_marked(g: &GoGame, dead: &BTreeSet<usize>, status: &str) -> String {
    let b = g.board();
    let n = b.n;
    let stars = stars(n as u8);
    let last = g.last_point();
    let letters: String = LETTERS[..n]
        .iter()
        .map(|&l| format!(" {}", l as char))
        .collect();
    let mut out = format!("   {letters}\n");
    for r in (0..n).rev() {
        let mut line = format!("{:>2} ", r + 1);
        for c in 0..n {
            let p = b.point(c, r);
            let ch = match b.at(p) {
                BLACK if dead.contains(&p) => 'x',
                WHITE if dead.contains(&p) => 'o',
                BLACK => 'X',
                WHITE => 'O',
                _ if stars.contains(&(c, r)) => '+',
                _ => '.',
            };
            let before = if last == Some(p) {
                '('
            } else if c > 0 && last == Some(b.point(c - 1, r)) {
                ')'
            } else {
                ' '
            };
            line.push(before);
            line.push(ch);
        }
        let after = if last == Some(b.point(n - 1, r)) {
            ')'
        } else {
            ' '
        };
        let _ = writeln!(out, "{line}{after}{}", r + 1);
    }
    let _ = writeln!(out, "   {letters}");
    let _ = writeln!(
        out,
        "\nX Black   O White   + star point   (X) the last stone   komi {}",
        g.go_options().komi_text()
    );
    if !dead.is_empty() {
        let _ = writeln!(out, "x o stones marked dead (the scoring step)");
    }
    let _ = writeln!(out, "{status}");
    out
}

/// Paints the picture.
pub fn paint(g: &GoGame, p: &mut dyn Painter) {
    paint_marked(g, &BTreeSet::new(), &status_line(g), p);
}

/// Paints the picture with the stones on `dead` faded and crossed (the scoring step) and `status`
/// under it.
pub fn paint_marked(g: &GoGame, dead: &BTreeSet<usize>, status: &str, p: &mut dyn Painter) {
    let b = g.board();
    let n = b.n;
    let cell = if n <= 9 {
        40.0
    } else if n <= 13 {
        32.0
    } else {
        24.0
    };
    // The labels sit outside the stones: a stone on the edge reaches half a step past the line,
    // and the letters and numbers need LABEL more (issue 37: 9x9 stones covered e, f, h and row 2).
    let margin = cell * 0.5 + LABEL;
    let size = margin * 2.0 + cell * (n as f64 - 1.0);
    let x = |c: usize| margin + cell * c as f64;
    let y = |r: usize| margin + cell * (n - 1 - r) as f64;
    let caption_text = format!("{} · komi {}", status, g.go_options().komi_text());
    let caption = crate::text::wrap(&caption_text, caption_columns(size));
    let height = size + CAPTION_LINE * caption.len() as f64 + 12.0;
    p.grid(cell);
    p.begin(size, height, "DejaVu Sans, Arial, sans-serif");
    p.title(&format!("Go move {}", g.move_number()));
    p.background("#dcb35c");
    let wood = "#3b2a12";
    let grid = Style {
        stroke: Some(wood),
        ..Style::default()
    };
    let label = Style {
        font_size: Some(11.0),
        anchor: Some("middle"),
        ..Style::default()
    };
    for (i, letter) in LETTERS[..n].iter().enumerate() {
        p.line(x(i), y(0), x(i), y(n - 1), &grid, &[]);
        p.line(x(0), y(i), x(n - 1), y(i), &grid, &[]);
        p.text(
            x(i),
            LABEL - 7.0,
            &(*letter as char).to_string(),
            &label,
            &[],
        );
        p.text(LABEL * 0.5, y(i) + 4.0, &(i + 1).to_string(), &label, &[]);
    }
    let star = Style {
        fill: Some(wood),
        ..Style::default()
    };
    for (c, r) in stars(n as u8) {
        p.circle(x(c), y(r), 3.0, &star, &[]);
    }
    for pt in b.points() {
        let (c, r) = b.coords(pt);
        let (fill, ring, side) = match b.at(pt) {
            BLACK => ("#111111", "#000000", "black"),
            WHITE => ("#f7f7f7", "#555555", "white"),
            _ => continue,
        };
        let dead_here = dead.contains(&pt);
        let stone = Style {
            fill: Some(fill),
            stroke: Some(ring),
            opacity: dead_here.then_some(0.45),
            ..Style::default()
        };
        p.circle(x(c), y(r), cell * STONE, &stone, &[("data-side", side)]);
        if dead_here {
            let d = cell * 0.22;
            let cross = Style {
                stroke: Some("#cc0000"),
                stroke_width: Some(3.0),
                ..Style::default()
            };
            let (x, y) = (x(c), y(r));
            let steps = [
                Step::Move(x - d, y - d),
                Step::Line(x + d, y + d),
                Step::Move(x - d, y + d),
                Step::Line(x + d, y - d),
            ];
            p.path(&steps, &cross, &[("class", "dead")]);
        }
        if g.last_point() == Some(pt) {
            let mark = Style {
                fill: Some("none"),
                stroke: Some(if side == "black" {
                    "#ffffff"
                } else {
                    "#111111"
                }),
                stroke_width: Some(2.0),
                ..Style::default()
            };
            p.circle(x(c), y(r), cell * 0.25, &mark, &[("class", "last")]);
        }
    }
    let text = Style {
        font_size: Some(14.0),
        ..Style::default()
    };
    for (i, line) in caption.iter().enumerate() {
        p.text(
            LABEL,
            size + CAPTION_LINE * (i as f64 + 0.5),
            line,
            &text,
            &[],
        );
    }
}

/// A stone's radius in grid steps: 0.95 of the step wide, so that neighbours do not touch.
const STONE: f64 = 0.475;

/// The room for the column letters above the board and the row numbers left of it, outside the
/// half step an edge stone takes.
const LABEL: f64 = 22.0;

/// The height of a line of the caption (font size 14).
const CAPTION_LINE: f64 = 18.0;

/// How many characters of the caption fit on a line of a picture `width` wide: DejaVu Sans at 14
/// averages under 8.5 units a character for the words a status uses.
fn caption_columns(width: f64) -> usize {
    (((width - 2.0 * LABEL) / 8.5) as usize).max(8)
}

#[cfg(test)]
mod tests {
    use super::super::options::GoOptions;
    use super::*;

    #[test]
    fn the_board_as_go_players_read_it() {
        let mut g = super::super::game(GoOptions::read(&[]).unwrap(), false);
        g.play("d4").unwrap();
        g.play("q16").unwrap();
        let text = ascii(&g);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    a b c d e f g h j k l m n o p q r s t");
        assert_eq!(lines[4], "16  . . . + . . . . . + . . . . .(O). . . 16");
        assert_eq!(lines[16], " 4  . . . X . . . . . + . . . . . + . . . 4");
        assert!(text.lines().all(|l| l.chars().count() <= 72), "{text}");
        let svg = crate::picture::svg_with(|p| paint(&g, p));
        assert_eq!(svg.matches("data-side=").count(), 2);
        assert_eq!(svg.matches("class=\"last\"").count(), 1);
    }

    /// The numbers of `name="…"` in each element of `svg` that holds `marker`.
    fn attr(svg: &str, marker: &str, name: &str) -> Vec<f64> {
        svg.split('<')
            .filter(|e| e.contains(marker))
            .filter_map(|e| {
                let start = e.find(&format!(" {name}=\""))? + name.len() + 3;
                e[start..].split('"').next()?.parse().ok()
            })
            .collect()
    }

    #[test]
    fn labels_sit_outside_the_stones_and_the_caption_wraps() {
        for size in [2, 5, 9, 13, 19, 25] {
            let mut g = super::super::game(
                GoOptions::read(&[crate::games::GameOption::with_value(
                    "size",
                    &size.to_string(),
                )])
                .unwrap(),
                false,
            );
            let last = LETTERS[size - 1] as char;
            let corners = [
                format!("a{size}"),
                format!("{last}1"),
                "a1".into(),
                format!("{last}{size}"),
            ];
            // On 2x2 two stones fill the other corners' liberties: two corners there.
            let stones = if size == 2 { 2 } else { 4 };
            for m in &corners[..stones] {
                g.play(m).unwrap();
            }
            let long = "Scoring step: waiting for White to accept, mark or resume; Black accepted";
            let svg = crate::picture::svg_with(|p| paint_marked(&g, &BTreeSet::new(), long, p));
            let (cx, cy, r) = (
                attr(&svg, "data-side", "cx"),
                attr(&svg, "data-side", "cy"),
                attr(&svg, "data-side", "r"),
            );
            assert_eq!(cx.len(), stones, "{size}: {svg}");
            let top = cy
                .iter()
                .zip(&r)
                .map(|(y, r)| y - r)
                .fold(f64::MAX, f64::min);
            let left = cx
                .iter()
                .zip(&r)
                .map(|(x, r)| x - r)
                .fold(f64::MAX, f64::min);
            // Column letters (baseline y, 11 units high) end above the highest stone; row numbers
            // (centred, at most two digits: 14 units wide) end left of the leftmost.
            let labels = attr(&svg, "font-size=\"11\"", "y");
            let letters_y = labels.iter().copied().fold(f64::MAX, f64::min);
            assert!(
                letters_y + 2.0 <= top,
                "{size}: letters at {letters_y}, stones from {top}"
            );
            let numbers_x = attr(&svg, "font-size=\"11\"", "x")
                .into_iter()
                .fold(f64::MAX, f64::min);
            assert!(
                numbers_x + 7.0 <= left,
                "{size}: numbers at {numbers_x}, stones from {left}"
            );
            // Neighbouring stones do not touch: a stone is under a step wide.
            let step = cx.iter().copied().fold(f64::MIN, f64::max)
                - cx.iter().copied().fold(f64::MAX, f64::min);
            assert!(
                r.iter().all(|&r| 2.0 * r < step / (size - 1) as f64),
                "{size}"
            );
            // The caption is whole, in lines that fit the picture's width.
            let width = attr(&svg, "svg xmlns", "width")[0];
            let lines: Vec<&str> = svg
                .lines()
                .filter(|l| l.contains("font-size=\"14\""))
                .collect();
            assert!(lines.len() >= 2, "{size}: {lines:?}");
            let caption: String = lines
                .iter()
                .map(|l| l.split('>').nth(1).unwrap().split('<').next().unwrap())
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(caption, format!("{long} · komi 7.5"), "{size}");
            for l in lines.iter().filter(|_| size >= 5) {
                let chars = l
                    .split('>')
                    .nth(1)
                    .unwrap()
                    .split('<')
                    .next()
                    .unwrap()
                    .chars()
                    .count();
                assert!(
                    LABEL + chars as f64 * 8.5 <= width - LABEL + 1.0,
                    "{size}: {l}"
                );
            }
        }
    }
}
