//! [`combine_latest_all`]: the latest values of a `Vec` of observables, whenever one emits.

use crate::operators::CombineLatestAll;

/// An observable that emits a `Vec` of the latest value of each observable in `sources`,
/// all of one type and in the order of `sources`, each time one of them emits once all have
/// emitted (RxJS's `combineLatest` of an array, RxJava's `combineLatest` of an
/// `Iterable`). [`combine_latest`](crate::source::combine_latest) is the tuple form.
///
/// The values are cloned into each `Vec`. It completes when all sources have completed, or
/// at once when one completes without a value; an empty `Vec` completes at once. The
/// sources are subscribed in order, so a synchronous source runs to its end before the next
/// starts.
///
/// ```text
/// a:                              -1---2----|
/// b:                              ---x----y-|
/// combine_latest_all(vec![a, b]): ---A-B--C-|   A = [1,x], B = [2,x], C = [2,y]
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let feeds = vec![
///     rx::source::just(1).boxed(),
///     rx::source::from_iter([10, 20]).boxed(),
/// ];
/// let observer = TestObserver::new();
/// rx::source::combine_latest_all(feeds).subscribe_observer(observer.clone());
/// observer.assert_values(&[vec![1, 10], vec![1, 20]]);
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
/// one per source whose handle is still live when its `subscribe` returns, and one `Vec` per row.
/// Each value takes one uncontended lock and clones every latest value into the row. When
/// every source finishes inside `subscribe` (`just`, `from_iter`, `range`, ... and `map` and
/// the like over them), the state lives on the stack instead: no shared state, no lock, only
/// the `Vec` per row.
#[doc(alias = "combineLatest")]
#[doc(alias = "combineLatestAll")]
pub fn combine_latest_all<'a, S>(sources: Vec<S>) -> CombineLatestAll<'a, S> {
    CombineLatestAll::new(sources)
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::combine_latest_all;
    use crate::Error;
    use crate::Notification::{Completed, Next};
    use crate::prelude::*;
    use crate::schedulers::TestScheduler;
    use crate::source::{empty, just, never, throw};
    use crate::testing::{TestObserver, TimedObserver, cold};
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn rows_once_every_source_has_a_value() {
        let sch = TestScheduler::new();
        let o = TimedObserver::new(&sch);
        combine_latest_all(vec![
            cold(
                &sch,
                [(ms(10), Next(1)), (ms(30), Next(2)), (ms(60), Completed)],
            ),
            cold(
                &sch,
                [(ms(20), Next(10)), (ms(40), Next(20)), (ms(50), Completed)],
            ),
            cold(&sch, [(ms(25), Next(100)), (ms(26), Completed)]),
        ])
        .subscribe_observer(o.clone());
        sch.run();
        o.assert_timeline(&[
            (ms(25), Next(vec![1, 10, 100])),
            (ms(30), Next(vec![2, 10, 100])),
            (ms(40), Next(vec![2, 20, 100])),
            (ms(60), Completed),
        ]);
    }

    #[test]
    fn completion_rules() {
        let o = TestObserver::<Vec<i32>>::new();
        combine_latest_all(Vec::<crate::source::Just<i32>>::new()).subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);

        let o = TestObserver::new();
        let handle = combine_latest_all(vec![never().boxed(), just(2).boxed(), empty().boxed()])
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Completed]);
        assert!(handle.is_disposed());

        let o = TestObserver::new();
        combine_latest_all(vec![just(1).boxed(), throw(Error::msg("boom")).boxed()])
            .subscribe_observer(o.clone());
        o.assert_notifications(&[crate::Notification::Error(Error::msg("boom"))]);
    }

    #[test]
    fn slots_inline_and_on_the_heap_combine_alike() {
        // Up to two sources keep their slots inline, more in a `Vec`: the rows are the same.
        for n in [1, 2, 3, 5] {
            let o = TestObserver::new();
            combine_latest_all(
                (0..n)
                    .map(|i| crate::source::from_iter([i * 10, i * 10 + 1]))
                    .collect(),
            )
            .subscribe_observer(o.clone());
            // Each source runs to its end before the next starts: rows begin with the last
            // source's first value, beside the others' last values.
            let row = |last: i32| {
                let mut row: Vec<i32> = (0..n - 1).map(|i| i * 10 + 1).collect();
                row.push(last);
                row
            };
            o.assert_values(&[row((n - 1) * 10), row((n - 1) * 10 + 1)]);
            o.assert_completed();
        }
    }

    #[test]
    fn values_from_several_threads_are_serialised() {
        use crate::source::create_owned;
        let (tx, rx) = std::sync::mpsc::channel();
        let o = TestObserver::new();
        let sources: Vec<_> = (0..4)
            .map(|i| {
                let tx = tx.clone();
                create_owned(move |e| tx.send((i, e)).unwrap())
            })
            .collect();
        combine_latest_all(sources).subscribe_observer(o.clone());
        let threads: Vec<_> = rx
            .iter()
            .take(4)
            .map(|(i, mut e)| {
                std::thread::spawn(move || {
                    for v in 0..500 {
                        e.on_next(i * 1000 + v);
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
        assert_eq!(rows.last().unwrap(), &vec![499, 1499, 2499, 3499]);
        // Each source's value only grows from row to row.
        for pair in rows.windows(2) {
            assert!(pair[0].iter().zip(&pair[1]).all(|(a, b)| a <= b));
        }
    }
}
