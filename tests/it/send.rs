//! `herald send` (issue 48): a game's outbox handed to the mail system by
//! hand, each mail once, with the host's outbox states: to a sendmail
//! program (a stand-in that keeps what it is given, as the system's
//! would queue it) and to the real Postfix by SMTP; kill -9 at random
//! instants, then runs until nothing waits: no mail lost, none doubled.
//! Also `herald send --host DIR`, and what a bad `send.toml` or a failing
//! sendmail is told.

use crate::common::{herald, scratch};
use crate::host_mail::{at, Host};
use crate::host_safety::{maildir_host, settled};
use crate::mailservers::{servers, Account};
use herald::store::OutboxDir;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const HERALD: &str = env!("CARGO_BIN_EXE_herald");
const NOW: &str = "2026-12-01T18:00:00Z";

/// A HEXWAR game in `dir/game` whose moderator is `from`, red and blue at
/// these addresses: its turn-0 report mails wait in its outbox.
fn game(dir: &Path, from: &str, red: &str, blue: &str) -> PathBuf {
    let g = dir.join("game");
    let (code, o, e) = herald(&[
        "new",
        "hexwar",
        "--players",
        "red,blue",
        "--out",
        g.to_str().unwrap(),
        "--seed",
        "send",
        "--light-passwords",
        "--now",
        NOW,
        "--moderator",
        from,
        "--email",
        &format!("red={red}"),
        "--email",
        &format!("blue={blue}"),
    ]);
    assert_eq!(code, 0, "{o}{e}");
    g
}

/// `n` more mails queued in the game's outbox, `tag`ged, to `to` in turn:
/// their Message-IDs.
fn queue(game: &Path, tag: &str, n: usize, from: &str, to: &[&str]) -> Vec<String> {
    let ob = OutboxDir::at(game.join("outbox"));
    (0..n)
        .map(|k| {
            let mid = format!("send-{tag}-{k}@herald.test");
            let bytes = format!(
                "From: {from}\r\nTo: {}\r\nSubject: mail {tag} {k}\r\nMessage-ID: <{mid}>\r\nDate: Tue, 01 Dec 2026 18:00:00 +0000\r\n\r\nmail {tag} {k}\r\n",
                to[k % to.len()]
            );
            herald::store::outbox::queue(&ob, &mid, bytes.as_bytes()).unwrap();
            mid
        })
        .collect()
}

/// The mails waiting in an outbox.
fn waiting(game: &Path) -> usize {
    herald::host::outbox::queued(&game.join("outbox"))
        .map(|q| q.len())
        .unwrap_or(0)
}

