//! [`ObservableExt::switch_scan`](crate::ObservableExt::switch_scan): the
//! [flattening engine](crate::engine::flatten) switching, with the projection of
//! [`merge_scan`](crate::ObservableExt::merge_scan). A value of a replaced inner that was
//! already on its way is not delivered, and does not become the accumulator.

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::operators::ScanProjection;
use std::fmt;
use std::marker::PhantomData;

/// Maps each value and the accumulator to an observable and emits the values of the newest
/// one, each the new accumulator; built by
/// [`ObservableExt::switch_scan`](crate::ObservableExt::switch_scan).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "switchScan")]
pub struct SwitchScan<'a, S, A, F> {
    source: S,
    seed: A,
    f: F,
    _handles: PhantomData<&'a ()>,
}

impl<S, A, F> SwitchScan<'_, S, A, F> {
    pub(crate) fn new(source: S, seed: A, f: F) -> Self {
        SwitchScan {
            source,
            seed,
            f,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, A: fmt::Debug, F> fmt::Debug for SwitchScan<'_, S, A, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SwitchScan")
            .field("source", &self.source)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

forward_to_flat_map!(
    SwitchScan<'a, S, A, F>,
    f = ScanProjection<A, F>,
    |this| FlatMap::with_mode(this.source, ScanProjection::new(this.seed, this.f), Mode::Switch)
);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, just};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn synchronous_inners_accumulate() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .switch_scan(0, |acc, v| just(acc + v))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(3), Next(6), Completed]);
    }

    #[test]
    fn a_replaced_inner_leaves_the_accumulator_as_its_last_delivered_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let inner_sch = sch.clone();
        // The first inner delivers acc+1 at 5 and would deliver acc+100 at 20; the second
        // value arrives at 10 and replaces it, mapped with the accumulator 1.
        cold(
            &sch,
            [(ms(0), Next(1)), (ms(10), Next(2)), (ms(10), Completed)],
        )
        .switch_scan(0, move |acc, v| {
            let late = if v == 1 { 100 } else { 1000 };
            cold(
                &inner_sch,
                [
                    (ms(5), Next(acc + 1)),
                    (ms(20), Next(acc + late)),
                    (ms(20), Completed),
                ],
            )
        })
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(5), Next(1)),
            (ms(15), Next(2)),
            (ms(30), Next(1001)),
            (ms(30), Completed),
        ]);
    }
}
