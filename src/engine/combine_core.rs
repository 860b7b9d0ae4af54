//! The engine behind [`zip`](crate::ObservableExt::zip),
//! [`combine_latest`](crate::ObservableExt::combine_latest) and
//! [`with_latest_from`](crate::ObservableExt::with_latest_from): several sources feeding one
//! downstream observer through shared state.
//!
//! # How it works
//!
//! Every source is subscribed with an observer holding an `Arc` to one [`CombineCore`]: a lock
//! around the per-source *slots* (what each source has contributed so far — buffered values
//! for zip, the latest value for combine_latest — and the source's handle), a queue of rows
//! ready for the downstream, and the downstream observer itself.
//!
//! A notification updates the slots under the lock and may queue a row. Delivery follows the
//! queue-drain pattern (RxJava's `drain` loops): the thread that finds nobody delivering takes
//! the downstream observer out of the state and delivers row after row, releasing the lock
//! around each call; a notification that arrives meanwhile, from another thread or
//! re-entrantly from the downstream itself, only queues its row, which the delivering thread
//! picks up before it puts the observer back. So deliveries never overlap (the Rx
//! serialisation rule), no lock is held while user code runs, and a downstream that makes a
//! source emit again re-entrantly cannot deadlock.
//!
//! Each source's handle is stored in its slot once `subscribe` returns it, so whichever source
//! ends the sequence can dispose the others (Rx.NET's `SingleAssignmentDisposable`). A
//! handle's type depends on the observer type, which names the slots, so the stored handle is
//! type-erased: boxed, which allocates nothing for a zero-sized handle, and not stored at all
//! when it is already disposed, as a synchronous source's is.
//!
//! The slots, and the mechanical per-tuple code over them, are in `combine_slots`; the logic
//! lives in the generic functions here and in each operator's observer.

use super::combine_slots::{Buffer, Slot, SlotAt, Slots};
use crate::Error;
use crate::observer::Observer;
use crate::primitive::{Arc, AtomicBool, Mutex, MutexGuard, Ordering};
use crate::subscription::Subscription;
use crate::sync::imp::BoxSubscription;
use std::cell::UnsafeCell;
use std::{fmt, mem};

/// What a notification did to the sequence.
pub(crate) enum Step {
    /// The sequence goes on.
    Continue,
    /// The sequence completes once the rows already queued are delivered.
    Complete,
    /// The sequence fails at once; queued rows are dropped.
    Fail(Error),
}

/// How the sequence stands.
enum End {
    Running,
    /// Complete once the queue is empty.
    Completing,
    /// Deliver this error next.
    Failing(Error),
    /// Disposed, or the downstream no longer wants values: deliver nothing more.
    Disposed,
    /// Nothing more will happen; the downstream observer is gone.
    Done,
}

/// The state shared by the sources' observers and the handle.
pub(crate) struct CombineCore<L, R, O> {
    /// Set once the sequence has ended one way or another, so sources stop: what their
    /// observers' `is_disposed` reports. Release/Acquire: a source that sees it also sees the
    /// state the writer left.
    stopped: AtomicBool,
    state: Mutex<State<L, R, O>>,
}

struct State<L, R, O> {
    /// The sources' slots; `None` once the sequence has ended, when they have been taken out
    /// to dispose the sources. A notification that finds `None` is dropped.
    slots: Option<L>,
    /// Rows waiting for delivery, oldest first.
    rows: Buffer<R>,
    /// The downstream observer while nobody is delivering. A thread that delivers takes it
    /// out, so finding `None` before the end means another thread is delivering and will
    /// pick up what was queued; after the end it is `None` for good.
    observer: Option<O>,
    end: End,
}

impl<L: Slots, R, O: Observer<R>> CombineCore<L, R, O> {
    /// A core for `observer`, whose sources have yet to be subscribed. A downstream that is
    /// already disposed makes a core that is stopped from the start.
    pub(crate) fn new(slots: L, observer: O) -> Self {
        let live = !observer.is_disposed();
        CombineCore {
            stopped: AtomicBool::new(!live),
            state: Mutex::new(State {
                slots: live.then_some(slots),
                rows: Buffer::new(),
                observer: live.then_some(observer),
                end: if live { End::Running } else { End::Done },
            }),
        }
    }

