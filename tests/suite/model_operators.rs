//! Differential properties: each operator with an obvious model, run over random inputs
//! (that end in completion or in an error), against that model written here over a `Vec`.
//!
//! The inputs are synchronous, so the order of everything is fixed and the comparison is
//! exact: the values, in order, and the terminal notification (an error passed on from the
//! source keeps its message; an error the operator makes is only checked to be an error).

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm};
use rx::prelude::*;
use rx::source::{defer, from_iter, throw};
use rx::testing::TestObserver;
use rx::{BoxedObservable, Error, Notification};
use std::collections::HashSet;
use std::fmt::Debug;

/// How a sequence ends.
#[derive(Clone, Debug, PartialEq)]
enum End {
    Completed,
    /// The source's error, passed on.
    SourceError,
    /// An error of the operator's own.
    OwnError,
    /// Not ended.
    Open,
}

/// What a model says comes out.
type Outcome<T> = (Vec<T>, End);

/// A random input: values, and whether an error follows them.
fn input() -> impl Strategy<Value = (Vec<i64>, bool)> {
    (
        prop::collection::vec(0i64..10, 0..24),
        prop::bool::weighted(0.3),
    )
}

fn source(xs: &[i64], fails: bool) -> BoxedObservable<'static, i64> {
    let values = from_iter(xs.to_vec());
    if fails {
        values.concat_with(throw(Error::msg("boom"))).boxed()
    } else {
        values.boxed()
    }
}

/// What `observable` emits, as an outcome.
fn run<T, S>(observable: S) -> Outcome<T>
where
    T: Clone + Send + 'static,
    S: Subscribe<TestObserver<T>>,
{
    let o = TestObserver::new();
    observable.subscribe_observer(o.clone());
    o.assert_rules();
    let mut values = Vec::new();
    let mut end = End::Open;
    for n in o.notifications() {
        match n {
            Notification::Next(v) => values.push(v),
            Notification::Completed => end = End::Completed,
            Notification::Error(e) if e.to_string() == "boom" => end = End::SourceError,
            Notification::Error(_) => end = End::OwnError,
        }
    }
    (values, end)
}

/// The end of a source that runs to its end.
fn end_of(fails: bool) -> End {
    if fails {
        End::SourceError
    } else {
        End::Completed
    }
}

/// An operator that emits once at the end: `value` after a complete source, nothing but
/// the error after a failing one.
fn at_end<T>(fails: bool, value: Option<T>) -> Outcome<T> {
    match (fails, value) {
        (true, _) => (vec![], End::SourceError),
        (false, Some(v)) => (vec![v], End::Completed),
        (false, None) => (vec![], End::Completed),
    }
}

/// An operator that may decide early: `decided` is the value emitted when it does.
fn early<T>(decided: Option<T>, fails: bool, otherwise: T) -> Outcome<T> {
    match decided {
        Some(v) => (vec![v], End::Completed),
        None if fails => (vec![], End::SourceError),
        None => (vec![otherwise], End::Completed),
    }
}

fn check<T: PartialEq + Debug>(
    what: &str,
    actual: Outcome<T>,
    model: Outcome<T>,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(actual, model, "{}", what);
    Ok(())
}

/// Buffers of `count` opened every `skip` values, as `buffer_with_skip` documents: full ones
/// when they fill, the open ones (oldest first) at completion, none after an error.
fn buffers(xs: &[i64], count: usize, skip: usize, fails: bool) -> Outcome<Vec<i64>> {
    let starts: Vec<usize> = (0..xs.len()).step_by(skip).collect();
    let mut full: Vec<(usize, Vec<i64>)> = starts
        .iter()
        .filter(|&&s| s + count <= xs.len())
        .map(|&s| (s + count - 1, xs[s..s + count].to_vec()))
        .collect();
    full.sort_by_key(|(at, _)| *at);
    let mut out: Vec<Vec<i64>> = full.into_iter().map(|(_, b)| b).collect();
    if fails {
        return (out, End::SourceError);
    }
    out.extend(
        starts
            .iter()
            .filter(|&&s| s + count > xs.len())
            .map(|&s| xs[s..].to_vec()),
    );
    (out, End::Completed)
}

