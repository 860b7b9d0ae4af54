//! Time and combining operators checked with marble diagrams at exact virtual times.
//!
//! Most cases are RxJS's own marble tests of the same operators (`spec/operators/*-spec.ts`),
//! with the same diagrams; where this library follows RxJava instead and the outcome differs,
//! the test says so and checks the RxJava behaviour. One frame is 1 ms.

use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::testing::marbles::Marbles;
use rx::{Error, Notification};
use std::time::Duration;

fn setup() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

// ==================================================================== debounce (debounceTime)

#[test]
fn debounce_emits_a_value_once_the_source_is_quiet() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a--bc--d---|");
    let t = m.time("  --|");
    m.expect(e1.clone().debounce(t, sch.clone()))
        .to_be("---a---c--d-|");
    e1.assert_subscriptions(&["^-----------!"]);
}

#[test]
fn debounce_delays_isolated_values_and_flushes_the_last_on_completion() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a--------b------c----|");
    m.expect(e1.clone().debounce(ms(5), sch.clone()))
        .to_be("------a--------b------(c|)");
    e1.assert_subscriptions(&["^---------------------!"]);
}

#[test]
fn debounce_keeps_the_last_of_a_group() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a--(bc)-----------d-------|");
    m.expect(e1.debounce(ms(5), sch.clone()))
        .to_be("---------c--------------d--|");
}

#[test]
fn debounce_restarts_when_a_value_arrives_at_the_deadline() {
    // The value due at frame 3 arrives at frame 3: as in RxJS, the source's notification
    // comes before the operator's timer, so `a` is replaced.
    let (sch, m) = setup();
    m.expect(m.hot("-a-b----|").debounce(ms(2), sch.clone()))
        .to_be("-----b--|");
}

#[test]
fn debounce_drops_everything_while_the_source_keeps_emitting() {
    let (sch, m) = setup();
    let e1 = m.hot("  --a--b--c--d--e--f--g--h-|");
    m.expect(e1.debounce(ms(4), sch.clone()))
        .to_be("-------------------------(h|)");
    let (sch, m) = setup();
    let e1 = m.hot("  --a--b--c--d--e--f--g--h-#");
    m.expect(e1.clone().debounce(ms(4), sch.clone()))
        .to_be("-------------------------#");
    e1.assert_subscriptions(&["^------------------------!"]);
}

#[test]
fn debounce_passes_empty_and_failing_sources_at_once() {
    let (sch, m) = setup();
    let e1 = m.cold("|");
    m.expect(e1.clone().debounce(ms(1), sch.clone())).to_be("|");
    e1.assert_subscriptions(&["(^!)"]);
    let (sch, m) = setup();
    let e1 = m.cold("#");
    m.expect(e1.clone().debounce(ms(1), sch.clone())).to_be("#");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn debounce_unsubscribed_early_lets_go_of_its_source() {
    let (sch, m) = setup();
    let e1 = m.hot("  --a--bc--d----|");
    let unsub = "     -------!       ";
    m.expect_subscribed(e1.clone().debounce(ms(2), sch.clone()), unsub)
        .to_be("----a---");
    e1.assert_subscriptions(&["^------!"]);
}

// ==================================================================== throttle (throttleTime)

#[test]
fn throttle_emits_the_first_value_of_each_window() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a-x-y----b---x-cx---|");
    m.expect(e1.clone().throttle(ms(5), sch.clone()))
        .to_be("-a--------b-----c----|");
    e1.assert_subscriptions(&["^--------------------!"]);
}

#[test]
fn throttle_mirrors_a_slow_source() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a--------b-----c----|");
    m.expect(e1.throttle(ms(5), sch.clone()))
        .to_be("-a--------b-----c----|");
}

#[test]
fn throttle_a_busy_producer() {
    // A window of 5 frames opened at frame 0 ends at frame 5, where `f` arrives: as in RxJS,
    // the source's notification of that frame comes before the window's timer, so `f` is
    // dropped and `a` at frame 6 opens the next window.
    let (sch, m) = setup();
    let e1 = m.hot("  abcdefabcdefabcdefabcdefa|");
    m.expect(e1.throttle(ms(5), sch.clone()))
        .to_be("a-----a-----a-----a-----a|");
}

