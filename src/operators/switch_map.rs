//! [`ObservableExt::switch_map`](crate::ObservableExt::switch_map).

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use std::fmt;

/// Maps each value to an observable and emits the values of the newest one, disposing the
/// previous; built by [`ObservableExt::switch_map`](crate::ObservableExt::switch_map).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "switchMap")]
#[doc(alias = "flat_map_latest")]
#[doc(alias = "flatMapLatest")]
pub struct SwitchMap<'a, S, F> {
    inner: FlatMap<'a, S, F>,
}

impl<S, F> SwitchMap<'_, S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        SwitchMap {
            inner: FlatMap::with_mode(source, f, Mode::Switch),
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for SwitchMap<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SwitchMap").field(&self.inner).finish()
    }
}

forward_to_flat_map!(SwitchMap<'a, S, F>, f = F, |this| this.inner);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, just, throw};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn follows_the_newest_inner_in_virtual_time() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let inner_sch = sch.clone();
        cold(
            &sch,
            [(ms(0), Next('a')), (ms(15), Next('b')), (ms(50), Completed)],
        )
        .switch_map(move |c| {
            cold(
                &inner_sch,
                [
                    (ms(10), Next((c, 1))),
                    (ms(20), Next((c, 2))),
                    (ms(30), Completed),
                ],
            )
        })
        .subscribe_observer(o.clone());
        sch.run();
        // `a`'s second value (due at 20) is gone: `b` replaced it at 15.
        o.assert_timeline(&[
            (ms(10), Next(('a', 1))),
            (ms(25), Next(('b', 1))),
            (ms(35), Next(('b', 2))),
            (ms(50), Completed),
        ]);
    }

    #[test]
    fn completes_after_the_last_inner_when_the_outer_completes_first() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let inner_sch = sch.clone();
        cold(&sch, [(ms(0), Next(1)), (ms(5), Completed)])
            .switch_map(move |v| cold(&inner_sch, [(ms(10), Next(v)), (ms(20), Completed)]))
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(10), Next(1)), (ms(20), Completed)]);
    }

    #[test]
    fn disposes_the_previous_inner_before_subscribing_the_next() {
        let log = Log::default();
        let outer = Hot::new("outer", &log);
        let inners = [Hot::new("a", &log), Hot::new("b", &log)];
        let o = TestObserver::new();
        let pick = inners.clone();
        outer
            .clone()
            .switch_map(move |i: usize| pick[i].clone())
            .subscribe_observer(o.clone());
        outer.next(0);
        inners[0].next(1);
        outer.next(1);
        inners[0].next(2); // replaced: dropped
        inners[1].next(3);
        assert_eq!(
            drain(&log),
            ["subscribe outer", "subscribe a", "dispose a", "subscribe b"]
        );
        assert_eq!(inners[0].subscribers(), 0);
        outer.complete();
        o.assert_not_terminated();
        inners[1].complete();
        o.assert_notifications(&[Next(1), Next(3), Completed]);
    }

    #[test]
    fn error_of_the_current_inner_ends_everything() {
        let log = Log::default();
        let outer = Hot::new("outer", &log);
        let inner = Hot::<i32>::new("inner", &log);
        let o = TestObserver::new();
        let i = inner.clone();
        outer
            .clone()
            .switch_map(move |_: ()| i.clone())
            .subscribe_observer(o.clone());
        outer.next(());
        inner.error("inner failed");
        o.assert_error("inner failed");
        assert_eq!(outer.subscribers(), 0);
        assert!(drain(&log).contains(&"dispose outer".to_string()));
    }

    #[test]
    fn synchronous_inners_each_run_to_completion() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .switch_map(|v| from_iter(0..v))
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
    fn outer_error() {
        let o = TestObserver::<i32>::new();
        throw::<i32>(Error::msg("outer"))
            .switch_map(just)
            .subscribe_observer(o.clone());
        o.assert_error("outer");
    }
}
