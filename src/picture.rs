//! One vector model of a drawing, as usvg's tree is for resvg and svg2pdf:
//! a [`Picture`] of plain shapes in layers, with its links as a layer on
//! top, written out as SVG here ([`Picture::push_nested`]) and drawn
//! into a PDF by `ebook::pdf` from the same value. A map is made once, as
//! a picture; neither output reads the other back.
//!
//! Invariant: the SVG draws exactly the picture's layers, in order, and
//! then one link per [`Link`], its area exactly the link's; the same
//! picture gives the same bytes.

use std::fmt::Write as _;

use crate::game::Stroke;
use crate::markup;

/// A pen: its colour (`#rgb` or `#rrggbb`), its width, and whether its
/// lines end round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pen {
    /// The colour, as SVG writes it.
    pub colour: &'static str,
    /// The width, in the units of what it draws.
    pub width: f64,
    /// Round ends, or square cut ones.
    pub round: bool,
}

/// What one layer draws, all with one pen or one fill.
#[derive(Clone, Debug, PartialEq)]
pub enum Shapes {
    /// Straight lines, each `[x1, y1, x2, y2]`.
    Lines(Pen, Vec<[f64; 4]>),
    /// One mark, drawn in each square `[x, y, side]`: its strokes scaled
    /// from their 100-unit cell, the pen's width in the cell's units.
    Marks(Pen, &'static [Stroke], Vec<[f64; 3]>),
    /// Filled dots of one colour and radius, each at `[x, y]`.
    Dots(&'static str, f64, Vec<[f64; 2]>),
}

/// One layer of a [`Picture`]; layers are drawn in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Its name, the `class` of its group in the SVG, so that a reader
    /// (or a test) can tell its layers apart.
    pub class: &'static str,
    /// What it draws.
    pub shapes: Shapes,
}

/// Where a link can be hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Area {
    /// A square `[x, y, side]`.
    Square([f64; 3]),
    /// A disc `[x, y, r]`.
    Disc([f64; 3]),
    /// A rectangle `[x, y, width, height]`.
    Rect([f64; 4]),
}

impl Area {
    /// Its bounding box, `[x, y, width, height]`.
    pub fn bounds(self) -> [f64; 4] {
        match self {
            Area::Square([x, y, side]) => [x, y, side, side],
            Area::Disc([x, y, r]) => [x - r, y - r, 2.0 * r, 2.0 * r],
            Area::Rect(r) => r,
        }
    }

    /// Its centre.
    pub fn centre(self) -> [f64; 2] {
        let [x, y, w, h] = self.bounds();
        [x + w / 2.0, y + h / 2.0]
    }

    /// The same area moved by `(dx, dy)`.
    fn moved(self, dx: f64, dy: f64) -> Area {
        match self {
            Area::Square([x, y, side]) => Area::Square([x + dx, y + dy, side]),
            Area::Disc([x, y, r]) => Area::Disc([x + dx, y + dy, r]),
            Area::Rect([x, y, w, h]) => Area::Rect([x + dx, y + dy, w, h]),
        }
    }
}

/// A link of a picture: where it goes, its accessible name, and its area.
/// Links are invisible; what they point at is drawn by the layers.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The address, relative to the SVG file.
    pub href: String,
    /// Its name, the link's `<title>`.
    pub title: String,
    /// Where it is hit.
    pub area: Area,
}

/// A drawing as plain vector shapes on white, in its own units (y down).
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// Its width.
    pub width: f64,
    /// Its height.
    pub height: f64,
    /// What it draws, bottom first.
    pub layers: Vec<Layer>,
    /// Its links, on top of every layer; only the SVG has them.
    pub links: Vec<Link>,
}

/// `v` with at most three decimals, without trailing zeros: `243`, `13.99`.
fn push_num(out: &mut String, v: f64) {
    // Most numbers of a map are whole (85% of a default build's), and
    // written as integers they skip the exact decimal expansion, whose
    // slow path showed in the build's profile: the same text.
    if v.fract() == 0.0 && v.abs() < 1e15 {
        let _ = write!(out, "{}", v as i64);
        return;
    }
    let at = out.len();
    let _ = write!(out, "{v:.3}");
    let kept = out[at..].trim_end_matches('0').trim_end_matches('.').len();
    out.truncate(at + kept);
    if &out[at..] == "-0" {
        out.truncate(at);
        out.push('0');
    }
}

