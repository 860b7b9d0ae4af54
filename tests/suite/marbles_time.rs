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

// ======================================================================= sample_with (sample)

#[test]
fn sample_with_takes_the_latest_value_at_each_notification() {
    let (_, m) = setup();
    let e1 = m.hot("  ---a----b---c----------d-----|   ");
    let e2 = m.hot("  -----x----------x---x------x---| ");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("-----a----------c----------d-|   ");
    e1.assert_subscriptions(&["^----------------------------!   "]);
    e2.assert_subscriptions(&["^----------------------------!   "]);
}

#[test]
fn sample_with_nothing_to_sample() {
    let (_, m) = setup();
    let e1 = m.hot("----a-^------------|");
    let e2 = m.hot("      -----x-------|");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("      -------------|");
    e1.assert_subscriptions(&["      ^------------!"]);
    e2.assert_subscriptions(&["      ^------------!"]);

    let (_, m) = setup();
    let e1 = m.hot("  ----a-^------b-----|");
    let e2 = m.hot("        -----x--------");
    m.expect(e1.sample_with(e2.clone()))
        .to_be("      -------------|");
    e2.assert_subscriptions(&["      ^------------!"]);
}

#[test]
fn sample_with_a_completed_notifier_samples_no_more() {
    let (_, m) = setup();
    let e1 = m.hot("  ----a-^------b----------|");
    let e2 = m.hot("        -----x-----|       ");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("      ------------------|");
    e1.assert_subscriptions(&["      ^-----------------!"]);
    e2.assert_subscriptions(&["      ^----------!       "]);

    let (_, m) = setup();
    let e1 = m.hot("  ----a----b----c----d----e----f---|");
    let e2 = m.hot("  ------x-|                         ");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("------a--------------------------|");
    e1.assert_subscriptions(&["^--------------------------------!"]);
    e2.assert_subscriptions(&["^-------!                         "]);

    let (_, m) = setup();
    let e1 = m.hot("  ----a----b----c----d----e----f----");
    let e2 = m.hot("  ------x-|                         ");
    let unsub = "     ----------------------------------!";
    m.expect_subscribed(e1.clone().sample_with(e2.clone()), unsub)
        .to_be("------a---------------------------");
    e1.assert_subscriptions(&["^---------------------------------!"]);
}

#[test]
fn sample_with_unsubscribed_early() {
    let (_, m) = setup();
    let e1 = m.hot("  ----a-^--b----c----d----e----f----|          ");
    let e2 = m.hot("        -----x----------x----------x----------|");
    let unsub = "           --------------!                        ";
    m.expect_subscribed(e1.clone().sample_with(e2.clone()), unsub)
        .to_be("      -----b---------                        ");
    e1.assert_subscriptions(&["      ^-------------!                        "]);
    e2.assert_subscriptions(&["      ^-------------!                        "]);
}

#[test]
fn sample_with_samples_a_new_value_even_if_equal() {
    let (_, m) = setup();
    let e1 = m.hot("  ----a----b----c----c----e----f----|  ");
    let e2 = m.hot("  ------x-x------xx-x---x----x--------|");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("------a--------c------c----e------|  ");
    e1.assert_subscriptions(&["^---------------------------------!  "]);
    e2.assert_subscriptions(&["^---------------------------------!  "]);
}

#[test]
fn sample_with_errors() {
    let (_, m) = setup();
    let e1 = m.hot("  ----a-^--b----c----d----#                    ");
    let e2 = m.hot("        -----x----------x----------x----------|");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("      -----b----------d-#                    ");
    e1.assert_subscriptions(&["      ^-----------------!                    "]);
    e2.assert_subscriptions(&["      ^-----------------!                    "]);

    let (_, m) = setup();
    let e1 = m.hot("  --a-----|");
    let e2 = m.hot("  ----#    ");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("----#    ");
    e1.assert_subscriptions(&["^---!    "]);
    e2.assert_subscriptions(&["^---!    "]);

    let (_, m) = setup();
    let e1 = m.hot("  #              ");
    let e2 = m.hot("  ------x-------|");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("#              ");
    e1.assert_subscriptions(&["(^!)"]);
    e2.assert_subscriptions(&["(^!)"]);
}

