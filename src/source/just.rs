//! [`just`]: one value, then completion.

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::Finished;

/// An observable that emits `value` and completes.
///
/// ```text
/// just(1): (1|)
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::just(42).subscribe_observer(observer.clone());
/// observer.assert_values(&[42]);
/// observer.assert_completed();
/// ```
#[doc(alias = "return")]
#[doc(alias = "of")]
pub fn just<T>(value: T) -> Just<T> {
    Just { value }
}

/// Emits one value and completes; built by [`just`].
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Just<T> {
    value: T,
}

impl<T> Observable for Just<T> {
    type Item = T;
    type Flavour = crate::sync::Shared;
    // Emits only inside `subscribe`, on the calling thread, and keeps no observer.
    const EMISSION: crate::observable::Emission = crate::observable::Emission::INSIDE_SUBSCRIBE;
}

impl<T, O: Observer<T>> Subscribe<O> for Just<T> {
    type Subscription = Finished;

    #[inline]
    fn subscribe_observer(self, mut observer: O) -> Finished {
        if !observer.is_disposed() {
            observer.on_next(self.value);
            if !observer.is_disposed() {
                observer.on_completed();
            }
        }
        Finished
    }
}

#[cfg(test)]
mod tests {
    use super::just;
    use crate::prelude::*;
    use crate::testing::TestObserver;

    #[test]
    fn emits_once_and_completes() {
        let o = TestObserver::new();
        just("a").subscribe_observer(o.clone());
        o.assert_values(&["a"]);
        o.assert_completed();
    }

    #[test]
    fn disposed_observer_gets_nothing() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        just(1).subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }
}
