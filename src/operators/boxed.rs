//! Type-erased observables: [`BoxedObservable`] and [`LocalBoxedObservable`].
//!
//! Two types, as futures has `BoxStream` and `LocalBoxStream`: the `Send` one for pipelines
//! that cross threads, the local one for observables that capture `Rc` and friends. Both are
//! `Clone`, as Rx observables are re-subscribable; an observable that is not `Clone` (one
//! whose closure is `FnOnce`, say) is boxed by `boxed_once` / `boxed_local_once` into
//! [`BoxedOnceObservable`] / [`LocalBoxedOnceObservable`], which are not.

use crate::observable::{Observable, Subscribe};
use crate::observer::{BoxedObserver, LocalBoxedObserver, Observer};
use crate::subscription::Subscription;
use std::fmt;

/// An observable that a box can subscribe more than once: one that is `Clone`. What
/// [`boxed`](crate::ObservableExt::boxed) and
/// [`boxed_local`](crate::ObservableExt::boxed_local) need, since a [`BoxedObservable`] is
/// subscribed again (by `retry`, `repeat`, or once per request from a struct field) by
/// cloning what it holds.
///
/// Sources and operators are `Clone` when their closures are, and a closure is `Clone` when
/// what it captures is. What is not `Clone`: a closure that captures a value that is not (a
/// channel's receiver, a `Cell` moved in), and a function's result whose type hides it
/// (`impl Subscribe<O, Item = T>`, or an operator over `impl FnMut(T) -> U`, without
/// `+ Clone`). Box such an observable with
/// [`boxed_once`](crate::ObservableExt::boxed_once) to subscribe it once.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not `Clone`, and a boxed observable is subscribed again by cloning what it holds",
    label = "not `Clone`, so `boxed()` cannot box it",
    note = "to box it for one subscription, use `.boxed_once()` (or `.boxed_local_once()`), which asks no `Clone`",
    note = "a function's `impl ...` return type hides `Clone`: add `+ Clone`, as in `impl Subscribe<O, Item = T, Subscription: Send> + Clone` generic over `O`, or `impl FnMut(T) -> U + Clone`",
    note = "a closure is `Clone` when what it captures is: capture an `Arc` of what is not"
)]
pub trait Resubscribable: Observable + Clone {}

#[diagnostic::do_not_recommend]
impl<S: Observable + Clone> Resubscribable for S {}

/// An observable of `T` that may be sent to another thread, with the handles it returns:
/// what [`boxed`](crate::ObservableExt::boxed) and
/// [`boxed_once`](crate::ObservableExt::boxed_once) need, since a [`BoxedObservable`] and its
/// handle are `Send`.
///
/// A chain is `Send` when what its closures capture is; its handle is `Send` unless it is
/// built on a [local subject](crate::subjects::local) or a `boxed_local()` observable. A
/// function's result whose type hides it (`impl Subscribe<O, Item = T>`) promises a handle
/// that may not be `Send`: add `Subscription: Send` to the return type. Box an observable
/// that stays on its thread with [`boxed_local`](crate::ObservableExt::boxed_local).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be boxed into a `BoxedObservable<'a, {T}>`: it, or the handle it returns, is not `Send`, or it is not subscribable",
    label = "not `Send`, or its handle is not",
    note = "an observable that stays on its thread (it captures `Rc` or `RefCell`, or is built on a local subject) is boxed with `.boxed_local()`",
    note = "a function that returns `impl Observable<Item = T>` or `impl Subscribe<O, Item = T>` hides its `Subscribe` impls or whether its handle is `Send`: return `impl Subscribe<O, Item = T, Subscription: Send> + Clone` generic over `O`",
    note = "otherwise check that it is subscribable with an observer of `{T}`"
)]
pub trait SendObservable<'a, T>:
    Subscribe<BoxedObserver<'a, T>, Subscription: Send + 'a> + Send + 'a
{
}

#[diagnostic::do_not_recommend]
impl<'a, T, S> SendObservable<'a, T> for S where
    S: Subscribe<BoxedObserver<'a, T>, Subscription: Send + 'a> + Send + 'a
{
}

