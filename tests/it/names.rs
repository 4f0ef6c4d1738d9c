//! Display names beside ids (issue 54): a game begun at format 8 names its
//! players ("red (Ann)") in every form of its reports, its report mails,
//! relayed press (the sender and the "to" list) and its replay site, a
//! new holder's name from the takeover on; grey press gains no name; a
//! game begun before format 8 keeps the layout its reports were signed in,
//! so what its players kept still verifies (docs/trust.md, "Format 8").

use crate::common::{herald, lines, scratch};
use crate::store::{copy_dir, ok, s};
use std::path::{Path, PathBuf};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/format7");

/// Every file of `dir` whose path holds `part`, sorted.
fn files(dir: &Path, part: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    crate::press::files_under(dir, &[], &mut out);
    out.retain(|p| p.display().to_string().contains(part));
    out.sort();
    out
}

/// The decoded text of every mail in the outboxes under `dir` sent to
/// `to`, in the order written (file times), with its subject first.
fn mails_to(dir: &Path, to: &str) -> Vec<String> {
    let mut found: Vec<(std::time::SystemTime, String)> = files(dir, "outbox")
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            let m = mail_parser::MessageParser::default().parse(&bytes[..])?;
            let addr = m.to()?.first()?.address()?.to_string();
            (addr == to).then(|| {
                let t = format!(
                    "Subject: {}\n{}",
                    m.subject().unwrap_or(""),
                    m.body_text(0).unwrap_or_default()
                );
                (std::fs::metadata(&p).unwrap().modified().unwrap(), t)
            })
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, t)| t).collect()
}

