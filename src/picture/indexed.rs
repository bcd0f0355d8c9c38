//! A picture as an 8-bit paletted PNG, kept so that the next picture drawn over it pays only for
//! what changed (issue 25, section 3): the palette with each colour's index, the indexed rows, and
//! the rows compressed in bands of [`BAND`] rows, each band deflate blocks of its own that refer
//! to nothing before them ([`super::deflate`]), so that an unchanged band's bytes are reused as
//! they are. Indexing and compressing the whole 2x picture was 20 M instructions a picture, more than a
//! repaint's painting.

use super::deflate;

/// A rectangle of pixels: left, top, right, bottom (the last two past the end).
pub(super) type Area = (u32, u32, u32, u32);

/// Slots of the colour table: a power of two, twice the most distinct colours kept.
const SLOTS: usize = 1 << 15;

/// How many of a picture's most frequent colours keep their exact value when it has more than 256
/// (the board's flat fills, its text and lines: a size-8 board has about 20); the rest, the
/// anti-aliased edges' blends, take the nearest of 216 colours (each channel a multiple of 51).
const EXACT: usize = 40;

/// Exact slots a whole picture's palette leaves free for the fills that later pictures drawn over
/// it bring: the long straight edges make some blends frequent enough to count as fills.
const SPARE: usize = 8;

/// Rows a compressed band holds: a move's change touches a few bands of a picture of 700 to 900
/// rows, and starting a band afresh loses little (no repeat of the row above for its first row).
const BAND: usize = 16;

/// Pixels of one colour new to the palette above which a repaint indexes the whole picture again
/// rather than round that colour: the blends at a new edge are a few pixels each, a new fill is
/// hundreds and should keep its exact value.
const NEW_FILL: u32 = 48;

/// The 216 colours of the rounded palette, in index order after the [`EXACT`] ones.
fn grid_index(c: u32) -> u8 {
    let level = |v: u32| (v + 25) / 51;
    (EXACT as u32 + level(c & 0xFF) * 36 + level(c >> 8 & 0xFF) * 6 + level(c >> 16 & 0xFF)) as u8
}

/// An RGBA pixel's colour as `0xBBGGRR` (the pictures are opaque).
fn colour(p: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*p) & 0x00FF_FFFF
}

/// The colour table: open addressing with a multiplicative hash (std's SipHash map cost more than
/// the rest of the encoding at 2x). A slot holds a colour with bit 31 set (0: empty) and a count,
/// then an index.
struct Table(Vec<(u32, u32)>);

impl Table {
    fn new() -> Table {
        Table(vec![(0, 0); SLOTS])
    }

    fn slot(&self, c: u32) -> usize {
        let key = c | 1 << 31;
        let mut at = (c.wrapping_mul(0x9E37_79B1) >> 17) as usize & (SLOTS - 1);
        while self.0[at].0 != key && self.0[at].0 != 0 {
            at = (at + 1) & (SLOTS - 1);
        }
        at
    }

    /// The colour's index, if it has one.
    fn get(&self, c: u32) -> Option<u8> {
        let at = self.slot(c);
        (self.0[at].0 != 0).then_some(self.0[at].1 as u8)
    }
}

