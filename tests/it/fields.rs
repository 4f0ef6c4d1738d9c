//! verify checks every field of every entry kind (issue 47, item 5). The
//! fields are enumerated from the code (each entry type's serde field list,
//! read by a deserializer that records what it is asked for), so that a
//! field added without a row in docs/trust.md's "What checks each field"
//! fails here; and every field of a game holding every kind of entry
//! (seat, vacation and its return, named, anonymous and answered press,
//! a phase with `excused`, passwd, deadline, reveal), edited and signed
//! again with the moderator's own key, is named by `verify` or listed in
//! that table as not checkable.

use crate::common::{herald, lines, rehash, reseal, write_lines};
use crate::store::{copy_dir, ok, s, Spot};
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// What a leaf of a field path holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leaf {
    Text,
    Number,
    Bool,
    /// A struct, a list or a map: its own fields are listed too.
    Node,
    /// Any JSON (a state, an event).
    Json,
}

type Sink = RefCell<Vec<(String, Leaf)>>;

/// A deserializer that makes up a value of any type from nothing, noting
/// the path of every field it is asked for.
struct Paths<'a> {
    path: String,
    sink: &'a Sink,
}

impl Paths<'_> {
    fn note(&self, l: Leaf) {
        let mut s = self.sink.borrow_mut();
        if !s.iter().any(|(p, _)| *p == self.path) {
            s.push((self.path.clone(), l));
        }
    }
}

macro_rules! number {
    ($($f:ident $v:ident),*) => {$(
        fn $f<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
            self.note(Leaf::Number);
            v.$v(0)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Paths<'_> {
    type Error = de::value::Error;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        self.note(Leaf::Json);
        v.visit_unit()
    }
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        self.note(Leaf::Bool);
        v.visit_bool(false)
    }
    number!(deserialize_u8 visit_u8, deserialize_u16 visit_u16, deserialize_u32 visit_u32,
        deserialize_u64 visit_u64, deserialize_i8 visit_i8, deserialize_i16 visit_i16,
        deserialize_i32 visit_i32, deserialize_i64 visit_i64);
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        self.note(Leaf::Text);
        v.visit_str("")
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        self.deserialize_str(v)
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        v.visit_some(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        self.note(Leaf::Node);
        v.visit_seq(One {
            path: format!("{}[]", self.path),
            sink: self.sink,
            done: false,
        })
    }
    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        self.note(Leaf::Node);
        v.visit_map(Fields {
            fields: &[],
            i: 0,
            path: self.path,
            sink: self.sink,
        })
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Self::Error> {
        self.note(Leaf::Node);
        v.visit_map(Fields {
            fields,
            i: 0,
            path: self.path,
            sink: self.sink,
        })
    }
    serde::forward_to_deserialize_any! {
        f32 f64 char bytes byte_buf unit unit_struct newtype_struct tuple
        tuple_struct enum identifier ignored_any i128 u128
    }
}

/// A list of one element.
struct One<'a> {
    path: String,
    sink: &'a Sink,
    done: bool,
}

impl<'de> SeqAccess<'de> for One<'_> {
    type Error = de::value::Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Self::Error> {
        if self.done {
            return Ok(None);
        }
        self.done = true;
        seed.deserialize(Paths {
            path: self.path.clone(),
            sink: self.sink,
        })
        .map(Some)
    }
}

/// A struct's fields, each once, in their order.
struct Fields<'a> {
    fields: &'static [&'static str],
    i: usize,
    path: String,
    sink: &'a Sink,
}

impl<'de> MapAccess<'de> for Fields<'_> {
    type Error = de::value::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let Some(f) = self.fields.get(self.i) else {
            return Ok(None);
        };
        seed.deserialize((*f).into_deserializer()).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        let f = self.fields[self.i];
        self.i += 1;
        seed.deserialize(Paths {
            path: format!("{}.{f}", self.path),
            sink: self.sink,
        })
    }
}

