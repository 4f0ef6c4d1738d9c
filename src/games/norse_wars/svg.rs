//! The Norse Wars board as a picture, from the view alone: the hexagon with
//! its Throne, Shields, the ring lost to sudden death, fogged hexes shaded,
//! every visible piece in its owner's colour (Jarls crowned, with their
//! strength; Warriors numbered), and the moves and pushes the player saw.

use super::ruleset::Ruleset;
use super::view::View;
use super::NorseWars;
use crate::board::svg::{
    self, arrow_entries, disc, hex_swatch, HexagonBoard, Legend, LegendEntry, Point, Svg, BOARD,
    GRID, INK,
};
use crate::board::{Hex, HexagonLabels};
use crate::games::Draw;

const SIZE: f64 = 26.0;
const THRONE: &str = "#d9b44a";
const SHIELD: &str = "#7d7f86";
const GONE: &str = "#a89c80";

/// The seat a marker letter (`A`, `B`, …) stands for.
fn seat_of(marker: &str) -> usize {
    marker
        .bytes()
        .next()
        .map(|b| b.saturating_sub(b'A') as usize)
        .unwrap_or(0)
}

/// A round Shield with a boss, on a hex of `size`.
fn shield(s: &mut Svg, c: Point, size: f64) {
    s.circle(c, size * 0.55, "#5b5e66", "#3a3c42", size * 0.077, "");
    s.circle(c, size * 0.16, "#c9ccd2", "#3a3c42", size * 0.04, "");
}

/// The hatch that makes fog read in grey-scale too.
fn fog_hatch(s: &mut Svg, c: Point, size: f64) {
    s.line(
        (c.0 - size * 0.4, c.1 + size * 0.3),
        (c.0 + size * 0.4, c.1 - size * 0.3),
        "#6f747c",
        size * 0.058,
        "",
    );
}

/// A Jarl: a disc in its owner's colour ringed in gold, with its strength.
fn jarl(s: &mut Svg, c: Point, size: f64, colour: &str, strength: u32) {
    disc(s, c, size * 0.66, colour, "#fff", "", "");
    s.circle(c, size * 0.5, "none", THRONE, size * 0.096, "");
    s.text(c, size * 0.62, "#fff", &format!("J{strength}"));
}

/// A Warrior: a smaller disc with its number.
fn warrior(s: &mut Svg, c: Point, size: f64, colour: &str, number: &str) {
    disc(s, c, size * 0.52, colour, "#fff", number, "");
}

/// The dashed ring round a piece of the viewer's.
fn yours(s: &mut Svg, c: Point, size: f64, attrs: &str) {
    s.circle(
        c,
        size * 0.8,
        "none",
        INK,
        size * 0.077,
        &format!(
            r#"{attrs} stroke-dasharray="{} {}""#,
            svg::num(size * 0.115),
            svg::num(size * 0.077)
        ),
    );
}

/// Every symbol the board may draw in this game, explained.
fn legend<'a>(rules: &'a Ruleset, v: &'a View) -> Vec<LegendEntry<'a>> {
    let strength = rules.pieces.jarl_strength;
    let mut e = Vec::new();
    for p in &v.players {
        let fill = if p.alive {
            svg::seat_colour(p.seat - 1)
        } else {
            GONE
        };
        let mut text = format!("{} {}", p.marker, p.id);
        if p.id == v.you {
            text.push_str(" (you)");
        }
        if !p.alive {
            text.push_str(" (out)");
        }
        e.push(LegendEntry::new(
            &[&format!("owner:{}", p.id)],
            text,
            move |s, c, z| s.circle(c, z * 0.3, fill, INK, 1.0, ""),
        ));
    }
    e.push(LegendEntry::new(
        &["piece:jarl"],
        format!("Jarl, strength {strength}: lose it and you are out"),
        move |s, c, z| jarl(s, c, z / 1.4, svg::seat_colour(0), strength),
    ));
    e.push(LegendEntry::new(
        &["piece:warrior"],
        "Warrior (its number: W3), strength 1",
        |s, c, z| warrior(s, c, z / 1.1, svg::seat_colour(0), "3"),
    ));
    e.push(LegendEntry::new(
        &["yours"],
        "dashed ring: your piece",
        |s, c, z| {
            warrior(s, c, z / 1.7, svg::seat_colour(0), "");
            yours(s, c, z / 1.7, "");
        },
    ));
    e.push(LegendEntry::new(
        &["hex throne"],
        "the Throne: a Jarl that moves onto it wins",
        |s, c, z| hex_swatch(s, c, z, THRONE),
    ));
    e.push(LegendEntry::new(
        &["hex shield"],
        "Shield: no piece enters it",
        |s, c, z| {
            hex_swatch(s, c, z, SHIELD);
            shield(s, c, z * 0.5);
        },
    ));
    e.push(LegendEntry::new(&["hex"], "an open hex", |s, c, z| {
        hex_swatch(s, c, z, BOARD)
    }));
    if v.fog.is_some() {
        e.push(LegendEntry::new(
            &["hex fog"],
            "fog: out of your sight",
            |s, c, z| {
                hex_swatch(s, c, z, svg::FOG);
                fog_hatch(s, c, z * 0.5);
            },
        ));
    }
    if v.sudden_death {
        e.push(LegendEntry::new(
            &["hex gone"],
            "lost to sudden death: off the board",
            |s, c, z| hex_swatch(s, c, z, GONE),
        ));
    }
    e.extend(arrow_entries(
        "a move (last turn)",
        "a push (last turn)",
        None,
    ));
    e
}

