//! What the tests of the bounded hand-offs share: a bound that logs what it drops, and a
//! busy wait that stands for work per value.

use crate::backpressure::{Bounded, Overflow};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A bound of `capacity` under `overflow` whose dropped values land in the returned log.
pub(crate) fn logged(capacity: usize, overflow: Overflow) -> (Bounded<u64>, Arc<Mutex<Vec<u64>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = log.clone();
    let bound = Bounded::new(capacity)
        .on_full(overflow)
        .on_drop(move |v| l.lock().unwrap().push(v));
    (bound, log)
}

/// Keeps the thread busy for `micros` microseconds.
pub(crate) fn spin(micros: u64) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_micros(micros) {
        std::hint::spin_loop();
    }
}
