//! Subscription logs: when a cold or hot observable was subscribed and unsubscribed.

use super::Context;
use super::parser::{fail, parse_subscription};
use super::rendering::{gap, when};
use crate::Error;
use crate::observer::Observer;
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::Duration;

/// When a cold or hot observable was subscribed, and unsubscribed: RxJS's `SubscriptionLog`,
/// in time since frame zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubscriptionSpan {
    /// When the subscription was made.
    pub subscribed: Duration,
    /// When it ended (terminal notification delivered, disposed, or observer found disposed),
    /// if it has.
    pub unsubscribed: Option<Duration>,
}

#[derive(Default)]
pub(super) struct Log {
    pub(super) spans: Mutex<Vec<SubscriptionSpan>>,
}

impl Log {
    pub(super) fn subscribe(&self, ctx: &Context) -> usize {
        let mut spans = self.spans.lock();
        spans.push(SubscriptionSpan {
            subscribed: ctx.elapsed(),
            unsubscribed: None,
        });
        spans.len() - 1
    }

    pub(super) fn unsubscribe(&self, ctx: &Context, index: usize) {
        let mut spans = self.spans.lock();
        let span = &mut spans[index];
        if span.unsubscribed.is_none() {
            span.unsubscribed = Some(ctx.elapsed());
        }
    }

    pub(super) fn is_unsubscribed(&self, index: usize) -> bool {
        self.spans.lock()[index].unsubscribed.is_some()
    }

    #[track_caller]
    pub(super) fn assert(&self, ctx: &Context, what: &str, expected: &[&str]) {
        ctx.flush();
        let expected: Vec<SubscriptionSpan> = expected
            .iter()
            .filter_map(|diagram| {
                let (subscribed, unsubscribed) = parse_subscription(diagram, ctx.frame);
                if subscribed.is_none() && unsubscribed.is_some() {
                    fail(diagram, 1, "a subscription diagram with `!` needs a `^`");
                }
                // As RxJS: a diagram with neither marker stands for no subscription.
                Some(SubscriptionSpan {
                    subscribed: subscribed?,
                    unsubscribed,
                })
            })
            .collect();
        let actual = self.spans.lock().clone();
        if expected != actual {
            let draw = |spans: &[SubscriptionSpan]| {
                spans
                    .iter()
                    .map(|s| format!("\n    {}", draw_span(s, ctx.frame)))
                    .collect::<String>()
            };
            panic!(
                "subscriptions to the {what} observable differ (one frame is {:?})\nexpected:{}\n\
                 actual:{}",
                ctx.frame,
                if expected.is_empty() {
                    " none".to_string()
                } else {
                    draw(&expected)
                },
                if actual.is_empty() {
                    " none".to_string()
                } else {
                    draw(&actual)
                },
            );
        }
    }
}

/// A span as a subscription diagram.
pub(super) fn subscription_diagram(span: &SubscriptionSpan, frame: Duration) -> String {
    let mut line = gap(Duration::ZERO, span.subscribed, frame);
    match span.unsubscribed {
        Some(u) if u == span.subscribed => line.push_str("(^!)"),
        Some(u) => {
            line.push('^');
            line.push_str(&gap(span.subscribed + frame, u, frame));
            line.push('!');
        }
        None => line.push('^'),
    }
    line
}

/// A span as a subscription diagram, followed by its exact frames.
fn draw_span(span: &SubscriptionSpan, frame: Duration) -> String {
    let line = subscription_diagram(span, frame);
    let until = match span.unsubscribed {
        Some(u) => format!("unsubscribed at {}", when(u, frame)),
        None => "never unsubscribed".to_string(),
    };
    format!(
        "{line:<12} (subscribed at {}, {until})",
        when(span.subscribed, frame)
    )
}

/// Notes the end of a subscription when the observer terminates or turns out disposed.
pub(super) struct LoggedObserver<O> {
    pub(super) inner: O,
    pub(super) ctx: Arc<Context>,
    pub(super) log: Arc<Log>,
    pub(super) index: usize,
}

impl<O> LoggedObserver<O> {
    fn end(&self) {
        self.log.unsubscribe(&self.ctx, self.index);
    }
}

impl<T, O: Observer<T>> Observer<T> for LoggedObserver<O> {
    fn on_next(&mut self, value: T) {
        self.inner.on_next(value);
        if self.inner.is_disposed() {
            self.end();
        }
    }

    fn on_error(self, error: Error) {
        self.end();
        self.inner.on_error(error);
    }

    fn on_completed(self) {
        self.end();
        self.inner.on_completed();
    }

    fn is_disposed(&self) -> bool {
        let disposed = self.inner.is_disposed();
        if disposed {
            self.end();
        }
        disposed
    }
}
