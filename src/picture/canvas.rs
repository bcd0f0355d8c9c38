//! A picture drawn again from the last one like it (issue 25, section 3): between two moves of a
//! game most of the board is the same (the tiles, their numbers, the pawns that did not move), and
//! parsing it, shaping its texts and filling its shapes again was most of a picture's cost. So a
//! drawing is kept with its SVG's lines, and the next picture that shares most of them repaints
//! only the rectangles where lines came or went, from the new SVG's lines that touch them.
//!
//! Any SVG may come here: the shortcut is taken only for a document written one element a line
//! (`<svg ...>`, then each element whole on its line, then `</svg>`), which is checked by parsing
//! each line on its own (a line that is not whole elements does not parse so). Anything else, or
//! a change that cannot be placed (a changed line that draws nothing), is drawn whole.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use tiny_skia::Pixmap;

use super::indexed::{Area, Indexed};
use super::svg::{self, Drawing, Head};

/// A picture drawn, kept to draw the next one from.
struct Canvas {
    /// The document's first line, `<svg ...>`: its size, view box and inherited attributes.
    head: String,
    /// Its other lines, without the closing `</svg>`.
    lines: Vec<String>,
    /// Where each line draws on the pixmap, if it draws at all.
    areas: Vec<Option<Area>>,
    /// The picture, premultiplied RGBA at [`super::SCALE`].
    pixmap: Pixmap,
    /// The picture as a paletted PNG's rows, updated where the pixmap is.
    indexed: Indexed,
}

/// The last drawings: a long-running server draws the games that move in turn, and a game's next
/// position is drawn from its last one while that is among these. A size-8 board's drawing is
/// 3.5 MB (pixmap and indexed rows), a size-16 one about 11 MB. A drawing is taken out to be
/// repainted in place, and put back.
static CANVASES: LazyLock<Mutex<Vec<Canvas>>> = LazyLock::new(Mutex::default);

/// How many drawings [`CANVASES`] keeps.
const KEPT: usize = 8;

/// Device pixels added around a line's box: anti-aliasing reaches a pixel past the exact outline.
const BLEED: f32 = 2.0;

/// Pixels painted around a changed rectangle, so that its own edge is not where shapes are cut.
const MARGIN: u32 = 4;

/// Above this share of the picture's area to repaint, drawing it whole is as cheap.
const MOST: f32 = 0.5;

/// One line of a document parsed on its own (with the document's head), and where it draws.
struct Parsed {
    drawing: Drawing,
    area: Option<Area>,
}

/// Lines parsed on their own, by head and line: a repaint paints the lines around a change from
/// these, so that only a line never seen before is parsed (parsing, mostly laying out the texts'
/// glyphs, was most of a repaint's cost). A game's lines come back (a tile, a pawn on a cell, whose turn it
/// is), and so do other games' of the same size.
static LINES: LazyLock<Mutex<HashMap<String, Arc<Parsed>>>> = LazyLock::new(Mutex::default);

/// How many lines [`LINES`] holds before it is emptied (a size-8 board has about 80 lines, a few
/// KB each parsed).
const LINES_KEPT: usize = 2048;

/// The SVG as its head line and element lines, if it is written one element a line.
fn split(svg: &str) -> Option<(&str, Vec<&str>)> {
    let body = svg.strip_suffix('\n').unwrap_or(svg);
    let body = body.strip_suffix("</svg>")?;
    let (head, rest) = body.split_once('\n')?;
    if !head.starts_with("<svg") || !head.ends_with('>') || head.ends_with("/>") {
        return None;
    }
    let lines: Vec<&str> = rest.lines().filter(|l| !l.trim().is_empty()).collect();
    Some((head, lines))
}

/// Where a drawing paints on a `width` x `height` pixmap, if anywhere.
fn area_of(drawing: &Drawing, width: u32, height: u32) -> Option<Area> {
    let b = drawing.bounds()?;
    let clamp = |v: f32, max: u32| (v.max(0.0) as u32).min(max);
    let area = (
        clamp((b.left() - BLEED).floor(), width),
        clamp((b.top() - BLEED).floor(), height),
        clamp((b.right() + BLEED).ceil(), width),
        clamp((b.bottom() + BLEED).ceil(), height),
    );
    (area.0 < area.2 && area.1 < area.3).then_some(area)
}

