//! [`concat()`]: observables one after another.
//!
//! # How it works
//!
//! The downstream observer is handed from one inner observable to the next. While an inner
//! runs, its [`ConcatObserver`] owns the downstream observer and forwards values to it with
//! no lock. When the inner completes, the downstream observer goes back to the shared state
//! and the next inner is subscribed with it.
//!
//! A trampoline keeps the stack flat when inners complete inside their own `subscribe` (as
//! `just` and `from_iter` do): one thread at a time is *advancing* (the `advancing` flag,
//! under the lock). An inner that completes while some thread is advancing parks the observer
//! in the shared state and returns; the advancing loop finds it there when the inner's
//! `subscribe` returns and goes on with a loop iteration instead of a nested call. An inner
//! that completes later, on another thread, finds nobody advancing, so that thread becomes
//! the advancer and subscribes the next inner itself, as Rx requires.
//!
//! The handle returned by `subscribe` reaches the running inner through the shared state,
//! where the advancer stores each inner's handle once its `subscribe` returns (Rx.NET's
//! `SerialDisposable`), or disposes it at once if the whole subscription was disposed in the
//! meantime. That handle's type depends on the observer type, which names the shared state,
//! so the stored handle is type-erased: boxed, which allocates nothing for the zero-sized
//! handles of synchronous inners.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::{Arc, AtomicBool, Mutex, Ordering};
use crate::subscription::Subscription;
use crate::sync::imp::{BoxSubscription, Machinery};
use crate::sync::{Flavour, Shared};
use std::fmt;
use std::marker::PhantomData;

/// An observable that emits every value of each observable of `observables` in turn: it
/// subscribes to the first, and to each next one when the previous one completes.
///
/// The sequence completes after the last observable completes (at once when there is
/// none). When an observable completes later, on another thread, the next one is subscribed
/// on that thread. Observables that complete inside their own `subscribe` are chained by a
/// loop, not by recursion, so a million of them use no more stack than one; that includes a
/// completion arriving from another thread while the `subscribe` call that started it is
/// still running: the subscribing thread then goes on with the next observable, so no
/// thread waits for another (RxJava's `concat` trampolines the same way).
///
/// The observables are all of one type; to mix types, [`boxed`](crate::ObservableExt::boxed)
/// them, or chain two with [`concat_with`](crate::ObservableExt::concat_with). The handles
/// their subscriptions return must be `Send` (all the library's are, but for
/// [`LocalBoxedObservable`](crate::LocalBoxedObservable)'s): a later inner may be subscribed
/// on another thread, and its handle is kept, type-erased, where `dispose` can reach it.
///
/// ```text
/// a:               -1-2-|
/// b:                     -3-4-|
/// concat([a, b]):  -1-2---3-4-|
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::concat([
///     rx::source::from_iter(vec![1, 2]),
///     rx::source::from_iter(vec![]),
///     rx::source::from_iter(vec![3]),
/// ])
/// .subscribe_observer(observer.clone());
/// observer.assert_values(&[1, 2, 3]);
/// observer.assert_completed();
/// ```
///
/// # Errors
///
/// The first error ends the sequence; the observables after it are not subscribed.
///
/// # Performance
///
/// One allocation per subscription (the shared state), then one uncontended lock per inner
/// observable; values pass through with no lock and no allocation. An inner that is still
/// running when its `subscribe` returns, with a handle that is not zero-sized, costs one more
/// allocation to store that handle.
#[doc(alias = "concat_array")]
#[doc(alias = "concatArray")]
#[doc(alias = "concat_iterable")]
pub fn concat<'a, I>(observables: I) -> Concat<'a, I>
where
    I: IntoIterator,
    I::Item: Observable,
{
    Concat {
        observables,
        _handles: PhantomData,
    }
}

/// Emits the values of several observables in turn; built by [`concat()`].
///
/// The lifetime `'a` bounds what the inner subscriptions' handles borrow; it is inferred.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Concat<'a, I> {
    observables: I,
    _handles: PhantomData<&'a ()>,
}

impl<I> Observable for Concat<'_, I>
where
    I: IntoIterator,
    I::Item: Observable,
{
    type Item = <I::Item as Observable>::Item;
    type Flavour = <I::Item as Observable>::Flavour;
}

/// The flavour of the handles a [`Concat`] keeps: its observables'.
type FlavourOf<I> = <<I as IntoIterator>::Item as Observable>::Flavour;

impl<'a, I, O> Subscribe<O> for Concat<'a, I>
where
    I: IntoIterator,
    I::Item: Subscribe<ConcatObserver<'a, I::IntoIter, O, FlavourOf<I>>>,
    FlavourOf<I>: BoxSubscription<
            'a,
            <I::Item as Subscribe<ConcatObserver<'a, I::IntoIter, O, FlavourOf<I>>>>::Subscription,
        >,
    O: Observer<<I::Item as Observable>::Item>,
{
    type Subscription = ConcatSubscription<'a, I::IntoIter, O, FlavourOf<I>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let core = Arc::new(Core {
            disposed: AtomicBool::new(false),
            state: Mutex::new(State {
                observer: None,
                sources: None,
                advancing: true,
                current: None,
            }),
            advance: advance::<I::IntoIter, O, FlavourOf<I>>,
        });
        advance(&core, observer, self.observables.into_iter());
        ConcatSubscription { core }
    }
}

