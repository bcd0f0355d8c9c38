use super::*;

/// `paint` on a 40 x 40 white picture at scale 1.
fn fill(paint: impl FnOnce(&mut dyn Painter)) -> Pixmap {
    let mut f = Filler::new(1.0);
    f.begin(40.0, 40.0, "DejaVu Sans");
    f.background("#ffffff");
    paint(&mut f);
    f.finish().unwrap()
}

/// The colour of a pixel (the pictures are opaque: premultiplied is the colour).
fn at(p: &Pixmap, x: u32, y: u32) -> [u8; 3] {
    let c = p.pixel(x, y).unwrap();
    assert_eq!(c.alpha(), 255, "pixel {x},{y} is opaque");
    [c.red(), c.green(), c.blue()]
}

const WHITE: [u8; 3] = [255, 255, 255];
const RED: [u8; 3] = [255, 0, 0];
const BLUE: [u8; 3] = [0, 0, 255];
const BLACK: [u8; 3] = [0, 0, 0];

fn filled(c: &str) -> Style<'_> {
    Style {
        fill: Some(c),
        ..Style::default()
    }
}

#[test]
fn rectangles_circles_polygons_and_paths_are_filled_where_they_are() {
    let p = fill(|p| p.rect(10.0, 10.0, 20.0, 10.0, 0.0, &filled("#ff0000"), &[]));
    assert_eq!(
        (at(&p, 15, 15), at(&p, 15, 25), at(&p, 5, 15)),
        (RED, WHITE, WHITE)
    );
    // Rounded corners: the corner's pixel stays white, the middle of the edge is filled.
    let p = fill(|p| p.rect(0.0, 0.0, 40.0, 40.0, 12.0, &filled("#f00"), &[]));
    assert_eq!(
        (at(&p, 0, 0), at(&p, 20, 0), at(&p, 0, 20)),
        (WHITE, RED, RED)
    );
    let p = fill(|p| p.circle(20.0, 20.0, 10.0, &filled("#ff0000"), &[]));
    assert_eq!(
        (at(&p, 20, 20), at(&p, 12, 12), at(&p, 20, 11)),
        (RED, WHITE, RED)
    );
    let p = fill(|p| {
        p.polygon(
            &[(0.0, 0.0), (40.0, 0.0), (0.0, 40.0)],
            &filled("#00f"),
            &[],
        )
    });
    assert_eq!((at(&p, 5, 5), at(&p, 35, 35)), (BLUE, WHITE));
    // Two closed parts; the black default fill.
    let square = |x: f64, y: f64| {
        [
            Step::Move(x, y),
            Step::Line(x + 20.0, y),
            Step::Line(x + 20.0, y + 5.0),
            Step::Line(x, y + 5.0),
            Step::Close,
        ]
    };
    let steps: Vec<Step> = square(10.0, 10.0)
        .into_iter()
        .chain(square(10.0, 25.0))
        .collect();
    let p = fill(|p| p.path(&steps, &Style::default(), &[]));
    assert_eq!(
        (at(&p, 20, 12), at(&p, 20, 20), at(&p, 20, 27)),
        (BLACK, WHITE, BLACK)
    );
    // Groups and titles paint nothing.
    let p = fill(|p| {
        p.title("t");
        p.group(&[("class", "cell")]);
        p.end_group();
    });
    assert_eq!(at(&p, 20, 20), WHITE);
}

