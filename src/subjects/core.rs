//! The engine behind every subject: a registry of type-erased observers and the serialiser that
//! delivers to them, written once over a [`Flavour`] (see [`crate::sync`]): `Arc`, atomics and
//! a mutex for the thread-safe subjects, `Rc`, `Cell` and `RefCell` for the local ones.
//!
//! # Algorithm
//!
//! Queue-drain ("emitter loop"), as RxJava's `SerializedObserver` and its `wip` drain loops.
//! `wip` counts requests for the *delivery role*. Whoever moves it from zero holds the role and
//! is the only caller that touches `Delivery` (the observers and the replay state), until it
//! brings `wip` back to zero. Every other call — from another thread, or from inside an
//! observer's callback on the holder's own thread — records its event in the `Inbox` under a
//! short lock, increments `wip` and returns; the holder sees the increment when it tries to
//! leave, delivers what was recorded and tries again. Nobody ever waits for a delivery to end,
//! so a callback may call back into the subject, and two subjects feeding each other from two
//! threads cannot deadlock. On one thread (the local flavour) the same protocol is what queues
//! re-entrant calls; `wip` is then a `Cell` and the lock a `RefCell`, never borrowed while an
//! observer runs.
//!
//! The fast path, `on_next` when nobody is delivering, is one compare-exchange to take the role,
//! the calls, and one fetch-sub to give it back: no lock and no allocation (and, in the local
//! flavour, no atomic operation). The inbox lock is never held while an observer runs.
//!
//! Subscribing when nobody is delivering takes the role and registers the observer at once;
//! otherwise it goes through the inbox, so it is ordered with the events around it: the new
//! observer is registered between two notifications, never during one. A terminal
//! notification does the same: delivered at once when it takes the role and finds nothing
//! recorded, recorded behind what is otherwise. Disposing marks the
//! subscription disposed in the inbox's table at once, and bumps `disposals`: the holder
//! compares it with what it last saw before each call to an observer, so an observer disposed
//! by a callback of the same delivery is not called again. Only a subscription's handle
//! disposes, so while no handle is alive the holder skips that comparison. The holder then drops the observer
//! and frees its key; until then the key is not reused, so the holder's table needs no ids.
//!
//! # Hand-over
//!
//! While other threads keep recording events, the holder could deliver their values forever,
//! and the call that made it the holder (an `on_next`, a `subscribe`) would never return. So
//! a holder that has delivered a batch of [`BATCH`] events recorded by others offers the role
//! (`handoff`: `NONE` → `WANTED`) and goes on delivering. The next thread that records a value
//! and finds the role held and offered claims it (`WANTED` → `CLAIMED`) and waits; the holder,
//! at its next step between two events, lets go (`CLAIMED` → `HANDED`, leaving its count of
//! unanswered requests in `handed`) and returns, and the claimer delivers in its place with a
//! fresh batch. The claimer waits for at most the one event being delivered. If nobody claims,
//! the holder drains until the inbox is empty, as before, and withdraws its offer
//! (`WANTED` → `NONE`) before it gives the role up, answering a claim that came in meanwhile
//! by handing over; no value is ever left behind, and no caller ever waits for the queue to
//! shrink. Between the offer and its end the inbox is as before: events are recorded without
//! waiting, so the uncontended path is unchanged (one compare-exchange in, one fetch-sub out).
//!
//! Waiting is what could deadlock, so it is bounded twice. A thread never claims while it
//! holds an offered role itself (a thread-local count, [`OFFERS`]): that covers a callback
//! calling back into its own subject, and two subjects feeding each other from two threads,
//! since a thread that waits holds no offered role and so is never waited for. And a claimer
//! gives its claim up (`CLAIMED` → `WANTED`) after [`PATIENCE`], so a callback that blocks on
//! something the claimer holds (a lock of the user's around its `on_next`) delays the claimer
//! instead of deadlocking it. The local flavour, on one thread, never offers.

use super::sink::ErasedSink;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Ordering;
use crate::schedulers::Scheduler;
use crate::subscription::Subscription;
use crate::sync::imp::{Counter, Flag, Lock, RoleCell};
use crate::sync::{Flavour, Local, Shared};
use crate::time::Instant;
use smallvec::SmallVec;
use std::collections::VecDeque;
use std::fmt;
use std::mem;
use std::time::Duration;

/// A place in the observer table: an observer, or nothing ([`ErasedSink::vacant`]). Not an
/// `Option`: the broadcast loop calls every slot as it is, without a test for the empty ones
/// in between.
type Slot<T> = ErasedSink<T>;

/// The observers a subject of flavour `Self` can keep: any for [`Local`], `Send` ones for
/// [`Shared`]. The only place observers are erased into a subject.
#[diagnostic::on_unimplemented(
    message = "a subject of flavour `{Self}` cannot keep an observer of type `{O}`",
    label = "this observer is not `Send`, or does not accept `{T}`",
    note = "a thread-safe subject (`rx::subjects::PublishSubject` and the others) keeps only `Send + 'static` observers; on one thread, use the same subject from `rx::subjects::local`, which keeps any"
)]
pub trait Accepts<T, O>: Flavour {
    #[doc(hidden)]
    fn erase(observer: O) -> ErasedSink<T>;
}

impl<T: Clone, O: Observer<T> + Send + 'static> Accepts<T, O> for Shared {
    #[inline]
    fn erase(observer: O) -> ErasedSink<T> {
        ErasedSink::new(observer)
    }
}

impl<T: Clone, O: Observer<T> + 'static> Accepts<T, O> for Local {
    #[inline]
    fn erase(observer: O) -> ErasedSink<T> {
        ErasedSink::new(observer)
    }
}

/// A scheduler's clock, type-erased so `ReplaySubject` needs no scheduler type parameter.
trait Clock: Send + Sync {
    fn now(&self) -> Instant;
}

impl<S: Scheduler> Clock for S {
    fn now(&self) -> Instant {
        Scheduler::now(self)
    }
}

/// What a subject does with values besides passing them on.
pub(crate) enum Kind<T> {
    Publish,
    /// The latest value: the initial one until the first `on_next`; twice, as the delivery
    /// role and [`SubjectCore::latest`] each keep one.
    Behavior {
        initial: T,
        latest: T,
    },
    Replay(ReplayConfig),
    Async,
}

/// How much a `ReplaySubject` keeps. Immutable, so it can live outside the delivery role.
pub(crate) struct ReplayConfig {
    capacity: usize,
    window: Option<(Duration, std::sync::Arc<dyn Clock>)>,
}

impl ReplayConfig {
    pub(crate) fn unbounded() -> Self {
        ReplayConfig {
            capacity: usize::MAX,
            window: None,
        }
    }

    pub(crate) fn with_capacity(capacity: usize) -> Self {
        ReplayConfig {
            capacity,
            window: None,
        }
    }

    pub(crate) fn with_window<S: Scheduler>(capacity: usize, age: Duration, scheduler: S) -> Self {
        // A plain `std` `Arc`: the clock is immutable configuration, not state loom must model,
        // and loom's `Arc` cannot hold a trait object.
        ReplayConfig {
            capacity,
            window: Some((age, std::sync::Arc::new(scheduler))),
        }
    }

