//! The merge family under real threads: every value delivered exactly once, never two
//! `on_next` calls at once, exactly one terminal event after the last value, and disposal
//! that reaches sources running on other threads.

use rx::prelude::*;
use rx::schedulers::NewThread;
use rx::source::{OwnedEmitter, create_owned, from_iter};
use rx::testing::TestObserver;
use rx::{Error, Notification};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Barrier, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

type Threads = Arc<Mutex<Vec<JoinHandle<()>>>>;

/// A source that emits `values` from a thread of its own, then completes. Its threads are
/// collected in `threads` so a test can join them.
fn on_a_thread(
    values: Range<u64>,
    threads: &Threads,
) -> rx::source::CreateOwned<u64, impl FnOnce(OwnedEmitter<u64>) + Clone + use<>> {
    let threads = threads.clone();
    create_owned(move |mut emitter: OwnedEmitter<u64>| {
        let t = thread::spawn(move || {
            for v in values {
                if emitter.is_disposed() {
                    return;
                }
                emitter.on_next(v);
                // A producer that never yields can outrun the one thread delivering for
                // as long as the OS lets it, and the queue of a merge has no bound.
                if v % 64 == 0 {
                    thread::yield_now();
                }
            }
            emitter.on_completed();
        });
        threads.lock().unwrap().push(t);
    })
}

fn join(threads: &Threads) {
    loop {
        let Some(t) = threads.lock().unwrap().pop() else {
            return;
        };
        t.join().expect("a source thread panicked");
    }
}

/// Waits for `done`, at most 30 s (these tests run real threads).
fn wait_for(done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "timed out");
        thread::sleep(Duration::from_millis(1));
    }
}

/// A pass-through that fails if two calls overlap; it spins a little inside, to widen the
/// window in which an overlap would be seen.
fn exclusive<T>() -> impl FnMut(T) -> T + Clone + Send {
    let busy = Arc::new(AtomicBool::new(false));
    move |v| {
        assert!(!busy.swap(true, SeqCst), "two on_next calls at once");
        for _ in 0..64 {
            std::hint::spin_loop();
        }
        busy.store(false, SeqCst);
        v
    }
}

fn sorted(mut values: Vec<u64>) -> Vec<u64> {
    values.sort_unstable();
    values
}

const SOURCES: u64 = 8;
const EACH: u64 = 5_000;

#[test]
fn merge_source_delivers_every_value_of_n_threads_once() {
    let threads = Threads::default();
    let o = TestObserver::new();
    rx::source::merge((0..SOURCES).map(|k| on_a_thread(k * EACH..(k + 1) * EACH, &threads)))
        .map(exclusive())
        .subscribe_observer(o.clone());
    join(&threads);
    o.assert_completed();
    assert_eq!(sorted(o.values()), (0..SOURCES * EACH).collect::<Vec<_>>());
}

#[test]
fn flat_map_with_inners_on_new_threads() {
    let o = TestObserver::new();
    from_iter(0..SOURCES)
        .flat_map(|k| from_iter(k * EACH..(k + 1) * EACH).subscribe_on(NewThread))
        .map(exclusive())
        .subscribe_observer(o.clone());
    wait_for(|| o.is_terminated());
    o.assert_completed();
    assert_eq!(sorted(o.values()), (0..SOURCES * EACH).collect::<Vec<_>>());
}

#[test]
fn merge_with_two_threads() {
    let threads = Threads::default();
    let o = TestObserver::new();
    on_a_thread(0..EACH, &threads)
        .merge_with(on_a_thread(EACH..2 * EACH, &threads))
        .map(exclusive())
        .subscribe_observer(o.clone());
    join(&threads);
    o.assert_completed();
    assert_eq!(sorted(o.values()), (0..2 * EACH).collect::<Vec<_>>());
}

#[test]
fn the_values_of_each_source_keep_their_order() {
    let threads = Threads::default();
    let o = TestObserver::new();
    rx::source::merge((0..4).map(|k| on_a_thread(k * EACH..(k + 1) * EACH, &threads)))
        .subscribe_observer(o.clone());
    join(&threads);
    let values = o.values();
    for k in 0..4 {
        let of_k: Vec<_> = values.iter().filter(|v| **v / EACH == k).copied().collect();
        assert_eq!(of_k, (k * EACH..(k + 1) * EACH).collect::<Vec<_>>());
    }
}

#[test]
fn concat_keeps_the_order_when_inners_complete_on_other_threads() {
    let threads = Threads::default();
    let o = TestObserver::new();
    let inners: Vec<_> = (0..SOURCES)
        .map(|k| on_a_thread(k * 1000..(k + 1) * 1000, &threads))
        .collect();
    from_iter(inners)
        .concat()
        .map(exclusive())
        .subscribe_observer(o.clone());
    wait_for(|| o.is_terminated());
    join(&threads);
    o.assert_completed();
    assert_eq!(o.values(), (0..SOURCES * 1000).collect::<Vec<_>>());
}

