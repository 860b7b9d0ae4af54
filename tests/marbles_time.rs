//! The newer time operators checked with marble diagrams at exact virtual times.
//!
//! The cases are RxJS's own marble tests of the same operators (`spec/operators/*-spec.ts`),
//! with the same diagrams; where this library differs, the test says so. One frame is 1 ms.

use rx::operators::ThrottleConfig;
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::testing::marbles::Marbles;
use std::time::Duration;

fn setup() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

// ============================================================= throttle_with (throttleTime)

const LEADING: ThrottleConfig = ThrottleConfig {
    leading: true,
    trailing: false,
};
const BOTH: ThrottleConfig = ThrottleConfig {
    leading: true,
    trailing: true,
};
const TRAILING: ThrottleConfig = ThrottleConfig {
    leading: false,
    trailing: true,
};

#[test]
fn throttle_with_leading_is_throttle() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a-x-y----b---x-cx---|");
    m.expect(e1.clone().throttle_with(ms(5), LEADING, sch.clone()))
        .to_be("-a--------b-----c----|");
    e1.assert_subscriptions(&["^--------------------!"]);

    let (sch, m) = setup();
    let e1 = m.hot("  abcdefabcdefabcdefabcdefa|");
    m.expect(e1.clone().throttle_with(ms(5), LEADING, sch.clone()))
        .to_be("a-----a-----a-----a-----a|");
    e1.assert_subscriptions(&["^------------------------!"]);
}

#[test]
fn throttle_with_passes_termination_at_once() {
    let (sch, m) = setup();
    m.expect(m.hot("-----|").throttle_with(ms(5), BOTH, sch.clone()))
        .to_be("-----|");
    let (sch, m) = setup();
    m.expect(m.hot("-----#").throttle_with(ms(10), BOTH, sch.clone()))
        .to_be("-----#");
    let (sch, m) = setup();
    let e1 = m.cold("|");
    m.expect(e1.clone().throttle_with(ms(30), BOTH, sch.clone()))
        .to_be("|");
    e1.assert_subscriptions(&["(^!)"]);
    let (sch, m) = setup();
    let e1 = m.cold("#");
    m.expect(e1.clone().throttle_with(ms(30), BOTH, sch.clone()))
        .to_be("#");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn throttle_with_until_unsubscribed_or_failed() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a--(bc)-------d----------------");
    let unsub = "     -------------------------------!";
    m.expect_subscribed(e1.clone().throttle_with(ms(5), LEADING, sch.clone()), unsub)
        .to_be("-a-------------d----------------");
    e1.assert_subscriptions(&["^------------------------------!"]);
    let (sch, m) = setup();
    let e1 = m.hot("  -a--(bc)-------d---------------#");
    m.expect(e1.clone().throttle_with(ms(5), LEADING, sch.clone()))
        .to_be("-a-------------d---------------#");
    e1.assert_subscriptions(&["^------------------------------!"]);
}

#[test]
fn throttle_with_emits_the_first_and_last_value_of_each_window() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a-xy-----b--x--cxxx--|");
    let t = m.time("   ----|                 ");
    //                     ----|----|---|---|
    m.expect(e1.clone().throttle_with(t, BOTH, sch.clone()))
        .to_be("-a---y----b---x---x---(x|)");
    e1.assert_subscriptions(&["^---------------------!"]);
}

#[test]
fn throttle_with_a_single_value_and_trailing() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a--------------------|");
    let t = m.time("   ----|                 ");
    m.expect(e1.throttle_with(t, BOTH, sch.clone()))
        .to_be("-a--------------------|");
    let (sch, m) = setup();
    let e1 = m.hot("  -a--------------------|");
    let t = m.time("   ----|                 ");
    m.expect(e1.throttle_with(t, TRAILING, sch.clone()))
        .to_be("-----a----------------|");
}

#[test]
fn throttle_with_trailing_only_emits_the_last_value_of_each_window() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a-xy-----b--x--cxxx--|");
    let t = m.time("   ----|                 ");
    //                 ----|---|----|---|---|
    m.expect(e1.clone().throttle_with(t, TRAILING, sch.clone()))
        .to_be("-----y--------x---x---(x|)");
    e1.assert_subscriptions(&["^---------------------!"]);
}

#[test]
fn throttle_with_trailing_only_completes_without_a_value_left() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a-xy-----b--x--cxx-|");
    let t = m.time("   ----|               ");
    //                 ----|---|----|---|---|
    m.expect(e1.clone().throttle_with(t, TRAILING, sch.clone()))
        .to_be("-----y--------x---x-|");
    e1.assert_subscriptions(&["^-------------------!"]);
}

// ====================================================================== audit (auditTime)

#[test]
fn audit_emits_the_last_value_of_each_window() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a-x-y----b---x-cx---|");
    let t = m.time("   -----|               ");
    m.expect(e1.clone().audit(t, sch.clone()))
        .to_be("------y--------x-----(x|)");
    e1.assert_subscriptions(&["^--------------------!"]);
}

#[test]
fn audit_many_times() {
    let (sch, m) = setup();
    let e1 = m.hot("  -012-----01234---|");
    let t = m.time("   -----|           ");
    m.expect(e1.clone().audit(t, sch.clone()))
        .to_be("------2-------4--|");
    e1.assert_subscriptions(&["^----------------!"]);
}

#[test]
fn audit_delays_a_slow_source() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a--------b-----c----|");
    let t = m.time("   -----|               ");
    m.expect(e1.clone().audit(t, sch.clone()))
        .to_be("------a--------b-----(c|)");
    e1.assert_subscriptions(&["^--------------------!"]);
}

#[test]
fn audit_a_busy_producer() {
    let (sch, m) = setup();
    let e1 = m.hot("  abcdefabcdefabcdefabcdefa|");
    let t = m.time("  -----|                    ");
    m.expect(e1.clone().audit(t, sch.clone()))
        .to_be("-----f-----f-----f-----f-----(a|)");
    e1.assert_subscriptions(&["^------------------------!"]);
}

#[test]
fn audit_passes_termination_of_a_silent_source() {
    let (sch, m) = setup();
    let e1 = m.hot("  -----|");
    m.expect(e1.clone().audit(ms(2), sch.clone()))
        .to_be("-----|");
    e1.assert_subscriptions(&["^----!"]);
    let (sch, m) = setup();
    let e1 = m.hot("  -----#");
    m.expect(e1.clone().audit(ms(2), sch.clone()))
        .to_be("-----#");
    e1.assert_subscriptions(&["^----!"]);
    let (sch, m) = setup();
    let e1 = m.cold("|");
    m.expect(e1.clone().audit(ms(3), sch.clone())).to_be("|");
    e1.assert_subscriptions(&["(^!)"]);
    let (sch, m) = setup();
    let e1 = m.cold("#");
    m.expect(e1.clone().audit(ms(3), sch.clone())).to_be("#");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn audit_until_unsubscribed_or_failed() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a--(bc)-------d----------------");
    let t = m.time("   -----|                         ");
    let unsub = "     -------------------------------!";
    m.expect_subscribed(e1.clone().audit(t, sch.clone()), unsub)
        .to_be("------c-------------d-----------");
    e1.assert_subscriptions(&["^------------------------------!"]);
    let (sch, m) = setup();
    let e1 = m.hot("  -a--(bc)-------d---------------#");
    m.expect(e1.clone().audit(t, sch.clone()))
        .to_be("------c-------------d----------#");
    e1.assert_subscriptions(&["^------------------------------!"]);
}
