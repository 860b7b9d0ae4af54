//! [`ObservableExt::zip`](crate::ObservableExt::zip),
//! [`ObservableExt::zip_with`](crate::ObservableExt::zip_with) and the n-ary
//! [`zip`](crate::source::zip): the n-th values of several sources, together.
//!
//! Each source keeps a queue of the values not yet paired in its [`ZipSlot`]; the engine in
//! `combine_core` serialises delivery and disposes the sources at the end.

use crate::Error;
use crate::engine::combine_core::{
    CombineCore, CombineLink, CombineSubscription, CombineWithObserver, Step, subscribe_inline,
};
use crate::engine::combine_slots::{
    Buffer, Handle, RowSlot, RowSlots, Slot, SlotAt, for_each_tuple, item_row,
};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Emits tuples of the n-th values of several observables; built by
/// [`ObservableExt::zip`](crate::ObservableExt::zip) and [`zip`](crate::source::zip).
///
/// The lifetime `'a` bounds what the sources' handles borrow; it is inferred.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "zipWith")]
pub struct Zip<'a, S> {
    sources: S,
    _handles: PhantomData<&'a ()>,
}

impl<S> Zip<'_, S> {
    pub(crate) fn new(sources: S) -> Self {
        Zip {
            sources,
            _handles: PhantomData,
        }
    }
}

/// What one source of [`Zip`] has contributed: its values not yet paired, whether it has
/// completed, and its handle.
pub struct ZipSlot<'a, T, F: Flavour = Shared> {
    values: Buffer<T>,
    done: bool,
    handle: Option<Handle<'a, F>>,
}

impl<T, F: Flavour> ZipSlot<'_, T, F> {
    fn new() -> Self {
        ZipSlot {
            values: Buffer::new(),
            done: false,
            handle: None,
        }
    }
}

impl<'a, T, F: Flavour> Slot<'a> for ZipSlot<'a, T, F> {
    type Flavour = F;

    fn handle(&mut self) -> &mut Option<Handle<'a, F>> {
        &mut self.handle
    }
}

impl<T, F: Flavour> RowSlot for ZipSlot<'_, T, F> {
    type Item = T;

    #[inline]
    fn is_ready(&self) -> bool {
        !self.values.is_empty()
    }

    #[inline]
    fn take(&mut self) -> T {
        self.values
            .pop()
            .expect("zip: a row is taken only when every slot has a value")
    }

    #[inline]
    fn is_finished(&self) -> bool {
        self.done && self.values.is_empty()
    }
}

impl<T, F: Flavour> fmt::Debug for ZipSlot<'_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ZipSlot")
            .field("buffered", &self.values.len())
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

/// The observer [`Zip`] subscribes to its source number `I`.
pub struct ZipObserver<L, R, O, const I: usize> {
    core: CombineLink<L, R, O>,
}

impl<'a, T, L, R, O, F: Flavour, const I: usize> Observer<T> for ZipObserver<L, R, O, I>
where
    L: RowSlots<Row = R> + SlotAt<I, Slot = ZipSlot<'a, T, F>>,
    O: Observer<R>,
{
    fn on_next(&mut self, value: T) {
        self.core.update(|slots, rows| {
            slots.at().values.push(value);
            // Before this value some queue was empty, so at most one row is complete now;
            // taking it may leave a completed source with nothing left to pair.
            if slots.is_ready() {
                rows.push(slots.take_row());
                if slots.any_finished() {
                    return (Step::Complete, ());
                }
            }
            (Step::Continue, ())
        });
    }

    fn on_error(self, error: Error) {
        self.core.update(|_, _| (Step::Fail(error), ()));
    }

    fn on_completed(self) {
        self.core.update(|slots, _| {
            let slot = slots.at();
            slot.done = true;
            // With values still queued, the zip goes on until they are paired.
            let next = if slot.values.is_empty() {
                Step::Complete
            } else {
                Step::Continue
            };
            (next, ())
        });
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_stopped()
    }
}

impl<L, R, O, const I: usize> fmt::Debug for ZipObserver<L, R, O, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ZipObserver")
            .field("source", &I)
            .finish_non_exhaustive()
    }
}

/// The slots of a zip of the sources `[S0 S1 ..]`, as a type.
macro_rules! zip_slots {
    ($a:lifetime $all:tt) => { zip_slots!(@ $a $all $all) };
    (@ $a:lifetime [$($S:ident)+] $all:tt) => {
        ($(ZipSlot<$a, <$S as Observable>::Item, crate::observable::joined_flavour!($all)>,)+)
    };
}

