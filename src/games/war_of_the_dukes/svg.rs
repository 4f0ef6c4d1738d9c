//! The War of the Dukes map as a picture: the whole printed map from the
//! ruleset (flat-topped hexes, `CCRR` on every hex and the column and row
//! numbers on the edges), terrain, roads, rivers and bridges on the
//! hexsides, the causeways across lakes, the border between the two
//! territories and the between-rivers area as dashed lines, the named
//! places labelled; then, from the view
//! alone, every piece on the map as a counter in its side's colour with its
//! kind and number (the Duke a gold counter), and the last phase's moves,
//! attacks, retreats and advances as arrows. While deploying, the view holds
//! no piece of either side (the state has none on the map), so neither
//! deployment can show early.
//!
//! The map is large: the whole map's PNG (`--full`) is [`PNG_WIDTH`]
//! pixels wide, so that counters and labels stay legible; the mail's
//! picture is the part around the player's own units, with a locator of
//! the whole map (`board::picture`). Each terrain, counter and the Duke is
//! one `<symbol>`; roads, rivers, bridges, causeways and the lines of the
//! areas are one path each.

use super::map::{Hexside, Label, Terrain};
use super::ruleset::Ruleset;
use super::units::{Kind, Side};
use super::view::View;
use super::WarOfTheDukes;
use crate::board::picture::{hex_points, text, use_here, Board, Entry, Frame, Look, Rect, Sample};
use crate::board::svg::{self, ArrowKind, HexGrid, Point, Svg, BOARD, GRID, INK};
use crate::games::Draw;

const SIZE: f64 = 22.0;
/// The PNG's width for this map (see games/war-of-the-dukes.md).
pub const PNG_WIDTH: u32 = 1800;

const FOREST: &str = "#a3bf86";
const CITY: &str = "#d7b48c";
const CLIFF: &str = "#a8957a";
const LAKE: &str = "#8fb8de";
const FORTRESS: &str = "#bdb3aa";
const DUKE: &str = "#e0b43c";

fn side_colour(side: &str) -> &'static str {
    if side == Side::Orfburg.name() {
        svg::seat_colour(Side::Orfburg.seat())
    } else {
        svg::seat_colour(Side::Wulfenburg.seat())
    }
}

fn mid(a: Point, b: Point) -> Point {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// The two corners of a flat-topped hex's side towards axial direction `d`
/// (N, NE, SE, S, SW, NW, as `map::Cell::sides` lists them).
fn edge(corners: &[Point; 6], d: usize) -> (Point, Point) {
    (corners[(d + 4) % 6], corners[(d + 5) % 6])
}

/// The mark a terrain draws inside its hex (forest trees, city houses, a
/// fortress, cliffs), on a hex of `size` centred on `p`.
fn terrain_mark(s: &mut Svg, p: Point, size: f64, t: Terrain) {
    match t {
        Terrain::Forest => {
            for (dx, dy) in [(-0.35, 0.2), (0.35, 0.2), (0.0, 0.45)] {
                s.circle(
                    (p.0 + size * dx, p.1 + size * dy),
                    size * 0.16,
                    "#6f9455",
                    "none",
                    0.0,
                    "",
                );
            }
        }
        Terrain::City => {
            s.rect(
                p.0 - size * 0.3,
                p.1 + size * 0.1,
                size * 0.6,
                size * 0.35,
                "#9c6b45",
                "none",
                "",
            );
        }
        Terrain::Fortress => {
            let g = HexGrid::flat(size, 0.0, 0.0);
            s.polygon(
                &g.corners_at((p.0, p.1 + size * 0.2), size * 0.35),
                "#7a6e66",
                INK,
                size * 0.8 / 22.0,
                "",
            );
        }
        Terrain::Cliff => {
            for dx in [-0.3, 0.3] {
                let x = p.0 + size * dx;
                s.polygon(
                    &[
                        (x - size * 0.2, p.1 + size * 0.45),
                        (x, p.1 + size * 0.1),
                        (x + size * 0.2, p.1 + size * 0.45),
                    ],
                    "#7d6a52",
                    "none",
                    0.0,
                    "",
                );
            }
        }
        _ => {}
    }
}

fn terrain_fill(t: Terrain) -> (&'static str, &'static str) {
    match t {
        Terrain::Plains => (BOARD, "hex"),
        Terrain::Forest => (FOREST, "hex forest"),
        Terrain::City => (CITY, "hex city"),
        Terrain::Cliff => (CLIFF, "hex cliff"),
        Terrain::Lake => (LAKE, "hex lake"),
        Terrain::Fortress => (FORTRESS, "hex fortress"),
    }
}

const LOOK: Look = Look {
    type_size: SIZE * 0.5,
    // the part of the map a mail shows: what fits at 1.5 (counters'
    // numbers about 12 pixels high when the picture is zoomed to 1.4 times)
    mail_scale: 1.5,
    // drawn at 1.1 pixels a unit (the part 792 pixels wide): a report
    // mail with its PNG stays under 300 KB (docs/performance.md)
    mail_max_scale: 1.1,
    full_png_width: PNG_WIDTH,
};

const TERRAINS: [Terrain; 6] = [
    Terrain::Plains,
    Terrain::Forest,
    Terrain::City,
    Terrain::Fortress,
    Terrain::Cliff,
    Terrain::Lake,
];

/// The symbol of a terrain's hex.
fn terrain_id(t: Terrain) -> &'static str {
    match t {
        Terrain::Plains => "p",
        Terrain::Forest => "f",
        Terrain::City => "c",
        Terrain::Cliff => "k",
        Terrain::Lake => "l",
        Terrain::Fortress => "o",
    }
}

