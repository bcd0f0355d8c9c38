//! Board pictures as PNG (issue "See the board", item 2): the game's SVG rendered by resvg, with the
//! font compiled into the binary (DejaVu Sans, assets/fonts/), so that the picture is the same on
//! every machine whatever fonts it has.

use std::cell::Cell;
use std::io::Write as _;
use std::sync::{Arc, LazyLock, Mutex};

use resvg::usvg;

mod canvas;

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

/// The parser's options: the compiled-in font.
fn options() -> usvg::Options<'static> {
    usvg::Options {
        font_family: "DejaVu Sans".into(),
        fontdb: FONTS.clone(),
        ..usvg::Options::default()
    }
}

/// [`png`] without the memory: the picture at [`SCALE`] times its SVG size, repainted from the
/// last drawing like it where there is one (`canvas`).
pub fn draw(svg: &str) -> Result<Vec<u8>, String> {
    DRAWN.with(|n| n.set(n.get() + 1));
    let pixmap = canvas::render(svg, &options())?;
    let (width, height) = (pixmap.width(), pixmap.height());
    indexed_png(width, height, pixmap.data())
}

/// [`draw`] from the SVG alone, every line parsed and painted, no drawing kept or used: what
/// [`draw`] must look like, and its cost before the shortcut (`examples/board_png.rs`).
pub fn draw_whole(svg: &str) -> Result<Vec<u8>, String> {
    let pixmap = canvas::whole(svg, &options())?;
    let (width, height) = (pixmap.width(), pixmap.height());
    indexed_png(width, height, pixmap.data())
}

/// Slots of [`index_pixels`]' colour table: a power of two, twice the most distinct colours kept.
const SLOTS: usize = 1 << 15;

/// How many of a picture's most frequent colours keep their exact value when it has more than 256
/// (the board's flat fills, its text and lines: a size-8 board has about 20); the rest, the
/// anti-aliased edges' blends, take the nearest of 216 colours (each channel a multiple of 51).
const EXACT: usize = 40;

/// The 216 colours of the rounded palette, in index order after the [`EXACT`] ones.
fn grid_index(c: u32) -> u8 {
    let level = |v: u32| (v + 25) / 51;
    (EXACT as u32 + level(c & 0xFF) * 36 + level(c >> 8 & 0xFF) * 6 + level(c >> 16 & 0xFF)) as u8
}

/// The palette of opaque RGBA pixels, as `0xBBGGRR`, and each pixel's index in it. Up to 256
/// colours are all kept exactly; past that the [`EXACT`] most frequent are, and the others are
/// rounded. Two passes (count, then index), each comparing a pixel with the one before it first:
/// runs of one colour are the rule (flat tiles, the background), and a new colour is looked up in an
/// open-addressing table with a multiplicative hash (std's SipHash map cost more than the rest of
/// the encoding at 2x).
///
/// The indices come as PNG rows of `width` pixels, each after its filter byte: 0 (none), since
/// palette indices are names, not intensities, and predicting one from its neighbour's number only
/// costs time.
fn index_pixels(rgba: &[u8], width: usize) -> (Vec<u32>, Vec<u8>) {
    let (pixels, _) = rgba.as_chunks::<4>();
    let colour = |p: &[u8; 4]| u32::from_le_bytes(*p) & 0x00FF_FFFF;
    // A slot holds a colour with bit 31 set (0: empty) and its count, later its index.
    let mut slots = vec![(0u32, 0u32); SLOTS];
    let slot_of = |slots: &[(u32, u32)], c: u32| {
        let key = c | 1 << 31;
        let mut at = (c.wrapping_mul(0x9E37_79B1) >> 17) as usize & (SLOTS - 1);
        while slots[at].0 != key && slots[at].0 != 0 {
            at = (at + 1) & (SLOTS - 1);
        }
        at
    };
    let mut distinct: Vec<u32> = Vec::new();
    let mut overflow = false;
    let mut count_run = |slots: &mut Vec<(u32, u32)>, c: u32, n: u32| {
        let at = slot_of(slots, c);
        if slots[at].0 == 0 {
            if distinct.len() >= SLOTS / 2 {
                overflow = true;
                return;
            }
            slots[at].0 = c | 1 << 31;
            distinct.push(c);
        }
        slots[at].1 += n;
    };
    let Some(first) = pixels.first() else {
        return (Vec::new(), Vec::new());
    };
    let (mut prev, mut n) = (colour(first), 0u32);
    for p in pixels {
        let c = colour(p);
        if c == prev {
            n += 1;
        } else {
            count_run(&mut slots, prev, n);
            (prev, n) = (c, 1);
        }
    }
    count_run(&mut slots, prev, n);
    // Each colour's index, kept in its slot; colours past the table's room are rounded.
    let mut palette: Vec<u32>;
    if distinct.len() <= 256 && !overflow {
        palette = distinct;
        for (i, &c) in palette.iter().enumerate() {
            let at = slot_of(&slots, c);
            slots[at].1 = i as u32;
        }
    } else {
        let mut by_count: Vec<(u32, u32)> = distinct
            .iter()
            .map(|&c| (slots[slot_of(&slots, c)].1, c))
            .collect();
        by_count.sort_unstable_by(|a, b| b.cmp(a));
        palette = by_count.iter().take(EXACT).map(|&(_, c)| c).collect();
        palette.resize(EXACT, 0);
        let q = |v: u32| v * 51;
        for r in 0..6 {
            for g in 0..6 {
                for b in 0..6 {
                    palette.push(q(r) | q(g) << 8 | q(b) << 16);
                }
            }
        }
        for (k, &(_, c)) in by_count.iter().enumerate() {
            let at = slot_of(&slots, c);
            slots[at].1 = if k < EXACT {
                k as u32
            } else {
                u32::from(grid_index(c))
            };
        }
    }
    let index_of = |c: u32| {
        let at = slot_of(&slots, c);
        if slots[at].0 == 0 {
            grid_index(c)
        } else {
            slots[at].1 as u8
        }
    };
    let width = width.max(1);
    let mut rows = vec![0u8; pixels.len() + pixels.len().div_ceil(width)];
    let (mut prev, mut i) = (colour(first), index_of(colour(first)));
    for (out, line) in rows.chunks_mut(width + 1).zip(pixels.chunks(width)) {
        for (o, p) in out[1..].iter_mut().zip(line) {
            let c = colour(p);
            if c != prev {
                (prev, i) = (c, index_of(c));
            }
            *o = i;
        }
    }
    (palette, rows)
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

/// Encodes opaque RGBA pixels as an 8-bit paletted PNG: the board's few flat colours and the shades
/// of their anti-aliased edges fit a palette, which makes the picture a fraction of a full-colour PNG
/// (a size-8 board at 1x was 108 KB as RGBA, 21 KB so), small enough for a mail. The exact colours
/// are kept when there are at most 256; otherwise the most frequent ones are, and the edges' blends
/// are rounded ([`index_pixels`]), which does not show. The file is written here (signature, header, palette,
/// one zlib stream, end), so that the compression level is ours to choose.
fn indexed_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, String> {
    let (palette, raw) = index_pixels(rgba, width as usize);
    let colours: Vec<u8> = palette
        .iter()
        .flat_map(|c| [*c as u8, (c >> 8) as u8, (c >> 16) as u8])
        .collect();
    // zlib at its fastest level: on these long runs of one index it makes the 2x picture about a
    // third smaller than the png crate's fastest (fdeflate) for about the same time.
    let mut z = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(raw.len() / 16),
        flate2::Compression::fast(),
    );
    let idat = z
        .write_all(&raw)
        .and_then(|()| z.finish())
        .map_err(|e| format!("the board picture: {e}"))?;
    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&width.to_be_bytes());
    header.extend_from_slice(&height.to_be_bytes());
    // 8 bits an index, colour type 3 (palette), deflate, no filter method but 0, no interlace.
    header.extend_from_slice(&[8, 3, 0, 0, 0]);
    let mut out = Vec::with_capacity(idat.len() + colours.len() + 64);
    out.extend_from_slice(PNG_SIGNATURE);
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"PLTE", &colours);
    chunk(&mut out, b"IDAT", &idat);
    chunk(&mut out, b"IEND", &[]);
    Ok(out)
}