    fn same(&self) -> Self {
        ReplayConfig {
            capacity: self.capacity,
            window: self.window.clone(),
        }
    }

    /// Whether a value recorded at `at` is too old to replay at `now`: RxJava keeps a value
    /// while its age is strictly below the window.
    fn is_stale(age: Duration, at: Instant, now: Instant) -> bool {
        now.saturating_duration_since(at) >= age
    }
}

/// The state of a subject, shared by every handle to it; `F` says how (see [`crate::sync`]).
///
/// In this order (`repr(C)`): what `on_next` reads on its way to one subscriber (`wip`,
/// `plain`, then the first slot of `delivery`) shares the cache line of the pointer's counts.
#[repr(C)]
pub(crate) struct SubjectCore<T, F: Flavour> {
    /// Requests for the delivery role; nonzero while a caller holds it. See the module docs.
    wip: F::Counter,
    /// `true` while the subject passes values on and keeps none (a `PublishSubject` that has
    /// not terminated), and no holder of the role has unwound: one load tells `on_next` it may
    /// go straight to the subscribers.
    plain: F::Flag,
    /// Owned by the caller holding the delivery role.
    delivery: F::RoleCell<Delivery<T>>,
    /// What other threads and re-entrant calls hand to the holder; never held while an
    /// observer runs.
    inbox: F::Lock<Inbox<T>>,
    /// Bumped (under the inbox lock) by every disposal; the holder compares it with the count it
    /// last saw before each call to an observer, so a disposed observer is not called again.
    disposals: F::Counter,
    /// Set (under the inbox lock) when the first terminal notification is accepted: later
    /// notifications are ignored, and `SubjectObserver::is_disposed` reads it.
    terminated: F::Flag,
    /// Whether `Inbox::latest` is kept (a `BehaviorSubject`).
    keeps_latest: bool,
    /// Kept outside the delivery role so a fresh subject of the same shape can be made from any
    /// thread.
    replay: Option<ReplayConfig>,
    /// Where the hand-over of the delivery role stands: [`NONE`], [`WANTED`], [`CLAIMED`] or
    /// [`HANDED`]; see "Hand-over" in the module docs. Only the holder moves it from `NONE` and
    /// from `CLAIMED` to `HANDED`; only a claimer moves it from `WANTED` and back to it.
    handoff: F::Counter,
    /// The requests for the role that the holder leaves to its successor: the successor's
    /// `missed`. Written before the Release that hands the role over, read after the Acquire
    /// that sees it.
    handed: F::Counter,
}

/// Nobody offers the role.
const NONE: usize = 0;
/// The holder has delivered its batch and offers the role to the next thread that records a
/// value.
const WANTED: usize = 1;
/// A thread that recorded a value has claimed the role and waits for the holder to let go.
const CLAIMED: usize = 2;
/// The holder has let go: the claimer holds the role.
const HANDED: usize = 3;

/// How many events recorded by others a holder delivers before it offers the role: enough
/// that a wait of one event's delivery per hand-over is small beside the batch. None under
/// loom, so the models meet the hand-over within their bound on preemptions.
#[cfg(not(loom))]
const BATCH: usize = 64;
#[cfg(loom)]
const BATCH: usize = 0;

/// How long a claimer waits for the holder to let go before it gives its claim up. The holder
/// lets go after the event it is delivering, so this is only reached when that delivery is
/// itself stuck, as when its callback waits for a lock the claimer holds, or when the holder's
/// thread is kept off its core that long (the scheduler's time slices on a loaded machine are
/// a few milliseconds).
#[cfg(not(loom))]
const PATIENCE: Duration = Duration::from_millis(50);
/// Rounds of spin hints a claimer makes before it yields its thread, and rounds of yields
/// before it sleeps between looks: a claimer kept waiting by a holder that is off its core
/// leaves the core to it.
#[cfg(not(loom))]
const SPINS: u32 = 128;
#[cfg(not(loom))]
const YIELDS: u32 = 256;
/// A claimer's sleep between two looks, once it has yielded `YIELDS` times.
#[cfg(not(loom))]
const NAP: Duration = Duration::from_micros(50);
/// Rounds a claimer waits under loom (each a yield, which loom must see) before it gives up.
#[cfg(loom)]
const PATIENCE_ROUNDS: u32 = 2;

#[cfg(not(loom))]
std::thread_local! {
    /// How many delivery roles this thread holds with an offer outstanding; a thread claims a
    /// role only while this is zero (see "Hand-over" in the module docs).
    static OFFERS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(loom)]
loom::thread_local! {
    static OFFERS: std::cell::Cell<usize> = std::cell::Cell::new(0);
}

/// Counts how the models' executions went, so a model can check it met the hand-over.
#[cfg(loom)]
pub(crate) mod loom_counts {
    /// Roles handed over, over every execution of the process.
    pub(crate) static HANDED_OVER: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);
}

// SAFETY: `delivery` is the only field that is not `Sync`. It is accessed only by the thread
// holding the delivery role: the one that moved `wip` from zero with an Acquire read-modify-write,
// or was handed the role by an Acquire load of `HANDED` from `handoff`, until it moves `wip` back
// to zero with a Release read-modify-write or hands the role over with a Release one to
// `HANDED`, so accesses from successive holders are ordered by happens-before. Everything
// reached through it is `Send`: `T: Send`, and every sink of a shared core was erased by
// `Accepts<T, O> for Shared`, which requires `O: Send`.
unsafe impl<T: Send> Sync for SubjectCore<T, Shared> {}

// SAFETY: what keeps `SubjectCore<T, Shared>` from being `Send` automatically is its sinks, whose
// erased observers may not be `Send`; every one of them was erased by
// `Accepts<T, O> for Shared`, which requires `O: Send`. The rest is `Send` when `T` is.
unsafe impl<T: Send> Send for SubjectCore<T, Shared> {}

struct Inbox<T> {
    events: VecDeque<Event<T>>,
    /// Every subscription whose key is taken: key → id, with [`DISPOSED`] set once it was
    /// disposed. The key indexes `Delivery::slots`, and is freed only once the holder has
    /// emptied its slot, so a slot never holds an observer of another subscription than the
    /// key's and needs no id of its own. The id, never reused, tells a stale handle from the
    /// subscription that took its key over.
    live: Keys,
    /// How many entries of `live` are not disposed.
    live_count: usize,
    next_id: u64,
    /// Keys of disposed subscriptions whose observers the holder has not dropped yet.
    vacated: Vec<usize>,
    /// A `BehaviorSubject`'s current value, as of the last `on_next` accepted (not delivered:
    /// RxJava sets it before emitting); `None` after an error.
    latest: Option<T>,
}

/// Marks a disposed subscription's id in `Inbox::live`, until the holder frees its key.
const DISPOSED: u64 = 1 << 63;

/// What a free key of [`Keys`] holds: no id, as ids stay below [`DISPOSED`].
const VACANT: u64 = u64::MAX;