/// The state shared by the inner observers and the handle.
struct Core<'a, It, O, F: Flavour> {
    /// Set by `dispose` and when the sequence terminates. Release/Acquire: whoever sees it
    /// set also sees the state the setter left behind.
    disposed: AtomicBool,
    state: Mutex<State<'a, It, O, F>>,
    /// [`advance`] for these types, built in `subscribe_observer` where its bounds are
    /// proven: an inner observer that needed those bounds itself would require its own
    /// type to be subscribable by its own type, which overflows the trait solver.
    advance: fn(&Arc<Self>, O, It),
}

struct State<'a, It, O, F: Flavour> {
    /// The downstream observer, parked by an inner that completed while a thread was
    /// advancing. `None` while an inner owns it.
    observer: Option<O>,
    /// The observables not yet subscribed. `None` while a thread is advancing (it holds
    /// them) and once the subscription has ended.
    sources: Option<It>,
    /// Whether a thread is in [`advance`]: then it, and only it, subscribes the next inner.
    advancing: bool,
    /// The handle of the running inner.
    current: Option<F::BoxedSubscription<'a>>,
}

type Leftovers<'a, It, O, F> = (
    Option<It>,
    Option<<F as Machinery>::BoxedSubscription<'a>>,
    Option<O>,
);

impl<'a, It, O, F: Flavour> Core<'a, It, O, F> {
    /// Ends the subscription and takes out what it holds, for the caller to drop (or
    /// dispose) once the lock is released: dropping runs user code, which must not run
    /// under the lock.
    fn finish(&self) -> Leftovers<'a, It, O, F> {
        self.disposed.store(true, Ordering::Release);
        let mut state = self.state.lock();
        (
            state.sources.take(),
            state.current.take(),
            state.observer.take(),
        )
    }
}

