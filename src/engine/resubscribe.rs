//! The engine behind every [`retry`](crate::ObservableExt::retry) and
//! [`repeat`](crate::ObservableExt::repeat) (their `_forever`, `_when` and `_with` forms, and
//! [`retry_with_backoff`](crate::ObservableExt::retry_with_backoff)): subscribe a clone of the
//! source again when it ends in a given way, at once or when a notifier says so. One policy,
//! [`Resubscriptions`], serves them all: its trigger (an error or a completion) is what tells
//! a retry from a repeat, and its [`ResubscribeDelay`] what comes between two attempts.
//!
//! Three constraints shape it.
//!
//! - **Types.** The observer handed upstream cannot require `S: Subscribe<Self>` in its own
//!   `Observer` impl: proving that bound needs the impl being proven, and the trait solver
//!   overflows. So an observer that must resubscribe from its own callback does it through a
//!   plain `fn` pointer, [`drive`], instantiated in `subscribe` where the bound is proven.
//! - **Stack and threads.** A synchronous source ends inside `subscribe_observer`, so
//!   resubscribing from the terminal callback would recurse once per attempt and
//!   `just(1).repeat(1_000_000)` would overflow the stack. Attempts are run by a loop instead
//!   ([`run`]), and only one loop runs at a time: whoever runs it holds the *turn*, the right
//!   to touch the policy and the source and to subscribe.
//! - **Notifiers.** What follows an attempt's end is a [`Policy`]'s decision: deliver the
//!   terminal notification, start again at once (`retry(n)`), or wait for a notifier
//!   observable's first value (`retry_when`). The notifier is subscribed by the same loop; its
//!   first value starts the next attempt, its completion completes the sequence and its error
//!   ends it.
//!
//! # Two paths
//!
//! **An end inside `subscribe`.** Most sources end an attempt on the thread that subscribed
//! it, before `subscribe_observer` returns (`throw`, `from_iter`, `create`, a subject that
//! has already failed). Such an end is handed back to the loop through a [`Frame`], a local
//! of the loop that the attempt's observer reaches through the shared state: the downstream
//! observer, and the reference to the shared state the attempt's observer was lent. Nothing
//! on that path is a read-modify-write: the loop says it is inside `subscribe` by storing a
//! token of its thread in `owner` (a plain store), and an observer that ends reads `owner`;
//! it is on the loop's thread, and so inside the loop's `subscribe` (the loop's thread is
//! blocked in that call), exactly when it reads its own thread's token there — no other
//! thread ever writes that token, and the loop's thread clears it before doing anything
//! else. The lend's number, in the frame, tells the observer of the step being subscribed
//! from an older one still alive (a notifier that fired and has not ended).
//!
//! **An end later, or on another thread.** Then the loop may be running on another thread,
//! or not at all. The observer parks the downstream observer under the lock and raises
//! `pending` (RxJava's "work in progress" trampoline): whoever raises it from 0 runs the loop;
//! otherwise the running loop finds the parked observer when it lowers `pending`. The loop
//! also keeps the handle of a step still running after `subscribe` returned, under the same
//! lock, where `dispose` reaches it.
//!
//! # One allocation, counted by hand
//!
//! The state is one allocation with a reference count of its own, not an `Arc`, so that
//! lending it to an attempt costs nothing. The loop holds a *spare* reference that it lends to
//! each step's observer; an observer that ends inside `subscribe` gives it back through the
//! frame, so a sequence of synchronous attempts lends the same reference over and over. Only a
//! step that outlives `subscribe` keeps it, and the loop then takes a new one for the next
//! step. When the loop ends holding every reference there is (`refs` equals what it holds),
//! nothing else can reach the state: it frees it without a read-modify-write, and
//! `subscribe` returns a handle with nothing in it.
//!
//! The counters, flags, lock and cells follow the [flavour](crate::sync) `F`: with `Local`
//! they are `Cell`s and a `RefCell`, and the observers cannot leave the thread.

use super::inside::{self, Inside};
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Ordering;
use crate::subscription::{Finished, Subscription};
use crate::sync::Flavour;
use crate::sync::imp::{BoxSubscription, Counter, Flag, Lock, Machinery, RoleCell};
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;
use std::mem;
use std::ptr::NonNull;

/// Which terminal notification makes a new attempt: the one parameter that tells `retry`
/// from `repeat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// `retry`: resubscribe after an error.
    Error,
    /// `repeat`: resubscribe after completion.
    Completed,
}

/// How an attempt ended.
#[derive(Clone, Copy, Debug)]
pub enum Ended<'e> {
    /// With this error.
    Error(&'e Error),
    /// With completion.
    Completed,
}

/// What a [`Policy`] decides once an attempt has ended.
pub(crate) enum Decision {
    /// Deliver the attempt's terminal notification: the sequence ends.
    Deliver,
    /// Subscribe the source again now.
    Again,
    /// Subscribe the notifier the policy now holds, and the source again at its first value.
    Wait,
}

/// Decides what follows the end of an attempt. Called with no lock of the engine held, as
/// it may run user code, and never twice at once: one attempt runs at a time.
pub(crate) trait Policy {
    /// The observable whose first value starts the next attempt.
    type Notifier;

    /// What follows an attempt that ended as `ended` says; `emitted` tells whether it
    /// emitted a value first.
    fn decide(&mut self, ended: Ended<'_>, emitted: bool) -> Decision;

    /// Whether [`decide`](Policy::decide) can ever answer [`Decision::Wait`]: a policy that
    /// cannot (`retry(n)`, `repeat(n)`) has no notifier to take, and the loop does not ask.
    const WAITS: bool = true;

    /// The notifier asked for by the last [`Decision::Wait`].
    fn take_notifier(&mut self) -> Option<Self::Notifier>;
}

/// What comes between an attempt that ended and the next one: nothing
/// ([`NoDelay`]), a timer, or an observable made from the end and the attempt's number.
/// Implemented by the operators' delays (`rx::operators::TimerDelay` and the others).
pub trait ResubscribeDelay {
    /// The observable whose first value starts the next attempt.
    type Notifier;

