//! Schedulers: where and when work runs.
//!
//! A [`Scheduler`] hands out [`Worker`]s. A worker runs the [`Task`]s given to it one at a
//! time, in due order (first-in first-out for equal due times), now or at a later instant.
//! A task asks to run again through its return value ([`Reschedule`]), which costs no new
//! allocation; periodic work reschedules at an absolute instant computed from its previous due
//! time, so it does not drift.
//!
//! Choices between schedulers are made at compile time: every time operator is generic over
//! its scheduler, and with [`Immediate`] the scheduling code folds away.
//!
//! # The schedulers
//!
//! | scheduler | where tasks run | waiting for a due time |
//! |---|---|---|
//! | [`Immediate`] | inline, before `schedule` returns | sleeps the caller |
//! | [`CurrentThread`] | on the calling thread, through a trampoline queue | sleeps the caller |
//! | [`NewThread`] | a new thread per worker | the thread waits on its queue |
//! | [`ThreadPool`] | a fixed set of threads; workers spread round-robin | each thread waits on its queue |
//! | [`Computational`] | a process-wide pool, one thread per core | as `ThreadPool` |
//! | [`RunLoop`] | on whichever thread calls [`RunLoop::dispatch`] | `dispatch` waits |
//! | [`EventLoop`] | on the thread that owns it: a GUI's event loop | the loop sleeps until [`EventLoop::next_due`]; other threads' schedules call its wake callback |
//! | [`TestScheduler`] | on the thread advancing virtual time | virtual: nothing waits |
//!
//! On `wasm32` (a browser), where nothing may block and no thread can be started, the
//! schedulers that sleep or wait ([`Immediate`], [`CurrentThread`], [`NewThread`],
//! [`ThreadPool`], [`Computational`], [`EventLoop`], and [`RunLoop`]'s waiting calls) are not
//! compiled, so naming one is a compile error rather than a trap at run time; the browser's
//! own event loop schedules there, through the schedulers of `rx::schedulers::web` (the `web`
//! feature).
//! [`RunLoop::run_until_idle`], [`TestScheduler`] and every time operator work there, on the
//! clock of [`rx::time`](crate::time).
//!
//! The threaded schedulers and the run loop share one timed queue: a heap ordered by due time
//! and a sequence number, whose driver waits until the *current* earliest task is due and
//! re-arms when an earlier one is queued, without spinning. A cancelled task never runs and
//! what it captured is dropped at once.
//!
//! # Cost
//!
//! Scheduling on a queue stores the task by value in a slot of the queue, so a task of up to
//! three words (most of the library's own: a pointer to an operator's state, and a counter or
//! a duration) costs no allocation, and a larger one costs one, for its box; a task that asks
//! to run again keeps its slot. The queue's buffers grow with the number of pending tasks and
//! are given back as they are cancelled or run. A task's handle is its queue, and its slot
//! and tag in it (two words): it holds nothing of the task, so a cancelled task is gone
//! however long its handles live. [`Immediate`] allocates nothing, and [`CurrentThread`]
//! reuses the slots of its finished tasks, so it allocates only while a thread fills its
//! pool of them.
//!
//! # Panics in tasks
//!
//! A task that panics on a scheduler's own thread ([`NewThread`], [`ThreadPool`],
//! [`Computational`]) is reported through the panic hook (the default hook prints it to
//! stderr; [`std::panic::set_hook`] routes it elsewhere) and dropped, and the thread goes on
//! running its other tasks, as tokio's worker threads do. Where tasks run on the caller's
//! thread ([`Immediate`], [`CurrentThread`], [`RunLoop`], [`TestScheduler`]) the panic unwinds
//! to the caller, and the scheduler stays usable. Either way the panicking task is finished:
//! its handle reports disposed, and it never runs again. No lock is left poisoned.

use crate::subscription::Subscription;
use crate::time::Instant;
use std::time::Duration;

