//! [`ObservableExt::buffer_when`](crate::ObservableExt::buffer_when).
//!
//! Built on the merge core, as [`buffer_with`](crate::ObservableExt::buffer_with) is: the
//! source and the current closing notifier may emit on different threads, and the core
//! serialises what goes downstream. One closing notifier runs at a time; the factory travels
//! from each to the next, as only the notifier that closes a buffer opens the next one.

use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Collects the values of its source and emits them as a `Vec` each time the current closing
/// notifier emits, then asks a factory for the next notifier; built by
/// [`ObservableExt::buffer_when`](crate::ObservableExt::buffer_when).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "bufferWhen")]
pub struct BufferWhen<'a, S, F> {
    source: S,
    closings: F,
    _handles: PhantomData<&'a ()>,
}

impl<S, F> BufferWhen<'_, S, F> {
    pub(crate) fn new(source: S, closings: F) -> Self {
        BufferWhen {
            source,
            closings,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for BufferWhen<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BufferWhen")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<S, F, N> Observable for BufferWhen<'_, S, F>
where
    S: Observable,
    F: FnMut() -> N,
    N: Observable,
{
    type Item = Vec<S::Item>;
    type Flavour = FlavourOf<S, N>;
}

/// The flavour of the handles a [`BufferWhen`] keeps: the source's and the notifiers'.
type FlavourOf<S, N> = Joined<<S as Observable>::Flavour, <N as Observable>::Flavour>;

/// The observer [`BufferWhen`] subscribes to its source, as a type.
type SourceObserver<'a, S, O, F, N> =
    BufferWhenObserver<'a, O, F, <S as Observable>::Item, FlavourOf<S, N>>;

/// The observer [`BufferWhen`] subscribes to each closing notifier, as a type.
type ClosingOf<'a, S, O, F, N> =
    BufferWhenClosing<'a, O, F, <S as Observable>::Item, FlavourOf<S, N>>;

impl<'a, S, F, N, O> Subscribe<O> for BufferWhen<'a, S, F>
where
    S: Subscribe<SourceObserver<'a, S, O, F, N>>,
    F: FnMut() -> N,
    N: Subscribe<ClosingOf<'a, S, O, F, N>>,
    FlavourOf<S, N>: BoxSubscription<'a, <S as Subscribe<SourceObserver<'a, S, O, F, N>>>::Subscription>
        + BoxSubscription<'a, <N as Subscribe<ClosingOf<'a, S, O, F, N>>>::Subscription>,
    O: Observer<Vec<<S as Observable>::Item>>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S, N>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            return MergeSubscription::empty();
        }
        let core = MergeCore::<_, _, _, FlavourOf<S, N>>::new_shared(
            observer,
            Buffering {
                buffer: Some(Vec::new()),
                closing: 0,
                subscribing: 0,
                deferred: None,
            },
        );
        // The first closing notifier first, then the source, as RxJS subscribes them.
        if let Some(id) = core.begin() {
            core.lock().extra().closing = id;
            subscribe_closing(&core, id, self.closings);
        }
        core.subscribe_upstream(self.source, |id| BufferWhenObserver {
            core: core.clone(),
            id,
        });
        core.handle()
    }
}

/// The core's own state.
struct Buffering<T, F> {
    /// The buffer being filled; `None` once the source has completed, so that a closing
    /// racing the completion adds no buffer after the last one.
    buffer: Option<Vec<T>>,
    /// The upstream id of the running closing notifier, 0 for none.
    closing: u64,
    /// The closing notifier whose `subscribe` is running, 0 for none.
    subscribing: u64,
    /// The factory, left by a notifier that signalled inside its own `subscribe`: the next
    /// notifier is subscribed once that `subscribe` has returned, not inside it, so that
    /// notifiers that signal at once take turns instead of nesting without bound.
    deferred: Option<F>,
}

type BufferWhenCore<'a, O, T, F, Fl> = MergeCore<'a, O, Vec<T>, Buffering<T, F>, Fl>;

/// Asks `factory` for a closing notifier and subscribes it as upstream `id`, which the caller
/// reserved; the notifier's observer keeps the factory for the next one.
fn subscribe_closing<'a, O, F, N, T, Fl>(
    core: &Ptr<BufferWhenCore<'a, O, T, F, Fl>, Fl>,
    mut id: u64,
    mut factory: F,
) where
    F: FnMut() -> N,
    N: Subscribe<BufferWhenClosing<'a, O, F, T, Fl>>,
    Fl: Flavour
        + BoxSubscription<'a, <N as Subscribe<BufferWhenClosing<'a, O, F, T, Fl>>>::Subscription>,
    O: Observer<Vec<T>>,
{
    loop {
        let closing = factory();
        core.lock().extra().subscribing = id;
        let handle = closing.subscribe_observer(BufferWhenClosing {
            core: core.clone(),
            id,
            factory: Some(factory),
            subscribe_next: subscribe_closing::<O, F, N, T, Fl>,
        });
        let deferred = {
            let mut locked = core.lock();
            locked.extra().subscribing = 0;
            locked.extra().deferred.take()
        };
        core.end_subscribe(id, handle);
        let Some(next) = deferred else {
            return;
        };
        let mut locked = core.lock();
        if locked.is_closed() {
            return;
        }
        id = locked.begin_upstream();
        locked.extra().closing = id;
        drop(locked);
        factory = next;
    }
}

/// The observer [`BufferWhen`] subscribes to its source.
pub struct BufferWhenObserver<'a, O, F, T, Fl: Flavour = Shared> {
    core: Ptr<BufferWhenCore<'a, O, T, F, Fl>, Fl>,
    id: u64,
}