macro_rules! boxed_observable {
    (
        $(#[$doc:meta])*
        $name:ident, $subscribe_trait:ident, $observer:ident, ($($send:tt)*), $flavour:ty, clone
    ) => {
        boxed_observable!(@common $(#[$doc])* $name, $subscribe_trait, $observer, ($($send)*), $flavour, (+ Clone));

        trait $subscribe_trait<'a, T> {
            fn subscribe_boxed(
                self: Box<Self>,
                observer: $observer<'a, T>,
            ) -> Box<dyn Subscription $($send)* + 'a>;

            fn clone_boxed(&self) -> Box<dyn $subscribe_trait<'a, T> $($send)* + 'a>;
        }

        impl<'a, T, S> $subscribe_trait<'a, T> for S
        where
            S: Subscribe<$observer<'a, T>> + Observable<Item = T> + Clone + 'a $($send)*,
            S::Subscription: 'a $($send)*,
        {
            fn subscribe_boxed(
                self: Box<Self>,
                observer: $observer<'a, T>,
            ) -> Box<dyn Subscription $($send)* + 'a> {
                Box::new((*self).subscribe_observer(observer))
            }

            fn clone_boxed(&self) -> Box<dyn $subscribe_trait<'a, T> $($send)* + 'a> {
                Box::new(self.clone())
            }
        }

        /// Clones what it erases, in one allocation, so it can be subscribed again (by
        /// `retry`, `repeat`, or once per request from a struct field).
        impl<T> Clone for $name<'_, T> {
            fn clone(&self) -> Self {
                $name { source: self.source.clone_boxed() }
            }
        }
    };
    (
        $(#[$doc:meta])*
        $name:ident, $subscribe_trait:ident, $observer:ident, ($($send:tt)*), $flavour:ty, once
    ) => {
        boxed_observable!(@common $(#[$doc])* $name, $subscribe_trait, $observer, ($($send)*), $flavour, ());

        trait $subscribe_trait<'a, T> {
            fn subscribe_boxed(
                self: Box<Self>,
                observer: $observer<'a, T>,
            ) -> Box<dyn Subscription $($send)* + 'a>;
        }

        impl<'a, T, S> $subscribe_trait<'a, T> for S
        where
            S: Subscribe<$observer<'a, T>> + Observable<Item = T>,
            S::Subscription: 'a $($send)*,
        {
            fn subscribe_boxed(
                self: Box<Self>,
                observer: $observer<'a, T>,
            ) -> Box<dyn Subscription $($send)* + 'a> {
                Box::new((*self).subscribe_observer(observer))
            }
        }
    };
    (
        @common $(#[$doc:meta])*
        $name:ident, $subscribe_trait:ident, $observer:ident, ($($send:tt)*), $flavour:ty, ($($clone:tt)*)
    ) => {
        $(#[$doc])*
        #[must_use = "observables do nothing unless subscribed"]
        pub struct $name<'a, T> {
            source: Box<dyn $subscribe_trait<'a, T> $($send)* + 'a>,
        }

        impl<'a, T> $name<'a, T> {
            pub(crate) fn new<S>(source: S) -> Self
            where
                S: Subscribe<$observer<'a, T>> + Observable<Item = T> + 'a $($send)* $($clone)*,
                S::Subscription: 'a $($send)*,
            {
                $name { source: Box::new(source) }
            }
        }

        impl<T> Observable for $name<'_, T> {
            type Item = T;
            type Flavour = $flavour;
        }

        impl<'a, T, O> Subscribe<O> for $name<'a, T>
        where
            O: Observer<T> + 'a $($send)*,
        {
            type Subscription = Box<dyn Subscription $($send)* + 'a>;

            fn subscribe_observer(self, observer: O) -> Self::Subscription {
                self.source.subscribe_boxed(Box::new(observer))
            }
        }

        impl<T> fmt::Debug for $name<'_, T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(stringify!($name))
            }
        }
    };
}

boxed_observable!(
    /// An observable of `T` whose type is erased; built by
    /// [`ObservableExt::boxed`](crate::ObservableExt::boxed). It is `Send` and `Clone`.
    BoxedObservable, SubscribeBoxed, BoxedObserver, (+ Send), crate::sync::Shared, clone
);

