//! [`ObservableExt::sequence_equal`](crate::ObservableExt::sequence_equal) and
//! [`ObservableExt::sequence_equal_by`](crate::ObservableExt::sequence_equal_by): whether two
//! observables emit equal values in the same order, and as many.
//!
//! The two sources feed the engine in `combine_core`, as zip's do: each keeps the values the
//! other has not matched yet in its [`SequenceSlot`], and a value that finds one waiting on
//! the other side queues the pair as a [`SequenceRow`]. The rows are compared by the
//! observer the engine delivers to, [`SequenceEqualDownstream`], so the comparer runs outside
//! the lock and never twice at once; the first pair that differs, or a value one side has and
//! the other can no longer match, gives `false`, and the engine then disposes both sources.

use crate::Error;
use crate::engine::combine_core::{CombineCore, CombineSubscription, Step};
use crate::engine::combine_slots::{Buffer, Handle, Slot};
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::Arc;
use std::fmt;
use std::marker::PhantomData;

/// Emits whether two observables emit equal sequences; built by
/// [`ObservableExt::sequence_equal`](crate::ObservableExt::sequence_equal) and
/// [`ObservableExt::sequence_equal_by`](crate::ObservableExt::sequence_equal_by).
///
/// The lifetime `'a` bounds what the sources' handles borrow; it is inferred.
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "sequenceEqual")]
pub struct SequenceEqual<'a, S1, S2, F> {
    first: S1,
    second: S2,
    comparer: F,
    _handles: PhantomData<&'a ()>,
}

impl<S1, S2, F> SequenceEqual<'_, S1, S2, F> {
    pub(crate) fn new(first: S1, second: S2, comparer: F) -> Self {
        SequenceEqual {
            first,
            second,
            comparer,
            _handles: PhantomData,
        }
    }
}

/// How [`SequenceEqual`] compares a value of the first observable with one of the second:
/// any `FnMut(&A, &B) -> bool` closure, or [`ByPartialEq`].
pub trait Comparer<A, B> {
    /// Whether `a` and `b` count as equal.
    fn equal(&mut self, a: &A, b: &B) -> bool;
}

impl<A, B, F: FnMut(&A, &B) -> bool> Comparer<A, B> for F {
    #[inline]
    fn equal(&mut self, a: &A, b: &B) -> bool {
        self(a, b)
    }
}

/// The comparer of [`sequence_equal`](crate::ObservableExt::sequence_equal): `a == b`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ByPartialEq;

impl<A: PartialEq<B>, B> Comparer<A, B> for ByPartialEq {
    #[inline]
    fn equal(&mut self, a: &A, b: &B) -> bool {
        a == b
    }
}

impl<S1, S2, F> Observable for SequenceEqual<'_, S1, S2, F>
where
    S1: Observable,
    S2: Observable,
    F: Comparer<S1::Item, S2::Item>,
{
    type Item = bool;
    type Flavour = crate::sync::Joined<S1::Flavour, S2::Flavour>;
}

/// What one source of [`SequenceEqual`] has contributed: the values the other source has not
/// matched yet, whether it has completed, and its handle.
pub struct SequenceSlot<'a, T> {
    values: Buffer<T>,
    done: bool,
    handle: Option<Handle<'a>>,
}

impl<T> SequenceSlot<'_, T> {
    fn new() -> Self {
        SequenceSlot {
            values: Buffer::new(),
            done: false,
            handle: None,
        }
    }
}

impl<'a, T> Slot<'a> for SequenceSlot<'a, T> {
    type Flavour = crate::sync::Shared;

    fn handle(&mut self) -> &mut Option<Handle<'a>> {
        &mut self.handle
    }
}

impl<T> fmt::Debug for SequenceSlot<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SequenceSlot")
            .field("buffered", &self.values.len())
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

/// What the engine of [`SequenceEqual`] delivers for comparison.
#[derive(Debug)]
pub enum SequenceRow<A, B> {
    /// The n-th value of each source.
    Pair(A, B),
    /// One source has a value the other can no longer match: they differ in length.
    Unmatched,
}

/// The slots of a [`SequenceEqual`].
type Slots<'a, A, B> = (SequenceSlot<'a, A>, SequenceSlot<'a, B>);

/// The engine of a [`SequenceEqual`] delivering to `D`.
type SequenceCore<'a, A, B, D> = CombineCore<Slots<'a, A, B>, SequenceRow<A, B>, D>;

