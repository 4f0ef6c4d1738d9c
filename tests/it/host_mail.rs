//! `herald host`, phase 2, mail in: whole games played by mail through the
//! real Postfix and Dovecot (tests/it/mailservers.rs), the players' mails
//! sent by SMTP to `host+GAME@herald.test`, the host run as the binary
//! with `--now` advancing; and the failures a host meets.

use crate::common::{herald, scratch};
use crate::mailservers::{servers, Account, MailServers};
use mail_parser::MimeHeaders;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub(crate) const T0: &str = "2026-11-24T10:00:00Z";

/// `T0` plus `minutes`, RFC 3339.
pub(crate) fn at(minutes: i64) -> String {
    let t = chrono::DateTime::parse_from_rfc3339(T0).unwrap() + chrono::Duration::minutes(minutes);
    t.to_rfc3339()
}

/// The mail date header for `at(minutes)`.
pub(crate) fn date(minutes: i64) -> String {
    let t = chrono::DateTime::parse_from_rfc3339(T0).unwrap() + chrono::Duration::minutes(minutes);
    t.to_rfc2822()
}

/// Send one mail by plain SMTP (port 25's stand-in, no AUTH), as the
/// outside world hands mail to the host's server.
pub(crate) fn send(s: &MailServers, from: &str, to: &str, bytes: &[u8]) {
    let mut c = TcpStream::connect(("127.0.0.1", s.smtp_port)).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut r = BufReader::new(c.try_clone().unwrap());
    let mut expect = |c: &mut TcpStream, send: &[u8], code: &str| {
        if !send.is_empty() {
            c.write_all(send).unwrap();
        }
        loop {
            let mut line = String::new();
            r.read_line(&mut line).unwrap();
            assert!(line.starts_with(code), "{line}");
            if line.as_bytes().get(3) == Some(&b' ') {
                break;
            }
        }
    };
    expect(&mut c, b"", "220");
    expect(&mut c, b"EHLO test\r\n", "250");
    expect(&mut c, format!("MAIL FROM:<{from}>\r\n").as_bytes(), "250");
    expect(&mut c, format!("RCPT TO:<{to}>\r\n").as_bytes(), "250");
    expect(&mut c, b"DATA\r\n", "354");
    let mut data = Vec::new();
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        if line.starts_with(b".") {
            data.push(b'.');
        }
        data.extend_from_slice(line);
    }
    if !data.ends_with(b"\r\n") {
        data.extend_from_slice(b"\r\n");
    }
    data.extend_from_slice(b".\r\n");
    expect(&mut c, &data, "250");
    expect(&mut c, b"QUIT\r\n", "221");
}

/// A text mail.
pub(crate) fn mail(
    from: &str,
    to: &str,
    subject: &str,
    id: &str,
    minutes: i64,
    body: &str,
) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\nDate: {}\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
        date(minutes),
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// A mail with the order file attached.
fn attached(from: &str, to: &str, id: &str, minutes: i64, file: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: my orders\r\nMessage-ID: <{id}>\r\nDate: {}\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n\
         --b1\r\nContent-Type: text/plain\r\n\r\nOrders attached.\r\n\
         --b1\r\nContent-Type: text/plain; name=\"orders.toml\"\r\n\
         Content-Disposition: attachment; filename=\"orders.toml\"\r\n\r\n{}\r\n--b1--\r\n",
        date(minutes),
        file.replace('\n', "\r\n")
    )
    .into_bytes()
}

pub(crate) struct Host {
    pub(crate) dir: PathBuf,
    pub(crate) acct: Account,
}

impl Host {
    /// A host folder reading `acct` by IMAP (STARTTLS) and sending by
    /// submission (STARTTLS).
    pub(crate) fn new(s: &MailServers, extra: &str) -> Host {
        let acct = s.account();
        let dir = scratch("host-mail");
        write_config(s, &dir, &acct, s.imap_port, s.submission_port, extra, None);
        Host { dir, acct }
    }

    pub(crate) fn game_addr(&self, g: &str) -> String {
        self.acct.plus(g)
    }

    /// `herald host DIR --now T`.
    pub(crate) fn pass(&self, now: &str) -> (i32, String, String) {
        let d = self.dir.display().to_string();
        herald(&["host", &d, "--now", now])
    }

    pub(crate) fn pass_ok(&self, now: &str) -> String {
        let (code, out, err) = self.pass(now);
        assert_eq!(code, 0, "{out}{err}");
        out
    }

    /// A new game in DIR/ID with these players and their addresses; the
    /// passwords, by player.
    pub(crate) fn game(
        &self,
        game: &str,
        id: &str,
        players: &[(&str, &str)],
        extra: &[&str],
    ) -> Vec<(String, String)> {
        let out = self.dir.join(id).display().to_string();
        let ids: Vec<&str> = players.iter().map(|(p, _)| *p).collect();
        let ids = ids.join(",");
        let moderator = self.game_addr(id);
        let mut args = vec![
            "new",
            game,
            "--players",
            &ids,
            "--id",
            id,
            "--out",
            &out,
            "--seed",
            "host-seed-7",
            "--now",
            T0,
            "--moderator",
            &moderator,
        ];
        let emails: Vec<String> = players.iter().map(|(p, a)| format!("{p}={a}")).collect();
        for e in &emails {
            args.push("--email");
            args.push(e);
        }
        args.extend_from_slice(extra);
        let (code, o, e) = herald(&args);
        assert_eq!(code, 0, "{o}{e}");
        let mut pw = Vec::new();
        for (p, _) in players {
            let line = o
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{p}: ")))
                .unwrap_or_else(|| panic!("no password for {p} in {o}"));
            pw.push((
                p.to_string(),
                line.trim().split_once(": ").unwrap().1.to_string(),
            ));
        }
        pw
    }
}