/// Subscribes the observables of `sources` one after another while they complete inside
/// their `subscribe`; returns once one is still running (its observer will call back through
/// `Core::advance` when it completes), or when the sequence has ended. The caller has set
/// `advancing`.
fn advance<'a, It, O, F>(core: &Arc<Core<'a, It, O, F>>, mut observer: O, mut sources: It)
where
    It: Iterator,
    It::Item: Subscribe<ConcatObserver<'a, It, O, F>>,
    F: Flavour
        + BoxSubscription<'a, <It::Item as Subscribe<ConcatObserver<'a, It, O, F>>>::Subscription>,
    O: Observer<<It::Item as Observable>::Item>,
{
    loop {
        if core.disposed.load(Ordering::Acquire) || observer.is_disposed() {
            // Disposed, or the downstream has gone: nothing more will be delivered.
            core.disposed.store(true, Ordering::Release);
            return;
        }
        let Some(source) = sources.next() else {
            core.disposed.store(true, Ordering::Release);
            drop(sources);
            observer.on_completed();
            return;
        };
        let handle = source.subscribe_observer(ConcatObserver {
            observer,
            core: core.clone(),
        });
        let mut state = core.state.lock();
        if core.disposed.load(Ordering::Acquire) {
            // Disposed while the inner was being subscribed: `dispose` found no handle to
            // cancel, so cancel it here. Or the inner failed, and this is a no-op.
            let parked = state.observer.take();
            drop(state);
            handle.dispose();
            drop(parked);
            return;
        }
        if let Some(parked) = state.observer.take() {
            // The inner completed inside its `subscribe`: go round instead of recursing.
            drop(state);
            drop(handle);
            observer = parked;
            continue;
        }
        // The inner is still running; its observer will take over when it completes.
        state.current = Some(F::box_subscription(handle));
        state.sources = Some(sources);
        state.advancing = false;
        return;
    }
}

/// The observer [`Concat`] subscribes to each inner observable. It owns the downstream
/// observer while its inner runs.
pub struct ConcatObserver<'a, It, O, F: Flavour = Shared> {
    observer: O,
    core: Arc<Core<'a, It, O, F>>,
}

impl<T, It, O: Observer<T>, F: Flavour> Observer<T> for ConcatObserver<'_, It, O, F> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    fn on_error(self, error: Error) {
        let leftovers = self.core.finish();
        self.observer.on_error(error);
        drop(leftovers);
    }

    fn on_completed(self) {
        let ConcatObserver { observer, core } = self;
        let (sources, finished) = {
            let mut state = core.state.lock();
            if state.advancing {
                // The advancing thread is in this inner's `subscribe` (or just after it):
                // leave it the observer and return, keeping the stack flat.
                state.observer = Some(observer);
                return;
            }
            let sources = state.sources.take();
            if sources.is_some() {
                state.advancing = true;
            }
            (sources, state.current.take())
        };
        // This inner's handle: it has completed, so there is nothing left to cancel.
        drop(finished);
        match sources {
            Some(sources) => (core.advance)(&core, observer, sources),
            // Disposed meanwhile: the observer is dropped here, outside the lock.
            None => drop(observer),
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed() || self.core.disposed.load(Ordering::Acquire)
    }
}

impl<It, O, F: Flavour> fmt::Debug for ConcatObserver<'_, It, O, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConcatObserver")
            .field("disposed", &self.core.disposed.load(Ordering::Acquire))
            .finish_non_exhaustive()
    }
}

/// The handle [`Concat`] returns: disposing it disposes the running inner and subscribes
/// no other.
pub struct ConcatSubscription<'a, It, O, F: Flavour = Shared> {
    core: Arc<Core<'a, It, O, F>>,
}

impl<It, O, F: Flavour> Subscription for ConcatSubscription<'_, It, O, F> {
    fn dispose(&self) {
        let (sources, current, observer) = self.core.finish();
        if let Some(current) = current {
            current.dispose();
        }
        drop((sources, observer));
    }

    fn is_disposed(&self) -> bool {
        self.core.disposed.load(Ordering::Acquire)
    }
}

