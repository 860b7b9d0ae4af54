//! [`ObservableExt::throttle_when`](crate::ObservableExt::throttle_when): a throttle whose
//! window is an observable chosen by the value that opens it.
//!
//! Built on the merge core, as [`debounce_with`](crate::ObservableExt::debounce_with) is. The
//! selector is in the core's state, because both the source (a value that finds no window
//! open) and a duration (a trailing value that opens the next window) choose durations;
//! whoever reserves the next window under the lock takes the selector out, calls it with the
//! lock released, and puts it back, and nobody else needs it meanwhile: a window is open.

use super::throttle_with::ThrottleConfig;
use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Emits the first and/or the last value of each window, a window lasting until the duration
/// observable chosen by the value that opened it emits; built by
/// [`ObservableExt::throttle_when`](crate::ObservableExt::throttle_when).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "throttle")]
pub struct ThrottleWhen<'a, S, F> {
    source: S,
    selector: F,
    config: ThrottleConfig,
    _handles: PhantomData<&'a ()>,
}

impl<S, F> ThrottleWhen<'_, S, F> {
    pub(crate) fn new(source: S, selector: F, config: ThrottleConfig) -> Self {
        ThrottleWhen {
            source,
            selector,
            config,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for ThrottleWhen<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThrottleWhen")
            .field("source", &self.source)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl<S, F, D> Observable for ThrottleWhen<'_, S, F>
where
    S: Observable,
    F: FnMut(&<S as Observable>::Item) -> D,
    D: Observable,
{
    type Item = S::Item;
    type Flavour = FlavourOf<S, D>;
}

/// The flavour of the handles a [`ThrottleWhen`] keeps: the source's and the durations'.
type FlavourOf<S, D> = Joined<<S as Observable>::Flavour, <D as Observable>::Flavour>;

/// The observer [`ThrottleWhen`] subscribes to its source, as a type.
type SourceObserver<'a, S, O, F, D> =
    ThrottleWhenObserver<'a, O, F, <S as Observable>::Item, FlavourOf<S, D>>;

/// The observer [`ThrottleWhen`] subscribes to each duration, as a type.
type DurationOf<'a, S, O, F, D> =
    ThrottleDurationObserver<'a, O, F, <S as Observable>::Item, FlavourOf<S, D>>;

impl<'a, S, F, D, O> Subscribe<O> for ThrottleWhen<'a, S, F>
where
    S: Subscribe<SourceObserver<'a, S, O, F, D>>,
    F: FnMut(&<S as Observable>::Item) -> D,
    D: Subscribe<DurationOf<'a, S, O, F, D>>,
    FlavourOf<S, D>: BoxSubscription<'a, <S as Subscribe<SourceObserver<'a, S, O, F, D>>>::Subscription>
        + BoxSubscription<'a, <D as Subscribe<DurationOf<'a, S, O, F, D>>>::Subscription>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S, D>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            return MergeSubscription::empty();
        }
        let core = MergeCore::<_, _, _, FlavourOf<S, D>>::new_shared(
            observer,
            Throttling {
                selector: Some(self.selector),
                config: self.config,
                trailing: None,
                window: 0,
                subscribing: 0,
                deferred: None,
                source_done: false,
            },
        );
        core.subscribe_upstream(self.source, |id| ThrottleWhenObserver {
            core: core.clone(),
            id,
            _selector: PhantomData,
        });
        core.handle()
    }
}

/// The core's own state.
struct Throttling<T, F> {
    /// The selector, out only while whoever opens a window calls it.
    selector: Option<F>,
    config: ThrottleConfig,
    /// The latest value of the open window not emitted yet, kept when `config.trailing`.
    trailing: Option<T>,
    /// The upstream id of the open window's duration, 0 when no window is open, [`OPENING`]
    /// while a deferred trailing value waits to open the next.
    window: u64,
    /// The duration whose `subscribe` is running, 0 for none.
    subscribing: u64,
    /// A trailing value left by a duration that ended inside its own `subscribe`: the window
    /// it opens is opened once that `subscribe` has returned, not inside it, so that
    /// durations that end at once take turns instead of nesting without bound.
    deferred: Option<T>,
    /// The source has completed; the completion waits for a trailing value's window.
    source_done: bool,
}

type ThrottleCore<'a, O, T, F, Fl> = MergeCore<'a, O, T, Throttling<T, F>, Fl>;

