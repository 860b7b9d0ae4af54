//! `share_with` and `group_by`, `group_by_with`, `group_by_until` checked with marble
//! diagrams at exact virtual times.
//!
//! The cases are RxJS 7's own marble tests (`spec/operators/share-spec.ts` and
//! `spec/operators/groupBy-spec.ts`), with the same diagrams. `share()`'s cases run through
//! `share_with(ShareConfig::new(PublishSubject::new))`, which is RxJS's default
//! configuration; the cases of `share({ resetOn...: false })` clear one reset each.
//!
//! What has no counterpart here is left out: reset notifiers (a reset here is at once or
//! never), key, element and duration selectors that throw (closures here cannot fail: a
//! panic unwinds), and groups subscribed late (a group here takes its one subscriber during
//! the `on_next` call that delivers it, as RxJava 3's groups must, or it is abandoned). RxJS's
//! durations are functions of the group (`group.pipe(skip(2))`); here a duration is made from
//! the key, so the cases build the same duration from the hot source, filtered by key. One
//! frame is 1 ms.

use rx::Error;
use rx::operators::ShareConfig;
use rx::prelude::*;
use rx::schedulers::TestScheduler;
use rx::subjects::PublishSubject;
use rx::testing::TimedObserver;
use rx::testing::marbles::Marbles;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn setup() -> (TestScheduler, Marbles) {
    let sch = TestScheduler::new();
    let m = Marbles::new(&sch);
    (sch, m)
}

