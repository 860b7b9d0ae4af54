//! # Async interop: futures, streams and tokio
//!
//! Observables push; futures and streams are polled. [`rx::interop`](crate::interop) bridges
//! the two ways, and the [module documentation](crate::interop) says what each bridge
//! buffers.
//!
//! | from | to | with | feature |
//! |---|---|---|---|
//! | a `Future` | an observable | [`from_future`](crate::source::from_future), [`from_future_result`](crate::source::from_future_result) | — |
//! | an observable | a `Future` of its first or last value | [`first_value`](crate::ObservableExt::first_value), [`last_value`](crate::ObservableExt::last_value) | — |
//! | a `Stream` | an observable | `source::from_stream` | `stream` |
//! | an observable | a `Stream` | `into_stream`, `into_stream_bounded` | `stream` |
//! | a tokio runtime | a scheduler | `schedulers::Tokio` | `tokio` |
//!
//! ## Futures into observables, and back
//!
//! A future needs an executor; here it is an rx scheduler, which polls the future in its tasks
//! and again each time the future's waker is woken. Any scheduler will do: `Immediate` for a
//! future that is ready, a thread scheduler, `TestScheduler` in tests, `Tokio` for futures
//! that need tokio's reactor. Disposing the subscription drops the future.
//!
//! Going the other way, `first_value()` and `last_value()` are futures of
//! `Result<T, rx::Error>` (RxJS's `firstValueFrom` and `lastValueFrom`); they subscribe when
//! called, and dropping them disposes the subscription.
//!
//! ```
//! use futures::executor::block_on;
//! use rx::operators::NoElements;
//! use rx::prelude::*;
//! use rx::schedulers::NewThread;
//!
//! let answer = async { 6 * 7 };
//! let observable = rx::source::from_future(answer, NewThread).map(|v| v + 1);
//! assert_eq!(block_on(observable.last_value()), Ok(43));
//!
//! let failing = rx::source::from_future_result(async { "x".parse::<u8>() }, NewThread);
//! let error = block_on(failing.first_value()).unwrap_err();
//! assert_eq!(error.to_string(), "invalid digit found in string");
//!
//! let nothing = block_on(rx::source::empty::<u8>().first_value());
//! assert!(nothing.unwrap_err().is::<NoElements>());
//! ```
//!
//! ## Streams (feature `stream`)
//!
//! `into_stream()` turns an observable into a `futures_core::Stream` of `Result<T,
//! rx::Error>`. Rx has no backpressure, so the stream buffers what the consumer has not taken
//! yet, without bound; `into_stream_bounded(Bounded::new(n))` holds at most `n`, and its
//! [`Overflow`](crate::backpressure::Overflow) strategy blocks the producer, drops values,
//! or ends the stream with a `BufferOverflow` error. `from_stream(stream, scheduler)` polls a stream on a scheduler, as
//! `from_future` polls a future.
//!
#![cfg_attr(feature = "stream", doc = "```")]
#![cfg_attr(not(feature = "stream"), doc = "```ignore")]
//! use futures::executor::block_on;
//! use futures::StreamExt;
//! use rx::prelude::*;
//! use rx::schedulers::NewThread;
//!
//! let values = futures::stream::iter(1..=5);
//! let evens = rx::source::from_stream(values, NewThread).filter(|v| v % 2 == 0);
//! let collected: Vec<_> = block_on(evens.into_stream().collect());
//! assert_eq!(collected, [Ok(2), Ok(4)]);
//! ```
//!
//! ## Tokio (feature `tokio`)
//!
//! `schedulers::Tokio` runs rx tasks on a tokio runtime: each worker is a tokio task, timers
//! are tokio's, and futures polled on it may use tokio's I/O. Under a runtime with paused
//! time (tokio's `test-util`), rx's time operators run in tokio's virtual time. The
//! `tokio_ticker` and `chat_server` examples are whole programs built this way.
//!
#![cfg_attr(feature = "tokio", doc = "```")]
#![cfg_attr(not(feature = "tokio"), doc = "```ignore")]
//! use rx::prelude::*;
//! use rx::schedulers::Tokio;
//! use std::time::Duration;
//!
//! let runtime = tokio::runtime::Builder::new_current_thread()
//!     .enable_time()
//!     .start_paused(true)
//!     .build()
//!     .unwrap();
//! runtime.block_on(async {
//!     let tokio = Tokio::current();
//!     let started = tokio::time::Instant::now();
//!     let debounced = rx::source::interval(Duration::from_millis(10), tokio.clone())
//!         .take(5)
//!         .debounce(Duration::from_millis(50), tokio)
//!         .to_vec()
//!         .last_value()
//!         .await;
//!     assert_eq!(debounced, Ok(vec![4])); // the completion flushed the last tick
//!     assert_eq!(started.elapsed(), Duration::from_millis(50)); // virtual time
//! });
//! ```
//!
//! Next: [debugging a pipeline](super::debugging).
