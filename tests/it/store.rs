//! The game store holds (issue 15, "What must hold"): racing writers lose
//! no order, a second writer is told the game is busy, a command killed at
//! any instant leaves the old state or the new one and is completed by
//! running it again, secrets stay 0600 and passwords leave no copy, planted
//! files and hostile names are refused, hostile input costs little, and the
//! game folders of herald 0.1 verify and convert.
//!
//! Every test drives the real binary on copies of one small game (Norse
//! Wars, two players) made once per run. The counts of races and kills can
//! be raised from the environment (HERALD_RACES, HERALD_KILLS) to run
//! hundreds.

use crate::common::{count, herald, lines};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub const NEW: &str = "2026-11-22T12:00:00Z";
/// The first phase's deadline in the template game.
const DEADLINE: &str = "2026-11-22T12:30:00Z";
pub const LATER: &str = "2026-11-22T13:00:00Z";
/// A mail's Date before the deadline.
const MAIL_DATE: &str = "Sun, 22 Nov 2026 12:10:00 +0000";

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("herald starts")
}

fn finish(c: Child) -> (i32, String, String) {
    let out = c.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run herald and insist on success; its stdout.
pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = herald(args);
    assert_eq!(code, 0, "herald {args:?} failed ({code}):\n{out}{err}");
    assert!(!err.contains("panicked"), "{err}");
    out
}

/// A folder under the system's temp folder, removed when the test passes
/// (kept to look at when it fails).
pub struct Spot(pub PathBuf);

