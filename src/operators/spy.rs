//! [`ObservableExt::spy`](crate::ObservableExt::spy) and
//! [`ObservableExt::spy_with`](crate::ObservableExt::spy_with): a named point of a pipeline
//! that reports what passes it.
//!
//! Both flavours share one observer, generic over where the reports go (a closure, or a
//! `tracing` span). Each subscription owns a small shared state, the *session*, that the
//! observer and the handle both reach: whichever of them sees the end first (terminal
//! notification, downstream found disposed, handle disposed) takes the `ended` flag and
//! reports it, so each subscription ends once in the counts and in the reports.

use crate::Error;
use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::primitive::{Arc, AtomicBool, AtomicU64, Ordering};
use crate::subscription::Subscription;
use crate::time::Instant;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::time::Duration;

/// What a spied point counted so far, over all its subscriptions: a cheap `Clone` handle,
/// read from any thread. Made by [`SpyWith::counts`] (and `Spy::counts` with the `tracing`
/// feature); every [`SpyEvent`] carries it too.
///
/// Counts are read with relaxed atomics: exact once the pipeline is quiet, and a moment
/// behind while notifications are crossing other threads.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
///
/// let spied = rx::source::from_iter([1, 2, 3]).spy_with("numbers", |_| {});
/// let counts = spied.counts();
/// spied.take(2).subscribe(|_| {});
/// assert_eq!((counts.values(), counts.completions(), counts.live()), (2, 0, 0));
/// assert_eq!(counts.subscriptions(), 1);
/// ```
#[derive(Clone)]
pub struct SpyCounts {
    point: Arc<Point>,
}

/// A spied point's label and counters, shared by its subscriptions.
struct Point {
    label: Cow<'static, str>,
    values: AtomicU64,
    errors: AtomicU64,
    completions: AtomicU64,
    subscriptions: AtomicU64,
    /// Subscriptions made and not ended yet; `ended` below makes each end count once.
    live: AtomicU64,
}

impl SpyCounts {
    fn new(label: Cow<'static, str>) -> Self {
        SpyCounts {
            point: Arc::new(Point {
                label,
                values: AtomicU64::new(0),
                errors: AtomicU64::new(0),
                completions: AtomicU64::new(0),
                subscriptions: AtomicU64::new(0),
                live: AtomicU64::new(0),
            }),
        }
    }

    /// The label the point was given.
    pub fn label(&self) -> &str {
        &self.point.label
    }

    /// Values that passed the point.
    pub fn values(&self) -> u64 {
        self.point.values.load(Ordering::Relaxed)
    }

    /// Errors that passed the point.
    pub fn errors(&self) -> u64 {
        self.point.errors.load(Ordering::Relaxed)
    }

    /// Completions that passed the point.
    pub fn completions(&self) -> u64 {
        self.point.completions.load(Ordering::Relaxed)
    }

    /// Subscriptions made through the point.
    pub fn subscriptions(&self) -> u64 {
        self.point.subscriptions.load(Ordering::Relaxed)
    }

    /// Subscriptions through the point that have not ended: neither terminated, nor
    /// disposed, nor stopped by their downstream.
    pub fn live(&self) -> u64 {
        self.point.live.load(Ordering::Relaxed)
    }
}

impl fmt::Debug for SpyCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpyCounts")
            .field("label", &self.label())
            .field("values", &self.values())
            .field("errors", &self.errors())
            .field("completions", &self.completions())
            .field("subscriptions", &self.subscriptions())
            .field("live", &self.live())
            .finish()
    }
}

/// What a spied point saw; [`SpyEvent::kind`] says which.
#[derive(Debug)]
#[non_exhaustive]
pub enum SpyKind<'a, T> {
    /// A subscription was made through the point (reported before upstream is subscribed).
    Subscribed,
    /// A value passed (reported before the downstream gets it).
    Next(&'a T),
    /// An error passed (reported before the downstream gets it).
    Error(&'a Error),
    /// The completion passed (reported before the downstream gets it).
    Completed,
    /// The subscription was disposed through its handle, or its downstream stopped it (a
    /// `take` further down, a `switch_map` switching away), before it terminated.
    Disposed,
}

/// One report of a spied point: what passed, on which subscription and thread, and when.
///
/// Handed by reference to the closure of [`spy_with`](crate::ObservableExt::spy_with). The
/// thread and the time are read when asked for, so a closure that does not ask pays for
/// neither.
pub struct SpyEvent<'a, T> {
    kind: SpyKind<'a, T>,
    session: &'a SessionInfo,
}

