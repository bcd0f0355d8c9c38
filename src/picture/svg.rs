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
    Color, FillRule, Paint, Path, PathBuilder, Pixmap, PixmapPaint, Rect, Stroke, StrokeDash,
    Transform,
};

use super::attributes::{
    Style, length, number, numbers, opacity, path_data, rect, refuse, set_style,
};
use super::text;
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
    /// How it turns at a line's end.
    orient: Orient,
}

/// A marker's `orient`: along the line, along it but reversed at its start (an arrow head at
/// both ends pointing out), or a fixed angle in degrees.
#[derive(Clone, Copy)]
enum Orient {
    Auto,
    AutoStartReverse,
    Angle(f32),
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
        const DRAWN: [&str; 12] = [
            "svg", "g", "rect", "circle", "line", "polygon", "path", "text", "title", "desc",
            "defs", "marker",
        ];
        if !DRAWN.contains(&name) {
            return Err(refuse(format!(
                "the element `<{name}>` is not drawn (drawn: {})",
                DRAWN.join(", ")
            )));
        }
        if name == "svg" {
            return Err(refuse("an `<svg>` inside the picture is not drawn".into()));
        }
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
            _ => return Err(refuse("a `<marker>` is drawn only from `<defs>`".into())),
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

#[cfg(test)]
mod tests;
