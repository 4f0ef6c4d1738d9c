//! Unit tests of `herald::host::commands` (src/host/commands.rs).

use herald::host::commands::*;
use mail_parser::MessageParser;

fn asked_of(mail: &str) -> Asked {
    asked(&MessageParser::default().parse(mail.as_bytes()).unwrap())
}

#[test]
fn commands_come_from_the_subject_or_the_first_line() {
    let c =
        |s: &str, body: &str| asked_of(&format!("From: a@b.c\r\nSubject: {s}\r\n\r\n{body}\r\n"));
    assert_eq!(c("status", ""), Asked::Command(Command::Status));
    assert_eq!(c("Re: [g1] STATUS", ""), Asked::Command(Command::Status));
    assert_eq!(
        c("hello", "\r\n  report Red s3cret\r\nthanks"),
        Asked::Command(Command::Report {
            player: "red".into(),
            password: "s3cret".into()
        })
    );
    assert!(matches!(c("withdraw red", ""), Asked::Bad { .. }));
    assert!(matches!(c("status now", ""), Asked::Bad { .. }));
    assert_eq!(
        c("Re: [g1] Hexwar: turn 3 report for red", ""),
        Asked::Orders
    );
    assert_eq!(
        c(
            "orders",
            "game = \"g1\"\nplayer = \"red\"\nturn = 0\npassword = \"x\"\norders = []\n"
        ),
        Asked::Orders
    );
    let cmd = Command::Withdraw {
        player: "red".into(),
        password: "pw".into(),
    };
    assert!(!cmd.describe().contains("pw"));
}

/// The body's whole command wins over a subject that is only the
/// command's name (the subject a player types first); a whole command in
/// the subject wins over the body; a greeting may stand before it.
#[test]
fn the_bodys_whole_command_wins_over_a_bare_subject() {
    let c =
        |s: &str, body: &str| asked_of(&format!("From: a@b.c\r\nSubject: {s}\r\n\r\n{body}\r\n"));
    let form = Asked::Command(Command::Form {
        player: "white".into(),
        password: "Pw-1".into(),
    });
    assert_eq!(c("form", "form white Pw-1"), form);
    assert_eq!(
        c("Re: [g1] form", "Hi,\r\n\r\nform white Pw-1\r\nthanks"),
        form
    );
    assert_eq!(c("help", "form white Pw-1"), form);
    assert_eq!(c("form white Pw-1", "status"), form);
    assert_eq!(c("status", "thanks"), Asked::Command(Command::Status));
    // A quoted command is not the player's.
    assert!(matches!(
        c("form", "> form white Pw-1"),
        Asked::Bad { word, .. } if word == "form"
    ));
    // Missing parts: a bad command, answered with the line to send.
    assert!(matches!(c("withdraw", "please"), Asked::Bad { word, .. } if word == "withdraw"));
}
