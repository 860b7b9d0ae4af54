use super::MergeCore;
use crate::Error;
use crate::observer::Observer;
use crate::primitive::{Arc, AtomicBool, AtomicUsize, Ordering::SeqCst, thread};
use crate::subscription::Subscription;
use crate::sync::imp::Lock;

/// Checks the Rx rules as it records: no two `on_next` at once, nothing after the
/// terminal event, one terminal event.
#[derive(Clone, Default)]
struct Recorder {
    busy: Arc<AtomicBool>,
    terminated: Arc<AtomicBool>,
    values: Arc<AtomicUsize>,
    terminals: Arc<AtomicUsize>,
}

impl Recorder {
    fn terminal(&self) {
        assert!(!self.busy.load(SeqCst), "terminal event during on_next");
        assert!(!self.terminated.swap(true, SeqCst), "two terminal events");
        self.terminals.fetch_add(1, SeqCst);
    }
}

impl Observer<u32> for Recorder {
    fn on_next(&mut self, _: u32) {
        assert!(
            !self.terminated.load(SeqCst),
            "a value after the terminal event"
        );
        // A preemption point between the swap and the store: loom tries another
        // delivery in between.
        assert!(!self.busy.swap(true, SeqCst), "two on_next calls at once");
        self.values.fetch_add(1, SeqCst);
        self.busy.store(false, SeqCst);
    }

    fn on_error(self, _: Error) {
        self.terminal();
    }

    fn on_completed(self) {
        self.terminal();
    }
}

/// The extra state is the number of sources still running.
type TestCore = MergeCore<'static, Recorder, u32, usize>;

fn finish<O: Observer<u32>>(core: &MergeCore<'static, O, u32, usize>) {
    let mut locked = core.lock();
    *locked.extra() -= 1;
    if *locked.extra() == 0 {
        locked.complete();
    }
}

#[test]
fn loom_merge_two_threads_deliver_serialised_then_complete_once() {
    loom::model(|| {
        let recorder = Recorder::default();
        let core = Arc::new(TestCore::new(recorder.clone(), 2));
        let other = core.clone();
        let t = thread::spawn(move || {
            other.lock().next(1);
            other.lock().next(2);
            finish(&other);
        });
        core.lock().next(3);
        finish(&core);
        t.join().unwrap();
        assert_eq!(recorder.values.load(SeqCst), 3);
        assert_eq!(recorder.terminals.load(SeqCst), 1);
        assert!(core.is_done());
    });
}

/// Both producers deliver through [`MergeCore::next`], which takes the delivery role with a
/// compare-exchange and gives it back with another, and takes the lock only when their
/// calls overlap: every value arrives once, never two at once, each producer's in its
/// order, then one completion; and the role ends up free of queued work. Fails if a value
/// is queued after the holder's give-back has read the queue as empty, or if the cell is
/// touched by two threads without the role between them (loom's `UnsafeCell` checks it).
#[test]
fn loom_merge_lock_free_take_and_give_back() {
    loom::model(|| {
        let ordered = Ordered::default();
        let core = Arc::new(OrderedCore::new(ordered.clone(), 2));
        let other = core.clone();
        let t = thread::spawn(move || {
            other.next(4);
            other.next(5);
            finish(&other);
        });
        core.next(2);
        core.next(3);
        finish(&core);
        t.join().unwrap();
        assert_eq!(ordered.seen.load(SeqCst), 0b11_1100, "a value was lost");
        assert_eq!(ordered.recorder.terminals.load(SeqCst), 1);
        assert!(core.lock().state.queue.is_empty());
    });
}

/// An error races a value taking the role without the lock: either the value finds the
/// role taken for good and is dropped, or the error finds it held and is left for the
/// holder, which delivers it after its value. One terminal event, nothing after it.
#[test]
fn loom_merge_terminal_races_the_lock_free_take() {
    loom::model(|| {
        let recorder = Recorder::default();
        let core = Arc::new(TestCore::new(recorder.clone(), 2));
        let other = core.clone();
        let t = thread::spawn(move || other.next(1));
        core.lock().error(Error::msg("boom"));
        t.join().unwrap();
        assert_eq!(recorder.terminals.load(SeqCst), 1);
        assert!(recorder.values.load(SeqCst) <= 1);
        assert_ne!(
            core.role.load(SeqCst),
            0,
            "a closed core's role was given back"
        );
    });
}

/// Checks, besides the Rx rules, that each producer's values arrive in its order: a
/// producer sends `2k` and then `2k + 1`.
#[derive(Clone, Default)]
struct Ordered {
    recorder: Recorder,
    seen: Arc<AtomicUsize>,
}