pub(crate) fn write_config(
    s: &MailServers,
    dir: &Path,
    acct: &Account,
    imap_port: u16,
    smtp_port: u16,
    extra: &str,
    passwords: Option<(&str, &str)>,
) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(
        dir.join("host.toml"),
        format!(
            "address = \"{a}\"\npoll = \"1s\"\n{extra}\n[imap]\nserver = \"127.0.0.1\"\nport = {imap_port}\n\
             security = \"starttls\"\nuser = \"{a}\"\nca_file = \"{ca}\"\ntimeout = 10\n\n[smtp]\nserver = \"127.0.0.1\"\n\
             port = {smtp_port}\nsecurity = \"starttls\"\nuser = \"{a}\"\nca_file = \"{ca}\"\ntimeout = 10\n",
            a = acct.address,
            ca = s.ca_pem.display(),
        ),
    )
    .unwrap();
    let (i, o) = passwords.unwrap_or((&acct.password, &acct.password));
    let p = dir.join("host.secrets.toml");
    std::fs::write(
        &p,
        format!("imap_password = \"{i}\"\nsmtp_password = \"{o}\"\n"),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
}

/// A received mail as text: its Subject and From lines, then its decoded
/// body (bodies may be quoted-printable or base64).
pub(crate) fn text(m: &[u8]) -> String {
    let Some(p) = mail_parser::MessageParser::default().parse(m) else {
        return String::from_utf8_lossy(m).into_owned();
    };
    let from = p
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_string();
    format!(
        "Subject: {}\nFrom: {from}\n\n{}",
        p.subject().unwrap_or(""),
        p.body_text(0).unwrap_or_default()
    )
}

/// The bot's order file for the seat awaited first in `game`'s folder.
pub(crate) fn bot_files(folder: &Path, passwords: &[(String, String)]) -> Vec<(String, String)> {
    let (_, g) = herald::pipeline::open(folder).unwrap();
    let head = g.head();
    let mut out = Vec::new();
    for seat in g.rules.awaiting(&g.state) {
        let id = &head.players[seat].id;
        let mut r = herald::rng::phase_rng("bots", &head.id, head.turn, &format!("bot {id}"));
        let lines = herald::bots::scripted_orders(g.rules.as_ref(), &g.state, seat, &mut r);
        let pw = &passwords.iter().find(|(p, _)| p == id).unwrap().1;
        out.push((
            id.clone(),
            herald::report::order_file(&head.id, id, head.turn, pw, &lines),
        ));
    }
    out
}

pub(crate) fn status(folder: &Path) -> String {
    let (code, o, e) = herald(&["status", &folder.display().to_string(), "--now", T0]);
    assert_eq!(code, 0, "{e}");
    o
}

pub(crate) fn stored(folder: &Path) -> usize {
    std::fs::read_dir(folder.join("orders"))
        .map(|l| {
            l.flatten()
                .map(|d| std::fs::read_dir(d.path()).map(|x| x.count()).unwrap_or(0))
                .sum()
        })
        .unwrap_or(0)
}

/// A whole 2-player game of `game` played by mail through the real
/// servers: the bots' orders sent by SMTP to the game's address, a
/// deadline every 48 h, and each turn one pass 25 h in (the 24 h reminder
/// goes to whoever is awaited), then the orders, then a pass that resolves
/// early. Ends with every order acknowledged, every reminder, report and
/// the final report (with the seed) delivered, and a pass that does
/// nothing.
fn play_by_mail(game: &str, players: [&str; 2], attach_png: bool) {
    play_by_mail_with(game, players, &[], 60, attach_png);
}

