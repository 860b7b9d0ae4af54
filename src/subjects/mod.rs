//! Subjects: observables you push values into by hand, shared by every subscriber.
//!
//! A subject is both sides of a pipe. It receives notifications — from your code, through
//! [`on_next`](PublishSubject::on_next), [`on_error`](PublishSubject::on_error) and
//! [`on_completed`](PublishSubject::on_completed), or from a source subscribed to its
//! [`observer()`](PublishSubject::observer) — and its
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
//! The subjects of this module are thread-safe: they and their handles are `Send` and `Sync`,
//! and they keep only `Send` observers. The same four subjects for one thread are in
//! [`local`]: neither `Send` nor `Sync`, with values and observers that may hold `Rc` and
//! `RefCell`, and no atomic operation on their path. Both are the same code over a different
//! [flavour](crate::sync); the generic types are in [`flavoured`].
//!
//! # Examples
//!
//! ```
//! use rx::prelude::*;
//! use rx::subjects::PublishSubject;
//! use rx::testing::TestObserver;
//!
//! let subject = PublishSubject::new();
//! let early = TestObserver::new();
//! subject.observable().subscribe_observer(early.clone());
//! subject.on_next(1);
//!
//! let late = TestObserver::new();
//! subject.observable().subscribe_observer(late.clone());
//! subject.on_next(2);
//! subject.on_completed();
//!
//! early.assert_values(&[1, 2]);
//! late.assert_values(&[2]);
//! late.assert_completed();
//! ```
//!
//! # Rules
//!
//! - **Serialised delivery.** Any thread may call the observer side (the subject's own thread,
//!   for a [`local`] subject), and observers may call back into the subject from their
//!   callbacks. Notifications reach the subscribers one at a
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
//! delivery is running costs two atomic read-modify-write operations (none for a [`local`]
//! subject) plus, for each subscriber, one call and one clone of the value (the last
//! subscriber gets the value itself): no lock and no allocation, whatever the number of
//! subscribers. The call is virtual, but for subscribers of one type (made by one line of
//! code) in a row while no subscription handle is kept: those are called directly, one run
//! at a time. A call that finds a delivery running takes a short lock to queue its
//! notification; the queue is unbounded, so senders that outpace the subscribers make it grow
//! until the delivering thread catches up. Subscribing takes the lock once and allocates only
//! for an observer larger than three words, which is boxed (smaller ones are kept in the
//! subject's table); a `BehaviorSubject` or `ReplaySubject` also clones each value it keeps. A
//! live subscription holds a 32-byte slot (its observer, when kept in place) and an 8-byte key
//! in the subject's tables, which grow by doubling.

mod async_subject;
mod behavior;
pub(crate) mod core;
pub mod local;
mod publish;
mod replay;
mod sink;

#[cfg(all(test, loom))]
mod loom_tests;

#[cfg(all(test, not(loom)))]
mod flavour_tests;

pub use self::core::{SubjectObservable, SubjectObserver, SubjectSubscription};

use crate::sync::Shared;

/// The four subjects, generic over their [flavour](crate::sync).
///
/// Every subject is written once, over a [`Flavour`](crate::sync::Flavour); this module names those generic types.
/// Code normally names them through their aliases: [`subjects::PublishSubject`](PublishSubject)
/// and the others (thread-safe), and [`subjects::local`](local) (one thread). The aliases fix
/// the flavour, which is what lets `PublishSubject::new()` pick its constructor without a type
/// annotation; name the generic types to write code that serves both:
///
/// ```
/// use rx::subjects::flavoured::PublishSubject;
/// use rx::sync::Flavour;
///
/// fn send_twice<F: Flavour>(subject: &PublishSubject<i32, F>, v: i32) {
///     subject.on_next(v);
///     subject.on_next(v);
/// }
///
/// send_twice(&rx::subjects::PublishSubject::new(), 1);
/// send_twice(&rx::subjects::local::PublishSubject::new(), 1);
/// ```
pub mod flavoured {
    pub use super::async_subject::AsyncSubject;
    pub use super::behavior::BehaviorSubject;
    pub use super::publish::PublishSubject;
    pub use super::replay::ReplaySubject;
}

/// A thread-safe subject that passes each notification on to the observers subscribed at the
/// time: [`flavoured::PublishSubject`] over the [`Shared`] flavour. Its methods are listed
/// there.
#[doc(alias = "Subject")]
pub type PublishSubject<T> = flavoured::PublishSubject<T, Shared>;

/// A thread-safe subject that starts each new subscriber with its latest value:
/// [`flavoured::BehaviorSubject`] over the [`Shared`] flavour. Its methods are listed there.
pub type BehaviorSubject<T> = flavoured::BehaviorSubject<T, Shared>;

