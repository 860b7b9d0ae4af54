//! [`ObservableExt::buffer_toggle`](crate::ObservableExt::buffer_toggle).
//!
//! Built on the merge core: the source, the openings and every buffer's closing notifier are
//! upstreams of one core, which serialises what goes downstream and disposes them all at the
//! end. The open buffers are in the core's state, each under the id of its closing notifier.

use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Collects the values of its source into buffers that each value of `openings` opens and
/// the notifier chosen for that value closes; built by
/// [`ObservableExt::buffer_toggle`](crate::ObservableExt::buffer_toggle).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "bufferToggle")]
pub struct BufferToggle<'a, S, P, F> {
    source: S,
    openings: P,
    closings: F,
    _handles: PhantomData<&'a ()>,
}

impl<S, P, F> BufferToggle<'_, S, P, F> {
    pub(crate) fn new(source: S, openings: P, closings: F) -> Self {
        BufferToggle {
            source,
            openings,
            closings,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, P: fmt::Debug, F> fmt::Debug for BufferToggle<'_, S, P, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BufferToggle")
            .field("source", &self.source)
            .field("openings", &self.openings)
            .finish_non_exhaustive()
    }
}

impl<S, P, F, C> Observable for BufferToggle<'_, S, P, F>
where
    S: Observable,
    P: Observable,
    F: FnMut(&<P as Observable>::Item) -> C,
    C: Observable,
{
    type Item = Vec<S::Item>;
    type Flavour = FlavourOf<S, P, C>;
}

/// The flavour of the handles a [`BufferToggle`] keeps: the source's, the openings' and the
/// closing notifiers'.
type FlavourOf<S, P, C> = Joined<
    Joined<<S as Observable>::Flavour, <P as Observable>::Flavour>,
    <C as Observable>::Flavour,
>;

/// The observer [`BufferToggle`] subscribes to its source, as a type.
type SourceOf<'a, S, P, C, O> =
    BufferToggleObserver<'a, O, <S as Observable>::Item, FlavourOf<S, P, C>>;

/// The observer [`BufferToggle`] subscribes to its openings, as a type.
type OpeningsOf<'a, S, P, C, O, F> =
    BufferToggleOpenings<'a, O, F, <S as Observable>::Item, FlavourOf<S, P, C>>;

/// The observer [`BufferToggle`] subscribes to each closing notifier, as a type.
type ClosingOf<'a, S, P, C, O> =
    BufferToggleClosing<'a, O, <S as Observable>::Item, FlavourOf<S, P, C>>;

impl<'a, S, P, F, C, O> Subscribe<O> for BufferToggle<'a, S, P, F>
where
    S: Subscribe<SourceOf<'a, S, P, C, O>>,
    <S as Observable>::Item: Clone,
    P: Subscribe<OpeningsOf<'a, S, P, C, O, F>>,
    F: FnMut(&<P as Observable>::Item) -> C,
    C: Subscribe<ClosingOf<'a, S, P, C, O>>,
    FlavourOf<S, P, C>: BoxSubscription<'a, <S as Subscribe<SourceOf<'a, S, P, C, O>>>::Subscription>
        + BoxSubscription<'a, <P as Subscribe<OpeningsOf<'a, S, P, C, O, F>>>::Subscription>
        + BoxSubscription<'a, <C as Subscribe<ClosingOf<'a, S, P, C, O>>>::Subscription>,
    O: Observer<Vec<<S as Observable>::Item>>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S, P, C>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            return MergeSubscription::empty();
        }
        let core = MergeCore::<_, _, _, FlavourOf<S, P, C>>::new_shared(
            observer,
            Buffers {
                open: Vec::new(),
                source_done: false,
            },
        );
        // The openings first, then the source, as RxJS subscribes them.
        core.subscribe_upstream(self.openings, |id| BufferToggleOpenings {
            core: core.clone(),
            id,
            closings: self.closings,
        });
        core.subscribe_upstream(self.source, |id| BufferToggleObserver {
            core: core.clone(),
            id,
        });
        core.handle()
    }
}

