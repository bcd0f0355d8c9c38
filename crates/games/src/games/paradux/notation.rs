//! Moves as written (section 4.2): `c3~d4` a switch, `c3d4-c4d5` a pair move (the two sources, a
//! hyphen, the two destinations in the same order), the smaller cell first in the canonical form.
//! Input is case-insensitive, white space is ignored, and either order is read.

use super::rules::Move;
use crate::games::cellgrid::geometry::Geometry;

/// How moves are written, for the errors.
const HOW: &str = "write a switch as two neighbouring cells joined by ~ (c3~d4) and a pair move \
                   as the two cells the pieces leave, a hyphen, and the cells they go to in the \
                   same order (c3d4-c4d5: c3 to c4 and d4 to d5)";

/// The move as the canonical form writes it.
pub fn write(geo: &Geometry, mv: Move) -> String {
    match mv {
        Move::Switch(a, b) => format!("{}~{}", geo.name(a), geo.name(b)),
        Move::Pair { from, to } => format!(
            "{}{}-{}{}",
            geo.name(from[0]),
            geo.name(from[1]),
            geo.name(to[0]),
            geo.name(to[1])
        ),
    }
}

/// Lower case, no white space.
pub fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Refuses the words that are not moves but that players may try: a pass, a resignation.
fn not_a_move(t: &str) -> Result<(), String> {
    match t {
        "" => Err(format!("the move is empty: {HOW}")),
        "pass" | "0000" => Err(
            "you cannot pass: a player who has a move must make one, and the engine passes by \
             itself for a player who has none"
                .into(),
        ),
        "resign" => Err("resigning is a command of its own (resign), not a move".into()),
        _ => Ok(()),
    }
}

/// Exactly two cells, one after the other (`c3d4`).
fn two_cells(geo: &Geometry, part: &str, whole: &str) -> Result<(usize, usize), String> {
    let (a, rest) = geo
        .read_cell(part)
        .map_err(|e| format!("'{whole}': {e}: {HOW}"))?;
    if rest.is_empty() {
        return Err(format!(
            "'{whole}': a pair move names two cells on each side of the hyphen: {HOW}"
        ));
    }
    let (b, rest) = geo
        .read_cell(rest)
        .map_err(|e| format!("'{whole}': {e}: {HOW}"))?;
    if !rest.is_empty() {
        return Err(format!(
            "'{whole}': '{rest}' after the two cells {}{} is too much: {HOW}",
            geo.name(a),
            geo.name(b)
        ));
    }
    Ok((a, b))
}

/// Exactly one cell.
fn one_cell(geo: &Geometry, part: &str, whole: &str) -> Result<usize, String> {
    let (c, rest) = geo
        .read_cell(part)
        .map_err(|e| format!("'{whole}': {e}: {HOW}"))?;
    if !rest.is_empty() {
        return Err(format!(
            "'{whole}': a switch joins exactly two cells with ~: {HOW}"
        ));
    }
    Ok(c)
}

/// Reads a move on this board (its cells exist; whether it is legal is the rules' matter); the
/// error says what was wrong and how to write it.
pub fn read(geo: &Geometry, text: &str) -> Result<Move, String> {
    let t = normalise(text);
    not_a_move(&t)?;
    if let Some((a, b)) = t.split_once('~') {
        let (a, b) = (one_cell(geo, a, &t)?, one_cell(geo, b, &t)?);
        if a == b {
            return Err(format!("'{t}' switches a cell with itself: {HOW}"));
        }
        return Ok(Move::switch(a, b));
    }
    if let Some((from, to)) = t.split_once('-') {
        let (s1, s2) = two_cells(geo, from, &t)?;
        let (t1, t2) = two_cells(geo, to, &t)?;
        if s1 == s2 {
            return Err(format!(
                "'{t}' names the same cell twice before the hyphen: a pair is two pieces: {HOW}"
            ));
        }
        return Ok(Move::pair((s1, t1), (s2, t2)));
    }
    Err(format!("'{t}' is not a move: {HOW}"))
}

/// Checks only that `text` has the shape of a move on some board (a queued move is read before it
/// is played): `cell~cell` or `cellcell-cellcell`, a cell being a letter and a number.
pub fn check_shape(text: &str) -> Result<(), String> {
    let t = normalise(text);
    not_a_move(&t)?;
    // The number of cells in a part, if it is made of cells only.
    let cells = |part: &str| -> Option<usize> {
        let mut n = 0;
        let mut rest = part;
        while !rest.is_empty() {
            let mut chars = rest.chars();
            if !chars.next().is_some_and(|c| c.is_ascii_lowercase()) {
                return None;
            }
            let after = chars.as_str();
            let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits == 0 {
                return None;
            }
            rest = &after[digits..];
            n += 1;
        }
        Some(n)
    };
    let ok = match (t.split_once('~'), t.split_once('-')) {
        (Some((a, b)), None) => cells(a) == Some(1) && cells(b) == Some(1),
        (None, Some((a, b))) => cells(a) == Some(2) && cells(b) == Some(2),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("'{t}' is not a move: {HOW}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cellgrid::geometry::Shape;

    #[test]
    fn moves_read_in_either_order_and_write_canonically() {
        let g = Geometry::new(Shape::Hexagon, 4);
        for (text, canonical) in [
            ("c3~d4", "c3~d4"),
            ("D4~C3", "c3~d4"),
            (" c3 d4 - c4 d5 ", "c3d4-c4d5"),
            ("d4c3-d5c4", "c3d4-c4d5"),
            ("a1b1-b2c2", "a1b1-b2c2"),
            ("d5d4-d6d5", "d4d5-d5d6"),
        ] {
            let mv = read(&g, text).unwrap();
            assert_eq!(write(&g, mv), canonical, "{text}");
            assert_eq!(read(&g, canonical).unwrap(), mv);
            assert!(check_shape(text).is_ok(), "{text}");
        }
        // The pieces keep their own destinations whichever pair comes first.
        let at = |s: &str| g.read_cell(s).unwrap().0;
        assert_eq!(
            read(&g, "d4c3-d5c4").unwrap(),
            Move::Pair {
                from: [at("c3"), at("d4")],
                to: [at("c4"), at("d5")]
            }
        );
    }

    #[test]
    fn strings_that_are_not_moves_say_how_to_write_one() {
        let g = Geometry::new(Shape::Hexagon, 4);
        for (text, why) in [
            ("", "empty"),
            ("pass", "cannot pass"),
            ("resign", "command of its own"),
            ("c3", "not a move"),
            ("c3d4", "not a move"),
            ("c3~c3", "with itself"),
            ("c3~d4~e5", "exactly two cells"),
            ("c3d4-c4", "two cells on each side"),
            ("c3d4e5-c4d5e6", "'e5' after the two cells c3d4 is too much"),
            ("c3c3-c4c4", "same cell twice"),
            ("h1~a1", "no cell h1"),
            ("a5~a4", "no cell a5"),
            ("c3d4-c4d5-e6", "'-e6' after the two cells c4d5"),
        ] {
            let e = read(&g, text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
        for bad in ["c3", "c3~", "c3d4-c4", "c3~d4-e5", "3c~d4", "x"] {
            assert!(check_shape(bad).is_err(), "{bad}");
        }
        assert!(check_shape("f10g11-f11g12").is_ok());
    }
}