/// [`play_by_mail`] with `new`'s options and a bound on the phases. With
/// `attach_png` false the host is set not to attach PNGs (`attach_png =
/// false`): the large maps' pictures are most of a pass's time, and two of
/// the five games check the PNG by mail.
// Long: one whole fixture or table of cases, set up in one place.
fn play_by_mail_with(
    game: &str,
    players: [&str; 2],
    options: &[&str],
    max_turns: usize,
    attach_png: bool,
) {
    let s = servers();
    let h = Host::new(s, if attach_png { "" } else { "attach_png = false" });
    let accts = [s.account(), s.account()];
    let id = format!("w{}", &game[..3]);
    let mut extra = vec!["--deadline-every", "48h"];
    for o in options {
        extra.extend(["--option", o]);
    }
    let pw = h.game(
        game,
        &id,
        &[
            (players[0], &accts[0].address),
            (players[1], &accts[1].address),
        ],
        &extra,
    );
    let folder = h.dir.join(&id);
    let to = h.game_addr(&id);
    let (mut sent_in, mut minute, mut turns) = (0, 0, 0);
    let mut sent_by: std::collections::BTreeMap<String, usize> = Default::default();
    let mut reminded = sent_by.clone();
    loop {
        if status(&folder).contains("game over") {
            break;
        }
        assert!(turns < max_turns, "{game}: the game does not end");
        minute += 25 * 60;
        if turns < 2 {
            // The first two turns: a pass past the 24 h reminder (a pass
            // each turn would double the test's time for nothing new).
            let out = h.pass_ok(&at(minute));
            assert!(out.contains("reminded"), "{game} turn {turns}: {out}");
        }
        for (player, file) in bot_files(&folder, &pw) {
            let who = &accts[players.iter().position(|p| *p == player).unwrap()];
            let mid = format!("t{turns}-{player}@players.test");
            send(
                s,
                &who.address,
                &to,
                &mail(&who.address, &to, "orders", &mid, minute, &file),
            );
            sent_in += 1;
            if turns < 2 {
                *reminded.entry(player.clone()).or_default() += 1;
            }
            *sent_by.entry(player).or_default() += 1;
        }
        s.wait_for_mails(&h.acct, sent_in);
        minute += 1;
        let out = h.pass_ok(&at(minute));
        assert!(out.contains("early"), "{game} turn {turns}: {out}");
        turns += 1;
    }
    // Every order acknowledged, every reminder and report mailed.
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert_eq!(log.matches(" in accepted ").count(), sent_in, "{log}");
    for (i, p) in players.iter().enumerate() {
        let n = sent_by[*p];
        let raw = s.wait_for_mails(&accts[i], n + turns + 1 + reminded[*p]);
        let got: Vec<String> = raw.iter().map(|m| text(m)).collect();
        // Every report mail the host made carries board.png exactly when it
        // is set to. The turn 0 report is `herald new`'s, made before the
        // host had the game: a command run by hand attaches no PNG.
        let reports: Vec<(bool, bool)> = raw
            .iter()
            .filter(|m| text(m).contains(" report for "))
            .map(|m| {
                let t = text(m);
                let png = mail_parser::MessageParser::default()
                    .parse(&m[..])
                    .unwrap()
                    .attachments()
                    .any(|a| a.attachment_name() == Some("board.png"));
                (t.contains(": turn 0 report for "), png)
            })
            .collect();
        assert_eq!(reports.len(), turns + 1, "{game} {p}");
        assert!(
            reports
                .iter()
                .all(|&(first, png)| png == (attach_png && !first)),
            "{game} {p}: {reports:?}"
        );
        let count = |what: &str| got.iter().filter(|t| t.contains(what)).count();
        assert_eq!(count("are ACCEPTED"), n, "{game} {p}");
        assert_eq!(count(": reminder, your orders"), reminded[*p], "{game} {p}");
        assert!(
            got.iter()
                .any(|t| t.contains("final report")
                    && t.contains("The seed is revealed: host-seed-7")),
            "{game} {p}"
        );
        // Every mail comes from the game's address, so answering routes.
        assert!(
            got.iter().all(|t| t.contains(&format!("From: {to}"))),
            "{game} {p}"
        );
    }
    // A second pass changes nothing and sends nothing.
    let again = h.pass_ok(&at(minute + 1));
    assert!(
        again.contains("mail in: 0 ") && again.contains("mail out: 0 sent"),
        "{again}"
    );
    let (code, o, e) = herald(&["verify", &folder.display().to_string()]);
    assert_eq!(code, 0, "{o}{e}");
    // The pass wrote the gallery beside the status page: the finished
    // game's replay site, with its game file for the page's checker.
    let gallery = std::fs::read_to_string(h.dir.join("gallery/index.html")).unwrap();
    assert!(
        gallery.contains(&format!("href=\"{id}/index.html\"")),
        "{gallery}"
    );
    assert!(h.dir.join("gallery").join(&id).join("game.js").is_file());
    let kept: Vec<Vec<u8>> = accts.iter().flat_map(|a| s.wait_for_mails(a, 1)).collect();
    witnesses_hold(&folder, &h.dir.join("kept"), &kept);
}

/// One character of a fact changed in `text` (a report's turn number, in
/// its text, its page or its view.json; a receipt's turn): the changed
/// copy, or `None` if `text` names none of them.
fn one_fact_changed(text: &str, receipt: bool) -> Option<String> {
    let marks: &[&str] = if receipt {
        &["turn: "]
    } else {
        // view.json travels without indentation in a mail
        &["Turn ", "\"turn\": ", "\"turn\":"]
    };
    for at in marks {
        for (i, _) in text.match_indices(at) {
            let j = i + at.len();
            let c = text.as_bytes().get(j).copied()?;
            if c.is_ascii_digit() {
                let mut b = text.as_bytes().to_vec();
                b[j] = if c == b'9' { b'8' } else { c + 1 };
                return String::from_utf8(b).ok();
            }
        }
    }
    None
}

