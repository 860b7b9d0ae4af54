//! Bridges between observables and Rust's async world: futures, streams and tokio.
//!
//! | from | to | with | feature |
//! |---|---|---|---|
//! | a `Future` | an observable | [`source::from_future`], [`source::from_future_result`] | — |
//! | a `Stream` | an observable | `source::from_stream` | `stream` |
//! | an observable | a `Future` of its first or last value | [`first_value`], [`last_value`] | — |
//! | an observable | a `Stream` of its values | `into_stream`, `into_stream_bounded` | `stream` |
//! | a tokio runtime | a [`Scheduler`] | `schedulers::Tokio` | `tokio` |
//!
//! # Futures and streams into observables
//!
//! A future or a stream needs an executor, and here the executor is an rx [`Scheduler`]:
//! `from_future(future, scheduler)` polls the future in tasks on a worker of `scheduler`,
//! scheduling a poll each time the future's waker is woken. Any scheduler works:
//! [`TestScheduler`](crate::schedulers::TestScheduler) for tests in virtual time,
//! [`NewThread`](crate::schedulers::NewThread), or `Tokio` for futures that need tokio's
//! reactor. Disposing the subscription drops the future or the stream.
//!
//! # Observables into futures and streams
//!
//! Rx has no backpressure: an observable pushes values when it has them, and a consumer that
//! awaits them must keep them somewhere until it asks. So:
//!
//! - [`first_value`] and [`last_value`] hold one value, and need no buffer.
//! - `into_stream` buffers the values the consumer has not taken yet, **without bound**. A
//!   synchronous source (`from_iter`, say) runs to its end, queued whole, when the stream is
//!   created; an endless synchronous source never lets it return.
//! - `into_stream_bounded(bound)` buffers at most `bound.capacity()` values, and the bound's
//!   [`Overflow`](crate::backpressure::Overflow) strategy says what a value arriving while
//!   the buffer is full does: block the producer until the consumer polls (refused with
//!   `WouldDeadlock` where the producer runs on the consumer's thread), drop the newest,
//!   drop the oldest, keep the latest, or end the stream, after the values buffered, with a
//!   `BufferOverflow` error (RxJava's `MissingBackpressureException`) that stops the source.
//!   The vocabulary is [`observe_on_bounded`](crate::ObservableExt::observe_on_bounded)'s:
//!   see [`backpressure`](crate::backpressure).
//!
//! These subscribe when they are created, not when first polled, so values emitted in
//! between (by a subject, say) are kept; dropping the future or the stream disposes the
//! subscription. Errors stay visible: the futures resolve to `Result<T, rx::Error>`, and the
//! stream yields `Result<T, rx::Error>` items, ending after an `Err`.
//!
//! [`source::from_future`]: crate::source::from_future
//! [`source::from_future_result`]: crate::source::from_future_result
//! [`first_value`]: crate::ObservableExt::first_value
//! [`last_value`]: crate::ObservableExt::last_value
//! [`Scheduler`]: crate::schedulers::Scheduler
//!
//! # Examples
//!
//! ```
//! use futures::executor::block_on;
//! use rx::prelude::*;
//! use rx::schedulers::Immediate;
//!
//! let doubled = rx::source::from_future(async { 21 }, Immediate).map(|v| v * 2);
//! assert_eq!(block_on(doubled.first_value()), Ok(42));
//!
//! let error = block_on(rx::source::empty::<i32>().last_value()).unwrap_err();
//! assert!(error.is::<rx::operators::NoElements>());
//! ```

pub(crate) mod driver;
mod first_value;
pub(crate) mod from_future;
#[cfg(feature = "stream")]
pub(crate) mod from_stream;
#[cfg(feature = "stream")]
mod into_stream;
mod last_value;
#[cfg(feature = "tokio")]
pub(crate) mod tokio;
mod value_future;

/// Also at [`rx::backpressure::BufferOverflow`](crate::backpressure::BufferOverflow).
#[doc(no_inline)]
pub use crate::backpressure::BufferOverflow;
pub use first_value::{FirstValue, FirstValueObserver};
#[cfg(feature = "stream")]
#[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
pub use into_stream::{IntoStream, StreamObserver};
pub use last_value::{LastValue, LastValueObserver};
