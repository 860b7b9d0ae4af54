//! Sources: the observables a pipeline starts from.
//!
//! Every source is a plain value; nothing runs until it is subscribed. Sources are `Clone`
//! when what they hold is, so operators such as `retry` and `repeat` can subscribe again.

mod empty;
mod from_iter;
mod just;
mod throw;

pub use empty::{empty, Empty};
pub use from_iter::{from_iter, FromIter};
pub use just::{just, Just};
pub use throw::{throw, Throw};
