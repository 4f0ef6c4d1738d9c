//! Unit tests of `herald::host::status_page` (src/host/status_page.rs).

use herald::host::status_page::*;

#[test]
fn escape_leaves_no_markup() {
    let e = escape("<script>alert('x')</script> & \"q\"");
    assert!(!e.contains('<') && !e.contains('>') && !e.contains('"') && !e.contains('\''));
    assert_eq!(escape("a&b"), "a&amp;b");
}
