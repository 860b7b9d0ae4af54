//! Recording what passes a point of a live pipeline, and drawing it as a marble diagram that
//! a test can replay.
//!
//! Real timestamps fall anywhere; a diagram has frames, and a group `(ab)` takes as many
//! frames as it has characters. So the recording is *quantised* before it is drawn: each
//! event goes to the nearest frame, events on one frame form a group, and an event whose
//! frame falls inside the span of the group before it moves to the first frame after that
//! span (the only place a diagram can put it). The quantised timeline is what the diagram
//! says, exactly: [`Marbles::parse_with`] reads the diagram back to it.

use super::rendering::render;
use super::subscriptions::subscription_diagram;
use super::{Marbles, SubscriptionSpan};
use crate::Error;
use crate::notification::Notification;
use crate::operators::{SpyEvent, SpyKind};
use crate::schedulers::Scheduler;
use crate::time::Instant;
use parking_lot::Mutex;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// The characters a recording gives its values, in order: letters, then punctuation that
/// means nothing in a diagram. No digits: a digit after a space may start a time
/// progression.
const MARBLES: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@$%&*+=?<>~;:,./[]{}_";

/// Records what passes a point of a real pipeline, with timestamps, so that it can be drawn
/// as a marble diagram ([`render`](Recorder::render)) and pasted into a test.
///
/// Give [`spy`](Recorder::spy) to [`spy_with`](crate::ObservableExt::spy_with) at the point
/// to watch: the recorder keeps each subscription, value, error, completion and disposal,
/// with the time it happened on the recorder's clock. [`Recorder::new`] reads the wall clock;
/// [`Recorder::with_clock`] a scheduler's (virtual time in a test). Frame zero of the
/// diagrams is the first subscription recorded. A cheap `Clone` handle.
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::schedulers::TestScheduler;
/// use rx::testing::marbles::{Marbles, Recorder};
/// use std::time::Duration;
///
/// let ms = Duration::from_millis;
/// let sch = TestScheduler::new();
/// let recorder = Recorder::with_clock(&sch);
/// // A live pipeline: here, ticks every 30 ms, the first three, doubled.
/// rx::source::interval(ms(30), sch.clone())
///     .take(3)
///     .map(|v| v * 2)
///     .spy_with("doubled", recorder.spy())
///     .subscribe(|_| {});
/// sch.run();
///
/// let recording = recorder.render(ms(10));
/// assert_eq!(recording.diagram(), "---a--b--(c|)");
/// assert_eq!(recording.subscription(), "^--------!");
/// assert_eq!(recording.values(), [('a', 0), ('b', 2), ('c', 4)]);
/// // What to paste into a test:
/// assert_eq!(
///     recording.to_string(),
///     "// `doubled`, recorded with one frame = 10ms\n\
///      let values = [('a', 0), ('b', 2), ('c', 4)];\n\
///      let diagram = \"---a--b--(c|)\";\n\
///      let subscription = \"^--------!\";\n"
/// );
/// // ... which replays the same notifications at the same frames.
/// let m = Marbles::with_frame(&TestScheduler::new(), ms(10));
/// assert_eq!(m.parse_with(recording.diagram(), recording.values()), recording.timeline());
/// ```
pub struct Recorder<T> {
    shared: Arc<Shared<T>>,
}

type Clock = Box<dyn Fn() -> Instant + Send + Sync>;

struct Shared<T> {
    clock: Option<Clock>,
    entries: Mutex<Vec<Entry<T>>>,
    label: Mutex<Option<String>>,
}

struct Entry<T> {
    at: Instant,
    subscription: u64,
    what: What<T>,
}

enum What<T> {
    Subscribed,
    Notification(Notification<T>),
    Disposed,
}

impl<T> Recorder<T> {
    /// A recorder on the wall clock ([`rx::time::Instant`](crate::time::Instant)).
    pub fn new() -> Self {
        Recorder::with(None)
    }

    /// A recorder on `scheduler`'s clock: virtual time on a
    /// [`TestScheduler`](crate::schedulers::TestScheduler).
    pub fn with_clock<Sch: Scheduler>(scheduler: &Sch) -> Self {
        let scheduler = scheduler.clone();
        Recorder::with(Some(Box::new(move || scheduler.now())))
    }

    fn with(clock: Option<Clock>) -> Self {
        Recorder {
            shared: Arc::new(Shared {
                clock,
                entries: Mutex::new(Vec::new()),
                label: Mutex::new(None),
            }),
        }
    }