#[test]
fn sample_with_ends_with_its_source() {
    let (_, m) = setup();
    let e1 = m.hot("  |              ");
    let e2 = m.hot("  ------x-------|");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("|              ");
    e2.assert_subscriptions(&["(^!)"]);

    let (_, m) = setup();
    let e1 = m.hot("  ----a----b----c----d-|              ");
    let e2 = m.hot("  -----------x----------x------------|");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("-----------b---------|              ");
    e2.assert_subscriptions(&["^--------------------!              "]);

    let (_, m) = setup();
    let e1 = m.hot("  ----a----b----c----d-|");
    let e2 = m.hot("  |                     ");
    m.expect(e1.clone().sample_with(e2.clone()))
        .to_be("---------------------|");
    e2.assert_subscriptions(&["(^!)                  "]);
}

// ======================================================================= buffer_with (buffer)

#[test]
fn buffer_with_closes_and_reopens_buffers() {
    let (_, m) = setup();
    let a = m.hot("   -a-b-c-d-e-f-g-h-i-|");
    let b = m.hot("   -----B-----B-----B-|");
    m.expect(a.buffer_with(b)).to_be_with(
        "-----x-----y-----z-(F|)",
        [
            ('x', vec!['a', 'b', 'c']),
            ('y', vec!['d', 'e', 'f']),
            ('z', vec!['g', 'h', 'i']),
            ('F', vec![]),
        ],
    );
}

#[test]
fn buffer_with_a_completed_notifier_emits_the_rest_at_the_end() {
    let (_, m) = setup();
    let a = m.hot("   -a-b-c-d-e-f-g-h-i-|");
    let b = m.hot("   -----B-----B--|");
    m.expect(a.buffer_with(b)).to_be_with(
        "-----x-----y-------(F|)",
        [
            ('x', vec!['a', 'b', 'c']),
            ('y', vec!['d', 'e', 'f']),
            ('F', vec!['g', 'h', 'i']),
        ],
    );

    let (_, m) = setup();
    let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|");
    let subs = "           ^-------------------------------!";
    let b = m.hot("--------^--a-------b---cd|               ");
    m.expect(a.clone().buffer_with(b)).to_be_with(
        "          ---a-------b---cd---------------(F|)",
        [
            ('a', vec!['3']),
            ('b', vec!['4', '5']),
            ('c', vec!['6']),
            ('d', vec![]),
            ('F', vec!['7', '8', '9', '0']),
        ],
    );
    a.assert_subscriptions(&[subs]);
}

#[test]
fn buffer_with_emits_everything_when_the_source_completes_first() {
    let (_, m) = setup();
    let source = m.hot("---^---a---b---c---d---e--f----|");
    let closer = m.hot("---^-------------B----------------");
    m.expect(source.clone().buffer_with(closer.clone()))
        .to_be_with(
            "   --------------x-------------(F|)",
            [('x', vec!['a', 'b', 'c']), ('F', vec!['d', 'e', 'f'])],
        );
    source.assert_subscriptions(&["   ^---------------------------!"]);
    closer.assert_subscriptions(&["   ^---------------------------!"]);
}

#[test]
fn buffer_with_empty_sources() {
    let (_, m) = setup();
    m.expect(m.cold("|").buffer_with(m.cold("|")))
        .to_be_with("(F|)", [('F', vec![])]);
    let (_, m) = setup();
    m.expect(m.cold("|").buffer_with(m.hot("-----a-----")))
        .to_be_with("(F|)", [('F', vec![])]);
    let (_, m) = setup();
    let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|");
    m.expect(a.buffer_with(m.cold("|"))).to_be_with(
        "       --------------------------------(F|)",
        [('F', vec!['3', '4', '5', '6', '7', '8', '9', '0'])],
    );
    let (_, m) = setup();
    m.expect(m.cold("|").buffer_with(m.cold("-")))
        .to_be_with("(F|)", [('F', vec![])]);
}

#[test]
fn buffer_with_each_notification() {
    let (_, m) = setup();
    let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|");
    let b = m.hot("--------^--a-------b---cd---------e---f---|");
    m.expect(a.buffer_with(b)).to_be_with(
        "          ---a-------b---cd---------e---f-(F|)",
        [
            ('a', vec!['3']),
            ('b', vec!['4', '5']),
            ('c', vec!['6']),
            ('d', vec![]),
            ('e', vec!['7', '8', '9']),
            ('f', vec!['0']),
            ('F', vec![]),
        ],
    );
}

