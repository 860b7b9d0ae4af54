//! The serialising core that every operator of the merge family shares: `merge_with`,
//! `merge`, `merge_max`, `concat`, `flat_map`, `concat_map`, `switch_map`, `switch_on_next`,
//! `exhaust_map`, `take_until`, `skip_until`, `amb_with` and the `merge` and `amb` sources.
//!
//! # How it works
//!
//! Several upstreams deliver to one downstream observer, possibly from several threads at
//! once, and Rx requires that the downstream never sees two calls at once and sees exactly one
//! terminal call, after the last value. All of it lives in a [`MergeCore`], behind one pointer
//! per subscription: the downstream observer in a cell owned by whoever holds a delivery
//! role word, the rest under a lock. Pointer, words, cell and lock are the flavour's (see
//! below): `Arc`, atomics and a mutex, or `Rc`, `Cell`s and a `RefCell`.
//!
//! **Emitter loop, no lock held while delivering.** A value takes the delivery role with one
//! compare-exchange (from free to held), delivers, and gives the role back with another (from
//! held to free). A value that arrives while another thread (or, reentrantly, the same
//! thread, from inside the downstream's `on_next`) holds the role takes the lock, queues
//! itself and marks the role word (`WORK`, one compare-exchange, which takes the role instead when
//! it was free meanwhile); the holder's give-back then fails, and it takes the lock and
//! delivers what was queued too (RxJava's `SerializedObserver`, with the lock only where calls
//! overlap). A terminal event or a disposal marks the role the same way, and the role is
//! never given back once the downstream has had its terminal event or was dropped. No lock
//! is ever held while user code runs, so reentrancy cannot deadlock and a panicking callback
//! leaves no lock held; the queue allocates only when deliveries actually overlap. Once a
//! handle exists, a value reads its control block's `disposed` flag (through an address the
//! core keeps) before it takes the role: a disposal through the handle sends it through the
//! lock, which closes the core.
//!
//! **The delivery role is handed over.** An emitter drains what others queued, so a producer
//! that happens to find the downstream free could be kept delivering other threads' values
//! for as long as they keep emitting. Instead, once it has delivered a batch ([`BATCH`]
//! values), the emitter asks for a successor; the next producer on another thread that finds
//! it delivering queues its value, takes the role, and waits for the one `on_next` in flight
//! (at most [`PATIENCE`]); the emitter then leaves the observer to it and returns, and the
//! successor delivers what is queued, its own value last, in order. If nobody arrives the
//! emitter goes on until the queue is empty: no value waits for a successor, and no producer
//! ever waits for the queue to shrink. A reentrant call from inside the emitter's own
//! `on_next` (same thread) never takes the role: it would wait for itself.
//!
//! **No backpressure.** A producer is never blocked by a slow downstream: its value is
//! queued and it goes on. The queue has no bound, as in RxJava's `Observable` (RPP holds the
//! lock while delivering instead, which bounds memory but deadlocks when the downstream feeds
//! the merge back on another thread). Producers that outrun the downstream for long make the
//! queue grow; the documentation of every operator here says so. `merge_bounded` is the
//! bounded merge (over a `Drain` and the bounded queue of `backpressure`).
//!
//! **One terminal event.** An error or completion closes the core: nothing is accepted after
//! it. If an emitter is busy the terminal event waits for it: completion after the queued
//! values, an error ahead of them (as RxJava drops queued values on error).
//!
//! **Upstream handles.** Each upstream gets an id before it is subscribed. An inner error, a
//! switch, or the winner of `amb` must dispose *other* upstreams, so their handles are kept
//! where the core can reach them: in a [`Control`] block, type-erased (their types depend on
//! the observer types, which name the core). The first two kept at once sit in the block
//! itself, a handle of up to three words without a box ([`kept`](super::kept)): a
//! `merge_with` of two live sources costs the core and the block, nothing per upstream. An
//! upstream that terminates while its `subscribe` is still running frees the slot its id
//! holds meanwhile, so its handle is dropped, not kept, when `subscribe` returns; the slots
//! are atomics, so that this case (every synchronous source) needs no lock then. A handle
//! that reports [`is_disposed`](Subscription::is_disposed) when `subscribe` returns is not
//! kept either: nothing runs behind it, and it may hold the observer (`never`'s does), which
//! would make a cycle through the core.
//!
//! The kept handles are erased (in place or boxed) as the [flavour](crate::sync) `F` of the
//! core says, which the operator takes from its upstreams ([`Observable::Flavour`], joined):
//! `Send` for `Shared`, not for `Local`. The handles themselves cannot be named (their types
//! contain the core's), and Rust cannot pick a box by whether a type is `Send`; the flavour is
//! what the sources say about their handles, so the [`MergeSubscription`] is `Send` exactly
//! when every upstream's handle is.
//!
//! **The whole state follows the flavour.** With `Local` (an upstream is a local subject's
//! observable, or a `boxed_local` one) the core is an `Rc`, its words `Cell`s and its lock a
//! `RefCell`: a value, a completion and a disposal take no atomic read-modify-write and no
//! lock. Sound because the upstream observers then hold an `Rc` and cannot leave the thread,
//! so no other thread can call in; the price is that a `Local` merge cannot also take a
//! source that delivers on another thread (its `Send` bound rejects the observer at compile
//! time). The hand-over of the delivery role is only for a threaded flavour: one thread has
//! nobody to hand over to. The successor waits on a condition variable with a small mutex of
//! its own (`parked`), not the flavour's lock, which may be a `RefCell`.
//!
//! **Cheap when nothing is deferred.** What must run after the lock is released (see
//! [`Locked`]) is recorded in the state under the lock, in one `Option` that stays empty
//! unless something was deferred: the common lock checks it once as it lets go, and the
//! guard itself stays two words, which moves in registers.
//!
//! **Cheap when nobody else delivers.** A value that finds the delivery role free is
//! delivered and the role given back inline, in the upstream observer's `on_next`; the
//! drain loop, the hand-over and the stop when the downstream has had its fill are out of
//! line ([`MergeCore::emit`]). The core is built where its pointer points, not on the stack and
//! copied. Once the control block exists the core keeps its address, so a value reads the
//! disposal flag, and the operator builds its handle, without the lock.
//!
//! **The handle.** [`MergeSubscription`] holds the `Control` block, not the core, so its type
//! names no observer. `Control` is allocated only when something is left to cancel: a
//! synchronous subscription costs one `Arc` in all. Disposing sets the block's flag and
//! disposes the kept handles at once; the core notices the flag the next time it takes its
//! lock, and stops delivering.
//!
//! **What a synchronous merge costs.** `just(1).merge_with(just(2))` takes one allocation
//! (the core), two compare-exchanges per value (take and give back the role), a lock per
//! completion, the completion's compare-exchange marking the role, and five reference counts (the two
//! upstream observers' clones and drops, the last drop): fifteen atomic read-modify-writes,
//! about 800 instructions under callgrind. Operators with a fixed set of
//! upstreams reserve their ids when the core is built ([`MergeCore::with_upstreams_shared`]), so
//! subscribing one takes no lock; what a lock checks besides the guard is one `Option`
//! ([`Locked`]).
//!
//! **Why synchronous sources are not merged without the `Arc`.** A core on the stack, with
//! upstream observers that borrow it, is sound only if no upstream observer outlives the
//! operator's `subscribe`: a fact about the source's type ("emits only inside `subscribe`, on
//! the subscribing thread, and keeps no observer"), true of `just`, `from_iter`, `empty`,
//! `throw`, `create` and of stateless operators over them, false of `create_owned`, subjects
//! and anything with a scheduler. A marker trait can state it, but it cannot choose the implementation:
//! `MergeWith<S1, S2>` has one `Subscribe<O>` impl, and a second one for marked sources
//! overlaps it (coherence rejects that without specialization, which stable Rust lacks).
//! Choosing without overlap needs every source to *name* its kind in an associated type that
//! the impl dispatches on through a helper trait, as the handle's box is chosen; stable Rust
//! has no associated type defaults, so that is an associated item every `Observable` impl
//! (users' included) must write, not something a separate marker trait can add, and a marker
//! trait used as a bound instead would refuse every unmarked source. Deciding at run time
//! does not work either: whether an upstream observer outlived `subscribe` needs an atomic
//! count to know, and once one has, a core on the stack cannot move to the heap under the
//! pointers it holds.

