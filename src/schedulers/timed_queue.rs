//! The timed queue shared by [`NewThread`](super::NewThread), [`ThreadPool`](super::ThreadPool),
//! [`RunLoop`](super::RunLoop) and [`TestScheduler`](super::TestScheduler).
//!
//! # Algorithm
//!
//! A binary min-heap of entries ordered by `(due, seq)`, behind one lock, with a condition
//! variable for whoever drives the queue (a worker thread, or a user calling
//! [`RunLoop::dispatch`](super::RunLoop::dispatch)).
//!
//! - **Identity by sequence number.** Every push takes the next `seq` from a counter, which
//!   both breaks ties first-in first-out and names the entry. Nothing ever compares
//!   addresses, so a freed allocation reused by a new task cannot be mistaken for the old top.
//! - **Waiting.** The driver looks at the *current* top under the lock: if it is due it pops
//!   it; if not, it waits on the condition variable until that top's due time, and looks again
//!   on every wake. A push that becomes the new top wakes a waiting driver, which re-arms on
//!   the earlier deadline. No deadline outlives the wait it was computed for, and nothing spins.
//! - **Cancellation.** A task lives in a shared cell (one allocation per scheduled task, reused
//!   by every reschedule). The queue holds the cells in a slab (a vector of slots with a free
//!   list threaded through the vacant ones); a heap key names its cell by slot index and
//!   sequence number. Cancelling marks the cell finished, drops the task on the cancelling
//!   thread, and takes the cell out of its slot under the queue lock, so the queue lets go of
//!   it at once: what the task captured, and the cell itself once its handles are gone, are
//!   freed before `dispose` returns. The heap key stays behind as a tombstone of plain data (a
//!   key whose slot no longer holds its sequence number), popped when the driver reaches it (a
//!   driver never waits on a tombstone it can see, and one it waits on already is due no later
//!   than any live task). Keys are compacted in place, without touching a cell, when
//!   tombstones outnumber live tasks; the slab is renumbered when it is mostly vacant; and
//!   both buffers are shrunk, and freed when nothing live is left, so a burst of cancelled
//!   timers gives its memory back.
//! - **Running.** A task runs outside every lock, so it may schedule, cancel or dispose
//!   anything, itself included. Its cell's own small lock only guards taking the task out and
//!   putting it back.
//! - **Drops outside the lock.** Dropping a cell may drop a worker, which may close its queue;
//!   so no cell is ever dropped while the queue lock is held.
//!
//! The deciding step, [`State::next`], takes "now" from its caller, so the loom models in this
//! file check push, pop, cancellation and wake-ups without a clock.

use super::cell::{Cell, CellHeader, new_cell};
use super::{Reschedule, Task, Worker};
use crate::subscription::Subscription;
use crate::sync::{Arc, AtomicBool, AtomicU64, AtomicUsize, Condvar, Mutex, Ordering};
use std::cmp::Ordering as CmpOrdering;
use std::collections::BinaryHeap;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// `slot` of a cell that is not in the slab (it is running, or finished).
const NOT_QUEUED: usize = usize::MAX;

/// Below this many tombstones the keys are never compacted, unless no live task is left.
/// Small under loom, so that the models reach compaction.
#[cfg(not(loom))]
const COMPACT_MIN: usize = 64;
#[cfg(loom)]
const COMPACT_MIN: usize = 2;

/// When the queue empties, a larger buffer is given back and one of this many entries kept, so
/// that a lone timeout set and cancelled over and over does not allocate its buffers each time.
const KEPT_WHEN_EMPTY: usize = 8;

/// Where a queue's "now" comes from.
pub(crate) enum Clock {
    /// `Instant::now()`.
    Wall,
    /// Virtual time for the test scheduler: `start + offset`, moved only by advancing.
    Virtual {
        start: Instant,
        /// Nanoseconds since `start`. Written only by the one advancing thread (see
        /// `advancing`), read by anyone through `now()`. Relaxed: the value publishes no
        /// other data, and a thread reading the clock while another advances it cannot
        /// expect any particular instant anyway.
        offset_ns: AtomicU64,
        /// Set while a thread advances, to refuse a second, concurrent or nested, advance.
        advancing: AtomicBool,
    },
}

/// A task taken off the queue, with the time it was due.
pub(crate) struct Entry {
    due: Instant,
    cell: Arc<QCell>,
}

impl Entry {
    pub(crate) fn due(&self) -> Instant {
        self.due
    }
}

/// A heap key: when a task is due, its sequence number, and the slot holding its cell.
/// Plain data, so a tombstone costs its few bytes and nothing else.
#[derive(Clone, Copy)]
struct Key {
    due: Instant,
    seq: u64,
    slot: usize,
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    /// Reversed, so that std's max-heap pops the earliest `(due, seq)` first.
    fn cmp(&self, other: &Self) -> CmpOrdering {
        other
            .due
            .cmp(&self.due)
            .then_with(|| other.seq.cmp(&self.seq))
    }
}