fn of<T: serde::de::DeserializeOwned>(kind: &str, sink: &Sink) {
    T::deserialize(Paths {
        path: kind.to_string(),
        sink,
    })
    .unwrap_or_else(|e| panic!("{kind}: the field lister failed: {e}"));
}

/// Every field path of every kind of entry and of the head, from the
/// types' serde definitions: `genesis.players[].email`, `phase.rolls[].what`…
pub(crate) fn all_paths() -> Vec<(String, Leaf)> {
    use herald::chain::body::*;
    let sink = Sink::default();
    of::<Genesis>("genesis", &sink);
    of::<Phase>("phase", &sink);
    of::<Passwd>("passwd", &sink);
    of::<DeadlineSet>("deadline", &sink);
    of::<Reveal>("reveal", &sink);
    of::<PressEntry>("press", &sink);
    of::<SeatChange>("seat", &sink);
    of::<Vacation>("vacation", &sink);
    of::<Resign>("resign", &sink);
    of::<DrawEntry>("draw", &sink);
    of::<herald::chain::Head>("head", &sink);
    sink.into_inner()
        .into_iter()
        .filter(|(p, _)| p.contains('.'))
        .collect()
}

/// docs/trust.md's "What checks each field": each row's field cell's
/// names, as paths (`genesis.players[].email`), with the row's text.
fn rows() -> BTreeMap<String, String> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/trust.md"))
        .unwrap();
    let start = doc.find("### What checks each field").expect("the section");
    let section = &doc[start..];
    let end = section[4..].find("\n## ").map_or(section.len(), |e| e + 4);
    let mut out = BTreeMap::new();
    for line in section[..end].lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 || cells[1] == "entry" || cells[1].starts_with("---") {
            continue;
        }
        let entry = cells[1];
        let mut rest = cells[2];
        while let Some(a) = rest.find('`') {
            let Some(b) = rest[a + 1..].find('`') else {
                break;
            };
            let name = &rest[a + 1..a + 1 + b];
            out.insert(format!("{entry}.{name}"), cells[3..].join(" | "));
            rest = &rest[a + 2 + b..];
        }
    }
    out
}

/// Every field the code has, of every entry kind and of the head, has its
/// row in docs/trust.md, saying what checks it (or that nothing can).
#[test]
fn every_field_of_every_entry_kind_has_a_row_in_trust_md() {
    let paths = all_paths();
    assert!(paths.len() > 100, "{paths:?}");
    for must in [
        "seat.holder_sha256",
        "vacation.days",
        "vacation.length",
        "vacation.unit",
        "press.sender_commitment",
        "phase.excused",
        "genesis.players[].address_sha256",
        "genesis.redacted.genesis",
        "head.missed[].dropped",
    ] {
        assert!(paths.iter().any(|(p, _)| p == must), "{must} not listed");
    }
    let rows = rows();
    let missing: Vec<&String> = paths
        .iter()
        .map(|(p, _)| p)
        .filter(|p| row_of(&rows, p).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "fields without a row in docs/trust.md \"What checks each field\": {missing:?}"
    );
    let stale: Vec<&String> = rows
        .keys()
        .filter(|r| {
            !paths
                .iter()
                .any(|(p, _)| p == *r || p.trim_end_matches("[]") == r.as_str())
                && !r.starts_with("line.")
        })
        .collect();
    assert!(
        stale.is_empty(),
        "rows naming no field of the code: {stale:?}"
    );
    eprintln!("{} fields, each with its row", paths.len());
}

const T0: &str = "2026-11-24T10:00:00+00:00";

fn t(minutes: i64) -> String {
    (chrono::DateTime::parse_from_rfc3339(T0).unwrap() + chrono::Duration::minutes(minutes))
        .to_rfc3339()
}

/// A game of format 5 holding every kind of entry and every optional
/// field the game can hold, in a host folder whose lobby record gives its
/// vacation allowance (3 days) and offered the seat that changed hands.
pub(crate) struct Every {
    pub host: PathBuf,
}

