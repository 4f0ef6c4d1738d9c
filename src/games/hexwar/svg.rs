//! The HEXWAR board as a picture, from the view: the radius-4 hexagon with
//! its centre marked, every piece as a disc in its side's colour with its
//! symbol and a wedge pointing where it faces, and the last turn's moves,
//! captures, turns and rebirths. Each hex, disc and wedge is one
//! `<symbol>`; the legend shows the symbols this board draws, each as the
//! board draws it.

use super::ruleset::{Ruleset, WHITE};
use super::state::LABELS;
use super::view::View;
use super::Hexwar;
use crate::board::picture::{
    circle, hex_points, text, use_here, Board, Entry, Frame, Look, Sample,
};
use crate::board::svg::{
    self, ArrowKind, HexagonBoard, BLACK_PIECE, BOARD, GRID, INK, WHITE_PIECE,
};
use crate::board::{Dir, Hex};
use crate::games::Draw;

const SIZE: f64 = 30.0;
const CENTRE: &str = "#d9b44a";

/// The board's words at 11.9 CSS px when a phone shows the whole board
/// (351 px for its 492 units; issue 49).
const LOOK: Look = Look {
    type_size: SIZE * 0.57,
    mail_scale: 0.5,
    mail_max_scale: 2.0,
    full_png_width: svg::PNG_WIDTH,
};

fn colours(side: &str) -> (&'static str, &'static str) {
    if side == super::ruleset::side_name(WHITE) {
        (WHITE_PIECE, INK)
    } else {
        (BLACK_PIECE, "#fbfaf5")
    }
}

