//! Random operator chains: a plan (a source and a list of operators, some with chains of
//! their own) that proptest generates, and the boxed observable it stands for.
//!
//! Every source the plan names is wrapped so that it logs its subscriptions and whether
//! each has ended (terminal delivered, handle disposed, or observer found disposed), and
//! every operator's output goes through a probe that checks no two `on_next` calls overlap.
//! Time operators run on one [`TestScheduler`] that the driver advances; the concurrent ones
//! on real threads ([`NewThread`], a shared [`ThreadPool`], [`Computational`]).

#![allow(dead_code)]

use proptest::prelude::*;
use rx::prelude::*;
use rx::schedulers::{Computational, NewThread, TestScheduler, ThreadPool};
use rx::source::{defer, empty, from_iter, interval, never, throw};
use rx::subjects::PublishSubject;
use rx::{BoxedObservable, Error, Notification, Observable, Observer, Subscribe, Subscription};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

pub type Obs = BoxedObservable<'static, i64>;

/// Where a source's values come from.
#[derive(Clone, Debug)]
pub enum Source {
    Values(Vec<i64>),
    /// These values, then an error.
    FailAfter(Vec<i64>),
    Never,
    Empty,
    /// A subject fed by `threads` threads with `per` values each; the last to finish
    /// completes it (or fails it).
    Subject {
        threads: usize,
        per: usize,
        fail: bool,
    },
    /// `count` ticks of an interval on the test scheduler.
    Ticks {
        period_ms: u64,
        count: usize,
    },
}

/// A scheduler with real threads, or the test scheduler.
#[derive(Clone, Copy, Debug)]
pub enum Sched {
    NewThread,
    Pool,
    Computational,
    Test,
}

#[derive(Clone, Debug)]
pub enum Op {
    // stateless
    Map(i64),
    Filter(i64),
    FilterMap(i64),
    TryMap(i64),
    FlatMapIter(i64),
    Tap,
    TakeWhile(i64),
    SkipWhile(i64),
    MapErr,
    DistinctUntilChanged,
    StartWith(i64),
    EndWith(i64),
    DefaultIfEmpty(i64),
    // counting
    Take(usize),
    Skip(usize),
    TakeLast(usize),
    SkipLast(usize),
    First,
    FirstOr(i64),
    Last,
    LastOr(i64),
    ElementAt(usize),
    // buffering and aggregating
    Scan,
    Buffer(usize),
    BufferWithSkip(usize, usize),
    Pairwise,
    Reduce,
    Count,
    Sum,
    Min,
    Max,
    ToVec,
    MinByKey(i64),
    MaxBy,
    Average,
    Collect,
    ToMap(i64),
    ToMultimap(i64),
    Distinct,
    IgnoreElements,
    All(i64),
    Any(i64),
    Contains(i64),
    IsEmpty,
    GroupBy(i64),
    Window(usize),
    // errors and resubscription
    Materialize,
    OnErrorReturn(i64),
    OnErrorComplete,
    OnErrorResumeNext(Box<Plan>),
    Retry(usize),
    Repeat(usize),
    Finally,
    TapSubscribe,
    TapDispose,
    Using,
    // combining
    MergeWith(Box<Plan>),
    ConcatWith(Box<Plan>),
    Zip(Box<Plan>),
    CombineLatest(Box<Plan>),
    WithLatestFrom(Box<Plan>),
    TakeUntil(Box<Plan>),
    SkipUntil(Box<Plan>),
    AmbWith(Box<Plan>),
    FlatMap(Box<Plan>),
    ConcatMap(Box<Plan>),
    SwitchMap(Box<Plan>),
    ExhaustMap(Box<Plan>),
    MergeMax(usize, Box<Plan>),
    Share,
    // threads
    ObserveOn(Sched),
    SubscribeOn(Sched),
    // time, on the test scheduler
    Debounce(u64),
    Throttle(u64),
    Sample(u64),
    Timeout(u64),
    Delay(u64),
    BufferWithTime(u64),
    TakeWithTime(u64),
    SkipWithTime(u64),
    TakeLastWithTime(u64),
    SkipLastWithTime(u64),
    AuditWith(u64),
    ThrottleWhen(u64),
    DelayWhen(u64),
    BufferWhen(u64),
    BufferToggle(u64),
    TimeoutWhen(u64),
    BufferWithTimeSkip(u64),
    Timestamp,
    TimeInterval,
}

