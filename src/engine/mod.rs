//! The shared machinery several operators are built on; each operator stays a short file in
//! [`operators`](crate::operators) and names the engine it runs on. An engine imports the
//! core, the flavours and other engines, never an operator (`.ci/layers` checks it).
//!
//! - [`flatten`]: the flattening engine, `FlatMap` in a [`Mode`](flatten::Mode): `flat_map`,
//!   `merge`, `concat`, `switch_map`, `exhaust_map` and the rest of the higher-order family.
//! - [`projection`]: how the flattening operators map a value to an inner observable, and
//!   what the engines keep of the projection.
//! - [`merge_core`]: the serialising core of the merge family (`merge_with`, `merge`,
//!   `flat_map`, `switch_map`, `take_until`, `amb`, ...): one downstream, many upstreams on
//!   any threads, one terminal event, and the kept upstream handles.
//! - [`kept`]: the upstream handles the merge core keeps, the first two in place.
//! - [`inline_merge`]: the same family without the core, for sources whose type says they
//!   finish inside `subscribe`: state on the stack, no allocation, no atomic.
//! - [`drain`]: delivery to one observer from an upstream and a timer on different threads,
//!   the emitter loop the time operators share (`observe_on`, `delay`, `debounce`,
//!   `sample`, ...).
//! - [`resubscribe`]: the resubscription loop of `retry`, `repeat`, their `_when` forms and
//!   `retry_with_backoff`, trampolined so a synchronous source that fails at once does not
//!   grow the stack.
//! - [`combine_core`]: the engine of `zip`, `combine_latest`, `with_latest_from`, `fork_join`
//!   and their `Vec` forms: one slot per source, a row delivered when the operator's rule
//!   says so.
//! - [`combine_slots`]: the per-source slots, buffers and tuple plumbing `combine_core` runs on.
//! - [`inside`]: how an observer tells it is called from inside the `subscribe` its
//!   operator runs, on its thread, so an engine can take a path without atomics.
//! - [`serial`]: the serial subscription of `switch_if_empty` and `on_error_resume_next`: the
//!   source's handle, then that of the observable subscribed when the source ends.
//! - [`split_core`]: the engine of `group_by` and `window`: one upstream split into inner
//!   observables, each with its own subscriber.
//! - [`held_observer`]: the subscriber of a group or a window, kept in place when small.
//! - [`split_refs`]: the reference count that keeps a split upstream alive while the outer
//!   observer or any inner still wants it.

pub(crate) mod combine_core;
pub(crate) mod combine_slots;
pub(crate) mod drain;
pub(crate) mod ending;
pub(crate) mod flatten;
pub(crate) mod held_observer;
pub(crate) mod inline_merge;
pub(crate) mod inside;
pub(crate) mod kept;
pub(crate) mod merge_core;
pub(crate) mod projection;
pub(crate) mod resubscribe;
pub(crate) mod serial;
pub(crate) mod split_core;
pub(crate) mod split_refs;
