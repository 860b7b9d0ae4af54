//! [`ObservableExt::subscribe_on`](crate::ObservableExt::subscribe_on).
//!
//! # Flavour
//!
//! The operator stays thread-safe whatever its source: its flavour is
//! [`Shared`](crate::sync::Shared), and a [local](crate::sync::Local) source (a local subject's
//! observable, a `boxed_local()` one) is refused at compile time. The source and the
//! observer are moved into a scheduler task, and a task may run on another thread than the
//! one that subscribed: `NewThread`, `ThreadPool` and `Computational` run it on theirs, and
//! even `CurrentThread` and `RunLoop`, which run tasks where they are drained, can be drained
//! from another thread than the subscriber's, as both are `Send` handles. No scheduler type
//! says "this task runs on the subscribing thread", so the only sound bound is `Send` on
//! what the task carries, and a handle kept by the task's slot is then `Send` as well. The
//! schedulers that do run the subscription inline (`Immediate`) make the operator vanish
//! anyway: subscribe directly there.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::{Arc, AtomicBool, Mutex, Ordering};
use crate::schedulers::{Reschedule, Scheduler, Worker};
use crate::subscription::Subscription;
use crate::time::Instant;
use std::fmt;
use std::time::Duration;

/// Subscribes to the source from a task on a scheduler's worker; built by
/// [`ObservableExt::subscribe_on`](crate::ObservableExt::subscribe_on).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "subscribeOn")]
pub struct SubscribeOn<S, Sch> {
    source: S,
    scheduler: Sch,
    start: Start,
}

/// When the subscribing task runs: at once, or later for
/// [`delay_subscription`](crate::ObservableExt::delay_subscription), which is this operator
/// with a due time.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Start {
    Now,
    After(Duration),
    At(Instant),
}

impl<S, Sch> SubscribeOn<S, Sch> {
    pub(crate) fn new(source: S, scheduler: Sch) -> Self {
        SubscribeOn::starting(source, scheduler, Start::Now)
    }

    pub(crate) fn starting(source: S, scheduler: Sch, start: Start) -> Self {
        SubscribeOn {
            source,
            scheduler,
            start,
        }
    }
}

impl<S: Observable, Sch> Observable for SubscribeOn<S, Sch> {
    type Item = S::Item;
    // The source and its handle travel with a scheduler task, which may run on another
    // thread: they must be `Send` (see the module docs).
    type Flavour = crate::sync::Shared;
}

impl<S, Sch, O> Subscribe<O> for SubscribeOn<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<SubscribeOnObserver<O>> + crate::schedulers::ThreadObservable,
    S::Subscription: Send + 'static,
    O: Observer<<S as Observable>::Item> + crate::schedulers::ThreadObserver,
{
    type Subscription =
        SubscribeOnSubscription<S::Subscription, <Sch::Worker as Worker>::TaskHandle>;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let mut parts = Some((self.source, observer));
        // Where a worker would run the subscription at once anyway, it is run here, with
        // neither a worker, a task nor a slot to make; upstream's handle is then the handle.
        if let Start::Now = self.start {
            let inline = self.scheduler.run_now(|| {
                let (source, observer) = parts.take().expect("taken once");
                source.subscribe_observer(SubscribeOnObserver {
                    observer,
                    gate: Gate(None),
                })
            });
            if let Some(upstream) = inline {
                return SubscribeOnSubscription {
                    mode: Mode::Direct(upstream),
                };
            }
        }
        let (source, observer) = parts.take().expect("not taken");
        // The worker handle is not kept: once the task has run, nothing here holds the worker,
        // so a thread-backed worker can end.
        schedule_subscription(&self.scheduler.worker(), self.start, source, observer)
    }
}

/// Schedules the task that subscribes `source`, at `start`. Out of line, so that the inline
/// path above keeps a small frame.
#[inline(never)]
fn schedule_subscription<W, S, O>(
    worker: &W,
    start: Start,
    source: S,
    observer: O,
) -> SubscribeOnSubscription<S::Subscription, W::TaskHandle>
where
    W: Worker,
    S: Subscribe<SubscribeOnObserver<O>> + crate::schedulers::ThreadObservable,
    S::Subscription: Send + 'static,
    O: Observer<<S as Observable>::Item> + crate::schedulers::ThreadObserver,
{
    let due = match start {
        Start::Now => None,
        Start::After(delay) => Some(worker.now() + delay),
        Start::At(due) => Some(due),
    };
    let mut parts = Some((source, observer));
    let slot = Arc::new(Slot {
        disposed: AtomicBool::new(false),
        upstream: Mutex::new(None),
    });
    let task_slot = slot.clone();
    let subscribe = move || {
        if let Some((source, observer)) = parts.take()
            && !task_slot.is_disposed()
        {
            let upstream = source.subscribe_observer(SubscribeOnObserver {
                observer,
                gate: Gate(Some(task_slot.clone())),
            });
            task_slot.set(upstream);
        }
        Reschedule::Done
    };
    let task = match due {
        None => worker.schedule(subscribe),
        Some(due) => worker.schedule_at(due, subscribe),
    };
    SubscribeOnSubscription {
        mode: Mode::Scheduled { task, slot },
    }
}

