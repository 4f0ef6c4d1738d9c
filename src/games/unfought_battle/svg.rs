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
use super::rules::Rules;
use super::view::View;
use crate::board::svg::{self, disc, HexGrid, Svg, BOARD, GRID, INK};
use crate::board::Hex;

const SIZE: f64 = 34.0;
const DIFFICULT: &str = "#b3b98a";
const CONTENTIOUS: &str = "#d9b44a";
const SCORCHED: &str = "#5b4b3c";
const SOVEREIGN: &str = "#f1c40f";

pub fn svg_board(_: &Rules, v: &View) -> String {
    let n = v.size.max(1);
    let sq3 = 3f64.sqrt();
    let margin = SIZE * 1.3;
    let width = 2.0 * margin + SIZE * (1.5 * (n - 1) as f64 + 2.0);
    let board_h = 2.0 * margin + SIZE * sq3 * (1.5 * (n - 1) as f64 + 1.0);
    let legend_h = 3.0 * 20.0 + 10.0;
    let (width, board_h) = (width.round(), board_h.round());
    let title = format!(
        "The Unfought Battle, turn {}: the field as {} sees it",
        v.turn, v.you
    );
    let mut s = Svg::new(width, board_h + legend_h, &title);
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
                for k in [-1.0, 0.0, 1.0] {
                    let dx = k * SIZE * 0.35;
                    s.line(
                        (c.0 + dx - SIZE * 0.25, c.1 + SIZE * 0.45),
                        (c.0 + dx + SIZE * 0.25, c.1 - SIZE * 0.45),
                        "#6f7550",
                        1.5,
                        "",
                    );
                }
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
                s.line(
                    (c.0 - SIZE * 0.5, c.1 - SIZE * 0.2),
                    (c.0 - SIZE * 0.2, c.1 - SIZE * 0.5),
                    "#6f747c",
                    1.5,
                    "",
                );
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
                r#" data-hex="{}" data-owner="{}" data-force="{}""#,
                svg::esc(&f.at),
                svg::esc(&v.you),
                svg::esc(&f.name)
            ),
        );
        disc(&mut s, c, SIZE * 0.5, svg::seat_colour(me), "#fff", "", "");
        if f.sovereign {
            s.circle(
                c,
                SIZE * 0.4,
                "none",
                SOVEREIGN,
                3.0,
                r#" class="sovereign""#,
            );
        }
        let power = if f.power == 0 {
            String::new()
        } else if f.sovereign {
            format!("S{}", f.power)
        } else {
            f.power.to_string()
        };
        s.text((c.0, c.1 - SIZE * 0.08), SIZE * 0.42, "#fff", &power);
        s.text((c.0, c.1 + SIZE * 0.28), SIZE * 0.26, "#fff", &f.name);
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
                r#" data-hex="{}" data-owner="{}" data-force="{}""#,
                svg::esc(&e.at),
                svg::esc(&v.enemy),
                svg::esc(&e.mark)
            ),
        );
        // enemies are square-cornered counters, so the sides differ in
        // shape as well as colour
        let r = SIZE * 0.48;
        s.rect(
            c.0 - r,
            c.1 - r,
            2.0 * r,
            2.0 * r,
            svg::seat_colour(them),
            INK,
            r#" stroke-width="2" rx="4""#,
        );
        s.text((c.0, c.1 - SIZE * 0.12), SIZE * 0.34, "#fff", &e.mark);
        let power = match e.power {
            Some(p) => p.to_string(),
            None => format!("≤{}", e.threat),
        };
        s.text((c.0, c.1 + SIZE * 0.25), SIZE * 0.3, "#fff", &power);
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

    s.group("legend", "");
    let y0 = board_h + 6.0;
    let line = |i: usize| y0 + 10.0 + i as f64 * 20.0;
    s.circle((18.0, line(0)), 7.0, svg::seat_colour(me), INK, 1.0, "");
    s.text_start(
        (32.0, line(0)),
        12.0,
        INK,
        &format!("{} (you): {} Shih, turn {}", v.you, v.shih, v.turn),
    );
    s.rect(
        11.0,
        line(1) - 7.0,
        14.0,
        14.0,
        svg::seat_colour(them),
        INK,
        "",
    );
    let mut enemy = format!("{}: {} forces alive", v.enemy, v.enemy_alive);
    if !v.enemy_unknown_powers.is_empty() {
        let p: Vec<String> = v
            .enemy_unknown_powers
            .iter()
            .map(|p| p.to_string())
            .collect();
        enemy.push_str(&format!(", unknown powers {}", p.join(" ")));
    }
    s.text_start((32.0, line(1)), 12.0, INK, &enemy);
    s.circle((18.0, line(2)), 7.0, "none", CONTENTIOUS, 3.0, "");
    s.text_start(
        (32.0, line(2)),
        12.0,
        INK,
        "Contentious  hatched: Difficult  dark: Scorched  grey: fog",
    );
    s.end();
    s.finish()
}
