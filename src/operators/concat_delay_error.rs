//! [`ObservableExt::concat_delay_error`](crate::ObservableExt::concat_delay_error): `concat`
//! on the [flattening engine](crate::engine::flatten) with its errors delayed.

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::engine::projection::{Identity, identity};
use std::marker::PhantomData;

/// Flattens an observable of observables by concatenating them, their errors delayed to the
/// end; built by [`ObservableExt::concat_delay_error`](crate::ObservableExt::concat_delay_error).
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "concatDelayError")]
#[doc(alias = "concat_all")]
pub struct ConcatDelayError<'a, S> {
    source: S,
    _handles: PhantomData<&'a ()>,
}

impl<S> ConcatDelayError<'_, S> {
    pub(crate) fn new(source: S) -> Self {
        ConcatDelayError {
            source,
            _handles: PhantomData,
        }
    }
}

forward_to_flat_map!(
    ConcatDelayError<'a, S>,
    f = Identity<<S as crate::observable::Observable>::Item>,
    |this| FlatMap::with_mode(this.source, identity as Identity<_>, Mode::CONCAT).delaying_errors()
);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::error::CompositeError;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::source::{from_iter, just, throw};
    use crate::testing::TestObserver;

    #[test]
    fn runs_every_inner_in_turn_then_fails() {
        let o = TestObserver::new();
        from_iter([
            just(1).concat_with(throw(Error::msg("a"))).boxed(),
            just(2).boxed(),
            throw(Error::msg("b")).boxed(),
            just(3).boxed(),
        ])
        .concat_delay_error()
        .subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3]);
        let error = o.error().unwrap();
        let composite = error.downcast_ref::<CompositeError>().unwrap();
        assert_eq!(composite.errors(), [Error::msg("a"), Error::msg("b")]);
    }

    #[test]
    fn without_errors_it_is_concat() {
        let o = TestObserver::new();
        from_iter([from_iter(vec![1, 2]), from_iter(vec![3])])
            .concat_delay_error()
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
    }
}