    /// Whether the sequence has ended or been disposed: sources should stop.
    #[inline]
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }

    /// Keeps the handle of source `I` where the end of the sequence can dispose it, or
    /// disposes it at once if the sequence has already ended.
    pub(crate) fn set_handle<'a, const I: usize, H>(&self, handle: H)
    where
        L: SlotAt<I>,
        <L as SlotAt<I>>::Slot: Slot<'a>,
        H: Subscription,
        <<L as SlotAt<I>>::Slot as Slot<'a>>::Flavour: BoxSubscription<'a, H>,
    {
        if handle.is_disposed() {
            // A finished synchronous source: nothing to keep, nothing to allocate.
            return;
        }
        let handle = <<L as SlotAt<I>>::Slot as Slot<'a>>::Flavour::box_subscription(handle);
        let mut state = self.state.lock();
        match &mut state.slots {
            Some(slots) => *slots.at().handle() = Some(handle),
            None => {
                drop(state);
                handle.dispose();
            }
        }
    }

    /// Applies `step` to the slots and the row queue under the lock, then delivers what it
    /// queued. `step` returns what the sequence does next, and anything it wants dropped
    /// once the lock is released (a replaced value: dropping runs user code). Nothing
    /// happens once the sequence has ended.
    #[inline]
    pub(crate) fn update<G>(&self, step: impl FnOnce(&mut L, &mut Buffer<R>) -> (Step, G)) {
        let mut state = self.state.lock();
        let state_ref = &mut *state;
        let Some(slots) = &mut state_ref.slots else {
            return;
        };
        let (next, garbage) = step(slots, &mut state_ref.rows);
        let released = match next {
            Step::Continue => {
                if state.observer.as_ref().is_some_and(O::is_disposed) {
                    self.end(&mut state, End::Disposed)
                } else {
                    None
                }
            }
            Step::Complete => self.end(&mut state, End::Completing),
            Step::Fail(error) => self.end(&mut state, End::Failing(error)),
        };
        if released.is_none() && state.rows.is_empty() && matches!(state.end, End::Running) {
            // Nothing to deliver (the other source of with_latest_from, a value waiting for
            // its partner): leave the observer where it is.
            drop(state);
        } else {
            self.deliver(state, released);
        }
        drop(garbage);
    }

    /// Disposes the subscription: the sources are disposed and nothing more is delivered.
    pub(crate) fn dispose(&self) {
        let mut state = self.state.lock();
        let released = self.end(&mut state, End::Disposed);
        self.deliver(state, released);
    }

    /// Whether the subscription can deliver nothing more.
    pub(crate) fn is_disposed(&self) -> bool {
        matches!(self.state.lock().end, End::Disposed | End::Done)
    }

    /// Moves the sequence to `end` unless it has already ended (a disposal still overrides a
    /// pending terminal notification), and takes the slots out for the caller to dispose
    /// once the lock is released.
    fn end(&self, state: &mut State<L, R, O>, end: End) -> Option<L> {
        match (&state.end, &end) {
            (End::Running, _) | (End::Completing | End::Failing(_), End::Disposed) => {}
            _ => return None,
        }
        state.end = end;
        self.stopped.store(true, Ordering::Release);
        state.slots.take()
    }

    /// Disposes the `released` sources, then delivers queued rows and the terminal
    /// notification, unless another thread is delivering (it will pick them up).
    fn deliver<'s>(&'s self, mut state: MutexGuard<'s, State<L, R, O>>, released: Option<L>) {
        let mut idle = None;
        if let Some(mut slots) = released {
            if slots.has_handles() {
                // Sources are disposed before the terminal notification, as in RxJava, and
                // outside the lock: disposing runs user code.
                drop(state);
                slots.dispose();
                drop(slots);
                state = self.state.lock();
            } else {
                // Nothing to dispose (synchronous sources keep no handle): the lock is kept,
                // and the slots' values are dropped once delivery has let it go.
                idle = Some(slots);
            }
        }
        self.deliver_rows(state);
        drop(idle);
    }

    /// Delivers queued rows and the terminal notification, unless another thread is
    /// delivering.
    fn deliver_rows<'s>(&'s self, mut state: MutexGuard<'s, State<L, R, O>>) {
        let Some(mut observer) = state.observer.take() else {
            return;
        };
        loop {
            match &state.end {
                End::Running | End::Completing => {}
                End::Failing(_) => {
                    let End::Failing(error) = mem::replace(&mut state.end, End::Done) else {
                        unreachable!()
                    };
                    let dropped = mem::take(&mut state.rows);
                    drop(state);
                    observer.on_error(error);
                    drop(dropped);
                    return;
                }
                End::Disposed | End::Done => {
                    state.end = End::Done;
                    let dropped = mem::take(&mut state.rows);
                    drop(state);
                    drop(observer);
                    drop(dropped);
                    return;
                }
            }
            if let Some(row) = state.rows.pop() {
                drop(state);
                observer.on_next(row);
                let gone = observer.is_disposed();
                state = self.state.lock();
                if gone && let Some(mut slots) = self.end(&mut state, End::Disposed) {
                    drop(state);
                    slots.dispose();
                    drop(slots);
                    state = self.state.lock();
                }
                continue;
            }
            if let End::Completing = state.end {
                state.end = End::Done;
                drop(state);
                observer.on_completed();
                return;
            }
            state.observer = Some(observer);
            return;
        }
    }
}

