//! [`ObservableExt::merge_delay_error`](crate::ObservableExt::merge_delay_error): `merge` on
//! the [flattening engine](crate::engine::flatten) with its errors delayed.

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::engine::projection::{Identity, identity};
use std::marker::PhantomData;

/// Flattens an observable of observables by merging them, their errors delayed to the end;
/// built by [`ObservableExt::merge_delay_error`](crate::ObservableExt::merge_delay_error).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "mergeDelayError")]
#[doc(alias = "merge_all")]
pub struct MergeDelayError<'a, S> {
    source: S,
    _handles: PhantomData<&'a ()>,
}

impl<S> MergeDelayError<'_, S> {
    pub(crate) fn new(source: S) -> Self {
        MergeDelayError {
            source,
            _handles: PhantomData,
        }
    }
}

forward_to_flat_map!(
    MergeDelayError<'a, S>,
    f = Identity<<S as crate::observable::Observable>::Item>,
    |this| FlatMap::with_mode(this.source, identity as Identity<_>, Mode::MERGE).delaying_errors()
);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::error::CompositeError;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::source::{empty, from_iter, just, throw};
    use crate::testing::TestObserver;

    fn failing(values: &[i32], message: &'static str) -> crate::BoxedObservable<'static, i32> {
        from_iter(values.to_vec())
            .concat_with(throw(Error::msg(message)))
            .boxed()
    }

    #[test]
    fn an_inner_error_waits_for_the_others() {
        let o = TestObserver::new();
        from_iter([failing(&[1], "a"), from_iter(vec![2, 3]).boxed()])
            .merge_delay_error()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Error(Error::msg("a"))]);
    }

    #[test]
    fn several_errors_arrive_as_one_composite_in_order() {
        let o = TestObserver::new();
        from_iter([failing(&[1], "a"), just(2).boxed(), failing(&[], "b")])
            .merge_delay_error()
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 2]);
        let error = o.error().unwrap();
        let composite = error.downcast_ref::<CompositeError>().unwrap();
        assert_eq!(composite.errors(), [Error::msg("a"), Error::msg("b")]);
    }

    #[test]
    fn an_outer_error_waits_for_the_running_inners() {
        let o = TestObserver::new();
        from_iter([failing(&[1], "inner")])
            .concat_with(throw(Error::msg("outer")))
            .merge_delay_error()
            .subscribe_observer(o.clone());
        o.assert_values(&[1]);
        let error = o.error().unwrap();
        let composite = error.downcast_ref::<CompositeError>().unwrap();
        assert_eq!(
            composite.errors(),
            [Error::msg("inner"), Error::msg("outer")]
        );
    }

    #[test]
    fn without_errors_it_is_merge() {
        let o = TestObserver::new();
        from_iter([just(1), just(2)])
            .merge_delay_error()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
        let o = TestObserver::<i32>::new();
        empty::<crate::source::Just<i32>>()
            .merge_delay_error()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }
}
