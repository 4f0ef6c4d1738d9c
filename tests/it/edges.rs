//! The edges of the store's promise (issue 31): a full disk at every fill
//! level on a small file system the test makes (tmpfs in a mount
//! namespace), a wrong password that never exits 0, a refused command
//! that writes nothing (reports included), a FIFO or device given as a
//! mailbox.

use crate::common::herald;
use crate::store::{copy_dir, first_legal, ok, s, snapshot, template, Spot, LATER, NEW};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The order files of every player the template game awaits now, each
/// with its password, written into `at`.
fn awaited_files(game: &Path, at: &Path) -> Vec<PathBuf> {
    let t = template();
    let (_, g) = herald::pipeline::open(game).unwrap();
    let head = g.head().clone();
    g.rules
        .awaiting(&g.state)
        .into_iter()
        .map(|seat| {
            let p = &head.players[seat].id;
            let orders = first_legal(game, p);
            let list: Vec<&str> = orders.iter().map(String::as_str).collect();
            t.orders(&at.join(format!("{p}.toml")), p, head.turn, &list)
        })
        .collect()
}

/// The files of a folder but the lock (its pid) and the link to the
/// game file kept before a commit (the same bytes).
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut m = snapshot(dir);
    m.retain(|p, _| {
        !p.ends_with("lock") && !p.ends_with("archive/previous.jsonl") && !p.starts_with("archive")
    });
    m
}

/// A resolve whose every order file has the password wrong is refused
/// (exit 1), also when its text is exactly the orders the last phase
/// recorded (which a re-run after a crash would answer "resolved
/// already"): a wrong password never exits 0.
#[test]
fn a_wrong_password_never_exits_0() {
    let t = template();
    let spot = Spot::new("wrong-pw");
    let game = t.copy(&spot.join("game"));
    let right = awaited_files(&game, &spot.0);
    let mut args = vec!["resolve", s(&game)];
    args.extend(right.iter().map(|p| s(p)));
    args.extend(["--now", LATER]);
    ok(&args);
    // The same text, the password changed: the recorded orders' hash does
    // not cover the password, so only checking it tells them apart.
    let wrong: Vec<PathBuf> = right
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let player = p.file_stem().unwrap().to_str().unwrap();
            let bad = text.replace(&t.passwords[player], "aaaa-bbbb-cccc");
            let q = p.with_extension("wrong");
            std::fs::write(&q, bad).unwrap();
            q
        })
        .collect();
    let before = files(&game);
    let mut args = vec!["resolve", s(&game)];
    args.extend(wrong.iter().map(|p| s(p)));
    args.extend(["--now", LATER]);
    let (code, o, e) = herald(&args);
    assert_eq!(code, 1, "{o}{e}");
    assert!(e.contains("wrong password") || e.contains("stale"), "{e}");
    assert_eq!(files(&game), before, "nothing written");
    // The right ones: resolved already, exit 0.
    let mut args = vec!["resolve", s(&game)];
    args.extend(right.iter().map(|p| s(p)));
    args.extend(["--now", LATER]);
    assert!(ok(&args).contains("resolved already"));
}

/// A command refused after the game file was re-signed by its key (an
/// edit only `verify` can name, so the game opens) writes nothing: not
/// the turn's reports either, although their `done` names another chain
/// head. And one refused for its own input after a crash left reports
/// undone writes nothing: the next accepted command completes them.
#[test]
fn a_refused_command_writes_nothing_reports_included() {
    let t = template();
    let spot = Spot::new("refused-writes");
    let game = t.copy(&spot.join("game"));
    // A crash after a commit: the turn's reports and their `done` gone.
    let right = awaited_files(&game, &spot.0);
    let mut args = vec!["resolve", s(&game)];
    args.extend(right.iter().map(|p| s(p)));
    args.extend(["--now", LATER]);
    ok(&args);
    let turn = crate::common::head(&game)["turn"].as_u64().unwrap();
    let reports = game.join(format!("reports/turn-{turn:04}"));
    std::fs::remove_dir_all(&reports).unwrap();
    let before = files(&game);
    // Refused: a file for a player who is not one.
    let bad = spot.join("bad.toml");
    t.orders_with(&bad, "mallory", turn as u32, "x", &["hold"]);
    let (code, o, e) = herald(&["resolve", s(&game), s(&bad), "--now", LATER]);
    assert_eq!(code, 1, "{o}{e}");
    assert_eq!(files(&game), before, "a refused resolve wrote something");
    for args in [
        vec!["deadline", s(&game), "not-a-time", "--now", LATER],
        vec!["passwd", s(&game), "--player", "mallory", "--now", LATER],
    ] {
        let (code, o, e) = herald(&args);
        assert_ne!(code, 0, "{args:?}: {o}{e}");
        assert_eq!(files(&game), before, "{args:?} wrote something");
    }
    // The next command that goes on completes the reports (and their mails).
    ok(&["deadline", s(&game), "+48h", "--now", LATER]);
    assert!(reports.join("done").exists());
}