/// Whether a line that draws nothing may change without a change to the picture.
fn silent(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("<title") || line.starts_with("<desc")
}

/// The smallest area holding both.
fn hull(a: Area, b: Area) -> Area {
    (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
}

/// Whether two areas share a pixel.
fn meets(a: Area, b: Area) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

thread_local! {
    /// How many pictures this thread repainted from a kept drawing: tests check that the shortcut
    /// was taken, not only that the pictures are right.
    static REPAINTED: Cell<u64> = const { Cell::new(0) };
}

/// How many pictures this thread has repainted from a kept drawing rather than drawn whole.
#[cfg(test)]
pub(super) fn repainted() -> u64 {
    REPAINTED.with(Cell::get)
}

#[cfg(test)]
thread_local! {
    /// The drawing behind this thread's last PNG: tests compare it with the picture drawn whole.
    static LAST: std::cell::RefCell<Option<Pixmap>> = const { std::cell::RefCell::new(None) };
}

/// Notes the drawing a PNG was made from, for the tests ([`LAST`]); nothing outside them.
fn shown(_pixmap: &Pixmap) {
    #[cfg(test)]
    LAST.with(|l| *l.borrow_mut() = Some(_pixmap.clone()));
}

/// Whether a line may be parsed and painted on its own: it neither defines nor refers to anything
/// another line could use (a gradient, a style sheet, a `<use>`).
fn standalone(line: &str) -> bool {
    ![
        "url(", "href", "<style", "<defs", "<use", "<symbol", "<clip", "<mask", "<marker",
        "<pattern", "<filter", "Gradient",
    ]
    .iter()
    .any(|w| line.contains(w))
}

/// The SVG's picture at [`super::SCALE`] as a PNG: repainted from a kept drawing that shares most
/// of its lines, or drawn whole (and kept) when there is none, or when the document is not one
/// standalone element a line (then nothing is kept).
pub(super) fn render(svg: &str) -> Result<Vec<u8>, String> {
    let drawn_whole = || -> Result<Vec<u8>, String> {
        let pixmap = whole(svg)?;
        shown(&pixmap);
        Ok(Indexed::of(&pixmap)?.png())
    };
    let Some((head, lines)) = split(svg).filter(|(_, lines)| lines.iter().all(|l| standalone(l)))
    else {
        return drawn_whole();
    };
    let Ok(parsed_head) = svg::parse_head(head) else {
        return drawn_whole();
    };
    // The drawing to repaint is taken out while it is: another thread drawing from it at the same
    // time draws whole.
    let base = {
        let mut kept = CANVASES.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter()
            .rposition(|c| c.head == head)
            .map(|at| kept.remove(at))
    };
    if let Some(mut base) = base {
        match repaint(&mut base, head, &parsed_head, &lines)? {
            Some(png) => {
                keep(base);
                return Ok(png);
            }
            None => keep(base),
        }
    }
    let mut pixmap = blank(&parsed_head)?;
    let mut areas = Vec::with_capacity(lines.len());
    for line in &lines {
        // Not one element a line: the document as it is, and its own error if it has one.
        let Some(p) = parsed(head, &parsed_head, line) else {
            return drawn_whole();
        };
        p.drawing.paint(&mut pixmap, 0.0, 0.0);
        areas.push(p.area);
    }
    let indexed = Indexed::of(&pixmap)?;
    let png = indexed.png();
    shown(&pixmap);
    keep(Canvas {
        head: head.to_string(),
        lines: lines.iter().map(|l| l.to_string()).collect(),
        areas,
        pixmap,
        indexed,
    });
    Ok(png)
}

/// The empty pixmap for a picture of this head, at [`super::SCALE`].
fn blank(head: &Head) -> Result<Pixmap, String> {
    let scale = super::SCALE as f32;
    Pixmap::new(
        (head.width * scale).ceil() as u32,
        (head.height * scale).ceil() as u32,
    )
    .ok_or_else(|| "the board picture has no size".to_string())
}

/// The SVG drawn whole, nothing kept.
pub(super) fn whole(svg: &str) -> Result<Pixmap, String> {
    let (head, drawing) = svg::parse(svg, super::SCALE as f32)?;
    let mut pixmap = blank(&head)?;
    drawing.paint(&mut pixmap, 0.0, 0.0);
    Ok(pixmap)
}

/// Keeps a drawing, in place of the oldest when [`KEPT`] are.
fn keep(canvas: Canvas) {
    let mut kept = CANVASES.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() >= KEPT {
        kept.remove(0);
    }
    kept.push(canvas);
}

/// `line` of a document whose first line is `head` (`parsed_head` read), parsed on its own
/// ([`LINES`]); `None` when it does not parse so.
fn parsed(head: &str, parsed_head: &Head, line: &str) -> Option<Arc<Parsed>> {
    let mut key = String::with_capacity(head.len() + line.len() + 1);
    key.push_str(head);
    key.push('\n');
    key.push_str(line);
    if let Some(p) = LINES.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Some(p.clone());
    }
    let drawing = svg::parse_line(parsed_head, line, super::SCALE as f32).ok()?;
    let scale = super::SCALE as f32;
    let (width, height) = (
        (parsed_head.width * scale).ceil() as u32,
        (parsed_head.height * scale).ceil() as u32,
    );
    let area = area_of(&drawing, width, height);
    let p = Arc::new(Parsed { drawing, area });
    let mut lines = LINES.lock().unwrap_or_else(|e| e.into_inner());
    if lines.len() >= LINES_KEPT {
        lines.clear();
    }
    lines.insert(key, p.clone());
    Some(p)
}