/// Where a source's notifications go: the shared [`CombineCore`], or, when every source finishes
/// inside `subscribe`, the [`Inline`] state on the stack of the operator's `subscribe`. One
/// observer type for both, so each source needs one `Subscribe` bound (as `MergeLink`).
pub(crate) enum CombineLink<L, R, O> {
    Core(Arc<CombineCore<L, R, O>>),
    Inline(InlinePtr<L, R, O>),
}

impl<L: Slots, R, O: Observer<R>> CombineLink<L, R, O> {
    /// [`CombineCore::update`] or [`Inline::update`].
    #[inline]
    pub(crate) fn update<G>(&self, step: impl FnOnce(&mut L, &mut Buffer<R>) -> (Step, G)) {
        match self {
            CombineLink::Core(core) => core.update(step),
            CombineLink::Inline(ptr) => ptr.get().update(step),
        }
    }

    /// Whether the sequence has ended: what the sources' observers report as disposed.
    #[inline]
    pub(crate) fn is_stopped(&self) -> bool {
        match self {
            CombineLink::Core(core) => core.is_stopped(),
            CombineLink::Inline(ptr) => ptr.get().is_ended(),
        }
    }
}

/// The state of a combining operator whose sources all finish inside `subscribe`
/// ([`Observable::EMISSION`](crate::Observable::EMISSION)), a local of its `subscribe`: the
/// slots and the downstream, with no lock, no reference count and no allocation of its own;
/// the [`CombineCore`]'s decisions, in the same order.
///
/// Every call reaches it down one call stack, from the `subscribe` of a source that this
/// `subscribe` is running, on this thread; the downstream cannot reach a source's observer,
/// which belongs to a frame below it. So no two calls overlap: each borrow of the slots ends
/// before the downstream is called, and each borrow of the downstream lasts for one call
/// (the argument of `engine::inline_merge`).
pub(crate) struct Inline<L, R, O> {
    slots: UnsafeCell<L>,
    /// Rows made by a notification, delivered before it returns: empty between calls, and
    /// kept here so that each call does not make and drop a queue of its own.
    rows: UnsafeCell<Buffer<R>>,
    /// `None` once the sequence has ended (terminated, or the downstream is disposed).
    downstream: UnsafeCell<Option<O>>,
}

impl<L, R, O: Observer<R>> Inline<L, R, O> {
    /// The state for `observer`, whose sources have yet to be subscribed; the caller has
    /// checked that `observer` is not disposed.
    fn new(slots: L, observer: O) -> Self {
        Inline {
            slots: UnsafeCell::new(slots),
            rows: UnsafeCell::new(Buffer::new()),
            downstream: UnsafeCell::new(Some(observer)),
        }
    }

