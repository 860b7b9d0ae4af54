//! The timed queue shared by [`NewThread`](super::NewThread), [`ThreadPool`](super::ThreadPool),
//! [`RunLoop`](super::RunLoop) and [`TestScheduler`](super::TestScheduler).
//!
//! # Algorithm
//!
//! [Keys](super::keys) ordered by `(due, seq)` (a first-in first-out lane for keys due in the
//! order they are pushed, a binary heap for the others) and a slab of the tasks they name,
//! behind one lock, with a condition variable for whoever drives the queue (a worker thread,
//! or a user calling [`RunLoop::dispatch`](super::RunLoop::dispatch)).
//!
//! - **No allocation per task.** A task is kept by value in a slot of the queue's
//!   [slab](super::slab) (boxed only when it is larger than three words, see
//!   [`ErasedTask`]), with the index of its worker in the queue's table of workers with
//!   tasks, which holds one reference per worker rather than one per task. Its handles name
//!   it by slot index and tag, the low half of the sequence number of its first push; so a
//!   slot vacated and filled again is not mistaken for the old task by a stale handle unless
//!   2^32 pushes came between (see `Slot::tag`). A handle's reference to the queue comes from
//!   a batch added ahead in one atomic operation (`State::prepaid`), so a schedule costs the
//!   lock's two atomic operations and, once in [`PREPAID_BATCH`] schedules, a third.
//! - **Identity by sequence number.** Every push takes the next `seq` from a counter, which
//!   both breaks ties first-in first-out and names the key: a key is live only while its slot
//!   still holds a queued task pushed with that `seq`. Nothing ever compares addresses, so a
//!   reused slot or allocation cannot be mistaken for the old top.
//! - **Waiting.** The driver looks at the *current* top under the lock: if it is due it pops
//!   it; if not, it waits on the condition variable until that top's due time, and looks again
//!   on every wake. A push that becomes the new top wakes a waiting driver, which re-arms on
//!   the earlier deadline; a push behind the top wakes nobody. No deadline outlives the wait
//!   it was computed for, and nothing spins.
//! - **Cancellation.** Disposing a handle takes the task out of its slot under the lock and
//!   drops it on the cancelling thread once the lock is released, so what it captured is
//!   freed before `dispose` returns; the slot goes back to the slab at once. The key stays
//!   behind as a tombstone of plain data, taken off at once when it is the first of the
//!   in-order lane, else popped when the driver reaches it (a driver never waits on a
//!   tombstone it can see, and one it waits on already is due no later than any live task).
//!   Keys are compacted when tombstones outnumber live tasks.
//! - **Memory of cancelled tasks.** A queue driven from outside gives it back at once: the
//!   slab frees the chunks that empty, and slab and keys shrink to a small fixed size when
//!   nothing is left. A queue with a thread of its own keeps it while it is being reused,
//!   and its driver gives it back once it finds it unused for [`KEEP_SPARE_FOR`] (see
//!   `State::keeps_spare`), so a burst of cancelled timers gives its memory back within a
//!   fraction of a second of going quiet.
//! - **Running.** The driver moves a due task out of its slot and runs it outside every lock,
//!   so it may schedule, cancel or dispose anything, itself included. The slot stays
//!   occupied meanwhile (a running task keeps its index), and a cancel that finds it empty
//!   marks it cancelled: the driver then drops the task when it returns instead of putting
//!   it back. A task put back at an instant before the one it was popped at (a periodic task
//!   behind its schedule) is put back at that one, behind the tasks that were due then, so
//!   that it cannot keep them waiting for as long as it stays behind.
//! - **Drops outside the lock.** Dropping a task or a worker may drop a worker, which may
//!   close its queue; so neither is ever dropped while the queue lock is held.
//!
//! The deciding step, [`State::next`], takes "now" from its caller, so the loom models in this
//! file check push, pop, cancellation and wake-ups without a clock.

// On wasm32 no queue has a thread of its own: what serves those is unused there.
#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

use super::counted::Counted;
use super::erased::{Boxed, ErasedTask};
use super::keys::{Key, Keys};
use super::slab::{KEPT_WHEN_EMPTY, Slab};
use super::{Reschedule, Task, Worker};
use crate::in_place::fits;
use crate::primitive::{Arc, AtomicBool, AtomicU64, AtomicUsize, Condvar, Mutex, Ordering};
use crate::subscription::Subscription;
use crate::time::Instant;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

/// The id of no task, held by a handle refused at birth: its slot half is `u32::MAX`, an
/// index the slab never gives (see [`Slab::insert`]).
const CANCELLED: u64 = u64::MAX;

/// What a task's handles name it by: its slot in the low half and its tag in the high half.
///
/// With the reference to its queue, a handle is then two words, returned in registers and
/// stored as two words. A third word would send it back through memory, to be copied in a
/// load the store buffer cannot forward, which stalls as `QueueWorker::enqueue` explains.
#[inline]
fn task_id(slot: u32, tag: u32) -> u64 {
    (u64::from(tag) << 32) | u64::from(slot)
}

/// The slot and the tag a task id names.
#[inline]
fn split_id(id: u64) -> (u32, u32) {
    // Lossless: the halves `task_id` joined.
    (id as u32, (id >> 32) as u32)
}

/// `WorkerCore::registered` of a worker with no task in the queue.
const NOT_REGISTERED: usize = usize::MAX;

/// Below this many tombstones the keys are never compacted, unless no live task is left.
/// Small under loom, so that the models reach compaction.
#[cfg(not(loom))]
const COMPACT_MIN: usize = 64;
#[cfg(loom)]
const COMPACT_MIN: usize = 2;

/// How long a queue driven by a thread of its own keeps memory its tasks no longer use (see
/// `State::keeps_spare`) before it gives it back.
pub(crate) const KEEP_SPARE_FOR: Duration = Duration::from_millis(250);

/// References to its queue a queue takes at once, to hand one to each new task handle (see
/// `State::prepaid`). Small under loom, so that the models take a second batch.
#[cfg(not(loom))]
const PREPAID_BATCH: usize = 64;
#[cfg(loom)]
const PREPAID_BATCH: usize = 2;

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

/// A task taken off the queue to run, with the time it was due. Its slot stays occupied
/// until [`Queue::run`] is done with it.
pub(crate) struct Entry {
    due: Instant,
    slot: u32,
    tag: u32,
    task: ErasedTask,
}

impl Entry {
    pub(crate) fn due(&self) -> Instant {
        self.due
    }
}

/// The instant a queue counts its keys' due times from, in signed nanoseconds: 8 bytes
/// rather than an `Instant`'s 16, which makes a key three words and a million timers 8 MB
/// lighter. The range, ±292 years around the queue's creation, holds every due time a
/// program can wait for; beyond it due times are clamped, and run first-in first-out.
#[derive(Clone, Copy)]
struct Epoch(Instant);