/// The palette of opaque RGBA pixels, as `0xBBGGRR`, with each colour's index, and how many of
/// its first [`EXACT`] colours are taken (`None`: all of it is exact). Up to 256 colours are all kept
/// exactly; past that the most frequent fills are, and the others are rounded.
/// Counted comparing a pixel with the one before it first: runs of one colour are the rule (flat
/// tiles, the background).
fn palette_of(pixels: &[[u8; 4]]) -> (Vec<u32>, Table, Option<usize>) {
    let mut table = Table::new();
    let mut distinct: Vec<u32> = Vec::new();
    let mut overflow = false;
    let mut count_run = |table: &mut Table, c: u32, n: u32| {
        let at = table.slot(c);
        if table.0[at].0 == 0 {
            if distinct.len() >= SLOTS / 2 {
                overflow = true;
                return;
            }
            table.0[at].0 = c | 1 << 31;
            distinct.push(c);
        }
        table.0[at].1 += n;
    };
    let Some(first) = pixels.first() else {
        return (Vec::new(), table, None);
    };
    let (mut prev, mut n) = (colour(first), 0u32);
    for p in pixels {
        let c = colour(p);
        if c == prev {
            n += 1;
        } else {
            count_run(&mut table, prev, n);
            (prev, n) = (c, 1);
        }
    }
    count_run(&mut table, prev, n);
    if distinct.len() <= 256 && !overflow {
        for (i, &c) in distinct.iter().enumerate() {
            let at = table.slot(c);
            table.0[at].1 = i as u32;
        }
        return (distinct, table, None);
    }
    let mut by_count: Vec<(u32, u32)> = distinct
        .iter()
        .map(|&c| (table.0[table.slot(c)].1, c))
        .collect();
    by_count.sort_unstable_by(|a, b| b.cmp(a));
    // Only a fill keeps its exact colour (more than [`NEW_FILL`] pixels): the slots left are for
    // the fills a later picture brings (a captured pawn's faded colour on a tile).
    let exact = by_count
        .iter()
        .take(EXACT - SPARE)
        .take_while(|&&(n, _)| n > NEW_FILL)
        .count();
    let mut palette: Vec<u32> = by_count[..exact].iter().map(|&(_, c)| c).collect();
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
        let at = table.slot(c);
        table.0[at].1 = if k < exact {
            k as u32
        } else {
            u32::from(grid_index(c))
        };
    }
    (palette, table, Some(exact))
}

/// Opaque RGBA pixels as a palette (`r, g, b` a colour) and one index a pixel: up to 256
/// colours kept exactly; past that the most frequent fills are, and the blends are rounded.
pub(super) fn quantize(rgba: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let (pixels, _) = rgba.as_chunks::<4>();
    let (palette, table, _) = palette_of(pixels);
    let index_of = |c: u32| table.get(c).unwrap_or_else(|| grid_index(c));
    let mut indices = Vec::with_capacity(pixels.len());
    let (mut prev, mut i) = (u32::MAX, 0);
    for p in pixels {
        let c = colour(p);
        if c != prev {
            (prev, i) = (c, index_of(c));
        }
        indices.push(i);
    }
    let colours = palette
        .iter()
        .flat_map(|c| [*c as u8, (c >> 8) as u8, (c >> 16) as u8])
        .collect();
    (colours, indices)
}

/// One band of rows, compressed: its deflate bytes and the Adler-32 of its raw rows.
struct Band {
    deflated: Vec<u8>,
    adler: u32,
}

/// A picture indexed and compressed, ready to be written as a PNG and to be updated in place.
pub(super) struct Indexed {
    width: usize,
    height: usize,
    /// The palette, as `0xBBGGRR`.
    palette: Vec<u32>,
    table: Table,
    /// Whether the palette is [`EXACT`] colours and the rounded grid (else every colour exact).
    rounded: bool,
    /// How many of the [`EXACT`] slots hold a colour, when `rounded`.
    exact: usize,
    /// The PNG rows: each a filter byte, 0 (none: palette indices are names, not intensities),
    /// then `width` indices.
    rows: Vec<u8>,
    bands: Vec<Band>,
}

impl Indexed {
    /// The picture of `width` x `height` RGBA pixels indexed and compressed whole.
    pub(super) fn new(rgba: &[u8], width: u32, height: u32) -> Result<Indexed, String> {
        let (width, height) = (width as usize, height as usize);
        let (pixels, _) = rgba.as_chunks::<4>();
        if width == 0 || height == 0 || pixels.len() != width * height {
            return Err("the board picture has no size".into());
        }
        let (palette, table, exact) = palette_of(pixels);
        let (rounded, exact) = (exact.is_some(), exact.unwrap_or(0));
        let mut me = Indexed {
            width,
            height,
            palette,
            table,
            rounded,
            exact,
            rows: vec![0; (width + 1) * height],
            bands: Vec::new(),
        };
        me.index(pixels, (0, 0, width as u32, height as u32));
        me.bands = (0..height.div_ceil(BAND)).map(|b| me.band(b)).collect();
        Ok(me)
    }

    /// [`Indexed::new`] of a pixmap (opaque: premultiplied is plain RGBA).
    pub(super) fn of(pixmap: &tiny_skia::Pixmap) -> Result<Indexed, String> {
        Indexed::new(pixmap.data(), pixmap.width(), pixmap.height())
    }

