//! [`ObservableExt::concat_with`](crate::ObservableExt::concat_with).
//!
//! The first source is subscribed with a [`ConcatWithObserver`]; when it completes, that
//! observer subscribes the second source, on whatever thread the completion arrived, with a
//! [`ConcatWithTail`] that owns the downstream observer. The second source and then its
//! handle live in a small shared slot, so the handle returned by `subscribe` can reach the
//! second subscription wherever it was made (Rx.NET's `SerialDisposable`).
//!
//! Unlike [`concat`](crate::source::concat()), which subscribes one type of observable again and
//! again and so must erase the type of the handles it keeps, the two sources here have
//! types of their own and nothing is erased: the tail observer does not name the slot, so
//! the slot can name the tail's handle type.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::{Arc, Mutex};
use crate::subscription::{FlagSubscription, Subscription};
use std::{fmt, mem};

/// Emits the values of one observable, then of another; built by
/// [`ObservableExt::concat_with`](crate::ObservableExt::concat_with).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "concatWith")]
#[doc(alias = "concat")]
pub struct ConcatWith<S1, S2> {
    first: S1,
    second: S2,
}

impl<S1, S2> ConcatWith<S1, S2> {
    pub(crate) fn new(first: S1, second: S2) -> Self {
        ConcatWith { first, second }
    }
}

impl<S1, S2> Observable for ConcatWith<S1, S2>
where
    S1: Observable,
    S2: Observable<Item = S1::Item>,
{
    type Item = S1::Item;
    type Flavour = crate::sync::Joined<<S1 as Observable>::Flavour, <S2 as Observable>::Flavour>;
}

/// The handle of the second source's subscription.
type TailHandle<S2, O> = <S2 as Subscribe<ConcatWithTail<O>>>::Subscription;

impl<S1, S2, O> Subscribe<O> for ConcatWith<S1, S2>
where
    S1: Subscribe<ConcatWithObserver<O, S2, TailHandle<S2, O>>>,
    S2: Subscribe<ConcatWithTail<O>> + Observable<Item = <S1 as Observable>::Item>,
    O: Observer<<S1 as Observable>::Item>,
{
    type Subscription = ConcatWithSubscription<
        <S1 as Subscribe<ConcatWithObserver<O, S2, TailHandle<S2, O>>>>::Subscription,
        S2,
        TailHandle<S2, O>,
    >;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let tail = Arc::new(Mutex::new(Stage::Waiting(self.second)));
        let flag = FlagSubscription::new();
        let first = self.first.subscribe_observer(ConcatWithObserver {
            observer,
            tail: tail.clone(),
            flag: flag.clone(),
        });
        ConcatWithSubscription { first, tail, flag }
    }
}

/// Where the second source stands.
enum Stage<S2, H2> {
    /// The first source is running.
    Waiting(S2),
    /// The second source is being subscribed; its handle is not there yet.
    Subscribing,
    /// The second source is subscribed; this is its handle.
    Running(H2),
    /// Disposed, or the first source failed: the second will not be subscribed.
    Ended,
}

/// The observer [`ConcatWith`] subscribes to its first source; on completion it subscribes
/// the second.
pub struct ConcatWithObserver<O, S2, H2> {
    observer: O,
    tail: Arc<Mutex<Stage<S2, H2>>>,
    /// Set when the subscription is disposed or has terminated.
    flag: FlagSubscription,
}

