//! The end of a subscription, shared by [`finally`](crate::ObservableExt::finally),
//! [`tap_dispose`](crate::ObservableExt::tap_dispose) and [`using`](crate::source::using):
//! something ([`Finish`]) that must happen once whichever of three things comes first: a
//! terminal notification, the downstream telling upstream it is disposed, or a call to the
//! returned handle's `dispose`.
//!
//! The first two happen on the observer, the last on the handle, possibly on different
//! threads, so the two share the action behind a lock; whoever takes it out of its `Option`
//! finishes it, outside the lock.
#![allow(unreachable_pub)]

use crate::Error;
use crate::observable::Subscribe;
use crate::observer::Observer;
use crate::primitive::{Arc, Mutex};
use crate::subscription::Subscription;
use std::fmt;

/// What happens once when a subscription ends: any `FnOnce()` closure runs; the actions of
/// `tap_dispose` and `using` are types of their own.
pub trait Finish {
    /// Whether a terminal notification finishes it; when `false`, only disposal does, and a
    /// terminal notification drops it unfinished.
    const ON_TERMINAL: bool = true;

    /// Does what was to be done at the end.
    fn finish(self);
}

impl<F: FnOnce()> Finish for F {
    #[inline]
    fn finish(self) {
        self()
    }
}

/// The action, shared by the observer and the handle; `None` once it has been taken.
pub(crate) struct Ending<F>(Mutex<Option<F>>);

impl<F: Finish> Ending<F> {
    pub(crate) fn new(action: F) -> Self {
        Ending(Mutex::new(Some(action)))
    }

    /// Subscribes `source` with `observer` wrapped to reach this end, and returns the handle
    /// that reaches it too.
    pub(crate) fn subscribe<S, O>(
        self,
        source: S,
        observer: O,
    ) -> FinallySubscription<S::Subscription, F>
    where
        S: Subscribe<FinallyObserver<O, F>>,
    {
        let action = Arc::new(self);
        let upstream = source.subscribe_observer(FinallyObserver {
            observer,
            action: action.clone(),
        });
        FinallySubscription { upstream, action }
    }

    /// Takes the action, and finishes it unless a terminal notification ended the
    /// subscription and the action is not for those.
    fn end(&self, by_terminal: bool) {
        // The guard is a temporary of this statement: the action runs unlocked, so it may
        // dispose the handle or subscribe again without deadlocking.
        let action = self.0.lock().take();
        if let Some(action) = action
            && (!by_terminal || F::ON_TERMINAL)
        {
            action.finish()
        }
    }
}

impl<F> Ending<F> {
    fn has_ended(&self) -> bool {
        self.0.lock().is_none()
    }
}

/// The observer [`Finally`](crate::operators::Finally) and
/// [`Using`](crate::source::Using) subscribe upstream.
pub struct FinallyObserver<O, F> {
    observer: O,
    action: Arc<Ending<F>>,
}

impl<O: fmt::Debug, F> fmt::Debug for FinallyObserver<O, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FinallyObserver")
            .field("observer", &self.observer)
            .finish_non_exhaustive()
    }
}

impl<T, O, F> Observer<T> for FinallyObserver<O, F>
where
    O: Observer<T>,
    F: Finish,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    fn on_error(self, error: Error) {
        self.observer.on_error(error);
        self.action.end(true);
    }

    fn on_completed(self) {
        self.observer.on_completed();
        self.action.end(true);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        // Disposal reaches upstream through this call (upstream stops when it answers true),
        // so this is where a downstream that stopped early, such as `take`, ends the
        // subscription: RxJava's `doFinally` and `doOnDispose` run their actions when the
        // downstream disposes.
        let disposed = self.observer.is_disposed();
        if disposed {
            self.action.end(false);
        }
        disposed
    }
}

/// The handle of a [`Finally`](crate::operators::Finally) or
/// [`Using`](crate::source::Using) subscription: disposing it disposes upstream, then
/// finishes the action if nothing has yet.
pub struct FinallySubscription<U, F> {
    upstream: U,
    action: Arc<Ending<F>>,
}

impl<U: fmt::Debug, F> fmt::Debug for FinallySubscription<U, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FinallySubscription")
            .field("upstream", &self.upstream)
            .field("finished", &self.action.has_ended())
            .finish()
    }
}

impl<U: Subscription, F: Finish> Subscription for FinallySubscription<U, F> {
    fn dispose(&self) {
        self.upstream.dispose();
        self.action.end(false);
    }

    /// True once the subscription has ended: it terminated, its downstream stopped it, or
    /// it was disposed.
    fn is_disposed(&self) -> bool {
        self.action.has_ended()
    }
}
