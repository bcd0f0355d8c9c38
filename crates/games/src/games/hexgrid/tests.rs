use super::*;

fn names(g: &Grid, cells: &[u16]) -> Vec<String> {
    let mut v: Vec<String> = cells.iter().map(|&i| g.name(i as usize)).collect();
    v.sort();
    v
}

#[test]
fn rhombus_neighbours_as_the_hex_page_says() {
    let g = Grid::rhombus(11);
    assert_eq!(g.len(), 121);
    let a1 = g.parse("a1").unwrap();
    assert_eq!(names(g, g.neighbours(a1)), ["a2", "b1"]);
    let b1 = g.parse("b1").unwrap();
    assert_eq!(names(g, g.neighbours(b1)), ["a1", "a2", "b2", "c1"]);
    let f6 = g.parse("f6").unwrap();
    assert_eq!(
        names(g, g.neighbours(f6)),
        ["e6", "e7", "f5", "f7", "g5", "g6"]
    );
    let b2 = g.parse("b2").unwrap();
    assert!(!g.neighbours(a1).contains(&(b2 as u16)));
}

#[test]
fn y_triangle_neighbours() {
    let g = Grid::new(4, 4, |c, r| c <= r, &Y_NEIGHBOURS, &[]);
    assert_eq!(g.len(), 10);
    let b2 = g.parse("b2").unwrap();
    assert_eq!(names(&g, g.neighbours(b2)), ["a1", "a2", "b3", "c3"]);
    assert!(g.parse("b1").is_err(), "b1 is outside the triangle");
}

#[test]
fn rhombus_sides_and_corners() {
    let g = Grid::rhombus(5);
    let side = |n: &str| g.sides(g.parse(n).unwrap());
    assert_eq!(side("a1"), TOP | LEFT);
    assert_eq!(side("e1"), TOP | RIGHT);
    assert_eq!(side("a5"), BOTTOM | LEFT);
    assert_eq!(side("e5"), BOTTOM | RIGHT);
    assert_eq!(side("c1"), TOP);
    assert_eq!(side("c3"), 0);
    assert_eq!(side("a3"), LEFT);
}

#[test]
fn names_round_trip_and_are_read_loosely() {
    let g = Grid::rhombus(19);
    for i in 0..g.len() {
        assert_eq!(g.parse(&g.name(i)), Ok(i));
        assert_eq!(g.parse(&g.name(i).to_uppercase()), Ok(i));
    }
    let c10 = g.parse("c10").unwrap();
    assert_eq!(g.coords(c10), (3, 10));
    assert_eq!(g.parse(" c 1 0 "), Ok(c10));
    assert_eq!(g.parse("c1 0"), Ok(c10));
    assert_eq!(g.parse("C10"), Ok(c10));
}

#[test]
fn bad_names_are_refused_with_a_reason() {
    let g = Grid::rhombus(11);
    assert_eq!(g.parse("c03"), Err(CellError::LeadingZero("c03".into())));
    assert!(g.parse("c03").unwrap_err().to_string().contains("write c3"));
    assert!(matches!(g.parse("aa1"), Err(CellError::Malformed(_))));
    assert!(matches!(g.parse("c"), Err(CellError::Malformed(_))));
    assert!(matches!(g.parse("3c"), Err(CellError::Malformed(_))));
    assert!(matches!(g.parse("c3x"), Err(CellError::Malformed(_))));
    assert_eq!(g.parse("  "), Err(CellError::Empty));
    assert_eq!(g.parse("l1"), Err(CellError::OffBoard("l1".into())));
    assert_eq!(g.parse("a12"), Err(CellError::OffBoard("a12".into())));
    assert_eq!(g.parse("a0"), Err(CellError::LeadingZero("a0".into())));
    assert!(
        g.parse("a99999999999")
            .unwrap_err()
            .to_string()
            .contains("not a cell")
    );
}

#[test]
fn chains_join_sides_incrementally() {
    let g = Grid::rhombus(3);
    let mut ch = Chains::new(g);
    let at = |n: &str| g.parse(n).unwrap();
    assert_eq!(ch.place(g, at("b1"), 1), TOP);
    assert_eq!(ch.place(g, at("b3"), 1), BOTTOM);
    assert!(!ch.connected(at("b1"), at("b3")));
    // a white stone between them does not join them
    assert_eq!(ch.place(g, at("a3"), 2), LEFT | BOTTOM);
    assert_eq!(ch.place(g, at("b2"), 1), TOP | BOTTOM);
    assert!(ch.connected(at("b1"), at("b3")));
    assert!(ch.joins(at("b3"), TOP | BOTTOM));
    assert!(!ch.joins(at("a3"), LEFT | RIGHT));
    assert!(ch.any_joins(1, TOP | BOTTOM));
    assert!(!ch.any_joins(2, LEFT | BOTTOM | RIGHT));
    assert_eq!(ch.empty_cells().count(), 5);
    let rebuilt = Chains::from_stones(g, ch.stones());
    for i in 0..g.len() {
        assert_eq!(rebuilt.chain_sides(i), ch.chain_sides(i));
    }
}

#[test]
fn a_full_random_board_has_exactly_one_hex_winner() {
    // The Hex property, checked through the chains: black joins top-bottom xor white joins left-right.
    let g = Grid::rhombus(7);
    let mut x: u64 = 12345;
    for _ in 0..200 {
        let mut ch = Chains::new(g);
        for cell in 0..g.len() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ch.place(g, cell, 1 + (x & 1) as u8);
        }
        assert_ne!(ch.any_joins(1, TOP | BOTTOM), ch.any_joins(2, LEFT | RIGHT));
    }
}