fn relay(
    g: &Path,
    sender: &str,
    to: Option<Vec<&str>>,
    anonymous: bool,
    answers: Option<u32>,
    text: &str,
    at: &str,
) {
    use herald::pipeline::press;
    let mut w = herald::pipeline::open_to_write(g, std::time::Duration::from_secs(5), at).unwrap();
    let rules = press::rules_of(&w.store, &w.game).unwrap();
    let list = match &to {
        Some(l) if l.is_empty() => Vec::new(),
        Some(l) => press::allowed(
            &w.game,
            &rules,
            sender,
            &press::To::Players(l.iter().map(|x| x.to_string()).collect()),
            anonymous,
            at,
        )
        .unwrap(),
        None => press::allowed(&w.game, &rules, sender, &press::To::All, anonymous, at).unwrap(),
    };
    let digest = herald::chain::canon::sha256_hex(format!("{sender}{text}{at}").as_bytes());
    herald::pipeline::relay::record(
        &mut w,
        &herald::pipeline::relay::Relay {
            sender,
            to: list,
            anonymous,
            answers,
            text,
            mail_sha256: &digest,
            withheld: Vec::new(),
        },
        at,
    )
    .unwrap();
}

fn awaited(g: &Path) -> String {
    crate::common::head(g)["awaiting"][0]
        .as_str()
        .unwrap()
        .to_string()
}

