//! The order composer's data (issue 21): a Norse Wars turn is one move.
//! Tap one of your pieces, then the hex it moves to: each of its legal
//! moves points at the hex one or two steps away in its direction (red
//! where an enemy piece stands there: a push). In the Shield draft, tap
//! "Shield", then a highlighted hex.
//!
//! Fog: the moves are the rules' legal-move list, which never depends on a
//! hidden hex (a move reaches at most 2 hexes and sight is 4:
//! games/norse-wars.md, options, fog). A push is marked only where the
//! target hex is in sight; Shield spots are offered only in sight.

use super::order_text;
use super::rules::Rules;
use super::state::{Phase, State};
use super::view::vision;
use crate::board::Hex;
use crate::games::compose::{Choice, Mark, Orders, Piece, Required};

pub fn compose(rules: &Rules, st: &State, seat: usize) -> Orders {
    let mut o = Orders::default();
    if st.to_move() != Some(seat) {
        return o;
    }
    let g = st.grid_radius;
    let side = (2 * g + 1) as usize;
    let seen = vision(rules, st, seat);
    let sees = |h: Hex| h.length() <= g && seen[((h.q + g) as usize) * side + (h.r + g) as usize];
    o.why
        .insert("move".into(), "you move exactly one piece per turn".into());
    match st.phase {
        Phase::Move => {
            for (_, p) in st.pieces_of(seat) {
                let Some(at) = p.at else { continue };
                let name = p.name();
                let label = if p.number == 0 {
                    "your Jarl".to_string()
                } else {
                    format!("your Warrior {name}")
                };
                o.pieces.push(Piece::on(name, label, st.label(at)));
            }
            let mut moves = Vec::new();
            st.moves(rules, seat, &mut moves);
            for m in moves {
                let Ok(to) = st.check_move(rules, seat, m) else {
                    continue;
                };
                let push = sees(to)
                    && st
                        .piece_at(to)
                        .is_some_and(|i| st.pieces[i].seat as usize != seat);
                let mark = if push { Mark::Attack } else { Mark::Move };
                let piece = super::state::piece_name(m.piece);
                o.choices.push(
                    Choice::new(Some(&piece), order_text(&m), mark)
                        .to(st.label(to))
                        .uses(&["move"]),
                );
            }
            o.required.push(Required {
                key: "move".into(),
                why: "move one piece (there is no passing)".into(),
            });
            o.help = vec![
                "Tap one of your pieces (dashed ring), then a highlighted hex: the hex it moves to, one or two steps away; red: a push.".into(),
                "One move per turn. A starvation preference (`starve W3 W1`) is written by hand in the order form below.".into(),
            ];
        }
        Phase::Shields => {
            o.pieces.push(Piece::off("shield", "Shield"));
            for h in Hex::spiral_area(st.radius) {
                if sees(h) && st.shield_spot(h).is_ok() {
                    o.choices.push(
                        Choice::new(
                            Some("shield"),
                            format!("shield {}", st.label(h)),
                            Mark::Place,
                        )
                        .to(st.label(h))
                        .uses(&["move"]),
                    );
                }
            }
            o.required.push(Required {
                key: "move".into(),
                why: "place one Shield".into(),
            });
            o.help = vec!["Tap \"Shield\", then a highlighted hex to place it there.".into()];
        }
        Phase::Over => {}
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, Options};
    use crate::rng;

    /// The composer's data never depends on what fog hides: taking every
    /// hidden piece off the board leaves it the same, and every cell it
    /// names is in sight.
    #[test]
    fn fog_hides_nothing_from_the_composer_and_it_tells_nothing() {
        let rules = Rules::parse(super::super::NorseWars::RULESET_TEXT).unwrap();
        let mut checked = 0;
        for (n, game) in [(2usize, 1u64), (3, 2), (4, 3), (6, 4)] {
            let players: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
            let mut options = Options::new();
            options.insert("fog".into(), "true".into());
            let mut r = rng::from_u64(game);
            let mut st = super::super::NorseWars::setup(&rules, &players, &options, None, &mut r)
                .unwrap()
                .state;
            for _ in 0..120 {
                let Some(seat) = st.to_move() else { break };
                let data = serde_json::to_value(compose(&rules, &st, seat)).unwrap();
                let seen = vision(&rules, &st, seat);
                let g = st.grid_radius;
                let side = (2 * g + 1) as usize;
                let sees = |h: Hex| seen[((h.q + g) as usize) * side + (h.r + g) as usize];
                // every cell named is in sight
                for c in data["choices"].as_array().unwrap() {
                    if let Some(to) = c["to"].as_str() {
                        assert!(sees(st.labels().parse(to).unwrap()), "{to} is fogged");
                    }
                }
                // the same data with the hidden pieces gone
                let mut v = serde_json::to_value(&st).unwrap();
                let mut hidden = 0;
                for p in v["pieces"].as_array_mut().unwrap() {
                    let at: Option<Hex> = serde_json::from_value(p["at"].clone()).unwrap();
                    if at.is_some_and(|h| !sees(h)) {
                        p["at"] = serde_json::Value::Null;
                        hidden += 1;
                    }
                }
                if hidden > 0 {
                    let fewer: State = serde_json::from_value(v).unwrap();
                    assert_eq!(
                        serde_json::to_value(compose(&rules, &fewer, seat)).unwrap(),
                        data,
                        "the composer changed with hidden pieces"
                    );
                    checked += 1;
                }
                let orders = super::super::NorseWars::bot_orders(&rules, &st, seat, &mut r);
                let mut all = std::collections::BTreeMap::new();
                all.insert(seat, orders);
                st = super::super::NorseWars::resolve(
                    &rules,
                    &st,
                    &all,
                    &mut crate::rng::Dice::quiet(&mut r),
                )
                .0;
            }
        }
        assert!(checked > 50, "only {checked} positions with hidden pieces");
    }
}
