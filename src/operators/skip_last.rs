//! [`ObservableExt::skip_last`](crate::ObservableExt::skip_last).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::collections::VecDeque;

/// How many slots the delay line reserves on the first value. One up to this size never
/// reallocates; a larger one grows with the values actually seen, so `skip_last(usize::MAX)`
/// does not try to allocate `usize::MAX` slots up front.
const MAX_RESERVED: usize = 1024;

/// Drops the last `count` values; built by
/// [`ObservableExt::skip_last`](crate::ObservableExt::skip_last).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "skipLast")]
pub struct SkipLast<S> {
    source: S,
    count: usize,
}

impl<S> SkipLast<S> {
    pub(crate) fn new(source: S, count: usize) -> Self {
        SkipLast { source, count }
    }
}

impl<S: Observable> Observable for SkipLast<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for SkipLast<S>
where
    S: Subscribe<SkipLastObserver<O, <S as Observable>::Item>>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(SkipLastObserver {
            observer,
            count: self.count,
            delayed: VecDeque::new(),
        })
    }
}

/// The observer [`SkipLast`] subscribes upstream.
#[derive(Debug)]
pub struct SkipLastObserver<O, T> {
    observer: O,
    count: usize,
    /// The latest `count` values at most, oldest first: each leaves once `count` newer values
    /// have arrived, so it is known not to be among the last.
    delayed: VecDeque<T>,
}

impl<T, O: Observer<T>> Observer<T> for SkipLastObserver<O, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        if self.delayed.len() == self.count {
            match self.delayed.pop_front() {
                Some(oldest) => {
                    self.delayed.push_back(value);
                    self.observer.on_next(oldest);
                }
                None => self.observer.on_next(value),
            }
        } else {
            if self.delayed.capacity() == 0 {
                self.delayed.reserve_exact(self.count.min(MAX_RESERVED));
            }
            self.delayed.push_back(value);
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
    use std::collections::VecDeque;

    #[test]
    fn drops_the_last_values() {
        let o = TestObserver::new();
        from_iter(1..=5).skip_last(2).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(2),
            Notification::Next(3),
            Notification::Completed,
        ]);
    }

    #[test]
    fn edge_counts() {
        let o = TestObserver::new();
        from_iter(1..=3).skip_last(0).subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();

        let o = TestObserver::new();
        from_iter(1..=3).skip_last(3).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::new();
        from_iter(1..=2).skip_last(5).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);

        let o = TestObserver::<i32>::new();
        empty().skip_last(1).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn emits_each_value_as_soon_as_it_is_known_not_to_be_last() {
        let o = TestObserver::new();
        let mut skip_last = super::SkipLastObserver {
            observer: o.clone(),
            count: 2,
            delayed: VecDeque::new(),
        };
        skip_last.on_next(1);
        skip_last.on_next(2);
        o.assert_values(&[]);
        skip_last.on_next(3);
        o.assert_values(&[1]);
        for v in 4..100 {
            skip_last.on_next(v);
        }
        assert_eq!(skip_last.delayed.capacity(), 2);
        skip_last.on_error(Error::msg("mid-way"));
        o.assert_values(&(1..=97).collect::<Vec<_>>());
        o.assert_error("mid-way");
    }

    #[test]
    fn zero_count_does_not_allocate() {
        let o = TestObserver::new();
        let mut skip_last = super::SkipLastObserver {
            observer: o.clone(),
            count: 0,
            delayed: VecDeque::new(),
        };
        skip_last.on_next(1);
        assert_eq!(skip_last.delayed.capacity(), 0);
        o.assert_values(&[1]);
    }

    #[test]
    fn error_passes_through() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .skip_last(1)
            .subscribe_observer(o.clone());
        o.assert_error("bad");

        let o = TestObserver::new();
        create(|mut e| {
            e.on_next(1);
            e.on_next(2);
            e.on_next(3);
            e.on_error(Error::msg("mid-way"));
        })
        .skip_last(2)
        .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_error("mid-way");
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut emitted = 0;
        from_iter(0..)
            .map(|v| {
                emitted += 1;
                v
            })
            .skip_last(2)
            .map(|v| {
                if v == 3 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2, 3]);
        o.assert_not_terminated();
        assert_eq!(emitted, 6);
    }
}
