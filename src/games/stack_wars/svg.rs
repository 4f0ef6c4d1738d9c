//! The Stack Wars board as a picture, from the view: the square grid of
//! territories joined as the rules text draws them, rows and columns
//! numbered on the edge, the baselines named, every stack as a pile of
//! armies in its side's colour with its size, and the last turn's moves,
//! attacks, invasions and fortifications.

use super::rules::Rules;
use super::state::Square;
use super::view::View;
use crate::board::svg::{self, disc, Point, Svg, BLACK_PIECE, BOARD, GRID, INK, WHITE_PIECE};

const STEP: f64 = 64.0;
const R: f64 = 22.0;

fn colours(side: &str) -> (&'static str, &'static str) {
    if side.eq_ignore_ascii_case("white") {
        (WHITE_PIECE, INK)
    } else {
        (BLACK_PIECE, "#fbfaf5")
    }
}

pub fn svg_board(_: &Rules, v: &View) -> String {
    let n = v.size as usize;
    let margin = 66.0;
    let board = 2.0 * margin + STEP * (n as f64 - 1.0);
    // small boards are centred on a page wide enough for the legend
    let width = board.max(380.0);
    let x0 = (width - board) / 2.0;
    let legend_h = 2.0 * 22.0 + 8.0;
    let height = board + legend_h;
    let title = format!("Stack Wars: the board as {} sees it", v.you);
    let mut s = Svg::new(width, height, &title);
    let at = |row: usize, col: usize| -> Point {
        (x0 + margin + col as f64 * STEP, margin + row as f64 * STEP)
    };
    let last = n.saturating_sub(1);

    s.group("grid", "");
    for r in 0..n {
        s.line(at(r, 0), at(r, last), GRID, 3.0, "");
    }
    for c in 0..n {
        s.line(at(0, c), at(last, c), GRID, 3.0, "");
    }
    for r in 0..n {
        for c in 0..n {
            let baseline = r == 0 || r == last;
            s.circle(
                at(r, c),
                R,
                if baseline { "#d6c394" } else { BOARD },
                GRID,
                2.0,
                &format!(r#" class="territory" data-hex="{r},{c}""#),
            );
        }
    }
    s.end();

    s.group("labels", "");
    for c in 0..n {
        let (x, _) = at(0, c);
        s.text((x, margin - R - 14.0), 14.0, INK, &c.to_string());
        s.text(
            (x, margin + STEP * last as f64 + R + 14.0),
            14.0,
            INK,
            &c.to_string(),
        );
    }
    for r in 0..n {
        let (_, y) = at(r, 0);
        s.text((x0 + margin - R - 14.0, y), 14.0, INK, &r.to_string());
        s.text(
            (x0 + margin + STEP * last as f64 + R + 14.0, y),
            14.0,
            INK,
            &r.to_string(),
        );
    }
    s.text((width / 2.0, 11.0), 11.0, GRID, "White's baseline");
    s.text((width / 2.0, board - 11.0), 11.0, GRID, "Black's baseline");
    s.end();

    s.group("pieces", "");
    for st in &v.stacks {
        let Some(sq) = Square::parse(&st.at) else {
            continue;
        };
        let (r, c) = (sq.row as usize, sq.col as usize);
        if r >= n || c >= n {
            continue;
        }
        let (fill, ink) = colours(&st.side);
        let p = at(r, c);
        s.group(
            "piece",
            &format!(
                r#" data-hex="{}" data-owner="{}" data-armies="{}""#,
                svg::esc(&st.at),
                svg::esc(&st.owner),
                st.armies
            ),
        );
        // a pile: one disc edge showing for each army under the top, up to 4
        let under = (st.armies.saturating_sub(1)).min(4) as usize;
        for k in (1..=under).rev() {
            let off = k as f64 * 3.0;
            s.circle((p.0 + off, p.1 + off), R * 0.8, fill, INK, 1.5, "");
        }
        disc(&mut s, p, R * 0.8, fill, ink, &st.armies.to_string(), "");
        s.end();
    }
    s.end();

    s.group("arrows", "");
    for a in &v.arrows {
        if let (Some(from), Some(to)) = (Square::parse(&a.from), Square::parse(&a.to)) {
            s.arrow(
                at(from.row as usize, from.col as usize),
                at(to.row as usize, to.col as usize),
                a.kind,
                R * 1.05,
                svg::seat_colour(a.seat),
            );
        }
    }
    s.end();

    s.group("legend", "");
    for (i, p) in v.players.iter().enumerate() {
        let y = board + 12.0 + i as f64 * 22.0;
        let (fill, _) = colours(&p.side);
        s.circle((18.0, y), 8.0, fill, INK, 1.0, "");
        let mut line = format!(
            "{} {}: {} reserve, {} in play, {} pt{}",
            p.side,
            p.id,
            p.reserves,
            p.in_play,
            p.points,
            if p.points == 1 { "" } else { "s" }
        );
        if v.to_move.as_deref() == Some(p.id.as_str()) {
            line.push_str(" (to move)");
        }
        s.text_start((32.0, y), 11.0, INK, &line);
    }
    s.end();
    s.finish()
}