/// ` name="v"`.
fn push_attr(out: &mut String, name: &str, v: f64) {
    let _ = write!(out, " {name}=\"");
    push_num(out, v);
    out.push('"');
}

/// A mark's strokes as SVG, in their 100-unit cell: its lines one path,
/// each circle a circle; `transform` placed on the one element, or on a
/// group holding several.
fn push_strokes(out: &mut String, strokes: &[Stroke], transform: &str) {
    let lines = strokes
        .iter()
        .any(|s| matches!(s, Stroke::Line(..)))
        .then_some(1);
    let circles = strokes
        .iter()
        .filter(|s| matches!(s, Stroke::Circle(..)))
        .count();
    let single = lines.unwrap_or(0) + circles == 1;
    if !single {
        let _ = write!(out, "<g{transform}>");
    }
    let own = if single { transform } else { "" };
    if lines.is_some() {
        let _ = write!(out, "<path{own} d=\"");
        for s in strokes {
            if let Stroke::Line(x1, y1, x2, y2) = *s {
                let _ = write!(out, "M{x1} {y1}L{x2} {y2}");
            }
        }
        out.push_str("\"/>");
    }
    for s in strokes {
        if let Stroke::Circle(x, y, r) = *s {
            let _ = write!(out, "<circle{own} cx=\"{x}\" cy=\"{y}\" r=\"{r}\"/>");
        }
    }
    if !single {
        out.push_str("</g>");
    }
}

/// A pen as SVG's stroke attributes.
fn push_pen(out: &mut String, pen: &Pen) {
    let _ = write!(out, " fill=\"none\" stroke=\"{}\"", pen.colour);
    push_attr(out, "stroke-width", pen.width);
    if pen.round {
        out.push_str(" stroke-linecap=\"round\"");
    }
}

impl Picture {
    /// The picture as an `<svg>` inside another (a map's page, which puts
    /// its words round it), its top left at `(x, y)` and `width` wide in
    /// that one's units, its height as its shape makes it: a white ground,
    /// each layer a group (or a path) of its class, and the links last,
    /// unpainted but taking the pointer inside their areas only
    /// (`pointer-events="fill"`: with `all`, the default stroke of one unit
    /// would widen each area by half a unit, over its neighbour's).
    pub fn push_nested(&self, out: &mut String, x: f64, y: f64, width: f64) {
        self.push_nested_with(out, x, y, width, &[]);
    }

    /// [`Picture::push_nested`], with more groups of links after its own,
    /// each `(class, links)` in the picture's units: another set of links
    /// over the same drawing, which a stylesheet shows instead of the
    /// picture's own where they suit better (a phone's).
    pub fn push_nested_with(
        &self,
        out: &mut String,
        x: f64,
        y: f64,
        width: f64,
        groups: &[(&str, &[Link])],
    ) {
        out.push_str("<svg");
        push_attr(out, "x", x);
        push_attr(out, "y", y);
        push_attr(out, "width", width);
        push_attr(out, "height", width * self.height / self.width);
        self.push_view_box(out);
        out.push('>');
        self.push_body(out);
        for (class, links) in groups {
            push_links(out, class, links);
        }
        out.push_str("</svg>");
    }

