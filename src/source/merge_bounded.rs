//! [`merge_bounded`]: [`merge`](crate::source::merge) of sources on several threads, with a
//! bounded queue and an [`Overflow`](crate::backpressure::Overflow) strategy.
//!
//! The serialisation is the time operators' [`Drain`]: a producer queues its value under the
//! lock, and delivers it (and whatever others queue meanwhile) itself when nobody is
//! delivering; a producer that finds someone delivering leaves its value in the queue. So the
//! queue only fills while one producer's thread delivers, and the bound applies there.
//!
//! # Blocking, and the deliverer's thread
//!
//! The deliverer records its thread while it delivers. Under
//! [`Overflow::Block`](crate::backpressure::Overflow::Block) a producer that finds the queue
//! full registers under the lock, yields a few times, then parks; the deliverer unparks every
//! registered producer once half the queue is free, and so does whatever ends the
//! subscription. A producer that finds the queue full on the deliverer's own thread (a
//! downstream that feeds the merge from inside its `on_next`) would wait for itself, and is
//! refused with [`WouldDeadlock`].

use crate::Error;
use crate::backpressure::{
    Bounded, BoundedQueue, BufferOverflow, Dropped, Offer, QueueHandle, QueueStats, WouldDeadlock,
};
use crate::engine::drain::{Drain, Ready};
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::{Arc, Mutex};
use crate::schedulers::{ImmediateWorker, ThreadObserver};
use crate::subscription::Subscription;
use std::fmt;
use std::thread::ThreadId;

/// How many times a producer that found the queue full yields its thread before it parks.
const YIELDS_BEFORE_PARKING: u32 = 8;

/// An observable that subscribes to every observable of `observables` at once and emits
/// their values as they come, as [`merge`](crate::source::merge) does, with at most the
/// bound's capacity of values waiting while one of them is being delivered; a value that
/// finds that many waiting is handled by the bound's [`Overflow`](crate::backpressure::Overflow) strategy.
///
/// Where `merge`'s queue has no bound (a producer never waits, so producers that outrun the
/// downstream make it grow), this one holds the memory of a flood to the capacity: under
/// [`Overflow::Block`](crate::backpressure::Overflow::Block) (the default) the producer's thread waits for room, so nothing is
/// lost and each source's order is kept; the other strategies drop values, each of which
/// goes to the bound's `on_drop` callback and is counted by the handle's
/// [`dropped`](MergeBoundedSubscription::dropped).
///
/// ```text
/// a:                           -1---3-|
/// b:                           ---2------4-|
/// merge_bounded([a, b], 4):    -1-2-3----4-|
/// ```
///
/// # Examples
///
/// A downstream that feeds the merge from inside its `on_next` finds the queue behind its own
/// delivery; with a capacity of 2 under `DropNewest`, the third value fed meanwhile is
/// dropped:
///
/// ```
/// use rx::backpressure::{Bounded, Overflow};
/// use rx::prelude::*;
/// use rx::subjects::PublishSubject;
/// use std::sync::{Arc, Mutex};
///
/// let (trigger, subject) = (PublishSubject::new(), PublishSubject::new());
/// let dropped = Arc::new(Mutex::new(Vec::new()));
/// let log = dropped.clone();
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let s = seen.clone();
/// let mut feed = subject.observer();
/// let handle = rx::source::merge_bounded(
///     [trigger.observable(), subject.observable()],
///     Bounded::new(2)
///         .on_full(Overflow::DropNewest)
///         .on_drop(move |v| log.lock().unwrap().push(v)),
/// )
/// .subscribe(move |v: i32| {
///     s.lock().unwrap().push(v);
///     if v == 0 {
///         for v in 1..4 {
///             feed.on_next(v);
///         }
///     }
/// });
/// trigger.observer().on_next(0);
/// assert_eq!(*seen.lock().unwrap(), [0, 1, 2]);
/// assert_eq!(*dropped.lock().unwrap(), [3]);
/// assert_eq!((handle.dropped(), handle.peak_queued()), (1, 2));
/// ```
///
/// # Errors
///
/// The first error ends the sequence after the values queued before it, and every
/// observable still running is disposed. Under
/// [`Overflow::Error`](crate::backpressure::Overflow::Error) a value that finds the
/// queue full ends it the same way with [`BufferOverflow`]; under
/// [`Overflow::Block`](crate::backpressure::Overflow::Block) a
/// producer on the delivering thread ends it with [`WouldDeadlock`].
///
/// # Performance
///
/// One allocation for the state and one for the handles kept, per subscription; a lock per
/// value (two when its producer delivers it), and no allocation per value once the queue has
/// grown to the largest burst. A blocked producer parks; it is woken once per half queue.
#[doc(alias = "onBackpressureBuffer")]
pub fn merge_bounded<I>(
    observables: I,
    bound: Bounded<<I::Item as Observable>::Item>,
) -> MergeBounded<I>
where
    I: IntoIterator,
    I::Item: Observable,
{
    MergeBounded { observables, bound }
}

