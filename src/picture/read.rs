//! Reading a PNG back to its pixels: what the tests check the pictures (and the web page's
//! screenshots) with. A reader of our own rather than a PNG crate and a zlib crate, which were
//! compiled by every first build only for the tests (issue 25, section 5). It reads 8-bit
//! grey, RGB, paletted, grey-alpha and RGBA images, not interlaced, checking each chunk's CRC
//! and the zlib stream's Adler-32; anything else is an error saying what.

/// A PNG's pixels, without their alpha (the pictures are opaque).
#[derive(Debug, PartialEq, Eq)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    /// Three bytes a pixel, red, green, blue, row after row.
    pub rgb: Vec<u8>,
    /// Whether every pixel is opaque (alpha 255, or no alpha at all).
    pub opaque: bool,
}

impl Pixels {
    /// The pixel at (`x`, `y`) as red, green, blue.
    pub fn at(&self, x: u32, y: u32) -> [u8; 3] {
        let i = (y as usize * self.width as usize + x as usize) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// Every pixel in order.
    pub fn pixels(&self) -> impl Iterator<Item = &[u8; 3]> + '_ {
        self.rgb.as_chunks::<3>().0.iter()
    }
}

/// The pixels of a PNG file.
pub fn read_png(png: &[u8]) -> Result<Pixels, String> {
    if png.get(..8) != Some(super::indexed::PNG_SIGNATURE) {
        return Err("not a PNG: no PNG signature".into());
    }
    let (mut header, mut palette, mut alphas, mut data) =
        (None, Vec::new(), Vec::new(), Vec::new());
    let mut at = 8;
    loop {
        let word = |k: usize| -> Result<u32, String> {
            png.get(k..k + 4)
                .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
                .ok_or_else(|| "the PNG ends inside a chunk".to_string())
        };
        let len = word(at)? as usize;
        let kind = png
            .get(at + 4..at + 8)
            .ok_or("the PNG ends inside a chunk")?;
        let body = png
            .get(at + 8..at + 8 + len)
            .ok_or("the PNG ends inside a chunk")?;
        if word(at + 8 + len)? != crc32fast::hash(&png[at + 4..at + 8 + len]) {
            return Err(format!(
                "the CRC of chunk {} is wrong",
                String::from_utf8_lossy(kind)
            ));
        }
        match kind {
            b"IHDR" if body.len() == 13 => header = Some(body),
            b"PLTE" => palette = body.to_vec(),
            b"tRNS" => alphas = body.to_vec(),
            b"IDAT" => data.extend_from_slice(body),
            b"IEND" => break,
            _ => {}
        }
        at += 12 + len;
    }
    let h = header.ok_or("the PNG has no IHDR chunk")?;
    let width = u32::from_be_bytes([h[0], h[1], h[2], h[3]]);
    let height = u32::from_be_bytes([h[4], h[5], h[6], h[7]]);
    let (depth, colour, interlace) = (h[8], h[9], h[12]);
    if depth != 8 || interlace != 0 {
        return Err(format!(
            "a PNG of bit depth {depth}, interlace {interlace} is not read (8 and 0 are)"
        ));
    }
    let channels = match colour {
        0 | 3 => 1,
        4 => 2,
        2 => 3,
        6 => 4,
        _ => return Err(format!("colour type {colour} is not a PNG colour type")),
    };
    let raw = unzlib(&data)?;
    let stride = width as usize * channels;
    if raw.len() != (stride + 1) * height as usize {
        return Err(format!(
            "the image data holds {} bytes, not the {} of {width} x {height}",
            raw.len(),
            (stride + 1) * height as usize
        ));
    }
    // Unfiltered a row at a time, each filter its own loop: this runs in the tests' debug
    // builds, on pictures of a million pixels.
    let mut rows = vec![0u8; stride * height as usize];
    let zeros = vec![0u8; stride];
    for y in 0..height as usize {
        let line = &raw[y * (stride + 1)..(y + 1) * (stride + 1)];
        let (filter, line) = (line[0], &line[1..]);
        let (before, here) = rows.split_at_mut(y * stride);
        let row = &mut here[..stride];
        let up = if y > 0 {
            &before[(y - 1) * stride..]
        } else {
            &zeros[..]
        };
        match filter {
            0 => row.copy_from_slice(line),
            1 => {
                row[..channels].copy_from_slice(&line[..channels]);
                for x in channels..stride {
                    row[x] = line[x].wrapping_add(row[x - channels]);
                }
            }
            2 => {
                for ((r, l), u) in row.iter_mut().zip(line).zip(up) {
                    *r = l.wrapping_add(*u);
                }
            }
            3 | 4 => {
                for x in 0..stride {
                    let a = if x >= channels { row[x - channels] } else { 0 };
                    let c = if x >= channels { up[x - channels] } else { 0 };
                    let b = up[x];
                    let predicted = if filter == 3 {
                        ((u16::from(a) + u16::from(b)) / 2) as u8
                    } else {
                        paeth(a, b, c)
                    };
                    row[x] = line[x].wrapping_add(predicted);
                }
            }
            f => return Err(format!("row {y} has filter {f}, not a PNG filter")),
        }
    }
    // Plain loops: this runs in the tests' debug builds.
    let mut rgb = Vec::with_capacity(width as usize * height as usize * 3);
    let mut opaque = true;
    match colour {
        0 => {
            for &g in &rows {
                rgb.extend_from_slice(&[g, g, g]);
            }
        }
        2 => rgb = rows,
        4 | 6 => {
            for p in rows.chunks_exact(channels) {
                let alpha = p[channels - 1];
                opaque &= alpha == 255;
                if channels == 2 {
                    rgb.extend_from_slice(&[p[0], p[0], p[0]]);
                } else {
                    rgb.extend_from_slice(&p[..3]);
                }
            }
        }
        _ => {
            let colours = palette.len() / 3;
            opaque = alphas.iter().take(colours).all(|&a| a == 255);
            for &i in &rows {
                let i = usize::from(i);
                if i >= colours {
                    return Err(format!("palette index {i} past the palette"));
                }
                rgb.extend_from_slice(&palette[i * 3..i * 3 + 3]);
            }
        }
    }
    Ok(Pixels {
        width,
        height,
        rgb,
        opaque,
    })
}