pub fn svg_board(rules: &Ruleset, v: &View) -> String {
    let g = v.grid_radius;
    let labels = HexagonLabels { radius: g };
    let board = HexagonBoard::new(g, SIZE);
    let key = Legend::new(board.width, legend(rules, v));
    let title = format!(
        "Norse Wars, round {}: the board as {} sees it",
        v.round, v.you
    );
    let mut s = Svg::new(board.width, board.height + key.height(), &title);
    let grid = board.grid;
    let fogged: Vec<Hex> = v.fogged.iter().filter_map(|l| labels.parse(l)).collect();
    let shields: Vec<Hex> = v.shields.iter().filter_map(|l| labels.parse(l)).collect();

    s.group("hexes", "");
    for h in Hex::spiral_area(g) {
        let l = labels.label(h);
        let (fill, class) = if h.length() > v.radius {
            (GONE, "hex gone")
        } else if fogged.contains(&h) {
            (svg::FOG, "hex fog")
        } else if shields.contains(&h) {
            (SHIELD, "hex shield")
        } else if h == Hex::ORIGIN {
            (THRONE, "hex throne")
        } else {
            (BOARD, "hex")
        };
        s.polygon(
            &grid.corners(h),
            fill,
            GRID,
            1.0,
            &format!(r#" class="{class}" data-hex="{l}""#),
        );
        if shields.contains(&h) && !fogged.contains(&h) {
            shield(&mut s, grid.centre(h), SIZE);
        }
        if fogged.contains(&h) {
            fog_hatch(&mut s, grid.centre(h), SIZE);
        }
    }
    s.end();
    board.labels(&mut s, g);

    s.group("pieces", "");
    for p in &v.pieces {
        let Some(h) = labels.parse(&p.hex) else {
            continue;
        };
        let seat = seat_of(&p.marker);
        let c = grid.centre(h);
        let kind = if p.piece == "J" { "jarl" } else { "warrior" };
        s.group(
            "piece",
            &format!(
                r#" data-hex="{}" data-owner="{}" data-piece="{}" data-kind="{kind}""#,
                svg::esc(&p.hex),
                svg::esc(&p.owner),
                svg::esc(&p.piece)
            ),
        );
        if p.yours {
            yours(&mut s, c, SIZE, r#" class="yours""#);
        }
        let colour = svg::seat_colour(seat);
        if p.piece == "J" {
            jarl(&mut s, c, SIZE, colour, rules.pieces.jarl_strength);
        } else {
            warrior(&mut s, c, SIZE, colour, p.piece.trim_start_matches('W'));
        }
        s.end();
    }
    s.end();

    s.group("arrows", "");
    for a in &v.arrows {
        if let (Some(from), Some(to)) = (labels.parse(&a.from), labels.parse(&a.to)) {
            s.arrow(
                grid.centre(from),
                grid.centre(to),
                a.kind,
                SIZE * 0.55,
                svg::seat_colour(a.seat),
            );
        }
    }
    s.end();

    key.draw(&mut s, board.height);
    s.finish()
}

/// NorseWars's boards: the text board is drawn beside the view (`view.rs`), the
/// picture here.
impl Draw for NorseWars {
    fn ascii_board(_: &Ruleset, v: &View) -> String {
        super::view::ascii_board(v)
    }
    fn svg_board(rules: &Ruleset, v: &View) -> String {
        svg_board(rules, v)
    }
}
