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
use std::sync::{Arc, OnceLock};

/// The font every label is drawn in; embedded so the PNG does not depend on
/// the fonts a machine has (DejaVu Sans Mono Bold, Bitstream Vera licence:
/// `assets/fonts/DejaVu-LICENSE.txt`).
pub const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono-Bold.ttf");
pub const FONT_FAMILY: &str = "DejaVu Sans Mono";

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

    /// An arrow from `a` to `b` for one move or combat, shortened at both ends
    /// by `inset` so it does not hide the pieces; a `Place` is a ring at `b`.
    pub fn arrow(&mut self, a: Point, b: Point, kind: ArrowKind, inset: f64, seat_colour: &str) {
        let cls = match kind {
            ArrowKind::Move => "arrow move",
            ArrowKind::Attack => "arrow attack",
            ArrowKind::Place => "arrow place",
        };
        self.arrow_as(
            a,
            b,
            kind,
            inset,
            seat_colour,
            &format!(r#" class="{cls}""#),
        );
    }

    /// [`Svg::arrow`] with `attrs` instead of the board's class (the
    /// legend draws its arrows without it).
    pub fn arrow_as(
        &mut self,
        a: Point,
        b: Point,
        kind: ArrowKind,
        inset: f64,
        seat_colour: &str,
        attrs: &str,
    ) {
        if kind == ArrowKind::Place || (a.0 - b.0).abs() + (a.1 - b.1).abs() < 0.01 {
            self.circle(
                b,
                inset * 1.1,
                "none",
                seat_colour,
                inset * 0.22,
                &format!(r#"{attrs} stroke-dasharray="{}""#, num(inset * 0.3)),
            );
            return;
        }
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        let k = (inset / len).min(0.45);
        let p = (a.0 + dx * k, a.1 + dy * k);
        let q = (b.0 - dx * k, b.1 - dy * k);
        let (colour, head, width) = match kind {
            ArrowKind::Attack => ("#b00020", "head-attack", inset * 0.26),
            _ => (INK, "head-move", inset * 0.2),
        };
        let _ = writeln!(
            self.buf,
            r#"<line{attrs} x1="{}" y1="{}" x2="{}" y2="{}" stroke="{colour}" stroke-width="{}" stroke-opacity="0.85" stroke-linecap="round" marker-end="url(#{head})"/>"#,
            num(p.0),
            num(p.1),
            num(q.0),
            num(q.1),
            num(width)
        );
    }

    pub fn finish(mut self) -> String {
        self.buf.push_str("</svg>\n");
        self.buf
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

pub const SQRT3: f64 = 1.732_050_807_568_877_2;

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

    /// File letters above and below each column, rank numbers beside the
    /// westernmost and easternmost hexes.
    pub fn labels(&self, svg: &mut Svg, radius: i32) {
        let labels = super::HexagonLabels { radius };
        let g = &self.grid;
        let s = g.size;
        svg.group("labels", "");
        for q in -radius..=radius {
            let top = Hex::new(q, (-radius).max(-radius - q));
            let bottom = Hex::new(q, radius.min(radius - q));
            let f = labels.file_letter(q).to_string();
            let (x, y) = g.centre(top);
            svg.text((x, y - s * 1.25), s * 0.5, INK, &f);
            let (x, y) = g.centre(bottom);
            svg.text((x, y + s * 1.25), s * 0.5, INK, &f);
        }
        // ranks beside the westernmost and easternmost columns, as the
        // text board prints them
        for (q, dx) in [(-radius, -s * 1.3), (radius, s * 1.3)] {
            for r in -radius..=radius {
                let h = Hex::new(q, r);
                if h.length() > radius {
                    continue;
                }
                let l = labels.label(h);
                let (x, y) = g.centre(h);
                svg.text((x + dx, y), s * 0.45, INK, &l[1..]);
            }
        }
        svg.end();
    }
}

/// Piece marker for stacking/strength: a disc with a short text in it.
pub fn disc(
    svg: &mut Svg,
    at: Point,
    r: f64,
    fill: &str,
    text_fill: &str,
    label: &str,
    extra: &str,
) {
    svg.circle(at, r, fill, INK, r * 0.12, extra);
    if !label.is_empty() {
        let size = if label.chars().count() > 2 {
            r * 0.8
        } else {
            r * 1.05
        };
        svg.text(at, size, text_fill, label);
    }
}

fn fontdb() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_monospace_family(FONT_FAMILY);
        db.set_sans_serif_family(FONT_FAMILY);
        db.set_serif_family(FONT_FAMILY);
        Arc::new(db)
    })
    .clone()
}

use resvg::usvg;

/// Rasterise an SVG to a PNG [`PNG_WIDTH`] pixels wide, in-process, with the
/// embedded font only.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    let opt = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fontdb(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| format!("the board picture: {e}"))?;
    let size = tree.size();
    let scale = PNG_WIDTH as f32 / size.width();
    let height = png_height(size.width(), size.height());
    let mut pixmap = resvg::tiny_skia::Pixmap::new(PNG_WIDTH, height)
        .ok_or_else(|| "the board picture has no size".to_string())?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode_rgb(&pixmap).map_err(|e| format!("encoding the board picture: {e}"))
}

