//! The trust chain holds (issue 16, "What must hold"): any edit of a game
//! file, hashed again consistently, is caught by `verify` and refused by
//! every other command, naming the entry or field; the dice follow from
//! the seed and the orders; the reports and receipts players keep prove
//! what the archive holds; and no mutant of a game file makes herald panic.
//!
//! Edits are made three ways: by someone without the game's key (the chain
//! hashed again, the signatures left as they were), by the moderator (hashed
//! again and re-signed with the game's own key), and by someone who signs
//! the whole file again with a key of their own (caught by the game
//! folder's key file, or by `verify --key`).

use crate::common::{herald, lines, rehash, reseal, write_lines};
use crate::store::{
    copy_dir, first_legal, mail, maildir, ok, phases, s, secrets_passwords, template, template_dir,
    Spot, LATER, NEW,
};
use herald::chain::keys::Domain;
use herald::chain::Signer;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A small resolved game: Norse Wars, red and blue, seed 9, a deadline
/// every day; four phases, then a new password for blue and a deadline
/// set by hand (log entries 0 genesis, 1–4 phases, 5 passwd, 6 deadline).
struct Played {
    game: PathBuf,
    /// An order file of the player awaited now, with their password.
    orders: PathBuf,
    seed: &'static str,
}

fn played() -> &'static Played {
    static P: OnceLock<Played> = OnceLock::new();
    P.get_or_init(|| {
        let dir = template_dir("trust-template");
        let game = dir.join("game");
        let seed = "9";
        ok(&[
            "new",
            "norse-wars",
            "--players",
            "red,blue",
            "--seed",
            seed,
            "--out",
            s(&game),
            "--now",
            NEW,
            "--deadline-every",
            "24h",
        ]);
        let pw = secrets_passwords(&game);
        let id = crate::common::head(&game)["id"]
            .as_str()
            .unwrap()
            .to_string();
        for turn in 0..4u32 {
            let who = crate::common::head(&game)["awaiting"][0]
                .as_str()
                .unwrap()
                .to_string();
            let f = dir.join(format!("t{turn}.toml"));
            let orders = first_legal(&game, &who);
            std::fs::write(
                &f,
                herald::report::order_file(&id, &who, turn, &pw[&who], &orders),
            )
            .unwrap();
            let at = format!("2026-11-22T1{}:00:00Z", turn + 3);
            ok(&["resolve", s(&game), s(&f), "--now", &at]);
        }
        ok(&[
            "passwd",
            s(&game),
            "--player",
            "blue",
            "--now",
            "2026-11-22T17:00:00Z",
        ]);
        ok(&[
            "deadline",
            s(&game),
            "+48h",
            "--now",
            "2026-11-22T18:00:00Z",
        ]);
        let pw = secrets_passwords(&game);
        let who = crate::common::head(&game)["awaiting"][0]
            .as_str()
            .unwrap()
            .to_string();
        let orders = dir.join("next.toml");
        std::fs::write(
            &orders,
            herald::report::order_file(&id, &who, 4, &pw[&who], &first_legal(&game, &who)),
        )
        .unwrap();
        ok(&["check", s(&game), s(&orders)]);
        Played { game, orders, seed }
    })
}

/// Sign every entry and the head record again with `key`.
fn sign_with(key: &Signer, lines: &mut [Value]) {
    for l in lines.iter_mut().skip(1) {
        let hash = l["hash"].as_str().unwrap().to_string();
        l["sig"] = key.sign(Domain::Entry, hash.as_bytes()).into();
    }
    let head = serde_json::to_string(&lines[0]["head"]).unwrap();
    let digest = herald::chain::canon::sha256_hex(head.as_bytes());
    lines[0]["seal"] = key.sign(Domain::Head, digest.as_bytes()).into();
}

/// How an edit is hashed and signed again.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Forger {
    /// Without the key: the chain hashed again, the signatures left.
    Stranger,
    /// The moderator: hashed and signed again with the game's key.
    Moderator,
    /// Someone with a key of their own, put in the file in place of the
    /// game's and every line signed with it.
    Impostor,
}

/// One edit of the table: what it changes, and words `verify` must say
/// (one of them) when a stranger made it and when the moderator did.
struct Edit {
    what: &'static str,
    edit: fn(&mut Vec<Value>),
    stranger: &'static [&'static str],
    moderator: &'static [&'static str],
    /// The moderator's edit is caught by `verify` alone (its walk of every
    /// entry and its replay of the rules): the other commands read the head
    /// record and the chain's hashes and signatures, not the history.
    verify_only: bool,
}

fn head(l: &mut [Value]) -> &mut Value {
    &mut l[0]["head"]
}

/// Log entry `i`'s body (line `i + 1` of the file).
fn entry(l: &mut [Value], i: usize) -> &mut Value {
    &mut l[i + 1]["body"]
}

/// A new hash for an order record whose text changed.
fn rehash_order(o: &mut Value) {
    let text = o["text"].as_str().unwrap().to_string();
    o["sha256"] = herald::chain::canon::sha256_hex(text.as_bytes()).into();
}

/// The head's state changed by `f`, and its hash with it.
fn set_state(l: &mut [Value], f: impl Fn(&mut Value)) {
    f(&mut head(l)["state"]);
    let h = herald::chain::canon::sha256_hex(
        herald::chain::canon::canonical(&head(l)["state"]).as_bytes(),
    );
    head(l)["state_sha256"] = h.into();
}

/// A JSON value with the first `from` in its text replaced by `to`.
fn replaced(v: &Value, from: &str, to: &str) -> Value {
    let t = serde_json::to_string(v).unwrap();
    assert!(t.contains(from), "{from} not in {t}");
    serde_json::from_str(&t.replacen(from, to, 1)).unwrap()
}

/// The first integer in a JSON value, one more; whether there was one.
fn bump(v: &mut Value) -> bool {
    match v {
        Value::Number(n) if n.is_i64() => {
            *v = (n.as_i64().unwrap() + 1).into();
            true
        }
        Value::Array(a) => a.iter_mut().any(bump),
        Value::Object(m) => m.values_mut().any(bump),
        _ => false,
    }
}

