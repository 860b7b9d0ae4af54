//! [`ObservableExt::group_by`](crate::ObservableExt::group_by): one inner observable per key.
//!
//! The observer keeps a map from key to open group; the groups themselves, their buffering,
//! abandonment and the reference-counted upstream are in `split_core`. A settled group's
//! subscriber is claimed: the map holds it, and values go to it without a lock.

use crate::Error;
use crate::engine::held_observer::KeepSubscriber;
use crate::engine::projection::{Identity, identity};
use crate::engine::split_core::{self, Claimed, Inner, InnerPtr, InnerSubscription, Settled};
use crate::engine::split_refs::{Refs, RefsPtr, SplitSubscription};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::sync::imp::BoxSubscription;
use crate::sync::{Flavour, Shared};
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

/// Splits an observable into one [`GroupedObservable`] per key; built by
/// [`ObservableExt::group_by`](crate::ObservableExt::group_by).
///
/// The lifetime `'a` bounds what the groups' subscribers and the source's handle borrow; it
/// is inferred.
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "groupBy")]
pub struct GroupBy<'a, S, F> {
    source: S,
    key: F,
    _inners: PhantomData<&'a ()>,
}

impl<S, F> GroupBy<'_, S, F> {
    pub(crate) fn new(source: S, key: F) -> Self {
        GroupBy {
            source,
            key,
            _inners: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for GroupBy<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupBy")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<'a, S, F, K> Observable for GroupBy<'a, S, F>
where
    S: Observable,
    F: FnMut(&S::Item) -> K,
{
    type Item = GroupedObservable<'a, K, S::Item, <S as Observable>::Flavour>;
    type Flavour = <S as Observable>::Flavour;
}

/// The observer [`GroupBy`] subscribes to its source, as a type.
type SourceObserver<'a, S, O, F, K> = GroupByObserver<
    'a,
    O,
    F,
    K,
    <S as Observable>::Item,
    Identity<<S as Observable>::Item>,
    <S as Observable>::Flavour,
>;

impl<'a, S, F, K, O> Subscribe<O> for GroupBy<'a, S, F>
where
    S: Subscribe<SourceObserver<'a, S, O, F, K>>,
    <S as Observable>::Flavour:
        BoxSubscription<'a, <S as Subscribe<SourceObserver<'a, S, O, F, K>>>::Subscription>,
    F: FnMut(&<S as Observable>::Item) -> K,
    K: Clone + Eq + Hash,
    O: Observer<GroupedObservable<'a, K, <S as Observable>::Item, <S as Observable>::Flavour>>,
{
    type Subscription = SplitSubscription<'a, <S as Observable>::Flavour>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let refs = Refs::<<S as Observable>::Flavour>::shared();
        let handle = self.source.subscribe_observer(GroupByObserver::new(
            observer,
            self.key,
            identity,
            refs.clone(),
        ));
        refs.set_upstream(handle);
        SplitSubscription::new(refs)
    }
}

/// The observer [`GroupBy`] and [`GroupByWith`](crate::operators::GroupByWith) subscribe
/// upstream; its groups are of elements `V`, made from each value by `E` (the value itself
/// for `group_by`).
pub struct GroupByObserver<'a, O, F, K, V, E = Identity<V>, Fl: Flavour = Shared> {
    downstream: O,
    key: F,
    element: E,
    /// The groups subscribed in time; an entry that has since been disposed is replaced by a
    /// new group when its key comes again, or swept out (see `sweep_at`).
    groups: HashMap<K, Group<'a, V, Fl>>,
    /// The size at which the map is next swept of its ended groups: twice the groups the last
    /// sweep left open. Without it, every key ever seen would keep its ended group (and the
    /// key) for the life of the subscription, so memory would grow with the keys seen, not
    /// with the groups open; with it, sweeping costs at most two checks per group opened.
    sweep_at: usize,
    refs: RefsPtr<'a, Fl>,
}