/// The picture is opaque (it starts with a paper rectangle), so the PNG is
/// RGB: a quarter smaller than RGBA, and the same bytes every time.
fn encode_rgb(pixmap: &resvg::tiny_skia::Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let mut rgb = Vec::with_capacity((pixmap.width() * pixmap.height() * 3) as usize);
    for p in pixmap.pixels() {
        // opaque pixels: premultiplied equals straight colour
        let c = p.demultiply();
        rgb.extend_from_slice(&[c.red(), c.green(), c.blue()]);
    }
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    e.set_color(png::ColorType::Rgb);
    e.set_depth(png::BitDepth::Eight);
    e.set_compression(png::Compression::Default);
    e.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    let mut w = e.write_header()?;
    w.write_image_data(&rgb)?;
    w.finish()?;
    Ok(out)
}

/// The PNG's height for a picture of this size: the width is [`PNG_WIDTH`].
pub fn png_height(width: f32, height: f32) -> u32 {
    ((height * PNG_WIDTH as f32 / width).round() as u32).max(1)
}

// ---------------------------------------------------------------------------
// Added for large maps (War of the Dukes): a picture may ask for a wider PNG
// than [`PNG_WIDTH`] by a `data-png-width` attribute on its root element.
// Pictures without it rasterise exactly as [`png`] does.

impl Svg {
    /// Ask for a PNG `px` pixels wide instead of [`PNG_WIDTH`] (a map too
    /// large to read at the default size).
    pub fn png_width(mut self, px: u32) -> Svg {
        self.buf = self.buf.replacen(
            r#"class="herald-board""#,
            &format!(r#"class="herald-board" data-png-width="{px}""#),
            1,
        );
        self
    }
}

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

/// Rasterise at the width the picture asks for ([`png_width_of`]); the same
/// bytes as [`png`] for a picture that asks for none.
pub fn png_sized(svg: &str) -> Result<Vec<u8>, String> {
    let px = png_width_of(svg);
    if px == PNG_WIDTH {
        return png(svg);
    }
    let opt = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fontdb(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| format!("the board picture: {e}"))?;
    let size = tree.size();
    let scale = px as f32 / size.width();
    let height = png_height_at(px, size.width(), size.height());
    let mut pixmap = resvg::tiny_skia::Pixmap::new(px, height)
        .ok_or_else(|| "the board picture has no size".to_string())?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode_rgb(&pixmap).map_err(|e| format!("encoding the board picture: {e}"))
}

// ---------------------------------------------------------------------------
// Legends (issue 18): every symbol a board draws, explained in words under
// the board, at sizes that stay legible when the picture is read on a phone.

/// The width in CSS pixels a picture is read at on a phone: a 375-pixel
/// screen less the page's margins. Legends are laid out so that their text
/// is at least [`LEGEND_FONT_PX`] pixels high at this width.
pub const PHONE_WIDTH: f64 = 350.0;
/// The legend's text height in CSS pixels when the picture is
/// [`PHONE_WIDTH`] wide.
pub const LEGEND_FONT_PX: f64 = 12.0;

/// One legend entry: a symbol drawn as the board draws it, and what it
/// means. `explains` names the board's symbols it stands for: the `class`
/// of the board's element, `class:kind` where the element has a
/// `data-kind`, or `owner:<name>` for the colour of a player's pieces
/// (`tests/it/pictures.rs` checks that every symbol drawn has an entry).
pub struct LegendEntry<'a> {
    pub explains: Vec<String>,
    pub text: String,
    /// Draws the symbol centred on a point, fitting a square of the size.
    /// Draw it without the board's classes: the legend is not the board.
    #[allow(clippy::type_complexity)]
    pub swatch: Box<dyn Fn(&mut Svg, Point, f64) + 'a>,
}

impl<'a> LegendEntry<'a> {
    pub fn new(
        explains: &[&str],
        text: impl Into<String>,
        swatch: impl Fn(&mut Svg, Point, f64) + 'a,
    ) -> LegendEntry<'a> {
        LegendEntry {
            explains: explains.iter().map(|s| s.to_string()).collect(),
            text: text.into(),
            swatch: Box::new(swatch),
        }
    }
}

/// A legend laid out for a picture `width` units wide: two columns of
/// entries, each a swatch and its text wrapped to the column. Lay it out
/// first ([`Legend::height`] gives the room to leave under the board), then
/// [`Legend::draw`] it.
pub struct Legend<'a> {
    entries: Vec<LegendEntry<'a>>,
    lines: Vec<Vec<String>>,
    width: f64,
    font: f64,
    pad: f64,
    swatch: f64,
    cols: usize,
    rows: Vec<f64>,
}

