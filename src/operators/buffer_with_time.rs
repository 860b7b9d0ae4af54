//! [`ObservableExt::buffer_with_time`](crate::ObservableExt::buffer_with_time).

use crate::Error;
use crate::engine::drain::{Drain, Ready};
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::schedulers::{DeferringScheduler, Reschedule, Scheduler, Worker};
use crate::subscription::Subscription;
use std::collections::VecDeque;
use std::fmt;
use std::mem;
use std::time::Duration;

/// Collects the values of each consecutive time window into a `Vec`; built by
/// [`ObservableExt::buffer_with_time`](crate::ObservableExt::buffer_with_time).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "bufferTime")]
pub struct BufferWithTime<S, Sch> {
    source: S,
    window: Duration,
    scheduler: Sch,
}

impl<S, Sch: DeferringScheduler> BufferWithTime<S, Sch> {
    pub(crate) fn new(source: S, window: Duration, scheduler: Sch) -> Self {
        assert!(
            !window.is_zero(),
            "buffer_with_time: the window must be non-zero"
        );
        BufferWithTime {
            source,
            window,
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for BufferWithTime<S, Sch> {
    type Item = Vec<S::Item>;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for BufferWithTime<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<BufferWithTimeObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<Vec<<S as Observable>::Item>> + crate::schedulers::ThreadObserver,
{
    type Subscription = Box<dyn Subscription + Send + Sync>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let worker = self.scheduler.worker();
        let state = BufferState {
            buffer: Vec::new(),
            ready: VecDeque::new(),
            completed: false,
            error: None,
        };
        let drain = Arc::new(Drain::new(worker, observer, state));
        // The windows start before upstream is subscribed, as in RxJava: a value at the
        // instant a window ends belongs to the next one.
        let window = self.window;
        let mut due = drain.worker().now() + window;
        let tick_drain = drain.clone();
        drain.worker().schedule_at(due, move || {
            tick_drain.tick_with(|state| {
                let full = mem::take(&mut state.buffer);
                state.ready.push_back(full);
            });
            if tick_drain.is_closed() {
                return Reschedule::Done;
            }
            due += window;
            Reschedule::At(due)
        });
        let upstream = self.source.subscribe_observer(BufferWithTimeObserver {
            drain: drain.clone(),
        });
        drain.set_upstream(upstream);
        Box::new(drain)
    }
}

struct BufferState<T> {
    /// The current window.
    buffer: Vec<T>,
    /// Closed windows not delivered yet: more than one only while another delivery is under
    /// way.
    ready: VecDeque<Vec<T>>,
    completed: bool,
    error: Option<Error>,
}

impl<T> Ready<Vec<T>> for BufferState<T> {
    fn next_ready(&mut self) -> Option<Notification<Vec<T>>> {
        if let Some(error) = self.error.take() {
            return Some(Notification::Error(error));
        }
        if let Some(buffer) = self.ready.pop_front() {
            return Some(Notification::Next(buffer));
        }
        mem::take(&mut self.completed).then_some(Notification::Completed)
    }
}

/// The observer [`BufferWithTime`] subscribes upstream.
pub struct BufferWithTimeObserver<W, O, T> {
    drain: Arc<Drain<W, O, BufferState<T>>>,
}

impl<W, O, T> Observer<T> for BufferWithTimeObserver<W, O, T>
where
    W: Worker,
    O: Observer<Vec<T>> + crate::schedulers::ThreadObserver,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        if self.drain.is_closed() {
            return;
        }
        self.drain.with(|state| state.buffer.push(value));
    }

    fn on_error(self, error: Error) {
        // What was collected is dropped, as in RxJava.
        let dropped = self.drain.with(|state| {
            state.error = Some(error);
            (mem::take(&mut state.buffer), mem::take(&mut state.ready))
        });
        drop(dropped);
        self.drain.drain();
    }

    fn on_completed(self) {
        // The window under way is emitted, even empty, then the completion (RxJava, RxJS).
        self.drain.drain_with(|state| {
            let last = mem::take(&mut state.buffer);
            state.ready.push_back(last);
            state.completed = true;
        });
    }

    fn is_disposed(&self) -> bool {
        self.drain.is_closed()
    }
}

impl<W, O, T> fmt::Debug for BufferWithTimeObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BufferWithTimeObserver")
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
    fn one_vec_per_window_including_empty_ones() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(10), Next(1)),
                (ms(20), Next(2)),
                (ms(50), Next(3)), // the window ending at 50 is closed first
                (ms(60), Next(4)),
                (ms(170), Next(5)),
                (ms(180), Completed),
            ],
        )
        .buffer_with_time(ms(50), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(50), Next(vec![1, 2])),
            (ms(100), Next(vec![3, 4])),
            (ms(150), Next(vec![])),
            (ms(180), Next(vec![5])),
            (ms(180), Completed),
        ]);
    }

    #[test]
    fn completion_emits_the_current_window_even_empty() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .buffer_with_time(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_values(&[vec![1, 2, 3]]);
        o.assert_completed();

        let o = TestObserver::<Vec<i32>>::new();
        empty()
            .buffer_with_time(ms(10), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_values(&[vec![]]);
        o.assert_completed();
        assert!(sch.is_empty());
    }

    #[test]
    fn error_drops_the_current_window() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(10), Next(1)),
                (ms(30), Next(2)),
                (ms(40), Error(Error::msg("bad"))),
            ],
        )
        .buffer_with_time(ms(25), sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(25), Next(vec![1])), (ms(40), Error(Error::msg("bad")))]);
    }

    #[test]
    fn disposing_the_handle_stops_windows_and_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = interval(ms(10), sch.clone())
            .buffer_with_time(ms(25), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(60));
        o.assert_values(&[vec![0, 1], vec![2, 3]]);
        handle.dispose();
        assert!(sch.is_empty());
        o.assert_not_terminated();
    }

    #[test]
    fn disposed_downstream_stops_windows_and_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        interval(ms(10), sch.clone())
            .buffer_with_time(ms(25), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(25));
        o.dispose();
        sch.advance_by(ms(25));
        assert!(sch.is_empty());
        o.assert_values(&[vec![0, 1]]);
    }

    #[test]
    #[should_panic(expected = "window must be non-zero")]
    fn zero_window_panics() {
        let _ = empty::<i32>().buffer_with_time(Duration::ZERO, TestScheduler::new());
    }
}
