//! The newer time, multicasting and grouping operators, their observers and their handles
//! are `Send` and `Sync` when their parts are, so pipelines and handles move between threads.

use rx::operators::observers::*;
use rx::operators::*;
use rx::schedulers::{NewThread, QueueWorker, TestScheduler};
use rx::source::{FromIter, Never, TimerAt};
use rx::subjects::{PublishSubject, ReplaySubject};
use rx::testing::TestObserver;
use static_assertions::assert_impl_all;

type Source = FromIter<Vec<i32>>;
type Down = TestObserver<i32>;
type Key = fn(&i32) -> bool;

assert_impl_all!(ThrottleConfig: Send, Sync, Copy, Default);
assert_impl_all!(ThrottleWith<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(Audit<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(DelaySubscription<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(BufferWithTimeOrCount<Source, NewThread>: Send, Sync, Clone);
assert_impl_all!(WindowWithTime<Source, TestScheduler>: Send, Sync, Clone);
assert_impl_all!(TimerAt<NewThread>: Send, Sync, Clone);
assert_impl_all!(SampleWith<'static, Source, Never<()>>: Send, Sync, Clone);
assert_impl_all!(BufferWith<'static, Source, Never<()>>: Send, Sync, Clone);
assert_impl_all!(DebounceWith<'static, Source, fn(&i32) -> Never<()>>: Send, Sync, Clone);
assert_impl_all!(WindowWithSkip<'static, Source>: Send, Sync, Clone);
assert_impl_all!(GroupByWith<'static, Source, Key, fn(i32) -> i64>: Send, Sync, Clone);
assert_impl_all!(GroupByUntil<'static, Source, Key, fn(&bool) -> Never<()>>: Send, Sync, Clone);
assert_impl_all!(AutoConnect<Source, PublishSubject<i32>>: Send, Sync, Clone);
assert_impl_all!(RefCount<Source, ReplaySubject<i32>>: Send, Sync, Clone);
assert_impl_all!(ShareConfig<fn() -> PublishSubject<i32>>: Send, Sync, Copy);

assert_impl_all!(ThrottleWithObserver<QueueWorker, Down, i32>: Send, Sync);
assert_impl_all!(AuditObserver<QueueWorker, Down, i32>: Send, Sync);
assert_impl_all!(BufferWithTimeOrCountObserver<QueueWorker, TestObserver<Vec<i32>>, i32>: Send, Sync);