fn define(b: &mut Board) {
    let hex = hex_points(true, SIZE);
    for (id, fill) in [("h", BOARD), ("hc", CENTRE)] {
        b.define(
            id,
            &format!(r#"<polygon points="{hex}" fill="{fill}" stroke="{GRID}" stroke-width="1"/>"#),
        );
    }
    // a piece: a disc in its side's colour (its `<use>`'s)
    b.define(
        "p",
        &circle((0.0, 0.0), SIZE * 0.55, "", INK, SIZE * 0.55 * 0.12, ""),
    );
    // the wedge on a piece's rim pointing north; turned for other facings
    let g = svg::HexGrid::flat(SIZE, 0.0, 0.0);
    let tip = g.towards(Hex::ORIGIN, Dir::N.offset(), SIZE * 0.85);
    let l = g.towards(Hex::ORIGIN, Dir::NW.offset(), SIZE * 0.42);
    let r = g.towards(Hex::ORIGIN, Dir::NE.offset(), SIZE * 0.42);
    let pts: Vec<String> = [l, tip, r]
        .iter()
        .map(|(x, y)| format!("{},{}", svg::num(*x), svg::num(*y)))
        .collect();
    b.define(
        "fw",
        &format!(
            r##"<polygon points="{}" fill="#b00020" stroke="{INK}" stroke-width="1"/>"##,
            pts.join(" ")
        ),
    );
}

/// A piece's drawing around the origin: its wedge, its disc, its symbol.
fn piece(side: &str, symbol: &str, facing: Option<Dir>) -> (String, String) {
    let (fill, ink) = colours(side);
    let wedge = facing
        .map(|d| {
            let k = Dir::ALL.iter().position(|x| *x == d).unwrap_or(0);
            let turn = if k == 0 {
                String::new()
            } else {
                format!(r#" transform="rotate({})""#, 60 * k)
            };
            use_here("fw", &format!(r#" class="facing"{turn}"#))
        })
        .unwrap_or_default();
    let body = format!(
        "{}{}",
        use_here("p", &format!(r#" fill="{fill}""#)),
        if symbol.is_empty() {
            String::new()
        } else {
            let size = if symbol.chars().count() > 2 {
                0.8
            } else {
                1.05
            };
            text((0.0, 0.0), SIZE * 0.55 * size, ink, symbol)
        }
    );
    (wedge, body)
}

/// Every entry the legend may have; it keeps those for symbols drawn.
fn legend(v: &View) -> Vec<Entry> {
    let mut e = Vec::new();
    for side in &v.sides {
        let (fill, _) = colours(&side.side);
        let mut t = format!("{}: {}, {}", side.side, side.player, side.army);
        if side.player == v.you {
            t.push_str(" (you)");
        }
        if v.to_move.as_deref() == Some(side.player.as_str()) {
            t.push_str(", to move");
        }
        e.push(Entry::new(
            &[&format!("owner:{}", side.player)],
            t,
            Sample::Chip(fill),
        ));
    }
    for k in &v.legend {
        let mut t = format!("{} {}: {}", k.symbol, k.piece, k.moves);
        if !k.special.is_empty() {
            t.push_str(&format!("; {}", k.special));
        }
        e.push(Entry::new(
            &[&format!("piece:{}", k.code)],
            t,
            Sample::Drawn,
        ));
    }
    e.push(Entry::new(
        &["facing"],
        "red wedge: the way a piece faces; its moves turn with it",
        Sample::Drawn,
    ));
    e.push(Entry::new(
        &["hex centre"],
        format!("the centre, {}", v.centre),
        Sample::Drawn,
    ));
    e.push(Entry::new(&["hex"], "an empty hex", Sample::Drawn));
    e.push(Entry::new(
        &["arrow move"],
        "a move (last turn)",
        Sample::Arrow(ArrowKind::Move),
    ));
    e.push(Entry::new(
        &["arrow attack"],
        "a capture (last turn)",
        Sample::Arrow(ArrowKind::Attack),
    ));
    e.push(Entry::new(
        &["arrow place"],
        "dashed ring: a piece turned or reborn (last turn)",
        Sample::Arrow(ArrowKind::Place),
    ));
    e
}

/// Long (about 80 lines): one drawing, its layers in painting order.
pub fn svg_board(_: &Ruleset, v: &View, frame: Frame) -> String {
    let radius = LABELS.radius;
    let geo = HexagonBoard::new(radius, SIZE);
    let grid = geo.grid;
    let own = v
        .pieces
        .iter()
        .filter(|p| p.yours)
        .filter_map(|p| LABELS.parse(&p.hex))
        .map(|h| (grid.centre(h), colours(&v.your_side).0))
        .collect();
    let mut b = Board::new(frame, LOOK, geo.width, geo.height, own, None, SIZE);
    define(&mut b);

    b.svg().group("hexes", "");
    for (class, id) in [("hex", "h"), ("hex centre", "hc")] {
        let cells: Vec<Hex> = Hex::spiral_area(radius)
            .into_iter()
            .filter(|h| (*h == Hex::ORIGIN) == (id == "hc"))
            .filter(|h| b.shows(grid.centre(*h), SIZE))
            .collect();
        if cells.is_empty() {
            continue;
        }
        b.svg().group(class, "");
        for h in cells {
            let l = LABELS.label(h);
            b.place(id, grid.centre(h), &format!(r#" data-hex="{l}""#));
        }
        b.svg().end();
        b.mark(class, || use_here(id, ""), SIZE);
    }
    b.svg().end();
    geo.labels(&mut b, radius);

    b.svg().group("pieces", "");
    for p in &v.pieces {
        let Some(h) = LABELS.parse(&p.hex) else {
            continue;
        };
        let c = grid.centre(h);
        if !b.shows(c, SIZE) {
            continue;
        }
        let facing = Dir::parse(&p.facing);
        let (wedge, body) = piece(&p.side, &p.symbol, facing);
        let inner = format!("{wedge}{body}");
        if facing.is_some() {
            b.mark("facing", || inner.clone(), SIZE * 0.9);
        }
        b.piece(
            &format!("piece:{}", p.code),
            &p.owner,
            c,
            SIZE * 0.9,
            p.yours,
            &format!(
                r#" data-hex="{}" data-owner="{}" data-piece="{}" data-kind="{}" data-facing="{}""#,
                svg::esc(&p.hex),
                svg::esc(&p.owner),
                svg::esc(&p.code),
                svg::esc(&p.code),
                svg::esc(&p.facing)
            ),
            &inner,
        );
    }
    b.svg().end();

    b.svg().group("arrows", "");
    for a in &v.arrows {
        if let (Some(from), Some(to)) = (LABELS.parse(&a.from), LABELS.parse(&a.to)) {
            b.arrow(grid.centre(from), grid.centre(to), a.kind, SIZE * 0.6);
        }
    }
    b.svg().end();

    let title = b.titled("HEXWAR", Some(&count(v)), "board", &v.you);
    b.finish(&title, &title, legend(v))
}

/// Hexwar's boards: the text board is drawn beside the view (`view.rs`), the
/// picture here.
impl Draw for Hexwar {
    fn ascii_board(_: &Ruleset, v: &View) -> String {
        super::view::ascii_board(v)
    }
    fn svg_board(rules: &Ruleset, v: &View, frame: Frame) -> String {
        svg_board(rules, v, frame)
    }
    fn count(_: &Ruleset, v: &View) -> Option<String> {
        Some(count(v))
    }
    fn turned(_: &Ruleset, v: &View) -> bool {
        v.your_side == "black"
    }
}

/// HEXWAR's own count: its turns, White's move and Black's each.
fn count(v: &View) -> String {
    format!("game turn {}", v.turn)
}
