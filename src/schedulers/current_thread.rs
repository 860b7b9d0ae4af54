//! The trampoline: a queue on the calling thread, owned by the outermost `schedule`.

use super::counted::Counted;
use super::erased::{Boxed, EMPTY, Table, TableOf};
use super::immediate::sleep_until;
use super::{Reschedule, Scheduler, Task, Worker};
use crate::primitive::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use crate::subscription::Subscription;
use crate::time::Instant;
use std::cell::{Cell as LocalCell, RefCell, UnsafeCell};
use std::cmp::Ordering as CmpOrdering;
use std::collections::{BinaryHeap, VecDeque};
use std::fmt;
use std::mem::{ManuallyDrop, MaybeUninit};
use std::ptr;

/// Runs tasks on the thread that schedules them, through a queue on that thread (a
/// trampoline), so that recursive scheduling never grows the stack.
///
/// The first `schedule` on a thread becomes the queue's owner: it runs its task at once
/// (sleeping first if the task is due later), then keeps running queued tasks, in due order
/// and first-in first-out for equal due times, sleeping until each is due, until none is left;
/// only then does it return. A task that asks to run again at an instant already passed (a
/// periodic task behind its schedule) is queued at the instant it asked, behind the tasks
/// due then, so that it cannot keep them waiting for as long as it stays behind (as the
/// thread schedulers' timed queue does). A `schedule` made while the owner runs (from one of its tasks)
/// queues the task and returns at once. So an `interval`-like task that reschedules itself,
/// or a task that schedules another from inside, runs in a loop rather than recursing.
///
/// The owner's own task is neither boxed nor queued when nothing else is: it runs inline, and
/// loops inline when it reschedules, so the common case allocates nothing, not even for the
/// worker, whose shared state is allocated only once it is cloned or disposed, or queues a
/// task. A queued (nested) task lives in a slot that the thread reuses once the task is done
/// and no handle holds it, so after the first few a queued task allocates nothing either
/// (a task larger than 128 bytes is boxed into its slot, one allocation).
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

    /// As a new worker's [`run_now`](Worker::run_now), without the worker: a new one cannot
    /// be disposed, so only the thread's queue is looked at.
    #[inline]
    fn run_now<R>(&self, f: impl FnOnce() -> R) -> Option<R> {
        let owner = CurrentThreadWorker::claim()?;
        let result = f();
        if with_hot(|h| h.queued.get()) == 0 {
            owner.release();
        } else {
            drain_queued(owner);
        }
        Some(result)
    }
}

