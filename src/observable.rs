//! The core: the [`Observable`] and [`Subscribe`] traits, and [`Emission`], which says when
//! an observable may call its observer. The operators are listed by
//! [`ObservableExt`](crate::ObservableExt).
//!
//! An observable is a plain value describing a pipeline, like an iterator adapter: building it
//! does nothing, subscribing runs it. Each operator is a small struct generic over its source
//! and its closure, and subscribing is monomorphised for each observer type, so a synchronous
//! chain compiles to one function the optimiser sees through.
//!
//! Subscribing consumes the observable, as `IntoIterator` consumes a collection; sources and
//! operators are `Clone` when their parts are, so clone one to subscribe to it twice.

use crate::observer::{FnObserver, NextObserver, OwnedObserver};
use crate::subscription::Subscription;

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

    /// Which kind of handles subscribing this observable can produce:
    /// [`Shared`](crate::sync::Shared) when they are `Send`, [`Local`](crate::sync::Local)
    /// when they may not be (a [local subject](crate::subjects::local)'s, a
    /// [`boxed_local`](crate::ObservableExt::boxed_local) observable's). Operators that keep upstream
    /// handles (`merge`, `zip`, `concat`, `retry`, ...) keep them in a box of this flavour, so
    /// their own handle is `Send` exactly when their upstreams' are. An operator on one source
    /// has its source's flavour; one on several has their [`Joined`](crate::sync::Joined)
    /// flavour. An observable implemented by hand whose handles are `Send` says
    /// `type Flavour = rx::sync::Shared;`.
    type Flavour: crate::sync::Flavour;

    /// When this observable may call its observer: later, from any thread (the default), or
    /// only inside `subscribe`, on the subscribing thread, having finished when `subscribe`
    /// returns. The operators of the merge family merge observables of the second kind with
    /// their state on the stack, without allocating or touching an atomic.
    ///
    /// Only the crate's own observables can set it (`just`, `from_iter`, `range`, ..., and
    /// operators like `map` over them): its type cannot be named outside the crate, so an
    /// observable implemented elsewhere keeps the default, which is always correct, and code
    /// that relies on the constant can trust it.
    ///
    /// ```compile_fail
    /// use rx::prelude::*;
    ///
    /// struct Mine;
    ///
    /// impl Observable for Mine {
    ///     type Item = i32;
    ///     type Flavour = rx::sync::Shared;
    ///     // Neither a path to the type nor `_` names it.
    ///     const EMISSION: _ = <rx::source::Just<i32> as Observable>::EMISSION;
    /// }
    /// ```
    #[doc(hidden)]
    const EMISSION: Emission = Emission::ANYTIME;
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
///
/// # Returning an observable from a function
///
/// Name the observer type as a parameter and promise `Subscribe<O>`: the caller's observer
/// fixes `O`, and the result subscribes and composes like the chain it hides, at no cost.
/// `impl Observable<Item = T>` alone promises only the item type, so the result cannot be
/// subscribed. Add `Flavour = Shared, Subscription: Send` when the caller merges, zips or
/// boxes the result: the handle's type is hidden too, and with it whether it is `Send` (or
/// `Flavour = Local` where it need not be). Add `+ Clone` when it is to be boxed with
/// [`boxed`](crate::ObservableExt::boxed) or subscribed twice.
///
/// ```
/// use rx::prelude::*;
/// use rx::sync::Shared;
///
/// fn evens<O: Observer<u32>>(limit: usize) -> impl Subscribe<O, Item = u32> {
///     rx::source::range(0, limit).filter(|v| v % 2 == 0)
/// }
///
/// fn odds<O>(limit: usize) -> impl Subscribe<O, Item = u32, Flavour = Shared, Subscription: Send>
/// where
///     O: Observer<u32>,
/// {
///     rx::source::range(0, limit).filter(|v| v % 2 == 1)
/// }
///
/// let mut seen = Vec::new();
/// evens(6).map(|v| v * 10).subscribe(|v| seen.push(v));
/// odds(4).merge_with(odds(2)).subscribe(|v| seen.push(v));
/// assert_eq!(seen, [0, 20, 40, 1, 3, 1]);
/// ```
///
/// Or erase the type with [`boxed`](crate::ObservableExt::boxed), which costs an allocation per
/// subscribe and a virtual call per notification, and names no observer:
///
/// ```
/// use rx::prelude::*;
/// use rx::BoxedObservable;
///
/// fn evens<'a>(limit: usize) -> BoxedObservable<'a, u32> {
///     rx::source::range(0, limit).filter(|v| v % 2 == 0).boxed()
/// }
///
/// let mut seen = Vec::new();
/// evens(6).map(|v| v * 10).subscribe(|v| seen.push(v));
/// assert_eq!(seen, [0, 20, 40]);
/// ```
///
/// # Taking an observable
///
/// A function that applies operators returns the struct they build, naming each closure
/// `impl FnMut`, and keeps every `Subscribe` impl of the chain. A function that subscribes
/// what it is given, whatever it is (boxed, returned by a function, crossing threads), bounds
/// it by [`SubscribeOwned<T>`] and subscribes a closure that owns its state.
///
/// ```
/// use rx::prelude::*;
/// use rx::operators::Map;
/// use std::sync::{Arc, Mutex};
///
/// fn doubled<S: Observable<Item = u32>>(source: S) -> Map<S, impl FnMut(u32) -> u32> {
///     source.map(|v| v * 2)
/// }
///
/// fn record(source: impl SubscribeOwned<u32>, into: &Arc<Mutex<Vec<u32>>>) {
///     let into = Arc::clone(into);
///     source.subscribe_owned(move |v| into.lock().unwrap().push(v));
/// }
///
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// record(doubled(rx::source::range(1, 3)).filter(|v| *v > 2), &seen);
/// record(rx::source::just(9).boxed(), &seen);
/// assert_eq!(*seen.lock().unwrap(), [4, 6, 9]);
/// ```
///
/// A closure that borrows the caller's locals needs a synchronous chain, whose observer
/// cannot outlive `subscribe`. Name the observer the function subscribes with, here a
/// `dyn FnMut` borrowed for the call: it costs a virtual call per value and no allocation,
/// and it takes neither boxed observables nor chains that cross threads or time, which need
/// their observer `'static`.
///
/// ```
/// use rx::prelude::*;
/// use rx::observer::NextObserver;
///
/// fn sum<S>(source: S) -> u32
/// where
///     S: for<'f> Subscribe<NextObserver<&'f mut dyn FnMut(u32)>, Item = u32>,
/// {
///     let mut total = 0;
///     let mut add = |v: u32| total += v;
///     source.subscribe(&mut add as &mut dyn FnMut(u32));
///     total
/// }
///
/// assert_eq!(sum(rx::source::range(1, 3).map(|v| v * 2).filter(|v| *v > 2)), 4 + 6);
/// ```
///
/// A shorter unboxed spelling, with no observer parameter, cannot be written in Rust today:
/// it would need "`Subscribe<O>` for every `O`" in the return type or the bound, a binder over
/// types (`for<O>`) that stable Rust does not have. A trait with a blanket impl can rename
/// `Subscribe<O, Item = T>`, but not drop the `O`; [`SubscribeOwned<T>`] fixes `O` to one
/// erased observer type instead, which is why it costs a box.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be subscribed with an observer of type `{O}`",
    label = "cannot deliver to `{O}`",
    note = "to return an observable from a function, name the observer: `fn f<O: Observer<T>>() -> impl Subscribe<O, Item = T>`, or return `.boxed()` as a `BoxedObservable<'a, T>`",
    note = "to take any observable of `T` in a function, bound it by `SubscribeOwned<T>` and subscribe it with `.subscribe_owned(move |v| ...)`",
    note = "otherwise check that the observer takes this observable's `Item`; where the chain crosses threads or time it must also be `Send + 'static`"
)]
pub trait Subscribe<O>: Observable {
    /// The handle returned by [`subscribe_observer`](Subscribe::subscribe_observer).
    type Subscription: Subscription;

