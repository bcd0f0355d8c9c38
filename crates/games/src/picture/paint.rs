//! Pictures painted, not parsed back (issue 36, section 4): a game draws its board once through a
//! [`Painter`] (a rectangle, a circle, a line, a polygon, a path of straight lines, a text; a fill,
//! a stroke, their widths, dashes and opacities), and the painter either writes the SVG the web
//! pages show ([`SvgWriter`]) or fills the shapes with tiny-skia for the mail's PNG ([`Filler`]).
//! Nothing on the mail path reads SVG: the PNG comes from the same calls that write it.
//!
//! The calls mirror the SVG elements the games wrote by hand before, so that the web's SVG stays
//! what it was: coordinates written with one decimal, the same attributes (`class` and `data-*`
//! for the pages' scripts included, given as `attrs`). The filler rounds coordinates to that same
//! tenth, so that the PNG shows exactly what the SVG says.

use tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, PixmapPaint, Rect,
    Stroke, StrokeDash, Transform,
};

mod svg;
use super::text::{self, Anchor};
pub use svg::SvgWriter;

/// How a shape is painted. Colours are written as in SVG (`#rrggbb`, `#rgb`, or `none`); a field
/// left at its default is not written to the SVG, and means what SVG means without it (a black
/// fill, no stroke, a stroke 1 wide, a text of size 16 starting at its `x`).
#[derive(Clone, Copy, Default)]
pub struct Style<'a> {
    /// The fill; `None`: black (SVG's default), `Some("none")`: no fill.
    pub fill: Option<&'a str>,
    /// The fill's opacity, 0 to 1.
    pub fill_opacity: Option<f32>,
    /// The outline's colour; `None`: no outline.
    pub stroke: Option<&'a str>,
    /// The outline's width (1 when not given).
    pub stroke_width: Option<f32>,
    /// Dashes and gaps along the outline; empty: a solid outline.
    pub dash: &'a [f32],
    /// Round ends of open outlines (`stroke-linecap="round"`), else butt ends.
    pub round_caps: bool,
    /// Round corners of outlines (`stroke-linejoin="round"`), else mitred.
    pub round_joins: bool,
    /// The outline painted under the fill (`paint-order="stroke"`).
    pub stroke_first: bool,
    /// The whole shape laid on the picture at this opacity (its fill and outline together).
    pub opacity: Option<f32>,
    /// A text's size (16 when not given).
    pub font_size: Option<f32>,
    /// A bold text (drawn with the one bundled face, as the pictures always were).
    pub bold: bool,
    /// Where a text's `x` is: `"middle"` or `"end"` (`None`: its start).
    pub anchor: Option<&'a str>,
    /// Filled without anti-aliasing in the PNG (the SVG does not say it): for a large shape with
    /// long slanted edges between colours whose blends the 4-bit palette does not keep anyway (Hex's
    /// edge bands), where tiny-skia's anti-aliasing cost a sixth of a board's instructions.
    pub aliased: bool,
}

/// A step of a [`Painter::path`]: straight lines only, as the games draw.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    /// Starts a new part at (x, y).
    Move(f64, f64),
    /// A straight line to (x, y).
    Line(f64, f64),
    /// Closes the part.
    Close,
}

