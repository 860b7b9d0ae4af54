//! [`ObservableExt::first_value`](crate::ObservableExt::first_value): a future of an
//! observable's first value.

use super::value_future::{Slot, ValueFuture, dropped_observer};
use crate::Error;
use crate::observable::Subscribe;
use crate::observer::Observer;
use crate::operators::NoElements;
use crate::primitive::Arc;
use crate::subscription::Subscription;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// A future of an observable's first value; built by
/// [`ObservableExt::first_value`](crate::ObservableExt::first_value).
///
/// Resolves to `Ok` with the first value, to `Err` with the error the observable fails with
/// first, or to `Err(`[`NoElements`]`)` when it completes empty. It subscribes when it is
/// created, not when first polled; dropping it disposes the subscription.
///
/// # Panics
///
/// When polled again after it has resolved.
#[must_use = "dropping the future disposes its subscription"]
#[doc(alias = "firstValueFrom")]
pub struct FirstValue<T, U: Subscription> {
    inner: ValueFuture<T, U>,
}

impl<T, U: Subscription> FirstValue<T, U> {
    pub(crate) fn new<S>(source: S) -> Self
    where
        S: Subscribe<FirstValueObserver<T>, Subscription = U>,
    {
        FirstValue {
            inner: ValueFuture::new("FirstValue", |slot| {
                source.subscribe_observer(FirstValueObserver { slot: Some(slot) })
            }),
        }
    }
}

impl<T, U: Subscription> Future for FirstValue<T, U> {
    type Output = Result<T, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.get_mut().inner).poll(cx)
    }
}

impl<T, U: Subscription> fmt::Debug for FirstValue<T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FirstValue")
            .field("done", &self.inner.is_done())
            .finish_non_exhaustive()
    }
}

/// The observer a [`FirstValue`] subscribes: hands the first value, or the outcome, to the
/// future, and is disposed from then on.
pub struct FirstValueObserver<T> {
    /// `None` once the outcome was handed over.
    slot: Option<Arc<Slot<T>>>,
}

impl<T> Observer<T> for FirstValueObserver<T> {
    fn on_next(&mut self, value: T) {
        if let Some(slot) = self.slot.take() {
            slot.set(Ok(value));
        }
    }

    fn on_error(mut self, error: Error) {
        if let Some(slot) = self.slot.take() {
            slot.set(Err(error));
        }
    }

    fn on_completed(mut self) {
        if let Some(slot) = self.slot.take() {
            slot.set(Err(Error::new(NoElements)));
        }
    }

    fn is_disposed(&self) -> bool {
        self.slot.as_ref().is_none_or(|slot| slot.is_closed())
    }
}

/// Dropped without a value or a terminal notification: resolve the future with an error
/// rather than leave it pending forever.
impl<T> Drop for FirstValueObserver<T> {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take()
            && !slot.is_closed()
        {
            slot.set(Err(dropped_observer()));
        }
    }
}

impl<T> fmt::Debug for FirstValueObserver<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FirstValueObserver")
            .field("done", &self.slot.is_none())
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::operators::NoElements;
    use crate::prelude::*;
    use crate::schedulers::{NewThread, TestScheduler};
    use crate::source::{empty, from_iter, interval, just, throw, timer};
    use crate::subjects::PublishSubject;
    use futures::executor::block_on;
    use futures::future::FutureExt;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn resolves_to_the_first_value() {
        assert_eq!(block_on(from_iter([4, 5, 6]).first_value()), Ok(4));
        assert_eq!(block_on(just("a").first_value()), Ok("a"));
    }

    #[test]
    fn an_empty_source_fails_with_no_elements() {
        let error = block_on(empty::<i32>().first_value()).unwrap_err();
        assert!(error.is::<NoElements>());
    }

    #[test]
    fn an_error_before_any_value_fails() {
        assert_eq!(
            block_on(throw::<i32>(Error::msg("boom")).first_value()),
            Err(Error::msg("boom"))
        );
    }

    #[test]
    fn an_endless_synchronous_source_stops_after_the_first_value() {
        let pulled = Arc::new(AtomicUsize::new(0));
        let p = pulled.clone();
        let source = from_iter(0..).map(move |v| {
            p.fetch_add(1, Ordering::SeqCst);
            v
        });
        assert_eq!(block_on(source.first_value()), Ok(0));
        assert_eq!(pulled.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn subscribes_at_once() {
        let subject = PublishSubject::new();
        let future = subject.observable().first_value();
        subject.observer().on_next(7);
        assert_eq!(block_on(future), Ok(7));
    }

    #[test]
    fn resolving_disposes_the_subscription() {
        let subject = PublishSubject::new();
        let mut future = subject.observable().first_value();
        assert!((&mut future).now_or_never().is_none());
        subject.observer().on_next(1);
        assert_eq!(block_on(&mut future), Ok(1));
        assert!(!subject.has_observers());
    }

    #[test]
    fn dropping_the_future_disposes_the_subscription() {
        let subject = PublishSubject::<i32>::new();
        let future = subject.observable().first_value();
        assert!(subject.has_observers());
        drop(future);
        assert!(!subject.has_observers());
    }

    #[test]
    fn waits_for_a_value_from_another_thread() {
        let future = interval(Duration::from_millis(1), NewThread).first_value();
        assert_eq!(block_on(future), Ok(0));
    }

    #[test]
    fn stays_pending_while_nothing_arrives() {
        let subject = PublishSubject::<i32>::new();
        let mut future = subject.observable().first_value();
        assert!((&mut future).now_or_never().is_none());
        assert!((&mut future).now_or_never().is_none());
    }

    #[test]
    fn a_source_that_drops_its_observer_fails_the_future_at_once() {
        // A `create` whose closure returns without terminating drops its observer: waiting
        // would be forever, so the future says so.
        let error = block_on(crate::source::create::<i32, _>(|_| {}).first_value()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the observable dropped its observer without terminating"
        );
    }

    #[test]
    fn a_dropped_observer_fails_the_future() {
        let sch = TestScheduler::new();
        let future = timer(Duration::from_secs(1), sch.clone()).first_value();
        drop(sch);
        assert_eq!(
            block_on(future),
            Err(Error::msg(
                "the observable dropped its observer without terminating"
            ))
        );
    }

    #[test]
    #[should_panic(expected = "`FirstValue` polled after completion")]
    fn polling_after_completion_panics() {
        let mut future = just(1).first_value();
        assert_eq!(block_on(&mut future), Ok(1));
        let _ = block_on(&mut future);
    }
}
