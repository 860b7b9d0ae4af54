//! [`ObservableExt::flat_map_max`](crate::ObservableExt::flat_map_max): the
//! [flattening engine](crate::engine::flatten) merging at most `max` inners at once, with the
//! projection of [`concat_map`](crate::ObservableExt::concat_map), which maps a value only when
//! its inner is subscribed: a value that waits for a place has started nothing yet.

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::operators::Projection;
use std::fmt;
use std::marker::PhantomData;

/// Maps each value to an observable and merges their values, at most `max` inner observables
/// at once; built by [`ObservableExt::flat_map_max`](crate::ObservableExt::flat_map_max).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "mergeMap")]
#[doc(alias = "flatMap")]
#[doc(alias = "merge_map")]
pub struct FlatMapMax<'a, S, F> {
    source: S,
    f: F,
    max: usize,
    _handles: PhantomData<&'a ()>,
}

impl<S, F> FlatMapMax<'_, S, F> {
    pub(crate) fn new(source: S, max: usize, f: F) -> Self {
        assert!(max > 0, "flat_map_max: `max` must be at least 1");
        FlatMapMax {
            source,
            f,
            max,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for FlatMapMax<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatMapMax")
            .field("source", &self.source)
            .field("max", &self.max)
            .finish_non_exhaustive()
    }
}

forward_to_flat_map!(
    FlatMapMax<'a, S, F>,
    f = Projection<F>,
    |this| FlatMap::with_mode(this.source, Projection::new(this.f), Mode::Merge { max: this.max })
);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{create_owned, from_iter, just, throw};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn maps_a_value_only_when_its_inner_gets_a_place() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let mapped = Arc::new(AtomicUsize::new(0));
        let (inner_sch, counter) = (sch.clone(), mapped.clone());
        from_iter([1, 2, 3])
            .flat_map_max(2, move |v| {
                counter.fetch_add(1, SeqCst);
                cold(&inner_sch, [(ms(10 * v), Next(v)), (ms(10 * v), Completed)])
            })
            .subscribe_observer(o.clone());
        assert_eq!(mapped.load(SeqCst), 2);
        sch.run();
        assert_eq!(mapped.load(SeqCst), 3);
        o.assert_timeline(&[
            (ms(10), Next(1)),
            (ms(20), Next(2)),
            (ms(40), Next(3)),
            (ms(40), Completed),
        ]);
    }

    #[test]
    fn synchronous_inners_use_a_loop() {
        let o = TestObserver::new();
        from_iter(0..100_000)
            .flat_map_max(3, just)
            .subscribe_observer(o.clone());
        assert_eq!(o.value_count(), 100_000);
        o.assert_completed();
    }

    #[test]
    fn an_inner_error_drops_the_waiting_values_unmapped() {
        let mapped = Arc::new(AtomicUsize::new(0));
        let o = TestObserver::<i32>::new();
        let (tx, rx) = std::sync::mpsc::channel();
        let counter = mapped.clone();
        from_iter([1, 2, 3])
            .flat_map_max(1, move |v| {
                counter.fetch_add(1, SeqCst);
                let tx = tx.clone();
                create_owned(move |emitter| tx.send((v, emitter)).unwrap())
            })
            .subscribe_observer(o.clone());
        let (v, emitter) = rx.recv().unwrap();
        assert_eq!(v, 1);
        emitter.on_error(Error::msg("first"));
        o.assert_notifications(&[Error(Error::msg("first"))]);
        assert_eq!(mapped.load(SeqCst), 1);
    }

    #[test]
    fn outer_error_passes_through() {
        let o = TestObserver::new();
        from_iter([1])
            .concat_with(throw(Error::msg("outer")))
            .flat_map_max(2, just)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Error(Error::msg("outer"))]);
    }

    #[test]
    #[should_panic(expected = "flat_map_max: `max` must be at least 1")]
    fn zero_panics_at_construction() {
        let _ = from_iter([1]).flat_map_max(0, just);
    }
}
