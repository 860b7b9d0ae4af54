//! [`ObservableExt::pairwise`](crate::ObservableExt::pairwise).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits each value paired with the one before it; built by
/// [`ObservableExt::pairwise`](crate::ObservableExt::pairwise).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Pairwise<S> {
    source: S,
}

impl<S> Pairwise<S> {
    pub(crate) fn new(source: S) -> Self {
        Pairwise { source }
    }
}

impl<S: Observable> Observable for Pairwise<S> {
    type Item = (S::Item, S::Item);
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for Pairwise<S>
where
    S: Subscribe<PairwiseObserver<O, <S as Observable>::Item>>,
    <S as Observable>::Item: Clone,
    O: Observer<(<S as Observable>::Item, <S as Observable>::Item)>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(PairwiseObserver {
            observer,
            previous: None,
        })
    }
}

/// The observer [`Pairwise`] subscribes upstream.
#[derive(Debug)]
pub struct PairwiseObserver<O, T> {
    observer: O,
    previous: Option<T>,
}

impl<T, O> Observer<T> for PairwiseObserver<O, T>
where
    O: Observer<(T, T)>,
    T: Clone,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        // One clone per value: the pair takes one copy, the next pair needs the other.
        if let Some(previous) = self.previous.replace(value.clone()) {
            self.observer.on_next((previous, value))
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
    use crate::source::{from_iter, just, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn pairs_consecutive_values() {
        let o = TestObserver::new();
        from_iter(1..=4).pairwise().subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next((1, 2)),
            Notification::Next((2, 3)),
            Notification::Next((3, 4)),
            Notification::Completed,
        ]);
    }

    #[test]
    fn fewer_than_two_values_emit_nothing() {
        let o = TestObserver::<(i32, i32)>::new();
        just(1).pairwise().subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_mid_way_passes_through() {
        let o = TestObserver::new();
        from_iter([Ok(1), Ok(2), Ok(3), Err(Error::msg("cut"))])
            .try_map(|r| r)
            .pairwise()
            .subscribe_observer(o.clone());
        o.assert_values(&[(1, 2), (2, 3)]);
        o.assert_error("cut");

        let o = TestObserver::<(i32, i32)>::new();
        throw::<i32>(Error::msg("bad"))
            .pairwise()
            .subscribe_observer(o.clone());
        o.assert_error("bad");
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .pairwise()
            .map(|pair| {
                if pair.1 == 3 {
                    probe.dispose();
                }
                pair
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[(0, 1), (1, 2), (2, 3)]);
        o.assert_not_terminated();
    }
}