impl<T, O, S2, H2: Subscription> Observer<T> for ConcatWithObserver<O, S2, H2>
where
    O: Observer<T>,
    S2: Subscribe<ConcatWithTail<O>, Subscription = H2>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    fn on_error(self, error: Error) {
        self.flag.dispose();
        let unused = mem::replace(&mut *self.tail.lock(), Stage::Ended);
        self.observer.on_error(error);
        drop(unused);
    }

    fn on_completed(self) {
        let ConcatWithObserver {
            observer,
            tail,
            flag,
        } = self;
        let second = {
            let mut stage = tail.lock();
            match mem::replace(&mut *stage, Stage::Subscribing) {
                Stage::Waiting(second) => second,
                other => {
                    // Disposed already.
                    *stage = other;
                    return;
                }
            }
        };
        if flag.is_disposed() || observer.is_disposed() {
            flag.dispose();
            *tail.lock() = Stage::Ended;
            return;
        }
        let handle = second.subscribe_observer(ConcatWithTail {
            observer,
            flag: flag.clone(),
        });
        let mut stage = tail.lock();
        if matches!(*stage, Stage::Subscribing) && !flag.is_disposed() {
            *stage = Stage::Running(handle);
        } else {
            // Either `dispose` ran while the second source was being subscribed and found
            // no handle to cancel, or the second source has already terminated; disposing
            // is needed in the first case and harmless in the second.
            *stage = Stage::Ended;
            drop(stage);
            handle.dispose();
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed() || self.flag.is_disposed()
    }
}

impl<O, S2, H2> fmt::Debug for ConcatWithObserver<O, S2, H2> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConcatWithObserver")
            .field("disposed", &self.flag.is_disposed())
            .finish_non_exhaustive()
    }
}

/// The observer [`ConcatWith`] subscribes to its second source.
pub struct ConcatWithTail<O> {
    observer: O,
    flag: FlagSubscription,
}

impl<T, O: Observer<T>> Observer<T> for ConcatWithTail<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    fn on_error(self, error: Error) {
        self.flag.dispose();
        self.observer.on_error(error)
    }

    fn on_completed(self) {
        self.flag.dispose();
        self.observer.on_completed()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed() || self.flag.is_disposed()
    }
}

impl<O> fmt::Debug for ConcatWithTail<O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConcatWithTail")
            .field("disposed", &self.flag.is_disposed())
            .finish_non_exhaustive()
    }
}

/// The handle [`ConcatWith`] returns: disposing it disposes whichever source is running and
/// keeps the second from being subscribed.
pub struct ConcatWithSubscription<H1, S2, H2> {
    first: H1,
    tail: Arc<Mutex<Stage<S2, H2>>>,
    flag: FlagSubscription,
}

impl<H1: Subscription, S2, H2: Subscription> Subscription for ConcatWithSubscription<H1, S2, H2> {
    fn dispose(&self) {
        self.flag.dispose();
        self.first.dispose();
        let stage = mem::replace(&mut *self.tail.lock(), Stage::Ended);
        if let Stage::Running(second) = stage {
            second.dispose();
        }
    }

    fn is_disposed(&self) -> bool {
        self.flag.is_disposed()
    }
}