impl<'a, T> SpyEvent<'a, T> {
    /// What passed.
    pub fn kind(&self) -> &SpyKind<'a, T> {
        &self.kind
    }

    /// The point's label.
    pub fn label(&self) -> &str {
        self.session.counts.label()
    }

    /// Which subscription of the point this is: 1 for the first, 2 for the second, and so on.
    pub fn subscription(&self) -> u64 {
        self.session.id
    }

    /// Time since this subscription was made, on [`rx::time::Instant`](crate::time::Instant)'s
    /// clock (the wall clock, not a scheduler's).
    pub fn elapsed(&self) -> Duration {
        self.session.start.elapsed()
    }

    /// When the subscription was made, on the same clock.
    pub fn subscribed_at(&self) -> Instant {
        self.session.start
    }

    /// The thread the report is made on.
    pub fn thread(&self) -> std::thread::Thread {
        std::thread::current()
    }

    /// The point's counts, this event included.
    pub fn counts(&self) -> &SpyCounts {
        &self.session.counts
    }
}

impl<T: fmt::Debug> fmt::Debug for SpyEvent<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpyEvent")
            .field("label", &self.label())
            .field("subscription", &self.subscription())
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// Where the reports of a point go: a closure, or a `tracing` span.
pub trait SpyReport<T> {
    /// Reports one event.
    fn report(&self, event: &SpyEvent<'_, T>);
}

/// The reports of [`spy_with`](crate::ObservableExt::spy_with): its closure, shared by the
/// point's subscriptions.
pub struct ClosureReport<F>(Arc<F>);

impl<F> Clone for ClosureReport<F> {
    fn clone(&self) -> Self {
        ClosureReport(self.0.clone())
    }
}

impl<F> fmt::Debug for ClosureReport<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClosureReport").finish_non_exhaustive()
    }
}

impl<T, F: Fn(&SpyEvent<'_, T>)> SpyReport<T> for ClosureReport<F> {
    #[inline]
    fn report(&self, event: &SpyEvent<'_, T>) {
        (self.0)(event)
    }
}

/// What a subscription's reports share: its point, its number and its start.
struct SessionInfo {
    counts: SpyCounts,
    id: u64,
    start: Instant,
}

/// One subscription through a point, shared by its observer and its handle.
struct Session<R> {
    info: SessionInfo,
    report: R,
    ended: AtomicBool,
}

impl<R> Session<R> {
    fn start(counts: &SpyCounts, report: R) -> Arc<Self> {
        let point = &counts.point;
        let id = point.subscriptions.fetch_add(1, Ordering::Relaxed) + 1;
        point.live.fetch_add(1, Ordering::Relaxed);
        Arc::new(Session {
            info: SessionInfo {
                counts: counts.clone(),
                id,
                start: Instant::now(),
            },
            report,
            ended: AtomicBool::new(false),
        })
    }