#[test]
fn an_error_racing_values_is_the_one_terminal_event_and_stops_the_others() {
    for _ in 0..10 {
        let threads = Threads::default();
        let o = TestObserver::new();
        let failing = {
            let threads = threads.clone();
            create_owned(move |emitter: OwnedEmitter<u64>| {
                // No values of its own: a thread that emits a value may find nobody
                // delivering and become the deliverer, and four endless producers can keep
                // it draining for as long as they outrun it, so it would never reach its
                // error. Serialisation promises delivery, not fairness between producers.
                threads.lock().unwrap().push(thread::spawn(move || {
                    emitter.on_error(Error::msg("boom"));
                }))
            })
        };
        let endless: Vec<_> = (0..4).map(|_| on_a_thread(0..u64::MAX, &threads)).collect();
        rx::source::merge(
            endless
                .into_iter()
                .map(|s| s.boxed())
                .chain([failing.boxed()]),
        )
        .map(exclusive())
        .subscribe_observer(o.clone());
        // The endless sources only stop because the error disposed them.
        join(&threads);
        o.assert_error("boom");
    }
}

#[test]
fn switch_map_never_goes_back_to_a_replaced_inner() {
    let threads = Threads::default();
    let o = TestObserver::new();
    let inner_threads = threads.clone();
    on_a_thread(0..200, &threads)
        .switch_map(move |k| on_a_thread(k * 1000..k * 1000 + 50, &inner_threads))
        .map(exclusive())
        .subscribe_observer(o.clone());
    wait_for(|| o.is_terminated());
    join(&threads);
    o.assert_completed();
    let inners: Vec<u64> = o.values().iter().map(|v| v / 1000).collect();
    assert!(
        inners.windows(2).all(|w| w[0] <= w[1]),
        "a replaced inner delivered"
    );
    // The last inner is never replaced, so it runs to its end.
    let last: Vec<_> = o.values().into_iter().filter(|v| v / 1000 == 199).collect();
    assert_eq!(last, (199_000..199_050).collect::<Vec<_>>());
}

#[test]
fn take_until_a_notifier_on_another_thread_stops_the_source() {
    let threads = Threads::default();
    let o = TestObserver::new();
    let fire = Arc::new(Barrier::new(2));
    let notifier = {
        let (threads, fire) = (threads.clone(), fire.clone());
        create_owned(move |mut emitter: OwnedEmitter<()>| {
            threads.lock().unwrap().push(thread::spawn(move || {
                fire.wait();
                emitter.on_next(());
            }))
        })
    };
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    on_a_thread(0..u64::MAX, &threads)
        .take_until(notifier)
        .map(move |v| {
            // Let the notifier fire once values flow.
            if counter.fetch_add(1, SeqCst) == 100 {
                fire.wait();
            }
            v
        })
        .subscribe_observer(o.clone());
    join(&threads);
    o.assert_completed();
    assert!(o.value_count() > 100);
}

#[test]
fn amb_delivers_the_values_of_one_source_only() {
    for _ in 0..20 {
        let threads = Threads::default();
        let o = TestObserver::new();
        on_a_thread(0..1000, &threads)
            .amb_with(on_a_thread(1000..2000, &threads))
            .map(exclusive())
            .subscribe_observer(o.clone());
        join(&threads);
        let values = o.values();
        let winner = values[0] / 1000;
        assert_eq!(
            values,
            (winner * 1000..(winner + 1) * 1000).collect::<Vec<_>>()
        );
        o.assert_completed();
    }
}

#[test]
fn dispose_from_another_thread_stops_every_source() {
    let threads = Threads::default();
    let o = TestObserver::new();
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    let handle = rx::source::merge((0..4).map(|_| on_a_thread(0..u64::MAX, &threads)))
        .map(move |v| {
            counter.fetch_add(1, SeqCst);
            v
        })
        .subscribe_observer(o.clone());
    wait_for(|| seen.load(SeqCst) > 1000);
    let disposer = thread::spawn(move || handle.dispose());
    disposer.join().unwrap();
    // The endless sources stop only because their handles were disposed.
    join(&threads);
    let after = o.value_count();
    thread::sleep(Duration::from_millis(10));
    assert_eq!(o.value_count(), after);
    o.assert_not_terminated();
    assert!(
        !o.notifications().iter().any(Notification::is_terminal),
        "disposal sends no terminal event"
    );
}