/// Drains what the owner's task queued, the owner's task being done.
#[inline(never)]
fn drain_queued(owner: Owner) {
    CurrentThread
        .worker()
        .drain::<fn() -> Reschedule>(owner, None);
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

/// A worker's `Counted<Core>`, made on first need. Until then no other handle to the worker
/// exists (a clone makes it) and no task of its is queued (queueing makes it), so nothing can
/// be cancelled through it, and a worker that only runs its tasks inline never allocates.
///
/// Null until made; then a pointer from `Counted::into_raw` that owns one count. Filling it is
/// one compare-and-swap, where a `OnceLock` costs several times more, and a fresh worker is
/// filled each time it is cloned. Threads meet here (a worker is `Sync`: clones and disposals
/// may race on a fresh one), so it is modelled under loom (`loom_*` below).
struct LazyCore(AtomicPtr<Core>);

impl LazyCore {
    fn new() -> Self {
        LazyCore(AtomicPtr::new(ptr::null_mut()))
    }

    #[inline]
    fn get(&self) -> Option<&Core> {
        // SAFETY: a non-null pointer came from `Counted::into_raw`, and the count it owns is
        // released only when `self` drops. Acquire pairs with the publishing swap in `make`.
        unsafe { self.0.load(Ordering::Acquire).as_ref() }
    }

    /// The core's address, made first if need be.
    fn make(&self) -> *const Core {
        let current = self.0.load(Ordering::Acquire);
        if !current.is_null() {
            return current;
        }
        self.publish(spare_core()).unwrap_or_else(|made| made)
    }

    /// Makes `made` the core, unless another thread made one first: `Ok` with the core's
    /// address, or `Err` with the winner's (and `made` dropped).
    fn publish(&self, made: Counted<Core>) -> Result<*const Core, *const Core> {
        let made = Counted::into_raw(made).cast_mut();
        match self
            .0
            .compare_exchange(ptr::null_mut(), made, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => Ok(made),
            Err(winner) => {
                // SAFETY: `made` came from `Counted::into_raw` above and was never published.
                drop(unsafe { Counted::from_raw(made) });
                Err(winner)
            }
        }
    }

    fn core(&self) -> &Core {
        // SAFETY: as in `get`.
        unsafe { &*self.make() }
    }

    /// A new count of the core.
    fn counted(&self) -> Counted<Core> {
        Self::count_of(self.make())
    }

    /// A new count of `core`.
    fn count_of(core: *const Core) -> Counted<Core> {
        // SAFETY: `core` came from `Counted::into_raw`, and the `LazyCore` it was read from
        // holds a count of it.
        unsafe {
            Counted::increment(core);
            Counted::from_raw(core)
        }
    }

    /// Another handle to the same core. A fresh worker's core is made here with both counts
    /// at once, a plain store rather than an atomic increment (see [`Counted::share`]).
    fn share(&self) -> LazyCore {
        let current = self.0.load(Ordering::Acquire);
        let core = if current.is_null() {
            let mut made = spare_core();
            let second = Counted::share(&mut made);
            match self.publish(made) {
                Ok(_) => second,
                Err(winner) => Self::count_of(winner),
            }
        } else {
            Self::count_of(current)
        };
        LazyCore(AtomicPtr::new(Counted::into_raw(core).cast_mut()))
    }
}

impl Drop for LazyCore {
    #[inline]
    fn drop(&mut self) {
        // Exclusive access: no other thread can store now, so a plain read will do, which
        // the compiler can fold for a worker that never made its core.
        #[cfg(not(loom))]
        let core = *self.0.get_mut();
        #[cfg(loom)]
        let core = self.0.load(Ordering::Acquire);
        if !core.is_null() {
            // SAFETY: the count this pointer owns, released once.
            keep_core(unsafe { Counted::from_raw(core) });
        }
    }
}

/// A core to make a worker's state from: this thread's spare, or a new one.
fn spare_core() -> Counted<Core> {
    #[cfg(not(loom))]
    {
        let spare = with_hot(|h| h.spare.replace(ptr::null()));
        if !spare.is_null() {
            // SAFETY: the spare came from `Counted::into_raw` in `keep_core` and owns its
            // count, which taking it out of the cell hands over.
            return unsafe { Counted::from_raw(spare) };
        }
    }
    Counted::new(Core {
        disposed: AtomicBool::new(false),
    })
}

/// Releases a count of a core; the last one, with no other handle and no task holding it,
/// becomes the thread's spare, reset. Its address may then name another worker, which is why
/// tasks are told apart by the core they hold alive, never by an address kept past it.
/// Out of line: a worker that never made its core only tests for null when it drops.
#[inline(never)]
fn keep_core(core: Counted<Core>) {
    // A count of one is uniqueness, and `is_unique` sees what the thread that dropped the
    // count before did to the core.
    #[cfg(not(loom))]
    if Counted::is_unique(&core) {
        core.disposed.store(false, Ordering::Relaxed);
        // On a thread that is exiting the spare is gone: the core is freed instead.
        with_hot(|h| {
            if h.spare.get().is_null() && thread_state_live(h) {
                h.spare.set(Counted::into_raw(core));
            }
        });
        return;
    }
    drop(core);
}

/// A queued task's home, shared by the queue entry and the task's handles: one atomic state
/// word, the worker's core, and the task itself, stored in place when it is small (boxed into
/// the slot otherwise).
///
/// Slots are reused: a finished slot that no handle holds any more goes back to its thread's
/// pool (see [`Queue::pool`]), so a task queued from inside another allocates nothing once the
/// thread has queued one before. That the queue's reference is the only one is told by the
/// strong count alone: no `Weak` of a slot is ever made.
///
/// The state machine, where threads meet (a handle may be disposed on any thread while the
/// owner runs the task; the loom model `loom_cancel_races_with_run` explores it):
/// `IDLE` (task in place) → `RUNNING` (the owner runs it; only the owner touches the task)
/// → `IDLE` again when it asks to run again, or `FINISHED` (task dropped). A cancel moves
/// `IDLE` → `FINISHED` and drops the task itself, or `RUNNING` → `CANCELLED`, and the owner
/// drops the task when it returns.
struct Slot {
    /// Acquire/Release: whoever moves the state sees what the previous holder of the task
    /// did to it, and the task's writes are visible to whoever drops it.
    state: AtomicUsize,
    /// The worker the task belongs to. Written only while the slot is unique (when it is
    /// filled from the pool), so reading it through a shared reference is sound.
    core: UnsafeCell<Option<Counted<Core>>>,
    /// How to run and drop what `task` holds; written with `core`.
    vtable: UnsafeCell<&'static Table>,
    task: UnsafeCell<Storage>,
}

// SAFETY: the task stored is `Task`, so `Send`; it is touched by one thread at a time, the
// one the state machine gives it to (the owner while `RUNNING`, the canceller that moved
// `IDLE` → `FINISHED`, or the last holder in `Drop`). `core` and `vtable` change only while
// the slot is unique, and are otherwise only read; `Counted<Core>` is `Send + Sync`.
unsafe impl Send for Slot {}
// SAFETY: as for `Send`.
unsafe impl Sync for Slot {}

const IDLE: usize = 0;
const RUNNING: usize = 1;
const CANCELLED: usize = 2;
const FINISHED: usize = 3;

/// Bytes a task may take to be stored in place; a larger one is boxed into its slot.
const INLINE: usize = 128;

#[repr(C, align(16))]
struct Storage(MaybeUninit<[u8; INLINE]>);

/// Keeps up to this many finished slots per thread for reuse.
const POOL_CAPACITY: usize = 32;

impl Slot {
    fn empty() -> Counted<Slot> {
        Counted::new(Slot {
            state: AtomicUsize::new(FINISHED),
            core: UnsafeCell::new(None),
            vtable: UnsafeCell::new(&EMPTY),
            task: UnsafeCell::new(Storage(MaybeUninit::uninit())),
        })
    }

    /// Puts `task` of `core`'s worker into `slot`, a unique and empty one.
    fn fill<T: Task>(slot: &mut Counted<Slot>, core: Counted<Core>, task: T) {
        debug_assert!(Counted::is_unique(slot));
        if size_of::<T>() <= INLINE && align_of::<T>() <= align_of::<Storage>() {
            Self::put(slot, core, task);
        } else {
            Self::put(slot, core, Boxed(Box::new(task)));
        }
    }

    fn put<T: Task>(slot: &Counted<Slot>, core: Counted<Core>, task: T) {
        // SAFETY: `slot` is unique (the caller's check): no other thread can reach its cells.
        // The storage is aligned for `T` and large enough (checked by `fill`), and empty
        // (the state is `FINISHED`), so nothing is overwritten without being dropped.
        unsafe {
            ptr::write(slot.task.get().cast::<T>(), task);
            *slot.vtable.get() = &TableOf::<T>::TABLE;
            *slot.core.get() = Some(core);
        }
        slot.state.store(IDLE, Ordering::Relaxed);
    }

    fn task_ptr(&self) -> *mut () {
        self.task.get().cast::<()>()
    }

    fn vtable(&self) -> &'static Table {
        // SAFETY: written only while the slot is unique (see the field).
        unsafe { *self.vtable.get() }
    }

    fn core(&self) -> Option<&Core> {
        // SAFETY: written only while the slot is unique (see the field).
        unsafe { (*self.core.get()).as_deref() }
    }

    fn is_cancelled(&self) -> bool {
        self.state.load(Ordering::Acquire) >= CANCELLED
            || self
                .core()
                .is_none_or(|core| core.disposed.load(Ordering::Acquire))
    }

    /// Drops the task; the state is `RUNNING` or `CANCELLED` and this thread the owner, or
    /// the slot is unique with its task in place.
    fn drop_task(&self) {
        // SAFETY: the task is in place and this thread has it to itself (the caller's
        // state); after this the state becomes `FINISHED`, so it is never touched again.
        unsafe { (self.vtable().drop)(self.task_ptr()) };
        self.state.store(FINISHED, Ordering::Release);
    }

    /// Runs the task once, on the owner's thread. `unique`: the queue's reference is the
    /// only one, so no handle can cancel it meanwhile. `None` if it was cancelled, or is done
    /// (its task dropped then).
    fn run(&self, unique: bool) -> Option<Reschedule> {
        if unique {
            if self.state.load(Ordering::Relaxed) != IDLE {
                return None;
            }
            self.state.store(RUNNING, Ordering::Relaxed);
        } else if self
            .state
            .compare_exchange(IDLE, RUNNING, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return None;
        }
        let unwinding = DropOnUnwind(self);
        // SAFETY: `RUNNING` gives the task to this thread alone: a cancel only flags it.
        let next = unsafe { (self.vtable().run)(self.task_ptr()) };
        std::mem::forget(unwinding);
        if next == Reschedule::Done {
            self.drop_task();
            return None;
        }
        match self
            .state
            .compare_exchange(RUNNING, IDLE, Ordering::Release, Ordering::Acquire)
        {
            Ok(_) => Some(next),
            Err(_) => {
                // Cancelled while it ran: the canceller left the task for this thread.
                self.drop_task();
                None
            }
        }
    }

    /// Marks the task cancelled and drops it, or leaves that to the owner if it is running;
    /// from any thread.
    fn cancel(&self) {
        let mut state = self.state.load(Ordering::Acquire);
        loop {
            let next = match state {
                IDLE => FINISHED,
                RUNNING => CANCELLED,
                _ => return,
            };
            match self
                .state
                .compare_exchange(state, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) if next == FINISHED => {
                    // SAFETY: moving `IDLE` → `FINISHED` gave the task to this thread; no
                    // one runs or drops it after.
                    unsafe { (self.vtable().drop)(self.task_ptr()) };
                    return;
                }
                Ok(_) => return,
                Err(now) => state = now,
            }
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        // The last holder; a task still in place (its worker was disposed, or the queue was
        // cleared) is dropped here.
        if self.state.load(Ordering::Acquire) == IDLE {
            // SAFETY: exclusive access; the task is in place and never touched again.
            unsafe { (self.vtable().drop)(self.task_ptr()) };
        }
    }
}