    /// Whether the sequence has ended: what the sources' observers report as disposed, as
    /// the core's stopped flag.
    #[inline]
    fn is_ended(&self) -> bool {
        // SAFETY: no mutable borrow of the downstream is live: they last for one call into
        // it, which cannot reach a source's observer (type docs).
        unsafe { (*self.downstream.get()).is_none() }
    }

    /// A pointer to this state for the sources' observers.
    ///
    /// # Safety
    ///
    /// Every observer built on the pointer must be given only to observables whose
    /// [`EMISSION`](Observable::EMISSION) is inside `subscribe`, subscribed while `self` is
    /// alive and not moved: then no call through it happens after the state is gone or on
    /// another thread.
    #[inline]
    unsafe fn ptr(&self) -> InlinePtr<L, R, O> {
        InlinePtr(self)
    }

    /// Ends the sequence: the downstream, to be called or dropped by the caller.
    #[inline]
    fn take(&self) -> Option<O> {
        // SAFETY: as in `is_ended`; the borrow ends before the downstream is called.
        unsafe { (*self.downstream.get()).take() }
    }

    /// [`CombineCore::update`] without the core: the same decisions, in the same order.
    #[inline]
    pub(crate) fn update<G>(&self, step: impl FnOnce(&mut L, &mut Buffer<R>) -> (Step, G)) {
        if self.is_ended() {
            return;
        }
        // SAFETY: the only borrows of the slots and the rows: they end with `step`, which
        // runs no code that can reach this state (the operator's rules and clones of values;
        // type docs).
        let (next, garbage) = step(unsafe { &mut *self.slots.get() }, unsafe {
            &mut *self.rows.get()
        });
        match next {
            Step::Continue => {
                // SAFETY: as in `is_ended`.
                let gone = unsafe { &*self.downstream.get() }
                    .as_ref()
                    .is_some_and(O::is_disposed);
                if gone {
                    drop(self.take());
                }
                // SAFETY: as for `step`: a borrow that ends here.
                if gone || unsafe { (*self.rows.get()).is_empty() } {
                    drop(garbage);
                    return;
                }
            }
            Step::Complete => {}
            Step::Fail(error) => {
                // Queued rows are dropped, as on the core's path.
                // SAFETY: as for `step`: a borrow that ends here.
                let rows = std::mem::take(unsafe { &mut *self.rows.get() });
                if let Some(downstream) = self.take() {
                    drop(rows);
                    downstream.on_error(error);
                }
                drop(garbage);
                return;
            }
        }
        let complete = matches!(next, Step::Complete);
        // SAFETY: as for `step`: a borrow that ends before the downstream is called.
        while let Some(row) = unsafe { (*self.rows.get()).pop() } {
            // SAFETY: the only borrow of the downstream while it runs; what it runs cannot
            // reach this state (type docs).
            let Some(downstream) = (unsafe { &mut *self.downstream.get() }) else {
                return;
            };
            downstream.on_next(row);
            if downstream.is_disposed() {
                drop(self.take());
                // SAFETY: as for `step`: a borrow that ends here.
                drop(std::mem::take(unsafe { &mut *self.rows.get() }));
                return;
            }
        }
        if complete && let Some(downstream) = self.take() {
            downstream.on_completed();
        }
        drop(garbage);
    }
}

/// Subscribes sources that all finish inside `subscribe` to state on this stack, and answers
/// the handle of a finished sequence. `subscribe` is given the state, whose
/// [`link`](Inline::link) makes each source's link, `None` once the sequence has ended (a
/// source that ends it spares the rest from being subscribed, as in RxJava).
///
/// # Safety
///
/// `subscribe` gives each link only to the observer of a source whose
/// [`EMISSION`](crate::Observable::EMISSION) is inside `subscribe`, and subscribes it before
/// it returns (see [`Inline::ptr`]).
#[inline]
pub(crate) unsafe fn subscribe_inline<L, R, O: Observer<R>>(
    slots: L,
    observer: O,
    subscribe: impl FnOnce(&Inline<L, R, O>),
) -> CombineSubscription<L, R, O> {
    if !observer.is_disposed() {
        subscribe(&Inline::new(slots, observer));
    }
    CombineSubscription::finished()
}

