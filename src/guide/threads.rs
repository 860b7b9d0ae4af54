//! # Threads, `Send`, and single-threaded pipelines
//!
//! There is one implementation of each operator, for one thread and for many. Whether a
//! pipeline may cross threads follows from what it holds, as it does for an iterator chain or
//! a future: `Map<S, F>` is `Send` when `S` and `F` are. The bounds appear only where work
//! actually moves: [`subscribe_on`](crate::ObservableExt::subscribe_on),
//! [`observe_on`](crate::ObservableExt::observe_on), the time operators and time sources on a
//! threaded scheduler, and subjects (which hand values to observers that may live anywhere)
//! require `Send + 'static`; a synchronous chain requires neither.
//!
//! ## Borrowing and `Rc` in synchronous chains
//!
//! A synchronous chain runs inside `subscribe`, so its closures may borrow locals and hold
//! values that are not `Send`:
//!
//! ```
//! use rx::prelude::*;
//! use std::cell::RefCell;
//! use std::rc::Rc;
//!
//! let prices = [3, 5, 8];
//! let discount = Rc::new(RefCell::new(1));
//! let log = Rc::new(RefCell::new(Vec::new()));
//!
//! let (d, l) = (discount.clone(), log.clone());
//! rx::source::from_iter(prices.iter()) // borrows `prices`
//!     .map(move |price| price - *d.borrow())
//!     .subscribe(move |price| l.borrow_mut().push(price));
//! assert_eq!(*log.borrow(), [2, 4, 7]);
//!
//! // Type erasure for what is not `Send`: `boxed_local`.
//! let d = discount.clone();
//! let observable: rx::LocalBoxedObservable<'_, i32> =
//!     rx::source::just(10).map(move |v| v - *d.borrow()).boxed_local();
//! *discount.borrow_mut() = 4;
//! let mut seen = 0;
//! observable.subscribe(|v| seen = v);
//! assert_eq!(seen, 6);
//! ```
//!
//! ## Crossing threads
//!
//! Where work crosses a thread, the compiler asks for `Send`. This does not compile, because
//! the `Rc` would be used on the thread `observe_on` delivers on:
//!
//! ```compile_fail
//! use rx::prelude::*;
//! use rx::schedulers::NewThread;
//! use std::rc::Rc;
//!
//! let counter = Rc::new(0);
//! rx::source::just(1)
//!     .observe_on(NewThread)
//!     .subscribe(move |v| println!("{}", v + *counter));
//! ```
//!
//! With `Arc` (and atomics or a lock where the state changes) it does. Whether a pipeline is
//! `Send` can be checked like any other type:
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::NewThread;
//! use std::sync::Arc;
//! use std::sync::atomic::{AtomicI32, Ordering};
//!
//! fn assert_send<T: Send>(_: &T) {}
//!
//! let total = Arc::new(AtomicI32::new(0));
//! let pipeline = rx::source::from_iter([1, 2, 3]).map(|v| v * 2).observe_on(NewThread);
//! assert_send(&pipeline);
//!
//! let t = total.clone();
//! pipeline
//!     .as_blocking()
//!     .subscribe(move |v| {
//!         t.fetch_add(v, Ordering::Relaxed);
//!     })
//!     .unwrap();
//! assert_eq!(total.load(Ordering::Relaxed), 12);
//! ```
//!
//! ## Serialised delivery
//!
//! The Rx rule: notifications to one observer never overlap. An operator with one source
//! needs nothing for it — its source already obeys the rule. Operators that meet several
//! sources (`merge`, `zip`, `combine_latest`, `flat_map`, subjects) serialise them, without
//! holding a lock while your code runs, so an observer written for one thread is correct when
//! its sources run on many. [`TestObserver`](crate::testing::TestObserver) checks it:
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::NewThread;
//! use rx::testing::TestObserver;
//!
//! let observer = TestObserver::new();
//! let (done, finished) = std::sync::mpsc::channel();
//! let producers = (0..4).map(|p| rx::source::range(p * 1000, 1000).subscribe_on(NewThread));
//! let _subscription = rx::source::merge(producers)
//!     .finally(move || done.send(()).unwrap())
//!     .subscribe_observer(observer.clone());
//! finished.recv().unwrap(); // four threads called `on_next` ...
//! assert_eq!(observer.value_count(), 4000);
//! observer.assert_rules(); // ... and no two calls overlapped
//! observer.assert_completed();
//! ```
//!
//! ## Single-threaded programs with time
//!
//! A UI or a wasm program has one thread. Keep the pipeline on it with a
//! [`RunLoop`](crate::schedulers::RunLoop): timers and `observe_on(run_loop)` queue their
//! tasks there, and the program's own loop runs them with `dispatch`, so every callback runs
//! on that thread (the `sensors` and `ui_counter` examples do this).
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::RunLoop;
//! use rx::testing::TestObserver;
//! use std::time::Duration;
//!
//! let run_loop = RunLoop::new();
//! let observer = TestObserver::new();
//! rx::source::interval(Duration::from_millis(1), run_loop.clone())
//!     .take(3)
//!     .subscribe_observer(observer.clone());
//! while !observer.is_terminated() {
//!     run_loop.dispatch(); // each tick runs here, on this thread
//! }
//! observer.assert_values(&[0, 1, 2]);
//! ```
//!
//! Next: [subjects and multicasting](super::subjects).