boxed_observable!(
    /// An observable of `T` whose type is erased and that need not be `Send`; built by
    /// [`ObservableExt::boxed_local`](crate::ObservableExt::boxed_local). It is `Clone`.
    LocalBoxedObservable, SubscribeLocalBoxed, LocalBoxedObserver, (), crate::sync::Local, clone
);

boxed_observable!(
    /// An observable of `T` whose type is erased, for one that is not `Clone`; built by
    /// [`ObservableExt::boxed_once`](crate::ObservableExt::boxed_once). It is `Send`, and
    /// can be subscribed once.
    BoxedOnceObservable, SubscribeBoxedOnce, BoxedObserver, (+ Send), crate::sync::Shared, once
);

boxed_observable!(
    /// An observable of `T` whose type is erased, for one that is neither `Clone` nor
    /// `Send`; built by
    /// [`ObservableExt::boxed_local_once`](crate::ObservableExt::boxed_local_once). It can be
    /// subscribed once.
    LocalBoxedOnceObservable, SubscribeLocalBoxedOnce, LocalBoxedObserver, (), crate::sync::Local, once
);

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{from_iter, just, throw};
    use crate::testing::TestObserver;
    use std::rc::Rc;

    #[test]
    fn boxed_observables_of_different_types_in_one_vec() {
        let all: Vec<crate::BoxedObservable<'static, i32>> = vec![
            just(1).boxed(),
            from_iter(vec![2, 3]).map(|v| v * 10).boxed(),
        ];
        let observer = TestObserver::new();
        for o in all {
            o.subscribe_observer(observer.clone());
        }
        observer.assert_values(&[1, 20, 30]);
    }

    #[test]
    fn boxed_is_send() {
        static_assertions::assert_impl_all!(crate::BoxedObservable<'static, i32>: Send, Clone);
        static_assertions::assert_impl_all!(crate::LocalBoxedObservable<'static, i32>: Clone);
        static_assertions::assert_not_impl_any!(crate::LocalBoxedObservable<'static, i32>: Send);
        static_assertions::assert_impl_all!(super::BoxedOnceObservable<'static, i32>: Send);
        static_assertions::assert_not_impl_any!(super::BoxedOnceObservable<'static, i32>: Clone);
        static_assertions::assert_not_impl_any!(
            super::LocalBoxedOnceObservable<'static, i32>: Send, Clone
        );
    }

    /// What a service keeps: one pipeline, subscribed once per request.
    struct Service {
        numbers: crate::BoxedObservable<'static, i32>,
    }

    impl Service {
        fn request(&self) -> TestObserver<i32> {
            let observer = TestObserver::new();
            self.numbers.clone().subscribe_observer(observer.clone());
            observer
        }
    }

    #[test]
    fn a_boxed_field_is_subscribed_once_per_request() {
        let service = Service {
            numbers: from_iter(vec![1, 2]).map(|v| v * 3).boxed(),
        };
        for _ in 0..3 {
            let observer = service.request();
            observer.assert_values(&[3, 6]);
            observer.assert_completed();
        }
    }

    #[test]
    fn a_boxed_observable_is_retried_and_repeated() {
        let boxed = from_iter(vec![1, 2]).boxed();
        let observer = TestObserver::new();
        boxed.clone().repeat(3).subscribe_observer(observer.clone());
        observer.assert_values(&[1, 2, 1, 2, 1, 2]);
        observer.assert_completed();

        let failing = from_iter(vec![7])
            .concat_with(throw(crate::Error::msg("no")))
            .boxed();
        let observer = TestObserver::new();
        failing.retry(2).subscribe_observer(observer.clone());
        observer.assert_values(&[7, 7, 7]);
        observer.assert_error("no");
    }

    #[test]
    fn a_local_boxed_observable_is_subscribed_twice() {
        let offset = Rc::new(10);
        let local = from_iter(vec![1, 2])
            .map(move |v| v + *offset)
            .boxed_local();
        let observer = TestObserver::new();
        local.clone().subscribe_observer(observer.clone());
        local.subscribe_observer(observer.clone());
        observer.assert_values(&[11, 12, 11, 12]);
    }
}
