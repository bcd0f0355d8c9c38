//! The ASCII board a player reads in a mail.
//!
//! Pointy-top hexagons are drawn edge to edge on a character grid, each cell six columns from wall to wall
//! and each row of cells three lines below the last, so that neighbouring cells share their edges and the
//! rows are shifted half a cell as on a real hex board:
//!
//! ```text
//!      / \   / \
//!     / 1 \ / 2 \
//!    | r B | b   |
//!   . \   / \   /
//!  . 4 \ / 3 \ /
//! :  +  | g R |
//!  .   . \   /
//!   . .   \ /
//! ```
//!
//! Inside a tile: its position number under the top corner, then its colour (lowercase) and the pawn on it
//! (uppercase): tile 1 is red with a blue pawn on it. An empty cell where a tile may be laid (4 here) is
//! drawn with dotted edges and a `+`.

use crate::games::board::{Board, Cell};

/// Width of a cell from wall to wall; a row is shifted by half of it.
const CELL_W: usize = 6;
/// Half a cell: the shift between rows, and the column step of the axial `2q + r`.
const HALF: usize = CELL_W / 2;
/// Lines from one row of cells to the next.
const ROW_H: usize = 3;
/// The mail width the board must keep to at the default size.
pub const MAIL_WIDTH: usize = 72;

/// Draws the board: a hex grid of numbered tiles, a legend and whose turn it is.
pub fn render(view: &Board) -> String {
    let mut out = String::new();
    let grid = draw_grid(view);
    let width = grid.iter().map(String::len).max().unwrap_or(0);
    for line in &grid {
        out.push_str(line);
        out.push('\n');
    }
    if grid.is_empty() {
        out.push_str("(No tiles on the board yet.)\n");
    }
    if width > MAIL_WIDTH {
        out.push_str(&format!(
            "(This board is {width} columns wide; nothing is cut, widen the window to see it whole.)\n"
        ));
    }
    out.push('\n');
    for line in legend(view) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(view.status.trim_end());
    out.push('\n');
    out
}

/// The hex grid alone, one string per line, without trailing spaces; empty for a board without cells.
fn draw_grid(board: &Board) -> Vec<String> {
    let cells = &board.cells;
    if cells.is_empty() {
        return Vec::new();
    }
    // Crop to the cells' bounding box: boards drift as tiles are removed.
    let min_x = cells.iter().map(|c| 2 * c.q + c.r).min().unwrap_or(0);
    let min_r = cells.iter().map(|c| c.r).min().unwrap_or(0);
    let max_x = cells.iter().map(|c| 2 * c.q + c.r).max().unwrap_or(0);
    let max_r = cells.iter().map(|c| c.r).max().unwrap_or(0);
    let width = (max_x - min_x) as usize * HALF + CELL_W + 1;
    let height = (max_r - min_r) as usize * ROW_H + ROW_H + 2;
    let mut canvas = Canvas::new(width, height);
    let origin = |c: &Cell| {
        (
            (2 * c.q + c.r - min_x) as usize * HALF,
            (c.r - min_r) as usize * ROW_H,
        )
    };
    // Candidate cells first, so that a tile's solid edge wins where the two meet.
    for cell in cells.iter().filter(|c| c.tile.is_none()) {
        let (x, y) = origin(cell);
        canvas.outline(x, y, '.', '.', ':');
        canvas.contents(x, y, board, cell);
    }
    for cell in cells.iter().filter(|c| c.tile.is_some()) {
        let (x, y) = origin(cell);
        canvas.outline(x, y, '/', '\\', '|');
        canvas.contents(x, y, board, cell);
    }
    canvas.into_lines()
}

/// A rectangle of characters to draw on.
struct Canvas {
    rows: Vec<Vec<char>>,
}

impl Canvas {
    fn new(width: usize, height: usize) -> Self {
        Canvas {
            rows: vec![vec![' '; width]; height],
        }
    }

    fn put(&mut self, x: usize, y: usize, ch: char) {
        self.rows[y][x] = ch;
    }

    fn text(&mut self, x: usize, y: usize, s: &str) {
        for (i, ch) in s.chars().enumerate() {
            self.put(x + i, y, ch);
        }
    }

    /// The six edges of the cell whose left wall is column `x` and whose top corner is on line `y`.
    /// `rise` is the character for edges going up to the right (`/`), `fall` for those going down (`\`).
    fn outline(&mut self, x: usize, y: usize, rise: char, fall: char, wall: char) {
        self.put(x + 2, y, rise);
        self.put(x + 4, y, fall);
        self.put(x + 1, y + 1, rise);
        self.put(x + 5, y + 1, fall);
        self.put(x, y + 2, wall);
        self.put(x + 6, y + 2, wall);
        self.put(x + 1, y + 3, fall);
        self.put(x + 5, y + 3, rise);
        self.put(x + 2, y + 4, fall);
        self.put(x + 4, y + 4, rise);
    }