impl<O: Observer<Vec<T>>, F, T, Fl: Flavour> Observer<T> for BufferWhenObserver<'_, O, F, T, Fl> {
    fn on_next(&mut self, value: T) {
        let mut locked = self.core.lock();
        let closed = locked.is_closed();
        match &mut locked.extra().buffer {
            Some(buffer) if !closed => buffer.push(value),
            _ => {
                drop(locked);
                drop(value);
            }
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let buffer = locked.extra().buffer.take();
        locked.error(error);
        // Dropped outside the lock: its values' `Drop` is user code.
        drop(buffer);
    }

    fn on_completed(self) {
        // The buffer being filled goes out, even empty, then the completion (RxJS).
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let buffer = locked.extra().buffer.take().unwrap_or_default();
        locked.next(buffer);
        self.core.lock().complete();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, F, T, Fl: Flavour> fmt::Debug for BufferWhenObserver<'_, O, F, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BufferWhenObserver")
    }
}

/// The observer [`BufferWhen`] subscribes to each closing notifier, with the factory of the
/// next one.
pub struct BufferWhenClosing<'a, O, F, T, Fl: Flavour = Shared> {
    core: Ptr<BufferWhenCore<'a, O, T, F, Fl>, Fl>,
    id: u64,
    /// Taken by the signal that closes this notifier's buffer, for the next notifier.
    factory: Option<F>,
    /// [`subscribe_closing`] for the notifiers' type, which this observer's own impl cannot
    /// name without requiring itself (the notifier's `Subscribe` bound names this observer).
    subscribe_next: SubscribeClosing<'a, O, F, T, Fl>,
}

/// How a closing notifier subscribes the next one: [`subscribe_closing`] for its type.
type SubscribeClosing<'a, O, F, T, Fl> = fn(&Ptr<BufferWhenCore<'a, O, T, F, Fl>, Fl>, u64, F);

impl<V, O: Observer<Vec<T>>, F, T, Fl: Flavour> Observer<V> for BufferWhenClosing<'_, O, F, T, Fl> {
    fn on_next(&mut self, _: V) {
        let mut locked = self.core.lock();
        if locked.is_closed() || locked.extra().closing != self.id {
            return;
        }
        let Some(factory) = self.factory.take() else {
            return;
        };
        let Some(buffer) = locked.extra().buffer.as_mut().map(std::mem::take) else {
            return;
        };
        // This notifier has done its part: it is disposed once the lock is released, and
        // the next one takes its place before anyone else can see the state.
        locked.dispose_upstream(self.id);
        if locked.extra().subscribing == self.id {
            // Inside its own `subscribe`: the loop that runs it subscribes the next.
            let state = locked.extra();
            state.closing = 0;
            state.deferred = Some(factory);
            locked.next(buffer);
            return;
        }
        let next = locked.begin_upstream();
        locked.extra().closing = next;
        locked.next(buffer);
        (self.subscribe_next)(&self.core, next, factory);
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let buffer = locked.extra().buffer.take();
        locked.error(error);
        drop(buffer);
    }

    fn on_completed(self) {
        // A notifier that completes closes nothing (RxJS 7): the buffer fills until the
        // source ends.
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        if locked.extra().closing == self.id {
            locked.extra().closing = 0;
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.factory.is_none() || self.core.is_done()
    }
}

impl<O, F, T, Fl: Flavour> fmt::Debug for BufferWhenClosing<'_, O, F, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BufferWhenClosing")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, interval, never, throw, timer};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn each_closing_notifier_closes_one_buffer_and_the_next_opens() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let s = sch.clone();
        interval(ms(10), sch.clone())
            .take(4)
            .buffer_when(move || timer(ms(25), s.clone()))
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(25), Next(vec![0, 1])),
            (ms(40), Next(vec![2, 3])),
            (ms(40), Completed),
        ]);
        assert!(sch.is_empty());
    }

    #[test]
    fn the_closing_notifier_is_subscribed_first_and_replaced_at_each_signal() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let closing = Hot::<()>::new("closing", &log);
        let o = TestObserver::new();
        let c = closing.clone();
        source
            .clone()
            .buffer_when(move || c.clone())
            .subscribe_observer(o.clone());
        source.next(1);
        closing.next(());
        source.next(2);
        source.complete();
        o.assert_notifications(&[Next(vec![1]), Next(vec![2]), Completed]);
        assert_eq!(
            drain(&log),
            [
                "subscribe closing",
                "subscribe source",
                "dispose closing",
                "subscribe closing",
                "dispose closing",
            ]
        );
    }

    #[test]
    fn a_completed_notifier_closes_nothing() {
        let o = TestObserver::new();
        from_iter([1, 2])
            .buffer_when(empty::<()>)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(vec![1, 2]), Completed]);
    }

    #[test]
    fn errors_from_the_source_or_a_notifier_drop_the_buffer() {
        let o = TestObserver::<Vec<i32>>::new();
        from_iter([1])
            .concat_with(throw(Error::msg("source")))
            .buffer_when(never::<()>)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("source"))]);

        let o = TestObserver::<Vec<i32>>::new();
        never()
            .buffer_when(|| throw::<()>(Error::msg("closing")))
            .subscribe_observer(o.clone());
        o.assert_error("closing");
    }

    #[test]
    fn disposing_the_handle_disposes_source_and_notifier() {
        let log = Log::default();
        let source = Hot::<i32>::new("source", &log);
        let closing = Hot::<()>::new("closing", &log);
        let c = closing.clone();
        let handle = source
            .clone()
            .buffer_when(move || c.clone())
            .subscribe_observer(TestObserver::new());
        handle.dispose();
        assert_eq!((source.subscribers(), closing.subscribers()), (0, 0));
    }
}
