//! [`ObservableExt::audit_with`](crate::ObservableExt::audit_with): an audit whose window is
//! an observable chosen by the value that opens it.
//!
//! Built on the merge core, as [`debounce_with`](crate::ObservableExt::debounce_with) is: the
//! source and the current duration may emit on different threads, and the core serialises
//! what goes downstream. At most one duration runs at a time.

use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Emits the latest value when the duration observable that the first value of a window
/// chose emits; built by [`ObservableExt::audit_with`](crate::ObservableExt::audit_with).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "audit")]
pub struct AuditWith<'a, S, F> {
    source: S,
    selector: F,
    _handles: PhantomData<&'a ()>,
}

impl<S, F> AuditWith<'_, S, F> {
    pub(crate) fn new(source: S, selector: F) -> Self {
        AuditWith {
            source,
            selector,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for AuditWith<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuditWith")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<S, F, D> Observable for AuditWith<'_, S, F>
where
    S: Observable,
    F: FnMut(&<S as Observable>::Item) -> D,
    D: Observable,
{
    type Item = S::Item;
    type Flavour = FlavourOf<S, D>;
}

/// The flavour of the handles an [`AuditWith`] keeps: the source's and the durations'.
type FlavourOf<S, D> = Joined<<S as Observable>::Flavour, <D as Observable>::Flavour>;

/// The observer [`AuditWith`] subscribes to its source, as a type.
type SourceObserver<'a, S, O, F, D> =
    AuditWithObserver<'a, O, F, <S as Observable>::Item, FlavourOf<S, D>>;

impl<'a, S, F, D, O> Subscribe<O> for AuditWith<'a, S, F>
where
    S: Subscribe<SourceObserver<'a, S, O, F, D>>,
    F: FnMut(&<S as Observable>::Item) -> D,
    D: Subscribe<AuditDurationObserver<'a, O, <S as Observable>::Item, FlavourOf<S, D>>>,
    FlavourOf<S, D>:
        BoxSubscription<'a, <S as Subscribe<SourceObserver<'a, S, O, F, D>>>::Subscription>
            + BoxSubscription<
                'a,
                <D as Subscribe<
                    AuditDurationObserver<'a, O, <S as Observable>::Item, FlavourOf<S, D>>,
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
            Window {
                latest: None,
                duration: 0,
                source_done: false,
            },
        );
        core.subscribe_upstream(self.source, |id| AuditWithObserver {
            core: core.clone(),
            id,
            selector: self.selector,
        });
        core.handle()
    }
}

/// The core's own state.
struct Window<T> {
    /// The latest value of the open window. It outlives a duration that completes without a
    /// value (RxJS): the next value replaces it and opens the next window.
    latest: Option<T>,
    /// The upstream id of the running duration, 0 for none.
    duration: u64,
    /// The source has completed; the completion waits for the running duration.
    source_done: bool,
}

type AuditCore<'a, O, T, Fl> = MergeCore<'a, O, T, Window<T>, Fl>;

/// The observer [`AuditWith`] subscribes to its source.
pub struct AuditWithObserver<'a, O, F, T, Fl: Flavour = Shared> {
    core: Ptr<AuditCore<'a, O, T, Fl>, Fl>,
    id: u64,
    selector: F,
}

