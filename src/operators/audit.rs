//! [`ObservableExt::audit`](crate::ObservableExt::audit).

use crate::Error;
use crate::engine::drain::{Drain, Ready};
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::schedulers::{Reschedule, Scheduler, Worker};
use crate::subscription::Subscription;
use std::fmt;
use std::mem;
use std::time::Duration;

/// Emits the latest value when the window its first value opened ends; built by
/// [`ObservableExt::audit`](crate::ObservableExt::audit).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "auditTime")]
pub struct Audit<S, Sch> {
    source: S,
    window: Duration,
    scheduler: Sch,
}

impl<S, Sch> Audit<S, Sch> {
    pub(crate) fn new(source: S, window: Duration, scheduler: Sch) -> Self {
        Audit {
            source,
            window,
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for Audit<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for Audit<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<AuditObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<<S as Observable>::Item> + crate::schedulers::ThreadObserver,
{
    type Subscription = Box<dyn Subscription + Send + Sync>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let state = AuditState {
            latest: None,
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
        let upstream = self.source.subscribe_observer(AuditObserver {
            drain: drain.clone(),
            window: self.window,
        });
        drain.set_upstream(upstream);
        Box::new(drain)
    }
}

struct AuditState<T> {
    /// The latest value of the open window; a window is open exactly while this is `Some`,
    /// and its timer task is then scheduled.
    latest: Option<T>,
    /// What the timer took for delivery. A newer value replaces one not yet taken, which
    /// only a downstream slower than a whole window can cause; the newer one is kept.
    ready: Option<T>,
    /// Upstream has completed while a window is open: the completion follows its value.
    upstream_done: bool,
    completed: bool,
    error: Option<Error>,
}

impl<T> Ready<T> for AuditState<T> {
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

/// The observer [`Audit`] subscribes upstream.
pub struct AuditObserver<W, O, T> {
    drain: Arc<Drain<W, O, AuditState<T>>>,
    window: Duration,
}

impl<W, O, T> Observer<T> for AuditObserver<W, O, T>
where
    W: Worker,
    O: Observer<T> + crate::schedulers::ThreadObserver,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        if self.drain.is_closed() {
            return;
        }
        let now = self.drain.worker().now();
        let (replaced, start) = self.drain.with(|state| {
            let start = state.latest.is_none();
            (state.latest.replace(value), start)
        });
        // Dropped outside the lock: its `Drop` is user code.
        drop(replaced);
        if start {
            let drain = self.drain.clone();
            self.drain.worker().schedule_at(now + self.window, move || {
                drain.drain_with(|state| {
                    state.ready = state.latest.take();
                    state.completed = state.upstream_done;
                });
                Reschedule::Done
            });
        }
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
        // The value of an open window is emitted when the window ends, then the completion
        // (RxJS's `audit`).
        self.drain.drain_with(|state| {
            if state.latest.is_some() {
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

impl<W, O, T> fmt::Debug for AuditObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuditObserver")
            .field("window", &self.window)
            .finish_non_exhaustive()
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
    fn each_window_emits_its_latest_value_when_it_ends() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        // 'a' opens [10, 40]; 'd' opens [50, 80]; 'e' opens [100, 130].
        cold(
            &sch,
            [
                (ms(10), Next('a')),
                (ms(20), Next('b')),
                (ms(35), Next('c')),
                (ms(50), Next('d')),
                (ms(100), Next('e')),
                (ms(200), Completed),
            ],
        )
        .audit(ms(30), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(40), Next('c')),
            (ms(80), Next('d')),
            (ms(130), Next('e')),
            (ms(200), Completed),
        ]);
    }

    #[test]
    fn completion_waits_for_the_open_window() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        from_iter([1, 2, 3])
            .audit(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_timeline(&[]);
        sch.run();
        o.assert_timeline(&[(ms(10), Next(3)), (ms(10), Completed)]);
        assert!(sch.is_empty());
    }

    #[test]
    fn error_drops_the_open_window() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [(ms(10), Next(1)), (ms(20), Error(Error::msg("bad")))],
        )
        .audit(ms(30), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(20), Error(Error::msg("bad")))]);
        assert!(sch.is_empty());
    }

    #[test]
    fn empty_completes_at_once() {
        let sch = TestScheduler::new();
        let o = TestObserver::<i32>::new();
        empty()
            .audit(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_completed();
        assert!(sch.is_empty());
    }

    #[test]
    fn disposing_the_handle_cancels_the_window_and_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = interval(ms(10), sch.clone())
            .audit(ms(25), sch.clone())
            .subscribe_observer(o.clone());
        // [10, 35] emits 2; 3 at 40 opens [40, 65].
        sch.advance_by(ms(50));
        o.assert_values(&[2]);
        handle.dispose();
        assert!(sch.is_empty());
        o.assert_not_terminated();
    }

    #[test]
    fn disposed_downstream_is_noticed_at_the_next_emission() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        interval(ms(10), sch.clone())
            .audit(ms(25), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(40));
        o.dispose();
        sch.advance_by(ms(30));
        o.assert_values(&[2]);
        assert!(sch.is_empty());
    }
}
