//! Unit tests of `herald::mail::extract` (src/mail/extract.rs).

use herald::mail::extract::*;

#[test]
fn flowed_lines_are_joined() {
    let t = "orders = [\"I1 2207\", \"I2 2211\", \n\"I3 2311\"]\n>> quoted soft \n>> end\nhard\n-- \nsig\n";
    assert_eq!(
        unflow(t, false),
        "orders = [\"I1 2207\", \"I2 2211\", \"I3 2311\"]\n>> quoted soft end\nhard\n-- \nsig\n"
    );
    // DelSp=yes: the space before the break was added by the program
    assert_eq!(
        unflow("attack 0915 with I3 I4 A2 adv \nance I3\n", true),
        "attack 0915 with I3 I4 A2 advance I3\n"
    );
    // space-stuffing
    assert_eq!(
        unflow("  \"J S\",\n From here\n", false),
        " \"J S\",\nFrom here\n"
    );
    // a change of quote depth ends a paragraph
    assert_eq!(unflow("a \n> b\n", false), "a \n> b\n");
}

#[test]
fn replies_are_split_into_own_and_quoted_lines() {
    let t = "game = \"g\"\npassword = \"x\"\n\nOn Tue, 2 Dec 2026 at 08:15, GM <gm@example.org>\nwrote:\n> report\n> password = \"\"\n";
    let (own, quoted) = split_reply(t);
    assert_eq!(own, "game = \"g\"\npassword = \"x\"\n");
    assert_eq!(quoted, "\n\n\n\n\nreport\npassword = \"\"\n");
    let t =
        "form\n\n________________________________\nFrom: gm@example.org\nSent: Tuesday\nreport\n";
    let (own, quoted) = split_reply(t);
    assert_eq!(own, "form\n");
    assert_eq!(
        quoted,
        "\n\n________________________________\nFrom: gm@example.org\nSent: Tuesday\nreport\n"
    );
    // bottom-posting: the player's lines after the quote are theirs
    let t = "On Mon, GM wrote:\n> blank\n\nmine\n-- \nRed\n";
    let (own, _) = split_reply(t);
    assert_eq!(own, "\n\n\nmine\n");
    // phones
    let (own, _) = split_reply("mine\n\nSent from my iPhone\n");
    assert_eq!(own, "mine\n");
}

#[test]
fn html_keeps_its_lines() {
    let t = html_text("<div>game = &quot;g&quot;</div><div>orders = [</div><div>&nbsp;&nbsp;\"J S\",</div><div>]</div><blockquote>password = \"\"</blockquote>");
    assert!(
        t.starts_with("game = \"g\"\norders = [\n  \"J S\",\n]\n"),
        "{t}"
    );
    assert!(t.contains("> password = \"\""), "{t}");
    assert_eq!(html_text(&"<p>x</p>".repeat(MAX_HTML)), "");
}

fn form_lines() -> Vec<&'static str> {
    vec![
        "game = \"g\"",
        "player = \"red\"",
        "turn = 3",
        "password = \"abcd-efgh\"",
        "orders = [",
        "  \"J NE\",",
        "  \"W1 SE\",",
        "]",
    ]
}

/// The form is the run from its first key to the `]` that closes
/// `orders`: a greeting above and a sign-off below are outside it.
#[test]
fn the_form_is_found_between_a_greeting_and_a_sign_off() {
    let mut lines = vec!["Hi GM,", "", "my orders:", "Orders:", ""];
    lines.extend(form_lines());
    lines.extend([
        "",
        "Thanks!",
        "Cheers",
        "Regards,",
        "Orf",
        "Sent from my phone",
    ]);
    let text = lines.join("\n");
    let found = forms(&text);
    assert_eq!(
        found,
        vec![Form {
            first: 5,
            last: 12,
            gaps: vec![],
            has_password: true,
            filled: true,
            has_orders: true
        }]
    );
    let kept = found[0].text(&text);
    assert_eq!(kept.lines().count(), 13, "lines to the form's last");
    assert!(kept.split('\n').take(5).all(str::is_empty), "{kept}");
    assert!(
        !kept.contains("Thanks") && !kept.contains("Orders:"),
        "{kept}"
    );
    assert_eq!(
        herald::orders::OrderFile::parse("m", &kept)
            .unwrap()
            .orders
            .len(),
        2
    );
}