use crate::Error;
use crate::engine::kept::{Kept, KeptHandle};
use crate::observable::Subscribe;
use crate::observer::Observer;
use crate::primitive::{Condvar, Mutex, Ordering, thread};
use crate::subscription::Subscription;
use crate::sync::imp::{BoxSubscription, Counter, Flag, Lock, Machinery, RoleCell};
use crate::sync::{Flavour, Shared};
use std::collections::VecDeque;
use std::fmt;
use std::mem::{self, ManuallyDrop};

/// The flavour's shared pointer (`Arc` or `Rc`), as the upstream observers hold a core.
pub(crate) type Ptr<C, F> = <F as Machinery>::Ptr<C>;

/// The state several upstreams of one subscription share: the downstream observer `O` of
/// values `T`, and the operator's own state `X`, under one lock.
pub(crate) struct MergeCore<'a, O, T, X, F: Flavour = Shared> {
    /// Set once nothing more will be delivered (terminated, disposed, or the downstream lost
    /// interest); what the upstream observers' `is_disposed` reads. Release/Acquire: it is
    /// set under the lock, and an upstream that sees it stops, without needing anything else.
    done: F::Flag,
    /// One word the operator reads without the lock: the current inner's id for
    /// `switch_map`, the open gate for `skip_until`, the winner for `amb`. Zero means unset.
    tag: F::Counter,
    /// The upstreams whose `subscribe` is running, as `id << 1 | CANCELLED`, zero when free.
    /// At most two at once in every operator here (the outer and one inner of `flat_map`; the
    /// others subscribe one at a time). Written only under the lock; read without it by
    /// [`end_subscribe`](MergeCore::end_subscribe), so that an upstream that finished inside its
    /// `subscribe` (which frees its slot) costs no second lock.
    subscribing: [F::Counter; 2],
    /// The address of the control block, zero until the block is allocated: set (Release),
    /// under the lock and before the core can close, when it is, so that a value reads
    /// whether a disposal through the handle happened without taking the lock, the handle is
    /// built without the lock once the block exists, and a closed core without a block needs
    /// no lock to build an empty handle. The block is kept in `state` from then on until the
    /// core drops, so the address stays valid for as long as anyone can read it through the
    /// core.
    control_at: F::Counter,
    /// The delivery role: [`HELD`] while a thread owns `downstream` (and delivers to it),
    /// with [`WORK`] set when the holder must take the lock before giving the role back
    /// (values queued, a terminal event pending, the core closed, a successor waiting).
    /// Taken by a compare-exchange from zero (Acquire: the holder sees what the last holder
    /// wrote to `downstream`), given back by one from `HELD` to zero (Release, for the next
    /// holder), which fails once `WORK` is set. `WORK` is set only under the lock, by one
    /// compare-exchange that also takes the role when it was free, so a value is queued only
    /// while someone holds the role and will find it. Once the core has closed and its
    /// downstream is gone the role is never given back.
    role: F::Counter,
    /// The downstream observer, touched only by the holder of the role; `None` once it has
    /// been given its terminal event or dropped.
    downstream: F::RoleCell<Option<O>>,
    state: F::Lock<State<'a, O, T, X, F>>,
    /// Where a producer that took over the delivery role waits for the in-flight `on_next`
    /// of the emitter it succeeds ([`Handover`]), holding `parked` (never `state`, which is
    /// the flavour's lock and may be a `RefCell`). Only a threaded flavour hands over.
    handed: Condvar,
    /// Taken by a successor before it lets go of `state`, and by the emitter (under `state`)
    /// to notify it: so the notification cannot fall between the two.
    parked: Mutex<()>,
}

// SAFETY: `MergeCore` is `Sync` where its lock is, except for `downstream`, which only the holder
// of the delivery role touches: the role is taken and given back by atomic read-modify-writes
// (Acquire on taking, Release on giving back, see `role`), so no two threads touch the cell
// at once and each holder sees the last one's writes; the observer moves between threads with
// the role, hence `O: Send`.
unsafe impl<'a, O: Send, T, X, F: Flavour> Sync for MergeCore<'a, O, T, X, F>
where
    F::Lock<State<'a, O, T, X, F>>: Sync,
    F::Counter: Sync,
    F::Flag: Sync,
{
}

/// The delivery role is held: see [`MergeCore::role`].
const HELD: usize = 1;
/// The holder of the role must take the lock before giving it back.
const WORK: usize = 2;

struct State<'a, O, T, X, F: Flavour> {
    /// Nothing more is accepted: terminated, disposed, or the downstream lost interest.
    closed: bool,
    /// The terminal event the emitter delivers once it has drained `queue`.
    pending: Option<Terminal>,
    /// Values that arrived while another call was delivering.
    queue: VecDeque<T>,
    /// Where the hand-over of the delivery role stands.
    handover: Handover,
    /// How many producers took the role over: what the loom models check the hand-over by.
    #[cfg(loom)]
    successions: usize,
    upstreams: Upstreams<'a, F>,
    extra: X,
    /// What the holder of the lock leaves to run once it lets go (see [`Locked`]): the two
    /// steps of an ending that every completion takes, each a word, and the rest.
    settle: Settle,
    deferred: Option<Deferred<'a, O, T, F>>,
}

/// The two deferred steps a completion takes, kept apart from [`Deferred`] so that the
/// common ending writes two words and moves nothing.
#[derive(Clone, Copy, Default)]
struct Settle {
    /// An upstream that terminated (its id; zero for none), whose handle is taken out of the
    /// control block as the lock is let go, and dropped once it is.
    release: u64,
    /// The control block is disposed (every kept handle) once the lock is let go.
    dispose_control: bool,
}

impl Settle {
    #[inline]
    fn is_empty(self) -> bool {
        self.release == 0 && !self.dispose_control
    }
}

/// The hand-over of the delivery role from an emitter that has delivered a batch of other
/// producers' values to a producer that arrives meanwhile, so that no caller is held
/// delivering for longer than a batch while others keep emitting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Handover {
    /// Nobody asked for a successor.
    Idle,
    /// The emitter on this thread has delivered a batch and asks for a successor; a producer
    /// on another thread that finds the emitter busy takes the role. Not one on the same
    /// thread: that is the emitter itself, reentrantly, from inside its own `on_next`.
    Wanted(thread::ThreadId),
    /// A successor has queued its value and waits for the emitter's in-flight `on_next` to
    /// return.
    Taken,
    /// The emitter has put the observer back for the waiting successor and returned.
    Handed,
}

