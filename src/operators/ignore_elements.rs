//! [`ObservableExt::ignore_elements`](crate::ObservableExt::ignore_elements).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Drops every value and passes on the terminal notification; built by
/// [`ObservableExt::ignore_elements`](crate::ObservableExt::ignore_elements).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "ignoreElements")]
pub struct IgnoreElements<S> {
    source: S,
}

impl<S> IgnoreElements<S> {
    pub(crate) fn new(source: S) -> Self {
        IgnoreElements { source }
    }
}

impl<S: Observable> Observable for IgnoreElements<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for IgnoreElements<S>
where
    S: Subscribe<IgnoreElementsObserver<O>>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source
            .subscribe_observer(IgnoreElementsObserver { observer })
    }
}

/// The observer [`IgnoreElements`] subscribes upstream.
#[derive(Debug)]
pub struct IgnoreElementsObserver<O> {
    observer: O,
}

impl<T, O: Observer<T>> Observer<T> for IgnoreElementsObserver<O> {
    #[inline]
    fn on_next(&mut self, _value: T) {}

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
    fn passes_only_completion() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .ignore_elements()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::<i32>::new();
        empty().ignore_elements().subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .ignore_elements()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("bad"))]);

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("mid-way"));
        })
        .ignore_elements()
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("mid-way"))]);
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::<i32>::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .map(|v| {
                if v == 3 {
                    probe.dispose();
                }
                v
            })
            .ignore_elements()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert_eq!(emitted, 4);
    }
}