impl Epoch {
    #[inline]
    fn nanos(self, at: Instant) -> i64 {
        let nanos = |d: Duration| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX);
        match at.checked_duration_since(self.0) {
            Some(after) => nanos(after),
            None => -nanos(self.0 - at),
        }
    }

    #[inline]
    fn instant(self, nanos: i64) -> Instant {
        let offset = Duration::from_nanos(nanos.unsigned_abs());
        if nanos >= 0 {
            self.0.checked_add(offset).unwrap_or(self.0)
        } else {
            self.0.checked_sub(offset).unwrap_or(self.0)
        }
    }
}

/// `Slot::seq` of a task cancelled while it ran: above every `seq` a queue hands out.
const CANCELLED_WHILE_RUNNING: u64 = u64::MAX;

/// What an occupied slot of the slab holds: a queued task, or one being run.
struct Slot {
    /// The `seq` of the task's key while it is queued, the last one while it runs, or
    /// `CANCELLED_WHILE_RUNNING` once it was cancelled while it ran (its driver then drops
    /// it when it returns).
    seq: u64,
    /// Tells this task's handles from those of the slot's earlier tasks: the low half of the
    /// `seq` of its first push.
    ///
    /// Half a word, so that a handle is two words (see `task_id`): a stale handle names a
    /// later task of its slot only if that task was pushed a multiple of 2^32 pushes after
    /// its own, into the same slot, and the handle kept meanwhile (minutes of nothing but
    /// schedules on one queue), as slotmap's keys name a later value after 2^31 reuses.
    tag: u32,
    /// The worker's entry in the queue's table of workers with tasks.
    worker: u32,
    /// The task while it is queued; [empty](ErasedTask::empty) while the driver runs it.
    task: ErasedTask,
}

impl Slot {
    /// Whether this slot holds the task of the handles with `tag`, not cancelled.
    fn holds(&self, tag: u32) -> bool {
        self.tag == tag && self.seq != CANCELLED_WHILE_RUNNING
    }
}

/// A worker with tasks in the queue: the queue keeps it (and what its owner keeps: its
/// thread, its pool) alive while any of them may still run. One reference per worker, taken
/// when its first task is queued and let go of when its last one is done, rather than one per
/// task: a task costs the worker no atomic operation.
struct Registered {
    core: Arc<WorkerCore>,
    /// The worker's occupied slots.
    tasks: usize,
}

/// A task, and its worker if it was the last one, taken out of the queue to be dropped once
/// the lock is released: the task first, so that a worker whose last task this is ends after
/// what the task captured is gone.
pub(crate) struct Removed {
    task: ErasedTask,
    worker: Option<Arc<WorkerCore>>,
}

impl Removed {
    fn drop_outside_lock(self) {
        let Removed { task, worker } = self;
        drop(task);
        drop(worker);
    }
}

/// What the driver should do next.
pub(crate) enum Next {
    /// Run this entry's task now.
    Run(Entry),
    /// The top's worker was disposed (the removal of its tasks is on its way to the lock):
    /// drop it outside the lock and look again.
    Stale(Removed),
    /// Nothing is due: wait until this instant, or until woken if `None`.
    Wait(Option<Instant>),
    /// The queue is closed; the driver stops.
    Closed,
}

/// The part of a queue its lock protects.
pub(crate) struct State {
    epoch: Epoch,
    keys: Keys,
    slab: Slab<Slot>,
    /// The workers with tasks in `slab`.
    workers: Slab<Registered>,
    /// Queued tasks. Every one has exactly one key, so the other `keys.len() - queued` keys
    /// are tombstones.
    queued: usize,
    /// The next `seq`.
    next_seq: u64,
    /// Drivers waiting on the condition variable; a push only signals when one is.
    waiters: usize,
    closed: bool,
    /// References to the queue itself, added [`PREPAID_BATCH`] at a time in one atomic
    /// operation ([`Counted::add_unowned`]) and handed one to each new task handle under the
    /// lock. A handle needs one, and taking it with an atomic operation of its own would make
    /// every schedule wait for the stores before it (the new slot and key, in memory seldom
    /// in cache while a queue grows); `Arc`, which counts one reference per operation, would
    /// still cost one each (~2 ns a schedule). Given back when the queue closes, after which
    /// no handle is made.
    prepaid: usize,
    /// Whether the slab and the keys keep the memory that their tasks no longer use until
    /// the driver finds it unused for [`KEEP_SPARE_FOR`], rather than give it back at once:
    /// a burst of timers after a burst of cancellations then reuses pages already mapped,
    /// where faulting in the pages the allocator gave back to the system would cost more
    /// than the rest of each schedule. Only for queues with a thread of their own, which
    /// can wake to give the memory back; a queue driven from outside gives it back at once.
    keeps_spare: bool,
    /// When the driver looks again at kept memory, to give it back if nothing reused it
    /// meanwhile; `None` while none is kept.
    release_at: Option<Instant>,
}

impl State {
    fn new(epoch: Instant, keeps_spare: bool) -> Self {
        State {
            epoch: Epoch(epoch),
            keys: Keys::new(),
            slab: if keeps_spare {
                Slab::keeping()
            } else {
                Slab::new()
            },
            workers: Slab::new(),
            queued: 0,
            next_seq: 0,
            waiters: 0,
            closed: false,
            prepaid: 0,
            keeps_spare,
            release_at: None,
        }
    }

    fn next_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// Queues a new task, erased straight into its slot; returns its id and whether it is the
    /// new top.
    fn push_new<T: Task>(&mut self, due: Instant, core: &Arc<WorkerCore>, task: T) -> (u64, bool) {
        let seq = self.next_seq();
        // Relaxed: `registered` is only touched under the queue lock.
        let worker = match core.registered.load(Ordering::Relaxed) {
            NOT_REGISTERED => {
                let worker = self.workers.insert(Registered {
                    core: core.clone(),
                    tasks: 1,
                });
                core.registered.store(worker as usize, Ordering::Relaxed);
                worker
            }
            worker => {
                let worker = worker as u32;
                self.workers
                    .get_mut(worker)
                    .expect("a registered worker")
                    .tasks += 1;
                worker
            }
        };
        // Truncating: the tag is the low half.
        let tag = seq as u32;
        let slot = self.slab.insert(Slot {
            seq,
            tag,
            worker,
            task: ErasedTask::new(task),
        });
        (task_id(slot, tag), self.push_key(due, seq, slot))
    }

    /// Pushes the key of a task just put in its slot; whether it is the new top.
    fn push_key(&mut self, due: Instant, seq: u64, slot: u32) -> bool {
        self.queued += 1;
        let due = self.epoch.nanos(due);
        self.keys.push(Key { due, seq, slot })
    }

    /// Puts a task that ran and asks to run again back in its slot, unless it was cancelled
    /// meanwhile (or its worker disposed, or the queue closed): then hands it back.
    fn requeue(
        &mut self,
        due: Instant,
        slot: u32,
        tag: u32,
        task: ErasedTask,
    ) -> Result<bool, ErasedTask> {
        if self.closed {
            return Err(task);
        }
        let seq = self.next_seq;
        let Some(running) = self.slab.get_mut(slot) else {
            unreachable!("a running task keeps its slot")
        };
        // Acquire: pairs with `dispose`'s store, as in `schedule_at`.
        let disposed = || {
            self.workers
                .get(running.worker)
                .expect("a registered worker")
                .core
                .disposed
                .load(Ordering::Acquire)
        };
        if !running.holds(tag) || disposed() {
            return Err(task);
        }
        running.seq = seq;
        running.task = task;
        self.next_seq += 1;
        Ok(self.push_key(due, seq, slot))
    }