    /// Whether [`notifier`](ResubscribeDelay::notifier) can ever answer `Some`.
    const WAITS: bool = true;

    /// The notifier before attempt number `attempt` (1 for the first resubscription), after
    /// an attempt that ended as `ended`; `None` to subscribe again at once.
    fn notifier(&mut self, ended: Ended<'_>, attempt: u32) -> Option<Self::Notifier>;
}

/// The delay of `retry(n)` and `repeat(n)`: none, the next attempt starts at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoDelay;

impl ResubscribeDelay for NoDelay {
    type Notifier = NoNotifier;

    const WAITS: bool = false;

    #[inline]
    fn notifier(&mut self, _: Ended<'_>, _: u32) -> Option<NoNotifier> {
        None
    }
}

/// The one policy of every resubscribing operator: which end starts a new attempt (the
/// trigger), how many may start (`count`, reset by a value when `reset_on_success`), and
/// what comes between two attempts (the delay).
pub struct Resubscriptions<D: ResubscribeDelay> {
    /// Resubscriptions allowed; [`UNLIMITED`] for no limit. Plain integers and flags rather
    /// than `Option`s: the policy is moved into the state at each subscription, and is no
    /// bigger than `retry(n)`'s count alone would be.
    count: usize,
    /// Resubscriptions left.
    remaining: usize,
    /// Resubscriptions so far (since the last value, with `reset_on_success`).
    attempt: u32,
    trigger: Trigger,
    reset_on_success: bool,
    delay: D,
    next: Option<D::Notifier>,
}

/// The count of a policy with no limit: counted down like any other, it would take longer
/// than any program runs to reach zero.
const UNLIMITED: usize = usize::MAX;

impl<D: ResubscribeDelay> Resubscriptions<D> {
    /// A new attempt after each `trigger`, `count` times at most (`None`: no limit), `delay`
    /// between two attempts; a value restores the count when `reset_on_success`.
    pub(crate) fn new(
        trigger: Trigger,
        count: Option<usize>,
        delay: D,
        reset_on_success: bool,
    ) -> Self {
        let count = count.unwrap_or(UNLIMITED);
        Resubscriptions {
            count,
            remaining: count,
            attempt: 0,
            trigger,
            reset_on_success,
            delay,
            next: None,
        }
    }
}

impl<D: ResubscribeDelay + Clone> Clone for Resubscriptions<D> {
    fn clone(&self) -> Self {
        Resubscriptions::new(
            self.trigger,
            Some(self.count),
            self.delay.clone(),
            self.reset_on_success,
        )
    }
}

impl<D: ResubscribeDelay + fmt::Debug> fmt::Debug for Resubscriptions<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resubscriptions")
            .field("trigger", &self.trigger)
            .field("count", &self.count)
            .field("attempt", &self.attempt)
            .field("reset_on_success", &self.reset_on_success)
            .field("delay", &self.delay)
            .finish_non_exhaustive()
    }
}

impl<D: ResubscribeDelay> Policy for Resubscriptions<D> {
    type Notifier = D::Notifier;

    const WAITS: bool = D::WAITS;

    #[inline]
    fn decide(&mut self, ended: Ended<'_>, emitted: bool) -> Decision {
        let trigger = match ended {
            Ended::Error(_) => Trigger::Error,
            Ended::Completed => Trigger::Completed,
        };
        if trigger != self.trigger {
            return Decision::Deliver;
        }
        // `&`, not `&&`: one branch fewer on the path of every end.
        if emitted & self.reset_on_success {
            self.remaining = self.count;
            self.attempt = 0;
        }
        // No limit is `UNLIMITED`, which no program counts down to zero.
        match self.remaining.checked_sub(1) {
            Some(remaining) => self.remaining = remaining,
            None => return Decision::Deliver,
        }
        if !D::WAITS {
            return Decision::Again;
        }
        self.attempt = self.attempt.saturating_add(1);
        match self.delay.notifier(ended, self.attempt) {
            Some(notifier) => {
                self.next = Some(notifier);
                Decision::Wait
            }
            None => Decision::Again,
        }
    }

    #[inline]
    fn take_notifier(&mut self) -> Option<D::Notifier> {
        self.next.take()
    }
}

/// How a [`Policy`]'s notifier is subscribed and its handle kept in the box of flavour `F`.
///
/// Its own trait, beside `Policy`, so that the bound on the notifier's handle belongs to the
/// policies that have one: `retry(n)`'s [`NoNotifier`] has a handle every flavour can box,
/// which a bound written on the engine for every policy could not say of a generic `F`.
pub(crate) trait KeepNotifier<S, O, F: Flavour>: Policy + Sized {
    /// The notifier's handle.
    type Handle: Subscription;

    /// Subscribes `notifier`.
    fn subscribe_notifier(
        notifier: Self::Notifier,
        observer: ResubscribeNotifier<S, O, Self, F>,
    ) -> Self::Handle;

    /// Boxes the notifier's handle to be kept.
    fn keep(handle: Self::Handle) -> F::BoxedSubscription<'static>;
}

impl<S, O, F, D> KeepNotifier<S, O, F> for Resubscriptions<D>
where
    D: ResubscribeDelay,
    D::Notifier: Subscribe<ResubscribeNotifier<S, O, Self, F>>,
    F: Flavour + BoxSubscription<'static, NotifierHandle<S, O, Self, F>>,
{
    type Handle = NotifierHandle<S, O, Self, F>;

    #[inline]
    fn subscribe_notifier(
        notifier: D::Notifier,
        observer: ResubscribeNotifier<S, O, Self, F>,
    ) -> Self::Handle {
        notifier.subscribe_observer(observer)
    }

    fn keep(handle: Self::Handle) -> F::BoxedSubscription<'static> {
        F::box_subscription(handle)
    }
}

