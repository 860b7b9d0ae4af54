//! [`ObservableExt::merge_with`](crate::ObservableExt::merge_with).

use crate::Error;
use crate::engine::inline_merge::{Inline, InlineObserver, MergeLink};
use crate::engine::merge_core::{MergeCore, MergeSubscription, Ptr};
use crate::observable::Emission;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::fmt;
use std::marker::PhantomData;

/// Emits the values of two observables as they come; built by
/// [`ObservableExt::merge_with`](crate::ObservableExt::merge_with).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "mergeWith")]
pub struct MergeWith<'a, S1, S2> {
    first: S1,
    second: S2,
    _handles: PhantomData<&'a ()>,
}

impl<S1, S2> MergeWith<'_, S1, S2> {
    pub(crate) fn new(first: S1, second: S2) -> Self {
        MergeWith {
            first,
            second,
            _handles: PhantomData,
        }
    }
}

impl<S1, S2> Observable for MergeWith<'_, S1, S2>
where
    S1: Observable,
    S2: Observable<Item = S1::Item>,
{
    type Item = S1::Item;
    type Flavour = FlavourOf<S1, S2>;
    const EMISSION: Emission = S1::EMISSION.and(S2::EMISSION);
}

/// The flavour of the handles a [`MergeWith`] keeps.
type FlavourOf<S1, S2> = Joined<<S1 as Observable>::Flavour, <S2 as Observable>::Flavour>;

/// The observer a [`MergeWith`] subscribes to each of its sources, on either path.
type Link<'a, O, S1, S2> = MergeLink<
    MergeWithObserver<'a, O, <S1 as Observable>::Item, FlavourOf<S1, S2>>,
    InlineObserver<O>,
>;

impl<'a, S1, S2, O> Subscribe<O> for MergeWith<'a, S1, S2>
where
    S1: Subscribe<Link<'a, O, S1, S2>>,
    S2: Subscribe<Link<'a, O, S1, S2>> + Observable<Item = <S1 as Observable>::Item>,
    FlavourOf<S1, S2>: BoxSubscription<'a, <S1 as Subscribe<Link<'a, O, S1, S2>>>::Subscription>
        + BoxSubscription<'a, <S2 as Subscribe<Link<'a, O, S1, S2>>>::Subscription>,
    O: Observer<<S1 as Observable>::Item>,
{
    type Subscription = MergeSubscription<'a, FlavourOf<S1, S2>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        if observer.is_disposed() {
            return MergeSubscription::empty();
        }
        if const { <Self as Observable>::EMISSION.is_inside_subscribe() } {
            // Both sources finish inside `subscribe`: one after the other, with the state
            // here (engine::inline_merge).
            let state = Inline::new(observer, 2);
            // SAFETY: both sources emit only inside `subscribe`, on this thread, and keep
            // no observer (their `EMISSION`); `state` outlives both calls and stays put.
            let ptr = unsafe { state.ptr() };
            drop(
                self.first
                    .subscribe_observer(MergeLink::inline(InlineObserver::new(ptr))),
            );
            if !state.is_done::<<S1 as Observable>::Item>() {
                drop(
                    self.second
                        .subscribe_observer(MergeLink::inline(InlineObserver::new(ptr))),
                );
            }
            return MergeSubscription::empty();
        }
        // Both sources are live until they complete.
        let core = MergeCore::<_, _, _, FlavourOf<S1, S2>>::with_upstreams_shared(observer, 2, 2);
        core.subscribe_reserved(Source::First as u64, self.first, |_| {
            MergeLink::core(MergeWithObserver {
                core: core.clone(),
                id: Source::First,
            })
        });
        core.subscribe_reserved(Source::Second as u64, self.second, |_| {
            MergeLink::core(MergeWithObserver {
                core: core.clone(),
                id: Source::Second,
            })
        });
        core.handle()
    }
}

/// Which of the two sources an observer is on, as the merge core's id. A byte whose other
/// values are free, not the core's `u64`: the [`MergeLink`] around the observer is then two
/// words, and an `Option` of it too (as `take` holds it), so a short chain ending in it fits
/// where a subject keeps small observers without a box.
#[derive(Clone, Copy, Debug)]
#[repr(u8)]
enum Source {
    First = 1,
    Second = 2,
}

