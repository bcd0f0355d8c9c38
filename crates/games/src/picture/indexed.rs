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

#[cfg(test)]
mod tests {
    use super::*;

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