/// `herald inbox` given a FIFO or a device as its mbox refuses it at once
/// (exit 2) instead of blocking on it.
#[test]
fn a_fifo_or_a_device_as_a_mailbox_is_refused() {
    let t = template();
    let spot = Spot::new("fifo-mbox");
    let game = t.copy(&spot.join("game"));
    let fifo = spot.join("fifo");
    crate::store::mkfifo(&fifo);
    for mbox in [fifo.as_path(), Path::new("/dev/zero")] {
        let mut c = Command::new(env!("CARGO_BIN_EXE_herald"))
            .args(["inbox", s(&game), s(mbox), "--now", LATER])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while c.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(10) {
                let _ = c.kill();
                panic!("inbox blocked on {}", mbox.display());
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let out = c.wait_with_output().unwrap();
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{e}");
        assert!(e.contains("not a regular file"), "{e}");
    }
}

/// Runs a shell script in a mount namespace of its own where `mnt` is a
/// fresh tmpfs of `size` bytes (a small disk that fills up), as root or
/// in a user namespace mapped to root. Fails loudly where neither works.
fn on_small_disk(mnt: &Path, size: u64, script: &str) -> String {
    std::fs::create_dir_all(mnt).unwrap();
    // SAFETY: getuid cannot fail.
    let root = unsafe { libc::getuid() } == 0;
    let mut c = Command::new("unshare");
    if !root {
        c.arg("-r");
    }
    let full = format!(
        "set -u\nmount -t tmpfs -o size={size},mode=0700 tmpfs {m} || exit 97\n{script}",
        m = mnt.display()
    );
    let out = c
        .args(["-m", "--propagation", "private", "sh", "-c", &full])
        .output()
        .expect("unshare (util-linux) runs: the full-disk tests need a mount namespace");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "the small-disk script failed ({:?}); mounting a tmpfs needs root or user namespaces:\n{err}",
        out.status
    );
    err
}

/// How one fill level went.
#[derive(Debug)]
struct Level {
    free: u64,
    code: i32,
    err: String,
    /// The folder right after the command.
    after: PathBuf,
    /// After space was freed and the next command ran.
    fixed: PathBuf,
    fix_code: i32,
    fix_err: String,
}

/// Run `cmd` (its `{game}` the game on the small disk) at each of `free`
/// bytes left, then free the space and run `fix` (the next command); each
/// level's folder kept under `out`.
fn fill_levels(spot: &Spot, game: &Path, cmd: &str, fix: &str, levels: &[u64]) -> Vec<Level> {
    let mnt = spot.join("mnt");
    let out = spot.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let exe = env!("CARGO_BIN_EXE_herald");
    let size = crate::store::snapshot(game)
        .values()
        .map(|v| v.len() as u64 + 4096)
        .sum::<u64>()
        + levels.iter().max().unwrap()
        + 4 * 1024 * 1024;
    let mut script = String::new();
    for free in levels {
        let g = mnt.join("game");
        script.push_str(&format!(
            "rm -rf {m}/* {m}/.[!.]*; cp -a {src} {g}\n\
             avail=$(( $(stat -f -c '%a*%S' {m}) ))\n\
             fill=$(( avail - {free} ))\n\
             [ $fill -gt 0 ] && head -c $fill /dev/zero > {m}/fill 2>/dev/null\n\
             {cmd} > {o}/{free}.out 2> {o}/{free}.err; echo $? > {o}/{free}.code\n\
             cp -a {g} {o}/{free}.after\n\
             rm -f {m}/fill\n\
             {fix} > {o}/{free}.fix.out 2> {o}/{free}.fix.err; echo $? > {o}/{free}.fix.code\n\
             cp -a {g} {o}/{free}.fixed\n",
            m = mnt.display(),
            src = game.display(),
            g = g.display(),
            o = out.display(),
            cmd = cmd
                .replace("{game}", &g.display().to_string())
                .replace("{herald}", exe),
            fix = fix
                .replace("{game}", &g.display().to_string())
                .replace("{herald}", exe),
        ));
    }
    on_small_disk(&mnt, size, &script);
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap_or_default();
    levels
        .iter()
        .map(|free| Level {
            free: *free,
            code: read(out.join(format!("{free}.code")))
                .trim()
                .parse()
                .unwrap_or(-1),
            err: read(out.join(format!("{free}.err"))),
            after: out.join(format!("{free}.after")),
            fixed: out.join(format!("{free}.fixed")),
            fix_code: read(out.join(format!("{free}.fix.code")))
                .trim()
                .parse()
                .unwrap_or(-1),
            fix_err: read(out.join(format!("{free}.fix.err"))),
        })
        .collect()
}

