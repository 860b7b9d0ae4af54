//! RPP's groups Subjects and Scenarios.
//!
//! RPP's three subject cases run twice: under RPP's names, rx's single-threaded subject
//! (`rx::subjects::local`) beside rxRust's `Local::subject()` (`Rc<RefCell<..>>`), and under
//! the same names marked `(thread-safe)`, rx's thread-safe subject beside rxRust's
//! `Shared::subject()`. Each subscriber is a closure that captures a value, so subscribing
//! allocates its observer in every library, as a real subscriber does.

use crate::harness::{Group, sink};
use crate::peers::drive;
use criterion::Criterion;
use futures::stream::{self, StreamExt};
use rx::prelude::*;
use rx::source::create;
use rx::subjects::PublishSubject;
use rx::subjects::local::PublishSubject as LocalSubject;
use rx_benches::subjects::{
    SAMPLE, basic_sample, basic_sample_immediate, local_subject_with_100_observers,
    local_subject_with_one_observer, mix_operators, mix_operators_local,
    subject_with_100_observers, subject_with_one_observer, subscriber,
};
use rxrust::prelude::{Local, Observable as _, ObservableFactory as _, Observer as _, Shared};
use std::cell::Cell;
use std::hint::black_box;

const LOCAL_SUBJECT: &str = "Local::subject(): single-threaded (Rc<RefCell>), no lock";
const RX_LOCAL: &str = "rx::subjects::local::PublishSubject: single-threaded (Rc, Cell), no atomic";
const SHARED_SUBJECT: &str =
    "rx::subjects::PublishSubject and rxRust's Shared::subject(): both thread-safe";

/// The 100 subscribers of cases 41 and 51 are one closure type, as subscribers made in one
/// loop are: rx calls a run of subscribers of one type directly, where the hand-written twin
/// (a vector of boxed closures) makes an indirect call each.
const RX_LOCAL_SAME_TYPE: &str = "rx::subjects::local::PublishSubject: single-threaded (Rc, \
     Cell), no atomic; the 100 subscribers are one closure type, and rx calls a run of \
     subscribers of one type directly, where the hand-written twin makes an indirect call each";
const SHARED_SAME_TYPE: &str = "rx::subjects::PublishSubject and rxRust's Shared::subject(): \
     both thread-safe; the 100 subscribers are one closure type, and rx calls a run of \
     subscribers of one type directly";

type NoError = std::convert::Infallible;

/// The hand-written twin of a subject: its observers, called in turn.
type Observers = Vec<Box<dyn FnMut(i32)>>;