/// The observer [`SequenceEqual`] subscribes to its source number `I` (0 or 1).
pub struct SequenceEqualObserver<'a, A, B, D, const I: usize> {
    core: Arc<SequenceCore<'a, A, B, D>>,
}

/// A value of one side: paired with the oldest unmatched value of the other side, unmatched
/// if the other side has completed, or kept until the other side emits.
fn on_value<X, Y, A, B>(
    mine: &mut SequenceSlot<'_, X>,
    other: &mut SequenceSlot<'_, Y>,
    rows: &mut Buffer<SequenceRow<A, B>>,
    value: X,
    pair: fn(X, Y) -> (A, B),
) -> Step {
    if let Some(partner) = other.values.pop() {
        let (a, b) = pair(value, partner);
        rows.push(SequenceRow::Pair(a, b));
        Step::Continue
    } else if other.done {
        rows.push(SequenceRow::Unmatched);
        Step::Complete
    } else {
        mine.values.push(value);
        Step::Continue
    }
}

/// The completion of one side: the sequences are settled once both sides have completed,
/// or as soon as the other side holds a value this one can no longer match.
fn on_done<X, Y, A, B>(
    mine: &mut SequenceSlot<'_, X>,
    other: &SequenceSlot<'_, Y>,
    rows: &mut Buffer<SequenceRow<A, B>>,
) -> Step {
    mine.done = true;
    if !other.values.is_empty() || (other.done && !mine.values.is_empty()) {
        rows.push(SequenceRow::Unmatched);
        Step::Complete
    } else if other.done {
        Step::Complete
    } else {
        Step::Continue
    }
}

impl<A, B, D> Observer<A> for SequenceEqualObserver<'_, A, B, D, 0>
where
    D: Observer<SequenceRow<A, B>>,
{
    fn on_next(&mut self, value: A) {
        self.core.update(|(first, second), rows| {
            (on_value(first, second, rows, value, |a, b| (a, b)), ())
        });
    }

    fn on_error(self, error: Error) {
        self.core.update(|_, _| (Step::Fail(error), ()));
    }

    fn on_completed(self) {
        self.core
            .update(|(first, second), rows| (on_done(first, second, rows), ()));
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_stopped()
    }
}

impl<A, B, D> Observer<B> for SequenceEqualObserver<'_, A, B, D, 1>
where
    D: Observer<SequenceRow<A, B>>,
{
    fn on_next(&mut self, value: B) {
        self.core.update(|(first, second), rows| {
            (on_value(second, first, rows, value, |b, a| (a, b)), ())
        });
    }

    fn on_error(self, error: Error) {
        self.core.update(|_, _| (Step::Fail(error), ()));
    }

    fn on_completed(self) {
        self.core
            .update(|(first, second), rows| (on_done(second, first, rows), ()));
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.core.is_stopped()
    }
}

impl<A, B, D, const I: usize> fmt::Debug for SequenceEqualObserver<'_, A, B, D, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SequenceEqualObserver")
            .field("source", &I)
            .finish_non_exhaustive()
    }
}

/// The observer the engine of [`SequenceEqual`] delivers rows to: compares each pair and
/// emits the verdict.
pub struct SequenceEqualDownstream<O, F> {
    /// `None` once the verdict has been delivered.
    observer: Option<O>,
    comparer: F,
}

impl<O: Observer<bool>, F> SequenceEqualDownstream<O, F> {
    /// Delivers `false`, then completion; the observer reports itself disposed from then
    /// on, so the engine disposes the sources.
    fn differ(&mut self) {
        if let Some(mut observer) = self.observer.take() {
            observer.on_next(false);
            if !observer.is_disposed() {
                observer.on_completed();
            }
        }
    }
}

impl<A, B, O, F> Observer<SequenceRow<A, B>> for SequenceEqualDownstream<O, F>
where
    O: Observer<bool>,
    F: Comparer<A, B>,
{
    #[inline]
    fn on_next(&mut self, row: SequenceRow<A, B>) {
        match row {
            SequenceRow::Pair(a, b) if self.comparer.equal(&a, &b) => {}
            _ => self.differ(),
        }
    }

    fn on_error(self, error: Error) {
        if let Some(observer) = self.observer {
            observer.on_error(error)
        }
    }

    fn on_completed(self) {
        if let Some(mut observer) = self.observer {
            observer.on_next(true);
            if !observer.is_disposed() {
                observer.on_completed();
            }
        }
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        self.observer.as_ref().is_none_or(O::is_disposed)
    }
}