/// Long: the game played entry by entry, each kind once at least.
pub(crate) fn every() -> &'static Every {
    static E: OnceLock<Every> = OnceLock::new();
    E.get_or_init(|| {
        let host = crate::store::template_dir("every-kind");
        std::fs::write(host.join("host.toml"), "address = \"host@every.test\"\n").unwrap();
        let g = host.join("every");
        ok(&[
            "new", "norse-wars", "--players", "red,blue,green,white", "--id", "every", "--out", s(&g),
            "--seed", "7", "--now", T0, "--deadline-every", "24h", "--drop-after", "1",
            "--press", "grey", "--press-reveal", "end", "--moderator", "herald+every@every.test",
            "--email", "red=ann@every.test", "--email", "blue=bob@every.test",
            "--email", "green=cy@every.test", "--email", "white=di@every.test",
            "--light-passwords",
        ]);
        relay(&g, "red", Some(vec!["blue"]), false, None, "Red to blue: the ford.", &t(1));
        relay(&g, "green", None, true, None, "Someone to all: beware.", &t(2));
        relay(&g, "blue", Some(vec![]), false, Some(2), "Blue answers the anonymous.", &t(3));
        ok(&["passwd", s(&g), "--player", "red", "--now", &t(4)]);
        // The awaited player goes away (3 days, stand-in), and is excused.
        let away = awaited(&g);
        {
            let mut w = herald::pipeline::open_to_write(&g, std::time::Duration::from_secs(5), &t(5)).unwrap();
            herald::host::vacation::request(&mut w, &away, &t(5 + 3 * 1440 - 60), &t(5), 3, herald::host::lobby::seats::VacationMode::StandIn)
                .unwrap()
                .unwrap();
        }
        // Press while the turn waits to be resolved, past its deadline.
        relay(&g, "white", Some(vec!["green"]), false, None, "White to green, late.", &t(1441));
        {
            let mut w = herald::pipeline::open_to_write(&g, std::time::Duration::from_secs(5), &t(1442)).unwrap();
            herald::pipeline::resolve_excusing(&mut w, &[], &t(1442), &[away.clone()]).unwrap();
        }
        {
            let mut w = herald::pipeline::open_to_write(&g, std::time::Duration::from_secs(5), &t(1500)).unwrap();
            herald::host::vacation::back(&mut w, &away, &t(1500)).unwrap().unwrap();
        }
        ok(&["deadline", s(&g), "+12h", "--now", &t(1501)]);
        // The next awaited player misses it and drops out; the seat is
        // taken over (as the lobby hands it over: format 5, salt secret).
        let dropped = awaited(&g);
        ok(&["resolve", s(&g), "--now", &t(1501 + 12 * 60 + 1)]);
        {
            let now = t(1501 + 12 * 60 + 5);
            let mut w = herald::pipeline::open_to_write(&g, std::time::Duration::from_secs(5), &now).unwrap();
            let seat = w.game.seat_of(&dropped).unwrap();
            let salt = "0123456789abcdef0123456789abcdef".to_string();
            let address = "sam@every.test".to_string();
            let (in_entry, holder) = herald::chain::body::SeatChange::bind(5, &salt, &address);
            let (pw, pw_salt) = herald::auth::new_secret(None);
            let hash = herald::auth::hash(&pw, &pw_salt, herald::auth::Cost::Light);
            let turn = w.game.head().turn;
            w.game.record.append(
                &herald::chain::Body::Seat(herald::chain::body::SeatChange {
                    player: dropped.clone(),
                    name: "Sam".into(),
                    why: "dropped".into(),
                    turn,
                    salt: in_entry,
                    holder_sha256: holder.clone(),
                    password: hash.clone(),
                    at: now.clone(),
                }),
                &w.signer,
            );
            let head = &mut w.game.record.head;
            head.players[seat].name = "Sam".into();
            head.players[seat].password = hash;
            head.players[seat].email = Some(address.clone());
            head.players[seat].address_sha256 = Some(holder);
            if let Some(m) = head.missed.iter_mut().find(|m| m.player == dropped) {
                m.in_a_row = 0;
                m.dropped = false;
            }
            w.game.record.seal_with(&w.signer);
            let mut secrets = w.store.secrets().unwrap();
            secrets.passwords.insert(dropped.clone(), pw);
            secrets.bind(herald::store::secrets::Address { player: dropped.clone(), address, salt });
            secrets.write(&w.store.dir.secrets(), "every").unwrap();
            w.commit(&now).unwrap();
        }
        // The host's lobby record: the allowance, the seat offered.
        let lobby = host.join("lobby").join("games");
        std::fs::create_dir_all(&lobby).unwrap();
        std::fs::write(
            lobby.join("every.json"),
            serde_json::to_string_pretty(&serde_json::json!({
                "game": "every", "vacation_days": 3, "vacation": "stand-in", "approve": false,
                "offers": [{"n": 1, "player": dropped, "why": "dropped", "at": t(1501 + 12 * 60 + 2),
                    "status": "done", "announced": true, "claims": [], "taker": null,
                    "done": format!("taken over {}", t(1501 + 12 * 60 + 5))}],
                "handled": [], "away": []
            }))
            .unwrap(),
        )
        .unwrap();
        // A draw offered and declined, and a player resigning (format 6):
        // by whoever may, as the game stands.
        {
            use herald::pipeline::ending::{self, Act};
            let now = t(1501 + 12 * 60 + 6);
            let mut w = herald::pipeline::open_to_write(&g, std::time::Duration::from_secs(5), &now).unwrap();
            let seed = w.seed().unwrap();
            let ids = w.game.players();
            let offerer = ids
                .iter()
                .find(|p| ending::draw(&mut w.game, p, Act::Offer, &now, &seed, &w.signer).unwrap().is_ok())
                .expect("a player still in offers a draw")
                .clone();
            ids.iter()
                .filter(|p| **p != offerer)
                .find(|p| ending::draw(&mut w.game, p, Act::Decline, &now, &seed, &w.signer).unwrap().is_ok())
                .expect("another declines it");
            w.commit(&now).unwrap();
        }
        // Played to its end by the stand-ins (each missing player drops).
        // Once the moves have begun, a player resigns and leaves; the
        // others play on (four players).
        let mut k = 0;
        let mut resigned = false;
        while !ok(&["status", s(&g)]).contains("game over") {
            k += 1;
            assert!(k < 40, "the game does not end");
            if !resigned {
                let now = t(3000 + 1500 * k - 10);
                let mut w = herald::pipeline::open_to_write(&g, std::time::Duration::from_secs(5), &now).unwrap();
                let seed = w.seed().unwrap();
                for p in w.game.players() {
                    let r = herald::pipeline::ending::resign(&mut w.game, &p, &now, &seed, &w.signer).unwrap();
                    if r.is_ok() {
                        resigned = true;
                        w.commit(&now).unwrap();
                        break;
                    }
                }
                if resigned {
                    continue;
                }
            }
            ok(&["resolve", s(&g), "--now", &t(3000 + 1500 * k)]);
        }
        assert!(resigned, "nobody could resign");
        // Press after the end.
        relay(&g, "red", None, false, None, "Red to all: well played.", &t(3000 + 1500 * (k + 1)));
        let (code, out, err) = herald(&["verify", s(&g)]);
        assert_eq!(code, 0, "the every-kind game does not verify: {out}{err}");
        Every { host }
    })
}

