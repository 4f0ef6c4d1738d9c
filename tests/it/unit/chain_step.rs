//! Unit tests of `herald::chain::step` (src/chain/step.rs): what the head
//! derivation reads of an entry is what the entry says, read in full.

use herald::chain::body::*;
use herald::chain::canon::canonical;
use herald::chain::step::{PhaseStep, Step};
use serde_json::json;

/// The step a whole decoded body gives: the oracle the light reader is
/// held to.
fn of(body: &Body) -> Step {
    match body {
        Body::Genesis(_) => Step::Genesis,
        Body::Phase(p) => Step::Phase(PhaseStep::of(p)),
        Body::Passwd(p) => Step::Passwd {
            player: p.player.clone(),
            password: p.password.clone(),
        },
        Body::Deadline(d) => Step::Deadline(d.deadline.clone()),
        Body::Reveal(r) => Step::Reveal(r.seed.clone()),
        Body::Seat(c) => Step::Seat {
            player: c.player.clone(),
            name: c.name.clone(),
            password: c.password.clone(),
            salt: c.salt.clone(),
            holder_sha256: c.holder_sha256.clone(),
        },
        Body::Vacation(v) => Step::Vacation {
            player: v.player.clone(),
        },
        Body::Press(_) => Step::Press,
        Body::Resign(r) => Step::Resign {
            player: r.player.clone(),
            state_sha256: r.state_sha256.clone(),
        },
        Body::Draw(d) => Step::Draw {
            player: d.player.clone(),
            act: d.act.clone(),
            state_sha256: d.state_sha256.clone(),
        },
    }
}

fn order(player: &str, nmr: Option<&str>) -> OrderRecord {
    OrderRecord {
        player: player.into(),
        text: format!("game = \"g\"\nplayer = \"{player}\"\nturn = 3\n# \"quoted\" \\ and é\n"),
        sha256: "ab".repeat(32),
        read: vec!["J NE".into(), "W3 holds".into()],
        nmr: nmr.map(Into::into),
        bot: None,
        received: Some("2026-11-01T10:00:00+01:00".into()),
    }
}

fn phases() -> Vec<Phase> {
    let base = Phase {
        turn: 3,
        phase: "move".into(),
        orders: vec![order("red", None), order("blue", Some("bot"))],
        dice: 2,
        rolls: vec![Roll {
            sides: 6,
            value: 4,
            what: "attack on 0915".into(),
            seen_by: Some(vec!["red".into()]),
        }],
        events: vec![
            json!({"kind": "moved", "turn": 9, "orders": [{"player": "x"}],
                            "deadline": "not this one", "nested": [[1, {"seed": "no"}]]}),
        ],
        dropped: vec!["blue".into()],
        excused: vec!["blue".into()],
        state_sha256: "cd".repeat(32),
        resolved_at: "2026-11-02T00:00:00+00:00".into(),
        deadline: Some("2026-11-01T23:00:00+00:00".into()),
    };
    let mut none = base.clone();
    none.orders.clear();
    none.rolls.clear();
    none.events.clear();
    none.dropped.clear();
    none.deadline = None;
    vec![base, none]
}

#[test]
fn every_kind_of_entry_reads_as_its_whole_body_says() {
    let mut bodies: Vec<Body> = phases().into_iter().map(Body::Phase).collect();
    bodies.extend([
        Body::Passwd(Passwd {
            player: "red".into(),
            password: "$argon2id$v=19$m=64,t=1,p=1$c2FsdA$aGFzaA".into(),
            at: "t".into(),
        }),
        Body::Deadline(DeadlineSet {
            deadline: Some("2026-12-01T00:00:00+00:00".into()),
            at: "t".into(),
        }),
        Body::Deadline(DeadlineSet {
            deadline: None,
            at: "t".into(),
        }),
        Body::Reveal(Reveal {
            seed: "the seed".into(),
            at: "t".into(),
        }),
        Body::Resign(Resign {
            player: "red".into(),
            turn: 3,
            events: vec![json!({"kind": "eliminated", "player": "not red", "state_sha256": "no"})],
            state_sha256: "cd".repeat(32),
            at: "t".into(),
        }),
        Body::Draw(DrawEntry {
            player: "blue".into(),
            act: "offer".into(),
            turn: 3,
            events: None,
            state_sha256: None,
            at: "t".into(),
        }),
        Body::Draw(DrawEntry {
            player: "red".into(),
            act: "accept".into(),
            turn: 3,
            events: Some(Vec::new()),
            state_sha256: Some("ef".repeat(32)),
            at: "t".into(),
        }),
    ]);
    for b in &bodies {
        let text = canonical(b);
        assert_eq!(Step::read(&text).unwrap(), of(b), "{text}");
        assert_eq!(Step::read(&text).unwrap().kind(), b.kind());
    }
    // The one event above names fields a step reads; they are not read.
    let Step::Phase(p) = Step::read(&canonical(&bodies[0])).unwrap() else {
        panic!("a phase")
    };
    assert_eq!(p.turn, 3);
    assert_eq!(
        p.orders,
        vec![("red".to_string(), false), ("blue".to_string(), true)]
    );
}

#[test]
fn a_body_missing_what_the_head_follows_from_is_refused_by_name() {
    let phase = serde_json::to_value(Body::Phase(phases().remove(0))).unwrap();
    for field in ["turn", "orders", "state_sha256", "resolved_at"] {
        let mut v = phase.clone();
        v.as_object_mut().unwrap().remove(field);
        let err = Step::read(&v.to_string()).unwrap_err();
        assert!(err.contains(&format!("`{field}`")), "{field}: {err}");
    }
    for (text, says) in [
        (r#"{"kind":"passwd","player":"red","at":"t"}"#, "`password`"),
        (r#"{"kind":"reveal","at":"t"}"#, "`seed`"),
        (r#"{"kind":"treaty","at":"t"}"#, "unknown kind `treaty`"),
        (r#"{"at":"t"}"#, "kind"),
        (r#"{"kind":"phase","turn":"3"}"#, "does not read"),
        (r#"{"kind":"phase","orders":[{"nmr":"bot"}]}"#, "`player`"),
        ("[]", "does not read"),
        ("{\"kind\":\"phase\"", "does not read"),
        ("", "does not read"),
    ] {
        let err = Step::read(text).unwrap_err();
        assert!(err.contains(says), "{text}: {err}");
    }
}

#[test]
fn fields_the_head_does_not_follow_from_are_not_read() {
    // The full decode refuses these; the step skips them unbuilt, and
    // `verify`, which decodes every body, refuses them (tests/it/trust.rs).
    let mut v = serde_json::to_value(Body::Phase(phases().remove(0))).unwrap();
    v["events"] = json!("not a list");
    v["rolls"][0]["sides"] = json!(-1);
    v["orders"][0]["text"] = json!(7);
    let text = v.to_string();
    assert!(serde_json::from_str::<Body>(&text).is_err());
    let Step::Phase(p) = Step::read(&text).unwrap() else {
        panic!("a phase")
    };
    assert_eq!(p.state_sha256, "cd".repeat(32));
}
