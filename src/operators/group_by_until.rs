//! [`ObservableExt::group_by_until`](crate::ObservableExt::group_by_until): groups that end
//! when a duration observable of their own says so.
//!
//! The groups, their buffering, abandonment and the reference-counted upstream are in
//! `split_core`, as for `group_by`. A duration may fire on any thread, while the map of
//! groups belongs to the upstream observer; so the duration only ends its group, through the
//! group's own lock, and the map notices at the next value of that key, which the ended
//! group refuses: a new group opens for it.

use super::group_by::{GroupedObservable, SWEEP_FLOOR, sweep};
use crate::Error;
use crate::engine::combine_slots::Handle;
use crate::engine::split_core::{Inner, InnerPtr};
use crate::engine::split_refs::{Refs, RefsPtr, SplitSubscription};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::Subscription;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Joined, Shared};
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

/// Splits an observable into one [`GroupedObservable`] per key, each ended by a duration
/// observable; built by [`ObservableExt::group_by_until`](crate::ObservableExt::group_by_until).
///
/// The lifetime `'a` bounds what the groups' subscribers and the handles borrow; it is
/// inferred.
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "groupBy")]
#[doc(alias = "groupByUntil")]
pub struct GroupByUntil<'a, S, F, D> {
    source: S,
    key: F,
    duration: D,
    _inners: PhantomData<&'a ()>,
}

impl<S, F, D> GroupByUntil<'_, S, F, D> {
    pub(crate) fn new(source: S, key: F, duration: D) -> Self {
        GroupByUntil {
            source,
            key,
            duration,
            _inners: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F, D> fmt::Debug for GroupByUntil<'_, S, F, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupByUntil")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<'a, S, F, D, K, N> Observable for GroupByUntil<'a, S, F, D>
where
    S: Observable,
    F: FnMut(&S::Item) -> K,
    D: FnMut(&K) -> N,
    N: Observable,
{
    type Item = GroupedObservable<'a, K, S::Item, FlavourOf<S, N>>;
    type Flavour = FlavourOf<S, N>;
}

/// The flavour of a [`GroupByUntil`]'s groups and of the handles it keeps: the source's and
/// the durations'.
type FlavourOf<S, N> = Joined<<S as Observable>::Flavour, <N as Observable>::Flavour>;

/// The observer [`GroupByUntil`] subscribes to its source, as a type.
type SourceObserver<'a, S, O, F, D, K, N> =
    GroupByUntilObserver<'a, O, F, D, K, <S as Observable>::Item, FlavourOf<S, N>>;

/// The observer [`GroupByUntil`] subscribes to each duration, as a type.
type DurationOf<'a, S, N> = GroupDurationObserver<'a, <S as Observable>::Item, FlavourOf<S, N>>;

impl<'a, S, F, D, K, N, O> Subscribe<O> for GroupByUntil<'a, S, F, D>
where
    S: Subscribe<SourceObserver<'a, S, O, F, D, K, N>>,
    F: FnMut(&<S as Observable>::Item) -> K,
    D: FnMut(&K) -> N,
    N: Subscribe<DurationOf<'a, S, N>>,
    FlavourOf<S, N>: BoxSubscription<'a, <S as Subscribe<SourceObserver<'a, S, O, F, D, K, N>>>::Subscription>
        + BoxSubscription<'a, <N as Subscribe<DurationOf<'a, S, N>>>::Subscription>,
    K: Clone + Eq + Hash,
    O: Observer<GroupedObservable<'a, K, <S as Observable>::Item, FlavourOf<S, N>>>,
{
    type Subscription = SplitSubscription<'a, FlavourOf<S, N>>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let refs = Refs::<FlavourOf<S, N>>::shared();
        let handle = self.source.subscribe_observer(GroupByUntilObserver {
            downstream: observer,
            key: self.key,
            duration: self.duration,
            groups: HashMap::new(),
            sweep_at: SWEEP_FLOOR,
            refs: refs.clone(),
        });
        refs.set_upstream(handle);
        SplitSubscription::new(refs)
    }
}

/// An open group and the subscription to its duration.
struct Group<'a, T, Fl: Flavour> {
    inner: InnerPtr<'a, T, Fl>,
    duration: Handle<'a, Fl>,
}

/// The observer [`GroupByUntil`] subscribes upstream.
pub struct GroupByUntilObserver<'a, O, F, D, K, T, Fl: Flavour = Shared> {
    downstream: O,
    key: F,
    duration: D,
    /// The groups subscribed in time; an entry whose group has since ended (its duration
    /// fired, or its subscriber disposed it) is replaced when its key comes again.
    groups: HashMap<K, Group<'a, T, Fl>>,
    /// The size at which ended groups are next swept out of the map (as in `group_by`).
    sweep_at: usize,
    refs: RefsPtr<'a, Fl>,
}