/// Drops a running task that unwinds, and marks it finished: it never runs again.
struct DropOnUnwind<'a>(&'a Slot);

impl Drop for DropOnUnwind<'_> {
    fn drop(&mut self) {
        self.0.drop_task();
    }
}

/// Takes a slot out of the queue's hands once it is done with: a unique one is emptied
/// (its task dropped if still in place, its core released) and returned for the pool.
/// Called with the queue not borrowed: dropping a task runs user code.
fn retire(slot: Counted<Slot>) -> Option<Counted<Slot>> {
    if !Counted::is_unique(&slot) {
        return None;
    }
    if slot.state.load(Ordering::Relaxed) == IDLE {
        slot.drop_task();
    }
    // SAFETY: unique, so no other thread reads the field.
    let core = unsafe { (*slot.core.get()).take() };
    // SAFETY: as above.
    unsafe { *slot.vtable.get() = &EMPTY };
    if let Some(core) = core {
        keep_core(core);
    }
    Some(slot)
}

/// The handle of a task scheduled on a [`CurrentThreadWorker`]. A task that ran inline has
/// finished by the time `schedule` returns, so its handle holds nothing; a queued task's
/// handle cancels it, dropping what it captured at once (or when it returns, if it is running).
#[derive(Clone)]
pub struct CurrentThreadTask {
    cell: Option<Counted<Slot>>,
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
    cell: Counted<Slot>,
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

/// What the owner looks at around every task of its own: plain `Cell`s of a type without a
/// destructor, so that reaching them is one access to thread-local storage, without the
/// check a thread-local with a destructor pays on every access. The queue itself is only
/// touched when something is queued.
struct Hot {
    /// Whether a `schedule` call on this thread owns the queue and is draining it.
    owned: LocalCell<bool>,
    /// How many tasks the queue holds, ready and timed.
    queued: LocalCell<usize>,
    /// Orders equal due times first-in first-out and names entries; never an address.
    next_seq: LocalCell<u64>,
    /// Whether the owner's own task is waiting to run again while a queued task runs: a task
    /// scheduled now must then be ordered against it by the clock.
    inline_pending: LocalCell<bool>,
    /// Whether [`Cleanup`] is registered to free what the thread keeps (`FRESH`, `LIVE`, or
    /// `GONE` once it ran: the thread is exiting, and keeps nothing more).
    state: LocalCell<u8>,
    /// A core no one holds any more (from `Counted::into_raw`, owning its count; null if none),
    /// kept for the next worker on this thread that needs one: a worker cloned for one nested
    /// `schedule` and then dropped is the common case, and reusing its core saves an
    /// allocation and a free each time.
    spare: LocalCell<*const Core>,
}

const FRESH: u8 = 0;
const LIVE: u8 = 1;
const GONE: u8 = 2;

/// Whether the thread may keep things in its queue and spare: until its thread-locals are
/// destroyed. The first call registers [`Cleanup`], which frees them then.
#[inline]
fn thread_state_live(hot: &Hot) -> bool {
    hot.state.get() == LIVE || register_cleanup(hot)
}

#[cold]
#[inline(never)]
fn register_cleanup(hot: &Hot) -> bool {
    let live = hot.state.get() == FRESH && CLEANUP.try_with(|_| ()).is_ok();
    hot.state.set(if live { LIVE } else { GONE });
    live
}

/// Frees what the thread kept (the spare core, the queue's buffers and pooled slots) when
/// the thread exits. The state it frees lives in thread-locals without destructors, which
/// are reached without the check a thread-local with a destructor pays on every access;
/// this one is reached once per thread, to register it.
struct Cleanup;

impl Drop for Cleanup {
    fn drop(&mut self) {
        let spare = with_hot(|h| {
            h.state.set(GONE);
            h.spare.replace(ptr::null())
        });
        if !spare.is_null() {
            // SAFETY: as in `spare_core`.
            drop(unsafe { Counted::from_raw(spare) });
        }
        let kept = QUEUE.with(|q| {
            q.try_borrow_mut()
                .ok()
                .map(|mut q| std::mem::replace(&mut *q, Queue::new()))
        });
        // Dropped with the queue not borrowed: a task left in it may run user code as it drops.
        drop(kept);
    }
}

impl Hot {
    fn seq(&self) -> u64 {
        let seq = self.next_seq.get();
        self.next_seq.set(seq + 1);
        seq
    }
}

/// A thread's trampoline queue.
///
/// Tasks scheduled now go to `ready`, first-in first-out, as long as nothing timed is
/// queued: then every ready task was scheduled before every timed one, and runs first (a
/// timed task whose due time had already passed when it was scheduled counts as due when it
/// was scheduled, as in Rx.NET), so no clock is read to order them. Once a timed task is
/// queued, a task scheduled now is stamped with the clock and ordered among the timed ones.
struct Queue {
    ready: VecDeque<Counted<Slot>>,
    heap: BinaryHeap<Entry>,
    /// Finished slots no handle holds, emptied, for the next tasks queued on this thread.
    pool: Vec<Counted<Slot>>,
    /// The latest clock reading taken to stamp a task due now: a due time not after it has
    /// passed, so the task can run without the clock being read again.
    clock: Option<Instant>,
}

impl Queue {
    const fn new() -> Self {
        Queue {
            ready: VecDeque::new(),
            heap: BinaryHeap::new(),
            pool: Vec::new(),
            clock: None,
        }
    }