/// The handle of the notifier of policy `P`, subscribed with its observer.
pub(crate) type NotifierHandle<S, O, P, F> =
    <<P as Policy>::Notifier as Subscribe<ResubscribeNotifier<S, O, P, F>>>::Subscription;

/// The notifier of a policy that never waits: it has no values, so none is ever built.
#[derive(Debug)]
pub enum NoNotifier {}

impl Observable for NoNotifier {
    type Item = ();
    type Flavour = crate::sync::Shared;
    // It is never subscribed: it takes nothing from the inline path of the sources it waits
    // between.
    const EMISSION: crate::observable::Emission = crate::observable::Emission::INSIDE_SUBSCRIBE;
}

impl<O> Subscribe<O> for NoNotifier {
    type Subscription = Finished;

    fn subscribe_observer(self, _: O) -> Finished {
        match self {}
    }
}

/// The state of one subscription, shared by its handle, the loop and the live observers.
struct ResubscribeState<S, O, P, F: Flavour> {
    /// References held: the handle's, the loop's spare, and one per observer alive that was
    /// lent one (module docs). AcqRel where it is lowered, so that whoever frees the state
    /// sees every other holder's last use; Relaxed where a holder raises it, as `Arc` does.
    refs: F::Counter,
    /// Steps asked for by ends outside the loop's `subscribe`, plus one while the loop runs.
    /// Whoever raises it from 0 runs the loop, so steps never overlap and never recurse.
    /// AcqRel: it is what hands the turn from one thread to the next.
    pending: F::Counter,
    /// The token of the thread whose loop is inside a step's `subscribe`, 0 otherwise. Only
    /// that thread writes its token, so only that thread reads it here (module docs): plain
    /// loads and stores, Relaxed.
    owner: F::Counter,
    /// Set when the handle is disposed or the downstream has received its terminal
    /// notification: no further step starts and nothing more is delivered. Release where
    /// set, Acquire where read.
    closed: F::Flag,
    /// Runs the loop for an observer that raised `pending` from 0. A `fn` pointer made where
    /// the source's `Subscribe` bound is proven, so the observers' impls do not need it.
    #[allow(clippy::type_complexity)]
    drive: unsafe fn(NonNull<ResubscribeState<S, O, P, F>>),
    /// The policy and the source: touched only by the holder of the turn (see [`run`]).
    turn: F::RoleCell<Turn<S, P>>,
    /// Where the loop's frame is, and the number of the last lend: written by the holder of
    /// the turn, read only by an observer that found its thread's token in `owner`.
    frame: F::RoleCell<FrameSlot>,
    /// What several threads may touch: the observer parked by an end outside the loop, and
    /// the handle of the step still running. Never held while user code runs.
    parked: F::Lock<Parked<O, F>>,
}

struct Turn<S, P> {
    source: S,
    policy: P,
}

struct FrameSlot {
    at: *const (),
    lends: usize,
}

struct Parked<O, F: Flavour> {
    /// The downstream observer, parked by an end outside the loop's `subscribe` for the loop
    /// to take; taken and dropped by `dispose`.
    observer: Option<O>,
    /// The handle of the step still running, so `dispose` reaches it. Boxed, in the box of the
    /// source's flavour, because this struct cannot name the source's handle type: that would
    /// bring the overflowing bound back. A zero-sized handle such as `Finished` is boxed
    /// without allocating.
    current: Option<F::BoxedSubscription<'static>>,
}

/// What a step's observer hands back to the loop when it ends inside the step's `subscribe`,
/// on the loop's thread. A local of [`run`]: reached through [`FrameSlot::at`] only while
/// `owner` holds the loop's thread's token.
struct Frame<O> {
    /// The number of the lend this step's observer holds.
    lend: Cell<usize>,
    /// The downstream observer, for the next step.
    observer: Cell<Option<O>>,
    /// Set when the reference lent to the step comes back: the loop's [`LoopRefs::spare`], which
    /// outlives the frame, so a reference given back while a panic unwinds is not lost.
    ref_back: *const Cell<bool>,
}

impl<O> Frame<O> {
    /// The reference lent to this step is back.
    #[inline]
    fn give_back(&self) {
        // SAFETY: `ref_back` points to the loop's `LoopRefs`, which outlives its frames.
        unsafe { (*self.ref_back).set(true) }
    }
}

/// The references a loop holds: released if a callback panics and unwinds through the loop,
/// so that the state is freed once the observers still alive let go of it.
struct LoopRefs<S, O, P, F: Flavour> {
    inner: NonNull<ResubscribeState<S, O, P, F>>,
    /// Whether the spare is held (not lent to a step).
    spare: Cell<bool>,
    /// The references held besides the spare.
    others: usize,
    /// Whether the state is on the heap (on the stack, unwinding drops it).
    heap: bool,
}

impl<S, O, P, F: Flavour> LoopRefs<S, O, P, F> {
    /// The loop ends normally: what is held goes to the caller. Returns the spare's state.
    #[inline]
    fn keep(self) -> bool {
        let spare = self.spare.get();
        mem::forget(self);
        spare
    }
}

impl<S, O, P, F: Flavour> Drop for LoopRefs<S, O, P, F> {
    fn drop(&mut self) {
        if !self.heap {
            return;
        }
        for _ in 0..self.others + usize::from(self.spare.get()) {
            // SAFETY: these references are held by the unwinding loop, and not used again.
            unsafe { ResubscribeState::release(self.inner) };
        }
    }
}