impl<'a, O, F, D, K, T, Fl: Flavour> GroupByUntilObserver<'a, O, F, D, K, T, Fl>
where
    O: Observer<GroupedObservable<'a, K, T, Fl>>,
{
    /// Whether the outer downstream still wants groups; releases its reference once it does
    /// not.
    fn wants_groups(&self) -> bool {
        if self.refs.is_outer_released() {
            return false;
        }
        if self.downstream.is_disposed() {
            self.refs.release_outer();
            return false;
        }
        true
    }

    /// Ends every open group and disposes the durations.
    fn end_all(&mut self, error: Option<Error>) {
        for (_, group) in self.groups.drain() {
            group.duration.dispose();
            group.inner.end(error.clone());
        }
    }
}

impl<'a, O, F, D, K, N, T, Fl> Observer<T> for GroupByUntilObserver<'a, O, F, D, K, T, Fl>
where
    O: Observer<GroupedObservable<'a, K, T, Fl>>,
    F: FnMut(&T) -> K,
    D: FnMut(&K) -> N,
    N: Subscribe<GroupDurationObserver<'a, T, Fl>>,
    Fl: Flavour
        + BoxSubscription<'a, <N as Subscribe<GroupDurationObserver<'a, T, Fl>>>::Subscription>,
    K: Clone + Eq + Hash,
{
    fn on_next(&mut self, value: T) {
        let key = (self.key)(&value);
        let value = match self.groups.get(&key) {
            Some(group) => match group.inner.try_next(value) {
                Ok(()) => return,
                // Ended by its duration or disposed by its subscriber: the key gets a new
                // group.
                Err(value) => {
                    if let Some(ended) = self.groups.remove(&key) {
                        ended.duration.dispose();
                    }
                    value
                }
            },
            None => value,
        };
        if !self.wants_groups() {
            return;
        }
        let Some(inner) = Inner::<T, Fl>::open(&self.refs) else {
            return;
        };
        self.downstream
            .on_next(GroupedObservable::new(key.clone(), inner.clone()));
        self.wants_groups();
        inner.next(value);
        if inner.abandon_unless_subscribed() {
            inner.end(None);
            return;
        }
        // The duration starts once the group has its first value, so one that fires at once
        // still gives a group of one value.
        let duration = (self.duration)(&key).subscribe_observer(GroupDurationObserver {
            inner: inner.clone(),
        });
        sweep(&mut self.groups, &mut self.sweep_at, |group| {
            let ended = group.inner.is_ended();
            if ended {
                // Its subscriber may have disposed it while the duration runs.
                group.duration.dispose();
            }
            ended
        });
        self.groups.insert(
            key,
            Group {
                inner,
                duration: Fl::box_subscription(duration),
            },
        );
    }

    fn on_error(mut self, error: Error) {
        self.end_all(Some(error.clone()));
        if self.wants_groups() {
            self.downstream.on_error(error);
        }
    }

    fn on_completed(mut self) {
        self.end_all(None);
        if self.wants_groups() {
            self.downstream.on_completed();
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.refs.is_unreferenced()
    }
}

impl<O, F, D, K, T, Fl: Flavour> fmt::Debug for GroupByUntilObserver<'_, O, F, D, K, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupByUntilObserver")
            .field("open_groups", &self.groups.len())
            .finish_non_exhaustive()
    }
}

/// The observer [`GroupByUntil`] subscribes to each group's duration: its first value or
/// its completion completes the group, its error fails the group alone (RxJS).
pub struct GroupDurationObserver<'a, T, Fl: Flavour = Shared> {
    inner: InnerPtr<'a, T, Fl>,
}

impl<V, T, Fl: Flavour> Observer<V> for GroupDurationObserver<'_, T, Fl> {
    fn on_next(&mut self, _: V) {
        self.inner.end(None);
    }

    fn on_error(self, error: Error) {
        self.inner.end(Some(error));
    }

    fn on_completed(self) {
        self.inner.end(None);
    }

    fn is_disposed(&self) -> bool {
        self.inner.is_ended()
    }
}

impl<T, Fl: Flavour> fmt::Debug for GroupDurationObserver<'_, T, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GroupDurationObserver")
    }
}

