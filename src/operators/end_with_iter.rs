//! [`ObservableExt::end_with_iter`](crate::ObservableExt::end_with_iter).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits the values of an iterator after the source completes; built by
/// [`ObservableExt::end_with_iter`](crate::ObservableExt::end_with_iter).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "endWith")]
pub struct EndWithIter<S, I> {
    source: S,
    values: I,
}

impl<S, I> EndWithIter<S, I> {
    pub(crate) fn new(source: S, values: I) -> Self {
        EndWithIter { source, values }
    }
}

impl<S: Observable, I> Observable for EndWithIter<S, I> {
    type Item = S::Item;
    type Flavour = S::Flavour;
}

impl<S, I, O> Subscribe<O> for EndWithIter<S, I>
where
    S: Subscribe<EndWithIterObserver<O, I>>,
    I: IntoIterator<Item = <S as Observable>::Item>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(EndWithIterObserver {
            observer,
            values: self.values,
        })
    }
}

/// The observer [`EndWithIter`] subscribes upstream; it holds the iterator until
/// completion.
#[derive(Debug)]
pub struct EndWithIterObserver<O, I> {
    observer: O,
    values: I,
}

impl<T, O, I> Observer<T> for EndWithIterObserver<O, I>
where
    O: Observer<T>,
    I: IntoIterator<Item = T>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next(value)
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    fn on_completed(self) {
        let mut observer = self.observer;
        for value in self.values {
            if observer.is_disposed() {
                return;
            }
            observer.on_next(value);
        }
        if !observer.is_disposed() {
            observer.on_completed();
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification::*};

    #[test]
    fn the_source_then_the_values() {
        let o = TestObserver::new();
        let handle = from_iter([1, 2])
            .end_with_iter([3, 4])
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Next(4), Completed]);
        assert_eq!(std::mem::size_of_val(&handle), 0);
    }

    #[test]
    fn not_after_an_error_and_an_endless_suffix_stops() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("x"))
            .end_with_iter([1])
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("x"))]);

        let o = TestObserver::new();
        from_iter([0])
            .end_with_iter(1..)
            .take(3)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(0), Next(1), Next(2), Completed]);
    }

    #[test]
    fn a_disposed_downstream_gets_nothing_more() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter([1])
            .end_with_iter([2, 3])
            .tap(move |v| {
                if *v == 2 {
                    probe.dispose();
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2)]);

        let o = TestObserver::new();
        crate::source::empty()
            .end_with_iter(Vec::<i32>::new())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }
}
