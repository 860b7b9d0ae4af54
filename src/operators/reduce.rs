//! [`ObservableExt::reduce`](crate::ObservableExt::reduce).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::fmt;

/// Folds every value into an accumulator and emits the result at completion; built by
/// [`ObservableExt::reduce`](crate::ObservableExt::reduce).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "aggregate")]
#[doc(alias = "fold")]
pub struct Reduce<S, A, F> {
    source: S,
    seed: A,
    f: F,
}

impl<S, A, F> Reduce<S, A, F> {
    pub(crate) fn new(source: S, seed: A, f: F) -> Self {
        Reduce { source, seed, f }
    }
}

impl<S: fmt::Debug, A: fmt::Debug, F> fmt::Debug for Reduce<S, A, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reduce")
            .field("source", &self.source)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

impl<S, A, F> Observable for Reduce<S, A, F>
where
    S: Observable,
    F: FnMut(A, S::Item) -> A,
{
    type Item = A;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, A, F, O> Subscribe<O> for Reduce<S, A, F>
where
    S: Subscribe<ReduceObserver<O, A, F>>,
    F: FnMut(A, <S as Observable>::Item) -> A,
    O: Observer<A>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(ReduceObserver {
            observer,
            acc: Some(self.seed),
            f: self.f,
        })
    }
}

/// The observer [`Reduce`] subscribes upstream.
pub struct ReduceObserver<O, A, F> {
    observer: O,
    // Always `Some` between calls: `f` takes the accumulator by value, so it is moved out and
    // back in on each value.
    acc: Option<A>,
    f: F,
}

impl<O: fmt::Debug, A: fmt::Debug, F> fmt::Debug for ReduceObserver<O, A, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReduceObserver")
            .field("observer", &self.observer)
            .field("acc", &self.acc)
            .finish_non_exhaustive()
    }
}

impl<T, O, A, F> Observer<T> for ReduceObserver<O, A, F>
where
    O: Observer<A>,
    F: FnMut(A, T) -> A,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        if let Some(acc) = self.acc.take() {
            self.acc = Some((self.f)(acc, value));
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(self) {
        if let Some(acc) = self.acc {
            complete_with(self.observer, acc);
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

/// Emits `value` and completes, unless the observer loses interest in between: what every
/// aggregate does at the end.
#[inline]
pub(super) fn complete_with<T, O: Observer<T>>(mut observer: O, value: T) {
    observer.on_next(value);
    if !observer.is_disposed() {
        observer.on_completed();
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::Notification as N;
    use crate::prelude::*;
    use crate::source::{empty, from_iter, just, throw};
    use crate::testing::TestObserver;

    #[test]
    fn emits_the_final_accumulation_then_completes() {
        let o = TestObserver::new();
        from_iter(1..=4)
            .reduce(10, |acc, v| acc + v)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(20), N::Completed]);
    }

    #[test]
    fn accumulator_may_differ_from_the_item_type() {
        let o = TestObserver::new();
        from_iter(["a", "b", "c"])
            .reduce(String::new(), |mut acc, v| {
                acc.push_str(v);
                acc
            })
            .subscribe_observer(o.clone());
        o.assert_values(&["abc".to_string()]);
        o.assert_completed();
    }

    #[test]
    fn empty_source_emits_the_seed() {
        let o = TestObserver::new();
        empty::<i32>()
            .reduce(7, |acc, v| acc + v)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(7), N::Completed]);
    }

    #[test]
    fn error_passes_through_without_a_value() {
        let o = TestObserver::<i32>::new();
        from_iter([
            N::Next(1),
            N::Next(2),
            N::Error(Error::msg("bad")),
            N::Next(3),
        ])
        .dematerialize()
        .reduce(0, |acc, v| acc + v)
        .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Error(Error::msg("bad"))]);

        let o = TestObserver::<i32>::new();
        throw::<i32>(Error::msg("e"))
            .reduce(0, |acc, v| acc + v)
            .subscribe_observer(o.clone());
        o.assert_error("e");
    }

    #[test]
    fn disposed_downstream_stops_an_endless_source() {
        let o = TestObserver::<u64>::new();
        let probe = o.clone();
        let mut seen = 0;
        from_iter(0u64..)
            .map(|v| {
                seen += 1;
                if seen == 5 {
                    probe.dispose();
                }
                v
            })
            .reduce(0, |acc, v| acc + v)
            .subscribe_observer(o.clone());
        assert_eq!(seen, 5);
        o.assert_values(&[]);
        o.assert_not_terminated();
    }

    #[test]
    fn downstream_disposed_by_the_value_gets_no_completion() {
        let o = TestObserver::new();
        let probe = o.clone();
        just(1)
            .reduce(0, |acc, v| acc + v)
            .map(|v| {
                probe.dispose();
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        o.assert_not_terminated();
    }
}
