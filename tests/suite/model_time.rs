//! Differential properties for the time operators, on virtual time: a random timed script
//! (values, then completion or an error, or neither) goes through the operator on a
//! `TestScheduler`, and what comes out, with its times, must be what a model over the
//! timestamped events says.
//!
//! Script events fall on milliseconds ≡ 1 (mod 4), and the operators' periods are picked so
//! that no timer can fall due at the same instant as an event (odd delays, even periods,
//! timeouts ≡ 2 (mod 4)): where two things coincide the order is a convention, documented
//! and tested by the operators' own marble tests, not something a model should guess.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm};
use rx::Notification::{self, Completed, Next};
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::testing::{TimedObserver, cold};
use rx::{Error, Observable, Subscribe};
use std::time::Duration;

type Timeline<T> = Vec<(u64, Notification<T>)>;

#[derive(Clone, Debug)]
struct Script {
    values: Vec<(u64, i64)>,
    /// When and how it ends: `Some((t, true))` fails at `t`.
    end: Option<(u64, bool)>,
}

fn script() -> impl Strategy<Value = Script> {
    (
        prop::collection::vec((0u64..4, 0i64..10), 0..14),
        0u64..4,
        prop_oneof![Just(None), Just(Some(false)), Just(Some(true))],
    )
        .prop_map(|(gaps, last_gap, end)| {
            let mut t = 1;
            let mut values = Vec::new();
            for (i, (gap, v)) in gaps.into_iter().enumerate() {
                if i > 0 {
                    t += 4 * (gap + 1);
                }
                values.push((t, v));
            }
            let end_at = if values.is_empty() {
                1
            } else {
                t + 4 * (last_gap + 1)
            };
            Script {
                values,
                end: end.map(|fails| (end_at, fails)),
            }
        })
}

fn boom() -> Error {
    Error::msg("boom")
}

fn ms(t: u64) -> Duration {
    Duration::from_millis(t)
}

impl Script {
    fn events(&self) -> Vec<(Duration, Notification<i64>)> {
        let mut events: Vec<_> = self.values.iter().map(|&(t, v)| (ms(t), Next(v))).collect();
        if let Some((t, fails)) = self.end {
            events.push((
                ms(t),
                if fails {
                    Notification::Error(boom())
                } else {
                    Completed
                },
            ));
        }
        events
    }

    fn end_note<T>(&self) -> Option<(u64, Notification<T>)> {
        self.end.map(|(t, fails)| {
            (
                t,
                if fails {
                    Notification::Error(boom())
                } else {
                    Completed
                },
            )
        })
    }

    /// The last instant anything can happen at.
    fn horizon(&self) -> u64 {
        self.end
            .map_or_else(|| self.values.last().map_or(0, |v| v.0), |e| e.0)
            + 200
    }
}

/// What `make` turns the script into, with times in milliseconds from the subscription.
fn run<T, S>(
    script: &Script,
    make: impl FnOnce(rx::testing::Cold<i64, TestScheduler>, TestScheduler) -> S,
) -> Timeline<T>
where
    T: Clone + Send + 'static,
    S: Observable<Item = T> + Subscribe<TimedObserver<T, TestScheduler>>,
{
    let sch = TestScheduler::new();
    let observer = TimedObserver::new(&sch);
    let source = cold(&sch, script.events());
    let _subscription = make(source, sch.clone()).subscribe_observer(observer.clone());
    sch.advance_by(ms(script.horizon()));
    observer
        .timeline()
        .into_iter()
        .map(|(at, n)| {
            assert_eq!(
                at.subsec_nanos() % 1_000_000,
                0,
                "a time off the millisecond grid"
            );
            (at.as_millis() as u64, n)
        })
        .collect()
}

// ------------------------------------------------------------------------ models

fn delay(s: &Script, d: u64) -> Timeline<i64> {
    let mut out: Timeline<i64> = Vec::new();
    match s.end {
        Some((te, true)) => {
            out.extend(
                s.values
                    .iter()
                    .filter(|(t, _)| t + d < te)
                    .map(|&(t, v)| (t + d, Next(v))),
            );
            out.push((te, Notification::Error(boom())));
        }
        Some((te, false)) => {
            out.extend(s.values.iter().map(|&(t, v)| (t + d, Next(v))));
            out.push((te + d, Completed));
        }
        None => out.extend(s.values.iter().map(|&(t, v)| (t + d, Next(v)))),
    }
    out
}

fn debounce(s: &Script, d: u64) -> Timeline<i64> {
    let mut out = Vec::new();
    for (i, &(t, v)) in s.values.iter().enumerate() {
        let next = s.values.get(i + 1).map(|n| n.0).or(s.end.map(|e| e.0));
        match (next, s.end) {
            (Some(n), _) if n < t + d => {
                // Followed too soon: dropped, unless what follows is the completion.
                if i + 1 == s.values.len() && matches!(s.end, Some((_, false))) {
                    out.push((n, Next(v)));
                }
            }
            _ => out.push((t + d, Next(v))),
        }
    }
    out.extend(s.end_note());
    out
}

fn throttle(s: &Script, w: u64) -> Timeline<i64> {
    let mut out = Vec::new();
    let mut open_until = None;
    for &(t, v) in &s.values {
        if open_until.is_none_or(|end| t > end) {
            out.push((t, Next(v)));
            open_until = Some(t + w);
        }
    }
    out.extend(s.end_note());
    out
}

