//! [`empty`]: completion and nothing else.

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::Finished;
use std::fmt;
use std::marker::PhantomData;

/// An observable that emits nothing and completes at once.
///
/// ```text
/// empty(): |
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::empty::<i32>().subscribe_observer(observer.clone());
/// observer.assert_values(&[]);
/// observer.assert_completed();
/// ```
pub fn empty<T>() -> Empty<T> {
    Empty { _item: PhantomData }
}

/// Completes at once; built by [`empty`].
#[must_use = "observables do nothing unless subscribed"]
pub struct Empty<T> {
    _item: PhantomData<fn() -> T>,
}

impl<T> Clone for Empty<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Empty<T> {}

impl<T> fmt::Debug for Empty<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Empty")
    }
}

impl<T> Observable for Empty<T> {
    type Item = T;
    type Flavour = crate::sync::Shared;
    // Emits only inside `subscribe`, on the calling thread, and keeps no observer.
    const EMISSION: crate::observable::Emission = crate::observable::Emission::INSIDE_SUBSCRIBE;
}

impl<T, O: Observer<T>> Subscribe<O> for Empty<T> {
    type Subscription = Finished;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Finished {
        if !observer.is_disposed() {
            observer.on_completed();
        }
        Finished
    }
}
