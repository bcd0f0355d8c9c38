//! The SVG the games write (each game's `svg()`), read into shapes ready to fill at the picture's
//! scale. Only that subset is read, and anything else is refused with an error that names it:
//! a picture that would silently lose a part is worse than none (the mail then has no picture).
//!
//! Read: `<svg>` (width, height, a `viewBox` of `0 0 width height`), `<g>`, `<rect>` (`rx`,
//! `ry`, sizes in `%` of the picture), `<circle>`, `<line>`, `<polygon>`, `<path>` (`M L H V Z`,
//! absolute and relative), `<text>` (one font; `text-anchor`), `<title>` and `<desc>` (not
//! drawn), `<defs>` holding `<marker>`s used by `marker-start`/`marker-end` of a `<line>`; fill,
//! stroke (`#rgb`, `#rrggbb`, `none`), their opacities, `opacity`, `stroke-width`,
//! `stroke-dasharray`, `stroke-linecap`, `stroke-linejoin`, `paint-order`, `font-size`. `class`,
//! `id`, `data-*`, `xmlns`, `font-family` and `font-weight` are accepted and change nothing (the
//! one bundled face is DejaVu Sans, drawn for bold too, as resvg drew it).
//!
//! Shapes are made in device pixels: each path is mapped by the picture's scale, strokes and
//! dashes are turned into outlines there, and painting is filling those outlines.

use std::borrow::Cow;
use std::collections::HashMap;

use tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, PixmapPaint, Rect,
    Stroke, StrokeDash, Transform,
};

use super::text::{self, Anchor};
use super::xml::{self, Token};

/// Something to paint, in device pixels.
pub(super) enum Op {
    /// An outline filled (non-zero) with a colour (its alpha the fill's or stroke's opacity).
    Fill(Path, Color),
    /// Shapes painted apart and laid on the picture at an opacity (SVG's `opacity`: a disc's
    /// stroke over its fill does not show through).
    Layer(Vec<Op>, f32),
}

/// A picture, or one line of it: what it paints, in order.
#[derive(Default)]
pub(super) struct Drawing {
    pub ops: Vec<Op>,
}

impl Drawing {
    /// The smallest rectangle holding every outline it fills (anti-aliasing reaches a pixel
    /// further); `None` when it paints nothing.
    pub(super) fn bounds(&self) -> Option<Rect> {
        bounds_of(&self.ops)
    }

    /// Paints it on `pixmap`, shifted by (`dx`, `dy`) device pixels.
    pub(super) fn paint(&self, pixmap: &mut Pixmap, dx: f32, dy: f32) {
        paint_ops(&self.ops, pixmap, dx, dy);
    }
}

