//! [`fork_join_all`]: the last value of each observable of a `Vec`, once all have completed.

use crate::operators::ForkJoinAll;

/// An observable that waits for every observable in `sources`, all of one type, to
/// complete, then emits one `Vec` of the last value of each, in the order of `sources`, and
/// completes (RxJS's `forkJoin` of an array). [`fork_join`](crate::source::fork_join) is the
/// tuple form.
///
/// An empty `Vec` completes at once without a value; a source that completes without a
/// value completes the result at once, empty, and the others are disposed.
///
/// ```text
/// a:                        -1--2---|
/// b:                        ---5-|
/// fork_join_all(vec![a, b]): --------([2, 5]|)
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let pages: Vec<_> = (1..=3).map(|page| rx::source::just(page * 100)).collect();
/// let observer = TestObserver::new();
/// rx::source::fork_join_all(pages).subscribe_observer(observer.clone());
/// observer.assert_values(&[vec![100, 200, 300]]);
/// observer.assert_completed();
/// ```
///
/// # Errors
///
/// An error from any source is delivered at once, and the other sources are disposed.
///
/// # Performance
///
/// One allocation per subscription for the shared state (and one for its slots beyond two sources),
/// one per source whose handle is still live when its `subscribe` returns, and the `Vec` emitted.
/// Each value takes one uncontended lock.
#[doc(alias = "forkJoin")]
pub fn fork_join_all<'a, S>(sources: Vec<S>) -> ForkJoinAll<'a, S> {
    ForkJoinAll::new(sources)
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::fork_join_all;
    use crate::Error;
    use crate::Notification::{Completed, Next};
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, from_iter, just, never, throw};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_last_values_in_source_order_at_the_last_completion() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        fork_join_all(vec![
            cold(
                &sch,
                [(ms(10), Next(1)), (ms(20), Next(2)), (ms(40), Completed)],
            ),
            cold(&sch, [(ms(5), Next(5)), (ms(30), Completed)]),
            cold(&sch, [(ms(15), Next(9)), (ms(50), Completed)]),
        ])
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(50), Next(vec![2, 5, 9])), (ms(50), Completed)]);
    }

    #[test]
    fn empty_vec_and_empty_sources() {
        let o = TestObserver::<Vec<i32>>::new();
        let handle =
            fork_join_all(Vec::<crate::source::Just<i32>>::new()).subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
        assert!(handle.is_disposed());

        let o = TestObserver::new();
        fork_join_all(vec![never().boxed(), empty().boxed(), just(1).boxed()])
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn an_error_ends_at_once() {
        let o = TestObserver::new();
        fork_join_all(vec![
            from_iter([1, 2]).boxed(),
            throw(Error::msg("boom")).boxed(),
        ])
        .subscribe_observer(o.clone());
        o.assert_notifications(&[crate::Notification::Error(Error::msg("boom"))]);
    }

    #[test]
    fn dispose_reaches_every_source() {
        let sch = TestScheduler::new();
        let o = TimedObserver::<Vec<i32>, _>::new(&sch);
        let handle = fork_join_all(vec![
            cold(&sch, [(ms(10), Next(1)), (ms(30), Completed)]),
            cold(&sch, [(ms(10), Next(2)), (ms(30), Completed)]),
        ])
        .subscribe_observer(o.clone());
        sch.advance_by(ms(15));
        handle.dispose();
        sch.run();
        o.assert_timeline(&[]);
        assert!(sch.is_empty());
    }
}
