//! Unit tests of `herald::games::hexwar::piece` (src/games/hexwar/piece.rs).

use herald::board::Dir;
use herald::games::hexwar::piece::*;

#[test]
fn packs_and_unpacks() {
    for kind in 0..15 {
        for side in 0..2 {
            for f in Dir::ALL {
                let p = Piece::new(kind, side, f);
                assert_ne!(p.0, 0);
                assert_eq!((p.kind(), p.side(), p.facing()), (kind, side, f));
            }
        }
    }
}
