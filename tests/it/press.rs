//! Press (issue 33): players writing to each other through the host, under
//! the game's press rules, through the real Postfix and Dovecot. Every
//! mail every account got and every file of the host folder is scanned for
//! each message's text: each recipient gets exactly what was sent, nobody
//! else does, an anonymous sender shows in no header, and kill -9 at any
//! instant relays each press at most once per recipient and loses none.

use crate::common::{herald, scratch};
use crate::host_mail::{at, bot_files, mail, send, status, Host};
use crate::host_safety::{drain, maildir_host, put, settled, spawn_host};
use crate::mailservers::{servers, Account};
use mail_parser::MimeHeaders;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every regular file under `dir`, but those under `skip`.
pub(crate) fn files_under(dir: &Path, skip: &[PathBuf], out: &mut Vec<PathBuf>) {
    let Ok(list) = std::fs::read_dir(dir) else {
        return;
    };
    // In name order: a directory's own order is the file system's (tmpfs
    // lists the newest first, ext4 by hash), and a test comparing lists
    // of files must not depend on it.
    let mut list: Vec<PathBuf> = list.flatten().map(|e| e.path()).collect();
    list.sort();
    for p in list {
        if skip.iter().any(|s| p.starts_with(s)) {
            continue;
        }
        if p.is_dir() {
            files_under(&p, skip, out);
        } else {
            out.push(p);
        }
    }
}

/// A press mail from `who` (an account) to the game at `to`.
pub(crate) fn press_mail(
    who: &Account,
    to: &str,
    id: &str,
    minutes: i64,
    first: &str,
    password: &str,
    text: &str,
) -> Vec<u8> {
    mail(
        &who.address,
        to,
        "press",
        id,
        minutes,
        &format!(
            "{first}\npassword = \"{password}\"\n\n{text}\n\n-- \nsent from a phone of {}\n",
            who.address
        ),
    )
}

/// A reply to a relayed press mail `orig` (as delivered), as a mail
/// program writes it: In-Reply-To, `Re:` subject, the original quoted.
pub(crate) fn reply_to(who: &Account, orig: &[u8], id: &str, minutes: i64, own: &str) -> Vec<u8> {
    let m = mail_parser::MessageParser::default().parse(orig).unwrap();
    let from = m
        .from()
        .unwrap()
        .first()
        .unwrap()
        .address()
        .unwrap()
        .to_string();
    let quoted: String = m
        .body_text(0)
        .unwrap()
        .lines()
        .map(|l| format!("> {l}\n"))
        .collect();
    format!(
        "From: {}\r\nTo: {from}\r\nSubject: Re: {}\r\nMessage-ID: <{id}>\r\nIn-Reply-To: <{}>\r\nReferences: <{}>\r\nDate: {}\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n\r\nOn Tuesday the game wrote:\r\n{}",
        who.address,
        m.subject().unwrap(),
        m.message_id().unwrap(),
        m.message_id().unwrap(),
        crate::host_mail::date(minutes),
        own.replace('\n', "\r\n"),
        quoted.replace('\n', "\r\n")
    )
    .into_bytes()
}

pub(crate) fn password_of<'a>(pw: &'a [(String, String)], p: &str) -> &'a str {
    &pw.iter().find(|(x, _)| x == p).unwrap().1
}

/// A 3-player Norse Wars game `id` on host `h`, red, blue and white at
/// `accts`' addresses, begun with `extra` (the press rules): the
/// passwords, by player.
pub(crate) fn norse3(
    h: &Host,
    accts: &[Account],
    id: &str,
    extra: &[&str],
) -> Vec<(String, String)> {
    h.game(
        "norse-wars",
        id,
        &[
            ("red", &accts[0].address),
            ("blue", &accts[1].address),
            ("white", &accts[2].address),
        ],
        extra,
    )
}

