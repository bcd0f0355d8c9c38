//! The board of a game of Unlur as players see it: the ASCII board of the mails, the SVG picture, and
//! the game-neutral [`Board`].
//!
//! The hexagon is drawn as on the Hex board it is cut from: row 1 on top, each row half a cell to the
//! right of the row above, cell `(c, r)` at `2(c − 1) + (r − 1)` half cells across. Each column runs
//! down and to the right; its letter stands above row 1 (columns from the `n`-th letter on) or below
//! the last row (columns up to the `n`-th). Edge cells are shaded in the picture. The widest row takes
//! `4n + 5` characters: 37 at the default 8 and 57 at 13, so every size fits 72 columns.

use super::game::{BLACK, Game, WHITE};
use crate::games::GameState;
use crate::games::board::{
    Board, Cell, Grid, LastMove, Mark, SideInfo, Spot as BoardSpot, TileKind,
};
use crate::games::stones::{self, Drawing, Label, Spot, Stone};

/// Where cell `(c, r)` is drawn, in half cells.
fn across(c: u8, r: u8) -> i32 {
    2 * (i32::from(c) - 1) + i32::from(r) - 1
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
    let n = g.size();
    let m = 2 * n - 1;
    let spots = (0..grid.len())
        .map(|cell| {
            let (c, r) = grid.coords(cell);
            Spot {
                name: grid.name(cell),
                row: r,
                x: across(c, r),
                stone: stone(g.stones()[cell]),
                marked: g.last_cell() == Some(cell),
                shaded: !g.interior(cell),
            }
        })
        .collect();
    let letter = |c: u8| ((b'a' + c - 1) as char).to_string();
    let mut labels: Vec<Label> = (n..=m)
        .map(|c| Label {
            text: letter(c),
            row: 0,
            x: across(c, 0),
        })
        .collect();
    labels.extend((1..=n).map(|c| Label {
        text: letter(c),
        row: m + 1,
        x: across(c, m + 1),
    }));
    let mut lines = vec![
        "B = Black, W = White, (B) = the last stone. Black's goal is a Y".into(),
        "(sides N, SE and SW, or NE, S and NW); White's a line (two opposite".into(),
        "sides).".into(),
    ];
    lines.push(g.status_line());
    Drawing {
        title: "Unlur".into(),
        move_number: g.move_number(),
        rows: m,
        spots,
        labels,
        lines,
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

/// The position as the game-neutral board: cells in axial coordinates (`c − 1`, `r − 1`). Once the
/// contract is over the stones are the seats' pieces; during it the black stones are nobody's yet and
/// are shown as the tile `contract stone`.
pub fn board_view(g: &Game) -> Board {
    let grid = g.grid();
    let over = g.result().is_some();
    let spot = |cell: usize| {
        let (c, r) = grid.coords(cell);
        BoardSpot {
            number: cell as u32 + 1,
            q: i32::from(c) - 1,
            r: i32::from(r) - 1,
        }
    };
    let seat_of = |colour: u8| match (g.black_seat(), colour) {
        (Some(b), BLACK) => Some(b),
        (Some(b), WHITE) => Some(1 - b),
        _ => None,
    };
    const CONTRACT: &str = "contract stone";
    let cells: Vec<Cell> = (0..grid.len())
        .map(|cell| {
            let s = spot(cell);
            let colour = g.stones()[cell];
            let open = colour == 0 && !over && (!g.in_contract() || g.interior(cell));
            Cell {
                number: s.number,
                q: s.q,
                r: s.r,
                tile: (colour == BLACK && g.in_contract()).then(|| CONTRACT.to_string()),
                open,
                piece: seat_of(colour),
                mark: (g.last_cell() == Some(cell)).then_some(Mark::To),
            }
        })
        .collect();
    let count = |colour: u8| g.stones().iter().filter(|&&s| s == colour).count() as u32;
    let sides = (0..2)
        .map(|seat| {
            let colour = match g.black_seat() {
                Some(b) if b == seat => Some(BLACK),
                Some(_) => Some(WHITE),
                None => None,
            };
            let (letter, fill, ring) = match colour {
                Some(BLACK) => ('B', "#111111", "#000000"),
                Some(_) => ('W', "#FFFFFF", "#333333"),
                None => (if seat == 0 { 'F' } else { 'S' }, "#CCCCCC", "#333333"),
            };
            SideInfo {
                name: g.seat_title(seat).into(),
                letter,
                fill: fill.into(),
                ring: ring.into(),
                on_board: colour.map_or(0, count),
                in_reserve: 0,
                in_game: true,
            }
        })
        .collect();
    let tiles = if g.in_contract() && count(BLACK) > 0 {
        vec![TileKind {
            name: CONTRACT.into(),
            letter: Some('B'),
            fill: "#111111".into(),
            ink: "#FFFFFF".into(),
        }]
    } else {
        Vec::new()
    };
    let last_move = g
        .records()
        .into_iter()
        .rev()
        .find(|m| !matches!(m.text.as_str(), "resign" | "forfeit" | "draw"))
        .map(|m| LastMove {
            to: (m.text != "pass")
                .then(|| g.last_cell().map(spot))
                .flatten(),
            seat: m.seat,
            text: m.text,
            from: None,
            removed: None,
        });
    Board {
        grid: Grid::Hex,
        move_number: g.move_number(),
        cells,
        tiles,
        sides,
        to_move: g.to_move(),
        status: g.status_line(),
        last_move,
    }
}
