//! zip, combine_latest and with_latest_from with sources emitting from different threads,
//! and a downstream that makes a source emit again re-entrantly.

use rx::Notification::{Completed, Next};
use rx::prelude::*;
use rx::source::{CreateOwned, OwnedEmitter, create_owned};
use rx::testing::TestObserver;
use std::sync::{Arc, Barrier, Mutex};
use std::thread::{self, JoinHandle};

const N: usize = 20_000;

/// A source that emits `0..n` and completes from a thread of its own, which starts emitting
/// once every thread sharing `start` is ready.
fn counting_thread(
    n: usize,
    start: Arc<Barrier>,
    threads: Arc<Mutex<Vec<JoinHandle<()>>>>,
) -> CreateOwned<usize, impl FnOnce(OwnedEmitter<usize>)> {
    create_owned(move |mut emitter: OwnedEmitter<usize>| {
        threads.lock().unwrap().push(thread::spawn(move || {
            start.wait();
            for i in 0..n {
                if emitter.is_disposed() {
                    return;
                }
                emitter.on_next(i);
            }
            emitter.on_completed();
        }));
    })
}

fn join(threads: &Mutex<Vec<JoinHandle<()>>>) {
    for t in threads.lock().unwrap().drain(..) {
        t.join().unwrap();
    }
}

#[test]
fn zip_from_two_threads_delivers_every_pair_once_in_order() {
    for _ in 0..5 {
        let start = Arc::new(Barrier::new(2));
        let threads = Arc::default();
        let o = TestObserver::new();
        counting_thread(N, start.clone(), Arc::clone(&threads))
            .zip(counting_thread(N, start, Arc::clone(&threads)))
            .subscribe_observer(o.clone());
        join(&threads);
        o.assert_completed();
        let values = o.values();
        assert_eq!(values.len(), N);
        assert!(
            values
                .iter()
                .enumerate()
                .all(|(i, &(a, b))| a == i && b == i)
        );
    }
}

#[test]
fn zip_of_unequal_threads_completes_after_the_shorter() {
    let start = Arc::new(Barrier::new(2));
    let threads = Arc::default();
    let o = TestObserver::new();
    counting_thread(N, start.clone(), Arc::clone(&threads))
        .zip(counting_thread(N / 2, start, Arc::clone(&threads)))
        .subscribe_observer(o.clone());
    join(&threads);
    o.assert_completed();
    assert_eq!(o.value_count(), N / 2);
}

#[test]
fn combine_latest_from_two_threads_makes_one_row_per_value() {
    for _ in 0..5 {
        let start = Arc::new(Barrier::new(2));
        let threads = Arc::default();
        let o = TestObserver::new();
        counting_thread(N, start.clone(), Arc::clone(&threads))
            .combine_latest(counting_thread(N, start, Arc::clone(&threads)))
            .subscribe_observer(o.clone());
        join(&threads);
        o.assert_completed();
        let rows = o.values();
        // After the first row, every value makes exactly one row, each differing from the one
        // before by one step of one side: no value is lost, none delivered twice.
        let (a0, b0) = rows[0];
        assert!(a0 == 0 || b0 == 0);
        assert_eq!(rows.len(), 2 * N - 1 - a0 - b0);
        for pair in rows.windows(2) {
            let ((a1, b1), (a2, b2)) = (pair[0], pair[1]);
            assert!(
                (a2 == a1 + 1 && b2 == b1) || (a2 == a1 && b2 == b1 + 1),
                "{pair:?}"
            );
        }
        assert_eq!(rows.last(), Some(&(N - 1, N - 1)));
    }
}

#[test]
fn with_latest_from_across_threads() {
    for _ in 0..5 {
        let start = Arc::new(Barrier::new(2));
        let threads = Arc::default();
        let o = TestObserver::new();
        counting_thread(N, start.clone(), Arc::clone(&threads))
            .with_latest_from(counting_thread(N, start, Arc::clone(&threads)))
            .subscribe_observer(o.clone());
        join(&threads);
        o.assert_completed();
        let rows = o.values();
        for pair in rows.windows(2) {
            let ((a1, b1), (a2, b2)) = (pair[0], pair[1]);
            assert!(a2 > a1 && b2 >= b1, "{pair:?}");
        }
        if let Some(&(a, _)) = rows.last() {
            assert_eq!(
                a,
                N - 1,
                "the source's values after the other's first are all paired"
            );
        }
    }
}

