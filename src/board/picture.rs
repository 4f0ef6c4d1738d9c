//! A board framed for where it is read (issue 30).
//!
//! A game draws its map onto a [`Board`]: each shape it repeats (a hex, a
//! terrain, a counter) is defined once (`<symbol>`) and placed with
//! `<use>`; each symbol it draws is recorded with the first drawing of it,
//! and that drawing, moved to the legend, is the legend's sample. So the
//! legend lists exactly the symbols on this board, each shown as the board
//! shows it.
//!
//! The frames of one view:
//!
//! - [`Frame::Full`]: the whole map, the legend beneath it. The report's
//!   SVG, the HTML page, `report --format png --full`.
//! - [`Frame::Site`]: the whole map as the replay site shows it, with
//!   whose view it is ([`Seen`]): the caption every game writes through
//!   [`Board::seen`] says so ("the whole board, everything revealed (the
//!   game is over)", "the public view of the board", "the board as red
//!   saw it"), never "as red sees it" of a view no one player has.
//! - [`Frame::Mail`]: drawn for a phone, about [`MAIL_SIDE`] pixels on its
//!   long side at most: the whole map where it fits at a legible scale,
//!   otherwise the part around the player's own pieces, with a small
//!   locator of the whole map; beneath it a compact legend in a small type
//!   of its own ([`MAIL_TYPE`]), in as many columns as fit.
//!   What lies outside the part is not drawn at all.
//!
//! The part shown is worked out from the player's own pieces alone (the
//! game passes them, from the view), never from anything the view hides,
//! so a crop cannot point at a hidden piece.
//!
//! The root element says what a page may rely on: `data-map` (the map's
//! extent, the legend excluded), `data-legend` (the legend's), and
//! `data-focus` (the part around the player's own pieces), each as
//! `x y width height` in the picture's units; every piece of the viewer's
//! is a `<g class="piece" data-yours="">`.

use super::hex::Hex;
use super::svg::{esc, num, push_num, ArrowKind, Point, Svg, BOARD, GRID, INK, PAPER};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The mail picture's long side in pixels, at most.
pub const MAIL_SIDE: f64 = 1080.0;

/// The mail picture's pixels at most (its area): a picture of this many
/// pixels is drawn on one core within the mail's time budget of 50 ms
/// (docs/performance.md, "Boards in the mail"); a picture whose long side
/// would make it larger is drawn at a smaller scale.
pub const MAIL_AREA: f64 = 460_000.0;

/// The height of the mail picture's legend type, in the PNG's pixels: small
/// beside the map, as a map's key is (the whole board's legend is set in
/// the map's own type).
pub const MAIL_TYPE: f64 = 12.0;

/// Which picture of a board to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frame {
    /// The whole map with its legend (the report's SVG and page), at
    /// herald's turn the report is of: the caption says it, with the
    /// game's own count beside it where the game keeps one ("turn 6 (game
    /// turn 3 of 15: Wulfenburg's phase)"), so that the picture, the page,
    /// the order file and the mail's subject say one number.
    Full(u32),
    /// The whole map with its legend as the replay site shows it, and
    /// whose view it is: the caption says so ([`Board::seen`]); seen by no
    /// one player (the omniscient or the public view) the legend and the
    /// caption name nobody "you". The number is herald's turn the board
    /// stands at (the head's, as the reports of that turn and `herald
    /// report --turn N` number it): a site's caption says it, never the
    /// game's own count of rounds or moves, so that the page's name of the
    /// frame and the board's caption are one number from one place.
    Site(Seen, u32),
    /// The part that matters to the player, sized for a phone (the mail's
    /// PNG), at herald's turn as [`Frame::Full`].
    Mail(u32),
}

/// Whose view of a game a replay site's board shows ([`Frame::Site`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// The whole truth of a finished game (the omniscient view): hidden
    /// pieces, powers and fog revealed.
    Everything,
    /// What every player is told (the public view).
    Public,
    /// One player's own view of a past phase, as their report showed it.
    Player,
}

impl Frame {
    /// Whether the picture is seen by no one player, so names nobody "you".
    fn unnamed(self) -> bool {
        matches!(self, Frame::Site(Seen::Everything | Seen::Public, _))
    }
}

