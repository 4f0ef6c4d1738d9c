//! The HEXWAR board as a picture, from the view: the radius-4 hexagon with
//! its centre marked, every piece as a disc in its side's colour with its
//! symbol and a wedge pointing where it faces, and the last turn's moves,
//! captures, turns and rebirths.

use super::ruleset::{Ruleset, WHITE};
use super::state::LABELS;
use super::view::View;
use super::Hexwar;
use crate::board::svg::{
    self, arrow_entries, disc, hex_swatch, HexGrid, HexagonBoard, Legend, LegendEntry, Point, Svg,
    BLACK_PIECE, BOARD, GRID, INK, WHITE_PIECE,
};
use crate::board::{Dir, Hex};
use crate::games::Draw;

const SIZE: f64 = 30.0;
const CENTRE: &str = "#d9b44a";

fn colours(side: &str) -> (&'static str, &'static str) {
    if side == super::ruleset::side_name(WHITE) {
        (WHITE_PIECE, INK)
    } else {
        (BLACK_PIECE, "#fbfaf5")
    }
}

/// The wedge on a piece's rim pointing the way it faces, for a piece on a
/// hex of `size` centred on `c`.
fn wedge(s: &mut Svg, c: Point, size: f64, d: Dir, attrs: &str) {
    // a grid of this size centred on c: the neighbours' directions
    let g = HexGrid::flat(size, c.0, c.1);
    let tip = g.towards(Hex::ORIGIN, d.offset(), size * 0.85);
    let l = g.towards(Hex::ORIGIN, d.turn(-1).offset(), size * 0.42);
    let r = g.towards(Hex::ORIGIN, d.turn(1).offset(), size * 0.42);
    s.polygon(&[l, tip, r], "#b00020", INK, size / 30.0, attrs);
}

/// A piece: a disc in its side's colour with its symbol.
fn piece(s: &mut Svg, c: Point, size: f64, side: &str, symbol: &str) {
    let (fill, ink) = colours(side);
    disc(s, c, size * 0.55, fill, ink, symbol, "");
}

/// Every symbol the board may draw, explained: the sides, each kind of
/// piece with its moves, facing, the centre and the arrows.
fn legend(v: &View) -> Vec<LegendEntry<'_>> {
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
        e.push(LegendEntry::new(
            &[&format!("owner:{}", side.player)],
            t,
            move |s, c, z| s.circle(c, z * 0.3, fill, INK, 1.0, ""),
        ));
    }
    for k in &v.legend {
        let mut t = format!("{} {}: {}", k.symbol, k.piece, k.moves);
        if !k.special.is_empty() {
            t.push_str(&format!("; {}", k.special));
        }
        e.push(LegendEntry::new(
            &[&format!("piece:{}", k.code)],
            t,
            move |s, c, z| piece(s, c, z / 1.2, &k.side, &k.symbol),
        ));
    }
    e.push(LegendEntry::new(
        &["facing"],
        "red wedge: the way a piece faces; its moves turn with it",
        |s, c, z| {
            let size = z / 1.25;
            wedge(s, c, size, Dir::NE, "");
            piece(s, c, size, "white", "");
        },
    ));
    e.push(LegendEntry::new(
        &["hex centre"],
        format!("the centre, {}", v.centre),
        |s, c, z| hex_swatch(s, c, z, CENTRE),
    ));
    e.push(LegendEntry::new(&["hex"], "an empty hex", |s, c, z| {
        hex_swatch(s, c, z, BOARD)
    }));
    e.extend(arrow_entries(
        "a move (last turn)",
        "a capture (last turn)",
        Some("ring: a piece turned or reborn"),
    ));
    e
}

pub fn svg_board(_: &Ruleset, v: &View) -> String {
    let radius = LABELS.radius;
    let board = HexagonBoard::new(radius, SIZE);
    let key = Legend::new(board.width, legend(v));
    let title = format!("HEXWAR, turn {}: the board as {} sees it", v.turn, v.you);
    let mut s = Svg::new(board.width, board.height + key.height(), &title);
    let grid = board.grid;

    s.group("hexes", "");
    for h in Hex::spiral_area(radius) {
        let l = LABELS.label(h);
        let (fill, class) = if h == Hex::ORIGIN {
            (CENTRE, "hex centre")
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
    }
    s.end();
    board.labels(&mut s, radius);

    s.group("pieces", "");
    for p in &v.pieces {
        let Some(h) = LABELS.parse(&p.hex) else {
            continue;
        };
        let c = grid.centre(h);
        s.group(
            "piece",
            &format!(
                r#" data-hex="{}" data-owner="{}" data-piece="{}" data-kind="{}" data-facing="{}""#,
                svg::esc(&p.hex),
                svg::esc(&p.owner),
                svg::esc(&p.code),
                svg::esc(&p.code),
                svg::esc(&p.facing)
            ),
        );
        if let Some(d) = Dir::parse(&p.facing) {
            wedge(&mut s, c, SIZE, d, r#" class="facing""#);
        }
        piece(&mut s, c, SIZE, &p.side, &p.symbol);
        s.end();
    }
    s.end();

    s.group("arrows", "");
    for a in &v.arrows {
        if let (Some(from), Some(to)) = (LABELS.parse(&a.from), LABELS.parse(&a.to)) {
            s.arrow(
                grid.centre(from),
                grid.centre(to),
                a.kind,
                SIZE * 0.6,
                svg::seat_colour(a.seat),
            );
        }
    }
    s.end();

    key.draw(&mut s, board.height);
    s.finish()
}

/// Hexwar's boards: the text board is drawn beside the view (`view.rs`), the
/// picture here.
impl Draw for Hexwar {
    fn ascii_board(_: &Ruleset, v: &View) -> String {
        super::view::ascii_board(v)
    }
    fn svg_board(rules: &Ruleset, v: &View) -> String {
        svg_board(rules, v)
    }
}
