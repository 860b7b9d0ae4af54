//! [`ObservableExt::map`](crate::ObservableExt::map).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;

/// Applies a closure to each value; built by [`ObservableExt::map`](crate::ObservableExt::map).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "select")]
pub struct Map<S, F> {
    source: S,
    f: F,
}

impl<S, F> Map<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        Map { source, f }
    }
}

impl<S, F, U> Observable for Map<S, F>
where
    S: Observable,
    F: FnMut(S::Item) -> U,
{
    type Item = U;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

// Bounded by `Self: Observable` rather than by the closure again, the observer's bound
// before the source's (ARCHITECTURE.md, "Compile time").
impl<S, F, O> Subscribe<O> for Map<S, F>
where
    Self: Observable,
    O: Observer<<Self as Observable>::Item>,
    S: Subscribe<MapObserver<O, F>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(MapObserver {
            observer,
            f: self.f,
        })
    }
}

/// The observer [`Map`] subscribes upstream.
#[derive(Debug)]
pub struct MapObserver<O, F> {
    observer: O,
    f: F,
}

// The closure's bound first: it fixes `U`, so the observer's bound is proved with no
// inference variable left in it, once per chain (ARCHITECTURE.md, "Compile time").
impl<T, U, O, F> Observer<T> for MapObserver<O, F>
where
    F: FnMut(T) -> U,
    O: Observer<U>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.observer.on_next((self.f)(value))
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
    use crate::Error;
    use crate::prelude::*;
    use crate::source::{empty, from_iter, throw};
    use crate::testing::TestObserver;

    #[test]
    fn maps_each_value_then_completes() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .map(|v| v.to_string())
            .subscribe_observer(o.clone());
        o.assert_values(&["1".to_string(), "2".into(), "3".into()]);
        o.assert_completed();
    }

    #[test]
    fn empty_and_error_pass_through() {
        let o = TestObserver::<i32>::new();
        empty::<i32>().map(|v| v + 1).subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_completed();

        let o = TestObserver::<i32>::new();
        throw::<i32>(Error::msg("bad"))
            .map(|v| v + 1)
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_error("bad");
    }

    #[test]
    fn borrows_from_the_stack() {
        let offset = 10;
        let mut seen = Vec::new();
        from_iter([1, 2])
            .map(|v| v + offset)
            .subscribe(|v| seen.push(v));
        assert_eq!(seen, [11, 12]);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        let mut n = 0;
        from_iter(0..)
            .map(|v| {
                n += 1;
                if n == 3 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
    }
}
