//! The [`ObservableExt`] trait, which lists every operator.
//!
//! Each method builds a small struct and does nothing else; the work happens on subscribe.
//! The sections of the trait follow what the operators do, in the order rustdoc shows them.

use crate::Error;
use crate::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::{FnObserver, LocalBoxedObserver, NextObserver};
use crate::operators::*;

/// The operators and the closure forms of `subscribe`, for every [`Observable`].
///
/// Each method builds a small struct and does nothing else; the work happens on subscribe.
pub trait ObservableExt: Observable + Sized {
    // ------------------------------------------------------------------------- subscribing
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

    /// The form of this observable that a thread waits for: iterate over it to take each
    /// value as a `Result<T, rx::Error>` as it arrives, or call its
    /// [`subscribe`](BlockingObservable::subscribe) to run a closure on each value and wait
    /// for the outcome. See [`BlockingObservable`].
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::NewThread;
    /// use std::time::Duration;
    ///
    /// let ticks: Vec<u64> = rx::source::interval(Duration::from_millis(1), NewThread)
    ///     .take(3)
    ///     .as_blocking()
    ///     .into_iter()
    ///     .collect::<Result<_, _>>()
    ///     .unwrap();
    /// assert_eq!(ticks, [0, 1, 2]);
    ///
    /// let outcome = rx::source::throw::<i32>(rx::Error::msg("offline"))
    ///     .as_blocking()
    ///     .subscribe(|_| {});
    /// assert_eq!(outcome.unwrap_err().to_string(), "offline");
    /// ```
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the queue between the threads, which is
    /// **unbounded**, and a lock per value; the waiting thread sleeps on a condition variable.
    #[cfg(any(not(target_arch = "wasm32"), doc))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    #[doc(alias = "toBlocking")]
    #[doc(alias = "blockingIterable")]
    #[doc(alias = "blockingSubscribe")]
    // RPP's name for it; it consumes `self`, as every operator does.
    #[allow(clippy::wrong_self_convention)]
    fn as_blocking(self) -> BlockingObservable<Self> {
        BlockingObservable::new(self)
    }

    /// Erases the observable's type behind a `Box`, so observables of different types can be
    /// stored together or returned from one function. The observable must be `Send`; see
    /// [`boxed_local`](ObservableExt::boxed_local) for one that is not.
    ///
    /// The boxed observable is `Clone`, so it can be kept in a struct and subscribed once per
    /// request, retried or repeated; that needs the observable to be `Clone`, and
    /// [`boxed_once`](ObservableExt::boxed_once) boxes one that is not.
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
    ///
    ///
    /// // Clone it to subscribe again; `retry` and `repeat` do.
    /// let stored = numbers(false);
    /// let observer = rx::testing::TestObserver::new();
    /// stored.clone().subscribe_observer(observer.clone());
    /// stored.repeat(2).subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 3, 1, 2, 3, 1, 2, 3]);
    /// ```
    ///
    /// # What it needs
    ///
    /// - **`Clone`** ([`Resubscribable`]): the box is subscribed again by cloning what it holds.
    ///   An observable is `Clone` when its closures are, and a closure when what it captures
    ///   is. Box one that is not with [`boxed_once`](ObservableExt::boxed_once), to subscribe
    ///   it once.
    /// - **`Send`, and a `Send` handle** ([`SendObservable`]): the box and its handle are
    ///   `Send`. Box one that captures `Rc` or is built on a local subject with
    ///   [`boxed_local`](ObservableExt::boxed_local).
    ///
    /// A function's result whose type is `impl Subscribe<O, Item = T>` promises neither, so
    /// it says so to be boxed: `impl Subscribe<O, Item = T, Subscription: Send> + Clone`.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::BoxedObservable;
    ///
    /// fn evens<O>(limit: usize) -> impl Subscribe<O, Item = u32, Subscription: Send> + Clone
    /// where
    ///     O: Observer<u32>,
    /// {
    ///     rx::source::range(0, limit).filter(|v| v % 2 == 0)
    /// }
    ///
    /// /// Keeps one pipeline and subscribes it once per call.
    /// struct Report {
    ///     numbers: BoxedObservable<'static, u32>,
    /// }
    ///
    /// impl Report {
    ///     fn values(&self) -> Vec<u32> {
    ///         let (sender, receiver) = std::sync::mpsc::channel();
    ///         self.numbers.clone().subscribe_owned(move |v| sender.send(v).unwrap());
    ///         receiver.iter().collect()
    ///     }
    /// }
    ///
    /// let report = Report { numbers: evens(7).map(|v| v * 10).boxed() };
    /// assert_eq!(report.values(), [0, 20, 40, 60]);
    /// assert_eq!(report.values(), [0, 20, 40, 60]);
    /// ```
    ///
    /// A `BoxedObservable<'static, T>` may hold a chain that keeps its observer after
    /// `subscribe` returns, so it takes only observers that own their state, as
    /// [`subscribe_owned`](crate::SubscribeOwned::subscribe_owned)'s closure does; a closure
    /// that borrows locals needs a `BoxedObservable<'a, T>` whose `'a` those locals outlive.
    ///
    /// # Performance
    ///
    /// One allocation for the observable and one for the observer on each subscribe, and a
    /// virtual call per notification: use it where the type must be erased, not by default.
    /// A clone allocates once and clones what the box holds.
    fn boxed<'a>(self) -> BoxedObservable<'a, Self::Item>
    where
        Self: Resubscribable + SendObservable<'a, <Self as Observable>::Item>,
    {
        BoxedObservable::new(self)
    }

    /// Like [`boxed`](ObservableExt::boxed), for observables that are not `Send`. It needs
    /// the observable `Clone` ([`Resubscribable`]), as `boxed` does;
    /// [`boxed_local_once`](ObservableExt::boxed_local_once) boxes one that is not.
    ///
    /// Its handle is not `Send` either, so it cannot be an upstream of the operators that
    /// keep their upstreams' handles (merge, zip, concat, retry and their families), which
    /// need them `Send`: keep such a chain unboxed, or box it after combining.
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
        Self: Resubscribable + 'a + Subscribe<LocalBoxedObserver<'a, <Self as Observable>::Item>>,
        <Self as Subscribe<LocalBoxedObserver<'a, <Self as Observable>::Item>>>::Subscription: 'a,
    {
        LocalBoxedObservable::new(self)
    }

    /// Like [`boxed`](ObservableExt::boxed), for an observable that is not `Clone`: the
    /// result can be subscribed once, so it cannot be retried or repeated. It still needs the
    /// observable and its handle `Send` ([`SendObservable`]).
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::operators::BoxedOnceObservable;
    /// use rx::testing::TestObserver;
    ///
    /// // A channel's receiver moved into the emitter: it is not `Clone`, so neither is the
    /// // closure nor the observable.
    /// let (sender, receiver) = std::sync::mpsc::channel();
    /// sender.send(String::from("hello")).unwrap();
    /// let once: BoxedOnceObservable<'_, String> = rx::source::create(move |mut e| {
    ///     receiver.try_iter().for_each(|v| e.on_next(v));
    ///     e.on_completed();
    /// })
    /// .boxed_once();
    /// let observer = TestObserver::new();
    /// once.subscribe_observer(observer.clone());
    /// observer.assert_values(&["hello".to_string()]);
    /// observer.assert_completed();
    /// ```
    fn boxed_once<'a>(self) -> BoxedOnceObservable<'a, Self::Item>
    where
        Self: SendObservable<'a, <Self as Observable>::Item>,
    {
        BoxedOnceObservable::new(self)
    }

    /// Like [`boxed_local`](ObservableExt::boxed_local), for an observable that is not
    /// `Clone`: the result can be subscribed once.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use std::rc::Rc;
    ///
    /// let shared = Rc::new(String::from("hi"));
    /// let once = rx::source::create(move |mut e| { e.on_next(shared); e.on_completed(); })
    ///     .boxed_local_once();
    /// let mut seen = String::new();
    /// once.subscribe(|v: Rc<String>| seen.push_str(&v));
    /// assert_eq!(seen, "hi");
    /// ```
    fn boxed_local_once<'a>(self) -> LocalBoxedOnceObservable<'a, Self::Item>
    where
        Self: 'a + Subscribe<LocalBoxedObserver<'a, <Self as Observable>::Item>>,
        <Self as Subscribe<LocalBoxedObserver<'a, <Self as Observable>::Item>>>::Subscription: 'a,
    {
        LocalBoxedOnceObservable::new(self)
    }

    // ------------------------------------------------------------------------ transforming
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

    /// Folds the values with `f`, starting from `seed`, and emits each accumulation.
    ///
    /// The seed itself is not emitted, as in Rx.NET's `Scan` and RxJS's `scan`; RxJava's
    /// `scan(initialValue, accumulator)` and RPP's `scan(seed, ...)` emit the seed first. For
    /// that behaviour, prepend it with [`start_with(seed)`](ObservableExt::start_with). An empty
    /// source emits nothing and completes.
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
    fn scan<A, F>(self, seed: A, f: F) -> Scan<Self, A, F>
    where
        F: FnMut(A, Self::Item) -> A,
        A: Clone,
    {
        Scan::new(self, seed, f)
    }

