//! [`ObservableExt::flat_map_delay_error`](crate::ObservableExt::flat_map_delay_error):
//! `flat_map` on the [flattening engine](crate::engine::flatten) with its errors delayed.

use crate::engine::flatten::{FlatMap, forward_to_flat_map};
use std::fmt;
use std::marker::PhantomData;

/// Maps each value to an observable and merges their values, the errors delayed to the end;
/// built by [`ObservableExt::flat_map_delay_error`](crate::ObservableExt::flat_map_delay_error).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "flatMap")]
#[doc(alias = "mergeMap")]
#[doc(alias = "flatMapDelayError")]
pub struct FlatMapDelayError<'a, S, F> {
    source: S,
    f: F,
    _handles: PhantomData<&'a ()>,
}

impl<S, F> FlatMapDelayError<'_, S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        FlatMapDelayError {
            source,
            f,
            _handles: PhantomData,
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for FlatMapDelayError<'_, S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatMapDelayError")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

forward_to_flat_map!(FlatMapDelayError<'a, S, F>, f = F, |this| FlatMap::new(
    this.source,
    this.f
)
.delaying_errors());

#[cfg(all(test, not(loom)))]
mod tests {
    use crate::Error;
    use crate::notification::Notification::*;
    use crate::prelude::*;
    use crate::source::{from_iter, just, throw};
    use crate::testing::TestObserver;

    #[test]
    fn maps_every_value_despite_a_failed_inner() {
        let o = TestObserver::new();
        from_iter(1..=3)
            .flat_map_delay_error(|v| {
                if v == 2 {
                    throw(Error::msg("two")).boxed()
                } else {
                    just(v * 10).boxed()
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(10), Next(30), Error(Error::msg("two"))]);
    }
}
