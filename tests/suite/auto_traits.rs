//! Public types are `Send` and `Sync` when their parts are: the compiler decides from what user
//! closures capture, never a flavour parameter.

use rx::prelude::*;
use rx::schedulers::{
    Computational, CurrentThread, Immediate, NewThread, RunLoop, TestScheduler, ThreadPool,
};
use rx::source::{from_iter, just};
use rx::subjects::{AsyncSubject, BehaviorSubject, PublishSubject, ReplaySubject};
use static_assertions::{assert_impl_all, assert_not_impl_any};
use std::cell::Cell;
use std::rc::Rc;

assert_impl_all!(rx::Error: Send, Sync, Clone);
assert_impl_all!(rx::subscription::Finished: Send, Sync, Copy);
assert_impl_all!(rx::subscription::FlagSubscription: Send, Sync, Clone);
assert_impl_all!(rx::subscription::CompositeSubscription: Send, Sync, Default);
assert_impl_all!(rx::subscription::SerialSubscription: Send, Sync, Default);
assert_not_impl_any!(rx::subscription::CompositeSubscription<Rc<rx::subscription::Finished>>: Send, Sync);
assert_not_impl_any!(rx::subscription::SerialSubscription<Rc<rx::subscription::Finished>>: Send, Sync);
assert_impl_all!(rx::testing::TestObserver<i32>: Send, Sync, Clone);
assert_impl_all!(rx::Notification<i32>: Send, Sync, Clone);

assert_impl_all!(Immediate: Send, Sync, Clone);
assert_impl_all!(CurrentThread: Send, Sync, Clone);
assert_impl_all!(NewThread: Send, Sync, Clone);
assert_impl_all!(RunLoop: Send, Sync, Clone);
assert_impl_all!(ThreadPool: Send, Sync, Clone);
assert_impl_all!(Computational: Send, Sync, Clone);
assert_impl_all!(TestScheduler: Send, Sync, Clone);
assert_impl_all!(rx::schedulers::EventLoopHandle: Send, Sync, Clone);
assert_impl_all!(rx::schedulers::EventLoopWorker: Send, Sync, Clone);
assert_not_impl_any!(rx::schedulers::EventLoop: Send, Sync);
assert_impl_all!(rx::schedulers::OnLoop<Rc<Cell<i32>>>: Send, Sync, Clone);

assert_impl_all!(PublishSubject<i32>: Send, Sync, Clone);
assert_impl_all!(BehaviorSubject<i32>: Send, Sync, Clone);
assert_impl_all!(ReplaySubject<i32>: Send, Sync, Clone);
assert_impl_all!(AsyncSubject<i32>: Send, Sync, Clone);

assert_impl_all!(rx::BoxedObservable<'static, i32>: Send);
assert_not_impl_any!(rx::LocalBoxedObservable<'static, i32>: Send, Sync);

fn assert_send_sync<T: Send + Sync>(_: &T) {}

mod aggregates {
    use rx::operators::{Average, ByKey, Collect, Max, Min, ToMap, ToMultimap};
    use rx::source::FromIter;
    use static_assertions::{assert_impl_all, assert_not_impl_any};
    use std::rc::Rc;

    type Source = FromIter<Vec<i32>>;
    type Key = fn(&i32) -> i32;
    type Compare = fn(&i32, &i32) -> std::cmp::Ordering;

    assert_impl_all!(Min<Source, ByKey<Key>>: Send, Sync, Clone);
    assert_impl_all!(Max<Source, Compare>: Send, Sync, Clone);
    assert_impl_all!(Average<Source>: Send, Sync, Clone);
    assert_impl_all!(ToMap<Source, Key>: Send, Sync, Clone);
    assert_impl_all!(ToMultimap<Source, Key>: Send, Sync, Clone);
    // The collection is built at subscribe time: `Collect` does not hold one.
    assert_impl_all!(Collect<Source, Vec<Rc<i32>>>: Send, Sync, Clone);
    assert_not_impl_any!(Collect<FromIter<Vec<Rc<i32>>>, Vec<Rc<i32>>>: Send, Sync);
}

#[test]
fn a_chain_is_send_and_sync_when_its_closures_are() {
    let chain = from_iter(vec![1, 2, 3])
        .map(|v| v * 2)
        .filter(|v| *v > 2)
        .scan(0, |a, v| a + v)
        .take(2);
    assert_send_sync(&chain);

    let chain = just(1).merge_with(just(2)).zip(just(3));
    assert_send_sync(&chain);
}

#[test]
fn a_chain_capturing_rc_works_on_its_thread() {
    // Not `Send` (an `Rc` is captured), which no bound in a synchronous chain asks for.
    let local = Rc::new(Cell::new(5));
    let mut seen = 0;
    just(1)
        .map(move |v| v + local.get())
        .subscribe(|v| seen = v);
    assert_eq!(seen, 6);
}
