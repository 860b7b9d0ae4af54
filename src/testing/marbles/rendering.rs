//! Drawing timelines as diagrams, for `render` and for the messages of failed assertions.

use super::Marbles;
use crate::notification::Notification;
use std::fmt;
use std::time::Duration;

/// Gaps longer than this many frames are rendered as a time progression, not dashes.
const MAX_DASHES: u128 = 40;

impl Marbles {
    /// Draws `timeline` as a diagram that [`parse`](Marbles::parse) reads back: values by
    /// their [`Display`](fmt::Display) text, which should be one character (others are drawn
    /// as `?`). Gaps longer than 40 frames are written as time progressions, and so are gaps
    /// that are not whole frames. Events that a diagram cannot place (one frame after a
    /// group of two, say, which still takes four) are drawn right after what precedes them.
    ///
    /// ```
    /// use rx::Notification::{Completed, Next};
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::Marbles;
    /// use std::time::Duration;
    ///
    /// let m = Marbles::new(&TestScheduler::new());
    /// let ms = Duration::from_millis;
    /// let timeline = [(ms(2), Next(1)), (ms(5), Next(2)), (ms(5), Completed)];
    /// assert_eq!(m.render(&timeline), "--1--(2|)");
    /// assert_eq!(m.render(&[(ms(100), Next('a'))]), " 100ms a");
    /// ```
    pub fn render<T: fmt::Display>(&self, timeline: &[(Duration, Notification<T>)]) -> String {
        render(timeline, self.ctx.frame, |v| single_char(v)).line
    }
}

pub(super) struct Rendered {
    pub(super) line: String,
    /// The column (from 0) of each event.
    pub(super) columns: Vec<usize>,
    /// Whether some value has no character, or some event could not be placed.
    pub(super) lossy: bool,
}

pub(super) fn single_char<T: fmt::Display + ?Sized>(value: &T) -> Option<char> {
    let text = value.to_string();
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if !"-()|#^! ".contains(c) => Some(c),
        _ => None,
    }
}

/// `d` as a time progression's number and unit, exactly.
fn progression(d: Duration) -> String {
    let nanos = d.as_nanos();
    if nanos.is_multiple_of(1_000_000_000) {
        format!("{}s", nanos / 1_000_000_000)
    } else if nanos.is_multiple_of(1_000_000) {
        format!("{}ms", nanos / 1_000_000)
    } else {
        let fraction = format!("{:06}", nanos % 1_000_000);
        format!("{}.{}ms", nanos / 1_000_000, fraction.trim_end_matches('0'))
    }
}

/// What takes a diagram from `from` to `to`: dashes, or a time progression.
pub(super) fn gap(from: Duration, to: Duration, frame: Duration) -> String {
    let d = to.saturating_sub(from);
    let (frames, rest) = (
        d.as_nanos() / frame.as_nanos(),
        d.as_nanos() % frame.as_nanos(),
    );
    if rest == 0 && frames <= MAX_DASHES {
        "-".repeat(frames as usize)
    } else {
        format!(" {} ", progression(d))
    }
}

pub(super) fn render<T>(
    timeline: &[(Duration, Notification<T>)],
    frame: Duration,
    marble: impl Fn(&T) -> Option<char>,
) -> Rendered {
    let mut out = Rendered {
        line: String::new(),
        columns: Vec::with_capacity(timeline.len()),
        lossy: false,
    };
    // When the next character would be.
    let mut cursor = Duration::ZERO;
    let mut i = 0;
    while i < timeline.len() {
        let at = timeline[i].0;
        let len = timeline[i..].iter().take_while(|(t, _)| *t == at).count();
        if at >= cursor {
            out.line.push_str(&gap(cursor, at, frame));
            cursor = at;
        } else {
            out.lossy = true;
        }
        if len > 1 {
            out.line.push('(');
        }
        for (_, n) in &timeline[i..i + len] {
            out.columns.push(out.line.chars().count());
            let c = match n {
                Notification::Next(v) => marble(v).unwrap_or_else(|| {
                    out.lossy = true;
                    '?'
                }),
                Notification::Error(_) => '#',
                Notification::Completed => '|',
            };
            out.line.push(c);
        }
        if len > 1 {
            out.line.push(')');
        }
        cursor += frame * if len > 1 { len as u32 + 2 } else { 1 };
        i += len;
    }
    out
}

/// "frame 4", or the exact time when it is not on a frame.
pub(super) fn when(d: Duration, frame: Duration) -> String {
    if d.as_nanos().is_multiple_of(frame.as_nanos()) {
        format!("frame {}", d.as_nanos() / frame.as_nanos())
    } else {
        format!("{d:?} (between frames)")
    }
}
#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::Notification::{Completed, Next};
    use crate::testing::marbles::test_support::*;

    // ---------------------------------------------------------------- rendering

    #[test]
    fn rendering_reads_back_as_the_same_timeline() {
        let m = marbles();
        for diagram in [
            "",
            "|",
            "-a-b-|",
            "(ab)",
            "--a--(bc)--(d|)",
            "a 100ms b",
            " 2s #",
            "-a 1.25ms (b|)",
        ] {
            let timeline = m.parse(diagram);
            let drawn = m.render(&timeline);
            assert_eq!(m.parse(&drawn), timeline, "{diagram:?} drawn as {drawn:?}");
        }
        let timeline = [(ms(2), Next(1)), (ms(5), Next(23)), (ms(5), Completed)];
        assert_eq!(
            m.render(&timeline),
            "--1--(?|)",
            "values without one character are `?`"
        );
        let r = render(
            &[(ms(0), Next('a')), (ms(0), Next('b')), (ms(2), Next('c'))],
            ms(1),
            |c| Some(*c),
        );
        assert_eq!(
            (r.line.as_str(), r.lossy),
            ("(ab)c", true),
            "a frame inside a group's span"
        );
        assert_eq!(m.render::<char>(&[(ms(41), Completed)]), " 41ms |");
        assert_eq!(
            m.render::<char>(&[(ms(40), Completed)]),
            format!("{}|", "-".repeat(40))
        );
    }
}
