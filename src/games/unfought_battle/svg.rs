//! The Unfought Battle as a picture, from the view alone: the rhombus of
//! hexes (flat-topped, column `q` running down the page as the text board
//! draws it), each hex labelled `q,r`; Difficult ground hatched,
//! Contentious hexes starred, Scorched hexes dark; hexes beyond the sight
//! of every living force of yours shaded as fog; your forces with their
//! power (the Sovereign crowned), the enemy forces you see as E1, E2 … with
//! their known power or their threat (`≤7`); and the last turn's moves and
//! combats you saw. An enemy force out of sight is not in the view, so it
//! is not in the file.

use super::board::parse_hex;
use super::ruleset::Ruleset;
use super::view::View;
use super::UnfoughtBattle;
use crate::board::svg::{
    self, arrow_entries, disc, hex_swatch, HexGrid, Legend, LegendEntry, Point, Svg, BOARD, GRID,
    INK,
};
use crate::board::Hex;
use crate::games::Draw;

const SIZE: f64 = 34.0;
const DIFFICULT: &str = "#b3b98a";
const CONTENTIOUS: &str = "#d9b44a";
const SCORCHED: &str = "#5b4b3c";
const SOVEREIGN: &str = "#f1c40f";

/// Hatching on Difficult ground, on a hex of `size`.
fn difficult_hatch(s: &mut Svg, c: Point, size: f64) {
    for k in [-1.0, 0.0, 1.0] {
        let dx = k * size * 0.35;
        s.line(
            (c.0 + dx - size * 0.25, c.1 + size * 0.45),
            (c.0 + dx + size * 0.25, c.1 - size * 0.45),
            "#6f7550",
            size * 1.5 / 34.0,
            "",
        );
    }
}

/// The stroke across a fogged hex.
fn fog_hatch(s: &mut Svg, c: Point, size: f64) {
    s.line(
        (c.0 - size * 0.5, c.1 - size * 0.2),
        (c.0 - size * 0.2, c.1 - size * 0.5),
        "#6f747c",
        size * 1.5 / 34.0,
        "",
    );
}

/// One of your forces: a disc in your colour with its power and name; the
/// Sovereign's gold ring (with these attributes) under the text.
fn own_force(
    s: &mut Svg,
    c: Point,
    size: f64,
    colour: &str,
    power: &str,
    name: &str,
    sovereign: Option<&str>,
) {
    disc(s, c, size * 0.5, colour, "#fff", "", "");
    if let Some(attrs) = sovereign {
        s.circle(c, size * 0.4, "none", SOVEREIGN, size * 3.0 / 34.0, attrs);
    }
    s.text((c.0, c.1 - size * 0.08), size * 0.42, "#fff", power);
    s.text((c.0, c.1 + size * 0.28), size * 0.26, "#fff", name);
}

/// An enemy force: a square-cornered counter, so the sides differ in shape
/// as well as colour, with its mark and its power or threat.
fn enemy_force(s: &mut Svg, c: Point, size: f64, colour: &str, mark: &str, power: &str) {
    let r = size * 0.48;
    s.rect(
        c.0 - r,
        c.1 - r,
        2.0 * r,
        2.0 * r,
        colour,
        INK,
        &format!(
            r#" stroke-width="{}" rx="{}""#,
            svg::num(size * 2.0 / 34.0),
            svg::num(size * 4.0 / 34.0)
        ),
    );
    s.text((c.0, c.1 - size * 0.12), size * 0.34, "#fff", mark);
    s.text((c.0, c.1 + size * 0.25), size * 0.3, "#fff", power);
}