/// Bytes a command adds to a game folder (rounded up to pages, as tmpfs
/// counts them).
fn grows(before: &Path, after: &Path) -> u64 {
    let pages = |d: &Path| {
        snapshot(d)
            .values()
            .map(|v| (v.len() as u64).div_ceil(4096) * 4096)
            .sum::<u64>()
    };
    pages(after).saturating_sub(pages(before))
}

/// Levels from nothing free to a little more than `need`, in `n` steps,
/// and a few pages around each end.
fn levels(need: u64, n: u64) -> Vec<u64> {
    // Up to twice the growth: while a resolve writes, the new game file and
    // the old (kept as archive/previous.jsonl) both stand.
    let mut l: Vec<u64> = (0..=n).map(|i| i * (2 * need + 64 * 1024) / n).collect();
    l.extend([
        4096,
        8192,
        12288,
        need.saturating_sub(4096),
        need,
        need + 4096,
    ]);
    l.iter_mut().for_each(|x| *x = *x / 4096 * 4096);
    l.sort_unstable();
    l.dedup();
    l
}

/// `herald resolve` on a disk that fills at every level: it exits 1 with
/// "the disk is full" and the game untouched, or 0 with the turn committed
/// (and, if its reports could not all be written, a warning that says the
/// disk is full and how to finish); never a torn file. Freed, the next
/// command leaves the folder exactly as a resolve on an empty disk does.
#[test]
fn resolve_on_a_full_disk_commits_whole_or_not_at_all_at_every_fill_level() {
    let t = template();
    let spot = Spot::new("full-resolve");
    let game = t.copy(&spot.join("game"));
    let orders = awaited_files(&game, &spot.0);
    let names: Vec<&str> = orders.iter().map(|p| s(p)).collect();
    let now = LATER;
    // The folder a resolve leaves with room to spare.
    let reference = spot.join("reference");
    copy_dir(&game, &reference);
    let mut args = vec!["resolve", s(&reference)];
    args.extend(names.iter());
    args.extend(["--now", now]);
    ok(&args);
    let need = grows(&game, &reference);
    let cmd = format!(
        "{{herald}} resolve {{game}} {} --now {now}",
        names.join(" ")
    );
    let levels = levels(need, 24);
    let got = fill_levels(&spot, &game, &cmd, &cmd, &levels);
    let original = files(&game);
    let want = files(&reference);
    let (mut refused, mut warned, mut whole) = (0, 0, 0);
    for l in &got {
        let after = files(&l.after);
        match l.code {
            0 if l.err.contains("warning") => {
                warned += 1;
                assert!(
                    l.err.contains("the disk is full") && l.err.contains("--rebuild"),
                    "{} free: {}",
                    l.free,
                    l.err
                );
                assert_eq!(
                    after[Path::new("game.jsonl")],
                    want[Path::new("game.jsonl")]
                );
            }
            0 => {
                whole += 1;
                assert_eq!(after, want, "{} free: exit 0, not whole", l.free);
            }
            1 => {
                refused += 1;
                assert!(
                    l.err.contains("the disk is full"),
                    "{} free: {}",
                    l.free,
                    l.err
                );
                assert_eq!(
                    after, original,
                    "{} free: exit 1 but the game changed",
                    l.free
                );
            }
            c => panic!("{} free: exit {c}: {}", l.free, l.err),
        }
        assert!(
            !after.keys().any(|p| p.to_string_lossy().contains(".tmp-")),
            "{} free: a temporary file left",
            l.free
        );
        assert_eq!(l.fix_code, 0, "{} free, then room: {}", l.free, l.fix_err);
        assert_eq!(
            files(&l.fixed),
            want,
            "{} free: not finished by the next command",
            l.free
        );
    }
    eprintln!(
        "resolve on a full disk: {} fill levels from 0 to {} KiB free (the resolve needs {} KiB): {refused} refused untouched, {warned} committed with a warning, {whole} whole",
        got.len(),
        levels.last().unwrap() / 1024,
        need / 1024
    );
    assert!(refused > 0 && whole > 0, "the levels span the need");
}

