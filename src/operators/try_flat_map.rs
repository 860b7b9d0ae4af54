//! [`ObservableExt::try_flat_map`](crate::ObservableExt::try_flat_map): the flattening
//! engine with a projection that may fail; an `Err` is an inner observable that fails at
//! once, so it ends the sequence as an inner error does.

use crate::Error;
use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::engine::projection::{Eager, Project, Projector};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::fmt;
use std::marker::PhantomData;

/// Maps each value to an observable with a fallible closure and merges their values;
/// built by [`ObservableExt::try_flat_map`](crate::ObservableExt::try_flat_map).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "try_merge_map")]
pub struct TryFlatMap<'a, S, F> {
    source: S,
    f: F,
    _handles: PhantomData<&'a ()>,
}

impl<S, F> TryFlatMap<'_, S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        TryFlatMap {
            source,
            f,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for TryFlatMap<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TryFlatMap")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

forward_to_flat_map!(
    TryFlatMap<'a, S, F>,
    f = TryProjection<F>,
    |this| FlatMap::with_mode(this.source, TryProjection(this.f), Mode::MERGE)
);

/// The projection of a [`TryFlatMap`]: the closure's `Ok`, or an inner observable that
/// fails with its `Err`.
pub struct TryProjection<F>(F);

impl<V, F, U, E> Project<V> for TryProjection<F>
where
    F: FnMut(V) -> Result<U, E>,
    E: Into<Error>,
{
    type Inner = TryInner<U>;

    #[inline]
    fn project(&mut self, value: V) -> TryInner<U> {
        TryInner((self.0)(value).map_err(Into::into))
    }
}

// Every `Project` is eager; a blanket impl over them would overlap concat_map's projection,
// so each one that is not a closure implements `Projector` itself.
impl<V, F> Projector<V> for TryProjection<F>
where
    TryProjection<F>: Project<V>,
{
    type Inner = <Self as Project<V>>::Inner;
    type Lent = Eager<Self::Inner>;

    #[inline]
    fn lend(&mut self) -> Eager<Self::Inner> {
        Eager(PhantomData)
    }

    #[inline]
    fn project(&mut self, value: V) -> Self::Inner {
        Project::project(self, value)
    }
}

impl<F> fmt::Debug for TryProjection<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TryProjection")
    }
}

/// The inner observable of a [`TryFlatMap`]: the one the closure returned, or its error.
#[derive(Debug)]
pub struct TryInner<U>(Result<U, Error>);

impl<U: Observable> Observable for TryInner<U> {
    type Item = U::Item;
    type Flavour = U::Flavour;
}

impl<U, O> Subscribe<O> for TryInner<U>
where
    U: Subscribe<O>,
    O: Observer<<U as Observable>::Item>,
{
    type Subscription = Option<U::Subscription>;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        match self.0 {
            Ok(inner) => Some(inner.subscribe_observer(observer)),
            Err(error) => {
                if !observer.is_disposed() {
                    observer.on_error(error);
                }
                None
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::source::{from_iter, just};
    use crate::subjects::PublishSubject;
    use crate::testing::TestObserver;
    use crate::{Error, Notification::*};

    #[test]
    fn merges_the_ok_inners_and_fails_on_the_first_err() {
        let o = TestObserver::new();
        let mut calls = 0;
        from_iter(1..100)
            .try_flat_map(|v| {
                calls += 1;
                if v == 3 {
                    Err(Error::msg("three"))
                } else {
                    Ok(from_iter([v, v * 10]))
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Next(1),
            Next(10),
            Next(2),
            Next(20),
            Error(Error::msg("three")),
        ]);
        assert_eq!(calls, 3, "the source stops at the error");
    }

    #[test]
    fn completes_when_every_call_is_ok() {
        let o = TestObserver::new();
        from_iter(["1", "2"])
            .try_flat_map(|s| s.parse::<i32>().map(just))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
    }

    #[test]
    fn the_err_disposes_a_running_inner() {
        let inner = PublishSubject::new();
        let outer = PublishSubject::new();
        let o = TestObserver::new();
        let source = inner.clone();
        outer
            .observable()
            .try_flat_map(move |v: i32| {
                if v == 0 {
                    Ok(source.observable())
                } else {
                    Err(Error::msg("bad"))
                }
            })
            .subscribe_observer(o.clone());
        outer.on_next(0);
        inner.on_next(5);
        assert!(inner.has_observers());
        outer.on_next(1);
        o.assert_notifications(&[Next(5), Error(Error::msg("bad"))]);
        assert!(!inner.has_observers());
        assert!(!outer.has_observers());
        inner.on_next(6);
        o.assert_notifications(&[Next(5), Error(Error::msg("bad"))]);
    }

    #[test]
    fn a_disposed_downstream_calls_nothing() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        let mut calls = 0;
        from_iter(0..3)
            .try_flat_map(|v| {
                calls += 1;
                Ok::<_, Error>(just(v))
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert_eq!(calls, 0);
    }
}
