//! [`ObservableExt::debounce_with`](crate::ObservableExt::debounce_with): a debounce whose
//! silence is measured by an observable per value.
//!
//! Built on the merge core: the source and the current duration observable may emit on
//! different threads, and the core serialises what goes downstream. Each value disposes the
//! duration of the value it replaces, so at most one duration runs at a time.

use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Emits a value once the duration observable chosen for it emits, unless another value has
/// come first; built by [`ObservableExt::debounce_with`](crate::ObservableExt::debounce_with).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "debounce")]
pub struct DebounceWith<'a, S, F> {
    source: S,
    selector: F,
    _handles: PhantomData<&'a ()>,
}

impl<S, F> DebounceWith<'_, S, F> {
    pub(crate) fn new(source: S, selector: F) -> Self {
        DebounceWith {
            source,
            selector,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for DebounceWith<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DebounceWith")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<S, F, D> Observable for DebounceWith<'_, S, F>
where
    S: Observable,
    F: FnMut(&<S as Observable>::Item) -> D,
    D: Observable,
{
    type Item = S::Item;
    type Flavour = FlavourOf<S, D>;
}

/// The flavour of the handles a [`DebounceWith`] keeps: the source's and the durations'.
type FlavourOf<S, D> = Joined<<S as Observable>::Flavour, <D as Observable>::Flavour>;

/// The observer [`DebounceWith`] subscribes to its source, as a type.
type SourceObserver<'a, S, O, F, D> =
    DebounceWithObserver<'a, O, F, <S as Observable>::Item, FlavourOf<S, D>>;

impl<'a, S, F, D, O> Subscribe<O> for DebounceWith<'a, S, F>
where
    S: Subscribe<SourceObserver<'a, S, O, F, D>>,
    F: FnMut(&<S as Observable>::Item) -> D,
    D: Subscribe<DurationObserver<'a, O, <S as Observable>::Item, FlavourOf<S, D>>>,
    FlavourOf<S, D>: BoxSubscription<'a, <S as Subscribe<SourceObserver<'a, S, O, F, D>>>::Subscription>
        + BoxSubscription<
            'a,
            <D as Subscribe<
                DurationObserver<'a, O, <S as Observable>::Item, FlavourOf<S, D>>,
            >>::Subscription,
        >,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S, D>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            return MergeSubscription::empty();
        }
        let core = MergeCore::<_, _, _, FlavourOf<S, D>>::new_shared(
            observer,
            Pending {
                value: None,
                duration: 0,
            },
        );
        core.subscribe_upstream(self.source, |id| DebounceWithObserver {
            core: core.clone(),
            id,
            selector: self.selector,
        });
        core.handle()
    }
}

/// The core's own state: the value waiting for its duration, and which upstream that
/// duration is (0 for none).
struct Pending<T> {
    value: Option<T>,
    duration: u64,
}

type DebounceCore<'a, O, T, Fl> = MergeCore<'a, O, T, Pending<T>, Fl>;

/// The observer [`DebounceWith`] subscribes to its source.
pub struct DebounceWithObserver<'a, O, F, T, Fl: Flavour = Shared> {
    core: Ptr<DebounceCore<'a, O, T, Fl>, Fl>,
    id: u64,
    selector: F,
}

impl<'a, O, F, D, T, Fl> Observer<T> for DebounceWithObserver<'a, O, F, T, Fl>
where
    F: FnMut(&T) -> D,
    D: Subscribe<DurationObserver<'a, O, T, Fl>>,
    Fl: Flavour
        + BoxSubscription<'a, <D as Subscribe<DurationObserver<'a, O, T, Fl>>>::Subscription>,
    O: Observer<T>,
{
    fn on_next(&mut self, value: T) {
        if self.core.is_done() {
            return;
        }
        let duration = (self.selector)(&value);
        let mut locked = self.core.lock();
        if locked.is_closed() {
            drop(locked);
            drop(value);
            return;
        }
        // The duration of the value replaced is disposed once the lock is released.
        let previous = locked.extra().duration;
        if previous != 0 {
            locked.dispose_upstream(previous);
        }
        let id = locked.begin_upstream();
        let pending = locked.extra();
        pending.duration = id;
        let replaced = pending.value.replace(value);
        drop(locked);
        // Dropped outside the lock: its `Drop` is user code.
        drop(replaced);
        let handle = duration.subscribe_observer(DurationObserver {
            core: self.core.clone(),
            id,
        });
        self.core.end_subscribe(id, handle);
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let pending = locked.extra().value.take();
        locked.error(error);
        drop(pending);
    }

    fn on_completed(self) {
        // The value still waiting goes at once, then the completion (RxJS, RxJava).
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        match locked.extra().value.take() {
            Some(value) => {
                locked.next(value);
                self.core.lock().complete();
            }
            None => locked.complete(),
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, F, T, Fl: Flavour> fmt::Debug for DebounceWithObserver<'_, O, F, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DebounceWithObserver")
    }
}

/// The observer [`DebounceWith`] subscribes to the duration observable of each value.
pub struct DurationObserver<'a, O, T, Fl: Flavour = Shared> {
    core: Ptr<DebounceCore<'a, O, T, Fl>, Fl>,
    id: u64,
}

