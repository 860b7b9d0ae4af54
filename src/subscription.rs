//! Subscription handles: what `subscribe` returns, and how a subscription is cancelled.
//!
//! The handle's type depends on the chain. A synchronous chain has nothing left to cancel
//! once `subscribe` returns, so it hands back [`Finished`], which is zero-sized; a chain with
//! timers or threads returns a handle that can reach them. Nothing is allocated and no atomic
//! is touched unless the chain needs it.
//!
//! Dropping a handle does not cancel the subscription, as in every Rx: call
//! [`dispose`](Subscription::dispose), which is idempotent.

use crate::primitive::{Arc, AtomicBool, Mutex, Ordering};
use std::fmt;

/// A handle to a running subscription.
pub trait Subscription {
    /// Cancels the subscription and releases what it holds; calling it again does nothing.
    ///
    /// Nothing emitted after `dispose` returns is delivered. A notification that another
    /// thread was already delivering when `dispose` was called may still complete, as in
    /// RxJava: guaranteeing more would mean a lock around every notification, and a deadlock
    /// when `dispose` is called from inside `on_next`.
    fn dispose(&self);

    /// Whether the subscription can deliver nothing more: it was disposed, or it has nothing
    /// left running (a synchronous chain that ran inside `subscribe`).
    fn is_disposed(&self) -> bool;

    /// A guard that disposes this subscription when it is dropped, for a subscription that
    /// must not outlive a scope (as tokio-util's `DropGuard` does for a cancellation token).
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::subscription::FlagSubscription;
    ///
    /// let handle = FlagSubscription::new();
    /// {
    ///     let _guard = handle.clone().into_guard();
    ///     assert!(!handle.is_disposed());
    /// } // dropped here
    /// assert!(handle.is_disposed());
    /// ```
    fn into_guard(self) -> DisposeGuard<Self>
    where
        Self: Sized,
    {
        DisposeGuard { handle: Some(self) }
    }
}

/// Disposes the subscription it holds when dropped; built by
/// [`Subscription::into_guard`]. [`disarm`](DisposeGuard::disarm) takes the handle back
/// without disposing it.
///
/// ```
/// use rx::prelude::*;
/// use rx::subscription::FlagSubscription;
///
/// let guard = FlagSubscription::new().into_guard();
/// let handle = guard.disarm(); // no longer disposed on drop
/// assert!(!handle.is_disposed());
/// ```
#[must_use = "dropping the guard at once disposes the subscription"]
#[derive(Debug)]
pub struct DisposeGuard<S: Subscription> {
    /// `None` once disarmed.
    handle: Option<S>,
}

impl<S: Subscription> DisposeGuard<S> {
    /// The handle, which is no longer disposed when the guard goes.
    pub fn disarm(mut self) -> S {
        self.handle
            .take()
            .expect("a guard holds its handle until disarmed")
    }
}

impl<S: Subscription> Subscription for DisposeGuard<S> {
    fn dispose(&self) {
        self.handle.dispose()
    }

    fn is_disposed(&self) -> bool {
        self.handle.is_disposed()
    }
}

impl<S: Subscription> Drop for DisposeGuard<S> {
    fn drop(&mut self) {
        if let Some(handle) = &self.handle {
            handle.dispose();
        }
    }
}

/// A composite handle: disposing it disposes every handle in it, in order; it has ended
/// when all of them have (an empty one has nothing to cancel).
///
/// ```
/// use rx::prelude::*;
/// use rx::subscription::FlagSubscription;
///
/// let handles = vec![FlagSubscription::new(), FlagSubscription::new()];
/// let each = handles.clone();
/// assert!(!handles.is_disposed());
/// handles.dispose();
/// assert!(each.iter().all(Subscription::is_disposed));
/// ```
impl<S: Subscription> Subscription for Vec<S> {
    fn dispose(&self) {
        for handle in self {
            handle.dispose();
        }
    }

    fn is_disposed(&self) -> bool {
        self.iter().all(Subscription::is_disposed)
    }
}

/// The handle of a subscription with nothing left to cancel: a synchronous chain that ran to
/// its end inside `subscribe`. Zero-sized; [`is_disposed`](Subscription::is_disposed) is
/// always `true`.
///
/// ```
/// use rx::prelude::*;
///
/// let handle = rx::source::just(1).map(|v| v * 2).subscribe(|_| {});
/// assert_eq!(std::mem::size_of_val(&handle), 0);
/// assert!(handle.is_disposed());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Finished;

impl Subscription for Finished {
    #[inline]
    fn dispose(&self) {}

    #[inline]
    fn is_disposed(&self) -> bool {
        true
    }
}

