//! The operators that keep upstream handles over both flavours of source: one body of tests,
//! run over thread-safe subjects and `boxed()` sources with `Arc<Mutex<..>>` state, and over
//! local subjects and `boxed_local()` sources with `Rc<RefCell<..>>` state. Then the auto
//! traits: a chain over `Shared` sources has a `Send` handle, one over a `Local` source does
//! not.

use rx::Error;
use rx::Notification::{Completed, Error as Failed, Next};
use rx::prelude::*;
use rx::testing::TestObserver;

/// Pastes the body twice, into `mod shared` and `mod local`, each with the flavour's
/// subjects (`PublishSubject`), its state cell (`State<T>`, with `state`, `get`, `with` and
/// `bump`)
/// and `boxed!`, which boxes an observable in the flavour's box.
macro_rules! for_each_flavour {
    ($($body:tt)*) => {
        mod shared {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use rx::subjects::PublishSubject;

            type State<T> = std::sync::Arc<std::sync::Mutex<T>>;
            type Boxed = rx::BoxedObservable<'static, i32>;

            fn state<T>(value: T) -> State<T> {
                std::sync::Arc::new(std::sync::Mutex::new(value))
            }

            fn get<T: Clone>(state: &State<T>) -> T {
                state.lock().unwrap().clone()
            }

            fn with<T, R>(state: &State<T>, f: impl FnOnce(&mut T) -> R) -> R {
                f(&mut state.lock().unwrap())
            }

            /// Adds one and returns the new count.
            fn bump(state: &State<i32>) -> i32 {
                let mut count = state.lock().unwrap();
                *count += 1;
                *count
            }

            macro_rules! boxed {
                ($e:expr) => {
                    $e.boxed()
                };
            }

            $($body)*
        }

        mod local {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use rx::subjects::local::PublishSubject;

            type State<T> = std::rc::Rc<std::cell::RefCell<T>>;
            type Boxed = rx::LocalBoxedObservable<'static, i32>;

            fn state<T>(value: T) -> State<T> {
                std::rc::Rc::new(std::cell::RefCell::new(value))
            }

            fn get<T: Clone>(state: &State<T>) -> T {
                state.borrow().clone()
            }

            fn with<T, R>(state: &State<T>, f: impl FnOnce(&mut T) -> R) -> R {
                f(&mut state.borrow_mut())
            }

            /// Adds one and returns the new count.
            fn bump(state: &State<i32>) -> i32 {
                let mut count = state.borrow_mut();
                *count += 1;
                *count
            }

            macro_rules! boxed {
                ($e:expr) => {
                    $e.boxed_local()
                };
            }

            $($body)*
        }
    };
}

fn parity(v: &i32) -> i32 {
    v % 2
}

/// Groups any source by parity with no bound beyond `Observable`: the groups' flavour is the
/// source's, named through the public `Flavour` trait.
fn by_parity<'a, S: Observable<Item = i32>>(
    source: S,
) -> rx::operators::GroupBy<'a, S, fn(&i32) -> i32> {
    source.group_by(parity as fn(&i32) -> i32)
}

