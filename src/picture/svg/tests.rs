//! Each element and attribute the reader knows, drawn and its pixels checked; each kind of SVG it
//! does not know, refused with an error that names it.

use tiny_skia::Pixmap;

use super::parse;

/// `body` drawn at scale 1 on a 40 x 40 white picture.
fn draw(body: &str) -> Pixmap {
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\" \
         viewBox=\"0 0 40 40\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n\
         {body}\n</svg>\n"
    );
    let (head, drawing) = parse(&svg, 1.0).unwrap_or_else(|e| panic!("{body}: {e}"));
    let mut pixmap = Pixmap::new(head.width as u32, head.height as u32).unwrap();
    drawing.paint(&mut pixmap, 0.0, 0.0);
    pixmap
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

#[test]
fn rectangles_circles_polygons_and_paths_are_filled_where_they_are() {
    let p = draw("<rect x=\"10\" y=\"10\" width=\"20\" height=\"10\" fill=\"#ff0000\"/>");
    assert_eq!(at(&p, 15, 15), RED);
    assert_eq!(at(&p, 15, 25), WHITE);
    assert_eq!(at(&p, 5, 15), WHITE);
    // `#rgb`, and the picture's size in percent.
    let p = draw("<rect width=\"50%\" height=\"100%\" fill=\"#00f\"/>");
    assert_eq!((at(&p, 19, 39), at(&p, 21, 0)), (BLUE, WHITE));
    // Rounded corners: the corner's pixel stays white, the middle of the edge is filled.
    let p = draw("<rect x=\"0\" y=\"0\" width=\"40\" height=\"40\" rx=\"12\" fill=\"#ff0000\"/>");
    assert_eq!(
        (at(&p, 0, 0), at(&p, 20, 0), at(&p, 0, 20)),
        (WHITE, RED, RED)
    );
    let p = draw("<circle cx=\"20\" cy=\"20\" r=\"10\" fill=\"#ff0000\"/>");
    assert_eq!(
        (at(&p, 20, 20), at(&p, 12, 12), at(&p, 20, 11)),
        (RED, WHITE, RED)
    );
    let p = draw("<polygon points=\"0,0 40,0 0,40\" fill=\"#0000ff\"/>");
    assert_eq!((at(&p, 5, 5), at(&p, 35, 35)), (BLUE, WHITE));
    // M, relative h and v, absolute H and V, Z; the black default fill.
    let p = draw("<path d=\"M10,10 h20 v5 H10 z M10 25 L30 25 V30 H10 Z\"/>");
    assert_eq!(
        (at(&p, 20, 12), at(&p, 20, 20), at(&p, 20, 27)),
        (BLACK, WHITE, BLACK)
    );
    let p = draw("<path d=\"m10 10 l20 0 l0 20 l-20 0 z\" fill=\"#f00\"/>");
    assert_eq!((at(&p, 20, 20), at(&p, 5, 20)), (RED, WHITE));
    // A group passes its fill on; title and desc draw nothing.
    let p = draw(
        "<g fill=\"#0000ff\"><title>t</title><desc>d</desc><rect width=\"40\" height=\"20\"/></g>",
    );
    assert_eq!((at(&p, 20, 10), at(&p, 20, 30)), (BLUE, WHITE));
}

#[test]
fn strokes_take_their_width_dashes_caps_joins_and_order() {
    // A line: stroked, 4 wide, no fill.
    let line = |extra: &str| {
        draw(&format!(
            "<line x1=\"10\" y1=\"20\" x2=\"30\" y2=\"20\" stroke=\"#ff0000\" stroke-width=\"4\"{extra}/>"
        ))
    };
    let p = line("");
    assert_eq!(
        (at(&p, 20, 19), at(&p, 20, 22), at(&p, 20, 18)),
        (RED, WHITE, RED)
    );
    // Butt ends stop at the end; round and square ones reach 2 past it.
    assert_eq!(at(&p, 30, 20), WHITE);
    assert_eq!(at(&line(" stroke-linecap=\"round\""), 30, 20), RED);
    assert_eq!(at(&line(" stroke-linecap=\"square\""), 31, 19), RED);
    // Dashes of 4 on, 4 off from the start.
    let p = line(" stroke-dasharray=\"4 4\"");
    assert_eq!(
        (at(&p, 12, 20), at(&p, 16, 20), at(&p, 20, 20)),
        (RED, WHITE, RED)
    );
    assert_eq!(at(&line(" stroke-dasharray=\"none\""), 16, 20), RED);
    // A square's corner: mitred joins fill it, round ones cut it.
    let square = |join: &str| {
        draw(&format!(
            "<rect x=\"10\" y=\"10\" width=\"20\" height=\"20\" fill=\"none\" stroke=\"#0000ff\" \
             stroke-width=\"6\" stroke-linejoin=\"{join}\"/>"
        ))
    };
    assert_eq!(at(&square("miter"), 7, 7), BLUE);
    assert!(
        at(&square("round"), 7, 7)[0] > 200,
        "the round corner grazes it"
    );
    assert!(
        at(&square("bevel"), 7, 7)[0] > 200,
        "cut off, but for anti-aliasing"
    );
    assert_eq!(at(&square("miter"), 20, 20), WHITE, "fill none");
    // The stroke lies over the fill, or under it with paint-order="stroke".
    let disc = |order: &str| {
        draw(&format!(
            "<circle cx=\"20\" cy=\"20\" r=\"10\" fill=\"#ff0000\" stroke=\"#0000ff\" \
             stroke-width=\"6\"{order}/>"
        ))
    };
    assert_eq!(at(&disc(""), 20, 12), BLUE);
    assert_eq!(at(&disc(" paint-order=\"stroke\""), 20, 12), RED);
    assert_eq!(at(&disc(" paint-order=\"stroke\""), 20, 8), BLUE);
}

