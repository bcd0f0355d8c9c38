//! Cups as players see it (`cups-rules.md` section 1's picture): North's row above South's, each
//! player's cups numbered from their own left, the bowls at each player's right, the reserves below.

use std::fmt::Write as _;

use super::CupsGame;
use super::rules::Move;
use crate::games::{GameState, Outcome, Status};
use crate::picture::{Painter, Style};

/// One line: whose turn or how it ended.
pub fn status_line(g: &CupsGame) -> String {
    match g.status() {
        Status::ToMove(s) => format!("{} to move", super::SIDES[s]),
        Status::Over(Outcome::Winner(s)) => format!("{} wins", super::SIDES[s]),
        Status::Over(Outcome::Draw(_)) => "Draw".into(),
    }
}

/// The cup the last move sowed or filled last, as (seat, cup index from that side's left).
fn last_cup(g: &CupsGame) -> Option<(usize, usize)> {
    g.last_move().map(|(seat, mv)| match mv {
        Move::Drop(k) => (seat, k as usize - 1),
        Move::Sow(i) => (seat, i as usize - 1),
    })
}

/// The rows as text, 4 columns a cup: 58 columns at most (10 cups).
pub fn ascii(g: &CupsGame) -> String {
    let p = g.position();
    let n = p.n as usize;
    let last = last_cup(g);
    let cup = |seat: usize, i: usize| -> String {
        let beans = p.cups[seat][i];
        if last == Some((seat, i)) {
            format!("[{beans:>2}]")
        } else {
            format!(" {beans:>2} ")
        }
    };
    let mut out = String::new();
    let labels =
        |order: Vec<usize>| -> String { order.iter().map(|i| format!("  {:<2}", i + 1)).collect() };
    let _ = writeln!(
        out,
        "North cups  {}",
        labels((0..n).rev().collect()).trim_end()
    );
    let north: String = (0..n).rev().map(|i| cup(1, i)).collect();
    let north_line = format!("{:>9}   {north}", format!("({:>2})", p.bowls[1]));
    let _ = writeln!(out, "{}", north_line.trim_end());
    let south: String = (0..n).map(|i| cup(0, i)).collect();
    let _ = writeln!(out, "            {south}  ({:>2})", p.bowls[0]);
    let _ = writeln!(out, "South cups  {}", labels((0..n).collect()).trim_end());
    let _ = writeln!(
        out,
        "\nBowls ( ): North {} on the left, South {} on the right.\n\
         Reserves: South {}, North {}.  [ ] the cup the last move ended in.\n\
         Your cup i faces the other's cup {}-i.",
        p.bowls[1],
        p.bowls[0],
        p.reserves[0],
        p.reserves[1],
        n + 1
    );
    let _ = writeln!(out, "{}", status_line(g));
    out
}

const CUP: f64 = 56.0;
const MARGIN: f64 = 24.0;
/// The band above and below the board for the cup numbers and the bowls' names (issue 37: the
/// numbers inside the cups were 9 units high, unreadable on a phone).
const LABELS: f64 = 22.0;

