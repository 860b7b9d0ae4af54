//! [`from_future`] and [`from_future_result`]: an observable of the value a future resolves to.

use super::driver::{self, Cancelled, PollSubscription, Pollable, Progress};
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::schedulers::Scheduler;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

/// An observable that emits the value `future` resolves to, then completes.
///
/// The future is polled on a worker of `scheduler`, which is the executor here: the first
/// poll is a task scheduled when the observable is subscribed, and each wake of the future
/// schedules the next one. Each subscription polls its own future, so the observable can be
/// subscribed once (or once per clone, when the future is `Clone`).
///
/// ```text
/// from_future(f): ----(v|)     (v: the future's output, when it is ready)
/// ```
///
/// For a future whose output is a `Result`, [`from_future_result`] turns an `Err` into
/// `on_error`.
///
/// # Examples
///
/// ```
/// use futures::channel::oneshot;
/// use rx::prelude::*;
/// use rx::schedulers::TestScheduler;
/// use rx::testing::TestObserver;
/// use std::time::Duration;
///
/// let (sender, receiver) = oneshot::channel::<i32>();
/// let scheduler = TestScheduler::new();
/// let observer = TestObserver::new();
/// rx::source::from_future(async move { receiver.await.unwrap() * 2 }, scheduler.clone())
///     .subscribe_observer(observer.clone());
///
/// scheduler.advance_by(Duration::ZERO); // the first poll: pending
/// observer.assert_values(&[]);
/// sender.send(21).unwrap(); // the wake queues a poll on the worker
/// scheduler.advance_by(Duration::ZERO);
/// observer.assert_values(&[42]);
/// observer.assert_completed();
/// ```
///
/// On [`Immediate`](crate::schedulers::Immediate), a ready future is delivered before
/// `subscribe` returns:
///
/// ```
/// use rx::prelude::*;
/// use rx::schedulers::Immediate;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::from_future(async { "ready" }, Immediate).subscribe_observer(observer.clone());
/// observer.assert_values(&["ready"]);
/// observer.assert_completed();
/// ```
///
/// # Scheduler
///
/// Every poll runs in a task on one worker of `scheduler`, owned by the subscription. A
/// future that needs a runtime's reactor (tokio's sockets and timers, say) must be polled
/// inside that runtime: use the `Tokio` scheduler (feature `tokio`). With
/// [`Immediate`](crate::schedulers::Immediate), the first poll runs inside `subscribe` and
/// each later one inside the waker's `wake`, on the waking thread.
///
/// The handle returned by `subscribe` is a [`PollSubscription`]: disposing it drops the
/// future and the observer. Dropping the handle does not cancel (as with every handle); a
/// pending future nobody can wake any more is dropped with its observer once the last clone
/// of its waker is gone.
///
/// A panic in `poll` unwinds on the worker (a thread-backed worker reports it and goes on),
/// ends the subscription, and drops the future and the observer without a notification.
///
/// # Performance
///
/// Per subscription: one worker, the future boxed (it need not be `Unpin`), and one shared
/// state that is also its waker. A wake that finds no poll queued schedules one task (an
/// allocation on a queue-backed worker); wakes while one is queued or running cost an atomic
/// operation.
#[doc(alias = "fromPromise")]
pub fn from_future<F, Sch>(future: F, scheduler: Sch) -> FromFuture<F, Sch>
where
    F: Future,
    Sch: Scheduler,
{
    FromFuture { future, scheduler }
}

/// An observable of a future's output; built by [`from_future`].
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
pub struct FromFuture<F, Sch> {
    future: F,
    scheduler: Sch,
}

impl<F: Future, Sch> Observable for FromFuture<F, Sch> {
    type Item = F::Output;
    type Flavour = crate::sync::Shared;
}

impl<F, Sch, O> Subscribe<O> for FromFuture<F, Sch>
where
    F: Future + Send + 'static,
    Sch: Scheduler,
    O: Observer<F::Output> + Send + 'static,
{
    type Subscription = PollSubscription;

    fn subscribe_observer(self, observer: O) -> PollSubscription {
        driver::spawn(
            self.scheduler.worker(),
            FutureEmitter::<_, _, Value>::new(self.future, observer),
        )
    }
}

impl<F, Sch> fmt::Debug for FromFuture<F, Sch> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FromFuture").finish_non_exhaustive()
    }
}

