//! The executor behind [`from_future`](crate::source::from_future),
//! [`from_future_result`](crate::source::from_future_result) and `from_stream`: it polls a
//! future or a stream, with its observer, on a worker of any [`Scheduler`](crate::schedulers::Scheduler).
//!
//! # Algorithm
//!
//! A subscription owns a worker and a shared `Driven` that holds the future (or stream) with
//! its observer. The `Driven` is its own waker. A small state machine decides who polls:
//!
//! - `IDLE`: no task is queued and nobody polls. A wake moves it to `QUEUED` and schedules a
//!   task on the worker.
//! - `QUEUED`: a task is queued. Further wakes do nothing: the coming poll sees what they
//!   signalled.
//! - `POLLING`: the task polls. A wake moves it to `NOTIFIED`.
//! - `NOTIFIED`: woken during the poll. The task asks its worker to run it again
//!   (`Reschedule::After(ZERO)`, which reuses the task) instead of going idle.
//! - `DONE`: finished, disposed, or the poll panicked. Wakes do nothing.
//!
//! Every transition is a compare-and-swap, so exactly one wake schedules a task out of
//! `IDLE`, and a wake racing with the end of a poll either finds `POLLING` (its `NOTIFIED`
//! then fails the poller's swap to `IDLE`) or finds `IDLE` (the poller has left, and the wake
//! schedules anew). No wake-up is lost, and the future is never polled by two threads at once.
//!
//! The future lives behind a lock taken only to poll it or to drop it. Disposing takes that
//! lock with `try_lock`: a dispose from inside the observer runs on the polling thread with
//! the lock held, and must not wait for itself; the poller then finds `DONE` when its poll
//! returns and drops the future.
//!
//! # Cost
//!
//! The worker API has no "park until woken": a task either runs again at a time, or ends. So
//! a poll that returns `Pending` ends its task, and the wake that follows schedules a new one
//! (one allocation on a queue-backed worker). Wakes that arrive while a task is queued or
//! polling cost nothing more, and a stream yielding many ready items is drained in one task.

use crate::primitive::{AtomicUsize, Mutex, Ordering};
use crate::schedulers::{Reschedule, Worker};
use crate::subscription::Subscription;
use std::fmt;
// std's `Arc`, not the facade's: `Waker::from` takes a std `Arc`. The state inside is the
// facade's, so loom still models the transitions.
use std::sync::Arc;
use std::task::{Context, Wake, Waker};
use std::time::Duration;

const IDLE: usize = 0;
const QUEUED: usize = 1;
const POLLING: usize = 2;
const NOTIFIED: usize = 3;
const DONE: usize = 4;

/// What one poll of a [`Pollable`] came to.
pub(crate) enum Progress {
    /// Nothing more will be delivered: the future or the stream ended, or the observer was
    /// disposed.
    Done,
    /// Waiting for a wake.
    Pending,
    /// More may be ready, but other tasks on the worker should run first.
    // Only streams yield.
    #[cfg_attr(not(feature = "stream"), allow(dead_code))]
    Yield,
}

/// A future or a stream together with its observer.
pub(crate) trait Pollable: Send + 'static {
    /// Polls and delivers whatever is ready. Checks `cancelled` before each notification.
    fn poll_emit(&mut self, cx: &mut Context<'_>, cancelled: &Cancelled<'_>) -> Progress;
}

/// Whether the subscription was disposed: read before every notification.
pub(crate) struct Cancelled<'a>(&'a AtomicUsize);

impl Cancelled<'_> {
    pub(crate) fn is_set(&self) -> bool {
        // Acquire pairs with the AcqRel swap in `dispose`.
        self.0.load(Ordering::Acquire) == DONE
    }
}

/// Subscribes `pollable` to a new task on `worker`: with an inline worker it is polled
/// before this returns.
pub(crate) fn spawn<W: Worker, P: Pollable>(worker: W, pollable: P) -> PollSubscription {
    let driven = Arc::new(Driven {
        state: AtomicUsize::new(QUEUED),
        worker,
        pollable: Mutex::new(Some(pollable)),
    });
    driven.clone().schedule();
    PollSubscription { driven }
}

