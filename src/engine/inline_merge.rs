//! The merge family without a shared core, for sources that the type system knows finish
//! inside `subscribe`: `merge_with`, `merge`, `flat_map` and the other flattening operators
//! take this path when every source (and, for the flattening ones, the inner type) says so.
//!
//! # When a merge needs no shared state
//!
//! The [merge core](super::merge_core) is an `Arc` with a delivery role and a lock because
//! an upstream may call its observer later, from any thread, at the same time as another
//! upstream. Some sources cannot: `just`, `from_iter`, `range`, `empty`, `throw` (and
//! `from_fn`, and `defer` of one of them) call their observer only while their `subscribe`
//! runs, on the thread that called it, and have finished (terminated, or stopped because the
//! observer said it was disposed) when it returns. So do operators that call their observer
//! only from inside their source's calls and keep it nowhere else (`map`, `filter`, `take`,
//! ...) over such a source, and a merge of such sources, which takes this path itself.
//!
//! Each observable says which it is in [`Observable::EMISSION`], an associated constant whose
//! type, [`Emission`], cannot be named outside the crate: no impl outside the crate can set it,
//! so no user type can claim the property, and the code below may rely on it. Every
//! observable that does not set it (a user's, a subject, `create_owned`, `timer`, anything on a
//! scheduler) keeps the default, [`Emission::ANYTIME`], and its merges keep the core.
//!
//! The choice is a plain `if` on a constant, so it costs nothing at run time and each
//! monomorphised `subscribe` keeps only one of the two paths. Both paths subscribe the
//! sources with the *same* observer type, a [`MergeLink`] that holds either the core's
//! observer or this module's: a second observer type would need a second `Subscribe` bound
//! on every source, which a source returned as `impl Subscribe<O>` (one `O`) cannot meet.
//!
//! # How it works
//!
//! The operator's state, an [`Inline`], lives in a local of its `subscribe`: the downstream
//! observer and a count of what must complete before the downstream does. The upstream
//! observers hold a raw pointer to it ([`StatePtr`]), because they must meet the bounds the
//! core's observers meet (`Send`, `'static` where the source asks) and a borrow would not
//! be `'static`. What makes the pointer valid is the constant: no upstream observer is called
//! after `subscribe` returns (the source has finished), and none on another thread.
//!
//! Serialisation holds without a lock: every call comes down one call stack, from a source's
//! `subscribe` that this `subscribe` is running, and user code called from it (the
//! downstream, a projection) cannot reach an upstream observer, which belongs to a frame
//! below it. So no two calls ever overlap, and the state is read and written through
//! `Cell`s and short borrows of the downstream, never a reference held across a call
//! out.
//!
//! What it costs: nothing beyond the calls themselves. No allocation, no atomic, and the
//! handle is the merge's empty [`MergeSubscription`](super::merge_core::MergeSubscription)
//! (there is nothing left to cancel, as the core's handle says for the same sources).

use crate::Error;
use crate::engine::projection::{Lend, Projector};
use crate::observer::Observer;
use std::cell::{Cell, UnsafeCell};
use std::fmt;

/// The observer an operator of the merge family subscribes to each of its upstreams: the
/// merge core's observer `C`, or, when every upstream finishes inside `subscribe`, an
/// observer `I` of state on the stack of the operator's `subscribe`.
pub struct MergeLink<C, I>(Link<C, I>);

enum Link<C, I> {
    Core(C),
    Inline(I),
}

impl<C, I> MergeLink<C, I> {
    /// Through the merge core.
    #[inline]
    pub(crate) fn core(observer: C) -> Self {
        MergeLink(Link::Core(observer))
    }

    /// To state on the stack, for an upstream whose type says it finishes inside
    /// `subscribe`.
    #[inline]
    pub(crate) fn inline(observer: I) -> Self {
        MergeLink(Link::Inline(observer))
    }
}

