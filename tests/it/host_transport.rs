//! `herald host`, phase 1, against real servers (tests/it/mailservers.rs):
//! mail in from IMAP (plain, STARTTLS, TLS) and from a Maildir, mail out by
//! submission (STARTTLS, implicit TLS) through the outbox, and the failures
//! a host meets: refused recipients, wrong passwords, a server that goes
//! down in the middle of a run, huge and malformed mails.

use crate::common::scratch;
use crate::mailservers::{servers, Account, Cut, MailServers, DOMAIN};
use herald::host::config::{HostConfig, ImapConfig, Secret, Security, ServerConfig, SourceConfig};
use herald::host::log::Log;
use herald::host::outbox::{self, Labels};
use herald::host::smtp::{Sender, Smtp};
use herald::host::source::{self, Fetched, MailSource};
use herald::host::Failure;
use herald::mail::eml;
use std::path::{Path, PathBuf};

const NOW: i64 = 1_795_000_000;

fn server(s: &MailServers, port: u16, security: Security, who: &Account) -> ServerConfig {
    ServerConfig {
        server: "127.0.0.1".into(),
        port,
        security,
        user: who.address.clone(),
        password: Secret::new(who.password.clone()),
        ca_file: Some(s.ca_pem.clone()),
        timeout: 20,
    }
}

fn imap(s: &MailServers, security: Security, who: &Account) -> SourceConfig {
    let port = match security {
        Security::Tls => s.imaps_port,
        _ => s.imap_port,
    };
    SourceConfig::Imap(ImapConfig {
        server: server(s, port, security, who),
        mailbox: "INBOX".into(),
    })
}

fn smtp(s: &MailServers, security: Security, who: &Account) -> Smtp {
    let port = match security {
        Security::Tls => s.smtps_port,
        _ => s.submission_port,
    };
    Smtp::new(&server(s, port, security, who), &who.address).unwrap()
}

fn order_mail(n: usize, to: &str) -> Vec<u8> {
    format!(
        "From: Red <red@example.org>\r\nTo: {to}\r\nSubject: orders {n}\r\n\
         Message-ID: <order-{n}-{to}@example.org>\r\nDate: Wed, 18 Nov 2026 11:00:00 +0000\r\n\
         \r\ngame = \"g1\"\r\npassword = \"x\"\r\nmove a1 a2\r\n"
    )
    .into_bytes()
}

/// Queue a herald-built mail in `outbox` as NAME.eml.
fn queue(outbox: &Path, name: &str, to: &[&str], subject: &str) -> String {
    let mid = eml::message_id("g1", &[name, subject]);
    let mut bytes = eml::build(&eml::Mail {
        from: "herald@herald.test".into(),
        to: to[0].into(),
        subject: subject.into(),
        date: "2026-11-18T11:00:00Z".into(),
        message_id: mid.clone(),
        in_reply_to: None,
        text: format!("Report: {subject}\n"),
        attachments: vec![],
    });
    if to.len() > 1 {
        // A second recipient, as a Cc header line.
        let mut head = format!("Cc: {}\r\n", to[1..].join(", ")).into_bytes();
        head.extend_from_slice(&bytes);
        bytes = head;
    }
    std::fs::write(outbox.join(name), bytes).unwrap();
    format!("<{mid}>")
}

fn contains(hay: &[u8], needle: &str) -> bool {
    String::from_utf8_lossy(hay).contains(needle)
}

fn pending(src: &mut dyn MailSource) -> usize {
    src.pending().unwrap().len()
}