/// A source and the operators applied to it, in order.
#[derive(Clone, Debug)]
pub struct Plan {
    pub source: Source,
    pub ops: Vec<Op>,
}

impl Plan {
    /// Operators in the plan, counting those of the chains inside it.
    pub fn len(&self) -> usize {
        self.ops
            .iter()
            .map(|op| 1 + op.inner().map_or(0, Plan::len))
            .sum()
    }

    /// Whether anything in it runs on another thread.
    pub fn uses_threads(&self) -> bool {
        matches!(self.source, Source::Subject { .. })
            || self.ops.iter().any(|op| match op {
                Op::ObserveOn(s) | Op::SubscribeOn(s) => !matches!(s, Sched::Test),
                op => op.inner().is_some_and(Plan::uses_threads),
            })
    }
}

impl Op {
    fn inner(&self) -> Option<&Plan> {
        match self {
            Op::OnErrorResumeNext(p)
            | Op::MergeWith(p)
            | Op::ConcatWith(p)
            | Op::Zip(p)
            | Op::CombineLatest(p)
            | Op::WithLatestFrom(p)
            | Op::TakeUntil(p)
            | Op::SkipUntil(p)
            | Op::AmbWith(p)
            | Op::FlatMap(p)
            | Op::ConcatMap(p)
            | Op::SwitchMap(p)
            | Op::ExhaustMap(p)
            | Op::MergeMax(_, p) => Some(p),
            _ => None,
        }
    }
}

// ------------------------------------------------------------------------ generation

fn values(max: usize) -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(0i64..20, 0..=max)
}

/// Sources; `threads` allows the subject fed from threads.
pub fn source(max_values: usize, threads: bool) -> BoxedStrategy<Source> {
    let mut choices = vec![
        (6, values(max_values).prop_map(Source::Values).boxed()),
        (3, values(max_values).prop_map(Source::FailAfter).boxed()),
        (1, Just(Source::Never).boxed()),
        (1, Just(Source::Empty).boxed()),
        (
            2,
            (1u64..4, 0..=max_values)
                .prop_map(|(period_ms, count)| Source::Ticks { period_ms, count })
                .boxed(),
        ),
    ];
    if threads {
        choices.push((
            2,
            (1usize..=3, 0..=max_values, any::<bool>())
                .prop_map(|(threads, per, fail)| Source::Subject { threads, per, fail })
                .boxed(),
        ));
    }
    prop::strategy::Union::new_weighted(choices).boxed()
}

fn sched() -> impl Strategy<Value = Sched> {
    prop_oneof![
        Just(Sched::NewThread),
        Just(Sched::Pool),
        Just(Sched::Computational),
        Just(Sched::Test)
    ]
}

