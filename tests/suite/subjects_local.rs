//! Subjects and multicasting on one thread: values and observers holding `Rc` and `RefCell`,
//! re-entrant calls, and the handles' auto traits.

use rx::prelude::*;
use rx::subjects::local::{
    AsyncSubject, BehaviorSubject, PublishSubject, ReplaySubject, SubjectObservable,
    SubjectObserver, SubjectSubscription,
};
use rx::testing::TestObserver;
use rx::{Error, Notification};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

#[test]
fn local_subjects_and_what_is_built_on_them_are_not_send() {
    use static_assertions::assert_not_impl_any;
    assert_not_impl_any!(PublishSubject<i32>: Send, Sync);
    assert_not_impl_any!(BehaviorSubject<i32>: Send, Sync);
    assert_not_impl_any!(ReplaySubject<i32>: Send, Sync);
    assert_not_impl_any!(AsyncSubject<i32>: Send, Sync);
    assert_not_impl_any!(SubjectObservable<i32>: Send, Sync);
    assert_not_impl_any!(SubjectObserver<i32>: Send, Sync);
    assert_not_impl_any!(SubjectSubscription<i32>: Send, Sync);
    assert_not_impl_any!(
        rx::operators::RefCount<SubjectObservable<i32>, PublishSubject<i32>>: Send, Sync
    );
    assert_not_impl_any!(rx::operators::Connection<rx::sync::Local>: Send, Sync);
    // The thread-safe flavour stays thread-safe.
    static_assertions::assert_impl_all!(rx::subjects::PublishSubject<i32>: Send, Sync);
    static_assertions::assert_impl_all!(rx::operators::Connection: Send, Sync);
}

/// A widget that is not `Send`.
#[derive(Default)]
struct Label {
    text: String,
    redraws: usize,
    _not_send: std::marker::PhantomData<Rc<()>>,
}

#[test]
fn clicks_scanned_into_a_state_written_into_a_label() {
    let label = Rc::new(RefCell::new(Label::default()));
    let clicks = PublishSubject::<(i32, i32)>::new();
    let target = label.clone();
    let subscription = clicks
        .observable()
        .filter(|(x, _)| *x >= 0)
        .scan((0, 0), |(count, _), (x, y)| (count + 1, x + y))
        .subscribe(move |(count, last)| {
            let mut label = target.borrow_mut();
            label.text = format!("{count} clicks, last at {last}");
            label.redraws += 1;
        });

    clicks.on_next((1, 2));
    clicks.on_next((-1, 0)); // outside the widget: filtered out
    clicks.on_next((3, 4));
    assert_eq!(label.borrow().text, "2 clicks, last at 7");
    assert_eq!(label.borrow().redraws, 2);

    subscription.dispose();
    clicks.on_next((5, 6));
    assert_eq!(label.borrow().redraws, 2);
    assert_eq!(
        Rc::strong_count(&label),
        1,
        "the disposal dropped the subscriber"
    );
}

#[test]
fn a_state_subject_drives_two_labels_and_is_read_back() {
    let state = BehaviorSubject::new(Rc::new(String::from("idle")));
    let (a, b) = (
        Rc::new(RefCell::new(Label::default())),
        Rc::new(RefCell::new(Label::default())),
    );
    for label in [&a, &b] {
        let label = label.clone();
        state
            .observable()
            .map(|s: Rc<String>| s.to_uppercase())
            .subscribe(move |text| label.borrow_mut().text = text);
    }
    assert_eq!(a.borrow().text, "IDLE");
    state.on_next(Rc::new(String::from("busy")));
    assert_eq!(
        (a.borrow().text.as_str(), b.borrow().text.as_str()),
        ("BUSY", "BUSY")
    );
    assert_eq!(state.value().as_deref().map(String::as_str), Some("busy"));
    state.on_completed();
    assert_eq!(
        state.value().as_deref().map(String::as_str),
        Some("busy"),
        "the value stays after completion"
    );
}