/// How many values an emitter delivers before it asks for a successor. It goes on
/// delivering until one arrives, or the queue is empty: no value waits for a successor. One
/// under loom, so that a model reaches the hand-over in a few steps.
const BATCH: u32 = if cfg!(loom) { 1 } else { 128 };

/// How long a successor waits for the emitter's in-flight `on_next`. It is a bound, not a
/// schedule: an `on_next` that waits on something the waiting producer holds (a lock of its
/// own, or a merge it is delivering in that feeds this one back) would otherwise deadlock
/// both. A successor that gives up leaves its value queued for the emitter, which is still
/// delivering, and the request open for the next producer.
const PATIENCE: std::time::Duration = std::time::Duration::from_millis(20);

enum Terminal {
    Completed,
    Error(Error),
}

/// Bookkeeping of the upstream subscriptions.
struct Upstreams<'a, F: Flavour> {
    next_id: u64,
    /// Where live handles are kept; allocated on first need, and never taken out.
    control: Option<F::Ptr<Control<'a, F>>>,
}

/// The bit of a subscribing slot set when the operator disposed the upstream inside its
/// `subscribe`: its handle is disposed when `subscribe` returns. An upstream that terminates
/// inside its `subscribe` frees its slot instead: its handle is dropped when it returns.
const CANCELLED: usize = 1;

/// An id (or a tag, which is an id) as the flavour's counter word holds it. Ids count the
/// upstreams of one subscription from one: a 64-bit word holds every id; on a 32-bit target a
/// subscription that subscribed more than 2^31 upstreams would see ids wrap.
#[inline]
fn word(id: u64) -> usize {
    id as usize
}

impl<'a, O, T, X, F: Flavour> MergeCore<'a, O, T, X, F> {
    /// [`new_shared`](MergeCore::new_shared) in place, for the loom models' own pointers.
    #[cfg(all(test, loom))]
    pub(crate) fn new(downstream: O, extra: X) -> Self {
        MergeCore::reserving(downstream, extra, 0)
    }

    /// [`with_upstreams_shared`](MergeCore::with_upstreams_shared) in place, for the loom models'
    /// own pointers.
    #[cfg(all(test, loom))]
    pub(crate) fn with_upstreams(downstream: O, extra: X, upstreams: u64) -> Self {
        debug_assert!((1..=2).contains(&upstreams));
        MergeCore::reserving(downstream, extra, upstreams.min(2))
    }

    fn reserving(downstream: O, extra: X, reserved: u64) -> Self {
        let slot = |id: u64| Counter::new(if id <= reserved { word(id << 1) } else { 0 });
        MergeCore {
            done: Flag::new(false),
            tag: Counter::new(0),
            subscribing: [slot(1), slot(2)],
            control_at: Counter::new(0),
            role: Counter::new(0),
            downstream: RoleCell::new(Some(downstream)),
            state: Lock::new(State {
                closed: false,
                pending: None,
                queue: VecDeque::new(),
                handover: Handover::Idle,
                #[cfg(loom)]
                successions: 0,
                upstreams: Upstreams {
                    next_id: reserved + 1,
                    control: None,
                },
                extra,
                settle: Settle::default(),
                deferred: None,
            }),
            handed: Condvar::new(),
            parked: Mutex::new(()),
        }
    }

    /// A core delivering to `downstream`, with the operator's state `extra`, behind the
    /// flavour's pointer, as the upstream observers hold it; built in place: a core is a few
    /// hundred bytes, which building it on the stack would copy.
    #[inline]
    pub(crate) fn new_shared(downstream: O, extra: X) -> F::Ptr<Self> {
        F::new_ptr_with(|| MergeCore::reserving(downstream, extra, 0))
    }

    /// A core whose first `upstreams` upstreams (one or two) have their ids, `1` to
    /// `upstreams`, and their subscribing slots reserved from the start, behind the
    /// flavour's pointer, built in place: for an operator with a fixed set of upstreams
    /// subscribed one after the other inside its `subscribe`, which then subscribes each with
    /// [`subscribe_reserved`](MergeCore::subscribe_reserved) and takes no lock to reserve it. Only
    /// for operators that never dispose one upstream and keep the others
    /// ([`Locked::dispose_upstreams_except`]): an id reserved here is live before its
    /// upstream is subscribed.
    #[inline]
    pub(crate) fn with_upstreams_shared(downstream: O, extra: X, upstreams: u64) -> F::Ptr<Self> {
        debug_assert!((1..=2).contains(&upstreams));
        F::new_ptr_with(|| MergeCore::reserving(downstream, extra, upstreams.min(2)))
    }

    /// Whether a disposal through the handle has happened (and not yet been seen under the
    /// lock, if the core is still open): the control block's flag, read without the lock.
    #[inline]
    fn disposed_through_handle(&self) -> bool {
        self.control_block().is_some_and(Control::is_disposed)
    }

