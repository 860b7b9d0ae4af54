//! Reading diagrams: RxJS's run-mode rules, with a panic naming the column of whatever
//! breaks them.

use super::{MarbleValues, Marbles, default_error};
use crate::Error;
use crate::notification::Notification;
use std::fmt;
use std::time::Duration;

impl Marbles {
    /// The time from the start of `diagram` to its `|`, RxJS's `time`: for operator
    /// arguments that line up with a diagram.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let m = Marbles::new(&TestScheduler::new());
    /// assert_eq!(m.time("  ---|"), Duration::from_millis(3));
    /// assert_eq!(m.time("-(ab)|"), Duration::from_millis(5));
    /// assert_eq!(m.time("- 1s |"), Duration::from_millis(1001));
    /// ```
    ///
    /// # Panics
    ///
    /// If the diagram is malformed or has no `|`.
    #[doc(alias = "createTime")]
    #[track_caller]
    pub fn time(&self, diagram: &str) -> Duration {
        let parsed = parse(diagram, self.ctx.frame, Rules::Cold);
        match parsed
            .events
            .iter()
            .find(|e| matches!(e.kind, Kind::Completed))
        {
            Some(e) => e.at,
            None => fail(
                diagram,
                diagram.chars().count() + 1,
                "a time diagram needs a `|`",
            ),
        }
    }

    /// The timeline `diagram` stands for, values being its characters: what
    /// [`Expectation::to_be`](crate::testing::marbles::Expectation::to_be) compares with. Times count from `^`, or from the start.
    ///
    /// ```
    /// use rx::Notification::{Completed, Next};
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let m = Marbles::new(&TestScheduler::new());
    /// let ms = Duration::from_millis;
    /// assert_eq!(
    ///     m.parse("-a-(bc)|"),
    ///     [(ms(1), Next('a')), (ms(3), Next('b')), (ms(3), Next('c')), (ms(7), Completed)]
    /// );
    /// ```
    ///
    /// # Panics
    ///
    /// If the diagram is malformed, or has a value or terminal marble before its `^`.
    #[track_caller]
    pub fn parse(&self, diagram: &str) -> Vec<(Duration, Notification<char>)> {
        self.parse_with(diagram, |c| c)
    }