fn frames(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// RxJS's default `share()`: a fresh `Subject` for each connection, every reset set.
fn share_config() -> ShareConfig<fn() -> PublishSubject<char>> {
    ShareConfig::new(PublishSubject::new)
}

// ==================================================================== share() (every reset)

#[test]
fn share_mirrors_a_simple_source() {
    let (_, m) = setup();
    let source = m.cold("--1-2---3-4--5-|");
    m.expect(source.clone().share_with(share_config()))
        .to_be("--1-2---3-4--5-|");
    source.assert_subscriptions(&["^--------------!"]);
}

#[test]
fn share_subscribes_the_source_once_for_two_subscribers() {
    let subscriptions = Arc::new(AtomicUsize::new(0));
    let s = subscriptions.clone();
    let shared = rx::source::defer(move || {
        s.fetch_add(1, Ordering::SeqCst);
        rx::source::never::<char>()
    })
    .share_with(share_config());
    assert_eq!(subscriptions.load(Ordering::SeqCst), 0);
    let a = shared.clone().subscribe(|_| {});
    let b = shared.clone().subscribe(|_| {});
    assert_eq!(subscriptions.load(Ordering::SeqCst), 1);
    a.dispose();
    b.dispose();
}

#[test]
fn share_does_not_change_the_output_of_a_failing_hot_source() {
    let (_, m) = setup();
    let e1 = m.hot("---a--^--b--c--d--e--#");
    m.expect(e1.clone().share_with(share_config()))
        .to_be("      ---b--c--d--e--#");
    e1.assert_subscriptions(&["^--------------!"]);
}

#[test]
fn share_does_not_change_the_output_of_cold_sources() {
    let (_, m) = setup();
    let e1 = m.cold("---a--b--c--d--e--|");
    m.expect(e1.clone().share_with(share_config()))
        .to_be("---a--b--c--d--e--|");
    e1.assert_subscriptions(&["^-----------------!"]);

    let (_, m) = setup();
    let e1 = m.cold("---a--b--c--d--e--#");
    m.expect(e1.clone().share_with(share_config()))
        .to_be("---a--b--c--d--e--#");
    e1.assert_subscriptions(&["^-----------------!"]);
}

#[test]
fn share_retries_just_fine() {
    let (_, m) = setup();
    let e1 = m.cold("---a--b--c--d--e--#                  ");
    m.expect(e1.clone().share_with(share_config()).retry(1))
        .to_be("---a--b--c--d--e-----a--b--c--d--e--#");
    e1.assert_subscriptions(&[
        "^-----------------!                  ",
        "------------------^-----------------!",
    ]);
}

#[test]
fn share_gives_late_subscribers_what_comes_after_they_arrive() {
    let (_, m) = setup();
    let source = m.cold("    -1-2-3----4-|");
    let shared = source.clone().share_with(share_config());
    let (s1, s2, s3) = (shared.clone(), shared.clone(), shared);
    let e1 = m.expect(m.hot("a|           ").flat_map(move |_| s1.clone()));
    let e2 = m.expect(m.hot("----b|       ").flat_map(move |_| s2.clone()));
    let e3 = m.expect(m.hot("--------c|   ").flat_map(move |_| s3.clone()));
    e1.to_be("-1-2-3----4-|");
    e2.to_be("-----3----4-|");
    e3.to_be("----------4-|");
    source.assert_subscriptions(&["^-----------!"]);
}

#[test]
fn share_gives_every_subscriber_the_source_error() {
    let (_, m) = setup();
    let source = m.cold("    -1-2-3----4-#");
    let shared = source.clone().share_with(share_config());
    let (s1, s2, s3) = (shared.clone(), shared.clone(), shared);
    let e1 = m.expect(m.hot("a|           ").flat_map(move |_| s1.clone()));
    let e2 = m.expect(m.hot("----b|       ").flat_map(move |_| s2.clone()));
    let e3 = m.expect(m.hot("--------c|   ").flat_map(move |_| s3.clone()));
    e1.to_be("-1-2-3----4-#");
    e2.to_be("-----3----4-#");
    e3.to_be("----------4-#");
    source.assert_subscriptions(&["^-----------!"]);
}

#[test]
fn share_unsubscribed_explicitly_and_early() {
    let (_, m) = setup();
    let source = m.cold("    -1-2-3----4-|");
    let unsub = "            ---------!   ";
    let shared = source.clone().share_with(share_config());
    let (s1, s2, s3) = (shared.clone(), shared.clone(), shared);
    let e1 = m.expect_subscribed(m.hot("a|           ").flat_map(move |_| s1.clone()), unsub);
    let e2 = m.expect_subscribed(m.hot("----b|       ").flat_map(move |_| s2.clone()), unsub);
    let e3 = m.expect_subscribed(m.hot("--------c|   ").flat_map(move |_| s3.clone()), unsub);
    e1.to_be("-1-2-3----   ");
    e2.to_be("-----3----   ");
    e3.to_be("----------   ");
    source.assert_subscriptions(&["^--------!   "]);
}

#[test]
fn share_an_empty_a_never_and_a_failing_source() {
    let (_, m) = setup();
    let source = m.cold("|");
    m.expect(source.clone().share_with(share_config()))
        .to_be("|");
    source.assert_subscriptions(&["(^!)"]);

    let (_, m) = setup();
    let source = m.cold("-");
    m.expect(source.clone().share_with(share_config()))
        .to_be("-");
    source.assert_subscriptions(&["^"]);

    let (_, m) = setup();
    let source = m.cold("#");
    m.expect(source.clone().share_with(share_config()))
        .to_be("#");
    source.assert_subscriptions(&["(^!)"]);

    let (_, m) = setup();
    m.expect(rx::source::never::<char>().share_with(share_config()))
        .to_be("-");
    let (_, m) = setup();
    m.expect(rx::source::empty::<char>().share_with(share_config()))
        .to_be("|");
}

#[test]
fn share_connects_when_the_first_subscriber_arrives() {
    let (_, m) = setup();
    let source = m.cold("       -1-2-3----4-|");
    let shared = source.clone().share_with(share_config());
    let (s1, s2, s3) = (shared.clone(), shared.clone(), shared);
    let e1 = m.expect(m.hot("---a|           ").flat_map(move |_| s1.clone()));
    let e2 = m.expect(m.hot("-------b|       ").flat_map(move |_| s2.clone()));
    let e3 = m.expect(m.hot("-----------c|   ").flat_map(move |_| s3.clone()));
    e1.to_be("----1-2-3----4-|");
    e2.to_be("--------3----4-|");
    e3.to_be("-------------4-|");
    source.assert_subscriptions(&["---^-----------!"]);
}

#[test]
fn share_disconnects_when_the_last_subscriber_leaves() {
    let (_, m) = setup();
    let source = m.cold("       -1-2-3----4-|");
    let shared = source.clone().share_with(share_config());
    let (s1, s2) = (shared.clone(), shared);
    let e1 = m.expect_subscribed(
        m.hot("---a|           ").flat_map(move |_| s1.clone()),
        "      ----------!     ",
    );
    let e2 = m.expect_subscribed(
        m.hot("-------b|       ").flat_map(move |_| s2.clone()),
        "      ------------!   ",
    );
    e1.to_be("----1-2-3--     ");
    e2.to_be("--------3----   ");
    source.assert_subscriptions(&["---^--------!   "]);
}

#[test]
fn share_keeps_the_unsubscription_chain_when_the_last_subscriber_leaves() {
    let (_, m) = setup();
    let source = m.cold("       -1-2-3----4-|");
    let shared = source
        .clone()
        .flat_map(rx::source::just)
        .share_with(share_config())
        .flat_map(rx::source::just);
    let (s1, s2) = (shared.clone(), shared);
    let e1 = m.expect_subscribed(
        m.hot("---a|           ").flat_map(move |_| s1.clone()),
        "      ----------!     ",
    );
    let e2 = m.expect_subscribed(
        m.hot("-------b|       ").flat_map(move |_| s2.clone()),
        "      ------------!   ",
    );
    e1.to_be("----1-2-3--     ");
    e2.to_be("--------3----   ");
    source.assert_subscriptions(&["---^--------!   "]);
}

#[test]
fn share_is_retryable_when_the_cold_source_is_synchronous() {
    let (_, m) = setup();
    let source = m.cold("(123#)    ");
    let shared = source.clone().share_with(share_config());
    let e1 = m.expect_subscribed(shared.clone().retry(1), "^ ");
    let e2 = m.expect_subscribed(shared.retry(1), "-^");
    e1.to_be("(123123#) ");
    e2.to_be("-(123123#)");
    source.assert_subscriptions(&["(^!)", "(^!)", "-(^!)", "-(^!)"]);
}

#[test]
fn share_is_repeatable_when_the_cold_source_is_synchronous() {
    let (_, m) = setup();
    let source = m.cold("(123|)    ");
    let shared = source.clone().share_with(share_config());
    let e1 = m.expect_subscribed(shared.clone().repeat(2), "^ ");
    let e2 = m.expect_subscribed(shared.repeat(2), "-^");
    e1.to_be("(123123|) ");
    e2.to_be("-(123123|)");
    source.assert_subscriptions(&["(^!)", "(^!)", "-(^!)", "-(^!)"]);
}

#[test]
fn share_is_retryable() {
    let (_, m) = setup();
    let source = m.cold("-1-2-3----4-#                        ");
    let shared = source.clone().share_with(share_config());
    let e1 = m.expect_subscribed(shared.clone().retry(2), "^    ");
    let e2 = m.expect_subscribed(shared.retry(2), "----^");
    e1.to_be("-1-2-3----4--1-2-3----4--1-2-3----4-#");
    e2.to_be("-----3----4--1-2-3----4--1-2-3----4-#");
    source.assert_subscriptions(&[
        "^-----------!                        ",
        "------------^-----------!            ",
        "------------------------^-----------!",
    ]);
}

#[test]
fn share_is_repeatable() {
    let (_, m) = setup();
    let source = m.cold("-1-2-3----4-|                        ");
    let shared = source.clone().share_with(share_config());
    let e1 = m.expect_subscribed(shared.clone().repeat(3), "^    ");
    let e2 = m.expect_subscribed(shared.repeat(3), "----^");
    e1.to_be("-1-2-3----4--1-2-3----4--1-2-3----4-|");
    e2.to_be("-----3----4--1-2-3----4--1-2-3----4-|");
    source.assert_subscriptions(&[
        "^-----------!                        ",
        "------------^-----------!            ",
        "------------------------^-----------!",
    ]);
}

#[test]
fn share_stops_a_synchronous_source_when_unsubscribed() {
    let side_effects = Arc::new(Mutex::new(Vec::new()));
    let s = side_effects.clone();
    let source = rx::source::from_iter(0..10).tap(move |v| s.lock().unwrap().push(*v));
    let seen = rx::testing::TestObserver::new();
    source
        .share_with(ShareConfig::new(PublishSubject::new))
        .take(3)
        .subscribe_observer(seen.clone());
    seen.assert_values(&[0, 1, 2]);
    assert_eq!(*side_effects.lock().unwrap(), [0, 1, 2]);
}

// ==================================================================== share(config): a reset cleared

/// The `E` of a diagram as an error, as RxJS's `tap(v => { if (v === 'E') throw })`.
fn fail_on_e(v: char) -> Result<char, Error> {
    if v == 'E' {
        Err(Error::msg("E"))
    } else {
        Ok(v)
    }
}

#[test]
fn share_without_a_reset_on_error() {
    let (_, m) = setup();
    let source = m.hot("---a---b---c---d---e---f----#");
    let result = source
        .clone()
        // Takes a, b, c; the repetition then takes d, e, f.
        .take(3)
        .share_with(ShareConfig {
            reset_on_error: false,
            ..share_config()
        })
        .repeat_forever();
    m.expect(result).to_be("---a---b---c---d---e---f----#");
    source.assert_subscriptions(&[
        "^----------!                 ",
        "-----------^-----------!     ",
        "-----------------------^----!",
    ]);
}

#[test]
fn share_without_a_reset_on_complete() {
    let (_, m) = setup();
    let source = m.cold("---a---b---c---#                          ");
    // Completes the source when the ninth value has come through.
    let trigger = PublishSubject::<()>::new();
    let count = Arc::new(AtomicUsize::new(0));
    let t = trigger.clone();
    let result = source
        .clone()
        .take_until(trigger.observable())
        .share_with(ShareConfig {
            reset_on_complete: false,
            ..share_config()
        })
        .retry_forever()
        .tap(move |_| {
            if count.fetch_add(1, Ordering::SeqCst) + 1 == 9 {
                t.observer().on_next(());
            }
        });
    // RxJS completes without the ninth value: its `takeUntil` completes inside the `tap`
    // that is delivering it, and the value then meets a closed subscriber. Here, as in
    // RxJava 3 and Rx.NET (whose `takeUntil` half-serialises the two sides), the completion
    // waits for the value in flight, so the ninth value arrives and the completion follows
    // it in the same frame.
    m.expect(result)
        .to_be("---a---b---c------a---b---c------a---b---(c|)");
    source.assert_subscriptions(&[
        "^--------------!                          ",
        "---------------^--------------!           ",
        "------------------------------^----------!",
    ]);
}

#[test]
fn share_without_a_reset_on_ref_count_zero() {
    let (_, m) = setup();
    let source = m.hot("  ---v---v---v---E--v---v---v---C---v----v------v---");
    let subscription = "  ^-------------------------------------------!     ";
    let result = source
        .clone()
        .try_map(fail_on_e)
        .take_while(|v| *v != 'C')
        .share_with(ShareConfig {
            reset_on_ref_count_zero: false,
            ..share_config()
        })
        .retry_forever()
        .repeat_forever();
    m.expect_subscribed(result, subscription)
        .to_be("---v---v---v------v---v---v-------v----v----      ");
    // The last connection outlives its subscriber: nothing resets it when the count drops.
    source.assert_subscriptions(&[
        "^--------------!",
        "---------------^--------------!",
        "------------------------------^--------------------",
    ]);
}

#[test]
fn share_with_a_connector_makes_a_subject_for_each_connection() {
    let (_, m) = setup();
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let source = m.hot("  ---v---v---v---E--v---v---v---C---v----v--------v----v---");
    let subs1 = "         ^-------------------------------------------!            ";
    let subs2 = "         ----------------------------------------------^---------!";
    let result = source
        .try_map(fail_on_e)
        .take_while(|v| *v != 'C')
        .share_with(ShareConfig::new(move || {
            c.fetch_add(1, Ordering::SeqCst);
            PublishSubject::new()
        }))
        .retry_forever()
        .repeat_forever();
    let e1 = m.expect_subscribed(result.clone(), subs1);
    let e2 = m.expect_subscribed(result, subs2);
    e1.to_be("---v---v---v------v---v---v-------v----v-----            ");
    e2.to_be("------------------------------------------------v----v---");
    assert_eq!(calls.load(Ordering::SeqCst), 4);
}

// ==================================================================== groupBy

/// RxJS's keys, `val.toLowerCase().trim()` of its table of padded words, as one character
/// each: `f` for foo, `r` for bar, `z` for baz, `q` for qux.
fn word_key(c: &char) -> char {
    match c {
        'a' | 'b' | 'd' | 'i' | 'l' => 'f',
        'c' | 'g' | 'h' => 'r',
        'e' | 'j' | 'k' => 'z',
        'f' => 'q',
        _ => '?',
    }
}

/// A group's recorder, with the time since frame zero at which the group opened.
type Opened = (Duration, TimedObserver<char, TestScheduler>);

/// What each group received, recorded from frame zero, in the order the groups opened.
#[derive(Clone)]
struct Groups {
    sch: TestScheduler,
    zero: Instant,
    opened: Arc<Mutex<Vec<Opened>>>,
}

impl Groups {
    fn new(sch: &TestScheduler) -> Self {
        Groups {
            sch: sch.clone(),
            zero: sch.now(),
            opened: Arc::default(),
        }
    }

    /// Subscribes `group` (during the `on_next` that delivers it, as a group requires) and,
    /// with `unsubscribe_at`, disposes that subscription at that frame.
    fn record<G>(&self, group: G, unsubscribe_at: Option<u64>)
    where
        G: Subscribe<TimedObserver<char, TestScheduler>>,
        G::Subscription: Send + 'static,
    {
        let observer = TimedObserver::new(&self.sch);
        let opened_at = self.sch.now() - self.zero;
        let handle = group.subscribe_observer(observer.clone());
        if let Some(frame) = unsubscribe_at {
            let o = observer.clone();
            rx::source::timer(frames(frame) - opened_at, self.sch.clone()).subscribe(move |_| {
                o.dispose();
                handle.dispose();
            });
        }
        self.opened.lock().unwrap().push((opened_at, observer));
    }

    /// Asserts what every group received, one diagram each from frame zero (leading spaces
    /// and trailing dashes are not significant).
    #[track_caller]
    fn assert(&self, m: &Marbles, expected: &[&str]) {
        let actual: Vec<String> = self
            .opened
            .lock()
            .unwrap()
            .iter()
            .map(|(at, o)| {
                let timeline: Vec<_> = o
                    .timeline()
                    .into_iter()
                    .map(|(t, n)| (t + *at, n))
                    .collect();
                m.render(&timeline).trim_end_matches('-').to_string()
            })
            .collect();
        let expected: Vec<&str> = expected
            .iter()
            .map(|e| e.trim().trim_end_matches('-'))
            .collect();
        assert_eq!(actual, expected);
    }
}

#[test]
fn group_by_groups_numbers_by_parity() {
    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let g = groups.clone();
    let e1 = m.hot("--1---2---3---4---5---|");
    let outer = e1
        .group_by(|v| v.to_digit(10).unwrap() % 2)
        .map(move |group| {
            let key = if *group.key() == 1 { 'x' } else { 'y' };
            g.record(group, None);
            key
        });
    m.expect(outer).to_be("--x---y---------------|");
    groups.assert(&m, &["--1-------3-------5---|", "------2-------4-------|"]);
}

#[test]
fn group_by_an_empty_a_never_and_a_failing_source() {
    let (_, m) = setup();
    let e1 = m.cold("|");
    m.expect(e1.clone().group_by(|c| *c).map(|g| *g.key()))
        .to_be("|");
    e1.assert_subscriptions(&["(^!)"]);

    let (_, m) = setup();
    let e1 = m.cold("-");
    m.expect(e1.clone().group_by(|c| *c).map(|g| *g.key()))
        .to_be("-");
    e1.assert_subscriptions(&["^"]);

    let (_, m) = setup();
    let e1 = m.cold("#");
    m.expect(e1.clone().group_by(|c| *c).map(|g| *g.key()))
        .to_be("#");
    e1.assert_subscriptions(&["(^!)"]);
}

#[test]
fn group_by_a_single_value() {
    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let g = groups.clone();
    let e1 = m.hot("^--a--|");
    let outer = e1.clone().group_by(word_key).map(move |group| {
        let key = *group.key();
        g.record(group, None);
        key
    });
    m.expect(outer).to_be("---f--|");
    groups.assert(&m, &["---a--|"]);
    e1.assert_subscriptions(&["^-----!"]);
}

#[test]
fn group_by_a_key_selector() {
    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let g = groups.clone();
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|");
    let outer = e1.clone().group_by(word_key).map(move |group| {
        let key = *group.key();
        g.record(group, None);
        key
    });
    m.expect(outer).to_be("--f---r---z-q-------------|");
    groups.assert(
        &m,
        &[
            "--a-b---d---------i-----l-|",
            "------c-------g-h---------|",
            "----------e---------j-k---|",
            "------------f-------------|",
        ],
    );
    e1.assert_subscriptions(&["^-------------------------!"]);
}

#[test]
fn group_by_emits_the_keys_when_the_groups_open() {
    let (_, m) = setup();
    // A group nobody subscribes to during the `on_next` that delivers it is abandoned, and
    // the next value of its key opens a new one, as in RxJava 3; RxJS (and Rx.NET) keep one
    // group per key, so RxJS's diagram has each key once.
    let e1 = m.hot("-1--2--^-a-b----|");
    m.expect(e1.clone().group_by(word_key).map(|g| *g.key()))
        .to_be("       --f-f----|");
    e1.assert_subscriptions(&["^--------!"]);
}

#[test]
fn group_by_a_key_selector_when_the_source_fails() {
    // The keys alone (groups nobody subscribes to), then the groups, which share the error.
    // A group nobody subscribes to during the `on_next` that delivers it is abandoned, and
    // the next value of its key opens a new one, as in RxJava 3; RxJS (and Rx.NET) keep one
    // group per key, so RxJS's diagram has each key once.
    let (_, m) = setup();
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-#");
    m.expect(e1.clone().group_by(word_key).map(|g| *g.key()))
        .to_be("       --f-f-r-f-z-q-r-r-f-z-z-f-#");
    e1.assert_subscriptions(&["^-------------------------!"]);

    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let g = groups.clone();
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-#");
    let outer = e1.clone().group_by(word_key).map(move |group| {
        let key = *group.key();
        g.record(group, None);
        key
    });
    m.expect(outer).to_be("--f---r---z-q-------------#");
    groups.assert(
        &m,
        &[
            "--a-b---d---------i-----l-#",
            "------c-------g-h---------#",
            "----------e---------j-k---#",
            "------------f-------------#",
        ],
    );
    e1.assert_subscriptions(&["^-------------------------!"]);
}

#[test]
fn group_by_outer_unsubscribed_early() {
    let (_, m) = setup();
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|");
    let unsub = "          -----------!               ";
    // A group nobody subscribes to during the `on_next` that delivers it is abandoned, and
    // the next value of its key opens a new one, as in RxJava 3; RxJS (and Rx.NET) keep one
    // group per key, so RxJS's diagram has each key once.
    m.expect_subscribed(e1.clone().group_by(word_key).map(|g| *g.key()), unsub)
        .to_be("--f-f-r-f-z-               ");
    e1.assert_subscriptions(&["^----------!               "]);
}

#[test]
fn group_by_lets_go_of_the_source_when_the_outer_and_the_inner_are_done() {
    let (_, m) = setup();
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|");
    let result = e1
        .clone()
        .group_by(word_key)
        .take(1)
        .flat_map(|group| group.take(1));
    m.expect(result).to_be("       --(a|)                     ");
    e1.assert_subscriptions(&["^-!                        "]);
}

#[test]
fn group_by_keeps_the_unsubscription_chain_when_unsubscribed_explicitly() {
    let (_, m) = setup();
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|");
    let unsub = "          -----------!               ";
    let result = e1
        .clone()
        .flat_map(rx::source::just)
        .group_by(word_key)
        .flat_map(|g| rx::source::just(*g.key()));
    // A group nobody subscribes to during the `on_next` that delivers it is abandoned, and
    // the next value of its key opens a new one, as in RxJava 3; RxJS (and Rx.NET) keep one
    // group per key, so RxJS's diagram has each key once.
    m.expect_subscribed(result, unsub)
        .to_be("--f-f-r-f-z-               ");
    e1.assert_subscriptions(&["^----------!               "]);
}

#[test]
fn group_by_outer_unsubscribed_early_while_the_groups_go_on() {
    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let g = groups.clone();
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|");
    let unsub = "          ---------!                ";
    let outer = e1.clone().group_by(word_key).map(move |group| {
        let key = *group.key();
        g.record(group, None);
        key
    });
    m.expect_subscribed(outer, unsub)
        .to_be("--f---r---                ");
    groups.assert(
        &m,
        &["--a-b---d---------i-----l-|", "------c-------g-h---------|"],
    );
    // The source stays subscribed for the open groups.
    e1.assert_subscriptions(&["^-------------------------!"]);
}

#[test]
fn group_by_one_group_unsubscribed_early_while_the_others_go_on() {
    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let g = groups.clone();
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|");
    // Disposing a group's subscription ends the group, and the next value of its key opens
    // a new one, as in RxJava 3 (where cancelling a group removes it); RxJS keeps the group
    // and drops that key's values, so its diagram has no second group for the key.
    let mut first = true;
    let outer = e1.clone().group_by(word_key).map(move |group| {
        let key = *group.key();
        let unsubscribe = key == 'f' && std::mem::take(&mut first);
        g.record(group, unsubscribe.then_some(9));
        key
    });
    m.expect(outer).to_be("--f---r---z-q-----f-------|");
    groups.assert(
        &m,
        &[
            "--a-b---d-                 ",
            "------c-------g-h---------|",
            "----------e---------j-k---|",
            "------------f-------------|",
            "------------------i-----l-|",
        ],
    );
}

#[test]
fn group_by_groups_unsubscribed_early_at_different_times() {
    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let g = groups.clone();
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|");
    // Disposing a group's subscription ends the group, and the next value of its key opens
    // a new one, as in RxJava 3 (where cancelling a group removes it); RxJS keeps the group
    // and drops that key's values, so its diagram has no second group for the key.
    let mut seen = std::collections::HashSet::new();
    let outer = e1.clone().group_by(word_key).map(move |group| {
        let key = *group.key();
        let at = match key {
            'f' => 9,
            'r' => 12,
            'z' => 16,
            _ => 19,
        };
        g.record(group, seen.insert(key).then_some(at));
        key
    });
    m.expect(outer).to_be("--f---r---z-q-r---f-z-----|");
    groups.assert(
        &m,
        &[
            "--a-b---d-                 ",
            "------c------              ",
            "----------e------          ",
            "------------f-------       ",
            "--------------g-h---------|",
            "------------------i-----l-|",
            "--------------------j-k---|",
        ],
    );
    e1.assert_subscriptions(&["^-------------------------!"]);
}

// ==================================================================== groupBy(key, { element, duration })

#[test]
fn group_by_with_an_element_selector() {
    // RxJS reverses each word; the element here is the upper-case character.
    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let g = groups.clone();
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|");
    let outer = e1
        .clone()
        .group_by_with(word_key, |c| c.to_ascii_uppercase())
        .map(move |group| {
            let key = *group.key();
            g.record(group, None);
            key
        });
    m.expect(outer).to_be("--f---r---z-q-------------|");
    groups.assert(
        &m,
        &[
            "--A-B---D---------I-----L-|",
            "------C-------G-H---------|",
            "----------E---------J-K---|",
            "------------F-------------|",
        ],
    );
    e1.assert_subscriptions(&["^-------------------------!"]);
}

/// RxJS's `duration: group => group.pipe(skip(2))`, made from the key: the source's values
/// of that key after the group's first (the duration starts once the group holds it), from
/// the second on.
fn third_of_key(
    source: &rx::testing::marbles::HotObservable<char>,
) -> impl FnMut(&char) -> rx::BoxedObservable<'static, char> + use<> {
    let source = source.clone();
    move |key| {
        let key = *key;
        source
            .clone()
            .filter(move |c| word_key(c) == key)
            .skip(1)
            .boxed()
    }
}