    /// The control block, once allocated, read without the lock.
    #[inline]
    fn control_block(&self) -> Option<&Control<'a, F>> {
        // SAFETY: the block lives as long as the core (`control_raw`), which `&self` keeps
        // alive.
        self.control_raw().map(|raw| unsafe { &*raw })
    }

    /// The control block's address, once allocated, with the provenance of its pointer's
    /// whole allocation (counts included), as [`Machinery::clone_raw`] needs it; a pointer
    /// taken from a borrow of the block would reach the block alone.
    #[inline]
    fn control_raw(&self) -> Option<*const Control<'a, F>> {
        let at = self.control_at.load(Ordering::Acquire);
        // A nonzero `control_at` is the address of the control block in
        // `state.upstreams.control`, exposed by `install_control` and stored (Release, read
        // Acquire here) after the block was allocated; the block is never taken out of
        // `state`, so it lives as long as the core.
        (at != 0).then(|| std::ptr::with_exposed_provenance::<Control<'a, F>>(at))
    }

    /// Whether nothing more will be delivered: what upstream observers answer to
    /// `is_disposed`. A disposal through the handle is seen here once the core has next taken
    /// its lock; the kept upstream handles are disposed at once regardless.
    #[inline]
    pub(crate) fn is_done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    #[inline]
    pub(crate) fn tag(&self) -> u64 {
        self.tag.load(Ordering::Acquire) as u64
    }

    /// Sets the tag; Release pairs with the Acquire in [`tag`](MergeCore::tag), so a reader that
    /// sees the new tag sees what was done before it was set.
    #[inline]
    pub(crate) fn set_tag(&self, tag: u64) {
        self.tag.store(word(tag), Ordering::Release);
    }

    /// Tries to set the tag from zero to `tag`: the first caller wins.
    #[inline]
    pub(crate) fn claim_tag(&self, tag: u64) -> bool {
        self.tag
            .compare_exchange(0, word(tag), Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Takes the lock. A disposal through the handle since the last time closes the core now.
    #[inline]
    pub(crate) fn lock(&self) -> Locked<'_, 'a, O, T, X, F> {
        let mut locked = Locked {
            core: self,
            state: ManuallyDrop::new(self.state.lock()),
        };
        let state = &locked.state;
        if !state.closed
            && state
                .upstreams
                .control
                .as_ref()
                .is_some_and(|control| control.is_disposed())
        {
            locked.shut();
        }
        locked
    }

    /// Reserves an id for an upstream about to be subscribed, or `None` once closed (then it
    /// must not be subscribed).
    pub(crate) fn begin(&self) -> Option<u64> {
        let mut locked = self.lock();
        (!locked.is_closed()).then(|| locked.begin_upstream())
    }

    /// Subscribes `source` as a new upstream with the observer `make` builds from the core and
    /// the upstream's id, and keeps its handle. Does nothing once closed.
    pub(crate) fn subscribe_upstream<S, B>(&self, source: S, make: impl FnOnce(u64) -> B)
    where
        S: Subscribe<B>,
        F: BoxSubscription<'a, S::Subscription>,
    {
        if let Some(id) = self.begin() {
            let handle = source.subscribe_observer(make(id));
            self.end_subscribe(id, handle);
        }
    }

    /// Subscribes `source` as the upstream of an id reserved by
    /// [`with_upstreams_shared`](MergeCore::with_upstreams_shared), with the observer `make`
    /// builds, and keeps its handle. Does nothing once done; the `Acquire` load of `done` stands
    /// in for the lock [`begin`](MergeCore::begin) takes: a core that closes after it is seen
    /// open finds the slot when `subscribe` returns, as it would have found a slot reserved
    /// under the lock.
    pub(crate) fn subscribe_reserved<S, B>(&self, id: u64, source: S, make: impl FnOnce(u64) -> B)
    where
        S: Subscribe<B>,
        F: BoxSubscription<'a, S::Subscription>,
    {
        if !self.is_done() {
            let handle = source.subscribe_observer(make(id));
            self.end_subscribe(id, handle);
        }
    }

    /// Takes the handle of upstream `id` once its `subscribe` has returned: drops it if the
    /// upstream has already terminated or its handle reports itself disposed, disposes it if
    /// the core is closed or the operator cancelled it meanwhile, keeps it otherwise.
    pub(crate) fn end_subscribe<H>(&self, id: u64, handle: H)
    where
        H: Subscription,
        F: BoxSubscription<'a, H>,
    {
        if !self.is_subscribing(id) {
            // It terminated inside `subscribe` and freed its slot: nothing left to do.
            return;
        }
        // Asked before locking, as it may be user code.
        let finished = handle.is_disposed();
        let mut locked = self.lock();
        // `None`: it terminated meanwhile.
        let slot = locked.take_slot(id);
        if finished || slot.is_none() {
            drop(locked);
            drop(handle);
        } else if locked.state.closed || slot == Some(CANCELLED) {
            drop(locked);
            handle.dispose();
        } else {
            if let Err(handle) = locked.keep(id, KeptHandle::new(handle)) {
                // Disposed through the handle since the lock was taken.
                drop(locked);
                handle.dispose();
            }
        }
    }

    /// The handle `subscribe_observer` returns: empty when everything has already ended.
    pub(crate) fn handle(&self) -> MergeSubscription<'a, F> {
        if let Some(control) = self.control_raw() {
            // SAFETY: the block's address, which `control_at` holds, is its pointer's target
            // (`Locked::control`), alive while the core is (`control_raw`).
            let control = unsafe { F::clone_raw(control) };
            return MergeSubscription {
                control: Some(control),
            };
        }
        // Acquire pairs with the Release of `done`, which the core stores after allocating
        // its control block if it ever does: once closed, the block cannot appear.
        if self.is_done() && self.control_at.load(Ordering::Relaxed) == 0 {
            return MergeSubscription::empty();
        }
        let mut locked = self.lock();
        let control = if locked.state.closed {
            locked.state.upstreams.control.clone()
        } else {
            locked.control();
            let control = self.control_raw().expect("the control block is allocated");
            // SAFETY: the block's address, as `control_at` holds it (`Locked::control`).
            Some(unsafe { F::clone_raw(control) })
        };
        MergeSubscription { control }
    }

    /// Whether upstream `id` holds a subscribing slot: its `subscribe` is running, or it
    /// returned and was neither released nor taken yet. Without the lock: a slot holding
    /// `id` is only freed by the upstream's own termination or its `end_subscribe`.
    fn is_subscribing(&self, id: u64) -> bool {
        self.subscribing
            .iter()
            .any(|slot| slot.load(Ordering::Acquire) >> 1 == word(id))
    }

    /// The slot holding upstream `id`, under the lock.
    fn slot(&self, id: u64) -> Option<(&F::Counter, usize)> {
        self.subscribing.iter().find_map(|slot| {
            let value = slot.load(Ordering::Relaxed);
            (value != 0 && value >> 1 == word(id)).then_some((slot, value))
        })
    }

    /// Delivers `value` downstream, or queues it if another call is delivering: what an
    /// upstream observer's `on_next` calls. When nobody delivers and nothing was disposed
    /// through the handle, it takes the delivery role with one compare-exchange and no lock;
    /// otherwise through [`Locked::next`], which closes the core on a disposal through the
    /// handle.
    #[inline]
    pub(crate) fn next(&self, value: T)
    where
        O: Observer<T>,
    {
        if !self.disposed_through_handle()
            && self
                .role
                .compare_exchange(0, HELD, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
        {
            self.emit(value);
        } else {
            self.next_locked(value);
        }
    }

    /// [`next`](MergeCore::next) when someone delivers or a disposal through the handle happened:
    /// out of line, so that the lock-free path stays small enough to inline.
    #[cold]
    #[inline(never)]
    fn next_locked(&self, value: T)
    where
        O: Observer<T>,
    {
        self.lock().next(value);
    }

    /// Wakes the successor waiting in [`Locked::succeed`]; called under the lock.
    #[cold]
    fn wake_successor(&self) {
        let _parked = self.parked.lock();
        self.handed.notify_all();
    }

    /// Takes the downstream observer out of its cell, for good: the role is never given back
    /// after it.
    ///
    /// # Safety
    ///
    /// The calling thread holds the delivery role.
    #[inline]
    unsafe fn take_observer(&self) -> Option<O> {
        // SAFETY: the caller holds the role, so nothing else touches the cell (`role`).
        self.downstream.with_mut(|cell| unsafe { (*cell).take() })
    }

    /// Delivers `value` and whatever queues up meanwhile, then gives the delivery role back;
    /// or, once it has delivered a batch, hands the role to a producer that arrived
    /// meanwhile and returns ([`Handover`]). The calling thread holds the role.
    ///
    /// The common case, nothing queued or closed meanwhile, is one delivery and the
    /// compare-exchange that gives the role back, inline; the rest is [`emit_rest`].
    ///
    /// [`emit_rest`]: MergeCore::emit_rest
    #[inline]
    fn emit(&self, value: T)
    where
        O: Observer<T>,
    {
        let guard = PanicGuard {
            core: self,
            armed: true,
        };
        let lost = self.deliver(value);
        mem::forget(guard);
        if !lost
            && self
                .role
                .compare_exchange(HELD, 0, Ordering::Release, Ordering::Relaxed)
                .is_ok()
        {
            // Nothing was queued, left pending or closed meanwhile.
            return;
        }
        self.emit_rest(lost);
    }

    /// Delivers `value` to the downstream, which the calling thread holds the role for;
    /// answers whether the downstream has lost interest (or is gone).
    #[inline(always)]
    fn deliver(&self, value: T) -> bool
    where
        O: Observer<T>,
    {
        // SAFETY: this thread holds the role (see `emit`), so no other thread touches the
        // cell meanwhile; a reentrant call from inside `on_next` finds the role held and
        // queues, never touching the cell.
        self.downstream
            .with_mut(|cell| match unsafe { &mut *cell } {
                Some(observer) if !observer.is_disposed() => {
                    observer.on_next(value);
                    // It may lose interest inside that call (a `take` that has had its fill):
                    // the upstreams stop now, not at a next value that may never come (a
                    // `never` upstream's handle would stay kept, in a cycle through this core).
                    observer.is_disposed()
                }
                _ => true,
            })
    }

    /// The rest of [`emit`](MergeCore::emit), once a delivery found the downstream gone (`lost`)
    /// or the role marked (or a successor was handed the role and found nothing left to
    /// deliver): stops, or takes the lock and delivers what was queued and then what is
    /// pending, until the role can be given back or is handed over.
    #[cold]
    #[inline(never)]
    fn emit_rest(&self, mut lost: bool)
    where
        O: Observer<T>,
    {
        let mut guard = PanicGuard {
            core: self,
            armed: true,
        };
        let mut delivered: u32 = 1;
        // Whether this emitter asked for a successor: then it gives the role back under the
        // lock, where the request lapses.
        let mut wanted = false;
        loop {
            if lost {
                // The downstream lost interest: stop, and stop every upstream.
                let mut locked = self.lock();
                locked.release_successor();
                locked.shut();
                // SAFETY: this thread holds the role.
                let observer = unsafe { self.take_observer() };
                locked.defer_downstream(observer);
                guard.armed = false;
                return;
            }
            let mut locked = self.lock();
            if locked.state.closed && locked.state.pending.is_none() {
                // Disposed while delivering.
                locked.release_successor();
                // SAFETY: this thread holds the role.
                let observer = unsafe { self.take_observer() };
                locked.defer_downstream(observer);
                guard.armed = false;
                return;
            }
            if locked.state.handover == Handover::Taken && !locked.state.queue.is_empty() {
                // A successor waits: the role passes to it as it is, still held, so that no
                // third caller starts delivering in between.
                locked.state.handover = Handover::Handed;
                guard.armed = false;
                self.wake_successor();
                return;
            }
            let value = match locked.state.queue.pop_front() {
                Some(next) => {
                    // What the loom models check the hand-over by.
                    #[cfg(loom)]
                    assert_ne!(
                        locked.state.handover,
                        Handover::Taken,
                        "an emitter delivered past the successor waiting for it"
                    );
                    // Only a threaded flavour has other threads to hand over to.
                    if F::THREADED && delivered >= BATCH && locked.state.handover == Handover::Idle
                    {
                        // Read once a batch: `thread::current` is not free.
                        locked.state.handover = Handover::Wanted(thread::current().id());
                        wanted = true;
                    }
                    next
                }
                None => {
                    guard.armed = false;
                    locked.release_successor();
                    match locked.state.pending.take() {
                        Some(terminal) => {
                            // SAFETY: this thread holds the role.
                            let observer = unsafe { self.take_observer() };
                            drop(locked);
                            if let Some(observer) = observer {
                                deliver_terminal(observer, terminal);
                            }
                        }
                        // Under the lock, which `WORK` is set under: this clears it.
                        None => self.role.store(0, Ordering::Release),
                    }
                    return;
                }
            };
            drop(locked);
            lost = self.deliver(value);
            delivered = delivered.saturating_add(1);
            if !lost
                && !wanted
                && self
                    .role
                    .compare_exchange(HELD, 0, Ordering::Release, Ordering::Relaxed)
                    .is_ok()
            {
                // Nothing was queued, left pending or closed meanwhile.
                guard.armed = false;
                return;
            }
        }
    }
}

/// The queued values, to be dropped once the lock is released; `None` when there are none.
#[inline]
fn take_queue<T>(queue: &mut VecDeque<T>) -> Option<VecDeque<T>> {
    (queue.capacity() != 0).then(|| mem::take(queue))
}

fn deliver_terminal<T, O: Observer<T>>(observer: O, terminal: Terminal) {
    if !observer.is_disposed() {
        match terminal {
            Terminal::Completed => observer.on_completed(),
            Terminal::Error(error) => observer.on_error(error),
        }
    }
}

/// Closes the core if the downstream panics while an emitter delivers, so later values are
/// dropped instead of queued behind an emitter that is gone. It disposes nothing: running
/// more user code while unwinding risks an abort; the upstreams see `is_disposed` and stop.
struct PanicGuard<'c, 'a, O, T, X, F: Flavour> {
    core: &'c MergeCore<'a, O, T, X, F>,
    armed: bool,
}

impl<O, T, X, F: Flavour> Drop for PanicGuard<'_, '_, O, T, X, F> {
    fn drop(&mut self) {
        if self.armed {
            // The role stays held for good: nothing touches the observer again (it drops
            // with the core).
            let mut locked = self.core.lock();
            locked.release_successor();
            locked.state.closed = true;
            locked.state.pending = None;
            let queue = take_queue(&mut locked.state.queue);
            locked.defer_queue(queue);
            self.core.done.store(true, Ordering::Release);
        }
    }
}

/// The core's lock, held. What must not run under it (dropping or disposing handles, dropping
/// the observer or queued values: all user code) is recorded in the state's `deferred` and
/// runs when this is dropped, after the lock is released.
///
/// Two words and a guard: a `Locked` is built, moved and dropped on every notification that
/// takes the lock, and one that carried the deferred work itself was moved with `memcpy`.
pub(crate) struct Locked<'c, 'a, O, T, X, F: Flavour> {
    core: &'c MergeCore<'a, O, T, X, F>,
    /// Dropped by `Drop`, after the deferred work is taken out and before it runs.
    state: ManuallyDrop<StateGuard<'c, 'a, O, T, X, F>>,
}

/// The core's lock held: the flavour's mutex guard, or its `RefCell`'s.
type StateGuard<'c, 'a, O, T, X, F> =
    <<F as Machinery>::Lock<State<'a, O, T, X, F>> as Lock<State<'a, O, T, X, F>>>::Guard<'c>;

impl<O, T, X, F: Flavour> Drop for Locked<'_, '_, O, T, X, F> {
    #[inline]
    fn drop(&mut self) {
        if self.state.deferred.is_some() || !self.state.settle.is_empty() {
            self.unlock_and_run();
        } else {
            // SAFETY: dropped once, here, and not touched again.
            unsafe { ManuallyDrop::drop(&mut self.state) };
        }
    }
}

impl<O, T, X, F: Flavour> Locked<'_, '_, O, T, X, F> {
    /// The end of `drop` when something was deferred; out of line, so that the common drop
    /// does not move the deferred work out and back.
    ///
    /// The common ending (a release and a disposal, nothing in `deferred`) never moves the
    /// deferred record, not even an empty one: moving it through the frame in copies of
    /// words it was not stored in costs more than the rest of the ending.
    #[cold]
    #[inline(never)]
    fn unlock_and_run(&mut self) {
        if self.state.deferred.is_some() {
            return self.unlock_and_run_deferred();
        }
        let (released, dispose_control) = self.settle();
        // SAFETY: called once, from `drop`, which touches the guard no more.
        unsafe { ManuallyDrop::drop(&mut self.state) };
        drop(released);
        if let (true, Some(control)) = (dispose_control, self.core.control_block()) {
            control.dispose();
        }
    }

    /// [`unlock_and_run`](Self::unlock_and_run) with a deferred record.
    #[cold]
    #[inline(never)]
    fn unlock_and_run_deferred(&mut self) {
        let work = self.take_work();
        // SAFETY: called once, from `drop` through `unlock_and_run`, which touch the guard
        // no more.
        unsafe { ManuallyDrop::drop(&mut self.state) };
        work.run(self.core.control_block());
    }
}

/// What was deferred, taken out under the lock, to run once it is let go.
struct Work<'a, O, T, F: Flavour> {
    /// The handle of an upstream that terminated, taken out of the control block: dropped.
    released: Option<KeptHandle<'a, F>>,
    /// The control block is disposed.
    dispose_control: bool,
    deferred: Option<Deferred<'a, O, T, F>>,
}

