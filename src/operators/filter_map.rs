//! [`ObservableExt::filter_map`](crate::ObservableExt::filter_map).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Maps each value through a closure and emits the `Some` results; built by
/// [`ObservableExt::filter_map`](crate::ObservableExt::filter_map).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct FilterMap<S, F> {
    source: S,
    f: F,
}

impl<S, F> FilterMap<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        FilterMap { source, f }
    }
}

impl<S, F, U> Observable for FilterMap<S, F>
where
    S: Observable,
    F: FnMut(S::Item) -> Option<U>,
{
    type Item = U;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

// Bounded by `Self: Observable` rather than by the closure again, the observer's bound
// before the source's (ARCHITECTURE.md, "Compile time").
impl<S, F, O> Subscribe<O> for FilterMap<S, F>
where
    Self: Observable,
    O: Observer<<Self as Observable>::Item>,
    S: Subscribe<FilterMapObserver<O, F>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(FilterMapObserver {
            observer,
            f: self.f,
        })
    }
}

/// The observer [`FilterMap`] subscribes upstream.
#[derive(Debug)]
pub struct FilterMapObserver<O, F> {
    observer: O,
    f: F,
}

// The closure's bound first: it fixes `U` (ARCHITECTURE.md, "Compile time").
impl<T, U, O, F> Observer<T> for FilterMapObserver<O, F>
where
    F: FnMut(T) -> Option<U>,
    O: Observer<U>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        if let Some(mapped) = (self.f)(value) {
            self.observer.on_next(mapped)
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
    use crate::source::{empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn emits_the_some_results_in_order() {
        let o = TestObserver::new();
        from_iter(["1", "x", "3", ""])
            .filter_map(|s| s.parse::<i32>().ok())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(3),
            Notification::Completed,
        ]);
    }

    #[test]
    fn all_none_or_empty_still_completes() {
        let o = TestObserver::<i32>::new();
        from_iter(1..=3)
            .filter_map(|_| None::<i32>)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::<i32>::new();
        empty::<i32>()
            .filter_map(Some)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::<i32>::new();
        throw::<i32>(Error::msg("bad"))
            .filter_map(Some)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("bad"))]);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .filter_map(|v| {
                if v == 5 {
                    probe.dispose();
                }
                (v % 2 == 1).then_some(v)
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 3, 5]);
        o.assert_not_terminated();
    }
}