    /// Subscribes `observer`, running the pipeline. A synchronous chain runs to its end before
    /// this returns.
    fn subscribe_observer(self, observer: O) -> Self::Subscription;
}

/// An observable of `T` that can be subscribed with an [`OwnedObserver<T>`]: the bound for a
/// function that takes *any* observable of `T` and subscribes it with a closure.
///
/// Every observable of `T` that can be subscribed at all is one: a
/// [`BoxedObservable<'static, T>`](crate::BoxedObservable) or a
/// [`LocalBoxedObservable`](crate::LocalBoxedObservable), a chain built in place, one that
/// crosses threads (`subscribe_on(NewThread)`), the result of a function that returns
/// `impl Subscribe<O, Item = T>` for every `O`, and operators applied to any of these. It has a
/// blanket impl; nothing implements it by hand.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::schedulers::NewThread;
/// use std::sync::mpsc;
///
/// /// The sum of what `numbers` emits, waiting for it to complete on whatever thread.
/// fn sum_all(numbers: impl SubscribeOwned<i32>) -> i32 {
///     let (sender, receiver) = mpsc::channel();
///     numbers.subscribe_owned(move |v| sender.send(v).unwrap());
///     // The closure, and the sender with it, is dropped when the source completes.
///     receiver.iter().sum()
/// }
///
/// fn evens<O: Observer<i32>>(limit: usize) -> impl Subscribe<O, Item = i32> {
///     rx::source::range(0, limit).filter(|v| v % 2 == 0)
/// }
///
/// assert_eq!(sum_all(rx::source::from_iter([1, 2, 3])), 6);
/// assert_eq!(sum_all(rx::source::from_iter([1, 2, 3]).boxed()), 6);
/// assert_eq!(sum_all(rx::source::from_iter([1, 2, 3]).subscribe_on(NewThread)), 6);
/// assert_eq!(sum_all(evens(6).map(|v| v * 10)), 60);
/// ```
///
/// # Why the observer owns its state
///
/// An observable that may deliver later (one that is boxed, or crosses threads or time) keeps
/// its observer after `subscribe` returns, so it cannot be given one that borrows the
/// caller's stack; and Rust has no binder over types (`for<O> Subscribe<O>`), so a bound that
/// takes every observable must fix one observer type. `OwnedObserver<T>` is that type: any
/// `Send + 'static` observer, erased, for one allocation per subscribe and a virtual call per
/// value.
///
/// What it does not cover:
///
/// - **A function that returns `impl Observable<Item = T>`.** That type promises no
///   `Subscribe` at all, so its result is not subscribable by anyone; return
///   `impl Subscribe<O, Item = T>` generic over `O`, or a
///   [`BoxedObservable`](crate::BoxedObservable), instead.
/// - **A closure that borrows locals.** Use [`Subscribe`] with an observer type of your own
///   (see [Taking an observable](Subscribe#taking-an-observable)), which takes synchronous
///   chains only and costs nothing; or move an `Arc`, a channel's sender, or the value itself
///   into the closure, as above.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a `SubscribeOwned<{T}>`: it cannot be subscribed with an `OwnedObserver<{T}>`",
    label = "not an observable of `{T}` that an owned observer can subscribe",
    note = "a function that returns `impl Observable<Item = T>` hides its `Subscribe` impls: return `impl Subscribe<O, Item = T>` generic over `O: Observer<T>`, or `.boxed()` as a `BoxedObservable<'static, T>`",
    note = "a chain that crosses threads (`subscribe_on`, `observe_on`, a timer) needs what its closures capture to be `Send`: capture `Arc` and `Mutex`, not `Rc` and `RefCell`",
    note = "otherwise check that its `Item` is `{T}`, or convert it with `.map(..)`"
)]
pub trait SubscribeOwned<T>: Subscribe<OwnedObserver<T>, Item = T> {
    /// Subscribes with a closure called for each value, on whatever thread the observable
    /// delivers on. Completion is ignored; an error panics with its message, as
    /// [`subscribe`](crate::ObservableExt::subscribe) does.
    ///
    /// # Panics
    ///
    /// When the observable terminates with an error, on the thread that delivers it.
    fn subscribe_owned<N>(self, next: N) -> <Self as Subscribe<OwnedObserver<T>>>::Subscription
    where
        Self: Sized,
        N: FnMut(T) + Send + 'static,
    {
        self.subscribe_observer(OwnedObserver::new(NextObserver::new(next)))
    }

