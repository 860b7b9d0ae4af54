//! [`never()`]: no value and no end.

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Mutex;
use crate::subscription::Subscription;
use std::fmt;
use std::marker::PhantomData;

/// An observable that emits nothing and never terminates.
///
/// Useful in tests, and as the "no signal" argument of operators that take an observable
/// (a `take_until` that never fires, a `timeout` fallback that never arrives).
///
/// The observer is kept, inside the handle returned, until that handle is disposed or
/// dropped: an observer that is dropped tells its owner the sequence is over (a
/// [`first_value`](crate::ObservableExt::first_value) future would resolve to an error, a
/// [`blocking`](crate::ObservableExt::as_blocking) iterator would end), which is not what
/// "never" means. [`dispose`](crate::Subscription::dispose) releases the observer at once.
///
/// The handle's [`is_disposed`](crate::Subscription::is_disposed) is `true` from the start,
/// which is what that method promises ("can deliver nothing more"): nothing runs that could
/// be cancelled. So an operator that keeps only the handles of live sources (`merge_with`,
/// `zip`) drops it, and the observer with it, and no cycle keeps its shared state alive.
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
/// No allocation and no work: the handle is the observer beside an uncontended lock, which
/// `dispose` takes once.
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
    type Flavour = crate::sync::Shared;
}

impl<T, O: Observer<T>> Subscribe<O> for Never<T> {
    type Subscription = NeverSubscription<O>;

    #[inline]
    fn subscribe_observer(self, observer: O) -> NeverSubscription<O> {
        // A downstream that already wants nothing is released at once.
        let observer = (!observer.is_disposed()).then_some(observer);
        NeverSubscription {
            observer: Mutex::new(observer),
        }
    }
}

/// The handle of a [`never()`] subscription: it holds the observer, which nothing will ever
/// be delivered to, until it is disposed or dropped. It reports itself disposed from the
/// start, as nothing runs that could be cancelled.
pub struct NeverSubscription<O> {
    /// `None` once disposed. A lock because `dispose` takes `&self` and the handle may be
    /// disposed from another thread; it is never contended on any path that emits.
    observer: Mutex<Option<O>>,
}

impl<O> Subscription for NeverSubscription<O> {
    fn dispose(&self) {
        let observer = self.observer.lock().take();
        // Dropped outside the lock: dropping an observer runs other operators' code.
        drop(observer);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        true
    }
}

impl<O> fmt::Debug for NeverSubscription<O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NeverSubscription")
            .field("holds_observer", &self.observer.lock().is_some())
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
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
        assert!(!o.is_terminated());
    }

    #[test]
    fn keeps_the_observer_until_disposed() {
        let marker = Arc::new(());
        let held = marker.clone();
        let handle = never().subscribe(move |_: u8| {
            let _ = &held;
        });
        assert_eq!(Arc::strong_count(&marker), 2);
        handle.dispose();
        assert_eq!(Arc::strong_count(&marker), 1);
        handle.dispose();
        assert_eq!(Arc::strong_count(&marker), 1);
    }

    #[test]
    fn dropping_the_handle_releases_the_observer() {
        let marker = Arc::new(());
        let held = marker.clone();
        drop(never().subscribe(move |_: u8| {
            let _ = &held;
        }));
        assert_eq!(Arc::strong_count(&marker), 1);
    }

    #[test]
    fn disposed_observer_gets_nothing_and_is_released() {
        let marker = Arc::new(());
        let o = TestObserver::<u8>::new();
        o.dispose();
        let held = marker.clone();
        let handle = never().subscribe_observer(crate::observer::FnObserver::new(
            move |_: u8| {
                let _ = &held;
            },
            |_| {},
            || {},
        ));
        let _ = &handle;
        assert_eq!(
            Arc::strong_count(&marker),
            2,
            "an observer that listens is kept"
        );
        let handle = never().subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert!(format!("{handle:?}").contains("holds_observer: false"));
    }

    #[test]
    fn an_engine_drops_the_handle_and_no_cycle_remains() {
        let marker = Arc::new(());
        let held = marker.clone();
        let handle = never::<u8>().merge_with(never()).subscribe(move |_| {
            let _ = &held;
        });
        drop(handle);
        assert_eq!(Arc::strong_count(&marker), 1);
    }

    #[test]
    fn first_value_stays_pending() {
        use std::future::Future;
        use std::pin::pin;
        use std::task::{Context, Poll, Waker};
        let mut future = pin!(never::<u8>().first_value());
        let mut cx = Context::from_waker(Waker::noop());
        assert!(matches!(future.as_mut().poll(&mut cx), Poll::Pending));
        assert!(matches!(future.as_mut().poll(&mut cx), Poll::Pending));
    }

    #[test]
    fn as_blocking_waits() {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let first = never::<u8>().as_blocking().into_iter().next();
            let _ = tx.send(first.is_some());
        });
        // The waiting thread is left blocked: returning at all would be the bug.
        assert!(
            rx.recv_timeout(std::time::Duration::from_millis(50))
                .is_err()
        );
    }

    #[test]
    fn handle_is_send_and_sync_when_the_observer_is_send() {
        static_assertions::assert_impl_all!(super::NeverSubscription<TestObserver<u8>>: Send, Sync);
    }
}