impl<O, F> fmt::Debug for SequenceEqualDownstream<O, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SequenceEqualDownstream")
            .field("settled", &self.observer.is_none())
            .finish_non_exhaustive()
    }
}

/// The observer [`SequenceEqual`] subscribes to its source number `I`, for the downstream
/// `O`.
type SourceObserver<'a, S1, S2, O, F, const I: usize> = SequenceEqualObserver<
    'a,
    <S1 as Observable>::Item,
    <S2 as Observable>::Item,
    SequenceEqualDownstream<O, F>,
    I,
>;

impl<'a, S1, S2, F, O> Subscribe<O> for SequenceEqual<'a, S1, S2, F>
where
    S1: Subscribe<SourceObserver<'a, S1, S2, O, F, 0>>,
    <S1 as Subscribe<SourceObserver<'a, S1, S2, O, F, 0>>>::Subscription: Send + 'a,
    S2: Subscribe<SourceObserver<'a, S1, S2, O, F, 1>>,
    <S2 as Subscribe<SourceObserver<'a, S1, S2, O, F, 1>>>::Subscription: Send + 'a,
    F: Comparer<<S1 as Observable>::Item, <S2 as Observable>::Item>,
    O: Observer<bool>,
{
    type Subscription = CombineSubscription<
        Slots<'a, <S1 as Observable>::Item, <S2 as Observable>::Item>,
        SequenceRow<<S1 as Observable>::Item, <S2 as Observable>::Item>,
        SequenceEqualDownstream<O, F>,
    >;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let downstream = SequenceEqualDownstream {
            observer: Some(observer),
            comparer: self.comparer,
        };
        let slots = (SequenceSlot::new(), SequenceSlot::new());
        let core = Arc::new(CombineCore::new(slots, downstream));
        if !core.is_stopped() {
            let handle = self
                .first
                .subscribe_observer(SequenceEqualObserver::<_, _, _, 0> { core: core.clone() });
            core.set_handle::<0, _>(handle);
        }
        // A first source that settled the verdict inside its `subscribe` spares the second.
        if !core.is_stopped() {
            let handle = self
                .second
                .subscribe_observer(SequenceEqualObserver::<_, _, _, 1> { core: core.clone() });
            core.set_handle::<1, _>(handle);
        }
        CombineSubscription::new(core)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::prelude::*;
    use crate::source::{create, defer, empty, from_iter, just, never, throw};
    use crate::subjects::PublishSubject;
    use crate::testing::TestObserver;
    use crate::{Error, Notification::*};
    use std::cell::Cell;

    #[test]
    fn equal_sequences_give_true_at_the_end() {
        let o = TestObserver::new();
        let handle = from_iter([1, 2, 3])
            .sequence_equal(from_iter([1, 2, 3]))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(true), Completed]);
        assert!(handle.is_disposed());

        let o = TestObserver::new();
        empty::<i32>()
            .sequence_equal(empty::<i32>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(true), Completed]);
    }

    #[test]
    fn a_differing_pair_gives_false_at_once_and_stops_both_sources() {
        let pulled = Cell::new(0);
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .sequence_equal(
                from_iter(1..)
                    .tap(|_| pulled.set(pulled.get() + 1))
                    .map(|v| if v == 2 { 9 } else { v }),
            )
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(false), Completed]);
        assert_eq!(pulled.get(), 2);

        // A subject as the first source is let go of as well.
        let o = TestObserver::new();
        let subject = PublishSubject::new();
        subject
            .observable()
            .sequence_equal(from_iter([5, 6]))
            .subscribe_observer(o.clone());
        assert!(subject.has_observers());
        subject.on_next(5);
        o.assert_notifications(&[]);
        subject.on_next(7);
        o.assert_notifications(&[Next(false), Completed]);
        assert!(!subject.has_observers());
    }

    #[test]
    fn different_lengths_give_false_as_soon_as_they_are_known() {
        // The second is longer: known when it emits a value the completed first can't match.
        let o = TestObserver::new();
        let emitted_after = Cell::new(false);
        from_iter([1, 2])
            .sequence_equal(create(|mut e| {
                e.on_next(1);
                e.on_next(2);
                e.on_next(3);
                emitted_after.set(!e.is_disposed());
                e.on_next(4);
            }))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(false), Completed]);
        assert!(!emitted_after.get());

        // The first is longer: known when the second completes with values left over.
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .sequence_equal(from_iter([1, 2]))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(false), Completed]);

        let o = TestObserver::new();
        empty::<i32>()
            .sequence_equal(just(1))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(false), Completed]);

        let o = TestObserver::new();
        just(1)
            .sequence_equal(empty::<i32>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(false), Completed]);
    }

    #[test]
    fn a_completed_side_with_unmatched_values_settles_when_the_other_completes_short() {
        let first = PublishSubject::new();
        let second = PublishSubject::new();
        let o = TestObserver::new();
        first
            .observable()
            .sequence_equal(second.observable())
            .subscribe_observer(o.clone());
        first.on_next(1);
        first.on_next(2);
        first.on_completed();
        second.on_next(1);
        o.assert_notifications(&[]);
        second.on_completed();
        o.assert_notifications(&[Next(false), Completed]);
    }

    #[test]
    fn an_error_from_either_side_ends_the_sequence() {
        let o = TestObserver::<bool>::new();
        throw::<i32>(Error::msg("first"))
            .sequence_equal(just(1))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("first"))]);

        let o = TestObserver::<bool>::new();
        from_iter([1, 2])
            .sequence_equal(just(1).concat_with(throw(Error::msg("second"))))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Error(Error::msg("second"))]);
    }

    #[test]
    fn silence_keeps_the_verdict_open_until_disposed() {
        let o = TestObserver::new();
        let handle = just(1)
            .sequence_equal(never::<i32>())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert!(!handle.is_disposed());
        handle.dispose();
        assert!(handle.is_disposed());
        o.assert_notifications(&[]);
    }

    #[test]
    fn by_a_comparer_of_two_item_types() {
        let calls = Cell::new(0);
        let o = TestObserver::new();
        from_iter([1, 2, 3])
            .sequence_equal_by(from_iter(["1", "2", "3"]), |a: &i32, b: &&str| {
                calls.set(calls.get() + 1);
                a.to_string() == *b
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(true), Completed]);
        assert_eq!(calls.get(), 3);
    }

    #[test]
    fn a_disposed_downstream_subscribes_nothing() {
        let subscribed = Cell::new(false);
        let o = TestObserver::<bool>::new();
        o.dispose();
        defer(|| {
            subscribed.set(true);
            just(1)
        })
        .sequence_equal(just(1))
        .subscribe_observer(o.clone());
        o.assert_notifications(&[]);
        assert!(!subscribed.get());
    }

    #[test]
    fn downstream_disposed_by_the_verdict_gets_no_completion() {
        let o = TestObserver::new();
        let probe = o.clone();
        just(1)
            .sequence_equal(just(1))
            .tap(move |_| probe.dispose())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(true)]);
    }

    #[test]
    fn race_two_sources_emitting_from_two_threads() {
        use std::sync::{Arc, Barrier};
        use std::thread;

        for round in 0..200 {
            let first = PublishSubject::new();
            let second = PublishSubject::new();
            let o = TestObserver::new();
            first
                .observable()
                .sequence_equal(second.observable())
                .subscribe_observer(o.clone());
            // Every other round the second source differs in its last value.
            let differs = round % 2 == 1;
            let barrier = Arc::new(Barrier::new(2));
            let emit = |subject: PublishSubject<u32>, barrier: Arc<Barrier>, last: u32| {
                thread::spawn(move || {
                    barrier.wait();
                    for v in 0..500 {
                        subject.on_next(v);
                    }
                    subject.on_next(last);
                    subject.on_completed();
                })
            };
            let a = emit(first, barrier.clone(), 1000);
            let b = emit(second, barrier, if differs { 1001 } else { 1000 });
            a.join().unwrap();
            b.join().unwrap();
            o.assert_rules();
            o.assert_notifications(&[Next(!differs), Completed]);
        }
    }

    #[test]
    fn send_when_its_parts_are() {
        fn assert_send<T: Send>(_: &T) {}
        let source = from_iter([1, 2]).sequence_equal(from_iter([1, 2]));
        assert_send(&source);
        let handle = source.subscribe_observer(TestObserver::new());
        assert_send(&handle);
    }
}
