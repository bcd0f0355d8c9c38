//! A deflate encoder made for a picture's indexed rows, one band of rows at a time: it looks for
//! a repeat in the byte before (runs of one colour), in the row above (a shape's inside and its
//! straight edges) and where the next four bytes were last seen, and writes the fixed Huffman
//! codes. That finds what matters in a board picture (about as small as zlib's fastest level) at
//! a few instructions a byte, and it starts each band with nothing to set up: miniz_oxide spent
//! about 700,000 instructions a band on its tables (zeroing them and building a block's codes),
//! more than the compressing.

use std::cell::RefCell;
use std::sync::LazyLock;

/// Writes bits from the lowest, as deflate packs them.
struct Bits<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits<'_> {
    /// Appends the `n` (at most 32) low bits of `v`.
    fn put(&mut self, v: u32, n: u32) {
        self.acc |= u64::from(v) << self.n;
        self.n += n;
        if self.n >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.n -= 32;
        }
    }

    /// Writes what is left, the last byte padded with zeros.
    fn finish(self) {
        let bytes = self.n.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
    }
}

/// `code`'s `len` bits reversed: Huffman codes go in from their first bit.
fn reversed(code: u32, len: u32) -> u32 {
    code.reverse_bits() >> (32 - len)
}

/// The fixed code of a literal or length symbol (0..=287), reversed, and its length.
fn fixed(symbol: u32) -> (u32, u32) {
    match symbol {
        0..=143 => (reversed(0x30 + symbol, 8), 8),
        144..=255 => (reversed(0x190 + symbol - 144, 9), 9),
        256..=279 => (reversed(symbol - 256, 7), 7),
        _ => (reversed(0xC0 + symbol - 280, 8), 8),
    }
}

/// The first length of each length symbol 257..=285, and its extra bits.
const LENGTHS: [(u32, u32); 29] = [
    (3, 0),
    (4, 0),
    (5, 0),
    (6, 0),
    (7, 0),
    (8, 0),
    (9, 0),
    (10, 0),
    (11, 1),
    (13, 1),
    (15, 1),
    (17, 1),
    (19, 2),
    (23, 2),
    (27, 2),
    (31, 2),
    (35, 3),
    (43, 3),
    (51, 3),
    (59, 3),
    (67, 4),
    (83, 4),
    (99, 4),
    (115, 4),
    (131, 5),
    (163, 5),
    (195, 5),
    (227, 5),
    (258, 0),
];

/// A match length's code with its extra bits after it, ready to write, and the bit count.
fn length_code(len: u32) -> (u32, u32) {
    let k = LENGTHS
        .iter()
        .rposition(|&(first, _)| first <= len)
        .unwrap_or(0);
    let (first, extra) = LENGTHS[k];
    let (code, n) = fixed(257 + k as u32);
    (code | (len - first) << n, n + extra)
}

/// A distance's code (5 bits, reversed) with its extra bits after it, and the bit count.
fn distance_code(dist: u32) -> (u32, u32) {
    let (symbol, first, extra) = if dist <= 4 {
        (dist - 1, dist, 0)
    } else {
        // Codes 4 and up come in pairs sharing `extra` bits: 5-6, 7-8 (1 bit), 9-12, 13-16 ...
        let extra = (dist - 1).ilog2() - 1;
        let half = (dist - 1) >> extra & 1;
        let symbol = 2 * extra + 2 + half;
        (symbol, ((2 + half) << extra) + 1, extra)
    };
    (reversed(symbol, 5) | (dist - first) << 5, 5 + extra)
}

/// The codes to write for each match length (index 3..=258) and each literal byte.
#[allow(clippy::type_complexity)]
static CODES: LazyLock<(Vec<(u32, u32)>, Vec<(u32, u32)>)> = LazyLock::new(|| {
    let lengths = (0..=258).map(|len: u32| length_code(len.max(3))).collect();
    (lengths, (0..256).map(fixed).collect())
});

/// Bits of the hash of four bytes that [`band`] looks an earlier occurrence up by.
const HASH_BITS: u32 = 14;

/// The farthest back a deflate match may reach.
const WINDOW: usize = 32_768;

thread_local! {
    /// Where four bytes were last seen, by their hash, as a position plus the [`band`] call's
    /// base (0: never): the table is not cleared between bands, a position from an earlier band
    /// is below the base and is ignored.
    static SEEN: RefCell<(Vec<u32>, u32)> = RefCell::new((vec![0; 1 << HASH_BITS], 0));
}

/// Appends `raw`, rows of `stride` bytes, as deflate blocks that refer to nothing before `raw`
/// and end on a byte boundary, without a final block: bands so written one after the other, and
/// then a final block, make a deflate stream. A repeat is looked for in the byte before, the row
/// above and the last place the next four bytes were seen (a pawn's letter, a tile's number, the
/// same edge drawn elsewhere), the longest taken.
pub(super) fn band(raw: &[u8], stride: usize, out: &mut Vec<u8>) {
    SEEN.with(|seen| {
        let (table, next) = &mut *seen.borrow_mut();
        let len = u32::try_from(raw.len()).unwrap_or(u32::MAX);
        if next
            .checked_add(len)
            .and_then(|n| n.checked_add(1))
            .is_none()
        {
            table.fill(0);
            *next = 0;
        }
        let base = *next;
        *next += len;
        encode(raw, stride, table, base, out);
    });
}

