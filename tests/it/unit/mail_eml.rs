//! Unit tests of `herald::mail::eml` (src/mail/eml.rs).

use herald::mail::eml::*;

fn sample(attach: bool) -> Mail {
    Mail {
        from: "gm@example.org".into(),
        to: "red@example.org".into(),
        subject: "Turn 3 — report for red".into(),
        date: "2026-11-22T18:00:00Z".into(),
        message_id: message_id("g", &["3", "red"]),
        in_reply_to: None,
        text: "Your report.\n----- ORDERS\ngame = \"g\"\n".into(),
        attachments: if attach {
            vec![Attachment {
                name: "view.json".into(),
                mime: "application/json".into(),
                bytes: b"{\"a\": 1}".to_vec(),
            }]
        } else {
            vec![]
        },
    }
}

#[test]
fn the_same_mail_gives_the_same_bytes_and_parses_back() {
    for attach in [false, true] {
        let a = build(&sample(attach));
        assert_eq!(a, build(&sample(attach)));
        let m = mail_parser::MessageParser::default().parse(&a).unwrap();
        assert_eq!(m.subject(), Some("Turn 3 — report for red"));
        assert!(m.body_text(0).unwrap().contains("----- ORDERS"));
        assert_eq!(m.attachment_count(), usize::from(attach));
        assert_eq!(m.date().unwrap().to_rfc3339(), "2026-11-22T18:00:00Z");
    }
}
