//! The Unfought Battle as a picture, from the view alone: the rhombus of
//! hexes (flat-topped, column `q` running down the page as the text board
//! draws it), each hex labelled `q,r`; Difficult ground hatched,
//! Contentious hexes ringed, Scorched hexes dark; hexes beyond the sight
//! of every living force of yours shaded as fog; your forces with their
//! power (the Sovereign crowned), the enemy forces you see as E1, E2 … with
//! their known power or their threat (`≤7`); and the last turn's moves and
//! combats you saw. An enemy force out of sight is not in the view, so it
//! is not in the file. The hex labels are drawn last, over the arrows.

use super::board::parse_hex;
use super::ruleset::Ruleset;
use super::view::View;
use super::UnfoughtBattle;
use crate::board::picture::{
    circle, hex_points, line, text, use_here, Board, Entry, Frame, Look, Sample,
};
use crate::board::svg::{self, ArrowKind, HexGrid, BOARD, GRID, INK};
use crate::board::Hex;
use crate::games::Draw;

const SIZE: f64 = 34.0;
/// The type of every word on the field: a force's power and name, a
/// hex's label, the edges' letters. A phone shows the whole field in
/// 351 CSS px, where this type is 11.9 px (issue 49).
const TYPE: f64 = SIZE * 0.46;
/// A force's disc (or an enemy's counter), small enough that its hex's
/// label stands above it and its name below it, each whole.
const DISC: f64 = SIZE * 0.42;
const DIFFICULT: &str = "#b3b98a";
const CONTENTIOUS: &str = "#d9b44a";
const SCORCHED: &str = "#5b4b3c";
const SOVEREIGN: &str = "#f1c40f";

const LOOK: Look = Look {
    type_size: TYPE,
    mail_scale: 0.5,
    mail_max_scale: 2.0,
    full_png_width: svg::PNG_WIDTH,
};