// SAFETY: `turn` and `frame` are the fields that are not `Sync`. `turn` is reached only by the
// holder of the turn, one thread at a time, and the turn passes from a thread to the next
// through `pending` (AcqRel) or through the source itself (the loop subscribes the observer
// whose end takes the turn), so each access happens after the last: what a `Mutex` would
// give, hence `S: Send` and `P: Send`. `frame` is written by the holder of the turn and read
// by an observer only on the thread that wrote `owner`'s token last, which is then the
// holder. The other fields are atomics and a lock, `Sync` when what they keep is `Send`.
unsafe impl<S: Send, O: Send, P: Send, F: Flavour> Sync for ResubscribeState<S, O, P, F>
where
    F::Counter: Sync,
    F::Flag: Sync,
    F::Lock<Parked<O, F>>: Sync,
{
}

// SAFETY: the raw pointer in `frame` is what keeps `ResubscribeState` from being `Send`; it
// points into the frame of a loop, and is read only on that loop's thread (above). The rest
// moves with its contents.
unsafe impl<S: Send, O: Send, P: Send, F: Flavour> Send for ResubscribeState<S, O, P, F>
where
    F::Counter: Send,
    F::Flag: Send,
    F::Lock<Parked<O, F>>: Send,
{
}

/// The token of the calling thread for state of flavour `F`: the address of a thread-local,
/// distinct for every live thread. One thread reaches `Local` state, so its token is a
/// constant and costs nothing.
#[inline]
fn token<F: Flavour>() -> usize {
    if <F as Machinery>::THREADED {
        inside::thread_token()
    } else {
        1
    }
}

impl<S, O, P, F: Flavour> ResubscribeState<S, O, P, F> {
    /// Parks `observer` for the loop's next step after an end outside the loop's
    /// `subscribe`, unless the subscription is closed, and hands `ended` the handle of the
    /// step that ended, outside the lock. Answers whether this call raised `pending` from 0:
    /// the caller then runs the loop, giving it a reference.
    fn park_observer(
        &self,
        observer: O,
        ended: impl FnOnce(Option<F::BoxedSubscription<'static>>),
    ) -> bool {
        let mut parked = self.parked.lock();
        if self.closed.load(Ordering::Acquire) {
            return false;
        }
        parked.observer = Some(observer);
        let handle = parked.current.take();
        drop(parked);
        ended(handle);
        self.pending.fetch_add(1, Ordering::AcqRel) == 0
    }

    /// Drops one reference; frees the state if it was the last.
    ///
    /// # Safety
    ///
    /// The caller holds a reference to `this`, and does not use `this` afterwards.
    unsafe fn release(this: NonNull<Self>) {
        // SAFETY: the caller holds a reference, so the state is alive.
        let last = unsafe { this.as_ref() }.refs.fetch_sub(1, Ordering::AcqRel) == 1;
        if last {
            // SAFETY: that was the last reference: nobody else reaches the state, and the
            // AcqRel above saw every other holder's last use.
            unsafe { Self::free(this) };
        }
    }

    /// Frees the state.
    ///
    /// # Safety
    ///
    /// Nobody else holds a reference, and every other holder's last use happens before this.
    unsafe fn free(this: NonNull<Self>) {
        // SAFETY: made by `Box::into_raw` in `subscribe_with`; nobody else reaches it.
        drop(unsafe { Box::from_raw(this.as_ptr()) });
    }

    /// Runs `f` on the policy and the source.
    ///
    /// # Safety
    ///
    /// The caller holds the turn: it is the loop, or the observer of the step the loop is
    /// running, in its terminal notification (one step is live at a time, and its end is
    /// what lets the loop go on).
    unsafe fn turn<R>(&self, f: impl FnOnce(&mut Turn<S, P>) -> R) -> R {
        // SAFETY: the caller holds the turn (above): no other reference to it is live, and
        // the last access happens before this one.
        self.turn.with_mut(|turn| f(unsafe { &mut *turn }))
    }
}

/// A reference to the state, lent to a step's observer by the loop under the lend number
/// `id`. Dropped, it goes back to the loop through the frame if the step is ending inside
/// the loop's `subscribe`, and is released otherwise.
struct Lent<S, O, P, F: Flavour> {
    inner: NonNull<ResubscribeState<S, O, P, F>>,
    id: usize,
    _owns: PhantomData<ResubscribeState<S, O, P, F>>,
}

// SAFETY: a counted reference, as an `Arc`: sending it or sharing it lets other threads reach
// `ResubscribeState` by `&`, and release it there.
unsafe impl<S, O, P, F: Flavour> Send for Lent<S, O, P, F> where
    ResubscribeState<S, O, P, F>: Send + Sync
{
}
// SAFETY: as above; `&Lent` gives only `&ResubscribeState`.
unsafe impl<S, O, P, F: Flavour> Sync for Lent<S, O, P, F> where
    ResubscribeState<S, O, P, F>: Send + Sync
{
}

impl<S, O, P, F: Flavour> Lent<S, O, P, F> {
    #[inline]
    fn inner(&self) -> &ResubscribeState<S, O, P, F> {
        // SAFETY: a lent reference keeps the state alive.
        unsafe { self.inner.as_ref() }
    }

    /// The loop's frame, if this observer is ending inside the `subscribe` of its own step,
    /// on the loop's thread.
    #[inline]
    fn frame(&self) -> Option<&Frame<O>> {
        let inner = self.inner();
        if !inside::is_inside(&inner.owner, token::<F>()) {
            return None;
        }
        // This thread's loop is inside a step's `subscribe`, below this call: it wrote the
        // frame slot last, and its frame is alive.
        let at = inner.frame.with_mut(|slot| {
            // SAFETY: read on the thread of the holder of the turn, which wrote it (above).
            unsafe { (*slot).at }
        });
        // SAFETY: the frame of a loop blocked in `subscribe` below this call.
        let frame = unsafe { &*(at as *const Frame<O>) };
        (frame.lend.get() == self.id).then_some(frame)
    }