    fn push_timed(&mut self, due: Instant, cell: Counted<Slot>) {
        let seq = with_hot(Hot::seq);
        self.heap.push(Entry { due, seq, cell });
    }

    /// Puts an emptied slot into the pool, if there is room; dropping one runs no task's
    /// destructor, so this is sound with the queue borrowed.
    #[inline]
    fn keep(&mut self, slot: Option<Counted<Slot>>) {
        if let Some(slot) = slot
            && self.pool.len() < POOL_CAPACITY
        {
            self.pool.push(slot);
        }
    }

    fn push_now(&mut self, cell: Counted<Slot>) {
        if self.heap.is_empty() && !with_hot(|h| h.inline_pending.get()) {
            self.ready.push_back(cell);
        } else {
            let now = Instant::now();
            self.clock = Some(now);
            self.push_timed(now, cell);
        }
    }
}

thread_local! {
    static HOT: Hot = const {
        Hot {
            owned: LocalCell::new(false),
            queued: LocalCell::new(0),
            next_seq: LocalCell::new(0),
            inline_pending: LocalCell::new(false),
            state: LocalCell::new(FRESH),
            spare: LocalCell::new(ptr::null()),
        }
    };
    /// Without a destructor (so without a check on each access): [`Cleanup`] empties it.
    static QUEUE: ManuallyDrop<RefCell<Queue>> = const {
        ManuallyDrop::new(RefCell::new(Queue::new()))
    };
    static CLEANUP: Cleanup = const { Cleanup };
}

/// Runs `f` on the thread's hot state, inlined where it is called (see [`with_queue`]).
#[inline(always)]
fn with_hot<R>(f: impl FnOnce(&Hot) -> R) -> R {
    let hot: *const Hot = HOT.with(|h| h as *const Hot);
    // SAFETY: as in `with_queue`.
    f(unsafe { &*hot })
}

/// Runs `f` on the thread's queue, inlined where it is called: `LocalKey::with` with a large
/// closure is not inlined, and then reaches the thread-local through an indirect call.
#[inline(always)]
fn with_queue<R>(f: impl FnOnce(&RefCell<Queue>) -> R) -> R {
    let queue: *const RefCell<Queue> = QUEUE.with(|q| &**q as *const RefCell<Queue>);
    // SAFETY: the thread-local has no destructor, so it lives as long as the thread, and the
    // reference does not outlive this call, on this thread.
    f(unsafe { &*queue })
}

/// Ownership of the thread's queue. Released by [`Owner::release`] once the queue is
/// empty; dropped instead only when a task panics, and then it empties the queue (its tasks
/// are cancelled, and dropped once the queue is no longer borrowed).
struct Owner;

impl Owner {
    #[inline]
    fn release(self) {
        with_hot(|h| {
            h.owned.set(false);
            h.inline_pending.set(false);
        });
        std::mem::forget(self);
    }
}

impl Drop for Owner {
    fn drop(&mut self) {
        with_hot(|h| {
            h.owned.set(false);
            h.queued.set(0);
            h.inline_pending.set(false);
        });
        let leftover = QUEUE.with(|q| {
            let mut q = q.try_borrow_mut().ok()?;
            Some((std::mem::take(&mut q.ready), std::mem::take(&mut q.heap)))
        });
        if let Some((ready, heap)) = leftover {
            for cell in ready {
                cell.cancel();
            }
            for entry in heap {
                entry.cell.cancel();
            }
        }
    }
}

/// When the owner's own task is due.
#[derive(Clone, Copy)]
enum Due {
    /// Now: it runs without the clock being read. Only while nothing is queued.
    Now,
    At(Instant),
}

/// The owner's own task, run without boxing.
struct Inline<T> {
    due: Due,
    seq: u64,
    task: T,
}

/// Keeps the queue's buffers between owners up to this many entries, so that a task that
/// queues another does not allocate them anew each time, while a burst does not pin large
/// buffers to the thread.
const KEPT_CAPACITY: usize = 64;

enum Step {
    Inline,
    /// A queued task, and its due time unless it is known to have passed.
    Queued(Counted<Slot>, Option<Instant>),
}

impl CurrentThreadWorker {
    /// Makes the calling `schedule` the owner of the thread's queue, if no one owns it. The
    /// queue is empty then: only an owner's tasks queue anything, and an owner returns only
    /// once the queue is empty (or clears it when a task panics).
    #[inline]
    fn claim() -> Option<Owner> {
        // Not `then_some(Owner)`: that would make an `Owner`, whose drop clears the queue,
        // even when the queue is someone else's.
        if with_hot(|h| h.owned.replace(true)) {
            None
        } else {
            Some(Owner)
        }
    }

