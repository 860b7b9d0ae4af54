//! [`Tokio`]: a scheduler whose workers run on a tokio runtime.
//!
//! # Algorithm
//!
//! Each worker is one tokio task, its *driver*, running a timed queue of its own: a binary
//! min-heap ordered by `(due, seq)` behind one lock. One tokio task per worker rather than one
//! per scheduled rx task, because a worker runs its tasks one at a time and first-in first-out
//! for equal due times, and tokio tasks spawned separately may run in parallel, in any order,
//! on a multi-thread runtime.
//!
//! - **Identity by sequence number.** Every push takes the next `seq`, which breaks ties
//!   first-in first-out and names the entry; no address is ever compared.
//! - **Waiting.** The driver looks at the *current* top under the lock. If it is due, the
//!   driver pops it and runs it outside the lock. If not, the driver stores its waker, arms
//!   its one [`Sleep`](::tokio::time::Sleep) for the top's due time (by `reset`, which
//!   allocates nothing) and returns `Pending`; with an empty heap it only stores its waker. A
//!   push that becomes the new top takes that waker and wakes the driver, which re-arms on
//!   the earlier deadline. Checking the top and storing the waker happen under the lock the
//!   pusher holds, so no wake-up is lost.
//! - **Cancellation.** A task lives in a shared cell, one allocation per scheduled task reused
//!   by every reschedule. Cancelling drops the task at once, on the cancelling thread; its
//!   heap entry stays as a tombstone, popped when it reaches the top, and the heap is
//!   compacted when tombstones make up more than half of it.
//! - **Fairness.** The driver runs at most 64 due tasks per poll, then yields to the runtime.
//! - **Lifetime.** The driver ends when the worker is disposed, once every handle to the
//!   worker is gone and no task is left on it, or when the runtime shuts down; in the last
//!   case the tasks still queued are dropped and later schedules are refused.
//!
//! This is the algorithm of the queue behind the crate's thread schedulers, specialised to
//! one worker and an async driver.

use crate::primitive::{Arc, AtomicBool, AtomicU64, AtomicUsize, Mutex, Ordering};
use crate::schedulers::{Reschedule, Scheduler, Task, Worker};
use crate::subscription::Subscription;
use crate::time::Instant;
use ::tokio::runtime::Handle;
use ::tokio::time::{Instant as TokioInstant, Sleep};
use std::cmp::Ordering as CmpOrdering;
use std::collections::BinaryHeap;
use std::fmt;
use std::future::poll_fn;
use std::panic::{self, AssertUnwindSafe};
use std::pin::{Pin, pin};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

/// Due tasks the driver runs in one poll before it yields to the runtime.
const BUDGET: usize = 64;

/// Below this many tombstones the heap is never compacted.
const COMPACT_MIN: usize = 64;

/// `queued_seq` of a cell with no entry in the heap.
const NOT_QUEUED: u64 = u64::MAX;

/// A scheduler over a tokio runtime: each [`worker`](Scheduler::worker) is one task spawned
/// on the runtime, which runs the worker's rx tasks one at a time, in due order (first-in
/// first-out for equal due times), waiting for due times with tokio's timer. Available with
/// the `tokio` feature.
///
/// Tasks run on the runtime's threads and inside its context, so they may use tokio (spawn,
/// timers, I/O), and a future polled by [`from_future`](crate::source::from_future) on this
/// scheduler may be a tokio future. A task that blocks, blocks one of the runtime's threads.
///
/// A cheap `Clone` handle around a [`Handle`]. The clock is tokio's
/// ([`tokio::time::Instant`](::tokio::time::Instant)), so a runtime with paused time
/// (tokio's `test-util`) drives rx time operators in virtual time. Read the clock from
/// inside the runtime then: a thread outside it sees the wall clock.
///
/// A task that panics is reported by the panic hook (by default, a message on stderr) and
/// dropped; the worker goes on with its other tasks, as the crate's thread schedulers do.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::schedulers::Tokio;
/// use std::time::Duration;
///
/// # fn main() {
/// let runtime = tokio::runtime::Builder::new_current_thread()
///     .enable_time()
///     .start_paused(true) // virtual time: the test takes no time
///     .build()
///     .unwrap();
/// runtime.block_on(async {
///     let start = tokio::time::Instant::now();
///     let ticks = rx::source::interval(Duration::from_secs(1), Tokio::current())
///         .take(3)
///         .to_vec()
///         .first_value()
///         .await;
///     assert_eq!(ticks, Ok(vec![0, 1, 2]));
///     assert_eq!(start.elapsed(), Duration::from_secs(3));
/// });
/// # }
/// ```
///
/// # Panics
///
/// [`new`](Tokio::new) and [`current`](Tokio::current) panic when the runtime was built
/// without its time driver (`enable_time`, or `enable_all`); `current` panics outside a
/// runtime.
#[derive(Clone, Debug)]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub struct Tokio {
    handle: Handle,
}