/// Opens a window with `value`, which `take` reserved: chooses its duration with the lock
/// released, emits `value` if `emit` (else keeps it as the window's trailing value), and
/// subscribes the duration.
fn open_window<'a, O, F, D, T, Fl>(
    core: &Ptr<ThrottleCore<'a, O, T, F, Fl>, Fl>,
    mut id: u64,
    mut selector: F,
    mut value: T,
    mut emit: bool,
) where
    F: FnMut(&T) -> D,
    D: Subscribe<ThrottleDurationObserver<'a, O, F, T, Fl>>,
    Fl: Flavour
        + BoxSubscription<
            'a,
            <D as Subscribe<ThrottleDurationObserver<'a, O, F, T, Fl>>>::Subscription,
        >,
    O: Observer<T>,
{
    loop {
        let duration = selector(&value);
        let mut locked = core.lock();
        locked.extra().selector = Some(selector);
        locked.extra().subscribing = id;
        if emit {
            locked.next(value);
        } else {
            let replaced = locked.extra().trailing.replace(value);
            drop(locked);
            // Dropped outside the lock: its `Drop` is user code.
            drop(replaced);
        }
        let handle = duration.subscribe_observer(ThrottleDurationObserver {
            core: core.clone(),
            id,
            open: open_window::<O, F, D, T, Fl>,
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
        // The duration ended inside its `subscribe` with a trailing value: it opens the next
        // window now.
        let mut locked = core.lock();
        if locked.is_closed() {
            drop(locked);
            drop(next);
            return;
        }
        let Some(taken) = locked.extra().selector.take() else {
            unreachable!("no window is open, so the selector is in the state")
        };
        id = locked.begin_upstream();
        locked.extra().window = id;
        drop(locked);
        (selector, value, emit) = (taken, next, true);
    }
}

/// [`Throttling::window`] while a deferred trailing value waits to open the next window: no
/// upstream has this id, and the source sees a window open.
const OPENING: u64 = u64::MAX;

/// The observer [`ThrottleWhen`] subscribes to its source.
pub struct ThrottleWhenObserver<'a, O, F, T, Fl: Flavour = Shared> {
    core: Ptr<ThrottleCore<'a, O, T, F, Fl>, Fl>,
    id: u64,
    _selector: PhantomData<fn(F)>,
}

impl<'a, O, F, D, T, Fl> Observer<T> for ThrottleWhenObserver<'a, O, F, T, Fl>
where
    F: FnMut(&T) -> D,
    D: Subscribe<ThrottleDurationObserver<'a, O, F, T, Fl>>,
    Fl: Flavour
        + BoxSubscription<
            'a,
            <D as Subscribe<ThrottleDurationObserver<'a, O, F, T, Fl>>>::Subscription,
        >,
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
        let state = locked.extra();
        let ThrottleConfig { leading, trailing } = state.config;
        if state.window != 0 {
            let dropped = if trailing {
                state.trailing.replace(value)
            } else {
                Some(value)
            };
            drop(locked);
            drop(dropped);
            return;
        }
        // A trailing value left by a window whose duration completed empty is replaced.
        let stale = state.trailing.take();
        let Some(selector) = state.selector.take() else {
            unreachable!("no window is open, so the selector is in the state")
        };
        let id = locked.begin_upstream();
        locked.extra().window = id;
        drop(locked);
        drop(stale);
        if leading || trailing {
            open_window(&self.core, id, selector, value, leading);
        } else {
            // Neither edge is emitted: the window opens all the same.
            open_window_silently(&self.core, id, selector, &value);
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let trailing = locked.extra().trailing.take();
        locked.error(error);
        drop(trailing);
    }

    fn on_completed(self) {
        // A trailing value still waiting for its window's end goes then, with the
        // completion (RxJS).
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let state = locked.extra();
        if state.window != 0 && (state.trailing.is_some() || state.deferred.is_some()) {
            state.source_done = true;
        } else {
            locked.complete();
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

/// Opens a window that emits nothing at either edge (both edges off in the config).
fn open_window_silently<'a, O, F, D, T, Fl>(
    core: &Ptr<ThrottleCore<'a, O, T, F, Fl>, Fl>,
    id: u64,
    mut selector: F,
    value: &T,
) where
    F: FnMut(&T) -> D,
    D: Subscribe<ThrottleDurationObserver<'a, O, F, T, Fl>>,
    Fl: Flavour
        + BoxSubscription<
            'a,
            <D as Subscribe<ThrottleDurationObserver<'a, O, F, T, Fl>>>::Subscription,
        >,
    O: Observer<T>,
{
    let duration = selector(value);
    core.lock().extra().selector = Some(selector);
    let handle = duration.subscribe_observer(ThrottleDurationObserver {
        core: core.clone(),
        id,
        open: open_window::<O, F, D, T, Fl>,
    });
    core.end_subscribe(id, handle);
}

impl<O, F, T, Fl: Flavour> fmt::Debug for ThrottleWhenObserver<'_, O, F, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ThrottleWhenObserver")
    }
}

/// The observer [`ThrottleWhen`] subscribes to the duration of each window.
pub struct ThrottleDurationObserver<'a, O, F, T, Fl: Flavour = Shared> {
    core: Ptr<ThrottleCore<'a, O, T, F, Fl>, Fl>,
    id: u64,
    /// [`open_window`] for the durations' type, which this observer's own impl cannot name
    /// without requiring itself (the duration's `Subscribe` bound names this observer).
    open: OpenWindow<'a, O, F, T, Fl>,
}

/// How a trailing value opens the next window: [`open_window`] for the durations' type.
type OpenWindow<'a, O, F, T, Fl> = fn(&Ptr<ThrottleCore<'a, O, T, F, Fl>, Fl>, u64, F, T, bool);

