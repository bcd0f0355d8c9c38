//! The SVG painter: what the web pages show, written from the same calls that fill the mail's PNG.

use std::fmt::Write as _;

use super::{Painter, Step, Style};
use crate::html::escape as esc;

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
            let sep = if k == 0 { "" } else { " " };
            let _ = write!(self.out, "{sep}{x:.1},{y:.1}");
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
            let sep = if k == 0 { "" } else { " " };
            let _ = match step {
                Step::Move(x, y) => write!(self.out, "{sep}M{x:.1},{y:.1}"),
                Step::Line(x, y) => write!(self.out, "{sep}L{x:.1},{y:.1}"),
                Step::Close => write!(self.out, "{sep}Z"),
            };
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