fn sample(s: &Script, p: u64) -> Timeline<i64> {
    let mut out = Vec::new();
    let until = s.end.map_or(s.horizon(), |e| e.0);
    let mut tick = p;
    while tick < until {
        if let Some(&(_, v)) = s
            .values
            .iter()
            .rev()
            .find(|(t, _)| *t < tick && *t > tick - p)
        {
            out.push((tick, Next(v)));
        }
        tick += p;
    }
    out.extend(s.end_note());
    out
}

fn buffer_with_time(s: &Script, span: u64) -> Timeline<Vec<i64>> {
    let mut out = Vec::new();
    let until = s.end.map_or(s.horizon(), |e| e.0);
    let window = |from: u64| -> Vec<i64> {
        s.values
            .iter()
            .filter(|(t, _)| *t > from && *t < from + span)
            .map(|v| v.1)
            .collect()
    };
    let mut start = 0;
    while start + span < until || (s.end.is_none() && start + span <= until) {
        out.push((start + span, Next(window(start))));
        start += span;
    }
    match s.end {
        Some((te, false)) => {
            out.push((te, Next(window(start))));
            out.push((te, Completed));
        }
        Some((te, true)) => out.push((te, Notification::Error(boom()))),
        None => {}
    }
    out
}

/// A timeout fails at the last value (or the subscription) plus `d`.
fn timeout(s: &Script, d: u64) -> Timeline<i64> {
    let mut out = Vec::new();
    let mut last = 0;
    for &(t, v) in &s.values {
        if t > last + d {
            out.push((last + d, Notification::Error(Error::msg("timeout"))));
            return out;
        }
        out.push((t, Next(v)));
        last = t;
    }
    match s.end {
        Some((te, _)) if te > last + d => {
            out.push((last + d, Notification::Error(Error::msg("timeout"))))
        }
        None => out.push((last + d, Notification::Error(Error::msg("timeout")))),
        Some(_) => out.extend(s.end_note()),
    }
    out
}

fn take_until(s: &Script, at: Option<u64>) -> Timeline<i64> {
    let stop = at.unwrap_or(u64::MAX);
    let mut out: Timeline<i64> = s
        .values
        .iter()
        .filter(|(t, _)| *t < stop)
        .map(|&(t, v)| (t, Next(v)))
        .collect();
    match s.end_note() {
        Some((te, n)) if te < stop => out.push((te, n)),
        _ if at.is_some() => out.push((stop, Completed)),
        _ => {}
    }
    out
}

fn skip_until(s: &Script, at: Option<u64>) -> Timeline<i64> {
    let start = at.unwrap_or(u64::MAX);
    let mut out: Timeline<i64> = s
        .values
        .iter()
        .filter(|(t, _)| *t > start)
        .map(|&(t, v)| (t, Next(v)))
        .collect();
    out.extend(s.end_note());
    out
}

/// Timeout errors carry their own message: compare them by kind.
fn kinds(timeline: Timeline<i64>) -> Vec<(u64, Result<i64, bool>)> {
    timeline
        .into_iter()
        .map(|(t, n)| {
            (
                t,
                match n {
                    Next(v) => Ok(v),
                    Completed => Err(false),
                    Notification::Error(_) => Err(true),
                },
            )
        })
        .collect()
}

fn config() -> Config {
    Config {
        cases: std::env::var("RX_PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(300),
        rng_algorithm: RngAlgorithm::XorShift,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn delay_matches_its_model(s in script(), d in (0u64..8).prop_map(|k| 2 * k + 1)) {
        prop_assert_eq!(run(&s, |src, sch| src.delay(ms(d), sch)), delay(&s, d), "{:?}", s);
    }

    #[test]
    fn debounce_matches_its_model(s in script(), d in (0u64..8).prop_map(|k| 2 * k + 1)) {
        prop_assert_eq!(run(&s, |src, sch| src.debounce(ms(d), sch)), debounce(&s, d), "{:?}", s);
    }

    #[test]
    fn throttle_matches_its_model(s in script(), w in (0u64..8).prop_map(|k| 2 * k + 1)) {
        prop_assert_eq!(run(&s, |src, sch| src.throttle(ms(w), sch)), throttle(&s, w), "{:?}", s);
    }

    #[test]
    fn sample_matches_its_model(s in script(), p in (1u64..8).prop_map(|k| 2 * k)) {
        prop_assert_eq!(run(&s, |src, sch| src.sample(ms(p), sch)), sample(&s, p), "{:?}", s);
    }

    #[test]
    fn buffer_with_time_matches_its_model(s in script(), span in (1u64..8).prop_map(|k| 2 * k)) {
        prop_assert_eq!(
            run(&s, |src, sch| src.buffer_with_time(ms(span), sch)),
            buffer_with_time(&s, span),
            "{:?}", s
        );
    }

    #[test]
    fn timeout_matches_its_model(s in script(), d in (0u64..6).prop_map(|k| 4 * k + 2)) {
        prop_assert_eq!(kinds(run(&s, |src, sch| src.timeout(ms(d), sch))), kinds(timeout(&s, d)), "{:?}", s);
    }

    #[test]
    fn take_until_and_skip_until_match_their_models(
        s in script(),
        at in prop::option::of((0u64..20).prop_map(|k| 4 * k + 3)),
    ) {
        let notifier = |sch: &TestScheduler| {
            let events = at.map(|t| (ms(t), Next(()))).into_iter();
            cold(sch, events.collect::<Vec<_>>())
        };
        prop_assert_eq!(
            run(&s, |src, sch| src.take_until(notifier(&sch))),
            take_until(&s, at),
            "take_until {:?}", s
        );
        prop_assert_eq!(
            run(&s, |src, sch| src.skip_until(notifier(&sch))),
            skip_until(&s, at),
            "skip_until {:?}", s
        );
    }
}