mod counted;
#[cfg(any(not(target_arch = "wasm32"), doc))]
mod current_thread;
mod erased;
#[cfg(any(not(target_arch = "wasm32"), doc))]
mod event_loop;
#[cfg(any(not(target_arch = "wasm32"), doc))]
mod immediate;
mod keys;
#[cfg(any(not(target_arch = "wasm32"), doc))]
mod new_thread;
mod run_loop;
mod slab;
mod test_scheduler;
#[cfg(any(not(target_arch = "wasm32"), doc))]
mod thread_pool;
mod timed_queue;
#[cfg(all(target_arch = "wasm32", feature = "web"))]
#[cfg_attr(docsrs, doc(cfg(all(target_arch = "wasm32", feature = "web"))))]
pub mod web;

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub use crate::interop::tokio::{Tokio, TokioTask, TokioWorker};
#[cfg(any(not(target_arch = "wasm32"), doc))]
#[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
pub use current_thread::{CurrentThread, CurrentThreadTask, CurrentThreadWorker};
#[cfg(any(not(target_arch = "wasm32"), doc))]
#[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
pub use event_loop::{EventLoop, EventLoopHandle, EventLoopWorker, OnLoop};
#[cfg(any(not(target_arch = "wasm32"), doc))]
#[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
pub use immediate::{Immediate, ImmediateWorker};
#[cfg(any(not(target_arch = "wasm32"), doc))]
#[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
pub use new_thread::NewThread;
pub use run_loop::RunLoop;
pub use test_scheduler::TestScheduler;
#[cfg(any(not(target_arch = "wasm32"), doc))]
#[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
pub use thread_pool::{Computational, ThreadPool};
pub use timed_queue::{QueueWorker, QueuedTask};

/// What a task asks for when it returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reschedule {
    /// The task is finished; the worker drops it.
    Done,
    /// Run the task again at this instant. Periodic tasks compute it from their previous due
    /// time so they do not drift.
    ///
    /// An instant already past runs the task again at once, but on a worker with a queue (all
    /// but [`Immediate`] and [`CurrentThread`]) behind the tasks that were due when this run
    /// began: a periodic task that falls behind, its runs longer than its period, does not
    /// keep the other tasks of its thread from running.
    At(Instant),
    /// Run the task again this long after now.
    After(Duration),
}

/// A unit of work a [`Worker`] runs; any `FnMut() -> Reschedule + MaybeSend + 'static` is one:
/// a `Send` closure, or on `wasm32` any closure (see [`MaybeSend`]).
pub trait Task: MaybeSend + 'static {
    /// Runs the task once.
    fn run(&mut self) -> Reschedule;
}

impl<F> Task for F
where
    F: FnMut() -> Reschedule + MaybeSend + 'static,
{
    #[inline]
    fn run(&mut self) -> Reschedule {
        self()
    }
}

/// `Send` where a program may have several threads, and every type where it cannot: a
/// `wasm32` build without the `atomics` target feature (a browser page, as built by default),
/// whose one thread no value can leave.
///
/// The bound of what a scheduler runs ([`Task`]) and of the observers that the timer sources
/// ([`interval`](crate::source::interval), [`timer`](crate::source::timer),
/// [`timer_at`](crate::source::timer_at)) hand to one, so that in a browser a task or an
/// observer may hold `Rc`s and DOM objects, which are not `Send`; natively it is `Send` and
/// nothing changes. The operators whose subscription is a `Send` box of their state
/// (`debounce`, `delay`, `timeout`, ...) still require [`ThreadObserver`].
///
/// ```
/// use rx::schedulers::MaybeSend;
///
/// fn runs_anywhere<T: MaybeSend>(_: &T) {}
/// runs_anywhere(&std::sync::Arc::new(1));
/// ```
#[cfg(not(all(target_arch = "wasm32", not(target_feature = "atomics"))))]
pub trait MaybeSend: Send {}

#[cfg(not(all(target_arch = "wasm32", not(target_feature = "atomics"))))]
impl<T: Send + ?Sized> MaybeSend for T {}

/// `Send` where a program may have several threads, and every type where it cannot: a
/// `wasm32` build without the `atomics` target feature (a browser page, as built by default),
/// whose one thread no value can leave.
///
/// The bound of what a scheduler runs ([`Task`]) and of the observers that the timer sources
/// hand to one, so that in a browser a task or an observer may hold `Rc`s and DOM objects.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
pub trait MaybeSend {}

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
impl<T: ?Sized> MaybeSend for T {}

