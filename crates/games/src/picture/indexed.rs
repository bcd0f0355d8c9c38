//! A picture's pixels as an 8-bit palette and one index a pixel, for a paletted PNG: a 2x board has
//! a few thousand colours, nearly all of them the blends at anti-aliased edges. Up to 256 colours
//! are all kept; past that the most frequent fills keep their exact value and the blends take the
//! nearest of 216 colours (each channel a multiple of 51). The paletted PNG is about a third of an
//! RGB one at the same compression (docs/performance.md, "Pictures painted, not parsed back").

/// Slots of the colour table: a power of two, twice the most distinct colours kept.
const SLOTS: usize = 1 << 15;

/// How many of a picture's most frequent colours keep their exact value when it has more than 256
/// (the board's flat fills, its text and lines: a size-8 board has about 20); the rest, the
/// anti-aliased edges' blends, take the nearest of 216 colours (each channel a multiple of 51).
const EXACT: usize = 40;

/// Exact slots left free (the long straight edges make some blends frequent enough to count as
/// fills: they need not all be exact).
const SPARE: usize = 8;

/// Pixels of one colour above which it counts as a fill (and keeps its exact value): the blends at
/// an edge are a few pixels each, a fill is hundreds.
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
    // Only a fill keeps its exact colour (more than [`NEW_FILL`] pixels).
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
    let mut indices = vec![0u8; pixels.len()];
    let (mut prev, mut i) = (u32::MAX, 0);
    for (o, p) in indices.iter_mut().zip(pixels) {
        let c = colour(p);
        if c != prev {
            (prev, i) = (c, index_of(c));
        }
        *o = i;
    }
    let colours = palette
        .iter()
        .flat_map(|c| [*c as u8, (c >> 8) as u8, (c >> 16) as u8])
        .collect();
    (colours, indices)
}

/// The picture as runs of one colour (`0xBBGGRR`, how many pixels), row by row (a run ends with
/// its row): a board is mostly flat fills, so there are a few runs for every hundred pixels, and a
/// run is found eight pixels at a time.
fn runs_of(rgba: &[u8], width: usize) -> Vec<(u32, u32)> {
    let mut runs = Vec::with_capacity(rgba.len() / 64);
    for row in rgba.chunks(width.max(1) * 4) {
        let mut at = 0;
        while at < row.len() {
            let first: [u8; 4] = row[at..at + 4].try_into().unwrap_or_default();
            // Eight pixels compared as one array of 32 bytes (a few vector instructions).
            let eight: [u8; 32] = std::array::from_fn(|k| first[k % 4]);
            let mut end = at + 4;
            while let Some(next) = row[end..].first_chunk::<32>()
                && *next == eight
            {
                end += 32;
            }
            while row.get(end..end + 4) == Some(&first) {
                end += 4;
            }
            runs.push((colour(&first), ((end - at) / 4) as u32));
            at = end;
        }
    }
    runs
}

/// The most colours of a 4-bit palette ([`quantize_small`]).
pub(super) const SMALL: usize = 16;

