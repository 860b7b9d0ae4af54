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
/// `Flavour = Local` where it need not be).
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
/// what it is given names the observer it subscribes with: here a `dyn FnMut` borrowed for
/// the call, which costs a virtual call per value.
///
/// ```
/// use rx::prelude::*;
/// use rx::observer::NextObserver;
/// use rx::operators::Map;
///
/// fn doubled<S: Observable<Item = u32>>(source: S) -> Map<S, impl FnMut(u32) -> u32> {
///     source.map(|v| v * 2)
/// }
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
/// assert_eq!(sum(doubled(rx::source::range(1, 3)).filter(|v| *v > 2)), 4 + 6);
/// ```
///
/// A shorter unboxed spelling, with no observer parameter, cannot be written in Rust today:
/// it would need "`Subscribe<O>` for every `O`" in the return type, a binder over types
/// (`for<O>`) that stable Rust does not have. A trait with a blanket impl can rename
/// `Subscribe<O, Item = T>`, but not drop the `O`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be subscribed with an observer of type `{O}`",
    label = "cannot deliver to `{O}`",
    note = "to return an observable from a function, name the observer: `fn f<O: Observer<T>>() -> impl Subscribe<O, Item = T>`, or return `.boxed()` as a `BoxedObservable<'a, T>`",
    note = "otherwise check that the observer takes this observable's `Item`; where the chain crosses threads or time it must also be `Send + 'static`"
)]
pub trait Subscribe<O>: Observable {
    /// The handle returned by [`subscribe_observer`](Subscribe::subscribe_observer).
    type Subscription: Subscription;

    /// Subscribes `observer`, running the pipeline. A synchronous chain runs to its end before
    /// this returns.
    fn subscribe_observer(self, observer: O) -> Self::Subscription;
}

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
