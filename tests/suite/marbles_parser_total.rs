//! The marble parser is total: on any input it returns, or panics with its documented
//! message (`invalid marble diagram: ...` and the column), never with anything else (an
//! overflow, an index out of range). The `fuzz/` targets search the same space with
//! coverage; this runs on stable in CI.

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngAlgorithm};
use rx::schedulers::TestScheduler;
use rx::testing::marbles::Marbles;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

/// Strings made mostly of what diagrams are made of, so the parser's rules are exercised,
/// with anything else mixed in.
fn diagram() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => prop::sample::select(vec![
            "-", " ", "a", "b", "1", "9", "|", "#", "(", ")", "^", "!", "ms ", "s ", "m ",
            ".", "0", "10ms ", "1.5s ", "99999999999999999999m ", "18446744073709551615ms ",
        ])
        .prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|p| p.concat())
}

/// Runs `f`; a panic must be the parser's own.
fn total(what: &str, diagram: &str, f: impl FnOnce()) -> Result<(), TestCaseError> {
    let Err(payload) = catch_unwind(AssertUnwindSafe(f)) else {
        return Ok(());
    };
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    prop_assert!(
        message.starts_with("invalid marble diagram: ") && message.contains(" column "),
        "{what}({diagram:?}) panicked with {message:?}"
    );
    Ok(())
}

proptest! {
    #![proptest_config(Config {
        cases: 2000,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        rng_algorithm: RngAlgorithm::XorShift,
        ..Config::default()
    })]

    #[test]
    fn every_entry_point_returns_or_names_the_column(d in diagram()) {
        let sch = TestScheduler::new();
        let m = Marbles::new(&sch);
        total("parse", &d, || { let _ = m.parse(&d); })?;
        total("time", &d, || { let _ = m.time(&d); })?;
        total("cold", &d, || { let _ = m.cold(&d); })?;
        total("hot", &d, || { let _ = m.hot(&d); })?;
        total("expect_subscribed", &d, || {
            let _ = m.expect_subscribed(rx::source::empty::<char>(), &d);
        })?;
        total("assert_subscriptions", &d, || {
            let c = Marbles::new(&TestScheduler::new()).cold("|");
            // A mismatch is a documented panic of its own; only parsing matters here.
            let _ = catch_unwind(AssertUnwindSafe(|| c.assert_subscriptions(&[&d])))
                .map_err(|p| {
                    let text = p.downcast_ref::<String>().cloned().unwrap_or_default();
                    if !text.starts_with("subscriptions to the cold observable differ") {
                        std::panic::resume_unwind(p);
                    }
                });
        })?;
        total("with_frame", &d, || {
            let _ = Marbles::with_frame(&sch, Duration::from_secs(3600)).parse(&d);
        })?;
    }
}
