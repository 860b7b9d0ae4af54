//! [`ObservableExt::observe_on_bounded`](crate::ObservableExt::observe_on_bounded):
//! `observe_on` with a bounded queue and an
//! [`Overflow`](crate::backpressure::Overflow) strategy.
//!
//! The queue, the delivering task and the serialisation are `observe_on`'s ([`Drain`]); the
//! queue holds at most the bound's capacity of values (a terminal notification waits beside
//! them), and [`BoundedQueue`] decides what happens to a value that finds it full.
//!
//! # Blocking, and the consumer's thread
//!
//! Under [`Overflow::Block`](crate::backpressure::Overflow::Block) the producer registers
//! its thread under the lock and parks, after yielding its thread a few times and retrying
//! (a consumer on another core frees room within microseconds); the delivering task unparks
//! it, under the same lock, once half the queue is free, and so does
//! whatever closes the subscription. A wake-up cannot be lost: the check for room and the
//! registration happen under the lock the consumer pops under, and an unpark that comes
//! before the park makes the park return at once.
//!
//! The delivering task records the thread it runs on each time it runs, and is scheduled once
//! at subscribe, so the worker's thread is known as soon as the worker gets to it. A producer
//! that finds the queue full on that thread is refused with [`WouldDeadlock`]. Until the task
//! has run once the thread is not known: a producer that fills the queue then waits for it up
//! to [`FIRST_RUN_GRACE`], and is then refused too, since a worker that has not started the
//! task in that time is most likely blocked by the producer itself (a synchronous source on a
//! `TestScheduler`, `RunLoop` or pool thread that is to deliver too).

use crate::Error;
use crate::backpressure::{
    Bounded, BoundedQueue, BufferOverflow, Dropped, Offer, QueueHandle, QueueStats, WouldDeadlock,
};
use crate::engine::drain::{Drain, Ready, runs_inline};
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::schedulers::{Reschedule, Scheduler, ThreadObserver, Worker};
use crate::subscription::Subscription;
use crate::time::Instant;
use std::fmt;
use std::mem;
use std::time::Duration;

/// How long a producer that filled the queue under `Overflow::Block` waits for the
/// delivering task's first run, before it is taken to be on the worker's thread.
pub(crate) const FIRST_RUN_GRACE: Duration = Duration::from_secs(1);

/// How many times a producer that found the queue full yields its thread before it parks.
const YIELDS_BEFORE_PARKING: u32 = 8;

/// Delivers every notification on a scheduler's worker through a bounded queue; built by
/// [`ObservableExt::observe_on_bounded`](crate::ObservableExt::observe_on_bounded).
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "observeOn")]
#[doc(alias = "onBackpressureBuffer")]
pub struct ObserveOnBounded<S: Observable, Sch> {
    source: S,
    scheduler: Sch,
    bound: Bounded<<S as Observable>::Item>,
}

impl<S: Observable, Sch> ObserveOnBounded<S, Sch> {
    pub(crate) fn new(source: S, scheduler: Sch, bound: Bounded<S::Item>) -> Self {
        ObserveOnBounded {
            source,
            scheduler,
            bound,
        }
    }
}

impl<S: Observable, Sch> Observable for ObserveOnBounded<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for ObserveOnBounded<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<ObserveOnBoundedObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<<S as Observable>::Item> + ThreadObserver,
{
    type Subscription = ObserveOnBoundedSubscription<S::Subscription>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if runs_inline::<Sch::Worker>() {
            let upstream = self.source.subscribe_observer(ObserveOnBoundedObserver {
                mode: Mode::Direct(observer),
            });
            return ObserveOnBoundedSubscription {
                mode: HandleMode::Direct(upstream),
            };
        }
        let (queue, dropped) = self.bound.into_parts();
        let state = BoundedState {
            queue,
            end: None,
            // The first run, scheduled below, learns the worker's thread.
            armed: true,
        };
        let shared = Arc::new(Shared {
            drain: Drain::new(self.scheduler.worker(), observer, state),
        });
        let task_shared = shared.clone();
        shared
            .drain
            .worker()
            .schedule(move || deliver(&task_shared));
        let upstream = self.source.subscribe_observer(ObserveOnBoundedObserver {
            mode: Mode::Queued {
                shared: shared.clone(),
                dropped,
                finished: false,
            },
        });
        shared.drain.set_upstream(upstream);
        ObserveOnBoundedSubscription {
            mode: HandleMode::Queued(Box::new(shared)),
        }
    }
}

