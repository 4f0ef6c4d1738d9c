//! Random playouts: many random legal games for every player count and
//! option finish without a panic and never put two pieces on one hex; games
//! played through the whole engine (order files, resolve, hash chain) are
//! accepted by `verify`; with fog of war, no report names a piece its
//! player cannot see.
//!
//! Counts can be raised with HERALD_PLAYOUTS (typed games per configuration)
//! and HERALD_ENGINE_GAMES (engine games per configuration).

use crate::common::{count, count_in, holds, EngineGame};
use herald::board::Hex;
use herald::games::norse_wars::play::Event;
use herald::games::norse_wars::ruleset::Ruleset;
use herald::games::norse_wars::state::{Opts, Phase, State};
use herald::games::norse_wars::{playout, NorseWars};
use herald::rng;

fn rules() -> Ruleset {
    Ruleset::parse(NorseWars::RULESET_TEXT).unwrap()
}

fn configs() -> Vec<(usize, Opts, &'static str)> {
    let mut out = Vec::new();
    for n in 2..=6 {
        out.push((n, Opts::default(), "plain"));
    }
    out.push((
        2,
        Opts {
            fog: true,
            ..Opts::default()
        },
        "fog",
    ));
    out.push((
        3,
        Opts {
            sudden_death: true,
            ..Opts::default()
        },
        "sudden death",
    ));
    out.push((
        4,
        Opts {
            teams: true,
            ..Opts::default()
        },
        "teams",
    ));
    out.push((
        6,
        Opts {
            teams: true,
            fog: true,
            ..Opts::default()
        },
        "teams+fog",
    ));
    out.push((
        2,
        Opts {
            draft_shields: true,
            ..Opts::default()
        },
        "draft shields",
    ));
    out.push((
        5,
        Opts {
            draft_shields: true,
            sudden_death: true,
            ..Opts::default()
        },
        "draft+sudden death",
    ));
    out
}

/// Every piece and shield on its own hex, and the grid agrees with the
/// piece table (rebuilding the state from its serialised part checks both).
fn assert_sound(st: &State, ctx: &str) {
    let rebuilt = State::from_core(st.core().clone()).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    assert_eq!(&rebuilt, st, "{ctx}: the grid disagrees with the pieces");
    let mut seen: Vec<Hex> = st
        .pieces
        .iter()
        .filter_map(|p| p.at)
        .chain(st.shields.iter().copied())
        .collect();
    let n = seen.len();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), n, "{ctx}: two things on one hex");
    for p in st.pieces.iter() {
        if let Some(h) = p.at {
            assert!(h.length() <= st.radius, "{ctx}: a piece off the board");
            assert!(
                h != Hex::ORIGIN || p.is_jarl(),
                "{ctx}: a Warrior on the Throne"
            );
            assert!(
                st.seats[p.seat as usize].alive,
                "{ctx}: a piece of an eliminated player"
            );
        }
    }
}

#[test]
fn random_games_finish_soundly() {
    let rules = rules();
    let games = count("HERALD_PLAYOUTS", 500);
    let mut total_moves = 0usize;
    for (n, opts, name) in configs() {
        let mut rng = rng::from_u64(n as u64 * 1000 + name.len() as u64);
        let mut ended = 0;
        for g in 0..games {
            let ctx = format!("{n} players, {name}, game {g}");
            let mut st = playout::new_game(&rules, n, opts, &mut rng);
            let mut events: Vec<Event> = Vec::new();
            let mut moves = Vec::new();
            let mut played = 0;
            while st.phase != Phase::Over {
                assert!(played < 20_000, "{ctx}: no end after 20000 moves");
                events.clear();
                if st.phase == Phase::Shields {
                    playout::random_game(&rules, &mut st, &mut rng, 0, &mut events);
                    let spots: Vec<Hex> = Hex::spiral_area(st.radius)
                        .into_iter()
                        .filter(|h| st.shield_spot(*h).is_ok())
                        .collect();
                    let h = *rng::pick(&mut rng, &spots).expect("a legal shield spot");
                    st.place_shield(&rules, h, &mut events);
                    continue;
                }
                let seat = st.to_move().expect("someone to move");
                assert!(st.seats[seat].alive, "{ctx}: an eliminated player to move");
                st.moves(&rules, seat, &mut moves);
                assert!(
                    !moves.is_empty(),
                    "{ctx}: the player to move has no legal move"
                );
                for m in &moves {
                    assert!(st.check_move(&rules, seat, *m).is_ok());
                }
                let m = moves[rng::below(&mut rng, moves.len() as u32) as usize];
                st.play(&rules, m, &mut events);
                played += 1;
                assert_sound(&st, &ctx);
            }
            ended += 1;
            total_moves += played;
            assert!(
                st.winners.is_some() && st.result.is_some(),
                "{ctx}: over without a result"
            );
        }
        assert_eq!(ended, games);
    }
    eprintln!(
        "{} configurations × {games} random games, {total_moves} moves",
        configs().len()
    );
}