for_each_flavour! {
    /// A boxed source that counts its subscriptions in `count` and emits the count, then
    /// fails until it has been subscribed `succeed_at` times, and completes then.
    fn counted(count: &State<i32>, succeed_at: i32) -> Boxed {
        let count = count.clone();
        boxed!(rx::source::defer(move || {
            let n = bump(&count);
            rx::source::create(move |mut e| {
                e.on_next(n);
                if n < succeed_at {
                    e.on_error(Error::msg("boom"));
                } else {
                    e.on_completed();
                }
            })
        }))
    }

    #[test]
    fn merge_with_interleaves_two_subjects_and_completes_after_both() {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let o = TestObserver::new();
        let handle = a.observable().merge_with(b.observable()).subscribe_observer(o.clone());
        a.on_next(1);
        b.on_next(2);
        a.on_next(3);
        a.on_completed();
        o.assert_not_terminated();
        b.on_next(4);
        b.on_completed();
        o.assert_notifications(&[Next(1), Next(2), Next(3), Next(4), Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn merge_with_dispose_reaches_both_subjects() {
        let (a, b) = (PublishSubject::<i32>::new(), PublishSubject::new());
        let o = TestObserver::new();
        let handle = a.observable().merge_with(b.observable()).subscribe_observer(o.clone());
        a.on_next(1);
        handle.dispose();
        a.on_next(2);
        b.on_next(3);
        o.assert_notifications(&[Next(1)]);
        assert!(!a.has_observers() && !b.has_observers());
    }

    #[test]
    fn merge_flattens_subjects_and_boxed_sources() {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let o = TestObserver::new();
        let _handle = rx::source::from_iter(vec![
            boxed!(a.observable()),
            boxed!(b.observable()),
            boxed!(rx::source::just(0)),
        ])
        .merge()
        .subscribe_observer(o.clone());
        b.on_next(2);
        a.on_next(1);
        a.on_completed();
        b.on_completed();
        o.assert_notifications(&[Next(0), Next(2), Next(1), Completed]);
    }

    #[test]
    fn flat_map_subscribes_a_stateful_boxed_inner_per_value() {
        let outer = PublishSubject::new();
        let count = state(0);
        let o = TestObserver::new();
        let inner = counted(&count, 1);
        let _handle = outer
            .observable()
            .flat_map(move |v: i32| inner.clone().map(move |n| v * 10 + n))
            .subscribe_observer(o.clone());
        outer.on_next(1);
        outer.on_next(2);
        outer.on_completed();
        o.assert_notifications(&[Next(11), Next(22), Completed]);
        assert_eq!(get(&count), 2);
    }

    #[test]
    fn switch_map_drops_the_previous_inner_subject() {
        let outer = PublishSubject::new();
        let (x, y) = (PublishSubject::new(), PublishSubject::new());
        let inners = [x.observable(), y.observable()];
        let o = TestObserver::new();
        let _handle = outer
            .observable()
            .switch_map(move |i: usize| inners[i].clone())
            .subscribe_observer(o.clone());
        outer.on_next(0);
        x.on_next(1);
        outer.on_next(1);
        x.on_next(2);
        y.on_next(3);
        assert!(!x.has_observers());
        y.on_completed();
        outer.on_completed();
        o.assert_notifications(&[Next(1), Next(3), Completed]);
    }

    #[test]
    fn concat_subscribes_the_next_subject_when_one_completes() {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let o = TestObserver::new();
        let _handle = rx::source::concat(vec![a.observable(), b.observable()])
            .subscribe_observer(o.clone());
        b.on_next(0); // not subscribed yet
        a.on_next(1);
        a.on_completed();
        b.on_next(2);
        b.on_completed();
        o.assert_notifications(&[Next(1), Next(2), Completed]);
    }

    #[test]
    fn concat_with_runs_a_boxed_source_after_a_subject() {
        let a = PublishSubject::new();
        let count = state(0);
        let o = TestObserver::new();
        let _handle = a
            .observable()
            .concat_with(counted(&count, 1))
            .subscribe_observer(o.clone());
        a.on_next(7);
        assert_eq!(get(&count), 0);
        a.on_completed();
        o.assert_notifications(&[Next(7), Next(1), Completed]);
    }

    #[test]
    fn zip_pairs_the_nth_values_of_two_subjects() {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let o = TestObserver::new();
        let handle = a.observable().zip(b.observable()).subscribe_observer(o.clone());
        a.on_next(1);
        a.on_next(2);
        b.on_next("a");
        a.on_completed();
        b.on_next("b");
        o.assert_notifications(&[Next((1, "a")), Next((2, "b")), Completed]);
        assert!(handle.is_disposed());
        assert!(!b.has_observers());
    }

    #[test]
    fn combine_latest_combines_the_latest_values_of_two_subjects() {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let o = TestObserver::new();
        let handle = a
            .observable()
            .combine_latest(b.observable())
            .subscribe_observer(o.clone());
        a.on_next(1);
        b.on_next(10);
        a.on_next(2);
        handle.dispose();
        b.on_next(20);
        o.assert_notifications(&[Next((1, 10)), Next((2, 10))]);
        assert!(!a.has_observers() && !b.has_observers());
    }

    #[test]
    fn retry_resubscribes_a_stateful_boxed_source() {
        let count = state(0);
        let o = TestObserver::new();
        let _handle = counted(&count, 3).retry(5).subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
        assert_eq!(get(&count), 3);
    }

    #[test]
    fn retry_gives_up_after_its_count() {
        let count = state(0);
        let o = TestObserver::new();
        let _handle = counted(&count, 10).retry(1).subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Failed(Error::msg("boom"))]);
        assert_eq!(get(&count), 2);
    }

    #[test]
    fn repeat_resubscribes_a_stateful_boxed_source() {
        let count = state(0);
        let o = TestObserver::new();
        let _handle = counted(&count, 1).repeat(3).subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
        assert_eq!(get(&count), 3);
    }

    #[test]
    fn retry_over_a_subject_keeps_its_handle_until_disposed() {
        let a = PublishSubject::new();
        let o = TestObserver::new();
        let handle = a.observable().retry(1).subscribe_observer(o.clone());
        a.on_next(1);
        handle.dispose();
        a.on_next(2);
        o.assert_notifications(&[Next(1)]);
        assert!(!a.has_observers());
    }

    #[test]
    fn on_error_resume_next_switches_to_a_fallback_subject() {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let fallback = b.observable();
        let o = TestObserver::new();
        let _handle = a
            .observable()
            .on_error_resume_next(move |_| fallback)
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_error(Error::msg("boom"));
        b.on_next(2);
        b.on_completed();
        o.assert_notifications(&[Next(1), Next(2), Completed]);
    }

    #[test]
    fn retry_with_resubscribes_at_a_subject_notifier_and_resets_on_success() {
        // Negative values fail the attempt; the subjects themselves never terminate.
        let (a, notifier) = (PublishSubject::new(), PublishSubject::<()>::new());
        let numbers = state(Vec::new());
        let seen = numbers.clone();
        let n = notifier.observable();
        let o = TestObserver::new();
        let handle = a
            .observable()
            .try_map(|v: i32| {
                if v >= 0 {
                    Ok(v)
                } else {
                    Err(Error::msg(if v == -1 { "boom" } else { "again" }))
                }
            })
            .retry_with(
                rx::operators::RetryConfig::new()
                    .count(1)
                    .reset_on_success()
                    .delay_with(move |_, number| {
                        with(&seen, |v| v.push(number));
                        n.clone()
                    }),
            )
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_next(-1);
        notifier.on_next(());
        a.on_next(2);
        a.on_next(-1);
        notifier.on_next(());
        a.on_next(-2);
        o.assert_notifications(&[Next(1), Next(2), Failed(Error::msg("again"))]);
        assert_eq!(get(&numbers), [1, 1]);
        assert!(handle.is_disposed());
        assert!(!a.has_observers() && !notifier.has_observers());
    }

    #[test]
    fn repeat_with_counts_subscriptions_of_a_subject() {
        let a = PublishSubject::new();
        let o = TestObserver::new();
        let _handle = a
            .observable()
            .repeat_with(rx::operators::RepeatConfig::new().count(2))
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_completed();
        o.assert_notifications(&[Next(1), Completed]);
    }

    #[test]
    fn on_error_complete_turns_a_subject_error_into_completion() {
        let a = PublishSubject::new();
        let o = TestObserver::new();
        let handle = a
            .observable()
            .on_error_complete_if(|e| e.to_string() == "boom")
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_error(Error::msg("boom"));
        o.assert_notifications(&[Next(1), Completed]);
        assert!(handle.is_disposed());
        assert!(!a.has_observers());
    }

    #[test]
    fn take_until_stops_at_the_notifier_subject() {
        let (a, stop) = (PublishSubject::new(), PublishSubject::<()>::new());
        let o = TestObserver::new();
        let _handle = a.observable().take_until(stop.observable()).subscribe_observer(o.clone());
        a.on_next(1);
        stop.on_next(());
        a.on_next(2);
        o.assert_notifications(&[Next(1), Completed]);
        assert!(!a.has_observers() && !stop.has_observers());
    }

    #[test]
    fn amb_with_follows_the_first_subject_to_notify() {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let o = TestObserver::new();
        let _handle = a.observable().amb_with(b.observable()).subscribe_observer(o.clone());
        b.on_next(2);
        a.on_next(1);
        b.on_completed();
        o.assert_notifications(&[Next(2), Completed]);
        assert!(!a.has_observers());
    }

    #[test]
    fn amb_picks_among_boxed_sources() {
        let count = state(0);
        let o = TestObserver::new();
        let _handle = rx::source::amb(vec![
            boxed!(rx::source::never::<i32>()),
            boxed!(counted(&count, 1)),
        ])
        .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Completed]);
    }

    #[test]
    fn with_latest_from_pairs_a_subject_with_the_latest_of_another() {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let o = TestObserver::new();
        let handle = a
            .observable()
            .with_latest_from(b.observable())
            .subscribe_observer(o.clone());
        a.on_next(1); // nothing to pair with yet
        b.on_next(10);
        b.on_next(20);
        a.on_next(2);
        b.on_completed(); // the latest value stays in use
        a.on_next(3);
        a.on_completed();
        o.assert_notifications(&[Next((2, 20)), Next((3, 20)), Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn with_latest_from_with_combines_through_a_closure_over_state() {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let calls = state(0);
        let counter = calls.clone();
        let o = TestObserver::new();
        let handle = a
            .observable()
            .with_latest_from_with(b.observable(), move |x: i32, y: i32| {
                bump(&counter);
                x + y
            })
            .subscribe_observer(o.clone());
        b.on_next(100);
        a.on_next(1);
        a.on_next(2);
        handle.dispose();
        a.on_next(3);
        o.assert_notifications(&[Next(101), Next(102)]);
        assert_eq!(get(&calls), 2);
        assert!(!a.has_observers() && !b.has_observers());
    }

    #[test]
    fn with_latest_from_all_pairs_a_boxed_source_with_two_subjects() {
        let (b, c) = (PublishSubject::new(), PublishSubject::new());
        let main = PublishSubject::new();
        let o = TestObserver::new();
        let _handle = boxed!(main.observable())
            .with_latest_from_all((b.observable(), c.observable()))
            .subscribe_observer(o.clone());
        b.on_next(1);
        main.on_next(0); // `c` has no value yet
        c.on_next(2);
        main.on_next(7);
        b.on_next(3);
        main.on_next(8);
        main.on_completed();
        o.assert_notifications(&[Next((7, 1, 2)), Next((8, 3, 2)), Completed]);
        assert!(!b.has_observers() && !c.has_observers());
    }

    #[test]
    fn fork_join_emits_the_last_values_once_every_source_completes() {
        let a = PublishSubject::new();
        let count = state(0);
        let o = TestObserver::new();
        let handle = rx::source::fork_join((a.observable(), counted(&count, 1)))
            .subscribe_observer(o.clone());
        assert_eq!(get(&count), 1);
        a.on_next(1);
        a.on_next(2);
        o.assert_notifications(&[]);
        a.on_completed();
        o.assert_notifications(&[Next((2, 1)), Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn fork_join_all_over_boxed_sources() {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let count = state(0);
        let o = TestObserver::new();
        let _handle = rx::source::fork_join_all(vec![
            boxed!(a.observable()),
            counted(&count, 1),
            boxed!(b.observable()),
        ])
        .subscribe_observer(o.clone());
        b.on_next(30);
        a.on_next(10);
        b.on_completed();
        a.on_next(11);
        a.on_completed();
        o.assert_notifications(&[Next(vec![11, 1, 30]), Completed]);
    }

    #[test]
    fn combine_latest_all_and_zip_all_over_subjects() {
        let (a, b) = (PublishSubject::new(), PublishSubject::new());
        let latest = TestObserver::new();
        let zipped = TestObserver::new();
        let sources = vec![a.observable(), b.observable()];
        let l = rx::source::combine_latest_all(sources.clone()).subscribe_observer(latest.clone());
        let _z = rx::source::zip_all(sources).subscribe_observer(zipped.clone());
        a.on_next(1);
        a.on_next(2);
        b.on_next(10);
        l.dispose();
        b.on_next(20);
        a.on_completed();
        latest.assert_notifications(&[Next(vec![2, 10])]);
        zipped.assert_notifications(&[Next(vec![1, 10]), Next(vec![2, 20]), Completed]);
        assert!(!a.has_observers() && !b.has_observers());
    }

    #[test]
    fn retry_when_resubscribes_at_a_subject_notifier() {
        let count = state(0);
        let retries = PublishSubject::<()>::new();
        let attempts = state(Vec::new());
        let (notifier, seen) = (retries.observable(), attempts.clone());
        let o = TestObserver::new();
        let handle = counted(&count, 3)
            .retry_when(move |e, attempt| {
                with(&seen, |v: &mut Vec<_>| v.push((e.to_string(), attempt)));
                notifier.clone()
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1)]);
        retries.on_next(());
        o.assert_notifications(&[Next(1), Next(2)]);
        retries.on_next(());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
        assert_eq!(get(&count), 3);
        assert_eq!(
            get(&attempts),
            [("boom".to_string(), 1), ("boom".to_string(), 2)]
        );
        assert!(handle.is_disposed());
        assert!(!retries.has_observers());
    }

    #[test]
    fn retry_when_ends_when_the_notifier_completes() {
        let count = state(0);
        let retries = PublishSubject::<()>::new();
        let notifier = retries.observable();
        let o = TestObserver::new();
        let _handle = counted(&count, 10)
            .retry_when(move |_, _| notifier.clone())
            .subscribe_observer(o.clone());
        retries.on_next(());
        retries.on_completed();
        o.assert_notifications(&[Next(1), Next(2), Completed]);
        assert_eq!(get(&count), 2);
    }

    #[test]
    fn repeat_when_resubscribes_at_a_boxed_notifier_until_it_completes_empty() {
        let count = state(0);
        let o = TestObserver::new();
        let _handle = counted(&count, 1)
            .repeat_when(|completions| {
                if completions < 3 {
                    boxed!(rx::source::just(0))
                } else {
                    boxed!(rx::source::empty())
                }
            })
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1), Next(2), Next(3), Completed]);
        assert_eq!(get(&count), 3);
    }

    #[test]
    fn repeat_when_disposal_reaches_a_waiting_subject_notifier() {
        let count = state(0);
        let again = PublishSubject::<()>::new();
        let notifier = again.observable();
        let o = TestObserver::new();
        let handle = counted(&count, 1)
            .repeat_when(move |_| notifier.clone())
            .subscribe_observer(o.clone());
        o.assert_notifications(&[Next(1)]);
        assert!(again.has_observers());
        handle.dispose();
        assert!(!again.has_observers());
        again.on_next(());
        o.assert_notifications(&[Next(1)]);
        assert_eq!(get(&count), 1);
    }

    #[test]
    fn skip_until_lets_values_through_once_a_subject_signals() {
        let (a, open) = (PublishSubject::new(), PublishSubject::<()>::new());
        let o = TestObserver::new();
        let handle = a.observable().skip_until(open.observable()).subscribe_observer(o.clone());
        a.on_next(1);
        open.on_next(());
        assert!(!open.has_observers());
        a.on_next(2);
        a.on_next(3);
        a.on_completed();
        o.assert_notifications(&[Next(2), Next(3), Completed]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn sample_with_emits_the_latest_value_at_each_signal() {
        let (a, tick) = (PublishSubject::new(), PublishSubject::<()>::new());
        let o = TestObserver::new();
        let handle = a.observable().sample_with(tick.observable()).subscribe_observer(o.clone());
        tick.on_next(()); // nothing yet
        a.on_next(1);
        a.on_next(2);
        tick.on_next(());
        tick.on_next(()); // nothing new
        a.on_next(3);
        handle.dispose();
        tick.on_next(());
        o.assert_notifications(&[Next(2)]);
        assert!(!a.has_observers() && !tick.has_observers());
    }

    #[test]
    fn buffer_with_closes_a_buffer_at_each_signal_of_a_boxed_notifier() {
        let (a, close) = (PublishSubject::new(), PublishSubject::<()>::new());
        let o = TestObserver::new();
        let _handle = a
            .observable()
            .buffer_with(boxed!(close.observable().map(|_| 0)))
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_next(2);
        close.on_next(());
        close.on_next(());
        a.on_next(3);
        a.on_completed();
        o.assert_notifications(&[Next(vec![1, 2]), Next(vec![]), Next(vec![3]), Completed]);
        assert!(!close.has_observers());
    }

    #[test]
    fn debounce_with_waits_for_each_values_subject_duration() {
        let a = PublishSubject::new();
        let quiet = PublishSubject::<()>::new();
        let selected = state(0);
        let (durations, counter) = (quiet.observable(), selected.clone());
        let o = TestObserver::new();
        let _handle = a
            .observable()
            .debounce_with(move |_: &i32| {
                bump(&counter);
                durations.clone()
            })
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_next(2); // replaces 1, whose duration is disposed
        quiet.on_next(());
        a.on_next(3);
        a.on_completed(); // the waiting value goes at once
        o.assert_notifications(&[Next(2), Next(3), Completed]);
        assert_eq!(get(&selected), 3);
        assert!(!quiet.has_observers());
    }

    #[test]
    fn group_by_hands_out_groups_whose_subscribers_keep_state() {
        let a = PublishSubject::new();
        let seen = state(Vec::new());
        let log = seen.clone();
        let handle = a.observable().group_by(|v: &i32| v % 2).subscribe(move |group| {
            let (key, log) = (*group.key(), log.clone());
            let _ = group.subscribe(move |v| with(&log, |s: &mut Vec<_>| s.push((key, v))));
        });
        a.on_next(1);
        a.on_next(2);
        a.on_next(3);
        handle.dispose(); // open groups go on
        a.on_next(4);
        a.on_next(5);
        assert_eq!(get(&seen), [(1, 1), (0, 2), (1, 3), (0, 4), (1, 5)]);
        a.on_completed();
        assert!(!a.has_observers());
    }

    #[test]
    fn group_by_with_flattens_its_groups_back() {
        let a = PublishSubject::new();
        let o = TestObserver::new();
        let _handle = boxed!(a.observable())
            .group_by_with(|v: &i32| v % 2, |v| v * 10)
            .flat_map(|group| {
                let key = *group.key();
                group.map(move |v| (key, v))
            })
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_next(2);
        a.on_next(3);
        a.on_completed();
        o.assert_notifications(&[Next((1, 10)), Next((0, 20)), Next((1, 30)), Completed]);
    }

    #[test]
    fn group_by_from_a_generic_function_needs_no_flavour_bound() {
        let a = PublishSubject::new();
        let o = TestObserver::new();
        let _handle = super::by_parity(a.observable())
            .flat_map(|group| {
                let key = *group.key();
                group.map(move |v| (key, v))
            })
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_next(2);
        a.on_next(3);
        a.on_completed();
        o.assert_notifications(&[Next((1, 1)), Next((0, 2)), Next((1, 3)), Completed]);
    }

    #[test]
    fn window_hands_out_windows_whose_subscribers_keep_state() {
        let a = PublishSubject::new();
        let seen = state(Vec::new());
        let opened = state(0);
        let (log, counter) = (seen.clone(), opened.clone());
        let handle = a.observable().window(2).subscribe(move |window| {
            let (n, log) = (bump(&counter), log.clone());
            let _ = window.subscribe(move |v| with(&log, |s: &mut Vec<_>| s.push((n, v))));
        });
        a.on_next(1);
        a.on_next(2);
        a.on_next(3);
        handle.dispose(); // the open window goes on
        assert!(a.has_observers());
        a.on_next(4); // fills it: the last reference goes, and the subject with it
        assert!(!a.has_observers());
        a.on_next(5);
        assert_eq!(get(&seen), [(1, 1), (1, 2), (2, 3), (2, 4)]);
        assert_eq!(get(&opened), 2);
    }

    #[test]
    fn window_with_skip_flattens_overlapping_windows_back() {
        let a = PublishSubject::new();
        let o = TestObserver::new();
        let handle = boxed!(a.observable())
            .window_with_skip(2, 1)
            .flat_map(|window| window.to_vec())
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_next(2);
        a.on_next(3);
        o.assert_notifications(&[Next(vec![1, 2]), Next(vec![2, 3])]);
        a.on_completed();
        // The window opened after the last value completes empty.
        o.assert_notifications(&[
            Next(vec![1, 2]),
            Next(vec![2, 3]),
            Next(vec![3]),
            Next(vec![]),
            Completed,
        ]);
        assert!(handle.is_disposed());
    }

    #[test]
    fn window_with_skip_disposal_reaches_the_subject_once_its_windows_end() {
        let a = PublishSubject::new();
        let windows = state(Vec::new());
        let w = windows.clone();
        let handle = a.observable().window_with_skip(2, 3).subscribe(move |window| {
            let o = TestObserver::new();
            let inner = window.subscribe_observer(o.clone());
            with(&w, |v: &mut Vec<_>| v.push((o, inner)));
        });
        a.on_next(1);
        a.on_next(2); // ends the first window
        a.on_next(3); // in no window; the second opens after it
        a.on_next(4); // the second window's first value
        handle.dispose();
        assert!(a.has_observers());
        with(&windows, |v: &mut Vec<_>| v[1].1.dispose());
        assert!(!a.has_observers());
        a.on_next(5);
        with(&windows, |v: &mut Vec<_>| {
            assert_eq!(v.len(), 2);
            v[0].0.assert_notifications(&[Next(1), Next(2), Completed]);
            v[1].0.assert_notifications(&[Next(4)]);
        });
    }

    #[test]
    fn group_by_until_ends_every_group_at_its_subject_duration() {
        let (a, close) = (PublishSubject::new(), PublishSubject::<()>::new());
        let durations = close.observable();
        let opened = state(0);
        let counter = opened.clone();
        let o = TestObserver::new();
        let handle = a
            .observable()
            .group_by_until(
                |v: &i32| v % 2,
                move |_| {
                    bump(&counter);
                    durations.clone()
                },
            )
            .flat_map(|group| {
                let key = *group.key();
                group.to_vec().map(move |values| (key, values))
            })
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_next(2);
        a.on_next(3);
        close.on_next(()); // both groups end
        a.on_next(5);
        a.on_completed();
        o.assert_notifications(&[
            Next((1, vec![1, 3])),
            Next((0, vec![2])),
            Next((1, vec![5])),
            Completed,
        ]);
        assert_eq!(get(&opened), 3);
        assert!(handle.is_disposed());
        assert!(!close.has_observers());
    }

    /// The time operators that only read a scheduler's clock keep no handle of their own
    /// and schedule nothing, so they take local subjects too.
    #[test]
    fn take_last_with_time_keeps_the_values_of_the_last_span() {
        let sch = rx::schedulers::TestScheduler::new();
        let a = PublishSubject::new();
        let o = TestObserver::new();
        let _handle = a
            .observable()
            .take_last_with_time(std::time::Duration::from_millis(10), sch.clone())
            .subscribe_observer(o.clone());
        a.on_next(1);
        sch.advance_by(std::time::Duration::from_millis(20));
        a.on_next(2);
        a.on_completed();
        o.assert_notifications(&[Next(2), Completed]);
    }

    #[test]
    fn skip_last_with_time_emits_what_is_a_span_old() {
        let sch = rx::schedulers::TestScheduler::new();
        let a = PublishSubject::new();
        let o = TestObserver::new();
        let handle = a
            .observable()
            .skip_last_with_time(std::time::Duration::from_millis(10), sch.clone())
            .subscribe_observer(o.clone());
        a.on_next(1);
        sch.advance_by(std::time::Duration::from_millis(10));
        a.on_next(2);
        handle.dispose();
        assert!(!a.has_observers());
        o.assert_notifications(&[Next(1)]);
    }

    #[test]
    fn audit_with_emits_the_latest_value_when_a_subject_duration_signals() {
        let (a, window) = (PublishSubject::new(), PublishSubject::<()>::new());
        let durations = window.observable();
        let o = TestObserver::new();
        let handle = a
            .observable()
            .audit_with(move |_: &i32| durations.clone())
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_next(2);
        window.on_next(());
        a.on_next(3);
        handle.dispose();
        assert!(!a.has_observers() && !window.has_observers());
        o.assert_notifications(&[Next(2)]);
    }

    #[test]
    fn throttle_when_emits_leading_and_trailing_values_of_subject_windows() {
        let (a, window) = (PublishSubject::new(), PublishSubject::<()>::new());
        let durations = window.observable();
        let opened = state(0);
        let counter = opened.clone();
        let o = TestObserver::new();
        let config = rx::operators::ThrottleConfig { leading: true, trailing: true };
        let _handle = a
            .observable()
            .throttle_when(
                move |_: &i32| {
                    bump(&counter);
                    durations.clone()
                },
                config,
            )
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_next(2);
        a.on_next(3);
        window.on_next(()); // 3 trails, and opens the next window
        a.on_completed();
        o.assert_notifications(&[Next(1), Next(3), Completed]);
        assert_eq!(get(&opened), 2);
        assert!(!window.has_observers());
    }

    #[test]
    fn delay_when_holds_each_value_until_its_subject_signals() {
        let (a, go) = (PublishSubject::new(), PublishSubject::<()>::new());
        let delays = go.observable();
        let o = TestObserver::new();
        let _handle = a
            .observable()
            .delay_when(move |_: &i32| delays.clone())
            .subscribe_observer(o.clone());
        a.on_next(1);
        a.on_next(2);
        a.on_completed();
        o.assert_notifications(&[]);
        go.on_next(());
        o.assert_notifications(&[Next(1), Next(2), Completed]);
        assert!(!go.has_observers());
    }

    #[test]
    fn buffer_when_asks_for_a_new_boxed_closing_after_each() {
        let (a, close) = (PublishSubject::new(), PublishSubject::<()>::new());
        let closings = close.observable();
        let asked = state(0);
        let counter = asked.clone();
        let o = TestObserver::new();
        let _handle = a
            .observable()
            .buffer_when(move || {
                bump(&counter);
                boxed!(closings.clone().map(|_| 0))
            })
            .subscribe_observer(o.clone());
        a.on_next(1);
        close.on_next(());
        a.on_next(2);
        a.on_completed();
        o.assert_notifications(&[Next(vec![1]), Next(vec![2]), Completed]);
        assert_eq!(get(&asked), 2);
        assert!(!close.has_observers());
    }

    #[test]
    fn timeout_when_fails_when_a_subject_deadline_signals_first() {
        let (a, deadline) = (PublishSubject::new(), PublishSubject::<()>::new());
        let each = deadline.observable();
        let o = TestObserver::new();
        let _handle = a
            .observable()
            .timeout_when(deadline.observable(), move |_: &i32| each.clone())
            .subscribe_observer(o.clone());
        a.on_next(1);
        deadline.on_next(());
        a.on_next(2);
        o.assert_notifications(&[Next(1), Failed(Error::new(rx::operators::TimedOut))]);
        assert!(!a.has_observers() && !deadline.has_observers());
    }

    #[test]
    fn buffer_toggle_opens_and_closes_buffers_at_subject_signals() {
        let (a, open, close) = (
            PublishSubject::new(),
            PublishSubject::<()>::new(),
            PublishSubject::<()>::new(),
        );
        let closings = close.observable();
        let o = TestObserver::new();
        let handle = a
            .observable()
            .buffer_toggle(open.observable(), move |_| closings.clone())
            .subscribe_observer(o.clone());
        a.on_next(1);
        open.on_next(());
        a.on_next(2);
        close.on_next(());
        a.on_next(3);
        handle.dispose();
        o.assert_notifications(&[Next(vec![2])]);
        assert!(!a.has_observers() && !open.has_observers() && !close.has_observers());
    }
}

/// Groups and windows of a local source: values and subscribers that hold `Rc`, and a
/// subscriber that reaches back into its own group while the group delivers to it (the
/// split engine's `RefCell` is never borrowed across user code).
mod local_splits {
    use super::*;
    use rx::operators::InnerSubscription;
    use rx::subjects::local::PublishSubject;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn groups_carry_rc_values_to_rc_capturing_subscribers_and_drop_them() {
        let a = PublishSubject::<Rc<i32>>::new();
        let seen = Rc::new(RefCell::new(Vec::new()));
        let log = seen.clone();
        let _handle = a
            .observable()
            .group_by(|v: &Rc<i32>| **v % 2)
            .subscribe(move |group| {
                let (key, log) = (*group.key(), log.clone());
                let _ = group.subscribe(move |v: Rc<i32>| log.borrow_mut().push((key, *v)));
            });
        let kept = Rc::new(3);
        a.on_next(Rc::new(1));
        a.on_next(Rc::new(2));
        a.on_next(kept.clone());
        a.on_completed();
        assert_eq!(*seen.borrow(), [(1, 1), (0, 2), (1, 3)]);
        assert_eq!(Rc::strong_count(&kept), 1);
        assert!(!a.has_observers());
    }

    #[test]
    fn an_abandoned_group_keeps_its_first_value_and_the_key_opens_a_new_one() {
        let a = PublishSubject::new();
        let groups = Rc::new(RefCell::new(Vec::new()));
        let g = groups.clone();
        let _handle = a
            .observable()
            .group_by(|v: &i32| v % 2)
            .subscribe(move |group| g.borrow_mut().push(group));
        a.on_next(1);
        a.on_next(3);
        let late = TestObserver::new();
        let first = groups.borrow()[0].clone();
        let _ = first.subscribe_observer(late.clone());
        late.assert_notifications(&[Next(1), Completed]);
        assert_eq!(groups.borrow().len(), 2);
    }

    #[test]
    fn an_abandoned_window_completes_empty_and_the_next_keeps_its_boundary() {
        let a = PublishSubject::new();
        let windows = Rc::new(RefCell::new(Vec::new()));
        let w = windows.clone();
        let _handle = a.observable().window(2).subscribe(move |window| {
            let n = w.borrow().len();
            let o = TestObserver::new();
            if n > 0 {
                let _ = window.clone().subscribe_observer(o.clone());
            }
            w.borrow_mut().push((o, window));
        });
        a.on_next(1);
        a.on_next(2);
        a.on_next(3);
        let w = windows.borrow();
        let late = TestObserver::new();
        let _ = w[0].1.clone().subscribe_observer(late.clone());
        late.assert_notifications(&[Completed]);
        w[1].0.assert_notifications(&[Next(3)]);
    }

    #[test]
    fn disposing_every_group_and_the_outer_handle_unsubscribes_the_subject() {
        let a = PublishSubject::new();
        let handles = Rc::new(RefCell::new(Vec::new()));
        let o = TestObserver::new();
        let (h, obs) = (handles.clone(), o.clone());
        let outer = a
            .observable()
            .group_by(|v: &i32| v % 2)
            .subscribe(move |group| {
                h.borrow_mut().push(group.subscribe_observer(obs.clone()));
            });
        a.on_next(1);
        a.on_next(2);
        outer.dispose();
        assert!(a.has_observers());
        handles.borrow()[0].dispose();
        a.on_next(3); // the odd group is disposed; no new group after the outer handle
        assert!(a.has_observers());
        handles.borrow()[1].dispose();
        assert!(!a.has_observers());
        a.on_next(4);
        o.assert_notifications(&[Next(1), Next(2)]);
        assert_eq!(handles.borrow().len(), 2);
    }

    #[test]
    fn a_subscriber_may_emit_dispose_and_resubscribe_from_inside_its_group() {
        let a = PublishSubject::new();
        let seen = Rc::new(RefCell::new(Vec::new()));
        let refused = TestObserver::new();
        let (source, log, r) = (a.clone(), seen.clone(), refused.clone());
        let _handle = a
            .observable()
            .group_by(|v: &i32| v % 2)
            .subscribe(move |group| {
                let handle: Rc<RefCell<Option<InnerSubscription<'_, i32, rx::sync::Local>>>> =
                    Rc::new(RefCell::new(None));
                let (source, log, r, h) = (source.clone(), log.clone(), r.clone(), handle.clone());
                let again = group.clone();
                *handle.borrow_mut() = Some(group.subscribe(move |v: i32| {
                    log.borrow_mut().push(v);
                    if v == 1 {
                        // Queued by the subject, delivered after this call returns.
                        source.on_next(5);
                        // A second subscriber is refused while this one is being delivered to.
                        let _ = again.clone().subscribe_observer(r.clone());
                    }
                    if v == 5
                        && let Some(handle) = h.borrow().as_ref()
                    {
                        handle.dispose();
                        assert!(handle.is_disposed());
                    }
                }));
            });
        a.on_next(1);
        a.on_next(7); // the odd group was disposed: a new group for the key
        a.on_next(2);
        assert_eq!(*seen.borrow(), [1, 5, 7, 2]);
        assert_eq!(refused.values().len(), 0);
        assert!(refused.error().is_some());
    }
}

mod auto_traits {
    use rx::Subscribe;
    use rx::observer::NextObserver;
    use rx::operators::{
        AuditWith, BufferToggle, BufferWhen, DelayWhen, ThrottleWhen, TimeoutWhen,
    };
    use rx::operators::{
        BufferWith, DebounceWith, ErrorDelay, ForkJoin, ForkJoinAll, GroupBy, GroupByUntil,
        GroupedObservable, MergeWith, OnErrorComplete, RepeatDelay, RepeatWhen, Resubscribe, Retry,
        RetryWhen, RetryWithBackoff, SampleWith, SkipUntil, SubscribeOn, TakeUntil, TimerDelay,
        Window, WindowWithSkip, WindowWithTime, WindowedObservable, WithLatestFrom,
        WithLatestFromAll, Zip,
    };
    use rx::operators::{Debounce, Delay, ObserveOn, Timeout};
    use rx::operators::{SkipLastWithTime, SkipWithTime, TakeLastWithTime, TakeWithTime};
    use rx::source::{Concat, Iif, Using};
    use rx::subjects::SubjectObservable;
    use rx::{BoxedObservable, LocalBoxedObservable};
    use static_assertions::{assert_impl_all, assert_not_impl_any};

    type Shared = SubjectObservable<i32, rx::sync::Shared>;
    type Local = SubjectObservable<i32, rx::sync::Local>;
    type Observer = NextObserver<fn(i32)>;
    type Handle<S> = <S as Subscribe<Observer>>::Subscription;
    type PairObserver = NextObserver<fn((i32, i32))>;
    type PairHandle<S> = <S as Subscribe<PairObserver>>::Subscription;
    type TripleObserver = NextObserver<fn((i32, i32, i32))>;
    type TripleHandle<S> = <S as Subscribe<TripleObserver>>::Subscription;
    type VecHandle<S> = <S as Subscribe<NextObserver<fn(Vec<i32>)>>>::Subscription;
    /// A `retry_when` notifier factory whose notifiers are of type `N`.
    type OnError<N> = fn(&rx::Error, u32) -> N;
    /// A `repeat_when` notifier factory whose notifiers are of type `N`.
    type OnCompleted<N> = fn(u32) -> N;
    /// A `debounce_with` selector whose durations are of type `D`.
    type Durations<D> = fn(&i32) -> D;
    /// A key selector.
    type Key = fn(&i32) -> i32;
    /// A `group_by_until` duration selector whose durations are of type `D`.
    type GroupDurations<D> = fn(&i32) -> D;
    /// The handle of a chain whose values are groups of `F`.
    type GroupsHandle<S, F> =
        <S as Subscribe<NextObserver<fn(GroupedObservable<'static, i32, i32, F>)>>>::Subscription;
    /// The handle of a subscription to a group of flavour `F`.
    type GroupHandle<F> = Handle<GroupedObservable<'static, i32, i32, F>>;
    /// An observer of windows of flavour `F`.
    type WindowsObserver<F> = NextObserver<fn(WindowedObservable<'static, i32, F>)>;
    /// The handle of a chain whose values are windows of `F`.
    type WindowsHandle<S, F> = <S as Subscribe<WindowsObserver<F>>>::Subscription;
    /// The handle of a subscription to a window of flavour `F`.
    type WindowHandle<F> = Handle<WindowedObservable<'static, i32, F>>;

    #[test]
    fn chains_over_shared_sources_have_send_handles() {
        assert_impl_all!(Handle<MergeWith<'static, Shared, Shared>>: Send, Sync);
        assert_impl_all!(Handle<TakeUntil<'static, Shared, Shared>>: Send);
        assert_impl_all!(PairHandle<Zip<'static, (Shared, Shared)>>: Send);
        assert_impl_all!(Handle<Retry<BoxedObservable<'static, i32>>>: Send);
        assert_impl_all!(Handle<OnErrorComplete<Shared, fn(&rx::Error) -> bool>>: Send, Sync);
        assert_impl_all!(Handle<Resubscribe<Shared, ErrorDelay<OnError<Shared>>>>: Send, Sync);
        assert_impl_all!(
            Handle<Resubscribe<Shared, TimerDelay<rx::schedulers::TestScheduler>>>: Send, Sync
        );
        assert_impl_all!(Handle<Concat<'static, Vec<Shared>>>: Send);
        assert_impl_all!(Handle<MergeWith<'static, rx::source::Never<i32>, Shared>>: Send);
        assert_impl_all!(PairHandle<WithLatestFrom<'static, Shared, Shared>>: Send, Sync);
        assert_impl_all!(TripleHandle<WithLatestFromAll<'static, Shared, (Shared, Shared)>>: Send);
        assert_impl_all!(PairHandle<ForkJoin<'static, (Shared, Shared)>>: Send, Sync);
        assert_impl_all!(VecHandle<ForkJoinAll<'static, Shared>>: Send, Sync);
        assert_impl_all!(Handle<RetryWhen<BoxedObservable<'static, i32>, OnError<Shared>>>: Send);
        assert_impl_all!(Handle<RepeatWhen<BoxedObservable<'static, i32>, OnCompleted<Shared>>>: Send);
        assert_impl_all!(Handle<SkipUntil<'static, Shared, Shared>>: Send, Sync);
        assert_impl_all!(Handle<SampleWith<'static, Shared, Shared>>: Send, Sync);
        assert_impl_all!(VecHandle<BufferWith<'static, Shared, Shared>>: Send, Sync);
        assert_impl_all!(Handle<DebounceWith<'static, Shared, Durations<Shared>>>: Send, Sync);
        assert_impl_all!(GroupsHandle<GroupBy<'static, Shared, Key>, rx::sync::Shared>: Send, Sync);
        assert_impl_all!(
            GroupsHandle<GroupByUntil<'static, Shared, Key, GroupDurations<Shared>>, rx::sync::Shared>:
                Send, Sync
        );
        assert_impl_all!(GroupHandle<rx::sync::Shared>: Send, Sync);
        assert_impl_all!(WindowsHandle<Window<'static, Shared>, rx::sync::Shared>: Send, Sync);
        assert_impl_all!(
            WindowsHandle<WindowWithSkip<'static, Shared>, rx::sync::Shared>: Send, Sync
        );
        assert_impl_all!(WindowHandle<rx::sync::Shared>: Send, Sync);
        assert_impl_all!(
            WindowsHandle<WindowWithTime<Shared, rx::schedulers::TestScheduler>, rx::sync::Shared>:
                Send, Sync
        );
        assert_impl_all!(
            Handle<RetryWithBackoff<BoxedObservable<'static, i32>, rx::schedulers::TestScheduler>>:
                Send
        );
        assert_impl_all!(Handle<SubscribeOn<Shared, rx::schedulers::NewThread>>: Send, Sync);
        assert_impl_all!(Handle<Debounce<Shared, rx::schedulers::TestScheduler>>: Send);
        assert_impl_all!(Handle<ObserveOn<Shared, rx::schedulers::NewThread>>: Send);
        assert_impl_all!(Handle<TakeLastWithTime<Shared, rx::schedulers::TestScheduler>>: Send, Sync);
        assert_impl_all!(Handle<SkipLastWithTime<Shared, rx::schedulers::TestScheduler>>: Send, Sync);
        assert_impl_all!(
            Handle<TakeWithTime<'static, Shared, rx::schedulers::TestScheduler>>: Send, Sync
        );
        assert_impl_all!(
            Handle<SkipWithTime<'static, Shared, rx::schedulers::TestScheduler>>: Send, Sync
        );
        assert_impl_all!(Handle<AuditWith<'static, Shared, Durations<Shared>>>: Send, Sync);
        assert_impl_all!(
            Handle<TimeoutWhen<'static, Shared, Shared, Durations<Shared>>>: Send, Sync
        );
        assert_impl_all!(Handle<ThrottleWhen<'static, Shared, Durations<Shared>>>: Send, Sync);
        assert_impl_all!(Handle<DelayWhen<'static, Shared, Durations<Shared>>>: Send, Sync);
        assert_impl_all!(VecHandle<BufferWhen<'static, Shared, fn() -> Shared>>: Send, Sync);
        assert_impl_all!(
            VecHandle<BufferToggle<'static, Shared, Shared, Durations<Shared>>>: Send, Sync
        );
        assert_impl_all!(Handle<Iif<fn() -> bool, Shared, Shared>>: Send, Sync);
        assert_impl_all!(Handle<Using<fn() -> u8, fn(&mut u8) -> Shared>>: Send, Sync);
        assert_impl_all!(Handle<rx::operators::TapDispose<Shared, fn()>>: Send, Sync);
        assert_impl_all!(Handle<rx::operators::TapSubscribe<Shared, fn()>>: Send, Sync);
    }

    /// A thread-safe subject accepts only `Send` observers, which those of a chain that keeps
    /// a local handle are not: the `Shared` side of a mixed chain is a cold source.
    type Cold = rx::source::Never<i32>;

    #[test]
    fn chains_over_a_local_source_do_not() {
        assert_not_impl_any!(Handle<MergeWith<'static, Local, Local>>: Send, Sync);
        assert_not_impl_any!(Handle<MergeWith<'static, Cold, Local>>: Send, Sync);
        assert_not_impl_any!(Handle<MergeWith<'static, Local, Cold>>: Send, Sync);
        assert_not_impl_any!(Handle<TakeUntil<'static, Cold, Local>>: Send);
        assert_not_impl_any!(PairHandle<Zip<'static, (Cold, Local)>>: Send);
        assert_not_impl_any!(Handle<Retry<LocalBoxedObservable<'static, i32>>>: Send);
        assert_not_impl_any!(Handle<OnErrorComplete<Local, fn(&rx::Error) -> bool>>: Send, Sync);
        assert_not_impl_any!(Handle<Resubscribe<Local, ErrorDelay<OnError<Local>>>>: Send, Sync);
        assert_not_impl_any!(Handle<Resubscribe<Local, RepeatDelay<OnCompleted<Local>>>>: Send, Sync);
        assert_not_impl_any!(Handle<Concat<'static, Vec<Local>>>: Send);
        assert_not_impl_any!(PairHandle<WithLatestFrom<'static, Local, Local>>: Send, Sync);
        assert_not_impl_any!(PairHandle<WithLatestFrom<'static, Cold, Local>>: Send, Sync);
        assert_not_impl_any!(PairHandle<WithLatestFrom<'static, Local, Cold>>: Send, Sync);
        assert_not_impl_any!(TripleHandle<WithLatestFromAll<'static, Cold, (Cold, Local)>>: Send);
        assert_not_impl_any!(PairHandle<ForkJoin<'static, (Cold, Local)>>: Send, Sync);
        assert_not_impl_any!(VecHandle<ForkJoinAll<'static, Local>>: Send, Sync);
        assert_not_impl_any!(
            Handle<RetryWhen<LocalBoxedObservable<'static, i32>, OnError<Cold>>>: Send
        );
        assert_not_impl_any!(Handle<RetryWhen<Cold, OnError<Local>>>: Send);
        assert_not_impl_any!(Handle<RepeatWhen<Cold, OnCompleted<Local>>>: Send);
        assert_not_impl_any!(Handle<SkipUntil<'static, Local, Cold>>: Send, Sync);
        assert_not_impl_any!(Handle<SkipUntil<'static, Cold, Local>>: Send, Sync);
        assert_not_impl_any!(Handle<SampleWith<'static, Cold, Local>>: Send, Sync);
        assert_not_impl_any!(VecHandle<BufferWith<'static, Local, Cold>>: Send, Sync);
        assert_not_impl_any!(Handle<DebounceWith<'static, Cold, Durations<Local>>>: Send, Sync);
        assert_not_impl_any!(Handle<DebounceWith<'static, Local, Durations<Cold>>>: Send, Sync);
        assert_not_impl_any!(GroupsHandle<GroupBy<'static, Local, Key>, rx::sync::Local>: Send, Sync);
        assert_not_impl_any!(
            GroupsHandle<GroupByUntil<'static, Cold, Key, GroupDurations<Local>>, rx::sync::Local>:
                Send, Sync
        );
        assert_not_impl_any!(GroupHandle<rx::sync::Local>: Send, Sync);
        assert_not_impl_any!(WindowsHandle<Window<'static, Local>, rx::sync::Local>: Send, Sync);
        assert_not_impl_any!(
            WindowsHandle<WindowWithSkip<'static, Local>, rx::sync::Local>: Send, Sync
        );
        assert_not_impl_any!(WindowHandle<rx::sync::Local>: Send, Sync);
        assert_not_impl_any!(Handle<Iif<fn() -> bool, Cold, Local>>: Send, Sync);
        assert_not_impl_any!(Handle<Iif<fn() -> bool, Local, Cold>>: Send, Sync);
        assert_not_impl_any!(Handle<Using<fn() -> u8, fn(&mut u8) -> Local>>: Send, Sync);
        assert_not_impl_any!(
            Handle<Using<fn() -> std::rc::Rc<u8>, fn(&mut std::rc::Rc<u8>) -> Cold>>: Send, Sync
        );
        assert_not_impl_any!(Handle<rx::operators::TapDispose<Local, fn()>>: Send, Sync);
        // `subscribe_on` moves its source into a task that may run on another thread, so it
        // takes no local source at all, even on a scheduler that drains on this thread.
        assert_not_impl_any!(SubscribeOn<Local, rx::schedulers::NewThread>: Subscribe<Observer>);
        assert_not_impl_any!(SubscribeOn<Local, rx::schedulers::CurrentThread>: Subscribe<Observer>);
        assert_not_impl_any!(
            SubscribeOn<LocalBoxedObservable<'static, i32>, rx::schedulers::RunLoop>:
                Subscribe<Observer>
        );
        // The time operators' tasks may dispose upstream from a worker thread: they take no
        // local source either.
        assert_not_impl_any!(Debounce<Local, rx::schedulers::TestScheduler>: Subscribe<Observer>);
        assert_not_impl_any!(Delay<Local, rx::schedulers::RunLoop>: Subscribe<Observer>);
        assert_not_impl_any!(ObserveOn<Local, rx::schedulers::CurrentThread>: Subscribe<Observer>);
        assert_not_impl_any!(Timeout<Local, rx::schedulers::TestScheduler>: Subscribe<Observer>);
        // `window_with_time`'s periodic task feeds the windows and may release the last
        // reference, disposing upstream, from the worker; `retry_with_backoff`'s timer task
        // subscribes to the source again from the worker.
        assert_not_impl_any!(
            WindowWithTime<Local, rx::schedulers::TestScheduler>:
                Subscribe<WindowsObserver<rx::sync::Shared>>
        );
        assert_not_impl_any!(
            WindowWithTime<LocalBoxedObservable<'static, i32>, rx::schedulers::RunLoop>:
                Subscribe<WindowsObserver<rx::sync::Shared>>
        );
        assert_not_impl_any!(
            RetryWithBackoff<LocalBoxedObservable<'static, i32>, rx::schedulers::TestScheduler>:
                Subscribe<Observer>
        );
        // The time-bounded `take` and `skip` end on a timer, which may fire on a worker.
        assert_not_impl_any!(
            TakeWithTime<'static, Local, rx::schedulers::TestScheduler>: Subscribe<Observer>
        );
        assert_not_impl_any!(
            SkipWithTime<'static, Local, rx::schedulers::TestScheduler>: Subscribe<Observer>
        );
        assert_not_impl_any!(Handle<AuditWith<'static, Cold, Durations<Local>>>: Send, Sync);
        assert_not_impl_any!(
            Handle<TimeoutWhen<'static, Cold, Local, Durations<Cold>>>: Send, Sync
        );
        assert_not_impl_any!(Handle<AuditWith<'static, Local, Durations<Cold>>>: Send, Sync);
        assert_not_impl_any!(Handle<ThrottleWhen<'static, Local, Durations<Cold>>>: Send, Sync);
        assert_not_impl_any!(Handle<DelayWhen<'static, Cold, Durations<Local>>>: Send, Sync);
        assert_not_impl_any!(VecHandle<BufferWhen<'static, Cold, fn() -> Local>>: Send, Sync);
        assert_not_impl_any!(
            VecHandle<BufferToggle<'static, Cold, Local, Durations<Cold>>>: Send, Sync
        );
        // Those that only read the clock take a local source; their handle is the source's.
        assert_not_impl_any!(
            Handle<TakeLastWithTime<Local, rx::schedulers::TestScheduler>>: Send, Sync
        );
        assert_not_impl_any!(
            Handle<SkipLastWithTime<Local, rx::schedulers::TestScheduler>>: Send, Sync
        );
    }
}
