//! Issue 52's standard by real mail (Postfix and Dovecot, as
//! tests/it/mailservers.rs runs them): a host with 12 players and 6
//! finished games, each of the five games ended by mail (resign, its
//! `concede` alias, a draw offered and accepted, a four-player Norse Wars
//! left one by one), one phase a stand-in played for a player away on
//! vacation, one missed; every player's `me` reply, and `herald host
//! ratings`, match the figures that tests/recompute/community.py (not
//! herald's code: Glicko-2 from the paper and the rules of docs/host.md,
//! read from the game files) computes; tables asking a minimum
//! reliability and rating refuse a join by mail with both figures and
//! the line to send.
//!
//! Kept cheap (issue 50): no game is played longer than its point needs,
//! the mails of a step go in one pass, and the suite's running servers
//! are reused.

use crate::common::herald;
use crate::host_mail::{at, bot_files, mail, send, Host};
use crate::mailservers::{servers, Account, MailServers};
use serde_json::Value;
use std::path::Path;

/// The players' mails to the host's account: each sent by SMTP, counted,
/// and waited for before a pass reads them.
struct Post<'a> {
    s: &'a MailServers,
    host: &'a Account,
    sent: usize,
}

impl Post<'_> {
    fn send(&mut self, from: &Account, to: &str, subject: &str, body: &str) {
        self.sent += 1;
        let mid = format!("c{}-{}@players.test", self.sent, from.local);
        send(
            self.s,
            &from.address,
            to,
            &mail(&from.address, to, subject, &mid, self.sent as i64, body),
        );
    }

    /// Every mail sent so far is in the host's mailbox.
    fn delivered(&self) {
        self.s.wait_for_mails(self.host, self.sent);
    }
}

/// `player`'s password among a game's.
fn pw<'a>(pws: &'a [(String, String)], player: &str) -> &'a str {
    &pws.iter().find(|(p, _)| p == player).unwrap().1
}

/// The newest mail to `of` holding `what`, as text (waits for it).
fn reply(s: &MailServers, of: &Account, what: &str) -> String {
    crate::lobby::wait_for_text(s, of, what)
}

/// Rounded half away from zero, as herald prints a rating (Rust's
/// `f64::round`).
fn whole(x: f64) -> i64 {
    x.round() as i64
}

/// The script's figures for `host`.
fn recompute(host: &Path) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/recompute/community.py");
    let python = "/usr/bin/python3";
    assert!(
        Path::new(python).exists(),
        "the recomputation needs Python 3 (Debian's python3): run ./test, which installs it"
    );
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(host)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The reliability line of `me` for the script's tally (or none).
fn reliability_words(t: Option<&Value>) -> String {
    let n = |k: &str| t.map_or(0, |t| t[k].as_u64().unwrap());
    match t.and_then(|t| t["percent"].as_u64()) {
        Some(p) => format!(
            "{p}% ({} of {} phases with orders in; {} excused; {} games)",
            n("ordered"),
            n("seated"),
            n("excused"),
            n("games")
        ),
        None => format!(
            "no phase played yet ({} excused; {} games)",
            n("excused"),
            n("games")
        ),
    }
}

/// "1662 ± 290 (1 game)" for the script's standing.
fn rating_words(r: &Value) -> String {
    let g = r["games"].as_u64().unwrap();
    format!(
        "{} ± {} ({g} game{})",
        whole(r["rating"].as_f64().unwrap()),
        whole(r["deviation"].as_f64().unwrap()),
        if g == 1 { "" } else { "s" }
    )
}