/// Hands out workers. A cheap `Clone + Send` value, so time operators can hold one.
pub trait Scheduler: Clone + Send + Sync + 'static {
    /// The worker this scheduler hands out.
    type Worker: Worker;

    /// A new worker. Tasks on one worker run one at a time, in due order.
    fn worker(&self) -> Self::Worker;

    /// The scheduler's clock: the wall clock, or virtual time for the test scheduler.
    fn now(&self) -> Instant;

    /// Runs `f` on the calling thread and returns its result where a new worker's
    /// [`run_now`](Worker::run_now) would, without making a worker for it; otherwise returns
    /// `None` without calling `f`. A one-shot task that needs no handle (`subscribe_on`'s)
    /// then costs neither a worker nor a check that it was disposed, which a new one never is.
    ///
    /// The default asks a new worker only where [`Worker::RUNS_INLINE`] is set, as making a
    /// worker may start a thread; [`CurrentThread`] runs `f` when no queue is being drained
    /// on the thread.
    #[inline]
    fn run_now<R>(&self, f: impl FnOnce() -> R) -> Option<R> {
        if <Self::Worker as Worker>::RUNS_INLINE {
            self.worker().run_now(f)
        } else {
            None
        }
    }
}

/// A [`Scheduler`] whose workers queue a task and return from `schedule` before running it:
/// every scheduler here but [`Immediate`], which runs each task inline, to its end.
///
/// Operators that must subscribe their source before their timer first fires, or whose
/// periodic task must return to let values in (`timeout`, `sample`, `buffer_with_time`),
/// require it, so passing [`Immediate`] is a compile error rather than a hang or a panic. A
/// scheduler of your own implements it when its workers queue tasks.
///
/// ```
/// use rx::schedulers::{DeferringScheduler, NewThread, RunLoop, TestScheduler};
///
/// fn defers<S: DeferringScheduler>(_: &S) -> bool { true }
/// assert!(defers(&TestScheduler::new()) && defers(&RunLoop::new()) && defers(&NewThread));
/// ```
#[cfg_attr(
    not(target_arch = "wasm32"),
    diagnostic::on_unimplemented(
        message = "`{Self}` is not known to queue tasks, and this operator needs a scheduler that runs them later",
        label = "not a `DeferringScheduler`",
        note = "use a scheduler that runs tasks later: `NewThread`, `ThreadPool`, `RunLoop`, or `TestScheduler` in tests",
        note = "in generic code, bound the scheduler with `Sch: rx::schedulers::DeferringScheduler`"
    )
)]
#[cfg_attr(
    target_arch = "wasm32",
    diagnostic::on_unimplemented(
        message = "`{Self}` is not known to queue tasks, and this operator needs a scheduler that runs them later",
        label = "not a `DeferringScheduler`",
        note = "in a browser, use `rx::schedulers::web::SetTimeout`, `Microtask` or `AnimationFrame` (the `web` feature), or `TestScheduler` in tests",
        note = "in generic code, bound the scheduler with `Sch: rx::schedulers::DeferringScheduler`"
    )
)]
pub trait DeferringScheduler: Scheduler {}

#[cfg(any(not(target_arch = "wasm32"), doc))]
#[diagnostic::do_not_recommend]
impl DeferringScheduler for CurrentThread {}
#[cfg(any(not(target_arch = "wasm32"), doc))]
#[diagnostic::do_not_recommend]
impl DeferringScheduler for NewThread {}
#[cfg(any(not(target_arch = "wasm32"), doc))]
#[diagnostic::do_not_recommend]
impl DeferringScheduler for ThreadPool {}
#[cfg(any(not(target_arch = "wasm32"), doc))]
#[diagnostic::do_not_recommend]
impl DeferringScheduler for Computational {}
#[diagnostic::do_not_recommend]
impl DeferringScheduler for RunLoop {}
#[diagnostic::do_not_recommend]
impl DeferringScheduler for TestScheduler {}
#[cfg(feature = "tokio")]
#[diagnostic::do_not_recommend]
impl DeferringScheduler for Tokio {}

