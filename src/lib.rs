//! Reactive Extensions for Rust: push-based sequences of values over time, with the Rx
//! operator vocabulary and code that costs what hand-written code costs.
//!
//! An [`Observable`] describes a sequence; operators (the methods of [`ObservableExt`]) build
//! new observables from it; subscribing an [`Observer`] runs the pipeline and returns a
//! [`Subscription`] handle.
//!
//! ```
//! use rx::prelude::*;
//!
//! let mut seen = Vec::new();
//! rx::source::from_iter(1..=10)
//!     .filter(|v| v % 2 == 0)
//!     .map(|v| v * v)
//!     .subscribe(|v| seen.push(v));
//! assert_eq!(seen, [4, 16, 36, 64, 100]);
//! ```
//!
//! # Observables in function signatures
//!
//! A function that *returns* an observable names the observer type as a parameter, since
//! subscribing is [`Subscribe<O>`](Subscribe) for the caller's observer `O` (a bare
//! `impl Observable<Item = T>` cannot be subscribed). A function that *takes* one returns the
//! operator struct it builds, with `impl FnMut` for the closure. Both cost nothing; the
//! boxed forms cost an allocation per subscribe and a virtual call per value, and are the
//! way to store observables or pass them between such functions. A function that
//! *subscribes* any observable of `T` it is given, boxed, threaded or built in place, bounds
//! it by [`SubscribeOwned<T>`](SubscribeOwned) and subscribes a closure that owns its state.
//!
//! ```
//! use rx::prelude::*;
//! use rx::BoxedObservable;
//! use rx::operators::Map;
//!
//! fn evens<O: Observer<u32>>(limit: usize) -> impl Subscribe<O, Item = u32> {
//!     rx::source::range(0, limit).filter(|v| v % 2 == 0)
//! }
//!
//! fn squared<S: Observable<Item = u32>>(source: S) -> Map<S, impl FnMut(u32) -> u32> {
//!     source.map(|v| v * v)
//! }
//!
//! fn squared_boxed<'a>(source: BoxedObservable<'a, u32>) -> BoxedObservable<'a, u32> {
//!     source.map(|v| v * v).boxed()
//! }
//!
//! fn total(source: impl SubscribeOwned<u32>) -> u32 {
//!     let (sender, receiver) = std::sync::mpsc::channel();
//!     source.subscribe_owned(move |v| sender.send(v).unwrap());
//!     receiver.iter().sum()
//! }
//!
//! let mut seen = Vec::new();
//! evens(6).map(|v| v + 1).subscribe(|v| seen.push(v));
//! squared(rx::source::range(1, 3)).subscribe(|v| seen.push(v));
//! squared_boxed(rx::source::range(0, 6).filter(|v| v % 2 == 0).boxed())
//!     .subscribe(|v| seen.push(v));
//! assert_eq!(seen, [1, 3, 5, 1, 4, 9, 0, 4, 16]);
//! assert_eq!(total(evens(6)) + total(squared_boxed(rx::source::range(1, 3).boxed())), 6 + 14);
//! ```
//!
//! Two limits of the unboxed forms, both from Rust's `impl Trait`: the handle type is hidden
//! with the chain, so write `impl Subscribe<O, Item = T, Subscription: Send>` when the result
//! is to be merged, zipped or boxed; and the closure types of a function like `squared` name
//! its source type, which for `evens(..)` names the observer, so `squared(evens(6))` is a type
//! that contains itself: box one of the two. [`Subscribe`] shows more.
//!
//! # Design
//!
//! - **Static dispatch.** Each operator is a small struct generic over its source and closure,
//!   like `Iterator::map`. A synchronous chain compiles to one function; type erasure is
//!   opt-in through [`ObservableExt::boxed`].
//! - **The Rx grammar by ownership.** `on_next* (on_error | on_completed)?`: the terminal
//!   methods of [`Observer`] take `self`, so a terminated observer cannot be called again.
//!   An observer tells upstream that it wants no more values through
//!   [`Observer::is_disposed`], so a synchronous source stops at once.
//! - **Subscriptions cost nothing unless needed.** A synchronous chain returns the zero-sized
//!   [`Finished`](subscription::Finished) handle. Dropping a handle does not cancel;
//!   [`Subscription::dispose`] does.
//! - **One error type**, [`Error`]: an `Arc` around any `std::error::Error + Send + Sync`.
//!   A panic in a user callback is not turned into an error: it unwinds to the caller.
//! - **Borrowing.** A synchronous chain may borrow from the stack, as an iterator chain can;
//!   `Send` and `'static` bounds appear only where work crosses threads or time.
//! - **One implementation per operator.** State shared between several upstreams (merge,
//!   zip, subjects) lives behind an `Arc` and a lock or atomics; whether a pipeline is `Send`
//!   follows from what its closures capture. Notifications to one observer are never
//!   concurrent: operators that meet several threads serialise them, without holding a lock
//!   while user code runs.
//! - **Schedulers chosen at compile time.** Time operators are generic over their
//!   [`Scheduler`](schedulers::Scheduler); with [`Immediate`](schedulers::Immediate),
//!   `observe_on` and `subscribe_on` fold away.
//!
//! # Modules
//!
//! | module | what it holds |
//! |---|---|
//! | [`source`] | where pipelines start: `just`, `from_iter`, `create`, `timer`, `interval`, ... |
//! | [`operators`] | the operator structs; their documentation is on [`ObservableExt`] |
//! | [`schedulers`] | `Immediate`, `CurrentThread`, `NewThread`, `RunLoop`, `EventLoop`, `ThreadPool`, `Computational`, `TestScheduler` |
//! | [`subjects`] | `PublishSubject`, `BehaviorSubject`, `ReplaySubject`, `AsyncSubject` |
//! | [`backpressure`] | bounds on hand-offs between threads: `Bounded`, `Overflow`, `BufferOverflow` |
//! | [`interop`] | futures `Future` and `Stream`, tokio |
//! | [`testing`] | `TestObserver`, timed recording and marble diagrams on virtual time |
//!
//! # Panics
//!
//! A panic in a user callback unwinds to whoever called it: the subscriber's thread for a
//! synchronous chain. No lock is left poisoned, so the next subscriber is unaffected. On the
//! library's own threads (`NewThread`, `ThreadPool`, `Computational`) a panicking task is
//! reported through the panic hook and the thread goes on with its other tasks.
//!
//! # Feature flags
//!
//! No features are enabled by default.
//!
//! | feature | enables |
//! |---|---|
//! | `stream` | `futures_core::Stream` interop: `source::from_stream`, `ObservableExt::into_stream` |
//! | `tokio` | `schedulers::Tokio`, a scheduler over a tokio runtime; `Marbles::on_tokio`, marble tests over async code |
//! | `tracing` | `ObservableExt::spy` reports as `tracing` events (without it, `spy` is its source) |
//! | `web` | on wasm32 only: `schedulers::web` (`setTimeout`, microtasks, animation frames), `source::from_event`, `source::animation_frames` |
//!
//! # Guide
//!
//! The [`guide`] explains rx a chapter at a time: [concepts](guide::concepts),
//! [returning and accepting observables](guide::returning_observables),
//! [choosing a scheduler](guide::schedulers), [errors and panics](guide::errors),
//! [threads and `Send`](guide::threads), [subjects and multicasting](guide::subjects),
//! [testing](guide::testing), [async interop](guide::async_interop),
//! [debugging a pipeline](guide::debugging), [the performance model](guide::performance), and
//! [coming from RxJS, RxJava and RPP](guide::coming_from).

#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs, missing_debug_implementations, unreachable_pub)]
#![deny(unsafe_op_in_unsafe_fn)]
#![doc(test(attr(deny(warnings))))]

pub mod backpressure;
mod engine;
mod error;
pub mod guide;
mod in_place;
pub mod interop;
pub mod notification;
mod observable;
mod observable_ext;
pub mod observer;
pub mod operators;
mod primitive;
pub mod schedulers;
pub mod source;
pub mod subjects;
pub mod subscription;
pub mod sync;
#[cfg(test)]
mod test_kit;
pub mod testing;
pub mod time;

pub use error::{Error, Undeliverable, clear_unhandled_error_hook, set_unhandled_error_hook};
pub use notification::Notification;
pub use observable::{Observable, Subscribe, SubscribeOwned};
pub use observable_ext::ObservableExt;
pub use observer::Observer;
pub use operators::{BoxedObservable, LocalBoxedObservable};
pub use subscription::Subscription;

/// The traits needed to build and subscribe observables: `use rx::prelude::*;`.
pub mod prelude {
    pub use crate::observable::{Observable, Subscribe, SubscribeOwned};
    pub use crate::observable_ext::ObservableExt;
    pub use crate::observer::Observer;
    pub use crate::subscription::Subscription;
}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
