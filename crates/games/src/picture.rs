//! Board pictures (issue "See the board", item 2; issue 36 section 4): a game paints its board once
//! through a [`Painter`] (`GameState::paint`), which either writes the SVG the web pages show or fills the
//! shapes with tiny-skia at [`SCALE`] times the SVG's size for the mail's PNG: no SVG is read back.
//! The texts are the outlines of the font compiled into the binary (DejaVu Sans, crates/games/assets/fonts/,
//! `text`), so that the picture is the same on every machine whatever fonts it has; the pixels are
//! quantized to a palette (`indexed`) and written by the `png` crate.

use std::cell::Cell;

mod indexed;
pub mod paint;
#[cfg(test)]
pub(crate) mod same;
mod text;

pub use paint::{Painter, Step, Style};

/// The first eight bytes of every PNG file.
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// How many device pixels a picture has per SVG unit: a phone's screen has 2 or 3 pixels per CSS
/// pixel, and a 1x picture shown there is soft. The HTML shows the PNG at half its pixels: at its
/// SVG size, or 390 CSS pixels wide for a picture fitted to [`MAIL_WIDTH`].
pub const SCALE: u32 = 2;

/// The widest PNG a mail carries, in pixels: what a phone 390 CSS pixels wide (the common width)
/// at 2 device pixels each shows of a mail's width (issue 37, section 2): 390 less a mail app's
/// margins of 16 CSS pixels a side, 358 CSS pixels (headless Chromium at 390 x 2 shows our own HTML
/// part's picture 374 CSS pixels wide, with no app around it; docs/performance.md). A picture whose
/// SVG is wider than half of it is painted at fewer than [`SCALE`] pixels a unit to fit: more
/// pixels would be shrunk away on the phone and only weigh the mail.
pub const MAIL_WIDTH: u32 = 716;

/// The version of the painting, part of every picture's key ([`digest`]): a change to how a
/// position is painted that its SVG does not show (the painter, the fill, the PNG) moves it on,
/// so that pictures kept by an older binary are painted again rather than served.
pub const VERSION: u32 = 4;

/// The key of a position's mail picture: SHA-256 of [`VERSION`], [`SCALE`], [`MAIL_WIDTH`] and
/// the position's SVG (its painting written as text). Whatever changes the picture changes the key.
pub fn digest(svg: &str) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(VERSION.to_le_bytes());
    h.update(SCALE.to_le_bytes());
    h.update(MAIL_WIDTH.to_le_bytes());
    h.update(svg.as_bytes());
    h.finalize().into()
}

thread_local! {
    /// How many pictures this thread has painted as PNG: tests count them, by thread so that
    /// tests running at once do not count each other's.
    static DRAWN: Cell<u64> = const { Cell::new(0) };
}

/// How many pictures this process has painted as PNG (`PBEM_REPORT_RSS=1` prints it at exit).
static DRAWN_IN_PROCESS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many pictures this thread has painted as PNG since it started.
pub fn draws() -> u64 {
    DRAWN.with(Cell::get)
}

/// How many pictures this process has painted as PNG since it started.
pub fn draws_in_process() -> u64 {
    DRAWN_IN_PROCESS.load(std::sync::atomic::Ordering::Relaxed)
}

/// The SVG of what `paint` paints (a game's [`GameState::paint`](crate) for the web); `None` when
/// it paints nothing (`paint` returns false).
pub fn svg_of(paint: impl FnOnce(&mut dyn Painter) -> bool) -> Option<String> {
    let mut w = paint::SvgWriter::default();
    paint(&mut w).then(|| w.finish())
}

/// The PNG of what `paint` paints, for a mail: at [`SCALE`] times its SVG size, or [`MAIL_WIDTH`]
/// wide when that is narrower, painted straight onto the pixmap, no SVG written or read; `None`
/// when it paints nothing.
pub fn png_of(paint: impl FnOnce(&mut dyn Painter) -> bool) -> Option<Result<Vec<u8>, String>> {
    png_fitted(paint, MAIL_WIDTH as f32)
}

/// [`png_of`] fitted to `width` pixels at most.
pub(crate) fn png_fitted(
    paint: impl FnOnce(&mut dyn Painter) -> bool,
    width: f32,
) -> Option<Result<Vec<u8>, String>> {
    let mut filler = paint::Filler::new(SCALE as f32).fitting(width);
    if !paint(&mut filler) {
        return None;
    }
    DRAWN.with(|n| n.set(n.get() + 1));
    DRAWN_IN_PROCESS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let painted = filler.painted().to_vec();
    Some(filler.finish().and_then(|pixmap| encode(&pixmap, &painted)))
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
    let painted = filler.painted().to_vec();
    encode(&filler.finish()?, &painted)
}