/// Records each group of a `group_by_until` as it opens, and emits its key.
macro_rules! keys_recorded {
    ($outer:expr, $groups:expr) => {{
        let g = $groups.clone();
        $outer.map(move |group| {
            let key = *group.key();
            g.record(group, None);
            key
        })
    }};
}

#[test]
fn group_by_until_a_duration_selector() {
    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|");
    let outer = keys_recorded!(
        e1.clone().group_by_until(word_key, third_of_key(&e1)),
        groups
    );
    m.expect(outer).to_be("--f---r---z-q-----f-------|");
    groups.assert(
        &m,
        &[
            "--a-b---(d|)               ",
            "------c-------g-(h|)       ",
            "----------e---------j-(k|) ",
            "------------f-------------|",
            "------------------i-----l-|",
        ],
    );
    e1.assert_subscriptions(&[
        "^-------------------------!",
        // The durations, in the order they subscribed: each after its group's first value.
        "--^-----!                  ",
        "------^---------!          ",
        "----------^-----------!    ",
        "------------^-------------!",
        "------------------^-------!",
    ]);
}

#[test]
fn group_by_until_with_a_duration_that_fails() {
    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|");
    let mut durations = third_of_key(&e1);
    let failing = move |key: &char| durations(key).try_map(|_| Err::<(), _>(Error::msg("error")));
    let outer = keys_recorded!(e1.clone().group_by_until(word_key, failing), groups);
    // The error ends its group alone.
    m.expect(outer).to_be("--f---r---z-q-----f-------|");
    groups.assert(
        &m,
        &[
            "--a-b---(d#)               ",
            "------c-------g-(h#)       ",
            "----------e---------j-(k#) ",
            "------------f-------------|",
            "------------------i-----l-|",
        ],
    );
}