/// Both handles, disposed together.
impl<A: Subscription, B: Subscription> Subscription for (A, B) {
    fn dispose(&self) {
        self.0.dispose();
        self.1.dispose();
    }

    fn is_disposed(&self) -> bool {
        self.0.is_disposed() && self.1.is_disposed()
    }
}

/// `None` is a handle with nothing to cancel.
impl<S: Subscription> Subscription for Option<S> {
    fn dispose(&self) {
        if let Some(s) = self {
            s.dispose()
        }
    }

    fn is_disposed(&self) -> bool {
        self.as_ref().is_none_or(Subscription::is_disposed)
    }
}

impl<S: Subscription + ?Sized> Subscription for Box<S> {
    fn dispose(&self) {
        (**self).dispose()
    }

    fn is_disposed(&self) -> bool {
        (**self).is_disposed()
    }
}

impl<S: Subscription + ?Sized> Subscription for Arc<S> {
    fn dispose(&self) {
        (**self).dispose()
    }

    fn is_disposed(&self) -> bool {
        (**self).is_disposed()
    }
}

/// A handle over a shared flag: disposing sets it, and whoever holds a clone (a source
/// emitting from another thread, say) sees it.
///
/// ```
/// use rx::subscription::{FlagSubscription, Subscription};
///
/// let handle = FlagSubscription::new();
/// let seen_by_source = handle.clone();
/// handle.dispose();
/// assert!(seen_by_source.is_disposed());
/// ```
#[derive(Clone, Default)]
pub struct FlagSubscription {
    disposed: Arc<AtomicBool>,
}

impl FlagSubscription {
    /// A handle that is not yet disposed.
    pub fn new() -> Self {
        FlagSubscription {
            disposed: Arc::new(AtomicBool::new(false)),
        }
    }
}

impl Subscription for FlagSubscription {
    fn dispose(&self) {
        // Release pairs with the Acquire in `is_disposed`: whoever sees the flag also sees
        // what the disposer did before it.
        self.disposed.store(true, Ordering::Release);
    }

    fn is_disposed(&self) -> bool {
        self.disposed.load(Ordering::Acquire)
    }
}

impl fmt::Debug for FlagSubscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlagSubscription")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

/// A set of handles disposed together, to which handles can be added and from which they can
/// be removed while it lives (Rx.NET's `CompositeDisposable`, RxJava's `CompositeDisposable`,
/// RxJS's `Subscription.add`): disposing it disposes every handle in it, and a handle added
/// after that is disposed at once.
///
/// `S` is the handle type: a boxed handle ([`BoxedSubscription`], the default) holds handles
/// of any kind. The composite is `Send` and `Sync` exactly when `S` is `Send`; share it with an
/// `Arc` (or an `Rc`), which is a handle too.
///
/// ```
/// use rx::prelude::*;
/// use rx::subscription::{CompositeSubscription, FlagSubscription};
///
/// let all = CompositeSubscription::new();
/// let (a, b) = (FlagSubscription::new(), FlagSubscription::new());
/// all.add(Box::new(a.clone()));
/// let key = all.add(Box::new(b.clone()));
/// all.remove(key); // disposes `b`, which leaves the set
/// assert!(b.is_disposed() && !a.is_disposed());
///
/// all.dispose();
/// assert!(a.is_disposed());
/// let late = FlagSubscription::new();
/// all.add(Box::new(late.clone())); // disposed at once
/// assert!(late.is_disposed());
/// ```
///
/// # Performance
///
/// A lock around a slab of handles: `add` and `remove` take it once and allocate only when
/// the slab grows. Handles are disposed outside the lock, so a handle whose disposal reaches
/// back into the composite does not deadlock.
#[doc(alias = "CompositeDisposable")]
pub struct CompositeSubscription<S = BoxedSubscription<'static>> {
    /// `None` once disposed.
    handles: Mutex<Option<slab::Slab<S>>>,
}

/// Names a handle in a [`CompositeSubscription`], for [`remove`](CompositeSubscription::remove)
/// and [`take`](CompositeSubscription::take).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CompositeKey(usize);

impl<S> CompositeSubscription<S> {
    /// An empty composite, not disposed.
    pub fn new() -> Self {
        CompositeSubscription {
            handles: Mutex::new(Some(slab::Slab::new())),
        }
    }

    /// How many handles it holds.
    pub fn len(&self) -> usize {
        self.handles.lock().as_ref().map_or(0, slab::Slab::len)
    }