#[test]
fn buffer_with_errors() {
    let none: [(char, Vec<char>); 0] = [];
    let (_, m) = setup();
    m.expect(m.hot("---^--a--").buffer_with(m.cold("#")))
        .to_be_with("#", none.clone());
    let (_, m) = setup();
    m.expect(m.cold("#").buffer_with(m.hot("---^--a--")))
        .to_be_with("#", none.clone());
    let (_, m) = setup();
    m.expect(m.hot("---^-------#").buffer_with(m.hot("---^---a----")))
        .to_be_with("    ----a---#", [('a', vec![])]);

    let (_, m) = setup();
    let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|");
    let b = m.hot("--------^----------------#");
    m.expect(a.clone().buffer_with(b))
        .to_be_with("          -----------------#", none);
    a.assert_subscriptions(&["         ^----------------!"]);

    let (_, m) = setup();
    let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|");
    let b = m.hot("--------^--a-------b---c-#");
    m.expect(a.clone().buffer_with(b)).to_be_with(
        "          ---a-------b---c-#",
        [('a', vec!['3']), ('b', vec!['4', '5']), ('c', vec!['6'])],
    );
    a.assert_subscriptions(&["         ^----------------!"]);
}

#[test]
fn buffer_with_unsubscribed_early() {
    let (_, m) = setup();
    let a = m.hot("--1--2--^--3--4--5---6----7--8--9---0---|");
    let unsub = "          --------------!                  ";
    let b = m.hot("--------^--a-------b---cd|               ");
    m.expect_subscribed(a.clone().buffer_with(b.clone()), unsub)
        .to_be_with(
            "          ---a-------b---                  ",
            [('a', vec!['3']), ('b', vec!['4', '5'])],
        );
    a.assert_subscriptions(&["         ^-------------!                  "]);
    b.assert_subscriptions(&["         ^-------------!                  "]);

    let (_, m) = setup();
    let a = m.hot("   -a-b-c-d-e-f-g-h-i-|");
    let b = m.hot("   -----1-----2-----3-|");
    m.expect(a.buffer_with(b.clone()).take(1))
        .to_be_with("-----(x|)", [('x', vec!['a', 'b', 'c'])]);
    // The notifier is disposed at frame 5, as `take` completes, as in RxJS: the merge core
    // that serialises the two asks downstream whether it still wants values after each
    // delivery too.
    b.assert_subscriptions(&["^----!"]);
}

// ============================= buffer_with_time_or_count (bufferTime with a maxBufferSize)

#[test]
fn buffer_with_time_or_count_closes_full_buffers_early() {
    let (sch, m) = setup();
    let e1 = m.hot("  ---a---b---c---d---e---f---g-----|   ");
    let t = m.time("  ----------|                          ");
    //                       ----------|
    //                               ----------|
    //                                       ----------|
    m.expect(e1.clone().buffer_with_time_or_count(t, 2, sch.clone()))
        .to_be_with(
            "-------w-------x-------y---------(z|)",
            [
                ('w', vec!['a', 'b']),
                ('x', vec!['c', 'd']),
                ('y', vec!['e', 'f']),
                ('z', vec!['g']),
            ],
        );
    e1.assert_subscriptions(&["^--------------------------------!   "]);
}

#[test]
fn buffer_with_time_or_count_closes_by_time_or_count() {
    let (sch, m) = setup();
    let e1 = m.hot("  ---a---b---c---d---e---f---g-----|   ");
    let t = m.time("  ----------|                          ");
    //                          ---------|---------|---------|
    m.expect(e1.clone().buffer_with_time_or_count(t, 3, sch.clone()))
        .to_be_with(
            "----------w--------x---------y---(z|)",
            [
                ('w', vec!['a', 'b']),
                ('x', vec!['c', 'd', 'e']),
                ('y', vec!['f', 'g']),
                ('z', vec![]),
            ],
        );
    e1.assert_subscriptions(&["^--------------------------------!   "]);
}

// ============================== share_replay_retained (shareReplay, refCount: false)

#[test]
fn share_replay_retained_mirrors_a_source() {
    let (_, m) = setup();
    let source = m.cold("--1-2---3-4--5-|");
    m.expect(source.clone().share_replay_retained(1))
        .to_be("--1-2---3-4--5-|");
    source.assert_subscriptions(&["^--------------!"]);
}

