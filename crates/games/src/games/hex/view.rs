//! Hex drawn for players: the ASCII board of the mails, the SVG picture, the neutral board, and the
//! notes of the board mail (the swap, who joined their edges).

use super::game::{BLACK, HexGame, Leaving, WHITE};
use crate::games::board::{Board, Cell, LastMove, Mark, SideInfo, Spot};
use crate::games::hexgrid::{EMPTY, draw};
use crate::games::{GameState, Status};

/// The seats' names, their ASCII letters and their edges.
const SIDES: [(&str, char, &str); 2] = [
    ("Black", 'X', "top and bottom (rows 1 and {n})"),
    ("White", 'O', "left and right (columns a and {last})"),
];

fn glyph(colour: u8) -> char {
    match colour {
        BLACK => 'X',
        WHITE => 'O',
        _ => '.',
    }
}

/// The cell of the last stone placed (the swap's white stone after a swap), if any.
fn last_cell(g: &HexGame) -> Option<usize> {
    let &last = g.actions().last()?;
    Some(match g.swapped() {
        Some((_, white)) if g.actions().len() == 2 => white,
        _ if last == g.swap_id() => return None,
        _ => last as usize,
    })
}

/// One line: whose turn, or who won and how.
pub fn status_line(g: &HexGame) -> String {
    match (g.status(), g.left()) {
        (Status::ToMove(s), _) => format!("{} ({}) to move", SIDES[s].0, SIDES[s].1),
        (Status::Over(_), Some(l)) => format!(
            "{} wins: {} {}",
            SIDES[1 - l.seat].0,
            SIDES[l.seat].0,
            match l.how {
                Leaving::Resign => "resigned",
                Leaving::Forfeit => "lost on time",
            }
        ),
        (Status::Over(_), None) => {
            let w = g.winner().unwrap_or(0);
            format!("{} wins, joining {}", SIDES[w].0, edges(g, w))
        }
    }
}

fn edges(g: &HexGame, seat: usize) -> String {
    let n = g.config().size;
    SIDES[seat]
        .2
        .replace("{n}", &n.to_string())
        .replace("{last}", &((b'a' + n - 1) as char).to_string())
}

/// The ASCII board with its legend (fits 72 columns on every size, 2 to 19).
pub fn render(g: &HexGame) -> String {
    let stones = g.chains().stones();
    let mut out = draw::ascii(g.grid(), |c| glyph(stones[c]), last_cell(g));
    out.push('\n');
    for (seat, (name, letter, _)) in SIDES.iter().enumerate() {
        out.push_str(&format!(
            "{letter} {name} (seat {seat}) joins {}\n",
            edges(g, seat)
        ));
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

/// The picture: Black's edges black, White's edges white.
pub fn paint(g: &HexGame, p: &mut dyn crate::picture::Painter) {
    draw::paint(
        p,
        g.grid(),
        g.chains().stones(),
        &draw::Palette {
            stones: &[("#000000", "#333333"), ("#ffffff", "#333333")],
            top_bottom: "#333333",
            left_right: "#ffffff",
            on_corner: true,
        },
        last_cell(g),
        &status_line(g),
    );
}

/// The position as the neutral board: cells numbered from 1 in row order, `q` the column and `r` the
/// row from 0 (the rhombus is the hex grid's axial layout), stones as the seats' pieces.
pub fn board_view(g: &HexGame) -> Board {
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
            name: SIDES[seat].0.into(),
            letter: SIDES[seat].1,
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
        removed: g
            .swapped()
            .filter(|_| g.actions().len() == 2)
            .map(|(black, _)| spot(black)),
    });
    b
}

/// The moves the board mail shows as lines to send: the first empty cell, and the swap when legal.
pub fn example_moves(g: &HexGame) -> Vec<String> {
    let mut out: Vec<String> = g.legal_moves().into_iter().take(1).collect();
    if g.swap_legal() {
        out.push("swap".into());
    }
    out
}

/// What the board mail says from move `since` on: the swap when it was made.
pub fn turn_notes(g: &HexGame, since: u32) -> Vec<String> {
    match g.swapped() {
        Some((black, white)) if since <= 2 => vec![format!(
            "White swapped: Black's stone on {} became a white stone on {}, its mirror in the long \
             diagonal. Black moves next.",
            g.grid().name(black),
            g.grid().name(white)
        )],
        _ => Vec::new(),
    }
}

/// The line under the status while the swap is open.
pub fn notes(g: &HexGame) -> Vec<String> {
    let Some(&first) = g.actions().first() else {
        return Vec::new();
    };
    if !g.swap_legal() {
        return Vec::new();
    }
    let (black, white) = (first as usize, g.mirror(first as usize));
    vec![format!(
        "White may swap instead of placing a stone: send swap as the move (Black's stone on {} \
         becomes a white stone on {}).",
        g.grid().name(black),
        g.grid().name(white)
    )]
}
