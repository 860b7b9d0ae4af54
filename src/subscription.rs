//! Subscription handles: what `subscribe` returns, and how a subscription is cancelled.
//!
//! The handle's type depends on the chain. A synchronous chain has nothing left to cancel
//! once `subscribe` returns, so it hands back [`Finished`], which is zero-sized; a chain with
//! timers or threads returns a handle that can reach them. Nothing is allocated and no atomic
//! is touched unless the chain needs it.
//!
//! Dropping a handle does not cancel the subscription, as in every Rx: call
//! [`dispose`](Subscription::dispose), which is idempotent.

use crate::primitive::{Arc, AtomicBool, Ordering};
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
    fn guards_and_composites_are_send_when_their_handles_are() {
        static_assertions::assert_impl_all!(DisposeGuard<FlagSubscription>: Send, Sync);
        static_assertions::assert_impl_all!(Vec<FlagSubscription>: Send, Sync, Subscription);
    }
}