impl Tokio {
    /// A scheduler spawning its workers on the runtime behind `handle`.
    ///
    /// # Panics
    ///
    /// When the runtime has no time driver.
    pub fn new(handle: Handle) -> Self {
        // Fail here, with tokio's own message, rather than inside the first worker's task.
        let guard = handle.enter();
        drop(::tokio::time::sleep(Duration::ZERO));
        drop(guard);
        Tokio { handle }
    }

    /// A scheduler on the runtime this is called from.
    ///
    /// # Panics
    ///
    /// Outside a tokio runtime, or when the runtime has no time driver.
    #[track_caller]
    pub fn current() -> Self {
        Tokio::new(Handle::current())
    }

    /// The handle of the runtime the workers run on.
    pub fn handle(&self) -> &Handle {
        &self.handle
    }
}

impl From<Handle> for Tokio {
    fn from(handle: Handle) -> Self {
        Tokio::new(handle)
    }
}

impl Scheduler for Tokio {
    type Worker = TokioWorker;

    /// Spawns the worker's driver task on the runtime.
    fn worker(&self) -> TokioWorker {
        let core = Arc::new(Core {
            state: Mutex::new(State {
                heap: BinaryHeap::new(),
                next_seq: 0,
                tombstones: 0,
                closed: false,
                waker: None,
            }),
            live: AtomicUsize::new(1),
            closed: AtomicBool::new(false),
        });
        // Detached: the driver ends by itself (see the module docs), and a runtime that
        // shuts down drops it, which closes the worker.
        drop(self.handle.spawn(drive(CloseOnDrop(core.clone()))));
        TokioWorker { core }
    }

    #[inline]
    fn now(&self) -> Instant {
        now()
    }
}

/// Tokio's clock: virtual when the runtime's time is paused.
fn now() -> Instant {
    TokioInstant::now().into_std()
}

/// The driver of one worker: runs its queue until it closes. It owns the guard from the
/// start, so a runtime that drops it before its first poll still closes the worker.
async fn drive(guard: CloseOnDrop) {
    let core = &guard.0;
    let mut sleep = pin!(::tokio::time::sleep_until(TokioInstant::now()));
    let mut armed = None;
    poll_fn(|cx| core.poll_drive(cx, sleep.as_mut(), &mut armed)).await;
}