/// A slot of the slab: an occupied one holds a queued cell and the `seq` of its key; a
/// vacant one holds no cell, and in `seq` the index of the next vacant slot (`NOT_QUEUED` at
/// the end of the free list).
struct Slot {
    seq: u64,
    cell: Option<Arc<QCell>>,
}

/// What the driver should do next.
pub(crate) enum Next {
    /// Run this entry's task now.
    Run(Entry),
    /// A cell found cancelled in its slot (its worker was disposed, or a cancel is on its way
    /// to the lock); drop it outside the lock and look again.
    Stale(Arc<QCell>),
    /// Nothing is due: wait until this instant, or until woken if `None`.
    Wait(Option<Instant>),
    /// The queue is closed; the driver stops.
    Closed,
}

/// The part of a queue its lock protects.
pub(crate) struct State {
    heap: BinaryHeap<Key>,
    slots: Vec<Slot>,
    /// The first vacant slot, or `NOT_QUEUED`.
    free: usize,
    /// Occupied slots. Every occupied slot has exactly one key in the heap, so the other
    /// `heap.len() - live` keys are tombstones.
    live: usize,
    next_seq: u64,
    /// Drivers waiting on the condition variable; a push only signals when one is.
    waiters: usize,
    closed: bool,
}

impl State {
    fn new() -> Self {
        State {
            heap: BinaryHeap::new(),
            slots: Vec::new(),
            free: NOT_QUEUED,
            live: 0,
            next_seq: 0,
            waiters: 0,
            closed: false,
        }
    }

    fn push(&mut self, due: Instant, cell: Arc<QCell>) -> bool {
        let seq = self.next_seq;
        self.next_seq += 1;
        let header = cell.header();
        let pending = &header.worker.pending;
        // Relaxed: `slot` and `pending` are only touched under the queue lock.
        pending.store(pending.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
        let slot = if self.free == NOT_QUEUED {
            header.slot.store(self.slots.len(), Ordering::Relaxed);
            self.slots.push(Slot {
                seq,
                cell: Some(cell),
            });
            self.slots.len() - 1
        } else {
            let slot = self.free;
            header.slot.store(slot, Ordering::Relaxed);
            let vacant = &mut self.slots[slot];
            self.free = vacant.seq as usize;
            *vacant = Slot {
                seq,
                cell: Some(cell),
            };
            slot
        };
        self.live += 1;
        self.heap.push(Key { due, seq, slot });
        self.heap.peek().is_some_and(|top| top.seq == seq)
    }

    /// Takes the cell out of its slot; the slot joins the free list.
    fn vacate(&mut self, slot: usize) -> Arc<QCell> {
        let vacant = &mut self.slots[slot];
        let cell = vacant.cell.take().expect("vacating an occupied slot");
        vacant.seq = self.free as u64;
        self.free = slot;
        self.live -= 1;
        let header = cell.header();
        header.slot.store(NOT_QUEUED, Ordering::Relaxed);
        let pending = &header.worker.pending;
        pending.store(pending.load(Ordering::Relaxed) - 1, Ordering::Relaxed);
        cell
    }

    /// The cell a key names, unless the key is a tombstone.
    fn cell_of(&self, key: &Key) -> Option<&Arc<QCell>> {
        let slot = &self.slots[key.slot];
        slot.cell.as_ref().filter(|_| slot.seq == key.seq)
    }

    /// Decides what a driver does when it is `now`. Pure bookkeeping: it never waits and
    /// never drops a cell.
    pub(crate) fn next(&mut self, now: Instant) -> Next {
        if self.closed {
            return Next::Closed;
        }
        loop {
            let Some(&top) = self.heap.peek() else {
                return Next::Wait(None);
            };
            let Some(cell) = self.cell_of(&top) else {
                // A tombstone: plain data, dropped here.
                self.heap.pop();
                continue;
            };
            if cell.is_cancelled() {
                self.heap.pop();
                return Next::Stale(self.vacate(top.slot));
            }
            if top.due > now {
                return Next::Wait(Some(top.due));
            }
            self.heap.pop();
            let cell = self.vacate(top.slot);
            return Next::Run(Entry { due: top.due, cell });
        }
    }

    /// The due time of the earliest task that is still live.
    fn first_live_due(&self) -> Option<Instant> {
        let live = |key: &&Key| self.cell_of(key).is_some_and(|cell| !cell.is_cancelled());
        match self.heap.peek() {
            None => None,
            Some(top) if live(&top) => Some(top.due),
            // The top is a tombstone; the earliest live task may be anywhere below it.
            Some(_) => self.heap.iter().filter(live).map(|key| key.due).min(),
        }
    }

    /// Compacts when tombstones outnumber live tasks, and there are enough of them to be
    /// worth it or nothing live is left.
    fn maybe_compact(&mut self) {
        let tombstones = self.heap.len() - self.live;
        if tombstones > self.live && (tombstones >= COMPACT_MIN || self.live == 0) {
            self.compact();
        }
    }

    /// Drops every tombstone key, renumbers the slab if it is mostly vacant, and gives back
    /// what the buffers no longer need. Touches no cell unless it renumbers (and then only
    /// the live ones): the tombstones are told apart by their slots alone.
    fn compact(&mut self) {
        if self.live == 0 {
            self.heap.clear();
            self.slots.clear();
            self.free = NOT_QUEUED;
            // Back to a fixed small size, so that what an empty queue holds does not depend
            // on its past.
            if self.heap.capacity() > KEPT_WHEN_EMPTY {
                self.heap = BinaryHeap::with_capacity(KEPT_WHEN_EMPTY);
            }
            if self.slots.capacity() > KEPT_WHEN_EMPTY {
                self.slots = Vec::with_capacity(KEPT_WHEN_EMPTY);
            }
            return;
        }
        let mut keys = std::mem::take(&mut self.heap).into_vec();
        keys.retain(|key| self.cell_of(key).is_some());
        if self.slots.len() > 4 * self.live.max(COMPACT_MIN) {
            // Moves the live cells to the front of a fresh slab, in key order.
            let mut slots = Vec::with_capacity(2 * self.live);
            for key in &mut keys {
                let cell = self.slots[key.slot].cell.take().expect("a live key");
                cell.header().slot.store(slots.len(), Ordering::Relaxed);
                key.slot = slots.len();
                slots.push(Slot {
                    seq: key.seq,
                    cell: Some(cell),
                });
            }
            self.slots = slots;
            self.free = NOT_QUEUED;
        }
        shrink(&mut keys);
        self.heap = BinaryHeap::from(keys);
    }

    /// Takes every queued cell for which `remove` holds out of the slab, to be dropped by the
    /// caller once the lock is released.
    fn extract(&mut self, mut remove: impl FnMut(&QCell) -> bool) -> Vec<Arc<QCell>> {
        let mut removed = Vec::new();
        for slot in 0..self.slots.len() {
            if self.slots[slot].cell.as_deref().is_some_and(&mut remove) {
                removed.push(self.vacate(slot));
            }
        }
        self.maybe_compact();
        removed
    }
}

/// Shrinks a buffer that its entries fill less than a quarter of, keeping room to grow.
fn shrink<T>(v: &mut Vec<T>) {
    if v.capacity() > 4 * v.len().max(COMPACT_MIN) {
        v.shrink_to(2 * v.len());
    }
}

/// A timed queue: a heap of tasks behind a lock, and a condition variable for its driver.
pub(crate) struct Queue {
    state: Mutex<State>,
    ready: Condvar,
    clock: Clock,
    next_worker_id: AtomicU64,
    /// Live handles of the one value allowed to drive this queue, for the kinds where only
    /// that value can run tasks (run loop, test scheduler). When the last one goes, nothing
    /// can ever run the tasks, so the queue closes and drops them. Unused (and left at one)
    /// for queues with their own thread.
    drivers: AtomicUsize,
}

impl Queue {
    pub(crate) fn new(clock: Clock) -> Self {
        Queue {
            state: Mutex::new(State::new()),
            ready: Condvar::new(),
            clock,
            next_worker_id: AtomicU64::new(0),
            drivers: AtomicUsize::new(1),
        }
    }

