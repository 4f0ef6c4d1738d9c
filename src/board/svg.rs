//! Pictures of boards: a small SVG writer, hex geometry for flat- and
//! pointy-topped hexes, colours per seat, arrows for the last phase's moves
//! and combats, fog shading, and the PNG rasteriser (resvg, in-process, with
//! an embedded font so every machine draws the same pixels).
//!
//! A game draws its board from its view alone (`games::Draw::svg_board`): what the
//! view does not hold cannot reach the picture. Output is deterministic:
//! numbers are printed with one decimal by [`num`], attributes in a fixed
//! order, and nothing is read from the clock or the system.

use super::hex::Hex;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

// The font is the rasteriser's: defined there, named here for the SVG's
// font-family.
pub use super::raster::{FONT, FONT_FAMILY};

/// The PNG's width in pixels; its height follows the picture's shape.
pub const PNG_WIDTH: u32 = 800;

/// Colours used across games.
pub const PAPER: &str = "#f4efe1";
pub const BOARD: &str = "#e3d5b0";
pub const GRID: &str = "#6b5a3a";
pub const INK: &str = "#2b2b2b";
pub const FOG: &str = "#8a8f98";
pub const WHITE_PIECE: &str = "#fbfaf5";
pub const BLACK_PIECE: &str = "#262626";

/// Owner colours by seat, distinct and readable with white text on them.
pub const SEAT_COLOURS: [&str; 8] = [
    "#c0392b", "#2563b0", "#2e8b3e", "#d4820f", "#7d3c98", "#138d90", "#a0522d", "#c2185b",
];

pub fn seat_colour(seat: usize) -> &'static str {
    SEAT_COLOURS[seat % SEAT_COLOURS.len()]
}

/// A number as SVG text: one decimal, never `-0.0`, the same on every machine
/// (Rust formats floats itself, exactly rounded).
pub fn num(x: f64) -> String {
    let mut s = String::new();
    push_num(&mut s, x);
    s
}

/// [`num`], written onto the end of `out` (no string of its own).
pub fn push_num(out: &mut String, x: f64) {
    // Fast path (pictures print thousands of numbers): tenths by integer
    // arithmetic wherever that cannot differ from exact rounding, that is
    // away from a halfway point, where `x * 10` might round the other way
    // (below 1e9 the product is within 1e-7 of the exact tenths).
    let t = x * 10.0;
    if t.is_finite() && t.abs() < 1e9 {
        let frac = (t - t.trunc()).abs();
        if (frac - 0.5).abs() > 1e-6 {
            let tenths = t.round() as i64;
            let (whole, tenth) = (tenths.abs() / 10, tenths.abs() % 10);
            if tenths < 0 {
                out.push('-');
            }
            push_digits(out, whole as u64);
            if tenth != 0 {
                out.push('.');
                out.push(char::from(b'0' + tenth as u8));
            }
            return;
        }
    }
    let s = format!("{x:.1}");
    let s = if s == "-0.0" { "0.0" } else { s.as_str() };
    out.push_str(s.strip_suffix(".0").unwrap_or(s));
}

/// `n` in decimal, without the formatting machinery (a picture prints
/// thousands of numbers).
fn push_digits(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(char::from(b));
    }
}

/// Text escaped for XML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_esc(&mut out, s);
    out
}

/// [`esc`], written onto the end of `out`.
pub fn push_esc(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
}

pub type Point = (f64, f64);

/// What an arrow shows: a move, an attack or capture, or a piece placed
/// (drawn as a ring on `to`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ArrowKind {
    Move,
    Attack,
    Place,
}

/// One move or combat of the last phase, as the viewer may know it: the
/// game puts only what the player saw into its view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrow {
    pub from: String,
    pub to: String,
    pub kind: ArrowKind,
    /// The seat whose piece it was.
    pub seat: usize,
}

/// An SVG document being written. Every element is one line.
pub struct Svg {
    buf: String,
}

