//! A timed queue for a loop that owns its thread: a GUI's event loop.

use super::counted::Counted;
use super::timed_queue::{Dispatch, Owner, Queue, QueueWorker, QueuedTask};
use super::{Reschedule, Scheduler, Task, Worker};
use crate::primitive::{Arc, Condvar, Mutex};
use crate::subscription::Subscription;
use crate::time::Instant;
use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::thread::{self, ThreadId};
use std::time::Duration;

/// A timed queue run by a loop that owns its thread — a GUI's event loop (winit, glib, egui)
/// — and tells that loop when to run it: no polling.
///
/// Made on the loop's thread and kept there (it is not `Send`). Pipelines are scheduled on
/// its [`handle`](EventLoop::handle), an [`EventLoopHandle`]: a `Send` [`Scheduler`] that
/// time operators and `observe_on` take, and that other threads use to queue work. The loop
/// asks three things of it:
///
/// - [`next_due`](EventLoop::next_due): when the earliest queued task is due, to sleep until
///   then (winit's `ControlFlow::WaitUntil`, a glib source's timeout). It counts every task
///   in the queue, so also the ticks of `interval` and the deadlines of `debounce`, which
///   ask to run again through their return value.
/// - [`dispatch_ready`](EventLoop::dispatch_ready): runs the tasks that are due, in due
///   order, each at most once per call, and returns without waiting.
/// - the wake callback given to [`with_waker`](EventLoop::with_waker): called on another
///   thread's schedule that makes the earliest due time earlier than the last one
///   `next_due` told (or queues the first task), so that a loop asleep until then wakes
///   (winit's `EventLoopProxy::send_event`, glib's `MainContext::wakeup`, egui's
///   `Context::request_repaint`). A schedule on the loop's own thread calls nothing: that
///   code runs inside a turn of the loop, which asks `next_due` again before it sleeps.
///
/// A loop with nothing else to wait for may call
/// [`dispatch_timeout`](EventLoop::dispatch_timeout) instead, which sleeps until a task is
/// due, another thread's schedule wakes it, or the timeout passes.
///
/// On its own thread the loop also takes what is not `Send`: [`pin`](EventLoop::pin) wraps
/// an observer holding `Rc`s (or any value) in an [`OnLoop`], which time operators and
/// `observe_on` accept, and [`schedule_local`](EventLoop::schedule_local) queues a task that
/// is not `Send`.
///
/// Dropping the `EventLoop` drops the tasks still queued: nothing can run them any more.
/// Tasks scheduled later are refused. A panic in a task unwinds from the call that ran it;
/// the loop stays usable.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::schedulers::EventLoop;
/// use std::cell::Cell;
/// use std::rc::Rc;
/// use std::time::Duration;
///
/// let ui = EventLoop::new();
/// let label = Rc::new(Cell::new(0)); // a widget: not `Send`
/// let shown = label.clone();
/// rx::source::interval(Duration::from_millis(1), ui.handle())
///     .take(3)
///     .subscribe_observer(ui.pin(rx::observer::NextObserver::new(move |n| shown.set(n))));
/// while let Some(due) = ui.next_due() {
///     std::thread::sleep(due.saturating_duration_since(rx::time::Instant::now()));
///     ui.dispatch_ready();
/// }
/// assert_eq!(label.get(), 2);
/// ```
pub struct EventLoop {
    queue: Counted<Queue>,
    shared: Arc<Shared>,
    /// Kept on its thread: [`OnLoop`] values are run and dropped here.
    _not_send: PhantomData<*const ()>,
}

/// What the loop and the handles share.
struct Shared {
    /// The thread the loop was made on.
    owner: ThreadId,
    /// The earliest due time the loop was last told of, `None` if none (or never asked).
    /// Held while `next_due` reads the queue, so that a schedule from another thread either
    /// is seen by that read or sees the time it told and wakes the loop: none is missed.
    told: Mutex<Option<Instant>>,
    /// Wakes [`EventLoop::dispatch_timeout`].
    woken: Condvar,
    wake: Option<Box<dyn Fn() + Send + Sync>>,
}

