//! What the peers need to run the cases: a driver for synchronous `futures` streams, and an
//! immediate scheduler for rxRust.

use futures::{Stream, StreamExt};
use std::future::{self, Future};
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

/// Runs a stream to its end on this thread, calling `f` for each item.
///
/// The streams of the cases are synchronous: nothing they wait for happens elsewhere. Some
/// combinators (`flatten_unordered`) still answer `Pending` once they have woken themselves,
/// to yield; polling again at once is what an executor would do next. So polling with a no-op
/// waker until the end is the whole executor: it costs what the stream costs, where
/// `futures::executor::block_on` would add its thread-local parking to every op.
#[inline(always)]
pub fn drive<S: Stream>(stream: S, mut f: impl FnMut(S::Item)) {
    let mut stream = pin!(stream);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        match stream.poll_next_unpin(&mut cx) {
            Poll::Ready(Some(item)) => f(item),
            Poll::Ready(None) => return,
            Poll::Pending => {}
        }
    }
}

/// Polls a future that is ready at once (a synchronous `StreamExt::next`, `fold`, ...).
#[inline(always)]
pub fn ready<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
}

/// rxRust's schedulers run on tokio; its documentation shows how to plug in another one
/// ("Custom Scheduler Implementation" in `rxrust::scheduler`). This is that, made immediate:
/// a scheduled task runs inline, to its end, before `schedule` returns, sleeping the caller for
/// its delays, as RPP's `immediate` and rx's `Immediate` do. It lets rxRust take part in the
/// cases that name the immediate scheduler.
pub mod rxrust_immediate {
    use super::*;
    use rxrust::prelude::LocalCtx;
    use rxrust::scheduler::{Schedulable, Scheduler, SleepProvider, TaskHandle};

    #[derive(Clone, Copy, Default)]
    pub struct ImmediateScheduler;

    /// `Local`, with [`ImmediateScheduler`] in place of tokio.
    pub type Immediate<T> = LocalCtx<T, ImmediateScheduler>;

    impl SleepProvider for ImmediateScheduler {
        type SleepFuture = future::Ready<()>;

        fn sleep(&self, duration: Duration) -> Self::SleepFuture {
            if !duration.is_zero() {
                std::thread::sleep(duration);
            }
            future::ready(())
        }
    }

    impl<S> Scheduler<S> for ImmediateScheduler
    where
        S: Schedulable<ImmediateScheduler>,
    {
        fn schedule(&self, source: S, delay: Option<Duration>) -> TaskHandle {
            if let Some(delay) = delay.filter(|d| !d.is_zero()) {
                std::thread::sleep(delay);
            }
            let mut task = pin!(source.into_future(self));
            let mut cx = Context::from_waker(Waker::noop());
            while task.as_mut().poll(&mut cx).is_pending() {}
            TaskHandle::finished()
        }
    }
}
