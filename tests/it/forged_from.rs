//! A From header is a claim, not a proof (issue 47, items 3, 4 and 6):
//! a flood sent From a player's own address costs the budget like any
//! other, and the replies to one address are bounded per hour; the
//! host's own server may vouch for a sender (Authentication-Results,
//! RFC 8601), only in the topmost field; everything that changes a seat,
//! a table or a standing is confirmed by a code round trip whose mail
//! says what it does; one person, one seat per game. Through the real
//! Postfix and Dovecot.

use crate::host_mail::{at, bot_files, mail, text};
use crate::host_safety::{maildir_host, put, settled};
use crate::mailservers::{servers, Account};
use std::path::Path;

/// The host's log lines of one kind (` in refused `, ` in throttled `).
fn lines(log: &str, event: &str) -> usize {
    log.lines().filter(|l| l.contains(event)).count()
}

/// The mails that answer a mail (they name it in In-Reply-To).
fn replies_in(mails: &[Vec<u8>]) -> usize {
    mails
        .iter()
        .filter(|m| {
            String::from_utf8_lossy(m)
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .any(|l| l.to_ascii_lowercase().starts_with("in-reply-to:"))
        })
        .count()
}

/// A guessing flood forged From the player's own address: the budget
/// counts it like any other (before: every guess hashed, every one
/// answered, to the player), and the player's address gets no more
/// replies an hour than the host's bound.
#[test]
fn a_flood_from_the_players_own_address_costs_the_budget_and_is_answered_a_bounded_number_of_times()
{
    let s = servers();
    let (h, maildir) = maildir_host(s, "password_checks_per_hour = 5");
    let (white, black) = (s.account(), s.account());
    let pw = h.game(
        "hexwar",
        "ff1",
        &[("white", &white.address), ("black", &black.address)],
        &[],
    );
    let folder = h.dir.join("ff1");
    let to = h.game_addr("ff1");
    let files = bot_files(&folder, &pw);
    let (player, good) = &files[0];
    assert_eq!(player, "white");
    let real = &pw.iter().find(|(p, _)| p == player).unwrap().1;
    let guesses = crate::common::count("HERALD_GUESSES", 1000);
    for i in 0..guesses {
        let bad = good.replace(real.as_str(), &format!("guess-{i:04}-x"));
        put(
            &maildir,
            &format!("g{i:05}"),
            &mail(
                &white.address,
                &to,
                "orders",
                &format!("forged-{i}@evil.test"),
                1,
                &bad,
            ),
        );
    }
    h.pass_ok(&at(10));
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    // Every mail read is either hashed (accepted or refused) or not
    // (throttled): the hashes are those that were not throttled.
    let hashed = lines(&log, " in refused ") + lines(&log, " in accepted ");
    let throttled = lines(&log, " in throttled ");
    assert_eq!(hashed + throttled, guesses, "{log}");
    // The replies the player's address got (its turn-0 report aside),
    // once Postfix has them all.
    settled(s, &white, 1);
    let replies = replies_in(&s.mails(&white));
    eprintln!(
        "a flood of {guesses} wrong passwords From the player's own address: {hashed} hashed, {replies} replies to the player's address"
    );
    assert!(hashed <= 5, "{hashed} passwords hashed past a budget of 5");
    let bound = herald::host::config::DEFAULT_REPLIES_PER_HOUR as usize;
    assert!(
        replies <= bound,
        "{replies} replies to one address in an hour (the bound is {bound})"
    );
    // The moderator sees it (the replies held back by the bound are
    // tested with a flood of forged joins, below).
    let page = std::fs::read_to_string(h.dir.join("index.json")).unwrap();
    assert!(page.contains("someone may be guessing"), "{page}");
    assert!(page.contains("From is white's own address"), "{page}");
    // The player's own orders a pass later, within the hour: the budget
    // of mails From their address is spent, so they wait (the moderator
    // has been told); an hour on they are read.
    let real_mail = mail(&white.address, &to, "orders", "real@p.test", 20, good);
    put(&maildir, "real", &real_mail);
    h.pass_ok(&at(20));
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert_eq!(lines(&log, " in accepted "), 0, "{log}");
    put(
        &maildir,
        "real2",
        &mail(&white.address, &to, "orders", "real2@p.test", 75, good),
    );
    h.pass_ok(&at(75));
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert_eq!(lines(&log, " in accepted "), 1, "{log}");
    let acks = s
        .mails(&white)
        .iter()
        .map(|m| text(m))
        .filter(|t| t.contains("are ACCEPTED"))
        .count();
    assert!(acks <= 1, "{acks}");
}

