//! The Stack Wars board as a picture, from the view: the square grid of
//! territories joined as the rules text draws them, rows and columns
//! numbered on the edge, the baselines named, every stack as a pile of
//! armies in its side's colour with its size, and the last turn's moves,
//! attacks, invasions and fortifications. A territory and each height of
//! pile are one `<symbol>`; the legend shows the symbols this board draws,
//! each as the board draws it.

use super::ruleset::Ruleset;
use super::state::Square;
use super::view::View;
use super::StackWars;
use crate::board::picture::{circle, text, use_here, Board, Entry, Frame, Look, Rect, Sample};
use crate::board::svg::{self, ArrowKind, Point, BLACK_PIECE, BOARD, GRID, INK, WHITE_PIECE};
use crate::games::Draw;

const STEP: f64 = 64.0;
const R: f64 = 22.0;
const MARGIN: f64 = 66.0;
const BASELINE: &str = "#d6c394";

const LOOK: Look = Look {
    type_size: 14.0,
    mail_scale: 0.45,
    mail_max_scale: 2.0,
    full_png_width: svg::PNG_WIDTH,
};

fn colours(side: &str) -> (&'static str, &'static str) {
    if side.eq_ignore_ascii_case("white") {
        (WHITE_PIECE, INK)
    } else {
        (BLACK_PIECE, "#fbfaf5")
    }
}

fn define(b: &mut Board) {
    b.define("t", &circle((0.0, 0.0), R, BOARD, GRID, 2.0, ""));
    b.define("tb", &circle((0.0, 0.0), R, BASELINE, GRID, 2.0, ""));
}

/// A pile of `under` + 1 discs, one edge showing for each army under the
/// top one (up to 4), in the colour of its `<use>`.
fn pile(b: &mut Board, under: usize) -> String {
    let id = format!("s{under}");
    let mut m = String::new();
    for k in (0..=under).rev() {
        let off = k as f64 * R * 3.0 / 22.0;
        m.push_str(&circle((off, off), R * 0.8, "", INK, R * 1.5 / 22.0, ""));
    }
    b.define(&id, &m);
    id
}

/// The type of the board's words (its rows' and columns' numbers, the
/// stacks' armies) on a board `width` units wide: a phone shows the whole
/// board in 351 CSS px, where this type reads at 11.9 px, up to the
/// default board (size 9); larger boards open zoomed (issue 49).
fn type_for(width: f64) -> f64 {
    (0.034 * width).clamp(16.0, 22.0)
}

