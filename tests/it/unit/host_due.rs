//! Unit tests of `herald::host::due` (src/host/due.rs).

use herald::host::due::*;

#[test]
fn spans_read_as_people_write_them() {
    assert_eq!(span(0), "0m");
    assert_eq!(span(2 * 3600), "2h");
    assert_eq!(span(86400 + 2 * 3600 + 60), "1d 2h 1m");
}
