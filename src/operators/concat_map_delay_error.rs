//! [`ObservableExt::concat_map_delay_error`](crate::ObservableExt::concat_map_delay_error):
//! `concat_map` on the [flattening engine](crate::engine::flatten) with its errors delayed;
//! the projection is [`concat_map`](crate::ObservableExt::concat_map)'s, which maps a value
//! when its turn comes.

use crate::engine::flatten::{FlatMap, Mode, forward_to_flat_map};
use crate::operators::Projection;
use std::fmt;
use std::marker::PhantomData;

/// Maps each value to an observable and emits their values one observable after another,
/// the errors delayed to the end; built by
/// [`ObservableExt::concat_map_delay_error`](crate::ObservableExt::concat_map_delay_error).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "concatMapDelayError")]
#[doc(alias = "concatMap")]
pub struct ConcatMapDelayError<'a, S, F> {
    source: S,
    f: F,
    _handles: PhantomData<&'a ()>,
}

impl<S, F> ConcatMapDelayError<'_, S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        ConcatMapDelayError {
            source,
            f,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for ConcatMapDelayError<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConcatMapDelayError")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

forward_to_flat_map!(
    ConcatMapDelayError<'a, S, F>,
    f = Projection<F>,
    |this| FlatMap::with_mode(this.source, Projection::new(this.f), Mode::CONCAT).delaying_errors()
);

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::error::CompositeError;
    use crate::prelude::*;
    use crate::source::{from_iter, just, throw};
    use crate::testing::TestObserver;

    #[test]
    fn maps_every_value_in_turn_then_fails_with_every_error() {
        let o = TestObserver::new();
        from_iter(1..=4)
            .concat_map_delay_error(|v| {
                if v % 2 == 0 {
                    just(v)
                        .concat_with(throw(Error::msg(format!("e{v}"))))
                        .boxed()
                } else {
                    just(v).boxed()
                }
            })
            .subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3, 4]);
        let error = o.error().unwrap();
        let composite = error.downcast_ref::<CompositeError>().unwrap();
        assert_eq!(composite.errors(), [Error::msg("e2"), Error::msg("e4")]);
    }
}