/// What a game draws its board with. Coordinates are in picture units (the PNG has
/// [`super::SCALE`] pixels to each); `attrs` are extra attributes for the web's SVG (`class`,
/// `data-*`, `id`), which do not change what is painted.
pub trait Painter {
    /// Starts the picture: its size and the font family named in the SVG.
    fn begin(&mut self, width: f64, height: f64, font_family: &str);
    /// The picture's title (not painted).
    fn title(&mut self, text: &str);
    /// The whole picture filled with one colour.
    fn background(&mut self, fill: &str);
    /// Starts a group of shapes (an SVG `<g>` with `attrs`); groups nest.
    fn group(&mut self, attrs: &[(&str, &str)]);
    /// Ends the last group started.
    fn end_group(&mut self);
    /// A rectangle, its corners rounded by `rx` (0: square corners).
    #[allow(clippy::too_many_arguments)]
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, rx: f64, s: &Style, attrs: &[(&str, &str)]);
    /// A circle.
    fn circle(&mut self, cx: f64, cy: f64, r: f64, s: &Style, attrs: &[(&str, &str)]);
    /// A straight line (its stroke only).
    #[allow(clippy::too_many_arguments)]
    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, s: &Style, attrs: &[(&str, &str)]);
    /// A closed polygon through `points`.
    fn polygon(&mut self, points: &[(f64, f64)], s: &Style, attrs: &[(&str, &str)]);
    /// A path of straight lines.
    fn path(&mut self, steps: &[Step], s: &Style, attrs: &[(&str, &str)]);
    /// One line of text with its baseline at `y`.
    fn text(&mut self, x: f64, y: f64, text: &str, s: &Style, attrs: &[(&str, &str)]);
    /// Says, before [`Painter::begin`], how far apart neighbouring cells' centres lie across the
    /// picture (half a hexagon's width where rows are offset by half a cell). A PNG fitted to a
    /// phone's width is then painted at the largest scale at which this step is an even number of
    /// pixels: every cell lands on the same pixels relative to its neighbours, so the picture's
    /// rows repeat and deflate finds them (issue 37 section 2). Nothing else changes; the SVG
    /// ignores it.
    fn grid(&mut self, _step: f64) {}
}

/// A coordinate as the SVG writes it (`{:.1}`, which rounds a tie to even), and as the filler
/// paints it: rounded to a tenth.
fn tenth(v: f64) -> f32 {
    ((v * 10.0).round_ties_even() / 10.0) as f32
}

/// Fills the shapes with tiny-skia at [`super::SCALE`] pixels a unit.
pub struct Filler {
    pixmap: Option<Pixmap>,
    scale: f32,
    /// The widest pixmap, in pixels: a wider picture is painted at a smaller scale.
    fit: Option<f32>,
    /// The step between cells across the picture ([`Painter::grid`]).
    step: Option<f64>,
    /// The first thing that could not be painted (a colour not written `#rrggbb`, `#rgb` or
    /// `none`, a character the font lacks, a picture of no size).
    error: Option<String>,
    /// Shapes painted once and copied wherever the same shape in the same style comes again
    /// (a board's cells and stones), keyed by [`sprite_key`].
    sprites: std::collections::HashMap<Vec<u8>, Sprite>,
    /// The bytes of pixels [`Filler::sprites`] holds: past [`SPRITE_BYTES`] shapes are painted
    /// where they are, as before.
    sprite_bytes: usize,
    /// The colours painted with, as `0xBBGGRR`, each once: they keep their exact value in a
    /// small palette (`indexed::quantize_small`).
    painted: Vec<u32>,
}

/// A shape painted on its own small transparent pixmap, and where the point it was keyed by
/// (its first point, or a circle's centre) lies on it.
struct Sprite {
    pixels: Pixmap,
    anchor: (i32, i32),
    /// Its pixels that are not transparent, as spans ([`spans_of`]).
    spans: Vec<Span>,
}

/// A run of pixels along a row of a sprite, all of them opaque or all of them partly transparent;
/// the pixels between spans are transparent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    row: u32,
    start: u32,
    end: u32,
    opaque: bool,
}

/// A sprite's rows as [`Span`]s, found once when the shape is painted: a copy then skips its
/// transparent pixels and copies its opaque ones a span at a time, with no test of each pixel's
/// alpha (that test was most of copying a Hex board's cells).
fn spans_of(sprite: &Pixmap) -> Vec<Span> {
    let width = sprite.width() as usize;
    let mut spans = Vec::new();
    for (row, pixels) in sprite.data().chunks(width * 4).enumerate() {
        let alpha = |i: usize| pixels[i * 4 + 3];
        let mut i = 0;
        while i < width {
            let a = alpha(i);
            let start = i;
            while i < width && alpha(i) != 0 && (alpha(i) == 255) == (a == 255) {
                i += 1;
            }
            if i == start {
                i += 1;
                continue;
            }
            spans.push(Span {
                row: row as u32,
                start: start as u32,
                end: i as u32,
                opaque: a == 255,
            });
        }
    }
    spans
}

/// The most bytes of sprites one picture keeps (a Hex cell at a phone's width is about 16 KB).
const SPRITE_BYTES: usize = 4 << 20;