/// PNG's Paeth predictor: whichever of left, up and up-left is nearest to left + up - up-left.
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (ia, ib, ic) = (i16::from(a), i16::from(b), i16::from(c));
    let p = ia + ib - ic;
    let (pa, pb, pc) = ((p - ia).abs(), (p - ib).abs(), (p - ic).abs());
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

/// A zlib stream's data, its Adler-32 checked.
pub(super) fn unzlib(z: &[u8]) -> Result<Vec<u8>, String> {
    if z.len() < 6 || z[0] & 0x0F != 8 || (u16::from(z[0]) << 8 | u16::from(z[1])) % 31 != 0 {
        return Err("the zlib stream has no deflate header".into());
    }
    if z[1] & 0x20 != 0 {
        return Err("the zlib stream asks for a preset dictionary".into());
    }
    let (out, used) = inflate(&z[2..])?;
    let sum = z
        .get(2 + used..2 + used + 4)
        .ok_or("the zlib stream has no Adler-32")?;
    if u32::from_be_bytes([sum[0], sum[1], sum[2], sum[3]]) != super::indexed::adler32(&out) {
        return Err("the zlib stream's Adler-32 is wrong".into());
    }
    Ok(out)
}

/// Reads a deflate stream's bits, lowest first.
struct Bits<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bits<'_> {
    fn take(&mut self, n: u32) -> Result<u32, String> {
        let mut v = 0;
        for k in 0..n {
            let byte = self
                .data
                .get(self.at / 8)
                .ok_or("the deflate stream ends early")?;
            v |= u32::from(byte >> (self.at % 8) & 1) << k;
            self.at += 1;
        }
        Ok(v)
    }
}

/// A canonical Huffman code: how many codes of each length, and the symbols in code order.
struct Code {
    counts: [u16; 16],
    symbols: Vec<u16>,
}

impl Code {
    fn new(lengths: &[u8]) -> Code {
        let mut counts = [0u16; 16];
        for &l in lengths {
            counts[usize::from(l)] += 1;
        }
        counts[0] = 0;
        let mut symbols = Vec::with_capacity(lengths.len());
        for len in 1..16 {
            for (s, &l) in lengths.iter().enumerate() {
                if usize::from(l) == len {
                    symbols.push(s as u16);
                }
            }
        }
        Code { counts, symbols }
    }

