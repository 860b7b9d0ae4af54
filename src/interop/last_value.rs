//! [`ObservableExt::last_value`](crate::ObservableExt::last_value): a future of an
//! observable's last value.

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

/// A future of an observable's last value; built by
/// [`ObservableExt::last_value`](crate::ObservableExt::last_value).
///
/// Resolves when the observable terminates: to `Ok` with the last value on completion, to
/// `Err(`[`NoElements`]`)` when it completes empty, or to `Err` with its error. It subscribes
/// when it is created, not when first polled; dropping it disposes the subscription.
///
/// # Panics
///
/// When polled again after it has resolved.
#[must_use = "dropping the future disposes its subscription"]
#[doc(alias = "lastValueFrom")]
#[doc(alias = "toPromise")]
pub struct LastValue<T, U: Subscription> {
    inner: ValueFuture<T, U>,
}

impl<T, U: Subscription> LastValue<T, U> {
    pub(crate) fn new<S>(source: S) -> Self
    where
        S: Subscribe<LastValueObserver<T>, Subscription = U>,
    {
        LastValue {
            inner: ValueFuture::new("LastValue", |slot| {
                source.subscribe_observer(LastValueObserver {
                    slot: Some(slot),
                    last: None,
                })
            }),
        }
    }
}

impl<T, U: Subscription> Future for LastValue<T, U> {
    type Output = Result<T, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.get_mut().inner).poll(cx)
    }
}

impl<T, U: Subscription> fmt::Debug for LastValue<T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LastValue")
            .field("done", &self.inner.is_done())
            .finish_non_exhaustive()
    }
}

/// The observer a [`LastValue`] subscribes: keeps the latest value, and hands it (or the
/// error) to the future when the observable terminates.
pub struct LastValueObserver<T> {
    /// `None` once the outcome was handed over.
    slot: Option<Arc<Slot<T>>>,
    last: Option<T>,
}

impl<T> Observer<T> for LastValueObserver<T> {
    fn on_next(&mut self, value: T) {
        self.last = Some(value);
    }

    fn on_error(mut self, error: Error) {
        if let Some(slot) = self.slot.take() {
            slot.set(Err(error));
        }
    }

    fn on_completed(mut self) {
        if let Some(slot) = self.slot.take() {
            slot.set(self.last.take().ok_or_else(|| Error::new(NoElements)));
        }
    }

    fn is_disposed(&self) -> bool {
        self.slot.as_ref().is_none_or(|slot| slot.is_closed())
    }
}

/// Dropped without a terminal notification: resolve the future with an error rather than
/// leave it pending forever.
impl<T> Drop for LastValueObserver<T> {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take()
            && !slot.is_closed()
        {
            slot.set(Err(dropped_observer()));
        }
    }
}

impl<T> fmt::Debug for LastValueObserver<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LastValueObserver")
            .field("done", &self.slot.is_none())
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::operators::NoElements;
    use crate::prelude::*;
    use crate::schedulers::NewThread;
    use crate::source::{empty, from_iter, interval, just, throw};
    use crate::subjects::PublishSubject;
    use futures::executor::block_on;
    use futures::future::FutureExt;
    use std::time::Duration;

    #[test]
    fn resolves_to_the_last_value_on_completion() {
        assert_eq!(block_on(from_iter([4, 5, 6]).last_value()), Ok(6));
        assert_eq!(block_on(just("a").last_value()), Ok("a"));
    }

    #[test]
    fn an_empty_source_fails_with_no_elements() {
        let error = block_on(empty::<i32>().last_value()).unwrap_err();
        assert!(error.is::<NoElements>());
    }

    #[test]
    fn an_error_wins_over_the_values_before_it() {
        let source = from_iter([Ok(1), Err(Error::msg("late")), Ok(3)]).try_map(|r| r);
        assert_eq!(block_on(source.last_value()), Err(Error::msg("late")));
        assert_eq!(
            block_on(throw::<i32>(Error::msg("boom")).last_value()),
            Err(Error::msg("boom"))
        );
    }

    #[test]
    fn waits_for_completion() {
        let subject = PublishSubject::new();
        let mut future = subject.observable().last_value();
        let mut input = subject.observer();
        input.on_next(1);
        input.on_next(2);
        assert!((&mut future).now_or_never().is_none());
        input.on_completed();
        assert_eq!(block_on(future), Ok(2));
    }

    #[test]
    fn dropping_the_future_disposes_the_subscription() {
        let subject = PublishSubject::<i32>::new();
        let future = subject.observable().last_value();
        drop(future);
        assert!(!subject.has_observers());
    }

    #[test]
    fn waits_for_a_source_on_another_thread() {
        let future = interval(Duration::from_millis(1), NewThread)
            .take(3)
            .last_value();
        assert_eq!(block_on(future), Ok(2));
    }

    #[test]
    #[should_panic(expected = "`LastValue` polled after completion")]
    fn polling_after_completion_panics() {
        let mut future = just(1).last_value();
        assert_eq!(block_on(&mut future), Ok(1));
        let _ = block_on(&mut future);
    }
}
