//! Unit tests of `herald::host::maildir` (src/host/maildir.rs).

use herald::host::maildir::*;

#[test]
fn the_header_is_cut_at_the_first_blank_line() {
    assert_eq!(
        cut_header(b"A: 1\r\nB: 2\r\n\r\nbody".to_vec()),
        b"A: 1\r\nB: 2\r\n\r\n"
    );
    assert_eq!(cut_header(b"A: 1\n\nbody\n\n".to_vec()), b"A: 1\n\n");
    assert_eq!(cut_header(b"A: 1\nB: 2".to_vec()), b"A: 1\nB: 2");
}

#[test]
fn unique_names_ignore_the_info_part() {
    assert_eq!(unique("123.M1P2.host:2,S"), "123.M1P2.host");
    assert_eq!(unique("123.M1P2.host"), "123.M1P2.host");
}
