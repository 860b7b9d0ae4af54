//! A queue the user drives.

use super::Scheduler;
use super::counted::Counted;
use super::timed_queue::{Dispatch, Owner, Queue, QueueWorker};
#[cfg(any(not(target_arch = "wasm32"), doc))]
use crate::subscription::Subscription;
use crate::time::Instant;
use std::fmt;

/// A timed queue that runs tasks only when the user asks, on the thread that asks: an event
/// loop to embed in a program's own main loop, or to bring results back to one thread. For a
/// GUI's event loop, which owns its thread and must be told when to wake, use
/// [`EventLoop`](super::EventLoop).
///
/// Workers handed out by [`worker`](Scheduler::worker) share the loop's queue; they may
/// schedule from any thread. Tasks run in due order, first-in first-out for equal due times,
/// when [`dispatch`](RunLoop::dispatch) or [`dispatch_if_ready`](RunLoop::dispatch_if_ready)
/// is called, or [`run_until_idle`](RunLoop::run_until_idle) and
/// [`run_until_disposed`](RunLoop::run_until_disposed), which call them in a loop. A panic in a task unwinds from that call; the loop stays usable.
///
/// A cheap `Clone` handle; clones drive the same queue. Once the last `RunLoop` handle is
/// dropped nothing can run the pending tasks, so they are dropped, and tasks scheduled later
/// are dropped at once.
///
/// # Examples
///
/// ```
/// use rx::schedulers::{Reschedule, RunLoop, Scheduler, Worker};
///
/// let run_loop = RunLoop::new();
/// let worker = run_loop.worker();
/// let main_thread = std::thread::current().id();
/// std::thread::spawn(move || {
///     worker.schedule(move || {
///         assert_eq!(std::thread::current().id(), main_thread);
///         Reschedule::Done
///     });
/// });
/// run_loop.dispatch(); // waits for the task, then runs it here
/// assert!(run_loop.is_empty());
/// ```
pub struct RunLoop {
    queue: Counted<Queue>,
}

impl RunLoop {
    /// An empty run loop.
    pub fn new() -> Self {
        RunLoop {
            queue: Queue::wall(),
        }
    }

    /// Runs the next task, waiting until one is queued and due. Waiting does not spin; a task
    /// queued meanwhile with an earlier due time is picked up at its own due time.
    #[cfg(any(not(target_arch = "wasm32"), doc))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    pub fn dispatch(&self) {
        // The loop holds a driver handle, so the queue is not closed while it waits.
        let done = self.queue.dispatch(true);
        debug_assert_eq!(done, Dispatch::Ran);
    }

    /// Runs one task if one is due, and returns at once either way; `true` if a task ran.
    pub fn dispatch_if_ready(&self) -> bool {
        self.queue.dispatch(false) == Dispatch::Ran
    }

    /// Runs every task that is due, and the tasks they make due, until none is; returns how
    /// many ran. It never waits: a task due later stays queued. The call to put in a
    /// program's own main loop, once per turn.
    ///
    /// ```
    /// use rx::schedulers::{Reschedule, RunLoop, Scheduler, Worker};
    /// use std::time::Duration;
    ///
    /// let run_loop = RunLoop::new();
    /// let worker = run_loop.worker();
    /// let again = worker.clone();
    /// worker.schedule(move || {
    ///     again.schedule(|| Reschedule::Done); // due at once: runs in this call too
    ///     Reschedule::Done
    /// });
    /// worker.schedule_after(Duration::from_secs(3600), || Reschedule::Done);
    /// assert_eq!(run_loop.run_until_idle(), 2);
    /// assert!(!run_loop.is_empty()); // the one due in an hour
    /// ```
    pub fn run_until_idle(&self) -> usize {
        let mut ran = 0;
        while self.dispatch_if_ready() {
            ran += 1;
        }
        ran
    }

    /// Runs tasks as they fall due, waiting for them, until `subscription` has ended
    /// ([`is_disposed`](Subscription::is_disposed)): to run a pipeline scheduled on this loop
    /// to its end from a program's `main`. It waits for as long as the subscription runs, also
    /// while nothing is queued (another thread may still schedule on the loop).
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::RunLoop;
    /// use rx::testing::TestObserver;
    /// use std::time::Duration;
    ///
    /// let run_loop = RunLoop::new();
    /// let observer = TestObserver::new();
    /// let handle = rx::source::interval(Duration::from_millis(1), run_loop.clone())
    ///     .take(3)
    ///     .subscribe_observer(observer.clone());
    /// run_loop.run_until_disposed(&handle);
    /// observer.assert_values(&[0, 1, 2]);
    /// observer.assert_completed();
    /// ```
    #[cfg(any(not(target_arch = "wasm32"), doc))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    pub fn run_until_disposed(&self, subscription: &impl Subscription) {
        while !subscription.is_disposed() {
            self.dispatch();
        }
    }

    /// Whether no task is queued, due or not.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Whether a queued task is due now.
    pub fn is_any_ready(&self) -> bool {
        self.queue
            .first_due()
            .is_some_and(|due| due <= Instant::now())
    }
}