/// Opaque RGBA pixels, `width` a row, as a palette of at most [`SMALL`] colours (`r, g, b` a
/// colour) and the PNG's rows of 4-bit indices into it: each row a filter byte, 0 (none), then two
/// pixels a byte, the first in the high half (half the bytes of an 8-bit PNG before deflate and far
/// fewer distinct runs after it). The colours the picture was painted with (`painted`, as
/// `0xBBGGRR`) keep their exact value, the most frequent of the other colours (the blends at
/// anti-aliased edges, which the copied shapes repeat) fill the palette, and every other pixel takes
/// the nearest colour of it. `None` when the picture was painted with more than [`SMALL`] colours.
/// The rows are written from the runs of one colour a run at a time, not a pixel at a time (the
/// indices and the packing were two passes over every pixel, a sixth of a Hex board's instructions).
pub(super) fn quantize_small(
    rgba: &[u8],
    width: usize,
    painted: &[u32],
) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut palette: Vec<u32> = Vec::with_capacity(SMALL);
    for &c in painted {
        if !palette.contains(&c) {
            palette.push(c);
        }
    }
    if palette.len() > SMALL || width == 0 {
        return None;
    }
    let (pixels, _) = rgba.as_chunks::<4>();
    let rgba = pixels.as_flattened();
    // Each run's colour is replaced by its slot in the table, where its index is written below.
    let mut runs = runs_of(rgba, width);
    let mut table = Table::new();
    let mut distinct: Vec<u32> = Vec::new();
    for run in &mut runs {
        let (c, n) = *run;
        let at = table.slot(c);
        if table.0[at].0 == 0 {
            if distinct.len() >= SLOTS / 2 {
                return None;
            }
            table.0[at].0 = c | 1 << 31;
            distinct.push(c);
        }
        table.0[at].1 += n;
        run.0 = at as u32;
    }
    let mut others: Vec<(u32, u32)> = distinct
        .iter()
        .filter(|c| !palette.contains(c))
        .map(|&c| (table.0[table.slot(c)].1, c))
        .collect();
    others.sort_unstable_by(|a, b| b.cmp(a));
    palette.extend(others.iter().take(SMALL - palette.len()).map(|&(_, c)| c));
    let channels = |c: u32| [c & 0xFF, c >> 8 & 0xFF, c >> 16 & 0xFF].map(|v| v as i32);
    let nearest = |c: u32| -> u32 {
        let a = channels(c);
        (0..palette.len())
            .min_by_key(|&k| {
                let b = channels(palette[k]);
                (0..3).map(|i| (a[i] - b[i]).pow(2)).sum::<i32>()
            })
            .unwrap_or(0) as u32
    };
    for &c in &distinct {
        let at = table.slot(c);
        table.0[at].1 = match palette.iter().position(|&p| p == c) {
            Some(k) => k as u32,
            None => nearest(c),
        };
    }
    let height = pixels.len() / width;
    let mut rows = Vec::with_capacity(height * (1 + width.div_ceil(2)));
    // Where the next run starts in its row, and the high half of a byte waiting for its low half.
    let (mut x, mut half) = (0, None::<u8>);
    for &(at, n) in &runs {
        if x == 0 {
            rows.push(0);
        }
        let i = table.0[at as usize].1 as u8;
        let mut n = n as usize;
        x += n;
        if let Some(h) = half.take() {
            rows.push(h | i);
            n -= 1;
        }
        rows.resize(rows.len() + n / 2, i << 4 | i);
        if n % 2 == 1 {
            half = Some(i << 4);
        }
        if x == width {
            rows.extend(half.take());
            x = 0;
        }
    }
    // A last row cut short (not from a pixmap, which is whole rows) keeps its last pixel.
    rows.extend(half);
    let colours = palette
        .iter()
        .flat_map(|c| [*c as u8, (c >> 8) as u8, (c >> 16) as u8])
        .collect();
    Some((colours, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG's 4-bit rows (a filter byte, then two indices a byte) as one index a pixel.
    fn unpack(rows: &[u8], width: usize) -> Vec<u8> {
        let mut indices = Vec::new();
        for row in rows.chunks(1 + width.div_ceil(2)) {
            assert_eq!(row[0], 0, "filter none");
            for x in 0..width {
                let b = row[1 + x / 2];
                indices.push(if x % 2 == 0 { b >> 4 } else { b & 0xF });
            }
        }
        indices
    }

    /// Each pixel's index, worked out a pixel at a time: its colour's place in the palette, else
    /// the nearest colour's (the first of equally near ones).
    fn by_pixel(rgba: &[u8], palette: &[u8]) -> Vec<u8> {
        let colours: Vec<[i32; 3]> = palette
            .chunks(3)
            .map(|c| [0, 1, 2].map(|k| i32::from(c[k])))
            .collect();
        rgba.chunks(4)
            .map(|p| {
                let p = [0, 1, 2].map(|k| i32::from(p[k]));
                let d = |c: &[i32; 3]| (0..3).map(|k| (p[k] - c[k]).pow(2)).sum::<i32>();
                colours
                    .iter()
                    .position(|c| *c == p)
                    .unwrap_or_else(|| (0..colours.len()).min_by_key(|&k| d(&colours[k])).unwrap())
                    as u8
            })
            .collect()
    }

    /// The rows written a run at a time are the indices worked out a pixel at a time, packed two a
    /// byte: odd and even widths, runs across whole rows and across a row's end, runs of one
    /// pixel, rounded blends.
    #[test]
    fn rows_written_by_runs_are_the_pixels_indices_packed() {
        let px = |r: u8, g: u8, b: u8| [r, g, b, 255];
        let mut seed = 7u32;
        let mut next = move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            seed >> 16
        };
        let painted = [0x00_00_00, 0xFF_FF_FF, 0x30_80_C0];
        for width in [1, 2, 3, 7, 8, 9, 16, 17, 33] {
            for height in [1, 2, 5] {
                let mut rgba = Vec::new();
                while rgba.len() < width * height * 4 {
                    // Runs of 1 to 20 pixels: a painted colour mostly, a blend now and then.
                    let n = 1 + next() as usize % 20;
                    let p = match next() % 5 {
                        0 => px(0, 0, 0),
                        1 | 2 => px(255, 255, 255),
                        3 => px(0xC0, 0x80, 0x30),
                        _ => px(next() as u8, next() as u8, next() as u8),
                    };
                    for _ in 0..n {
                        rgba.extend(p);
                    }
                }
                rgba.truncate(width * height * 4);
                let (palette, rows) = quantize_small(&rgba, width, &painted).unwrap();
                assert_eq!(
                    rows.len(),
                    height * (1 + width.div_ceil(2)),
                    "{width} x {height}"
                );
                assert_eq!(
                    unpack(&rows, width),
                    by_pixel(&rgba, &palette),
                    "{width} x {height}"
                );
                // An odd row's last byte has its low half 0.
                if width % 2 == 1 {
                    for row in rows.chunks(1 + width.div_ceil(2)) {
                        assert_eq!(row.last().unwrap() & 0xF, 0, "{width} x {height}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_picture_of_few_colours_keeps_them_and_its_commonest_blends_in_sixteen() {
        let px = |r: u8, g: u8, b: u8| [r, g, b, 255];
        // Two painted colours, 20 blends: the blend of 30 pixels is kept, the rest go to the
        // nearest of the sixteen.
        let mut rgba: Vec<u8> = [px(255, 255, 255); 100].concat();
        rgba.extend([px(0, 0, 0); 100].concat());
        rgba.extend([px(128, 128, 128); 30].concat());
        for i in 0..20u8 {
            rgba.extend(px(10 * i, 10 * i, 10 * i + 1));
        }
        let width = rgba.len() / 4;
        let (palette, rows) = quantize_small(&rgba, width, &[0xFF_FF_FF, 0]).unwrap();
        let indices = unpack(&rows, width);
        assert_eq!(palette.len(), SMALL * 3);
        assert_eq!(
            &palette[..6],
            &[255, 255, 255, 0, 0, 0],
            "the painted colours first"
        );
        assert_eq!(&palette[6..9], &[128, 128, 128], "the commonest blend");
        assert_eq!((indices[0], indices[100], indices[200]), (0, 1, 2));
        assert!(indices.iter().all(|&i| usize::from(i) < SMALL));
        // Each pixel's colour is at most the distance to its nearest palette colour away.
        for (k, p) in rgba.chunks(4).enumerate() {
            let i = usize::from(indices[k]) * 3;
            let d = (0..3)
                .map(|c| (i32::from(p[c]) - i32::from(palette[i + c])).pow(2))
                .sum::<i32>();
            let best = (0..SMALL)
                .map(|j| {
                    (0..3)
                        .map(|c| (i32::from(p[c]) - i32::from(palette[j * 3 + c])).pow(2))
                        .sum::<i32>()
                })
                .min()
                .unwrap();
            assert_eq!(d, best, "pixel {k}");
        }
        // Painted with more than sixteen colours: not for a small palette.
        let many: Vec<u32> = (0..17).collect();
        assert!(quantize_small(&rgba, width, &many).is_none());
    }

    #[test]
    fn pixels_index_their_palette_exactly_or_rounded() {
        let px = |r: u8, g: u8, b: u8| [r, g, b, 255];
        let rgba = [px(1, 2, 3), px(1, 2, 3), px(200, 0, 9), px(1, 2, 3)].concat();
        let (palette, indices) = quantize(&rgba);
        assert_eq!(palette, [1, 2, 3, 200, 0, 9]);
        assert_eq!(indices, [0, 0, 1, 0]);
        // 300 colours do not fit: the most frequent keep theirs, the others are rounded.
        let mut many: Vec<u8> = [px(0xFA, 0xFA, 0xF5); 50].concat();
        many.extend((0..300u32).flat_map(|i| [i as u8, (i >> 8) as u8, 7, 255]));
        let (palette, indices) = quantize(&many);
        assert_eq!(palette.len(), 256 * 3);
        let colour_of = |i: u8| {
            let at = usize::from(i) * 3;
            u32::from(palette[at])
                | u32::from(palette[at + 1]) << 8
                | u32::from(palette[at + 2]) << 16
        };
        assert_eq!(colour_of(indices[0]), 0xF5_FA_FA, "the background");
        for (k, &i) in indices[50..].iter().enumerate() {
            let c = colour_of(i);
            let q = |v: u32| (v + 25) / 51 * 51;
            let (r, g) = (k as u32 & 0xFF, k as u32 >> 8);
            let exact = r | g << 8 | 7 << 16;
            let rounded = q(r) | q(g) << 8 | q(7) << 16;
            assert!(c == exact || c == rounded, "pixel {k}: {c:06x}");
        }
    }
}
