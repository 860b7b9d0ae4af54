//! [`fork_join_all`](crate::source::fork_join_all),
//! [`combine_latest_all`](crate::source::combine_latest_all) and
//! [`zip_all`](crate::source::zip_all): the engine of `combine_core`, over a `Vec` of
//! sources of one type instead of a tuple.
//!
//! The slots are an array inline in the shared state for up to two sources, and a `Vec` for more;
//! each source's observer knows its index at run time. The engine stores a source's handle in "slot
//! 0" of its slots; here that is whichever slot the cursor points at, and the cursor is moved,
//! under the engine's lock, before each source's handle is stored. Only the subscribing thread
//! moves it, so the engine needs no change for slots it cannot index at compile time. What each
//! operator does with a value or a completion is a [`Kind`]; counters of slots still missing a
//! value, and of finished slots, keep every decision but the making of a row O(1).

use crate::Error;
use crate::engine::combine_core::{
    CombineCore, CombineLink, CombineSubscription, Step, subscribe_inline,
};
use crate::engine::combine_slots::{Buffer, Handle, Slot, SlotAt, Slots};
use crate::observable::Emission;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::subscription::Subscription;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Shared};
use std::collections::VecDeque;
use std::fmt;
use std::marker::PhantomData;

/// Combines a `Vec` of observables of one type into `Vec`s of their values; built by
/// [`fork_join_all`](crate::source::fork_join_all),
/// [`combine_latest_all`](crate::source::combine_latest_all) and
/// [`zip_all`](crate::source::zip_all), whose `K` says how.
#[must_use = "observables do nothing unless subscribed"]
pub struct CombineAll<'a, S, K> {
    sources: Vec<S>,
    _kind: PhantomData<(K, &'a ())>,
}

impl<S, K> CombineAll<'_, S, K> {
    pub(crate) fn new(sources: Vec<S>) -> Self {
        CombineAll {
            sources,
            _kind: PhantomData,
        }
    }
}

impl<S: Clone, K> Clone for CombineAll<'_, S, K> {
    fn clone(&self) -> Self {
        CombineAll::new(self.sources.clone())
    }
}

impl<S: fmt::Debug, K> fmt::Debug for CombineAll<'_, S, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CombineAll")
            .field("sources", &self.sources)
            .field("kind", &std::any::type_name::<K>())
            .finish()
    }
}

/// [`fork_join_all`](crate::source::fork_join_all): the last value of each, once all have
/// completed.
#[doc(alias = "forkJoin")]
pub type ForkJoinAll<'a, S> = CombineAll<'a, S, LastValues>;
/// [`combine_latest_all`](crate::source::combine_latest_all): the latest value of each,
/// whenever one emits.
#[doc(alias = "combineLatest")]
pub type CombineLatestAll<'a, S> = CombineAll<'a, S, LatestValues>;
/// [`zip_all`](crate::source::zip_all): the `n`th value of each.
#[doc(alias = "zip")]
pub type ZipAll<'a, S> = CombineAll<'a, S, PairedValues>;

/// One source's part of the shared state.
pub struct VecSlot<'a, T, F: Flavour = Shared> {
    /// The last or latest value (fork_join, combine_latest).
    value: Option<T>,
    /// Values waiting for their row (zip).
    queue: VecDeque<T>,
    done: bool,
    handle: Option<Handle<'a, F>>,
}

/// How many sources a [`CombineAll`] keeps the slots of inline, in the shared state's own
/// allocation; more take a `Vec` of their own.
const INLINE: usize = 2;

