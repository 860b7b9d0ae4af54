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
//! A program that does its work on one thread keeps its pipelines there with the scheduler of
//! whatever loop runs that thread:
//!
//! - a native GUI (winit, glib and GTK, egui), whose event loop owns the thread: an
//!   [`EventLoop`](crate::schedulers::EventLoop), which tells that loop when to wake and is
//!   woken by other threads (see [the next section](#inside-a-guis-event-loop));
//! - a browser page: the schedulers of `rx::schedulers::web` (the `web` feature), which run
//!   on the page's own event loop (see [the schedulers chapter](super::schedulers));
//! - a loop the program writes itself, or a program's `main`: a
//!   [`RunLoop`](crate::schedulers::RunLoop). Timers and `observe_on(run_loop)` queue their
//!   tasks there, and the program's loop runs them with `dispatch`, so every callback runs on
//!   that thread (the `sensors` and `ui_counter` examples do this).
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
//! ## Inside a GUI's event loop
//!
//! A GUI's event loop owns its thread and sleeps until an event comes or a deadline passes.
//! An [`EventLoop`](crate::schedulers::EventLoop), made on that thread, fits into it without
//! polling:
//!
//! - [`next_due`](crate::schedulers::EventLoop::next_due) says when its earliest task is
//!   due, `interval`'s next tick and `debounce`'s deadline included: the loop sleeps until
//!   then;
//! - the wake callback given to
//!   [`with_waker`](crate::schedulers::EventLoop::with_waker) is called when another thread
//!   queues work that is due earlier than that: the loop wakes and asks again;
//! - [`dispatch_ready`](crate::schedulers::EventLoop::dispatch_ready) runs what is due, and
//!   returns.
//!
//! Pipelines are scheduled on its [`handle`](crate::schedulers::EventLoop::handle), a `Send`
//! scheduler. Their observers run on the loop's thread, so they may hold `Rc`s and widgets:
//! [`pin`](crate::schedulers::EventLoop::pin) wraps such an observer in an
//! [`OnLoop`](crate::schedulers::OnLoop), which the time operators and `observe_on` take
//! (it checks at run time that it is used on its thread).
//!
//! winit and glib are not dependencies of rx, and are too heavy to build for a doctest, so
//! the example below runs a stand-in: a loop that sleeps on a channel of user events, as
//! winit's loop does with `ControlFlow::WaitUntil` and an `EventLoopProxy`.
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::EventLoop;
//! use rx::time::Instant;
//! use std::cell::Cell;
//! use std::rc::Rc;
//! use std::sync::mpsc;
//! use std::time::Duration;
//!
//! // The toolkit's stand-in: its loop waits for user events, sent through `proxy`.
//! enum UserEvent {
//!     Wake,
//!     Quit,
//! }
//! let (proxy, events) = mpsc::channel::<UserEvent>();
//!
//! // On the UI thread: the wake callback sends the loop an event.
//! let wake = proxy.clone();
//! let ui = EventLoop::with_waker(move || {
//!     let _ = wake.send(UserEvent::Wake);
//! });
//!
//! // A widget (not `Send`), updated by a clock on the UI thread.
//! let label = Rc::new(Cell::new(0));
//! let shown = label.clone();
//! rx::source::interval(Duration::from_millis(2), ui.handle())
//!     .take(5)
//!     .subscribe_observer(ui.pin(rx::observer::NextObserver::new(move |n| shown.set(n))));
//!
//! // Another thread queues a timer on the UI loop: that wakes the loop.
//! let (handle, quit) = (ui.handle(), proxy.clone());
//! std::thread::spawn(move || {
//!     rx::source::timer(Duration::from_millis(20), handle).subscribe(move |_| {
//!         let _ = quit.send(UserEvent::Quit);
//!     });
//! });
//!
//! // The toolkit's loop.
//! loop {
//!     ui.dispatch_ready();
//!     let event = match ui.next_due() {
//!         Some(due) => events
//!             .recv_timeout(due.saturating_duration_since(Instant::now()))
//!             .ok(),
//!         None => events.recv().ok(),
//!     };
//!     if let Some(UserEvent::Quit) = event {
//!         break;
//!     }
//! }
//! assert_eq!(label.get(), 4);
//! ```
//!
//! With a real toolkit the three calls go where its loop offers them:
//!
//! | `EventLoop` | winit (0.30) | glib | egui |
//! |---|---|---|---|
//! | `with_waker(f)` | `f` calls `proxy.send_event(..)` on an `EventLoopProxy` | `f` calls `context.wakeup()` on the `MainContext` | `f` calls `ctx.request_repaint()` on the `Context` |
//! | `dispatch_ready()` | in `ApplicationHandler::user_event` and `about_to_wait` | in the dispatch of a `glib::Source` of its own | at the start of `App::update` |
//! | `next_due()` | `event_loop.set_control_flow(ControlFlow::WaitUntil(due))` in `about_to_wait`, `ControlFlow::Wait` for `None` | the timeout the source's `prepare` returns | `ctx.request_repaint_after(due - now)` |
//!
//! `rx::time::Instant` is `std::time::Instant` on native targets, the type winit's
//! `ControlFlow::WaitUntil` takes. Code on the loop's thread (an event handler subscribing a
//! pipeline) calls no wake: it runs inside a turn of the loop, which asks `next_due` again
//! before it sleeps. A task that only needs to run on the loop, not to be a pipeline, is
//! queued with [`schedule_local`](crate::schedulers::EventLoop::schedule_local), which takes
//! a closure that is not `Send`.
//!
//! Next: [subjects and multicasting](super::subjects).