/// Emits the values of several observables as they come, through a bounded queue; built by
/// [`merge_bounded`].
#[must_use = "observables do nothing unless subscribed"]
pub struct MergeBounded<I>
where
    I: IntoIterator,
    I::Item: Observable,
{
    observables: I,
    bound: Bounded<<I::Item as Observable>::Item>,
}

impl<I> Observable for MergeBounded<I>
where
    I: IntoIterator,
    I::Item: Observable,
{
    type Item = <I::Item as Observable>::Item;
    type Flavour = <I::Item as Observable>::Flavour;
}

impl<I, O> Subscribe<O> for MergeBounded<I>
where
    I: IntoIterator,
    I::Item: Observable + Subscribe<MergeBoundedObserver<O, <I::Item as Observable>::Item>>,
    <I::Item as Subscribe<MergeBoundedObserver<O, <I::Item as Observable>::Item>>>::Subscription:
        Send + 'static,
    <I::Item as Observable>::Item: Send + 'static,
    O: Observer<<I::Item as Observable>::Item> + ThreadObserver,
{
    type Subscription = MergeBoundedSubscription;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let (queue, dropped) = self.bound.into_parts();
        let observables: Vec<I::Item> = self.observables.into_iter().collect();
        let state = MergeState {
            queue,
            end: None,
            running: observables.len(),
            deliverer: None,
        };
        let shared = Arc::new(Shared {
            drain: Drain::new(ImmediateWorker, observer, state),
            dropped: Mutex::new(dropped),
        });
        if observables.is_empty() {
            shared
                .drain
                .drain_with(|state: &mut MergeState<_>| state.end = Some(Ok(())));
        }
        let mut handles = Vec::with_capacity(observables.len());
        for observable in observables {
            if shared.drain.is_closed() {
                break;
            }
            let handle = observable.subscribe_observer(MergeBoundedObserver {
                shared: shared.clone(),
                finished: false,
            });
            handles.push(Box::new(handle) as Box<dyn Subscription + Send>);
        }
        shared.drain.set_upstream(Handles(handles));
        MergeBoundedSubscription {
            shared: Box::new(shared),
        }
    }
}

/// Every upstream's handle, disposed together.
struct Handles(Vec<Box<dyn Subscription + Send>>);

impl Subscription for Handles {
    fn dispose(&self) {
        for handle in &self.0 {
            handle.dispose();
        }
    }

    fn is_disposed(&self) -> bool {
        self.0.iter().all(|handle| handle.is_disposed())
    }
}

struct MergeState<T> {
    queue: BoundedQueue<T>,
    /// How the sequence ended, waiting behind the values.
    end: Option<Result<(), Error>>,
    /// Upstreams not yet completed.
    running: usize,
    /// The thread delivering now, if any: a producer there must not wait for room.
    deliverer: Option<ThreadId>,
}

impl<T> Ready<T> for MergeState<T> {
    fn next_ready(&mut self) -> Option<Notification<T>> {
        if let Some(value) = self.queue.pop() {
            // Only the deliverer takes values: this thread delivers until the queue is empty.
            self.deliverer = Some(current_thread());
            return Some(Notification::Next(value));
        }
        self.deliverer = None;
        match self.end.take()? {
            Ok(()) => Some(Notification::Completed),
            Err(error) => Some(Notification::Error(error)),
        }
    }
}

/// This thread's id, without the reference count `thread::current()` costs.
fn current_thread() -> ThreadId {
    thread_local! {
        static ID: ThreadId = std::thread::current().id();
    }
    ID.with(|id| *id)
}

struct Shared<O, T> {
    drain: Drain<ImmediateWorker, O, MergeState<T>>,
    /// The bound's `on_drop` callback, shared by every upstream's observer.
    dropped: Mutex<Dropped<T>>,
}

impl<O, T> Shared<O, T> {
    /// Wakes the producers waiting for room once the subscription is over, and drops what is
    /// queued.
    fn wake_if_closed(&self) {
        if self.drain.is_closed() {
            let values = self.drain.with(|state| {
                state.queue.wake();
                state.queue.take_all()
            });
            // Outside the lock: a value's destructor may do anything.
            drop(values);
        }
    }

