//! Limit's tile colours and sides, and how a position becomes the game-neutral [`Board`] that the ASCII
//! board ([`super::render`]) and the picture ([`super::svg`]) are drawn from. Keeping the renderers on
//! [`Board`] lets each be tested alone, from boards built by hand.

use super::Game;
use super::game::SeatState;
use super::geom;
use super::notation::Move;
use crate::games::board::{Board, Cell, Grid, LastMove, Mark, SideInfo, Spot, TileKind};

/// The colour of a tile. The default rules use the four coloured tiles; `-classic` uses plain ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TileColour {
    /// A red tile (`r` in notation).
    Red,
    /// A blue tile (`b`).
    Blue,
    /// A green tile (`g`).
    Green,
    /// A black tile (`k`).
    Black,
    /// A plain tile (`-classic`).
    Plain,
}

impl TileColour {
    /// The lowercase colour name, as the move errors and the JSON document write it.
    pub fn name(self) -> &'static str {
        match self {
            TileColour::Red => "red",
            TileColour::Blue => "blue",
            TileColour::Green => "green",
            TileColour::Black => "black",
            TileColour::Plain => "plain",
        }
    }
}

/// A player's side: the colour of their pawns (balls).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Red: first player under the default rules, second under `-classic`.
    Red,
    /// Blue: second player under the default rules.
    Blue,
    /// Green: third player under the default rules.
    Green,
    /// White: first player under `-classic`.
    White,
    /// Black: third player under `-classic`.
    Black,
}

impl Side {
    /// The lowercase colour name used by `pbem engine limit status` (`red`, `white`, …).
    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Blue => "blue",
            Side::Green => "green",
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl TileColour {
    /// The letter the ASCII board shows on the tile (the notation letter); none on a plain tile.
    pub fn letter(self) -> Option<char> {
        match self {
            TileColour::Red => Some('r'),
            TileColour::Blue => Some('b'),
            TileColour::Green => Some('g'),
            TileColour::Black => Some('k'),
            TileColour::Plain => None,
        }
    }

    /// The tile's fill and the colour of the text on it: the Okabe-Ito palette, told apart by the
    /// common colour-blindnesses, except red: Okabe-Ito's vermillion reads as orange, and players
    /// call the tile red (issue 25), so it is a red as dark as the vermillion (the letter still
    /// tells it from green for a reader who cannot see the difference).
    fn paint(self) -> (&'static str, &'static str) {
        match self {
            TileColour::Red => ("#CC3333", "#FFFFFF"),
            TileColour::Blue => ("#0072B2", "#FFFFFF"),
            TileColour::Green => ("#009E73", "#FFFFFF"),
            TileColour::Black => ("#333333", "#FFFFFF"),
            TileColour::Plain => ("#E8DFC8", "#333333"),
        }
    }

    /// The kind of tile as the neutral board lists it.
    fn kind(self) -> TileKind {
        let (fill, ink) = self.paint();
        TileKind {
            name: self.name().to_string(),
            letter: self.letter(),
            fill: fill.to_string(),
            ink: ink.to_string(),
        }
    }
}

impl Side {
    /// The letter of the side's pawns: uppercase, `K` for black as in the tile notation.
    pub fn letter(self) -> char {
        match self {
            Side::Red => 'R',
            Side::Blue => 'B',
            Side::Green => 'G',
            Side::White => 'W',
            Side::Black => 'K',
        }
    }

