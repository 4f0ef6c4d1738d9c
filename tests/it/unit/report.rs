//! Unit tests of `herald::report` (src/report/mod.rs).

use herald::report::*;

#[test]
fn every_template_compiles() {
    for (name, _) in TEMPLATES {
        env()
            .get_template(name)
            .unwrap_or_else(|e| panic!("{name}: {e:#}"));
    }
}

#[test]
fn order_files_round_trip() {
    let t = order_file("g", "red", 3, "pw", &["W1 N".into(), "say \"hi\"".into()]);
    let f = herald::orders::OrderFile::parse("x", &t).unwrap();
    assert_eq!(f.orders[1].text, "say \"hi\"");
    assert_eq!(f.turn, 3);
}
