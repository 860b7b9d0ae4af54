//! [`from_fn`]: the result of a closure, computed at subscribe time.

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::Finished;
use std::fmt;

/// An observable that calls `f` when it is subscribed, emits its result and completes.
///
/// Unlike [`just`](crate::source::just()), the value is computed on each subscription, and not
/// at all if the downstream is already disposed (RxJava's `fromCallable`). Unlike
/// `std::iter::from_fn`, the closure is called once per subscription, not once per value.
///
/// ```text
/// from_fn(|| 7): (7|)
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::from_fn(|| 6 * 7).subscribe_observer(observer.clone());
/// observer.assert_values(&[42]);
/// observer.assert_completed();
/// ```
///
/// # Performance
///
/// No allocation, no lock: as cheap as calling `f` and handing over its result.
#[doc(alias = "from_callable")]
#[doc(alias = "fromCallable")]
#[doc(alias = "from_supplier")]
#[doc(alias = "start")]
pub fn from_fn<T, F>(f: F) -> FromFn<F>
where
    F: FnOnce() -> T,
{
    FromFn { f }
}

/// Emits the result of a closure; built by [`from_fn`].
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
pub struct FromFn<F> {
    f: F,
}

impl<F> fmt::Debug for FromFn<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FromFn")
    }
}

impl<T, F> Observable for FromFn<F>
where
    F: FnOnce() -> T,
{
    type Item = T;
    type Flavour = crate::sync::Shared;
    // Emits only inside `subscribe`, on the calling thread, and keeps no observer.
    const EMISSION: crate::observable::Emission = crate::observable::Emission::INSIDE_SUBSCRIBE;
}

impl<T, F, O> Subscribe<O> for FromFn<F>
where
    F: FnOnce() -> T,
    O: Observer<T>,
{
    type Subscription = Finished;

    #[inline]
    fn subscribe_observer(self, mut observer: O) -> Finished {
        if observer.is_disposed() {
            return Finished;
        }
        let value = (self.f)();
        if !observer.is_disposed() {
            observer.on_next(value);
            if !observer.is_disposed() {
                observer.on_completed();
            }
        }
        Finished
    }
}

#[cfg(test)]
mod tests {
    use super::from_fn;
    use crate::notification::Notification;
    use crate::prelude::*;
    use crate::testing::TestObserver;
    use std::cell::Cell;

    #[test]
    fn emits_the_result_then_completes() {
        let o = TestObserver::new();
        from_fn(|| "done").subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next("done"), Notification::Completed]);
    }

    #[test]
    fn runs_at_each_subscription_not_before() {
        let calls = Cell::new(0);
        let source = from_fn(|| {
            calls.set(calls.get() + 1);
            calls.get()
        });
        assert_eq!(calls.get(), 0);
        let o = TestObserver::new();
        source.clone().subscribe_observer(o.clone());
        source.subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
    }

    #[test]
    fn disposed_downstream_skips_the_call() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        let mut called = false;
        from_fn(|| {
            called = true;
            1
        })
        .subscribe_observer(o.clone());
        assert!(!called);
        o.assert_notifications(&[]);
    }

    #[test]
    fn disposal_during_the_call_drops_the_value() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_fn(|| {
            probe.dispose();
            1
        })
        .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }

    #[test]
    fn disposal_after_the_value_skips_completion() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_fn(|| 1)
            .map(|v| {
                probe.dispose();
                v
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(1)]);
    }
}
