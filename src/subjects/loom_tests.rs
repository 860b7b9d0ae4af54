//! Loom models of a subject's delivery. Run with
//! `RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=2 cargo test --profile loom --lib loom_`.

use crate::observer::Observer;
use crate::primitive::{Arc, AtomicBool, AtomicUsize, Ordering, thread};
use crate::subjects::PublishSubject;
use crate::subscription::Subscription;
use crate::{Error, Subscribe};

/// Records what it receives with loom atomics, so loom can interleave other threads inside a
/// delivery and catch two deliveries at once.
#[derive(Clone)]
struct Probe(Arc<ProbeState>);

struct ProbeState {
    busy: AtomicBool,
    overlapped: AtomicBool,
    /// A bit per value received.
    seen: AtomicUsize,
    values: AtomicUsize,
    terminals: AtomicUsize,
    after_terminal: AtomicBool,
}

impl Probe {
    fn new() -> Self {
        Probe(Arc::new(ProbeState {
            busy: AtomicBool::new(false),
            overlapped: AtomicBool::new(false),
            seen: AtomicUsize::new(0),
            values: AtomicUsize::new(0),
            terminals: AtomicUsize::new(0),
            after_terminal: AtomicBool::new(false),
        }))
    }

    fn enter(&self) {
        if self.0.busy.swap(true, Ordering::SeqCst) {
            self.0.overlapped.store(true, Ordering::SeqCst);
        }
        if self.0.terminals.load(Ordering::SeqCst) > 0 {
            self.0.after_terminal.store(true, Ordering::SeqCst);
        }
    }

    fn leave(&self) {
        self.0.busy.store(false, Ordering::SeqCst);
    }

    fn check(&self, max_values: usize) {
        assert!(
            !self.0.overlapped.load(Ordering::SeqCst),
            "two deliveries overlapped"
        );
        assert!(
            !self.0.after_terminal.load(Ordering::SeqCst),
            "a notification after the terminal one"
        );
        assert_eq!(
            self.0.terminals.load(Ordering::SeqCst),
            1,
            "the terminal notification was lost"
        );
        assert!(self.0.values.load(Ordering::SeqCst) <= max_values);
    }
}

impl Observer<u8> for Probe {
    fn on_next(&mut self, value: u8) {
        self.enter();
        self.0.seen.fetch_or(1 << value, Ordering::SeqCst);
        self.0.values.fetch_add(1, Ordering::SeqCst);
        self.leave();
    }

    fn on_error(self, _: Error) {
        self.enter();
        self.0.terminals.fetch_add(1, Ordering::SeqCst);
        self.leave();
    }

    fn on_completed(self) {
        self.enter();
        self.0.terminals.fetch_add(1, Ordering::SeqCst);
        self.leave();
    }
}

#[test]
fn loom_two_senders_and_a_subscriber() {
    loom::model(|| {
        let subject = PublishSubject::new();
        let early = Probe::new();
        subject.observable().subscribe_observer(early.clone());

        let s1 = subject.clone();
        let t1 = thread::spawn(move || s1.observer().on_next(1));
        let s2 = subject.clone();
        let t2 = thread::spawn(move || {
            let mut input = s2.observer();
            input.on_next(2);
            input.on_completed();
        });
        let s3 = subject.clone();
        let late = Probe::new();
        let l = late.clone();
        let t3 = thread::spawn(move || {
            s3.observable().subscribe_observer(l);
        });
        t1.join().unwrap();
        t2.join().unwrap();
        t3.join().unwrap();

        early.check(2);
        // Value 2 always precedes completion on its thread, so the first subscriber has it.
        assert!(early.0.values.load(Ordering::SeqCst) >= 1);
        late.check(2);
        assert!(!subject.has_observers());
    });
}

/// A subject with two subscribers: one that stays, and one whose handle is answered.
fn stays_and_leaves() -> (
    PublishSubject<u8>,
    Probe,
    Probe,
    crate::subjects::SubjectSubscription<u8>,
) {
    let subject = PublishSubject::new();
    let stays = Probe::new();
    let leaves = Probe::new();
    subject.observable().subscribe_observer(stays.clone());
    let handle = subject.observable().subscribe_observer(leaves.clone());
    (subject, stays, leaves, handle)
}