/// Every symbol the field may show, explained.
fn legend(v: &View) -> Vec<LegendEntry<'_>> {
    let me = v.seat.saturating_sub(1);
    let them = 1 - me.min(1);
    let (mine, theirs) = (svg::seat_colour(me), svg::seat_colour(them));
    let mut e = vec![
        LegendEntry::new(
            &[&format!("owner:{}", v.you), "piece:force"],
            format!(
                "{} (you): a force, its power and name; {} Shih, turn {}",
                v.you, v.shih, v.turn
            ),
            move |s, c, z| own_force(s, c, z * 1.2, mine, "3", "f2", None),
        ),
        LegendEntry::new(
            &["piece:sovereign", "sovereign"],
            "gold ring, S: your Sovereign",
            move |s, c, z| own_force(s, c, z * 1.2, mine, "S5", "f1", Some("")),
        ),
    ];
    let mut enemy = format!(
        "{}: a force in sight (E1…), its power or ≤ the most it can be; {} alive",
        v.enemy, v.enemy_alive
    );
    if !v.enemy_unknown_powers.is_empty() {
        let p: Vec<String> = v
            .enemy_unknown_powers
            .iter()
            .map(|p| p.to_string())
            .collect();
        enemy.push_str(&format!(", powers unknown: {}", p.join(" ")));
    }
    e.push(LegendEntry::new(
        &[&format!("owner:{}", v.enemy), "piece:enemy"],
        enemy,
        move |s, c, z| enemy_force(s, c, z * 1.1, theirs, "E1", "≤5"),
    ));
    e.push(LegendEntry::new(
        &["contentious"],
        "gold circle: Contentious, Shih income for who holds it",
        |s, c, z| {
            hex_swatch(s, c, z, BOARD);
            s.circle(c, z * 0.39, "none", CONTENTIOUS, z * 0.06, "");
        },
    ));
    e.push(LegendEntry::new(
        &["hex difficult"],
        "hatched: Difficult ground",
        |s, c, z| {
            hex_swatch(s, c, z, DIFFICULT);
            difficult_hatch(s, c, z * 0.5);
        },
    ));
    e.push(LegendEntry::new(
        &["hex scorched"],
        "dark: Scorched, out of play",
        |s, c, z| hex_swatch(s, c, z, SCORCHED),
    ));
    e.push(LegendEntry::new(
        &["hex fog"],
        "grey, one stroke: out of sight (dark inside: Scorched)",
        |s, c, z| {
            hex_swatch(s, c, z, svg::FOG);
            fog_hatch(s, c, z * 0.5);
        },
    ));
    e.push(LegendEntry::new(
        &["hex"],
        "open ground, labelled q,r",
        |s, c, z| hex_swatch(s, c, z, BOARD),
    ));
    e.extend(arrow_entries(
        "your move (last turn)",
        "a combat (last turn)",
        Some("ring: an ambush sprung"),
    ));
    e
}

