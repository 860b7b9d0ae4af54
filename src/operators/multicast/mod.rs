//! The multicast family: one subscription to a source shared by many observers.
//!
//! - [`connectable`]: `publish`, `replay` and `multicast`, a source shared through a subject
//!   and subscribed when [`connect`](ConnectableObservable::connect) is called.
//! - [`ref_count`]: `ref_count` and `share`, which connect with the first observer and
//!   disconnect after the last.
//! - [`auto_connect`]: `auto_connect`, which connects once enough observers have come.
//! - [`share_with`]: `share_with`, `share` with a choice of subject and of what resets it.

mod auto_connect;
mod connectable;
mod ref_count;
mod share_with;

pub use auto_connect::AutoConnect;
pub use connectable::ConnectionObserver;
pub use connectable::{ConnectableObservable, Connection};
pub use ref_count::RefCount;
pub use share_with::ShareConfig;