impl<V, O: Observer<T>, F, T, Fl: Flavour> Observer<V>
    for ThrottleDurationObserver<'_, O, F, T, Fl>
{
    fn on_next(&mut self, _: V) {
        let mut locked = self.core.lock();
        if locked.extra().window != self.id {
            return;
        }
        locked.extra().window = 0;
        // The window has ended: its duration is disposed once the lock is released.
        locked.dispose_upstream(self.id);
        if !locked.extra().config.trailing {
            return;
        }
        let done = locked.extra().source_done;
        match locked.extra().trailing.take() {
            Some(value) if done => {
                locked.next(value);
                self.core.lock().complete();
            }
            Some(value) => {
                // The trailing value is emitted and opens the next window (RxJS).
                if locked.is_closed() {
                    drop(locked);
                    drop(value);
                    return;
                }
                if locked.extra().subscribing == self.id {
                    // Inside its own `subscribe`: the loop that runs it opens the window.
                    locked.extra().window = OPENING;
                    locked.extra().deferred = Some(value);
                    return;
                }
                let Some(selector) = locked.extra().selector.take() else {
                    unreachable!("no window is open, so the selector is in the state")
                };
                let id = locked.begin_upstream();
                locked.extra().window = id;
                drop(locked);
                (self.open)(&self.core, id, selector, value, true);
            }
            None if done => locked.complete(),
            None => {}
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let trailing = locked.extra().trailing.take();
        locked.error(error);
        drop(trailing);
    }

    fn on_completed(self) {
        // A duration that completes without a value ends the window without emitting
        // (RxJS); the completion that waited for it goes now.
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        if locked.extra().window == self.id {
            locked.extra().window = 0;
            if locked.extra().source_done {
                let trailing = locked.extra().trailing.take();
                locked.complete();
                drop(trailing);
            }
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, F, T, Fl: Flavour> fmt::Debug for ThrottleDurationObserver<'_, O, F, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ThrottleDurationObserver")
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::ThrottleConfig;
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

    const LEADING: ThrottleConfig = ThrottleConfig {
        leading: true,
        trailing: false,
    };
    const BOTH: ThrottleConfig = ThrottleConfig {
        leading: true,
        trailing: true,
    };

    #[test]
    fn each_value_opens_a_window_of_its_own_length() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let s = sch.clone();
        cold(
            &sch,
            [
                (ms(10), Next(20u64)), // window [10, 30]
                (ms(20), Next(5)),     // dropped
                (ms(40), Next(10)),    // window [40, 50]
                (ms(45), Next(1)),     // dropped
                (ms(100), Completed),
            ],
        )
        .throttle_when(move |v| timer(ms(*v), s.clone()), LEADING)
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(10), Next(20)), (ms(40), Next(10)), (ms(100), Completed)]);
        assert!(sch.is_empty());
    }

    #[test]
    fn a_trailing_value_goes_at_the_window_s_end_and_opens_the_next() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let durations = Hot::<()>::new("duration", &log);
        let o = TestObserver::new();
        let d = durations.clone();
        source
            .clone()
            .throttle_when(move |_| d.clone(), BOTH)
            .subscribe_observer(o.clone());
        source.next(1);
        source.next(2);
        source.next(3);
        durations.next(()); // 3 goes, and opens a window
        source.complete(); // nothing trails: completes at once
        o.assert_notifications(&[Next(1), Next(3), Completed]);
        assert_eq!(
            drain(&log),
            [
                "subscribe source",
                "subscribe duration",
                "dispose duration",
                "subscribe duration",
                "dispose duration",
            ]
        );
    }

    #[test]
    fn immediate_or_empty_durations_mirror_the_source() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .throttle_when(|_| just(()), LEADING)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);

        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .throttle_when(|_| empty::<()>(), LEADING)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
    }

    #[test]
    fn a_never_duration_lets_only_the_first_value_through() {
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .throttle_when(|_| never::<()>(), BOTH)
            .subscribe_observer(o.clone());
        // The trailing 3 waits for a window that never ends.
        o.assert_notifications(&[Next(1)]);
    }

    #[test]
    fn errors_from_the_source_or_a_duration() {
        let o = TestObserver::<i32>::new();
        throw(Error::msg("source"))
            .throttle_when(|_| never::<()>(), LEADING)
            .subscribe_observer(o.clone());
        o.assert_error("source");

        let o = TestObserver::new();
        from_iter([1])
            .concat_with(never())
            .throttle_when(|_| throw::<()>(Error::msg("duration")), LEADING)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Error(Error::msg("duration"))]);
    }

    #[test]
    fn disposing_the_handle_disposes_source_and_duration() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let durations = Hot::<()>::new("duration", &log);
        let d = durations.clone();
        let handle = source
            .clone()
            .throttle_when(move |_| d.clone(), BOTH)
            .subscribe_observer(TestObserver::new());
        source.next(1);
        handle.dispose();
        assert_eq!((source.subscribers(), durations.subscribers()), (0, 0));
    }
}
