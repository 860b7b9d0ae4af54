//! [`ObservableExt::timeout_when`](crate::ObservableExt::timeout_when) and [`TimedOut`]: a
//! timeout whose deadlines are observables, one before the first value and one chosen by each
//! value.
//!
//! Built on the merge core: the source and the current deadline may signal on different
//! threads, and the core serialises what goes downstream; the deadline that fires closes the
//! core with the error, which disposes the source.

use crate::Error;
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// The error of [`timeout_when`](crate::ObservableExt::timeout_when): a deadline signalled
/// before the next value.
///
/// ```
/// use rx::operators::TimedOut;
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::<i32>::new();
/// rx::source::never()
///     .timeout_when(rx::source::just(()), |_| rx::source::never::<()>())
///     .subscribe_observer(observer.clone());
/// let error = observer.error().expect("timed out");
/// assert!(error.downcast_ref::<TimedOut>().is_some());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedOut;

impl fmt::Display for TimedOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a timeout signalled before the next value")
    }
}

impl std::error::Error for TimedOut {}

/// Fails with [`TimedOut`] when a deadline observable signals before the next value; built by
/// [`ObservableExt::timeout_when`](crate::ObservableExt::timeout_when).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "timeout")]
pub struct TimeoutWhen<'a, S, N, F> {
    source: S,
    first: N,
    each: F,
    _handles: PhantomData<&'a ()>,
}

impl<S, N, F> TimeoutWhen<'_, S, N, F> {
    pub(crate) fn new(source: S, first: N, each: F) -> Self {
        TimeoutWhen {
            source,
            first,
            each,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, N: fmt::Debug, F> fmt::Debug for TimeoutWhen<'_, S, N, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TimeoutWhen")
            .field("source", &self.source)
            .field("first", &self.first)
            .finish_non_exhaustive()
    }
}

impl<S, N, F, D> Observable for TimeoutWhen<'_, S, N, F>
where
    S: Observable,
    N: Observable,
    F: FnMut(&<S as Observable>::Item) -> D,
    D: Observable,
{
    type Item = S::Item;
    type Flavour = FlavourOf<S, N, D>;
}

/// The flavour of the handles a [`TimeoutWhen`] keeps: the source's and the deadlines'.
type FlavourOf<S, N, D> = Joined<
    Joined<<S as Observable>::Flavour, <N as Observable>::Flavour>,
    <D as Observable>::Flavour,
>;

/// The observer [`TimeoutWhen`] subscribes to its source, as a type.
type SourceOf<'a, S, N, D, O, F> =
    TimeoutWhenObserver<'a, O, F, <S as Observable>::Item, FlavourOf<S, N, D>>;

/// The observer [`TimeoutWhen`] subscribes to each deadline, as a type.
type DeadlineOf<'a, S, N, D, O> =
    DeadlineObserver<'a, O, <S as Observable>::Item, FlavourOf<S, N, D>>;

impl<'a, S, N, F, D, O> Subscribe<O> for TimeoutWhen<'a, S, N, F>
where
    S: Subscribe<SourceOf<'a, S, N, D, O, F>>,
    N: Subscribe<DeadlineOf<'a, S, N, D, O>>,
    F: FnMut(&<S as Observable>::Item) -> D,
    D: Subscribe<DeadlineOf<'a, S, N, D, O>>,
    FlavourOf<S, N, D>: BoxSubscription<'a, <S as Subscribe<SourceOf<'a, S, N, D, O, F>>>::Subscription>
        + BoxSubscription<'a, <N as Subscribe<DeadlineOf<'a, S, N, D, O>>>::Subscription>
        + BoxSubscription<'a, <D as Subscribe<DeadlineOf<'a, S, N, D, O>>>::Subscription>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S, N, D>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            return MergeSubscription::empty();
        }
        let core = MergeCore::<_, _, _, FlavourOf<S, N, D>>::new_shared(observer, Deadline(0));
        // The first deadline first, then the source, as RxJava subscribes them.
        if let Some(id) = core.begin() {
            core.lock().extra().0 = id;
            let handle = self.first.subscribe_observer(DeadlineObserver {
                core: core.clone(),
                id,
            });
            core.end_subscribe(id, handle);
        }
        core.subscribe_upstream(self.source, |id| TimeoutWhenObserver {
            core: core.clone(),
            id,
            each: self.each,
        });
        core.handle()
    }
}

/// The core's own state: the upstream id of the running deadline, 0 while a value is
/// choosing the next one.
struct Deadline(u64);

type TimeoutCore<'a, O, T, Fl> = MergeCore<'a, O, T, Deadline, Fl>;

/// The observer [`TimeoutWhen`] subscribes to its source.
pub struct TimeoutWhenObserver<'a, O, F, T, Fl: Flavour = Shared> {
    core: Ptr<TimeoutCore<'a, O, T, Fl>, Fl>,
    id: u64,
    each: F,
}