impl<'a, O, F, D, T, Fl> Observer<T> for AuditWithObserver<'a, O, F, T, Fl>
where
    F: FnMut(&T) -> D,
    D: Subscribe<AuditDurationObserver<'a, O, T, Fl>>,
    Fl: Flavour
        + BoxSubscription<'a, <D as Subscribe<AuditDurationObserver<'a, O, T, Fl>>>::Subscription>,
    O: Observer<T>,
{
    fn on_next(&mut self, value: T) {
        if self.core.is_done() {
            return;
        }
        let mut locked = self.core.lock();
        if locked.is_closed() {
            drop(locked);
            drop(value);
            return;
        }
        if locked.extra().duration != 0 {
            // A window is open: the value waits for its end. Only this observer opens
            // windows, so none can open meanwhile; one ending meanwhile is handled by its
            // duration, which takes the value it finds.
            let replaced = locked.extra().latest.replace(value);
            drop(locked);
            // Dropped outside the lock: its `Drop` is user code.
            drop(replaced);
            return;
        }
        // The value opens a window: its duration is reserved now, chosen with the lock
        // released (the selector is user code), and subscribed once the value is stored.
        let id = locked.begin_upstream();
        locked.extra().duration = id;
        drop(locked);
        let duration = (self.selector)(&value);
        let mut locked = self.core.lock();
        let replaced = locked.extra().latest.replace(value);
        drop(locked);
        drop(replaced);
        let handle = duration.subscribe_observer(AuditDurationObserver {
            core: self.core.clone(),
            id,
        });
        self.core.end_subscribe(id, handle);
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let latest = locked.extra().latest.take();
        locked.error(error);
        drop(latest);
    }

    fn on_completed(self) {
        // A value waiting for its window's end goes then, with the completion (RxJS).
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let window = locked.extra();
        if window.duration != 0 && window.latest.is_some() {
            window.source_done = true;
        } else {
            let latest = window.latest.take();
            locked.complete();
            drop(latest);
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, F, T, Fl: Flavour> fmt::Debug for AuditWithObserver<'_, O, F, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AuditWithObserver")
    }
}

/// The observer [`AuditWith`] subscribes to the duration of each window.
pub struct AuditDurationObserver<'a, O, T, Fl: Flavour = Shared> {
    core: Ptr<AuditCore<'a, O, T, Fl>, Fl>,
    id: u64,
}

impl<V, O: Observer<T>, T, Fl: Flavour> Observer<V> for AuditDurationObserver<'_, O, T, Fl> {
    fn on_next(&mut self, _: V) {
        let mut locked = self.core.lock();
        if locked.extra().duration != self.id {
            return;
        }
        locked.extra().duration = 0;
        // The window has ended: its duration is disposed once the lock is released.
        locked.dispose_upstream(self.id);
        let done = locked.extra().source_done;
        match locked.extra().latest.take() {
            Some(value) => {
                locked.next(value);
                if done {
                    self.core.lock().complete();
                }
            }
            None if done => locked.complete(),
            None => {}
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let latest = locked.extra().latest.take();
        locked.error(error);
        drop(latest);
    }

    fn on_completed(self) {
        // A duration that completes without a value ends the window without emitting; the
        // value stays for the next window (RxJS), unless the source has completed.
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        if locked.extra().duration == self.id {
            locked.extra().duration = 0;
            if locked.extra().source_done {
                let latest = locked.extra().latest.take();
                locked.complete();
                drop(latest);
            }
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, Fl: Flavour> fmt::Debug for AuditDurationObserver<'_, O, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AuditDurationObserver")
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
    fn each_window_emits_its_latest_value_when_its_duration_fires() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let s = sch.clone();
        cold(
            &sch,
            [
                (ms(10), Next(20u64)), // opens a window of 20
                (ms(20), Next(5)),     // waits for it
                (ms(50), Next(10)),    // opens a window of 10
                (ms(100), Completed),
            ],
        )
        .audit_with(move |v| timer(ms(*v), s.clone()))
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(30), Next(5)), (ms(60), Next(10)), (ms(100), Completed)]);
        assert!(sch.is_empty());
    }

    #[test]
    fn completion_waits_for_the_open_window() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let durations = Hot::<()>::new("duration", &log);
        let o = TestObserver::new();
        let d = durations.clone();
        source
            .clone()
            .audit_with(move |_| d.clone())
            .subscribe_observer(o.clone());
        source.next(1);
        source.next(2);
        source.complete();
        o.assert_notifications(&[]);
        durations.next(());
        o.assert_notifications(&[Next(2), Completed]);
        assert_eq!(
            drain(&log),
            ["subscribe source", "subscribe duration", "dispose duration"]
        );
    }

    #[test]
    fn immediate_durations_mirror_the_source_and_empty_ones_emit_nothing() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .audit_with(|_| just(()))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);

        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .audit_with(|_| empty::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn errors_from_the_source_or_a_duration() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("source"))
            .audit_with(|_| never::<()>())
            .subscribe_observer(o.clone());
        o.assert_error("source");

        let o = TestObserver::new();
        from_iter([1])
            .concat_with(never())
            .audit_with(|_| throw::<()>(Error::msg("duration")))
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
            .audit_with(move |_| d.clone())
            .subscribe_observer(TestObserver::new());
        source.next(1);
        handle.dispose();
        assert_eq!((source.subscribers(), durations.subscribers()), (0, 0));
    }
}