/// Is this delivered mail a report mail (not a relayed press, a copy or
/// a reply)?
fn is_report(m: &[u8]) -> bool {
    mail_parser::MessageParser::default()
        .parse(m)
        .and_then(|m| m.subject().map(|s| s.contains(" report for ")))
        .unwrap_or(false)
}

/// The mails of `acct` whose text holds `token`.
fn holding(s: &crate::mailservers::MailServers, acct: &Account, token: &str) -> Vec<Vec<u8>> {
    s.mails(acct)
        .into_iter()
        .filter(|m| {
            crate::host_mail::text(m).contains(token) || String::from_utf8_lossy(m).contains(token)
        })
        .collect()
}

/// The players of the press games, in the order of their accounts.
const PLAYERS: [&str; 3] = ["red", "blue", "white"];

/// Each awaited player's bot orders of this turn, mailed from their
/// account to the game's address `to` at `minute`, their Message-IDs
/// starting `mid`: how many were sent.
fn mail_bot_orders(
    s: &crate::mailservers::MailServers,
    to: &str,
    accts: &[Account],
    (folder, pw): (&Path, &[(String, String)]),
    mid: &str,
    minute: i64,
) -> usize {
    let files = bot_files(folder, pw);
    for (player, file) in &files {
        let acct = &accts[PLAYERS.iter().position(|x| x == player).unwrap()];
        let mid = format!("{mid}-{player}@players.test");
        send(
            s,
            &acct.address,
            to,
            &mail(&acct.address, to, "orders", &mid, minute, file),
        );
    }
    files.len()
}

