//! The merge family in marble diagrams, on virtual time: what comes out, and when each source
//! is subscribed and let go of (`^` subscribed, `!` unsubscribed: completed, failed or
//! disposed).

use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::testing::marbles::{ColdObservable, Marbles};

fn setup() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

/// A mapping from a value of the outer observable to the inner observable it stands for.
fn pick(
    inners: &[(char, ColdObservable<char>)],
) -> impl FnMut(char) -> ColdObservable<char> + Clone + use<> {
    let inners = inners.to_vec();
    move |c| {
        inners
            .iter()
            .find(|(k, _)| *k == c)
            .map(|(_, inner)| inner.clone())
            .expect("no inner for this value")
    }
}

#[test]
fn merge_with_interleaves_and_completes_after_both() {
    let (_sch, m) = setup();
    let a = m.cold("-1---3---|");
    let b = m.cold("---2---4-----|");
    m.expect(a.clone().merge_with(b.clone()))
        .to_be("-1-2-3-4-----|");
    a.assert_subscriptions(&["^--------!"]);
    b.assert_subscriptions(&["^------------!"]);
}

#[test]
fn merge_with_error_disposes_the_other() {
    let (_sch, m) = setup();
    let a = m.cold("-1--#");
    let b = m.cold("---2---4-|");
    m.expect(a.clone().merge_with(b.clone())).to_be("-1-2#");
    b.assert_subscriptions(&["^---!"]);
}

#[test]
fn flat_map_subscribes_each_inner_at_once() {
    let (_sch, m) = setup();
    let a = m.cold("-a---b|");
    let c = m.cold("-c---d|");
    m.expect(
        m.cold("-1-2-----|")
            .flat_map(pick(&[('1', a.clone()), ('2', c.clone())])),
    )
    .to_be("--a-c-b-d|");
    a.assert_subscriptions(&["-^-----!"]);
    c.assert_subscriptions(&["---^-----!"]);
}

#[test]
fn flat_map_inner_error_disposes_the_outer_and_the_other_inners() {
    let (_sch, m) = setup();
    let outer = m.cold("-a-b---|");
    let a = m.cold("-1---2|");
    let b = m.cold("-#");
    m.expect(
        outer
            .clone()
            .flat_map(pick(&[('a', a.clone()), ('b', b.clone())])),
    )
    .to_be("--1-#");
    outer.assert_subscriptions(&["^---!"]);
    a.assert_subscriptions(&["-^--!"]);
    b.assert_subscriptions(&["---^!"]);
}

#[test]
fn merge_waits_for_the_outer_and_every_inner() {
    let (_sch, m) = setup();
    let a = m.cold("-1---2|");
    let b = m.cold("-3---4|");
    let outer = m.cold("-a-b-----|").map(pick(&[('a', a), ('b', b)]));
    m.expect(outer.merge()).to_be("--1-3-2-4|");

    let (_sch, m) = setup();
    let late = m.cold("-------x|");
    let outer = m.cold("a|").map(pick(&[('a', late)]));
    m.expect(outer.merge()).to_be("-------x|");
}

#[test]
fn merge_max_queues_the_inners_beyond_the_limit() {
    let (_sch, m) = setup();
    let a = m.cold("--a|");
    let b = m.cold("--b|");
    let c = m.cold("--c|");
    let outer = m
        .cold("abc|")
        .map(pick(&[('a', a), ('b', b), ('c', c.clone())]));
    m.expect(outer.merge_max(2)).to_be("--ab-c|");
    c.assert_subscriptions(&["---^--!"]);
}

#[test]
fn concat_subscribes_each_inner_after_the_previous_completes() {
    let (_sch, m) = setup();
    let a = m.cold("-1--2|");
    let b = m.cold("-3|");
    let outer = m
        .cold("-a-b|")
        .map(pick(&[('a', a.clone()), ('b', b.clone())]));
    m.expect(outer.concat()).to_be("--1--2-3|");
    a.assert_subscriptions(&["-^----!"]);
    b.assert_subscriptions(&["------^-!"]);
}