/// The shared state of one subscription: its own waker.
struct Driven<W, P> {
    /// `IDLE`, `QUEUED`, `POLLING`, `NOTIFIED` or `DONE`. AcqRel on every swap: whoever
    /// takes the right to poll sees what the previous poller and the waker did.
    state: AtomicUsize,
    /// Owned by this subscription alone, so disposing it cancels exactly our queued task.
    worker: W,
    /// The future or stream with its observer; `None` once dropped.
    pollable: Mutex<Option<P>>,
}

impl<W: Worker, P: Pollable> Driven<W, P> {
    fn schedule(self: Arc<Self>) {
        let this = self.clone();
        // The task handle is not kept: disposing the worker cancels whatever is queued.
        self.worker.schedule(move || this.run());
    }

    /// One run of the task: polls once, then decides whether to go idle, run again, or end.
    fn run(self: &Arc<Self>) -> Reschedule {
        if self
            .state
            .compare_exchange(QUEUED, POLLING, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            // Disposed while queued.
            self.clear();
            return Reschedule::Done;
        }
        let waker = Waker::from(self.clone());
        let unwinding = FinishOnUnwind(self);
        // The guard is a temporary of this statement: should the poll panic, it is released
        // before `unwinding` clears the slot.
        let progress = match self.pollable.lock().as_mut() {
            Some(pollable) => {
                pollable.poll_emit(&mut Context::from_waker(&waker), &Cancelled(&self.state))
            }
            None => Progress::Done,
        };
        std::mem::forget(unwinding);
        match progress {
            Progress::Done => {
                self.finish();
                Reschedule::Done
            }
            Progress::Pending => match self.state.compare_exchange(
                POLLING,
                IDLE,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                // The next wake schedules a new task.
                Ok(_) => Reschedule::Done,
                // Woken during the poll, or disposed.
                Err(_) => self.again(),
            },
            Progress::Yield => self.again(),
        }
    }

    /// Queues the same task again, unless the subscription was disposed.
    fn again(&self) -> Reschedule {
        let mut state = self.state.load(Ordering::Acquire);
        loop {
            if state == DONE {
                self.clear();
                return Reschedule::Done;
            }
            match self.state.compare_exchange_weak(
                state,
                QUEUED,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Reschedule::After(Duration::ZERO),
                Err(actual) => state = actual,
            }
        }
    }

    /// Ends the subscription from the polling side.
    fn finish(&self) {
        self.state.store(DONE, Ordering::Release);
        self.clear();
        // Nothing will run on the worker again: a thread-backed worker can end now rather
        // than when the last clone of the waker is dropped.
        self.worker.dispose();
    }

    /// Drops the future or stream and the observer, outside the lock: their destructors may
    /// call back into this subscription.
    fn clear(&self) {
        let pollable = self.pollable.lock().take();
        drop(pollable);
    }

    /// Moves to `QUEUED` or `NOTIFIED`; `true` when the caller must schedule the task.
    fn signal(&self) -> bool {
        let mut state = self.state.load(Ordering::Acquire);
        loop {
            let next = match state {
                IDLE => QUEUED,
                POLLING => NOTIFIED,
                _ => return false,
            };
            match self
                .state
                .compare_exchange_weak(state, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return next == QUEUED,
                Err(actual) => state = actual,
            }
        }
    }
}

impl<W: Worker, P: Pollable> Wake for Driven<W, P> {
    fn wake(self: Arc<Self>) {
        if self.signal() {
            self.schedule();
        }
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if self.signal() {
            self.clone().schedule();
        }
    }
}

/// Ends the subscription if the poll unwinds: the future is in an unknown state, and the
/// observer cannot be told (a panic is not an error: ARCHITECTURE.md, "Panics").
struct FinishOnUnwind<'a, W: Worker, P: Pollable>(&'a Driven<W, P>);

impl<W: Worker, P: Pollable> Drop for FinishOnUnwind<'_, W, P> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// What a [`PollSubscription`] needs from the state, whatever its worker and future types.
trait Dispose: Send + Sync {
    fn dispose(&self);
    fn is_disposed(&self) -> bool;
}