    /// A queue on the wall clock.
    pub(crate) fn wall() -> Arc<Self> {
        Arc::new(Queue::new(Clock::Wall))
    }

    pub(crate) fn now(&self) -> Instant {
        match &self.clock {
            Clock::Wall => Instant::now(),
            Clock::Virtual {
                start, offset_ns, ..
            } => *start + Duration::from_nanos(offset_ns.load(Ordering::Relaxed)),
        }
    }

    pub(crate) fn clock(&self) -> &Clock {
        &self.clock
    }

    /// A new worker on this queue.
    pub(crate) fn worker(queue: &Arc<Self>, owner: Owner) -> QueueWorker {
        QueueWorker {
            core: Arc::new(WorkerCore {
                // Relaxed: ids only need to be distinct.
                id: queue.next_worker_id.fetch_add(1, Ordering::Relaxed),
                queue: queue.clone(),
                disposed: AtomicBool::new(false),
                pending: AtomicUsize::new(0),
                live: AtomicUsize::new(1),
                owner,
            }),
        }
    }

    /// Queues `cell` at `due`, unless its worker was disposed, the cell was cancelled, or the
    /// queue closed; returns whether it was queued. Wakes a waiting driver when the cell
    /// becomes the new top, so that the driver re-arms on the earlier deadline.
    fn enqueue(&self, due: Instant, cell: &Arc<QCell>) -> bool {
        let mut state = self.state.lock();
        // Checked under the lock: `dispose` sets `disposed` before it takes the lock to
        // remove the worker's entries, so either it sees this entry or this sees the flag.
        if state.closed || cell.is_cancelled() {
            return false;
        }
        let is_top = state.push(due, cell.clone());
        let wake = is_top && state.waiters > 0;
        drop(state);
        if wake {
            self.ready.notify_one();
        }
        true
    }