impl<'a, O, F, D, T, Fl> Observer<T> for TimeoutWhenObserver<'a, O, F, T, Fl>
where
    F: FnMut(&T) -> D,
    D: Subscribe<DeadlineObserver<'a, O, T, Fl>>,
    Fl: Flavour
        + BoxSubscription<'a, <D as Subscribe<DeadlineObserver<'a, O, T, Fl>>>::Subscription>,
    O: Observer<T>,
{
    fn on_next(&mut self, value: T) {
        if self.core.is_done() {
            return;
        }
        let mut locked = self.core.lock();
        if locked.is_closed() {
            drop(locked);
            drop(value);
            return;
        }
        // The value arrived in time: its deadline is disposed once the lock is released, and
        // none runs while the next one is chosen (with the lock released: user code).
        let previous = std::mem::replace(&mut locked.extra().0, 0);
        if previous != 0 {
            locked.dispose_upstream(previous);
        }
        drop(locked);
        let deadline = (self.each)(&value);
        let mut locked = self.core.lock();
        if locked.is_closed() {
            drop(locked);
            drop(value);
            return;
        }
        let id = locked.begin_upstream();
        locked.extra().0 = id;
        locked.next(value);
        let handle = deadline.subscribe_observer(DeadlineObserver {
            core: self.core.clone(),
            id,
        });
        self.core.end_subscribe(id, handle);
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        locked.error(error);
    }

    fn on_completed(self) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        locked.complete();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, F, T, Fl: Flavour> fmt::Debug for TimeoutWhenObserver<'_, O, F, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TimeoutWhenObserver")
    }
}

/// The observer [`TimeoutWhen`] subscribes to each deadline.
pub struct DeadlineObserver<'a, O, T, Fl: Flavour = Shared> {
    core: Ptr<TimeoutCore<'a, O, T, Fl>, Fl>,
    id: u64,
}

impl<O: Observer<T>, T, Fl: Flavour> DeadlineObserver<'_, O, T, Fl> {
    /// The deadline has come: fails with [`TimedOut`] if it is still the current one.
    fn expire(&self) {
        let mut locked = self.core.lock();
        if !locked.is_closed() && locked.extra().0 == self.id {
            locked.error(Error::new(TimedOut));
        }
    }
}

impl<V, O: Observer<T>, T, Fl: Flavour> Observer<V> for DeadlineObserver<'_, O, T, Fl> {
    fn on_next(&mut self, _: V) {
        self.expire();
    }

    fn on_error(self, error: Error) {
        // The error of a deadline that is no longer current is dropped (RxJava).
        let mut locked = self.core.lock();
        locked.release_upstream(self.id);
        if locked.extra().0 == self.id {
            locked.error(error);
        }
    }

    fn on_completed(self) {
        // A deadline that completes without a value has come all the same (RxJava).
        self.core.lock().release_upstream(self.id);
        self.expire();
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, Fl: Flavour> fmt::Debug for DeadlineObserver<'_, O, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeadlineObserver")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::TimedOut;
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, never, throw, timer};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_first_and_a_per_value_deadline_on_virtual_time() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        let s = sch.clone();
        // 20 before the first value, then each value gives the next one its own time.
        cold(
            &sch,
            [(ms(15), Next(10u64)), (ms(24), Next(5)), (ms(40), Next(1))],
        )
        .timeout_when(timer(ms(20), sch.clone()), move |v| {
            timer(ms(*v), s.clone())
        })
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(15), Next(10)),
            (ms(24), Next(5)),
            (ms(29), Error(Error::new(TimedOut))),
        ]);
        assert!(sch.is_empty());
    }

    #[test]
    fn deadlines_are_replaced_and_disposed_in_turn() {
        let log = Log::default();
        let source = Hot::new("source", &log);
        let deadlines = Hot::<()>::new("deadline", &log);
        let o = TestObserver::new();
        let d = deadlines.clone();
        source
            .clone()
            .timeout_when(never::<()>(), move |_| d.clone())
            .subscribe_observer(o.clone());
        source.next(1);
        source.next(2);
        deadlines.next(());
        source.next(3);
        o.assert_notifications(&[Next(1), Next(2), Error(Error::new(TimedOut))]);
        assert_eq!(
            drain(&log),
            [
                "subscribe source",
                "subscribe deadline",
                "dispose deadline",
                "subscribe deadline",
                "dispose source",
                "dispose deadline",
            ]
        );
    }

    #[test]
    fn a_deadline_that_completes_empty_has_come() {
        let o = TestObserver::new();
        from_iter([1, 2])
            .concat_with(never())
            .timeout_when(never::<()>(), |_| empty::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Error(Error::new(TimedOut))]);
    }

    #[test]
    fn the_source_s_end_passes_and_a_deadline_s_error_too() {
        let o = TestObserver::new();
        from_iter([1, 2])
            .timeout_when(never::<()>(), |_| never::<()>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);

        let o = TestObserver::<i32>::new();
        never()
            .timeout_when(throw::<()>(Error::msg("first")), |_| never::<()>())
            .subscribe_observer(o.clone());
        o.assert_error("first");
    }
}