impl<V, O: Observer<T>, T, Fl: Flavour> Observer<V> for DurationObserver<'_, O, T, Fl> {
    fn on_next(&mut self, _: V) {
        let mut locked = self.core.lock();
        if locked.extra().duration != self.id {
            // A newer value has replaced the one this duration was for.
            return;
        }
        locked.extra().duration = 0;
        // The duration has done its part: it is disposed once the lock is released.
        locked.dispose_upstream(self.id);
        if let Some(value) = locked.extra().value.take() {
            locked.next(value);
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let pending = locked.extra().value.take();
        locked.error(error);
        drop(pending);
    }

    fn on_completed(self) {
        // A duration that completes without a value emits nothing (RxJS): the value waits
        // for the next one or for the source's completion.
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        if locked.extra().duration == self.id {
            locked.extra().duration = 0;
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, Fl: Flavour> fmt::Debug for DurationObserver<'_, O, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DurationObserver")
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, just, never, throw, timer};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn each_value_waits_for_its_own_duration() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let s = sch.clone();
        cold(
            &sch,
            [
                (ms(10), Next(20u64)),
                (ms(20), Next(5)), // replaces 20 before its 20 ms have passed
                (ms(50), Next(10)),
                (ms(100), Completed),
            ],
        )
        .debounce_with(move |v| timer(ms(*v), s.clone()))
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(25), Next(5)), (ms(60), Next(10)), (ms(100), Completed)]);
        assert!(sch.is_empty());
    }

    #[test]
    fn completion_flushes_the_waiting_value() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .debounce_with(|_| never::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(3), Completed]);
    }

    #[test]
    fn a_duration_that_fires_at_once_lets_every_value_through() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .debounce_with(|_| just(()))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
    }

    #[test]
    fn a_duration_that_completes_empty_emits_nothing() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let o = TestObserver::new();
        source
            .clone()
            .debounce_with(|_| empty::<()>())
            .subscribe_observer(o.clone());
        source.next(1);
        source.next(2);
        o.assert_values(&[]);
        source.complete();
        o.assert_notifications(&[Next(2), Completed]);
    }

    #[test]
    fn a_newer_value_disposes_the_previous_duration() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let durations = Hot::<()>::new("duration", &log);
        let o = TestObserver::new();
        let d = durations.clone();
        source
            .clone()
            .debounce_with(move |_| d.clone())
            .subscribe_observer(o.clone());
        source.next(1);
        source.next(2);
        assert_eq!(durations.subscribers(), 1);
        durations.next(());
        o.assert_values(&[2]);
        assert_eq!(durations.subscribers(), 0);
        assert_eq!(
            drain(&log),
            [
                "subscribe source",
                "subscribe duration",
                "dispose duration",
                "subscribe duration",
                "dispose duration"
            ]
        );
    }

    #[test]
    fn errors_from_the_source_or_a_duration() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("source"))
            .debounce_with(|_| never::<()>())
            .subscribe_observer(o.clone());
        o.assert_error("source");

        let o = TestObserver::new();
        from_iter([1])
            .concat_with(never())
            .debounce_with(|_| throw::<()>(Error::msg("duration")))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("duration"))]);
    }

    #[test]
    fn disposing_the_handle_disposes_source_and_duration() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let durations = Hot::<()>::new("duration", &log);
        let d = durations.clone();
        let handle = source
            .clone()
            .debounce_with(move |_| d.clone())
            .subscribe_observer(TestObserver::new());
        source.next(1);
        handle.dispose();
        assert_eq!((source.subscribers(), durations.subscribers()), (0, 0));
    }
}
