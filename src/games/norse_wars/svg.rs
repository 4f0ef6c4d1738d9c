//! The Norse Wars board as a picture, from the view alone: the hexagon with
//! its Throne, Shields, the ring lost to sudden death, fogged hexes shaded,
//! every visible piece in its owner's colour (Jarls crowned, with their
//! letter, its strength in the legend; Warriors numbered), and the moves and pushes the player saw.
//! Each kind of hex and piece is one `<symbol>`; the legend shows the
//! symbols this board draws, each as the board draws it.

use super::ruleset::Ruleset;
use super::view::View;
use super::NorseWars;
use crate::board::picture::{
    circle, hex_points, line, text, use_here, Board, Entry, Frame, Look, Sample,
};
use crate::board::svg::{self, ArrowKind, HexagonBoard, BOARD, GRID, INK};
use crate::board::{Hex, HexagonLabels};
use crate::games::Draw;

const SIZE: f64 = 26.0;
const THRONE: &str = "#d9b44a";
const SHIELD: &str = "#7d7f86";
const GONE: &str = "#a89c80";

const LOOK: Look = Look {
    type_size: SIZE * 0.66,
    // the whole board always fits a phone's picture
    mail_scale: 0.5,
    mail_max_scale: 2.2,
    full_png_width: svg::PNG_WIDTH,
};

/// The seat a marker letter (`A`, `B`, …) stands for.
fn seat_of(marker: &str) -> usize {
    marker
        .bytes()
        .next()
        .map(|b| b.saturating_sub(b'A') as usize)
        .unwrap_or(0)
}