impl Scheduler for RunLoop {
    type Worker = QueueWorker;

    fn worker(&self) -> QueueWorker {
        Queue::worker(&self.queue, Owner::Driven)
    }

    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

impl Clone for RunLoop {
    fn clone(&self) -> Self {
        self.queue.add_driver();
        RunLoop {
            queue: self.queue.clone(),
        }
    }
}

impl Drop for RunLoop {
    fn drop(&mut self) {
        Queue::remove_driver(&self.queue);
    }
}

impl Default for RunLoop {
    fn default() -> Self {
        RunLoop::new()
    }
}

// A panicking task leaves the queue consistent: it runs with no lock held, and its slot is
// freed while it unwinds.
impl std::panic::UnwindSafe for RunLoop {}
impl std::panic::RefUnwindSafe for RunLoop {}

impl fmt::Debug for RunLoop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunLoop")
            .field("is_empty", &self.is_empty())
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::primitive::Arc;
    use crate::schedulers::{Reschedule, Worker};
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn run_until_idle_runs_what_is_due_in_order_and_leaves_the_rest() {
        let run_loop = RunLoop::new();
        let (tx, rx) = mpsc::channel();
        let worker = run_loop.worker();
        for n in 0..3 {
            let tx = tx.clone();
            worker.schedule(move || {
                tx.send(n).unwrap();
                Reschedule::Done
            });
        }
        let later = worker.schedule_after(Duration::from_secs(3600), || Reschedule::Done);
        assert_eq!(run_loop.run_until_idle(), 3);
        assert_eq!(rx.try_iter().collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(run_loop.run_until_idle(), 0);
        assert!(!run_loop.is_empty());
        later.dispose();
    }

    /// A periodic task behind its schedule (here always: it asks for an instant before its
    /// first run) runs again behind the task that was due when it was popped, not ahead of it
    /// for as long as it stays behind.
    #[test]
    fn a_periodic_task_asking_for_a_past_instant_lets_the_tasks_due_run() {
        let run_loop = RunLoop::new();
        let (tx, rx) = mpsc::channel();
        let worker = run_loop.worker();
        let past = worker.now();
        let periodic = {
            let tx = tx.clone();
            worker.schedule(move || {
                tx.send("periodic").unwrap();
                Reschedule::At(past)
            })
        };
        worker.schedule(move || {
            tx.send("once").unwrap();
            Reschedule::Done
        });
        for _ in 0..4 {
            assert!(run_loop.dispatch_if_ready());
        }
        assert_eq!(
            rx.try_iter().collect::<Vec<_>>(),
            ["periodic", "once", "periodic", "periodic"]
        );
        periodic.dispose();
        assert!(run_loop.is_empty());
    }

    #[test]
    fn run_until_disposed_returns_at_once_for_an_ended_subscription() {
        let run_loop = RunLoop::new();
        let (tx, rx) = mpsc::channel();
        run_loop.worker().schedule(move || {
            tx.send(()).unwrap();
            Reschedule::Done
        });
        run_loop.run_until_disposed(&crate::subscription::Finished);
        assert!(rx.try_recv().is_err(), "nothing was dispatched");
        assert_eq!(run_loop.run_until_idle(), 1);
    }

    #[test]
    fn run_until_disposed_runs_tasks_scheduled_from_another_thread() {
        let run_loop = RunLoop::new();
        let handle = crate::subscription::FlagSubscription::new();
        let (worker, flag) = (run_loop.worker(), handle.clone());
        let producer = std::thread::spawn(move || {
            for _ in 0..3 {
                worker.schedule(|| Reschedule::Done);
            }
            let flag = flag.clone();
            worker.schedule(move || {
                flag.dispose();
                Reschedule::Done
            });
        });
        run_loop.run_until_disposed(&handle);
        producer.join().unwrap();
        assert!(handle.is_disposed());
        assert!(run_loop.is_empty());
    }

    #[test]
    fn runs_nothing_until_dispatched() {
        let run_loop = RunLoop::new();
        let (tx, rx) = mpsc::channel();
        let worker = run_loop.worker();
        for n in 0..3 {
            let tx = tx.clone();
            worker.schedule(move || {
                tx.send(n).unwrap();
                Reschedule::Done
            });
        }
        assert!(rx.try_recv().is_err());
        assert!(!run_loop.is_empty());
        assert!(run_loop.is_any_ready());
        while run_loop.dispatch_if_ready() {}
        assert_eq!(rx.try_iter().collect::<Vec<_>>(), [0, 1, 2]);
        assert!(run_loop.is_empty());
        assert!(!run_loop.is_any_ready());
    }

    #[test]
    fn future_task_is_not_ready() {
        let run_loop = RunLoop::new();
        let handle = run_loop
            .worker()
            .schedule_after(Duration::from_secs(3600), || Reschedule::Done);
        assert!(!run_loop.is_empty());
        assert!(!run_loop.is_any_ready());
        assert!(!run_loop.dispatch_if_ready());
        handle.dispose();
        assert!(run_loop.is_empty());
    }

    #[test]
    fn a_cancelled_top_does_not_hide_a_ready_task() {
        let run_loop = RunLoop::new();
        let worker = run_loop.worker();
        let first = worker.schedule(|| Reschedule::Done);
        worker.schedule(|| Reschedule::Done);
        first.dispose();
        assert!(run_loop.is_any_ready());
        assert!(run_loop.dispatch_if_ready());
        assert!(!run_loop.dispatch_if_ready());
    }

    #[test]
    fn a_panicking_task_unwinds_from_dispatch_and_the_loop_goes_on() {
        let run_loop = RunLoop::new();
        let worker = run_loop.worker();
        worker.schedule(|| panic!("boom"));
        let (tx, rx) = mpsc::channel();
        worker.schedule(move || {
            tx.send(()).unwrap();
            Reschedule::Done
        });
        let r = run_loop.clone();
        assert!(std::panic::catch_unwind(move || r.dispatch()).is_err());
        run_loop.dispatch();
        assert!(rx.try_recv().is_ok());
    }

    #[test]
    fn dropping_the_loop_drops_pending_tasks() {
        let run_loop = RunLoop::new();
        let worker = run_loop.worker();
        let captured = Arc::new(());
        let c = captured.clone();
        let handle = worker.schedule(move || {
            let _ = &c;
            Reschedule::Done
        });
        drop(run_loop);
        assert!(handle.is_disposed());
        assert_eq!(Arc::strong_count(&captured), 1);
        assert!(worker.schedule(|| Reschedule::Done).is_disposed());
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::primitive::{Arc, AtomicUsize, Ordering, thread};
    use crate::schedulers::{Reschedule, Worker};
    use crate::subscription::Subscription;

    fn count(counter: &Arc<AtomicUsize>) -> impl FnMut() -> Reschedule + Send + use<> {
        let counter = counter.clone();
        move || {
            counter.fetch_add(1, Ordering::SeqCst);
            Reschedule::Done
        }
    }

    /// A dispatcher blocked on an empty loop runs a task queued from another thread.
    #[test]
    fn loom_dispatch_waits_for_a_task_from_another_thread() {
        loom::model(|| {
            let run_loop = RunLoop::new();
            let worker = run_loop.worker();
            let counter = Arc::new(AtomicUsize::new(0));
            let c = counter.clone();
            let producer = thread::spawn(move || {
                worker.schedule(count(&c));
            });
            run_loop.dispatch();
            producer.join().unwrap();
            assert_eq!(counter.load(Ordering::SeqCst), 1);
            assert!(run_loop.is_empty());
        });
    }

    /// Two dispatchers, two tasks: the wake-up is passed on, so neither dispatcher is left
    /// asleep with a task ready (loom reports the deadlock otherwise).
    #[test]
    fn loom_two_dispatchers_share_the_work() {
        loom::model(|| {
            let run_loop = RunLoop::new();
            let worker = run_loop.worker();
            let counter = Arc::new(AtomicUsize::new(0));
            let dispatchers: Vec<_> = (0..2)
                .map(|_| {
                    let run_loop = run_loop.clone();
                    thread::spawn(move || run_loop.dispatch())
                })
                .collect();
            worker.schedule(count(&counter));
            worker.schedule(count(&counter));
            for dispatcher in dispatchers {
                dispatcher.join().unwrap();
            }
            assert_eq!(counter.load(Ordering::SeqCst), 2);
        });
    }

    /// Dropping the last loop handle while another thread schedules: the task is either
    /// refused or dropped with the queue, never left behind.
    #[test]
    fn loom_drop_races_with_schedule() {
        loom::model(|| {
            let run_loop = RunLoop::new();
            let worker = run_loop.worker();
            let counter = Arc::new(AtomicUsize::new(0));
            let c = counter.clone();
            let producer = thread::spawn(move || worker.schedule(count(&c)));
            drop(run_loop);
            let handle = producer.join().unwrap();
            assert!(handle.is_disposed());
            assert_eq!(Arc::strong_count(&counter), 1);
            assert_eq!(counter.load(Ordering::SeqCst), 0);
        });
    }
}
