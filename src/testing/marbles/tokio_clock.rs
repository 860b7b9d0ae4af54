//! Marble tests over async code: the scheduler's virtual clock and tokio's paused clock moved
//! in step, so that futures, tokio timers and the `Tokio` scheduler run on the diagram's
//! frames.
//!
//! # Algorithm
//!
//! Tokio's timers fire on whole milliseconds of its clock, and with the clock paused they
//! fire only when the runtime, with nothing else to do, moves the clock to the next one. So
//! the driver moves both clocks a millisecond at a time (or to a test-scheduler task due
//! sooner), always in this order:
//!
//! 1. The scheduler's clock is set to the next instant *without running anything*, so that
//!    a future woken by a tokio timer in step 2 queues its poll at the right time.
//! 2. `block_on(sleep_until(instant))` moves tokio's clock there: the timers due fire (their
//!    wakers run), and `block_on` returns as soon as its own sleep is done, before the tokio
//!    tasks woken are polled.
//! 3. Settle the instant: run the scheduler's due tasks (the diagram's notifications first,
//!    as they were queued first, then the polls the timers woke), then let tokio run its
//!    ready tasks (`block_on(yield_now())`, which moves no clock); repeat while either has
//!    work at this instant.
//!
//! The scheduler's tasks run inside the runtime's context, so a future polled there may
//! create tokio timers and use the runtime's handle. The run ends when the scheduler has no
//! task left and every expectation has terminated or been disposed, or, for a pipeline that
//! never ends, when nothing has run on the scheduler for [`HORIZON`] of virtual time (tokio
//! does not say what timers it still holds).

use super::Context;
use crate::schedulers::TestScheduler;
use crate::time::Instant;
use std::time::Duration;
use tokio::runtime::{Runtime, RuntimeFlavor};

/// Tokio's timer resolution: the step of the clocks.
const TICK: Duration = Duration::from_millis(1);

/// How long a run goes on with nothing running on the scheduler, while some expectation has
/// not ended.
pub(super) const HORIZON: Duration = Duration::from_secs(60);

/// Settling rounds after which an instant is taken as settled even if tokio still had work.
const MAX_ROUNDS: usize = 10_000;

pub(super) struct TokioClock {
    /// `Some` until dropped: shut down in the background, as the context may be dropped
    /// inside a runtime (a tokio task holding the last handle), where a plain drop panics.
    runtime: Option<Runtime>,
    /// Tokio's time at the context's frame zero.
    zero: tokio::time::Instant,
}

impl Drop for TokioClock {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl TokioClock {
    #[track_caller]
    pub(super) fn new(runtime: Runtime) -> Self {
        assert!(
            matches!(
                runtime.handle().runtime_flavor(),
                RuntimeFlavor::CurrentThread
            ),
            "Marbles::on_tokio: needs a current-thread runtime with paused time, \
             tokio::runtime::Builder::new_current_thread().enable_time().start_paused(true)"
        );
        let (zero, paused) = runtime.block_on(async {
            let zero = tokio::time::Instant::now();
            // A running clock moves within a thousand reads; a paused one never does.
            (zero, (0..1000).all(|_| tokio::time::Instant::now() == zero))
        });
        assert!(
            paused,
            "Marbles::on_tokio: tokio's clock is running; build the runtime with \
             .start_paused(true) (tokio's `test-util` feature) so that it moves only with the \
             marble clock"
        );
        TokioClock {
            runtime: Some(runtime),
            zero,
        }
    }

    pub(super) fn handle(&self) -> &tokio::runtime::Handle {
        self.runtime().handle()
    }

    fn runtime(&self) -> &Runtime {
        self.runtime
            .as_ref()
            .expect("a live context has its runtime")
    }