/// The largest sprite, in pixels: a bigger shape (an edge's triangle, a caption) is seldom
/// repeated, and copying it would cost what painting it does.
const SPRITE_PIXELS: f32 = 160.0 * 160.0;

/// What makes two shapes paint the same pixels but for where they are: the style and the
/// filler's choices that follow from it, and `geometry` (the shape's points relative to its
/// anchor, in hundredths of a unit, written by [`Geometry`]).
fn sprite_key(s: &Style, filled: bool, geometry: &[u8]) -> Vec<u8> {
    let mut key = geometry.to_vec();
    for text in [s.fill, s.stroke] {
        key.extend_from_slice(text.unwrap_or("-").as_bytes());
        key.push(0);
    }
    for v in [s.fill_opacity, s.stroke_width, s.opacity] {
        key.extend_from_slice(&v.unwrap_or(f32::NAN).to_bits().to_le_bytes());
    }
    for d in s.dash {
        key.extend_from_slice(&d.to_bits().to_le_bytes());
    }
    key.push(
        u8::from(filled)
            | u8::from(s.round_caps) << 1
            | u8::from(s.round_joins) << 2
            | u8::from(s.stroke_first) << 3
            | u8::from(s.aliased) << 4,
    );
    key
}

/// A shape's points relative to its anchor, in hundredths of a unit: the part of a sprite's key
/// that says its form.
#[derive(Default)]
struct Geometry(Vec<u8>);

impl Geometry {
    fn kind(mut self, k: u8) -> Geometry {
        self.0.push(k);
        self
    }

    fn push(&mut self, v: f64) {
        self.0
            .extend_from_slice(&((v * 100.0).round() as i32).to_le_bytes());
    }
}

/// `sprite` laid over `dst` with its top left corner at (`x`, `y`): premultiplied source-over, as
/// tiny-skia paints a shape, so that a copied shape is the shape painted there. Span by span
/// ([`spans_of`]): an opaque span is copied whole, a partly transparent one blended a pixel at a
/// time, and the transparent pixels between them are not looked at.
fn blit(dst: &mut Pixmap, sprite: &Sprite, x: i32, y: i32) {
    let (dw, dh) = (dst.width() as i32, dst.height() as i32);
    let sw = sprite.pixels.width() as i32;
    // The sprite's columns that land on the picture.
    let (c0, c1) = ((-x).max(0), (dw - x).min(sw));
    if c0 >= c1 {
        return;
    }
    let from = sprite.pixels.data();
    let to = dst.data_mut();
    for span in &sprite.spans {
        let row = y + span.row as i32;
        let (start, end) = ((span.start as i32).max(c0), (span.end as i32).min(c1));
        if row < 0 || row >= dh || start >= end {
            continue;
        }
        let s = ((span.row as i32 * sw + start) * 4) as usize;
        let d = ((row * dw + x + start) * 4) as usize;
        let n = ((end - start) * 4) as usize;
        let (src, dst) = (&from[s..s + n], &mut to[d..d + n]);
        if span.opaque {
            dst.copy_from_slice(src);
            continue;
        }
        for (d, s) in dst
            .as_chunks_mut::<4>()
            .0
            .iter_mut()
            .zip(src.as_chunks::<4>().0)
        {
            let keep = 255 - u32::from(s[3]);
            for k in 0..4 {
                let v = u32::from(d[k]) * keep + 128;
                d[k] = s[k] + ((v + (v >> 8)) >> 8) as u8;
            }
        }
    }
}

impl Filler {
    /// A filler at `scale` pixels a picture unit.
    pub fn new(scale: f32) -> Filler {
        Filler {
            pixmap: None,
            scale,
            fit: None,
            step: None,
            error: None,
            sprites: std::collections::HashMap::new(),
            sprite_bytes: 0,
            painted: Vec::new(),
        }
    }

    /// This filler at a smaller scale when the picture would be more than `width` pixels wide.
    pub fn fitting(mut self, width: f32) -> Filler {
        self.fit = Some(width);
        self
    }

    /// The colours painted with so far, as `0xBBGGRR`, in the order first used.
    pub fn painted(&self) -> &[u32] {
        &self.painted
    }