impl Svg {
    /// A picture `width` × `height` user units (also its size in CSS pixels),
    /// with a title (shown as a tooltip, read by screen readers) and a paper
    /// background.
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        let mut buf = String::with_capacity(16 * 1024);
        let _ = writeln!(
            buf,
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="herald-board" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}, monospace" font-weight="bold">"#,
            w = num(width),
            h = num(height),
        );
        let _ = writeln!(buf, "<title>{}</title>", esc(title));
        let _ = writeln!(
            buf,
            r##"<defs><marker id="head-move" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{INK}"/></marker><marker id="head-attack" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#b00020"/></marker></defs>"##
        );
        let _ = writeln!(
            buf,
            r#"<rect x="0" y="0" width="{}" height="{}" fill="{PAPER}"/>"#,
            num(width),
            num(height)
        );
        Svg { buf }
    }

    /// A raw element line (the caller escapes what it interpolates).
    pub fn raw(&mut self, s: &str) {
        self.buf.push_str(s);
        self.buf.push('\n');
    }

    /// `<g class="…" extra>`; close with [`Svg::end`].
    pub fn group(&mut self, class: &str, extra: &str) {
        let _ = writeln!(self.buf, r#"<g class="{}"{extra}>"#, esc(class));
    }

    pub fn end(&mut self) {
        self.buf.push_str("</g>\n");
    }

    /// ` name="x"` with `x` a number.
    fn num_attr(&mut self, name: &str, x: f64) {
        self.buf.push(' ');
        self.buf.push_str(name);
        self.buf.push_str("=\"");
        push_num(&mut self.buf, x);
        self.buf.push('"');
    }

    /// ` name="value"` with the value as it is.
    fn attr(&mut self, name: &str, value: &str) {
        self.buf.push(' ');
        self.buf.push_str(name);
        self.buf.push_str("=\"");
        self.buf.push_str(value);
        self.buf.push('"');
    }

    /// `extra` (attributes written by the caller), then `/>` and a line end.
    fn close(&mut self, extra: &str) {
        self.buf.push_str(extra);
        self.buf.push_str("/>\n");
    }

    pub fn polygon(&mut self, points: &[Point], fill: &str, stroke: &str, width: f64, extra: &str) {
        self.buf.push_str(r#"<polygon points=""#);
        for (i, (x, y)) in points.iter().enumerate() {
            if i > 0 {
                self.buf.push(' ');
            }
            push_num(&mut self.buf, *x);
            self.buf.push(',');
            push_num(&mut self.buf, *y);
        }
        self.buf.push('"');
        self.attr("fill", fill);
        self.attr("stroke", stroke);
        self.num_attr("stroke-width", width);
        self.close(extra);
    }

    pub fn circle(&mut self, c: Point, r: f64, fill: &str, stroke: &str, width: f64, extra: &str) {
        self.buf.push_str("<circle");
        self.num_attr("cx", c.0);
        self.num_attr("cy", c.1);
        self.num_attr("r", r);
        self.attr("fill", fill);
        self.attr("stroke", stroke);
        self.num_attr("stroke-width", width);
        self.close(extra);
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str, extra: &str) {
        self.buf.push_str("<rect");
        self.num_attr("x", x);
        self.num_attr("y", y);
        self.num_attr("width", w);
        self.num_attr("height", h);
        self.attr("fill", fill);
        self.attr("stroke", stroke);
        self.close(extra);
    }

    pub fn line(&mut self, a: Point, b: Point, stroke: &str, width: f64, extra: &str) {
        self.buf.push_str("<line");
        self.num_attr("x1", a.0);
        self.num_attr("y1", a.1);
        self.num_attr("x2", b.0);
        self.num_attr("y2", b.1);
        self.attr("stroke", stroke);
        self.num_attr("stroke-width", width);
        self.close(extra);
    }

    /// Text centred on `at` (horizontally and, roughly, vertically).
    pub fn text(&mut self, at: Point, size: f64, fill: &str, s: &str) {
        self.text_element(at, size, fill, " text-anchor=\"middle\"", s);
    }

    /// Text starting at `at` (left-aligned, vertically centred).
    pub fn text_start(&mut self, at: Point, size: f64, fill: &str, s: &str) {
        self.text_element(at, size, fill, "", s);
    }

    fn text_element(&mut self, at: Point, size: f64, fill: &str, extra: &str, s: &str) {
        self.buf.push_str("<text");
        self.num_attr("x", at.0);
        self.num_attr("y", at.1 + size * 0.36);
        self.num_attr("font-size", size);
        self.attr("fill", fill);
        self.buf.push_str(extra);
        self.buf.push('>');
        push_esc(&mut self.buf, s);
        self.buf.push_str("</text>\n");
    }

    pub fn finish(mut self) -> String {
        self.buf.push_str("</svg>\n");
        self.buf
    }

    /// A writer of elements only, without the document around them (a
    /// board's layers, `picture::Board`).
    pub fn fragment() -> Svg {
        Svg {
            buf: String::with_capacity(16 * 1024),
        }
    }

    /// What a [`Svg::fragment`] holds.
    pub fn into_body(self) -> String {
        self.buf
    }

    /// The bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }
}

/// Hex geometry: centres and corners of axial hexes at `size` (centre to
/// corner), shifted so that `origin` lands at (`ox`, `oy`).
#[derive(Debug, Clone, Copy)]
pub struct HexGrid {
    pub size: f64,
    pub flat: bool,
    pub ox: f64,
    pub oy: f64,
}

const SQRT3: f64 = 1.732_050_807_568_877_2;

impl HexGrid {
    /// Flat-topped hexes (north up, columns of hexes), as on the hexagon
    /// boards: axial `q` runs east, `r` south-by-south-east.
    pub fn flat(size: f64, ox: f64, oy: f64) -> HexGrid {
        HexGrid {
            size,
            flat: true,
            ox,
            oy,
        }
    }

    /// Pointy-topped hexes (rows of hexes): axial `q` east, `r` south-east.
    pub fn pointy(size: f64, ox: f64, oy: f64) -> HexGrid {
        HexGrid {
            size,
            flat: false,
            ox,
            oy,
        }
    }

    pub fn centre(&self, h: Hex) -> Point {
        let (q, r) = (h.q as f64, h.r as f64);
        if self.flat {
            (
                self.ox + self.size * 1.5 * q,
                self.oy + self.size * SQRT3 * (r + q / 2.0),
            )
        } else {
            (
                self.ox + self.size * SQRT3 * (q + r / 2.0),
                self.oy + self.size * 1.5 * r,
            )
        }
    }

    /// The six corners, clockwise from the east (flat) or north-east (pointy).
    pub fn corners(&self, h: Hex) -> [Point; 6] {
        let (cx, cy) = self.centre(h);
        self.corners_at((cx, cy), self.size)
    }

    /// Corners of a hex of radius `size` around any point.
    pub fn corners_at(&self, (cx, cy): Point, size: f64) -> [Point; 6] {
        let half = size * SQRT3 / 2.0;
        if self.flat {
            [
                (cx + size, cy),
                (cx + size / 2.0, cy + half),
                (cx - size / 2.0, cy + half),
                (cx - size, cy),
                (cx - size / 2.0, cy - half),
                (cx + size / 2.0, cy - half),
            ]
        } else {
            [
                (cx + half, cy - size / 2.0),
                (cx + half, cy + size / 2.0),
                (cx, cy + size),
                (cx - half, cy + size / 2.0),
                (cx - half, cy - size / 2.0),
                (cx, cy - size),
            ]
        }
    }

    /// A point `dist` from `at` towards the neighbour in axial direction `d`
    /// (for facing marks).
    pub fn towards(&self, at: Hex, d: Hex, dist: f64) -> Point {
        let a = self.centre(at);
        let b = self.centre(Hex::new(at.q + d.q, at.r + d.r));
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        (a.0 + dx / len * dist, a.1 + dy / len * dist)
    }
}

/// Draw a hexagon-shaped board of flat-topped hexes (the hexagon games'
/// shape) with labelled files and ranks on its edge. `fill` chooses each
/// hex's colour and class (`None`: not drawn). Returns the grid to place
/// pieces with.
pub struct HexagonBoard {
    pub grid: HexGrid,
    pub width: f64,
    pub height: f64,
}

impl HexagonBoard {
    /// The geometry for a board of `radius` with room for labels.
    pub fn new(radius: i32, size: f64) -> HexagonBoard {
        let margin = size * 1.2;
        let width = 2.0 * margin + size * (3.0 * radius as f64 + 2.0);
        let height = 2.0 * margin + size * SQRT3 * (2 * radius + 1) as f64;
        HexagonBoard {
            grid: HexGrid::flat(size, width / 2.0, height / 2.0),
            width: width.round(),
            height: height.round(),
        }
    }
}

/// Rasterise an SVG to a PNG [`PNG_WIDTH`] pixels wide, in-process, with the
/// embedded font only, as a palette PNG (`board::raster`).
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    super::raster::png(svg, PNG_WIDTH)
}

/// The PNG's height for a picture of this size: the width is [`PNG_WIDTH`].
pub fn png_height(width: f32, height: f32) -> u32 {
    ((height * PNG_WIDTH as f32 / width).round() as u32).max(1)
}

// A picture asks for the width of its PNG by a `data-png-width` attribute
// on its root element (`picture::Board` writes it); without one it is
// [`PNG_WIDTH`] wide.

/// The PNG width a picture asks for: its root's `data-png-width`, or
/// [`PNG_WIDTH`].
pub fn png_width_of(svg: &str) -> u32 {
    let root = svg.lines().next().unwrap_or("");
    root.split_once(r#"data-png-width=""#)
        .and_then(|(_, rest)| rest.split_once('"'))
        .and_then(|(n, _)| n.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(PNG_WIDTH)
}

/// The PNG's height for a picture of this size rasterised `px` wide.
pub fn png_height_at(px: u32, width: f32, height: f32) -> u32 {
    ((height * px as f32 / width).round() as u32).max(1)
}

/// Rasterise at the width the picture asks for ([`png_width_of`]).
pub fn png_sized(svg: &str) -> Result<Vec<u8>, String> {
    super::raster::png(svg, png_width_of(svg))
}
