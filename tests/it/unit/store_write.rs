//! Unit tests of `herald::store::write` (src/store/write.rs).

use herald::store::write::*;
use std::os::unix::fs::PermissionsExt;

#[test]
fn writes_are_private_and_replace_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f");
    atomic(&p, b"one", Durability::Synced).unwrap();
    atomic(&p, b"two", Durability::Replaceable).unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"two");
    let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    // nothing left behind
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn outside_refuses_what_is_not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let st = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(st.success());
    assert!(outside(&fifo, b"x").is_err());
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(dir.path().join("target"), &link).unwrap();
    assert!(outside(&link, b"x").is_err());
    assert!(!dir.path().join("target").exists());
    let ok = dir.path().join("ok.txt");
    outside(&ok, b"x").unwrap();
    assert_eq!(std::fs::read(&ok).unwrap(), b"x");
}

#[test]
fn sweep_clears_temporaries_where_commands_write() {
    let d = tempfile::tempdir().unwrap();
    let r = d.path();
    let mk = |p: &str| {
        let p = r.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, b"x").unwrap();
    };
    let swept = [
        ".tmp-a",
        "archive/.previous-12",
        "outbox/.tmp-b",
        "inbox/.tmp-c",
        "reports/turn-0010/.tmp-d",
        "reports/turn-0009/.tmp-e",
        "orders/turn-0010/.tmp-f",
    ];
    let kept = [
        "game.jsonl",
        "reports/turn-0010/red.txt",
        "reports/turn-0009/red.txt",
        "reports/turn-0001/red.txt",
        // an old turn's folder: no command writes there
        "reports/turn-0001/.tmp-g",
    ];
    for p in swept.iter().chain(&kept) {
        mk(p);
    }
    sweep(r, &herald::store::layout::BY_TURN);
    for p in swept {
        assert!(!r.join(p).exists(), "{p} left");
    }
    for p in kept {
        assert!(r.join(p).exists(), "{p} removed");
    }
}

#[test]
fn files_written_together_are_private_whole_and_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("b.eml"), b"old").unwrap();
    let files: Vec<(std::path::PathBuf, Vec<u8>)> = ["a", "b", "c"]
        .iter()
        .map(|n| (d.join(format!("{n}.eml")), format!("mail {n}").into_bytes()))
        .collect();
    atomic_synced_all(d, &files).unwrap();
    for (p, bytes) in &files {
        assert_eq!(&std::fs::read(p).unwrap(), bytes);
        let mode = std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", p.display());
    }
    assert_eq!(std::fs::read_dir(d).unwrap().count(), 3);
    // a file meant for another folder refuses the batch before anything
    // is written
    let elsewhere = tempfile::tempdir().unwrap();
    let bad = vec![
        (d.join("d.eml"), b"d".to_vec()),
        (elsewhere.path().join("e.eml"), b"e".to_vec()),
    ];
    assert!(atomic_synced_all(d, &bad).is_err());
    assert!(!elsewhere.path().join("e.eml").exists());
    assert!(!d.join("d.eml").exists());
    let names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp-"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
    // nothing to write is nothing done
    atomic_synced_all(d, &[]).unwrap();
}