    /// The picture painted, or what could not be.
    pub fn finish(self) -> Result<Pixmap, String> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.pixmap
            .ok_or_else(|| "the board picture: nothing was drawn".to_string())
    }

    fn fail(&mut self, what: String) {
        self.error
            .get_or_insert_with(|| format!("the board picture: {what}"));
    }

    fn colour(&mut self, value: &str) -> Option<Color> {
        match parse_colour(value) {
            Ok(c) => {
                if let Some(c) = c {
                    let c = c.to_color_u8();
                    let bgr = u32::from_le_bytes([c.red(), c.green(), c.blue(), 0]);
                    if !self.painted.contains(&bgr) {
                        self.painted.push(bgr);
                    }
                }
                c
            }
            Err(()) => {
                self.fail(format!(
                    "the colour `{value}` is not written `#rrggbb`, `#rgb` or `none`"
                ));
                None
            }
        }
    }

    /// Paints `path` (in picture units) with `s`: fill then outline (or the outline first), as
    /// one layer when the shape has an opacity; copying the pixels of the same shape painted before when `sprite` names
    /// it: its geometry relative to `anchor` (a point of the shape, in picture units), written as
    /// [`sprite_key`] takes it. The copy lands on whole pixels: the shape moves by up to half a
    /// pixel, which no eye sees, and every copy of it is alike, which the PNG's deflate likes.
    fn shape_at(
        &mut self,
        path: Option<Path>,
        s: &Style,
        filled: bool,
        sprite: Option<(&[u8], (f32, f32))>,
    ) {
        let Some(path) = path else { return };
        let scale = self.scale;
        let Some(device) = path.transform(Transform::from_scale(scale, scale)) else {
            return;
        };
        let fill = match filled {
            true => self.colour(s.fill.unwrap_or("#000000")),
            false => None,
        }
        .map(|mut c| {
            c.apply_opacity(s.fill_opacity.unwrap_or(1.0));
            (device.clone(), c)
        });
        let width = s.stroke_width.unwrap_or(1.0);
        let stroke = match s.stroke.and_then(|c| self.colour(c)) {
            Some(c) if width > 0.0 => {
                let dashed = if s.dash.iter().any(|&d| d > 0.0) {
                    let mut d: Vec<f32> = s.dash.iter().map(|v| v * scale).collect();
                    if d.len() % 2 == 1 {
                        d.extend_from_slice(&d.clone());
                    }
                    StrokeDash::new(d, 0.0).and_then(|dash| device.dash(&dash, 1.0))
                } else {
                    Some(device.clone())
                };
                let stroke = Stroke {
                    width: width * scale,
                    line_cap: if s.round_caps {
                        LineCap::Round
                    } else {
                        LineCap::Butt
                    },
                    line_join: if s.round_joins {
                        LineJoin::Round
                    } else {
                        LineJoin::Miter
                    },
                    ..Stroke::default()
                };
                dashed
                    .and_then(|p| p.stroke(&stroke, 1.0))
                    .map(|outline| (outline, c))
            }
            _ => None,
        };
        let parts = match s.stroke_first {
            true => [stroke, fill],
            false => [fill, stroke],
        };
        if self.pixmap.is_none() {
            self.fail("a shape drawn before the picture's size".into());
            return;
        }
        // A fill under an opaque solid outline at least 2 pixels wide is filled without
        // anti-aliasing: its edge pixels lie under the outline, which covers them, and
        // anti-aliased filling was a fifth of a Hex board's instructions.
        let crisp = !s.stroke_first
            && s.dash.is_empty()
            && width * scale >= 2.0
            && parts[1].as_ref().is_some_and(|(_, c)| c.is_opaque());
        let bounds = || {
            parts
                .iter()
                .flatten()
                .map(|(p, _)| p.bounds())
                .reduce(|a, b| {
                    Rect::from_ltrb(
                        a.left().min(b.left()),
                        a.top().min(b.top()),
                        a.right().max(b.right()),
                        a.bottom().max(b.bottom()),
                    )
                    .unwrap_or(a)
                })
        };
        match s.opacity.filter(|&o| o < 1.0) {
            None => {
                if let Some((geometry, (ax, ay))) = sprite
                    && let Some(b) = bounds()
                    && b.width() * b.height() <= SPRITE_PIXELS
                    && self.sprite_bytes < SPRITE_BYTES
                {
                    let (ax, ay) = (ax * scale, ay * scale);
                    let key = sprite_key(s, filled, geometry);
                    if !self.sprites.contains_key(&key) {
                        // The anchor on a whole pixel of the sprite, a pixel of room around.
                        let (ox, oy) = ((ax - b.left()).ceil() + 1.0, (ay - b.top()).ceil() + 1.0);
                        let w = ox + (b.right() - ax).ceil() + 2.0;
                        let h = oy + (b.bottom() - ay).ceil() + 2.0;
                        let Some(mut pixels) = Pixmap::new(w as u32, h as u32) else {
                            return;
                        };
                        let at = Transform::from_translate(ox - ax, oy - ay);
                        paint_parts(&mut pixels, &parts, crisp, s.aliased, at);
                        self.sprite_bytes += pixels.data().len();
                        let anchor = (ox as i32, oy as i32);
                        let spans = spans_of(&pixels);
                        self.sprite_bytes += spans.len() * std::mem::size_of::<Span>();
                        let sprite = Sprite {
                            pixels,
                            anchor,
                            spans,
                        };
                        self.sprites.insert(key.clone(), sprite);
                    }
                    let sprite = &self.sprites[&key];
                    if let Some(pixmap) = self.pixmap.as_mut() {
                        // On an even pixel across: the PNG packs two pixels a byte, and a shape
                        // copied at an odd pixel would be other bytes than at an even one.
                        let x = (ax / 2.0).round() as i32 * 2 - sprite.anchor.0;
                        let y = ay.round() as i32 - sprite.anchor.1;
                        blit(pixmap, sprite, x, y);
                    }
                    return;
                }
                let Some(pixmap) = self.pixmap.as_mut() else {
                    return;
                };
                paint_parts(pixmap, &parts, crisp, s.aliased, Transform::identity());
            }
            Some(opacity) => {
                // A layer, so that the outline over the fill does not show through.
                let Some(b) = bounds() else {
                    return;
                };
                let Some(pixmap) = self.pixmap.as_mut() else {
                    return;
                };
                let (x0, y0) = (b.left().floor() - 1.0, b.top().floor() - 1.0);
                let (x1, y1) = (b.right().ceil() + 1.0, b.bottom().ceil() + 1.0);
                let Some(mut layer) =
                    Pixmap::new((x1 - x0).max(1.0) as u32, (y1 - y0).max(1.0) as u32)
                else {
                    return;
                };
                let at = Transform::from_translate(-x0, -y0);
                for (p, c) in parts.iter().flatten() {
                    fill_path(&mut layer, p, *c, at);
                }
                let paint = PixmapPaint {
                    opacity,
                    ..PixmapPaint::default()
                };
                pixmap.draw_pixmap(
                    x0 as i32,
                    y0 as i32,
                    layer.as_ref(),
                    &paint,
                    Transform::identity(),
                    None,
                );
            }
        }
    }
}