/// A slab of ids: a key per subscription, key 0 first when it is free, then the last freed
/// key.
///
/// Not `slab::Slab<u64>`, whose entries are 16 bytes (a tag beside the id, or the next free
/// key): here an entry is its id alone, 8 bytes, and the free keys wait in a list of their
/// own, so a live subscription costs half as much in this table. Key 0's id sits in the
/// table itself: a subject with one subscriber at a time (most of them) allocates none.
struct Keys {
    /// The id of key 0, [`VACANT`] while it is free.
    first: u64,
    /// The ids of keys 1 and up.
    rest: Vec<u64>,
    /// Free keys of `rest`.
    free: Vec<usize>,
}

impl Default for Keys {
    fn default() -> Self {
        Keys {
            first: VACANT,
            rest: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl Keys {
    fn get(&self, key: usize) -> Option<&u64> {
        match key {
            0 => Some(&self.first),
            _ => self.rest.get(key - 1),
        }
        .filter(|&&id| id != VACANT)
    }

    /// The entry of a taken key.
    fn entry(&mut self, key: usize) -> &mut u64 {
        debug_assert!(self.get(key).is_some());
        match key {
            0 => &mut self.first,
            _ => &mut self.rest[key - 1],
        }
    }

    #[inline]
    fn insert(&mut self, id: u64) -> usize {
        debug_assert!(id < DISPOSED);
        if self.first == VACANT {
            self.first = id;
            return 0;
        }
        match self.free.pop() {
            Some(key) => {
                self.rest[key - 1] = id;
                key
            }
            None => {
                self.rest.push(id);
                self.rest.len()
            }
        }
    }

    /// Replaces the id of a taken key.
    fn set(&mut self, key: usize, id: u64) {
        *self.entry(key) = id;
    }

    fn remove(&mut self, key: usize) {
        *self.entry(key) = VACANT;
        if key != 0 {
            self.free.push(key);
        }
    }

    fn clear(&mut self) {
        self.first = VACANT;
        self.rest.clear();
        self.free.clear();
    }
}

enum Event<T> {
    Next(T),
    Error(Error),
    Completed,
    /// `key` is `None` when the subject had already accepted a terminal notification.
    Subscribe {
        key: Option<usize>,
        id: u64,
        sink: ErasedSink<T>,
    },
}

/// `slots` first (`repr(C)`): see [`SubjectCore`].
#[repr(C)]
struct Delivery<T> {
    /// Indexed by key; trailing empty slots are trimmed, so the last slot, if any, is live.
    slots: SmallVec<[Slot<T>; 1]>,
    state: State<T>,
    /// The terminal notification, once delivered.
    terminal: Option<Terminal>,
    seen_disposals: usize,
    /// Swapped with the inbox's queues, so events are handled without the lock and without
    /// allocating.
    events: VecDeque<Event<T>>,
    vacated: Vec<usize>,
}

impl<T, F: Flavour> Drop for SubjectCore<T, F> {
    fn drop(&mut self) {
        // The key table is freed before the observers too, for the reason given in
        // `Delivery`'s `drop`: it grows beside the observer table, so either may border the top.
        let inbox = self.inbox.get_mut();
        drop(mem::take(&mut inbox.live));
        drop(mem::take(&mut inbox.vacated));
    }
}

#[derive(Clone)]
enum Terminal {
    Error(Error),
    Completed,
}

impl Terminal {
    /// A copy of the error, for an observer's `on_error`; `None` for a completion.
    fn error(&self) -> Option<Error> {
        match self {
            Terminal::Error(error) => Some(error.clone()),
            Terminal::Completed => None,
        }
    }
}

/// The per-kind state, owned by the delivery role.
enum State<T> {
    Publish,
    Behavior(T),
    Replay {
        values: VecDeque<T>,
        /// When each value was recorded; empty unless the buffer has a time window.
        times: VecDeque<Instant>,
    },
    /// The last value, emitted on completion.
    Async(Option<T>),
}

impl<T, F: Flavour> SubjectCore<T, F> {
    pub(crate) fn new(kind: Kind<T>) -> Self {
        let mut latest = None;
        let (state, replay) = match kind {
            Kind::Publish => (State::Publish, None),
            Kind::Behavior {
                initial,
                latest: copy,
            } => {
                latest = Some(copy);
                (State::Behavior(initial), None)
            }
            Kind::Replay(config) => (
                State::Replay {
                    values: VecDeque::new(),
                    times: VecDeque::new(),
                },
                Some(config),
            ),
            Kind::Async => (State::Async(None), None),
        };
        let plain = matches!(state, State::Publish);
        SubjectCore {
            wip: Counter::new(0),
            delivery: RoleCell::new(Delivery {
                slots: SmallVec::new(),
                state,
                terminal: None,
                seen_disposals: 0,
                events: VecDeque::new(),
                vacated: Vec::new(),
            }),
            keeps_latest: latest.is_some(),
            plain: Flag::new(plain),
            inbox: Lock::new(Inbox {
                events: VecDeque::new(),
                live: Keys::default(),
                live_count: 0,
                next_id: 0,
                vacated: Vec::new(),
                latest,
            }),
            disposals: Counter::new(0),
            terminated: Flag::new(false),
            replay,
            handoff: Counter::new(NONE),
            handed: Counter::new(0),
        }
    }

    /// A new shared core of `kind`.
    pub(crate) fn shared(kind: Kind<T>) -> F::Ptr<Self> {
        F::new_ptr_with(|| Self::new(kind))
    }

    /// An empty replay subject configured like this one.
    pub(crate) fn replay_config(&self) -> Option<ReplayConfig> {
        self.replay.as_ref().map(ReplayConfig::same)
    }

    pub(crate) fn is_terminated(&self) -> bool {
        // Acquire pairs with the Release store in `terminate`.
        self.terminated.load(Ordering::Acquire)
    }

    /// Whether any subscription is live (including ones not yet registered by the holder).
    pub(crate) fn has_observers(&self) -> bool {
        self.inbox.lock().live_count > 0
    }

    fn is_live(&self, key: usize, id: u64) -> bool {
        self.inbox.lock().live.get(key) == Some(&id)
    }

    /// A `BehaviorSubject`'s current value.
    pub(crate) fn latest(&self) -> Option<T>
    where
        T: Clone,
    {
        self.inbox.lock().latest.clone()
    }

    /// Records a `BehaviorSubject`'s value as current, when the caller holds the delivery role
    /// for it: values queued meanwhile by others are delivered after it, so the last of them
    /// stays current.
    #[cold]
    fn accept_latest(&self, value: &T)
    where
        T: Clone,
    {
        let mut inbox = self.inbox.lock();
        if !inbox.events.iter().any(|e| matches!(e, Event::Next(_))) {
            inbox.latest = Some(value.clone());
        }
    }
}

impl<T: Clone, F: Flavour> SubjectCore<T, F> {
    // An associated function, not a method: it asks the pointer whether handles exist.
    #[inline(always)]
    pub(crate) fn on_next(this: &F::Ptr<Self>, value: T) {
        let core: &Self = this;
        // Acquire pairs with the Release that gave the role up, so this thread sees the last
        // holder's writes to `delivery`.
        if core
            .wip
            .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            core.hold_role(|d| {
                // Acquire pairs with the Release store in `terminate`. One subscriber of a
                // plain subject is the common case: its path is all that is inlined, so that
                // a caller's loop can take it in.
                match d.slots.as_mut_slice() {
                    [only] if core.plain.load(Ordering::Acquire) => only.next(value),
                    _ => Self::next_held(this, d, value),
                }
            });
            return;
        }
        core.queue_next(value);
    }

    /// `on_next` with the role held, but for one subscriber of a plain subject.
    #[inline(never)]
    fn next_held(this: &F::Ptr<Self>, d: &mut Delivery<T>, value: T) -> bool {
        let core: &Self = this;
        if core.plain.load(Ordering::Relaxed) {
            // Only subscription handles point weakly at the core.
            return d.broadcast_synced(core, value, || F::has_weak(this));
        }
        if !core.is_terminated() {
            if core.keeps_latest {
                core.accept_latest(&value);
            }
            d.next(core, value)
        }
        true
    }

    #[cold]
    #[inline(never)]
    fn queue_next(&self, value: T) {
        {
            let mut inbox = self.inbox.lock();
            if self.terminated.load(Ordering::Relaxed) {
                return;
            }
            if self.keeps_latest {
                inbox.latest = Some(value.clone());
            }
            inbox.events.push_back(Event::Next(value));
        }
        if !self.request_role() && F::THREADED {
            self.claim_role();
        }
    }

    pub(crate) fn on_error(&self, error: Error) {
        self.terminate(Terminal::Error(error));
    }

    pub(crate) fn on_completed(&self) {
        self.terminate(Terminal::Completed);
    }

    fn terminate(&self, terminal: Terminal) {
        // Acquire, as in `on_next`. Taken before the lock, as in `subscribe`: when nobody
        // delivers and nothing is recorded, the notification goes out at once, without a trip
        // through the inbox (whose queue would allocate for it).
        let holds_role = self
            .wip
            .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .is_ok();
        let mut inbox = self.inbox.lock();
        if self.terminated.load(Ordering::Relaxed) {
            // The first terminal notification wins.
            drop(inbox);
            if holds_role {
                self.take_role(1);
            }
            return;
        }
        self.terminated.store(true, Ordering::Release);
        self.plain.store(false, Ordering::Release);
        if matches!(terminal, Terminal::Error(_)) {
            inbox.latest = None;
        }
        if holds_role && inbox.events.is_empty() {
            drop(inbox);
            self.hold_role(|d| {
                // Disposals made meanwhile are applied before each observer is called.
                d.terminate(self, terminal);
                true
            });
            return;
        }
        inbox.events.push_back(match terminal {
            Terminal::Error(error) => Event::Error(error),
            Terminal::Completed => Event::Completed,
        });
        drop(inbox);
        if holds_role {
            self.take_role(1);
        } else {
            self.request_role();
        }
    }

    // An associated function, not a method: `self: &Arc<Self>` is not allowed for loom's `Arc`.
    fn subscribe<O>(this: &F::Ptr<Self>, observer: O) -> SubjectSubscription<T, F>
    where
        F: Accepts<T, O>,
    {
        let sink = F::erase(observer);
        // Made before the observer is registered, so a holder that sees it registered sees the
        // handle too (see `Delivery::broadcast_to_undisposable`).
        let handle = F::downgrade(this);
        // Acquire, as in `on_next`. Taken before the lock, as everywhere: the holder takes the
        // lock, never the other way round.
        let holds_role = this
            .wip
            .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .is_ok();
        let mut inbox = this.inbox.lock();
        let id = inbox.next_id;
        inbox.next_id += 1;
        let terminated = this.terminated.load(Ordering::Relaxed);
        let key = if terminated {
            None
        } else {
            inbox.live_count += 1;
            Some(inbox.live.insert(id))
        };
        match key {
            // Nothing recorded is waiting: register at once, without a trip through the inbox.
            Some(key) if holds_role && inbox.events.is_empty() => {
                drop(inbox);
                this.hold_role(|d| {
                    d.register(this, key, sink);
                    true
                });
            }
            _ => {
                inbox.events.push_back(Event::Subscribe { key, id, sink });
                drop(inbox);
                if holds_role {
                    this.take_role(1);
                } else {
                    this.request_role();
                }
            }
        }
        SubjectSubscription {
            core: handle,
            key: key.unwrap_or(NO_KEY),
            id,
        }
    }

    /// Removes a subscription, if it is live.
    fn unsubscribe(&self, key: usize, id: u64) {
        {
            let mut inbox = self.inbox.lock();
            if inbox.live.get(key) != Some(&id) {
                return;
            }
            inbox.live.set(key, id | DISPOSED);
            inbox.live_count -= 1;
            inbox.vacated.push(key);
            // Release pairs with the holder's Acquire load in `Delivery::sync`.
            self.disposals.fetch_add(1, Ordering::Release);
        }
        // Take the role if it is free, so the observer is dropped before `dispose` returns.
        self.request_role();
    }

    /// Counts a request for the role after recording an event; takes the role and drains the
    /// inbox if nobody held it. Answers whether this call took the role.
    fn request_role(&self) -> bool {
        // AcqRel: Release publishes the recorded event to a holder that sees the increment;
        // Acquire, when this call takes the role, pairs with the previous holder's Release.
        if self.wip.fetch_add(1, Ordering::AcqRel) == 0 {
            self.take_role(1);
            true
        } else {
            false
        }
    }

    /// Runs `first` with the delivery role held (the caller moved `wip` from zero), then
    /// handles what others recorded meanwhile until `wip` drops back to zero. `first` answers
    /// `false` when the only observer said it is disposed, to be removed once its borrow of
    /// `delivery` has ended.
    #[inline(always)]
    fn hold_role(&self, first: impl FnOnce(&mut Delivery<T>) -> bool) {
        let release = ReleaseOnUnwind(self);
        let kept = self.delivery.with_mut(|delivery| {
            // SAFETY: the caller moved `wip` from zero, so this caller holds the delivery role
            // and nobody else touches `delivery` until `wip` is zero again (see the `Sync`
            // impl). Observers run inside, but cannot reach `delivery`: their calls back into
            // the subject find `wip` nonzero and go through the inbox.
            first(unsafe { &mut *delivery })
        });
        if !kept {
            self.remove_sole();
        }
        // On one thread, nobody else moves `wip`: when it is still one, nothing came in
        // meanwhile, and a compare and a store give the role up.
        if !F::THREADED {
            mem::forget(release);
            if self.wip.load(Ordering::Relaxed) == 1 {
                self.wip.store(0, Ordering::Relaxed);
            } else {
                self.give_role_up_cold();
            }
            return;
        }
        mem::forget(release);
        self.give_role_up();
    }

    /// [`give_role_up`](Self::give_role_up) out of line, for the local flavour, whose inline
    /// path is a compare and a store.
    #[cold]
    #[inline(never)]
    fn give_role_up_cold(&self) {
        self.give_role_up()
    }

    /// Forgets the only observer, which said it is disposed; with the role held.
    #[cold]
    #[inline(never)]
    fn remove_sole(&self) {
        self.delivery.with_mut(|delivery| {
            // SAFETY: called by the holder of the role (see `hold_role`), after the borrow of
            // `delivery` it delivered through has ended.
            unsafe { &mut *delivery }.remove(self, 0)
        })
    }

    /// The end of [`hold_role`](Self::hold_role): gives the role up, or, if requests came in
    /// meanwhile, answers them first. Out of line, where `delivery` is found again, so nothing
    /// of it stays live across the observers' calls.
    #[inline]
    fn give_role_up(&self) {
        // AcqRel: Release hands `delivery` to the next holder; Acquire makes the events
        // recorded by the increments seen here visible.
        let missed = self.wip.fetch_sub(1, Ordering::AcqRel) - 1;
        if missed != 0 {
            self.take_role(missed);
        }
    }

    /// Holds the delivery role, which the caller was given with `missed` requests to answer (by
    /// moving `wip` from zero, or by a hand-over), and drains the inbox.
    #[cold]
    #[inline(never)]
    fn take_role(&self, missed: usize) {
        self.delivery.with_mut(|delivery| {
            // SAFETY: as in `hold_role`; a caller handed the role over saw the last holder's
            // writes through the Acquire load that found `HANDED`.
            let delivery = unsafe { &mut *delivery };
            let release = ReleaseOnUnwind(self);
            self.drain_missed(delivery, missed);
            mem::forget(release);
        })
    }

    /// The rest of [`hold_role`](Self::hold_role): `missed` requests came in while the role
    /// was held. Delivers until `wip` drops to zero or, once a batch is delivered, until the
    /// role is handed over; the caller must not touch `delivery` afterwards.
    #[cold]
    #[inline(never)]
    fn drain_missed(&self, delivery: &mut Delivery<T>, mut missed: usize) {
        let mut offer = Offer::<T, F> {
            core: self,
            made: false,
        };
        let mut budget = BATCH;
        loop {
            let handed_over = delivery.drain_inbox(self, || {
                if !F::THREADED {
                    return false;
                }
                if budget > 0 {
                    budget -= 1;
                    return false;
                }
                offer.poll(missed)
            });
            if handed_over || offer.withdraw(missed) {
                return;
            }
            missed = self.wip.fetch_sub(missed, Ordering::AcqRel) - missed;
            if missed == 0 {
                break;
            }
        }
    }

    /// After recording a value while another caller holds the role: if the holder offers it,
    /// claims it, waits for the holder to let go (after the one event it is delivering), and
    /// delivers in its place. This is what keeps a holder from being held by others' values.
    #[cold]
    #[inline(never)]
    fn claim_role(&self) {
        if OFFERS.with(|offers| offers.get()) != 0 {
            // This thread holds an offered role, perhaps this very one from inside a callback:
            // it must not wait, or it could wait for itself, or for a thread waiting for it.
            return;
        }
        // Relaxed: a hint; the compare-exchange decides.
        if self.handoff.load(Ordering::Relaxed) != WANTED
            || self
                .handoff
                .compare_exchange(WANTED, CLAIMED, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let mut waited = Wait::new();
        loop {
            // Acquire pairs with the holder's Release in `Offer::hand_over`: this thread sees
            // everything the holder wrote to `delivery` and `handed`.
            match self.handoff.load(Ordering::Acquire) {
                HANDED => break,
                CLAIMED => {}
                // A holder that panicked gave the role up without handing it over.
                _ => return,
            }
            if waited.is_over() {
                match self.handoff.compare_exchange(
                    CLAIMED,
                    WANTED,
                    Ordering::Relaxed,
                    Ordering::Acquire,
                ) {
                    Err(HANDED) => break,
                    _ => return,
                }
            }
            waited.pause();
        }
        self.handoff.store(NONE, Ordering::Relaxed);
        #[cfg(loom)]
        loom_counts::HANDED_OVER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.take_role(self.handed.load(Ordering::Relaxed));
    }
}

/// A holder's offer of the delivery role, while it is out. Dropping it, as the holder leaves or
/// unwinds, takes it off the thread's count of [`OFFERS`].
struct Offer<'a, T, F: Flavour> {
    core: &'a SubjectCore<T, F>,
    made: bool,
}

impl<T, F: Flavour> Offer<'_, T, F> {
    /// Between two events, once the batch is delivered: offers the role, or hands it to the
    /// thread that claimed it. Answers whether the role was handed over.
    fn poll(&mut self, missed: usize) -> bool {
        // Relaxed: the holder is the only one that moves `handoff` from `NONE`, and a claim is
        // taken over by the Release compare-exchange in `hand_over`.
        match self.core.handoff.load(Ordering::Relaxed) {
            NONE => {
                OFFERS.with(|offers| offers.set(offers.get() + 1));
                self.made = true;
                self.core.handoff.store(WANTED, Ordering::Relaxed);
                false
            }
            CLAIMED => self.hand_over(missed),
            _ => false,
        }
    }

    /// The inbox is empty and the holder is about to give the role up: withdraws the offer, or
    /// hands the role to the thread that claimed it, which waits for it. Answers whether the
    /// role was handed over.
    fn withdraw(&mut self, missed: usize) -> bool {
        if !self.made {
            return false;
        }
        loop {
            match self.core.handoff.compare_exchange(
                WANTED,
                NONE,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    self.end();
                    return false;
                }
                // The claimer gave up, and the offer stands again: withdraw it.
                Err(_) if !self.hand_over(missed) => {}
                Err(_) => return true,
            }
        }
    }

