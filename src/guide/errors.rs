//! # Errors and panics
//!
//! ## One error type
//!
//! Every observable fails with the same type, [`rx::Error`](crate::Error): an `Arc` around
//! any `std::error::Error + Send + Sync`, cheap to clone (subjects hand one error to many
//! subscribers, `retry` keeps it) and downcastable to what it was made from. Any error type
//! converts into it with `From`/`?`; [`Error::msg`](crate::Error::msg) makes one from a
//! message. Like `anyhow::Error`, it does not implement `std::error::Error` itself, but it
//! converts into `Box<dyn Error + Send + Sync>` for `?`, and gives the inner error with
//! `as_ref()`.
//!
//! ```
//! use std::num::ParseIntError;
//!
//! let error = rx::Error::from("x".parse::<i32>().unwrap_err());
//! assert!(error.is::<ParseIntError>());
//! assert_eq!(error.to_string(), "invalid digit found in string");
//! let copy = error.clone(); // a reference count, not a copy of the error
//! assert_eq!(copy, error);
//!
//! fn run() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//!     Err(rx::Error::msg("offline"))?
//! }
//! assert_eq!(run().unwrap_err().to_string(), "offline");
//! ```
//!
//! ## Where errors come from
//!
//! Sources fail ([`throw`](crate::source::throw), a future resolving to `Err` through
//! [`from_future_result`](crate::source::from_future_result)), some operators fail
//! ([`first`](crate::ObservableExt::first) of an empty sequence,
//! [`timeout`](crate::ObservableExt::timeout)), and user code fails through the operators
//! that take a `Result`:
//! [`try_map`](crate::ObservableExt::try_map) turns an `Err` into `on_error`. An error ends
//! the sequence: the source is disposed, and downstream gets `on_error` once.
//!
//! ```
//! use rx::operators::NoElements;
//! use rx::prelude::*;
//! use rx::testing::TestObserver;
//!
//! let observer = TestObserver::new();
//! rx::source::from_iter(["1", "2", "x", "4"])
//!     .try_map(str::parse::<i32>)
//!     .subscribe_observer(observer.clone());
//! observer.assert_values(&[1, 2]); // "4" is never parsed
//! observer.assert_error("invalid digit found in string");
//!
//! let observer = TestObserver::new();
//! rx::source::empty::<i32>().first().subscribe_observer(observer.clone());
//! assert!(observer.error().unwrap().is::<NoElements>());
//! ```
//!
//! ## Handling them
//!
//! [`subscribe_with`](crate::ObservableExt::subscribe_with) takes an error closure.
//! [`subscribe`](crate::ObservableExt::subscribe), which takes only a value closure, has
//! nowhere to put an error, so it **panics** with the error's message (RxJava's
//! `OnErrorNotImplemented`): an error never vanishes silently.
//!
//! ```
//! use rx::prelude::*;
//!
//! let mut failure = None;
//! rx::source::throw::<i32>(rx::Error::msg("disk full"))
//!     .subscribe_with(|_| {}, |error| failure = Some(error.to_string()), || {});
//! assert_eq!(failure.as_deref(), Some("disk full"));
//!
//! let unhandled = std::panic::catch_unwind(|| {
//!     rx::source::throw::<i32>(rx::Error::msg("disk full")).subscribe(|_| {});
//! });
//! assert!(unhandled.is_err());
//! ```
//!
//! ## Errors nobody can receive
//!
//! Two kinds of error have no observer to go to: one of an observable subscribed without an
//! error handler (above), and one a source signals after its subscription was disposed (an
//! emitter of [`create`](crate::source::create) failing after its downstream let go, which
//! is dropped). An application that would rather log both, as RxJava's
//! `RxJavaPlugins.setErrorHandler` and RxJS's `config.onUnhandledError` let it, sets one
//! process-wide hook with [`set_unhandled_error_hook`](crate::set_unhandled_error_hook); the
//! hook is told which kind it got ([`Undeliverable`](crate::Undeliverable)).
//! [`clear_unhandled_error_hook`](crate::clear_unhandled_error_hook) brings the defaults
//! back: the panic, and the silent drop.
//!
//! The hook is called on the thread where the error arises, from any number of threads at
//! once (it is `Send + Sync`), with no lock of rx held: it may log, subscribe, or set another
//! hook. Setting it races nothing: an error reported meanwhile goes to the old hook or to
//! the new one. It is global, so set it once, early in `main`, not from a library; a test
//! that sets it belongs in a test binary of its own.
//!
//! ```standalone_crate
//! use rx::prelude::*;
//! use std::sync::{Arc, Mutex};
//!
//! let log = Arc::new(Mutex::new(Vec::new()));
//! let sink = log.clone();
//! rx::set_unhandled_error_hook(move |error, why| {
//!     sink.lock().unwrap().push(format!("{why:?}: {error}"));
//! });
//! rx::source::throw::<i32>(rx::Error::msg("disk full")).subscribe(|_| {}); // no panic
//! assert_eq!(*log.lock().unwrap(), ["NoErrorHandler: disk full"]);
//! rx::clear_unhandled_error_hook();
//! ```
//!
//! ## Recovering
//!
//! | operator | on error |
//! |---|---|
//! | [`on_error_return(f)`](crate::ObservableExt::on_error_return) | emits `f(error)` and completes |
//! | [`on_error_resume_next(f)`](crate::ObservableExt::on_error_resume_next) | continues with the observable `f(error)` |
//! | [`retry(n)`](crate::ObservableExt::retry), [`retry_forever`](crate::ObservableExt::retry_forever) | subscribes to the source again, up to `n` more times |
//! | [`retry_with(config)`](crate::ObservableExt::retry_with) | the same, with a count, a delay (a duration, or an observable per error) and a reset on success |
//! | [`on_error_complete`](crate::ObservableExt::on_error_complete), [`on_error_complete_if(p)`](crate::ObservableExt::on_error_complete_if) | completes (for the errors `p` accepts) |
//! | [`map_err(f)`](crate::ObservableExt::map_err) | fails with `f(error)` instead: add context |
//! | [`materialize`](crate::ObservableExt::materialize) | emits the error as a [`Notification`](crate::Notification) value, then completes |
//!
//! ```
//! use rx::prelude::*;
//! use rx::testing::TestObserver;
//! use std::sync::atomic::{AtomicUsize, Ordering};
//!
//! // A flaky source: fails on its first two subscriptions, then succeeds.
//! static ATTEMPTS: AtomicUsize = AtomicUsize::new(0);
//! let flaky = rx::source::defer(|| {
//!     let attempt = ATTEMPTS.fetch_add(1, Ordering::SeqCst);
//!     rx::source::just(attempt).try_map(|attempt| {
//!         if attempt < 2 { Err(rx::Error::msg("busy")) } else { Ok("data") }
//!     })
//! });
//! let observer = TestObserver::new();
//! flaky.retry(3).subscribe_observer(observer.clone());
//! observer.assert_values(&["data"]);
//! observer.assert_completed();
//! assert_eq!(ATTEMPTS.load(Ordering::SeqCst), 3);
//!
//! let observer = TestObserver::new();
//! rx::source::from_iter(["8080", "http"])
//!     .try_map(str::parse::<u16>)
//!     .map_err(|error| rx::Error::msg(format!("reading the port: {error}")))
//!     .on_error_resume_next(|_| rx::source::just(80))
//!     .subscribe_observer(observer.clone());
//! observer.assert_values(&[8080, 80]);
//! observer.assert_completed();
//! ```
//!
//! ## Panics are not errors
//!
//! A panic in a user callback (a `map` closure, an observer) is **not** turned into
//! `on_error`, as RxJava turns exceptions: it unwinds, like a panic in an iterator adapter.
//! Use `try_map` for failures you expect. What holds after a panic:
//!
//! - On the caller's thread (a synchronous chain, [`Immediate`](crate::schedulers::Immediate),
//!   [`CurrentThread`](crate::schedulers::CurrentThread), [`RunLoop`](crate::schedulers::RunLoop),
//!   [`TestScheduler`](crate::schedulers::TestScheduler)) the panic reaches the caller; no lock
//!   is left poisoned, so subjects and schedulers keep working for the calls that follow.
//! - On a scheduler's own threads ([`NewThread`](crate::schedulers::NewThread),
//!   [`ThreadPool`](crate::schedulers::ThreadPool),
//!   [`Computational`](crate::schedulers::Computational), `Tokio`) the panicking task is reported through the panic hook and dropped, and the thread
//!   goes on with its other tasks.
//!
//! ```
//! use rx::prelude::*;
//! use rx::subjects::PublishSubject;
//! use rx::testing::TestObserver;
//! use std::panic::{catch_unwind, AssertUnwindSafe};
//!
//! let subject = PublishSubject::new();
//! let observer = TestObserver::new();
//! subject.observable().subscribe_observer(observer.clone());
//! subject.observable().subscribe(|v: i32| assert!(v != 2, "two is unlucky"));
//!
//! let mut input = subject.observer();
//! input.on_next(1);
//! let panicked = catch_unwind(AssertUnwindSafe(|| input.on_next(2)));
//! assert!(panicked.is_err()); // the panic reached the caller ...
//! input.on_next(3); // ... and the subject still works
//! assert!(observer.values().contains(&3));
//! ```
//!
//! Next: [threads, `Send`, and single-threaded pipelines](super::threads).