    /// The number, colour and pawn inside the cell. A number of up to three digits sits under the top
    /// corner; a longer one (only on a board that wandered very far) takes the middle line instead, and
    /// colour and pawn move down.
    fn contents(&mut self, x: usize, y: usize, board: &Board, cell: &Cell) {
        let number = cell.number.to_string();
        let letter = board.tile_of(cell).and_then(|t| t.letter);
        let colour = match (letter, cell.open) {
            (Some(l), _) => l,
            (None, true) => '+',
            (None, false) => ' ',
        };
        let pawn = board.piece_of(cell).map_or(' ', |s| s.letter);
        // The pawn stands right of the tile's colour; on a tile without a letter (plain), or an empty
        // cell, in the middle.
        let (colour_at, pawn_at) = match letter {
            None => (3, 3),
            Some(_) => (2, 4),
        };
        let mid = if number.len() <= 3 {
            // The top corner is above column x + 3; one or two digits start there, three start before it.
            let start = if number.len() == 3 { x + 2 } else { x + 3 };
            self.text(start, y + 1, &number);
            y + 2
        } else {
            self.text(x + 1, y + 2, &format!("{number:^5}"));
            y + 3
        };
        self.put(x + colour_at, mid, colour);
        if pawn != ' ' {
            self.put(x + pawn_at, mid, pawn);
        }
    }

    fn into_lines(self) -> Vec<String> {
        self.rows
            .into_iter()
            .map(|row| row.into_iter().collect::<String>().trim_end().to_string())
            .collect()
    }
}