    /// The closure to give [`spy_with`](crate::ObservableExt::spy_with): it records each
    /// event of the point in this recorder.
    pub fn spy(&self) -> impl Fn(&SpyEvent<'_, T>) + Send + Sync + 'static
    where
        T: Clone + Send + 'static,
    {
        let shared = self.shared.clone();
        move |event| {
            let at = match &shared.clock {
                Some(now) => now(),
                None => Instant::now(),
            };
            let what = match event.kind() {
                SpyKind::Subscribed => What::Subscribed,
                SpyKind::Next(v) => What::Notification(Notification::Next((*v).clone())),
                SpyKind::Error(e) => What::Notification(Notification::Error((*e).clone())),
                SpyKind::Completed => What::Notification(Notification::Completed),
                SpyKind::Disposed => What::Disposed,
            };
            shared
                .label
                .lock()
                .get_or_insert_with(|| event.label().to_string());
            shared.entries.lock().push(Entry {
                at,
                subscription: event.subscription(),
                what,
            });
        }
    }

    /// Draws what was recorded so far as marble diagrams with frames of `frame`: one
    /// diagram and one subscription diagram per subscription, values named by characters
    /// (equal values by the same one) in a legend.
    ///
    /// # Panics
    ///
    /// If `frame` is zero, or more than 73 distinct values were recorded (a diagram that
    /// long is no help: record a shorter stretch, or a coarser value).
    pub fn render(&self, frame: Duration) -> Recording<T>
    where
        T: Clone + PartialEq,
    {
        assert!(
            !frame.is_zero(),
            "Recorder::render: a frame must last some time"
        );
        let entries = self.shared.entries.lock();
        let zero = entries.first().map(|e| e.at);
        let since = |at: Instant| zero.map_or(Duration::ZERO, |z| at.saturating_duration_since(z));
        let mut values: Vec<(char, T)> = Vec::new();
        let mut error = None;
        let mut ids: Vec<u64> = entries.iter().map(|e| e.subscription).collect();
        ids.sort_unstable();
        ids.dedup();
        let subscriptions = ids
            .into_iter()
            .map(|id| {
                let mine = entries.iter().filter(|e| e.subscription == id);
                let mut subscribed = None;
                let mut ended = None;
                let mut raw = Vec::new();
                for e in mine {
                    match &e.what {
                        What::Subscribed => subscribed = subscribed.or(Some(since(e.at))),
                        What::Disposed => ended = ended.or(Some(since(e.at))),
                        What::Notification(n) => {
                            if n.is_terminal() {
                                ended = ended.or(Some(since(e.at)));
                            }
                            if let Notification::Error(e) = n {
                                error.get_or_insert_with(|| e.clone());
                            }
                            if let Notification::Next(v) = n
                                && !values.iter().any(|(_, known)| known == v)
                            {
                                let c = MARBLES.chars().nth(values.len()).unwrap_or_else(|| {
                                    panic!(
                                        "Recorder::render: more than {} distinct values",
                                        MARBLES.chars().count()
                                    )
                                });
                                values.push((c, v.clone()));
                            }
                            raw.push((since(e.at), n.clone()));
                        }
                    }
                }
                let start = frame_of(subscribed.unwrap_or_default(), frame);
                let timeline = quantise(&raw, start, frame);
                let last = timeline.last().map_or(Duration::ZERO, |(at, _)| *at);
                let span = SubscriptionSpan {
                    subscribed: frame * start,
                    unsubscribed: ended
                        .map(|d| (frame * frame_of(d, frame)).max(last).max(frame * start)),
                };
                let marble = |v: &T| values.iter().find(|(_, known)| known == v).map(|(c, _)| *c);
                let diagram = render(&timeline, frame, marble).line;
                RecordedSubscription {
                    diagram,
                    subscription: subscription_diagram(&span, frame),
                    span,
                    timeline,
                }
            })
            .collect();
        Recording {
            label: self.shared.label.lock().clone().unwrap_or_default(),
            frame,
            values,
            error,
            subscriptions,
        }
    }
}

/// The frame nearest to `d`.
fn frame_of(d: Duration, frame: Duration) -> u32 {
    let frames = (d.as_nanos() + frame.as_nanos() / 2) / frame.as_nanos();
    u32::try_from(frames).expect("Recorder::render: more than u32::MAX frames; use longer frames")
}

/// Puts each event on a frame a diagram can show: the nearest frame, or the first after the
/// span of what came before it (see the module documentation).
fn quantise<T: Clone>(
    raw: &[(Duration, Notification<T>)],
    start: u32,
    frame: Duration,
) -> Vec<(Duration, Notification<T>)> {
    let mut out = Vec::with_capacity(raw.len());
    let mut cursor = start;
    let mut i = 0;
    while i < raw.len() {
        let at = frame_of(raw[i].0, frame).max(cursor);
        let len = raw[i..]
            .iter()
            .take_while(|(t, _)| frame_of(*t, frame) <= at)
            .count();
        out.extend(raw[i..i + len].iter().map(|(_, n)| (frame * at, n.clone())));
        cursor = at + if len > 1 { len as u32 + 2 } else { 1 };
        i += len;
    }
    out
}

impl<T> Clone for Recorder<T> {
    fn clone(&self) -> Self {
        Recorder {
            shared: self.shared.clone(),
        }
    }
}

impl<T> Default for Recorder<T> {
    fn default() -> Self {
        Recorder::new()
    }
}

impl<T> fmt::Debug for Recorder<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Recorder")
            .field("events", &self.shared.entries.lock().len())
            .finish_non_exhaustive()
    }
}