impl<It, O, F: Flavour> fmt::Debug for ConcatSubscription<'_, It, O, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConcatSubscription")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::concat;
    use crate::Error;
    use crate::notification::Notification;
    use crate::prelude::*;
    use crate::source::{
        CreateOwned, OwnedEmitter, create_owned, defer, empty, from_iter, just, throw,
    };
    use crate::testing::TestObserver;
    use std::cell::Cell;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc::{self, Receiver, Sender};
    use std::thread::{self, JoinHandle, ThreadId};

    #[test]
    fn emits_each_in_turn_then_completes() {
        let o = TestObserver::new();
        let handle = concat(vec![
            from_iter(vec![1, 2]),
            from_iter(vec![]),
            from_iter(vec![3]),
        ])
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
    fn no_observables_completes_at_once() {
        let o = TestObserver::<i32>::new();
        concat(Vec::<crate::source::Just<i32>>::new()).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::<i32>::new();
        concat([empty(), empty()]).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_mid_way_stops_the_sequence() {
        let later = AtomicBool::new(false);
        let o = TestObserver::new();
        let handle = concat(vec![
            from_iter(vec![1, 2]).boxed(),
            throw::<i32>(Error::msg("broken")).boxed(),
            defer(|| {
                later.store(true, Ordering::SeqCst);
                just(9)
            })
            .boxed(),
        ])
        .subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
        o.assert_error("broken");
        assert!(
            !later.load(Ordering::SeqCst),
            "nothing subscribed after the error"
        );
        assert!(handle.is_disposed());
    }

    #[test]
    fn borrows_from_the_stack() {
        let data = [1, 2, 3];
        let mut seen = Vec::new();
        concat(vec![
            from_iter(data.iter().copied()).boxed(),
            from_iter(data.iter().map(|v| v * 10)).boxed(),
        ])
        .subscribe(|v| seen.push(v));
        assert_eq!(seen, [1, 2, 3, 10, 20, 30]);
    }

    #[test]
    fn disposed_downstream_stops_the_source_and_subscribes_no_more() {
        let subscribed = Cell::new(0);
        let o = TestObserver::new();
        let probe = o.clone();
        let inner = || {
            defer(|| {
                subscribed.set(subscribed.get() + 1);
                from_iter(0..)
            })
        };
        concat([inner(), inner()])
            .map(|v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
        assert_eq!(subscribed.get(), 1);
    }

    #[test]
    fn many_synchronous_inners_do_not_grow_the_stack() {
        let mut sum = 0u64;
        concat(std::iter::repeat_n(just(1u64), 100_000)).subscribe(|v| sum += v);
        assert_eq!(sum, 100_000);
    }

    #[test]
    fn clone_resubscribes() {
        let source = concat(vec![just(1), just(2)]);
        let o = TestObserver::new();
        source.clone().subscribe_observer(o.clone());
        source.subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 1, 2]);
    }

    type Report = (ThreadId, JoinHandle<ThreadId>);

    /// An inner that emits `values` from a thread of its own once its gate opens, and reports
    /// the thread it was subscribed on and its worker, which returns the thread it emitted
    /// from.
    fn on_a_thread(
        values: Vec<i32>,
        report: Sender<Report>,
        gate: Receiver<()>,
    ) -> CreateOwned<i32, impl FnOnce(OwnedEmitter<i32>) + Send + 'static> {
        create_owned(move |mut e: OwnedEmitter<i32>| {
            let worker = thread::spawn(move || {
                gate.recv().unwrap();
                for v in values {
                    e.on_next(v);
                }
                e.on_completed();
                thread::current().id()
            });
            report.send((thread::current().id(), worker)).unwrap();
        })
    }

    /// Lets the inners run one at a time, in order, each only once the previous one's
    /// thread has finished (so once whoever subscribed it has returned): then each
    /// completion finds nobody advancing and the completing thread subscribes the next.
    fn run_in_turn(
        reports: &Receiver<Report>,
        gates: Vec<Sender<()>>,
    ) -> Vec<(ThreadId, ThreadId)> {
        gates
            .into_iter()
            .map(|gate| {
                let (subscribed_on, worker) = reports.recv().unwrap();
                gate.send(()).unwrap();
                (subscribed_on, worker.join().unwrap())
            })
            .collect()
    }

    fn gates(n: usize) -> (Vec<Sender<()>>, Vec<Receiver<()>>) {
        (0..n).map(|_| mpsc::channel()).unzip()
    }

    #[test]
    fn asynchronous_inners_are_chained_from_the_completing_thread() {
        let (tx, rx) = mpsc::channel();
        let (open, mut gate) = gates(3);
        let o = TestObserver::new();
        concat(vec![
            on_a_thread(vec![1, 2], tx.clone(), gate.remove(0)),
            on_a_thread(vec![3], tx.clone(), gate.remove(0)),
            on_a_thread(vec![4, 5], tx, gate.remove(0)),
        ])
        .subscribe_observer(o.clone());
        let threads = run_in_turn(&rx, open);
        o.assert_values(&[1, 2, 3, 4, 5]);
        o.assert_completed();
        assert_eq!(threads[0].0, thread::current().id());
        assert_eq!(
            threads[1].0, threads[0].1,
            "second subscribed by the first's thread"
        );
        assert_eq!(
            threads[2].0, threads[1].1,
            "third subscribed by the second's thread"
        );
    }

    #[test]
    fn completion_during_the_subscribing_call_is_picked_up_by_the_subscriber() {
        // The first inner completes on its thread while `subscribe` is still running on
        // this one: that thread parks the observer and this one goes on with the second.
        let (done_tx, done) = mpsc::channel();
        let first = create_owned(move |e: OwnedEmitter<i32>| {
            thread::spawn(move || e.on_completed()).join().unwrap();
            done_tx.send(()).unwrap();
        });
        let second_on = std::sync::Arc::new(std::sync::Mutex::new(None));
        let recorder = second_on.clone();
        let o = TestObserver::new();
        concat(vec![
            first.boxed(),
            defer(move || {
                *recorder.lock().unwrap() = Some(thread::current().id());
                just(2)
            })
            .boxed(),
        ])
        .subscribe_observer(o.clone());
        done.recv().unwrap();
        o.assert_values(&[2]);
        o.assert_completed();
        assert_eq!(*second_on.lock().unwrap(), Some(thread::current().id()));
    }

    #[test]
    fn mixed_synchronous_and_asynchronous_inners() {
        let (tx, rx) = mpsc::channel();
        let (open, mut gate) = gates(2);
        let o = TestObserver::new();
        concat(vec![
            just(1).boxed_once(),
            on_a_thread(vec![2], tx.clone(), gate.remove(0)).boxed_once(),
            from_iter(vec![3, 4]).boxed_once(),
            on_a_thread(vec![5], tx, gate.remove(0)).boxed_once(),
            just(6).boxed_once(),
        ])
        .subscribe_observer(o.clone());
        run_in_turn(&rx, open);
        o.assert_values(&[1, 2, 3, 4, 5, 6]);
        o.assert_completed();
    }

    #[test]
    fn dispose_reaches_an_inner_subscribed_on_another_thread() {
        let (tx, rx) = mpsc::channel();
        let (started_tx, started) = mpsc::channel();
        let (go_tx, go) = mpsc::channel::<()>();
        let later = create_owned(move |mut e: OwnedEmitter<i32>| {
            let worker = thread::spawn(move || {
                e.on_next(10);
                started_tx.send(()).unwrap();
                go.recv().unwrap();
                let saw_disposal = e.is_disposed();
                e.on_next(11);
                e.on_completed();
                saw_disposal
            });
            tx.send(worker).unwrap();
        });
        let (first_tx, first_rx) = mpsc::channel();
        let (open, mut gate) = gates(1);
        let o = TestObserver::new();
        let handle = concat(vec![
            on_a_thread(vec![1], first_tx, gate.remove(0)).boxed_once(),
            later.boxed_once(),
            just(99).boxed_once(),
        ])
        .subscribe_observer(o.clone());
        run_in_turn(&first_rx, open);
        started.recv().unwrap();
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(handle.is_disposed());
        go_tx.send(()).unwrap();
        assert!(
            rx.recv().unwrap().join().unwrap(),
            "the running inner saw the disposal"
        );
        o.assert_notifications(&[Notification::Next(1), Notification::Next(10)]);
    }

    #[test]
    fn observer_is_send_when_its_parts_are() {
        type Inner = ConcatObserverOf<crate::source::Just<i32>>;
        type ConcatObserverOf<S> =
            super::ConcatObserver<'static, std::vec::IntoIter<S>, TestObserver<i32>>;
        static_assertions::assert_impl_all!(Inner: Send);
        static_assertions::assert_impl_all!(
            super::ConcatSubscription<'static, std::vec::IntoIter<crate::source::Just<i32>>, TestObserver<i32>>: Send, Sync
        );
    }
}

