//! [`ObservableExt::first`](crate::ObservableExt::first), and [`NoElements`], the error of
//! `first` and `last` on an empty sequence.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::fmt;

/// The error [`first`](crate::ObservableExt::first) and [`last`](crate::ObservableExt::last)
/// terminate with when the source completes without emitting a value (RxJava's
/// `NoSuchElementException`, Rx.NET's "Sequence contains no elements", RxJS's `EmptyError`).
///
/// # Examples
///
/// ```
/// use rx::operators::NoElements;
/// use rx::prelude::*;
///
/// let mut error = None;
/// rx::source::empty::<i32>().first().subscribe_with(|_| {}, |e| error = Some(e), || {});
/// assert!(error.unwrap().is::<NoElements>());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[doc(alias = "EmptyError")]
#[doc(alias = "NoSuchElementException")]
pub struct NoElements;

impl fmt::Display for NoElements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the sequence completed without emitting a value")
    }
}

impl std::error::Error for NoElements {}

/// Emits the first value and completes, or fails on an empty source; built by
/// [`ObservableExt::first`](crate::ObservableExt::first).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "firstOrError")]
pub struct First<S> {
    source: S,
}

impl<S> First<S> {
    pub(crate) fn new(source: S) -> Self {
        First { source }
    }
}

impl<S: Observable> Observable for First<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for First<S>
where
    S: Subscribe<FirstObserver<O>>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(FirstObserver {
            observer: Some(observer),
        })
    }
}

/// The observer [`First`] subscribes upstream.
#[derive(Debug)]
pub struct FirstObserver<O> {
    /// `None` once the first value has been delivered.
    observer: Option<O>,
}

impl<T, O: Observer<T>> Observer<T> for FirstObserver<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        if let Some(mut observer) = self.observer.take() {
            observer.on_next(value);
            if !observer.is_disposed() {
                observer.on_completed();
            }
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        if let Some(observer) = self.observer {
            observer.on_error(error)
        }
    }

    #[cold]
    fn on_completed(self) {
        if let Some(observer) = self.observer {
            observer.on_error(Error::new(NoElements))
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.as_ref().is_none_or(O::is_disposed)
    }
}

#[cfg(test)]
mod tests {
    use super::NoElements;
    use crate::prelude::*;
    use crate::source::{empty, from_iter, just, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn emits_the_first_value_and_completes() {
        let o = TestObserver::new();
        from_iter([7, 8, 9]).first().subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(7), Notification::Completed]);

        let o = TestObserver::new();
        just(1).first().subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(1), Notification::Completed]);
    }

    #[test]
    fn empty_source_fails_with_no_elements() {
        let o = TestObserver::<i32>::new();
        empty().first().subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_error(&NoElements.to_string());
        assert!(o.error().unwrap().is::<NoElements>());
    }

    #[test]
    fn an_endless_source_stops_after_the_first_value() {
        let mut emitted = 0;
        let o = TestObserver::new();
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .first()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(0), Notification::Completed]);
        assert_eq!(emitted, 1);
    }

    #[test]
    fn error_passes_through_only_before_the_first_value() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .first()
            .subscribe_observer(o.clone());
        o.assert_error("bad");

        let o = TestObserver::new();
        let mut first = super::FirstObserver {
            observer: Some(o.clone()),
        };
        first.on_next(1);
        assert!(Observer::<i32>::is_disposed(&first));
        first.on_next(2);
        first.on_error(Error::msg("late"));
        o.assert_notifications(&[Notification::Next(1), Notification::Completed]);
    }

    #[test]
    fn disposed_downstream_gets_nothing() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        from_iter(0..).first().subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }

    #[test]
    fn downstream_disposed_by_the_value_is_not_completed() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .first()
            .map(|v| {
                probe.dispose();
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0]);
        o.assert_not_terminated();
    }
}
