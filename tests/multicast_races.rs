//! The newer multicasting operators with subscribers racing on real threads: whatever the
//! interleaving, the source runs as often as it should and every subscriber keeps the Rx
//! rules.

use rx::prelude::*;
use rx::testing::TestObserver;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

#[test]
fn auto_connect_with_racing_subscribers_connects_once() {
    for _ in 0..50 {
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        let shared = rx::source::defer(move || {
            r.fetch_add(1, Ordering::SeqCst);
            rx::source::from_iter(0..100)
        })
        .replay(100)
        .auto_connect(4);
        let observers: Vec<TestObserver<i32>> = (0..4).map(|_| TestObserver::new()).collect();
        let threads: Vec<_> = observers
            .iter()
            .map(|o| {
                let (shared, o) = (shared.clone(), o.clone());
                thread::spawn(move || {
                    shared.subscribe_observer(o);
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        for o in &observers {
            o.assert_rules();
            o.assert_completed();
            assert_eq!(o.values(), (0..100).collect::<Vec<_>>());
        }
    }
}