    fn report<T>(&self, kind: SpyKind<'_, T>)
    where
        R: SpyReport<T>,
    {
        self.report.report(&SpyEvent {
            kind,
            session: &self.info,
        });
    }

    /// Marks the end; true for the first caller only, who reports it.
    fn end(&self) -> bool {
        // Relaxed: the flag only decides who reports; it orders nothing else.
        let first = !self.ended.swap(true, Ordering::Relaxed);
        if first {
            self.info.counts.point.live.fetch_sub(1, Ordering::Relaxed);
        }
        first
    }

    fn point(&self) -> &Point {
        &self.info.counts.point
    }
}

fn subscribe_spied<S, O, R>(
    source: S,
    counts: &SpyCounts,
    report: R,
    observer: O,
) -> SpySubscription<S::Subscription, R, S::Item>
where
    S: Subscribe<SpyObserver<O, R>>,
    R: SpyReport<S::Item>,
{
    let session = Session::start(counts, report);
    session.report(SpyKind::<S::Item>::Subscribed);
    let upstream = source.subscribe_observer(SpyObserver {
        observer,
        session: session.clone(),
    });
    SpySubscription {
        upstream,
        session,
        item: PhantomData,
    }
}

/// Reports each notification, subscription and disposal passing it to a closure; built by
/// [`ObservableExt::spy_with`](crate::ObservableExt::spy_with).
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "debug")]
#[doc(alias = "log")]
#[doc(alias = "tag")]
#[doc(alias = "tapWith")]
pub struct SpyWith<S, F> {
    source: S,
    counts: SpyCounts,
    report: ClosureReport<F>,
}

impl<S, F> SpyWith<S, F> {
    pub(crate) fn new(source: S, label: Cow<'static, str>, f: F) -> Self {
        SpyWith {
            source,
            counts: SpyCounts::new(label),
            report: ClosureReport(Arc::new(f)),
        }
    }

    /// The counts of this point, shared by its clones and every subscription made through
    /// them.
    pub fn counts(&self) -> SpyCounts {
        self.counts.clone()
    }
}

impl<S: Clone, F> Clone for SpyWith<S, F> {
    fn clone(&self) -> Self {
        SpyWith {
            source: self.source.clone(),
            counts: self.counts.clone(),
            report: self.report.clone(),
        }
    }
}

impl<S: fmt::Debug, F> fmt::Debug for SpyWith<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpyWith")
            .field("source", &self.source)
            .field("counts", &self.counts)
            .finish_non_exhaustive()
    }
}

impl<S, F> Observable for SpyWith<S, F>
where
    S: Observable,
    F: Fn(&SpyEvent<'_, S::Item>),
{
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

impl<S, F, O> Subscribe<O> for SpyWith<S, F>
where
    S: Subscribe<SpyObserver<O, ClosureReport<F>>>,
    F: Fn(&SpyEvent<'_, <S as Observable>::Item>),
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = SpySubscription<S::Subscription, ClosureReport<F>, <S as Observable>::Item>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        subscribe_spied(self.source, &self.counts, self.report, observer)
    }
}

/// The observer a spied point subscribes upstream.
pub struct SpyObserver<O, R> {
    observer: O,
    session: Arc<Session<R>>,
}

impl<O: fmt::Debug, R> fmt::Debug for SpyObserver<O, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpyObserver")
            .field("observer", &self.observer)
            .field("subscription", &self.session.info.id)
            .finish_non_exhaustive()
    }
}

impl<T, O, R> Observer<T> for SpyObserver<O, R>
where
    O: Observer<T>,
    R: SpyReport<T>,
{
    #[inline]
    fn on_next(&mut self, value: T) {
        self.session.point().values.fetch_add(1, Ordering::Relaxed);
        self.session.report(SpyKind::Next(&value));
        self.observer.on_next(value)
    }

    fn on_error(self, error: Error) {
        self.session.point().errors.fetch_add(1, Ordering::Relaxed);
        self.session.end();
        self.session.report(SpyKind::<T>::Error(&error));
        self.observer.on_error(error)
    }

    fn on_completed(self) {
        self.session
            .point()
            .completions
            .fetch_add(1, Ordering::Relaxed);
        self.session.end();
        self.session.report(SpyKind::<T>::Completed);
        self.observer.on_completed()
    }

    #[inline]
    fn is_disposed(&self) -> bool {
        let disposed = self.observer.is_disposed();
        if disposed && self.session.end() {
            self.session.report(SpyKind::<T>::Disposed);
        }
        disposed
    }
}

/// The handle of a spied subscription: disposing it reports the disposal (unless the
/// subscription had already ended), then disposes upstream.
pub struct SpySubscription<U, R, T> {
    upstream: U,
    session: Arc<Session<R>>,
    item: PhantomData<fn(T)>,
}

