//! The board of a game of Y as players see it: the ASCII board of the mails, the SVG picture, and the
//! game-neutral [`Board`].
//!
//! The triangle is drawn apex up, each row centred, as HexGui draws it: cell `(c, r)` stands at
//! `2(c − 1) + (n − r)` half cells across, so that a column runs from its letter under the bottom row
//! up and to the right. Row numbers stand at both ends of each row. The widest row takes `2n + 7`
//! characters: 37 at the default 15 and 45 at 19, so every size fits 72 columns.

use super::game::{BLACK, Game, WHITE};
use crate::games::GameState;
use crate::games::board::{Board, Cell, Grid, LastMove, Mark, SideInfo, Spot as BoardSpot};
use crate::games::stones::{self, Drawing, Label, Spot, Stone};

/// Where cell `(c, r)` of a triangle of side `n` is drawn, in half cells.
fn across(n: u8, c: u8, r: u8) -> i32 {
    2 * (i32::from(c) - 1) + i32::from(n) - i32::from(r)
}

fn stone(colour: u8) -> Option<Stone> {
    match colour {
        BLACK => Some(Stone::Black),
        WHITE => Some(Stone::White),
        _ => None,
    }
}

/// The position to draw.
pub fn drawing(g: &Game) -> Drawing {
    let grid = g.grid();
    let n = g.config().size;
    let spots = (0..grid.len())
        .map(|cell| {
            let (c, r) = grid.coords(cell);
            Spot {
                name: grid.name(cell),
                row: r,
                x: across(n, c, r),
                stone: stone(g.stones()[cell]),
                marked: g.last_cell() == Some(cell),
                shaded: false,
            }
        })
        .collect();
    // Each letter one row below the bottom row, on its column's line.
    let labels = (1..=n)
        .map(|c| Label {
            text: ((b'a' + c - 1) as char).to_string(),
            row: n + 1,
            x: across(n, c, n) - 1,
        })
        .collect();
    Drawing {
        title: "Y".into(),
        move_number: g.move_number(),
        rows: n,
        spots,
        labels,
        lines: vec![
            "B = Black, W = White, (B) = the last stone. A chain touching all".into(),
            "three sides wins; a corner cell is on both of its sides.".into(),
            g.status_line(),
        ],
    }
}

/// The ASCII board.
pub fn render(g: &Game) -> String {
    stones::ascii(&drawing(g))
}

/// Paints the picture.
pub fn paint(g: &Game, p: &mut dyn crate::picture::Painter) {
    stones::paint(&drawing(g), p);
}

/// The position as the game-neutral board: cells in axial coordinates (`q = c − r`, `r − 1`), the
/// stones as the seats' pieces (Black is seat 0), the last stone marked.
pub fn board_view(g: &Game) -> Board {
    let grid = g.grid();
    let over = g.result().is_some();
    let spot = |cell: usize| {
        let (c, r) = grid.coords(cell);
        BoardSpot {
            number: cell as u32 + 1,
            q: i32::from(c) - i32::from(r),
            r: i32::from(r) - 1,
        }
    };
    let cells: Vec<Cell> = (0..grid.len())
        .map(|cell| {
            let s = spot(cell);
            let colour = g.stones()[cell];
            Cell {
                number: s.number,
                q: s.q,
                r: s.r,
                tile: None,
                open: colour == 0 && !over,
                piece: (colour != 0).then(|| colour as usize - 1),
                mark: (g.last_cell() == Some(cell)).then_some(Mark::To),
            }
        })
        .collect();
    let count = |colour: u8| g.stones().iter().filter(|&&s| s == colour).count() as u32;
    let side = |name: &str, letter, fill: &str, ring: &str, colour| SideInfo {
        name: name.into(),
        letter,
        fill: fill.into(),
        ring: ring.into(),
        on_board: count(colour),
        in_reserve: 0,
        in_game: true,
    };
    let last_move = g
        .records()
        .into_iter()
        .rev()
        .find(|m| !matches!(m.text.as_str(), "resign" | "forfeit" | "draw"))
        .map(|m| LastMove {
            seat: m.seat,
            text: m.text,
            from: None,
            to: g.last_cell().map(spot),
            removed: None,
        });
    Board {
        grid: Grid::Hex,
        move_number: g.move_number(),
        cells,
        tiles: Vec::new(),
        sides: vec![
            side("Black", 'B', "#111111", "#000000", BLACK),
            side("White", 'W', "#FFFFFF", "#333333", WHITE),
        ],
        to_move: g.to_move(),
        status: g.status_line(),
        last_move,
    }
}
