//! `single`, `find`, `start_with_iter`, `end_with_iter`, `sequence_equal`, `partition`,
//! `switch_if_empty` and the `try_` forms checked with marble diagrams at exact virtual
//! times.
//!
//! Most cases are RxJS 7's own marble tests of the same operators
//! (`spec/operators/*-spec.ts`, `spec/observables/partition-spec.ts`), with the same
//! diagrams; the `try_` forms take the cases of `filter`, `scan` and `mergeMap` where the
//! RxJS callback throws, with an `Err` in its place. Where this library differs from RxJS,
//! the test says so. One frame is 1 ms.

use rx::Error;
use rx::operators::{NoElements, TooManyElements};
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::testing::marbles::Marbles;

fn setup() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

const VERDICT: [(char, bool); 2] = [('T', true), ('F', false)];

// ==================================================================== single

#[test]
fn single_fails_at_the_second_value_and_lets_go_of_the_source() {
    let (_, m) = setup();
    let e1 = m.hot("  --a--b--c--|");
    m.expect(e1.clone().single())
        .with_error(Error::new(TooManyElements))
        .to_be("-----#      ");
    e1.assert_subscriptions(&["^----!      "]);
}

#[test]
fn single_fails_on_a_source_that_emits_nothing() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^--|");
    m.expect(e1.clone().single())
        .with_error(Error::new(NoElements))
        .to_be("   ---#");
    e1.assert_subscriptions(&["^--!"]);

    let (_, m) = setup();
    let source = m.cold("|");
    m.expect(source.clone().single())
        .with_error(Error::new(NoElements))
        .to_be("#");
    source.assert_subscriptions(&["(^!)"]);

    let (_, m) = setup();
    let source = m.cold("-------|");
    m.expect(source.clone().single())
        .with_error(Error::new(NoElements))
        .to_be("-------#");
    source.assert_subscriptions(&["^------!"]);

    let (_, m) = setup();
    let source = m.hot("--a--b--^----|");
    m.expect(source.clone().single())
        .with_error(Error::new(NoElements))
        .to_be("        -----#");
    source.assert_subscriptions(&["^----!"]);
}

#[test]
fn single_emits_the_only_value_at_completion() {
    let (_, m) = setup();
    let e1 = m.hot("  --a--|");
    m.expect(e1.clone().single()).to_be("-----(a|)");
    e1.assert_subscriptions(&["^----!"]);
}

#[test]
fn single_unsubscribed_early() {
    let (_, m) = setup();
    let e1 = m.hot("  --a--b--c--|");
    let unsub = "     ----!        ";
    m.expect_subscribed(e1.clone().single(), unsub)
        .to_be("------------");
    e1.assert_subscriptions(&["^---!        "]);
}

#[test]
fn single_passes_the_source_error() {
    let (_, m) = setup();
    let e1 = m.hot("  --a--b^--#");
    m.expect(e1.clone().single()).to_be("      ---#");
    e1.assert_subscriptions(&["^--!"]);
}

// ==================================================================== find

#[test]
fn find_emits_the_first_match_and_completes() {
    let (_, m) = setup();
    let values = [('a', 3), ('b', 9), ('c', 15), ('d', 20)];
    let e1 = m.hot_with("  ---a--b--c--d---|", values);
    m.expect(e1.clone().find(|v| v % 5 == 0))
        .to_be_with("---------(c|)    ", values);
    e1.assert_subscriptions(&["^--------!       "]);
}

#[test]
fn find_emits_nothing_while_the_source_is_silent() {
    let (_, m) = setup();
    let e1 = m.hot("  -");
    m.expect_subscribed(e1.clone().find(|_| true), "^--!")
        .to_be("---");
    e1.assert_subscriptions(&["^--!"]);
}

