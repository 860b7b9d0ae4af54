//! Virtual time: a scheduler whose clock moves only when the test says so.

use super::Scheduler;
use super::counted::Counted;
use super::timed_queue::{Clock, Owner, Queue, QueueWorker};
use crate::primitive::{Arc, AtomicBool, AtomicU64, Ordering};
use crate::time::Instant;
use std::fmt;
use std::time::Duration;

/// A scheduler on virtual time, for testing time-dependent pipelines without waiting.
///
/// Its clock starts at [`start`](TestScheduler::start) and stands still until
/// [`advance_by`](TestScheduler::advance_by), [`advance_to`](TestScheduler::advance_to) or
/// [`run`](TestScheduler::run) moves it. While it moves, every task that falls due runs on
/// the advancing thread, in due order (first-in first-out for equal due times), with the clock
/// set to the task's due time; a task scheduled by a running task runs in the same advance if
/// it falls due within it. Nothing ever sleeps.
///
/// A cheap `Clone` handle: clones share the clock and the queue. Workers handed out by
/// [`worker`](Scheduler::worker) may be used from any thread, but drive the clock from one
/// thread at a time. Once the last `TestScheduler` handle is dropped nothing can run the
/// pending tasks any more, so they are dropped.
///
/// # Examples
///
/// ```
/// use rx::schedulers::{Reschedule, Scheduler, TestScheduler, Worker};
/// use std::sync::{Arc, Mutex};
/// use std::time::Duration;
///
/// let sch = TestScheduler::new();
/// let worker = sch.worker();
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let (s, clock) = (seen.clone(), sch.clone());
/// worker.schedule_after(Duration::from_secs(1), move || {
///     s.lock().unwrap().push(clock.elapsed());
///     Reschedule::After(Duration::from_secs(2))
/// });
///
/// sch.advance_by(Duration::from_secs(6));
/// assert_eq!(*seen.lock().unwrap(), [1, 3, 5].map(Duration::from_secs));
/// assert_eq!(sch.elapsed(), Duration::from_secs(6));
/// ```
pub struct TestScheduler {
    handle: Arc<Handle>,
}

/// What the clones of one handle share: the queue, and whether they keep its pending tasks
/// alive. The test kit's own handles, which queued tasks capture, do not: a task holding one
/// would keep its own queue open. Behind the one pointer, so that a `TestScheduler` stays one
/// pointer large.
struct Handle {
    queue: Counted<Queue>,
    drives: bool,
}

impl Drop for Handle {
    fn drop(&mut self) {
        if self.drives {
            Queue::remove_driver(&self.queue);
        }
    }
}

impl TestScheduler {
    /// A scheduler whose virtual clock starts now.
    pub fn new() -> Self {
        // A new queue counts one driver: this handle's.
        let queue = Counted::new(Queue::new(Clock::Virtual {
            start: Instant::now(),
            offset_ns: AtomicU64::new(0),
            advancing: AtomicBool::new(false),
        }));
        TestScheduler {
            handle: Arc::new(Handle {
                queue,
                drives: true,
            }),
        }
    }

    /// A handle on the same clock and queue that does not keep the pending tasks alive: once
    /// every other handle is gone the tasks are dropped, as if this one did not exist. Its
    /// clones are of the same kind.
    pub(crate) fn undriven(&self) -> Self {
        TestScheduler {
            handle: Arc::new(Handle {
                queue: self.queue().clone(),
                drives: false,
            }),
        }
    }

    fn queue(&self) -> &Counted<Queue> {
        &self.handle.queue
    }

    /// The virtual time now.
    pub fn now(&self) -> Instant {
        self.queue().now()
    }

    /// The virtual time the clock started at.
    pub fn start(&self) -> Instant {
        match self.queue().clock() {
            Clock::Virtual { start, .. } => *start,
            Clock::Wall => unreachable!("a test scheduler runs on virtual time"),
        }
    }

    /// How far the virtual clock has moved since it started: what tests assert timestamps
    /// against.
    pub fn elapsed(&self) -> Duration {
        self.now() - self.start()
    }

    /// Moves the clock forward by `delay`, running every task that falls due.
    ///
    /// # Panics
    ///
    /// If called while this scheduler is already advancing (from a task, or from another
    /// thread at the same time). A panic in a task unwinds from here; the scheduler stays
    /// usable, with the clock at that task's due time.
    pub fn advance_by(&self, delay: Duration) {
        self.advance_to(self.now() + delay);
    }

