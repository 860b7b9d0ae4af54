//! [`ObservableExt::buffer_with_time_skip`](crate::ObservableExt::buffer_with_time_skip):
//! buffers of one span of time, one opening every shift, which overlap when the shift is
//! shorter than the span and leave gaps when it is longer.
//!
//! One task on the worker runs at each opening and each closing, whichever comes first, and
//! reschedules itself for the next without allocating; the buffers and their deadlines are
//! in a [`Drain`]'s state.

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

/// Collects the values into buffers of one span each, a buffer opening every shift; built by
/// [`ObservableExt::buffer_with_time_skip`](crate::ObservableExt::buffer_with_time_skip).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "bufferTime")]
#[doc(alias = "buffer")]
pub struct BufferWithTimeSkip<S, Sch> {
    source: S,
    span: Duration,
    shift: Duration,
    scheduler: Sch,
}

impl<S, Sch: DeferringScheduler> BufferWithTimeSkip<S, Sch> {
    pub(crate) fn new(source: S, span: Duration, shift: Duration, scheduler: Sch) -> Self {
        assert!(
            !span.is_zero() && !shift.is_zero(),
            "buffer_with_time_skip: the span and the shift must be non-zero"
        );
        BufferWithTimeSkip {
            source,
            span,
            shift,
            scheduler,
        }
    }
}

impl<S: Observable, Sch> Observable for BufferWithTimeSkip<S, Sch> {
    type Item = Vec<S::Item>;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, Sch, O> Subscribe<O> for BufferWithTimeSkip<S, Sch>
where
    Sch: Scheduler,
    S: Subscribe<BufferWithTimeSkipObserver<Sch::Worker, O, <S as Observable>::Item>>,
    S::Subscription: Send + 'static,
    <S as Observable>::Item: Clone + Send + 'static,
    O: Observer<Vec<<S as Observable>::Item>> + crate::schedulers::ThreadObserver,
{
    type Subscription = Box<dyn Subscription + Send + Sync>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let worker = self.scheduler.worker();
        let start = worker.now();
        let (span, shift) = (self.span, self.shift);
        let state = Buffers {
            open: VecDeque::from([(start + span, Vec::new())]),
            next_open: start + shift,
            ready: VecDeque::new(),
            completed: false,
            error: None,
        };
        let drain = Arc::new(Drain::new(worker, observer, state));
        // The first buffer opens at the subscription, before upstream is subscribed, as in
        // RxJava and RxJS: a value at the instant a buffer opens or closes finds that done.
        let tick_drain = drain.clone();
        let first = (start + span).min(start + shift);
        drain.worker().schedule_at(first, move || {
            let now = tick_drain.worker().now();
            let mut next = None;
            tick_drain.tick_with(|state| next = Some(state.advance(now, span, shift)));
            match next {
                Some(due) if !tick_drain.is_closed() => Reschedule::At(due),
                _ => Reschedule::Done,
            }
        });
        let upstream = self.source.subscribe_observer(BufferWithTimeSkipObserver {
            drain: drain.clone(),
        });
        drain.set_upstream(upstream);
        Box::new(drain)
    }
}

struct Buffers<T> {
    /// The open buffers, oldest first, each with the instant it closes.
    open: VecDeque<(Instant, Vec<T>)>,
    /// When the next buffer opens.
    next_open: Instant,
    /// Closed buffers not delivered yet.
    ready: VecDeque<Vec<T>>,
    completed: bool,
    error: Option<Error>,
}

impl<T> Buffers<T> {
    /// Closes the buffers due by `now` (closing first at a shared instant, so that equal span
    /// and shift make consecutive buffers), opens the one due, and tells when next to run.
    fn advance(&mut self, now: Instant, span: Duration, shift: Duration) -> Instant {
        while self.open.front().is_some_and(|(close, _)| *close <= now) {
            if let Some((_, buffer)) = self.open.pop_front() {
                self.ready.push_back(buffer);
            }
        }
        while self.next_open <= now {
            self.open.push_back((self.next_open + span, Vec::new()));
            self.next_open += shift;
        }
        self.open
            .front()
            .map_or(self.next_open, |(close, _)| (*close).min(self.next_open))
    }
}