/// An observable that emits the `Ok` value `future` resolves to and completes, or fails with
/// its `Err`, converted with `Into<rx::Error>`.
///
/// The same as `from_future(future, scheduler).try_map(|result| result)`, under the name
/// other Rx libraries use; polled as [`from_future`] describes.
///
/// ```text
/// Ok(v):  ----(v|)
/// Err(e): ----#e
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::schedulers::Immediate;
/// use rx::testing::TestObserver;
/// use std::io;
///
/// let failing = async { Err::<i32, _>(io::Error::new(io::ErrorKind::Other, "offline")) };
/// let observer = TestObserver::new();
/// rx::source::from_future_result(failing, Immediate).subscribe_observer(observer.clone());
/// observer.assert_error("offline");
/// assert!(observer.error().unwrap().is::<io::Error>());
///
/// let observer = TestObserver::new();
/// rx::source::from_future_result(async { Ok::<_, io::Error>(7) }, Immediate)
///     .subscribe_observer(observer.clone());
/// observer.assert_values(&[7]);
/// observer.assert_completed();
/// ```
///
/// # Scheduler
///
/// As for [`from_future`].
///
/// # Performance
///
/// As for [`from_future`]; an `Err` is converted (and allocated) once.
pub fn from_future_result<F, T, E, Sch>(future: F, scheduler: Sch) -> FromFutureResult<F, Sch>
where
    F: Future<Output = Result<T, E>>,
    E: Into<Error>,
    Sch: Scheduler,
{
    FromFutureResult { future, scheduler }
}

/// An observable of a fallible future's `Ok` value or `Err`; built by [`from_future_result`].
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
pub struct FromFutureResult<F, Sch> {
    future: F,
    scheduler: Sch,
}

impl<F, T, E, Sch> Observable for FromFutureResult<F, Sch>
where
    F: Future<Output = Result<T, E>>,
{
    type Item = T;
    type Flavour = crate::sync::Shared;
}

impl<F, T, E, Sch, O> Subscribe<O> for FromFutureResult<F, Sch>
where
    F: Future<Output = Result<T, E>> + Send + 'static,
    E: Into<Error>,
    Sch: Scheduler,
    O: Observer<T> + Send + 'static,
{
    type Subscription = PollSubscription;

    fn subscribe_observer(self, observer: O) -> PollSubscription {
        driver::spawn(
            self.scheduler.worker(),
            FutureEmitter::<_, _, Fallible>::new(self.future, observer),
        )
    }
}

impl<F, Sch> fmt::Debug for FromFutureResult<F, Sch> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FromFutureResult").finish_non_exhaustive()
    }
}

/// A future with its observer; `K` says how the output reaches the observer.
struct FutureEmitter<F, O, K> {
    future: Pin<Box<F>>,
    /// `None` once the output was delivered.
    observer: Option<O>,
    _kind: PhantomData<fn() -> K>,
}

impl<F, O, K> FutureEmitter<F, O, K> {
    fn new(future: F, observer: O) -> Self {
        FutureEmitter {
            future: Box::pin(future),
            observer: Some(observer),
            _kind: PhantomData,
        }
    }
}

impl<F, O, K> Pollable for FutureEmitter<F, O, K>
where
    F: Future + Send + 'static,
    O: Send + 'static,
    K: Outcome<F::Output, O> + 'static,
{
    fn poll_emit(&mut self, cx: &mut Context<'_>, cancelled: &Cancelled<'_>) -> Progress {
        let Some(observer) = &self.observer else {
            return Progress::Done;
        };
        // Nobody wants the output: drop the future rather than polling it on.
        if cancelled.is_set() || K::is_disposed(observer) {
            return Progress::Done;
        }
        let Poll::Ready(output) = self.future.as_mut().poll(cx) else {
            return Progress::Pending;
        };
        if let Some(observer) = self.observer.take() {
            K::deliver(output, observer, cancelled);
        }
        Progress::Done
    }
}

/// How a future's output reaches its observer.
trait Outcome<Output, O> {
    fn is_disposed(observer: &O) -> bool;
    fn deliver(output: Output, observer: O, cancelled: &Cancelled<'_>);
}

/// The output is the value: [`from_future`].
struct Value;

impl<T, O: Observer<T>> Outcome<T, O> for Value {
    fn is_disposed(observer: &O) -> bool {
        observer.is_disposed()
    }