#[test]
fn on_next_inside_on_next_is_queued_behind_the_current_value() {
    let subject = PublishSubject::new();
    let log = Rc::new(RefCell::new(Vec::new()));
    for name in ["a", "b"] {
        let (log, s) = (log.clone(), subject.clone());
        subject.observable().subscribe(move |v: i32| {
            log.borrow_mut().push(format!("{name}{v}"));
            if name == "a" && v < 100 {
                s.on_next(v * 10);
                s.on_next(v * 100);
            }
        });
    }
    subject.on_next(1);
    assert_eq!(
        *log.borrow(),
        // 1 sends 10 and 100; 10 sends 100 and 1000; each reaches both, in order.
        [
            "a1", "b1", "a10", "b10", "a100", "b100", "a100", "b100", "a1000", "b1000"
        ]
    );
}

#[test]
fn a_subscriber_added_during_on_next_sees_what_follows() {
    let subject = PublishSubject::new();
    let inner = TestObserver::new();
    let (s, i) = (subject.clone(), inner.clone());
    let added = Rc::new(Cell::new(false));
    subject.observable().subscribe(move |v: i32| {
        if v == 1 && !added.replace(true) {
            s.observable().subscribe_observer(i.clone());
            // Sent from inside the callback: queued, so the new subscriber gets it.
            s.on_next(2);
        }
    });
    subject.on_next(1);
    subject.on_next(3);
    inner.assert_values(&[2, 3]);
}

#[test]
fn the_first_terminal_notification_wins_even_from_a_callback() {
    let subject = PublishSubject::new();
    let o = TestObserver::new();
    let s = subject.clone();
    subject.observable().subscribe_with(
        move |v: i32| {
            if v == 2 {
                s.on_error(Error::msg("first"));
                s.on_completed();
                s.on_next(99);
            }
        },
        |_| {},
        || {},
    );
    subject.observable().subscribe_observer(o.clone());
    subject.on_next(1);
    subject.on_next(2);
    subject.on_next(3);
    subject.on_completed();
    o.assert_values(&[1, 2]);
    o.assert_error("first");
    assert!(subject.is_terminated());
    assert!(!subject.has_observers());

    let late = TestObserver::new();
    subject.observable().subscribe_observer(late.clone());
    late.assert_values(&[]);
    late.assert_error("first");
}

#[test]
fn disposing_from_a_callback_stops_a_later_subscriber_at_once() {
    let subject = PublishSubject::new();
    let later = TestObserver::new();
    let slot: Rc<RefCell<Option<SubjectSubscription<i32>>>> = Rc::new(RefCell::new(None));
    let handle = slot.clone();
    subject.observable().subscribe(move |v: i32| {
        if v == 2 {
            handle.borrow().as_ref().unwrap().dispose();
        }
    });
    *slot.borrow_mut() = Some(subject.observable().subscribe_observer(later.clone()));
    for v in 1..=3 {
        subject.on_next(v);
    }
    later.assert_values(&[1]);
    later.assert_not_terminated();
}

#[test]
fn value_read_from_a_callback_is_the_value_just_sent() {
    let subject = BehaviorSubject::new(0);
    let seen = Rc::new(RefCell::new(Vec::new()));
    let (s, log) = (subject.clone(), seen.clone());
    subject.observable().subscribe_with(
        move |v: i32| {
            if v == 1 {
                s.on_next(2);
            }
            log.borrow_mut().push((v, s.value()));
        },
        |_| {},
        || {},
    );
    subject.on_next(1);
    // While 1 is delivered, 2 was sent and queued: it is already the current value.
    assert_eq!(*seen.borrow(), [(0, Some(0)), (1, Some(2)), (2, Some(2))]);
    subject.on_error(Error::msg("gone"));
    assert_eq!(subject.value(), None);
}

#[test]
fn replay_and_async_keep_rc_values() {
    let replay = ReplaySubject::with_capacity(2);
    let last = AsyncSubject::new();
    for v in 1..=3 {
        replay.on_next(Rc::new(v));
        last.on_next(Rc::new(v));
    }
    replay.on_completed();
    last.on_completed();
    let (r, a) = (TestObserver::new(), TestObserver::new());
    replay.observable().subscribe_observer(r.clone());
    last.observable().subscribe_observer(a.clone());
    r.assert_notifications(&[
        Notification::Next(Rc::new(2)),
        Notification::Next(Rc::new(3)),
        Notification::Completed,
    ]);
    a.assert_notifications(&[Notification::Next(Rc::new(3)), Notification::Completed]);
}