    /// Moves the clock forward to `instant`, running every task that falls due; an instant in
    /// the past runs what is already due and leaves the clock where it is.
    ///
    /// # Panics
    ///
    /// As [`advance_by`](TestScheduler::advance_by).
    pub fn advance_to(&self, instant: Instant) {
        let _advancing = self.begin_advance();
        self.run_until(instant);
        self.queue().advance_virtual_now(instant);
    }

    /// Moves the clock from task to task until no task is left. A task that reschedules
    /// itself forever makes this loop forever; advance by a bounded time instead.
    ///
    /// # Panics
    ///
    /// As [`advance_by`](TestScheduler::advance_by).
    pub fn run(&self) {
        let _advancing = self.begin_advance();
        while let Some(due) = self.queue().first_due() {
            self.run_until(due.max(self.now()));
        }
    }

    /// Whether no task is pending.
    pub fn is_empty(&self) -> bool {
        self.queue().is_empty()
    }

    /// When the earliest pending task is due.
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    pub(crate) fn first_due(&self) -> Option<Instant> {
        self.queue().first_due()
    }

    /// Moves the clock to `instant` without running anything, for a driver that lines this
    /// clock up with another one before either runs what falls due then; tasks due by then
    /// run at the next advance, at the clock's time. Never moves the clock back.
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    pub(crate) fn set_now(&self, instant: Instant) {
        self.queue().advance_virtual_now(instant);
    }

    fn run_until(&self, instant: Instant) {
        while let Some(entry) = self.queue().pop_due(instant) {
            self.queue().advance_virtual_now(entry.due());
            self.queue().run(entry, self.now());
        }
    }

    fn begin_advance(&self) -> AdvanceGuard<'_> {
        let Clock::Virtual { advancing, .. } = self.queue().clock() else {
            unreachable!("a test scheduler runs on virtual time")
        };
        assert!(
            !advancing.swap(true, Ordering::Acquire),
            "TestScheduler advanced while already advancing (from a task, or from two threads)"
        );
        AdvanceGuard(advancing)
    }
}

/// Clears the advancing flag, also when a task panics.
struct AdvanceGuard<'a>(&'a AtomicBool);

impl Drop for AdvanceGuard<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl Scheduler for TestScheduler {
    type Worker = QueueWorker;

    fn worker(&self) -> QueueWorker {
        Queue::worker(self.queue(), Owner::Driven)
    }

    fn now(&self) -> Instant {
        self.queue().now()
    }
}

impl Clone for TestScheduler {
    fn clone(&self) -> Self {
        TestScheduler {
            handle: self.handle.clone(),
        }
    }
}

// A panicking task leaves the queue consistent: it runs with no lock held, and its slot is
// freed while it unwinds.
impl std::panic::UnwindSafe for TestScheduler {}
impl std::panic::RefUnwindSafe for TestScheduler {}

impl Default for TestScheduler {
    fn default() -> Self {
        TestScheduler::new()
    }
}