#[test]
fn group_by_until_when_the_source_fails() {
    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-#");
    let outer = keys_recorded!(
        e1.clone().group_by_until(word_key, third_of_key(&e1)),
        groups
    );
    m.expect(outer).to_be("--f---r---z-q-----f-------#");
    groups.assert(
        &m,
        &[
            "--a-b---(d|)               ",
            "------c-------g-(h|)       ",
            "----------e---------j-(k|) ",
            "------------f-------------#",
            "------------------i-----l-#",
        ],
    );
    e1.assert_subscriptions(&[
        "^-------------------------!",
        "--^-----!                  ",
        "------^---------!          ",
        "----------^-----------!    ",
        "------------^-------------!",
        "------------------^-------!",
    ]);
}

#[test]
fn group_by_until_outer_unsubscribed_early_while_the_groups_go_on() {
    let (sch, m) = setup();
    let groups = Groups::new(&sch);
    let e1 = m.hot("-1--2--^-a-b-c-d-e-f-g-h-i-j-k-l-|");
    let unsub = "          -----------!               ";
    let outer = keys_recorded!(
        e1.clone().group_by_until(word_key, third_of_key(&e1)),
        groups
    );
    m.expect_subscribed(outer, unsub).to_be("--f---r---z-");
    groups.assert(
        &m,
        &[
            "--a-b---(d|)               ",
            "------c-------g-(h|)       ",
            "----------e---------j-(k|) ",
        ],
    );
}