    fn report(&self, value: T) {
        self.dropped.lock().report(value);
    }
}

impl<O: Observer<T>, T> Shared<O, T> {
    /// Ends the sequence with `end` after what is queued; ends every upstream first on an
    /// error.
    fn finish(&self, end: Result<(), Error>) {
        if end.is_err() {
            self.drain.dispose_upstream();
        }
        self.drain
            .drain_with(|state: &mut MergeState<T>| match end {
                Ok(()) => {
                    state.running = state.running.saturating_sub(1);
                    if state.running == 0 && state.end.is_none() {
                        state.end = Some(Ok(()));
                    }
                }
                Err(error) => {
                    if !matches!(state.end, Some(Err(_))) {
                        state.end = Some(Err(error));
                    }
                }
            });
        self.wake_if_closed();
    }
}

/// The observer [`MergeBounded`] subscribes to each upstream.
pub struct MergeBoundedObserver<O, T> {
    shared: Arc<Shared<O, T>>,
    /// Overflowed, or refused to block: nothing more is taken.
    finished: bool,
}

impl<O, T> Observer<T> for MergeBoundedObserver<O, T>
where
    O: Observer<T> + ThreadObserver,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        let shared = &*self.shared;
        if self.finished || shared.drain.is_closed() {
            return;
        }
        let mut value = value;
        let mut yields = 0;
        loop {
            let mut offer = None;
            shared.drain.drain_with(|state: &mut MergeState<T>| {
                if matches!(state.end, Some(Err(_))) {
                    // The sequence failed: nothing more is delivered.
                    return;
                }
                state.queue.consumer = state.deliverer;
                offer = Some(state.queue.offer(value));
            });
            let capacity = || shared.drain.with(|state| state.queue.capacity());
            let error = match offer {
                None | Some(Offer::Queued) => return,
                Some(Offer::Dropped(value)) => return shared.report(value),
                Some(Offer::Overflowed(value)) => {
                    shared.report(value);
                    Error::new(BufferOverflow {
                        capacity: capacity(),
                    })
                }
                Some(Offer::WouldDeadlock(value)) => {
                    shared.report(value);
                    Error::new(WouldDeadlock {
                        capacity: capacity(),
                    })
                }
                Some(Offer::Full { value: back, .. }) => {
                    value = back;
                    if shared.drain.is_closed() {
                        return;
                    }
                    // A deliverer on another core frees room within microseconds: yield a
                    // few times before parking, which costs two context switches.
                    if yields < YIELDS_BEFORE_PARKING {
                        yields += 1;
                        std::thread::yield_now();
                    } else {
                        std::thread::park();
                    }
                    continue;
                }
            };
            self.finished = true;
            shared.finish(Err(error));
            return;
        }
    }

    fn on_error(mut self, error: Error) {
        if !std::mem::replace(&mut self.finished, true) && !self.shared.drain.is_closed() {
            self.shared.finish(Err(error));
        }
    }

    fn on_completed(mut self) {
        if !std::mem::replace(&mut self.finished, true) && !self.shared.drain.is_closed() {
            self.shared.finish(Ok(()));
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.finished || self.shared.drain.is_closed()
    }
}

impl<O, T> fmt::Debug for MergeBoundedObserver<O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MergeBoundedObserver")
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

impl<O: Send, T: Send> QueueHandle for Arc<Shared<O, T>> {
    fn dispose(&self) {
        self.drain.close();
        self.wake_if_closed();
    }

    fn is_disposed(&self) -> bool {
        self.drain.is_closed()
    }

    fn stats(&self) -> QueueStats {
        self.drain.with(|state| state.queue.stats())
    }
}

/// The handle of a [`MergeBounded`] subscription: it disposes every upstream, and reports
/// how many values wait, the most that ever waited, and how many were dropped.
pub struct MergeBoundedSubscription {
    shared: Box<dyn QueueHandle>,
}

impl MergeBoundedSubscription {
    /// The values waiting for the deliverer now.
    pub fn queued(&self) -> usize {
        self.shared.stats().queued
    }

    /// The most values that ever waited at once: at most the bound's capacity.
    pub fn peak_queued(&self) -> usize {
        self.shared.stats().peak
    }

    /// The values dropped because the queue was full, each of which went to the bound's
    /// `on_drop` callback.
    pub fn dropped(&self) -> u64 {
        self.shared.stats().dropped
    }
}