impl Shared {
    /// A task due at `due` was queued from another thread: wakes the loop if that makes the
    /// earliest due time earlier than the one it was told.
    fn queued_from_afar(&self, due: Instant) {
        let mut told = self.told.lock();
        if told.is_some_and(|told| told <= due) {
            return;
        }
        *told = Some(due);
        drop(told);
        self.woken.notify_one();
        if let Some(wake) = &self.wake {
            wake();
        }
    }
}

impl EventLoop {
    /// An empty loop pinned to the calling thread, with no wake callback: for a loop that
    /// waits in [`dispatch_timeout`](EventLoop::dispatch_timeout), or that no other thread
    /// schedules on.
    pub fn new() -> Self {
        EventLoop::with(None)
    }

    /// An empty loop pinned to the calling thread that calls `wake` whenever a schedule on
    /// another thread makes the earliest due time earlier than the one
    /// [`next_due`](EventLoop::next_due) last told (or queues work when it told none).
    /// `wake` runs on the scheduling thread, with no lock held: it should only nudge the
    /// loop (send it an event, wake its context), which then asks `next_due` again.
    ///
    /// ```
    /// use rx::schedulers::{EventLoop, Reschedule, Scheduler, Worker};
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    /// use std::time::Duration;
    ///
    /// let wakes = Arc::new(AtomicUsize::new(0));
    /// let counter = wakes.clone();
    /// let ui = EventLoop::with_waker(move || {
    ///     counter.fetch_add(1, Ordering::SeqCst); // e.g. proxy.send_event(Wake)
    /// });
    /// let worker = ui.handle().worker();
    /// std::thread::spawn(move || {
    ///     worker.schedule_after(Duration::from_secs(60), || Reschedule::Done);
    /// })
    /// .join()
    /// .unwrap();
    /// assert_eq!(wakes.load(Ordering::SeqCst), 1);
    /// assert!(ui.next_due().is_some());
    /// ```
    pub fn with_waker(wake: impl Fn() + Send + Sync + 'static) -> Self {
        EventLoop::with(Some(Box::new(wake)))
    }

    fn with(wake: Option<Box<dyn Fn() + Send + Sync>>) -> Self {
        EventLoop {
            queue: Queue::wall(),
            shared: Arc::new(Shared {
                owner: thread::current().id(),
                told: Mutex::new(None),
                woken: Condvar::new(),
                wake,
            }),
            _not_send: PhantomData,
        }
    }

    /// The scheduler of this loop: `Send`, so time operators and `observe_on` take it, and
    /// other threads queue work on it (which wakes the loop, see
    /// [`with_waker`](EventLoop::with_waker)).
    pub fn handle(&self) -> EventLoopHandle {
        EventLoopHandle {
            queue: self.queue.clone(),
            shared: self.shared.clone(),
        }
    }

    /// When the earliest queued task is due (maybe already past), or `None` if none is
    /// queued: the loop sleeps until then unless woken. Counts the tasks that asked to run
    /// again (`interval`'s ticks, `debounce`'s deadlines) as well as new ones.
    ///
    /// Also records what it told, so that another thread's schedule wakes the loop only
    /// when it makes this earlier.
    pub fn next_due(&self) -> Option<Instant> {
        let mut told = self.shared.told.lock();
        let due = self.queue.first_due();
        *told = due;
        due
    }

    /// Runs the tasks due now, in due order (first-in first-out for equal due times), and
    /// returns how many ran; never waits. Each task runs at most once per call: one that asks
    /// to run again at a time already past (a tick of an `interval` that fell behind) is
    /// queued behind the tasks that were due when it ran, and runs in the next call, so a
    /// turn of the loop always ends. Call [`next_due`](EventLoop::next_due) afterwards to know
    /// how long to sleep.
    pub fn dispatch_ready(&self) -> usize {
        drop_strays();
        let now = Instant::now();
        let limit = self.queue.next_seq();
        let mut ran = 0;
        while self.queue.dispatch_queued_before(now, limit) == Dispatch::Ran {
            ran += 1;
        }
        ran
    }