#[test]
fn strokes_take_their_width_dashes_caps_joins_and_order() {
    let line = |s: Style| fill(|p| p.line(10.0, 20.0, 30.0, 20.0, &s, &[]));
    let red = Style {
        stroke: Some("#ff0000"),
        stroke_width: Some(4.0),
        ..Style::default()
    };
    let p = line(red);
    assert_eq!(
        (at(&p, 20, 19), at(&p, 20, 22), at(&p, 20, 18)),
        (RED, WHITE, RED)
    );
    // Butt ends stop at the end; round ones reach 2 past it.
    assert_eq!(at(&p, 30, 20), WHITE);
    let round = Style {
        round_caps: true,
        ..red
    };
    assert_eq!(at(&line(round), 30, 20), RED);
    // Dashes of 4 on, 4 off from the start.
    let p = line(Style {
        dash: &[4.0, 4.0],
        ..red
    });
    assert_eq!(
        (at(&p, 12, 20), at(&p, 16, 20), at(&p, 20, 20)),
        (RED, WHITE, RED)
    );
    // A square's corner: mitred joins fill it, round ones cut it; no fill inside.
    let square = |round_joins| {
        let s = Style {
            fill: Some("none"),
            stroke: Some("#0000ff"),
            stroke_width: Some(6.0),
            round_joins,
            ..Style::default()
        };
        fill(|p| p.rect(10.0, 10.0, 20.0, 20.0, 0.0, &s, &[]))
    };
    assert_eq!(at(&square(false), 7, 7), BLUE);
    assert!(
        at(&square(true), 7, 7)[0] > 200,
        "the round corner grazes it"
    );
    assert_eq!(at(&square(false), 20, 20), WHITE, "fill none");
    // The stroke lies over the fill, or under it when painted first.
    let disc = |stroke_first| {
        let s = Style {
            fill: Some("#ff0000"),
            stroke: Some("#0000ff"),
            stroke_width: Some(6.0),
            stroke_first,
            ..Style::default()
        };
        fill(|p| p.circle(20.0, 20.0, 10.0, &s, &[]))
    };
    assert_eq!(at(&disc(false), 20, 12), BLUE);
    assert_eq!(at(&disc(true), 20, 12), RED);
    assert_eq!(at(&disc(true), 20, 8), BLUE);
}

#[test]
fn opacities_blend_and_a_layer_hides_its_own_fill() {
    let half = Style {
        fill: Some("#000000"),
        fill_opacity: Some(0.5),
        ..Style::default()
    };
    let p = fill(|p| p.rect(0.0, 0.0, 40.0, 40.0, 0.0, &half, &[]));
    let grey = at(&p, 20, 20);
    assert!(
        grey[0].abs_diff(128) <= 1 && grey[0] == grey[1] && grey[1] == grey[2],
        "{grey:?}"
    );
    // The disc and its stroke painted, then laid at half on the picture: where the stroke
    // covers the fill only the stroke's blue shows through, half.
    let s = Style {
        fill: Some("#ff0000"),
        stroke: Some("#0000ff"),
        stroke_width: Some(6.0),
        opacity: Some(0.5),
        ..Style::default()
    };
    let p = fill(|p| p.circle(20.0, 20.0, 10.0, &s, &[]));
    let over = at(&p, 20, 12);
    assert!(
        over[0].abs_diff(128) <= 1 && over[1].abs_diff(128) <= 1 && over[2] == 255,
        "{over:?}"
    );
    let inside = at(&p, 20, 20);
    assert!(
        inside[0] == 255 && inside[1].abs_diff(128) <= 1,
        "{inside:?}"
    );
}

#[test]
fn texts_are_glyphs_at_their_anchor() {
    let size = |anchor| Style {
        font_size: Some(20.0),
        anchor,
        ..Style::default()
    };
    // An "l" at size 20: a stem about 2 wide, 15 tall, above the baseline at y 30.
    let p = fill(|p| p.text(20.0, 30.0, "l", &size(Some("middle")), &[]));
    let dark = |x: u32, y: u32| at(&p, x, y)[0] < 100;
    assert!(dark(20, 25) && dark(20, 17), "the stem");
    assert!(
        !dark(20, 32) && !dark(20, 12) && !dark(24, 25),
        "nothing around it"
    );
    let columns = |p: &Pixmap| {
        (0..40)
            .filter(|&x| (15..30).any(|y| at(p, x, y) != WHITE))
            .collect::<Vec<u32>>()
    };
    let start = fill(|p| {
        let s = Style {
            fill: Some("#ff0000"),
            bold: true,
            ..size(None)
        };
        p.text(20.0, 30.0, "HH", &s, &[]);
    });
    let end = fill(|p| p.text(20.0, 30.0, "HH", &size(Some("end")), &[]));
    let (s, e) = (columns(&start), columns(&end));
    assert!(s[0] >= 20 && s.len() > 10, "{s:?}");
    assert!(*e.last().unwrap() < 20 && e.len() > 10, "{e:?}");
    assert!((15..30).any(|y| at(&start, s[0] + 1, y) == RED));
}

