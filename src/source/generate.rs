//! [`generate`]: the values of a loop over a state, as a `for` loop writes it.

use crate::observable::{Observable, Subscribe};
use crate::observer::Observer;
use crate::subscription::Finished;
use std::fmt;

/// An observable that runs a loop over a state: starting from `initial`, while
/// `condition(&state)` holds it emits `result(&state)` and moves on to `iterate(state)`; when
/// the condition fails it completes (Rx.NET's `Generate`, the state machine of a C `for`).
///
/// It emits inside `subscribe`, as [`from_iter`](crate::source::from_iter) does, and asks
/// the observer before each step whether it still wants values, so an endless loop ends at a
/// `take` further down. Each subscription starts again from `initial` (the `Generate` is
/// cloned for it). For the loop of an `Iterator`, [`from_iter`](crate::source::from_iter)
/// over [`std::iter::successors`] says the same.
///
/// ```text
/// generate(1, < 100, * 3, to_string):   (1-3-9-27-81|)
/// ```
///
/// # Examples
///
/// ```
/// use rx::prelude::*;
/// use rx::testing::TestObserver;
///
/// let observer = TestObserver::new();
/// rx::source::generate(1, |n| *n < 100, |n| n * 3, |n| format!("#{n}"))
///     .subscribe_observer(observer.clone());
/// observer.assert_values(&["#1".into(), "#3".into(), "#9".into(), "#27".into(), "#81".into()]);
/// observer.assert_completed();
/// ```
///
/// # Performance
///
/// A loop on the subscribing thread: no allocation, no lock, a zero-sized handle.
#[doc(alias = "Generate")]
pub fn generate<S, T, C, I, R>(
    initial: S,
    condition: C,
    iterate: I,
    result: R,
) -> Generate<S, C, I, R>
where
    C: FnMut(&S) -> bool,
    I: FnMut(S) -> S,
    R: FnMut(&S) -> T,
{
    Generate {
        initial,
        condition,
        iterate,
        result,
    }
}

/// Emits the values of a loop over a state; built by [`generate`].
#[derive(Clone)]
#[must_use = "observables do nothing unless subscribed"]
pub struct Generate<S, C, I, R> {
    initial: S,
    condition: C,
    iterate: I,
    result: R,
}

impl<S: fmt::Debug, C, I, R> fmt::Debug for Generate<S, C, I, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generate")
            .field("initial", &self.initial)
            .finish_non_exhaustive()
    }
}

impl<S, T, C, I, R> Observable for Generate<S, C, I, R>
where
    C: FnMut(&S) -> bool,
    I: FnMut(S) -> S,
    R: FnMut(&S) -> T,
{
    type Item = T;
    type Flavour = crate::sync::Shared;
    // Emits only inside `subscribe`, on the calling thread, and keeps no observer.
    const EMISSION: crate::observable::Emission = crate::observable::Emission::INSIDE_SUBSCRIBE;
}

impl<S, T, C, I, R, O> Subscribe<O> for Generate<S, C, I, R>
where
    C: FnMut(&S) -> bool,
    I: FnMut(S) -> S,
    R: FnMut(&S) -> T,
    O: Observer<T>,
{
    type Subscription = Finished;

    fn subscribe_observer(mut self, mut observer: O) -> Finished {
        let mut state = self.initial;
        loop {
            // Asked before each step, as `from_iter` asks before each pull: a downstream that
            // is done must not make the loop run its closures again.
            if observer.is_disposed() {
                return Finished;
            }
            if !(self.condition)(&state) {
                observer.on_completed();
                return Finished;
            }
            observer.on_next((self.result)(&state));
            state = (self.iterate)(state);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::generate;
    use crate::Notification as N;
    use crate::prelude::*;
    use crate::testing::TestObserver;
    use std::cell::Cell;

    #[test]
    fn a_false_condition_at_once_completes_empty() {
        let o = TestObserver::<i32>::new();
        generate(0, |_| false, |s| s + 1, |s| *s).subscribe_observer(o.clone());
        o.assert_notifications(&[N::Completed]);
    }

    #[test]
    fn an_endless_loop_ends_at_a_take_without_running_on() {
        let steps = Cell::new(0);
        let o = TestObserver::new();
        generate(
            0,
            |_| true,
            |s| {
                steps.set(steps.get() + 1);
                s + 1
            },
            |s| *s,
        )
        .take(3)
        .subscribe_observer(o.clone());
        o.assert_notifications(&[N::Next(0), N::Next(1), N::Next(2), N::Completed]);
        assert_eq!(
            steps.get(),
            3,
            "the step after the last value runs, no more"
        );
    }

    #[test]
    fn each_subscription_starts_again_from_the_initial_state() {
        let source = generate(
            vec![1],
            |v| v.len() < 3,
            |mut v| {
                v.push(v.len() + 1);
                v
            },
            |v| v.iter().sum::<usize>(),
        );
        let o = TestObserver::new();
        source.clone().subscribe_observer(o.clone());
        source.subscribe_observer(o.clone());
        o.assert_values(&[1, 3, 1, 3]);
    }
}