#[cfg(test)]
mod tests {
    use crate::Error;
    use crate::Notification::{self, Completed, Next};
    use crate::operators::GroupedObservable;
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, just, never, throw, timer};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    type Opened = Vec<(char, TestObserver<i32>)>;

    /// Subscribes each group with a test observer of its own, in order of opening.
    #[derive(Clone, Default)]
    struct Groups {
        groups: Arc<Mutex<Opened>>,
    }

    impl Groups {
        fn contents(&self) -> Vec<(char, Vec<Notification<i32>>)> {
            self.groups
                .lock()
                .unwrap()
                .iter()
                .map(|(k, o)| (*k, o.notifications()))
                .collect()
        }
    }

    impl Observer<GroupedObservable<'_, char, i32>> for Groups {
        fn on_next(&mut self, group: GroupedObservable<'_, char, i32>) {
            let o = TestObserver::new();
            self.groups.lock().unwrap().push((*group.key(), o.clone()));
            group.subscribe_observer(o);
        }
        fn on_error(self, _: Error) {}
        fn on_completed(self) {}
    }

    /// Subscribes each group and counts the values of all of them.
    struct Counting(Arc<AtomicUsize>);

    impl<'a> Observer<GroupedObservable<'a, i32, i32>> for Counting {
        fn on_next(&mut self, group: GroupedObservable<'a, i32, i32>) {
            let count = self.0.clone();
            group.subscribe(move |_| {
                count.fetch_add(1, Ordering::Relaxed);
            });
        }
        fn on_error(self, _: Error) {}
        fn on_completed(self) {}
    }

    #[test]
    fn groups_ended_by_their_duration_are_swept_out_of_the_map() {
        use super::GroupByUntilObserver;
        use crate::engine::split_refs::Refs;
        use crate::operators::group_by::SWEEP_FLOOR;
        let count = Arc::new(AtomicUsize::new(0));
        let mut observer = GroupByUntilObserver {
            downstream: Counting(count.clone()),
            key: |v: &i32| *v,
            // Fires at once: each group ends with the value that opened it.
            duration: |_: &i32| just(()),
            groups: HashMap::new(),
            sweep_at: SWEEP_FLOOR,
            refs: crate::primitive::Arc::new(Refs::new()),
        };
        for v in 0..10_000 {
            observer.on_next(v);
            assert!(observer.groups.len() <= SWEEP_FLOOR);
        }
        assert_eq!(count.load(Ordering::Relaxed), 10_000);
    }

    fn parity(v: &i32) -> char {
        if v % 2 == 0 { 'e' } else { 'o' }
    }

    #[test]
    fn a_group_ends_when_its_duration_fires_and_the_key_opens_a_new_one() {
        let sch = TestScheduler::new();
        let g = Groups::default();
        let s = sch.clone();
        let timed = TimedObserver::new(&sch);
        let t = timed.clone();
        cold(
            &sch,
            [
                (ms(0), Next(1)),
                (ms(10), Next(3)),
                (ms(20), Next(2)),
                (ms(30), Next(5)), // the odd group opened at 0 ended at 25
                (ms(40), Completed),
            ],
        )
        .group_by_until(parity, move |_| timer(ms(25), s.clone()))
        .tap(move |group| t.clone().on_next(*group.key()))
        .subscribe_observer(g.clone());
        sch.run();
        timed.assert_timeline(&[(ms(0), Next('o')), (ms(20), Next('e')), (ms(30), Next('o'))]);
        assert_eq!(
            g.contents(),
            [
                ('o', vec![Next(1), Next(3), Completed]),
                ('e', vec![Next(2), Completed]),
                ('o', vec![Next(5), Completed]),
            ]
        );
        assert!(sch.is_empty(), "the durations still running were disposed");
    }

    #[test]
    fn a_duration_that_fires_at_once_gives_groups_of_one() {
        let g = Groups::default();
        from_iter([1, 3, 2])
            .group_by_until(parity, |_| just(()))
            .subscribe_observer(g.clone());
        assert_eq!(
            g.contents(),
            [
                ('o', vec![Next(1), Completed]),
                ('o', vec![Next(3), Completed]),
                ('e', vec![Next(2), Completed]),
            ]
        );
    }

    #[test]
    fn a_duration_completing_ends_the_group_and_its_error_fails_the_group_alone() {
        let g = Groups::default();
        let outer = TestObserver::new();
        let o = outer.clone();
        from_iter([1, 2])
            .group_by_until(parity, |key| {
                if *key == 'o' {
                    empty::<()>().boxed()
                } else {
                    throw::<()>(Error::msg("late")).boxed()
                }
            })
            .tap(move |group| o.clone().on_next(*group.key()))
            .subscribe_observer(g.clone());
        assert_eq!(
            g.contents(),
            [
                ('o', vec![Next(1), Completed]),
                ('e', vec![Next(2), Notification::Error(Error::msg("late"))]),
            ]
        );
    }

    #[test]
    fn a_silent_duration_is_group_by() {
        let g = Groups::default();
        from_iter(1..=4)
            .group_by_until(parity, |_| never::<()>())
            .subscribe_observer(g.clone());
        assert_eq!(
            g.contents(),
            [
                ('o', vec![Next(1), Next(3), Completed]),
                ('e', vec![Next(2), Next(4), Completed]),
            ]
        );
    }
}