#[test]
fn share_replay_retained_multicasts_with_a_buffer_of_one() {
    let (_, m) = setup();
    let source = m.cold("    -1-2-3----4-|");
    let shared = source.clone().share_replay_retained(1);
    let s1 = m.hot("a|           ");
    let s2 = m.hot("----b|       ");
    let s3 = m.hot("--------c|   ");
    let (a, b, c) = (shared.clone(), shared.clone(), shared);
    let e1 = m.expect(s1.flat_map(move |_| a.clone()));
    let e2 = m.expect(s2.flat_map(move |_| b.clone()));
    let e3 = m.expect(s3.flat_map(move |_| c.clone()));
    e1.to_be("-1-2-3----4-|");
    e2.to_be("----23----4-|");
    e3.to_be("--------3-4-|");
    source.assert_subscriptions(&["^-----------!"]);
}

#[test]
fn share_replay_retained_multicasts_with_a_buffer_of_two() {
    let (_, m) = setup();
    let source = m.cold("    -1-2-----3------4-|");
    let shared = source.clone().share_replay_retained(2);
    let s1 = m.hot("a|                 ");
    let s2 = m.hot("----b|             ");
    let s3 = m.hot("-----------c|      ");
    let (a, b, c) = (shared.clone(), shared.clone(), shared);
    let e1 = m.expect(s1.flat_map(move |_| a.clone()));
    let e2 = m.expect(s2.flat_map(move |_| b.clone()));
    let e3 = m.expect(s3.flat_map(move |_| c.clone()));
    e1.to_be("-1-2-----3------4-|");
    e2.to_be("----(12)-3------4-|");
    e3.to_be("-----------(23)-4-|");
    source.assert_subscriptions(&["^-----------------!"]);
}

#[test]
fn share_replay_retained_multicasts_an_error() {
    let (_, m) = setup();
    let source = m.cold("    -1-2-3----4-#");
    let shared = source.clone().share_replay_retained(1);
    let s1 = m.hot("a|           ");
    let s2 = m.hot("----b|       ");
    let s3 = m.hot("--------c|   ");
    let (a, b, c) = (shared.clone(), shared.clone(), shared);
    let e1 = m.expect(s1.flat_map(move |_| a.clone()));
    let e2 = m.expect(s2.flat_map(move |_| b.clone()));
    let e3 = m.expect(s3.flat_map(move |_| c.clone()));
    e1.to_be("-1-2-3----4-#");
    e2.to_be("----23----4-#");
    e3.to_be("--------3-4-#");
    source.assert_subscriptions(&["^-----------!"]);
}

#[test]
fn share_replay_retained_empty_never_and_failing_sources() {
    let (_, m) = setup();
    let source = m.cold("|");
    m.expect(source.clone().share_replay_retained(1)).to_be("|");
    source.assert_subscriptions(&["(^!)"]);
    let (_, m) = setup();
    let source = m.cold("#");
    m.expect(source.clone().share_replay_retained(1)).to_be("#");
    source.assert_subscriptions(&["(^!)"]);
    let (_, m) = setup();
    let source = m.cold("-");
    m.expect_subscribed(source.clone().share_replay_retained(1), "^!")
        .to_be("-");
    // RxJS: `^`, the source stays subscribed with nobody left.
    source.assert_subscriptions(&["^"]);
}

#[test]
fn share_replay_retained_replays_after_the_source_completed() {
    let (_, m) = setup();
    let source = m.cold("    -1-2-----3-|        ");
    let shared = source.clone().share_replay_retained(2);
    let s1 = m.hot("a|                  ");
    let s2 = m.hot("----b|              ");
    let s3 = m.hot("---------------(c|) ");
    let (a, b, c) = (shared.clone(), shared.clone(), shared);
    let e1 = m.expect(s1.flat_map(move |_| a.clone()));
    let e2 = m.expect(s2.flat_map(move |_| b.clone()));
    let e3 = m.expect(s3.flat_map(move |_| c.clone()));
    e1.to_be("-1-2-----3-|        ");
    e2.to_be("----(12)-3-|        ");
    e3.to_be("---------------(23|)");
    source.assert_subscriptions(&["^----------!        "]);
}