/// A rectangle in a picture's units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect { x, y, w, h }
    }

    /// The smallest rectangle holding every point, grown by `margin` on
    /// each side; `None` for no points.
    pub fn around(points: &[Point], margin: f64) -> Option<Rect> {
        let first = points.first()?;
        let (mut x0, mut y0, mut x1, mut y1) = (first.0, first.1, first.0, first.1);
        for p in points {
            x0 = x0.min(p.0);
            y0 = y0.min(p.1);
            x1 = x1.max(p.0);
            y1 = y1.max(p.1);
        }
        Some(Rect::new(
            x0 - margin,
            y0 - margin,
            x1 - x0 + 2.0 * margin,
            y1 - y0 + 2.0 * margin,
        ))
    }

    /// This rectangle moved and cut to lie within `outer`.
    pub fn within(self, outer: Rect) -> Rect {
        let w = self.w.min(outer.w);
        let h = self.h.min(outer.h);
        let x = self.x.max(outer.x).min(outer.x + outer.w - w);
        let y = self.y.max(outer.y).min(outer.y + outer.h - h);
        Rect::new(x, y, w, h)
    }

    pub fn contains(&self, p: Point) -> bool {
        p.0 >= self.x && p.0 <= self.x + self.w && p.1 >= self.y && p.1 <= self.y + self.h
    }

    /// Whether a thing of radius `r` around `p` reaches into the rectangle.
    pub fn reaches(&self, p: Point, r: f64) -> bool {
        p.0 + r >= self.x
            && p.0 - r <= self.x + self.w
            && p.1 + r >= self.y
            && p.1 - r <= self.y + self.h
    }

    /// Whether the two rectangles overlap (touching is not overlapping).
    pub fn meets(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    /// Whether `o` lies wholly inside this rectangle.
    pub fn holds(&self, o: &Rect) -> bool {
        o.x >= self.x
            && o.y >= self.y
            && o.x + o.w <= self.x + self.w
            && o.y + o.h <= self.y + self.h
    }

    /// `x y w h`, as a viewBox or a data attribute.
    pub fn attr(&self) -> String {
        format!(
            "{} {} {} {}",
            num(self.x),
            num(self.y),
            num(self.w),
            num(self.h)
        )
    }
}

/// How a game's map is to be framed: its type and the scales it reads at.
#[derive(Debug, Clone, Copy)]
pub struct Look {
    /// The height of the map's own labels (rank and file numbers), in the
    /// map's units: the legend is set in it.
    pub type_size: f64,
    /// The least scale (pixels per unit) at which the mail picture is
    /// legible; a map that does not fit [`MAIL_SIDE`] at it is cropped.
    pub mail_scale: f64,
    /// The greatest scale the mail picture is drawn at (a small board is
    /// not blown up past it).
    pub mail_max_scale: f64,
    /// The PNG's width in pixels for the full picture (`--full`).
    pub full_png_width: u32,
}

/// One entry of a legend: the symbols it explains, its words, and its
/// sample.
pub struct Entry {
    /// The symbol keys it stands for (see [`Board::mark`]).
    pub keys: Vec<String>,
    pub text: String,
    /// Shorter words for the mail picture's compact legend, if the game
    /// gives them (the whole board's legend keeps `text`).
    pub brief: Option<String>,
    pub sample: Sample,
}

/// What a legend entry shows beside its words.
pub enum Sample {
    /// The first drawing of the entry's first key that the board recorded.
    Drawn,
    /// A chip of a colour (a player's colour).
    Chip(&'static str),
    /// An arrow of this kind, drawn as the board draws it.
    Arrow(ArrowKind),
    /// Markup drawn around the origin, fitting a circle of this radius.
    Markup(String, f64),
}

impl Entry {
    pub fn new(keys: &[&str], text: impl Into<String>, sample: Sample) -> Entry {
        Entry {
            keys: keys.iter().map(|k| k.to_string()).collect(),
            text: text.into(),
            brief: None,
            sample,
        }
    }