pub fn subjects(c: &mut Criterion) {
    let mut g = Group::new(c, "Subjects");

    // Setup outside the timed op: the subject and its one subscription.
    let mut hand: Observers = vec![Box::new(subscriber(7))];
    let local = local_subject_with_one_observer();
    let mut rxrust_subject = Local::subject::<i32, NoError>();
    rxrust_subject.clone().subscribe(subscriber(7));
    g.case("publish_subject with 1 observer - on_next")
        .hand(|| {
            for observer in &mut hand {
                observer(black_box(1));
            }
        })
        .note(RX_LOCAL)
        .rx(|| local.on_next(black_box(1)))
        .note(LOCAL_SUBJECT)
        .rxrust(|| rxrust_subject.next(black_box(1)))
        .not_applicable("futures", "no multicast stream in futures");

    let subject = subject_with_one_observer();
    let mut shared_subject = Shared::subject::<i32, NoError>();
    shared_subject.clone().subscribe(subscriber(7));
    g.case("publish_subject with 1 observer - on_next (thread-safe)")
        .hand(|| {
            for observer in &mut hand {
                observer(black_box(1));
            }
        })
        .note(SHARED_SUBJECT)
        .rx(|| subject.on_next(black_box(1)))
        .not_applicable("rxrust", "rxRust's Local: case 39")
        .note(SHARED_SUBJECT)
        .rxrust_shared(|| shared_subject.next(black_box(1)))
        .not_applicable("futures", "no multicast stream in futures");

    let hand_subscribe = || {
        let mut observers: Observers = Vec::new();
        for k in 0..100 {
            observers.push(Box::new(subscriber(k)));
        }
        for observer in &mut observers {
            observer(black_box(1));
        }
    };
    g.case("subscribe 100 observers to publish_subject")
        .hand(hand_subscribe)
        .note(RX_LOCAL)
        .rx(|| {
            let subject = LocalSubject::<i32>::new();
            for k in 0..100 {
                subject.observable().subscribe(subscriber(k));
            }
            subject.on_next(black_box(1));
        })
        .note(LOCAL_SUBJECT)
        .rxrust(|| {
            let mut subject = Local::subject::<i32, NoError>();
            for k in 0..100 {
                subject.clone().subscribe(subscriber(k));
            }
            subject.next(black_box(1));
        })
        .not_applicable("futures", "no multicast stream in futures");

    g.case("subscribe 100 observers to publish_subject (thread-safe)")
        .hand(hand_subscribe)
        .note(SHARED_SUBJECT)
        .rx(|| {
            let subject = PublishSubject::<i32>::new();
            for k in 0..100 {
                subject.observable().subscribe(subscriber(k));
            }
            subject.on_next(black_box(1));
        })
        .not_applicable("rxrust", "rxRust's Local: case 40")
        .note(SHARED_SUBJECT)
        .rxrust_shared(|| {
            let mut subject = Shared::subject::<i32, NoError>();
            for k in 0..100 {
                subject.clone().subscribe(subscriber(k));
            }
            subject.next(black_box(1));
        })
        .not_applicable("futures", "no multicast stream in futures");

    // Setup outside the timed op: a subject with 100 subscriptions.
    let mut hand: Observers = (0..100)
        .map(|k| Box::new(subscriber(k)) as Box<dyn FnMut(i32)>)
        .collect();
    let local = local_subject_with_100_observers();
    let subject = subject_with_100_observers();
    let mut rxrust_subject = Local::subject::<i32, NoError>();
    let mut shared_subject = Shared::subject::<i32, NoError>();
    for k in 0..100 {
        rxrust_subject.clone().subscribe(subscriber(k));
        shared_subject.clone().subscribe(subscriber(k));
    }
    let mut hand_100 = || {
        for i in 0..100 {
            for observer in &mut hand {
                observer(black_box(i));
            }
        }
    };
    g.case("100 on_next to 100 observers to publish_subject")
        .hand(&mut hand_100)
        .note(RX_LOCAL_SAME_TYPE)
        .rx(|| {
            for i in 0..100 {
                local.on_next(black_box(i));
            }
        })
        .note(LOCAL_SUBJECT)
        .rxrust(|| {
            for i in 0..100 {
                rxrust_subject.next(black_box(i));
            }
        })
        .not_applicable("futures", "no multicast stream in futures");

    g.case("100 on_next to 100 observers to publish_subject (thread-safe)")
        .hand(&mut hand_100)
        .note(SHARED_SAME_TYPE)
        .rx(|| {
            for i in 0..100 {
                subject.on_next(black_box(i));
            }
        })
        .not_applicable("rxrust", "rxRust's Local: case 41")
        .note(SHARED_SUBJECT)
        .rxrust_shared(|| {
            for i in 0..100 {
                shared_subject.next(black_box(i));
            }
        })
        .not_applicable("futures", "no multicast stream in futures");
    g.finish();
}

thread_local! {
    static QUEUE_OWNED: Cell<bool> = const { Cell::new(false) };
}

#[inline(always)]
fn hand_basic_sample() {
    for c in black_box(SAMPLE) {
        if c == '0' {
            break;
        }
        if !c.is_ascii_digit() {
            sink(c.to_ascii_uppercase());
        }
    }
}