fn paint_ops(ops: &[Op], pixmap: &mut Pixmap, dx: f32, dy: f32) {
    let at = Transform::from_translate(dx, dy);
    for op in ops {
        match op {
            Op::Fill(path, colour) => {
                let mut paint = Paint::default();
                paint.set_color(*colour);
                paint.anti_alias = true;
                pixmap.fill_path(path, &paint, FillRule::Winding, at, None);
            }
            Op::Layer(inner, opacity) => {
                let Some(b) = bounds_of(inner) else {
                    continue;
                };
                // The layer covers the shapes' pixels (and the one anti-aliasing reaches).
                let (x0, y0) = ((b.left() + dx).floor() - 1.0, (b.top() + dy).floor() - 1.0);
                let (x1, y1) = (
                    (b.right() + dx).ceil() + 1.0,
                    (b.bottom() + dy).ceil() + 1.0,
                );
                let (w, h) = ((x1 - x0) as u32, (y1 - y0) as u32);
                let Some(mut layer) = Pixmap::new(w.max(1), h.max(1)) else {
                    continue;
                };
                paint_ops(inner, &mut layer, dx - x0, dy - y0);
                let paint = PixmapPaint {
                    opacity: *opacity,
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

/// The smallest rectangle holding the outlines `ops` fill.
fn bounds_of(ops: &[Op]) -> Option<Rect> {
    let mut acc: Option<Rect> = None;
    for op in ops {
        let b = match op {
            Op::Fill(p, _) => Some(p.bounds()),
            Op::Layer(inner, _) => bounds_of(inner),
        };
        if let Some(b) = b {
            acc = Some(match acc {
                None => b,
                Some(a) => Rect::from_ltrb(
                    a.left().min(b.left()),
                    a.top().min(b.top()),
                    a.right().max(b.right()),
                    a.bottom().max(b.bottom()),
                )
                .unwrap_or(a),
            });
        }
    }
    acc
}

/// The inherited drawing properties (SVG's presentation attributes that pass to children).
#[derive(Clone)]
struct Style {
    fill: Option<Color>,
    stroke: Option<Color>,
    fill_opacity: f32,
    stroke_opacity: f32,
    stroke_width: f32,
    dash: Option<Vec<f32>>,
    cap: LineCap,
    join: LineJoin,
    stroke_first: bool,
    font_size: f32,
    anchor: Anchor,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            fill: Some(Color::BLACK),
            stroke: None,
            fill_opacity: 1.0,
            stroke_opacity: 1.0,
            stroke_width: 1.0,
            dash: None,
            cap: LineCap::Butt,
            join: LineJoin::Miter,
            stroke_first: false,
            font_size: 16.0,
            anchor: Anchor::Start,
        }
    }
}

/// The picture's size and the properties its `<svg>` element gives every element.
#[derive(Clone)]
pub(super) struct Head {
    /// Width and height in SVG units (the PNG has [`super::SCALE`] pixels to each).
    pub width: f32,
    pub height: f32,
    style: Style,
}

/// A `<marker>`: shapes in its own units, drawn at a line's ends.
struct Marker {
    shapes: Vec<(Path, Style)>,
    view: (f32, f32),
    reference: (f32, f32),
    size: (f32, f32),
    /// Degrees, or `None` for the line's direction; `Some(NAN)` for `auto-start-reverse`.
    orient: Orient,
}

#[derive(Clone, Copy)]
enum Orient {
    Auto,
    AutoStartReverse,
    Angle(f32),
}

/// The error for a picture that cannot be drawn: what is wrong, where, and what is read.
fn refuse(what: String) -> String {
    format!("the board picture: {what}")
}

/// The whole SVG document read: its head and everything it draws at `scale` device pixels an
/// SVG unit.
pub(super) fn parse(svg: &str, scale: f32) -> Result<(Head, Drawing), String> {
    let tokens = xml::tokens(svg).map_err(refuse)?;
    let mut iter = tokens.into_iter().filter(|t| !is_blank(t));
    let head = match iter.next() {
        Some(Token::Start {
            name: "svg",
            attributes,
            empty: false,
        }) => head_of(&attributes)?,
        _ => return Err(refuse("it does not start with `<svg ...>`".into())),
    };
    let mut reader = Reader::new(&head, scale);
    let rest: Vec<Token> = iter.collect();
    let Some((Token::End("svg"), body)) = rest.split_last() else {
        return Err(refuse("it does not end with `</svg>`".into()));
    };
    reader.read(body)?;
    let drawing = reader.drawing;
    Ok((head, drawing))
}

/// The head line `<svg ...>` of a picture written one element a line.
pub(super) fn parse_head(line: &str) -> Result<Head, String> {
    let tokens = xml::tokens(line).map_err(refuse)?;
    match tokens.as_slice() {
        [
            Token::Start {
                name: "svg",
                attributes,
                empty: false,
            },
        ] => head_of(attributes),
        _ => Err(refuse("the first line is not one `<svg ...>` tag".into())),
    }
}

/// One line of a picture written one element a line (whole elements, no reference to another
/// line's), drawn as the document would draw it at that place.
pub(super) fn parse_line(head: &Head, line: &str, scale: f32) -> Result<Drawing, String> {
    let tokens = xml::tokens(line).map_err(refuse)?;
    let mut reader = Reader::new(head, scale);
    reader.read(&tokens)?;
    Ok(reader.drawing)
}

fn is_blank(t: &Token) -> bool {
    matches!(t, Token::Text(s) if s.trim().is_empty())
}

fn head_of(attributes: &[(&str, Cow<str>)]) -> Result<Head, String> {
    let mut style = Style::default();
    let (mut width, mut height, mut view) = (None, None, None);
    for (key, value) in attributes {
        match *key {
            "width" => width = Some(number(key, value)?),
            "height" => height = Some(number(key, value)?),
            "viewBox" => view = Some(numbers(key, value)?),
            "xmlns" | "version" => {}
            _ => set_style(&mut style, "svg", key, value)?,
        }
    }
    let (Some(width), Some(height)) = (width, height) else {
        return Err(refuse(
            "`<svg>` needs a width and a height (in SVG units)".into(),
        ));
    };
    if view.is_some_and(|v| v != [0.0, 0.0, width, height]) {
        return Err(refuse(format!(
            "the viewBox is drawn only as `0 0 {width} {height}` (the width and height)"
        )));
    }
    if !(width >= 1.0 && height >= 1.0 && width <= 8192.0 && height <= 8192.0) {
        return Err(refuse(format!(
            "a picture of {width} x {height} is not drawn"
        )));
    }
    Ok(Head {
        width,
        height,
        style,
    })
}

/// A number attribute (SVG units, no unit written).
fn number(key: &str, value: &str) -> Result<f32, String> {
    value
        .trim()
        .parse::<f32>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| {
            refuse(format!(
                "`{key}=\"{value}\"` is not a number (write e.g. `{key}=\"12.5\"`)"
            ))
        })
}

/// A list of numbers separated by spaces or commas.
fn numbers(key: &str, value: &str) -> Result<Vec<f32>, String> {
    value
        .split(|c: char| c == ',' || c.is_ascii_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| number(key, s))
        .collect()
}

/// A length that may be a percentage of `whole`.
fn length(key: &str, value: &str, whole: f32) -> Result<f32, String> {
    match value.trim().strip_suffix('%') {
        Some(p) => Ok(number(key, p)? / 100.0 * whole),
        None => number(key, value),
    }
}

/// `#rgb`, `#rrggbb` or `none`.
fn colour(key: &str, value: &str) -> Result<Option<Color>, String> {
    let v = value.trim();
    if v == "none" {
        return Ok(None);
    }
    let hex = v
        .strip_prefix('#')
        .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
    let channel = |s: &str| u8::from_str_radix(s, 16).ok();
    let rgb = match hex {
        Some(h) if h.len() == 6 => (channel(&h[0..2]), channel(&h[2..4]), channel(&h[4..6])),
        Some(h) if h.len() == 3 => {
            let twice = |k: usize| channel(&h[k..k + 1]).map(|c| c * 17);
            (twice(0), twice(1), twice(2))
        }
        _ => (None, None, None),
    };
    match rgb {
        (Some(r), Some(g), Some(b)) => Ok(Some(Color::from_rgba8(r, g, b, 255))),
        _ => Err(refuse(format!(
            "`{key}=\"{value}\"`: colours are drawn written `#rrggbb`, `#rgb` or `none`"
        ))),
    }
}

/// An opacity, 0 to 1.
fn opacity(key: &str, value: &str) -> Result<f32, String> {
    let v = number(key, value)?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(refuse(format!(
            "`{key}=\"{value}\"` is an opacity from 0 to 1"
        )))
    }
}

/// Sets an inherited property from its attribute; an error for an attribute not read.
fn set_style(style: &mut Style, element: &str, key: &str, value: &str) -> Result<(), String> {
    let one_of = |words: &[&str]| -> Result<usize, String> {
        words
            .iter()
            .position(|w| *w == value.trim())
            .ok_or_else(|| {
                refuse(format!(
                    "`{key}=\"{value}\"` is drawn only as one of: {}",
                    words.join(", ")
                ))
            })
    };
    match key {
        "fill" => style.fill = colour(key, value)?,
        "stroke" => style.stroke = colour(key, value)?,
        "fill-opacity" => style.fill_opacity = opacity(key, value)?,
        "stroke-opacity" => style.stroke_opacity = opacity(key, value)?,
        "stroke-width" => style.stroke_width = number(key, value)?.max(0.0),
        "stroke-dasharray" => {
            style.dash = match value.trim() {
                "none" => None,
                _ => Some(numbers(key, value)?),
            }
        }
        "stroke-linecap" => {
            style.cap = [LineCap::Butt, LineCap::Round, LineCap::Square]
                [one_of(&["butt", "round", "square"])?]
        }
        "stroke-linejoin" => {
            style.join = [LineJoin::Miter, LineJoin::Round, LineJoin::Bevel]
                [one_of(&["miter", "round", "bevel"])?]
        }
        "paint-order" => {
            style.stroke_first =
                one_of(&["normal", "fill", "stroke", "fill stroke", "stroke fill"])? >= 2
                    && value.trim().starts_with("stroke")
        }
        "font-size" => style.font_size = number(key, value.trim().trim_end_matches("px"))?,
        "text-anchor" => {
            style.anchor =
                [Anchor::Start, Anchor::Middle, Anchor::End][one_of(&["start", "middle", "end"])?]
        }
        "font-weight" => {
            one_of(&["normal", "bold", "400", "700"])?;
        }
        "font-family" | "class" | "id" => {}
        _ if key.starts_with("data-") => {}
        _ => {
            return Err(refuse(format!(
                "`<{element}>` has the attribute `{key}`, which is not drawn (see src/picture/svg.rs for what is)"
            )));
        }
    }
    Ok(())
}

/// Reads elements into a drawing.
struct Reader<'h> {
    head: &'h Head,
    device: Transform,
    markers: HashMap<String, Marker>,
    drawing: Drawing,
}

