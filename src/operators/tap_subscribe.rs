//! [`ObservableExt::tap_subscribe`](crate::ObservableExt::tap_subscribe).

use crate::observable::{Observable, Subscribe};
use std::fmt;

/// Calls an action when subscribed, before subscribing its source; built by
/// [`ObservableExt::tap_subscribe`](crate::ObservableExt::tap_subscribe).
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "doOnSubscribe")]
#[doc(alias = "do_on_subscribe")]
#[doc(alias = "subscribe")]
pub struct TapSubscribe<S, F> {
    source: S,
    f: F,
}

impl<S, F> TapSubscribe<S, F> {
    pub(crate) fn new(source: S, f: F) -> Self {
        TapSubscribe { source, f }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for TapSubscribe<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TapSubscribe")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl<S: Observable, F: FnOnce()> Observable for TapSubscribe<S, F> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // The action runs inside `subscribe`, then the source is subscribed there.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

impl<S, F, O> Subscribe<O> for TapSubscribe<S, F>
where
    S: Subscribe<O>,
    F: FnOnce(),
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        (self.f)();
        self.source.subscribe_observer(observer)
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use crate::source::{defer, from_iter};
    use std::cell::RefCell;

    #[test]
    fn runs_before_the_source_is_subscribed_at_each_subscription() {
        let log = RefCell::new(Vec::new());
        let source = defer(|| {
            log.borrow_mut().push("subscribed");
            from_iter([1])
        })
        .tap_subscribe(|| log.borrow_mut().push("tap"));
        assert!(log.borrow().is_empty());
        source.clone().subscribe(|_| log.borrow_mut().push("value"));
        source.subscribe(|_| log.borrow_mut().push("value"));
        assert_eq!(
            log.into_inner(),
            ["tap", "subscribed", "value", "tap", "subscribed", "value"]
        );
    }
}
