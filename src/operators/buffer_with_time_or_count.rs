//! [`ObservableExt::buffer_with_time_or_count`](crate::ObservableExt::buffer_with_time_or_count).

use crate::Error;
use crate::engine::drain::{Drain, Ready};
use crate::notification::Notification;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use crate::schedulers::{DeferringScheduler, Reschedule, Scheduler, Worker};
use crate::subscription::Subscription;
use crate::time::Instant;
use std::collections::VecDeque;
use std::fmt;
use std::mem;
use std::time::Duration;

/// Collects values into a `Vec` until a window of time ends or the `Vec` is full, whichever
/// comes first; built by
/// [`ObservableExt::buffer_with_time_or_count`](crate::ObservableExt::buffer_with_time_or_count).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "bufferTime")]
pub struct BufferWithTimeOrCount<S, Sch> {
    source: S,
    window: Duration,
    count: usize,
    scheduler: Sch,
}

impl<S, Sch: DeferringScheduler> BufferWithTimeOrCount<S, Sch> {
    pub(crate) fn new(source: S, window: Duration, count: usize, scheduler: Sch) -> Self {
        assert!(
            !window.is_zero(),
            "buffer_with_time_or_count: the window must be non-zero"
        );
        assert!(
            count > 0,
            "buffer_with_time_or_count: the count must be non-zero"
        );
        BufferWithTimeOrCount {
            source,
            window,
            count,
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for BufferWithTimeOrCount<S, Sch> {
    type Item = Vec<S::Item>;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for BufferWithTimeOrCount<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<BufferWithTimeOrCountObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Send + 'static,
    O: Observer<Vec<<S as Observable>::Item>> + crate::schedulers::ThreadObserver,
{
    type Subscription = Box<dyn Subscription + Send + Sync>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let worker = self.scheduler.worker();
        let window = self.window;
        let state = BufferState {
            buffer: Vec::new(),
            deadline: worker.now() + window,
            ready: VecDeque::new(),
            completed: false,
            error: None,
        };
        let unwanted = observer.is_disposed();
        let drain = Arc::new(Drain::new(worker, observer, state));
        if unwanted {
            drain.close();
            return Box::new(drain);
        }
        // One task for the whole subscription: a buffer closed by its count moves the
        // deadline, and the task, waking before it, sleeps again until it.
        let tick_drain = drain.clone();
        let first = drain.with(|state| state.deadline);
        drain.worker().schedule_at(first, move || {
            let now = tick_drain.worker().now();
            let mut next = now;
            tick_drain.tick_with(|state| {
                if now >= state.deadline {
                    let full = mem::take(&mut state.buffer);
                    state.ready.push_back(full);
                    state.deadline += window;
                }
                next = state.deadline;
            });
            if tick_drain.is_closed() {
                return Reschedule::Done;
            }
            Reschedule::At(next)
        });
        let upstream = self
            .source
            .subscribe_observer(BufferWithTimeOrCountObserver {
                drain: drain.clone(),
                window,
                count: self.count,
            });
        drain.set_upstream(upstream);
        Box::new(drain)
    }
}

struct BufferState<T> {
    /// The buffer being filled.
    buffer: Vec<T>,
    /// When the buffer being filled closes unless it fills first: `window` after the
    /// previous one closed.
    deadline: Instant,
    /// Closed buffers not delivered yet: more than one only while another delivery is under
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

/// The observer [`BufferWithTimeOrCount`] subscribes upstream.
pub struct BufferWithTimeOrCountObserver<W, O, T> {
    drain: Arc<Drain<W, O, BufferState<T>>>,
    window: Duration,
    count: usize,
}

impl<W, O, T> Observer<T> for BufferWithTimeOrCountObserver<W, O, T>
where
    W: Worker,
    O: Observer<Vec<T>> + crate::schedulers::ThreadObserver,
    T: Send + 'static,
{
    fn on_next(&mut self, value: T) {
        if self.drain.is_closed() {
            return;
        }
        let (count, window, worker) = (self.count, self.window, self.drain.worker());
        self.drain.drain_with(|state| {
            state.buffer.push(value);
            if state.buffer.len() >= count {
                // A full buffer closes now and the next window starts from here (RxJS's
                // `bufferTime` with a `maxBufferSize`, Rx.NET's `Buffer(timeSpan, count)`).
                let full = mem::take(&mut state.buffer);
                state.ready.push_back(full);
                state.deadline = worker.now() + window;
            }
        });
    }

    fn on_error(self, error: Error) {
        let dropped = self.drain.with(|state| {
            state.error = Some(error);
            (mem::take(&mut state.buffer), mem::take(&mut state.ready))
        });
        drop(dropped);
        self.drain.drain();
    }

    fn on_completed(self) {
        // The buffer under way is emitted, even empty, then the completion (RxJS).
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

impl<W, O, T> fmt::Debug for BufferWithTimeOrCountObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BufferWithTimeOrCountObserver")
            .field("window", &self.window)
            .field("count", &self.count)
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
    fn a_full_buffer_closes_early_and_restarts_the_window() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [
                (ms(10), Next(1)),
                (ms(20), Next(2)),
                (ms(25), Next(3)), // full at 25: the next window ends at 75
                (ms(60), Next(4)),
                (ms(140), Next(5)),
                (ms(150), Completed),
            ],
        )
        .buffer_with_time_or_count(ms(50), 3, sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(25), Next(vec![1, 2, 3])),
            (ms(75), Next(vec![4])),
            (ms(125), Next(vec![])),
            (ms(150), Next(vec![5])),
            (ms(150), Completed),
        ]);
        assert!(sch.is_empty());
    }

    #[test]
    fn a_synchronous_source_is_cut_by_count() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter(1..=5)
            .buffer_with_time_or_count(ms(10), 2, sch.clone())
            .subscribe_observer(o.clone());
        o.assert_values(&[vec![1, 2], vec![3, 4], vec![5]]);
        o.assert_completed();

        let o = TestObserver::new();
        from_iter(1..=4)
            .buffer_with_time_or_count(ms(10), 2, sch.clone())
            .subscribe_observer(o.clone());
        // The buffer under way at completion goes out even empty.
        o.assert_values(&[vec![1, 2], vec![3, 4], vec![]]);
        assert!(sch.is_empty());
    }