#[test]
fn find_on_an_empty_source_completes_without_a_value() {
    // RxJS emits `undefined` first (`(x|)`); there is no such value here.
    let (_, m) = setup();
    let e1 = m.cold(" |");
    m.expect(e1.clone().find(|_| true)).to_be("|");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn find_with_a_single_or_several_values() {
    let (_, m) = setup();
    let e1 = m.hot("  --a--|");
    m.expect(e1.find(|v| *v == 'a')).to_be("--(a|)");

    let (_, m) = setup();
    let e1 = m.hot("  --a--b---c-|");
    m.expect(e1.clone().find(|v| *v == 'b'))
        .to_be("-----(b|)   ");
    e1.assert_subscriptions(&["^----!      "]);
}

#[test]
fn find_without_a_match_completes_with_the_source() {
    // RxJS emits `undefined` with the completion (`(x|)`).
    let (_, m) = setup();
    let e1 = m.hot("  --a--b--c--|   ");
    m.expect(e1.clone().find(|v| *v == 'z'))
        .to_be("-----------|   ");
    e1.assert_subscriptions(&["^----------!   "]);
}

#[test]
fn find_unsubscribed_early() {
    let (_, m) = setup();
    let e1 = m.hot("  --a--b--c--|");
    let unsub = "     ------!     ";
    m.expect_subscribed(e1.clone().find(|v| *v == 'z'), unsub)
        .to_be("-------     ");
    e1.assert_subscriptions(&["^-----!     "]);
}

#[test]
fn find_passes_the_source_error() {
    let (_, m) = setup();
    let e1 = m.hot("  --a--b--#");
    m.expect(e1.clone().find(|v| *v == 'z')).to_be("--------#");
    e1.assert_subscriptions(&["^-------!"]);
}

// ==================================================================== startWith

#[test]
fn start_with_iter_prepends_to_cold_and_hot_sources() {
    let (_, m) = setup();
    let e1 = m.cold(" ---a--b--c--|");
    m.expect(e1.clone().start_with_iter(['s']))
        .to_be("s--a--b--c--|");
    e1.assert_subscriptions(&["^-----------!"]);

    let (_, m) = setup();
    let e1 = m.hot("  -----a--|");
    m.expect(e1.clone().start_with_iter(['y', 'z']))
        .to_be("(yz)-a--|");
    e1.assert_subscriptions(&["^-------!"]);
}

#[test]
fn start_with_iter_on_sources_that_end_at_once_or_never() {
    let (_, m) = setup();
    m.expect(m.cold(" |   ").start_with_iter(['x']))
        .to_be("(x|)");
    let (_, m) = setup();
    m.expect(m.cold(" (a|)").start_with_iter(['x']))
        .to_be("(xa|)");
    let (_, m) = setup();
    m.expect(m.hot("  ---|").start_with_iter(['x']))
        .to_be("x--|");
    let (_, m) = setup();
    m.expect_subscribed(m.cold(" - ").start_with_iter(['x']), "^-!")
        .to_be("x-");
    let (_, m) = setup();
    m.expect(m.hot("  -a-|").start_with_iter(Vec::new()))
        .to_be("-a-|");
}

#[test]
fn start_with_iter_then_the_source_error() {
    let (_, m) = setup();
    let e1 = m.hot("  --#");
    m.expect(e1.clone().start_with_iter(['x'])).to_be("x-#");
    e1.assert_subscriptions(&["^-!"]);

    let (_, m) = setup();
    let e1 = m.cold(" #   ");
    m.expect(e1.clone().start_with_iter(['x'])).to_be("(x#)");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn start_with_iter_unsubscribed_early() {
    let (_, m) = setup();
    let e1 = m.hot("  ---a--b----c--d--|");
    let unsub = "     ---------!        ";
    m.expect_subscribed(e1.clone().start_with_iter(['s']), unsub)
        .to_be("s--a--b---        ");
    e1.assert_subscriptions(&["^--------!        "]);
}

// ==================================================================== endWith

#[test]
fn end_with_iter_appends_at_completion() {
    let (_, m) = setup();
    let e1 = m.cold(" ---a--b--c--|   ");
    m.expect(e1.clone().end_with_iter(['s']))
        .to_be("---a--b--c--(s|)");
    e1.assert_subscriptions(&["^-----------!"]);

    let (_, m) = setup();
    let e1 = m.hot("  -----a--|    ");
    m.expect(e1.clone().end_with_iter(['y', 'z']))
        .to_be("-----a--(yz|)");
    e1.assert_subscriptions(&["^-------!"]);
}

#[test]
fn end_with_iter_on_sources_that_end_at_once_or_never() {
    let (_, m) = setup();
    m.expect(m.cold(" |   ").end_with_iter(['x'])).to_be("(x|)");
    let (_, m) = setup();
    m.expect(m.cold(" (a|) ").end_with_iter(['x']))
        .to_be("(ax|)");
    let (_, m) = setup();
    m.expect(m.hot("  ---|   ").end_with_iter(['x']))
        .to_be("---(x|)");
    let (_, m) = setup();
    m.expect_subscribed(m.hot("  ----a-").end_with_iter(['x']), "^-----!")
        .to_be("----a-");
    let (_, m) = setup();
    m.expect(m.hot("  -a-|").end_with_iter(Vec::new()))
        .to_be("-a-|");
}

#[test]
fn end_with_iter_adds_nothing_after_an_error() {
    let (_, m) = setup();
    m.expect(m.hot("  --#").end_with_iter(['x'])).to_be("--#");
    let (_, m) = setup();
    m.expect(m.cold(" #   ").end_with_iter(['x'])).to_be("#   ");
}

#[test]
fn end_with_iter_unsubscribed_early() {
    let (_, m) = setup();
    let e1 = m.hot("  ---a--b----c--d--|");
    let unsub = "     ---------!        ";
    m.expect_subscribed(e1.clone().end_with_iter(['s']), unsub)
        .to_be("---a--b---        ");
    e1.assert_subscriptions(&["^--------!        "]);
}

// ==================================================================== sequenceEqual

#[test]
fn sequence_equal_is_true_for_two_equal_sequences() {
    let (_, m) = setup();
    let s1 = m.hot("--a--^--b--c--d--e--f--g--|       ");
    let s2 = m.hot("-----^-----b--c--d-e-f------g-|   ");
    m.expect(s1.clone().sequence_equal(s2.clone()))
        .to_be_with("     -------------------------(T|)", VERDICT);
    s1.assert_subscriptions(&["^--------------------!       "]);
    s2.assert_subscriptions(&["^------------------------!   "]);
}

#[test]
fn sequence_equal_when_the_last_one_emits_and_completes_in_the_same_frame() {
    let (_, m) = setup();
    let s1 = m.hot("--a--^--b--c--d--e--f--g--|       ");
    let s2 = m.hot("-----^--b--c--d--e--f---------(g|)");
    m.expect(s1.clone().sequence_equal(s2.clone()))
        .to_be_with("     -------------------------(T|)", VERDICT);
    s1.assert_subscriptions(&["^--------------------!       "]);
    s2.assert_subscriptions(&["^------------------------!   "]);
}

#[test]
fn sequence_equal_on_synchronous_sources() {
    let (_, m) = setup();
    let (s1, s2) = (m.cold(" (abcdefg|)"), m.cold(" (abc|)    "));
    m.expect(s1.sequence_equal(s2))
        .to_be_with("(F|)      ", VERDICT);

    let (_, m) = setup();
    let (s1, s2) = (m.cold(" (abcdefg|)"), m.cold(" (abcdefg|)"));
    m.expect(s1.sequence_equal(s2))
        .to_be_with("(T|)      ", VERDICT);

    let (_, m) = setup();
    m.expect(m.cold("|").sequence_equal(m.cold("|")))
        .to_be_with("(T|)", VERDICT);
}

#[test]
fn sequence_equal_passes_an_error_of_either_source() {
    let (_, m) = setup();
    let s1 = m.hot("--a--^--b---c---#  ");
    let s2 = m.hot("--a--^--b---c-----|");
    m.expect(s1.clone().sequence_equal(s2.clone()))
        .to_be_with("   -----------#  ", VERDICT);
    s1.assert_subscriptions(&["^----------!  "]);
    s2.assert_subscriptions(&["^----------!  "]);

    let (_, m) = setup();
    let s1 = m.hot("--a--^--b---c-----|");
    let s2 = m.hot("--a--^--b---c---#  ");
    m.expect(s1.clone().sequence_equal(s2.clone()))
        .to_be_with("   -----------#  ", VERDICT);
    s1.assert_subscriptions(&["^----------!  "]);
    s2.assert_subscriptions(&["^----------!  "]);

    let (_, m) = setup();
    let (s1, s2) = (m.cold(" #            "), m.cold(" ---a--b--c--|"));
    m.expect(s1.sequence_equal(s2))
        .to_be_with("#            ", VERDICT);
}

#[test]
fn sequence_equal_never_settles_while_a_side_is_silent() {
    let (_, m) = setup();
    let (s1, s2) = (m.cold(" ------------"), m.cold(" --a--b--c--|"));
    m.expect_subscribed(s1.sequence_equal(s2), "^-----------!")
        .to_be_with("------------", VERDICT);

    let (_, m) = setup();
    let (s1, s2) = (m.cold(" --a--b--c--|"), m.cold(" ------------"));
    m.expect_subscribed(s1.sequence_equal(s2), "^-----------!")
        .to_be_with("------------", VERDICT);

    let (_, m) = setup();
    let (s1, s2) = (m.cold(" -"), m.cold(" |"));
    m.expect_subscribed(s1.sequence_equal(s2), "^--!")
        .to_be_with("---", VERDICT);

    let (_, m) = setup();
    let (s1, s2) = (m.cold(" |"), m.cold(" -"));
    m.expect_subscribed(s1.sequence_equal(s2), "^--!")
        .to_be_with("---", VERDICT);
}

#[test]
fn sequence_equal_is_false_when_one_side_is_empty() {
    let (_, m) = setup();
    let (s1, s2) = (m.cold(" |            "), m.cold(" ------a------"));
    m.expect(s1.clone().sequence_equal(s2.clone()))
        .to_be_with("------(F|)   ", VERDICT);
    s1.assert_subscriptions(&["(^!)          "]);
    s2.assert_subscriptions(&["^-----!      "]);

    let (_, m) = setup();
    let (s1, s2) = (m.cold(" ------a------"), m.cold(" |            "));
    m.expect(s1.clone().sequence_equal(s2.clone()))
        .to_be_with("------(F|)   ", VERDICT);
    s1.assert_subscriptions(&["^-----!      "]);
    s2.assert_subscriptions(&["(^!)         "]);
}

#[test]
fn sequence_equal_by_a_comparer() {
    let (_, m) = setup();
    let values = [('a', 0), ('b', 1), ('c', 2), ('d', 3)];
    let others = [('x', "1"), ('y', "2"), ('z', "3")];
    let s1 = m.hot_with("--a--^--b-----c------d--|         ", values);
    let s2 = m.hot_with("-----^--------x---y---z-------|   ", others);
    m.expect(
        s1.clone()
            .sequence_equal_by(s2.clone(), |a: &i32, b: &&str| a.to_string() == *b),
    )
    .to_be_with("     -------------------------(T|)", VERDICT);
    s1.assert_subscriptions(&["^------------------!         "]);
    s2.assert_subscriptions(&["^------------------------!   "]);
}

#[test]
fn sequence_equal_is_false_at_the_first_differing_value() {
    let (_, m) = setup();
    let s1 = m.hot("--a--^--b--c--d--e--f--g--|    ");
    let s2 = m.hot("-----^-----b--c--d-e-f------z-|");
    m.expect(s1.clone().sequence_equal(s2.clone()))
        .to_be_with("     -----------------------(F|)", VERDICT);
    s1.assert_subscriptions(&["^--------------------!    "]);
    s2.assert_subscriptions(&["^----------------------!   "]);

    let (_, m) = setup();
    let s1 = m.hot("--a--^--b--c---x-----------|");
    let s2 = m.hot("-----^--b--c--d--e--f--|    ");
    m.expect(s1.clone().sequence_equal(s2.clone()))
        .to_be_with("     ----------(F|)         ", VERDICT);
    s1.assert_subscriptions(&["^---------!            "]);
    s2.assert_subscriptions(&["^---------!            "]);
}

#[test]
fn sequence_equal_is_false_at_a_value_the_completed_side_cannot_match() {
    let (_, m) = setup();
    let s1 = m.hot("--a--^--b--c--d--e--f--g--h--|");
    let s2 = m.hot("-----^--b--c--d-|             ");
    m.expect(s1.clone().sequence_equal(s2.clone()))
        .to_be_with("     ------------(F|)         ", VERDICT);
    s1.assert_subscriptions(&["^-----------!            "]);
    s2.assert_subscriptions(&["^----------!             "]);

    let (_, m) = setup();
    let s1 = m.hot("--a--^--b--c--d-|             ");
    let s2 = m.hot("-----^--b--c--d--e--f--g--h--|");
    m.expect(s1.clone().sequence_equal(s2.clone()))
        .to_be_with("     ------------(F|)         ", VERDICT);
    s1.assert_subscriptions(&["^----------!             "]);
    s2.assert_subscriptions(&["^-----------!            "]);
}

// ==================================================================== partition

#[test]
fn partition_splits_integers_into_odd_and_even() {
    let (_, m) = setup();
    let e1 = m.hot("  --1-2---3------4--5---6--|");
    let (odd, even) = e1.clone().partition(|c| c.to_digit(10).unwrap() % 2 == 1);
    let (odd, even) = (m.expect(odd), m.expect(even));
    odd.to_be("--1-----3---------5------|");
    even.to_be("----2----------4------6--|");
    e1.assert_subscriptions(&["^------------------------!", "^------------------------!"]);
}

#[test]
fn partition_passes_errors_to_both_halves() {
    let (_, m) = setup();
    let e1 = m.hot("  --a-b---#");
    let (a, rest) = e1.clone().partition(|c| *c == 'a');
    let (a, rest) = (m.expect(a), m.expect(rest));
    a.to_be("--a-----#");
    rest.to_be("----b---#");
    e1.assert_subscriptions(&["^-------!", "^-------!"]);

    let (_, m) = setup();
    let e1 = m.cold(" #");
    let (a, rest) = e1.clone().partition(|c| *c == 'a');
    let (a, rest) = (m.expect(a), m.expect(rest));
    a.to_be("#");
    rest.to_be("#");
    e1.assert_subscriptions(&["(^!)", "(^!)"]);
}

#[test]
fn partition_of_sources_without_values() {
    let (_, m) = setup();
    let e1 = m.hot("  ----|");
    let (a, rest) = e1.clone().partition(|c| *c == 'a');
    let (a, rest) = (m.expect(a), m.expect(rest));
    a.to_be("----|");
    rest.to_be("----|");
    e1.assert_subscriptions(&["^---!", "^---!"]);

    let (_, m) = setup();
    let e1 = m.cold(" |");
    let (a, rest) = e1.clone().partition(|c| *c == 'a');
    let (a, rest) = (m.expect(a), m.expect(rest));
    a.to_be("|");
    rest.to_be("|");
    e1.assert_subscriptions(&["(^!)", "(^!)"]);
}

// ==================================================================== switch_if_empty

#[test]
fn switch_if_empty_subscribes_the_other_when_the_source_completes_empty() {
    // RxJava's `switchIfEmpty`; RxJS has no marble spec for it.
    let (_, m) = setup();
    let e1 = m.hot("  ---|");
    let other = m.cold("   -x-y-|");
    m.expect(e1.clone().switch_if_empty(other.clone()))
        .to_be("----x-y-|");
    e1.assert_subscriptions(&["^--!"]);
    other.assert_subscriptions(&["---^----!"]);

    let (_, m) = setup();
    let e1 = m.hot("  -a-|");
    let other = m.cold("   -x-y-|");
    m.expect(e1.clone().switch_if_empty(other.clone()))
        .to_be("-a-|");
    other.assert_subscriptions(&[]);

    let (_, m) = setup();
    let e1 = m.hot("  ---#");
    let other = m.cold("   -x-y-|");
    m.expect(e1.switch_if_empty(other.clone())).to_be("---#");
    other.assert_subscriptions(&[]);
}

#[test]
fn switch_if_empty_unsubscribed_while_the_other_runs() {
    let (_, m) = setup();
    let e1 = m.hot("  --|");
    let other = m.cold("  -x-y-|");
    m.expect_subscribed(e1.switch_if_empty(other.clone()), "^---!")
        .to_be("---x");
    other.assert_subscriptions(&["--^-!"]);
}

// ==================================================================== filter, scan, mergeMap with an Err

#[test]
fn try_filter_fails_at_the_first_err() {
    let (_, m) = setup();
    let e1 = m.hot("-1--2--^-3-4-5-6--7-8--9--|");
    let mut invoked = 0;
    let is_prime = |n: u32| n > 1 && (2..n).all(|d| !n.is_multiple_of(d));
    m.expect(e1.clone().try_filter(move |c| {
        invoked += 1;
        if invoked == 4 {
            return Err(Error::msg("error"));
        }
        Ok(is_prime(c.to_digit(10).unwrap()))
    }))
    .to_be("     --3---5-#           ");
    e1.assert_subscriptions(&["^-------!           "]);
}

#[test]
fn try_scan_fails_at_the_first_err() {
    let (_, m) = setup();
    let e1 = m.hot("--a--^--b--c--d--e--f--g--|");
    let values = [('u', "b".to_owned()), ('v', "bc".to_owned())];
    m.expect(e1.clone().try_scan(String::new(), |mut acc, c| {
        if c == 'd' {
            return Err(Error::msg("bad!"));
        }
        acc.push(c);
        Ok(acc)
    }))
    .with_error(Error::msg("bad!"))
    .to_be_with("   ---u--v--#            ", values);
    e1.assert_subscriptions(&["^--------!            "]);
}

#[test]
fn try_flat_map_fails_at_the_first_err_and_disposes_the_running_inners() {
    let (_, m) = setup();
    let a = m.cold(" -#                                                  ");
    let b = m.cold("   -#                                                ");
    let c = m.cold("        -2--3--4--5------------------6-|             ");
    let d = m.cold("              -----------2--3|                       ");
    let e = m.cold("                     -1--------2--3-----4--5--------|");
    let f = m.cold("                                      --|            ");
    let g = m.cold("                                            ---1-2|  ");
    let e1 = m.hot("-a-b--^-c-----d------e----------------f-----g|       ");
    let lookup = [
        a.clone(),
        b.clone(),
        c.clone(),
        d.clone(),
        e.clone(),
        f.clone(),
        g.clone(),
    ];
    let result = e1.clone().try_flat_map(move |v| {
        if v == 'e' {
            return Err(Error::msg("error"));
        }
        Ok(lookup[usize::from(v as u8 - b'a')].clone())
    });
    m.expect(result)
        .to_be("    ---2--3--4--5--#                               ");
    a.assert_subscriptions(&[]);
    b.assert_subscriptions(&[]);
    c.assert_subscriptions(&["       --^------------!                               "]);
    d.assert_subscriptions(&["       --------^------!                               "]);
    e.assert_subscriptions(&[]);
    f.assert_subscriptions(&[]);
    g.assert_subscriptions(&[]);
    e1.assert_subscriptions(&["      ^--------------!                               "]);
}
