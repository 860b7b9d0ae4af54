//! [`from_iter`]: every value of an iterator, then completion.

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::Finished;

/// An observable that emits every value of `iterable`, in order, then completes.
///
/// The iterator runs on the subscribing thread, inside `subscribe`. Before each value the
/// source asks the observer whether it still wants values, so an endless iterator followed
/// by `take(3)` stops after three.
///
/// ```text
/// from_iter([1, 2, 3]): (123|)
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::from_iter(vec!["a", "b"]).subscribe_observer(observer.clone());
/// observer.assert_values(&["a", "b"]);
/// observer.assert_completed();
/// ```
#[doc(alias = "from_iterable")]
#[doc(alias = "fromIterable")]
#[doc(alias = "from_array")]
pub fn from_iter<I: IntoIterator>(iterable: I) -> FromIter<I> {
    FromIter { iterable }
}

/// Emits each value of an iterator; built by [`from_iter`].
#[derive(Clone, Debug)]
#[must_use = "observables do nothing unless subscribed"]
pub struct FromIter<I> {
    iterable: I,
}

impl<I: IntoIterator> Observable for FromIter<I> {
    type Item = I::Item;
    type Flavour = crate::sync::Shared;
    // Emits only inside `subscribe`, on the calling thread, and keeps no observer.
    const EMISSION: crate::observable::Emission = crate::observable::Emission::INSIDE_SUBSCRIBE;
}

impl<I: IntoIterator, O: Observer<I::Item>> Subscribe<O> for FromIter<I> {
    type Subscription = Finished;

    // Always inlined: a caller that knows its observer never reports disposed (one that
    // subscribes inline, as `subscribe_on` does on a trampoline) then loses the checks.
    #[inline(always)]
    fn subscribe_observer(self, mut observer: O) -> Finished {
        // Ask before pulling, not after: an iterator may have side effects, and a
        // downstream that is done must not make it advance.
        let mut iter = self.iterable.into_iter();
        while !observer.is_disposed() {
            match iter.next() {
                Some(value) => observer.on_next(value),
                None => {
                    observer.on_completed();
                    break;
                }
            }
        }
        Finished
    }
}

#[cfg(test)]
mod tests {
    use super::from_iter;
    use crate::prelude::*;
    use crate::testing::TestObserver;

    #[test]
    fn emits_in_order_and_completes() {
        let o = TestObserver::new();
        from_iter(1..=3).subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3]);
        o.assert_completed();
    }

    #[test]
    fn empty_iterator_completes() {
        let o = TestObserver::<u8>::new();
        from_iter(std::iter::empty()).subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_completed();
    }

    #[test]
    fn pulls_nothing_once_downstream_is_done() {
        let mut pulled = 0;
        let o = TestObserver::new();
        from_iter((0..).inspect(|_| pulled += 1))
            .take(3)
            .subscribe_observer(o.clone());
        o.assert_values(&[0, 1, 2]);
        assert_eq!(pulled, 3);
    }

    #[test]
    fn cloning_resubscribes_from_the_start() {
        let source = from_iter(vec![1, 2]);
        let o = TestObserver::new();
        source.clone().subscribe_observer(o.clone());
        source.subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 1, 2]);
    }
}