/// Paints a shape's parts (fill and outline, in the order given) moved by `at`; the first part
/// without anti-aliasing when `crisp` (a fill under an outline that covers its edge), every part
/// when `aliased` ([`Style::aliased`]).
fn paint_parts(
    pixmap: &mut Pixmap,
    parts: &[Option<(Path, Color)>; 2],
    crisp: bool,
    aliased: bool,
    at: Transform,
) {
    for (k, part) in parts.iter().enumerate() {
        if let Some((p, c)) = part {
            let mut paint = Paint::default();
            paint.set_color(*c);
            paint.anti_alias = !(aliased || k == 0 && crisp);
            pixmap.fill_path(p, &paint, FillRule::Winding, at, None);
        }
    }
}

fn fill_path(pixmap: &mut Pixmap, path: &Path, colour: Color, at: Transform) {
    let mut paint = Paint::default();
    paint.set_color(colour);
    paint.anti_alias = true;
    pixmap.fill_path(path, &paint, FillRule::Winding, at, None);
}

/// `#rrggbb`, `#rgb` or `none` (`Ok(None)`).
fn parse_colour(value: &str) -> Result<Option<Color>, ()> {
    if value == "none" {
        return Ok(None);
    }
    let hex = value.strip_prefix('#').ok_or(())?;
    let digit = |b: u8| (b as char).to_digit(16).map(|d| d as u8).ok_or(());
    let b = hex.as_bytes();
    let (r, g, bl) = match b.len() {
        6 => (
            digit(b[0])? * 16 + digit(b[1])?,
            digit(b[2])? * 16 + digit(b[3])?,
            digit(b[4])? * 16 + digit(b[5])?,
        ),
        3 => (digit(b[0])? * 17, digit(b[1])? * 17, digit(b[2])? * 17),
        _ => return Err(()),
    };
    Ok(Some(Color::from_rgba8(r, g, bl, 255)))
}