#[test]
fn imap_mail_is_fetched_and_marked_handled_over_plain_starttls_and_tls() {
    let s = servers();
    for security in [Security::Plain, Security::Starttls, Security::Tls] {
        let who = s.account();
        s.deliver(&who, &order_mail(1, &who.address));
        s.deliver(&who, &order_mail(2, &who.address));
        let cfg = imap(s, security, &who);
        let mut src = source::open(&cfg).unwrap();
        let ids = src.pending().unwrap();
        assert_eq!(ids.len(), 2, "{security:?}");
        assert!(
            ids[0].0.starts_with("imap:INBOX:") && ids[0] < ids[1],
            "{ids:?}"
        );
        let Fetched::Mail(first) = src.fetch(&ids[0], 1 << 20).unwrap() else {
            panic!("a small mail is fetched whole")
        };
        assert!(contains(&first, "Message-ID: <order-1-"), "{security:?}");
        assert!(contains(&first, "move a1 a2"));
        // Fetching does not mark it: still pending until marked.
        assert_eq!(pending(src.as_mut()), 2);
        src.mark_handled(&ids[0]).unwrap();
        src.mark_handled(&ids[0]).unwrap(); // idempotent
        src.close();

        // A new connection (a later pass) sees only the other one.
        let mut src = source::open(&cfg).unwrap();
        let again = src.pending().unwrap();
        assert_eq!(again, vec![ids[1].clone()], "{security:?}");
        let Fetched::Mail(second) = src.fetch(&again[0], 1 << 20).unwrap() else {
            panic!()
        };
        assert!(contains(&second, "Message-ID: <order-2-"));
        src.mark_handled(&again[0]).unwrap();
        src.close();
        let mut src = source::open(&cfg).unwrap();
        assert_eq!(pending(src.as_mut()), 0);
        src.close();
    }
}

#[test]
fn a_wrong_imap_password_is_a_configuration_failure_that_names_the_account() {
    let s = servers();
    let who = s.account();
    let mut wrong = who.clone();
    wrong.password = "not-the-password".into();
    for security in [Security::Starttls, Security::Tls] {
        let e = source::open(&imap(s, security, &wrong))
            .err()
            .expect("refused");
        let Failure::Config(m) = &e else {
            panic!("{e}")
        };
        assert!(m.contains("login") && m.contains(&who.address), "{m}");
        assert!(!m.contains("not-the-password"), "{m}");
    }
    // Without the servers' certificate as a CA, TLS does not verify: a
    // configuration failure too, which says what to do.
    let mut cfg = server(s, s.imaps_port, Security::Tls, &who);
    cfg.ca_file = None;
    let e = source::open(&SourceConfig::Imap(ImapConfig {
        server: cfg,
        mailbox: "INBOX".into(),
    }))
    .err()
    .expect("refused");
    assert!(
        matches!(&e, Failure::Config(m) if m.contains("ca_file")),
        "{e}"
    );
    // A mailbox that does not exist.
    let e = source::open(&SourceConfig::Imap(ImapConfig {
        server: server(s, s.imap_port, Security::Starttls, &who),
        mailbox: "NoSuchBox".into(),
    }))
    .err()
    .expect("refused");
    assert!(
        matches!(&e, Failure::Config(m) if m.contains("NoSuchBox")),
        "{e}"
    );
}

