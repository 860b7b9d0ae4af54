//! [`ObservableExt::take_until`](crate::ObservableExt::take_until).

use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Emits the values of its source until a notifier signals; built by
/// [`ObservableExt::take_until`](crate::ObservableExt::take_until).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "takeUntil")]
pub struct TakeUntil<'a, S, N> {
    source: S,
    notifier: N,
    _handles: PhantomData<&'a ()>,
}

impl<S, N> TakeUntil<'_, S, N> {
    pub(crate) fn new(source: S, notifier: N) -> Self {
        TakeUntil {
            source,
            notifier,
            _handles: PhantomData,
        }
    }
}

impl<S: Observable, N: Observable> Observable for TakeUntil<'_, S, N> {
    type Item = S::Item;
    type Flavour = FlavourOf<S, N>;
}

/// The flavour of the handles a [`TakeUntil`] keeps.
type FlavourOf<S, N> = Joined<<S as Observable>::Flavour, <N as Observable>::Flavour>;

impl<'a, S, N, O> Subscribe<O> for TakeUntil<'a, S, N>
where
    S: Subscribe<TakeUntilObserver<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>,
    N: Subscribe<TakeUntilNotifier<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>,
    FlavourOf<S, N>: BoxSubscription<
            'a,
            <S as Subscribe<
                TakeUntilObserver<'a, O, <S as Observable>::Item, FlavourOf<S, N>>,
            >>::Subscription,
        > + BoxSubscription<
            'a,
            <N as Subscribe<
                TakeUntilNotifier<'a, O, <S as Observable>::Item, FlavourOf<S, N>>,
            >>::Subscription,
        >,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S, N>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            return MergeSubscription::empty();
        }
        let core = MergeCore::<_, _, _, FlavourOf<S, N>>::with_upstreams_shared(observer, (), 2);
        // The notifier first: if it fires at once, the source is never subscribed.
        core.subscribe_reserved(1, self.notifier, |id| TakeUntilNotifier {
            core: core.clone(),
            id,
        });
        core.subscribe_reserved(2, self.source, |id| TakeUntilObserver {
            core: core.clone(),
            id,
        });
        core.handle()
    }
}

type TakeUntilCore<'a, O, T, F> = MergeCore<'a, O, T, (), F>;

/// The observer [`TakeUntil`] subscribes to its source.
pub struct TakeUntilObserver<'a, O, T, F: Flavour = Shared> {
    core: Ptr<TakeUntilCore<'a, O, T, F>, F>,
    id: u64,
}

impl<O: Observer<T>, T, F: Flavour> Observer<T> for TakeUntilObserver<'_, O, T, F> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.core.next(value);
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        locked.error(error);
    }

    fn on_completed(self) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        locked.complete();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, F: Flavour> fmt::Debug for TakeUntilObserver<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TakeUntilObserver")
    }
}

/// The observer [`TakeUntil`] subscribes to its notifier.
pub struct TakeUntilNotifier<'a, O, T, F: Flavour = Shared> {
    core: Ptr<TakeUntilCore<'a, O, T, F>, F>,
    id: u64,
}

impl<V, O: Observer<T>, T, F: Flavour> Observer<V> for TakeUntilNotifier<'_, O, T, F> {
    fn on_next(&mut self, _: V) {
        // Completes, and disposes the source and the notifier itself.
        self.core.lock().complete();
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        locked.error(error);
    }

    fn on_completed(self) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        locked.complete();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, F: Flavour> fmt::Debug for TakeUntilNotifier<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TakeUntilNotifier")
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, interval, just, never, throw, timer};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn takes_until_a_timer_fires_in_virtual_time() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let handle = interval(ms(10), sch.clone())
            .take_until(timer(ms(35), sch.clone()))
            .subscribe_observer(o.clone());
        sch.advance_by(ms(100));
        o.assert_timeline(&[
            (ms(10), Next(0)),
            (ms(20), Next(1)),
            (ms(30), Next(2)),
            (ms(35), Completed),
        ]);
        // The interval was disposed, not left ticking.
        assert!(sch.is_empty());
        assert!(handle.is_disposed());
    }

    #[test]
    fn notifier_value_completes_and_disposes_both() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let notifier = Hot::<()>::new("notifier", &log);
        let o = TestObserver::new();
        source
            .clone()
            .take_until(notifier.clone())
            .subscribe_observer(o.clone());
        source.next(1);
        source.next(2);
        notifier.next(());
        source.next(3);
        o.assert_notifications(&[Next(1), Next(2), Completed]);
        assert_eq!(
            drain(&log),
            [
                "subscribe notifier",
                "subscribe source",
                "dispose notifier",
                "dispose source"
            ]
        );
        assert_eq!((source.subscribers(), notifier.subscribers()), (0, 0));
    }

    #[test]
    fn a_notifier_that_fires_at_once_means_the_source_is_never_subscribed() {
        let mut subscribed = false;
        let o = TestObserver::new();
        crate::source::defer(|| {
            subscribed = true;
            just(1)
        })
        .take_until(just(()))
        .subscribe_observer(o.clone());
        assert!(!subscribed);
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn notifier_completion_also_completes() {
        // As in RxJava 3 and RPP (Rx.NET and RxJS ignore it).
        let o = TestObserver::new();
        never::<i32>()
            .take_until(empty::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn a_silent_notifier_changes_nothing() {
        let o = TestObserver::new();
        from_iter([1, 2])
            .take_until(never::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
    }

    #[test]
    fn errors_from_either_side() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("source"))
            .take_until(never::<()>())
            .subscribe_observer(o.clone());
        o.assert_error("source");

        let o = TestObserver::<i32>::new();
        never()
            .take_until(throw::<()>(Error::msg("notifier")))
            .subscribe_observer(o.clone());
        o.assert_error("notifier");
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .take_until(never::<()>())
            .map(move |v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }
}
