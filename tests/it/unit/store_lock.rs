//! Unit tests of `herald::store::lock` (src/store/lock.rs).

use herald::store::lock::*;
use std::time::Duration;

#[test]
fn a_second_writer_waits_then_gives_up_naming_the_holder() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("lock");
    let held = Lock::acquire(&p, "g1", Duration::from_millis(10)).unwrap();
    let e = Lock::acquire(&p, "g1", Duration::from_millis(50)).unwrap_err();
    assert_eq!(e.exit_code(), 3);
    let msg = &e.problems[0];
    assert!(
        msg.contains("game g1 is busy") && msg.contains(&std::process::id().to_string()),
        "{msg}"
    );
    drop(held);
    Lock::acquire(&p, "g1", Duration::from_millis(10)).unwrap();
}

#[test]
fn the_lock_is_not_taken_through_a_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("lock");
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), &p).unwrap();
    assert!(Lock::acquire(&p, "g", Duration::from_millis(10)).is_err());
    assert!(!dir.path().join("elsewhere").exists());
}