    /// Takes a cell cancelled through its handle out of the slab, so that the queue holds
    /// nothing of it any more, and compacts the keys if tombstones dominate them.
    ///
    /// A driver waiting on this very task is not woken: every live task is due no earlier
    /// than the top, so the driver, waking at the tombstone's due time, pops it and re-arms
    /// on the next one without being late for anything. Waking it at every cancel would cost
    /// a system call and a context switch per timer where timeouts are cancelled in the order
    /// they were set; what a tombstone holds meanwhile is its key, a few bytes of plain data.
    fn on_cancel(&self, header: &Header) {
        let mut state = self.state.lock();
        let slot = header.slot.load(Ordering::Relaxed);
        if slot == NOT_QUEUED {
            return;
        }
        let cell = state.vacate(slot);
        state.maybe_compact();
        drop(state);
        // Dropping a cell may close a queue: never under the lock.
        drop(cell);
    }

    /// Closes the queue: drivers stop, later pushes are refused, and every queued task is
    /// cancelled (its captures dropped here, outside the lock).
    pub(crate) fn close(&self) {
        let mut state = self.state.lock();
        state.closed = true;
        let mut cells = Vec::with_capacity(state.live);
        for slot in 0..state.slots.len() {
            if state.slots[slot].cell.is_some() {
                cells.push(state.vacate(slot));
            }
        }
        state.heap = BinaryHeap::new();
        state.slots = Vec::new();
        state.free = NOT_QUEUED;
        drop(state);
        self.ready.notify_all();
        for cell in cells {
            cell.cancel();
        }
    }

    /// Removes and cancels every queued task of the worker `core`, which is already marked
    /// disposed.
    fn remove_worker(&self, core: &WorkerCore) {
        let mut state = self.state.lock();
        if core.pending.load(Ordering::Relaxed) == 0 {
            return;
        }
        let id = core.id;
        let removed = state.extract(|cell| cell.header().worker.id == id);
        drop(state);
        // The top may have been removed; the driver re-arms on its next wake, which is no
        // later than the removed top's due time, so no signal is needed for correctness.
        for cell in removed {
            cell.cancel();
        }
    }

    /// Runs the next due task. With `block`, waits for one (re-checking the top on every
    /// wake); without, returns [`Dispatch::Idle`] if none is due. A panic in the task unwinds
    /// from here with the queue consistent and no lock held.
    pub(crate) fn dispatch(&self, block: bool) -> Dispatch {
        let mut state = self.state.lock();
        let entry = loop {
            match state.next(self.now()) {
                Next::Run(entry) => break entry,
                Next::Stale(cell) => {
                    // Dropping a cell may close a queue: never under the lock.
                    drop(state);
                    cell.cancel();
                    state = self.state.lock();
                }
                Next::Closed => return Dispatch::Closed,
                Next::Wait(_) if !block => return Dispatch::Idle,
                Next::Wait(deadline) => {
                    state.waiters += 1;
                    match deadline {
                        Some(deadline) => {
                            self.ready.wait_until(&mut state, deadline);
                        }
                        None => self.ready.wait(&mut state),
                    }
                    state.waiters -= 1;
                }
            }
        };
        // Another driver may be waiting on a deadline this pop made stale: pass it on.
        let pass_on = state.waiters > 0 && !state.heap.is_empty();
        drop(state);
        if pass_on {
            self.ready.notify_one();
        }
        self.run(entry);
        Dispatch::Ran
    }

    /// Pops the first live task due at `now`, without waiting (for virtual time).
    pub(crate) fn pop_due(&self, now: Instant) -> Option<Entry> {
        loop {
            let mut state = self.state.lock();
            match state.next(now) {
                Next::Run(entry) => return Some(entry),
                Next::Stale(cell) => {
                    drop(state);
                    cell.cancel();
                }
                Next::Wait(_) | Next::Closed => return None,
            }
        }
    }

    /// Runs a popped entry and queues it again if it asks to be.
    pub(crate) fn run(&self, entry: Entry) {
        let Entry { cell, .. } = entry;
        let Some(next) = cell.run() else {
            return;
        };
        let due = match next {
            Reschedule::At(due) => due,
            Reschedule::After(delay) => self.now() + delay,
            Reschedule::Done => unreachable!("a finished task is not rescheduled"),
        };
        if !self.enqueue(due, &cell) {
            cell.cancel();
        }
    }

    /// Whether no live task is queued.
    pub(crate) fn is_empty(&self) -> bool {
        self.state.lock().first_live_due().is_none()
    }

    /// The due time of the earliest live task.
    pub(crate) fn first_due(&self) -> Option<Instant> {
        self.state.lock().first_live_due()
    }

    /// Counts a new handle of the driving value.
    pub(crate) fn add_driver(&self) {
        // Relaxed: as for `Arc::clone`, the new handle is made from an existing one.
        self.drivers.fetch_add(1, Ordering::Relaxed);
    }

    /// Forgets a handle of the driving value; the last one closes the queue.
    pub(crate) fn remove_driver(&self) {
        // AcqRel: as for `Arc`'s drop, the last handle must see everything the others did.
        if self.drivers.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.close();
        }
    }

