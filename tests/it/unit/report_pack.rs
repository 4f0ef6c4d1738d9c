//! Unit tests of `herald::report::pack` (src/report/pack.rs).

use herald::report::pack::*;

const PAGE: &str = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<title>T é</title>\n</head>\n<body>\n<h1>H — 1</h1>\n<svg><text>0101</text></svg>\n<pre id=\"report\">turn 3 → 4 &amp; more</pre>\n<script>var x = 1;</script>\n</body>\n</html>\n";

#[test]
fn a_packed_page_unpacks_to_its_bytes_and_keeps_its_report_readable() {
    let p = pack(PAGE);
    assert!(is_packed(&p));
    assert!(p.contains("<pre id=\"report\">turn 3 → 4 &amp; more</pre>"));
    assert!(p.contains("<title>T é</title>") && p.contains("<h1>H — 1</h1>"));
    assert!(!p.contains("<svg"), "the board travels packed");
    assert!(p.lines().all(|l| l.len() <= 998));
    assert_eq!(unpack(&p).unwrap(), (PAGE.to_string(), true));
    // a mail program's line ends
    assert_eq!(
        unpack(&p.replace('\n', "\r\n")).unwrap(),
        (PAGE.to_string(), true)
    );
}

#[test]
fn compact_json_keeps_every_value_and_key_order() {
    let j = "{\n  \"b\": [1, 2],\n  \"a\": \"x \\\" y\\\\\",\n  \"c\": \"two  spaces\"\n}\n";
    let c = compact_json(j);
    assert_eq!(c, r#"{"b":[1,2],"a":"x \" y\\","c":"two  spaces"}"#);
    let a: serde_json::Value = serde_json::from_str(j).unwrap();
    let b: serde_json::Value = serde_json::from_str(&c).unwrap();
    assert_eq!(a, b);
}

#[test]
fn an_edit_outside_or_inside_the_payload_is_seen() {
    let p = pack(PAGE);
    let outside = p.replacen("turn 3", "turn 4", 1);
    assert_eq!(unpack(&outside).unwrap(), (PAGE.to_string(), false));
    let i = p.find(OPEN).unwrap() + OPEN.len() + 10;
    let mut bytes = p.clone().into_bytes();
    bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
    let inside = String::from_utf8(bytes).unwrap();
    match unpack(&inside) {
        Err(_) => {}
        Ok((page, same)) => assert!(page != PAGE || !same),
    }
    assert!(unpack("<html><pre id=\"report\">x</pre></html>").is_err());
}