/// [`band`] with its table of places seen and the base of this band's positions in it.
fn encode(raw: &[u8], stride: usize, table: &mut [u32], base: u32, out: &mut Vec<u8>) {
    let (lengths, literals) = &*CODES;
    let run = distance_code(1);
    let above = (stride <= WINDOW).then(|| distance_code(stride as u32));
    let mut bits = Bits { out, acc: 0, n: 0 };
    // One block with the fixed codes: not final (first bit 0), type 01.
    bits.put(0b010, 3);
    let mut p = 0;
    while p < raw.len() {
        let most = (raw.len() - p).min(258);
        // How many bytes from `from` repeat those from `p`, eight compared at a time.
        let same = |from: usize| {
            let (a, b) = (&raw[from..from + most], &raw[p..p + most]);
            let word = |s: &[u8], at: usize| {
                u64::from_le_bytes(s[at..at + 8].try_into().expect("eight bytes"))
            };
            let mut n = 0;
            while n + 8 <= most {
                let diff = word(a, n) ^ word(b, n);
                if diff != 0 {
                    return n + (diff.trailing_zeros() / 8) as usize;
                }
                n += 8;
            }
            n + a[n..]
                .iter()
                .zip(&b[n..])
                .take_while(|(x, y)| x == y)
                .count()
        };
        let mut best = (0, 0);
        if p >= 1 && raw[p - 1] == raw[p] {
            best = (same(p - 1), 1);
        }
        if best.0 < most && above.is_some() && p >= stride && raw[p - stride] == raw[p] {
            let len = same(p - stride);
            if len > best.0 {
                best = (len, stride);
            }
        }
        if best.0 < most && p + 4 <= raw.len() {
            let four = u32::from_le_bytes([raw[p], raw[p + 1], raw[p + 2], raw[p + 3]]);
            let h = (four.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize;
            let at = table[h];
            table[h] = base + p as u32 + 1;
            if at > base {
                let q = (at - base - 1) as usize;
                if p - q <= WINDOW && raw[q] == raw[p] {
                    let len = same(q);
                    if len > best.0 {
                        best = (len, p - q);
                    }
                }
            }
        }
        let (len, from) = best;
        if len >= 3 {
            let (code, n) = lengths[len];
            bits.put(code, n);
            let dist = match from {
                1 => run,
                f if f == stride => above.unwrap_or_else(|| distance_code(f as u32)),
                f => distance_code(f as u32),
            };
            bits.put(dist.0, dist.1);
            p += len;
        } else {
            let (code, n) = literals[usize::from(raw[p])];
            bits.put(code, n);
            p += 1;
        }
    }
    let (end, n) = fixed(256);
    bits.put(end, n);
    // An empty stored block (not final, type 00) brings the stream to a byte boundary.
    bits.put(0, 3);
    bits.finish();
    out.extend_from_slice(&[0, 0, 0xFF, 0xFF]);
}

/// The final block that closes a stream of bands: final, fixed codes, nothing but its end.
pub(super) const END: [u8; 2] = [0x03, 0x00];

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read as _;

    /// The bands compressed apart and closed, inflated by flate2.
    fn round_trip(bands: &[&[u8]], stride: usize) -> Vec<u8> {
        let mut stream = Vec::new();
        for b in bands {
            band(b, stride, &mut stream);
        }
        stream.extend_from_slice(&END);
        let mut out = Vec::new();
        flate2::read::DeflateDecoder::new(&stream[..])
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn bands_inflate_to_their_bytes() {
        // Rows of a picture: runs, repeats of the row above, and bytes of every value.
        let stride = 301;
        let picture: Vec<u8> = (0..stride * 40)
            .map(|i| {
                let (x, y) = (i % stride, i / stride);
                if x % 50 < 3 + y % 5 {
                    (x * 7 + y) as u8
                } else {
                    (x / 50) as u8
                }
            })
            .collect();
        let (a, b) = picture.split_at(stride * 17);
        assert_eq!(round_trip(&[a, b], stride), picture);
        let mut one = Vec::new();
        band(&picture, stride, &mut one);
        assert!(one.len() < picture.len() / 3, "{} bytes", one.len());
        let noise: Vec<u8> = (0..5000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        assert_eq!(
            round_trip(&[&noise, &[], &[7; 1000]], 1),
            [&noise[..], &[7; 1000]].concat()
        );
        for dist in 1..=32_768 {
            let (code, n) = distance_code(dist);
            let symbol = reversed(code & 31, 5);
            assert!(symbol < 30 && n <= 18, "{dist}");
        }
    }
}
