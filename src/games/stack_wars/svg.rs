//! The Stack Wars board as a picture, from the view: the square grid of
//! territories joined as the rules text draws them, rows and columns
//! numbered on the edge, the baselines named, every stack as a pile of
//! armies in its side's colour with its size, and the last turn's moves,
//! attacks, invasions and fortifications.

use super::ruleset::Ruleset;
use super::state::Square;
use super::view::View;
use super::StackWars;
use crate::board::svg::{
    self, arrow_entries, disc, Legend, LegendEntry, Point, Svg, BLACK_PIECE, BOARD, GRID, INK,
    WHITE_PIECE,
};
use crate::games::Draw;

const STEP: f64 = 64.0;
const R: f64 = 22.0;

fn colours(side: &str) -> (&'static str, &'static str) {
    if side.eq_ignore_ascii_case("white") {
        (WHITE_PIECE, INK)
    } else {
        (BLACK_PIECE, "#fbfaf5")
    }
}

const BASELINE: &str = "#d6c394";

/// A stack of `armies` in a side's colour: one disc edge showing for each
/// army under the top one (up to 4), the count on top. `r` is a
/// territory's radius.
fn stack(s: &mut Svg, p: Point, r: f64, side: &str, armies: u16) {
    let (fill, ink) = colours(side);
    let under = (armies.saturating_sub(1)).min(4) as usize;
    for k in (1..=under).rev() {
        let off = k as f64 * r * 3.0 / 22.0;
        s.circle(
            (p.0 + off, p.1 + off),
            r * 0.8,
            fill,
            INK,
            r * 1.5 / 22.0,
            "",
        );
    }
    disc(s, p, r * 0.8, fill, ink, &armies.to_string(), "");
}

/// Every symbol the board may draw, explained: the sides with their
/// reserves, stacks, territories, baselines, arrows.
fn legend(v: &View) -> Vec<LegendEntry<'_>> {
    let mut e = Vec::new();
    for p in &v.players {
        let (fill, _) = colours(&p.side);
        let mut t = format!(
            "{} {}{}: {} in reserve, {} in play, {} point{}",
            p.side,
            p.id,
            if p.id == v.you { " (you)" } else { "" },
            p.reserves,
            p.in_play,
            p.points,
            if p.points == 1 { "" } else { "s" }
        );
        if v.to_move.as_deref() == Some(p.id.as_str()) {
            t.push_str("; to move");
        }
        e.push(LegendEntry::new(
            &[&format!("owner:{}", p.id)],
            t,
            move |s, c, z| s.circle(c, z * 0.3, fill, INK, 1.0, ""),
        ));
    }
    e.push(LegendEntry::new(
        &["piece:stack"],
        "a stack: the number is its armies (3 here)",
        |s, c, z| stack(s, (c.0 - z * 0.06, c.1 - z * 0.06), z * 0.5, "black", 3),
    ));
    e.push(LegendEntry::new(
        &["territory"],
        "a territory; lines join neighbours",
        |s, c, z| {
            s.line((c.0 - z * 0.5, c.1), (c.0 + z * 0.5, c.1), GRID, 2.0, "");
            s.circle(c, z * 0.3, BOARD, GRID, 1.5, "");
        },
    ));
    e.push(LegendEntry::new(
        &["territory baseline"],
        format!(
            "a baseline territory (row 0: White's, row {}: Black's)",
            v.size.saturating_sub(1)
        ),
        |s, c, z| s.circle(c, z * 0.3, BASELINE, GRID, 1.5, ""),
    ));
    e.extend(arrow_entries(
        "a move or an invasion (last turn)",
        "an attack (last turn)",
        Some("ring: fortified from reserve"),
    ));
    e
}

pub fn svg_board(_: &Ruleset, v: &View) -> String {
    let n = v.size as usize;
    let margin = 66.0;
    let board = 2.0 * margin + STEP * (n as f64 - 1.0);
    // small boards are centred on a page wide enough for the legend
    let width = board.max(380.0);
    let x0 = (width - board) / 2.0;
    let key = Legend::new(width, legend(v));
    let height = board + key.height();
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
            let (fill, class) = if baseline {
                (BASELINE, "territory baseline")
            } else {
                (BOARD, "territory")
            };
            s.circle(
                at(r, c),
                R,
                fill,
                GRID,
                2.0,
                &format!(r#" class="{class}" data-hex="{r},{c}""#),
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
        let p = at(r, c);
        s.group(
            "piece",
            &format!(
                r#" data-hex="{}" data-owner="{}" data-armies="{}" data-kind="stack""#,
                svg::esc(&st.at),
                svg::esc(&st.owner),
                st.armies
            ),
        );
        stack(&mut s, p, R, &st.side, st.armies);
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

    key.draw(&mut s, board);
    s.finish()
}

/// StackWars's boards: the text board is drawn beside the view (`view.rs`), the
/// picture here.
impl Draw for StackWars {
    fn ascii_board(_: &Ruleset, v: &View) -> String {
        super::view::ascii_board(v)
    }
    fn svg_board(rules: &Ruleset, v: &View) -> String {
        svg_board(rules, v)
    }
}