impl fmt::Debug for TestScheduler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestScheduler")
            .field("elapsed", &self.elapsed())
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::schedulers::{Reschedule, Worker};
    use crate::subscription::Subscription;
    use std::sync::Mutex;

    type Log = Arc<Mutex<Vec<(u32, Duration)>>>;

    fn log_task(
        log: &Log,
        sch: &TestScheduler,
        n: u32,
    ) -> impl FnMut() -> Reschedule + Send + use<> {
        let (log, sch) = (log.clone(), sch.clone());
        move || {
            log.lock().unwrap().push((n, sch.elapsed()));
            Reschedule::Done
        }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn nothing_runs_until_advanced() {
        let sch = TestScheduler::new();
        let log = Log::default();
        sch.worker().schedule(log_task(&log, &sch, 1));
        assert!(log.lock().unwrap().is_empty());
        assert!(!sch.is_empty());
        sch.advance_by(Duration::ZERO);
        assert_eq!(*log.lock().unwrap(), [(1, ms(0))]);
        assert!(sch.is_empty());
    }

    #[test]
    fn tasks_run_at_their_virtual_due_time_in_order() {
        let sch = TestScheduler::new();
        let worker = sch.worker();
        let log = Log::default();
        worker.schedule_after(ms(30), log_task(&log, &sch, 3));
        worker.schedule_after(ms(10), log_task(&log, &sch, 1));
        worker.schedule_after(ms(20), log_task(&log, &sch, 2));
        worker.schedule_after(ms(20), log_task(&log, &sch, 22));
        sch.advance_by(ms(20));
        assert_eq!(
            *log.lock().unwrap(),
            [(1, ms(10)), (2, ms(20)), (22, ms(20))]
        );
        assert_eq!(sch.elapsed(), ms(20));
        sch.advance_by(ms(5));
        assert_eq!(log.lock().unwrap().len(), 3);
        sch.advance_to(sch.start() + ms(30));
        assert_eq!(log.lock().unwrap()[3], (3, ms(30)));
    }

    #[test]
    fn task_scheduled_by_a_task_runs_in_the_same_advance() {
        let sch = TestScheduler::new();
        let worker = sch.worker();
        let log = Log::default();
        let (w, l, s) = (worker.clone(), log.clone(), sch.clone());
        worker.schedule_after(ms(10), move || {
            w.schedule_after(ms(5), log_task(&l, &s, 2));
            w.schedule_after(ms(50), log_task(&l, &s, 3));
            Reschedule::Done
        });
        sch.advance_by(ms(20));
        assert_eq!(*log.lock().unwrap(), [(2, ms(15))]);
        sch.run();
        assert_eq!(*log.lock().unwrap(), [(2, ms(15)), (3, ms(60))]);
        assert_eq!(sch.elapsed(), ms(60));
    }

    #[test]
    fn periodic_task_does_not_drift() {
        let sch = TestScheduler::new();
        let log = Log::default();
        let (l, s) = (log.clone(), sch.clone());
        let mut due = sch.now() + ms(10);
        let mut n = 0;
        sch.worker().schedule_at(due, move || {
            n += 1;
            l.lock().unwrap().push((n, s.elapsed()));
            due += ms(10);
            Reschedule::At(due)
        });
        sch.advance_by(ms(35));
        assert_eq!(
            *log.lock().unwrap(),
            [(1, ms(10)), (2, ms(20)), (3, ms(30))]
        );
    }

    #[test]
    fn cancelled_and_disposed_tasks_do_not_run() {
        let sch = TestScheduler::new();
        let (a, b) = (sch.worker(), sch.worker());
        let log = Log::default();
        let handle = a.schedule_after(ms(10), log_task(&log, &sch, 1));
        a.schedule_after(ms(10), log_task(&log, &sch, 2));
        b.schedule_after(ms(10), log_task(&log, &sch, 3));
        handle.dispose();
        b.dispose();
        sch.run();
        assert_eq!(*log.lock().unwrap(), [(2, ms(10))]);
    }

    #[test]
    fn past_due_times_run_now_and_time_never_goes_back() {
        let sch = TestScheduler::new();
        sch.advance_by(ms(100));
        let log = Log::default();
        sch.worker()
            .schedule_at(sch.start(), log_task(&log, &sch, 1));
        sch.advance_to(sch.start());
        assert_eq!(*log.lock().unwrap(), [(1, ms(100))]);
        assert_eq!(sch.elapsed(), ms(100));
    }

    #[test]
    #[should_panic(expected = "already advancing")]
    fn advancing_from_a_task_panics() {
        let sch = TestScheduler::new();
        let s = sch.clone();
        sch.worker().schedule(move || {
            s.advance_by(ms(1));
            Reschedule::Done
        });
        sch.advance_by(ms(1));
    }

    #[test]
    fn a_panicking_task_leaves_the_scheduler_usable() {
        let sch = TestScheduler::new();
        let worker = sch.worker();
        let log = Log::default();
        let bad = worker.schedule_after(ms(1), || panic!("boom"));
        worker.schedule_after(ms(2), log_task(&log, &sch, 2));
        let s = sch.clone();
        assert!(std::panic::catch_unwind(move || s.advance_by(ms(5))).is_err());
        assert!(bad.is_disposed());
        assert_eq!(sch.elapsed(), ms(1));
        sch.advance_by(ms(5));
        assert_eq!(*log.lock().unwrap(), [(2, ms(2))]);
    }

    #[test]
    fn dropping_the_scheduler_drops_pending_tasks() {
        let sch = TestScheduler::new();
        let worker = sch.worker();
        let captured = Arc::new(());
        let c = captured.clone();
        let handle = worker.schedule_after(ms(10), move || {
            let _ = &c;
            Reschedule::Done
        });
        drop(sch);
        assert!(handle.is_disposed());
        assert_eq!(Arc::strong_count(&captured), 1);
    }

    #[test]
    fn an_undriven_handle_does_not_keep_pending_tasks() {
        let sch = TestScheduler::new();
        let undriven = sch.undriven();
        let captured = Arc::new(());
        let c = captured.clone();
        let handle = undriven.worker().schedule_after(ms(10), move || {
            let _ = &c;
            Reschedule::Done
        });
        let again = undriven.clone();
        drop(sch);
        assert!(handle.is_disposed());
        assert_eq!(Arc::strong_count(&captured), 1);
        again.run();
        assert_eq!(again.elapsed(), ms(0));
    }
}