    /// Whether it holds no handle.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Removes the handle `key` names and returns it, without disposing it (RxJava's
    /// `delete`); `None` if it is no longer there.
    pub fn take(&self, key: CompositeKey) -> Option<S> {
        self.handles.lock().as_mut()?.try_remove(key.0)
    }
}

impl<S: Subscription> CompositeSubscription<S> {
    /// Adds `handle`, which is disposed with the rest; if the composite is disposed already,
    /// disposes `handle` at once. The key names it for [`remove`](Self::remove).
    pub fn add(&self, handle: S) -> CompositeKey {
        let mut handles = self.handles.lock();
        match handles.as_mut() {
            Some(slab) => CompositeKey(slab.insert(handle)),
            None => {
                drop(handles);
                handle.dispose();
                CompositeKey(usize::MAX)
            }
        }
    }

    /// Removes the handle `key` names and disposes it (Rx.NET's and RxJava's `remove`);
    /// whether it was there.
    pub fn remove(&self, key: CompositeKey) -> bool {
        // The lock is a temporary of this statement: the handle is disposed outside it.
        let handle = self.take(key);
        handle.map(|handle| handle.dispose()).is_some()
    }

    /// Disposes and removes every handle it holds, and stays usable (Rx.NET's `Clear`).
    pub fn clear(&self) {
        let handles = self.handles.lock().as_mut().map(std::mem::take);
        handles.into_iter().flatten().for_each(|(_, h)| h.dispose());
    }
}

impl<S> Default for CompositeSubscription<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Subscription> Subscription for CompositeSubscription<S> {
    fn dispose(&self) {
        let handles = self.handles.lock().take();
        handles.into_iter().flatten().for_each(|(_, h)| h.dispose());
    }

    fn is_disposed(&self) -> bool {
        self.handles.lock().is_none()
    }
}

impl<S> fmt::Debug for CompositeSubscription<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let handles = self.handles.lock();
        f.debug_struct("CompositeSubscription")
            .field("len", &handles.as_ref().map_or(0, slab::Slab::len))
            .field("disposed", &handles.is_none())
            .finish()
    }
}

/// A slot for one handle at a time: setting a new handle disposes the one it replaces, and
/// disposing the slot disposes the handle in it and every handle set after (Rx.NET's
/// `SerialDisposable`, RxJava's `SerialDisposable`), for "the current request" that each new
/// one cancels.
///
/// The slot is `Send` and `Sync` exactly when `S` is `Send`.
///
/// ```
/// use rx::prelude::*;
/// use rx::subscription::{FlagSubscription, SerialSubscription};
///
/// let current = SerialSubscription::new();
/// let (first, second) = (FlagSubscription::new(), FlagSubscription::new());
/// current.set(first.clone());
/// current.set(second.clone()); // disposes `first`
/// assert!(first.is_disposed() && !second.is_disposed());
///
/// current.dispose();
/// assert!(second.is_disposed());
/// let late = FlagSubscription::new();
/// current.set(late.clone()); // disposed at once
/// assert!(late.is_disposed());
/// ```
///
/// # Performance
///
/// A lock around an `Option`, taken by `set`, `dispose` and `is_disposed`; no allocation. The
/// replaced handle is disposed outside the lock.
#[doc(alias = "SerialDisposable")]
pub struct SerialSubscription<S = BoxedSubscription<'static>> {
    /// `Err(())` once disposed; `Ok(None)` before a first handle.
    current: Mutex<Result<Option<S>, ()>>,
}

impl<S> SerialSubscription<S> {
    /// An empty slot, not disposed.
    pub fn new() -> Self {
        SerialSubscription {
            current: Mutex::new(Ok(None)),
        }
    }
}

impl<S: Subscription> SerialSubscription<S> {
    /// Puts `handle` in the slot and disposes the handle it replaces; if the slot is
    /// disposed already, disposes `handle` at once.
    pub fn set(&self, handle: S) {
        let replaced = match &mut *self.current.lock() {
            Ok(current) => current.replace(handle),
            Err(()) => Some(handle),
        };
        if let Some(replaced) = replaced {
            replaced.dispose();
        }
    }
}

impl<S> Default for SerialSubscription<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Subscription> Subscription for SerialSubscription<S> {
    fn dispose(&self) {
        let current = std::mem::replace(&mut *self.current.lock(), Err(()));
        if let Ok(Some(current)) = current {
            current.dispose();
        }
    }

    fn is_disposed(&self) -> bool {
        self.current.lock().is_err()
    }
}

impl<S> fmt::Debug for SerialSubscription<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let current = self.current.lock();
        f.debug_struct("SerialSubscription")
            .field("holds", &matches!(*current, Ok(Some(_))))
            .field("disposed", &current.is_err())
            .finish()
    }
}

