//! `timeout_with`, `exhaust_all` and `expand` checked with marble diagrams at exact virtual
//! times.
//!
//! The cases are RxJS 7's own marble tests of the same operators (`spec/operators/
//! timeout-spec.ts` for the `with` form, `exhaustAll-spec.ts`, `expand-spec.ts`), with the
//! same diagrams; where this library differs, the test says so. One frame is 1 ms.

use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::testing::marbles::{ColdObservable, HotObservable, Marbles};

fn setup() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

// ==================================================================== timeout_with (timeout({ each, with }))

#[test]
fn timeout_with_subscribes_the_fallback_after_the_period() {
    let (sch, m) = setup();
    let source = m.cold("  -------a--b--|");
    let t = m.time("       -----|");
    let inner = m.cold("        x-y-z-|  ");
    m.expect(source.clone().timeout_with(t, inner.clone(), sch.clone()))
        .to_be("-----x-y-z-|");
    source.assert_subscriptions(&["^----!"]);
    inner.assert_subscriptions(&["-----^-----!"]);
}

#[test]
fn timeout_with_measures_from_the_previous_value() {
    let (sch, m) = setup();
    let source = m.hot("  ---a---b------c---|");
    let t = m.time("             ----|       ");
    let inner = m.cold("             -x-y-|  ");
    m.expect(source.clone().timeout_with(t, inner.clone(), sch.clone()))
        .to_be("---a---b----x-y-|");
    source.assert_subscriptions(&["^----------!"]);
    inner.assert_subscriptions(&["-----------^----!"]);
}

#[test]
fn timeout_with_unsubscribed_early_lets_go_of_the_fallback() {
    let (sch, m) = setup();
    let source = m.hot("  ---a---b-----c----|");
    let t = m.time("             ----|       ");
    let inner = m.cold("             -x---y| ");
    let unsub = "         --------------!    ";
    m.expect_subscribed(
        source.clone().timeout_with(t, inner.clone(), sch.clone()),
        unsub,
    )
    .to_be("---a---b----x--");
    source.assert_subscriptions(&["^----------!"]);
    inner.assert_subscriptions(&["-----------^--!"]);
}

#[test]
fn timeout_with_unsubscribed_through_a_chain_never_subscribes_the_fallback() {
    let (sch, m) = setup();
    let source = m.cold("---a------b------");
    let t = m.time("     -----|           ");
    let inner = m.cold("      i---j---|   ");
    let unsub = "        -----!           ";
    let result = source
        .clone()
        .flat_map(rx::source::just)
        .timeout_with(t, inner.clone(), sch.clone())
        .flat_map(rx::source::just);
    m.expect_subscribed(result, unsub).to_be("---a--");
    source.assert_subscriptions(&["^----!"]);
    inner.assert_subscriptions(&[]);
}

#[test]
fn timeout_with_a_silent_source() {
    let (sch, m) = setup();
    let source = m.hot("  -------------|      ");
    let t = m.time("      ----------|         ");
    let inner = m.cold("            ----x----|");
    m.expect(source.clone().timeout_with(t, inner.clone(), sch.clone()))
        .to_be("--------------x----|");
    source.assert_subscriptions(&["^---------!"]);
    inner.assert_subscriptions(&["----------^--------!"]);
}

#[test]
fn timeout_with_a_fallback_that_never_ends() {
    let (sch, m) = setup();
    let source = m.hot("  --a--b--------c--d--|");
    let t = m.time("           ----|           ");
    let inner = m.cold("           ------------");
    m.expect_subscribed(
        source.clone().timeout_with(t, inner.clone(), sch.clone()),
        "^--------------------!",
    )
    .to_be("--a--b---------------");
    source.assert_subscriptions(&["^--------!"]);
    inner.assert_subscriptions(&["---------^-----------!"]);
}

#[test]
fn timeout_with_ignores_an_error_of_the_source_after_the_switch() {
    let (sch, m) = setup();
    let source = m.hot("  -------------#      ");
    let t = m.time("      ----------|         ");
    let inner = m.cold("            ----x----|");
    m.expect(source.clone().timeout_with(t, inner.clone(), sch.clone()))
        .to_be("--------------x----|");
    source.assert_subscriptions(&["^---------!"]);
    inner.assert_subscriptions(&["----------^--------!"]);
}

