//! Lobby tables that choose their game's press, tables written as files
//! (`DIR/lobby/open/TABLE.toml`), and tables written before tables chose
//! press (docs/host.md, "The lobby").

use crate::common::herald;
use crate::host_mail::{at, mail};
use crate::host_safety::{maildir_host, put};
use crate::lobby::{open, started_game, table_json, wait_for_text};
use crate::mailservers::{servers, Account};
use herald::chain::body::PressRules;
use std::path::Path;

fn d(p: &Path) -> String {
    p.display().to_string()
}

/// Bad press words at `herald host open` exit 2 naming what is accepted,
/// and write nothing.
#[test]
fn a_tables_press_is_checked_as_new_checks_it() {
    let dir = crate::common::scratch("lobby-press-bad");
    let dd = d(&dir);
    for (args, want) in [
        (vec!["--press", "loud"], "none, public, private, grey"),
        (vec!["--press", "grey", "--press-reveal", "soon"], "say end"),
        (
            vec!["--press", "grey", "--press-after-end", "maybe"],
            "--press-after-end maybe: say yes or no",
        ),
        (
            vec!["--press-reveal", "end"],
            "--press-reveal needs --press",
        ),
    ] {
        let mut a = vec!["host", "open", &dd, "t1", "--ruleset", "hexwar"];
        a.extend(args);
        let (code, o, e) = herald(&a);
        assert_eq!(code, 2, "{a:?}: {o}{e}");
        assert!(e.contains(want), "{a:?}: {e}");
    }
    assert!(!dir.join("lobby").exists(), "a refused open wrote");
    // A table without --press: its game has none.
    let o = open(&dir, "t1", &["--ruleset", "hexwar"]);
    assert!(o.contains("press: no press"), "{o}");
    assert!(table_json(&dir, "t1")["press"].is_null());
}

/// A table opened with --press grey --press-reveal end: the `tables`
/// reply (by real mail) and DIR/tables.html show its rules, and the game
/// it starts has them in its genesis entry.
#[test]
fn a_table_gives_its_game_the_press_it_chose() {
    let s = servers();
    let (h, md) = maildir_host(s, "");
    let ps: Vec<Account> = (0..2).map(|_| s.account()).collect();
    let asker = s.account();
    open(
        &h.dir,
        "pb",
        &[
            "--ruleset",
            "hexwar",
            "--press",
            "public",
            "--press-while-resolving",
            "no",
        ],
    );
    put(
        &md,
        "tables-1",
        &mail(
            &asker.address,
            &h.acct.address,
            "tables",
            "tables-1@x.test",
            1,
            "tables",
        ),
    );
    h.pass_ok(&at(1));
    let reply = wait_for_text(s, &asker, "Open tables");
    assert!(
        reply.contains(
            "press: public press only (to all players); not while a turn is being resolved"
        ),
        "{reply}"
    );
    let page = std::fs::read_to_string(h.dir.join("tables.html")).unwrap();
    assert!(page.contains("press: public press only"), "{page}");

    let ids = started_game(
        &h,
        &ps,
        "pg",
        2,
        &["--press", "grey", "--press-reveal", "end"],
    );
    assert_eq!(ids.len(), 2);
    let (store, g) = herald::pipeline::open(&h.dir.join("pg")).unwrap();
    let want = PressRules {
        kind: "grey".into(),
        while_resolving: true,
        after_end: true,
        reveal: "end".into(),
    };
    assert_eq!(g.genesis.press.as_ref(), Some(&want));
    assert_eq!(herald::pipeline::press::rules_of(&store, &g).unwrap(), want);
    let st = herald(&["host", "status", &d(&h.dir)]).1;
    assert!(st.contains("anonymous allowed"), "{st}");
}

/// A table file written before tables chose press (no `press`, no
/// `from_file`) still loads: its game gets no press.
#[test]
fn a_table_written_before_press_still_loads() {
    let dir = crate::common::scratch("lobby-old-table");
    std::fs::create_dir_all(dir.join("lobby")).unwrap();
    let old = r#"{
  "name": "old1",
  "game": "hexwar",
  "min": 2,
  "max": 2,
  "options": [],
  "deadline_every": "48h",
  "nmr": null,
  "starts": "full",
  "opened": "2026-11-24T09:00:00+00:00",
  "status": "open",
  "seats": [
    {
      "address": "ann@x.test",
      "name": "Ann",
      "public": false,
      "at": "2026-11-24T09:05:00+00:00"
    }
  ],
  "pending": [],
  "handled": [],
  "closed": null,
  "vacation_days": 14,
  "vacation": "extend",
  "approve_takeovers": false,
  "drop_after": null
}
"#;
    std::fs::write(dir.join("lobby").join("old1.json"), old).unwrap();
    let host = herald::host::layout::HostDir::at(&dir);
    let t = herald::host::lobby::load(&host, &herald::names::Name::new("table", "old1").unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(t.press, None);
    assert_eq!(t.press_settings().rules(), Ok(None));
    assert_eq!(t.seats.len(), 1);
    let (code, st, e) = herald(&["host", "status", &d(&dir)]);
    assert_eq!(code, 0, "{e}");
    assert!(st.contains("old1 (hexwar): 1 of 2 seats taken"), "{st}");
    assert!(st.contains("press: no press"), "{st}");
    assert!(!st.contains("problem"), "{st}");
}