/// The JSON value at `path` (`players[].email`) under `v`, the first of
/// each list; `None` where it is absent.
fn at_path<'a>(v: &'a mut Value, path: &str) -> Option<&'a mut Value> {
    let mut cur = v;
    for part in path.split('.') {
        let (name, list) = match part.strip_suffix("[]") {
            Some(n) => (n, true),
            None => (part, false),
        };
        cur = cur.get_mut(name)?;
        if list {
            cur = cur.get_mut(0)?;
        }
    }
    Some(cur)
}

/// A plausible other value for `v`: a digest with its last digit changed,
/// a time a day later, a player id another player's, a text with a
/// letter added; a number plus one; a flag flipped; a list without its
/// last element.
fn other(v: &Value, players: &[String]) -> Option<Value> {
    Some(match v {
        Value::String(x) if x.len() >= 32 && x.bytes().all(|c| c.is_ascii_hexdigit()) => {
            let mut b = x.clone().into_bytes();
            let l = b.len() - 1;
            b[l] = if b[l] == b'0' { b'1' } else { b'0' };
            Value::String(String::from_utf8(b).unwrap())
        }
        Value::String(x) if chrono::DateTime::parse_from_rfc3339(x).is_ok() => Value::String(
            (chrono::DateTime::parse_from_rfc3339(x).unwrap() + chrono::Duration::days(1))
                .to_rfc3339(),
        ),
        Value::String(x) if players.contains(x) => {
            let i = players.iter().position(|p| p == x).unwrap();
            Value::String(players[(i + 1) % players.len()].clone())
        }
        Value::String(x) => Value::String(format!("{x}x")),
        Value::Number(n) => Value::from(n.as_u64()? + 1),
        Value::Bool(b) => Value::Bool(!b),
        Value::Array(a) if !a.is_empty() => Value::Array(a[..a.len() - 1].to_vec()),
        Value::Array(_) => Value::Array(vec![Value::String(players[0].clone())]),
        Value::Null => return None,
        Value::Object(_) => return None,
    })
}

/// The edit of `path` in the every-kind game's file: the first entry of its
/// kind holding it (or the head), the head then made to agree with the log
/// as a careful forger would (for an entry's edit), signed again with the
/// game's own key. `None` where the game holds no such value.
fn edit(game: &Path, path: &str, players: &[String]) -> Option<Vec<Value>> {
    let mut l = lines(game);
    let (kind, rest) = path.split_once('.').unwrap();
    if kind == "head" {
        let v = at_path(&mut l[0]["head"], rest)?;
        *v = other(v, players)?;
        reseal(game, &mut l);
        return Some(l);
    } else {
        let i = (1..l.len()).find(|&i| {
            l[i]["body"]["kind"] == kind && at_path(&mut l[i]["body"].clone(), rest).is_some()
        })?;
        let v = at_path(&mut l[i]["body"], rest)?;
        *v = other(v, players)?;
        rehash(&mut l);
        agree(&mut l);
    }
    rehash(&mut l);
    reseal(game, &mut l);
    Some(l)
}