#[test]
fn share_local_connects_once_and_disconnects_when_the_last_leaves() {
    let input = PublishSubject::new();
    let runs = Rc::new(Cell::new(0));
    let r = runs.clone();
    let shared = input
        .observable()
        .map(move |v: i32| {
            r.set(r.get() + 1);
            Rc::new(v)
        })
        .share_local();
    let (a, b) = (TestObserver::new(), TestObserver::new());
    let ha = shared.clone().subscribe_observer(a.clone());
    let hb = shared.clone().subscribe_observer(b.clone());
    input.on_next(1);
    assert_eq!(runs.get(), 1, "one map call for two subscribers");
    ha.dispose();
    input.on_next(2);
    hb.dispose();
    assert!(
        !input.has_observers(),
        "the last subscriber left: disconnected"
    );
    a.assert_values(&[Rc::new(1)]);
    b.assert_values(&[Rc::new(1), Rc::new(2)]);
}

#[test]
fn publish_local_and_multicast_of_a_local_subject() {
    let published = rx::source::from_iter(1..=3).map(Rc::new).publish_local();
    let o = TestObserver::new();
    published.clone().subscribe_observer(o.clone());
    assert!(published.connect().is_disposed(), "the source completed");
    o.assert_values(&[Rc::new(1), Rc::new(2), Rc::new(3)]);
    o.assert_completed();

    let state = BehaviorSubject::new(Rc::new(0));
    let connectable = rx::source::from_iter([1, 2])
        .map(Rc::new)
        .multicast(state.clone());
    let m = TestObserver::new();
    connectable.clone().subscribe_observer(m.clone());
    connectable.connect();
    m.assert_values(&[Rc::new(0), Rc::new(1), Rc::new(2)]);
    assert_eq!(state.value(), Some(Rc::new(2)));
}

#[test]
fn share_replay_local_replays_within_a_run() {
    let input = PublishSubject::new();
    let shared = input.observable().share_replay_local(1);
    let first = TestObserver::new();
    let h = shared.clone().subscribe_observer(first.clone());
    input.on_next(Rc::new("a"));
    input.on_next(Rc::new("b"));
    let second = TestObserver::new();
    shared.clone().subscribe_observer(second.clone());
    second.assert_values(&[Rc::new("b")]);
    h.dispose();
    first.assert_values(&[Rc::new("a"), Rc::new("b")]);
}

#[test]
fn everything_is_freed_once_every_handle_is_dropped() {
    let token = Rc::new(());
    let subject = PublishSubject::<i32>::new();
    let t = token.clone();
    let handle = subject.observable().subscribe(move |_| {
        let _ = &t;
    });
    let observer = subject.observer();
    subject.on_next(1);
    assert_eq!(Rc::strong_count(&token), 2);
    drop((subject, observer));
    assert_eq!(
        Rc::strong_count(&token),
        1,
        "the subject dropped its subscriber"
    );
    assert!(
        handle.is_disposed(),
        "a handle outliving its subject is disposed"
    );
}

#[test]
fn a_panicking_subscriber_leaves_the_local_subject_working() {
    let subject = PublishSubject::new();
    let o = TestObserver::new();
    let handle = subject
        .observable()
        .subscribe(|v: i32| assert!(v != 2, "two"));
    subject.observable().subscribe_observer(o.clone());
    subject.on_next(1);
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| subject.on_next(2)));
    assert!(panicked.is_err());
    handle.dispose();
    subject.on_next(3);
    subject.on_completed();
    o.assert_values(&[1, 3]);
    o.assert_completed();
}

#[test]
fn a_subscription_handle_is_a_pointer_a_key_and_an_id_in_both_flavours() {
    use std::mem::size_of;
    let expected = 2 * size_of::<usize>() + size_of::<u64>();
    assert_eq!(size_of::<SubjectSubscription<i32>>(), expected);
    assert_eq!(
        size_of::<rx::subjects::SubjectSubscription<i32>>(),
        expected
    );
}