#[test]
fn group_by_until_disposes_a_duration_once_its_group_closes() {
    let (_, m) = setup();
    let e1 = m.hot(" -0-1--------2-| ");
    let durations = [m.cold("---s"), m.cold("---s"), m.cold("---s")];
    let d = durations.clone();
    let result = e1
        .clone()
        .group_by_until(
            |c| *c,
            move |key| d[key.to_digit(10).unwrap() as usize].clone(),
        )
        .flat_map(|group| group);
    m.expect(result).to_be("-0-1--------2-|");
    durations[0].assert_subscriptions(&["-^--!"]);
    durations[1].assert_subscriptions(&["---^--!"]);
    durations[2].assert_subscriptions(&["------------^-!"]);
}

// ==================================================================== ref_count_min (refCount(n))
//
// RxJava 3's `ObservableRefCountTest`, "byCount" and "comeAndGo"; then the same with marbles:
// Rx.NET's `RefCount(minObservers)` connects at the `minObservers`th subscriber.

#[test]
fn ref_count_min_connects_at_the_nth_subscriber_each_time() {
    let subscriptions = Arc::new(AtomicUsize::new(0));
    let counter = subscriptions.clone();
    let source = rx::source::defer(move || {
        counter.fetch_add(1, Ordering::SeqCst);
        rx::source::range(1, 5)
    })
    .publish()
    .ref_count_min(2);
    for _ in 0..3 {
        let first = rx::testing::TestObserver::new();
        source.clone().subscribe_observer(first.clone());
        first.assert_notifications(&[]);
        let second = rx::testing::TestObserver::new();
        source.clone().subscribe_observer(second.clone());
        for o in [first, second] {
            o.assert_values(&[1, 2, 3, 4, 5]);
            o.assert_completed();
        }
    }
    assert_eq!(subscriptions.load(Ordering::SeqCst), 3);
}

