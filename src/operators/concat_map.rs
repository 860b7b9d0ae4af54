//! [`ObservableExt::concat_map`](crate::ObservableExt::concat_map).
//!
//! The projection runs when its inner observable is subscribed, not when the value arrives
//! (RxJava's and RxJS's `concatMap`): a projection that starts work (a request) starts it
//! only when its turn comes. So the engine queues the values themselves and keeps the
//! closure in its shared state ([`Deferred`]); the thread that subscribes the next inner
//! (the outer observer, or the one whose inner completed) takes it under the engine's lock,
//! calls it with the lock released, and gives it back at its next lock. The engine subscribes
//! one inner at a time, so nobody else needs it meanwhile: no allocation and no atomic
//! operation beyond the engine's own.

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::engine::projection::{Lend, Projector};
use std::fmt;
use std::marker::PhantomData;

/// Maps each value to an observable and emits their values one observable after another;
/// built by [`ObservableExt::concat_map`](crate::ObservableExt::concat_map).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "concatMap")]
pub struct ConcatMap<'a, S, F> {
    source: S,
    f: F,
    _handles: PhantomData<&'a ()>,
}

impl<S, F> ConcatMap<'_, S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        ConcatMap {
            source,
            f,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for ConcatMap<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConcatMap")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

forward_to_flat_map!(
    ConcatMap<'a, S, F>,
    f = Projection<F>,
    |this| FlatMap::with_mode(this.source, Projection(Some(this.f)), Mode::CONCAT)
);

/// The projection of a [`ConcatMap`] subscription: it hands each value to the engine as it
/// is, and lends the engine its closure once, when the engine is built.
pub struct Projection<F>(Option<F>);

impl<V, F, U> Projector<V> for Projection<F>
where
    F: FnMut(V) -> U,
{
    type Inner = U;
    type Lent = Deferred<V, F>;

    #[inline]
    fn lend(&mut self) -> Deferred<V, F> {
        Deferred {
            f: self.0.take(),
            _values: PhantomData,
        }
    }

    #[inline]
    fn project(&mut self, value: V) -> V {
        value
    }
}

impl<F> fmt::Debug for Projection<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Projection")
    }
}

/// The closure of a [`ConcatMap`] subscription, kept in the engine's state and lent to the
/// thread that subscribes the next inner, which maps the waiting value with it.
pub struct Deferred<V, F> {
    /// `None` while lent out.
    f: Option<F>,
    _values: PhantomData<fn(V)>,
}

impl<V, F, U> Lend for Deferred<V, F>
where
    F: FnMut(V) -> U,
{
    type Queued = V;
    type Inner = U;
    const KEPT: bool = true;

    #[inline]
    fn take(&mut self) -> Self {
        Deferred {
            f: self.f.take(),
            _values: PhantomData,
        }
    }

    #[inline]
    fn give_back(&mut self, lent: Self) {
        debug_assert!(self.f.is_none(), "the projection was lent twice");
        self.f = lent.f;
    }

    #[inline]
    fn inner(&mut self, value: V) -> U {
        // The engine lends the closure to one subscribing thread at a time and takes it
        // before every inner it subscribes: it is here.
        let f = self
            .f
            .as_mut()
            .expect("the projection is lent to the thread that subscribes");
        f(value)
    }
}

impl<V, F> fmt::Debug for Deferred<V, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Deferred")
    }
}

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
    fn maps_each_value_when_its_turn_comes() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        // The projection runs on whichever thread completes the previous inner, so an
        // inner that needs a `Send` observer needs a `Send` projection.
        let mapped = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let inner_sch = sch.clone();
        let mapped_in = mapped.clone();
        from_iter([1, 2, 3])
            .concat_map(move |v| {
                mapped_in.lock().unwrap().push((v, inner_sch.now()));
                cold(&inner_sch, [(ms(10), Next(v * 10)), (ms(10), Completed)])
            })
            .subscribe_observer(o.clone());
        // Only the first inner is subscribed, so only the first value is mapped.
        assert_eq!(mapped.lock().unwrap().len(), 1);
        sch.run();
        let mapped = mapped.lock().unwrap();
        let start = mapped[0].1;
        let at: Vec<_> = mapped.iter().map(|&(v, t)| (v, t - start)).collect();
        assert_eq!(at, [(1, ms(0)), (2, ms(10)), (3, ms(20))]);
        o.assert_timeline(&[
            (ms(10), Next(10)),
            (ms(20), Next(20)),
            (ms(30), Next(30)),
            (ms(30), Completed),
        ]);
    }

    #[test]
    fn a_projection_with_side_effects_runs_once_per_value_in_order() {
        let calls = std::cell::Cell::new(0);
        let o = TestObserver::new();
        from_iter(1..=1000)
            .concat_map(|v| {
                calls.set(calls.get() + 1);
                just(v)
            })
            .subscribe_observer(o.clone());
        assert_eq!(calls.get(), 1000);
        assert_eq!(o.values(), (1..=1000).collect::<Vec<_>>());
        o.assert_completed();
    }

    #[test]
    fn values_never_subscribed_are_never_mapped() {
        let calls = std::sync::atomic::AtomicUsize::new(0);
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .concat_map(|v| {
                calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if v == 1 {
                    throw(Error::msg("first")).boxed()
                } else {
                    just(v).boxed()
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("first"))]);
        assert_eq!(calls.into_inner(), 1);
    }

    #[test]
    fn inners_completing_on_other_threads_map_the_next_value_there() {
        let (tx, rx) = std::sync::mpsc::channel();
        let o = TestObserver::new();
        let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = calls.clone();
        from_iter(0..3)
            .concat_map(move |v| {
                counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let tx = tx.clone();
                crate::source::create_owned(move |emitter| tx.send((v, emitter)).unwrap())
            })
            .subscribe_observer(o.clone());
        for expected in 0..3 {
            let (v, mut emitter) = rx.recv().unwrap();
            assert_eq!(v, expected);
            assert_eq!(
                calls.load(std::sync::atomic::Ordering::SeqCst),
                expected + 1
            );
            std::thread::spawn(move || {
                emitter.on_next(v);
                emitter.on_completed();
            })
            .join()
            .unwrap();
        }
        o.assert_values(&[0, 1, 2]);
        o.assert_completed();
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