    /// Moves virtual time forward to `to` (never backwards). Only the advancing thread calls
    /// it, so a load and a store suffice.
    pub(crate) fn advance_virtual_now(&self, to: Instant) {
        if let Clock::Virtual {
            start, offset_ns, ..
        } = &self.clock
        {
            let offset =
                u64::try_from(to.saturating_duration_since(*start).as_nanos()).unwrap_or(u64::MAX);
            if offset > offset_ns.load(Ordering::Relaxed) {
                offset_ns.store(offset, Ordering::Relaxed);
            }
        }
    }
}

/// What [`Queue::dispatch`] did.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Dispatch {
    /// Ran one task.
    Ran,
    /// Nothing was due (only without blocking).
    Idle,
    /// The queue is closed.
    Closed,
}

/// Runs a worker thread over `queue` until the queue closes. A panicking task is reported by
/// the panic hook (which prints it to stderr by default) and dropped; the thread goes on with
/// the other tasks, as tokio's worker threads do.
pub(crate) fn spawn_thread(queue: Arc<Queue>, name: String) {
    std::thread::Builder::new()
        .name(name)
        .spawn(move || {
            loop {
                // A task that panicked was reported by the panic hook and dropped: go on.
                let done = panic::catch_unwind(AssertUnwindSafe(|| queue.dispatch(true)));
                if let Ok(Dispatch::Closed) = done {
                    break;
                }
            }
        })
        .expect("rx: failed to spawn a scheduler thread");
}

/// What keeps a queue alive and who closes it.
pub(crate) enum Owner {
    /// The queue has its own thread, which stops when this worker's handles and unfinished
    /// tasks are all gone.
    Thread,
    /// The queue belongs to a thread pool, kept alive by every worker handed out from it
    /// while the worker has handles or unfinished tasks (taken out then).
    Pool(Mutex<Option<Arc<Lifeline>>>),
    /// The queue is driven from outside (run loop, test scheduler).
    Driven,
}

/// Closes a pool's queues, stopping its threads, when the pool, all its workers and all
/// their tasks are gone.
pub(crate) struct Lifeline {
    pub(crate) queues: Box<[Arc<Queue>]>,
}

impl Drop for Lifeline {
    fn drop(&mut self) {
        for queue in self.queues.iter() {
            queue.close();
        }
    }
}

/// The state of one worker, shared by its handles and its tasks (finished tasks too, as long
/// as their handles live).
pub(crate) struct WorkerCore {
    /// Names the worker's entries when it is disposed.
    id: u64,
    queue: Arc<Queue>,
    /// Set once by `dispose`. Release/Acquire so a task that sees it also sees the disposal.
    disposed: AtomicBool,
    /// How many heap entries are this worker's; lets `dispose` skip scanning the heap when
    /// none are. Only touched under the queue lock.
    pending: AtomicUsize,
    /// Worker handles plus unfinished tasks. At zero nothing can ever be scheduled or run on
    /// this worker again, so what keeps its thread (or its pool) going is released. A count
    /// rather than the `Arc`'s own, because the handle of a finished task keeps the core
    /// alive but must not keep a thread alive.
    live: AtomicUsize,
    owner: Owner,
}

impl WorkerCore {
    fn retain(&self) {
        // Relaxed: as for `Arc::clone`, made from a live handle.
        self.live.fetch_add(1, Ordering::Relaxed);
    }

    fn release(&self) {
        // AcqRel: as for `Arc`'s drop, the last release sees what every other one did.
        if self.live.fetch_sub(1, Ordering::AcqRel) != 1 {
            return;
        }
        match &self.owner {
            Owner::Thread => self.queue.close(),
            Owner::Pool(lifeline) => {
                let lifeline = lifeline.lock().take();
                // Outside the lock: the last reference closes the pool's queues.
                drop(lifeline);
            }
            Owner::Driven => {}
        }
    }
}

/// The queue-specific part of a task's cell.
pub(crate) struct Header {
    worker: Arc<WorkerCore>,
    /// The cell's slot in the queue's slab, or `NOT_QUEUED`. Only touched under the queue
    /// lock, so Relaxed.
    slot: AtomicUsize,
}

impl CellHeader for Header {
    fn on_finish(&self) {
        self.worker.release();
    }
}

type QCell = dyn Cell<Header>;

impl QCell {
    /// Whether the task will never run again: it finished, or its worker was disposed.
    fn is_cancelled(&self) -> bool {
        self.is_finished() || self.header().worker.disposed.load(Ordering::Acquire)
    }

    /// Cancels from a handle: the task never runs again and is dropped here and now.
    fn cancel_queued(&self) {
        if self.cancel() {
            self.header().worker.queue.on_cancel(self.header());
        }
    }
}

/// The worker of the schedulers built on a timed queue: [`NewThread`](super::NewThread),
/// [`ThreadPool`](super::ThreadPool), [`Computational`](super::Computational),
/// [`RunLoop`](super::RunLoop) and [`TestScheduler`](super::TestScheduler).
///
/// A cheap `Clone` handle. Disposing it cancels every task scheduled on it and refuses new
/// ones; for a [`NewThread`](super::NewThread) worker it also ends the thread. Dropping it
/// does not cancel anything.
pub struct QueueWorker {
    core: Arc<WorkerCore>,
}

