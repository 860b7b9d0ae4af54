//! [`ObservableExt::any`](crate::ObservableExt::any).

use super::all::QuantifierObserver;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits whether any value satisfies a predicate; built by
/// [`ObservableExt::any`](crate::ObservableExt::any).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "some")]
#[doc(alias = "exists")]
pub struct Any<S, P> {
    source: S,
    predicate: P,
}

impl<S, P> Any<S, P> {
    pub(crate) fn new(source: S, predicate: P) -> Self {
        Any { source, predicate }
    }
}

// Bounds only what fixes its item (ARCHITECTURE.md, "Compile time").
impl<S: Observable, P> Observable for Any<S, P> {
    type Item = bool;
    type Flavour = <S as Observable>::Flavour;
}

// The closure's bound left to the observer's impl, the observer's bound before the source's
// (ARCHITECTURE.md, "Compile time").
impl<S, P, O> Subscribe<O> for Any<S, P>
where
    O: Observer<bool>,
    S: Subscribe<AnyObserver<O, P>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source
            .subscribe_observer(AnyObserver::new(observer, self.predicate))
    }
}

/// The observer [`Any`] subscribes upstream.
pub type AnyObserver<O, P> = QuantifierObserver<O, P, true>;

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::Notification as N;
    use crate::prelude::*;
    use crate::source::{empty, from_iter};
    use crate::testing::TestObserver;

    #[test]
    fn false_when_no_value_passes() {
        let o = TestObserver::new();
        from_iter([1, 3, 5])
            .any(|v| v % 2 == 0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(false), N::Completed]);
    }

    #[test]
    fn true_at_the_first_match_and_upstream_stops() {
        let o = TestObserver::new();
        let mut tested = Vec::new();
        from_iter(0..)
            .any(|v| {
                tested.push(v);
                v > 5
            })
            .subscribe_observer(o.clone());
        assert_eq!(tested, [0, 1, 2, 3, 4, 5, 6]);
        o.assert_notifications(&[N::Next(true), N::Completed]);
    }

    #[test]
    fn empty_source_is_false() {
        let o = TestObserver::new();
        empty::<i32>().any(|_| true).subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(false), N::Completed]);
    }

    #[test]
    fn error_before_the_answer_passes_through() {
        let o = TestObserver::new();
        from_iter([N::Next(1), N::Error(Error::msg("bad"))])
            .dematerialize()
            .any(|v| v < 0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Error(Error::msg("bad"))]);
    }

    #[test]
    fn error_after_the_answer_is_ignored() {
        let o = TestObserver::new();
        let mut observer = super::AnyObserver::new(o.clone(), |v: i32| v < 0);
        observer.on_next(-1);
        assert!(observer.is_disposed());
        observer.on_next(-2);
        observer.on_error(Error::msg("late"));
        o.assert_notifications(&[N::Next(true), N::Completed]);
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut tested = 0;
        from_iter(0..)
            .any(|_| {
                tested += 1;
                if tested == 3 {
                    probe.dispose();
                }
                false
            })
            .subscribe_observer(o.clone());
        assert_eq!(tested, 3);
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
