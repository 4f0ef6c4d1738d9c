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

use herald::host::log::Log;
use herald::host::smtp::Sender;
use herald::host::Failure;
use herald::store::outbox as queue;
use herald::store::OutboxDir;
use std::path::{Path, PathBuf};

/// A sender that accepts every mail and remembers what it was given.
#[derive(Default)]
struct Sink {
    got: Vec<(String, Vec<u8>)>,
}

impl Sender for Sink {
    fn send_to(
        &mut self,
        to: &str,
        bytes: &[u8],
        at_end: &mut dyn FnMut(),
    ) -> Result<String, Failure> {
        at_end();
        self.got.push((to.to_string(), bytes.to_vec()));
        Ok("250 2.0.0 Ok: queued".into())
    }
    fn down(&self) -> Option<&Failure> {
        None
    }
}

fn folder(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("herald-unit-outbox-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn mail(mid: &str, to: &str) -> Vec<u8> {
    format!("From: h@x.org\r\nTo: {to}\r\nMessage-ID: <{mid}>\r\nSubject: s\r\n\r\nbody\r\n")
        .into_bytes()
}

/// Queue one mail through the store's queue; its file.
fn put(dir: &Path, mid: &str, to: &str) -> PathBuf {
    match queue::queue(&OutboxDir::at(dir), mid, &mail(mid, to)).unwrap() {
        queue::Queued::At(p) => p,
        q => panic!("{q:?}"),
    }
}

fn states(eml: &Path) -> String {
    std::fs::read_to_string(eml.with_extension("state")).unwrap_or_default()
}

#[test]
fn a_mail_is_recorded_handing_then_accepted_then_done_and_never_queued_again() {
    let d = folder("states");
    let eml = put(&d, "m1@x", "a@x.org");
    let mut tx = Sink::default();
    let r = run(&d, &mut tx, 100, &Labels::default(), &Log::none()).unwrap();
    assert_eq!(r.sent.len(), 1);
    assert!(!eml.exists() && !eml.with_extension("state").exists());
    let name = queue::name_of("m1@x");
    assert_eq!(
        queue::sent(&OutboxDir::at(&d)).unwrap(),
        [name.clone()].into()
    );
    // Queued again (a command completed again after a crash): not written.
    assert_eq!(
        queue::queue(&OutboxDir::at(&d), "m1@x", &mail("m1@x", "a@x.org")).unwrap(),
        queue::Queued::AlreadySent
    );
    assert!(!eml.exists());
    let r = run(&d, &mut tx, 200, &Labels::default(), &Log::none()).unwrap();
    assert!(r.sent.is_empty());
    assert_eq!(tx.got.len(), 1, "sent once");
}

#[test]
fn a_mail_left_handing_is_resent_once_with_the_same_message_id_and_logged() {
    let d = folder("handing");
    let eml = put(&d, "m2@x", "a@x.org");
    // A run killed in the middle of the SMTP transaction.
    std::fs::write(
        eml.with_extension("state"),
        "{\"state\":\"handing\",\"to\":\"a@x.org\",\"at\":50}\n",
    )
    .unwrap();
    assert_eq!(read_state(&eml).unwrap().interrupted, vec!["a@x.org"]);
    let log_path = d.join("log");
    let log = Log::open(Some(&log_path), false).unwrap();
    let mut tx = Sink::default();
    let r = run(&d, &mut tx, 60, &Labels::default(), &log).unwrap();
    assert_eq!((r.sent.len(), r.interrupted), (1, 1), "{r:?}");
    assert_eq!(tx.got.len(), 1);
    assert_eq!(tx.got[0].1, mail("m2@x", "a@x.org"), "the same bytes");
    let text = std::fs::read_to_string(&log_path).unwrap();
    assert!(
        text.contains(" out interrupted ") && text.contains("message-id=<m2@x>"),
        "{text}"
    );
    assert!(
        text.contains("rule=\"resent now with the same Message-ID\""),
        "{text}"
    );
}

#[test]
fn a_mail_accepted_before_a_kill_is_finished_without_a_second_send() {
    let d = folder("accepted");
    let eml = put(&d, "m3@x", "a@x.org");
    std::fs::write(
        eml.with_extension("state"),
        "{\"state\":\"handing\",\"to\":\"a@x.org\",\"at\":50}\n\
         {\"state\":\"accepted\",\"to\":\"a@x.org\",\"at\":50,\"reply\":\"250 ok\"}\n\
         {\"state\":\"handing\",\"to\":\"b@x.org\"",
    )
    .unwrap();
    let st = read_state(&eml).unwrap();
    assert_eq!(st.sent, vec!["a@x.org"], "a torn last line is no record");
    let mut tx = Sink::default();
    let r = run(&d, &mut tx, 60, &Labels::default(), &Log::none()).unwrap();
    assert!(tx.got.is_empty() && r.sent.is_empty(), "{r:?}");
    assert!(!eml.exists());
    assert!(queue::sent(&OutboxDir::at(&d))
        .unwrap()
        .contains(&queue::name_of("m3@x")));
    // Recorded sent, files not yet removed (a kill in between): removed.
    let eml = put(&d, "m4@x", "a@x.org");
    queue::mark_sent(&OutboxDir::at(&d), &queue::name_of("m4@x")).unwrap();
    let r = run(&d, &mut tx, 70, &Labels::default(), &Log::none()).unwrap();
    assert!(tx.got.is_empty() && r.sent.is_empty() && !eml.exists());
}

#[test]
fn a_mail_interrupted_again_and_again_backs_off_and_an_old_state_still_reads() {
    let d = folder("again");
    let eml = put(&d, "m5@x", "a@x.org");
    let handing = "{\"state\":\"handing\",\"to\":\"a@x.org\",\"at\":50}\n".repeat(4);
    std::fs::write(eml.with_extension("state"), &handing).unwrap();
    assert_eq!(read_state(&eml).unwrap().interruptions["a@x.org"], 4);
    let mut tx = Sink::default();
    let r = run(&d, &mut tx, 60, &Labels::default(), &Log::none()).unwrap();
    assert!(tx.got.is_empty(), "{r:?}");
    let st = read_state(&eml).unwrap();
    assert_eq!(
        (st.attempts, st.next_try),
        (1, 60 + FIRST_DELAY),
        "{}",
        states(&eml)
    );
    let r = run(
        &d,
        &mut tx,
        60 + FIRST_DELAY,
        &Labels::default(),
        &Log::none(),
    )
    .unwrap();
    assert_eq!(r.sent.len(), 1, "{r:?}");
    // The one-object state an older herald wrote is read and carried on.
    let eml = put(&d, "m6@x", "a@x.org");
    std::fs::write(
        eml.with_extension("state"),
        "{\n  \"attempts\": 2,\n  \"first_try\": 10,\n  \"next_try\": 500,\n  \"last_error\": \"down\",\n  \"sent\": [],\n  \"refused\": []\n}",
    )
    .unwrap();
    let st = read_state(&eml).unwrap();
    assert_eq!((st.attempts, st.next_try, st.first_try), (2, 500, Some(10)));
    let r = run(&d, &mut tx, 400, &Labels::default(), &Log::none()).unwrap();
    assert_eq!(r.waiting, 1);
    let r = run(&d, &mut tx, 500, &Labels::default(), &Log::none()).unwrap();
    assert_eq!(r.sent.len(), 1, "{r:?}");
    assert!(!eml.exists());
}

#[test]
fn a_mail_left_sent_is_counted_delivered_and_never_sent_again() {
    let d = folder("in-flight");
    let eml = put(&d, "m7@x", "a@x.org");
    // Killed while the server took the mail: its end was on its way.
    std::fs::write(
        eml.with_extension("state"),
        "{\"state\":\"handing\",\"to\":\"a@x.org\",\"at\":50}\n{\"state\":\"sent\",\"to\":\"a@x.org\",\"at\":50}\n",
    )
    .unwrap();
    assert_eq!(read_state(&eml).unwrap().in_flight, vec!["a@x.org"]);
    let log_path = d.join("log");
    let log = Log::open(Some(&log_path), false).unwrap();
    let mut tx = Sink::default();
    let r = run(&d, &mut tx, 60, &Labels::default(), &log).unwrap();
    assert!(tx.got.is_empty(), "not sent again");
    assert_eq!(r.unconfirmed.len(), 1, "{r:?}");
    assert!(!eml.exists());
    assert!(queue::sent(&OutboxDir::at(&d))
        .unwrap()
        .contains(&queue::name_of("m7@x")));
    let text = std::fs::read_to_string(&log_path).unwrap();
    assert!(
        text.contains(" out unconfirmed ") && text.contains("<m7@x>"),
        "{text}"
    );
    // A transaction writes `handing`, then `sent` before the end, then
    // `accepted`.
    let eml = put(&d, "m8@x", "b@x.org");
    struct Peek(PathBuf, Vec<String>);
    impl Sender for Peek {
        fn send_to(
            &mut self,
            _: &str,
            _: &[u8],
            at_end: &mut dyn FnMut(),
        ) -> Result<String, Failure> {
            self.1.push(states(&self.0));
            at_end();
            self.1.push(states(&self.0));
            Ok("250 ok".into())
        }
        fn down(&self) -> Option<&Failure> {
            None
        }
    }
    let mut p = Peek(eml.clone(), Vec::new());
    run(&d, &mut p, 70, &Labels::default(), &Log::none()).unwrap();
    assert!(
        p.1[0].contains("\"handing\"") && !p.1[0].contains("\"sent\""),
        "{:?}",
        p.1
    );
    assert!(
        p.1[1].ends_with("\"state\":\"sent\",\"to\":\"b@x.org\",\"at\":70}\n")
            || p.1[1].contains("\"sent\""),
        "{:?}",
        p.1
    );
}
