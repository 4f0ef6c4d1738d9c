//! Unit tests of `herald::report` (src/report/mod.rs).

use herald::report::*;

#[test]
fn order_files_round_trip() {
    let t = order_file("g", "red", 3, "pw", &["W1 N".into(), "say \"hi\"".into()]);
    let f = herald::orders::OrderFile::parse("x", &t).unwrap();
    assert_eq!(f.orders[1].text, "say \"hi\"");
    assert_eq!(f.turn, 3);
}

/// The order form's list: orders that differ only in their target on one
/// line (`D 1910 | 1911`), each alternative the first order with its last
/// word replaced; a line too wide for a mail ends with how many are left
/// out.
#[test]
fn legal_orders_are_listed_one_a_line_with_targets_grouped() {
    let items: Vec<String> = [
        "J NE",
        "J NW",
        "W4 S",
        "W4 SW",
        "W4 NW",
        "W4 NW 2",
        "pass",
        "fortify 8,0",
        "fortify 8,1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(
        listing(&items, 72),
        vec![
            "J NE | NW",
            "W4 S | SW | NW",
            "W4 NW 2",
            "pass",
            "fortify 8,0 | 8,1"
        ]
    );
    let many: Vec<String> = (0..40).map(|i| format!("C1 {:04}", 1900 + i)).collect();
    let lines = listing(&many, 72);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].chars().count() + 4 <= 72, "{}", lines[0]);
    let shown = lines[0]
        .split(" | ")
        .filter(|x| !x.starts_with('…'))
        .count();
    assert!(
        lines[0].ends_with(&format!("| … ({} more)", 40 - shown)),
        "{}",
        lines[0]
    );
}
