//! [`ObservableExt::switch_if_empty`](crate::ObservableExt::switch_if_empty).
//!
//! The source is subscribed with a [`SwitchIfEmptyObserver`] that holds the other
//! observable; if the source completes without a value, that observer subscribes the other
//! one with the downstream observer, on whatever thread the completion arrived. The other
//! observable's handle is handed to the subscription's handle through the
//! [`Serial`] slot it shares with
//! [`on_error_resume_next`](crate::ObservableExt::on_error_resume_next).

use crate::Error;
use crate::engine::serial::Serial;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::{Arc, Mutex};
use crate::subscription::Subscription;
use std::fmt;

/// Mirrors the source, or another observable if the source completes empty; built by
/// [`ObservableExt::switch_if_empty`](crate::ObservableExt::switch_if_empty).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "switchIfEmpty")]
pub struct SwitchIfEmpty<S, R> {
    source: S,
    other: R,
}

impl<S, R> SwitchIfEmpty<S, R> {
    pub(crate) fn new(source: S, other: R) -> Self {
        SwitchIfEmpty { source, other }
    }
}

impl<S, R> Observable for SwitchIfEmpty<S, R>
where
    S: Observable,
    R: Observable<Item = S::Item>,
{
    type Item = S::Item;
    type Flavour = crate::sync::Joined<S::Flavour, R::Flavour>;
}

impl<S, R, O> Subscribe<O> for SwitchIfEmpty<S, R>
where
    S: Subscribe<SwitchIfEmptyObserver<O, R, <R as Subscribe<O>>::Subscription>>,
    R: Subscribe<O> + Observable<Item = <S as Observable>::Item>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription =
        SwitchIfEmptySubscription<S::Subscription, <R as Subscribe<O>>::Subscription>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let slot = Arc::new(Serial::new());
        let (upstream, early) = slot.first(|| {
            self.source.subscribe_observer(SwitchIfEmptyObserver {
                observer,
                other: self.other,
                empty: true,
                slot: slot.clone(),
            })
        });
        SwitchIfEmptySubscription {
            upstream,
            slot,
            early: early.map(Mutex::new),
        }
    }
}

/// The observer [`SwitchIfEmpty`] subscribes to its source.
pub struct SwitchIfEmptyObserver<O, R, D> {
    observer: O,
    other: R,
    /// Whether the source has emitted nothing so far.
    empty: bool,
    slot: Arc<Serial<D>>,
}

impl<T, O, R, D> Observer<T> for SwitchIfEmptyObserver<O, R, D>
where
    O: Observer<T>,
    R: Subscribe<O, Subscription = D>,
    D: Subscription,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.empty = false;
        self.observer.on_next(value)
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    fn on_completed(self) {
        if !self.empty {
            return self.observer.on_completed();
        }
        if self.observer.is_disposed() {
            return;
        }
        let (other, observer) = (self.other, self.observer);
        self.slot.second(|| other.subscribe_observer(observer));
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed() || self.slot.is_disposed()
    }
}

impl<O, R, D> fmt::Debug for SwitchIfEmptyObserver<O, R, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SwitchIfEmptyObserver")
            .field("empty", &self.empty)
            .finish_non_exhaustive()
    }
}

/// The handle of a [`SwitchIfEmpty`] subscription: disposes the source and, once it has
/// completed empty, the other observable.
pub struct SwitchIfEmptySubscription<U, D> {
    upstream: U,
    slot: Arc<Serial<D>>,
    /// The other observable's handle, when the source completed empty inside `subscribe`
    /// (see [`Serial::first`]). A lock, so the handle is `Sync` when the other's is `Send`;
    /// taken only by `dispose` and `is_disposed`.
    early: Option<Mutex<D>>,
}

impl<U: Subscription, D: Subscription> Subscription for SwitchIfEmptySubscription<U, D> {
    fn dispose(&self) {
        self.slot.dispose(&self.upstream);
        if let Some(early) = &self.early {
            early.lock().dispose();
        }
    }

    fn is_disposed(&self) -> bool {
        match &self.early {
            Some(early) => self.slot.is_disposed() || early.lock().is_disposed(),
            None => self.slot.is_over(&self.upstream),
        }
    }
}