/// `passwd` and `inbox` on a disk that fills up: the same promise
/// (`passwd` refused leaves secrets.toml as it was: the old password
/// there, and working).
#[test]
fn passwd_and_inbox_on_a_full_disk_commit_whole_or_not_at_all() {
    let t = template();
    let spot = Spot::new("full-passwd");
    let game = t.copy(&spot.join("game"));
    let reference = spot.join("reference");
    copy_dir(&game, &reference);
    ok(&["passwd", s(&reference), "--player", "red", "--now", NEW]);
    let need = grows(&game, &reference) + 8192;
    let cmd = format!("{{herald}} passwd {{game}} --player red --now {NEW}");
    let fix = "{herald} report {game} --rebuild".to_string();
    let got = fill_levels(&spot, &game, &cmd, &fix, &levels(need, 10));
    let original = files(&game);
    for l in &got {
        let after = files(&l.after);
        match l.code {
            0 => {
                if l.err.contains("warning") {
                    assert!(l.err.contains("the disk is full"), "{}", l.err);
                }
                assert_ne!(
                    after[Path::new("game.jsonl")],
                    original[Path::new("game.jsonl")]
                );
                // The password in secrets.toml is the one the game checks.
                let secrets = herald::store::Secrets::read(&l.after.join("secrets.toml")).unwrap();
                let head = crate::common::head(&l.after);
                let hash = head["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["id"] == "red")
                    .unwrap()["password"]
                    .as_str()
                    .unwrap()
                    .to_string();
                assert!(
                    herald::auth::matches(&secrets.passwords["red"], &hash),
                    "{} free: exit 0 but secrets.toml holds another password than the game's",
                    l.free
                );
            }
            1 => {
                assert!(
                    l.err.contains("the disk is full"),
                    "{} free: {}",
                    l.free,
                    l.err
                );
                // Nothing changed, secrets.toml included: the old password
                // is still the one written there, and the one that works.
                assert_eq!(
                    after[Path::new("secrets.toml")],
                    original[Path::new("secrets.toml")],
                    "{} free: exit 1 but secrets.toml changed",
                    l.free
                );
                assert_eq!(
                    after, original,
                    "{} free: exit 1 but the game changed",
                    l.free
                );
            }
            c => panic!("{} free: exit {c}: {}", l.free, l.err),
        }
        assert_eq!(l.fix_code, 0, "{}", l.fix_err);
        let fixed = files(&l.fixed);
        let head = crate::common::head(&l.fixed);
        let turn = head["turn"].as_u64().unwrap();
        assert!(
            fixed.contains_key(&PathBuf::from(format!("reports/turn-{turn:04}/done"))),
            "{} free: reports not finished",
            l.free
        );
    }
    // inbox: two mails, the disk full at some point between them.
    let spot = Spot::new("full-inbox");
    let game = t.copy(&spot.join("game"));
    let md = crate::store::maildir(&spot.join("Maildir"));
    let (_, g) = herald::pipeline::open(&game).unwrap();
    for (i, seat) in g.rules.awaiting(&g.state).into_iter().enumerate() {
        let p = g.head().players[seat].id.clone();
        let orders = first_legal(&game, &p);
        let body = herald::report::order_file(&t.id, &p, 0, &t.passwords[&p], &orders);
        crate::store::mail(
            &md,
            &format!("m{i}"),
            &format!("{p}@example.org"),
            "Sun, 22 Nov 2026 12:10:00 +0000",
            &format!("<m{i}@example.org>"),
            &body,
        );
    }
    let reference = spot.join("reference");
    copy_dir(&game, &reference);
    ok(&["inbox", s(&reference), s(&md), "--now", NEW]);
    let need = grows(&game, &reference) + 8192;
    let cmd = format!("{{herald}} inbox {{game}} {} --now {NEW}", md.display());
    let got = fill_levels(&spot, &game, &cmd, &cmd, &levels(need, 10));
    let want = files(&reference);
    for l in &got {
        match l.code {
            0 | 1 => {}
            c => panic!("{} free: exit {c}: {}", l.free, l.err),
        }
        if l.code == 1 || l.err.contains("warning") {
            assert!(
                l.err.contains("the disk is full"),
                "{} free: {}",
                l.free,
                l.err
            );
        }
        assert_eq!(l.fix_code, 0, "{}", l.fix_err);
        assert_eq!(
            files(&l.fixed),
            want,
            "{} free: not the same as with room",
            l.free
        );
    }
}
