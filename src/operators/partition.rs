//! [`ObservableExt::partition`](crate::ObservableExt::partition).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// One half of a partition: the values of the source for which the predicate returns
/// `keep`; [`ObservableExt::partition`](crate::ObservableExt::partition) builds both halves.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "partition")]
pub struct Partition<S, P> {
    source: S,
    predicate: P,
    keep: bool,
}

impl<S: Clone, P: Clone> Partition<S, P> {
    /// The half of the accepted values, and the half of the rejected ones.
    pub(crate) fn pair(source: S, predicate: P) -> (Self, Self) {
        let accepted = Partition {
            source: source.clone(),
            predicate: predicate.clone(),
            keep: true,
        };
        let rejected = Partition {
            source,
            predicate,
            keep: false,
        };
        (accepted, rejected)
    }
}

// Bounds only what fixes its item (ARCHITECTURE.md, "Compile time").
impl<S: Observable, P> Observable for Partition<S, P> {
    type Item = S::Item;
    type Flavour = S::Flavour;
}

// The closure's bound left to the observer's impl, the observer's bound before the source's
// (ARCHITECTURE.md, "Compile time").
impl<S, P, O> Subscribe<O> for Partition<S, P>
where
    O: Observer<<S as Observable>::Item>,
    S: Subscribe<PartitionObserver<O, P>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(PartitionObserver {
            observer,
            predicate: self.predicate,
            keep: self.keep,
        })
    }
}

/// The observer a [`Partition`] half subscribes upstream.
#[derive(Debug)]
pub struct PartitionObserver<O, P> {
    observer: O,
    predicate: P,
    keep: bool,
}

impl<T, O, P> Observer<T> for PartitionObserver<O, P>
where
    O: Observer<T>,
    P: FnMut(&T) -> bool,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        if (self.predicate)(&value) == self.keep {
            self.observer.on_next(value)
        }
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

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{create, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification::*};
    use std::cell::Cell;

    #[test]
    fn splits_the_values_by_the_predicate() {
        let (even, odd) = from_iter(1..=5).partition(|v| v % 2 == 0);
        let (e, o) = (TestObserver::new(), TestObserver::new());
        let handle = even.subscribe_observer(e.clone());
        odd.subscribe_observer(o.clone());
        e.assert_notifications(&[Next(2), Next(4), Completed]);
        o.assert_notifications(&[Next(1), Next(3), Next(5), Completed]);
        assert_eq!(std::mem::size_of_val(&handle), 0);
    }

    #[test]
    fn each_half_subscribes_the_source_and_calls_its_own_predicate() {
        let subscriptions = Cell::new(0);
        let calls = Cell::new(0);
        let source = create(|mut e| {
            subscriptions.set(subscriptions.get() + 1);
            e.on_next(1);
            e.on_next(2);
            e.on_completed();
        });
        let (big, small) = source.partition(|v| {
            calls.set(calls.get() + 1);
            *v > 1
        });
        let (b, s) = (TestObserver::new(), TestObserver::new());
        big.subscribe_observer(b.clone());
        small.subscribe_observer(s.clone());
        b.assert_notifications(&[Next(2), Completed]);
        s.assert_notifications(&[Next(1), Completed]);
        assert_eq!(subscriptions.get(), 2);
        assert_eq!(calls.get(), 4);
    }

    #[test]
    fn errors_reach_both_halves() {
        let (a, b) = throw::<i32>(Error::msg("bad")).partition(|_| true);
        let (oa, ob) = (TestObserver::new(), TestObserver::new());
        a.subscribe_observer(oa.clone());
        b.subscribe_observer(ob.clone());
        oa.assert_notifications(&[Error(Error::msg("bad"))]);
        ob.assert_notifications(&[Error(Error::msg("bad"))]);
    }

    #[test]
    fn disposed_downstream_stops_the_source() {
        let pulled = Cell::new(0);
        let (_, odd) = from_iter(0..)
            .tap(|_| pulled.set(pulled.get() + 1))
            .partition(|v| v % 2 == 0);
        let o = TestObserver::new();
        odd.take(2).subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(3), Completed]);
        assert_eq!(pulled.get(), 4);
    }
}
