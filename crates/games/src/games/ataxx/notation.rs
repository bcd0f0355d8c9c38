//! Moves as written (section 2): `g2` a clone, `a1c3` a jump, `0000` the engine's pass (never a move
//! of a player). Input is case-insensitive and every white-space character is ignored; a jump may
//! also be written with a hyphen between its cells (`a7-c5`), as players of other servers write it.

use super::rules::Move;
use crate::games::cellgrid::geometry::Geometry;

/// The move as the canonical form writes it.
pub fn write(geo: &Geometry, mv: Move) -> String {
    match mv {
        Move::Clone(to) => geo.name(to),
        Move::Jump(from, to) => format!("{}{}", geo.name(from), geo.name(to)),
    }
}

/// Lower case, no white space.
pub fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

const HOW: &str = "write a clone as its cell (g2) and a jump as its two cells (a1c3 or a1-c3)";

/// Reads a move on this board; the error says what was wrong and how to write it.
pub fn read(geo: &Geometry, text: &str) -> Result<Move, String> {
    let t = normalise(text);
    if t.is_empty() {
        return Err(format!("the move is empty: {HOW}"));
    }
    if t == "0000" || t == "pass" {
        return Err(
            "you cannot pass: a player who has a move must make one, and the engine passes by \
             itself for a player who has none"
                .into(),
        );
    }
    if t == "resign" {
        return Err("resigning is a command of its own (resign), not a move".into());
    }
    let (first, rest) = geo.read_cell(&t).map_err(|e| format!("{e}: {HOW}"))?;
    if rest.is_empty() {
        return Ok(Move::Clone(first));
    }
    // One hyphen may join the two cells of a jump; the canonical form has none.
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    if rest.is_empty() {
        return Err(format!(
            "'{t}' names one cell before the hyphen and none after: {HOW}"
        ));
    }
    let (second, rest) = geo.read_cell(rest).map_err(|e| format!("{e}: {HOW}"))?;
    if !rest.is_empty() {
        return Err(format!("'{t}' has more than two cells: {HOW}"));
    }
    Ok(Move::Jump(first, second))
}

/// Checks only that `text` has the shape of a move on some board (a queued move is read before its
/// board is known): one or two cells of a letter and a number.
pub fn check_shape(text: &str) -> Result<(), String> {
    let t = normalise(text);
    let t = match t.split_once('-') {
        Some((from, to)) if !from.is_empty() && !to.is_empty() => format!("{from}{to}"),
        _ => t,
    };
    let mut cells = 0;
    let mut rest = t.as_str();
    while !rest.is_empty() {
        let mut chars = rest.chars();
        if !chars.next().is_some_and(|c| c.is_ascii_lowercase()) {
            return Err(format!("'{t}' is not a move: {HOW}"));
        }
        let digits = chars.as_str().len()
            - chars
                .as_str()
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        if digits == 0 {
            return Err(format!("'{t}' is not a move: {HOW}"));
        }
        rest = &rest[1 + digits..];
        cells += 1;
    }
    if cells == 0 || cells > 2 {
        return Err(format!("'{t}' is not a move: {HOW}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cellgrid::geometry::Shape;

    #[test]
    fn moves_round_trip_in_any_case_and_spacing() {
        let g = Geometry::new(Shape::Square, 7);
        for text in ["g2", "a1c3", "G 2", " A1 c3 "] {
            let mv = read(&g, text).unwrap();
            assert_eq!(write(&g, mv), normalise(text));
            assert_eq!(read(&g, &write(&g, mv)).unwrap(), mv);
        }
        assert!(read(&g, "0000").unwrap_err().contains("cannot pass"));
        assert!(read(&g, "a1c3e5").unwrap_err().contains("more than two"));
        assert!(read(&g, "a01").is_err());
        assert!(read(&g, "z1").unwrap_err().contains("no cell z1"));
        let h = Geometry::new(Shape::Hexagon, 9);
        let mv = read(&h, "f10e9").unwrap();
        assert_eq!(write(&h, mv), "f10e9");
        assert!(check_shape("a1c3").is_ok() && check_shape("f10").is_ok());
        assert!(check_shape("a1c3e5").is_err() && check_shape("33").is_err());
    }

    #[test]
    fn a_jump_may_be_written_with_a_hyphen() {
        let g = Geometry::new(Shape::Square, 7);
        for text in ["a7-c5", "A7-C5", "a7 - c5"] {
            assert_eq!(read(&g, text), read(&g, "a7c5"), "{text}");
            assert!(check_shape(text).is_ok(), "{text}");
        }
        assert_eq!(write(&g, read(&g, "a7-c5").unwrap()), "a7c5");
        assert!(read(&g, "a7-").unwrap_err().contains("none after"));
        assert!(read(&g, "a7--c5").is_err() && check_shape("a7--c5").is_err());
        assert!(read(&g, "-a7").is_err() && check_shape("-a7c5").is_err());
    }
}