struct BoundedState<T> {
    queue: BoundedQueue<T>,
    /// How the sequence ended, waiting behind the values.
    end: Option<Result<(), Error>>,
    /// The delivering task is scheduled or running; it takes whatever arrives meanwhile.
    armed: bool,
}

impl<T> Ready<T> for BoundedState<T> {
    fn next_ready(&mut self) -> Option<Notification<T>> {
        if let Some(value) = self.queue.pop() {
            return Some(Notification::Next(value));
        }
        match self.end.take()? {
            Ok(()) => Some(Notification::Completed),
            Err(error) => Some(Notification::Error(error)),
        }
    }
}

struct Shared<W, O, T> {
    drain: Drain<W, O, BoundedState<T>>,
}

impl<W: Worker, O, T> Shared<W, O, T> {
    /// Wakes a producer waiting for room once the subscription is over.
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
}

/// Queues `end`, and schedules the delivering task unless it is already scheduled.
fn finish<W, O, T>(shared: &Arc<Shared<W, O, T>>, end: Result<(), Error>)
where
    W: Worker,
    O: Observer<T> + ThreadObserver,
    T: Send + 'static,
{
    let start = shared.drain.with(|state| {
        state.end = Some(end);
        !mem::replace(&mut state.armed, true)
    });
    if start {
        schedule(shared);
    }
}

fn schedule<W, O, T>(shared: &Arc<Shared<W, O, T>>)
where
    W: Worker,
    O: Observer<T> + ThreadObserver,
    T: Send + 'static,
{
    let task_shared = shared.clone();
    shared
        .drain
        .worker()
        .schedule(move || deliver(&task_shared));
}

/// The delivering task: notes its thread, delivers everything queued, in order; then, if more
/// has arrived meanwhile, runs again after what else the worker has queued.
fn deliver<W, O, T>(shared: &Shared<W, O, T>) -> Reschedule
where
    W: Worker,
    O: Observer<T>,
{
    let here = std::thread::current().id();
    shared.drain.with(|state| state.queue.consumer = Some(here));
    shared.drain.drain();
    shared.wake_if_closed();
    shared.drain.with(|state| {
        if (state.queue.is_empty() && state.end.is_none()) || shared.drain.is_closed() {
            state.armed = false;
            Reschedule::Done
        } else {
            Reschedule::At(shared.drain.worker().now())
        }
    })
}

/// The observer [`ObserveOnBounded`] subscribes upstream.
pub struct ObserveOnBoundedObserver<W, O, T> {
    mode: Mode<W, O, T>,
}

enum Mode<W, O, T> {
    /// The worker runs tasks inline: deliver directly.
    Direct(O),
    /// Through a bounded queue drained by one task on the worker.
    Queued {
        shared: Arc<Shared<W, O, T>>,
        dropped: Dropped<T>,
        /// Overflowed, or refused to block: nothing more is taken.
        finished: bool,
    },
}

impl<W, O, T> Observer<T> for ObserveOnBoundedObserver<W, O, T>
where
    W: Worker,
    O: Observer<T> + ThreadObserver,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        let (shared, dropped, finished) = match &mut self.mode {
            Mode::Direct(observer) => return observer.on_next(value),
            Mode::Queued {
                shared,
                dropped,
                finished,
            } => (shared, dropped, finished),
        };
        if *finished || shared.drain.is_closed() {
            return;
        }
        let mut value = value;
        let mut waiting_since: Option<Instant> = None;
        let mut yields = 0;
        loop {
            let (offer, start) = shared.drain.with(|state| {
                let offer = state.queue.offer(value);
                let start = matches!(offer, Offer::Queued | Offer::Dropped(_))
                    && !mem::replace(&mut state.armed, true);
                (offer, start)
            });
            if start {
                schedule(shared);
            }
            let error = match offer {
                Offer::Queued => return,
                Offer::Dropped(value) => return dropped.report(value),
                Offer::Overflowed(value) => {
                    let capacity = shared.drain.with(|state| state.queue.capacity());
                    dropped.report(value);
                    Error::new(BufferOverflow { capacity })
                }
                Offer::WouldDeadlock(value) => {
                    let capacity = shared.drain.with(|state| state.queue.capacity());
                    dropped.report(value);
                    Error::new(WouldDeadlock { capacity })
                }
                Offer::Full {
                    value: back,
                    consumer_known,
                } => {
                    value = back;
                    if shared.drain.is_closed() {
                        return;
                    }
                    if consumer_known {
                        // A consumer on another core frees room within microseconds: yield a
                        // few times before parking, which costs two context switches.
                        if yields < YIELDS_BEFORE_PARKING {
                            yields += 1;
                            std::thread::yield_now();
                        } else {
                            std::thread::park();
                        }
                        continue;
                    }
                    let since = *waiting_since.get_or_insert_with(Instant::now);
                    let left = FIRST_RUN_GRACE.saturating_sub(since.elapsed());
                    if !left.is_zero() {
                        std::thread::park_timeout(left);
                        continue;
                    }
                    let capacity = shared.drain.with(|state| {
                        state.queue.count_dropped();
                        state.queue.capacity()
                    });
                    dropped.report(value);
                    Error::new(WouldDeadlock { capacity })
                }
            };
            *finished = true;
            shared.drain.dispose_upstream();
            finish(shared, Err(error));
            return;
        }
    }

    fn on_error(self, error: Error) {
        match self.mode {
            Mode::Direct(observer) => observer.on_error(error),
            Mode::Queued {
                shared, finished, ..
            } => {
                if !finished && !shared.drain.is_closed() {
                    finish(&shared, Err(error));
                }
            }
        }
    }

    fn on_completed(self) {
        match self.mode {
            Mode::Direct(observer) => observer.on_completed(),
            Mode::Queued {
                shared, finished, ..
            } => {
                if !finished && !shared.drain.is_closed() {
                    finish(&shared, Ok(()));
                }
            }
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        match &self.mode {
            Mode::Direct(observer) => observer.is_disposed(),
            Mode::Queued {
                shared, finished, ..
            } => *finished || shared.drain.is_closed(),
        }
    }
}