    /// Waits until a task is due, another thread's schedule makes an earlier one, or
    /// `timeout` has passed, whichever comes first; then runs what is due, as
    /// [`dispatch_ready`](EventLoop::dispatch_ready) does, and returns how many tasks ran.
    /// Waiting does not spin.
    ///
    /// ```
    /// use rx::schedulers::{EventLoop, Reschedule, Scheduler, Worker};
    /// use std::time::Duration;
    ///
    /// let ui = EventLoop::new();
    /// let worker = ui.handle().worker();
    /// std::thread::spawn(move || worker.schedule(|| Reschedule::Done));
    /// let mut ran = 0;
    /// while ran == 0 {
    ///     ran += ui.dispatch_timeout(Duration::from_secs(5)); // wakes when the task comes
    /// }
    /// assert_eq!(ran, 1);
    /// ```
    pub fn dispatch_timeout(&self, timeout: Duration) -> usize {
        let start = Instant::now();
        let limit = start.checked_add(timeout);
        let mut told = self.shared.told.lock();
        loop {
            let due = self.queue.first_due();
            *told = due;
            let until = match (due, limit) {
                (Some(due), Some(limit)) => Some(due.min(limit)),
                (due, limit) => due.or(limit),
            };
            match until {
                Some(until) if Instant::now() >= until => break,
                Some(until) => {
                    self.shared.woken.wait_until(&mut told, until);
                }
                None => self.shared.woken.wait(&mut told),
            }
            if told.is_some_and(|due| due <= Instant::now()) {
                break;
            }
        }
        drop(told);
        self.dispatch_ready()
    }

    /// Wraps `value` so that it may be handed to operators that require `Send`
    /// (`interval`, `debounce`, `observe_on` on this loop's [`handle`](EventLoop::handle)):
    /// an observer that holds `Rc`s or widgets. See [`OnLoop`].
    pub fn pin<T: 'static>(&self, value: T) -> OnLoop<T> {
        OnLoop::new(value)
    }

    /// Queues `task` (which need not be `Send`) to run on this loop after `delay`. Its
    /// handle is `Send`: cancelled from another thread, the task is dropped at the loop's
    /// next turn, on the loop's thread (see [`OnLoop`]).
    ///
    /// ```
    /// use rx::schedulers::{EventLoop, Reschedule};
    /// use std::rc::Rc;
    /// use std::time::Duration;
    ///
    /// let ui = EventLoop::new();
    /// let runs = Rc::new(std::cell::Cell::new(0));
    /// let counter = runs.clone();
    /// ui.schedule_local(Duration::ZERO, move || {
    ///     counter.set(counter.get() + 1);
    ///     Reschedule::Done
    /// });
    /// assert_eq!(ui.dispatch_ready(), 1);
    /// assert_eq!(runs.get(), 1);
    /// ```
    pub fn schedule_local<F>(&self, delay: Duration, task: F) -> QueuedTask
    where
        F: FnMut() -> Reschedule + 'static,
    {
        let mut task = OnLoop::new(task);
        Queue::worker(&self.queue, Owner::Driven).schedule_after(delay, move || (task.get_mut())())
    }

    /// Whether no task is queued, due or not.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}

impl Default for EventLoop {
    fn default() -> Self {
        EventLoop::new()
    }
}

impl Drop for EventLoop {
    fn drop(&mut self) {
        Queue::remove_driver(&self.queue);
    }
}

impl fmt::Debug for EventLoop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventLoop")
            .field("is_empty", &self.is_empty())
            .finish()
    }
}

/// The scheduler of an [`EventLoop`], and the handle other threads reach it by: a cheap
/// `Clone + Send` value. Its workers queue tasks on the loop's queue; a task queued from
/// another thread that makes the earliest due time earlier wakes the loop.
///
/// It runs nothing itself: the [`EventLoop`] does, on its thread. Once the `EventLoop` is
/// dropped, tasks scheduled here are refused (dropped at once).
#[derive(Clone)]
pub struct EventLoopHandle {
    queue: Counted<Queue>,
    shared: Arc<Shared>,
}

