//! The flattening engine behind every operator that subscribes to inner observables:
//! `flat_map`, `try_flat_map`, `merge`, `merge_max`, `concat`, `concat_map`, `switch_map`,
//! `switch_on_next`, `exhaust_map` and the `merge` source are [`FlatMap`] with another
//! [`Mode`] or the identity for `f`.
//!
//! # How it works
//!
//! The outer observer maps each value to an inner observable and, by the mode, subscribes
//! it, queues it, replaces the running inner with it, or drops it. Values from every inner
//! go through the serialising [`MergeCore`]; the sequence completes when the outer and every inner
//! have completed. The state (how many inners run, the queue, the current inner of a switch)
//! sits under the core's lock, which is never held while an inner is subscribed, so an inner
//! that emits and completes inside `subscribe` (the common case: `just`, `from_iter`) calls
//! straight back in.
//!
//! Queued inners (`merge_max`, `concat`) are subscribed one at a time by whichever thread
//! frees a place: the *draining* flag makes it the only one subscribing, and it loops until
//! the queue is empty or the places are full, so a long run of synchronous inners uses a
//! loop, not the stack. An inner is subscribed through a function pointer built where its
//! bounds are proven: an inner observer whose impl required `U: Subscribe<Self>` would
//! overflow the trait solver.

use crate::Error;
use crate::engine::inline_merge::{Inline, InlineObserver, InlineOuter, MergeLink, StatePtr};
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::engine::projection::{Eager, Lend, Projector};
use crate::observable::{Emission, Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::collections::VecDeque;
use std::fmt;
use std::marker::PhantomData;

/// What the flattening engine does with a new inner observable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Subscribes at most `max` inners at once; queues the others.
    Merge { max: usize },
    /// Disposes the running inner and subscribes the new one.
    Switch,
    /// Drops the new inner while one runs.
    Exhaust,
}

impl Mode {
    pub(crate) const MERGE: Mode = Mode::Merge { max: usize::MAX };
    pub(crate) const CONCAT: Mode = Mode::Merge { max: 1 };
}

/// Maps each value to an observable and merges their values; built by
/// [`ObservableExt::flat_map`](crate::ObservableExt::flat_map).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "merge_map")]
#[doc(alias = "mergeMap")]
#[doc(alias = "flatMap")]
pub struct FlatMap<'a, S, F> {
    source: S,
    f: F,
    mode: Mode,
    _handles: PhantomData<&'a ()>,
}