fn option_args(opts: &Opts) -> Vec<String> {
    let mut v = Vec::new();
    for (on, name) in [
        (opts.fog, "fog"),
        (opts.sudden_death, "sudden_death"),
        (opts.teams, "teams"),
        (opts.draft_shields, "draft_shields"),
    ] {
        if on {
            v.push(format!("{name}=true"));
        }
    }
    v
}

/// Hexes `seat` may see, worked out here from the state, not by the view.
fn visible(st: &State, seat: usize, range: i32) -> impl Fn(Hex) -> bool + '_ {
    let team = st.seats[seat].team;
    let eyes: Vec<Hex> = st
        .pieces
        .iter()
        .filter(|p| st.seats[p.seat as usize].team == team)
        .filter_map(|p| p.at)
        .collect();
    let fog = st.options.fog && st.phase != Phase::Over;
    move |h: Hex| !fog || eyes.iter().any(|e| e.distance(h) <= range)
}

#[test]
fn engine_games_verify() {
    engine_games(count("HERALD_ENGINE_GAMES", 4), false, &configs());
}

#[test]
fn fogged_reports_never_name_hidden_pieces() {
    let fogged: Vec<(usize, Opts, &'static str)> = (2..=6)
        .map(|n| {
            (
                n,
                Opts {
                    fog: true,
                    ..Opts::default()
                },
                "fog",
            )
        })
        .chain([(
            4,
            Opts {
                fog: true,
                teams: true,
                ..Opts::default()
            },
            "fog+teams",
        )])
        .chain([(
            3,
            Opts {
                fog: true,
                sudden_death: true,
                ..Opts::default()
            },
            "fog+sudden death",
        )])
        .collect();
    engine_games(count("HERALD_FOG_GAMES", 2), true, &fogged);
}

/// Play whole games through the engine (order files, checks, resolve, the
/// hash chain) and verify each archive; with `scan`, check every report of
/// every turn for pieces its player may not see.
// Long: one whole fixture or table of cases, set up in one place.
fn engine_games(games: usize, scan: bool, configs: &[(usize, Opts, &'static str)]) {
    let names = ["red", "blue", "green", "yellow", "white", "black"];
    let rules = rules();
    let mut reports_scanned = 0;
    let mut verified = 0;
    for &(n, opts, name) in configs {
        for g in 0..games {
            let mut game = EngineGame::new(
                "norse-wars",
                &names[..n],
                &g.to_string(),
                option_args(&opts),
                &format!("{n}-{}-{g}", name.replace([' ', '+'], "_")),
            );
            let mut bot = rng::from_u64(g as u64 + 77);
            let mut turns = 0;
            loop {
                // scan every player's reports of this turn
                let loaded = &game.loaded;
                let st: &State = loaded.state.downcast_ref::<State>().unwrap();
                for seat in (0..n).filter(|_| scan) {
                    // every form at once, as a resolve writes them
                    let herald::report::Rendered {
                        text, json, html, ..
                    } = herald::pipeline::render::all(loaded, seat, None).unwrap();
                    // the picture (and so the PNG drawn from it) and the HTML page
                    let svg = &html[html.find("<svg").unwrap()..html.find("</svg>").unwrap()];
                    // and the mail's picture for a phone (its PNG is drawn
                    // from it): its part of the board and its locator come
                    // from the view
                    let mail = herald::pipeline::render::mail_svg(loaded, seat).unwrap();
                    let sees = visible(st, seat, rules.fog.range);
                    let view: serde_json::Value = json.parse().unwrap();
                    let labels = st.labels();
                    // what each picture fogs, read once for every piece
                    let mail_fog = crate::common::cells_drawn_as(&mail, "hex fog");
                    let svg_fog = crate::common::cells_drawn_as(svg, "hex fog");
                    for p in st.pieces.iter() {
                        let Some(h) = p.at else { continue };
                        let owner = names[p.seat as usize];
                        let shown = view["view"]["pieces"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|v| v["hex"] == labels.label(h).as_str());
                        if sees(h) {
                            assert!(shown, "{n}p {name}: {owner} {} on {} is visible to seat {seat} but not shown", p.name(), labels.label(h));
                            continue;
                        }
                        assert!(
                            !shown,
                            "{n}p {name}: the view of seat {seat} shows a hidden piece"
                        );
                        let called = if p.is_jarl() {
                            format!("{owner} Jarl")
                        } else {
                            format!("{owner} {}", p.name())
                        };
                        assert!(!holds(&text, &called), "{n}p {name}, turn {}: seat {seat}'s report names hidden {called}:\n{text}", loaded.head().turn);
                        assert!(
                            !holds(&json, &called),
                            "{n}p {name}: seat {seat}'s view.json names hidden {called}"
                        );
                        // no piece is drawn on a hidden hex: the file holds
                        // fog there, not a piece made invisible
                        let hex = labels.label(h);
                        let drawn = format!(r#"data-hex="{hex}" data-owner="#);
                        assert!(
                            !holds(svg, &drawn) && !holds(&html, &drawn) && !holds(&mail, &drawn),
                            "{n}p {name}: seat {seat}'s picture draws a hidden piece on {hex}"
                        );
                        assert!(
                            mail_fog.contains(&hex)
                                || h.length() > st.radius
                                || !holds(&mail, &format!(r#"data-hex="{hex}""#)),
                            "{n}p {name}: seat {seat}'s mail picture does not fog {hex}"
                        );
                        assert!(
                            svg_fog.contains(&hex) || h.length() > st.radius,
                            "{n}p {name}: seat {seat}'s picture does not fog {hex}"
                        );
                        assert!(
                            !holds(&html, &called),
                            "{n}p {name}: seat {seat}'s HTML names hidden {called}"
                        );
                    }
                    // the order composer's data names only cells in sight
                    let data = crate::common::page_data(&html);
                    for cell in crate::common::composer_cells(&data) {
                        let h = labels.parse(&cell).unwrap();
                        assert!(
                            sees(h),
                            "{n}p {name}: seat {seat}'s composer names {cell}, out of sight"
                        );
                    }
                    // every piece drawn is one the player may see
                    let drawn = count_in(svg, r#"class="piece""#);
                    let shown = view["view"]["pieces"].as_array().unwrap().len();
                    assert_eq!(drawn, shown, "{n}p {name}: seat {seat}'s picture");
                    assert!(
                        count_in(&mail, r#"class="piece""#) <= shown,
                        "{n}p {name}: seat {seat}'s mail picture"
                    );
                    reports_scanned += 4;
                }
                if loaded.head().outcome.is_some() || turns > 3000 {
                    break;
                }
                game.turn(|loaded, seat| {
                    let legal = loaded.rules.legal_orders(&loaded.state, seat);
                    rng::pick(&mut bot, &legal).unwrap().clone()
                });
                turns += 1;
            }
            assert!(game.over(), "{n}p {name} game {g} did not end");
            let problems = game.verify();
            assert!(
                problems.is_empty(),
                "{n}p {name} game {g}: verify: {problems:?}"
            );
            verified += 1;
        }
    }
    assert_eq!(verified, games * configs.len());
    eprintln!("{verified} engine games verified, {reports_scanned} reports scanned");
}