#[test]
fn a_huge_imap_mail_is_reported_too_big_without_downloading_it() {
    let s = servers();
    let who = s.account();
    let mut huge = b"From: x@example.org\r\nTo: y@example.org\r\nSubject: huge\r\n\
        Message-ID: <huge@example.org>\r\n\r\n"
        .to_vec();
    let line = [b'z'; 998];
    while huge.len() < 3 << 20 {
        huge.extend_from_slice(&line);
        huge.extend_from_slice(b"\r\n");
    }
    s.deliver(&who, &huge);
    s.deliver(&who, &order_mail(1, &who.address));
    let mut src = source::open(&imap(s, Security::Starttls, &who)).unwrap();
    let ids = src.pending().unwrap();
    assert_eq!(ids.len(), 2);
    let Fetched::TooBig { size, head } = src.fetch(&ids[0], 1 << 20).unwrap() else {
        panic!("a 3 MB mail over a 1 MB limit is too big")
    };
    assert!(size >= 3 << 20, "{size}");
    assert!(
        contains(&head, "Subject: huge") && head.len() < 1000,
        "{}",
        head.len()
    );
    // The small one is still fetched whole on the same connection.
    assert!(matches!(
        src.fetch(&ids[1], 1 << 20).unwrap(),
        Fetched::Mail(_)
    ));
    src.mark_handled(&ids[0]).unwrap();
    src.close();
    // Dovecot's own account of the session: far less than 3 MB went out.
    let log = s.root.join("log/dovecot.log");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let out = loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let mine = format!("imap({})", who.address);
        if let Some(l) = text
            .lines()
            .rev()
            .find(|l| l.contains(&mine) && l.contains(" out="))
        {
            let n = l.split(" out=").nth(1).unwrap().split(' ').next().unwrap();
            break n.parse::<u64>().unwrap();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no session line in {}",
            log.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(out < 200_000, "Dovecot sent {out} bytes");
}

#[test]
fn a_malformed_mail_is_fetched_as_it_is_without_panics() {
    let s = servers();
    let who = s.account();
    let junk: &[&[u8]] = &[
        b"\xff\xfe\x00binary junk without any header\r\n",
        b"Content-Type: multipart/mixed; boundary=\"b\"\r\nSubject: =?utf-8?B?broken\r\n\r\n--b\r\nno end",
        b"Subject: only a header line, no blank line, no body",
    ];
    for j in junk {
        s.deliver(&who, j);
    }
    let mut src = source::open(&imap(s, Security::Tls, &who)).unwrap();
    let ids = src.pending().unwrap();
    assert_eq!(ids.len(), 3);
    for (id, j) in ids.iter().zip(junk) {
        match src.fetch(id, 1 << 20).unwrap() {
            Fetched::Mail(b) => assert!(b.ends_with(&j[j.len() - 5..]), "{id}"),
            other => panic!("{other:?}"),
        }
        src.mark_handled(id).unwrap();
    }
    assert_eq!(pending(src.as_mut()), 0);
    src.close();
}

#[test]
fn a_maildir_filled_by_postfix_is_read_and_handled_mail_moves_aside() {
    let s = servers();
    let who = s.account();
    let outbox = scratch("maildir-src");
    queue(&outbox, "a.eml", &[&who.plus("g1")], "first");
    queue(&outbox, "b.eml", &[&who.address], "second");
    let mut tx = smtp(s, Security::Starttls, &who);
    let r = outbox::run(&outbox, &mut tx, NOW, &Labels::default(), &Log::none()).unwrap();
    assert_eq!(r.sent.len(), 2, "{r:?}");
    s.wait_for_mails(&who, 2);

    let cfg = SourceConfig::Maildir(who.maildir.clone());
    let mut src = source::open(&cfg).unwrap();
    let ids = src.pending().unwrap();
    assert_eq!(ids.len(), 2);
    assert!(ids.iter().all(|i| i.0.starts_with("maildir:")));
    let subjects: Vec<String> = ids
        .iter()
        .map(|id| match src.fetch(id, 1 << 20).unwrap() {
            Fetched::Mail(b) => String::from_utf8_lossy(&b).into_owned(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert!(subjects.iter().any(|m| m.contains("Subject: first")
        && m.contains(&format!("Delivered-To: {}", who.plus("g1")))));
    // Too big for a tiny limit: reported, with the header.
    match src.fetch(&ids[0], 100).unwrap() {
        Fetched::TooBig { size, head } => {
            assert!(size > 100 && contains(&head, "Subject:"), "{size}")
        }
        other => panic!("{other:?}"),
    }
    src.mark_handled(&ids[0]).unwrap();
    src.mark_handled(&ids[0]).unwrap();
    let handled = who.maildir.join(".herald-handled/cur");
    assert_eq!(std::fs::read_dir(&handled).unwrap().count(), 1);
    let mut src = source::open(&cfg).unwrap();
    assert_eq!(src.pending().unwrap(), vec![ids[1].clone()]);
    // A mail deleted after it was listed is gone, not an error.
    for d in ["new", "cur"] {
        for e in std::fs::read_dir(who.maildir.join(d)).unwrap().flatten() {
            std::fs::remove_file(e.path()).unwrap();
        }
    }
    assert_eq!(src.fetch(&ids[1], 1 << 20).unwrap(), Fetched::Gone);
    // Not a Maildir at all.
    let e = source::open(&SourceConfig::Maildir(outbox.join("nothing")))
        .err()
        .unwrap();
    assert!(matches!(e, Failure::Config(_)), "{e}");
}

#[test]
fn the_outbox_sends_over_starttls_and_tls_once_and_logs_each_mail() {
    let s = servers();
    for security in [Security::Starttls, Security::Tls] {
        let host = s.account();
        let red = s.account();
        let blue = s.account();
        let dir = scratch("outbox-send");
        let outbox = dir.join("outbox");
        std::fs::create_dir_all(&outbox).unwrap();
        let mid1 = queue(
            &outbox,
            "0001-report-red.eml",
            &[&red.address],
            "turn 1 red",
        );
        let mid2 = queue(
            &outbox,
            "0002-report-blue.eml",
            &[&blue.address],
            "turn 1 blue",
        );
        let log = Log::open(Some(&dir.join("host.log")), false).unwrap();
        let labels = Labels {
            game: Some("g1".into()),
            players: [(red.address.clone(), "red".to_string())].into(),
        };
        let mut tx = smtp(s, security, &host);
        let r = outbox::run(&outbox, &mut tx, NOW, &labels, &log).unwrap();
        assert_eq!(r.sent.len(), 2, "{security:?}: {r:?}");
        assert!(r.stopped.is_none() && r.deferred.is_empty() && r.refused.is_empty());
        assert!(r.sent[0].reply.starts_with("250"), "{}", r.sent[0].reply);
        assert!(outbox::queued(&outbox).unwrap().is_empty());
        // No state left: only the record of the mails sent, by name.
        let left: Vec<String> = std::fs::read_dir(&outbox)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, vec!["sent".to_string()], "no state left");
        let sent = std::fs::read_to_string(outbox.join("sent")).unwrap();
        assert_eq!(
            sent, "0001-report-red\n0002-report-blue\n",
            "each mail recorded sent once"
        );
        // A second run sends nothing again.
        let r = outbox::run(&outbox, &mut tx, NOW + 60, &labels, &log).unwrap();
        assert!(r.sent.is_empty());
        drop(tx);
        let got = s.wait_for_mails(&red, 1);
        assert!(contains(&got[0], &format!("Message-ID: {mid1}")));
        assert!(contains(&got[0], "Report: turn 1 red"));
        assert!(contains(&s.wait_for_mails(&blue, 1)[0], &mid2));
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert_eq!(s.mails(&red).len(), 1, "sent once");
        assert_eq!(s.mails(&blue).len(), 1, "sent once");
        let text = std::fs::read_to_string(dir.join("host.log")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines[0].contains(" out sent game=g1 player=red to=") && lines[0].contains(&mid1),
            "{text}"
        );
        assert!(!lines[1].contains("player="), "{text}");
        assert!(
            !text.contains(&host.password) && !text.contains("Report:"),
            "{text}"
        );
    }
}

#[test]
fn a_refused_recipient_is_recorded_and_never_retried() {
    let s = servers();
    let host = s.account();
    let red = s.account();
    let outbox = scratch("outbox-refused");
    let unknown = format!("unknown-{}@{DOMAIN}", host.local);
    queue(&outbox, "0001.eml", &[&unknown, &red.address], "to two");
    queue(&outbox, "0002.eml", &[&red.address], "after it");
    let mut tx = smtp(s, Security::Starttls, &host);
    let r = outbox::run(&outbox, &mut tx, NOW, &Labels::default(), &Log::none()).unwrap();
    assert_eq!(r.sent.len(), 2, "the good recipient of both: {r:?}");
    assert_eq!(r.refused.len(), 1);
    let refusal = &r.refused[0];
    assert_eq!(refusal.refused[0].to, unknown);
    assert!(
        refusal.refused[0].error.contains("550"),
        "{:?}",
        refusal.refused
    );
    assert_eq!(refusal.sent, vec![red.address.clone()]);
    assert!(outbox::queued(&outbox).unwrap().is_empty());
    assert!(outbox.join("refused/0001.eml").exists());
    assert_eq!(outbox::refusals(&outbox), vec![refusal.clone()]);
    // Later runs leave it alone.
    for later in [NOW + 3600, NOW + 10 * 86400] {
        let r = outbox::run(&outbox, &mut tx, later, &Labels::default(), &Log::none()).unwrap();
        assert_eq!(r, outbox::Report::default());
    }
    drop(tx);
    s.wait_for_mails(&red, 2);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(s.mails(&red).len(), 2);
}

#[test]
fn a_wrong_smtp_password_stops_the_run_loudly_and_keeps_the_mail() {
    let s = servers();
    let host = s.account();
    let red = s.account();
    let dir = scratch("outbox-wrong-pw");
    queue(&dir, "0001.eml", &[&red.address], "one");
    queue(&dir, "0002.eml", &[&red.address], "two");
    let mut cfg = server(s, s.submission_port, Security::Starttls, &host);
    cfg.password = Secret::new("wrong-password-123");
    let mut tx = Smtp::new(&cfg, &host.address).unwrap();
    let log = Log::open(Some(&dir.join("host.log")), false).unwrap();
    let r = outbox::run(&dir, &mut tx, NOW, &Labels::default(), &log).unwrap();
    let Some(Failure::Config(m)) = &r.stopped else {
        panic!("{r:?}")
    };
    assert!(
        m.contains("535") && m.contains(&host.address) && m.contains("smtp_password"),
        "{m}"
    );
    assert!(r.sent.is_empty() && r.deferred.is_empty());
    assert_eq!(r.untried, 1);
    assert_eq!(outbox::queued(&dir).unwrap().len(), 2);
    // Not counted against the mail: no state written.
    assert_eq!(
        outbox::read_state(&dir.join("0001.eml")).unwrap(),
        Default::default()
    );
    let text = std::fs::read_to_string(dir.join("host.log")).unwrap();
    assert!(
        text.contains(" out failure ") && !text.contains("wrong-password-123"),
        "{text}"
    );
    // The sender stays down for the pass: nothing more is tried.
    assert!(matches!(tx.down(), Some(Failure::Config(_))));
    // With the right password, both go.
    let mut tx = smtp(s, Security::Starttls, &host);
    let r = outbox::run(&dir, &mut tx, NOW + 1, &Labels::default(), &log).unwrap();
    assert_eq!(r.sent.len(), 2, "{r:?}");
}

#[test]
fn a_server_that_goes_down_mid_run_loses_and_doubles_nothing() {
    let s = servers();
    let host = s.account();
    let red = s.account();
    let dir = scratch("outbox-down");
    for n in 1..=4 {
        queue(
            &dir,
            &format!("{n:04}.eml"),
            &[&red.address],
            &format!("mail {n}"),
        );
    }
    // The server takes one mail and goes away. (Plain SMTP on loopback, so
    // the relay that stops it can read when a mail was accepted.)
    let cut = Cut::after_accepted(s.submission_port, 1);
    let mut cfg = server(s, cut.port, Security::Plain, &host);
    cfg.timeout = 5;
    let mut tx = Smtp::new(&cfg, &host.address).unwrap();
    let r = outbox::run(&dir, &mut tx, NOW, &Labels::default(), &Log::none()).unwrap();
    assert_eq!(r.sent.len(), 1, "{r:?}");
    assert_eq!(r.deferred.len(), 1, "{r:?}");
    assert!(matches!(r.stopped, Some(Failure::Temporary(_))), "{r:?}");
    assert_eq!(r.untried, 2);
    assert_eq!(outbox::queued(&dir).unwrap().len(), 3);
    let st = outbox::read_state(&dir.join("0002.eml")).unwrap();
    assert_eq!((st.attempts, st.next_try), (1, NOW + 60));
    assert!(st.last_error.is_some());
    // Nothing listens any more: the next pass, before the backoff ends,
    // tries the untried ones only, and stops at the first.
    let mut tx = Smtp::new(&cfg, &host.address).unwrap();
    let r = outbox::run(&dir, &mut tx, NOW + 30, &Labels::default(), &Log::none()).unwrap();
    assert_eq!(
        (r.sent.len(), r.waiting, r.deferred.len(), r.untried),
        (0, 1, 1, 1),
        "{r:?}"
    );
    // The server is back (the real port): a pass after the backoff sends
    // the rest.
    let mut tx = smtp(s, Security::Starttls, &host);
    let r = outbox::run(&dir, &mut tx, NOW + 600, &Labels::default(), &Log::none()).unwrap();
    assert_eq!(r.sent.len(), 3, "{r:?}");
    assert!(outbox::queued(&dir).unwrap().is_empty());
    drop(tx);
    let got = s.wait_for_mails(&red, 4);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let got = if s.mails(&red).len() > got.len() {
        s.mails(&red)
    } else {
        got
    };
    assert_eq!(got.len(), 4, "each mail exactly once");
    for n in 1..=4 {
        let subject = format!("Subject: mail {n}\r\n");
        let subject_lf = format!("Subject: mail {n}\n");
        assert_eq!(
            got.iter()
                .filter(|m| contains(m, &subject) || contains(m, &subject_lf))
                .count(),
            1,
            "mail {n}"
        );
    }
}

#[test]
fn malformed_and_unaddressed_outbox_files_are_refused_without_panics() {
    let s = servers();
    let host = s.account();
    let dir = scratch("outbox-malformed");
    std::fs::write(dir.join("0001.eml"), b"\xff\xfe not a mail at all").unwrap();
    std::fs::write(
        dir.join("0002.eml"),
        b"Subject: no recipient\r\n\r\nbody\r\n",
    )
    .unwrap();
    std::fs::write(dir.join("0003.eml"), b"To: not an address\r\n\r\nbody\r\n").unwrap();
    std::fs::write(dir.join(".0004.eml.tmp"), b"a writer's temporary file").unwrap();
    std::fs::write(dir.join("0005.state"), b"{}").unwrap(); // orphan
    let mut tx = smtp(s, Security::Tls, &host);
    let r = outbox::run(&dir, &mut tx, NOW, &Labels::default(), &Log::none()).unwrap();
    assert!(r.sent.is_empty(), "{r:?}");
    assert_eq!(r.refused.len(), 3, "{r:?}");
    assert!(outbox::queued(&dir).unwrap().is_empty());
    assert!(dir.join(".0004.eml.tmp").exists());
    assert!(!dir.join("0005.state").exists());
}

/// A host folder with host.toml and its secrets, for the servers.
fn host_dir(s: &MailServers, who: &Account, secrets_mode: u32) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let d = scratch("host-dir");
    std::fs::write(
        d.join("host.toml"),
        format!(
            "address = \"{}\"\npoll = \"1m\"\n\n[imap]\nserver = \"127.0.0.1\"\nport = {}\n\
             security = \"tls\"\nuser = \"{}\"\nca_file = \"{}\"\n\n[smtp]\nserver = \"127.0.0.1\"\n\
             port = {}\nsecurity = \"starttls\"\nuser = \"{}\"\nca_file = \"{}\"\n",
            who.address,
            s.imaps_port,
            who.address,
            s.ca_pem.display(),
            s.submission_port,
            who.address,
            s.ca_pem.display()
        ),
    )
    .unwrap();
    let p = d.join("host.secrets.toml");
    std::fs::write(
        &p,
        format!(
            "imap_password = \"{}\"\nsmtp_password = \"{}\"\n",
            who.password, who.password
        ),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(secrets_mode)).unwrap();
    d
}

#[test]
fn a_host_folder_configures_both_directions() {
    let s = servers();
    let host = s.account();
    let d = host_dir(s, &host, 0o644);
    let e = HostConfig::load(&d).unwrap_err().to_string();
    assert!(
        e.contains("chmod 600") && !e.contains(&host.password),
        "{e}"
    );
    let d = host_dir(s, &host, 0o600);
    let c = HostConfig::load(&d).unwrap();
    // Mail to the game's plus address goes out and comes back in.
    let outbox = d.join("g7-outbox");
    std::fs::create_dir_all(&outbox).unwrap();
    queue(
        &outbox,
        "0001.eml",
        &[&c.address.for_game("g7")],
        "to the game",
    );
    let mut tx = Smtp::new(&c.smtp, &c.address.plain()).unwrap();
    let r = outbox::run(&outbox, &mut tx, NOW, &Labels::default(), &Log::none()).unwrap();
    assert_eq!(r.sent.len(), 1, "{r:?}");
    s.wait_for_mails(&host, 1);
    let mut src = source::open(&c.source).unwrap();
    let ids = src.pending().unwrap();
    assert_eq!(ids.len(), 1);
    let Fetched::Mail(m) = src.fetch(&ids[0], c.max_mail_bytes).unwrap() else {
        panic!()
    };
    let text = String::from_utf8_lossy(&m);
    let to = text
        .lines()
        .find_map(|l| l.strip_prefix("Delivered-To: "))
        .unwrap();
    assert_eq!(c.address.tag_of(to), Some("g7"), "{to}");
    src.mark_handled(&ids[0]).unwrap();
    src.close();
}