/// A stack's drawing around the origin, its armies in type `t` (narrower
/// where three digits would not fit the disc).
fn stack(b: &mut Board, side: &str, armies: u16, t: f64) -> String {
    let (fill, ink) = colours(side);
    let id = pile(b, (armies.saturating_sub(1)).min(4) as usize);
    let label = armies.to_string();
    let room = R * 1.6 - 2.0;
    let size = t.min(room / (label.len() as f64 * 0.602));
    format!(
        "{}{}",
        use_here(&id, &format!(r#" fill="{fill}""#)),
        text((0.0, 0.0), size, ink, &label)
    )
}

/// A side's name, and its player's where that differs from it.
fn who(side: &str, id: &str) -> String {
    if side.eq_ignore_ascii_case(id) {
        side.to_string()
    } else {
        format!("{side} ({id})")
    }
}

/// Every entry the legend may have; it keeps those for symbols drawn.
fn legend(v: &View) -> Vec<Entry> {
    let mut e = Vec::new();
    for p in &v.players {
        let (fill, _) = colours(&p.side);
        let you = if p.id == v.you { ", you" } else { "" };
        e.push(Entry::new(
            &[&format!("owner:{}", p.id)],
            format!("{}{you}", who(&p.side, &p.id)),
            Sample::Chip(fill),
        ));
    }
    e.push(Entry::new(
        &["piece:stack"],
        "a stack: the number is its armies",
        Sample::Drawn,
    ));
    e.push(Entry::new(
        &["territory"],
        "a territory; lines join neighbours",
        Sample::Drawn,
    ));
    e.push(Entry::new(
        &["territory baseline"],
        format!(
            "a baseline territory (row 0: White's, row {}: Black's)",
            v.size.saturating_sub(1)
        ),
        Sample::Drawn,
    ));
    e.push(Entry::new(
        &["arrow move"],
        "a move or an invasion (last turn)",
        Sample::Arrow(ArrowKind::Move),
    ));
    e.push(Entry::new(
        &["arrow attack"],
        "an attack (last turn)",
        Sample::Arrow(ArrowKind::Attack),
    ));
    e.push(Entry::new(
        &["arrow place"],
        "dashed ring: fortified from reserve (last turn)",
        Sample::Arrow(ArrowKind::Place),
    ));
    e
}

/// What the legend's caption says: each side's reserve, armies in play
/// and points, and who moves, after `head` (the title).
fn caption(v: &View, head: &str) -> String {
    let sides: Vec<String> = v
        .players
        .iter()
        .map(|p| {
            format!(
                "{}{}: {} in reserve, {} in play, {} point{}",
                who(&p.side, &p.id),
                if p.id == v.you { " (you)" } else { "" },
                p.reserves,
                p.in_play,
                p.points,
                if p.points == 1 { "" } else { "s" }
            )
        })
        .collect();
    let mut s = format!("{head}. {}.", sides.join("; "));
    if let Some(m) = &v.to_move {
        s.push_str(&format!(" To move: {m}."));
    }
    s
}

/// Long (about 145 lines): one drawing, its layers in painting order.
pub fn svg_board(_: &Ruleset, v: &View, frame: Frame) -> String {
    let n = v.size as usize;
    let board = 2.0 * MARGIN + STEP * (n as f64 - 1.0);
    // small boards are centred on a page wide enough for the legend
    let width = board.max(380.0);
    let x0 = (width - board) / 2.0;
    let at = |row: usize, col: usize| -> Point {
        (x0 + MARGIN + col as f64 * STEP, MARGIN + row as f64 * STEP)
    };
    let last = n.saturating_sub(1);
    let own = v
        .stacks
        .iter()
        .filter(|s| s.yours)
        .filter_map(|s| Square::parse(&s.at))
        .map(|sq| (at(sq.row as usize, sq.col as usize), colours(&v.side).0))
        .collect();
    // no stack yet: the player's own baseline
    let fallback = v.players.iter().find(|p| p.id == v.you).map(|p| {
        let (x, y) = at(p.baseline as usize, 0);
        Rect::new(x - STEP, y - STEP, STEP * (n as f64 + 1.0), 2.0 * STEP)
    });
    // the legend in the board's own type
    let look = Look {
        type_size: type_for(width),
        ..LOOK
    };
    let mut b = Board::new(frame, look, width, board, own, fallback, STEP / 2.0);
    define(&mut b);

    b.svg().group("grid", "");
    let mut path = String::new();
    for r in 0..n {
        let (a, z) = (at(r, 0), at(r, last));
        path.push_str(&format!(
            "M{} {}H{}",
            svg::num(a.0),
            svg::num(a.1),
            svg::num(z.0)
        ));
    }
    for c in 0..n {
        let (a, z) = (at(0, c), at(last, c));
        path.push_str(&format!(
            "M{} {}V{}",
            svg::num(a.0),
            svg::num(a.1),
            svg::num(z.1)
        ));
    }
    b.svg().raw(&format!(
        r#"<path d="{path}" fill="none" stroke="{GRID}" stroke-width="3"/>"#
    ));
    for (class, id, rows) in [
        ("territory", "t", (1..last).collect::<Vec<usize>>()),
        ("territory baseline", "tb", vec![0, last]),
    ] {
        let cells: Vec<(usize, usize)> = rows
            .iter()
            .flat_map(|&r| (0..n).map(move |c| (r, c)))
            .filter(|&(r, c)| b.shows(at(r, c), R))
            .collect();
        if cells.is_empty() {
            continue;
        }
        b.svg().group(class, "");
        for (r, c) in cells {
            b.place(id, at(r, c), &format!(r#" data-hex="{r},{c}""#));
        }
        b.svg().end();
        b.mark(class, || use_here(id, ""), R);
    }
    b.svg().end();

    let t = type_for(width);
    let mut labels = String::new();
    let mut put = |p: Point, s: &str| {
        labels.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{s}</text>\n",
            svg::num(p.0),
            svg::num(p.1 + t * 0.36)
        ));
    };
    for c in 0..n {
        let (x, _) = at(0, c);
        put((x, MARGIN - R - t * 0.55), &c.to_string());
        put(
            (x, MARGIN + STEP * last as f64 + R + t * 0.55),
            &c.to_string(),
        );
    }
    for r in 0..n {
        let (_, y) = at(r, 0);
        put((x0 + MARGIN - R - t, y), &r.to_string());
        put(
            (x0 + MARGIN + STEP * last as f64 + R + t, y),
            &r.to_string(),
        );
    }
    put((width / 2.0, t * 0.55), "White's baseline");
    put((width / 2.0, board - t * 0.55), "Black's baseline");
    b.svg().raw(&format!(
        r#"<g class="labels" font-size="{}" fill="{INK}" text-anchor="middle">"#,
        svg::num(t)
    ));
    b.svg().raw(labels.trim_end());
    b.svg().end();

    b.svg().group("pieces", "");
    for st in &v.stacks {
        let Some(sq) = Square::parse(&st.at) else {
            continue;
        };
        let (r, c) = (sq.row as usize, sq.col as usize);
        if r >= n || c >= n || !b.shows(at(r, c), R) {
            continue;
        }
        let inner = stack(&mut b, &st.side, st.armies, t);
        b.piece(
            "piece:stack",
            &st.owner,
            at(r, c),
            R * 1.1,
            st.yours,
            &format!(
                r#" data-hex="{}" data-owner="{}" data-armies="{}" data-kind="stack""#,
                svg::esc(&st.at),
                svg::esc(&st.owner),
                st.armies
            ),
            &inner,
        );
    }
    b.svg().end();

    b.svg().group("arrows", "");
    for a in &v.arrows {
        if let (Some(from), Some(to)) = (Square::parse(&a.from), Square::parse(&a.to)) {
            b.arrow(
                at(from.row as usize, from.col as usize),
                at(to.row as usize, to.col as usize),
                a.kind,
                R * 1.05,
            );
        }
    }
    b.svg().end();

    let title = b.titled("Stack Wars", None, "board", &v.you);
    // the caption runs on: "Stack Wars, turn 7: the board as black sees it. …"
    b.finish(&title, &caption(v, &title), legend(v))
}

/// StackWars's boards: the text board is drawn beside the view (`view.rs`), the
/// picture here.
impl Draw for StackWars {
    fn ascii_board(_: &Ruleset, v: &View) -> String {
        super::view::ascii_board(v)
    }
    fn svg_board(rules: &Ruleset, v: &View, frame: Frame) -> String {
        svg_board(rules, v, frame)
    }
    fn turned(_: &Ruleset, v: &View) -> bool {
        v.side == "White"
    }
}
