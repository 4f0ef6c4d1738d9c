//! Order mails as players' mail programs write them (issue 18), through
//! `herald inbox`: the `.eml` files in `tests/mails/` (what each imitates
//! is in `tests/mails/README.md`), each a War of the Dukes deployment, the
//! longest real order file, for game `demo-wotd` (seed `mails`, passwords
//! derived from the seed as in demos, so the files can hold the real one).

use crate::common::{herald, scratch};
use herald::orders::OrderFile;
use std::path::{Path, PathBuf};

const PASSWORD: &str = "k7ud-bsj5-z3wy";

/// The game the mails were written for, made in `dir` (with a deadline if
/// one is given); its folder.
fn new_game(dir: &Path, deadline: Option<&str>) -> PathBuf {
    let folder = dir.join("game");
    let created = herald::pipeline::create(herald::pipeline::NewGame {
        game: "war-of-the-dukes".into(),
        rules: None,
        players: vec!["orfburg".into(), "wulfenburg".into()],
        seed: Some("mails".into()),
        options: Vec::new(),
        setup: None,
        id: Some("demo-wotd".into()),
        out: folder.clone(),
        key: None,
        now: chrono::DateTime::parse_from_rfc3339("2026-11-22T12:00:00Z").unwrap(),
        secrets_from_seed: true,
        light_passwords: true,
        mail: herald::pipeline::MailSettings {
            deadline: deadline.map(str::to_string),
            ..Default::default()
        },
    })
    .unwrap();
    assert!(
        created
            .passwords
            .iter()
            .any(|(p, pw)| p == "orfburg" && pw == PASSWORD),
        "tests/mails/ holds orfburg's password {PASSWORD}; the game now derives {:?}",
        created.passwords
    );
    folder
}

struct Outcome {
    /// `herald inbox`'s line for the mail.
    line: String,
    /// The reply's text.
    reply: String,
    /// The order file stored for orfburg, if any.
    stored: Option<String>,
    /// The address the reply goes to.
    reply_to: String,
}

/// One fixture alone in a Maildir of its own, read by `herald inbox`.
fn inbox(fixture: &str) -> Outcome {
    inbox_with(fixture, None)
}

/// A fixture's bytes.
fn fixture_bytes(fixture: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/mails")
            .join(fixture),
    )
    .unwrap()
}

/// [`inbox`], the game made with `deadline`.
fn inbox_with(fixture: &str, deadline: Option<&str>) -> Outcome {
    inbox_bytes(fixture, &fixture_bytes(fixture), deadline)
}

/// A mail (`bytes`, named `fixture`) alone in a Maildir of its own, read
/// by `herald inbox` for a game made with `deadline`.
fn inbox_bytes(fixture: &str, bytes: &[u8], deadline: Option<&str>) -> Outcome {
    let dir = scratch(&format!("mail-{fixture}"));
    let game = new_game(&dir, deadline);
    let md = dir.join("Maildir");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    std::fs::write(md.join("new").join(format!("1764000000.{fixture}")), bytes).unwrap();
    let (code, out, err) = herald(&[
        "inbox",
        game.to_str().unwrap(),
        md.to_str().unwrap(),
        "--now",
        "2026-11-23T12:00:00Z",
    ]);
    assert_eq!(code, 0, "{fixture}: {out}{err}");
    let line = out.lines().next().unwrap_or_default().to_string();
    let outbox = game.join("outbox");
    let replies: Vec<PathBuf> = std::fs::read_dir(&outbox)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(replies.len(), 1, "{fixture}: one reply");
    let raw = std::fs::read(&replies[0]).unwrap();
    let parsed = mail_parser::MessageParser::default()
        .parse(&raw)
        .expect("the reply is a mail");
    let reply = parsed
        .body_text(0)
        .map(|t| t.into_owned())
        .expect("the reply has a text body");
    let reply_to = parsed
        .to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or_default()
        .to_string();
    // Stored sealed, the password taken out: the text as received.
    let stored = std::fs::read_to_string(game.join("orders/turn-0000/orfburg.json"))
        .ok()
        .map(|j| {
            let v: serde_json::Value = serde_json::from_str(&j).unwrap();
            v["text"].as_str().unwrap().to_string()
        });
    let _ = std::fs::remove_dir_all(&dir);
    Outcome {
        line,
        reply,
        reply_to,
        stored,
    }
}

