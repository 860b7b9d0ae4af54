//! [`ObservableExt::expand`](crate::ObservableExt::expand).
//!
//! # How it works
//!
//! Every value, from the source or from any projection, is emitted and then projected, and
//! the projection subscribed: the upstreams form a tree that grows while it runs. They all
//! deliver into one [`Core`], behind one `Arc` per subscription, whose emitter loop
//! (RxJava's, as in the merge core) serialises them: whoever finds the loop idle takes the
//! downstream observer and the projection out of the lock and works through the queue, a
//! value at a time: project it, emit it, subscribe its projection. Whoever finds it busy
//! (another thread, or an upstream answering synchronously from inside the subscription
//! the loop is making) queues its value and returns.
//!
//! **The stack stays flat.** A projection that emits synchronously when subscribed only
//! queues its values, and returns; the loop, one frame up, takes them next. A chain of a
//! hundred thousand synchronous projections runs in one loop, not a hundred thousand nested
//! subscriptions. The price: values of synchronous projections come breadth-first (all of
//! one projection's values, then the projections of each), where RxJS, which recurses,
//! goes depth-first; timed upstreams come in time order either way.
//!
//! **Resubscribing without a trait cycle.** The loop subscribes projections with the same
//! observer type the source has, so the observer's own impl cannot require the projection
//! to accept it (the trait solver would go round). The loop is a function pointer, taken
//! where [`Expand`]'s `Subscribe` impl has proven that bound, and stored in the core.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::{Arc, AtomicBool, Mutex, Ordering};
use crate::subscription::Subscription;
use slab::Slab;
use std::collections::VecDeque;
use std::fmt;
use std::marker::PhantomData;

/// Emits each value and subscribes to its projection, recursively; built by
/// [`ObservableExt::expand`](crate::ObservableExt::expand).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "unfold")]
pub struct Expand<S, F> {
    source: S,
    f: F,
}

impl<S, F> Expand<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        Expand { source, f }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for Expand<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Expand")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<S: Observable, F> Observable for Expand<S, F> {
    type Item = S::Item;
    type Flavour = S::Flavour;
}

impl<S, F, N, O> Subscribe<O> for Expand<S, F>
where
    S: Subscribe<ExpandObserver<O, F, <S as Observable>::Item, N>>,
    S::Subscription: Send + 'static,
    F: FnMut(&<S as Observable>::Item) -> N,
    N: Subscribe<ExpandObserver<O, F, <S as Observable>::Item, N>>
        + Observable<Item = <S as Observable>::Item>,
    N::Subscription: Send + 'static,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = ExpandSubscription<O, F, <S as Observable>::Item, N>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        // A downstream that is already disposed gets nothing, and the source pulls nothing.
        let closed = observer.is_disposed();
        let core = Arc::new(Core {
            drive: drive::<O, F, <S as Observable>::Item, N>,
            closed: AtomicBool::new(closed),
            state: Mutex::new(State {
                hand: Some((observer, self.f)),
                queue: VecDeque::new(),
                error: None,
                active: 1,
                source: Slot::Subscribing,
                inners: Slab::new(),
            }),
            _inner: PhantomData,
        });
        let handle = self.source.subscribe_observer(ExpandObserver {
            core: core.clone(),
            id: None,
        });
        let mut state = core.state.lock();
        match state.source {
            Slot::Subscribing if !core.is_closed() => {
                state.source = Slot::Kept(Box::new(handle));
                drop(state);
            }
            // Closed meanwhile: `close` has taken the slot.
            _ if core.is_closed() => {
                drop(state);
                handle.dispose();
            }
            // It terminated inside its `subscribe`.
            _ => drop(state),
        }
        ExpandSubscription { core }
    }
}

type Handle = Box<dyn Subscription + Send>;

/// Where an upstream's handle is kept.
enum Slot {
    /// Its `subscribe` has not returned yet.
    Subscribing,
    Kept(Handle),
    /// It has terminated (maybe inside its `subscribe`): its handle is not kept.
    Done,
}

/// What the source and every projection deliver into.
struct Core<O, F, T, N> {
    /// The emitter loop, [`drive`] for these types.
    drive: fn(&Arc<Self>),
    /// Set once the subscription is over. Read without the lock by the upstreams'
    /// `is_disposed`, which a synchronous source asks before every value.
    closed: AtomicBool,
    state: Mutex<State<O, F, T>>,
    _inner: PhantomData<fn() -> N>,
}