#[test]
fn throttle_passes_termination_at_once() {
    let (sch, m) = setup();
    m.expect(m.hot("-----|").throttle(ms(5), sch.clone()))
        .to_be("-----|");
    let (sch, m) = setup();
    m.expect(m.hot("-----#").throttle(ms(10), sch.clone()))
        .to_be("-----#");
    let (sch, m) = setup();
    let e1 = m.cold("|");
    m.expect(e1.clone().throttle(ms(30), sch.clone()))
        .to_be("|");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn throttle_until_unsubscribed_or_failed() {
    let (sch, m) = setup();
    let e1 = m.hot("  -a--(bc)-------d----------------");
    let unsub = "     -------------------------------!";
    m.expect_subscribed(e1.clone().throttle(ms(5), sch.clone()), unsub)
        .to_be("-a-------------d----------------");
    e1.assert_subscriptions(&["^------------------------------!"]);
    let (sch, m) = setup();
    let e1 = m.hot("  -a--(bc)-------d---------------#");
    m.expect(e1.throttle(ms(5), sch.clone()))
        .to_be("-a-------------d---------------#");
}

// ==================================================================== sample (sampleTime)

#[test]
fn sample_emits_the_latest_value_at_each_tick() {
    let (sch, m) = setup();
    let e1 = m.hot("     a---b-c---------d--e---f-g-h--|");
    let period = m.time("-------|");
    m.expect(e1.clone().sample(period, sch.clone()))
        .to_be("-------c-------------e------h-|");
    e1.assert_subscriptions(&["^-----------------------------!"]);
}

#[test]
fn sample_emits_nothing_when_no_value_arrived() {
    let (sch, m) = setup();
    let e1 = m.hot("  ----a-^--b----c--------------f----|");
    let period = m.time("     -----------|");
    m.expect(e1.clone().sample(period, sch.clone()))
        .to_be("      -----------c----------------|");
    e1.assert_subscriptions(&["^---------------------------!"]);
}

#[test]
fn sample_emits_a_new_value_even_when_it_equals_the_last() {
    let (sch, m) = setup();
    let e1 = m.hot("----a-^--b----c----------c---f----|");
    m.expect(e1.sample(ms(11), sch.clone()))
        .to_be("    -----------c----------c-----|");
}

#[test]
fn sample_errors_and_unsubscription() {
    let (sch, m) = setup();
    let e1 = m.hot("----a-^--b----c----d----#");
    m.expect(e1.clone().sample(ms(11), sch.clone()))
        .to_be("    -----------c------#");
    e1.assert_subscriptions(&["^-----------------!"]);

    let (sch, m) = setup();
    let e1 = m.hot("----a-^--b----c----d----e----f----|");
    let unsub = "         ----------------!";
    m.expect_subscribed(e1.clone().sample(ms(11), sch.clone()), unsub)
        .to_be("-----------c-----");
    e1.assert_subscriptions(&["^---------------!"]);
}

#[test]
fn sample_passes_empty_and_failing_sources_at_once() {
    let (sch, m) = setup();
    let e1 = m.cold("|");
    m.expect(e1.clone().sample(ms(5), sch.clone())).to_be("|");
    e1.assert_subscriptions(&["(^!)"]);
    let (sch, m) = setup();
    let e1 = m.cold("#");
    m.expect(e1.clone().sample(ms(5), sch.clone())).to_be("#");
    e1.assert_subscriptions(&["(^!)"]);
}

// ==================================================================== delay

// RxJS's `delay` completes as soon as the source has completed and the delayed values are
// out; this library delays the completion by the same time as the values, as RxJava and
// Rx.NET do. The diagrams below are RxJS's, with the completion moved accordingly.

#[test]
fn delay_shifts_values_and_completion() {
    let (sch, m) = setup();
    let e1 = m.hot("  ---a--b--|");
    let t = m.time("     --|    ");
    m.expect(e1.clone().delay(t, sch.clone()))
        .to_be("-----a--b--|"); // RxJS: -----a--b|
    e1.assert_subscriptions(&["^--------!"]);
}

#[test]
fn delay_shifts_an_empty_completion_too() {
    let (sch, m) = setup();
    m.expect(m.hot("----|").delay(ms(3), sch.clone()))
        .to_be("-------|"); // RxJS: ----|
    let (sch, m) = setup();
    let e1 = m.cold("-a-|");
    m.expect(e1.clone().delay(ms(3), sch.clone()))
        .to_be("----a-|"); // RxJS: ----(a|)
    e1.assert_subscriptions(&["^--!"]);
}

#[test]
fn delay_does_not_delay_errors_and_drops_what_waits() {
    let (sch, m) = setup();
    let e1 = m.hot("  ---a---b---#");
    m.expect(e1.clone().delay(ms(3), sch.clone()))
        .to_be("------a---b#");
    e1.assert_subscriptions(&["^----------!"]);
    let (sch, m) = setup();
    m.expect(m.hot("--a--a-#").delay(ms(20), sch.clone()))
        .to_be("-------#");
}

#[test]
fn delay_unsubscribed_early() {
    let (sch, m) = setup();
    let e1 = m.hot("  ---a---b---------");
    let unsub = "     ----------------!";
    m.expect_subscribed(e1.clone().delay(ms(3), sch.clone()), unsub)
        .to_be("------a---b------");
    e1.assert_subscriptions(&["^---------------!"]);
    let (sch, m) = setup();
    let e1 = m.hot("  ---a---b----");
    m.expect_subscribed(e1.clone().delay(ms(3), sch.clone()), "--------!")
        .to_be("------a--");
    e1.assert_subscriptions(&["^-------!"]);
}

// ==================================================================== timeout

fn timed_out(after: u64) -> Error {
    Error::msg(format!("the source signalled nothing for {after}ms"))
}

#[test]
fn timeout_fails_a_silent_source_and_lets_go_of_it() {
    let (sch, m) = setup();
    let e1 = m.cold(" -------a--b--|");
    let t = m.time("  -----|        ");
    m.expect(e1.clone().timeout(t, sch.clone()))
        .with_error(timed_out(5))
        .to_be("-----#");
    e1.assert_subscriptions(&["^----!"]);
}

#[test]
fn timeout_passes_a_source_that_keeps_emitting() {
    let (sch, m) = setup();
    let e1 = m.hot("  --a--b--c--d--e--|");
    m.expect(e1.clone().timeout(ms(5), sch.clone()))
        .to_be("--a--b--c--d--e--|");
    e1.assert_subscriptions(&["^----------------!"]);
}

#[test]
fn timeout_measures_from_the_previous_value() {
    let (sch, m) = setup();
    let e1 = m.hot("  ---a---b---c------d---e---|");
    m.expect(e1.clone().timeout(ms(5), sch.clone()))
        .with_error(timed_out(5))
        .to_be("---a---b---c----#");
    e1.assert_subscriptions(&["^---------------!"]);
}

#[test]
fn timeout_a_value_at_the_deadline_is_in_time() {
    // The source's notification at frame 5 comes before the timer due at frame 5.
    let (sch, m) = setup();
    m.expect(m.hot("-----a-----|").timeout(ms(5), sch.clone()))
        .with_error(timed_out(5))
        .to_be("-----a----#");
}

#[test]
fn timeout_unsubscribed_early() {
    let (sch, m) = setup();
    let e1 = m.hot("  --a--b--c---d--e--|");
    let unsub = "     ----------!        ";
    m.expect_subscribed(e1.clone().timeout(ms(5), sch.clone()), unsub)
        .to_be("--a--b--c--");
    e1.assert_subscriptions(&["^---------!"]);
}

// ==================================================================== buffer_with_time (bufferTime)

#[test]
fn buffer_with_time_emits_each_window() {
    let (sch, m) = setup();
    let e1 = m.hot("  ---a---b---c---d---e---f---g-----|   ");
    let t = m.time("  ----------|                          ");
    m.expect(e1.clone().buffer_with_time(t, sch.clone()))
        .to_be_with(
            "----------w---------x---------y--(z|)",
            [
                ('w', vec!['a', 'b']),
                ('x', vec!['c', 'd', 'e']),
                ('y', vec!['f', 'g']),
                ('z', vec![]),
            ],
        );
    e1.assert_subscriptions(&["^--------------------------------!"]);
}

#[test]
fn buffer_with_time_long_windows() {
    let (sch, m) = setup();
    let e1 = m.hot("---------a---------b---------c---------d---------e---------g--------|");
    m.expect(e1.buffer_with_time(ms(32), sch.clone()))
        .to_be_with(
            "--------------------------------x-------------------------------y---(z|)",
            [
                ('x', vec!['a', 'b', 'c']),
                ('y', vec!['d', 'e', 'g']),
                ('z', vec![]),
            ],
        );
}

#[test]
fn buffer_with_time_empty_never_and_error() {
    let (sch, m) = setup();
    let e1 = m.cold("|");
    m.expect(e1.clone().buffer_with_time(ms(10), sch.clone()))
        .to_be_with("(b|)", [('b', vec![])]);
    e1.assert_subscriptions(&["(^!)"]);

    let (sch, m) = setup();
    let unsub = "--------------------------------------------!";
    m.expect_subscribed(m.cold("-").buffer_with_time(ms(10), sch.clone()), unsub)
        .to_be_with(
            "----------a---------a---------a---------a----",
            [('a', vec![])],
        );

    let (sch, m) = setup();
    let e1 = m.hot("  ---a---b---c---#");
    m.expect(e1.clone().buffer_with_time(ms(10), sch.clone()))
        .to_be_with("----------w----#", [('w', vec!['a', 'b'])]);
    e1.assert_subscriptions(&["^--------------!"]);
}

#[test]
fn buffer_with_time_then_take_lets_go_of_the_source() {
    let (sch, m) = setup();
    let e1 = m.hot("  ---a---b---c---d---e---f---g-----|");
    m.expect(e1.clone().buffer_with_time(ms(10), sch.clone()).take(2))
        .to_be_with(
            "----------w---------(x|)",
            [('w', vec!['a', 'b']), ('x', vec!['c', 'd', 'e'])],
        );
    e1.assert_subscriptions(&["^-------------------!"]);
}

// ==================================================================== merge_with

#[test]
fn merge_with_interleaves_and_completes_after_both() {
    let (_, m) = setup();
    let e1 = m.hot("  -a--b---|");
    let e2 = m.hot("  --c--d-----|");
    m.expect(e1.clone().merge_with(e2.clone()))
        .to_be("-ac-bd-----|");
    e1.assert_subscriptions(&["^-------!"]);
    e2.assert_subscriptions(&["^----------!"]);
}

#[test]
fn merge_with_fails_with_either_and_lets_go_of_the_other() {
    let (_, m) = setup();
    let e1 = m.hot("  -a--b---#");
    let e2 = m.hot("  --c--d-----|");
    m.expect(e1.clone().merge_with(e2.clone()))
        .to_be("-ac-bd--#");
    e1.assert_subscriptions(&["^-------!"]);
    e2.assert_subscriptions(&["^-------!"]);
}

#[test]
fn merge_with_cold_sources_start_together() {
    let (_, m) = setup();
    let e1 = m.cold("  -a--(b|)");
    let e2 = m.cold("  x----y--z|");
    m.expect_subscribed(e1.clone().merge_with(e2.clone()), "--^")
        .to_be("--xa--by--z|");
    e1.assert_subscriptions(&["--^---!"]);
    e2.assert_subscriptions(&["--^--------!"]);
}

// ==================================================================== switch_map

#[test]
fn switch_map_switches_inner_cold_observables() {
    let (_, m) = setup();
    let x = m.cold("           --a--b--c--d--e--|           ");
    let y = m.cold("                     ---f---g---h---i--|");
    let e1 = m.hot("  ---------x---------y---------|        ");
    let (xs, ys) = (x.clone(), y.clone());
    let result = e1
        .clone()
        .switch_map(move |v| if v == 'x' { xs.clone() } else { ys.clone() });
    m.expect(result)
        .to_be("-----------a--b--c----f---g---h---i--|");
    x.assert_subscriptions(&["---------^---------!                  "]);
    y.assert_subscriptions(&["-------------------^-----------------!"]);
    e1.assert_subscriptions(&["^----------------------------!        "]);
}

#[test]
fn switch_map_unsubscribed_early_lets_go_of_everything() {
    let (_, m) = setup();
    let x = m.cold("           --a--b--c--d--e--|           ");
    let y = m.cold("                     ---f---g---h---i--|");
    let e1 = m.hot("  ---------x---------y---------|        ");
    let unsub = "     ---------------------!                ";
    let (xs, ys) = (x.clone(), y.clone());
    let result = e1
        .clone()
        .switch_map(move |v| if v == 'x' { xs.clone() } else { ys.clone() });
    m.expect_subscribed(result, unsub)
        .to_be("-----------a--b--c----");
    x.assert_subscriptions(&["---------^---------!"]);
    y.assert_subscriptions(&["-------------------^-!"]);
    e1.assert_subscriptions(&["^--------------------!"]);
}

#[test]
fn switch_map_synchronous_switch() {
    let (_, m) = setup();
    let x = m.cold("           --a--b--c--d--e--|   ");
    let y = m.cold("           ---f---g---h---i--|  ");
    let e1 = m.hot("  ---------(xy)----------------|");
    let (xs, ys) = (x.clone(), y.clone());
    let result = e1
        .clone()
        .switch_map(move |v| if v == 'x' { xs.clone() } else { ys.clone() });
    m.expect(result).to_be("------------f---g---h---i----|");
    x.assert_subscriptions(&["---------(^!)"]);
    y.assert_subscriptions(&["---------^-----------------!"]);
}

#[test]
fn switch_map_inner_error_ends_everything() {
    let (_, m) = setup();
    // RxJS's diagram goes on after `#` (`--d--e--|`); here nothing may follow a terminal.
    let x = m.cold("           --a--b--#                   ");
    let y = m.cold("                     ---f---g---h---i--");
    let e1 = m.hot("  ---------x---------y---------|       ");
    let (xs, ys) = (x.clone(), y.clone());
    let result = e1
        .clone()
        .switch_map(move |v| if v == 'x' { xs.clone() } else { ys.clone() });
    m.expect(result).to_be("-----------a--b--#");
    x.assert_subscriptions(&["---------^-------!"]);
    y.assert_subscriptions(&[]);
    e1.assert_subscriptions(&["^----------------!"]);
}

#[test]
fn switch_map_inner_hot_observables() {
    let (_, m) = setup();
    let x = m.hot("   -----a--b--c--d--e--|                 ");
    let y = m.hot("   --p-o-o-p-------------f---g---h---i--|");
    let e1 = m.hot("  ---------x---------y---------|        ");
    let (xs, ys) = (x.clone(), y.clone());
    let result = e1.switch_map(move |v| if v == 'x' { xs.clone() } else { ys.clone() });
    m.expect(result)
        .to_be("-----------c--d--e----f---g---h---i--|");
    x.assert_subscriptions(&["---------^---------!"]);
    y.assert_subscriptions(&["-------------------^-----------------!"]);
}

// ==================================================================== zip

#[test]
fn zip_pairs_in_order_and_ends_with_the_shorter() {
    let (_, m) = setup();
    let e1 = m.hot("---a--b--c--|");
    let e2 = m.hot("------d----e----f---|");
    // `e1` has completed by frame 12 with `c` unpaired; pairing it ends the zip.
    m.expect(e1.clone().zip(e2.clone())).to_be_with(
        "------x----y----(z|)",
        [('x', ('a', 'd')), ('y', ('b', 'e')), ('z', ('c', 'f'))],
    );
    e1.assert_subscriptions(&["^-----------!"]);
    e2.assert_subscriptions(&["^---------------!"]);
}

#[test]
fn zip_ends_when_a_completed_source_has_nothing_left() {
    let (_, m) = setup();
    let e1 = m.hot("--a--b-|");
    let e2 = m.hot("---1------2----3-|");
    m.expect(e1.clone().zip(e2.clone()))
        .to_be_with("---x------(y|)", [('x', ('a', '1')), ('y', ('b', '2'))]);
    e2.assert_subscriptions(&["^---------!"]);
}

#[test]
fn zip_fails_with_either() {
    let (_, m) = setup();
    let e1 = m.hot("--a--b--c--|");
    let e2 = m.hot("---1--#");
    m.expect(e1.clone().zip(e2.clone()))
        .to_be_with("---x--#", [('x', ('a', '1'))]);
    e1.assert_subscriptions(&["^-----!"]);
}

// ==================================================================== combine_latest

#[test]
fn combine_latest_combines_the_latest_of_each() {
    let (_, m) = setup();
    let e1 = m.cold("-a--b-----c-d-e-|");
    let e2 = m.cold("--1--2-3-4---|");
    let result = e1
        .clone()
        .combine_latest(e2.clone())
        .map(|(l, n)| format!("{l}{n}"));
    let s = |v: &str| v.to_string();
    m.expect(result).to_be_with(
        "--A-BC-D-EF-G-H-|",
        [
            ('A', s("a1")),
            ('B', s("b1")),
            ('C', s("b2")),
            ('D', s("b3")),
            ('E', s("b4")),
            ('F', s("c4")),
            ('G', s("d4")),
            ('H', s("e4")),
        ],
    );
    e1.assert_subscriptions(&["^---------------!"]);
    e2.assert_subscriptions(&["^------------!"]);
}

#[test]
fn combine_latest_waits_for_a_value_from_each() {
    let (_, m) = setup();
    let e1 = m.hot("-a-b----c--|");
    let e2 = m.hot("------1------|");
    let result = e1.combine_latest(e2).map(|(l, n)| format!("{l}{n}"));
    m.expect(result).to_be_with(
        "------x-y----|",
        [('x', "b1".to_string()), ('y', "c1".to_string())],
    );
    // A source that completes without a value ends it at once.
    let (_, m) = setup();
    let e1 = m.hot("-a-b----c--|");
    let e2 = m.hot("---|");
    let result = e1
        .clone()
        .combine_latest(e2)
        .map(|(l, n)| format!("{l}{n}"));
    m.expect(result).to_be("---|");
    e1.assert_subscriptions(&["^--!"]);
}

// ==================================================================== take_until

#[test]
fn take_until_takes_values_until_the_notifier_emits() {
    let (_, m) = setup();
    let e1 = m.hot("--a--b--c--d--e--f--g--|");
    let e2 = m.hot("-------------z--|");
    m.expect(e1.clone().take_until(e2.clone()))
        .to_be("--a--b--c--d-|");
    e1.assert_subscriptions(&["^------------!"]);
    e2.assert_subscriptions(&["^------------!"]);
}

#[test]
fn take_until_fails_with_the_notifier() {
    let (_, m) = setup();
    let e1 = m.hot("--a--b--c--d--e--f--g--|");
    let e2 = m.hot("-------------#");
    m.expect(e1.clone().take_until(e2)).to_be("--a--b--c--d-#");
    e1.assert_subscriptions(&["^------------!"]);
}

#[test]
fn take_until_a_notifier_that_completes_completes_it() {
    // RxJS ignores the notifier's completion; this library completes, as RxJava 3 and RPP.
    let (_, m) = setup();
    let e1 = m.hot("--a--b--c--d--e--f--g--|");
    let e2 = m.hot("-------------|");
    m.expect(e1.clone().take_until(e2)).to_be("--a--b--c--d-|"); // RxJS: the whole of e1
    e1.assert_subscriptions(&["^------------!"]);
}

#[test]
fn take_until_source_ending_first_lets_go_of_the_notifier() {
    let (_, m) = setup();
    let e1 = m.hot("--a--b--|");
    let e2 = m.hot("-------------z--|");
    m.expect(e1.take_until(e2.clone())).to_be("--a--b--|");
    e2.assert_subscriptions(&["^-------!"]);
}

// ==================================================================== exact timelines

#[test]
fn exact_times_between_frames() {
    let (sch, m) = setup();
    let source = m
        .cold("a-b|")
        .delay(Duration::from_micros(1500), sch.clone());
    assert_eq!(
        m.expect(source).timeline(),
        [
            (Duration::from_micros(1500), Notification::Next('a')),
            (Duration::from_micros(3500), Notification::Next('b')),
            (Duration::from_micros(4500), Notification::Completed),
        ]
    );
}