    /// The timeline `diagram` stands for, values being looked up in `values`.
    ///
    /// ```
    /// use rx::Notification::{Error, Next};
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let m = Marbles::new(&TestScheduler::new());
    /// let ms = Duration::from_millis;
    /// assert_eq!(
    ///     m.parse_with("--^-x#", [('x', 42)]),
    ///     [(ms(2), Next(42)), (ms(3), Error(rx::Error::msg("error")))]
    /// );
    /// ```
    ///
    /// # Panics
    ///
    /// As [`parse`](Marbles::parse), and if a table has no value for a value character.
    #[track_caller]
    pub fn parse_with<T, V: MarbleValues<T>>(
        &self,
        diagram: &str,
        values: V,
    ) -> Vec<(Duration, Notification<T>)> {
        expected_timeline(diagram, self.ctx.frame, &values, &default_error())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Rules {
    /// No `^`.
    Cold,
    /// `^` marks frame zero; notifications before it happen before anyone subscribes.
    Hot,
    /// `^` marks frame zero; nothing can be received before it.
    Expected,
}

pub(super) enum Kind {
    Value(char),
    Error,
    Completed,
}

pub(super) struct Event {
    /// From the start of the diagram.
    pub(super) at: Duration,
    pub(super) column: usize,
    pub(super) kind: Kind,
}

pub(super) struct Parsed {
    pub(super) events: Vec<Event>,
    /// When `^` is, from the start of the diagram.
    pub(super) subscription: Option<Duration>,
}

impl Parsed {
    /// The notifications, each with its time from `^` (from the start without one), or
    /// `None` before `^`.
    #[track_caller]
    pub(super) fn notifications<T>(
        &self,
        diagram: &str,
        values: &impl MarbleValues<T>,
        error: &Error,
    ) -> Vec<(Option<Duration>, Notification<T>)> {
        let zero = self.subscription.unwrap_or_default();
        self.events
            .iter()
            .map(|e| {
                let n = match e.kind {
                    Kind::Value(c) => match values.value_of(c) {
                        Some(v) => Notification::Next(v),
                        None => fail(diagram, e.column, format!("no value for `{c}`")),
                    },
                    Kind::Error => Notification::Error(error.clone()),
                    Kind::Completed => Notification::Completed,
                };
                (e.at.checked_sub(zero), n)
            })
            .collect()
    }
}

#[track_caller]
pub(super) fn expected_timeline<T>(
    diagram: &str,
    frame: Duration,
    values: &impl MarbleValues<T>,
    error: &Error,
) -> Vec<(Duration, Notification<T>)> {
    let parsed = parse(diagram, frame, Rules::Expected);
    parsed
        .notifications(diagram, values, error)
        .into_iter()
        .map(|(at, n)| (at.unwrap_or_default(), n))
        .collect()
}

#[track_caller]
pub(super) fn fail(diagram: &str, column: usize, message: impl fmt::Display) -> ! {
    panic!(
        "invalid marble diagram: {message}\n    {diagram}\n    {:>column$} column {column}",
        "^"
    )
}

/// Reads a diagram by RxJS's run-mode rules (see the module documentation).
#[track_caller]
pub(super) fn parse(diagram: &str, frame: Duration, rules: Rules) -> Parsed {
    let chars: Vec<char> = diagram.chars().collect();
    let mut time = Duration::ZERO;
    // When the open group started, and the column of its `(`.
    let mut group: Option<(Duration, usize)> = None;
    // The terminal marble and its column.
    let mut terminal: Option<(char, usize)> = None;
    let mut subscription: Option<(Duration, usize)> = None;
    let mut events = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (c, column) = (chars[i], i + 1);
        let after_terminal = |what: &str, (t, col): (char, usize)| -> ! {
            fail(
                diagram,
                column,
                format!("{what} after the terminal `{t}` at column {col}; only time can follow it"),
            )
        };
        match c {
            ' ' => {
                i += 1;
                continue;
            }
            '-' => {}
            '(' => {
                if let Some((_, open)) = group {
                    fail(
                        diagram,
                        column,
                        format!("groups cannot nest; the group at column {open} is still open"),
                    );
                }
                if let Some(t) = terminal {
                    after_terminal("a group", t);
                }
                group = Some((time, column));
            }
            ')' => {
                if group.take().is_none() {
                    fail(diagram, column, "`)` without a matching `(`");
                }
            }
            '^' => {
                if rules == Rules::Cold {
                    fail(
                        diagram,
                        column,
                        "a cold observable has no subscription point `^`: it starts when subscribed",
                    );
                }
                if let Some((_, first)) = subscription {
                    fail(
                        diagram,
                        column,
                        format!("a second subscription point `^`; the first is at column {first}"),
                    );
                }
                if group.is_some() {
                    fail(
                        diagram,
                        column,
                        "the subscription point `^` cannot be inside a group",
                    );
                }
                subscription = Some((time, column));
            }
            '!' => fail(
                diagram,
                column,
                "`!` marks an unsubscription, which only subscription diagrams have",
            ),
            _ => {
                if c.is_ascii_digit()
                    && (i == 0 || chars[i - 1] == ' ')
                    && let Some((len, span)) = time_progression(&chars[i..])
                {
                    time += span;
                    i += len;
                    continue;
                }
                if let Some(t) = terminal {
                    after_terminal(&format!("`{c}`"), t);
                }
                let kind = match c {
                    '|' => Kind::Completed,
                    '#' => Kind::Error,
                    c => Kind::Value(c),
                };
                if !matches!(kind, Kind::Value(_)) {
                    terminal = Some((c, column));
                }
                let at = group.map_or(time, |(start, _)| start);
                events.push(Event { at, column, kind });
            }
        }
        time += frame;
        i += 1;
    }
    if let Some((_, open)) = group {
        fail(diagram, open, "unbalanced `(`: the group is never closed");
    }
    if rules == Rules::Expected
        && let Some((zero, col)) = subscription
        && let Some(e) = events.iter().find(|e| e.at < zero)
    {
        fail(
            diagram,
            e.column,
            format!("nothing can be received before the subscription point `^` at column {col}"),
        );
    }
    Parsed {
        events,
        subscription: subscription.map(|(at, _)| at),
    }
}

/// RxJS's time progression, `[0-9]+(\.[0-9]+)?(ms|s|m) `: its length in characters (the
/// space included) and the time it stands for.
fn time_progression(chars: &[char]) -> Option<(usize, Duration)> {
    let digits = |from: usize| {
        chars[from..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    let whole = digits(0);
    let mut len = whole;
    let mut fraction = 0;
    if chars.get(len) == Some(&'.') {
        fraction = digits(len + 1);
        if fraction > 0 {
            len += 1 + fraction;
        }
    }
    let rest: String = chars[len..].iter().take(3).collect();
    let (unit_len, unit_ns): (usize, u128) = if rest.starts_with("ms ") {
        (2, 1_000_000)
    } else if rest.starts_with("s ") {
        (1, 1_000_000_000)
    } else if rest.starts_with("m ") {
        (1, 60_000_000_000)
    } else {
        return None;
    };
    let number = |from: usize, count: usize| -> u128 {
        chars[from..from + count].iter().fold(0u128, |n, c| {
            n.saturating_mul(10)
                .saturating_add(u128::from(*c as u8 - b'0'))
        })
    };
    let mut nanos = number(0, whole).saturating_mul(unit_ns);
    if fraction > 0 {
        // Exact to the nanosecond; digits beyond it are dropped.
        let shown = fraction.min(18);
        let scale = 10u128.pow(shown as u32);
        nanos = nanos.saturating_add(number(whole + 1, shown).saturating_mul(unit_ns) / scale);
    }
    let nanos = u64::try_from(nanos).unwrap_or(u64::MAX);
    Some((len + unit_len + 1, Duration::from_nanos(nanos)))
}

/// Reads a subscription diagram: the times of its `^` and `!`, from its start.
#[track_caller]
pub(super) fn parse_subscription(
    diagram: &str,
    frame: Duration,
) -> (Option<Duration>, Option<Duration>) {
    let chars: Vec<char> = diagram.chars().collect();
    let mut time = Duration::ZERO;
    let mut group: Option<(Duration, usize)> = None;
    let mut subscribed: Option<(Duration, usize)> = None;
    let mut unsubscribed: Option<(Duration, usize)> = None;
    let mut i = 0;
    while i < chars.len() {
        let (c, column) = (chars[i], i + 1);
        let at = group.map_or(time, |(start, _)| start);
        let mut advance = frame;
        match c {
            ' ' => advance = Duration::ZERO,
            '-' => {}
            '(' => {
                if let Some((_, open)) = group {
                    fail(
                        diagram,
                        column,
                        format!("groups cannot nest; the group at column {open} is still open"),
                    );
                }
                group = Some((time, column));
            }
            ')' => {
                if group.take().is_none() {
                    fail(diagram, column, "`)` without a matching `(`");
                }
            }
            '^' => {
                if let Some((_, first)) = subscribed {
                    fail(
                        diagram,
                        column,
                        format!("a second subscription point `^`; the first is at column {first}"),
                    );
                }
                subscribed = Some((at, column));
            }
            '!' => {
                if let Some((_, first)) = unsubscribed {
                    fail(
                        diagram,
                        column,
                        format!(
                            "a second unsubscription point `!`; the first is at column {first}"
                        ),
                    );
                }
                if subscribed.is_none() && diagram.contains('^') {
                    fail(
                        diagram,
                        column,
                        "the unsubscription point `!` comes before the subscription point `^`",
                    );
                }
                unsubscribed = Some((at, column));
                // As in RxJS, `!` takes no time.
                advance = Duration::ZERO;
            }
            _ => {
                let progression = if c.is_ascii_digit() && (i == 0 || chars[i - 1] == ' ') {
                    time_progression(&chars[i..])
                } else {
                    None
                };
                let Some((len, span)) = progression else {
                    fail(
                        diagram,
                        column,
                        format!(
                            "`{c}` in a subscription diagram, which has only `^`, `!`, `-`, \
                             spaces, groups and time progressions"
                        ),
                    );
                };
                time += span;
                i += len;
                continue;
            }
        }
        time += advance;
        i += 1;
    }
    if let Some((_, open)) = group {
        fail(diagram, open, "unbalanced `(`: the group is never closed");
    }
    (subscribed.map(|(at, _)| at), unsubscribed.map(|(at, _)| at))
}
#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::Notification::{Completed, Next};
    use crate::schedulers::TestScheduler;
    use crate::testing::marbles::test_support::*;
    use std::collections::{BTreeMap, HashMap};

    fn raw(diagram: &str, rules: Rules) -> Vec<(Option<Duration>, Notification<char>)> {
        parse(diagram, ms(1), rules).notifications(diagram, &|c: char| c, &default_error())
    }
    // ---------------------------------------------------------------- parsing, rule by rule

    #[test]
    fn a_dash_is_one_frame() {
        assert_eq!(marbles().parse("---a"), [(ms(3), Next('a'))]);
    }

    #[test]
    fn spaces_take_no_time() {
        assert_eq!(marbles().parse("  - -a"), [(ms(2), Next('a'))]);
    }

    #[test]
    fn every_other_character_is_a_value_taking_one_frame() {
        assert_eq!(
            marbles().parse("a1Z?é"),
            [
                (ms(0), Next('a')),
                (ms(1), Next('1')),
                (ms(2), Next('Z')),
                (ms(3), Next('?')),
                (ms(4), Next('é'))
            ]
        );
    }

    #[test]
    fn completion_and_error_take_one_frame_each() {
        assert_eq!(marbles().parse("-|"), [(ms(1), Completed)]);
        assert_eq!(marbles().parse("--#"), [(ms(2), err())]);
        assert_eq!(
            marbles().parse("|---"),
            [(ms(0), Completed)],
            "time may follow a terminal"
        );
    }

    #[test]
    fn a_group_happens_at_its_opening_frame_and_takes_one_frame_per_character() {
        assert_eq!(
            marbles().parse("-(ab)-c"),
            [(ms(1), Next('a')), (ms(1), Next('b')), (ms(6), Next('c'))]
        );
        assert_eq!(
            marbles().parse("--(a|)"),
            [(ms(2), Next('a')), (ms(2), Completed)]
        );
        assert_eq!(
            marbles().parse("( a b )c"),
            [(ms(0), Next('a')), (ms(0), Next('b')), (ms(4), Next('c'))]
        );
        assert_eq!(
            marbles().parse("()a"),
            [(ms(2), Next('a'))],
            "an empty group takes two frames"
        );
    }

    #[test]
    fn time_progression() {
        let m = marbles();
        assert_eq!(
            m.parse("a 9ms b"),
            [(ms(0), Next('a')), (ms(10), Next('b'))]
        );
        assert_eq!(m.parse("10ms a"), [(ms(10), Next('a'))], "at the start");
        assert_eq!(m.parse("- 1s |"), [(ms(1001), Completed)]);
        assert_eq!(m.parse("2m |"), [(Duration::from_secs(120), Completed)]);
        assert_eq!(
            m.parse("1.5ms a"),
            [(Duration::from_micros(1500), Next('a'))]
        );
        assert_eq!(
            m.parse("0.000001ms a"),
            [(Duration::from_nanos(1), Next('a'))]
        );
        assert_eq!(
            m.parse("-(a 5ms b)c"),
            [(ms(1), Next('a')), (ms(1), Next('b')), (ms(10), Next('c'))],
            "inside a group too"
        );
    }

    #[test]
    fn digits_are_values_where_no_time_progression_starts() {
        let m = marbles();
        // Not after a space.
        assert_eq!(
            m.parse("a1ms b"),
            [
                (ms(0), Next('a')),
                (ms(1), Next('1')),
                (ms(2), Next('m')),
                (ms(3), Next('s')),
                (ms(4), Next('b'))
            ]
        );
        // No unit.
        assert_eq!(
            m.parse("a 1 b"),
            [(ms(0), Next('a')), (ms(1), Next('1')), (ms(2), Next('b'))]
        );
        // No space after the unit: RxJS reads values too.
        assert_eq!(
            m.parse("a 1s"),
            [(ms(0), Next('a')), (ms(1), Next('1')), (ms(2), Next('s'))]
        );
        // A dot without decimals.
        assert_eq!(
            m.parse("1.ms "),
            [
                (ms(0), Next('1')),
                (ms(1), Next('.')),
                (ms(2), Next('m')),
                (ms(3), Next('s'))
            ]
        );
    }

    #[test]
    fn the_subscription_point_is_frame_zero() {
        // `^` takes a frame, like any marble.
        assert_eq!(
            raw("--a-^-b|", Rules::Hot),
            [
                (None, Next('a')),
                (Some(ms(2)), Next('b')),
                (Some(ms(3)), Completed)
            ]
        );
        // Spaces and time progressions before `^` count as what they take (RxJS would count
        // characters and put `b` at frame 6).
        assert_eq!(
            raw("a 5ms ^ b", Rules::Hot),
            [(None, Next('a')), (Some(ms(1)), Next('b'))]
        );
        assert_eq!(marbles().parse("  ^-a"), [(ms(2), Next('a'))]);
        assert_eq!(
            raw("-|-^-", Rules::Hot),
            [(None, Completed)],
            "a hot observable may end before `^`"
        );
    }

    #[test]
    fn frames_scale_with_the_frame_length_but_progressions_do_not() {
        let m = Marbles::with_frame(&TestScheduler::new(), ms(10));
        assert_eq!(
            m.parse("-a 25ms (b|)"),
            [
                (ms(10), Next('a')),
                (ms(45), Next('b')),
                (ms(45), Completed)
            ]
        );
        assert_eq!(m.time("--|"), ms(20));
    }

    #[test]
    fn values_come_from_the_table_or_closure() {
        let m = marbles();
        assert_eq!(
            m.parse_with("ab", [('a', 1), ('b', 2)]),
            [(ms(0), Next(1)), (ms(1), Next(2))]
        );
        assert_eq!(
            m.parse_with("ab", &[('a', 1), ('b', 2)][..]),
            [(ms(0), Next(1)), (ms(1), Next(2))]
        );
        assert_eq!(
            m.parse_with("ab", vec![('a', 1), ('b', 2)]),
            [(ms(0), Next(1)), (ms(1), Next(2))]
        );
        let map: HashMap<char, u8> = [('a', 1), ('b', 2)].into();
        assert_eq!(
            m.parse_with("ab", map),
            [(ms(0), Next(1)), (ms(1), Next(2))]
        );
        let map: BTreeMap<char, u8> = [('a', 1), ('b', 2)].into();
        assert_eq!(
            m.parse_with("ab", map),
            [(ms(0), Next(1)), (ms(1), Next(2))]
        );
        assert_eq!(
            m.parse_with("7", |c: char| c.to_digit(10)),
            [(ms(0), Next(Some(7)))]
        );
    }

    // ---------------------------------------------------------------- malformed diagrams

    #[track_caller]
    fn assert_invalid(f: impl FnOnce(), reason: &str, column: usize) {
        let message = panic_message(f);
        assert!(message.starts_with("invalid marble diagram: "), "{message}");
        assert!(
            message.contains(reason),
            "{message:?} should say {reason:?}"
        );
        assert!(
            message.ends_with(&format!("^ column {column}")),
            "{message:?} should point at column {column}"
        );
    }

    #[test]
    fn malformed_diagrams_panic_pointing_at_the_column() {
        let m = marbles();
        assert_invalid(|| drop(m.parse("-(ab")), "never closed", 2);
        assert_invalid(|| drop(m.parse("-a)")), "`)` without a matching `(`", 3);
        assert_invalid(
            || drop(m.parse("((a))")),
            "groups cannot nest; the group at column 1",
            2,
        );
        assert_invalid(
            || drop(m.parse("-a|b")),
            "`b` after the terminal `|` at column 3",
            4,
        );
        assert_invalid(
            || drop(m.parse("#-|")),
            "`|` after the terminal `#` at column 1",
            3,
        );
        assert_invalid(
            || drop(m.parse("(a|b)")),
            "`b` after the terminal `|` at column 3",
            4,
        );
        assert_invalid(
            || drop(m.parse("|(a)")),
            "a group after the terminal `|`",
            2,
        );
        assert_invalid(
            || drop(m.cold("-^-a")),
            "a cold observable has no subscription point",
            2,
        );
        assert_invalid(
            || drop(m.hot("^-^")),
            "a second subscription point `^`; the first is at column 1",
            3,
        );
        assert_invalid(|| drop(m.hot("-(^a)")), "cannot be inside a group", 3);
        assert_invalid(|| drop(m.hot("-a-!")), "`!` marks an unsubscription", 4);
        assert_invalid(
            || drop(m.parse("-a-^-b")),
            "nothing can be received before the subscription point `^` at column 4",
            2,
        );
        assert_invalid(
            || drop(m.parse_with("-a-b", [('a', 1)])),
            "no value for `b`",
            4,
        );
        assert_invalid(
            || {
                let _ = m.time("---");
            },
            "a time diagram needs a `|`",
            4,
        );
    }

    #[test]
    fn the_message_draws_the_diagram_with_a_caret() {
        let message = panic_message(|| drop(marbles().parse("--a)")));
        assert_eq!(
            message,
            "invalid marble diagram: `)` without a matching `(`\n    --a)\n       ^ column 4"
        );
    }

    #[test]
    #[should_panic(expected = "a frame must last some time")]
    fn a_zero_frame_panics() {
        let _ = Marbles::with_frame(&TestScheduler::new(), Duration::ZERO);
    }

    // ---------------------------------------------------------------- subscription diagrams

    #[test]
    fn subscription_diagrams() {
        let p = |d: &str| parse_subscription(d, ms(1));
        assert_eq!(p("^--!"), (Some(ms(0)), Some(ms(3))));
        assert_eq!(p("  --^"), (Some(ms(2)), None));
        assert_eq!(p("-(^!)"), (Some(ms(1)), Some(ms(1))));
        assert_eq!(p("---!"), (None, Some(ms(3))));
        assert_eq!(p("^ 10ms !"), (Some(ms(0)), Some(ms(11))));
        assert_eq!(
            p("-^!-"),
            (Some(ms(1)), Some(ms(2))),
            "`!` takes no time, `^` one frame"
        );
        assert_eq!(p("---"), (None, None));
        assert_invalid(
            || {
                let _ = p("-!^");
            },
            "`!` comes before the subscription point",
            2,
        );
        assert_invalid(
            || {
                let _ = p("^^");
            },
            "a second subscription point",
            2,
        );
        assert_invalid(
            || {
                let _ = p("^!!");
            },
            "a second unsubscription point `!`; the first is at column 2",
            3,
        );
        assert_invalid(
            || {
                let _ = p("^-a");
            },
            "`a` in a subscription diagram",
            3,
        );
        assert_invalid(
            || {
                let _ = p("(^");
            },
            "never closed",
            1,
        );
    }
}