impl<S, F> FlatMap<'_, S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        Self::with_mode(source, f, Mode::MERGE)
    }

    pub(crate) fn with_mode(source: S, f: F, mode: Mode) -> Self {
        FlatMap {
            source,
            f,
            mode,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for FlatMap<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatMap")
            .field("source", &self.source)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl<S, F, U> Observable for FlatMap<'_, S, F>
where
    S: Observable,
    F: Projector<S::Item, Inner = U>,
    U: Observable,
{
    type Item = U::Item;
    type Flavour = FlavourOf<S, U>;
    // Every inner is subscribed from inside the outer's calls.
    const EMISSION: Emission = S::EMISSION.and(U::EMISSION);
}

/// The flavour of the handles a [`FlatMap`] of outer `S` and inners `U` keeps.
type FlavourOf<S, U> = Joined<<S as Observable>::Flavour, <U as Observable>::Flavour>;

/// What the engine of a [`FlatMap`] of outer `S` keeps of its projection `F`.
type LentOf<S, F> = <F as Projector<<S as Observable>::Item>>::Lent;

/// The observer a [`FlatMap`] subscribes to its outer observable, on either path.
type OuterLink<'a, O, F, U, Fl, L> =
    MergeLink<FlatMapOuter<'a, O, F, U, Fl, L>, InlineOuter<O, F, L, U>>;

/// The observer a [`FlatMap`] subscribes to each inner observable, on either path.
type InnerLink<'a, O, U, Fl, L> = MergeLink<FlatMapInner<'a, O, U, Fl, L>, InlineObserver<O>>;

impl<'a, S, F, U, O> Subscribe<O> for FlatMap<'a, S, F>
where
    S: Subscribe<OuterLink<'a, O, F, U, FlavourOf<S, U>, LentOf<S, F>>>,
    FlavourOf<S, U>: BoxSubscription<
            'a,
            <S as Subscribe<OuterLink<'a, O, F, U, FlavourOf<S, U>, LentOf<S, F>>>>::Subscription,
        > + BoxSubscription<
            'a,
            <U as Subscribe<InnerLink<'a, O, U, FlavourOf<S, U>, LentOf<S, F>>>>::Subscription,
        >,
    F: Projector<<S as Observable>::Item, Inner = U>,
    U: Subscribe<InnerLink<'a, O, U, FlavourOf<S, U>, LentOf<S, F>>>,
    O: Observer<<U as Observable>::Item>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S, U>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            return MergeSubscription::empty();
        }
        let (mut f, mode) = (self.f, self.mode);
        let lent = f.lend();
        if const { <Self as Observable>::EMISSION.is_inside_subscribe() } {
            // The outer and every inner finish inside `subscribe`: the state is here, and the
            // mode does not matter, as no inner is still running when the next one arrives
            // (engine::inline_merge). The outer is what must complete.
            let state = Inline::new(observer, 1);
            // SAFETY: the outer and the inners emit only inside `subscribe`, on this thread,
            // and keep no observer (their `EMISSION`); `state` outlives the outer's
            // `subscribe`, inside which every inner is subscribed, and stays put.
            let ptr = unsafe { state.ptr() };
            let outer = InlineOuter::new(
                ptr,
                f,
                lent,
                subscribe_inline::<O, U, FlavourOf<S, U>, LentOf<S, F>>,
            );
            drop(self.source.subscribe_observer(MergeLink::inline(outer)));
            return MergeSubscription::empty();
        }
        let core =
            MergeCore::<_, _, _, FlavourOf<S, U>>::new_shared(observer, Flat::new(mode, lent));
        core.subscribe_upstream(self.source, |id| {
            MergeLink::core(FlatMapOuter {
                core: core.clone(),
                id,
                f,
                mode,
                subscribe: subscribe_inner::<O, U, FlavourOf<S, U>, LentOf<S, F>>,
            })
        });
        core.handle()
    }
}

/// Subscribes an inner of the inline path (engine::inline_merge), which completes inside.
fn subscribe_inline<'a, O, U, Fl, L>(state: StatePtr<O>, inner: U)
where
    U: Subscribe<InnerLink<'a, O, U, Fl, L>>,
    Fl: Flavour,
    L: Lend<Inner = U>,
{
    state.add_pending();
    drop(inner.subscribe_observer(MergeLink::inline(InlineObserver::new(state))));
}

/// The engine's state, under the core's lock.
struct Flat<L: Lend> {
    mode: Mode,
    /// Inners running, or reserved and about to be subscribed.
    active: usize,
    outer_done: bool,
    /// Whether a thread is subscribing queued inners (see [`drain`]).
    draining: bool,
    /// Inners waiting for a place (`Mode::Merge` only), or the values they are made of.
    queue: VecDeque<L::Queued>,
    /// The projection's part kept here, out while an inner is being subscribed.
    lent: L,
    /// `Mode::Switch`: the id of the newest inner, mirrored in the core's tag so inner
    /// observers can tell without the lock that they were replaced. Zero otherwise.
    current: u64,
}

impl<L: Lend> Flat<L> {
    fn new(mode: Mode, lent: L) -> Self {
        Flat {
            mode,
            active: 0,
            outer_done: false,
            draining: false,
            queue: VecDeque::new(),
            lent,
            current: 0,
        }
    }

    /// Whether inner `id` was replaced by a newer one (`switch`).
    fn is_stale(&self, id: u64) -> bool {
        self.current != 0 && self.current != id
    }

    fn is_finished(&self) -> bool {
        self.outer_done && self.active == 0 && self.queue.is_empty()
    }

    /// Whether a queued inner should be subscribed now by the caller, which then drains.
    fn should_drain(&self) -> bool {
        match self.mode {
            Mode::Merge { max } => !self.draining && self.active < max && !self.queue.is_empty(),
            Mode::Switch | Mode::Exhaust => false,
        }
    }
}

type FlatCore<'a, O, U, Fl, L> = MergeCore<'a, O, <U as Observable>::Item, Flat<L>, Fl>;

/// Subscribes an inner observable with the given id.
type SubscribeInner<'a, O, U, Fl, L> = fn(&Ptr<FlatCore<'a, O, U, Fl, L>, Fl>, U, u64);

