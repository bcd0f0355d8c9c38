//! A game-neutral picture of a position: the cells with their coordinates, tiles and pieces, the sides,
//! whose turn it is and the last move. [`super::GameState::board_view`] returns it. Limit's ASCII board
//! and SVG picture are drawn from it (both still assume hexagons: a square game would add its own
//! renderer of the same view). Colours are named here (CSS hex) so that a renderer that knows nothing
//! of the game can still paint it as the game means it to look. It serializes, for a front end that
//! wants the board as data (a JSON API); nothing in the server serializes it yet.
use serde::Serialize;

use super::{GameState, Outcome, Status};

/// How the cells' coordinates are to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Grid {
    /// Pointy-top hexagons in axial coordinates: `q` grows to the east, `r` downwards (to the
    /// south-east), so that the cell at `(q, r)` is drawn at column `2q + r` (in half cells) and row `r`.
    Hex,
    /// Squares: `q` is the column (growing to the east), `r` the row (growing downwards).
    Square,
}

/// One position of a game, as any renderer draws it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Board {
    /// How the coordinates of [`Cell`] and [`Spot`] are laid out.
    pub grid: Grid,
    /// The number of the move now awaited (as [`super::GameState::move_number`]).
    pub move_number: u32,
    /// Every cell the board shows, ordered by [`Cell::number`].
    pub cells: Vec<Cell>,
    /// The kinds of tile that lie on the board now, in the order a legend lists them; every
    /// [`Cell::tile`] names one of them.
    pub tiles: Vec<TileKind>,
    /// One entry a seat, in seat order: [`Cell::piece`] indexes this list.
    pub sides: Vec<SideInfo>,
    /// The seat to move; `None` once the game is over.
    pub to_move: Option<usize>,
    /// One line saying whose turn it is and what to do, or how the game ended.
    pub status: String,
    /// The last move a player made (the engine's automatic entries are skipped); `None` before any.
    pub last_move: Option<LastMove>,
}

/// One cell of the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The number players write in moves to name this cell.
    pub number: u32,
    /// The first coordinate (see [`Grid`]).
    pub q: i32,
    /// The second coordinate (see [`Grid`]).
    pub r: i32,
    /// The name of the tile on the cell (one of [`Board::tiles`]); `None` for a cell without one.
    pub tile: Option<String>,
    /// True for an empty cell where a piece or tile may be put now (a placement phase): renderers
    /// draw it as an outline.
    pub open: bool,
    /// The seat whose piece stands on the cell, if any.
    pub piece: Option<usize>,
    /// What the last move did here, if anything.
    pub mark: Option<Mark>,
}

/// What the last move did at a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Mark {
    /// A piece left this cell.
    From,
    /// A piece arrived on this cell.
    To,
}

/// A kind of tile, for the legend and the paint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TileKind {
    /// Its name, lowercase (`red`, `plain`); cells refer to it by this name.
    pub name: String,
    /// The letter the ASCII board shows on such a tile; `None` for a tile shown without one.
    pub letter: Option<char>,
    /// The fill colour (CSS hex).
    pub fill: String,
    /// The colour of text written on the tile (CSS hex).
    pub ink: String,
}

/// One seat's side: its name, its paint and its pieces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideInfo {
    /// The side's name as players read it (`Red`, `White`).
    pub name: String,
    /// The letter of the side's pieces on the ASCII board (`R`, `K` for black).
    pub letter: char,
    /// The pieces' fill colour (CSS hex).
    pub fill: String,
    /// The pieces' outline and letter colour (CSS hex).
    pub ring: String,
    /// Pieces on the board.
    pub on_board: u32,
    /// Pieces not (yet) on the board: in reserve.
    pub in_reserve: u32,
    /// False once the side is out of the game (resigned, eliminated, no pieces left).
    pub in_game: bool,
}

/// The last move, as the renderers mark it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LastMove {
    /// The seat that made it.
    pub seat: usize,
    /// The move in the game's notation.
    pub text: String,
    /// Where a piece moved from, if it moved.
    pub from: Option<Spot>,
    /// Where a piece moved to, if it moved.
    pub to: Option<Spot>,
    /// A cell the move emptied of its tile: it is no longer among [`Board::cells`].
    pub removed: Option<Spot>,
}

/// A cell's number and coordinates, for cells a move names (they may no longer be on the board).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Spot {
    /// The cell's number.
    pub number: u32,
    /// The first coordinate (see [`Grid`]).
    pub q: i32,
    /// The second coordinate (see [`Grid`]).
    pub r: i32,
}