/// A unit's counter (half width `r`): square, in the colour of its `<use>`.
fn counter_symbol(r: f64) -> String {
    format!(
        r#"<rect x="{}" y="{}" width="{}" height="{}" rx="2" stroke="{INK}" stroke-width="{}"/>"#,
        svg::num(-r),
        svg::num(-r),
        svg::num(2.0 * r),
        svg::num(2.0 * r),
        svg::num((r * 0.1).max(1.2))
    )
}

/// The Duke's counter (half width `r`): gold, edged in the colour of its
/// `<use>`'s stroke.
fn duke_symbol(r: f64) -> String {
    format!(
        r#"<rect x="{}" y="{}" width="{}" height="{}" rx="2" fill="{DUKE}" stroke-width="{}"/>{}"#,
        svg::num(-r),
        svg::num(-r),
        svg::num(2.0 * r),
        svg::num(2.0 * r),
        svg::num(r * 0.3),
        text((0.0, 0.0), r * 1.1, INK, "D")
    )
}

/// The half widths of a counter alone on its hex and of a unit and the
/// Duke sharing one.
const ALONE: f64 = SIZE * 0.56;
const SHARED: f64 = SIZE * 0.48;
const DUKE_SHARED: f64 = SIZE * 0.36;

/// The symbols. In the mail's picture a hex is filled without
/// anti-aliasing (`crispEdges`): hexes tile the map and their grid line
/// covers every seam, and blending the edges of some 200 hexes was a
/// sixth of the time the picture took and most of its blended colours
/// (docs/performance.md, "War of the Dukes' mail picture within 50 ms").
/// The page and the whole board keep smooth edges.
fn define(b: &mut Board, frame: Frame) {
    let hex = hex_points(true, SIZE);
    let crisp = if matches!(frame, Frame::Mail(_)) {
        r#" shape-rendering="crispEdges""#
    } else {
        ""
    };
    for t in TERRAINS {
        let (fill, _) = terrain_fill(t);
        let mut mark = Svg::fragment();
        terrain_mark(&mut mark, (0.0, 0.0), SIZE, t);
        b.define(
            terrain_id(t),
            &format!(
                r#"<polygon points="{hex}" fill="{fill}" stroke="{GRID}" stroke-width="0.6"{crisp}/>{}"#,
                mark.into_body().replace('\n', "")
            ),
        );
    }
    b.define("u", &counter_symbol(ALONE));
    b.define("us", &counter_symbol(SHARED));
    b.define("d", &duke_symbol(ALONE));
    b.define("ds", &duke_symbol(DUKE_SHARED));
}

/// The type of a counter's two lines: the smallest text the map draws,
/// so that a page opened where it reads (11 CSS px) shows a hex about
/// 50 px across, a thumb's width (issue 49).
const COUNTER_TYPE: f64 = SIZE * 0.4;

/// A line of `s` in at most `type_size`, narrower where it would not fit
/// `width` (DejaVu Sans Mono: 0.602 em a character).
fn fitted(s: &str, type_size: f64, width: f64) -> f64 {
    let n = s.chars().count().max(1) as f64;
    type_size.min(width / (n * 0.602))
}

