//! Unit tests of `herald::board::picture` (src/board/picture.rs).

#[test]
fn the_archive_names_no_one_you() {
    assert_eq!(herald::board::picture::unnamed("red (you)"), "red");
    assert_eq!(
        herald::board::picture::unnamed("Orfburg (orfburg, you); lost C1"),
        "Orfburg (orfburg); lost C1"
    );
    assert_eq!(herald::board::picture::unnamed("White, you"), "White");
    assert_eq!(
        herald::board::picture::unnamed("a force of yours, your own"),
        "a force of yours, your own"
    );
}