    /// Emits each intermediate result of a fallible accumulation from `seed`, as
    /// [`scan`](ObservableExt::scan) does; the first `Err` of `f` terminates the sequence
    /// with that error, converted with `Into<Error>`.
    ///
    /// ```text
    /// source:                  -1-2-3-|
    /// try_scan(0, +):          -1-3-6-|
    /// try_scan(0, +, Err at 3): -1-3-#
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([200u8, 50, 10])
    ///     .try_scan(0u8, |total, v| total.checked_add(v).ok_or(rx::Error::msg("overflow")))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[200, 250]);
    /// observer.assert_error("overflow");
    /// ```
    ///
    /// # Errors
    ///
    /// The first `Err` `f` returns, after which the source is stopped; or the source's error.
    ///
    /// # Performance
    ///
    /// No allocation, no lock; one clone of the accumulator per value, as `scan`.
    fn try_scan<A, F, E>(self, seed: A, f: F) -> TryScan<Self, A, F>
    where
        F: FnMut(A, Self::Item) -> Result<A, E>,
        E: Into<Error>,
        A: Clone,
    {
        TryScan::new(self, seed, f)
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

    // --------------------------------------------------------------------------- filtering
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

    /// Emits the values for which a fallible predicate returns `Ok(true)`; its first `Err`
    /// terminates the sequence with that error, converted with `Into<Error>`.
    ///
    /// ```text
    /// source:                    -1-2-3-4-|
    /// try_filter(odd, Err at 3): -1---#
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["10", "3", "7", "x", "4"])
    ///     .try_filter(|s| s.parse::<i32>().map(|v| v > 5))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&["10", "7"]);
    /// observer.assert_error("invalid digit found in string");
    /// ```
    ///
    /// # Errors
    ///
    /// The first `Err` the predicate returns, after which the source is stopped; or the
    /// source's error.
    ///
    /// # Performance
    ///
    /// No allocation, no lock.
    fn try_filter<P, E>(self, predicate: P) -> TryFilter<Self, P>
    where
        P: FnMut(&Self::Item) -> Result<bool, E>,
        E: Into<Error>,
    {
        TryFilter::new(self, predicate)
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
    /// `take_last(1)` keeps the latest value in place and allocates nothing. A larger window
    /// holds up to `count` values in a ring buffer (a `VecDeque`), allocated once, on the
    /// first value, with room for all `count` (for a window above 1024 values it grows as
    /// values arrive instead), and never reallocated once full. No lock.
    fn take_last(self, count: usize) -> TakeLast<Self> {
        TakeLast::new(self, count)
    }

    /// Emits the values of this observable until `notifier` emits a value or terminates,
    /// then completes and disposes both.
    ///
    /// `notifier` is subscribed first: if it emits inside its `subscribe`, this observable is
    /// never subscribed. As in RxJava 3 and RPP, the completion of `notifier` also completes
    /// the sequence (Rx.NET and RxJS ignore it).
    ///
    /// ```text
    /// source:               -1-2-3-4-|
    /// notifier:             ------x
    /// take_until(notifier): -1-2-3|
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
    /// let ms = Duration::from_millis;
    /// let observer = TestObserver::new();
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take_until(rx::source::timer(ms(35), scheduler.clone()))
    ///     .subscribe_observer(observer.clone());
    /// scheduler.advance_by(ms(100));
    /// observer.assert_values(&[0, 1, 2]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from either is delivered once, after the other is disposed.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state) and one uncontended lock per
    /// value, as values and the notifier may race.
    #[doc(alias = "takeUntil")]
    fn take_until<'a, N>(self, notifier: N) -> TakeUntil<'a, Self, N>
    where
        N: Observable,
    {
        TakeUntil::new(self, notifier)
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

    /// Drops the values of this observable until `notifier` emits a value or completes, then
    /// emits them; the notifier is disposed at that moment.
    ///
    /// `notifier` is subscribed first. As in RxJava, the completion of `notifier` opens the
    /// gate too (Rx.NET and RxJS keep it closed). The sequence ends when this observable
    /// does.
    ///
    /// ```text
    /// source:               -1-2-3-4-|
    /// notifier:             ----x
    /// skip_until(notifier): -----3-4-|
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
    /// let ms = Duration::from_millis;
    /// let observer = TestObserver::new();
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take(5)
    ///     .skip_until(rx::source::timer(ms(25), scheduler.clone()))
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_values(&[2, 3, 4]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from either is delivered once, after the other is disposed.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state). Dropped values cost an atomic
    /// load; the others an uncontended lock, as they may race with the notifier's error.
    #[doc(alias = "skipUntil")]
    fn skip_until<'a, N>(self, notifier: N) -> SkipUntil<'a, Self, N>
    where
        N: Observable,
    {
        SkipUntil::new(self, notifier)
    }

    /// Emits the values that arrive within `span` of the subscription, then completes
    /// (RxJava's `take(time, unit, scheduler)`): a [`take_until`](ObservableExt::take_until)
    /// whose notifier is a [`timer`](crate::source::timer) of `span`, started first. A value
    /// arriving at the very instant the span ends is not emitted, as the timer, scheduled
    /// first, runs first.
    ///
    /// ```text
    /// source:              -1-2-3-4-5-|
    /// take_with_time(5):   -1-2-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::{TimedObserver};
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take_with_time(ms(25), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(10), Next(0)), (ms(20), Next(1)), (ms(25), Completed)]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// The completion at the end of the span is delivered by a timer task on a worker of
    /// `scheduler`; values on the thread they arrive on. As for the other time operators, the
    /// source's handle must be `Send` (a local subject's is refused at compile time).
    ///
    /// # Performance
    ///
    /// What [`take_until`](ObservableExt::take_until) costs, and one timer task: one
    /// allocation per subscription for the shared state, one uncontended lock per value.
    #[doc(alias = "take")]
    fn take_with_time<'a, Sch>(
        self,
        span: std::time::Duration,
        scheduler: Sch,
    ) -> TakeWithTime<'a, Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        TakeWithTime::new(self, span, scheduler)
    }

    /// Drops the values that arrive within `span` of the subscription and emits the rest
    /// (RxJava's `skip(time, unit, scheduler)`): a [`skip_until`](ObservableExt::skip_until)
    /// whose notifier is a [`timer`](crate::source::timer) of `span`, started first. A value
    /// arriving at the very instant the span ends is emitted, as the timer, scheduled first,
    /// runs first. The sequence ends when this observable does.
    ///
    /// ```text
    /// source:              -1-2-3-4-5-|
    /// skip_with_time(5):   -----3-4-5-|
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
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take(5)
    ///     .skip_with_time(ms(20), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_values(&[1, 2, 3, 4]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Scheduler
    ///
    /// Values are delivered on the thread they arrive on; the timer runs on a worker of
    /// `scheduler`. As for the other time operators, the source's handle must be `Send`.
    ///
    /// # Performance
    ///
    /// What [`skip_until`](ObservableExt::skip_until) costs, and one timer task: one
    /// allocation per subscription; values dropped cost an atomic load, the others an
    /// uncontended lock.
    #[doc(alias = "skip")]
    fn skip_with_time<'a, Sch>(
        self,
        span: std::time::Duration,
        scheduler: Sch,
    ) -> SkipWithTime<'a, Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        SkipWithTime::new(self, span, scheduler)
    }

    /// Emits, when this observable completes, the values that arrived within `span` before
    /// the completion, then completes (RxJava's `takeLast(time, unit, scheduler)`). A value
    /// exactly `span` old is kept. An error drops the values and passes at once.
    ///
    /// The span is measured back from the completion, read from `scheduler`'s clock once.
    /// RxJava's `takeLast(count, time)` is `take_last_with_time(span, s).take_last(count)`.
    ///
    /// ```text
    /// source:                   -1-2-3-4-5-|
    /// take_last_with_time(4):   -----------(45|)
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
    /// // Values at 10, 20, ..., 50; the completion at 50 keeps those from 30 on.
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take(5)
    ///     .take_last_with_time(ms(20), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_values(&[2, 3, 4]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Scheduler
    ///
    /// Only the scheduler's clock is read; nothing is scheduled, and everything is delivered
    /// on the thread that completes.
    ///
    /// # Performance
    ///
    /// No lock, no task: a clock read per value, and the values of the last `span` with their
    /// instants in a `VecDeque`, which grows with the number of values one span holds; older
    /// values are dropped as new ones arrive.
    #[doc(alias = "takeLast")]
    fn take_last_with_time<Sch>(
        self,
        span: std::time::Duration,
        scheduler: Sch,
    ) -> TakeLastWithTime<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        TakeLastWithTime::new(self, span, scheduler)
    }

    /// Drops the values that arrive within `span` before this observable completes (RxJava's
    /// `skipLast(time, unit, scheduler)`). A value is emitted at the first notification that
    /// comes `span` or more after it, as only then is it known not to be among the last; at
    /// completion those old enough go, the rest are dropped. An error drops what waits and
    /// passes at once.
    ///
    /// ```text
    /// source:                   -1-2-3-4-5-|
    /// skip_last_with_time(4):   -----1-2-3-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::{TimedObserver};
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take(4)
    ///     .skip_last_with_time(ms(20), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(30), Next(0)), (ms(40), Next(1)), (ms(40), Completed)]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// Only the scheduler's clock is read: a value waits for the next notification, not for a
    /// timer, as in RxJava. Everything is delivered on the thread of that notification.
    ///
    /// # Performance
    ///
    /// No lock, no task: a clock read per value, and the values of the last `span` with their
    /// instants in a `VecDeque`, which grows with the number of values one span holds.
    #[doc(alias = "skipLast")]
    fn skip_last_with_time<Sch>(
        self,
        span: std::time::Duration,
        scheduler: Sch,
    ) -> SkipLastWithTime<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        SkipLastWithTime::new(self, span, scheduler)
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

    /// Emits the first value for which `predicate` returns `true`, then completes; completes
    /// without a value when none does (RxJS's `find`, which emits `undefined` instead).
    ///
    /// ```text
    /// source:          -1-2-3-4-|
    /// find(|v| v > 2): -----(3|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..).find(|v| v * v > 50).subscribe_observer(observer.clone());
    /// observer.assert_values(&[8]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// No allocation, no lock; the source is stopped at the match.
    fn find<P>(self, predicate: P) -> Find<Self, P>
    where
        P: FnMut(&Self::Item) -> bool,
    {
        Find::new(self, predicate)
    }

    /// Emits the only value of the source when it completes; fails with
    /// [`NoElements`](crate::operators::NoElements) when it is empty, and with
    /// [`TooManyElements`](crate::operators::TooManyElements) as soon as a second value
    /// arrives, stopping the source (RxJava's `singleOrError`, RxJS's `single`).
    ///
    /// ```text
    /// source:    -1-|        -1-2-|
    /// single():  ---(1|)     ---#
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::just(5).single().subscribe_observer(observer.clone());
    /// observer.assert_values(&[5]);
    /// observer.assert_completed();
    ///
    /// let two = TestObserver::new();
    /// rx::source::from_iter([1, 2]).single().subscribe_observer(two.clone());
    /// two.assert_values(&[]);
    /// assert!(two.error().unwrap().is::<rx::operators::TooManyElements>());
    /// ```
    ///
    /// # Errors
    ///
    /// `NoElements`, `TooManyElements`, or the source's error.
    ///
    /// # Performance
    ///
    /// No allocation, no lock; the value is held until completion.
    #[doc(alias = "singleOrError")]
    fn single(self) -> Single<Self> {
        Single::new(self)
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

    /// Emits the source's values or, if it completes without emitting any, those of `other`,
    /// which is subscribed then (RxJava's `switchIfEmpty`; RxJS has only
    /// [`defaultIfEmpty`](ObservableExt::default_if_empty)).
    ///
    /// `other` is subscribed on the thread the completion arrives on. The returned handle
    /// disposes whichever of the two is running.
    ///
    /// ```text
    /// source:                  -1-2-|    ---|
    /// other:                              -7-8-|
    /// switch_if_empty(other):  -1-2-|    ----7-8-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(1..10)
    ///     .filter(|v| *v > 100)
    ///     .switch_if_empty(rx::source::from_iter([7, 8]))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[7, 8]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// The source's error (then `other` is not subscribed), or `other`'s.
    ///
    /// # Performance
    ///
    /// One small allocation per subscription (the slot that hands `other`'s handle to the
    /// returned one); values pass through with no lock. A source that completes empty inside
    /// `subscribe`, on the subscribing thread, hands `other`'s handle back with no lock; one
    /// that completes later takes a lock.
    #[doc(alias = "switchIfEmpty")]
    fn switch_if_empty<S>(self, other: S) -> SwitchIfEmpty<Self, S>
    where
        S: Observable<Item = Self::Item>,
    {
        SwitchIfEmpty::new(self, other)
    }

    // --------------------------------------------- rate limiting, by time or by a notifier
    /// Emits a value only once `timeout` has passed without another value after it; a value
    /// followed sooner by another is dropped. On completion the value still waiting is
    /// emitted at once, then the completion; an error drops it.
    ///
    /// ```text
    /// source:        -a-b-----c--d------|
    /// debounce(3):   ------b--------d---|
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
    /// cold(&scheduler, [(ms(0), Next("r")), (ms(10), Next("rx")), (ms(200), Completed)])
    ///     .debounce(ms(50), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// // "r" was followed within 50 ms; "rx" was not.
    /// observer.assert_timeline(&[(ms(60), Next("rx")), (ms(200), Completed)]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// The value is delivered by a timer task on a worker of `scheduler`; the completion and
    /// an error on the thread that reports them, unless a delivery is under way, which then
    /// delivers them.
    ///
    /// It must be one that queues tasks ([`DeferringScheduler`](crate::schedulers::DeferringScheduler)):
    /// on [`Immediate`](crate::schedulers::Immediate) the timer would sleep inside `on_next`
    /// and every value would go through, so it does not compile.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the shared state, and a lock per value. One timer
    /// task serves a whole burst of values: a value arriving while it waits moves its
    /// deadline, and the task, waking early, sleeps again until it. A task is scheduled (an
    /// allocation in the scheduler) only for the first value after a quiet period, not for
    /// every value.
    #[doc(alias = "debounceTime")]
    #[doc(alias = "throttleWithTimeout")]
    fn debounce<Sch>(self, timeout: std::time::Duration, scheduler: Sch) -> Debounce<Self, Sch>
    where
        Sch: crate::schedulers::DeferringScheduler,
    {
        Debounce::new(self, timeout, scheduler)
    }

    /// Emits a value only once the observable `selector` returns for it emits, unless another
    /// value has come first (RxJS's `debounce`, RxJava's `debounce(Function)`): the form of
    /// [`debounce`](ObservableExt::debounce) where each value chooses its own silence. Each
    /// value disposes the duration of the value it replaces; a duration is disposed after its
    /// first value, and one that completes without a value emits nothing. The completion
    /// emits the value still waiting, then completes.
    ///
    /// ```text
    /// source:              -a--bc--d---|
    /// durations:            --x  --x-x--
    /// debounce_with:       ---a-----c--d|
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
    /// let s = scheduler.clone();
    /// // Each value is a number of milliseconds to stay quiet for.
    /// cold(&scheduler, [(ms(0), Next(30)), (ms(10), Next(5)), (ms(50), Completed)])
    ///     .debounce_with(move |quiet| rx::source::timer(ms(*quiet), s.clone()))
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(15), Next(5)), (ms(50), Completed)]);
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source or from a duration is delivered once, after the other is
    /// disposed; the value waiting is dropped.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state); per value, the duration's
    /// subscription and one uncontended lock (two when the duration fires).
    #[doc(alias = "debounce")]
    fn debounce_with<'a, F, D>(self, selector: F) -> DebounceWith<'a, Self, F>
    where
        F: FnMut(&Self::Item) -> D,
        D: Observable,
    {
        DebounceWith::new(self, selector)
    }

    /// Emits the first value, then drops every value that arrives in the `window` after it,
    /// one arriving exactly as the window ends included; the first value after the window
    /// emits and opens the next one (RxJava's `throttleFirst`, RxJS's `throttleTime`). Errors
    /// and completion pass at once. [`throttle_with`](ObservableExt::throttle_with) also
    /// emits the last value of each window.
    ///
    /// ```text
    /// source:         -a-b-c---d-e-f-|
    /// throttle(5):    -a-------d-----|
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
    /// previous emitted value opened has ended before it, which is what a timer reopening the
    /// gate would do, without one. Nothing is scheduled and values are delivered on the thread they
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

    /// Emits the first value of each `window` and, with `config.trailing`, the last value of
    /// the window when it ends, RxJS's `throttleTime(window, scheduler, config)`. A value opens
    /// a window when none is open; a trailing emission opens the next one at once, so values
    /// keep being emitted at most once per `window`. With `config.leading` off, the value that
    /// opens a window is not emitted but held as its trailing value.
    ///
    /// Completion waits for a trailing value still held to be emitted at its window's end;
    /// an error passes at once and drops it.
    ///
    /// ```text
    /// source:                       -a-xy-----b--x--cxxx--|
    /// throttle_with(4, lead+trail): -a---y----b---x---x---(x|)
    /// throttle_with(4, trail):      -----y--------x---x---(x|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::operators::ThrottleConfig;
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::{cold, TimedObserver};
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// let config = ThrottleConfig { leading: true, trailing: true };
    /// cold(&scheduler, [(ms(0), Next('a')), (ms(5), Next('b')), (ms(8), Next('c')), (ms(30), Completed)])
    ///     .throttle_with(ms(10), config, scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(0), Next('a')), (ms(10), Next('c')), (ms(30), Completed)]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// Leading values are delivered on the thread they arrive on; trailing values, and a
    /// completion that waited for one, by a task on a worker of `scheduler`.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the shared state, and a lock per value. One timer
    /// task per run of windows: a trailing emission reschedules it for the next window without
    /// allocating.
    #[doc(alias = "throttleTime")]
    fn throttle_with<Sch>(
        self,
        window: std::time::Duration,
        config: ThrottleConfig,
        scheduler: Sch,
    ) -> ThrottleWith<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        ThrottleWith::new(self, window, config, scheduler)
    }

    /// Ignores values for a while after each one that finds no window open, then emits the
    /// latest (RxJS's `auditTime`): a value opens a window of `window`; when it ends, the
    /// latest value of the window is emitted, and the next value opens the next window.
    /// Where [`throttle`](ObservableExt::throttle) keeps a window's first value, `audit`
    /// keeps its last.
    ///
    /// Completion waits for an open window to end and emit its value; an error passes at
    /// once and drops it.
    ///
    /// ```text
    /// source:    -a-x-y----b---x-cx---|
    /// audit(5):  ------y--------x-----(x|)
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
    /// cold(&scheduler, [(ms(0), Next('a')), (ms(5), Next('b')), (ms(30), Next('c')), (ms(35), Completed)])
    ///     .audit(ms(10), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(10), Next('b')), (ms(40), Next('c')), (ms(40), Completed)]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// Values, and a completion that waited for one, are delivered by a task on a worker of
    /// `scheduler`; errors and other completions on the thread that reports them, unless a
    /// delivery is under way, which then delivers them.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the shared state, a lock per value, and one timer
    /// task per window.
    #[doc(alias = "auditTime")]
    fn audit<Sch>(self, window: std::time::Duration, scheduler: Sch) -> Audit<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        Audit::new(self, window, scheduler)
    }

    /// Emits the latest value when the observable that `selector` returns for the value that
    /// opened the window emits (RxJS's `audit(durationSelector)`): the form of
    /// [`audit`](ObservableExt::audit) where each window chooses its own length. A value that
    /// finds no window open opens one; the duration is disposed after its first value. A
    /// duration that completes without a value ends the window without emitting, and its
    /// value waits for the next window.
    ///
    /// Completion waits for an open window to end and emit its value; an error passes at
    /// once and drops it.
    ///
    /// ```text
    /// source:      -a-xy-----b--x--cxyz-|
    /// durations:    ----i     ----i ----i
    /// audit_with:  -----y--------x-----z|
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
    /// let s = scheduler.clone();
    /// // Each value that opens a window says how long it lasts, in milliseconds.
    /// cold(&scheduler, [(ms(0), Next(30)), (ms(10), Next(5)), (ms(40), Next(10)), (ms(45), Completed)])
    ///     .audit_with(move |length| rx::source::timer(ms(*length), s.clone()))
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(30), Next(5)), (ms(50), Next(10)), (ms(50), Completed)]);
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source or from a duration is delivered once, after the other is
    /// disposed; the value waiting is dropped.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state); one uncontended lock per value,
    /// two for the value that opens a window, and the duration's subscription per window.
    #[doc(alias = "audit")]
    fn audit_with<'a, F, D>(self, selector: F) -> AuditWith<'a, Self, F>
    where
        F: FnMut(&Self::Item) -> D,
        D: Observable,
    {
        AuditWith::new(self, selector)
    }

    /// Emits the first value of each window and, with `config.trailing`, its last value when
    /// it ends, a window lasting until the observable that `selector` returns for the value
    /// that opened it emits (RxJS's `throttle(durationSelector, config)`): the form of
    /// [`throttle_with`](ObservableExt::throttle_with) where each window chooses its own
    /// length. A trailing emission opens the next window at once. The duration is disposed
    /// after its first value; one that completes without a value ends the window without
    /// emitting.
    ///
    /// Completion waits for a trailing value still held to be emitted at its window's end;
    /// an error passes at once and drops it.
    ///
    /// ```text
    /// source:                 -a-xy-----b--x--cxyz-|
    /// durations:               ----i     ----i ----i
    /// throttle_when(leading): -a--------b-----c----|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::operators::ThrottleConfig;
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::{cold, TimedObserver};
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// let s = scheduler.clone();
    /// // Each value that opens a window says how long it lasts, in milliseconds.
    /// cold(&scheduler, [(ms(0), Next(30)), (ms(10), Next(5)), (ms(40), Next(10)), (ms(45), Completed)])
    ///     .throttle_when(move |length| rx::source::timer(ms(*length), s.clone()), ThrottleConfig::default())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(0), Next(30)), (ms(40), Next(10)), (ms(45), Completed)]);
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source or from a duration is delivered once, after the other is
    /// disposed; a trailing value waiting is dropped.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state, the selector in it); one
    /// uncontended lock per value, two for a value that opens a window, and the duration's
    /// subscription per window.
    #[doc(alias = "throttle")]
    fn throttle_when<'a, F, D>(
        self,
        selector: F,
        config: ThrottleConfig,
    ) -> ThrottleWhen<'a, Self, F>
    where
        F: FnMut(&Self::Item) -> D,
        D: Observable,
    {
        ThrottleWhen::new(self, selector, config)
    }

    /// Emits, at each tick of a `period` clock started at the subscription, the latest value
    /// if one arrived since the previous tick. On completion the value not sampled yet is
    /// dropped and the completion passes at once, as RxJava's `sample` does by default (Rx.NET
    /// emits it at the next tick instead); an error passes at once.
    ///
    /// ```text
    /// source:      -a-b---c-------d-|
    /// sample(4):   ----b---c-------d|
    /// ticks:       ----^---^---^---^
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
    /// // A value every 10 ms, sampled every 25 ms.
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .sample(ms(25), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.advance_by(ms(100));
    /// observer.assert_values(&[1, 3, 6, 8]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// Values are delivered by one periodic task on a worker of `scheduler`, which starts at
    /// the subscription; completion and errors on the thread that reports them, unless a
    /// delivery is under way, which then delivers them.
    ///
    /// It must be one that queues tasks ([`DeferringScheduler`](crate::schedulers::DeferringScheduler)):
    /// on [`Immediate`](crate::schedulers::Immediate) the periodic task would run inline, on
    /// the subscribing thread, for ever, so it does not compile.
    ///
    /// # Panics
    ///
    /// When `period` is zero.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the shared state and one periodic task, which
    /// reschedules itself without allocating. A lock per value.
    #[doc(alias = "sampleTime")]
    #[doc(alias = "throttleLast")]
    fn sample<Sch>(self, period: std::time::Duration, scheduler: Sch) -> Sample<Self, Sch>
    where
        Sch: crate::schedulers::DeferringScheduler,
    {
        Sample::new(self, period, scheduler)
    }

    /// Emits the latest value of this observable each time `notifier` emits, if a new one
    /// arrived since the previous emission (RxJS's `sample`, RxJava's `sample(ObservableSource)`).
    /// The completion of `notifier` stops the sampling; this observable's completion ends the
    /// sequence and drops a value not sampled yet.
    ///
    /// ```text
    /// source:                ---a----b---c----------d-----|
    /// notifier:              -----x----------x---x------x---|
    /// sample_with(notifier): -----a----------c----------d-|
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
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take(6)
    ///     .sample_with(rx::source::interval(ms(23), scheduler.clone()).take(2))
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// // At 23 the latest is the value of 20; at 46, the value of 40.
    /// observer.assert_values(&[1, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from either is delivered once, after the other is disposed.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state) and one uncontended lock per value
    /// and per notification, as the two may race.
    #[doc(alias = "sample")]
    #[doc(alias = "throttleLast")]
    fn sample_with<'a, N>(self, notifier: N) -> SampleWith<'a, Self, N>
    where
        N: Observable,
    {
        SampleWith::new(self, notifier)
    }

    // --------------------------------------------------------- buffers, windows and groups
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

    /// Collects the values of this observable and emits them as a `Vec` each time `notifier`
    /// emits, an empty one if none arrived (RxJS's `buffer`, RxJava's
    /// `buffer(ObservableSource)`). This observable's completion emits what was collected
    /// since, even nothing, then completes; the completion of `notifier` only stops the
    /// buffers from closing.
    ///
    /// ```text
    /// source:                -a-b-c-d-e-f-g-h-i-|
    /// notifier:              -----B-----B-----B-|
    /// buffer_with(notifier): -----x-----y-----z-(F|)
    ///   x = [a, b, c], y = [d, e, f], z = [g, h, i], F = []
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
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take(5)
    ///     .buffer_with(rx::source::interval(ms(23), scheduler.clone()))
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_values(&[vec![0, 1], vec![2, 3], vec![4]]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from either is delivered once, after the other is disposed; the values
    /// collected are dropped.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state), the buffers' `Vec`s as they fill,
    /// and one uncontended lock per value and per notification, as the two may race.
    #[doc(alias = "buffer")]
    fn buffer_with<'a, N>(self, notifier: N) -> BufferWith<'a, Self, N>
    where
        N: Observable,
    {
        BufferWith::new(self, notifier)
    }

    /// Collects the values into a `Vec` until the closing notifier emits, then emits it and
    /// asks `closings` for the next notifier (RxJS's `bufferWhen`, RxJava's
    /// `buffer(Supplier)`): consecutive buffers, each as long as its own notifier says. The
    /// first notifier is subscribed before this observable; each is disposed after its first
    /// value. A notifier that completes without a value closes nothing (RxJS 7): the buffer
    /// fills until this observable ends. Its completion emits the buffer being filled, even
    /// empty, then completes.
    ///
    /// ```text
    /// source:       --a--b--c--d--e--|
    /// closings:     -------x
    ///                      -------x
    /// buffer_when:  -------[ab]---[cd]--([e]|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TimedObserver;
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// let s = scheduler.clone();
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take(4)
    ///     .buffer_when(move || rx::source::timer(ms(25), s.clone()))
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[
    ///     (ms(25), Next(vec![0, 1])),
    ///     (ms(40), Next(vec![2, 3])),
    ///     (ms(40), Completed),
    /// ]);
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source or from a notifier is delivered once, after the other is
    /// disposed; the buffer is dropped.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state); one uncontended lock per value;
    /// per buffer, the `Vec` and the notifier's subscription.
    #[doc(alias = "bufferWhen")]
    fn buffer_when<'a, F, N>(self, closings: F) -> BufferWhen<'a, Self, F>
    where
        F: FnMut() -> N,
        N: Observable,
    {
        BufferWhen::new(self, closings)
    }

    /// Collects the values into buffers that may overlap: each value of `openings` opens a
    /// buffer, and the first value of the notifier that `closings` returns for it closes and
    /// emits it (RxJS's `bufferToggle`, RxJava's `buffer(openingIndicator,
    /// closingIndicator)`). A value goes into every buffer open when it arrives, hence
    /// `Clone`. A notifier that completes without a value closes nothing (RxJS 7). The
    /// completion of this observable emits the open buffers, oldest first, then completes.
    ///
    /// ```text
    /// source:        -a-b-c-d-e-f-|
    /// openings:      --o-----o----
    /// closings:        -----x  -------x
    /// buffer_toggle: -------[bc]-----([ef]|)
    /// ```
    ///
    /// `openings` is subscribed first, then this observable.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TimedObserver;
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// let s = scheduler.clone();
    /// // A value every 5 ms; a buffer opens every 20 ms and stays open for 15.
    /// rx::source::interval(ms(5), scheduler.clone())
    ///     .take(10)
    ///     .buffer_toggle(rx::source::interval(ms(20), scheduler.clone()), move |_| {
    ///         rx::source::timer(ms(15), s.clone())
    ///     })
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// // [20, 35) holds the values of 20, 25 and 30; [40, 55) is cut short at 50.
    /// observer.assert_timeline(&[
    ///     (ms(35), Next(vec![3, 4, 5])),
    ///     (ms(50), Next(vec![7, 8, 9])),
    ///     (ms(50), Completed),
    /// ]);
    /// ```
    ///
    /// # Errors
    ///
    /// An error from this observable, the openings or a notifier is delivered once, after
    /// the others are disposed; the buffers are dropped.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state); per value, one uncontended lock
    /// and a clone for each open buffer but one; per buffer, the `Vec` and the notifier's
    /// subscription.
    #[doc(alias = "bufferToggle")]
    fn buffer_toggle<'a, P, F, C>(self, openings: P, closings: F) -> BufferToggle<'a, Self, P, F>
    where
        P: Observable,
        F: FnMut(&P::Item) -> C,
        C: Observable,
        Self::Item: Clone,
    {
        BufferToggle::new(self, openings, closings)
    }

    /// Collects the values of each consecutive `window`, starting at the subscription, into a
    /// `Vec`, emitted when the window ends, empty if no value arrived. On completion the
    /// window under way is emitted, then the completion; an error drops it.
    ///
    /// ```text
    /// source:                -a-b---c-------|
    /// buffer_with_time(4):   ----x---y---z--(w|)
    ///
    /// x = [a, b], y = [c], z = w = []
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
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take(5)
    ///     .buffer_with_time(ms(25), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_values(&[vec![0, 1], vec![2, 3], vec![4]]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Scheduler
    ///
    /// Windows are emitted by one periodic task on a worker of `scheduler`; the last one and
    /// the completion, and errors, on the thread that reports them, unless a delivery is under
    /// way, which then delivers them.
    ///
    /// It must be one that queues tasks ([`DeferringScheduler`](crate::schedulers::DeferringScheduler)):
    /// on [`Immediate`](crate::schedulers::Immediate) the periodic task would run inline, on
    /// the subscribing thread, for ever, so it does not compile.
    ///
    /// # Panics
    ///
    /// When `window` is zero.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the shared state and one periodic task, which
    /// reschedules itself without allocating; each window's `Vec` allocates as it fills. A
    /// lock per value.
    #[doc(alias = "bufferTime")]
    fn buffer_with_time<Sch>(
        self,
        window: std::time::Duration,
        scheduler: Sch,
    ) -> BufferWithTime<Self, Sch>
    where
        Sch: crate::schedulers::DeferringScheduler,
    {
        BufferWithTime::new(self, window, scheduler)
    }

    /// Collects values into a `Vec` and emits it when `window` has passed or when it holds
    /// `count` values, whichever comes first; a buffer closed by its count starts the next
    /// window at once (RxJS's `bufferTime(window, null, count)`, Rx.NET's
    /// `Buffer(timeSpan, count)`). Windows that end with no value emit an empty `Vec`, and the
    /// completion emits the buffer under way, even empty.
    ///
    /// ```text
    /// source:                             ---a---b---c---d---e---f---g-----|
    /// buffer_with_time_or_count(10, 3):   ----------w--------x---------y---(z|)
    ///   w = [a, b], x = [c, d, e], y = [f, g], z = []
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
    /// // Three values at once, then one at 10.
    /// rx::source::from_iter([1, 2, 3])
    ///     .concat_with(rx::source::timer(ms(10), scheduler.clone()).map(|_| 4))
    ///     .buffer_with_time_or_count(ms(50), 2, scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_values(&[vec![1, 2], vec![3, 4], vec![]]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Scheduler
    ///
    /// Buffers closed by time are emitted by one task on a worker of `scheduler`; buffers
    /// closed by count, the last one and the completion, and errors, on the thread that
    /// reports them, unless a delivery is under way, which then delivers them.
    ///
    /// The scheduler must queue tasks
    /// ([`DeferringScheduler`](crate::schedulers::DeferringScheduler)): on
    /// [`Immediate`](crate::schedulers::Immediate) the timer task would run inline, on the
    /// subscribing thread, for ever, so it does not compile.
    ///
    /// # Panics
    ///
    /// When `window` or `count` is zero.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the shared state and one timer task, which a count
    /// flush does not replace: it moves the deadline the task sleeps until. Each buffer's
    /// `Vec` allocates as it fills. A lock per value.
    #[doc(alias = "bufferTime")]
    #[doc(alias = "bufferWithTimeOrCount")]
    fn buffer_with_time_or_count<Sch>(
        self,
        window: std::time::Duration,
        count: usize,
        scheduler: Sch,
    ) -> BufferWithTimeOrCount<Self, Sch>
    where
        Sch: crate::schedulers::DeferringScheduler,
    {
        BufferWithTimeOrCount::new(self, window, count, scheduler)
    }

    /// Collects the values into buffers of `span` each, a buffer opening every `shift` from
    /// the subscription on (RxJava's `buffer(timespan, timeskip)`, RxJS's `bufferTime(span,
    /// creationInterval)`): they overlap when `shift` is shorter than `span`, and leave gaps
    /// when it is longer. A value goes into every buffer open when it arrives, hence `Clone`.
    /// On completion the open buffers are emitted, oldest first, even empty; an error drops
    /// them and passes.
    ///
    /// ```text
    /// source:                       -1-2-3-4-5-6|
    /// buffer_with_time_skip(6, 4):  ------[12]--[345]([56]|)
    /// buffers:                      [-----)
    ///                                   [-----)
    ///                                       [-----)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TimedObserver;
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// // Buffers of 30 ms, one opening every 20 ms: [0, 30), [20, 50), [40, 70).
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take(6)
    ///     .buffer_with_time_skip(ms(30), ms(20), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[
    ///     (ms(30), Next(vec![0, 1])),
    ///     (ms(50), Next(vec![1, 2, 3])),
    ///     (ms(60), Next(vec![3, 4, 5])),
    ///     (ms(60), Next(vec![5])),
    ///     (ms(60), Completed),
    /// ]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// Buffers are delivered by one task on a worker of `scheduler`, which runs at each
    /// opening and closing; the last ones and the completion on the thread that completes,
    /// unless a delivery is under way, which then delivers them. It must be one that queues
    /// tasks ([`DeferringScheduler`](crate::schedulers::DeferringScheduler)). As for the other
    /// time operators, the source's handle must be `Send`.
    ///
    /// # Panics
    ///
    /// When `span` or `shift` is zero.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the shared state and one task, which reschedules
    /// itself without allocating. Per value, a lock and a clone for each open buffer but one;
    /// per buffer, its `Vec`.
    #[doc(alias = "bufferTime")]
    #[doc(alias = "buffer")]
    fn buffer_with_time_skip<Sch>(
        self,
        span: std::time::Duration,
        shift: std::time::Duration,
        scheduler: Sch,
    ) -> BufferWithTimeSkip<Self, Sch>
    where
        Sch: crate::schedulers::DeferringScheduler,
        Self::Item: Clone,
    {
        BufferWithTimeSkip::new(self, span, shift, scheduler)
    }

    /// Splits this observable into inner observables of `count` consecutive values each, as
    /// [`WindowedObservable`]s (RxJS's `windowCount`, RxJava's `window(count)`).
    ///
    /// The first window opens on subscription; a window completes after its `count`-th
    /// value, and the next one opens at once. The last window may be shorter, and completes
    /// (or fails) when this observable does, before the outer observer is told. So, as in
    /// RxJS and Rx.NET, an empty source gives one empty window, and a length that is a
    /// multiple of `count` ends with an empty one (RxJava opens a window with the value that
    /// goes into it instead).
    ///
    /// Each window accepts a single subscriber, which must subscribe during the `on_next`
    /// call that delivers the window — as [`flat_map`](ObservableExt::flat_map) and friends
    /// do. A window not subscribed by then is *abandoned*: it completes empty, and the
    /// values meant for it are dropped, so the windows after it keep their boundaries. A
    /// second subscriber receives an error. The windows have this observable's
    /// [flavour](crate::sync::Flavour): over a thread-safe source their subscribers must be
    /// `Send`, as a window's values may come from any thread; over a local subject or a
    /// `boxed_local()` source they may hold `Rc`.
    ///
    /// ```text
    /// source:     -1-2-3-4-5-|
    /// window(2):  a--b---c---|
    ///   a:        -1-2|
    ///   b:           --3-4|
    ///   c:               --5-|
    /// ```
    ///
    /// Disposing the returned handle (or the outer observer losing interest) stops new
    /// windows; the open window keeps its values until it ends or is disposed, and then this
    /// observable is disposed.
    ///
    /// [`WindowedObservable`]: crate::operators::WindowedObservable
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use std::sync::{Arc, Mutex};
    ///
    /// let windows = Arc::new(Mutex::new(Vec::new()));
    /// let w = windows.clone();
    /// rx::source::from_iter(1..=5).window(2).subscribe(move |window| {
    ///     let w = w.clone();
    ///     let index = { let mut w = w.lock().unwrap(); w.push(Vec::new()); w.len() - 1 };
    ///     window.subscribe(move |v| w.lock().unwrap()[index].push(v));
    /// });
    /// assert_eq!(*windows.lock().unwrap(), [vec![1, 2], vec![3, 4], vec![5]]);
    /// ```
    ///
    /// # Errors
    ///
    /// An error from this observable reaches the open window, then the outer observer.
    ///
    /// # Panics
    ///
    /// If `count` is zero.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared reference count), and two per window (its
    /// state and its boxed subscriber). Each value takes one uncontended lock on its window;
    /// delivery to the subscriber is a virtual call.
    #[doc(alias = "windowCount")]
    fn window<'a>(self, count: usize) -> Window<'a, Self> {
        Window::new(self, count)
    }

    /// Splits this observable into windows of `count` values each, opening a new one every
    /// `skip` values: windows overlap when `skip < count`, and values between windows are
    /// dropped when `skip > count` (RxJava's `window(count, skip)`, RxJS's
    /// `windowCount(count, skip)`). Each window is a [`WindowedObservable`], with the rules
    /// of [`window`](ObservableExt::window): a single subscriber, which must subscribe during
    /// the `on_next` call that delivers it, or the window is abandoned and completes empty.
    ///
    /// ```text
    /// source:                 -1-2-3-4-|
    /// window_with_skip(2, 1): ab-c-d-e-|
    ///   a:                    -1-2|
    ///   b:                     --2-3|
    ///   c:                       --3-4|
    ///   d:                         --4-|
    ///   e:                           --|
    /// ```
    ///
    /// The first window opens on subscription and another after every `skip`-th value, as in
    /// RxJS and Rx.NET (RxJava opens windows with the values that go into them): so an empty
    /// source gives one empty window, and the window that opens after the last value
    /// completes empty.
    ///
    /// [`WindowedObservable`]: crate::operators::WindowedObservable
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use std::sync::{Arc, Mutex};
    ///
    /// let windows = Arc::new(Mutex::new(Vec::new()));
    /// let w = windows.clone();
    /// rx::source::from_iter(1..=4)
    ///     .window_with_skip(3, 1)
    ///     .flat_map(|window| window.to_vec())
    ///     .subscribe(move |window| w.lock().unwrap().push(window));
    /// // Each window is emitted by `to_vec` when it completes.
    /// assert_eq!(
    ///     *windows.lock().unwrap(),
    ///     [vec![1, 2, 3], vec![2, 3, 4], vec![3, 4], vec![4], vec![]]
    /// );
    /// ```
    ///
    /// # Errors
    ///
    /// An error from this observable reaches every open window, then the outer observer.
    ///
    /// # Panics
    ///
    /// If `count` or `skip` is zero.
    ///
    /// # Performance
    ///
    /// As [`window`](ObservableExt::window), and each value is cloned into every open window
    /// but the newest.
    #[doc(alias = "windowCount")]
    fn window_with_skip<'a>(self, count: usize, skip: usize) -> WindowWithSkip<'a, Self>
    where
        Self::Item: Clone,
    {
        WindowWithSkip::new(self, count, skip)
    }

    /// Splits this observable into consecutive windows of `span` each, as
    /// [`WindowedObservable`]s: the first opens on subscription, and each span that passes
    /// completes the current window and opens the next, empty or not (RxJS's `windowTime`,
    /// RxJava's `window(timespan)`). The completion of this observable completes the current
    /// window, then the outer observer; an error fails both.
    ///
    /// The rules of [`window`](ObservableExt::window) hold: a single subscriber per window,
    /// which must subscribe during the `on_next` call that delivers it, or the window is
    /// abandoned and completes empty (its values until the next span go nowhere).
    ///
    /// ```text
    /// source:                -1-2---3-4--|
    /// window_with_time(5):   a----b----c-|
    ///   a:                   -1-2-|
    ///   b:                        -3-4|
    ///   c:                             --|
    /// ```
    ///
    /// [`WindowedObservable`]: crate::operators::WindowedObservable
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
    /// rx::source::interval(ms(10), scheduler.clone())
    ///     .take(5)
    ///     .window_with_time(ms(25), scheduler.clone())
    ///     .flat_map(|window| window.to_vec())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_values(&[vec![0, 1], vec![2, 3], vec![4]]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Scheduler
    ///
    /// Windows open and close from one periodic task on a worker of `scheduler`; values, the
    /// completion and errors are handed on by whichever thread finds the operator idle, one
    /// at a time, in order. So the source must be thread-safe, and the windows are of the
    /// [`Shared`](crate::sync::Shared) flavour (see
    /// [`WindowWithTime`](crate::operators::WindowWithTime)).
    ///
    /// It must be one that queues tasks ([`DeferringScheduler`](crate::schedulers::DeferringScheduler)):
    /// on [`Immediate`](crate::schedulers::Immediate) the periodic task would run inline, on
    /// the subscribing thread, for ever, so it does not compile.
    ///
    /// # Panics
    ///
    /// When `span` is zero.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the shared state, one periodic task that
    /// reschedules itself without allocating, and two allocations per window (its state and
    /// its boxed subscriber). A lock per value, on top of the window's own.
    #[doc(alias = "windowTime")]
    fn window_with_time<Sch>(
        self,
        span: std::time::Duration,
        scheduler: Sch,
    ) -> WindowWithTime<Self, Sch>
    where
        Sch: crate::schedulers::DeferringScheduler,
    {
        WindowWithTime::new(self, span, scheduler)
    }

    /// Splits this observable into one inner observable per key, a [`GroupedObservable`]
    /// emitted when its key first appears, which emits the values with that key (RxJava's
    /// and RxJS's `groupBy`).
    ///
    /// `key` is called once per value. The groups complete (or fail) when this observable
    /// does, before the outer observer is told.
    ///
    /// Each group accepts a single subscriber, which must subscribe during the `on_next`
    /// call that delivers the group — as [`flat_map`](ObservableExt::flat_map) and friends
    /// do. A group not subscribed by then is *abandoned* (as in RxJava 3): it keeps the one
    /// value that opened it, for a late subscriber, and completes, and the next value with
    /// its key opens a new group. So no group buffers more than that one value for nobody.
    /// A second subscriber receives an error. A group whose subscriber disposes it is
    /// forgotten: the next value with its key opens a new group. Group subscribers must be
    /// `Send`, as a group's values may come from any thread.
    ///
    /// ```text
    /// source:             -1-2-3-4-5-|
    /// group_by(odd):      -a-b-------|
    ///   a (key true):      1---3---5-|
    ///   b (key false):       2---4---|
    /// ```
    ///
    /// Disposing the returned handle (or the outer observer losing interest) stops new
    /// groups; values for keys with no open group are then dropped, while open groups keep
    /// receiving theirs. This observable is disposed once the outer observer and every group
    /// are done.
    ///
    /// [`GroupedObservable`]: crate::operators::GroupedObservable
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use std::sync::{Arc, Mutex};
    ///
    /// let groups = Arc::new(Mutex::new(Vec::new()));
    /// let g = groups.clone();
    /// rx::source::from_iter(1..=6)
    ///     .group_by(|v| v % 3)
    ///     .subscribe(move |group| {
    ///         let key = *group.key();
    ///         let g = g.clone();
    ///         group.subscribe(move |v| g.lock().unwrap().push((key, v)));
    ///     });
    /// assert_eq!(
    ///     *groups.lock().unwrap(),
    ///     [(1, 1), (2, 2), (0, 3), (1, 4), (2, 5), (0, 6)]
    /// );
    /// ```
    ///
    /// # Errors
    ///
    /// An error from this observable reaches every open group, then the outer observer.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared reference count), and per group one for
    /// its state, one for its boxed subscriber, and a clone of the key for the map. Each value
    /// takes a hash lookup and one uncontended lock on its group; delivery to the subscriber
    /// is a virtual call.
    #[doc(alias = "groupBy")]
    fn group_by<'a, K, F>(self, key: F) -> GroupBy<'a, Self, F>
    where
        F: FnMut(&Self::Item) -> K,
        K: Clone + Eq + std::hash::Hash,
    {
        GroupBy::new(self, key)
    }

    /// Like [`group_by`](ObservableExt::group_by), with groups of the elements `element`
    /// makes from the values: `key` sees each value, `element` then takes it (RxJS's
    /// `groupBy(key, { element })`, RxJava's `groupBy(keySelector, valueSelector)`). The
    /// rules of `group_by` hold: one subscriber per group, subscribed during the `on_next`
    /// call that delivers it.
    ///
    /// ```text
    /// source:                          -1-2-3-|
    /// group_by_with(odd, |v| v * 10):  -a-b---|
    ///   a (odd):                        10--30-|
    ///   b (even):                         20---|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    ///
    /// let mut names = rx::source::from_iter(["ada", "bob", "alan"])
    ///     .group_by_with(|name| name.as_bytes()[0], |name| name.len())
    ///     .flat_map(|group| {
    ///         let key = *group.key() as char;
    ///         group.to_vec().map(move |lengths| (key, lengths))
    ///     })
    ///     .as_blocking()
    ///     .into_iter()
    ///     .collect::<Result<Vec<_>, _>>()
    ///     .unwrap();
    /// // The groups complete together, in no particular order.
    /// names.sort();
    /// assert_eq!(names, [('a', vec![3, 4]), ('b', vec![3])]);
    /// ```
    ///
    /// # Performance
    ///
    /// As [`group_by`](ObservableExt::group_by), plus the call to `element`.
    #[doc(alias = "groupBy")]
    fn group_by_with<'a, K, V, F, E>(self, key: F, element: E) -> GroupByWith<'a, Self, F, E>
    where
        F: FnMut(&Self::Item) -> K,
        E: FnMut(Self::Item) -> V,
        K: Clone + Eq + std::hash::Hash,
    {
        GroupByWith::new(self, key, element)
    }

    /// Like [`group_by`](ObservableExt::group_by), with groups that end: each new group
    /// subscribes the observable `duration` returns for its key, and completes when that
    /// emits or completes (or fails with its error, the group alone); the next value of the
    /// key then opens a new group (RxJS's `groupBy(key, { duration })`, Rx.NET's
    /// `GroupByUntil`). The duration starts once the group holds its first value.
    ///
    /// ```text
    /// source:                     -1-3-2---5-|
    /// group_by_until(odd, 4):     -a---b---c-|
    ///   a (odd):                   1-3--|
    ///   b (even):                      2---|
    ///   c (odd):                           5-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::{cold, TestObserver};
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TestObserver::new();
    /// let s = scheduler.clone();
    /// // Visits per user, each ending 30 ms after it opened.
    /// cold(&scheduler, [(ms(0), Next(("ann", 1))), (ms(10), Next(("ann", 2))), (ms(40), Next(("ann", 3))), (ms(50), Completed)])
    ///     .group_by_until(|(user, _)| *user, move |_| rx::source::timer(ms(30), s.clone()))
    ///     .flat_map(|visit| visit.map(|(_, click)| click).to_vec())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_values(&[vec![1, 2], vec![3]]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// As [`group_by`](ObservableExt::group_by), plus one duration subscription per group,
    /// kept (boxed) until the group ends.
    #[doc(alias = "groupBy")]
    #[doc(alias = "groupByUntil")]
    fn group_by_until<'a, K, F, D, N>(self, key: F, duration: D) -> GroupByUntil<'a, Self, F, D>
    where
        F: FnMut(&Self::Item) -> K,
        D: FnMut(&K) -> N,
        N: Observable,
        K: Clone + Eq + std::hash::Hash,
    {
        GroupByUntil::new(self, key, duration)
    }

    /// Splits the source in two by `predicate`: the values it accepts, and those it rejects
    /// (RxJS's `partition`). Each half subscribes the source on its own, with its own clone of
    /// the source and of `predicate`, as `(source.filter(p), source.filter(!p))` would; share
    /// the source first ([`share`](ObservableExt::share)) to run it once for both.
    ///
    /// ```text
    /// source:           -1-2-3-4-|
    /// partition(even):  ---2---4-|
    ///                   -1---3---|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let (even, odd) = rx::source::from_iter(1..=5).partition(|v| v % 2 == 0);
    /// let (e, o) = (TestObserver::new(), TestObserver::new());
    /// even.subscribe_observer(e.clone());
    /// odd.subscribe_observer(o.clone());
    /// e.assert_values(&[2, 4]);
    /// o.assert_values(&[1, 3, 5]);
    /// o.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Stateless, as `filter`: no allocation, no lock.
    fn partition<P>(self, predicate: P) -> (Partition<Self, P>, Partition<Self, P>)
    where
        Self: Clone,
        P: FnMut(&Self::Item) -> bool + Clone,
    {
        Partition::pair(self, predicate)
    }

    // ------------------------------------------------------------------------- aggregating
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

    /// Emits the mean of the values, as an `f64`, when the source completes.
    ///
    /// Values convert with `Into<f64>`, which the integers up to 32 bits and the floats
    /// have; map wider integers with `as f64` first. An empty source has no mean: the output
    /// completes without a value, as [`min`](ObservableExt::min) does and as RxJava's
    /// `MathObservable.averageDouble` (RxJava2Extensions) does (Rx.NET's `Average` errors
    /// instead). Chain `default_if_empty` to supply a value.
    ///
    /// ```text
    /// source:      -1-2-3-4-|
    /// average():   ---------(2.5|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2, 3, 4]).average().subscribe_observer(observer.clone());
    /// observer.assert_values(&[2.5]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; no mean is emitted.
    ///
    /// # Performance
    ///
    /// A running `f64` total and a count in the observer: no allocation, no lock.
    fn average(self) -> Average<Self>
    where
        Self::Item: Into<f64>,
    {
        Average::new(self)
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
        Min::new(self, ByOrd)
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
        Max::new(self, ByOrd)
    }

    /// Emits the value whose key is smallest when the source completes; of several values
    /// with equal smallest keys, the first, as [`Iterator::min_by_key`] does (Rx.NET's
    /// `MinBy`, which emits the list of all of them).
    ///
    /// An empty source completes without a value, as [`min`](ObservableExt::min) does.
    ///
    /// ```text
    /// source:              -ccc-a-bb-|
    /// min_by_key(len):     ----------(a|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["ccc", "a", "bb", "d"])
    ///     .min_by_key(|s| s.len())
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&["a"]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; no value is emitted.
    ///
    /// # Performance
    ///
    /// The current minimum lives in the observer: no allocation, no lock. `key` runs twice
    /// per value after the first (for the value and for the one kept), as it does in
    /// `Iterator::min_by`; map to `(key, value)` pairs and use `min` to compute each key once.
    fn min_by_key<K, F>(self, key: F) -> Min<Self, ByKey<F>>
    where
        F: FnMut(&Self::Item) -> K,
        K: Ord,
    {
        Min::new(self, ByKey(key))
    }

    /// Emits the smallest value by `compare` when the source completes; of several equal
    /// minima, the first, as [`Iterator::min_by`] does (RxJS's `min(comparer)`).
    ///
    /// An empty source completes without a value, as [`min`](ObservableExt::min) does; the
    /// way to take the minimum of floats (`f64::total_cmp`).
    ///
    /// ```text
    /// source:                 -3.5-1.5-2.5-|
    /// min_by(total_cmp):      -------------(1.5|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([3.5, 1.5, 2.5])
    ///     .min_by(f64::total_cmp)
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1.5]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; no value is emitted.
    ///
    /// # Performance
    ///
    /// The current minimum lives in the observer: no allocation, no lock.
    fn min_by<F>(self, compare: F) -> Min<Self, F>
    where
        F: FnMut(&Self::Item, &Self::Item) -> std::cmp::Ordering,
    {
        Min::new(self, compare)
    }

    /// Emits the value whose key is largest when the source completes; of several values
    /// with equal largest keys, the last, as [`Iterator::max_by_key`] does (Rx.NET's
    /// `MaxBy`, which emits the list of all of them).
    ///
    /// An empty source completes without a value, as [`max`](ObservableExt::max) does.
    ///
    /// ```text
    /// source:              -a-ccc-bb-|
    /// max_by_key(len):     ----------(ccc|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["a", "ccc", "bb", "ddd"])
    ///     .max_by_key(|s| s.len())
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&["ddd"]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; no value is emitted.
    ///
    /// # Performance
    ///
    /// The current maximum lives in the observer: no allocation, no lock. `key` runs twice
    /// per value after the first, as for [`min_by_key`](ObservableExt::min_by_key).
    fn max_by_key<K, F>(self, key: F) -> Max<Self, ByKey<F>>
    where
        F: FnMut(&Self::Item) -> K,
        K: Ord,
    {
        Max::new(self, ByKey(key))
    }

    /// Emits the largest value by `compare` when the source completes; of several equal
    /// maxima, the last, as [`Iterator::max_by`] does (RxJS's `max(comparer)`).
    ///
    /// An empty source completes without a value, as [`max`](ObservableExt::max) does.
    ///
    /// ```text
    /// source:                 -3.5-1.5-2.5-|
    /// max_by(total_cmp):      -------------(3.5|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([3.5, 1.5, 2.5])
    ///     .max_by(f64::total_cmp)
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[3.5]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; no value is emitted.
    ///
    /// # Performance
    ///
    /// The current maximum lives in the observer: no allocation, no lock.
    fn max_by<F>(self, compare: F) -> Max<Self, F>
    where
        F: FnMut(&Self::Item, &Self::Item) -> std::cmp::Ordering,
    {
        Max::new(self, compare)
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

    /// Collects every value into a `C`, any collection that is `Default` and `Extend`s with
    /// the values (a `HashSet`, a `BTreeMap` of pairs, a `String` of `char`s), emitted when
    /// the source completes, as [`Iterator::collect`] does; an empty source emits
    /// `C::default()` (RxJava's `collect`, `toList`).
    ///
    /// ```text
    /// source:                  -3-1-3-|
    /// collect::<BTreeSet>():   -------({1, 3}|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use std::collections::BTreeSet;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([3, 1, 3])
    ///     .collect::<BTreeSet<_>>()
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[BTreeSet::from([1, 3])]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; the values collected so far are dropped.
    ///
    /// # Performance
    ///
    /// The collection lives in the observer and grows as `Extend` grows it, one value at a
    /// time; no lock.
    fn collect<C>(self) -> Collect<Self, C>
    where
        C: Default + Extend<Self::Item>,
    {
        Collect::new(self)
    }

    /// Collects every value into a `HashMap` under the key `key` gives it, emitted when the
    /// source completes; a later value replaces an earlier one of the same key, as in
    /// RxJava's `toMap` (Rx.NET's `ToDictionary` errors on a repeated key instead). An empty
    /// source emits an empty map. For another map, or for values other than the source's,
    /// `map` to `(key, value)` pairs and [`collect`](ObservableExt::collect).
    ///
    /// ```text
    /// source:           -a-bb-c-|
    /// to_map(len):      --------({1: c, 2: bb}|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use std::collections::HashMap;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["a", "bb", "c"])
    ///     .to_map(|s| s.len())
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[HashMap::from([(1, "c"), (2, "bb")])]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; the map is dropped.
    ///
    /// # Performance
    ///
    /// The map lives in the observer; one hash and insertion per value, no lock.
    fn to_map<K, F>(self, key: F) -> ToMap<Self, F>
    where
        F: FnMut(&Self::Item) -> K,
        K: std::hash::Hash + Eq,
    {
        ToMap::new(self, key)
    }

    /// Collects every value into a `HashMap` of `Vec`s, each value under the key `key` gives
    /// it, in arrival order, emitted when the source completes (RxJava's `toMultimap`,
    /// Rx.NET's `ToLookup`). An empty source emits an empty map. Unlike
    /// [`group_by`](ObservableExt::group_by), nothing is emitted before completion.
    ///
    /// ```text
    /// source:              -a-bb-c-|
    /// to_multimap(len):    --------({1: [a, c], 2: [bb]}|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use std::collections::HashMap;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["a", "bb", "c"])
    ///     .to_multimap(|s| s.len())
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[HashMap::from([(1, vec!["a", "c"]), (2, vec!["bb"])])]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source passes through; the map is dropped.
    ///
    /// # Performance
    ///
    /// The map lives in the observer; one hash per value, and a `Vec` per key; no lock.
    fn to_multimap<K, F>(self, key: F) -> ToMultimap<Self, F>
    where
        F: FnMut(&Self::Item) -> K,
        K: std::hash::Hash + Eq,
    {
        ToMultimap::new(self, key)
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

    /// Emits `true` if this observable and `other` emit equal values in the same order and
    /// the same number of them, `false` as soon as they are known to differ (RxJS's
    /// `sequenceEqual`).
    ///
    /// The verdict `false` comes at the first pair of n-th values that differ, or when one
    /// side has a value the other, completed, cannot match; both sources are then disposed.
    /// `true` comes when both have completed.
    ///
    /// ```text
    /// source:                -1-2-3-|
    /// other:                 --1-2-3-|
    /// sequence_equal(other): --------(T|)
    ///
    /// source:                -1-2-3-|
    /// other:                 --1-5-|
    /// sequence_equal(other): ----(F|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2, 3])
    ///     .sequence_equal(rx::source::range(1, 3))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[true]);
    /// observer.assert_completed();
    ///
    /// let shorter = TestObserver::new();
    /// rx::source::from_iter([1, 2, 3])
    ///     .sequence_equal(rx::source::from_iter([1, 2]))
    ///     .subscribe_observer(shorter.clone());
    /// shorter.assert_values(&[false]);
    /// ```
    ///
    /// # Errors
    ///
    /// An error from either source ends the sequence before a verdict.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state of zip), a lock per value; the
    /// values one side has emitted ahead of the other are buffered.
    #[doc(alias = "sequenceEqual")]
    fn sequence_equal<'a, S>(self, other: S) -> SequenceEqual<'a, Self, S, ByPartialEq>
    where
        S: Observable,
        Self::Item: PartialEq<S::Item>,
    {
        SequenceEqual::new(self, other, ByPartialEq)
    }

    /// As [`sequence_equal`](ObservableExt::sequence_equal), comparing the n-th values with
    /// `comparer` (RxJS's `sequenceEqual(other, comparator)`), so the two sides may be of
    /// different types.
    ///
    /// The comparer is called outside any lock, for one pair at a time.
    ///
    /// ```text
    /// source:                      -1-2-|
    /// other:                       -a-b-|
    /// sequence_equal_by(other, f): -----(T|)     f(1, a) and f(2, b) are true
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
    ///     .sequence_equal_by(rx::source::from_iter(["1", "2"]), |a: &i32, b: &&str| {
    ///         a.to_string() == *b
    ///     })
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[true]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from either source ends the sequence before a verdict.
    ///
    /// # Performance
    ///
    /// As [`sequence_equal`](ObservableExt::sequence_equal).
    #[doc(alias = "sequenceEqual")]
    fn sequence_equal_by<'a, S, F>(self, other: S, comparer: F) -> SequenceEqual<'a, Self, S, F>
    where
        S: Observable,
        F: FnMut(&Self::Item, &S::Item) -> bool,
    {
        SequenceEqual::new(self, other, comparer)
    }

    // --------------------------------------------------------------------------- combining
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

    /// Emits the values of `values`, then the values of this observable (RxJS's `startWith`
    /// with several values, RxJava's `startWithIterable`).
    ///
    /// ```text
    /// source:                   ---3-|
    /// start_with_iter([1, 2]):  (12)3-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::just(3).start_with_iter([1, 2]).subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// No allocation, no lock: the values are delivered on the subscribing thread, then the
    /// source is subscribed with the same observer.
    #[doc(alias = "startWith")]
    #[doc(alias = "startWithIterable")]
    #[doc(alias = "startWithArray")]
    fn start_with_iter<I>(self, values: I) -> StartWithIter<Self, I>
    where
        I: IntoIterator<Item = Self::Item>,
    {
        StartWithIter::new(self, values)
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

    /// Emits the values of this observable, then, when it completes, the values of `values`
    /// (RxJS's `endWith` with several values).
    ///
    /// Nothing is added when the source fails or never completes.
    ///
    /// ```text
    /// source:                 -1-|
    /// end_with_iter([2, 3]):  -1-(23|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::just(1).end_with_iter(vec![2, 3]).subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// No allocation, no lock: the observer holds `values` until completion.
    #[doc(alias = "endWith")]
    fn end_with_iter<I>(self, values: I) -> EndWithIter<Self, I>
    where
        I: IntoIterator<Item = Self::Item>,
    {
        EndWithIter::new(self, values)
    }

    /// Emits the values of this observable, then, once it completes, those of `other`.
    ///
    /// `other` is subscribed when this observable completes, on the thread that completion
    /// arrives on. The returned handle disposes whichever of the two is running. For more
    /// than two observables of one type, see [`concat`](crate::source::concat()).
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

    /// Emits the values of this observable and of `other` as they come, one at a time even
    /// when they arrive from two threads at once; completes once both have completed.
    ///
    /// Both are subscribed at once, this one first. For more than two observables of one
    /// type, see [`rx::source::merge`](crate::source::merge).
    ///
    /// ```text
    /// source:            -1---3---|
    /// other:             ---2---4-----|
    /// merge_with(other): -1-2-3-4-----|
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
    ///     .merge_with(rx::source::just(3))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 3]); // synchronous sources run one after the other
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// The first error from either is delivered once, after the other is disposed. An error
    /// inside this observable's `subscribe` means `other` is not subscribed.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state; `Arc`) and one uncontended lock per
    /// value; values are queued (allocating) only when two arrive at the same moment. The
    /// queue does not block the producers and has no bound, as in RxJava. A source still
    /// running when its `subscribe` returns costs one more small allocation to keep its
    /// handle, unless the handle is zero-sized. The two handles must be `Send`; `'a` bounds
    /// what they borrow and is inferred.
    #[doc(alias = "mergeWith")]
    fn merge_with<'a, S>(self, other: S) -> MergeWith<'a, Self, S>
    where
        S: Observable<Item = Self::Item>,
    {
        MergeWith::new(self, other)
    }

    /// Mirrors whichever of this observable and `other` notifies first (a value, an error or
    /// completion), and disposes the other at that moment.
    ///
    /// This observable is subscribed first; if it notifies inside its `subscribe`, `other` is
    /// not subscribed. For more than two observables of one type, see
    /// [`rx::source::amb`](crate::source::amb).
    ///
    /// ```text
    /// source:          ---1---2-|
    /// other:           -3---4---|
    /// amb_with(other): -3---4---|
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
    /// let after = |secs, value| {
    ///     rx::source::timer(Duration::from_secs(secs), scheduler.clone()).map(move |_| value)
    /// };
    /// let observer = TestObserver::new();
    /// after(2, "slow").amb_with(after(1, "fast")).subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_values(&["fast"]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state) and one compare-and-swap per
    /// notification until a winner is known; then the winner delivers directly, with no
    /// lock.
    #[doc(alias = "ambWith")]
    #[doc(alias = "race_with")]
    #[doc(alias = "raceWith")]
    fn amb_with<'a, S>(self, other: S) -> AmbWith<'a, Self, S>
    where
        S: Observable<Item = Self::Item>,
    {
        AmbWith::new(self, other)
    }

    /// Pairs the n-th value of this observable with the n-th value of `other`, emitting
    /// `(a, b)` tuples (RxJava's `zipWith`).
    ///
    /// Values that arrive before their partner are buffered. The zip completes as soon as one
    /// side has completed and has no buffered value left to pair: at once when a side
    /// completes with nothing buffered, or when its last buffered value is paired. Values
    /// still buffered on the other side are then dropped, and the other side is disposed.
    /// For more than two observables, see [`rx::source::zip`](crate::source::zip); to
    /// combine each pair with a closure, [`zip_with`](ObservableExt::zip_with).
    ///
    /// ```text
    /// source:     -1-2-3-|
    /// other:      --a---b---c-d-|
    /// zip(other): --x---y---(z|)     x = (1,a), y = (2,b), z = (3,c)
    /// ```
    ///
    /// This observable is subscribed first, then `other`; a source that ends the zip inside
    /// its `subscribe` (an empty one) keeps the next from being subscribed. The handle
    /// returned disposes both.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2, 3])
    ///     .zip(rx::source::from_iter(["a", "b"]))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[(1, "a"), (2, "b")]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from either side is delivered at once, dropping buffered values, and the
    /// other side is disposed.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state). Each notification takes one
    /// uncontended lock, and a delivery one more; a side that runs ahead buffers its values
    /// in a queue that allocates only beyond one value. When the sides emit from different
    /// threads, deliveries are serialised: a thread that finds another delivering queues its
    /// pair and returns, and no lock is held while the downstream runs.
    #[doc(alias = "zipWith")]
    fn zip<'a, S>(self, other: S) -> Zip<'a, (Self, S)>
    where
        S: Observable,
    {
        Zip::new((self, other))
    }

    /// Like [`zip`](ObservableExt::zip), but combines each pair with `f` instead of emitting
    /// a tuple (RxJava's `zipWith(other, zipper)`).
    ///
    /// ```text
    /// source:              -1-2-3-|
    /// other:               --4---5---6-|
    /// zip_with(other, +):  --5---7---(9|)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["a", "b", "c"])
    ///     .zip_with(rx::source::from_iter(1..), |s, n| s.repeat(n))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&["a".to_string(), "bb".into(), "ccc".into()]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// As [`zip`](ObservableExt::zip).
    ///
    /// # Performance
    ///
    /// As [`zip`](ObservableExt::zip); `f` runs outside the lock, on the delivering thread.
    #[doc(alias = "zipWith")]
    fn zip_with<'a, S, F, U>(self, other: S, f: F) -> ZipWith<'a, Self, S, F>
    where
        S: Observable,
        F: FnMut(Self::Item, S::Item) -> U,
    {
        ZipWith::new(self, other, f)
    }

    /// Emits `(a, b)` with the latest value of this observable and of `other`, each time
    /// either emits, once both have emitted (RxJava's `combineLatest`, RxJS's
    /// `combineLatestWith`).
    ///
    /// Values that arrive before the other side has emitted are not paired with anything;
    /// only the latest one is kept. The sequence completes when both sides have completed,
    /// or at once when a side completes without ever emitting, since no pair can then be
    /// made (the other side is disposed). For more than two observables, see
    /// [`rx::source::combine_latest`](crate::source::combine_latest); to combine with a
    /// closure, [`combine_latest_with`](ObservableExt::combine_latest_with).
    ///
    /// ```text
    /// source:                -1---2-----|
    /// other:                 ---a---b-|
    /// combine_latest(other): ---x-y-z---|     x = (1,a), y = (2,a), z = (2,b)
    /// ```
    ///
    /// This observable is subscribed first, then `other`; a synchronous source therefore runs
    /// to its end before `other` starts, and only its last value is combined. The handle
    /// returned disposes both.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::just("x")
    ///     .combine_latest(rx::source::from_iter([1, 2]))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[("x", 1), ("x", 2)]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from either side is delivered at once, and the other side is disposed.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state). Each value takes one uncontended
    /// lock, plus one more per delivery, and clones the latest value of every side into the
    /// emitted tuple (the items must be `Clone`). When the sides emit from different threads,
    /// deliveries are serialised without holding the lock while the downstream runs.
    #[doc(alias = "combineLatest")]
    #[doc(alias = "combineLatestWith")]
    fn combine_latest<'a, S>(self, other: S) -> CombineLatest<'a, (Self, S)>
    where
        S: Observable,
    {
        CombineLatest::new((self, other))
    }

    /// Like [`combine_latest`](ObservableExt::combine_latest), but combines the latest values
    /// with `f` instead of emitting a tuple.
    ///
    /// ```text
    /// source:                         -1---2-----|
    /// other:                          ---3---4-|
    /// combine_latest_with(other, +):  ---4-5-6---|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::just(100)
    ///     .combine_latest_with(rx::source::from_iter([1, 2]), |a, b| a + b)
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[101, 102]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// As [`combine_latest`](ObservableExt::combine_latest).
    ///
    /// # Performance
    ///
    /// As [`combine_latest`](ObservableExt::combine_latest); `f` runs outside the lock, on
    /// the delivering thread.
    #[doc(alias = "combineLatest")]
    fn combine_latest_with<'a, S, F, U>(self, other: S, f: F) -> CombineLatestWith<'a, Self, S, F>
    where
        S: Observable,
        F: FnMut(Self::Item, S::Item) -> U,
    {
        CombineLatestWith::new(self, other, f)
    }

    /// Pairs each value of this observable with the latest value of `other`, emitting
    /// `(value, latest)` tuples (RxJava's and RxJS's `withLatestFrom`).
    ///
    /// `other` is subscribed first, so a value it emits inside its `subscribe` is already
    /// there for this observable's first value. A value of this observable that arrives
    /// before `other` has emitted is dropped. Only this observable's completion completes
    /// the sequence (disposing `other`); `other` completing changes nothing, its last value
    /// stays in use. To combine with a closure, see
    /// [`with_latest_from_with`](ObservableExt::with_latest_from_with).
    ///
    /// ```text
    /// source:                  -1---2---3-|
    /// other:                   ---a---b-|
    /// with_latest_from(other): -----x---y-|     x = (2,a), y = (3,b)
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
    ///     .with_latest_from(rx::source::just("latest"))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[(1, "latest"), (2, "latest")]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from either side is delivered at once, and the other side is disposed.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state). Each value takes one uncontended
    /// lock, plus one more per delivery, and clones the latest value of `other` into the
    /// tuple (its items must be `Clone`). Deliveries are serialised with an error from
    /// `other` arriving on another thread, without holding the lock while the downstream
    /// runs.
    #[doc(alias = "withLatestFrom")]
    fn with_latest_from<'a, S>(self, other: S) -> WithLatestFrom<'a, Self, S>
    where
        S: Observable,
    {
        WithLatestFrom::new(self, other)
    }

    /// Like [`with_latest_from`](ObservableExt::with_latest_from), but combines each value and
    /// the latest value of `other` with `f` instead of emitting a tuple.
    ///
    /// The name follows [`zip_with`](ObservableExt::zip_with) and
    /// [`combine_latest_with`](ObservableExt::combine_latest_with): `_with` adds a combining
    /// closure to the operator it ends.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2])
    ///     .with_latest_from_with(rx::source::just(10), |v, factor| v * factor)
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[10, 20]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// As [`with_latest_from`](ObservableExt::with_latest_from).
    ///
    /// # Performance
    ///
    /// As [`with_latest_from`](ObservableExt::with_latest_from); `f` runs outside the lock,
    /// on the delivering thread.
    #[doc(alias = "withLatestFrom")]
    fn with_latest_from_with<'a, S, F, U>(
        self,
        other: S,
        f: F,
    ) -> WithLatestFromWith<'a, Self, S, F>
    where
        S: Observable,
        F: FnMut(Self::Item, S::Item) -> U,
    {
        WithLatestFromWith::new(self, other, f)
    }

    /// Combines each value of this observable with the latest value of each of several
    /// `others`, given as a tuple of 1 to 7 observables: `source.with_latest_from_all((b, c))`
    /// emits `(a, b, c)` tuples (RxJava's `withLatestFrom(o1, o2, combiner)`, RxJS's
    /// `withLatestFrom(a, b)`).
    ///
    /// The `others` are subscribed first, in order, then this observable. A value of this
    /// observable is emitted only once every one of the `others` has a value, and dropped
    /// before. Only this observable's completion completes the sequence (disposing the
    /// `others`) — except that one of the `others` completing without ever having emitted
    /// completes it at once, as no value can ever be emitted then (as in RxJava). To combine
    /// with a closure, [`map`](ObservableExt::map) the tuple.
    ///
    /// A separate method from [`with_latest_from`](ObservableExt::with_latest_from), whose
    /// `other` may itself emit tuples, so that a tuple argument is never ambiguous.
    ///
    /// ```text
    /// source:                         -1---2---3---4-|
    /// b:                              ---a-------c---
    /// c:                              -----x-|
    /// with_latest_from_all((b, c)):   ---------y---z-|   y = (3,a,x), z = (4,c,x)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::subjects::PublishSubject;
    /// use rx::testing::TestObserver;
    ///
    /// let (source, b, c) = (PublishSubject::new(), PublishSubject::new(), PublishSubject::new());
    /// let (mut source_in, mut b_in, mut c_in) = (source.observer(), b.observer(), c.observer());
    /// let observer = TestObserver::new();
    /// source
    ///     .observable()
    ///     .with_latest_from_all((b.observable(), c.observable()))
    ///     .subscribe_observer(observer.clone());
    /// source_in.on_next(1); // dropped: b and c have no value yet
    /// b_in.on_next('a');
    /// source_in.on_next(2); // dropped: c has no value yet
    /// c_in.on_next("x");
    /// c_in.on_completed(); // with a value: "x" stays in use
    /// source_in.on_next(3);
    /// b_in.on_next('c');
    /// source_in.on_next(4);
    /// source_in.on_completed();
    /// observer.assert_values(&[(3, 'a', "x"), (4, 'c', "x")]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from any source is delivered at once, and the other sources are disposed.
    ///
    /// # Performance
    ///
    /// As [`with_latest_from`](ObservableExt::with_latest_from): one allocation per
    /// subscription; each value takes one uncontended lock, plus one more per delivery, and
    /// clones the latest value of each of the `others` (their items must be `Clone`).
    #[doc(alias = "withLatestFrom")]
    fn with_latest_from_all<'a, T>(self, others: T) -> WithLatestFromAll<'a, Self, T> {
        WithLatestFromAll::new(self, others)
    }

    // ---------------------------------------------- flattening: observables of observables
    /// Maps each value to an observable and merges the values of all of them, as they come
    /// (RxJava's `flatMap`, RxJS's `mergeMap`).
    ///
    /// Each inner observable is subscribed as soon as `f` returns it; any number run at once
    /// (see [`merge_max`](ObservableExt::merge_max) for a limit). Their values are delivered
    /// one at a time, in the order they arrive, even from several threads. The sequence
    /// completes once this observable and every inner observable have completed.
    ///
    /// ```text
    /// source:       -1-2-----|
    /// f(1):          -a---b|
    /// f(2):            -c---d|
    /// flat_map(f):  --a-c-b-d|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2, 3])
    ///     .flat_map(|v| rx::source::from_iter(0..v))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[0, 0, 1, 0, 1, 2]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// The first error, from this observable or an inner one, is delivered once; everything
    /// still running is disposed first.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state; `Arc`) and one uncontended lock per
    /// value; values are queued (allocating) only when two arrive at the same moment. The
    /// queue does not block the producers and has no bound, as in RxJava: inner observables
    /// that outrun the downstream for long make it grow. An inner still running when its
    /// `subscribe` returns costs one more small allocation to keep its handle, unless the
    /// handle is zero-sized. The handles of the inner subscriptions must be `Send`; `'a`
    /// bounds what they borrow and is inferred.
    #[doc(alias = "merge_map")]
    #[doc(alias = "mergeMap")]
    #[doc(alias = "flatMap")]
    fn flat_map<'a, U, F>(self, f: F) -> FlatMap<'a, Self, F>
    where
        F: FnMut(Self::Item) -> U,
        U: Observable,
    {
        FlatMap::new(self, f)
    }

    /// Maps each value to an observable with a fallible closure and merges their values, as
    /// [`flat_map`](ObservableExt::flat_map) does; an `Err` ends the sequence with that
    /// error, converted with `Into<Error>`, as an inner error would.
    ///
    /// ```text
    /// source:           -1-2-|
    /// try_flat_map(f):  -a-#        f(1) = Ok(just(a)), f(2) = Err
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["2", "x", "3"])
    ///     .try_flat_map(|s| s.parse::<usize>().map(|n| rx::source::from_iter(0..n)))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[0, 1]);
    /// observer.assert_error("invalid digit found in string");
    /// ```
    ///
    /// # Errors
    ///
    /// The first `Err` of `f`, after which the source and the running inners are disposed;
    /// or an error of the source or of an inner observable.
    ///
    /// # Performance
    ///
    /// As [`flat_map`](ObservableExt::flat_map): an `Err` is an inner observable that fails
    /// at once.
    fn try_flat_map<'a, U, E, F>(self, f: F) -> TryFlatMap<'a, Self, F>
    where
        F: FnMut(Self::Item) -> Result<U, E>,
        E: Into<Error>,
        U: Observable,
    {
        TryFlatMap::new(self, f)
    }

    /// Flattens an observable of observables by merging them: [`flat_map`] without the
    /// mapping (RxJS's `mergeAll`).
    ///
    /// Every inner observable is subscribed as soon as it arrives; their values are
    /// delivered one at a time, in the order they arrive, even from several threads. The
    /// sequence completes once this observable and every inner observable have completed.
    ///
    /// ```text
    /// source:   -a-b-----|
    /// a:         -1---2|
    /// b:           -3---4|
    /// merge():  --1-3-2-4|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([rx::source::from_iter(vec![1, 2]), rx::source::from_iter(vec![3])])
    ///     .merge()
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// As [`flat_map`].
    ///
    /// # Performance
    ///
    /// As [`flat_map`].
    ///
    /// [`flat_map`]: ObservableExt::flat_map
    #[doc(alias = "merge_all")]
    #[doc(alias = "mergeAll")]
    #[doc(alias = "flatten")]
    fn merge<'a>(self) -> MergeAll<'a, Self>
    where
        Self::Item: Observable,
    {
        MergeAll::new(self)
    }

    /// Flattens an observable of observables by merging them, with at most `max` inner
    /// subscriptions at once; the inner observables beyond that wait in a queue, in order,
    /// and each is subscribed when a running one completes (RxJS's `mergeAll(concurrent)`).
    ///
    /// `merge_max(1)` is [`concat`](ObservableExt::concat).
    ///
    /// ```text
    /// source:        abc|
    /// a, b, c:       --v|     each emits its name two ticks after it is subscribed
    /// merge_max(2):  --ab-c|  c is subscribed when a completes
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
    /// rx::source::from_iter(['a', 'b', 'c'])
    ///     .map(|c| rx::source::timer(Duration::from_secs(1), scheduler.clone()).map(move |_| c))
    ///     .merge_max(2)
    ///     .subscribe_observer(observer.clone());
    /// scheduler.advance_by(Duration::from_secs(1));
    /// observer.assert_values(&['a', 'b']); // `c` waits for a place
    /// scheduler.advance_by(Duration::from_secs(1));
    /// observer.assert_values(&['a', 'b', 'c']);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Panics
    ///
    /// When `max` is zero.
    ///
    /// # Errors
    ///
    /// As [`flat_map`](ObservableExt::flat_map); the queued inner observables are dropped.
    ///
    /// # Performance
    ///
    /// As [`flat_map`](ObservableExt::flat_map), and the queue allocates once inner
    /// observables have to wait.
    #[doc(alias = "merge_all")]
    #[doc(alias = "mergeAll")]
    fn merge_max<'a>(self, max: usize) -> MergeMax<'a, Self>
    where
        Self::Item: Observable,
    {
        MergeMax::new(self, max)
    }

    /// Flattens an observable of observables by concatenating them: each inner observable is
    /// subscribed once the previous one has completed, and those that arrive meanwhile wait
    /// in a queue (RxJS's `concatAll`).
    ///
    /// An inner observable that completes later, on another thread, has the next one
    /// subscribed on that thread. Inner observables that complete inside their own
    /// `subscribe` are chained by a loop, so any number of them use constant stack. To
    /// concatenate a fixed list of observables, see [`rx::source::concat`](crate::source::concat)
    /// and [`concat_with`](ObservableExt::concat_with).
    ///
    /// ```text
    /// source:    -a-b|
    /// a:          -1--2|
    /// b:               -3|
    /// concat():  --1--2-3|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([rx::source::from_iter(vec![1, 2]), rx::source::from_iter(vec![3])])
    ///     .concat()
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// The first error, from this observable or the running inner one, is delivered once;
    /// the queued inner observables are dropped unsubscribed.
    ///
    /// # Performance
    ///
    /// As [`flat_map`](ObservableExt::flat_map), and the queue allocates once inner
    /// observables have to wait.
    #[doc(alias = "concatAll")]
    #[doc(alias = "concat_all")]
    fn concat<'a>(self) -> ConcatAll<'a, Self>
    where
        Self::Item: Observable,
    {
        ConcatAll::new(self)
    }

    /// Maps each value to an observable and emits the values of each in turn: the next is
    /// subscribed once the previous one has completed (RxJava's `concatMap`).
    ///
    /// The values wait in a queue for their turn, and `f` is called with each when its inner
    /// observable is subscribed, as in RxJava and RxJS: a projection that starts work (a
    /// request) starts it only then. It is called on whichever thread completed the previous
    /// inner, so it must be `Send` when the inners need a `Send` observer. Inner observables
    /// that complete inside their own `subscribe` are chained by a loop, so any number of
    /// them use constant stack.
    ///
    /// ```text
    /// source:         -12|
    /// f(1):            -1-1|
    /// f(2):                -2-2|
    /// concat_map(f):  --1-1-2-2|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2, 3])
    ///     .concat_map(|v| rx::source::from_iter(0..v))
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[0, 0, 1, 0, 1, 2]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// As [`concat`](ObservableExt::concat).
    ///
    /// # Performance
    ///
    /// As [`concat`](ObservableExt::concat), plus, per value, the count of a shared pointer
    /// to `f` and an uncontended lock around its call.
    #[doc(alias = "concatMap")]
    fn concat_map<'a, U, F>(self, f: F) -> ConcatMap<'a, Self, F>
    where
        F: FnMut(Self::Item) -> U,
        U: Observable,
    {
        ConcatMap::new(self, f)
    }

    /// Maps each value to an observable and emits the values of the newest one only: when a
    /// value arrives, the running inner observable is disposed, then the new one subscribed
    /// (RxJava's `switchMap`).
    ///
    /// The sequence completes once this observable has completed and the last inner
    /// observable has too.
    ///
    /// ```text
    /// source:         -a---b-------|
    /// f(a):            -1-2-3|        3 never comes: f(b) replaced f(a)
    /// f(b):                -4-5|
    /// switch_map(f):  --1-2-4-5----|
    /// ```
    ///
    /// # Examples
    ///
    /// A search box: each query replaces the request still running for the previous one.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TestObserver;
    /// use std::time::Duration;
    ///
    /// let scheduler = TestScheduler::new();
    /// let response = |query: &'static str, secs| {
    ///     rx::source::timer(Duration::from_secs(secs), scheduler.clone()).map(move |_| query)
    /// };
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([("r", 3), ("rx", 1)])
    ///     .switch_map(|(query, secs)| response(query, secs))
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_values(&["rx"]); // the answer to "r" was cancelled
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// An error from this observable or from the current inner one is delivered once, after
    /// everything still running is disposed. An inner observable that was replaced is
    /// disposed and ignored, its errors included.
    ///
    /// # Performance
    ///
    /// As [`flat_map`](ObservableExt::flat_map); replacing an inner observable costs a lock
    /// and its disposal.
    #[doc(alias = "switchMap")]
    #[doc(alias = "flat_map_latest")]
    #[doc(alias = "flatMapLatest")]
    fn switch_map<'a, U, F>(self, f: F) -> SwitchMap<'a, Self, F>
    where
        F: FnMut(Self::Item) -> U,
        U: Observable,
    {
        SwitchMap::new(self, f)
    }

    /// Flattens an observable of observables by emitting the values of the newest one only:
    /// [`switch_map`](ObservableExt::switch_map) without the mapping (RxJS's `switchAll`).
    ///
    /// ```text
    /// source:            -a---b-------|
    /// a:                  -1-2-3|
    /// b:                      -4-5|
    /// switch_on_next():  --1-2-4-5----|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([rx::source::from_iter(vec![1, 2]), rx::source::from_iter(vec![3])])
    ///     .switch_on_next()
    ///     .subscribe_observer(observer.clone());
    /// // Synchronous inner observables run to their end before the next arrives.
    /// observer.assert_values(&[1, 2, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// As [`switch_map`](ObservableExt::switch_map).
    ///
    /// # Performance
    ///
    /// As [`switch_map`](ObservableExt::switch_map).
    #[doc(alias = "switch")]
    #[doc(alias = "switch_all")]
    #[doc(alias = "switchAll")]
    #[doc(alias = "switchOnNext")]
    fn switch_on_next<'a>(self) -> SwitchOnNext<'a, Self>
    where
        Self::Item: Observable,
    {
        SwitchOnNext::new(self)
    }

    /// Maps a value to an observable and emits its values, ignoring every value that arrives
    /// while that observable runs; once it has completed, the next value is mapped
    /// (RxJS's `exhaustMap`).
    ///
    /// `f` is not called for the ignored values. The sequence completes once this observable
    /// has completed and the running inner observable has too.
    ///
    /// ```text
    /// source:          -a-b---c----|
    /// f(a):             -a-a|         b arrives while f(a) runs: ignored
    /// f(c):                   -c-c|
    /// exhaust_map(f):  --a-a---c-c-|
    /// ```
    ///
    /// # Examples
    ///
    /// A button that starts a request ignores the clicks made while the request runs.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TestObserver;
    /// use std::time::Duration;
    ///
    /// let scheduler = TestScheduler::new();
    /// let s = Duration::from_secs;
    /// let clicks = rx::source::interval(s(1), scheduler.clone()).take(5); // at 1, 2, 3, 4, 5 s
    /// let timers = scheduler.clone();
    /// let request = move |click| {
    ///     rx::source::timer(Duration::from_millis(2500), timers.clone()).map(move |_| click)
    /// };
    /// let observer = TestObserver::new();
    /// clicks.exhaust_map(request).subscribe_observer(observer.clone());
    /// scheduler.run();
    /// // Clicks 1 and 2 came while the first request ran, click 4 while the second did.
    /// observer.assert_values(&[0, 3]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// The first error, from this observable or the running inner one, is delivered once;
    /// everything still running is disposed first.
    ///
    /// # Performance
    ///
    /// As [`flat_map`](ObservableExt::flat_map), with one more uncontended lock per value
    /// of this observable (to tell whether an inner one runs before calling `f`).
    #[doc(alias = "exhaustMap")]
    #[doc(alias = "flat_map_first")]
    #[doc(alias = "flatMapFirst")]
    fn exhaust_map<'a, U, F>(self, f: F) -> ExhaustMap<'a, Self, F>
    where
        F: FnMut(Self::Item) -> U,
        U: Observable,
    {
        ExhaustMap::new(self, f)
    }

    /// Flattens an observable of observables by emitting the values of one at a time,
    /// dropping (never subscribing) every observable that arrives while one runs:
    /// [`exhaust_map`](ObservableExt::exhaust_map) without the mapping (RxJS's `exhaustAll`),
    /// as [`switch_on_next`](ObservableExt::switch_on_next) is to
    /// [`switch_map`](ObservableExt::switch_map).
    ///
    /// The sequence completes once this observable has completed and the running inner
    /// observable has too.
    ///
    /// ```text
    /// source:         -a-b---c----|
    /// a:               -1-2|         b arrives while a runs: dropped
    /// c:                     -3-4|
    /// exhaust_all():  --1-2---3-4-|
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
    /// let a = cold(&scheduler, [(ms(10), Next('a')), (ms(30), Completed)]);
    /// let b = cold(&scheduler, [(ms(10), Next('b')), (ms(30), Completed)]);
    /// let c = cold(&scheduler, [(ms(10), Next('c')), (ms(30), Completed)]);
    /// let observer = TimedObserver::new(&scheduler);
    /// cold(&scheduler, [(ms(0), Next(a)), (ms(20), Next(b)), (ms(40), Next(c)), (ms(50), Completed)])
    ///     .exhaust_all()
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// // b came while a ran: dropped.
    /// observer.assert_timeline(&[(ms(10), Next('a')), (ms(50), Next('c')), (ms(70), Completed)]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`exhaust_map`](ObservableExt::exhaust_map).
    ///
    /// # Performance
    ///
    /// As [`exhaust_map`](ObservableExt::exhaust_map): one engine serves both.
    #[doc(alias = "exhaust")]
    #[doc(alias = "exhaustAll")]
    fn exhaust_all<'a>(self) -> ExhaustAll<'a, Self>
    where
        Self::Item: Observable,
    {
        ExhaustAll::new(self)
    }

    /// Emits each value and subscribes to its projection `f(&value)`, whose values are
    /// emitted and projected in turn, recursively (RxJS's `expand`): pagination, a walk of a
    /// tree, a retry loop that carries state. Completes once this observable and every
    /// projection have completed; a projection that ends the recursion returns an empty
    /// observable.
    ///
    /// Every projection runs at once, with no bound on how many run together, as in RxJS's
    /// default (`concurrency: Infinity`).
    ///
    /// ```text
    /// source:      -1------|
    /// f(1):         -2|           f(x) = just(x * 2) while x < 8
    /// f(2):           -4|
    /// f(4):             -8|
    /// expand(f):   -1-2-4-8|
    /// ```
    ///
    /// # Examples
    ///
    /// Fetching every page of a listing, each page naming the next.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// #[derive(Clone, Debug, PartialEq)]
    /// struct Page { items: Vec<u32>, next: Option<u32> }
    /// let fetch = |n: u32| Page { items: vec![n * 10, n * 10 + 1], next: (n < 3).then_some(n + 1) };
    ///
    /// let observer = TestObserver::new();
    /// rx::source::just(fetch(1))
    ///     .expand(move |page: &Page| rx::source::from_iter(page.next.map(fetch)))
    ///     .flat_map_iter(|page| page.items)
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[10, 11, 20, 21, 30, 31]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// The first error, from this observable or any projection, is delivered once, after
    /// everything still running is disposed.
    ///
    /// # Order
    ///
    /// `f` is called with each value just before the value is emitted, and the projection
    /// subscribed just after. Projections that emit while they are being subscribed (a
    /// synchronous one) have their values queued and taken after their `subscribe` returns:
    /// the stack does not grow with the depth of the recursion, and such values come
    /// breadth-first, where RxJS goes depth-first. Timed values come in time order.
    ///
    /// # Performance
    ///
    /// Three allocations per subscription (the shared state, its queue and its table of
    /// running projections), and one per running projection whose handle is not
    /// zero-sized. Four uncontended locks per value: queueing it, taking it, and around the
    /// subscription of its projection. Values that arrive while another is being delivered
    /// wait in a queue without a bound.
    #[doc(alias = "unfold")]
    fn expand<N, F>(self, f: F) -> Expand<Self, F>
    where
        F: FnMut(&Self::Item) -> N,
        N: Observable<Item = Self::Item>,
    {
        Expand::new(self, f)
    }

    // ---------------------------------------------------------------------- error handling
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
    /// the fallback, which may be subscribed on another thread. A source that fails inside
    /// `subscribe`, on the subscribing thread, hands the fallback's handle back with no lock;
    /// one that fails later takes a lock. Disposing or querying the handle takes one.
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

    /// Completes instead of failing: values pass, and the source's error becomes completion,
    /// as RxJava's `onErrorComplete()` does (RxJS writes `catchError(() => EMPTY)`). The
    /// error is dropped; [`on_error_complete_if`](ObservableExt::on_error_complete_if) keeps
    /// the ones it should not swallow.
    ///
    /// ```text
    /// source:               -1-2-#
    /// on_error_complete():  -1-2-|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let observer = TestObserver::new();
    /// rx::source::from_iter(["1", "2", "three", "4"])
    ///     .try_map(|s| s.parse::<i32>())
    ///     .on_error_complete()
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 2]);
    /// observer.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// Stateless: no allocation, no lock.
    #[doc(alias = "onErrorComplete")]
    fn on_error_complete(self) -> OnErrorComplete<Self, fn(&Error) -> bool> {
        OnErrorComplete::new(self, crate::operators::every_error)
    }

    /// Completes instead of failing with an error `predicate` accepts; an error it refuses
    /// passes on. RxJava's `onErrorComplete(predicate)`. The predicate is called once, with
    /// the error, and not at all when the source completes.
    ///
    /// ```text
    /// source:                           -1-2-#a
    /// on_error_complete_if(is a):       -1-2-|
    /// source:                           -1-2-#b
    /// on_error_complete_if(is a):       -1-2-#b
    /// ```
    ///
    /// # Examples
    ///
    /// A missing file ends the listing quietly; any other error is reported:
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use std::io;
    ///
    /// let missing = || io::Error::new(io::ErrorKind::NotFound, "no such file");
    /// let observer = TestObserver::<&str>::new();
    /// rx::source::throw(rx::Error::new(missing()))
    ///     .on_error_complete_if(|e| {
    ///         e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::NotFound)
    ///     })
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_completed();
    /// ```
    ///
    /// # Errors
    ///
    /// The source's error, when `predicate` refuses it.
    ///
    /// # Performance
    ///
    /// Stateless: no allocation, no lock.
    #[doc(alias = "onErrorComplete")]
    fn on_error_complete_if<P>(self, predicate: P) -> OnErrorComplete<Self, P>
    where
        P: FnOnce(&Error) -> bool,
    {
        OnErrorComplete::new(self, predicate)
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
    /// Over a source that finishes inside `subscribe` (`just`, `from_iter`, `throw`, and
    /// operators like `map` over them), no allocation and no atomic operation: the state is on
    /// the stack of `subscribe`. Over any other source, one allocation per subscription for
    /// the state an attempt ending later, or on another thread, shares with the handle; an
    /// attempt that still ends inside its `subscribe` takes no lock and no atomic
    /// read-modify-write, and one that ends later takes a few uncontended locks. Local
    /// sources ([`boxed_local`](ObservableExt::boxed_local), local subjects) use `Cell`s and a
    /// `RefCell` instead of atomics and a lock. The source's handle must be `'static` (all
    /// are, but those of observables boxed with a borrowed lifetime), and `Send` for a
    /// thread-safe source; one that is not zero-sized is boxed when an attempt outlives its
    /// `subscribe`.
    #[doc(alias = "retryCount")]
    fn retry(self, retries: usize) -> Retry<Self>
    where
        Self: Clone,
    {
        Resubscribe::retry(self, Some(retries), NoDelay, false)
    }

    /// Subscribes to the source again each time it fails, with no limit; see
    /// [`retry`](ObservableExt::retry). Completion ends it, or disposal: downstream stopping
    /// (a `take` after it) or the handle's [`dispose`](crate::Subscription::dispose).
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use std::cell::Cell;
    ///
    /// let attempts = Cell::new(0);
    /// let observer = TestObserver::new();
    /// rx::source::just(1)
    ///     .try_map(|v| {
    ///         attempts.set(attempts.get() + 1);
    ///         if attempts.get() <= 100 { Err(rx::Error::msg("not yet")) } else { Ok(v) }
    ///     })
    ///     .retry_forever()
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1]);
    /// observer.assert_completed();
    /// assert_eq!(attempts.get(), 101);
    /// ```
    ///
    /// # Performance
    ///
    /// As [`retry`](ObservableExt::retry).
    fn retry_forever(self) -> Retry<Self>
    where
        Self: Clone,
    {
        Resubscribe::retry(self, None, NoDelay, false)
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
    /// As [`retry`](ObservableExt::retry): on the stack over a source that finishes inside
    /// `subscribe`, otherwise one allocation per subscription, and locks only for attempts
    /// that outlive their `subscribe`.
    fn repeat(self, times: usize) -> Repeat<Self>
    where
        Self: Clone,
    {
        Resubscribe::repeat(self, Some(times), NoDelay)
    }

    /// Subscribes to the source again each time it completes, with no limit; see
    /// [`repeat`](ObservableExt::repeat). An error ends it, or disposal: downstream stopping
    /// (a `take` after it) or the handle's [`dispose`](crate::Subscription::dispose).
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
        Resubscribe::repeat(self, None, NoDelay)
    }

    /// Subscribes to the source again after an error once a notifier says so: on each error
    /// `f(&error, attempt)` is called (`attempt` is 1 for the first error) and the observable
    /// it returns subscribed; its first value resubscribes the source, its completion
    /// without a value completes the sequence, and its error ends it with that error (RxJS
    /// 7's `retry({ delay })`, RxJava's `retryWhen` with one notifier per error).
    ///
    /// The notifier is disposed after its first value. Completion of the source passes
    /// through. Attempts that end synchronously are run by a loop, so any number of them
    /// use constant stack.
    ///
    /// ```text
    /// source:                -1-#
    /// f(e, 1):                  --0
    /// retry_when(f):         -1---1-#...
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
    /// // Timers need a `'static` observer, so the source may not borrow.
    /// let attempts = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
    /// let flaky = rx::source::defer(move || {
    ///     let n = attempts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    ///     rx::source::just(n).try_map(|n| if n < 2 { Err(rx::Error::msg("busy")) } else { Ok(n) })
    /// });
    /// let observer = TestObserver::new();
    /// let sch = scheduler.clone();
    /// flaky
    ///     .retry_when(move |_error, attempt| {
    ///         rx::source::timer(Duration::from_secs(u64::from(attempt)), sch.clone())
    ///     })
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_values(&[2]);
    /// observer.assert_completed();
    /// assert_eq!(scheduler.elapsed(), Duration::from_secs(1 + 2));
    /// ```
    ///
    /// # Errors
    ///
    /// The notifier's error; the source's errors only start notifiers.
    ///
    /// # Performance
    ///
    /// As [`retry`](ObservableExt::retry), plus what each notifier costs: on the stack when
    /// the source and the notifiers finish inside `subscribe`. The source's and the
    /// notifier's handles must be `'static`, and `Send` when both are thread-safe.
    #[doc(alias = "retryWhen")]
    fn retry_when<F, N>(self, f: F) -> RetryWhen<Self, F>
    where
        Self: Clone,
        F: FnMut(&Error, u32) -> N,
        N: Observable,
    {
        Resubscribe::retry(self, None, ErrorDelay(f), false)
    }

    /// Subscribes to the source again after it completes once a notifier says so: at the
    /// `n`th completion `f(n)` is called and the observable it returns subscribed; its
    /// first value resubscribes the source, its completion without a value completes the
    /// sequence, and its error ends it (RxJS 7's `repeat({ delay })`).
    ///
    /// ```text
    /// source:           -1|
    /// f(1):               --0
    /// repeat_when(f):   -1---1|...
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TimedObserver;
    /// use rx::Notification::{Completed, Next};
    /// use std::time::Duration;
    ///
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// let sch = scheduler.clone();
    /// rx::source::just("poll")
    ///     .repeat_when(move |n| {
    ///         // Two more polls, a second apart.
    ///         rx::source::timer(Duration::from_secs(1), sch.clone()).take(if n < 3 { 1 } else { 0 })
    ///     })
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// let s = Duration::from_secs;
    /// observer.assert_timeline(&[
    ///     (s(0), Next("poll")),
    ///     (s(1), Next("poll")),
    ///     (s(2), Next("poll")),
    ///     (s(2), Completed),
    /// ]);
    /// ```
    ///
    /// # Errors
    ///
    /// The source's error, at once; the notifier's error.
    ///
    /// # Performance
    ///
    /// As [`retry_when`](ObservableExt::retry_when).
    #[doc(alias = "repeatWhen")]
    fn repeat_when<F, N>(self, f: F) -> RepeatWhen<Self, F>
    where
        Self: Clone,
        F: FnMut(u32) -> N,
        N: Observable,
    {
        Resubscribe::repeat(self, None, RepeatDelay(f))
    }

    /// Subscribes to the source again after an error, as `config` says: how many times
    /// ([`count`](RetryConfig::count), no limit by default), after what
    /// ([`delay`](RetryConfig::delay), a duration on a scheduler, or
    /// [`delay_with`](RetryConfig::delay_with), an observable made from the error and the
    /// retry's number), and whether a value restores the count
    /// ([`reset_on_success`](RetryConfig::reset_on_success)). RxJS 7's `retry(config)`;
    /// [`retry`](ObservableExt::retry), [`retry_when`](ObservableExt::retry_when) and
    /// [`retry_with_backoff`](ObservableExt::retry_with_backoff) are its common cases, and
    /// build the same type.
    ///
    /// Past the count, the error passes on; completion passes through. A delay observable
    /// that completes without a value completes the sequence, and one that fails ends it
    /// with its error.
    ///
    /// ```text
    /// source:                                    ---a---b---#
    /// retry_with(count(2).delay(4 frames)):      ---a---b-------a---b-------a---b---#
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::operators::RetryConfig;
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let scheduler = TestScheduler::new();
    /// let m = Marbles::new(&scheduler);
    /// let source = m.cold("---a---b---#");
    /// let config = RetryConfig::new().count(2).delay(m.time("----|"), scheduler.clone());
    /// m.expect(source.clone().retry_with(config))
    ///     .to_be("---a---b----------a---b----------a---b---#");
    /// source.assert_subscriptions(&[
    ///     "^----------!",
    ///     "---------------^----------!",
    ///     "------------------------------^----------!",
    /// ]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// With [`delay`](RetryConfig::delay), each retry is subscribed by a timer's task on
    /// `scheduler`, so the source must be thread-safe, as for
    /// [`retry_with_backoff`](ObservableExt::retry_with_backoff); with
    /// [`delay_with`](RetryConfig::delay_with), by the notifier, of whatever flavour.
    ///
    /// # Errors
    ///
    /// The source's error past the count; the delay observable's error.
    ///
    /// # Performance
    ///
    /// As [`retry`](ObservableExt::retry) without a delay (on the stack over a source that
    /// finishes inside `subscribe`), as [`retry_when`](ObservableExt::retry_when) with one,
    /// plus a timer task per retry with [`delay`](RetryConfig::delay). A zero duration
    /// retries at once, with no timer.
    #[doc(alias = "retry")]
    #[doc(alias = "retryWhen")]
    #[doc(alias = "RetryConfig")]
    fn retry_with<D>(self, config: RetryConfig<D>) -> Resubscribe<Self, D>
    where
        Self: Clone,
        D: ResubscribeDelay,
    {
        config.build(self)
    }

    /// Subscribes to the source again after it completes, as `config` says: how many times
    /// in total ([`count`](RepeatConfig::count), no limit by default; zero completes at once
    /// without subscribing), and after what ([`delay`](RepeatConfig::delay), a duration on
    /// a scheduler, or [`delay_with`](RepeatConfig::delay_with), an observable made from
    /// the number of the completion). RxJS 7's `repeat(config)`;
    /// [`repeat`](ObservableExt::repeat) and [`repeat_when`](ObservableExt::repeat_when)
    /// are its common cases, and build the same type.
    ///
    /// An error ends the sequence at once. A delay observable that completes without a
    /// value completes the sequence, and one that fails ends it with its error.
    ///
    /// ```text
    /// source:                             --a--b--|
    /// repeat_with(count(3).delay(3)):     --a--b-------a--b-------a--b--|
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::operators::RepeatConfig;
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    ///
    /// let scheduler = TestScheduler::new();
    /// let m = Marbles::new(&scheduler);
    /// let source = m.cold("--a--b--|");
    /// let config = RepeatConfig::new().count(3).delay(m.time("---|"), scheduler.clone());
    /// m.expect(source.clone().repeat_with(config))
    ///     .to_be("--a--b-------a--b-------a--b--|");
    /// source.assert_subscriptions(&[
    ///     "^-------!",
    ///     "-----------^-------!",
    ///     "----------------------^-------!",
    /// ]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// As [`retry_with`](ObservableExt::retry_with).
    ///
    /// # Errors
    ///
    /// The source's error, at once; the delay observable's error.
    ///
    /// # Performance
    ///
    /// As [`retry_with`](ObservableExt::retry_with).
    #[doc(alias = "repeat")]
    #[doc(alias = "repeatWhen")]
    #[doc(alias = "RepeatConfig")]
    fn repeat_with<D>(self, config: RepeatConfig<D>) -> Resubscribe<Self, D>
    where
        Self: Clone,
        D: ResubscribeDelay,
    {
        config.build(self)
    }

    /// Subscribes to the source again after each of up to `retries` errors, waiting longer
    /// each time: retry number `n` (from 1) starts `min(initial × 2^(n−1), max)` after the
    /// `n`th error, on a timer of `scheduler` — exponential backoff with a cap. The error
    /// after the last retry is passed on; completion passes through.
    ///
    /// ```text
    /// source:                                      -#
    /// retry_with_backoff(2, 10ms, 15ms, sch):      -#-(10ms)-#-(15ms)-#
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
    /// let observer = TestObserver::<i32>::new();
    /// let ms = Duration::from_millis;
    /// rx::source::throw(rx::Error::msg("offline"))
    ///     .retry_with_backoff(4, ms(100), ms(300), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_error("offline");
    /// // 100 + 200 + 300 (capped) + 300 (capped)
    /// assert_eq!(scheduler.elapsed(), ms(900));
    /// ```
    ///
    /// # Scheduler
    ///
    /// The waits are timers of `scheduler`; each attempt is subscribed on the thread where
    /// its timer fires. So the source must be thread-safe: a local subject's or a
    /// `boxed_local()` observable does not compile here (use
    /// [`retry_when`](ObservableExt::retry_when) with a notifier of its flavour).
    ///
    /// # Errors
    ///
    /// The source's error after `retries` retries.
    ///
    /// # Performance
    ///
    /// As [`retry_when`](ObservableExt::retry_when), with one timer task per retry.
    #[doc(alias = "retryBackoff")]
    fn retry_with_backoff<Sch>(
        self,
        retries: usize,
        initial: std::time::Duration,
        max: std::time::Duration,
        scheduler: Sch,
    ) -> RetryWithBackoff<Self, Sch>
    where
        Self: Clone,
        Sch: crate::schedulers::Scheduler + Clone,
    {
        RetryWithBackoff::new(self, retries, initial, max, scheduler)
    }

    // -------------------------------------------------------------------------------- time
    /// Shifts each value and the completion `delay` later, keeping the spacing between them.
    /// An error is not delayed: it is delivered as soon as it arrives and drops the values
    /// still waiting, as with RxJava's default (`delayError = false`), Rx.NET and RxJS.
    ///
    /// ```text
    /// source:     -a--b-|
    /// delay(3):   ----a--b-|
    ///
    /// source:     -a-#
    /// delay(3):   ---#
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

    /// Holds each value and the completion until the instant `at` on `scheduler`'s clock,
    /// and passes what comes after it on as soon as the worker runs (RxJS's `delay(date)`).
    /// An error is not held, as with [`delay`](ObservableExt::delay): it is delivered as
    /// soon as it arrives and drops the values still waiting.
    ///
    /// ```text
    /// source:          -a-b----c-|
    /// at:                   ^
    /// delay_until(at): -----(ab)-c-|
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
    /// let opening = scheduler.now() + ms(100);
    /// cold(&scheduler, [(ms(10), Next('a')), (ms(120), Next('b')), (ms(130), Completed)])
    ///     .delay_until(opening, scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(100), Next('a')), (ms(120), Next('b')), (ms(130), Completed)]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// As [`delay`](ObservableExt::delay): values and the completion are delivered by a task
    /// on a worker of `scheduler`.
    ///
    /// # Performance
    ///
    /// As [`delay`](ObservableExt::delay); the queue holds what arrives before `at`.
    #[doc(alias = "delay")]
    fn delay_until<Sch>(self, at: crate::time::Instant, scheduler: Sch) -> Delay<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        Delay::until(self, at, scheduler)
    }

    /// Emits each value when the observable that `selector` returns for it emits (RxJS's
    /// `delayWhen`, RxJava's `delay(itemDelayIndicator)`): the form of
    /// [`delay`](ObservableExt::delay) where each value chooses its own delay. Values wait
    /// independently, so they come out in the order their delays end. A delay is disposed
    /// after its first value; one that completes without a value drops its value (RxJS 7).
    /// The completion waits for every value still delayed.
    ///
    /// ```text
    /// source:      -a--b--c---|
    /// delays:       ----x
    ///                  -x
    ///                     ---x
    /// delay_when:  ----(ba)--c|
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
    /// let s = scheduler.clone();
    /// // Each value is its own delay, in milliseconds.
    /// cold(&scheduler, [(ms(0), Next(30)), (ms(10), Next(5)), (ms(20), Completed)])
    ///     .delay_when(move |wait| rx::source::timer(ms(*wait), s.clone()))
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(15), Next(5)), (ms(30), Next(30)), (ms(30), Completed)]);
    /// ```
    ///
    /// # Errors
    ///
    /// An error from the source or from a delay is delivered at once, after the others are
    /// disposed; the values still delayed are dropped.
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state); per value, the delay's
    /// subscription, which holds the value, and two uncontended locks.
    #[doc(alias = "delayWhen")]
    fn delay_when<'a, F, D>(self, selector: F) -> DelayWhen<'a, Self, F>
    where
        F: FnMut(&Self::Item) -> D,
        D: Observable,
    {
        DelayWhen::new(self, selector)
    }

    /// Subscribes to the source only once `delay` has passed on `scheduler`; until then
    /// nothing runs upstream (RxJS's and RxJava's `delaySubscription`). Values are not
    /// shifted: a cold source starts later, a hot one is missed until then.
    ///
    /// ```text
    /// source:                     -a-b-|
    /// delay_subscription(3):  -----a-b-|
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
    /// cold(&scheduler, [(ms(10), Next('a')), (ms(20), Completed)])
    ///     .delay_subscription(ms(100), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(110), Next('a')), (ms(120), Completed)]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// The source is subscribed from a task on a worker of `scheduler`, as with
    /// [`subscribe_on`](ObservableExt::subscribe_on); disposing the handle before then
    /// cancels the task, and the source is never subscribed. With
    /// [`Immediate`](crate::schedulers::Immediate), `subscribe` sleeps for `delay`.
    ///
    /// # Performance
    ///
    /// One task and one allocation for the handle's shared state per subscription.
    #[doc(alias = "delaySubscription")]
    fn delay_subscription<Sch>(
        self,
        delay: std::time::Duration,
        scheduler: Sch,
    ) -> DelaySubscription<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        DelaySubscription::after(self, delay, scheduler)
    }

    /// Subscribes to the source only at the instant `due` on `scheduler`'s clock, or as soon
    /// as the worker runs if `due` has passed: the absolute form of
    /// [`delay_subscription`](ObservableExt::delay_subscription).
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
    /// let due = scheduler.now() + ms(100);
    /// cold(&scheduler, [(ms(10), Next('a')), (ms(20), Completed)])
    ///     .delay_subscription_until(due, scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[(ms(110), Next('a')), (ms(120), Completed)]);
    /// ```
    ///
    /// # Scheduler
    ///
    /// As [`delay_subscription`](ObservableExt::delay_subscription).
    #[doc(alias = "delaySubscription")]
    fn delay_subscription_until<Sch>(
        self,
        due: crate::time::Instant,
        scheduler: Sch,
    ) -> DelaySubscription<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        DelaySubscription::at(self, due, scheduler)
    }

    /// Fails with a [`TimeoutError`] if no value arrives within `timeout` of the subscription
    /// or of the previous value; upstream is disposed before the error is delivered. Values,
    /// completion and errors that arrive in time pass unchanged.
    ///
    /// ```text
    /// source:        -a--b--------c-|
    /// timeout(5):    -a--b----#
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::operators::TimeoutError;
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::{cold, TimedObserver};
    /// use rx::Notification::Next;
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// cold(&scheduler, [(ms(10), Next(1)), (ms(20), Next(2)), (ms(500), Next(3))])
    ///     .timeout(ms(100), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    ///
    /// let timeline = observer.timeline();
    /// assert_eq!(timeline[..2], [(ms(10), Next(1)), (ms(20), Next(2))]);
    /// let (at, rx::Notification::Error(error)) = &timeline[2] else { panic!("an error") };
    /// assert_eq!(*at, ms(120));
    /// assert!(error.is::<TimeoutError>());
    /// ```
    ///
    /// # Errors
    ///
    /// A [`TimeoutError`] when the source is silent for `timeout`.
    ///
    /// # Scheduler
    ///
    /// The error is delivered by a timer task on a worker of `scheduler`; everything else on
    /// the thread that reports it, unless a delivery is under way, which then delivers it.
    ///
    /// It must be one that queues tasks ([`DeferringScheduler`](crate::schedulers::DeferringScheduler)):
    /// on [`Immediate`](crate::schedulers::Immediate) the timer would run inline, before the
    /// source is even subscribed, so it does not compile.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the shared state, one for the queue values pass
    /// through, and one timer task for the whole subscription: a value only moves its
    /// deadline, and the task, waking early, sleeps again until it. A lock per value.
    fn timeout<Sch>(self, timeout: std::time::Duration, scheduler: Sch) -> Timeout<Self, Sch>
    where
        Sch: crate::schedulers::DeferringScheduler,
    {
        Timeout::new(self, timeout, scheduler)
    }

    /// Switches to `fallback` if no value arrives within `timeout` of the subscription or of
    /// the previous value: this observable is disposed, then `fallback` subscribed, and its
    /// values, completion or error follow. Values, completion and errors that arrive in time
    /// pass unchanged, and `fallback` is never subscribed.
    ///
    /// [`timeout`](ObservableExt::timeout) is the special case that fails instead.
    ///
    /// ```text
    /// source:           -a--b--------c-|
    /// fallback:                  -x-y|     subscribed at 9: 5 after b
    /// timeout_with(5):  -a--b-----x-y|
    /// ```
    ///
    /// # Examples
    ///
    /// A feed that falls back to a cached answer when the server is slow.
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
    /// cold(&scheduler, [(ms(10), Next("live")), (ms(500), Next("late"))])
    ///     .timeout_with(ms(100), rx::source::just("cached"), scheduler.clone())
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[
    ///     (ms(10), Next("live")),
    ///     (ms(110), Next("cached")),
    ///     (ms(110), Completed),
    /// ]);
    /// ```
    ///
    /// # Errors
    ///
    /// An error of this observable in time, or of `fallback` once it runs, passes unchanged.
    ///
    /// # Scheduler
    ///
    /// `fallback` is subscribed by a timer task on a worker of `scheduler`; as
    /// [`timeout`](ObservableExt::timeout) otherwise, and like it, it does not compile with
    /// [`Immediate`](crate::schedulers::Immediate).
    ///
    /// # Performance
    ///
    /// As [`timeout`](ObservableExt::timeout), plus one allocation per subscription for the
    /// handle that switches from this observable to `fallback`, one for each of their
    /// handles that is not zero-sized, and a lock when the switch happens.
    #[doc(alias = "timeoutWith")]
    fn timeout_with<F, Sch>(
        self,
        timeout: std::time::Duration,
        fallback: F,
        scheduler: Sch,
    ) -> TimeoutWith<Self, F, Sch>
    where
        F: Observable<Item = Self::Item>,
        Sch: crate::schedulers::DeferringScheduler,
    {
        TimeoutWith::new(self, timeout, fallback, scheduler)
    }

    /// Fails with [`TimedOut`](crate::operators::TimedOut) when a deadline observable signals
    /// before the next value (RxJava's `timeout(firstTimeoutIndicator,
    /// itemTimeoutIndicator)`): `first` is the deadline of the first value, and each value
    /// chooses the deadline of the next with `each`. A deadline that emits or completes has
    /// come; each is disposed once its value arrives. The source is disposed before the
    /// error is delivered. RxJS's `timeout({ first, each })` is this with
    /// [`timer`](crate::source::timer)s.
    ///
    /// ```text
    /// source:        -a--b------c-
    /// first:         ---x
    /// each:           ----x
    ///                    ----x
    /// timeout_when:  -a--b---#
    /// ```
    ///
    /// `first` is subscribed before this observable.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::operators::TimedOut;
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::{cold, TimedObserver};
    /// use rx::Notification::{Error, Next};
    /// use std::time::Duration;
    ///
    /// let ms = Duration::from_millis;
    /// let scheduler = TestScheduler::new();
    /// let observer = TimedObserver::new(&scheduler);
    /// let s = scheduler.clone();
    /// // 100 ms for the first value, then 30 ms between values.
    /// cold(&scheduler, [(ms(80), Next('a')), (ms(100), Next('b')), (ms(150), Next('c'))])
    ///     .timeout_when(rx::source::timer(ms(100), scheduler.clone()), move |_| {
    ///         rx::source::timer(ms(30), s.clone())
    ///     })
    ///     .subscribe_observer(observer.clone());
    /// scheduler.run();
    /// observer.assert_timeline(&[
    ///     (ms(80), Next('a')),
    ///     (ms(100), Next('b')),
    ///     (ms(130), Error(rx::Error::new(TimedOut))),
    /// ]);
    /// ```
    ///
    /// # Errors
    ///
    /// [`TimedOut`](crate::operators::TimedOut) when a deadline comes; an error of this
    /// observable, or of the current deadline, passes unchanged (that of a deadline no longer
    /// current is dropped).
    ///
    /// # Performance
    ///
    /// One allocation per subscription (the shared state); per value, two uncontended locks
    /// and the next deadline's subscription.
    #[doc(alias = "timeout")]
    fn timeout_when<'a, N, F, D>(self, first: N, each: F) -> TimeoutWhen<'a, Self, N, F>
    where
        N: Observable,
        F: FnMut(&Self::Item) -> D,
        D: Observable,
    {
        TimeoutWhen::new(self, first, each)
    }

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

    // -------------------------------------------------------------------------- schedulers
    /// Delivers every notification from a task on a worker of `scheduler`, in order, one at a
    /// time: what happens downstream runs on that worker (its thread, for a thread-backed
    /// scheduler). Upstream is not slowed: notifications queue until the worker takes them.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::NewThread;
    /// use std::sync::mpsc;
    ///
    /// let (tx, rx) = mpsc::channel();
    /// rx::source::from_iter([1, 2, 3])
    ///     .observe_on(NewThread)
    ///     .subscribe(move |v| tx.send((v, std::thread::current().id())).unwrap());
    ///
    /// let received: Vec<_> = rx.iter().collect();
    /// assert_eq!(received.iter().map(|(v, _)| *v).collect::<Vec<_>>(), [1, 2, 3]);
    /// assert!(received.iter().all(|(_, thread)| *thread != std::thread::current().id()));
    /// ```
    ///
    /// # Scheduler
    ///
    /// One task on one worker drains the queue: never two notifications at once, never out of
    /// order. With [`Immediate`](crate::schedulers::Immediate), which runs tasks inline, the
    /// notifications are delivered directly instead: no queue, no task, no allocation.
    ///
    /// # Performance
    ///
    /// One allocation per subscription for the shared state, and a queue that is
    /// **unbounded**: it grows while upstream emits faster than the worker delivers (Rx has no
    /// backpressure; RxJava's `Observable.observeOn` queues the same way);
    /// [`observe_on_bounded`](ObservableExt::observe_on_bounded) bounds it. A lock per
    /// notification on upstream's side; the delivering task is scheduled once per burst, not
    /// once per value, and takes everything queued in one batch under one lock, delivering it
    /// with the lock released; the batch's buffer is reused, so no value allocates once the
    /// buffers have grown to the largest burst.
    #[doc(alias = "observeOn")]
    fn observe_on<Sch>(self, scheduler: Sch) -> ObserveOn<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        ObserveOn::new(self, scheduler)
    }

    /// [`observe_on`](ObservableExt::observe_on) with a bounded queue: at most
    /// `bound.capacity()` values wait for the worker, and `bound`'s
    /// [`Overflow`](crate::backpressure::Overflow) strategy says what happens to a value
    /// that finds the queue full (see [`backpressure`](crate::backpressure)):
    ///
    /// ```text
    /// burst of 0..10 before the worker runs, capacity 4:
    /// Block       0 1 2 3 4 5 6 7 8 9    (the producer waits; needs it on another thread)
    /// DropNewest  0 1 2 3                (dropped: 4 5 6 7 8 9)
    /// DropOldest  6 7 8 9                (dropped: 0 1 2 3 4 5)
    /// KeepLatest  0 1 2 9                (dropped: 3 4 5 6 7 8)
    /// Error       0 1 2 3 #BufferOverflow (dropped: 4; upstream disposed)
    /// ```
    ///
    /// Every dropped value goes to the bound's [`on_drop`](crate::backpressure::Bounded::on_drop)
    /// callback, and the handle counts them:
    /// [`dropped`](crate::operators::ObserveOnBoundedSubscription::dropped),
    /// [`queued`](crate::operators::ObserveOnBoundedSubscription::queued) and
    /// [`peak_queued`](crate::operators::ObserveOnBoundedSubscription::peak_queued).
    ///
    /// # Examples
    ///
    /// Each strategy on virtual time, the whole burst arriving before the worker runs:
    ///
    /// ```
    /// use rx::backpressure::{Bounded, BufferOverflow, Overflow};
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::TestObserver;
    /// use std::sync::{Arc, Mutex};
    ///
    /// fn burst(overflow: Overflow) -> (TestObserver<i32>, Vec<i32>) {
    ///     let sch = TestScheduler::new();
    ///     let o = TestObserver::new();
    ///     let dropped = Arc::new(Mutex::new(Vec::new()));
    ///     let log = dropped.clone();
    ///     let bound = Bounded::new(4).on_full(overflow).on_drop(move |v| log.lock().unwrap().push(v));
    ///     let handle = rx::source::from_iter(0..10)
    ///         .observe_on_bounded(sch.clone(), bound)
    ///         .subscribe_observer(o.clone());
    ///     sch.run();
    ///     assert!(handle.peak_queued() <= 4);
    ///     let dropped = dropped.lock().unwrap().clone();
    ///     assert_eq!(handle.dropped(), dropped.len() as u64);
    ///     (o, dropped)
    /// }
    ///
    /// let (o, dropped) = burst(Overflow::DropNewest);
    /// o.assert_values(&[0, 1, 2, 3]);
    /// assert_eq!(dropped, [4, 5, 6, 7, 8, 9]);
    ///
    /// let (o, dropped) = burst(Overflow::DropOldest);
    /// o.assert_values(&[6, 7, 8, 9]);
    /// assert_eq!(dropped, [0, 1, 2, 3, 4, 5]);
    ///
    /// let (o, dropped) = burst(Overflow::KeepLatest);
    /// o.assert_values(&[0, 1, 2, 9]);
    /// assert_eq!(dropped, [3, 4, 5, 6, 7, 8]);
    ///
    /// let (o, dropped) = burst(Overflow::Error);
    /// o.assert_values(&[0, 1, 2, 3]);
    /// assert!(o.error().unwrap().is::<BufferOverflow>());
    /// assert_eq!(dropped, [4]); // and the source was told to stop
    /// ```
    ///
    /// Blocking a producer on another thread: nothing is lost, the order is kept, and no
    /// more than the capacity ever waits.
    ///
    /// ```
    /// use rx::backpressure::Bounded;
    /// use rx::prelude::*;
    /// use rx::schedulers::NewThread;
    ///
    /// let values: Vec<_> = rx::source::from_iter(0..1000)
    ///     .subscribe_on(NewThread)
    ///     .observe_on_bounded(NewThread, Bounded::new(16))
    ///     .as_blocking()
    ///     .into_iter()
    ///     .collect::<Result<_, _>>()
    ///     .unwrap();
    /// assert_eq!(values, (0..1000).collect::<Vec<_>>());
    /// ```
    ///
    /// # Errors
    ///
    /// Under [`Overflow::Error`](crate::backpressure::Overflow::Error), a
    /// [`BufferOverflow`](crate::backpressure::BufferOverflow) after the values queued. Under
    /// [`Overflow::Block`](crate::backpressure::Overflow::Block), a
    /// [`WouldDeadlock`](crate::backpressure::WouldDeadlock) when the producer finds the
    /// queue full on the thread the worker delivers on (as the thread that last ran the
    /// delivering task; before the worker first runs it, a producer that has waited a second
    /// is taken to be on it). Either way upstream is disposed and the value that did not fit
    /// goes to `on_drop`.
    ///
    /// # Scheduler
    ///
    /// As for `observe_on`; the delivering task is also scheduled once at subscribe, so the
    /// worker's thread is known early. With [`Immediate`](crate::schedulers::Immediate)
    /// notifications are delivered directly: nothing waits, nothing is dropped.
    ///
    /// # Performance
    ///
    /// As for `observe_on`, with one more allocation per subscription (the upstream handle's
    /// slot). The queue grows on demand up to the capacity. A blocked producer parks its
    /// thread and is woken when half the queue is free, so a fast producer and a slow
    /// consumer hand over in batches of half the capacity.
    #[doc(alias = "observeOn")]
    #[doc(alias = "onBackpressureBuffer")]
    #[doc(alias = "onBackpressureDrop")]
    #[doc(alias = "onBackpressureLatest")]
    fn observe_on_bounded<Sch>(
        self,
        scheduler: Sch,
        bound: crate::backpressure::Bounded<Self::Item>,
    ) -> ObserveOnBounded<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        ObserveOnBounded::new(self, scheduler, bound)
    }

    /// Subscribes to the source from a task on a worker of `scheduler`, so the subscription
    /// itself, and everything a synchronous source does in it, runs there. Notifications are
    /// then delivered wherever the source emits them.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::NewThread;
    ///
    /// let caller = std::thread::current().id();
    /// let threads: Vec<_> = rx::source::from_iter([1, 2])
    ///     .map(|_| std::thread::current().id())
    ///     .subscribe_on(NewThread)
    ///     .as_blocking()
    ///     .into_iter()
    ///     .collect::<Result<_, _>>()
    ///     .unwrap();
    /// assert_eq!(threads.len(), 2);
    /// assert!(threads.iter().all(|thread| *thread != caller));
    /// ```
    ///
    /// # Scheduler
    ///
    /// Disposing the handle before the task has run cancels it; the source is then never
    /// subscribed. Where the worker would run the task at once anyway
    /// ([`Worker::run_now`](crate::schedulers::Worker::run_now)), the source is subscribed
    /// inline and the handle is its own: with [`Immediate`](crate::schedulers::Immediate),
    /// and with [`CurrentThread`](crate::schedulers::CurrentThread) when no task of its is
    /// running on the thread (inside one, the subscription is queued behind it).
    ///
    /// # Performance
    ///
    /// Inline: no task, no allocation. Otherwise one allocation for the handle's shared state
    /// and one task per subscription.
    #[doc(alias = "subscribeOn")]
    fn subscribe_on<Sch>(self, scheduler: Sch) -> SubscribeOn<Self, Sch>
    where
        Sch: crate::schedulers::Scheduler,
    {
        SubscribeOn::new(self, scheduler)
    }

    // ----------------------------------------------------------------------------- utility
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

    /// Names a point of the pipeline and reports everything that passes it as `tracing`
    /// events (feature `tracing`): each subscription opens a span `spy` (level DEBUG, fields
    /// `label` and `subscription`, its number at this point), and inside it each value is an
    /// event at level TRACE and each subscription, error, completion and disposal one at
    /// level DEBUG. Every event has the fields `event` (`"subscribed"`, `"next"`, `"error"`,
    /// `"completed"` or `"disposed"`), `value` (Debug) or `error` (Display) where there is
    /// one, `thread`, `elapsed` (time since the subscription was made), and the point's
    /// counts so far: `values`, `errors`, `completions` and `live` (subscriptions not ended).
    /// Notifications pass on unchanged, after their report.
    ///
    /// Without the `tracing` feature `spy` is its source, unchanged: leave it in the code and
    /// switch it on when a pipeline misbehaves. The values must be `Debug` either way, so that
    /// turning the feature on never breaks a build. [`spy_with`](ObservableExt::spy_with) reports
    /// to a closure instead, with or without the feature.
    ///
    /// ```text
    /// source:             -a-b-|
    /// spy("answers"):     -a-b-|     (and a span with 5 events: subscribed, next a, next b, completed)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// // With a `tracing` subscriber installed (tracing-subscriber's `fmt()`, say), this logs:
    /// //   DEBUG spy{label=squares subscription=1}: event="subscribed" thread=main ...
    /// //   TRACE spy{label=squares subscription=1}: event="next" value=1 ... values=1 ...
    /// let observer = TestObserver::new();
    /// rx::source::from_iter([1, 2, 3])
    ///     .map(|v| v * v)
    ///     .spy("squares")
    ///     .subscribe_observer(observer.clone());
    /// observer.assert_values(&[1, 4, 9]);
    /// ```
    ///
    /// # Performance
    ///
    /// Without the feature: nothing, the type is its source's. With it: per subscription, a
    /// span and one allocation (the state the observer and the handle share); per
    /// notification, a relaxed atomic add for the counts and a check of the event's
    /// interest. The fields (thread, time, counts, the value's `Debug`) are computed only for
    /// a subscriber that wants the event. `benches/` measures the chain with and without.
    #[doc(alias = "debug")]
    #[doc(alias = "log")]
    #[doc(alias = "tag")]
    #[doc(alias = "trace")]
    fn spy(self, label: impl Into<std::borrow::Cow<'static, str>>) -> Spy<Self>
    where
        // With or without the feature, so that turning `tracing` on never breaks a build.
        Self::Item: std::fmt::Debug,
    {
        Spy::new(self, label.into())
    }

    /// Names a point of the pipeline and calls `f` with a [`SpyEvent`](crate::operators::SpyEvent)
    /// for everything that passes it: each subscription, value, error, completion and
    /// disposal (by the handle, or by a downstream that stopped early), with the point's
    /// label, the subscription's number, the thread, the time since the subscription was
    /// made, and the point's counts ([`SpyWith::counts`](crate::operators::SpyWith::counts)
    /// reads them from outside). Notifications pass on unchanged, after `f` has seen them.
    ///
    /// `f` is shared by every subscription of the point (it may run on several threads at
    /// once when the point is subscribed from several), so it is `Fn`: keep its state behind
    /// a lock or atomics. [`Recorder::spy`](crate::testing::marbles::Recorder::spy) is such
    /// a closure, which turns what passes into a marble diagram.
    ///
    /// ```text
    /// source:                -a-b-|
    /// spy_with("ids", f):    -a-b-|     (f sees: Subscribed, Next(a), Next(b), Completed)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::operators::SpyKind;
    /// use rx::prelude::*;
    /// use std::sync::Mutex;
    ///
    /// let log = Mutex::new(Vec::new());
    /// let spied = rx::source::from_iter(1..=5).spy_with("numbers", |event| {
    ///     let what = match event.kind() {
    ///         SpyKind::Subscribed => "subscribed".to_string(),
    ///         SpyKind::Next(v) => format!("next {v}"),
    ///         SpyKind::Error(e) => format!("error {e}"),
    ///         SpyKind::Completed => "completed".to_string(),
    ///         SpyKind::Disposed => "disposed".to_string(),
    ///         _ => unreachable!(),
    ///     };
    ///     log.lock().unwrap().push(format!("{} #{}: {what}", event.label(), event.subscription()));
    /// });
    /// let counts = spied.counts();
    /// spied.take(2).subscribe(|_| {});
    /// assert_eq!(
    ///     *log.lock().unwrap(),
    ///     ["numbers #1: subscribed", "numbers #1: next 1", "numbers #1: next 2", "numbers #1: disposed"]
    /// );
    /// assert_eq!((counts.values(), counts.completions(), counts.live()), (2, 0, 0));
    /// ```
    ///
    /// # Performance
    ///
    /// Per point, one allocation for `f` and the counts. Per subscription, one allocation
    /// (the state its observer and its handle share). Per notification, a relaxed atomic add
    /// and the call of `f`; the thread and the time are read only when `f` asks.
    #[doc(alias = "debug")]
    #[doc(alias = "log")]
    #[doc(alias = "tag")]
    fn spy_with<F>(self, label: impl Into<std::borrow::Cow<'static, str>>, f: F) -> SpyWith<Self, F>
    where
        F: Fn(&crate::operators::SpyEvent<'_, Self::Item>),
    {
        SpyWith::new(self, label.into(), f)
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

    /// Calls `f` when the observable is subscribed, before its source is, for a side effect
    /// such as logging or starting a spinner (RxJava's `doOnSubscribe`, RxJS's
    /// `tap({ subscribe })`). Each subscription calls its own `f`, so subscribing twice needs
    /// a `Clone` closure.
    ///
    /// ```text
    /// source:              --a-b-|
    /// tap_subscribe(f):    f-a-b-|     f runs at the subscription
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use std::cell::RefCell;
    ///
    /// let log = RefCell::new(Vec::new());
    /// rx::source::from_iter([1, 2])
    ///     .tap_subscribe(|| log.borrow_mut().push("subscribed".to_string()))
    ///     .subscribe(|v| log.borrow_mut().push(format!("got {v}")));
    /// assert_eq!(log.into_inner(), ["subscribed", "got 1", "got 2"]);
    /// ```
    ///
    /// # Performance
    ///
    /// `f` is called and the source subscribed directly: no allocation, no lock.
    fn tap_subscribe<F>(self, f: F) -> TapSubscribe<Self, F>
    where
        F: FnOnce(),
    {
        TapSubscribe::new(self, f)
    }

    /// Calls `f` once if the subscription is disposed before it ends: when the returned
    /// handle is disposed, or when the downstream stops it early (a `take` further down),
    /// but not after completion or an error (RxJava's `doOnDispose`, RxJS's
    /// `tap({ unsubscribe })`). [`finally`](ObservableExt::finally) runs at every end.
    ///
    /// `f` runs after upstream has been disposed. Each subscription runs its own `f`, so
    /// subscribing twice needs a `Clone` closure.
    ///
    /// ```text
    /// source:            -a-b-c-d-
    /// tap_dispose(f):    -a-b-!        f runs at the !
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use std::cell::Cell;
    ///
    /// let disposed = Cell::new(0);
    /// rx::source::from_iter([1, 2, 3])
    ///     .tap_dispose(|| disposed.set(disposed.get() + 1))
    ///     .subscribe(|_| {});
    /// assert_eq!(disposed.get(), 0, "completed: not disposed");
    ///
    /// rx::source::from_iter(0..)
    ///     .tap_dispose(|| disposed.set(disposed.get() + 1))
    ///     .take(2)
    ///     .subscribe(|_| {});
    /// assert_eq!(disposed.get(), 1, "stopped early by take");
    ///
    /// let handle = rx::source::never::<i32>()
    ///     .tap_dispose(|| disposed.set(disposed.get() + 1))
    ///     .subscribe(|_| {});
    /// handle.dispose();
    /// assert_eq!(disposed.get(), 2);
    /// ```
    ///
    /// # Performance
    ///
    /// As for `finally`: one allocation per subscription, an `Arc` that the observer and the
    /// returned handle share, holding `f` behind a lock taken when the subscription ends.
    /// Values pass through without touching it.
    fn tap_dispose<F>(self, f: F) -> TapDispose<Self, F>
    where
        F: FnOnce(),
    {
        Finally::new(self, OnDispose(f))
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

    // ------------------------------------------------------------------------ multicasting
    /// Shares one subscription to this observable among many subscribers, through a
    /// [`PublishSubject`](crate::subjects::PublishSubject). Subscribers join the subject; the
    /// source is subscribed only when [`connect`](ConnectableObservable::connect) is called,
    /// and each subscriber gets what it emits from then on.
    ///
    /// Disposing the connection disconnects the source; the next `connect` subscribes it
    /// again, feeding a fresh subject, and so does a `connect` after the source terminated: the
    /// source must be `Clone` to connect. Between the source's termination and the next
    /// `connect`, a subscriber gets the terminal notification. Use
    /// [`ref_count`](ConnectableObservable::ref_count) or [`share`](ObservableExt::share) to
    /// connect and disconnect with the subscribers.
    ///
    /// ```text
    /// source:   -1-2-3-|
    /// connect:  ^
    /// A:        -1-2-3-|   subscribed before connect
    /// B:          -2-3-|   subscribed after 1
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// static CALLS: AtomicUsize = AtomicUsize::new(0);
    /// let published = rx::source::from_iter([1, 2, 3])
    ///     .map(|v| {
    ///         CALLS.fetch_add(1, Ordering::Relaxed);
    ///         v * 10
    ///     })
    ///     .publish();
    /// let (a, b) = (TestObserver::new(), TestObserver::new());
    /// published.clone().subscribe_observer(a.clone());
    /// published.clone().subscribe_observer(b.clone());
    /// a.assert_values(&[]);
    ///
    /// published.connect();
    /// a.assert_values(&[10, 20, 30]);
    /// b.assert_values(&[10, 20, 30]);
    /// b.assert_completed();
    /// assert_eq!(CALLS.load(Ordering::Relaxed), 3, "the source ran once for both");
    /// ```
    ///
    /// # Performance
    ///
    /// One allocation for the shared state, one per connection and one per subscriber; each
    /// value then costs what [`PublishSubject`](crate::subjects::PublishSubject)'s `on_next`
    /// costs (no lock, no allocation) plus one atomic load.
    fn publish(self) -> ConnectableObservable<Self, crate::subjects::PublishSubject<Self::Item>>
    where
        Self::Item: Clone + Send + 'static,
    {
        ConnectableObservable::publish(self)
    }

    /// Like [`publish`](ObservableExt::publish), through a
    /// [`ReplaySubject`](crate::subjects::ReplaySubject) that keeps the last `capacity` values:
    /// a subscriber that joins a running (or terminated) connection gets those first.
    ///
    /// Each new connection starts with an empty buffer. For a buffer without a bound or with a
    /// time window, pass such a subject to [`multicast`](ObservableExt::multicast).
    ///
    /// ```text
    /// source:     -1-2-3-|
    /// connect:    ^
    /// A:          -1-2-3-|      subscribed before connect
    /// replay(2) B:    (12)3-|   subscribed after 2
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    ///
    /// let replayed = rx::source::from_iter(1..=5).replay(2);
    /// replayed.connect();
    ///
    /// let late = TestObserver::new();
    /// replayed.clone().subscribe_observer(late.clone());
    /// late.assert_values(&[4, 5]);
    /// late.assert_completed();
    /// ```
    ///
    /// # Panics
    ///
    /// If `capacity` is zero.
    ///
    /// # Performance
    ///
    /// As [`publish`](ObservableExt::publish), plus one clone of each value to keep it.
    fn replay(
        self,
        capacity: usize,
    ) -> ConnectableObservable<Self, crate::subjects::ReplaySubject<Self::Item>>
    where
        Self::Item: Clone + Send + 'static,
    {
        ConnectableObservable::replay(self, capacity)
    }

    /// Like [`publish`](ObservableExt::publish), through the given `subject`, which stays the
    /// same across connections: a reconnection feeds it again (and does nothing visible once
    /// it has terminated).
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::subjects::BehaviorSubject;
    /// use rx::testing::TestObserver;
    ///
    /// let state = BehaviorSubject::new(0);
    /// let connectable = rx::source::from_iter([1, 2]).multicast(state.clone());
    /// let o = TestObserver::new();
    /// connectable.clone().subscribe_observer(o.clone());
    /// o.assert_values(&[0]);
    ///
    /// connectable.connect();
    /// o.assert_values(&[0, 1, 2]);
    /// o.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// As [`publish`](ObservableExt::publish), plus what the subject keeps.
    fn multicast<J>(self, subject: J) -> ConnectableObservable<Self, J>
    where
        J: crate::subjects::Subject<Self::Item>,
    {
        ConnectableObservable::multicast(self, subject)
    }

    /// Shares one subscription to this observable among its subscribers while there are any:
    /// [`publish`](ObservableExt::publish)`().`[`ref_count`](ConnectableObservable::ref_count)`()`.
    ///
    /// The first subscriber connects the source; the others join the running connection and
    /// get what it emits from then on. When the last subscriber leaves — by disposing, by
    /// terminating, or by reporting [`is_disposed`](crate::Observer::is_disposed), as a
    /// finished `take` does — the source is disconnected. After the source terminated, the
    /// next subscriber starts a new connection. Every connection subscribes a clone of the
    /// source, so it must be `Clone`.
    ///
    /// ```text
    /// source (per connection):  -1-2-3-|
    /// A:                        -1-2-3-|   subscribed first: connects
    /// B:                          -2-3-|   subscribed after 1
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::subjects::PublishSubject;
    /// use rx::testing::TestObserver;
    ///
    /// let input = PublishSubject::new();
    /// let shared = input.observable().map(|v| v * 2).share();
    /// let (a, b) = (TestObserver::new(), TestObserver::new());
    /// let ha = shared.clone().subscribe_observer(a.clone());
    /// let hb = shared.clone().subscribe_observer(b.clone());
    /// input.observer().on_next(1);
    /// ha.dispose();
    /// input.observer().on_next(2);
    /// hb.dispose();
    /// assert!(!input.has_observers(), "the last subscriber left: disconnected");
    ///
    /// a.assert_values(&[2]);
    /// b.assert_values(&[2, 4]);
    ///
    /// // The downstream of a finished `take` leaves too, so an endless source stops.
    /// let o = TestObserver::new();
    /// rx::source::from_iter(0..).share().take(2).subscribe_observer(o.clone());
    /// o.assert_values(&[0, 1]);
    /// ```
    ///
    /// # Performance
    ///
    /// As [`publish`](ObservableExt::publish), plus a short lock when a subscriber comes or
    /// leaves.
    #[doc(alias = "refCount")]
    fn share(self) -> RefCount<Self, crate::subjects::PublishSubject<Self::Item>>
    where
        Self::Item: Clone + Send + 'static,
    {
        ConnectableObservable::publish(self).ref_count()
    }

    /// Like [`share`](ObservableExt::share), replaying the last `capacity` values to each
    /// subscriber that joins a running connection: [`replay`](ObservableExt::replay)`(capacity)`
    /// then [`ref_count`](ConnectableObservable::ref_count)`()`.
    ///
    /// The buffer belongs to the connection: when the last subscriber leaves, or after the
    /// source terminated, the next subscriber starts over with an empty one. This is RxJava's
    /// `replay(n).refCount()`; it differs from RxJS's `shareReplay`, which stays subscribed and
    /// keeps replaying after completion — for that, [`replay`](ObservableExt::replay) and
    /// [`connect`](ConnectableObservable::connect) once.
    ///
    /// ```text
    /// source:                           -a-b-----c-|
    /// share_replay(1), A from frame 0:  -a-b-----c-|
    /// share_replay(1), B from frame 5:  -----b---c-|   the last value at once, then on
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::subjects::PublishSubject;
    /// use rx::testing::TestObserver;
    ///
    /// let input = PublishSubject::new();
    /// let shared = input.observable().share_replay(1);
    /// let first = TestObserver::new();
    /// shared.clone().subscribe_observer(first.clone());
    /// input.observer().on_next("a");
    /// input.observer().on_next("b");
    ///
    /// let second = TestObserver::new();
    /// shared.clone().subscribe_observer(second.clone());
    /// second.assert_values(&["b"]);
    /// ```
    ///
    /// # Panics
    ///
    /// If `capacity` is zero.
    ///
    /// # Performance
    ///
    /// As [`share`](ObservableExt::share), plus one clone of each value to keep it.
    #[doc(alias = "shareReplay")]
    fn share_replay(
        self,
        capacity: usize,
    ) -> RefCount<Self, crate::subjects::ReplaySubject<Self::Item>>
    where
        Self::Item: Clone + Send + 'static,
    {
        ConnectableObservable::replay(self, capacity).ref_count()
    }

    /// Shares one subscription to this observable among its subscribers, through a subject
    /// from `config.connector`, starting over when and only when the configuration says so:
    /// RxJS 7's `share({ connector, resetOnError, resetOnComplete, resetOnRefCountZero })`.
    /// With every reset set ([`ShareConfig::new`]) and a
    /// [`PublishSubject`](crate::subjects::PublishSubject) connector, this is
    /// [`share`](ObservableExt::share).
    ///
    /// The first subscriber connects the source. A reset disconnects it if it is running, and
    /// the next subscriber connects it again, to a fresh subject. Without a reset, a
    /// subscriber joins the subject as it is: running on with nobody subscribed (no reset on
    /// ref-count zero), or terminated, replaying what the subject replays.
    ///
    /// [`ShareConfig::new`]: crate::operators::ShareConfig::new
    ///
    /// ```text
    /// source:              -1-2-3-4-
    /// A from frame 0:      -1-2!        leaves: the source stays subscribed
    /// B from frame 6:      ------34-    the subject's replay of 3, then 4
    /// ```
    ///
    /// (with `reset_on_ref_count_zero: false` and a `ReplaySubject` of one value, as below)
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::operators::ShareConfig;
    /// use rx::prelude::*;
    /// use rx::subjects::{PublishSubject, ReplaySubject};
    /// use rx::testing::TestObserver;
    ///
    /// let input = PublishSubject::new();
    /// let shared = input.observable().share_with(ShareConfig {
    ///     reset_on_ref_count_zero: false,
    ///     ..ShareConfig::new(|| ReplaySubject::with_capacity(1))
    /// });
    /// shared.clone().subscribe_observer(TestObserver::new()).dispose();
    /// assert!(input.has_observers(), "still connected with nobody subscribed");
    /// input.observer().on_next(1);
    ///
    /// let late = TestObserver::new();
    /// shared.clone().subscribe_observer(late.clone());
    /// late.assert_values(&[1]);
    /// ```
    ///
    /// # Performance
    ///
    /// As [`share`](ObservableExt::share), plus one allocation for the connector.
    #[doc(alias = "share")]
    fn share_with<J, F>(self, config: ShareConfig<F>) -> RefCount<Self, J>
    where
        F: Fn() -> J + Send + Sync + 'static,
        J: crate::subjects::Subject<Self::Item>,
    {
        RefCount::share_with(self, config)
    }

    /// Like [`share_replay`](ObservableExt::share_replay), but the connection and its buffer
    /// of the last `capacity` values outlive the subscribers: when the last one leaves the
    /// source stays subscribed, and after it completes every later subscriber gets the
    /// buffer and the completion (RxJS's `shareReplay(capacity)`, whose `refCount` is
    /// `false`). An error starts over: the next subscriber subscribes the source again.
    ///
    /// It is [`share_with`](ObservableExt::share_with) with a
    /// [`ReplaySubject`](crate::subjects::ReplaySubject) connector, a reset on error only.
    ///
    /// ```text
    /// source:          -1-2-3-|
    /// A:               ^-1-2-!            leaves
    /// B:                         ^(23|)   after the completion
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// static RUNS: AtomicUsize = AtomicUsize::new(0);
    /// let shared = rx::source::defer(|| {
    ///     RUNS.fetch_add(1, Ordering::Relaxed);
    ///     rx::source::from_iter([1, 2, 3])
    /// })
    /// .share_replay_retained(2);
    ///
    /// let (a, b) = (TestObserver::new(), TestObserver::new());
    /// shared.clone().subscribe_observer(a.clone());
    /// shared.clone().subscribe_observer(b.clone());
    /// a.assert_values(&[1, 2, 3]);
    /// b.assert_values(&[2, 3]);
    /// b.assert_completed();
    /// assert_eq!(RUNS.load(Ordering::Relaxed), 1);
    /// ```
    ///
    /// # Panics
    ///
    /// If `capacity` is zero.
    ///
    /// # Performance
    ///
    /// As [`share_replay`](ObservableExt::share_replay), plus one allocation for the
    /// connector.
    #[doc(alias = "shareReplay")]
    fn share_replay_retained(
        self,
        capacity: usize,
    ) -> RefCount<Self, crate::subjects::ReplaySubject<Self::Item>>
    where
        Self::Item: Clone + Send + 'static,
    {
        RefCount::share_replay_retained(self, capacity)
    }

    /// [`publish`](ObservableExt::publish) on one thread: through a
    /// [`subjects::local::PublishSubject`](crate::subjects::local::PublishSubject), so the
    /// items, the source's subscription and the subscribers need not be `Send` (they may hold
    /// `Rc` and `RefCell`), and nothing on the path is an atomic operation or a lock. The
    /// connectable it returns is not `Send`.
    ///
    /// A `_local` form rather than a choice inferred from the source: most sources (`from_iter`,
    /// `map`, ...) have no thread affinity of their own to infer it from, and whether an item
    /// type is `Send` cannot select an implementation in Rust, so the choice is made, as for a
    /// subject, where the shared state is created. [`multicast`](ObservableExt::multicast)
    /// takes its flavour from the subject it is given.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use std::rc::Rc;
    ///
    /// let published = rx::source::from_iter([1, 2]).map(Rc::new).publish_local();
    /// let o = TestObserver::new();
    /// published.clone().subscribe_observer(o.clone());
    /// published.connect();
    /// o.assert_values(&[Rc::new(1), Rc::new(2)]);
    /// o.assert_completed();
    /// ```
    ///
    /// # Performance
    ///
    /// As [`publish`](ObservableExt::publish), with `Rc` and `Cell` in place of `Arc` and
    /// atomics.
    fn publish_local(
        self,
    ) -> ConnectableObservable<Self, crate::subjects::local::PublishSubject<Self::Item>>
    where
        Self::Item: Clone + 'static,
    {
        ConnectableObservable::publish(self)
    }

    /// [`replay`](ObservableExt::replay) on one thread, as
    /// [`publish_local`](ObservableExt::publish_local) is `publish` on one thread.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::testing::TestObserver;
    /// use std::rc::Rc;
    ///
    /// let replayed = rx::source::from_iter(1..=3).map(Rc::new).replay_local(2);
    /// replayed.connect();
    /// let late = TestObserver::new();
    /// replayed.clone().subscribe_observer(late.clone());
    /// late.assert_values(&[Rc::new(2), Rc::new(3)]);
    /// late.assert_completed();
    /// ```
    ///
    /// # Panics
    ///
    /// If `capacity` is zero.
    fn replay_local(
        self,
        capacity: usize,
    ) -> ConnectableObservable<Self, crate::subjects::local::ReplaySubject<Self::Item>>
    where
        Self::Item: Clone + 'static,
    {
        ConnectableObservable::replay(self, capacity)
    }

    /// [`share`](ObservableExt::share) on one thread:
    /// [`publish_local`](ObservableExt::publish_local)`().`[`ref_count`](ConnectableObservable::ref_count)`()`.
    /// The items and the subscribers need not be `Send`; see `publish_local` for why this is
    /// a separate method.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::subjects::local::PublishSubject;
    /// use std::cell::RefCell;
    /// use std::rc::Rc;
    ///
    /// let input = PublishSubject::new();
    /// let shared = input.observable().map(|v: i32| Rc::new(v * 2)).share_local();
    /// let seen = Rc::new(RefCell::new(Vec::new()));
    /// for _ in 0..2 {
    ///     let seen = seen.clone();
    ///     shared.clone().subscribe(move |v: Rc<i32>| seen.borrow_mut().push(*v));
    /// }
    /// input.on_next(1);
    /// assert_eq!(*seen.borrow(), [2, 2]);
    /// ```
    #[doc(alias = "refCount")]
    fn share_local(self) -> RefCount<Self, crate::subjects::local::PublishSubject<Self::Item>>
    where
        Self::Item: Clone + 'static,
    {
        ConnectableObservable::publish(self).ref_count()
    }

    /// [`share_replay`](ObservableExt::share_replay) on one thread:
    /// [`replay_local`](ObservableExt::replay_local)`(capacity).`[`ref_count`](ConnectableObservable::ref_count)`()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::subjects::local::PublishSubject;
    /// use rx::testing::TestObserver;
    /// use std::rc::Rc;
    ///
    /// let input = PublishSubject::new();
    /// let shared = input.observable().share_replay_local(1);
    /// let first = TestObserver::new();
    /// shared.clone().subscribe_observer(first.clone());
    /// input.on_next(Rc::new("a"));
    /// input.on_next(Rc::new("b"));
    ///
    /// let second = TestObserver::new();
    /// shared.clone().subscribe_observer(second.clone());
    /// second.assert_values(&[Rc::new("b")]);
    /// ```
    ///
    /// # Panics
    ///
    /// If `capacity` is zero.
    #[doc(alias = "shareReplay")]
    fn share_replay_local(
        self,
        capacity: usize,
    ) -> RefCount<Self, crate::subjects::local::ReplaySubject<Self::Item>>
    where
        Self::Item: Clone + 'static,
    {
        ConnectableObservable::replay(self, capacity).ref_count()
    }

    // ----------------------------------------------------------------------- async interop
    /// A future of the first value: it resolves to `Ok` with the first value, and then
    /// disposes the subscription, so upstream stops (RxJS's `firstValueFrom`).
    ///
    /// The subscription is made when this is called, not when the future is first polled,
    /// so a value emitted in between (by a subject, say) is not missed. Dropping the future
    /// disposes the subscription. See [`FirstValue`](crate::interop::FirstValue).
    ///
    /// ```text
    /// source:        --1--2--3-|
    /// first_value(): --Ok(1)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use futures::executor::block_on;
    /// use rx::operators::NoElements;
    /// use rx::prelude::*;
    ///
    /// // An endless synchronous source stops after the value it needed.
    /// assert_eq!(block_on(rx::source::from_iter(1..).first_value()), Ok(1));
    ///
    /// let empty = block_on(rx::source::empty::<i32>().first_value());
    /// assert!(empty.unwrap_err().is::<NoElements>());
    /// ```
    ///
    /// # Errors
    ///
    /// The future resolves to `Err` with the observable's error when it fails before a value,
    /// with [`NoElements`](crate::operators::NoElements) when it completes empty, and with an
    /// error saying so when it drops its observer without a notification (a scheduler that
    /// went away, say) rather than leave the future pending forever.
    ///
    /// # Performance
    ///
    /// One allocation per call for the slot the observer and the future share, and one lock
    /// when the outcome arrives.
    #[doc(alias = "firstValueFrom")]
    #[doc(alias = "into_future")]
    fn first_value(
        self,
    ) -> crate::interop::FirstValue<
        <Self as Observable>::Item,
        <Self as Subscribe<crate::interop::FirstValueObserver<<Self as Observable>::Item>>>::Subscription,
    >
    where
        Self: Subscribe<crate::interop::FirstValueObserver<<Self as Observable>::Item>>,
    {
        crate::interop::FirstValue::new(self)
    }

    /// A future of the last value: it resolves when the observable terminates, to `Ok` with
    /// the last value on completion (RxJS's `lastValueFrom`).
    ///
    /// As for [`first_value`](ObservableExt::first_value), the subscription is made when this
    /// is called, and dropping the future disposes it. See
    /// [`LastValue`](crate::interop::LastValue).
    ///
    /// ```text
    /// source:       --1--2--3-|
    /// last_value():           Ok(3)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use futures::executor::block_on;
    /// use rx::prelude::*;
    ///
    /// let sum = rx::source::from_iter(1..=4).scan(0, |sum, v| sum + v);
    /// assert_eq!(block_on(sum.last_value()), Ok(10));
    ///
    /// let failed = rx::source::throw::<i32>(rx::Error::msg("offline")).last_value();
    /// assert_eq!(block_on(failed).unwrap_err().to_string(), "offline");
    /// ```
    ///
    /// # Errors
    ///
    /// The future resolves to `Err` with the observable's error, with
    /// [`NoElements`](crate::operators::NoElements) when it completes empty, and with an error
    /// saying so when it drops its observer without a terminal notification.
    ///
    /// # Performance
    ///
    /// One allocation per call for the slot the observer and the future share; the observer
    /// keeps the latest value, and takes one lock when the outcome arrives.
    #[doc(alias = "lastValueFrom")]
    #[doc(alias = "toPromise")]
    fn last_value(
        self,
    ) -> crate::interop::LastValue<
        <Self as Observable>::Item,
        <Self as Subscribe<crate::interop::LastValueObserver<<Self as Observable>::Item>>>::Subscription,
    >
    where
        Self: Subscribe<crate::interop::LastValueObserver<<Self as Observable>::Item>>,
    {
        crate::interop::LastValue::new(self)
    }

    /// The observable's values as a [`Stream`](futures_core::Stream) of
    /// `Result<T, rx::Error>`: `Ok` for each value, ending on completion, or ending after one
    /// `Err` on an error. Available with the `stream` feature.
    ///
    /// The buffer between the observable and the consumer is **unbounded**: Rx has no
    /// backpressure, so values the consumer has not taken yet are queued, however many. A
    /// synchronous source runs to its end, queued whole, inside this call; an endless one
    /// never returns. Use [`into_stream_bounded`](ObservableExt::into_stream_bounded) to put
    /// a limit on it, and say what happens beyond it.
    ///
    /// The subscription is made when this is called, so values emitted before the first poll
    /// are kept. Dropping the stream disposes the subscription. See
    /// [`IntoStream`](crate::interop::IntoStream).
    ///
    /// # Examples
    ///
    /// ```
    /// use futures::executor::block_on_stream;
    /// use rx::prelude::*;
    ///
    /// let items: Vec<_> = block_on_stream(rx::source::from_iter(1..=3).into_stream()).collect();
    /// assert_eq!(items, [Ok(1), Ok(2), Ok(3)]);
    /// ```
    ///
    /// Values from another thread, awaited on a tokio runtime:
    ///
    /// ```
    /// use futures::StreamExt;
    /// use rx::prelude::*;
    /// use rx::schedulers::NewThread;
    /// use std::time::Duration;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let mut ticks = rx::source::interval(Duration::from_millis(1), NewThread).into_stream();
    /// assert_eq!(ticks.next().await, Some(Ok(0)));
    /// assert_eq!(ticks.next().await, Some(Ok(1)));
    /// drop(ticks); // disposes the interval
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// The stream's last item is `Err` with the observable's error when it fails, or with an
    /// error saying so when it drops its observer without a terminal notification (a
    /// scheduler that went away, say) rather than leave the consumer waiting forever.
    ///
    /// # Performance
    ///
    /// One allocation per call for the channel, and one lock per value; the queue grows as
    /// values wait in it. The consumer is woken once per burst of values, not once per value.
    #[cfg(feature = "stream")]
    #[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
    #[doc(alias = "toFlowable")]
    fn into_stream(
        self,
    ) -> crate::interop::IntoStream<
        <Self as Observable>::Item,
        <Self as Subscribe<crate::interop::StreamObserver<<Self as Observable>::Item>>>::Subscription,
    >
    where
        Self: Subscribe<crate::interop::StreamObserver<<Self as Observable>::Item>>,
    {
        crate::interop::IntoStream::new(self, None)
    }

    /// Like [`into_stream`](ObservableExt::into_stream), with a buffer of at most
    /// `bound.capacity()` values, and `bound`'s
    /// [`Overflow`](crate::backpressure::Overflow) strategy for a value that arrives while
    /// it is full (the vocabulary of
    /// [`observe_on_bounded`](ObservableExt::observe_on_bounded); see
    /// [`backpressure`](crate::backpressure)). Available with the `stream` feature.
    ///
    /// ```text
    /// source: -1-2-3-4-5-|   (all before the consumer polls), capacity 3:
    /// Block        Ok(1), Ok(2), Ok(3), Ok(4), Ok(5)   (the producer waits for polls)
    /// DropNewest   Ok(1), Ok(2), Ok(3)
    /// DropOldest   Ok(3), Ok(4), Ok(5)
    /// KeepLatest   Ok(1), Ok(2), Ok(5)
    /// Error        Ok(1), Ok(2), Ok(3), Err(BufferOverflow)
    /// ```
    ///
    /// Under [`Overflow::Error`](crate::backpressure::Overflow::Error) the source is told to
    /// stop at once, and its subscription is disposed when the consumer takes the error
    /// (RxJava's `onBackpressureBuffer(capacity)`). A synchronous source with more than
    /// `capacity` values therefore always overflows: bound it with
    /// [`take`](ObservableExt::take), or use a strategy that drops.
    ///
    /// Under [`Overflow::Block`](crate::backpressure::Overflow::Block) the producer waits
    /// until the consumer polls. A synchronous source that fills the buffer while the stream
    /// is being created, and a producer on the thread that last polled, would wait forever:
    /// the stream ends with [`WouldDeadlock`](crate::backpressure::WouldDeadlock) instead.
    /// A producer that fills the buffer before the first poll waits for it.
    ///
    /// # Examples
    ///
    /// ```
    /// use futures::executor::block_on_stream;
    /// use rx::backpressure::{Bounded, BufferOverflow, Overflow};
    /// use rx::prelude::*;
    ///
    /// let stream = |overflow| {
    ///     let bound = Bounded::new(3).on_full(overflow);
    ///     block_on_stream(rx::source::from_iter(1..=5).into_stream_bounded(bound))
    /// };
    /// let values = |overflow| stream(overflow).map(Result::unwrap).collect::<Vec<_>>();
    /// assert_eq!(values(Overflow::DropNewest), [1, 2, 3]);
    /// assert_eq!(values(Overflow::DropOldest), [3, 4, 5]);
    /// assert_eq!(values(Overflow::KeepLatest), [1, 2, 5]);
    ///
    /// let mut overflows = stream(Overflow::Error);
    /// assert_eq!(overflows.by_ref().take(3).count(), 3);
    /// assert!(overflows.next().unwrap().unwrap_err().is::<BufferOverflow>());
    /// assert_eq!(overflows.next(), None);
    /// ```
    ///
    /// A producer on another thread, blocked while three values wait:
    ///
    /// ```
    /// use futures::executor::block_on_stream;
    /// use rx::backpressure::Bounded;
    /// use rx::prelude::*;
    /// use rx::schedulers::NewThread;
    ///
    /// let source = rx::source::from_iter(0..100).subscribe_on(NewThread);
    /// let values: Vec<_> = block_on_stream(source.into_stream_bounded(Bounded::new(3)))
    ///     .collect::<Result<_, _>>()
    ///     .unwrap();
    /// assert_eq!(values, (0..100).collect::<Vec<_>>());
    /// ```
    ///
    /// # Performance
    ///
    /// As for [`into_stream`](ObservableExt::into_stream); the buffer grows on demand up to
    /// the capacity, and is not allocated up front. Under `Block` each poll reads the
    /// thread's id, and a blocked producer is woken once half the buffer is free.
    #[cfg(feature = "stream")]
    #[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
    #[doc(alias = "onBackpressureBuffer")]
    #[doc(alias = "onBackpressureDrop")]
    #[doc(alias = "onBackpressureLatest")]
    fn into_stream_bounded(
        self,
        bound: crate::backpressure::Bounded<<Self as Observable>::Item>,
    ) -> crate::interop::IntoStream<
        <Self as Observable>::Item,
        <Self as Subscribe<crate::interop::StreamObserver<<Self as Observable>::Item>>>::Subscription,
    >
    where
        Self: Subscribe<crate::interop::StreamObserver<<Self as Observable>::Item>>,
    {
        crate::interop::IntoStream::new(self, Some(bound))
    }
}

impl<S: Observable> ObservableExt for S {}
