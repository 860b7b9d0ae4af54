//! The trampoline: a queue on the calling thread, owned by the outermost `schedule`.

use super::cell::{Cell, CellHeader, new_cell};
use super::immediate::sleep_until;
use super::{Reschedule, Scheduler, Task, Worker};
use crate::subscription::Subscription;
use crate::sync::{Arc, AtomicBool, Ordering};
use std::cell::RefCell;
use std::cmp::Ordering as CmpOrdering;
use std::collections::BinaryHeap;
use std::fmt;
use std::ptr;
use std::sync::atomic::AtomicPtr;
use std::time::Instant;

/// Runs tasks on the thread that schedules them, through a queue on that thread (a
/// trampoline), so that recursive scheduling never grows the stack.
///
/// The first `schedule` on a thread becomes the queue's owner: it runs its task at once
/// (sleeping first if the task is due later), then keeps running queued tasks, in due order
/// and first-in first-out for equal due times, sleeping until each is due, until none is left;
/// only then does it return. A `schedule` made while the owner runs (from one of its tasks)
/// queues the task and returns at once. So an `interval`-like task that reschedules itself,
/// or a task that schedules another from inside, runs in a loop rather than recursing.
///
/// The owner's own task is neither boxed nor queued when nothing else is: it runs inline, and
/// loops inline when it reschedules, so the common case allocates nothing, not even for the
/// worker, whose shared state is allocated only once it is cloned or disposed, or queues a
/// task. Each queued (nested) task costs one allocation, reused if it reschedules.
///
/// A panic in a task unwinds to the owner's caller; the tasks still queued on that thread are
/// dropped, and the next `schedule` on the thread starts a fresh queue.
///
/// # Examples
///
/// ```
/// use rx::schedulers::{CurrentThread, Reschedule, Scheduler, Worker};
/// use std::sync::{Arc, Mutex};
///
/// let log = Arc::new(Mutex::new(Vec::new()));
/// let worker = CurrentThread.worker();
/// let (w, l) = (worker.clone(), log.clone());
/// worker.schedule(move || {
///     let l2 = l.clone();
///     w.schedule(move || {
///         l2.lock().unwrap().push("inner");
///         Reschedule::Done
///     });
///     // Queued, not run: the outer task finishes first.
///     l.lock().unwrap().push("outer");
///     Reschedule::Done
/// });
/// // Everything ran before the outermost `schedule` returned.
/// assert_eq!(*log.lock().unwrap(), ["outer", "inner"]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CurrentThread;

impl Scheduler for CurrentThread {
    type Worker = CurrentThreadWorker;

    /// A new worker; allocates nothing until it is cloned, disposed or queues a task.
    fn worker(&self) -> CurrentThreadWorker {
        CurrentThreadWorker {
            core: LazyCore::new(),
        }
    }

    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// The worker of [`CurrentThread`]: schedules onto the calling thread's trampoline.
///
/// Disposing it cancels its tasks: they never run. Queued tasks of the worker on the
/// disposing thread are dropped at once; those queued on other threads' trampolines are
/// dropped when their owner reaches them (the owner is asleep until then anyway). A task's
/// own handle drops it at once from any thread.
pub struct CurrentThreadWorker {
    core: LazyCore,
}

impl Clone for CurrentThreadWorker {
    fn clone(&self) -> Self {
        CurrentThreadWorker {
            core: self.core.share(),
        }
    }
}

struct Core {
    /// Release/Acquire: a task that sees it set also sees what the disposer did before.
    disposed: AtomicBool,
}

/// A worker's `Arc<Core>`, made on first need. Until then no other handle to the worker
/// exists (a clone makes it) and no task of its is queued (queueing makes it), so nothing can
/// be cancelled through it, and a worker that only runs its tasks inline never allocates.
///
/// Null until made; then a pointer from `Arc::into_raw` that owns one count. Filling it is one
/// compare-and-swap, where a `OnceLock` costs several times more, and a fresh worker is filled
/// each time it is cloned. `std`'s atomic: this worker is not modelled under loom.
struct LazyCore(AtomicPtr<Core>);

impl LazyCore {
    fn new() -> Self {
        LazyCore(AtomicPtr::new(ptr::null_mut()))
    }

    fn get(&self) -> Option<&Core> {
        // SAFETY: a non-null pointer came from `Arc::into_raw`, and the count it owns is
        // released only when `self` drops. Acquire pairs with the publishing swap in `make`.
        unsafe { self.0.load(Ordering::Acquire).as_ref() }
    }

