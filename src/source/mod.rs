//! Sources: the observables a pipeline starts from.
//!
//! Every source is a plain value; nothing runs until it is subscribed. Sources are `Clone`
//! when what they hold is, so operators such as `retry` and `repeat` can subscribe again.

mod amb;
mod combine_latest;
mod combine_latest_all;
mod concat;
mod create;
mod defer;
mod empty;
mod fork_join;
mod fork_join_all;
mod from_fn;
mod from_iter;
mod generate;
mod iif;
mod interval;
mod just;
mod merge;
// Producers that block or share a queue across threads: not in a browser's one thread.
#[cfg(any(not(target_arch = "wasm32"), doc))]
mod merge_bounded;
mod never;
mod range;
mod throw;
mod timer;
mod timer_at;
mod using;
#[cfg(all(target_arch = "wasm32", feature = "web"))]
mod web;
mod zip;
mod zip_all;

pub use crate::interop::driver::PollSubscription;
pub use crate::interop::from_future::{
    FromFuture, FromFutureResult, from_future, from_future_result,
};
#[cfg(feature = "stream")]
pub use crate::interop::from_stream::{FromStream, from_stream};
pub use amb::{Amb, amb};
pub use combine_latest::combine_latest;
pub use combine_latest_all::combine_latest_all;
pub use concat::{Concat, ConcatObserver, ConcatSubscription, concat};
pub use create::{Create, CreateOwned, Emitter, OwnedEmitter, create, create_owned};
pub use defer::{Defer, defer};
pub use empty::{Empty, empty};
pub use fork_join::fork_join;
pub use fork_join_all::fork_join_all;
pub use from_fn::{FromFn, from_fn};
pub use from_iter::{FromIter, from_iter};
pub use generate::{Generate, generate};
pub use iif::{Iif, iif};
pub use interval::{Interval, interval, interval_after};
pub use just::{Just, just};
pub use merge::{Merge, merge};
#[cfg(any(not(target_arch = "wasm32"), doc))]
#[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
pub use merge_bounded::{
    MergeBounded, MergeBoundedObserver, MergeBoundedSubscription, merge_bounded,
};
pub use never::{Never, NeverSubscription, never};
pub use range::{Range, RangeInteger, range};
pub use throw::{Throw, throw};
pub use timer::{Timer, timer};
pub use timer_at::{TimerAt, timer_at};
pub use using::{Release, Using, using};
#[cfg(all(target_arch = "wasm32", feature = "web"))]
#[cfg_attr(docsrs, doc(cfg(all(target_arch = "wasm32", feature = "web"))))]
pub use web::{
    AnimationFrames, EventSubscription, FramesSubscription, FromEvent, animation_frames, from_event,
};
pub use zip::zip;
pub use zip_all::zip_all;