/// An open group as [`GroupByObserver`] keeps it.
enum Group<'a, V, Fl: Flavour> {
    /// Its subscriber, claimed once the group settled: the values go straight to it.
    Claimed(Claimed<'a, V, Fl>),
    /// Its inner, when the subscriber could not be claimed (it was being delivered to from
    /// another thread as the group settled): the values go through the inner's lock.
    Inner(InnerPtr<'a, V, Fl>),
}

impl<V, Fl: Flavour> Group<'_, V, Fl> {
    #[inline]
    fn next(&mut self, value: V) -> Result<(), V> {
        match self {
            Group::Claimed(claimed) => claimed.next(value),
            Group::Inner(inner) => inner.try_next(value),
        }
    }

    fn end(self, error: Option<Error>) {
        match self {
            Group::Claimed(claimed) => claimed.end(error),
            Group::Inner(inner) => inner.end(error),
        }
    }

    fn is_ended(&self) -> bool {
        match self {
            Group::Claimed(claimed) => claimed.is_ended(),
            Group::Inner(inner) => inner.is_ended(),
        }
    }
}

/// The smallest map [`GroupByObserver`] and the observer of `group_by_until` sweep of their
/// ended groups: below it, sweeping would cost more than the memory it frees.
pub(crate) const SWEEP_FLOOR: usize = 64;

/// Drops the entries `ended` says are ended, once `groups` has grown to `sweep_at`, and sets
/// the next size to sweep at.
pub(crate) fn sweep<K, G>(
    groups: &mut HashMap<K, G>,
    sweep_at: &mut usize,
    mut ended: impl FnMut(&G) -> bool,
) {
    if groups.len() < *sweep_at {
        return;
    }
    groups.retain(|_, group| !ended(group));
    *sweep_at = (groups.len() * 2).max(SWEEP_FLOOR);
}

impl<'a, O, F, K, V, E, Fl: Flavour> GroupByObserver<'a, O, F, K, V, E, Fl> {
    pub(crate) fn new(downstream: O, key: F, element: E, refs: RefsPtr<'a, Fl>) -> Self {
        GroupByObserver {
            downstream,
            key,
            element,
            groups: HashMap::new(),
            sweep_at: SWEEP_FLOOR,
            refs,
        }
    }
}

impl<'a, V, O, F, K, E, Fl: Flavour> GroupByObserver<'a, O, F, K, V, E, Fl>
where
    O: Observer<GroupedObservable<'a, K, V, Fl>>,
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

    fn end_all(&mut self, error: Option<Error>) {
        for (_, group) in self.groups.drain() {
            group.end(error.clone());
        }
    }
}

impl<'a, T, V, O, F, K, E, Fl: Flavour> Observer<T> for GroupByObserver<'a, O, F, K, V, E, Fl>
where
    O: Observer<GroupedObservable<'a, K, V, Fl>>,
    F: FnMut(&T) -> K,
    E: FnMut(T) -> V,
    K: Clone + Eq + Hash,
{
    fn on_next(&mut self, value: T) {
        let key = (self.key)(&value);
        let value = (self.element)(value);
        let value = match self.groups.get_mut(&key) {
            Some(group) => match group.next(value) {
                Ok(()) => return,
                // Its subscriber disposed it: the key gets a new group.
                Err(value) => value,
            },
            None => value,
        };
        // A new group, unless the outer downstream has gone: then, as in RxJava, values of
        // keys without an open group are dropped.
        if !self.wants_groups() {
            return;
        }
        let Some(inner) = Inner::<V, Fl>::open(&self.refs) else {
            return;
        };
        self.downstream.on_next(GroupedObservable {
            key: key.clone(),
            inner: inner.clone(),
        });
        self.wants_groups();
        let group = match Inner::<V, Fl>::settle(inner, value) {
            Settled::Abandoned(inner) => {
                inner.end(None);
                self.groups.remove(&key);
                return;
            }
            Settled::Claimed(claimed) => Group::Claimed(claimed),
            Settled::Locked(inner) => Group::Inner(inner),
        };
        sweep(&mut self.groups, &mut self.sweep_at, Group::is_ended);
        self.groups.insert(key, group);
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

impl<O, F, K, V, E, Fl: Flavour> fmt::Debug for GroupByObserver<'_, O, F, K, V, E, Fl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupByObserver")
            .field("open_groups", &self.groups.len())
            .finish_non_exhaustive()
    }
}