/// `cases` per property, or `RX_PROPTEST_CASES` for a longer run.
fn config(cases: u32) -> Config {
    Config {
        cases: std::env::var("RX_PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(cases),
        rng_algorithm: RngAlgorithm::XorShift,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn counting_operators_match_their_models((xs, fails) in input(), n in 0usize..6) {
        let len = xs.len();
        check("take_last", run(source(&xs, fails).take_last(n)),
            if fails { (vec![], End::SourceError) } else { (xs[len.saturating_sub(n)..].to_vec(), End::Completed) })?;
        check("skip_last", run(source(&xs, fails).skip_last(n)),
            (xs[..len.saturating_sub(n)].to_vec(), end_of(fails)))?;
        check("element_at", run(source(&xs, fails).element_at(n)), match xs.get(n) {
            Some(v) => (vec![*v], End::Completed),
            None if fails => (vec![], End::SourceError),
            None => (vec![], End::OwnError),
        })?;
        check("first", run(source(&xs, fails).first()), match xs.first() {
            Some(v) => (vec![*v], End::Completed),
            None if fails => (vec![], End::SourceError),
            None => (vec![], End::OwnError),
        })?;
        check("first_or", run(source(&xs, fails).first_or(-1)), early(xs.first().copied(), fails, -1))?;
        check("last", run(source(&xs, fails).last()), match (fails, xs.last()) {
            (true, _) => (vec![], End::SourceError),
            (false, Some(v)) => (vec![*v], End::Completed),
            (false, None) => (vec![], End::OwnError),
        })?;
        check("last_or", run(source(&xs, fails).last_or(-1)), at_end(fails, Some(*xs.last().unwrap_or(&-1))))?;
        check("default_if_empty", run(source(&xs, fails).default_if_empty(-1)),
            (if xs.is_empty() && !fails { vec![-1] } else { xs.clone() }, end_of(fails)))?;
        check("take", run(source(&xs, fails).take(n)),
            (xs.iter().take(n).copied().collect(), if n <= len { End::Completed } else { end_of(fails) }))?;
        check("skip", run(source(&xs, fails).skip(n)), (xs.iter().skip(n).copied().collect(), end_of(fails)))?;
    }

    #[test]
    fn aggregates_match_their_models((xs, fails) in input(), k in 0i64..10) {
        check("count", run(source(&xs, fails).count()), at_end(fails, Some(xs.len())))?;
        check("sum", run(source(&xs, fails).sum()), at_end(fails, Some(xs.iter().sum::<i64>())))?;
        check("min", run(source(&xs, fails).min()), at_end(fails, xs.iter().min().copied()))?;
        check("max", run(source(&xs, fails).max()), at_end(fails, xs.iter().max().copied()))?;
        check("reduce", run(source(&xs, fails).reduce(k, |a, v| a * 3 + v)),
            at_end(fails, Some(xs.iter().fold(k, |a, v| a * 3 + v))))?;
        check("to_vec", run(source(&xs, fails).to_vec()), at_end(fails, Some(xs.clone())))?;
        check("all", run(source(&xs, fails).all(move |v| v != k)),
            early(xs.contains(&k).then_some(false), fails, true))?;
        check("any", run(source(&xs, fails).any(move |v| v == k)),
            early(xs.contains(&k).then_some(true), fails, false))?;
        check("contains", run(source(&xs, fails).contains(k)),
            early(xs.contains(&k).then_some(true), fails, false))?;
        check("is_empty", run(source(&xs, fails).is_empty()),
            early((!xs.is_empty()).then_some(false), fails, true))?;
    }

    #[test]
    fn sequence_operators_match_their_models((xs, fails) in input(), k in 0i64..10) {
        let end = end_of(fails);
        check("start_with", run(source(&xs, fails).start_with(k)),
            ([k].into_iter().chain(xs.iter().copied()).collect(), end.clone()))?;
        check("end_with", run(source(&xs, fails).end_with(k)),
            (xs.iter().copied().chain((!fails).then_some(k)).collect(), end.clone()))?;
        check("pairwise", run(source(&xs, fails).pairwise()),
            (xs.windows(2).map(|w| (w[0], w[1])).collect(), end.clone()))?;
        let mut seen = HashSet::new();
        check("distinct", run(source(&xs, fails).distinct()),
            (xs.iter().copied().filter(|v| seen.insert(*v)).collect(), end.clone()))?;
        let mut deduped = xs.clone();
        deduped.dedup();
        check("distinct_until_changed", run(source(&xs, fails).distinct_until_changed()), (deduped, end.clone()))?;
        check("ignore_elements", run(source(&xs, fails).ignore_elements()), (vec![], end.clone()))?;
        check("scan", run(source(&xs, fails).scan(k, |a, v| a * 2 + v)),
            (xs.iter().scan(k, |a, v| { *a = *a * 2 + v; Some(*a) }).collect(), end.clone()))?;
        check("distinct_until_key_changed", run(source(&xs, fails).distinct_until_key_changed(|v| v / 3)), {
            let mut out: Vec<i64> = Vec::new();
            for v in &xs {
                if out.last().is_none_or(|l| l / 3 != v / 3) { out.push(*v); }
            }
            (out, end.clone())
        })?;
    }

    #[test]
    fn buffers_match_their_model((xs, fails) in input(), count in 1usize..5, skip in 1usize..5) {
        check("buffer", run(source(&xs, fails).buffer(count)), buffers(&xs, count, count, fails))?;
        check("buffer_with_skip", run(source(&xs, fails).buffer_with_skip(count, skip)),
            buffers(&xs, count, skip, fails))?;
    }

    #[test]
    fn combining_sequential_sources_matches_concatenation(
        (a, fails) in input(),
        b in prop::collection::vec(0i64..10, 0..12),
        c in prop::collection::vec(0i64..10, 0..12),
    ) {
        let joined: Vec<i64> = a.iter().chain(&b).copied().collect();
        let cut = |out: Vec<i64>| if fails { a.clone() } else { out };
        check("concat_with", run(source(&a, fails).concat_with(from_iter(b.clone()))),
            (cut(joined.clone()), end_of(fails)))?;
        // Synchronous sources run one after the other inside `subscribe`.
        check("merge_with", run(source(&a, fails).merge_with(from_iter(b.clone()))),
            (cut(joined.clone()), end_of(fails)))?;
        check("merge", run(rx::source::merge([from_iter(a.clone()), from_iter(b.clone()), from_iter(c.clone())])),
            (a.iter().chain(&b).chain(&c).copied().collect(), End::Completed))?;
        check("concat", run(rx::source::concat([from_iter(a.clone()), from_iter(b.clone()), from_iter(c.clone())])),
            (a.iter().chain(&b).chain(&c).copied().collect(), End::Completed))?;
        check("zip", run(from_iter(a.clone()).zip(from_iter(b.clone()))),
            (a.iter().copied().zip(b.iter().copied()).collect(), End::Completed))?;
        check("flat_map", run(from_iter(a.clone()).flat_map(|v| from_iter([v, v + 1]))),
            (a.iter().flat_map(|v| [*v, v + 1]).collect(), End::Completed))?;
        check("concat_map", run(from_iter(a.clone()).concat_map(|v| from_iter(0..v % 3))),
            (a.iter().flat_map(|v| 0..v % 3).collect(), End::Completed))?;
        // Each inner ends inside the `on_next` that made it: switching drops nothing.
        check("switch_map", run(from_iter(a.clone()).switch_map(|v| from_iter([v, v]))),
            (a.iter().flat_map(|v| [*v, *v]).collect(), End::Completed))?;
        check("exhaust_map", run(from_iter(a.clone()).exhaust_map(|v| from_iter([v]))),
            (a.clone(), End::Completed))?;
    }

    #[test]
    fn resubscribing_matches_repetition((xs, fails) in input(), n in 0usize..4) {
        let (ys, f) = (xs.clone(), fails);
        let again = defer(move || source(&ys, f));
        let times = if fails { n + 1 } else { 1 };
        check("retry", run(again.clone().retry(n)),
            (xs.iter().copied().cycle().take(xs.len() * times).collect(), end_of(fails)))?;
        let times = if fails { n.min(1) } else { n };
        check("repeat", run(again.repeat(n)),
            (xs.iter().copied().cycle().take(xs.len() * times).collect(),
             if fails && n > 0 { End::SourceError } else { End::Completed }))?;
    }

    #[test]
    fn grouping_and_windows_match_chunking((xs, fails) in input(), k in 1i64..4, n in 1usize..5) {
        // Every group collects its values; they come out when the source ends.
        let (mut groups, end) = run(source(&xs, false).group_by(move |v| v % k).flat_map(|g| g.to_vec()));
        groups.sort();
        let mut model: Vec<Vec<i64>> = (0..k)
            .map(|r| xs.iter().copied().filter(|v| v % k == r).collect::<Vec<_>>())
            .filter(|g| !g.is_empty())
            .collect();
        model.sort();
        check("group_by", (groups, end), (model, End::Completed))?;
        let (windows, end) = run(source(&xs, fails).window(n).concat_map(|w| w.to_vec()));
        let mut chunks: Vec<Vec<i64>> = xs.chunks(n).map(<[i64]>::to_vec).collect();
        if fails && xs.len() % n != 0 {
            // The open window fails with the source, so its `to_vec` emits nothing.
            chunks.pop();
        } else if !fails && xs.len() % n == 0 {
            // The window opened after the last full one (or on subscription) completes empty.
            chunks.push(Vec::new());
        }
        check("window", (windows, end), (chunks, end_of(fails)))?;
    }
}