/// The hexes and pieces, each defined once.
fn define(b: &mut Board) {
    let hex = hex_points(true, SIZE);
    let cell = |fill: &str| {
        format!(r#"<polygon points="{hex}" fill="{fill}" stroke="{GRID}" stroke-width="1"/>"#)
    };
    b.define("h", &cell(BOARD));
    b.define("th", &cell(THRONE));
    b.define("gn", &cell(GONE));
    // a round Shield with a boss
    b.define(
        "sh",
        &format!(
            "{}{}{}",
            cell(SHIELD),
            circle((0.0, 0.0), SIZE * 0.55, "#5b5e66", "#3a3c42", 2.0, ""),
            circle((0.0, 0.0), SIZE * 0.16, "#c9ccd2", "#3a3c42", 1.0, "")
        ),
    );
    // fog, with a stroke so that it reads in grey-scale too
    b.define(
        "fg",
        &format!(
            "{}{}",
            cell(svg::FOG),
            line(
                (-SIZE * 0.4, SIZE * 0.3),
                (SIZE * 0.4, -SIZE * 0.3),
                "#6f747c",
                1.5,
                ""
            )
        ),
    );
    // a Jarl: a disc in its owner's colour (the colour of its `<use>`)
    // ringed in gold, lettered J as the orders name it (its strength is
    // the legend's)
    b.define(
        "j",
        &format!(
            "{}{}{}",
            circle((0.0, 0.0), SIZE * 0.66, "", INK, SIZE * 0.66 * 0.12, ""),
            circle((0.0, 0.0), SIZE * 0.5, "none", THRONE, SIZE * 0.096, ""),
            text((0.0, 0.0), SIZE * 0.7, "#fff", "J")
        ),
    );
    // a Warrior: a smaller disc, its number written over it
    b.define(
        "w",
        &circle((0.0, 0.0), SIZE * 0.52, "", INK, SIZE * 0.52 * 0.12, ""),
    );
    // the dashed ring round a piece of the viewer's
    b.define(
        "yr",
        &circle(
            (0.0, 0.0),
            SIZE * 0.8,
            "none",
            INK,
            SIZE * 0.077,
            &format!(
                r#" stroke-dasharray="{} {}""#,
                svg::num(SIZE * 0.115),
                svg::num(SIZE * 0.077)
            ),
        ),
    );
}

/// Every entry the legend may have; it keeps those for symbols drawn.
fn legend(rules: &Ruleset, v: &View) -> Vec<Entry> {
    let mut e = Vec::new();
    for p in &v.players {
        let mut t = format!("{} {}", p.marker, p.id);
        if p.id == v.you {
            t.push_str(" (you)");
        }
        if !p.alive {
            t.push_str(" (out)");
        }
        e.push(Entry::new(
            &[&format!("owner:{}", p.id)],
            t,
            Sample::Chip(svg::seat_colour(p.seat - 1)),
        ));
    }
    e.push(Entry::new(
        &["piece:jarl"],
        format!(
            "Jarl, strength {}: lose it and you are out",
            rules.pieces.jarl_strength
        ),
        Sample::Drawn,
    ));
    e.push(Entry::new(
        &["piece:warrior"],
        "Warrior and its number, strength 1",
        Sample::Drawn,
    ));
    e.push(Entry::new(
        &["yours"],
        "dashed ring: your piece",
        Sample::Drawn,
    ));
    e.push(Entry::new(
        &["hex throne"],
        "the Throne: a Jarl that moves onto it wins",
        Sample::Drawn,
    ));
    e.push(Entry::new(
        &["hex shield"],
        "Shield: no piece enters it",
        Sample::Drawn,
    ));
    e.push(Entry::new(&["hex"], "an open hex", Sample::Drawn));
    e.push(Entry::new(
        &["hex fog"],
        "fog: out of your sight",
        Sample::Drawn,
    ));
    e.push(Entry::new(
        &["hex gone"],
        "lost to sudden death: off the board",
        Sample::Drawn,
    ));
    e.push(Entry::new(
        &["arrow move"],
        "a move (last turn)",
        Sample::Arrow(ArrowKind::Move),
    ));
    e.push(Entry::new(
        &["arrow attack"],
        "a push (last turn)",
        Sample::Arrow(ArrowKind::Attack),
    ));
    e
}

/// Long (about 120 lines): one drawing, its layers in painting order.
pub fn svg_board(rules: &Ruleset, v: &View, frame: Frame) -> String {
    let g = v.grid_radius;
    let labels = HexagonLabels { radius: g };
    let geo = HexagonBoard::new(g, SIZE);
    let grid = geo.grid;
    let own = v
        .pieces
        .iter()
        .filter(|p| p.yours)
        .filter_map(|p| labels.parse(&p.hex))
        .map(|h| (grid.centre(h), svg::seat_colour(v.seat.saturating_sub(1))))
        .collect();
    let mut b = Board::new(frame, LOOK, geo.width, geo.height, own, None, SIZE);
    define(&mut b);
    let fogged: Vec<Hex> = v.fogged.iter().filter_map(|l| labels.parse(l)).collect();
    let shields: Vec<Hex> = v.shields.iter().filter_map(|l| labels.parse(l)).collect();

    // the hexes, a group for each kind
    let mut kinds: [(&str, &str, Vec<Hex>); 5] = [
        ("hex", "h", vec![]),
        ("hex throne", "th", vec![]),
        ("hex shield", "sh", vec![]),
        ("hex fog", "fg", vec![]),
        ("hex gone", "gn", vec![]),
    ];
    for h in Hex::spiral_area(g) {
        if !b.shows(grid.centre(h), SIZE) {
            continue;
        }
        let k = if h.length() > v.radius {
            4
        } else if fogged.contains(&h) && !b.observer() {
            3
        } else if shields.contains(&h) {
            2
        } else if h == Hex::ORIGIN {
            1
        } else {
            0
        };
        kinds[k].2.push(h);
    }
    b.svg().group("hexes", "");
    for (class, id, hexes) in &kinds {
        if hexes.is_empty() {
            continue;
        }
        b.svg().group(class, "");
        for h in hexes {
            let l = labels.label(*h);
            b.place(id, grid.centre(*h), &format!(r#" data-hex="{l}""#));
        }
        b.svg().end();
        b.mark(class, || use_here(id, ""), SIZE);
    }
    b.svg().end();
    geo.labels(&mut b, g);

    b.svg().group("pieces", "");
    for p in &v.pieces {
        let Some(h) = labels.parse(&p.hex) else {
            continue;
        };
        let c = grid.centre(h);
        if !b.shows(c, SIZE) {
            continue;
        }
        let colour = svg::seat_colour(seat_of(&p.marker));
        let (kind, mut inner) = if p.piece == "J" {
            ("jarl", use_here("j", &format!(r#" fill="{colour}""#)))
        } else {
            let n = p.piece.trim_start_matches('W');
            (
                "warrior",
                format!(
                    "{}{}",
                    use_here("w", &format!(r#" fill="{colour}""#)),
                    text((0.0, 0.0), SIZE * 0.66, "#fff", n)
                ),
            )
        };
        let key = format!("piece:{kind}");
        b.mark(&key, || inner.clone(), SIZE * 0.7);
        // the whole truth is no seat's: no piece is drawn as anyone's own
        if p.yours && !b.observer() {
            let ring = use_here("yr", r#" class="yours""#);
            b.mark("yours", || format!("{ring}{inner}"), SIZE * 0.85);
            inner = format!("{ring}{inner}");
        }
        b.piece(
            &key,
            &p.owner,
            c,
            SIZE * 0.7,
            p.yours,
            &format!(
                r#" data-hex="{}" data-owner="{}" data-piece="{}" data-kind="{kind}""#,
                svg::esc(&p.hex),
                svg::esc(&p.owner),
                svg::esc(&p.piece)
            ),
            &inner,
        );
    }
    b.svg().end();

    b.svg().group("arrows", "");
    for a in &v.arrows {
        if let (Some(from), Some(to)) = (labels.parse(&a.from), labels.parse(&a.to)) {
            b.arrow(grid.centre(from), grid.centre(to), a.kind, SIZE * 0.55);
        }
    }
    b.svg().end();

    let title = b.titled("Norse Wars", Some(&count(v)), "board", &v.you);
    b.finish(&title, &title, legend(rules, v))
}

/// NorseWars's boards: the text board is drawn beside the view (`view.rs`), the
/// picture here.
impl Draw for NorseWars {
    fn ascii_board(_: &Ruleset, v: &View) -> String {
        super::view::ascii_board(v)
    }
    fn svg_board(rules: &Ruleset, v: &View, frame: Frame) -> String {
        svg_board(rules, v, frame)
    }
    fn count(_: &Ruleset, v: &View) -> Option<String> {
        Some(count(v))
    }
}

/// Norse Wars' own count: its rounds.
fn count(v: &View) -> String {
    format!("round {}", v.round)
}