    /// Lets go of the role for the claimer, if it still waits.
    fn hand_over(&mut self, missed: usize) -> bool {
        self.core.handed.store(missed, Ordering::Relaxed);
        // Release: the claimer's Acquire load of `HANDED` sees every write this holder made to
        // `delivery` and `handed`.
        let handed = self
            .core
            .handoff
            .compare_exchange(CLAIMED, HANDED, Ordering::Release, Ordering::Relaxed)
            .is_ok();
        if handed {
            self.end();
        }
        handed
    }

    fn end(&mut self) {
        if mem::take(&mut self.made) {
            OFFERS.with(|offers| offers.set(offers.get() - 1));
        }
    }
}

impl<T, F: Flavour> Drop for Offer<'_, T, F> {
    fn drop(&mut self) {
        self.end();
    }
}

/// A claimer's wait for the holder to let go: spin hints, then yields, then short sleeps, for
/// [`PATIENCE`].
struct Wait {
    rounds: u32,
    #[cfg(not(loom))]
    deadline: Option<Instant>,
}

impl Wait {
    fn new() -> Self {
        Wait {
            rounds: 0,
            #[cfg(not(loom))]
            deadline: None,
        }
    }

    #[cfg(not(loom))]
    fn is_over(&mut self) -> bool {
        if self.rounds < SPINS {
            return false;
        }
        // The clock is read only once spinning has not been enough.
        let now = Instant::now();
        now >= *self.deadline.get_or_insert(now + PATIENCE)
    }