/// A stand-in for sendmail, `dir/sendmail`: it waits a moment (so a kill
/// can fall while it works), then keeps each mail it is handed, its
/// arguments first as an `X-Args:` line, in `dir/kept/` (through
/// `dir/kept/tmp/`, so a mail is there whole or not at all), and exits
/// with the status in `dir/exit` (0 without it).
fn fake_sendmail(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let kept = dir.join("kept");
    std::fs::create_dir_all(kept.join("tmp")).unwrap();
    let p = dir.join("sendmail");
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\nsleep 0.02\nt=$(mktemp '{k}/tmp/m.XXXXXX')\n{{ printf 'X-Args: %s\\n' \"$*\"; cat; }} > \"$t\"\nmv \"$t\" '{k}/'\nexit $(cat '{d}/exit' 2>/dev/null || echo 0)\n",
            k = kept.display(),
            d = dir.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

/// The mails the stand-in kept once it has finished (none left in
/// `tmp/`), by Message-ID, with how many times; and their texts.
fn kept(dir: &Path) -> (BTreeMap<String, usize>, Vec<String>) {
    let k = dir.join("kept");
    let until = Instant::now() + Duration::from_secs(30);
    while std::fs::read_dir(k.join("tmp")).unwrap().count() > 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut n = BTreeMap::new();
    let mut texts = Vec::new();
    for e in std::fs::read_dir(&k).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            continue;
        }
        let t = std::fs::read_to_string(&p).unwrap();
        let id = t
            .lines()
            .find_map(|l| {
                l.strip_prefix("Message-ID: ")
                    .or_else(|| l.strip_prefix("Message-Id: "))
            })
            .unwrap_or("?")
            .trim()
            .to_string();
        *n.entry(id).or_default() += 1;
        texts.push(t);
    }
    (n, texts)
}

fn send_toml(game: &Path, text: &str, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let p = game.join("send.toml");
    std::fs::write(&p, text).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// `herald send` hands each mail of the outbox to sendmail once, with the
/// envelope sender and the recipient as arguments (never as an option)
/// and the mail's bytes unchanged; a second run has nothing to send.
#[test]
fn send_hands_each_mail_to_sendmail_once() {
    let dir = scratch("send-sendmail");
    let g = game(
        &dir,
        "gm@example.org",
        "red@example.org",
        "blue@example.org",
    );
    let prog = fake_sendmail(&dir);
    send_toml(
        &g,
        &format!("[sendmail]\npath = \"{}\"\n", prog.display()),
        0o644,
    );
    let queued: Vec<PathBuf> = herald::host::outbox::queued(&g.join("outbox")).unwrap();
    assert_eq!(queued.len(), 2, "the two turn-0 reports");
    let bytes: Vec<Vec<u8>> = queued.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let (code, out, err) = herald(&["send", g.to_str().unwrap(), "--now", NOW]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 recipients sent through sendmail"), "{out}");
    assert!(
        out.contains("to red@example.org") && out.contains("to blue@example.org"),
        "{out}"
    );
    let (ids, texts) = kept(&dir);
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert!(ids.values().all(|&n| n == 1), "{ids:?}");
    for to in ["red@example.org", "blue@example.org"] {
        let t = texts
            .iter()
            .find(|t| t.starts_with(&format!("X-Args: -i -f gm@example.org -- {to}\n")))
            .unwrap_or_else(|| panic!("no mail handed for {to}: {texts:?}"));
        let body = t.split_once('\n').unwrap().1.as_bytes();
        assert!(
            bytes.iter().any(|b| b == body),
            "the mail to {to} is not the outbox's bytes"
        );
    }
    assert_eq!(waiting(&g), 0);
    let (code, out, err) = herald(&["send", g.to_str().unwrap(), "--now", NOW]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("no mail to send"), "{out}");
    assert_eq!(kept(&dir).0.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// What sendmail's exit status says: 75 (try later) leaves the mail to
/// wait out the outbox's backoff, then it goes; 67 (no such user) moves
/// it to refused/; a program that is not there stops the run, nothing
/// lost. Each is exit 1 with what to do.
#[test]
fn sendmail_failures_are_told_and_nothing_is_lost() {
    let dir = scratch("send-failures");
    let g = game(
        &dir,
        "gm@example.org",
        "red@example.org",
        "blue@example.org",
    );
    let prog = fake_sendmail(&dir);
    let gs = g.to_str().unwrap().to_string();
    send_toml(
        &g,
        &format!("[sendmail]\npath = \"{}\"\n", prog.display()),
        0o600,
    );
    std::fs::write(dir.join("exit"), "75").unwrap();
    let (code, out, err) = herald(&["send", &gs, "--now", NOW]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("NOT sent") && err.contains("exit status 75"),
        "{err}"
    );
    assert_eq!(waiting(&g), 2, "nothing lost");
    // At once again: the mails wait for their next try, and say when.
    let (code, _, err) = herald(&["send", &gs, "--now", NOW]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("waiting for their next try"), "{err}");
    // After the backoff, sendmail well again: sent, each once (the
    // attempt that failed kept nothing: the stand-in's mails are those
    // of every run, so count the runs that said 0).
    std::fs::remove_file(dir.join("exit")).unwrap();
    std::fs::remove_dir_all(dir.join("kept")).unwrap();
    std::fs::create_dir_all(dir.join("kept/tmp")).unwrap();
    let (code, out, err) = herald(&["send", &gs, "--now", "2026-12-01T19:00:00Z"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(kept(&dir).0.len(), 2);
    assert_eq!(waiting(&g), 0);

    // No such user: refused for good, kept for the moderator.
    queue(&g, "nouser", 1, "gm@example.org", &["nobody@example.org"]);
    std::fs::write(dir.join("exit"), "67").unwrap();
    let (code, _, err) = herald(&["send", &gs, "--now", NOW]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("REFUSED for good") && err.contains("nobody@example.org"),
        "{err}"
    );
    assert_eq!(waiting(&g), 0);
    assert_eq!(
        std::fs::read_dir(g.join("outbox/refused")).unwrap().count(),
        2,
        "the mail and its record"
    );

    // A sendmail that is not there: the configuration's fault, the mail kept.
    queue(&g, "missing", 1, "gm@example.org", &["red@example.org"]);
    send_toml(&g, "[sendmail]\npath = \"/nonexistent/sendmail\"\n", 0o600);
    let (code, _, err) = herald(&["send", &gs, "--now", NOW]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("/nonexistent/sendmail") && err.contains("stopped"),
        "{err}"
    );
    assert_eq!(waiting(&g), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A send.toml that holds a password readable by others, one with both
/// transports, one that does not read, and a game with no sender: each
/// refused (exit 1) before anything is sent, naming the file and the fix.
#[test]
fn a_bad_send_toml_is_refused_before_anything_is_sent() {
    let dir = scratch("send-config");
    let g = game(
        &dir,
        "gm@example.org",
        "red@example.org",
        "blue@example.org",
    );
    let gs = g.to_str().unwrap().to_string();
    let smtp = "[smtp]\nserver = \"smtp.example.org\"\nsecurity = \"starttls\"\nuser = \"gm@example.org\"\npassword = \"secret\"\n";
    for (text, mode, want) in [
        (smtp.to_string(), 0o644, "chmod 600"),
        (
            format!("{smtp}[sendmail]\npath = \"/usr/sbin/sendmail\"\n"),
            0o600,
            "both [smtp] and [sendmail]",
        ),
        (
            "[smtp]\nserver = \"smtp.example.org\"\n".to_string(),
            0o600,
            "missing field",
        ),
        (
            smtp.replace("starttls", "plain"),
            0o600,
            "plain is allowed only to a server on this machine",
        ),
        (
            "from = \"not an address\"\n".to_string(),
            0o600,
            "is not a mail address",
        ),
    ] {
        send_toml(&g, &text, mode);
        let (code, out, err) = herald(&["send", &gs, "--now", NOW]);
        assert_eq!(code, 1, "{text}: {out}{err}");
        assert!(
            err.contains("send.toml") && err.contains(want),
            "{text}: {err}"
        );
        assert_eq!(waiting(&g), 2, "{text}: nothing sent");
    }
    // A game made without --moderator gives its mails no sender.
    let d2 = scratch("send-config-nomod");
    let (code, o, e) = herald(&[
        "new",
        "hexwar",
        "--players",
        "red,blue",
        "--out",
        d2.join("g").to_str().unwrap(),
        "--light-passwords",
        "--now",
        NOW,
        "--email",
        "red=red@example.org",
    ]);
    assert_eq!(code, 0, "{o}{e}");
    let (code, _, err) = herald(&["send", d2.join("g").to_str().unwrap(), "--now", NOW]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("no moderator address") && err.contains("from = "),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&d2);
}

/// `herald send` killed at random instants (`runs` times, `per_run` new
/// mails queued before each), then run until no mail waits (a mail that
/// kills caught in a row waits out a backoff, so the runs after are
/// hours apart): every mail handed over once, none twice, and the
/// outbox's record of mail sent holds each once.
fn kill_9_loop(
    g: &Path,
    runs: usize,
    per_run: usize,
    from: &str,
    to: &[&str],
    args: &[&str],
) -> (Vec<String>, usize) {
    let mut queued: Vec<String> = Vec::new();
    let gs = g.to_str().unwrap();
    let send = |now: &str| {
        let mut c = Command::new(HERALD);
        c.args(["send", gs, "--now", now])
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        c
    };
    // How long a run takes: the kills fall within it.
    queued.extend(queue(g, "warm", per_run, from, to));
    let t = Instant::now();
    let o = send(NOW).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pass = t.elapsed().max(Duration::from_millis(50));
    let mut seed: u64 = 0x9E3779B97F4A7C15;
    let mut killed = 0;
    for run in 0..runs {
        queued.extend(queue(g, &format!("run{run}"), per_run, from, to));
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut c = send(NOW).spawn().unwrap();
        let wait = pass.as_micros() as u64 * 12 / 10;
        std::thread::sleep(Duration::from_micros(seed % wait.max(1)));
        if c.try_wait().unwrap().is_none() {
            killed += 1;
        }
        let _ = c.kill();
        let _ = c.wait();
    }
    let mut after = 0;
    while after == 0 || (after < 4 && waiting(g) > 0) {
        let now = chrono::DateTime::parse_from_rfc3339(NOW).unwrap()
            + chrono::Duration::hours(5 * (after as i64 + 1));
        let o = send(&now.to_rfc3339()).output().unwrap();
        assert!(
            o.status.success() || waiting(g) > 0,
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        after += 1;
    }
    assert_eq!(waiting(g), 0, "mail left after {after} runs");
    let sent = std::fs::read_to_string(g.join("outbox/sent")).unwrap();
    let mut names: Vec<&str> = sent.lines().collect();
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n, "a name twice in outbox/sent");
    eprintln!(
        "herald send, kill -9: {runs} runs, {killed} killed while running, {after} runs after"
    );
    (queued, killed)
}

/// kill -9 while sendmail is handed the mails.
#[test]
fn kill_9_while_handing_to_sendmail_loses_and_doubles_nothing() {
    let dir = scratch("send-kill-sendmail");
    let g = game(
        &dir,
        "gm@example.org",
        "red@example.org",
        "blue@example.org",
    );
    let prog = fake_sendmail(&dir);
    send_toml(
        &g,
        &format!("[sendmail]\npath = \"{}\"\n", prog.display()),
        0o600,
    );
    let runs = crate::common::count("HERALD_SEND_KILL_RUNS", 30);
    let (queued, _) = kill_9_loop(
        &g,
        runs,
        4,
        "gm@example.org",
        &["red@example.org", "blue@example.org"],
        &[],
    );
    // A sendmail started by a run that was then killed goes on reading its
    // file and keeps the mail a moment later (the fake one sleeps first):
    // wait for it, as the mail really is on its way.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let mut ids = kept(&dir).0;
    while std::time::Instant::now() < deadline
        && !queued
            .iter()
            .all(|mid| ids.contains_key(&format!("<{mid}>")))
    {
        std::thread::sleep(std::time::Duration::from_millis(50));
        ids = kept(&dir).0;
    }
    let doubled: Vec<&String> = ids.iter().filter(|(_, &n)| n > 1).map(|(m, _)| m).collect();
    assert!(doubled.is_empty(), "handed over twice: {doubled:?}");
    for mid in &queued {
        assert!(ids.contains_key(&format!("<{mid}>")), "lost: {mid}");
    }
    // The two reports too.
    assert_eq!(ids.len(), queued.len() + 2, "{ids:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `send.toml` for the real Postfix's submission port as `acct`.
fn postfix_toml(s: &crate::mailservers::MailServers, acct: &Account) -> String {
    format!(
        "from = \"{a}\"\n[smtp]\nserver = \"127.0.0.1\"\nport = {p}\nsecurity = \"starttls\"\nuser = \"{a}\"\npassword = \"{pw}\"\nca_file = \"{ca}\"\ntimeout = 10\n",
        a = acct.address,
        p = s.submission_port,
        pw = acct.password,
        ca = s.ca_pem.display()
    )
}

/// Through the real Postfix by SMTP (STARTTLS, AUTH): the two reports
/// delivered to the players' mailboxes; then kill -9 at random instants:
/// every mail delivered once.
#[test]
fn send_through_postfix_delivers_each_mail_once_across_kill_9() {
    let s = servers();
    let gm = s.account();
    let red = s.account();
    let blue = s.account();
    let dir = scratch("send-postfix");
    let g = game(&dir, &gm.address, &red.address, &blue.address);
    send_toml(&g, &postfix_toml(s, &gm), 0o600);
    let (code, out, err) = herald(&["send", g.to_str().unwrap(), "--now", NOW]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "through the SMTP server 127.0.0.1:{}",
            s.submission_port
        )),
        "{out}"
    );
    for a in [&red, &blue] {
        let got = settled(s, a, 1);
        assert_eq!(got.len(), 1, "{}: {got:?}", a.address);
        let mail = String::from_utf8(s.mails(a).pop().unwrap()).unwrap();
        assert!(mail.contains("HEXWAR"), "{mail}");
    }
    let runs = crate::common::count("HERALD_SEND_KILL_RUNS", 30);
    let (queued, _) = kill_9_loop(
        &g,
        runs,
        4,
        &gm.address,
        &[&red.address, &blue.address],
        &[],
    );
    // Each batch of four: red, blue, red, blue; and a report each.
    let mut all = BTreeMap::new();
    for a in [&red, &blue] {
        all.extend(settled(s, a, 1 + queued.len() / 2));
    }
    let doubled: Vec<&String> = all.iter().filter(|(_, &n)| n > 1).map(|(m, _)| m).collect();
    assert!(doubled.is_empty(), "delivered twice: {doubled:?}");
    for mid in &queued {
        assert!(all.contains_key(&format!("<{mid}>")), "lost: {mid}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `herald send --host DIR`: the host's own outbox and its games' sent
/// through host.toml's [smtp], nothing read or resolved.
#[test]
fn send_host_sends_the_hosts_outboxes_only() {
    let s = servers();
    let (h, maildir): (Host, PathBuf) = maildir_host(s, "");
    let red = s.account();
    let blue = s.account();
    h.game(
        "hexwar",
        "g1",
        &[("red", &red.address), ("blue", &blue.address)],
        &[],
    );
    let other = s.account();
    let ob = OutboxDir::at(h.dir.join("outbox"));
    let mid = "host-own@herald.test";
    herald::store::outbox::queue(
        &ob,
        mid,
        format!(
            "From: {}\r\nTo: {}\r\nSubject: from the host\r\nMessage-ID: <{mid}>\r\nDate: Tue, 01 Dec 2026 18:00:00 +0000\r\n\r\nhello\r\n",
            h.acct.address, other.address
        )
        .as_bytes(),
    )
    .unwrap();
    // A mail waiting to be read stays unread.
    crate::host_safety::put(
        &maildir,
        "1.x",
        b"From: a@b.c\r\nTo: x@y.z\r\nSubject: status\r\n\r\nstatus\r\n",
    );
    let (code, out, err) = herald(&["send", "--host", h.dir.to_str().unwrap(), "--now", &at(1)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("3 sent"), "{out}");
    for a in [&red, &blue, &other] {
        assert_eq!(settled(s, a, 1).len(), 1, "{}", a.address);
    }
    assert_eq!(
        std::fs::read_dir(maildir.join("new")).unwrap().count(),
        1,
        "no mail read"
    );
    // --host with a game or a send.toml: a usage error.
    let (code, _, err) = herald(&["send", "g", "--host", h.dir.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}