#[test]
fn concat_map_maps_then_concatenates() {
    let (_sch, m) = setup();
    let one = m.cold("-1-1|");
    let two = m.cold("-2-2|");
    m.expect(
        m.cold("-12|")
            .concat_map(pick(&[('1', one), ('2', two.clone())])),
    )
    .to_be("--1-1-2-2|");
    two.assert_subscriptions(&["-----^---!"]);
}

#[test]
fn switch_map_disposes_the_replaced_inner() {
    let (_sch, m) = setup();
    let a = m.cold("-1-2-3|");
    let b = m.cold("-4-5|");
    m.expect(
        m.cold("-a---b-------|")
            .switch_map(pick(&[('a', a.clone()), ('b', b.clone())])),
    )
    .to_be("--1-2-4-5----|");
    a.assert_subscriptions(&["-^---!"]);
    b.assert_subscriptions(&["-----^---!"]);
}

#[test]
fn switch_map_completes_with_the_last_inner() {
    let (_sch, m) = setup();
    let a = m.cold("---x---|");
    m.expect(m.cold("a|").switch_map(pick(&[('a', a)])))
        .to_be("---x---|");
}

#[test]
fn switch_on_next_follows_the_newest_inner() {
    let (_sch, m) = setup();
    let a = m.cold("-1-2-3|");
    let b = m.cold("-4-5|");
    let outer = m.cold("-a---b-------|").map(pick(&[('a', a), ('b', b)]));
    m.expect(outer.switch_on_next()).to_be("--1-2-4-5----|");
}

#[test]
fn exhaust_map_ignores_values_while_an_inner_runs() {
    let (_sch, m) = setup();
    let inner = m.cold("-x-x|");
    m.expect(
        m.cold("-a-b---c----|")
            .exhaust_map(pick(&[('a', inner.clone()), ('c', inner.clone())])),
    )
    .to_be("--x-x---x-x-|");
    inner.assert_subscriptions(&["-^---!", "-------^---!"]);
}

#[test]
fn take_until_completes_and_lets_go_of_both() {
    let (_sch, m) = setup();
    let source = m.cold("-1-2-3-4-|");
    let notifier = m.cold("------x");
    m.expect(source.clone().take_until(notifier.clone()))
        .to_be("-1-2-3|");
    source.assert_subscriptions(&["^-----!"]);
    notifier.assert_subscriptions(&["^-----!"]);
}

#[test]
fn take_until_a_notifier_that_completes() {
    let (_sch, m) = setup();
    let source = m.cold("-1-2-3-4-|");
    m.expect(source.clone().take_until(m.cold("---|")))
        .to_be("-1-|");
    source.assert_subscriptions(&["^--!"]);
}

#[test]
fn skip_until_opens_the_gate_and_lets_go_of_the_notifier() {
    let (_sch, m) = setup();
    let notifier = m.cold("----x-----x");
    m.expect(m.cold("-1-2-3-4-|").skip_until(notifier.clone()))
        .to_be("-----3-4-|");
    notifier.assert_subscriptions(&["^---!"]);
}

#[test]
fn amb_with_follows_the_first_to_notify_and_lets_go_of_the_other() {
    let (_sch, m) = setup();
    let a = m.cold("---1---2-|");
    let b = m.cold("-3---4---|");
    m.expect(a.clone().amb_with(b.clone())).to_be("-3---4---|");
    a.assert_subscriptions(&["^!"]);
    b.assert_subscriptions(&["^--------!"]);
}

#[test]
fn merge_and_amb_sources() {
    let (_sch, m) = setup();
    let a = m.cold("-1---3-|");
    let b = m.cold("---2------4-|");
    m.expect(rx::source::merge([a.clone(), b.clone()]))
        .to_be("-1-2-3----4-|");

    let (_sch, m) = setup();
    let a = m.cold("---1---2-|");
    let b = m.cold("-3---4---|");
    m.expect(rx::source::amb([a, b])).to_be("-3---4---|");
}

#[test]
fn a_disposed_expectation_disposes_every_source() {
    let (_sch, m) = setup();
    let a = m.cold("-1-----2-|");
    let b = m.cold("---3-----4-|");
    m.expect_subscribed(a.clone().merge_with(b.clone()), "^----!")
        .to_be("-1-3-");
    a.assert_subscriptions(&["^----!"]);
    b.assert_subscriptions(&["^----!"]);
}
