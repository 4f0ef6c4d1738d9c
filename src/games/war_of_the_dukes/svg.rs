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
//! The map is large: the PNG is [`PNG_WIDTH`] pixels wide, not the
//! framework's default, so that counters and labels stay legible.

use super::map::{Hexside, Label, Terrain};
use super::ruleset::Ruleset;
use super::units::{Kind, Side};
use super::view::View;
use super::WarOfTheDukes;
use crate::board::svg::{
    self, arrow_entries, hex_swatch, HexGrid, Legend, LegendEntry, Point, Svg, BOARD, GRID, INK,
};
use crate::games::Draw;

const SIZE: f64 = 22.0;
/// The PNG's width for this map (see games/war-of-the-dukes.md).
pub const PNG_WIDTH: u32 = 1800;

const FOREST: &str = "#a3bf86";
const CITY: &str = "#d7b48c";
const CLIFF: &str = "#a8957a";
const LAKE: &str = "#8fb8de";
const FORTRESS: &str = "#bdb3aa";
const RIVER: &str = "#2f6fb5";
const ROAD: &str = "#8a6a3a";
const BRIDGE: &str = "#5b3a1a";
const CAUSEWAY: &str = "#e3d6b0";
const CAUSEWAY_EDGE: &str = "#7d6b4a";
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

