//! [`ObservableExt::buffer_with`](crate::ObservableExt::buffer_with).
//!
//! Built on the merge core: the source and the notifier may emit on different threads, and
//! the core serialises what each hands downstream and disposes both at the end.

use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Collects the values of its source and emits them as a `Vec` each time a notifier emits;
/// built by [`ObservableExt::buffer_with`](crate::ObservableExt::buffer_with).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "buffer")]
pub struct BufferWith<'a, S, N> {
    source: S,
    notifier: N,
    _handles: PhantomData<&'a ()>,
}

impl<S, N> BufferWith<'_, S, N> {
    pub(crate) fn new(source: S, notifier: N) -> Self {
        BufferWith {
            source,
            notifier,
            _handles: PhantomData,
        }
    }
}

impl<S: Observable, N: Observable> Observable for BufferWith<'_, S, N> {
    type Item = Vec<S::Item>;
    type Flavour = FlavourOf<S, N>;
}

/// The flavour of the handles a [`BufferWith`] keeps.
type FlavourOf<S, N> = Joined<<S as Observable>::Flavour, <N as Observable>::Flavour>;

impl<'a, S, N, O> Subscribe<O> for BufferWith<'a, S, N>
where
    S: Subscribe<BufferWithObserver<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>,
    FlavourOf<S, N>: BoxSubscription<
            'a,
            <S as Subscribe<BufferWithObserver<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>>::Subscription,
        >,
    N: Subscribe<BufferWithNotifier<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>,
    FlavourOf<S, N>: BoxSubscription<
            'a,
            <N as Subscribe<BufferWithNotifier<'a, O, <S as Observable>::Item, FlavourOf<S, N>>>>::Subscription,
        >,
    O: Observer<Vec<<S as Observable>::Item>>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S, N>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            return MergeSubscription::empty();
        }
        let core = MergeCore::<_, _, _, FlavourOf<S, N>>::new_shared(observer, Some(Vec::new()));
        // The source first, as RxJS subscribes them.
        core.subscribe_upstream(self.source, |id| BufferWithObserver {
            core: core.clone(),
            id,
        });
        core.subscribe_upstream(self.notifier, |id| BufferWithNotifier {
            core: core.clone(),
            id,
        });
        core.handle()
    }
}

/// The core's own state is the buffer being filled; `None` once the source has completed, so
/// that a notification racing the completion adds no empty buffer after the last one.
type BufferWithCore<'a, O, T, F> = MergeCore<'a, O, Vec<T>, Option<Vec<T>>, F>;

/// The observer [`BufferWith`] subscribes to its source.
pub struct BufferWithObserver<'a, O, T, F: Flavour = Shared> {
    core: Ptr<BufferWithCore<'a, O, T, F>, F>,
    id: u64,
}

impl<O: Observer<Vec<T>>, T, F: Flavour> Observer<T> for BufferWithObserver<'_, O, T, F> {
    fn on_next(&mut self, value: T) {
        let mut locked = self.core.lock();
        let closed = locked.is_closed();
        match locked.extra() {
            Some(buffer) if !closed => buffer.push(value),
            _ => {
                drop(locked);
                drop(value);
            }
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let buffer = locked.extra().take();
        locked.error(error);
        // Dropped outside the lock: its values' `Drop` is user code.
        drop(buffer);
    }

    fn on_completed(self) {
        // The buffer being filled goes out, even empty, then the completion (RxJS, RxJava).
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let buffer = locked.extra().take().unwrap_or_default();
        locked.next(buffer);
        self.core.lock().complete();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, F: Flavour> fmt::Debug for BufferWithObserver<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BufferWithObserver")
    }
}

/// The observer [`BufferWith`] subscribes to its notifier.
pub struct BufferWithNotifier<'a, O, T, F: Flavour = Shared> {
    core: Ptr<BufferWithCore<'a, O, T, F>, F>,
    id: u64,
}

impl<V, O: Observer<Vec<T>>, T, F: Flavour> Observer<V> for BufferWithNotifier<'_, O, T, F> {
    fn on_next(&mut self, _: V) {
        let mut locked = self.core.lock();
        if let Some(buffer) = locked.extra().as_mut().map(std::mem::take) {
            locked.next(buffer);
        }
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        let buffer = locked.extra().take();
        locked.error(error);
        drop(buffer);
    }

    fn on_completed(self) {
        // Buffers stop closing; the source goes on until it ends, and its completion emits
        // everything collected since (RxJS).
        self.core.lock().release_upstream(self.id);
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, F: Flavour> fmt::Debug for BufferWithNotifier<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BufferWithNotifier")
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, interval, never, throw};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn each_notification_emits_what_was_collected() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let notifier = Hot::<()>::new("notifier", &log);
        let o = TestObserver::new();
        source
            .clone()
            .buffer_with(notifier.clone())
            .subscribe_observer(o.clone());
        source.next(1);
        source.next(2);
        notifier.next(());
        notifier.next(());
        source.next(3);
        source.complete();
        o.assert_notifications(&[Next(vec![1, 2]), Next(vec![]), Next(vec![3]), Completed]);
        assert_eq!(
            drain(&log),
            ["subscribe source", "subscribe notifier", "dispose notifier"]
        );
    }

    #[test]
    fn on_virtual_time() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        interval(ms(10), sch.clone())
            .take(5)
            .buffer_with(interval(ms(23), sch.clone()))
            .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(23), Next(vec![0, 1])),
            (ms(46), Next(vec![2, 3])),
            (ms(50), Next(vec![4])),
            (ms(50), Completed),
        ]);
        assert!(sch.is_empty());
    }

    #[test]
    fn completion_emits_the_last_buffer_even_empty() {
        let o = TestObserver::<Vec<i32>>::new();
        empty()
            .buffer_with(never::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(vec![]), Completed]);

        let o = TestObserver::new();
        from_iter([1, 2])
            .buffer_with(empty::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(vec![1, 2]), Completed]);
    }

    #[test]
    fn errors_from_either_side_drop_the_buffer() {
        let o = TestObserver::<Vec<i32>>::new();
        from_iter([1])
            .concat_with(throw(Error::msg("source")))
            .buffer_with(never::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("source"))]);

        let o = TestObserver::<Vec<i32>>::new();
        never()
            .buffer_with(throw::<()>(Error::msg("notifier")))
            .subscribe_observer(o.clone());
        o.assert_error("notifier");
    }

    #[test]
    fn disposing_the_handle_disposes_both() {
        let log = Log::default();
        let source = Hot::<i32>::new("source", &log);
        let notifier = Hot::<()>::new("notifier", &log);
        let handle = source
            .clone()
            .buffer_with(notifier.clone())
            .subscribe_observer(TestObserver::new());
        handle.dispose();
        assert_eq!((source.subscribers(), notifier.subscribers()), (0, 0));
    }
}