/// A 3-player Norse Wars game by real mail with grey press: private,
/// broadcast, anonymous press and a reply to the anonymous sender, sent
/// during the game around its turns, and a press refused for a wrong
/// password. Each message reaches exactly its recipients (and its sender's
/// copy), no other mail and no file of the host folder but the game's
/// private `press/` holds its text, the anonymous sender is in no header
/// or line of what its recipient or its answerer got, and `verify
/// --witness` accepts each relayed mail and refuses it with a word changed.
// Long: one whole game by mail, then every check on what it left.
#[test]
fn press_by_mail_reaches_its_recipients_and_nobody_else() {
    let s = servers();
    let h = Host::new(s, "");
    let accts: Vec<Account> = (0..3).map(|_| s.account()).collect();
    let players = PLAYERS;
    let id = "nwp";
    let pw = norse3(
        &h,
        &accts,
        id,
        &["--deadline-every", "48h", "--press", "grey"],
    );
    let folder = h.dir.join(id);
    let to = h.game_addr(id);
    let acct = |p: &str| &accts[players.iter().position(|x| *x == p).unwrap()];
    // (token, sender, the accounts that must hold it)
    let mut sent: Vec<(String, &str, Vec<&str>)> = Vec::new();
    let mut minute = 10;
    let mut n_in = 0;
    // Turn 0: private and broadcast press, and orders.
    let t1 = "PRIVATE-red-to-blue: meet me at the ford, Gorm".to_string();
    send(
        s,
        &acct("red").address,
        &to,
        &press_mail(
            acct("red"),
            &to,
            "p1@players.test",
            minute,
            "press to blue",
            password_of(&pw, "red"),
            &t1,
        ),
    );
    sent.push((t1, "red", vec!["blue"]));
    let t2 = "BROADCAST-from-blue: peace to all who keep to the north".to_string();
    send(
        s,
        &acct("blue").address,
        &to,
        &press_mail(
            acct("blue"),
            &to,
            "p2@players.test",
            minute + 1,
            "Press to all",
            password_of(&pw, "blue"),
            &t2,
        ),
    );
    sent.push((t2, "blue", vec!["red", "white"]));
    // Refused: a wrong password; its text goes nowhere.
    let refused = "WRONGPASSWORD-white: nobody may read this".to_string();
    send(
        s,
        &acct("white").address,
        &to,
        &press_mail(
            acct("white"),
            &to,
            "p3@players.test",
            minute + 2,
            "press to red",
            "not-the-password",
            &refused,
        ),
    );
    n_in += 3;
    n_in += mail_bot_orders(s, &to, &accts, (&folder, &pw), "o0", minute + 3);
    s.wait_for_mails(&h.acct, n_in);
    minute += 10;
    let out = h.pass_ok(&at(minute));
    assert!(
        out.contains("2 press relayed") && out.contains("early"),
        "{out}"
    );
    // Turn 1: anonymous press from white to red, then red answers it.
    let t3 = "ANONYMOUS-to-red: blue will betray you at the ford".to_string();
    send(
        s,
        &acct("white").address,
        &to,
        &press_mail(
            acct("white"),
            &to,
            "p4@players.test",
            minute + 1,
            "press to red anonymous",
            password_of(&pw, "white"),
            &t3,
        ),
    );
    sent.push((t3.clone(), "white", vec!["red"]));
    n_in += 1;
    s.wait_for_mails(&h.acct, n_in);
    minute += 10;
    let out = h.pass_ok(&at(minute));
    assert!(out.contains("1 press relayed"), "{out}");
    let got = s.wait_for_mails(acct("red"), 1);
    let anon: Vec<&Vec<u8>> = got
        .iter()
        .filter(|m| crate::host_mail::text(m).contains(&t3))
        .collect();
    assert_eq!(anon.len(), 1);
    let t4 = "ANSWER-from-red: who are you, friend?".to_string();
    send(
        s,
        &acct("red").address,
        &to,
        &reply_to(
            acct("red"),
            anon[0],
            "p5@players.test",
            minute + 1,
            &format!(
                "press reply\npassword = \"{}\"\n\n{t4}",
                password_of(&pw, "red")
            ),
        ),
    );
    sent.push((t4.clone(), "red", vec!["white"]));
    n_in += 1;
    n_in += mail_bot_orders(s, &to, &accts, (&folder, &pw), "o1", minute + 2);
    s.wait_for_mails(&h.acct, n_in);
    minute += 10;
    let out = h.pass_ok(&at(minute));
    assert!(
        out.contains("1 press relayed") && out.contains("early"),
        "{out}"
    );
    assert!(status(&folder).contains("turn 2"), "{}", status(&folder));

    // What each account got: each text exactly once where it belongs (the
    // sender's copy included), nowhere else; and listed in the next report
    // mail of each recipient only (text and page), never in another's.
    for (p, a) in players.iter().zip(&accts) {
        let all = s.mails(a);
        for (token, from, rcpts) in &sent {
            let (reports, others): (Vec<Vec<u8>>, Vec<Vec<u8>>) =
                holding(s, a, token).into_iter().partition(|m| is_report(m));
            let want = usize::from(rcpts.contains(p)) + usize::from(from == p);
            assert_eq!(
                others.len(),
                want,
                "{p} holds `{token}` {} times, not {want}",
                others.len()
            );
            if rcpts.contains(p) {
                assert_eq!(
                    reports.len(),
                    1,
                    "{p}'s report mails list `{token}` {} times",
                    reports.len()
                );
                let r = crate::host_mail::text(&reports[0]);
                assert!(r.contains("PRESS YOU GOT"), "{r}");
                // The page attached lists it too, with the write box.
                let raw = mail_parser::MessageParser::default()
                    .parse(&reports[0][..])
                    .unwrap();
                let page = raw
                    .attachments()
                    .find(|x| x.attachment_name() == Some("report.html"))
                    .map(|x| String::from_utf8_lossy(x.contents()).into_owned())
                    .unwrap();
                // The mail carries the page packed (issue 30): unpacked, it
                // is the report page.
                let (page, whole) = herald::report::pack::unpack(&page).unwrap();
                assert!(whole, "the packed page's short page was changed");
                assert!(page.contains(token.as_str()) && page.contains("id=\"press-write\""));
            } else {
                assert!(
                    reports.is_empty(),
                    "{p} is not a recipient of `{token}` but a report lists it"
                );
            }
        }
        assert!(holding(s, a, &refused).is_empty() || *p == "white");
        // No mail shows another player's address.
        for m in &all {
            let raw = String::from_utf8_lossy(m);
            for (q, b) in players.iter().zip(&accts) {
                assert!(
                    q == p || !raw.contains(&b.address),
                    "{p} got {q}'s address:\n{raw}"
                );
            }
        }
    }
    // The refusal went to white, saying why; the text was relayed to nobody.
    assert!(holding(s, acct("white"), &refused)
        .iter()
        .all(|m| crate::host_mail::text(m).contains("REFUSED")));
    // The anonymous press: red's copy names nobody, in no header or line.
    let anon_raw = String::from_utf8_lossy(anon[0]).to_string();
    assert!(!anon_raw.to_lowercase().contains("white"), "{anon_raw}");
    assert!(crate::host_mail::text(anon[0]).contains("from anonymous"));
    // Red's answer reached white; red's own copy does not name white.
    let ack = holding(s, acct("red"), &t4);
    assert_eq!(ack.len(), 1);
    assert!(!String::from_utf8_lossy(&ack[0])
        .to_lowercase()
        .contains("white"));
    // No file of the host folder holds a text, but the game's press/ folder
    // (0600), the current report page of a recipient (0600) and the host
    // account's own mailbox.
    let mut all = Vec::new();
    files_under(&h.dir, &[], &mut all);
    let is_text = |f: &PathBuf| {
        f.parent() == Some(folder.join("press").as_path())
            && f.file_stem().is_some_and(|n| n.len() == 32)
    };
    let (kept, files): (Vec<PathBuf>, Vec<PathBuf>) = all.into_iter().partition(is_text);
    assert!(files.iter().any(|f| f.ends_with("game.jsonl")));
    assert!(!folder.join("press").join("log.jsonl").exists());
    let mut in_pages = 0;
    for f in &files {
        let b = String::from_utf8_lossy(&std::fs::read(f).unwrap()).to_string();
        let page_of = f
            .strip_prefix(folder.join("reports").join("turn-0002"))
            .ok()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".html"));
        for (token, _, rcpts) in &sent {
            if b.contains(token.as_str()) && page_of.is_some_and(|p| rcpts.contains(&p)) {
                use std::os::unix::fs::PermissionsExt;
                assert_eq!(
                    std::fs::metadata(f).unwrap().permissions().mode() & 0o777,
                    0o600
                );
                in_pages += 1;
                continue;
            }
            assert!(
                !b.contains(token.as_str()),
                "{} holds `{token}`",
                f.display()
            );
        }
        assert!(!b.contains(&refused), "{}", f.display());
    }
    // Turn 1's press (the anonymous one and its answer) in the pages of
    // turn 2 of red and white.
    assert_eq!(in_pages, 2);
    let red_page = std::fs::read_to_string(folder.join("reports/turn-0002/red.html")).unwrap();
    assert!(red_page.contains("from <b>anonymous</b>"), "{red_page}");
    assert_eq!(kept.len(), 4);
    {
        use std::os::unix::fs::PermissionsExt;
        for f in &kept {
            assert_eq!(
                std::fs::metadata(f).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
    }
    // The game file records four signed press entries, the anonymous one
    // without its sender, and the rules in its genesis.
    let log = std::fs::read_to_string(folder.join("game.jsonl")).unwrap();
    let genesis: serde_json::Value = serde_json::from_str(log.lines().nth(1).unwrap()).unwrap();
    assert_eq!(genesis["body"]["press"]["kind"], "grey");
    assert!(!folder.join("press").join("rules.json").exists());
    let press: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["body"].clone())
        .filter(|b| b["kind"] == "press")
        .collect();
    assert_eq!(press.len(), 4, "{press:?}");
    assert!(
        press[2].get("from").is_none()
            && press[2].get("sender_sha256").is_none()
            && press[2]["sender_commitment"].is_string()
    );
    assert_eq!(press[3]["to"], serde_json::json!([]));
    let (code, o, e) = herald(&["verify", &folder.display().to_string()]);
    assert_eq!(code, 0, "{o}{e}");
    assert!(o.contains("ok: 4 press entries in the game file"), "{o}");

    // verify --witness: each relayed mail holds; one word changed does not.
    let wdir = scratch("press-witness");
    let mut checked = 0;
    for (p, a) in players.iter().zip(&accts) {
        for (k, m) in s.mails(a).iter().enumerate() {
            let t = crate::host_mail::text(m);
            if !t.contains("----- HERALD PRESS -----") {
                continue;
            }
            let good = wdir.join(format!("{p}-{k}.eml"));
            std::fs::write(&good, m).unwrap();
            let (code, o, e) = herald(&[
                "verify",
                &folder.display().to_string(),
                "--witness",
                &good.display().to_string(),
            ]);
            assert_eq!(code, 0, "{p} {k}: {o}{e}");
            assert!(o.contains("press #"), "{o}");
            // The text as the player's mail program shows it, one word
            // changed in the press text.
            let body = mail_parser::MessageParser::default()
                .parse(&m[..])
                .unwrap()
                .body_text(0)
                .unwrap()
                .into_owned();
            let word = ["ford", "peace", "betray", "friend"]
                .into_iter()
                .find(|w| body.contains(w))
                .unwrap();
            let bad = wdir.join(format!("{p}-{k}-changed.txt"));
            std::fs::write(&bad, body.replacen(word, "FORD", 1)).unwrap();
            let same = wdir.join(format!("{p}-{k}-same.txt"));
            std::fs::write(&same, &body).unwrap();
            let (code, o, e) = herald(&[
                "verify",
                &folder.display().to_string(),
                "--witness",
                &same.display().to_string(),
            ]);
            assert_eq!(code, 0, "{p} {k}: the text alone: {o}{e}");
            let (code, o, e) = herald(&[
                "verify",
                &folder.display().to_string(),
                "--witness",
                &bad.display().to_string(),
            ]);
            assert_eq!(code, 1, "{p} {k}: a changed word accepted: {o}{e}");
            assert!(e.contains("changed"), "{e}");
            checked += 1;
        }
    }
    // Four relays to five recipients, and four senders' copies.
    assert_eq!(checked, 9);
    // Each player's last report mail, its press listed above the report
    // and in the page: the report's witness still holds.
    for (p, a) in players.iter().zip(&accts) {
        let last = s
            .mails(a)
            .into_iter()
            .filter(|m| is_report(m))
            .last()
            .unwrap();
        let f = wdir.join(format!("{p}-report.eml"));
        std::fs::write(&f, &last).unwrap();
        let (code, o, e) = herald(&[
            "verify",
            &folder.display().to_string(),
            "--witness",
            &f.display().to_string(),
        ]);
        assert_eq!(code, 0, "{p}'s report mail: {o}{e}");
    }
}