    /// The core's address, made first if need be.
    fn make(&self) -> *const Core {
        let current = self.0.load(Ordering::Acquire);
        if !current.is_null() {
            return current;
        }
        let made = Arc::into_raw(Arc::new(Core {
            disposed: AtomicBool::new(false),
        }))
        .cast_mut();
        match self
            .0
            .compare_exchange(ptr::null_mut(), made, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => made,
            Err(winner) => {
                // SAFETY: `made` came from `Arc::into_raw` above and was never published.
                drop(unsafe { Arc::from_raw(made) });
                winner
            }
        }
    }

    fn core(&self) -> &Core {
        // SAFETY: as in `get`.
        unsafe { &*self.make() }
    }

    /// A new count of the core.
    fn arc(&self) -> Arc<Core> {
        let core = self.make();
        // SAFETY: `core` came from `Arc::into_raw`, and `self` holds a count of it.
        unsafe {
            Arc::increment_strong_count(core);
            Arc::from_raw(core)
        }
    }

    /// Another handle to the same core.
    fn share(&self) -> LazyCore {
        LazyCore(AtomicPtr::new(Arc::into_raw(self.arc()).cast_mut()))
    }
}

impl Drop for LazyCore {
    fn drop(&mut self) {
        let core = *self.0.get_mut();
        if !core.is_null() {
            // SAFETY: the count this pointer owns, released once.
            drop(unsafe { Arc::from_raw(core) });
        }
    }
}

/// A trampoline's tasks keep nothing else going: there is nothing to release.
impl CellHeader for Arc<Core> {
    fn on_finish(&self) {}
}

type CtCell = dyn Cell<Arc<Core>>;

impl CtCell {
    fn is_cancelled(&self) -> bool {
        self.is_finished() || self.header().disposed.load(Ordering::Acquire)
    }
}

/// The handle of a task scheduled on a [`CurrentThreadWorker`]. A task that ran inline has
/// finished by the time `schedule` returns, so its handle holds nothing; a queued task's
/// handle cancels it, dropping what it captured at once (or when it returns, if it is running).
#[derive(Clone)]
pub struct CurrentThreadTask {
    cell: Option<Arc<CtCell>>,
}

impl Subscription for CurrentThreadTask {
    fn dispose(&self) {
        if let Some(cell) = &self.cell {
            // The entry stays in the owner's queue as a tombstone, skipped when reached.
            cell.cancel();
        }
    }

    fn is_disposed(&self) -> bool {
        self.cell.as_ref().is_none_or(|cell| cell.is_cancelled())
    }
}

impl fmt::Debug for CurrentThreadTask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CurrentThreadTask")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

struct Entry {
    due: Instant,
    seq: u64,
    cell: Arc<CtCell>,
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
        (other.due, other.seq).cmp(&(self.due, self.seq))
    }
}

/// A thread's trampoline queue.
struct Trampoline {
    /// Whether a `schedule` call on this thread owns the queue and is draining it.
    draining: bool,
    heap: BinaryHeap<Entry>,
    /// Orders equal due times first-in first-out and names entries; never an address.
    next_seq: u64,
    /// The latest clock reading taken to queue a task due now: a due time not after it has
    /// passed, so the task can run without the clock being read again.
    clock: Option<Instant>,
}

impl Trampoline {
    fn seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    fn push(&mut self, due: Instant, cell: Arc<CtCell>) {
        let seq = self.seq();
        self.heap.push(Entry { due, seq, cell });
    }
}

thread_local! {
    static TRAMPOLINE: RefCell<Trampoline> = const {
        RefCell::new(Trampoline {
            draining: false,
            heap: BinaryHeap::new(),
            next_seq: 0,
            clock: None,
        })
    };
}

/// Ends ownership of the thread's queue when a task panics: the queue is left empty (its
/// tasks are cancelled, and dropped once the queue is no longer borrowed). A drain that
/// finds the queue empty ends ownership itself, and forgets this guard.
struct Owner;

impl Drop for Owner {
    fn drop(&mut self) {
        let leftover = TRAMPOLINE.with(|t| {
            let mut t = t.borrow_mut();
            t.draining = false;
            std::mem::take(&mut t.heap)
        });
        for entry in leftover {
            entry.cell.cancel();
        }
    }
}

/// The owner's own task, run without boxing.
struct Inline<T> {
    due: Instant,
    seq: u64,
    task: T,
}

/// Keeps the queue's buffer between owners up to this many entries, so that a task that
/// queues another does not allocate the buffer anew each time, while a burst does not pin
/// a large buffer to the thread.
const KEPT_CAPACITY: usize = 64;

enum Step {
    Inline,
    /// A queued task, and whether it is known to be due without reading the clock.
    Queued(Entry, bool),
    /// Nothing is left to run, and the queue has no owner any more.
    Idle,
}

