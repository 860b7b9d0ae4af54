//! The source's lifetime for [`group_by`](crate::ObservableExt::group_by) and
//! [`window`](crate::ObservableExt::window), shared by the outer observer and the inner
//! observables.
//!
//! [`Refs`] counts who still wants the source: the outer downstream, until it is disposed,
//! and each inner observable until it ends. The source is disposed when the count reaches
//! zero (RxJava's reference-counted upstream): disposing the outer handle stops new inner
//! observables, but the open ones keep receiving values until they end or are disposed.

use super::combine_slots::Handle;
use crate::primitive::Ordering;
use crate::subscription::Subscription;
use crate::sync::imp::{BoxSubscription, Counter, Lock, Machinery};
use crate::sync::{Flavour, Shared};
use std::{fmt, mem};

/// The pointer the outer observer, the handle and the inner observables share the [`Refs`]
/// through: `Arc` in the [`Shared`] flavour, `Rc` in the [`Local`](crate::sync::Local) one.
pub(crate) type RefsPtr<'a, F> = <F as Machinery>::Ptr<Refs<'a, F>>;

/// Who still wants the source, and the source's handle.
///
/// Its parts are the flavour's: atomics and a mutex in the [`Shared`] flavour, `Cell`s and a
/// `RefCell` in the [`Local`](crate::sync::Local) one, so a single-threaded split pays no
/// atomic operation. The lock is never held while user code runs (the source's `dispose`
/// included), so the `RefCell` is never borrowed twice.
pub(crate) struct Refs<'a, F: Flavour = Shared> {
    /// Open inner observables, plus one until the outer downstream is released. Once zero it
    /// stays zero: a new inner is only opened by raising a non-zero count.
    count: F::Counter,
    /// 1 once the outer downstream's reference has been released (a counter, not a flag, for
    /// its compare-exchange: the release must happen once).
    outer_released: F::Counter,
    upstream: F::Lock<Upstream<'a, F>>,
}

enum Upstream<'a, F: Flavour> {
    /// The source's `subscribe` has not returned yet.
    Pending,
    Running(Handle<'a, F>),
    Disposed,
}

impl<'a, F: Flavour> Refs<'a, F> {
    pub(crate) fn new() -> Self {
        Refs {
            count: F::Counter::new(1),
            outer_released: F::Counter::new(0),
            upstream: F::Lock::new(Upstream::Pending),
        }
    }

    /// A new count, behind the flavour's pointer.
    pub(crate) fn shared() -> RefsPtr<'a, F> {
        F::new_ptr(Refs::new())
    }

    /// Takes one more reference for a new inner observable; `false` once nobody wants the
    /// source any more, when no inner may be opened.
    pub(crate) fn acquire(&self) -> bool {
        // AcqRel on success, Acquire on failure: pairs with the release in `release`, so a
        // count seen at zero really has disposed the source.
        let mut n = self.count.load(Ordering::Acquire);
        while n > 0 {
            match self
                .count
                .compare_exchange(n, n + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return true,
                Err(now) => n = now,
            }
        }
        false
    }

    /// Drops one reference; the last one disposes the source.
    pub(crate) fn release(&self) {
        if self.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            let upstream = mem::replace(&mut *self.upstream.lock(), Upstream::Disposed);
            if let Upstream::Running(handle) = upstream {
                handle.dispose();
            }
        }
    }

    /// Releases the outer downstream's reference, once.
    pub(crate) fn release_outer(&self) {
        if self
            .outer_released
            .compare_exchange(0, 1, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            self.release();
        }
    }

    /// Whether the outer downstream has been released: it gets nothing more.
    pub(crate) fn is_outer_released(&self) -> bool {
        self.outer_released.load(Ordering::Acquire) != 0
    }

    /// Whether nobody wants the source any more: what the operator's observer reports
    /// through `is_disposed`.
    pub(crate) fn is_unreferenced(&self) -> bool {
        self.count.load(Ordering::Acquire) == 0
    }

    /// Keeps the source's handle for the last release, or disposes it at once if that has
    /// already happened.
    pub(crate) fn set_upstream<H: Subscription>(&self, handle: H)
    where
        F: BoxSubscription<'a, H>,
    {
        if handle.is_disposed() {
            return;
        }
        let handle = F::box_subscription(handle);
        let mut upstream = self.upstream.lock();
        if let Upstream::Pending = *upstream {
            *upstream = Upstream::Running(handle);
        } else {
            drop(upstream);
            handle.dispose();
        }
    }
}

/// The handle [`GroupBy`](crate::operators::GroupBy) and [`Window`](crate::operators::Window)
/// return. Disposing it stops new inner observables from being emitted and delivers nothing
/// more to the outer observer; the source itself is disposed once every open inner observable
/// has also ended or been disposed.
pub struct SplitSubscription<'a, F: Flavour = Shared> {
    refs: RefsPtr<'a, F>,
}

impl<'a, F: Flavour> SplitSubscription<'a, F> {
    pub(crate) fn new(refs: RefsPtr<'a, F>) -> Self {
        SplitSubscription { refs }
    }
}

impl<F: Flavour> Subscription for SplitSubscription<'_, F> {
    fn dispose(&self) {
        self.refs.release_outer();
    }

    fn is_disposed(&self) -> bool {
        self.refs.is_outer_released()
    }
}

impl<F: Flavour> fmt::Debug for SplitSubscription<'_, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SplitSubscription")
            .field("disposed", &self.refs.is_outer_released())
            .finish_non_exhaustive()
    }
}