struct State<O, F, T> {
    /// The downstream observer and the projection, while no one runs the loop; `None`
    /// while someone does, and once the subscription is over.
    hand: Option<(O, F)>,
    /// Values waiting to be emitted and projected: only ever more than one while deliveries
    /// overlap or projections answer synchronously.
    queue: VecDeque<T>,
    /// The first error, delivered ahead of the queued values.
    error: Option<Error>,
    /// Upstreams that have not terminated: the source and the running projections.
    active: usize,
    source: Slot,
    /// The running projections' handles, by the id their observer carries.
    inners: Slab<Slot>,
}

impl<O, F, T, N> Core<O, F, T, N> {
    fn is_closed(&self) -> bool {
        // Acquire pairs with the Release in `close`.
        self.closed.load(Ordering::Acquire)
    }

    /// Ends the subscription with the lock held: takes what must be disposed and dropped,
    /// which the caller does once it has released the lock.
    fn close(&self, state: &mut State<O, F, T>) -> Closing<O, F> {
        self.closed.store(true, Ordering::Release);
        let source = std::mem::replace(&mut state.source, Slot::Done);
        let inners = std::mem::take(&mut state.inners);
        state.queue.clear();
        Closing {
            hand: state.hand.take(),
            source,
            inners,
        }
    }
}

/// What a closing subscription releases, outside the lock: handles' `dispose` and the
/// observer's `Drop` are user code.
struct Closing<O, F> {
    hand: Option<(O, F)>,
    source: Slot,
    inners: Slab<Slot>,
}

impl<O, F> Closing<O, F> {
    fn finish(self) {
        if let Slot::Kept(handle) = self.source {
            handle.dispose();
        }
        for (_, slot) in self.inners {
            if let Slot::Kept(handle) = slot {
                handle.dispose();
            }
        }
        drop(self.hand);
    }
}

/// The emitter loop: emits, projects and subscribes the queued values until none is left,
/// unless someone else runs it.
fn drive<O, F, T, N>(core: &Arc<Core<O, F, T, N>>)
where
    O: Observer<T>,
    F: FnMut(&T) -> N,
    N: Subscribe<ExpandObserver<O, F, T, N>> + Observable<Item = T>,
    N::Subscription: Send + 'static,
{
    let mut state = core.state.lock();
    let Some((mut observer, mut f)) = state.hand.take() else {
        return;
    };
    loop {
        if core.is_closed() {
            drop(state);
            drop((observer, f));
            return;
        }
        if let Some(error) = state.error.take() {
            let closing = core.close(&mut state);
            drop(state);
            closing.finish();
            drop(f);
            observer.on_error(error);
            return;
        }
        let Some(value) = state.queue.pop_front() else {
            if state.active == 0 {
                let closing = core.close(&mut state);
                drop(state);
                closing.finish();
                drop(f);
                observer.on_completed();
            } else {
                state.hand = Some((observer, f));
            }
            return;
        };
        drop(state);
        if observer.is_disposed() {
            state = core.state.lock();
            let closing = core.close(&mut state);
            drop(state);
            closing.finish();
            drop((observer, f));
            return;
        }
        // RxJS emits the value before it projects it; the projection borrows it, so here it
        // is projected first, and subscribed after the emission.
        let inner = f(&value);
        observer.on_next(value);
        let unwanted = observer.is_disposed();
        state = core.state.lock();
        if unwanted || core.is_closed() {
            let closing = core.close(&mut state);
            drop(state);
            closing.finish();
            drop((observer, f));
            return;
        }
        // No one else inserts while this loop runs, so the id is not reused before
        // `subscribe` returns even if the projection terminates inside it.
        let id = state.inners.insert(Slot::Subscribing);
        state.active += 1;
        drop(state);
        let handle = inner.subscribe_observer(ExpandObserver {
            core: core.clone(),
            id: Some(id),
        });
        state = core.state.lock();
        match state.inners.get_mut(id) {
            Some(slot @ Slot::Subscribing) => *slot = Slot::Kept(Box::new(handle)),
            Some(_) => {
                // It terminated inside its `subscribe`.
                state.inners.remove(id);
            }
            None => {
                // Disposed meanwhile: `close` took the slots.
                drop(state);
                handle.dispose();
                state = core.state.lock();
            }
        }
    }
}

/// The observer [`Expand`] subscribes the source and every projection with.
pub struct ExpandObserver<O, F, T, N> {
    core: Arc<Core<O, F, T, N>>,
    /// The projection's id among the running ones; `None` for the source.
    id: Option<usize>,
}

impl<O, F, T, N> ExpandObserver<O, F, T, N> {
    /// Marks this upstream terminated.
    fn finish(&self, state: &mut State<O, F, T>) {
        state.active -= 1;
        match self.id {
            None => state.source = Slot::Done,
            Some(id) => {
                if let Some(slot) = state.inners.get_mut(id) {
                    if matches!(slot, Slot::Subscribing) {
                        // Its `subscribe` is still running: the loop frees the id then.
                        *slot = Slot::Done;
                    } else {
                        state.inners.remove(id);
                    }
                }
            }
        }
    }
}