    /// Runs both clocks until the expectations have ended (see the module documentation).
    /// One `block_on` for the whole run: the driver is the runtime's main future, which the
    /// runtime polls before the tasks woken with it.
    pub(super) fn flush(&self, ctx: &Context) {
        let runtime = self.runtime();
        let sch = &ctx.scheduler;
        runtime.block_on(async {
            // One timer for the whole run, moved from tick to tick.
            let mut sleep = std::pin::pin!(tokio::time::sleep_until(self.zero));
            let mut last_busy = sch.now();
            loop {
                if settle(sch).await {
                    last_busy = sch.now();
                }
                let now = sch.now();
                let due = sch.first_due();
                if due.is_none()
                    && (ctx.all_finished() || now.saturating_duration_since(last_busy) >= HORIZON)
                {
                    return;
                }
                let tick = next_tick(ctx.zero, now);
                match due {
                    Some(due) if due < tick => sch.set_now(due),
                    _ => {
                        sch.set_now(tick);
                        sleep.as_mut().reset(self.zero + (tick - ctx.zero));
                        sleep.as_mut().await;
                    }
                }
            }
        });
    }
}

/// Runs what is due at the current instant on both sides until neither has more; whether
/// anything ran on the scheduler.
async fn settle(sch: &TestScheduler) -> bool {
    let mut ran = false;
    let mut quiet_rounds = 0;
    for _ in 0..MAX_ROUNDS {
        if sch.first_due().is_some_and(|due| due <= sch.now()) {
            ran = true;
            quiet_rounds = 0;
            sch.advance_by(Duration::ZERO);
        } else {
            quiet_rounds += 1;
        }
        // Tokio runs its ready tasks, and the timers already due, without moving its clock.
        // Two quiet rounds: a tokio task woken by another one runs in the next.
        tokio::task::yield_now().await;
        if quiet_rounds >= 2 {
            break;
        }
    }
    ran
}

/// The first whole millisecond after `now`, counted from `zero`.
fn next_tick(zero: Instant, now: Instant) -> Instant {
    let elapsed = now.saturating_duration_since(zero).as_nanos();
    let tick = TICK.as_nanos();
    let next = (elapsed / tick + 1) * tick;
    zero + Duration::from_nanos(u64::try_from(next).unwrap_or(u64::MAX))
}

impl super::Marbles {
    /// Puts tokio on the context's clock: from now on, running the context (`to_be`,
    /// [`flush`](super::Marbles::flush), ...) moves tokio's paused clock in step with the
    /// scheduler's, so a pipeline of futures, tokio timers and rx operators runs on the
    /// diagram's frames, in virtual time, and the test takes milliseconds. Feature `tokio`.
    ///
    /// `runtime` must be a current-thread runtime whose time is paused
    /// (`tokio::runtime::Builder::new_current_thread().enable_time().start_paused(true)`,
    /// which needs tokio's `test-util` feature in the test's dependencies). The context owns
    /// it; [`runtime`](super::Marbles::runtime) is its handle, for the
    /// [`Tokio`](crate::schedulers::Tokio) scheduler. Futures given to
    /// [`from_future`](crate::source::from_future) with the context's scheduler are polled
    /// inside the runtime, so they may use its timers.
    ///
    /// What holds: a tokio timer that falls due at a frame fires at that frame, after the
    /// diagram's notifications of that frame; a poll it wakes runs at that frame too; rx
    /// operators on the `Tokio` scheduler run on the same clock. What cannot: tokio's timers
    /// have millisecond resolution, so frames should be whole milliseconds (a sleep of
    /// 2.5 ms ends at frame 3 of 1 ms); a runtime that was already running, or a task that
    /// blocks its thread waiting for another thread, is out of the clock's reach; and an
    /// expectation that never ends (no `|`, `#` or `!`) runs on until nothing has happened on
    /// the scheduler for 60 s of virtual time, since tokio does not tell what timers it
    /// still holds. The clocks move a millisecond at a time: a run costs about 70 µs of real
    /// time per millisecond of virtual time in a debug build, so a diagram of a hundred
    /// frames runs in milliseconds, and a wait of minutes in seconds.
    ///
    /// # Examples
    ///
    /// An `async fn` behind `switch_map`, its `sleep` on the marble clock:
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// async fn lookup(key: char) -> char {
    ///     tokio::time::sleep(Duration::from_millis(3)).await;
    ///     key.to_ascii_uppercase()
    /// }
    ///
    /// let runtime = tokio::runtime::Builder::new_current_thread()
    ///     .enable_time()
    ///     .start_paused(true)
    ///     .build()
    ///     .unwrap();
    /// let sch = TestScheduler::new();
    /// let m = Marbles::new(&sch).on_tokio(runtime);
    /// let keys = m.cold("-a-b------c--|");
    /// let s = sch.clone();
    /// let answers = keys.switch_map(move |k| rx::source::from_future(lookup(k), s.clone()));
    /// // b arrives before a's answer: a's lookup is dropped; b's and c's answer 3 ms later.
    /// m.expect(answers).to_be("------B------(C|)");
    /// ```
    ///
    /// # Panics
    ///
    /// If anything was made from the context already, or `runtime` is not a current-thread
    /// runtime with paused time.
    #[track_caller]
    pub fn on_tokio(mut self, runtime: Runtime) -> Self {
        let ctx = std::sync::Arc::get_mut(&mut self.ctx)
            .expect("Marbles::on_tokio: call it on a new context, before making anything from it");
        ctx.tokio = Some(TokioClock::new(runtime));
        self
    }

    /// The handle of the runtime [`on_tokio`](super::Marbles::on_tokio) gave the context: for
    /// the [`Tokio`](crate::schedulers::Tokio) scheduler, or to spawn tasks on it. Feature
    /// `tokio`.
    ///
    /// ```
    /// use rx::prelude::*;
    /// use rx::schedulers::{TestScheduler, Tokio};
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let runtime = tokio::runtime::Builder::new_current_thread()
    ///     .enable_time()
    ///     .start_paused(true)
    ///     .build()
    ///     .unwrap();
    /// let m = Marbles::new(&TestScheduler::new()).on_tokio(runtime);
    /// let tokio = Tokio::new(m.runtime().clone());
    /// // `delay` on the Tokio scheduler: tokio's timer, the marble clock.
    /// m.expect(m.cold("-a-b|").delay(Duration::from_millis(2), tokio))
    ///     .to_be("---a-b|");
    /// ```
    ///
    /// # Panics
    ///
    /// If the context is not on tokio.
    pub fn runtime(&self) -> &tokio::runtime::Handle {
        self.ctx
            .tokio
            .as_ref()
            .expect("Marbles::runtime: the context is not on tokio (Marbles::on_tokio)")
            .handle()
    }
}
