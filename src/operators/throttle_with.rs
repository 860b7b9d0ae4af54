//! [`ObservableExt::throttle_with`](crate::ObservableExt::throttle_with).

use crate::Error;
use crate::engine::drain::{Drain, Ready};
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::schedulers::{Reschedule, Scheduler, Worker};
use crate::subscription::Subscription;
use crate::time::Instant;
use std::fmt;
use std::mem;
use std::time::Duration;

/// Which values of each window [`throttle_with`](crate::ObservableExt::throttle_with) emits:
/// RxJS's `ThrottleConfig`.
///
/// The default is `leading` only, which is [`throttle`](crate::ObservableExt::throttle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThrottleConfig {
    /// Emit the value that opens a window, as it arrives.
    pub leading: bool,
    /// Emit the latest value not yet emitted when a window ends; that emission opens the
    /// next window.
    pub trailing: bool,
}

impl Default for ThrottleConfig {
    fn default() -> Self {
        ThrottleConfig {
            leading: true,
            trailing: false,
        }
    }
}

/// Emits the first and/or the last value of each window; built by
/// [`ObservableExt::throttle_with`](crate::ObservableExt::throttle_with).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "throttleTime")]
pub struct ThrottleWith<S, Sch> {
    source: S,
    window: Duration,
    config: ThrottleConfig,
    scheduler: Sch,
}

impl<S, Sch> ThrottleWith<S, Sch> {
    pub(crate) fn new(source: S, window: Duration, config: ThrottleConfig, scheduler: Sch) -> Self {
        ThrottleWith {
            source,
            window,
            config,
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for ThrottleWith<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for ThrottleWith<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<ThrottleWithObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<<S as Observable>::Item> + crate::schedulers::ThreadObserver,
{
    type Subscription = Box<dyn Subscription + Send + Sync>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let state = ThrottleState {
            open: false,
            trailing: None,
            ready: None,
            upstream_done: false,
            completed: false,
            error: None,
        };
        let unwanted = observer.is_disposed();
        let drain = Arc::new(Drain::new(self.scheduler.worker(), observer, state));
        if unwanted {
            // Upstream is not subscribed at all, so it pulls nothing.
            drain.close();
            return Box::new(drain);
        }
        let upstream = self.source.subscribe_observer(ThrottleWithObserver {
            drain: drain.clone(),
            window: self.window,
            config: self.config,
        });
        drain.set_upstream(upstream);
        Box::new(drain)
    }
}

struct ThrottleState<T> {
    /// A window is open: its timer task is scheduled. One task per run of windows: a trailing
    /// emission reschedules it for the next window instead of scheduling another.
    open: bool,
    /// The latest value of the open window not emitted yet, kept when `trailing` is set.
    trailing: Option<T>,
    /// What is ready for delivery. A newer value replaces one not yet taken, which only a
    /// downstream slower than a whole window can cause; the newer one is the one to keep.
    ready: Option<T>,
    /// Upstream has completed while a trailing value waits for its window to end.
    upstream_done: bool,
    completed: bool,
    error: Option<Error>,
}

impl<T> Ready<T> for ThrottleState<T> {
    fn next_ready(&mut self) -> Option<Notification<T>> {
        if let Some(error) = self.error.take() {
            return Some(Notification::Error(error));
        }
        if let Some(value) = self.ready.take() {
            return Some(Notification::Next(value));
        }
        mem::take(&mut self.completed).then_some(Notification::Completed)
    }
}

type ThrottleDrain<W, O, T> = Drain<W, O, ThrottleState<T>>;

/// The timer task at the end of a window: emits the trailing value and opens the next window,
/// or closes the gate.
fn window_ends<W, O, T>(
    drain: &ThrottleDrain<W, O, T>,
    due: &mut Instant,
    window: Duration,
) -> Reschedule
where
    W: Worker,
    O: Observer<T>,
{
    let mut again = false;
    drain.drain_with(|state| match state.trailing.take() {
        Some(value) => {
            state.ready = Some(value);
            if state.upstream_done {
                state.open = false;
                state.completed = true;
            } else {
                again = true;
            }
        }
        None => state.open = false,
    });
    if again && !drain.is_closed() {
        *due += window;
        Reschedule::At(*due)
    } else {
        Reschedule::Done
    }
}

/// The observer [`ThrottleWith`] subscribes upstream.
pub struct ThrottleWithObserver<W, O, T> {
    drain: Arc<ThrottleDrain<W, O, T>>,
    window: Duration,
    config: ThrottleConfig,
}

impl<W, O, T> Observer<T> for ThrottleWithObserver<W, O, T>
where
    W: Worker,
    O: Observer<T> + crate::schedulers::ThreadObserver,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        if self.drain.is_closed() {
            return;
        }
        let ThrottleConfig { leading, trailing } = self.config;
        let now = self.drain.worker().now();
        let mut start = false;
        let mut dropped = None;
        self.drain.drain_with(|state| {
            if !state.open {
                state.open = true;
                start = true;
                if leading {
                    state.ready = Some(value);
                } else if trailing {
                    state.trailing = Some(value);
                } else {
                    dropped = Some(value);
                }
            } else if trailing {
                dropped = state.trailing.replace(value);
            } else {
                dropped = Some(value);
            }
        });
        // Dropped outside the lock: its `Drop` is user code.
        drop(dropped);
        if start {
            let drain = self.drain.clone();
            let window = self.window;
            let mut due = now + window;
            self.drain
                .worker()
                .schedule_at(due, move || window_ends(&drain, &mut due, window));
        }
    }