/// A painted picture as a PNG: 4- or 8-bit indices into a palette (`indexed::quantize_small`,
/// `indexed::quantize`), deflated by flate2 on zlib-rs at level [`DEFLATE_LEVEL`] and written by the
/// `png` crate. (The `png` crate's own fast level, fdeflate, finds only runs: a Hex board's mail was
/// 116 KB with it against 67 KB; docs/performance.md.)
/// How hard the PNG's rows are deflated: level 4 on zlib-rs (its medium matcher with short
/// chains). A board mail is the picture for the most part, and players read it on phones (issue 37
/// section 2); the picture is painted once a position, and a fresh reply move pays for it (issue 35
/// item 2: 40 M instructions at most). On the fresh Hex 11 reply move (scripts/hex-reply-instructions.sh,
/// after the copies by spans and the rows written by runs): level 6 44.34 M instructions and an
/// 18,030 B board mail, 5 41.98 M and 18,342 B, 4 37.84 M and 19,872 B; level 1 makes the mail
/// 41.2 KB and 9 costs 97 M more for 1 KB less (docs/performance.md, "The PNG's deflate level",
/// "Under 40 M").
const DEFLATE_LEVEL: u32 = 4;

fn encode(pixmap: &tiny_skia::Pixmap, painted: &[u32]) -> Result<Vec<u8>, String> {
    use std::io::Write as _;
    let fail = |e: &dyn std::fmt::Display| format!("the board picture: {e}");
    let (width, height) = (pixmap.width(), pixmap.height());
    // Each row a filter byte, 0 (none: indices are names, not intensities), then its indices:
    // two to a byte at 4 bits, written so by `quantize_small`.
    let (palette, raw, depth) =
        match indexed::quantize_small(pixmap.data(), width as usize, painted) {
            Some((palette, rows)) => (palette, rows, ::png::BitDepth::Four),
            None => {
                let (palette, indices) = indexed::quantize(pixmap.data());
                let mut raw = Vec::with_capacity(indices.len() + height as usize);
                for row in indices.chunks(width as usize) {
                    raw.push(0);
                    raw.extend_from_slice(row);
                }
                (palette, raw, ::png::BitDepth::Eight)
            }
        };
    let mut z =
        flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(DEFLATE_LEVEL));
    z.write_all(&raw).map_err(|e| fail(&e))?;
    let idat = z.finish().map_err(|e| fail(&e))?;
    let mut out = Vec::with_capacity(idat.len() + palette.len() + 64);
    let mut e = ::png::Encoder::new(&mut out, width, height);
    e.set_color(::png::ColorType::Indexed);
    e.set_depth(depth);
    e.set_palette(palette);
    let mut w = e.write_header().map_err(|e| fail(&e))?;
    w.write_chunk(::png::chunk::IDAT, &idat)
        .map_err(|e| fail(&e))?;
    w.finish().map_err(|e| fail(&e))?;
    Ok(out)
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
    use crate::games::GameState;

    #[test]
    fn a_board_paints_to_a_png_at_twice_its_size_at_most_a_phone_s_width() {
        let g = crate::games::limit::new_game(Default::default(), 2, 7).unwrap();
        let before = draws();
        let png = png_of(|p| g.paint(p)).unwrap().unwrap();
        assert_eq!(draws(), before + 1);
        assert_eq!(&png[..8], PNG_SIGNATURE);
        // Base64 in the mail adds a third: the picture stays under 45 KB for a mail under 70 KB.
        assert!(
            png.len() > 5_000 && png.len() < 45_000,
            "{} bytes",
            png.len()
        );
        // A real PNG that another decoder reads, showing its background: the size-8 board is
        // 427 x 414 units, so twice that (854) is wider than a phone's 716 pixels, and the
        // picture is fitted to them, at the scale where half a cell's width (28 * sqrt 3 / 2
        // units, `Painter::grid`) is an even number of pixels: 40, 1.65 pixels a unit.
        let (width, height, rgb) = same::rgb(&png);
        let svg = svg_of(|p| g.paint(p)).unwrap();
        let size = |key: &str| -> u32 {
            let at = svg.find(&format!(" {key}=\"")).unwrap() + key.len() + 3;
            svg[at..].split('"').next().unwrap().parse().unwrap()
        };
        assert!(size("width") * SCALE > MAIL_WIDTH);
        let scale = 40.0 / (28.0 * 3f64.sqrt() / 2.0);
        let fitted = |units: u32| (f64::from(units) * scale).round() as u32;
        assert_eq!(
            (width, height),
            (fitted(size("width")), fitted(size("height")))
        );
        assert_eq!((width, height), (704, 683));
        assert_eq!(png_size(&png), Some((width, height)));
        assert_eq!(rgb[..3], [0xFA, 0xFA, 0xF5], "the background, top left");
        // A small board is painted at twice its size.
        let small = crate::games::limit::new_game(
            crate::games::limit::options::Config {
                size: 4,
                ..Default::default()
            },
            2,
            7,
        )
        .unwrap();
        let svg = svg_of(|p| small.paint(p)).unwrap();
        let size = |key: &str| -> u32 {
            let at = svg.find(&format!(" {key}=\"")).unwrap() + key.len() + 3;
            svg[at..].split('"').next().unwrap().parse().unwrap()
        };
        assert!(size("width") * SCALE <= MAIL_WIDTH);
        let small_png = png_of(|p| small.paint(p)).unwrap().unwrap();
        assert_eq!(
            png_size(&small_png),
            Some((size("width") * SCALE, size("height") * SCALE))
        );
        assert_eq!(png_size(b"GIF89a"), None);
        // Limit is painted with fewer than 16 colours: a 4-bit palette (IHDR's bit depth).
        assert_eq!(
            (png[24], png[25]),
            (4, 3),
            "bit depth 4, colour type 3 (palette)"
        );
    }
}
