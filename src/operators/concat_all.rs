//! [`ObservableExt::concat`](crate::ObservableExt::concat): flattening one inner observable
//! after another.

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::engine::projection::{Identity, identity};
use std::marker::PhantomData;

/// Flattens an observable of observables by subscribing each inner observable once the
/// previous one has completed; built by [`ObservableExt::concat`](crate::ObservableExt::concat).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "concatAll")]
pub struct ConcatAll<'a, S> {
    source: S,
    _handles: PhantomData<&'a ()>,
}

impl<S> ConcatAll<'_, S> {
    pub(crate) fn new(source: S) -> Self {
        ConcatAll {
            source,
            _handles: PhantomData,
        }
    }
}

forward_to_flat_map!(
    ConcatAll<'a, S>,
    f = Identity<<S as crate::observable::Observable>::Item>,
    |this| FlatMap::with_mode(this.source, identity as Identity<_>, Mode::CONCAT)
);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, just, throw};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn keeps_the_order_of_the_inners_even_when_they_overlap_in_time() {
        let sch = TestScheduler::new();
        let a = cold(
            &sch,
            [(ms(10), Next(1)), (ms(20), Next(2)), (ms(30), Completed)],
        );
        let b = cold(&sch, [(ms(5), Next(3)), (ms(10), Completed)]);
        let o = TimedObserver::new(&sch);
        from_iter([a, b]).concat().subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(10), Next(1)),
            (ms(20), Next(2)),
            (ms(35), Next(3)),
            (ms(40), Completed),
        ]);
    }

    #[test]
    fn a_long_run_of_synchronous_inners_does_not_grow_the_stack() {
        let mut count = 0;
        from_iter(0..100_000)
            .map(just)
            .concat()
            .subscribe(|_| count += 1);
        assert_eq!(count, 100_000);
    }

    #[test]
    fn empty_inners_and_empty_outer() {
        let o = TestObserver::<i32>::new();
        from_iter([empty(), empty()])
            .concat()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);

        let o = TestObserver::<i32>::new();
        empty::<crate::source::Just<i32>>()
            .concat()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn inner_error_stops_everything() {
        let o = TestObserver::new();
        let mut mapped = 0;
        from_iter(0..)
            .map(|v| {
                mapped += 1;
                if v == 1 {
                    throw(Error::msg("stop")).boxed()
                } else {
                    just(v).boxed()
                }
            })
            .concat()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(0), Error(Error::msg("stop"))]);
        assert_eq!(mapped, 2);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_outer() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .map(just)
            .concat()
            .map(move |v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }
}
