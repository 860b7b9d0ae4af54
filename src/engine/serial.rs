//! [`Serial`]: a serial subscription of two, the source's handle and then the handle of the
//! observable an operator subscribes when its source ends (`switch_if_empty`,
//! `on_error_resume_next`), which reaches the subscription's handle through this slot.
//!
//! The source may end on another thread after `subscribe` returned, so the handle of what is
//! subscribed then can only travel through shared state; Rx.NET's `SerialDisposable` and
//! RxJava's `SequentialDisposable` do the same. The algorithm is a flag and a lock:
//!
//! - `dispose` sets the flag (Release), disposes the first source, then takes whatever the
//!   slot holds under the lock and disposes it outside the lock.
//! - [`second`](Serial::second) checks the flag (Acquire) and does nothing once it
//!   is set. Otherwise it subscribes the second observable with no lock held (a synchronous
//!   second observable runs to its end inside that call, and may reach this handle), then
//!   takes the lock and checks the flag *again*: `dispose` sets the flag before it takes the
//!   lock, so either `dispose` finds the handle stored, or this sees the flag and disposes
//!   the handle itself. Without that second check a `dispose` that ran while the second
//!   observable was being subscribed would leave it running for good.
//!
//! **When the source ends inside `subscribe`.** Most sources end on the subscribing thread
//! before their `subscribe` returns (`throw`, `from_iter`, `create`). The operator subscribes
//! its source through [`first`](Serial::first), which says so in `owner` (see
//! [`inside`](super::inside)); a `second` that finds its thread's token there subscribes the
//! second observable and leaves its handle in a local of `first`, which returns it, with no
//! lock: nobody else can reach this state before the operator's `subscribe` has returned its
//! handle, so `dispose` cannot run meanwhile. The operator keeps that handle in its own handle.

use super::inside::{self, Inside};
use crate::primitive::{AtomicBool, AtomicUsize, Mutex, Ordering, UnsafeCell};
use crate::subscription::Subscription;
use std::cell::Cell;

/// The serial subscription of one operator; `D` is the second observable's handle.
pub(crate) struct Serial<D> {
    /// Set once by `dispose`; the second observable is then never subscribed, or disposed as
    /// soon as its handle arrives. Release in `dispose`, Acquire in every load, so whoever
    /// sees it also sees what `dispose` did before.
    disposed: AtomicBool,
    /// The token of the thread running [`first`](Serial::first), while it runs; 0 otherwise.
    owner: AtomicUsize,
    /// Where a `second` called inside `first` leaves the handle: a local of `first`, written and
    /// read only on its thread, while `owner` holds its token.
    early: UnsafeCell<*const Cell<Option<D>>>,
    phase: Mutex<Phase<D>>,
}

// SAFETY: `early` is what keeps the slot from being `Send` and `Sync`: it is written by
// `first` and read by `second` only on the thread that `owner` names, that is, only on the
// thread running `first` (module docs), where the local it points to is alive. The rest is
// atomics and a lock around the handle, `Sync` when the handle is `Send`.
unsafe impl<D: Send> Send for Serial<D> {}
// SAFETY: as above.
unsafe impl<D: Send> Sync for Serial<D> {}

enum Phase<D> {
    /// The first source is running, or has ended without needing the second.
    First,
    /// The second observable is being subscribed; its handle is not back yet.
    Subscribing,
    /// The second observable was subscribed and returned this handle.
    Second(D),
}

impl<D> Serial<D> {
    pub(crate) fn new() -> Self {
        Serial {
            disposed: AtomicBool::new(false),
            owner: AtomicUsize::new(0),
            early: UnsafeCell::new(std::ptr::null()),
            phase: Mutex::new(Phase::First),
        }
    }

    /// Runs `subscribe` (which subscribes the source); returns what it returns, and the second
    /// observable's handle if the source ended and handed over inside it, on this thread.
    pub(crate) fn first<U>(&self, subscribe: impl FnOnce() -> U) -> (U, Option<D>) {
        let early = Cell::new(None);
        // SAFETY: only this thread touches `early` while `owner` holds its token (below), and
        // `first` runs once, before anyone else can reach the slot.
        self.early.with_mut(|slot| unsafe { *slot = &early });
        let upstream = {
            let _inside = Inside::enter(&self.owner, inside::thread_token());
            subscribe()
        };
        (upstream, early.take())
    }

    /// Whether the subscription's handle was disposed.
    #[inline]
    pub(crate) fn is_disposed(&self) -> bool {
        self.disposed.load(Ordering::Acquire)
    }
}

impl<D: Subscription> Serial<D> {
    /// Runs `subscribe` (which subscribes the second observable) unless the handle was
    /// disposed, and keeps the handle it returns for `dispose`, or disposes it at once if
    /// `dispose` ran meanwhile.
    pub(crate) fn second(&self, subscribe: impl FnOnce() -> D) {
        if self.is_disposed() {
            return;
        }
        if inside::is_inside(&self.owner, inside::thread_token()) {
            // Inside `first`, on its thread: `first` hands the handle to the operator.
            let second = subscribe();
            // SAFETY: on the thread running `first`, whose local the slot points to.
            let early = self.early.with_mut(|slot| unsafe { *slot });
            // SAFETY: as above: `first` is below this call, so its local is alive.
            unsafe { (*early).set(Some(second)) };
            return;
        }
        *self.phase.lock() = Phase::Subscribing;
        let second = subscribe();
        let mut phase = self.phase.lock();
        // The check under the lock `dispose` takes after setting the flag (module docs).
        if self.is_disposed() {
            drop(phase);
            second.dispose();
        } else {
            *phase = Phase::Second(second);
        }
    }