    /// Takes a task out of its slot, which becomes vacant.
    fn vacate(&mut self, slot: u32) -> Removed {
        let Slot { task, worker, .. } = self.slab.remove(slot);
        if !task.is_empty() {
            self.queued -= 1;
        }
        Removed {
            task,
            worker: unregister(&mut self.workers, worker),
        }
    }

    /// Whether the worker of `slot` was disposed.
    fn is_disposed(&self, slot: &Slot) -> bool {
        let worker = self.workers.get(slot.worker).expect("a registered worker");
        // Acquire: pairs with `dispose`'s store, so that a task seen disposed is seen so
        // along with what was done before it.
        worker.core.disposed.load(Ordering::Acquire)
    }

    /// The `seq` of the top key, live or not.
    fn top_seq(&self) -> Option<u64> {
        self.keys.peek().map(|key| key.seq)
    }

    /// The queued task a key names, unless the key is a tombstone.
    fn slot_of(&self, key: &Key) -> Option<&Slot> {
        queued_slot(&self.slab, key)
    }

    /// Decides what a driver does when it is `now`. Pure bookkeeping: it never waits and
    /// never drops a task.
    pub(crate) fn next(&mut self, now: Instant) -> Next {
        if self.closed {
            return Next::Closed;
        }
        let now = self.epoch.nanos(now);
        loop {
            let Some(top) = self.keys.peek() else {
                return Next::Wait(None);
            };
            let Some(slot) = self.slot_of(&top) else {
                // A tombstone: plain data, dropped here.
                self.keys.pop();
                continue;
            };
            if self.is_disposed(slot) {
                self.keys.pop();
                return Next::Stale(self.vacate(top.slot));
            }
            if top.due > now {
                return Next::Wait(Some(self.epoch.instant(top.due)));
            }
            self.keys.pop();
            self.queued -= 1;
            let running = self.slab.get_mut(top.slot).expect("a live key");
            let task = running.task.take();
            return Next::Run(Entry {
                due: self.epoch.instant(top.due),
                slot: top.slot,
                tag: running.tag,
                task,
            });
        }
    }

    /// Cancels the task `id`: takes it out if it is queued, marks it if it runs.
    fn cancel(&mut self, id: u64) -> Option<Removed> {
        let (slot, tag) = split_id(id);
        let found = self.slab.get_mut(slot).filter(|found| found.holds(tag))?;
        if found.task.is_empty() {
            // Running: its driver drops it when it returns.
            found.seq = CANCELLED_WHILE_RUNNING;
            return None;
        }
        let removed = self.vacate(slot);
        let slab = &self.slab;
        self.keys
            .pop_dead_front(|key| queued_slot(slab, key).is_some());
        self.maybe_compact();
        Some(removed)
    }

    /// The due time of the earliest task that is still live.
    fn first_live_due(&self) -> Option<Instant> {
        let live = |key: &&Key| {
            self.slot_of(key)
                .is_some_and(|slot| !self.is_disposed(slot))
        };
        let due = match self.keys.peek() {
            None => None,
            Some(top) if live(&&top) => Some(top.due),
            // The top is a tombstone; the earliest live task may be anywhere behind it.
            Some(_) => self.keys.iter().filter(live).map(|key| key.due).min(),
        };
        due.map(|due| self.epoch.instant(due))
    }

    /// Compacts when tombstones outnumber queued tasks, and there are enough of them to be
    /// worth it or no queued task is left; then, unless the queue keeps spare memory, gives
    /// back what the keys' buffers no longer need (cancellations in order leave no
    /// tombstone, but empty the buffers all the same).
    fn maybe_compact(&mut self) {
        let tombstones = self.keys.len() - self.queued;
        if tombstones > self.queued && (tombstones >= COMPACT_MIN || self.queued == 0) {
            self.compact();
        }
        if !self.keeps_spare {
            self.shrink_keys();
        }
    }

    /// Drops every tombstone key. Touches no task: the tombstones are told apart by their
    /// slots alone.
    fn compact(&mut self) {
        if self.queued == 0 {
            self.keys.clear();
        } else {
            let slab = &self.slab;
            self.keys.retain(|key| queued_slot(slab, key).is_some());
        }
    }

    /// Whether the keys' buffers are larger than [`State::shrink_keys`] leaves them.
    fn keys_hold_spare(&self) -> bool {
        let capacity = self.keys.capacity();
        if self.keys.is_empty() {
            capacity > KEPT_WHEN_EMPTY
        } else {
            capacity > 4 * self.keys.len().max(COMPACT_MIN)
        }
    }

    /// Gives back what the keys' buffers hold beyond room to grow; empty ones go back to a
    /// fixed small size, so that what an empty queue holds does not depend on its past.
    fn shrink_keys(&mut self) {
        if !self.keys_hold_spare() {
            return;
        }
        if self.keys.is_empty() {
            self.keys = Keys::with_capacity(KEPT_WHEN_EMPTY);
        } else {
            self.keys.shrink();
        }
    }

    /// Whether memory is kept that no task uses (see `keeps_spare`).
    fn holds_spare(&self) -> bool {
        self.slab.holds_spare() || self.keys_hold_spare()
    }

    /// For a queue that keeps spare memory, called by whoever just freed some on a thread
    /// other than the driver's: when no look at kept memory is planned yet, plans one and
    /// says whether to wake the driver, which may be waiting on a far deadline.
    fn plan_release(&mut self, now: impl FnOnce() -> Instant) -> bool {
        if !self.keeps_spare || self.release_at.is_some() || !self.holds_spare() {
            return false;
        }
        self.slab.take_reused();
        self.release_at = Some(now() + KEEP_SPARE_FOR);
        self.waiters > 0
    }

    /// Called by a driver about to wait: gives kept memory back if nothing reused it since
    /// the last look, [`KEEP_SPARE_FOR`] ago, and returns when to look again, if ever.
    fn release_if_unused(&mut self, now: Instant) -> Option<Instant> {
        if !self.keeps_spare {
            return None;
        }
        match self.release_at {
            None => {
                // Memory the driver freed itself: no one planned a look at it yet.
                self.plan_release(|| now);
            }
            Some(at) if now >= at => {
                if self.slab.take_reused() {
                    self.release_at = Some(now + KEEP_SPARE_FOR);
                } else {
                    self.slab.release();
                    self.shrink_keys();
                    self.release_at = None;
                }
            }
            _ => {}
        }
        self.release_at
    }