impl Scheduler for EventLoopHandle {
    type Worker = EventLoopWorker;

    fn worker(&self) -> EventLoopWorker {
        EventLoopWorker {
            inner: Queue::worker(&self.queue, Owner::Driven),
            shared: self.shared.clone(),
        }
    }

    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

#[diagnostic::do_not_recommend]
impl super::DeferringScheduler for EventLoopHandle {}

impl fmt::Debug for EventLoopHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventLoopHandle").finish_non_exhaustive()
    }
}

/// The worker of an [`EventLoopHandle`]: a [`QueueWorker`] on the loop's queue that wakes
/// the loop when a schedule from another thread needs it. Disposing it cancels its tasks.
#[derive(Clone)]
pub struct EventLoopWorker {
    inner: QueueWorker,
    shared: Arc<Shared>,
}

impl Worker for EventLoopWorker {
    type TaskHandle = QueuedTask;

    fn schedule_at<T: Task>(&self, due: Instant, task: T) -> QueuedTask {
        let handle = self.inner.schedule_at(due, task);
        if thread::current().id() != self.shared.owner {
            self.shared.queued_from_afar(due);
        }
        handle
    }

    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

impl Subscription for EventLoopWorker {
    fn dispose(&self) {
        self.inner.dispose();
    }

    fn is_disposed(&self) -> bool {
        self.inner.is_disposed()
    }
}

impl fmt::Debug for EventLoopWorker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventLoopWorker")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

/// A value kept on the thread that made it: `Send` and `Sync` whatever it holds, checked at
/// run time. The native counterpart of the browser's `OnPage`, for an [`EventLoop`]'s
/// thread.
///
/// The operators whose state is thread-safe (`interval`, `timer`, `debounce`, `delay`,
/// `observe_on`, ...) require a `Send` observer, though on an [`EventLoopHandle`] they call
/// it only on the loop's thread. Wrap an observer that holds `Rc`s or widgets in `OnLoop`
/// ([`EventLoop::pin`]): it is an [`Observer`](crate::Observer) when what it holds is one,
/// and a [`Subscription`] likewise.
///
/// What it holds is reached only on the thread that made it: [`get`](OnLoop::get),
/// [`get_mut`](OnLoop::get_mut), [`into_inner`](OnLoop::into_inner) and the observer's
/// `on_next`, `on_error` and `on_completed` panic on any other (`is_disposed` answers
/// `false` there). Dropped on another thread, it hands what it holds back to its own thread,
/// to be dropped there by the next turn of an [`EventLoop`] on that thread
/// ([`dispatch_ready`](EventLoop::dispatch_ready)): so a task on the loop cancelled from
/// another thread, and the observer it holds, are dropped on the loop's thread. Should no
/// loop run there again, it is leaked.
pub struct OnLoop<T: 'static> {
    value: ManuallyDrop<T>,
    thread: ThreadId,
}

// SAFETY: the value is reached only on `thread` (every access checks it, and panics
// elsewhere), and dropped only there (elsewhere it is moved, untouched, to `STRAYS`), so
// moving the wrapper to another thread moves nothing that thread can use.
unsafe impl<T> Send for OnLoop<T> {}
// SAFETY: as for `Send`: a shared reference on another thread reaches nothing of the value.
unsafe impl<T> Sync for OnLoop<T> {}

/// The values of [`OnLoop`]s dropped on another thread than their own, each waiting for its
/// own thread to drop it ([`drop_strays`]). A lock of std's: no user code runs under it.
static STRAYS: std::sync::Mutex<Vec<Stray>> = std::sync::Mutex::new(Vec::new());

/// How many values `STRAYS` holds, read without the lock at every turn of a loop. Relaxed:
/// a value counted late is dropped at the next turn; the lock orders the rest.
static STRAY_COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A value of an [`OnLoop`] on its way back to its thread.
struct Stray {
    thread: ThreadId,
    /// Kept only to be dropped.
    _value: Box<dyn Any>,
}

