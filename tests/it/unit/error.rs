//! Unit tests of `herald::error` (src/error.rs).

use herald::error::*;

#[test]
fn each_kind_has_its_own_exit_status() {
    let codes = [Kind::Refused, Kind::Usage, Kind::Busy, Kind::Internal].map(Kind::exit_code);
    assert_eq!(codes, [1, 2, 3, 70]);
    let e = Error::internal("a thread failed");
    assert_eq!(
        (e.exit_code(), e.to_string().as_str()),
        (70, "internal: a thread failed")
    );
}

#[test]
fn a_problem_names_what_is_known_of_where() {
    assert_eq!(Problem::at("o.toml", 3, "bad").to_string(), "o.toml:3: bad");
    assert_eq!(Problem::in_file("o.toml", "bad").to_string(), "o.toml: bad");
    let e = Error::from(vec![Problem::at("a", 1, "x"), Problem::in_file("b", "y")]);
    assert_eq!(
        (e.kind, e.problems),
        (Kind::Refused, vec!["a:1: x".into(), "b: y".into()])
    );
}

#[test]
fn no_room_is_told_by_the_kind_of_io_error() {
    let full = std::io::Error::from_raw_os_error(libc::ENOSPC);
    let big = std::io::Error::from_raw_os_error(libc::EFBIG);
    let denied = std::io::Error::from_raw_os_error(libc::EACCES);
    assert_eq!(no_room(&full), Some(NoRoom::DiskFull));
    assert_eq!(no_room(&big), Some(NoRoom::FileTooLarge));
    assert_eq!(no_room(&denied), None);
}