#[test]
fn a_blank_form_is_not_filled_and_a_list_left_open_ends_at_its_last_order() {
    let blank = "game = \"g\"\npassword = \"\"   # your password\norders = [\n  \"\",\n]\n";
    assert_eq!(
        forms(blank),
        vec![Form {
            first: 0,
            last: 4,
            gaps: vec![],
            has_password: true,
            filled: false,
            has_orders: true
        }]
    );
    // No `]`: the form ends at the last quoted line, not at the sign-off.
    let open =
        "game = \"g\"\npassword = \"x\"\norders = [\n  \"J NE\",\n  \"W1 SE\",\n\nThanks!\nOrf\n";
    assert_eq!(forms(open)[0].last, 4);
    // A `]` in a link below is not the list's.
    let link = "game = \"g\"\npassword = \"x\"\norders = [\n  \"J NE\",\n\nGet [Outlook for iOS]\n";
    assert_eq!(forms(link)[0].last, 3);
    // One stray key in a signature is no form; two forms are two.
    assert!(forms("Orf\nname = Orf Player\n").is_empty());
    let two = format!(
        "{}\n\nagain:\n{}",
        form_lines().join("\n"),
        form_lines().join("\n")
    );
    assert_eq!(forms(&two).len(), 2);
}

/// What a phone types inside the form: curly quotes, a capital at the
/// start of a key, non-breaking spaces.
#[test]
fn a_phones_form_is_read_as_meant() {
    let text = "Game = “g”\nPlayer = “red”\nTurn = 3\nPassword = “abcd-efgh”\nOrders = [\n\u{a0}\u{a0}“J NE”,\n]\n";
    let f = forms(text);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].filled);
    let kept = f[0].text(text);
    let o = herald::orders::OrderFile::parse("m", &kept).unwrap();
    assert_eq!(o.password, "abcd-efgh");
    assert_eq!(o.orders[0].text, "J NE");
}

/// A player's words between two keys of the form are left out with the
/// rest (and handed back as outside it); words after the list are not
/// taken in.
#[test]
fn words_between_the_keys_are_a_gap_not_the_end() {
    let text = "game = \"g\"\nplayer = \"red\"\nturn = 3\npassword = \"pw\"\nand my orders are:\n\norders = [\n  \"J NE\",\n]\nThanks\nname = Orf\n";
    let f = forms(text);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!((f[0].first, f[0].last, f[0].gaps.clone()), (0, 8, vec![4]));
    let kept = f[0].text(text);
    assert!(
        !kept.contains("my orders") && !kept.contains("Thanks"),
        "{kept}"
    );
    let o = herald::orders::OrderFile::parse("m", &kept).unwrap();
    assert_eq!(o.orders.len(), 1);
    // Four lines of words are too many: two runs, the first without orders.
    let far = text.replace("and my orders are:", "a\nb\nc\nd");
    assert_eq!(forms(&far).len(), 2);
}

/// A mail of `content_type` whose body is `body`, parsed.
fn mail(content_type: &str, body: &str) -> mail_parser::Message<'static> {
    let raw = format!(
        "From: red@example.org\r\nTo: h@example.org\r\nSubject: press\r\nContent-Type: {content_type}\r\n\r\n{body}"
    );
    mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .unwrap()
        .into_owned()
}

#[test]
fn a_bodys_text_is_what_the_sender_wrote_flowed_lines_joined() {
    // Thunderbird's format=flowed: a line ending in a space goes on.
    let m = mail(
        "text/plain; charset=utf-8; format=flowed",
        "press to all\r\nWe hold the north while you take \r\nthe fords; then we \r\nmeet at Kaiserburg.\r\n\r\nOrf\r\n",
    );
    assert_eq!(
        body(&m),
        "press to all\nWe hold the north while you take the fords; then we meet at Kaiserburg.\n\nOrf\n"
    );
    // without format=flowed the breaks are the sender's
    let m = mail("text/plain; charset=utf-8", "take \r\nthe fords\r\n");
    assert_eq!(body(&m), "take \nthe fords\n");
}

#[test]
fn outlooks_empty_paragraphs_leave_no_space_before_the_next() {
    let html = "<html><body><p class=MsoNormal>press to all<o:p></o:p></p>\r\n<p class=MsoNormal><o:p>&nbsp;</o:p></p>\r\n<p class=MsoNormal>We hold the north.<o:p></o:p></p>\r\n<p class=MsoNormal><o:p>&nbsp;</o:p></p>\r\n<p class=MsoNormal>Orf<o:p></o:p></p></body></html>";
    let text = html_text(html);
    for l in text.lines() {
        assert!(!l.starts_with(' ') && !l.starts_with('\u{a0}'), "{text:?}");
    }
    assert!(text.contains("We hold the north."), "{text:?}");
    let m = mail("text/html; charset=utf-8", html);
    assert!(
        body(&m).lines().any(|l| l == "We hold the north."),
        "{:?}",
        body(&m)
    );
}
