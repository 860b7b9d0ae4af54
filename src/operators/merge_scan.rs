//! [`ObservableExt::merge_scan`](crate::ObservableExt::merge_scan) and `merge_scan_max`: the
//! [flattening engine](crate::engine::flatten) merging, with a projection that passes the
//! accumulator to `f` and makes every value of an inner the new accumulator.
//!
//! The accumulator sits behind a lock the projection and every inner observer share: an inner
//! writes each of its values there before delivering it, and `f` reads it when it maps a
//! value. As in [`concat_map`](crate::ObservableExt::concat_map), the engine keeps `f` (with
//! the accumulator) and lends it to the thread that subscribes the next inner, so a value that
//! waits for a place is mapped with the accumulator of its turn, as RxJS does.
//! [`switch_scan`](crate::ObservableExt::switch_scan) runs on the same projection.

use crate::Error;
use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::engine::projection::{Lend, Projector};
use crate::observable::{Emission, Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::{Arc, Mutex};
use std::fmt;
use std::marker::PhantomData;

/// Maps each value and the accumulator to an observable and merges their values, each the
/// new accumulator; built by [`ObservableExt::merge_scan`](crate::ObservableExt::merge_scan)
/// and [`merge_scan_max`](crate::ObservableExt::merge_scan_max).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "mergeScan")]
pub struct MergeScan<'a, S, A, F> {
    source: S,
    seed: A,
    f: F,
    max: usize,
    _handles: PhantomData<&'a ()>,
}

impl<S, A, F> MergeScan<'_, S, A, F> {
    pub(crate) fn new(source: S, max: usize, seed: A, f: F) -> Self {
        assert!(max > 0, "merge_scan_max: `max` must be at least 1");
        MergeScan {
            source,
            seed,
            f,
            max,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, A: fmt::Debug, F> fmt::Debug for MergeScan<'_, S, A, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MergeScan")
            .field("source", &self.source)
            .field("seed", &self.seed)
            .field("max", &self.max)
            .finish_non_exhaustive()
    }
}

forward_to_flat_map!(
    MergeScan<'a, S, A, F>,
    f = ScanProjection<A, F>,
    |this| FlatMap::with_mode(
        this.source,
        ScanProjection::new(this.seed, this.f),
        Mode::Merge { max: this.max }
    )
);

/// The projection of a [`MergeScan`] or [`SwitchScan`](crate::operators::SwitchScan)
/// subscription: the accumulator, shared, and `f`; both lent to the engine when it is built.
pub struct ScanProjection<A, F>(Option<(Arc<Mutex<A>>, F)>);

impl<A, F> ScanProjection<A, F> {
    pub(crate) fn new(seed: A, f: F) -> Self {
        ScanProjection(Some((Arc::new(Mutex::new(seed)), f)))
    }
}

impl<V, A, F, U> Projector<V> for ScanProjection<A, F>
where
    F: FnMut(A, V) -> U,
    A: Clone,
{
    type Inner = ScanInner<U, A>;
    type Lent = ScanDeferred<V, A, F>;

    #[inline]
    fn lend(&mut self) -> ScanDeferred<V, A, F> {
        ScanDeferred {
            parts: self.0.take(),
            _values: PhantomData,
        }
    }

    #[inline]
    fn project(&mut self, value: V) -> V {
        value
    }
}

impl<A, F> fmt::Debug for ScanProjection<A, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ScanProjection")
    }
}

/// The accumulator and `f` of a [`MergeScan`] or [`SwitchScan`](crate::operators::SwitchScan)
/// subscription, kept in the engine's state and lent to the thread that subscribes the next
/// inner.
pub struct ScanDeferred<V, A, F> {
    /// `None` while lent out.
    parts: Option<(Arc<Mutex<A>>, F)>,
    _values: PhantomData<fn(V)>,
}