impl<T, C: Observer<T>, I: Observer<T>> Observer<T> for MergeLink<C, I> {
    #[inline]
    fn on_next(&mut self, value: T) {
        match &mut self.0 {
            Link::Core(c) => c.on_next(value),
            Link::Inline(i) => i.on_next(value),
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        match self.0 {
            Link::Core(c) => c.on_error(error),
            Link::Inline(i) => i.on_error(error),
        }
    }

    #[inline]
    fn on_completed(self) {
        match self.0 {
            Link::Core(c) => c.on_completed(),
            Link::Inline(i) => i.on_completed(),
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        match &self.0 {
            Link::Core(c) => c.is_disposed(),
            Link::Inline(i) => i.is_disposed(),
        }
    }
}

impl<C: fmt::Debug, I: fmt::Debug> fmt::Debug for MergeLink<C, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Link::Core(c) => f.debug_tuple("MergeLink").field(c).finish(),
            Link::Inline(i) => f.debug_tuple("MergeLink").field(i).finish(),
        }
    }
}

/// The state of one inline merge, a local of the operator's `subscribe`.
pub(crate) struct Inline<O> {
    /// `None` once the downstream has had its terminal event.
    downstream: UnsafeCell<Option<O>>,
    /// What must complete before the downstream does: the sources not yet completed, for
    /// `merge_with`; the outer and the inners subscribed and not yet completed, for the
    /// flattening operators.
    pending: Cell<usize>,
}

impl<O> Inline<O> {
    /// The state of a merge that completes once `pending` upstreams have.
    #[inline]
    pub(crate) fn new(downstream: O, pending: usize) -> Self {
        Inline {
            downstream: UnsafeCell::new(Some(downstream)),
            pending: Cell::new(pending),
        }
    }

    /// A pointer to this state for the upstream observers.
    ///
    /// # Safety
    ///
    /// Every observer built on the pointer must be given only to observables whose
    /// [`EMISSION`](crate::Observable::EMISSION) is
    /// [`INSIDE_SUBSCRIBE`](Emission::INSIDE_SUBSCRIBE), subscribed while `self` is alive
    /// and not moved: then no call through the pointer happens after the state is gone or
    /// on another thread.
    #[inline]
    pub(crate) unsafe fn ptr(&self) -> StatePtr<O> {
        StatePtr(self)
    }

    /// Whether nothing more will be delivered: terminated, or the downstream is disposed.
    #[inline]
    pub(crate) fn is_done<T>(&self) -> bool
    where
        O: Observer<T>,
    {
        // SAFETY: no mutable borrow of the downstream is alive: they last only for one call
        // into the downstream, and nothing that call runs can reach an upstream observer
        // (module docs), so this is not reached from inside one.
        match unsafe { &*self.downstream.get() } {
            Some(downstream) => Observer::<T>::is_disposed(downstream),
            None => true,
        }
    }

    #[inline]
    fn next<T>(&self, value: T)
    where
        O: Observer<T>,
    {
        // SAFETY: the only borrow of the downstream while it runs; nothing it calls can
        // reach this state (module docs).
        if let Some(downstream) = unsafe { &mut *self.downstream.get() } {
            downstream.on_next(value);
        }
    }

    #[inline]
    fn take(&self) -> Option<O> {
        // SAFETY: as in `next`; the borrow ends before the downstream is called.
        unsafe { (*self.downstream.get()).take() }
    }

    #[inline]
    fn error<T>(&self, error: Error)
    where
        O: Observer<T>,
    {
        if let Some(downstream) = self.take() {
            Observer::<T>::on_error(downstream, error);
        }
    }

    /// One pending upstream completed; the downstream completes after the last.
    #[inline]
    fn complete_one<T>(&self)
    where
        O: Observer<T>,
    {
        let pending = self.pending.get() - 1;
        self.pending.set(pending);
        if pending == 0
            && let Some(downstream) = self.take()
        {
            Observer::<T>::on_completed(downstream);
        }
    }
}

impl<O> fmt::Debug for Inline<O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Inline")
            .field("pending", &self.pending.get())
            .finish_non_exhaustive()
    }
}

