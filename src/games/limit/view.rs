//! What the board renderer needs to know of a Limit position, and nothing more.
//!
//! The rules engine builds a [`BoardView`] from a position ([`super`]); [`super::render`] turns it into the
//! ASCII board. Keeping the two apart lets each be tested alone.

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

/// One cell of the plane that the board shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellView {
    /// The stable position number (rules section 2).
    pub number: u32,
    /// Axial column.
    pub q: i32,
    /// Axial row, growing downwards.
    pub r: i32,
    /// The tile on the cell; `None` for an empty cell where a tile may legally be laid now (placement
    /// phases only).
    pub tile: Option<TileColour>,
    /// The pawn (ball) standing on the tile, if any.
    pub pawn: Option<Side>,
}

/// Everything the ASCII board shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// Every tile on the board, and in a placement phase every empty cell where a tile may go now.
    pub cells: Vec<CellView>,
    /// The sides in turn order, with the number of pawns each has on the board and in the box.
    pub sides: Vec<SideView>,
    /// One line saying whose turn it is or how the game ended, e.g. `Red to move (movement phase)`.
    pub status: String,
}

/// One side, for the legend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideView {
    /// The side.
    pub side: Side,
    /// Pawns on the board.
    pub on_board: u32,
    /// Pawns not (yet) placed: in the box.
    pub in_box: u32,
    /// False once the side is out (no pawns, resigned, eliminated).
    pub in_game: bool,
}