/// Every report mail and receipt mail the players got (as delivered by
/// Dovecot), and each report mail's text part, HTML page and view.json
/// taken out of it, verify against the finished game; each with one fact
/// changed is refused, by name.
fn witnesses_hold(folder: &Path, dir: &Path, mails: &[Vec<u8>]) {
    std::fs::create_dir_all(dir).unwrap();
    let mut good: Vec<PathBuf> = Vec::new();
    let mut bad: Vec<PathBuf> = Vec::new();
    let (mut reports, mut receipts) = (0, 0);
    for (k, raw) in mails.iter().enumerate() {
        let m = mail_parser::MessageParser::default()
            .parse(&raw[..])
            .unwrap();
        let body = m.body_text(0).unwrap_or_default().replace("\r\n", "\n");
        let is_report = m.subject().is_some_and(|s| s.contains(" report for "));
        let is_receipt = body.contains("----- HERALD RECEIPT -----");
        if !is_report && !is_receipt {
            continue;
        }
        let p = dir.join(format!("{k:03}.eml"));
        std::fs::write(&p, raw).unwrap();
        good.push(p.clone());
        // The mail with one fact changed, in its decoded text, sent again
        // as a plain mail (its encoding as sent may be quoted-printable).
        let changed = one_fact_changed(&body, is_receipt && !is_report)
            .expect("a report or receipt names a turn");
        let head: String = std::str::from_utf8(raw)
            .unwrap()
            .split("\r\n\r\n")
            .next()
            .unwrap()
            .lines()
            .filter(|l| {
                let l = l.to_ascii_lowercase();
                l.starts_with("from:")
                    || l.starts_with("to:")
                    || l.starts_with("subject:")
                    || l.starts_with("date:")
                    || l.starts_with("message-id:")
            })
            .collect::<Vec<_>>()
            .join("\r\n");
        let p = dir.join(format!("{k:03}-changed.eml"));
        std::fs::write(
            &p,
            format!("{head}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{changed}"),
        )
        .unwrap();
        bad.push(p);
        if is_receipt {
            receipts += 1;
            continue;
        }
        reports += 1;
        // Replied to or forwarded back by the player, quoted with `> ` (an
        // empty line as `>`, trailing spaces dropped), words of their own
        // above it; and with one fact changed in the quote.
        let quote = |text: &str| -> String {
            text.lines()
                .map(|l| {
                    if l.trim_end().is_empty() {
                        ">\r\n".to_string()
                    } else {
                        format!("> {}\r\n", l.trim_end())
                    }
                })
                .collect()
        };
        for (tag, text, into) in [
            ("forwarded", body.clone(), &mut good),
            (
                "forwarded-changed",
                one_fact_changed(&body, false).unwrap(),
                &mut bad,
            ),
        ] {
            let t = dir.join(format!("{k:03}-{tag}.eml"));
            std::fs::write(
                &t,
                format!(
                    "From: Player <player@players.test>\r\nTo: {}\r\nSubject: Fwd: my report\r\n\
                     Date: Tue, 24 Nov 2026 10:00:00 +0000\r\nMessage-ID: <fwd{k}@players.test>\r\n\
                     MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
                     Content-Transfer-Encoding: 8bit\r\n\r\nThis is the report you sent me.\r\n\r\n\
                     On Mon, 23 Nov 2026 at 09:00, host wrote:\r\n{}\r\n-- \r\nPlayer\r\n",
                    m.from()
                        .and_then(|a| a.first())
                        .and_then(|a| a.address())
                        .unwrap_or(""),
                    quote(&text)
                ),
            )
            .unwrap();
            into.push(t);
        }
        if reports == 1 {
            // The report mail forwarded as an attachment (message/rfc822).
            let t = dir.join(format!("{k:03}-attached.eml"));
            let mut mail = b"From: Player <player@players.test>\r\nTo: host@herald.test\r\nSubject: Fwd: report\r\n\
                Date: Tue, 24 Nov 2026 10:00:00 +0000\r\nMessage-ID: <att@players.test>\r\nMIME-Version: 1.0\r\n\
                Content-Type: multipart/mixed; boundary=\"fwd-b\"\r\n\r\n--fwd-b\r\nContent-Type: text/plain\r\n\r\n\
                Forwarded as an attachment.\r\n--fwd-b\r\nContent-Type: message/rfc822\r\n\
                Content-Disposition: attachment; filename=\"report.eml\"\r\n\r\n"
                .to_vec();
            mail.extend_from_slice(raw);
            mail.extend_from_slice(b"\r\n--fwd-b--\r\n");
            std::fs::write(&t, mail).unwrap();
            good.push(t);
        }
        let t = dir.join(format!("{k:03}-text.txt"));
        std::fs::write(&t, &body).unwrap();
        good.push(t);
        let t = dir.join(format!("{k:03}-text-changed.txt"));
        std::fs::write(&t, one_fact_changed(&body, false).unwrap()).unwrap();
        bad.push(t);
        for a in m.attachments() {
            let name = a.attachment_name().unwrap_or("");
            let ext = match name {
                "report.html" => "html",
                "view.json" => "json",
                _ => continue,
            };
            let text = String::from_utf8(a.contents().to_vec()).unwrap();
            let t = dir.join(format!("{k:03}-page.{ext}"));
            std::fs::write(&t, &text).unwrap();
            good.push(t);
            let t = dir.join(format!("{k:03}-page-changed.{ext}"));
            std::fs::write(
                &t,
                one_fact_changed(&text, false).expect("a turn in the page"),
            )
            .unwrap();
            bad.push(t);
        }
    }
    assert!(
        reports > 0 && receipts > 0,
        "{reports} reports, {receipts} receipts"
    );
    let f = folder.display().to_string();
    let mut args: Vec<String> = vec!["verify".into(), f.clone(), "--witness".into()];
    args.extend(good.iter().map(|p| p.display().to_string()));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, o, e) = herald(&a);
    assert_eq!(code, 0, "{o}{e}");
    assert!(o.contains("the archive holds exactly what"), "{o}");
    let mut args: Vec<String> = vec!["verify".into(), f, "--witness".into()];
    args.extend(bad.iter().map(|p| p.display().to_string()));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, o, e) = herald(&a);
    assert_eq!(code, 1, "{o}{e}");
    for p in &bad {
        let name = p.display().to_string();
        assert!(e.contains(&name), "{name} is not refused:\n{e}");
    }
}

#[test]
fn a_two_player_game_is_played_by_mail_to_its_end() {
    play_by_mail("hexwar", ["white", "black"], false);
}

#[test]
fn the_unfought_battle_is_played_by_mail_to_its_end() {
    play_by_mail("unfought-battle", ["north", "south"], true);
}

#[test]
fn norse_wars_is_played_by_mail_to_its_end() {
    play_by_mail_with("norse-wars", ["red", "blue"], &[], 200, false);
}

/// Stack Wars on its smallest board (the standard one takes hundreds of
/// phases: its whole game by mail is `herald demo`'s, tested in
/// tests/it/stack_wars.rs).
#[test]
fn stack_wars_is_played_by_mail_to_its_end() {
    play_by_mail_with("stack-wars", ["black", "white"], &["size=3"], 200, true);
}

#[test]
fn war_of_the_dukes_is_played_by_mail_to_its_end() {
    play_by_mail("war-of-the-dukes", ["orfburg", "wulfenburg"], false);
}

