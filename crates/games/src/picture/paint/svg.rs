//! The SVG painter: what the web pages show, written from the same calls that fill the mail's PNG.

use std::fmt::Write as _;

use super::{Painter, Step, Style};
use crate::html::escape as esc;

/// Appends `v` as `format!("{v:.1}")` writes it (the exact value rounded to a tenth, a tie to even;
/// `-0.0` for a negative value that rounds to nothing), without the float formatter where the
/// tenth is plain: the product by ten is then far from a tie, and its whole part is written as an
/// integer. A board's polygons are thousands of coordinates, and the float formatter was most of
/// writing the SVG that every picture's key is taken from.
fn push_tenth(out: &mut String, v: f64) {
    let t = v * 10.0;
    // Rounding to the nearest double keeps order, so the product lies on the same side of a half
    // as ten times `v` unless it is that half: one a millionth or more from it rounds as the exact
    // value does (well inside i64 and the doubles' whole numbers below 1e9).
    if t.abs() < 1e9 && ((t - t.trunc()).abs() - 0.5).abs() > 1e-6 {
        let n = t.round() as i64;
        if n < 0 || n == 0 && v.is_sign_negative() {
            out.push('-');
        }
        let n = n.unsigned_abs();
        let mut digits = [0u8; 24];
        let mut at = digits.len();
        let mut rest = n / 10;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
        out.push('.');
        out.push(char::from(b'0' + (n % 10) as u8));
        return;
    }
    let _ = write!(out, "{v:.1}");
}

/// Writes the SVG the web pages show.
#[derive(Default)]
pub struct SvgWriter {
    out: String,
    /// Groups open: an element ends its line only outside any.
    depth: usize,
}

impl SvgWriter {
    /// The SVG document written so far, closed.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }

    fn attrs(&mut self, attrs: &[(&str, &str)]) {
        for (k, v) in attrs {
            let _ = write!(self.out, " {k}=\"{}\"", esc(v));
        }
    }

    fn style(&mut self, s: &Style) {
        let o = &mut self.out;
        if let Some(f) = s.fill {
            let _ = write!(o, " fill=\"{}\"", esc(f));
        }
        if let Some(v) = s.fill_opacity {
            let _ = write!(o, " fill-opacity=\"{v}\"");
        }
        if let Some(c) = s.stroke {
            let _ = write!(o, " stroke=\"{}\"", esc(c));
        }
        if let Some(w) = s.stroke_width {
            let _ = write!(o, " stroke-width=\"{w}\"");
        }
        if !s.dash.is_empty() {
            let d: Vec<String> = s.dash.iter().map(f32::to_string).collect();
            let _ = write!(o, " stroke-dasharray=\"{}\"", d.join(" "));
        }
        if s.round_caps {
            o.push_str(" stroke-linecap=\"round\"");
        }
        if s.round_joins {
            o.push_str(" stroke-linejoin=\"round\"");
        }
        if s.stroke_first {
            o.push_str(" paint-order=\"stroke\"");
        }
        if let Some(v) = s.opacity {
            let _ = write!(o, " opacity=\"{v}\"");
        }
        if let Some(v) = s.font_size {
            let _ = write!(o, " font-size=\"{v}\"");
        }
        if s.bold {
            o.push_str(" font-weight=\"bold\"");
        }
        if let Some(a) = s.anchor {
            let _ = write!(o, " text-anchor=\"{a}\"");
        }
    }

    fn close(&mut self, tail: &str) {
        self.out.push_str(tail);
        if self.depth == 0 {
            self.out.push('\n');
        }
    }
}

impl Painter for SvgWriter {
    fn begin(&mut self, width: f64, height: f64, font_family: &str) {
        let _ = writeln!(
            self.out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
             viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"{}\">",
            esc(font_family)
        );
    }

    fn title(&mut self, text: &str) {
        let _ = write!(self.out, "<title>{}</title>", esc(text));
        self.close("");
    }

    fn background(&mut self, fill: &str) {
        let _ = write!(
            self.out,
            "<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>",
            esc(fill)
        );
        self.close("");
    }

    fn group(&mut self, attrs: &[(&str, &str)]) {
        self.out.push_str("<g");
        self.attrs(attrs);
        self.out.push('>');
        self.depth += 1;
    }