/// The core's own state.
struct Buffers<T> {
    /// The open buffers, oldest first, each with the upstream id of its closing notifier.
    open: Vec<(u64, Vec<T>)>,
    /// The source has completed: no buffer opens any more.
    source_done: bool,
}

type ToggleCore<'a, O, T, Fl> = MergeCore<'a, O, Vec<T>, Buffers<T>, Fl>;

/// The observer [`BufferToggle`] subscribes to its source.
pub struct BufferToggleObserver<'a, O, T, Fl: Flavour = Shared> {
    core: Ptr<ToggleCore<'a, O, T, Fl>, Fl>,
    id: u64,
}

impl<O: Observer<Vec<T>>, T: Clone, Fl: Flavour> Observer<T>
    for BufferToggleObserver<'_, O, T, Fl>
{
    fn on_next(&mut self, value: T) {
        let mut locked = self.core.lock();
        if locked.is_closed() {
            drop(locked);
            drop(value);
            return;
        }
        // Every open buffer gets the value: clones for all but the newest, which takes it.
        if let Some(((_, newest), older)) = locked.extra().open.split_last_mut() {
            for (_, buffer) in older {
                buffer.push(value.clone());
            }
            newest.push(value);
        } else {
            drop(locked);
            drop(value);
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let open = std::mem::take(&mut locked.extra().open);
        locked.error(error);
        // Dropped outside the lock: its values' `Drop` is user code.
        drop(open);
    }

    fn on_completed(self) {
        // The open buffers go out, oldest first, then the completion (RxJS).
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        locked.extra().source_done = true;
        let open = std::mem::take(&mut locked.extra().open);
        drop(locked);
        for (_, buffer) in open {
            self.core.lock().next(buffer);
        }
        self.core.lock().complete();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, Fl: Flavour> fmt::Debug for BufferToggleObserver<'_, O, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BufferToggleObserver")
    }
}

/// The observer [`BufferToggle`] subscribes to its openings.
pub struct BufferToggleOpenings<'a, O, F, T, Fl: Flavour = Shared> {
    core: Ptr<ToggleCore<'a, O, T, Fl>, Fl>,
    id: u64,
    closings: F,
}

impl<'a, V, O, F, C, T, Fl> Observer<V> for BufferToggleOpenings<'a, O, F, T, Fl>
where
    F: FnMut(&V) -> C,
    C: Subscribe<BufferToggleClosing<'a, O, T, Fl>>,
    Fl: Flavour
        + BoxSubscription<'a, <C as Subscribe<BufferToggleClosing<'a, O, T, Fl>>>::Subscription>,
    O: Observer<Vec<T>>,
{
    fn on_next(&mut self, opening: V) {
        if self.core.is_done() {
            return;
        }
        let closing = (self.closings)(&opening);
        let mut locked = self.core.lock();
        if locked.is_closed() || locked.extra().source_done {
            return;
        }
        let id = locked.begin_upstream();
        locked.extra().open.push((id, Vec::new()));
        drop(locked);
        let handle = closing.subscribe_observer(BufferToggleClosing {
            core: self.core.clone(),
            id,
        });
        self.core.end_subscribe(id, handle);
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let open = std::mem::take(&mut locked.extra().open);
        locked.error(error);
        drop(open);
    }

    fn on_completed(self) {
        // No buffer opens any more; those open stay until closed or the source ends (RxJS).
        self.core.lock().release_upstream(self.id);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, F, T, Fl: Flavour> fmt::Debug for BufferToggleOpenings<'_, O, F, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BufferToggleOpenings")
    }
}

/// The observer [`BufferToggle`] subscribes to the closing notifier of each buffer.
pub struct BufferToggleClosing<'a, O, T, Fl: Flavour = Shared> {
    core: Ptr<ToggleCore<'a, O, T, Fl>, Fl>,
    id: u64,
}