    #[cfg(loom)]
    fn is_over(&mut self) -> bool {
        self.rounds >= PATIENCE_ROUNDS
    }

    fn pause(&mut self) {
        #[cfg(not(loom))]
        if self.rounds < SPINS {
            std::hint::spin_loop();
        } else if self.rounds < YIELDS {
            std::thread::yield_now();
        } else {
            std::thread::sleep(NAP);
        }
        #[cfg(loom)]
        crate::primitive::thread::yield_now();
        self.rounds += 1;
    }
}

/// Gives the delivery role up if an observer panics, so the subject keeps working: events that
/// other calls recorded meanwhile are delivered by the next holder. A panic is not turned into
/// an error (ARCHITECTURE.md, "Panics"); it unwinds to whoever called the subject. An offer still out is
/// abandoned too; a claimer waiting for it sees `NONE` and leaves.
struct ReleaseOnUnwind<'a, T, F: Flavour>(&'a SubjectCore<T, F>);

impl<T, F: Flavour> Drop for ReleaseOnUnwind<'_, T, F> {
    fn drop(&mut self) {
        // The disposals counted meanwhile may not be applied: `on_next` must not skip its
        // look at them (see `Delivery::broadcast_synced`). Published by the Release below.
        self.0.plain.store(false, Ordering::Relaxed);
        self.0.handoff.store(NONE, Ordering::Relaxed);
        self.0.wip.store(0, Ordering::Release);
    }
}

