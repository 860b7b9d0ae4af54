//! A 64-operator chain: type-checking and code generation stay linear in the chain's length
//! (each operator nests one type and one impl, as iterator adapters do), so this compiles in
//! seconds. The expected values come from the same pipeline written as a plain loop.

use rx::prelude::*;
use rx::source::from_iter;

// One round is four operators: map, filter, scan, distinct_until_changed.
macro_rules! rounds {
    ($obs:expr; $($round:literal)*) => {
        $obs $(
            .map(|v: u64| v.wrapping_mul(3).wrapping_add($round))
            .filter(|v: &u64| v % 7 != 0)
            .scan(0u64, |acc: u64, v: u64| acc.wrapping_add(v) % 1_000_003)
            .distinct_until_changed()
        )*
    };
}

const ROUNDS: u64 = 15;

/// The same pipeline by hand: per round, a running state for scan and for the last value.
fn expected() -> Vec<u64> {
    let mut acc = [0u64; ROUNDS as usize];
    let mut last = [None::<u64>; ROUNDS as usize];
    let mut out = Vec::new();
    let mut skipped_inner = 0;
    'values: for v in (0..5000u64).skip(2) {
        let mut v = v;
        for r in 0..ROUNDS as usize {
            v = v.wrapping_mul(3).wrapping_add(r as u64 + 1);
            if v % 7 == 0 {
                continue 'values;
            }
            acc[r] = acc[r].wrapping_add(v) % 1_000_003;
            v = acc[r];
            if last[r] == Some(v) {
                continue 'values;
            }
            last[r] = Some(v);
        }
        // take(100).skip(1).take(50): the values from the 2nd to the 51st.
        skipped_inner += 1;
        if skipped_inner == 1 {
            continue;
        }
        out.push(v);
        if out.len() == 50 {
            break;
        }
    }
    out
}

#[test]
fn sixty_four_operators() {
    // skip, 15 rounds of 4, take, skip, take: 64 operators.
    let mut seen = Vec::new();
    rounds!(from_iter(0..5000u64).skip(2); 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
        .take(100)
        .skip(1)
        .take(50)
        .subscribe(|v| seen.push(v));
    assert_eq!(seen, expected());
    assert_eq!(seen.len(), 50);
}
