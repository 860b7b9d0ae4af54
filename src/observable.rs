//! The [`Observable`] and [`Subscribe`] traits, and [`ObservableExt`], which lists every
//! operator.
//!
//! An observable is a plain value describing a pipeline, like an iterator adapter: building it
//! does nothing, subscribing runs it. Each operator is a small struct generic over its source
//! and its closure, and subscribing is monomorphised for each observer type, so a synchronous
//! chain compiles to one function the optimiser sees through.
//!
//! Subscribing consumes the observable, as `IntoIterator` consumes a collection; sources and
//! operators are `Clone` when their parts are, so clone one to subscribe to it twice.

use crate::observer::{FnObserver, NextObserver};
use crate::operators::*;
use crate::subscription::Subscription;
use crate::Error;

/// A push-based sequence of `Item`s.
///
/// This trait only names the item type. Subscribing is [`Subscribe`], which takes the observer
/// type as a parameter, so an operator that hands its observer to another thread can require
/// `O: Send + 'static` in its own impl while synchronous chains require nothing.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an observable",
    label = "not an observable",
    note = "sources live in `rx::source` (`just`, `from_iter`, `create`, ...); operators are methods of `rx::ObservableExt`"
)]
pub trait Observable {
    /// The type of the values this observable emits.
    type Item;
}

/// Subscribing an observable with an observer of type `O`.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::from_iter([1, 2]).subscribe_observer(observer.clone());
/// observer.assert_values(&[1, 2]);
/// observer.assert_completed();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be subscribed with an observer of type `{O}`",
    label = "cannot deliver to `{O}`",
    note = "check that the observer accepts this observable's `Item`, and that it is `Send + 'static` where the chain crosses threads or time"
)]
pub trait Subscribe<O>: Observable {
    /// The handle returned by [`subscribe_observer`](Subscribe::subscribe_observer).
    type Subscription: Subscription;

    /// Subscribes `observer`, running the pipeline. A synchronous chain runs to its end before
    /// this returns.
    fn subscribe_observer(self, observer: O) -> Self::Subscription;
}

/// The operators and the closure forms of `subscribe`, for every [`Observable`].
///
/// Each method builds a small struct and does nothing else; the work happens on subscribe.
pub trait ObservableExt: Observable + Sized {
    // ---------------------------------------------------------------- subscribing

    /// Subscribes with a closure called for each value.
    ///
    /// Completion is ignored. An error has nowhere to go, so it panics with the error's
    /// message, as RxJava's `OnErrorNotImplemented` and RPP's rethrow do: an error never
    /// vanishes silently. Use [`subscribe_with`](ObservableExt::subscribe_with) to handle it.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    ///
    /// let mut sum = 0;
    /// rx::source::from_iter(1..=4).subscribe(|v| sum += v);
    /// assert_eq!(sum, 10);
    /// ```
    ///
    /// # Panics
    ///
    /// When the observable terminates with an error.
    fn subscribe<N>(self, next: N) -> <Self as Subscribe<NextObserver<N>>>::Subscription
    where
        N: FnMut(Self::Item),
        Self: Subscribe<NextObserver<N>>,
    {
        self.subscribe_observer(NextObserver::new(next))
    }

    /// Subscribes with one closure for each kind of notification.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    ///
    /// let mut log = Vec::new();
    /// let mut error = None;
    /// rx::source::throw::<i32>(rx::Error::msg("boom"))
    ///     .subscribe_with(|v| log.push(v), |e| error = Some(e), || unreachable!());
    /// assert!(log.is_empty());
    /// assert_eq!(error.unwrap().to_string(), "boom");
    /// ```
    fn subscribe_with<N, E, C>(
        self,
        next: N,
        error: E,
        completed: C,
    ) -> <Self as Subscribe<FnObserver<N, E, C>>>::Subscription
    where
        N: FnMut(Self::Item),
        E: FnOnce(Error),
        C: FnOnce(),
        Self: Subscribe<FnObserver<N, E, C>>,
    {
        self.subscribe_observer(FnObserver::new(next, error, completed))
    }

    /// Erases the observable's type behind a `Box`, so observables of different types can be
    /// stored together or returned from one function. The observable must be `Send`; see
    /// [`boxed_local`](ObservableExt::boxed_local) for one that is not.
    ///
    /// The lifetime `'a` bounds both what the observable borrows and the observers it accepts:
    /// leave it generic, as below, so a caller can subscribe a closure that borrows locals.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::BoxedObservable;
    ///
    /// fn numbers<'a>(doubled: bool) -> BoxedObservable<'a, i32> {
    ///     let source = rx::source::from_iter(1..=3);
    ///     if doubled { source.map(|v| v * 2).boxed() } else { source.boxed() }
    /// }
    ///
    /// let mut seen = Vec::new();
    /// numbers(true).subscribe(|v| seen.push(v));
    /// assert_eq!(seen, [2, 4, 6]);
    /// ```
    ///
    /// # Performance
    ///
    /// One allocation for the observable and one for the observer on each subscribe, and a
    /// virtual call per notification: use it where the type must be erased, not by default.
    fn boxed<'a>(self) -> BoxedObservable<'a, Self::Item>
    where
        Self: Send + 'a + Subscribe<BoxedObserver<'a, <Self as Observable>::Item>>,
        <Self as Subscribe<BoxedObserver<'a, <Self as Observable>::Item>>>::Subscription: Send + 'a,
    {
        BoxedObservable::new(self)
    }

    /// Like [`boxed`](ObservableExt::boxed), for observables that are not `Send`.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use std::rc::Rc;
    ///
    /// let shared = Rc::new(5);
    /// let observable = rx::source::just(1).map(move |v| v + *shared).boxed_local();
    /// let mut seen = 0;
    /// observable.subscribe(|v| seen = v);
    /// assert_eq!(seen, 6);
    /// ```
    fn boxed_local<'a>(self) -> LocalBoxedObservable<'a, Self::Item>
    where
        Self: 'a + Subscribe<LocalBoxedObserver<'a, <Self as Observable>::Item>>,
        <Self as Subscribe<LocalBoxedObserver<'a, <Self as Observable>::Item>>>::Subscription: 'a,
    {
        LocalBoxedObservable::new(self)
    }

    // ---------------------------------------------------------------- transforming

    /// Applies `f` to each value.
    ///
    /// ```text
    /// source:  -1-2-3-|
    /// map(*2): -2-4-6-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2, 3]).map(|v| v * 2).subscribe_observer(observer.clone());
    /// observer.assert_values(&[2, 4, 6]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Stateless: no allocation, no lock; the closure is inlined into the source's loop.
    fn map<U, F>(self, f: F) -> Map<Self, F>
    where
        F: FnMut(Self::Item) -> U,
    {
        Map::new(self, f)
    }

    // ---------------------------------------------------------------- filtering

    /// Emits only the values for which `predicate` returns `true`.
    ///
    /// ```text
    /// source:        -1-2-3-4-|
    /// filter(even):  ---2---4-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..=4).filter(|v| v % 2 == 0).subscribe_observer(observer.clone());
    /// observer.assert_values(&[2, 4]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Stateless: no allocation, no lock.
    fn filter<P>(self, predicate: P) -> Filter<Self, P>
    where
        P: FnMut(&Self::Item) -> bool,
    {
        Filter::new(self, predicate)
    }

    // ---------------------------------------------------------------- aggregating

    // ---------------------------------------------------------------- combining

    // ---------------------------------------------------------------- utility

    // ---------------------------------------------------------------- error handling

    // ---------------------------------------------------------------- time and schedulers
}

impl<S: Observable> ObservableExt for S {}
