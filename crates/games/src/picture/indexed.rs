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

/// The picture as runs of one colour (`0xBBGGRR`, how many pixels), row after row: a board is
/// mostly flat fills, so there are a few runs for every hundred pixels, and a run is found eight
/// pixels at a time.
fn runs_of(pixels: &[[u8; 4]]) -> Vec<(u32, u32)> {
    let mut runs = Vec::with_capacity(pixels.len() / 16);
    let mut at = 0;
    while at < pixels.len() {
        let first = pixels[at];
        let mut end = at + 1;
        while let Some(eight) = pixels.get(end..end + 8)
            && eight.iter().all(|p| *p == first)
        {
            end += 8;
        }
        while end < pixels.len() && pixels[end] == first {
            end += 1;
        }
        runs.push((colour(&first), (end - at) as u32));
        at = end;
    }
    runs
}

/// The most colours of a 4-bit palette ([`quantize_small`]).
pub(super) const SMALL: usize = 16;

/// Opaque RGBA pixels as a palette of at most [`SMALL`] colours and one index a pixel (for a 4-bit
/// PNG, half the bytes of an 8-bit one before deflate and far fewer distinct runs after it): the
/// colours the picture was painted with (`painted`, as `0xBBGGRR`) keep their exact value, the
/// most frequent of the other colours (the blends at anti-aliased edges, which the copied shapes
/// repeat) fill the palette, and every other pixel takes the nearest colour of it. `None` when the
/// picture was painted with more than [`SMALL`] colours.
pub(super) fn quantize_small(rgba: &[u8], painted: &[u32]) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut palette: Vec<u32> = Vec::with_capacity(SMALL);
    for &c in painted {
        if !palette.contains(&c) {
            palette.push(c);
        }
    }
    if palette.len() > SMALL {
        return None;
    }
    let (pixels, _) = rgba.as_chunks::<4>();
    let runs = runs_of(pixels);
    let mut table = Table::new();
    let mut distinct: Vec<u32> = Vec::new();
    for &(c, n) in &runs {
        let at = table.slot(c);
        if table.0[at].0 == 0 {
            if distinct.len() >= SLOTS / 2 {
                return None;
            }
            table.0[at].0 = c | 1 << 31;
            distinct.push(c);
        }
        table.0[at].1 += n;
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
    let mut indices = vec![0u8; pixels.len()];
    let mut at = 0;
    for &(c, n) in &runs {
        let n = n as usize;
        indices[at..at + n].fill(table.get(c).unwrap_or(0));
        at += n;
    }
    let colours = palette
        .iter()
        .flat_map(|c| [*c as u8, (c >> 8) as u8, (c >> 16) as u8])
        .collect();
    Some((colours, indices))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let (palette, indices) = quantize_small(&rgba, &[0xFF_FF_FF, 0]).unwrap();
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
        assert!(quantize_small(&rgba, &many).is_none());
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
