//! The attribute values of the SVG subset the pictures are written in ([`super::svg`]): numbers,
//! lengths, colours, the properties children inherit, and path data. Each refuses what it does
//! not read with an error saying how to write it.

use tiny_skia::{Color, LineCap, LineJoin, Path, PathBuilder, Rect};

use super::text::Anchor;

/// The error for a picture that cannot be drawn: what is wrong, where, and what is read.
pub(super) fn refuse(what: String) -> String {
    format!("the board picture: {what}")
}

/// The inherited drawing properties (SVG's presentation attributes that pass to children).
#[derive(Clone)]
pub(super) struct Style {
    pub fill: Option<Color>,
    pub stroke: Option<Color>,
    pub fill_opacity: f32,
    pub stroke_opacity: f32,
    pub stroke_width: f32,
    pub dash: Option<Vec<f32>>,
    pub cap: LineCap,
    pub join: LineJoin,
    pub stroke_first: bool,
    pub font_size: f32,
    pub anchor: Anchor,
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

/// A number attribute (SVG units, no unit written).
pub(super) fn number(key: &str, value: &str) -> Result<f32, String> {
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
pub(super) fn numbers(key: &str, value: &str) -> Result<Vec<f32>, String> {
    value
        .split(|c: char| c == ',' || c.is_ascii_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| number(key, s))
        .collect()
}

/// A length that may be a percentage of `whole`.
pub(super) fn length(key: &str, value: &str, whole: f32) -> Result<f32, String> {
    match value.trim().strip_suffix('%') {
        Some(p) => Ok(number(key, p)? / 100.0 * whole),
        None => number(key, value),
    }
}

/// `#rgb`, `#rrggbb` or `none`.
pub(super) fn colour(key: &str, value: &str) -> Result<Option<Color>, String> {
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
pub(super) fn opacity(key: &str, value: &str) -> Result<f32, String> {
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
pub(super) fn set_style(
    style: &mut Style,
    element: &str,
    key: &str,
    value: &str,
) -> Result<(), String> {
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

/// A rectangle, its corners rounded by `rx` x `ry` (quarter ellipses as cubic curves).
pub(super) fn rect(x: f32, y: f32, w: f32, h: f32, rx: f32, ry: f32) -> Option<Path> {
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
pub(super) fn path_data(d: &str) -> Result<Option<Path>, String> {
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
            if first && c != 'M' && c != 'm' {
                return Err(bad("it does not start with `M`"));
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
