//! [`ObservableExt::sample`](crate::ObservableExt::sample).

use crate::Error;
use crate::engine::drain::{Drain, Ready};
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::schedulers::{DeferringScheduler, Reschedule, Scheduler, Worker};
use crate::subscription::Subscription;
use std::fmt;
use std::mem;
use std::time::Duration;

/// Emits, at each periodic tick, the latest value if a new one arrived since the previous
/// tick; built by [`ObservableExt::sample`](crate::ObservableExt::sample).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "sampleTime")]
#[doc(alias = "throttleLast")]
pub struct Sample<S, Sch> {
    source: S,
    period: Duration,
    scheduler: Sch,
}

impl<S, Sch: DeferringScheduler> Sample<S, Sch> {
    pub(crate) fn new(source: S, period: Duration, scheduler: Sch) -> Self {
        assert!(!period.is_zero(), "sample: the period must be non-zero");
        Sample {
            source,
            period,
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for Sample<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for Sample<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<SampleObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<<S as Observable>::Item> + crate::schedulers::ThreadObserver,
{
    type Subscription = Box<dyn Subscription + Send + Sync>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let worker = self.scheduler.worker();
        let state = SampleState {
            latest: None,
            ready: None,
            completed: false,
            error: None,
        };
        let drain = Arc::new(Drain::new(worker, observer, state));
        // The ticks start before upstream is subscribed, as in RxJava: at an instant shared
        // by a tick and a value, the tick comes first and the value waits for the next one.
        let period = self.period;
        let mut due = drain.worker().now() + period;
        let tick_drain = drain.clone();
        drain.worker().schedule_at(due, move || {
            tick_drain.drain_with(|state| {
                if let Some(value) = state.latest.take() {
                    state.ready = Some(value);
                }
            });
            if tick_drain.is_closed() {
                return Reschedule::Done;
            }
            due += period;
            Reschedule::At(due)
        });
        let upstream = self.source.subscribe_observer(SampleObserver {
            drain: drain.clone(),
        });
        drain.set_upstream(upstream);
        Box::new(drain)
    }
}

struct SampleState<T> {
    /// The latest value since the previous tick.
    latest: Option<T>,
    /// What the tick took for delivery.
    ready: Option<T>,
    completed: bool,
    error: Option<Error>,
}

impl<T> Ready<T> for SampleState<T> {
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

/// The observer [`Sample`] subscribes upstream.
pub struct SampleObserver<W, O, T> {
    drain: Arc<Drain<W, O, SampleState<T>>>,
}

impl<W, O, T> Observer<T> for SampleObserver<W, O, T>
where
    W: Worker,
    O: Observer<T> + crate::schedulers::ThreadObserver,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        if self.drain.is_closed() {
            return;
        }
        let replaced = self.drain.with(|state| state.latest.replace(value));
        // Dropped outside the lock: its `Drop` is user code.
        drop(replaced);
    }

    fn on_error(self, error: Error) {
        let dropped = self.drain.with(|state| {
            state.error = Some(error);
            (state.latest.take(), state.ready.take())
        });
        drop(dropped);
        self.drain.drain();
    }

    fn on_completed(self) {
        // The value not sampled yet is dropped, as RxJava's `sample` does by default.
        let dropped = self.drain.with(|state| {
            state.completed = true;
            state.latest.take()
        });
        drop(dropped);
        self.drain.drain();
    }

    fn is_disposed(&self) -> bool {
        self.drain.is_closed()
    }
}

impl<W, O, T> fmt::Debug for SampleObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SampleObserver").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn each_tick_emits_the_latest_new_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(10), Next('a')),
                (ms(20), Next('b')),
                // tick at 50: b
                // tick at 100: nothing new
                (ms(120), Next('c')),
                // tick at 150: c
                (ms(150), Next('d')), // after the tick at the same instant
                (ms(170), Next('e')),
                // tick at 200: e
                (ms(205), Next('f')),
                (ms(210), Completed), // f is never sampled
            ],
        )
        .sample(ms(50), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(50), Next('b')),
            (ms(150), Next('c')),
            (ms(200), Next('e')),
            (ms(210), Completed),
        ]);
    }

    #[test]
    fn completion_drops_the_value_not_sampled_yet() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(&sch, [(ms(10), Next(1)), (ms(20), Completed)])
            .sample(ms(50), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(20), Completed)]);
        // The ticks stop with the completion.
        assert!(sch.is_empty());
    }

    #[test]
    fn synchronous_and_empty_sources_complete_at_once() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .sample(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_completed();

        let o = TestObserver::<i32>::new();
        empty()
            .sample(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_completed();
        assert!(sch.is_empty());
    }

    #[test]
    fn error_drops_the_latest_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(10), Next(1)),
                (ms(60), Next(2)),
                (ms(70), Error(Error::msg("bad"))),
            ],
        )
        .sample(ms(50), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(50), Next(1)), (ms(70), Error(Error::msg("bad")))]);
    }

    #[test]
    fn disposing_the_handle_stops_ticks_and_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = interval(ms(10), sch.clone())
            .sample(ms(25), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(50));
        o.assert_values(&[1, 3]);
        handle.dispose();
        assert!(sch.is_empty());
        o.assert_not_terminated();
    }

    #[test]
    fn disposed_downstream_stops_ticks_and_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        interval(ms(10), sch.clone())
            .sample(ms(25), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(25));
        o.dispose();
        // Noticed at the next tick, which closes the subscription instead of delivering.
        sch.advance_by(ms(25));
        assert!(sch.is_empty());
        o.assert_values(&[1]);
        o.assert_not_terminated();
    }

    #[test]
    #[should_panic(expected = "period must be non-zero")]
    fn zero_period_panics() {
        let _ = empty::<i32>().sample(Duration::ZERO, TestScheduler::new());
    }
}
