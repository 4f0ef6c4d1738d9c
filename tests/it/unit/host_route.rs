//! Unit tests of `herald::host::route` (src/host/route.rs).

use herald::host::config::HostAddress;
use herald::host::route::*;
use herald::names::Name;
use mail_parser::MessageParser;
use std::path::Path;

fn host() -> HostAddress {
    HostAddress::parse("herald@example.org").unwrap()
}

fn game(dir: &Path, folder: &str, id: &str) {
    std::fs::create_dir_all(dir.join(folder)).unwrap();
    std::fs::write(
        dir.join(folder).join("game.jsonl"),
        format!("{{\"head\":{{\"id\":\"{id}\",\"x\":1}}}}\n{{}}\n"),
    )
    .unwrap();
}

fn route_of(dir: &Path, mail: &str) -> Route {
    let m = MessageParser::default().parse(mail.as_bytes()).unwrap();
    route(&m, &host(), dir)
}

#[test]
fn plus_address_then_subject_tag_then_no_game() {
    let d = tempfile::tempdir().unwrap();
    game(d.path(), "g1", "g1");
    game(d.path(), "g2", "g2");
    game(d.path(), "liar", "other");
    let r = |h: &str| route_of(d.path(), &format!("From: a@b.org\r\n{h}\r\n\r\nhi\r\n"));
    let g = |s: &str| Route::Game(Name::new("game", s).unwrap());
    assert_eq!(r("To: Herald <herald+g1@example.org>"), g("g1"));
    assert_eq!(r("To: HERALD+G2@Example.org"), g("g2"));
    assert_eq!(
        r("Delivered-To: herald+g2@example.org\r\nTo: herald+g1@example.org"),
        g("g2")
    );
    assert_eq!(
        r("To: herald@example.org, x@y.z\r\nCc: herald+g1@example.org"),
        g("g1")
    );
    assert_eq!(
        r("To: herald@example.org\r\nSubject: Re: [g2] Hexwar: turn 3"),
        g("g2")
    );
    // A plus address naming no game here, then a good subject tag.
    assert_eq!(
        r("To: herald+nope@example.org\r\nSubject: [g1] orders"),
        g("g1")
    );
    assert_eq!(
        r("To: herald+nope@example.org"),
        Route::NoGame {
            tag: Some("nope".into())
        }
    );
    // A folder whose file names another id gets no mail.
    assert_eq!(
        r("To: herald+liar@example.org"),
        Route::NoGame {
            tag: Some("liar".into())
        }
    );
    assert_eq!(
        r("To: herald+../../etc@example.org\r\nSubject: [../x] [Re"),
        Route::NoGame {
            tag: Some("../../etc".into())
        }
    );
    assert_eq!(r("To: herald@example.org"), Route::NoGame { tag: None });
    // Someone else's plus address is not the host's.
    assert_eq!(r("To: other+g1@example.org"), Route::NoGame { tag: None });
}

#[test]
fn bounces_automatic_mail_and_the_host_itself_are_ignored() {
    let d = tempfile::tempdir().unwrap();
    game(d.path(), "g1", "g1");
    let ignored = |h: &str| {
        matches!(
            route_of(
                d.path(),
                &format!("{h}\r\nTo: herald+g1@example.org\r\n\r\nx\r\n")
            ),
            Route::Ignore { .. }
        )
    };
    assert!(ignored("Return-Path: <>\r\nFrom: a@b.org"));
    assert!(ignored("From: MAILER-DAEMON@mx.example.org"));
    assert!(ignored("From: a@b.org\r\nAuto-Submitted: auto-replied"));
    assert!(ignored("From: a@b.org\r\nPrecedence: bulk"));
    assert!(ignored("From: herald@example.org"));
    assert!(ignored("From: herald+g1@example.org"));
    assert!(ignored("To: x@y.z"));
    assert!(!ignored("From: a@b.org\r\nAuto-Submitted: no"));
    assert!(!ignored("Return-Path: <a@b.org>\r\nFrom: a@b.org"));
}
