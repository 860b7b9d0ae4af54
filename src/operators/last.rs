//! [`ObservableExt::last`](crate::ObservableExt::last).

use super::NoElements;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits the last value when the source completes, or fails on an empty source; built by
/// [`ObservableExt::last`](crate::ObservableExt::last).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "lastOrError")]
pub struct Last<S> {
    source: S,
}

impl<S> Last<S> {
    pub(crate) fn new(source: S) -> Self {
        Last { source }
    }
}

impl<S: Observable> Observable for Last<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for Last<S>
where
    S: Subscribe<LastObserver<O, <S as Observable>::Item>>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(LastObserver {
            observer,
            last: None,
        })
    }
}

/// The observer [`Last`] subscribes upstream.
#[derive(Debug)]
pub struct LastObserver<O, T> {
    observer: O,
    last: Option<T>,
}

impl<T, O: Observer<T>> Observer<T> for LastObserver<O, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.last = Some(value);
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        let mut observer = self.observer;
        match self.last {
            Some(value) => {
                observer.on_next(value);
                if !observer.is_disposed() {
                    observer.on_completed();
                }
            }
            None => observer.on_error(Error::new(NoElements)),
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(test)]
mod tests {
    use super::NoElements;
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, just, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn emits_the_last_value_on_completion() {
        let o = TestObserver::new();
        from_iter([7, 8, 9]).last().subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(9), Notification::Completed]);

        let o = TestObserver::new();
        just(1).last().subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(1), Notification::Completed]);
    }

    #[test]
    fn empty_source_fails_with_no_elements() {
        let o = TestObserver::<i32>::new();
        empty().last().subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_error(&NoElements.to_string());
        assert!(o.error().unwrap().is::<NoElements>());
    }

    #[test]
    fn error_mid_way_drops_the_value_seen() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .last()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("bad"))]);

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_next(2);
            e.on_error(Error::msg("mid-way"));
        })
        .last()
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("mid-way"))]);
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                if v == 3 {
                    probe.dispose();
                }
                v
            })
            .last()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert_eq!(emitted, 4);
    }

    #[test]
    fn downstream_disposed_by_the_value_is_not_completed() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..3)
            .last()
            .map(|v| {
                probe.dispose();
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[2]);
        o.assert_not_terminated();
    }
}