#[test]
fn all_orders_in_one_pass_resolve_early_and_an_attachment_counts() {
    let s = servers();
    let h = Host::new(s, "");
    let (north, south) = (s.account(), s.account());
    let pw = h.game(
        "unfought-battle",
        "ub1",
        &[("north", &north.address), ("south", &south.address)],
        &["--deadline", "2026-11-30T00:00:00Z"],
    );
    let folder = h.dir.join("ub1");
    let to = h.game_addr("ub1");
    let files = bot_files(&folder, &pw);
    assert_eq!(files.len(), 2);
    let n = &files[0];
    send(
        s,
        &north.address,
        &to,
        &mail(&north.address, &to, "orders", "n0@p.test", 1, &n.1),
    );
    let sth = &files[1];
    send(
        s,
        &south.address,
        &to,
        &attached(&south.address, &to, "s0@p.test", 1, &sth.1),
    );
    s.wait_for_mails(&h.acct, 2);
    let out = h.pass_ok(&at(2));
    assert!(out.contains("2 orders accepted"), "{out}");
    assert!(status(&folder).contains("turn 1"), "{}", status(&folder));
    for who in [&north, &south] {
        let got = s.wait_for_mails(who, 3);
        assert!(got.iter().any(|m| text(m).contains("are ACCEPTED")));
        assert!(got.iter().any(|m| text(m).contains("turn 1 report")));
    }
    // Run twice: nothing read, resolved or sent again.
    let again = h.pass_ok(&at(3));
    assert!(
        again.contains("mail in: 0 ") && again.contains("mail out: 0 sent"),
        "{again}"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(s.mails(&north).len(), 3);
}

/// Orders dated after the deadline that arrive before the pass that
/// resolves the turn are used (a pass reads its mail before it looks at
/// the clock: at most one poll interval of grace), and their
/// acknowledgement says they are late and by how much; the report lists
/// them as late.
#[test]
fn late_orders_within_a_poll_are_used_and_acknowledged_as_late() {
    let s = servers();
    let h = Host::new(s, "");
    let (north, south) = (s.account(), s.account());
    let deadline = at(60);
    let pw = h.game(
        "unfought-battle",
        "late1",
        &[("north", &north.address), ("south", &south.address)],
        &["--deadline", &deadline],
    );
    let folder = h.dir.join("late1");
    let to = h.game_addr("late1");
    let files = bot_files(&folder, &pw);
    send(
        s,
        &north.address,
        &to,
        &mail(&north.address, &to, "orders", "ln@p.test", 10, &files[0].1),
    );
    // Sent 5 minutes after the deadline, read by the next pass.
    send(
        s,
        &south.address,
        &to,
        &mail(&south.address, &to, "orders", "ls@p.test", 65, &files[1].1),
    );
    s.wait_for_mails(&h.acct, 2);
    let out = h.pass_ok(&at(66));
    assert!(out.contains("2 orders accepted"), "{out}");
    assert!(status(&folder).contains("turn 1"), "{}", status(&folder));
    let got: Vec<String> = s
        .wait_for_mails(&south, 3)
        .iter()
        .map(|m| text(m))
        .collect();
    let ack = got.iter().find(|t| t.contains("are ACCEPTED")).unwrap();
    assert!(
        ack.contains("These orders are LATE: your mail is dated 2026-11-24 11:05 UTC, after the deadline of turn 0 (2026-11-24 11:00 UTC), by 5m."),
        "{ack}"
    );
    let report = got.iter().find(|t| t.contains("turn 1 report")).unwrap();
    assert!(
        report.contains("Late orders (sent after the deadline, still used): south."),
        "{report}"
    );
    let on_time: Vec<String> = s
        .wait_for_mails(&north, 3)
        .iter()
        .map(|m| text(m))
        .collect();
    assert!(on_time.iter().all(|t| !t.contains("LATE")), "{on_time:?}");
}

#[test]
fn mail_for_no_game_gets_one_polite_answer_and_bounces_none() {
    let s = servers();
    let h = Host::new(s, "");
    let p = s.account();
    h.game(
        "hexwar",
        "g1",
        &[("white", &p.address), ("black", &p.address)],
        &[],
    );
    let plain = h.acct.address.clone();
    send(
        s,
        &p.address,
        &plain,
        &mail(&p.address, &plain, "hello", "x1@p.test", 1, "Can I play?"),
    );
    let wrong = h.game_addr("nosuch");
    send(
        s,
        &p.address,
        &wrong,
        &mail(&p.address, &wrong, "orders", "x2@p.test", 1, "hi"),
    );
    // A bounce and a mail forged as the host's own: no answer (no loops).
    send(
        s,
        "",
        &plain,
        &format!(
            "Return-Path: <>\r\n{}",
            text(&mail(
                "MAILER-DAEMON@herald.test",
                &plain,
                "Undelivered",
                "x3@p.test",
                1,
                "bounce"
            ))
        )
        .into_bytes(),
    );
    send(
        s,
        &p.address,
        &plain,
        &mail(&plain, &plain, "loop", "x4@p.test", 1, "me"),
    );
    s.wait_for_mails(&h.acct, 4);
    let out = h.pass_ok(&at(2));
    assert!(
        out.contains("2 for no game") && out.contains("2 ignored"),
        "{out}"
    );
    let got = s.wait_for_mails(&p, 2 + 2);
    let answers: Vec<String> = got
        .iter()
        .map(|m| text(m))
        .filter(|t| t.contains("is not a game on this host") || t.contains("does not name a game"))
        .collect();
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(
        answers.iter().all(|t| t.contains(&h.game_addr("g1"))),
        "{answers:?}"
    );
    let again = h.pass_ok(&at(3));
    assert!(again.contains("mail in: 0 "), "{again}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(s.mails(&p).len(), 4);
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn commands_by_mail_are_answered_and_never_echo_a_password() {
    let s = servers();
    let h = Host::new(s, "");
    let (a, b) = (s.account(), s.account());
    let pw = h.game(
        "unfought-battle",
        "cm1",
        &[("north", &a.address), ("south", &b.address)],
        &["--deadline", "2026-11-30T00:00:00Z"],
    );
    let folder = h.dir.join("cm1");
    let to = h.game_addr("cm1");
    let npw = pw[0].1.clone();
    let files = bot_files(&folder, &pw);
    send(
        s,
        &a.address,
        &to,
        &mail(&a.address, &to, "orders", "o1@p.test", 1, &files[0].1),
    );
    send(
        s,
        &a.address,
        &to,
        &mail(&a.address, &to, "status", "c1@p.test", 2, ""),
    );
    send(
        s,
        &a.address,
        &to,
        &mail(
            &a.address,
            &to,
            &format!("form north {npw}"),
            "c2@p.test",
            3,
            "",
        ),
    );
    send(
        s,
        &a.address,
        &to,
        &mail(
            &a.address,
            &to,
            "hi",
            "c3@p.test",
            4,
            &format!("report north {npw}\n"),
        ),
    );
    send(
        s,
        &a.address,
        &to,
        &mail(
            &a.address,
            &to,
            "report north wrongpass",
            "c4@p.test",
            5,
            "",
        ),
    );
    send(
        s,
        &a.address,
        &to,
        &mail(
            &a.address,
            &to,
            &format!("withdraw north {npw}"),
            "c5@p.test",
            6,
            "",
        ),
    );
    send(
        s,
        &a.address,
        &to,
        &mail(&a.address, &to, "withdraw north", "c6@p.test", 7, ""),
    );
    // The subject only the command's name, the whole command in the body:
    // the body's wins.
    send(
        s,
        &a.address,
        &to,
        &mail(
            &a.address,
            &to,
            "form",
            "c7@p.test",
            8,
            &format!("Hi,\n\nform north {npw}\n\nthanks\n"),
        ),
    );
    s.wait_for_mails(&h.acct, 8);
    let out = h.pass_ok(&at(10));
    assert!(
        out.contains("1 orders accepted") && out.contains("7 commands"),
        "{out}"
    );
    assert_eq!(stored(&folder), 0, "withdrawn");
    let got: Vec<String> = s.wait_for_mails(&a, 9).iter().map(|m| text(m)).collect();
    let find = |subject: &str| {
        got.iter()
            .filter(|t| t.contains(&format!("Subject: Re: [cm1] {subject}")))
            .cloned()
            .collect::<Vec<_>>()
    };
    let status = &find("status")[0];
    assert!(status.contains("awaiting orders from"), "{status}");
    // Whose orders are in, not where the host keeps them.
    assert!(status.contains("orders in for turn 0: north"), "{status}");
    assert!(
        !status.contains(&h.dir.display().to_string()),
        "the host's folder in a player's mail: {status}"
    );
    let forms = find("form north");
    assert!(
        forms.len() == 2 && forms.iter().all(|t| t.contains("ORDERS")),
        "{forms:?}"
    );
    let reports = find("report north");
    assert_eq!(reports.len(), 2);
    assert!(
        reports.iter().any(|t| t.contains("HERALD WITNESS")),
        "{reports:?}"
    );
    assert!(reports
        .iter()
        .any(|t| t.contains("REFUSED") && t.contains("password for north is not right")));
    let w = find("withdraw");
    assert!(
        w.iter().any(|t| t.contains("WITHDRAWN")) && w.iter().any(|t| t.contains("REFUSED")),
        "{w:?}"
    );
    // A command with missing parts is answered with the exact line to send,
    // the player known from the sender's address.
    assert!(
        w.iter()
            .any(|t| t
                .contains("send a mail whose first line is\n\n    withdraw north YOUR-PASSWORD\n")),
        "{w:?}"
    );
    for t in &got {
        assert!(
            !t.contains(&npw) && !t.contains("wrongpass"),
            "a password echoed: {t}"
        );
    }
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert!(!log.contains(&npw) && !log.contains("wrongpass"));
}

#[test]
fn hostile_mails_are_refused_politely_and_nothing_breaks() {
    let s = servers();
    let h = Host::new(s, "max_mail_bytes = 100000\n");
    let (a, b) = (s.account(), s.account());
    let pw = h.game(
        "hexwar",
        "hs1",
        &[("white", &a.address), ("black", &b.address)],
        &[],
    );
    let folder = h.dir.join("hs1");
    let to = h.game_addr("hs1");
    // Huge.
    let big = "x".repeat(200_000);
    send(
        s,
        &a.address,
        &to,
        &mail(&a.address, &to, "big", "h1@p.test", 1, &big),
    );
    // Malformed MIME: a multipart without its boundary, binary junk.
    send(
        s,
        &a.address,
        &to,
        format!(
            "From: {a}\r\nTo: {to}\r\nSubject: junk\r\nMessage-ID: <h2@p.test>\r\nDate: {}\r\n\
             Content-Type: multipart/mixed; boundary=\"nope\r\n\r\n--x\r\n\u{1}\u{2}\u{3}=?utf-8?b?////?=\r\n",
            date(2),
            a = a.address
        )
        .as_bytes(),
    );
    // Forged: from white's address, orders for white, black's password.
    let files = bot_files(&folder, &pw);
    let forged = files[0].1.replace(&pw[0].1, &pw[1].1);
    send(
        s,
        &a.address,
        &to,
        &mail(&a.address, &to, "orders", "h3@p.test", 3, &forged),
    );
    s.wait_for_mails(&h.acct, 3);
    let out = h.pass_ok(&at(5));
    assert!(
        out.contains("0 orders accepted") && out.contains("3 refused"),
        "{out}"
    );
    assert_eq!(stored(&folder), 0);
    let got: Vec<String> = s.wait_for_mails(&a, 4).iter().map(|m| text(m)).collect();
    assert!(got.iter().any(|t| t.contains("too large")), "{got:?}");
    assert_eq!(got.iter().filter(|t| t.contains("REFUSED")).count(), 3);
}

#[test]
fn wrong_passwords_are_loud_and_lose_nothing() {
    let s = servers();
    let h = Host::new(s, "");
    let p = s.account();
    let pw = h.game(
        "hexwar",
        "wp1",
        &[("white", &p.address), ("black", &p.address)],
        &[],
    );
    let folder = h.dir.join("wp1");
    let to = h.game_addr("wp1");
    let files = bot_files(&folder, &pw);
    send(
        s,
        &p.address,
        &to,
        &mail(&p.address, &to, "orders", "w1@p.test", 1, &files[0].1),
    );
    s.wait_for_mails(&h.acct, 1);
    // A wrong IMAP password: loud, nothing read.
    write_config(
        s,
        &h.dir,
        &h.acct,
        s.imap_port,
        s.submission_port,
        "",
        Some(("bad-imap", &h.acct.password)),
    );
    let (code, o, e) = h.pass(&at(2));
    assert_eq!(code, 1, "{o}{e}");
    assert!(
        e.contains("mail in") && !e.contains(&h.acct.password),
        "{e}"
    );
    assert_eq!(stored(&folder), 0);
    // A wrong SMTP password: the mail is read and stored, the reply waits.
    write_config(
        s,
        &h.dir,
        &h.acct,
        s.imap_port,
        s.submission_port,
        "",
        Some((&h.acct.password, "bad-smtp")),
    );
    let (code, o, e) = h.pass(&at(3));
    assert_eq!(code, 1, "{o}{e}");
    assert!(e.contains("mail out") && e.contains("configuration"), "{e}");
    assert!(!e.contains("bad-smtp"));
    assert_eq!(stored(&folder), 0, "resolved early: one player awaited");
    let queued = std::fs::read_dir(folder.join("outbox")).unwrap().count();
    assert!(queued >= 1);
    // Fixed: everything goes.
    write_config(s, &h.dir, &h.acct, s.imap_port, s.submission_port, "", None);
    let out = h.pass_ok(&at(4));
    assert!(
        out.contains("mail in: 0 ") && !out.contains("mail out: 0 sent"),
        "{out}"
    );
    let got = s.wait_for_mails(&p, 5);
    assert!(got.iter().any(|m| text(m).contains("are ACCEPTED")));
}

#[test]
fn an_unreachable_smtp_server_loses_nothing_and_a_refused_recipient_is_shown() {
    let s = servers();
    let h = Host::new(s, "");
    let p = s.account();
    let bad = "unknown-player@herald.test";
    let pw = h.game(
        "hexwar",
        "un1",
        &[("white", &p.address), ("black", bad)],
        &[],
    );
    let folder = h.dir.join("un1");
    let to = h.game_addr("un1");
    let files = bot_files(&folder, &pw);
    send(
        s,
        &p.address,
        &to,
        &mail(&p.address, &to, "orders", "u1@p.test", 1, &files[0].1),
    );
    s.wait_for_mails(&h.acct, 1);
    // SMTP at a closed port for one pass.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    write_config(s, &h.dir, &h.acct, s.imap_port, closed, "", None);
    let (code, o, e) = h.pass(&at(2));
    assert_eq!(code, 1, "{o}{e}");
    assert!(
        o.contains("1 orders accepted") || e.contains("1 orders accepted"),
        "{o}{e}"
    );
    assert!(e.contains("mail out"), "{e}");
    // Back: sent on the next pass (after the first retry's backoff).
    write_config(s, &h.dir, &h.acct, s.imap_port, s.submission_port, "", None);
    h.pass_ok(&at(10));
    // white's turn-0 report, the acknowledgement, white's turn-1 report.
    let got = s.wait_for_mails(&p, 3);
    assert!(got.iter().any(|m| text(m).contains("are ACCEPTED")));
    assert!(got.iter().any(|m| text(m).contains("turn 1 report")));
    // black's address is refused: recorded, shown, not retried.
    let refused = std::fs::read_dir(folder.join("outbox/refused"))
        .unwrap()
        .count();
    assert!(refused >= 2, "{refused}");
    let page = std::fs::read_to_string(h.dir.join("index.json")).unwrap();
    assert!(page.contains(bad), "{page}");
}

/// kill -9 at random instants; a last full pass; every mail answered once.
#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn kill_9_at_random_instants_loses_and_doubles_nothing() {
    let s = servers();
    let runs = crate::common::count("HERALD_KILL_RUNS", 60);
    let acct = s.account();
    let dir = scratch("host-kill");
    let maildir = dir.join("Maildir");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(d)).unwrap();
    }
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(
        dir.join("host.toml"),
        format!(
            // One player writes every mail, more in the pass's one hour
            // than a budget of password checks or the bound on replies
            // lets through: both raised (this test is about kills).
            "address = \"{a}\"\npassword_checks_per_hour = 100000\nreplies_per_hour = 100000\n[maildir]\npath = \"{m}\"\n[smtp]\nserver = \"127.0.0.1\"\nport = {closed}\nsecurity = \"plain\"\nuser = \"{a}\"\ntimeout = 2\n",
            a = acct.address,
            m = maildir.display()
        ),
    )
    .unwrap();
    let sp = dir.join("host.secrets.toml");
    std::fs::write(&sp, "smtp_password = \"x\"\n").unwrap();
    std::fs::set_permissions(&sp, std::fs::Permissions::from_mode(0o600)).unwrap();
    let h = Host {
        dir: dir.clone(),
        acct,
    };
    let mut files = Vec::new();
    for gi in 0..3 {
        let id = format!("k{gi}");
        let pw = h.game(
            "unfought-battle",
            &id,
            &[("north", "n@p.test"), ("south", "s@p.test")],
            &["--deadline", "2026-12-30T00:00:00Z"],
        );
        files.push(bot_files(&dir.join(&id), &pw)[0].1.clone());
    }
    // Each run finds new mail (so every run has work to be cut short in):
    // orders from north for every game (the games handled side by side),
    // a command for one game every 4th run, mail for no game every 5th.
    let mut per_game = [0usize; 3];
    let mut no_game = 0;
    let put = |name: String, bytes: Vec<u8>| {
        let tmp = maildir.join("tmp").join(&name);
        std::fs::write(&tmp, bytes).unwrap();
        std::fs::rename(&tmp, maildir.join("new").join(&name)).unwrap();
    };
    let exe = env!("CARGO_BIN_EXE_herald");
    let mut seed: u64 = 0x9e3779b97f4a7c15;
    let mut killed = 0;
    for run in 0..runs {
        let gi = run % 3;
        let id = format!("k{gi}");
        let to = h.game_addr(&id);
        let minute = run as i64;
        for (gj, file) in files.iter().enumerate() {
            put(
                format!("{run}-o{gj}.m"),
                mail(
                    "n@p.test",
                    &h.game_addr(&format!("k{gj}")),
                    "orders",
                    &format!("{run}-o{gj}@p"),
                    minute,
                    file,
                ),
            );
            per_game[gj] += 1;
        }
        if run % 4 == 0 {
            put(
                format!("{run}-s.m"),
                mail("n@p.test", &to, "status", &format!("{run}-s@p"), minute, ""),
            );
            per_game[gi] += 1;
        }
        if run % 5 == 0 {
            let plain = h.acct.address.clone();
            put(
                format!("{run}-x.m"),
                mail(
                    "x@p.test",
                    &plain,
                    "hello",
                    &format!("{run}-x@p"),
                    minute,
                    "",
                ),
            );
            no_game += 1;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut c = std::process::Command::new(exe)
            .args(["host", &dir.display().to_string(), "--now", &at(5_000)])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(seed % 400_000));
        if c.try_wait().unwrap().is_none() {
            killed += 1;
        }
        let _ = c.kill();
        let _ = c.wait();
    }
    let (code, o, e) = herald(&["host", &dir.display().to_string(), "--now", &at(5_000)]);
    assert_eq!(code, 1, "smtp is closed: {o}{e}");
    eprintln!("kill -9: {runs} runs, {killed} killed while running");
    // Every mail handled, in .herald-handled, none left.
    let total = per_game.iter().sum::<usize>() + no_game;
    assert_eq!(std::fs::read_dir(maildir.join("new")).unwrap().count(), 0);
    assert_eq!(std::fs::read_dir(maildir.join("cur")).unwrap().count(), 0);
    let handled = std::fs::read_dir(maildir.join(".herald-handled/cur"))
        .unwrap()
        .count();
    assert_eq!(handled, total);
    let emls = |d: &Path| {
        std::fs::read_dir(d)
            .unwrap()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
            .count()
    };
    for (gi, &n) in per_game.iter().enumerate() {
        let g = dir.join(format!("k{gi}"));
        let seen = std::fs::read_to_string(g.join("inbox/seen")).unwrap();
        let mut lines: Vec<&str> = seen.lines().collect();
        assert_eq!(lines.len(), n, "k{gi}: each mail recorded once");
        lines.sort();
        lines.dedup();
        assert_eq!(lines.len(), n);
        // One reply per mail, plus the turn-0 report mails (2).
        assert_eq!(emls(&g.join("outbox")), n + 2, "k{gi}");
        assert_eq!(stored(&g), 1);
    }
    let seen = std::fs::read_to_string(dir.join("state/seen")).unwrap();
    assert_eq!(seen.lines().count(), no_game, "{seen}");
    // Every mail for no game came from x@p.test, no player's address, in
    // the pass's one hour: one answer.
    assert_eq!(emls(&dir.join("outbox")), 1);
}