/// `DIR/lobby/open/TABLE.toml`: a good file is opened by the next pass as
/// `herald host open` would open it and moved to `opened/`; a bad one is
/// left in place and the pass names its file, line and key with what would
/// be accepted, until it is fixed.
#[test]
fn tables_from_files_are_opened_by_a_pass_or_refused_with_the_line() {
    let s = servers();
    let (h, _md) = maildir_host(s, "");
    let files = h.dir.join("lobby").join("open");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(
        files.join("nw1.toml"),
        "# a Norse Wars table for the autumn, its ruleset as `herald host open` names it\n\
         ruleset = \"norse-wars\"\n\
         seats = \"3-4\"\n\
         deadline-every = \"72h\"\n\
         starts-when = \"2026-12-01T18:00:00Z\"\n\
         vacation-days = 10\n\
         press = \"grey\"\n\
         press-after-end = false\n\
         press-reveal = \"end\"\n",
    )
    .unwrap();
    let bad = "game = \"hexwar\"\nseats = 2\npress = \"private\"\npress-reveal = \"sometimes\"\n";
    std::fs::write(files.join("hx1.toml"), bad).unwrap();
    std::fs::write(files.join("hx2.toml"), "game = \"hexwar\"\nfog = true\n").unwrap();
    std::fs::write(
        files.join("nw9.toml"),
        "game = \"norse-wars\"\n\nseats = 9\n",
    )
    .unwrap();
    // The example of docs/host.md, as it is written there.
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs")
            .join("host.md"),
    )
    .unwrap();
    let example = doc
        .split("```toml\n")
        .find(|b| b.starts_with("# DIR/lobby/open/nw-autumn.toml"))
        .and_then(|b| b.split("```").next())
        .expect("docs/host.md has the table file example");
    std::fs::write(files.join("nw-autumn.toml"), example).unwrap();

    // The pass exits 1 for a table file it could not open (the moderator
    // is told); its summary and problems are on stderr then.
    let (code, out, err) = h.pass(&at(1));
    assert_eq!(code, 1, "{out}{err}");
    let err = format!("{out}{err}");
    assert!(err.contains("nw1: opened from"), "{err}");
    assert!(err.contains("nw-autumn: opened from"), "{err}");
    let ex = table_json(&h.dir, "nw-autumn");
    assert_eq!(ex["options"], serde_json::json!(["fog=true"]));
    assert_eq!(ex["press"]["reveal"], "end");
    assert_eq!(ex["drop_after"], 3);
    // The bad file: its name, the line of the key, what is accepted.
    let hx1 = files.join("hx1.toml");
    assert!(
        err.contains(&format!(
            "{}:4: press-reveal sometimes: say end",
            hx1.display()
        )),
        "{err}"
    );
    assert!(err.contains("left in place"), "{err}");
    assert!(
        err.contains(&format!(
            "{}:2: `fog` is not a key of a table file",
            files.join("hx2.toml").display()
        )),
        "{err}"
    );
    assert!(err.contains("press-reveal"), "{err}");
    // A flag's example is said as the file's line, not the flag to type.
    assert!(
        err.contains(&format!(
            "{}:3: seats 9: give N or MIN-MAX within what norse-wars takes (2 to 6 players), e.g. seats = \"2-6\"",
            files.join("nw9.toml").display()
        )),
        "{err}"
    );
    assert!(!err.contains("e.g. --seats"), "{err}");
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert!(log.contains("press-reveal sometimes"), "{log}");
    assert_eq!(
        std::fs::read_to_string(&hx1).unwrap(),
        bad,
        "the bad file changed"
    );
    assert!(!h.dir.join("lobby").join("hx1.json").exists());
    assert!(!h.dir.join("lobby").join("hx2.json").exists());

    // The good file's table is the one `herald host open` makes.
    let t = table_json(&h.dir, "nw1");
    assert_eq!(t["game"], "norse-wars");
    assert_eq!((t["min"].as_u64(), t["max"].as_u64()), (Some(3), Some(4)));
    assert_eq!(t["deadline_every"], "72h");
    assert_eq!(t["vacation_days"], 10);
    assert_eq!(t["starts"]["at"], "2026-12-01T18:00:00+00:00");
    assert_eq!(
        t["press"],
        serde_json::json!({"kind": "grey", "while_resolving": true, "after_end": false, "reveal": "end"})
    );
    assert!(!files.join("nw1.toml").exists());
    assert!(files.join("opened").join("nw1.toml").exists());
    let cli = crate::common::scratch("lobby-file-cli");
    open(
        &cli,
        "nw1",
        &[
            "--ruleset",
            "norse-wars",
            "--seats",
            "3-4",
            "--deadline-every",
            "72h",
            "--starts-when",
            "2026-12-01T18:00:00Z",
            "--vacation-days",
            "10",
            "--press",
            "grey",
            "--press-after-end",
            "no",
            "--press-reveal",
            "end",
        ],
    );
    let mut by_cli = table_json(&cli, "nw1");
    let mut by_file = t.clone();
    for v in [&mut by_cli, &mut by_file] {
        let o = v.as_object_mut().unwrap();
        o.remove("opened");
        o.remove("from_file");
    }
    assert_eq!(by_file, by_cli);

    // Fixed, the file is opened by the next pass; nothing else repeats.
    std::fs::write(&hx1, "game = \"hexwar\"\nseats = 2\npress = \"private\"\n").unwrap();
    std::fs::remove_file(files.join("hx2.toml")).unwrap();
    std::fs::remove_file(files.join("nw9.toml")).unwrap();
    let out = h.pass_ok(&at(2));
    assert!(out.contains("hx1: opened from"), "{out}");
    assert!(!out.contains("nw1"), "{out}");
    assert_eq!(table_json(&h.dir, "hx1")["press"]["kind"], "private");
    // A pass cut short after opening a table but before moving its file:
    // the next pass finds the table made from these bytes and only moves it.
    let again = files.join("opened").join("hx1.toml");
    std::fs::rename(&again, &hx1).unwrap();
    let out = h.pass_ok(&at(3));
    assert!(out.contains("completed after an interrupted pass"), "{out}");
    assert!(!hx1.exists());
}