/// A pointer to an [`Inline`] on the stack of a `subscribe` that is running.
pub(crate) struct StatePtr<O>(*const Inline<O>);

impl<O> Clone for StatePtr<O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<O> Copy for StatePtr<O> {}

// SAFETY: a `StatePtr` is `Send` so that the observers holding it meet the bounds the merge
// core's observers meet, as the core is `Send` when the downstream is. It never crosses a
// thread: it is given only to observables that call their observer on the subscribing
// thread and keep it nowhere (`Inline::ptr`).
unsafe impl<O: Send> Send for StatePtr<O> {}

impl<O> StatePtr<O> {
    #[inline]
    fn get(&self) -> &Inline<O> {
        // SAFETY: the state outlives every call through this pointer and is not moved
        // meanwhile (`Inline::ptr`), and it is only read through shared references.
        unsafe { &*self.0 }
    }

    /// Counts one more upstream that must complete before the downstream does.
    #[inline]
    pub(crate) fn add_pending(self) {
        let state = self.get();
        state.pending.set(state.pending.get() + 1);
    }

    /// Whether nothing more will be delivered.
    #[inline]
    pub(crate) fn is_done<T>(self) -> bool
    where
        O: Observer<T>,
    {
        self.get().is_done()
    }
}

impl<O> fmt::Debug for StatePtr<O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StatePtr")
    }
}

/// The observer of an upstream of an inline merge: `merge_with`'s sources, a flattening
/// operator's inners. Completes the downstream when the last pending upstream completes.
pub struct InlineObserver<O> {
    state: StatePtr<O>,
}

impl<O> InlineObserver<O> {
    #[inline]
    pub(crate) fn new(state: StatePtr<O>) -> Self {
        InlineObserver { state }
    }
}

impl<T, O: Observer<T>> Observer<T> for InlineObserver<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.state.get().next(value);
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.state.get().error::<T>(error);
    }

    #[inline]
    fn on_completed(self) {
        self.state.get().complete_one::<T>();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.state.get().is_done::<T>()
    }
}

impl<O> fmt::Debug for InlineObserver<O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InlineObserver").finish_non_exhaustive()
    }
}

/// Subscribes an inner observable of an inline flattening operator; built where the inner's
/// `Subscribe` bound is proven.
pub(crate) type SubscribeInline<O, U> = fn(StatePtr<O>, U);

/// The observer of the outer observable of an inline flattening operator (`flat_map`,
/// `merge`, `switch_on_next`, ...). Every inner has finished when its `subscribe` returns, so
/// none is ever running when the next value arrives: merging, concatenating, switching and
/// exhausting all come down to subscribing each inner in turn.
pub struct InlineOuter<O, F, L, U> {
    state: StatePtr<O>,
    f: F,
    lent: L,
    subscribe: SubscribeInline<O, U>,
}

impl<O, F, L, U> InlineOuter<O, F, L, U> {
    #[inline]
    pub(crate) fn new(state: StatePtr<O>, f: F, lent: L, subscribe: SubscribeInline<O, U>) -> Self {
        InlineOuter {
            state,
            f,
            lent,
            subscribe,
        }
    }
}

impl<V, O, F, L, U> Observer<V> for InlineOuter<O, F, L, U>
where
    F: Projector<V, Inner = U, Lent = L>,
    L: Lend<Inner = U>,
    U: crate::Observable,
    O: Observer<U::Item>,
{
    #[inline]
    fn on_next(&mut self, value: V) {
        // Mapped before the check, as on the core's path.
        let queued = self.f.project(value);
        if self.state.is_done::<U::Item>() {
            return;
        }
        let inner = self.lent.inner(queued);
        (self.subscribe)(self.state, inner);
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.state.get().error::<U::Item>(error);
    }

    #[inline]
    fn on_completed(self) {
        self.state.get().complete_one::<U::Item>();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.state.is_done::<U::Item>()
    }
}

impl<O, F, L, U> fmt::Debug for InlineOuter<O, F, L, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InlineOuter").finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests;
