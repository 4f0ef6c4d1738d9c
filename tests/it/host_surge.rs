//! `herald host` with many games' mail in one pass (issue 37): the games
//! handled side by side write what a pass handling them one at a time
//! writes, byte for byte, and send the same mails; one SMTP connection per
//! thread carries them all, a refused recipient included.

use crate::common::{herald, scratch};
use crate::host_mail::{at, bot_files, mail, T0};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What the sink took: each mail's recipient and bytes, in the order it
/// took them; and how many connections it accepted.
#[derive(Default)]
struct Took {
    mails: Vec<(String, Vec<u8>)>,
    refused: Vec<String>,
    connections: usize,
}

/// An SMTP server on loopback (PIPELINING, 8BITMIME, AUTH PLAIN) that
/// keeps what it takes and refuses every recipient whose address starts
/// with `nobody` (550).
fn sink() -> (u16, Arc<Mutex<Took>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let took = Arc::new(Mutex::new(Took::default()));
    let t = took.clone();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            t.lock().unwrap().connections += 1;
            let t = t.clone();
            std::thread::spawn(move || {
                let _ = serve(s, &t);
            });
        }
    });
    (port, took)
}

fn serve(s: TcpStream, took: &Mutex<Took>) -> std::io::Result<()> {
    let mut w = s.try_clone()?;
    let mut r = BufReader::new(s);
    w.write_all(b"220 sink ESMTP\r\n")?;
    let mut rcpt = String::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        if r.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        let up = text.to_ascii_uppercase();
        if up.starts_with("EHLO") {
            w.write_all(b"250-sink\r\n250-PIPELINING\r\n250-8BITMIME\r\n250 AUTH PLAIN\r\n")?;
        } else if up.starts_with("AUTH") {
            w.write_all(b"235 ok\r\n")?;
        } else if up.starts_with("RCPT TO:") {
            let to = text[8..].trim_matches(['<', '>', ' ']).to_string();
            if to.starts_with("nobody") {
                took.lock().unwrap().refused.push(to);
                w.write_all(b"550 5.1.1 no such user\r\n")?;
            } else {
                rcpt = to;
                w.write_all(b"250 ok\r\n")?;
            }
        } else if up == "DATA" {
            w.write_all(b"354 go on\r\n")?;
            let mut data = Vec::new();
            loop {
                line.clear();
                if r.read_until(b'\n', &mut line)? == 0 {
                    return Ok(());
                }
                if line == b".\r\n" {
                    break;
                }
                data.extend_from_slice(line.strip_prefix(b".").unwrap_or(&line));
            }
            took.lock()
                .unwrap()
                .mails
                .push((std::mem::take(&mut rcpt), data));
            w.write_all(b"250 2.0.0 taken\r\n")?;
        } else if up == "QUIT" {
            w.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            if up == "RSET" {
                rcpt.clear();
            }
            w.write_all(b"250 ok\r\n")?;
        }
    }
}

/// A host folder with `games` HEXWAR games and a mix of waiting mail:
/// every game's awaited orders, a corrected copy for every other game, a
/// `status` command, orders with a wrong password, mail for no game. One
/// game's blue plays from an address the server refuses.
fn surge(games: usize) -> PathBuf {
    let dir = scratch("host-surge");
    let maildir = dir.join("Maildir");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(d)).unwrap();
    }
    let put = |name: String, bytes: Vec<u8>| {
        let tmp = maildir.join("tmp").join(&name);
        std::fs::write(&tmp, bytes).unwrap();
        std::fs::rename(&tmp, maildir.join("new").join(&name)).unwrap();
    };
    for k in 0..games {
        let id = format!("su{k}");
        let out = dir.join(&id).display().to_string();
        let red = format!("red-{k}@p.test");
        let blue = match k {
            1 => format!("nobody-{k}@p.test"),
            _ => format!("blue-{k}@p.test"),
        };
        let (e1, e2) = (format!("red={red}"), format!("blue={blue}"));
        let seed = format!("surge-{k}");
        let (code, o, e) = herald(&[
            "new",
            "hexwar",
            "--players",
            "red,blue",
            "--id",
            &id,
            "--out",
            &out,
            "--seed",
            &seed,
            "--now",
            T0,
            "--deadline",
            "2026-12-30T00:00:00Z",
            "--email",
            &e1,
            "--email",
            &e2,
        ]);
        assert_eq!(code, 0, "{o}{e}");
        let pw: Vec<(String, String)> = ["red", "blue"]
            .iter()
            .map(|p| {
                let line = o
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("{p}: ")))
                    .unwrap_or_else(|| panic!("no password for {p} in {o}"));
                (
                    p.to_string(),
                    line.trim().split_once(": ").unwrap().1.into(),
                )
            })
            .collect();
        let (player, file) = bot_files(&dir.join(&id), &pw).remove(0);
        let from = if player == "red" { &red } else { &blue };
        let to = format!("herald+{id}@host.test");
        let m = |n: &str, minute: i64, subject: &str, body: &str| {
            put(
                format!("{minute}-{k}-{n}.m"),
                mail(from, &to, subject, &format!("{k}-{n}@p"), minute, body),
            )
        };
        m("orders", 1, "orders", &file);
        if k % 2 == 0 {
            m("again", 2, "orders", &file);
        }
        if k == 3 {
            m("status", 2, "status", "");
        }
        if k == 4 {
            let pw = &pw.iter().find(|(p, _)| *p == player).unwrap().1;
            m(
                "wrong",
                3,
                "orders",
                &file.replace(pw.as_str(), "wrong-password"),
            );
        }
    }
    put(
        "0-none.m".into(),
        mail(
            "x@p.test",
            "herald@host.test",
            "hello",
            "none@p",
            1,
            "hello",
        ),
    );
    dir
}