impl<T> Ready<Vec<T>> for Buffers<T> {
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

/// The observer [`BufferWithTimeSkip`] subscribes upstream.
pub struct BufferWithTimeSkipObserver<W, O, T> {
    drain: Arc<Drain<W, O, Buffers<T>>>,
}

impl<W, O, T> Observer<T> for BufferWithTimeSkipObserver<W, O, T>
where
    W: Worker,
    O: Observer<Vec<T>> + crate::schedulers::ThreadObserver,
    T: Clone + Send + 'static,
{
    fn on_next(&mut self, value: T) {
        if self.drain.is_closed() {
            return;
        }
        self.drain.with(|state| {
            // Every open buffer gets the value: clones for all but the newest.
            if let Some(((_, newest), older)) = state.open.make_contiguous().split_last_mut() {
                for (_, buffer) in older {
                    buffer.push(value.clone());
                }
                newest.push(value);
            }
        });
    }

    fn on_error(self, error: Error) {
        // What was collected is dropped, as in RxJava.
        let dropped = self.drain.with(|state| {
            state.error = Some(error);
            (mem::take(&mut state.open), mem::take(&mut state.ready))
        });
        drop(dropped);
        self.drain.drain();
    }

    fn on_completed(self) {
        // The open buffers are emitted, oldest first, then the completion (RxJava, RxJS).
        self.drain.drain_with(|state| {
            let open = mem::take(&mut state.open);
            state
                .ready
                .extend(open.into_iter().map(|(_, buffer)| buffer));
            state.completed = true;
        });
    }

    fn is_disposed(&self) -> bool {
        self.drain.is_closed()
    }
}

impl<W, O, T> fmt::Debug for BufferWithTimeSkipObserver<W, O, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BufferWithTimeSkipObserver")
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, interval};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn overlapping_buffers_when_the_shift_is_shorter_than_the_span() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        // Values at 10, 20, ..., 60; buffers [0, 30), [20, 50), [40, 70).
        interval(ms(10), sch.clone())
            .take(6)
            .buffer_with_time_skip(ms(30), ms(20), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(30), Next(vec![0, 1])),
            (ms(50), Next(vec![1, 2, 3])),
            (ms(60), Next(vec![3, 4, 5])),
            (ms(60), Next(vec![5])),
            (ms(60), Completed),
        ]);
        assert!(sch.is_empty());
    }

    #[test]
    fn gaps_when_the_shift_is_longer_than_the_span() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        // Buffers [0, 15), [30, 45): values at 20 and 50 fall in no buffer.
        interval(ms(10), sch.clone())
            .take(5)
            .buffer_with_time_skip(ms(15), ms(30), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(15), Next(vec![0])),
            (ms(45), Next(vec![2, 3])),
            (ms(50), Completed),
        ]);
    }

    #[test]
    fn errors_drop_the_buffers_and_a_synchronous_source_fills_the_first() {
        let sch = TestScheduler::new();
        let o = TestObserver::new();
        from_iter([1, 2])
            .buffer_with_time_skip(ms(10), ms(5), sch.clone())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(vec![1, 2]), Completed]);
        assert!(sch.is_empty());

        let o = TimedObserver::new(&sch);
        cold(&sch, [(ms(5), Next(1)), (ms(7), Error(Error::msg("bad")))])
            .buffer_with_time_skip(ms(10), ms(5), sch.clone())
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(7), Error(Error::msg("bad")))]);
    }

    #[test]
    fn disposing_cancels_the_task() {
        let sch = TestScheduler::new();
        let o = TestObserver::<Vec<u64>>::new();
        let handle = interval(ms(10), sch.clone())
            .buffer_with_time_skip(ms(30), ms(20), sch.clone())
            .subscribe_observer(o.clone());
        sch.advance_by(ms(35));
        handle.dispose();
        assert!(sch.is_empty());
        o.assert_values(&[vec![0, 1]]);
    }
}