#[test]
fn dispose_while_both_threads_emit() {
    for _ in 0..20 {
        let start = Arc::new(Barrier::new(3));
        let threads = Arc::default();
        let o = TestObserver::new();
        let handle = counting_thread(usize::MAX, start.clone(), Arc::clone(&threads))
            .combine_latest(counting_thread(
                usize::MAX,
                start.clone(),
                Arc::clone(&threads),
            ))
            .subscribe_observer(o.clone());
        start.wait();
        while o.value_count() < 100 {
            thread::yield_now();
        }
        handle.dispose();
        let at_dispose = o.value_count();
        // Both endless threads see the disposal and stop.
        join(&threads);
        o.assert_not_terminated();
        // At most the row a delivering thread had already taken when `dispose` ran.
        assert!(o.value_count() - at_dispose <= 1);
    }
}

/// An emitter parked where the test, or a downstream, can reach it.
type Slot = Arc<Mutex<Option<OwnedEmitter<i32>>>>;

fn parked() -> (Slot, CreateOwned<i32, impl FnOnce(OwnedEmitter<i32>)>) {
    let slot: Slot = Arc::default();
    let s = slot.clone();
    (
        slot,
        create_owned(move |emitter| *s.lock().unwrap() = Some(emitter)),
    )
}

fn emit(slot: &Slot, value: i32) {
    // Out of the slot while emitting, so a re-entrant emission to another slot can proceed.
    let mut emitter = slot.lock().unwrap().take().expect("parked emitter");
    emitter.on_next(value);
    *slot.lock().unwrap() = Some(emitter);
}

/// Forwards to a test observer and, on the first value, makes source `a` emit again from
/// inside `on_next`.
#[derive(Clone)]
struct Reentrant<T> {
    inner: TestObserver<T>,
    a: Slot,
    fired: Arc<Mutex<bool>>,
}

impl<T> Observer<T> for Reentrant<T> {
    fn on_next(&mut self, value: T) {
        self.inner.on_next(value);
        let first = !std::mem::replace(&mut *self.fired.lock().unwrap(), true);
        if first {
            emit(&self.a, 100);
        }
    }
    fn on_error(self, error: rx::Error) {
        self.inner.on_error(error)
    }
    fn on_completed(self) {
        self.inner.on_completed()
    }
}

#[test]
fn a_reentrant_emission_is_queued_not_nested() {
    let (a, source_a) = parked();
    let (b, source_b) = parked();
    let o = TestObserver::new();
    source_a
        .combine_latest(source_b)
        .subscribe_observer(Reentrant {
            inner: o.clone(),
            a: a.clone(),
            fired: Arc::default(),
        });
    emit(&a, 1);
    emit(&b, 10); // delivers (1, 10), whose observer makes `a` emit 100 re-entrantly
    emit(&b, 20);
    o.assert_notifications(&[Next((1, 10)), Next((100, 10)), Next((100, 20))]);
    o.assert_rules();

    let (a, source_a) = parked();
    let (b, source_b) = parked();
    let o = TestObserver::new();
    source_a.zip(source_b).subscribe_observer(Reentrant {
        inner: o.clone(),
        a: a.clone(),
        fired: Arc::default(),
    });
    emit(&a, 1);
    emit(&b, 10);
    emit(&b, 20);
    a.lock().unwrap().take().unwrap().on_completed();
    o.assert_notifications(&[Next((1, 10)), Next((100, 20)), Completed]);
}

#[test]
fn handles_inner_observables_and_observers_are_send_and_sync() {
    use rx::operators::observers::ZipObserver;
    use rx::operators::{
        CombineSubscription, GroupedObservable, InnerSubscription, LatestSlot, SplitSubscription,
        WindowedObservable, ZipSlot,
    };
    use static_assertions::assert_impl_all;

    type Zs = (ZipSlot<'static, i32>, ZipSlot<'static, String>);
    type Ls = (LatestSlot<'static, i32>, LatestSlot<'static, String>);
    type Out = TestObserver<(i32, String)>;
    assert_impl_all!(ZipObserver<Zs, (i32, String), Out, 0>: Send, Sync);
    assert_impl_all!(CombineSubscription<Zs, (i32, String), Out>: Send, Sync);
    assert_impl_all!(CombineSubscription<Ls, (i32, String), Out>: Send, Sync);
    assert_impl_all!(GroupedObservable<'static, i32, String>: Send, Sync, Clone);
    assert_impl_all!(WindowedObservable<'static, String>: Send, Sync, Clone);
    assert_impl_all!(InnerSubscription<'static, String>: Send, Sync);
    assert_impl_all!(SplitSubscription<'static>: Send, Sync);
}
