//! [`ObservableExt::concat_map`](crate::ObservableExt::concat_map).
//!
//! The projection runs when its inner observable is subscribed, not when the value arrives
//! (RxJava's and RxJS's `concatMap`): a projection that starts work (a request) starts it
//! only when its turn comes. So the engine queues the values, each as a [`Deferred`] that
//! calls the projection on subscribe. The projection is shared by the outer observer and
//! whichever thread subscribes the next inner, behind a lock that is never contended: the
//! engine subscribes one inner at a time.

use crate::observable::{Observable, Subscribe};
use crate::operators::flat_map::{FlatMap, Mode, Project, forward_to_flat_map};
use crate::sync::{Arc, Mutex};
use std::fmt;

/// Maps each value to an observable and emits their values one observable after another;
/// built by [`ObservableExt::concat_map`](crate::ObservableExt::concat_map).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "concatMap")]
pub struct ConcatMap<'a, S, F> {
    source: S,
    f: F,
    _handles: std::marker::PhantomData<&'a ()>,
}

impl<S, F> ConcatMap<'_, S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        ConcatMap {
            source,
            f,
            _handles: std::marker::PhantomData,
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
    |this| FlatMap::with_mode(this.source, Projection::new(this.f), Mode::CONCAT)
);

/// The projection of a [`ConcatMap`] subscription, shared by the values waiting their turn.
pub struct Projection<F> {
    f: Arc<Mutex<F>>,
}

impl<F> Projection<F> {
    fn new(f: F) -> Self {
        Projection {
            f: Arc::new(Mutex::new(f)),
        }
    }
}

impl<V, F> Project<V> for Projection<F> {
    type Inner = Deferred<V, F>;

    #[inline]
    fn project(&mut self, value: V) -> Deferred<V, F> {
        Deferred {
            value,
            f: self.f.clone(),
        }
    }
}

impl<F> fmt::Debug for Projection<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Projection")
    }
}

/// A value of a [`ConcatMap`] waiting its turn: subscribing it maps it, then subscribes what
/// the projection returned.
pub struct Deferred<V, F> {
    value: V,
    f: Arc<Mutex<F>>,
}

impl<V, F, U> Observable for Deferred<V, F>
where
    F: FnMut(V) -> U,
    U: Observable,
{
    type Item = U::Item;
    type Flavour = <U as Observable>::Flavour;
}

impl<V, F, U, O> Subscribe<O> for Deferred<V, F>
where
    F: FnMut(V) -> U,
    U: Subscribe<O>,
{
    type Subscription = U::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> U::Subscription {
        // The lock is released before subscribing: the inner may run synchronously and
        // complete, and the engine then subscribes the next value's inner from here.
        let inner = (self.f.lock())(self.value);
        inner.subscribe_observer(observer)
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