    /// The side's name as players read it.
    pub fn title(self) -> &'static str {
        match self {
            Side::Red => "Red",
            Side::Blue => "Blue",
            Side::Green => "Green",
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    /// A pawn's fill and outline: light fills with a dark ring stand out on every tile colour.
    fn paint(self) -> (&'static str, &'static str) {
        match self {
            Side::Red => ("#FF9999", "#660000"),
            Side::Blue => ("#9CCBEF", "#003A5C"),
            Side::Green => ("#A6E3CF", "#00533D"),
            Side::White => ("#FFFFFF", "#222222"),
            Side::Black => ("#222222", "#FFFFFF"),
        }
    }
}

/// A position number with its coordinates.
fn spot(number: u32) -> Spot {
    let (q, r) = geom::axial(number);
    Spot { number, q, r }
}

/// The last move a player made (not the engine's `(Auto)` entries), with the cells it names.
fn last_move(g: &Game) -> Option<LastMove> {
    let rec = crate::games::GameState::moves(g)
        .into_iter()
        .rev()
        .find(|r| !r.auto)?;
    let (from, to, removed) = match Move::parse(&rec.text) {
        Ok((Move::Turn { from, to, remove }, _)) => (Some(from), Some(to), Some(remove)),
        Ok((Move::Step { from, to }, _)) => (Some(from), Some(to), None),
        Ok((Move::Remove { tile }, _)) => (None, None, Some(tile)),
        Ok((Move::Ball { at }, _)) | Ok((Move::Pair { ball: Some(at), .. }, _)) => {
            (None, Some(at), None)
        }
        _ => (None, None, None),
    };
    Some(LastMove {
        seat: rec.seat,
        text: rec.text.clone(),
        from: from.map(spot),
        to: to.map(spot),
        removed: removed.map(spot),
    })
}

impl Game {
    /// The position as the game-neutral board: every tile, and in a placement phase every empty cell
    /// where a tile may be laid now (`open`), ordered by position number.
    pub fn board_view(&self) -> Board {
        let b = self.board();
        let last = last_move(self);
        let mark = |n: u32| {
            let at = |s: &Option<Spot>| s.is_some_and(|s| s.number == n);
            match &last {
                Some(m) if at(&m.to) => Some(Mark::To),
                Some(m) if at(&m.from) => Some(Mark::From),
                _ => None,
            }
        };
        let mut cells: Vec<Cell> = super::board::bits(b.m.tiles)
            .map(|i| Cell {
                number: b.num[i],
                q: b.qr[i].0,
                r: b.qr[i].1,
                tile: Some(b.colour[i].name().to_string()),
                open: false,
                piece: b.m.owner(i),
                mark: mark(b.num[i]),
            })
            .collect();
        for n in self.open_cells() {
            let (q, r) = geom::axial(n);
            cells.push(Cell {
                number: n,
                q,
                r,
                tile: None,
                open: true,
                piece: None,
                mark: mark(n),
            });
        }
        cells.sort_by_key(|c| c.number);
        let mut colours: Vec<TileColour> =
            super::board::bits(b.m.tiles).map(|i| b.colour[i]).collect();
        colours.sort();
        colours.dedup();
        let sides = (0..self.players())
            .map(|s| {
                let side = self.side(s);
                let (fill, ring) = side.paint();
                SideInfo {
                    name: side.title().to_string(),
                    letter: side.letter(),
                    fill: fill.to_string(),
                    ring: ring.to_string(),
                    on_board: b.m.pawns[s].count_ones(),
                    in_reserve: self.in_box(s),
                    in_game: self.seat_state(s) == SeatState::In,
                }
            })
            .collect();
        Board {
            grid: Grid::Hex,
            move_number: crate::games::GameState::move_number(self),
            cells,
            tiles: colours.into_iter().map(TileColour::kind).collect(),
            sides,
            to_move: self.to_move(),
            status: self.status_line(),
            last_move: last,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::limit::{Config, render};
    use crate::games::{GameOption, GameState};

    fn game(words: &[&str], players: usize, seed: u64) -> Game {
        let opts: Vec<GameOption> = words
            .iter()
            .map(|w| GameOption::parse(w).unwrap())
            .collect();
        crate::games::limit::new_game(Config::from_options(&opts).unwrap(), players, seed).unwrap()
    }

    #[test]
    fn a_new_game_lists_every_tile_pawn_and_side() {
        let g = game(&[], 2, 7);
        let v = g.board_view();
        assert_eq!(v.cells.len(), 32, "size 8: 32 tiles");
        assert!(v.cells.iter().all(|c| c.tile.is_some() && !c.open));
        assert!(v.cells.windows(2).all(|w| w[0].number < w[1].number));
        assert!(v.cells.iter().all(|c| v.tile_of(c).is_some()));
        for (seat, name) in [(0, "Red"), (1, "Blue")] {
            let on = v.cells.iter().filter(|c| c.piece == Some(seat)).count();
            assert_eq!(on, 8, "{name}");
            assert_eq!(v.sides[seat].name, name);
            assert_eq!(v.sides[seat].on_board, 8);
        }
        assert_eq!(
            (v.to_move, v.move_number, v.last_move.clone()),
            (Some(0), 1, None)
        );
        assert!(v.cells.iter().all(|c| c.mark.is_none()));
        let names: Vec<&str> = v.tiles.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["red", "blue", "green", "black"], "legend order");
        // The cell coordinates are the rules' position numbers.
        for c in &v.cells {
            assert_eq!((c.q, c.r), geom::axial(c.number), "{}", c.number);
        }
    }

    #[test]
    fn the_last_move_is_marked_and_the_removed_tile_named() {
        let mut g = game(&[], 2, 7);
        let mv = GameState::legal_moves(&g)[0].clone();
        GameState::play(&mut g, &mv).unwrap();
        let Ok((Move::Turn { from, to, remove }, _)) = Move::parse(&mv) else {
            panic!("a movement turn: {mv}");
        };
        let v = g.board_view();
        assert_eq!(v.cells.len(), 31, "one tile removed");
        assert_eq!(v.to_move, Some(1));
        assert_eq!(v.move_number, 2);
        let last = v.last_move.clone().unwrap();
        assert_eq!((last.seat, last.text.as_str()), (0, mv.as_str()));
        assert_eq!(last.from.map(|s| s.number), Some(from));
        assert_eq!(last.to.map(|s| s.number), Some(to));
        assert_eq!(last.removed, Some(spot(remove)));
        assert!(
            v.cell(remove).is_none(),
            "the removed tile is off the board"
        );
        let arrived = v.cell(to).unwrap();
        assert_eq!((arrived.mark, arrived.piece), (Some(Mark::To), Some(0)));
        if let Some(left) = v.cell(from) {
            assert_eq!((left.mark, left.piece), (Some(Mark::From), None));
        }
        let marked = v.cells.iter().filter(|c| c.mark.is_some()).count();
        assert!(marked <= 2, "only the move's own cells are marked");
    }

    #[test]
    fn placement_shows_the_open_cells_and_a_finished_game_nobody_to_move() {
        let mut g = game(&["-manual"], 2, 1);
        let v = g.board_view();
        let open: Vec<u32> = v
            .cells
            .iter()
            .filter(|c| c.open)
            .map(|c| c.number)
            .collect();
        assert_eq!(open, g.open_cells());
        assert!(v.cells.iter().filter(|c| c.open).all(|c| c.tile.is_none()));
        assert_eq!(v.status, "Red to lay a tile (placement phase)");
        GameState::resign(&mut g, 0).unwrap();
        let v = g.board_view();
        assert_eq!(v.to_move, None);
        assert_eq!(v.status, "Blue wins");
        assert!(!v.sides[0].in_game && v.sides[1].in_game);
    }

    /// The ASCII board shows exactly the view: each cell's number once in the grid, each piece once as
    /// its side's letter, and the status as the last line.
    #[test]
    fn the_ascii_board_draws_the_view() {
        let mut g = game(&["-size=4"], 3, 11);
        for _ in 0..3 {
            let mv = GameState::legal_moves(&g)[0].clone();
            GameState::play(&mut g, &mv).unwrap();
        }
        let v = g.board_view();
        let text = render::render(&v);
        assert_eq!(text, GameState::render(&g));
        let grid: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
        for c in &v.cells {
            let n = c.number.to_string();
            let times: usize = grid
                .iter()
                .map(|l| {
                    l.split(|ch: char| !ch.is_ascii_digit())
                        .filter(|w| *w == n)
                        .count()
                })
                .sum();
            assert_eq!(times, 1, "cell {n}");
        }
        for (seat, side) in v.sides.iter().enumerate() {
            let pieces = v.cells.iter().filter(|c| c.piece == Some(seat)).count();
            let letters: usize = grid.iter().map(|l| l.matches(side.letter).count()).sum();
            assert_eq!(letters, pieces, "{}", side.name);
        }
        assert_eq!(text.lines().last(), Some(v.status.as_str()));
    }
}