/// One operator; `inner` generates the chains of combining operators, or is `None` where
/// they must not appear.
fn op(inner: Option<BoxedStrategy<Plan>>) -> BoxedStrategy<Op> {
    let small = 0i64..6;
    let count = 0usize..5;
    let ms = 1u64..8;
    let mut choices: Vec<BoxedStrategy<Op>> = vec![
        small.clone().prop_map(Op::Map).boxed(),
        (1i64..4).prop_map(Op::Filter).boxed(),
        (1i64..4).prop_map(Op::FilterMap).boxed(),
        (5i64..40).prop_map(Op::TryMap).boxed(),
        (0i64..3).prop_map(Op::FlatMapIter).boxed(),
        Just(Op::Tap).boxed(),
        (0i64..20).prop_map(Op::TakeWhile).boxed(),
        (0i64..20).prop_map(Op::SkipWhile).boxed(),
        Just(Op::MapErr).boxed(),
        Just(Op::DistinctUntilChanged).boxed(),
        small.clone().prop_map(Op::StartWith).boxed(),
        small.clone().prop_map(Op::EndWith).boxed(),
        small.clone().prop_map(Op::DefaultIfEmpty).boxed(),
        count.clone().prop_map(Op::Take).boxed(),
        count.clone().prop_map(Op::Skip).boxed(),
        count.clone().prop_map(Op::TakeLast).boxed(),
        count.clone().prop_map(Op::SkipLast).boxed(),
        Just(Op::First).boxed(),
        small.clone().prop_map(Op::FirstOr).boxed(),
        Just(Op::Last).boxed(),
        small.clone().prop_map(Op::LastOr).boxed(),
        count.clone().prop_map(Op::ElementAt).boxed(),
        Just(Op::Scan).boxed(),
        (1usize..4).prop_map(Op::Buffer).boxed(),
        (1usize..4, 1usize..4)
            .prop_map(|(c, s)| Op::BufferWithSkip(c, s))
            .boxed(),
        Just(Op::Pairwise).boxed(),
        Just(Op::Reduce).boxed(),
        Just(Op::Count).boxed(),
        Just(Op::Sum).boxed(),
        Just(Op::Min).boxed(),
        Just(Op::Max).boxed(),
        Just(Op::ToVec).boxed(),
        (1i64..4).prop_map(Op::MinByKey).boxed(),
        Just(Op::MaxBy).boxed(),
        Just(Op::Average).boxed(),
        Just(Op::Collect).boxed(),
        (1i64..4).prop_map(Op::ToMap).boxed(),
        (1i64..4).prop_map(Op::ToMultimap).boxed(),
        Just(Op::Distinct).boxed(),
        Just(Op::IgnoreElements).boxed(),
        (0i64..20).prop_map(Op::All).boxed(),
        (0i64..20).prop_map(Op::Any).boxed(),
        (0i64..20).prop_map(Op::Contains).boxed(),
        Just(Op::IsEmpty).boxed(),
        (1i64..4).prop_map(Op::GroupBy).boxed(),
        (1usize..4).prop_map(Op::Window).boxed(),
        Just(Op::Materialize).boxed(),
        small.clone().prop_map(Op::OnErrorReturn).boxed(),
        Just(Op::OnErrorComplete).boxed(),
        (0usize..3).prop_map(Op::Retry).boxed(),
        (0usize..3).prop_map(Op::Repeat).boxed(),
        Just(Op::Finally).boxed(),
        Just(Op::TapSubscribe).boxed(),
        Just(Op::TapDispose).boxed(),
        Just(Op::Using).boxed(),
        Just(Op::Share).boxed(),
        sched().prop_map(Op::ObserveOn).boxed(),
        sched().prop_map(Op::SubscribeOn).boxed(),
        ms.clone().prop_map(Op::Debounce).boxed(),
        ms.clone().prop_map(Op::Throttle).boxed(),
        ms.clone().prop_map(Op::Sample).boxed(),
        (2u64..30).prop_map(Op::Timeout).boxed(),
        ms.clone().prop_map(Op::Delay).boxed(),
        ms.clone().prop_map(Op::BufferWithTime).boxed(),
        ms.clone().prop_map(Op::TakeWithTime).boxed(),
        ms.clone().prop_map(Op::SkipWithTime).boxed(),
        ms.clone().prop_map(Op::TakeLastWithTime).boxed(),
        ms.clone().prop_map(Op::SkipLastWithTime).boxed(),
        ms.clone().prop_map(Op::AuditWith).boxed(),
        ms.clone().prop_map(Op::ThrottleWhen).boxed(),
        ms.clone().prop_map(Op::DelayWhen).boxed(),
        ms.clone().prop_map(Op::BufferWhen).boxed(),
        ms.clone().prop_map(Op::BufferToggle).boxed(),
        (2u64..30).prop_map(Op::TimeoutWhen).boxed(),
        ms.clone().prop_map(Op::BufferWithTimeSkip).boxed(),
        Just(Op::Timestamp).boxed(),
        Just(Op::TimeInterval).boxed(),
    ];
    if let Some(p) = inner {
        let b = |f: fn(Box<Plan>) -> Op| p.clone().prop_map(move |p| f(Box::new(p))).boxed();
        choices.extend([
            b(Op::OnErrorResumeNext),
            b(Op::MergeWith),
            b(Op::ConcatWith),
            b(Op::Zip),
            b(Op::CombineLatest),
            b(Op::WithLatestFrom),
            b(Op::TakeUntil),
            b(Op::SkipUntil),
            b(Op::AmbWith),
            b(Op::FlatMap),
            b(Op::ConcatMap),
            b(Op::SwitchMap),
            b(Op::ExhaustMap),
            (1usize..3, p.clone())
                .prop_map(|(n, p)| Op::MergeMax(n, Box::new(p)))
                .boxed(),
        ]);
    }
    prop::strategy::Union::new(choices).boxed()
}

/// A short chain for the inside of a combining operator.
pub fn inner_plan() -> BoxedStrategy<Plan> {
    (source(3, true), prop::collection::vec(op(None), 0..3))
        .prop_map(|(source, ops)| Plan { source, ops })
        .boxed()
}