/// A type-erased handle, returned by [`boxed`](crate::ObservableExt::boxed) observables.
pub type BoxedSubscription<'a> = Box<dyn Subscription + Send + 'a>;

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn a_guard_disposes_once_on_drop_and_a_disarmed_one_not_at_all() {
        let handle = FlagSubscription::new();
        let guard = handle.clone().into_guard();
        assert!(!guard.is_disposed());
        drop(guard);
        assert!(handle.is_disposed());

        let kept = FlagSubscription::new();
        drop(kept.clone().into_guard().disarm());
        assert!(!kept.is_disposed());
    }

    #[test]
    fn a_guard_over_boxed_handles_of_several_kinds() {
        let flags = [FlagSubscription::new(), FlagSubscription::new()];
        let all: Vec<Box<dyn Subscription + Send>> = vec![
            Box::new(flags[0].clone()),
            Box::new(Finished),
            Box::new(flags[1].clone()),
        ];
        assert!(!all.is_disposed());
        drop(all.into_guard());
        assert!(flags.iter().all(Subscription::is_disposed));
    }

    #[test]
    fn an_empty_vec_has_nothing_to_cancel() {
        let none: Vec<Finished> = Vec::new();
        assert!(none.is_disposed());
        none.dispose();
    }

    #[test]
    fn a_composite_disposes_what_it_holds_and_what_comes_later() {
        let all = CompositeSubscription::new();
        let flags: Vec<_> = (0..3).map(|_| FlagSubscription::new()).collect();
        let keys: Vec<_> = flags.iter().map(|f| all.add(f.clone())).collect();
        assert_eq!(all.len(), 3);
        assert!(all.remove(keys[1]));
        assert!(!all.remove(keys[1]), "removed once");
        assert!(flags[1].is_disposed());
        let taken = all.take(keys[2]).expect("still there");
        all.dispose();
        all.dispose();
        assert!(flags[0].is_disposed() && !taken.is_disposed());
        assert!(all.is_disposed() && all.is_empty());
        let late = FlagSubscription::new();
        all.add(late.clone());
        assert!(late.is_disposed());
    }

    #[test]
    fn clearing_a_composite_disposes_its_handles_and_keeps_it_usable() {
        let all = CompositeSubscription::new();
        let first = FlagSubscription::new();
        all.add(first.clone());
        all.clear();
        assert!(first.is_disposed() && !all.is_disposed());
        let next = FlagSubscription::new();
        all.add(next.clone());
        assert!(!next.is_disposed());
    }

    #[test]
    fn a_handle_may_reach_its_composite_while_it_is_disposed() {
        let all = Arc::new(CompositeSubscription::<Box<dyn Subscription + Send + Sync>>::new());
        struct Reentrant(Arc<CompositeSubscription<Box<dyn Subscription + Send + Sync>>>);
        impl Subscription for Reentrant {
            fn dispose(&self) {
                assert!(self.0.is_disposed());
                self.0.add(Box::new(Finished));
            }
            fn is_disposed(&self) -> bool {
                false
            }
        }
        all.add(Box::new(Reentrant(all.clone())));
        all.dispose();
    }

    #[test]
    fn a_serial_slot_disposes_what_it_replaces_and_what_comes_late() {
        let slot = SerialSubscription::new();
        let (a, b, c) = (
            FlagSubscription::new(),
            FlagSubscription::new(),
            FlagSubscription::new(),
        );
        slot.set(a.clone());
        assert!(!slot.is_disposed());
        slot.set(b.clone());
        assert!(a.is_disposed() && !b.is_disposed());
        slot.dispose();
        assert!(b.is_disposed() && slot.is_disposed());
        slot.set(c.clone());
        assert!(c.is_disposed());
    }

    #[test]
    fn composites_and_serial_slots_are_send_exactly_when_their_handles_are() {
        static_assertions::assert_impl_all!(CompositeSubscription: Send, Sync, Subscription);
        static_assertions::assert_impl_all!(SerialSubscription: Send, Sync, Subscription);
        type Local = std::rc::Rc<FlagSubscription>;
        static_assertions::assert_not_impl_any!(CompositeSubscription<Local>: Send, Sync);
        static_assertions::assert_not_impl_any!(SerialSubscription<Local>: Send, Sync);
    }

    #[test]
    fn guards_and_composites_are_send_when_their_handles_are() {
        static_assertions::assert_impl_all!(DisposeGuard<FlagSubscription>: Send, Sync);
        static_assertions::assert_impl_all!(Vec<FlagSubscription>: Send, Sync, Subscription);
    }
}
