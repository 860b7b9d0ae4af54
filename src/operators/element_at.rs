//! [`ObservableExt::element_at`](crate::ObservableExt::element_at), and [`IndexOutOfRange`],
//! its error when the source is too short.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::fmt;

/// The error [`element_at`](crate::ObservableExt::element_at) terminates with when the source
/// completes before emitting the value at the index asked for (RPP's `out_of_range`, Rx.NET's
/// `ArgumentOutOfRangeException`, RxJS's `ArgumentOutOfRangeError`).
///
/// # Examples
///
/// ```
/// use rx::operators::IndexOutOfRange;
/// use rx::prelude::*;
///
/// let mut error = None;
/// rx::source::from_iter([1, 2]).element_at(5).subscribe_with(|_| {}, |e| error = Some(e), || {});
/// let error = error.unwrap();
/// let out_of_range = error.downcast_ref::<IndexOutOfRange>().unwrap();
/// assert_eq!((out_of_range.index(), out_of_range.emitted()), (5, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[doc(alias = "ArgumentOutOfRangeError")]
pub struct IndexOutOfRange {
    index: usize,
    emitted: usize,
}

impl IndexOutOfRange {
    /// The index that was asked for.
    pub fn index(&self) -> usize {
        self.index
    }

    /// How many values the source emitted before it completed; less than or equal to
    /// [`index`](IndexOutOfRange::index).
    pub fn emitted(&self) -> usize {
        self.emitted
    }
}

impl fmt::Display for IndexOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "index out of range: the sequence's length is {} but the index is {}",
            self.emitted, self.index
        )
    }
}

impl std::error::Error for IndexOutOfRange {}

/// Emits the value at an index and completes, or fails when the source is too short; built by
/// [`ObservableExt::element_at`](crate::ObservableExt::element_at).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "elementAt")]
#[doc(alias = "elementAtOrError")]
pub struct ElementAt<S> {
    source: S,
    index: usize,
}

impl<S> ElementAt<S> {
    pub(crate) fn new(source: S, index: usize) -> Self {
        ElementAt { source, index }
    }
}

impl<S: Observable> Observable for ElementAt<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for ElementAt<S>
where
    S: Subscribe<ElementAtObserver<O>>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(ElementAtObserver {
            observer: Some(observer),
            index: self.index,
            seen: 0,
        })
    }
}

/// The observer [`ElementAt`] subscribes upstream.
#[derive(Debug)]
pub struct ElementAtObserver<O> {
    /// `None` once the value at `index` has been delivered.
    observer: Option<O>,
    index: usize,
    /// How many values came before the one wanted so far.
    seen: usize,
}

impl<T, O: Observer<T>> Observer<T> for ElementAtObserver<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        if self.seen < self.index {
            self.seen += 1;
        } else if let Some(mut observer) = self.observer.take() {
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
            observer.on_error(Error::new(IndexOutOfRange {
                index: self.index,
                emitted: self.seen,
            }))
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.as_ref().is_none_or(O::is_disposed)
    }
}

#[cfg(test)]
mod tests {
    use super::IndexOutOfRange;
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn emits_the_value_at_the_index_and_completes() {
        let o = TestObserver::new();
        from_iter(10..20)
            .element_at(3)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(13), Notification::Completed]);

        let o = TestObserver::new();
        from_iter(10..20)
            .element_at(0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(10), Notification::Completed]);

        let o = TestObserver::new();
        from_iter(10..20)
            .element_at(9)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(19), Notification::Completed]);
    }

    #[test]
    fn too_short_a_source_fails_with_index_out_of_range() {
        let o = TestObserver::new();
        from_iter(10..13)
            .element_at(3)
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        let expected = IndexOutOfRange {
            index: 3,
            emitted: 3,
        };
        o.assert_error(&expected.to_string());
        assert_eq!(
            o.error().unwrap().downcast_ref::<IndexOutOfRange>(),
            Some(&expected)
        );

        let o = TestObserver::<i32>::new();
        empty().element_at(0).subscribe_observer(o.clone());
        let error = o.error().unwrap();
        let out_of_range = error.downcast_ref::<IndexOutOfRange>().unwrap();
        assert_eq!((out_of_range.index(), out_of_range.emitted()), (0, 0));
    }

    #[test]
    fn an_endless_source_stops_at_the_index() {
        let mut emitted = 0;
        let o = TestObserver::new();
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .element_at(4)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(4), Notification::Completed]);
        assert_eq!(emitted, 5);
    }

    #[test]
    fn error_passes_through_before_the_index() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .element_at(0)
            .subscribe_observer(o.clone());
        o.assert_error("bad");

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("mid-way"));
        })
        .element_at(2)
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("mid-way"))]);
    }

    #[test]
    fn nothing_passes_after_the_value() {
        let o = TestObserver::new();
        let mut element_at = super::ElementAtObserver {
            observer: Some(o.clone()),
            index: 0,
            seen: 0,
        };
        element_at.on_next(1);
        assert!(Observer::<i32>::is_disposed(&element_at));
        element_at.on_next(2);
        element_at.on_error(Error::msg("late"));
        o.assert_notifications(&[Notification::Next(1), Notification::Completed]);
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .element_at(1000)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert_eq!(emitted, 3);
    }
}