/// The slots of a [`CombineAll`] subscription, one per source: inline for a few sources, so
/// the subscription allocates once for its shared state, or in a `Vec`.
enum SlotStore<'a, T, F: Flavour> {
    /// The first `len` of the array are the sources' slots; the rest are never touched.
    Inline([VecSlot<'a, T, F>; INLINE], usize),
    Heap(Vec<VecSlot<'a, T, F>>),
}

impl<'a, T, F: Flavour> SlotStore<'a, T, F> {
    fn new(n: usize) -> Self {
        if n <= INLINE {
            SlotStore::Inline(std::array::from_fn(|_| VecSlot::new()), n)
        } else {
            SlotStore::Heap((0..n).map(|_| VecSlot::new()).collect())
        }
    }
}

impl<'a, T, F: Flavour> std::ops::Deref for SlotStore<'a, T, F> {
    type Target = [VecSlot<'a, T, F>];

    #[inline]
    fn deref(&self) -> &Self::Target {
        match self {
            SlotStore::Inline(slots, len) => &slots[..*len],
            SlotStore::Heap(slots) => slots,
        }
    }
}

impl<T, F: Flavour> std::ops::DerefMut for SlotStore<'_, T, F> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Self::Target {
        match self {
            SlotStore::Inline(slots, len) => &mut slots[..*len],
            SlotStore::Heap(slots) => slots,
        }
    }
}

impl<T, F: Flavour> VecSlot<'_, T, F> {
    fn new() -> Self {
        VecSlot {
            value: None,
            queue: VecDeque::new(),
            done: false,
            handle: None,
        }
    }
}

/// The slots of a [`CombineAll`] subscription.
pub struct VecSlots<'a, T, F: Flavour = Shared> {
    slots: SlotStore<'a, T, F>,
    /// The slot whose handle is stored next.
    cursor: usize,
    /// Slots with no value (no latest value, or an empty queue).
    missing: usize,
    /// Slots whose source has completed.
    finished: usize,
}

impl<'a, T, F: Flavour> Slot<'a> for VecSlot<'a, T, F> {
    type Flavour = F;

    fn handle(&mut self) -> &mut Option<Handle<'a, F>> {
        &mut self.handle
    }
}

impl<T, F: Flavour> Slots for VecSlots<'_, T, F> {
    fn dispose(&mut self) {
        for slot in self.slots.iter_mut() {
            if let Some(handle) = slot.handle.take() {
                handle.dispose();
            }
        }
    }

    fn has_handles(&mut self) -> bool {
        self.slots.iter().any(|slot| slot.handle.is_some())
    }
}

impl<'a, T, F: Flavour> SlotAt<0> for VecSlots<'a, T, F> {
    type Slot = VecSlot<'a, T, F>;

    fn at(&mut self) -> &mut VecSlot<'a, T, F> {
        &mut self.slots[self.cursor]
    }
}

impl<T, F: Flavour> fmt::Debug for VecSlots<'_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VecSlots")
            .field("len", &self.slots.len())
            .field("missing", &self.missing)
            .field("finished", &self.finished)
            .finish()
    }
}

impl<T, F: Flavour> fmt::Debug for VecSlot<'_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VecSlot")
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

/// What a [`CombineAll`] does with each notification of a source: [`LastValues`],
/// [`LatestValues`] or [`PairedValues`].
pub(crate) trait Kind<T> {
    /// A value from source `i`; returns whether the sequence completes, and what replaced
    /// value to drop once the lock is released.
    fn next<F: Flavour>(
        slots: &mut VecSlots<'_, T, F>,
        i: usize,
        value: T,
        rows: &mut Buffer<Vec<T>>,
    ) -> (bool, Option<T>);
    /// Source `i` completed: whether the sequence completes.
    fn completed<F: Flavour>(
        slots: &mut VecSlots<'_, T, F>,
        i: usize,
        rows: &mut Buffer<Vec<T>>,
    ) -> bool;
}

/// How [`fork_join_all`](crate::source::fork_join_all) combines.
#[derive(Debug)]
pub enum LastValues {}
/// How [`combine_latest_all`](crate::source::combine_latest_all) combines.
#[derive(Debug)]
pub enum LatestValues {}
/// How [`zip_all`](crate::source::zip_all) combines.
#[derive(Debug)]
pub enum PairedValues {}