impl Clone for QueueWorker {
    fn clone(&self) -> Self {
        self.core.retain();
        QueueWorker {
            core: self.core.clone(),
        }
    }
}

impl Drop for QueueWorker {
    fn drop(&mut self) {
        self.core.release();
    }
}

impl Worker for QueueWorker {
    type TaskHandle = QueuedTask;

    /// Boxes `task` (one allocation, reused when it reschedules) and queues it.
    fn schedule_at<T: Task>(&self, due: Instant, task: T) -> QueuedTask {
        // Released when the task finishes.
        self.core.retain();
        let header = Header {
            worker: self.core.clone(),
            slot: AtomicUsize::new(NOT_QUEUED),
        };
        let cell = new_cell(header, task);
        if !self.core.queue.enqueue(due, &cell) {
            cell.cancel();
        }
        QueuedTask { cell }
    }

    #[inline]
    fn now(&self) -> Instant {
        self.core.queue.now()
    }
}

impl Subscription for QueueWorker {
    fn dispose(&self) {
        let core = &self.core;
        if core.disposed.swap(true, Ordering::AcqRel) {
            return;
        }
        match core.owner {
            Owner::Thread => core.queue.close(),
            Owner::Pool(_) | Owner::Driven => core.queue.remove_worker(core),
        }
    }

    fn is_disposed(&self) -> bool {
        self.core.disposed.load(Ordering::Acquire)
    }
}

impl fmt::Debug for QueueWorker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueueWorker")
            .field("id", &self.core.id)
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

/// The handle of a task scheduled on a [`QueueWorker`]. Disposing it cancels the task: it
/// never runs again, and what it captured is dropped before `dispose` returns (or, if it is
/// running at that moment, as soon as it returns).
#[derive(Clone)]
pub struct QueuedTask {
    cell: Arc<QCell>,
}

impl Subscription for QueuedTask {
    fn dispose(&self) {
        self.cell.cancel_queued();
    }

    /// `true` once the task is done, cancelled, panicked, or its worker was disposed.
    fn is_disposed(&self) -> bool {
        self.cell.is_cancelled()
    }
}

