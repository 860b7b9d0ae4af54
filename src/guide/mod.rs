//! The guide: how rx works and how to use it, a chapter a page.
//!
//! Read it in order the first time; each chapter stands on its own later. Every example is a
//! doctest that runs and asserts. This module holds documentation only.
//!
//! 1. [Concepts](concepts): observable, observer, subscription; cold and hot.
//! 2. [Returning and accepting observables](returning_observables): observables in function
//!    signatures.
//! 3. [Choosing a scheduler](schedulers): where work runs, when to use which, what it costs.
//! 4. [Errors and panics](errors): `rx::Error`, handling and recovering, and what a panic does.
//! 5. [Threads, `Send`, and single-threaded pipelines](threads).
//! 6. [Subjects and multicasting](subjects): pushing values by hand, sharing one subscription.
//! 7. [Testing](testing): `TestObserver`, `TestScheduler` and marble diagrams.
//! 8. [Async interop](async_interop): futures, streams and tokio.
//! 9. [The performance model](performance): what allocates, what locks, what is free.
//! 10. [Coming from RxJS, RxJava and RPP](coming_from): the names, and every semantic
//!     difference.
//!
//! The programs in `examples/` put these together: `cargo run --release --example
//! quickstart` for a tour, then `sensors`, `ui_counter`, `search_as_you_type`, `tokio_ticker`
//! and `chat_server`.

pub mod async_interop;
pub mod coming_from;
pub mod concepts;
pub mod errors;
pub mod performance;
pub mod returning_observables;
pub mod schedulers;
pub mod subjects;
pub mod testing;
pub mod threads;