    fn deliver(value: T, mut observer: O, cancelled: &Cancelled<'_>) {
        if cancelled.is_set() || observer.is_disposed() {
            return;
        }
        observer.on_next(value);
        if !cancelled.is_set() && !observer.is_disposed() {
            observer.on_completed();
        }
    }
}

/// The output is a `Result`: [`from_future_result`].
struct Fallible;

impl<T, E: Into<Error>, O: Observer<T>> Outcome<Result<T, E>, O> for Fallible {
    fn is_disposed(observer: &O) -> bool {
        observer.is_disposed()
    }

    fn deliver(result: Result<T, E>, observer: O, cancelled: &Cancelled<'_>) {
        match result {
            Ok(value) => <Value as Outcome<T, O>>::deliver(value, observer, cancelled),
            Err(error) => {
                if !cancelled.is_set() && !observer.is_disposed() {
                    observer.on_error(error.into());
                }
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::prelude::*;
    use crate::schedulers::{Immediate, NewThread, RunLoop, TestScheduler};
    use crate::testing::TestObserver;
    use futures::channel::oneshot;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::Duration;

    /// Sets its flag when dropped.
    struct DropProbe(Arc<AtomicBool>);

    impl Drop for DropProbe {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    /// Pending `n` times, waking itself each time, then ready with `n`.
    struct SelfWaking {
        left: usize,
        polls: Arc<AtomicUsize>,
    }

    impl Future for SelfWaking {
        type Output = usize;
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<usize> {
            self.polls.fetch_add(1, Ordering::SeqCst);
            if self.left == 0 {
                return Poll::Ready(self.polls.load(Ordering::SeqCst));
            }
            self.left -= 1;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }

    fn zero() -> Duration {
        Duration::ZERO
    }

    #[test]
    fn a_ready_future_on_immediate_is_delivered_inside_subscribe() {
        let o = TestObserver::new();
        let handle = from_future(async { 5 }, Immediate).subscribe_observer(o.clone());
        o.assert_values(&[5]);
        o.assert_completed();
        o.assert_rules();
        assert!(handle.is_disposed());
    }

    #[test]
    fn nothing_runs_before_the_worker_does() {
        let sch = TestScheduler::new();
        let polled = Arc::new(AtomicBool::new(false));
        let p = polled.clone();
        let o = TestObserver::new();
        from_future(
            async move {
                p.store(true, Ordering::SeqCst);
                1
            },
            sch.clone(),
        )
        .subscribe_observer(o.clone());
        assert!(!polled.load(Ordering::SeqCst));
        sch.advance_by(zero());
        assert!(polled.load(Ordering::SeqCst));
        o.assert_values(&[1]);
        o.assert_completed();
    }

    #[test]
    fn a_wake_from_another_thread_schedules_the_next_poll() {
        let sch = TestScheduler::new();
        let (tx, rx) = oneshot::channel();
        let o = TestObserver::new();
        let handle = from_future(async move { rx.await.unwrap() }, sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(zero());
        o.assert_not_terminated();
        assert!(!handle.is_disposed());
        std::thread::spawn(move || tx.send("hi").unwrap())
            .join()
            .unwrap();
        o.assert_values(&[]);
        sch.advance_by(zero());
        o.assert_values(&["hi"]);
        o.assert_completed();
        assert!(handle.is_disposed());
    }

    #[test]
    fn a_wake_during_the_poll_is_not_lost() {
        let sch = TestScheduler::new();
        let polls = Arc::new(AtomicUsize::new(0));
        let o = TestObserver::new();
        from_future(
            SelfWaking {
                left: 3,
                polls: polls.clone(),
            },
            sch.clone(),
        )
        .subscribe_observer(o.clone());
        sch.advance_by(zero());
        o.assert_values(&[4]);
        o.assert_completed();
    }

    #[test]
    fn self_waking_on_immediate_loops_on_the_spot() {
        let polls = Arc::new(AtomicUsize::new(0));
        let o = TestObserver::new();
        from_future(SelfWaking { left: 2, polls }, Immediate).subscribe_observer(o.clone());
        o.assert_values(&[3]);
        o.assert_completed();
    }

    #[test]
    fn result_forms() {
        let o = TestObserver::<i32>::new();
        from_future_result(async { Err::<i32, _>(Error::msg("no")) }, Immediate)
            .subscribe_observer(o.clone());
        o.assert_error("no");
        o.assert_rules();

        let o = TestObserver::new();
        from_future_result(async { Ok::<_, Error>(3) }, Immediate).subscribe_observer(o.clone());
        o.assert_values(&[3]);
        o.assert_completed();
    }

    #[test]
    fn dispose_drops_the_future_and_the_observer_at_once() {
        let sch = TestScheduler::new();
        let dropped = Arc::new(AtomicBool::new(false));
        let probe = DropProbe(dropped.clone());
        let (tx, rx) = oneshot::channel::<i32>();
        let o = TestObserver::new();
        let handle = from_future(
            async move {
                let _probe = probe;
                rx.await.unwrap()
            },
            sch.clone(),
        )
        .subscribe_observer(o.clone());
        sch.advance_by(zero());
        assert!(!dropped.load(Ordering::SeqCst));
        handle.dispose();
        assert!(handle.is_disposed());
        assert!(dropped.load(Ordering::SeqCst));
        // The sender finds its receiver gone.
        assert_eq!(tx.send(1), Err(1));
        sch.advance_by(zero());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }

    #[test]
    fn dispose_before_the_first_poll() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = from_future(async { 1 }, sch.clone()).subscribe_observer(o.clone());
        handle.dispose();
        sch.advance_by(zero());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }

    #[test]
    fn a_disposed_observer_gets_nothing() {
        let o = TestObserver::new();
        o.dispose();
        from_future(async { 1 }, Immediate).subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }

    #[test]
    fn a_panicking_poll_ends_the_subscription_and_drops_the_observer() {
        let sch = TestScheduler::new();
        let dropped = Arc::new(AtomicBool::new(false));
        struct Observed(#[allow(dead_code)] DropProbe);
        impl Observer<i32> for Observed {
            fn on_next(&mut self, _: i32) {}
            fn on_error(self, _: Error) {}
            fn on_completed(self) {}
        }
        let handle = from_future(async { panic!("poll failed") }, sch.clone())
            .subscribe_observer(Observed(DropProbe(dropped.clone())));
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            sch.advance_by(zero());
        }));
        assert!(outcome.is_err());
        assert!(handle.is_disposed());
        assert!(dropped.load(Ordering::SeqCst));
        // The scheduler stays usable.
        let o = TestObserver::new();
        from_future(async { 2 }, sch.clone()).subscribe_observer(o.clone());
        sch.advance_by(zero());
        o.assert_values(&[2]);
    }

    #[test]
    fn resolves_on_a_new_thread() {
        let (tx, rx) = oneshot::channel();
        let values = from_future(async move { rx.await.unwrap() + 1 }, NewThread).as_blocking();
        let sender = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(5));
            tx.send(41).unwrap();
        });
        let got: Vec<_> = values.into_iter().collect();
        sender.join().unwrap();
        assert_eq!(got, [Ok(42)]);
    }