    /// Hands `observer` and this reference back to the loop, if this observer is ending
    /// inside the `subscribe` of its own step; gives both back otherwise.
    #[inline]
    fn hand_back(self, observer: O) -> Result<(), (O, Self)> {
        match self.frame() {
            Some(frame) => {
                frame.observer.set(Some(observer));
                frame.give_back();
            }
            None => return Err((observer, self)),
        }
        // Given back through the frame: not to be released.
        mem::forget(self);
        Ok(())
    }

    /// Gives up the reference without releasing it: it goes to a loop this thread runs.
    #[inline]
    fn into_raw(self) -> NonNull<ResubscribeState<S, O, P, F>> {
        let inner = self.inner;
        mem::forget(self);
        inner
    }
}

impl<S, O, P, F: Flavour> Drop for Lent<S, O, P, F> {
    #[inline]
    fn drop(&mut self) {
        match self.frame() {
            Some(frame) => frame.give_back(),
            // SAFETY: this reference is held, and not used again.
            None => unsafe { ResubscribeState::release(self.inner) },
        }
    }
}

/// Subscribes `source` with `observer`, and again whenever `policy` says so.
///
/// `inline`: whether the source, and the policy's notifiers if it has any, finish inside
/// `subscribe` ([`Observable::EMISSION`]), a constant the operator passes. Then every step
/// ends inside the loop's `subscribe`, on this thread, and gives its reference back: the
/// state lives on this function's stack, and nothing is allocated.
pub(crate) fn subscribe_with<S, O, P, F>(
    source: S,
    observer: O,
    policy: P,
    inline: bool,
) -> ResubscribeSubscription<S, O, P, F>
where
    S: Subscribe<ResubscribeObserver<S, O, P, F>> + Clone,
    F: Flavour
        + BoxSubscription<'static, <S as Subscribe<ResubscribeObserver<S, O, P, F>>>::Subscription>,
    P: Policy,
    P: KeepNotifier<S, O, F>,
{
    let new = || ResubscribeState {
        // The handle's and the loop's spare.
        refs: Counter::new(2),
        // This loop runs.
        pending: Counter::new(1),
        owner: Counter::new(0),
        closed: Flag::new(false),
        drive: drive::<S, O, P, F>,
        turn: RoleCell::new(Turn { source, policy }),
        frame: RoleCell::new(FrameSlot {
            at: std::ptr::null(),
            lends: 0,
        }),
        parked: Lock::new(Parked {
            observer: None,
            current: None,
        }),
    };
    if inline {
        let inner = new();
        // SAFETY: this frame holds the turn (`pending` is 1) and two references. Every step
        // finishes inside its `subscribe` on this thread, having dropped its observer (the
        // constant's promise), so every lent reference comes back before `run` returns and
        // nothing reaches `inner` after this frame: `run` ends alone, and no handle is kept.
        let exit = unsafe { run(NonNull::from(&inner), Some(observer), true, 1, false) };
        debug_assert!(matches!(exit, Exit::Alone));
        return ResubscribeSubscription { inner: None };
    }
    let inner = NonNull::from(Box::leak(Box::new(new())));
    // SAFETY: this frame holds the turn (`pending` is 1) and two references.
    match unsafe { run(inner, Some(observer), true, 1, true) } {
        Exit::Alone => {
            // SAFETY: `run` found the two references this frame holds to be all there are.
            unsafe { ResubscribeState::free(inner) };
            ResubscribeSubscription { inner: None }
        }
        Exit::Left { spare } => {
            if spare {
                // SAFETY: the spare is held; the handle's reference keeps the state alive.
                unsafe { ResubscribeState::release(inner) };
            }
            ResubscribeSubscription {
                inner: Some(Handle(inner, PhantomData)),
            }
        }
    }
}

/// A handle that has nothing to run: for `repeat(0)`, which completes without subscribing.
pub(crate) fn closed<S, O, P, F: Flavour>(source: S) -> ResubscribeSubscription<S, O, P, F> {
    drop(source);
    ResubscribeSubscription { inner: None }
}

/// How [`run`] ended.
enum Exit {
    /// Holding every reference there is: nothing else can reach the state.
    Alone,
    /// The turn was given up; `spare` says whether the loop still holds its spare reference.
    Left { spare: bool },
}

/// Runs a loop from an observer's end outside the loop's `subscribe`: that observer raised
/// `pending` from 0 and parked the downstream observer.
///
/// # Safety
///
/// The caller raised `pending` from 0, and passes a reference to the loop: the loop lends
/// its spares, so it needs one of its own to outlive the steps it subscribes.
unsafe fn drive<S, O, P, F>(inner: NonNull<ResubscribeState<S, O, P, F>>)
where
    S: Subscribe<ResubscribeObserver<S, O, P, F>> + Clone,
    F: Flavour
        + BoxSubscription<'static, <S as Subscribe<ResubscribeObserver<S, O, P, F>>>::Subscription>,
    P: Policy,
    P: KeepNotifier<S, O, F>,
{
    // SAFETY: a reference is held (above).
    let observer = unsafe { inner.as_ref() }.parked.lock().observer.take();
    // SAFETY: the caller holds the turn (it raised `pending` from 0) and passed a reference.
    match unsafe { run(inner, observer, false, 1, true) } {
        // SAFETY: every reference is the loop's: nobody else reaches the state.
        Exit::Alone => unsafe { ResubscribeState::free(inner) },
        Exit::Left { spare } => {
            if spare {
                // SAFETY: the spare is held and not used again; the loop's own reference
                // keeps the state alive.
                unsafe { ResubscribeState::release(inner) };
            }
            // SAFETY: the loop's own reference, not used again.
            unsafe { ResubscribeState::release(inner) };
        }
    }
}

/// Runs steps — an attempt, or a notifier — while the last one asked for another, starting
/// with `observer` (none: nothing to run). `spare`: whether a reference is held to lend;
/// `others`: how many references the caller holds besides it; `keep`: whether the handle of
/// a step that did not ask for another is kept for `dispose` (not for state on the stack,
/// whose steps have all finished when their `subscribe` returns).
///
/// # Safety
///
/// The caller holds the turn, and the references it says.
unsafe fn run<S, O, P, F>(
    ptr: NonNull<ResubscribeState<S, O, P, F>>,
    mut observer: Option<O>,
    spare: bool,
    others: usize,
    keep: bool,
) -> Exit
where
    S: Subscribe<ResubscribeObserver<S, O, P, F>> + Clone,
    F: Flavour
        + BoxSubscription<'static, <S as Subscribe<ResubscribeObserver<S, O, P, F>>>::Subscription>,
    P: Policy,
    P: KeepNotifier<S, O, F>,
{
    // SAFETY: the caller holds a reference.
    let inner = unsafe { ptr.as_ref() };
    // Whether a handle was stored for `dispose`: the handle `subscribe` returns must be there.
    let mut kept = false;
    let held = LoopRefs {
        inner: ptr,
        spare: Cell::new(spare),
        others,
        heap: keep,
    };
    loop {
        while let Some(next) = observer.take() {
            if inner.closed.load(Ordering::Acquire) {
                // Disposed: the observer is dropped here, as it runs other operators' code.
                drop(next);
                break;
            }
            if !held.spare.replace(false) {
                // The last spare is held by a step that outlived its `subscribe`.
                inner.refs.fetch_add(1, Ordering::Relaxed);
            }
            let frame = Frame {
                lend: Cell::new(0),
                observer: Cell::new(None),
                ref_back: &held.spare,
            };
            let lend = inner.frame.with_mut(|slot| {
                // SAFETY: the holder of the turn writes the slot. The frame stays where it is
                // until the step's `subscribe` has returned, and `owner` is cleared before
                // it goes.
                let slot = unsafe { &mut *slot };
                slot.lends = slot.lends.wrapping_add(1);
                frame.lend.set(slot.lends);
                slot.at = &frame as *const Frame<O> as *const ();
                slot.lends
            });
            let lent = Lent {
                inner: ptr,
                id: lend,
                _owns: PhantomData,
            };
            let notifier = if P::WAITS {
                // SAFETY: the loop holds the turn.
                unsafe { inner.turn(|turn| turn.policy.take_notifier()) }
            } else {
                None
            };
            if let Some(notifier) = notifier {
                let handle = {
                    let _inside = Inside::enter(&inner.owner, token::<F>());
                    P::subscribe_notifier(
                        notifier,
                        ResubscribeNotifier {
                            observer: Some(next),
                            lent,
                            fired: false,
                        },
                    )
                };
                observer = frame.observer.take();
                if observer.is_some() || inner.closed.load(Ordering::Acquire) {
                    // It fired or ended inside `subscribe`, or the sequence is over: it is
                    // not wanted any more (harmless if it has finished).
                    handle.dispose();
                } else if keep {
                    // Still waiting, or it let its observer go without a word: its handle
                    // is what `dispose` must reach.
                    keep_notifier::<S, O, P, F>(inner, handle);
                    kept = true;
                }
            } else {
                // SAFETY: the loop holds the turn.
                let source = unsafe { inner.turn(|turn| turn.source.clone()) };
                let handle = {
                    let _inside = Inside::enter(&inner.owner, token::<F>());
                    source.subscribe_observer(ResubscribeObserver {
                        observer: next,
                        lent,
                        emitted: false,
                    })
                };
                observer = frame.observer.take();
                if inner.closed.load(Ordering::Acquire) {
                    // Disposed, or the terminal was delivered: harmless if it has ended.
                    handle.dispose();
                } else if keep && observer.is_none() {
                    // Still running, or it let its observer go without a terminal (the
                    // downstream stopped it): its handle is what `dispose` must reach.
                    keep_attempt::<S, O, P, F>(inner, handle);
                    kept = true;
                }
                // Otherwise it ended inside `subscribe` and asked for another step: nothing
                // is left to cancel.
            }
        }
        if held.spare.get() && !kept && inner.refs.load(Ordering::Acquire) == others + 1 {
            // Every reference is back and nothing is kept: no observer is alive, so nothing
            // can raise `pending`, park an observer or take the turn any more, and there is
            // nothing to dispose.
            held.keep();
            return Exit::Alone;
        }
        if inner.pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            return Exit::Left { spare: held.keep() };
        }
        // A step ended outside `subscribe` and asked for another: its observer is parked
        // (`None` if `dispose` took it). Acquire above sees it.
        observer = inner.parked.lock().observer.take();
    }
}