pub fn scenarios(c: &mut Criterion) {
    let mut g = Group::new(c, "Scenarios");

    g.case("basic sample")
        .hand(|| {
            QUEUE_OWNED.with(|owned| {
                owned.set(true);
                hand_basic_sample();
                owned.set(false);
            })
        })
        .note(
            "from_iter(..).subscribe_on(CurrentThread): RPP's just without a scheduler runs on \
             current_thread",
        )
        .rx(|| basic_sample(sink))
        .not_applicable(
            "rxrust",
            "rxRust has no current-thread (trampoline) scheduler: see the immediate case",
        )
        .not_applicable("futures", "no scheduler to name: see the immediate case");

    g.case("basic sample with immediate scheduler")
        .hand(hand_basic_sample)
        .rx(|| basic_sample_immediate(sink))
        .rxrust(|| {
            Local::from_iter(black_box(SAMPLE))
                .take_while(|c| *c != '0')
                .filter(|c| !c.is_ascii_digit())
                .map(|c| c.to_ascii_uppercase())
                .subscribe(sink);
        })
        .futures(|| {
            drive(
                stream::iter(black_box(SAMPLE))
                    .take_while(|c| std::future::ready(*c != '0'))
                    .filter(|c| std::future::ready(!c.is_ascii_digit()))
                    .map(|c| c.to_ascii_uppercase()),
                sink,
            )
        });

    let hand_mix = || {
        // filter | map | take(10), then merge_with(just(1)) (which arrives first, as
        // just(1) emits on subscribe), scan(0, +) and distinct_until_changed.
        let mut acc = 0;
        let mut last = None;
        let mut emit = |v: i32| {
            acc += v;
            if last != Some(acc) {
                last = Some(acc);
                sink(acc);
            }
        };
        emit(black_box(1));
        let mut taken = 0;
        for v in 0..10 {
            let v = black_box(v);
            if v != 0 && taken < 10 {
                taken += 1;
                emit(v * 2);
            }
        }
    };
    g.case("mix operators with disposables and without disposables")
        .hand(hand_mix)
        .note(RX_LOCAL)
        .rx(|| mix_operators_local(sink))
        .note(LOCAL_SUBJECT)
        .rxrust(|| {
            let mut subject = Local::subject::<i32, NoError>();
            subject
                .clone()
                .filter(|v| *v != 0)
                .map(|v| v * 2)
                .take(10)
                .merge(Local::of(black_box(1)))
                .scan(0, |acc, v| acc + v)
                .distinct_until_changed()
                .subscribe(sink);
            for v in 0..10 {
                subject.next(black_box(v));
            }
            subject.complete();
        })
        .not_applicable("futures", "no multicast stream in futures");

    g.case("mix operators with disposables and without disposables (thread-safe)")
        .hand(hand_mix)
        .note(SHARED_SUBJECT)
        .rx(|| mix_operators(sink))
        .not_applicable("rxrust", "rxRust's Local: case 44")
        .note(SHARED_SUBJECT)
        .rxrust_shared(|| {
            let mut subject = Shared::subject::<i32, NoError>();
            subject
                .clone()
                .filter(|v| *v != 0)
                .map(|v| v * 2)
                .take(10)
                .merge(Shared::of(black_box(1)))
                .scan(0, |acc, v| acc + v)
                .distinct_until_changed()
                .subscribe(sink);
            for v in 0..10 {
                subject.next(black_box(v));
            }
            subject.complete();
        })
        .not_applicable("futures", "no multicast stream in futures");

    g.case("single disposable and looooooong indentity chain")
        .hand(|| sink(black_box(1)))
        .rx(|| {
            create(|mut emitter| {
                emitter.on_next(black_box(1));
                emitter.on_completed();
            })
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .map(|v| v)
            .subscribe(sink);
        })
        .not_applicable(
            "rxrust",
            "does not compile: rustc's memory grows exponentially with the length of an rxRust \
             chain (12 maps: 18 s and 0.5 GB to type-check; 16 maps: more than 6 GB)",
        )
        .futures(|| {
            drive(
                stream::iter([black_box(1)])
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v)
                    .map(|v| v),
                sink,
            )
        });
    g.finish();
}