macro_rules! zip_impls {
    ($all:tt $($i:tt $S:ident),+) => {
        impl<$($S: Observable),+> Observable for Zip<'_, ($($S,)+)> {
            type Item = ($($S::Item,)+);
            type Flavour = crate::observable::joined_flavour!($($S),+);
            const EMISSION: crate::observable::Emission =
                crate::observable::Emission::INSIDE_SUBSCRIBE $(.and(<$S as Observable>::EMISSION))+;
        }

        impl<'a, $($S,)+ O> Subscribe<O> for Zip<'a, ($($S,)+)>
        where
            $(
                $S: Subscribe<ZipObserver<zip_slots!('a $all), item_row!($all), O, $i>>,
                crate::observable::joined_flavour!($all): BoxSubscription<
                    'a,
                    <$S as Subscribe<ZipObserver<zip_slots!('a $all), item_row!($all), O, $i>>>
                        ::Subscription,
                >,
            )+
            O: Observer<item_row!($all)>,
        {
            type Subscription = CombineSubscription<zip_slots!('a $all), item_row!($all), O>;

            fn subscribe_observer(self, observer: O) -> Self::Subscription {
                let slots = ($(ZipSlot::<<$S as Observable>::Item, _>::new(),)+);
                if const { <Self as Observable>::EMISSION.is_inside_subscribe() } {
                    // SAFETY: every source finishes inside its `subscribe` (the constant), and
                    // each link goes to one of them, subscribed here.
                    return unsafe {
                        subscribe_inline(slots, observer, |state| {
                            $(if let Some(core) = state.link() {
                                drop(self.sources.$i.subscribe_observer(ZipObserver::<_, _, _, $i> { core }));
                            })+
                        })
                    };
                }
                let core = Arc::new(CombineCore::new(slots, observer));
                $(
                    // A source that ended the zip inside its `subscribe` (an empty one)
                    // spares the rest from being subscribed at all, as in RxJava.
                    if !core.is_stopped() {
                        let handle = self.sources.$i.subscribe_observer(ZipObserver::<_, _, _, $i> {
                            core: CombineLink::Core(core.clone()),
                        });
                        core.set_handle::<$i, _>(handle);
                    }
                )+
                CombineSubscription::new(core)
            }
        }
    };
}

for_each_tuple!(zip_impls);

/// Combines the n-th values of two observables with a closure; built by
/// [`ObservableExt::zip_with`](crate::ObservableExt::zip_with).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "zipWith")]
pub struct ZipWith<'a, S1, S2, F> {
    zip: Zip<'a, (S1, S2)>,
    f: F,
}

impl<S1, S2, F> ZipWith<'_, S1, S2, F> {
    pub(crate) fn new(first: S1, second: S2, f: F) -> Self {
        ZipWith {
            zip: Zip::new((first, second)),
            f,
        }
    }
}

impl<S1, S2, F, U> Observable for ZipWith<'_, S1, S2, F>
where
    S1: Observable,
    S2: Observable,
    F: FnMut(S1::Item, S2::Item) -> U,
{
    type Item = U;
    type Flavour = crate::sync::Joined<<S1 as Observable>::Flavour, <S2 as Observable>::Flavour>;
    const EMISSION: crate::observable::Emission = S1::EMISSION.and(S2::EMISSION);
}

impl<'a, S1, S2, F, U, O> Subscribe<O> for ZipWith<'a, S1, S2, F>
where
    S1: Observable,
    S2: Observable,
    F: FnMut(S1::Item, S2::Item) -> U,
    Zip<'a, (S1, S2)>: Subscribe<CombineWithObserver<O, F>>,
{
    type Subscription = <Zip<'a, (S1, S2)> as Subscribe<CombineWithObserver<O, F>>>::Subscription;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.zip
            .subscribe_observer(CombineWithObserver::new(observer, self.f))
    }
}