#[test]
fn a_shape_painted_again_elsewhere_is_the_same_pixels_on_whole_pixels() {
    // Two rings at different fractions of a pixel: copied from one painting, each lands on
    // whole pixels, so the two look alike pixel for pixel (painted where they fall, their
    // anti-aliased edges differed).
    let s = Style {
        fill: Some("#ff0000"),
        stroke: Some("#0000ff"),
        stroke_width: Some(1.5),
        ..Style::default()
    };
    let p = fill(|p| {
        p.circle(10.3, 10.2, 6.0, &s, &[]);
        p.circle(27.0, 26.6, 6.0, &s, &[]);
    });
    let window = |cx: u32, cy: u32| {
        let mut v = Vec::new();
        for y in cy - 8..=cy + 8 {
            for x in cx - 8..=cx + 8 {
                v.push(at(&p, x, y));
            }
        }
        v
    };
    // Each on an even pixel across (10.3 -> 10, 27.0 -> 28) and the nearest down.
    assert_eq!(window(10, 10), window(28, 27));
    assert_eq!(at(&p, 10, 10), RED);
    assert_eq!(at(&p, 10, 2), WHITE);
    // A different style is another shape.
    let p = fill(|p| {
        p.circle(10.0, 10.0, 6.0, &s, &[]);
        p.circle(27.0, 27.0, 6.0, &filled("#00f"), &[]);
    });
    assert_eq!((at(&p, 10, 10), at(&p, 27, 27)), (RED, BLUE));
}

#[test]
fn a_copied_shape_lands_on_an_even_pixel_across() {
    // A disc centred at x 11 (an odd pixel's edge) is copied with its centre at 12: two
    // pixels a byte in the 4-bit PNG, and a copy at an odd pixel would be other bytes. It
    // is symmetric about 12 (pixels 11 and 12 alike, 10 and 13, ...), not about 11.
    let p = fill(|p| p.circle(11.0, 20.0, 3.0, &filled("#ff0000"), &[]));
    for d in 0..5 {
        assert_eq!(
            at(&p, 11 - d, 20),
            at(&p, 12 + d, 20),
            "{d} from the centre"
        );
    }
    assert_eq!((at(&p, 12, 20), at(&p, 8, 20)), (RED, WHITE));
}

#[test]
fn a_text_too_small_to_read_is_not_painted() {
    // At 1 pixel a unit, a text of size 8 is 8 pixels a em: under [`MIN_TEXT_PIXELS`], so
    // nothing; the same text at size 12 is painted; at 2 pixels a unit, size 8 is painted.
    let text = |size: f32, scale: f32| {
        let mut f = Filler::new(scale);
        f.begin(40.0, 40.0, "DejaVu Sans");
        f.background("#ffffff");
        let s = Style {
            font_size: Some(size),
            ..Style::default()
        };
        f.text(4.0, 30.0, "b12", &s, &[]);
        let p = f.finish().unwrap();
        p.pixels().iter().filter(|c| c.red() < 128).count()
    };
    assert_eq!(text(8.0, 1.0), 0);
    assert!(text(12.0, 1.0) > 10);
    assert!(text(8.0, 2.0) > 10);
}

#[test]
fn a_fitted_picture_with_a_grid_takes_the_scale_where_a_step_is_even_pixels() {
    let size = |step: Option<f64>, fit: f32| {
        let mut f = Filler::new(2.0).fitting(fit);
        if let Some(step) = step {
            f.grid(step);
        }
        f.begin(60.0, 30.0, "");
        let p = f.finish().unwrap();
        (p.width(), p.height())
    };
    // Fitted to 100 pixels: 100 / 60 a unit makes a step of 17.32 units 28.9 pixels; the
    // grid takes 28 (1.617 pixels a unit): 97 x 48.
    assert_eq!(size(None, 100.0), (100, 50));
    assert_eq!(size(Some(17.32), 100.0), (97, 48));
    // Not fitted (120 pixels at 2 a unit fit in 200): the scale stays 2.
    assert_eq!(size(Some(17.32), 200.0), (120, 60));
}