impl<H1, S2, H2> fmt::Debug for ConcatWithSubscription<H1, S2, H2> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConcatWithSubscription")
            .field("disposed", &self.flag.is_disposed())
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification;
    use crate::prelude::*;
    use crate::source::{
        CreateOwned, OwnedEmitter, create, create_owned, defer, empty, from_iter, just, never,
        throw,
    };
    use crate::testing::TestObserver;
    use std::cell::Cell;
    use std::sync::mpsc::{self, Receiver, Sender};
    use std::thread::{self, JoinHandle, ThreadId};

    #[test]
    fn emits_the_first_then_the_second() {
        let o = TestObserver::new();
        let handle = from_iter([1, 2])
            .concat_with(just(3))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(3),
            Notification::Completed,
        ]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn empty_sides() {
        let o = TestObserver::new();
        empty().concat_with(just(1)).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(1), Notification::Completed]);

        let o = TestObserver::new();
        just(1).concat_with(empty()).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(1), Notification::Completed]);

        let o = TestObserver::<i32>::new();
        empty().concat_with(empty()).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_in_the_first_skips_the_second() {
        let subscribed = Cell::new(false);
        let o = TestObserver::new();
        let handle = create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("first failed"));
        })
        .concat_with(defer(|| {
            subscribed.set(true);
            just(2)
        }))
        .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("first failed");
        assert!(!subscribed.get());
        assert!(handle.is_disposed());
    }

    #[test]
    fn error_in_the_second() {
        let o = TestObserver::new();
        just(1)
            .concat_with(throw(Error::msg("second failed")))
            .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("second failed");
    }

    #[test]
    fn a_first_that_never_completes_keeps_the_second_waiting() {
        let subscribed = Cell::new(false);
        let o = TestObserver::new();
        let handle = never()
            .concat_with(defer(|| {
                subscribed.set(true);
                just(2)
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert!(!subscribed.get());
        handle.dispose();
        assert!(handle.is_disposed());
    }

    #[test]
    fn disposed_downstream_stops_both_sources() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .concat_with(from_iter(0..))
            .map(|v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();

        let subscribed = Cell::new(false);
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter([0, 1])
            .concat_with(from_iter(10..))
            .map(|v| {
                if v == 11 {
                    probe.dispose();
                }
                v
            })
            .concat_with(defer(|| {
                subscribed.set(true);
                just(99)
            }))
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 10, 11]);
        o.assert_not_terminated();
        assert!(!subscribed.get());
    }

    #[test]
    fn clone_resubscribes_and_borrows_locals() {
        let tail = [3, 4];
        let source = just(1).concat_with(from_iter(tail.iter().copied()));
        let mut seen = Vec::new();
        source.clone().subscribe(|v| seen.push(v));
        source.subscribe(|v| seen.push(v));
        assert_eq!(seen, [1, 3, 4, 1, 3, 4]);
    }

    /// A source that emits `values` from a thread of its own and reports the thread it was
    /// subscribed on, and its worker, which returns the thread it emitted from.
    fn on_a_thread(
        values: Vec<i32>,
        report: Sender<(ThreadId, JoinHandle<ThreadId>)>,
    ) -> CreateOwned<i32, impl FnOnce(OwnedEmitter<i32>) + Clone + Send + 'static> {
        create_owned(move |mut e: OwnedEmitter<i32>| {
            let worker = thread::spawn(move || {
                for v in values {
                    e.on_next(v);
                }
                e.on_completed();
                thread::current().id()
            });
            report.send((thread::current().id(), worker)).unwrap();
        })
    }

    fn join(reports: &Receiver<(ThreadId, JoinHandle<ThreadId>)>) -> (ThreadId, ThreadId) {
        let (subscribed_on, worker) = reports.recv().unwrap();
        (subscribed_on, worker.join().unwrap())
    }

    #[test]
    fn second_is_subscribed_on_the_thread_the_first_completes_on() {
        let (first_tx, first_rx) = mpsc::channel();
        let (second_tx, second_rx) = mpsc::channel();
        let o = TestObserver::new();
        let handle = on_a_thread(vec![1, 2], first_tx)
            .concat_with(on_a_thread(vec![3], second_tx))
            .subscribe_observer(o.clone());
        let first = join(&first_rx);
        let second = join(&second_rx);
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();
        assert_eq!(second.0, first.1);
        assert!(handle.is_disposed());
    }

    #[test]
    fn dispose_reaches_a_second_subscribed_on_another_thread() {
        let (tx, rx) = mpsc::channel();
        let (started_tx, started) = mpsc::channel();
        let (go_tx, go) = mpsc::channel::<()>();
        let (second_tx, second_rx) = mpsc::channel();
        let second = create_owned(move |mut e: OwnedEmitter<i32>| {
            let worker = thread::spawn(move || {
                e.on_next(10);
                started_tx.send(()).unwrap();
                go.recv().unwrap();
                let saw_disposal = e.is_disposed();
                e.on_next(11);
                e.on_completed();
                saw_disposal
            });
            second_tx.send(worker).unwrap();
        });
        let o = TestObserver::new();
        let handle = on_a_thread(vec![1], tx)
            .concat_with(second)
            .subscribe_observer(o.clone());
        join(&rx);
        started.recv().unwrap();
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(handle.is_disposed());
        go_tx.send(()).unwrap();
        assert!(second_rx.recv().unwrap().join().unwrap());
        o.assert_notifications(&[Notification::Next(1), Notification::Next(10)]);
    }

    #[test]
    fn dispose_before_the_first_completes_skips_the_second() {
        let (started_tx, started) = mpsc::channel();
        let (go_tx, go) = mpsc::channel::<()>();
        let (worker_tx, worker_rx) = mpsc::channel();
        let first = create_owned(move |mut e: OwnedEmitter<i32>| {
            let worker = thread::spawn(move || {
                e.on_next(1);
                started_tx.send(()).unwrap();
                go.recv().unwrap();
                e.on_completed();
            });
            worker_tx.send(worker).unwrap();
        });
        let (tx, rx) = mpsc::channel();
        let o = TestObserver::new();
        let handle = first
            .concat_with(on_a_thread(vec![2], tx))
            .subscribe_observer(o.clone());
        started.recv().unwrap();
        handle.dispose();
        go_tx.send(()).unwrap();
        worker_rx.recv().unwrap().join().unwrap();
        o.assert_notifications(&[Notification::Next(1)]);
        assert!(
            rx.try_recv().is_err(),
            "the second source was not subscribed"
        );
    }
}