/// Where a `schedule` call stands towards the thread's queue.
enum Claim {
    /// No one owned the queue: this call does now.
    Owner(Owner),
    /// A `schedule` call further up is draining the queue.
    Nested,
    /// The thread is exiting and its queue is gone.
    Gone,
}

impl CurrentThreadWorker {
    /// Makes the calling `schedule` the owner of the thread's queue, if no one owns it.
    fn claim() -> Claim {
        let owned = TRAMPOLINE.try_with(|t| {
            let mut t = t.borrow_mut();
            !std::mem::replace(&mut t.draining, true)
        });
        match owned {
            Ok(true) => Claim::Owner(Owner),
            Ok(false) => Claim::Nested,
            Err(_) => Claim::Gone,
        }
    }

    /// Runs the owner's own task, which is due now, then drains the thread's queue. Nothing
    /// is queued before the owner's first run, so it needs no due time nor sequence number
    /// until it reschedules, and the clock is not read for it.
    fn run_owned<T: Task>(&self, owner: Owner, mut task: T) {
        let inline = next_due(task.run()).map(|due| Inline {
            due,
            seq: TRAMPOLINE.with(|t| t.borrow_mut().seq()),
            task,
        });
        self.drain(owner, inline);
    }

    /// Drains the thread's queue, along with the owner's own task if it is still to run.
    fn drain<T: Task>(&self, owner: Owner, mut inline: Option<Inline<T>>) {
        loop {
            let step = TRAMPOLINE.with(|t| {
                let mut t = t.borrow_mut();
                let top = t.heap.peek().map(|e| (e.due, e.seq));
                let queued = match (&inline, top) {
                    (None, None) => {
                        t.draining = false;
                        if t.heap.capacity() > KEPT_CAPACITY {
                            // Empty: dropping it runs no task's destructor.
                            t.heap = BinaryHeap::new();
                        }
                        return Step::Idle;
                    }
                    (Some(own), Some(top)) => top < (own.due, own.seq),
                    (Some(_), None) => false,
                    (None, Some(_)) => true,
                };
                if !queued {
                    return Step::Inline;
                }
                let entry = t.heap.pop().expect("peeked");
                let due = t.clock.is_some_and(|now| entry.due <= now);
                Step::Queued(entry, due)
            });
            match step {
                Step::Idle => {
                    // Ownership has ended above; the guard is only for unwinding.
                    std::mem::forget(owner);
                    return;
                }
                Step::Inline => {
                    let Inline { due, mut task, .. } = inline.take().expect("inline task");
                    sleep_until(due);
                    if self.is_disposed() {
                        continue;
                    }
                    if let Some(due) = next_due(task.run()) {
                        let seq = TRAMPOLINE.with(|t| t.borrow_mut().seq());
                        inline = Some(Inline { due, seq, task });
                    }
                }
                Step::Queued(entry, due) => {
                    if !due {
                        if entry.cell.is_cancelled() {
                            continue;
                        }
                        sleep_until(entry.due);
                    }
                    if entry.cell.is_cancelled() {
                        continue;
                    }
                    let Some(due) = entry.cell.run().and_then(next_due) else {
                        continue;
                    };
                    TRAMPOLINE.with(|t| t.borrow_mut().push(due, entry.cell));
                }
            }
        }
    }
}

fn next_due(next: Reschedule) -> Option<Instant> {
    match next {
        Reschedule::Done => None,
        Reschedule::At(due) => Some(due),
        Reschedule::After(delay) => Some(Instant::now() + delay),
    }
}

impl Worker for CurrentThreadWorker {
    type TaskHandle = CurrentThreadTask;

    fn schedule_at<T: Task>(&self, due: Instant, task: T) -> CurrentThreadTask {
        let finished = CurrentThreadTask { cell: None };
        if self.is_disposed() {
            return finished;
        }
        match Self::claim() {
            Claim::Owner(owner) => {
                // Nothing is queued yet, so the owner's task runs first: the sequence number
                // only has to be no later than those of the tasks it queues.
                let seq = TRAMPOLINE.with(|t| t.borrow_mut().seq());
                self.drain(owner, Some(Inline { due, seq, task }));
                finished
            }
            Claim::Nested => self.enqueue(Some(due), task),
            // The thread is exiting and its queue is gone: run the task inline.
            Claim::Gone => {
                super::Immediate.worker().schedule_at(due, task);
                finished
            }
        }
    }