    /// The part of the picture inside `[x, y, width, height]`, as a
    /// picture of that size with its top left at the part's: every shape
    /// that reaches into the part (the nested SVG clips the rest), and no
    /// links.
    pub fn crop(&self, [x, y, w, h]: [f64; 4]) -> Picture {
        let meets =
            |[bx, by, bw, bh]: [f64; 4]| bx < x + w && bx + bw > x && by < y + h && by + bh > y;
        let layers = self
            .layers
            .iter()
            .map(|layer| {
                let shapes = match &layer.shapes {
                    // A line along the part's edge (its frame's grid) is
                    // left out, so the part shows no half of it.
                    Shapes::Lines(pen, lines) => Shapes::Lines(
                        *pen,
                        (lines.iter())
                            .filter(|&&[x1, y1, x2, y2]| {
                                let [lx, ly] = [x1.min(x2), y1.min(y2)];
                                let [hx, hy] = [x1.max(x2), y1.max(y2)];
                                lx < x + w && hx > x && ly < y + h && hy > y
                            })
                            .map(|&[x1, y1, x2, y2]| [x1 - x, y1 - y, x2 - x, y2 - y])
                            .collect(),
                    ),
                    Shapes::Marks(pen, strokes, squares) => Shapes::Marks(
                        *pen,
                        strokes,
                        (squares.iter())
                            .filter(|&&[sx, sy, side]| meets([sx, sy, side, side]))
                            .map(|&[sx, sy, side]| [sx - x, sy - y, side])
                            .collect(),
                    ),
                    Shapes::Dots(colour, r, dots) => Shapes::Dots(
                        colour,
                        *r,
                        (dots.iter())
                            .filter(|&&[dx, dy]| meets([dx - r, dy - r, 2.0 * r, 2.0 * r]))
                            .map(|&[dx, dy]| [dx - x, dy - y])
                            .collect(),
                    ),
                };
                Layer {
                    class: layer.class,
                    shapes,
                }
            })
            .collect();
        Picture {
            width: w,
            height: h,
            layers,
            links: Vec::new(),
        }
    }

    /// ` viewBox="0 0 width height"`.
    fn push_view_box(&self, out: &mut String) {
        out.push_str(" viewBox=\"0 0 ");
        push_num(out, self.width);
        out.push(' ');
        push_num(out, self.height);
        out.push('"');
    }

    /// The white ground, the layers and the links.
    fn push_body(&self, out: &mut String) {
        out.push_str("<rect");
        push_attr(out, "width", self.width);
        push_attr(out, "height", self.height);
        out.push_str(" fill=\"#fff\"/>");
        for layer in &self.layers {
            let class = layer.class;
            match &layer.shapes {
                Shapes::Lines(pen, lines) => {
                    let _ = write!(out, "<path class=\"{class}\"");
                    push_pen(out, pen);
                    out.push_str(" d=\"");
                    for &[x1, y1, x2, y2] in lines {
                        out.push('M');
                        push_num(out, x1);
                        out.push(' ');
                        push_num(out, y1);
                        if x1 == x2 {
                            out.push('v');
                            push_num(out, y2 - y1);
                        } else if y1 == y2 {
                            out.push('h');
                            push_num(out, x2 - x1);
                        } else {
                            out.push('L');
                            push_num(out, x2);
                            out.push(' ');
                            push_num(out, y2);
                        }
                    }
                    out.push_str("\"/>");
                }
                Shapes::Marks(pen, strokes, squares) => {
                    let _ = write!(out, "<g class=\"{class}\"");
                    push_pen(out, pen);
                    out.push('>');
                    let mut transform = String::new();
                    for &[x, y, side] in squares {
                        transform.clear();
                        let k = side / 100.0;
                        transform.push_str(" transform=\"matrix(");
                        for v in [k, 0.0, 0.0, k, x] {
                            push_num(&mut transform, v);
                            transform.push(' ');
                        }
                        push_num(&mut transform, y);
                        transform.push_str(")\"");
                        push_strokes(out, strokes, &transform);
                    }
                    out.push_str("</g>");
                }
                Shapes::Dots(colour, r, at) => {
                    let _ = write!(out, "<g class=\"{class}\" fill=\"{colour}\">");
                    for &[x, y] in at {
                        out.push_str("<circle");
                        push_attr(out, "cx", x);
                        push_attr(out, "cy", y);
                        push_attr(out, "r", *r);
                        out.push_str("/>");
                    }
                    out.push_str("</g>");
                }
            }
        }
        push_links(out, "links", &self.links);
    }
}