/// Closes the worker when its driver goes, whether it ended or the runtime dropped it.
struct CloseOnDrop(Arc<Core>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// A heap entry: a task cell and when it is due.
struct Entry {
    due: Instant,
    seq: u64,
    cell: Arc<dyn Cell>,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    /// Reversed, so that std's max-heap pops the earliest `(due, seq)` first.
    fn cmp(&self, other: &Self) -> CmpOrdering {
        other
            .due
            .cmp(&self.due)
            .then_with(|| other.seq.cmp(&self.seq))
    }
}

/// The part of a worker its lock protects.
struct State {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
    /// Heap entries whose task was cancelled: enough to decide when to compact.
    tombstones: usize,
    closed: bool,
    /// The driver's waker while it waits.
    waker: Option<Waker>,
}

/// One worker's queue, shared by its handles, its tasks and its driver.
struct Core {
    state: Mutex<State>,
    /// Worker handles plus unfinished tasks. At zero nothing can ever be scheduled or run on
    /// this worker again, so it closes and its driver ends.
    live: AtomicUsize,
    /// `state.closed`, readable without the lock. Release/Acquire: whoever sees it also sees
    /// the closing.
    closed: AtomicBool,
}

impl Core {
    fn poll_drive(
        &self,
        cx: &mut Context<'_>,
        mut sleep: Pin<&mut Sleep>,
        armed: &mut Option<Instant>,
    ) -> Poll<()> {
        let mut now = now();
        let mut budget = BUDGET;
        loop {
            let mut state = self.state.lock();
            if state.closed {
                return Poll::Ready(());
            }
            let Some(top) = state.heap.peek() else {
                store_waker(&mut state.waker, cx);
                return Poll::Pending;
            };
            if top.cell.header().is_finished() {
                let entry = pop(&mut state);
                state.tombstones = state.tombstones.saturating_sub(1);
                drop(state);
                drop(entry);
                continue;
            }
            if top.due <= now {
                if budget == 0 {
                    drop(state);
                    cx.waker().wake_by_ref();
                    return Poll::Pending;
                }
                budget -= 1;
                let entry = pop(&mut state);
                drop(state);
                self.run(entry, now);
                now = now.max(self::now());
                continue;
            }
            let due = top.due;
            store_waker(&mut state.waker, cx);
            drop(state);
            if *armed != Some(due) {
                sleep.as_mut().reset(TokioInstant::from_std(due));
                *armed = Some(due);
            }
            if sleep.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            // The timer has fired for `due`: trust it over a clock read that could lag.
            now = now.max(due);
        }
    }

    /// Runs a popped entry's task, outside every lock, and queues it again if it asks to be:
    /// not before `now`, the instant it was popped at, so that a periodic task that fell
    /// behind runs again behind the tasks due when it was popped rather than ahead of them
    /// (as the timed queue's `Queue::run`).
    fn run(&self, entry: Entry, now: Instant) {
        let Entry { cell, .. } = entry;
        // A panicking task was reported by the panic hook, and its cell marked itself
        // finished while unwinding: go on with the other tasks.
        let next = panic::catch_unwind(AssertUnwindSafe(|| cell.run())).unwrap_or(None);
        let due = match next {
            None => return,
            Some(Reschedule::At(due)) => due.max(now),
            Some(Reschedule::After(delay)) => self::now() + delay,
            Some(Reschedule::Done) => unreachable!("a finished task is not rescheduled"),
        };
        // The driver itself is running: no need to wake it.
        if !self.enqueue(due, &cell, false) {
            cell.cancel();
        }
    }

    /// Queues `cell` at `due` unless the worker is closed or the task finished; wakes the
    /// driver (when `wake`) if the entry is the new top.
    fn enqueue(&self, due: Instant, cell: &Arc<dyn Cell>, wake: bool) -> bool {
        let mut state = self.state.lock();
        if state.closed || cell.header().is_finished() {
            return false;
        }
        let seq = state.next_seq;
        state.next_seq += 1;
        // Relaxed: `queued_seq` is only read under the queue lock.
        cell.header().queued_seq.store(seq, Ordering::Relaxed);
        state.heap.push(Entry {
            due,
            seq,
            cell: cell.clone(),
        });
        let is_top = state.heap.peek().is_some_and(|top| top.seq == seq);
        let waker = if wake && is_top {
            state.waker.take()
        } else {
            None
        };
        drop(state);
        if let Some(waker) = waker {
            waker.wake();
        }
        true
    }

    /// Counts a tombstone after a queued task was cancelled, and compacts the heap when
    /// tombstones dominate it.
    fn on_cancel(&self, header: &Header) {
        let mut state = self.state.lock();
        if header.queued_seq.load(Ordering::Relaxed) == NOT_QUEUED {
            return;
        }
        state.tombstones += 1;
        if state.tombstones >= COMPACT_MIN && state.tombstones * 2 > state.heap.len() {
            // The removed cells are finished and their tasks already dropped, so dropping
            // them here runs no user code.
            state
                .heap
                .retain(|entry| !entry.cell.header().is_finished());
            state.tombstones = 0;
        }
    }

    /// Closes the worker: the driver ends, later schedules are refused, and every queued
    /// task is dropped (outside the lock).
    fn close(&self) {
        let mut state = self.state.lock();
        if state.closed {
            return;
        }
        state.closed = true;
        self.closed.store(true, Ordering::Release);
        let heap = std::mem::take(&mut state.heap);
        let waker = state.waker.take();
        drop(state);
        if let Some(waker) = waker {
            waker.wake();
        }
        for entry in heap {
            entry
                .cell
                .header()
                .queued_seq
                .store(NOT_QUEUED, Ordering::Relaxed);
            entry.cell.cancel();
        }
    }

    fn retain(&self) {
        // Relaxed: as for `Arc::clone`, made from a live handle.
        self.live.fetch_add(1, Ordering::Relaxed);
    }

    fn release(&self) {
        // AcqRel: as for `Arc`'s drop, the last release sees what every other one did.
        if self.live.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.close();
        }
    }
}