impl<W, O, T> fmt::Debug for ObserveOnBoundedObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mode = match self.mode {
            Mode::Direct(_) => "direct",
            Mode::Queued { .. } => "queued",
        };
        f.debug_struct("ObserveOnBoundedObserver")
            .field("mode", &mode)
            .finish_non_exhaustive()
    }
}

impl<W, O, T> QueueHandle for Arc<Shared<W, O, T>>
where
    W: Worker,
    O: Send,
    T: Send,
{
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

/// The handle of an [`ObserveOnBounded`] subscription: it disposes the subscription, and
/// reports how many values wait, the most that ever waited, and how many were dropped.
pub struct ObserveOnBoundedSubscription<U> {
    mode: HandleMode<U>,
}

enum HandleMode<U> {
    Direct(U),
    Queued(Box<dyn QueueHandle>),
}

impl<U> ObserveOnBoundedSubscription<U> {
    fn stats(&self) -> QueueStats {
        match &self.mode {
            HandleMode::Direct(_) => QueueStats::default(),
            HandleMode::Queued(shared) => shared.stats(),
        }
    }

    /// The values waiting for the worker now.
    pub fn queued(&self) -> usize {
        self.stats().queued
    }

    /// The most values that ever waited at once: at most the bound's capacity.
    pub fn peak_queued(&self) -> usize {
        self.stats().peak
    }

    /// The values dropped because the queue was full, each of which went to the bound's
    /// `on_drop` callback.
    pub fn dropped(&self) -> u64 {
        self.stats().dropped
    }
}

impl<U: Subscription> Subscription for ObserveOnBoundedSubscription<U> {
    fn dispose(&self) {
        match &self.mode {
            HandleMode::Direct(upstream) => upstream.dispose(),
            HandleMode::Queued(shared) => shared.dispose(),
        }
    }

    fn is_disposed(&self) -> bool {
        match &self.mode {
            HandleMode::Direct(upstream) => upstream.is_disposed(),
            HandleMode::Queued(shared) => shared.is_disposed(),
        }
    }
}

impl<U> fmt::Debug for ObserveOnBoundedSubscription<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stats = self.stats();
        f.debug_struct("ObserveOnBoundedSubscription")
            .field("queued", &stats.queued)
            .field("peak_queued", &stats.peak)
            .field("dropped", &stats.dropped)
            .finish_non_exhaustive()
    }
}

