//! [`Drain`]: delivery to one observer from several threads, the shared core of the time
//! operators, of `observe_on` (which delivers in batches, [`Drain::drain_batch`]) and of
//! `merge_bounded`.
//!
//! A time operator hears from upstream on one thread and from its timer on a worker thread,
//! and both may have something for the same downstream observer. The observer must never be
//! called twice at once (the Rx serialisation rule), and never with a lock held: a downstream
//! that synchronously feeds back into the operator would deadlock on it.
//!
//! The algorithm is RxJava's emitter loop, with the operator's own state as the queue. Every
//! event updates the state under the lock, then tries to deliver. Whoever finds the observer
//! idle takes it out of the lock, delivers what the state says is ready, and loops until
//! nothing is; whoever finds it busy (another thread, or a re-entrant call on this one) just
//! leaves its update in the state, where the current deliverer picks it up before it lets go.
//!
//! # A periodic task never holds upstream's thread
//!
//! A periodic task (the span boundaries of `window_with_time`, `buffer_with_time` and
//! `buffer_with_time_or_count`) queues its events at its own pace, whoever delivers them.
//! When upstream's thread is the deliverer and delivering an event takes longer than the
//! period (a downstream that does real work per window, a slowed machine), every event it
//! delivers lets the task queue another, and the loop above never ends: upstream's thread is
//! kept delivering boundaries, never returns to upstream, and upstream's further values and
//! its terminal notification are never heard of, while the queue grows without bound. So a
//! periodic task queues through [`tick_with`](Drain::tick_with), which counts what it queued
//! while a caller from outside the worker delivered; once it queued twice during one such
//! caller's loop (a loop that has lasted about a period, or longer), that caller stops after
//! the event it is delivering and hands the rest over to the task's next run. Until then
//! callers from outside only update the state. The task delivers on its worker, where it
//! cannot queue more while it delivers, so the backlog ends.
//!
//! # Flavour
//!
//! A `Drain` is thread-safe only: its upstream must have `Send` handles, so the time
//! operators take no [local](crate::sync::Local) source. The `Drain` travels with the
//! operator's scheduler tasks, which may run on another thread (`Task: Send`), and a task
//! must be able to dispose upstream itself: `timeout` when it fires, every operator when the
//! downstream stops wanting values during a delivery from the worker. So the upstream handle
//! it keeps must be `Send`, and a scheduler cannot say at the type level that it drains on the
//! subscribing thread (`RunLoop` and `CurrentThread` are `Send` handles). Keeping the handle
//! out of the tasks instead would leave a disposed upstream running, holding its observer,
//! until its next value.

use crate::notification::Notification;
use crate::observer::Observer;
use crate::primitive::{AtomicBool, Mutex, MutexGuard, Ordering};
use crate::schedulers::Worker;
use crate::subscription::Subscription;
use std::collections::VecDeque;

/// Whether `W` runs each task inline, before `schedule` returns ([`Worker::RUNS_INLINE`]).
/// Then handing a notification to a task that runs at once is the same as delivering it
/// directly, which `observe_on` and `subscribe_on` do instead; and a periodic task never
/// returns, which the periodic operators refuse. A constant, folded at compile time.
pub(crate) fn runs_inline<W: Worker>() -> bool {
    W::RUNS_INLINE
}

/// The state of a time operator, seen as a queue of notifications ready for delivery.
pub(crate) trait Ready<T> {
    /// Takes the next notification that may be delivered now, if any.
    fn next_ready(&mut self) -> Option<Notification<T>>;
}

/// The state of an operator whose notifications are ready as soon as they are queued
/// (`observe_on` and its bounded form): its deliverer takes them in batches, one lock per
/// batch rather than two per notification.
pub(crate) trait ReadyBatch<T> {
    /// Takes the notifications ready now, in order, in a buffer that
    /// [`give_back`](Self::give_back) returns empty once they are delivered.
    fn take_batch(&mut self) -> VecDeque<Notification<T>>;

    /// Takes back the emptied buffer of the last batch, to hold the next one: no allocation
    /// per batch once the buffers have grown to the size of a batch.
    fn give_back(&mut self, spare: VecDeque<Notification<T>>);
}

/// The downstream observer of a time operator, its state, its worker and its upstream
/// handle, shared by the upstream observer and the operator's tasks.
pub(crate) struct Drain<W, O, St> {
    worker: W,
    /// Set once the subscription is over: terminated, disposed, or unwanted downstream. Read
    /// without the lock by `is_disposed`, which upstream calls before every value.
    closed: AtomicBool,
    inner: Mutex<Inner<O, St>>,
}