impl Link {
    /// The same link, its area moved by `(dx, dy)` and `prefix` put before
    /// its address (the way from a page in a folder below).
    pub fn moved(&self, dx: f64, dy: f64, prefix: &str) -> Link {
        Link {
            href: format!("{prefix}{}", self.href),
            title: self.title.clone(),
            area: self.area.moved(dx, dy),
        }
    }
}

/// A group of links of class `class`, unpainted but taking the pointer
/// inside their areas only; none for no links.
fn push_links(out: &mut String, class: &str, links: &[Link]) {
    if links.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<g class=\"{class}\" fill=\"none\" pointer-events=\"fill\">"
    );
    for link in links {
        out.push_str("<a href=\"");
        markup::escape(out, &link.href);
        out.push_str("\"><title>");
        markup::escape(out, &link.title);
        out.push_str("</title>");
        match link.area {
            Area::Square([x, y, side]) => {
                out.push_str("<rect");
                push_attr(out, "x", x);
                push_attr(out, "y", y);
                push_attr(out, "width", side);
                push_attr(out, "height", side);
            }
            Area::Disc([x, y, r]) => {
                out.push_str("<circle");
                push_attr(out, "cx", x);
                push_attr(out, "cy", y);
                push_attr(out, "r", r);
            }
            Area::Rect([x, y, w, h]) => {
                out.push_str("<rect");
                push_attr(out, "x", x);
                push_attr(out, "y", y);
                push_attr(out, "width", w);
                push_attr(out, "height", h);
            }
        }
        out.push_str("/></a>");
    }
    out.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole number is written as the three decimals trimmed write it:
    /// at every size, both signs, and -0 as 0.
    #[test]
    fn whole_numbers_read_as_their_decimals_trimmed() {
        let mut wholes = vec![0.0, -0.0, 1e15 - 1.0, -(1e15 - 1.0), 1e15, 1e300, -7.0];
        wholes.extend((0..2000).map(|i| f64::from(i * 37 - 20_000)));
        for v in wholes.into_iter().chain([0.5, -1.25, 999.999_5, 1e-9]) {
            let mut out = String::new();
            push_num(&mut out, v);
            let decimals = format!("{v:.3}");
            let trimmed = decimals.trim_end_matches('0').trim_end_matches('.');
            let expected = if trimmed == "-0" { "0" } else { trimmed };
            assert_eq!(out, expected, "{v}");
        }
    }

    #[test]
    fn numbers_keep_three_decimals_and_no_trailing_zeros() {
        for (v, s) in [
            (243.0, "243"),
            (13.990_381, "13.99"),
            (0.08, "0.08"),
            (-0.0001, "0"),
            (2.5, "2.5"),
        ] {
            let mut out = String::new();
            push_num(&mut out, v);
            assert_eq!(out, s);
        }
    }

    #[test]
    fn a_crop_keeps_what_reaches_into_it_moved_to_its_corner_and_no_link() {
        const X: &[Stroke] = &[Stroke::Line(20, 20, 80, 80)];
        let pen = Pen {
            colour: "#222",
            width: 1.0,
            round: false,
        };
        let picture = Picture {
            width: 90.0,
            height: 90.0,
            layers: vec![
                Layer {
                    class: "grid",
                    // Along the part's edge, across it, and outside it.
                    shapes: Shapes::Lines(
                        pen,
                        vec![
                            [30.0, 0.0, 30.0, 90.0],
                            [0.0, 45.0, 90.0, 45.0],
                            [60.0, 0.0, 60.0, 90.0],
                        ],
                    ),
                },
                Layer {
                    class: "x",
                    shapes: Shapes::Marks(pen, X, vec![[30.0, 30.0, 30.0], [0.0, 0.0, 30.0]]),
                },
                Layer {
                    class: "dots",
                    shapes: Shapes::Dots("#000", 1.0, vec![[29.5, 40.0], [10.0, 10.0]]),
                },
            ],
            links: vec![Link {
                href: "a.html".into(),
                title: "a".into(),
                area: Area::Square([30.0, 30.0, 30.0]),
            }],
        };
        let part = picture.crop([30.0, 30.0, 30.0, 30.0]);
        assert_eq!((part.width, part.height), (30.0, 30.0));
        assert_eq!(
            part.layers[0].shapes,
            Shapes::Lines(pen, vec![[-30.0, 15.0, 60.0, 15.0]])
        );
        assert_eq!(
            part.layers[1].shapes,
            Shapes::Marks(pen, X, vec![[0.0, 0.0, 30.0]])
        );
        assert_eq!(
            part.layers[2].shapes,
            Shapes::Dots("#000", 1.0, vec![[-0.5, 10.0]])
        );
        assert!(part.links.is_empty());
        let moved = picture.links[0].moved(-30.0, -30.0, "../");
        assert_eq!(moved.href, "../a.html");
        assert_eq!(moved.area, Area::Square([0.0, 0.0, 30.0]));
    }

    #[test]
    fn the_svg_draws_each_layer_in_order_then_each_link() {
        const X: &[Stroke] = &[Stroke::Line(20, 20, 80, 80), Stroke::Line(80, 20, 20, 80)];
        const O: &[Stroke] = &[Stroke::Circle(50, 50, 30)];
        let pen = Pen {
            colour: "#222",
            width: 6.0,
            round: true,
        };
        let picture = Picture {
            width: 90.0,
            height: 90.0,
            layers: vec![
                Layer {
                    class: "grid",
                    shapes: Shapes::Lines(
                        Pen {
                            round: false,
                            ..pen
                        },
                        vec![
                            [30.0, 0.0, 30.0, 90.0],
                            [0.0, 30.0, 90.0, 30.0],
                            [0.0, 0.0, 1.0, 1.0],
                        ],
                    ),
                },
                Layer {
                    class: "x",
                    shapes: Shapes::Marks(pen, X, vec![[0.0, 0.0, 30.0]]),
                },
                Layer {
                    class: "o",
                    shapes: Shapes::Marks(pen, O, vec![[30.0, 30.0, 30.0]]),
                },
                Layer {
                    class: "dots",
                    shapes: Shapes::Dots("#c8102e", 0.3, vec![[1.0, 2.0]]),
                },
            ],
            links: vec![
                Link {
                    href: "a&b.html".into(),
                    title: "X \"top\"".into(),
                    area: Area::Square([0.0, 0.0, 30.0]),
                },
                Link {
                    href: "c.html".into(),
                    title: "c".into(),
                    area: Area::Disc([1.0, 2.0, 0.5]),
                },
            ],
        };
        let mut svg = String::new();
        picture.push_nested(&mut svg, 0.0, 10.0, 180.0);
        assert_eq!(
            svg,
            "<svg x=\"0\" y=\"10\" width=\"180\" height=\"180\" viewBox=\"0 0 90 90\">\
<rect width=\"90\" height=\"90\" fill=\"#fff\"/>\
<path class=\"grid\" fill=\"none\" stroke=\"#222\" stroke-width=\"6\" d=\"M30 0v90M0 30h90M0 0L1 1\"/>\
<g class=\"x\" fill=\"none\" stroke=\"#222\" stroke-width=\"6\" stroke-linecap=\"round\">\
<path transform=\"matrix(0.3 0 0 0.3 0 0)\" d=\"M20 20L80 80M80 20L20 80\"/></g>\
<g class=\"o\" fill=\"none\" stroke=\"#222\" stroke-width=\"6\" stroke-linecap=\"round\">\
<circle transform=\"matrix(0.3 0 0 0.3 30 30)\" cx=\"50\" cy=\"50\" r=\"30\"/></g>\
<g class=\"dots\" fill=\"#c8102e\"><circle cx=\"1\" cy=\"2\" r=\"0.3\"/></g>\
<g class=\"links\" fill=\"none\" pointer-events=\"fill\">\
<a href=\"a&amp;b.html\"><title>X &quot;top&quot;</title><rect x=\"0\" y=\"0\" width=\"30\" height=\"30\"/></a>\
<a href=\"c.html\"><title>c</title><circle cx=\"1\" cy=\"2\" r=\"0.5\"/></a></g></svg>"
        );
    }
}