// SAFETY: a stray's value was moved (a copy of its bytes, which touches nothing it points
// to) into its box on a foreign thread, and is dropped only on `thread` (`drop_strays`).
unsafe impl Send for Stray {}

/// Drops the values of [`OnLoop`]s of this thread that were dropped on another.
fn drop_strays() {
    use std::sync::atomic::Ordering::Relaxed;
    if STRAY_COUNT.load(Relaxed) == 0 {
        return;
    }
    let here = thread::current().id();
    let mine: Vec<Stray> = {
        let mut strays = STRAYS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (mine, others) = std::mem::take(&mut *strays)
            .into_iter()
            .partition(|stray| stray.thread == here);
        *strays = others;
        STRAY_COUNT.store(strays.len(), Relaxed);
        mine
    };
    // Outside the lock: the drops are user code, which may drop other `OnLoop`s.
    drop(mine);
}

impl<T: 'static> OnLoop<T> {
    /// Wraps `value`, pinned to the calling thread.
    pub fn new(value: T) -> Self {
        OnLoop {
            value: ManuallyDrop::new(value),
            thread: thread::current().id(),
        }
    }

    /// Whether the calling thread is the one that made this value.
    pub fn is_on_its_thread(&self) -> bool {
        thread::current().id() == self.thread
    }

    #[track_caller]
    fn check(&self) {
        assert!(
            self.is_on_its_thread(),
            "rx: an `OnLoop` value was reached from a thread other than the one that made it"
        );
    }

    /// The value. Panics on another thread than the one that made it.
    #[track_caller]
    pub fn get(&self) -> &T {
        self.check();
        &self.value
    }

    /// The value. Panics on another thread than the one that made it.
    #[track_caller]
    pub fn get_mut(&mut self) -> &mut T {
        self.check();
        &mut self.value
    }

    /// Takes the value out. Panics on another thread than the one that made it.
    #[track_caller]
    pub fn into_inner(self) -> T {
        self.check();
        let mut this = ManuallyDrop::new(self);
        // SAFETY: `this` is never used again nor dropped, so the value is taken once.
        unsafe { ManuallyDrop::take(&mut this.value) }
    }
}

impl<T: 'static> Drop for OnLoop<T> {
    fn drop(&mut self) {
        // SAFETY: taken once, here, and never reached again.
        let value = unsafe { ManuallyDrop::take(&mut self.value) };
        if self.is_on_its_thread() {
            drop(value);
            return;
        }
        if !std::mem::needs_drop::<T>() {
            return;
        }
        // Dropping it here could touch an `Rc`'s count from two threads: it goes back to
        // its own thread, moved but not touched.
        let stray = Stray {
            thread: self.thread,
            _value: Box::new(value),
        };
        let mut strays = STRAYS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        strays.push(stray);
        STRAY_COUNT.store(strays.len(), std::sync::atomic::Ordering::Relaxed);
    }
}

impl<T: Clone + 'static> Clone for OnLoop<T> {
    #[track_caller]
    fn clone(&self) -> Self {
        OnLoop::new(self.get().clone())
    }
}

impl<T: fmt::Debug + 'static> fmt::Debug for OnLoop<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_on_its_thread() {
            f.debug_tuple("OnLoop").field(self.get()).finish()
        } else {
            f.debug_tuple("OnLoop").finish_non_exhaustive()
        }
    }
}

impl<T, O: crate::Observer<T> + 'static> crate::Observer<T> for OnLoop<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.get_mut().on_next(value)
    }

    #[inline]
    fn on_error(self, error: crate::Error) {
        self.into_inner().on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        self.into_inner().on_completed()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.is_on_its_thread() && self.value.is_disposed()
    }
}

impl<S: Subscription + 'static> Subscription for OnLoop<S> {
    #[inline]
    fn dispose(&self) {
        self.get().dispose()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.is_on_its_thread() && self.value.is_disposed()
    }
}

#[cfg(all(test, not(loom)))]
mod tests;
