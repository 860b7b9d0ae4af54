//! [`ObservableExt::flat_map_iter`](crate::ObservableExt::flat_map_iter).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Maps each value to an iterator and emits every item of it; built by
/// [`ObservableExt::flat_map_iter`](crate::ObservableExt::flat_map_iter).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "flatMapIterable")]
#[doc(alias = "concatMapIterable")]
#[doc(alias = "flat_map_iterable")]
pub struct FlatMapIter<S, F> {
    source: S,
    f: F,
}

impl<S, F> FlatMapIter<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        FlatMapIter { source, f }
    }
}

impl<S, F, I> Observable for FlatMapIter<S, F>
where
    S: Observable,
    F: FnMut(S::Item) -> I,
    I: IntoIterator,
{
    type Item = I::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, F, I, O> Subscribe<O> for FlatMapIter<S, F>
where
    S: Subscribe<FlatMapIterObserver<O, F>>,
    F: FnMut(<S as Observable>::Item) -> I,
    I: IntoIterator,
    O: Observer<I::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(FlatMapIterObserver {
            observer,
            f: self.f,
        })
    }
}

/// The observer [`FlatMapIter`] subscribes upstream.
#[derive(Debug)]
pub struct FlatMapIterObserver<O, F> {
    observer: O,
    f: F,
}

impl<T, I, O, F> Observer<T> for FlatMapIterObserver<O, F>
where
    O: Observer<I::Item>,
    F: FnMut(T) -> I,
    I: IntoIterator,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        for item in (self.f)(value) {
            // Asked before each item, so an endless iterator stops once downstream is done.
            if self.observer.is_disposed() {
                return;
            }
            self.observer.on_next(item);
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
    use crate::source::{empty, from_iter, just, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn emits_every_item_of_every_iterator_in_order() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .flat_map_iter(|v| vec![v; v])
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(2),
            Notification::Next(3),
            Notification::Next(3),
            Notification::Next(3),
            Notification::Completed,
        ]);
    }

    #[test]
    fn empty_iterators_and_empty_source() {
        let o = TestObserver::<i32>::new();
        from_iter(1..=3)
            .flat_map_iter(|_| None)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::<i32>::new();
        empty::<i32>()
            .flat_map_iter(|v| [v, v])
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_mid_way_passes_through() {
        let o = TestObserver::new();
        from_iter([Ok(1), Ok(2), Err(Error::msg("cut"))])
            .try_map(|r| r)
            .flat_map_iter(|v| [v, v * 10])
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 10, 2, 20]);
        o.assert_error("cut");

        let o = TestObserver::<i32>::new();
        throw::<i32>(Error::msg("bad"))
            .flat_map_iter(|v| [v])
            .subscribe_observer(o.clone());
        o.assert_error("bad");
    }

    #[test]
    fn an_endless_iterator_stops_when_downstream_is_disposed() {
        let o = TestObserver::new();
        let probe = o.clone();
        just(())
            .flat_map_iter(|_| 0..)
            .map(|v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }

    #[test]
    fn endless_iterators_from_an_endless_source_stop_too() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .flat_map_iter(|v| (0..).map(move |w| (v, w)))
            .map(|pair| {
                probe.dispose();
                pair
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[(0, 0)]);
    }

    #[test]
    fn an_endless_iterator_then_take_terminates() {
        let o = TestObserver::new();
        just(())
            .flat_map_iter(|_| 0..)
            .take(3)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(0),
            Notification::Next(1),
            Notification::Next(2),
            Notification::Completed,
        ]);
    }
}