#[cfg(loom)]
mod loom_tests {
    use super::concat;
    use crate::observable::{Observable, Subscribe};
    use crate::observer::Observer;
    use crate::primitive::{Arc, Mutex, thread};
    use crate::subscription::{FlagSubscription, Subscription};
    use crate::testing::TestObserver;

    type Slot<T> = Arc<Mutex<Option<T>>>;

    /// An inner observable for the models.
    enum Step {
        /// Completes, with no value, on a thread of its own.
        CompleteOnThread(Slot<thread::JoinHandle<()>>),
        /// Emits the value and completes inside `subscribe`.
        Value(i32),
        /// Never terminates; keeps a clone of its handle, to check that it gets disposed.
        Park(Slot<FlagSubscription>),
    }

    impl Observable for Step {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<O: Observer<i32> + Send + 'static> Subscribe<O> for Step {
        type Subscription = FlagSubscription;

        fn subscribe_observer(self, mut observer: O) -> FlagSubscription {
            let handle = FlagSubscription::new();
            match self {
                Step::CompleteOnThread(worker) => {
                    *worker.lock() = Some(thread::spawn(move || observer.on_completed()));
                }
                Step::Value(v) => {
                    if !observer.is_disposed() {
                        observer.on_next(v);
                        if !observer.is_disposed() {
                            observer.on_completed();
                        }
                    }
                }
                Step::Park(slot) => *slot.lock() = Some(handle.clone()),
            }
            handle
        }
    }

