//! Unit tests of `herald::rng` (src/rng.rs).

use herald::rng::*;
use rand_chacha::rand_core::RngCore;

#[test]
fn phase_streams_are_fixed_and_distinct() {
    let mut a = phase_rng("42", "g", 1, "move");
    let mut b = phase_rng("42", "g", 1, "move");
    let mut c = phase_rng("42", "g", 2, "move");
    let (x, y, z) = (a.next_u64(), b.next_u64(), c.next_u64());
    assert_eq!(x, y);
    assert_ne!(x, z);
}

#[test]
fn dice_record_what_they_roll_and_quiet_dice_roll_the_same() {
    let mut a = from_u64(5);
    let mut b = from_u64(5);
    let mut loud = Dice::recording(&mut a);
    let mut quiet = Dice::quiet(&mut b);
    for i in 0..20 {
        let x = loud.roll(6, Seen::Only(vec![1]), |v| format!("roll {i}: {v}"));
        let y = quiet.roll(6, Seen::All, |_| unreachable!("quiet dice tell nothing"));
        assert_eq!(x, y);
        assert!((1..=6).contains(&x));
    }
    let log = loud.rolls();
    assert_eq!(log.len(), 20);
    assert_eq!(log[3].what, format!("roll 3: {}", log[3].value));
    assert_eq!(log[3].seen, Seen::Only(vec![1]));
    assert!(quiet.rolls().is_empty());
}

#[test]
fn below_is_in_range_and_covers_it() {
    let mut r = from_u64(7);
    let mut seen = [0u32; 6];
    for _ in 0..6000 {
        seen[below(&mut r, 6) as usize] += 1;
    }
    assert!(seen.iter().all(|&n| n > 800 && n < 1200), "{seen:?}");
}