/// The mail was accepted as orfburg's whole deployment, read exactly.
fn accepted(fixture: &str) {
    let o = inbox(fixture);
    assert!(
        o.line.contains("accepted, orders of orfburg"),
        "{fixture}: {}\n{}",
        o.line,
        o.reply
    );
    assert!(o.reply.contains("ACCEPTED"), "{fixture}: {}", o.reply);
    let stored = o.stored.expect("the order file is stored");
    let f = OrderFile::parse("stored", &stored).expect("the stored file reads again");
    let orders: Vec<&str> = f.orders.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(orders.len(), 31, "{fixture}: {orders:?}");
    for o in ["I1 2207", "I6 0815", "A2 2920", "C10 1809", "D 2207"] {
        assert!(
            orders.contains(&o),
            "{fixture}: `{o}` not read as written: {orders:?}"
        );
    }
    assert!(!o.reply.contains("wrong password"), "{}", o.reply);
}

/// The mail was refused, the reply saying `why` and never "wrong password".
fn refused(fixture: &str, why: &str) {
    let o = inbox(fixture);
    assert!(o.line.contains("refused"), "{fixture}: {}", o.line);
    assert!(o.reply.contains("REFUSED"), "{fixture}: {}", o.reply);
    assert!(
        o.reply.contains(why),
        "{fixture}: the reply does not say `{why}`:\n{}",
        o.reply
    );
    assert!(
        !o.reply.contains("wrong password"),
        "{fixture}: {}",
        o.reply
    );
    assert!(o.stored.is_none(), "{fixture}: nothing is stored");
}

#[test]
fn thunderbird_format_flowed_soft_wraps_inside_orders() {
    accepted("thunderbird-flowed.eml");
}

#[test]
fn apple_mail_format_flowed_delsp_quoted_printable_reply() {
    accepted("apple-mail-flowed-delsp.eml");
}

#[test]
fn gmail_top_posted_reply_quoting_the_report() {
    accepted("gmail-reply.eml");
}

#[test]
fn outlook_reply_with_the_report_below_its_header_block() {
    accepted("outlook-reply.eml");
}

#[test]
fn outlook_web_html_only_base64_one_div_a_line() {
    accepted("outlook-web-html-only.eml");
}

#[test]
fn a_reply_with_only_the_quoted_blank_form_is_not_a_wrong_password() {
    refused(
        "gmail-reply-blank-form.eml",
        "the only order form in this mail is the blank one quoted from your report",
    );
}

#[test]
fn a_form_without_its_password_is_told_so() {
    refused(
        "no-password.eml",
        "the order form in this mail has no password",
    );
}

#[test]
fn a_hard_wrapped_order_is_named_not_guessed() {
    refused(
        "webmail-hard-wrapped.eml",
        "an order is split across two lines, probably by your mail program: keep each order on its own line",
    );
}

/// Accepted, and the reply names the line outside the form that reads as
/// an order (`note`), which was not used.
fn accepted_noting(fixture: &str, note: &str) {
    accepted(fixture);
    let o = inbox(fixture);
    assert!(
        o.reply.contains("Outside the order form, herald IGNORED") && o.reply.contains(note),
        "{fixture}: the reply does not name `{note}`:\n{}",
        o.reply
    );
}

/// One test per mail of the corpus that must be accepted as orfburg's
/// whole deployment (what each imitates: tests/mails/README.md).
macro_rules! accepted_mails {
    ($($name:ident: $file:literal,)*) => {$(
        #[test]
        fn $name() {
            accepted($file);
        }
    )*};
}

accepted_mails! {
    thunderbird_greeting_and_cheers_in_format_flowed: "thunderbird-greeting-cheers-flowed.eml",
    thunderbird_reply_bottom_posted_with_thanks_and_signature: "thunderbird-reply-bottom-posted.eml",
    thunderbird_html_message_with_moz_signature: "thunderbird-html-signature.eml",
    thunderbird_order_file_attached_as_octet_stream: "thunderbird-attached-toml.eml",
    thunderbird_forward_inline_of_the_players_own_mail: "thunderbird-forward-inline.eml",
    apple_mail_smart_quotes_and_a_dash_in_the_sign_off: "apple-mail-smart-quotes.eml",
    iphone_smart_quotes_capitalised_keys_and_nbsp_indent: "iphone-smart-quotes-capitals.eml",
    iphone_reply_on_top_with_sent_from_my_iphone: "iphone-reply-top-posted.eml",
    gmail_web_greeting_cheers_and_gmail_signature: "gmail-web-signature.eml",
    gmail_android_reply_on_top_quoting_the_report: "gmail-android-reply.eml",
    gmail_forward_from_another_account: "gmail-forwarded.eml",
    outlook_desktop_autocorrect_regards_and_disclaimer: "outlook-desktop-autocorrect-disclaimer.eml",
    outlook_web_reply_above_its_header_block: "outlook-web-reply.eml",
    outlook_for_mac_with_thanks: "outlook-mac-thanks.eml",
    outlook_for_android_html_only_base64: "outlook-android-html-only.eml",
    k9_mail_with_its_signature: "k9-signature.eml",
    k9_mail_html_reply_on_top: "k9-reply-html.eml",
    k9_mail_order_file_attached_as_text: "k9-attached-txt.eml",
    fairemail_reply_with_original_message_header: "fairemail-reply-original-message.eml",
    mutt_with_a_signature: "mutt-signature.eml",
    mutt_reply_bottom_posted_and_trimmed: "mutt-reply-bottom-posted.eml",
}

