//! [`ObservableExt::delay_when`](crate::ObservableExt::delay_when): each value waits for an
//! observable of its own.
//!
//! Built on the merge core: each value's duration is an upstream of its own that holds the
//! value, so any number wait at once, each on its own thread if it likes, and the core
//! serialises what goes downstream.

use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Emits each value when the observable chosen for it emits; built by
/// [`ObservableExt::delay_when`](crate::ObservableExt::delay_when).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "delayWhen")]
pub struct DelayWhen<'a, S, F> {
    source: S,
    selector: F,
    _handles: PhantomData<&'a ()>,
}

impl<S, F> DelayWhen<'_, S, F> {
    pub(crate) fn new(source: S, selector: F) -> Self {
        DelayWhen {
            source,
            selector,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for DelayWhen<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DelayWhen")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<S, F, D> Observable for DelayWhen<'_, S, F>
where
    S: Observable,
    F: FnMut(&<S as Observable>::Item) -> D,
    D: Observable,
{
    type Item = S::Item;
    type Flavour = FlavourOf<S, D>;
}

/// The flavour of the handles a [`DelayWhen`] keeps: the source's and the durations'.
type FlavourOf<S, D> = Joined<<S as Observable>::Flavour, <D as Observable>::Flavour>;

/// The observer [`DelayWhen`] subscribes to its source, as a type.
type SourceObserver<'a, S, O, F, D> =
    DelayWhenObserver<'a, O, F, <S as Observable>::Item, FlavourOf<S, D>>;

impl<'a, S, F, D, O> Subscribe<O> for DelayWhen<'a, S, F>
where
    S: Subscribe<SourceObserver<'a, S, O, F, D>>,
    F: FnMut(&<S as Observable>::Item) -> D,
    D: Subscribe<DelayDurationObserver<'a, O, <S as Observable>::Item, FlavourOf<S, D>>>,
    FlavourOf<S, D>:
        BoxSubscription<'a, <S as Subscribe<SourceObserver<'a, S, O, F, D>>>::Subscription>
            + BoxSubscription<
                'a,
                <D as Subscribe<
                    DelayDurationObserver<'a, O, <S as Observable>::Item, FlavourOf<S, D>>,
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
            Waiting {
                values: 0,
                source_done: false,
            },
        );
        core.subscribe_upstream(self.source, |id| DelayWhenObserver {
            core: core.clone(),
            id,
            selector: self.selector,
        });
        core.handle()
    }
}

/// The core's own state.
struct Waiting {
    /// How many values wait for their duration.
    values: usize,
    /// The source has completed; the completion waits for the last value.
    source_done: bool,
}

type DelayCore<'a, O, T, Fl> = MergeCore<'a, O, T, Waiting, Fl>;

/// The observer [`DelayWhen`] subscribes to its source.
pub struct DelayWhenObserver<'a, O, F, T, Fl: Flavour = Shared> {
    core: Ptr<DelayCore<'a, O, T, Fl>, Fl>,
    id: u64,
    selector: F,
}

impl<'a, O, F, D, T, Fl> Observer<T> for DelayWhenObserver<'a, O, F, T, Fl>
where
    F: FnMut(&T) -> D,
    D: Subscribe<DelayDurationObserver<'a, O, T, Fl>>,
    Fl: Flavour
        + BoxSubscription<'a, <D as Subscribe<DelayDurationObserver<'a, O, T, Fl>>>::Subscription>,
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
        let id = locked.begin_upstream();
        locked.extra().values += 1;
        drop(locked);
        let handle = duration.subscribe_observer(DelayDurationObserver {
            core: self.core.clone(),
            id,
            value: Some(value),
        });
        self.core.end_subscribe(id, handle);
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        locked.error(error);
    }

    fn on_completed(self) {
        // The completion waits for the values still delayed (RxJS, RxJava).
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let waiting = locked.extra();
        if waiting.values == 0 {
            locked.complete();
        } else {
            waiting.source_done = true;
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, F, T, Fl: Flavour> fmt::Debug for DelayWhenObserver<'_, O, F, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DelayWhenObserver")
    }
}