impl<'a, O, T, F: Flavour> Work<'a, O, T, F> {
    /// Runs it, with no lock held; `control` is the core's control block, which every
    /// disposal recorded is of. The observer and the queued values drop last.
    #[inline]
    fn run(self, control: Option<&Control<'a, F>>) {
        let Work {
            released,
            dispose_control,
            deferred,
        } = self;
        drop(released);
        match deferred {
            Some(deferred) => deferred.run(control, dispose_control),
            None => {
                if let (true, Some(control)) = (dispose_control, control) {
                    control.dispose();
                }
            }
        }
    }
}

/// What runs once the lock is released, beyond the two steps of [`Settle`]; recorded only
/// when something is deferred, so the common lock checks one `Option` and those two words.
struct Deferred<'a, O, T, F: Flavour> {
    /// An upstream's handle taken out of the control block, disposed first if `dispose`.
    /// One: no operator here disposes two upstreams under one lock.
    handle: Option<KeptHandle<'a, F>>,
    dispose: bool,
    /// Every kept handle but this id's, taken and disposed in subscription order.
    dispose_except: Option<u64>,
    downstream: Option<O>,
    queue: Option<VecDeque<T>>,
}

impl<'a, O, T, F: Flavour> Deferred<'a, O, T, F> {
    fn keep_handle(&mut self, handle: Option<KeptHandle<'a, F>>, dispose: bool) {
        debug_assert!(
            self.handle.is_none(),
            "two upstream handles disposed under one lock"
        );
        if let Some(earlier) = self.handle.take()
            && self.dispose
        {
            // Not reached by the operators here (see `handle`); disposed under the lock
            // rather than not at all.
            earlier.dispose();
        }
        self.handle = handle;
        self.dispose = dispose;
    }

