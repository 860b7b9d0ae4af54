//! Nothing lost, nothing leaked, across threads: after completion or `dispose()` every
//! upstream subscription of the merge family is disposed and the shared state (which owns the
//! downstream observer) is freed; a panicking downstream leaves nothing locked.

use rx::prelude::*;
use rx::source::{OwnedEmitter, create_owned, from_iter, just};
use rx::subjects::PublishSubject;
use rx::testing::TestObserver;
use rx::{Error, Subscription};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;

/// A downstream observer that counts how often it is dropped: once the shared state of a
/// subscription is freed, it is.
struct Probe<T> {
    inner: TestObserver<T>,
    drops: Arc<AtomicUsize>,
}

impl<T> Probe<T> {
    fn new() -> (Self, TestObserver<T>, Arc<AtomicUsize>) {
        let (inner, drops) = (TestObserver::new(), Arc::new(AtomicUsize::new(0)));
        let probe = Probe {
            inner: inner.clone(),
            drops: drops.clone(),
        };
        (probe, inner, drops)
    }
}

impl<T> Drop for Probe<T> {
    fn drop(&mut self) {
        self.drops.fetch_add(1, SeqCst);
    }
}

impl<T> Observer<T> for Probe<T> {
    fn on_next(&mut self, value: T) {
        self.inner.on_next(value)
    }
    fn on_error(self, error: Error) {
        self.inner.clone().on_error(error)
    }
    fn on_completed(self) {
        self.inner.clone().on_completed()
    }
    fn is_disposed(&self) -> bool {
        self.inner.is_disposed()
    }
}

/// Sources whose emitters the test drives from threads of its own.
type Emitters = mpsc::Receiver<OwnedEmitter<u32>>;

fn remote(
    tx: &mpsc::Sender<OwnedEmitter<u32>>,
) -> rx::source::CreateOwned<u32, impl FnOnce(OwnedEmitter<u32>) + Clone + use<>> {
    let tx = tx.clone();
    create_owned(move |emitter| tx.send(emitter).unwrap())
}

fn take(rx: &Emitters, n: usize) -> Vec<OwnedEmitter<u32>> {
    (0..n).map(|_| rx.recv().unwrap()).collect()
}

#[test]
fn completion_on_other_threads_frees_the_state() {
    let (tx, rx) = mpsc::channel();
    let (probe, o, drops) = Probe::new();
    let handle = rx::source::merge((0..4).map(|_| remote(&tx)).collect::<Vec<_>>())
        .subscribe_observer(probe);
    let threads: Vec<_> = take(&rx, 4)
        .into_iter()
        .enumerate()
        .map(|(i, mut e)| {
            thread::spawn(move || {
                e.on_next(i as u32);
                e.on_completed();
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    o.assert_completed();
    assert_eq!(o.value_count(), 4);
    assert!(handle.is_disposed());
    assert_eq!(drops.load(SeqCst), 1, "the shared state was not freed");
}

#[test]
fn dispose_from_another_thread_disposes_every_source_and_frees_the_state() {
    let (tx, rx) = mpsc::channel();
    let (probe, o, drops) = Probe::new();
    let handle = from_iter(0..4)
        .flat_map(move |_| remote(&tx))
        .subscribe_observer(probe);
    let emitters = take(&rx, 4);
    assert!(emitters.iter().all(|e| !e.is_disposed()));
    thread::spawn(move || handle.dispose()).join().unwrap();
    assert!(emitters.iter().all(|e| e.is_disposed()));
    // The emitters still own the observers until they are dropped.
    assert_eq!(drops.load(SeqCst), 0);
    drop(emitters);
    assert_eq!(drops.load(SeqCst), 1);
    o.assert_not_terminated();
}

#[test]
fn an_inner_error_disposes_the_other_inners_and_the_outer() {
    let (tx, rx) = mpsc::channel();
    let outer = PublishSubject::new();
    let (probe, o, drops) = Probe::new();
    let handle = outer
        .observable()
        .flat_map(move |_: ()| remote(&tx))
        .subscribe_observer(probe);
    for _ in 0..3 {
        outer.observer().on_next(());
    }
    let mut emitters = take(&rx, 3);
    let failing = emitters.pop().unwrap();
    thread::spawn(move || failing.on_error(Error::msg("inner")))
        .join()
        .unwrap();
    o.assert_error("inner");
    assert!(handle.is_disposed());
    assert!(!outer.has_observers(), "the outer was not disposed");
    assert!(
        emitters.iter().all(|e| e.is_disposed()),
        "an inner was not disposed"
    );
    drop(emitters);
    assert_eq!(drops.load(SeqCst), 1);
}

#[test]
fn switch_map_frees_replaced_inners_at_once() {
    let outer = PublishSubject::new();
    let inners: Vec<_> = (0..3).map(|_| PublishSubject::<u32>::new()).collect();
    let pick = inners.clone();
    let (probe, o, drops) = Probe::new();
    outer
        .observable()
        .switch_map(move |i: usize| pick[i].observable())
        .subscribe_observer(probe);
    for i in 0..3 {
        outer.observer().on_next(i);
        let live: Vec<_> = inners.iter().map(|s| s.has_observers()).collect();
        assert_eq!(live.iter().filter(|l| **l).count(), 1);
        assert!(live[i]);
    }
    outer.observer().on_completed();
    inners[2].observer().on_completed();
    o.assert_completed();
    assert_eq!(drops.load(SeqCst), 1);
}

#[test]
fn a_panicking_downstream_leaves_nothing_locked() {
    let (a, b) = (PublishSubject::new(), PublishSubject::new());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let merged = a.observable().merge_with(b.observable());
    merged.clone().subscribe(move |v: u32| {
        if v == 13 {
            panic!("unlucky");
        }
        log.lock().unwrap().push(v);
    });
    a.observer().on_next(1);
    let panicked = catch_unwind(AssertUnwindSafe(|| a.observer().on_next(13)));
    assert!(panicked.is_err());
    // The other source can still emit, from another thread: no deadlock, and nothing more
    // reaches the downstream that panicked.
    let input = b.clone();
    thread::spawn(move || input.observer().on_next(2))
        .join()
        .unwrap();
    assert_eq!(*seen.lock().unwrap(), [1]);
    // A new subscription works.
    let o = TestObserver::new();
    merged.subscribe_observer(o.clone());
    a.observer().on_next(3);
    o.assert_values(&[3]);
}

#[test]
fn a_panicking_projection_leaves_nothing_locked() {
    let outer = PublishSubject::new();
    let o = TestObserver::new();
    outer
        .observable()
        .flat_map(|v: u32| {
            assert!(v != 13, "unlucky");
            just(v)
        })
        .subscribe_observer(o.clone());
    outer.observer().on_next(1);
    let panicked = catch_unwind(AssertUnwindSafe(|| outer.observer().on_next(13)));
    assert!(panicked.is_err());
    o.assert_values(&[1]);
}
