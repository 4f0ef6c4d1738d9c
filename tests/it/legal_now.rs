//! The order forms teach what they accept (issue 29): every item under
//! "# Legal now:" of every game's form, in the report and in the blank
//! form (`herald orders`, the HTML page, reminders), copied into an order
//! file as it stands, passes `check` — alone, or in a phase that takes a
//! whole set (its form says so in one line) with the rest of a legal set.
//! Positions: each game's start and the phases bots play from it.

use crate::common::EngineGame;
use herald::pipeline::{check_orders, render, Submitted};

/// The items under "# Legal now:": each line's order, and for each `| X`
/// the line's order with its last word replaced by X (`… (N more)` is not
/// an item).
fn listed(form: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut on = false;
    for l in form.lines() {
        if l.starts_with("# Legal now:") {
            on = true;
            continue;
        }
        if !on {
            continue;
        }
        let Some(item) = l.strip_prefix("#   ") else {
            break;
        };
        let mut parts = item.split(" | ");
        let first = parts.next().unwrap().trim();
        out.push(first.to_string());
        let prefix = first.rsplit_once(' ').map_or("", |(p, _)| p);
        for alt in parts {
            if alt.starts_with('…') {
                assert!(alt.ends_with(" more)"), "{l}");
                continue;
            }
            assert!(!prefix.is_empty(), "an alternative needs a target: {l}");
            out.push(format!("{prefix} {alt}"));
        }
    }
    out
}

/// `check` on an order file with these orders for `seat`, as a player
/// would send it.
fn check(eg: &EngineGame, seat: usize, orders: &[String]) -> Result<(), Vec<String>> {
    let g = &eg.loaded;
    let h = g.head();
    let id = &h.players[seat].id;
    let text = herald::report::order_file(&h.id, id, h.turn, eg.password(id), orders);
    check_orders(g, &[Submitted::file("copied.toml", text)])
        .map(|_| ())
        .map_err(|e| e.problems)
}

/// Every listed item of every awaited player's form passes `check`; the
/// number of items checked.
fn forms_teach_what_they_accept(eg: &EngineGame, what: &str) -> usize {
    let g = &eg.loaded;
    let mut n = 0;
    for seat in g.rules.awaiting(&g.state) {
        let text = crate::common::report(g, seat, "text");
        let blank = render::form(g, seat).unwrap();
        let items = listed(&text);
        assert_eq!(
            items,
            listed(&blank),
            "{what}: the report and the blank form list the same"
        );
        let view = g.rules.view_json(
            &g.rules
                .view(&g.state, &g.players(), seat, &g.events_for(seat))
                .unwrap(),
        );
        let whole_set = view["whole_set"].as_str().map(str::to_string);
        if let Some(rule) = &whole_set {
            assert!(
                text.contains(&format!("# {rule}\n")) && blank.contains(&format!("# {rule}\n")),
                "{what}: the form states the phase's rule in one line"
            );
        }
        let sets = g.rules.legal_orders(&g.state, seat);
        for item in &items {
            n += 1;
            let alone = check(eg, seat, std::slice::from_ref(item));
            let Err(why) = alone else { continue };
            // A phase that takes a whole set: the item with the rest of a
            // legal set holding it.
            assert!(
                whole_set.is_some(),
                "{what}: `{item}` copied alone is refused and the form states no whole-set rule: {why:?}"
            );
            let set = sets
                .iter()
                .find(|s| s.contains(item))
                .unwrap_or_else(|| panic!("{what}: no legal set holds `{item}`"));
            if let Err(why) = check(eg, seat, set) {
                panic!("{what}: `{item}` with the rest of its set is refused: {why:?}");
            }
        }
        if whole_set.is_some() && !items.is_empty() && sets.len() == 1 {
            // The form lists one legal set: copied whole, it passes.
            check(eg, seat, &items).unwrap_or_else(|w| panic!("{what}: the listed set: {w:?}"));
        }
    }
    n
}

/// A game of `game` from its start, `phases` phases played by its bot,
/// every position's forms checked.
fn every_position(game: &str, players: &[&str], options: &[&str], phases: usize) {
    let mut eg = EngineGame::new(
        game,
        players,
        "legal-now",
        options.iter().map(|s| s.to_string()).collect(),
        &format!("legal-now-{game}"),
    );
    let mut rng = herald::rng::phase_rng("legal-now", game, 0, "bots");
    let mut items = 0;
    for k in 0..phases {
        if eg.over() {
            break;
        }
        items += forms_teach_what_they_accept(&eg, &format!("{game} phase {k}"));
        eg.turn(|g, seat| {
            herald::bots::scripted_orders(g.rules.as_ref(), &g.state, seat, &mut rng)
        });
    }
    assert!(items > 0, "{game}: nothing listed");
    assert!(eg.verify().is_empty());
}

#[test]
fn norse_wars_forms_list_only_orders_check_accepts() {
    every_position("norse-wars", &["red", "blue", "green"], &[], 8);
}

#[test]
fn norse_wars_shield_draft_lists_only_shields_check_accepts() {
    every_position("norse-wars", &["red", "blue"], &["draft_shields=true"], 6);
}

#[test]
fn hexwar_forms_list_only_orders_check_accepts() {
    every_position("hexwar", &["white", "black"], &[], 6);
    every_position("hexwar", &["white", "black"], &["template=single"], 4);
}

#[test]
fn stack_wars_forms_list_only_orders_check_accepts() {
    every_position("stack-wars", &["black", "white"], &[], 8);
}

#[test]
fn war_of_the_dukes_forms_list_only_orders_check_accepts() {
    every_position("war-of-the-dukes", &["orfburg", "wulfenburg"], &[], 4);
}

#[test]
fn unfought_battle_forms_list_only_orders_check_accepts() {
    every_position("unfought-battle", &["north", "south"], &[], 4);
}

/// War of the Dukes' play phase lists a piece's destinations on one line
/// as `D 1910 | 1911 | …` (not `D to 1910, 1911`), and its deployment form
/// says in one line that the file places every piece.
#[test]
fn war_of_the_dukes_lists_targets_and_its_deployment_rule() {
    let mut eg = EngineGame::new(
        "war-of-the-dukes",
        &["orfburg", "wulfenburg"],
        "legal-now",
        Vec::new(),
        "legal-now-wotd-shape",
    );
    let text = crate::common::report(&eg.loaded, 0, "text");
    assert!(
        text.contains("# DEPLOYMENT: one file places all 31 pieces; the list is one legal set\n# Legal now:\n#   I1 "),
        "{text}"
    );
    let mut rng = herald::rng::phase_rng("legal-now", "wotd", 0, "bots");
    eg.turn(|g, seat| herald::bots::scripted_orders(g.rules.as_ref(), &g.state, seat, &mut rng));
    let text = crate::common::report(&eg.loaded, 0, "text");
    let form = &text[text.find("# Legal now:").unwrap()..];
    assert!(!form.contains(" to "), "{form}");
    assert!(
        form.lines()
            .any(|l| l.starts_with("#   D ") && l.contains(" | ")),
        "{form}"
    );
}