impl Board {
    /// The board of a game that draws no cells: its sides, whose turn, a status line and the last
    /// move, read through [`GameState`] alone. [`GameState::board_view`] gives this unless the game
    /// draws its own.
    pub fn without_cells<S: GameState + ?Sized>(state: &S) -> Board {
        let names = state.seat_names();
        let name = |s: usize| names.get(s).cloned().unwrap_or_else(|| format!("Seat {s}"));
        let (to_move, status) = match state.status() {
            Status::ToMove(s) => (Some(s), format!("{} to move", name(s))),
            Status::Over(Outcome::Winner(s)) => (None, format!("{} wins", name(s))),
            Status::Over(Outcome::Draw(seats)) if seats.is_empty() => (None, "Game over".into()),
            Status::Over(Outcome::Draw(seats)) => {
                let names: Vec<String> = seats.iter().map(|&s| name(s)).collect();
                (None, format!("Draw between {}", names.join(" and ")))
            }
        };
        let last_move = state
            .moves()
            .into_iter()
            .rev()
            .find(|m| !m.auto)
            .map(|m| LastMove {
                seat: m.seat,
                text: m.text,
                from: None,
                to: None,
                removed: None,
            });
        Board {
            grid: Grid::Square,
            move_number: state.move_number(),
            cells: Vec::new(),
            tiles: Vec::new(),
            sides: names
                .iter()
                .map(|n| SideInfo {
                    name: n.clone(),
                    letter: n.chars().next().map_or('?', |c| c.to_ascii_uppercase()),
                    fill: "#FFFFFF".into(),
                    ring: "#222222".into(),
                    on_board: 0,
                    in_reserve: 0,
                    // The traits do not say who is out; every side is shown as playing.
                    in_game: true,
                })
                .collect(),
            to_move,
            status,
            last_move,
        }
    }

    /// The tile kind named `name`, if the board has it.
    pub fn tile(&self, name: &str) -> Option<&TileKind> {
        self.tiles.iter().find(|t| t.name == name)
    }

    /// The kind of the tile on `cell`, if it has one.
    pub fn tile_of(&self, cell: &Cell) -> Option<&TileKind> {
        cell.tile.as_deref().and_then(|n| self.tile(n))
    }

    /// The side of the piece on `cell`, if one stands there.
    pub fn piece_of(&self, cell: &Cell) -> Option<&SideInfo> {
        cell.piece.and_then(|s| self.sides.get(s))
    }

    /// The cell numbered `n`, if the board shows it.
    pub fn cell(&self, n: u32) -> Option<&Cell> {
        self.cells.iter().find(|c| c.number == n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        Board {
            grid: Grid::Square,
            move_number: 2,
            cells: vec![
                Cell {
                    number: 1,
                    q: 0,
                    r: 0,
                    tile: Some("light".into()),
                    open: false,
                    piece: Some(1),
                    mark: Some(Mark::To),
                },
                Cell {
                    number: 2,
                    q: 1,
                    r: 0,
                    tile: None,
                    open: true,
                    piece: None,
                    mark: None,
                },
            ],
            tiles: vec![TileKind {
                name: "light".into(),
                letter: Some('l'),
                fill: "#EEEEEE".into(),
                ink: "#000000".into(),
            }],
            sides: ["A", "B"]
                .iter()
                .map(|n| SideInfo {
                    name: n.to_string(),
                    letter: n.chars().next().unwrap(),
                    fill: "#FFFFFF".into(),
                    ring: "#000000".into(),
                    on_board: 1,
                    in_reserve: 0,
                    in_game: true,
                })
                .collect(),
            to_move: Some(0),
            status: "A to move".into(),
            last_move: None,
        }
    }

    #[test]
    fn lookups_follow_the_names_and_seats() {
        let b = board();
        let first = b.cell(1).unwrap();
        assert_eq!(b.tile_of(first).unwrap().letter, Some('l'));
        assert_eq!(b.piece_of(first).unwrap().name, "B");
        let open = b.cell(2).unwrap();
        assert!(b.tile_of(open).is_none() && b.piece_of(open).is_none());
        assert!(b.cell(3).is_none());
        assert!(b.tile("dark").is_none());
    }

    #[test]
    fn the_board_serializes_for_a_page_that_draws_it() {
        let v = serde_json::to_value(board()).unwrap();
        assert_eq!(v["grid"], "Square");
        assert_eq!(v["cells"][0]["tile"], "light");
        assert_eq!(v["cells"][0]["piece"], 1);
        assert_eq!(v["cells"][0]["mark"], "To");
        assert_eq!(v["cells"][1]["open"], true);
        assert_eq!(v["tiles"][0]["letter"], "l");
        assert_eq!(v["sides"][1]["name"], "B");
        assert_eq!(v["to_move"], 0);
        assert!(v["last_move"].is_null());
    }
}