#[test]
fn an_order_below_the_form_is_named_and_not_used() {
    accepted_noting("k9-order-below-the-form.eml", "`A1 3019` (below the form)");
}

/// A mail dated after the deadline, read before the turn is resolved: used,
/// and its acknowledgement says it is late and by how much, in whole
/// seconds with the zone.
#[test]
fn late_orders_are_acknowledged_as_late() {
    let f = "thunderbird-greeting-cheers-flowed.eml";
    let o = inbox_with(f, Some("2026-11-23T09:00:00Z"));
    assert!(o.line.contains("accepted"), "{}", o.line);
    assert!(
        o.reply.contains(
            "These orders are LATE: your mail is dated 2026-11-23 10:05:12 +01:00, after the deadline of turn 0 (2026-11-23 09:00 UTC), by 5m 12s."
        ),
        "{}",
        o.reply
    );
    assert!(o.stored.is_some());
    // On time: nothing said.
    let o = inbox_with(f, Some("2026-11-23T10:00:00Z"));
    assert!(!o.reply.contains("LATE"), "{}", o.reply);
    assert!(
        o.reply
            .contains("Deadline for turn 0: 2026-11-23 10:00 UTC"),
        "{}",
        o.reply
    );
}

#[test]
fn two_different_filled_forms_are_refused() {
    refused(
        "gmail-two-forms.eml",
        "holds 2 different filled order forms (line 1, line 41), and herald cannot tell which one you mean: send one form only",
    );
}

#[test]
fn a_list_left_open_is_refused_for_the_list_not_the_sign_off() {
    refused(
        "thunderbird-missing-bracket.eml",
        "the orders list opened here is not closed",
    );
    let o = inbox("thunderbird-missing-bracket.eml");
    assert!(!o.reply.contains("Thanks"), "{}", o.reply);
}

#[test]
fn an_order_without_quotes_inside_the_form_is_refused_by_line() {
    refused("apple-mail-unquoted-order.eml", "A2 2920");
}

#[test]
fn a_piece_not_in_the_game_is_refused_inside_the_form() {
    refused("gmail-unknown-unit.eml", "I11");
}

/// Thunderbird's "Forward as Attachment": the order mail travels whole
/// inside another (`message/rfc822`). Its form is read; the orders are
/// orfburg's because the form's password is, whoever's From either mail
/// shows, and the reply goes to the mail's sender (the forwarder).
#[test]
fn an_order_mail_forwarded_as_an_attachment_is_read_by_its_password() {
    let f = "thunderbird-forward-as-attachment.eml";
    accepted(f);
    let o = inbox(f);
    assert_eq!(o.reply_to, "orf.work@example.com", "{}", o.reply);
    // The forwarded mail's From proves nothing: a wrong password in its
    // form is refused as from anyone.
    let forged = String::from_utf8(fixture_bytes(f))
        .unwrap()
        .replace("k7ud-bsj5-z3wy", "k7ud-bsj5-aaaa");
    let o = inbox_bytes(f, forged.as_bytes(), None);
    assert!(o.line.contains("refused"), "{}", o.line);
    assert!(o.reply.contains("wrong password"), "{}", o.reply);
    assert!(o.stored.is_none());
}

/// A file Notepad saved as "Unicode" (UTF-16, little endian, with its
/// byte-order mark and CR LF), attached by Outlook for Windows as
/// `text/plain` without a charset: read by its mark.
#[test]
fn a_notepad_unicode_file_attached_without_a_charset_is_read() {
    accepted("outlook-notepad-unicode-attached.eml");
}

/// Notepad's "UTF-8" starts the file with a byte-order mark: it is no
/// part of the orders, and the stored text does not keep it.
#[test]
fn a_utf8_byte_order_mark_is_not_stored() {
    let f = "gmail-attached-notepad-utf8-bom.eml";
    accepted(f);
    let stored = inbox(f).stored.unwrap();
    assert!(stored.starts_with("game = "), "{stored:?}");
    assert!(!stored.contains('\u{feff}'), "{stored:?}");
}