impl<U: fmt::Debug, R, T> fmt::Debug for SpySubscription<U, R, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpySubscription")
            .field("upstream", &self.upstream)
            .field("subscription", &self.session.info.id)
            .finish_non_exhaustive()
    }
}

impl<U: Subscription, R: SpyReport<T>, T> Subscription for SpySubscription<U, R, T> {
    fn dispose(&self) {
        if self.session.end() {
            self.session.report(SpyKind::<T>::Disposed);
        }
        self.upstream.dispose();
    }

    fn is_disposed(&self) -> bool {
        self.upstream.is_disposed()
    }
}

// ------------------------------------------------------------------ the `tracing` flavour

/// Reports each notification, subscription and disposal passing it as `tracing` events;
/// built by [`ObservableExt::spy`](crate::ObservableExt::spy). Without the `tracing` feature
/// it is its source, unchanged.
#[must_use = "observables do nothing unless subscribed"]
#[doc(alias = "debug")]
#[doc(alias = "log")]
#[doc(alias = "tag")]
#[doc(alias = "trace")]
#[derive(Clone)]
pub struct Spy<S> {
    source: S,
    #[cfg(feature = "tracing")]
    counts: SpyCounts,
}

impl<S> Spy<S> {
    #[cfg_attr(not(feature = "tracing"), allow(unused_variables))]
    pub(crate) fn new(source: S, label: Cow<'static, str>) -> Self {
        Spy {
            source,
            #[cfg(feature = "tracing")]
            counts: SpyCounts::new(label),
        }
    }

    /// The counts of this point, shared by its clones and every subscription made through
    /// them. With the `tracing` feature only: without it the point counts nothing.
    #[cfg(feature = "tracing")]
    #[cfg_attr(docsrs, doc(cfg(feature = "tracing")))]
    pub fn counts(&self) -> SpyCounts {
        self.counts.clone()
    }
}

impl<S: fmt::Debug> fmt::Debug for Spy<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Spy");
        d.field("source", &self.source);
        #[cfg(feature = "tracing")]
        d.field("counts", &self.counts);
        d.finish()
    }
}

impl<S: Observable> Observable for Spy<S> {
    type Item = S::Item;
    type Flavour = <S as Observable>::Flavour;
    // Calls its observer only from its source's calls, and keeps it nowhere else.
    const EMISSION: crate::observable::Emission = S::EMISSION;
}

#[cfg(not(feature = "tracing"))]
impl<S, O> Subscribe<O> for Spy<S>
where
    S: Subscribe<O>,
    O: Observer<<S as Observable>::Item>,
{
    type Subscription = S::Subscription;

    #[inline]
    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.source.subscribe_observer(observer)
    }
}

#[cfg(feature = "tracing")]
pub use self::tracing_report::TracingReport;

#[cfg(feature = "tracing")]
mod tracing_report {
    use super::*;

    /// The reports of [`spy`](crate::ObservableExt::spy): events in the subscription's span.
    #[derive(Clone, Debug)]
    pub struct TracingReport {
        span: tracing::Span,
    }

    /// The thread as `name (ThreadId(n))`, or the id alone.
    struct ThreadName(std::thread::Thread);

