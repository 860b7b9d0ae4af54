//! [`ObservableExt::skip_while`](crate::ObservableExt::skip_while).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::fmt;

/// Drops values while a predicate holds, then emits the rest; built by
/// [`ObservableExt::skip_while`](crate::ObservableExt::skip_while).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "skipWhile")]
pub struct SkipWhile<S, P> {
    source: S,
    predicate: P,
}

impl<S, P> SkipWhile<S, P> {
    pub(crate) fn new(source: S, predicate: P) -> Self {
        SkipWhile { source, predicate }
    }
}

impl<S: fmt::Debug, P> fmt::Debug for SkipWhile<S, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkipWhile")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

// Bounds only what fixes its item (ARCHITECTURE.md, "Compile time").
impl<S: Observable, P> Observable for SkipWhile<S, P> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

// The closure's bound left to the observer's impl, the observer's bound before the source's
// (ARCHITECTURE.md, "Compile time").
impl<S, P, O> Subscribe<O> for SkipWhile<S, P>
where
    O: Observer<<S as Observable>::Item>,
    S: Subscribe<SkipWhileObserver<O, P>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(SkipWhileObserver {
            observer,
            predicate: self.predicate,
            skipping: true,
        })
    }
}

/// The observer [`SkipWhile`] subscribes upstream.
pub struct SkipWhileObserver<O, P> {
    observer: O,
    predicate: P,
    /// True until the predicate first fails; it is not asked again after that.
    skipping: bool,
}

impl<O: fmt::Debug, P> fmt::Debug for SkipWhileObserver<O, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkipWhileObserver")
            .field("observer", &self.observer)
            .field("skipping", &self.skipping)
            .finish_non_exhaustive()
    }
}

impl<T, O, P> Observer<T> for SkipWhileObserver<O, P>
where
    O: Observer<T>,
    P: FnMut(&T) -> bool,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        if self.skipping {
            if (self.predicate)(&value) {
                return;
            }
            self.skipping = false;
        }
        self.observer.on_next(value);
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
    use crate::source::{create, empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn emits_from_the_first_rejected_value_on() {
        let mut tested = 0;
        let o = TestObserver::new();
        from_iter([1, 2, 5, 1, 2])
            .skip_while(|v| {
                tested += 1;
                *v < 3
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(5),
            Notification::Next(1),
            Notification::Next(2),
            Notification::Completed,
        ]);
        assert_eq!(tested, 3);
    }

    #[test]
    fn all_or_none_accepted() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .skip_while(|_| true)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::new();
        from_iter(1..=3)
            .skip_while(|_| false)
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();

        let o = TestObserver::<i32>::new();
        empty().skip_while(|_| true).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .skip_while(|_| true)
            .subscribe_observer(o.clone());
        o.assert_error("bad");

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_next(4);
            e.on_error(Error::msg("mid-way"));
        })
        .skip_while(|v| *v < 3)
        .subscribe_observer(o.clone());
        o.assert_values(&[4]);
        o.assert_error("mid-way");
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .skip_while(|v| *v < 2)
            .map(|v| {
                if v == 3 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[2, 3]);
        o.assert_not_terminated();
        assert_eq!(emitted, 4);
    }
}