/// The key to the letters, and one line per side.
fn legend(view: &Board) -> Vec<String> {
    let mut lines = Vec::new();
    let names: Vec<String> = view
        .tiles
        .iter()
        .filter(|t| {
            view.cells
                .iter()
                .any(|c| c.tile.as_deref() == Some(&t.name))
        })
        .map(|t| match t.letter {
            Some(l) => format!("{l} = {}", t.name),
            None => t.name.clone(),
        })
        .collect();
    if !names.is_empty() {
        lines.push(format!("Tiles  {}", names.join(", ")));
    }
    if view.cells.iter().any(|c| c.open) {
        lines.push("Empty  + = a tile may be laid here".to_string());
    }
    for (i, s) in view.sides.iter().enumerate() {
        let head = if i == 0 { "Pawns" } else { "" };
        let out = if s.in_game { "" } else { ", out" };
        lines.push(format!(
            "{head:<5}  {} = {:<6} {} on the board, {} in the box{out}",
            s.letter, s.name, s.on_board, s.in_reserve
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::super::view::{Side, TileColour};
    use super::*;
    use crate::games::board::{Grid, SideInfo};
    use std::collections::HashMap;

    /// A cell as these tests write it: in Limit's own colours and sides.
    struct CellView {
        number: u32,
        q: i32,
        r: i32,
        tile: Option<TileColour>,
        pawn: Option<Side>,
    }

    /// A side for the legend.
    struct SideView {
        side: Side,
        on_board: u32,
        in_box: u32,
        in_game: bool,
    }

    /// A board as these tests write it; [`BoardView::board`] makes the neutral [`Board`] of it.
    struct BoardView {
        cells: Vec<CellView>,
        sides: Vec<SideView>,
        status: String,
    }

    impl BoardView {
        /// The neutral board: a pawn of a side not in `sides` gets a seat after the listed ones.
        fn board(&self) -> Board {
            let mut seats: Vec<Side> = self.sides.iter().map(|s| s.side).collect();
            for c in &self.cells {
                if let Some(p) = c.pawn.filter(|p| !seats.contains(p)) {
                    seats.push(p);
                }
            }
            let mut colours: Vec<TileColour> = self.cells.iter().filter_map(|c| c.tile).collect();
            colours.sort();
            colours.dedup();
            let cells = self
                .cells
                .iter()
                .map(|c| Cell {
                    number: c.number,
                    q: c.q,
                    r: c.r,
                    tile: c.tile.map(|t| t.name().to_string()),
                    open: c.tile.is_none(),
                    piece: c.pawn.and_then(|p| seats.iter().position(|&s| s == p)),
                    mark: None,
                })
                .collect();
            let sides = seats
                .iter()
                .map(|&side| {
                    let listed = self.sides.iter().find(|s| s.side == side);
                    SideInfo {
                        name: side.title().to_string(),
                        letter: side.letter(),
                        fill: "#FFFFFF".into(),
                        ring: "#000000".into(),
                        on_board: listed.map_or(0, |s| s.on_board),
                        in_reserve: listed.map_or(0, |s| s.in_box),
                        in_game: listed.is_some_and(|s| s.in_game),
                    }
                })
                .collect();
            Board {
                grid: Grid::Hex,
                move_number: 1,
                cells,
                tiles: colours
                    .into_iter()
                    .map(|t| crate::games::board::TileKind {
                        name: t.name().to_string(),
                        letter: t.letter(),
                        fill: "#FFFFFF".into(),
                        ink: "#000000".into(),
                    })
                    .collect(),
                sides,
                to_move: None,
                status: self.status.clone(),
                last_move: None,
            }
        }
    }

    /// Renders a board written in these tests' terms.
    fn render(view: &BoardView) -> String {
        super::render(&view.board())
    }

    /// The cell with position number `n` (rules section 2), for building boards by number.
    fn spiral(n: u32) -> (i32, i32) {
        if n == 1 {
            return (0, 0);
        }
        let n = n as i32;
        let mut k = 1;
        while 3 * k * (k + 1) + 1 < n {
            k += 1;
        }
        let mut i = n - (3 * k * (k - 1) + 2);
        let (mut q, mut r) = (k, 0);
        for (dq, dr) in [(-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0), (0, 1)] {
            let steps = i.min(k);
            q += dq * steps;
            r += dr * steps;
            i -= steps;
        }
        (q, r)
    }

    fn at(n: u32, tile: Option<TileColour>, pawn: Option<Side>) -> CellView {
        let (q, r) = spiral(n);
        CellView {
            number: n,
            q,
            r,
            tile,
            pawn,
        }
    }

    fn side(side: Side, on_board: u32, in_box: u32, in_game: bool) -> SideView {
        SideView {
            side,
            on_board,
            in_box,
            in_game,
        }
    }

    /// A colour for tile `n` that no neighbour shares on a full spiral board: the three-colouring of the
    /// hex grid, with black standing in on every other cell of one class.
    fn colour_of(n: u32) -> TileColour {
        let (q, r) = spiral(n);
        match (q - r).rem_euclid(3) {
            0 => TileColour::Red,
            1 => TileColour::Blue,
            _ if (q + r).rem_euclid(2) == 0 => TileColour::Green,
            _ => TileColour::Black,
        }
    }

    /// Every whole number in the grid part of a rendering (the lines before the first blank line), with
    /// the line and column where it starts.
    fn numbers_in_grid(text: &str) -> HashMap<u32, Vec<(usize, usize)>> {
        let mut found: HashMap<u32, Vec<(usize, usize)>> = HashMap::new();
        for (y, line) in text.lines().take_while(|l| !l.is_empty()).enumerate() {
            let bytes = line.as_bytes();
            let mut x = 0;
            while x < bytes.len() {
                if bytes[x].is_ascii_digit() {
                    let start = x;
                    while x < bytes.len() && bytes[x].is_ascii_digit() {
                        x += 1;
                    }
                    let n: u32 = line[start..x].parse().unwrap();
                    found.entry(n).or_default().push((y, start));
                } else {
                    x += 1;
                }
            }
        }
        found
    }

    /// The character at line `y`, column `x` of `text` (a space past the end of a line).
    fn char_at(text: &str, y: usize, x: usize) -> char {
        text.lines()
            .nth(y)
            .and_then(|l| l.chars().nth(x))
            .unwrap_or(' ')
    }

    fn full_board(count: u32) -> BoardView {
        let cells = (1..=count)
            .map(|n| at(n, Some(colour_of(n)), None))
            .collect();
        BoardView {
            cells,
            sides: vec![side(Side::Red, 8, 0, true), side(Side::Blue, 8, 0, true)],
            status: "Red to move (movement phase)".into(),
        }
    }

    const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1)];

    #[test]
    fn spiral_matches_the_rules_numbering() {
        assert_eq!(spiral(1), (0, 0));
        assert_eq!(spiral(2), (1, 0), "2 is east of 1");
        assert_eq!(spiral(3), (0, 1), "3 is south-east of 1");
        assert_eq!(spiral(7), (1, -1));
        assert_eq!(spiral(8), (2, 0), "ring 2 starts two steps east");
        assert_eq!(spiral(19), (2, -1));
        assert_eq!(spiral(38), (4, 0));
        assert_eq!(spiral(61), (4, -1));
    }

    #[test]
    fn neighbours_are_drawn_side_by_side_sharing_their_edges() {
        let view = full_board(61);
        let text = render(&view);
        let found = numbers_in_grid(&text);
        let by_coord: HashMap<(i32, i32), u32> =
            view.cells.iter().map(|c| ((c.q, c.r), c.number)).collect();
        let pos = |n: u32| {
            let p = &found[&n];
            assert_eq!(p.len(), 1, "number {n} appears {} times", p.len());
            // The left wall of the cell: one- and two-digit numbers start 3 columns in, three-digit 2.
            let (y, x) = p[0];
            (y as i64, x as i64 - if n >= 100 { 2 } else { 3 })
        };
        let mut pairs = 0;
        for c in &view.cells {
            let (y, x) = pos(c.number);
            for (dq, dr) in DIRECTIONS {
                let Some(&m) = by_coord.get(&(c.q + dq, c.r + dr)) else {
                    continue;
                };
                let (y2, x2) = pos(m);
                // A row down is 3 lines; each step of 2q + r is half a cell, 3 columns.
                assert_eq!(y2 - y, 3 * dr as i64, "rows of {} and {m}", c.number);
                assert_eq!(
                    x2 - x,
                    3 * (2 * dq + dr) as i64,
                    "columns of {} and {m}",
                    c.number
                );
                // The edge between them is drawn once, where both cells meet.
                let (ey, ex, edge) = match (dq, dr) {
                    (1, 0) => (y + 1, x + 6, '|'),
                    (-1, 0) => (y + 1, x, '|'),
                    (1, -1) => (y - 1, x + 4, '\\'),
                    (0, -1) => (y - 1, x + 2, '/'),
                    (0, 1) => (y + 2, x + 5, '/'),
                    _ => (y + 2, x + 1, '\\'),
                };
                assert_eq!(
                    char_at(&text, ey as usize, ex as usize),
                    edge,
                    "edge between {} and {m}",
                    c.number
                );
                pairs += 1;
            }
        }
        // A hexagon of radius R has 3R(3R + 1) inner edges, 156 for four rings; each is seen from both sides.
        assert_eq!(pairs, 2 * 156);
    }

    #[test]
    fn default_board_fits_a_mail_line() {
        // The widest default board: all 61 cells of four rings are at most as wide as any 32 of them.
        for view in [full_board(61), full_board(32)] {
            let text = render(&view);
            for line in text.lines() {
                assert!(line.len() <= MAIL_WIDTH, "{} columns: {line:?}", line.len());
            }
            assert!(!text.contains("nothing is cut"));
        }
        // 32 tiles spread over four rings: the east and west ends and the top and bottom rows.
        let mut cells: Vec<CellView> = (1..=24).map(|n| at(n, Some(colour_of(n)), None)).collect();
        for n in [38, 41, 44, 47, 50, 53, 56, 59] {
            cells.push(at(n, Some(colour_of(n)), Some(Side::Blue)));
        }
        assert_eq!(cells.len(), 32);
        let view = BoardView {
            cells,
            sides: vec![],
            status: "Blue to move".into(),
        };
        let text = render(&view);
        let widest = text.lines().map(str::len).max().unwrap();
        assert!(widest <= MAIL_WIDTH, "{widest} columns");
    }

    #[test]
    fn no_line_ends_in_a_space() {
        for view in [
            full_board(61),
            placement_view(),
            movement_view(),
            finished_view(),
        ] {
            let text = render(&view);
            for line in text.lines() {
                assert_eq!(line, line.trim_end(), "trailing space in {line:?}");
            }
        }
    }

    #[test]
    fn a_size_16_board_shows_every_number_once() {
        // 64 tiles and the 27 empty cells around the last ones, as in a manual placement at size 16.
        let mut view = full_board(64);
        for n in 65..=91 {
            view.cells.push(at(n, None, None));
        }
        for (i, c) in view.cells.iter_mut().take(64).enumerate() {
            c.pawn = [Some(Side::Red), Some(Side::Blue), Some(Side::Green), None][i % 4];
        }
        let text = render(&view);
        let found = numbers_in_grid(&text);
        for n in 1..=91 {
            assert_eq!(found.get(&n).map(Vec::len), Some(1), "number {n}");
        }
        assert_eq!(found.len(), 91, "no other number in the grid");
    }

    #[test]
    fn a_board_far_from_the_centre_is_cropped_and_wide_ones_say_so() {
        // A strip of tiles in ring 30 and beyond: four- and five-digit numbers, far from (0, 0).
        let cells: Vec<CellView> = (0..20)
            .map(|i| CellView {
                number: 9990 + i,
                q: 40 + i as i32,
                r: -60,
                tile: Some(TileColour::Plain),
                pawn: (i % 3 == 0).then_some(Side::White),
            })
            .collect();
        let view = BoardView {
            cells,
            sides: vec![],
            status: "White to move".into(),
        };
        let text = render(&view);
        let found = numbers_in_grid(&text);
        for i in 0..20 {
            assert_eq!(
                found.get(&(9990 + i)).map(Vec::len),
                Some(1),
                "{}",
                9990 + i
            );
        }
        let first = text.lines().next().unwrap();
        assert!(first.starts_with("  /"), "cropped to the left: {first:?}");
        assert!(text.contains("121 columns wide; nothing is cut"), "{text}");
    }

    #[test]
    fn candidates_look_unlike_tiles() {
        let view = placement_view();
        let text = render(&view);
        let found = numbers_in_grid(&text);
        // Cell 13 is empty, 1 is a tile: the line below the number holds `+` or the tile's letter.
        let (y, x) = found[&13][0];
        assert_eq!(char_at(&text, y + 1, x), '+');
        assert_eq!(char_at(&text, y + 1, x - 3), ':', "dotted wall");
        let (y, x) = found[&1][0];
        assert_eq!(char_at(&text, y + 1, x - 1), 'r');
        assert_eq!(char_at(&text, y + 1, x - 3), '|');
    }

    #[test]
    fn an_empty_board_says_so() {
        let view = BoardView {
            cells: vec![],
            sides: vec![side(Side::White, 0, 8, true)],
            status: "White to move".into(),
        };
        assert!(render(&view).starts_with("(No tiles on the board yet.)\n"));
    }

    /// Manual placement under the default rules, 14 tiles laid, with the cells where the 15th may go.
    fn placement_view() -> BoardView {
        use TileColour::*;
        let laid = [
            (1, Red),
            (2, Blue),
            (3, Green),
            (4, Black),
            (5, Blue),
            (6, Green),
            (7, Black),
            (8, Red),
            (9, Red),
            (10, Black),
            (11, Red),
            (12, Blue),
            (19, Red),
            (18, Blue),
        ];
        let mut cells: Vec<CellView> = laid.iter().map(|&(n, t)| at(n, Some(t), None)).collect();
        for n in [13, 17, 20, 21, 22, 23, 36, 37] {
            cells.push(at(n, None, None));
        }
        BoardView {
            cells,
            sides: vec![side(Side::Red, 0, 8, true), side(Side::Blue, 0, 8, true)],
            status: "Blue to move (placement: lay a tile, 18 left)".into(),
        }
    }

    /// The movement phase of a three-player game, some tiles gone, Green out.
    fn movement_view() -> BoardView {
        use Side::*;
        let pawns: HashMap<u32, Side> = [
            (1, Red),
            (3, Blue),
            (9, Red),
            (12, Blue),
            (15, Red),
            (20, Blue),
            (24, Red),
            (26, Blue),
            (33, Red),
        ]
        .into_iter()
        .collect();
        let cells = (1..=37)
            .filter(|n| ![5, 6, 14, 22, 27, 28, 29, 30, 31, 32].contains(n))
            .map(|n| at(n, Some(colour_of(n)), pawns.get(&n).copied()))
            .collect();
        BoardView {
            cells,
            sides: vec![
                side(Red, 5, 0, true),
                side(Blue, 4, 0, true),
                side(Green, 0, 0, false),
            ],
            status: "Blue to move (movement phase)".into(),
        }
    }

    /// A finished `-classic` game: plain tiles, White has won.
    fn finished_view() -> BoardView {
        let cells = [1, 2, 3, 4, 7, 8, 9, 10, 11, 20, 21]
            .into_iter()
            .map(|n| {
                let pawn = match n {
                    2 | 9 => Some(Side::White),
                    _ => None,
                };
                at(n, Some(TileColour::Plain), pawn)
            })
            .collect();
        BoardView {
            cells,
            sides: vec![
                side(Side::White, 2, 0, true),
                side(Side::Red, 0, 0, false),
                side(Side::Black, 0, 0, false),
            ],
            status: "Game over: White wins".into(),
        }
    }

    #[test]
    fn snapshot_placement() {
        insta::assert_snapshot!("placement", &render(&placement_view()),);
    }

    #[test]
    fn snapshot_movement() {
        insta::assert_snapshot!("movement", &render(&movement_view()),);
    }

    #[test]
    fn snapshot_finished_classic() {
        insta::assert_snapshot!("finished_classic", &render(&finished_view()),);
    }
}