/// The observer [`DelayWhen`] subscribes to the duration of each value, holding the value.
pub struct DelayDurationObserver<'a, O, T, Fl: Flavour = Shared> {
    core: Ptr<DelayCore<'a, O, T, Fl>, Fl>,
    id: u64,
    /// The value, until its duration emits.
    value: Option<T>,
}

impl<O, T, Fl: Flavour> DelayDurationObserver<'_, O, T, Fl> {
    /// One value fewer waits: whether the completion that waited for it may go now.
    fn settled(waiting: &mut Waiting) -> bool {
        waiting.values -= 1;
        waiting.source_done && waiting.values == 0
    }
}

impl<V, O: Observer<T>, T, Fl: Flavour> Observer<V> for DelayDurationObserver<'_, O, T, Fl> {
    fn on_next(&mut self, _: V) {
        let Some(value) = self.value.take() else {
            return;
        };
        let mut locked = self.core.lock();
        // Its first value is all a duration is for: it is disposed once the lock is
        // released.
        locked.dispose_upstream(self.id);
        let last = Self::settled(locked.extra());
        locked.next(value);
        if last {
            self.core.lock().complete();
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        locked.error(error);
        drop(self.value);
    }

    fn on_completed(self) {
        // A duration that completes without a value drops its value (RxJS 7).
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        if self.value.is_some() && Self::settled(locked.extra()) {
            locked.complete();
        } else {
            drop(locked);
        }
        drop(self.value);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.value.is_none() || self.core.is_done()
    }
}

impl<O, T, Fl: Flavour> fmt::Debug for DelayDurationObserver<'_, O, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DelayDurationObserver")
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
    use crate::source::{empty, from_iter, just, never, throw, timer};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn each_value_waits_for_its_own_duration_and_order_follows_them() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let s = sch.clone();
        cold(
            &sch,
            [
                (ms(10), Next(30u64)), // goes at 40
                (ms(20), Next(5)),     // goes at 25
                (ms(30), Completed),   // waits for 30
            ],
        )
        .delay_when(move |v| timer(ms(*v), s.clone()))
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(25), Next(5)), (ms(40), Next(30)), (ms(40), Completed)]);
        assert!(sch.is_empty());
    }

    #[test]
    fn an_immediate_duration_delays_nothing_and_an_empty_one_drops_the_value() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .delay_when(|_| just(()))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);

        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .delay_when(|v| {
                (*v != 2)
                    .then_some(())
                    .map_or(empty().boxed(), |_| just(()).boxed())
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(3), Completed]);
    }

    #[test]
    fn a_duration_is_disposed_after_its_first_value() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let durations = Hot::<()>::new("duration", &log);
        let o = TestObserver::new();
        let d = durations.clone();
        source
            .clone()
            .delay_when(move |_| d.clone())
            .subscribe_observer(o.clone());
        source.next(1);
        source.next(2);
        source.complete();
        durations.next(());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
        assert_eq!(
            drain(&log),
            [
                "subscribe source",
                "subscribe duration",
                "subscribe duration",
                "dispose duration",
                "dispose duration",
            ]
        );
    }

    #[test]
    fn errors_from_the_source_or_a_duration() {
        let o = TestObserver::<i32>::new();
        from_iter([1])
            .concat_with(throw(Error::msg("source")))
            .delay_when(|_| never::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("source"))]);

        let o = TestObserver::new();
        from_iter([1])
            .concat_with(never())
            .delay_when(|_| throw::<()>(Error::msg("duration")))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("duration"))]);
    }

    #[test]
    fn disposing_the_handle_disposes_source_and_durations() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let durations = Hot::<()>::new("duration", &log);
        let d = durations.clone();
        let handle = source
            .clone()
            .delay_when(move |_| d.clone())
            .subscribe_observer(TestObserver::new());
        source.next(1);
        source.next(2);
        handle.dispose();
        assert_eq!((source.subscribers(), durations.subscribers()), (0, 0));
    }
}