/// Long (about 200 lines): one host's story told in order (six games
/// begun, ended by mail step by step, the deadline's pass, the
/// recomputation, the 12 `me` replies, the refusals), each step's
/// checks beside it.
#[test]
fn twelve_players_six_games_by_mail_match_an_independent_recomputation() {
    let s = servers();
    let h = Host::new(s, "attach_png = false");
    let p: Vec<Account> = (0..12).map(|_| s.account()).collect();
    let [a, b, c, d, e, f, g, hh, i, j, k, l] =
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(|n| &p[n]);
    let mut post = Post {
        s,
        host: &h.acct,
        sent: 0,
    };
    let hour = ["--deadline-every", "1h"];
    // Five games begun by the moderator, one from a table whose vacations
    // a stand-in plays.
    let g1 = h.game(
        "stack-wars",
        "g1",
        &[("black", &a.address), ("white", &b.address)],
        &hour,
    );
    let g2 = h.game(
        "hexwar",
        "g2",
        &[("white", &c.address), ("black", &d.address)],
        &hour,
    );
    let g3 = h.game(
        "unfought-battle",
        "g3",
        &[("north", &e.address), ("south", &f.address)],
        &hour,
    );
    let g4 = h.game(
        "war-of-the-dukes",
        "g4",
        &[("orfburg", &g.address), ("wulfenburg", &hh.address)],
        &hour,
    );
    let g5 = h.game(
        "norse-wars",
        "g5",
        &[
            ("ivar", &i.address),
            ("jorun", &j.address),
            ("kari", &k.address),
            ("liv", &l.address),
        ],
        &hour,
    );
    let six = crate::lobby::started_game(
        &h,
        &[a.clone(), c.clone()],
        "g6",
        1,
        &["--deadline-every", "1h", "--vacation", "stand-in"],
    );
    let (a6, c6) = (&six[0], &six[1]);
    let to = |g: &str| h.game_addr(g);

    // Step 1: the first orders, the first ends, a vacation.
    for (id, file) in bot_files(&h.dir.join("g1"), &g1) {
        assert_eq!(id, "black");
        post.send(a, &to("g1"), "orders", &file);
    }
    post.send(
        c,
        &to("g2"),
        "draw",
        &format!("offer draw white {}", pw(&g2, "white")),
    );
    post.send(
        f,
        &to("g3"),
        "concede",
        &format!("concede south {}", pw(&g3, "south")),
    );
    post.send(
        hh,
        &to("g4"),
        "resign",
        &format!("resign wulfenburg {}", pw(&g4, "wulfenburg")),
    );
    post.send(
        j,
        &to("g5"),
        "resign",
        &format!("resign jorun {}", pw(&g5, "jorun")),
    );
    post.send(
        a,
        &to("g6"),
        "vacation",
        &format!("vacation {} {} until {}", a6.0, a6.1, at(3 * 1440)),
    );
    // The table's seats are drawn from its game's seed: c sends orders if
    // HEXWAR's first move is c's (then a is awaited next).
    let mut c_ordered = false;
    for (id, file) in bot_files(&h.dir.join("g6"), &six) {
        if id == c6.0 {
            post.send(c, &to("g6"), "orders", &file);
            c_ordered = true;
        }
    }
    post.delivered();
    h.pass_ok(&at(10));
    reply(s, a, "Vacation granted");
    // Step 2: the draw accepted; the second to leave Norse Wars.
    post.send(
        d,
        &to("g2"),
        "draw",
        &format!("accept draw black {}", pw(&g2, "black")),
    );
    post.send(
        k,
        &to("g5"),
        "resign",
        &format!("resign kari {}", pw(&g5, "kari")),
    );
    post.delivered();
    h.pass_ok(&at(20));
    // Step 3: the third leaves; ivar is left alone and wins.
    post.send(
        l,
        &to("g5"),
        "resign",
        &format!("resign liv {}", pw(&g5, "liv")),
    );
    post.delivered();
    h.pass_ok(&at(30));
    // Step 4: the deadlines pass (each an hour after its game's last
    // resolution), both by minute 71. g6's stand-in plays for the player
    // away (excused, not counted); g1's white sent nothing (a miss: the
    // stand-in plays, counted).
    let (_, six_game) = herald::pipeline::open(&h.dir.join("g6")).unwrap();
    assert_eq!(six_game.head().awaiting, vec![a6.0.clone()]);
    let out = h.pass_ok(&at(71));
    assert!(out.contains("resolved turn"), "{out}");
    let (_, six_game) = herald::pipeline::open(&h.dir.join("g6")).unwrap();
    assert_eq!(six_game.last_phase().unwrap().excused, vec![a6.0.clone()]);
    let (_, one) = herald::pipeline::open(&h.dir.join("g1")).unwrap();
    let phase = one.last_phase().unwrap();
    assert_eq!(phase.turn, 1);
    assert!(
        phase.excused.is_empty()
            && phase
                .orders
                .iter()
                .any(|o| o.player == "white" && o.nmr.is_some())
    );
    // Step 5: the last two ends.
    post.send(
        b,
        &to("g1"),
        "resign",
        &format!("resign white {}", pw(&g1, "white")),
    );
    post.send(c, &to("g6"), "resign", &format!("resign {} {}", c6.0, c6.1));
    post.delivered();
    h.pass_ok(&at(80));

    // Six games over, each as its ending says, and each verifies.
    let outcomes: Vec<(String, Vec<String>)> = ["g1", "g2", "g3", "g4", "g5", "g6"]
        .iter()
        .map(|id| {
            let folder = h.dir.join(id);
            let (code, o, e) = herald(&["verify", &folder.display().to_string()]);
            assert_eq!(code, 0, "{id}: {o}{e}");
            let (_, game) = herald::pipeline::open(&folder).unwrap();
            let out = game
                .head()
                .outcome
                .clone()
                .unwrap_or_else(|| panic!("{id} is not over"));
            (id.to_string(), out.winners)
        })
        .collect();
    let want: Vec<(String, Vec<String>)> = [
        ("g1", vec!["black".to_string()]),
        ("g2", vec![]),
        ("g3", vec!["north".to_string()]),
        ("g4", vec!["orfburg".to_string()]),
        ("g5", vec!["ivar".to_string()]),
        ("g6", vec![a6.0.clone()]),
    ]
    .into_iter()
    .map(|(g, w)| (g.to_string(), w))
    .collect();
    assert_eq!(outcomes, want);
    // The readers of results read these endings as any other: the lab's
    // (the game's own outcome of its state, as `herald playtest` reads
    // a game it played) gives the head's outcome; the replay site tells
    // the ending and ends on it.
    for id in ["g1", "g2", "g3", "g4", "g5", "g6"] {
        let (_, game) = herald::pipeline::open(&h.dir.join(id)).unwrap();
        let ids: Vec<String> = game.head().players.iter().map(|p| p.id.clone()).collect();
        let lab = game.rules.outcome(&game.state, &ids).expect("over");
        let head = game.head().outcome.clone().unwrap();
        assert_eq!(
            (&lab.winners, &lab.summary),
            (&head.winners, &head.summary),
            "{id}"
        );
    }
    for (id, ending, steps) in [
        ("g1", "White resigned", &["white resigned"][..]),
        ("g2", "drawn by agreement", &["drawn by agreement"][..]),
        (
            "g5",
            "ivar won",
            &["jorun resigned", "kari resigned", "liv resigned"][..],
        ),
    ] {
        let site = h.dir.join(format!("site-{id}"));
        let (code, o, e) = herald(&[
            "site",
            &h.dir.join(id).display().to_string(),
            "--out",
            &site.display().to_string(),
        ]);
        assert_eq!(code, 0, "{o}{e}");
        let index = std::fs::read_to_string(site.join("index.html")).unwrap();
        assert!(
            index.contains(ending),
            "{id}: {ending} not on the site's index"
        );
        // Each resignation (and the accept that ended a draw) is a step of
        // the replay, in order, after the phases before it.
        let mut all = String::new();
        for f in std::fs::read_dir(&site).unwrap().flatten() {
            if f.path().is_file() {
                all.push_str(&String::from_utf8_lossy(&std::fs::read(f.path()).unwrap()));
            }
        }
        let mut from = 0;
        for said in steps {
            let step = format!(": {said}\"");
            let at = all[from..]
                .find(&step)
                .unwrap_or_else(|| panic!("{id}: the step `{said}` is not on the site"));
            from += at + step.len();
        }
        std::fs::remove_dir_all(&site).unwrap();
    }

    // The recomputation, from the game files alone.
    let r = recompute(&h.dir);
    assert_eq!(r["games"], 6, "{r}");
    let rel = &r["reliability"];
    let ratings = r["ratings"].as_object().unwrap();
    // The story by hand: a sent orders once in g1 and was away once in g6;
    // b missed once; c sent once if the first move was c's; nobody else
    // was awaited in a phase.
    let tally = |x: &Account| rel.get(x.address.to_ascii_lowercase());
    assert_eq!(
        reliability_words(tally(a)),
        "100% (1 of 1 phases with orders in; 1 excused; 2 games)"
    );
    assert_eq!(
        reliability_words(tally(b)),
        "0% (0 of 1 phases with orders in; 0 excused; 1 games)"
    );
    assert_eq!(
        reliability_words(tally(c)),
        match c_ordered {
            true => "100% (1 of 1 phases with orders in; 0 excused; 1 games)",
            false => "no phase played yet (0 excused; 0 games)",
        }
    );
    assert!(tally(d).is_none() && tally(l).is_none(), "{rel}");
    let pools: Vec<&str> = ratings.keys().map(String::as_str).collect();
    assert_eq!(
        pools,
        [
            "hexwar",
            "norse-wars",
            "stack-wars",
            "unfought-battle",
            "war-of-the-dukes"
        ]
    );
    // Norse Wars, pairwise by the order they left: ivar won, then liv,
    // kari, jorun.
    let nw = &ratings["norse-wars"];
    let of = |pool: &Value, x: &Account| {
        pool[x.address.to_ascii_lowercase()]["rating"]
            .as_f64()
            .unwrap()
    };
    assert!(
        of(nw, i) > of(nw, l) && of(nw, l) > of(nw, k) && of(nw, k) > of(nw, j),
        "{nw}"
    );
    // The draw kept c and d level; then a beat c.
    let hx = &ratings["hexwar"];
    assert!(
        of(hx, a) > 1500.0 && of(hx, c) < 1500.0 && (of(hx, d) - 1500.0).abs() < 1e-9,
        "{hx}"
    );
    assert_eq!(hx[c.address.to_ascii_lowercase()]["games"], 2);

    // herald's own figures equal the script's.
    let mine = herald::community::ratings::of_host(&h.dir);
    assert_eq!(mine.len(), ratings.len());
    for (pool, standings) in &mine {
        assert_eq!(
            standings.len(),
            ratings[pool].as_object().unwrap().len(),
            "{pool}"
        );
        for (addr, st) in standings {
            let theirs = &ratings[pool][addr];
            for (x, y) in [
                (st.rating.rating, &theirs["rating"]),
                (st.rating.deviation, &theirs["deviation"]),
                (st.rating.volatility, &theirs["volatility"]),
            ] {
                assert!(
                    (x - y.as_f64().unwrap()).abs() < 1e-6,
                    "{pool} {addr}: {st:?} vs {theirs}"
                );
            }
            assert_eq!(u64::from(st.games), theirs["games"].as_u64().unwrap());
        }
    }
    let (code, listed, err) = herald(&["host", "ratings", &h.dir.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        listed.starts_with("ratings from 6 finished games"),
        "{listed}"
    );
    for (pool, standings) in ratings {
        for (addr, st) in standings.as_object().unwrap() {
            let line = format!("{} {addr}", rating_words(st));
            assert!(listed.contains(&line), "{pool}: {line} in\n{listed}");
        }
    }

    // Every player asks `me`: each reply holds the script's figures for
    // that address, and nobody else's.
    for x in &p {
        post.send(x, &h.acct.address, "me", "me");
    }
    post.delivered();
    h.pass_ok(&at(90));
    for x in &p {
        let addr = x.address.to_ascii_lowercase();
        let m = reply(s, x, "Your reliability");
        assert!(
            m.contains(&reliability_words(rel.get(&addr))),
            "{}: {m}",
            x.address
        );
        let mut rated = 0;
        for (pool, standings) in ratings {
            if let Some(st) = standings.get(&addr) {
                rated += 1;
                let line = format!("    {pool}: {}", rating_words(st));
                assert!(m.contains(&line), "{line} in {m}");
            }
        }
        assert_eq!(rated > 0, !m.contains("Your ratings: none yet"), "{m}");
        for other in &p {
            assert!(other.local == x.local || !m.contains(&other.address), "{m}");
        }
    }

    // Tables asking a minimum refuse a join by mail, saying both figures
    // and the line to send for a table that would take the player.
    let dir = h.dir.display().to_string();
    for args in [
        vec![
            "t-steady",
            "--ruleset",
            "stack-wars",
            "--min-reliability",
            "50",
        ],
        vec![
            "t-strong",
            "--ruleset",
            "norse-wars",
            "--seats",
            "3",
            "--min-rating",
            "1501",
        ],
        vec!["t-any", "--ruleset", "hexwar"],
    ] {
        let now = at(95);
        let mut all = vec!["host", "open", &dir];
        all.extend(args);
        all.extend(["--now", &now]);
        let (code, o, e) = herald(&all);
        assert_eq!(code, 0, "{o}{e}");
    }
    post.send(b, &h.acct.address, "join", "join t-steady Bee");
    post.send(j, &h.acct.address, "join", "join t-strong Jorun");
    post.send(i, &h.acct.address, "join", "join t-strong Ivar public");
    post.send(a, &h.acct.address, "join", "join t-any Ann public");
    post.send(l, &h.acct.address, "join", "join t-any Liv public");
    post.delivered();
    h.pass_ok(&at(100));
    let no = reply(s, b, "the join is refused");
    assert!(
        no.contains("Table `t-steady` asks a reliability of at least 50%"),
        "{no}"
    );
    assert!(
        no.contains(&format!("this address has {}", reliability_words(tally(b)))),
        "{no}"
    );
    assert!(no.contains("join t-any [your name]"), "{no}");
    assert!(
        !no.contains("join t-steady [your name]"),
        "the table that refused is no line to send: {no}"
    );
    let no = reply(s, j, "the join is refused");
    let jorun = rating_words(&ratings["norse-wars"][j.address.to_ascii_lowercase()]);
    assert!(
        no.contains("Table `t-strong` is for ratings of 1501 or more"),
        "{no}"
    );
    assert!(
        no.contains(&format!("this address has\n{jorun}")) || no.contains(&jorun),
        "{no}"
    );
    assert!(
        no.contains("join t-any [your name]") && !no.contains("join t-strong [your name]"),
        "{no}"
    );
    // ivar, rated above 1501 there, is taken: a code comes; he, ann and
    // liv confirm their joins as `public`.
    for x in [i, a, l] {
        let yes = reply(s, x, "confirm ");
        assert!(!yes.contains("refused"), "{yes}");
        let code = crate::lobby::code_in(&yes).unwrap_or_else(|| panic!("{yes}"));
        post.send(x, &h.acct.address, "confirm", &format!("confirm {code}"));
    }
    post.delivered();
    h.pass_ok(&at(110));
    // The gallery's ratings page names the three who chose `public`, with
    // the script's figures, and nobody else: no address, no other figure.
    let page = std::fs::read_to_string(h.dir.join("gallery/ratings.html")).unwrap();
    let mut rows = 0;
    for (pool, standings) in ratings {
        // The pool's own table (pools with no public player have none).
        let section = page
            .split_once(&format!("<h2 id=\"{}\">", pool.replace([' ', '='], "-")))
            .map_or("", |(_, rest)| rest.split("</table>").next().unwrap());
        for (addr, st) in standings.as_object().unwrap() {
            let row = format!(
                "<td class=\"n\">{} ± {}</td><td class=\"n\">{}</td>",
                whole(st["rating"].as_f64().unwrap()),
                whole(st["deviation"].as_f64().unwrap()),
                st["games"]
            );
            let name = [(i, "Ivar"), (a, "Ann"), (l, "Liv")]
                .iter()
                .find(|(x, _)| x.address.to_ascii_lowercase() == *addr)
                .map(|(_, n)| *n);
            if let Some(n) = name {
                rows += 1;
                assert!(
                    section.contains(&format!("<td>{n}</td>{row}")),
                    "{pool} {n}: {page}"
                );
            }
        }
        assert_eq!(
            section.matches("<tr><td").count(),
            standings
                .as_object()
                .unwrap()
                .keys()
                .filter(|k| [i, a, l]
                    .iter()
                    .any(|x| x.address.to_ascii_lowercase() == **k))
                .count(),
            "{pool}: only the public players: {page}"
        );
    }
    assert_eq!(rows, 4, "ann in two pools, ivar and liv in one");
    assert_eq!(page.matches("<tr><td").count(), rows, "{page}");
    // Each pool under its game's title, as players know the game.
    for title in ["HEXWAR", "Norse Wars", "Stack Wars"] {
        assert!(page.contains(&format!(">{title}</h2>")), "{title}: {page}");
    }
    for x in &p {
        assert!(
            !page.contains(&x.address) && !page.contains(&x.local),
            "{page}"
        );
    }
}