    /// As `schedule_at(now)`, but the owner's task runs without reading the clock.
    fn schedule<T: Task>(&self, task: T) -> CurrentThreadTask {
        let finished = CurrentThreadTask { cell: None };
        if self.is_disposed() {
            return finished;
        }
        match Self::claim() {
            Claim::Owner(owner) => {
                self.run_owned(owner, task);
                finished
            }
            Claim::Nested => self.enqueue(None, task),
            // The thread is exiting and its queue is gone: run the task inline.
            Claim::Gone => {
                super::Immediate.worker().schedule(task);
                finished
            }
        }
    }

    /// Runs `f` as the owner's task when no queue is owned on this thread, then drains what
    /// it queued; `None` if the worker is disposed or a queue is being drained.
    fn run_now<R>(&self, f: impl FnOnce() -> R) -> Option<R> {
        if self.is_disposed() {
            return None;
        }
        let Claim::Owner(owner) = Self::claim() else {
            return None;
        };
        let result = f();
        self.drain::<fn() -> Reschedule>(owner, None);
        Some(result)
    }

    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

impl CurrentThreadWorker {
    /// Queues `task` on the thread's queue, which a `schedule` call further up is draining,
    /// due at `due` or, if `None`, now.
    fn enqueue<T: Task>(&self, due: Option<Instant>, task: T) -> CurrentThreadTask {
        let cell = new_cell(self.core.arc(), task);
        TRAMPOLINE.with(|t| {
            let mut t = t.borrow_mut();
            let due = due.unwrap_or_else(|| {
                let now = Instant::now();
                t.clock = Some(now);
                now
            });
            t.push(due, cell.clone());
        });
        CurrentThreadTask { cell: Some(cell) }
    }
}

impl Subscription for CurrentThreadWorker {
    fn dispose(&self) {
        let core = self.core.core();
        if core.disposed.swap(true, Ordering::AcqRel) {
            return;
        }
        // Drop this worker's tasks queued on this thread now. Comparing the workers' `Arc`s
        // is sound: both are alive, so the address cannot have been reused.
        let removed = TRAMPOLINE.try_with(|t| {
            let Ok(mut t) = t.try_borrow_mut() else {
                return Vec::new();
            };
            let (mine, rest): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut t.heap)
                .into_iter()
                .partition(|e| ptr::eq(Arc::as_ptr(e.cell.header()), core));
            t.heap = BinaryHeap::from(rest);
            mine
        });
        for entry in removed.into_iter().flatten() {
            entry.cell.cancel();
        }
    }

    fn is_disposed(&self) -> bool {
        self.core
            .get()
            .is_some_and(|core| core.disposed.load(Ordering::Acquire))
    }
}

