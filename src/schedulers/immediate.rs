//! The scheduler that runs tasks inline.

use super::{Reschedule, Scheduler, Task, Worker};
use crate::subscription::{Finished, Subscription};
use crate::time::Instant;

/// Runs every task inline, on the thread that schedules it, before `schedule` returns.
///
/// A task due later is run after sleeping until its due time; a task that asks to run again
/// is looped on the spot, sleeping until each next due time, until it returns
/// [`Reschedule::Done`]. Nothing is queued, allocated or synchronised: the scheduler, its
/// worker and its task handles are zero-sized, so code generic over the scheduler compiles
/// down to a plain call when given `Immediate`.
///
/// Because a scheduled task has finished by the time `schedule` returns, its handle is
/// [`Finished`], and disposing the worker has nothing to cancel: a repeating task stops by
/// returning [`Reschedule::Done`]. A panic in the task unwinds to the caller of `schedule`.
///
/// # Examples
///
/// ```
/// use rx::schedulers::{Immediate, Reschedule, Scheduler, Worker};
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use std::sync::Arc;
/// use std::time::Duration;
///
/// let runs = Arc::new(AtomicUsize::new(0));
/// let r = runs.clone();
/// Immediate.worker().schedule_after(Duration::from_millis(1), move || {
///     if r.fetch_add(1, Ordering::Relaxed) + 1 == 3 {
///         Reschedule::Done
///     } else {
///         Reschedule::After(Duration::ZERO)
///     }
/// });
/// // All three runs happened before `schedule_after` returned.
/// assert_eq!(runs.load(Ordering::Relaxed), 3);
/// assert_eq!(std::mem::size_of_val(&Immediate.worker()), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Immediate;

/// The worker of [`Immediate`]: runs tasks inline. Zero-sized.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImmediateWorker;

impl Scheduler for Immediate {
    type Worker = ImmediateWorker;

    #[inline]
    fn worker(&self) -> ImmediateWorker {
        ImmediateWorker
    }

    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

impl Worker for ImmediateWorker {
    type TaskHandle = Finished;

    const RUNS_INLINE: bool = true;

    #[inline]
    fn schedule_at<T: Task>(&self, due: Instant, task: T) -> Finished {
        run_from(Some(due), None, task)
    }

    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }

    #[inline]
    fn schedule<T: Task>(&self, task: T) -> Finished {
        // No clock read for a task that runs now, nor for one that asks to run again at once.
        run_from(None, None, task)
    }
}

/// Runs `task` inline from `due` (`None`: now) until it is done. The clock is read only to
/// learn whether a due time has passed, and not again while the latest reading (`now`)
/// already shows that it has: a periodic task behind its schedule, or one with a zero
/// period, reads it no more than once per wait.
#[inline]
fn run_from<T: Task>(mut due: Option<Instant>, mut now: Option<Instant>, mut task: T) -> Finished {
    loop {
        if let Some(due) = due
            && now.is_none_or(|now| due > now)
        {
            now = Some(sleep_until(due));
        }
        due = match task.run() {
            Reschedule::Done => return Finished,
            Reschedule::At(next) => Some(next),
            Reschedule::After(delay) if delay.is_zero() => None,
            Reschedule::After(delay) => {
                let read = Instant::now();
                now = Some(read);
                Some(read + delay)
            }
        };
    }
}

/// Nothing is ever pending on an immediate worker, so there is nothing to cancel.
impl Subscription for ImmediateWorker {
    #[inline]
    fn dispose(&self) {}

    #[inline]
    fn is_disposed(&self) -> bool {
        false
    }
}

/// Sleeps until `due`; returns at once if it has passed. Returns the clock's last reading,
/// which is not before `due`. `thread::sleep` may wake early on some platforms, hence the
/// loop.
pub(crate) fn sleep_until(due: Instant) -> Instant {
    loop {
        let now = Instant::now();
        if now >= due {
            return now;
        }
        std::thread::sleep(due - now);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn runs_inline_before_returning() {
        let (tx, rx) = std::sync::mpsc::channel();
        let handle = Immediate.worker().schedule(move || {
            tx.send(()).unwrap();
            Reschedule::Done
        });
        assert!(rx.try_recv().is_ok());
        assert!(handle.is_disposed());
    }

    #[test]
    fn rescheduling_loops_inline() {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut n = 0;
        Immediate.worker().schedule(move || {
            tx.send(n).unwrap();
            n += 1;
            if n == 4 {
                Reschedule::Done
            } else {
                Reschedule::At(Instant::now())
            }
        });
        assert_eq!(rx.try_iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
    }

    #[test]
    fn delayed_task_sleeps_first() {
        let start = Instant::now();
        let (tx, rx) = std::sync::mpsc::channel();
        Immediate
            .worker()
            .schedule_after(Duration::from_millis(20), move || {
                tx.send(Instant::now()).unwrap();
                Reschedule::Done
            });
        assert!(rx.try_recv().unwrap() - start >= Duration::from_millis(20));
    }

    #[test]
    fn the_schedulers_run_now_runs_inline() {
        assert_eq!(Immediate.run_now(|| 7), Some(7));
    }

    #[test]
    fn a_queueing_scheduler_declines_run_now_without_calling_f() {
        use crate::schedulers::{NewThread, TestScheduler};
        let mut called = false;
        assert_eq!(NewThread.run_now(|| called = true), None);
        assert_eq!(TestScheduler::new().run_now(|| called = true), None);
        assert!(!called);
    }

    #[test]
    fn zero_sized() {
        assert_eq!(std::mem::size_of::<Immediate>(), 0);
        assert_eq!(std::mem::size_of::<ImmediateWorker>(), 0);
        assert_eq!(
            std::mem::size_of::<<ImmediateWorker as Worker>::TaskHandle>(),
            0
        );
    }

    #[test]
    fn a_past_due_time_does_not_sleep() {
        let (tx, rx) = std::sync::mpsc::channel();
        let start = Instant::now();
        Immediate
            .worker()
            .schedule_at(start - Duration::from_secs(1), move || {
                tx.send(()).unwrap();
                Reschedule::Done
            });
        assert!(rx.try_recv().is_ok());
        assert!(start.elapsed() < Duration::from_secs(1));
    }
}
