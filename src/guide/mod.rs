//! The guide: how rx works and how to use it, a chapter a page.
//!
//! Read it in order the first time; each chapter stands on its own later. Every example is a
//! doctest that runs and asserts. This module holds documentation only.
//!
//! 1. [Concepts](concepts): observable, observer, subscription; cold and hot.
//! 2. [Returning and accepting observables](returning_observables): observables in function
//!    signatures; taking any observable in one bound (`SubscribeOwned<T>`); storing one to
//!    subscribe it several times.
//! 3. [Choosing a scheduler](schedulers): where work runs, when to use which, what it costs.
//! 4. [Errors and panics](errors): `rx::Error`, handling and recovering, and what a panic does.
//! 5. [Threads, `Send`, and single-threaded pipelines](threads).
//! 6. [Subjects and multicasting](subjects): pushing values by hand, sharing one subscription.
//! 7. [Testing](testing): `TestObserver`, `TestScheduler` and marble diagrams.
//! 8. [Async interop](async_interop): futures, streams and tokio.
//! 9. [Debugging a pipeline](debugging): `spy`, recording an incident as a marble diagram,
//!    and marble tests over async code.
//! 10. [The performance model](performance): what allocates, what locks, what is free.
//! 11. [Coming from RxJS, RxJava and RPP](coming_from): the names, and every semantic
//!     difference.
//!
//! The programs in `examples/` put these together: `cargo run --release --example
//! quickstart` for a tour, then `sensors`, `ui_counter`, `search_as_you_type`, `tokio_ticker`
//! and `chat_server`.
//!
//! The question met first, a function that returns an observable, has a short answer (the
//! whole of it in [chapter 2](returning_observables)): name the observer as a parameter and
//! return `impl Subscribe<O, Item = T>`, or return `.boxed()`. A function that takes any
//! observable of `T` and subscribes it bounds it by `SubscribeOwned<T>`.
//!
//! ```
//! use rx::BoxedObservable;
//! use rx::prelude::*;
//! use rx::testing::TestObserver;
//!
//! fn evens<O: Observer<u32>>(limit: usize) -> impl Subscribe<O, Item = u32> {
//!     rx::source::range(0u32, limit).filter(|v| v % 2 == 0)
//! }
//!
//! fn odds(limit: usize) -> BoxedObservable<'static, u32> {
//!     rx::source::range(0u32, limit).filter(|v| v % 2 == 1).boxed()
//! }
//!
//! let (tens, odd) = (TestObserver::new(), TestObserver::new());
//! evens(6).map(|v| v * 10).subscribe_observer(tens.clone());
//! odds(6).subscribe_observer(odd.clone());
//! tens.assert_values(&[0, 20, 40]);
//! odd.assert_values(&[1, 3, 5]);
//! ```

pub mod async_interop;
pub mod coming_from;
pub mod concepts;
pub mod debugging;
pub mod errors;
pub mod performance;
pub mod returning_observables;
pub mod schedulers;
pub mod subjects;
pub mod testing;
pub mod threads;
