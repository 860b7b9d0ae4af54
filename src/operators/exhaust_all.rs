//! [`ObservableExt::exhaust_all`](crate::ObservableExt::exhaust_all).

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::engine::projection::{Identity, identity};
use std::marker::PhantomData;

/// Flattens an observable of observables by following one inner observable at a time and
/// dropping those that arrive while it runs; built by
/// [`ObservableExt::exhaust_all`](crate::ObservableExt::exhaust_all).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "exhaust")]
#[doc(alias = "exhaustAll")]
pub struct ExhaustAll<'a, S> {
    source: S,
    _handles: PhantomData<&'a ()>,
}

impl<S> ExhaustAll<'_, S> {
    pub(crate) fn new(source: S) -> Self {
        ExhaustAll {
            source,
            _handles: PhantomData,
        }
    }
}

// The same engine and mode as `exhaust_map`, with the identity as the projection.
forward_to_flat_map!(
    ExhaustAll<'a, S>,
    f = Identity<<S as crate::observable::Observable>::Item>,
    |this| FlatMap::with_mode(this.source, identity as Identity<_>, Mode::Exhaust)
);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, throw};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn drops_the_inners_that_arrive_while_one_runs() {
        let sch = TestScheduler::new();
        let a = cold(
            &sch,
            [(ms(5), Next(1)), (ms(25), Next(2)), (ms(30), Completed)],
        );
        let b = cold(&sch, [(ms(5), Next(3)), (ms(10), Completed)]);
        let c = cold(&sch, [(ms(5), Next(4)), (ms(10), Completed)]);
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(0), Next(a)),
                (ms(20), Next(b)), // a still runs: dropped, never subscribed
                (ms(40), Next(c)),
                (ms(45), Completed),
            ],
        )
        .exhaust_all()
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(5), Next(1)),
            (ms(25), Next(2)),
            (ms(45), Next(4)),
            (ms(50), Completed),
        ]);
    }

    #[test]
    fn a_dropped_inner_is_never_subscribed() {
        let log = Log::default();
        let outer = Hot::new("outer", &log);
        let a = Hot::<i32>::new("a", &log);
        let b = Hot::<i32>::new("b", &log);
        let o = TestObserver::new();
        outer.clone().exhaust_all().subscribe_observer(o.clone());
        outer.next(a.clone());
        outer.next(b.clone());
        a.next(1);
        a.complete();
        outer.next(b.clone());
        b.next(2);
        assert_eq!(
            drain(&log),
            ["subscribe outer", "subscribe a", "subscribe b"]
        );
        outer.complete();
        o.assert_not_terminated();
        b.complete();
        o.assert_notifications(&[Next(1), Next(2), Completed]);
    }

    #[test]
    fn synchronous_inners_are_all_taken() {
        let o = TestObserver::new();
        from_iter([from_iter(vec![1, 2]), from_iter(vec![3])])
            .exhaust_all()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
    }

    #[test]
    fn errors_of_the_outer_and_the_running_inner_end_it() {
        let o = TestObserver::<i32>::new();
        from_iter([throw::<i32>(Error::msg("inner"))])
            .exhaust_all()
            .subscribe_observer(o.clone());
        o.assert_error("inner");

        let o = TestObserver::<i32>::new();
        throw::<crate::source::Empty<i32>>(Error::msg("outer"))
            .exhaust_all()
            .subscribe_observer(o.clone());
        o.assert_error("outer");

        let o = TestObserver::<i32>::new();
        empty::<crate::source::Empty<i32>>()
            .exhaust_all()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }
}
