//! Observers: what an observable delivers its notifications to.
//!
//! The Rx grammar is `on_next* (on_error | on_completed)?`. The terminal methods take `self` by
//! value, so once an observer has terminated the compiler will not let anyone call it again:
//! the check other Rx libraries make at run time is made here by ownership.

use crate::Error;

/// Receives the notifications of an observable.
///
/// Implement it for a type of your own, or use the closure forms through
/// [`ObservableExt::subscribe`](crate::ObservableExt::subscribe) and
/// [`ObservableExt::subscribe_with`](crate::ObservableExt::subscribe_with).
///
/// Notifications to one observer are never concurrent: an operator that merges sources from
/// several threads serialises them before they reach its observer.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
///
/// struct Sum<'a>(&'a mut i32);
///
/// impl Observer<i32> for Sum<'_> {
///     fn on_next(&mut self, value: i32) {
///         *self.0 += value;
///     }
///     fn on_error(self, error: rx::Error) {
///         panic!("{error}");
///     }
///     fn on_completed(self) {
///         *self.0 *= 10;
///     }
/// }
///
/// let mut total = 0;
/// rx::source::from_iter([1, 2, 3]).subscribe_observer(Sum(&mut total));
/// assert_eq!(total, 60);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot observe values of type `{T}`",
    label = "this observer does not accept `{T}`",
    note = "a closure observer must take the item type by value: `|value: {T}| ...`"
)]
pub trait Observer<T> {
    /// Delivers the next value.
    fn on_next(&mut self, value: T);

    /// Terminates the sequence with an error.
    fn on_error(self, error: Error);

    /// Terminates the sequence normally.
    fn on_completed(self);

    /// Whether this observer wants no more values.
    ///
    /// A synchronous source checks it before each value, so `from_iter(0..).take(3)` stops
    /// after three values instead of iterating forever. Operators forward it upstream and
    /// answer `true` once they have terminated their own downstream.
    fn is_disposed(&self) -> bool {
        false
    }
}

/// An observer behind a pointer: the object-safe form of [`Observer`], used by
/// [`boxed`](crate::ObservableExt::boxed) observables and by sources that keep observers of
/// different types in one collection.
pub trait DynObserver<T> {
    /// See [`Observer::on_next`].
    fn on_next(&mut self, value: T);
    /// See [`Observer::on_error`].
    fn on_error(self: Box<Self>, error: Error);
    /// See [`Observer::on_completed`].
    fn on_completed(self: Box<Self>);
    /// See [`Observer::is_disposed`].
    fn is_disposed(&self) -> bool;
}

impl<T, O: Observer<T>> DynObserver<T> for O {
    fn on_next(&mut self, value: T) {
        Observer::on_next(self, value)
    }
    fn on_error(self: Box<Self>, error: Error) {
        Observer::on_error(*self, error)
    }
    fn on_completed(self: Box<Self>) {
        Observer::on_completed(*self)
    }
    fn is_disposed(&self) -> bool {
        Observer::is_disposed(self)
    }
}

/// An observer behind a `Box`, as handed to the source of a
/// [`BoxedObservable`](crate::BoxedObservable).
pub type BoxedObserver<'a, T> = Box<dyn DynObserver<T> + Send + 'a>;

/// An observer behind a `Box`, as handed to the source of a
/// [`LocalBoxedObservable`](crate::LocalBoxedObservable).
pub type LocalBoxedObserver<'a, T> = Box<dyn DynObserver<T> + 'a>;

// `Box<dyn DynObserver<T>>` is an observer again, so erased observers compose with every
// operator.
macro_rules! boxed_dyn_observer {
    ($($bounds:tt)*) => {
        impl<'a, T> Observer<T> for Box<dyn DynObserver<T> $($bounds)* + 'a> {
            #[inline]
            fn on_next(&mut self, value: T) {
                DynObserver::on_next(&mut **self, value)
            }
            fn on_error(self, error: Error) {
                DynObserver::on_error(self, error)
            }
            fn on_completed(self) {
                DynObserver::on_completed(self)
            }
            fn is_disposed(&self) -> bool {
                DynObserver::is_disposed(&**self)
            }
        }
    };
}
boxed_dyn_observer!();
boxed_dyn_observer!(+ Send);