fn replace<T, F: Flavour>(slots: &mut VecSlots<'_, T, F>, i: usize, value: T) -> Option<T> {
    let previous = slots.slots[i].value.replace(value);
    if previous.is_none() {
        slots.missing -= 1;
    }
    previous
}

impl<T> Kind<T> for LastValues {
    fn next<F: Flavour>(
        slots: &mut VecSlots<'_, T, F>,
        i: usize,
        value: T,
        _: &mut Buffer<Vec<T>>,
    ) -> (bool, Option<T>) {
        (false, replace(slots, i, value))
    }

    fn completed<F: Flavour>(
        slots: &mut VecSlots<'_, T, F>,
        i: usize,
        rows: &mut Buffer<Vec<T>>,
    ) -> bool {
        if slots.slots[i].value.is_none() {
            return true;
        }
        if slots.finished == slots.slots.len() {
            let row = slots
                .slots
                .iter_mut()
                .filter_map(|s| s.value.take())
                .collect();
            rows.push(row);
            return true;
        }
        false
    }
}

impl<T: Clone> Kind<T> for LatestValues {
    fn next<F: Flavour>(
        slots: &mut VecSlots<'_, T, F>,
        i: usize,
        value: T,
        rows: &mut Buffer<Vec<T>>,
    ) -> (bool, Option<T>) {
        let previous = replace(slots, i, value);
        if slots.missing == 0 {
            let mut row = Vec::with_capacity(slots.slots.len());
            row.extend(slots.slots.iter().filter_map(|s| s.value.clone()));
            rows.push(row);
        }
        (false, previous)
    }

    fn completed<F: Flavour>(
        slots: &mut VecSlots<'_, T, F>,
        i: usize,
        _: &mut Buffer<Vec<T>>,
    ) -> bool {
        slots.slots[i].value.is_none() || slots.finished == slots.slots.len()
    }
}

impl<T> Kind<T> for PairedValues {
    fn next<F: Flavour>(
        slots: &mut VecSlots<'_, T, F>,
        i: usize,
        value: T,
        rows: &mut Buffer<Vec<T>>,
    ) -> (bool, Option<T>) {
        let slot = &mut slots.slots[i];
        if slot.queue.is_empty() {
            slots.missing -= 1;
        }
        slot.queue.push_back(value);
        if slots.missing == 0 {
            let mut row = Vec::with_capacity(slots.slots.len());
            let mut exhausted = false;
            for slot in slots.slots.iter_mut() {
                row.extend(slot.queue.pop_front());
                if slot.queue.is_empty() {
                    slots.missing += 1;
                    // A finished source whose last value this row took: no row can follow.
                    exhausted |= slot.done;
                }
            }
            rows.push(row);
            return (exhausted, None);
        }
        (false, None)
    }

    fn completed<F: Flavour>(
        slots: &mut VecSlots<'_, T, F>,
        i: usize,
        _: &mut Buffer<Vec<T>>,
    ) -> bool {
        // A finished source with nothing left queued can never make another row.
        slots.slots[i].queue.is_empty() || slots.slots.iter().any(|s| s.done && s.queue.is_empty())
    }
}

/// The observer [`CombineAll`] subscribes to each of its sources.
pub struct CombineAllObserver<'a, T, O, K, F: Flavour = Shared> {
    link: VecLink<'a, T, O, F>,
    index: usize,
    _kind: PhantomData<fn() -> K>,
}

/// Where a source's notifications go (see [`CombineLink`]).
type VecLink<'a, T, O, F> = CombineLink<VecSlots<'a, T, F>, Vec<T>, O>;