/// What a [`Recorder`] saw, drawn as marble diagrams; made by [`Recorder::render`].
///
/// Its [`Display`](fmt::Display) is Rust to paste into a test: the value legend, then each
/// subscription's diagram and subscription diagram.
#[derive(Clone)]
pub struct Recording<T> {
    label: String,
    frame: Duration,
    values: Vec<(char, T)>,
    error: Option<Error>,
    subscriptions: Vec<RecordedSubscription<T>>,
}

#[derive(Clone)]
struct RecordedSubscription<T> {
    diagram: String,
    subscription: String,
    span: SubscriptionSpan,
    timeline: Vec<(Duration, Notification<T>)>,
}

impl<T> Recording<T> {
    fn first(&self) -> Option<&RecordedSubscription<T>> {
        self.subscriptions.first()
    }

    /// The diagram of the first subscription: what it received, from frame zero (its own
    /// subscription).
    pub fn diagram(&self) -> &str {
        self.first().map_or("", |s| &s.diagram)
    }

    /// The subscription diagram of the first subscription: `^` where it was made, `!` where
    /// it ended (terminal notification or disposal).
    pub fn subscription(&self) -> &str {
        self.first().map_or("", |s| &s.subscription)
    }

    /// The value legend: the character that stands for each value, for
    /// [`cold_with`](Marbles::cold_with), [`to_be_with`](super::Expectation::to_be_with) and
    /// [`parse_with`](Marbles::parse_with).
    pub fn values(&self) -> &[(char, T)] {
        &self.values
    }

    /// The first error recorded, which `#` stands for
    /// ([`with_error`](super::ColdObservable::with_error)).
    pub fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    /// How many subscriptions were recorded.
    pub fn subscription_count(&self) -> usize {
        self.subscriptions.len()
    }

    /// The diagram and subscription diagram of the `n`th subscription (from 0), frames
    /// counted from the recording's frame zero.
    pub fn nth(&self, n: usize) -> Option<(&str, &str)> {
        self.subscriptions
            .get(n)
            .map(|s| (s.diagram.as_str(), s.subscription.as_str()))
    }

    /// The first subscription's notifications, each at the frame the diagram puts it:
    /// what [`Marbles::parse_with`] reads from [`diagram`](Recording::diagram) with
    /// [`values`](Recording::values).
    pub fn timeline(&self) -> Vec<(Duration, Notification<T>)>
    where
        T: Clone,
    {
        self.first().map_or_else(Vec::new, |s| s.timeline.clone())
    }

    /// The first subscription's span, as [`Marbles::parse_subscription`] reads it from
    /// [`subscription`](Recording::subscription).
    pub fn span(&self) -> Option<SubscriptionSpan> {
        self.first().map(|s| s.span)
    }

    /// The length of a frame.
    pub fn frame(&self) -> Duration {
        self.frame
    }
}

impl<T: fmt::Debug> fmt::Display for Recording<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "// `{}`, recorded with one frame = {:?}",
            self.label, self.frame
        )?;
        if let Some(e) = &self.error
            && e.to_string() != "error"
        {
            writeln!(
                f,
                "// `#` is rx::Error::msg({:?}): add .with_error(..)",
                e.to_string()
            )?;
        }
        write!(f, "let values = [")?;
        for (i, (c, v)) in self.values.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "({c:?}, {v:?})")?;
        }
        writeln!(f, "];")?;
        for (i, s) in self.subscriptions.iter().enumerate() {
            let suffix = if i == 0 {
                String::new()
            } else {
                format!("_{}", i + 1)
            };
            writeln!(f, "let diagram{suffix} = {:?};", s.diagram)?;
            writeln!(f, "let subscription{suffix} = {:?};", s.subscription)?;
        }
        Ok(())
    }
}

impl<T: fmt::Debug> fmt::Debug for Recording<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Marbles {
    /// When a subscription diagram subscribes and unsubscribes, from frame zero: `^` takes
    /// a frame, `!` none, so `-^--!` is subscribed at frame 1 and unsubscribed at frame 4.
    ///
    /// ```
    /// use rx::schedulers::TestScheduler;
    /// use rx::testing::marbles::{Marbles, SubscriptionSpan};
    /// use std::time::Duration;
    ///
    /// let m = Marbles::new(&TestScheduler::new());
    /// let ms = Duration::from_millis;
    /// assert_eq!(
    ///     m.parse_subscription("-^--!"),
    ///     SubscriptionSpan { subscribed: ms(1), unsubscribed: Some(ms(4)) }
    /// );
    /// ```
    ///
    /// # Panics
    ///
    /// If the diagram is malformed or has no `^`.
    #[track_caller]
    pub fn parse_subscription(&self, diagram: &str) -> SubscriptionSpan {
        let (subscribed, unsubscribed) = super::parser::parse_subscription(diagram, self.ctx.frame);
        match subscribed {
            Some(subscribed) => SubscriptionSpan {
                subscribed,
                unsubscribed,
            },
            None => super::parser::fail(diagram, 1, "a subscription diagram needs a `^`"),
        }
    }
}