#[test]
fn what_cannot_be_painted_is_an_error_saying_what() {
    let mut f = Filler::new(1.0);
    f.begin(40.0, 40.0, "");
    f.circle(20.0, 20.0, 5.0, &filled("red"), &[]);
    let e = f.finish().err().unwrap();
    assert!(
        e.contains("the colour `red` is not written `#rrggbb`"),
        "{e}"
    );
    let mut f = Filler::new(1.0);
    f.begin(40.0, 40.0, "");
    f.text(4.0, 30.0, "\u{10FFFF}", &Style::default(), &[]);
    let e = f.finish().err().unwrap();
    assert!(e.contains("the font has no"), "{e}");
    let mut f = Filler::new(1.0);
    f.begin(0.0, 40.0, "");
    assert!(f.finish().unwrap_err().contains("0 x 40 is not drawn"));
    assert!(
        Filler::new(1.0)
            .finish()
            .unwrap_err()
            .contains("nothing was drawn")
    );
}

#[test]
fn the_svg_says_what_the_filler_paints() {
    let mut w = SvgWriter::default();
    w.begin(40.4, 20.0, "DejaVu Sans, sans-serif");
    w.title("Hex & Y");
    w.background("#cccccc");
    w.group(&[("class", "cell"), ("data-name", "a<1")]);
    let s = Style {
        fill: Some("#ffcc99"),
        stroke: Some("#996633"),
        stroke_width: Some(1.2),
        dash: &[5.0, 4.0],
        ..Style::default()
    };
    w.polygon(&[(1.04, 2.0), (3.0, 4.25), (5.0, 6.0)], &s, &[]);
    w.circle(
        20.0,
        10.0,
        5.0,
        &Style {
            opacity: Some(0.45),
            ..filled("#111")
        },
        &[("data-side", "black")],
    );
    w.end_group();
    let text = Style {
        font_size: Some(13.0),
        anchor: Some("end"),
        bold: true,
        ..Style::default()
    };
    w.text(4.0, 30.0, "Black & White", &text, &[("class", "status")]);
    w.path(
        &[Step::Move(1.0, 2.0), Step::Line(3.0, 4.0), Step::Close],
        &Style {
            stroke: Some("#cc0000"),
            round_caps: true,
            ..Style::default()
        },
        &[],
    );
    assert_eq!(
        w.finish(),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\" viewBox=\"0 0 40 20\" \
         font-family=\"DejaVu Sans, sans-serif\">\n\
         <title>Hex &amp; Y</title>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#cccccc\"/>\n\
         <g class=\"cell\" data-name=\"a&lt;1\"><polygon points=\"1.0,2.0 3.0,4.2 5.0,6.0\" \
         fill=\"#ffcc99\" stroke=\"#996633\" stroke-width=\"1.2\" stroke-dasharray=\"5 4\"/>\
         <circle data-side=\"black\" cx=\"20.0\" cy=\"10.0\" r=\"5.0\" fill=\"#111\" opacity=\"0.45\"/></g>\n\
         <text class=\"status\" x=\"4.0\" y=\"30.0\" font-size=\"13\" font-weight=\"bold\" \
         text-anchor=\"end\">Black &amp; White</text>\n\
         <path d=\"M1.0,2.0 L3.0,4.0 Z\" stroke=\"#cc0000\" stroke-linecap=\"round\"/>\n\
         </svg>\n"
    );
}

/// The copy of a sprite a pixel at a time, every pixel tested (the copy before spans): premultiplied
/// source-over, as tiny-skia paints.
fn blit_by_pixel(dst: &mut Pixmap, src: &Pixmap, x: i32, y: i32) {
    for sy in 0..src.height() as i32 {
        for sx in 0..src.width() as i32 {
            let (dx, dy) = (x + sx, y + sy);
            if dx < 0 || dy < 0 || dx >= dst.width() as i32 || dy >= dst.height() as i32 {
                continue;
            }
            let s = ((sy * src.width() as i32 + sx) * 4) as usize;
            let d = ((dy * dst.width() as i32 + dx) * 4) as usize;
            let p: [u8; 4] = src.data()[s..s + 4].try_into().unwrap();
            let keep = 255 - u32::from(p[3]);
            for (k, s) in p.into_iter().enumerate() {
                let v = u32::from(dst.data()[d + k]) * keep + 128;
                dst.data_mut()[d + k] = s + ((v + (v >> 8)) >> 8) as u8;
            }
        }
    }
}