impl<S: Observable, Sch: fmt::Debug> fmt::Debug for ObserveOnBounded<S, Sch>
where
    S: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObserveOnBounded")
            .field("source", &self.source)
            .field("scheduler", &self.scheduler)
            .field("bound", &self.bound)
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::backpressure::{Bounded, BufferOverflow, Overflow, WouldDeadlock};
    use crate::prelude::*;
    use crate::schedulers::{Immediate, NewThread, TestScheduler};
    use crate::source::{from_iter, interval};
    use crate::subjects::PublishSubject;
    use crate::test_kit::bounded::{logged, spin};
    use crate::testing::TestObserver;
    use std::sync::{Arc, Mutex, mpsc};
    use std::time::{Duration, Instant};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// 1,000 values, one a millisecond on one test scheduler, into a consumer that gets time
    /// on another only once every ten milliseconds: ten values arrive per delivery, four fit.
    fn slow_consumer(overflow: Overflow) -> (TestObserver<u64>, Vec<u64>, u64, usize) {
        let producer = TestScheduler::new();
        let consumer = TestScheduler::new();
        let (bound, log) = logged(4, overflow);
        let o = TestObserver::new();
        let handle = interval(ms(1), producer.clone())
            .take(1000)
            .observe_on_bounded(consumer.clone(), bound)
            .subscribe_observer(o.clone());
        for _ in 0..100 {
            producer.advance_by(ms(10));
            assert!(handle.queued() <= 4);
            consumer.advance_by(Duration::ZERO);
            assert_eq!(handle.queued(), 0);
        }
        let dropped = log.lock().unwrap().clone();
        (o, dropped, handle.dropped(), handle.peak_queued())
    }

    #[test]
    fn a_consumer_ten_times_slower_sees_what_each_strategy_keeps() {
        let rounds =
            |keep: &dyn Fn(u64) -> bool| (0..1000).filter(|v| keep(*v)).collect::<Vec<_>>();
        let cases: [(Overflow, &dyn Fn(u64) -> bool); 3] = [
            (Overflow::DropNewest, &|v| v % 10 < 4),
            (Overflow::DropOldest, &|v| v % 10 >= 6),
            (Overflow::KeepLatest, &|v| v % 10 < 3 || v % 10 == 9),
        ];
        for (overflow, kept) in cases {
            let (o, dropped, counted, peak) = slow_consumer(overflow);
            o.assert_values(&rounds(kept));
            o.assert_completed();
            let mut expected_drops = rounds(&|v| !kept(v));
            let mut dropped_sorted = dropped.clone();
            dropped_sorted.sort_unstable();
            expected_drops.sort_unstable();
            assert_eq!(dropped_sorted, expected_drops, "{overflow:?}");
            assert_eq!((counted, peak), (600, 4), "{overflow:?}");
        }
    }

    #[test]
    fn error_ends_after_the_queued_values_and_disposes_upstream() {
        let sch = TestScheduler::new();
        let subject = PublishSubject::new();
        let (bound, log) = logged(2, Overflow::Error);
        let o = TestObserver::new();
        let handle = subject
            .observable()
            .observe_on_bounded(sch.clone(), bound)
            .subscribe_observer(o.clone());
        let mut input = subject.observer();
        for v in 0..5 {
            input.on_next(v);
        }
        assert!(!subject.has_observers());
        assert_eq!(*log.lock().unwrap(), [2]);
        sch.run();
        o.assert_values(&[0, 1]);
        let error = o.error().unwrap();
        assert_eq!(
            error.downcast_ref::<BufferOverflow>().unwrap().capacity(),
            2
        );
        assert_eq!(handle.dropped(), 1);
    }

    #[test]
    fn block_on_the_consumer_thread_is_refused() {
        let sch = TestScheduler::new();
        let subject = PublishSubject::new();
        let (bound, log) = logged(2, Overflow::Block);
        let o = TestObserver::new();
        subject
            .observable()
            .observe_on_bounded(sch.clone(), bound)
            .subscribe_observer(o.clone());
        // The delivering task's first run: the worker delivers on this thread.
        sch.advance_by(Duration::ZERO);
        let mut input = subject.observer();
        for v in 0..4 {
            input.on_next(v);
        }
        assert!(!subject.has_observers());
        assert_eq!(*log.lock().unwrap(), [2]);
        sch.run();
        o.assert_values(&[0, 1]);
        assert_eq!(
            o.error().unwrap().downcast_ref::<WouldDeadlock>(),
            Some(&WouldDeadlock { capacity: 2 })
        );
    }

    #[test]
    fn block_before_the_worker_ever_ran_is_refused_after_the_grace() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let started = Instant::now();
        from_iter(0..10u64)
            .observe_on_bounded(sch.clone(), Bounded::new(4))
            .subscribe_observer(o.clone());
        assert!(started.elapsed() >= super::FIRST_RUN_GRACE);
        sch.run();
        o.assert_values(&[0, 1, 2, 3]);
        assert!(o.error().unwrap().is::<WouldDeadlock>());
    }

    #[test]
    fn disposing_wakes_a_blocked_producer() {
        let subject = PublishSubject::new();
        let (gate, wait) = mpsc::channel::<()>();
        let handle = subject
            .observable()
            .observe_on_bounded(NewThread, Bounded::new(1))
            .subscribe(move |v: u64| {
                if v == 0 {
                    let _ = wait.recv();
                }
            });
        let mut input = subject.observer();
        let producer = std::thread::spawn(move || {
            input.on_next(0);
            // Wait until the worker holds 0, so 1 fills the queue and 2 blocks.
            std::thread::sleep(ms(20));
            input.on_next(1);
            input.on_next(2);
        });
        std::thread::sleep(ms(100));
        handle.dispose();
        producer.join().unwrap();
        // The worker may still hold 0, waiting; if it never got it, nobody listens.
        let _ = gate.send(());
        assert!(!subject.has_observers());
    }

    const FLOOD: u64 = 3000;

    /// `FLOOD` values from a thread that spends 2 µs on each, into a worker that spends 20 µs
    /// on each: the values delivered, those dropped, the handle's count and peak.
    fn flood(capacity: usize, overflow: Overflow) -> (Vec<u64>, Vec<u64>, u64, usize) {
        let (bound, log) = logged(capacity, overflow);
        let (done, finished) = mpsc::channel();
        let received = Arc::new(Mutex::new(Vec::new()));
        let r = received.clone();
        let handle = from_iter(0..FLOOD)
            .map(|v| {
                spin(2);
                v
            })
            .subscribe_on(NewThread)
            .observe_on_bounded(NewThread, bound)
            .subscribe_with(
                move |v| {
                    spin(20);
                    r.lock().unwrap().push(v);
                },
                |e: Error| panic!("{e}"),
                move || done.send(()).unwrap(),
            );
        finished.recv_timeout(Duration::from_secs(60)).unwrap();
        let received = received.lock().unwrap().clone();
        let dropped = log.lock().unwrap().clone();
        (received, dropped, handle.dropped(), handle.peak_queued())
    }

    #[test]
    fn a_flood_under_block_loses_nothing_and_never_queues_more_than_the_bound() {
        let (received, dropped, counted, peak) = flood(64, Overflow::Block);
        assert_eq!(received, (0..FLOOD).collect::<Vec<_>>());
        assert!(dropped.is_empty());
        assert_eq!(counted, 0);
        assert!(peak <= 64, "peak {peak}");
    }

    #[test]
    fn a_flood_under_each_drop_strategy_accounts_for_every_value() {
        for overflow in [
            Overflow::DropNewest,
            Overflow::DropOldest,
            Overflow::KeepLatest,
        ] {
            let (received, dropped, counted, peak) = flood(64, overflow);
            assert!(peak <= 64, "{overflow:?}: peak {peak}");
            assert_eq!(counted, dropped.len() as u64, "{overflow:?}");
            // Each value is delivered or dropped, once.
            let mut all: Vec<_> = received.iter().chain(&dropped).copied().collect();
            all.sort_unstable();
            assert_eq!(all, (0..FLOOD).collect::<Vec<_>>(), "{overflow:?}");
            assert!(received.windows(2).all(|w| w[0] < w[1]), "{overflow:?}");
            match overflow {
                // The first 64 always fit.
                Overflow::DropNewest => assert_eq!(received[..64], (0..64).collect::<Vec<_>>()),
                // Nothing is dropped after the last value: the last 64 are all delivered.
                Overflow::DropOldest => {
                    assert_eq!(
                        received[received.len() - 64..],
                        (FLOOD - 64..FLOOD).collect::<Vec<_>>()
                    );
                }
                _ => {
                    assert_eq!(received[..63], (0..63).collect::<Vec<_>>());
                    assert_eq!(received.last(), Some(&(FLOOD - 1)));
                }
            }
        }
    }

    #[test]
    fn immediate_delivers_directly_and_drops_nothing() {
        let (bound, log) = logged(1, Overflow::DropNewest);
        let o = TestObserver::new();
        let handle = from_iter(0..5u64)
            .observe_on_bounded(Immediate, bound)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2, 3, 4]);
        o.assert_completed();
        assert!(log.lock().unwrap().is_empty());
        assert_eq!(
            (handle.queued(), handle.peak_queued(), handle.dropped()),
            (0, 0, 0)
        );
    }

    #[test]
    fn disposing_the_handle_drops_what_is_queued_and_stops_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = interval(ms(1), sch.clone())
            .observe_on_bounded(sch.clone(), Bounded::new(8).on_full(Overflow::DropOldest))
            .subscribe_observer(o.clone());
        sch.advance_by(ms(3));
        o.assert_values(&[0, 1, 2]);
        handle.dispose();
        assert!(handle.is_disposed());
        assert_eq!(handle.queued(), 0);
        sch.advance_by(ms(3));
        assert!(sch.is_empty());
        o.assert_values(&[0, 1, 2]);
    }
}