/// The edits (log entries of the played game: 0 genesis, 1–4 the phases
/// of turns 0–3, 5 passwd, 6 deadline).
// Long: one whole fixture or table of cases, set up in one place.
fn edits() -> Vec<Edit> {
    vec![
        Edit {
            what: "swap the two players' password hashes",
            edit: |l| {
                let h = head(l);
                let a = h["players"][0]["password"].clone();
                h["players"][0]["password"] = h["players"][1]["password"].clone();
                h["players"][1]["password"] = a;
            },
            stranger: &["`players[0].password`"],
            moderator: &["`players[0].password`"],
            verify_only: false,
        },
        Edit {
            what: "rename a player",
            edit: |l| {
                let t = serde_json::to_string(head(l)).unwrap();
                *head(l) = serde_json::from_str(&t.replace("\"blue\"", "\"bleu\"")).unwrap();
            },
            stranger: &["`players[1].id`"],
            moderator: &["`players[1].id`"],
            verify_only: false,
        },
        Edit {
            what: "the missed-order policy",
            edit: |l| head(l)["nmr"] = "hold".into(),
            stranger: &["`nmr`"],
            moderator: &["`nmr`"],
            verify_only: false,
        },
        Edit {
            what: "drop_after",
            edit: |l| head(l)["drop_after"] = 0.into(),
            stranger: &["`drop_after`"],
            moderator: &["`drop_after`"],
            verify_only: false,
        },
        Edit {
            what: "deadline_every",
            edit: |l| head(l)["deadline_every"] = 60.into(),
            stranger: &["`deadline_every`"],
            moderator: &["`deadline_every`"],
            verify_only: false,
        },
        Edit {
            what: "the current deadline",
            edit: |l| head(l)["deadline"] = "2030-01-01T00:00:00+00:00".into(),
            stranger: &["`deadline`"],
            moderator: &["`deadline`"],
            verify_only: false,
        },
        Edit {
            what: "an option",
            edit: |l| head(l)["options"]["fog"] = "true".into(),
            stranger: &["`options`"],
            moderator: &["`options`"],
            verify_only: false,
        },
        Edit {
            what: "the ruleset's sha256 in the head",
            edit: |l| head(l)["ruleset"]["sha256"] = "0".repeat(64).into(),
            stranger: &["`ruleset`"],
            moderator: &["entry 0 (genesis): ruleset does not match the head record"],
            verify_only: false,
        },
        Edit {
            what: "the seed commitment",
            edit: |l| {
                head(l)["seed_commitment"] =
                    herald::chain::canon::sha256_hex(b"another seed").into()
            },
            stranger: &["`seed_commitment`"],
            moderator: &["entry 0 (genesis): seed_commitment does not match"],
            verify_only: false,
        },
        Edit {
            what: "the key in the head",
            edit: |l| head(l)["key"] = Signer::from_bytes([7; 32]).public().to_string().into(),
            stranger: &["entry 0 (genesis) is not signed by the game's key"],
            moderator: &["entry 0 (genesis) is not signed by the game's key"],
            verify_only: false,
        },
        Edit {
            what: "the turn",
            edit: |l| head(l)["turn"] = 3.into(),
            stranger: &["`turn`"],
            moderator: &["`turn`"],
            verify_only: false,
        },
        Edit {
            what: "the missed counts",
            edit: |l| head(l)["missed"][0]["total"] = 2.into(),
            stranger: &["`missed`"],
            moderator: &["`missed`"],
            verify_only: false,
        },
        Edit {
            what: "the state, its hash with it",
            edit: |l| set_state(l, |st| *st = replaced(st, "\"q\":0", "\"q\":1")),
            stranger: &["`state_sha256`"],
            moderator: &["head record: state_sha256 is not the state the log ends in"],
            verify_only: false,
        },
        Edit {
            what: "the state alone",
            edit: |l| head(l)["state"] = replaced(&head(l)["state"], "\"q\":0", "\"q\":1"),
            stranger: &["`state` is not the state the log ends in"],
            moderator: &["head record: the state does not match state_sha256"],
            verify_only: false,
        },
        Edit {
            what: "the players in the genesis",
            edit: |l| entry(l, 0)["players"][1]["id"] = "bleu".into(),
            stranger: &["entry 0 (genesis) is not signed"],
            moderator: &["entry 5 (passwd): `blue` is not a player"],
            verify_only: false,
        },
        Edit {
            what: "a ruleset value inside the genesis, its sha256 with it",
            edit: |l| {
                let g = entry(l, 0);
                let text = g["ruleset"]["text"].as_str().unwrap();
                assert!(text.contains("\nwarriors = 5"));
                let text = text.replacen("\nwarriors = 5", "\nwarriors = 4", 1);
                let sha = herald::chain::canon::sha256_hex(text.as_bytes());
                g["ruleset"]["text"] = text.into();
                g["ruleset"]["sha256"] = sha.clone().into();
                head(l)["ruleset"]["sha256"] = sha.into();
            },
            stranger: &["entry 0 (genesis) is not signed"],
            moderator: &[
                "entry 0 (genesis): the seed and options do not give the recorded initial state",
            ],
            verify_only: true,
        },
        Edit {
            what: "an order in a phase entry, its hash with it",
            edit: |l| {
                let o = &mut entry(l, 2)["orders"][0];
                let read = o["read"][0].as_str().unwrap().to_string();
                let text = o["text"].as_str().unwrap().replace(&read, "J NE");
                o["text"] = text.into();
                o["read"][0] = "J NE".into();
                rehash_order(o);
            },
            stranger: &["entry 2 (phase, turn 1) is not signed"],
            moderator: &["entry 2 (phase, turn 1)"],
            verify_only: true,
        },
        Edit {
            what: "an order's text, not its hash",
            edit: |l| {
                let o = &mut entry(l, 2)["orders"][0];
                let text = o["text"]
                    .as_str()
                    .unwrap()
                    .replace("turn = 1", "turn = 1\n");
                o["text"] = text.into();
            },
            stranger: &["entry 2 (phase, turn 1) is not signed"],
            moderator: &[
                "entry 2 (phase, turn 1): the order file of blue does not match its sha256",
            ],
            verify_only: true,
        },
        Edit {
            what: "an event",
            edit: |l| {
                assert!(bump(&mut entry(l, 3)["events"][0]));
            },
            stranger: &["entry 3 (phase, turn 2) is not signed"],
            moderator: &["entry 3 (phase, turn 2): the replayed events differ"],
            verify_only: true,
        },
        Edit {
            // A field the head does not follow from: every command reads
            // the log's entries only as far as the head needs (issue 17),
            // so only verify, which decodes every body, finds it.
            what: "a phase entry's events made unreadable",
            edit: |l| entry(l, 3)["events"] = "lost".into(),
            stranger: &["entry 3 (phase, turn 2) is not signed"],
            moderator: &["entry 3 (phase, turn 2): its body does not read"],
            verify_only: true,
        },
        Edit {
            what: "an order file's player in a phase entry made unreadable",
            edit: |l| entry(l, 3)["orders"][0]["player"] = 7.into(),
            stranger: &["entry 3 (phase, turn 2) is not signed"],
            moderator: &["entry 3 (phase, turn 2): its body does not read"],
            verify_only: false,
        },
        Edit {
            what: "a roll added to a phase",
            edit: |l| {
                entry(l, 4)["rolls"] =
                    json!([{"sides": 6, "value": 6, "what": "a die no one rolled"}])
            },
            stranger: &["entry 4 (phase, turn 3) is not signed"],
            moderator: &["entry 4 (phase, turn 3): the replayed rolls differ"],
            verify_only: true,
        },
        Edit {
            what: "a phase's orders given to a player who is not one",
            edit: |l| entry(l, 4)["orders"][0]["player"] = "mallory".into(),
            stranger: &["entry 4 (phase, turn 3) is not signed"],
            moderator: &["entry 4 (phase, turn 3): `mallory` is not a player"],
            verify_only: true,
        },
        Edit {
            what: "the last entry cut off",
            edit: |l| {
                l.pop();
            },
            stranger: &["`deadline`"],
            moderator: &["`deadline`"],
            verify_only: false,
        },
        Edit {
            what: "a middle entry removed",
            edit: |l| {
                l.remove(3);
            },
            stranger: &["entry 2 (phase, turn 2) is not signed"],
            moderator: &["entry 2 resolves turn 2 where turn 1 was due"],
            verify_only: false,
        },
        Edit {
            what: "two phases swapped",
            edit: |l| l.swap(2, 3),
            stranger: &["entry 1 (phase, turn 1) is not signed"],
            moderator: &["entry 1 resolves turn 1 where turn 0 was due"],
            verify_only: false,
        },
        Edit {
            what: "a forged passwd entry appended",
            edit: |l| {
                let mut e = l[6].clone();
                assert_eq!(e["body"]["kind"], "passwd");
                e["body"]["player"] = "red".into();
                l.push(e);
            },
            stranger: &["entry 7 (passwd) is not signed"],
            moderator: &["`players[0].password`"],
            verify_only: false,
        },
    ]
}