    /// The indices of the pixels in `area`, written into the rows.
    fn index(&mut self, pixels: &[[u8; 4]], (x0, y0, x1, y1): Area) {
        let (x0, x1) = (x0 as usize, x1 as usize);
        let Some(first) = pixels.get(y0 as usize * self.width + x0) else {
            return;
        };
        let index_of = |c: u32| self.table.get(c).unwrap_or_else(|| grid_index(c));
        let (mut prev, mut i) = (colour(first), index_of(colour(first)));
        for y in y0 as usize..y1 as usize {
            let line = &pixels[y * self.width + x0..y * self.width + x1];
            let at = y * (self.width + 1) + 1;
            for (o, p) in self.rows[at + x0..at + x1].iter_mut().zip(line) {
                let c = colour(p);
                if c != prev {
                    (prev, i) = (c, index_of(c));
                }
                *o = i;
            }
        }
    }

    /// Band `b`'s rows compressed on their own ([`deflate::band`]).
    fn band(&self, b: usize) -> Band {
        let row = self.width + 1;
        let raw = &self.rows[b * BAND * row..((b + 1) * BAND).min(self.height) * row];
        let mut deflated = Vec::with_capacity(raw.len() / 16 + 64);
        deflate::band(raw, row, &mut deflated);
        Band {
            deflated,
            adler: adler32(raw),
        }
    }

    /// Brings the picture up to `rgba`, which differs from the one it holds only in `areas`: their
    /// pixels indexed again and their bands compressed again. `false` (nothing changed) when that
    /// cannot be done exactly enough, and the picture is to be indexed whole: a size other than
    /// this one's, or a new colour that is more than an edge's blend (or past 256 exact ones).
    pub(super) fn update(&mut self, rgba: &[u8], areas: &[Area]) -> bool {
        let (pixels, _) = rgba.as_chunks::<4>();
        if pixels.len() != self.width * self.height
            || areas
                .iter()
                .any(|a| a.2 as usize > self.width || a.3 as usize > self.height)
        {
            return false;
        }
        // The colours not in the palette yet, with their counts: few, or it is indexed whole.
        let mut new: Vec<(u32, u32)> = Vec::new();
        for &(x0, y0, x1, y1) in areas {
            // The colour before, and its place in `new` if it is new.
            let mut prev: Option<(u32, Option<usize>)> = None;
            for y in y0 as usize..y1 as usize {
                for p in &pixels[y * self.width + x0 as usize..y * self.width + x1 as usize] {
                    let c = colour(p);
                    let at = match prev {
                        Some((k, at)) if k == c => at,
                        _ if self.table.get(c).is_some() => None,
                        _ => match new.iter().position(|&(k, _)| k == c) {
                            Some(at) => Some(at),
                            None if new.len() >= 1024 => return false,
                            None => {
                                new.push((c, 0));
                                Some(new.len() - 1)
                            }
                        },
                    };
                    if let Some(at) = at {
                        new[at].1 += 1;
                    }
                    prev = Some((c, at));
                }
            }
        }
        if self.rounded {
            // A new fill takes a free exact slot; the blends are rounded.
            for &(c, n) in &new {
                if n > NEW_FILL {
                    if self.exact == EXACT {
                        return false;
                    }
                    let at = self.table.slot(c);
                    self.table.0[at] = (c | 1 << 31, self.exact as u32);
                    self.palette[self.exact] = c;
                    self.exact += 1;
                }
            }
        } else {
            if self.palette.len() + new.len() > 256 {
                return false;
            }
            for (c, _) in new {
                let at = self.table.slot(c);
                self.table.0[at] = (c | 1 << 31, self.palette.len() as u32);
                self.palette.push(c);
            }
        }
        let mut touched = vec![false; self.bands.len()];
        for &area in areas {
            if area.0 < area.2 && area.1 < area.3 {
                self.index(pixels, area);
                let (from, to) = (area.1 as usize / BAND, (area.3 as usize - 1) / BAND);
                touched[from..=to].fill(true);
            }
        }
        for (b, t) in touched.into_iter().enumerate() {
            if t {
                self.bands[b] = self.band(b);
            }
        }
        true
    }

