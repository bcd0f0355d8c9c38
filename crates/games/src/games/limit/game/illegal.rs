//! Why a move is refused: [`IllegalMove`], whose every message says what is wrong and how to write it right.

use crate::games::RuleError;
use crate::games::limit::notation::ParseError;

/// Why a move is refused. Every message says what is wrong and, where it helps, how to write it right.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The text is not a move.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Nobody moves any more.
    #[error("the game is over: no more moves can be played")]
    GameOver,
    /// The move's form does not belong to this phase or this turn.
    #[error("{0}")]
    Form(String),
    /// No tile stands at the position.
    #[error("position {0} has no tile")]
    NotATile(u32),
    /// No pawn stands on the tile.
    #[error("there is no pawn on {0}")]
    NoPawn(u32),
    /// Another player's pawn.
    #[error("the pawn on {at} is {owner}, not yours")]
    NotYourPawn {
        /// Where.
        at: u32,
        /// Its colour.
        owner: String,
    },
    /// The destination holds a pawn.
    #[error("tile {0} is occupied: a pawn moves to an empty tile")]
    Occupied(u32),
    /// A move to the tile it starts on.
    #[error("the pawn must move to a different tile")]
    SameTile,
    /// No path of empty tiles.
    #[error(
        "the pawn on {from} cannot reach {to}: pawns move only by steps between adjacent empty tiles"
    )]
    NotReachable {
        /// Start.
        from: u32,
        /// Destination.
        to: u32,
    },
    /// The tile to remove is occupied.
    #[error("tile {0} has a pawn on it (after your pawn move): only an empty tile can be removed")]
    RemoveOccupied(u32),
    /// Too few free edges.
    #[error("tile {tile} has {has} free edge(s); a tile needs at least {need} to be removed")]
    FreeEdges {
        /// The tile.
        tile: u32,
        /// Its free edges.
        has: u32,
        /// The `-free_edges` value.
        need: u32,
    },
    /// `-no_isolate`.
    #[error(
        "removing tile {0} would cut off pawns from the rest of the board, which -no_isolate forbids"
    )]
    WouldIsolate(u32),
    /// `-can_isolate`, several parts with free pawns.
    #[error(
        "removing tile {0} would cut the board into parts of which more than one holds pawns with a freedom; -can_isolate allows a cut only when the pawns of all parts but one have no freedom"
    )]
    IsolateFree(u32),
    /// `-can_isolate`, no part with a free pawn.
    #[error(
        "removing tile {0} would cut the board into parts none of which keeps a pawn with a freedom"
    )]
    IsolateNone(u32),
    /// 5.5.
    #[error(
        "the first-move equaliser forbids this turn: it would capture, and {0}'s first turn may capture nothing"
    )]
    Equaliser(String),
    /// A tile is already there.
    #[error("position {0} already has a tile")]
    TileThere(u32),
    /// The first tile.
    #[error("the first tile is laid at position 1")]
    FirstAtOne,
    /// `-must_touch`.
    #[error("a tile at {at} would touch {touches} tile(s); it must touch at least {need}")]
    MustTouch {
        /// Where.
        at: u32,
        /// Tiles it would touch.
        touches: u32,
        /// Required.
        need: u32,
    },
    /// Two tiles of one colour side by side.
    #[error("a {colour} tile at {at} would touch another {colour} tile")]
    SameColour {
        /// The colour.
        colour: String,
        /// Where.
        at: u32,
    },
    /// The colour has run out.
    #[error("no {0} tiles are left")]
    NoTilesLeft(String),
    /// Two tiles that cannot be laid in either order.
    #[error(
        "tiles {a} and {b} cannot be laid in either order: each must touch at least {need} tile(s) when it is laid (the first of the two counts for the second)"
    )]
    PairOrder {
        /// One tile.
        a: u32,
        /// The other.
        b: u32,
        /// `-must_touch` (or 1 for the second tile of the game).
        need: u32,
    },
    /// A ball constraint of 4.3.
    #[error("a ball on {at} is not allowed: {why}")]
    Ball {
        /// Where.
        at: u32,
        /// Which constraint.
        why: String,
    },
    /// 4.3: the ball is compulsory.
    #[error("a ball must go with the two tiles whenever some pair of tiles admits one (e.g. {0})")]
    BallCompulsory(String),
    /// A seat already out cannot resign again.
    #[error("{0} is no longer in the game")]
    AlreadyOut(String),
}

impl From<IllegalMove> for RuleError {
    fn from(e: IllegalMove) -> Self {
        RuleError(e.to_string())
    }
}
