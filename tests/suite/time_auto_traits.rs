//! The time operators, their observers and their handles are `Send` and `Sync` when their
//! parts are, so pipelines and handles move between threads.

use rx::operators::observers::*;
use rx::operators::*;
use rx::schedulers::{Immediate, NewThread, QueueWorker, QueuedTask, TestScheduler};
use rx::source::{FromIter, Interval, Timer};
use rx::subscription::{Finished, Subscription};
use rx::testing::TestObserver;
use static_assertions::assert_impl_all;
use std::rc::Rc;

type Source = FromIter<Vec<i32>>;
type Down = TestObserver<i32>;

assert_impl_all!(Timer<NewThread>: Send, Sync, Clone);
assert_impl_all!(Interval<TestScheduler>: Send, Sync, Clone);
assert_impl_all!(Delay<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(Debounce<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(Throttle<Source, Immediate>: Send, Sync, Clone);
assert_impl_all!(Sample<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(Timeout<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(BufferWithTime<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(Timestamp<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(TimeInterval<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(ObserveOn<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(SubscribeOn<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(BlockingObservable<Source>: Send, Sync, Clone);
assert_impl_all!(TakeWithTime<'static, Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(SkipWithTime<'static, Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(TakeLastWithTime<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(SkipLastWithTime<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(BufferWithTimeSkip<Source, NewThread>: Send, Sync, Clone);

assert_impl_all!(DelayObserver<QueueWorker, Down, i32>: Send, Sync);
assert_impl_all!(DebounceObserver<QueueWorker, Down, i32>: Send, Sync);
assert_impl_all!(SampleObserver<QueueWorker, Down, i32>: Send, Sync);
assert_impl_all!(TimeoutObserver<QueueWorker, Down, i32>: Send, Sync);
assert_impl_all!(BufferWithTimeObserver<QueueWorker, Down, i32>: Send, Sync);
assert_impl_all!(ObserveOnObserver<QueueWorker, Down, i32>: Send, Sync);
assert_impl_all!(SubscribeOnObserver<Down>: Send, Sync);
assert_impl_all!(BlockingObserver<i32>: Send, Sync);
assert_impl_all!(TakeLastWithTimeObserver<Down, i32, TestScheduler>: Send, Sync);
assert_impl_all!(SkipLastWithTimeObserver<Down, i32, TestScheduler>: Send, Sync);
assert_impl_all!(BufferWithTimeSkipObserver<QueueWorker, Down, i32>: Send, Sync);

assert_impl_all!(ObserveOnSubscription<Finished>: Subscription, Send, Sync);
assert_impl_all!(SubscribeOnSubscription<Finished, QueuedTask>: Subscription, Send, Sync);
assert_impl_all!(BlockingIter<i32, Finished>: Iterator, Send, Sync);
assert_impl_all!(TimeoutError: std::error::Error, Send, Sync, Copy);

// A synchronous operator on a clock carries no bound of its own: it is `Send` exactly when
// what it holds is.
static_assertions::assert_not_impl_any!(Throttle<FromIter<Vec<Rc<i32>>>, Immediate>: Send);
static_assertions::assert_not_impl_any!(TakeLastWithTime<FromIter<Vec<Rc<i32>>>, Immediate>: Send);
static_assertions::assert_not_impl_any!(SkipLastWithTime<FromIter<Vec<Rc<i32>>>, Immediate>: Send);

#[test]
fn handles_of_time_operators_dispose_from_another_thread() {
    use rx::prelude::*;
    let scheduler = TestScheduler::new();
    let observer = TestObserver::new();
    let handle = rx::source::interval(std::time::Duration::from_millis(10), scheduler.clone())
        .delay(std::time::Duration::from_millis(5), scheduler.clone())
        .subscribe_observer(observer.clone());
    scheduler.advance_by(std::time::Duration::from_millis(20));
    std::thread::scope(|s| {
        s.spawn(|| handle.dispose());
    });
    assert!(handle.is_disposed());
    assert!(scheduler.is_empty());
    observer.assert_values(&[0]);
}