/// The observer [`MergeWith`] subscribes to each of its two sources.
pub struct MergeWithObserver<'a, O, T, F: Flavour = Shared> {
    /// The extra state is the number of sources that have not completed.
    core: Ptr<MergeCore<'a, O, T, usize, F>, F>,
    id: Source,
}

impl<O: Observer<T>, T, F: Flavour> Observer<T> for MergeWithObserver<'_, O, T, F> {
    #[inline]
    fn on_next(&mut self, value: T) {
        self.core.next(value);
    }

    fn on_error(self, error: Error) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id as u64);
        locked.error(error);
    }

    fn on_completed(self) {
        let mut locked = self.core.lock();
        locked.release_upstream(self.id as u64);
        *locked.extra() -= 1;
        if *locked.extra() == 0 {
            locked.complete();
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_done()
    }
}

impl<O, T, F: Flavour> fmt::Debug for MergeWithObserver<'_, O, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MergeWithObserver")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, just, never, throw};
    use crate::test_kit::hot::{Hot, Log, drain};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_link_to_the_core_is_two_words() {
        use super::{InlineObserver, MergeLink, MergeWithObserver};
        type Down = crate::observer::NextObserver<fn(i32)>;
        assert_eq!(
            std::mem::size_of::<
                MergeLink<MergeWithObserver<'static, Down, i32>, InlineObserver<Down>>,
            >(),
            2 * std::mem::size_of::<usize>()
        );
        assert_eq!(
            std::mem::size_of::<
                Option<MergeLink<MergeWithObserver<'static, Down, i32>, InlineObserver<Down>>>,
            >(),
            2 * std::mem::size_of::<usize>()
        );
    }

    #[test]
    fn synchronous_sources_run_one_after_the_other() {
        let o = TestObserver::new();
        from_iter([1, 2])
            .merge_with(from_iter([3, 4]))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Next(4), Completed]);
    }

    #[test]
    fn interleaves_in_virtual_time_and_completes_after_both() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        cold(
            &sch,
            [(ms(10), Next(1)), (ms(30), Next(3)), (ms(40), Completed)],
        )
        .merge_with(cold(&sch, [(ms(20), Next(2)), (ms(25), Completed)]))
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(10), Next(1)),
            (ms(20), Next(2)),
            (ms(30), Next(3)),
            (ms(40), Completed),
        ]);
    }

    #[test]
    fn empty_sources() {
        let o = TestObserver::<i32>::new();
        empty().merge_with(empty()).subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);

        let o = TestObserver::new();
        just(1).merge_with(never()).subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1)]);
    }

    #[test]
    fn an_error_disposes_the_other_source_and_is_delivered_once() {
        let log = Log::default();
        let a = Hot::new("a", &log);
        let b = Hot::new("b", &log);
        let o = TestObserver::new();
        let handle = a
            .clone()
            .merge_with(b.clone())
            .subscribe_observer(o.clone());
        a.next(1);
        b.next(2);
        a.error("a failed");
        b.next(3);
        b.error("b failed");
        o.assert_notifications(&[Next(1), Next(2), Error(Error::msg("a failed"))]);
        assert_eq!(drain(&log), ["subscribe a", "subscribe b", "dispose b"]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn a_synchronous_error_skips_the_second_source() {
        let log = Log::default();
        let b = Hot::<i32>::new("b", &log);
        let o = TestObserver::new();
        throw(Error::msg("first"))
            .merge_with(b.clone())
            .subscribe_observer(o.clone());
        o.assert_error("first");
        assert!(drain(&log).is_empty());
    }

    #[test]
    fn dispose_disposes_both_and_stops_delivery() {
        let log = Log::default();
        let a = Hot::new("a", &log);
        let b = Hot::new("b", &log);
        let o = TestObserver::new();
        let handle = a
            .clone()
            .merge_with(b.clone())
            .subscribe_observer(o.clone());
        a.next(1);
        handle.dispose();
        handle.dispose();
        a.next(2);
        o.assert_notifications(&[Next(1)]);
        assert_eq!(
            drain(&log),
            ["subscribe a", "subscribe b", "dispose a", "dispose b"]
        );
        assert_eq!((a.subscribers(), b.subscribers()), (0, 0));
    }

    #[test]
    fn reentrant_values_are_queued_behind_the_current_one() {
        // The downstream pushes into `b` while a value of `a` is being delivered: the new
        // value must come after the current call returns, not inside it.
        let log = Log::default();
        let a = Hot::new("a", &log);
        let b = Hot::new("b", &log);
        use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
        use std::sync::{Arc, Mutex};
        let depth = Arc::new(AtomicUsize::new(0));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (d, s, feed) = (depth.clone(), seen.clone(), b.clone());
        a.clone().merge_with(b.clone()).subscribe(move |v: i32| {
            let depth = d.fetch_add(1, SeqCst) + 1;
            s.lock().unwrap().push((v, depth));
            if v < 3 {
                feed.next(v + 10);
            }
            d.fetch_sub(1, SeqCst);
        });
        a.next(1);
        a.next(2);
        assert_eq!(*seen.lock().unwrap(), [(1, 1), (11, 1), (2, 1), (12, 1)]);
    }

    /// A live subject merged with a source that finishes inside `subscribe`, as both
    /// flavours of subject: the merge core's uncontended path, its handle built from the
    /// control block, its stop when the downstream has had its fill, and its disposal.
    macro_rules! live_subject_and_a_synchronous_source {
        ($name:ident, $subject:ty) => {
            #[test]
            fn $name() {
                // Values pass one by one; the merge completes when the subject does.
                let subject = <$subject>::new();
                let o = TestObserver::new();
                let handle = subject
                    .observable()
                    .filter(|v| *v != 0)
                    .merge_with(just(100))
                    .subscribe_observer(o.clone());
                assert!(!handle.is_disposed());
                let mut input = subject.observer();
                for v in 0..3 {
                    input.on_next(v);
                }
                input.on_completed();
                o.assert_notifications(&[Next(100), Next(1), Next(2), Completed]);
                assert!(handle.is_disposed());
                assert!(!subject.has_observers());

                // A downstream that has had its fill stops the merge and the subject's
                // subscription inside the value that filled it.
                let subject = <$subject>::new();
                let o = TestObserver::new();
                let handle = subject
                    .observable()
                    .merge_with(just(100))
                    .take(3)
                    .subscribe_observer(o.clone());
                let mut input = subject.observer();
                input.on_next(1);
                assert!(subject.has_observers());
                input.on_next(2);
                assert!(!subject.has_observers());
                input.on_next(3);
                o.assert_notifications(&[Next(100), Next(1), Next(2), Completed]);
                assert!(handle.is_disposed());

                // Disposing the handle stops delivery and the subject's subscription.
                let subject = <$subject>::new();
                let o = TestObserver::new();
                let handle = subject
                    .observable()
                    .merge_with(just(100))
                    .subscribe_observer(o.clone());
                let mut input = subject.observer();
                input.on_next(1);
                handle.dispose();
                assert!(handle.is_disposed());
                assert!(!subject.has_observers());
                input.on_next(2);
                input.on_completed();
                o.assert_notifications(&[Next(100), Next(1)]);
            }
        };
    }

    live_subject_and_a_synchronous_source!(
        a_live_subject_and_a_synchronous_source,
        crate::subjects::PublishSubject<i32>
    );
    live_subject_and_a_synchronous_source!(
        a_live_local_subject_and_a_synchronous_source,
        crate::subjects::local::PublishSubject<i32>
    );

    #[test]
    fn downstream_disposal_stops_endless_sources() {
        let o = TestObserver::new();
        let probe = o.clone();
        from_iter(0..)
            .merge_with(from_iter(0..))
            .map(move |v| {
                if v == 2 {
                    probe.dispose();
                }
                v
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        o.assert_not_terminated();
    }
}
