//! [`ObservableExt::sample_with`](crate::ObservableExt::sample_with).
//!
//! Built on the merge core: the source and the notifier may emit on different threads, and
//! the core serialises what each hands downstream and disposes both at the end.

use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Emits the latest value of its source each time a notifier emits, if a new one arrived
/// since; built by [`ObservableExt::sample_with`](crate::ObservableExt::sample_with).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "sample")]
pub struct SampleWith<'a, S, N> {
    source: S,
    notifier: N,
    _handles: PhantomData<&'a ()>,
}

impl<S, N> SampleWith<'_, S, N> {
    pub(crate) fn new(source: S, notifier: N) -> Self {
        SampleWith {
            source,
            notifier,
            _handles: PhantomData,
        }
    }
}

impl<S: Observable, N: Observable> Observable for SampleWith<'_, S, N> {
    type Item = S::Item;
    type Flavour = FlavourOf<S, N>;
}

/// The flavour of the handles a [`SampleWith`] keeps.
type FlavourOf<S, N> = Joined<<S as Observable>::Flavour, <N as Observable>::Flavour>;

impl<'a, S, N, O> Subscribe<O> for SampleWith<'a, S, N>
where
    S: Subscribe<SampleWithObserver<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>,
    FlavourOf<S, N>: BoxSubscription<
            'a,
            <S as Subscribe<SampleWithObserver<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>>::Subscription,
        >,
    N: Subscribe<SampleWithNotifier<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>,
    FlavourOf<S, N>: BoxSubscription<
            'a,
            <N as Subscribe<SampleWithNotifier<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>>::Subscription,
        >,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S, N>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            return MergeSubscription::empty();
        }
        let core = MergeCore::<_, _, _, FlavourOf<S, N>>::new_shared(observer, None);
        // The source first, as RxJS subscribes them.
        core.subscribe_upstream(self.source, |id| SampleWithObserver {
            core: core.clone(),
            id,
        });
        core.subscribe_upstream(self.notifier, |id| SampleWithNotifier {
            core: core.clone(),
            id,
        });
        core.handle()
    }
}

/// The core's own state is the latest value not sampled yet.
type SampleWithCore<'a, O, T, F> = MergeCore<'a, O, T, Option<T>, F>;

/// The observer [`SampleWith`] subscribes to its source.
pub struct SampleWithObserver<'a, O, T, F: Flavour = Shared> {
    core: Ptr<SampleWithCore<'a, O, T, F>, F>,
    id: u64,
}

impl<O: Observer<T>, T, F: Flavour> Observer<T> for SampleWithObserver<'_, O, T, F> {
    fn on_next(&mut self, value: T) {
        let mut locked = self.core.lock();
        let replaced = if locked.is_closed() {
            Some(value)
        } else {
            locked.extra().replace(value)
        };
        // Dropped outside the lock: its `Drop` is user code.
        drop(locked);
        drop(replaced);
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let latest = locked.extra().take();
        locked.error(error);
        drop(latest);
    }

    fn on_completed(self) {
        // The value not sampled yet is dropped, as RxJS and RxJava do by default.
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let latest = locked.extra().take();
        locked.complete();
        drop(latest);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, F: Flavour> fmt::Debug for SampleWithObserver<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SampleWithObserver")
    }
}

/// The observer [`SampleWith`] subscribes to its notifier.
pub struct SampleWithNotifier<'a, O, T, F: Flavour = Shared> {
    core: Ptr<SampleWithCore<'a, O, T, F>, F>,
    id: u64,
}

impl<V, O: Observer<T>, T, F: Flavour> Observer<V> for SampleWithNotifier<'_, O, T, F> {
    fn on_next(&mut self, _: V) {
        let mut locked = self.core.lock();
        if let Some(value) = locked.extra().take() {
            locked.next(value);
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let latest = locked.extra().take();
        locked.error(error);
        drop(latest);
    }

    fn on_completed(self) {
        // Sampling stops; the source goes on until it ends (RxJS).
        self.core.lock().release_upstream(self.id);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, F: Flavour> fmt::Debug for SampleWithNotifier<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SampleWithNotifier")
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, interval, never, throw};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn each_notification_takes_the_latest_new_value() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let notifier = Hot::<()>::new("notifier", &log);
        let o = TestObserver::new();
        source
            .clone()
            .sample_with(notifier.clone())
            .subscribe_observer(o.clone());
        notifier.next(());
        source.next(1);
        source.next(2);
        notifier.next(());
        notifier.next(());
        source.next(3);
        notifier.next(());
        source.next(4);
        source.complete();
        o.assert_notifications(&[Next(2), Next(3), Completed]);
        assert_eq!(
            drain(&log),
            ["subscribe source", "subscribe notifier", "dispose notifier"]
        );
    }

    #[test]
    fn on_virtual_time() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        interval(ms(10), sch.clone())
            .take(7)
            .sample_with(interval(ms(23), sch.clone()))
            .subscribe_observer(o.clone());
        sch.run();
        // The value 6, at 70, is never sampled.
        o.assert_timeline(&[
            (ms(23), Next(1)),
            (ms(46), Next(3)),
            (ms(69), Next(5)),
            (ms(70), Completed),
        ]);
        assert!(sch.is_empty());
    }

    #[test]
    fn notifier_completion_stops_sampling_but_not_the_source() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let o = TestObserver::new();
        source
            .clone()
            .sample_with(empty::<()>())
            .subscribe_observer(o.clone());
        source.next(1);
        source.complete();
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn errors_from_either_side() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("source"))
            .sample_with(never::<()>())
            .subscribe_observer(o.clone());
        o.assert_error("source");

        let o = TestObserver::<i32>::new();
        never()
            .sample_with(throw::<()>(Error::msg("notifier")))
            .subscribe_observer(o.clone());
        o.assert_error("notifier");
    }

    #[test]
    fn disposing_the_handle_disposes_both() {
        let log = Log::default();
        let source = Hot::<i32>::new("source", &log);
        let notifier = Hot::<()>::new("notifier", &log);
        let handle = source
            .clone()
            .sample_with(notifier.clone())
            .subscribe_observer(TestObserver::new());
        handle.dispose();
        assert_eq!((source.subscribers(), notifier.subscribers()), (0, 0));
    }

    #[test]
    fn synchronous_source_completes_before_any_sample() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .sample_with(never::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }
}