impl<O, F, T, N> Observer<T> for ExpandObserver<O, F, T, N> {
    fn on_next(&mut self, value: T) {
        let mut state = self.core.state.lock();
        if self.core.is_closed() {
            return;
        }
        state.queue.push_back(value);
        drop(state);
        (self.core.drive)(&self.core);
    }

    fn on_error(self, error: Error) {
        let mut state = self.core.state.lock();
        if self.core.is_closed() {
            return;
        }
        self.finish(&mut state);
        state.error.get_or_insert(error);
        drop(state);
        (self.core.drive)(&self.core);
    }

    fn on_completed(self) {
        let mut state = self.core.state.lock();
        if self.core.is_closed() {
            return;
        }
        self.finish(&mut state);
        drop(state);
        (self.core.drive)(&self.core);
    }

    fn is_disposed(&self) -> bool {
        self.core.is_closed()
    }
}

impl<O, F, T, N> fmt::Debug for ExpandObserver<O, F, T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExpandObserver")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// The handle of an [`Expand`] subscription: disposes the source and every running
/// projection.
pub struct ExpandSubscription<O, F, T, N> {
    core: Arc<Core<O, F, T, N>>,
}

impl<O, F, T, N> Subscription for ExpandSubscription<O, F, T, N> {
    fn dispose(&self) {
        if self.core.is_closed() {
            return;
        }
        let mut state = self.core.state.lock();
        let closing = self.core.close(&mut state);
        drop(state);
        closing.finish();
    }

    fn is_disposed(&self) -> bool {
        self.core.is_closed()
    }
}

impl<O, F, T, N> fmt::Debug for ExpandSubscription<O, F, T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExpandSubscription")
            .field("disposed", &self.core.is_closed())
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, just, throw};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn emits_each_value_and_its_projections() {
        let o = TestObserver::new();
        from_iter([1, 3])
            .expand(|&x| from_iter((x < 8).then_some(x * 2)))
            .subscribe_observer(o.clone());
        // Breadth-first for synchronous projections: 3 is queued while 1's run.
        o.assert_values(&[1, 2, 4, 8, 3, 6, 12]);
        o.assert_completed();
    }

    #[test]
    fn synchronous_recursion_does_not_grow_the_stack() {
        let o = TestObserver::new();
        let depth = 100_000u32;
        just(0u32)
            .expand(move |&x| from_iter((x < depth).then_some(x + 1)))
            .count()
            .subscribe_observer(o.clone());
        o.assert_values(&[depth as usize + 1]);
        o.assert_completed();
    }

    #[test]
    fn an_endless_recursion_is_ended_by_downstream() {
        let o = TestObserver::new();
        let handle = just(0)
            .expand(|&x| just(x + 1))
            .take(5)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(0), Next(1), Next(2), Next(3), Next(4), Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn timed_projections_run_concurrently_in_time_order() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let inner = sch.clone();
        cold(
            &sch,
            [(ms(0), Next(1)), (ms(5), Next(10)), (ms(6), Completed)],
        )
        .expand(move |&x| {
            if x % 10 < 3 {
                cold(&inner, [(ms(10), Next(x + 1)), (ms(10), Completed)])
            } else {
                cold(&inner, [(ms(0), Completed)])
            }
        })
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(0), Next(1)),
            (ms(5), Next(10)),
            (ms(10), Next(2)),
            (ms(15), Next(11)),
            (ms(20), Next(3)),
            (ms(25), Next(12)),
            (ms(35), Next(13)),
            (ms(35), Completed),
        ]);
    }

    #[test]
    fn the_projection_is_called_once_per_value_before_its_emission() {
        let calls = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let c = calls.clone();
        let o = TestObserver::new();
        from_iter([1, 2])
            .expand(move |&x| {
                c.lock().unwrap().push(x);
                from_iter((x < 2).then_some(x + 1))
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 2]);
        assert_eq!(*calls.lock().unwrap(), [1, 2, 2]);
    }

    #[test]
    fn an_error_disposes_everything_running() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let a = Hot::<i32>::new("a", &log);
        let b = Hot::<i32>::new("b", &log);
        let (pa, pb) = (a.clone(), b.clone());
        let o = TestObserver::new();
        source
            .clone()
            .expand(move |&x| if x == 1 { pa.clone() } else { pb.clone() })
            .subscribe_observer(o.clone());
        source.next(1);
        source.next(2);
        assert_eq!(
            drain(&log),
            ["subscribe source", "subscribe a", "subscribe b"]
        );
        a.error("a failed");
        o.assert_notifications(&[Next(1), Next(2), Error(Error::msg("a failed"))]);
        let mut disposed = drain(&log);
        disposed.sort();
        assert_eq!(disposed, ["dispose b", "dispose source"]);
        assert_eq!((source.subscribers(), b.subscribers()), (0, 0));
    }

    #[test]
    fn completes_after_the_source_and_every_projection() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let inner = Hot::<i32>::new("inner", &log);
        let p = inner.clone();
        let o = TestObserver::new();
        source
            .clone()
            .expand(move |&x| {
                if x == 1 {
                    p.clone()
                } else {
                    Hot::new("leaf", &Log::default())
                }
            })
            .subscribe_observer(o.clone());
        source.next(1);
        source.complete();
        o.assert_not_terminated();
        inner.next(5);
        o.assert_values(&[1, 5]);
        inner.complete();
        // 5's projection, a leaf, still runs.
        o.assert_not_terminated();
    }

    #[test]
    fn disposing_the_handle_disposes_the_source_and_the_projections() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let inner = Hot::<i32>::new("inner", &log);
        let p = inner.clone();
        let o = TestObserver::new();
        let handle = source
            .clone()
            .expand(move |_| p.clone())
            .subscribe_observer(o.clone());
        source.next(1);
        handle.dispose();
        assert!(handle.is_disposed());
        assert_eq!((source.subscribers(), inner.subscribers()), (0, 0));
        source.next(2);
        o.assert_values(&[1]);
        o.assert_not_terminated();
    }

    #[test]
    fn source_error() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("source"))
            .expand(|&x| just(x))
            .subscribe_observer(o.clone());
        o.assert_error("source");
    }
}