/// The first eight bytes of every PNG file.
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Appends one PNG chunk: its length, type, data and the CRC of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    let len = u32::try_from(data.len()).expect("a chunk under 4 GiB");
    out.extend_from_slice(&len.to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_renders_to_a_png_at_twice_its_size() {
        let g = crate::games::limit::Game::new(Default::default(), 2, 7).unwrap();
        let svg = crate::games::limit::svg::svg(&g);
        let png = draw(&svg).unwrap();
        assert_eq!(*super::png(&svg).unwrap(), png);
        assert_eq!(&png[..8], PNG_SIGNATURE);
        // Base64 in the mail adds a third: the picture stays under 45 KB for a mail under 70 KB.
        assert!(
            png.len() > 5_000 && png.len() < 45_000,
            "{} bytes",
            png.len()
        );
        assert!(draw("<svg").is_err());
        // A real PNG that another decoder reads, at twice the SVG's size, showing its background.
        let mut decoder = ::png::Decoder::new(std::io::Cursor::new(&png));
        decoder.set_transformations(::png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        let tree = usvg::Tree::from_str(&svg, &usvg::Options::default()).unwrap();
        let size = tree.size().to_int_size();
        assert_eq!(
            (info.width, info.height),
            (size.width() * SCALE, size.height() * SCALE)
        );
        assert_eq!(png_size(&png), Some((info.width, info.height)));
        assert_eq!(info.color_type, ::png::ColorType::Rgb);
        assert_eq!(buf[..3], [0xFA, 0xFA, 0xF5], "the background, top left");
    }

    #[test]
    fn pixels_index_their_palette_exactly_or_rounded() {
        let px = |r: u8, g: u8, b: u8| [r, g, b, 255];
        let rgba = [px(1, 2, 3), px(1, 2, 3), px(200, 0, 9), px(1, 2, 3)].concat();
        let (palette, rows) = index_pixels(&rgba, 2);
        assert_eq!(palette, [0x03_02_01, 0x09_00_C8]);
        assert_eq!(
            rows,
            [0, 0, 0, 0, 1, 0],
            "two rows of two, each after its filter byte"
        );
        // 300 colours do not fit: the most frequent keep theirs, the others are rounded.
        let mut many: Vec<u8> = [px(0xFA, 0xFA, 0xF5); 50].concat();
        many.extend((0..300u32).flat_map(|i| [i as u8, (i >> 8) as u8, 7, 255]));
        let width = many.len() / 4;
        let (palette, rows) = index_pixels(&many, width);
        assert_eq!(rows[0], 0, "the filter byte");
        let indices = &rows[1..];
        assert_eq!(palette.len(), 256);
        assert_eq!(
            palette[usize::from(indices[0])],
            0xF5_FA_FA,
            "the background"
        );
        for (k, &i) in indices[50..].iter().enumerate() {
            let c = palette[usize::from(i)];
            let q = |v: u32| (v + 25) / 51 * 51;
            let (r, g) = (k as u32 & 0xFF, k as u32 >> 8);
            let exact = r | g << 8 | 7 << 16;
            let rounded = q(r) | q(g) << 8 | q(7) << 16;
            assert!(c == exact || c == rounded, "pixel {k}: {c:06x}");
        }
    }
}