impl<V, A, F, U> Lend for ScanDeferred<V, A, F>
where
    F: FnMut(A, V) -> U,
    A: Clone,
{
    type Queued = V;
    type Inner = ScanInner<U, A>;
    const KEPT: bool = true;

    #[inline]
    fn take(&mut self) -> Self {
        ScanDeferred {
            parts: self.parts.take(),
            _values: PhantomData,
        }
    }

    #[inline]
    fn give_back(&mut self, lent: Self) {
        debug_assert!(self.parts.is_none(), "the projection was lent twice");
        self.parts = lent.parts;
    }

    #[inline]
    fn inner(&mut self, value: V) -> ScanInner<U, A> {
        // Lent to one subscribing thread at a time, and taken before every inner it
        // subscribes: it is here.
        let (acc, f) = self
            .parts
            .as_mut()
            .expect("the projection is lent to the thread that subscribes");
        // The lock is let go before `f` runs: an inner it returns may emit at once.
        let current = acc.lock().clone();
        ScanInner {
            source: f(current, value),
            acc: acc.clone(),
        }
    }
}

impl<V, A, F> fmt::Debug for ScanDeferred<V, A, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ScanDeferred")
    }
}

/// An inner observable of a [`MergeScan`] or [`SwitchScan`](crate::operators::SwitchScan),
/// whose values become the accumulator as they are delivered.
pub struct ScanInner<U, A> {
    source: U,
    acc: Arc<Mutex<A>>,
}

impl<U: fmt::Debug, A> fmt::Debug for ScanInner<U, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScanInner")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<U: Observable<Item = A>, A> Observable for ScanInner<U, A> {
    type Item = A;
    type Flavour = U::Flavour;
    const EMISSION: Emission = U::EMISSION;
}

impl<U, A, O> Subscribe<O> for ScanInner<U, A>
where
    U: Subscribe<ScanInnerObserver<O, A>, Item = A>,
{
    type Subscription = U::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(ScanInnerObserver {
            downstream: observer,
            acc: self.acc,
        })
    }
}

/// The observer a [`ScanInner`] is subscribed with.
pub struct ScanInnerObserver<O, A> {
    downstream: O,
    acc: Arc<Mutex<A>>,
}

impl<O: Observer<A>, A: Clone> Observer<A> for ScanInnerObserver<O, A> {
    #[inline]
    fn on_next(&mut self, value: A) {
        // An inner the engine no longer delivers for (a `switch_scan` inner that was
        // replaced) leaves the accumulator alone.
        if !self.downstream.is_disposed() {
            *self.acc.lock() = value.clone();
        }
        self.downstream.on_next(value);
    }

    #[inline]
    fn on_error(self, error: Error) {
        self.downstream.on_error(error);
    }

    #[inline]
    fn on_completed(self) {
        self.downstream.on_completed();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.downstream.is_disposed()
    }
}

impl<O, A> fmt::Debug for ScanInnerObserver<O, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScanInnerObserver").finish_non_exhaustive()
    }
}

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
    fn each_inner_value_is_the_next_accumulator() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .merge_scan(0, |acc, v| just(acc + v))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(3), Next(6), Completed]);
    }

    #[test]
    fn concurrent_inners_see_the_accumulator_of_their_subscription() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let inner_sch = sch.clone();
        from_iter([1, 2])
            .merge_scan(10, move |acc, v| {
                cold(&inner_sch, [(ms(5), Next(acc + v)), (ms(5), Completed)])
            })
            .subscribe_observer(o.clone());
        sch.run();
        // Both were mapped at once, with the seed.
        o.assert_timeline(&[(ms(5), Next(11)), (ms(5), Next(12)), (ms(5), Completed)]);
    }

    #[test]
    fn a_waiting_value_is_mapped_with_the_accumulator_of_its_turn() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let inner_sch = sch.clone();
        from_iter([1, 2])
            .merge_scan_max(1, 10, move |acc, v| {
                cold(&inner_sch, [(ms(5), Next(acc + v)), (ms(5), Completed)])
            })
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(5), Next(11)), (ms(10), Next(13)), (ms(10), Completed)]);
    }

    #[test]
    fn an_empty_inner_leaves_the_accumulator() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .merge_scan(0, |acc, v| {
                if v == 2 {
                    empty().boxed()
                } else {
                    just(acc + v).boxed()
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(4), Completed]);
    }

    #[test]
    fn an_inner_error_ends_it() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .merge_scan(0, |acc, v| {
                if v == 2 {
                    throw(Error::msg("two")).boxed()
                } else {
                    just(acc + v).boxed()
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Error(Error::msg("two"))]);
    }

    #[test]
    #[should_panic(expected = "merge_scan_max: `max` must be at least 1")]
    fn zero_panics_at_construction() {
        let _ = from_iter([1]).merge_scan_max(0, 0, |a, v| just(a + v));
    }
}
