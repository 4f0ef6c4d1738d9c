//! `requests::bound`: the door's bound on replies to one address, kept
//! across restarts, keyed by the answered mail, in the pass's time.

use herald::host::layout::HostDir;
use herald::requests::bound::{Bound, Grant};

#[test]
fn an_address_gets_its_bound_an_hour_across_restarts_and_a_mail_again_is_no_new_reply() {
    let dir = crate::common::scratch("reply-bound");
    let host = HostDir::at(&dir);
    let t0 = 1_800_000_000;
    let b = Bound::open(&host.reply_bound(), 3, t0);
    for i in 0..3 {
        assert_eq!(
            b.grant("Ann@X.test", &format!("m{i}")).unwrap(),
            Grant::Send
        );
    }
    assert_eq!(b.grant("ann@x.test", "m3").unwrap(), Grant::Held);
    // The same mail again (handled again after a crash): granted, not counted.
    assert_eq!(b.grant("ann@x.test", "m1").unwrap(), Grant::Send);
    // Another address is not touched.
    assert_eq!(b.grant("bob@x.test", "m9").unwrap(), Grant::Send);
    let new = b.take_new();
    assert_eq!(new.len(), 1);
    assert_eq!(new[0].address, "ann@x.test");
    assert!(b.take_new().is_empty(), "told once");
    drop(b);
    // A restart within the hour: still bounded, the held ones remembered.
    let b = Bound::open(&host.reply_bound(), 3, t0 + 1800);
    assert_eq!(b.grant("ann@x.test", "m4").unwrap(), Grant::Held);
    assert_eq!(b.held()[0].held, 2);
    assert!(b.take_new().is_empty(), "held before, in this hour");
    drop(b);
    // An hour on: answered again.
    let b = Bound::open(&host.reply_bound(), 3, t0 + 3601);
    assert_eq!(b.grant("ann@x.test", "m5").unwrap(), Grant::Send);
    // The one held back half an hour in is still within the hour.
    assert_eq!(b.held()[0].held, 1);
    // The record is the host's alone, and a torn last line is skipped.
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join("state/reply-bound");
    let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
    std::io::Write::write_all(&mut f, b"{\"to\":\"ann@x.te").unwrap();
    drop(f);
    let b = Bound::open(&host.reply_bound(), 3, t0 + 3700);
    assert_eq!(b.grant("ann@x.test", "m6").unwrap(), Grant::Send);
}

/// The record's bytes after a pass do not depend on the order the games,
/// handled side by side, asked in.
#[test]
fn the_record_settles_to_the_same_bytes_whatever_the_order_of_the_grants() {
    let t0 = 1_800_000_000;
    let asks = [
        ("ann@x.test", "m1"),
        ("bob@x.test", "m2"),
        ("ann@x.test", "m3"),
        ("ann@x.test", "m4"),
    ];
    let run = |order: &[usize]| {
        let dir = crate::common::scratch("reply-bound-order");
        let b = Bound::open(&HostDir::at(&dir).reply_bound(), 2, t0);
        for &i in order {
            b.grant(asks[i].0, asks[i].1).unwrap();
        }
        b.settle().unwrap();
        std::fs::read(dir.join("state/reply-bound")).unwrap()
    };
    // Ann's two grants go to the mails asked first; the held line is one
    // whatever the order, and the bytes the same for the same grants.
    assert_eq!(run(&[0, 1, 2, 3]), run(&[1, 0, 2, 3]));
    assert_eq!(run(&[0, 2, 1, 3]), run(&[2, 1, 0, 3]));
}
