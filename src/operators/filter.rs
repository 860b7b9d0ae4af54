//! [`ObservableExt::filter`](crate::ObservableExt::filter).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits the values a predicate accepts; built by
/// [`ObservableExt::filter`](crate::ObservableExt::filter).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "where")]
pub struct Filter<S, P> {
    source: S,
    predicate: P,
}

impl<S, P> Filter<S, P> {
    pub(crate) fn new(source: S, predicate: P) -> Self {
        Filter { source, predicate }
    }
}

// No bound on the predicate here: `filter` checks it where the closure is written, and a
// higher-ranked `FnMut(&T)` bound on this impl would be proved again by every query over a
// chain built on it (ARCHITECTURE.md, "Compile time").
impl<S: Observable, P> Observable for Filter<S, P> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

// The observer's bound before the source's (ARCHITECTURE.md, "Compile time").
impl<S, P, O> Subscribe<O> for Filter<S, P>
where
    O: Observer<<S as Observable>::Item>,
    S: Subscribe<FilterObserver<O, P>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(FilterObserver {
            observer,
            predicate: self.predicate,
        })
    }
}

/// The observer [`Filter`] subscribes upstream.
#[derive(Debug)]
pub struct FilterObserver<O, P> {
    observer: O,
    predicate: P,
}

impl<T, O, P> Observer<T> for FilterObserver<O, P>
where
    O: Observer<T>,
    P: FnMut(&T) -> bool,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        if (self.predicate)(&value) {
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
    use crate::Error;
    use crate::prelude::*;
    use crate::source::{from_iter, throw};
    use crate::testing::TestObserver;

    #[test]
    fn keeps_accepted_values_in_order() {
        let o = TestObserver::new();
        from_iter(1..=10)
            .filter(|v| v % 3 == 0)
            .subscribe_observer(o.clone());
        o.assert_values(&[3, 6, 9]);
        o.assert_completed();
    }

    #[test]
    fn nothing_accepted_still_completes() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .filter(|_| false)
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_completed();
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("e"))
            .filter(|_| true)
            .subscribe_observer(o.clone());
        o.assert_error("e");
    }
}
