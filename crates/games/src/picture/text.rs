//! The pictures' texts as outlines: the glyphs of the bundled DejaVu Sans (crates/games/assets/fonts/), read
//! with ttf-parser, laid out one after the other by their advance widths and the font's kerning
//! pairs. No shaping: the boards' texts are labels and status lines in Latin letters, digits and
//! punctuation, where each character is one glyph (resvg with its text shaper and font database
//! was about 33 s of the first build's CPU; issue 25, section 5).

use std::sync::LazyLock;

use tiny_skia::{Path, PathBuilder, Transform};
use ttf_parser::{Face, GlyphId, OutlineBuilder};

/// The one font the pictures use.
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The font parsed once (parsing reads only its table directory).
static FACE: LazyLock<Face<'static>> =
    LazyLock::new(|| Face::parse(FONT, 0).expect("the bundled DejaVu Sans parses"));

/// Where a text's `x` is: its start, middle or end (SVG's `text-anchor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Anchor {
    Start,
    Middle,
    End,
}

/// Appends a glyph's outline to a path builder, from font units (y up) to the text's place
/// (y down).
struct Pen<'a> {
    out: &'a mut PathBuilder,
    at: Transform,
}

impl Pen<'_> {
    fn map(&self, x: f32, y: f32) -> (f32, f32) {
        let t = self.at;
        (t.sx * x + t.kx * y + t.tx, t.ky * x + t.sy * y + t.ty)
    }
}

impl OutlineBuilder for Pen<'_> {
    fn move_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.map(x, y);
        self.out.move_to(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.map(x, y);
        self.out.line_to(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let (x1, y1) = self.map(x1, y1);
        let (x, y) = self.map(x, y);
        self.out.quad_to(x1, y1, x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let (x1, y1) = self.map(x1, y1);
        let (x2, y2) = self.map(x2, y2);
        let (x, y) = self.map(x, y);
        self.out.cubic_to(x1, y1, x2, y2, x, y);
    }
    fn close(&mut self) {
        self.out.close();
    }
}

/// A character the font has no glyph for: the text cannot be drawn as written.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Missing(pub char);

/// The glyphs of `text` at `size` (pixels a em) as one path, its baseline starting, centred or
/// ending at (`x`, `y`) by `anchor`, then mapped by `device` (the picture's scale); `Ok(None)` for
/// a text that draws nothing (spaces only).
pub(super) fn outline(
    text: &str,
    x: f32,
    y: f32,
    size: f32,
    anchor: Anchor,
    device: Transform,
) -> Result<Option<Path>, Missing> {
    let face = &*FACE;
    let glyphs: Vec<GlyphId> = text
        .chars()
        .map(|c| face.glyph_index(c).ok_or(Missing(c)))
        .collect::<Result<_, _>>()?;
    let kern = face.tables().kern.and_then(|k| {
        k.subtables
            .into_iter()
            .find(|s| s.horizontal && !s.variable)
    });
    // Each glyph's pen position in font units.
    let mut pens = Vec::with_capacity(glyphs.len());
    let mut pen = 0.0f32;
    for (i, &g) in glyphs.iter().enumerate() {
        if i > 0 {
            let pair = kern
                .as_ref()
                .and_then(|k| k.glyphs_kerning(glyphs[i - 1], g));
            pen += f32::from(pair.unwrap_or(0));
        }
        pens.push(pen);
        pen += f32::from(face.glyph_hor_advance(g).unwrap_or(0));
    }
    let scale = size / f32::from(face.units_per_em());
    let start = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - pen * scale / 2.0,
        Anchor::End => x - pen * scale,
    };
    let mut out = PathBuilder::new();
    for (&g, &p) in glyphs.iter().zip(&pens) {
        let at =
            Transform::from_row(scale, 0.0, 0.0, -scale, start + p * scale, y).post_concat(device);
        face.outline_glyph(g, &mut Pen { out: &mut out, at });
    }
    Ok(out.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_as_wide_as_its_advances_and_placed_by_its_anchor() {
        let id = Transform::identity();
        let start = outline("Red 12", 100.0, 50.0, 20.0, Anchor::Start, id)
            .unwrap()
            .unwrap();
        let end = outline("Red 12", 100.0, 50.0, 20.0, Anchor::End, id)
            .unwrap()
            .unwrap();
        let middle = outline("Red 12", 100.0, 50.0, 20.0, Anchor::Middle, id)
            .unwrap()
            .unwrap();
        let (s, e, m) = (start.bounds(), end.bounds(), middle.bounds());
        // "R" starts a little right of the pen, "2" ends a little left of the advance.
        assert!(s.left() > 100.0 && s.left() < 103.0, "{s:?}");
        assert!(e.right() < 100.0 && e.right() > 97.0, "{e:?}");
        assert!((m.left() + m.right()) / 2.0 - 100.0 < 2.0, "{m:?}");
        // Capitals and digits stand on the baseline, about 0.73 em tall.
        assert!(
            (s.bottom() - 50.0).abs() < 0.5 && (50.0 - s.top() - 14.6).abs() < 1.0,
            "{s:?}"
        );
        assert!((s.width() - e.width()).abs() < 0.01);
        // The device transform maps the outline: twice the size at scale 2.
        let big = outline(
            "Red 12",
            100.0,
            50.0,
            20.0,
            Anchor::Start,
            Transform::from_scale(2.0, 2.0),
        );
        let b = big.unwrap().unwrap().bounds();
        assert!((b.width() - 2.0 * s.width()).abs() < 0.01);
        assert_eq!(outline("  ", 0.0, 0.0, 10.0, Anchor::Start, id), Ok(None));
        assert_eq!(
            outline("a\u{E000}", 0.0, 0.0, 10.0, Anchor::Start, id).err(),
            Some(Missing('\u{E000}'))
        );
    }

    #[test]
    fn kerning_pairs_close_up_a_text() {
        // "AV" is a kerning pair of DejaVu Sans: narrower than its two advances.
        let id = Transform::identity();
        let av = outline("AV", 0.0, 0.0, 100.0, Anchor::Start, id)
            .unwrap()
            .unwrap()
            .bounds();
        let a = outline("A", 0.0, 0.0, 100.0, Anchor::Start, id)
            .unwrap()
            .unwrap()
            .bounds();
        let v = outline("V", 0.0, 0.0, 100.0, Anchor::Start, id)
            .unwrap()
            .unwrap()
            .bounds();
        let advance_a = f32::from(
            FACE.glyph_hor_advance(FACE.glyph_index('A').unwrap())
                .unwrap(),
        ) * 100.0
            / f32::from(FACE.units_per_em());
        assert!(
            av.right() < advance_a + v.right() - 1.0,
            "{av:?} {a:?} {v:?}"
        );
    }
}