    /// Drains the thread's queue, along with the owner's own task if it is still to run.
    fn drain<T: Task>(&self, owner: Owner, mut inline: Option<Inline<T>>) {
        // The latest clock reading this drain took: a due time not after it has passed.
        let mut now: Option<Instant> = None;
        let mut used_queue = false;
        // A slot just finished with, on its way to the pool at the next borrow of the queue.
        let mut spare: Option<Counted<Slot>> = None;
        loop {
            let step = if with_hot(|h| h.queued.get()) == 0 {
                if inline.is_none() {
                    break;
                }
                Step::Inline
            } else {
                used_queue = true;
                with_queue(|q| {
                    let mut q = q.borrow_mut();
                    q.keep(spare.take());
                    if let Some(cell) = q.ready.pop_front() {
                        with_hot(|h| h.queued.set(h.queued.get() - 1));
                        return Step::Queued(cell, None);
                    }
                    let top = q.heap.peek().map(|e| (e.due, e.seq)).expect("queued");
                    let own_first = inline.as_ref().is_some_and(|own| match own.due {
                        Due::Now => true,
                        Due::At(due) => (due, own.seq) <= top,
                    });
                    if own_first {
                        return Step::Inline;
                    }
                    let entry = q.heap.pop().expect("peeked");
                    with_hot(|h| h.queued.set(h.queued.get() - 1));
                    let passed = q.clock.is_some_and(|clock| entry.due <= clock)
                        || now.is_some_and(|now| entry.due <= now);
                    Step::Queued(entry.cell, (!passed).then_some(entry.due))
                })
            };
            match step {
                Step::Inline => {
                    // Run in place: moving the task out and back in on every run costs more
                    // than the run of a small task (the copies defeat store forwarding).
                    let own = inline.as_mut().expect("inline task");
                    with_hot(|h| h.inline_pending.set(false));
                    if let Due::At(due) = own.due {
                        wait_until(due, &mut now);
                    }
                    if self.is_disposed() {
                        inline = None;
                        continue;
                    }
                    match inline_again(own.task.run(), &mut now) {
                        Some(due) => {
                            own.due = due;
                            own.seq = with_hot(Hot::seq);
                        }
                        None => inline = None,
                    }
                }
                Step::Queued(cell, due) => {
                    with_hot(|h| h.inline_pending.set(inline.is_some()));
                    if let Some(due) = due {
                        if cell.is_cancelled() {
                            spare = retire(cell).or(spare);
                            continue;
                        }
                        wait_until(due, &mut now);
                    }
                    if cell.is_cancelled() {
                        spare = retire(cell).or(spare);
                        continue;
                    }
                    // Handles are only ever dropped meanwhile, never made: a slot unique now
                    // stays unique while its task runs.
                    let unique = Counted::is_unique(&cell);
                    let Some(next) = cell.run(unique) else {
                        spare = retire(cell).or(spare);
                        continue;
                    };
                    // Decided before the queue is borrowed: nothing may drop a task (whose
                    // captures may schedule) while it is.
                    let due = match next {
                        Reschedule::Done => unreachable!("a finished task returns `None`"),
                        Reschedule::After(delay) if delay.is_zero() => None,
                        Reschedule::After(delay) => Some(Instant::now() + delay),
                        Reschedule::At(due) => Some(not_before_now(due, &mut now)),
                    };
                    with_queue(|q| {
                        let mut q = q.borrow_mut();
                        q.keep(spare.take());
                        match due {
                            None => q.push_now(cell),
                            Some(due) => q.push_timed(due, cell),
                        }
                        with_hot(|h| h.queued.set(h.queued.get() + 1));
                    });
                }
            }
        }
        if used_queue {
            with_queue(|q| {
                let mut q = q.borrow_mut();
                q.keep(spare.take());
                // Empty: dropping them runs no task's destructor.
                if q.heap.capacity() > KEPT_CAPACITY {
                    q.heap = BinaryHeap::new();
                }
                if q.ready.capacity() > KEPT_CAPACITY {
                    q.ready = VecDeque::new();
                }
            });
        }
        owner.release();
    }
}

/// When the owner's own task runs again. A zero delay needs no clock while nothing is
/// queued (the task runs again at once); otherwise it is ordered among the queued tasks by
/// the clock.
#[inline]
fn inline_again(next: Reschedule, now: &mut Option<Instant>) -> Option<Due> {
    match next {
        Reschedule::Done => None,
        Reschedule::At(due) => Some(Due::At(not_before_now(due, now))),
        Reschedule::After(delay) if delay.is_zero() && with_hot(|h| h.queued.get()) == 0 => {
            Some(Due::Now)
        }
        Reschedule::After(delay) => Some(Due::At(Instant::now() + delay)),
    }
}

/// When a task that asks to run again at `due` is queued: at `due`, unless `now`, the latest
/// reading of the clock, shows it has passed; then at the clock, read again, behind every
/// task due by then. The clock is read only for a task behind its schedule: one that keeps
/// asking for instants already passed would otherwise run before every other task until it
/// caught up, which it may never do.
#[inline]
fn not_before_now(due: Instant, now: &mut Option<Instant>) -> Instant {
    match *now {
        Some(reading) if due <= reading => {
            let reading = Instant::now();
            *now = Some(reading);
            reading
        }
        _ => due,
    }
}

/// Waits until `due`, unless `now`, the latest reading of the clock, shows it has passed;
/// keeps the reading taken.
fn wait_until(due: Instant, now: &mut Option<Instant>) {
    if now.is_none_or(|now| due > now) {
        *now = Some(sleep_until(due));
    }
}

impl Worker for CurrentThreadWorker {
    type TaskHandle = CurrentThreadTask;

    fn schedule_at<T: Task>(&self, due: Instant, task: T) -> CurrentThreadTask {
        if self.is_disposed() {
            return CurrentThreadTask { cell: None };
        }
        match Self::claim() {
            Some(owner) => {
                let due = Due::At(due);
                self.drain(owner, Some(Inline { due, seq: 0, task }));
                CurrentThreadTask { cell: None }
            }
            None => self.enqueue(Some(due), task),
        }
    }

    /// As `schedule_at(now)`, but without reading the clock unless a timed task is queued.
    #[inline]
    fn schedule<T: Task>(&self, task: T) -> CurrentThreadTask {
        if self.is_disposed() {
            return CurrentThreadTask { cell: None };
        }
        let Some(owner) = Self::claim() else {
            return self.enqueue(None, task);
        };
        // Nothing is queued: the owner's task runs first, at once, and when it neither asks
        // to run again nor queues anything, that is all.
        let mut task = task;
        let next = task.run();
        if next == Reschedule::Done && with_hot(|h| h.queued.get()) == 0 {
            owner.release();
        } else {
            // No clock read yet: a due time asked for is taken as it is.
            let inline = inline_again(next, &mut None).map(|due| Inline {
                due,
                seq: with_hot(Hot::seq),
                task,
            });
            self.drain(owner, inline);
        }
        CurrentThreadTask { cell: None }
    }