fn pop(state: &mut State) -> Entry {
    let entry = state.heap.pop().expect("pop from an empty heap");
    entry
        .cell
        .header()
        .queued_seq
        .store(NOT_QUEUED, Ordering::Relaxed);
    entry
}

fn store_waker(slot: &mut Option<Waker>, cx: &Context<'_>) {
    if !slot.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
        *slot = Some(cx.waker().clone());
    }
}

/// The part of a task's cell that does not depend on the task's type.
struct Header {
    core: Arc<Core>,
    /// Release/Acquire: whoever sees it set also sees the task taken out of its slot.
    finished: AtomicBool,
    /// The `seq` of the task's heap entry, or `NOT_QUEUED`. Only touched under the queue
    /// lock, so Relaxed.
    queued_seq: AtomicU64,
}

impl Header {
    fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }

    /// Marks the task finished; `true` for the call that did it, which releases the task's
    /// hold on the worker.
    fn finish(&self) -> bool {
        let first = !self.finished.swap(true, Ordering::AcqRel);
        if first {
            self.core.release();
        }
        first
    }
}

/// A scheduled task, type-erased.
trait Cell: Send + Sync {
    fn header(&self) -> &Header;

    /// Runs the task once: what it asks for, or `None` if it did not run (it was cancelled)
    /// or is finished (it has been dropped then).
    fn run(&self) -> Option<Reschedule>;

    /// Drops the task if the cell still holds it.
    fn clear(&self);
}

impl dyn Cell {
    /// Marks the task finished and drops it; `true` for the call that did it.
    fn cancel(&self) -> bool {
        let first = self.header().finish();
        if first {
            self.clear();
        }
        first
    }
}

struct TaskCell<T> {
    header: Header,
    task: Mutex<Option<T>>,
}

/// Marks a cell finished if its task unwinds: the unwinding drops the task and leaves the
/// slot empty, so the cell must not look runnable.
struct FinishOnUnwind<'a>(&'a Header);

impl Drop for FinishOnUnwind<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

impl<T: Task> Cell for TaskCell<T> {
    fn header(&self) -> &Header {
        &self.header
    }

    fn run(&self) -> Option<Reschedule> {
        let mut task = self.task.lock().take()?;
        let unwinding = FinishOnUnwind(&self.header);
        let next = task.run();
        std::mem::forget(unwinding);
        if next == Reschedule::Done {
            // Dropped before the worker hears of it, so that a worker whose last task this
            // is closes after what the task captured is gone.
            drop(task);
            self.header.finish();
            return None;
        }
        let mut slot = self.task.lock();
        // A cancel that marked the cell before this lock found the slot empty; one after it
        // finds the task back in it. Either way the task is dropped exactly once.
        if !self.header.is_finished() {
            *slot = Some(task);
            return Some(next);
        }
        drop(slot);
        drop(task);
        None
    }

    fn clear(&self) {
        let task = self.task.lock().take();
        // Dropped after the slot is unlocked: its captures may cancel this very cell.
        drop(task);
    }
}

impl<T> Drop for TaskCell<T> {
    fn drop(&mut self) {
        // Every path that ends a task marks it finished first; this is the backstop.
        if !self.header.finished.load(Ordering::Acquire) {
            self.header.core.release();
        }
    }
}

/// The worker of [`Tokio`]: a cheap `Clone` handle to a queue run by one tokio task.
///
/// Disposing it cancels every task scheduled on it, refuses new ones, and ends its tokio
/// task. Dropping it does not cancel anything: the tokio task ends once every handle is gone
/// and no task is left.
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub struct TokioWorker {
    core: Arc<Core>,
}

impl Clone for TokioWorker {
    fn clone(&self) -> Self {
        self.core.retain();
        TokioWorker {
            core: self.core.clone(),
        }
    }
}

impl Drop for TokioWorker {
    fn drop(&mut self) {
        self.core.release();
    }
}

