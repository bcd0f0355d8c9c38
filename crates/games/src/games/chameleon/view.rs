//! Chameleon drawn for players: the ASCII board, the SVG picture and the neutral board. Stones are
//! black (`X`) and white (`O`) and belong to nobody; the edges are drawn in the colour of the seat
//! that joins them, as in Hex.

use super::game::{BLACK, ChameleonGame, WHITE};
use crate::games::GameState;
use crate::games::Status;
use crate::games::board::{Board, Cell, LastMove, Mark, SideInfo, Spot};
use crate::games::hexgrid::{EMPTY, draw};
use crate::games::matchplay::Leave as Leaving;

/// The seats' names: seat 0 joins top and bottom, seat 1 left and right.
pub const SEATS: [&str; 2] = ["Vertical", "Horizontal"];

fn glyph(colour: u8) -> char {
    match colour {
        BLACK => 'X',
        WHITE => 'O',
        _ => '.',
    }
}

fn last_cell(g: &ChameleonGame) -> Option<usize> {
    g.last_action().map(|a| a as usize / 2)
}

fn edges(g: &ChameleonGame, seat: usize) -> String {
    let n = g.size();
    if seat == 0 {
        format!("top and bottom (rows 1 and {n})")
    } else {
        format!("left and right (columns a and {})", (b'a' + n - 1) as char)
    }
}

/// One line: whose turn, or who won and how.
pub fn status_line(g: &ChameleonGame) -> String {
    match (g.status(), g.left()) {
        (Status::ToMove(s), _) => format!("{} (seat {s}) to move", SEATS[s]),
        (Status::Over(_), Some(l)) => format!(
            "{} wins: {} {}",
            SEATS[1 - l.seat],
            SEATS[l.seat],
            match l.how {
                Leaving::Resign => "resigned",
                Leaving::Forfeit => "lost on time",
            }
        ),
        (Status::Over(_), None) => {
            let w = g.winner().unwrap_or(0);
            format!("{} wins: a chain joins {}", SEATS[w], edges(g, w))
        }
    }
}

/// The ASCII board with its legend (every size, 2 to 19, fits 72 columns).
pub fn render(g: &ChameleonGame) -> String {
    let stones = g.chains().stones();
    let mut out = draw::ascii(g.grid(), |c| glyph(stones[c]), last_cell(g));
    out.push_str(
        "\nX black stone, O white stone; either player places either colour.\n\
         A chain of one colour (either) joins a seat's edges:\n",
    );
    for (seat, name) in SEATS.iter().enumerate() {
        out.push_str(&format!("{name} (seat {seat}) joins {}\n", edges(g, seat)));
    }
    if let Some(last) = last_cell(g) {
        out.push_str(&format!(
            "The last stone, ({}), is on {}.\n",
            glyph(stones[last]),
            g.grid().name(last)
        ));
    }
    out.push_str(&status_line(g));
    out.push('\n');
    out
}

/// The picture: Vertical's edges dark, Horizontal's white.
pub fn paint(g: &ChameleonGame, p: &mut dyn crate::picture::Painter) {
    draw::paint(
        p,
        g.grid(),
        g.chains().stones(),
        &draw::Palette {
            stones: &[("#000000", "#333333"), ("#ffffff", "#333333")],
            top_bottom: "#333333",
            left_right: "#ffffff",
            on_corner: false,
        },
        last_cell(g),
        &status_line(g),
    );
}

/// The position as the neutral board: cells numbered from 1 in row order, `q` the column and `r` the
/// row from 0; a stone is drawn as the piece of the seat whose edges are of its colour (black: seat
/// 0, white: seat 1), though it belongs to nobody.
pub fn board_view(g: &ChameleonGame) -> Board {
    let mut b = Board::without_cells(g);
    b.grid = crate::games::board::Grid::Hex;
    let grid = g.grid();
    let stones = g.chains().stones();
    let over = g.to_move().is_none();
    let last = last_cell(g);
    let spot = |cell: usize| {
        let (c, r) = grid.coords(cell);
        Spot {
            number: cell as u32 + 1,
            q: i32::from(c) - 1,
            r: i32::from(r) - 1,
        }
    };
    b.cells = (0..grid.len())
        .map(|cell| {
            let s = spot(cell);
            Cell {
                number: s.number,
                q: s.q,
                r: s.r,
                tile: None,
                open: stones[cell] == EMPTY && !over,
                piece: (stones[cell] != EMPTY).then(|| stones[cell] as usize - 1),
                mark: (last == Some(cell)).then_some(Mark::To),
            }
        })
        .collect();
    for (seat, side) in b.sides.iter_mut().enumerate() {
        let colour = seat as u8 + 1;
        *side = SideInfo {
            name: SEATS[seat].into(),
            letter: glyph(colour),
            fill: if seat == 0 { "#000000" } else { "#ffffff" }.into(),
            ring: "#333333".into(),
            on_board: stones.iter().filter(|&&s| s == colour).count() as u32,
            in_reserve: 0,
            in_game: g.left().is_none_or(|l| l.seat != seat),
        };
    }
    b.status = status_line(g);
    b.last_move = g.moves().into_iter().last().map(|m| LastMove {
        seat: m.seat,
        to: last
            .filter(|_| m.text != "resign" && m.text != "forfeit")
            .map(spot),
        text: m.text,
        from: None,
        removed: None,
    });
    b
}
