//! # Subjects and multicasting
//!
//! ## Subjects: pushing values by hand
//!
//! A subject is both ends of a pipe: values pushed into its
//! [`observer()`](crate::subjects::PublishSubject::observer) side reach every observer
//! subscribed to its [`observable()`](crate::subjects::PublishSubject::observable) side. It is
//! how events from outside Rx — button clicks, lines from a socket, callbacks of another
//! library — enter a pipeline, and how one sequence reaches many consumers. The kinds differ
//! in what a new subscriber gets first:
//!
//! | subject | a new subscriber first gets |
//! |---|---|
//! | [`PublishSubject`](crate::subjects::PublishSubject) | nothing: only what comes next |
//! | [`BehaviorSubject`](crate::subjects::BehaviorSubject) | the latest value (the initial one until the first) |
//! | [`ReplaySubject`](crate::subjects::ReplaySubject) | the values kept: all, the last *n*, or those of a time window |
//! | [`AsyncSubject`](crate::subjects::AsyncSubject) | nothing; only the last value, at completion |
//!
//! ```
//! use rx::prelude::*;
//! use rx::subjects::{BehaviorSubject, ReplaySubject};
//! use rx::testing::TestObserver;
//!
//! // The current state, for whoever asks: a behavior subject.
//! let temperature = BehaviorSubject::new(20);
//! let mut sensor = temperature.observer();
//! sensor.on_next(21);
//! let display = TestObserver::new();
//! temperature.observable().subscribe_observer(display.clone());
//! sensor.on_next(23);
//! display.assert_values(&[21, 23]); // the latest value first, then the changes
//!
//! // A log that late readers see whole, up to its last three lines: a replay subject.
//! let log = ReplaySubject::with_capacity(3);
//! let mut writer = log.observer();
//! for line in ["boot", "config", "listen", "ready"] {
//!     writer.on_next(line);
//! }
//! writer.on_completed();
//! let reader = TestObserver::new();
//! log.observable().subscribe_observer(reader.clone());
//! reader.assert_values(&["config", "listen", "ready"]);
//! reader.assert_completed();
//! ```
//!
//! Subjects obey the Rx rules for you: calls from many threads are serialised, a callback
//! that pushes into the subject it is called from has its value delivered after the current
//! one (not inside it), and the first terminal notification wins — through whichever of the
//! subject's observers it comes. The [module documentation](crate::subjects) gives the rules
//! in full.
//!
//! The subjects of [`rx::subjects`](crate::subjects) are thread-safe, so their observers must
//! be `Send`. [`rx::subjects::local`](crate::subjects::local) has the same four for one
//! thread: no atomic operation on their path, and observers that may hold `Rc` and `RefCell`
//! (a UI's widgets). Every operator takes them, those that keep their sources' handles
//! (`combine_latest`, `zip`, `merge`, ...) included; a chain over a local subject has a handle
//! that is not `Send`, and stays on its thread.
//!
//! ```
//! use rx::prelude::*;
//! use rx::subjects::local::PublishSubject;
//! use std::cell::RefCell;
//! use std::rc::Rc;
//!
//! let label = Rc::new(RefCell::new(String::new()));
//! let clicks = PublishSubject::<()>::new();
//! let target = label.clone();
//! clicks
//!     .observable()
//!     .scan(0, |count, ()| count + 1)
//!     .subscribe(move |count| *target.borrow_mut() = format!("{count} clicks"));
//! clicks.on_next(());
//! clicks.on_next(());
//! assert_eq!(*label.borrow(), "2 clicks");
//! ```
//!
//! ## Multicasting: one subscription, many subscribers
//!
//! A cold observable does its work once per subscriber. To share one run among several,
//! put a subject between it and them:
//!
//! | operator | connects | a late subscriber gets |
//! |---|---|---|
//! | [`publish()`](crate::ObservableExt::publish) | when you call [`connect`](crate::operators::ConnectableObservable::connect) | what comes next |
//! | [`replay(n)`](crate::ObservableExt::replay) | when you call `connect` | the last `n` values, then what comes next |
//! | [`share()`](crate::ObservableExt::share) | with its first subscriber; disconnects with its last | what comes next |
//! | [`share_replay(n)`](crate::ObservableExt::share_replay) | as `share` | the last `n` values of the current connection |
//! | [`multicast(subject)`](crate::ObservableExt::multicast) | when you call `connect` | what `subject` gives |
//!
//! ```
//! use rx::prelude::*;
//! use rx::testing::TestObserver;
//! use std::sync::atomic::{AtomicUsize, Ordering};
//!
//! static REQUESTS: AtomicUsize = AtomicUsize::new(0);
//! let response = rx::source::defer(|| {
//!     REQUESTS.fetch_add(1, Ordering::SeqCst); // an expensive call
//!     rx::source::from_iter(["header", "body"])
//! });
//!
//! // Both subscribers subscribe before the one `connect`: one request for both.
//! let published = response.publish();
//! let (a, b) = (TestObserver::new(), TestObserver::new());
//! published.clone().subscribe_observer(a.clone());
//! published.clone().subscribe_observer(b.clone());
//! published.connect();
//! a.assert_values(&["header", "body"]);
//! b.assert_values(&["header", "body"]);
//! assert_eq!(REQUESTS.load(Ordering::SeqCst), 1);
//! ```
//!
//! `share` connects and disconnects by itself, counting subscribers (RxJava's
//! `publish().refCount()`):
//!
//! ```
//! use rx::prelude::*;
//! use rx::subjects::PublishSubject;
//! use rx::testing::TestObserver;
//!
//! let clicks = PublishSubject::new();
//! let doubled = clicks.observable().map(|v: i32| v * 2).share();
//! let (a, b) = (TestObserver::new(), TestObserver::new());
//! let first = doubled.clone().subscribe_observer(a.clone());
//! assert!(clicks.has_observers(), "the first subscriber connected");
//! let second = doubled.clone().subscribe_observer(b.clone());
//! clicks.observer().on_next(1);
//! first.dispose();
//! second.dispose();
//! assert!(!clicks.has_observers(), "the last one left: disconnected");
//! a.assert_values(&[2]);
//! b.assert_values(&[2]);
//! ```
//!
//! Next: [testing](super::testing).
