//! [`zip_all`]: the `n`th values of a `Vec` of observables, together.

use crate::operators::ZipAll;

/// An observable that emits a `Vec` of the `n`th value of each observable in `sources`, all
/// of one type and in the order of `sources`, once each has emitted its `n`th value (RxJS's
/// `zip` of an array, RxJava's `zip` of an `Iterable`). [`zip`](crate::source::zip) is the
/// tuple form.
///
/// Values wait in a queue per source until their row is complete. It completes when a
/// source has completed and nothing of it is left queued, since no more rows can be made;
/// an empty `Vec` completes at once.
///
/// ```text
/// a:                   -1-2---3|
/// b:                   ---x-y----|
/// zip_all(vec![a, b]): ---A-B--|     A = [1,x], B = [2,y]
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let columns = vec![
///     rx::source::from_iter(vec![1, 2, 3]),
///     rx::source::from_iter(vec![10, 20]),
///     rx::source::from_iter(vec![100, 200, 300]),
/// ];
/// let observer = TestObserver::new();
/// rx::source::zip_all(columns).subscribe_observer(observer.clone());
/// observer.assert_values(&[vec![1, 10, 100], vec![2, 20, 200]]);
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
/// one per source whose handle is still live when its `subscribe` returns, one `Vec` per row, and
/// the queues of sources that run ahead. Each value takes one uncontended lock.
#[doc(alias = "zip")]
#[doc(alias = "zipAll")]
pub fn zip_all<'a, S>(sources: Vec<S>) -> ZipAll<'a, S> {
    ZipAll::new(sources)
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::zip_all;
    use crate::Error;
    use crate::Notification::{Completed, Next};
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{from_iter, just, never, throw};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn rows_when_every_source_has_its_nth_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        zip_all(vec![
            cold(
                &sch,
                [
                    (ms(10), Next(1)),
                    (ms(20), Next(2)),
                    (ms(40), Next(3)),
                    (ms(45), Completed),
                ],
            ),
            cold(
                &sch,
                [(ms(30), Next(10)), (ms(35), Next(20)), (ms(50), Completed)],
            ),
        ])
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(30), Next(vec![1, 10])),
            (ms(35), Next(vec![2, 20])),
            (ms(50), Completed),
        ]);
    }

    #[test]
    fn completes_when_a_finished_source_has_nothing_queued() {
        let sch = TestScheduler::new();
        let o = TimedObserver::<Vec<i32>, _>::new(&sch);
        let handle = zip_all(vec![
            cold(&sch, [(ms(10), Next(1)), (ms(20), Completed)]),
            cold(&sch, [(ms(30), Next(2)), (ms(40), Next(3))]),
        ])
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[(ms(30), Next(vec![1, 2])), (ms(30), Completed)]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn empty_vec_error_and_never() {
        let o = TestObserver::<Vec<i32>>::new();
        zip_all(Vec::<crate::source::Just<i32>>::new()).subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);

        let o = TestObserver::new();
        zip_all(vec![just(1).boxed(), throw(Error::msg("boom")).boxed()])
            .subscribe_observer(o.clone());
        o.assert_notifications(&[crate::Notification::Error(Error::msg("boom"))]);

        let o = TestObserver::new();
        zip_all(vec![never().boxed(), from_iter(0..3).boxed()]).subscribe_observer(o.clone());
        o.assert_notifications(&[]);
    }

    #[test]
    fn lock_step_rows_match_up_across_threads() {
        use crate::source::create_owned;
        let (tx, rx) = std::sync::mpsc::channel();
        let o = TestObserver::new();
        let sources: Vec<_> = (0..3)
            .map(|i| {
                let tx = tx.clone();
                create_owned(move |e| tx.send((i, e)).unwrap())
            })
            .collect();
        zip_all(sources).subscribe_observer(o.clone());
        let threads: Vec<_> = rx
            .iter()
            .take(3)
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
        o.assert_completed();
        let rows = o.values();
        assert_eq!(rows.len(), 1000);
        for (v, row) in rows.iter().enumerate() {
            assert_eq!(row, &[v, 10_000 + v, 20_000 + v]);
        }
    }
}
