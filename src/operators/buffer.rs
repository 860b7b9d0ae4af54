//! [`ObservableExt::buffer`](crate::ObservableExt::buffer).

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use std::mem;

/// A buffer is given room for its values up front, up to this many: a large `count` may never
/// fill, and must not reserve memory it will not use.
pub(crate) const MAX_PREALLOCATED: usize = 1024;

/// Collects values into `Vec`s of a fixed length; built by
/// [`ObservableExt::buffer`](crate::ObservableExt::buffer).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "bufferCount")]
#[doc(alias = "chunks")]
pub struct Buffer<S> {
    source: S,
    count: usize,
}

impl<S> Buffer<S> {
    pub(crate) fn new(source: S, count: usize) -> Self {
        assert!(count > 0, "buffer: count must be greater than zero");
        Buffer { source, count }
    }
}

impl<S: Observable> Observable for Buffer<S> {
    type Item = Vec<S::Item>;
    type Flavour = <S as Observable>::Flavour;
}

impl<S, O> Subscribe<O> for Buffer<S>
where
    S: Subscribe<BufferObserver<O, <S as Observable>::Item>>,
    O: Observer<Vec<<S as Observable>::Item>>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(BufferObserver {
            observer,
            buffer: Vec::new(),
            count: self.count,
        })
    }
}

/// The observer [`Buffer`] subscribes upstream.
#[derive(Debug)]
pub struct BufferObserver<O, T> {
    observer: O,
    /// Allocated at its first value, so a source that emits nothing costs nothing.
    buffer: Vec<T>,
    count: usize,
}

impl<T, O: Observer<Vec<T>>> Observer<T> for BufferObserver<O, T> {
    #[inline]
    fn on_next(&mut self, value: T) {
        if self.buffer.capacity() == 0 {
            // A fresh `Vec` of the right size: one call to the allocator, where growing the
            // empty one goes through `reserve`'s general path.
            self.buffer = Vec::with_capacity(self.count.min(MAX_PREALLOCATED));
        }
        self.buffer.push(value);
        if self.buffer.len() == self.count {
            self.observer.on_next(mem::take(&mut self.buffer));
        }
    }

    #[inline]
    fn on_error(self, error: Error) {
        // The partial buffer is dropped: an error cuts the sequence short, as in RxJava.
        self.observer.on_error(error)
    }

    #[inline]
    fn on_completed(mut self) {
        if !self.buffer.is_empty() {
            self.observer.on_next(self.buffer);
            if self.observer.is_disposed() {
                return;
            }
        }
        self.observer.on_completed()
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

    #[test]
    fn full_buffers_then_the_partial_one_at_completion() {
        let o = TestObserver::new();
        from_iter(1..=5).buffer(2).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(vec![1, 2]),
            Notification::Next(vec![3, 4]),
            Notification::Next(vec![5]),
            Notification::Completed,
        ]);
    }

    #[test]
    fn no_empty_buffer_at_completion() {
        let o = TestObserver::new();
        from_iter(1..=4).buffer(2).subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(vec![1, 2]),
            Notification::Next(vec![3, 4]),
            Notification::Completed,
        ]);

        let o = TestObserver::<Vec<i32>>::new();
        empty::<i32>().buffer(3).subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Completed]);
    }

    #[test]
    fn count_larger_than_the_source() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .buffer(usize::MAX)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(vec![1, 2, 3]), Notification::Completed]);
    }

    #[test]
    fn error_drops_the_partial_buffer() {
        let o = TestObserver::new();
        from_iter([Ok(1), Ok(2), Ok(3), Err(Error::msg("cut"))])
            .try_map(|r| r)
            .buffer(2)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Notification::Next(vec![1, 2]),
            Notification::Error(Error::msg("cut")),
        ]);

        let o = TestObserver::<Vec<i32>>::new();
        throw::<i32>(Error::msg("bad"))
            .buffer(2)
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Error(Error::msg("bad"))]);
    }

    #[test]
    #[should_panic(expected = "buffer: count must be greater than zero")]
    fn zero_count_panics_at_construction() {
        let _ = from_iter(1..=3).buffer(0);
    }

    #[test]
    fn downstream_disposal_stops_an_endless_source() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .buffer(2)
            .map(|b| {
                if b[0] == 4 {
                    probe.dispose();
                }
                b
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[vec![0, 1], vec![2, 3], vec![4, 5]]);
        o.assert_not_terminated();
    }

    #[test]
    fn disposed_during_the_flush_gets_no_completion() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(1..=3)
            .buffer(2)
            .map(|b| {
                if b.len() == 1 {
                    probe.dispose();
                }
                b
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Notification::Next(vec![1, 2]), Notification::Next(vec![3])]);
    }
}
