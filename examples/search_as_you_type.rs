//! Search as you type: what the user types is debounced, repeated queries are dropped, and
//! each query starts a slow lookup that replaces the one still running for the previous query.
//!
//! ```text
//! keystrokes ─ debounce(150 ms) ─ distinct_until_changed ─ switch_map(lookup) ─ results
//! ```
//!
//! Run it with `cargo run --release --features tokio --example search_as_you_type`. At a
//! terminal, type what the search box holds after each keystroke, one line each (end with
//! Ctrl-D); otherwise it plays a script. The lookups are futures that sleep for a
//! random time on the tokio runtime; the ones a newer query replaces are dropped, which the
//! program prints.

use rx::prelude::*;
use rx::schedulers::Tokio;
use rx::subjects::PublishSubject;
use std::hash::{BuildHasher, RandomState};
use std::io::{BufRead, IsTerminal};
use std::time::{Duration, Instant};

/// What there is to find: operator names, separated by spaces.
const NAMES: &str = "\
    buffer combine_latest concat concat_map debounce delay distinct \
    distinct_until_changed exhaust_map filter filter_map first flat_map group_by last \
    map map_err merge merge_with observe_on pairwise reduce retry sample scan skip \
    skip_until start_with subscribe_on switch_map switch_on_next take take_until tap \
    throttle timeout window with_latest_from zip";

/// The scripted keystrokes: the pause before each, and what the box then holds.
const SCRIPT: &[(u64, &str)] = &[
    (0, "s"),
    (60, "sw"),
    (60, "swi"),
    // A pause longer than the debounce: "swi" is looked up ...
    (200, "swit"),
    // ... and replaced by "switch" before its answer comes: the "swi" lookup is cancelled.
    (40, "switc"),
    (40, "switch"),
    (700, "switch_"),
    // Backspace within the debounce: the box holds "switch" again, which was looked up already.
    (40, "switch"),
    (700, "m"),
    (60, "ma"),
    (60, "map"),
];

const DEBOUNCE: Duration = Duration::from_millis(150);

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_time()
        .build()
        .expect("a tokio runtime");
    let tokio = Tokio::new(runtime.handle().clone());
    let start = Instant::now();

    // The search box: each keystroke pushes what it holds.
    let keystrokes = PublishSubject::<String>::new();

    let results = keystrokes
        .observable()
        .debounce(DEBOUNCE, tokio.clone())
        .distinct_until_changed()
        .tap(move |query| println!("{:>5} ms  searching {query:?}", ms_since(start)))
        .switch_map(move |query: String| {
            let lookup = lookup(query.clone(), start);
            rx::source::from_future(lookup, tokio.clone()).map(move |hits| (query.clone(), hits))
        })
        // Subscribes now, before the first keystroke; the loop below takes the results.
        .as_blocking()
        .into_iter();

    let mut input = keystrokes.observer();
    let typist = std::thread::spawn(move || {
        if std::io::stdin().is_terminal() {
            println!("type a query a line (what the search box holds), Ctrl-D to end");
            for line in std::io::stdin().lock().lines() {
                let text = line.expect("stdin is readable");
                println!("{:>5} ms  typed {text:?}", ms_since(start));
                input.on_next(text);
            }
        } else {
            for &(pause, text) in SCRIPT {
                std::thread::sleep(Duration::from_millis(pause));
                println!("{:>5} ms  typed {text:?}", ms_since(start));
                input.on_next(text.to_owned());
            }
        }
        input.on_completed();
    });

    let mut answered = 0;
    for result in results {
        let (query, hits) = result.expect("the lookups do not fail");
        println!(
            "{:>5} ms  results for {query:?}: {}",
            ms_since(start),
            if hits.is_empty() {
                "none".to_owned()
            } else {
                hits.join(", ")
            }
        );
        answered += 1;
    }
    typist.join().expect("the typist does not panic");
    println!("{answered} queries answered");
}

/// A slow lookup: sleeps for 300 to 500 ms, as a server would take, then filters the names.
/// Dropped before it finishes (because `switch_map` disposed it), it says so.
async fn lookup(query: String, start: Instant) -> Vec<&'static str> {
    let delay = Duration::from_millis(300 + RandomState::new().hash_one(&query) % 200);
    let pending = Pending {
        query: query.clone(),
        start,
        finished: false,
    };
    tokio::time::sleep(delay).await;
    let mut pending = pending;
    pending.finished = true;
    NAMES
        .split_whitespace()
        .filter(|name| name.contains(query.as_str()))
        .collect()
}

/// Marks a lookup in flight; its drop before the answer is a cancellation.
struct Pending {
    query: String,
    start: Instant,
    finished: bool,
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.finished {
            println!(
                "{:>5} ms  lookup for {:?} cancelled: a newer query replaced it",
                ms_since(self.start),
                self.query
            );
        }
    }
}

fn ms_since(start: Instant) -> u128 {
    start.elapsed().as_millis()
}
