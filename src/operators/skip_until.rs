//! [`ObservableExt::skip_until`](crate::ObservableExt::skip_until).

use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Drops the values of its source until a notifier signals; built by
/// [`ObservableExt::skip_until`](crate::ObservableExt::skip_until).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "skipUntil")]
pub struct SkipUntil<'a, S, N> {
    source: S,
    notifier: N,
    _handles: PhantomData<&'a ()>,
}

impl<S, N> SkipUntil<'_, S, N> {
    pub(crate) fn new(source: S, notifier: N) -> Self {
        SkipUntil {
            source,
            notifier,
            _handles: PhantomData,
        }
    }
}

impl<S: Observable, N: Observable> Observable for SkipUntil<'_, S, N> {
    type Item = S::Item;
    type Flavour = FlavourOf<S, N>;
}

/// The flavour of the handles a [`SkipUntil`] keeps.
type FlavourOf<S, N> = Joined<<S as Observable>::Flavour, <N as Observable>::Flavour>;

impl<'a, S, N, O> Subscribe<O> for SkipUntil<'a, S, N>
where
    S: Subscribe<SkipUntilObserver<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>,
    FlavourOf<S, N>: BoxSubscription<
            'a,
            <S as Subscribe<SkipUntilObserver<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>>::Subscription,
        >,
    N: Subscribe<SkipUntilNotifier<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>,
    FlavourOf<S, N>: BoxSubscription<
            'a,
            <N as Subscribe<SkipUntilNotifier<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>>::Subscription,
        >,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S, N>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            return MergeSubscription::empty();
        }
        let core = MergeCore::<_, _, _, FlavourOf<S, N>>::new_shared(observer, ());
        // The notifier first, so a notifier that signals at once lets every value through.
        core.subscribe_upstream(self.notifier, |id| SkipUntilNotifier {
            core: core.clone(),
            id,
            opened: false,
        });
        core.subscribe_upstream(self.source, |id| SkipUntilObserver {
            core: core.clone(),
            id,
        });
        core.handle()
    }
}

/// The core's tag is the gate: zero while closed, [`OPEN`] once the notifier has signalled.
type SkipUntilCore<'a, O, T, F> = MergeCore<'a, O, T, (), F>;

const OPEN: u64 = 1;

/// The observer [`SkipUntil`] subscribes to its source.
pub struct SkipUntilObserver<'a, O, T, F: Flavour = Shared> {
    core: Ptr<SkipUntilCore<'a, O, T, F>, F>,
    id: u64,
}

impl<O: Observer<T>, T, F: Flavour> Observer<T> for SkipUntilObserver<'_, O, T, F> {
    #[inline]
    fn on_next(&mut self, value: T) {
        // Dropped with no lock taken while the gate is closed.
        if self.core.tag() == OPEN {
            self.core.next(value);
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
        locked.complete();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, F: Flavour> fmt::Debug for SkipUntilObserver<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SkipUntilObserver")
    }
}

/// The observer [`SkipUntil`] subscribes to its notifier.
pub struct SkipUntilNotifier<'a, O, T, F: Flavour = Shared> {
    core: Ptr<SkipUntilCore<'a, O, T, F>, F>,
    id: u64,
    /// Whether this notifier has opened the gate: it wants nothing more.
    opened: bool,
}

impl<V, O: Observer<T>, T, F: Flavour> Observer<V> for SkipUntilNotifier<'_, O, T, F> {
    fn on_next(&mut self, _: V) {
        if !self.opened {
            self.opened = true;
            self.core.set_tag(OPEN);
            self.core.lock().dispose_upstream(self.id);
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        locked.error(error);
    }

    fn on_completed(self) {
        // As in RxJava, completion opens the gate too.
        self.core.set_tag(OPEN);
        self.core.lock().release_upstream(self.id);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.opened || self.core.is_done()
    }
}

impl<O, T, F: Flavour> fmt::Debug for SkipUntilNotifier<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkipUntilNotifier")
            .field("opened", &self.opened)
            .finish_non_exhaustive()
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
    fn skips_until_a_timer_fires_in_virtual_time() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        interval(ms(10), sch.clone())
            .take(5)
            .skip_until(timer(ms(25), sch.clone()))
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(30), Next(2)),
            (ms(40), Next(3)),
            (ms(50), Next(4)),
            (ms(50), Completed),
        ]);
    }

    #[test]
    fn the_notifier_is_disposed_once_it_signals() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let notifier = Hot::<()>::new("notifier", &log);
        let o = TestObserver::new();
        source
            .clone()
            .skip_until(notifier.clone())
            .subscribe_observer(o.clone());
        source.next(1);
        notifier.next(());
        source.next(2);
        source.complete();
        o.assert_notifications(&[Next(2), Completed]);
        assert_eq!(
            drain(&log),
            ["subscribe notifier", "subscribe source", "dispose notifier"]
        );
    }

    #[test]
    fn a_notifier_that_fires_at_once_lets_everything_through() {
        let o = TestObserver::new();
        from_iter([1, 2])
            .skip_until(just(()))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
    }

    #[test]
    fn notifier_completion_opens_the_gate() {
        // As in RxJava (Rx.NET and RxJS keep the gate closed).
        let o = TestObserver::new();
        from_iter([1, 2])
            .skip_until(empty::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
    }

    #[test]
    fn a_silent_notifier_skips_everything() {
        let o = TestObserver::new();
        from_iter([1, 2])
            .skip_until(never::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn errors_from_either_side() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("source"))
            .skip_until(never::<()>())
            .subscribe_observer(o.clone());
        o.assert_error("source");

        let o = TestObserver::<i32>::new();
        from_iter([1])
            .skip_until(throw::<()>(Error::msg("notifier")))
            .subscribe_observer(o.clone());
        o.assert_error("notifier");
    }
}