/// The rules a game chose refuse what they forbid, each naming the rule:
/// no press at all; public press to one player or anonymous. Nothing is
/// relayed or recorded.
#[test]
fn press_the_rules_forbid_is_refused_with_the_rule() {
    let s = servers();
    let (h, maildir) = maildir_host(s, "");
    let accts: Vec<Account> = (0..2).map(|_| s.account()).collect();
    let mut pws = BTreeMap::new();
    for (id, rule) in [("pnone", None), ("ppub", Some("public"))] {
        let mut extra = vec!["--deadline-every", "48h"];
        if let Some(r) = rule {
            extra.extend(["--press", r]);
        }
        pws.insert(
            id,
            h.game(
                "norse-wars",
                id,
                &[("red", &accts[0].address), ("blue", &accts[1].address)],
                &extra,
            ),
        );
    }
    let cases = [
        ("pnone", "press to blue", "allows no press"),
        ("ppub", "press to blue", "public press only"),
        ("ppub", "press to all anonymous", "no anonymous press"),
        ("ppub", "press to green", "allows public press only"),
        ("ppub", "press", "first line of a press mail"),
    ];
    for (k, (game, first, _)) in cases.iter().enumerate() {
        let to = h.game_addr(game);
        let pw = password_of(&pws[game], "red").to_string();
        put(
            &maildir,
            &format!("m{k}"),
            &press_mail(
                &accts[0],
                &to,
                &format!("r{k}@players.test"),
                5 + k as i64,
                first,
                &pw,
                &format!("RULES-{k}"),
            ),
        );
    }
    let out = h.pass_ok(&at(30));
    assert!(out.contains("0 press relayed"), "{out}");
    // A refusal for each, and each game's turn-0 report.
    let got = settled(s, &accts[0], cases.len() + 2);
    assert_eq!(got.len(), cases.len() + 2, "{got:?}");
    let mails: Vec<String> = s
        .mails(&accts[0])
        .iter()
        .map(|m| crate::host_mail::text(m))
        .collect();
    for (game, first, why) in cases {
        assert!(
            mails.iter().any(|m| m.contains("REFUSED")
                && m.contains(why)
                && m.contains(&format!("[{game}]"))),
            "{game} `{first}`: no refusal saying `{why}`:\n{mails:#?}"
        );
    }
    // Blue got its two turn-0 reports and nothing else.
    assert_eq!(settled(s, &accts[1], 2).len(), 2);
    for game in ["pnone", "ppub"] {
        assert!(!h.dir.join(game).join("press").join("log.jsonl").exists());
    }
}

