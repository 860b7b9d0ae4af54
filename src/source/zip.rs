//! [`zip`]: the n-th values of several observables, together.

use crate::operators::Zip;

/// An observable that emits a tuple of the n-th value of each observable in `sources`, a
/// tuple of 2 to 8 observables of any item types (RxJava's `zip`, RxJS's `zip`).
///
/// Values that arrive before their partners are buffered. The zip completes as soon as one
/// source has completed and has no buffered value left to pair: at once when a source
/// completes with nothing buffered, or when its last buffered value is paired; the other
/// sources are then disposed. The sources are subscribed in order, and a source that ends
/// the zip inside its `subscribe` (an empty one) keeps the next ones from being subscribed.
/// The handle returned disposes them all. [`ObservableExt::zip`](crate::ObservableExt::zip)
/// is the two-source form.
///
/// ```text
/// a:              -1-2-3-|
/// b:              --x-y-|
/// c:              ---p---q-r-|
/// zip((a, b, c)): ---A---(B|)     A = (1,x,p), B = (2,y,q)
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::zip((
///     rx::source::from_iter([1, 2, 3]),
///     rx::source::from_iter(["a", "b", "c"]),
///     rx::source::from_iter([true, false]),
///     rx::source::just('z'),
/// ))
/// .subscribe_observer(observer.clone());
/// observer.assert_values(&[(1, "a", true, 'z')]);
/// observer.assert_completed();
/// ```
///
/// # Errors
///
/// An error from any source is delivered at once, dropping buffered values, and the other
/// sources are disposed.
///
/// # Performance
///
/// One allocation per subscription (the shared state), and one per source whose handle is
/// still live when its `subscribe` returns (none for synchronous sources). Each notification
/// takes one uncontended lock, and each delivery one more; buffered values are kept in a
/// queue that allocates only beyond one value per source. Deliveries from several threads
/// are serialised without holding the lock while the downstream runs.
#[doc(alias = "zip_array")]
#[doc(alias = "zipArray")]
pub fn zip<'a, S>(sources: S) -> Zip<'a, S> {
    Zip::new(sources)
}

#[cfg(test)]
mod tests {
    use super::zip;
    use crate::Error;
    use crate::Notification::{Completed, Next};
    use crate::prelude::*;
    use crate::source::{create, empty, from_iter, just, throw};
    use crate::testing::TestObserver;

    #[test]
    fn zips_three_and_four_sources() {
        let o = TestObserver::new();
        zip((
            from_iter([1, 2, 3]),
            from_iter(['a', 'b', 'c']),
            from_iter([true, false, true]),
        ))
        .subscribe_observer(o.clone());
        o.assert_notifications(&[
            Next((1, 'a', true)),
            Next((2, 'b', false)),
            Next((3, 'c', true)),
            Completed,
        ]);

        let o = TestObserver::new();
        zip((just(1), just(2.5), just("three"), from_iter([4u8, 5]))).subscribe_observer(o.clone());
        o.assert_notifications(&[Next((1, 2.5, "three", 4u8)), Completed]);
    }

    #[test]
    fn eight_sources() {
        let o = TestObserver::new();
        zip((
            just(0),
            just(1),
            just(2),
            just(3),
            just(4),
            just(5),
            just(6),
            just(7),
        ))
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Next((0, 1, 2, 3, 4, 5, 6, 7)), Completed]);
    }

    #[test]
    fn the_shortest_source_decides_the_length() {
        let o = TestObserver::new();
        zip((from_iter(0..10), from_iter(0..2), from_iter(0..5))).subscribe_observer(o.clone());
        o.assert_notifications(&[Next((0, 0, 0)), Next((1, 1, 1)), Completed]);

        let o = TestObserver::<(i32, i32, i32)>::new();
        zip((just(1), just(2), empty())).subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn an_error_from_the_middle_source() {
        let o = TestObserver::<(i32, i32, i32)>::new();
        zip((
            from_iter([1, 2]),
            create(|mut e| {
                e.on_next(10);
                e.on_error(Error::msg("middle"));
            }),
            just(100),
        ))
        .subscribe_observer(o.clone());
        o.assert_values(&[]);
        o.assert_error("middle");

        let o = TestObserver::<(i32, i32, i32)>::new();
        zip((just(1), just(2), throw(Error::msg("last")))).subscribe_observer(o.clone());
        o.assert_error("last");
    }
}
