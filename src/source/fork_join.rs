//! [`fork_join`]: the last value of each of several observables, once all have completed.

use crate::operators::ForkJoin;

/// An observable that waits for every observable in `sources`, a tuple of 2 to 8 observables
/// of any item types, to complete, then emits one tuple of the last value of each and
/// completes (RxJS's `forkJoin`, RxJava's `zip` of `last`s).
///
/// A source that completes without a value completes the result at once, empty, and the
/// others are disposed, as in RxJS. The sources are subscribed in order; the values are
/// moved into the tuple, so they need not be `Clone`. The handle returned disposes them
/// all.
///
/// ```text
/// a:                  -1--2-----|
/// b:                  ---x--y|
/// fork_join((a, b)):  ----------(A|)    A = (2, y)
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::fork_join((
///     rx::source::from_iter(["draft", "final"]),
///     rx::source::just(42),
///     rx::source::from_iter(1..=3).map(|v| v * 10),
/// ))
/// .subscribe_observer(observer.clone());
/// observer.assert_values(&[("final", 42, 30)]);
/// observer.assert_completed();
///
/// let empty = TestObserver::<(i32, i32)>::new();
/// rx::source::fork_join((rx::source::just(1), rx::source::empty()))
///     .subscribe_observer(empty.clone());
/// empty.assert_values(&[]);
/// empty.assert_completed();
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
/// one uncontended lock and replaces the source's last value; nothing is cloned.
#[doc(alias = "forkJoin")]
pub fn fork_join<'a, S>(sources: S) -> ForkJoin<'a, S> {
    ForkJoin::new(sources)
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::fork_join;
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
    fn waits_for_the_last_completion_on_virtual_time() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        fork_join((
            cold(
                &sch,
                [(ms(10), Next(1)), (ms(30), Next(2)), (ms(50), Completed)],
            ),
            cold(&sch, [(ms(20), Next('x')), (ms(40), Completed)]),
        ))
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(50), Next((2, 'x'))), (ms(50), Completed)]);
    }

    #[test]
    fn eight_sources_and_values_that_are_not_clone() {
        struct NotClone(i32);
        let o = TestObserver::new();
        fork_join((
            just(NotClone(1)),
            just(2),
            just(3),
            just(4),
            just(5),
            just(6),
            just(7),
            from_iter([7, 8]),
        ))
        .map(|(a, b, c, d, e, f, g, h)| a.0 + b + c + d + e + f + g + h)
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(36), Completed]);
    }

    #[test]
    fn an_empty_source_completes_at_once_and_disposes_the_others() {
        let sch = TestScheduler::new();
        let o = TimedObserver::<(i32, i32), _>::new(&sch);
        let handle = fork_join((
            cold(&sch, [(ms(10), Next(1)), (ms(100), Completed)]),
            cold(&sch, [(ms(20), Completed)]),
        ))
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(20), Completed)]);
        assert!(handle.is_disposed());

        let o = TestObserver::<(i32, i32)>::new();
        fork_join((never(), empty())).subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
    }

    #[test]
    fn an_error_ends_at_once() {
        let o = TestObserver::<(i32, i32)>::new();
        fork_join((just(1), throw(Error::msg("boom")))).subscribe_observer(o.clone());
        o.assert_notifications(&[crate::Notification::Error(Error::msg("boom"))]);
    }

    #[test]
    fn dispose_reaches_every_source() {
        let sch = TestScheduler::new();
        let o = TimedObserver::<(i32, i32), _>::new(&sch);
        let handle = fork_join((
            cold(&sch, [(ms(10), Next(1)), (ms(30), Completed)]),
            cold(&sch, [(ms(10), Next(2)), (ms(30), Completed)]),
        ))
        .subscribe_observer(o.clone());
        sch.advance_by(ms(15));
        handle.dispose();
        sch.run();
        o.assert_timeline(&[]);
        assert!(sch.is_empty());
    }

    #[test]
    fn values_from_two_threads_give_one_row() {
        use crate::source::create_owned;
        let (tx, rx) = std::sync::mpsc::channel();
        let (tx2, o) = (tx.clone(), TestObserver::new());
        fork_join((
            create_owned(move |e| tx.send((0, e)).unwrap()),
            create_owned(move |e| tx2.send((1, e)).unwrap()),
        ))
        .subscribe_observer(o.clone());
        let emitters: Vec<_> = rx.iter().take(2).collect();
        let threads: Vec<_> = emitters
            .into_iter()
            .map(|(i, mut e)| {
                std::thread::spawn(move || {
                    for v in 0..1000 {
                        e.on_next(i * 10_000 + v);
                    }
                    e.on_completed();
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        o.assert_notifications(&[Next((999, 10_999)), Completed]);
    }
}