    /// Runs `f` as the owner's task when no queue is owned on this thread, then drains what
    /// it queued; `None` if the worker is disposed or a queue is being drained.
    #[inline]
    fn run_now<R>(&self, f: impl FnOnce() -> R) -> Option<R> {
        if self.is_disposed() {
            return None;
        }
        CurrentThread.run_now(f)
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
        let core = self.core.counted();
        if !with_hot(thread_state_live) {
            // The thread is exiting and its queue is gone: run the task inline.
            let mut cell = Slot::empty();
            Slot::fill(&mut cell, core, task);
            run_inline(&cell, due);
            return CurrentThreadTask { cell: Some(cell) };
        }
        let cell = with_queue(|q| {
            let mut q = q.borrow_mut();
            let mut cell = q.pool.pop().unwrap_or_else(Slot::empty);
            Slot::fill(&mut cell, core, task);
            // The slot is unique (new, or from the pool): the queue's count is a store.
            let queued = Counted::share(&mut cell);
            match due {
                Some(due) => q.push_timed(due, queued),
                None => q.push_now(queued),
            }
            cell
        });
        with_hot(|h| h.queued.set(h.queued.get() + 1));
        CurrentThreadTask { cell: Some(cell) }
    }
}

/// Runs a slot to its end on the calling thread, sleeping until each due time.
fn run_inline(cell: &Slot, due: Option<Instant>) {
    if let Some(due) = due {
        sleep_until(due);
    }
    while let Some(next) = cell.run(false) {
        match next {
            Reschedule::Done => return,
            Reschedule::At(due) => {
                sleep_until(due);
            }
            Reschedule::After(delay) => std::thread::sleep(delay),
        }
    }
}

impl Subscription for CurrentThreadWorker {
    fn dispose(&self) {
        let core = self.core.core();
        if core.disposed.swap(true, Ordering::AcqRel) {
            return;
        }
        // Drop this worker's tasks queued on this thread now. Comparing the workers' cores
        // is sound: both are alive, so the address cannot have been reused.
        let mine = |cell: &Counted<Slot>| cell.core().is_some_and(|mine| ptr::eq(mine, core));
        let removed = QUEUE.with(|q| {
            let Ok(mut q) = q.try_borrow_mut() else {
                return Vec::new();
            };
            let mut removed = Vec::new();
            let ready = std::mem::take(&mut q.ready);
            for cell in ready {
                if mine(&cell) {
                    removed.push(cell);
                } else {
                    q.ready.push_back(cell);
                }
            }
            let heap = std::mem::take(&mut q.heap).into_vec();
            for entry in heap {
                if mine(&entry.cell) {
                    removed.push(entry.cell);
                } else {
                    q.heap.push(entry);
                }
            }
            with_hot(|h| h.queued.set(h.queued.get() - removed.len()));
            removed
        });
        for cell in removed {
            cell.cancel();
        }
    }

    #[inline]
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
    use std::sync::{Arc, Mutex};
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
    fn tasks_due_now_run_in_order_around_timed_ones() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        let past = Instant::now() - Duration::from_secs(1);
        worker.schedule(move || {
            // Scheduled now with nothing timed queued: ready, first-in first-out, and ahead
            // of a timed task scheduled after them even with a due time already past.
            w.schedule(push(&l, 1));
            w.schedule(push(&l, 2));
            w.schedule_at(past, push(&l, 3));
            // Once a timed task is queued, a task due now is ordered by the clock: after the
            // one due in the past, before one due later (later by a margin no preemption
            // between these two calls, and no interpreter running them, comes near).
            w.schedule_at(Instant::now() + Duration::from_millis(200), push(&l, 7));
            w.schedule(push(&l, 4));
            let (w2, l2) = (w.clone(), l.clone());
            let mut runs = 0;
            w.schedule(move || {
                runs += 1;
                l2.lock().unwrap().push(4 + runs);
                // A zero delay queues it again behind what is due now, without waiting.
                if runs == 1 {
                    w2.schedule(push(&l2, 100));
                    Reschedule::After(Duration::ZERO)
                } else {
                    Reschedule::Done
                }
            });
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [1, 2, 3, 4, 5, 100, 6, 7]);
    }

    /// Schedules on `worker` a task that runs every 10 µs of its own schedule but takes 1 ms
    /// a run, so it falls further behind at each; and, from its first run, a task due 5 ms
    /// later. Answers how many runs of the first came before the second ran.
    fn runs_before_a_task_due_meanwhile(worker: &CurrentThreadWorker, queued: bool) -> u32 {
        use std::sync::atomic::{AtomicU32, Ordering};
        let runs = Arc::new(AtomicU32::new(0));
        let runs_before = Arc::new(AtomicU32::new(u32::MAX));
        let start = Instant::now();
        let (w, r, before) = (worker.clone(), runs.clone(), runs_before.clone());
        let mut due = start;
        let behind = move || {
            let n = r.fetch_add(1, Ordering::Relaxed) + 1;
            if n == 1 {
                let (r, before) = (r.clone(), before.clone());
                w.schedule_at(start + Duration::from_millis(5), move || {
                    before.store(r.load(Ordering::Relaxed), Ordering::Relaxed);
                    Reschedule::Done
                });
            }
            if before.load(Ordering::Relaxed) != u32::MAX || n == 2_000 {
                return Reschedule::Done;
            }
            std::thread::sleep(Duration::from_millis(1));
            due += Duration::from_micros(10);
            Reschedule::At(due)
        };
        if queued {
            let w = worker.clone();
            let mut behind = Some(behind);
            worker.schedule(move || {
                if let Some(behind) = behind.take() {
                    w.schedule_at(start, behind);
                }
                Reschedule::Done
            });
        } else {
            worker.schedule_at(start, behind);
        }
        runs_before.load(Ordering::Relaxed)
    }

    #[test]
    fn a_task_behind_its_schedule_lets_the_tasks_due_meanwhile_run() {
        // Queued at the instants it asks for, the late task would run some 500 times before
        // the other came due in its order; queued at the clock once they have passed, it lets
        // the other run at its own time, about 5 of its runs in (generous bounds: the sleeps
        // may take longer under load, which only lets the other run sooner).
        let worker = CurrentThread.worker();
        for queued in [false, true] {
            let runs = runs_before_a_task_due_meanwhile(&worker, queued);
            assert!(
                (1..=50).contains(&runs),
                "queued: {queued}, the late task ran {runs} times first"
            );
        }
    }

