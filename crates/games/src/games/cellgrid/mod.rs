//! Boards whose cells are bit sets, shared by the games played on them: Ataxx's square board and
//! the Abalone hexagon of Hexxagon and Paradux ([`geometry`]: names, neighbours and the cells at
//! distance 2, precomputed once a size), and the sets of up to 256 cells ([`bits`]). A game folder
//! imports these from here, not from another game's folder (issue 36, section 1).

pub mod bits;
pub mod geometry;
