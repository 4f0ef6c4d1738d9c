//! Unit tests of `herald::games::norse_wars::setup` (src/games/norse_wars/setup.rs).

use herald::board::Hex;
use herald::games::norse_wars::ruleset::Ruleset;
use herald::games::norse_wars::setup::*;
use herald::games::norse_wars::state::State;

fn table(players: usize) -> (i32, usize, usize) {
    let rules = Ruleset::parse(herald::games::norse_wars::NorseWars::RULESET_TEXT).unwrap();
    let s = rules.scaling_for(players).unwrap();
    (s.radius, s.warriors as usize, s.shields)
}

fn geometry(players: usize) -> (i32, Vec<Hex>, Vec<Hex>) {
    let (radius, warriors, _) = table(players);
    let jarls = jarl_positions(players, radius);
    let mut occupied = Vec::new();
    for &j in &jarls {
        occupied.push(j);
        occupied.extend(formation(j, radius, warriors));
    }
    occupied.sort();
    (radius, jarls, occupied)
}

#[test]
fn jarls_are_on_the_edge_and_apart() {
    for n in 2..=6 {
        let (radius, jarls, occupied) = geometry(n);
        assert!(jarls.iter().all(|j| j.length() == radius), "{n} players");
        let mut o = occupied.clone();
        o.dedup();
        assert_eq!(o.len(), occupied.len(), "{n} players: pieces overlap");
        assert!(!occupied.contains(&Hex::ORIGIN));
    }
}

#[test]
fn corner_seats_get_the_same_formation_turned() {
    for n in [2, 3, 4, 6] {
        let (radius, warriors, _) = table(n);
        let jarls = jarl_positions(n, radius);
        let f0 = formation(jarls[0], radius, warriors);
        for &j in &jarls[1..] {
            let k = (0..6)
                .find(|&k| jarls[0].rotate(k) == j)
                .expect("corner seats are rotations");
            let turned: Vec<Hex> = f0.iter().map(|h| h.rotate(k)).collect();
            let mut a = formation(j, radius, warriors);
            let mut b = turned;
            a.sort();
            b.sort();
            assert_eq!(a, b, "{n} players");
        }
    }
}

#[test]
fn shield_counts_balance_as_ruled() {
    // The ruleset's counts balance exactly for 2, 3, 4 and 6 players.
    for n in [2, 3, 4, 6] {
        let (radius, jarls, occupied) = geometry(n);
        let count = table(n).2;
        let p = placements(radius, &jarls, &occupied, count);
        assert_eq!(p.imbalance, 0, "{n} players, {count} shields");
        assert!(!p.sets.is_empty());
        for set in &p.sets {
            assert_eq!(set.len(), count);
            for h in set {
                assert!(h.length() > 0 && h.length() < radius && !occupied.contains(h));
            }
            assert!(jarls.iter().all(|&j| State::free_line(set, j)));
        }
    }
    // The text's 4 shields for 3 players cannot be balanced exactly: 3 is used.
    let (radius, jarls, occupied) = geometry(3);
    assert!(placements(radius, &jarls, &occupied, 4).imbalance > 0);
    // Five players: no exact balance at the table's 3.
    let (radius, jarls, occupied) = geometry(5);
    let p = placements(radius, &jarls, &occupied, 3);
    assert!(p.imbalance > 0);
    assert!(!p.sets.is_empty());
}