#[test]
fn timeout_with_a_fallback_that_emits_but_never_completes() {
    let (sch, m) = setup();
    let source = m.hot("  -------------|      ");
    let t = m.time("      -----------|        ");
    let inner = m.cold("             ----x----");
    m.expect_subscribed(
        source.clone().timeout_with(t, inner.clone(), sch.clone()),
        "^-------------------!",
    )
    .to_be("---------------x----");
    source.assert_subscriptions(&["^----------!"]);
    inner.assert_subscriptions(&["-----------^--------!"]);
}

#[test]
fn timeout_with_never_subscribes_the_fallback_when_the_source_is_in_time() {
    let (sch, m) = setup();
    let inner = m.cold("            ----x----");
    let source = m.hot("  -----|        ");
    m.expect(
        source
            .clone()
            .timeout_with(m.time("----------|"), inner.clone(), sch.clone()),
    )
    .to_be("-----|");
    source.assert_subscriptions(&["^----!"]);
    inner.assert_subscriptions(&[]);

    let (sch, m) = setup();
    let inner = m.cold("       ----x----|");
    let source = m.hot("-----#              ");
    m.expect(
        source
            .clone()
            .timeout_with(m.time("----------|"), inner.clone(), sch.clone()),
    )
    .to_be("-----#");
    source.assert_subscriptions(&["^----!"]);
    inner.assert_subscriptions(&[]);

    let (sch, m) = setup();
    let inner = m.cold("        ----x----|   ");
    let source = m.hot("   --a--b--c--d--e--|");
    m.expect(
        source
            .clone()
            .timeout_with(m.time("-----|"), inner.clone(), sch.clone()),
    )
    .to_be("--a--b--c--d--e--|");
    source.assert_subscriptions(&["^----------------!"]);
    inner.assert_subscriptions(&[]);
}

// ==================================================================== exhaust_all (exhaustAll)

#[test]
fn exhaust_all_a_hot_observable_of_hot_observables() {
    let (_sch, m) = setup();
    let x = m.hot("   -----a---b---c--|                  ");
    let y = m.hot("   -------d--e---f---|                ");
    let z = m.hot("   --------------g--h---i---|         ");
    let e1 = m.hot_with(
        "             ------x-------y-----z-------------|",
        [('x', x.clone()), ('y', y.clone()), ('z', z.clone())],
    );
    m.expect(e1.clone().exhaust_all())
        .to_be("---------b---c-------i------------|");
    e1.assert_subscriptions(&["^---------------------------------!"]);
    x.assert_subscriptions(&["------^---------!"]);
    y.assert_subscriptions(&[]);
    z.assert_subscriptions(&["--------------------^----!"]);
}

#[test]
fn exhaust_all_stays_on_the_first_immediately_scheduled_inner() {
    let (_sch, m) = setup();
    let e1 = m.cold("(ab|)");
    let e2 = m.cold("(cd|)");
    m.expect(rx::source::from_iter([e1.clone(), e2.clone()]).exhaust_all())
        .to_be("(ab|)");
    e1.assert_subscriptions(&["(^!)"]);
    e2.assert_subscriptions(&[]);
}

#[test]
fn exhaust_all_empty_failing_and_silent_outers() {
    let (_sch, m) = setup();
    let e1: ColdObservable<ColdObservable<char>> = m.cold_with("#", |_| unreachable!());
    m.expect(e1.clone().exhaust_all()).to_be("#");
    e1.assert_subscriptions(&["(^!)"]);

    let (_sch, m) = setup();
    let e1: ColdObservable<ColdObservable<char>> = m.cold_with("|", |_| unreachable!());
    m.expect(e1.clone().exhaust_all()).to_be("|");
    e1.assert_subscriptions(&["(^!)"]);

    let (_sch, m) = setup();
    let e1: HotObservable<ColdObservable<char>> = m.hot_with("------|", |_| unreachable!());
    m.expect(e1.clone().exhaust_all()).to_be("------|");
    e1.assert_subscriptions(&["^-----!"]);

    let (_sch, m) = setup();
    let e1: ColdObservable<ColdObservable<char>> = m.cold_with("-", |_| unreachable!());
    m.expect_subscribed(e1.clone().exhaust_all(), "^!")
        .to_be("-");
    e1.assert_subscriptions(&["^!"]);
}