fn subscribe_inner<'a, O, U, Fl, L>(core: &Ptr<FlatCore<'a, O, U, Fl, L>, Fl>, inner: U, id: u64)
where
    U: Subscribe<InnerLink<'a, O, U, Fl, L>>,
    Fl: Flavour + BoxSubscription<'a, <U as Subscribe<InnerLink<'a, O, U, Fl, L>>>::Subscription>,
    L: Lend<Inner = U>,
{
    let handle = inner.subscribe_observer(MergeLink::core(FlatMapInner {
        core: core.clone(),
        id,
        subscribe: subscribe_inner::<O, U, Fl, L>,
    }));
    core.end_subscribe(id, handle);
}

/// Subscribes queued inners while there are places; the caller has set `draining`, taken
/// the projection (`lent`, given back here) and subscribed one itself.
fn drain<'a, O, U: Observable, Fl: Flavour, L: Lend<Inner = U>>(
    core: &Ptr<FlatCore<'a, O, U, Fl, L>, Fl>,
    subscribe: SubscribeInner<'a, O, U, Fl, L>,
    mut lent: L,
) {
    loop {
        let mut locked = core.lock();
        let closed = locked.is_closed();
        let flat = locked.extra();
        flat.draining = false;
        flat.lent.give_back(lent);
        if closed || !flat.should_drain() {
            return;
        }
        flat.draining = true;
        flat.active += 1;
        let queued = flat.queue.pop_front();
        lent = flat.lent.take();
        let id = locked.begin_upstream();
        drop(locked);
        if let Some(queued) = queued {
            // The projection runs with the lock released: the inner it returns may complete
            // inside `subscribe`, and its completion takes the lock.
            let inner = lent.inner(queued);
            subscribe(core, inner, id);
        }
    }
}

/// The observer [`FlatMap`] (and the other flattening operators) subscribe to the outer
/// observable.
pub struct FlatMapOuter<'a, O, F, U: Observable, Fl: Flavour = Shared, L: Lend = Eager<U>> {
    core: Ptr<FlatCore<'a, O, U, Fl, L>, Fl>,
    id: u64,
    f: F,
    mode: Mode,
    subscribe: SubscribeInner<'a, O, U, Fl, L>,
}