/// A game that began at format 7 (`tests/fixtures/format7`: a lobby game
/// whose seat `ann` Sam took over) keeps its reports' layout: the report
/// mails its players kept verify byte for byte, before and after `herald
/// convert` brings it to format 8, and its reports name nobody beside an
/// id. Fails on a herald that shows the names in every game's reports.
#[test]
fn reports_of_a_game_begun_at_format_7_keep_their_layout_and_verify() {
    let d = scratch("names-old");
    let g = d.join("lobby");
    copy_dir(&Path::new(FIXTURE).join("lobby"), &g);
    let kept: Vec<String> = files(&Path::new(FIXTURE).join("kept"), ".eml")
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    assert_eq!(kept.len(), 2);
    let head = &lines(&g)[0]["head"];
    assert_eq!(head["format"], 7);
    assert_eq!(head["players"][0]["name"], "Sam", "the fixture's takeover");
    let witness = |what: &str| {
        let mut a = vec!["verify", s(&g), "--witness"];
        a.extend(kept.iter().map(String::as_str));
        let out = ok(&a);
        assert!(
            out.contains("ok: the archive holds exactly what"),
            "{what}: {out}"
        );
    };
    witness("as format 7");
    let out = ok(&["convert", s(&g)]);
    assert!(out.contains("format 7 -> 8"), "{out}");
    assert_eq!(lines(&g)[0]["head"]["format"], 8);
    witness("converted to 8");
    for p in ["ann", "bob"] {
        let r = ok(&["report", s(&g), "--player", p]);
        assert!(!r.contains("(Sam)") && !r.contains("Players:"), "{r}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// `herald new --name` names the players of a format-8 game: its text
/// report, page, view.json and report mail show `red (Ann)` beside the
/// id, never instead of it (the order form and orders keep the id), and
/// every one of them verifies. A bad name is refused with what is taken.
#[test]
fn a_format_8_game_shows_each_name_beside_the_id_in_every_form() {
    let d = scratch("names-new");
    let g = d.join("g");
    let (code, _, err) = herald(&[
        "new",
        "stack-wars",
        "--players",
        "red,blue",
        "--name",
        "red=Ann",
        "--name",
        "blue=Bo <b>",
        "--email",
        "red=red@example.org",
        "--email",
        "blue=blue@example.org",
        "--moderator",
        "gm@example.org",
        "--light-passwords",
        "--option",
        "size=5",
        "--out",
        s(&g),
    ]);
    assert_eq!(code, 0, "{err}");
    let l = lines(&g);
    assert_eq!(l[1]["body"]["format"], herald::chain::FORMAT);
    assert_eq!(l[1]["body"]["players"][0]["name"], "Ann");
    let text = ok(&["report", s(&g), "--player", "red"]);
    assert!(
        text.contains("report for red (Ann)\n")
            && text.contains("Players: red (Ann), blue (Bo <b>)."),
        "{text}"
    );
    assert!(
        text.contains("= red (Ann), "),
        "the game's own players list: {text}"
    );
    let html = ok(&["report", s(&g), "--player", "blue", "--format", "html"]);
    assert!(
        html.contains("report for blue (Bo &lt;b&gt;)</title>") && !html.contains("Bo <b>"),
        "the page names blue, escaped"
    );
    let json = ok(&["report", s(&g), "--player", "red", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["game"]["names"]["red"], "red (Ann)");
    assert_eq!(v["player"], "red", "the id stays the id");
    let form = ok(&["orders", s(&g), "--player", "red"]);
    assert!(form.contains("player = \"red\""), "{form}");
    let mail = mails_to(&g, "red@example.org")
        .pop()
        .expect("red's report mail");
    assert!(
        mail.starts_with("Subject: [")
            && mail
                .lines()
                .next()
                .unwrap()
                .ends_with("report for red (Ann)"),
        "{mail}"
    );
    let mut a = vec!["verify", s(&g), "--witness"];
    let outbox: Vec<String> = files(&g, "outbox")
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    a.extend(outbox.iter().map(String::as_str));
    let out = ok(&a);
    assert!(out.contains("ok: the archive holds exactly what"), "{out}");
    for bad in ["red= ", "green=Gil", "red=Ann\u{7}", "Ann"] {
        let (code, _, err) = herald(&[
            "new",
            "stack-wars",
            "--players",
            "red,blue",
            "--name",
            bad,
            "--out",
            s(&d.join("bad")),
        ]);
        assert_eq!(code, 2, "--name {bad}: {err}");
        assert!(err.contains("--name"), "{err}");
        assert!(!d.join("bad").join("game.jsonl").exists());
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// A host whose mail comes from a Maildir and whose mails wait in the
/// outboxes (no server on port 9): a lobby game played by files alone.
fn quiet_host(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let md = dir.join("Maildir");
    for x in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(x)).unwrap();
    }
    std::fs::write(
        dir.join("host.toml"),
        format!(
            "address = \"host@host.test\"\n[maildir]\npath = \"{}\"\n[smtp]\nserver = \"127.0.0.1\"\nport = 9\nsecurity = \"plain\"\nuser = \"host\"\ntimeout = 1\n",
            md.display()
        ),
    )
    .unwrap();
    let sp = dir.join("host.secrets.toml");
    std::fs::write(&sp, "smtp_password = \"x\"\n").unwrap();
    std::fs::set_permissions(&sp, std::fs::Permissions::from_mode(0o600)).unwrap();
    md
}

fn at(minute: u32) -> String {
    format!("2026-11-28T{:02}:{:02}:00Z", 10 + minute / 60, minute % 60)
}

/// A mail from `from` to `to` put in the Maildir.
fn put(md: &Path, n: &mut u32, from: &str, to: &str, body: &str) {
    put_as(md, n, from, to, "text/plain; charset=utf-8", body)
}

/// [`put`] with its Content-Type.
fn put_as(md: &Path, n: &mut u32, from: &str, to: &str, ct: &str, body: &str) {
    *n += 1;
    let mail = format!(
        "From: {from}\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <m{n}@players.test>\r\nDate: Sat, 28 Nov 2026 10:00:00 +0000\r\nContent-Type: {ct}\r\n\r\n{}\r\n",
        body.replace('\n', "\r\n")
    );
    crate::host_safety::put(md, &format!("m{n}"), mail.as_bytes());
}

fn pass(dir: &Path, minute: u32) {
    // The mails cannot be sent (nothing listens on port 9): they wait.
    let _ = herald(&["host", s(dir), "--now", &at(minute)]);
}

/// A lobby game of format 8 (Ann and Bob at table t8, grey press): its
/// genesis keeps the names the players joined under; after Sam takes
/// over ann's seat, the reports show `ann (Sam)` from that turn on, the
/// earlier turn's report still `ann (Ann)`; press names its sender and
/// its recipients by id and name as the sender wrote them, the sender's
/// acknowledgement too, and anonymous press names no sender; press sent
/// as format=flowed is relayed with its soft breaks joined.
#[test]
fn a_lobby_game_names_its_seats_holders_and_press_by_id_and_name() {
    let dir = scratch("names-lobby");
    let md = quiet_host(&dir);
    let mut n = 0;
    crate::lobby::open(
        &dir,
        "t8",
        &["--ruleset", "norse-wars", "--seats", "2", "--press", "grey"],
    );
    let p = dir.join("lobby").join("t8.json");
    let mut t: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    t["seats"] = serde_json::json!([
        {"address": "ann@players.test", "name": "Ann", "public": false, "at": at(0)},
        {"address": "bob@players.test", "name": "Bob", "public": false, "at": at(0)},
    ]);
    std::fs::write(&p, serde_json::to_vec(&t).unwrap()).unwrap();
    pass(&dir, 1);
    let g = dir.join("t8");
    let genesis = &lines(&g)[1]["body"];
    let named: Vec<(String, String)> = genesis["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().into(),
                p["name"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        named.contains(&("ann".into(), "Ann".into()))
            && named.contains(&("bob".into(), "Bob".into())),
        "{named:?}"
    );
    let before = ok(&["report", s(&g), "--player", "bob"]);
    assert!(before.contains("ann (Ann)"), "{before}");
    let pw = |id: &str| {
        let (store, _) = herald::pipeline::open(&g).unwrap();
        store.secrets().unwrap().passwords[id].clone()
    };
    let bob_pw = pw("bob");
    // Sam takes over ann's seat from the standby list.
    put(&md, &mut n, "sam@players.test", "host@host.test", "standby");
    pass(&dir, 2);
    ok(&[
        "host",
        "replace",
        s(&dir),
        "t8",
        "--player",
        "ann",
        "--now",
        &at(3),
    ]);
    pass(&dir, 4);
    put(
        &md,
        &mut n,
        "sam@players.test",
        "host@host.test",
        "takeover t8 ann Sam",
    );
    pass(&dir, 5);
    let offer = mails_to(&dir, "sam@players.test")
        .into_iter()
        .rev()
        .find(|m| m.contains("take over the seat"))
        .expect("the takeover's code");
    let code = crate::lobby::code_in(&offer).expect("a code");
    put(
        &md,
        &mut n,
        "sam@players.test",
        "host@host.test",
        &format!("confirm {code}"),
    );
    pass(&dir, 6);
    pass(&dir, 7);
    let head = &lines(&g)[0]["head"];
    assert_eq!(
        head["players"].to_string().contains("\"Sam\""),
        true,
        "{head}"
    );
    let after = ok(&["report", s(&g), "--player", "bob"]);
    assert!(
        after.contains("ann (Sam)") && !after.contains("(Ann)"),
        "{after}"
    );
    // Press from bob to ann, named and anonymous.
    let ga = "host+t8@host.test";
    put(
        &md,
        &mut n,
        "bob@players.test",
        ga,
        &format!("press to ann\npassword = \"{bob_pw}\"\n\nNAMED-PRESS"),
    );
    put(
        &md,
        &mut n,
        "bob@players.test",
        ga,
        &format!("press to ann anonymous\npassword = \"{bob_pw}\"\n\nGREY-PRESS"),
    );
    // Thunderbird's format=flowed: its soft breaks (a line ending in a
    // space) are not the sender's; the press is relayed as one line.
    put_as(
        &md,
        &mut n,
        "bob@players.test",
        ga,
        "text/plain; charset=utf-8; format=flowed",
        &format!("press to ann\npassword = \"{bob_pw}\"\n\nFLOWED-PRESS: we hold the north while you \ntake the fords.\n"),
    );
    pass(&dir, 8);
    let sam = mails_to(&dir, "sam@players.test");
    let flowed = sam
        .iter()
        .find(|m| m.contains("FLOWED-PRESS"))
        .expect("the flowed press");
    assert!(
        flowed.contains("FLOWED-PRESS: we hold the north while you take the fords."),
        "{flowed}"
    );
    let named = sam
        .iter()
        .find(|m| m.contains("NAMED-PRESS"))
        .expect("the named press");
    assert!(
        named.starts_with("Subject: [t8] press #1 from bob (Bob)")
            && named.contains("Press #1 from bob (Bob) to ann (Sam)")
            && named.contains("You are ann (Sam)."),
        "{named}"
    );
    let grey = sam
        .iter()
        .find(|m| m.contains("GREY-PRESS"))
        .expect("the anonymous press");
    // (anonymous press goes to its sender too, so that its list of
    // recipients names nobody: bob is in it, as a recipient)
    // in seat order, which the seed drew
    let line = grey
        .lines()
        .find(|l| l.starts_with("Press #2 from anonymous to "))
        .unwrap_or_else(|| panic!("{grey}"));
    assert!(
        grey.starts_with("Subject: [t8] press #2 from anonymous\n")
            && line.contains("ann (Sam)")
            && line.contains("bob (Bob)"),
        "{grey}"
    );
    let ack = mails_to(&dir, "bob@players.test")
        .into_iter()
        .find(|m| m.contains("NAMED-PRESS") && m.contains("RELAYED"))
        .expect("bob's acknowledgement");
    assert!(ack.contains("to ann (Sam) is RELAYED"), "{ack}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The replay site names each player beside the id: the orders of each
/// phase (the holder's name at that phase), the lens, the players table.
#[test]
fn the_replay_site_names_players_beside_their_ids() {
    let d = scratch("names-site");
    let g = d.join("g");
    let (code, _, err) = herald(&[
        "new",
        "stack-wars",
        "--players",
        "red,blue",
        "--name",
        "red=Ann",
        "--light-passwords",
        "--option",
        "size=5",
        "--seed",
        "names",
        "--now",
        "2026-11-28T09:00:00Z",
        "--deadline",
        "+1h",
        "--out",
        s(&g),
    ]);
    assert_eq!(code, 0, "{err}");
    // past the deadline: herald stands in for red
    let (code, _, err) = herald(&["resolve", s(&g), "--now", "2026-11-28T11:00:00Z"]);
    assert_eq!(code, 0, "{err}");
    let site = d.join("site");
    ok(&["site", s(&g), "--player", "red", "--out", s(&site)]);
    let mut all = String::new();
    for f in files(&site, "") {
        if let Ok(t) = std::fs::read_to_string(&f) {
            all.push_str(&t);
        }
    }
    assert!(
        all.contains("\"shown\":\"red (Ann)\""),
        "the orders name red"
    );
    assert!(
        all.contains("red (Ann)&apos;s own view"),
        "the lens names red"
    );
    let _ = std::fs::remove_dir_all(&d);
}