impl<T: Clone> Delivery<T> {
    /// Delivers what the inbox holds until it is empty; `between` runs after each event and
    /// answers whether the role was handed over, which ends the drain at once (and this
    /// answers `true`: the caller no longer holds the role).
    fn drain_inbox<F: Flavour>(
        &mut self,
        core: &SubjectCore<T, F>,
        mut between: impl FnMut() -> bool,
    ) -> bool {
        loop {
            if self.events.is_empty() {
                {
                    let mut inbox = core.inbox.lock();
                    // Read under the lock that every disposal bumps it under, so it matches
                    // the vacated list taken with it.
                    self.seen_disposals = core.disposals.load(Ordering::Relaxed);
                    mem::swap(&mut inbox.vacated, &mut self.vacated);
                    mem::swap(&mut inbox.events, &mut self.events);
                }
                self.drop_vacated(core);
                if self.events.is_empty() {
                    return false;
                }
            }
            match self.events.pop_front() {
                Some(Event::Next(value)) => self.next(core, value),
                Some(Event::Error(error)) => self.terminate(core, Terminal::Error(error)),
                Some(Event::Completed) => self.terminate(core, Terminal::Completed),
                Some(Event::Subscribe { key, id, sink }) => self.add(core, key, id, sink),
                None => {}
            }
            if between() {
                return true;
            }
        }
    }

    /// Applies disposals made since the last look, before calling the next observer.
    #[inline]
    fn sync<F: Flavour>(&mut self, core: &SubjectCore<T, F>) {
        // Acquire pairs with the Release increment in `unsubscribe`.
        if core.disposals.load(Ordering::Acquire) != self.seen_disposals {
            self.sync_slow(core);
        }
    }

    #[cold]
    fn sync_slow<F: Flavour>(&mut self, core: &SubjectCore<T, F>) {
        {
            let mut inbox = core.inbox.lock();
            self.seen_disposals = core.disposals.load(Ordering::Relaxed);
            mem::swap(&mut inbox.vacated, &mut self.vacated);
        }
        self.drop_vacated(core);
    }

    /// Drops the observers of disposed subscriptions, with no lock held, as dropping an
    /// observer runs its owner's code; then frees their keys. A key's slot holds its own
    /// subscription's observer, or nothing if it is not registered yet (its `Subscribe` event
    /// then finds it no longer live).
    fn drop_vacated<F: Flavour>(&mut self, core: &SubjectCore<T, F>) {
        if self.vacated.is_empty() {
            return;
        }
        for &key in &self.vacated {
            if let Some(slot) = self.slots.get_mut(key) {
                *slot = Slot::vacant();
            }
        }
        self.trim();
        let mut inbox = core.inbox.lock();
        for key in self.vacated.drain(..) {
            debug_assert!(inbox.live.get(key).is_some_and(|id| id & DISPOSED != 0));
            inbox.live.remove(key);
        }
    }

    fn trim(&mut self) {
        while self.slots.last().is_some_and(Slot::is_vacant) {
            self.slots.pop();
        }
    }

    /// Forgets an observer that said it is disposed.
    fn remove<F: Flavour>(&mut self, core: &SubjectCore<T, F>, key: usize) {
        let Some(sink) = self.slots[key].take() else {
            return;
        };
        {
            let mut inbox = core.inbox.lock();
            // A key disposed meanwhile is freed with the vacated ones.
            if inbox.live.get(key).is_some_and(|id| id & DISPOSED == 0) {
                inbox.live.remove(key);
                inbox.live_count -= 1;
            }
        }
        self.trim();
        drop(sink);
    }

    #[inline]
    fn next<F: Flavour>(&mut self, core: &SubjectCore<T, F>, value: T) {
        if self.terminal.is_some() {
            return;
        }
        // The kinds that keep values apart, so a `PublishSubject`'s path stays short.
        if let State::Publish = self.state {
            self.broadcast(core, value);
        } else {
            self.keep_and_broadcast(core, value);
        }
    }

    #[inline(never)]
    fn keep_and_broadcast<F: Flavour>(&mut self, core: &SubjectCore<T, F>, value: T) {
        match &mut self.state {
            State::Publish => {}
            State::Behavior(latest) => *latest = value.clone(),
            State::Replay { values, times } => {
                let config = core
                    .replay
                    .as_ref()
                    .expect("a replay subject has a configuration");
                let now = config.window.as_ref().map(|(_, clock)| clock.now());
                values.push_back(value.clone());
                if let Some(now) = now {
                    times.push_back(now);
                }
                if values.len() > config.capacity {
                    values.pop_front();
                    times.pop_front();
                }
                if let (Some((age, _)), Some(now)) = (&config.window, now) {
                    trim_stale(values, times, *age, now);
                }
            }
            State::Async(last) => {
                *last = Some(value);
                return;
            }
        }
        self.broadcast(core, value);
    }

    #[inline]
    fn broadcast<F: Flavour>(&mut self, core: &SubjectCore<T, F>, value: T) {
        self.sync(core);
        if !self.broadcast_synced(core, value, || true) {
            self.remove(core, 0);
        }
    }

    /// [`broadcast`](Self::broadcast) when every disposal counted is applied already: by a
    /// caller that has just moved `wip` from zero, as every holder applies the disposals
    /// counted before it gives the role up (each disposal requests the role after it is
    /// counted, so the holder finds `wip` above its count and drains again). A holder that
    /// unwinds does not, and turns `plain` off on its way out, so `on_next` takes the path
    /// that looks first.
    #[inline]
    ///
    /// Answers `false` when the only observer said it is disposed: the caller removes it.
    ///
    /// `handles` answers whether a subscription handle may exist; without one, no observer
    /// can be disposed while the value goes round.
    #[must_use]
    fn broadcast_synced<F: Flavour>(
        &mut self,
        core: &SubjectCore<T, F>,
        value: T,
        handles: impl FnOnce() -> bool,
    ) -> bool {
        // One subscriber is the common case; keep its path short and the loop out of line.
        if self.slots.len() == 1 {
            return self.slots[0].next(value);
        } else if handles() {
            self.broadcast_to_many(core, value);
        } else {
            self.broadcast_to_undisposable(core, value);
        }
        true
    }