/// Make an edit in a copy of the played game, as `forger` would.
fn forge(edit: &Edit, forger: Forger, to: &Path) {
    copy_dir(&played().game, to);
    let mut l = lines(to);
    (edit.edit)(&mut l);
    if forger == Forger::Impostor {
        let key = Signer::from_bytes([42; 32]);
        let k: Value = key.public().to_string().into();
        l[0]["head"]["key"] = k.clone();
        l[1]["body"]["key"] = k;
        rehash(&mut l);
        sign_with(&key, &mut l);
    } else {
        rehash(&mut l);
        if forger == Forger::Moderator {
            reseal(to, &mut l);
        }
    }
    write_lines(to, &l);
}

/// Every command run on a game: what each said (a command that changed
/// the folder says so). Nothing may panic.
fn run_all(game: &Path) -> Vec<(String, i32, String)> {
    let p = played();
    let before = crate::store::snapshot(game);
    let g = s(game);
    let o = s(&p.orders);
    let mut out = Vec::new();
    for args in [
        vec!["verify", g],
        vec!["status", g],
        vec!["check", g, o],
        vec!["resolve", g, o, "--now", "2026-11-23T12:00:00Z"],
        vec!["report", g, "--player", "red"],
    ] {
        let (code, stdout, err) = herald(&args);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let mut said = format!("{stdout}{err}");
        if before != crate::store::snapshot(game) {
            said.push_str("\n(and it changed the game folder)");
        }
        out.push((args[0].to_string(), code, said));
    }
    out
}