impl<W: Worker, P: Pollable> Dispose for Driven<W, P> {
    fn dispose(&self) {
        if self.state.swap(DONE, Ordering::AcqRel) == DONE {
            return;
        }
        self.worker.dispose();
        // A dispose from inside the observer holds the lock through the poll: the poller
        // drops the future itself once its poll returns and it finds `DONE`.
        let pollable = self.pollable.try_lock().and_then(|mut slot| slot.take());
        drop(pollable);
    }

    fn is_disposed(&self) -> bool {
        self.state.load(Ordering::Acquire) == DONE
    }
}

/// The handle of a subscription to [`from_future`](crate::source::from_future),
/// [`from_future_result`](crate::source::from_future_result) or `from_stream`.
///
/// Disposing it stops the polling and drops the future (or stream) and the observer: at
/// once, or, when a poll is running on another thread at that moment, as soon as that poll
/// returns. [`is_disposed`](Subscription::is_disposed) is `true` once the subscription has
/// ended for any reason: the future or stream finished, the handle was disposed, or a poll
/// panicked.
pub struct PollSubscription {
    driven: Arc<dyn Dispose>,
}

impl Subscription for PollSubscription {
    fn dispose(&self) {
        self.driven.dispose();
    }

    fn is_disposed(&self) -> bool {
        self.driven.is_disposed()
    }
}

impl Clone for PollSubscription {
    fn clone(&self) -> Self {
        PollSubscription {
            driven: self.driven.clone(),
        }
    }
}

impl fmt::Debug for PollSubscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PollSubscription")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use crate::prelude::*;
    use crate::primitive::{Arc, AtomicUsize, Mutex, Ordering, thread};
    use crate::schedulers::RunLoop;
    use crate::source::from_future;
    use std::future::poll_fn;
    use std::task::{Poll, Waker};

    /// A future that is ready once another thread says so, and the function that says so.
    fn remote_ready() -> (
        impl Future<Output = usize> + Send + 'static,
        impl FnOnce() + Send,
    ) {
        let slot: Arc<Mutex<(bool, Option<Waker>)>> = Arc::new(Mutex::new((false, None)));
        let s = slot.clone();
        let future = poll_fn(move |cx| {
            let mut state = s.lock();
            if state.0 {
                Poll::Ready(7)
            } else {
                state.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        });
        let ready = move || {
            let waker = {
                let mut state = slot.lock();
                state.0 = true;
                state.1.take()
            };
            if let Some(waker) = waker {
                waker.wake();
            }
        };
        (future, ready)
    }

    /// A wake from another thread races with the poll: whichever way it goes, the value is
    /// delivered exactly once (a lost wake leaves `dispatch` blocked, which loom reports as
    /// a deadlock).
    #[test]
    fn loom_wake_races_with_the_poll() {
        loom::model(|| {
            let run_loop = RunLoop::new();
            let (future, ready) = remote_ready();
            let got = Arc::new(AtomicUsize::new(0));
            let g = got.clone();
            let handle = from_future(future, run_loop.clone()).subscribe(move |v| {
                assert_eq!(g.swap(v, Ordering::SeqCst), 0, "delivered twice");
            });
            let waker = thread::spawn(ready);
            while got.load(Ordering::SeqCst) == 0 {
                run_loop.dispatch();
            }
            waker.join().unwrap();
            while run_loop.dispatch_if_ready() {}
            assert_eq!(got.load(Ordering::SeqCst), 7);
            assert!(handle.is_disposed());
        });
    }

    /// Disposing races with a wake: nothing is delivered once `dispose` has returned and the
    /// loop has drained, and the future is dropped.
    #[test]
    fn loom_dispose_races_with_the_wake() {
        loom::model(|| {
            let run_loop = RunLoop::new();
            let (future, ready) = remote_ready();
            let got = Arc::new(AtomicUsize::new(0));
            let g = got.clone();
            let handle = from_future(future, run_loop.clone()).subscribe(move |v| {
                g.store(v, Ordering::SeqCst);
            });
            // The first poll: pending, its waker stored.
            run_loop.dispatch();
            let waker = thread::spawn(ready);
            handle.dispose();
            waker.join().unwrap();
            while run_loop.dispatch_if_ready() {}
            assert_eq!(got.load(Ordering::SeqCst), 0);
            assert!(handle.is_disposed());
            // The observer (which holds a clone of `got`) was dropped with the future.
            assert_eq!(Arc::strong_count(&got), 1);
        });
    }
}