/// A combat unit's counter (square, its side's colour, its name and
/// attack-defence-movement), `r` its half width.
fn unit_counter(s: &mut Svg, p: Point, r: f64, colour: &str, name: &str, values: &str) {
    s.rect(
        p.0 - r,
        p.1 - r,
        2.0 * r,
        2.0 * r,
        colour,
        INK,
        &format!(r#" stroke-width="{}" rx="2""#, svg::num((r * 0.1).max(1.2))),
    );
    s.text((p.0, p.1 - r * 0.3), r * 0.62, "#fff", name);
    s.text((p.0, p.1 + r * 0.45), r * 0.5, "#fff", values);
}

/// The Duke's counter: gold, edged in his side's colour.
fn duke_counter(s: &mut Svg, p: Point, r: f64, colour: &str) {
    s.rect(
        p.0 - r,
        p.1 - r,
        2.0 * r,
        2.0 * r,
        DUKE,
        colour,
        &format!(r#" stroke-width="{}" rx="2""#, svg::num(r * 0.3)),
    );
    s.text(p, r * 1.1, INK, "D");
}

/// Every symbol the map may show, explained: the sides, the unit kinds with
/// their values, the Duke, each terrain with what it does, the hexsides,
/// the lines and the arrows.
fn legend<'a>(rules: &'a Ruleset, v: &'a View) -> Vec<LegendEntry<'a>> {
    let mut e = Vec::new();
    for side in [Side::Orfburg, Side::Wulfenburg] {
        let mut t = side.name().to_string();
        if side.name() == v.side {
            t.push_str(&format!(" ({}, you)", v.you));
        }
        if let Some(lost) = v
            .eliminated
            .iter()
            .find(|e| e.starts_with(&format!("{}:", side.name())))
        {
            t.push_str(&format!("; lost {}", &lost[side.name().len() + 1..].trim()));
        }
        let colour = svg::seat_colour(side.seat());
        e.push(LegendEntry::new(
            &[&format!("owner:{}", side.name())],
            t,
            move |s, c, z| {
                let r = z * 0.3;
                s.rect(c.0 - r, c.1 - r, 2.0 * r, 2.0 * r, colour, INK, "")
            },
        ));
    }
    let colour = svg::seat_colour(Side::Orfburg.seat());
    for (kind, name, letter) in [
        (Kind::Infantry, "infantry", "I"),
        (Kind::Cavalry, "cavalry", "C"),
        (Kind::Artillery, "artillery", "A"),
    ] {
        let st = rules.stats(kind);
        let extra = if st.range >= 2 {
            format!(", fires {} hexes", st.range)
        } else {
            String::new()
        };
        // One strength per counter (ruleset 2), two for games begun on
        // ruleset 1, as the counters on the map show them.
        let (values, meaning) = if st.attack == st.defence {
            (
                format!("{}-{}", st.defence, st.movement),
                format!(
                    "strength {} (attack and defence), movement {}",
                    st.defence, st.movement
                ),
            )
        } else {
            (
                format!("{}-{}-{}", st.attack, st.defence, st.movement),
                format!(
                    "attack {}, defence {}, movement {}",
                    st.attack, st.defence, st.movement
                ),
            )
        };
        e.push(LegendEntry::new(
            &[&format!("piece:{name}")],
            format!("{letter}3: {name} no. 3; {values}: {meaning}{extra}"),
            move |s, c, z| unit_counter(s, c, z * 0.42, colour, &format!("{letter}3"), &values),
        ));
    }
    e.push(LegendEntry::new(
        &["piece:duke"],
        format!(
            "D: the Duke (gold); doubles his units within {} hexes; small in a corner when he shares a hex",
            rules.duke_aura
        ),
        move |s, c, z| duke_counter(s, c, z * 0.4, colour),
    ));
    for t in [
        Terrain::Plains,
        Terrain::Forest,
        Terrain::City,
        Terrain::Fortress,
        Terrain::Cliff,
        Terrain::Lake,
    ] {
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
        if r.stack {
            what.push("holds a unit and the Duke".to_string());
        }
        let (fill, class) = terrain_fill(t);
        e.push(LegendEntry::new(
            &[class],
            format!("{}: {}", t.name(), what.join(", ")),
            move |s, c, z| {
                hex_swatch(s, c, z, fill);
                terrain_mark(s, c, z * 0.5, t);
            },
        ));
    }
    let across = |s: &mut Svg, c: Point, z: f64, colour: &str, w: f64, extra: &str| {
        s.line(
            (c.0, c.1 - z * 0.45),
            (c.0, c.1 + z * 0.45),
            colour,
            w,
            extra,
        )
    };
    e.push(LegendEntry::new(
        &["river"],
        "blue line: a river; crossed only at a bridge",
        move |s, c, z| across(s, c, z, RIVER, z * 0.1, r#" stroke-linecap="round""#),
    ));
    e.push(LegendEntry::new(
        &["bridge"],
        format!(
            "brown bar: a bridge ({} MP)",
            super::movement::mp(rules.bridge)
        ),
        move |s, c, z| {
            across(s, c, z, RIVER, z * 0.1, r#" stroke-linecap="round""#);
            s.line(
                (c.0 - z * 0.3, c.1),
                (c.0 + z * 0.3, c.1),
                BRIDGE,
                z * 0.15,
                "",
            );
        },
    ));
    e.push(LegendEntry::new(
        &["road"],
        format!(
            "brown line: a road ({} MP a hex along it)",
            super::movement::mp(rules.road)
        ),
        move |s, c, z| {
            s.line(
                (c.0 - z * 0.5, c.1),
                (c.0 + z * 0.5, c.1),
                ROAD,
                z * 0.07,
                r#" stroke-linecap="round""#,
            )
        },
    ));
    e.push(LegendEntry::new(
        &["causeway", "causeways"],
        "pale band across a lake: a causeway; the lake is entered and crossed only by its bridges",
        move |s, c, z| {
            s.rect(c.0 - z * 0.5, c.1 - z * 0.45, z, z * 0.9, LAKE, "none", "");
            s.line(
                (c.0 - z * 0.5, c.1),
                (c.0 + z * 0.5, c.1),
                CAUSEWAY_EDGE,
                z * 0.3,
                "",
            );
            s.line(
                (c.0 - z * 0.5, c.1),
                (c.0 + z * 0.5, c.1),
                CAUSEWAY,
                z * 0.2,
                "",
            );
            s.line(
                (c.0 - z * 0.5, c.1),
                (c.0 + z * 0.5, c.1),
                ROAD,
                z * 0.07,
                "",
            );
        },
    ));
    e.push(LegendEntry::new(
        &["border"],
        "purple dashes: the border between the duchies",
        move |s, c, z| {
            across(
                s,
                c,
                z,
                "#6a3d7a",
                z * 0.07,
                &format!(
                    r#" stroke-dasharray="{} {}""#,
                    svg::num(z * 0.14),
                    svg::num(z * 0.08)
                ),
            )
        },
    ));
    e.push(LegendEntry::new(
        &["between-rivers"],
        "green dots: edge of the land between the rivers",
        move |s, c, z| {
            across(
                s,
                c,
                z,
                "#1f7a6a",
                z * 0.07,
                &format!(
                    r#" stroke-dasharray="{} {}""#,
                    svg::num(z * 0.06),
                    svg::num(z * 0.09)
                ),
            )
        },
    ));
    e.push(LegendEntry::new(
        &["place"],
        "a named place (Kaiserburg, the capitals…)",
        |s, c, z| s.text(c, z * 0.45, INK, "Abc"),
    ));
    e.extend(arrow_entries(
        "a move, retreat or advance (last phase)",
        "an attack (last phase)",
        None,
    ));
    e
}

pub fn svg_board(rules: &Ruleset, v: &View) -> String {
    let map = &rules.map;
    let sq3 = 3f64.sqrt();
    let margin = SIZE * 1.8;
    let cols = map.columns as f64;
    let rows = map.rows as f64;
    let width = (2.0 * margin + SIZE * (1.5 * (cols - 1.0) + 2.0)).round();
    let board_h = (2.0 * margin + SIZE * sq3 * (rows + 0.5)).round();
    let key = Legend::new(width, legend(rules, v));
    let title = format!(
        "War of the Dukes, {}: the map as {} ({}) sees it",
        v.phase, v.you, v.side
    );
    let mut s = Svg::new(width, board_h + key.height(), &title).png_width(PNG_WIDTH);
    // label 0101 (axial 0,0) sits one hex in from the margin
    let grid = HexGrid::flat(SIZE, margin + SIZE, margin + SIZE * sq3 / 2.0);

    s.group("hexes", "");
    for c in &map.cells {
        let (fill, class) = terrain_fill(c.terrain);
        let l = c.label.to_string();
        s.polygon(
            &grid.corners(c.hex),
            fill,
            GRID,
            0.6,
            &format!(r#" class="{class}" data-hex="{l}""#),
        );
        let p = grid.centre(c.hex);
        terrain_mark(&mut s, p, SIZE, c.terrain);
        s.text((p.0, p.1 - SIZE * 0.6), SIZE * 0.26, GRID, &l);
    }
    s.end();

    // causeways: in a lake hex its bridges cross (games/war-of-the-dukes.md),
    // a pale embankment from each bridge to the middle of the hex, under
    // the road drawn next, so that the road reads as carried across water
    s.group("causeways", "");
    for (colour, width, class) in [
        (CAUSEWAY_EDGE, 10.0, ""),
        (CAUSEWAY, 7.0, r#" class="causeway""#),
    ] {
        for c in &map.cells {
            if !rules.terrain(c.terrain).causeway {
                continue;
            }
            let p = grid.centre(c.hex);
            let corners = grid.corners(c.hex);
            for d in 0..6 {
                if c.nbr[d].is_some()
                    && matches!(c.sides[d], Hexside::Bridge | Hexside::BridgeWithRoad)
                {
                    let (a, b) = edge(&corners, d);
                    s.line(
                        p,
                        mid(a, b),
                        colour,
                        width,
                        &format!(r#"{class} stroke-linecap="round""#),
                    );
                }
            }
        }
    }
    s.end();

    // hexsides: roads from centre to centre, rivers along the side, bridges
    // across it; each side drawn once, from the cell with the smaller index
    s.group("roads", "");
    for c in &map.cells {
        let p = grid.centre(c.hex);
        let corners = grid.corners(c.hex);
        for d in 0..6 {
            if matches!(c.sides[d], Hexside::Road | Hexside::BridgeWithRoad) {
                let (a, b) = edge(&corners, d);
                s.line(
                    p,
                    mid(a, b),
                    ROAD,
                    2.2,
                    r#" class="road" stroke-linecap="round""#,
                );
            }
        }
    }
    s.end();
    s.group("rivers", "");
    for (i, c) in map.cells.iter().enumerate() {
        let corners = grid.corners(c.hex);
        for d in 0..6 {
            if c.nbr[d].is_some_and(|n| (n as usize) < i) {
                continue;
            }
            let (a, b) = edge(&corners, d);
            match c.sides[d] {
                Hexside::River => {
                    s.line(a, b, RIVER, 3.5, r#" class="river" stroke-linecap="round""#)
                }
                Hexside::Bridge | Hexside::BridgeWithRoad => {
                    s.line(a, b, RIVER, 3.5, r#" class="river" stroke-linecap="round""#);
                    // a plank across the river, along the way between the
                    // two hexes
                    let m = mid(a, b);
                    let p = grid.centre(c.hex);
                    let (dx, dy) = (m.0 - p.0, m.1 - p.1);
                    let k = 0.45;
                    s.line(
                        (m.0 - dx * k, m.1 - dy * k),
                        (m.0 + dx * k, m.1 + dy * k),
                        BRIDGE,
                        5.0,
                        r#" class="bridge""#,
                    );
                }
                _ => {}
            }
        }
    }
    s.end();

    // the territories' border and the between-rivers area, subtly
    s.group("areas", "");
    for (i, c) in map.cells.iter().enumerate() {
        let corners = grid.corners(c.hex);
        for d in 0..6 {
            let Some(n) = c.nbr[d] else {
                continue;
            };
            if (n as usize) < i {
                continue;
            }
            let o = map.cell(n);
            let (a, b) = edge(&corners, d);
            if o.owner != c.owner && c.owner.is_some() && o.owner.is_some() {
                s.line(
                    a,
                    b,
                    "#6a3d7a",
                    2.0,
                    r#" class="border" stroke-dasharray="5 3" stroke-opacity="0.7""#,
                );
            }
            if o.between_rivers != c.between_rivers {
                s.line(
                    a,
                    b,
                    "#1f7a6a",
                    1.6,
                    r#" class="between-rivers" stroke-dasharray="2 3" stroke-opacity="0.8""#,
                );
            }
        }
    }
    s.end();

    s.group("labels", "");
    for col in 0..map.columns {
        let top = Label { col, row: 0 }.hex();
        let bottom = Label {
            col,
            row: map.rows - 1,
        }
        .hex();
        let t = format!("{:02}", col + 1);
        let (x, y) = grid.centre(top);
        s.text((x, y - SIZE * 1.3), SIZE * 0.5, INK, &t);
        let (x, y) = grid.centre(bottom);
        s.text((x, y + SIZE * 1.3), SIZE * 0.5, INK, &t);
    }
    for row in 0..map.rows {
        let t = format!("{:02}", row + 1);
        let (x, y) = grid.centre(Label { col: 0, row }.hex());
        s.text((x - SIZE * 1.4, y), SIZE * 0.5, INK, &t);
        let (x, y) = grid.centre(
            Label {
                col: map.columns - 1,
                row,
            }
            .hex(),
        );
        s.text((x + SIZE * 1.4, y), SIZE * 0.5, INK, &t);
    }
    for p in &map.places {
        if p.cells.is_empty() {
            continue;
        }
        let n = p.cells.len() as f64;
        let (sx, sy) = p.cells.iter().fold((0.0, 0.0), |(x, y), &i| {
            let c = grid.centre(map.cell(i).hex);
            (x + c.0, y + c.1)
        });
        let at = (sx / n, sy / n + SIZE * 0.95);
        let name = svg::esc(&p.name);
        s.raw(&format!(
            r##"<text class="place" x="{}" y="{}" font-size="{}" fill="{INK}" stroke="#fbfaf5" stroke-width="3" paint-order="stroke" text-anchor="middle">{name}</text>"##,
            svg::num(at.0),
            svg::num(at.1 + SIZE * 0.5 * 0.36),
            svg::num(SIZE * 0.5),
        ));
    }
    s.end();

    s.group("pieces", "");
    let duke = "D";
    for u in &v.units {
        let Some(at) = Label::parse(&u.at) else {
            continue;
        };
        let c = grid.centre(at.hex());
        let stacked = v.units.iter().filter(|o| o.at == u.at).count() > 1;
        let is_duke = u.unit == duke;
        s.group(
            "piece",
            &format!(
                r#" data-hex="{}" data-owner="{}" data-piece="{}" data-kind="{}""#,
                svg::esc(&u.at),
                svg::esc(&u.side),
                svg::esc(&u.unit),
                svg::esc(&u.kind)
            ),
        );
        let colour = side_colour(&u.side);
        if is_duke {
            // the Duke: a gold counter edged in its side's colour; beside a
            // unit it shares the hex with, a smaller one in the corner
            let (p, r) = if stacked {
                ((c.0 + SIZE * 0.42, c.1 - SIZE * 0.38), SIZE * 0.34)
            } else {
                (c, SIZE * 0.56)
            };
            duke_counter(&mut s, p, r, colour);
        } else {
            let (p, r) = if stacked {
                ((c.0 - SIZE * 0.1, c.1 + SIZE * 0.05), SIZE * 0.52)
            } else {
                (c, SIZE * 0.56)
            };
            unit_counter(&mut s, p, r, colour, &u.unit, &u.counter);
        }
        s.end();
    }
    s.end();

    s.group("arrows", "");
    for a in &v.arrows {
        if let (Some(from), Some(to)) = (Label::parse(&a.from), Label::parse(&a.to)) {
            s.arrow(
                grid.centre(from.hex()),
                grid.centre(to.hex()),
                a.kind,
                SIZE * 0.5,
                svg::seat_colour(a.seat),
            );
        }
    }
    s.end();

    key.draw(&mut s, board_h);
    s.finish()
}

/// WarOfTheDukes's boards: the text board is drawn beside the view (`view.rs`), the
/// picture here.
impl Draw for WarOfTheDukes {
    fn ascii_board(rules: &Ruleset, v: &View) -> String {
        super::view::ascii_board(rules, v)
    }
    fn svg_board(rules: &Ruleset, v: &View) -> String {
        svg_board(rules, v)
    }
}
