//! Unit tests of `herald::host::outbox` (src/host/outbox.rs).

use herald::host::outbox::*;

#[test]
fn backoff_doubles_from_a_minute_up_to_four_hours() {
    let s: Vec<i64> = (1..=10).map(backoff).collect();
    assert_eq!(
        s,
        vec![60, 120, 240, 480, 960, 1920, 3840, 7680, 14400, 14400]
    );
    assert_eq!(backoff(1000), MAX_DELAY);
}

#[test]
fn recipients_come_from_to_cc_and_bcc_once_each() {
    let h = head(
        b"From: a@x.org\r\nTo: B <b@x.org>, c@x.org\r\nCc: b@x.org\r\nBcc: d@x.org\r\n\
          Message-ID: <m1@x>\r\nSubject: s\r\n\r\nbody\r\n",
    );
    assert_eq!(h.recipients, vec!["b@x.org", "c@x.org", "d@x.org"]);
    assert_eq!(h.message_id.as_deref(), Some("<m1@x>"));
    let h = head(b"\xff\xfe garbage with no header");
    assert!(h.recipients.is_empty());
}
