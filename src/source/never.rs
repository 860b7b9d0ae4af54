//! [`never()`]: no value and no end.

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::Finished;
use std::fmt;
use std::marker::PhantomData;

/// An observable that emits nothing and never terminates.
///
/// Useful in tests, and as the "no signal" argument of operators that take an observable
/// (a `take_until` that never fires, a `timeout` fallback that never arrives).
///
/// The observer is dropped at once, since nothing will ever be delivered to it, and the
/// handle is [`Finished`]: there is nothing running that could be cancelled, so its
/// [`is_disposed`](crate::Subscription::is_disposed) is `true` from the start, which is what
/// that method promises ("can deliver nothing more").
///
/// ```text
/// never(): ----------
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::<i32>::new();
/// let handle = rx::source::never().subscribe_observer(observer.clone());
/// observer.assert_values(&[]);
/// observer.assert_not_terminated();
/// assert!(handle.is_disposed());
/// ```
///
/// # Performance
///
/// Nothing: no allocation, no lock, no work.
pub fn never<T>() -> Never<T> {
    Never { _item: PhantomData }
}

/// Emits nothing and never terminates; built by [`never()`].
#[must_use = "observables do nothing unless subscribed"]
pub struct Never<T> {
    _item: PhantomData<fn() -> T>,
}

impl<T> Clone for Never<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Never<T> {}

impl<T> fmt::Debug for Never<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Never")
    }
}

impl<T> Observable for Never<T> {
    type Item = T;
}

impl<T, O: Observer<T>> Subscribe<O> for Never<T> {
    type Subscription = Finished;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Finished {
        drop(observer);
        Finished
    }
}

#[cfg(test)]
mod tests {
    use super::never;
    use crate::prelude::*;
    use crate::testing::TestObserver;
    use std::sync::Arc;

    #[test]
    fn emits_nothing_and_does_not_terminate() {
        let o = TestObserver::<u8>::new();
        let handle = never().subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert!(handle.is_disposed());
        assert_eq!(std::mem::size_of_val(&handle), 0);
    }

    #[test]
    fn releases_the_observer_at_once() {
        let marker = Arc::new(());
        let held = marker.clone();
        never().subscribe(move |_: u8| {
            let _ = &held;
        });
        assert_eq!(Arc::strong_count(&marker), 1);
    }

    #[test]
    fn disposed_observer_gets_nothing() {
        let o = TestObserver::<u8>::new();
        o.dispose();
        never().subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }
}
