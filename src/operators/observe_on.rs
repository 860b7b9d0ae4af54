//! [`ObservableExt::observe_on`](crate::ObservableExt::observe_on).

use crate::Error;
use crate::engine::drain::{Drain, ReadyBatch, runs_inline};
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::schedulers::{Reschedule, Scheduler, Worker};
use crate::subscription::Subscription;
use std::collections::VecDeque;
use std::fmt;
use std::mem;

/// Delivers every notification on a scheduler's worker; built by
/// [`ObservableExt::observe_on`](crate::ObservableExt::observe_on).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "observeOn")]
pub struct ObserveOn<S, Sch> {
    source: S,
    scheduler: Sch,
}

impl<S, Sch> ObserveOn<S, Sch> {
    pub(crate) fn new(source: S, scheduler: Sch) -> Self {
        ObserveOn { source, scheduler }
    }
}

impl<S: Observable, Sch> Observable for ObserveOn<S, Sch> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for ObserveOn<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<ObserveOnObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<<S as Observable>::Item> + crate::schedulers::ThreadObserver,
{
    type Subscription = ObserveOnSubscription<S::Subscription>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if runs_inline::<Sch::Worker>() {
            let upstream = self.source.subscribe_observer(ObserveOnObserver {
                mode: Mode::Direct(observer),
            });
            return ObserveOnSubscription {
                mode: HandleMode::Direct(upstream),
            };
        }
        let state = ObserveOnState {
            queue: VecDeque::new(),
            spare: VecDeque::new(),
            armed: false,
        };
        let drain = Arc::new(Drain::new(self.scheduler.worker(), observer, state));
        let upstream = self.source.subscribe_observer(ObserveOnObserver {
            mode: Mode::Queued(drain.clone()),
        });
        drain.set_upstream(upstream);
        ObserveOnSubscription {
            mode: HandleMode::Queued(Box::new(drain)),
        }
    }
}

struct ObserveOnState<T> {
    /// Notifications on their way to the worker, in arrival order.
    queue: VecDeque<Notification<T>>,
    /// The buffer of the batch delivered last, emptied: the next batch's, so that the two
    /// buffers swap and neither allocates once grown.
    spare: VecDeque<Notification<T>>,
    /// The delivering task is scheduled or running; it takes whatever arrives meanwhile.
    armed: bool,
}

impl<T> ReadyBatch<T> for ObserveOnState<T> {
    fn take_batch(&mut self) -> VecDeque<Notification<T>> {
        let spare = mem::take(&mut self.spare);
        mem::replace(&mut self.queue, spare)
    }

    fn give_back(&mut self, spare: VecDeque<Notification<T>>) {
        self.spare = spare;
    }
}

type ObserveOnDrain<W, O, T> = Drain<W, O, ObserveOnState<T>>;

/// Queues a notification, and schedules the delivering task unless it is already scheduled.
fn enqueue<W, O, T>(drain: &Arc<ObserveOnDrain<W, O, T>>, notification: Notification<T>)
where
    W: Worker,
    O: Observer<T> + crate::schedulers::ThreadObserver,
    T: Send + 'static,
{
    let start = drain.with(|state| {
        state.queue.push_back(notification);
        !mem::replace(&mut state.armed, true)
    });
    if start {
        let task_drain = drain.clone();
        drain.worker().schedule(move || deliver(&task_drain));
    }
}

/// The delivering task: everything queued, in order, as one batch; then, if more has arrived
/// meanwhile, it runs again after what else the worker has queued, so a busy source does not
/// starve the worker's other tasks.
fn deliver<W, O, T>(drain: &ObserveOnDrain<W, O, T>) -> Reschedule
where
    W: Worker,
    O: Observer<T>,
{
    drain.drain_batch();
    drain.with(|state| {
        if state.queue.is_empty() || drain.is_closed() {
            state.armed = false;
            Reschedule::Done
        } else {
            Reschedule::At(drain.worker().now())
        }
    })
}

/// The observer [`ObserveOn`] subscribes upstream.
pub struct ObserveOnObserver<W, O, T> {
    mode: Mode<W, O, T>,
}

enum Mode<W, O, T> {
    /// The worker runs tasks inline: deliver directly.
    Direct(O),
    /// Through a queue drained by one task on the worker.
    Queued(Arc<ObserveOnDrain<W, O, T>>),
}