/// Where the upstream handle lands once the task has subscribed (Rx.NET's single-assignment
/// disposable). Erased, because its type depends on the observer that holds this slot; a
/// zero-sized handle costs no allocation.
struct Slot {
    disposed: AtomicBool,
    upstream: Mutex<Option<Box<dyn Subscription + Send>>>,
}

impl Slot {
    fn set<U: Subscription + Send + 'static>(&self, upstream: U) {
        let mut slot = self.upstream.lock();
        // `dispose` sets the flag before it takes the lock to collect the handle: either it
        // sees the handle stored here, or this sees the flag.
        if !self.is_disposed() {
            *slot = Some(Box::new(upstream));
            return;
        }
        drop(slot);
        upstream.dispose();
    }
}

impl Subscription for Slot {
    fn dispose(&self) {
        if self.disposed.swap(true, Ordering::AcqRel) {
            return;
        }
        let upstream = self.upstream.lock().take();
        if let Some(upstream) = upstream {
            upstream.dispose();
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        // Acquire pairs with the AcqRel swap in `dispose`.
        self.disposed.load(Ordering::Acquire)
    }
}

/// The observer [`SubscribeOn`] subscribes upstream: forwards everything until the handle is
/// disposed, and reports disposed from then on, so a synchronous source running on the worker
/// stops.
pub struct SubscribeOnObserver<O> {
    observer: O,
    gate: Gate,
}

impl<O> SubscribeOnObserver<O> {
    /// Delivers a terminal unless the handle was disposed, then releases the slot's handle.
    #[inline]
    fn terminate(self, deliver: impl FnOnce(O)) {
        let SubscribeOnObserver { observer, gate } = self;
        if !gate.closed() {
            deliver(observer);
            gate.finish();
        }
    }
}

/// The observer's share of the handle's [`Slot`]: `None` when the source was subscribed
/// inline, and the handle is then upstream's own.
///
/// Whether it is shut is asked on every value. A disposal can return while the worker is
/// still inside upstream's `subscribe`, before there is an upstream handle to dispose; what
/// upstream started by then (a timer on another scheduler) may call in afterwards, even on
/// the thread that disposed, and must find the door shut.
///
/// The `Arc` only ever leaves by value, to functions out of line: were it dropped in place,
/// the address of the field would be handed to `Arc::drop_slow`, and an observer whose
/// address escapes is read back from memory after every opaque call downstream (a
/// `black_box`, a sink), where the inline path keeps it in registers and folds the check.
struct Gate(Option<Arc<Slot>>);

impl Gate {
    #[inline]
    fn closed(&self) -> bool {
        self.0.as_ref().is_some_and(|slot| slot.is_disposed())
    }

    /// After the terminal went through: disposes the slot, which releases upstream's handle.
    #[inline]
    fn finish(mut self) {
        if let Some(slot) = self.0.take() {
            dispose_slot(slot);
        }
    }
}

impl Drop for Gate {
    #[inline]
    fn drop(&mut self) {
        if let Some(slot) = self.0.take() {
            drop_slot(slot);
        }
    }
}

#[inline(never)]
fn dispose_slot(slot: Arc<Slot>) {
    slot.dispose();
}

#[inline(never)]
fn drop_slot(slot: Arc<Slot>) {
    drop(slot);
}

impl<T, O: Observer<T>> Observer<T> for SubscribeOnObserver<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        if !self.gate.closed() {
            self.observer.on_next(value)
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.terminate(|observer| observer.on_error(error));
    }

    #[inline]
    fn on_completed(self) {
        self.terminate(O::on_completed);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.gate.closed() || self.observer.is_disposed()
    }
}

impl<O> fmt::Debug for SubscribeOnObserver<O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SubscribeOnObserver")
            .finish_non_exhaustive()
    }
}

/// The handle of a [`SubscribeOn`] subscription: upstream's own handle when the scheduler
/// runs tasks inline; otherwise it cancels the subscribing task if it has not run yet, and
/// disposes upstream once it has.
pub struct SubscribeOnSubscription<U, H> {
    mode: Mode<U, H>,
}

enum Mode<U, H> {
    Direct(U),
    Scheduled { task: H, slot: Arc<Slot> },
}

impl<U: Subscription, H: Subscription> Subscription for SubscribeOnSubscription<U, H> {
    fn dispose(&self) {
        match &self.mode {
            Mode::Direct(upstream) => upstream.dispose(),
            Mode::Scheduled { task, slot } => {
                slot.dispose();
                task.dispose();
            }
        }
    }

    fn is_disposed(&self) -> bool {
        match &self.mode {
            Mode::Direct(upstream) => upstream.is_disposed(),
            Mode::Scheduled { slot, .. } => slot.is_disposed(),
        }
    }
}