    #[test]
    fn a_future_nobody_can_wake_is_dropped_with_its_observer() {
        let run_loop = RunLoop::new();
        let dropped = Arc::new(AtomicBool::new(false));
        let probe = DropProbe(dropped.clone());
        let handle = from_future(
            async move {
                let _probe = probe;
                std::future::pending::<i32>().await
            },
            run_loop.clone(),
        )
        .subscribe(|_| {});
        while run_loop.dispatch_if_ready() {}
        assert!(!dropped.load(Ordering::SeqCst));
        assert!(!handle.is_disposed());
        // `pending` never keeps its waker: once the handle goes, nothing refers to the state.
        drop(handle);
        assert!(dropped.load(Ordering::SeqCst));
    }

    #[test]
    fn dispose_from_inside_the_observer_does_not_deadlock() {
        let sch = TestScheduler::new();
        let slot: Arc<std::sync::Mutex<Option<PollSubscription>>> = Arc::default();
        let s = slot.clone();
        let seen = Arc::new(AtomicUsize::new(0));
        let n = seen.clone();
        let handle = from_future(async { 1 }, sch.clone()).subscribe(move |_| {
            n.fetch_add(1, Ordering::SeqCst);
            s.lock().unwrap().as_ref().unwrap().dispose();
        });
        *slot.lock().unwrap() = Some(handle.clone());
        sch.advance_by(zero());
        assert_eq!(seen.load(Ordering::SeqCst), 1);
        assert!(handle.is_disposed());
        slot.lock().unwrap().take();
    }
}
