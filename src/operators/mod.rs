//! The operator types. Each is built by a method of [`ObservableExt`](crate::ObservableExt),
//! whose documentation describes it; this module holds the structs and their observers.

mod boxed;
mod filter;
mod map;

pub use boxed::{BoxedObservable, BoxedObserver, LocalBoxedObservable, LocalBoxedObserver};
pub use filter::{Filter, FilterObserver};
pub use map::{Map, MapObserver};