    /// The entry with shorter words for the mail picture's legend.
    pub fn brief(mut self, brief: impl Into<String>) -> Entry {
        self.brief = Some(brief.into());
        self
    }
}

/// A symbol's first drawing: markup around the origin and its radius.
struct Drawing {
    markup: String,
    radius: f64,
}

/// A map being drawn in one frame.
pub struct Board {
    frame: Frame,
    look: Look,
    /// The whole map.
    map: Rect,
    /// The part drawn.
    window: Rect,
    /// The part around the player's own pieces.
    focus: Rect,
    own: Vec<(Point, &'static str)>,
    defs: BTreeMap<String, String>,
    body: Svg,
    drawn: BTreeMap<String, Drawing>,
    arrows: BTreeSet<ArrowKind>,
}

/// The marker ends of the board's arrows.
const MARKERS: [(ArrowKind, &str, &str); 2] = [
    (ArrowKind::Move, "head-move", INK),
    (ArrowKind::Attack, "head-attack", ATTACK),
];

/// The colour of attacks and captures.
pub const ATTACK: &str = "#b00020";

impl Board {
    /// A map `width` × `height` units, to be drawn in `frame`. `own` are the
    /// centres of the viewer's own pieces with their colour (from the
    /// view: the mail's part is chosen around them); `fallback` is the
    /// part to show when they have none on the map (a deployment zone, a
    /// baseline), or the whole map.
    pub fn new(
        frame: Frame,
        look: Look,
        width: f64,
        height: f64,
        own: Vec<(Point, &'static str)>,
        fallback: Option<Rect>,
        hex: f64,
    ) -> Board {
        let map = Rect::new(0.0, 0.0, width, height);
        // seen by no seat, no piece is anyone's own
        let own = if frame.unnamed() { Vec::new() } else { own };
        let points: Vec<Point> = own.iter().map(|(p, _)| *p).collect();
        let focus = Rect::around(&points, hex * 1.6)
            .or(fallback)
            .unwrap_or(map)
            .within(map);
        let window = match frame {
            Frame::Full(_) | Frame::Site(..) => map,
            Frame::Mail(_) => mail_window(map, focus, &points, look.mail_scale, hex),
        };
        Board {
            frame,
            look,
            map,
            window,
            focus,
            own,
            defs: BTreeMap::new(),
            body: Svg::fragment(),
            drawn: BTreeMap::new(),
            arrows: BTreeSet::new(),
        }
    }

    /// Whose view the picture is, for its title and caption: `what` (the
    /// game's word for its map: "board", "map", "field") as `you` (the
    /// view's player) sees it in a report or a mail; in the replay site
    /// the whole truth, the public view, or as `you` saw it.
    pub fn seen(&self, what: &str, you: &str) -> String {
        match self.frame {
            Frame::Full(_) | Frame::Mail(_) => format!("the {what} as {you} sees it"),
            Frame::Site(Seen::Everything, _) => {
                format!("the whole {what}, everything revealed (the game is over)")
            }
            Frame::Site(Seen::Public, _) => format!("the public view of the {what}"),
            Frame::Site(Seen::Player, _) => format!("the {what} as {you} saw it"),
        }
    }

    /// A board's title: `game`, when it stands, and whose view it is
    /// ([`Board::seen`]). When is herald's turn (the frame's: the number
    /// of the order file, the mail's subject and the replay site's frame);
    /// `native` is the game's own count beside it, labelled as the game's
    /// ("game turn 3", "round 2", "game turn 1 of 15: Orfburg's phase").
    pub fn titled(&self, game: &str, native: Option<&str>, what: &str, you: &str) -> String {
        let seen = self.seen(what, you);
        let turn = match self.frame {
            Frame::Site(_, t) | Frame::Full(t) | Frame::Mail(t) => t,
        };
        match native {
            Some(n) => format!("{game}, turn {turn} ({n}): {seen}"),
            None => format!("{game}, turn {turn}: {seen}"),
        }
    }

    /// Whether the picture belongs to no seat (the whole truth of a
    /// finished game, or the public view): no piece is drawn as anyone's
    /// own, nothing is shaded as out of someone's sight, and the words
    /// name each side rather than "you" and "the enemy".
    pub fn observer(&self) -> bool {
        self.frame.unnamed()
    }

    /// The part of the map drawn.
    pub fn window(&self) -> Rect {
        self.window
    }

    /// Whether a thing of radius `r` around `p` is in the part drawn.
    pub fn shows(&self, p: Point, r: f64) -> bool {
        self.window.reaches(p, r)
    }

    /// Define a shape once, as a `<symbol>` drawn around the origin; placed
    /// with [`Board::place`]. Defining an id again keeps the first.
    pub fn define(&mut self, id: &str, markup: &str) {
        if !self.defs.contains_key(id) {
            self.defs.insert(
                id.to_string(),
                format!(r#"<symbol id="{id}" overflow="visible">{markup}</symbol>"#),
            );
        }
    }

    /// `<use href="#id" x y …>`: a defined shape at `p`, with `attrs`
    /// (written by the caller, each with a leading space).
    pub fn place(&mut self, id: &str, p: Point, attrs: &str) {
        self.body.raw(&use_at(id, p, attrs));
    }

    /// Record that the symbol `key` is drawn; its first `drawing` (markup
    /// around the origin, within `radius`) is the legend's sample.
    pub fn mark(&mut self, key: &str, drawing: impl FnOnce() -> String, radius: f64) {
        if !self.drawn.contains_key(key) {
            self.drawn.insert(
                key.to_string(),
                Drawing {
                    markup: drawing(),
                    radius,
                },
            );
        }
    }

    /// Whether the symbol `key` was drawn.
    pub fn has(&self, key: &str) -> bool {
        self.drawn.contains_key(key)
    }

    /// The layers' writer.
    pub fn svg(&mut self) -> &mut Svg {
        &mut self.body
    }

    /// A piece group: `<g class="piece" transform="translate(x y)" …>` with
    /// its drawing (`inner`, around the origin) in it, recorded as symbol
    /// `key` (and `owner:<owner>`). `attrs` are the data attributes.
    #[allow(clippy::too_many_arguments)]
    pub fn piece(
        &mut self,
        key: &str,
        owner: &str,
        at: Point,
        radius: f64,
        yours: bool,
        attrs: &str,
        inner: &str,
    ) {
        let mut s = String::with_capacity(inner.len() + 160);
        s.push_str(r#"<g class="piece" transform="translate("#);
        push_num(&mut s, at.0);
        s.push(' ');
        push_num(&mut s, at.1);
        s.push_str(r#")""#);
        s.push_str(attrs);
        if yours && !self.frame.unnamed() {
            s.push_str(r#" data-yours="""#);
        }
        s.push('>');
        s.push_str(inner);
        s.push_str("</g>");
        self.body.raw(&s);
        let owned = format!("owner:{owner}");
        self.mark(key, || inner.to_string(), radius);
        self.mark(&owned, String::new, radius);
    }

    /// An arrow for one move or combat of the last phase, shortened by
    /// `inset` at both ends; a `Place` is a dashed ring on `b`.
    pub fn arrow(&mut self, a: Point, b: Point, kind: ArrowKind, inset: f64) {
        if !self.window.reaches(a, inset) && !self.window.reaches(b, inset) {
            return;
        }
        let class = match kind {
            ArrowKind::Move => "arrow move",
            ArrowKind::Attack => "arrow attack",
            ArrowKind::Place => "arrow place",
        };
        self.body.raw(&arrow_markup(
            a,
            b,
            kind,
            inset,
            &format!(r#" class="{class}""#),
        ));
        self.arrows.insert(kind);
        self.drawn.entry(class.to_string()).or_insert(Drawing {
            markup: String::new(),
            radius: inset,
        });
    }

    /// The picture: the map, its legend of `entries` (those whose symbols
    /// were drawn), headed by `caption`, and for a cropped mail picture a
    /// locator of the whole map.
    ///
    /// Long (about 155 lines): one picture put together in drawing order (the
    /// caption, the legend's entries kept for the symbols drawn, the key laid
    /// out, the locator, the clip and the frame); each step uses the measures
    /// the ones before it computed.
    pub fn finish(self, title: &str, caption: &str, entries: Vec<Entry>) -> String {
        let Board {
            frame,
            look,
            map,
            window,
            focus,
            own,
            defs,
            body,
            drawn,
            arrows,
        } = self;
        let cropped = matches!(frame, Frame::Mail(_)) && window != map;
        let caption = if frame.unnamed() {
            unnamed(caption)
        } else {
            caption.to_string()
        };
        let caption = caption.as_str();
        let entries: Vec<Entry> = match frame {
            _ if frame.unnamed() => entries
                .into_iter()
                .map(|e| Entry {
                    text: unnamed(&e.text),
                    ..e
                })
                .collect(),
            // the mail's compact legend: the brief words where given
            Frame::Mail(_) => entries
                .into_iter()
                .map(|mut e| {
                    if let Some(b) = e.brief.take() {
                        e.text = b;
                    }
                    e
                })
                .collect(),
            Frame::Full(_) | Frame::Site(..) => entries,
        };
        // only the entries for symbols drawn, each naming those it
        // explains; each symbol once
        let mut explained = BTreeSet::new();
        let entries: Vec<Entry> = entries
            .into_iter()
            .filter_map(|mut e| {
                e.keys
                    .retain(|k| drawn.contains_key(k) && !explained.contains(k));
                explained.extend(e.keys.iter().cloned());
                (!e.keys.is_empty()).then_some(e)
            })
            .collect();
        let locator = |font: f64| {
            cropped.then(|| {
                let w = (window.w * 0.3).min(font * 11.0);
                (w, w * map.h / map.w)
            })
        };
        let (key, png_width) = match frame {
            Frame::Full(_) | Frame::Site(..) => {
                let font = look.type_size;
                let key = Layout::new(window.w, font, &entries, locator(font), caption, 26, 2.2);
                (key, look.full_png_width as f64)
            }
            Frame::Mail(_) => {
                // the legend in a small type of its own, about MAIL_TYPE
                // pixels high in the PNG, in as many columns as fit: the
                // picture's scale follows from the map and that legend,
                // within MAIL_SIDE on its long side and MAIL_AREA in all
                let fit = |h: f64| {
                    (MAIL_SIDE / window.w.max(h))
                        .min((MAIL_AREA / (window.w * h)).sqrt())
                        .min(look.mail_max_scale)
                };
                let mut scale = fit(window.h);
                let mut key = None;
                for _ in 0..3 {
                    let font = MAIL_TYPE / scale;
                    let k = Layout::new(window.w, font, &entries, locator(font), caption, 14, 1.8);
                    scale = fit(window.h + k.height);
                    key = Some(k);
                }
                let key = key.expect("laid out");
                (key, (window.w * scale).round())
            }
        };
        let font = key.font;
        let locator = locator(font);
        let legend_y = window.y + window.h;
        let height = window.h + key.height;
        let mut out = String::with_capacity(body.len() + 8 * 1024);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="herald-board" data-png-width="{pw}" width="{w}" height="{h}" viewBox="{x} {y} {w} {h}" font-family="DejaVu Sans Mono, monospace" font-weight="bold" data-map="{m}" data-legend="{l}" data-focus="{f}">"#,
            pw = png_width,
            w = num(window.w),
            h = num(height),
            x = num(window.x),
            y = num(window.y),
            m = window.attr(),
            l = Rect::new(window.x, legend_y, window.w, key.height).attr(),
            f = focus.attr(),
        );
        out.push('\n');
        let _ = writeln!(out, "<title>{}</title>", esc(title));
        out.push_str("<defs>");
        for d in defs.values() {
            out.push_str(d);
        }
        for (kind, id, colour) in MARKERS {
            if arrows.contains(&kind) {
                let _ = write!(
                    out,
                    r#"<marker id="{id}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>"#
                );
            }
        }
        out.push_str("</defs>\n");
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{PAPER}"/>"#,
            num(window.x),
            num(window.y),
            num(window.w),
            num(height)
        );
        out.push_str(&body.into_body());
        // the legend on paper of its own, over whatever of the map
        // reaches below the part shown
        out.push_str(r#"<g class="legend">"#);
        out.push('\n');
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{PAPER}"/>"#,
            num(window.x),
            num(legend_y),
            num(window.w),
            num(key.height)
        );
        key.draw(&mut out, window.x, legend_y, &entries, &drawn);
        if let (Some((lw, lh)), Some(at)) = (locator, key.locator_at) {
            draw_locator(
                &mut out,
                (window.x + at.0, legend_y + at.1),
                (lw, lh),
                map,
                window,
                &own,
                font,
            );
        }
        out.push_str("</g>\n</svg>\n");
        out
    }
}

/// A legend entry's words without the viewer named "you" (the games say
/// "red (you)", "Orfburg (orfburg, you)").
fn unnamed(text: &str) -> String {
    let text = text.replace(" (you)", "").replace(", you)", ")");
    // "White, you" (and not ", your pieces")
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find(", you") {
        let after = &rest[i + 5..];
        out.push_str(&rest[..i]);
        if after.starts_with(|c: char| c.is_alphanumeric()) {
            out.push_str(", you");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The part of the map a mail picture shows: all of it where it fits at
/// the legible scale; otherwise as much as fits there, placed to hold the
/// most of the player's own pieces (`points`), nearest the middle of
/// `focus` on a tie.
fn mail_window(map: Rect, focus: Rect, points: &[Point], scale: f64, hex: f64) -> Rect {
    let most = MAIL_SIDE / scale;
    // room for a legend under the map
    let (max_w, max_h) = (most, most * 0.78);
    if map.w <= max_w && map.h <= max_h {
        return map;
    }
    let (w, h) = (max_w.min(map.w), max_h.min(map.h));
    let centred = |c: Point| Rect::new(c.0 - w / 2.0, c.1 - h / 2.0, w, h).within(map);
    let mid = (focus.x + focus.w / 2.0, focus.y + focus.h / 2.0);
    if focus.w <= w && focus.h <= h {
        return centred(mid);
    }
    // every placement a hex apart; the one holding the most pieces
    let mut best: Option<(usize, f64, Rect)> = None;
    let steps = |span: f64, size: f64| ((span - size) / hex).ceil().max(0.0) as usize;
    for i in 0..=steps(map.w, w) {
        for j in 0..=steps(map.h, h) {
            let r = Rect::new(i as f64 * hex, j as f64 * hex, w, h).within(map);
            // a piece counts as shown when the whole of it is, not only
            // its centre: a counter cut by the picture's edge is not
            let inner = Rect::new(
                r.x + hex * 0.6,
                r.y + hex * 0.6,
                r.w - hex * 1.2,
                r.h - hex * 1.2,
            );
            let held = points.iter().filter(|p| inner.contains(**p)).count();
            let c = (r.x + w / 2.0, r.y + h / 2.0);
            let off = (c.0 - mid.0).powi(2) + (c.1 - mid.1).powi(2);
            let better = match &best {
                None => true,
                Some((n, d, _)) => held > *n || (held == *n && off < *d - 1e-9),
            };
            if better {
                best = Some((held, off, r));
            }
        }
    }
    best.map(|b| b.2).unwrap_or(map)
}

/// `<use href="#id" x y attrs/>`.
pub fn use_at(id: &str, p: Point, attrs: &str) -> String {
    let mut s = String::with_capacity(48 + attrs.len());
    s.push_str(r##"<use href="#"##);
    s.push_str(id);
    s.push_str(r#"" x=""#);
    push_num(&mut s, p.0);
    s.push_str(r#"" y=""#);
    push_num(&mut s, p.1);
    s.push('"');
    s.push_str(attrs);
    s.push_str("/>");
    s
}

/// An arrow's markup (see [`Board::arrow`]).
pub fn arrow_markup(a: Point, b: Point, kind: ArrowKind, inset: f64, attrs: &str) -> String {
    if kind == ArrowKind::Place || (a.0 - b.0).abs() + (a.1 - b.1).abs() < 0.01 {
        return format!(
            r#"<circle{attrs} cx="{}" cy="{}" r="{}" fill="none" stroke="{INK}" stroke-width="{}" stroke-dasharray="{}"/>"#,
            num(b.0),
            num(b.1),
            num(inset * 1.1),
            num(inset * 0.22),
            num(inset * 0.3)
        );
    }
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    let k = (inset / len).min(0.45);
    let p = (a.0 + dx * k, a.1 + dy * k);
    let q = (b.0 - dx * k, b.1 - dy * k);
    let (colour, head, width) = match kind {
        ArrowKind::Attack => (ATTACK, "head-attack", inset * 0.26),
        _ => (INK, "head-move", inset * 0.2),
    };
    format!(
        r#"<line{attrs} x1="{}" y1="{}" x2="{}" y2="{}" stroke="{colour}" stroke-width="{}" stroke-opacity="0.85" stroke-linecap="round" marker-end="url(#{head})"/>"#,
        num(p.0),
        num(p.1),
        num(q.0),
        num(q.1),
        num(width)
    )
}

/// The legend's layout: a caption, then the entries in columns, each a
/// sample and its words wrapped to the column; a cropped mail picture's
/// locator at the left.
struct Layout {
    font: f64,
    pad: f64,
    swatch: f64,
    cols: usize,
    col_w: f64,
    left: f64,
    caption: Vec<String>,
    lines: Vec<Vec<String>>,
    rows: Vec<f64>,
    height: f64,
    locator_at: Option<Point>,
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

/// DejaVu Sans Mono advances 0.602 em per character.
const ADVANCE: f64 = 0.602;

impl Layout {
    fn new(
        width: f64,
        font: f64,
        entries: &[Entry],
        locator: Option<(f64, f64)>,
        caption: &str,
        min_chars: usize,
        swatch: f64,
    ) -> Layout {
        let pad = font * 0.5;
        // the sample's box, in ems
        let swatch = font * swatch;
        let left = locator.map(|(w, _)| w + 2.0 * pad).unwrap_or(0.0);
        let avail = width - 2.0 * pad - left;
        // a column holds a sample and about `min_chars` characters
        let min_col = swatch + 2.0 * pad + min_chars as f64 * ADVANCE * font;
        let cols = ((avail / min_col).floor() as usize).clamp(1, 4);
        let col_w = avail / cols as f64;
        let chars = (((col_w - swatch - 2.0 * pad) / (ADVANCE * font)).floor() as usize).max(8);
        let lines: Vec<Vec<String>> = entries.iter().map(|e| wrap_words(&e.text, chars)).collect();
        let entry_h = |n: usize| (n as f64 * font * 1.2).max(swatch) + pad;
        // entries run down the columns, so a column reads as a list
        let per_col = entries.len().div_ceil(cols).max(1);
        let mut rows = vec![0.0f64; per_col];
        for (i, l) in lines.iter().enumerate() {
            let r = i % per_col;
            rows[r] = rows[r].max(entry_h(l.len()));
        }
        let cap_chars = ((width - 2.0 * pad) / (ADVANCE * font * 1.1))
            .floor()
            .max(8.0) as usize;
        let caption = wrap_words(caption, cap_chars);
        let cap_h = caption.len() as f64 * font * 1.1 * 1.25;
        let top = pad + cap_h + pad * 0.5;
        let body = rows.iter().sum::<f64>();
        let loc_h = locator.map(|(_, h)| h + font * 2.6).unwrap_or(0.0);
        let height = (top + body.max(loc_h) + pad).ceil();
        Layout {
            font,
            pad,
            swatch,
            cols,
            col_w,
            left,
            caption,
            lines,
            rows,
            height,
            locator_at: locator.map(|_| (pad, top)),
        }
    }

    fn draw(
        &self,
        out: &mut String,
        x0: f64,
        y0: f64,
        entries: &[Entry],
        drawn: &BTreeMap<String, Drawing>,
    ) {
        let f = self.font;
        let _ = writeln!(
            out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{GRID}" stroke-width="{}"/>"#,
            num(x0 + self.pad),
            num(y0 + self.pad * 0.4),
            num(x0 + self.left + self.cols as f64 * self.col_w + self.pad),
            num(y0 + self.pad * 0.4),
            num(f * 0.08)
        );
        let mut y = y0 + self.pad;
        for l in &self.caption {
            let _ = writeln!(
                out,
                r#"<text class="legend-caption" x="{}" y="{}" font-size="{}" fill="{INK}">{}</text>"#,
                num(x0 + self.pad),
                num(y + f * 1.1 * 0.9),
                num(f * 1.1),
                esc(l)
            );
            y += f * 1.1 * 1.25;
        }
        let top = y + self.pad * 0.5;
        let per_col = self.rows.len();
        for (i, e) in entries.iter().enumerate() {
            let (c, r) = (i / per_col, i % per_col);
            let x = x0 + self.pad + self.left + c as f64 * self.col_w;
            let ey = top + self.rows[..r].iter().sum::<f64>();
            let _ = writeln!(
                out,
                r#"<g class="legend-entry" data-explains="{}">"#,
                esc(&e.keys.join(";"))
            );
            let centre = (x + self.swatch / 2.0, ey + self.swatch / 2.0);
            sample(out, centre, self.swatch, e, drawn);
            let tx = x + self.swatch + self.pad;
            let n = self.lines[i].len() as f64;
            let block = n * f * 1.2;
            let start = ey + ((self.swatch - block) / 2.0).max(0.0);
            for (j, l) in self.lines[i].iter().enumerate() {
                let ly = start + f * 0.6 + j as f64 * f * 1.2;
                let _ = writeln!(
                    out,
                    r#"<text class="legend-text" x="{}" y="{}" font-size="{}" fill="{INK}">{}</text>"#,
                    num(tx),
                    num(ly + f * 0.36),
                    num(f),
                    esc(l)
                );
            }
            out.push_str("</g>\n");
        }
    }
}

/// An entry's sample, centred on `c` in a box `size` wide.
fn sample(out: &mut String, c: Point, size: f64, e: &Entry, drawn: &BTreeMap<String, Drawing>) {
    let fit = |out: &mut String, markup: &str, radius: f64| {
        let k = size * 0.5 / radius.max(1e-6);
        let _ = writeln!(
            out,
            r#"<g class="legend-sample" transform="translate({} {}) scale({})">{markup}</g>"#,
            num(c.0),
            num(c.1),
            scale_num(k)
        );
    };
    match &e.sample {
        Sample::Drawn => {
            if let Some(d) = e
                .keys
                .iter()
                .find_map(|k| drawn.get(k).filter(|d| !d.markup.is_empty()))
            {
                fit(out, &d.markup, d.radius);
            }
        }
        Sample::Markup(m, r) => fit(out, m, *r),
        Sample::Chip(colour) => {
            let r = size * 0.3;
            let _ = writeln!(
                out,
                r#"<g class="legend-sample"><rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{colour}" stroke="{INK}" stroke-width="{}"/></g>"#,
                num(c.0 - r),
                num(c.1 - r),
                num(2.0 * r),
                num(2.0 * r),
                num(r * 0.3),
                num(size * 0.04)
            );
        }
        Sample::Arrow(kind) => {
            let inset = size * 0.3;
            let m = if *kind == ArrowKind::Place {
                arrow_markup(c, c, *kind, size * 0.38, "")
            } else {
                let reach = size * 0.45 + inset;
                arrow_markup((c.0 - reach, c.1), (c.0 + reach, c.1), *kind, inset, "")
            };
            let _ = writeln!(out, r#"<g class="legend-sample">{m}</g>"#);
        }
    }
}

/// A scale factor with three decimals (samples shrink large symbols).
fn scale_num(k: f64) -> String {
    let t = (k * 1000.0).round() as i64;
    let s = format!("{}.{:03}", t / 1000, t % 1000);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// The locator: the whole map small, the player's own pieces as dots and
/// the part the picture shows as a frame.
fn draw_locator(
    out: &mut String,
    at: Point,
    (w, h): (f64, f64),
    map: Rect,
    window: Rect,
    own: &[(Point, &'static str)],
    font: f64,
) {
    let k = w / map.w;
    let _ = writeln!(
        out,
        r#"<g class="locator"><rect x="{}" y="{}" width="{}" height="{}" fill="{BOARD}" stroke="{GRID}" stroke-width="{}"/>"#,
        num(at.0),
        num(at.1),
        num(w),
        num(h),
        num(font * 0.08)
    );
    for (p, colour) in own {
        let _ = write!(
            out,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{colour}"/>"#,
            num(at.0 + (p.0 - map.x) * k),
            num(at.1 + (p.1 - map.y) * k),
            num(font * 0.22)
        );
    }
    let _ = writeln!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{INK}" stroke-width="{}"/>"#,
        num(at.0 + (window.x - map.x) * k),
        num(at.1 + (window.y - map.y) * k),
        num(window.w * k),
        num(window.h * k),
        num(font * 0.16)
    );
    // two short lines, within the locator's width (11 ems at most)
    for (i, words) in ["the whole map;", "dots are yours"].iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text class="legend-text" x="{}" y="{}" font-size="{}" fill="{INK}">{}</text>"#,
            num(at.0),
            num(at.1 + h + font * (1.1 + i as f64)),
            num(font * 0.85),
            words
        );
    }
    out.push_str("</g>\n");
}

// ---------------------------------------------------------------------------
// Markup around the origin, for symbols and pieces.

/// The corners of a hex of radius `size` around the origin, as polygon
/// points (flat-topped or pointy-topped).
pub fn hex_points(flat: bool, size: f64) -> String {
    let g = super::svg::HexGrid {
        size,
        flat,
        ox: 0.0,
        oy: 0.0,
    };
    let mut s = String::new();
    for (i, (x, y)) in g.corners_at((0.0, 0.0), size).iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        push_num(&mut s, *x);
        s.push(',');
        push_num(&mut s, *y);
    }
    s
}

/// `<circle>` markup.
pub fn circle(c: Point, r: f64, fill: &str, stroke: &str, width: f64, extra: &str) -> String {
    let mut s = String::from("<circle");
    for (n, v) in [("cx", c.0), ("cy", c.1), ("r", r)] {
        if v != 0.0 || n == "r" {
            let _ = write!(s, r#" {n}="{}""#, num(v));
        }
    }
    if !fill.is_empty() {
        let _ = write!(s, r#" fill="{fill}""#);
    }
    if !stroke.is_empty() {
        let _ = write!(s, r#" stroke="{stroke}" stroke-width="{}""#, num(width));
    }
    s.push_str(extra);
    s.push_str("/>");
    s
}

/// Text centred (horizontally, and roughly vertically) on `at`.
pub fn text(at: Point, size: f64, fill: &str, s: &str) -> String {
    let mut out = String::from("<text");
    if at.0 != 0.0 {
        let _ = write!(out, r#" x="{}""#, num(at.0));
    }
    let _ = write!(
        out,
        r#" y="{}" font-size="{}" fill="{fill}" text-anchor="middle">"#,
        num(at.1 + size * 0.36),
        num(size)
    );
    super::svg::push_esc(&mut out, s);
    out.push_str("</text>");
    out
}

/// `<use href="#id">` at the origin, with `attrs`.
pub fn use_here(id: &str, attrs: &str) -> String {
    format!(r##"<use href="#{id}"{attrs}/>"##)
}

/// `<line>` markup.
pub fn line(a: Point, b: Point, stroke: &str, width: f64, extra: &str) -> String {
    format!(
        r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="{}"{extra}/>"#,
        num(a.0),
        num(a.1),
        num(b.0),
        num(b.1),
        num(width)
    )
}

/// Drawing a hexagon board's labels onto a [`Board`] lives here, beside
/// the Board, so that svg (the geometry) does not import picture.
impl super::svg::HexagonBoard {
    /// File letters above and below each column, rank numbers beside the
    /// westernmost and easternmost hexes, in the board's type.
    pub fn labels(&self, b: &mut Board, radius: i32) {
        let labels = super::HexagonLabels { radius };
        let g = &self.grid;
        let s = g.size;
        let type_size = b.look.type_size;
        let mut out = String::new();
        let mut put = |b: &Board, (x, y): Point, t: &str| {
            if b.shows((x, y), s) {
                out.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\">{}</text>\n",
                    num(x),
                    num(y + type_size * 0.36),
                    esc(t)
                ));
            }
        };
        for q in -radius..=radius {
            let top = Hex::new(q, (-radius).max(-radius - q));
            let bottom = Hex::new(q, radius.min(radius - q));
            let f = labels.file_letter(q).to_string();
            let (x, y) = g.centre(top);
            put(b, (x, y - s * 1.25), &f);
            let (x, y) = g.centre(bottom);
            put(b, (x, y + s * 1.25), &f);
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
                put(b, (x + dx, y), &l[1..]);
            }
        }
        let svg = b.svg();
        svg.raw(&format!(
            r#"<g class="labels" font-size="{}" fill="{INK}" text-anchor="middle">"#,
            num(type_size)
        ));
        svg.raw(out.trim_end());
        svg.end();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_archive_names_no_one_you() {
        assert_eq!(super::unnamed("red (you)"), "red");
        assert_eq!(
            super::unnamed("Orfburg (orfburg, you); lost C1"),
            "Orfburg (orfburg); lost C1"
        );
        assert_eq!(super::unnamed("White, you"), "White");
        assert_eq!(
            super::unnamed("a force of yours, your own"),
            "a force of yours, your own"
        );
    }
}