#[test]
fn exhaust_all_a_hot_observable_of_cold_observables() {
    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|               ");
    let y = m.cold("                ---d--e---f---|      ");
    let z = m.cold("                      ---g--h---i---|");
    let e1 = m.hot_with(
        "             ------x-------y-----z-------------|",
        [('x', x.clone()), ('y', y.clone()), ('z', z.clone())],
    );
    m.expect(e1.clone().exhaust_all())
        .to_be("--------a---b---c------g--h---i---|");
    e1.assert_subscriptions(&["^---------------------------------!"]);
    x.assert_subscriptions(&["------^------------!"]);
    y.assert_subscriptions(&[]);
    z.assert_subscriptions(&["--------------------^-------------!"]);
}

#[test]
fn exhaust_all_unsubscribed_early() {
    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|         ");
    let y = m.cold("                ---d--e---f---|");
    let e1 = m.hot_with(
        "             ------x-------y------|       ",
        [('x', x.clone()), ('y', y.clone())],
    );
    let unsub = "     ----------------!            ";
    m.expect_subscribed(e1.clone().exhaust_all(), unsub)
        .to_be("--------a---b----");
    x.assert_subscriptions(&["------^---------!"]);
    y.assert_subscriptions(&[]);

    // The same through a chain.
    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|         ");
    let y = m.cold("                ---d--e---f---|");
    let e1 = m.hot_with(
        "             ------x-------y------|       ",
        [('x', x.clone()), ('y', y.clone())],
    );
    let result = e1
        .flat_map(rx::source::just)
        .exhaust_all()
        .flat_map(rx::source::just);
    m.expect_subscribed(result, unsub)
        .to_be("--------a---b----");
    x.assert_subscriptions(&["------^---------!"]);
    y.assert_subscriptions(&[]);
}

#[test]
fn exhaust_all_an_inner_that_never_completes() {
    let (_sch, m) = setup();
    let x = m.cold("     --a---b--|              ");
    let y = m.cold("         -d---e-             ");
    let z = m.cold("                ---f--g---h--");
    let e1 = m.hot_with(
        "             ---x---y------z----------| ",
        [('x', x.clone()), ('y', y.clone()), ('z', z.clone())],
    );
    m.expect_subscribed(e1.exhaust_all(), "^--------------------------!")
        .to_be("-----a---b-------f--g---h--");
    x.assert_subscriptions(&["---^--------!"]);
    y.assert_subscriptions(&[]);
    z.assert_subscriptions(&["--------------^------------!"]);
}

#[test]
fn exhaust_all_a_synchronous_pair_stays_on_the_first() {
    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|   ");
    let y = m.cold("        ---d--e---f---|  ");
    let e1 = m.hot_with(
        "             ------(xy)------------|",
        [('x', x.clone()), ('y', y.clone())],
    );
    m.expect(e1.exhaust_all()).to_be("--------a---b---c-----|");
    x.assert_subscriptions(&["------^------------!"]);
    y.assert_subscriptions(&[]);
}

#[test]
fn exhaust_all_errors_of_an_inner_and_of_the_outer() {
    let (_sch, m) = setup();
    let x = m.cold("        --a---#                ");
    let y = m.cold("                ---d--e---f---|");
    let e1 = m.hot_with(
        "             ------x-------y------|       ",
        [('x', x.clone()), ('y', y.clone())],
    );
    m.expect(e1.exhaust_all()).to_be("--------a---#");
    x.assert_subscriptions(&["------^-----!"]);
    y.assert_subscriptions(&[]);

    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|         ");
    let y = m.cold("                ---d--e---f---|");
    let e1 = m.hot_with(
        "             ------x-------y-------#      ",
        [('x', x.clone()), ('y', y.clone())],
    );
    m.expect(e1.exhaust_all()).to_be("--------a---b---c-----#");
    x.assert_subscriptions(&["------^------------!"]);
    y.assert_subscriptions(&[]);
}

