//! [`ObservableExt::start_with_iter`](crate::ObservableExt::start_with_iter).

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits the values of an iterator before the source's; built by
/// [`ObservableExt::start_with_iter`](crate::ObservableExt::start_with_iter).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "startWith")]
pub struct StartWithIter<S, I> {
    source: S,
    values: I,
}

impl<S, I> StartWithIter<S, I> {
    pub(crate) fn new(source: S, values: I) -> Self {
        StartWithIter { source, values }
    }
}

impl<S: Observable, I> Observable for StartWithIter<S, I> {
    type Item = S::Item;
    type Flavour = S::Flavour;
}

impl<S, I, O> Subscribe<O> for StartWithIter<S, I>
where
    S: Subscribe<O>,
    I: IntoIterator<Item = <S as Observable>::Item>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, mut observer: O) -> Self::Subscription {
        for value in self.values {
            if observer.is_disposed() {
                break;
            }
            observer.on_next(value);
        }
        // Subscribed even when the downstream has gone, so the handle keeps the source's
        // type; the source checks `is_disposed` before emitting anything.
        self.source.subscribe_observer(observer)
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification::*};

    #[test]
    fn the_values_then_the_source() {
        let o = TestObserver::new();
        let handle = from_iter([3, 4])
            .start_with_iter([1, 2])
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Next(4), Completed]);
        assert_eq!(std::mem::size_of_val(&handle), 0);

        let o = TestObserver::<i32>::new();
        throw(Error::msg("x"))
            .start_with_iter(vec![0])
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(0), Error(Error::msg("x"))]);
    }

    #[test]
    fn an_endless_prefix_stops_when_downstream_does() {
        let o = TestObserver::new();
        from_iter([0])
            .start_with_iter(1..)
            .take(3)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
    }

    #[test]
    fn a_disposed_downstream_gets_nothing() {
        let o = TestObserver::new();
        o.dispose();
        from_iter([3])
            .start_with_iter([1, 2])
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);

        let o = TestObserver::new();
        let probe = o.clone();
        from_iter([3])
            .start_with_iter([1, 2])
            .tap(move |v| {
                if *v == 2 {
                    probe.dispose();
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2)]);
    }
}