impl Observer<u32> for Ordered {
    fn on_next(&mut self, value: u32) {
        let seen = self.seen.fetch_or(1 << value, SeqCst);
        assert_eq!(seen & (1 << value), 0, "{value} delivered twice");
        assert!(
            value % 2 == 0 || seen & (1 << (value - 1)) != 0,
            "{value} delivered before {}",
            value - 1
        );
        self.recorder.on_next(value);
    }

    fn on_error(self, error: Error) {
        self.recorder.on_error(error);
    }

    fn on_completed(self) {
        self.recorder.on_completed();
    }
}

type OrderedCore = MergeCore<'static, Ordered, u32, usize>;

/// With a batch of one under loom, the emitter asks for a successor after its first value;
/// a producer on the other thread that finds it delivering takes the role, waits for the
/// in-flight `on_next`, and delivers what is queued. Whoever ends up delivering, every
/// value arrives once, in its producer's order, never two at once, then one completion;
/// and an emitter never delivers another value once a successor waits for it (checked
/// in the emitter). Some execution must reach the hand-over.
#[test]
fn loom_merge_hands_the_delivery_role_over() {
    // Reaching the hand-over takes three preemptions: into the first `on_next`, back, and
    // into the second.
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(builder.preemption_bound.unwrap_or(3).max(3));
    builder.check(|| {
        let ordered = Ordered::default();
        let core = Arc::new(OrderedCore::new(ordered.clone(), 2));
        let other = core.clone();
        let t = thread::spawn(move || {
            other.lock().next(4);
            other.lock().next(5);
            let successions = other.state.lock().successions;
            let mut locked = other.lock();
            *locked.extra() -= 1;
            if *locked.extra() == 0 {
                locked.complete();
            }
            successions
        });
        core.lock().next(2);
        core.lock().next(3);
        {
            let mut locked = core.lock();
            *locked.extra() -= 1;
            if *locked.extra() == 0 {
                locked.complete();
            }
        }
        let successions = t.join().unwrap();
        assert_eq!(ordered.seen.load(SeqCst), 0b11_1100, "a value was lost");
        if successions > 0 {
            HANDED_OVER.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        assert_eq!(ordered.recorder.terminals.load(SeqCst), 1);
        let state = core.state.lock();
        assert!(state.queue.is_empty() && state.handover == super::Handover::Idle);
    });
    assert!(
        HANDED_OVER.load(std::sync::atomic::Ordering::Relaxed),
        "no execution reached the hand-over"
    );
}

/// Whether some execution of the hand-over model handed the role over (outside loom's
/// model: it spans executions).
static HANDED_OVER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// An error while a successor waits drops the queue, the successor's value with it: the
/// successor returns instead of waiting for a hand-over that cannot come, and the error is
/// delivered once, after the in-flight value.
#[test]
fn loom_merge_error_while_a_successor_waits() {
    loom::model(error_after(&[2]));
}

/// A model: a thread sends 4 and 5 while this one sends `values`, then an error; the
/// error is delivered once, and leaves no value queued and no hand-over open.
fn error_after(values: &'static [u32]) -> impl Fn() + Send + Sync + 'static {
    move || {
        let ordered = Ordered::default();
        let core = Arc::new(OrderedCore::new(ordered.clone(), 2));
        let other = core.clone();
        let t = thread::spawn(move || {
            other.lock().next(4);
            other.lock().next(5);
        });
        for &v in values {
            core.lock().next(v);
        }
        core.lock().error(Error::msg("boom"));
        t.join().unwrap();
        assert_eq!(ordered.recorder.terminals.load(SeqCst), 1);
        let state = core.state.lock();
        assert!(state.queue.is_empty() && state.handover == super::Handover::Idle);
    }
}

/// The emitter hands the role over, and an error drops the queue before the successor
/// has the lock back: the successor holds the role with nothing to deliver, and delivers
/// the pending error. Reaching it takes the hand-over model's three preemptions.
#[test]
fn loom_merge_error_after_the_hand_over() {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(builder.preemption_bound.unwrap_or(3).max(3));
    builder.check(error_after(&[2, 3]));
}

#[test]
fn loom_merge_error_races_values() {
    loom::model(|| {
        let recorder = Recorder::default();
        let core = Arc::new(TestCore::new(recorder.clone(), 2));
        let other = core.clone();
        let t = thread::spawn(move || {
            other.lock().next(1);
            other.lock().next(2);
        });
        core.lock().error(Error::msg("boom"));
        t.join().unwrap();
        assert_eq!(recorder.terminals.load(SeqCst), 1);
        assert!(recorder.values.load(SeqCst) <= 2);
    });
}

/// An upstream handle that records being disposed and being dropped.
#[derive(Clone, Default)]
struct Flags {
    disposed: Arc<AtomicBool>,
    dropped: Arc<AtomicBool>,
}

struct FlagHandle(Flags);

impl Subscription for FlagHandle {
    fn dispose(&self) {
        self.0.disposed.store(true, SeqCst);
    }
    fn is_disposed(&self) -> bool {
        self.0.disposed.load(SeqCst)
    }
}

impl Drop for FlagHandle {
    fn drop(&mut self) {
        self.0.dropped.store(true, SeqCst);
    }
}

#[test]
fn loom_merge_dispose_races_keeping_a_handle() {
    loom::model(|| {
        let core = Arc::new(TestCore::new(Recorder::default(), 1));
        let handle = core.handle();
        let id = core.begin().unwrap();
        let t = thread::spawn(move || handle.dispose());
        let flags = Flags::default();
        core.end_subscribe(id, FlagHandle(flags.clone()));
        t.join().unwrap();
        // Whichever came first, the upstream ends up disposed and not kept.
        assert!(flags.disposed.load(SeqCst));
        assert!(flags.dropped.load(SeqCst));
    });
}

#[test]
fn loom_merge_disposing_all_but_one_races_keeping_another_handle() {
    loom::model(|| {
        let core = Arc::new(TestCore::new(Recorder::default(), 3));
        let keep = |flags: &Flags| {
            let id = core.begin().unwrap();
            core.end_subscribe(id, FlagHandle(flags.clone()));
            id
        };
        // Two handles kept in place; a third, kept on another thread while `amb`'s
        // winner disposes every other upstream, goes to the map (or is cancelled while
        // its `subscribe` runs).
        let (winner, loser, late) = (Flags::default(), Flags::default(), Flags::default());
        let winner_id = keep(&winner);
        keep(&loser);
        let late_id = core.begin().unwrap();
        let other = core.clone();
        let flags = late.clone();
        let t = thread::spawn(move || other.end_subscribe(late_id, FlagHandle(flags)));
        core.lock().dispose_upstreams_except(winner_id);
        t.join().unwrap();
        assert!(!winner.disposed.load(SeqCst) && !winner.dropped.load(SeqCst));
        assert!(loser.disposed.load(SeqCst) && loser.dropped.load(SeqCst));
        assert!(late.disposed.load(SeqCst) && late.dropped.load(SeqCst));
    });
}

#[test]
fn loom_merge_termination_races_keeping_a_handle() {
    loom::model(|| {
        let core = Arc::new(TestCore::new(Recorder::default(), 2));
        let id = core.begin().unwrap();
        let other = core.clone();
        // The upstream terminates on its own thread while its `subscribe` returns.
        let t = thread::spawn(move || {
            let mut locked = other.lock();
            locked.release_upstream(id);
        });
        let flags = Flags::default();
        core.end_subscribe(id, FlagHandle(flags.clone()));
        t.join().unwrap();
        // A finished upstream's handle is dropped, never kept (or disposed).
        assert!(flags.dropped.load(SeqCst));
        assert!(!flags.disposed.load(SeqCst));
    });
}

#[test]
fn loom_merge_last_completion_races_a_disposal_through_the_handle() {
    loom::model(|| {
        // The last upstream completes while the user disposes: its handle is taken out
        // and the block closed under one lock of the block (or the disposal took it
        // first); either way the handle is dropped, the block ends disposed, and the
        // downstream has at most one terminal event.
        let recorder = Recorder::default();
        let core = Arc::new(TestCore::new(recorder.clone(), 1));
        let id = core.begin().unwrap();
        let flags = Flags::default();
        core.end_subscribe(id, FlagHandle(flags.clone()));
        let handle = core.handle();
        let disposer = handle.clone();
        let t = thread::spawn(move || disposer.dispose());
        {
            let mut locked = core.lock();
            locked.release_upstream(id);
            *locked.extra() -= 1;
            locked.complete();
        }
        t.join().unwrap();
        assert!(flags.dropped.load(SeqCst));
        assert!(handle.is_disposed());
        assert!(recorder.terminals.load(SeqCst) <= 1);
        // A handle kept after both is disposed at once.
        let late = Flags::default();
        core.end_subscribe(id + 1, FlagHandle(late.clone()));
        assert!(late.dropped.load(SeqCst));
    });
}

#[test]
fn loom_merge_termination_races_a_finished_handle() {
    loom::model(|| {
        let core = Arc::new(TestCore::new(Recorder::default(), 2));
        let id = core.begin().unwrap();
        let other = core.clone();
        let t = thread::spawn(move || {
            let mut locked = other.lock();
            locked.release_upstream(id);
        });
        // A handle that reports itself finished takes the path without the lock when the
        // upstream has already freed its slot.
        let flags = Flags::default();
        flags.disposed.store(true, SeqCst);
        core.end_subscribe(id, FlagHandle(flags.clone()));
        t.join().unwrap();
        assert!(flags.dropped.load(SeqCst));
        assert!(core.subscribing.iter().all(|slot| slot.load(SeqCst) == 0));
    });
}

/// A source that records being subscribed and returns a live handle.
struct Live(Flags, Arc<AtomicBool>);

impl crate::observable::Observable for Live {
    type Item = u32;
    type Flavour = crate::sync::Shared;
}

impl<B> crate::observable::Subscribe<B> for Live {
    type Subscription = FlagHandle;

    fn subscribe_observer(self, _: B) -> FlagHandle {
        self.1.store(true, SeqCst);
        FlagHandle(self.0)
    }
}

#[test]
fn loom_merge_error_races_subscribing_a_reserved_upstream() {
    loom::model(|| {
        let core = Arc::new(TestCore::with_upstreams(Recorder::default(), 2, 2));
        let other = core.clone();
        // The first upstream fails on its own thread while the second is subscribed
        // without the lock.
        let t = thread::spawn(move || {
            let mut locked = other.lock();
            locked.release_upstream(1);
            locked.error(Error::msg("boom"));
        });
        let flags = Flags::default();
        let subscribed = Arc::new(AtomicBool::new(false));
        core.subscribe_reserved(2, Live(flags.clone(), subscribed.clone()), |_| ());
        t.join().unwrap();
        // Seen closed: never subscribed. Otherwise subscribed, then disposed and dropped,
        // never kept.
        if subscribed.load(SeqCst) {
            assert!(flags.disposed.load(SeqCst) && flags.dropped.load(SeqCst));
        } else {
            assert!(!flags.dropped.load(SeqCst));
        }
    });
}

#[test]
fn loom_merge_completion_races_building_the_handle() {
    loom::model(|| {
        let recorder = Recorder::default();
        let core = Arc::new(TestCore::new(recorder.clone(), 1));
        let other = core.clone();
        let t = thread::spawn(move || finish(&other));
        let handle = core.handle();
        t.join().unwrap();
        // Built before the completion, it holds the block the completion disposed;
        // after it, nothing.
        assert!(handle.is_disposed());
        assert_eq!(recorder.terminals.load(SeqCst), 1);
    });
}

/// With a control block allocated, a value still takes the role without the lock, and
/// reads the block's flag through the address the core keeps: a disposal racing it
/// either comes after the value (delivered) or before it (dropped, and the core closes
/// at the next lock); nothing is delivered once the disposal has been seen.
#[test]
fn loom_merge_dispose_races_the_lock_free_value() {
    loom::model(|| {
        let recorder = Recorder::default();
        let core = Arc::new(TestCore::new(recorder.clone(), 1));
        let handle = core.handle();
        let other = core.clone();
        let t = thread::spawn(move || other.next(1));
        handle.dispose();
        t.join().unwrap();
        assert!(recorder.values.load(SeqCst) <= 1);
        core.next(2);
        assert!(
            recorder.values.load(SeqCst) <= 1,
            "a value after the disposal"
        );
        assert!(core.is_done() && handle.is_disposed());
        assert_eq!(recorder.terminals.load(SeqCst), 0);
    });
}

#[test]
fn loom_merge_dispose_races_delivery() {
    loom::model(|| {
        let recorder = Recorder::default();
        let core = Arc::new(TestCore::new(recorder.clone(), 2));
        let handle = core.handle();
        let other = core.clone();
        let t = thread::spawn(move || {
            other.lock().next(1);
            other.lock().next(2);
        });
        handle.dispose();
        t.join().unwrap();
        // Nothing is delivered once the core has seen the disposal.
        let before = recorder.values.load(SeqCst);
        core.lock().next(3);
        finish(&core);
        finish(&core);
        assert_eq!(recorder.values.load(SeqCst), before);
        assert_eq!(recorder.terminals.load(SeqCst), 0);
        assert!(core.is_done() && handle.is_disposed());
    });
}