/// Models of the expand core. Run with
/// `RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=2 cargo test --profile loom --lib loom`.
#[cfg(all(test, loom))]
mod loom_tests {
    use crate::observable::{Observable, Subscribe};
    use crate::observer::{DynObserver, Observer};
    use crate::prelude::*;
    use crate::primitive::{Arc, Mutex, thread};
    use crate::subscription::FlagSubscription;
    use crate::testing::TestObserver;

    type Captured = Arc<Mutex<Vec<Box<dyn DynObserver<u32> + Send>>>>;

    /// An observable that hands its observer to the test, to be driven from any thread.
    #[derive(Clone)]
    struct Capture(Captured);

    impl Observable for Capture {
        type Item = u32;
        type Flavour = crate::sync::Shared;
    }

    impl<O: Observer<u32> + Send + 'static> Subscribe<O> for Capture {
        type Subscription = FlagSubscription;
        fn subscribe_observer(self, observer: O) -> FlagSubscription {
            self.0.lock().push(Box::new(observer));
            FlagSubscription::new()
        }
    }

    fn take(captured: &Captured) -> Box<dyn DynObserver<u32> + Send> {
        captured.lock().remove(0)
    }

    #[test]
    fn loom_a_projection_and_the_source_deliver_at_once() {
        loom::model(|| {
            let captured: Captured = Arc::default();
            let o = TestObserver::new();
            let inner = Capture(captured.clone());
            Capture(captured.clone())
                .expand(move |_| inner.clone())
                .subscribe_observer(o.clone());
            let mut source = take(&captured);
            Observer::on_next(&mut source, 1);
            let mut projection = take(&captured);
            let t = thread::spawn(move || {
                Observer::on_next(&mut projection, 10);
                Observer::on_completed(projection);
            });
            Observer::on_next(&mut source, 2);
            Observer::on_completed(source);
            t.join().unwrap();
            // The projections of 2 and 10 are still running: end them.
            o.assert_not_terminated();
            while !captured.lock().is_empty() {
                Observer::on_completed(take(&captured));
            }
            o.assert_rules();
            o.assert_completed();
            let values = o.values();
            assert_eq!(values[0], 1);
            let mut rest = values[1..].to_vec();
            rest.sort_unstable();
            assert_eq!(rest, [2, 10]);
        });
    }

    #[test]
    fn loom_dispose_racing_a_delivery() {
        loom::model(|| {
            let captured: Captured = Arc::default();
            let o = TestObserver::new();
            let handle = Capture(captured.clone())
                .expand(|_| crate::source::empty::<u32>())
                .subscribe_observer(o.clone());
            let mut source = take(&captured);
            let t = thread::spawn(move || handle.dispose());
            Observer::on_next(&mut source, 1);
            Observer::on_next(&mut source, 2);
            t.join().unwrap();
            o.assert_rules();
            o.assert_not_terminated();
            let values = o.values();
            assert!(values.len() <= 2);
            assert!(values.iter().copied().eq(1..=values.len() as u32));
            assert!(Observer::<u32>::is_disposed(&source));
        });
    }
}