    /// Takes every queued task for which `cancel` holds out of the slab, to be dropped by
    /// the caller once the lock is released, and marks every such running task cancelled.
    fn extract(&mut self, mut cancel: impl FnMut(&Slot) -> bool) -> Vec<Removed> {
        let mut removed = Vec::new();
        let mut queued = 0;
        self.slab.extract(
            |slot| {
                if !cancel(slot) {
                    return false;
                }
                if slot.task.is_empty() {
                    slot.seq = CANCELLED_WHILE_RUNNING;
                    return false;
                }
                true
            },
            |Slot { task, worker, .. }| {
                queued += 1;
                let worker = unregister(&mut self.workers, worker);
                removed.push(Removed { task, worker });
            },
        );
        self.queued -= queued;
        self.maybe_compact();
        removed
    }
}

/// The queued task a key names in `slab`, unless the key is a tombstone.
fn queued_slot<'a>(slab: &'a Slab<Slot>, key: &Key) -> Option<&'a Slot> {
    slab.get(key.slot)
        .filter(|slot| slot.seq == key.seq && !slot.task.is_empty())
}

/// Counts a task of the worker `worker` done; gives back the queue's reference to the worker
/// when it was its last, to be dropped outside the lock.
fn unregister(workers: &mut Slab<Registered>, worker: u32) -> Option<Arc<WorkerCore>> {
    let registered = workers.get_mut(worker).expect("a registered worker");
    registered.tasks -= 1;
    if registered.tasks > 0 {
        return None;
    }
    let Registered { core, .. } = workers.remove(worker);
    core.registered.store(NOT_REGISTERED, Ordering::Relaxed);
    Some(core)
}

