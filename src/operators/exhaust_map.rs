//! [`ObservableExt::exhaust_map`](crate::ObservableExt::exhaust_map).

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use std::fmt;

/// Maps a value to an observable and emits its values, ignoring the values that arrive
/// while it runs; built by [`ObservableExt::exhaust_map`](crate::ObservableExt::exhaust_map).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "exhaustMap")]
#[doc(alias = "flat_map_first")]
#[doc(alias = "flatMapFirst")]
pub struct ExhaustMap<'a, S, F> {
    inner: FlatMap<'a, S, F>,
}

impl<S, F> ExhaustMap<'_, S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        ExhaustMap {
            inner: FlatMap::with_mode(source, f, Mode::Exhaust),
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for ExhaustMap<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ExhaustMap").field(&self.inner).finish()
    }
}

forward_to_flat_map!(ExhaustMap<'a, S, F>, f = F, |this| this.inner);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, just, throw};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn ignores_values_while_an_inner_runs() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let mapped = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (m, inner_sch) = (mapped.clone(), sch.clone());
        cold(
            &sch,
            [
                (ms(0), Next('a')),
                (ms(5), Next('b')),
                (ms(25), Next('c')),
                (ms(30), Completed),
            ],
        )
        .exhaust_map(move |c| {
            m.lock().unwrap().push(c);
            cold(&inner_sch, [(ms(10), Next(c)), (ms(20), Completed)])
        })
        .subscribe_observer(o.clone());
        sch.run();
        // `b` arrived while `a`'s inner ran: not even mapped.
        assert_eq!(*mapped.lock().unwrap(), ['a', 'c']);
        o.assert_timeline(&[
            (ms(10), Next('a')),
            (ms(35), Next('c')),
            (ms(45), Completed),
        ]);
    }

    #[test]
    fn synchronous_inners_are_all_taken() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .exhaust_map(|v| just(v * 2))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(2), Next(4), Next(6), Completed]);
    }

    #[test]
    fn inner_error() {
        let o = TestObserver::<i32>::new();
        from_iter(1..=3)
            .exhaust_map(|_| throw::<i32>(Error::msg("inner")))
            .subscribe_observer(o.clone());
        o.assert_error("inner");
    }
}