#[test]
fn share_replay_retained_restarts_after_an_error() {
    let (_, m) = setup();
    let source = m.cold("    -1-2-----3-#               ");
    let shared = source.clone().share_replay_retained(2);
    let s1 = m.hot("a|                         ");
    let s2 = m.hot("----b|                     ");
    let s3 = m.hot("---------------(c|)        ");
    let (a, b, c) = (shared.clone(), shared.clone(), shared);
    let e1 = m.expect(s1.flat_map(move |_| a.clone()));
    let e2 = m.expect(s2.flat_map(move |_| b.clone()));
    let e3 = m.expect(s3.flat_map(move |_| c.clone()));
    e1.to_be("-1-2-----3-#               ");
    e2.to_be("----(12)-3-#               ");
    e3.to_be("----------------1-2-----3-#");
    source.assert_subscriptions(&["^----------!               ", "---------------^----------!"]);
}

#[test]
fn share_replay_retained_does_not_restart_when_subscribers_leave() {
    let (_, m) = setup();
    let source = m.cold("a-b-c-d-e-f-g-h-i-j");
    let shared = source.clone().share_replay_retained(1);
    let first = m.expect_subscribed(shared.clone(), "^------!           ");
    let second = m.expect_subscribed(shared, "-----------^-------!");
    first.to_be("a-b-c-d-           ");
    second.to_be("-----------fg-h-i-j");
    source.assert_subscriptions(&["^------------------"]);
}

// ==================================================================== timer_at (timer(date))

#[test]
fn timer_at_emits_once_at_the_instant() {
    let (sch, m) = setup();
    let due = sch.now() + m.time("----|");
    m.expect(rx::source::timer_at(due, sch.clone()).map(|_| 'a'))
        .to_be("----(a|)");
}

#[test]
fn timer_at_an_instant_past_emits_at_once() {
    let (sch, m) = setup();
    let due = sch.now();
    m.expect(rx::source::timer_at(due, sch.clone()).map(|_| 'a'))
        .to_be("(a|)");
}

// ======================================================= debounce_with (debounce(selector))

#[test]
fn debounce_with_a_cold_duration() {
    let (_, m) = setup();
    let e1 = m.hot("  -a----bc----d-ef----|");
    let e2 = m.cold("  ---x                ");
    let d = e2.clone();
    m.expect(e1.clone().debounce_with(move |_| d.clone()))
        .to_be("----a-----c-------f-|");
    e1.assert_subscriptions(&["^-------------------!"]);
    e2.assert_subscriptions(&[
        "-^--!                ",
        "------^!             ",
        "-------^--!          ",
        "------------^-!      ",
        "--------------^!     ",
        "---------------^--!  ",
    ]);
}

#[test]
fn debounce_with_a_timer_per_value() {
    let (sch, m) = setup();
    let e1 = m.hot("  --a--b--c--d---------|");
    let s = sch.clone();
    m.expect(
        e1.clone()
            .debounce_with(move |_| rx::source::timer(ms(2), s.clone())),
    )
    .to_be("----a--b--c--d-------|");
    e1.assert_subscriptions(&["^--------------------!"]);

    let (sch, m) = setup();
    let e1 = m.hot("  --a--bc--d----|");
    let s = sch.clone();
    m.expect(e1.debounce_with(move |_| rx::source::timer(ms(2), s.clone())))
        .to_be("----a---c--d--|");

    let (sch, m) = setup();
    let e1 = m.hot("  ---a---b---c---d---e|");
    let s = sch.clone();
    m.expect(e1.debounce_with(move |_| rx::source::timer(ms(4), s.clone())))
        .to_be("--------------------(e|)");

    let (sch, m) = setup();
    let e1 = m.hot("  --a--b--c--d---------#");
    let s = sch.clone();
    m.expect(e1.debounce_with(move |_| rx::source::timer(ms(2), s.clone())))
        .to_be("----a--b--c--d-------#");

    let (sch, m) = setup();
    let e1 = m.hot("  --a--b--c--d-#");
    let s = sch.clone();
    m.expect(e1.debounce_with(move |_| rx::source::timer(ms(5), s.clone())))
        .to_be("-------------#");
}

#[test]
fn debounce_with_a_scalar_duration() {
    let (_, m) = setup();
    let e1 = m.hot("  --a--bc--d----|");
    m.expect(e1.debounce_with(|_| rx::source::just(0)))
        .to_be("--a--bc--d----|");
}

