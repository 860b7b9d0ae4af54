//! [`ObservableExt::buffer_with_skip`](crate::ObservableExt::buffer_with_skip).

use super::buffer::MAX_PREALLOCATED;
use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::collections::VecDeque;

/// Collects values into `Vec`s of a fixed length, starting a new one every `skip` values;
/// built by [`ObservableExt::buffer_with_skip`](crate::ObservableExt::buffer_with_skip).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "buffer")]
#[doc(alias = "bufferCount")]
#[doc(alias = "windows")]
pub struct BufferWithSkip<S> {
    source: S,
    count: usize,
    skip: usize,
}

impl<S> BufferWithSkip<S> {
    pub(crate) fn new(source: S, count: usize, skip: usize) -> Self {
        assert!(
            count > 0,
            "buffer_with_skip: count must be greater than zero"
        );
        assert!(skip > 0, "buffer_with_skip: skip must be greater than zero");
        BufferWithSkip {
            source,
            count,
            skip,
        }
    }
}

impl<S: Observable> Observable for BufferWithSkip<S> {
    type Item = Vec<S::Item>;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for BufferWithSkip<S>
where
    S: Subscribe<BufferWithSkipObserver<O, <S as Observable>::Item>>,
    <S as Observable>::Item: Clone,
    O: Observer<Vec<<S as Observable>::Item>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(BufferWithSkipObserver {
            observer,
            buffers: VecDeque::new(),
            count: self.count,
            skip: self.skip,
            until_next_buffer: 0,
        })
    }
}

/// The observer [`BufferWithSkip`] subscribes upstream.
#[derive(Debug)]
pub struct BufferWithSkipObserver<O, T> {
    observer: O,
    /// The open buffers, oldest (and fullest) first. At most `ceil(count / skip)` of them.
    buffers: VecDeque<Vec<T>>,
    count: usize,
    skip: usize,
    /// Values to go before the next buffer opens; 0 means the next value opens one.
    until_next_buffer: usize,
}

impl<T: Clone, O: Observer<Vec<T>>> Observer<T> for BufferWithSkipObserver<O, T> {
    fn on_next(&mut self, value: T) {
        if self.until_next_buffer == 0 {
            self.buffers
                .push_back(Vec::with_capacity(self.count.min(MAX_PREALLOCATED)));
            self.until_next_buffer = self.skip;
        }
        self.until_next_buffer -= 1;

        // With skip > count, values between two buffers belong to none and are dropped.
        let Some(newest) = self.buffers.len().checked_sub(1) else {
            return;
        };
        for buffer in self.buffers.range_mut(..newest) {
            buffer.push(value.clone());
        }
        self.buffers[newest].push(value);

        // Buffers open in order and fill at the same pace, so only the oldest can be full.
        if self.buffers.front().is_some_and(|b| b.len() == self.count) {
            let full = self.buffers.pop_front().expect("checked above");
            self.observer.on_next(full);
        }
    }

    fn on_error(self, error: Error) {
        // Open buffers are dropped: an error cuts the sequence short, as in RxJava.
        self.observer.on_error(error)
    }

    fn on_completed(mut self) {
        // Every open buffer is emitted, partial ones included, oldest first, as in RxJava.
        for buffer in self.buffers {
            if self.observer.is_disposed() {
                return;
            }
            self.observer.on_next(buffer);
        }
        if !self.observer.is_disposed() {
            self.observer.on_completed()
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.is_disposed()
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{empty, from_iter, throw};
    use crate::testing::TestObserver;
    use crate::{Error, Notification};

    fn run(
        values: std::ops::RangeInclusive<i32>,
        count: usize,
        skip: usize,
    ) -> TestObserver<Vec<i32>> {
        let o = TestObserver::new();
        from_iter(values)
            .buffer_with_skip(count, skip)
            .subscribe_observer(o.clone());
        o.assert_completed();
        o
    }

    #[test]
    fn skip_equal_to_count_is_buffer() {
        run(1..=5, 2, 2).assert_values(&[vec![1, 2], vec![3, 4], vec![5]]);
    }

    #[test]
    fn skip_smaller_than_count_overlaps() {
        run(1..=5, 3, 1).assert_values(&[
            vec![1, 2, 3],
            vec![2, 3, 4],
            vec![3, 4, 5],
            vec![4, 5],
            vec![5],
        ]);
        run(1..=6, 3, 2).assert_values(&[vec![1, 2, 3], vec![3, 4, 5], vec![5, 6]]);
    }

    #[test]
    fn skip_larger_than_count_drops_values_between_buffers() {
        run(1..=7, 2, 3).assert_values(&[vec![1, 2], vec![4, 5], vec![7]]);
        // The last buffer opened but got no value past its first: still flushed.
        run(1..=8, 2, 3).assert_values(&[vec![1, 2], vec![4, 5], vec![7, 8]]);
        // Completion in a gap between buffers: nothing partial to flush.
        run(1..=6, 2, 3).assert_values(&[vec![1, 2], vec![4, 5]]);
    }

    #[test]
    fn empty_source_emits_no_buffer() {
        let o = TestObserver::<Vec<i32>>::new();
        empty::<i32>()
            .buffer_with_skip(2, 1)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn error_drops_open_buffers() {
        let o = TestObserver::new();
        from_iter([Ok(1), Ok(2), Ok(3), Err(Error::msg("cut"))])
            .try_map(|r| r)
            .buffer_with_skip(2, 1)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(vec![1, 2]),
            Notification::Next(vec![2, 3]),
            Notification::Error(Error::msg("cut")),
        ]);

        let o = TestObserver::<Vec<i32>>::new();
        throw::<i32>(Error::msg("bad"))
            .buffer_with_skip(2, 3)
            .subscribe_observer(o.clone());
        o.assert_error("bad");
    }

    #[test]
    #[should_panic(expected = "buffer_with_skip: count must be greater than zero")]
    fn zero_count_panics_at_construction() {
        let _ = from_iter(1..=3).buffer_with_skip(0, 1);
    }

    #[test]
    #[should_panic(expected = "buffer_with_skip: skip must be greater than zero")]
    fn zero_skip_panics_at_construction() {
        let _ = from_iter(1..=3).buffer_with_skip(1, 0);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .buffer_with_skip(3, 1)
            .map(|b| {
                if b[0] == 1 {
                    probe.dispose();
                }
                b
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[vec![0, 1, 2], vec![1, 2, 3]]);
        o.assert_not_terminated();
    }

    #[test]
    fn disposal_during_the_flush_stops_it() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(1..=3)
            .buffer_with_skip(3, 1)
            .map(|b| {
                if b.len() == 2 {
                    probe.dispose();
                }
                b
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(vec![1, 2, 3]),
            Notification::Next(vec![2, 3]),
        ]);
    }
}