#[cfg(loom)]
mod loom_tests {
    use crate::observable::{Observable, Subscribe};
    use crate::observer::Observer;
    use crate::prelude::*;
    use crate::primitive::{Arc, Mutex, thread};
    use crate::subscription::FlagSubscription;
    use crate::testing::TestObserver;

    type Slot<T> = Arc<Mutex<Option<T>>>;

    /// Completes, with no value, on a thread of its own.
    struct CompleteOnThread(Slot<thread::JoinHandle<()>>);

    impl Observable for CompleteOnThread {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<O: Observer<i32> + Send + 'static> Subscribe<O> for CompleteOnThread {
        type Subscription = FlagSubscription;

        fn subscribe_observer(self, observer: O) -> FlagSubscription {
            *self.0.lock() = Some(thread::spawn(move || observer.on_completed()));
            FlagSubscription::new()
        }
    }

    /// Never terminates; keeps a clone of its handle, to check that it gets disposed.
    struct Park(Slot<FlagSubscription>);

    impl Observable for Park {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<O: Observer<i32>> Subscribe<O> for Park {
        type Subscription = FlagSubscription;

        fn subscribe_observer(self, _observer: O) -> FlagSubscription {
            let handle = FlagSubscription::new();
            *self.0.lock() = Some(handle.clone());
            handle
        }
    }

    fn slot<T>() -> Slot<T> {
        Arc::new(Mutex::new(None))
    }

    /// The second source is subscribed on the completing thread, racing with nothing: it
    /// runs once and the sequence completes.
    #[test]
    fn loom_second_runs_after_an_asynchronous_first() {
        loom::model(|| {
            let worker = slot();
            let o = TestObserver::new();
            CompleteOnThread(worker.clone())
                .concat_with(crate::source::just(2))
                .subscribe_observer(o.clone());
            worker.lock().take().unwrap().join().unwrap();
            o.assert_values(&[2]);
            o.assert_completed();
        });
    }

    /// `dispose` races with the completing thread subscribing the second source: the second
    /// is either never subscribed or its handle is disposed, never left running.
    #[test]
    fn loom_dispose_races_with_the_second_subscription() {
        loom::model(|| {
            let worker = slot();
            let parked = slot();
            let handle = CompleteOnThread(worker.clone())
                .concat_with(Park(parked.clone()))
                .subscribe_observer(TestObserver::<i32>::new());
            handle.dispose();
            worker.lock().take().unwrap().join().unwrap();
            if let Some(second) = parked.lock().take() {
                assert!(
                    second.is_disposed(),
                    "the running second source was not disposed"
                );
            }
            assert!(handle.is_disposed());
        });
    }
}