/// Keeps the handle of an attempt that may still be running after its `subscribe`
/// returned, where `dispose` reaches it.
#[cold]
#[inline(never)]
fn keep_attempt<S, O, P, F>(
    inner: &ResubscribeState<S, O, P, F>,
    subscription: <S as Subscribe<ResubscribeObserver<S, O, P, F>>>::Subscription,
) where
    S: Subscribe<ResubscribeObserver<S, O, P, F>>,
    F: Flavour
        + BoxSubscription<'static, <S as Subscribe<ResubscribeObserver<S, O, P, F>>>::Subscription>,
{
    // Another step asked for: the attempt has ended on another thread and parked the
    // observer for the next one (nothing else raises `pending` while an attempt runs), so
    // its handle has nothing left to cancel.
    if inner.pending.load(Ordering::Acquire) > 1 {
        return;
    }
    // Not kept if it reports itself disposed, as in the merge core: a `never()`'s holds this
    // attempt's observer, and kept it would be a cycle. Asked before locking: user code.
    let finished = subscription.is_disposed();
    let mut parked = inner.parked.lock();
    // `dispose` sets `closed` before it takes the lock: either it finds the handle stored,
    // or this sees the flag.
    if inner.closed.load(Ordering::Acquire) {
        drop(parked);
        subscription.dispose();
    } else if parked.observer.is_none() {
        let kept = if finished {
            // A zero-sized `Finished` (no allocation) says nothing runs behind it. The
            // sequence stays open: a source may still owe the observer a terminal it queued.
            F::box_send(Finished)
        } else {
            F::box_subscription(subscription)
        };
        let previous = parked.current.replace(kept);
        drop(parked);
        drop(previous);
    }
    // Otherwise the attempt has ended meanwhile and parked the observer for the next one.
}