impl Painter for Filler {
    fn begin(&mut self, width: f64, height: f64, _font_family: &str) {
        // The SVG's size is written whole (`{:.0}`): so is the pixmap's.
        let (w, h) = (width.round(), height.round());
        if !(w >= 1.0 && h >= 1.0 && w <= 8192.0 && h <= 8192.0) {
            self.fail(format!("a picture of {w} x {h} is not drawn"));
            return;
        }
        if let Some(fit) = self.fit
            && fit < w as f32 * self.scale
        {
            self.scale = fit / w as f32;
            // The largest scale under the fitted one at which the cells' step is even pixels.
            if let Some(step) = self.step {
                let pixels = (step * f64::from(self.scale) / 2.0).floor() * 2.0;
                if pixels >= 2.0 {
                    self.scale = (pixels / step) as f32;
                }
            }
        }
        let s = self.scale as f64;
        self.pixmap = Pixmap::new((w * s).round() as u32, (h * s).round() as u32);
    }

    fn title(&mut self, _text: &str) {}

    fn grid(&mut self, step: f64) {
        self.step = Some(step).filter(|s| *s > 0.0);
    }

    fn background(&mut self, fill: &str) {
        if let Some(c) = self.colour(fill)
            && let Some(p) = self.pixmap.as_mut()
        {
            p.fill(c);
        }
    }

    fn group(&mut self, _attrs: &[(&str, &str)]) {}

