//! Unit tests of `herald::store::limits` (src/store/limits.rs).

use herald::store::limits::*;

#[test]
fn limits_refuse_without_reading_and_name_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.toml");
    std::fs::write(&p, vec![b'x'; 2000]).unwrap();
    let e = read(&p, 1024, "an order file").unwrap_err();
    assert!(e.problems[0].contains("at most 1024 bytes (1 KiB)"), "{e}");
    assert_eq!(read(&p, 2000, "x").unwrap().len(), 2000);
    let e = read(dir.path(), 10, "an order file").unwrap_err();
    assert!(e.problems[0].contains("not a regular file"), "{e}");
    std::fs::write(&p, [0xff, 0xfe]).unwrap();
    assert!(read_text(&p, 10, "an order file").is_err());
}
