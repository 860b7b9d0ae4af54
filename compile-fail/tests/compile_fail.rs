//! The wording of the compiler errors for the most common mistakes, pinned: each says what to
//! do. The `.stderr` files are the expected messages; regenerate them with
//! `TRYBUILD=overwrite cargo test -p rx-compile-fail` after a deliberate change, and read
//! the diff.
//!
//! - `opaque_return`: a function returns `impl Observable`, and its result is subscribed.
//! - `wrong_item_closure`: a closure that takes another type than the item.
//! - `non_send_capture`: a closure capturing an `Rc` in a chain that crosses threads.
//! - `timeout_on_immediate`: a time operator given the `Immediate` scheduler.
//! - `local_subject_to_thread`: a local subject moved into a thread.
//! - `local_chain_to_thread`: the handle of a chain built on a local subject moved into a thread.
//! - `emission_override`: an observable outside the crate sets `Observable::EMISSION`.
//!
//! Generic code, taking or storing any observable:
//!
//! - `generic_observable_bound`: a function bounded by `Observable<Item = T>` subscribes its
//!   argument.
//! - `opaque_return_to_generic`: an `impl Observable` result given to a function bounded by
//!   `SubscribeOwned<T>`.
//! - `wrong_item_to_generic`: an observable of another item given to such a function.
//! - `rc_chain_to_generic`: a chain that captures an `Rc` and crosses threads, given to one.
//! - `rc_chain_subscribe_on`: a chain that captures an `Rc`, subscribed with `subscribe_on`.
//! - `boxed_not_clone`: `boxed()` on an observable that is not `Clone` (`boxed_once` is the fix).
//! - `rc_chain_boxed`: `boxed()` on a chain that captures an `Rc` (`boxed_local` is the fix).
//! - `generic_scheduler`: a time operator given a scheduler bounded by `Scheduler` alone.

#[test]
fn compile_fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile_fail/*.rs");
}