impl<V, O, F, U, Fl: Flavour, L> Observer<V> for FlatMapOuter<'_, O, F, U, Fl, L>
where
    F: Projector<V, Inner = U, Lent = L>,
    L: Lend<Inner = U>,
    U: Observable,
    O: Observer<U::Item>,
{
    fn on_next(&mut self, value: V) {
        // `exhaust_map` does not even map a value that arrives while an inner runs.
        if self.mode == Mode::Exhaust && self.core.lock().extra().active > 0 {
            return;
        }
        let queued = self.f.project(value);
        let mut locked = self.core.lock();
        if locked.is_closed() {
            return;
        }
        let flat = locked.extra();
        match flat.mode {
            // Unbounded, nothing ever waits: no queue to drain afterwards.
            Mode::Merge { max: usize::MAX } => {}
            Mode::Merge { max } => {
                if flat.draining || flat.active >= max {
                    flat.queue.push_back(queued);
                    return;
                }
                flat.draining = true;
            }
            Mode::Exhaust => {
                if flat.active > 0 {
                    return;
                }
            }
            Mode::Switch => {
                if flat.active > 0 {
                    flat.active = 0;
                    let previous = flat.current;
                    locked.dispose_upstream(previous);
                }
            }
        }
        locked.extra().active += 1;
        let id = locked.begin_upstream();
        if self.mode == Mode::Switch {
            locked.extra().current = id;
            self.core.set_tag(id);
        }
        let mut lent = locked.extra().lent.take();
        // Releases the lock, then disposes the replaced inner (`switch`): before the new
        // one is subscribed.
        drop(locked);
        let inner = lent.inner(queued);
        (self.subscribe)(&self.core, inner, id);
        if let Mode::Merge { max } = self.mode
            && max != usize::MAX
        {
            drain::<O, U, Fl, L>(&self.core, self.subscribe, lent);
        } else if L::KEPT {
            // Only the outer observer subscribes inners in these modes: nobody else has
            // needed the projection meanwhile.
            self.core.lock().extra().lent.give_back(lent);
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        locked.error(error);
    }

    fn on_completed(self) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        if locked.is_closed() {
            return;
        }
        locked.extra().outer_done = true;
        if locked.extra().is_finished() {
            locked.complete();
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, F, U: Observable, Fl: Flavour, L: Lend> fmt::Debug for FlatMapOuter<'_, O, F, U, Fl, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatMapOuter")
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

/// The observer [`FlatMap`] (and the other flattening operators) subscribe to each inner
/// observable.
pub struct FlatMapInner<'a, O, U: Observable, Fl: Flavour = Shared, L: Lend = Eager<U>> {
    core: Ptr<FlatCore<'a, O, U, Fl, L>, Fl>,
    id: u64,
    subscribe: SubscribeInner<'a, O, U, Fl, L>,
}

impl<O, U, Fl: Flavour, L: Lend<Inner = U>> Observer<U::Item> for FlatMapInner<'_, O, U, Fl, L>
where
    U: Observable,
    O: Observer<U::Item>,
{
    #[inline]
    fn on_next(&mut self, value: U::Item) {
        if self.core.tag() == 0 {
            // Not `switch` (which tags the current inner before subscribing it): no inner is
            // ever stale, so the value needs no lock to be checked under.
            self.core.next(value);
            return;
        }
        let mut locked = self.core.lock();
        if locked.extra().is_stale(self.id) {
            return;
        }
        locked.next(value);
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        if locked.extra().is_stale(self.id) {
            return;
        }
        locked.error(error);
    }

    fn on_completed(self) {
        let FlatMapInner {
            core,
            id,
            subscribe,
        } = self;
        let mut locked = core.lock();
        locked.release_upstream(id);
        if locked.is_closed() || locked.extra().is_stale(id) {
            return;
        }
        let flat = locked.extra();
        flat.active -= 1;
        if flat.is_finished() {
            locked.complete();
        } else if flat.should_drain() {
            // Subscribe the next queued inner, on this thread, as RxJava does.
            flat.draining = true;
            flat.active += 1;
            let queued = flat.queue.pop_front();
            let mut lent = flat.lent.take();
            let next = locked.begin_upstream();
            drop(locked);
            if let Some(queued) = queued {
                let inner = lent.inner(queued);
                subscribe(&core, inner, next);
            }
            drain::<O, U, Fl, L>(&core, subscribe, lent);
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        if self.core.is_done() {
            return true;
        }
        let current = self.core.tag();
        current != 0 && current != self.id
    }
}

impl<O, U: Observable, Fl: Flavour, L: Lend> fmt::Debug for FlatMapInner<'_, O, U, Fl, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatMapInner")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// Implements `Observable` and `Subscribe` for a flattening newtype by building the
/// [`FlatMap`] it stands for: `$build` turns `self` into it.
macro_rules! forward_to_flat_map {
    (
        $name:ident<$a:lifetime, S $(, $f:ident)?>,
        f = $fty:ty,
        |$this:ident| $build:expr
    ) => {
        impl<$a, S $(, $f)?> $crate::observable::Observable for $name<$a, S $(, $f)?>
        where
            S: $crate::observable::Observable,
            $crate::engine::flatten::FlatMap<$a, S, $fty>: $crate::observable::Observable,
        {
            type Item = <$crate::engine::flatten::FlatMap<$a, S, $fty> as
                $crate::observable::Observable>::Item;
            type Flavour = <$crate::engine::flatten::FlatMap<$a, S, $fty> as
                $crate::observable::Observable>::Flavour;
            const EMISSION: $crate::observable::Emission =
                <$crate::engine::flatten::FlatMap<$a, S, $fty> as
                    $crate::observable::Observable>::EMISSION;
        }

        impl<$a, S $(, $f)?, O> $crate::observable::Subscribe<O> for $name<$a, S $(, $f)?>
        where
            S: $crate::observable::Observable,
            $crate::engine::flatten::FlatMap<$a, S, $fty>: $crate::observable::Subscribe<
                O,
                Subscription = $crate::engine::merge_core::MergeSubscription<
                    $a,
                    <Self as $crate::observable::Observable>::Flavour,
                >,
            >,
        {
            type Subscription = $crate::engine::merge_core::MergeSubscription<
                $a,
                <Self as $crate::observable::Observable>::Flavour,
            >;

            fn subscribe_observer(self, observer: O) -> Self::Subscription {
                let $this = self;
                $crate::observable::Subscribe::subscribe_observer($build, observer)
            }
        }
    };
}
pub(crate) use forward_to_flat_map;
