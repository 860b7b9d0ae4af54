//! What the marble tests share.

use super::Marbles;
use crate::Error;
use crate::notification::Notification;
use crate::schedulers::TestScheduler;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

pub(super) fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

pub(super) fn marbles() -> Marbles {
    Marbles::new(&TestScheduler::new())
}

pub(super) fn err() -> Notification<char> {
    Notification::Error(Error::msg("error"))
}

/// The message of the panic `f` raises.
pub(super) fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    match payload.downcast::<String>() {
        Ok(s) => *s,
        Err(payload) => payload
            .downcast_ref::<&str>()
            .expect("a text panic")
            .to_string(),
    }
}