struct Inner<O, St> {
    /// The downstream observer while idle; `None` while a deliverer holds it, and once closed.
    observer: Option<O>,
    /// A deliverer holds the observer; updates are left for it to deliver.
    busy: bool,
    /// The deliverer is a caller from outside the worker ([`Drain::drain_with`]).
    outside: bool,
    /// How many times [`Drain::tick_with`] queued while the caller from outside delivered
    /// (counted up to two).
    ticks_meanwhile: u8,
    /// The caller from outside handed what is ready over to the periodic task's next run:
    /// callers from outside only update the state until it has run.
    handed_over: bool,
    /// The upstream handle, stored once `subscribe_observer` returns it (Rx.NET's
    /// single-assignment disposable), so a timer or a disposal can cancel upstream. Erased,
    /// because its type depends on the observer that holds this `Drain`; a zero-sized handle
    /// costs no allocation.
    upstream: Option<Box<dyn Subscription + Send>>,
    /// Upstream was disposed while delivery goes on ([`Drain::dispose_upstream`]): a handle
    /// stored after that is disposed at once.
    upstream_disposed: bool,
    state: St,
}

impl<W: Worker, O, St> Drain<W, O, St> {
    pub(crate) fn new<T>(worker: W, observer: O, state: St) -> Self
    where
        O: Observer<T>,
    {
        // A downstream that wants nothing already (an `element_at` that had its fill before
        // this was subscribed) closes it at once, so upstream is disposed as soon as its
        // handle is stored, instead of running for nobody until a next value that may never
        // come: a `never` upstream would keep its observer, and so this, in a cycle.
        let unwanted = observer.is_disposed();
        let drain = Drain {
            worker,
            closed: AtomicBool::new(false),
            inner: Mutex::new(Inner {
                observer: Some(observer),
                busy: false,
                outside: false,
                ticks_meanwhile: 0,
                handed_over: false,
                upstream: None,
                upstream_disposed: false,
                state,
            }),
        };
        if unwanted {
            drain.close();
        }
        drain
    }

    /// The worker the operator's tasks run on.
    pub(crate) fn worker(&self) -> &W {
        &self.worker
    }

    /// Whether the subscription is over; checked without the lock. What upstream's
    /// `is_disposed` is answered with.
    pub(crate) fn is_closed(&self) -> bool {
        // Acquire pairs with the Release in `close` and in the terminal delivery.
        self.closed.load(Ordering::Acquire)
    }

    /// Updates the state under the lock, without delivering.
    pub(crate) fn with<R>(&self, update: impl FnOnce(&mut St) -> R) -> R {
        update(&mut self.inner.lock().state)
    }

