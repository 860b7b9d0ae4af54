//! [`ObservableExt::switch_on_next`](crate::ObservableExt::switch_on_next).

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::engine::projection::{Identity, identity};
use std::marker::PhantomData;

/// Flattens an observable of observables by following the newest inner observable; built by
/// [`ObservableExt::switch_on_next`](crate::ObservableExt::switch_on_next).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "switch")]
#[doc(alias = "switch_all")]
#[doc(alias = "switchAll")]
#[doc(alias = "switchOnNext")]
pub struct SwitchOnNext<'a, S> {
    source: S,
    _handles: PhantomData<&'a ()>,
}

impl<S> SwitchOnNext<'_, S> {
    pub(crate) fn new(source: S) -> Self {
        SwitchOnNext {
            source,
            _handles: PhantomData,
        }
    }
}

forward_to_flat_map!(
    SwitchOnNext<'a, S>,
    f = Identity<<S as crate::observable::Observable>::Item>,
    |this| FlatMap::with_mode(this.source, identity as Identity<_>, Mode::Switch)
);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::empty;
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn follows_the_newest_inner() {
        let sch = TestScheduler::new();
        let a = cold(
            &sch,
            [(ms(5), Next(1)), (ms(25), Next(2)), (ms(30), Completed)],
        );
        let b = cold(&sch, [(ms(5), Next(3)), (ms(10), Completed)]);
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [(ms(0), Next(a)), (ms(20), Next(b)), (ms(21), Completed)],
        )
        .switch_on_next()
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(5), Next(1)), (ms(25), Next(3)), (ms(30), Completed)]);
    }

    #[test]
    fn empty_outer_completes() {
        let o = TestObserver::<i32>::new();
        empty::<crate::source::Just<i32>>()
            .switch_on_next()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }
}