/// A chain of `len` operators from every family, combining ones included.
pub fn plan(len: std::ops::RangeInclusive<usize>) -> BoxedStrategy<Plan> {
    (
        source(8, true),
        prop::collection::vec(op(Some(inner_plan())), len),
    )
        .prop_map(|(source, ops)| Plan { source, ops })
        .boxed()
}

// ------------------------------------------------------------------------ the environment

/// What one case shares: the test scheduler, the sources' logs, the feeding threads.
pub struct Env {
    pub test: TestScheduler,
    sources: Mutex<Vec<(String, Arc<AtomicBool>)>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    overlaps: Mutex<Vec<String>>,
}

impl Env {
    pub fn new() -> Arc<Env> {
        Arc::new(Env {
            test: TestScheduler::new(),
            sources: Mutex::new(Vec::new()),
            threads: Mutex::new(Vec::new()),
            overlaps: Mutex::new(Vec::new()),
        })
    }

    /// The sources subscribed so far and not ended, by kind.
    pub fn open_sources(&self) -> Vec<String> {
        self.sources
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, ended)| !ended.load(SeqCst))
            .map(|(what, _)| what.clone())
            .collect()
    }

    pub fn subscriptions(&self) -> usize {
        self.sources.lock().unwrap().len()
    }

    /// Operators whose output saw two `on_next` calls at once.
    pub fn overlaps(&self) -> Vec<String> {
        self.overlaps.lock().unwrap().clone()
    }

    /// Waits for the feeding threads to end.
    pub fn join(&self) {
        let threads = std::mem::take(&mut *self.threads.lock().unwrap());
        for t in threads {
            t.join().expect("a feeding thread panicked");
        }
    }
}

pub fn pool() -> ThreadPool {
    static POOL: OnceLock<ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| ThreadPool::new(2)).clone()
}

// ------------------------------------------------------------------------ logged sources

/// A source that logs its subscriptions and their ends.
#[derive(Clone)]
struct Logged {
    inner: Obs,
    what: String,
    env: Arc<Env>,
}

impl Observable for Logged {
    type Item = i64;
    type Flavour = rx::sync::Shared;
}

impl<O: Observer<i64> + Send + 'static> Subscribe<O> for Logged {
    type Subscription = LoggedSubscription;

    fn subscribe_observer(self, observer: O) -> LoggedSubscription {
        let ended = Arc::new(AtomicBool::new(false));
        self.env
            .sources
            .lock()
            .unwrap()
            .push((self.what, ended.clone()));
        let inner = self.inner.subscribe_observer(LoggedObserver {
            inner: Some(observer),
            ended: ended.clone(),
        });
        LoggedSubscription { inner, ended }
    }
}

struct LoggedObserver<O> {
    /// `None` only once a terminal notification has taken it.
    inner: Option<O>,
    ended: Arc<AtomicBool>,
}

impl<O: Observer<i64>> Observer<i64> for LoggedObserver<O> {
    fn on_next(&mut self, value: i64) {
        let inner = self.inner.as_mut().expect("on_next after a terminal");
        inner.on_next(value);
        if inner.is_disposed() {
            self.ended.store(true, SeqCst);
        }
    }
    fn on_error(mut self, error: Error) {
        self.ended.store(true, SeqCst);
        if let Some(inner) = self.inner.take() {
            inner.on_error(error);
        }
    }
    fn on_completed(mut self) {
        self.ended.store(true, SeqCst);
        if let Some(inner) = self.inner.take() {
            inner.on_completed();
        }
    }
    fn is_disposed(&self) -> bool {
        let disposed = self.inner.as_ref().is_none_or(Observer::is_disposed);
        if disposed {
            self.ended.store(true, SeqCst);
        }
        disposed
    }
}

/// A source that lets go of its observer can deliver nothing more: that ends it too (`never`
/// does it at once).
impl<O> Drop for LoggedObserver<O> {
    fn drop(&mut self) {
        self.ended.store(true, SeqCst);
    }
}

struct LoggedSubscription {
    inner: Box<dyn Subscription + Send>,
    ended: Arc<AtomicBool>,
}

impl Subscription for LoggedSubscription {
    fn dispose(&self) {
        self.ended.store(true, SeqCst);
        self.inner.dispose();
    }
    fn is_disposed(&self) -> bool {
        self.inner.is_disposed()
    }
}

/// A subject fed from threads, started when subscribed.
#[derive(Clone)]
struct Fed {
    threads: usize,
    per: usize,
    fail: bool,
    env: Arc<Env>,
}