impl<T, O, K, F: Flavour> Observer<T> for CombineAllObserver<'_, T, O, K, F>
where
    O: Observer<Vec<T>>,
    K: Kind<T>,
{
    fn on_next(&mut self, value: T) {
        let i = self.index;
        self.link.update(|slots, rows| {
            let (complete, garbage) = K::next(slots, i, value, rows);
            let step = if complete {
                Step::Complete
            } else {
                Step::Continue
            };
            (step, garbage)
        });
    }

    fn on_error(self, error: Error) {
        self.link.update(|_, _| (Step::Fail(error), ()));
    }

    fn on_completed(self) {
        let i = self.index;
        self.link.update(|slots, rows| {
            slots.slots[i].done = true;
            slots.finished += 1;
            let step = if K::completed(slots, i, rows) {
                Step::Complete
            } else {
                Step::Continue
            };
            (step, ())
        });
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.link.is_stopped()
    }
}

impl<T, O, K, F: Flavour> fmt::Debug for CombineAllObserver<'_, T, O, K, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CombineAllObserver")
            .field("source", &self.index)
            .finish_non_exhaustive()
    }
}

impl<S: Observable, K> Observable for CombineAll<'_, S, K> {
    type Item = Vec<S::Item>;
    type Flavour = <S as Observable>::Flavour;
    // Sources that finish inside `subscribe` are combined on the stack, and have ended the
    // sequence (every rule ends it once all sources have ended) when it returns.
    const EMISSION: Emission = S::EMISSION;
}

/// The observer [`CombineAll`] subscribes to each source, as a type.
type SourceObserver<'a, S, O, K> =
    CombineAllObserver<'a, <S as Observable>::Item, O, K, <S as Observable>::Flavour>;

