//! # Choosing a scheduler
//!
//! A synchronous chain needs no scheduler: it runs inside `subscribe`, on the caller's
//! thread. A scheduler comes in where time or threads do: sources such as
//! [`timer`](crate::source::timer) and [`interval`](crate::source::interval), the time
//! operators (`debounce`, `delay`, `timeout`, ...), and the two operators that move work,
//! [`subscribe_on`](crate::ObservableExt::subscribe_on) (where the source is subscribed, and so
//! where a synchronous source runs) and [`observe_on`](crate::ObservableExt::observe_on) (where
//! the notifications are delivered downstream). Each takes the scheduler as an argument, and
//! the choice is part of the type: with [`Immediate`](crate::schedulers::Immediate) the
//! scheduling code folds away at compile time.
//!
//! | scheduler | where tasks run | use it for | what it costs |
//! |---|---|---|---|
//! | [`Immediate`](crate::schedulers::Immediate) | inline, before `schedule` returns; a delay sleeps the caller | the default when nothing must move: `observe_on(Immediate)` is the identity | nothing: no allocation, no queue |
//! | [`CurrentThread`](crate::schedulers::CurrentThread) | the calling thread, through a trampoline queue | recursion without stack growth; ordering work on one thread | inline when no task of its runs on the thread; an allocation per task queued behind another |
//! | [`NewThread`](crate::schedulers::NewThread) | a new thread per worker | a long-running or blocking producer that deserves a thread | a thread spawn per worker; an allocation per task |
//! | [`ThreadPool`](crate::schedulers::ThreadPool) | a fixed set of threads, workers spread round-robin | many producers on a few threads (a pool you size) | threads made once; an allocation per task |
//! | [`Computational`](crate::schedulers::Computational) | a process-wide pool, one thread per core | CPU-bound work, without managing a pool | as `ThreadPool` |
//! | [`RunLoop`](crate::schedulers::RunLoop) | whichever thread calls [`dispatch`](crate::schedulers::RunLoop::dispatch) | bringing results back to one thread: a main loop of the program's own | an allocation per task; `dispatch` waits without spinning |
//! | [`EventLoop`](crate::schedulers::EventLoop) | the thread that owns it, when its loop calls [`dispatch_ready`](crate::schedulers::EventLoop::dispatch_ready) | a native GUI's event loop (winit, glib, egui): observers may hold `Rc`s ([guide](super::threads#inside-a-guis-event-loop)) | as `RunLoop`; the loop sleeps until [`next_due`](crate::schedulers::EventLoop::next_due), and other threads wake it through a callback |
//! | [`TestScheduler`](crate::schedulers::TestScheduler) | the thread advancing virtual time | tests: time passes only when the test says so | nothing waits; an allocation per task |
//! | `Tokio` (feature `tokio`) | a task spawned on a tokio runtime per worker | pipelines inside a tokio program, futures that need tokio's reactor | a tokio task per worker; tokio's timer for delays |
//!
//! A worker runs its tasks one at a time, in due order, so everything one operator schedules
//! on its worker is serialised. Periodic work computes each due time from the previous one, so
//! an `interval` does not drift.
//!
//! ## Moving work: `subscribe_on` and `observe_on`
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::{NewThread, RunLoop};
//! use std::sync::mpsc;
//!
//! let main_thread = std::thread::current().id();
//! let run_loop = RunLoop::new();
//! let (done, finished) = mpsc::channel();
//!
//! let _subscription = rx::source::from_iter(1..=3)
//!     // The source and `map` run on a thread of their own ...
//!     .map(move |v| (v, std::thread::current().id() != main_thread))
//!     .subscribe_on(NewThread)
//!     // ... and the observer is called wherever `run_loop.dispatch()` is called.
//!     .observe_on(run_loop.clone())
//!     .subscribe_with(
//!         move |(v, produced_elsewhere)| {
//!             assert!(produced_elsewhere);
//!             assert_eq!(std::thread::current().id(), main_thread);
//!             println!("{v}");
//!         },
//!         |error| panic!("{error}"),
//!         move || done.send(()).unwrap(),
//!     );
//!
//! while finished.try_recv().is_err() {
//!     run_loop.dispatch(); // runs the next delivery here, waiting for it if need be
//! }
//! ```
//!
//! ## Time
//!
//! A time operator schedules on the scheduler it is given. On a real scheduler that is the
//! wall clock; on [`TestScheduler`](crate::schedulers::TestScheduler) it is virtual time, so
//! the same pipeline is tested in no time at all (see [testing](super::testing)).
//!
//! ```
//! use rx::prelude::*;
//! use rx::schedulers::NewThread;
//! use std::time::{Duration, Instant};
//!
//! let start = Instant::now();
//! let values: Vec<_> = rx::source::from_iter([1, 2, 3])
//!     .delay(Duration::from_millis(20), NewThread)
//!     .as_blocking()
//!     .into_iter()
//!     .collect::<Result<_, _>>()
//!     .unwrap();
//! assert_eq!(values, [1, 2, 3]);
//! assert!(start.elapsed() >= Duration::from_millis(20));
//! ```
//!
//! `Immediate` runs a delayed task by sleeping the caller, and loops a repeating task on the
//! spot until it is done. So the time operators whose periodic task would then never let
//! `subscribe` return (`sample`, `buffer_with_time`, `window_with_time`, `timeout`), and
//! `debounce`, whose timer would sleep inside `on_next` and let every value through, require
//! a [`DeferringScheduler`](crate::schedulers::DeferringScheduler): given `Immediate` they do
//! not compile. Use a thread scheduler or a run loop for periodic work.
//!
//! ## In a browser
//!
//! A wasm32 page has one thread and must never block, so the schedulers that sleep or start
//! threads are not compiled there. The browser's event loop schedules instead, through the
//! `web` feature's `rx::schedulers::web`: `SetTimeout` (`setTimeout`, RxJS's `asyncScheduler`),
//! `Microtask` (`queueMicrotask`, RxJS's `asapScheduler`) and `AnimationFrame`
//! (`requestAnimationFrame`). Time is [`rx::time::Instant`](crate::time::Instant), which is
//! `performance.now()` there and `std::time::Instant` everywhere else, so the time operators
//! and the [`TestScheduler`](crate::schedulers::TestScheduler) work unchanged. Tasks, and
//! the observers of `interval` and `timer`, may hold `Rc`s and DOM objects; the operators that
//! keep their observer in thread-safe state (`debounce`, `delay`, `timeout`, ...) take one
//! wrapped in `rx::schedulers::web::OnPage`. DOM events are a source, `from_event(&target,
//! "input")`, and so are animation frames, `animation_frames()`.
//!
//! Next: [errors and panics](super::errors).
