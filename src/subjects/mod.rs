//! Subjects: observables you push values into by hand, shared by every subscriber.
//!
//! A subject is both sides of a pipe. Its [`observer()`](PublishSubject::observer) receives
//! notifications — from your code, or from a source it is subscribed to — and its
//! [`observable()`](PublishSubject::observable) passes them on to every observer subscribed to
//! it. The four kinds differ in what a new subscriber gets first:
//!
//! | subject | a new subscriber first gets | after termination, a late subscriber gets |
//! |---|---|---|
//! | [`PublishSubject`] | nothing | the terminal notification |
//! | [`BehaviorSubject`] | the latest value (the initial one until the first) | the terminal notification |
//! | [`ReplaySubject`] | every value kept (all, the last *n*, or the recent ones) | the values kept, then the terminal notification |
//! | [`AsyncSubject`] | nothing: it emits only the last value, on completion | the last value and completion, or the error |
//!
//! A subject is a cheap `Clone` handle to shared state; so are its observables and observers.
//! The shared state is freed when the last handle, observable, observer and subscription are
//! gone.
//!
//! # Examples
//!
//! ```
//! use rx::prelude::*;
//! use rx::subjects::PublishSubject;
//! use rx::testing::TestObserver;
//!
//! let subject = PublishSubject::new();
//! let mut input = subject.observer();
//! let early = TestObserver::new();
//! subject.observable().subscribe_observer(early.clone());
//! input.on_next(1);
//!
//! let late = TestObserver::new();
//! subject.observable().subscribe_observer(late.clone());
//! input.on_next(2);
//! input.on_completed();
//!
//! early.assert_values(&[1, 2]);
//! late.assert_values(&[2]);
//! late.assert_completed();
//! ```
//!
//! # Rules
//!
//! - **Serialised delivery.** Any thread may call the observer side, and observers may call
//!   back into the subject from their callbacks. Notifications reach the subscribers one at a
//!   time, each notification reaching every subscriber before the next one starts. A call that
//!   finds a delivery running does not wait for it: it queues its notification, which the
//!   delivering thread passes on before it returns. So `on_next` never blocks, and a callback
//!   that calls `on_next` (or `on_completed`) on the same subject sees its notification
//!   delivered to everyone after the current one, not nested inside it.
//! - **The first terminal notification wins**, whichever of the subject's observers it comes
//!   through; anything after it is ignored, and every observer of the subject then reports
//!   [`is_disposed`](crate::Observer::is_disposed).
//! - **Subscribing during a delivery.** An observer subscribed while a notification is being
//!   delivered — from one of the callbacks, or from another thread — does not receive that
//!   notification; it is registered right after it, and receives everything from the next one
//!   on (after its replay, for the kinds that replay). `subscribe` never waits for a delivery
//!   either: from another thread it may return before the observer is registered, but any
//!   notification sent after it returns reaches the new observer.
//! - **Disposing.** Once `dispose` has returned — called from anywhere, including a callback
//!   of the current delivery — the observer gets nothing sent after that point, and it is
//!   dropped as soon as no delivery is running. A delivery already running on another thread
//!   may still make the one call it was about to make, as in RxJava. An observer whose
//!   `is_disposed` turns `true` (the downstream of a finished `take`, say) is removed on the
//!   next notification, so it costs nothing after.
//! - **Panics.** A panic in an observer unwinds to the caller of the subject; the subject keeps
//!   working for the calls that follow.
//!
//! # Performance
//!
//! The subscribers are kept in a table with O(1) insertion and removal. `on_next` when no
//! delivery is running costs two atomic read-modify-write operations plus, for each subscriber,
//! one virtual call and one clone of the value (the last subscriber gets the value itself):
//! no lock and no allocation, whatever the number of subscribers. A call that finds a delivery
//! running takes a short lock to queue its notification; the queue is unbounded, so senders
//! that outpace the subscribers make it grow until the delivering thread catches up.
//! Subscribing allocates the boxed observer; a `BehaviorSubject` or `ReplaySubject` also clones
//! each value it keeps.

mod async_subject;
mod behavior;
mod core;
mod publish;
mod replay;

#[cfg(all(test, loom))]
mod loom_tests;

pub use self::core::{SubjectObservable, SubjectObserver, SubjectSubscription};
pub use async_subject::AsyncSubject;
pub use behavior::BehaviorSubject;
pub use publish::PublishSubject;
pub use replay::ReplaySubject;

mod sealed {
    pub trait Sealed {}
}

/// What every subject offers; lets [`multicast`](crate::ObservableExt::multicast) take any of
/// them. Implemented by the four subjects of this module only.
pub trait Subject<T>: Clone + Send + Sync + 'static + sealed::Sealed {
    /// The subject's observable side: subscribing registers an observer with the subject.
    fn observable(&self) -> SubjectObservable<T>;

    /// A new observer side: what it receives, the subject passes on to its subscribers.
    fn observer(&self) -> SubjectObserver<T>;

    /// Whether any observer is subscribed.
    fn has_observers(&self) -> bool;
}

// The inherent methods and the `Subject` impl of each subject are the same three forwarders.
macro_rules! subject_handle {
    ($name:ident) => {
        impl<T> $name<T> {
            /// The subject's observable side: subscribing registers an observer with the
            /// subject. Each call gives a new handle to the same subject.
            pub fn observable(&self) -> $crate::subjects::SubjectObservable<T> {
                $crate::subjects::SubjectObservable::new(self.core.clone())
            }

            /// A new observer side: what it receives, the subject passes on to its
            /// subscribers. Each call gives a new observer, so one can complete while others
            /// exist; the first terminal notification through any of them wins.
            pub fn observer(&self) -> $crate::subjects::SubjectObserver<T> {
                $crate::subjects::SubjectObserver::new(self.core.clone())
            }

            /// Whether any observer is subscribed. Always `false` once the subject has
            /// delivered its terminal notification.
            pub fn has_observers(&self) -> bool {
                self.core.has_observers()
            }
        }

        impl<T> Clone for $name<T> {
            fn clone(&self) -> Self {
                $name {
                    core: self.core.clone(),
                }
            }
        }

        impl<T> ::std::fmt::Debug for $name<T> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("has_observers", &self.core.has_observers())
                    .field("terminated", &self.core.is_terminated())
                    .finish()
            }
        }

        impl<T> $crate::subjects::sealed::Sealed for $name<T> {}

        impl<T: Clone + Send + 'static> $crate::subjects::Subject<T> for $name<T> {
            fn observable(&self) -> $crate::subjects::SubjectObservable<T> {
                $name::observable(self)
            }

            fn observer(&self) -> $crate::subjects::SubjectObserver<T> {
                $name::observer(self)
            }

            fn has_observers(&self) -> bool {
                $name::has_observers(self)
            }
        }
    };
}
use subject_handle;