/// The head made to agree with the log (what `open` derives): the edit of
/// an entry is then to be found by verify's rules, not by the head's.
fn agree(l: &mut [Value]) {
    let mut text = String::new();
    for x in l.iter() {
        text.push_str(&serde_json::to_string(x).unwrap());
        text.push('\n');
    }
    let Ok(r) = herald::chain::Record::parse(&text) else {
        return;
    };
    let Ok(d) = herald::chain::check::derive(&r) else {
        return;
    };
    // Every field the log gives the head (the genesis's copied, the
    // rest derived); phase, awaiting, outcome and the state stay.
    l[0]["head"] = serde_json::to_value(&d).unwrap();
}

/// The games the edits are made in: the every-kind game (in its host
/// folder), the format-4 lobby fixture converted to 5 (a genesis
/// `redacted`, a seat entry and anonymous press of format 4), and a demo
/// of War of the Dukes (dice rolled). Each a folder to copy: (the folder
/// to copy, the game folder inside it, its players).
fn games() -> &'static Vec<(PathBuf, PathBuf, Vec<String>)> {
    static G: OnceLock<Vec<(PathBuf, PathBuf, Vec<String>)>> = OnceLock::new();
    G.get_or_init(|| {
        let e = every();
        let conv = crate::store::template_dir("every-converted");
        let c = conv.join("lobby");
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format4/lobby"),
            &c,
        );
        ok(&["convert", s(&c), "--now", "2026-11-26T01:00:00Z"]);
        let demo = crate::store::template_dir("every-dice");
        ok(&[
            "demo",
            "war-of-the-dukes",
            "--out",
            s(&demo.join("d")),
            "--now",
            "2026-11-24T10:00:00Z",
            "--max-turns",
            "8",
        ]);
        // The format-4 fixture as it is (its addresses in the file), and a
        // game of herald 0.1 converted (its genesis `converted`).
        let four = crate::store::template_dir("every-format4");
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format4/lobby"),
            &four.join("lobby"),
        );
        let one = crate::store::template_dir("every-format1");
        ok(&[
            "convert",
            s(
                &Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/fixtures/format1/mail/game.json"),
            ),
            "--out",
            s(&one.join("g")),
            "--now",
            "2026-12-01T00:00:00Z",
        ]);
        let one_players = crate::common::head(&one.join("g"))["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect();
        vec![
            (
                e.host.clone(),
                e.host.join("every"),
                ["red", "blue", "green", "white"].map(String::from).to_vec(),
            ),
            (
                conv.clone(),
                conv.join("lobby"),
                (0..4).map(|i| format!("player{i}")).collect(),
            ),
            (
                demo.clone(),
                demo.join("d").join("game"),
                ["orfburg", "wulfenburg"].map(String::from).to_vec(),
            ),
            (
                four.clone(),
                four.join("lobby"),
                (0..4).map(|i| format!("player{i}")).collect(),
            ),
            (one.clone(), one.join("g"), one_players),
        ]
    })
}

/// The row of `path` (a list's element is its list's row).
fn row_of<'a>(rows: &'a BTreeMap<String, String>, path: &str) -> Option<&'a String> {
    rows.get(path)
        .or_else(|| rows.get(path.trim_end_matches("[]")))
}