#[test]
fn every_edit_of_a_game_file_is_caught_and_refused_everywhere() {
    let spot = Spot::new("edits");
    let mut failures = Vec::new();
    let mut n = 0;
    // The unedited game passes everything.
    let pristine = spot.join("pristine");
    copy_dir(&played().game, &pristine);
    for (cmd, code, said) in run_all(&pristine) {
        assert_eq!(code, 0, "{cmd} on the game as played: {said}");
    }
    for (k, e) in edits().iter().enumerate() {
        for forger in [Forger::Stranger, Forger::Moderator, Forger::Impostor] {
            n += 1;
            let g = spot.join(&format!("e{k}-{forger:?}"));
            forge(e, forger, &g);
            let results = run_all(&g);
            let said = |cmd: &str| results.iter().find(|r| r.0 == cmd).unwrap();
            let (_, vcode, vsaid) = said("verify");
            let want: &[&str] = match forger {
                Forger::Stranger => e.stranger,
                Forger::Moderator => e.moderator,
                // Whole and consistent, only the key shows it; an edit that
                // does not hold together is named as the moderator's is.
                Forger::Impostor => &["is not this game's"],
            };
            let want: Vec<&str> = match forger {
                Forger::Impostor => want.iter().chain(e.moderator).copied().collect(),
                _ => want.to_vec(),
            };
            let mut wrong = Vec::new();
            if *vcode != 1 || !want.iter().any(|w| vsaid.contains(w)) {
                wrong.push(format!(
                    "verify (exit {vcode}) should say one of {want:?}:\n{vsaid}"
                ));
            }
            if !(forger == Forger::Moderator && e.verify_only) {
                for (cmd, code, out) in results.iter().filter(|r| r.0 != "verify") {
                    if *code != 1 || !out.contains("game.jsonl") && !out.contains("moderator.key") {
                        wrong.push(format!("{cmd} (exit {code}) accepts it:\n{out}"));
                    }
                }
            }
            if wrong.is_empty() {
                let _ = std::fs::remove_dir_all(&g);
            } else {
                failures.push(format!("{} ({forger:?}):\n{}", e.what, wrong.join("\n")));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {n} forged files were not refused as they should be:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("{n} forged game files: each caught by verify and refused by every command");
}

/// A signature changed with nothing else (zeroed, or copied from another
/// entry): the chain's hashes and the seal still hold, since they bind the
/// entries' hashes, not their signatures; every command checks every
/// signature, and refuses it naming the entry.
#[test]
fn a_changed_signature_is_refused_by_every_command() {
    let spot = Spot::new("sigs");
    let edits: [(&str, fn(&mut Vec<Value>)); 3] = [
        ("zeroed", |l| l[3]["sig"] = "0".repeat(128).into()),
        ("copied from another entry", |l| {
            l[3]["sig"] = l[2]["sig"].clone()
        }),
        ("of the last entry, copied from the first", |l| {
            let n = l.len() - 1;
            l[n]["sig"] = l[1]["sig"].clone();
        }),
    ];
    for (k, (what, edit)) in edits.iter().enumerate() {
        let g = spot.join(&format!("s{k}"));
        copy_dir(&played().game, &g);
        let mut l = lines(&g);
        edit(&mut l);
        write_lines(&g, &l);
        for (cmd, code, said) in run_all(&g) {
            assert_eq!(code, 1, "{what}: {cmd} accepts it: {said}");
            assert!(
                said.contains("is not signed by the game's key"),
                "{what}: {cmd}: {said}"
            );
            assert!(!said.contains("changed the game folder"), "{what}: {cmd}");
        }
    }
}

/// A password hash re-signed by the moderator's key with Argon2 settings
/// of its own (4 GiB, 100 passes): refused by every command when the game
/// is opened, before any hashing, at once.
#[test]
fn argon2_settings_outside_herald_s_own_are_refused_before_hashing() {
    let spot = Spot::new("argon2-settings");
    let g = spot.join("g");
    copy_dir(&played().game, &g);
    let mut l = lines(&g);
    let huge = |h: &str| {
        let rest = h.splitn(5, '$').nth(4).unwrap();
        format!("$argon2id$v=19$m=4194304,t=100,p=1${rest}")
    };
    let red = huge(l[0]["head"]["players"][0]["password"].as_str().unwrap());
    l[0]["head"]["players"][0]["password"] = red.clone().into();
    l[1]["body"]["players"][0]["password"] = red.into();
    rehash(&mut l);
    reseal(&g, &mut l);
    write_lines(&g, &l);
    let start = Instant::now();
    for (cmd, code, said) in run_all(&g) {
        assert_eq!(code, 1, "{cmd}: {said}");
        assert!(said.contains("are not herald's own"), "{cmd}: {said}");
    }
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

/// One field of a game file edited so that it breaks its rule, the whole
/// file signed again with the game's own key: what `verify` must say.
struct FieldEdit {
    field: &'static str,
    edit: fn(&mut Vec<Value>),
    says: &'static str,
    /// Refused by every command too (the rule is checked on every open).
    everywhere: bool,
}

/// Every field of docs/trust.md's table that a rule checks (not only the
/// replay), edited against its rule and re-signed with the moderator's
/// key: `verify` names it.
fn field_edits() -> Vec<FieldEdit> {
    vec![
        FieldEdit {
            field: "genesis.herald",
            edit: |l| entry(l, 0)["herald"] = "9.9.9".into(),
            says: "herald `9.9.9` is not a version of herald",
            everywhere: false,
        },
        FieldEdit {
            field: "head.herald",
            edit: |l| head(l)["herald"] = "0.0.1".into(),
            says: "head record: herald `0.0.1` is not a version of herald",
            everywhere: false,
        },
        FieldEdit {
            field: "genesis.players[].name",
            edit: |l| {
                // (a game of format 8 may name its players: a name that is
                // no display name, a space at its end, is refused)
                entry(l, 0)["players"][0]["name"] = "Red Baron ".into();
                head(l)["players"][0]["name"] = "Red Baron ".into();
            },
            says: "players[0].name `Red Baron ` is not a display name",
            everywhere: false,
        },
        FieldEdit {
            field: "genesis.players[].email",
            edit: |l| {
                entry(l, 0)["players"][0]["email"] = "red@example.org".into();
                head(l)["players"][0]["email"] = "red@example.org".into();
            },
            says: "holds a mail address, which a game file of format",
            everywhere: true,
        },
        FieldEdit {
            field: "genesis.moderator",
            edit: |l| {
                entry(l, 0)["moderator"] = "nobody".into();
                head(l)["moderator"] = "nobody".into();
            },
            says: "moderator `nobody` is not a mail address",
            everywhere: false,
        },
        FieldEdit {
            field: "genesis.created",
            edit: |l| {
                entry(l, 0)["created"] = "2026-11-22T13:30:00+00:00".into();
                head(l)["created"] = "2026-11-22T13:30:00+00:00".into();
            },
            says: "is before the time of the entry before it",
            everywhere: false,
        },
        FieldEdit {
            field: "genesis.nmr",
            edit: |l| {
                entry(l, 0)["nmr"] = "coinflip".into();
                head(l)["nmr"] = "coinflip".into();
            },
            says: "nmr `coinflip` is not a missed-order policy",
            everywhere: false,
        },
        FieldEdit {
            field: "genesis.options",
            edit: |l| {
                entry(l, 0)["options"]["fog"] = "maybe".into();
                head(l)["options"]["fog"] = "maybe".into();
            },
            says: "fog=maybe",
            everywhere: false,
        },
        FieldEdit {
            field: "genesis.ruleset.name",
            edit: |l| {
                entry(l, 0)["ruleset"]["name"] = "hexwar".into();
                head(l)["ruleset"]["name"] = "hexwar".into();
            },
            says: "ruleset.name `hexwar` is not the game `norse-wars`",
            everywhere: false,
        },
        FieldEdit {
            field: "phase.resolved_at",
            edit: |l| entry(l, 3)["resolved_at"] = "2026-11-22T13:30:00+00:00".into(),
            says: "entry 3 (phase, turn 2): resolved_at 2026-11-22T13:30:00+00:00 is before",
            everywhere: false,
        },
        FieldEdit {
            field: "phase.resolved_at (between its neighbours)",
            edit: |l| entry(l, 2)["resolved_at"] = "2026-11-22T14:30:00+00:00".into(),
            says: "entry 3 (phase, turn 2): its deadline",
            everywhere: false,
        },
        FieldEdit {
            field: "phase.deadline",
            edit: |l| entry(l, 2)["deadline"] = "2026-11-30T00:00:00+00:00".into(),
            says: "entry 2 (phase, turn 1): its deadline 2026-11-30T00:00:00+00:00 is not the one the log gives",
            everywhere: false,
        },
        FieldEdit {
            field: "phase.orders[].received",
            edit: |l| entry(l, 2)["orders"][0]["received"] = "2026-11-23T09:00:00Z".into(),
            says: "were received (2026-11-23T09:00:00Z) after the phase was resolved",
            everywhere: false,
        },
        FieldEdit {
            field: "phase.orders[].received (not a time)",
            edit: |l| entry(l, 2)["orders"][0]["received"] = "yesterday".into(),
            says: "received `yesterday` is not a time",
            everywhere: false,
        },
        FieldEdit {
            field: "phase.orders[].nmr (a player's own orders relabelled a stand-in)",
            edit: |l| {
                entry(l, 2)["orders"][0]["nmr"] = "hold".into();
                // The missed counts made to agree, as a careful forger would.
                let mut text = String::new();
                for x in l.iter() {
                    text.push_str(&serde_json::to_string(x).unwrap());
                    text.push('\n');
                }
                let r = herald::chain::Record::parse(&text).unwrap();
                let d = herald::chain::check::derive(&r).unwrap();
                head(l)["missed"] = serde_json::to_value(&d.missed).unwrap();
            },
            says: "entry 2 (phase, turn 1): the recorded orders are refused on replay",
            everywhere: false,
        },
        FieldEdit {
            field: "phase.dice",
            edit: |l| entry(l, 1)["dice"] = 1.into(),
            says: "dice 1 (the seed alone) marks a phase carried over from format 1",
            everywhere: false,
        },
        FieldEdit {
            field: "passwd.password (Argon2 settings)",
            edit: |l| {
                let h = entry(l, 5)["password"].as_str().unwrap().to_string();
                let rest = h.splitn(5, '$').nth(4).unwrap().to_string();
                let bad = format!("$argon2id$v=19$m=65536,t=3,p=4${rest}");
                entry(l, 5)["password"] = bad.clone().into();
                head(l)["players"][1]["password"] = bad.into();
            },
            says: "are not herald's own",
            everywhere: true,
        },
        FieldEdit {
            field: "passwd.at",
            edit: |l| entry(l, 5)["at"] = "2026-11-22T12:30:00+00:00".into(),
            says: "entry 5 (passwd): at 2026-11-22T12:30:00+00:00 is before",
            everywhere: false,
        },
        FieldEdit {
            field: "deadline.deadline",
            edit: |l| {
                entry(l, 6)["deadline"] = "not a time".into();
                head(l)["deadline"] = "not a time".into();
            },
            says: "is not a time (RFC 3339)",
            everywhere: true,
        },
        FieldEdit {
            field: "deadline.at",
            edit: |l| entry(l, 6)["at"] = "not a time".into(),
            says: "entry 6 (deadline): at `not a time` is not a time",
            everywhere: false,
        },
    ]
}

#[test]
fn every_field_verify_checks_by_a_rule_is_named_when_a_re_signed_edit_breaks_it() {
    let spot = Spot::new("field-edits");
    let mut failures = Vec::new();
    let edits = field_edits();
    for (k, e) in edits.iter().enumerate() {
        let g = spot.join(&format!("f{k}"));
        copy_dir(&played().game, &g);
        let mut l = lines(&g);
        (e.edit)(&mut l);
        rehash(&mut l);
        reseal(&g, &mut l);
        write_lines(&g, &l);
        let (code, out, err) = herald(&["verify", s(&g)]);
        if code != 1 || !err.contains(e.says) {
            failures.push(format!(
                "{}: verify (exit {code}) should say {:?}:\n{out}{err}",
                e.field, e.says
            ));
        }
        if e.everywhere {
            for (cmd, code, said) in run_all(&g) {
                if code != 1 || !said.contains(e.says) {
                    failures.push(format!(
                        "{}: {cmd} (exit {code}) accepts it: {said}",
                        e.field
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!(
        "{} re-signed field edits: each named by verify",
        edits.len()
    );
}

/// A ruleset herald never shipped (a value changed in the genesis's text,
/// its sha256 with it, every line signed again by the game's key) is
/// named by `verify`, with its first difference from herald's own, even
/// where the replay cannot tell (a value no phase so far used).
#[test]
fn verify_names_a_ruleset_herald_never_shipped() {
    let spot = Spot::new("ruleset-note");
    let g = spot.join("g");
    copy_dir(&played().game, &g);
    let out = ok(&["verify", s(&g)]);
    assert!(!out.contains("note:"), "{out}");
    let mut l = lines(&g);
    let text = entry(&mut l, 0)["ruleset"]["text"]
        .as_str()
        .unwrap()
        .to_string();
    let line = text
        .lines()
        .find(|x| x.trim_start().starts_with("title"))
        .unwrap_or_else(|| text.lines().find(|x| x.contains('=')).unwrap());
    let changed = text.replacen(line, &format!("{line} # changed"), 1);
    let sha = herald::chain::canon::sha256_hex(changed.as_bytes());
    entry(&mut l, 0)["ruleset"]["text"] = changed.into();
    entry(&mut l, 0)["ruleset"]["sha256"] = sha.clone().into();
    head(&mut l)["ruleset"]["sha256"] = sha.into();
    rehash(&mut l);
    reseal(&g, &mut l);
    write_lines(&g, &l);
    let (_, out, err) = herald(&["verify", s(&g)]);
    assert!(
        out.contains("note: the ruleset") && out.contains("is not a ruleset herald has shipped"),
        "{out}{err}"
    );
    assert!(out.contains("# changed"), "{out}");
}

#[test]
fn every_shipped_ruleset_is_known() {
    for entry in herald::games::REGISTRY {
        let sha = herald::chain::canon::sha256_hex(entry.ruleset.as_bytes());
        assert!(
            herald::pipeline::replay::SHIPPED_RULESETS
                .iter()
                .any(|(g, h)| *g == entry.name && *h == sha),
            "games/{}.toml changed: add its sha256 {sha} to SHIPPED_RULESETS (src/pipeline/replay.rs), keeping the old ones",
            entry.name
        );
    }
}

/// A copy of the game file alone, as published, rewritten whole (the
/// players' password hashes swapped in the genesis and the head alike)
/// and signed with another key than the moderator's: it holds together,
/// so only the moderator's key shows it: `verify --key` with the key every
/// report prints refuses it.
#[test]
fn a_published_copy_signed_with_another_key_fails_verify_key() {
    let spot = Spot::new("impostor-copy");
    let edit = Edit {
        what: "swap the password hashes everywhere",
        edit: |l| {
            let p = &mut l[1]["body"]["players"];
            let a = p[0]["password"].clone();
            p[0]["password"] = p[1]["password"].clone();
            p[1]["password"] = a;
            // blue's password was changed since (entry 5): only red's
            // changes in the head.
            let red = l[1]["body"]["players"][0]["password"].clone();
            l[0]["head"]["players"][0]["password"] = red;
        },
        stranger: &[],
        moderator: &[],
        verify_only: false,
    };
    let g = spot.join("forged");
    forge(&edit, Forger::Impostor, &g);
    let (code, out, err) = herald(&["verify", s(&g.join("game.jsonl"))]);
    assert_eq!(code, 1, "the game folder's key shows it: {out}{err}");
    let copy = spot.join("published");
    std::fs::create_dir(&copy).unwrap();
    std::fs::copy(g.join("game.jsonl"), copy.join("game.jsonl")).unwrap();
    let key = crate::common::head(&played().game)["key"]
        .as_str()
        .unwrap()
        .to_string();
    let (code, out, err) = herald(&["verify", s(&copy.join("game.jsonl")), "--key", &key]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("not the moderator's file"), "{err}");
    // The genuine copy passes with the same key.
    let genuine = spot.join("genuine");
    std::fs::create_dir(&genuine).unwrap();
    std::fs::copy(played().game.join("game.jsonl"), genuine.join("game.jsonl")).unwrap();
    let out = ok(&["verify", s(&genuine.join("game.jsonl")), "--key", &key]);
    assert!(
        out.contains("not replayed"),
        "no seed in a published copy: {out}"
    );
    let out = ok(&[
        "verify",
        s(&genuine.join("game.jsonl")),
        "--key",
        &key,
        "--seed",
        played().seed,
    ]);
    assert!(out.contains("every phase replays"), "{out}");
}

// ---------------------------------------------------------------------------
// Dice
// ---------------------------------------------------------------------------

/// War of the Dukes, Orfburg to attack: I1 and C1 next to Wulfenburg's A1.
const DUKES: &str =
    "orfburg = [\"D 3019\", \"I1 2512\", \"C1 2611\"]\nwulfenburg = [\"D 0101\", \"A1 2612\"]\n";

fn dukes(spot: &Spot, seed: &str) -> PathBuf {
    let pos = spot.join("position.toml");
    std::fs::write(&pos, DUKES).unwrap();
    let g = spot.join(&format!("dukes-{seed}"));
    ok(&[
        "new",
        "war-of-the-dukes",
        "--players",
        "orfburg,wulfenburg",
        "--seed",
        seed,
        "--setup",
        s(&pos),
        "--out",
        s(&g),
        "--now",
        NEW,
    ]);
    g
}

/// The dice of the last phase, as logged.
fn rolls(game: &Path) -> Vec<(u64, u64, String)> {
    let p = phases(game);
    p.last().unwrap()["rolls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["sides"].as_u64().unwrap(),
                r["value"].as_u64().unwrap(),
                r["what"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn the_dice_follow_from_the_seed_and_the_orders() {
    let spot = Spot::new("dice");
    let g = dukes(&spot, "3");
    let pw = secrets_passwords(&g);
    let id = crate::common::head(&g)["id"].as_str().unwrap().to_string();
    let file = |name: &str, orders: &[String]| {
        let f = spot.join(name);
        std::fs::write(
            &f,
            herald::report::order_file(&id, "orfburg", 0, &pw["orfburg"], orders),
        )
        .unwrap();
        f
    };
    let attack = "attack 2612 with I1 C1".to_string();
    // Same seed, same orders: the same bytes.
    let f = file("attack.toml", std::slice::from_ref(&attack));
    let mut files = Vec::new();
    for k in 0..2 {
        let c = spot.join(&format!("same-{k}"));
        copy_dir(&g, &c);
        ok(&["resolve", s(&c), s(&f), "--now", LATER]);
        files.push(std::fs::read(c.join("game.jsonl")).unwrap());
        assert_eq!(rolls(&c).len(), 1, "one attack, one die");
    }
    assert_eq!(
        files[0], files[1],
        "the same seed and orders gave other bytes"
    );
    // Same seed, other accepted orders (the Duke moves first, each time
    // elsewhere; the attack is the same): other dice.
    let (_, loaded) = herald::pipeline::open(&g).unwrap();
    let duke_moves: Vec<String> = loaded
        .rules
        .legal_orders(&loaded.state, 0)
        .into_iter()
        .filter(|set| set.len() == 1 && set[0].starts_with("D "))
        .map(|set| set[0].clone())
        .take(8)
        .collect();
    assert!(duke_moves.len() >= 5, "{duke_moves:?}");
    let mut values = std::collections::BTreeSet::new();
    let mut logged = Vec::new();
    for (k, m) in duke_moves.iter().enumerate() {
        let c = spot.join(&format!("other-{k}"));
        copy_dir(&g, &c);
        let f = file(&format!("o{k}.toml"), &[m.clone(), attack.clone()]);
        ok(&["resolve", s(&c), s(&f), "--now", LATER]);
        let r = rolls(&c);
        assert_eq!(r.len(), 1, "{r:?}");
        assert!(
            r[0].2.contains("2612"),
            "the roll says what it decided: {r:?}"
        );
        values.insert(r[0].1);
        logged.push(r[0].1);
        // The roll is re-derived by verify, and its log is checked.
        ok(&["verify", s(&c)]);
    }
    assert!(
        values.len() >= 2,
        "{} different orders, the same die every time: {logged:?}",
        duke_moves.len()
    );
    // verify --seed: the right seed replays every roll, a wrong one is
    // refused naming the commitment.
    let c = spot.join("same-0");
    let published = spot.join("published");
    std::fs::create_dir(&published).unwrap();
    std::fs::copy(c.join("game.jsonl"), published.join("game.jsonl")).unwrap();
    let out = ok(&["verify", s(&published), "--seed", "3"]);
    assert!(out.contains("every roll re-derived"), "{out}");
    for wrong in ["4", "3 ", ""] {
        let (code, out, err) = herald(&["verify", s(&published), "--seed", wrong]);
        assert_eq!(code, 1, "--seed {wrong:?}: {out}{err}");
        assert!(err.contains("commitment"), "{err}");
    }
    // A logged roll changed and re-signed by the moderator: verify names it.
    let mut l = lines(&c);
    let last = l.len() - 1;
    let v = l[last]["body"]["rolls"][0]["value"].as_u64().unwrap();
    l[last]["body"]["rolls"][0]["value"] = (v % 6 + 1).into();
    rehash(&mut l);
    reseal(&c, &mut l);
    write_lines(&c, &l);
    let (code, _, err) = herald(&["verify", s(&c)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("entry 1 (phase, turn 0)") && err.contains("rolls"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// Witnesses
// ---------------------------------------------------------------------------

fn files_in(dir: &Path) -> Vec<String> {
    let mut f: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path().to_str().unwrap().to_string())
        .collect();
    f.sort();
    f
}

fn verify_with(game: &Path, extra: &[&str], witnesses: &[String]) -> (i32, String) {
    let mut args = vec!["verify", s(game)];
    args.extend(extra);
    args.push("--witness");
    args.extend(witnesses.iter().map(String::as_str));
    let (code, out, err) = herald(&args);
    assert!(!err.contains("panicked"), "{err}");
    (code, format!("{out}{err}"))
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn a_players_export_and_receipts_witness_the_archive() {
    let p = played();
    let spot = Spot::new("witness");
    let g = spot.join("game");
    copy_dir(&p.game, &g);
    let export = spot.join("red");
    ok(&["export", s(&g), "--player", "red", "--out", s(&export)]);
    let kept = files_in(&export);
    assert!(kept.len() >= 6, "{kept:?}");
    let (code, out) = verify_with(&g, &[], &kept);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("the archive holds exactly what"), "{out}");
    // On its own against the published game file (the seed given: the
    // game is not over, so the reports cannot be re-rendered without it).
    let published = spot.join("published");
    std::fs::create_dir(&published).unwrap();
    std::fs::copy(g.join("game.jsonl"), published.join("game.jsonl")).unwrap();
    let (code, out) = verify_with(&published.join("game.jsonl"), &["--seed", p.seed], &kept);
    assert_eq!(code, 0, "{out}");
    // The moderator rewrites an archive: its last phase undone and
    // resolved again with other orders, a file that verifies on its own.
    // red's last report names a chain head it no longer holds. (A game of
    // two phases, no password changed: see `undo_keeps_passwords` below.)
    let t = template();
    let small = t.copy(&spot.join("small"));
    let f = t.orders(&spot.join("t0.toml"), "red", 0, &["W3 NE 2"]);
    ok(&["resolve", s(&small), s(&f), "--now", LATER]);
    let blue = first_legal(&small, "blue");
    let blue: Vec<&str> = blue.iter().map(String::as_str).collect();
    let f = t.orders(&spot.join("t1.toml"), "blue", 1, &blue);
    ok(&["resolve", s(&small), s(&f), "--now", LATER]);
    let red_kept = spot.join("red-small");
    ok(&[
        "export",
        s(&small),
        "--player",
        "red",
        "--out",
        s(&red_kept),
    ]);
    let small_kept = files_in(&red_kept);
    let rewritten = spot.join("rewritten");
    copy_dir(&small, &rewritten);
    ok(&["undo", s(&rewritten), "--now", LATER]);
    let (_, loaded) = herald::pipeline::open(&rewritten).unwrap();
    let other = loaded
        .rules
        .legal_orders(&loaded.state, 1)
        .into_iter()
        .find(|o| o.iter().map(String::as_str).collect::<Vec<_>>() != blue)
        .unwrap();
    let other: Vec<&str> = other.iter().map(String::as_str).collect();
    let f = t.orders(&spot.join("t1-other.toml"), "blue", 1, &other);
    ok(&["resolve", s(&rewritten), s(&f), "--now", LATER]);
    ok(&["verify", s(&rewritten)]);
    let (code, out) = verify_with(&small, &[], &small_kept);
    assert_eq!(code, 0, "{out}");
    let (code, out) = verify_with(&rewritten, &[], &small_kept);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("report-turn-0002.txt")
            && out.contains("it was rewritten or cut short after this was sent"),
        "{out}"
    );
    assert!(
        !out.contains("report-turn-0001.txt"),
        "turn 1 was not rewritten: {out}"
    );
    // A report rendered from the rewritten archive (signed with the same
    // key): the genuine archive does not hold it.
    let forged = spot.join("forged-report.txt");
    ok(&[
        "report",
        s(&rewritten),
        "--player",
        "red",
        "--out",
        s(&forged),
    ]);
    let (code, out) = verify_with(&small, &[], &[s(&forged).to_string()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("forged-report.txt") && out.contains("chain head"),
        "{out}"
    );
    // A kept report whose text was changed, or whose witness block has one
    // hex digit changed: refused, saying what.
    let last = kept
        .iter()
        .rev()
        .find(|f| f.contains("report-turn"))
        .unwrap();
    let text = std::fs::read_to_string(last).unwrap();
    let changed = spot.join("changed.txt");
    std::fs::write(&changed, text.replacen("turn", "turm", 1)).unwrap();
    let (code, out) = verify_with(&g, &[], &[s(&changed).to_string()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("text above the witness block was changed"),
        "{out}"
    );
    for field in ["signature: ", "chain head: ", "report sha256: "] {
        let at = text.find(field).unwrap() + field.len() + 5;
        let mut bytes = text.clone().into_bytes();
        bytes[at] = if bytes[at] == b'0' { b'1' } else { b'0' };
        let tampered = spot.join("tampered.txt");
        std::fs::write(&tampered, &bytes).unwrap();
        let (code, out) = verify_with(&g, &[], &[s(&tampered).to_string()]);
        assert_eq!(code, 1, "{field}: {out}");
        assert!(out.contains("tampered.txt"), "{out}");
    }
    // A receipt with one digit of its orders' hash changed.
    let orders = kept.iter().find(|f| f.contains("orders-turn")).unwrap();
    let text = std::fs::read_to_string(orders).unwrap();
    let at = text.find("orders sha256: ").unwrap() + 20;
    let mut bytes = text.into_bytes();
    bytes[at] = if bytes[at] == b'a' { b'b' } else { b'a' };
    let tampered = spot.join("receipt.txt");
    std::fs::write(&tampered, &bytes).unwrap();
    let (code, out) = verify_with(&g, &[], &[s(&tampered).to_string()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("signature does not match"), "{out}");
}

/// The receipt in an inbox reply proves the orders are in the resolved
/// phase; the receipt of orders the archive does not hold is named.
#[test]
fn a_receipt_from_an_inbox_reply_verifies() {
    let t = template();
    let spot = Spot::new("receipt");
    let g = t.copy(&spot.join("game"));
    let md = maildir(&spot.join("Maildir"));
    let body = herald::report::order_file(
        &t.id,
        "red",
        0,
        &t.passwords["red"],
        &["W3 NE 2".to_string()],
    );
    mail(
        &md,
        "1.red",
        "red@example.org",
        "Sun, 22 Nov 2026 12:10:00 +0000",
        "<1@r>",
        &body,
    );
    ok(&["inbox", s(&g), s(&md), "--now", "2026-11-22T12:15:00Z"]);
    let replies: Vec<String> = files_in(&g.join("outbox"))
        .into_iter()
        .filter(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .contains("HERALD RECEIPT")
        })
        .collect();
    assert_eq!(replies.len(), 1);
    // Before the resolve: the turn is not in the archive yet.
    let (code, out) = verify_with(&g, &[], &replies);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("not resolved in this archive yet"), "{out}");
    ok(&["resolve", s(&g), "--now", LATER]);
    let (code, out) = verify_with(&g, &[], &replies);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 receipts and reports"), "{out}");
    // Resolved with other orders (the moderator used a file of his own):
    // the receipt names the difference.
    let other = t.copy(&spot.join("other"));
    let f = t.orders(&spot.join("o.toml"), "red", 0, &["W1 SE"]);
    ok(&["resolve", s(&other), s(&f), "--now", LATER]);
    let (code, out) = verify_with(&other, &[], &replies);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("not the ones this receipt names"), "{out}");
}

// ---------------------------------------------------------------------------
// Fuzz
// ---------------------------------------------------------------------------

thread_local! {
    /// Set while [`caught`] runs: where the panic's message goes instead of
    /// stderr (other tests' threads keep the usual hook).
    static CAUGHT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Run `f`, turning a panic into `Err` with its message and place.
fn caught<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let usual = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let mine = CAUGHT.with(|c| {
                let mut c = c.borrow_mut();
                match c.as_mut() {
                    Some(slot) => {
                        *slot = info.to_string();
                        true
                    }
                    None => false,
                }
            });
            if !mine {
                usual(info);
            }
        }));
    });
    CAUGHT.with(|c| *c.borrow_mut() = Some(String::new()));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    let msg = CAUGHT.with(|c| c.borrow_mut().take()).unwrap_or_default();
    r.map_err(|_| msg)
}

/// What `status` and `verify` make of a game file's text, through the
/// library: `Ok` if both accept it.
fn judge(text: &str, store: &herald::store::Store, seed: &str) -> Result<(), String> {
    let now = chrono::DateTime::parse_from_rfc3339(LATER).unwrap();
    let g = herald::pipeline::Loaded::from_text(text, "mutant").map_err(|e| e.to_string())?;
    herald::pipeline::status::text(store, &g, &now).map_err(|e| e.to_string())?;
    let (found, _) = herald::pipeline::replay::verify(&g, Some(seed)).map_err(|e| e.to_string())?;
    if found.is_empty() {
        Ok(())
    } else {
        Err(found.join("; "))
    }
}

/// One mutant of `text`, by the stream `r`.
// Long: one whole fixture or table of cases, set up in one place.
fn mutate(text: &str, r: &mut herald::rng::ChaCha20Rng) -> (String, &'static str) {
    use herald::rng::below;
    let b = text.as_bytes();
    let at = |r: &mut herald::rng::ChaCha20Rng| below(r, b.len() as u32) as usize;
    let lines: Vec<&str> = text.lines().collect();
    let line = |r: &mut herald::rng::ChaCha20Rng| below(r, lines.len() as u32) as usize;
    let join = |l: Vec<&str>| l.join("\n") + "\n";
    let lossy = |v: Vec<u8>| String::from_utf8_lossy(&v).into_owned();
    match below(r, 10) {
        0 => {
            let mut v = b.to_vec();
            let i = at(r);
            v[i] ^= 1 << below(r, 8);
            (lossy(v), "a bit flipped")
        }
        1 => {
            let mut v = b.to_vec();
            let i = at(r);
            v.insert(i, below(r, 256) as u8);
            (lossy(v), "a byte inserted")
        }
        2 => {
            let mut v = b.to_vec();
            let i = at(r);
            let n = 1 + below(r, 40) as usize;
            v.drain(i..(i + n).min(v.len()));
            (lossy(v), "bytes deleted")
        }
        3 => {
            let mut l = lines.clone();
            let i = line(r);
            l.insert(i, lines[i]);
            (join(l), "a line duplicated")
        }
        4 => (lossy(b[..at(r)].to_vec()), "truncated"),
        5 => {
            // A number made huge, negative or fractional.
            let digits: Vec<usize> = (0..b.len())
                .filter(|&i| b[i].is_ascii_digit() && i > 0 && b[i - 1] == b':')
                .collect();
            let i = digits[below(r, digits.len() as u32) as usize];
            let huge = [
                "99999999999999999999999",
                "-1",
                "1e400",
                "4294967296",
                "0.5",
            ][below(r, 5) as usize];
            let mut v = b[..i].to_vec();
            v.extend_from_slice(huge.as_bytes());
            let end = (i..b.len()).find(|&j| !b[j].is_ascii_digit()).unwrap();
            v.extend_from_slice(&b[end..]);
            (lossy(v), "a huge number")
        }
        6 => {
            // Deep nesting where a value stands.
            let colons: Vec<usize> = (0..b.len()).filter(|&i| b[i] == b':').collect();
            let i = colons[below(r, colons.len() as u32) as usize] + 1;
            let depth = 1 + below(r, 100_000) as usize;
            let mut v = b[..i].to_vec();
            v.extend(std::iter::repeat_n(b'[', depth));
            v.extend(std::iter::repeat_n(b']', depth));
            v.push(b',');
            v.extend_from_slice(&b[i..]);
            (lossy(v), "deep nesting")
        }
        7 => {
            let mut l = lines.clone();
            let (i, j) = (line(r), line(r));
            l.swap(i, j);
            (join(l), "two lines swapped")
        }
        8 => {
            let mut l = lines.clone();
            l.remove(line(r));
            (join(l), "a line removed")
        }
        _ => {
            // A hex digit of a hash or signature changed.
            let hex: Vec<usize> = (0..b.len())
                .filter(|&i| b[i].is_ascii_hexdigit() && b[i].is_ascii_lowercase())
                .collect();
            let i = hex[below(r, hex.len() as u32) as usize];
            let mut v = b.to_vec();
            v[i] = if v[i] == b'a' { b'b' } else { b'a' };
            (lossy(v), "a hex digit changed")
        }
    }
}

#[test]
fn mutants_of_a_game_file_are_refused_without_a_panic() {
    let p = played();
    let text = std::fs::read_to_string(p.game.join("game.jsonl")).unwrap();
    let store = herald::store::Store::reader(herald::store::GameDir::at(&p.game));
    judge(&text, &store, p.seed).expect("the game as played passes");
    let budget = crate::common::count("HERALD_FUZZ", 300);
    let mut r = herald::rng::from_u64(16);
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut kinds = std::collections::BTreeMap::new();
    for k in 0..budget {
        let (m, kind) = mutate(&text, &mut r);
        // Without its final newline a file says the same: not a change.
        if m == text || m.trim_end_matches('\n') == text.trim_end_matches('\n') {
            continue;
        }
        *kinds.entry(kind).or_insert(0) += 1;
        match caught(|| judge(&m, &store, p.seed)) {
            Err(panic) => failures.push(format!("mutant {k} ({kind}) {panic}")),
            Ok(Ok(())) => failures.push(format!("mutant {k} ({kind}) accepted")),
            Ok(Err(e)) => assert!(!e.is_empty()),
        }
    }
    let took = started.elapsed();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("fuzz: {budget} mutants of a game file in {took:?}, every one refused: {kinds:?}");
}

/// A game begun in memory from a position, for re-sealed state mutants.
fn in_memory(
    game: &str,
    players: &[&str],
    position: &str,
    tag: &str,
) -> herald::pipeline::create::Begun {
    let spot = Spot::new(tag);
    let pos = spot.join("position.toml");
    std::fs::write(&pos, position).unwrap();
    let mut req = crate::common::engine_request(game, players, "5", Vec::new(), spot.join("g"));
    req.setup = Some(pos);
    herald::pipeline::create::begin(&req).unwrap()
}

/// The game file with its state (head and genesis: the game is at turn 0)
/// replaced by `state`, hashed and sealed again with the game's key.
fn resealed_with_state(b: &herald::pipeline::create::Begun, state: &Value) -> String {
    let text = b.loaded.record.to_text();
    let mut l: Vec<Value> = text
        .lines()
        .map(|x| serde_json::from_str(x).unwrap())
        .collect();
    let sha = herald::chain::canon::sha256_hex(herald::chain::canon::canonical(state).as_bytes());
    l[0]["head"]["state"] = state.clone();
    l[0]["head"]["state_sha256"] = sha.clone().into();
    l[1]["body"]["initial"] = state.clone();
    l[1]["body"]["initial_sha256"] = sha.into();
    rehash(&mut l);
    sign_with(&b.signer, &mut l);
    l.iter()
        .map(|x| serde_json::to_string(x).unwrap() + "\n")
        .collect()
}

/// Every command's work on a game, through the library: load, status,
/// every report form for every player, a check and a resolve of the first
/// legal orders, verify. `Err` names the first command that refused.
fn every_command(text: &str, b: &herald::pipeline::create::Begun) -> Result<(), String> {
    let e = |step: &'static str| move |e: herald::error::Error| format!("{step}: {e}");
    let mut g = herald::pipeline::Loaded::from_text(text, "state mutant").map_err(e("load"))?;
    let now = chrono::DateTime::parse_from_rfc3339(LATER).unwrap();
    let store = herald::store::Store::reader(herald::store::GameDir::at("/nonexistent"));
    herald::pipeline::status::text(&store, &g, &now).map_err(e("status"))?;
    for seat in 0..g.head().players.len() {
        herald::pipeline::render::all(&g, seat, Some(&b.signer)).map_err(e("report"))?;
    }
    let files: Vec<herald::pipeline::Submitted> = g
        .rules
        .awaiting(&g.state)
        .into_iter()
        .map(|seat| {
            let id = g.head().players[seat].id.clone();
            let orders = g
                .rules
                .legal_orders(&g.state, seat)
                .into_iter()
                .next()
                .unwrap_or_default();
            let pw = &b.passwords.iter().find(|p| p.0 == id).unwrap().1;
            herald::pipeline::Submitted::file(
                format!("{id}.toml"),
                herald::report::order_file(&g.head().id, &id, g.head().turn, pw, &orders),
            )
        })
        .collect();
    herald::pipeline::check_orders(&g, &files).map_err(e("check"))?;
    let (found, _) = herald::pipeline::replay::verify(&g, Some(&b.seed)).map_err(e("verify"))?;
    g.resolve_files(&files, LATER, &b.seed, &b.signer)
        .map_err(e("resolve"))?;
    if found.is_empty() {
        Ok(())
    } else {
        Err(format!("verify: {}", found.join("; ")))
    }
}

/// Every place in a JSON value where a number or string stands, with
/// values to put there that a game state should never hold.
fn state_mutants(state: &Value) -> Vec<(String, Value)> {
    fn walk(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    path.push(k.clone());
                    walk(x, path, out);
                    path.pop();
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    path.push(i.to_string());
                    walk(x, path, out);
                    path.pop();
                }
            }
            _ => out.push(path.clone()),
        }
    }
    let mut paths = Vec::new();
    walk(state, &mut Vec::new(), &mut paths);
    let odd = [
        json!(-1),
        json!(99),
        json!(4_294_967_295u64),
        json!(i64::MIN),
        json!("9999"),
        json!("4011"),
        json!(null),
        json!(""),
        json!([]),
    ];
    let mut out = Vec::new();
    for p in &paths {
        for o in &odd {
            let mut s = state.clone();
            let mut at = &mut s;
            for k in p {
                at = match at {
                    Value::Object(m) => m.get_mut(k).unwrap(),
                    Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
                    _ => unreachable!(),
                };
            }
            if at == o {
                continue;
            }
            *at = o.clone();
            out.push((format!("{} = {o}", p.join(".")), s));
        }
    }
    // Whole lists emptied or doubled.
    if let Some(m) = state.as_object() {
        for (k, v) in m {
            if let Some(a) = v.as_array() {
                let mut s = state.clone();
                s[k] = json!([]);
                out.push((format!("{k} emptied"), s));
                let mut s = state.clone();
                let mut twice = a.clone();
                twice.extend(a.iter().cloned());
                s[k] = Value::Array(twice);
                out.push((format!("{k} doubled"), s));
            }
        }
    }
    out
}

/// Re-sealed mutants of the state (a valid chain holding a state the rules
/// never make: a unit off the map, a negative power, a side too many) are
/// refused with an error by every command, never a panic.
#[test]
fn resealed_impossible_states_are_refused_without_a_panic() {
    let games = [
        in_memory(
            "war-of-the-dukes",
            &["orfburg", "wulfenburg"],
            DUKES,
            "state-dukes",
        ),
        in_memory(
            "unfought-battle",
            &["north", "south"],
            "contentious = [\"1,5\", \"5,1\", \"4,4\"]\n[[side]]\nforces = [\"f1 0,0 1\", \"f2 2,3 5\"]\n[[side]]\nforces = [\"f1 6,6 1\", \"f2 4,3 2\"]\n",
            "state-battle",
        ),
    ];
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut steps = std::collections::BTreeMap::new();
    let (mut n, mut panics) = (0, 0);
    for b in &games {
        let game = b.loaded.head().game.clone();
        let text = b.loaded.record.to_text();
        every_command(&text, b).unwrap_or_else(|e| panic!("{game} as begun: {e}"));
        // Every place and value, or an even sample of them within the
        // budget (HERALD_FUZZ_STATES a game), always with every position
        // off the map, every negative and every largest number, and every
        // list emptied and doubled.
        let all = state_mutants(&b.loaded.head().state);
        let budget = crate::common::count("HERALD_FUZZ_STATES", 400).max(1);
        let stride = all.len().div_ceil(budget);
        let plainly = |what: &str| what.ends_with(".at = \"4011\"") || what.ends_with(" = -1");
        let sample = all
            .into_iter()
            .enumerate()
            .filter(|(i, (what, _))| {
                i % stride == 0
                    || plainly(what)
                    || what.contains("4294967295")
                    || what.ends_with("emptied")
                    || what.ends_with("doubled")
            })
            .map(|(_, m)| m);
        for (what, state) in sample {
            n += 1;
            let text = resealed_with_state(b, &state);
            match caught(|| every_command(&text, b)) {
                Err(panic) => {
                    // One line a place in the code, with its first example.
                    let place = panic.lines().next().unwrap_or("").to_string();
                    if !failures.iter().any(|f: &String| f.contains(&place)) {
                        failures.push(format!("{game}, {what}: {panic}"));
                    }
                    panics += 1;
                }
                Ok(Ok(())) => failures.push(format!("{game}, {what}: accepted")),
                Ok(Err(refused)) => {
                    let step = refused.split(':').next().unwrap().to_string();
                    // Off the map, a negative number: refused on loading.
                    if plainly(&what) && step != "load" {
                        failures.push(format!("{game}, {what}: loaded, refused only by {refused}"));
                    }
                    *steps.entry(step).or_insert(0) += 1;
                }
            }
        }
    }
    let took = started.elapsed();
    assert!(
        failures.is_empty(),
        "{panics} of {n} impossible states panicked, at {} places; accepted or first of each:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{n} re-sealed impossible states refused in {took:?}, by: {steps:?}");
    let _ = Duration::ZERO;
}