#[test]
fn opacities_blend_and_a_layer_hides_its_own_fill() {
    let p = draw("<rect width=\"40\" height=\"40\" fill=\"#000000\" fill-opacity=\"0.5\"/>");
    let grey = at(&p, 20, 20);
    assert!(
        grey[0].abs_diff(128) <= 1 && grey[0] == grey[1] && grey[1] == grey[2],
        "{grey:?}"
    );
    let p = draw(
        "<line x1=\"0\" y1=\"20\" x2=\"40\" y2=\"20\" stroke=\"#000000\" stroke-width=\"4\" \
         stroke-opacity=\"0.5\"/>",
    );
    assert!(at(&p, 20, 20)[0].abs_diff(128) <= 1);
    // opacity: the disc and its stroke painted, then laid at half on the picture: where the
    // stroke covers the fill only the stroke's blue shows through, half.
    let p = draw(
        "<circle cx=\"20\" cy=\"20\" r=\"10\" fill=\"#ff0000\" stroke=\"#0000ff\" \
         stroke-width=\"6\" opacity=\"0.5\"/>",
    );
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
    // An "l" at size 20: a stem about 2 wide, 15 tall, above the baseline at y 30.
    let p = draw("<text x=\"20\" y=\"30\" font-size=\"20\" text-anchor=\"middle\">l</text>");
    let dark = |x: u32, y: u32| at(&p, x, y)[0] < 100;
    assert!(dark(20, 25) && dark(20, 17), "the stem");
    assert!(
        !dark(20, 32) && !dark(20, 12) && !dark(24, 25),
        "nothing around it"
    );
    // Anchored at its start and its end: the text lies right, then left, of x; a fill colour,
    // a weight and a family are taken (one face draws them all).
    let start = draw(
        "<text x=\"20\" y=\"30\" font-size=\"20\" fill=\"#ff0000\" font-weight=\"bold\" \
         font-family=\"DejaVu Sans\">HH</text>",
    );
    let end = draw("<text x=\"20\" y=\"30\" font-size=\"20\" text-anchor=\"end\">HH</text>");
    let columns = |p: &Pixmap| {
        (0..40)
            .filter(|&x| (15..30).any(|y| at(p, x, y) != WHITE))
            .collect::<Vec<u32>>()
    };
    let (s, e) = (columns(&start), columns(&end));
    assert!(s[0] >= 20 && s.len() > 10, "{s:?}");
    assert!(*e.last().unwrap() < 20 && e.len() > 10, "{e:?}");
    assert!((15..30).any(|y| at(&start, s[0] + 1, y) == RED));
    // Character references and white space as SVG reads them.
    let amp = draw("<text x=\"4\" y=\"30\" font-size=\"20\">  &amp;\n </text>");
    assert!(!columns(&amp).is_empty() && columns(&amp)[0] < 10);
}

#[test]
fn a_marker_heads_a_line_at_its_end_and_reversed_at_its_start() {
    let arrow = |ends: &str| {
        draw(&format!(
            "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"0\" refY=\"5\" \
             markerWidth=\"4\" markerHeight=\"4\" orient=\"auto-start-reverse\">\
             <path d=\"M0,0 L10,5 L0,10 z\" fill=\"#0000ff\"/></marker></defs>\n\
             <line x1=\"10\" y1=\"20\" x2=\"30\" y2=\"20\" stroke=\"#ff0000\" stroke-width=\"2\" {ends}/>"
        ))
    };
    // The head is 8 long (4 stroke widths of 2) past the end, pointing on.
    let p = arrow("marker-end=\"url(#head)\"");
    assert_eq!(
        (at(&p, 31, 20), at(&p, 33, 20), at(&p, 39, 20)),
        (BLUE, BLUE, WHITE)
    );
    assert_eq!(at(&p, 7, 20), WHITE);
    let p = arrow("marker-start=\"url(#head)\" marker-end=\"url(#head)\"");
    assert_eq!((at(&p, 7, 20), at(&p, 33, 20)), (BLUE, BLUE));
    assert_eq!(at(&p, 20, 20), RED);
}