impl<L, R, O: Observer<R>> Inline<L, R, O> {
    /// The link for the next source's observer, or `None` once the sequence has ended. Only
    /// [`subscribe_inline`] hands out an `Inline` to call this on, and its caller promises
    /// what [`ptr`](Inline::ptr) asks.
    #[inline]
    pub(crate) fn link(&self) -> Option<CombineLink<L, R, O>> {
        // SAFETY: the promise of `subscribe_inline`'s caller (above).
        (!self.is_ended()).then(|| CombineLink::Inline(unsafe { self.ptr() }))
    }
}

/// A pointer to an [`Inline`] on the stack of a `subscribe` that is running.
pub(crate) struct InlinePtr<L, R, O>(*const Inline<L, R, O>);

// SAFETY: `Send` exactly when the core's pointer is, so that the sources' observers meet the
// bounds they meet on the core's path. It never crosses a thread: it is given only to
// sources whose `EMISSION` says they call their observer on the subscribing thread, inside
// `subscribe`, and keep it nowhere.
unsafe impl<L, R, O> Send for InlinePtr<L, R, O> where Arc<CombineCore<L, R, O>>: Send {}

// SAFETY: as `Send`: nothing is ever reached through it from another thread.
unsafe impl<L, R, O> Sync for InlinePtr<L, R, O> where Arc<CombineCore<L, R, O>>: Sync {}

impl<L, R, O> InlinePtr<L, R, O> {
    #[inline]
    fn get(&self) -> &Inline<L, R, O> {
        // SAFETY: the state outlives every call through this pointer and does not move
        // meanwhile (it is a local of the `subscribe` that subscribes the sources, which
        // have finished when their `subscribe` returns), and it is only read through shared
        // references.
        unsafe { &*self.0 }
    }
}

/// The handle [`Zip`](crate::operators::Zip), [`CombineLatest`](crate::operators::CombineLatest)
/// and [`WithLatestFrom`](crate::operators::WithLatestFrom) return: disposing it disposes every
/// source and delivers nothing more.
pub struct CombineSubscription<L, R, O> {
    /// `None` for a sequence that had ended when `subscribe` returned and kept no core.
    core: Option<Arc<CombineCore<L, R, O>>>,
}

impl<L, R, O> CombineSubscription<L, R, O> {
    pub(crate) fn new(core: Arc<CombineCore<L, R, O>>) -> Self {
        CombineSubscription { core: Some(core) }
    }

    /// The handle of a sequence that ended inside `subscribe` without a core: nothing to
    /// cancel.
    pub(crate) fn finished() -> Self {
        CombineSubscription { core: None }
    }
}

impl<L: Slots, R, O: Observer<R>> Subscription for CombineSubscription<L, R, O> {
    fn dispose(&self) {
        if let Some(core) = &self.core {
            core.dispose();
        }
    }

    fn is_disposed(&self) -> bool {
        self.core.as_ref().is_none_or(|core| core.is_disposed())
    }
}

impl<L, R, O> fmt::Debug for CombineSubscription<L, R, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stopped = self
            .core
            .as_ref()
            .is_none_or(|core| core.stopped.load(Ordering::Relaxed));
        f.debug_struct("CombineSubscription")
            .field("stopped", &stopped)
            .finish_non_exhaustive()
    }
}

/// The observer behind the closure forms
/// ([`zip_with`](crate::ObservableExt::zip_with) and friends): calls the combining closure
/// with the two halves of each pair, outside any lock.
pub struct CombineWithObserver<O, F> {
    observer: O,
    f: F,
}

impl<O, F> CombineWithObserver<O, F> {
    pub(crate) fn new(observer: O, f: F) -> Self {
        CombineWithObserver { observer, f }
    }
}

impl<A, B, U, O, F> Observer<(A, B)> for CombineWithObserver<O, F>
where
    O: Observer<U>,
    F: FnMut(A, B) -> U,
{
    #[inline]
    fn on_next(&mut self, (a, b): (A, B)) {
        self.observer.on_next((self.f)(a, b))
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        self.observer.on_completed()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

impl<O, F> fmt::Debug for CombineWithObserver<O, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CombineWithObserver")
    }
}