    /// [`broadcast_to_many`](Self::broadcast_to_many) when no subscription handle exists:
    /// only a handle disposes a subscription, and a handle is made only by `subscribe`, whose
    /// observer is registered after this broadcast; so no observer in the table is disposed
    /// while this runs, and the loop is the calls alone (RPP drops disposables it can prove
    /// unused in the same way, at compile time). An observer that ends itself is found after
    /// the loop.
    #[inline(never)]
    fn broadcast_to_undisposable<F: Flavour>(&mut self, core: &SubjectCore<T, F>, value: T) {
        let Some((last, rest)) = self.slots.split_last_mut() else {
            return;
        };
        let mut done = false;
        // By runs of observers of one type, each run one call that calls them directly.
        let mut from = 0;
        while from < rest.len() {
            from += Slot::deliver_run(&mut rest[from..], &value, &mut done);
        }
        // The last observer gets the value itself, not a clone.
        last.deliver(value, &mut done);
        if done {
            self.forget_done(core);
        }
    }

    /// Forgets every observer that wants no more.
    #[cold]
    #[inline(never)]
    fn forget_done<F: Flavour>(&mut self, core: &SubjectCore<T, F>) {
        for key in 0..self.slots.len() {
            if self.slots[key].is_done() {
                forget(core, &mut self.slots, key);
            }
        }
        self.trim();
    }

    /// The loop of [`broadcast`](Self::broadcast) over several slots, kept to a load, a call
    /// and a compare per observer. Nothing is registered during a broadcast (a subscription
    /// made by a callback goes through the inbox), so the table only loses observers while
    /// this runs; trimming it waits until the loop is done, and the slice stays as it was.
    #[inline(never)]
    fn broadcast_to_many<F: Flavour>(&mut self, core: &SubjectCore<T, F>, value: T) {
        let Some(last) = self.slots.len().checked_sub(1) else {
            return;
        };
        let mut seen = self.seen_disposals;
        let vacated = &mut self.vacated;
        let slots = &mut self.slots[..];
        for key in 0..last {
            if !slots[key].next(value.clone()) {
                forget(core, slots, key);
            }
            // Acquire pairs with the Release increment in `unsubscribe`: a callback may have
            // disposed a subscription that comes later in the table.
            if core.disposals.load(Ordering::Acquire) != seen {
                seen = take_disposals(core, slots, vacated);
            }
        }
        // The last observer gets the value itself, not a clone.
        if !slots[last].next(value) {
            forget(core, slots, last);
        }
        self.seen_disposals = seen;
        self.trim();
    }

    fn terminate<F: Flavour>(&mut self, core: &SubjectCore<T, F>, terminal: Terminal) {
        debug_assert!(
            self.terminal.is_none(),
            "the inbox accepts one terminal notification"
        );
        let last = match (&terminal, &self.state) {
            (Terminal::Completed, State::Async(Some(last))) => Some(last.clone()),
            _ => None,
        };
        self.terminal = Some(terminal.clone());
        let mut key = 0;
        loop {
            self.sync(core);
            if key >= self.slots.len() {
                break;
            }
            if let Some(value) = &last
                && !self.slots[key].is_vacant()
            {
                if !self.slots[key].next(value.clone()) {
                    self.slots[key] = Slot::vacant();
                }
                // The value's callback may have disposed this very subscription.
                self.sync(core);
            }
            if let Some(sink) = self.slots.get_mut(key) {
                sink.end(terminal.error());
            }
            key += 1;
        }
        self.slots.clear();
        let mut inbox = core.inbox.lock();
        inbox.live.clear();
        inbox.live_count = 0;
        inbox.vacated.clear();
    }

    fn add<F: Flavour>(
        &mut self,
        core: &SubjectCore<T, F>,
        key: Option<usize>,
        id: u64,
        mut sink: ErasedSink<T>,
    ) {
        if let Some(terminal) = self.terminal.clone() {
            // Late: what the kind replays after termination, then the terminal notification.
            let alive = match (&mut self.state, &terminal) {
                (State::Replay { values, times }, _) => {
                    trim_stale_now(core, values, times);
                    values.iter().all(|v| sink.next(v.clone()))
                }
                (State::Async(Some(last)), Terminal::Completed) => sink.next(last.clone()),
                _ => true,
            };
            if alive {
                sink.end(terminal.error());
            }
            return;
        }
        let Some(key) = key else {
            // A subscription without a key was made after a terminal notification was
            // accepted, and that notification is ahead of it in the inbox.
            debug_assert!(false, "subscription without a key on a live subject");
            return;
        };
        if !core.is_live(key, id) {
            // Disposed before it got here: its key may even belong to a newer subscription.
            return;
        }
        self.register(core, key, sink);
    }

    /// Registers a live subscription, then starts it with what the kind replays.
    fn register<F: Flavour>(&mut self, core: &SubjectCore<T, F>, key: usize, sink: ErasedSink<T>) {
        // Registered before the replay, so a disposal made by a replayed value's callback
        // finds it.
        let entry = sink;
        if key == self.slots.len() {
            // The common case: the slab hands out keys in order while none is freed.
            self.slots.push(entry);
        } else if key < self.slots.len() {
            self.slots[key] = entry;
        } else {
            self.slots.resize_with(key, Slot::vacant);
            self.slots.push(entry);
        }
        match &mut self.state {
            State::Behavior(latest) => {
                let latest = latest.clone();
                self.send_to(core, key, latest);
            }
            State::Replay { values, times } => {
                trim_stale_now(core, values, times);
                let mut i = 0;
                while let Some(value) = self.replayed(i) {
                    if !self.send_to(core, key, value) {
                        break;
                    }
                    i += 1;
                }
            }
            State::Publish | State::Async(_) => {}
        }
    }

    fn replayed(&self, i: usize) -> Option<T> {
        match &self.state {
            State::Replay { values, .. } => values.get(i).cloned(),
            _ => None,
        }
    }

    /// Delivers to one registered observer; answers whether it is still registered. The slot
    /// of `key` holds that observer or nothing: no other subscription is registered meanwhile.
    fn send_to<F: Flavour>(&mut self, core: &SubjectCore<T, F>, key: usize, value: T) -> bool {
        self.sync(core);
        match self.slots.get_mut(key) {
            Some(slot) if !slot.is_vacant() => {
                if slot.next(value) {
                    true
                } else {
                    self.remove(core, key);
                    false
                }
            }
            _ => false,
        }
    }
}

/// [`Delivery::remove`] in the middle of a broadcast: empties the slot of an observer that
/// said it is disposed and frees its key, but leaves the table's length alone.
#[cold]
#[inline(never)]
fn forget<T: Clone, F: Flavour>(core: &SubjectCore<T, F>, slots: &mut [Slot<T>], key: usize) {
    let Some(sink) = slots[key].take() else {
        return;
    };
    {
        let mut inbox = core.inbox.lock();
        // A key disposed meanwhile is freed with the vacated ones.
        if inbox.live.get(key).is_some_and(|id| id & DISPOSED == 0) {
            inbox.live.remove(key);
            inbox.live_count -= 1;
        }
    }
    drop(sink);
}