#[test]
fn ref_count_min_of_one_comes_and_goes() {
    let input = PublishSubject::<i32>::new();
    let source = input.observable().publish().ref_count_min(1);
    let first = source
        .clone()
        .subscribe_observer(rx::testing::TestObserver::new());
    assert!(input.has_observers());
    let second = source
        .clone()
        .subscribe_observer(rx::testing::TestObserver::new());
    assert!(input.has_observers());
    first.dispose();
    assert!(input.has_observers());
    second.dispose();
    assert!(!input.has_observers());
}

#[test]
fn ref_count_min_with_marbles() {
    let (_sch, m) = setup();
    let source = m.hot("--1--2--3--4--5--|");
    let shared = source.clone().publish().ref_count_min(2);
    // A alone does not connect; B, at frame 4, does; B leaving last disconnects.
    let a = m.expect_subscribed(shared.clone(), "^---------!");
    let b = m.expect_subscribed(shared.clone(), "----^-----------!");
    a.to_be("-----2--3-");
    b.to_be("-----2--3--4--5-");
    source.assert_subscriptions(&["----^-----------!"]);
}

// ================================================ ref_count_grace (RefCount(disconnectDelay))
//
// Rx.NET's `RefCountTest` "DelayedDisconnect" cases, RxJava 3's `ObservableRefCountTest`
// timed cases and RxJS 7's `share({ resetOnRefCountZero: () => timer(t) })` cases, at exact
// virtual times. One tick of Rx.NET's scheduler is 1 ms here, and its times are shifted by
// 200 (its subscription time).

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Runs `sch` to `t` ms after its start.
fn advance_to(sch: &TestScheduler, t: u64) {
    let due = sch.start() + ms(t);
    sch.advance_by(due.saturating_duration_since(sch.now()));
}

