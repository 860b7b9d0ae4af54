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
use crate::Notification;

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

    /// Applies a fallible closure to each value: `Ok` values are emitted, the first `Err`
    /// terminates the sequence with that error and stops the source.
    ///
    /// This is how fallible user code enters a pipeline; the error may be any type that
    /// converts into [`Error`] (every `std::error::Error + Send + Sync + 'static` does).
    ///
    /// ```text
    /// source:            -"1"-"2"-"x"-"4"-|
    /// try_map(parse):    --1---2---#
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["1", "2", "x", "4"])
    ///     .try_map(|s| s.parse::<i32>())
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2]);
    /// observer.assert_error("invalid digit found in string");
    /// ```
    ///
    /// # Errors
    ///
    /// Terminates with the first `Err` the closure returns, converted with `Into<Error>`.
    ///
    /// # Performance
    ///
    /// No allocation, no lock (converting the error allocates, once).
    fn try_map<U, E, F>(self, f: F) -> TryMap<Self, F>
    where
        F: FnMut(Self::Item) -> Result<U, E>,
        E: Into<Error>,
    {
        TryMap::new(self, f)
    }

    /// Applies `f` to each value and emits the results that are `Some`, as
    /// [`Iterator::filter_map`] does.
    ///
    /// ```text
    /// source:                 -"1"-"x"-"3"-|
    /// filter_map(parse.ok):   --1-------3--|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["1", "x", "3"])
    ///     .filter_map(|s| s.parse::<i32>().ok())
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Stateless: no allocation, no lock.
    fn filter_map<U, F>(self, f: F) -> FilterMap<Self, F>
    where
        F: FnMut(Self::Item) -> Option<U>,
    {
        FilterMap::new(self, f)
    }

    /// Folds the values with `f`, starting from `seed`, and emits each accumulation.
    ///
    /// The seed itself is not emitted, as in Rx.NET's `Scan` and RxJS's `scan`; RxJava's
    /// `scan(initialValue, accumulator)` and RPP's `scan(seed, ...)` emit the seed first. For
    /// that behaviour, prepend it with `start_with(seed)`. An empty source emits nothing and
    /// completes.
    ///
    /// `f` takes the accumulator by value and returns the next one, as
    /// [`Iterator::fold`] does, so an accumulator that owns memory (a `Vec`, a `String`) is
    /// updated in place.
    ///
    /// ```text
    /// source:       -1-2-3-4-|
    /// scan(0, +):   -1-3-6-10-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..=4)
    ///     .scan(0, |sum, v| sum + v)
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 3, 6, 10]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// No allocation, no lock. Each value costs one `A::clone`: downstream receives one copy
    /// of the accumulation, the fold keeps the other.
    #[doc(alias = "aggregate")]
    fn scan<A, F>(self, seed: A, f: F) -> Scan<Self, A, F>
    where
        F: FnMut(A, Self::Item) -> A,
        A: Clone,
    {
        Scan::new(self, seed, f)
    }

    /// Collects the values into `Vec`s of `count` and emits each when it is full; at
    /// completion, emits the last, shorter one if it holds any value, as RxJava does.
    /// An error drops the partial buffer and passes on.
    ///
    /// ```text
    /// source:      -1-2-3-4-5-|
    /// buffer(2):   ---[1,2]-[3,4]-[5]|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..=5).buffer(2).subscribe_observer(observer.clone());
    /// observer.assert_values(&[vec![1, 2], vec![3, 4], vec![5]]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Panics
    ///
    /// If `count` is 0, when this method is called (as [`slice::chunks`] does).
    ///
    /// # Performance
    ///
    /// One allocation per emitted `Vec`, made when its first value arrives, with room for
    /// `count` values (up to 1024 reserved up front).
    #[doc(alias = "bufferCount")]
    fn buffer(self, count: usize) -> Buffer<Self> {
        Buffer::new(self, count)
    }

    /// Collects the values into `Vec`s of up to `count`, opening a new one every `skip`
    /// values, as RxJava's `buffer(count, skip)` and RxJS's `bufferCount` do.
    ///
    /// - `skip == count`: the same as [`buffer`](ObservableExt::buffer).
    /// - `skip < count`: buffers overlap, and each value goes into several of them.
    /// - `skip > count`: the values between two buffers are dropped.
    ///
    /// At completion every open buffer is emitted, oldest first, including shorter ones; an
    /// error drops the open buffers and passes on.
    ///
    /// ```text
    /// source:                   -1-2-3-4-5-|
    /// buffer_with_skip(3, 1):   -----[1,2,3]-[2,3,4]-[3,4,5]-([4,5][5]|)
    /// buffer_with_skip(2, 3):   ---[1,2]-----[4,5]|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let sliding = TestObserver::new();
    /// rx::source::from_iter(1..=4)
    ///     .buffer_with_skip(2, 1)
    ///     .subscribe_observer(sliding.clone());
    /// sliding.assert_values(&[vec![1, 2], vec![2, 3], vec![3, 4], vec![4]]);
    ///
    /// let sampled = TestObserver::new();
    /// rx::source::from_iter(1..=7)
    ///     .buffer_with_skip(2, 3)
    ///     .subscribe_observer(sampled.clone());
    /// sampled.assert_values(&[vec![1, 2], vec![4, 5], vec![7]]);
    /// sampled.assert_completed();
    /// ```
    ///
    /// # Panics
    ///
    /// If `count` or `skip` is 0, when this method is called.
    ///
    /// # Performance
    ///
    /// One allocation per emitted `Vec`, and a queue of the open ones. The item type is
    /// `Clone` because a value is cloned into each open buffer but the newest, which takes it.
    #[doc(alias = "bufferCount")]
    fn buffer_with_skip(self, count: usize, skip: usize) -> BufferWithSkip<Self>
    where
        Self::Item: Clone,
    {
        BufferWithSkip::new(self, count, skip)
    }

    /// Emits each value paired with the one before it: `(previous, current)`. The first
    /// value only opens the first pair; a source of fewer than two values emits nothing.
    ///
    /// ```text
    /// source:      -1-----2-----3-|
    /// pairwise():  -------(1,2)-(2,3)-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(['a', 'b', 'c']).pairwise().subscribe_observer(observer.clone());
    /// observer.assert_values(&[('a', 'b'), ('b', 'c')]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// No allocation, no lock; one clone of each value, kept for the next pair.
    fn pairwise(self) -> Pairwise<Self>
    where
        Self::Item: Clone,
    {
        Pairwise::new(self)
    }

    /// Maps each value to an iterator and emits every item of it, in order, as
    /// [`Iterator::flat_map`] does.
    ///
    /// Before each item it asks whether downstream still wants values, so an endless
    /// iterator stops once downstream is done.
    ///
    /// ```text
    /// source:                  -1----2-------|
    /// flat_map_iter(0..v):     -0----0-1-----|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["a b", "c"])
    ///     .flat_map_iter(|line| line.split(' '))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&["a", "b", "c"]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// No allocation or lock of its own: the iterator runs inside the source's `on_next`.
    #[doc(alias = "flatMapIterable")]
    #[doc(alias = "concatMapIterable")]
    fn flat_map_iter<I, F>(self, f: F) -> FlatMapIter<Self, F>
    where
        F: FnMut(Self::Item) -> I,
        I: IntoIterator,
    {
        FlatMapIter::new(self, f)
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

    /// Emits the first `count` values, then completes and stops the source.
    ///
    /// Completion follows the `count`-th value at once, without waiting for the source, so
    /// `take` ends an endless source. `take(0)` completes at once and the source emits
    /// nothing. A source that completes or fails before `count` values ends the sequence the
    /// same way.
    ///
    /// ```text
    /// source:   -1-2-3-4-|
    /// take(2):  -1-2|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(0..).take(3).subscribe_observer(observer.clone());
    /// observer.assert_values(&[0, 1, 2]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// A counter: no allocation, no lock.
    fn take(self, count: usize) -> Take<Self> {
        Take::new(self, count)
    }

    /// Emits the last `count` values when the source completes, then completes.
    ///
    /// Nothing is emitted before the source completes. An error discards the values held
    /// and is passed on, as in RxJava. `take_last(0)` emits no value.
    ///
    /// ```text
    /// source:        -1-2-3-4-|
    /// take_last(2):  ---------(34|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..=5).take_last(2).subscribe_observer(observer.clone());
    /// observer.assert_values(&[4, 5]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Holds up to `count` values in a ring buffer (a `VecDeque`). It is allocated on the
    /// first value with room for all `count` (for a window above 1024 values it grows as
    /// values arrive instead) and never reallocates once full. No lock.
    fn take_last(self, count: usize) -> TakeLast<Self> {
        TakeLast::new(self, count)
    }

    /// Emits values while `predicate` returns `true`. At the first value for which it
    /// returns `false`, completes without emitting that value and stops the source.
    ///
    /// ```text
    /// source:          -1-2-5-1-|
    /// take_while(<3):  -1-2-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(0..).take_while(|v| v * v < 10).subscribe_observer(observer.clone());
    /// observer.assert_values(&[0, 1, 2, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// No allocation, no lock.
    fn take_while<P>(self, predicate: P) -> TakeWhile<Self, P>
    where
        P: FnMut(&Self::Item) -> bool,
    {
        TakeWhile::new(self, predicate)
    }

    /// Drops the first `count` values and emits the rest.
    ///
    /// ```text
    /// source:   -1-2-3-4-|
    /// skip(2):  -----3-4-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..=5).skip(3).subscribe_observer(observer.clone());
    /// observer.assert_values(&[4, 5]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// A counter: no allocation, no lock.
    fn skip(self, count: usize) -> Skip<Self> {
        Skip::new(self, count)
    }

    /// Drops the last `count` values. Each value is emitted when `count` newer ones have
    /// arrived, as only then is it known not to be among the last.
    ///
    /// ```text
    /// source:        -1-2-3-4-|
    /// skip_last(2):  -----1-2-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..=5).skip_last(2).subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Holds `count` values in a ring buffer (a `VecDeque`), allocated on the first value
    /// with room for all `count` (for more than 1024 values it grows as values arrive
    /// instead) and never reallocated once full. `skip_last(0)` allocates nothing. No lock.
    fn skip_last(self, count: usize) -> SkipLast<Self> {
        SkipLast::new(self, count)
    }

    /// Drops values while `predicate` returns `true`, then emits every value from the
    /// first for which it returns `false` on. The predicate is not called after that.
    ///
    /// ```text
    /// source:          -1-2-5-1-|
    /// skip_while(<3):  -----5-1-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2, 5, 1])
    ///     .skip_while(|v| *v < 3)
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[5, 1]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// No allocation, no lock.
    fn skip_while<P>(self, predicate: P) -> SkipWhile<Self, P>
    where
        P: FnMut(&Self::Item) -> bool,
    {
        SkipWhile::new(self, predicate)
    }

    /// Emits the first value and completes at once, stopping the source.
    ///
    /// ```text
    /// source:  -1-2-3-|
    /// first:   -1|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(5..).first().subscribe_observer(observer.clone());
    /// observer.assert_values(&[5]);
    /// observer.assert_completed();
    ///
    /// let observer = TestObserver::new();
    /// rx::source::empty::<i32>().first().subscribe_observer(observer.clone());
    /// assert!(observer.error().unwrap().is::<rx::operators::NoElements>());
    /// ```
    ///
    /// # Errors
    ///
    /// Fails with [`NoElements`](crate::operators::NoElements) when the source completes
    /// without a value, as RxJava's `firstOrError` and RPP's `first` do;
    /// [`first_or`](ObservableExt::first_or) emits a default instead. An error from the
    /// source before the first value is passed on.
    ///
    /// # Performance
    ///
    /// No allocation, no lock; an empty source allocates its error.
    fn first(self) -> First<Self> {
        First::new(self)
    }

    /// Emits the first value and completes at once, stopping the source; emits `default`
    /// instead if the source completes without a value.
    ///
    /// ```text
    /// source:       -1-2-3-|
    /// first_or(0):  -1|
    ///
    /// source:       ---|
    /// first_or(0):  ---(0|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::empty().first_or(-1).subscribe_observer(observer.clone());
    /// observer.assert_values(&[-1]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// No allocation, no lock.
    fn first_or(self, default: Self::Item) -> FirstOr<Self, Self::Item> {
        FirstOr::new(self, default)
    }

    /// Emits the last value when the source completes, then completes.
    ///
    /// ```text
    /// source:  -1-2-3-|
    /// last:    -------(3|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..=3).last().subscribe_observer(observer.clone());
    /// observer.assert_values(&[3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// Fails with [`NoElements`](crate::operators::NoElements) when the source completes
    /// without a value, as RxJava's `lastOrError` and RPP's `last` do;
    /// [`last_or`](ObservableExt::last_or) emits a default instead. An error from the source
    /// is passed on, and the value held is dropped.
    ///
    /// # Performance
    ///
    /// Holds the latest value: no allocation, no lock; an empty source allocates its error.
    fn last(self) -> Last<Self> {
        Last::new(self)
    }

    /// Emits the last value when the source completes, or `default` if it completes without
    /// a value, then completes.
    ///
    /// ```text
    /// source:      -1-2-3-|
    /// last_or(0):  -------(3|)
    ///
    /// source:      ---|
    /// last_or(0):  ---(0|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::empty().last_or(-1).subscribe_observer(observer.clone());
    /// observer.assert_values(&[-1]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Holds the latest value: no allocation, no lock.
    fn last_or(self, default: Self::Item) -> LastOr<Self, Self::Item> {
        LastOr::new(self, default)
    }

    /// Emits the value at `index`, counting from zero, then completes at once and stops the
    /// source.
    ///
    /// ```text
    /// source:         -1-2-3-4-|
    /// element_at(2):  -----3|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(10..).element_at(2).subscribe_observer(observer.clone());
    /// observer.assert_values(&[12]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// Fails with [`IndexOutOfRange`](crate::operators::IndexOutOfRange) when the source
    /// completes before emitting `index + 1` values, as RPP, Rx.NET, RxJS and RxJava's
    /// `elementAtOrError` do. (RxJava's `elementAt` returns a `Maybe` that completes empty
    /// instead; `skip(index).take(1)` behaves that way.) An error from the source before the
    /// value is passed on.
    ///
    /// # Performance
    ///
    /// A counter: no allocation, no lock; a source that is too short allocates its error.
    fn element_at(self, index: usize) -> ElementAt<Self> {
        ElementAt::new(self, index)
    }

    /// Emits each value the first time it appears, dropping values equal to one emitted
    /// before.
    ///
    /// ```text
    /// source:    -1-2-1-3-2-|
    /// distinct:  -1-2---3---|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2, 1, 3, 2]).distinct().subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Keeps a clone of every distinct value in a `HashSet` until the subscription ends, so
    /// memory grows with the number of distinct values: on an endless source of ever new
    /// values, without bound. Allocates as the set grows; no lock.
    fn distinct(self) -> Distinct<Self>
    where
        Self::Item: Eq + std::hash::Hash + Clone,
    {
        Distinct::new(self)
    }

    /// Drops each value equal to the value just before it.
    ///
    /// ```text
    /// source:                  -1-1-2-2-1-|
    /// distinct_until_changed:  -1---2---1-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 1, 2, 2, 1])
    ///     .distinct_until_changed()
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 1]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Keeps a clone of the last value, made with `clone_from` so a `String` or `Vec` reuses
    /// its buffer: no allocation beyond what cloning the item does, no lock.
    fn distinct_until_changed(self) -> DistinctUntilChanged<Self>
    where
        Self::Item: PartialEq + Clone,
    {
        DistinctUntilChanged::new(self)
    }

    /// Drops each value whose key, computed by `key_fn`, equals the key of the value just
    /// before it. This is RxJava's `distinctUntilChanged(keySelector)`; RxJS's
    /// `distinctUntilKeyChanged` takes a property name instead of a function.
    ///
    /// ```text
    /// source:                          -1-3-2-4-5-|
    /// distinct_until_key_changed(%2):  -1---2---5-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["apple", "avocado", "banana", "apricot"])
    ///     .distinct_until_key_changed(|fruit| fruit.chars().next())
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&["apple", "banana", "apricot"]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Keeps the last key: no allocation beyond what `key_fn` does, no lock.
    fn distinct_until_key_changed<K, F>(self, key_fn: F) -> DistinctUntilKeyChanged<Self, F>
    where
        F: FnMut(&Self::Item) -> K,
        K: PartialEq,
    {
        DistinctUntilKeyChanged::new(self, key_fn)
    }

    /// Drops every value and passes on only the completion or the error.
    ///
    /// The item type stays the source's, so the result can still be combined with
    /// observables of that type.
    ///
    /// ```text
    /// source:           -1-2-3-|
    /// ignore_elements:  -------|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..=3).ignore_elements().subscribe_observer(observer.clone());
    /// observer.assert_values(&[]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Stateless: no allocation, no lock.
    fn ignore_elements(self) -> IgnoreElements<Self> {
        IgnoreElements::new(self)
    }

    /// Emits the source's values unchanged, or `default` if the source completes without
    /// emitting any.
    ///
    /// ```text
    /// source:               -1-2-|
    /// default_if_empty(0):  -1-2-|
    ///
    /// source:               ---|
    /// default_if_empty(0):  ---(0|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::empty().default_if_empty(7).subscribe_observer(observer.clone());
    /// observer.assert_values(&[7]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Holds the default until the first value or the end: no allocation, no lock.
    fn default_if_empty(self, default: Self::Item) -> DefaultIfEmpty<Self, Self::Item> {
        DefaultIfEmpty::new(self, default)
    }

    // ---------------------------------------------------------------- aggregating

    /// Folds every value into an accumulator that starts as `seed`, and emits the final
    /// accumulation when the source completes.
    ///
    /// An empty source emits `seed`, as RxJava's `reduce(seed, f)` and `Iterator::fold` do.
    /// `scan` emits each intermediate accumulation instead.
    ///
    /// ```text
    /// source:          -1-2-3-|
    /// reduce(10, +):   -------(16|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..=3)
    ///     .reduce(10, |acc, v| acc + v)
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[16]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; the accumulation is dropped, not emitted.
    ///
    /// # Performance
    ///
    /// The accumulator lives in the observer: no allocation, no lock.
    fn reduce<A, F>(self, seed: A, f: F) -> Reduce<Self, A, F>
    where
        F: FnMut(A, Self::Item) -> A,
    {
        Reduce::new(self, seed, f)
    }

    /// Emits how many values the source emitted, as a `usize`, when it completes; `0` for an
    /// empty source.
    ///
    /// ```text
    /// source:   -a-b-c-|
    /// count():  -------(3|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["a", "b", "c"]).count().subscribe_observer(observer.clone());
    /// observer.assert_values(&[3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; no count is emitted.
    ///
    /// # Performance
    ///
    /// A counter in the observer: no allocation, no lock.
    fn count(self) -> Count<Self> {
        Count::new(self)
    }

    /// Emits the sum of the values when the source completes.
    ///
    /// Values add up as [`Iterator::sum`] adds them, with the same bound, so both give the
    /// same result. An empty source emits the sum of no values (`0` for integers; `-0.0`,
    /// which equals `0.0`, for floats), as Rx.NET's `Sum` emits zero; RxJava's
    /// `MathObservable.sumInt` (RxJava2Extensions) completes without a value instead.
    ///
    /// ```text
    /// source:  -1-2-3-|
    /// sum():   -------(6|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..=3).sum().subscribe_observer(observer.clone());
    /// observer.assert_values(&[6]);
    /// observer.assert_completed();
    ///
    /// let observer = TestObserver::new();
    /// rx::source::empty::<u32>().sum().subscribe_observer(observer.clone());
    /// observer.assert_values(&[0]);
    /// ```
    ///
    /// # Panics
    ///
    /// When an integer sum overflows and overflow checks are on (debug builds), as
    /// `Iterator::sum` does. Sum `std::num::Wrapping` values, or map to a wider type, to avoid
    /// it.
    ///
    /// # Errors
    ///
    /// An error from the source passes through; no sum is emitted.
    ///
    /// # Performance
    ///
    /// The running total lives in the observer: no allocation, no lock.
    fn sum(self) -> Sum<Self>
    where
        Self::Item: std::iter::Sum,
    {
        Sum::new(self)
    }

    /// Emits the smallest value when the source completes; of several equal minima, the first,
    /// as [`Iterator::min`] does.
    ///
    /// An empty source has no minimum: the output completes without a value, as RxJS's `min`,
    /// RxJava's `MathObservable.min` (RxJava2Extensions) and RPP's seedless `reduce` do, and as
    /// `Iterator::min` returns `None` (Rx.NET errors instead). Chain `default_if_empty` to
    /// supply a value, or `first` to make it an error. Floats are not `Ord`: fold them with
    /// `reduce(f64::INFINITY, f64::min)`.
    ///
    /// ```text
    /// source:  -3-1-2-|
    /// min():   -------(1|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([3, 1, 2]).min().subscribe_observer(observer.clone());
    /// observer.assert_values(&[1]);
    /// observer.assert_completed();
    ///
    /// let observer = TestObserver::new();
    /// rx::source::empty::<i32>().min().subscribe_observer(observer.clone());
    /// observer.assert_values(&[]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; no value is emitted. An empty source is not an
    /// error.
    ///
    /// # Performance
    ///
    /// The current minimum lives in the observer: no allocation, no lock.
    fn min(self) -> Min<Self>
    where
        Self::Item: Ord,
    {
        Min::new(self)
    }

    /// Emits the largest value when the source completes; of several equal maxima, the last,
    /// as [`Iterator::max`] does.
    ///
    /// An empty source has no maximum: the output completes without a value, as RxJS's `max`,
    /// RxJava's `MathObservable.max` (RxJava2Extensions) and RPP's seedless `reduce` do, and as
    /// `Iterator::max` returns `None` (Rx.NET errors instead). Chain `default_if_empty` to
    /// supply a value, or `first` to make it an error. Floats are not `Ord`: fold them with
    /// `reduce(f64::NEG_INFINITY, f64::max)`.
    ///
    /// ```text
    /// source:  -3-1-2-|
    /// max():   -------(3|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([3, 1, 2]).max().subscribe_observer(observer.clone());
    /// observer.assert_values(&[3]);
    /// observer.assert_completed();
    ///
    /// let observer = TestObserver::new();
    /// rx::source::empty::<i32>().max().subscribe_observer(observer.clone());
    /// observer.assert_values(&[]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; no value is emitted. An empty source is not an
    /// error.
    ///
    /// # Performance
    ///
    /// The current maximum lives in the observer: no allocation, no lock.
    fn max(self) -> Max<Self>
    where
        Self::Item: Ord,
    {
        Max::new(self)
    }

    /// Collects every value into a `Vec`, emitted when the source completes; an empty source
    /// emits an empty `Vec` (RxJava's `toList`).
    ///
    /// ```text
    /// source:    -1-2-3-|
    /// to_vec():  -------([1, 2, 3]|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..=3).to_vec().subscribe_observer(observer.clone());
    /// observer.assert_values(&[vec![1, 2, 3]]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; the values collected so far are dropped.
    ///
    /// # Performance
    ///
    /// The `Vec` grows as values arrive, as `Vec::push` grows it; no lock.
    fn to_vec(self) -> ToVec<Self> {
        ToVec::new(self)
    }

    /// Emits whether every value satisfies `predicate`: `false` at the first value that does
    /// not, stopping the source there, or `true` when the source completes. An empty source
    /// gives `true`, as [`Iterator::all`] does.
    ///
    /// ```text
    /// source:          -2-4-5-6-|
    /// all(even):       -----(false|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(0..).all(|v| v < 10).subscribe_observer(observer.clone());
    /// observer.assert_values(&[false]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source before the answer is known passes through, without a value.
    ///
    /// # Performance
    ///
    /// No allocation, no lock.
    fn all<P>(self, predicate: P) -> All<Self, P>
    where
        P: FnMut(Self::Item) -> bool,
    {
        All::new(self, predicate)
    }

    /// Emits whether some value satisfies `predicate`: `true` at the first value that does,
    /// stopping the source there, or `false` when the source completes. An empty source gives
    /// `false`, as [`Iterator::any`] does.
    ///
    /// ```text
    /// source:          -1-3-4-5-|
    /// any(even):       -----(true|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// // An endless source: `any` stops it once the answer is known.
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(0..).any(|v| v > 5).subscribe_observer(observer.clone());
    /// observer.assert_values(&[true]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source before the answer is known passes through, without a value.
    ///
    /// # Performance
    ///
    /// No allocation, no lock.
    fn any<P>(self, predicate: P) -> Any<Self, P>
    where
        P: FnMut(Self::Item) -> bool,
    {
        Any::new(self, predicate)
    }

    /// Emits whether a value equal to `value` appears: `true` at the first one, stopping the
    /// source there, or `false` when the source completes. An empty source gives `false`.
    ///
    /// The comparison is `item == value` through `PartialEq`, so a source of `String`s can
    /// look for a `&str`.
    ///
    /// ```text
    /// source:          -1-2-3-4-|
    /// contains(2):     ---(true|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["ab".to_string(), "cd".to_string()])
    ///     .contains("cd")
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[true]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source before the answer is known passes through, without a value.
    ///
    /// # Performance
    ///
    /// `value` lives in the observer: no allocation, no lock.
    fn contains<V>(self, value: V) -> Contains<Self, V>
    where
        Self::Item: PartialEq<V>,
    {
        Contains::new(self, value)
    }

    /// Emits whether the source completes without a value: `false` at the first value,
    /// stopping the source there, or `true` when the source completes.
    ///
    /// ```text
    /// source:      ---1-2-|
    /// is_empty():  ---(false|)
    ///
    /// source:      ---|
    /// is_empty():  ---(true|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::empty::<i32>().is_empty().subscribe_observer(observer.clone());
    /// observer.assert_values(&[true]);
    /// observer.assert_completed();
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(0..).is_empty().subscribe_observer(observer.clone());
    /// observer.assert_values(&[false]);
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source before any value passes through, without a value.
    ///
    /// # Performance
    ///
    /// No allocation, no lock.
    // The Rx name; like every operator it consumes `self` to build the new observable.
    #[allow(clippy::wrong_self_convention)]
    fn is_empty(self) -> IsEmpty<Self> {
        IsEmpty::new(self)
    }

    // ---------------------------------------------------------------- composing

    /// Emits `value`, then the values of this observable.
    ///
    /// Chained calls put the last value first: `source.start_with(1).start_with(0)` emits
    /// `0`, `1`, then the source's values.
    ///
    /// ```text
    /// source:         -1-2-|
    /// start_with(0):  0-1-2-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2]).start_with(0).subscribe_observer(observer.clone());
    /// observer.assert_values(&[0, 1, 2]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// No allocation, no lock: `value` is delivered, then the source is subscribed with the
    /// same observer.
    fn start_with(self, value: Self::Item) -> StartWith<Self, Self::Item> {
        StartWith::new(self, value)
    }

    /// Emits the values of this observable, then `value` when it completes.
    ///
    /// Nothing is added when the source fails or never completes.
    ///
    /// ```text
    /// source:       -1-2-|
    /// end_with(9):  -1-2-(9|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2]).end_with(9).subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 9]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// No allocation, no lock: the observer holds `value` until completion.
    fn end_with(self, value: Self::Item) -> EndWith<Self, Self::Item> {
        EndWith::new(self, value)
    }

    /// Emits the values of this observable, then, once it completes, those of `other`.
    ///
    /// `other` is subscribed when this observable completes, on the thread that completion
    /// arrives on. The returned handle disposes whichever of the two is running. For more
    /// than two observables of one type, see [`concat`](crate::source::concat).
    ///
    /// ```text
    /// source:             -1-2-|
    /// other:                    -3-|
    /// concat_with(other): -1-2---3-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2])
    ///     .concat_with(rx::source::just(3))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from this observable ends the sequence; `other` is then not subscribed.
    ///
    /// # Performance
    ///
    /// Two small allocations per subscription (the slot that holds `other`, then its
    /// handle, and a disposed flag), and a lock when this observable completes; values pass
    /// through with no lock.
    fn concat_with<S>(self, other: S) -> ConcatWith<Self, S>
    where
        S: Observable<Item = Self::Item>,
    {
        ConcatWith::new(self, other)
    }

    // ---------------------------------------------------------------- combining

    // ---------------------------------------------------------------- utility

    /// Calls `f` with a reference to each value, for a side effect such as logging, before
    /// passing the value on unchanged (RxJava's `doOnNext`, `Iterator::inspect`).
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    ///
    /// let mut seen = Vec::new();
    /// let mut total = 0;
    /// rx::source::from_iter([1, 2, 3])
    ///     .tap(|v| seen.push(*v))
    ///     .subscribe(|v| total += v);
    /// assert_eq!(seen, [1, 2, 3]);
    /// assert_eq!(total, 6);
    /// ```
    ///
    /// # Performance
    ///
    /// Stateless: no allocation, no lock.
    fn tap<F>(self, f: F) -> Tap<Self, F>
    where
        F: FnMut(&Self::Item),
    {
        Tap::new(self, f)
    }

    /// Calls `next`, `error` or `completed` for each notification, for a side effect, before
    /// passing the notification on unchanged (RxJava's `doOnEach`, RPP's `tap` with three
    /// callbacks).
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use std::cell::RefCell;
    ///
    /// let log = RefCell::new(Vec::new());
    /// rx::source::from_iter([1, 2])
    ///     .tap_with(
    ///         |v| log.borrow_mut().push(format!("saw {v}")),
    ///         |e| log.borrow_mut().push(format!("saw error {e}")),
    ///         || log.borrow_mut().push("saw the end".to_string()),
    ///     )
    ///     .subscribe(|v| log.borrow_mut().push(format!("got {v}")));
    /// assert_eq!(log.into_inner(), ["saw 1", "got 1", "saw 2", "got 2", "saw the end"]);
    /// ```
    ///
    /// # Performance
    ///
    /// Stateless: no allocation, no lock.
    fn tap_with<N, E, C>(self, next: N, error: E, completed: C) -> TapWith<Self, N, E, C>
    where
        N: FnMut(&Self::Item),
        E: FnOnce(&Error),
        C: FnOnce(),
    {
        TapWith::new(self, next, error, completed)
    }

    /// Runs `f` exactly once when the subscription ends, however it ends: after the
    /// downstream has received completion or an error, when the downstream stops it early
    /// (a `take` further down, say), or when the returned handle is disposed (RxJava's
    /// `doFinally`, RPP's `finally`).
    ///
    /// `f` runs after the downstream's `on_completed` or `on_error` has returned, and after
    /// the upstream handle's `dispose`. If a source lets go of its observer without a terminal
    /// notification while the downstream still wants values (a source that will never emit
    /// again), `f` waits for the handle's `dispose`, as in RxJava. Each subscription runs its
    /// own `f`, so subscribing twice needs a `Clone` closure.
    ///
    /// Running after the downstream's terminal call means that in a synchronous `concat`, the
    /// `f` of one part runs after the parts that follow it have run, as with RxJava's
    /// `doFinally`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use std::cell::Cell;
    ///
    /// let runs = Cell::new(0);
    /// let handle = rx::source::from_iter([1, 2, 3])
    ///     .finally(|| runs.set(runs.get() + 1))
    ///     .subscribe(|_| assert_eq!(runs.get(), 0, "not before the end"));
    /// assert_eq!(runs.get(), 1);
    ///
    /// // The chain already ended inside `subscribe`: disposing does not run `f` again.
    /// handle.dispose();
    /// assert_eq!(runs.get(), 1);
    /// assert!(handle.is_disposed());
    /// ```
    ///
    /// # Performance
    ///
    /// One allocation per subscription: an `Arc` that the observer and the returned handle
    /// share, holding `f` behind a lock, which is taken when `f` runs and when the handle is
    /// disposed or asked `is_disposed`. Values pass through without touching it.
    fn finally<F>(self, f: F) -> Finally<Self, F>
    where
        F: FnOnce(),
    {
        Finally::new(self, f)
    }

    /// Emits each notification of the source as a [`Notification`] value: values as
    /// `Notification::Next`, then the source's error or completion as `Notification::Error`
    /// or `Notification::Completed`, after which the output completes. The output never
    /// errors. [`dematerialize`](ObservableExt::dematerialize) undoes it.
    ///
    /// ```text
    /// source:         -1-2-#
    /// materialize():  -N(1)-N(2)-(E(#)|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use rx::Notification;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2]).materialize().subscribe_observer(observer.clone());
    /// observer.assert_values(&[
    ///     Notification::Next(1),
    ///     Notification::Next(2),
    ///     Notification::Completed,
    /// ]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Stateless: no allocation, no lock.
    fn materialize(self) -> Materialize<Self> {
        Materialize::new(self)
    }

    /// Turns an observable of [`Notification`]s back into the notifications they describe:
    /// `Next(v)` is emitted as `v`, and the first `Error` or `Completed` terminates the output
    /// and stops the source. The source's own error or completion, if it comes first, passes
    /// through. The inverse of [`materialize`](ObservableExt::materialize).
    ///
    /// ```text
    /// source:           -N(1)-N(2)-C-N(3)-|
    /// dematerialize():  -1----2----|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use rx::Notification;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([
    ///     Notification::Next(1),
    ///     Notification::Error(rx::Error::msg("boom")),
    ///     Notification::Next(2),
    /// ])
    /// .dematerialize()
    /// .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1]);
    /// observer.assert_error("boom");
    /// ```
    ///
    /// # Errors
    ///
    /// A `Notification::Error` value becomes `on_error`; an error from the source passes
    /// through.
    ///
    /// # Performance
    ///
    /// No allocation, no lock.
    fn dematerialize<T>(self) -> Dematerialize<Self>
    where
        Self: Observable<Item = Notification<T>>,
    {
        Dematerialize::new(self)
    }

    // ---------------------------------------------------------------- error handling

    /// When the source fails, calls `f` with the error and continues with the observable it
    /// returns, as RxJava's `onErrorResumeNext` and RPP's `on_error_resume_next` do. Values
    /// already emitted stay emitted; the fallback's own error, if any, passes on.
    ///
    /// ```text
    /// source:                             -1-2-#
    /// on_error_resume_next(|_| [8, 9]):   -1-2-8-9-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([Ok(1), Ok(2), Err(rx::Error::msg("offline"))])
    ///     .try_map(|r| r)
    ///     .on_error_resume_next(|_error| rx::source::from_iter([8, 9]))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 8, 9]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// One allocation per subscription, shared with the handle so that disposing it reaches
    /// the fallback, which may be subscribed on another thread; a lock taken when the source
    /// fails and when the handle is disposed or queried.
    #[doc(alias = "onErrorResumeNext")]
    #[doc(alias = "catchError")]
    #[doc(alias = "catch")]
    fn on_error_resume_next<R, F>(self, f: F) -> OnErrorResumeNext<Self, F>
    where
        F: FnOnce(Error) -> R,
        R: Observable<Item = Self::Item>,
    {
        OnErrorResumeNext::new(self, f)
    }

    /// When the source fails, emits the value `f` makes from the error, then completes, as
    /// RxJava's `onErrorReturn` does.
    ///
    /// ```text
    /// source:                    -1-2-#
    /// on_error_return(|_| 0):    -1-2-0-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["1", "2", "three"])
    ///     .try_map(|s| s.parse::<i32>())
    ///     .on_error_return(|_error| -1)
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, -1]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Stateless: no allocation, no lock.
    #[doc(alias = "onErrorReturn")]
    #[doc(alias = "onErrorReturnItem")]
    fn on_error_return<F>(self, f: F) -> OnErrorReturn<Self, F>
    where
        F: FnOnce(Error) -> Self::Item,
    {
        OnErrorReturn::new(self, f)
    }

    /// Transforms the error that terminates the sequence, to add context or to replace it;
    /// values and completion pass unchanged. `f` may return an [`Error`] or any
    /// `std::error::Error + Send + Sync + 'static`.
    ///
    /// ```text
    /// source:         -1-2-#a
    /// map_err(a→b):   -1-2-#b
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["1", "x"])
    ///     .try_map(|s| s.parse::<i32>())
    ///     .map_err(|error| rx::Error::msg(format!("reading the config: {error}")))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1]);
    /// observer.assert_error("reading the config: invalid digit found in string");
    /// ```
    ///
    /// # Performance
    ///
    /// Stateless: no allocation, no lock.
    #[doc(alias = "onErrorMap")]
    fn map_err<E, F>(self, f: F) -> MapErr<Self, F>
    where
        F: FnOnce(Error) -> E,
        E: Into<Error>,
    {
        MapErr::new(self, f)
    }

    /// Subscribes to the source again when it fails, up to `retries` times after the first
    /// failure, then passes the last error on. `retry(1)` subscribes at most twice, as
    /// RxJava's `retry(times)` and RPP's `retry(count)` count; `retry(0)` subscribes once.
    ///
    /// Each attempt subscribes a clone of the source, so the source must be `Clone`; values
    /// emitted by a failed attempt stay emitted. A source that fails synchronously is
    /// resubscribed by a loop, not by recursion, so the number of attempts does not grow the
    /// stack. When an attempt fails later on another thread, the next one is subscribed from
    /// that thread.
    ///
    /// ```text
    /// source:     -1-2-#
    /// retry(1):   -1-2---1-2-#
    /// ```
    ///
    /// # Examples
    ///
    /// A flaky source that succeeds on its third attempt:
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use std::cell::Cell;
    ///
    /// let attempts = Cell::new(0);
    /// let observer = TestObserver::new();
    /// rx::source::just("GET /")
    ///     .try_map(|request| {
    ///         attempts.set(attempts.get() + 1);
    ///         match attempts.get() {
    ///             1 | 2 => Err(rx::Error::msg("timed out")),
    ///             n => Ok(format!("{request}: 200 after {n} attempts")),
    ///         }
    ///     })
    ///     .retry(5)
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&["GET /: 200 after 3 attempts".to_string()]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// The error of the last attempt, once `retries` resubscriptions have failed.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the state an attempt ending on another thread
    /// shares with the handle, and a few uncontended lock operations per attempt. The
    /// source's handle must be `Send + 'static` (all are, but those of observables boxed with
    /// a borrowed lifetime); one that is not zero-sized is boxed, once per attempt.
    #[doc(alias = "retryCount")]
    fn retry(self, retries: usize) -> Retry<Self>
    where
        Self: Clone,
    {
        Retry::new(self, Some(retries))
    }

    /// Subscribes to the source again each time it fails, with no limit; see
    /// [`retry`](ObservableExt::retry). Completion ends it, or disposal: downstream stopping
    /// (a `take` after it) or the handle's [`dispose`](Subscription::dispose).
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use std::cell::Cell;
    ///
    /// let failures_left = Cell::new(100);
    /// let observer = TestObserver::new();
    /// rx::source::just(1)
    ///     .try_map(|v| match failures_left.replace(failures_left.get().saturating_sub(1)) {
    ///         0 => Ok(v),
    ///         _ => Err(rx::Error::msg("not yet")),
    ///     })
    ///     .retry_forever()
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// As [`retry`](ObservableExt::retry).
    fn retry_forever(self) -> Retry<Self>
    where
        Self: Clone,
    {
        Retry::new(self, None)
    }

    /// Subscribes to the source `times` times in total, one after the other, emitting all
    /// their values, and completes after the last. `repeat(1)` is the source itself and
    /// `repeat(0)` completes at once without subscribing, as RxJava's `repeat(times)` does.
    /// An error ends the sequence at once.
    ///
    /// Each attempt subscribes a clone of the source. A source that completes synchronously
    /// is resubscribed by a loop, not by recursion, so the count does not grow the stack;
    /// when an attempt completes later on another thread, the next one is subscribed from
    /// that thread.
    ///
    /// ```text
    /// source:      -1-2-|
    /// repeat(3):   -1-2-1-2-1-2-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(['a', 'b']).repeat(3).subscribe_observer(observer.clone());
    /// observer.assert_values(&['a', 'b', 'a', 'b', 'a', 'b']);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// As [`retry`](ObservableExt::retry): one allocation per subscription, a few uncontended
    /// lock operations per attempt, and the source's handle must be `Send + 'static`.
    fn repeat(self, times: usize) -> Repeat<Self>
    where
        Self: Clone,
    {
        Repeat::new(self, Some(times))
    }

    /// Subscribes to the source again each time it completes, with no limit; see
    /// [`repeat`](ObservableExt::repeat). An error ends it, or disposal: downstream stopping
    /// (a `take` after it) or the handle's [`dispose`](Subscription::dispose).
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    ///
    /// let mut seen = Vec::new();
    /// let mut countdown = 5;
    /// rx::source::from_iter([1, 2])
    ///     .repeat_forever()
    ///     .try_map(|v| {
    ///         countdown -= 1;
    ///         if countdown == 0 { Err(rx::Error::msg("enough")) } else { Ok(v) }
    ///     })
    ///     .subscribe_with(|v| seen.push(v), |e| assert_eq!(e.to_string(), "enough"), || {});
    /// assert_eq!(seen, [1, 2, 1, 2]);
    /// ```
    ///
    /// # Performance
    ///
    /// As [`repeat`](ObservableExt::repeat).
    fn repeat_forever(self) -> Repeat<Self>
    where
        Self: Clone,
    {
        Repeat::new(self, None)
    }

    // ---------------------------------------------------------------- time and schedulers
    /// Pairs each value with the instant it arrived, read from `scheduler`'s clock. The
    /// instant comes first, as the index does in [`Iterator::enumerate`].
    ///
    /// ```text
    /// source:     ---a----b-|
    /// timestamp:  ---(t3,a)----(t8,b)-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TestObserver;
    /// use std::time::Duration;
    ///
    /// let scheduler = TestScheduler::new();
    /// let observer = TestObserver::new();
    /// rx::source::interval(Duration::from_secs(1), scheduler.clone())
    ///     .timestamp(scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.advance_by(Duration::from_secs(2));
    ///
    /// let start = scheduler.start();
    /// let second = Duration::from_secs(1);
    /// observer.assert_values(&[(start + second, 0), (start + 2 * second, 1)]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// Only the scheduler's clock is read; nothing is scheduled, and values are delivered on
    /// the thread they arrive on.
    ///
    /// # Performance
    ///
    /// No allocation, no lock: one clock read per value.
    fn timestamp<Sch>(self, scheduler: Sch) -> Timestamp<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        Timestamp::new(self, scheduler)
    }

    /// Pairs each value with the time elapsed since the previous one, or for the first value,
    /// since the subscription; the time is read from `scheduler`'s clock.
    ///
    /// ```text
    /// source:         ---a----b-|
    /// time_interval:  ---(3,a)----(5,b)-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TestObserver;
    /// use std::time::Duration;
    ///
    /// let scheduler = TestScheduler::new();
    /// let observer = TestObserver::new();
    /// rx::source::interval(Duration::from_secs(2), scheduler.clone())
    ///     .time_interval(scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.advance_by(Duration::from_secs(4));
    ///
    /// let two = Duration::from_secs(2);
    /// observer.assert_values(&[(two, 0), (two, 1)]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// Only the scheduler's clock is read; nothing is scheduled, and values are delivered on
    /// the thread they arrive on.
    ///
    /// # Performance
    ///
    /// No allocation, no lock: one clock read per value.
    #[doc(alias = "timeInterval")]
    fn time_interval<Sch>(self, scheduler: Sch) -> TimeInterval<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        TimeInterval::new(self, scheduler)
    }

    /// Emits the first value, then drops every value that arrives in the `window` after it;
    /// the first value after the window emits and opens the next one (RxJava's
    /// `throttleFirst`, RxJS's `throttleTime`). Errors and completion pass at once.
    ///
    /// ```text
    /// source:         -a-b-c---d-e-f-|
    /// throttle(4):    -a-------d-----|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TestObserver;
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TestObserver::new();
    /// // A value every 10 ms; each window of 25 ms lets the first one through.
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .throttle(ms(25), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.advance_by(ms(100));
    /// observer.assert_values(&[0, 3, 6, 9]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// Only the scheduler's clock is read: a value is let through when the window that the
    /// previous emitted value opened has ended, which is what a timer reopening the gate would
    /// do, without one. Nothing is scheduled and values are delivered on the thread they
    /// arrive on.
    ///
    /// # Performance
    ///
    /// No allocation, no lock: one clock read per value.
    #[doc(alias = "throttleFirst")]
    #[doc(alias = "throttleTime")]
    fn throttle<Sch>(self, window: std::time::Duration, scheduler: Sch) -> Throttle<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        Throttle::new(self, window, scheduler)
    }

    /// Shifts each value and the completion `delay` later, keeping the spacing between them.
    /// An error is not delayed: it is delivered as soon as it arrives and drops the values
    /// still waiting, as with RxJava's default (`delayError = false`), Rx.NET and RxJS.
    ///
    /// ```text
    /// source:     -a--b-|
    /// delay(3):   ----a--b-|
    ///
    /// source:     -a--#
    /// delay(3):   ----#
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::{cold, TimedObserver};
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// cold(&scheduler, [(ms(10), Next('a')), (ms(40), Next('b')), (ms(50), Completed)])
    ///     .delay(ms(100), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(110), Next('a')), (ms(140), Next('b')), (ms(150), Completed)]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// Values and completion are delivered by a task on a worker of `scheduler`; the error
    /// on the thread that reports it, unless a delivery is under way, which then delivers it.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the shared state, and a queue of the values
    /// waiting, which grows to the number that arrive within `delay`. One task delivers them
    /// all, sleeping until each next due time; it is scheduled again (an allocation in the
    /// scheduler) only after the queue has run empty. A lock is taken per value.
    fn delay<Sch>(self, delay: std::time::Duration, scheduler: Sch) -> Delay<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        Delay::new(self, delay, scheduler)
    }
}

impl<S: Observable> ObservableExt for S {}