    /// Runs what was deferred, with no lock held, disposing the control block too if
    /// `dispose_control`; `control` is the core's control block, which every disposal
    /// recorded here is of. The observer and the queued values drop last.
    #[cold]
    #[inline(never)]
    fn run(mut self, control: Option<&Control<'a, F>>, dispose_control: bool) {
        if let Some(handle) = self.handle.take()
            && self.dispose
        {
            handle.dispose();
        }
        if let (Some(id), Some(control)) = (self.dispose_except, control) {
            control.take_all_except(id).dispose_all();
        }
        if let (true, Some(control)) = (dispose_control, control) {
            control.dispose();
        }
    }
}

impl<'c, 'a, O, T, X, F: Flavour> Locked<'c, 'a, O, T, X, F> {
    #[cold]
    fn deferred(&mut self) -> &mut Deferred<'a, O, T, F> {
        self.state.deferred.get_or_insert_with(|| Deferred {
            handle: None,
            dispose: false,
            dispose_except: None,
            downstream: None,
            queue: None,
        })
    }

    /// Disposes `handle` once the lock is released.
    #[inline]
    fn defer_dispose(&mut self, handle: Option<KeptHandle<'a, F>>) {
        if handle.is_some() {
            self.deferred().keep_handle(handle, true);
        }
    }

    /// Disposes every handle the control block keeps but `id`'s, in order, once the lock is
    /// released.
    fn defer_dispose_except(&mut self, id: u64) {
        self.deferred().dispose_except = Some(id);
    }

    /// Disposes the control block (every kept handle), if there is one, once the lock is
    /// released.
    #[inline]
    fn defer_dispose_control(&mut self) {
        if self.core.control_block().is_some() {
            self.state.settle.dispose_control = true;
        }
    }

    /// Drops `queue` once the lock is released.
    #[inline]
    fn defer_queue(&mut self, queue: Option<VecDeque<T>>) {
        if queue.is_some() {
            self.deferred().queue = queue;
        }
    }

    /// Drops `downstream` once the lock is released.
    #[inline]
    fn defer_downstream(&mut self, downstream: Option<O>) {
        if downstream.is_some() {
            self.deferred().downstream = downstream;
        }
    }

    /// Lets go of the lock, and answers what was deferred, for the caller to run once it has
    /// let go of anything else it holds.
    fn unlock(self) -> Work<'a, O, T, F> {
        let mut this = ManuallyDrop::new(self);
        let work = this.take_work();
        // SAFETY: `this` is never dropped, so the guard is dropped once, here.
        unsafe { ManuallyDrop::drop(&mut this.state) };
        work
    }

    /// Takes out what was deferred, and does what must be done to the control block as the
    /// lock is let go, still under it: the handle of a released upstream is taken out
    /// (under the core's lock, as a release always was, so that a disposal through the
    /// handle that comes later cannot dispose it), and, when the block's disposal is
    /// deferred too and nothing else is kept, the block is closed then, under the same lock
    /// of the block. The common ending (a release, a disposal, nothing else) moves nothing
    /// but the released handle.
    #[inline]
    fn take_work(&mut self) -> Work<'a, O, T, F> {
        // Checked first: `take` would store `None` over `None`, on every ending.
        let deferred = if self.state.deferred.is_some() {
            self.state.deferred.take()
        } else {
            None
        };
        let (released, dispose_control) = self.settle();
        Work {
            released,
            dispose_control,
            deferred,
        }
    }

    /// The two steps of [`Settle`] that must be done under the lock: takes the released
    /// upstream's handle out of the control block, and closes the block if its disposal is
    /// deferred and nothing else is kept. Answers the handle, and whether the block is still
    /// to be disposed once the lock is let go.
    #[inline(always)]
    fn settle(&mut self) -> (Option<KeptHandle<'a, F>>, bool) {
        let Settle {
            release,
            dispose_control,
        } = mem::take(&mut self.state.settle);
        if release != 0
            && let Some(control) = self.core.control_block()
        {
            let (released, closed) = control.release(release, dispose_control);
            return (released, dispose_control && !closed);
        }
        (None, dispose_control)
    }

    /// Whether nothing more is accepted.
    #[inline]
    pub(crate) fn is_closed(&self) -> bool {
        self.state.closed
    }

    /// The operator's own state.
    #[inline]
    pub(crate) fn extra(&mut self) -> &mut X {
        &mut self.state.extra
    }

    /// Reserves an id for an upstream about to be subscribed; pass it to
    /// [`MergeCore::end_subscribe`] with the handle.
    pub(crate) fn begin_upstream(&mut self) -> u64 {
        let upstreams = &mut self.state.upstreams;
        let id = upstreams.next_id;
        upstreams.next_id += 1;
        let free = self
            .core
            .subscribing
            .iter()
            .find(|slot| slot.load(Ordering::Relaxed) == 0);
        match free {
            Some(slot) => slot.store(word(id << 1), Ordering::Release),
            // Never with the operators here; untracked, an upstream's handle would be dropped
            // when its `subscribe` returns, as if it had terminated, and not be cancellable.
            None => debug_assert!(false, "more than two upstreams subscribing at once"),
        }
        id
    }

    /// Upstream `id` terminated: forget its handle.
    pub(crate) fn release_upstream(&mut self, id: u64) {
        if let Some((slot, value)) = self.core.slot(id) {
            // A cancelled one is still disposed when its `subscribe` returns.
            if value & CANCELLED == 0 {
                slot.store(0, Ordering::Release);
            }
        } else if self.core.control_block().is_some() {
            // Taken out of the control block as the lock is let go (`Locked::take_work`),
            // with the block's closing if that is deferred too and nothing else is kept:
            // one lock of the block for both.
            debug_assert_eq!(
                self.state.settle.release, 0,
                "two upstreams released under one lock"
            );
            self.state.settle.release = id;
        }
    }

    /// Disposes upstream `id` (once the lock is released).
    pub(crate) fn dispose_upstream(&mut self, id: u64) {
        if let Some((slot, value)) = self.core.slot(id) {
            slot.store(value | CANCELLED, Ordering::Release);
        } else if let Some(control) = &self.state.upstreams.control {
            let handle = control.remove(id);
            self.defer_dispose(handle);
        }
    }

    /// Disposes every kept upstream but `id` (once the lock is released).
    pub(crate) fn dispose_upstreams_except(&mut self, id: u64) {
        for slot in &self.core.subscribing {
            let value = slot.load(Ordering::Relaxed);
            if value != 0 && value >> 1 != word(id) {
                slot.store(value | CANCELLED, Ordering::Release);
            }
        }
        // Taken once the lock is released, so that the handles are not moved through it: a
        // handle kept meanwhile is another upstream's (`id`'s is kept anyway), which this
        // disposes as it would have been.
        if self.core.control_block().is_some() {
            self.defer_dispose_except(id);
        }
    }

    /// Takes the downstream observer out, for an operator that delivers to it directly from
    /// now on (`amb`'s winner). `None` once closed.
    pub(crate) fn take_downstream(&mut self) -> Option<O> {
        if self.state.closed {
            return None;
        }
        // Kept for good once taken: the role is never given back.
        self.take_role().then(|| {
            // SAFETY: this thread has just taken the role.
            unsafe { self.core.take_observer() }
        })?
    }

    /// Takes the delivery role if it is free, or else marks it so that its holder takes the
    /// lock before giving it back; `true` when taken. One read-modify-write either way: the holder's
    /// give-back fails once `WORK` is set, so whatever is queued or pending under this lock
    /// is found.
    #[inline]
    fn take_role(&mut self) -> bool {
        // Acquire: a new holder sees what the last one wrote to the cell. A compare-exchange
        // loop, as the flavour's counter has no `fetch_or`: uncontended, one read-modify-write
        // all the same.
        let role = &self.core.role;
        let mut prev = role.load(Ordering::Relaxed);
        while let Err(now) = role.compare_exchange(
            prev,
            prev | HELD | WORK,
            Ordering::Acquire,
            Ordering::Relaxed,
        ) {
            prev = now;
        }
        prev & HELD == 0
    }

    /// Delivers `value` downstream, or queues it if another call is delivering.
    pub(crate) fn next(mut self, value: T)
    where
        O: Observer<T>,
    {
        if self.state.closed {
            // Parameters drop in reverse order: release the lock before `value` drops.
            drop(self);
            return;
        }
        if !self.take_role() {
            self.state.queue.push_back(value);
            if let Handover::Wanted(emitter) = self.state.handover
                && emitter != thread::current().id()
            {
                self.succeed(emitter);
            }
            return;
        }
        // Held by this thread now, and `WORK` is set only under this lock: clear it.
        self.core.role.store(HELD, Ordering::Relaxed);
        let core = self.core;
        drop(self);
        core.emit(value);
    }

    /// Takes over the delivery role from the emitter on thread `emitter`, which asked for a
    /// successor: waits for its in-flight `on_next` to return (at most [`PATIENCE`]), then
    /// delivers what is queued, this caller's value last.
    #[cold]
    fn succeed(mut self, emitter: thread::ThreadId)
    where
        O: Observer<T>,
    {
        self.state.handover = Handover::Taken;
        #[cfg(loom)]
        {
            self.state.successions += 1;
        }
        let core = self.core;
        let deadline = crate::time::Instant::now() + PATIENCE;
        let mut locked = self;
        loop {
            // `parked` before `state` is let go: the emitter notifies holding both, so the
            // notification cannot fall between letting go and waiting.
            let mut parked = core.parked.lock();
            let work = locked.unlock();
            let timed_out = core.handed.wait_until(&mut parked, deadline);
            drop(parked);
            // What was deferred is user code: it runs with no lock held.
            work.run(core.control_block());
            locked = core.lock();
            if locked.state.handover != Handover::Taken {
                break;
            }
            if timed_out {
                // The emitter is still in its `on_next`, and still delivering: it will
                // deliver this caller's value too.
                locked.state.handover = Handover::Wanted(emitter);
                return;
            }
        }
        if locked.state.handover != Handover::Handed {
            // The emitter stopped (closed, or the queue was dropped by an error).
            return;
        }
        // The role is this thread's now, as the emitter left it.
        locked.state.handover = Handover::Idle;
        let Some(value) = locked.state.queue.pop_front() else {
            // The emitter handed the role over with values queued, but an error or a
            // disposal dropped them before this thread got the lock back: the role is this
            // thread's all the same, and so is what follows (the pending terminal event,
            // or the stop).
            drop(locked);
            core.emit_rest(false);
            return;
        };
        drop(locked);
        core.emit(value);
    }

    /// The emitter stops: a request for a successor lapses, and a successor waiting for it
    /// returns, leaving what is queued to whoever closes or delivers next.
    #[inline]
    fn release_successor(&mut self) {
        if self.state.handover != Handover::Idle {
            if self.state.handover == Handover::Taken {
                self.core.wake_successor();
            }
            self.state.handover = Handover::Idle;
        }
    }

    /// Completes the downstream (after the queued values) and disposes every upstream left.
    pub(crate) fn complete(self)
    where
        O: Observer<T>,
    {
        self.terminate(Terminal::Completed);
    }

    /// Fails the downstream (dropping queued values) and disposes every upstream left.
    pub(crate) fn error(self, error: Error)
    where
        O: Observer<T>,
    {
        self.terminate(Terminal::Error(error));
    }

    /// Closes without a notification and disposes every upstream left: for an operator that
    /// delivered its terminal event itself.
    pub(crate) fn close(mut self) {
        self.shut();
    }

    fn terminate(mut self, terminal: Terminal)
    where
        O: Observer<T>,
    {
        if self.state.closed {
            return;
        }
        self.state.closed = true;
        self.core.done.store(true, Ordering::Release);
        if let Terminal::Error(_) = terminal {
            let queue = take_queue(&mut self.state.queue);
            self.defer_queue(queue);
        }
        self.defer_dispose_control();
        if !self.take_role() {
            // The holder delivers it when it gives the role back.
            self.state.pending = Some(terminal);
            return;
        }
        // SAFETY: this thread has just taken the role, for good.
        let observer = unsafe { self.core.take_observer() };
        // Upstreams are disposed before the terminal event goes out, as in RxJava.
        drop(self);
        if let Some(observer) = observer {
            deliver_terminal(observer, terminal);
        }
    }

    /// Closes without a terminal event: disposed, or the downstream lost interest.
    fn shut(&mut self) {
        self.state.closed = true;
        self.state.pending = None;
        self.core.done.store(true, Ordering::Release);
        let queue = take_queue(&mut self.state.queue);
        self.defer_queue(queue);
        if self.take_role() {
            // SAFETY: this thread has just taken the role, for good.
            let observer = unsafe { self.core.take_observer() };
            self.defer_downstream(observer);
        }
        self.defer_dispose_control();
    }

    /// Frees the subscribing slot of `id`, returning its `CANCELLED` bit; `None` when the
    /// upstream has freed it by terminating.
    fn take_slot(&mut self, id: u64) -> Option<usize> {
        let (slot, value) = self.core.slot(id)?;
        slot.store(0, Ordering::Release);
        Some(value & CANCELLED)
    }

    /// The control block, allocated on first need.
    fn control(&mut self) -> &'c Control<'a, F> {
        match self.core.control_block() {
            Some(control) => control,
            None => self.install_control(Kept::new()),
        }
    }

    /// Keeps upstream `id`'s handle in the control block; `Err` with the handle when the
    /// block was disposed through the handle. The first handle kept is put in the block as
    /// it is allocated, under the core's lock and before its address is published: nobody
    /// else can reach the block yet, so it takes no lock of the block.
    fn keep(&mut self, id: u64, handle: KeptHandle<'a, F>) -> Result<(), KeptHandle<'a, F>> {
        if let Some(control) = self.core.control_block() {
            return control.insert(id, handle);
        }
        let mut handles = Kept::new();
        handles.insert(id, handle);
        self.install_control(handles);
        Ok(())
    }

    /// Allocates the control block with `handles` in it, and publishes its address.
    ///
    /// Inlined, and the block made in its allocation: `handles` and the flags are stored a
    /// word or a byte at a time, and a copy of them into the block would load them back in
    /// wider loads, which wait for those stores to reach the cache instead of taking them
    /// from the store buffer (a stall that costs more than the rest of the step).
    #[inline(always)]
    fn install_control(&mut self, handles: Kept<'a, F>) -> &'c Control<'a, F> {
        let control = self
            .state
            .upstreams
            .control
            .insert(F::new_ptr_with(|| Control {
                disposed: Flag::new(false),
                live: Lock::new(Live {
                    closed: false,
                    handles,
                }),
            }));
        // The block stays in `state` until the core drops: see `MergeCore::control_at`.
        let at = F::as_raw(control).expose_provenance();
        self.core.control_at.store(at, Ordering::Release);
        self.core
            .control_block()
            .expect("the control block was just stored")
    }
}