/// The code in a lobby mail: the word after `confirm `.
fn code_in(m: &str) -> Option<String> {
    m.lines()
        .find_map(|l| l.trim().strip_prefix("confirm "))
        .map(|c| c.trim().to_string())
        .filter(|c| c.len() == 14)
}

/// The mails of `of` holding `what`, as text, oldest first.
fn with(s: &crate::mailservers::MailServers, of: &Account, what: &str) -> Vec<String> {
    s.mails(of)
        .iter()
        .map(|m| text(m))
        .filter(|t| t.contains(what))
        .collect()
}

/// Wait until `of` has `n` mails holding `what`; them, oldest first.
fn wait_with(
    s: &crate::mailservers::MailServers,
    of: &Account,
    what: &str,
    n: usize,
) -> Vec<String> {
    for _ in 0..300 {
        let got = with(s, of, what);
        if got.len() >= n {
            return got;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!(
        "{} has {} mails with {what:?}, not {n}: {:#?}",
        of.address,
        with(s, of, what).len(),
        s.mails(of).iter().map(|m| text(m)).collect::<Vec<_>>()
    );
}

/// The lobby's requests waiting for a code, as JSON.
fn waiting(dir: &Path) -> Vec<serde_json::Value> {
    let p = dir.join("lobby/confirm/requests.json");
    let Ok(b) = std::fs::read(&p) else {
        return Vec::new();
    };
    let v: serde_json::Value = serde_json::from_slice(&b).unwrap();
    v["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["state"]["state"] == "waiting")
        .cloned()
        .collect()
}

/// A forged `leave` frees no seat: a code goes to the seat's address,
/// saying what confirming does, and only a confirmation frees it. A forged
/// `join t1 <insult> public` from someone's address replaces nothing: its
/// code mail says the name and `public`, and lists the join they asked
/// for, whose code still works; confirming theirs withdraws the forged
/// one. A reply to a code mail (`Re: join t1 Bob`, its first line
/// `confirm CODE`) confirms, and does not start a new join.
#[test]
fn a_forged_leave_or_join_changes_nothing_and_each_code_mail_says_what_it_does() {
    let s = servers();
    let (h, md) = maildir_host(s, "");
    let (ann, bob) = (s.account(), s.account());
    crate::lobby::open(&h.dir, "t1", &["--game", "norse-wars", "--seats", "3"]);
    let host = h.acct.address.clone();
    let mut n = 0;
    let mut put_mail = |from: &str, subject: &str, body: &str, minute: i64| {
        n += 1;
        put(
            &md,
            &format!("m{n:03}"),
            &mail(from, &host, subject, &format!("m{n}@p.test"), minute, body),
        );
    };
    // Ann joins and confirms.
    put_mail(&ann.address, "join", "join t1 Ann", 1);
    h.pass_ok(&at(1));
    let c = code_in(&wait_with(s, &ann, "confirm ", 1)[0]).unwrap();
    put_mail(&ann.address, "Re: join", &format!("confirm {c}"), 2);
    h.pass_ok(&at(2));
    let t = crate::lobby::table_json(&h.dir, "t1");
    assert_eq!(t["seats"][0]["address"], ann.address.as_str());
    // A forged leave From Ann's address: the seat stays; Ann is mailed a
    // code that says what confirming it does.
    put_mail(&ann.address, "leave t1", "", 3);
    h.pass_ok(&at(3));
    let t = crate::lobby::table_json(&h.dir, "t1");
    assert_eq!(
        t["seats"].as_array().unwrap().len(),
        1,
        "a forged leave freed the seat"
    );
    let leave = wait_with(s, &ann, "to leave table `t1`", 1).remove(0);
    assert!(
        leave.contains("gives up this address's seat 1 as \"Ann\""),
        "{leave}"
    );
    let leave_code = code_in(&leave).unwrap();
    // Bob joins; someone forges an insulting public join in his name.
    put_mail(&bob.address, "join t1 Bob", "", 4);
    put_mail(&bob.address, "join", "join t1 Bob Is A Cheat public", 5);
    h.pass_ok(&at(5));
    let mails = wait_with(s, &bob, "confirm ", 2);
    let own = mails.iter().find(|m| m.contains("\"Bob\" (")).unwrap();
    let forged = mails
        .iter()
        .find(|m| m.contains("\"Bob Is A Cheat\" ("))
        .unwrap();
    assert!(own.contains("display name:  \"Bob\""), "{own}");
    assert!(own.contains("private: only the moderator sees it"), "{own}");
    assert!(
        forged.contains("display name:  \"Bob Is A Cheat\""),
        "{forged}"
    );
    assert!(forged.contains("PUBLIC"), "{forged}");
    // The forged code's mail names the join Bob asked for, still waiting.
    assert!(
        forged.contains("Also waiting") && forged.contains("`join t1 Bob`"),
        "{forged}"
    );
    assert_eq!(waiting(&h.dir).len(), 3, "Ann's leave, Bob's two joins");
    // Bob answers his own code mail: the subject a reply's, the first
    // line the confirmation. He is seated as Bob, not public.
    let own_code = code_in(own).unwrap();
    put_mail(
        &bob.address,
        "Re: join t1 Bob",
        &format!("confirm {own_code}\n\n> Someone (you, we hope) asked"),
        6,
    );
    h.pass_ok(&at(6));
    let t = crate::lobby::table_json(&h.dir, "t1");
    let seats = t["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2, "{t}");
    assert_eq!(seats[1]["name"], "Bob");
    assert_eq!(seats[1]["public"], false);
    wait_with(s, &bob, "Confirmed: you have seat 2", 1);
    // The forged code, confirmed later (a slip): withdrawn, nothing done.
    let forged_code = code_in(forged).unwrap();
    put_mail(&bob.address, "x", &format!("confirm {forged_code}"), 7);
    h.pass_ok(&at(7));
    let told = wait_with(s, &bob, "withdrawn", 1).remove(0);
    assert!(told.contains("join t1 Bob Is A Cheat public"), "{told}");
    let t = crate::lobby::table_json(&h.dir, "t1");
    assert_eq!(t["seats"][1]["name"], "Bob");
    // Ann confirms her leave after all: the seat is freed.
    put_mail(&ann.address, "x", &format!("confirm {leave_code}"), 8);
    h.pass_ok(&at(8));
    let t = crate::lobby::table_json(&h.dir, "t1");
    assert_eq!(t["seats"].as_array().unwrap().len(), 1, "{t}");
    assert_eq!(t["seats"][0]["address"], bob.address.as_str());
    wait_with(s, &ann, "Confirmed: you have left table `t1`", 1);
}

/// `standby` and `standby off` by a code too; a flood of forged joins
/// From someone's address brings it no more code mails an hour than the
/// host's bound, and the moderator sees the rest held back.
#[test]
fn standby_needs_its_code_and_a_flood_of_forged_joins_is_bounded() {
    let s = servers();
    let (h, md) = maildir_host(s, "");
    let (carl, victim) = (s.account(), s.account());
    crate::lobby::open(&h.dir, "t2", &["--game", "norse-wars", "--seats", "3"]);
    let host = h.acct.address.clone();
    let standby =
        || std::fs::read_to_string(h.dir.join("lobby/standby/list.json")).unwrap_or_default();
    put(
        &md,
        "s1",
        &mail(&carl.address, &host, "standby", "s1@p.test", 1, ""),
    );
    h.pass_ok(&at(1));
    assert!(
        !standby().contains(&carl.address),
        "a forgeable standby took effect"
    );
    let m = wait_with(s, &carl, "standby list", 1).remove(0);
    let code = code_in(&m).unwrap();
    put(
        &md,
        "s2",
        &mail(
            &carl.address,
            &host,
            "Re: standby",
            "s2@p.test",
            2,
            &format!("confirm {code}"),
        ),
    );
    h.pass_ok(&at(2));
    assert!(standby().contains(&carl.address));
    // A forged `standby off`: Carl stays on the list.
    put(
        &md,
        "s3",
        &mail(&carl.address, &host, "standby off", "s3@p.test", 3, ""),
    );
    h.pass_ok(&at(3));
    assert!(
        standby().contains(&carl.address),
        "a forged standby off took effect"
    );
    wait_with(s, &carl, "take this address off the standby list", 1);
    // 30 forged joins From the victim's address in one pass.
    for i in 0..30 {
        put(
            &md,
            &format!("f{i:02}"),
            &mail(
                &victim.address,
                &host,
                "join",
                &format!("f{i}@evil.test"),
                4,
                &format!("join t2 Fake{i}"),
            ),
        );
    }
    h.pass_ok(&at(5));
    let bound = herald::host::config::DEFAULT_REPLIES_PER_HOUR as usize;
    settled(s, &victim, bound);
    let codes = s.mails(&victim).len();
    assert_eq!(codes, bound, "code mails to one address in an hour");
    // Only the requests whose code went out wait.
    let theirs = waiting(&h.dir)
        .into_iter()
        .filter(|r| r["address"] == victim.address.as_str())
        .count();
    assert_eq!(theirs, bound);
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert_eq!(lines(&log, " in bound "), 1, "{log}");
    let page = std::fs::read_to_string(h.dir.join("index.html")).unwrap();
    assert!(
        page.contains("Replies held back") && page.contains(&victim.address),
        "{page}"
    );
    // The moderator's page counts the joins waiting (no address).
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(h.dir.join("index.json")).unwrap()).unwrap();
    assert_eq!(json["tables"][0]["waiting_confirmation"], bound);
    // An hour on, the address is answered again.
    put(
        &md,
        "late",
        &mail(&victim.address, &host, "tables", "late@p.test", 70, ""),
    );
    h.pass_ok(&at(70));
    settled(s, &victim, bound + 1);
}

/// One person, one seat: a player of a game cannot take over another of
/// its seats (nor join a table twice, also as `name+tag@`), unless the
/// table allows more (`--seats-per-address`). A takeover's code mail
/// says the game, the seat and the name; a second confirmation is told
/// the seat was taken, and a confirmation that comes after its table
/// started is told so, not "not a code this host is waiting for".
#[test]
fn one_person_one_seat_and_late_confirmations_are_told_what_happened() {
    let s = servers();
    let (h, md) = maildir_host(s, "");
    let (p0, p1, sam, tia) = (s.account(), s.account(), s.account(), s.account());
    let host = h.acct.address.clone();
    let ids = crate::lobby::started_game(&h, &[p0.clone(), p1.clone()], "g1", 1, &[]);
    let dd = h.dir.display().to_string();
    let (code, o, e) =
        crate::common::herald(&["host", "replace", &dd, "g1", &ids[1].0, "--now", &at(2)]);
    assert_eq!(code, 0, "{o}{e}");
    h.pass_ok(&at(2));
    let mut n = 0;
    let mut put_mail = |from: &str, body: &str, minute: i64| {
        n += 1;
        put(
            &md,
            &format!("m{n:03}"),
            &mail(from, &host, "x", &format!("m{n}@p.test"), minute, body),
        );
    };
    // The other seat's player asks for the freed seat: refused, one seat.
    put_mail(&p0.address, &format!("takeover g1 {}", ids[1].0), 3);
    // Sam and Tia ask; their code mails say what confirming does.
    put_mail(&sam.address, &format!("takeover g1 {} Sam", ids[1].0), 3);
    put_mail(&tia.address, &format!("takeover g1 {}", ids[1].0), 3);
    h.pass_ok(&at(3));
    let refused = wait_with(s, &p0, "one person", 1).remove(0);
    assert!(
        refused.contains(&format!("the seat `{}`", ids[0].0)),
        "{refused}"
    );
    assert!(with(s, &p0, "confirm ")
        .iter()
        .all(|m| code_in(m).is_none()));
    let sam_mail = wait_with(s, &sam, "take over the seat", 1).remove(0);
    assert!(
        sam_mail.contains(&format!("seat:          {}", ids[1].0)),
        "{sam_mail}"
    );
    assert!(sam_mail.contains("game:          g1"), "{sam_mail}");
    assert!(sam_mail.contains("display name:  \"Sam\""), "{sam_mail}");
    let tia_mail = wait_with(s, &tia, "take over the seat", 1).remove(0);
    // Sam confirms first, then Tia: told the seat was taken.
    put_mail(
        &sam.address,
        &format!("confirm {}", code_in(&sam_mail).unwrap()),
        4,
    );
    put_mail(
        &tia.address,
        &format!("confirm {}", code_in(&tia_mail).unwrap()),
        5,
    );
    let out = h.pass_ok(&at(5));
    assert!(out.contains("taken over"), "{out}");
    let told = wait_with(s, &tia, "confirmed first", 1).remove(0);
    assert!(!told.contains("not one this host is waiting for"), "{told}");
    // Sam, now holding the seat, confirming again (a second mail with the
    // same code): told it is done.
    put_mail(
        &sam.address,
        &format!("confirm {}", code_in(&sam_mail).unwrap()),
        6,
    );
    h.pass_ok(&at(6));
    wait_with(s, &sam, "confirmed already", 1);
    // A table: Ann joins; her second address (a +tag of it) is her too.
    let ann = s.account();
    crate::lobby::open(&h.dir, "t3", &["--game", "hexwar"]);
    put_mail(&ann.address, "join t3 Ann", 7);
    h.pass_ok(&at(7));
    let c = code_in(&wait_with(s, &ann, "confirm ", 1)[0]).unwrap();
    put_mail(&ann.address, &format!("confirm {c}"), 8);
    put_mail(&ann.plus("two"), "join t3 Ann Two", 8);
    h.pass_ok(&at(8));
    wait_with(s, &ann, "You have a seat at `t3` already", 1);
    // Tia joins, and the table fills with Sam before Tia confirms: her
    // confirmation, after the start, is told the table started.
    put_mail(&tia.address, "join t3 Tia", 9);
    put_mail(&sam.address, "join t3 Sam", 9);
    h.pass_ok(&at(9));
    let tc = code_in(&wait_with(s, &tia, "seat at a table", 1)[0]).unwrap();
    let sc = code_in(&wait_with(s, &sam, "seat at a table", 1)[0]).unwrap();
    put_mail(&sam.address, &format!("confirm {sc}"), 10);
    let out = h.pass_ok(&at(10));
    assert!(out.contains("t3: started"), "{out}");
    put_mail(&tia.address, &format!("confirm {tc}"), 11);
    h.pass_ok(&at(11));
    let late = wait_with(s, &tia, "came too late", 1).remove(0);
    assert!(late.contains("table `t3` has started"), "{late}");
}

/// A table that lets one address hold two seats (a family sharing one
/// mailbox): both joins from the address take a seat.
#[test]
fn a_table_may_allow_two_seats_to_one_address() {
    let s = servers();
    let (h, md) = maildir_host(s, "");
    let fam = s.account();
    crate::lobby::open(
        &h.dir,
        "t4",
        &["--game", "hexwar", "--seats-per-address", "2"],
    );
    let host = h.acct.address.clone();
    for (i, name) in ["Kid One", "Kid Two"].iter().enumerate() {
        put(
            &md,
            &format!("j{i}"),
            &mail(
                &fam.address,
                &host,
                "join",
                &format!("j{i}@p.test"),
                1,
                &format!("join t4 {name}"),
            ),
        );
    }
    h.pass_ok(&at(1));
    let codes: Vec<String> = wait_with(s, &fam, "confirm ", 2)
        .iter()
        .filter_map(|m| code_in(m))
        .collect();
    for (i, c) in codes.iter().enumerate() {
        put(
            &md,
            &format!("c{i}"),
            &mail(
                &fam.address,
                &host,
                "x",
                &format!("c{i}@p.test"),
                2,
                &format!("confirm {c}"),
            ),
        );
    }
    let out = h.pass_ok(&at(2));
    assert!(
        out.contains("t4: started as game t4 with 2 players"),
        "{out}"
    );
}

/// The host's own server may vouch for a sender: with host.toml's
/// `authserv_ids`, a mail whose topmost Authentication-Results field,
/// of that authserv-id, says `dmarc=pass` for its From domain is the
/// player's own, read when their budget is spent; a `pass` the sender
/// wrote lower down is not believed. Through the real Postfix and Dovecot
/// (which add their own trace fields on top); the test writes the field
/// the receiving server's DMARC checker would write at the top of what
/// Postfix is handed (the test servers run no checker).
#[test]
fn the_topmost_authentication_results_of_the_hosts_server_vouches_for_a_sender() {
    let s = servers();
    let h = crate::host_mail::Host::new(
        s,
        "password_checks_per_hour = 2\nauthserv_ids = [\"mx.herald.test\"]",
    );
    let (white, black) = (s.account(), s.account());
    let pw = h.game(
        "hexwar",
        "ar1",
        &[("white", &white.address), ("black", &black.address)],
        &[],
    );
    let folder = h.dir.join("ar1");
    let to = h.game_addr("ar1");
    let files = bot_files(&folder, &pw);
    let (player, good) = &files[0];
    let real = &pw.iter().find(|(p, _)| p == player).unwrap().1;
    let bad = good.replace(real.as_str(), "nope-nope-nope");
    let domain = crate::mailservers::DOMAIN;
    let server_says = |result: &str| {
        format!("Authentication-Results: mx.herald.test;\r\n\tdmarc={result} (p=reject) header.from={domain}\r\n")
    };
    let forged_pass =
        format!("Authentication-Results: mx.herald.test; dmarc=pass header.from={domain}\r\n");
    // Three guesses From White's address, no field at all: two hashed,
    // the budget of mails From that address spent.
    for i in 0..3 {
        let m = mail(
            &white.address,
            &to,
            "orders",
            &format!("g{i}@evil.test"),
            1,
            &bad,
        );
        crate::host_mail::send(s, &white.address, &to, &m);
    }
    s.wait_for_mails(&h.acct, 3);
    h.pass_ok(&at(2));
    // White's real orders, the server's field on top saying `fail`, a
    // `pass` the sender wrote under it: not believed, not read.
    let mut m = server_says("fail").into_bytes();
    m.extend_from_slice(forged_pass.as_bytes());
    m.extend(mail(&white.address, &to, "orders", "real1@p.test", 3, good));
    crate::host_mail::send(s, &white.address, &to, &m);
    s.wait_for_mails(&h.acct, 4);
    h.pass_ok(&at(4));
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert_eq!(lines(&log, " in accepted "), 0, "{log}");
    assert_eq!(lines(&log, " in throttled "), 2, "{log}");
    // The same orders with the server's `pass` on top: read at once.
    let mut m = server_says("pass").into_bytes();
    m.extend(mail(&white.address, &to, "orders", "real2@p.test", 5, good));
    crate::host_mail::send(s, &white.address, &to, &m);
    s.wait_for_mails(&h.acct, 5);
    h.pass_ok(&at(6));
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert_eq!(lines(&log, " in accepted "), 1, "{log}");
    // Another server's pass vouches for nothing.
    let mut m =
        b"Authentication-Results: mx.elsewhere.test; dmarc=pass header.from=herald.test\r\n"
            .to_vec();
    m.extend(mail(&white.address, &to, "orders", "real3@p.test", 7, good));
    crate::host_mail::send(s, &white.address, &to, &m);
    s.wait_for_mails(&h.acct, 6);
    h.pass_ok(&at(8));
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert_eq!(lines(&log, " in accepted "), 1, "{log}");
    assert_eq!(lines(&log, " in throttled "), 3, "{log}");
}

/// A table and an offer written by the herald before the lobby's store
/// of requests (their joins and takeovers waiting inside them, as
/// `pending` and `claims`): the codes mailed then still work, and the
/// next write moves them into the store. A confirmation handled again
/// (a pass killed after the seat was written, before the request was
/// marked done) seats once and answers the same.
#[test]
fn older_waiting_joins_still_confirm_and_a_confirmation_handled_again_seats_once() {
    use herald::chain::canon::sha256_hex;
    use herald::host::lobby::{self, commands};
    let dir = crate::common::scratch("lobby-older-requests");
    let host = herald::host::layout::HostDir::at(&dir);
    crate::lobby::open(&dir, "old1", &["--game", "hexwar"]);
    let key = lobby::key(&host).unwrap();
    // As the older herald kept them: the code drawn from the join mail,
    // its sha256 in the table; a takeover's in the game's offer.
    let (join_mail, take_mail) = (format!("{:064x}", 1), format!("{:064x}", 2));
    let (jc, tc) = (
        lobby::code_for(&key, &join_mail),
        lobby::code_for(&key, &take_mail),
    );
    let p = dir.join("lobby/old1.json");
    let mut t: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    t["pending"] = serde_json::json!([{"address": "ann@x.test", "name": "Ann", "public": false,
        "code_sha256": sha256_hex(jc.as_bytes()), "mail": join_mail, "at": at(1)}]);
    std::fs::write(&p, serde_json::to_vec_pretty(&t).unwrap()).unwrap();
    std::fs::create_dir_all(dir.join("lobby/games")).unwrap();
    std::fs::write(
        dir.join("lobby/games/gx.json"),
        serde_json::to_vec(&serde_json::json!({
            "game": "gx",
            "offers": [{"n": 1, "player": "p1", "why": "dropped", "at": at(0), "status": "open",
                "announced": true, "taker": null, "done": null,
                "claims": [{"address": "sam@x.test", "name": "Sam", "public": false,
                    "code_sha256": sha256_hex(tc.as_bytes()), "mail": take_mail, "at": at(1)}]}]
        }))
        .unwrap(),
    )
    .unwrap();
    let st = crate::common::herald(&["host", "status", &dir.display().to_string()]).1;
    assert!(st.contains("`join old1 Ann` from <ann@x.test>"), "{st}");
    assert!(
        st.contains("`takeover gx p1 Sam` from <sam@x.test>"),
        "{st}"
    );
    let addr = |g: &str| format!("host+{g}@x.test");
    let cx = commands::Ctx {
        host: host.clone(),
        from: "host@x.test".into(),
        game_address: &addr,
        now: at(5),
        seats_per_address: 1,
        may_mail_code: &|_, _| Ok(true),
    };
    let confirm = commands::Command::Confirm(jc.clone());
    let digest = format!("{:064x}", 3);
    let a = commands::answer(&cx, &confirm, "ann@x.test", &digest, "<c@x>", "Re: x").unwrap();
    assert!(
        matches!(a.outcome, commands::Outcome::Done { again: false, .. }),
        "{}",
        a.what
    );
    let t: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    assert_eq!(t["seats"].as_array().unwrap().len(), 1);
    assert!(t.get("pending").is_none(), "moved into the store: {t}");
    let g = std::fs::read_to_string(dir.join("lobby/games/gx.json")).unwrap();
    assert!(!g.contains("claims"), "{g}");
    // The takeover's old code, confirmed now.
    let a = commands::answer(
        &cx,
        &commands::Command::Confirm(tc),
        "sam@x.test",
        &format!("{:064x}", 4),
        "<t@x>",
        "Re: x",
    )
    .unwrap();
    assert!(a.what.contains("takeover of p1 in gx"), "{}", a.what);
    // A kill after the seat was written and before the request was marked
    // done: the store as it was; the same mail handled again.
    let store = dir.join("lobby/confirm/requests.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&store).unwrap()).unwrap();
    for r in v["requests"].as_array_mut().unwrap() {
        if r["action"]["do"] == "join" {
            r["state"] = serde_json::json!({"state": "waiting"});
        }
    }
    std::fs::write(&store, serde_json::to_vec(&v).unwrap()).unwrap();
    let again = commands::answer(&cx, &confirm, "ann@x.test", &digest, "<c@x>", "Re: x").unwrap();
    assert!(
        matches!(again.outcome, commands::Outcome::Done { again: true, .. }),
        "{}",
        again.what
    );
    assert_eq!(again.reply.unwrap().0, a_reply_id(&digest));
    let t: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    assert_eq!(t["seats"].as_array().unwrap().len(), 1, "seated once");
}

/// The Message-ID of the lobby's reply to the mail `digest`.
fn a_reply_id(digest: &str) -> String {
    herald::mail::eml::message_id("host", &["lobby", digest])
}
