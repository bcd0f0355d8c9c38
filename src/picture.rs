//! Board pictures as PNG (issue "See the board", item 2): the game's SVG rendered by resvg, with the
//! font compiled into the binary (DejaVu Sans, assets/fonts/), so that the picture is the same on
//! every machine whatever fonts it has.

use std::cell::Cell;
use std::sync::{Arc, LazyLock, Mutex};

use resvg::{tiny_skia, usvg};

/// The one font the pictures use.
static FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

static FONTS: LazyLock<Arc<usvg::fontdb::Database>> = LazyLock::new(|| {
    let mut db = usvg::fontdb::Database::new();
    db.load_font_data(FONT.to_vec());
    db.set_sans_serif_family("DejaVu Sans");
    Arc::new(db)
});

/// The last pictures drawn, by their SVG: the board mails of one move (one to each player and
/// subscriber) show the same picture, drawn once, and a long-running server (`pbem lmtp`) draws a
/// board again for a chat or a spectator only once it has drawn [`REMEMBERED`] others since (the PNG
/// is about 21 KB at size 8, kept with its SVG text).
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

/// [`png`] without the memory: the picture at [`SCALE`] times its SVG size.
pub fn draw(svg: &str) -> Result<Vec<u8>, String> {
    DRAWN.with(|n| n.set(n.get() + 1));
    let options = usvg::Options {
        font_family: "DejaVu Sans".into(),
        fontdb: FONTS.clone(),
        ..usvg::Options::default()
    };
    let tree =
        usvg::Tree::from_str(svg, &options).map_err(|e| format!("the board picture: {e}"))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width() * SCALE, size.height() * SCALE);
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| "the board picture has no size".to_string())?;
    let scale = SCALE as f32;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    indexed_png(width, height, pixmap.data())
}

/// The width and height in pixels of a PNG, read from its header; `None` for bytes that are not a
/// PNG.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || &png[..8] != b"\x89PNG\r\n\x1a\n" || &png[12..16] != b"IHDR" {
        return None;
    }
    let word = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    Some((word(16), word(20)))
}

/// Encodes opaque RGBA pixels as an 8-bit paletted PNG: the board's few flat colours and the shades
/// of their anti-aliased edges fit a palette, which makes the picture about a quarter of a full-colour
/// PNG (a size-8 board 108 KB as RGBA, about 25 KB so), small enough for a mail. The exact colours are
/// kept when there are at most 256; otherwise each channel is rounded to six levels (216 colours),
/// which only shows at the edges.
fn indexed_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, String> {
    use std::collections::HashMap;
    let pixels: Vec<u32> = rgba
        .chunks_exact(4)
        .map(|p| u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2]))
        .collect();
    let round = |c: u32| {
        let q = |v: u32| (v + 25) / 51 * 51;
        q(c >> 16 & 0xFF) << 16 | q(c >> 8 & 0xFF) << 8 | q(c & 0xFF)
    };
    // Runs of one colour are the rule (flat tiles, background): the last colour seen is checked
    // before the map, which keeps the hashing to the edges.
    let index_all = |key: &dyn Fn(u32) -> u32, limit: Option<usize>| {
        let mut palette: HashMap<u32, u8> = HashMap::new();
        let mut indices = Vec::with_capacity(pixels.len());
        let mut last: Option<(u32, u8)> = None;
        for &p in &pixels {
            let k = key(p);
            let i = match last {
                Some((c, i)) if c == k => i,
                _ => {
                    let n = palette.len();
                    if limit.is_some_and(|l| n == l) && !palette.contains_key(&k) {
                        return None;
                    }
                    let i = *palette.entry(k).or_insert(n as u8);
                    last = Some((k, i));
                    i
                }
            };
            indices.push(i);
        }
        Some((palette, indices))
    };
    let (palette, indices) = match index_all(&|p| p, Some(256)) {
        Some(exact) => exact,
        None => index_all(&round, None).expect("216 colours at most"),
    };
    let mut colours = vec![0u8; palette.len() * 3];
    for (c, &i) in &palette {
        let at = usize::from(i) * 3;
        colours[at..at + 3].copy_from_slice(&[(c >> 16) as u8, (c >> 8) as u8, *c as u8]);
    }
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(colours);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder
            .write_header()
            .map_err(|e| format!("the board picture: {e}"))?;
        writer
            .write_image_data(&indices)
            .map_err(|e| format!("the board picture: {e}"))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_renders_to_a_png_with_its_text() {
        let g = crate::games::limit::Game::new(Default::default(), 2, 7).unwrap();
        let svg = crate::games::limit::svg::svg(&g);
        let png = draw(&svg).unwrap();
        assert_eq!(*super::png(&svg).unwrap(), png);
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // Base64 in the mail adds a third: the picture stays under 40 KB for a mail under 60 KB.
        assert!(
            png.len() > 5_000 && png.len() < 40_000,
            "{} bytes",
            png.len()
        );
        assert!(draw("<svg").is_err());
    }
}