    #[test]
    fn error_drops_the_buffer() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [(ms(10), Next(1)), (ms(20), Error(Error::msg("bad")))],
        )
        .buffer_with_time_or_count(ms(50), 5, sch.clone())
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(20), Error(Error::msg("bad")))]);
    }

    #[test]
    fn disposing_the_handle_stops_the_timer_and_upstream() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        let handle = interval(ms(10), sch.clone())
            .buffer_with_time_or_count(ms(25), 10, sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(60));
        o.assert_values(&[vec![0, 1], vec![2, 3]]);
        handle.dispose();
        assert!(sch.is_empty());
        o.assert_not_terminated();
    }

    #[test]
    fn the_window_after_many_count_flushes_ends_on_time() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        interval(ms(1), sch.clone())
            .take(100)
            .buffer_with_time_or_count(ms(30), 2, sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        let timeline = o.timeline();
        // Fifty full pairs, each at its second value, then the empty buffer under way at the
        // completion; the timer, pushed back by every flush, never fired on its own.
        assert_eq!(timeline.len(), 52);
        assert_eq!(timeline[0], (ms(2), Next(vec![0, 1])));
        assert_eq!(timeline[49], (ms(100), Next(vec![98, 99])));
        assert_eq!(timeline[50], (ms(100), Next(vec![])));
        assert_eq!(timeline[51], (ms(100), Completed));
        assert!(sch.is_empty());
    }

    #[test]
    #[should_panic(expected = "count must be non-zero")]
    fn zero_count_panics() {
        let _ = empty::<i32>().buffer_with_time_or_count(ms(1), 0, TestScheduler::new());
    }

    #[test]
    #[should_panic(expected = "window must be non-zero")]
    fn zero_window_panics() {
        let _ = empty::<i32>().buffer_with_time_or_count(Duration::ZERO, 1, TestScheduler::new());
    }
}