impl<S1: fmt::Debug, S2: fmt::Debug, F> fmt::Debug for ZipWith<'_, S1, S2, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ZipWith")
            .field("sources", &self.zip.sources)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::Notification::{Completed, Next};
    use crate::prelude::*;
    use crate::source::{create, defer, empty, from_iter, just, never, throw};
    use crate::test_kit::inline::{Later, both};
    use crate::testing::TestObserver;
    use std::cell::Cell;

    #[test]
    fn sources_that_finish_inside_subscribe_give_the_same_notifications_on_both_paths() {
        both(
            from_iter([1, 2, 3]).zip(from_iter([10, 20])),
            Later(from_iter([1, 2, 3])).zip(from_iter([10, 20])),
            &[Next((1, 10)), Next((2, 20)), Completed],
        );
        both(
            just(1).zip(throw::<i32>(Error::msg("boom"))),
            Later(just(1)).zip(throw::<i32>(Error::msg("boom"))),
            &[crate::Notification::Error(Error::msg("boom"))],
        );
        both(
            empty::<i32>().zip(just(1)),
            Later(empty::<i32>()).zip(just(1)),
            &[Completed],
        );
    }

    #[test]
    fn pairs_the_nth_values_and_completes_with_the_shorter() {
        let o = TestObserver::new();
        let handle = from_iter([1, 2, 3])
            .zip(from_iter(["a", "b"]))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((1, "a")), Next((2, "b")), Completed]);
        assert!(handle.is_disposed());

        let o = TestObserver::new();
        from_iter([1, 2])
            .zip(from_iter(["a", "b", "c"]))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((1, "a")), Next((2, "b")), Completed]);
    }

    #[test]
    fn an_empty_source_completes_at_once_and_spares_the_others() {
        let subscribed = Cell::new(false);
        let o = TestObserver::<(i32, i32)>::new();
        empty()
            .zip(defer(|| {
                subscribed.set(true);
                just(1)
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
        assert!(!subscribed.get());

        let o = TestObserver::<(i32, i32)>::new();
        just(1).zip(empty()).subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn a_completed_source_with_buffered_values_waits_for_them_to_be_paired() {
        // The first source completes with [1, 2, 3] buffered; the second then pairs two of
        // them and stays silent: the zip must not complete, as 3 may still be paired.
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .zip(create(|mut e| {
                e.on_next('a');
                e.on_next('b');
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((1, 'a')), Next((2, 'b'))]);

        // Its last buffered value paired: completion follows at once, and the second source
        // is told to stop.
        let o = TestObserver::new();
        let emitted_after_end = Cell::new(false);
        from_iter([1, 2])
            .zip(create(|mut e| {
                e.on_next('a');
                e.on_next('b');
                emitted_after_end.set(!e.is_disposed());
                e.on_next('c');
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((1, 'a')), Next((2, 'b')), Completed]);
        assert!(!emitted_after_end.get());
    }

    #[test]
    fn an_error_from_either_side_ends_at_once() {
        let o = TestObserver::<(i32, i32)>::new();
        throw(Error::msg("left"))
            .zip(just(1))
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_error("left");

        // Buffered values are dropped: the error is not delayed behind them.
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .zip(create(|mut e| {
                e.on_next('a');
                e.on_error(Error::msg("right"));
            }))
            .subscribe_observer(o.clone());
        o.assert_values(&[(1, 'a')]);
        o.assert_error("right");
    }

    #[test]
    fn never_completes_while_a_source_is_silent() {
        let o = TestObserver::<(i32, i32)>::new();
        let handle = just(1).zip(never()).subscribe_observer(o.clone());
        o.assert_not_terminated();
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(handle.is_disposed());
        o.assert_not_terminated();
    }

    #[test]
    fn zip_with_combines_each_pair() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .zip_with(from_iter([10, 20, 30, 40]), |a, b| a + b)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(11), Next(22), Next(33), Completed]);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_second_source() {
        let o = TestObserver::new();
        let emitted = Cell::new(0);
        from_iter(0..5)
            .zip(from_iter(0..).tap(|_| emitted.set(emitted.get() + 1)))
            .take(3)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((0, 0)), Next((1, 1)), Next((2, 2)), Completed]);
        assert_eq!(emitted.get(), 3);

        // Disposed from outside before a value: that value is not delivered.
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..5)
            .zip(from_iter(0..).tap(move |v| {
                if *v == 2 {
                    probe.dispose();
                }
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((0, 0)), Next((1, 1))]);
    }

    #[test]
    fn a_disposed_downstream_subscribes_nothing() {
        let subscribed = Cell::new(false);
        let o = TestObserver::<(i32, i32)>::new();
        o.dispose();
        just(1)
            .zip(defer(|| {
                subscribed.set(true);
                just(2)
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert!(!subscribed.get());
    }

    #[test]
    fn borrows_from_the_stack() {
        let offset = 100;
        let mut seen = Vec::new();
        from_iter([1, 2])
            .zip_with(from_iter([3, 4]), |a, b| a * b + offset)
            .subscribe(|v| seen.push(v));
        assert_eq!(seen, [103, 108]);
    }
}

/// Loom models of the engine in `combine_core`, driven through zip's observers. Run with
/// `RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=2 cargo test --profile loom --lib loom_`.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::{ZipObserver, ZipSlot};
    use crate::Error;
    use crate::engine::combine_core::{CombineCore, CombineLink, CombineSubscription};
    use crate::observer::Observer;
    use crate::primitive::{Arc, AtomicBool, AtomicUsize, Ordering, thread};
    use crate::subscription::Subscription;

    /// Records deliveries with loom atomics, so loom can interleave other threads inside a
    /// delivery and catch two at once.
    #[derive(Clone)]
    struct Probe(Arc<ProbeState>);

    #[derive(Default)]
    struct ProbeState {
        busy: AtomicBool,
        overlapped: AtomicBool,
        values: AtomicUsize,
        terminals: AtomicUsize,
        after_terminal: AtomicBool,
    }

    impl Probe {
        fn enter(&self) {
            if self.0.busy.swap(true, Ordering::SeqCst) {
                self.0.overlapped.store(true, Ordering::SeqCst);
            }
            if self.0.terminals.load(Ordering::SeqCst) > 0 {
                self.0.after_terminal.store(true, Ordering::SeqCst);
            }
        }

        fn leave(&self) {
            self.0.busy.store(false, Ordering::SeqCst);
        }

        fn check(&self, values: usize, terminals: usize) {
            assert!(
                !self.0.overlapped.load(Ordering::SeqCst),
                "two deliveries overlapped"
            );
            assert!(
                !self.0.after_terminal.load(Ordering::SeqCst),
                "a delivery after the end"
            );
            assert_eq!(self.0.values.load(Ordering::SeqCst), values);
            assert_eq!(self.0.terminals.load(Ordering::SeqCst), terminals);
        }
    }

    impl Observer<(i32, i32)> for Probe {
        fn on_next(&mut self, _: (i32, i32)) {
            self.enter();
            self.0.values.fetch_add(1, Ordering::SeqCst);
            self.leave();
        }
        fn on_error(self, _: Error) {
            self.enter();
            self.0.terminals.fetch_add(1, Ordering::SeqCst);
            self.leave();
        }
        fn on_completed(self) {
            self.enter();
            self.0.terminals.fetch_add(1, Ordering::SeqCst);
            self.leave();
        }
    }

    type Slots = (ZipSlot<'static, i32>, ZipSlot<'static, i32>);

    fn zip_core(probe: &Probe) -> Arc<CombineCore<Slots, (i32, i32), Probe>> {
        Arc::new(CombineCore::new(
            (ZipSlot::new(), ZipSlot::new()),
            probe.clone(),
        ))
    }

    #[test]
    fn loom_zip_from_two_threads() {
        loom::model(|| {
            let probe = Probe(Arc::default());
            let core = zip_core(&probe);
            let mut a = ZipObserver::<_, _, _, 0> {
                core: CombineLink::Core(core.clone()),
            };
            let mut b = ZipObserver::<_, _, _, 1> {
                core: CombineLink::Core(core),
            };
            let t = thread::spawn(move || {
                a.on_next(1);
                a.on_next(2);
                a.on_completed();
            });
            b.on_next(10);
            b.on_next(20);
            b.on_completed();
            t.join().unwrap();
            probe.check(2, 1);
        });
    }

    #[test]
    fn loom_error_races_with_a_pair() {
        loom::model(|| {
            let probe = Probe(Arc::default());
            let core = zip_core(&probe);
            let mut a = ZipObserver::<_, _, _, 0> {
                core: CombineLink::Core(core.clone()),
            };
            let b = ZipObserver::<_, _, _, 1> {
                core: CombineLink::Core(core),
            };
            let t = thread::spawn(move || {
                a.on_next(1);
                a.on_completed();
            });
            b.on_error(Error::msg("b"));
            t.join().unwrap();
            // The error wins: the pair can never be made.
            probe.check(0, 1);
        });
    }

    #[test]
    fn loom_dispose_races_with_delivery() {
        loom::model(|| {
            let probe = Probe(Arc::default());
            let core = zip_core(&probe);
            let handle = CombineSubscription::new(core.clone());
            let mut a = ZipObserver::<_, _, _, 0> {
                core: CombineLink::Core(core.clone()),
            };
            let mut b = ZipObserver::<_, _, _, 1> {
                core: CombineLink::Core(core),
            };
            let t = thread::spawn(move || {
                a.on_next(1);
                b.on_next(2);
                b.on_completed();
            });
            handle.dispose();
            t.join().unwrap();
            assert!(handle.is_disposed());
            let values = probe.0.values.load(Ordering::SeqCst);
            let terminals = probe.0.terminals.load(Ordering::SeqCst);
            assert!(values <= 1 && terminals <= values);
            probe.check(values, terminals);
        });
    }
}