#[test]
fn what_is_not_read_is_refused_saying_what() {
    let refused = |body: &str, says: &str| {
        let svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\">\n{body}\n</svg>"
        );
        match parse(&svg, 1.0) {
            Ok(_) => panic!("{body} was drawn"),
            Err(e) => assert!(
                e.starts_with("the board picture: ") && e.contains(says),
                "{body}: {e}"
            ),
        }
    };
    refused(
        "<ellipse cx=\"1\" cy=\"1\" rx=\"1\" ry=\"1\"/>",
        "`<ellipse>` is not drawn",
    );
    refused(
        "<rect width=\"4\" height=\"4\" transform=\"rotate(4)\"/>",
        "attribute `transform`",
    );
    refused("<rect width=\"4\" height=\"4\" fill=\"red\"/>", "#rrggbb");
    refused(
        "<rect width=\"4\" height=\"4\" fill=\"url(#g)\"/>",
        "#rrggbb",
    );
    refused("<rect width=\"4em\" height=\"4\"/>", "is not a number");
    refused("<path d=\"M0 0 C1 1 2 2 3 3\"/>", "`C` is not drawn");
    refused("<path d=\"L3 3\"/>", "does not start with `M`");
    refused("<text>a<tspan>b</tspan></text>", "no `<tspan>`");
    refused("<text>\u{E000}</text>", "the font has no");
    refused(
        "<line x1=\"0\" y1=\"0\" x2=\"4\" y2=\"4\" marker-end=\"url(#x)\"/>",
        "no `<marker>`",
    );
    refused("<g><rect width=\"4\" height=\"4\"/>", "not closed");
    refused("<g></rect>", "closed by `</rect>`");
    refused("words", "outside any `<text>`");
    refused(
        "<rect width=\"4\" height=\"4\" opacity=\"2\"/>",
        "from 0 to 1",
    );
    refused(
        "<rect width=\"4\" height=\"4\" stroke-linecap=\"fat\"/>",
        "butt, round, square",
    );
    refused(
        "<defs><rect width=\"4\" height=\"4\"/></defs>",
        "only `<marker>`s",
    );
    refused("<circle r=\"4\">x</circle>", "has content");
    refused("<svg width=\"4\" height=\"4\"></svg>", "inside the picture");
    let head = |attributes: &str| {
        parse(&format!("<svg {attributes}>\n</svg>"), 1.0)
            .err()
            .unwrap()
    };
    assert!(
        head("width=\"40\" height=\"40\" viewBox=\"0 0 20 20\"")
            .contains("viewBox is drawn only as `0 0 40 40`")
    );
    assert!(head("width=\"40\"").contains("needs a width and a height"));
    assert!(
        parse("<rect/>", 1.0)
            .err()
            .unwrap()
            .contains("does not start with `<svg")
    );
    assert!(
        parse("<svg width=\"4\" height=\"4\"><rect/>", 1.0)
            .err()
            .unwrap()
            .contains("does not end with `</svg>`")
    );
}

#[test]
fn a_line_is_drawn_as_in_its_document() {
    let svg = "<svg width=\"40\" height=\"40\" fill=\"#0000ff\">\n\
               <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n\
               <rect x=\"10\" y=\"10\" width=\"20\" height=\"20\"/>\n</svg>\n";
    let (head, whole) = parse(svg, 2.0).unwrap();
    let header = super::parse_head(svg.lines().next().unwrap()).unwrap();
    let mut a = Pixmap::new(80, 80).unwrap();
    let mut b = Pixmap::new(80, 80).unwrap();
    whole.paint(&mut a, 0.0, 0.0);
    for line in svg.lines().skip(1).take(2) {
        super::parse_line(&header, line, 2.0)
            .unwrap()
            .paint(&mut b, 0.0, 0.0);
    }
    assert_eq!((head.width, head.height), (40.0, 40.0));
    assert!(a == b, "the head's fill passes to each line");
    assert_eq!(at(&a, 40, 40), BLUE);
    // Its bounds, in device pixels.
    let square = super::parse_line(&header, svg.lines().nth(2).unwrap(), 2.0).unwrap();
    let r = square.bounds().unwrap();
    assert_eq!(
        (r.left(), r.top(), r.right(), r.bottom()),
        (20.0, 20.0, 60.0, 60.0)
    );
    // Not whole elements on the line.
    assert!(super::parse_line(&header, "<g>", 2.0).is_err());
    assert!(super::parse_head("<svg width=\"4\" height=\"4\"/>").is_err());
}