    /// The next symbol: codes are read a bit at a time, first bit most significant.
    fn read(&self, bits: &mut Bits) -> Result<u16, String> {
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for len in 1..16 {
            code |= bits.take(1)? as i32;
            let count = i32::from(self.counts[len]);
            if code - first < count {
                return Ok(self.symbols[(index + code - first) as usize]);
            }
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        Err("the deflate stream holds a code its table has not".into())
    }
}

const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

/// A raw deflate stream's data (RFC 1951: stored, fixed and dynamic blocks), and how many bytes
/// of `data` it took.
pub(super) fn inflate(data: &[u8]) -> Result<(Vec<u8>, usize), String> {
    let mut bits = Bits { data, at: 0 };
    let mut out = Vec::new();
    loop {
        let last = bits.take(1)? == 1;
        match bits.take(2)? {
            0 => {
                bits.at = bits.at.div_ceil(8) * 8;
                let len = bits.take(16)? as usize;
                let nlen = bits.take(16)? as usize;
                if len != !nlen & 0xFFFF {
                    return Err("a stored block's length and its complement differ".into());
                }
                let start = bits.at / 8;
                let bytes = data
                    .get(start..start + len)
                    .ok_or("the deflate stream ends early")?;
                out.extend_from_slice(bytes);
                bits.at += len * 8;
            }
            1 => {
                let mut lengths = [8u8; 288];
                lengths[144..256].fill(9);
                lengths[256..280].fill(7);
                block(
                    &mut bits,
                    &mut out,
                    &Code::new(&lengths),
                    &Code::new(&[5; 30]),
                )?;
            }
            2 => {
                let (lit, dist) = dynamic(&mut bits)?;
                block(&mut bits, &mut out, &lit, &dist)?;
            }
            _ => return Err("a deflate block of type 3, which does not exist".into()),
        }
        if last {
            return Ok((out, bits.at.div_ceil(8)));
        }
    }
}

/// A dynamic block's two codes, read from its header.
fn dynamic(bits: &mut Bits) -> Result<(Code, Code), String> {
    let lits = bits.take(5)? as usize + 257;
    let dists = bits.take(5)? as usize + 1;
    let codes = bits.take(4)? as usize + 4;
    const ORDER: [usize; 19] = [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ];
    let mut code_lengths = [0u8; 19];
    for &k in &ORDER[..codes] {
        code_lengths[k] = bits.take(3)? as u8;
    }
    let code = Code::new(&code_lengths);
    let mut lengths = Vec::with_capacity(lits + dists);
    while lengths.len() < lits + dists {
        let (value, times) = match code.read(bits)? {
            s @ 0..=15 => (s as u8, 1),
            16 => {
                let prev = *lengths.last().ok_or("a repeat before any length")?;
                (prev, 3 + bits.take(2)?)
            }
            17 => (0, 3 + bits.take(3)?),
            _ => (0, 11 + bits.take(7)?),
        };
        lengths.extend(std::iter::repeat_n(value, times as usize));
    }
    if lengths.len() != lits + dists {
        return Err("a dynamic block's lengths run past its codes".into());
    }
    Ok((Code::new(&lengths[..lits]), Code::new(&lengths[lits..])))
}

/// A block's literals and copies, up to its end code.
fn block(bits: &mut Bits, out: &mut Vec<u8>, lit: &Code, dist: &Code) -> Result<(), String> {
    loop {
        let s = lit.read(bits)?;
        match s {
            0..=255 => out.push(s as u8),
            256 => return Ok(()),
            _ => {
                let k = usize::from(s - 257);
                let base = *LENGTH_BASE.get(k).ok_or("a length code past 285")?;
                let len = usize::from(base) + bits.take(u32::from(LENGTH_EXTRA[k]))? as usize;
                let d = usize::from(dist.read(bits)?);
                let base = *DIST_BASE.get(d).ok_or("a distance code past 29")?;
                let back = usize::from(base) + bits.take(u32::from(DIST_EXTRA[d]))? as usize;
                if back > out.len() {
                    return Err("a copy from before the stream's start".into());
                }
                let from = out.len() - back;
                if back >= len {
                    out.extend_from_within(from..from + len);
                } else {
                    // The copy overlaps what it writes: a run, a byte at a time.
                    for i in 0..len {
                        out.push(out[from + i]);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` compressed by another deflater (Python's zlib, level 9: fixed and dynamic codes).
    #[test]
    fn other_deflaters_streams_inflate_to_their_text() {
        let words = [
            "red", "blue", "tile", "pawn", "move", "board", "the", "a", "to", "of", "Limit",
            "captured", "phase",
        ];
        let text: Vec<&str> = (0..100u64)
            .map(|i| words[((i * i * i * 7 + i * 3 + (i >> 2)) % 13) as usize])
            .collect();
        let dynamic = [
            0x78, 0xda, 0xdd, 0x4f, 0x09, 0x0e, 0x80, 0x20, 0x0c, 0xfb, 0xca, 0x1e, 0xe4, 0x27,
            0x66, 0x98, 0x81, 0x44, 0xc4, 0xcc, 0x45, 0xbf, 0xef, 0x0e, 0xc4, 0xf8, 0x05, 0x03,
            0x34, 0xb4, 0xb4, 0xcd, 0x60, 0x4a, 0x30, 0x95, 0x5a, 0xa4, 0xe3, 0x8e, 0xd7, 0x06,
            0x92, 0x09, 0xb0, 0x0b, 0x73, 0x43, 0x4e, 0xd0, 0x96, 0xe7, 0x3d, 0xe3, 0x41, 0x5d,
            0x34, 0x9b, 0xfb, 0x59, 0x4b, 0xec, 0xe0, 0xeb, 0x33, 0xaa, 0x24, 0xec, 0x46, 0xa4,
            0xac, 0x64, 0x8a, 0xee, 0x91, 0xab, 0xed, 0xa4, 0x4f, 0xaf, 0x19, 0x5d, 0x0c, 0xea,
            0x99, 0x31, 0x51, 0x68, 0x81, 0xda, 0x82, 0xba, 0x46, 0xb1, 0x87, 0x30, 0xee, 0x31,
            0x9c, 0xcf, 0xe2, 0xdc, 0x81, 0x7f, 0xfa, 0xcf, 0x1b, 0x12, 0x97, 0x9c, 0x55,
        ];
        assert_eq!(dynamic[2] >> 1 & 3, 2, "a dynamic block");
        assert_eq!(unzlib(&dynamic).unwrap(), text.join(" ").as_bytes());
        let fixed = [
            0x78, 0x9c, 0x4b, 0x4c, 0x24, 0x0e, 0x24, 0x25, 0xa7, 0x00, 0x00, 0x66, 0xb6, 0x10,
            0x52,
        ];
        assert_eq!(unzlib(&fixed).unwrap(), [&[b'a'; 40][..], b"bcd"].concat());
        let stored = [
            0x78, 0x01, 0x01, 0x0c, 0x00, 0xf3, 0xff, 0x73, 0x74, 0x6f, 0x72, 0x65, 0x64, 0x20,
            0x62, 0x79, 0x74, 0x65, 0x73, 0x1f, 0xcf, 0x04, 0xd9,
        ];
        assert_eq!(unzlib(&stored).unwrap(), b"stored bytes");
        let mut broken = stored;
        broken[22] ^= 1;
        assert!(unzlib(&broken).unwrap_err().contains("Adler-32"));
        assert!(unzlib(&fixed[..8]).unwrap_err().contains("ends early"));
    }

    #[test]
    fn a_png_reads_to_its_pixels_and_a_damaged_one_is_refused() {
        let rgba: Vec<u8> = (0..6 * 5)
            .flat_map(|i: u32| [(i * 40) as u8, (i * 7) as u8, 200, 255])
            .collect();
        let png = crate::picture::indexed::Indexed::new(&rgba, 6, 5)
            .unwrap()
            .png();
        let p = read_png(&png).unwrap();
        assert_eq!((p.width, p.height, p.opaque), (6, 5, true));
        let rgb: Vec<u8> = rgba.chunks(4).flat_map(|c| c[..3].to_vec()).collect();
        assert_eq!(p.rgb, rgb);
        assert_eq!(p.at(1, 0), [40, 7, 200]);
        let mut bad = png.clone();
        let last = bad.len() - 20;
        bad[last] ^= 0x40;
        assert!(read_png(&bad).unwrap_err().contains("CRC"));
        assert!(read_png(b"GIF89a").unwrap_err().contains("signature"));
    }
}
