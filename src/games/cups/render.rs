//! Cups as players see it (`cups-rules.md` section 1's picture): North's row above South's, each
//! player's cups numbered from their own left, the bowls at each player's right, the reserves below.

use std::fmt::Write as _;

use super::CupsGame;
use super::rules::Move;
use crate::games::{GameState, Outcome, Status};
use crate::html::escape as esc;

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

/// The picture: two rows of cups with their bean counts, each row's cup numbers outside it (North's
/// above, South's below), the bowls at the ends named for their owners, the reserves and the status
/// below.
pub fn svg(g: &CupsGame) -> String {
    let p = g.position();
    let n = p.n as usize;
    let last = last_cup(g);
    let top = MARGIN + LABELS;
    let w = MARGIN * 2.0 + CUP * (n as f64 + 2.0);
    let h = top + CUP * 2.0 + LABELS + 70.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" \
         viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n\
         <title>Cups move {}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#f3e7cf\"/>\n\
         <rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"28\" fill=\"#b07b45\"/>\n",
        g.move_number(),
        MARGIN - 6.0,
        top - 6.0,
        CUP * (n as f64 + 2.0) + 12.0,
        CUP * 2.0 + 12.0
    );
    // North's bowl on the left (North's right), South's on the right; each named on its owner's
    // side of the board.
    for (seat, x) in [(1usize, MARGIN), (0, MARGIN + CUP * (n as f64 + 1.0))] {
        let name_y = if seat == 1 {
            top - 12.0
        } else {
            top + CUP * 2.0 + 24.0
        };
        let _ = writeln!(
            out,
            "<rect class=\"bowl\" data-side=\"{}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" \
             height=\"{:.1}\" rx=\"22\" fill=\"#5c3a1a\"/><text x=\"{:.1}\" y=\"{:.1}\" \
             font-size=\"20\" fill=\"#fff\" text-anchor=\"middle\">{}</text>\
             <text class=\"label\" x=\"{:.1}\" y=\"{name_y:.1}\" font-size=\"13\" fill=\"#333\" \
             text-anchor=\"middle\">{}</text>",
            ["south", "north"][seat],
            x + 4.0,
            top + 4.0,
            CUP - 8.0,
            CUP * 2.0 - 8.0,
            x + CUP / 2.0,
            top + CUP + 7.0,
            p.bowls[seat],
            x + CUP / 2.0,
            ["South", "North"][seat],
        );
    }
    for seat in 0..2 {
        for i in 0..n {
            // South's cup 1 is leftmost; North's cup 1 is rightmost, facing South's cup n.
            let col = if seat == 0 { i } else { n - 1 - i };
            let x = MARGIN + CUP * (col as f64 + 1.5);
            let y = top + CUP * if seat == 0 { 1.5 } else { 0.5 };
            let ring = if last == Some((seat, i)) {
                "stroke=\"#d55e00\" stroke-width=\"4\""
            } else {
                "stroke=\"#5c3a1a\" stroke-width=\"1.5\""
            };
            // The number outside the board, beside its own row.
            let number_y = if seat == 0 {
                top + CUP * 2.0 + 24.0
            } else {
                top - 12.0
            };
            let _ = writeln!(
                out,
                "<circle class=\"cup\" data-side=\"{}\" data-cup=\"{}\" cx=\"{x:.1}\" cy=\"{y:.1}\" \
                 r=\"{:.1}\" fill=\"#7a4f28\" {ring}/><text x=\"{x:.1}\" y=\"{:.1}\" \
                 font-size=\"18\" fill=\"#fff\" text-anchor=\"middle\">{}</text>\
                 <text class=\"label\" x=\"{x:.1}\" y=\"{number_y:.1}\" font-size=\"13\" \
                 fill=\"#333\" text-anchor=\"middle\">{}</text>",
                ["south", "north"][seat],
                i + 1,
                CUP * 0.4,
                y + 6.0,
                p.cups[seat][i],
                i + 1
            );
        }
    }
    let below = top + CUP * 2.0 + LABELS;
    let _ = writeln!(
        out,
        "<text x=\"{MARGIN:.0}\" y=\"{:.1}\" font-size=\"13\" fill=\"#333\">Reserves: South {}, \
         North {}. Bowls: South {}, North {}.</text>\n<text x=\"{MARGIN:.0}\" y=\"{:.1}\" \
         font-size=\"14\" fill=\"#111\">{}</text>\n</svg>",
        below + 30.0,
        p.reserves[0],
        p.reserves[1],
        p.bowls[0],
        p.bowls[1],
        below + 52.0,
        esc(&status_line(g))
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rows_as_the_page_draws_them() {
        let mut g = CupsGame::new(4);
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
        assert!(
            widest(&CupsGame::new(10)) <= 72,
            "{}",
            ascii(&CupsGame::new(10))
        );
        let svg = svg(&g);
        assert_eq!(svg.matches("class=\"cup\"").count(), 8);
        assert_eq!(svg.matches("class=\"bowl\"").count(), 2);
    }

    #[test]
    fn cup_numbers_and_bowl_names_are_readable_outside_the_cups() {
        let g = CupsGame::new(5);
        let svg = svg(&g);
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
