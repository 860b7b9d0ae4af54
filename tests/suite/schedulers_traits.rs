//! Every scheduler, worker and task handle is a cheap `Clone + Send + Sync` value; the
//! stateless ones are zero-sized.

use rx::schedulers::{
    Computational, CurrentThread, CurrentThreadTask, CurrentThreadWorker, Immediate,
    ImmediateWorker, NewThread, QueueWorker, QueuedTask, RunLoop, Scheduler, TestScheduler,
    ThreadPool, Worker,
};
use static_assertions::assert_impl_all;
use std::fmt::Debug;
use std::mem::size_of;

assert_impl_all!(Immediate: Scheduler, Copy, Debug, Default);
assert_impl_all!(CurrentThread: Scheduler, Copy, Debug, Default);
assert_impl_all!(NewThread: Scheduler, Copy, Debug, Default);
assert_impl_all!(Computational: Scheduler, Copy, Debug, Default);
assert_impl_all!(ThreadPool: Scheduler, Debug);
assert_impl_all!(RunLoop: Scheduler, Debug, Default);
assert_impl_all!(TestScheduler: Scheduler, Debug, Default);

assert_impl_all!(ImmediateWorker: Worker, Copy, Debug);
assert_impl_all!(CurrentThreadWorker: Worker, Debug);
assert_impl_all!(QueueWorker: Worker, Debug);

assert_impl_all!(CurrentThreadTask: Clone, Send, Sync, Debug);
assert_impl_all!(QueuedTask: Clone, Send, Sync, Debug);

#[test]
fn stateless_values_are_zero_sized() {
    assert_eq!(size_of::<Immediate>(), 0);
    assert_eq!(size_of::<ImmediateWorker>(), 0);
    assert_eq!(size_of::<<ImmediateWorker as Worker>::TaskHandle>(), 0);
    assert_eq!(size_of::<CurrentThread>(), 0);
    assert_eq!(size_of::<NewThread>(), 0);
    assert_eq!(size_of::<Computational>(), 0);
}

#[test]
fn handles_are_a_few_words() {
    assert_eq!(size_of::<QueueWorker>(), size_of::<usize>());
    assert_eq!(size_of::<CurrentThreadWorker>(), size_of::<usize>());
    assert_eq!(size_of::<ThreadPool>(), size_of::<usize>());
    assert_eq!(size_of::<RunLoop>(), size_of::<usize>());
    assert_eq!(size_of::<TestScheduler>(), size_of::<usize>());
    // The queue, and the task's slot and tag in it: two words, returned in registers.
    assert_eq!(size_of::<QueuedTask>(), 2 * size_of::<usize>());
}
