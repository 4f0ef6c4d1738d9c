//! The HEXWAR board as a picture, from the view: the radius-4 hexagon with
//! its centre marked, every piece as a disc in its side's colour with its
//! symbol and a wedge pointing where it faces, and the last turn's moves,
//! captures, turns and rebirths.

use super::rules::{Rules, WHITE};
use super::state::LABELS;
use super::view::View;
use crate::board::svg::{
    self, disc, HexagonBoard, Svg, BLACK_PIECE, BOARD, GRID, INK, WHITE_PIECE,
};
use crate::board::{Dir, Hex};

const SIZE: f64 = 30.0;
const CENTRE: &str = "#d9b44a";

fn colours(side: &str) -> (&'static str, &'static str) {
    if side == super::rules::side_name(WHITE) {
        (WHITE_PIECE, INK)
    } else {
        (BLACK_PIECE, "#fbfaf5")
    }
}

pub fn svg_board(_: &Rules, v: &View) -> String {
    let radius = LABELS.radius;
    let board = HexagonBoard::new(radius, SIZE);
    let legend_h = 2.0 * 22.0 + 8.0;
    let title = format!("HEXWAR, turn {}: the board as {} sees it", v.turn, v.you);
    let mut s = Svg::new(board.width, board.height + legend_h, &title);
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
        let (fill, ink) = colours(&p.side);
        let c = grid.centre(h);
        s.group(
            "piece",
            &format!(
                r#" data-hex="{}" data-owner="{}" data-piece="{}" data-facing="{}""#,
                svg::esc(&p.hex),
                svg::esc(&p.owner),
                svg::esc(&p.code),
                svg::esc(&p.facing)
            ),
        );
        if let Some(d) = Dir::parse(&p.facing) {
            // a wedge on the rim, pointing the way the piece faces
            let o = d.offset();
            let tip = grid.towards(h, o, SIZE * 0.85);
            let l = grid.towards(h, d.turn(-1).offset(), SIZE * 0.42);
            let r = grid.towards(h, d.turn(1).offset(), SIZE * 0.42);
            s.polygon(&[l, tip, r], "#b00020", INK, 1.0, r#" class="facing""#);
        }
        disc(&mut s, c, SIZE * 0.55, fill, ink, &p.symbol, "");
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

    s.group("legend", "");
    for (i, side) in v.sides.iter().enumerate() {
        let y = board.height + 12.0 + i as f64 * 22.0;
        let (fill, _) = colours(&side.side);
        s.circle((18.0, y), 8.0, fill, INK, 1.0, "");
        let mut line = format!("{} {}: {}", side.side, side.player, side.army);
        if v.to_move.as_deref() == Some(side.player.as_str()) {
            line.push_str(" (to move)");
        }
        s.text_start((32.0, y), 13.0, INK, &line);
    }
    s.end();
    s.finish()
}