    fn end_group(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.close("</g>");
    }

    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, rx: f64, s: &Style, attrs: &[(&str, &str)]) {
        self.out.push_str("<rect");
        self.attrs(attrs);
        let _ = write!(
            self.out,
            " x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\""
        );
        if rx > 0.0 {
            let _ = write!(self.out, " rx=\"{rx:.1}\"");
        }
        self.style(s);
        self.close("/>");
    }

    fn circle(&mut self, cx: f64, cy: f64, r: f64, s: &Style, attrs: &[(&str, &str)]) {
        self.out.push_str("<circle");
        self.attrs(attrs);
        let _ = write!(self.out, " cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\"");
        self.style(s);
        self.close("/>");
    }

    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, s: &Style, attrs: &[(&str, &str)]) {
        self.out.push_str("<line");
        self.attrs(attrs);
        let _ = write!(
            self.out,
            " x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\""
        );
        self.style(s);
        self.close("/>");
    }

    fn polygon(&mut self, points: &[(f64, f64)], s: &Style, attrs: &[(&str, &str)]) {
        self.out.push_str("<polygon");
        self.attrs(attrs);
        self.out.push_str(" points=\"");
        for (k, (x, y)) in points.iter().enumerate() {
            if k > 0 {
                self.out.push(' ');
            }
            push_tenth(&mut self.out, *x);
            self.out.push(',');
            push_tenth(&mut self.out, *y);
        }
        self.out.push('"');
        self.style(s);
        self.close("/>");
    }

    fn path(&mut self, steps: &[Step], s: &Style, attrs: &[(&str, &str)]) {
        self.out.push_str("<path");
        self.attrs(attrs);
        self.out.push_str(" d=\"");
        for (k, step) in steps.iter().enumerate() {
            if k > 0 {
                self.out.push(' ');
            }
            match *step {
                Step::Move(x, y) | Step::Line(x, y) => {
                    self.out.push(if matches!(step, Step::Move(..)) {
                        'M'
                    } else {
                        'L'
                    });
                    push_tenth(&mut self.out, x);
                    self.out.push(',');
                    push_tenth(&mut self.out, y);
                }
                Step::Close => self.out.push('Z'),
            }
        }
        self.out.push('"');
        self.style(s);
        self.close("/>");
    }

    fn text(&mut self, x: f64, y: f64, text: &str, s: &Style, attrs: &[(&str, &str)]) {
        self.out.push_str("<text");
        self.attrs(attrs);
        let _ = write!(self.out, " x=\"{x:.1}\" y=\"{y:.1}\"");
        self.style(s);
        let _ = write!(self.out, ">{}", esc(text));
        self.close("</text>");
    }
}

#[cfg(test)]
mod tests {
    use super::push_tenth;

    /// Every tenth written without the float formatter is what `{:.1}` writes: the tenths and
    /// hundredths and thousandths of a board's coordinates, both signs, the ties (0.25, 0.35, a
    /// thousandth's .x5), values just either side of them, zeros of both signs, what is too large
    /// or not a number.
    #[test]
    fn a_tenth_is_written_as_the_float_formatter_writes_it() {
        let mut values = vec![
            0.0,
            -0.0,
            0.05,
            -0.05,
            0.25,
            -0.25,
            0.35,
            1e9,
            -3e12,
            f64::NAN,
        ];
        values.extend([
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.049_999_999,
            1e-300,
            -1e-300,
        ]);
        for k in -200_000..200_000 {
            let k = f64::from(k);
            values.extend([k / 10.0, k / 100.0, k / 1000.0, k * 0.37, k / 7.0]);
            let tie = (k + 0.5) / 10.0;
            values.extend([tie, tie.next_up(), tie.next_down()]);
        }
        // Coordinates as the games work them out: a hexagon's corners.
        for i in 0..2_000 {
            let (x, y) = (
                f64::from(i) * 0.866_025_403_784_438_6 * 28.0,
                f64::from(i) * 1.5,
            );
            values.extend([x, y, x - 14.0, -y + 3.1]);
        }
        for v in values {
            let mut out = String::new();
            push_tenth(&mut out, v);
            assert_eq!(out, format!("{v:.1}"), "{v:e}");
        }
    }
}
