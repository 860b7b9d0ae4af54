use crate::Error;
use crate::prelude::*;
use crate::source::never;
use crate::subjects::PublishSubject;
use crate::testing::TestObserver;
use std::sync::{Arc, Weak};

/// Holds a token for as long as the observer lives.
struct Holder(#[allow(dead_code)] Arc<()>);

impl Observer<i32> for Holder {
    fn on_next(&mut self, _: i32) {}
    fn on_error(self, _: Error) {}
    fn on_completed(self) {}
}

fn token() -> (Holder, Weak<()>) {
    let token = Arc::new(());
    let weak = Arc::downgrade(&token);
    (Holder(token), weak)
}

#[test]
fn a_handle_kept_by_an_observer_of_its_own_subject_makes_no_cycle() {
    // merge and concat keep their sources' handles in state their observers share, and the
    // subject keeps those observers.
    let (holder, alive) = token();
    let subject = PublishSubject::<i32>::new();
    let handle = subject
        .observable()
        .merge_with(never())
        .subscribe_observer(holder);
    subject.observer().on_next(1);
    drop((subject, handle));
    assert!(
        alive.upgrade().is_none(),
        "merge: the observer was not freed"
    );

    let (holder, alive) = token();
    let subject = PublishSubject::<i32>::new();
    let handle = subject
        .observable()
        .concat_with(never())
        .subscribe_observer(holder);
    subject.observer().on_next(1);
    drop((subject, handle));
    assert!(
        alive.upgrade().is_none(),
        "concat: the observer was not freed"
    );
}

#[test]
fn a_handle_that_outlives_its_subject_is_disposed() {
    let subject = PublishSubject::<i32>::new();
    let o = TestObserver::new();
    let handle = subject.observable().subscribe_observer(o.clone());
    let kept = handle.clone();
    assert!(!handle.is_disposed());
    drop(subject);
    assert!(handle.is_disposed() && kept.is_disposed());
    handle.dispose();
    o.assert_notifications(&[]);
}