/// An observer that an operator may hand to a scheduler's thread: any `Send + 'static` one.
///
/// Operators that deliver on a worker of a scheduler (`observe_on`, `subscribe_on`, `delay`,
/// `debounce`, `timeout`, `sample`, `buffer_with_time`) require it of their observer. It is `Send + 'static` under a name of its own so that a closure capturing
/// an `Rc` or a borrow is reported with what to do about it. A chain that an [`EventLoop`]
/// delivers on its own thread takes an observer holding `Rc`s wrapped in an [`OnLoop`]
/// ([`EventLoop::pin`]).
///
/// ```
/// use rx::schedulers::ThreadObserver;
/// use rx::testing::TestObserver;
///
/// fn crosses<O: ThreadObserver>(_: &O) -> bool { true }
/// assert!(crosses(&TestObserver::<i32>::new()));
/// ```
#[cfg_attr(
    not(target_arch = "wasm32"),
    diagnostic::on_unimplemented(
        message = "`{Self}` must be `Send + 'static`: this chain delivers values on another thread",
        label = "captures something that is not `Send`, or borrows",
        note = "capture `Arc` and `Mutex` instead of `Rc` and `RefCell`, and move owned values in",
        note = "on the thread of an `rx::schedulers::EventLoop` (a GUI's loop) that delivers this chain, wrap the observer with `EventLoop::pin`"
    )
)]
#[cfg_attr(
    target_arch = "wasm32",
    diagnostic::on_unimplemented(
        message = "`{Self}` must be `Send + 'static`: this operator keeps its observer in thread-safe state",
        label = "captures something that is not `Send`, or borrows",
        note = "in a browser, wrap the observer in `rx::schedulers::web::OnPage` (the `web` feature): the page has one thread"
    )
)]
pub trait ThreadObserver: Send + 'static {}

#[diagnostic::do_not_recommend]
impl<O: Send + 'static> ThreadObserver for O {}

/// An observable that an operator may subscribe on a scheduler's thread: any `Send + 'static`
/// one.
///
/// [`subscribe_on`](crate::ObservableExt::subscribe_on) requires it of its source. It is
/// `Send + 'static` under a name of its own so that a chain capturing an `Rc`, or built on a
/// local subject, is reported with what to do about it.
///
/// ```
/// use rx::schedulers::ThreadObservable;
///
/// fn crosses<S: ThreadObservable>(_: &S) -> bool { true }
/// assert!(crosses(&rx::source::just(1)));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` must be `Send + 'static`: `subscribe_on` subscribes it on another thread",
    label = "captures something that is not `Send`, or borrows",
    note = "capture `Arc` and `Mutex` instead of `Rc` and `RefCell`, and move owned values in",
    note = "a chain built on a local subject or a `boxed_local()` observable stays on its thread: build it on `rx::subjects::PublishSubject`, or box it with `boxed()`"
)]
pub trait ThreadObservable: Send + 'static {}

#[diagnostic::do_not_recommend]
impl<S: Send + 'static> ThreadObservable for S {}

/// Runs tasks one at a time, in due order. Disposing the worker (it is a [`Subscription`])
/// cancels every task on it; dropping it does not.
pub trait Worker: Subscription + Clone + Send + Sync + 'static {
    /// The handle of one scheduled task; disposing it cancels that task, which then never
    /// runs again, and what it captured is dropped promptly.
    type TaskHandle: Subscription + Clone + Send + Sync + 'static;

    /// Whether [`schedule`](Worker::schedule) runs a task to its end on the calling thread
    /// before returning, as [`Immediate`]'s worker does. Operators read it to hand
    /// notifications on directly instead of through a queue, so the choice between the two
    /// paths is made at compile time.
    const RUNS_INLINE: bool = false;

    /// Runs `task` at `due` (at once if `due` is not in the future).
    fn schedule_at<T: Task>(&self, due: Instant, task: T) -> Self::TaskHandle;

    /// The worker's clock, the same as its scheduler's.
    fn now(&self) -> Instant;

    /// Runs `task` after `delay`.
    fn schedule_after<T: Task>(&self, delay: Duration, task: T) -> Self::TaskHandle {
        self.schedule_at(self.now() + delay, task)
    }

    /// Runs `task` as soon as the worker gets to it.
    fn schedule<T: Task>(&self, task: T) -> Self::TaskHandle {
        self.schedule_at(self.now(), task)
    }

    /// Runs `f` on the calling thread and returns its result, if the worker would run a task
    /// scheduled now at once, before `schedule` returns, with nothing ahead of it; otherwise
    /// returns `None` without calling `f` (it is dropped: capture by reference what must be
    /// kept). So a one-shot task due now skips boxing and a task handle where it can:
    /// [`Immediate`] runs every `f` (see [`RUNS_INLINE`](Worker::RUNS_INLINE)), and
    /// [`CurrentThread`] runs `f` when no queue is being drained on the thread, then runs what
    /// `f` queued before returning. The default runs `f` only if `RUNS_INLINE` is set and the
    /// worker is not disposed.
    fn run_now<R>(&self, f: impl FnOnce() -> R) -> Option<R> {
        (Self::RUNS_INLINE && !self.is_disposed()).then(f)
    }
}