    /// The PNG file: signature, header, palette, one zlib stream of the bands, end.
    pub(super) fn png(&self) -> Vec<u8> {
        let colours: Vec<u8> = self
            .palette
            .iter()
            .flat_map(|c| [*c as u8, (c >> 8) as u8, (c >> 16) as u8])
            .collect();
        let deflated: usize = self.bands.iter().map(|b| b.deflated.len()).sum();
        // zlib's header (deflate, 32 KB window, fastest level), the bands, an empty final block,
        // the Adler-32 of all the rows.
        let mut idat = Vec::with_capacity(deflated + 8);
        idat.extend_from_slice(&[0x78, 0x01]);
        let mut adler = 1;
        for (b, band) in self.bands.iter().enumerate() {
            idat.extend_from_slice(&band.deflated);
            let rows = BAND.min(self.height - b * BAND);
            adler = adler32_combine(adler, band.adler, rows * (self.width + 1));
        }
        idat.extend_from_slice(&deflate::END);
        idat.extend_from_slice(&adler.to_be_bytes());
        let mut header = Vec::with_capacity(13);
        header.extend_from_slice(&(self.width as u32).to_be_bytes());
        header.extend_from_slice(&(self.height as u32).to_be_bytes());
        // 8 bits an index, colour type 3 (palette), deflate, no filter method but 0, no interlace.
        header.extend_from_slice(&[8, 3, 0, 0, 0]);
        let mut out = Vec::with_capacity(idat.len() + colours.len() + 64);
        out.extend_from_slice(PNG_SIGNATURE);
        chunk(&mut out, b"IHDR", &header);
        chunk(&mut out, b"PLTE", &colours);
        chunk(&mut out, b"IDAT", &idat);
        chunk(&mut out, b"IEND", &[]);
        out
    }
}

/// The modulus of Adler-32.
const ADLER: u32 = 65521;

/// The Adler-32 checksum of `data`, as zlib's stream ends with.
fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    // 5552 bytes is the most that can be summed before `b` could pass 2^32.
    for block in data.chunks(5552) {
        for &x in block {
            a += u32::from(x);
            b += a;
        }
        (a, b) = (a % ADLER, b % ADLER);
    }
    b << 16 | a
}

/// The Adler-32 of two pieces one after the other, from theirs and the second's length (what
/// zlib's `adler32_combine` computes): bands compressed apart still close one stream.
fn adler32_combine(first: u32, second: u32, len: usize) -> u32 {
    let rem = (len % ADLER as usize) as u32;
    let a1 = first & 0xFFFF;
    let b1 = first >> 16;
    let (a2, b2) = (second & 0xFFFF, second >> 16);
    let a = (a1 + a2 + ADLER - 1) % ADLER;
    let b = ((rem * a1) % ADLER + b1 + b2 + ADLER - rem) % ADLER;
    b << 16 | a
}

/// The first eight bytes of every PNG file.
pub(super) const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

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
pub(super) mod tests {
    use super::*;
    use std::io::{Read as _, Write as _};