/// Every field of the games above edited where a game holds it (the first
/// that does), signed again with the game's own key: `verify` of its
/// folder (the secrets, the press, a host's lobby record beside it)
/// refuses it, or docs/trust.md lists the field as not checkable, saying
/// why.
#[test]
fn every_edit_of_every_field_is_named_by_verify_or_listed_as_not_checkable() {
    let games = games();
    let rows = rows();
    let spot = Spot::new("every-edit");
    // Each field's edit is made in a copy of its own and verified by a
    // process of its own: they run side by side, their verdicts kept in
    // the fields' order.
    enum Verdict {
        Named(String),
        Listed(String),
        Absent(String),
        /// Accepted, and not listed: a failure, told in its own list.
        Failed,
    }
    let paths: Vec<String> = all_paths().into_iter().map(|(p, _)| p).collect();
    let verdicts = crate::common::par_map(&paths, |k, path| {
        let mut failures = Vec::new();
        for (j, (root, game, players)) in games.iter().enumerate() {
            let to = spot.join(&format!("e{k}-{j}"));
            copy_dir(root, &to);
            let g = to.join(game.strip_prefix(root).unwrap());
            let Some(l) = edit(&g, path, players) else {
                let _ = std::fs::remove_dir_all(&to);
                continue;
            };
            write_lines(&g, &l);
            let (code, out, err) = herald(&["verify", s(&g)]);
            let row = row_of(&rows, path).cloned().unwrap_or_default();
            let verdict = if code == 1 {
                // Named: the entry, the head or the folder's file at fault.
                let at = [
                    "entry ",
                    "head record",
                    "secrets.toml",
                    "press #",
                    "press/",
                    "line ",
                ];
                if !at.iter().any(|w| err.contains(w)) {
                    failures.push(format!(
                        "{path}: verify refuses the edit without naming where: {err}"
                    ));
                }
                Verdict::Named(path.clone())
            } else if row.contains("not checkable") {
                Verdict::Listed(path.clone())
            } else {
                failures.push(format!(
                    "{path}: edited in {}, verify (exit {code}) accepts it and its row does not say it is not checkable:\n{out}{err}",
                    game.display()
                ));
                Verdict::Failed
            };
            let _ = std::fs::remove_dir_all(&to);
            return (verdict, failures);
        }
        (Verdict::Absent(path.clone()), failures)
    });
    let (mut named, mut listed, mut absent) = (Vec::new(), Vec::new(), Vec::new());
    let mut failures = Vec::new();
    for (v, f) in verdicts {
        failures.extend(f);
        match v {
            Verdict::Named(p) => named.push(p),
            Verdict::Listed(p) => listed.push(p),
            Verdict::Absent(p) => absent.push(p),
            Verdict::Failed => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!(
        "{} field edits named by verify; {} listed as not checkable: {}; {} not edited (a whole struct or map, or no game holds one): {}",
        named.len(),
        listed.len(),
        listed.join(", "),
        absent.len(),
        absent.join(", ")
    );
}

/// The index of the `k`-th entry (from 0) of `kind` in `l`, where `f`
/// holds of its body.
fn find(l: &[Value], kind: &str, f: impl Fn(&Value) -> bool) -> usize {
    (1..l.len())
        .find(|&i| l[i]["body"]["kind"] == kind && f(&l[i]["body"]))
        .unwrap_or_else(|| panic!("no {kind} entry"))
}

/// The edits the issue named, each in the every-kind game, the head made
/// to agree, signed again with the game's own key: each one `verify`
/// refuses, naming the entry.
#[test]
fn the_edits_issue_47_found_unseen_are_each_named_by_verify() {
    type Edit = (&'static str, fn(&mut Vec<Value>));
    let edits: Vec<Edit> = vec![
        ("a vacation until 2099 on a 3-day allowance", |l| {
            let i = find(l, "vacation", |b| b["back"] == false);
            l[i]["body"]["until"] = "2099-01-01T00:00:00+00:00".into();
        }),
        ("a vacation until 2099, its days made to agree", |l| {
            let i = find(l, "vacation", |b| b["back"] == false);
            let at = l[i]["body"]["at"].as_str().unwrap().to_string();
            l[i]["body"]["until"] = "2099-01-01T00:00:00+00:00".into();
            // Charged in the entry's own unit (format 7's `length`).
            let unit = l[i]["body"]["unit"].as_str().unwrap_or("day").to_string();
            let secs = herald::chain::rules::unit_seconds(&unit).unwrap();
            let n = herald::chain::rules::charged(&at, "2099-01-01T00:00:00+00:00", secs).unwrap();
            let field = if l[i]["body"].get("length").is_some() {
                "length"
            } else {
                "days"
            };
            l[i]["body"][field] = n.into();
        }),
        ("a vacation's until before its own at", |l| {
            let i = find(l, "vacation", |b| b["back"] == false);
            l[i]["body"]["until"] = "2026-11-20T00:00:00+00:00".into();
        }),
        ("a vacation turned into a return", |l| {
            let i = find(l, "vacation", |b| b["back"] == false);
            l[i]["body"]["back"] = true.into();
        }),
        ("a return turned into a vacation", |l| {
            let i = find(l, "vacation", |b| b["back"] == true);
            l[i]["body"]["back"] = false.into();
        }),
        ("30 days given back", |l| {
            let i = find(l, "vacation", |b| b["back"] == true);
            let field = if l[i]["body"].get("length").is_some() {
                "length"
            } else {
                "days"
            };
            l[i]["body"][field] = 30.into();
        }),
        ("a seat moved to another player", |l| {
            let i = find(l, "seat", |_| true);
            let p = l[i]["body"]["player"].as_str().unwrap().to_string();
            let other = ["red", "blue", "green", "white"]
                .into_iter()
                .find(|x| *x != p)
                .unwrap();
            l[i]["body"]["player"] = other.into();
        }),
        ("a seat entry naming the turn after", |l| {
            let i = find(l, "seat", |_| true);
            let t = l[i]["body"]["turn"].as_u64().unwrap();
            l[i]["body"]["turn"] = (t + 1).into();
        }),
        ("a seat entry showing its salt", |l| {
            let i = find(l, "seat", |_| true);
            l[i]["body"]["salt"] = "0123456789abcdef0123456789abcdef".into();
        }),
        ("a press's recipients changed", |l| {
            let i = find(l, "press", |b| {
                b.get("from").is_some() && b["to"].as_array().unwrap().len() == 1
            });
            l[i]["body"]["to"] = serde_json::json!(["green"]);
        }),
        ("a press's text hash changed", |l| {
            let i = find(l, "press", |_| true);
            // Its first digit changed (a digest may hold no `a` to change).
            let old = l[i]["body"]["text_sha256"].as_str().unwrap().to_string();
            let first = if old.starts_with('0') { "1" } else { "0" };
            l[i]["body"]["text_sha256"] = format!("{first}{}", &old[1..]).into();
        }),
        ("an anonymous press made a named one", |l| {
            let i = find(l, "press", |b| b.get("sender_commitment").is_some());
            let b = l[i]["body"].as_object_mut().unwrap();
            b.remove("sender_commitment");
            b.insert("from".into(), "green".into());
        }),
        ("an anonymous press bound the old way", |l| {
            let i = find(l, "press", |b| b.get("sender_commitment").is_some());
            let b = l[i]["body"].as_object_mut().unwrap();
            let c = b.remove("sender_commitment").unwrap();
            b.insert("sender_sha256".into(), c);
        }),
        ("a player excused who was not away", |l| {
            let i = find(l, "phase", |b| b.get("excused").is_some());
            let mut ex = l[i]["body"]["excused"].as_array().unwrap().clone();
            let other = ["red", "blue", "green", "white"]
                .into_iter()
                .find(|x| !ex.iter().any(|e| e == x))
                .unwrap();
            ex.push(other.into());
            l[i]["body"]["excused"] = ex.into();
        }),
        ("the excused player's excuse taken away", |l| {
            let i = find(l, "phase", |b| b.get("excused").is_some());
            l[i]["body"].as_object_mut().unwrap().remove("excused");
        }),
    ];
    let e = every();
    let spot = Spot::new("issue-47-edits");
    let mut failures = Vec::new();
    for (k, (what, f)) in edits.iter().enumerate() {
        let host = spot.join(&format!("h{k}"));
        copy_dir(&e.host, &host);
        let g = host.join("every");
        let mut l = lines(&g);
        f(&mut l);
        rehash(&mut l);
        agree(&mut l);
        rehash(&mut l);
        reseal(&g, &mut l);
        write_lines(&g, &l);
        let (code, out, err) = herald(&["verify", s(&g)]);
        if code != 1 || !(err.contains("entry ") || err.contains("press #")) {
            failures.push(format!("{what}: verify (exit {code}):\n{out}{err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!(
        "{} edits of the issue's kinds, each named by verify",
        edits.len()
    );
}
