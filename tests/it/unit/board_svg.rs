//! Unit tests of `herald::board::svg` (src/board/svg.rs).

use herald::board::hex::Hex;
use herald::board::svg::*;

#[test]
fn numbers_are_fixed() {
    assert_eq!(num(1.0), "1");
    assert_eq!(num(-0.04), "0");
    assert_eq!(num(2.25), "2.2");
    assert_eq!(num(12.36), "12.4");
    assert_eq!(num(-3.5), "-3.5");
    assert_eq!(num(0.15), "0.1");
    assert_eq!(num(-0.04999), "0");
    assert_eq!(num(1e15), "1000000000000000");
}

/// The fast path prints exactly what exact rounding prints.
#[test]
fn fast_numbers_equal_exact_formatting() {
    let exact = |x: f64| {
        let s = format!("{x:.1}");
        let s = if s == "-0.0" { "0.0".to_string() } else { s };
        s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
    };
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for i in 0..200_000u64 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let x = match i % 4 {
            0 => (state % 2_000_001) as f64 / 1000.0 - 1000.0,
            1 => (state % 20_001) as f64 / 20.0 - 500.0,
            2 => ((state % 1000) as f64).sqrt() * 17.3 - 250.0,
            _ => f64::from_bits(state) % 5000.0,
        };
        if x.is_finite() {
            assert_eq!(num(x), exact(x), "{x:?}");
        }
    }
}

#[test]
fn escapes() {
    assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
}

#[test]
fn flat_neighbours_are_equally_far() {
    let g = HexGrid::flat(10.0, 0.0, 0.0);
    let p = HexGrid::pointy(10.0, 0.0, 0.0);
    for grid in [g, p] {
        let c = grid.centre(Hex::ORIGIN);
        for d in herald::board::Dir::ALL {
            let n = grid.centre(Hex::ORIGIN.step(d));
            let dist = ((n.0 - c.0).powi(2) + (n.1 - c.1).powi(2)).sqrt();
            assert!((dist - 10.0 * 3f64.sqrt()).abs() < 1e-9, "{d:?} {dist}");
        }
    }
    // north is straight up on flat-topped boards
    let n = g.centre(Hex::new(0, -1));
    assert!(n.0.abs() < 1e-9 && n.1 < 0.0);
}

#[test]
fn rasterises_with_the_embedded_font() {
    let mut s = Svg::new(100.0, 50.0, "t");
    s.text((50.0, 25.0), 20.0, INK, "A1");
    let png = png(&s.finish()).unwrap();
    assert_eq!(&png[1..4], b"PNG");
}