/// Keeps the handle of a notifier that may still be running, where `dispose` reaches it.
#[cold]
#[inline(never)]
fn keep_notifier<S, O, P, F>(inner: &ResubscribeState<S, O, P, F>, subscription: P::Handle)
where
    F: Flavour,
    P: KeepNotifier<S, O, F>,
{
    // It fired on another thread meanwhile: not wanted any more.
    if inner.pending.load(Ordering::Acquire) > 1 {
        subscription.dispose();
        return;
    }
    // A handle that reports itself disposed is not kept, as in the merge core: it can
    // deliver nothing more, and `never()`'s holds its observer: kept, it would be a cycle
    // nothing breaks. Asked before locking: user code.
    let finished = subscription.is_disposed();
    let mut parked = inner.parked.lock();
    if !inner.closed.load(Ordering::Acquire) && parked.observer.is_none() && !finished {
        let previous = parked.current.replace(P::keep(subscription));
        drop(parked);
        drop(previous);
    } else {
        // It has fired or ended meanwhile, has nothing running, or the sequence was
        // disposed: cancel it, which is harmless if it has finished.
        drop(parked);
        subscription.dispose();
    }
}

/// The observer [`Retry`](crate::operators::Retry), [`Repeat`](crate::operators::Repeat) and
/// their `_when` forms subscribe upstream, once per attempt.
pub struct ResubscribeObserver<S, O, P, F: Flavour = crate::sync::Shared> {
    observer: O,
    lent: Lent<S, O, P, F>,
    /// Whether this attempt has emitted a value: `retry`'s `reset_on_success` asks.
    emitted: bool,
}

/// Starts another attempt, or waits for a notifier, if the policy says so and downstream
/// still listens; otherwise hands the observer back to deliver the terminal.
// Inlined into the two terminal callbacks: each passes what it knows of the end, which
// folds the policy's decision to a few instructions.
#[inline(always)]
fn resubscribe<S, O, P: Policy, F: Flavour>(
    this: ResubscribeObserver<S, O, P, F>,
    ended: Ended<'_>,
    downstream_disposed: bool,
) -> Option<O> {
    let ResubscribeObserver {
        observer,
        lent,
        emitted,
    } = this;
    let inner = lent.inner();
    if inner.closed.load(Ordering::Acquire) {
        return None;
    }
    let decision = if downstream_disposed {
        Decision::Deliver
    } else {
        // SAFETY: the live attempt's observer, in its terminal notification, holds the turn.
        unsafe { inner.turn(|turn| turn.policy.decide(ended, emitted)) }
    };
    if let Decision::Deliver = decision {
        // No lock: nothing is parked or stored for this end, and `dispose`, which may race
        // it, only needs the flag to start nothing more.
        inner.closed.store(true, Ordering::Release);
        drop(lent);
        return Some(observer);
    }
    // Inside the loop's `subscribe`, the loop picks the observer up when it returns.
    if let Err((observer, lent)) = lent.hand_back(observer) {
        park(observer, lent);
    }
    None
}

/// Parks the downstream observer for the next step after an end outside the loop's
/// `subscribe`, and runs the loop if nobody does.
#[cold]
#[inline(never)]
fn park<S, O, P, F: Flavour>(observer: O, lent: Lent<S, O, P, F>) {
    if lent.inner().park_observer(observer, drop) {
        let inner = lent.into_raw();
        // SAFETY: `pending` was raised from 0, and this reference passes to the loop.
        unsafe { (inner.as_ref().drive)(inner) };
    }
}

impl<T, S, O: Observer<T>, P: Policy, F: Flavour> Observer<T> for ResubscribeObserver<S, O, P, F> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.emitted = true;
        self.observer.on_next(value)
    }

    fn on_error(self, error: Error) {
        let downstream_disposed = self.observer.is_disposed();
        if let Some(observer) = resubscribe(self, Ended::Error(&error), downstream_disposed) {
            observer.on_error(error)
        }
    }

    fn on_completed(self) {
        let downstream_disposed = self.observer.is_disposed();
        if let Some(observer) = resubscribe(self, Ended::Completed, downstream_disposed) {
            observer.on_completed()
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed() || self.lent.inner().closed.load(Ordering::Acquire)
    }
}

impl<S, O, P, F: Flavour> fmt::Debug for ResubscribeObserver<S, O, P, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResubscribeObserver")
            .field("closed", &self.lent.inner().closed.load(Ordering::Acquire))
            .finish_non_exhaustive()
    }
}

/// The observer [`RetryWhen`](crate::operators::RetryWhen) and
/// [`RepeatWhen`](crate::operators::RepeatWhen) subscribe to each notifier: its first value
/// starts the next attempt, its completion completes the sequence and its error ends it. It
/// carries the downstream observer until then.
pub struct ResubscribeNotifier<S, O, P, F: Flavour = crate::sync::Shared> {
    /// The downstream observer until the first value or the terminal.
    observer: Option<O>,
    lent: Lent<S, O, P, F>,
    /// Set by the first value: the rest are not wanted.
    fired: bool,
}