impl Observable for Fed {
    type Item = i64;
    type Flavour = rx::sync::Shared;
}

impl<O: Observer<i64> + Send + 'static> Subscribe<O> for Fed {
    type Subscription = Box<dyn Subscription + Send>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        let subject = PublishSubject::new();
        let subscription = subject.observable().subscribe_observer(observer);
        let left = Arc::new(AtomicUsize::new(self.threads));
        let mut threads = self.env.threads.lock().unwrap();
        for t in 0..self.threads {
            let (mut input, left, per, fail) =
                (subject.observer(), left.clone(), self.per, self.fail);
            threads.push(std::thread::spawn(move || {
                for i in 0..per {
                    if input.is_disposed() {
                        break;
                    }
                    input.on_next((t * 7 + i) as i64 % 20);
                }
                if left.fetch_sub(1, SeqCst) == 1 {
                    if fail {
                        input.on_error(Error::msg("fed"));
                    } else {
                        input.on_completed();
                    }
                }
            }));
        }
        Box::new(subscription)
    }
}

// ------------------------------------------------------------------------ probes

/// Checks that the observable's output never has two `on_next` calls at once.
#[derive(Clone)]
struct Probe {
    inner: Obs,
    what: &'static str,
    env: Arc<Env>,
}

impl Observable for Probe {
    type Item = i64;
    type Flavour = rx::sync::Shared;
}

impl<O: Observer<i64> + Send + 'static> Subscribe<O> for Probe {
    type Subscription = Box<dyn Subscription + Send>;

    fn subscribe_observer(self, observer: O) -> Self::Subscription {
        self.inner.subscribe_observer(ProbeObserver {
            inner: observer,
            busy: AtomicBool::new(false),
            what: self.what,
            env: self.env,
        })
    }
}

struct ProbeObserver<O> {
    inner: O,
    busy: AtomicBool,
    what: &'static str,
    env: Arc<Env>,
}

impl<O: Observer<i64>> Observer<i64> for ProbeObserver<O> {
    fn on_next(&mut self, value: i64) {
        if self.busy.swap(true, SeqCst) {
            self.env
                .overlaps
                .lock()
                .unwrap()
                .push(self.what.to_string());
        }
        self.inner.on_next(value);
        self.busy.store(false, SeqCst);
    }
    fn on_error(self, error: Error) {
        self.inner.on_error(error);
    }
    fn on_completed(self) {
        self.inner.on_completed();
    }
    fn is_disposed(&self) -> bool {
        self.inner.is_disposed()
    }
}

// ------------------------------------------------------------------------ building

/// The observable `plan` stands for.
pub fn build(plan: &Arc<Plan>, env: &Arc<Env>) -> Obs {
    build_upto(plan, plan.ops.len(), env)
}

fn build_source(source: &Source, env: &Arc<Env>) -> Obs {
    let (inner, what): (Obs, &str) = match source {
        Source::Values(v) => (from_iter(v.clone()).boxed(), "values"),
        Source::FailAfter(v) => (
            from_iter(v.clone())
                .concat_with(throw(Error::msg("source")))
                .boxed(),
            "failing",
        ),
        Source::Never => (never().boxed(), "never"),
        Source::Empty => (empty().boxed(), "empty"),
        Source::Subject { threads, per, fail } => (
            Fed {
                threads: *threads,
                per: *per,
                fail: *fail,
                env: env.clone(),
            }
            .boxed(),
            "subject",
        ),
        Source::Ticks { period_ms, count } => (
            interval(Duration::from_millis(*period_ms), env.test.clone())
                .take(*count)
                .map(|v| v as i64 % 20)
                .boxed(),
            "ticks",
        ),
    };
    Logged {
        inner,
        what: what.to_string(),
        env: env.clone(),
    }
    .boxed()
}

