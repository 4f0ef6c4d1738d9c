//! Unit tests of `herald::board::raster` (src/board/raster.rs).

use herald::board::raster::{distance, Nearest};

/// The search by green finds what trying every entry finds, ties to
/// the lowest index included.
#[test]
fn nearest_is_the_nearest_of_all() {
    let mut x: u32 = 12345;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    for size in [1usize, 2, 17, 200, 256] {
        let mut pal: Vec<[u8; 3]> = (0..size)
            .map(|_| {
                let v = next();
                [v as u8, (v >> 8) as u8 & 0xf0, (v >> 16) as u8]
            })
            .collect();
        // equal entries, so ties are tried
        if size > 4 {
            pal[3] = pal[1];
        }
        let near = Nearest::new(&pal);
        for _ in 0..3000 {
            let v = next();
            let c = [v as u8, (v >> 8) as u8, (v >> 16) as u8];
            let all = pal
                .iter()
                .enumerate()
                .min_by_key(|(i, p)| (distance(**p, c), *i))
                .map(|(i, _)| i as u8)
                .unwrap();
            assert_eq!(near.find(c), all, "{c:?} in a palette of {size}");
        }
    }
}