impl Worker for TokioWorker {
    type TaskHandle = TokioTask;

    /// Boxes `task` (one allocation, reused when it reschedules) and queues it.
    fn schedule_at<T: Task>(&self, due: Instant, task: T) -> TokioTask {
        // Released when the task finishes.
        self.core.retain();
        let cell: Arc<dyn Cell> = Arc::new(TaskCell {
            header: Header {
                core: self.core.clone(),
                finished: AtomicBool::new(false),
                queued_seq: AtomicU64::new(NOT_QUEUED),
            },
            task: Mutex::new(Some(task)),
        });
        if !self.core.enqueue(due, &cell, true) {
            cell.cancel();
        }
        TokioTask { cell }
    }

    #[inline]
    fn now(&self) -> Instant {
        now()
    }
}

impl Subscription for TokioWorker {
    fn dispose(&self) {
        self.core.close();
    }

    fn is_disposed(&self) -> bool {
        self.core.closed.load(Ordering::Acquire)
    }
}

impl fmt::Debug for TokioWorker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokioWorker")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

/// The handle of a task scheduled on a [`TokioWorker`]. Disposing it cancels the task: it
/// never runs again, and what it captured is dropped before `dispose` returns (or, if it is
/// running at that moment, as soon as it returns).
#[derive(Clone)]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub struct TokioTask {
    cell: Arc<dyn Cell>,
}

impl Subscription for TokioTask {
    fn dispose(&self) {
        if self.cell.cancel() {
            let header = self.cell.header();
            header.core.on_cancel(header);
        }
    }

    /// `true` once the task is done, cancelled, panicked, or its worker was closed.
    fn is_disposed(&self) -> bool {
        let header = self.cell.header();
        header.is_finished() || header.core.closed.load(Ordering::Acquire)
    }
}