/// Words wrapped into lines of at most `max` characters (a longer word has
/// a line of its own).
pub fn wrap_words(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    for w in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + w.chars().count() > max {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

impl<'a> Legend<'a> {
    pub fn new(width: f64, entries: Vec<LegendEntry<'a>>) -> Legend<'a> {
        // units per CSS pixel when the picture is read PHONE_WIDTH wide
        let k = (width / PHONE_WIDTH).max(1.0);
        let font = LEGEND_FONT_PX * k;
        let pad = 5.0 * k;
        let swatch = 26.0 * k;
        let cols = 2;
        let col_w = (width - 2.0 * pad) / cols as f64;
        let text_w = col_w - swatch - 3.0 * pad;
        // DejaVu Sans Mono advances 0.602 em per character
        let chars = ((text_w / (0.602 * font)).floor() as usize).max(8);
        let lines: Vec<Vec<String>> = entries.iter().map(|e| wrap_words(&e.text, chars)).collect();
        let entry_h = |n: usize| (n as f64 * font * 1.2).max(swatch) + pad;
        let rows = lines
            .chunks(cols)
            .map(|row| row.iter().map(|l| entry_h(l.len())).fold(0.0, f64::max))
            .collect();
        Legend {
            entries,
            lines,
            width,
            font,
            pad,
            swatch,
            cols,
            rows,
        }
    }

    /// The room the legend takes under the board.
    pub fn height(&self) -> f64 {
        (self.rows.iter().sum::<f64>() + 2.0 * self.pad).ceil()
    }

    /// Draw the legend with its top edge at `y0`.
    pub fn draw(self, svg: &mut Svg, y0: f64) {
        svg.group("legend", "");
        svg.line(
            (self.pad, y0 + self.pad * 0.5),
            (self.width - self.pad, y0 + self.pad * 0.5),
            GRID,
            1.0,
            "",
        );
        let col_w = (self.width - 2.0 * self.pad) / self.cols as f64;
        let mut y = y0 + self.pad;
        for (r, h) in self.rows.iter().enumerate() {
            for c in 0..self.cols {
                let i = r * self.cols + c;
                let Some(e) = self.entries.get(i) else {
                    continue;
                };
                let x = self.pad + c as f64 * col_w;
                svg.group(
                    "legend-entry",
                    &format!(r#" data-explains="{}""#, esc(&e.explains.join(";"))),
                );
                let top = y + self.pad * 0.5;
                (e.swatch)(
                    svg,
                    (x + self.pad + self.swatch / 2.0, top + self.swatch / 2.0),
                    self.swatch,
                );
                let tx = x + 2.0 * self.pad + self.swatch;
                let n = self.lines[i].len() as f64;
                // centre a short text on the swatch, start a long one at its top
                let block = n * self.font * 1.2;
                let start = top + ((self.swatch - block) / 2.0).max(0.0);
                for (j, l) in self.lines[i].iter().enumerate() {
                    let y = start + self.font * 0.6 + j as f64 * self.font * 1.2;
                    svg.raw(&format!(
                        r#"<text class="legend-text" x="{}" y="{}" font-size="{}" fill="{INK}">{}</text>"#,
                        num(tx),
                        num(y + self.font * 0.36),
                        num(self.font),
                        esc(l)
                    ));
                }
                svg.end();
            }
            y += h;
        }
        svg.end();
    }
}

/// A hexagon swatch (flat-topped) filling a legend box.
pub fn hex_swatch(svg: &mut Svg, c: Point, size: f64, fill: &str) {
    let g = HexGrid::flat(1.0, 0.0, 0.0);
    svg.polygon(&g.corners_at(c, size * 0.5), fill, GRID, 1.0, "");
}

/// An arrow swatch: the board's arrow of this kind across a legend box.
pub fn arrow_swatch(svg: &mut Svg, c: Point, size: f64, kind: ArrowKind) {
    if kind == ArrowKind::Place {
        svg.arrow_as(c, c, kind, size * 0.38, INK, "");
        return;
    }
    // the board's arrows are shortened by `inset` at both ends: start and
    // end that far outside so that the arrow spans the box
    let inset = size * 0.3;
    let reach = size * 0.45 + inset;
    svg.arrow_as((c.0 - reach, c.1), (c.0 + reach, c.1), kind, inset, INK, "");
}

/// The legend entries for the arrows every game draws (moves, attacks and
/// captures, pieces placed or turned), with the game's words for each.
pub fn arrow_entries<'a>(moves: &str, attacks: &str, placed: Option<&str>) -> Vec<LegendEntry<'a>> {
    let mut v = vec![
        LegendEntry::new(&["arrow move"], moves, |s, c, z| {
            arrow_swatch(s, c, z, ArrowKind::Move)
        }),
        LegendEntry::new(&["arrow attack"], attacks, |s, c, z| {
            arrow_swatch(s, c, z, ArrowKind::Attack)
        }),
    ];
    if let Some(p) = placed {
        v.push(LegendEntry::new(&["arrow place"], p, |s, c, z| {
            arrow_swatch(s, c, z, ArrowKind::Place)
        }));
    }
    v
}
