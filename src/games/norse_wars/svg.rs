//! The Norse Wars board as a picture, from the view alone: the hexagon with
//! its Throne, Shields, the ring lost to sudden death, fogged hexes shaded,
//! every visible piece in its owner's colour (Jarls crowned, with their
//! strength; Warriors numbered), and the moves and pushes the player saw.

use super::rules::Rules;
use super::view::View;
use crate::board::svg::{self, disc, HexagonBoard, Svg, BOARD, GRID, INK};
use crate::board::{Hex, HexagonLabels};

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

pub fn svg_board(rules: &Rules, v: &View) -> String {
    let g = v.grid_radius;
    let labels = HexagonLabels { radius: g };
    let board = HexagonBoard::new(g, SIZE);
    let legend_h = 22.0 * v.players.len().div_ceil(3) as f64 + 8.0;
    let title = format!(
        "Norse Wars, round {}: the board as {} sees it",
        v.round, v.you
    );
    let mut s = Svg::new(board.width, board.height + legend_h, &title);
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
            // a round shield with a boss
            let c = grid.centre(h);
            s.circle(c, SIZE * 0.55, "#5b5e66", "#3a3c42", 2.0, "");
            s.circle(c, SIZE * 0.16, "#c9ccd2", "#3a3c42", 1.0, "");
        }
        if fogged.contains(&h) {
            // hatch so the fog reads in grey-scale too
            let c = grid.centre(h);
            s.line(
                (c.0 - SIZE * 0.4, c.1 + SIZE * 0.3),
                (c.0 + SIZE * 0.4, c.1 - SIZE * 0.3),
                "#6f747c",
                1.5,
                "",
            );
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
        s.group(
            "piece",
            &format!(
                r#" data-hex="{}" data-owner="{}" data-piece="{}""#,
                svg::esc(&p.hex),
                svg::esc(&p.owner),
                svg::esc(&p.piece)
            ),
        );
        if p.yours {
            s.circle(
                c,
                SIZE * 0.8,
                "none",
                INK,
                2.0,
                r#" stroke-dasharray="3 2""#,
            );
        }
        if p.piece == "J" {
            disc(
                &mut s,
                c,
                SIZE * 0.66,
                svg::seat_colour(seat),
                "#fff",
                "",
                "",
            );
            s.circle(c, SIZE * 0.5, "none", THRONE, 2.5, "");
            s.text(
                c,
                SIZE * 0.62,
                "#fff",
                &format!("J{}", rules.pieces.jarl_strength),
            );
        } else {
            disc(
                &mut s,
                c,
                SIZE * 0.52,
                svg::seat_colour(seat),
                "#fff",
                p.piece.trim_start_matches('W'),
                "",
            );
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

    s.group("legend", "");
    for (i, p) in v.players.iter().enumerate() {
        let x = 16.0 + (i % 3) as f64 * (board.width - 16.0) / 3.0;
        let y = board.height + 10.0 + (i / 3) as f64 * 22.0;
        let fill = if p.alive {
            svg::seat_colour(p.seat - 1)
        } else {
            GONE
        };
        s.circle((x, y), 7.0, fill, INK, 1.0, "");
        let mut name = format!("{} {}", p.marker, p.id);
        if !p.alive {
            name.push_str(" (out)");
        }
        if name.chars().count() > 18 {
            name = name.chars().take(17).collect::<String>() + "…";
        }
        s.text_start((x + 12.0, y), 13.0, INK, &name);
    }
    s.end();
    s.finish()
}
