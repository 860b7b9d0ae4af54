//! Sources: the observables a pipeline starts from.
//!
//! Every source is a plain value; nothing runs until it is subscribed. Sources are `Clone`
//! when what they hold is, so operators such as `retry` and `repeat` can subscribe again.

mod concat;
mod create;
mod defer;
mod empty;
mod from_fn;
mod from_iter;
mod interval;
mod just;
mod never;
mod range;
mod throw;
mod timer;

pub use concat::{concat, Concat, ConcatObserver, ConcatSubscription};
pub use create::{create, create_owned, Create, CreateOwned, Emitter, OwnedEmitter};
pub use defer::{defer, Defer};
pub use empty::{empty, Empty};
pub use from_fn::{from_fn, FromFn};
pub use from_iter::{from_iter, FromIter};
pub use interval::{interval, Interval};
pub use just::{just, Just};
pub use never::{never, Never};
pub use range::{range, Range, RangeInteger};
pub use throw::{throw, Throw};
pub use timer::{timer, Timer};