/// A sprite copied span by span is the same pixels as copied a pixel at a time: anti-aliased and
/// crisp shapes, an outline over a fill, a dashed line, a glyph, a sprite wholly opaque and one
/// wholly transparent, laid at every corner of the picture, partly off it and wholly off it, over
/// pixels of every colour.
#[test]
fn a_sprite_copied_by_spans_is_the_sprite_copied_pixel_by_pixel() {
    let shape = |w: u32, h: u32, paint: &dyn Fn(&mut Pixmap)| {
        let mut p = Pixmap::new(w, h).unwrap();
        paint(&mut p);
        p
    };
    let colour = |r, g, b, a| {
        let mut paint = Paint::default();
        paint.set_color_rgba8(r, g, b, a);
        paint
    };
    let ring = |p: &mut Pixmap| {
        let circle = PathBuilder::from_circle(15.3, 14.6, 11.0).unwrap();
        p.fill_path(
            &circle,
            &colour(200, 30, 40, 255),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
        let outline = circle
            .stroke(
                &Stroke {
                    width: 2.5,
                    ..Stroke::default()
                },
                1.0,
            )
            .unwrap();
        p.fill_path(
            &outline,
            &colour(10, 20, 200, 255),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    };
    let hexagon = |p: &mut Pixmap| {
        let mut b = PathBuilder::new();
        for (k, (x, y)) in [
            (13.0, 1.2),
            (25.1, 8.0),
            (25.1, 22.0),
            (13.0, 28.8),
            (0.9, 22.0),
            (0.9, 8.0),
        ]
        .into_iter()
        .enumerate()
        {
            if k == 0 {
                b.move_to(x, y)
            } else {
                b.line_to(x, y)
            }
        }
        b.close();
        let mut paint = colour(250, 240, 200, 255);
        paint.anti_alias = false;
        p.fill_path(
            &b.finish().unwrap(),
            &paint,
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    };
    let dashed = |p: &mut Pixmap| {
        let mut b = PathBuilder::new();
        b.move_to(1.0, 2.5);
        b.line_to(38.0, 9.7);
        let dash = StrokeDash::new(vec![4.0, 3.0], 0.0).unwrap();
        let line = b.finish().unwrap().dash(&dash, 1.0).unwrap();
        let line = line
            .stroke(
                &Stroke {
                    width: 1.7,
                    ..Stroke::default()
                },
                1.0,
            )
            .unwrap();
        p.fill_path(
            &line,
            &colour(0, 120, 0, 160),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    };
    let glyph = |p: &mut Pixmap| {
        let g = text::outline("Wg", 2.0, 16.0, 15.0, Anchor::Start, Transform::identity())
            .unwrap()
            .unwrap();
        p.fill_path(
            &g,
            &colour(0, 0, 0, 255),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    };
    let sprites = [
        shape(31, 30, &ring),
        shape(27, 31, &hexagon),
        shape(40, 12, &dashed),
        shape(30, 20, &glyph),
        shape(9, 5, &|p: &mut Pixmap| {
            p.fill(Color::from_rgba8(90, 60, 30, 255))
        }),
        shape(6, 6, &|_: &mut Pixmap| {}),
    ];
    // A picture of many colours, opaque as a board's is.
    let mut picture = Pixmap::new(50, 41).unwrap();
    for (k, p) in picture.data_mut().chunks_mut(4).enumerate() {
        p.copy_from_slice(&[(k * 7) as u8, (k * 13 / 5) as u8, (k % 251) as u8, 255]);
    }
    let mut seen_blend = false;
    for pixels in sprites {
        let spans = spans_of(&pixels);
        seen_blend |= spans.iter().any(|s| !s.opaque);
        let sprite = Sprite {
            pixels,
            anchor: (0, 0),
            spans,
        };
        let (w, h) = (sprite.pixels.width() as i32, sprite.pixels.height() as i32);
        for (x, y) in [
            (0, 0),
            (7, 5),
            (-3, -4),
            (50 - w + 2, 41 - h + 3),
            (50 - w, 2),
            (-w + 1, 41 - 1),
            (-w, 0),
            (50, 10),
            (4, -h),
        ] {
            let (mut by_spans, mut by_pixel) = (picture.clone(), picture.clone());
            blit(&mut by_spans, &sprite, x, y);
            blit_by_pixel(&mut by_pixel, &sprite.pixels, x, y);
            assert!(
                by_spans.data() == by_pixel.data(),
                "a {w} x {h} sprite at {x}, {y}"
            );
        }
    }
    assert!(seen_blend, "some sprites have partly transparent spans");
}