    /// Stores the upstream handle, or disposes it at once if the subscription is already over
    /// or upstream was [disposed](Self::dispose_upstream) already.
    pub(crate) fn set_upstream<U: Subscription + Send + 'static>(&self, upstream: U) {
        let mut inner = self.inner.lock();
        // `close` sets the flag before it takes the lock to collect the handle: either it sees
        // the handle stored here, or this sees the flag.
        if !self.is_closed() && !inner.upstream_disposed {
            inner.upstream = Some(Box::new(upstream));
            return;
        }
        drop(inner);
        upstream.dispose();
    }

    /// Disposes upstream and leaves delivery running, so that what is queued still reaches
    /// the downstream (a value that overflows `observe_on_bounded`'s queue ends the sequence
    /// after the values before it). Idempotent.
    pub(crate) fn dispose_upstream(&self) {
        let upstream = {
            let mut inner = self.inner.lock();
            inner.upstream_disposed = true;
            inner.upstream.take()
        };
        if let Some(upstream) = upstream {
            upstream.dispose();
        }
    }

    /// Ends the subscription: cancels upstream and every task on the worker, and drops the
    /// downstream observer unless a deliverer holds it (which then drops it). Idempotent.
    pub(crate) fn close(&self) {
        if self.closed.swap(true, Ordering::AcqRel) {
            return;
        }
        let (upstream, observer) = {
            let mut inner = self.inner.lock();
            (inner.upstream.take(), inner.observer.take())
        };
        if let Some(upstream) = upstream {
            upstream.dispose();
        }
        self.worker.dispose();
        // Dropped outside the lock: its `Drop` is user code.
        drop(observer);
    }

    /// Updates the state under the lock, then delivers whatever is ready.
    ///
    /// The downstream observer is only ever called with the lock released, `is_disposed`
    /// included: an operator downstream may answer it by disposing this subscription, which
    /// takes the lock. For the same reason upstream's `is_disposed` is answered from the
    /// `closed` flag alone, never by asking downstream: a downstream that loses interest
    /// between two deliveries is noticed before the next one, which closes the subscription
    /// (cancelling upstream actively) instead.
    ///
    /// Called from outside the worker (upstream's observer) or by a task that is not
    /// periodic; a periodic task calls [`tick_with`](Self::tick_with).
    #[inline]
    pub(crate) fn drain_with<T>(&self, update: impl FnOnce(&mut St))
    where
        O: Observer<T>,
        St: Ready<T>,
    {
        self.deliver(update, true);
    }

    /// Updates the state under the lock, then delivers whatever is ready, from the periodic
    /// task of the operator: a task that runs again as long as the drain is open.
    ///
    /// Finding a caller from outside the worker delivering, it counts the update it leaves
    /// for it; the second one during that caller's loop makes it hand the rest over to this
    /// task's next run (see the module's docs). Finding no one delivering, it delivers what
    /// is ready, what was handed over included.
    #[inline]
    pub(crate) fn tick_with<T>(&self, update: impl FnOnce(&mut St))
    where
        O: Observer<T>,
        St: Ready<T>,
    {
        self.deliver(update, false);
    }

    /// [`drain_with`](Self::drain_with) when `outside` (a caller from outside the worker),
    /// else [`tick_with`](Self::tick_with).
    fn deliver<T>(&self, update: impl FnOnce(&mut St), outside: bool)
    where
        O: Observer<T>,
        St: Ready<T>,
    {
        let mut inner = self.inner.lock();
        update(&mut inner.state);
        if outside && inner.handed_over {
            // The periodic task delivers what is ready, this update included.
            return;
        }
        if !outside {
            if inner.busy {
                if inner.outside {
                    inner.ticks_meanwhile = inner.ticks_meanwhile.saturating_add(1);
                }
                return;
            }
            inner.handed_over = false;
        }
        if !inner.busy {
            // Counted afresh for each caller's loop.
            inner.ticks_meanwhile = 0;
        }
        loop {
            if inner.busy || inner.observer.is_none() {
                return;
            }
            if outside && inner.ticks_meanwhile >= 2 {
                // The periodic task queues faster than this caller delivers: its next run
                // delivers the rest, on the worker.
                inner.handed_over = true;
                return;
            }
            let Some(notification) = inner.state.next_ready() else {
                return;
            };
            let Some(mut observer) = inner.observer.take() else {
                unreachable!("checked above")
            };
            inner.busy = true;
            inner.outside = outside;
            match notification {
                Notification::Next(value) => {
                    drop(inner);
                    if observer.is_disposed() {
                        drop(value);
                        drop(observer);
                        self.close();
                        return;
                    }
                    observer.on_next(value);
                    let unwanted = observer.is_disposed();
                    inner = self.inner.lock();
                    inner.busy = false;
                    if unwanted || self.is_closed() {
                        drop(inner);
                        drop(observer);
                        self.close();
                        return;
                    }
                    inner.observer = Some(observer);
                }
                terminal => {
                    self.deliver_terminal(inner, observer, terminal);
                    return;
                }
            }
        }
    }

    /// Delivers one batch of what is ready, from a task that is the only deliverer: takes
    /// every ready notification under one lock, delivers them with the lock released, and
    /// returns the emptied buffer under a second. What arrives meanwhile waits for the next
    /// batch. Returns whether the drain is still open.
    ///
    /// The observer is checked between notifications as [`drain_with`](Self::drain_with)
    /// checks it: a closed drain or a downstream that stopped wanting values ends the batch,
    /// and the rest of it is dropped.
    pub(crate) fn drain_batch<T>(&self) -> bool
    where
        O: Observer<T>,
        St: ReadyBatch<T>,
    {
        let mut inner = self.inner.lock();
        if inner.busy || inner.observer.is_none() {
            return !self.is_closed();
        }
        let mut batch = inner.state.take_batch();
        if batch.is_empty() {
            inner.state.give_back(batch);
            return true;
        }
        let Some(mut observer) = inner.observer.take() else {
            unreachable!("checked above")
        };
        inner.busy = true;
        inner.outside = false;
        drop(inner);
        while let Some(notification) = batch.pop_front() {
            match notification {
                Notification::Next(value) => {
                    if self.is_closed() || observer.is_disposed() {
                        drop(value);
                        // Outside the lock: a value's destructor may do anything.
                        drop(batch);
                        drop(observer);
                        self.close();
                        return false;
                    }
                    observer.on_next(value);
                }
                terminal => {
                    drop(batch);
                    self.deliver_terminal(self.inner.lock(), observer, terminal);
                    return false;
                }
            }
        }
        let unwanted = observer.is_disposed();
        let mut inner = self.inner.lock();
        inner.busy = false;
        inner.state.give_back(batch);
        if unwanted || self.is_closed() {
            drop(inner);
            drop(observer);
            self.close();
            return false;
        }
        inner.observer = Some(observer);
        true
    }

    /// Delivers a terminal notification: nothing is delivered after it (`busy` stays set).
    fn deliver_terminal<T>(
        &self,
        mut inner: MutexGuard<'_, Inner<O, St>>,
        observer: O,
        terminal: Notification<T>,
    ) where
        O: Observer<T>,
    {
        self.closed.store(true, Ordering::Release);
        let upstream = inner.upstream.take();
        drop(inner);
        // Upstream is cancelled before downstream hears of the end (a timeout disposes its
        // source, then signals the error), as RxJava orders it.
        if let Some(upstream) = upstream {
            upstream.dispose();
        }
        self.worker.dispose();
        if !observer.is_disposed() {
            terminal.deliver(observer);
        }
    }

    /// Delivers whatever is ready.
    pub(crate) fn drain<T>(&self)
    where
        O: Observer<T>,
        St: Ready<T>,
    {
        self.drain_with(|_| {});
    }
}