/// Resubscribing and sharing operators rebuild what comes before them on each subscription (through
/// `defer`), so each attempt gets fresh sources, each logged.
fn build_upto(plan: &Arc<Plan>, upto: usize, env: &Arc<Env>) -> Obs {
    let restart = plan.ops[..upto]
        .iter()
        .rposition(|op| matches!(op, Op::Retry(_) | Op::Repeat(_) | Op::Share));
    let (mut obs, from) = match restart {
        Some(r) => {
            let (p, e) = (plan.clone(), env.clone());
            let again = defer(move || build_upto(&p, r, &e));
            let obs = match plan.ops[r] {
                Op::Retry(n) => again.retry(n).boxed(),
                Op::Repeat(n) => again.repeat(n).boxed(),
                // Two subscribers, the second joining while the first may still run.
                Op::Share => {
                    let shared = again.share();
                    shared
                        .clone()
                        .merge_with(shared.map(|v| (v + 1) % 20))
                        .boxed()
                }
                _ => unreachable!(),
            };
            (obs, r + 1)
        }
        None => (build_source(&plan.source, env), 0),
    };
    for op in &plan.ops[from..upto] {
        obs = Probe {
            inner: apply(obs, op, env),
            what: op.name(),
            env: env.clone(),
        }
        .boxed();
    }
    obs
}

fn nested(p: &Plan, env: &Arc<Env>) -> Obs {
    build(&Arc::new(p.clone()), env)
}

fn sched_on(s: Sched, env: &Arc<Env>, obs: Obs, observe: bool) -> Obs {
    match (s, observe) {
        (Sched::NewThread, true) => obs.observe_on(NewThread).boxed(),
        (Sched::Pool, true) => obs.observe_on(pool()).boxed(),
        (Sched::Computational, true) => obs.observe_on(Computational).boxed(),
        (Sched::Test, true) => obs.observe_on(env.test.clone()).boxed(),
        (Sched::NewThread, false) => obs.subscribe_on(NewThread).boxed(),
        (Sched::Pool, false) => obs.subscribe_on(pool()).boxed(),
        (Sched::Computational, false) => obs.subscribe_on(Computational).boxed(),
        (Sched::Test, false) => obs.subscribe_on(env.test.clone()).boxed(),
    }
}