impl<U, D> fmt::Debug for SwitchIfEmptySubscription<U, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SwitchIfEmptySubscription")
            .field("disposed", &self.slot.is_disposed())
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::source::{create, defer, empty, from_iter, just, never, throw};
    use crate::subscription::FlagSubscription;
    use crate::testing::TestObserver;
    use crate::{Error, Notification::*};
    use std::cell::Cell;

    #[test]
    fn a_source_with_values_is_mirrored_and_the_other_never_subscribed() {
        let subscribed = Cell::new(false);
        let o = TestObserver::new();
        let handle = from_iter([1, 2])
            .switch_if_empty(defer(|| {
                subscribed.set(true);
                just(9)
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
        assert!(!subscribed.get());
        assert!(handle.is_disposed());
    }

    #[test]
    fn an_empty_source_switches_to_the_other() {
        let o = TestObserver::new();
        let handle = empty()
            .switch_if_empty(from_iter([7, 8]))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(7), Next(8), Completed]);
        assert!(handle.is_disposed());

        let o = TestObserver::<i32>::new();
        empty()
            .switch_if_empty(throw(Error::msg("other")))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("other"))]);

        let o = TestObserver::<i32>::new();
        empty()
            .switch_if_empty(empty())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn an_error_is_not_empty() {
        let subscribed = Cell::new(false);
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .switch_if_empty(defer(|| {
                subscribed.set(true);
                just(9)
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("bad"))]);
        assert!(!subscribed.get());

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("late"));
        })
        .switch_if_empty(just(9))
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Error(Error::msg("late"))]);
    }

    #[test]
    fn a_source_that_never_ends_keeps_the_other_waiting() {
        let o = TestObserver::<i32>::new();
        let handle = never()
            .switch_if_empty(just(9))
            .subscribe_observer(o.clone());
        handle.dispose();
        assert!(handle.is_disposed());
        o.assert_notifications(&[]);
    }

    /// A source that never terminates by itself and hands out a flag handle, like a timer.
    #[derive(Clone)]
    struct Pending(FlagSubscription);

    impl Observable for Pending {
        type Item = i32;
        type Flavour = crate::sync::Shared;
    }

    impl<O: Observer<i32>> Subscribe<O> for Pending {
        type Subscription = FlagSubscription;

        fn subscribe_observer(self, _observer: O) -> FlagSubscription {
            self.0
        }
    }

    #[test]
    fn dispose_reaches_the_source_then_the_other() {
        let source = FlagSubscription::new();
        let o = TestObserver::new();
        let handle = Pending(source.clone())
            .switch_if_empty(just(1))
            .subscribe_observer(o.clone());
        handle.dispose();
        assert!(source.is_disposed());
        o.assert_notifications(&[]);

        let other = FlagSubscription::new();
        let o = TestObserver::new();
        let handle = empty()
            .switch_if_empty(Pending(other.clone()))
            .subscribe_observer(o.clone());
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(handle.is_disposed());
        assert!(other.is_disposed());
        o.assert_notifications(&[]);
    }

    #[test]
    fn disposed_downstream_stops_either_side() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .switch_if_empty(just(-1))
            .map(|v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();

        let o = TestObserver::new();
        let probe = o.clone();
        empty()
            .switch_if_empty(from_iter(10..))
            .map(|v| {
                if v == 11 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[10, 11]);
        o.assert_not_terminated();

        let subscribed = Cell::new(false);
        let o = TestObserver::<i32>::new();
        o.dispose();
        empty()
            .switch_if_empty(defer(|| {
                subscribed.set(true);
                just(9)
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert!(!subscribed.get());
    }

    #[test]
    fn the_other_is_subscribed_on_the_thread_the_source_completes_on() {
        let o = TestObserver::new();
        let (tx, rx) = std::sync::mpsc::channel();
        let handle = crate::source::create_owned(move |e: crate::source::OwnedEmitter<i32>| {
            tx.send(std::thread::spawn(move || e.on_completed()))
                .unwrap();
        })
        .switch_if_empty(from_iter([7, 8]))
        .subscribe_observer(o.clone());
        rx.recv().unwrap().join().unwrap();
        o.assert_notifications(&[Next(7), Next(8), Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn disposal_racing_an_empty_completion_leaves_the_other_unsubscribed() {
        // Mirrors the loom model of the hand-over slot on real threads: whichever wins, nothing stays subscribed.
        for _ in 0..200 {
            let other = crate::subjects::PublishSubject::<i32>::new();
            let (tx, rx) = std::sync::mpsc::channel();
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
            let at_start = barrier.clone();
            let handle = crate::source::create_owned(move |e: crate::source::OwnedEmitter<i32>| {
                let at_start = at_start.clone();
                tx.send(std::thread::spawn(move || {
                    at_start.wait();
                    e.on_completed()
                }))
                .unwrap();
            })
            .switch_if_empty(other.observable())
            .subscribe_observer(TestObserver::new());
            let completing = rx.recv().unwrap();
            barrier.wait();
            handle.dispose();
            completing.join().unwrap();
            assert!(handle.is_disposed());
            assert!(
                !other.has_observers(),
                "the other observable outlived the disposal"
            );
        }
    }

    #[test]
    fn send_when_its_parts_are() {
        fn assert_send<T: Send>(_: &T) {}
        let source = empty::<i32>().switch_if_empty(from_iter([1, 2]));
        assert_send(&source);
        let handle = source.subscribe_observer(TestObserver::new());
        assert_send(&handle);
    }
}