/// A timed queue: tasks ordered by due time behind a lock, and a condition variable for its
/// driver.
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
        Queue::with(clock, false)
    }

    fn with(clock: Clock, keeps_spare: bool) -> Self {
        let epoch = match &clock {
            Clock::Wall => Instant::now(),
            Clock::Virtual { start, .. } => *start,
        };
        Queue {
            state: Mutex::new(State::new(epoch, keeps_spare)),
            ready: Condvar::new(),
            clock,
            next_worker_id: AtomicU64::new(0),
            drivers: AtomicUsize::new(1),
        }
    }

    /// A queue on the wall clock, driven from outside.
    pub(crate) fn wall() -> Counted<Self> {
        Counted::new(Queue::new(Clock::Wall))
    }

    /// A queue on the wall clock for a thread of its own, which keeps spare memory for a
    /// while (see `State::keeps_spare`).
    pub(crate) fn for_thread() -> Counted<Self> {
        Counted::new(Queue::with(Clock::Wall, true))
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
    pub(crate) fn worker(queue: &Counted<Self>, owner: Owner) -> QueueWorker {
        QueueWorker {
            core: Arc::new(WorkerCore {
                // Relaxed: ids only need to be distinct.
                id: queue.next_worker_id.fetch_add(1, Ordering::Relaxed),
                queue: queue.clone(),
                disposed: AtomicBool::new(false),
                registered: AtomicUsize::new(NOT_REGISTERED),
                owner,
            }),
        }
    }

    /// Wakes a waiting driver when a push made a new top, so that it re-arms on the earlier
    /// deadline. A push behind the top needs nobody woken: the driver wakes for the top no
    /// later than this one is due.
    fn wake_if(&self, state: crate::primitive::MutexGuard<'_, State>, is_top: bool) {
        let wake = is_top && state.waiters > 0;
        drop(state);
        if wake {
            self.ready.notify_one();
        }
    }

    /// Cancels the task `id` from one of its handles: a queued task is taken out
    /// and dropped here, and the keys compacted if tombstones dominate them.
    ///
    /// A driver waiting on this very task is not woken: every live task is due no earlier
    /// than the top, so the driver, waking at the tombstone's due time, pops it and re-arms
    /// on the next one without being late for anything. Waking it at every cancel would cost
    /// a system call and a context switch per timer where timeouts are cancelled in the order
    /// they were set; what a tombstone holds meanwhile is its key, a few bytes of plain data.
    fn cancel(&self, id: u64) {
        let mut state = self.state.lock();
        let removed = state.cancel(id);
        let wake = removed.is_some() && state.plan_release(|| self.now());
        drop(state);
        if wake {
            self.ready.notify_one();
        }
        if let Some(removed) = removed {
            removed.drop_outside_lock();
        }
    }

    /// Whether the task `id` will never run again.
    fn is_done(&self, id: u64) -> bool {
        let (slot, tag) = split_id(id);
        self.state
            .lock()
            .slab
            .get(slot)
            .is_none_or(|found| !found.holds(tag))
    }

    /// Closes the queue: drivers stop, later pushes are refused, and every queued task is
    /// cancelled (its captures dropped here, outside the lock).
    pub(crate) fn close(queue: &Counted<Self>) {
        let mut state = queue.state.lock();
        state.closed = true;
        let removed = state.extract(|_| true);
        state.keys = Keys::new();
        let prepaid = std::mem::take(&mut state.prepaid);
        drop(state);
        queue.ready.notify_all();
        removed.into_iter().for_each(Removed::drop_outside_lock);
        // SAFETY: these references were added by `add_unowned` (`State::prepaid`) and were
        // taken by no handle; `queue` is one more.
        unsafe { Counted::drop_unowned(queue, prepaid) };
    }

    /// A reference to this queue for a new task handle, from the prepaid ones
    /// (`State::prepaid`), which the caller's lock on `state` guards; the queue is open.
    fn prepaid_ref(queue: &Counted<Self>, state: &mut State) -> Counted<Self> {
        debug_assert!(!state.closed);
        if state.prepaid == 0 {
            Counted::add_unowned(queue, PREPAID_BATCH);
            state.prepaid = PREPAID_BATCH;
        }
        state.prepaid -= 1;
        // SAFETY: takes over one of the references added above, which no one else owns.
        unsafe { Counted::from_raw(Counted::as_ptr(queue)) }
    }

    /// Removes and cancels every queued task of the worker `core`, which is already marked
    /// disposed.
    fn remove_worker(&self, core: &WorkerCore) {
        let mut state = self.state.lock();
        let worker = core.registered.load(Ordering::Relaxed);
        if worker == NOT_REGISTERED {
            return;
        }
        let removed = state.extract(|slot| slot.worker as usize == worker);
        let wake = state.plan_release(|| self.now());
        drop(state);
        if wake {
            self.ready.notify_one();
        }
        // The top may have been removed; the driver re-arms on its next wake, which is no
        // later than the removed top's due time, so no signal is needed for correctness.
        removed.into_iter().for_each(Removed::drop_outside_lock);
    }

    /// Runs the next due task. With `block`, waits for one (re-checking the top on every
    /// wake); without, returns [`Dispatch::Idle`] if none is due. A panic in the task unwinds
    /// from here with the queue consistent and no lock held.
    pub(crate) fn dispatch(&self, block: bool) -> Dispatch {
        let mut state = self.state.lock();
        let (entry, now) = loop {
            let now = self.now();
            match state.next(now) {
                Next::Run(entry) => break (entry, now),
                Next::Stale(removed) => {
                    // Dropping a worker may close a queue: never under the lock.
                    drop(state);
                    removed.drop_outside_lock();
                    state = self.state.lock();
                }
                Next::Closed => return Dispatch::Closed,
                Next::Wait(_) if !block => return Dispatch::Idle,
                Next::Wait(deadline) => self.wait(&mut state, deadline, now),
            }
        };
        // Another driver may be waiting on a deadline this pop made stale: pass it on.
        let pass_on = state.waiters > 0 && !state.keys.is_empty();
        drop(state);
        if pass_on {
            self.ready.notify_one();
        }
        self.run(entry, now);
        Dispatch::Ran
    }

    /// The sequence number the next push takes: a task queued from now on has one at least
    /// this large.
    pub(crate) fn next_seq(&self) -> u64 {
        self.state.lock().next_seq
    }

    /// Runs the earliest task if it is due at `now` and was queued (or last asked to run
    /// again) before the push numbered `limit`; otherwise returns [`Dispatch::Idle`]. Never
    /// waits. A driver that takes `limit` from [`next_seq`](Queue::next_seq) when it starts a
    /// turn then runs each task at most once in that turn, even one that asks to run again
    /// at a time already past.
    pub(crate) fn dispatch_queued_before(&self, now: Instant, limit: u64) -> Dispatch {
        let mut state = self.state.lock();
        let entry = loop {
            match state.keys.peek() {
                Some(top) if state.slot_of(&top).is_none() => {
                    // A tombstone: plain data, dropped here.
                    state.keys.pop();
                    continue;
                }
                Some(top) if top.seq >= limit => return Dispatch::Idle,
                _ => {}
            }
            match state.next(now) {
                Next::Run(entry) => break entry,
                Next::Stale(removed) => {
                    drop(state);
                    removed.drop_outside_lock();
                    state = self.state.lock();
                }
                Next::Closed => return Dispatch::Closed,
                Next::Wait(_) => return Dispatch::Idle,
            }
        };
        drop(state);
        self.run(entry, now);
        Dispatch::Ran
    }

    /// Waits until `deadline` (the top's due time, or forever if the queue is empty), or
    /// until a new top, a driver's pop or closing wakes it. Woken otherwise (to plan giving
    /// kept memory back, or spuriously) while the top is still the one it waited for, it
    /// waits on: the deadline stands, and looking at the queue again would pop the
    /// tombstones a burst of cancellations leaves at its top, under the lock the cancelling
    /// thread needs.
    fn wait(
        &self,
        state: &mut crate::primitive::MutexGuard<'_, State>,
        deadline: Option<Instant>,
        mut now: Instant,
    ) {
        let top = state.top_seq();
        loop {
            let until = match state.release_if_unused(now) {
                Some(at) => Some(deadline.map_or(at, |due| due.min(at))),
                None => deadline,
            };
            state.waiters += 1;
            match until {
                Some(until) => {
                    self.ready.wait_until(state, until);
                }
                None => self.ready.wait(state),
            }
            state.waiters -= 1;
            now = self.now();
            if state.closed || state.top_seq() != top || deadline.is_some_and(|due| now >= due) {
                return;
            }
        }
    }

    /// Pops the first live task due at `now`, without waiting (for virtual time).
    pub(crate) fn pop_due(&self, now: Instant) -> Option<Entry> {
        loop {
            let mut state = self.state.lock();
            match state.next(now) {
                Next::Run(entry) => return Some(entry),
                Next::Stale(removed) => {
                    drop(state);
                    removed.drop_outside_lock();
                }
                Next::Wait(_) | Next::Closed => return None,
            }
        }
    }

    /// Runs a popped entry and queues it again if it asks to be; otherwise (or if it was
    /// cancelled while it ran) drops it and frees its slot.
    ///
    /// `now` is the instant it was popped at. A task that asks to run again at an instant
    /// before it (a periodic task that fell behind, each run longer than its period) is
    /// queued at `now`: behind every task that was due when it was popped, rather than
    /// ahead of them for as long as it stays behind, which would be for ever.
    pub(crate) fn run(&self, entry: Entry, now: Instant) {
        let Entry {
            slot, tag, task, ..
        } = entry;
        // Declared before the task, so that a task that unwinds is dropped before its slot
        // lets go of the worker.
        let finish = Finish { queue: self, slot };
        let mut task = task;
        let next = task.run();
        let due = match next {
            Reschedule::Done => {
                // Dropped before the worker is let go of, so that a worker whose last task
                // this is ends after what the task captured is gone.
                drop(task);
                drop(finish);
                return;
            }
            Reschedule::At(due) => due.max(now),
            Reschedule::After(delay) => self.now() + delay,
        };
        let mut state = self.state.lock();
        match state.requeue(due, slot, tag, task) {
            Ok(is_top) => {
                std::mem::forget(finish);
                self.wake_if(state, is_top);
            }
            Err(task) => {
                drop(state);
                drop(task);
                drop(finish);
            }
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
    pub(crate) fn remove_driver(queue: &Counted<Self>) {
        // AcqRel: as for `Arc`'s drop, the last handle must see everything the others did.
        if queue.drivers.fetch_sub(1, Ordering::AcqRel) == 1 {
            Queue::close(queue);
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

/// Frees the slot of a task that ran and is not queued again (it finished, was cancelled,
/// or unwound), letting go of its worker outside the lock.
struct Finish<'a> {
    queue: &'a Queue,
    slot: u32,
}

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        let removed = self.queue.state.lock().vacate(self.slot);
        removed.drop_outside_lock();
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
#[cfg(any(not(target_arch = "wasm32"), doc))]
pub(crate) fn spawn_thread(queue: Counted<Queue>, name: String) {
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
    /// while the worker has handles or unfinished tasks.
    Pool(#[allow(dead_code)] Arc<Lifeline>),
    /// The queue is driven from outside (run loop, test scheduler).
    Driven,
}

/// Closes a pool's queues, stopping its threads, when the pool, all its workers and all
/// their tasks are gone.
pub(crate) struct Lifeline {
    pub(crate) queues: Box<[Counted<Queue>]>,
}

impl Drop for Lifeline {
    fn drop(&mut self) {
        for queue in self.queues.iter() {
            Queue::close(queue);
        }
    }
}

/// The state of one worker, shared by its handles and, while it has unfinished tasks, by its
/// queue (see `Registered`): when the last of them goes, nothing can ever be scheduled or run on this worker again, so
/// what keeps its thread (or its pool) going is released. (A task's handle names its queue,
/// not its worker: the handle of a finished task keeps no thread.)
pub(crate) struct WorkerCore {
    /// Tells workers apart in `Debug` output.
    id: u64,
    queue: Counted<Queue>,
    /// Set once by `dispose`. Release/Acquire so a task that sees it also sees the disposal.
    disposed: AtomicBool,
    /// The worker's entry in its queue's table of workers with tasks, or `NOT_REGISTERED`
    /// when it has none (then `dispose` has no slot to look for). Only touched under the
    /// queue lock, so Relaxed.
    registered: AtomicUsize,
    owner: Owner,
}

impl Drop for WorkerCore {
    fn drop(&mut self) {
        // A pool's lifeline goes with the core; a thread is told to stop.
        if let Owner::Thread = self.owner {
            Queue::close(&self.queue);
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
#[derive(Clone)]
pub struct QueueWorker {
    core: Arc<WorkerCore>,
}

impl Worker for QueueWorker {
    type TaskHandle = QueuedTask;

    /// Queues `task` in a slot of the queue: no allocation when it takes at most three words
    /// (one, for its box, otherwise). A reschedule reuses the slot.
    fn schedule_at<T: Task>(&self, due: Instant, task: T) -> QueuedTask {
        // Boxed before the lock is taken; either way it is erased under the lock, straight
        // into its slot (see `QueueWorker::enqueue`).
        if fits::<T>() {
            self.enqueue(due, task)
        } else {
            self.enqueue(due, Boxed(Box::new(task)))
        }
    }

    #[inline]
    fn now(&self) -> Instant {
        self.core.queue.now()
    }
}

impl QueueWorker {
    /// Queues a task that fits in place. It is erased only once its slot is known, so that
    /// it is written there once rather than built on the stack and copied: a copy loads in
    /// wide words what was stored in narrow ones, which the store buffer cannot forward, so
    /// the load waits for every store before it, the last schedule's slot and key among
    /// them, in memory seldom in cache while a queue grows (~5 ns per schedule).
    #[inline(always)]
    fn enqueue<T: Task>(&self, due: Instant, task: T) -> QueuedTask {
        let core = &self.core;
        let mut state = core.queue.state.lock();
        // Checked under the lock: `dispose` sets `disposed` before it takes the lock to
        // remove the worker's tasks, so either it sees this task or this sees the flag.
        if state.closed || core.disposed.load(Ordering::Acquire) {
            drop(state);
            drop(task);
            return QueuedTask {
                queue: core.queue.clone(),
                id: CANCELLED,
            };
        }
        let queue = Queue::prepaid_ref(&core.queue, &mut state);
        let (id, is_top) = state.push_new(due, core, task);
        queue.wake_if(state, is_top);
        QueuedTask { queue, id }
    }
}

impl Subscription for QueueWorker {
    fn dispose(&self) {
        let core = &self.core;
        if core.disposed.swap(true, Ordering::AcqRel) {
            return;
        }
        match core.owner {
            Owner::Thread => Queue::close(&core.queue),
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
///
/// It names the task by its slot in the queue and a tag (see `Slot::tag`), so it holds
/// nothing of the task: a cancelled or finished task is gone whatever handles are left.
#[derive(Clone)]
pub struct QueuedTask {
    queue: Counted<Queue>,
    /// See `task_id`.
    id: u64,
}

#[cfg(test)]
impl QueuedTask {
    fn slot(&self) -> u32 {
        split_id(self.id).0
    }
}

impl Subscription for QueuedTask {
    fn dispose(&self) {
        if self.id != CANCELLED {
            self.queue.cancel(self.id);
        }
    }

    /// `true` once the task is done, cancelled, panicked, or its worker was disposed.
    fn is_disposed(&self) -> bool {
        self.id == CANCELLED || self.queue.is_done(self.id)
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
    use crate::schedulers::slab::CHUNK;
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

    /// A task too large to sit in its slot is boxed (before the lock is taken) and still runs,
    /// reschedules and is dropped on cancel like one in place.
    #[test]
    fn a_task_larger_than_a_slot_holds_runs_and_is_dropped() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let log = Arc::new(StdMutex::new(Vec::new()));
        let large = |n: u64, runs: usize| {
            let log = log.clone();
            let words = [n; 8];
            let mut left = runs;
            move || {
                log.lock().unwrap().push(words.iter().sum::<u64>());
                left -= 1;
                if left == 0 {
                    Reschedule::Done
                } else {
                    Reschedule::After(Duration::ZERO)
                }
            }
        };
        assert!(
            !fits::<[u64; 8]>(),
            "the task must be too large to sit in place"
        );
        worker.schedule(large(1, 2));
        let cancelled = worker.schedule_after(Duration::from_secs(3600), large(100, 1));
        assert_eq!(Arc::strong_count(&log), 3);
        cancelled.dispose();
        assert_eq!(Arc::strong_count(&log), 2);
        drain(&queue);
        assert_eq!(*log.lock().unwrap(), [8, 8]);
        assert_eq!(Arc::strong_count(&log), 1);
        assert!(queue.is_empty());
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
    fn rescheduling_reuses_the_slot() {
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
            if runs < 5 {
                let state = queue.state.lock();
                assert_eq!(state.slab.len(), 1);
                assert!(
                    state
                        .slab
                        .get(handle.slot())
                        .is_some_and(|s| s.holds(split_id(handle.id).1))
                );
            }
        }
        assert_eq!(runs, 5);
        assert!(handle.is_disposed());
        assert_eq!(queue.state.lock().slab.len(), 0);
    }

    #[test]
    fn the_queue_holds_one_reference_per_worker_with_tasks() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let far = Duration::from_secs(3600);
        assert_eq!(Arc::strong_count(&worker.core), 1);
        let handles: Vec<QueuedTask> = (0..3)
            .map(|_| worker.schedule_after(far, || Reschedule::Done))
            .collect();
        assert_eq!(Arc::strong_count(&worker.core), 2);
        handles[0].dispose();
        handles[1].dispose();
        assert_eq!(Arc::strong_count(&worker.core), 2);
        handles[2].dispose();
        assert_eq!(Arc::strong_count(&worker.core), 1);
        assert_eq!(queue.state.lock().workers.len(), 0);
        // A handle holds the queue, not the worker (a reference taken ahead for it).
        let prepaid = queue.state.lock().prepaid;
        assert_eq!(Counted::count(&queue), 2 + handles.len() + prepaid);
    }

    #[test]
    fn references_taken_ahead_for_handles_are_given_back_on_close() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let far = Duration::from_secs(3600);
        let handles: Vec<QueuedTask> = (0..PREPAID_BATCH + 1)
            .map(|_| worker.schedule_after(far, || Reschedule::Done))
            .collect();
        // The queue itself, the worker's, the handles', and a second batch less one.
        assert_eq!(
            Counted::count(&queue),
            2 + handles.len() + PREPAID_BATCH - 1
        );
        Queue::close(&queue);
        assert_eq!(Counted::count(&queue), 2 + handles.len());
        // A closed queue makes no more: a refused handle holds a plain clone.
        let refused = worker.schedule(|| Reschedule::Done);
        assert!(refused.is_disposed());
        assert_eq!(Counted::count(&queue), 3 + handles.len());
        drop((handles, refused, worker));
        assert_eq!(Counted::count(&queue), 1);
    }

    #[test]
    fn a_panicking_task_frees_its_slot() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let count = Arc::new(AtomicUsize::new(0));
        let held = count.clone();
        let handle = worker.schedule(move || {
            let _ = &held;
            panic!("boom")
        });
        let ran = panic::catch_unwind(AssertUnwindSafe(|| queue.dispatch(false)));
        assert!(ran.is_err());
        assert!(handle.is_disposed());
        assert_eq!(Arc::strong_count(&count), 1);
        assert_eq!(Arc::strong_count(&worker.core), 1);
        let state = queue.state.lock();
        assert_eq!(
            (state.slab.len(), state.workers.len(), state.queued),
            (0, 0, 0)
        );
    }

    #[test]
    fn due_times_before_the_queue_was_made_keep_their_order() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let (log, task) = recorder();
        let epoch = queue.state.lock().epoch.0;
        let before = |ms| {
            epoch
                .checked_sub(Duration::from_millis(ms))
                .unwrap_or(epoch)
        };
        worker.schedule_at(before(1), task(3));
        worker.schedule_at(before(3), task(1));
        worker.schedule_at(before(2), task(2));
        drain(&queue);
        assert_eq!(*log.lock().unwrap(), [1, 2, 3]);
    }

    #[test]
    fn epoch_nanos_round_trip_and_clamp() {
        let start = Instant::now();
        let epoch = Epoch(start);
        let later = start + Duration::from_nanos(1_234_567_891);
        assert_eq!(epoch.nanos(later), 1_234_567_891);
        assert_eq!(epoch.instant(epoch.nanos(later)), later);
        assert_eq!(epoch.nanos(start), 0);
        if let Some(earlier) = start.checked_sub(Duration::from_nanos(42)) {
            assert_eq!(epoch.nanos(earlier), -42);
            assert_eq!(epoch.instant(-42), earlier);
        }
        // Beyond ±292 years: clamped, never wrapped.
        if let Some(far) = start.checked_add(Duration::from_secs(300 * 365 * 24 * 3600)) {
            assert_eq!(epoch.nanos(far), i64::MAX);
        }
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
        // The task held the slot of this test, which holds a handle of the task: what it
        // captured went when it was cancelled, so only the handle is left to drop.
        slot.lock().unwrap().take();
    }

    #[test]
    fn a_task_cancelled_while_it_runs_stays_cancelled_when_its_worker_goes_too() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let slot: Arc<StdMutex<Option<QueuedTask>>> = Arc::default();
        let s = slot.clone();
        let w = worker.clone();
        let handle = worker.schedule(move || {
            let own = s.lock().unwrap().clone().unwrap();
            own.dispose();
            assert!(own.is_disposed());
            // Marks the running task cancelled a second time, from the worker's side.
            w.dispose();
            assert!(own.is_disposed());
            own.dispose();
            assert!(own.is_disposed());
            Reschedule::After(Duration::ZERO)
        });
        *slot.lock().unwrap() = Some(handle.clone());
        assert_eq!(queue.dispatch(false), Dispatch::Ran);
        assert!(handle.is_disposed());
        let state = queue.state.lock();
        assert_eq!((state.slab.len(), state.keys.len()), (0, 0));
        drop(state);
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
        assert!(state.keys.len() <= COMPACT_MIN + 1);
        assert_eq!(state.queued, 1);
        assert_eq!(state.slab.len(), 1);
        drop(state);
        assert!(!live.is_disposed() && !queue.is_empty());
    }

    /// A task that holds a clone of `count`.
    fn holding(count: &Arc<AtomicUsize>) -> impl FnMut() -> Reschedule + Send + use<> {
        let count = count.clone();
        move || {
            count.fetch_add(1, Ordering::SeqCst);
            Reschedule::Done
        }
    }

    #[test]
    fn cancelling_lets_go_of_the_task_at_once() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let far = Duration::from_secs(3600);
        let count = Arc::new(AtomicUsize::new(0));
        let _live = worker.schedule_after(far, || Reschedule::Done);
        let handle = worker.schedule_after(far, holding(&count));
        assert_eq!(Arc::strong_count(&count), 2);
        handle.dispose();
        assert_eq!(Arc::strong_count(&count), 1);
        assert!(handle.is_disposed());
        // Its slot is free again; its key is a tombstone until the driver or a compaction
        // reaches it.
        let state = queue.state.lock();
        assert_eq!(state.slab.len(), 1);
        assert_eq!(state.keys.len(), 2);
    }

    #[test]
    fn a_burst_of_cancelled_timers_gives_the_buffers_back() {
        let queue = Queue::wall();
        let worker = Queue::worker(&queue, Owner::Driven);
        let far = Duration::from_secs(3600);
        let count = Arc::new(AtomicUsize::new(0));
        let handles: Vec<QueuedTask> = (0..64 * COMPACT_MIN)
            .map(|_| worker.schedule_after(far, holding(&count)))
            .collect();
        let live = worker.schedule_after(far, || Reschedule::Done);
        let full = queue.state.lock().slab.buffer_bytes();
        assert!(queue.state.lock().keys.capacity() >= 64 * COMPACT_MIN);
        for handle in &handles {
            handle.dispose();
        }
        let state = queue.state.lock();
        assert!(state.keys.len() <= COMPACT_MIN + 1);
        assert!(state.keys.capacity() <= 4 * COMPACT_MIN);
        // The first chunk and the live task's are left.
        assert!(state.slab.buffer_bytes() <= full / 4, "{full}");
        assert_eq!(state.queued, 1);
        drop(state);
        assert_eq!(Arc::strong_count(&count), 1);
        assert!(handles.iter().all(QueuedTask::is_disposed));
        assert!(!live.is_disposed() && !queue.is_empty());
        live.dispose();
        let state = queue.state.lock();
        assert_eq!(state.keys.capacity(), KEPT_WHEN_EMPTY);
        let empty = state.slab.buffer_bytes();
        drop(state);
        // What an empty queue holds does not depend on its past.
        worker.schedule_after(far, || Reschedule::Done).dispose();
        let state = queue.state.lock();
        assert_eq!(state.keys.capacity(), KEPT_WHEN_EMPTY);
        assert_eq!(state.slab.buffer_bytes(), empty);
    }

    #[test]
    fn a_queue_with_a_thread_keeps_cancelled_memory_until_nothing_reuses_it() {
        let keeping = Counted::new(Queue::with(Clock::Wall, true));
        let worker = Queue::worker(&keeping, Owner::Driven);
        let far = Duration::from_secs(3600);
        let burst = || -> Vec<QueuedTask> {
            (0..4 * CHUNK)
                .map(|_| worker.schedule_after(far, || Reschedule::Done))
                .collect()
        };
        let sizes = |queue: &Queue| {
            let state = queue.state.lock();
            (state.slab.buffer_bytes(), state.keys.capacity())
        };
        burst().iter().for_each(QueuedTask::dispose);
        let full = sizes(&keeping);
        let at = {
            let state = keeping.state.lock();
            assert!(state.holds_spare());
            state.release_at.expect("a look at the kept memory planned")
        };
        // A burst as large fits in what was kept.
        burst().iter().for_each(QueuedTask::dispose);
        assert_eq!(sizes(&keeping), full);
        let mut state = keeping.state.lock();
        // Before the planned time, nothing changes.
        assert_eq!(
            state.release_if_unused(at - Duration::from_millis(1)),
            Some(at)
        );
        // At it, the memory was reused since the plan: it is kept, and looked at later.
        let later = at + KEEP_SPARE_FOR;
        assert_eq!(state.release_if_unused(at), Some(later));
        drop(state);
        assert_eq!(sizes(&keeping), full);
        // Unused since: given back, to what a queue that keeps nothing holds when empty.
        assert_eq!(keeping.state.lock().release_if_unused(later), None);
        assert!(!keeping.state.lock().holds_spare());
        let giving = Queue::wall();
        let worker = Queue::worker(&giving, Owner::Driven);
        let handles: Vec<QueuedTask> = (0..4 * CHUNK)
            .map(|_| worker.schedule_after(far, || Reschedule::Done))
            .collect();
        handles.iter().for_each(QueuedTask::dispose);
        assert_eq!(sizes(&keeping), sizes(&giving));
        assert_eq!(sizes(&giving).1, KEPT_WHEN_EMPTY);
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
        let c = worker.schedule_at(t0, task(3));
        let d = worker.schedule_at(t0 - Duration::from_millis(1), task(4));
        assert_eq!(queue.state.lock().slab.len(), 2);
        assert!(
            [a.slot(), b.slot()].contains(&c.slot()) && [a.slot(), b.slot()].contains(&d.slot())
        );
        // A stale handle of a reused slot names nothing.
        assert!(a.is_disposed() && b.is_disposed());
        a.dispose();
        b.dispose();
        assert!(!c.is_disposed() && !d.is_disposed());
        drain(&queue);
        assert_eq!(*log.lock().unwrap(), [4, 3]);
        assert!(queue.is_empty());
        assert!(c.is_disposed() && d.is_disposed());
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
        Queue::close(&queue);
        assert!(handle.is_disposed());
        assert_eq!(queue.dispatch(true), Dispatch::Closed);
        assert!(worker.schedule(|| Reschedule::Done).is_disposed());
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::primitive::thread;
    use crate::schedulers::slab::CHUNK;

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
            Queue::close(&queue);
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
            Queue::close(&queue);
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
            Queue::close(&queue);
        });
    }

    /// In a queue that keeps spare memory, a cancel that empties a chunk wakes the driver
    /// waiting on a far top, to plan giving the memory back; the driver waits on, and the
    /// earlier push that follows still wakes it and runs (neither wake is lost to the other).
    #[test]
    fn loom_a_planned_release_loses_no_wake() {
        loom::model(|| {
            let queue = Counted::new(Queue::with(Clock::Wall, true));
            let worker = Queue::worker(&queue, Owner::Driven);
            let count = Arc::new(AtomicUsize::new(0));
            let far = Duration::from_secs(3600);
            let handles: Vec<QueuedTask> = (0..2 * CHUNK)
                .map(|_| worker.schedule_after(far, counting_task(&count, 1)))
                .collect();
            let q = queue.clone();
            let driver = thread::spawn(move || q.dispatch(true));
            // The second chunk empties: its buffer is kept, and a release is planned.
            handles[CHUNK..].iter().for_each(QueuedTask::dispose);
            assert!(queue.state.lock().release_at.is_some());
            worker.schedule(counting_task(&count, 1));
            assert_eq!(driver.join().unwrap(), Dispatch::Ran);
            assert_eq!(count.load(Ordering::SeqCst), 1);
            Queue::close(&queue);
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
            Queue::close(&queue);
        });
    }

    /// Compaction (triggered by cancelling) races with disposing the worker: the disposed
    /// worker's live task is dropped whichever of the two takes it out of the queue.
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
            // Two tombstones out of three entries: this cancel compacts the keys.
            second.dispose();
            disposer.join().unwrap();
            assert!(third.is_disposed());
            assert_eq!(Arc::strong_count(&count), 1);
            Queue::close(&queue);
        });
    }

    /// A handle whose task was cancelled, disposed again while its slot is filled by a new
    /// task on another thread, never cancels the new one: handles name tasks by id.
    #[test]
    fn loom_stale_handle_never_cancels_a_reused_slot() {
        loom::model(|| {
            let queue = Queue::wall();
            let worker = Queue::worker(&queue, Owner::Driven);
            let count = Arc::new(AtomicUsize::new(0));
            let far = Duration::from_secs(3600);
            let stale = worker.schedule_after(far, counting_task(&count, 1));
            stale.dispose();
            let w = worker.clone();
            let c = count.clone();
            let scheduler = thread::spawn(move || w.schedule(counting_task(&c, 1)));
            stale.dispose();
            let fresh = scheduler.join().unwrap();
            assert_eq!(fresh.slot(), stale.slot());
            assert!(!fresh.is_disposed() && stale.is_disposed());
            assert_eq!(queue.dispatch(false), Dispatch::Ran);
            assert_eq!(count.load(Ordering::SeqCst), 1);
            Queue::close(&queue);
        });
    }

    /// A task cancelled from another thread while it runs and asks to run again is dropped
    /// by its driver, which frees its slot and lets go of its worker.
    #[test]
    fn loom_cancel_while_running_frees_the_slot() {
        loom::model(|| {
            let queue = Queue::wall();
            let worker = Queue::worker(&queue, Owner::Driven);
            let count = Arc::new(AtomicUsize::new(0));
            let handle = worker.schedule(counting_task(&count, 3));
            let h = handle.clone();
            let canceller = thread::spawn(move || h.dispose());
            queue.dispatch(false);
            canceller.join().unwrap();
            while queue.dispatch(false) == Dispatch::Ran {}
            assert!(handle.is_disposed());
            assert_eq!(Arc::strong_count(&count), 1);
            let state = queue.state.lock();
            assert_eq!((state.slab.len(), state.workers.len()), (0, 0));
            drop(state);
            Queue::close(&queue);
        });
    }

    /// Closing wakes a blocked driver.
    #[test]
    fn loom_close_wakes_the_driver() {
        loom::model(|| {
            let queue = Queue::wall();
            let q = queue.clone();
            let driver = thread::spawn(move || q.dispatch(true));
            Queue::close(&queue);
            assert_eq!(driver.join().unwrap(), Dispatch::Closed);
        });
    }

    /// A handle dropped on another thread while the queue closes and gives back the
    /// references it took ahead: the queue is freed once, by whichever lets go last (loom
    /// reports a leak or a double free otherwise).
    #[test]
    fn loom_handles_and_references_taken_ahead_free_the_queue_once() {
        loom::model(|| {
            let queue = Queue::wall();
            let worker = Queue::worker(&queue, Owner::Driven);
            let handle = worker.schedule_after(Duration::from_secs(3600), || Reschedule::Done);
            let dropper = thread::spawn(move || {
                handle.dispose();
                drop(handle);
            });
            Queue::close(&queue);
            drop((worker, queue));
            dropper.join().unwrap();
        });
    }
}