/// One group of a [`group_by`](crate::ObservableExt::group_by): the values whose key is
/// [`key`](GroupedObservable::key).
///
/// A group accepts a single subscriber, which must subscribe during the `on_next` call that
/// delivers the group (as `flat_map` and friends do). A group not subscribed by then is
/// abandoned: it keeps the one value that opened it and completes, and the next value with
/// its key opens a new group. A second subscriber receives an error.
///
/// `F` is the source's [flavour](crate::sync::Flavour): in the [`Shared`] one the subscriber
/// must be `Send`, as the group's values may come from any thread; in the
/// [`Local`](crate::sync::Local) one (a local subject's or a `boxed_local()` source's groups)
/// it may hold `Rc`.
pub struct GroupedObservable<'a, K, T, F: Flavour = Shared> {
    key: K,
    inner: InnerPtr<'a, T, F>,
}

impl<'a, K, T, F: Flavour> GroupedObservable<'a, K, T, F> {
    /// The group of `key` over `inner`, for the other grouping operators.
    pub(crate) fn new(key: K, inner: InnerPtr<'a, T, F>) -> Self {
        GroupedObservable { key, inner }
    }

    /// The key shared by this group's values.
    pub fn key(&self) -> &K {
        &self.key
    }
}

impl<K: Clone, T, F: Flavour> Clone for GroupedObservable<'_, K, T, F> {
    fn clone(&self) -> Self {
        GroupedObservable {
            key: self.key.clone(),
            inner: self.inner.clone(),
        }
    }
}

impl<K: fmt::Debug, T, F: Flavour> fmt::Debug for GroupedObservable<'_, K, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupedObservable")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl<K, T, F: Flavour> Observable for GroupedObservable<'_, K, T, F> {
    type Item = T;
    type Flavour = F;
}

impl<'a, K, T, F, O> Subscribe<O> for GroupedObservable<'a, K, T, F>
where
    O: Observer<T>,
    F: KeepSubscriber<'a, T, O>,
{
    type Subscription = InnerSubscription<'a, T, F>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        split_core::subscribe(self.inner, observer)
    }
}