#[test]
fn exhaust_all_completes_not_before_the_outer() {
    let (_sch, m) = setup();
    let x = m.cold("        --a---b---c--|   ");
    let e1 = m.hot_with("  ------x---------------|", [('x', x.clone())]);
    m.expect(e1.exhaust_all()).to_be("--------a---b---c-----|");
    x.assert_subscriptions(&["------^------------!"]);
}

// ==================================================================== expand

/// The values of the doubling cases: each letter the double of the one before.
const DOUBLES: [(char, i32); 5] = [('a', 1), ('b', 2), ('c', 4), ('d', 8), ('e', 16)];

#[test]
fn expand_recursively_maps_and_flattens_each_value() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("  --x----|  ", [('x', 1)]);
    let inner = m.clone();
    let result = e1.clone().expand(move |&x| {
        if x == 8 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("--c|", [('c', 2 * x)])
        }
    });
    m.expect(result).to_be_with("--a-b-c-d|", DOUBLES);
    e1.assert_subscriptions(&["^------!"]);
}

#[test]
fn expand_a_projection_subscribed_in_the_frame_its_parent_completes() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("(a|)", DOUBLES);
    let inner = m.clone();
    let result = e1.clone().expand(move |&x| {
        if x == 16 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    });
    m.expect(result).to_be_with("a--b--c--d--(e|)", DOUBLES);
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn expand_an_error_of_a_projection() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("(a|)", DOUBLES);
    let inner = m.clone();
    let result = e1.clone().expand(move |&x| {
        if x == 8 {
            inner.cold_with("#", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    });
    m.expect(result).to_be_with("a--b--c--(d#)", DOUBLES);
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn expand_unsubscribed_early() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("(a|)", DOUBLES);
    let inner = m.clone();
    let project = move |&x: &i32| {
        if x == 16 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    };
    m.expect_subscribed(e1.clone().expand(project.clone()), "-------!")
        .to_be_with("a--b--c-", DOUBLES);
    e1.assert_subscriptions(&["(^!)"]);

    // The same through a chain.
    let (_sch, m) = setup();
    let e1 = m.hot_with("(a|)", DOUBLES);
    let inner = m.clone();
    let project = move |&x: &i32| {
        if x == 16 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    };
    let result = e1
        .clone()
        .flat_map(rx::source::just)
        .expand(project)
        .flat_map(rx::source::just);
    m.expect_subscribed(result, "-------!")
        .to_be_with("a--b--c-", DOUBLES);
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn expand_runs_expansions_concurrently() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("a-a|", DOUBLES);
    let inner = m.clone();
    let result = e1.clone().expand(move |&x| {
        if x == 16 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    });
    m.expect(result).to_be_with("a-ab-bc-cd-de-(e|)", DOUBLES);
    e1.assert_subscriptions(&["^--!"]);
}

#[test]
fn expand_has_no_concurrency_limit() {
    let (_sch, m) = setup();
    let values = [
        ('a', 1),
        ('b', 2),
        ('c', 4),
        ('d', 8),
        ('e', 16),
        ('u', 10),
        ('v', 20),
        ('x', 40),
        ('y', 80),
        ('z', 160),
    ];
    let e1 = m.hot_with("a-u|", values);
    let inner = m.clone();
    let result = e1.clone().expand(move |&x| {
        if x == 16 || x == 160 {
            inner.cold_with("|", |_| 0)
        } else {
            inner.cold_with("---(z|)", [('z', x + x)])
        }
    });
    m.expect(result).to_be_with("a-ub-vc-xd-ye-(z|)", values);
    e1.assert_subscriptions(&["^--!"]);
}

#[test]
fn expand_with_synchronous_projections() {
    let (_sch, m) = setup();
    let e1 = m.hot_with("(a|)", DOUBLES);
    let result = e1
        .clone()
        .expand(|&x| rx::source::from_iter((x != 16).then_some(x + x)));
    m.expect(result).to_be_with("(abcde|)", DOUBLES);
    e1.assert_subscriptions(&["(^!)"]);
}
