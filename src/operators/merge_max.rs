//! [`ObservableExt::merge_max`](crate::ObservableExt::merge_max).

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::engine::projection::{Identity, identity};
use std::marker::PhantomData;

/// Merges the inner observables of an observable of observables, at most `max` at a time;
/// built by [`ObservableExt::merge_max`](crate::ObservableExt::merge_max).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "merge_all")]
#[doc(alias = "mergeAll")]
pub struct MergeMax<'a, S> {
    source: S,
    max: usize,
    _handles: PhantomData<&'a ()>,
}

impl<S> MergeMax<'_, S> {
    pub(crate) fn new(source: S, max: usize) -> Self {
        assert!(max > 0, "merge_max: `max` must be at least 1");
        MergeMax {
            source,
            max,
            _handles: PhantomData,
        }
    }
}

forward_to_flat_map!(
    MergeMax<'a, S>,
    f = Identity<<S as crate::observable::Observable>::Item>,
    |this| FlatMap::with_mode(this.source, identity as Identity<_>, Mode::Merge { max: this.max })
);

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
    fn runs_at_most_max_inners_and_starts_the_next_as_one_completes() {
        let sch = TestScheduler::new();
        // Three inners, each emitting its tag at 10 and completing at 20.
        let inner = |v: char| cold(&sch, [(ms(10), Next(v)), (ms(20), Completed)]);
        let o = TimedObserver::new(&sch);
        from_iter(['a', 'b', 'c'])
            .map(inner)
            .merge_max(2)
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(10), Next('a')),
            (ms(10), Next('b')),
            (ms(30), Next('c')),
            (ms(40), Completed),
        ]);
    }

    #[test]
    fn synchronous_inners_run_one_after_another() {
        let o = TestObserver::new();
        from_iter(0..4)
            .map(|v| from_iter([v, v]))
            .merge_max(1)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Next(0),
            Next(0),
            Next(1),
            Next(1),
            Next(2),
            Next(2),
            Next(3),
            Next(3),
            Completed,
        ]);
    }

    #[test]
    fn error_drops_the_queued_inners() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        from_iter([
            cold(&sch, [(ms(10), Next(1)), (ms(20), Error(Error::msg("x")))]),
            cold(&sch, [(ms(5), Next(2)), (ms(6), Completed)]),
        ])
        .merge_max(1)
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(10), Next(1)), (ms(20), Error(Error::msg("x")))]);
    }

    #[test]
    fn outer_error_passes_through() {
        let o = TestObserver::<i32>::new();
        from_iter([just(1)])
            .concat_with(throw::<crate::source::Just<i32>>(Error::msg("outer")))
            .merge_max(3)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Error(Error::msg("outer"))]);
    }

    #[test]
    #[should_panic(expected = "merge_max: `max` must be at least 1")]
    fn zero_panics_at_construction() {
        let _ = from_iter([just(1)]).merge_max(0);
    }
}
