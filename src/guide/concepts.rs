//! # Concepts: observable, observer, subscription; cold and hot
//!
//! An **observable** describes a sequence of values over time that is *pushed* to whoever
//! listens: where an [`Iterator`] is asked for its next value, an observable calls you with
//! it. An **observer** is what listens: it receives `on_next` for each value, then at most one
//! of `on_error` and `on_completed`. **Subscribing** an observer to an observable starts the
//! work and returns a **subscription**, a handle that can cancel it.
//!
//! ```text
//! on_next* (on_error | on_completed)?
//! ```
//!
//! ## Building and subscribing
//!
//! Sources ([`rx::source`](crate::source)) start a pipeline; operators, the methods of
//! [`ObservableExt`](crate::ObservableExt), build new observables from it. Nothing runs until
//! a subscription: an observable is a plain value, as an iterator adapter is.
//!
//! ```
//! use rx::prelude::*;
//! use rx::testing::TestObserver;
//!
//! let pipeline = rx::source::from_iter(1..=5).filter(|v| v % 2 == 1).map(|v| v * 10);
//!
//! // `subscribe` takes a closure for the values ...
//! let mut seen = Vec::new();
//! pipeline.clone().subscribe(|v| seen.push(v));
//! assert_eq!(seen, [10, 30, 50]);
//!
//! // ... `subscribe_with` three closures, and `subscribe_observer` any `Observer`, such as
//! // the recording `TestObserver` the examples in this guide assert with.
//! let observer = TestObserver::new();
//! pipeline.subscribe_observer(observer.clone());
//! observer.assert_values(&[10, 30, 50]);
//! observer.assert_completed();
//! ```
//!
//! ## The observer
//!
//! [`Observer`](crate::Observer) has three methods, and the last two take `self` by value: an
//! observer that has terminated no longer exists, so nothing can reach it after its terminal
//! notification — the compiler checks the grammar above. A fourth,
//! [`is_disposed`](crate::Observer::is_disposed), lets an observer tell its source that it
//! wants nothing more, which is how `take(3)` stops an endless synchronous source at once.
//!
//! ```
//! use rx::prelude::*;
//! use rx::testing::TestObserver;
//!
//! /// Prints each value; remembers nothing.
//! struct Print;
//!
//! impl<T: std::fmt::Debug> Observer<T> for Print {
//!     fn on_next(&mut self, value: T) {
//!         println!("{value:?}");
//!     }
//!     fn on_error(self, error: rx::Error) {
//!         println!("failed: {error}");
//!     }
//!     fn on_completed(self) {
//!         println!("done");
//!     }
//! }
//!
//! rx::source::just("hello").subscribe_observer(Print);
//!
//! // An endless source stops as soon as its downstream has had enough.
//! let observer = TestObserver::new();
//! rx::source::from_iter(0..).take(3).subscribe_observer(observer.clone());
//! observer.assert_values(&[0, 1, 2]);
//! observer.assert_completed();
//! ```
//!
//! ## The subscription
//!
//! `subscribe` returns a handle implementing [`Subscription`](crate::Subscription). Its type
//! depends on the chain: a synchronous chain has finished by the time `subscribe` returns and
//! hands back the zero-sized [`Finished`](crate::subscription::Finished); a chain with timers
//! or threads returns a handle that can cancel them. [`dispose`](crate::Subscription::dispose)
//! cancels, and calling it again does nothing. **Dropping a handle does not cancel**, as in
//! every Rx library (and unlike a Rust future): a subscription you do not keep keeps running.
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::testing::TestObserver;
//! use std::time::Duration;
//!
//! let scheduler = TestScheduler::new();
//! let observer = TestObserver::new();
//! let subscription = rx::source::interval(Duration::from_secs(1), scheduler.clone())
//!     .subscribe_observer(observer.clone());
//! scheduler.advance_by(Duration::from_millis(3500));
//! observer.assert_values(&[0, 1, 2]);
//!
//! subscription.dispose();
//! scheduler.advance_by(Duration::from_secs(10));
//! observer.assert_values(&[0, 1, 2]); // nothing after `dispose`
//! observer.assert_not_terminated(); // disposing is not completing
//! assert!(subscription.is_disposed());
//! ```
//!
//! ## Cold and hot
//!
//! A **cold** observable starts its work for each subscriber: `from_iter`, `interval`, a
//! pipeline of operators over them. Two subscribers get two independent runs. A **hot**
//! observable emits whether or not anyone listens, and a subscriber gets what is emitted after
//! it joined: a subject fed by user input, a [`share`](crate::ObservableExt::share)d source.
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::TestScheduler;
//! use rx::subjects::PublishSubject;
//! use rx::testing::TestObserver;
//! use std::time::Duration;
//!
//! // Cold: each subscriber has its own timer, starting at its own subscription.
//! let scheduler = TestScheduler::new();
//! let ticks = rx::source::interval(Duration::from_secs(1), scheduler.clone()).take(2);
//! let (early, late) = (TestObserver::new(), TestObserver::new());
//! ticks.clone().subscribe_observer(early.clone());
//! scheduler.advance_by(Duration::from_secs(1));
//! ticks.subscribe_observer(late.clone());
//! scheduler.run();
//! early.assert_values(&[0, 1]);
//! late.assert_values(&[0, 1]); // from the start, a second later
//!
//! // Hot: one sequence; a late subscriber misses what came before it.
//! let clicks = PublishSubject::new();
//! let mut input = clicks.observer();
//! let (early, late) = (TestObserver::new(), TestObserver::new());
//! clicks.observable().subscribe_observer(early.clone());
//! input.on_next("click 1");
//! clicks.observable().subscribe_observer(late.clone());
//! input.on_next("click 2");
//! early.assert_values(&["click 1", "click 2"]);
//! late.assert_values(&["click 2"]);
//! ```
//!
//! Next: [returning and accepting observables](super::returning_observables).