/// The kept upstream handles, reachable from the [`MergeSubscription`] without naming the
/// observer types.
pub(crate) struct Control<'a, F: Flavour> {
    /// Set by `dispose`, and when the subscription ends. Release/Acquire: the core that sees
    /// it closes, and needs nothing else from the disposer.
    disposed: F::Flag,
    live: F::Lock<Live<'a, F>>,
}

struct Live<'a, F: Flavour> {
    /// Set by `dispose`: a handle arriving later is disposed instead of kept.
    closed: bool,
    /// By id, which is the order the upstreams were subscribed in.
    handles: Kept<'a, F>,
}

impl<'a, F: Flavour> Control<'a, F> {
    fn is_disposed(&self) -> bool {
        self.disposed.load(Ordering::Acquire)
    }

    fn insert(&self, id: u64, handle: KeptHandle<'a, F>) -> Result<(), KeptHandle<'a, F>> {
        let mut live = self.live.lock();
        if live.closed {
            return Err(handle);
        }
        live.handles.insert(id, handle);
        Ok(())
    }

    fn remove(&self, id: u64) -> Option<KeptHandle<'a, F>> {
        self.live.lock().handles.remove(id)
    }

    /// Takes out the handle of `id`, and, if `close` and no other handle is kept, closes
    /// the block as [`dispose`](Control::dispose) would (it would dispose nothing); answers
    /// the handle and whether it closed the block.
    #[inline(always)]
    fn release(&self, id: u64, close: bool) -> (Option<KeptHandle<'a, F>>, bool) {
        let mut live = self.live.lock();
        let released = live.handles.remove(id);
        let closed = close && !live.closed && live.handles.is_empty();
        if closed {
            live.closed = true;
            // Under the lock that `closed` is read under, as in `dispose`.
            self.disposed.store(true, Ordering::Release);
        }
        (released, closed)
    }