pub fn svg_board(_: &Ruleset, v: &View) -> String {
    let n = v.size.max(1);
    let sq3 = 3f64.sqrt();
    let margin = SIZE * 1.3;
    let width = 2.0 * margin + SIZE * (1.5 * (n - 1) as f64 + 2.0);
    let board_h = 2.0 * margin + SIZE * sq3 * (1.5 * (n - 1) as f64 + 1.0);
    let (width, board_h) = (width.round(), board_h.round());
    let key = Legend::new(width, legend(v));
    let title = format!(
        "The Unfought Battle, turn {}: the field as {} sees it",
        v.turn, v.you
    );
    let mut s = Svg::new(width, board_h + key.height(), &title);
    let grid = HexGrid::flat(SIZE, margin + SIZE, margin + SIZE * sq3 / 2.0);
    let me = v.seat.saturating_sub(1);
    let them = 1 - me.min(1);
    let centre = parse_hex(&v.centre).unwrap_or(Hex::new(n / 2, n / 2));
    let list = |l: &[String]| -> Vec<Hex> { l.iter().filter_map(|x| parse_hex(x)).collect() };
    let contentious = list(&v.contentious);
    let difficult = list(&v.difficult);
    let own: Vec<Hex> = v
        .forces
        .iter()
        .filter(|f| f.alive)
        .filter_map(|f| parse_hex(&f.at))
        .collect();
    // what the view shows: enemies within sight of a living force of yours,
    // everything once the battle is over
    let over = v.phase == "over";
    let in_sight = |h: Hex| over || own.iter().any(|o| o.distance(h) <= v.sight);

    s.group("hexes", "");
    for q in 0..n {
        for r in 0..n {
            let h = Hex::new(q, r);
            let l = format!("{q},{r}");
            let scorched = v.radius.is_some_and(|rad| h.distance(centre) > rad);
            let fog = !in_sight(h);
            let (fill, class) = if fog {
                (svg::FOG, "hex fog")
            } else if scorched {
                (SCORCHED, "hex scorched")
            } else if difficult.contains(&h) {
                (DIFFICULT, "hex difficult")
            } else {
                (BOARD, "hex")
            };
            s.polygon(
                &grid.corners(h),
                fill,
                GRID,
                1.5,
                &format!(r#" class="{class}" data-hex="{l}""#),
            );
            let c = grid.centre(h);
            if scorched && fog {
                // scorched ground under the fog: a dark inner hex
                s.polygon(&grid.corners_at(c, SIZE * 0.8), SCORCHED, "none", 0.0, "");
            }
            if difficult.contains(&h) {
                // hatching, so Difficult ground reads in grey-scale and fog
                difficult_hatch(&mut s, c, SIZE);
            }
            if contentious.contains(&h) {
                s.circle(
                    c,
                    SIZE * 0.78,
                    "none",
                    CONTENTIOUS,
                    4.0,
                    r#" class="contentious""#,
                );
            }
            if fog {
                fog_hatch(&mut s, c, SIZE);
            }
            s.text((c.0, c.1 - SIZE * 0.62), SIZE * 0.26, INK, &l);
        }
    }
    s.end();

    s.group("labels", "");
    for q in 0..n {
        let (x, y) = grid.centre(Hex::new(q, 0));
        s.text((x, y - SIZE * 1.2), SIZE * 0.36, INK, &format!("q{q}"));
    }
    for r in 0..n {
        let (x, y) = grid.centre(Hex::new(0, r));
        s.text((x - SIZE * 1.45, y), SIZE * 0.36, INK, &format!("r{r}"));
    }
    s.end();

    s.group("pieces", "");
    for f in v.forces.iter().filter(|f| f.alive) {
        let Some(h) = parse_hex(&f.at) else {
            continue;
        };
        let c = grid.centre(h);
        s.group(
            "piece",
            &format!(
                r#" data-hex="{}" data-owner="{}" data-force="{}" data-kind="{}""#,
                svg::esc(&f.at),
                svg::esc(&v.you),
                svg::esc(&f.name),
                if f.sovereign { "sovereign" } else { "force" }
            ),
        );
        let power = if f.power == 0 {
            String::new()
        } else if f.sovereign {
            format!("S{}", f.power)
        } else {
            f.power.to_string()
        };
        let ring = f.sovereign.then_some(r#" class="sovereign""#);
        own_force(&mut s, c, SIZE, svg::seat_colour(me), &power, &f.name, ring);
        s.end();
    }
    for e in &v.enemies {
        let Some(h) = parse_hex(&e.at) else {
            continue;
        };
        let c = grid.centre(h);
        s.group(
            "piece",
            &format!(
                r#" data-hex="{}" data-owner="{}" data-force="{}" data-kind="enemy""#,
                svg::esc(&e.at),
                svg::esc(&v.enemy),
                svg::esc(&e.mark)
            ),
        );
        let power = match e.power {
            Some(p) => p.to_string(),
            None => format!("≤{}", e.threat),
        };
        enemy_force(&mut s, c, SIZE, svg::seat_colour(them), &e.mark, &power);
        s.end();
    }
    s.end();

    s.group("arrows", "");
    for a in &v.arrows {
        if let (Some(from), Some(to)) = (parse_hex(&a.from), parse_hex(&a.to)) {
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

    key.draw(&mut s, board_h);
    s.finish()
}

/// UnfoughtBattle's boards: the text board is drawn beside the view (`view.rs`), the
/// picture here.
impl Draw for UnfoughtBattle {
    fn ascii_board(_: &Ruleset, v: &View) -> String {
        super::view::ascii_board(v)
    }
    fn svg_board(rules: &Ruleset, v: &View) -> String {
        svg_board(rules, v)
    }
}