/// The new picture painted over `base` where lines changed, and its PNG; `Ok(None)`, `base`
/// untouched, when that cannot be done or would not be cheaper.
fn repaint(
    base: &mut Canvas,
    head: &str,
    parsed_head: &Head,
    lines: &[&str],
) -> Result<Option<Vec<u8>>, String> {
    let old: HashMap<&str, usize> = base
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i))
        .collect();
    if old.len() != base.lines.len() {
        return Ok(None);
    }
    // The lines both have must keep their order, or what lies over what would change.
    let mut last = None;
    let mut shared = 0;
    let mut areas: Vec<Option<Area>> = Vec::with_capacity(lines.len());
    let mut fresh = Vec::new();
    let mut seen = std::collections::HashSet::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if !seen.insert(*line) {
            return Ok(None);
        }
        match old.get(line) {
            Some(&k) => {
                if last.is_some_and(|j| j >= k) {
                    return Ok(None);
                }
                last = Some(k);
                shared += 1;
                areas.push(base.areas[k]);
            }
            None => {
                fresh.push(i);
                areas.push(None);
            }
        }
    }
    if shared * 2 < lines.len() {
        return Ok(None);
    }
    let mut dirty: Vec<Area> = Vec::new();
    for (k, line) in base.lines.iter().enumerate() {
        if !seen.contains(line.as_str()) {
            match base.areas[k] {
                Some(a) => dirty.push(a),
                None if silent(line) => {}
                None => return Ok(None),
            }
        }
    }
    let (width, height) = (base.pixmap.width(), base.pixmap.height());
    let mut trees: HashMap<usize, Arc<Parsed>> = HashMap::new();
    for &i in &fresh {
        let Some(p) = parsed(head, parsed_head, lines[i]) else {
            return Ok(None);
        };
        match p.area {
            Some(a) => {
                areas[i] = Some(a);
                dirty.push(a);
            }
            None if silent(lines[i]) => {}
            None => return Ok(None),
        }
        trees.insert(i, p);
    }
    let area: u64 = dirty
        .iter()
        .map(|a| u64::from(a.2 - a.0) * u64::from(a.3 - a.1))
        .sum();
    if area as f32 > MOST * (width as f32 * height as f32) {
        return Ok(None);
    }
    // Painted a little around each changed rectangle, the shapes that reach it cut at the part's
    // edge. Painting every such shape whole (each tile's neighbours, whose boxes overlap it) kept
    // the pixels the whole picture's to the byte but cost a third more painting; a
    // shape cut by the part's edge has its edges' anti-aliasing computed from the cut outline,
    // which moves an edge pixel by up to about 26 of 255 (a few dozen bytes a picture; the test
    // holds the bound).
    let around = |d: Area| {
        (
            d.0.saturating_sub(MARGIN),
            d.1.saturating_sub(MARGIN),
            (d.2 + MARGIN).min(width),
            (d.3 + MARGIN).min(height),
        )
    };
    let mut groups: Vec<(Area, Vec<Area>)> = dirty.iter().map(|&d| (around(d), vec![d])).collect();
    while let Some((i, j)) = (0..groups.len())
        .flat_map(|i| (i + 1..groups.len()).map(move |j| (i, j)))
        .find(|&(i, j)| meets(groups[i].0, groups[j].0))
    {
        let (u, ds) = groups.swap_remove(j);
        groups[i].0 = hull(groups[i].0, u);
        groups[i].1.extend(ds);
    }
    // Every line that reaches a group's changed rectangles, in the document's order, parsed on
    // its own: painted one after the other they give the pixels the document gives (the lines
    // are standalone, and the groups wrapping them paint straight onto the picture).
    let mut parts = Vec::with_capacity(groups.len());
    for &((x0, y0, x1, y1), ref ds) in &groups {
        let mut part = Pixmap::new(x1 - x0, y1 - y0)
            .ok_or_else(|| "the board picture: an empty area to repaint".to_string())?;
        for (i, line) in lines.iter().enumerate() {
            if !areas[i].is_some_and(|a| ds.iter().any(|&d| meets(a, d))) {
                continue;
            }
            let p = match trees.get(&i) {
                Some(p) => p.clone(),
                None => match parsed(head, parsed_head, line) {
                    Some(p) => p,
                    None => return Ok(None),
                },
            };
            p.drawing.paint(&mut part, -(x0 as f32), -(y0 as f32));
        }
        parts.push(part);
    }
    // Nothing failed: the drawing becomes the new picture.
    let stride = width as usize * 4;
    let data = base.pixmap.data_mut();
    for (((x0, y0, x1, _), ds), part) in groups.iter().zip(&parts) {
        let from = (x1 - x0) as usize * 4;
        for d in ds {
            for y in d.1..d.3 {
                let at = y as usize * stride;
                let src = (y - y0) as usize * from + (d.0 - x0) as usize * 4;
                let len = (d.2 - d.0) as usize * 4;
                data[at + d.0 as usize * 4..at + d.2 as usize * 4]
                    .copy_from_slice(&part.data()[src..src + len]);
            }
        }
    }
    // Each changed pixel indexed once: a rectangle inside another (a line gone and the line come
    // in its place often cover the same one) is left out.
    let mut changed: Vec<Area> = Vec::with_capacity(dirty.len());
    for (k, &d) in dirty.iter().enumerate() {
        let inside = |(j, &o): (usize, &Area)| {
            j != k && o.0 <= d.0 && o.1 <= d.1 && d.2 <= o.2 && d.3 <= o.3 && (o != d || j < k)
        };
        if !dirty.iter().enumerate().any(inside) {
            changed.push(d);
        }
    }
    if !base.indexed.update(base.pixmap.data(), &changed) {
        base.indexed = Indexed::of(&base.pixmap)?;
    }
    base.lines = lines.iter().map(|l| l.to_string()).collect();
    base.areas = areas;
    REPAINTED.with(|n| n.set(n.get() + 1));
    shown(&base.pixmap);
    Ok(Some(base.indexed.png()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameState;
    use crate::games::limit::{Config, Game};

    /// How many of a PNG's pixels show `drawing`'s colour rounded rather than exact; fails at
    /// a pixel that shows neither (the rounding of [`super::super::indexed`]: each channel to
    /// the nearest multiple of 51, for the blends at edges when there are more than 256 colours).
    fn rounded_pixels(png: &[u8], drawing: &Pixmap, what: &str) -> usize {
        let (w, h, rgb) = super::super::indexed::tests::decode(png);
        assert_eq!((w, h), (drawing.width(), drawing.height()), "{what}");
        let (pixels, _) = drawing.data().as_chunks::<4>();
        let mut rounded = 0;
        for (k, (got, want)) in rgb.as_chunks::<3>().0.iter().zip(pixels).enumerate() {
            if got[..] == want[..3] {
                continue;
            }
            let q = |v: u8| ((u32::from(v) + 25) / 51 * 51) as u8;
            assert_eq!(
                *got,
                [q(want[0]), q(want[1]), q(want[2])],
                "{what}: pixel {k} of the PNG is neither the drawing's colour nor its rounding"
            );
            rounded += 1;
        }
        rounded
    }

    /// Plays a game on with its first legal moves, checking that each position's drawing,
    /// repainted from the one before, is the drawing made whole but for a few edge pixels (at
    /// most 1 byte in 5,000, each by at most 40 of 255), and that its PNG shows the repainted
    /// drawing as the whole drawing's PNG shows it (each pixel exact, or an edge's blend
    /// rounded, and not many more rounded); returns how many positions had a capture marked.
    fn compare(cfg: Config, players: usize, moves: usize) -> usize {
        let mut g = Game::new(cfg, players, 7).unwrap();
        let (mut captures, before) = (0, repainted());
        for k in 0..moves {
            let svg = crate::games::limit::svg::svg(&g);
            captures += usize::from(svg.contains("class=\"captured\""));
            let whole = super::whole(&svg).unwrap();
            let png = super::super::draw(&svg).unwrap();
            let drawn = LAST.with(|l| l.borrow_mut().take()).unwrap();
            // The shapes cut at a repainted part's edge move a few edge pixels a little.
            let moved: Vec<u8> = drawn
                .data()
                .iter()
                .zip(whole.data())
                .map(|(a, b)| a.abs_diff(*b))
                .filter(|&d| d > 0)
                .collect();
            assert!(
                moved.iter().all(|&d| d <= 40) && moved.len() <= whole.data().len() / 5000,
                "move {k}: the repainted picture differs from the whole one in {} bytes, by up \
                 to {:?}",
                moved.len(),
                moved.iter().max()
            );
            let what = format!("move {k}");
            let rounded = rounded_pixels(&png, &drawn, &what);
            let as_whole = rounded_pixels(&super::super::draw_whole(&svg).unwrap(), &whole, &what);
            assert!(
                rounded <= as_whole + as_whole / 2 + 100,
                "{what}: {rounded} pixels rounded, {as_whole} in the PNG drawn whole"
            );
            let Some(mv) = GameState::legal_moves(&g).into_iter().next() else {
                break;
            };
            GameState::play(&mut g, &mv).unwrap();
        }
        assert!(
            repainted() - before >= moves as u64 / 2,
            "most positions repainted from the one before: {} of {moves}",
            repainted() - before
        );
        captures
    }

    #[test]
    fn a_repainted_picture_looks_as_the_picture_drawn_whole() {
        let captures = compare(Config::default(), 2, 30);
        assert!(captures > 0, "some position shows a capture");
        compare(Config::default(), 3, 12);
        let small = Config {
            size: 4,
            ..Config::default()
        };
        compare(small, 3, 10);
        let big = Config {
            size: 16,
            ..Config::default()
        };
        compare(big, 2, 8);
    }

    #[test]
    fn a_document_not_one_element_a_line_is_drawn_whole() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"10\">\n\
                   <rect width=\"20\"\nheight=\"10\" fill=\"#FF0000\"/>\n</svg>\n";
        let before = repainted();
        for _ in 0..2 {
            let png = super::super::draw(svg).unwrap();
            assert_eq!(super::super::png_size(&png), Some((40, 20)));
            assert!(png == super::super::draw_whole(svg).unwrap());
        }
        assert_eq!(repainted(), before, "nothing to repaint from");
        assert!(split("<svg/>").is_none());
    }
}