    #[test]
    fn the_owner_task_rescheduling_at_once_loops_without_the_queue() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        let mut n = 0;
        worker.schedule(move || {
            n += 1;
            l.lock().unwrap().push(n);
            if n == 2 {
                // Queued while the owner's task runs: it runs before the owner's next run,
                // which was asked for after it.
                w.schedule(push(&l, 10));
            }
            if n < 4 {
                Reschedule::After(Duration::ZERO)
            } else {
                Reschedule::Done
            }
        });
        assert_eq!(*log.lock().unwrap(), [1, 2, 10, 3, 4]);
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
    fn a_reused_core_starts_fresh() {
        let log = Log::default();
        for round in 0..3 {
            let worker = CurrentThread.worker();
            let clone = worker.clone();
            assert!(!clone.is_disposed(), "round {round}");
            clone.schedule(push(&log, round));
            // Disposed, then dropped: the core this thread keeps for the next worker must
            // not carry the disposal over.
            worker.dispose();
            assert!(clone.is_disposed());
        }
        assert_eq!(*log.lock().unwrap(), [0, 1, 2]);
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
    fn the_schedulers_run_now_needs_no_worker_and_drains_what_it_queued() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let result = CurrentThread.run_now(|| {
            worker.schedule(push(&log, 2));
            log.lock().unwrap().push(1);
            "ran"
        });
        assert_eq!(result, Some("ran"));
        assert_eq!(*log.lock().unwrap(), [1, 2]);

        // A disposed worker's tasks queued from it are dropped, not run.
        let disposed = worker.clone();
        let result = CurrentThread.run_now(|| {
            disposed.schedule(push(&log, 3));
            disposed.dispose();
            worker.clone().schedule(push(&log, 4));
        });
        assert_eq!(result, Some(()));
        assert_eq!(*log.lock().unwrap(), [1, 2]);

        // Inside a task the queue is owned: it declines, without calling `f`.
        let l = log.clone();
        CurrentThread.worker().schedule(move || {
            assert_eq!(CurrentThread.run_now(|| l.lock().unwrap().push(5)), None);
            l.lock().unwrap().push(6);
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [1, 2, 6]);
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

    /// Counts its drops, so a test can tell when what a task captured is gone.
    struct DropProbe(Arc<std::sync::atomic::AtomicUsize>);

    impl Drop for DropProbe {
        fn drop(&mut self) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    fn probe() -> (DropProbe, Arc<std::sync::atomic::AtomicUsize>) {
        let drops = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        (DropProbe(drops.clone()), drops)
    }

    fn pooled() -> Vec<usize> {
        let mut slots: Vec<usize> = QUEUE.with(|q| {
            q.borrow()
                .pool
                .iter()
                .map(|s| Counted::as_ptr(s) as usize)
                .collect()
        });
        slots.sort_unstable();
        slots
    }

    fn schedule_nested(worker: &CurrentThreadWorker, log: &Log, tasks: u32) {
        let (w, l) = (worker.clone(), log.clone());
        worker.schedule(move || {
            for n in 0..tasks {
                w.schedule(push(&l, n));
            }
            Reschedule::Done
        });
    }

    #[test]
    fn finished_slots_are_pooled_and_reused() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        // Warm the pool: three tasks queued at once leave three slots.
        schedule_nested(&worker, &log, 3);
        let first = pooled();
        assert!(first.len() >= 3, "{first:?}");
        // The same three slots serve the next three nested tasks: nothing new is allocated.
        schedule_nested(&worker, &log, 3);
        assert_eq!(pooled(), first);
        assert_eq!(*log.lock().unwrap(), [0, 1, 2, 0, 1, 2]);

        // A slot whose handle is still held is not pooled; its handle reports it finished.
        let before = pooled().len();
        let kept = Arc::new(Mutex::new(None));
        let (w, k, l) = (worker.clone(), kept.clone(), log.clone());
        worker.schedule(move || {
            *k.lock().unwrap() = Some(w.schedule(push(&l, 9)));
            Reschedule::Done
        });
        assert_eq!(pooled().len(), before - 1);
        let handle = kept.lock().unwrap().take().unwrap();
        assert!(handle.is_disposed());
        drop(handle);
        assert_eq!(log.lock().unwrap().last(), Some(&9));
    }

    #[test]
    fn a_reused_slot_belongs_to_its_new_worker() {
        let log = Log::default();
        let (a, b) = (CurrentThread.worker(), CurrentThread.worker());
        schedule_nested(&a, &log, 2);
        // Slots last used by `a` now hold `b`'s tasks: disposing `a` must not cancel them.
        let (a2, b2, l) = (a.clone(), b.clone(), log.clone());
        b.schedule(move || {
            b2.schedule(push(&l, 7));
            b2.schedule(push(&l, 8));
            a2.dispose();
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [0, 1, 7, 8]);
    }

    #[test]
    fn a_cancelled_slot_never_runs_and_drops_its_task_at_once() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        worker.schedule(move || {
            let (captured, drops) = probe();
            let l2 = l.clone();
            let handle = w.schedule(move || {
                let _keep = &captured;
                l2.lock().unwrap().push(1);
                Reschedule::Done
            });
            handle.dispose();
            assert!(handle.is_disposed());
            assert_eq!(drops.load(std::sync::atomic::Ordering::SeqCst), 1);

            // Disposed from another thread while queued here: dropped there, at once.
            let (captured, drops) = probe();
            let l3 = l.clone();
            let handle = w.schedule(move || {
                let _keep = &captured;
                l3.lock().unwrap().push(2);
                Reschedule::Done
            });
            std::thread::scope(|s| {
                s.spawn(|| handle.dispose());
            });
            assert_eq!(drops.load(std::sync::atomic::Ordering::SeqCst), 1);
            w.schedule(push(&l, 3));
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [3]);
    }

    #[test]
    fn a_task_cancelled_while_it_runs_is_dropped_when_it_returns() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        let (captured, drops) = probe();
        let seen = drops.clone();
        let mut captured = Some(captured);
        worker.schedule(move || {
            let captured = captured.take().expect("runs once");
            let own: Arc<Mutex<Option<CurrentThreadTask>>> = Arc::default();
            let (o, l2) = (own.clone(), l.clone());
            let seen = seen.clone();
            let mut captured = Some(captured);
            let handle = w.schedule(move || {
                let _keep = &captured;
                l2.lock().unwrap().push(1);
                o.lock().unwrap().as_ref().unwrap().dispose();
                // Still held while it runs: dropped only once it returns.
                assert_eq!(seen.load(std::sync::atomic::Ordering::SeqCst), 0);
                // Asks to run again, but it was cancelled: it never does.
                if captured.is_some() {
                    Reschedule::After(Duration::ZERO)
                } else {
                    captured.take();
                    Reschedule::Done
                }
            });
            *own.lock().unwrap() = Some(handle);
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [1]);
        assert_eq!(drops.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn a_million_recursive_steps_run_on_a_flat_stack() {
        use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
        const STEPS: u32 = 1_000_000;
        fn step(w: CurrentThreadWorker, left: Arc<AtomicU32>) -> impl Task {
            move || {
                if left.fetch_sub(1, Relaxed) > 1 {
                    w.schedule(step(w.clone(), left.clone()));
                }
                Reschedule::Done
            }
        }
        // A small stack: recursion through `schedule` would overflow it within a few
        // thousand steps.
        let left = Arc::new(AtomicU32::new(STEPS));
        let l = left.clone();
        std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(move || {
                let worker = CurrentThread.worker();
                worker.schedule(step(worker.clone(), l));
                // One slot served the whole chain: each step's slot is free again by the
                // time the next step is queued... or the next after.
                assert!(pooled().len() <= 2, "{:?}", pooled());
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(left.load(Relaxed), 0);
    }

    #[test]
    fn a_large_task_is_boxed_into_its_slot() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        let (captured, drops) = probe();
        let mut captured = Some(captured);
        worker.schedule(move || {
            let captured = captured.take().expect("runs once");
            let big = [7u8; 4 * INLINE];
            let l2 = l.clone();
            let mut runs = 0;
            w.schedule(move || {
                let _keep = &captured;
                runs += 1;
                l2.lock().unwrap().push(u32::from(big[INLINE]) + runs);
                if runs < 2 {
                    Reschedule::After(Duration::ZERO)
                } else {
                    Reschedule::Done
                }
            });
            Reschedule::Done
        });
        assert_eq!(*log.lock().unwrap(), [8, 9]);
        assert_eq!(drops.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn a_panicking_queued_task_is_dropped_and_its_slot_stays_usable() {
        let log = Log::default();
        let worker = CurrentThread.worker();
        let (w, l) = (worker.clone(), log.clone());
        let (captured, drops) = probe();
        let mut captured = Some(captured);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            worker.schedule(move || {
                let captured = captured.take().expect("runs once");
                w.schedule(move || {
                    let _keep = &captured;
                    panic!("boom")
                });
                w.schedule(push(&l, 1));
                Reschedule::Done
            })
        }));
        assert!(result.is_err());
        assert_eq!(drops.load(std::sync::atomic::Ordering::SeqCst), 1);
        schedule_nested(&worker, &log, 2);
        assert_eq!(*log.lock().unwrap(), [0, 1]);
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::primitive::{Arc, thread};

    /// Two threads clone one fresh worker at once: both clones share the one core that wins
    /// the compare-and-swap, the loser's is freed (loom reports a leaked `Arc` otherwise), and
    /// a disposal through either reaches all.
    #[test]
    fn loom_clones_racing_on_a_fresh_worker_share_one_core() {
        loom::model(|| {
            let worker = Arc::new(CurrentThread.worker());
            let racers: Vec<_> = (0..2)
                .map(|_| {
                    let worker = worker.clone();
                    thread::spawn(move || CurrentThreadWorker::clone(&worker))
                })
                .collect();
            let clones: Vec<CurrentThreadWorker> =
                racers.into_iter().map(|r| r.join().unwrap()).collect();
            clones[1].dispose();
            assert!(worker.is_disposed());
            assert!(clones.iter().all(|c| c.is_disposed()));
        });
    }

    /// A disposal racing a clone of a fresh worker: whichever makes the core, the clone and
    /// the original both end up disposed, and nothing leaks.
    #[test]
    fn loom_dispose_races_with_clone_on_a_fresh_worker() {
        loom::model(|| {
            let worker = Arc::new(CurrentThread.worker());
            let w = worker.clone();
            let cloner = thread::spawn(move || CurrentThreadWorker::clone(&w));
            worker.dispose();
            let clone = cloner.join().unwrap();
            assert!(clone.is_disposed());
            assert!(worker.is_disposed());
        });
    }

    /// A handle disposed on another thread while the owner runs the queued task: the task
    /// runs at most once, is dropped exactly once, and never runs after the cancel is seen.
    #[test]
    fn loom_cancel_races_with_run() {
        use crate::primitive::AtomicUsize;
        struct Probe(Arc<AtomicUsize>);
        impl Drop for Probe {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        loom::model(|| {
            let runs = Arc::new(AtomicUsize::new(0));
            let drops = Arc::new(AtomicUsize::new(0));
            let core = Counted::new(Core {
                disposed: AtomicBool::new(false),
            });
            let mut slot = Slot::empty();
            let (r, probe) = (runs.clone(), Probe(drops.clone()));
            Slot::fill(&mut slot, core, move || {
                let _keep = &probe;
                r.fetch_add(1, Ordering::SeqCst);
                Reschedule::After(std::time::Duration::ZERO)
            });
            let handle = CurrentThreadTask {
                cell: Some(slot.clone()),
            };
            let canceller = thread::spawn(move || handle.dispose());
            let first = slot.run(false);
            canceller.join().unwrap();
            // Once the cancel has happened, the task never runs again.
            assert_eq!(slot.run(false), None);
            let ran = runs.load(Ordering::SeqCst);
            assert!(ran <= 1);
            // Run to its end before the cancel, or cancelled before or while it ran.
            if first.is_some() {
                assert_eq!(ran, 1);
            }
            assert_eq!(drops.load(Ordering::SeqCst), 1);
            drop(slot);
            assert_eq!(drops.load(Ordering::SeqCst), 1);
        });
    }
}