    /// The RGB pixels a PNG decodes to, with its size.
    pub(in crate::picture) fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut decoder = ::png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(::png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, ::png::ColorType::Rgb);
        (info.width, info.height, buf)
    }

    /// The zlib stream of a PNG's single IDAT chunk, inflated by flate2, which checks its Adler-32.
    fn inflate_idat(png: &[u8]) -> Vec<u8> {
        let at = png.windows(4).position(|w| w == b"IDAT").unwrap();
        let len = u32::from_be_bytes(png[at - 4..at].try_into().unwrap()) as usize;
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(&png[at + 4..at + 4 + len])
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn adler32_and_its_combination_are_zlibs() {
        let data: Vec<u8> = (0..70_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(&data).unwrap();
        let stream = z.finish().unwrap();
        let zlib = u32::from_be_bytes(stream[stream.len() - 4..].try_into().unwrap());
        assert_eq!(adler32(&data), zlib);
        for cut in [0, 1, 5552, 65521, 69_999] {
            let (a, b) = data.split_at(cut);
            assert_eq!(
                adler32_combine(adler32(a), adler32(b), b.len()),
                zlib,
                "{cut}"
            );
        }
    }

    #[test]
    fn pixels_index_their_palette_exactly_or_rounded() {
        let px = |r: u8, g: u8, b: u8| [r, g, b, 255];
        let rgba = [px(1, 2, 3), px(1, 2, 3), px(200, 0, 9), px(1, 2, 3)].concat();
        let picture = Indexed::new(&rgba, 2, 2).unwrap();
        assert_eq!(picture.palette, [0x03_02_01, 0x09_00_C8]);
        assert_eq!(
            picture.rows,
            [0, 0, 0, 0, 1, 0],
            "two rows of two, each after its filter byte"
        );
        assert_eq!(inflate_idat(&picture.png()), picture.rows);
        // 300 colours do not fit: the most frequent keep theirs, the others are rounded.
        let mut many: Vec<u8> = [px(0xFA, 0xFA, 0xF5); 50].concat();
        many.extend((0..300u32).flat_map(|i| [i as u8, (i >> 8) as u8, 7, 255]));
        let width = many.len() as u32 / 4;
        let picture = Indexed::new(&many, width, 1).unwrap();
        let (palette, rows) = (&picture.palette, &picture.rows);
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

    #[test]
    fn an_update_gives_the_png_of_the_new_pixels() {
        // 40 rows of 30 (three bands), two colours; then a square of new colours in the middle
        // band and the last row changed.
        let (w, h) = (30u32, 40u32);
        let mut rgba: Vec<u8> = (0..w * h)
            .flat_map(|i| {
                if i % 7 == 0 {
                    [9, 9, 9, 255]
                } else {
                    [250, 250, 245, 255]
                }
            })
            .collect();
        let mut picture = Indexed::new(&rgba, w, h).unwrap();
        let before = picture.png();
        assert_eq!(inflate_idat(&before), picture.rows);
        let paint = |rgba: &mut Vec<u8>, (x0, y0, x1, y1): Area, c: [u8; 4]| {
            for y in y0..y1 {
                for x in x0..x1 {
                    let at = ((y * w + x) * 4) as usize;
                    rgba[at..at + 4].copy_from_slice(&c);
                }
            }
        };
        let areas = [(5, 18, 9, 22), (0, 39, 30, 40)];
        paint(&mut rgba, areas[0], [200, 10, 10, 255]);
        paint(&mut rgba, areas[1], [10, 10, 200, 255]);
        assert!(picture.update(&rgba, &areas));
        let after = picture.png();
        assert_eq!(
            inflate_idat(&after),
            Indexed::new(&rgba, w, h).unwrap().rows
        );
        let (dw, dh, rgb) = decode(&after);
        assert_eq!((dw, dh), (w, h));
        let want: Vec<u8> = rgba
            .as_chunks::<4>()
            .0
            .iter()
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        assert!(rgb == want, "the updated PNG shows the new pixels");
        // Another size is not an update.
        assert!(!picture.update(&rgba[..4 * 30], &[]));
    }

    #[test]
    fn a_new_fill_keeps_its_colour_and_a_new_blend_is_rounded() {
        // 64 x 32: a background, and 300 shades (more than a palette holds) in the first rows.
        let (w, h) = (64u32, 32u32);
        let mut rgba: Vec<u8> = (0..w * h)
            .flat_map(|i| match i {
                0..300 => [i as u8, (i >> 8) as u8, 99, 255],
                _ => [250, 250, 245, 255],
            })
            .collect();
        let mut picture = Indexed::new(&rgba, w, h).unwrap();
        assert!(picture.rounded);
        // A new fill of 10 x 10 pixels and a new blend of one pixel.
        for y in 20..30 {
            for x in 20..30 {
                let at = ((y * w + x) * 4) as usize;
                rgba[at..at + 4].copy_from_slice(&[12, 34, 56, 255]);
            }
        }
        let blend = ((31 * w + 60) * 4) as usize;
        rgba[blend..blend + 4].copy_from_slice(&[1, 2, 3, 255]);
        assert!(picture.update(&rgba, &[(20, 20, 30, 30), (60, 31, 61, 32)]));
        let (_, _, rgb) = decode(&picture.png());
        let at = |x: u32, y: u32| ((y * w + x) * 3) as usize;
        assert_eq!(
            rgb[at(25, 25)..at(25, 25) + 3],
            [12, 34, 56],
            "the fill, exact"
        );
        assert_eq!(
            rgb[at(60, 31)..at(60, 31) + 3],
            [0, 0, 0],
            "the blend, rounded"
        );
        assert_eq!(
            rgb[at(40, 10)..at(40, 10) + 3],
            [250, 250, 245],
            "the background"
        );
    }
}
