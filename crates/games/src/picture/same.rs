//! Pixel helpers of the picture tests: a PNG's RGB pixels, and how far two pictures are apart
//! (`games::picture_tests` compares every game's painted picture with its reference PNG).

/// RGB pixels of a PNG (palette or RGB/RGBA, 8 bits), with its size.
pub(crate) fn rgb(png: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = ::png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(::png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let channels = match info.color_type {
        ::png::ColorType::Rgb => 3,
        ::png::ColorType::Rgba => 4,
        other => panic!("a board picture of colour type {other:?}"),
    };
    let rgb = buf
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, info.height, rgb)
}

/// How two pictures of one size differ: the pixels with a channel more than 40 apart, the
/// largest difference of a channel, and the mean difference of a channel.
pub(crate) fn compare(a: &[u8], b: &[u8]) -> (usize, u8, f64) {
    let (mut far, mut most, mut sum) = (0usize, 0u8, 0u64);
    for (p, q) in a.chunks(3).zip(b.chunks(3)) {
        let d = (0..3).map(|k| p[k].abs_diff(q[k])).max().unwrap_or(0);
        far += usize::from(d > 40);
        most = most.max(d);
        sum += (0..3).map(|k| u64::from(p[k].abs_diff(q[k]))).sum::<u64>();
    }
    (far, most, sum as f64 / a.len().max(1) as f64)
}