    impl fmt::Display for ThreadName {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self.0.name() {
                Some(name) => write!(f, "{name} ({:?})", self.0.id()),
                None => write!(f, "{:?}", self.0.id()),
            }
        }
    }

    impl<T: fmt::Debug> SpyReport<T> for TracingReport {
        fn report(&self, event: &SpyEvent<'_, T>) {
            // The fields are evaluated only when a subscriber wants the event: with none, or
            // with the level filtered out, a report costs a check of the callsite's interest.
            let c = event.counts();
            macro_rules! emit {
                ($level:expr, $kind:literal; $($field:tt)*) => {
                    tracing::event!(
                        parent: &self.span,
                        $level,
                        event = $kind,
                        $($field)*
                        thread = %ThreadName(event.thread()),
                        elapsed = ?event.elapsed(),
                        values = c.values(),
                        errors = c.errors(),
                        completions = c.completions(),
                        live = c.live(),
                    )
                };
            }
            match event.kind() {
                SpyKind::Next(value) => emit!(tracing::Level::TRACE, "next"; value = ?value,),
                SpyKind::Subscribed => emit!(tracing::Level::DEBUG, "subscribed";),
                SpyKind::Error(error) => emit!(tracing::Level::DEBUG, "error"; error = %error,),
                SpyKind::Completed => emit!(tracing::Level::DEBUG, "completed";),
                SpyKind::Disposed => emit!(tracing::Level::DEBUG, "disposed";),
            }
        }
    }

    impl<S, O> Subscribe<O> for Spy<S>
    where
        S: Subscribe<SpyObserver<O, TracingReport>>,
        <S as Observable>::Item: fmt::Debug,
        O: Observer<<S as Observable>::Item>,
    {
        type Subscription =
            SpySubscription<S::Subscription, TracingReport, <S as Observable>::Item>;

        fn subscribe_observer(self, observer: O) -> Self::Subscription {
            let span = tracing::debug_span!(
                "spy",
                label = %self.counts.label(),
                subscription = self.counts.subscriptions() + 1,
            );
            subscribe_spied(self.source, &self.counts, TracingReport { span }, observer)
        }
    }

    impl<U> crate::operators::ObserveOnBoundedSubscription<U> {
        /// Emits one `tracing` event (level DEBUG, target `rx::queue`) with the figures of
        /// this thread boundary's queue: `queued`, `peak_queued` and `dropped`, under
        /// `label`. With the `tracing` feature; call it where the pipeline is observed (a
        /// periodic task, a health check): the queue keeps the figures, so nothing on the
        /// delivery path pays for them.
        ///
        /// ```
        /// use rx::backpressure::Bounded;
        /// use rx::prelude::*;
        /// use rx::schedulers::TestScheduler;
        ///
        /// let sch = TestScheduler::new();
        /// let handle = rx::source::from_iter(0..10)
        ///     .observe_on_bounded(sch.clone(), Bounded::new(16))
        ///     .subscribe(|_| {});
        /// handle.trace_queue("ui"); // queued = 10, peak_queued = 10, dropped = 0
        /// sch.run();
        /// assert_eq!((handle.queued(), handle.peak_queued()), (0, 10));
        /// ```
        #[cfg_attr(docsrs, doc(cfg(feature = "tracing")))]
        pub fn trace_queue(&self, label: &str) {
            trace_queue(label, self.queued(), self.peak_queued(), self.dropped());
        }
    }

    #[cfg(any(not(target_arch = "wasm32"), doc))]
    impl crate::source::MergeBoundedSubscription {
        /// Emits one `tracing` event (level DEBUG, target `rx::queue`) with the figures of
        /// this merge's queue between its producer threads and its deliverer: `queued`,
        /// `peak_queued` and `dropped`, under `label`, as
        /// [`ObserveOnBoundedSubscription::trace_queue`](crate::operators::ObserveOnBoundedSubscription::trace_queue)
        /// does for a hop. With the `tracing` feature.
        ///
        /// ```
        /// use rx::backpressure::Bounded;
        /// use rx::prelude::*;
        ///
        /// let handle = rx::source::merge_bounded(
        ///     [rx::source::from_iter(0..3), rx::source::from_iter(3..6)],
        ///     Bounded::new(16),
        /// )
        /// .subscribe(|_| {});
        /// handle.trace_queue("sensors"); // queued = 0, peak_queued, dropped = 0
        /// assert_eq!((handle.queued(), handle.dropped()), (0, 0));
        /// ```
        #[cfg_attr(docsrs, doc(cfg(feature = "tracing")))]
        pub fn trace_queue(&self, label: &str) {
            trace_queue(label, self.queued(), self.peak_queued(), self.dropped());
        }
    }

    /// The event of a queue's figures, for both kinds of bounded hand-off.
    fn trace_queue(label: &str, queued: usize, peak_queued: usize, dropped: u64) {
        tracing::debug!(target: "rx::queue", label, queued, peak_queued, dropped);
    }
}
