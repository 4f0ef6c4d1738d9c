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