impl<'a, S, K, O> Subscribe<O> for CombineAll<'a, S, K>
where
    S: Subscribe<SourceObserver<'a, S, O, K>>,
    <S as Observable>::Flavour:
        BoxSubscription<'a, <S as Subscribe<SourceObserver<'a, S, O, K>>>::Subscription>,
    K: Kind<<S as Observable>::Item>,
    O: Observer<Vec<<S as Observable>::Item>>,
{
    type Subscription = CombineSubscription<
        VecSlots<'a, <S as Observable>::Item, <S as Observable>::Flavour>,
        Vec<<S as Observable>::Item>,
        O,
    >;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let n = self.sources.len();
        let slots = VecSlots {
            slots: SlotStore::new(n),
            cursor: 0,
            missing: n,
            finished: 0,
        };
        if const { S::EMISSION.is_inside_subscribe() } {
            // SAFETY: every source finishes inside its `subscribe` (the constant), and each
            // link goes to one of them, subscribed here. Their handles have nothing left to
            // cancel, so none is kept.
            return unsafe {
                subscribe_inline(slots, observer, |state| {
                    if n == 0 {
                        state.update(|_, _| (Step::Complete, ()));
                    }
                    for (index, source) in self.sources.into_iter().enumerate() {
                        let Some(link) = state.link() else {
                            break;
                        };
                        drop(source.subscribe_observer(CombineAllObserver {
                            link,
                            index,
                            _kind: PhantomData,
                        }));
                    }
                })
            };
        }
        let core = Arc::new(CombineCore::new(slots, observer));
        if n == 0 {
            // Nothing can ever be combined.
            core.update(|_, _| (Step::Complete, ()));
        }
        for (index, source) in self.sources.into_iter().enumerate() {
            // A source that ended the sequence inside its `subscribe` spares the rest.
            if core.is_stopped() {
                break;
            }
            let handle = source.subscribe_observer(CombineAllObserver {
                link: CombineLink::Core(core.clone()),
                index,
                _kind: PhantomData,
            });
            if !handle.is_disposed() {
                core.update(|slots, _| {
                    slots.cursor = index;
                    (Step::Continue, ())
                });
                core.set_handle::<0, _>(handle);
            }
        }
        CombineSubscription::new(core)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::observable::Subscribe;
    use crate::prelude::*;
    use crate::source::{combine_latest_all, fork_join_all, from_iter, just, zip_all};
    use crate::testing::TestObserver;
    use std::cell::Cell;

    use crate::test_kit::inline::{Later, both};

    fn later<S>(sources: Vec<S>) -> Vec<Later<S>> {
        sources.into_iter().map(Later).collect()
    }

    fn sources() -> Vec<crate::source::FromIter<Vec<i32>>> {
        vec![
            from_iter(vec![1, 2]),
            from_iter(vec![10]),
            from_iter(vec![20, 30]),
        ]
    }

    #[test]
    fn the_three_kinds_give_the_same_notifications_on_both_paths() {
        both(
            combine_latest_all(sources()),
            combine_latest_all(later(sources())),
            &[Next(vec![2, 10, 20]), Next(vec![2, 10, 30]), Completed],
        );
        both(
            zip_all(sources()),
            zip_all(later(sources())),
            &[Next(vec![1, 10, 20]), Completed],
        );
        both(
            fork_join_all(sources()),
            fork_join_all(later(sources())),
            &[Next(vec![2, 10, 30]), Completed],
        );
        for n in [1, 2, 3, 5] {
            let each = || {
                (0..n)
                    .map(|i| from_iter(vec![i, i + 10]))
                    .collect::<Vec<_>>()
            };
            let last: Vec<i32> = (0..n).map(|i| i + 10).collect();
            let mut first = last.clone();
            first[n as usize - 1] = n - 1;
            both(
                combine_latest_all(each()),
                combine_latest_all(later(each())),
                &[Next(first), Next(last), Completed],
            );
        }
    }

    #[test]
    fn completion_and_errors_on_both_paths() {
        both(
            combine_latest_all(Vec::<crate::source::Just<i32>>::new()),
            combine_latest_all(Vec::<Later<crate::source::Just<i32>>>::new()),
            &[Completed],
        );
        // A source that completes without a value ends the sequence and spares the rest.
        let subscribed = Cell::new(0);
        let counted = |values: Vec<i32>| {
            let subscribed = &subscribed;
            crate::source::defer(move || {
                subscribed.set(subscribed.get() + 1);
                from_iter(values.clone())
            })
        };
        let three = || vec![counted(vec![1]), counted(vec![]), counted(vec![3])];
        both(
            combine_latest_all(three()),
            combine_latest_all(later(three())),
            &[Completed],
        );
        assert_eq!(subscribed.get(), 4, "the third source is never subscribed");
        both(
            combine_latest_all(vec![fallible(Ok(1)), fallible(Err(Error::msg("boom")))]),
            combine_latest_all(later(vec![
                fallible(Ok(1)),
                fallible(Err(Error::msg("boom"))),
            ])),
            &[Error(Error::msg("boom"))],
        );
    }

    type Fallible = crate::operators::TryMap<crate::source::Just<Result<i32, Error>>, Identity>;
    type Identity = fn(Result<i32, Error>) -> Result<i32, Error>;

    fn fallible(value: Result<i32, Error>) -> Fallible {
        just(value).try_map(std::convert::identity as Identity)
    }

    #[test]
    fn endless_sources_stop_at_a_downstream_take_on_both_paths() {
        both(
            combine_latest_all(vec![
                from_iter(0..).take(1),
                from_iter(0..).take(usize::MAX),
            ])
            .take(3),
            combine_latest_all(later(vec![
                from_iter(0..).take(1),
                from_iter(0..).take(usize::MAX),
            ]))
            .take(3),
            &[
                Next(vec![0, 0]),
                Next(vec![0, 1]),
                Next(vec![0, 2]),
                Completed,
            ],
        );
    }

    #[test]
    fn a_disposed_downstream_gets_nothing_on_both_paths() {
        let a = TestObserver::<Vec<i32>>::new();
        a.dispose();
        combine_latest_all(vec![just(1), just(2)]).subscribe_observer(a.clone());
        combine_latest_all(later(vec![just(1), just(2)])).subscribe_observer(a.clone());
        a.assert_notifications(&[]);
    }
}