impl Subscription for MergeBoundedSubscription {
    fn dispose(&self) {
        self.shared.dispose();
    }

    fn is_disposed(&self) -> bool {
        self.shared.is_disposed()
    }
}

impl fmt::Debug for MergeBoundedSubscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stats = self.shared.stats();
        f.debug_struct("MergeBoundedSubscription")
            .field("queued", &stats.queued)
            .field("peak_queued", &stats.peak)
            .field("dropped", &stats.dropped)
            .finish_non_exhaustive()
    }
}

impl<I> fmt::Debug for MergeBounded<I>
where
    I: IntoIterator + fmt::Debug,
    I::Item: Observable,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MergeBounded")
            .field("observables", &self.observables)
            .field("bound", &self.bound)
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::merge_bounded;
    use crate::Error;
    use crate::backpressure::{Bounded, BufferOverflow, Overflow, WouldDeadlock};
    use crate::prelude::*;
    use crate::schedulers::NewThread;
    use crate::source::{empty, from_iter, just, never, throw};
    use crate::subjects::PublishSubject;
    use crate::test_kit::bounded::{logged, spin};
    use crate::testing::TestObserver;
    use std::sync::{Arc, Mutex, mpsc};
    use std::time::Duration;

    /// A downstream that, on 0 (from `trigger`), feeds 1..=10 into the merge's other source
    /// while it delivers 0: ten
    /// values queue behind its own delivery, four fit. The values seen, the error if any, the
    /// values dropped, the handle's count and peak, and whether the source is still listened
    /// to.
    fn burst(overflow: Overflow) -> (Vec<u64>, Option<Error>, Vec<u64>, u64, usize, bool) {
        let trigger = PublishSubject::new();
        let subject = PublishSubject::new();
        let (bound, log) = logged(4, overflow);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let failed = Arc::new(Mutex::new(None));
        let (s, f) = (seen.clone(), failed.clone());
        let mut feed = subject.observer();
        let handle = merge_bounded([trigger.observable(), subject.observable()], bound)
            .subscribe_with(
                move |v: u64| {
                    s.lock().unwrap().push(v);
                    if v == 0 {
                        for v in 1..=10 {
                            feed.on_next(v);
                        }
                    }
                },
                move |e| *f.lock().unwrap() = Some(e),
                || {},
            );
        trigger.observer().on_next(0);
        let seen = seen.lock().unwrap().clone();
        let dropped = log.lock().unwrap().clone();
        let error = failed.lock().unwrap().take();
        (
            seen,
            error,
            dropped,
            handle.dropped(),
            handle.peak_queued(),
            subject.has_observers(),
        )
    }

    #[test]
    fn each_drop_strategy_drops_what_its_marble_says() {
        let cases: [(Overflow, &[u64], &[u64]); 3] = [
            (Overflow::DropNewest, &[0, 1, 2, 3, 4], &[5, 6, 7, 8, 9, 10]),
            (Overflow::DropOldest, &[0, 7, 8, 9, 10], &[1, 2, 3, 4, 5, 6]),
            (Overflow::KeepLatest, &[0, 1, 2, 3, 10], &[4, 5, 6, 7, 8, 9]),
        ];
        for (overflow, kept, dropped) in cases {
            let (seen, error, log, counted, peak, listened) = burst(overflow);
            assert_eq!(seen, kept, "{overflow:?}");
            assert!(error.is_none(), "{overflow:?}");
            assert_eq!(log, dropped, "{overflow:?}");
            assert_eq!((counted, peak, listened), (6, 4, true), "{overflow:?}");
        }
    }

    #[test]
    fn error_ends_after_the_queued_values_and_disposes_upstream() {
        let (seen, error, log, counted, peak, listened) = burst(Overflow::Error);
        assert_eq!(seen, [0, 1, 2, 3, 4]);
        assert_eq!(
            error
                .unwrap()
                .downcast_ref::<BufferOverflow>()
                .unwrap()
                .capacity(),
            4
        );
        assert_eq!(log, [5]);
        assert_eq!((counted, peak, listened), (1, 4, false));
    }

    #[test]
    fn block_on_the_delivering_thread_is_refused() {
        let (seen, error, log, counted, peak, listened) = burst(Overflow::Block);
        assert_eq!(seen, [0, 1, 2, 3, 4]);
        assert_eq!(
            error.unwrap().downcast_ref::<WouldDeadlock>(),
            Some(&WouldDeadlock { capacity: 4 })
        );
        assert_eq!(log, [5]);
        assert_eq!((counted, peak, listened), (1, 4, false));
    }

    #[test]
    fn completes_once_every_source_has_completed() {
        let o = TestObserver::new();
        merge_bounded([from_iter(0..3u64), from_iter(10..12)], Bounded::new(1))
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2, 10, 11]);
        o.assert_completed();

        let o = TestObserver::<u64>::new();
        merge_bounded(Vec::<crate::source::Empty<u64>>::new(), Bounded::new(1))
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_completed();

        let o = TestObserver::<u64>::new();
        merge_bounded([empty().boxed(), never().boxed()], Bounded::new(1))
            .subscribe_observer(o.clone());
        o.assert_not_terminated();
    }

    #[test]
    fn the_first_error_ends_the_sequence_and_disposes_the_others() {
        let subject = PublishSubject::<u64>::new();
        let o = TestObserver::new();
        merge_bounded(
            [
                subject.observable().boxed(),
                just(1).boxed(),
                throw(Error::msg("bad")).boxed(),
                just(2).boxed(),
            ],
            Bounded::new(4),
        )
        .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("bad");
        assert!(!subject.has_observers());
    }

    #[test]
    fn disposing_stops_every_source() {
        let a = PublishSubject::<u64>::new();
        let b = PublishSubject::<u64>::new();
        let o = TestObserver::new();
        let handle = merge_bounded([a.observable(), b.observable()], Bounded::new(4))
            .subscribe_observer(o.clone());
        a.observer().on_next(1);
        b.observer().on_next(2);
        handle.dispose();
        assert!(handle.is_disposed());
        assert!(!a.has_observers() && !b.has_observers());
        o.assert_values(&[1, 2]);
    }

    const PRODUCERS: u64 = 4;
    const EACH: u64 = 1000;

    /// `PRODUCERS` threads each send `EACH` values (`p * EACH + i`), into a downstream that
    /// spends 20 µs on each: the values delivered, those dropped, the handle's count and peak.
    fn flood(capacity: usize, overflow: Overflow) -> (Vec<u64>, Vec<u64>, u64, usize) {
        let (bound, log) = logged(capacity, overflow);
        let (done, finished) = mpsc::channel();
        let received = Arc::new(Mutex::new(Vec::new()));
        let r = received.clone();
        let sources: Vec<_> = (0..PRODUCERS)
            .map(|p| from_iter(p * EACH..(p + 1) * EACH).subscribe_on(NewThread))
            .collect();
        let handle = merge_bounded(sources, bound).subscribe_with(
            move |v| {
                spin(20);
                r.lock().unwrap().push(v);
            },
            |e: Error| panic!("{e}"),
            move || done.send(()).unwrap(),
        );
        finished.recv_timeout(Duration::from_secs(120)).unwrap();
        let received = received.lock().unwrap().clone();
        let dropped = log.lock().unwrap().clone();
        (received, dropped, handle.dropped(), handle.peak_queued())
    }

    fn of_source(values: &[u64], p: u64) -> Vec<u64> {
        values.iter().copied().filter(|v| v / EACH == p).collect()
    }

    #[test]
    fn a_flood_from_threads_under_block_loses_nothing_and_keeps_each_order() {
        let (received, dropped, counted, peak) = flood(16, Overflow::Block);
        assert_eq!(received.len() as u64, PRODUCERS * EACH);
        for p in 0..PRODUCERS {
            assert_eq!(
                of_source(&received, p),
                (p * EACH..(p + 1) * EACH).collect::<Vec<_>>()
            );
        }
        assert!(dropped.is_empty());
        assert_eq!(counted, 0);
        assert!(peak <= 16, "peak {peak}");
    }

    #[test]
    fn a_flood_from_threads_under_each_drop_strategy_accounts_for_every_value() {
        for overflow in [
            Overflow::DropNewest,
            Overflow::DropOldest,
            Overflow::KeepLatest,
        ] {
            let (received, dropped, counted, peak) = flood(16, overflow);
            assert!(peak <= 16, "{overflow:?}: peak {peak}");
            assert_eq!(counted, dropped.len() as u64, "{overflow:?}");
            let mut all: Vec<_> = received.iter().chain(&dropped).copied().collect();
            all.sort_unstable();
            assert_eq!(
                all,
                (0..PRODUCERS * EACH).collect::<Vec<_>>(),
                "{overflow:?}"
            );
            for p in 0..PRODUCERS {
                let kept = of_source(&received, p);
                assert!(kept.windows(2).all(|w| w[0] < w[1]), "{overflow:?}");
            }
        }
    }
}