    /// Disposes `first`, the first source's handle, and the second observable's handle if
    /// there is one; what arrives later is disposed on arrival.
    pub(crate) fn dispose(&self, first: &impl Subscription) {
        self.disposed.store(true, Ordering::Release);
        first.dispose();
        let phase = std::mem::replace(&mut *self.phase.lock(), Phase::First);
        // Outside the lock: disposing may call back into this subscription.
        if let Phase::Second(second) = phase {
            second.dispose();
        }
    }

    /// Whether the whole subscription is over: disposed, or the source (and the second
    /// observable, once it runs) ended.
    pub(crate) fn is_over(&self, first: &impl Subscription) -> bool {
        if self.is_disposed() {
            return true;
        }
        match &*self.phase.lock() {
            Phase::First => first.is_disposed(),
            Phase::Subscribing => false,
            Phase::Second(second) => second.is_disposed(),
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::Serial;
    use crate::subscription::{Finished, FlagSubscription, Subscription};
    use std::cell::Cell;

    #[test]
    fn the_second_handle_is_kept_and_disposed_with_the_first() {
        let (first, second) = (FlagSubscription::new(), FlagSubscription::new());
        let slot = Serial::new();
        assert!(!slot.is_over(&first));
        slot.second(|| second.clone());
        assert!(!slot.is_over(&first));
        slot.dispose(&first);
        assert!(first.is_disposed() && second.is_disposed());
        assert!(slot.is_over(&first));
    }

    #[test]
    fn after_dispose_nothing_is_subscribed() {
        let slot = Serial::<FlagSubscription>::new();
        slot.dispose(&Finished);
        let subscribed = Cell::new(false);
        slot.second(|| {
            subscribed.set(true);
            FlagSubscription::new()
        });
        assert!(!subscribed.get());
        assert!(slot.is_disposed());
    }

    #[test]
    fn a_dispose_during_the_subscription_disposes_what_it_returns() {
        let slot = Serial::new();
        let second = FlagSubscription::new();
        slot.second(|| {
            // A synchronous second observable reaching the handle while it is subscribed.
            slot.dispose(&Finished);
            second.clone()
        });
        assert!(second.is_disposed());
    }

    #[test]
    fn a_second_inside_first_comes_back_from_it_without_the_lock() {
        let slot = Serial::new();
        let second = FlagSubscription::new();
        let (upstream, early) = slot.first(|| {
            slot.second(|| second.clone());
            7
        });
        assert_eq!(upstream, 7);
        assert!(early.is_some_and(|early| {
            early.dispose();
            second.is_disposed()
        }));
        // Nothing was left in the locked slot.
        assert!(!slot.is_over(&FlagSubscription::new()));
    }

    #[test]
    fn a_second_from_another_thread_during_first_takes_the_lock() {
        let slot = Serial::new();
        let second = FlagSubscription::new();
        let ((), early) = slot.first(|| {
            std::thread::scope(|s| {
                s.spawn(|| slot.second(|| second.clone()));
            })
        });
        assert!(early.is_none());
        slot.dispose(&Finished);
        assert!(second.is_disposed());
    }

    #[test]
    fn a_second_after_first_takes_the_lock() {
        let slot = Serial::new();
        let ((), early) = slot.first(|| ());
        assert!(early.is_none());
        let second = FlagSubscription::new();
        slot.second(|| second.clone());
        slot.dispose(&Finished);
        assert!(second.is_disposed());
    }

    #[test]
    fn is_over_follows_the_running_side() {
        let (first, second) = (FlagSubscription::new(), FlagSubscription::new());
        let slot = Serial::new();
        first.dispose();
        assert!(slot.is_over(&first), "the first source ended");
        slot.second(|| second.clone());
        assert!(!slot.is_over(&first), "the second runs");
        second.dispose();
        assert!(slot.is_over(&first));
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::Serial;
    use crate::primitive::{Arc, AtomicBool, Ordering, thread};
    use crate::subscription::{FlagSubscription, Subscription};

    /// The first source ends on another thread and the second observable is subscribed
    /// there, while the handle is disposed here: whichever wins, nothing stays subscribed.
    /// Fails without the flag check under the lock in `second`.
    #[test]
    fn loom_dispose_racing_the_second_leaves_nothing_running() {
        loom::model(|| {
            let slot = Arc::new(Serial::new());
            let subscribed = Arc::new(AtomicBool::new(false));
            let second = FlagSubscription::new();
            let ending = {
                let (slot, subscribed, second) = (slot.clone(), subscribed.clone(), second.clone());
                thread::spawn(move || {
                    slot.second(|| {
                        subscribed.store(true, Ordering::SeqCst);
                        second
                    })
                })
            };
            let first = FlagSubscription::new();
            slot.dispose(&first);
            ending.join().unwrap();
            assert!(first.is_disposed());
            assert!(slot.is_over(&first));
            if subscribed.load(Ordering::SeqCst) {
                assert!(
                    second.is_disposed(),
                    "the second observable outlived the disposal"
                );
            }
        });
    }

    /// The first source ends on another thread while this one is still in `first`: that
    /// thread is not the one `first` runs on, so it takes the locked path, and the handle
    /// reaches `dispose` whichever way the race goes.
    #[test]
    fn loom_a_second_elsewhere_during_first_takes_the_lock() {
        loom::model(|| {
            let slot = Arc::new(Serial::new());
            let second = FlagSubscription::new();
            let ending = {
                let (slot, second) = (slot.clone(), second.clone());
                thread::spawn(move || slot.second(|| second))
            };
            let ((), early) = slot.first(|| ());
            ending.join().unwrap();
            assert!(early.is_none());
            slot.dispose(&FlagSubscription::new());
            assert!(second.is_disposed());
        });
    }
}
