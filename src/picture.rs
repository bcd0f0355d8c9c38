//! Board pictures as PNG (issue "See the board", item 2): the game's SVG drawn by our own reader
//! of the SVG subset the games write (`svg`) onto tiny-skia, with the font compiled into the
//! binary (DejaVu Sans, assets/fonts/, `text`), so that the picture is the same on every machine
//! whatever fonts it has. (resvg drew them until issue 25, section 5: it and its text shaping
//! stack were a sixth of the first build's CPU.)

use std::cell::Cell;
use std::sync::{Arc, LazyLock, Mutex};

mod attributes;
mod canvas;
mod deflate;
mod indexed;
pub mod paint;
#[cfg(test)]
mod same;
mod svg;
mod text;
mod xml;

use indexed::PNG_SIGNATURE;
pub use paint::{Painter, Step, Style};

use crate::games::GameState;

/// The last pictures drawn, by their SVG: the board mails of one move (one to each player and
/// subscriber) show the same picture, drawn once, and a long-running server (`pbem lmtp`) draws a
/// board again for a chat or a spectator only once it has drawn [`REMEMBERED`] others since (the PNG
/// is about 40 KB at size 8, drawn at 2x, kept with its SVG text).
static RECENT: LazyLock<Mutex<Vec<Drawn>>> = LazyLock::new(Mutex::default);

/// How many pictures [`png`] remembers.
const REMEMBERED: usize = 32;

/// A picture drawn: its SVG and its PNG.
type Drawn = (String, Arc<Vec<u8>>);

/// How many device pixels a picture has per SVG unit: a phone's screen has 2 or 3 pixels per CSS
/// pixel, and a 1x picture shown there is soft. The HTML shows the PNG at its SVG size.
pub const SCALE: u32 = 2;

thread_local! {
    /// How many pictures this thread has drawn (not found in [`png`]'s memory): tests count them,
    /// by thread so that tests running at once do not count each other's.
    static DRAWN: Cell<u64> = const { Cell::new(0) };
}

/// How many pictures this thread has drawn since it started (a mail's pictures are drawn by the
/// thread that sends it).
pub fn draws() -> u64 {
    DRAWN.with(Cell::get)
}

/// Renders an SVG document to PNG bytes at its own size; a document among the last [`REMEMBERED`]
/// is not drawn again.
pub fn png(svg: &str) -> Result<Arc<Vec<u8>>, String> {
    let mut recent = RECENT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, png)) = recent.iter().find(|(s, _)| s == svg) {
        return Ok(png.clone());
    }
    drop(recent);
    let png = Arc::new(draw(svg)?);
    recent = RECENT.lock().unwrap_or_else(|e| e.into_inner());
    if recent.len() >= REMEMBERED {
        recent.remove(0);
    }
    recent.push((svg.to_string(), png.clone()));
    Ok(png)
}

/// [`png`] without the memory: the picture at [`SCALE`] times its SVG size, repainted from the
/// last drawing like it where there is one (`canvas`), as an 8-bit paletted PNG (`indexed`).
pub fn draw(svg: &str) -> Result<Vec<u8>, String> {
    DRAWN.with(|n| n.set(n.get() + 1));
    canvas::render(svg)
}

/// The SVG of a game's board for the web, written by its painting ([`GameState::paint`]); `None`
/// for a game that paints none.
pub fn svg_of(state: &(impl GameState + ?Sized)) -> Option<String> {
    let mut w = paint::SvgWriter::default();
    state.paint(&mut w).then(|| w.finish())
}

/// The PNG of a game's board for a mail, at [`SCALE`] times its SVG size: painted straight onto
/// the pixmap ([`GameState::paint`]), no SVG written or read; `None` for a game without a
/// picture. A game that does not paint yet is drawn from its SVG.
pub fn png_of(state: &(impl GameState + ?Sized)) -> Option<Result<Vec<u8>, String>> {
    let mut filler = paint::Filler::new(SCALE as f32);
    if !state.paint(&mut filler) {
        return state.svg().map(|svg| draw(&svg));
    }
    DRAWN.with(|n| n.set(n.get() + 1));
    Some(filler.finish().and_then(|pixmap| encode(&pixmap)))
}

/// The SVG of what `paint` paints.
pub fn svg_with(paint: impl FnOnce(&mut dyn Painter)) -> String {
    let mut w = paint::SvgWriter::default();
    paint(&mut w);
    w.finish()
}

