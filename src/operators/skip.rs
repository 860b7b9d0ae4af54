//! [`ObservableExt::skip`](crate::ObservableExt::skip).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Drops the first `count` values; built by [`ObservableExt::skip`](crate::ObservableExt::skip).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Skip<S> {
    source: S,
    count: usize,
}

impl<S> Skip<S> {
    pub(crate) fn new(source: S, count: usize) -> Self {
        Skip { source, count }
    }
}

impl<S: Observable> Observable for Skip<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

impl<S, O> Subscribe<O> for Skip<S>
where
    S: Subscribe<SkipObserver<O>>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(SkipObserver {
            observer,
            remaining: self.count,
        })
    }
}

/// The observer [`Skip`] subscribes upstream.
#[derive(Debug)]
pub struct SkipObserver<O> {
    observer: O,
    remaining: usize,
}

impl<T, O: Observer<T>> Observer<T> for SkipObserver<O> {
    #[inline]
    fn on_next(&mut self, value: T) {
        if self.remaining > 0 {
            self.remaining -= 1;
        } else {
            self.observer.on_next(value);
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        self.observer.on_completed()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    #[test]
    fn drops_the_first_values() {
        let o = TestObserver::new();
        from_iter(1..=5).skip(2).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(3),
            Notification::Next(4),
            Notification::Next(5),
            Notification::Completed,
        ]);
    }

    #[test]
    fn edge_counts() {
        let o = TestObserver::new();
        from_iter(1..=3).skip(0).subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();

        let o = TestObserver::new();
        from_iter(1..=3).skip(3).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::new();
        from_iter(1..=2).skip(5).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::<i32>::new();
        empty().skip(1).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .skip(1)
            .subscribe_observer(o.clone());
        o.assert_error("bad");

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_next(2);
            e.on_error(Error::msg("mid-way"));
        })
        .skip(1)
        .subscribe_observer(o.clone());
        o.assert_values(&[2]);
        o.assert_error("mid-way");
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .skip(2)
            .map(|v| {
                emitted += 1;
                if v == 4 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[2, 3, 4]);
        o.assert_not_terminated();
        assert_eq!(emitted, 3);
    }

    #[test]
    fn disposed_downstream_stops_upstream_while_skipping() {
        let o = TestObserver::<i32>::new();
        o.dispose();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .skip(1000)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert_eq!(emitted, 0);
    }
}