fn apply(obs: Obs, op: &Op, env: &Arc<Env>) -> Obs {
    let ms = |n: u64| Duration::from_millis(n);
    let t = env.test.clone();
    let b = |v: bool| i64::from(v);
    match op {
        Op::Map(k) => {
            let k = *k;
            obs.map(move |v| (v + k) % 20).boxed()
        }
        Op::Filter(m) => {
            let m = *m;
            obs.filter(move |v| v % m == 0).boxed()
        }
        Op::FilterMap(m) => {
            let m = *m;
            obs.filter_map(move |v| (v % m != 0).then_some(v + 1))
                .boxed()
        }
        Op::TryMap(limit) => {
            let limit = *limit;
            obs.try_map(move |v| {
                if v >= limit {
                    Err(Error::msg("try_map"))
                } else {
                    Ok(v + 1)
                }
            })
            .boxed()
        }
        Op::FlatMapIter(n) => {
            let n = *n;
            obs.flat_map_iter(move |v| (0..n).map(move |i| (v + i) % 20))
                .boxed()
        }
        Op::Tap => obs.tap(|_| {}).boxed(),
        Op::TakeWhile(k) => {
            let k = *k;
            obs.take_while(move |v| *v != k).boxed()
        }
        Op::SkipWhile(k) => {
            let k = *k;
            obs.skip_while(move |v| *v != k).boxed()
        }
        Op::MapErr => obs.map_err(|e| Error::msg(format!("mapped {e}"))).boxed(),
        Op::DistinctUntilChanged => obs.distinct_until_changed().boxed(),
        Op::StartWith(v) => obs.start_with(*v).boxed(),
        Op::EndWith(v) => obs.end_with(*v).boxed(),
        Op::DefaultIfEmpty(v) => obs.default_if_empty(*v).boxed(),
        Op::Take(n) => obs.take(*n).boxed(),
        Op::Skip(n) => obs.skip(*n).boxed(),
        Op::TakeLast(n) => obs.take_last(*n).boxed(),
        Op::SkipLast(n) => obs.skip_last(*n).boxed(),
        Op::First => obs.first().boxed(),
        Op::FirstOr(v) => obs.first_or(*v).boxed(),
        Op::Last => obs.last().boxed(),
        Op::LastOr(v) => obs.last_or(*v).boxed(),
        Op::ElementAt(i) => obs.element_at(*i).boxed(),
        Op::Scan => obs.scan(0i64, |acc, v| (acc + v) % 20).boxed(),
        Op::Buffer(n) => obs.buffer(*n).map(|v| v.len() as i64).boxed(),
        Op::BufferWithSkip(c, s) => obs
            .buffer_with_skip(*c, *s)
            .map(|v| v.iter().sum::<i64>() % 20)
            .boxed(),
        Op::Pairwise => obs.pairwise().map(|(a, b)| (a + b) % 20).boxed(),
        Op::Reduce => obs.reduce(0i64, |acc, v| (acc + v) % 20).boxed(),
        Op::Count => obs.count().map(|n| n as i64 % 20).boxed(),
        Op::Sum => obs.sum().map(|s| s % 20).boxed(),
        Op::Min => obs.min().boxed(),
        Op::Max => obs.max().boxed(),
        Op::ToVec => obs.to_vec().map(|v| v.len() as i64 % 20).boxed(),
        Op::MinByKey(m) => {
            let m = *m;
            obs.min_by_key(move |v| v % m).boxed()
        }
        Op::MaxBy => obs.max_by(|a, b| b.cmp(a)).boxed(),
        Op::Average => obs
            .map(|v| v as i32)
            .average()
            .map(|a| a as i64 % 20)
            .boxed(),
        Op::Collect => obs
            .collect::<std::collections::BTreeSet<_>>()
            .map(|c| c.len() as i64 % 20)
            .boxed(),
        Op::ToMap(m) => {
            let m = *m;
            obs.to_map(move |v| v % m).map(|c| c.len() as i64).boxed()
        }
        Op::ToMultimap(m) => {
            let m = *m;
            obs.to_multimap(move |v| v % m)
                .map(|c| c.values().map(Vec::len).sum::<usize>() as i64 % 20)
                .boxed()
        }
        Op::Distinct => obs.distinct().boxed(),
        Op::IgnoreElements => obs.ignore_elements().boxed(),
        Op::All(k) => {
            let k = *k;
            obs.all(move |v| v != k).map(b).boxed()
        }
        Op::Any(k) => {
            let k = *k;
            obs.any(move |v| v == k).map(b).boxed()
        }
        Op::Contains(k) => obs.contains(*k).map(b).boxed(),
        Op::IsEmpty => obs.is_empty().map(b).boxed(),
        Op::GroupBy(m) => {
            let m = *m;
            obs.group_by(move |v| v % m).flat_map(|g| g).boxed()
        }
        Op::Window(n) => obs.window(*n).concat().boxed(),
        Op::Materialize => obs
            .materialize()
            .map(|n| match n {
                Notification::Next(v) => Notification::Next(v),
                other => other,
            })
            .dematerialize()
            .boxed(),
        Op::OnErrorReturn(v) => {
            let v = *v;
            obs.on_error_return(move |_| v).boxed()
        }
        Op::OnErrorComplete => obs.on_error_complete().boxed(),
        Op::OnErrorResumeNext(p) => {
            let resume = nested(p, env);
            obs.on_error_resume_next(move |_| resume).boxed()
        }
        Op::Retry(_) | Op::Repeat(_) => unreachable!("built by build_upto"),
        Op::Finally => obs.finally(|| {}).boxed(),
        Op::TapSubscribe => obs.tap_subscribe(|| {}).boxed(),
        Op::TapDispose => obs.tap_dispose(|| {}).boxed(),
        Op::Using => rx::source::using(|| vec![0u8; 4], move |_| obs).boxed(),
        Op::MergeWith(p) => obs.merge_with(nested(p, env)).boxed(),
        Op::ConcatWith(p) => obs.concat_with(nested(p, env)).boxed(),
        Op::Zip(p) => obs.zip(nested(p, env)).map(|(a, b)| (a + b) % 20).boxed(),
        Op::CombineLatest(p) => obs
            .combine_latest(nested(p, env))
            .map(|(a, b)| (a + b) % 20)
            .boxed(),
        Op::WithLatestFrom(p) => obs
            .with_latest_from(nested(p, env))
            .map(|(a, b)| (a + b) % 20)
            .boxed(),
        Op::TakeUntil(p) => obs.take_until(nested(p, env)).boxed(),
        Op::SkipUntil(p) => obs.skip_until(nested(p, env)).boxed(),
        Op::AmbWith(p) => obs.amb_with(nested(p, env)).boxed(),
        Op::FlatMap(p) => {
            let f = inner_fn(p, env);
            obs.flat_map(f).boxed()
        }
        Op::ConcatMap(p) => {
            let f = inner_fn(p, env);
            obs.concat_map(f).boxed()
        }
        Op::SwitchMap(p) => {
            let f = inner_fn(p, env);
            obs.switch_map(f).boxed()
        }
        Op::ExhaustMap(p) => {
            let f = inner_fn(p, env);
            obs.exhaust_map(f).boxed()
        }
        Op::MergeMax(n, p) => {
            let f = inner_fn(p, env);
            obs.map(f).merge_max(*n).boxed()
        }
        Op::Share => unreachable!("built by build_upto"),
        Op::ObserveOn(s) => sched_on(*s, env, obs, true),
        Op::SubscribeOn(s) => sched_on(*s, env, obs, false),
        Op::Debounce(n) => obs.debounce(ms(*n), t).boxed(),
        Op::Throttle(n) => obs.throttle(ms(*n), t).boxed(),
        Op::Sample(n) => obs.sample(ms(*n), t).boxed(),
        Op::Timeout(n) => obs.timeout(ms(*n), t).boxed(),
        Op::Delay(n) => obs.delay(ms(*n), t).boxed(),
        Op::BufferWithTime(n) => obs
            .buffer_with_time(ms(*n), t)
            .map(|v| v.len() as i64 % 20)
            .boxed(),
        Op::TakeWithTime(n) => obs.take_with_time(ms(*n), t).boxed(),
        Op::SkipWithTime(n) => obs.skip_with_time(ms(*n), t).boxed(),
        Op::TakeLastWithTime(n) => obs.take_last_with_time(ms(*n), t).boxed(),
        Op::SkipLastWithTime(n) => obs.skip_last_with_time(ms(*n), t).boxed(),
        Op::AuditWith(n) => {
            let n = *n;
            obs.audit_with(move |v| rx::source::timer(ms(n + *v as u64 % 3), t.clone()))
                .boxed()
        }
        Op::ThrottleWhen(n) => {
            let n = *n;
            let config = rx::operators::ThrottleConfig {
                leading: n % 2 == 0,
                trailing: true,
            };
            obs.throttle_when(move |_| rx::source::timer(ms(n), t.clone()), config)
                .boxed()
        }
        Op::DelayWhen(n) => {
            let n = *n;
            obs.delay_when(move |v| rx::source::timer(ms(n + *v as u64 % 3), t.clone()))
                .boxed()
        }
        Op::BufferWhen(n) => {
            let n = *n;
            obs.buffer_when(move || rx::source::timer(ms(n), t.clone()))
                .map(|v| v.len() as i64 % 20)
                .boxed()
        }
        Op::BufferToggle(n) => {
            let n = *n;
            let closing = t.clone();
            obs.buffer_toggle(rx::source::interval(ms(n), t), move |_| {
                rx::source::timer(ms(n + 1), closing.clone())
            })
            .map(|v| v.len() as i64 % 20)
            .boxed()
        }
        Op::TimeoutWhen(n) => {
            let n = *n;
            let each = t.clone();
            obs.timeout_when(rx::source::timer(ms(n), t), move |_| {
                rx::source::timer(ms(n), each.clone())
            })
            .boxed()
        }
        Op::BufferWithTimeSkip(n) => obs
            .buffer_with_time_skip(ms(*n), ms(*n / 2 + 1), t)
            .map(|v| v.len() as i64 % 20)
            .boxed(),
        Op::Timestamp => obs.timestamp(t).map(|(_, v)| v).boxed(),
        Op::TimeInterval => obs.time_interval(t).map(|(_, v)| v).boxed(),
    }
}

/// The closure of a mapping operator: each value gets a fresh inner chain, shifted by it.
fn inner_fn(p: &Plan, env: &Arc<Env>) -> impl FnMut(i64) -> Obs + Clone + Send + 'static {
    let (p, env) = (Arc::new(p.clone()), env.clone());
    move |v| build(&p, &env).map(move |x| (x + v) % 20).boxed()
}

impl Op {
    pub fn name(&self) -> &'static str {
        let debug = format!("{self:?}");
        let name = debug.split(['(', ' ']).next().unwrap_or("?").to_string();
        // A handful of names, leaked once each: probes keep them for their messages.
        static NAMES: OnceLock<Mutex<Vec<&'static str>>> = OnceLock::new();
        let mut names = NAMES.get_or_init(Default::default).lock().unwrap();
        if let Some(n) = names.iter().find(|n| **n == name) {
            return n;
        }
        let leaked: &'static str = Box::leak(name.into_boxed_str());
        names.push(leaked);
        leaked
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.source)?;
        for op in &self.ops {
            write!(f, " . {op:?}")?;
        }
        Ok(())
    }
}
