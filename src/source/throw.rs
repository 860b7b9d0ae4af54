//! [`throw`]: an error and nothing else.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::Finished;
use std::fmt;
use std::marker::PhantomData;

/// An observable of `T` that emits nothing and terminates at once with `error`.
///
/// ```text
/// throw(e): #
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::throw::<i32>(rx::Error::msg("no luck")).subscribe_observer(observer.clone());
/// observer.assert_values(&[]);
/// observer.assert_error("no luck");
/// ```
#[doc(alias = "error")]
#[doc(alias = "throwError")]
pub fn throw<T>(error: impl Into<Error>) -> Throw<T> {
    Throw {
        error: error.into(),
        _item: PhantomData,
    }
}

/// Terminates at once with an error; built by [`throw`].
#[must_use = "observables do nothing unless subscribed"]
pub struct Throw<T> {
    error: Error,
    _item: PhantomData<fn() -> T>,
}

impl<T> Clone for Throw<T> {
    fn clone(&self) -> Self {
        Throw {
            error: self.error.clone(),
            _item: PhantomData,
        }
    }
}

impl<T> fmt::Debug for Throw<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Throw").field(&self.error).finish()
    }
}

impl<T> Observable for Throw<T> {
    type Item = T;
    type Flavour = crate::sync::Shared;
    // Emits only inside `subscribe`, on the calling thread, and keeps no observer.
    const EMISSION: crate::observable::Emission = crate::observable::Emission::INSIDE_SUBSCRIBE;
}

impl<T, O: Observer<T>> Subscribe<O> for Throw<T> {
    type Subscription = Finished;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Finished {
        if !observer.is_disposed() {
            observer.on_error(self.error);
        }
        Finished
    }
}
