//! `pipeline::check`: the passwords of several order files are hashed side
//! by side before the files are checked; what each file is told must be
//! what it would be told alone, in the order the files were given.

use crate::common::EngineGame;
use herald::pipeline::{check_orders, Submitted};

const PLAYERS: [&str; 2] = ["north", "south"];

fn game(tag: &str) -> EngineGame {
    // Both players of The Unfought Battle give their orders at once.
    EngineGame::new("unfought-battle", &PLAYERS, "checks", Vec::new(), tag)
}

fn file(eg: &EngineGame, name: &str, player: &str, password: &str, orders: &[&str]) -> Submitted {
    let h = eg.loaded.head();
    let orders: Vec<String> = orders.iter().map(|o| o.to_string()).collect();
    Submitted::file(
        name,
        herald::report::order_file(&h.id, player, h.turn, password, &orders),
    )
}

fn problems(eg: &EngineGame, files: &[Submitted]) -> Vec<String> {
    match check_orders(&eg.loaded, files) {
        Ok(_) => Vec::new(),
        Err(e) => e.problems,
    }
}

const LEGAL: [&str; 5] = [
    "f1 power 1",
    "f2 power 2",
    "f3 power 3",
    "f4 power 4",
    "f5 power 5",
];

#[test]
fn files_checked_together_are_told_what_each_is_told_alone() {
    let eg = game("check-together");
    let mut bad = LEGAL.to_vec();
    bad[0] = "f1 power 9";
    let files = vec![
        // A wrong password and a bad order: only the password is told.
        file(&eg, "north.toml", "north", "not-the-password", &bad),
        // The right password and a bad order.
        file(&eg, "south.toml", "south", eg.password("south"), &bad),
        // Not a player: no password is checked.
        file(&eg, "east.toml", "east", eg.password("north"), &LEGAL),
        // Another player's password.
        file(&eg, "north2.toml", "north", eg.password("south"), &LEGAL),
    ];
    let together = problems(&eg, &files);
    let alone: Vec<String> = files
        .iter()
        .flat_map(|f| problems(&eg, std::slice::from_ref(f)))
        .collect();
    assert_eq!(together, alone);
    let of = |name: &str| -> Vec<&String> {
        together
            .iter()
            .filter(|p| p.starts_with(&format!("{name}:")))
            .collect()
    };
    assert_eq!(of("north.toml").len(), 1, "{together:?}");
    assert!(of("north.toml")[0].contains("wrong password for north"));
    assert!(
        !of("south.toml").is_empty() && of("south.toml").iter().all(|p| p.contains("f1 power 9")),
        "{together:?}"
    );
    assert!(of("east.toml")[0].contains("`east` is not a player"));
    assert!(of("north2.toml")[0].contains("wrong password for north"));
}

#[test]
fn right_passwords_checked_together_accept_every_file_in_seat_order() {
    let eg = game("check-right");
    // Given south first: the records still come in seat order.
    let files = vec![
        file(&eg, "south.toml", "south", eg.password("south"), &LEGAL),
        file(&eg, "north.toml", "north", eg.password("north"), &LEGAL),
    ];
    let accepted = check_orders(&eg.loaded, &files).expect("both files are good");
    let players: Vec<&str> = accepted.records.iter().map(|r| r.player.as_str()).collect();
    assert_eq!(players, ["north", "south"]);
    // One wrong password among right ones refuses that file only.
    let files = vec![
        file(&eg, "south.toml", "south", eg.password("south"), &LEGAL),
        file(&eg, "north.toml", "north", eg.password("south"), &LEGAL),
    ];
    let told = problems(&eg, &files);
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].starts_with("north.toml:") && told[0].contains("wrong password for north"));
}
