//! [`ObservableExt::debounce`](crate::ObservableExt::debounce).

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

/// Emits a value only once no other has followed it for a while; built by
/// [`ObservableExt::debounce`](crate::ObservableExt::debounce).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "debounceTime")]
#[doc(alias = "throttleWithTimeout")]
pub struct Debounce<S, Sch> {
    source: S,
    timeout: Duration,
    scheduler: Sch,
}

impl<S, Sch> Debounce<S, Sch> {
    pub(crate) fn new(source: S, timeout: Duration, scheduler: Sch) -> Self {
        Debounce {
            source,
            timeout,
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for Debounce<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for Debounce<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<DebounceObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<<S as Observable>::Item> + crate::schedulers::ThreadObserver,
{
    type Subscription = Box<dyn Subscription + Send + Sync>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let worker = self.scheduler.worker();
        let state = DebounceState {
            pending: None,
            deadline: worker.now(),
            armed: false,
            ready: None,
            completed: false,
            error: None,
        };
        let drain = Arc::new(Drain::new(worker, observer, state));
        let upstream = self.source.subscribe_observer(DebounceObserver {
            drain: drain.clone(),
            timeout: self.timeout,
        });
        drain.set_upstream(upstream);
        Box::new(drain)
    }
}

struct DebounceState<T> {
    /// The latest value, waiting for `timeout` of silence.
    pending: Option<T>,
    /// When `pending` may go: `timeout` after it arrived.
    deadline: Instant,
    /// The timer task is scheduled. There is one per burst of values: a value arriving while
    /// it waits only moves `deadline`, and the task, on waking early, sleeps again until it.
    armed: bool,
    /// What is ready for delivery. A newer value replaces one not yet taken, which only a
    /// re-entrant upstream can cause; for a debounce, the newer value is the one to keep.
    ready: Option<T>,
    completed: bool,
    error: Option<Error>,
}

impl<T> Ready<T> for DebounceState<T> {
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

type DebounceDrain<W, O, T> = Drain<W, O, DebounceState<T>>;

/// The timer task: emits the pending value once its deadline has come, or sleeps until a
/// deadline that a newer value has moved.
fn fire<W, O, T>(drain: &DebounceDrain<W, O, T>) -> Reschedule
where
    W: Worker,
    O: Observer<T>,
{
    let now = drain.worker().now();
    let mut again = None;
    drain.drain_with(|state| {
        if state.pending.is_some() && now < state.deadline {
            again = Some(state.deadline);
            return;
        }
        state.armed = false;
        if let Some(value) = state.pending.take() {
            state.ready = Some(value);
        }
    });
    match again {
        Some(deadline) if !drain.is_closed() => Reschedule::At(deadline),
        _ => Reschedule::Done,
    }
}

/// The observer [`Debounce`] subscribes upstream.
pub struct DebounceObserver<W, O, T> {
    drain: Arc<DebounceDrain<W, O, T>>,
    timeout: Duration,
}

impl<W, O, T> Observer<T> for DebounceObserver<W, O, T>
where
    W: Worker,
    O: Observer<T> + crate::schedulers::ThreadObserver,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        if self.drain.is_closed() {
            return;
        }
        let deadline = self.drain.worker().now() + self.timeout;
        let (replaced, start) = self.drain.with(|state| {
            state.deadline = deadline;
            let replaced = state.pending.replace(value);
            (replaced, !mem::replace(&mut state.armed, true))
        });
        // The value it replaced is dropped outside the lock: its `Drop` is user code.
        drop(replaced);
        if start {
            let drain = self.drain.clone();
            self.drain
                .worker()
                .schedule_at(deadline, move || fire(&drain));
        }
    }

    fn on_error(self, error: Error) {
        let dropped = self.drain.with(|state| {
            state.error = Some(error);
            (state.pending.take(), state.ready.take())
        });
        drop(dropped);
        self.drain.drain();
    }

    fn on_completed(self) {
        // The value still waiting goes at once, then the completion (RxJava, Rx.NET, RxJS).
        self.drain.drain_with(|state| {
            if let Some(value) = state.pending.take() {
                state.ready = Some(value);
            }
            state.completed = true;
        });
    }

    fn is_disposed(&self) -> bool {
        self.drain.is_closed()
    }
}

impl<W, O, T> fmt::Debug for DebounceObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DebounceObserver")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, interval, throw};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn drops_values_followed_too_soon_and_emits_after_the_silence() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(10), Next('a')),
                (ms(20), Next('b')), // replaces a
                (ms(60), Next('c')), // b goes at 50, c is replaced
                (ms(80), Next('d')),
                (ms(200), Next('e')), // d goes at 110
                (ms(210), Completed), // e goes at once, with the completion
            ],
        )
        .debounce(ms(30), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(50), Next('b')),
            (ms(110), Next('d')),
            (ms(210), Next('e')),
            (ms(210), Completed),
        ]);
    }

    #[test]
    fn a_value_exactly_at_the_deadline_is_emitted_before_the_next_arrives() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        // Each value is 30 after the previous one; the timeout is 30: the timer, scheduled
        // first, runs first at the shared instant, so every value is emitted.
        interval(ms(30), sch.clone())
            .debounce(ms(30), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(100));
        o.assert_timeline(&[(ms(60), Next(0)), (ms(90), Next(1))]);
    }

    #[test]
    fn a_steady_stream_faster_than_the_timeout_emits_nothing() {
        let sch = TestScheduler::new();
        let o = TimedObserver::<u64, _>::new(&sch);
        interval(ms(10), sch.clone())
            .debounce(ms(15), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(1000));
        o.assert_timeline(&[]);
    }

    #[test]
    fn synchronous_source_emits_its_last_value_on_completion() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .debounce(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_values(&[3]);
        o.assert_completed();
        // The timer that the values armed is cancelled with the completion.
        assert!(sch.is_empty());
    }

    #[test]
    fn empty_source_completes() {
        let sch = TestScheduler::new();
        let o = TestObserver::<i32>::new();
        empty()
            .debounce(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_completed();
    }

    #[test]
    fn error_drops_the_pending_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [(ms(10), Next(1)), (ms(20), Error(Error::msg("bad")))],
        )
        .debounce(ms(30), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(20), Error(Error::msg("bad")))]);

        let o = TestObserver::<i32>::new();
        throw(Error::msg("now"))
            .debounce(ms(30), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_error("now");
    }

    #[test]
    fn disposing_the_handle_drops_the_pending_value() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = interval(ms(10), sch.clone())
            .debounce(ms(50), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(15));
        handle.dispose();
        assert!(handle.is_disposed());
        assert!(sch.is_empty());
        o.assert_values(&[]);
        o.assert_not_terminated();
    }

    #[test]
    fn disposed_downstream_stops_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        cold(
            &sch,
            [(ms(10), Next(1)), (ms(100), Next(2)), (ms(200), Next(3))],
        )
        .debounce(ms(20), sch.clone())
        .subscribe_observer(o.clone());
        sch.advance_by(ms(50));
        o.assert_values(&[1]);
        o.dispose();
        sch.run();
        o.assert_values(&[1]);
        o.assert_not_terminated();
    }
}