/// `--watch` passes every `poll` until SIGTERM, then stops cleanly (exit 0).
#[test]
fn watch_passes_until_sigterm_and_stops_cleanly() {
    let s = servers();
    let acct = s.account();
    let dir = scratch("host-watch");
    let maildir = dir.join("Maildir");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(d)).unwrap();
    }
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(
        dir.join("host.toml"),
        format!(
            "address = \"{a}\"\npoll = \"1s\"\n[maildir]\npath = \"{m}\"\n[smtp]\nserver = \"127.0.0.1\"\nport = {p}\nsecurity = \"starttls\"\nuser = \"{a}\"\nca_file = \"{ca}\"\n",
            a = acct.address,
            m = maildir.display(),
            p = s.submission_port,
            ca = s.ca_pem.display()
        ),
    )
    .unwrap();
    let sp = dir.join("host.secrets.toml");
    std::fs::write(&sp, format!("smtp_password = \"{}\"\n", acct.password)).unwrap();
    std::fs::set_permissions(&sp, std::fs::Permissions::from_mode(0o600)).unwrap();
    let h = Host {
        dir: dir.clone(),
        acct,
    };
    let player = s.account();
    h.game(
        "hexwar",
        "wt1",
        &[("white", &player.address), ("black", &player.address)],
        &[],
    );
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["host", &dir.display().to_string(), "--watch"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A mail arriving while it runs is handled by a later pass.
    let to = h.game_addr("wt1");
    std::fs::write(
        maildir.join("new").join("m1"),
        mail(&player.address, &to, "status", "wt-1@p.test", 1, ""),
    )
    .unwrap();
    let handled = maildir.join(".herald-handled/cur");
    let t = std::time::Instant::now();
    while std::fs::read_dir(&handled).map(|d| d.count()).unwrap_or(0) < 1 {
        assert!(t.elapsed() < Duration::from_secs(30), "not handled");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The answer goes out by the real server.
    let got = s.wait_for_mails(&player, 3);
    assert!(got.iter().any(|m| text(m).contains("awaiting orders from")));
    unsafe {
        libc::kill(c.id() as i32, libc::SIGTERM);
    }
    let t = std::time::Instant::now();
    let status = loop {
        if let Some(st) = c.try_wait().unwrap() {
            break st;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "--watch did not stop"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut out = String::new();
    use std::io::Read;
    c.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    assert!(status.success(), "{status:?} {out}");
    assert!(out.contains("stopped"), "{out}");
}