#[cfg(test)]
mod tests {
    use super::GroupedObservable;
    use crate::Error;
    use crate::Notification::{self, Completed, Next};
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter};
    use crate::testing::TestObserver;
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    /// Records the keys of the groups, and subscribes each group with a test observer of
    /// its own.
    #[derive(Clone)]
    struct Groups<K> {
        keys: TestObserver<K>,
        groups: Arc<Mutex<BTreeMap<K, TestObserver<i32>>>>,
    }

    impl<K: Clone + Ord> Groups<K> {
        fn new() -> Self {
            Groups {
                keys: TestObserver::new(),
                groups: Arc::default(),
            }
        }

        fn group(&self, key: K) -> TestObserver<i32> {
            self.groups.lock().unwrap()[&key].clone()
        }
    }

    impl<'a, K: Clone + Ord> Observer<GroupedObservable<'a, K, i32>> for Groups<K> {
        fn on_next(&mut self, group: GroupedObservable<'a, K, i32>) {
            let o = TestObserver::new();
            self.groups
                .lock()
                .unwrap()
                .insert(group.key().clone(), o.clone());
            self.keys.on_next(group.key().clone());
            group.subscribe_observer(o);
        }
        fn on_error(self, error: Error) {
            self.keys.on_error(error)
        }
        fn on_completed(self) {
            self.keys.on_completed()
        }
    }

    #[test]
    fn splits_by_key_in_order_of_first_appearance() {
        let g = Groups::new();
        from_iter(1..=7)
            .group_by(|v| v % 3)
            .subscribe_observer(g.clone());
        g.keys
            .assert_notifications(&[Next(1), Next(2), Next(0), Completed]);
        g.group(1)
            .assert_notifications(&[Next(1), Next(4), Next(7), Completed]);
        g.group(2)
            .assert_notifications(&[Next(2), Next(5), Completed]);
        g.group(0)
            .assert_notifications(&[Next(3), Next(6), Completed]);
    }

    #[test]
    fn an_error_reaches_every_group_then_the_outer() {
        let g = Groups::new();
        create(|mut e| {
            e.on_next(1);
            e.on_next(2);
            e.on_error(Error::msg("boom"));
        })
        .group_by(|v: &i32| v % 2)
        .subscribe_observer(g.clone());
        g.keys.assert_values(&[1, 0]);
        g.keys.assert_error("boom");
        let boom = Notification::Error(Error::msg("boom"));
        g.group(1).assert_notifications(&[Next(1), boom.clone()]);
        g.group(0).assert_notifications(&[Next(2), boom]);
    }

    #[test]
    fn an_empty_source_completes_with_no_group() {
        let g = Groups::<i32>::new();
        empty().group_by(|v: &i32| *v).subscribe_observer(g.clone());
        g.keys.assert_notifications(&[Completed]);
    }

    #[test]
    fn a_group_not_subscribed_in_time_is_abandoned() {
        let late = Arc::new(Mutex::new(Vec::new()));
        let l = late.clone();
        from_iter([1, 3, 2, 5])
            .group_by(|v| v % 2)
            .subscribe(move |group| {
                l.lock().unwrap().push(group);
            });
        // Each abandoned group kept the value that opened it and completed, so the next
        // value of its key opened a new group.
        let late = late.lock().unwrap();
        assert_eq!(
            late.iter().map(|g| *g.key()).collect::<Vec<_>>(),
            [1, 1, 0, 1]
        );
        let o = TestObserver::new();
        late[1].clone().subscribe_observer(o.clone());
        o.assert_notifications(&[Next(3), Completed]);
    }

    #[test]
    fn a_second_subscriber_is_refused() {
        let first = TestObserver::new();
        let second = TestObserver::<i32>::new();
        let (f, s) = (first.clone(), second.clone());
        from_iter([1, 2]).group_by(|_| ()).subscribe(move |group| {
            group.clone().subscribe_observer(f.clone());
            group.subscribe_observer(s.clone());
        });
        first.assert_notifications(&[Next(1), Next(2), Completed]);
        second.assert_error("this group or window accepts a single subscriber");
    }

    /// Groups `values` under one key, each group subscribed through `take(n)`; answers the
    /// observers of the groups, in the order they opened.
    fn groups_of_one_key_taking<const N: usize>(
        n: usize,
        values: [i32; N],
    ) -> Vec<TestObserver<i32>> {
        let groups = Arc::new(Mutex::new(Vec::new()));
        let g = groups.clone();
        from_iter(values)
            .group_by(|_| "same")
            .subscribe(move |group| {
                let o = TestObserver::new();
                group.take(n).subscribe_observer(o.clone());
                g.lock().unwrap().push(o);
            });
        std::mem::take(&mut *groups.lock().unwrap())
    }

    #[test]
    fn a_disposed_group_is_replaced_by_a_new_one_for_its_key() {
        let groups = groups_of_one_key_taking(1, [1, 2, 3]);
        assert_eq!(groups.len(), 3);
        for (o, v) in groups.iter().zip(1..) {
            o.assert_notifications(&[Next(v), Completed]);
        }
    }

    #[test]
    fn a_settled_group_disposed_through_its_handle_gets_nothing_more_and_its_key_opens_a_new_one() {
        use crate::subjects::local::PublishSubject;
        use std::cell::RefCell;
        use std::rc::Rc;
        let subject = PublishSubject::new();
        let groups = Rc::new(RefCell::new(Vec::new()));
        let g = groups.clone();
        let outer = subject.observable().group_by(|v: &i32| v % 2).subscribe(
            move |group: GroupedObservable<'_, i32, i32, crate::sync::Local>| {
                let o = TestObserver::new();
                let handle = group.subscribe_observer(o.clone());
                g.borrow_mut().push((o, handle));
            },
        );
        // 0 opens the group and settles it; 2 goes straight to its subscriber.
        subject.on_next(0);
        subject.on_next(2);
        groups.borrow()[0].1.dispose();
        assert!(groups.borrow()[0].1.is_disposed());
        // Its key's next values go to a new group; the disposed subscriber gets none of
        // them, and not the completion either.
        subject.on_next(4);
        subject.on_next(1);
        subject.on_next(6);
        subject.on_completed();
        let groups = groups.borrow();
        assert_eq!(groups.len(), 3);
        groups[0].0.assert_notifications(&[Next(0), Next(2)]);
        groups[1]
            .0
            .assert_notifications(&[Next(4), Next(6), Completed]);
        groups[2].0.assert_notifications(&[Next(1), Completed]);
        drop(outer);
    }

    #[test]
    fn a_group_disposed_before_its_first_value_gets_none_and_its_key_opens_a_new_one() {
        let opened = Arc::new(Mutex::new(Vec::new()));
        let o = opened.clone();
        from_iter([1, 3, 2]).group_by(|v| v % 2).subscribe(
            move |group: GroupedObservable<'_, i32, i32>| {
                let observer = TestObserver::new();
                let handle = group.subscribe_observer(observer.clone());
                let mut opened = o.lock().unwrap();
                if opened.is_empty() {
                    handle.dispose();
                }
                opened.push(observer);
            },
        );
        let opened = opened.lock().unwrap();
        assert_eq!(opened.len(), 3);
        opened[0].assert_notifications(&[]);
        opened[1].assert_notifications(&[Next(3), Completed]);
        opened[2].assert_notifications(&[Next(2), Completed]);
    }

    #[test]
    fn a_settled_group_whose_subscriber_ends_itself_is_replaced_by_a_new_one() {
        // The first value opens the group, the second reaches the settled group's
        // subscriber, which completes and disposes it.
        let groups = groups_of_one_key_taking(2, [1, 2, 3, 4, 5]);
        assert_eq!(groups.len(), 3);
        groups[0].assert_notifications(&[Next(1), Next(2), Completed]);
        groups[1].assert_notifications(&[Next(3), Next(4), Completed]);
        groups[2].assert_notifications(&[Next(5), Completed]);
    }

    /// Subscribes each group with `take(1)`, so that every group ends with its first
    /// value, and counts the values.
    struct TakeOne(Arc<AtomicUsize>);

    impl<'a> Observer<GroupedObservable<'a, i32, i32>> for TakeOne {
        fn on_next(&mut self, group: GroupedObservable<'a, i32, i32>) {
            let count = self.0.clone();
            group.take(1).subscribe(move |_| {
                count.fetch_add(1, Ordering::Relaxed);
            });
        }
        fn on_error(self, _: Error) {}
        fn on_completed(self) {}
    }

    #[test]
    fn ended_groups_are_swept_out_of_the_map() {
        use super::{GroupByObserver, SWEEP_FLOOR};
        use crate::engine::projection::{Identity, identity};
        use crate::engine::split_refs::Refs;
        let count = Arc::new(AtomicUsize::new(0));
        let mut observer = GroupByObserver::new(
            TakeOne(count.clone()),
            |v: &i32| *v,
            identity as Identity<i32>,
            crate::primitive::Arc::new(Refs::new()),
        );
        // 10,000 keys, each group ended by its subscriber after its one value: the map
        // keeps no more than the sweep floor of them.
        for v in 0..10_000 {
            observer.on_next(v);
            assert!(observer.groups.len() <= SWEEP_FLOOR);
        }
        assert_eq!(count.load(Ordering::Relaxed), 10_000);
        // Open groups are never swept.
        let groups = Groups::new();
        from_iter(0..1_000)
            .group_by(|v| *v)
            .subscribe_observer(groups.clone());
        for key in [0, 500, 999] {
            groups
                .group(key)
                .assert_notifications(&[Next(key), Completed]);
        }
    }

    #[test]
    fn outer_disposal_keeps_open_groups_and_stops_the_source_once_they_end() {
        // take(1) on the outer: the first group stays open and keeps receiving; the endless
        // source is disposed once that group is done too.
        let group_values = TestObserver::new();
        let g = group_values.clone();
        let outer = TestObserver::new();
        from_iter(0..)
            .group_by(|v| v % 2)
            .take(1)
            .tap(move |group| {
                group.clone().take(3).subscribe_observer(g.clone());
            })
            .map(|group| *group.key())
            .subscribe_observer(outer.clone());
        outer.assert_notifications(&[Next(0), Completed]);
        group_values.assert_notifications(&[Next(0), Next(2), Next(4), Completed]);
    }
}
