//! [`ObservableExt::scan`](crate::ObservableExt::scan).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Emits each intermediate accumulation of a fold; built by
/// [`ObservableExt::scan`](crate::ObservableExt::scan).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Scan<S, A, F> {
    source: S,
    seed: A,
    f: F,
}

impl<S, A, F> Scan<S, A, F> {
    pub(crate) fn new(source: S, seed: A, f: F) -> Self {
        Scan { source, seed, f }
    }
}

impl<S, A, F> Observable for Scan<S, A, F>
where
    S: Observable,
    F: FnMut(A, S::Item) -> A,
{
    type Item = A;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

impl<S, A, F, O> Subscribe<O> for Scan<S, A, F>
where
    S: Subscribe<ScanObserver<O, A, F>>,
    F: FnMut(A, <S as Observable>::Item) -> A,
    A: Clone,
    O: Observer<A>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(ScanObserver {
            observer,
            acc: Some(self.seed),
            f: self.f,
        })
    }
}

/// The observer [`Scan`] subscribes upstream.
#[derive(Debug)]
pub struct ScanObserver<O, A, F> {
    observer: O,
    /// The accumulator, moved into `f` for each value and put back after it; `None` only
    /// while `f` runs (or after it panicked).
    acc: Option<A>,
    f: F,
}

impl<T, A, O, F> Observer<T> for ScanObserver<O, A, F>
where
    O: Observer<A>,
    F: FnMut(A, T) -> A,
    A: Clone,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        let Some(acc) = self.acc.take() else {
            return;
        };
        let acc = (self.f)(acc, value);
        // The one clone per value: downstream gets its own copy, the fold keeps the other.
        self.acc = Some(acc.clone());
        self.observer.on_next(acc)
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
    use crate::source::{empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};
    use std::cell::Cell;

    #[test]
    fn emits_each_accumulation_but_not_the_seed() {
        let o = TestObserver::new();
        from_iter(1..=4)
            .scan(10, |acc, v| acc + v)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(11),
            Notification::Next(13),
            Notification::Next(16),
            Notification::Next(20),
            Notification::Completed,
        ]);
    }

    #[test]
    fn empty_source_emits_nothing() {
        let o = TestObserver::<i32>::new();
        empty::<i32>()
            .scan(7, |acc, v| acc + v)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_mid_way_keeps_the_accumulations_so_far() {
        let o = TestObserver::new();
        from_iter([Ok(1), Ok(2), Err(Error::msg("cut")), Ok(4)])
            .try_map(|r| r)
            .scan(0, |acc, v| acc + v)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(1),
            Notification::Next(3),
            Notification::Error(Error::msg("cut")),
        ]);

        let o = TestObserver::<i32>::new();
        throw::<i32>(Error::msg("bad"))
            .scan(0, |a, v| a + v)
            .subscribe_observer(o.clone());
        o.assert_error("bad");
    }

    #[derive(Debug, PartialEq)]
    struct Counted<'a>(Vec<i32>, &'a Cell<usize>);

    impl Clone for Counted<'_> {
        fn clone(&self) -> Self {
            self.1.set(self.1.get() + 1);
            Counted(self.0.clone(), self.1)
        }
    }

    #[test]
    fn clones_the_accumulator_once_per_value() {
        let clones = Cell::new(0);
        let mut seen = Vec::new();
        from_iter(1..=3)
            .scan(Counted(Vec::new(), &clones), |mut acc, v| {
                acc.0.push(v);
                acc
            })
            .subscribe(|acc| seen.push(acc.0));
        assert_eq!(seen, [vec![1], vec![1, 2], vec![1, 2, 3]]);
        assert_eq!(clones.get(), 3);
    }

    #[test]
    fn resubscribing_starts_from_the_seed_again() {
        let scan = from_iter(1..=2).scan(0, |acc, v| acc + v);
        let o = TestObserver::new();
        scan.clone().subscribe_observer(o.clone());
        scan.subscribe_observer(o.clone());
        o.assert_values(&[1, 3, 1, 3]);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(1..)
            .scan(0, |acc, v| {
                if v == 3 {
                    probe.dispose();
                }
                acc + v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 3, 6]);
        o.assert_not_terminated();
    }
}