fn define(b: &mut Board) {
    let hex = hex_points(true, SIZE);
    let cell = |fill: &str| {
        format!(r#"<polygon points="{hex}" fill="{fill}" stroke="{GRID}" stroke-width="1.5"/>"#)
    };
    // hatching, so Difficult ground reads in grey-scale and under fog
    let hatch: String = [-1.0, 0.0, 1.0]
        .iter()
        .map(|k| {
            let dx = k * SIZE * 0.35;
            line(
                (dx - SIZE * 0.25, SIZE * 0.45),
                (dx + SIZE * 0.25, -SIZE * 0.45),
                "#6f7550",
                1.5,
                "",
            )
        })
        .collect();
    let stroke = line(
        (-SIZE * 0.5, -SIZE * 0.2),
        (-SIZE * 0.2, -SIZE * 0.5),
        "#6f747c",
        1.5,
        "",
    );
    let inner = format!(
        r#"<polygon points="{}" fill="{SCORCHED}"/>"#,
        hex_points(true, SIZE * 0.8)
    );
    b.define("h", &cell(BOARD));
    b.define("hd", &format!("{}{hatch}", cell(DIFFICULT)));
    b.define("hs", &cell(SCORCHED));
    b.define("hf", &format!("{}{stroke}", cell(svg::FOG)));
    b.define("hfs", &format!("{}{inner}{stroke}", cell(svg::FOG)));
    b.define("hfd", &format!("{}{hatch}{stroke}", cell(svg::FOG)));
    b.define(
        "ct",
        &circle((0.0, 0.0), SIZE * 0.78, "none", CONTENTIOUS, 4.0, ""),
    );
    // a force of yours: a disc in your colour (its `<use>`'s)
    b.define("of", &circle((0.0, 0.0), DISC, "", INK, SIZE * 0.06, ""));
    b.define(
        "sv",
        &circle(
            (0.0, 0.0),
            DISC * 0.8,
            "none",
            SOVEREIGN,
            SIZE * 3.0 / 34.0,
            "",
        ),
    );
    // an enemy force: a square-cornered counter, so the sides differ in
    // shape as well as colour
    let r = DISC * 0.96;
    b.define(
        "ef",
        &format!(
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" stroke="{INK}" stroke-width="{}"/>"#,
            svg::num(-r),
            svg::num(-r),
            svg::num(2.0 * r),
            svg::num(2.0 * r),
            svg::num(SIZE * 4.0 / 34.0),
            svg::num(SIZE * 2.0 / 34.0)
        ),
    );
}

/// A force's name under its disc, in its side's colour (the hex's label
/// above it is in the field's ink), haloed.
fn name_below(name: &str, colour: &str) -> String {
    format!(
        r##"<text y="{}" font-size="{}" fill="{colour}" stroke="#fbfaf5" stroke-width="{}" paint-order="stroke" text-anchor="middle">{}</text>"##,
        svg::num(SIZE * 0.64 + TYPE * 0.36),
        svg::num(TYPE),
        svg::num(SIZE * 0.1),
        svg::esc(name)
    )
}

/// Every entry the legend may have; it keeps those for symbols drawn.
///
/// Long (about 85 lines): one list of legend entries, each a few lines of text.
fn legend(v: &View, mine: &'static str, theirs: &'static str, observer: bool) -> Vec<Entry> {
    if observer {
        return observer_legend(v, mine, theirs);
    }
    let mut enemy = format!(
        "{}: a force in sight (E1…), its power or ≤ the most it can be",
        v.enemy
    );
    if !v.enemy_unknown_powers.is_empty() {
        let p: Vec<String> = v
            .enemy_unknown_powers
            .iter()
            .map(|p| p.to_string())
            .collect();
        enemy.push_str(&format!("; powers unknown: {}", p.join(" ")));
    }
    vec![
        Entry::new(
            &[&format!("owner:{}", v.you)],
            format!("{} (you)", v.you),
            Sample::Chip(mine),
        ),
        Entry::new(
            &["piece:force"],
            "a force of yours: its power and name",
            Sample::Drawn,
        ),
        Entry::new(
            &["piece:sovereign", "sovereign"],
            "gold ring, S and its power: your Sovereign",
            Sample::Drawn,
        ),
        Entry::new(
            &[&format!("owner:{}", v.enemy)],
            v.enemy.clone(),
            Sample::Chip(theirs),
        ),
        Entry::new(&["piece:enemy"], enemy, Sample::Drawn),
        Entry::new(
            &["contentious"],
            "gold ring: Contentious, Shih income for who holds it",
            Sample::Drawn,
        ),
        Entry::new(
            &["hex difficult"],
            "hatched: Difficult ground",
            Sample::Drawn,
        ),
        Entry::new(
            &["hex scorched"],
            "dark: Scorched, out of play",
            Sample::Drawn,
        ),
        Entry::new(
            &["hex fog"],
            "grey, one stroke: out of sight",
            Sample::Drawn,
        ),
        Entry::new(
            &["hex fog scorched"],
            "out of sight, Scorched",
            Sample::Drawn,
        ),
        Entry::new(
            &["hex fog difficult"],
            "out of sight, Difficult",
            Sample::Drawn,
        ),
        Entry::new(&["hex"], "open ground, labelled q,r", Sample::Drawn),
        Entry::new(
            &["arrow move"],
            "your move (last turn)",
            Sample::Arrow(ArrowKind::Move),
        ),
        Entry::new(
            &["arrow attack"],
            "a combat (last turn)",
            Sample::Arrow(ArrowKind::Attack),
        ),
        Entry::new(
            &["arrow place"],
            "dashed ring: an ambush sprung (last turn)",
            Sample::Arrow(ArrowKind::Place),
        ),
    ]
}

/// The legend of a board seen by no seat (the whole truth of a finished
/// battle): each side by its name, nothing "yours", no fog.
fn observer_legend(v: &View, mine: &'static str, theirs: &'static str) -> Vec<Entry> {
    let side = |id: &str, colour: &'static str| {
        Entry::new(
            &[&format!("owner:{id}")],
            id.to_string(),
            Sample::Chip(colour),
        )
    };
    let mut e = vec![
        side(&v.you, mine),
        Entry::new(
            &["piece:force"],
            format!("a force of {}: its power and name", v.you),
            Sample::Drawn,
        ),
        Entry::new(
            &["piece:sovereign", "sovereign"],
            "gold ring, S and its power: each side's Sovereign".to_string(),
            Sample::Drawn,
        ),
        side(&v.enemy, theirs),
        Entry::new(
            &["piece:enemy"],
            format!("a force of {}: its power and name", v.enemy),
            Sample::Drawn,
        ),
    ];
    e.extend(
        legend(v, mine, theirs, false)
            .into_iter()
            .filter(|x| {
                !x.keys.iter().any(|k| {
                    k.starts_with("owner:")
                        || k.starts_with("piece:")
                        || k == "sovereign"
                        || k.starts_with("hex fog")
                })
            })
            .map(|x| match x.keys.first().map(String::as_str) {
                Some("arrow move") => Entry {
                    text: "a move (last turn)".into(),
                    ..x
                },
                _ => x,
            }),
    );
    e
}