/// The PNG of what `paint` paints, at [`SCALE`] times its size.
pub fn png_with(paint: impl FnOnce(&mut dyn Painter)) -> Result<Vec<u8>, String> {
    let mut filler = paint::Filler::new(SCALE as f32);
    paint(&mut filler);
    encode(&filler.finish()?)
}

/// A painted picture as a PNG.
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, String> {
    match std::env::var("PBEM_PNG_ENCODER").as_deref() {
        Ok("hand") => Ok(indexed::Indexed::of(pixmap)?.png()),
        Ok("rgb") => {
            let rgb: Vec<u8> = pixmap
                .data()
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect();
            write_png(pixmap.width(), pixmap.height(), None, &rgb)
        }
        Ok("indexed-default") => {
            let (palette, indices) = indexed::quantize(pixmap.data());
            write_png_with(
                pixmap.width(),
                pixmap.height(),
                Some(palette),
                &indices,
                ::png::Compression::Default,
            )
        }
        _ => {
            let (palette, indices) = indexed::quantize(pixmap.data());
            write_png(pixmap.width(), pixmap.height(), Some(palette), &indices)
        }
    }
}

fn write_png(
    width: u32,
    height: u32,
    palette: Option<Vec<u8>>,
    data: &[u8],
) -> Result<Vec<u8>, String> {
    write_png_with(width, height, palette, data, ::png::Compression::Fast)
}

fn write_png_with(
    width: u32,
    height: u32,
    palette: Option<Vec<u8>>,
    data: &[u8],
    c: ::png::Compression,
) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut e = ::png::Encoder::new(&mut out, width, height);
    e.set_depth(::png::BitDepth::Eight);
    e.set_compression(c);
    match palette {
        Some(p) => {
            e.set_color(::png::ColorType::Indexed);
            e.set_palette(p);
            e.set_filter(::png::FilterType::NoFilter);
        }
        None => {
            e.set_color(::png::ColorType::Rgb);
            e.set_filter(::png::FilterType::Sub);
        }
    }
    let mut w = e
        .write_header()
        .map_err(|e| format!("the board picture: {e}"))?;
    w.write_image_data(data)
        .map_err(|e| format!("the board picture: {e}"))?;
    drop(w);
    Ok(out)
}

/// [`draw`] from the SVG alone, every line parsed, painted, indexed and compressed, no drawing
/// kept or used: what [`draw`] must look like, and its cost before the shortcut
/// (`examples/board_png.rs`).
pub fn draw_whole(svg: &str) -> Result<Vec<u8>, String> {
    Ok(indexed::Indexed::of(&canvas::whole(svg)?)?.png())
}

/// The width and height in pixels of a PNG, read from its header; `None` for bytes that are not a
/// PNG.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || &png[..8] != PNG_SIGNATURE || &png[12..16] != b"IHDR" {
        return None;
    }
    let word = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    Some((word(16), word(20)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_renders_to_a_png_at_twice_its_size() {
        let g = crate::games::limit::Game::new(Default::default(), 2, 7).unwrap();
        let svg = crate::games::limit::svg::svg(&g);
        let png = draw(&svg).unwrap();
        assert_eq!(&png[..8], PNG_SIGNATURE);
        // Base64 in the mail adds a third: the picture stays under 45 KB for a mail under 70 KB.
        assert!(
            png.len() > 5_000 && png.len() < 45_000,
            "{} bytes",
            png.len()
        );
        assert!(draw("<svg").is_err());
        // A real PNG that another decoder reads, at twice the SVG's size, showing its background;
        // the remembered picture shows the same pixels (its bytes may differ: a picture
        // repainted from another keeps that one's palette).
        let (width, height, buf) = indexed::tests::decode(&png);
        assert_eq!(indexed::tests::decode(&super::png(&svg).unwrap()).2, buf);
        let head = svg::parse_head(svg.lines().next().unwrap()).unwrap();
        assert_eq!(
            (width, height),
            (head.width as u32 * SCALE, head.height as u32 * SCALE)
        );
        assert_eq!(png_size(&png), Some((width, height)));
        assert_eq!(buf[..3], [0xFA, 0xFA, 0xF5], "the background, top left");
    }
}