/// The handle of a subscription to a time operator: disposing it closes the [`Drain`].
impl<W: Worker, O, St> Subscription for Drain<W, O, St> {
    fn dispose(&self) {
        self.close();
    }

    fn is_disposed(&self) -> bool {
        self.is_closed()
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::{Drain, Ready, ReadyBatch};
    use crate::Error;
    use crate::notification::Notification;
    use crate::observer::Observer;
    use crate::primitive::{Arc, AtomicBool, AtomicUsize, Mutex, Ordering, thread};
    use crate::schedulers::ImmediateWorker;
    use std::collections::VecDeque;

    struct Queue(VecDeque<Notification<u32>>);

    impl Ready<u32> for Queue {
        fn next_ready(&mut self) -> Option<Notification<u32>> {
            self.0.pop_front()
        }
    }

    impl ReadyBatch<u32> for Queue {
        fn take_batch(&mut self) -> VecDeque<Notification<u32>> {
            std::mem::take(&mut self.0)
        }

        fn give_back(&mut self, _spare: VecDeque<Notification<u32>>) {}
    }

    /// Records what it receives; fails on overlapping calls; counts its drops.
    struct Probe {
        log: Arc<Mutex<Vec<Notification<u32>>>>,
        in_call: Arc<AtomicBool>,
        drops: Arc<AtomicUsize>,
    }

    impl Probe {
        fn record(&self, notification: Notification<u32>) {
            assert!(
                !self.in_call.swap(true, Ordering::SeqCst),
                "overlapping calls"
            );
            self.log.lock().push(notification);
            self.in_call.store(false, Ordering::SeqCst);
        }
    }

    impl Observer<u32> for Probe {
        fn on_next(&mut self, value: u32) {
            self.record(Notification::Next(value));
        }
        fn on_error(self, error: Error) {
            self.record(Notification::Error(error));
        }
        fn on_completed(self) {
            self.record(Notification::Completed);
        }
    }

    impl Drop for Probe {
        fn drop(&mut self) {
            self.drops.fetch_add(1, Ordering::SeqCst);
        }
    }

    type Log = Arc<Mutex<Vec<Notification<u32>>>>;

    fn setup() -> (
        Arc<Drain<ImmediateWorker, Probe, Queue>>,
        Log,
        Arc<AtomicUsize>,
    ) {
        let log = Arc::new(Mutex::new(Vec::new()));
        let drops = Arc::new(AtomicUsize::new(0));
        let probe = Probe {
            log: log.clone(),
            in_call: Arc::new(AtomicBool::new(false)),
            drops: drops.clone(),
        };
        let drain = Drain::new(ImmediateWorker, probe, Queue(VecDeque::new()));
        (Arc::new(drain), log, drops)
    }

    fn push(drain: &Drain<ImmediateWorker, Probe, Queue>, notification: Notification<u32>) {
        drain.drain_with(|queue| queue.0.push_back(notification));
    }

    #[test]
    fn two_threads_deliver_in_turn_and_nothing_is_lost() {
        loom::model(|| {
            let (drain, log, _) = setup();
            let other = drain.clone();
            let t = thread::spawn(move || push(&other, Notification::Next(1)));
            push(&drain, Notification::Next(2));
            t.join().unwrap();
            push(&drain, Notification::Completed);
            let log = log.lock();
            assert_eq!(log.len(), 3);
            assert!(log.contains(&Notification::Next(1)));
            assert!(log.contains(&Notification::Next(2)));
            assert_eq!(log[2], Notification::Completed);
            assert!(drain.is_closed());
        });
    }

    #[test]
    fn a_terminal_racing_a_value_is_last_and_once() {
        loom::model(|| {
            let (drain, log, drops) = setup();
            let other = drain.clone();
            let t = thread::spawn(move || push(&other, Notification::Next(1)));
            push(&drain, Notification::Error(Error::msg("end")));
            t.join().unwrap();
            let log = log.lock();
            assert_eq!(log.last(), Some(&Notification::Error(Error::msg("end"))));
            assert!(log.len() <= 2);
            assert_eq!(drops.load(Ordering::SeqCst), 1);
        });
    }

    /// A periodic task queueing while upstream's thread delivers: whether or not that thread
    /// hands over, the task's next run delivers what is left, in the order queued, once.
    #[test]
    fn a_periodic_task_racing_upstreams_delivery_loses_nothing() {
        loom::model(|| {
            let (drain, log, drops) = setup();
            let other = drain.clone();
            let t = thread::spawn(move || {
                other.tick_with(|queue| queue.0.push_back(Notification::Next(10)));
                other.tick_with(|queue| queue.0.push_back(Notification::Next(11)));
            });
            push(&drain, Notification::Next(1));
            push(&drain, Notification::Next(2));
            t.join().unwrap();
            push(&drain, Notification::Completed);
            // The task's next run.
            drain.tick_with(|queue| queue.0.push_back(Notification::Next(12)));
            let log = log.lock();
            let position = |value| log.iter().position(|n| *n == Notification::Next(value));
            for value in [1, 2, 10, 11] {
                assert!(position(value).is_some(), "{value} was delivered");
            }
            assert!(position(1) < position(2) && position(10) < position(11));
            assert_eq!(log.len(), 5);
            assert_eq!(log[4], Notification::Completed);
            assert!(drain.is_closed());
            assert_eq!(drops.load(Ordering::SeqCst), 1);
        });
    }

    #[test]
    fn close_racing_a_delivery_drops_the_observer_once() {
        loom::model(|| {
            let (drain, log, drops) = setup();
            let other = drain.clone();
            let t = thread::spawn(move || push(&other, Notification::Next(1)));
            drain.close();
            t.join().unwrap();
            // Closed: nothing more is delivered.
            push(&drain, Notification::Next(2));
            assert!(!log.lock().contains(&Notification::Next(2)));
            assert_eq!(drops.load(Ordering::SeqCst), 1);
        });
    }

    /// Upstream queueing from another thread while the task delivers batches: every value
    /// arrives once, in order, the terminal last; the observer is dropped once.
    #[test]
    fn batches_racing_upstream_lose_nothing_and_keep_the_order() {
        loom::model(|| {
            let (drain, log, drops) = setup();
            let other = drain.clone();
            let t = thread::spawn(move || {
                for n in [Notification::Next(1), Notification::Next(2)] {
                    other.with(|queue| queue.0.push_back(n));
                }
                other.with(|queue| queue.0.push_back(Notification::Completed));
            });
            drain.drain_batch();
            t.join().unwrap();
            drain.drain_batch();
            let log = log.lock();
            assert_eq!(
                *log,
                [
                    Notification::Next(1),
                    Notification::Next(2),
                    Notification::Completed
                ]
            );
            assert!(drain.is_closed());
            assert_eq!(drops.load(Ordering::SeqCst), 1);
        });
    }

    /// Disposal racing a batch: at most the value in flight is delivered after `close`
    /// returns, and the observer is dropped once, whichever side drops it.
    #[test]
    fn close_racing_a_batch_drops_the_observer_once() {
        loom::model(|| {
            let (drain, log, drops) = setup();
            drain.with(|queue| {
                queue.0.push_back(Notification::Next(1));
                queue.0.push_back(Notification::Next(2));
            });
            let other = drain.clone();
            let t = thread::spawn(move || other.drain_batch());
            drain.close();
            let delivered = log.lock().len();
            t.join().unwrap();
            // At most the value in flight when `close` returned follows it.
            assert!(log.lock().len() <= delivered + 1);
            assert_eq!(drops.load(Ordering::SeqCst), 1);
        });
    }
}