impl<V, O: Observer<Vec<T>>, T, Fl: Flavour> Observer<V> for BufferToggleClosing<'_, O, T, Fl> {
    fn on_next(&mut self, _: V) {
        let mut locked = self.core.lock();
        let open = &mut locked.extra().open;
        let Some(at) = open.iter().position(|(id, _)| *id == self.id) else {
            return;
        };
        let (_, buffer) = open.remove(at);
        // Its first value is all a closing notifier is for: disposed once the lock is
        // released.
        locked.dispose_upstream(self.id);
        locked.next(buffer);
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let open = std::mem::take(&mut locked.extra().open);
        locked.error(error);
        drop(open);
    }

    fn on_completed(self) {
        // A notifier that completes closes nothing (RxJS 7): its buffer fills until the
        // source ends.
        self.core.lock().release_upstream(self.id);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, Fl: Flavour> fmt::Debug for BufferToggleClosing<'_, O, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BufferToggleClosing")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::source::{from_iter, never, throw};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::TestObserver;

    #[test]
    fn buffers_open_and_close_at_their_own_signals_and_may_overlap() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let openings = Hot::<u32>::new("openings", &log);
        let first = Hot::<()>::new("first", &log);
        let second = Hot::<()>::new("second", &log);
        let (f, s) = (first.clone(), second.clone());
        let o = TestObserver::new();
        source
            .clone()
            .buffer_toggle(openings.clone(), move |which| {
                if *which == 1 { f.clone() } else { s.clone() }
            })
            .subscribe_observer(o.clone());
        source.next(0); // no buffer open
        openings.next(1);
        source.next(1);
        openings.next(2);
        source.next(2);
        first.next(());
        source.next(3);
        source.complete();
        o.assert_notifications(&[Next(vec![1, 2]), Next(vec![2, 3]), Completed]);
        assert_eq!(
            drain(&log),
            [
                "subscribe openings",
                "subscribe source",
                "subscribe first",
                "subscribe second",
                "dispose first",
                "dispose openings",
                "dispose second",
            ]
        );
    }

    #[test]
    fn a_synchronous_source_ends_before_any_buffer_opens() {
        let o = TestObserver::<Vec<i32>>::new();
        from_iter([1, 2])
            .buffer_toggle(never::<()>(), |_| never::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn errors_from_any_side_drop_the_buffers() {
        let o = TestObserver::<Vec<i32>>::new();
        from_iter([1])
            .concat_with(throw(Error::msg("source")))
            .buffer_toggle(never::<()>(), |_| never::<()>())
            .subscribe_observer(o.clone());
        o.assert_error("source");

        let o = TestObserver::<Vec<i32>>::new();
        never()
            .buffer_toggle(throw::<()>(Error::msg("openings")), |_| never::<()>())
            .subscribe_observer(o.clone());
        o.assert_error("openings");

        let o = TestObserver::<Vec<i32>>::new();
        never()
            .buffer_toggle(crate::source::just(()), |_| {
                throw::<()>(Error::msg("closing"))
            })
            .subscribe_observer(o.clone());
        o.assert_error("closing");
    }

    #[test]
    fn disposing_the_handle_disposes_every_upstream() {
        let log = Log::default();
        let source = Hot::<i32>::new("source", &log);
        let openings = Hot::<()>::new("openings", &log);
        let closing = Hot::<()>::new("closing", &log);
        let c = closing.clone();
        let handle = source
            .clone()
            .buffer_toggle(openings.clone(), move |_| c.clone())
            .subscribe_observer(TestObserver::new());
        openings.next(());
        handle.dispose();
        assert_eq!(
            (
                source.subscribers(),
                openings.subscribers(),
                closing.subscribers()
            ),
            (0, 0, 0)
        );
    }
}