impl<U, H> fmt::Debug for SubscribeOnSubscription<U, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SubscribeOnSubscription")
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::{Immediate, TestScheduler};
    use crate::source::{from_iter, interval, throw};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn subscribes_when_the_worker_runs() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .subscribe_on(sch.clone())
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        sch.advance_by(Duration::ZERO);
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();
    }

    #[test]
    fn a_cold_source_starts_from_the_subscription_on_the_worker() {
        let sch = TestScheduler::new();
        let source = cold(&sch, [(ms(10), Next(1)), (ms(20), Completed)]);
        sch.advance_by(ms(5));
        let o = TimedObserver::new(&sch);
        source
            .subscribe_on(sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(10), Next(1)), (ms(20), Completed)]);
    }

    #[test]
    fn disposing_before_the_task_runs_means_no_subscription() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = from_iter([1, 2, 3])
            .subscribe_on(sch.clone())
            .subscribe_observer(o.clone());
        handle.dispose();
        assert!(handle.is_disposed());
        sch.run();
        o.assert_values(&[]);
        o.assert_not_terminated();
    }

    #[test]
    fn disposing_after_the_task_ran_disposes_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = interval(ms(10), sch.clone())
            .subscribe_on(sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(25));
        o.assert_values(&[0, 1]);
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(sch.is_empty());
        o.assert_values(&[0, 1]);
    }

    /// A source that, inside `subscribe`, hands its observer to the test thread and then
    /// waits to be let go: what a chain does that starts a timer on another scheduler while
    /// the worker is still subscribing it.
    struct HandsOver {
        observer: std::sync::mpsc::Sender<Box<dyn FnOnce() + Send>>,
        release: std::sync::mpsc::Receiver<()>,
    }

    impl crate::Observable for HandsOver {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<O: crate::Observer<i32> + Send + 'static> crate::Subscribe<O> for HandsOver {
        type Subscription = crate::subscription::Finished;

        fn subscribe_observer(self, mut observer: O) -> Self::Subscription {
            let call = Box::new(move || {
                observer.on_next(1);
                observer.on_error(Error::msg("late"));
            });
            self.observer.send(call).unwrap();
            self.release.recv().unwrap();
            crate::subscription::Finished
        }
    }

    #[test]
    fn nothing_arrives_after_dispose_returned_while_upstream_was_still_subscribing() {
        use crate::schedulers::NewThread;
        use std::sync::mpsc::channel;

        let (observer_tx, observer_rx) = channel();
        let (release_tx, release_rx) = channel();
        let o = TestObserver::new();
        let handle = HandsOver {
            observer: observer_tx,
            release: release_rx,
        }
        .subscribe_on(NewThread)
        .subscribe_observer(o.clone());
        let late_call = observer_rx.recv().unwrap();
        handle.dispose();
        assert!(handle.is_disposed());
        // The worker is still inside upstream's `subscribe`; upstream calls in from here.
        late_call();
        o.assert_values(&[]);
        o.assert_not_terminated();
        release_tx.send(()).unwrap();
    }

    #[test]
    fn the_handle_reports_the_end_of_the_sequence() {
        let sch = TestScheduler::new();
        let handle = from_iter([1]).subscribe_on(sch.clone()).subscribe(|_| {});
        assert!(!handle.is_disposed());
        sch.run();
        assert!(handle.is_disposed());
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source_on_the_worker() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter(0..)
            .take(3)
            .subscribe_on(sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_values(&[0, 1, 2]);
        o.assert_completed();
    }

    #[test]
    fn current_thread_subscribes_inline_unless_a_task_of_it_runs() {
        use crate::schedulers::{CurrentThread, Reschedule, Scheduler, Worker};

        let o = TestObserver::new();
        let handle = from_iter([1, 2])
            .subscribe_on(CurrentThread)
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
        o.assert_completed();
        assert!(handle.is_disposed());

        // Inside a task, the subscription is queued behind it.
        let o = TestObserver::new();
        let inner = o.clone();
        CurrentThread.worker().schedule(move || {
            let handle = from_iter([3])
                .subscribe_on(CurrentThread)
                .subscribe_observer(inner.clone());
            inner.assert_values(&[]);
            assert!(!handle.is_disposed());
            Reschedule::Done
        });
        o.assert_values(&[3]);
        o.assert_completed();

        // What the source schedules runs before `subscribe` returns.
        let o = TestObserver::new();
        interval(ms(1), CurrentThread)
            .take(2)
            .subscribe_on(CurrentThread)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        o.assert_completed();
    }

    #[test]
    fn immediate_subscribes_inline() {
        let o = TestObserver::new();
        let handle = from_iter([1, 2])
            .subscribe_on(Immediate)
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
        o.assert_completed();
        assert!(handle.is_disposed());

        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .subscribe_on(Immediate)
            .subscribe_observer(o.clone());
        o.assert_error("bad");
    }
}