#[test]
fn loom_dispose_races_delivery() {
    loom::model(|| {
        let (subject, stays, leaves, handle) = stays_and_leaves();

        let s1 = subject.clone();
        let t1 = thread::spawn(move || {
            let mut input = s1.observer();
            input.on_next(1);
            input.on_completed();
        });
        let t2 = thread::spawn(move || handle.dispose());
        t1.join().unwrap();
        t2.join().unwrap();

        stays.check(1);
        assert_eq!(stays.0.values.load(Ordering::SeqCst), 1);
        assert!(leaves.0.terminals.load(Ordering::SeqCst) <= 1);
        assert!(!leaves.0.overlapped.load(Ordering::SeqCst));
        assert!(!subject.has_observers());
    });
}

#[test]
fn loom_subscribe_then_dispose_races_delivery() {
    loom::model(|| {
        let subject = PublishSubject::new();
        let stays = Probe::new();
        subject.observable().subscribe_observer(stays.clone());

        let s1 = subject.clone();
        let t1 = thread::spawn(move || {
            let mut input = s1.observer();
            input.on_next(1);
            input.on_next(2);
        });
        let s2 = subject.clone();
        let leaves = Probe::new();
        let l = leaves.clone();
        let t2 = thread::spawn(move || {
            let handle = s2.observable().subscribe_observer(l);
            handle.dispose();
            // Sent after the disposal on this thread, so whoever delivers it has seen the
            // disposal: it must not reach the disposed observer.
            s2.observer().on_next(3);
        });
        t1.join().unwrap();
        t2.join().unwrap();
        subject.observer().on_completed();

        stays.check(3);
        assert_eq!(stays.0.values.load(Ordering::SeqCst), 3);
        assert_eq!(
            leaves.0.seen.load(Ordering::SeqCst) & (1 << 3),
            0,
            "a value sent after dispose"
        );
        assert_eq!(
            leaves.0.terminals.load(Ordering::SeqCst),
            0,
            "completion after dispose"
        );
        assert!(!leaves.0.overlapped.load(Ordering::SeqCst));
        assert!(!subject.has_observers());
    });
}

#[test]
fn loom_the_role_is_handed_to_a_thread_that_records_a_value() {
    use crate::subjects::core::loom_counts::HANDED_OVER;
    use std::sync::atomic::Ordering::Relaxed;

    // Under loom a holder offers the role after the first event it delivers for others, and a
    // claimer waits two rounds before it gives up, so the model meets hand-overs, claims given
    // up, and offers withdrawn as the inbox runs dry.
    loom::model(|| {
        let subject = PublishSubject::new();
        let probe = Probe::new();
        subject.observable().subscribe_observer(probe.clone());

        let emitters: Vec<_> = (0..2)
            .map(|v| {
                let s = subject.clone();
                thread::spawn(move || s.on_next(v))
            })
            .collect();
        subject.on_next(2);
        for emitter in emitters {
            emitter.join().unwrap();
        }
        subject.on_completed();

        probe.check(3);
        assert_eq!(
            probe.0.seen.load(Ordering::SeqCst),
            0b111,
            "a value was lost"
        );
        assert_eq!(probe.0.values.load(Ordering::SeqCst), 3, "a value twice");
    });
    assert!(
        HANDED_OVER.load(Relaxed) > 0,
        "no execution handed the role over"
    );
}

#[test]
fn loom_terminal_races_a_value_and_a_disposal() {
    // The terminal notification goes out at once when it finds nobody delivering and nothing
    // recorded, and through the inbox otherwise: either way once, after the value if the value
    // was accepted first, and never to an observer whose disposal finished before it began.
    loom::model(|| {
        let (subject, stays, leaves, handle) = stays_and_leaves();

        let s1 = subject.clone();
        let t1 = thread::spawn(move || s1.observer().on_completed());
        let s2 = subject.clone();
        let t2 = thread::spawn(move || {
            s2.observer().on_next(1);
            handle.dispose();
        });
        t1.join().unwrap();
        t2.join().unwrap();

        stays.check(1);
        assert!(leaves.0.values.load(Ordering::SeqCst) <= 1);
        assert!(leaves.0.terminals.load(Ordering::SeqCst) <= 1);
        assert!(!leaves.0.overlapped.load(Ordering::SeqCst));
        assert!(!leaves.0.after_terminal.load(Ordering::SeqCst));
        assert!(!subject.has_observers());
    });
}
