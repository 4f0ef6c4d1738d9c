//! Unit tests of `herald::chain::dice` (src/chain/dice.rs).

use herald::chain::body::OrderRecord;
use herald::chain::dice::*;
use rand_chacha::rand_core::RngCore;

fn rec(player: &str, text: &str) -> OrderRecord {
    OrderRecord {
        player: player.into(),
        text: text.into(),
        sha256: herald::chain::canon::sha256_hex(text.as_bytes()),
        read: text.split(';').map(str::to_string).collect(),
        nmr: None,
        bot: None,
        received: None,
    }
}

#[test]
fn the_orders_steer_the_stream_and_the_same_inputs_repeat_it() {
    let a = [rec("red", "x"), rec("blue", "y")];
    let b = [rec("red", "x"), rec("blue", "z")];
    let draw = |o: &[OrderRecord], seed: &str| phase_stream(2, seed, "g", 3, "move", o).next_u64();
    assert_eq!(draw(&a, "s"), draw(&a, "s"));
    assert_ne!(draw(&a, "s"), draw(&b, "s"));
    assert_ne!(draw(&a, "s"), draw(&a, "t"));
    // the orders count, not their order within a file
    let c = [rec("red", "x;w"), rec("blue", "y")];
    let d = [rec("red", "w;x"), rec("blue", "y")];
    assert_eq!(draw(&c, "s"), draw(&d, "s"));
    // format 1 ignores the orders
    assert_eq!(
        phase_stream(1, "s", "g", 3, "move", &a).next_u64(),
        phase_stream(1, "s", "g", 3, "move", &b).next_u64()
    );
}