fn span(subscribed: u64, unsubscribed: u64) -> rx::testing::marbles::SubscriptionSpan {
    rx::testing::marbles::SubscriptionSpan {
        subscribed: ms(subscribed),
        unsubscribed: Some(ms(unsubscribed)),
    }
}

#[test]
fn ref_count_grace_hot_source_with_subscribers_coming_and_going() {
    use rx::Notification::{Completed, Next};
    let (sch, m) = setup();
    let source = m.hot_with(
        "10ms a 9ms b 9ms c 9ms d 9ms e 9ms f 9ms g 9ms h 9ms i 9ms |",
        |c: char| c as i32 - 'a' as i32 + 1,
    );
    let shared = source.clone().publish().ref_count_grace(ms(9), sch.clone());
    let observers: Vec<TimedObserver<i32, TestScheduler>> =
        (0..4).map(|_| TimedObserver::new(&sch)).collect();
    // (time, observer, subscribe or dispose)
    let script = [
        (15, 0, true),
        (25, 1, true),
        (35, 0, false),
        (55, 2, true),
        (65, 2, false),
        (75, 1, false),
        (85, 3, true),
        (120, 3, false),
    ];
    let mut handles: Vec<Option<_>> = (0..4).map(|_| None).collect();
    for (t, i, subscribe) in script {
        advance_to(&sch, t);
        if subscribe {
            handles[i] = Some(shared.clone().subscribe_observer(observers[i].clone()));
        } else {
            handles[i].take().unwrap().dispose();
        }
    }
    sch.run();
    observers[0].assert_timeline(&[(ms(20), Next(2)), (ms(30), Next(3))]);
    observers[1].assert_timeline(&[
        (ms(30), Next(3)),
        (ms(40), Next(4)),
        (ms(50), Next(5)),
        (ms(60), Next(6)),
        (ms(70), Next(7)),
    ]);
    observers[2].assert_timeline(&[(ms(60), Next(6))]);
    observers[3].assert_timeline(&[(ms(90), Next(9)), (ms(100), Completed)]);
    // The last subscriber left at 75: disconnected 9 ms later, and 85 connected again.
    assert_eq!(source.subscriptions(), vec![span(15, 84), span(85, 100)]);
}

#[test]
fn ref_count_grace_keeps_the_connection_for_a_subscriber_returning_within_it() {
    let (sch, m) = setup();
    let source = m.hot("--a--b--c--d--e--f--|");
    let shared = source.clone().publish().ref_count_grace(ms(5), sch.clone());
    let first = TimedObserver::new(&sch);
    let second = TimedObserver::new(&sch);
    let h = shared.clone().subscribe_observer(first.clone());
    advance_to(&sch, 6);
    h.dispose();
    advance_to(&sch, 10);
    shared.clone().subscribe_observer(second.clone());
    // Well past the grace: the returning subscriber holds the connection.
    advance_to(&sch, 30);
    use rx::Notification::{Completed, Next};
    first.assert_timeline(&[(ms(2), Next('a')), (ms(5), Next('b'))]);
    second.assert_timeline(&[
        (ms(11), Next('d')),
        (ms(14), Next('e')),
        (ms(17), Next('f')),
        (ms(20), Completed),
    ]);
    source.assert_subscriptions(&["^-------------------!"]);
    assert!(sch.is_empty(), "the cancelled timer is gone");
}

