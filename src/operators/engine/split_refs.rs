//! The source's lifetime for [`group_by`](crate::ObservableExt::group_by) and
//! [`window`](crate::ObservableExt::window), shared by the outer observer and the inner
//! observables.
//!
//! [`Refs`] counts who still wants the source: the outer downstream, until it is disposed,
//! and each inner observable until it ends. The source is disposed when the count reaches
//! zero (RxJava's reference-counted upstream): disposing the outer handle stops new inner
//! observables, but the open ones keep receiving values until they end or are disposed.

use super::combine_slots::Handle;
use crate::subscription::Subscription;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Arc, AtomicBool, AtomicUsize, Flavour, Mutex, Ordering, Shared};
use std::{fmt, mem};

/// Who still wants the source, and the source's handle.
pub(crate) struct Refs<'a, F: Flavour = Shared> {
    /// Open inner observables, plus one until the outer downstream is released. Once zero it
    /// stays zero: a new inner is only opened by raising a non-zero count.
    count: AtomicUsize,
    /// Whether the outer downstream's reference has been released.
    outer_released: AtomicBool,
    upstream: Mutex<Upstream<'a, F>>,
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
            count: AtomicUsize::new(1),
            outer_released: AtomicBool::new(false),
            upstream: Mutex::new(Upstream::Pending),
        }
    }

    /// Takes one more reference for a new inner observable; `false` once nobody wants the
    /// source any more, when no inner may be opened.
    pub(crate) fn acquire(&self) -> bool {
        // AcqRel on success, Acquire on failure: pairs with the release in `release`, so a
        // count seen at zero really has disposed the source.
        self.count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n > 0).then(|| n + 1)
            })
            .is_ok()
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
        if !self.outer_released.swap(true, Ordering::AcqRel) {
            self.release();
        }
    }

    /// Whether the outer downstream has been released: it gets nothing more.
    pub(crate) fn is_outer_released(&self) -> bool {
        self.outer_released.load(Ordering::Acquire)
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
    refs: Arc<Refs<'a, F>>,
}

impl<'a, F: Flavour> SplitSubscription<'a, F> {
    pub(crate) fn new(refs: Arc<Refs<'a, F>>) -> Self {
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