/// [`Delivery::sync_slow`] in the middle of a broadcast: drops the observers disposed since
/// the last look and frees their keys, leaving the table's length alone; answers the count of
/// disposals seen.
#[cold]
#[inline(never)]
fn take_disposals<T: Clone, F: Flavour>(
    core: &SubjectCore<T, F>,
    slots: &mut [Slot<T>],
    vacated: &mut Vec<usize>,
) -> usize {
    let seen = {
        let mut inbox = core.inbox.lock();
        mem::swap(&mut inbox.vacated, vacated);
        core.disposals.load(Ordering::Relaxed)
    };
    if vacated.is_empty() {
        return seen;
    }
    // Dropped with no lock held, as dropping an observer runs its owner's code.
    for &key in vacated.iter() {
        if let Some(slot) = slots.get_mut(key) {
            *slot = Slot::vacant();
        }
    }
    let mut inbox = core.inbox.lock();
    for key in vacated.drain(..) {
        debug_assert!(inbox.live.get(key).is_some_and(|id| id & DISPOSED != 0));
        inbox.live.remove(key);
    }
    seen
}

fn trim_stale_now<T, F: Flavour>(
    core: &SubjectCore<T, F>,
    values: &mut VecDeque<T>,
    times: &mut VecDeque<Instant>,
) {
    if let Some((age, clock)) = core.replay.as_ref().and_then(|c| c.window.as_ref()) {
        trim_stale(values, times, *age, clock.now());
    }
}

fn trim_stale<T>(
    values: &mut VecDeque<T>,
    times: &mut VecDeque<Instant>,
    age: Duration,
    now: Instant,
) {
    while let Some(&at) = times.front() {
        if !ReplayConfig::is_stale(age, at, now) {
            break;
        }
        times.pop_front();
        values.pop_front();
    }
}

// ------------------------------------------------------------------------- public handles

/// A subject's observable side: subscribing registers an observer with the subject. A cheap
/// `Clone` handle; returned by the `observable()` method of every subject.
///
/// The subscription it returns, a [`SubjectSubscription`], removes the observer when disposed.
/// An observer whose [`is_disposed`](Observer::is_disposed) turns `true` is removed too, on the
/// next notification. `F` is the subject's [flavour](crate::sync): a [`Shared`] subject takes
/// `Send` observers, a [`Local`] one any.
#[must_use = "observables do nothing unless subscribed"]
pub struct SubjectObservable<T, F: Flavour = Shared> {
    core: F::Ptr<SubjectCore<T, F>>,
}

impl<T, F: Flavour> SubjectObservable<T, F> {
    pub(crate) fn new(core: F::Ptr<SubjectCore<T, F>>) -> Self {
        SubjectObservable { core }
    }
}

impl<T, F: Flavour> Clone for SubjectObservable<T, F> {
    fn clone(&self) -> Self {
        SubjectObservable {
            core: self.core.clone(),
        }
    }
}

impl<T, F: Flavour> fmt::Debug for SubjectObservable<T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SubjectObservable")
            .field("terminated", &self.core.is_terminated())
            .finish_non_exhaustive()
    }
}

impl<T, F: Flavour> Observable for SubjectObservable<T, F> {
    type Item = T;
    type Flavour = F;
}

impl<T, F, O> Subscribe<O> for SubjectObservable<T, F>
where
    T: Clone + 'static,
    F: Accepts<T, O>,
{
    type Subscription = SubjectSubscription<T, F>;

    fn subscribe_observer(self, observer: O) -> SubjectSubscription<T, F> {
        SubjectCore::subscribe(&self.core, observer)
    }
}

/// A subject's observer side: what it receives, the subject passes on to its subscribers.
/// Returned by the `observer()` method of every subject; each call gives a new one.
///
/// The first terminal notification received through any of a subject's observers terminates
/// the subject; later notifications, through any of them, are ignored.
/// [`is_disposed`](Observer::is_disposed) answers `true` from then on, so a source feeding a
/// terminated subject stops.
pub struct SubjectObserver<T, F: Flavour = Shared> {
    core: F::Ptr<SubjectCore<T, F>>,
}

impl<T, F: Flavour> SubjectObserver<T, F> {
    pub(crate) fn new(core: F::Ptr<SubjectCore<T, F>>) -> Self {
        SubjectObserver { core }
    }
}

impl<T, F: Flavour> Clone for SubjectObserver<T, F> {
    fn clone(&self) -> Self {
        SubjectObserver {
            core: self.core.clone(),
        }
    }
}

impl<T, F: Flavour> fmt::Debug for SubjectObserver<T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SubjectObserver")
            .field("terminated", &self.core.is_terminated())
            .finish_non_exhaustive()
    }
}

impl<T: Clone, F: Flavour> Observer<T> for SubjectObserver<T, F> {
    #[inline]
    fn on_next(&mut self, value: T) {
        SubjectCore::<T, F>::on_next(&self.core, value)
    }

    fn on_error(self, error: Error) {
        self.core.on_error(error)
    }

    fn on_completed(self) {
        self.core.on_completed()
    }

    fn is_disposed(&self) -> bool {
        self.core.is_terminated()
    }
}

/// The handle of one subscription to a subject; disposing it removes the observer.
///
/// Once [`dispose`](Subscription::dispose) has returned, the observer gets nothing sent after
/// that point (a delivery already running on another thread may still make the one call it was
/// about to make), and it is dropped as soon as no delivery is running.
/// [`is_disposed`](Subscription::is_disposed) is also `true` once the observer has received a
/// terminal notification or been removed for answering `true` to `is_disposed`.
///
/// The handle does not keep the subject alive: once every other handle of the subject is
/// dropped, the subject and its observers are freed, and the handle reports itself disposed.
/// It reaches its subject weakly because the observer may keep the handle (merge and concat
/// keep their sources' handles) while the subject keeps the observer: a strong reference would
/// make a cycle that outlives every other handle of the subject.
pub struct SubjectSubscription<T, F: Flavour = Shared> {
    core: F::Weak<SubjectCore<T, F>>,
    /// [`NO_KEY`] when the subject had terminated before the subscription was made (not an
    /// `Option`, which would make the handle 8 bytes larger).
    key: usize,
    id: u64,
}

/// The key of a subscription made after its subject terminated: never a slab key, as a slab
/// that large could not be allocated.
const NO_KEY: usize = usize::MAX;

impl<T, F: Flavour> Clone for SubjectSubscription<T, F> {
    fn clone(&self) -> Self {
        SubjectSubscription {
            core: self.core.clone(),
            key: self.key,
            id: self.id,
        }
    }
}

impl<T, F: Flavour> fmt::Debug for SubjectSubscription<T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SubjectSubscription")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl<T: Clone, F: Flavour> Subscription for SubjectSubscription<T, F> {
    fn dispose(&self) {
        // A subject that is gone has dropped its observers: nothing is left to remove.
        if self.key != NO_KEY
            && let Some(core) = F::upgrade(&self.core)
        {
            core.unsubscribe(self.key, self.id);
        }
    }

    fn is_disposed(&self) -> bool {
        self.key == NO_KEY
            || F::upgrade(&self.core).is_none_or(|core| !core.is_live(self.key, self.id))
    }
}

#[cfg(all(test, not(loom)))]
mod tests;