impl<'h> Reader<'h> {
    fn new(head: &'h Head, scale: f32) -> Reader<'h> {
        Reader {
            head,
            device: Transform::from_scale(scale, scale),
            markers: HashMap::new(),
            drawing: Drawing::default(),
        }
    }

    /// Reads `tokens`, which must be whole elements.
    fn read(&mut self, tokens: &[Token]) -> Result<(), String> {
        let mut at = 0;
        let style = self.head.style.clone();
        let mut ops = Vec::new();
        while at < tokens.len() {
            at = self.element(tokens, at, &style, &mut ops)?;
        }
        self.drawing.ops.extend(ops);
        Ok(())
    }

    /// Reads the element starting at `tokens[at]` (blank text is skipped) and returns where the
    /// next one starts.
    fn element(
        &mut self,
        tokens: &[Token],
        at: usize,
        parent: &Style,
        ops: &mut Vec<Op>,
    ) -> Result<usize, String> {
        let (name, attributes, empty) = match &tokens[at] {
            Token::Start {
                name,
                attributes,
                empty,
            } => (*name, attributes, *empty),
            t if is_blank(t) => return Ok(at + 1),
            Token::Text(s) => {
                return Err(refuse(format!(
                    "the text `{}` is outside any `<text>`",
                    s.trim()
                )));
            }
            Token::End(n) => return Err(refuse(format!("`</{n}>` closes nothing"))),
        };
        // The element's children (and its end), checked to close in order.
        let end = if empty {
            at
        } else {
            closing(tokens, at, name)?
        };
        let children = &tokens[at + 1..end.max(at + 1)];
        let next = end + 1;
        let mut style = parent.clone();
        let mut geometry: Vec<(&str, &str)> = Vec::new();
        let mut layer_opacity = 1.0;
        let mut markers = (None, None);
        for (key, value) in attributes {
            let (key, value) = (*key, value.as_ref());
            match (name, key) {
                (_, "opacity") => layer_opacity = opacity(key, value)?,
                ("rect", "x" | "y" | "width" | "height" | "rx" | "ry")
                | ("circle", "cx" | "cy" | "r")
                | ("line", "x1" | "y1" | "x2" | "y2")
                | ("polygon", "points")
                | ("path", "d")
                | ("text", "x" | "y") => geometry.push((key, value)),
                ("line", "marker-start") => markers.0 = Some(self.marker_ref(key, value)?),
                ("line", "marker-end") => markers.1 = Some(self.marker_ref(key, value)?),
                ("marker", _) => {}
                _ => set_style(&mut style, name, key, value)?,
            }
        }
        let get = |k: &str| geometry.iter().find(|(g, _)| *g == k).map(|(_, v)| *v);
        let num = |k: &str| get(k).map_or(Ok(0.0), |v| number(k, v));
        let mut own = Vec::new();
        match name {
            "title" | "desc" => return Ok(next),
            "g" => {
                let mut k = 0;
                while k < children.len() {
                    k = self.element(children, k, &style, &mut own)?;
                }
            }
            "defs" => {
                let mut k = 0;
                while k < children.len() {
                    match &children[k] {
                        t if is_blank(t) => k += 1,
                        Token::Start {
                            name: "marker",
                            empty,
                            ..
                        } => {
                            let e = if *empty {
                                k
                            } else {
                                closing(children, k, "marker")?
                            };
                            self.marker(&children[k..=e], &style)?;
                            k = e + 1;
                        }
                        _ => return Err(refuse("`<defs>` holds only `<marker>`s here".into())),
                    }
                }
                return Ok(next);
            }
            "rect" => {
                let (w, h) = (self.head.width, self.head.height);
                let width = get("width").map_or(Ok(0.0), |v| length("width", v, w))?;
                let height = get("height").map_or(Ok(0.0), |v| length("height", v, h))?;
                let (x, y) = (
                    get("x").map_or(Ok(0.0), |v| length("x", v, w))?,
                    get("y").map_or(Ok(0.0), |v| length("y", v, h))?,
                );
                let rx = get("rx").map(|v| number("rx", v)).transpose()?;
                let ry = get("ry").map(|v| number("ry", v)).transpose()?;
                let (rx, ry) = (rx.or(ry).unwrap_or(0.0), ry.or(rx).unwrap_or(0.0));
                if let Some(p) = rect(
                    x,
                    y,
                    width,
                    height,
                    rx.min(width / 2.0),
                    ry.min(height / 2.0),
                ) {
                    self.shape(&p, &style, self.device, &mut own)?;
                }
            }
            "circle" => {
                if let Some(p) = PathBuilder::from_circle(num("cx")?, num("cy")?, num("r")?) {
                    self.shape(&p, &style, self.device, &mut own)?;
                }
            }
            "line" => {
                let (x1, y1, x2, y2) = (num("x1")?, num("y1")?, num("x2")?, num("y2")?);
                let mut b = PathBuilder::new();
                b.move_to(x1, y1);
                b.line_to(x2, y2);
                if let Some(p) = b.finish() {
                    self.shape(
                        &p,
                        &Style {
                            fill: None,
                            ..style.clone()
                        },
                        self.device,
                        &mut own,
                    )?;
                }
                let angle = (y2 - y1).atan2(x2 - x1).to_degrees();
                for (id, (x, y), end) in [(markers.0, (x1, y1), false), (markers.1, (x2, y2), true)]
                {
                    if let Some(id) = id {
                        self.place_marker(&id, x, y, angle, end, style.stroke_width, &mut own)?;
                    }
                }
            }
            "polygon" => {
                let v = numbers("points", get("points").unwrap_or(""))?;
                if v.len() % 2 != 0 {
                    return Err(refuse(
                        "`points` holds pairs of numbers `x,y x,y ...`".into(),
                    ));
                }
                let mut b = PathBuilder::new();
                for (k, xy) in v.chunks(2).enumerate() {
                    if k == 0 {
                        b.move_to(xy[0], xy[1])
                    } else {
                        b.line_to(xy[0], xy[1])
                    }
                }
                b.close();
                if let Some(p) = b.finish() {
                    self.shape(&p, &style, self.device, &mut own)?;
                }
            }
            "path" => {
                if let Some(p) = path_data(get("d").unwrap_or(""))? {
                    self.shape(&p, &style, self.device, &mut own)?;
                }
            }
            "text" => {
                let mut s = String::new();
                for child in children {
                    match child {
                        Token::Text(t) => s.push_str(t),
                        _ => {
                            return Err(refuse(
                                "`<text>` holds only characters here (no `<tspan>`)".into(),
                            ));
                        }
                    }
                }
                // SVG's white space: newlines dropped, tabs as spaces, runs of spaces as one, trimmed.
                let s = s.replace(['\n', '\r'], "").replace('\t', " ");
                let words: Vec<&str> = s.split(' ').filter(|w| !w.is_empty()).collect();
                let s = words.join(" ");
                let glyphs = text::outline(
                    &s,
                    num("x")?,
                    num("y")?,
                    style.font_size,
                    style.anchor,
                    Transform::identity(),
                )
                .map_err(|text::Missing(c)| {
                    refuse(format!("the font has no `{c}` (U+{:04X})", c as u32))
                })?;
                if let Some(p) = glyphs {
                    self.shape(&p, &style, self.device, &mut own)?;
                }
            }
            "svg" => return Err(refuse("an `<svg>` inside the picture is not drawn".into())),
            _ => {
                return Err(refuse(format!(
                    "the element `<{name}>` is not drawn (drawn: svg, g, rect, circle, line, polygon, path, \
                     text, title, desc, defs, marker)"
                )));
            }
        }
        if name != "g" && name != "text" && children.iter().any(|t| !is_blank(t)) {
            return Err(refuse(format!(
                "`<{name}>` has content, which is not drawn"
            )));
        }
        if layer_opacity < 1.0 {
            ops.push(Op::Layer(own, layer_opacity));
        } else {
            ops.extend(own);
        }
        Ok(next)
    }

    /// The id in `url(#id)`.
    fn marker_ref(&self, key: &str, value: &str) -> Result<String, String> {
        let id = value
            .trim()
            .strip_prefix("url(#")
            .and_then(|v| v.strip_suffix(')'));
        match id {
            Some(id) if self.markers.contains_key(id) => Ok(id.to_string()),
            Some(id) => Err(refuse(format!(
                "`{key}` refers to `#{id}`, which no `<marker>` before it defines"
            ))),
            None => Err(refuse(format!("`{key}=\"{value}\"` is written `url(#id)`"))),
        }
    }

    /// Reads a `<marker>` element (its tokens from start to end).
    fn marker(&mut self, tokens: &[Token], parent: &Style) -> Result<(), String> {
        let Token::Start { attributes, .. } = &tokens[0] else {
            unreachable!("a marker starts with its tag")
        };
        let mut style = parent.clone();
        let (mut id, mut view, mut reference, mut size, mut orient) =
            (None, None, (0.0, 0.0), (3.0, 3.0), Orient::Angle(0.0));
        for (key, value) in attributes {
            let v = value.as_ref();
            match *key {
                "id" => id = Some(v.to_string()),
                "viewBox" => {
                    let n = numbers(key, v)?;
                    if n.len() != 4 || n[0] != 0.0 || n[1] != 0.0 || n[2] <= 0.0 || n[3] <= 0.0 {
                        return Err(refuse(
                            "a marker's viewBox is drawn only as `0 0 width height`".into(),
                        ));
                    }
                    view = Some((n[2], n[3]));
                }
                "refX" => reference.0 = number(key, v)?,
                "refY" => reference.1 = number(key, v)?,
                "markerWidth" => size.0 = number(key, v)?,
                "markerHeight" => size.1 = number(key, v)?,
                "orient" => {
                    orient = match v.trim() {
                        "auto" => Orient::Auto,
                        "auto-start-reverse" => Orient::AutoStartReverse,
                        a => Orient::Angle(number(key, a)?),
                    }
                }
                _ => set_style(&mut style, "marker", key, v)?,
            }
        }
        let id = id.ok_or_else(|| refuse("a `<marker>` without an id is never drawn".into()))?;
        // Its shapes, read in its own units (no device scale: that comes where it is placed).
        let mut inner = Reader {
            head: self.head,
            device: Transform::identity(),
            markers: HashMap::new(),
            drawing: Drawing::default(),
        };
        let mut shapes = Vec::new();
        let body = tokens.get(1..tokens.len() - 1).unwrap_or_default();
        let mut k = 0;
        while k < body.len() {
            let mut ops = Vec::new();
            k = inner.element(body, k, &style, &mut ops)?;
            for op in ops {
                match op {
                    Op::Fill(p, c) => shapes.push((p, c)),
                    Op::Layer(..) => {
                        return Err(refuse("`opacity` inside a `<marker>` is not drawn".into()));
                    }
                }
            }
        }
        let view = view.unwrap_or(size);
        let shapes = shapes
            .into_iter()
            .map(|(p, c)| {
                (
                    p,
                    Style {
                        fill: Some(c),
                        stroke: None,
                        fill_opacity: 1.0,
                        ..Style::default()
                    },
                )
            })
            .collect();
        self.markers.insert(
            id,
            Marker {
                shapes,
                view,
                reference,
                size,
                orient,
            },
        );
        Ok(())
    }

    /// Draws marker `id` at a line's end (`end`) or start.
    #[allow(clippy::too_many_arguments)]
    fn place_marker(
        &mut self,
        id: &str,
        x: f32,
        y: f32,
        angle: f32,
        end: bool,
        stroke_width: f32,
        ops: &mut Vec<Op>,
    ) -> Result<(), String> {
        let m = &self.markers[id];
        let turn = match m.orient {
            Orient::Auto => angle,
            Orient::AutoStartReverse if !end => angle + 180.0,
            Orient::AutoStartReverse => angle,
            Orient::Angle(a) => a,
        };
        // Marker units are the stroke's width; its view box fitted into its size, uniformly.
        let fit = (m.size.0 / m.view.0).min(m.size.1 / m.view.1) * stroke_width;
        let at = Transform::from_translate(-m.reference.0, -m.reference.1)
            .post_scale(fit, fit)
            .post_rotate(turn)
            .post_translate(x, y)
            .post_concat(self.device);
        for (p, s) in &m.shapes {
            self.shape(p, s, at, ops)?;
        }
        Ok(())
    }

    /// The ops that paint a shape (given in SVG units) mapped by `at`: fill then stroke, or
    /// stroke first (`paint-order="stroke"`).
    fn shape(
        &self,
        path: &Path,
        style: &Style,
        at: Transform,
        ops: &mut Vec<Op>,
    ) -> Result<(), String> {
        let Some(device) = path.clone().transform(at) else {
            return Ok(());
        };
        let with_alpha = |c: Color, a: f32| {
            let mut c = c;
            c.apply_opacity(a);
            c
        };
        let fill = style
            .fill
            .map(|c| Op::Fill(device.clone(), with_alpha(c, style.fill_opacity)));
        let scale = (at.sx * at.sy - at.kx * at.ky).abs().sqrt();
        let stroke = match style.stroke {
            Some(c) if style.stroke_width > 0.0 => {
                let dashed = match &style.dash {
                    Some(d) if !d.is_empty() && d.iter().any(|&v| v > 0.0) => {
                        let mut d: Vec<f32> = d.iter().map(|v| v * scale).collect();
                        if d.len() % 2 == 1 {
                            d.extend_from_slice(&d.clone());
                        }
                        let dash = StrokeDash::new(d, 0.0).ok_or_else(|| {
                            refuse("a `stroke-dasharray` of negative lengths".into())
                        })?;
                        device.dash(&dash, 1.0)
                    }
                    _ => Some(device.clone()),
                };
                let stroke = Stroke {
                    width: style.stroke_width * scale,
                    line_cap: style.cap,
                    line_join: style.join,
                    ..Stroke::default()
                };
                dashed
                    .and_then(|p| p.stroke(&stroke, 1.0))
                    .map(|outline| Op::Fill(outline, with_alpha(c, style.stroke_opacity)))
            }
            _ => None,
        };
        let (first, second) = if style.stroke_first {
            (stroke, fill)
        } else {
            (fill, stroke)
        };
        ops.extend(first);
        ops.extend(second);
        Ok(())
    }
}

/// Where the element `name` starting at `tokens[at]` closes.
fn closing(tokens: &[Token], at: usize, name: &str) -> Result<usize, String> {
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate().skip(at) {
        match t {
            Token::Start { empty: false, .. } => depth += 1,
            Token::End(n) => {
                depth -= 1;
                if depth == 0 {
                    return if *n == name {
                        Ok(k)
                    } else {
                        Err(refuse(format!("`<{name}>` is closed by `</{n}>`")))
                    };
                }
            }
            _ => {}
        }
    }
    Err(refuse(format!("`<{name}>` is not closed")))
}

/// A rectangle, its corners rounded by `rx` x `ry` (quarter ellipses as cubic curves).
fn rect(x: f32, y: f32, w: f32, h: f32, rx: f32, ry: f32) -> Option<Path> {
    if w <= 0.0 || h <= 0.0 {
        return None;
    }
    if rx <= 0.0 || ry <= 0.0 {
        return Some(PathBuilder::from_rect(Rect::from_xywh(x, y, w, h)?));
    }
    // The control points of a quarter circle: 0.5523 of the radius from each end.
    const K: f32 = 0.552_284_8;
    let (kx, ky) = (rx * K, ry * K);
    let (r, b) = (x + w, y + h);
    let mut p = PathBuilder::new();
    p.move_to(x + rx, y);
    p.line_to(r - rx, y);
    p.cubic_to(r - rx + kx, y, r, y + ry - ky, r, y + ry);
    p.line_to(r, b - ry);
    p.cubic_to(r, b - ry + ky, r - rx + kx, b, r - rx, b);
    p.line_to(x + rx, b);
    p.cubic_to(x + rx - kx, b, x, b - ry + ky, x, b - ry);
    p.line_to(x, y + ry);
    p.cubic_to(x, y + ry - ky, x + rx - kx, y, x + rx, y);
    p.close();
    p.finish()
}

/// A path's `d`: moves and straight lines (`M L H V Z`, and their relative forms).
fn path_data(d: &str) -> Result<Option<Path>, String> {
    let bad = |what: &str| {
        refuse(format!(
            "the path `{d}`: {what} (drawn: M, L, H, V, Z and their lower-case forms)"
        ))
    };
    let mut b = PathBuilder::new();
    let (mut x, mut y, mut start) = (0.0f32, 0.0f32, (0.0f32, 0.0f32));
    let mut rest = d.trim_start();
    let mut command = None;
    let mut first = true;
    while !rest.is_empty() {
        if let Some(c) = rest.chars().next().filter(|c| c.is_ascii_alphabetic()) {
            if !"MmLlHhVvZz".contains(c) {
                return Err(bad(&format!("the command `{c}` is not drawn")));
            }
            command = Some(c);
            rest = rest[1..].trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ',');
            if c == 'Z' || c == 'z' {
                b.close();
                (x, y) = start;
                command = None;
            }
            first = false;
            continue;
        }
        if first {
            return Err(bad("it does not start with `M`"));
        }
        let mut take = || -> Result<f32, String> {
            let end = rest
                .char_indices()
                .find(|&(k, c)| {
                    k > 0
                        && (c == ','
                            || c.is_ascii_whitespace()
                            || c.is_ascii_alphabetic() && c != 'e'
                            || (c == '-' || c == '+') && !rest[..k].ends_with('e'))
                })
                .map_or(rest.len(), |(k, _)| k);
            let v = rest[..end]
                .parse::<f32>()
                .map_err(|_| bad(&format!("`{}` is not a number", &rest[..end])))?;
            rest = rest[end..].trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ',');
            Ok(v)
        };
        match command {
            Some(c @ ('M' | 'm' | 'L' | 'l')) => {
                let (nx, ny) = (take()?, take()?);
                (x, y) = if c.is_ascii_lowercase() {
                    (x + nx, y + ny)
                } else {
                    (nx, ny)
                };
                if c == 'M' || c == 'm' {
                    b.move_to(x, y);
                    start = (x, y);
                    // Further pairs after a move are lines.
                    command = Some(if c == 'M' { 'L' } else { 'l' });
                } else {
                    b.line_to(x, y);
                }
            }
            Some(c @ ('H' | 'h')) => {
                let v = take()?;
                x = if c == 'h' { x + v } else { v };
                b.line_to(x, y);
            }
            Some(c @ ('V' | 'v')) => {
                let v = take()?;
                y = if c == 'v' { y + v } else { v };
                b.line_to(x, y);
            }
            _ => return Err(bad("a number without a command")),
        }
    }
    Ok(b.finish())
}
