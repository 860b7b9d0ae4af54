//! [`ObservableExt::concat_map`](crate::ObservableExt::concat_map).

use crate::operators::flat_map::{FlatMap, Mode, forward_to_flat_map};
use std::fmt;

/// Maps each value to an observable and emits their values one observable after another;
/// built by [`ObservableExt::concat_map`](crate::ObservableExt::concat_map).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "concatMap")]
pub struct ConcatMap<'a, S, F> {
    inner: FlatMap<'a, S, F>,
}

impl<S, F> ConcatMap<'_, S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        ConcatMap {
            inner: FlatMap::with_mode(source, f, Mode::CONCAT),
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for ConcatMap<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ConcatMap").field(&self.inner).finish()
    }
}

forward_to_flat_map!(ConcatMap<'a, S, F>, f = F, |this| this.inner);

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
    fn maps_eagerly_and_subscribes_in_order() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let mut mapped = Vec::new();
        from_iter([1, 2, 3])
            .concat_map(|v| {
                mapped.push(v);
                cold(&sch, [(ms(10), Next(v * 10)), (ms(10), Completed)])
            })
            .subscribe_observer(o.clone());
        // `f` runs as each value arrives; the inners wait their turn.
        assert_eq!(mapped, [1, 2, 3]);
        sch.run();
        o.assert_timeline(&[
            (ms(10), Next(10)),
            (ms(20), Next(20)),
            (ms(30), Next(30)),
            (ms(30), Completed),
        ]);
    }

    #[test]
    fn synchronous_inners() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .concat_map(|v| from_iter(0..v))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Next(0),
            Next(0),
            Next(1),
            Next(0),
            Next(1),
            Next(2),
            Completed,
        ]);
    }

    #[test]
    fn outer_error_is_immediate() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let inner_sch = sch.clone();
        cold(
            &sch,
            [(ms(0), Next(1)), (ms(5), Error(Error::msg("outer")))],
        )
        .concat_map(move |v| cold(&inner_sch, [(ms(10), Next(v)), (ms(10), Completed)]))
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(5), Error(Error::msg("outer")))]);
    }

    #[test]
    fn inner_error() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .concat_map(|v| {
                if v == 2 {
                    throw(Error::msg("two")).boxed()
                } else {
                    just(v).boxed()
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Error(Error::msg("two"))]);
    }
}
