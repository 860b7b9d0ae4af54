//! [`ObservableExt::single`](crate::ObservableExt::single), and [`TooManyElements`], its
//! error when the source emits a second value.

use super::first::NoElements;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::fmt;

/// The error [`single`](crate::ObservableExt::single) terminates with when the source emits
/// a second value (RxJava's `IllegalArgumentException` "Sequence contains more than one
/// element", RxJS's `SequenceError`).
///
/// # Examples
///
/// ```
/// use rx::operators::TooManyElements;
/// use rx::prelude::*;
///
/// let mut error = None;
/// rx::source::from_iter([1, 2]).single().subscribe_with(|_| {}, |e| error = Some(e), || {});
/// assert!(error.unwrap().is::<TooManyElements>());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[doc(alias = "SequenceError")]
pub struct TooManyElements;

impl fmt::Display for TooManyElements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the sequence emitted more than one value")
    }
}

impl std::error::Error for TooManyElements {}

/// Emits the only value of the source; built by
/// [`ObservableExt::single`](crate::ObservableExt::single).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "singleOrError")]
pub struct Single<S> {
    source: S,
}

impl<S> Single<S> {
    pub(crate) fn new(source: S) -> Self {
        Single { source }
    }
}

impl<S: Observable> Observable for Single<S> {
    type Item = S::Item;
    type Flavour = S::Flavour;
}

impl<S, O> Subscribe<O> for Single<S>
where
    S: Subscribe<SingleObserver<O, <S as Observable>::Item>>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(SingleObserver {
            observer: Some(observer),
            value: None,
        })
    }
}

/// The observer [`Single`] subscribes upstream.
#[derive(Debug)]
pub struct SingleObserver<O, T> {
    /// `None` once a second value has failed the downstream.
    observer: Option<O>,
    value: Option<T>,
}

impl<T, O: Observer<T>> Observer<T> for SingleObserver<O, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        if self.observer.is_none() {
            return;
        }
        if self.value.is_none() {
            self.value = Some(value);
            return;
        }
        // A second value: fail at once, and `is_disposed` stops the source.
        self.value = None;
        if let Some(observer) = self.observer.take() {
            observer.on_error(Error::new(TooManyElements));
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        if let Some(observer) = self.observer {
            observer.on_error(error)
        }
    }

    #[inline]
    fn on_completed(self) {
        let Some(mut observer) = self.observer else {
            return;
        };
        match self.value {
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
        self.observer.as_ref().is_none_or(O::is_disposed)
    }
}

#[cfg(test)]
mod tests {
    use super::TooManyElements;
    use crate::operators::NoElements;
    use crate::prelude::*;
    use crate::source::{empty, from_iter, just, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification::*};

    #[test]
    fn the_only_value_at_completion() {
        let o = TestObserver::new();
        let handle = just(7).single().subscribe_observer(o.clone());
        o.assert_notifications(&[Next(7), Completed]);
        assert_eq!(std::mem::size_of_val(&handle), 0);
    }

    #[test]
    fn empty_and_error() {
        let o = TestObserver::<i32>::new();
        empty().single().subscribe_observer(o.clone());
        assert!(o.error().unwrap().is::<NoElements>());

        let o = TestObserver::<i32>::new();
        throw(Error::msg("boom"))
            .single()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("boom"))]);
    }

    #[test]
    fn a_second_value_fails_at_once_and_stops_the_source() {
        let o = TestObserver::new();
        let mut pulled = 0;
        from_iter((0..).inspect(|_| pulled += 1))
            .single()
            .subscribe_observer(o.clone());
        assert_eq!(o.value_count(), 0);
        assert!(o.error().unwrap().is::<TooManyElements>());
        assert_eq!(pulled, 2);
    }

    #[test]
    fn nothing_after_the_error_even_from_a_careless_source() {
        let o = TestObserver::new();
        let mut observer = super::SingleObserver {
            observer: Some(o.clone()),
            value: None,
        };
        observer.on_next(1);
        assert!(!Observer::<i32>::is_disposed(&observer));
        observer.on_next(2);
        assert!(Observer::<i32>::is_disposed(&observer));
        observer.on_next(3);
        observer.on_completed();
        assert_eq!(o.notifications().len(), 1);
        assert!(o.error().unwrap().is::<TooManyElements>());
        assert_eq!(
            TooManyElements.to_string(),
            "the sequence emitted more than one value"
        );
    }

    #[test]
    fn disposed_downstream_gets_nothing() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        just(1).single().subscribe_observer(o.clone());
        o.assert_notifications(&[]);

        let o = TestObserver::new();
        let probe = o.clone();
        just(1)
            .single()
            .tap(move |_| probe.dispose())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1)]);
    }
}