/// A greeting above `press to all`: the host reads it as press (the
/// greeting not relayed); a game without a host (`herald inbox`) finds no
/// orders in it and says it reads as press, not only "no order form".
#[test]
fn a_greeting_above_press_is_press() {
    let f = "gmail-greeting-above-press.eml";
    let o = inbox(f);
    assert!(o.line.contains("refused"), "{}", o.line);
    assert!(
        o.reply.contains("Line 3, `press to all`, reads as press")
            && o.reply.contains("nothing was relayed"),
        "{}",
        o.reply
    );
    let bytes = fixture_bytes(f);
    let m = mail_parser::MessageParser::default().parse(&bytes).unwrap();
    match herald::host::press::asked(&m) {
        Some(herald::host::press::Asked::Press(r)) => {
            assert_eq!(r.to, Some(herald::pipeline::press::To::All));
            assert_eq!(r.player.as_deref(), Some("orfburg"));
            assert_eq!(r.password.as_deref(), Some(PASSWORD));
            assert_eq!(r.greeting, vec!["Hi all,".to_string()]);
            assert!(
                r.text.starts_with("Wulfenburg, the river crossings") && !r.text.contains("Hi all"),
                "{:?}",
                r.text
            );
        }
        other => panic!("not read as press: {other:?}"),
    }
    // A letter that only mentions pressing is not press.
    let letter = String::from_utf8(bytes)
        .unwrap()
        .replace("press to all\r\n", "press ahead, all of you\r\n");
    let m = mail_parser::MessageParser::default()
        .parse(letter.as_bytes())
        .unwrap();
    assert!(herald::host::press::asked(&m).is_none());
}

/// The same shape on a host, through the real Postfix and Dovecot: the
/// press relayed to every other player without the greeting, and the
/// sender's copy says the greeting was not relayed.
#[test]
fn a_greeting_above_press_is_left_out_of_what_the_host_relays() {
    use crate::mailservers::servers;
    let s = servers();
    let h = crate::host_mail::Host::new(s, "");
    let accts: Vec<crate::mailservers::Account> = (0..3).map(|_| s.account()).collect();
    let pw = crate::press::norse3(&h, &accts, "greet", &["--press", "public"]);
    let to = h.game_addr("greet");
    let token = "GREETED-press: the river crossings are yours";
    crate::host_mail::send(
        s,
        &accts[0].address,
        &to,
        &crate::press::press_mail(
            &accts[0],
            &to,
            "greet1@players.test",
            5,
            "Hi all,\n\npress to all",
            crate::press::password_of(&pw, "red"),
            token,
        ),
    );
    s.wait_for_mails(&h.acct, 1);
    let out = h.pass_ok(&crate::host_mail::at(10));
    assert!(out.contains("1 press relayed"), "{out}");
    let text = |m: &Vec<u8>| crate::host_mail::text(m);
    for a in &accts[1..] {
        let mails = s.wait_for_mails(a, 2);
        let press: Vec<String> = mails
            .iter()
            .map(text)
            .filter(|m| m.contains(token))
            .collect();
        assert_eq!(press.len(), 1, "{}: {press:?}", a.address);
        assert!(!press[0].contains("Hi all"), "{}", press[0]);
    }
    let copy = s
        .wait_for_mails(&accts[0], 2)
        .iter()
        .map(text)
        .find(|m| m.contains("RELAYED"))
        .expect("the sender's copy");
    assert!(
        copy.contains("`Hi all,` was read as a greeting to the host and NOT relayed"),
        "{copy}"
    );
}

#[test]
fn every_fixture_is_a_mail_with_full_headers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mails");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "eml") {
            continue;
        }
        n += 1;
        let name = p.file_name().unwrap().to_str().unwrap();
        assert!(
            include_str!("mails.rs").contains(&format!("\"{name}\"")),
            "{name} is in tests/mails/ but no test runs it"
        );
        let raw = std::fs::read(&p).unwrap();
        let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
        for (what, ok) in [
            ("From", m.from().is_some()),
            ("Date", m.date().is_some()),
            ("Message-ID", m.message_id().is_some()),
            ("Subject", m.subject().is_some()),
            ("Received", m.header("Received").is_some()),
        ] {
            assert!(ok, "{}: no {what}", p.display());
        }
    }
    assert!(n >= 30, "{n} fixtures: the corpus holds at least 30");
}
