//! Unit tests of `herald::host::state` (src/host/state.rs).

use herald::host::state::*;
use herald::names::Name;

#[test]
fn saved_state_loads_back_and_a_missing_one_is_empty() {
    let d = tempfile::tempdir().unwrap();
    let g = Name::new("game", "g1").unwrap();
    assert_eq!(GameState::load(d.path(), &g).unwrap(), GameState::default());
    let s = GameState {
        last_in: Some(MailNote {
            at: "2026-11-24T10:00:00Z".into(),
            who: "a@b.c".into(),
            message_id: "<x@y>".into(),
            what: "orders accepted for red".into(),
        }),
        last_out: None,
        problems: vec!["p".into()],
        ..GameState::default()
    };
    s.save(d.path(), &g).unwrap();
    assert_eq!(GameState::load(d.path(), &g).unwrap(), s);
    // A state written before the game-time fields existed still loads.
    std::fs::write(
        d.path().join("state/g1.json"),
        r#"{"last_in":null,"last_out":null,"problems":["q"]}"#,
    )
    .unwrap();
    assert_eq!(GameState::load(d.path(), &g).unwrap().problems, vec!["q"]);
    std::fs::write(d.path().join("state/g1.json"), "{").unwrap();
    assert!(GameState::load(d.path(), &g).is_err());
}