    /// Subscribes with one closure for each kind of notification.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use std::sync::mpsc;
    ///
    /// fn outcome(source: impl SubscribeOwned<i32>) -> Result<Vec<i32>, rx::Error> {
    ///     let (sender, receiver) = mpsc::channel();
    ///     let (done, end) = (sender.clone(), sender.clone());
    ///     source.subscribe_owned_with(
    ///         move |v| sender.send(Ok(v)).unwrap(),
    ///         move |e| done.send(Err(e)).unwrap(),
    ///         || drop(end),
    ///     );
    ///     receiver.iter().collect()
    /// }
    ///
    /// assert_eq!(outcome(rx::source::from_iter([1, 2])).unwrap(), [1, 2]);
    /// let failing = rx::source::just(1).concat_with(rx::source::throw(rx::Error::msg("no")));
    /// assert_eq!(outcome(failing).unwrap_err().to_string(), "no");
    /// ```
    fn subscribe_owned_with<N, E, C>(
        self,
        next: N,
        error: E,
        completed: C,
    ) -> <Self as Subscribe<OwnedObserver<T>>>::Subscription
    where
        Self: Sized,
        N: FnMut(T) + Send + 'static,
        E: FnOnce(crate::Error) + Send + 'static,
        C: FnOnce() + Send + 'static,
    {
        self.subscribe_observer(OwnedObserver::new(FnObserver::new(next, error, completed)))
    }
}