    fn take_all_except(&self, id: u64) -> Kept<'a, F> {
        self.live.lock().handles.take_all_except(id)
    }

    fn dispose(&self) {
        if self.is_disposed() {
            return;
        }
        let handles = {
            let mut live = self.live.lock();
            if live.closed {
                return;
            }
            live.closed = true;
            // Under the lock that `closed` is read under: one disposer takes the handles.
            self.disposed.store(true, Ordering::Release);
            mem::take(&mut live.handles)
        };
        // In subscription order, with no lock held: a handle's `dispose` is user code.
        handles.dispose_all();
    }
}

/// The handle returned by the operators of the merge family (`merge_with`, `merge`,
/// `flat_map`, `switch_map`, `take_until`, `amb_with`, ...): disposing it disposes every
/// upstream subscription still running, and the downstream receives nothing more.
///
/// It names no observer type, and is `Send + Sync` when its flavour `F` is `Shared` (when
/// every upstream's handle is `Send`); `'a` bounds what the upstream handles
/// borrow. When everything ended inside `subscribe` it holds nothing and allocates nothing.
///
/// ```
/// use rx::prelude::*;
///
/// let handle = rx::source::just(1).merge_with(rx::source::just(2)).subscribe(|_| {});
/// assert!(handle.is_disposed()); // both sources ran to their end inside `subscribe`
/// ```
#[derive(Clone)]
pub struct MergeSubscription<'a, F: Flavour = Shared> {
    control: Option<F::Ptr<Control<'a, F>>>,
}

impl<F: Flavour> Subscription for MergeSubscription<'_, F> {
    fn dispose(&self) {
        if let Some(control) = &self.control {
            control.dispose();
        }
    }

    fn is_disposed(&self) -> bool {
        self.control
            .as_ref()
            .is_none_or(|control| control.is_disposed())
    }
}

impl<F: Flavour> MergeSubscription<'_, F> {
    /// A handle with nothing to cancel.
    pub(crate) fn empty() -> Self {
        MergeSubscription { control: None }
    }
}

impl<F: Flavour> fmt::Debug for MergeSubscription<'_, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MergeSubscription")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests;

/// Models of the serialising core. Run with
/// `RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=2 cargo test --profile loom --lib loom_merge`.
#[cfg(all(test, loom))]
mod loom_merge;
