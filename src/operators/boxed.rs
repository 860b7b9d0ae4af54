//! Type-erased observables: [`BoxedObservable`] and [`LocalBoxedObservable`].
//!
//! Two types, as futures has `BoxStream` and `LocalBoxStream`: the `Send` one for pipelines
//! that cross threads, the local one for observables that capture `Rc` and friends.

use crate::observable::{Observable, Subscribe};
use crate::observer::{DynObserver, Observer};
use crate::subscription::Subscription;
use std::fmt;

/// An observer behind a `Box`, as handed to the source of a [`BoxedObservable`].
pub type BoxedObserver<'a, T> = Box<dyn DynObserver<T> + Send + 'a>;

/// An observer behind a `Box`, as handed to the source of a [`LocalBoxedObservable`].
pub type LocalBoxedObserver<'a, T> = Box<dyn DynObserver<T> + 'a>;

macro_rules! boxed_observable {
    (
        $(#[$doc:meta])*
        $name:ident, $subscribe_trait:ident, $observer:ident, ($($send:tt)*)
    ) => {
        $(#[$doc])*
        #[must_use = "observables do nothing unless subscribed"]
        pub struct $name<'a, T> {
            source: Box<dyn $subscribe_trait<'a, T> $($send)* + 'a>,
        }

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

        impl<'a, T> $name<'a, T> {
            pub(crate) fn new<S>(source: S) -> Self
            where
                S: Subscribe<$observer<'a, T>> + Observable<Item = T> + 'a $($send)*,
                S::Subscription: 'a $($send)*,
            {
                $name { source: Box::new(source) }
            }
        }

        impl<T> Observable for $name<'_, T> {
            type Item = T;
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
    /// [`ObservableExt::boxed`](crate::ObservableExt::boxed). It is `Send`.
    BoxedObservable, SubscribeBoxed, BoxedObserver, (+ Send)
);

boxed_observable!(
    /// An observable of `T` whose type is erased and that need not be `Send`; built by
    /// [`ObservableExt::boxed_local`](crate::ObservableExt::boxed_local).
    LocalBoxedObservable, SubscribeLocalBoxed, LocalBoxedObserver, ()
);

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{from_iter, just};
    use crate::testing::TestObserver;

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
        static_assertions::assert_impl_all!(crate::BoxedObservable<'static, i32>: Send);
    }
}