/// `herald host DIR` with `threads` threads, SMTP to the sink at `port`:
/// what it took in this pass.
fn pass(dir: &Path, threads: usize, (port, took): &(u16, Arc<Mutex<Took>>)) -> Took {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(
        dir.join("host.toml"),
        format!(
            "address = \"herald@host.test\"\n[maildir]\npath = \"{}\"\n[smtp]\nserver = \"127.0.0.1\"\nport = {port}\nsecurity = \"plain\"\nuser = \"herald@host.test\"\ntimeout = 10\n",
            dir.join("Maildir").display()
        ),
    )
    .unwrap();
    let sp = dir.join("host.secrets.toml");
    std::fs::write(&sp, "smtp_password = \"x\"\n").unwrap();
    std::fs::set_permissions(&sp, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["host", &dir.display().to_string(), "--now", &at(10)])
        .env("RAYON_NUM_THREADS", threads.to_string())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    let took = std::mem::take(&mut *took.lock().unwrap());
    took
}

/// Every file under `root` (relative path, bytes), skipping `skip`.
fn files(root: &Path, skip: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().display().to_string();
            if skip
                .iter()
                .any(|s| rel == *s || rel.starts_with(&format!("{s}/")))
            {
                continue;
            }
            if e.file_type().unwrap().is_dir() {
                stack.push(p);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn copy(from: &Path, to: &Path) {
    let ok = std::process::Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap()
        .success();
    assert!(ok);
}

/// Each recipient's mails in the order they were taken.
fn by_recipient(t: &Took) -> BTreeMap<String, Vec<Vec<u8>>> {
    let mut m: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    for (to, bytes) in &t.mails {
        m.entry(to.clone()).or_default().push(bytes.clone());
    }
    m
}

#[test]
fn games_side_by_side_write_what_one_at_a_time_writes() {
    let games = 8;
    let base = surge(games);
    // Both passes run in the same folder (a status reply names its path)
    // and send to the same server (a refusal names it), each on a fresh
    // copy of the waiting host.
    let server = sink();
    let work = base.with_extension("work");
    let run = |threads: usize| {
        let _ = std::fs::remove_dir_all(&work);
        copy(&base, &work);
        let took = pass(&work, threads, &server);
        let kept = base.with_extension(format!("threads-{threads}"));
        let _ = std::fs::remove_dir_all(&kept);
        std::fs::rename(&work, &kept).unwrap();
        (took, kept)
    };
    let (a, one) = run(1);
    let (b, many) = run(4);
    // One connection per thread at most; the refused recipient reset its
    // transaction and the connection went on.
    assert_eq!(a.connections, 1, "one thread, one connection");
    assert!(b.connections <= 4, "{}", b.connections);
    assert!(!a.refused.is_empty());
    let mut ra = a.refused.clone();
    let mut rb = b.refused.clone();
    ra.sort();
    rb.sort();
    assert_eq!(ra, rb);
    // Every turn resolved early: the turn-1 reports went out to both.
    for k in 0..games {
        let done = one.join(format!("su{k}/reports/turn-0001"));
        assert!(done.is_dir(), "su{k} resolved");
    }
    // The same mails, each recipient's in the same order.
    let (ma, mb) = (by_recipient(&a), by_recipient(&b));
    assert_eq!(a.mails.len(), b.mails.len());
    assert!(a.mails.len() >= 4 * games, "{}", a.mails.len());
    assert_eq!(ma.keys().collect::<Vec<_>>(), mb.keys().collect::<Vec<_>>());
    for (to, list) in &ma {
        assert_eq!(list.len(), mb[to].len(), "{to}: as many mails");
        for (x, y) in list.iter().zip(&mb[to]) {
            let (x, y) = (String::from_utf8_lossy(x), String::from_utf8_lossy(y));
            let first = x.lines().zip(y.lines()).find(|(l, m)| l != m);
            assert!(first.is_none(), "{to}: mails differ at {first:?}");
        }
    }
    // Every game folder, and the host's state, byte for byte.
    for k in 0..games {
        let g = format!("su{k}");
        let (fa, fb) = (files(&one.join(&g), &[]), files(&many.join(&g), &[]));
        assert_eq!(
            fa.keys().collect::<Vec<_>>(),
            fb.keys().collect::<Vec<_>>(),
            "{g}: the same files"
        );
        for (name, bytes) in &fa {
            assert!(bytes == &fb[name], "{g}/{name} differs");
        }
    }
    // The host's record of each game, but for the game file's inode and
    // times (`fingerprint`: the file system's, not the pass's).
    let (ha, hb) = (
        files(&one.join("state"), &[]),
        files(&many.join("state"), &[]),
    );
    assert_eq!(ha.keys().collect::<Vec<_>>(), hb.keys().collect::<Vec<_>>());
    let plain = |b: &[u8]| match serde_json::from_slice::<serde_json::Value>(b) {
        Ok(mut v) => {
            if let Some(o) = v.as_object_mut() {
                o.remove("fingerprint");
            }
            v.to_string().into_bytes()
        }
        Err(_) => b.to_vec(),
    };
    for (name, bytes) in &ha {
        assert!(plain(bytes) == plain(&hb[name]), "DIR/state/{name} differs");
    }
    let handled = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d.join("Maildir/.herald-handled/cur"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(handled(&one), handled(&many));
    assert_eq!(
        std::fs::read_dir(many.join("Maildir/new")).unwrap().count(),
        0
    );
}
