//! [`ObservableExt::take`](crate::ObservableExt::take).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::Subscription;

/// Emits the first `count` values, then completes; built by
/// [`ObservableExt::take`](crate::ObservableExt::take).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "limit")]
pub struct Take<S> {
    source: S,
    count: usize,
}

impl<S> Take<S> {
    pub(crate) fn new(source: S, count: usize) -> Self {
        Take { source, count }
    }
}

impl<S: Observable> Observable for Take<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

impl<S, O> Subscribe<O> for Take<S>
where
    S: Subscribe<TakeObserver<O>>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if self.count == 0 {
            // Nothing is wanted: complete first, so upstream meets an observer that is
            // already done and emits nothing, then dispose upstream as RxJava's `take(0)` does.
            if !observer.is_disposed() {
                observer.on_completed();
            }
            let subscription = self.source.subscribe_observer(TakeObserver {
                observer: None,
                remaining: 0,
            });
            subscription.dispose();
            return subscription;
        }
        self.source.subscribe_observer(TakeObserver {
            observer: Some(observer),
            remaining: self.count,
        })
    }
}

/// The observer [`Take`] subscribes upstream.
#[derive(Debug)]
pub struct TakeObserver<O> {
    /// `None` once the downstream has been completed.
    observer: Option<O>,
    /// Values still wanted, the one that completes included; only read while `observer` is
    /// `Some`.
    remaining: usize,
}

impl<T, O: Observer<T>> Observer<T> for TakeObserver<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        if self.remaining > 1 {
            self.remaining -= 1;
            if let Some(observer) = &mut self.observer {
                observer.on_next(value);
            }
        } else if let Some(mut observer) = self.observer.take() {
            // The last value wanted: complete right after it rather than waiting for
            // upstream, which may never end.
            observer.on_next(value);
            if !observer.is_disposed() {
                observer.on_completed();
            }
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        if let Some(observer) = self.observer {
            observer.on_error(error)
        }
    }

    #[inline]
    fn on_completed(self) {
        if let Some(observer) = self.observer {
            observer.on_completed()
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.as_ref().is_none_or(O::is_disposed)
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, just, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn takes_the_first_values_then_completes() {
        let o = TestObserver::new();
        from_iter(1..=5).take(3).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(3),
            Notification::Completed,
        ]);
    }

    #[test]
    fn exactly_count_values() {
        let o = TestObserver::new();
        from_iter(1..=3).take(3).subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();
    }

    #[test]
    fn fewer_values_than_count_completes_with_the_source() {
        let o = TestObserver::new();
        from_iter(1..=2).take(5).subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
        o.assert_completed();

        let o = TestObserver::<i32>::new();
        empty().take(5).subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_completed();
    }

    #[test]
    fn take_zero_completes_without_pulling_a_value() {
        let mut emitted = 0;
        let o = TestObserver::new();
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .take(0)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
        assert_eq!(emitted, 0);
    }

    #[test]
    fn take_zero_on_a_disposed_downstream_does_nothing() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        just(1).take(0).subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }

    #[test]
    fn an_endless_source_stops_after_the_last_value() {
        let mut emitted = 0;
        let o = TestObserver::new();
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .take(3)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_completed();
        assert_eq!(emitted, 3);
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .take(2)
            .subscribe_observer(o.clone());
        o.assert_error("bad");

        // An error after some values but before the count is reached.
        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_error(Error::msg("mid-way"));
        })
        .take(3)
        .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("mid-way");
    }

    #[test]
    fn nothing_passes_after_the_count_is_reached() {
        let o = TestObserver::new();
        let mut take = super::TakeObserver {
            observer: Some(o.clone()),
            remaining: 1,
        };
        take.on_next(1);
        assert!(Observer::<i32>::is_disposed(&take));
        take.on_next(2);
        take.on_error(Error::msg("late"));
        o.assert_notifications(&[Notification::Next(1), Notification::Completed]);
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                if v == 1 {
                    probe.dispose();
                }
                v
            })
            .take(10)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        o.assert_not_terminated();
        assert_eq!(emitted, 2);
    }

    #[test]
    fn downstream_disposed_by_the_last_value_is_not_completed() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .take(2)
            .map(|v| {
                if v == 1 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1]);
        o.assert_not_terminated();
    }
}