    fn on_error(self, error: Error) {
        let dropped = self.drain.with(|state| {
            state.error = Some(error);
            (state.trailing.take(), state.ready.take())
        });
        drop(dropped);
        self.drain.drain();
    }

    fn on_completed(self) {
        // A trailing value still waiting is emitted when its window ends, then the
        // completion (RxJS's `throttle`).
        self.drain.drain_with(|state| {
            if state.open && state.trailing.is_some() {
                state.upstream_done = true;
            } else {
                state.completed = true;
            }
        });
    }

    fn is_disposed(&self) -> bool {
        self.drain.is_closed()
    }
}

impl<W, O, T> fmt::Debug for ThrottleWithObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThrottleWithObserver")
            .field("window", &self.window)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::ThrottleConfig;
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, interval};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    const BOTH: ThrottleConfig = ThrottleConfig {
        leading: true,
        trailing: true,
    };
    const TRAILING: ThrottleConfig = ThrottleConfig {
        leading: false,
        trailing: true,
    };

    #[test]
    fn leading_only_is_throttle() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        interval(ms(10), sch.clone())
            .throttle_with(ms(25), ThrottleConfig::default(), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(100));
        o.assert_timeline(&[
            (ms(10), Next(0)),
            (ms(40), Next(3)),
            (ms(70), Next(6)),
            (ms(100), Next(9)),
        ]);
    }

    #[test]
    fn a_trailing_emission_opens_the_next_window() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        // 'a' opens [10, 40]; 'c' goes at 40 and opens [40, 70]; 'd' goes at 70 and opens
        // [70, 100], which ends empty; 'e' opens a window of its own.
        cold(
            &sch,
            [
                (ms(10), Next('a')),
                (ms(20), Next('b')),
                (ms(30), Next('c')),
                (ms(50), Next('d')),
                (ms(120), Next('e')),
                (ms(200), Completed),
            ],
        )
        .throttle_with(ms(30), BOTH, sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(10), Next('a')),
            (ms(40), Next('c')),
            (ms(70), Next('d')),
            (ms(120), Next('e')),
            (ms(200), Completed),
        ]);
    }

    #[test]
    fn trailing_only_emits_each_window_s_last_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(10), Next(1)),
                (ms(20), Next(2)),
                (ms(45), Next(3)),
                (ms(105), Next(4)),
                (ms(140), Completed),
            ],
        )
        .throttle_with(ms(30), TRAILING, sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(40), Next(2)),
            (ms(70), Next(3)),
            (ms(135), Next(4)),
            (ms(140), Completed),
        ]);
    }

    #[test]
    fn completion_waits_for_the_trailing_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [(ms(10), Next(1)), (ms(15), Next(2)), (ms(20), Completed)],
        )
        .throttle_with(ms(30), BOTH, sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(10), Next(1)), (ms(40), Next(2)), (ms(40), Completed)]);
        assert!(sch.is_empty());
    }

    #[test]
    fn synchronous_source_with_trailing_emits_first_and_last() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        from_iter(1..=5)
            .throttle_with(ms(10), BOTH, sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(0), Next(1)), (ms(10), Next(5)), (ms(10), Completed)]);
    }

    #[test]
    fn neither_leading_nor_trailing_emits_nothing() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter(1..=5)
            .throttle_with(
                ms(10),
                ThrottleConfig {
                    leading: false,
                    trailing: false,
                },
                sch.clone(),
            )
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_values(&[]);
        o.assert_completed();
    }

    #[test]
    fn error_drops_the_trailing_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(10), Next(1)),
                (ms(15), Next(2)),
                (ms(20), Error(Error::msg("bad"))),
            ],
        )
        .throttle_with(ms(30), BOTH, sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(10), Next(1)), (ms(20), Error(Error::msg("bad")))]);
        assert!(sch.is_empty());
    }

    #[test]
    fn disposing_the_handle_cancels_the_window_and_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = interval(ms(10), sch.clone())
            .throttle_with(ms(25), BOTH, sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(40));
        o.assert_values(&[0, 2]);
        handle.dispose();
        assert!(sch.is_empty());
        o.assert_not_terminated();
    }

    #[test]
    fn empty_completes_at_once() {
        let sch = TestScheduler::new();
        let o = TestObserver::<i32>::new();
        empty()
            .throttle_with(ms(10), BOTH, sch.clone())
            .subscribe_observer(o.clone());
        o.assert_completed();
        assert!(sch.is_empty());
    }
}