/// kill -9 of `herald host` at random instants while it reads press mails
/// and relays them through the real Postfix: every press is relayed to
/// each recipient exactly once (none lost, none doubled) and recorded
/// once in the log.
#[test]
fn kill_9_relays_each_press_at_most_once_and_loses_none() {
    let s = servers();
    let runs = crate::common::count("HERALD_PRESS_KILL_RUNS", 20);
    let (h, maildir) = maildir_host(s, "");
    let accts: Vec<Account> = (0..3).map(|_| s.account()).collect();
    let players = ["red", "blue", "white"];
    let pw = norse3(&h, &accts, "nwk", &["--press", "private"]);
    let to = h.game_addr("nwk");
    // Turn-0 report mails first, so that the kills fall on press.
    h.pass_ok(&at(1));
    for a in &accts {
        settled(s, a, 1);
    }
    let base: Vec<usize> = accts.iter().map(|a| s.mails(a).len()).collect();
    let mut want = [0usize; 3];
    let t = std::time::Instant::now();
    let mut queue_run = |run: usize| {
        for k in 0..3 {
            let from = (run + k) % 3;
            let rcpt = (from + 1 + k % 2) % 3;
            let text = format!("KILL-{run}-{k}: a word for {}", players[rcpt]);
            put(
                &maildir,
                &format!("k{run}-{k}"),
                &press_mail(
                    &accts[from],
                    &to,
                    &format!("k{run}-{k}@players.test"),
                    2 + run as i64,
                    &format!("press to {}", players[rcpt]),
                    password_of(&pw, players[from]),
                    &text,
                ),
            );
            want[rcpt] += 1;
            want[from] += 1; // the sender's copy
        }
    };
    queue_run(runs);
    h.pass_ok(&at(2));
    let pass = t.elapsed().max(std::time::Duration::from_millis(100));
    let mut seed: u64 = 0x9E3779B97F4A7C15;
    let mut killed = 0;
    for run in 0..runs {
        queue_run(run);
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut c = spawn_host(&h.dir, &at(3 + run as i64), &[]);
        let wait = pass.as_micros() as u64 * 12 / 10;
        std::thread::sleep(std::time::Duration::from_micros(seed % wait.max(1)));
        if c.try_wait().unwrap().is_none() {
            killed += 1;
        }
        let _ = c.kill();
        let _ = c.wait();
    }
    drain(&h, 10_000);
    let mut dups = Vec::new();
    for (i, a) in accts.iter().enumerate() {
        let got = settled(s, a, base[i] + want[i]);
        let press: Vec<(&String, &usize)> = got.iter().filter(|(_, n)| **n > 0).collect();
        let total: usize = press.iter().map(|(_, n)| **n).sum();
        for (mid, n) in &press {
            if **n > 1 {
                dups.push((*mid).clone());
            }
        }
        assert_eq!(
            total - base[i],
            want[i],
            "{}: lost or doubled: {got:?}",
            players[i]
        );
    }
    assert!(dups.is_empty(), "delivered twice: {dups:?}");
    let log = std::fs::read_to_string(h.dir.join("nwk").join("game.jsonl")).unwrap();
    assert!(!h.dir.join("nwk").join("press").join("log.jsonl").exists());
    let n = log.matches("\"kind\":\"press\"").count();
    assert_eq!(n, 3 * (runs + 1), "press entries");
    let (code, o, e) = herald(&["verify", &h.dir.join("nwk").display().to_string()]);
    assert_eq!(code, 0, "{o}{e}");
    eprintln!(
        "press kill -9: {runs} runs, {killed} killed mid-pass, {} press relayed once each",
        3 * (runs + 1)
    );
}