impl fmt::Debug for TokioTask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokioTask")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex as StdMutex;

    type Log = Arc<StdMutex<Vec<u32>>>;

    fn recorder(log: &Log, n: u32) -> impl FnMut() -> Reschedule + Send + 'static {
        let log = log.clone();
        move || {
            log.lock().unwrap().push(n);
            Reschedule::Done
        }
    }

    fn paused_runtime() -> ::tokio::runtime::Runtime {
        ::tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap()
    }

    #[test]
    fn runs_in_due_order_then_first_in_first_out() {
        let rt = paused_runtime();
        rt.block_on(async {
            let worker = Tokio::current().worker();
            let log = Log::default();
            let t0 = worker.now();
            worker.schedule_at(t0 + Duration::from_millis(5), recorder(&log, 3));
            worker.schedule_at(t0, recorder(&log, 1));
            worker.schedule_at(t0, recorder(&log, 2));
            worker.schedule_at(t0 + Duration::from_millis(5), recorder(&log, 4));
            ::tokio::time::sleep(Duration::from_millis(10)).await;
            assert_eq!(*log.lock().unwrap(), [1, 2, 3, 4]);
        });
    }

    #[test]
    fn an_earlier_task_rearms_the_driver() {
        let rt = paused_runtime();
        rt.block_on(async {
            let worker = Tokio::current().worker();
            let log = Log::default();
            let start = TokioInstant::now();
            worker.schedule_after(Duration::from_secs(3600), recorder(&log, 2));
            // Let the driver arm its timer on the far task first.
            ::tokio::task::yield_now().await;
            let (tx, rx) = ::tokio::sync::oneshot::channel();
            let l = log.clone();
            let mut tx = Some(tx);
            worker.schedule_after(Duration::from_secs(1), move || {
                l.lock().unwrap().push(1);
                tx.take().unwrap().send(TokioInstant::now()).unwrap();
                Reschedule::Done
            });
            let ran_at = rx.await.unwrap();
            assert_eq!(ran_at - start, Duration::from_secs(1));
            assert_eq!(*log.lock().unwrap(), [1]);
        });
    }

    #[test]
    fn rescheduling_keeps_to_absolute_due_times() {
        let rt = paused_runtime();
        rt.block_on(async {
            let worker = Tokio::current().worker();
            let start = worker.now();
            let seen = Arc::new(StdMutex::new(Vec::new()));
            let s = seen.clone();
            let mut due = start + Duration::from_millis(100);
            let handle = worker.schedule_at(due, move || {
                s.lock().unwrap().push(now() - start);
                due += Duration::from_millis(100);
                Reschedule::At(due)
            });
            ::tokio::time::sleep(Duration::from_millis(350)).await;
            handle.dispose();
            assert_eq!(
                *seen.lock().unwrap(),
                [100, 200, 300].map(Duration::from_millis)
            );
        });
    }

    #[test]
    fn a_cancelled_task_never_runs_and_is_dropped_at_once() {
        let rt = paused_runtime();
        rt.block_on(async {
            let worker = Tokio::current().worker();
            let probe = Arc::new(());
            let p = probe.clone();
            let handle = worker.schedule_after(Duration::from_secs(1), move || {
                let _ = &p;
                panic!("must not run")
            });
            assert!(!handle.is_disposed());
            handle.dispose();
            assert!(handle.is_disposed());
            assert_eq!(Arc::strong_count(&probe), 1);
            ::tokio::time::sleep(Duration::from_secs(2)).await;
        });
    }

    #[test]
    fn tombstones_are_compacted() {
        let rt = paused_runtime();
        rt.block_on(async {
            let worker = Tokio::current().worker();
            for _ in 0..10 * COMPACT_MIN {
                worker
                    .schedule_after(Duration::from_secs(3600), || Reschedule::Done)
                    .dispose();
            }
            assert!(worker.core.state.lock().heap.len() <= 2 * COMPACT_MIN);
        });
    }

    #[test]
    fn disposing_the_worker_cancels_its_tasks_and_refuses_new_ones() {
        let rt = paused_runtime();
        rt.block_on(async {
            let worker = Tokio::current().worker();
            let log = Log::default();
            let handle = worker.schedule_after(Duration::from_secs(1), recorder(&log, 1));
            worker.dispose();
            assert!(worker.is_disposed());
            assert!(handle.is_disposed());
            assert!(worker.schedule(recorder(&log, 2)).is_disposed());
            ::tokio::time::sleep(Duration::from_secs(2)).await;
            assert!(log.lock().unwrap().is_empty());
        });
    }

    #[test]
    fn a_panicking_task_is_dropped_and_the_worker_goes_on() {
        let rt = paused_runtime();
        rt.block_on(async {
            let worker = Tokio::current().worker();
            let log = Log::default();
            let bad = worker.schedule(|| panic!("task failed on purpose"));
            worker.schedule(recorder(&log, 1));
            ::tokio::time::sleep(Duration::from_millis(1)).await;
            assert!(bad.is_disposed());
            assert_eq!(*log.lock().unwrap(), [1]);
            assert!(!worker.is_disposed());
        });
    }

    #[test]
    fn the_driver_ends_when_the_worker_and_its_tasks_are_gone() {
        let rt = paused_runtime();
        rt.block_on(async {
            let metrics = Handle::current().metrics();
            let worker = Tokio::current().worker();
            ::tokio::task::yield_now().await;
            assert_eq!(metrics.num_alive_tasks(), 1);
            let log = Log::default();
            worker.schedule_after(Duration::from_secs(1), recorder(&log, 1));
            drop(worker);
            ::tokio::task::yield_now().await;
            // The queued task keeps the driver.
            assert_eq!(metrics.num_alive_tasks(), 1);
            ::tokio::time::sleep(Duration::from_secs(2)).await;
            assert_eq!(*log.lock().unwrap(), [1]);
            ::tokio::task::yield_now().await;
            assert_eq!(metrics.num_alive_tasks(), 0);
        });
    }

    #[test]
    fn runtime_shutdown_drops_queued_tasks_and_closes_the_worker() {
        let rt = paused_runtime();
        let worker = rt.block_on(async { Tokio::current().worker() });
        let probe = Arc::new(());
        let p = probe.clone();
        let handle = worker.schedule_after(Duration::from_secs(1), move || {
            let _ = &p;
            Reschedule::Done
        });
        drop(rt);
        assert!(worker.is_disposed());
        assert!(handle.is_disposed());
        assert_eq!(Arc::strong_count(&probe), 1);
        assert!(worker.schedule(|| Reschedule::Done).is_disposed());
    }

    #[test]
    #[should_panic(expected = "timers are disabled")]
    fn a_runtime_without_timers_is_refused() {
        let rt = ::tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let _ = Tokio::new(rt.handle().clone());
    }
}