impl Spot {
    /// On tmpfs (/dev/shm) where there is one: SIGKILL leaves the page
    /// cache whole, so nothing these tests check depends on the disk, and
    /// without a disk's fsync a thousand mails take a second, not ten.
    pub fn new(tag: &str) -> Spot {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let shm = Path::new("/dev/shm");
        let base = if shm.is_dir() && tempfile::tempdir_in(shm).is_ok() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let d = base.join(format!("herald-{}-{n}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Spot(d)
    }
    pub fn join(&self, p: &str) -> PathBuf {
        self.0.join(p)
    }
}

impl Drop for Spot {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A folder for a template made once per run and kept to its end: no
/// test owns it, so it is not removed by one; the templates of earlier
/// runs, whose process is gone, are removed here.
pub fn template_dir(tag: &str) -> PathBuf {
    let dir = Spot::new(tag);
    let parent = dir.0.parent().unwrap().to_path_buf();
    for e in std::fs::read_dir(&parent).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let pid = name.split('-').nth(1).unwrap_or("");
        if name.starts_with("herald-")
            && name.ends_with(&format!("-{tag}"))
            && !Path::new("/proc").join(pid).exists()
        {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
    std::mem::ManuallyDrop::new(dir).0.clone()
}

/// `cp -a`: a copy of a game folder, modes and all.
pub fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    let st = Command::new("cp")
        .args(["-a", s(from), s(to)])
        .status()
        .unwrap();
    assert!(st.success(), "cp -a {} {}", from.display(), to.display());
}

/// Every regular file under `dir` with its bytes, by relative path; the
/// lock file left out (it holds whichever pid held it last).
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        let Ok(list) = std::fs::read_dir(dir) else {
            return;
        };
        for e in list {
            let p = e.unwrap().path();
            let t = std::fs::symlink_metadata(&p).unwrap().file_type();
            if t.is_dir() {
                walk(root, &p, out);
            } else if p.file_name().unwrap() != "lock" {
                let bytes = if t.is_file() {
                    std::fs::read(&p).unwrap()
                } else {
                    b"<not a regular file>".to_vec()
                };
                out.insert(p.strip_prefix(root).unwrap().to_path_buf(), bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The differences between two snapshots, named.
fn differences(
    want: &BTreeMap<PathBuf, Vec<u8>>,
    have: &BTreeMap<PathBuf, Vec<u8>>,
    ignore: impl Fn(&Path) -> bool,
) -> Vec<String> {
    let mut out = Vec::new();
    for (p, b) in want {
        if ignore(p) {
            continue;
        }
        match have.get(p) {
            None => out.push(format!("{} is missing", p.display())),
            Some(h) if h != b => out.push(format!("{} differs", p.display())),
            _ => {}
        }
    }
    for p in have.keys() {
        if !want.contains_key(p) && !ignore(p) {
            out.push(format!("{} should not be there", p.display()));
        }
    }
    out
}

/// The template game every test copies: Norse Wars, red and blue, seed 7,
/// made at NEW with a first deadline at DEADLINE, both players with a mail
/// address, signed with a host key made by `keygen`.
pub struct Template {
    pub game: PathBuf,
    pub key: PathBuf,
    pub id: String,
    pub passwords: BTreeMap<String, String>,
}

pub fn template() -> &'static Template {
    static T: OnceLock<Template> = OnceLock::new();
    T.get_or_init(|| {
        let dir = template_dir("store-template");
        let key = dir.join("host.key");
        ok(&["keygen", "--out", s(&key)]);
        let game = dir.join("game");
        ok(&[
            "new",
            "norse-wars",
            "--players",
            "red,blue",
            "--seed",
            "7",
            "--out",
            s(&game),
            "--now",
            NEW,
            "--deadline",
            DEADLINE,
            "--key",
            s(&key),
            "--email",
            "red=red@example.org",
            "--email",
            "blue=blue@example.org",
            "--moderator",
            "gm@example.org",
        ]);
        let passwords = secrets_passwords(&game);
        let id = crate::common::head(&game)["id"]
            .as_str()
            .unwrap()
            .to_string();
        Template {
            game,
            key,
            id,
            passwords,
        }
    })
}

/// The passwords in a game folder's secrets file.
pub fn secrets_passwords(game: &Path) -> BTreeMap<String, String> {
    let t: toml::Table =
        toml::from_str(&std::fs::read_to_string(game.join("secrets.toml")).unwrap()).unwrap();
    t["passwords"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect()
}

impl Template {
    /// A copy of the game at `to`.
    pub fn copy(&self, to: &Path) -> PathBuf {
        copy_dir(&self.game, to);
        to.to_path_buf()
    }

    /// An order file of `player` for `turn` with their password, at `at`.
    pub fn orders(&self, at: &Path, player: &str, turn: u32, orders: &[&str]) -> PathBuf {
        self.orders_with(at, player, turn, &self.passwords[player], orders)
    }

    pub fn orders_with(
        &self,
        at: &Path,
        player: &str,
        turn: u32,
        password: &str,
        orders: &[&str],
    ) -> PathBuf {
        let list: Vec<String> = orders.iter().map(|o| o.to_string()).collect();
        let text = herald::report::order_file(&self.id, player, turn, password, &list);
        std::fs::write(at, text).unwrap();
        at.to_path_buf()
    }

    /// A mail from `player` carrying their orders for turn 0.
    fn order_mail(&self, maildir: &Path, name: &str, player: &str, orders: &[&str], date: &str) {
        let list: Vec<String> = orders.iter().map(|o| o.to_string()).collect();
        let body = herald::report::order_file(&self.id, player, 0, &self.passwords[player], &list);
        mail(
            maildir,
            name,
            &format!("{player}@example.org"),
            date,
            &format!("<{name}@example.org>"),
            &body,
        );
    }
}

/// An empty Maildir.
pub fn maildir(at: &Path) -> PathBuf {
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(at.join(d)).unwrap();
    }
    at.to_path_buf()
}

/// A mail in a Maildir's new/.
pub fn mail(maildir: &Path, name: &str, from: &str, date: &str, id: &str, body: &str) {
    let text = format!(
        "From: {from}\r\nTo: gm@example.org\r\nSubject: orders\r\nDate: {date}\r\nMessage-ID: {id}\r\n\r\n{}",
        body.replace('\n', "\r\n")
    );
    std::fs::write(maildir.join("new").join(name), text).unwrap();
}

/// The phase entries of a game's log, as JSON bodies.
pub fn phases(game: &Path) -> Vec<Value> {
    lines(game)
        .into_iter()
        .skip(1)
        .map(|l| l["body"].clone())
        .filter(|b| b["kind"] == "phase")
        .collect()
}

/// The orders a phase recorded for `player`, as herald read them, and
/// whether they were a stand-in for missed orders.
fn recorded(phase: &Value, player: &str) -> Option<(Vec<String>, bool)> {
    phase["orders"]
        .as_array()?
        .iter()
        .find(|o| o["player"] == player)
        .map(|o| {
            let read = o["read"]
                .as_array()
                .map(|r| r.iter().map(|x| x.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            (read, o.get("nmr").is_some_and(|n| !n.is_null()))
        })
}

fn verify_ok(game: &Path) {
    let (code, out, err) = herald(&["verify", s(game)]);
    assert_eq!(code, 0, "verify {}: {out}{err}", game.display());
    assert!(out.contains("every phase replays"), "{out}");
}

// ---------------------------------------------------------------------------
// Races
// ---------------------------------------------------------------------------

/// Two resolves of the same phase with different orders, at once: exactly
/// one applies; the other is refused (its turn is gone) or told the game is
/// busy; the log holds the orders of the one that said it succeeded.
#[test]
fn racing_resolves_apply_exactly_one_and_lose_nothing() {
    let t = template();
    let spot = Spot::new("race-resolve");
    let a = t.orders(&spot.join("a.toml"), "red", 0, &["W3 NE 2"]);
    let b = t.orders(&spot.join("b.toml"), "red", 0, &["W1 SE"]);
    let n = count("HERALD_RACES", 20);
    let (mut lost, mut busy) = (Vec::new(), 0);
    for i in 0..n {
        let g = t.copy(&spot.join(&format!("g{i}")));
        let ra = spawn(&["resolve", s(&g), s(&a), "--now", LATER]);
        let rb = spawn(&["resolve", s(&g), s(&b), "--now", LATER]);
        let (ca, oa, ea) = finish(ra);
        let (cb, ob, eb) = finish(rb);
        for e in [&ea, &eb] {
            assert!(!e.contains("panicked"), "{e}");
        }
        let log = phases(&g);
        let winners: Vec<(&str, &str)> = [(ca, "W3 NE 2"), (cb, "W1 SE")]
            .into_iter()
            .filter(|(c, _)| *c == 0)
            .map(|(_, o)| ("red", o))
            .collect();
        let say = format!("race {i}: a exit {ca} {oa}{ea}\nb exit {cb} {ob}{eb}");
        for (c, e) in [(ca, &ea), (cb, &eb)] {
            assert!(c == 0 || c == 1 || c == 3, "{say}");
            if c == 3 {
                busy += 1;
                assert!(e.contains("busy"), "{say}");
            }
            if c == 1 {
                assert!(e.contains("turn 0") || e.contains("stale"), "{say}");
            }
        }
        assert_eq!(log.len(), 1, "{say}");
        match winners.as_slice() {
            [(p, o)] => {
                if recorded(&log[0], p) != Some((vec![o.to_string()], false)) {
                    lost.push(format!("{say}\nthe log holds {:?}", log[0]["orders"]));
                }
            }
            _ => lost.push(format!("{say}\n{} runs said they resolved", winners.len())),
        }
        verify_ok(&g);
        let _ = std::fs::remove_dir_all(&g);
    }
    assert!(
        lost.is_empty(),
        "{} of {n} races lost orders:\n{}",
        lost.len(),
        lost.join("\n\n")
    );
    eprintln!("{n} resolve/resolve races: none lost ({busy} runs told busy)");
}

/// `inbox` and `resolve` at the deadline, at once: orders the inbox
/// accepted are in the resolved phase; orders it refused (the turn was
/// resolved first) are answered with a reply saying so. Never accepted and
/// then replaced by a stand-in.
#[test]
fn inbox_racing_the_deadline_resolve_loses_no_accepted_orders() {
    let t = template();
    let spot = Spot::new("race-inbox-resolve");
    let md = maildir(&spot.join("Maildir"));
    t.order_mail(&md, "1000.red", "red", &["W3 NE 2"], MAIL_DATE);
    let n = count("HERALD_RACES", 20);
    let (mut lost, mut first) = (Vec::new(), [0, 0]);
    for i in 0..n {
        let g = t.copy(&spot.join(&format!("g{i}")));
        let inbox = spawn(&["inbox", s(&g), s(&md), "--now", "2026-11-22T12:59:59Z"]);
        let resolve = spawn(&["resolve", s(&g), "--now", LATER]);
        let (ci, oi, ei) = finish(inbox);
        let (cr, or, er) = finish(resolve);
        let say = format!("race {i}: inbox exit {ci} {oi}{ei}\nresolve exit {cr} {or}{er}");
        assert_eq!((ci, cr), (0, 0), "{say}");
        let log = phases(&g);
        assert_eq!(log.len(), 1, "{say}");
        let red = recorded(&log[0], "red");
        let replies = reply_texts(&g);
        assert_eq!(replies.len(), 1, "one reply: {say}");
        if oi.contains("accepted, orders of red") {
            first[0] += 1;
            if red != Some((vec!["W3 NE 2".to_string()], false)) {
                lost.push(format!("{say}\naccepted, but the log holds {red:?}"));
            }
            assert!(replies[0].contains("ACCEPTED"), "{}", replies[0]);
        } else {
            first[1] += 1;
            assert!(oi.contains("refused"), "{say}");
            assert!(
                replies[0].contains("REFUSED") && replies[0].contains("turn 0"),
                "the refusal names the stale turn: {}",
                replies[0]
            );
            assert_eq!(red.map(|r| r.1), Some(true), "{say}");
        }
        assert!(!g.join("orders/turn-0000").exists(), "{say}");
        verify_ok(&g);
        let _ = std::fs::remove_dir_all(&g);
    }
    assert!(
        lost.is_empty(),
        "{} of {n} races lost orders:\n{}",
        lost.len(),
        lost.join("\n\n")
    );
    eprintln!(
        "{n} inbox/resolve races: none lost (inbox first {}, resolve first {})",
        first[0], first[1]
    );
}

/// The text bodies of the replies in a game's outbox.
fn reply_texts(game: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(list) = std::fs::read_dir(game.join("outbox")) else {
        return out;
    };
    let mut paths: Vec<PathBuf> = list.map(|e| e.unwrap().path()).collect();
    paths.sort();
    for p in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
    {
        let bytes = std::fs::read(p).unwrap();
        let m = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        if m.in_reply_to().as_text().is_some() {
            out.push(m.body_text(0).unwrap().into_owned());
        }
    }
    out
}

/// Two `inbox` runs on the same Maildir at once: every mail is handled
/// by exactly one of them, answered once and recorded once.
#[test]
fn racing_inboxes_handle_each_mail_exactly_once() {
    let t = template();
    let spot = Spot::new("race-inbox-inbox");
    let md = maildir(&spot.join("Maildir"));
    t.order_mail(&md, "1000.red", "red", &["W1 SE"], MAIL_DATE);
    t.order_mail(
        &md,
        "1001.red",
        "red",
        &["W3 NE 2"],
        "Sun, 22 Nov 2026 12:20:00 +0000",
    );
    t.order_mail(&md, "1002.blue", "blue", &["W1 NW"], MAIL_DATE);
    for k in 0..3 {
        mail(
            &md,
            &format!("1003.junk{k}"),
            "someone@example.org",
            MAIL_DATE,
            "<1000.red@example.org>",
            &format!("hello {k}\n"),
        );
    }
    let mails = 6;
    let n = count("HERALD_RACES", 20);
    let mut wrong = Vec::new();
    for i in 0..n {
        let g = t.copy(&spot.join(&format!("g{i}")));
        let a = spawn(&["inbox", s(&g), s(&md), "--now", LATER]);
        let b = spawn(&["inbox", s(&g), s(&md), "--now", LATER]);
        let (ca, oa, ea) = finish(a);
        let (cb, ob, eb) = finish(b);
        let say = format!("race {i}: a exit {ca}\n{oa}{ea}\nb exit {cb}\n{ob}{eb}");
        assert_eq!((ca, cb), (0, 0), "{say}");
        // Each mail: handled (not "already read") by exactly one run.
        let mut handled: BTreeMap<String, usize> = BTreeMap::new();
        for out in [&oa, &ob] {
            for l in out.lines().filter(|l| l.starts_with("100")) {
                let place = l.split(' ').next().unwrap().to_string();
                let n = handled.entry(place).or_default();
                if !l.ends_with("already read; skipped") {
                    *n += 1;
                }
            }
        }
        if handled.len() != mails || handled.values().any(|&n| n != 1) {
            wrong.push(format!("{say}\nhandled: {handled:?}"));
        }
        let seen = std::fs::read_to_string(g.join("inbox/seen")).unwrap();
        let seen: Vec<&str> = seen.lines().collect();
        let unique: BTreeSet<&str> = seen.iter().copied().collect();
        assert_eq!((seen.len(), unique.len()), (mails, mails), "{say}");
        assert_eq!(reply_texts(&g).len(), mails, "{say}");
        // red's later file is the one stored.
        let stored: Value = serde_json::from_str(
            &std::fs::read_to_string(g.join("orders/turn-0000/red.json")).unwrap(),
        )
        .unwrap();
        assert!(
            stored["text"].as_str().unwrap().contains("W3 NE 2"),
            "{say}"
        );
        let _ = std::fs::remove_dir_all(&g);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    eprintln!("{n} inbox/inbox races: every mail handled exactly once");
}

// ---------------------------------------------------------------------------
// Busy
// ---------------------------------------------------------------------------

/// While another process holds a game's lock, every command that writes
/// gives up with exit 3, naming the game and saying it is busy; every
/// command that only reads still works; and a writer that waits long
/// enough gets the game once the lock is let go.
#[test]
fn a_held_lock_makes_writers_exit_3_and_leaves_readers_alone() {
    let t = template();
    let spot = Spot::new("busy");
    let g = t.copy(&spot.join("game"));
    let o = t.orders(&spot.join("o.toml"), "red", 0, &["W3 NE 2"]);
    let md = maildir(&spot.join("Maildir"));
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(g.join("lock"))
        .unwrap();
    lock.try_lock().expect("the lock is free");
    let before = snapshot(&g);
    let gs = s(&g);
    let writers: Vec<Vec<&str>> = vec![
        vec!["resolve", gs, s(&o), "--now", LATER, "--wait", "0"],
        vec!["inbox", gs, s(&md), "--now", LATER, "--wait", "0"],
        vec![
            "passwd", gs, "--player", "red", "--now", LATER, "--wait", "0",
        ],
        vec!["deadline", gs, "none", "--now", LATER, "--wait", "0"],
        vec!["undo", gs, "--now", LATER, "--wait", "0"],
        vec!["report", gs, "--rebuild", "--wait", "0"],
    ];
    for args in &writers {
        let (code, out, err) = herald(args);
        assert_eq!(code, 3, "{args:?}: {out}{err}");
        assert!(
            err.contains("busy") && err.contains(gs),
            "{args:?}: the message names the game and says busy: {err}"
        );
    }
    // A short wait is waited, then given up.
    let started = Instant::now();
    let (code, _, err) = herald(&["resolve", gs, s(&o), "--now", LATER, "--wait", "1"]);
    assert_eq!(code, 3, "{err}");
    assert!(started.elapsed() >= Duration::from_millis(1000));
    assert_eq!(before, snapshot(&g), "a busy writer changed the folder");
    for args in [
        vec!["status", gs],
        vec!["check", gs, s(&o)],
        vec!["verify", gs],
        vec!["report", gs, "--player", "red"],
        vec!["orders", gs, "--player", "red"],
    ] {
        ok(&args);
    }
    // A writer waiting when the lock is let go gets the game.
    let waiting = spawn(&["resolve", gs, s(&o), "--now", LATER, "--wait", "20"]);
    std::thread::sleep(Duration::from_millis(300));
    drop(lock);
    let (code, out, err) = finish(waiting);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("resolved turn 0"), "{out}");
}

// ---------------------------------------------------------------------------
// kill -9
// ---------------------------------------------------------------------------

/// Start herald, SIGKILL it after `delay` if it is still running: whether
/// it was killed before it finished.
fn kill_after(args: &[&str], delay: Duration) -> bool {
    let mut c = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    let running = c.try_wait().unwrap().is_none();
    if running {
        c.kill().unwrap();
    }
    let st = c.wait().unwrap();
    running && st.code().is_none()
}

/// How long an uninterrupted run takes.
fn timed(args: &[String]) -> Duration {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let started = Instant::now();
    ok(&a);
    started.elapsed()
}

/// The kill instants of `n` runs: from 0 to a little past the time an
/// uninterrupted run took.
fn instants(span: Duration, n: usize) -> impl Iterator<Item = Duration> {
    (0..n).map(move |i| span.mul_f64(1.2 * i as f64 / n as f64))
}

/// Runs `run(i, at)` (which kills a command `at` after its start and says
/// whether it was cut short) at `n` instants spread over `span`, and
/// returns how many runs were cut short and how many were made. A span
/// timed while the machine was busier than it is now would put most kills
/// after the end and test little: while fewer than a third of the runs
/// were cut short, up to three more rounds of `n` runs each go at half
/// the previous span. Fails when even then a third were not cut short.
fn kill_loop(
    span: Duration,
    n: usize,
    mut run: impl FnMut(usize, Duration) -> bool,
) -> (usize, usize) {
    let (mut killed, mut made) = (0, 0);
    let mut span = span;
    for round in 0..4 {
        if round > 0 && killed * 3 >= made {
            break;
        }
        for at in instants(span, n) {
            killed += run(made, at) as usize;
            made += 1;
        }
        span /= 2;
    }
    assert!(
        killed * 3 >= made,
        "only {killed} of {made} runs were cut short"
    );
    (killed, made)
}

/// A killed command's temporary files: the next writer removes them.
fn leftover(p: &Path) -> bool {
    let name = p.file_name().unwrap().to_string_lossy();
    herald::store::write::TEMPORARY
        .iter()
        .any(|t| name.starts_with(t))
}

/// `resolve` killed at any instant: the game file is the old one or the
/// new one, and running the same command again gives exactly the folder an
/// uninterrupted run gives (game file, reports, mails), which verifies.
#[test]
fn resolve_killed_at_any_instant_is_completed_by_running_it_again() {
    let t = template();
    let spot = Spot::new("kill-resolve");
    let o = t.orders(&spot.join("o.toml"), "red", 0, &["W3 NE 2"]);
    let args = |g: &Path| -> Vec<String> {
        ["resolve", s(g), s(&o), "--now", LATER]
            .map(String::from)
            .to_vec()
    };
    let reference = t.copy(&spot.join("reference"));
    // The shortest of three uninterrupted runs: a run slowed by other
    // work on the machine would put every kill after the end.
    let span = (0..2).fold(timed(&args(&reference)), |m, k| {
        let fresh = t.copy(&spot.join(&format!("time{k}")));
        m.min(timed(&args(&fresh)))
    });
    let want = snapshot(&reference);
    let (old, new) = (
        std::fs::read(t.game.join("game.jsonl")).unwrap(),
        want[Path::new("game.jsonl")].clone(),
    );
    let n = count("HERALD_KILLS", 24);
    let mut left = 0;
    let (killed, n) = kill_loop(span, n, |i, at| {
        let g = t.copy(&spot.join(&format!("k{i}")));
        let a = args(&g);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let cut = kill_after(&a, at);
        let now = std::fs::read(g.join("game.jsonl")).unwrap();
        assert!(
            now == old || now == new,
            "kill {i} at {at:?}: a game file half written"
        );
        left += snapshot(&g).keys().filter(|p| leftover(p)).count();
        let out = ok(&a);
        assert!(out.contains("turn 0"), "{out}");
        verify_ok(&g);
        let d = differences(&want, &snapshot(&g), |_| false);
        assert!(
            d.is_empty(),
            "kill {i} at {at:?}, then resolve again:\n{}",
            d.join("\n")
        );
        let _ = std::fs::remove_dir_all(&g);
        cut
    });
    eprintln!("resolve: {killed} of {n} runs killed; {left} temporary files left, removed by the run again");
}

/// `inbox` killed at any instant: run again, the folder is what one
/// uninterrupted run makes: each mail stored, answered and recorded once.
#[test]
fn inbox_killed_at_any_instant_is_completed_by_running_it_again() {
    let t = template();
    let spot = Spot::new("kill-inbox");
    let md = maildir(&spot.join("Maildir"));
    t.order_mail(&md, "1000.red", "red", &["W1 SE"], MAIL_DATE);
    t.order_mail(
        &md,
        "1001.red",
        "red",
        &["W3 NE 2"],
        "Sun, 22 Nov 2026 12:20:00 +0000",
    );
    t.order_mail(&md, "1002.blue", "blue", &["W1 NW"], MAIL_DATE);
    mail(
        &md,
        "1003.junk",
        "x@example.org",
        MAIL_DATE,
        "<j@x>",
        "hi\n",
    );
    let args = |g: &Path| -> Vec<String> {
        ["inbox", s(g), s(&md), "--now", LATER]
            .map(String::from)
            .to_vec()
    };
    let reference = t.copy(&spot.join("reference"));
    // The shortest of three uninterrupted runs: a run slowed by other
    // work on the machine would put every kill after the end.
    let span = (0..2).fold(timed(&args(&reference)), |m, k| {
        let fresh = t.copy(&spot.join(&format!("time{k}")));
        m.min(timed(&args(&fresh)))
    });
    let want = snapshot(&reference);
    // The narrowest window, made on purpose: cut after the last mail was
    // stored and answered, before it was recorded as read.
    let g = t.copy(&spot.join("cut"));
    ok(&args(&g).iter().map(String::as_str).collect::<Vec<_>>());
    let seen = std::fs::read_to_string(g.join("inbox/seen")).unwrap();
    let mut kept: Vec<&str> = seen.lines().collect();
    kept.pop();
    std::fs::write(g.join("inbox/seen"), format!("{}\n", kept.join("\n"))).unwrap();
    ok(&args(&g).iter().map(String::as_str).collect::<Vec<_>>());
    let d = differences(&want, &snapshot(&g), |_| false);
    assert!(d.is_empty(), "the last mail taken again:\n{}", d.join("\n"));
    let n = count("HERALD_KILLS", 24) / 2;
    let mut left = 0;
    let (killed, n) = kill_loop(span, n, |i, at| {
        let g = t.copy(&spot.join(&format!("k{i}")));
        let a = args(&g);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let cut = kill_after(&a, at);
        left += snapshot(&g).keys().filter(|p| leftover(p)).count();
        let out = ok(&a);
        assert!(out.contains("4 mails"), "{out}");
        let d = differences(&want, &snapshot(&g), |_| false);
        assert!(
            d.is_empty(),
            "kill {i} at {at:?}, then inbox again:\n{}",
            d.join("\n")
        );
        let _ = std::fs::remove_dir_all(&g);
        cut
    });
    eprintln!(
        "inbox: {killed} of {n} runs killed; {left} temporary files left, removed by the run again"
    );
}

/// `new` killed at any instant: either no game folder (and `new` again
/// makes it) or a whole one, which verifies; nothing else is left beside it.
#[test]
fn new_killed_at_any_instant_leaves_nothing_or_a_whole_game() {
    let t = template();
    let spot = Spot::new("kill-new");
    let args = |out: &Path| -> Vec<String> {
        [
            "new",
            "norse-wars",
            "--players",
            "red,blue",
            "--seed",
            "7",
            "--out",
            s(out),
            "--now",
            NEW,
            "--key",
            s(&t.key),
        ]
        .map(String::from)
        .to_vec()
    };
    let reference = spot.join("reference/game");
    // The shortest of three uninterrupted runs: a run slowed by other
    // work on the machine would put every kill after the end.
    let span = (0..2).fold(timed(&args(&reference)), |m, k| {
        let fresh = spot.join(&format!("time{k}/game"));
        m.min(timed(&args(&fresh)))
    });
    let want = crate::common::head(&reference);
    let n = count("HERALD_KILLS", 24) / 3;
    let mut behind = Vec::new();
    let mut swept = 0;
    let (killed, n) = kill_loop(span, n, |i, at| {
        let parent = spot.join(&format!("k{i}"));
        std::fs::create_dir_all(&parent).unwrap();
        let g = parent.join("game");
        let a = args(&g);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let cut = kill_after(&a, at);
        let building = |p: &Path| {
            std::fs::read_dir(p)
                .unwrap()
                .filter(|e| {
                    let name = e.as_ref().unwrap().file_name();
                    name.to_string_lossy().starts_with(".herald-new-")
                })
                .count()
        };
        swept += building(&parent);
        if g.exists() {
            verify_ok(&g);
            let (code, _, err) = herald(&a);
            assert_eq!(code, 2, "new onto the whole game is refused: {err}");
        } else {
            ok(&a);
        }
        verify_ok(&g);
        let head = crate::common::head(&g);
        for f in ["state", "key", "seed_commitment", "id", "deadline"] {
            assert_eq!(head[f], want[f], "kill {i}: {f}");
        }
        assert!(g.join("reports/turn-0000/done").exists());
        for e in std::fs::read_dir(&parent).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name != "game" {
                behind.push(format!("kill {i} at {at:?}: {name}"));
            }
        }
        cut
    });
    assert!(
        behind.is_empty(),
        "a killed `new` left these beside the game folder:\n{}",
        behind.join("\n")
    );
    eprintln!(
        "new: {killed} of {n} runs killed; {swept} half-built folders removed by the next `new`"
    );
}

/// A `new` killed between making its building folder and the lock in it
/// leaves an empty folder with no lock: the next `new` beside it removes
/// it (and leaves a non-empty folder of another name alone).
#[test]
fn new_sweeps_an_empty_building_folder_left_without_its_lock() {
    let t = template();
    let spot = Spot::new("sweep-empty");
    let parent = spot.join("p");
    std::fs::create_dir_all(parent.join(".herald-new-AbC123")).unwrap();
    std::fs::create_dir_all(parent.join(".keep-me")).unwrap();
    std::fs::write(parent.join(".keep-me/x"), "x").unwrap();
    let g = parent.join("game");
    ok(&[
        "new",
        "norse-wars",
        "--players",
        "red,blue",
        "--seed",
        "7",
        "--out",
        s(&g),
        "--now",
        NEW,
        "--key",
        s(&t.key),
    ]);
    let mut left: Vec<String> = std::fs::read_dir(&parent)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, [".keep-me", "game"]);
}

/// `passwd` killed at any instant: run again, the password in the secrets
/// file is the one the game accepts, and the game verifies.
#[test]
fn passwd_killed_at_any_instant_is_completed_by_running_it_again() {
    let t = template();
    let spot = Spot::new("kill-passwd");
    let args = |g: &Path| -> Vec<String> {
        ["passwd", s(g), "--player", "red", "--now", LATER]
            .map(String::from)
            .to_vec()
    };
    let reference = t.copy(&spot.join("reference"));
    // The shortest of three uninterrupted runs: a run slowed by other
    // work on the machine would put every kill after the end.
    let span = (0..2).fold(timed(&args(&reference)), |m, k| {
        let fresh = t.copy(&spot.join(&format!("time{k}")));
        m.min(timed(&args(&fresh)))
    });
    let n = count("HERALD_KILLS", 24) / 3;
    kill_loop(span, n, |i, at| {
        let g = t.copy(&spot.join(&format!("k{i}")));
        let a = args(&g);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let cut = kill_after(&a, at);
        let out = ok(&a);
        let left: Vec<PathBuf> = snapshot(&g).into_keys().filter(|p| leftover(p)).collect();
        assert!(left.is_empty(), "temporary files left: {left:?}");
        let pw = secrets_passwords(&g)["red"].clone();
        assert!(out.contains(&pw), "{out}");
        verify_ok(&g);
        let f = t.orders_with(&spot.join("o.toml"), "red", 0, &pw, &["W3 NE 2"]);
        ok(&["check", s(&g), s(&f)]);
        let f = t.orders(&spot.join("old.toml"), "red", 0, &["W3 NE 2"]);
        let (code, _, err) = herald(&["check", s(&g), s(&f)]);
        assert_eq!(code, 1, "the old password still works: {err}");
        // Killed after its commit, the run again is one more new password.
        let entries = lines(&g).len();
        assert!(
            entries == 3 || entries == 4,
            "head, genesis, passwd entries: {entries}"
        );
        let _ = std::fs::remove_dir_all(&g);
        cut
    });
}

/// `undo` killed at any instant: the game file is the old one or the new
/// one; once a writer has run again, the folder is what one uninterrupted
/// undo makes: the turn's reports in every form, none of the undone turn's.
#[test]
fn undo_killed_at_any_instant_is_completed_by_the_next_command() {
    let t = template();
    let spot = Spot::new("kill-undo");
    let o = t.orders(&spot.join("o.toml"), "red", 0, &["W3 NE 2"]);
    let resolved = t.copy(&spot.join("resolved"));
    ok(&["resolve", s(&resolved), s(&o), "--now", LATER]);
    let args =
        |g: &Path| -> Vec<String> { ["undo", s(g), "--now", LATER].map(String::from).to_vec() };
    let reference = spot.join("reference");
    copy_dir(&resolved, &reference);
    // The shortest of three uninterrupted runs: a run slowed by other
    // work on the machine would put every kill after the end.
    let span = (0..2).fold(timed(&args(&reference)), |m, k| {
        let fresh = {
            let c = spot.join(&format!("time{k}"));
            copy_dir(&resolved, &c);
            c
        };
        m.min(timed(&args(&fresh)))
    });
    let want = snapshot(&reference);
    assert_eq!(
        want[Path::new("game.jsonl")],
        std::fs::read(t.game.join("game.jsonl")).unwrap(),
        "undo gives back the file as it was before the resolve"
    );
    let old = std::fs::read(resolved.join("game.jsonl")).unwrap();
    // The undone file is kept under a new name each time: not compared.
    let archive = |p: &Path| p.starts_with("archive") && !leftover(p);
    let n = count("HERALD_KILLS", 24) / 3;
    kill_loop(span, n, |i, at| {
        let g = spot.join(&format!("k{i}"));
        copy_dir(&resolved, &g);
        let a = args(&g);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let cut = kill_after(&a, at);
        let now = std::fs::read(g.join("game.jsonl")).unwrap();
        if now == old {
            ok(&a);
        } else {
            assert_eq!(now, want[Path::new("game.jsonl")], "kill {i}: half an undo");
            // Undone already: a refused undo writes nothing; the next
            // command that goes on completes what the cut-short one left.
            let before = snapshot(&g);
            let (code, _, err) = herald(&a);
            assert_eq!(code, 1, "{err}");
            assert!(err.contains("nothing to undo"), "{err}");
            assert!(
                differences(&before, &snapshot(&g), |_| false).is_empty(),
                "a refused undo wrote"
            );
            ok(&["report", s(&g), "--rebuild", "--now", LATER]);
        }
        verify_ok(&g);
        let d = differences(&want, &snapshot(&g), archive);
        assert!(
            d.is_empty(),
            "kill {i} at {at:?}, then undo again:\n{}",
            d.join("\n")
        );
        let _ = std::fs::remove_dir_all(&g);
        cut
    });
}

// ---------------------------------------------------------------------------
// Secrets
// ---------------------------------------------------------------------------

/// Every file and folder in `dir`: (path, mode, is a folder).
fn modes(dir: &Path) -> Vec<(PathBuf, u32, bool)> {
    let mut out = vec![(
        dir.to_path_buf(),
        std::fs::metadata(dir).unwrap().permissions().mode() & 0o777,
        true,
    )];
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let m = std::fs::symlink_metadata(&p).unwrap();
        if m.is_dir() {
            out.extend(modes(&p));
        } else {
            out.push((p, m.permissions().mode() & 0o777, false));
        }
    }
    out
}

/// Secrets, the key and stored orders are 0600, folders 0700 (the
/// store creates every file 0600 and every folder 0700); no file but
/// secrets.toml holds any of `passwords`.
fn assert_sealed(game: &Path, passwords: &BTreeSet<String>, after: &str) {
    let mut wrong = Vec::new();
    for (p, mode, dir) in modes(game) {
        let want = if dir { 0o700 } else { 0o600 };
        if mode != want {
            wrong.push(format!("{} is {mode:o}, not {want:o}", p.display()));
        }
        if dir || p.file_name().unwrap() == "secrets.toml" {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for pw in passwords {
            if text.contains(pw.as_str()) {
                wrong.push(format!("{} holds the password {pw}", p.display()));
            }
        }
    }
    for must in ["secrets.toml", "moderator.key"] {
        assert!(game.join(must).exists(), "after {after}: no {must}");
    }
    assert!(wrong.is_empty(), "after {after}:\n{}", wrong.join("\n"));
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn secrets_stay_sealed_after_every_command() {
    let t = template();
    let spot = Spot::new("secrets");
    let g = spot.join("game");
    ok(&[
        "new",
        "norse-wars",
        "--players",
        "red,blue",
        "--seed",
        "11",
        "--out",
        s(&g),
        "--now",
        NEW,
        "--deadline-every",
        "1h",
        "--email",
        "red=red@example.org",
        "--email",
        "blue=blue@example.org",
        "--moderator",
        "gm@example.org",
    ]);
    let mut issued: BTreeSet<String> = secrets_passwords(&g).into_values().collect();
    assert_sealed(&g, &issued, "new");
    let id = crate::common::head(&g)["id"].as_str().unwrap().to_string();
    let pw = secrets_passwords(&g);
    let file = |player: &str, turn: u32, orders: &[&str]| {
        let list: Vec<String> = orders.iter().map(|o| o.to_string()).collect();
        herald::report::order_file(&id, player, turn, &pw[player], &list)
    };
    // inbox: red's orders, and a wrong password, by mail.
    let md = maildir(&spot.join("Maildir"));
    mail(
        &md,
        "1.red",
        "red@example.org",
        MAIL_DATE,
        "<1@r>",
        &file("red", 0, &["W3 NE 2"]),
    );
    mail(
        &md,
        "2.blue",
        "blue@example.org",
        MAIL_DATE,
        "<2@b>",
        &file("blue", 0, &["W1 NW"]).replace(&pw["blue"], "wrong-pass-word"),
    );
    let out = ok(&["inbox", s(&g), s(&md), "--now", "2026-11-22T12:20:00Z"]);
    assert!(out.contains("1 accepted"), "{out}");
    assert_sealed(&g, &issued, "inbox");
    let stored = std::fs::read_to_string(g.join("orders/turn-0000/red.json")).unwrap();
    assert!(stored.contains("W3 NE 2") && !stored.contains(&pw["red"]));
    // resolve the stored orders
    ok(&["resolve", s(&g), "--now", "2026-11-22T12:30:00Z"]);
    assert_sealed(&g, &issued, "resolve");
    // resolve with an order file named on the command line
    let f = spot.join("blue.toml");
    let first = first_legal(&g, "blue");
    let first: Vec<&str> = first.iter().map(String::as_str).collect();
    std::fs::write(&f, file("blue", 1, &first)).unwrap();
    ok(&["resolve", s(&g), s(&f), "--now", "2026-11-22T12:40:00Z"]);
    assert_sealed(&g, &issued, "resolve with a file");
    let out = ok(&["passwd", s(&g), "--player", "blue", "--now", LATER]);
    let new_pw = secrets_passwords(&g)["blue"].clone();
    assert!(out.contains(&new_pw));
    issued.insert(new_pw);
    assert_sealed(&g, &issued, "passwd");
    ok(&["deadline", s(&g), "+2h", "--now", LATER]);
    assert_sealed(&g, &issued, "deadline");
    ok(&["undo", s(&g), "--now", LATER]);
    assert_sealed(&g, &issued, "undo");
    ok(&["report", s(&g), "--rebuild"]);
    assert_sealed(&g, &issued, "report --rebuild");
    // keygen: the key alone, 0600.
    let key = spot.join("host.key");
    ok(&["keygen", "--out", s(&key)]);
    let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "keygen");
    // demo: the game folder it plays into.
    let demo = spot.join("demo");
    ok(&[
        "demo",
        "hexwar",
        "--out",
        s(&demo),
        "--seed",
        "3",
        "--max-turns",
        "3",
        "--now",
        NEW,
    ]);
    let demo_pw: BTreeSet<String> = secrets_passwords(&demo.join("game"))
        .into_values()
        .collect();
    assert_sealed(&demo.join("game"), &demo_pw, "demo");
    // convert: a herald 0.1 game with a stored order holding its password.
    let conv = spot.join("converted");
    ok(&[
        "convert",
        s(&fixtures().join("mail/game.json")),
        "--out",
        s(&conv),
        "--now",
        LATER,
    ]);
    let conv_pw: BTreeSet<String> = secrets_passwords(&conv).into_values().collect();
    assert!(!conv_pw.is_empty());
    assert_sealed(&conv, &conv_pw, "convert");
    let _ = t;
}

/// The first legal set of orders of `player` in the game now.
pub fn first_legal(game: &Path, player: &str) -> Vec<String> {
    let (_, g) = herald::pipeline::open(game).unwrap();
    let seat = g.head().player_index(player).unwrap();
    g.rules.legal_orders(&g.state, seat).swap_remove(0)
}

// ---------------------------------------------------------------------------
// Paths and hostile files
// ---------------------------------------------------------------------------

#[test]
fn new_onto_anything_but_a_missing_or_empty_folder_is_refused() {
    let t = template();
    let spot = Spot::new("new-out");
    let args = |out: &Path| {
        herald(&[
            "new",
            "norse-wars",
            "--players",
            "red,blue",
            "--out",
            s(out),
            "--now",
            NEW,
        ])
    };
    // another game's folder
    let other = t.copy(&spot.join("other"));
    let before = snapshot(&other);
    let (code, _, err) = args(&other);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not an empty folder"), "{err}");
    assert_eq!(before, snapshot(&other));
    // a folder holding one file
    let busy = spot.join("busy");
    std::fs::create_dir(&busy).unwrap();
    std::fs::write(busy.join("notes.txt"), "mine").unwrap();
    assert_eq!(args(&busy).0, 2);
    assert_eq!(std::fs::read(busy.join("notes.txt")).unwrap(), b"mine");
    assert_eq!(std::fs::read_dir(&busy).unwrap().count(), 1);
    // a FIFO, a symlink to an empty folder, a regular file
    let fifo = spot.join("fifo");
    mkfifo(&fifo);
    assert_eq!(args(&fifo).0, 2);
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    let empty = spot.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let link = spot.join("link");
    std::os::unix::fs::symlink(&empty, &link).unwrap();
    assert_eq!(args(&link).0, 2);
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);
    let file = spot.join("file");
    std::fs::write(&file, "x").unwrap();
    assert_eq!(args(&file).0, 2);
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
    // nothing else appeared beside them
    let names: BTreeSet<String> = std::fs::read_dir(&spot.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let want: BTreeSet<String> = ["other", "busy", "fifo", "empty", "link", "file"]
        .map(String::from)
        .into();
    assert_eq!(names, want);
}

pub fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().unwrap();
    assert!(st.success());
}

/// Run herald, killing it if it has not finished within `limit`: its
/// exit code, stderr, and whether it had to be killed.
fn bounded(args: &[&str], limit: Duration) -> (i32, String, bool) {
    let mut c = spawn(args);
    let start = Instant::now();
    while start.elapsed() < limit {
        if c.try_wait().unwrap().is_some() {
            let (code, _, err) = finish(c);
            return (code, err, false);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    c.kill().unwrap();
    let (code, _, err) = finish(c);
    (code, err, true)
}

/// A FIFO at the game file's place is refused, not opened and waited on;
/// a symlink there is read, and replaced by the new file, never written
/// through (its target outside the folder stays as it was); symlinks
/// planted at the names of the commit's temporary link are not followed.
#[test]
fn planted_fifos_and_symlinks_are_not_followed() {
    let t = template();
    let spot = Spot::new("planted");
    let o = t.orders(&spot.join("o.toml"), "red", 0, &["W3 NE 2"]);
    // A FIFO as game.jsonl.
    let g = t.copy(&spot.join("fifo-game"));
    std::fs::remove_file(g.join("game.jsonl")).unwrap();
    mkfifo(&g.join("game.jsonl"));
    let file = g.join("game.jsonl");
    let fifo_orders = spot.join("fifo.toml");
    mkfifo(&fifo_orders);
    for args in [
        vec!["status", s(&g)],
        vec!["status", s(&file)],
        vec!["resolve", s(&file), s(&o), "--now", LATER],
        vec!["verify", s(&file)],
        vec!["check", s(&file), s(&o)],
        vec!["check", s(&t.game), s(&fifo_orders)],
    ] {
        let (code, err, hung) = bounded(&args, Duration::from_secs(5));
        assert!(!hung, "{args:?} waited on a FIFO");
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("not a regular file") || err.contains("has no game.jsonl"),
            "{args:?}: {err}"
        );
    }
    assert!(std::fs::symlink_metadata(g.join("game.jsonl"))
        .unwrap()
        .file_type()
        .is_fifo());
    // A symlink as game.jsonl, to a copy outside the folder.
    let g = t.copy(&spot.join("link-game"));
    let outside = spot.join("outside.jsonl");
    std::fs::rename(g.join("game.jsonl"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, g.join("game.jsonl")).unwrap();
    let before = std::fs::read(&outside).unwrap();
    // Symlinks at the temporary names of the commit's link to the old file
    // (`.previous-<pid>`), for the next pids, to a file outside.
    std::fs::create_dir_all(g.join("archive")).unwrap();
    let target = spot.join("target");
    std::fs::write(&target, "untouched").unwrap();
    let last: u32 = std::fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    for pid in last + 1..last + 200 {
        let _ = std::os::unix::fs::symlink(&target, g.join(format!("archive/.previous-{pid}")));
    }
    ok(&["resolve", s(&g), s(&o), "--now", LATER]);
    assert_eq!(
        std::fs::read(&outside).unwrap(),
        before,
        "written through the symlink"
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"untouched");
    assert!(std::fs::symlink_metadata(g.join("game.jsonl"))
        .unwrap()
        .file_type()
        .is_file());
    verify_ok(&g);
    // --out of a report onto a FIFO or a symlink: refused, left as it was.
    let fifo = spot.join("report-fifo");
    mkfifo(&fifo);
    let link = spot.join("report-link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    for out in [&fifo, &link] {
        let (code, err, hung) = bounded(
            &["report", s(&g), "--player", "red", "--out", s(out)],
            Duration::from_secs(5),
        );
        assert!(!hung && code == 1, "{err}");
    }
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert_eq!(std::fs::read(&target).unwrap(), b"untouched");
}

/// A game file edited (and hashed and sealed again with the game's own
/// key) to hold a player id that is a path: every command refuses it
/// before building any path, naming the id.
#[test]
fn a_player_id_that_is_a_path_is_refused_by_every_command() {
    let t = template();
    let spot = Spot::new("path-id");
    let g = t.copy(&spot.join("game"));
    let mut l = lines(&g);
    let rename = |v: &mut Value| {
        let text = serde_json::to_string(v).unwrap();
        *v = serde_json::from_str(&text.replace("\"blue\"", "\"../x\"")).unwrap();
    };
    rename(&mut l[0]["head"]);
    rename(&mut l[1]["body"]["players"]);
    crate::common::rehash(&mut l);
    crate::common::reseal(&g, &mut l);
    crate::common::write_lines(&g, &l);
    let o = t.orders(&spot.join("o.toml"), "red", 0, &["W3 NE 2"]);
    let md = maildir(&spot.join("Maildir"));
    t.order_mail(&md, "1.red", "red", &["W3 NE 2"], MAIL_DATE);
    let before = snapshot(&spot.0);
    let gs = s(&g);
    let export = spot.join("export");
    for args in [
        vec!["status", gs],
        vec!["check", gs, s(&o)],
        vec!["verify", gs],
        vec!["resolve", gs, s(&o), "--now", LATER],
        vec!["resolve", gs, "--now", LATER],
        vec!["report", gs, "--player", "red"],
        vec!["report", gs, "--player", "../x"],
        vec!["report", gs, "--rebuild"],
        vec!["inbox", gs, s(&md), "--now", LATER],
        vec!["passwd", gs, "--player", "../x", "--now", LATER],
        vec!["deadline", gs, "none", "--now", LATER],
        vec!["undo", gs, "--now", LATER],
        vec!["export", gs, "--player", "../x", "--out", s(&export)],
        vec!["orders", gs, "--player", "red"],
    ] {
        let (code, out, err) = herald(&args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(
            err.contains("player id `../x` is not a valid name"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"));
    }
    assert_eq!(before, snapshot(&spot.0), "a command wrote something");
}

// ---------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------

/// A 1 MB order file (a wrong password, and a huge list of empty orders)
/// is refused at once, naming the limit; one just under the limit, the
/// longest a reader parses, is refused as fast. A regression guard against
/// quadratic parsing, not a benchmark: the bound is generous.
#[test]
fn huge_order_files_are_refused_fast_naming_the_limit() {
    let t = template();
    let spot = Spot::new("huge");
    let g = t.copy(&spot.join("game"));
    let head = format!(
        "game = \"{}\"\nplayer = \"red\"\nturn = 0\npassword = \"wrong\"\norders = [\n",
        t.id
    );
    let fill = |limit: usize| {
        let mut s = head.clone();
        while s.len() + 10 < limit {
            s.push_str("  \"\",\n");
        }
        s.push_str("]\n");
        s
    };
    let big = spot.join("big.toml");
    std::fs::write(&big, fill(1024 * 1024)).unwrap();
    let under = spot.join("under.toml");
    std::fs::write(&under, fill(herald::orders::MAX_BYTES)).unwrap();
    assert!(std::fs::metadata(&under).unwrap().len() <= herald::orders::MAX_BYTES as u64);
    let before = snapshot(&g);
    for cmd in ["resolve", "check"] {
        let started = Instant::now();
        let (code, _, err) =
            herald(&[cmd, s(&g), s(&big), "--now", LATER][..if cmd == "check" { 3 } else { 5 }]);
        let took = started.elapsed();
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("big.toml") && err.contains("64 KiB"), "{err}");
        assert!(took < Duration::from_secs(2), "{cmd} of 1 MB took {took:?}");
        let started = Instant::now();
        let (code, _, err) =
            herald(&[cmd, s(&g), s(&under), "--now", LATER][..if cmd == "check" { 3 } else { 5 }]);
        let took = started.elapsed();
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("under.toml") && err.contains(&herald::orders::MAX_ORDERS.to_string()),
            "the count limit is named: {err}"
        );
        assert!(
            took < Duration::from_secs(2),
            "{cmd} of 64 KiB took {took:?}"
        );
    }
    assert_eq!(before, snapshot(&g));
}

/// 1,000 bad mails: `inbox` answers each; killed part way, a second run
/// does not answer again what the first finished, and in the end every
/// mail is answered and recorded exactly once.
#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn a_thousand_bad_mails_are_handled_once_across_a_kill() {
    let t = template();
    let spot = Spot::new("thousand");
    let g = t.copy(&spot.join("game"));
    let md = maildir(&spot.join("Maildir"));
    let n = 1000;
    let envelope = |game: &str, player: &str, pw: &str| {
        format!("game = \"{game}\"\nplayer = \"{player}\"\nturn = 0\npassword = \"{pw}\"\norders = [\"W3 NE 2\"]\n")
    };
    for i in 0..n {
        // Every kind of bad mail; one in fifty guesses red's password,
        // which costs an Argon2id check each (about 60 ms here).
        let body = match i % 5 {
            _ if i % 50 == 0 => envelope(&t.id, "red", &format!("guess-{i}")),
            0 => format!("buy cheap things {i}\n"),
            1 => envelope(&format!("other-game-{i}"), "red", "x"),
            2 => envelope(&t.id, &format!("mallory{i}"), "x"),
            3 => format!("game = \"{}\"\nplayer = red\nturn = {i}\n", t.id),
            _ => format!("{}\n", "x".repeat(i)),
        };
        mail(
            &md,
            &format!("{:05}.m", i),
            &format!("x{i}@example.org"),
            MAIL_DATE,
            "<same@example.org>",
            &body,
        );
    }
    let seen = g.join("inbox/seen");
    let lines_in = |p: &Path| {
        std::fs::read_to_string(p)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    let mut c = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["inbox", s(&g), s(&md), "--now", LATER])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed once it has answered some, or after 0.3 s at the latest.
    let start = Instant::now();
    while lines_in(&seen) < 20 && start.elapsed() < Duration::from_millis(300) {
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = c.kill();
    let st = c.wait().unwrap();
    assert!(
        st.code().is_none(),
        "the first run finished before the kill"
    );
    let done = lines_in(&seen);
    assert!(done < n, "all {done} mails done before the kill");
    let replies_before = reply_texts(&g).len();
    // A reply written but not yet recorded is written again (same name).
    assert!(replies_before == done || replies_before == done + 1);
    let started = Instant::now();
    let out = ok(&["inbox", s(&g), s(&md), "--now", LATER]);
    let took = started.elapsed();
    assert!(
        out.contains(&format!(
            "{n} mails: 0 accepted, {} refused, {done} already read",
            n - done
        )),
        "{}",
        out.lines().last().unwrap()
    );
    let left: Vec<PathBuf> = snapshot(&g).into_keys().filter(|p| leftover(p)).collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    let all = std::fs::read_to_string(&seen).unwrap();
    let unique: BTreeSet<&str> = all.lines().collect();
    assert_eq!((all.lines().count(), unique.len()), (n, n));
    assert_eq!(reply_texts(&g).len(), n);
    // And a third run has nothing to do.
    let out = ok(&["inbox", s(&g), s(&md), "--now", LATER]);
    assert!(
        out.contains(&format!("0 refused, {n} already read")),
        "{out}"
    );
    eprintln!("1000 bad mails: {done} before the kill, the rest in {took:?}");
}

// ---------------------------------------------------------------------------
// Format 1
// ---------------------------------------------------------------------------

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format1")
}

/// Every game folder herald 0.1 wrote verifies as it is, converts, and the
/// converted folder verifies and plays on; a stored order's password does
/// not survive the conversion anywhere but in the secrets file.
#[test]
fn format_1_fixtures_verify_convert_and_play_on() {
    let spot = Spot::new("format1");
    let mut names: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("game.json").exists())
        .collect();
    names.sort();
    assert!(names.len() >= 7, "{names:?}");
    let before = snapshot(&fixtures());
    for dir in &names {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let old = dir.join("game.json");
        let out = ok(&["verify", s(&old)]);
        assert!(out.contains("format 1"), "{name}: {out}");
        let new = spot.join(&name);
        ok(&["convert", s(&old), "--out", s(&new), "--now", LATER]);
        verify_ok(&new);
        let (_, g) = herald::pipeline::open(&new).unwrap();
        if g.head().outcome.is_some() {
            assert_eq!(name, "finished");
            continue;
        }
        let turn = g.head().turn;
        let stored = new.join(format!("orders/turn-{turn:04}"));
        let out = if stored.exists() {
            ok(&["resolve", s(&new), "--now", "2026-12-31T00:00:00Z"])
        } else {
            let pw = secrets_passwords(&new);
            let mut files = Vec::new();
            for seat in g.rules.awaiting(&g.state) {
                let id = &g.head().players[seat].id;
                let orders = g.rules.legal_orders(&g.state, seat).swap_remove(0);
                let text = herald::report::order_file(&g.head().id, id, turn, &pw[id], &orders);
                let f = spot.join(&format!("{name}-{id}.toml"));
                std::fs::write(&f, text).unwrap();
                files.push(f);
            }
            let mut args = vec!["resolve", s(&new)];
            args.extend(files.iter().map(|f| s(f)));
            args.extend(["--now", "2026-12-31T00:00:00Z"]);
            ok(&args)
        };
        assert!(
            out.contains(&format!("resolved turn {turn}")),
            "{name}: {out}"
        );
        verify_ok(&new);
    }
    // The mail fixture's waiting order held red's password in plain text.
    let red = "j2fa-zwzx-8zg2";
    let old =
        std::fs::read_to_string(fixtures().join("mail/game.orders/turn-0000/red.toml")).unwrap();
    assert!(
        old.contains(red),
        "the fixture's stored order holds the password"
    );
    let mut found = Vec::new();
    for (p, bytes) in snapshot(&spot.join("mail")) {
        if p != Path::new("secrets.toml") && String::from_utf8_lossy(&bytes).contains(red) {
            found.push(p.display().to_string());
        }
    }
    assert!(found.is_empty(), "red's password survives in {found:?}");
    assert_eq!(before, snapshot(&fixtures()), "the fixtures were changed");
}

/// Orders `inbox` accepted (and gave a receipt for) still count when the
/// moderator resolves with order files of the other players: they are not
/// replaced by the missed-order policy and thrown away.
#[test]
fn stored_orders_count_when_resolve_is_given_the_other_players_files() {
    let spot = Spot::new("stored-and-given");
    let g = spot.join("game");
    ok(&[
        "new",
        "unfought-battle",
        "--players",
        "north,south",
        "--seed",
        "5",
        "--out",
        s(&g),
        "--now",
        NEW,
        "--deadline",
        DEADLINE,
    ]);
    let pw = secrets_passwords(&g);
    let id = crate::common::head(&g)["id"].as_str().unwrap().to_string();
    let (north, south) = (first_legal(&g, "north"), first_legal(&g, "south"));
    let md = maildir(&spot.join("Maildir"));
    mail(
        &md,
        "1.south",
        "south@example.org",
        MAIL_DATE,
        "<1@s>",
        &herald::report::order_file(&id, "south", 0, &pw["south"], &south),
    );
    let out = ok(&["inbox", s(&g), s(&md), "--now", "2026-11-22T12:15:00Z"]);
    assert!(out.contains("accepted, orders of south"), "{out}");
    let f = spot.join("north.toml");
    std::fs::write(
        &f,
        herald::report::order_file(&id, "north", 0, &pw["north"], &north),
    )
    .unwrap();
    // Before the deadline: south's stored orders complete the turn.
    let early = spot.join("early");
    copy_dir(&g, &early);
    ok(&["resolve", s(&early), s(&f), "--now", "2026-11-22T12:20:00Z"]);
    // After it: the same, not a stand-in.
    ok(&["resolve", s(&g), s(&f), "--now", LATER]);
    for game in [&early, &g] {
        let log = phases(game);
        assert_eq!(recorded(&log[0], "north"), Some((north.clone(), false)));
        assert_eq!(
            recorded(&log[0], "south"),
            Some((south.clone(), false)),
            "south's accepted orders were replaced"
        );
        verify_ok(game);
    }
}

/// The per-run limit on mails counts new mails only: a Maildir that has
/// collected more mails than one run takes, all read before, still has its
/// new mail read (herald leaves read mail where it is).
#[test]
fn mail_read_before_does_not_count_against_the_limit_of_a_run() {
    let t = template();
    let spot = Spot::new("mail-limit");
    let g = t.copy(&spot.join("game"));
    let md = maildir(&spot.join("Maildir"));
    let limit = herald::store::limits::MAILS_PER_RUN;
    let mut seen = String::new();
    for i in 0..limit {
        let name = format!("{i:06}.old");
        mail(
            &md,
            &name,
            "x@example.org",
            MAIL_DATE,
            "<old@x>",
            &format!("old {i}\n"),
        );
        let bytes = std::fs::read(md.join("new").join(&name)).unwrap();
        seen.push_str(&herald::chain::canon::sha256_hex(&bytes));
        seen.push('\n');
    }
    std::fs::create_dir_all(g.join("inbox")).unwrap();
    std::fs::write(g.join("inbox/seen"), seen).unwrap();
    t.order_mail(&md, "999999.red", "red", &["W3 NE 2"], MAIL_DATE);
    let out = ok(&["inbox", s(&g), s(&md), "--now", LATER]);
    assert!(
        out.contains("999999.red from red@example.org: accepted"),
        "{}",
        out.lines().last().unwrap()
    );
    assert!(g.join("orders/turn-0000/red.json").exists());
}

/// A password changed after the last phase survives an undo of that
/// phase: the secrets file holds the new password, and it still works.
#[test]
fn undo_keeps_a_password_changed_after_the_phase() {
    let t = template();
    let spot = Spot::new("undo-passwd");
    let g = t.copy(&spot.join("game"));
    let red = t.orders(&spot.join("red.toml"), "red", 0, &["W3 NE 2"]);
    ok(&["resolve", s(&g), s(&red), "--now", LATER]);
    ok(&["passwd", s(&g), "--player", "blue", "--now", LATER]);
    let pw = secrets_passwords(&g)["blue"].clone();
    assert_ne!(pw, t.passwords["blue"]);
    ok(&["undo", s(&g), "--now", LATER]);
    verify_ok(&g);
    ok(&["resolve", s(&g), s(&red), "--now", LATER]);
    let blue = first_legal(&g, "blue");
    let blue: Vec<&str> = blue.iter().map(String::as_str).collect();
    let f = t.orders_with(&spot.join("blue.toml"), "blue", 1, &pw, &blue);
    ok(&["resolve", s(&g), s(&f), "--now", LATER]);
    let old = t.orders(&spot.join("old.toml"), "blue", 1, &blue);
    let (code, _, err) = herald(&["check", s(&g), s(&old)]);
    assert_eq!(code, 1);
    assert!(err.contains("wrong password for blue"), "{err}");
    verify_ok(&g);
}

/// Source files that may build paths inside a game folder: the layout of
/// the game folder, and that of herald 0.1's files beside a game file.
/// The host folder's layout (src/host/layout.rs) is scanned like the rest:
/// it reaches a game's folder only through `GameDir`, and its own names
/// that share words with a game folder's (its `state/seen`) are constants
/// of its own.
const LAYOUT_MODULES: [&str; 2] = ["src/store/layout.rs", "src/store/v1.rs"];

/// The calls that make or open a path.
const PATH_CALLS: [&str; 10] = [
    ".join(",
    ".push(",
    "Path::new(",
    "PathBuf::from(",
    ".with_file_name(",
    ".with_extension(",
    "File::open(",
    "File::create(",
    "read_dir(",
    "create_dir",
];

/// Why a line of source, outside the layout modules, builds a path inside
/// a game folder: a name of the folder's layout (`"outbox"`, `"lock"`, a
/// turn folder `"turn-…"`) in a call that makes or opens a path, or one of
/// its file names (`"game.jsonl"`) anywhere in code.
fn builds_game_path(line: &str) -> Option<String> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return None;
    }
    let names = herald::store::layout::NAMES;
    let literal = |n: &str| code.contains(&format!("\"{n}\""));
    if let Some(n) = names.iter().find(|n| n.contains('.') && literal(n)) {
        return Some(format!("names the file \"{n}\""));
    }
    if !PATH_CALLS.iter().any(|c| code.contains(c)) {
        return None;
    }
    if let Some(n) = names.iter().find(|n| literal(n)) {
        return Some(format!("joins \"{n}\""));
    }
    // A turn folder's name is `turn-NNNN` and nothing more (a file named
    // `turn-0003-red.toml` elsewhere is not one).
    let turn_folder = code.match_indices("\"turn-{").any(|(at, _)| {
        let rest = &code[at + 7..];
        rest.find('}')
            .is_some_and(|end| rest[end + 1..].starts_with('"'))
    });
    turn_folder.then(|| "joins a turn folder \"turn-NNNN\"".to_string())
}

#[test]
fn only_the_layout_modules_build_paths_inside_a_game() {
    // The scan finds what it looks for, and passes what it must.
    for bad in [
        "let p = folder.join(\"outbox\");",
        "std::fs::File::open(dir.join(\"game.jsonl\"))",
        "const F: &str = \"secrets.toml\";",
        "root.join(\"orders\").join(format!(\"turn-{t:04}\"))",
        "reports.join(format!(\"turn-{:04}\", t))",
    ] {
        assert!(builds_game_path(bad).is_some(), "missed: {bad}");
    }
    for fine in [
        "let p = dir.outbox();",
        "// the game's \"outbox\" folder: dir.join(\"outbox\")",
        "problems.push(format!(\"`orders` is missing\"));",
        "\"{}: not a herald game folder (it has no game.jsonl)\"",
        "let p = sent.join(format!(\"turn-{:04}-{id}.toml\", head.turn));",
    ] {
        assert_eq!(builds_game_path(fine), None, "{fine}");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut dirs = vec![root.join("src")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() > 100, "the sources were found: {}", files.len());
    let mut found = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        if LAYOUT_MODULES.contains(&rel.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let Some(why) = builds_game_path(line) else {
                continue;
            };
            found.push(format!("{rel}:{}: {why}: {}", i + 1, line.trim()));
        }
    }
    assert!(
        found.is_empty(),
        "paths inside a game folder are built only by {LAYOUT_MODULES:?}; use store::layout::GameDir:\n{}",
        found.join("\n")
    );
}

/// Eight `herald new` at once into one parent folder, three times over:
/// each sweeps the others' building folders for killed builds, and none
/// takes another's folder while it is being made (a sweep could take a
/// lock file between its making and its locking, and remove the folder
/// under the build). Every game is made and verifies; no building folder
/// is left.
#[test]
fn news_side_by_side_in_one_folder_each_make_their_game() {
    let t = template();
    let spot = Spot::new("news-side-by-side");
    let parent = spot.join("p");
    std::fs::create_dir_all(&parent).unwrap();
    for round in 0..3 {
        let kids: Vec<(std::path::PathBuf, std::process::Child)> = (0..8)
            .map(|i| {
                let g = parent.join(format!("g{round}-{i}"));
                let child = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
                    .args([
                        "new",
                        "norse-wars",
                        "--players",
                        "red,blue",
                        "--seed",
                        "7",
                        "--out",
                        s(&g),
                        "--now",
                        NEW,
                        "--key",
                        s(&t.key),
                        "--light-passwords",
                    ])
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap();
                (g, child)
            })
            .collect();
        for (g, child) in kids {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                g.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            ok(&["verify", s(&g)]);
        }
    }
    let left: Vec<String> = std::fs::read_dir(&parent)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