/// An observer of `T` that owns everything it holds (it is `Send + 'static`), its type
/// erased: the one observer type that every observable able to deliver later, on another
/// thread, accepts. It is what [`SubscribeOwned`](crate::SubscribeOwned) subscribes with, so
/// a function can take any observable of `T` under one bound.
///
/// Wrap any `Send + 'static` observer with [`new`](OwnedObserver::new), or let
/// [`subscribe_owned`](crate::SubscribeOwned::subscribe_owned) and
/// [`subscribe_owned_with`](crate::SubscribeOwned::subscribe_owned_with) wrap closures.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::observer::OwnedObserver;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::from_iter([1, 2]).subscribe_observer(OwnedObserver::new(observer.clone()));
/// observer.assert_values(&[1, 2]);
/// observer.assert_completed();
/// ```
///
/// # Performance
///
/// One allocation when it is made, and a virtual call per notification, as a
/// [`boxed`](crate::ObservableExt::boxed) observable costs. A boxed observable boxes the
/// observer it is given once more.
pub struct OwnedObserver<T> {
    inner: Box<dyn DynObserver<T> + Send>,
}

impl<T> OwnedObserver<T> {
    /// Erases `observer`, which must own what it holds: it may be kept after `subscribe`
    /// returns and be called from another thread.
    pub fn new<O>(observer: O) -> Self
    where
        O: Observer<T> + Send + 'static,
    {
        OwnedObserver {
            inner: Box::new(observer),
        }
    }
}

impl<T> Observer<T> for OwnedObserver<T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        DynObserver::on_next(&mut *self.inner, value)
    }
    fn on_error(self, error: Error) {
        DynObserver::on_error(self.inner, error)
    }
    fn on_completed(self) {
        DynObserver::on_completed(self.inner)
    }
    fn is_disposed(&self) -> bool {
        DynObserver::is_disposed(&*self.inner)
    }
}

impl<T> std::fmt::Debug for OwnedObserver<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OwnedObserver")
    }
}

/// The observer behind [`ObservableExt::subscribe`](crate::ObservableExt::subscribe): calls a
/// closure for each value, ignores completion and panics on error (unless an
/// [unhandled-error hook](crate::set_unhandled_error_hook) takes it).
#[derive(Clone, Debug)]
pub struct NextObserver<N> {
    next: N,
}

impl<N> NextObserver<N> {
    /// Wraps a closure called with each value.
    pub fn new(next: N) -> Self {
        NextObserver { next }
    }
}

impl<T, N: FnMut(T)> Observer<T> for NextObserver<N> {
    #[inline]
    fn on_next(&mut self, value: T) {
        (self.next)(value)
    }

    #[cold]
    fn on_error(self, error: Error) {
        if let Err(error) =
            crate::error::report_undeliverable(error, crate::error::Undeliverable::NoErrorHandler)
        {
            panic!("unhandled error in an observable subscribed without an error handler: {error}")
        }
    }

    #[inline]
    fn on_completed(self) {}
}

/// The observer behind [`ObservableExt::subscribe_with`](crate::ObservableExt::subscribe_with):
/// one closure for each kind of notification.
#[derive(Clone, Debug)]
pub struct FnObserver<N, E, C> {
    next: N,
    error: E,
    completed: C,
}

impl<N, E, C> FnObserver<N, E, C> {
    /// Wraps one closure for each kind of notification.
    pub fn new(next: N, error: E, completed: C) -> Self {
        FnObserver {
            next,
            error,
            completed,
        }
    }
}

impl<T, N, E, C> Observer<T> for FnObserver<N, E, C>
where
    N: FnMut(T),
    E: FnOnce(Error),
    C: FnOnce(),
{
    #[inline]
    fn on_next(&mut self, value: T) {
        (self.next)(value)
    }

    #[inline]
    fn on_error(self, error: Error) {
        (self.error)(error)
    }

    #[inline]
    fn on_completed(self) {
        (self.completed)()
    }
}
