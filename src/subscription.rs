//! Subscription handles: what `subscribe` returns, and how a subscription is cancelled.
//!
//! The handle's type depends on the chain. A synchronous chain has nothing left to cancel
//! once `subscribe` returns, so it hands back [`Finished`], which is zero-sized; a chain with
//! timers or threads returns a handle that can reach them. Nothing is allocated and no atomic
//! is touched unless the chain needs it.
//!
//! Dropping a handle does not cancel the subscription, as in every Rx: call
//! [`dispose`](Subscription::dispose), which is idempotent.

use crate::sync::{Arc, AtomicBool, Ordering};
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