    fn slot<T>() -> Slot<T> {
        Arc::new(Mutex::new(None))
    }

    /// An inner completing on another thread races with the subscribing thread, which is
    /// still storing that inner's handle: whichever way it goes, the next inner is
    /// subscribed exactly once and the sequence completes.
    #[test]
    fn loom_completion_races_with_the_handoff() {
        loom::model(|| {
            let worker = slot();
            let o = TestObserver::new();
            concat(vec![Step::CompleteOnThread(worker.clone()), Step::Value(2)])
                .subscribe_observer(o.clone());
            worker.lock().take().unwrap().join().unwrap();
            o.assert_values(&[2]);
            o.assert_completed();
        });
    }

    /// `dispose` races with the completing thread subscribing the next inner: that inner is
    /// either never subscribed or its handle is disposed, never left running.
    #[test]
    fn loom_dispose_races_with_the_next_subscription() {
        loom::model(|| {
            let worker = slot();
            let parked = slot();
            let o = TestObserver::<i32>::new();
            let handle = concat(vec![
                Step::CompleteOnThread(worker.clone()),
                Step::Park(parked.clone()),
            ])
            .subscribe_observer(o.clone());
            handle.dispose();
            worker.lock().take().unwrap().join().unwrap();
            if let Some(inner) = parked.lock().take() {
                assert!(inner.is_disposed(), "the running inner was not disposed");
            }
            assert!(handle.is_disposed());
            o.assert_not_terminated();
        });
    }

    /// `dispose` races with a synchronous inner subscribed from the completing thread: the
    /// Rx rules hold and a completion comes only after the whole sequence.
    #[test]
    fn loom_dispose_races_with_a_synchronous_inner() {
        loom::model(|| {
            let worker = slot();
            let o = TestObserver::new();
            let handle = concat(vec![Step::CompleteOnThread(worker.clone()), Step::Value(2)])
                .subscribe_observer(o.clone());
            handle.dispose();
            worker.lock().take().unwrap().join().unwrap();
            o.assert_rules();
            if o.is_completed() {
                o.assert_values(&[2]);
            }
        });
    }
}