    fn end_group(&mut self) {}

    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, rx: f64, s: &Style, _: &[(&str, &str)]) {
        let (x, y, w, h, rx) = (tenth(x), tenth(y), tenth(w), tenth(h), tenth(rx));
        let r = rx.min(w / 2.0).min(h / 2.0);
        let mut geometry = Geometry::default().kind(b'r');
        for v in [w, h, r] {
            geometry.push(f64::from(v));
        }
        self.shape_at(
            rounded_rect(x, y, w, h, r),
            s,
            true,
            Some((&geometry.0, (x, y))),
        );
    }

    fn circle(&mut self, cx: f64, cy: f64, r: f64, s: &Style, _: &[(&str, &str)]) {
        let (cx, cy, r) = (tenth(cx), tenth(cy), tenth(r));
        let mut geometry = Geometry::default().kind(b'c');
        geometry.push(f64::from(r));
        self.shape_at(
            PathBuilder::from_circle(cx, cy, r),
            s,
            true,
            Some((&geometry.0, (cx, cy))),
        );
    }

    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, s: &Style, _: &[(&str, &str)]) {
        let mut b = PathBuilder::new();
        b.move_to(tenth(x1), tenth(y1));
        b.line_to(tenth(x2), tenth(y2));
        let mut geometry = Geometry::default().kind(b'l');
        geometry.push(x2 - x1);
        geometry.push(y2 - y1);
        let anchor = (tenth(x1), tenth(y1));
        self.shape_at(b.finish(), s, false, Some((&geometry.0, anchor)));
    }

    fn polygon(&mut self, points: &[(f64, f64)], s: &Style, _: &[(&str, &str)]) {
        let mut b = PathBuilder::new();
        let mut geometry = Geometry::default().kind(b'p');
        let (x0, y0) = points.first().copied().unwrap_or_default();
        for (k, &(x, y)) in points.iter().enumerate() {
            if k == 0 {
                b.move_to(tenth(x), tenth(y));
            } else {
                b.line_to(tenth(x), tenth(y));
            }
            geometry.push(x - x0);
            geometry.push(y - y0);
        }
        b.close();
        let anchor = (tenth(x0), tenth(y0));
        self.shape_at(b.finish(), s, true, Some((&geometry.0, anchor)));
    }

    fn path(&mut self, steps: &[Step], s: &Style, _: &[(&str, &str)]) {
        let mut b = PathBuilder::new();
        let mut geometry = Geometry::default().kind(b's');
        let mut anchor: Option<(f64, f64)> = None;
        for step in steps {
            match *step {
                Step::Move(x, y) => {
                    let (x0, y0) = *anchor.get_or_insert((x, y));
                    b.move_to(tenth(x), tenth(y));
                    geometry.0.push(b'M');
                    geometry.push(x - x0);
                    geometry.push(y - y0);
                }
                Step::Line(x, y) => {
                    let (x0, y0) = anchor.unwrap_or_default();
                    b.line_to(tenth(x), tenth(y));
                    geometry.0.push(b'L');
                    geometry.push(x - x0);
                    geometry.push(y - y0);
                }
                Step::Close => {
                    b.close();
                    geometry.0.push(b'Z');
                }
            }
        }
        let (x0, y0) = anchor.unwrap_or_default();
        let anchor = (tenth(x0), tenth(y0));
        self.shape_at(b.finish(), s, true, Some((&geometry.0, anchor)));
    }

    fn text(&mut self, x: f64, y: f64, text: &str, s: &Style, _: &[(&str, &str)]) {
        // SVG's white space: runs of blanks as one, trimmed.
        let words: Vec<&str> = text
            .split([' ', '\t', '\n'])
            .filter(|w| !w.is_empty())
            .collect();
        let anchor = match s.anchor {
            Some("middle") => Anchor::Middle,
            Some("end") => Anchor::End,
            _ => Anchor::Start,
        };
        let size = s.font_size.unwrap_or(16.0);
        if size * self.scale < MIN_TEXT_PIXELS {
            return;
        }
        // A text that comes again (a column's letter, a cell's colour letter) is copied: the same
        // pixels wherever it stands, which deflate finds again.
        let line = words.join(" ");
        let mut geometry = Geometry::default().kind(b't');
        geometry.push(f64::from(size));
        geometry.0.push(anchor as u8);
        geometry.0.extend_from_slice(line.as_bytes());
        let (x, y) = (tenth(x), tenth(y));
        match text::outline(&line, x, y, size, anchor, Transform::identity()) {
            Ok(p) => self.shape_at(p, s, true, Some((&geometry.0, (x, y)))),
            Err(text::Missing(c)) => {
                self.fail(format!("the font has no `{c}` (U+{:04X})", c as u32))
            }
        }
    }
}

/// The smallest text the PNG paints, in pixels a em: a smaller one (a cell's name on Unlur's board
/// fitted to a phone, 9 pixels, 4.5 CSS pixels on a phone's screen) cannot be read there and weighed
/// a fifth of the picture. The SVG of the web pages, shown larger, keeps it.
const MIN_TEXT_PIXELS: f32 = 10.0;

/// A rectangle, its corners rounded by `r` (quarter circles as cubic curves).
fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<Path> {
    if w <= 0.0 || h <= 0.0 {
        return None;
    }
    if r <= 0.0 {
        return Some(PathBuilder::from_rect(Rect::from_xywh(x, y, w, h)?));
    }
    // The control points of a quarter circle: 0.5523 of the radius from each end.
    let k = r * 0.552_284_8;
    let (right, bottom) = (x + w, y + h);
    let mut p = PathBuilder::new();
    p.move_to(x + r, y);
    p.line_to(right - r, y);
    p.cubic_to(right - r + k, y, right, y + r - k, right, y + r);
    p.line_to(right, bottom - r);
    p.cubic_to(
        right,
        bottom - r + k,
        right - r + k,
        bottom,
        right - r,
        bottom,
    );
    p.line_to(x + r, bottom);
    p.cubic_to(x + r - k, bottom, x, bottom - r + k, x, bottom - r);
    p.line_to(x, y + r);
    p.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    p.close();
    p.finish()
}

#[cfg(test)]
mod tests;