impl<W, O, T> Observer<T> for ObserveOnObserver<W, O, T>
where
    W: Worker,
    O: Observer<T> + crate::schedulers::ThreadObserver,
    T: Send + 'static,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        match &mut self.mode {
            Mode::Direct(observer) => observer.on_next(value),
            Mode::Queued(drain) => {
                if !drain.is_closed() {
                    enqueue(drain, Notification::Next(value));
                }
            }
        }
    }

    fn on_error(self, error: Error) {
        match self.mode {
            Mode::Direct(observer) => observer.on_error(error),
            Mode::Queued(drain) => {
                if !drain.is_closed() {
                    enqueue(&drain, Notification::Error(error));
                }
            }
        }
    }

    fn on_completed(self) {
        match self.mode {
            Mode::Direct(observer) => observer.on_completed(),
            Mode::Queued(drain) => {
                if !drain.is_closed() {
                    enqueue(&drain, Notification::Completed);
                }
            }
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        match &self.mode {
            Mode::Direct(observer) => observer.is_disposed(),
            Mode::Queued(drain) => drain.is_closed(),
        }
    }
}

impl<W, O, T> fmt::Debug for ObserveOnObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mode = match self.mode {
            Mode::Direct(_) => "direct",
            Mode::Queued(_) => "queued",
        };
        f.debug_struct("ObserveOnObserver")
            .field("mode", &mode)
            .finish_non_exhaustive()
    }
}

/// The handle of an [`ObserveOn`] subscription: upstream's own handle when the scheduler
/// runs tasks inline, otherwise one that also cancels the delivering task and drops what is
/// queued.
pub struct ObserveOnSubscription<U> {
    mode: HandleMode<U>,
}

enum HandleMode<U> {
    Direct(U),
    Queued(Box<dyn Subscription + Send + Sync>),
}

impl<U: Subscription> Subscription for ObserveOnSubscription<U> {
    fn dispose(&self) {
        match &self.mode {
            HandleMode::Direct(upstream) => upstream.dispose(),
            HandleMode::Queued(drain) => drain.dispose(),
        }
    }

    fn is_disposed(&self) -> bool {
        match &self.mode {
            HandleMode::Direct(upstream) => upstream.is_disposed(),
            HandleMode::Queued(drain) => drain.is_disposed(),
        }
    }
}

impl<U> fmt::Debug for ObserveOnSubscription<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObserveOnSubscription")
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::{Immediate, TestScheduler};
    use crate::source::{from_iter, interval, throw};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn delivers_on_the_worker_in_order() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .observe_on(sch.clone())
            .subscribe_observer(o.clone());
        // Nothing has run yet: the worker has not been given time.
        o.assert_values(&[]);
        sch.advance_by(Duration::ZERO);
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();
        assert!(sch.is_empty());
    }

    #[test]
    fn keeps_the_timing_of_a_timed_source() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(10), Next(1)),
                (ms(20), Next(2)),
                (ms(30), Error(Error::msg("bad"))),
            ],
        )
        .observe_on(sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(10), Next(1)),
            (ms(20), Next(2)),
            (ms(30), Error(Error::msg("bad"))),
        ]);
    }

    #[test]
    fn error_waits_behind_the_values_queued_before_it() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter([Ok(1), Err(Error::msg("bad"))])
            .try_map(|r| r)
            .observe_on(sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_values(&[1]);
        o.assert_error("bad");
    }

    #[test]
    fn disposing_the_handle_drops_what_is_queued() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = from_iter([1, 2, 3])
            .observe_on(sch.clone())
            .subscribe_observer(o.clone());
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
        interval(ms(10), sch.clone())
            .observe_on(sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(20));
        o.dispose();
        sch.advance_by(ms(10));
        assert!(sch.is_empty());
        o.assert_values(&[0, 1]);
    }

    #[test]
    fn immediate_delivers_directly() {
        let o = TestObserver::new();
        let handle = from_iter([1, 2])
            .observe_on(Immediate)
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
        o.assert_completed();
        assert!(handle.is_disposed());

        let o = TestObserver::<i32>::new();
        throw(Error::msg("bad"))
            .observe_on(Immediate)
            .subscribe_observer(o.clone());
        o.assert_error("bad");
    }

    #[test]
    fn immediate_forwards_disposal() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .map(move |v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .observe_on(Immediate)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
    }
}
