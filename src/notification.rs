//! [`Notification`]: one event of an observable, as a value.

use crate::Error;
use crate::observer::Observer;

/// One event of an observable: a value, an error or completion.
///
/// What [`materialize`](crate::ObservableExt::materialize) emits and what the
/// [`TestObserver`](crate::testing::TestObserver) records.
#[derive(Clone, Debug, PartialEq)]
pub enum Notification<T> {
    /// A value (`on_next`).
    Next(T),
    /// Termination with an error (`on_error`).
    Error(Error),
    /// Normal termination (`on_completed`).
    Completed,
}

impl<T> Notification<T> {
    /// Whether this is `Error` or `Completed`.
    pub fn is_terminal(&self) -> bool {
        !matches!(self, Notification::Next(_))
    }

    /// Delivers this notification to `observer`. A value leaves the observer with the caller;
    /// a terminal notification consumes it, so the result is `Some(observer)` only after a
    /// value.
    pub fn deliver<O: Observer<T>>(self, mut observer: O) -> Option<O> {
        match self {
            Notification::Next(value) => {
                observer.on_next(value);
                Some(observer)
            }
            Notification::Error(error) => {
                observer.on_error(error);
                None
            }
            Notification::Completed => {
                observer.on_completed();
                None
            }
        }
    }
}