impl fmt::Debug for QueuedTask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueuedTask")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::Mutex as StdMutex;

    type Log = Arc<StdMutex<Vec<u32>>>;
    type BoxedTask = Box<dyn FnMut() -> Reschedule + Send>;

    fn recorder() -> (Log, impl Fn(u32) -> BoxedTask) {
        let log = Arc::new(StdMutex::new(Vec::new()));
        let l = log.clone();
        (log, move |n| {
            let l = l.clone();
            Box::new(move || {
                l.lock().unwrap().push(n);
                Reschedule::Done
            })
        })
    }

    fn drain(queue: &Queue) {
        while queue.dispatch(false) == Dispatch::Ran {}
    }

    #[test]
    fn runs_in_due_order_then_fifo() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let (log, task) = recorder();
        let t0 = Instant::now();
        worker.schedule_at(t0, task(1));
        worker.schedule_at(t0 - Duration::from_millis(1), task(0));
        worker.schedule_at(t0, task(2));
        worker.schedule_at(t0, task(3));
        drain(&queue);
        assert_eq!(*log.lock().unwrap(), [0, 1, 2, 3]);
        assert!(queue.is_empty());
    }

    #[test]
    fn future_tasks_wait() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let (log, task) = recorder();
        worker.schedule_after(Duration::from_secs(3600), task(1));
        assert_eq!(queue.dispatch(false), Dispatch::Idle);
        assert!(!queue.is_empty());
        assert!(log.lock().unwrap().is_empty());
    }

    #[test]
    fn cancelled_task_never_runs_and_is_dropped_at_once() {
        struct Probe(Arc<AtomicBool>);
        impl Drop for Probe {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let dropped = Arc::new(AtomicBool::new(false));
        let probe = Probe(dropped.clone());
        let handle = worker.schedule(move || {
            let _ = &probe;
            panic!("must not run")
        });
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(handle.is_disposed());
        assert!(dropped.load(Ordering::SeqCst));
        drain(&queue);
        assert!(queue.is_empty());
    }

    #[test]
    fn rescheduling_reuses_the_cell() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let mut n = 0;
        let handle = worker.schedule(move || {
            n += 1;
            if n < 5 {
                Reschedule::After(Duration::ZERO)
            } else {
                Reschedule::Done
            }
        });
        let mut runs = 0;
        while queue.dispatch(false) == Dispatch::Ran {
            runs += 1;
        }
        assert_eq!(runs, 5);
        assert!(handle.is_disposed());
    }

    #[test]
    fn task_can_cancel_itself() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let slot: Arc<StdMutex<Option<QueuedTask>>> = Arc::default();
        let s = slot.clone();
        let mut runs = 0;
        let handle = worker.schedule(move || {
            runs += 1;
            assert_eq!(runs, 1);
            s.lock().unwrap().as_ref().unwrap().dispose();
            Reschedule::After(Duration::ZERO)
        });
        *slot.lock().unwrap() = Some(handle.clone());
        drain(&queue);
        assert!(handle.is_disposed());
        assert!(queue.is_empty());
        // The cell held the task, which held the slot, which holds the cell: the cycle is
        // broken because the cancelled task was dropped.
        slot.lock().unwrap().take();
    }

    #[test]
    fn disposing_a_worker_cancels_only_its_tasks() {
        let queue = Queue::wall();
        let a = Queue::worker(&queue, Owner::Driven);
        let b = Queue::worker(&queue, Owner::Driven);
        let (log, task) = recorder();
        let ha = a.schedule(task(1));
        b.schedule(task(2));
        a.dispose();
        assert!(a.is_disposed() && ha.is_disposed());
        assert!(a.schedule(task(3)).is_disposed());
        drain(&queue);
        assert_eq!(*log.lock().unwrap(), [2]);
    }

    #[test]
    fn tombstones_are_compacted() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let far = Duration::from_secs(3600);
        let live = worker.schedule_after(far, || Reschedule::Done);
        for _ in 0..10 * COMPACT_MIN {
            worker.schedule_after(far, || Reschedule::Done).dispose();
        }
        let state = queue.state.lock();
        assert!(state.heap.len() <= COMPACT_MIN + 1);
        assert_eq!(state.live, 1);
        drop(state);
        assert!(!live.is_disposed() && !queue.is_empty());
    }

    #[test]
    fn cancelling_lets_go_of_the_cell_at_once() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let far = Duration::from_secs(3600);
        let _live = worker.schedule_after(far, || Reschedule::Done);
        let handle = worker.schedule_after(far, || Reschedule::Done);
        assert_eq!(Arc::strong_count(&handle.cell), 2);
        handle.dispose();
        assert_eq!(Arc::strong_count(&handle.cell), 1);
        // Its key is a tombstone until the driver or a compaction reaches it.
        assert_eq!(queue.state.lock().heap.len(), 2);
    }

    #[test]
    fn a_burst_of_cancelled_timers_gives_the_buffers_back() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let far = Duration::from_secs(3600);
        let handles: Vec<QueuedTask> = (0..64 * COMPACT_MIN)
            .map(|_| worker.schedule_after(far, || Reschedule::Done))
            .collect();
        let live = worker.schedule_after(far, || Reschedule::Done);
        assert!(queue.state.lock().heap.capacity() >= 64 * COMPACT_MIN);
        for handle in &handles {
            handle.dispose();
        }
        let state = queue.state.lock();
        assert!(state.heap.len() <= COMPACT_MIN + 1);
        assert!(state.heap.capacity() <= 4 * COMPACT_MIN);
        assert!(state.slots.capacity() <= 8 * COMPACT_MIN);
        assert_eq!(state.live, 1);
        drop(state);
        assert!(handles.iter().all(|h| Arc::strong_count(&h.cell) == 1));
        assert!(!live.is_disposed() && !queue.is_empty());
        live.dispose();
        let state = queue.state.lock();
        assert_eq!(state.heap.capacity(), KEPT_WHEN_EMPTY);
        assert_eq!(state.slots.capacity(), KEPT_WHEN_EMPTY);
    }

    #[test]
    fn vacant_slots_are_reused_and_run_in_order() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let (log, task) = recorder();
        let t0 = Instant::now();
        let a = worker.schedule_at(t0, task(1));
        let b = worker.schedule_at(t0, task(2));
        a.dispose();
        b.dispose();
        worker.schedule_at(t0, task(3));
        worker.schedule_at(t0 - Duration::from_millis(1), task(4));
        assert_eq!(queue.state.lock().slots.len(), 2);
        drain(&queue);
        assert_eq!(*log.lock().unwrap(), [4, 3]);
        assert!(queue.is_empty());
    }

    #[test]
    fn cancelled_top_does_not_hide_live_tasks() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let (log, task) = recorder();
        let first = worker.schedule(task(1));
        worker.schedule(task(2));
        first.dispose();
        assert!(!queue.is_empty());
        drain(&queue);
        assert_eq!(*log.lock().unwrap(), [2]);
    }

    #[test]
    fn closing_drops_queued_tasks() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let handle = worker.schedule_after(Duration::from_secs(3600), || Reschedule::Done);
        queue.close();
        assert!(handle.is_disposed());
        assert_eq!(queue.dispatch(true), Dispatch::Closed);
        assert!(worker.schedule(|| Reschedule::Done).is_disposed());
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::sync::thread;

    fn counting_task(
        count: &Arc<AtomicUsize>,
        runs: usize,
    ) -> impl FnMut() -> Reschedule + Send + use<> {
        let count = count.clone();
        let mut left = runs;
        move || {
            count.fetch_add(1, Ordering::SeqCst);
            left -= 1;
            if left == 0 {
                Reschedule::Done
            } else {
                Reschedule::After(Duration::ZERO)
            }
        }
    }

    /// A driver blocked on a far-future top is woken by an earlier push and runs it (the
    /// re-arm rule: a driver that kept waiting on its first deadline would deadlock here,
    /// since loom's timed wait never times out).
    #[test]
    fn loom_earlier_push_rearms_the_driver() {
        loom::model(|| {
            let queue = Queue::wall();
            let worker = Queue::worker(&queue, Owner::Driven);
            let count = Arc::new(AtomicUsize::new(0));
            worker.schedule_after(Duration::from_secs(3600), counting_task(&count, 1));
            let q = queue.clone();
            let driver = thread::spawn(move || assert_eq!(q.dispatch(true), Dispatch::Ran));
            let w = worker.clone();
            let c = count.clone();
            let pusher = thread::spawn(move || {
                w.schedule(counting_task(&c, 1));
            });
            pusher.join().unwrap();
            driver.join().unwrap();
            assert_eq!(count.load(Ordering::SeqCst), 1);
            queue.close();
        });
    }

    /// Cancelling races with running and rescheduling: the task is dropped exactly once,
    /// runs at most as often as asked, and never runs after `dispose` returned.
    #[test]
    fn loom_cancel_races_with_run() {
        loom::model(|| {
            let queue = Queue::wall();
            let worker = Queue::worker(&queue, Owner::Driven);
            let count = Arc::new(AtomicUsize::new(0));
            let handle = worker.schedule(counting_task(&count, 2));
            let q = queue.clone();
            let driver = thread::spawn(move || while q.dispatch(false) == Dispatch::Ran {});
            handle.dispose();
            let after_dispose = count.load(Ordering::SeqCst);
            driver.join().unwrap();
            assert!(handle.is_disposed());
            let total = count.load(Ordering::SeqCst);
            assert!(total <= 2);
            // At most the run in progress during `dispose` completes after it.
            assert!(total <= after_dispose + 1);
            assert!(queue.is_empty());
            // The task (which holds a clone of `count`) is dropped, though a handle remains.
            assert_eq!(Arc::strong_count(&count), 1);
            queue.close();
        });
    }

    /// Cancelling the top a driver waits on leaves it waiting (it is late for nothing); the
    /// earlier task pushed next wakes it, and it runs that one, dropping the tombstone on its
    /// way if it sees it first.
    #[test]
    fn loom_cancelled_top_leaves_the_driver_to_the_next_push() {
        loom::model(|| {
            let queue = Queue::wall();
            let worker = Queue::worker(&queue, Owner::Driven);
            let count = Arc::new(AtomicUsize::new(0));
            let far = worker.schedule_after(Duration::from_secs(3600), counting_task(&count, 1));
            let q = queue.clone();
            let driver = thread::spawn(move || q.dispatch(true));
            far.dispose();
            worker.schedule(counting_task(&count, 1));
            assert_eq!(driver.join().unwrap(), Dispatch::Ran);
            assert_eq!(count.load(Ordering::SeqCst), 1);
            queue.close();
        });
    }

    /// Disposing a worker while its task runs and reschedules leaves nothing queued.
    #[test]
    fn loom_dispose_worker_races_with_reschedule() {
        loom::model(|| {
            let queue = Queue::wall();
            let worker = Queue::worker(&queue, Owner::Driven);
            let count = Arc::new(AtomicUsize::new(0));
            let handle = worker.schedule(counting_task(&count, 3));
            let q = queue.clone();
            let driver = thread::spawn(move || q.dispatch(false));
            worker.dispose();
            driver.join().unwrap();
            assert!(handle.is_disposed());
            assert!(queue.is_empty());
            assert_eq!(Arc::strong_count(&count), 1);
            assert_eq!(queue.dispatch(false), Dispatch::Idle);
            queue.close();
        });
    }

    /// Compaction (triggered by cancelling) races with disposing the worker: the disposed
    /// worker's live task is dropped whichever of the two takes it out of the heap.
    #[test]
    fn loom_compaction_races_with_worker_dispose() {
        loom::model(|| {
            let queue = Queue::wall();
            let worker = Queue::worker(&queue, Owner::Driven);
            let count = Arc::new(AtomicUsize::new(0));
            let far = Duration::from_secs(3600);
            let first = worker.schedule_after(far, counting_task(&count, 1));
            let second = worker.schedule_after(far, counting_task(&count, 1));
            // Its handle is kept, so only cancelling can drop the task before the model ends.
            let third = worker.schedule_after(far, counting_task(&count, 1));
            first.dispose();
            let w = worker.clone();
            let disposer = thread::spawn(move || w.dispose());
            // Two tombstones out of three entries: this cancel compacts the heap.
            second.dispose();
            disposer.join().unwrap();
            assert!(third.is_disposed());
            assert_eq!(Arc::strong_count(&count), 1);
            queue.close();
        });
    }

    /// Closing wakes a blocked driver.
    #[test]
    fn loom_close_wakes_the_driver() {
        loom::model(|| {
            let queue = Queue::wall();
            let q = queue.clone();
            let driver = thread::spawn(move || q.dispatch(true));
            queue.close();
            assert_eq!(driver.join().unwrap(), Dispatch::Closed);
        });
    }
}