#[diagnostic::do_not_recommend]
impl<T, S> SubscribeOwned<T> for S where S: Subscribe<OwnedObserver<T>, Item = T> {}

/// When an observable may call its observer: the type of [`Observable::EMISSION`].
///
/// It is public only to be the type of that constant; it cannot be named outside the crate,
/// so an `impl Observable` outside the crate cannot set the constant and keeps
/// [`Emission::ANYTIME`].
///
/// [`Observable::EMISSION`]: crate::Observable::EMISSION
// Public so that it can be the type of a constant of a public trait, and reachable from
// nowhere, so that no impl outside the crate can name it.
#[allow(unreachable_pub)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Emission {
    inside_subscribe: bool,
}

impl Emission {
    /// May call its observer later, from any thread: the default.
    pub(crate) const ANYTIME: Emission = Emission {
        inside_subscribe: false,
    };

    /// Calls its observer only inside `subscribe`, on the calling thread, and has finished
    /// when `subscribe` returns (terminated, or stopped because the observer is disposed);
    /// keeps the observer nowhere that outlives `subscribe`.
    pub(crate) const INSIDE_SUBSCRIBE: Emission = Emission {
        inside_subscribe: true,
    };

    /// What an observable built from two others has, when it calls its observer only from
    /// theirs and subscribes them only inside its own `subscribe`.
    pub(crate) const fn and(self, other: Emission) -> Emission {
        Emission {
            inside_subscribe: self.inside_subscribe && other.inside_subscribe,
        }
    }

    /// Whether it is [`INSIDE_SUBSCRIBE`](Emission::INSIDE_SUBSCRIBE).
    pub(crate) const fn is_inside_subscribe(self) -> bool {
        self.inside_subscribe
    }
}

/// The [`Joined`](crate::sync::Joined) flavour of a list of observable types, for the impls of the tuple forms
/// (`zip`, `combine_latest`, `fork_join`).
macro_rules! joined_flavour {
    ([$($S:ident)+]) => { $crate::observable::joined_flavour!($($S),+) };
    ($S:ident) => { <$S as $crate::observable::Observable>::Flavour };
    ($S:ident, $($rest:ident),+) => {
        $crate::sync::Joined<
            <$S as $crate::observable::Observable>::Flavour,
            $crate::observable::joined_flavour!($($rest),+),
        >
    };
}
pub(crate) use joined_flavour;
