//! Unit tests of `herald::board::ascii` (src/board/ascii.rs).

use herald::board::ascii::*;
use herald::board::hex::Hex;

#[test]
fn draws_every_hex_once() {
    let pic = hexagon(2, &|_| "..".to_string());
    assert_eq!(pic.matches("..").count(), 19);
    assert!(pic.starts_with("    a  b  c  d  e"));
    let pic = hexagon(1, &|h| {
        if h == Hex::ORIGIN {
            "()".into()
        } else {
            "..".into()
        }
    });
    // centre sits in the middle column, middle line
    let lines: Vec<&str> = pic.lines().collect();
    assert_eq!(lines.len(), 7);
    assert_eq!(&lines[3][7..9], "()");
}
