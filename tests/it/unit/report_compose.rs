//! Unit tests of `herald::report::compose` (src/report/compose.rs).

use herald::report::compose::*;
use serde_json::Value;

#[test]
fn script_safe_json() {
    let view = serde_json::json!({"text": "</script><!-- x"});
    let p = Page {
        game: "g",
        title: "G",
        id: "id",
        player: "red",
        turn: 3,
        phase: "move",
        moderator: Some("gm@example.org"),
        subject: subject("id", 3),
        due: true,
        view: &view,
        orders: None,
        mine: vec!["</script>".into()],
        count: Some("game turn 2 of 15: </script>".into()),
        turned: false,
        board_lines: None,
    };
    let s = data_json(&p);
    assert!(!s.contains("</") && !s.contains("<!--"), "{s}");
    let back: Value = serde_json::from_str(&s).unwrap();
    assert_eq!(back["view"]["text"], "</script><!-- x");
    assert_eq!(back["mine"][0], "</script>");
    assert_eq!(back["subject"], "[id] orders for turn 3");
    assert_eq!(back["count"], "game turn 2 of 15: </script>");
}

/// The board drawn as text is found in the text report by its lines.
#[test]
fn the_text_board_is_found_by_its_lines() {
    let text = "head\nline two\n  a b\n  c d\nafter\n";
    assert_eq!(board_lines(text, "  a b\n  c d\n"), Some([2, 2]));
    assert_eq!(board_lines(text, "nowhere"), None);
    assert_eq!(board_lines(text, ""), None);
}

#[test]
fn the_script_cannot_end_its_element() {
    assert!(!SCRIPT.contains("</script"));
    assert!(!SCRIPT.contains("<!--"));
}