/// A unit's drawing around the origin: its counter, name and values.
fn unit(id: &str, r: f64, off: Point, colour: &str, name: &str, values: &str) -> String {
    let at = if off == (0.0, 0.0) {
        String::new()
    } else {
        format!(r#" x="{}" y="{}""#, svg::num(off.0), svg::num(off.1))
    };
    let room = 2.0 * r - 2.0;
    format!(
        "{}{}{}",
        use_here(id, &format!(r#"{at} fill="{colour}""#)),
        text(
            (off.0, off.1 - r * 0.36),
            fitted(name, COUNTER_TYPE, room),
            "#fff",
            name
        ),
        text(
            (off.0, off.1 + r * 0.44),
            fitted(values, COUNTER_TYPE, room),
            "#fff",
            values
        )
    )
}

/// The Duke's drawing around the origin.
fn duke(id: &str, off: Point, colour: &str) -> String {
    let at = if off == (0.0, 0.0) {
        String::new()
    } else {
        format!(r#" x="{}" y="{}""#, svg::num(off.0), svg::num(off.1))
    };
    use_here(id, &format!(r#"{at} stroke="{colour}""#))
}

/// Every entry the legend may have: the sides, the unit kinds with their
/// values, the Duke, each terrain with what it does, the hexsides, the
/// lines and the arrows; it keeps those for symbols drawn.
///
/// Long (about 180 lines): one list of legend entries, one a symbol, each a few
/// lines of text.
fn legend(rules: &Ruleset, v: &View) -> Vec<Entry> {
    let mut e = Vec::new();
    for side in [Side::Orfburg, Side::Wulfenburg] {
        let mut t = side.name().to_string();
        let mut brief = side.name().to_string();
        if side.name() == v.side {
            t.push_str(&format!(" ({}, you)", v.you));
            brief.push_str(" (you)");
        }
        if let Some(lost) = v
            .eliminated
            .iter()
            .find(|e| e.starts_with(&format!("{}:", side.name())))
        {
            let lost = format!("; lost {}", &lost[side.name().len() + 1..].trim());
            t.push_str(&lost);
            brief.push_str(&lost);
        }
        e.push(
            Entry::new(
                &[&format!("owner:{}", side.name())],
                t,
                Sample::Chip(svg::seat_colour(side.seat())),
            )
            .brief(brief),
        );
    }
    for (kind, name) in [
        (Kind::Infantry, "infantry"),
        (Kind::Cavalry, "cavalry"),
        (Kind::Artillery, "artillery"),
    ] {
        let st = rules.stats(kind);
        let extra = if st.range >= 2 {
            format!(", fires {} hexes", st.range)
        } else {
            String::new()
        };
        // One strength per counter (ruleset 2), two for games begun on
        // ruleset 1, as the counters on the map show them.
        let meaning = if st.attack == st.defence {
            format!(
                "strength {} (attack and defence), movement {}",
                st.defence, st.movement
            )
        } else {
            format!(
                "attack {}, defence {}, movement {}",
                st.attack, st.defence, st.movement
            )
        };
        let brief = if st.attack == st.defence {
            format!("{name} {}-{}", st.defence, st.movement)
        } else {
            format!("{name} {}-{}-{}", st.attack, st.defence, st.movement)
        };
        e.push(
            Entry::new(
                &[&format!("piece:{name}")],
                format!("{name}: its name, then {}: {meaning}{extra}", v.counter_key),
                Sample::Drawn,
            )
            .brief(format!("{brief}{extra}")),
        );
    }
    e.push(
        Entry::new(
            &["piece:duke"],
            format!(
                "D: the Duke (gold); doubles his units within {} hexes; small in a corner when he shares a hex",
                rules.duke_aura
            ),
            Sample::Drawn,
        )
        .brief(format!("the Duke: doubles within {}", rules.duke_aura)),
    );
    for t in TERRAINS {
        let r = rules.terrain(t);
        let mut what = vec![];
        if r.cost == 0 {
            what.push("impassable".to_string());
        } else {
            what.push(format!("costs {} MP", super::movement::mp(r.cost)));
        }
        if r.defence > 1 {
            what.push(format!("defence ×{}", r.defence));
        }
        let brief = format!("{} {}", t.name(), what.join(", "))
            .replace("costs ", "")
            .replace("defence ", "def ");
        if r.stack {
            what.push("holds a unit and the Duke".to_string());
        }
        let (_, class) = terrain_fill(t);
        e.push(
            Entry::new(
                &[class],
                format!("{}: {}", t.name(), what.join(", ")),
                Sample::Drawn,
            )
            .brief(brief),
        );
    }
    e.push(
        Entry::new(
            &["river"],
            "blue line: a river; crossed only at a bridge",
            Sample::Drawn,
        )
        .brief("river (cross at a bridge)"),
    );
    e.push(
        Entry::new(
            &["bridge"],
            format!(
                "brown bar: a bridge ({} MP)",
                super::movement::mp(rules.bridge)
            ),
            Sample::Drawn,
        )
        .brief(format!("bridge {} MP", super::movement::mp(rules.bridge))),
    );
    e.push(
        Entry::new(
            &["road"],
            format!(
                "brown line: a road ({} MP a hex along it)",
                super::movement::mp(rules.road)
            ),
            Sample::Drawn,
        )
        .brief(format!("road {} MP a hex", super::movement::mp(rules.road))),
    );
    e.push(Entry::new(
        &["causeway"],
        "pale band across a lake: a causeway; the lake is entered and crossed only by its bridges",
        Sample::Drawn,
    ).brief("causeway (by its bridges)"));
    e.push(
        Entry::new(
            &["border"],
            "purple dashes: the border between the duchies",
            Sample::Drawn,
        )
        .brief("border"),
    );
    e.push(
        Entry::new(
            &["between-rivers"],
            "green dots: edge of the land between the rivers",
            Sample::Drawn,
        )
        .brief("between the rivers"),
    );
    e.push(
        Entry::new(
            &["place"],
            "a named place (Kaiserburg, the capitals…)",
            Sample::Drawn,
        )
        .brief("a named place"),
    );
    e.push(
        Entry::new(
            &["arrow move"],
            "a move, retreat or advance (last phase)",
            Sample::Arrow(ArrowKind::Move),
        )
        .brief("a move (last phase)"),
    );
    e.push(
        Entry::new(
            &["arrow attack"],
            "an attack (last phase)",
            Sample::Arrow(ArrowKind::Attack),
        )
        .brief("an attack (last phase)"),
    );
    e
}

/// The mail's rulers: the number of each column shown along the top of
/// the part drawn, and of each row down its left side (at the hexes of the
/// first whole column), haloed over the map, each where it lies on no
/// counter (a number that would is left out: the counters are what the
/// picture is for). A hex's number is its column's two digits, then its
/// row's.
fn rulers(b: &mut Board, map: &super::map::Map, grid: &HexGrid, counters: &[Rect]) {
    let w = b.window();
    let mut out = String::new();
    let mut put = |x: f64, y: f64, t: String| {
        let r = Rect::new(x - SIZE * 0.65, y - SIZE * 0.3, SIZE * 1.3, SIZE * 0.6);
        if counters.iter().any(|c| c.meets(&r)) {
            return;
        }
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{t}</text>\n",
            svg::num(x),
            svg::num(y + SIZE * 0.5 * 0.36)
        ));
    };
    let inside = |x: f64, lo: f64, hi: f64| x >= lo && x <= hi;
    let mut first = None;
    for col in 0..map.columns {
        let (x, _) = grid.centre(Label { col, row: 0 }.hex());
        if inside(x, w.x + SIZE * 0.8, w.x + w.w - SIZE * 0.5) {
            first.get_or_insert(col);
            put(x, w.y + SIZE * 0.4, format!("{:02}", col + 1));
        }
    }
    if let Some(col) = first {
        for row in 0..map.rows {
            let (_, y) = grid.centre(Label { col, row }.hex());
            if inside(y, w.y + SIZE * 1.2, w.y + w.h - SIZE * 0.4) {
                put(w.x + SIZE * 0.45, y, format!("{:02}", row + 1));
            }
        }
    }
    if !out.is_empty() {
        b.svg().raw(&format!(
            r##"<g class="labels" font-size="{}" fill="{INK}" text-anchor="middle" stroke="#fbfaf5" stroke-width="3" paint-order="stroke">"##,
            svg::num(SIZE * 0.5)
        ));
        b.svg().raw(out.trim_end());
        b.svg().end();
    }
}

/// A path of segments, each from `a` to `b` (absolute move, relative line).
#[derive(Default)]
struct Segments(String);

impl Segments {
    fn add(&mut self, a: Point, b: Point) {
        let s = &mut self.0;
        s.push('M');
        svg::push_num(s, a.0);
        s.push(' ');
        svg::push_num(s, a.1);
        s.push('l');
        svg::push_num(s, b.0 - a.0);
        s.push(' ');
        svg::push_num(s, b.1 - a.1);
    }

    /// The path with these attributes, recorded as symbol `class` (its
    /// legend sample: `sample`, around the origin); nothing if empty.
    fn put(self, b: &mut Board, class: &str, attrs: &str, sample: String) {
        if self.0.is_empty() {
            return;
        }
        b.svg().raw(&format!(
            r#"<path class="{class}" d="{}" fill="none"{attrs}/>"#,
            self.0
        ));
        b.mark(class, || sample, SIZE * 0.5);
    }
}

/// A short path across the origin with these attributes (a line's sample).
fn across(class: &str, attrs: &str, vertical: bool) -> String {
    let d = if vertical {
        format!("M0 {}l0 {}", svg::num(-SIZE * 0.5), svg::num(SIZE))
    } else {
        format!("M{} 0l{} 0", svg::num(-SIZE * 0.5), svg::num(SIZE))
    };
    format!(r#"<path class="{class}" d="{d}" fill="none"{attrs}/>"#)
}

const ROAD_LINE: &str = r##" stroke="#8a6a3a" stroke-width="2.2" stroke-linecap="round""##;
const RIVER_LINE: &str = r##" stroke="#2f6fb5" stroke-width="3.5" stroke-linecap="round""##;
const BRIDGE_LINE: &str = r##" stroke="#5b3a1a" stroke-width="5""##;
const CAUSEWAY_EDGE_LINE: &str = r##" stroke="#7d6b4a" stroke-width="10" stroke-linecap="round""##;
const CAUSEWAY_LINE: &str = r##" stroke="#e3d6b0" stroke-width="7" stroke-linecap="round""##;
const BORDER_LINE: &str =
    r##" stroke="#6a3d7a" stroke-width="2" stroke-dasharray="5 3" stroke-opacity="0.7""##;
const BETWEEN_LINE: &str =
    r##" stroke="#1f7a6a" stroke-width="1.6" stroke-dasharray="2 3" stroke-opacity="0.8""##;

/// Long (about 335 lines): one drawing, its layers in painting order.
pub fn svg_board(rules: &Ruleset, v: &View, frame: Frame) -> String {
    let map = &rules.map;
    let sq3 = 3f64.sqrt();
    let margin = SIZE * 1.8;
    let cols = map.columns as f64;
    let rows = map.rows as f64;
    let width = (2.0 * margin + SIZE * (1.5 * (cols - 1.0) + 2.0)).round();
    let board_h = (2.0 * margin + SIZE * sq3 * (rows + 0.5)).round();
    // label 0101 (axial 0,0) sits one hex in from the margin
    let grid = HexGrid::flat(SIZE, margin + SIZE, margin + SIZE * sq3 / 2.0);
    let centre = |l: &str| Label::parse(l).map(|l| grid.centre(l.hex()));
    let own = v
        .units
        .iter()
        .filter(|u| u.yours)
        .filter_map(|u| centre(&u.at).map(|p| (p, side_colour(&u.side))))
        .collect();
    // deploying: the player's deployment area (the view's focus)
    let area: Vec<Point> = v.focus.iter().filter_map(|l| centre(l)).collect();
    let mut b = Board::new(
        frame,
        LOOK,
        width,
        board_h,
        own,
        Rect::around(&area, SIZE * 1.6),
        SIZE,
    );
    define(&mut b, frame);
    let shows = |b: &Board, c: &super::map::Cell| b.shows(grid.centre(c.hex), SIZE * 1.2);

    b.svg().group("hexes", "");
    for t in TERRAINS {
        let (_, class) = terrain_fill(t);
        let id = terrain_id(t);
        let cells: Vec<&super::map::Cell> = map
            .cells
            .iter()
            .filter(|c| c.terrain == t && shows(&b, c))
            .collect();
        if cells.is_empty() {
            continue;
        }
        b.svg().group(class, "");
        for c in cells {
            b.place(
                id,
                grid.centre(c.hex),
                &format!(r#" data-hex="{}""#, c.label),
            );
        }
        b.svg().end();
        b.mark(class, || use_here(id, ""), SIZE);
    }
    b.svg().end();

    // causeways: in a lake hex its bridges cross (games/war-of-the-dukes.md),
    // a pale embankment from each bridge to the middle of the hex, under
    // the road drawn next, so that the road reads as carried across water
    let mut causeways = Segments::default();
    let mut roads = Segments::default();
    let mut rivers = Segments::default();
    let mut bridges = Segments::default();
    let mut border = Segments::default();
    let mut between = Segments::default();
    for (i, c) in map.cells.iter().enumerate() {
        if !shows(&b, c) {
            continue;
        }
        let p = grid.centre(c.hex);
        let corners = grid.corners(c.hex);
        let causeway = rules.terrain(c.terrain).causeway;
        for d in 0..6 {
            let (a, z) = edge(&corners, d);
            let bridged = matches!(c.sides[d], Hexside::Bridge | Hexside::BridgeWithRoad);
            if causeway && c.nbr[d].is_some() && bridged {
                causeways.add(p, mid(a, z));
            }
            if matches!(c.sides[d], Hexside::Road | Hexside::BridgeWithRoad) {
                roads.add(p, mid(a, z));
            }
            // each side once, from the cell with the smaller index
            if c.nbr[d].is_some_and(|n| (n as usize) < i) {
                continue;
            }
            if matches!(c.sides[d], Hexside::River) || bridged {
                rivers.add(a, z);
            }
            if bridged {
                // a plank across the river, along the way between the hexes
                let m = mid(a, z);
                let (dx, dy) = (m.0 - p.0, m.1 - p.1);
                bridges.add(
                    (m.0 - dx * 0.45, m.1 - dy * 0.45),
                    (m.0 + dx * 0.45, m.1 + dy * 0.45),
                );
            }
            let Some(n) = c.nbr[d] else {
                continue;
            };
            let o = map.cell(n);
            if o.owner != c.owner && c.owner.is_some() && o.owner.is_some() {
                border.add(a, z);
            }
            if o.between_rivers != c.between_rivers {
                between.add(a, z);
            }
        }
    }
    let lake = use_here(terrain_id(Terrain::Lake), r#" class="hex lake""#);
    let causeway_sample = format!(
        "{lake}{}{}{}",
        across("causeway", CAUSEWAY_EDGE_LINE, false),
        across("causeway", CAUSEWAY_LINE, false),
        across("road", ROAD_LINE, false)
    );
    if !causeways.0.is_empty() {
        b.svg().raw(&format!(
            r#"<path class="causeway" d="{}" fill="none"{CAUSEWAY_EDGE_LINE}/>"#,
            causeways.0
        ));
    }
    causeways.put(&mut b, "causeway", CAUSEWAY_LINE, causeway_sample);
    roads.put(&mut b, "road", ROAD_LINE, across("road", ROAD_LINE, false));
    rivers.put(
        &mut b,
        "river",
        RIVER_LINE,
        across("river", RIVER_LINE, true),
    );
    bridges.put(
        &mut b,
        "bridge",
        BRIDGE_LINE,
        format!(
            "{}{}",
            across("river", RIVER_LINE, true),
            across("bridge", BRIDGE_LINE, false)
        ),
    );
    border.put(
        &mut b,
        "border",
        BORDER_LINE,
        across("border", BORDER_LINE, true),
    );
    between.put(
        &mut b,
        "between-rivers",
        BETWEEN_LINE,
        across("between-rivers", BETWEEN_LINE, true),
    );

    // every counter's box: what names and rulers keep off
    let counters: Vec<Rect> = v
        .units
        .iter()
        .filter_map(|u| centre(&u.at))
        .map(|c| Rect::new(c.0 - ALONE, c.1 - ALONE, 2.0 * ALONE, 2.0 * ALONE))
        .collect();
    let mail = matches!(frame, Frame::Mail(_));
    let mut edges = String::new();
    // the map's edge numbers; in the mail's part of the map only those
    // wholly inside it and on no counter (issue 49: a number cut by the
    // picture's edge, or drawn over a counter, was read as another)
    let mut put = |b: &Board, p: Point, t: &str| {
        let r = Rect::new(p.0 - SIZE * 0.65, p.1 - SIZE * 0.3, SIZE * 1.3, SIZE * 0.6);
        let clear = !mail || (b.window().holds(&r) && !counters.iter().any(|c| c.meets(&r)));
        if b.shows(p, SIZE) && clear {
            edges.push_str(&format!(
                "<text x=\"{}\" y=\"{}\">{t}</text>\n",
                svg::num(p.0),
                svg::num(p.1 + SIZE * 0.5 * 0.36)
            ));
        }
    };
    for col in 0..map.columns {
        let top = Label { col, row: 0 }.hex();
        let bottom = Label {
            col,
            row: map.rows - 1,
        }
        .hex();
        let t = format!("{:02}", col + 1);
        let (x, y) = grid.centre(top);
        put(&b, (x, y - SIZE * 1.3), &t);
        let (x, y) = grid.centre(bottom);
        put(&b, (x, y + SIZE * 1.3), &t);
    }
    for row in 0..map.rows {
        let t = format!("{:02}", row + 1);
        let (x, y) = grid.centre(Label { col: 0, row }.hex());
        put(&b, (x - SIZE * 1.4, y), &t);
        let (x, y) = grid.centre(
            Label {
                col: map.columns - 1,
                row,
            }
            .hex(),
        );
        put(&b, (x + SIZE * 1.4, y), &t);
    }
    if !edges.is_empty() {
        b.svg().raw(&format!(
            r#"<g class="labels" font-size="{}" fill="{INK}" text-anchor="middle">"#,
            svg::num(SIZE * 0.5)
        ));
        b.svg().raw(edges.trim_end());
        b.svg().end();
    }

    b.svg().group("pieces", "");
    // the Dukes first: a unit sharing his hex is drawn over him
    let mut units: Vec<&super::view::UnitView> = v.units.iter().collect();
    units.sort_by_key(|u| u.unit != "D");
    for u in units {
        let Some(c) = centre(&u.at) else {
            continue;
        };
        if !b.shows(c, SIZE) {
            continue;
        }
        let stacked = v.units.iter().filter(|o| o.at == u.at).count() > 1;
        let colour = side_colour(&u.side);
        // the Duke: a gold counter edged in its side's colour; beside a
        // unit it shares the hex with, a smaller one in the corner
        // sharing a hex, the Duke peeks out at the top right from under
        // the unit's counter, which is drawn over it: every word whole
        let inner = match (u.unit == "D", stacked) {
            (true, false) => duke("d", (0.0, 0.0), colour),
            (true, true) => duke("ds", (SIZE * 0.46, -SIZE * 0.42), colour),
            (false, false) => unit("u", ALONE, (0.0, 0.0), colour, &u.unit, &u.counter),
            (false, true) => unit(
                "us",
                SHARED,
                (-SIZE * 0.16, SIZE * 0.1),
                colour,
                &u.unit,
                &u.counter,
            ),
        };
        b.piece(
            &format!("piece:{}", u.kind),
            &u.side,
            c,
            SIZE * 0.8,
            u.yours,
            &format!(
                r#" data-hex="{}" data-owner="{}" data-piece="{}" data-kind="{}""#,
                svg::esc(&u.at),
                svg::esc(&u.side),
                svg::esc(&u.unit),
                svg::esc(&u.kind)
            ),
            &inner,
        );
    }
    b.svg().end();

    b.svg().group("arrows", "");
    for a in &v.arrows {
        if let (Some(from), Some(to)) = (centre(&a.from), centre(&a.to)) {
            b.arrow(from, to, a.kind, SIZE * 0.5);
        }
    }
    b.svg().end();

    // over the pieces and arrows, haloed: every hex's number and the
    // places' names. The mail's part of the map numbers its columns along
    // its top and its rows down its left side instead: each hex's number
    // is a few pixels high at the mail's scale, unreadable, and drawing
    // hundreds of them was most of the time the picture took
    // (docs/performance.md, "Boards in the mail").
    if matches!(frame, Frame::Mail(_)) {
        rulers(&mut b, map, &grid, &counters);
    }
    // a hex's number in the top of each hex no unit stands on, in the
    // counters' type (a counter covers its hex's number, as on a printed
    // map; the page names any hex tapped, the report names every unit's)
    let occupied: std::collections::BTreeSet<&str> =
        v.units.iter().map(|u| u.at.as_str()).collect();
    let mut nums = String::new();
    for c in &map.cells {
        if matches!(frame, Frame::Mail(_)) || !shows(&b, c) {
            continue;
        }
        if occupied.contains(c.label.to_string().as_str()) {
            continue;
        }
        let p = grid.centre(c.hex);
        nums.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{}</text>\n",
            svg::num(p.0),
            svg::num(p.1 - SIZE * 0.58 + COUNTER_TYPE * 0.36),
            c.label
        ));
    }
    if !nums.is_empty() {
        b.svg().raw(&format!(
            r##"<g class="hexnum" font-size="{}" fill="{GRID}" text-anchor="middle" stroke="#fbfaf5" stroke-width="1.6" stroke-opacity="0.7" paint-order="stroke">"##,
            svg::num(COUNTER_TYPE)
        ));
        b.svg().raw(nums.trim_end());
        b.svg().end();
    }

    let place_attrs = format!(
        r##" font-size="{}" fill="{INK}" stroke="#fbfaf5" stroke-width="3" paint-order="stroke" text-anchor="middle""##,
        svg::num(SIZE * 0.5)
    );
    let mut places = String::new();
    // the legend's sample: the first name the board writes
    let mut first: Option<&str> = None;
    for p in &map.places {
        if p.cells.is_empty() {
            continue;
        }
        let n = p.cells.len() as f64;
        let (sx, sy) = p.cells.iter().fold((0.0, 0.0), |(x, y), &i| {
            let c = grid.centre(map.cell(i).hex);
            (x + c.0, y + c.1)
        });
        // under the place, or above it, or farther: the first spot where
        // the name lies on no counter (and, in the mail's part of the map,
        // wholly inside it); none such, the mail leaves the name out
        let half = p.name.chars().count() as f64 * 0.602 * SIZE * 0.5 / 2.0 + 2.0;
        let clear = |at: Point| {
            let r = Rect::new(at.0 - half, at.1 - SIZE * 0.3, 2.0 * half, SIZE * 0.6);
            !counters.iter().any(|c| c.meets(&r))
                && (!matches!(frame, Frame::Mail(_)) || b.window().holds(&r))
        };
        let spots = [0.95, -0.95, 1.9, -1.9].map(|k| (sx / n, sy / n + SIZE * k));
        let at = match spots.iter().find(|s| clear(**s)) {
            Some(s) => *s,
            None if matches!(frame, Frame::Mail(_)) => continue,
            None => spots[0],
        };
        if !b.shows(at, SIZE * 2.0) {
            continue;
        }
        first.get_or_insert(&p.name);
        places.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{}</text>\n",
            svg::num(at.0),
            svg::num(at.1 + SIZE * 0.5 * 0.36),
            svg::esc(&p.name)
        ));
    }
    if let Some(name) = first {
        b.svg().raw(&format!(r#"<g class="place"{place_attrs}>"#));
        b.svg().raw(places.trim_end());
        b.svg().end();
        // half the name's width in DejaVu Sans Mono (0.602 em a character)
        let half = name.chars().count() as f64 * 0.602 * SIZE * 0.5 / 2.0;
        b.mark(
            "place",
            || {
                format!(
                    r#"<text y="{}"{place_attrs}>{}</text>"#,
                    svg::num(SIZE * 0.18),
                    svg::esc(name)
                )
            },
            half.max(SIZE * 0.9),
        );
    }

    let title = b.titled(
        "War of the Dukes",
        Some(&count(v)),
        "map",
        &format!("{} ({})", v.you, v.side),
    );
    b.finish(&title, &title, legend(rules, v))
}

/// WarOfTheDukes's boards: the text board is drawn beside the view (`view.rs`), the
/// picture here.
impl Draw for WarOfTheDukes {
    fn ascii_board(rules: &Ruleset, v: &View) -> String {
        super::view::ascii_board(rules, v)
    }
    fn svg_board(rules: &Ruleset, v: &View, frame: Frame) -> String {
        svg_board(rules, v, frame)
    }
    fn count(_: &Ruleset, v: &View) -> Option<String> {
        Some(count(v))
    }
}

/// War of the Dukes' own count: the deployment, then each game turn of
/// two phases (Orfburg's, Wulfenburg's).
fn count(v: &View) -> String {
    match v.phase.split_once("'s phase of turn ") {
        Some((side, _)) => format!("game turn {} of {}: {side}'s phase", v.turn, v.turns),
        None => v.phase.clone(),
    }
}
