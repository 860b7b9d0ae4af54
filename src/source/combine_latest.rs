//! [`combine_latest`]: the latest values of several observables, whenever one of them emits.

use crate::operators::CombineLatest;

/// An observable that emits a tuple of the latest value of each observable in `sources`, a
/// tuple of 2 to 8 observables of any item types, each time one of them emits once all have
/// emitted (RxJava's `combineLatest`, RxJS's `combineLatest`).
///
/// Only the latest value of each source is kept, and cloned into each tuple (the items must
/// be `Clone`). The sequence completes when all sources have completed, or at once when a
/// source completes without ever emitting, since no tuple can then be made (the others are
/// disposed). The sources are subscribed in order, so a synchronous source runs to its end
/// before the next starts and only its last value is combined; a source that ends the
/// sequence inside its `subscribe` keeps the next ones from being subscribed. The handle
/// returned disposes them all. [`ObservableExt::combine_latest`](crate::ObservableExt::combine_latest)
/// is the two-source form.
///
/// ```text
/// a:                         -1---2---|
/// b:                         --x-------y-|
/// c:                         ---p---|
/// combine_latest((a, b, c)): ---A-B----C-|     A = (1,x,p), B = (2,x,p), C = (2,y,p)
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::combine_latest((
///     rx::source::just("a"),
///     rx::source::just(1),
///     rx::source::from_iter([0.5, 1.5]),
/// ))
/// .subscribe_observer(observer.clone());
/// observer.assert_values(&[("a", 1, 0.5), ("a", 1, 1.5)]);
/// observer.assert_completed();
/// ```
///
/// # Errors
///
/// An error from any source is delivered at once, and the other sources are disposed.
///
/// # Performance
///
/// One allocation per subscription (the shared state), and one per source whose handle is
/// still live when its `subscribe` returns (none for synchronous sources). Each value takes
/// one uncontended lock and clones every latest value into the tuple; each delivery takes one
/// more lock. Deliveries from several threads are serialised without holding the lock while
/// the downstream runs.
#[doc(alias = "combine_latest_array")]
#[doc(alias = "combineLatestArray")]
pub fn combine_latest<'a, S>(sources: S) -> CombineLatest<'a, S> {
    CombineLatest::new(sources)
}

#[cfg(test)]
mod tests {
    use super::combine_latest;
    use crate::Error;
    use crate::Notification::{Completed, Next};
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, just, never, throw};
    use crate::testing::TestObserver;

    #[test]
    fn combines_four_sources() {
        let o = TestObserver::new();
        combine_latest((
            just(1),
            from_iter(['a', 'b']),
            just(true),
            from_iter([7, 8]),
        ))
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((1, 'b', true, 7)), Next((1, 'b', true, 8)), Completed]);
    }

    #[test]
    fn completion_rules() {
        // All must complete.
        let o = TestObserver::new();
        combine_latest((just(1), just(2), create(|mut e| e.on_next(3))))
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((1, 2, 3))]);

        // One that completes empty ends everything, even with a silent one beside it.
        let o = TestObserver::<(i32, i32, i32)>::new();
        let handle = combine_latest((never(), just(2), empty())).subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn an_error_ends_at_once() {
        let o = TestObserver::<(i32, i32, i32)>::new();
        combine_latest((just(1), throw(Error::msg("boom")), just(3))).subscribe_observer(o.clone());
        o.assert_notifications(&[crate::Notification::Error(Error::msg("boom"))]);
    }
}