/// Long (about 260 lines): one drawing, its layers in painting order.
pub fn svg_board(rules: &Ruleset, v: &View, frame: Frame) -> String {
    let n = v.size.max(1);
    let sq3 = 3f64.sqrt();
    let margin = SIZE * 1.3;
    let width = (2.0 * margin + SIZE * (1.5 * (n - 1) as f64 + 2.0)).round();
    let board_h = (2.0 * margin + SIZE * sq3 * (1.5 * (n - 1) as f64 + 1.0)).round();
    let grid = HexGrid::flat(SIZE, margin + SIZE, margin + SIZE * sq3 / 2.0);
    let me = v.seat.saturating_sub(1);
    let them = 1 - me.min(1);
    let (mine, theirs) = (svg::seat_colour(me), svg::seat_colour(them));
    let own_hexes: Vec<Hex> = v
        .forces
        .iter()
        .filter(|f| f.alive)
        .filter_map(|f| parse_hex(&f.at))
        .collect();
    let own = own_hexes.iter().map(|h| (grid.centre(*h), mine)).collect();
    let mut b = Board::new(frame, LOOK, width, board_h, own, None, SIZE);
    define(&mut b);
    let centre = parse_hex(&v.centre).unwrap_or(Hex::new(n / 2, n / 2));
    let list = |l: &[String]| -> Vec<Hex> { l.iter().filter_map(|x| parse_hex(x)).collect() };
    let contentious = list(&v.contentious);
    let difficult = list(&v.difficult);
    // what the view shows: enemies within sight of a living force of yours,
    // everything once the battle is over
    let over = v.phase == "over";
    let observer = b.observer();
    let in_sight = |h: Hex| over || observer || own_hexes.iter().any(|o| o.distance(h) <= v.sight);

    let kinds = [
        ("hex", "h"),
        ("hex difficult", "hd"),
        ("hex scorched", "hs"),
        ("hex fog", "hf"),
        ("hex fog scorched", "hfs"),
        ("hex fog difficult", "hfd"),
    ];
    let mut cells: Vec<Vec<Hex>> = vec![Vec::new(); kinds.len()];
    let mut shown = Vec::new();
    for q in 0..n {
        for r in 0..n {
            let h = Hex::new(q, r);
            if !b.shows(grid.centre(h), SIZE) {
                continue;
            }
            let scorched = v.radius.is_some_and(|rad| h.distance(centre) > rad);
            let k = match (!in_sight(h), scorched, difficult.contains(&h)) {
                (true, true, _) => 4,
                (true, false, true) => 5,
                (true, false, false) => 3,
                (false, true, _) => 2,
                (false, false, true) => 1,
                (false, false, false) => 0,
            };
            cells[k].push(h);
            shown.push(h);
        }
    }
    b.svg().group("hexes", "");
    for ((class, id), hexes) in kinds.iter().zip(&cells) {
        if hexes.is_empty() {
            continue;
        }
        b.svg().group(class, "");
        for h in hexes {
            b.place(
                id,
                grid.centre(*h),
                &format!(r#" data-hex="{},{}""#, h.q, h.r),
            );
        }
        b.svg().end();
        b.mark(class, || use_here(id, ""), SIZE);
    }
    let rings: Vec<Hex> = contentious
        .iter()
        .copied()
        .filter(|h| shown.contains(h))
        .collect();
    if !rings.is_empty() {
        b.svg().group("contentious", "");
        for h in rings {
            b.place("ct", grid.centre(h), "");
        }
        b.svg().end();
        b.mark("contentious", || use_here("ct", ""), SIZE);
    }
    b.svg().end();

    let mut edge = String::new();
    let mut put = |(x, y): (f64, f64), t: String| {
        edge.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{t}</text>\n",
            svg::num(x),
            svg::num(y + TYPE * 0.36)
        ));
    };
    for q in 0..n {
        let (x, y) = grid.centre(Hex::new(q, 0));
        put((x, y - SIZE * 1.2), format!("q{q}"));
    }
    for r in 0..n {
        let (x, y) = grid.centre(Hex::new(0, r));
        put((x - SIZE * 1.45, y), format!("r{r}"));
    }
    b.svg().raw(&format!(
        r#"<g class="labels" font-size="{}" fill="{INK}" text-anchor="middle">"#,
        svg::num(TYPE)
    ));
    b.svg().raw(edge.trim_end());
    b.svg().end();

    b.svg().group("pieces", "");
    for f in v.forces.iter().filter(|f| f.alive) {
        let Some(h) = parse_hex(&f.at) else {
            continue;
        };
        let c = grid.centre(h);
        if !b.shows(c, SIZE) {
            continue;
        }
        let power = if f.power == 0 {
            String::new()
        } else if f.sovereign {
            format!("S{}", f.power)
        } else {
            f.power.to_string()
        };
        let inner = format!(
            "{}{}{}{}",
            use_here("of", &format!(r#" fill="{mine}""#)),
            if f.sovereign {
                use_here("sv", r#" class="sovereign""#)
            } else {
                String::new()
            },
            text((0.0, 0.0), TYPE, "#fff", &power),
            name_below(&f.name, mine)
        );
        let kind = if f.sovereign { "sovereign" } else { "force" };
        if f.sovereign {
            b.mark("sovereign", || inner.clone(), SIZE * 0.85);
        }
        b.piece(
            &format!("piece:{kind}"),
            &v.you,
            c,
            SIZE * 0.85,
            true,
            &format!(
                r#" data-hex="{}" data-owner="{}" data-force="{}" data-kind="{kind}""#,
                svg::esc(&f.at),
                svg::esc(&v.you),
                svg::esc(&f.name),
            ),
            &inner,
        );
    }
    for e in &v.enemies {
        let Some(h) = parse_hex(&e.at) else {
            continue;
        };
        let c = grid.centre(h);
        if !b.shows(c, SIZE) {
            continue;
        }
        // Seen by no seat, the other side's Sovereign is crowned as the
        // first side's is (its power says which it is).
        let crowned = observer && e.power == Some(rules.forces.sovereign);
        let power = match e.power {
            Some(p) if crowned => format!("S{p}"),
            Some(p) => p.to_string(),
            None => format!("≤{}", e.threat),
        };
        let inner = format!(
            "{}{}{}",
            use_here("ef", &format!(r#" fill="{theirs}""#)),
            if crowned {
                use_here("sv", r#" class="sovereign""#)
            } else {
                String::new()
            },
            // as the first side's forces: the power, the name (or the
            // mark a report knows it by) under the counter
            text((0.0, 0.0), TYPE, "#fff", &power)
                + &name_below(e.name.as_deref().unwrap_or(&e.mark), theirs)
        );
        b.piece(
            "piece:enemy",
            &v.enemy,
            c,
            SIZE * 0.85,
            false,
            &format!(
                r#" data-hex="{}" data-owner="{}" data-force="{}" data-kind="enemy""#,
                svg::esc(&e.at),
                svg::esc(&v.enemy),
                svg::esc(e.name.as_deref().unwrap_or(&e.mark))
            ),
            &inner,
        );
    }
    b.svg().end();

    b.svg().group("arrows", "");
    for a in &v.arrows {
        if let (Some(from), Some(to)) = (parse_hex(&a.from), parse_hex(&a.to)) {
            b.arrow(grid.centre(from), grid.centre(to), a.kind, SIZE * 0.6);
        }
    }
    b.svg().end();

    // each hex's label, over the arrows, haloed so that an arrow's head
    // never hides it
    let mut nums = String::new();
    for h in &shown {
        let (x, y) = grid.centre(*h);
        nums.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{},{}</text>\n",
            svg::num(x),
            svg::num(y - SIZE * 0.64 + TYPE * 0.36),
            h.q,
            h.r
        ));
    }
    b.svg().raw(&format!(
        r##"<g class="hexnum" font-size="{}" fill="{INK}" text-anchor="middle" stroke="#fbfaf5" stroke-width="{}" stroke-linejoin="round" paint-order="stroke">"##,
        svg::num(TYPE),
        svg::num(SIZE * 0.08)
    ));
    b.svg().raw(nums.trim_end());
    b.svg().end();

    let title = b.titled("The Unfought Battle", Some(&count(v)), "field", &v.you);
    let forces = |n: usize| format!("{n} force{}", if n == 1 { "" } else { "s" });
    let caption = if observer {
        // no seat's: both sides as they stand, the first seat first
        let own = v.forces.iter().filter(|f| f.alive).count();
        let mut sides = [(v.seat, &v.you, own), (v.seat ^ 3, &v.enemy, v.enemy_alive)];
        sides.sort();
        format!(
            "{title}. {} has {} alive, {} has {} alive.",
            sides[0].1,
            forces(sides[0].2),
            sides[1].1,
            forces(sides[1].2)
        )
    } else {
        format!(
            "{title}. Shih {}; {} has {} alive.",
            v.shih,
            v.enemy,
            forces(v.enemy_alive)
        )
    };
    b.finish(&title, &caption, legend(v, mine, theirs, observer))
}

/// UnfoughtBattle's boards: the text board is drawn beside the view (`view.rs`), the
/// picture here.
impl Draw for UnfoughtBattle {
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

/// The Unfought Battle's own count: the deployment, then its turns.
fn count(v: &View) -> String {
    if v.phase == "deploy" {
        "deployment".to_string()
    } else {
        format!("game turn {} of {}", v.turn, v.turn_cap)
    }
}