/// Paints the picture: two rows of cups with their bean counts, each row's cup numbers outside it
/// (North's above, South's below), the bowls at the ends named for their owners, the reserves and
/// the status below.
pub fn paint(g: &CupsGame, pt: &mut dyn Painter) {
    let p = g.position();
    let n = p.n as usize;
    let last = last_cup(g);
    let top = MARGIN + LABELS;
    let w = MARGIN * 2.0 + CUP * (n as f64 + 2.0);
    let h = top + CUP * 2.0 + LABELS + 70.0;
    pt.begin(w, h, "DejaVu Sans, Arial, sans-serif");
    pt.title(&format!("Cups move {}", g.move_number()));
    pt.background("#f3e7cf");
    let fill = |fill| Style {
        fill: Some(fill),
        ..Style::default()
    };
    pt.rect(
        MARGIN - 6.0,
        top - 6.0,
        CUP * (n as f64 + 2.0) + 12.0,
        CUP * 2.0 + 12.0,
        28.0,
        &fill("#b07b45"),
        &[],
    );
    let white = |size| Style {
        fill: Some("#fff"),
        font_size: Some(size),
        anchor: Some("middle"),
        ..Style::default()
    };
    let label = Style {
        fill: Some("#333"),
        font_size: Some(13.0),
        anchor: Some("middle"),
        ..Style::default()
    };
    // North's bowl on the left (North's right), South's on the right; each named on its owner's
    // side of the board.
    for (seat, x) in [(1usize, MARGIN), (0, MARGIN + CUP * (n as f64 + 1.0))] {
        let name_y = if seat == 1 {
            top - 12.0
        } else {
            top + CUP * 2.0 + 24.0
        };
        let side = ["south", "north"][seat];
        pt.rect(
            x + 4.0,
            top + 4.0,
            CUP - 8.0,
            CUP * 2.0 - 8.0,
            22.0,
            &fill("#5c3a1a"),
            &[("class", "bowl"), ("data-side", side)],
        );
        let beans = p.bowls[seat].to_string();
        pt.text(x + CUP / 2.0, top + CUP + 7.0, &beans, &white(20.0), &[]);
        let name = ["South", "North"][seat];
        pt.text(x + CUP / 2.0, name_y, name, &label, &[("class", "label")]);
    }
    for seat in 0..2 {
        for i in 0..n {
            // South's cup 1 is leftmost; North's cup 1 is rightmost, facing South's cup n.
            let col = if seat == 0 { i } else { n - 1 - i };
            let x = MARGIN + CUP * (col as f64 + 1.5);
            let y = top + CUP * if seat == 0 { 1.5 } else { 0.5 };
            let (ring, width) = if last == Some((seat, i)) {
                ("#d55e00", 4.0)
            } else {
                ("#5c3a1a", 1.5)
            };
            // The number outside the board, beside its own row.
            let number_y = if seat == 0 {
                top + CUP * 2.0 + 24.0
            } else {
                top - 12.0
            };
            let cup = Style {
                fill: Some("#7a4f28"),
                stroke: Some(ring),
                stroke_width: Some(width),
                ..Style::default()
            };
            let number = (i + 1).to_string();
            let attrs = [
                ("class", "cup"),
                ("data-side", ["south", "north"][seat]),
                ("data-cup", number.as_str()),
            ];
            pt.circle(x, y, CUP * 0.4, &cup, &attrs);
            let beans = p.cups[seat][i].to_string();
            pt.text(x, y + 6.0, &beans, &white(18.0), &[]);
            pt.text(x, number_y, &number, &label, &[("class", "label")]);
        }
    }
    let below = top + CUP * 2.0 + LABELS;
    let reserves = format!(
        "Reserves: South {}, North {}. Bowls: South {}, North {}.",
        p.reserves[0], p.reserves[1], p.bowls[0], p.bowls[1]
    );
    let text = |fill, size| Style {
        fill: Some(fill),
        font_size: Some(size),
        ..Style::default()
    };
    pt.text(MARGIN, below + 30.0, &reserves, &text("#333", 13.0), &[]);
    pt.text(
        MARGIN,
        below + 52.0,
        &status_line(g),
        &text("#111", 14.0),
        &[],
    );
}

#[cfg(test)]
mod tests {
    use super::super::tests::new_game;
    use super::*;

    #[test]
    fn the_rows_as_the_page_draws_them() {
        let mut g = new_game(4);
        g.play("d4").unwrap();
        g.play("d3").unwrap();
        let text = ascii(&g);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "North cups    4   3   2   1");
        assert_eq!(lines[1], "     ( 1)     0 [ 1]  1   1");
        assert_eq!(lines[2], "              1   0   1   1   ( 0)");
        assert_eq!(lines[3], "South cups    1   2   3   4");
        let widest = |g: &CupsGame| ascii(g).lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest(&g) <= 72, "{text}");
        assert!(widest(&new_game(10)) <= 72, "{}", ascii(&new_game(10)));
        let svg = crate::picture::svg_with(|p| paint(&g, p));
        assert_eq!(svg.matches("class=\"cup\"").count(), 8);
        assert_eq!(svg.matches("class=\"bowl\"").count(), 2);
    }

    #[test]
    fn cup_numbers_and_bowl_names_are_readable_outside_the_cups() {
        let g = new_game(5);
        let svg = crate::picture::svg_with(|p| paint(&g, p));
        let labels: Vec<&str> = svg.split("<text class=\"label\"").skip(1).collect();
        // Five numbers a row and the two bowls' names, at 13 units, none inside a cup.
        assert_eq!(labels.len(), 12, "{svg}");
        assert!(
            labels.iter().all(|l| l.contains("font-size=\"13\"")),
            "{svg}"
        );
        for name in [">North</text>", ">South</text>"] {
            assert_eq!(
                labels.iter().filter(|l| l.contains(name)).count(),
                1,
                "{svg}"
            );
        }
        let ys: Vec<f64> = labels
            .iter()
            .map(|l| {
                l.split("y=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        let cups: Vec<f64> = svg
            .split("<circle class=\"cup\"")
            .skip(1)
            .map(|c| {
                c.split("cy=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        let (hi, lo) = (
            cups.iter().copied().fold(f64::MAX, f64::min) - CUP * 0.4,
            cups.iter().copied().fold(f64::MIN, f64::max) + CUP * 0.4,
        );
        assert!(
            ys.iter().all(|&y| y < hi || y - 13.0 > lo),
            "{ys:?} against {hi}..{lo}"
        );
    }
}