impl fmt::Debug for CurrentThreadWorker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CurrentThreadWorker")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::time::Duration;

    type Log = Arc<Mutex<Vec<u32>>>;

    fn push(log: &Log, n: u32) -> impl FnMut() -> Reschedule + Send + use<> {
        let log = log.clone();
        move || {
            log.lock().unwrap().push(n);
            Reschedule::Done
        }
    }

    #[test]
    fn nested_schedules_are_queued_not_recursed() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        worker.schedule(move || {
            let (w2, l2) = (w.clone(), l.clone());
            w.schedule(move || {
                w2.schedule(push(&l2, 4));
                l2.lock().unwrap().push(2);
                Reschedule::Done
            });
            w.schedule(push(&l, 3));
            l.lock().unwrap().push(1);
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [1, 2, 3, 4]);
    }

    #[test]
    fn deep_recursion_does_not_grow_the_stack() {
        fn step(
            w: CurrentThreadWorker,
            left: Arc<Mutex<u32>>,
        ) -> impl FnMut() -> Reschedule + Send {
            move || {
                let mut n = left.lock().unwrap();
                if *n > 0 {
                    *n -= 1;
                    w.schedule(step(w.clone(), left.clone()));
                }
                Reschedule::Done
            }
        }
        let left = Arc::new(Mutex::new(200_000));
        let worker = CurrentThread.worker();
        worker.schedule(step(worker.clone(), left.clone()));
        assert_eq!(*left.lock().unwrap(), 0);
    }

    #[test]
    fn owner_task_reschedules_inline_and_interleaves_fifo() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        let mut n = 0;
        let due = Instant::now();
        worker.schedule_at(due, move || {
            n += 1;
            l.lock().unwrap().push(n);
            if n == 1 {
                // Queued at the same due time as the owner's next run, but earlier.
                w.schedule_at(due, push(&l, 10));
            }
            if n < 3 {
                Reschedule::At(due)
            } else {
                Reschedule::Done
            }
        });
        assert_eq!(*log.lock().unwrap(), [1, 10, 2, 3]);
    }

    #[test]
    fn equal_due_times_are_fifo_and_earlier_first() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        let base = Instant::now();
        worker.schedule(move || {
            w.schedule_at(base + Duration::from_millis(2), push(&l, 3));
            for n in [1, 2] {
                w.schedule_at(base, push(&l, n));
            }
            w.schedule_at(base + Duration::from_millis(2), push(&l, 4));
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [1, 2, 3, 4]);
    }

    #[test]
    fn cancelled_and_disposed_tasks_do_not_run() {
        let log = Log::default();
        let (a, b) = (CurrentThread.worker(), CurrentThread.worker());
        let (a2, b2, l) = (a.clone(), b.clone(), log.clone());
        a.schedule(move || {
            let handle = a2.schedule(push(&l, 1));
            a2.schedule(push(&l, 2));
            b2.schedule(push(&l, 3));
            handle.dispose();
            assert!(handle.is_disposed());
            b2.dispose();
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [2]);
        assert!(b.schedule(push(&log, 4)).is_disposed());
        assert_eq!(*log.lock().unwrap(), [2]);
    }

    #[test]
    fn a_panic_resets_the_queue() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        let result = std::panic::catch_unwind(move || {
            let inner = w.clone();
            w.schedule(move || {
                inner.schedule(push(&l, 1));
                panic!("boom")
            })
        });
        assert!(result.is_err());
        worker.schedule(push(&log, 2));
        assert_eq!(*log.lock().unwrap(), [2]);
    }

    #[test]
    fn a_fresh_worker_shares_its_state_once_cloned_or_disposed() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        assert!(!worker.is_disposed());
        let clone = worker.clone();
        worker.dispose();
        assert!(clone.is_disposed());
        assert!(clone.schedule(push(&log, 1)).is_disposed());

        let fresh = CurrentThread.worker();
        fresh.dispose();
        assert!(fresh.is_disposed() && fresh.clone().is_disposed());
        fresh.schedule(push(&log, 2));
        assert_eq!(fresh.run_now(|| 3), None);
        assert!(log.lock().unwrap().is_empty());
    }

    #[test]
    fn clones_racing_on_a_fresh_worker_share_one_state() {
        for _ in 0..100 {
            let worker = CurrentThread.worker();
            let clones: Vec<CurrentThreadWorker> = std::thread::scope(|s| {
                let racers: Vec<_> = (0..4).map(|_| s.spawn(|| worker.clone())).collect();
                racers.into_iter().map(|r| r.join().unwrap()).collect()
            });
            clones[0].dispose();
            assert!(worker.is_disposed());
            assert!(clones.iter().all(|c| c.is_disposed()));
        }
    }

    #[test]
    fn run_now_owns_the_queue_and_drains_what_it_queued() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let result = worker.run_now(|| {
            worker.schedule(push(&log, 2));
            log.lock().unwrap().push(1);
            "ran"
        });
        assert_eq!(result, Some("ran"));
        assert_eq!(*log.lock().unwrap(), [1, 2]);

        // Inside a task the queue is owned: `run_now` declines, leaving its caller to queue.
        let (w, l) = (worker.clone(), log.clone());
        worker.schedule(move || {
            assert_eq!(w.run_now(|| ()), None);
            l.lock().unwrap().push(3);
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [1, 2, 3]);
    }

    #[test]
    fn a_panic_in_run_now_resets_the_queue() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        let result = std::panic::catch_unwind(move || {
            w.run_now(|| {
                w.schedule(push(&l, 1));
                panic!("boom")
            })
        });
        assert!(result.is_err());
        worker.schedule(push(&log, 2));
        assert_eq!(*log.lock().unwrap(), [2]);
    }

    #[test]
    fn a_burst_of_queued_tasks_runs_in_order_and_again_after() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        for _ in 0..2 {
            let (w, l) = (worker.clone(), log.clone());
            worker.schedule(move || {
                for n in 0..(KEPT_CAPACITY as u32 * 4) {
                    w.schedule(push(&l, n));
                }
                Reschedule::Done
            });
            let expected: Vec<u32> = (0..(KEPT_CAPACITY as u32 * 4)).collect();
            assert_eq!(*log.lock().unwrap(), expected);
            log.lock().unwrap().clear();
        }
    }

    #[test]
    fn queues_are_per_thread() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        worker.schedule(move || {
            let (w, l) = (w.clone(), l.clone());
            // Another thread is not nested in this one's queue: it owns its own and runs
            // its task before `schedule` returns there.
            std::thread::spawn(move || {
                w.schedule(push(&l, 1));
            })
            .join()
            .unwrap();
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [1]);
    }
}