/// A game begun before the game file held press (`tests/fixtures/
/// press-folder`, made by the herald that kept the rules in
/// `press/rules.json`): its press is relayed as before, recorded in
/// `press/log.jsonl` chained from its genesis, never in its game file;
/// verify checks it there, and the recipient's report page lists it.
#[test]
fn a_game_with_its_press_in_the_folder_keeps_it_there() {
    let s = servers();
    let (h, maildir) = maildir_host(s, "");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/press-folder/pfold");
    let g = h.dir.join("pfold");
    crate::store::copy_dir(&fixture, &g);
    let secrets = std::fs::read_to_string(g.join("secrets.toml")).unwrap();
    let pw = |p: &str| {
        secrets
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{p} = \"")))
            .unwrap()
            .trim_end_matches('"')
            .to_string()
    };
    let game_before = std::fs::read_to_string(g.join("game.jsonl")).unwrap();
    let to = h.game_addr("pfold");
    let text = "FOLDER-red-to-blue: the old way still works";
    put(
        &maildir,
        "f1",
        &mail(
            "red@press.example",
            &to,
            "press",
            "f1@players.test",
            5,
            &format!("press to blue\npassword = \"{}\"\n\n{text}\n", pw("red")),
        ),
    );
    let out = h.pass_ok(&at(10));
    assert!(out.contains("1 press relayed"), "{out}");
    let log = std::fs::read_to_string(g.join("press").join("log.jsonl")).unwrap();
    assert_eq!(log.matches("\"kind\":\"press\"").count(), 1);
    let game = std::fs::read_to_string(g.join("game.jsonl")).unwrap();
    assert!(!game.contains("\"kind\":\"press\""));
    assert_eq!(game.lines().count(), game_before.lines().count());
    let (code, o, e) = herald(&["verify", &g.display().to_string()]);
    assert_eq!(code, 0, "{o}{e}");
    assert!(
        o.contains("ok: 1 press entries, chained from the genesis entry"),
        "{o}"
    );
    let blue = std::fs::read_to_string(g.join("reports/turn-0000/blue.html")).unwrap();
    assert!(blue.contains(text) && blue.contains("id=\"press-write\""));
    for p in ["red", "white"] {
        let page = std::fs::read_to_string(g.join(format!("reports/turn-0000/{p}.html"))).unwrap();
        assert!(!page.contains(text), "{p}'s page lists blue's press");
    }
    // A convert (the game is of the current format already) leaves the press where it is.
    let (code, o, e) = herald(&["convert", &g.display().to_string()]);
    assert_eq!(code, 0, "{o}{e}");
    assert_eq!(
        std::fs::read_to_string(g.join("press").join("log.jsonl")).unwrap(),
        log
    );
}