impl<S, O, P, F: Flavour> ResubscribeNotifier<S, O, P, F> {
    /// The notifier ended before its first value: so does the sequence, the same way.
    fn finish<T>(self, error: Option<Error>)
    where
        O: Observer<T>,
    {
        let ResubscribeNotifier { observer, lent, .. } = self;
        let Some(observer) = observer else {
            return;
        };
        let inner = lent.inner();
        if inner.closed.load(Ordering::Acquire) {
            return;
        }
        inner.closed.store(true, Ordering::Release);
        match lent.frame() {
            Some(frame) => {
                // Inside the loop's `subscribe`: no handle was stored yet, and the reference
                // goes back through the frame.
                frame.give_back();
                mem::forget(lent);
            }
            None => {
                // Its own handle, stored if it outlived `subscribe`: nothing left to cancel.
                let handle = inner.parked.lock().current.take();
                drop(handle);
                drop(lent);
            }
        }
        match error {
            Some(error) => observer.on_error(error),
            None => observer.on_completed(),
        }
    }
}

impl<N, S: Observable, O: Observer<S::Item>, P, F: Flavour> Observer<N>
    for ResubscribeNotifier<S, O, P, F>
{
    fn on_next(&mut self, _: N) {
        if self.fired {
            return;
        }
        self.fired = true;
        let Some(observer) = self.observer.take() else {
            return;
        };
        let inner = self.lent.inner();
        if inner.closed.load(Ordering::Acquire) {
            return;
        }
        if let Some(frame) = self.lent.frame() {
            // Inside the loop's `subscribe`: it starts the attempt when the call returns.
            // The lent reference stays with this observer until it ends.
            frame.observer.set(Some(observer));
            return;
        }
        // The notifier's own handle, if stored already: it is not wanted any more.
        let ended = |handle: Option<F::BoxedSubscription<'static>>| {
            if let Some(handle) = handle {
                handle.dispose();
            }
        };
        if inner.park_observer(observer, ended) {
            // This observer's reference stays with it: the loop gets one of its own.
            inner.refs.fetch_add(1, Ordering::Relaxed);
            // SAFETY: `pending` was raised from 0, and the loop is given a reference.
            unsafe { (inner.drive)(self.lent.inner) };
        }
    }

    fn on_error(self, error: Error) {
        self.finish(Some(error));
    }

    fn on_completed(self) {
        self.finish(None);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.fired || self.lent.inner().closed.load(Ordering::Acquire)
    }
}

impl<S, O, P, F: Flavour> fmt::Debug for ResubscribeNotifier<S, O, P, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResubscribeNotifier")
            .field("fired", &self.fired)
            .finish_non_exhaustive()
    }
}

/// The handle's counted reference.
struct Handle<S, O, P, F: Flavour>(
    NonNull<ResubscribeState<S, O, P, F>>,
    PhantomData<ResubscribeState<S, O, P, F>>,
);

// SAFETY: a counted reference, as an `Arc` (see `Lent`).
unsafe impl<S, O, P, F: Flavour> Send for Handle<S, O, P, F> where
    ResubscribeState<S, O, P, F>: Send + Sync
{
}
// SAFETY: as above.
unsafe impl<S, O, P, F: Flavour> Sync for Handle<S, O, P, F> where
    ResubscribeState<S, O, P, F>: Send + Sync
{
}

impl<S, O, P, F: Flavour> Drop for Handle<S, O, P, F> {
    fn drop(&mut self) {
        // SAFETY: the handle's reference, not used again.
        unsafe { ResubscribeState::release(self.0) }
    }
}

/// The handle of a [`Retry`](crate::operators::Retry) or
/// [`Repeat`](crate::operators::Repeat) subscription, and of their `_when` forms: disposing
/// it disposes the running attempt or notifier and starts no other. Empty when the sequence
/// was over when `subscribe` returned.
pub struct ResubscribeSubscription<S, O, P, F: Flavour = crate::sync::Shared> {
    inner: Option<Handle<S, O, P, F>>,
}

impl<S, O, P, F: Flavour> ResubscribeSubscription<S, O, P, F> {
    fn inner(&self) -> Option<&ResubscribeState<S, O, P, F>> {
        // SAFETY: the handle's reference keeps the state alive.
        self.inner
            .as_ref()
            .map(|handle| unsafe { handle.0.as_ref() })
    }
}

impl<S, O, P, F: Flavour> Subscription for ResubscribeSubscription<S, O, P, F> {
    fn dispose(&self) {
        let Some(inner) = self.inner() else {
            return;
        };
        // Release pairs with the Acquire loads in the loop and in the observers.
        inner.closed.store(true, Ordering::Release);
        let (current, observer) = {
            let mut parked = inner.parked.lock();
            (parked.current.take(), parked.observer.take())
        };
        // Outside the lock: disposing and dropping run code of other operators.
        if let Some(current) = current {
            current.dispose();
        }
        drop(observer);
    }

    fn is_disposed(&self) -> bool {
        self.inner().is_none_or(|inner| {
            inner.closed.load(Ordering::Acquire)
                || inner
                    .parked
                    .lock()
                    .current
                    .as_ref()
                    .is_some_and(|current| current.is_disposed())
        })
    }
}

impl<S, O, P, F: Flavour> fmt::Debug for ResubscribeSubscription<S, O, P, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResubscribeSubscription")
            .field(
                "closed",
                &self
                    .inner()
                    .is_none_or(|inner| inner.closed.load(Ordering::Acquire)),
            )
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests;