/// A thread-safe subject that replays the values it kept to each new subscriber:
/// [`flavoured::ReplaySubject`] over the [`Shared`] flavour. Its methods are listed there.
pub type ReplaySubject<T> = flavoured::ReplaySubject<T, Shared>;

/// A thread-safe subject that emits only its last value, when it completes:
/// [`flavoured::AsyncSubject`] over the [`Shared`] flavour. Its methods are listed there.
pub type AsyncSubject<T> = flavoured::AsyncSubject<T, Shared>;

pub(crate) mod sealed {
    /// What every subject is, whatever its item: of a flavour. Lets the state built on a
    /// subject (a `publish` connection) take the subject's flavour without naming its item.
    pub trait Sealed {
        type Flavour: crate::sync::Flavour;
    }
}

/// What every subject offers; lets [`multicast`](crate::ObservableExt::multicast) take any of
/// them. Implemented by the four subjects of this module, in both [flavours](crate::sync),
/// only.
pub trait Subject<T>: Clone + 'static + sealed::Sealed {
    /// The subject's observable side: subscribing registers an observer with the subject.
    fn observable(&self) -> SubjectObservable<T, <Self as sealed::Sealed>::Flavour>;

    /// A new observer side: what it receives, the subject passes on to its subscribers.
    fn observer(&self) -> SubjectObserver<T, <Self as sealed::Sealed>::Flavour>;

    /// Whether any observer is subscribed.
    fn has_observers(&self) -> bool;
}

// The inherent methods and the `Subject` impl of each subject are the same forwarders.
macro_rules! subject_handle {
    ($name:ident) => {
        impl<T, F: $crate::sync::Flavour> $name<T, F> {
            fn from_kind(kind: $crate::subjects::core::Kind<T>) -> Self {
                $name {
                    core: $crate::subjects::core::SubjectCore::<T, F>::shared(kind),
                }
            }

            /// The subject's observable side: subscribing registers an observer with the
            /// subject. Each call gives a new handle to the same subject.
            pub fn observable(&self) -> $crate::subjects::SubjectObservable<T, F> {
                $crate::subjects::SubjectObservable::new(self.core.clone())
            }

            /// A new observer side: what it receives, the subject passes on to its
            /// subscribers. Each call gives a new observer, so one can complete while others
            /// exist; the first terminal notification through any of them wins.
            pub fn observer(&self) -> $crate::subjects::SubjectObserver<T, F> {
                $crate::subjects::SubjectObserver::new(self.core.clone())
            }

            /// Whether any observer is subscribed. Always `false` once the subject has
            /// delivered its terminal notification.
            pub fn has_observers(&self) -> bool {
                self.core.has_observers()
            }

            /// Whether the subject has accepted a terminal notification.
            pub fn is_terminated(&self) -> bool {
                self.core.is_terminated()
            }
        }

        impl<T: Clone, F: $crate::sync::Flavour> $name<T, F> {
            /// Sends `value` to the subject, unless it has terminated: what an
            /// [`observer()`](Self::observer)'s `on_next` does, without making an observer.
            #[doc(alias = "onNext")]
            #[doc(alias = "next")]
            #[inline(always)]
            pub fn on_next(&self, value: T) {
                $crate::subjects::core::SubjectCore::<T, F>::on_next(&self.core, value)
            }

            /// Terminates the subject with `error`, unless it has terminated already: what an
            /// [`observer()`](Self::observer)'s `on_error` does.
            #[doc(alias = "onError")]
            pub fn on_error(&self, error: $crate::Error) {
                self.core.on_error(error)
            }

            /// Completes the subject, unless it has terminated already: what an
            /// [`observer()`](Self::observer)'s `on_completed` does.
            #[doc(alias = "onComplete")]
            #[doc(alias = "complete")]
            pub fn on_completed(&self) {
                self.core.on_completed()
            }
        }

        impl<T, F: $crate::sync::Flavour> Clone for $name<T, F> {
            fn clone(&self) -> Self {
                $name {
                    core: self.core.clone(),
                }
            }
        }

        impl<T, F: $crate::sync::Flavour> ::std::fmt::Debug for $name<T, F> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("has_observers", &self.core.has_observers())
                    .field("terminated", &self.core.is_terminated())
                    .finish()
            }
        }

        impl<T, F: $crate::sync::Flavour> $crate::subjects::sealed::Sealed for $name<T, F> {
            type Flavour = F;
        }

        impl<T: Clone + 'static, F: $crate::sync::Flavour> $crate::subjects::Subject<T>
            for $name<T, F>
        {
            fn observable(&self) -> $crate::subjects::SubjectObservable<T, F> {
                $name::observable(self)
            }

            fn observer(&self) -> $crate::subjects::SubjectObserver<T, F> {
                $name::observer(self)
            }

            fn has_observers(&self) -> bool {
                $name::has_observers(self)
            }
        }
    };
}
use subject_handle;