#[test]
fn debounce_with_terminations() {
    let (sch, m) = setup();
    let s = sch.clone();
    let e1 = m.hot("  -----|");
    m.expect(
        e1.clone()
            .debounce_with(move |_| rx::source::timer(ms(2), s.clone())),
    )
    .to_be("-----|");
    e1.assert_subscriptions(&["^----!"]);
    let (sch, m) = setup();
    let s = sch.clone();
    let e1 = m.cold("|");
    m.expect(
        e1.clone()
            .debounce_with(move |_| rx::source::timer(ms(2), s.clone())),
    )
    .to_be("|");
    e1.assert_subscriptions(&["(^!)"]);
    let (sch, m) = setup();
    let s = sch.clone();
    let e1 = m.hot("  -----#");
    m.expect(e1.debounce_with(move |_| rx::source::timer(ms(2), s.clone())))
        .to_be("-----#");
    let (sch, m) = setup();
    let s = sch.clone();
    let e1 = m.cold("#");
    m.expect(
        e1.clone()
            .debounce_with(move |_| rx::source::timer(ms(2), s.clone())),
    )
    .to_be("#");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn debounce_with_unsubscribed_early() {
    let (sch, m) = setup();
    let s = sch.clone();
    let e1 = m.hot("  --a--bc--d----|");
    let unsub = "     -------!       ";
    m.expect_subscribed(
        e1.clone()
            .debounce_with(move |_| rx::source::timer(ms(2), s.clone())),
        unsub,
    )
    .to_be("----a---       ");
    e1.assert_subscriptions(&["^------!       "]);
}

#[test]
fn debounce_with_a_duration_emitting_several_times() {
    let (_, m) = setup();
    let e1 = m.hot("  ----a--b--c----d-----e-------|");
    let selector = m.cold("--x-y-");
    let d = selector.clone();
    m.expect(e1.clone().debounce_with(move |_| d.clone()))
        .to_be("------a--b--c----d-----e-----|");
    e1.assert_subscriptions(&["^----------------------------!"]);
    selector.assert_subscriptions(&[
        "----^-!                      ",
        "-------^-!                   ",
        "----------^-!                ",
        "---------------^-!           ",
        "---------------------^-!     ",
    ]);
}

#[test]
fn debounce_with_a_failing_duration() {
    let (_, m) = setup();
    let e1 = m.hot("  --------a--------b--------c---------|");
    let selectors = std::sync::Mutex::new(std::collections::VecDeque::from([
        m.cold("                  -x-y-                        "),
        m.cold("                           --x-y-              "),
        m.cold("                                    ---#       "),
    ]));
    let durations: Vec<_> = selectors.lock().unwrap().iter().cloned().collect();
    m.expect(
        e1.clone()
            .debounce_with(move |_| selectors.lock().unwrap().pop_front().unwrap()),
    )
    .to_be("---------a---------b---------#       ");
    e1.assert_subscriptions(&["^----------------------------!       "]);
    durations[0].assert_subscriptions(&["--------^!                           "]);
    durations[1].assert_subscriptions(&["-----------------^-!                 "]);
    durations[2].assert_subscriptions(&["--------------------------^--!       "]);
}

// ======================================================= window_with_time (windowTime(span))

#[test]
fn window_with_time_emits_a_window_per_span() {
    let (sch, m) = setup();
    let source = m.hot("--1--2--^--a--b--c--d--e--f--g--h--|");
    let t = m.time("                ----------|                 ");
    let names = std::sync::Arc::new(std::sync::Mutex::new(vec!['z', 'y', 'x']));
    let n = names.clone();
    // The windows as they open...
    m.expect(
        source
            .clone()
            .window_with_time(t, sch.clone())
            .map(move |w| {
                w.subscribe(|_| {});
                n.lock().unwrap().pop().unwrap()
            }),
    )
    .to_be("        x---------y---------z------|");
    source.assert_subscriptions(&["        ^--------------------------!"]);

    // ...and what each holds when it closes: x = ---a--b--c|, y = --d--e--f-|, z = -g--h--|.
    let (sch, m) = setup();
    let source = m.hot("--1--2--^--a--b--c--d--e--f--g--h--|");
    m.expect(
        source
            .window_with_time(t, sch.clone())
            .flat_map(|w| w.to_vec()),
    )
    .to_be_with(
        "        ----------x---------y------(z|)",
        [
            ('x', vec!['a', 'b', 'c']),
            ('y', vec!['d', 'e', 'f']),
            ('z', vec!['g', 'h']),
        ],
    );
}

#[test]
fn window_with_time_an_empty_source_gives_one_empty_window() {
    let (sch, m) = setup();
    let source = m.cold("|");
    m.expect(
        source
            .clone()
            .window_with_time(ms(5), sch.clone())
            .flat_map(|w| w.to_vec()),
    )
    .to_be_with("(w|)", [('w', vec![])]);
    source.assert_subscriptions(&["(^!)"]);
}

// ========================================================== delay_until (delay(date))

#[test]
fn delay_until_holds_values_until_the_instant() {
    let (sch, m) = setup();
    let e1 = m.hot("  --a--a---a----a----a------------b---b---b---b--|");
    let t = m.time("  --------------------|                           ");
    m.expect(e1.clone().delay_until(sch.now() + t, sch.clone()))
        .to_be("--------------------(aaaaa)-----b---b---b---b--|");
    e1.assert_subscriptions(&["^----------------------------------------------!"]);
}

#[test]
fn delay_until_an_instant_past_delays_nothing() {
    let (sch, m) = setup();
    let e1 = m.hot("  --a--a---a----a----a------------b---b---b---b--|");
    m.expect(e1.delay_until(sch.now(), sch.clone()))
        .to_be("--a--a---a----a----a------------b---b---b---b--|");
}

#[test]
fn delay_until_an_instant_after_the_source_ends() {
    let (sch, m) = setup();
    let e1 = m.hot("---^--a-----a---a-----a---|             ");
    let t = m.time("   ------------------------------|      ");
    m.expect(e1.clone().delay_until(sch.now() + t, sch.clone()))
        .to_be("   ------------------------------(aaaa|)");
    e1.assert_subscriptions(&["   ^----------------------!             "]);
}

#[test]
fn delay_until_errors_pass_at_once() {
    let (sch, m) = setup();
    let e1 = m.hot("  --a--a---a-----#     ");
    let t = m.time("  --------------------|");
    m.expect(e1.clone().delay_until(sch.now() + t, sch.clone()))
        .to_be("---------------#     ");
    e1.assert_subscriptions(&["^--------------!     "]);

    let (sch, m) = setup();
    let e1 = m.hot("---^---a--a---a---a--------b---b---b--#");
    let t = m.time("   -----------------|                  ");
    m.expect(e1.clone().delay_until(sch.now() + t, sch.clone()))
        .to_be("   -----------------(aaaa)-b---b---b--#");
    e1.assert_subscriptions(&["   ^----------------------------------!"]);
}

// ==================================================================== window_with_skip (windowCount)
//
// RxJS 7 `spec/operators/windowCount-spec.ts`, with its diagrams. Each window is drawn from
// the frame it opens (the frame of its letter in the outer diagram), as RxJS draws the inner
// cold observables. As in RxJS, the first window opens on subscription and another after
// every `skip`-th value, so the window that opens after the last value completes empty, and
// an empty, silent or failing source gives one window. `window(n)` is checked beside
// `window_with_skip(n, n)` where RxJS leaves `skip` out.

type Recorded =
    std::sync::Arc<std::sync::Mutex<Vec<rx::testing::TimedObserver<char, TestScheduler>>>>;

/// Names the windows `u`, `v`, ... in the order they open, and records each from then on.
fn named_windows<W>(
    sch: &TestScheduler,
    recorded: &Recorded,
) -> impl FnMut(W) -> char + Clone + use<W>
where
    W: Subscribe<rx::testing::TimedObserver<char, TestScheduler>>,
{
    let (sch, recorded) = (sch.clone(), recorded.clone());
    let mut next = 'u';
    move |window| {
        let o = rx::testing::TimedObserver::new(&sch);
        window.subscribe_observer(o.clone());
        recorded.lock().unwrap().push(o);
        let name = next;
        next = if next == 'z' {
            'q'
        } else {
            (next as u8 + 1) as char
        };
        name
    }
}

#[track_caller]
fn assert_windows(m: &Marbles, recorded: &Recorded, expected: &[&str]) {
    let drawn: Vec<String> = recorded
        .lock()
        .unwrap()
        .iter()
        .map(|o| m.render(&o.timeline()))
        .collect();
    assert_eq!(drawn, expected);
}

#[test]
fn window_with_skip_windows_of_three() {
    for skip in [None, Some(3)] {
        let (sch, m) = setup();
        let source = m.hot("---a---b---c---d---e---f---g---h---i---|");
        let recorded = Recorded::default();
        let named = named_windows(&sch, &recorded);
        let result = match skip {
            None => source.clone().window(3).map(named).boxed(),
            Some(skip) => source.clone().window_with_skip(3, skip).map(named).boxed(),
        };
        m.expect(result)
            .to_be("u----------v-----------w-----------x---|");
        source.assert_subscriptions(&["^--------------------------------------!"]);
        assert_windows(
            &m,
            &recorded,
            &[
                "---a---b---(c|)",
                "----d---e---(f|)",
                "----g---h---(i|)",
                "----|",
            ],
        );
    }
}

#[test]
fn window_with_skip_overlapping_windows() {
    let (sch, m) = setup();
    let source = m.hot("^-a--b--c--d--|");
    let recorded = Recorded::default();
    m.expect(
        source
            .clone()
            .window_with_skip(2, 1)
            .map(named_windows(&sch, &recorded)),
    )
    .to_be("u-v--w--x--y--|");
    source.assert_subscriptions(&["^-------------!"]);
    assert_windows(
        &m,
        &recorded,
        &["--a--(b|)", "---b--(c|)", "---c--(d|)", "---d--|", "---|"],
    );
}

#[test]
fn window_with_skip_windows_of_two() {
    for skip in [None, Some(2)] {
        let (sch, m) = setup();
        let source = m.hot("--a--b--c--d--e--f--|");
        let recorded = Recorded::default();
        let named = named_windows(&sch, &recorded);
        let result = match skip {
            None => source.clone().window(2).map(named).boxed(),
            Some(skip) => source.clone().window_with_skip(2, skip).map(named).boxed(),
        };
        m.expect(result).to_be("u----v-----w-----x--|");
        source.assert_subscriptions(&["^-------------------!"]);
        assert_windows(
            &m,
            &recorded,
            &["--a--(b|)", "---c--(d|)", "---e--(f|)", "---|"],
        );
    }
}

#[test]
fn window_with_skip_empty_never_and_failing_sources() {
    let (sch, m) = setup();
    let source = m.cold("|");
    let recorded = Recorded::default();
    m.expect(
        source
            .clone()
            .window_with_skip(2, 1)
            .map(named_windows(&sch, &recorded)),
    )
    .to_be("(u|)");
    source.assert_subscriptions(&["(^!)"]);
    assert_windows(&m, &recorded, &["|"]);

    let (sch, m) = setup();
    let source = m.cold("-");
    let recorded = Recorded::default();
    m.expect(
        source
            .clone()
            .window_with_skip(2, 1)
            .map(named_windows(&sch, &recorded)),
    )
    .to_be("u");
    source.assert_subscriptions(&["^"]);
    assert_windows(&m, &recorded, &[""]);

    let (sch, m) = setup();
    let source = m.cold("#");
    let recorded = Recorded::default();
    m.expect(
        source
            .clone()
            .window_with_skip(2, 1)
            .map(named_windows(&sch, &recorded)),
    )
    .to_be("(u#)");
    source.assert_subscriptions(&["(^!)"]);
    assert_windows(&m, &recorded, &["#"]);
}

#[test]
fn window_with_skip_an_error_ends_every_open_window() {
    let (sch, m) = setup();
    let source = m.hot("--a--b--c--d--e--f--#");
    let recorded = Recorded::default();
    m.expect(
        source
            .clone()
            .window_with_skip(3, 1)
            .map(named_windows(&sch, &recorded)),
    )
    .to_be("u-v--w--x--y--z--q--#");
    source.assert_subscriptions(&["^-------------------!"]);
    assert_windows(
        &m,
        &recorded,
        &[
            "--a--b--(c|)",
            "---b--c--(d|)",
            "---c--d--(e|)",
            "---d--e--(f|)",
            "---e--f--#",
            "---f--#",
            "---#",
        ],
    );
}
