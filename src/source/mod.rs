//! Sources: the observables a pipeline starts from.
//!
//! Every source is a plain value; nothing runs until it is subscribed. Sources are `Clone`
//! when what they hold is, so operators such as `retry` and `repeat` can subscribe again.

mod amb;
mod combine_latest;
mod concat;
mod create;
mod defer;
mod empty;
mod from_fn;
mod from_iter;
mod interval;
mod just;
mod merge;
mod never;
mod range;
mod throw;
mod timer;
mod zip;

pub use crate::interop::driver::PollSubscription;
pub use crate::interop::from_future::{
    FromFuture, FromFutureResult, from_future, from_future_result,
};
#[cfg(feature = "stream")]
pub use crate::interop::from_stream::{FromStream, from_stream};
pub use amb::{amb, Amb};
pub use combine_latest::combine_latest;
pub use concat::{concat, Concat, ConcatObserver, ConcatSubscription};
pub use create::{create, create_owned, Create, CreateOwned, Emitter, OwnedEmitter};
pub use defer::{defer, Defer};
pub use empty::{empty, Empty};
pub use from_fn::{from_fn, FromFn};
pub use from_iter::{from_iter, FromIter};
pub use interval::{Interval, interval};
pub use just::{just, Just};
pub use merge::{merge, Merge};
pub use never::{never, Never};
pub use range::{range, Range, RangeInteger};
pub use throw::{throw, Throw};
pub use timer::{Timer, timer};
pub use zip::zip;
