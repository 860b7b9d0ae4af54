//! [`ObservableExt::flat_map`](crate::ObservableExt::flat_map): the
//! [flattening engine](crate::engine::flatten) in its merging mode, every inner subscribed as
//! it arrives.

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::source::{create_owned, from_iter, just, throw};
    use crate::testing::TestObserver;
    use std::sync::mpsc;
    use std::thread;

    #[test]
    fn maps_and_merges_synchronous_inners() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .flat_map(|v| from_iter(0..v).map(move |i| v * 10 + i))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Next(10),
            Next(20),
            Next(21),
            Next(30),
            Next(31),
            Next(32),
            Completed,
        ]);
    }

    #[test]
    fn just_into_just() {
        let mut seen = Vec::new();
        let handle = just(1)
            .flat_map(|v| just(v * 2))
            .subscribe(|v| seen.push(v));
        assert_eq!(seen, [2]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn nested_flat_maps_borrow_from_the_stack() {
        let offset = 100;
        let mut seen = Vec::new();
        from_iter(1..=2)
            .flat_map(|a| from_iter(1..=2).flat_map(move |b| just(a * 10 + b + offset)))
            .subscribe(|v| seen.push(v));
        assert_eq!(seen, [111, 112, 121, 122]);
    }

    #[test]
    fn inner_error_stops_the_outer_and_is_delivered_once() {
        let o = TestObserver::new();
        let mut mapped = 0;
        from_iter(0..)
            .flat_map(|v| {
                mapped += 1;
                if v == 1 {
                    throw(Error::msg("bad")).boxed()
                } else {
                    just(v).boxed()
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(0), Error(Error::msg("bad"))]);
        assert_eq!(mapped, 2);
    }

    #[test]
    fn completes_only_after_the_outer_and_every_inner() {
        // Inners that complete later, from other threads.
        let (tx, rx) = mpsc::channel();
        let o = TestObserver::new();
        from_iter(0..3)
            .flat_map(|v| {
                let tx = tx.clone();
                create_owned(move |emitter| tx.send((v, emitter)).unwrap())
            })
            .subscribe_observer(o.clone());
        drop(tx);
        o.assert_not_terminated();
        let emitters: Vec<_> = rx.iter().collect();
        assert_eq!(emitters.len(), 3);
        let mut threads = Vec::new();
        for (v, mut emitter) in emitters {
            threads.push(thread::spawn(move || {
                emitter.on_next(v);
                emitter.on_completed();
            }));
        }
        for t in threads {
            t.join().unwrap();
        }
        let mut values = o.values();
        values.sort();
        assert_eq!(values, [0, 1, 2]);
        o.assert_completed();
    }

    #[test]
    fn dispose_reaches_running_inners() {
        let (tx, rx) = mpsc::channel();
        let o = TestObserver::<i32>::new();
        let handle = from_iter(0..2)
            .flat_map(|_| {
                let tx = tx.clone();
                create_owned(move |emitter| tx.send(emitter).unwrap())
            })
            .subscribe_observer(o.clone());
        let emitters: Vec<_> = rx.try_iter().collect();
        assert!(emitters.iter().all(|e| !e.is_disposed()));
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(handle.is_disposed());
        assert!(emitters.iter().all(|e| e.is_disposed()));
        o.assert_notifications(&[]);
    }
}