#[test]
fn ref_count_grace_disconnects_when_it_ends_and_the_next_subscriber_resubscribes() {
    // RxJS: `share({ resetOnRefCountZero: () => timer(t) })` resets after the timer.
    let (sch, m) = setup();
    let source = m.cold("-a-b-c-d-e-f-g-h-|");
    let shared = source.clone().publish().ref_count_grace(ms(3), sch.clone());
    let first = TimedObserver::new(&sch);
    let second = TimedObserver::new(&sch);
    let h = shared.clone().subscribe_observer(first.clone());
    advance_to(&sch, 4);
    h.dispose();
    advance_to(&sch, 6);
    assert!(!sch.is_empty(), "the grace timer runs");
    advance_to(&sch, 10);
    shared.clone().subscribe_observer(second.clone());
    sch.run();
    use rx::Notification::{Completed, Next};
    first.assert_timeline(&[(ms(1), Next('a')), (ms(3), Next('b'))]);
    // A new subscription to the cold source: from its first value again.
    second.assert_timeline(&[
        (ms(11), Next('a')),
        (ms(13), Next('b')),
        (ms(15), Next('c')),
        (ms(17), Next('d')),
        (ms(19), Next('e')),
        (ms(21), Next('f')),
        (ms(23), Next('g')),
        (ms(25), Next('h')),
        (ms(27), Completed),
    ]);
    assert_eq!(source.subscriptions(), vec![span(0, 7), span(10, 27)]);
}

#[test]
fn ref_count_grace_of_a_completing_source_starts_no_timer() {
    // RxJava's `byTime`: a source that completes while subscribed leaves nothing scheduled,
    // and each subscriber runs it anew.
    let (sch, _m) = setup();
    let subscriptions = Arc::new(AtomicUsize::new(0));
    let counter = subscriptions.clone();
    let shared = rx::source::defer(move || {
        counter.fetch_add(1, Ordering::SeqCst);
        rx::source::range(1, 5)
    })
    .publish()
    .ref_count_grace(ms(1000), sch.clone());
    for _ in 0..3 {
        let o = rx::testing::TestObserver::new();
        shared.clone().subscribe_observer(o.clone());
        o.assert_values(&[1, 2, 3, 4, 5]);
        o.assert_completed();
        assert!(sch.is_empty());
    }
    assert_eq!(subscriptions.load(Ordering::SeqCst), 3);
}

#[test]
fn ref_count_grace_cancels_its_timer_when_the_source_completed_during_it() {
    let (sch, m) = setup();
    let source = m.hot("--a--b--|");
    let shared = source
        .clone()
        .publish()
        .ref_count_grace(ms(10), sch.clone());
    let first = TimedObserver::new(&sch);
    let h = shared.clone().subscribe_observer(first.clone());
    advance_to(&sch, 3);
    h.dispose();
    // The source completes at 8, in the grace, with nobody to tell.
    advance_to(&sch, 9);
    assert!(!sch.is_empty());
    let late = rx::testing::TestObserver::new();
    // The next subscriber finds the connection ended: the timer is disposed, and it starts a
    // new connection (to the hot source, which gives a late subscriber its completion).
    shared.clone().subscribe_observer(late.clone());
    assert!(sch.is_empty(), "the grace timer is disposed");
    late.assert_notifications(&[rx::Notification::Completed]);
    assert_eq!(source.subscriptions(), vec![span(0, 8), span(9, 9)]);
    use rx::Notification::Next;
    first.assert_timeline(&[(ms(2), Next('a'))]);
}

#[test]
fn ref_count_grace_holds_the_connection_until_the_timer() {
    // Rx.NET's `RefCount_DelayedDisconnect_NotConnected`.
    let sch = TestScheduler::new();
    let subscriptions = Arc::new(AtomicUsize::new(0));
    let disconnected = Arc::new(AtomicUsize::new(0));
    let (s, d) = (subscriptions.clone(), disconnected.clone());
    let shared = rx::source::defer(move || {
        s.fetch_add(1, Ordering::SeqCst);
        let d = d.clone();
        rx::source::never::<i32>().finally(move || {
            d.fetch_add(1, Ordering::SeqCst);
        })
    })
    .publish()
    .ref_count_grace(ms(20), sch.clone());
    let first = shared
        .clone()
        .subscribe_observer(rx::testing::TestObserver::new());
    let second = shared
        .clone()
        .subscribe_observer(rx::testing::TestObserver::new());
    assert_eq!(subscriptions.load(Ordering::SeqCst), 1);
    first.dispose();
    second.dispose();
    assert_eq!(disconnected.load(Ordering::SeqCst), 0);
    sch.advance_by(ms(19));
    assert_eq!(disconnected.load(Ordering::SeqCst), 0);
    sch.advance_by(ms(1));
    assert_eq!(disconnected.load(Ordering::SeqCst), 1);
    // Connected afresh by the next subscriber.
    let third = shared
        .clone()
        .subscribe_observer(rx::testing::TestObserver::new());
    assert_eq!(subscriptions.load(Ordering::SeqCst), 2);
    third.dispose();
    sch.advance_by(ms(20));
    assert_eq!(disconnected.load(Ordering::SeqCst), 2);
}
