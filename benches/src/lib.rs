//! What the bench binary (`benches/rpp.rs`) and the report generator (`src/bin/report.rs`)
//! share: the counting allocator, the records the bench leaves beside criterion's estimates,
//! and where both live.
//!
//! Criterion measures time; everything else a case reports (its status when an
//! implementation cannot be written, the allocations per iteration, notes on semantics) is
//! written by the bench binary as one small JSON file per case and implementation, under
//! `<target>/criterion/rx-bench/`, so that a run filtered to a few cases updates only their
//! records and the report still covers the whole suite.

use serde::{Deserialize, Serialize};
use std::alloc::{GlobalAlloc, Layout, System};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

pub mod subjects;

// ---------------------------------------------------------------- counting allocator

/// A global allocator that counts allocations and bytes while counting is on, across all
/// threads, and costs one relaxed load per call while it is off, so criterion's timed loops
/// see the system allocator with no extra atomics.
///
/// Install it in the bench binary with `#[global_allocator]`.
#[derive(Debug)]
pub struct CountingAlloc;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static ALLOCATED_BYTES: AtomicU64 = AtomicU64::new(0);
// Net change of the bytes held, while counting: what is allocated minus what is freed.
static LIVE_BYTES: AtomicI64 = AtomicI64::new(0);

// SAFETY: every call is forwarded unchanged to `System`, which upholds `GlobalAlloc`'s
// contract; the counters are only observed, never used to decide anything about memory.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract, which `System.alloc` shares.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() && COUNTING.load(Ordering::Relaxed) {
            count_allocation(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() && COUNTING.load(Ordering::Relaxed) {
            count_allocation(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE_BYTES.fetch_sub(layout.size() as i64, Ordering::Relaxed);
        }
        // SAFETY: `ptr` was allocated by this allocator, i.e. by `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with `layout`; the caller upholds the rest.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() && COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
            ALLOCATED_BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
            LIVE_BYTES.fetch_add(new_size as i64 - layout.size() as i64, Ordering::Relaxed);
        }
        new
    }
}

fn count_allocation(size: usize) {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    ALLOCATED_BYTES.fetch_add(size as u64, Ordering::Relaxed);
    LIVE_BYTES.fetch_add(size as i64, Ordering::Relaxed);
}

/// What the counting allocator saw between [`count`]'s start and end.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AllocDelta {
    /// Allocations, reallocations included.
    pub allocations: u64,
    /// Bytes asked for by those allocations.
    pub bytes: u64,
    /// Net change of the bytes held: allocated minus freed.
    pub live_bytes: i64,
}

/// Runs `f` with counting on, and returns what it allocated (on every thread, so work a
/// scheduler runs elsewhere is included).
///
/// Counting is global: run it where nothing else allocates concurrently, i.e. outside
/// criterion's timing and with no other benchmark running.
pub fn count<R>(f: impl FnOnce() -> R) -> (R, AllocDelta) {
    let counter = Counter::start();
    let result = f();
    (result, counter.stop())
}

/// Counting between two points of a program that [`count`]'s closure cannot span (an
/// `async` block that awaits in between, say). The same caveats apply.
#[derive(Debug)]
#[must_use = "call `stop` to read what was counted"]
pub struct Counter {
    before: AllocDelta,
}

impl Counter {
    /// Turns counting on.
    pub fn start() -> Self {
        let before = snapshot();
        COUNTING.store(true, Ordering::SeqCst);
        Counter { before }
    }

    /// Turns counting off and returns what was counted since [`start`](Counter::start).
    pub fn stop(self) -> AllocDelta {
        COUNTING.store(false, Ordering::SeqCst);
        let after = snapshot();
        AllocDelta {
            allocations: after.allocations - self.before.allocations,
            bytes: after.bytes - self.before.bytes,
            live_bytes: after.live_bytes - self.before.live_bytes,
        }
    }
}

fn snapshot() -> AllocDelta {
    AllocDelta {
        allocations: ALLOCATIONS.load(Ordering::SeqCst),
        bytes: ALLOCATED_BYTES.load(Ordering::SeqCst),
        live_bytes: LIVE_BYTES.load(Ordering::SeqCst),
    }
}

// ---------------------------------------------------------------- settings

/// Criterion's warm-up time per implementation of a case, in ms.
pub const WARM_UP_MS: u64 = 300;
/// Criterion's measurement time per implementation of a case, in ms.
pub const MEASUREMENT_MS: u64 = 1000;
/// Criterion's samples per implementation of a case.
pub const SAMPLES: usize = 40;
/// How many ops the allocation count runs, unless a case asks for fewer.
pub const ALLOCATION_ITERS: u32 = 1000;

// ---------------------------------------------------------------- records

/// The implementations a case is measured in, in report order. The strings are criterion's
/// parameter names, so results are found at `<group>/<case>/<implementation>`.
///
/// `rxrust-shared` is rxRust's thread-safe context (`Shared`), measured beside `Local` where
/// rx's thread-safe state meets rxRust's single-threaded one (the subjects); the report shows
/// it in the notes.
pub const IMPLEMENTATIONS: [&str; 5] = ["hand-written", "rx", "rxrust", "futures", "rxrust-shared"];

/// Whether an implementation of a case was measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Measured in this or an earlier run: criterion holds its timing.
    Measured,
    /// The library has the operator in principle, but this crate does not have it yet.
    Missing,
    /// Cannot be written with this implementation (no such operator or scheduler), or has no
    /// natural form in it.
    NotApplicable,
}

/// What the bench binary knows about one implementation of one case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// RPP's group name, e.g. `Filtering Operators`.
    pub group: String,
    /// RPP's case name.
    pub case: String,
    /// One of [`IMPLEMENTATIONS`].
    pub implementation: String,
    /// Measured, missing or not applicable.
    pub status: Status,
    /// Why it is missing or not applicable, or how it differs from RPP's case.
    pub note: Option<String>,
    /// Allocations per iteration, from the counting allocator.
    pub allocations_per_iter: Option<f64>,
    /// Bytes allocated per iteration.
    pub bytes_per_iter: Option<f64>,
    /// The run that wrote it ([`run_started`]); 0 in a record older than runs were recorded.
    #[serde(default)]
    pub run: u64,
}

/// Memory held by live subscriptions, per subscription, for one library and one scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryRecord {
    /// The scenario, e.g. `PublishSubject + map + filter + subscribe`.
    pub scenario: String,
    /// `rx` or `rxrust`.
    pub library: String,
    /// How many subscriptions were alive at once.
    pub subscriptions: usize,
    /// Net heap bytes held, divided by `subscriptions`.
    pub heap_bytes_per_subscription: f64,
    /// Allocations made while subscribing, divided by `subscriptions`.
    pub allocations_per_subscription: f64,
    /// The size of the handle `subscribe` returns, which the caller holds on top.
    pub handle_bytes: usize,
    /// How the scenario is written in this library, where it differs.
    pub note: Option<String>,
    /// The run that wrote it ([`run_started`]); 0 in a record older than runs were recorded.
    #[serde(default)]
    pub run: u64,
}

/// One point of a scaling curve, as `benches/scaling.rs` writes it and the report reads it,
/// one file per point under `<records>/scaling/`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScalingPoint {
    /// The curve, e.g. `PublishSubject on_next`.
    pub curve: String,
    /// Where the curve comes in the report.
    pub order: usize,
    /// What one unit is, e.g. `notification per subscriber`.
    pub unit: String,
    /// The point's N.
    pub n: usize,
    /// Criterion's parameter: the results are at `Scaling/<case>/<implementation>`.
    pub implementation: String,
    /// The column the report shows it in.
    pub label: String,
    /// Criterion's function name.
    pub case: String,
    /// Units of work one op does.
    pub units_per_op: f64,
    /// Allocations per unit, from the counting allocator.
    pub allocations_per_unit: f64,
    /// How the implementation is written, where it differs.
    pub note: Option<String>,
    /// The run that wrote it ([`run_started`]); 0 in a record older than runs were recorded.
    #[serde(default)]
    pub run: u64,
}

/// A memory scenario of one library: how many subscriptions are kept alive at once, and what
/// its [`MemoryRecord`] is labelled with.
#[derive(Clone, Copy, Debug)]
pub struct LiveSubscriptions<'a> {
    /// The scenario, e.g. `PublishSubject + map + filter + subscribe`.
    pub scenario: &'a str,
    /// The library's label, e.g. `rx` or `rxrust Shared`.
    pub library: &'a str,
    /// How the scenario is written in this library, where it differs.
    pub note: Option<&'a str>,
    /// How many subscriptions are alive at once.
    pub subscriptions: usize,
}

impl LiveSubscriptions<'_> {
    /// Subscribes [`subscriptions`](LiveSubscriptions::subscriptions) times with `subscribe`,
    /// keeping every handle in a vector allocated beforehand, and records what stays
    /// allocated. `check` runs once all are alive, outside the count, and returns how many
    /// subscriptions one notification reached, to prove they are.
    ///
    /// # Panics
    ///
    /// If `check` reaches fewer subscriptions than were made.
    pub fn measure<H>(
        &self,
        mut subscribe: impl FnMut() -> H,
        check: impl FnOnce() -> usize,
    ) -> MemoryRecord {
        let mut handles = Vec::with_capacity(self.subscriptions);
        let ((), delta) = count(|| {
            for _ in 0..self.subscriptions {
                handles.push(subscribe());
            }
        });
        self.assert_alive(check());
        drop(handles);
        self.record(delta, size_of::<H>())
    }

    /// Asserts that a notification reached every subscription.
    ///
    /// # Panics
    ///
    /// If `reached` is less than [`subscriptions`](LiveSubscriptions::subscriptions).
    pub fn assert_alive(&self, reached: usize) {
        assert!(
            reached >= self.subscriptions,
            "{}, {}: every subscription is alive ({reached} of {} reached)",
            self.library,
            self.scenario,
            self.subscriptions
        );
    }

    /// The record of what `delta` counted while the subscriptions were made, whose handles
    /// are `handle_bytes` large; printed as it is made.
    pub fn record(&self, delta: AllocDelta, handle_bytes: usize) -> MemoryRecord {
        let n = self.subscriptions as f64;
        let record = MemoryRecord {
            scenario: self.scenario.to_owned(),
            library: self.library.to_owned(),
            subscriptions: self.subscriptions,
            heap_bytes_per_subscription: delta.live_bytes as f64 / n,
            allocations_per_subscription: delta.allocations as f64 / n,
            handle_bytes,
            note: self.note.map(str::to_owned),
            run: run_started(),
        };
        println!(
            "memory: {:<60} {:<14} {:>8.1} heap bytes/subscription, {:>5.2} \
             allocations/subscription, handle {} bytes",
            record.scenario,
            record.library,
            record.heap_bytes_per_subscription,
            record.allocations_per_subscription,
            record.handle_bytes
        );
        record
    }
}

/// The run this process is: the second (since the Unix epoch) it first asked, the same for
/// every record it writes. A run filtered to a few cases rewrites only their records, so
/// the report tells from these which of its figures come from an earlier run.
pub fn run_started() -> u64 {
    static STARTED: OnceLock<u64> = OnceLock::new();
    *STARTED.get_or_init(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs())
    })
}

/// The cargo target directory of the running binary: bench binaries live in
/// `<target>/<profile>/deps/`, other binaries in `<target>/<profile>/`.
pub fn target_dir() -> io::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let mut dir = exe
        .parent()
        .ok_or_else(|| io::Error::other("the executable has no parent directory"))?;
    if dir.file_name().is_some_and(|name| name == "deps") {
        dir = dir.parent().unwrap_or(dir);
    }
    dir.parent()
        .map(Path::to_path_buf)
        .ok_or_else(|| io::Error::other("the executable is not inside a cargo target directory"))
}

/// Whether the command line's filters (criterion's positional arguments) select the section
/// named `section` that runs after the criterion groups (`memory`, `timers`): every section
/// runs when no filter is given, and `cargo bench -p rx-benches -- timers` runs that one.
pub fn section_selected(section: &str) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    filters.is_empty() || filters.iter().any(|f| section.contains(f.as_str()))
}

/// Where criterion keeps its results (`<target>/criterion`), unless `CRITERION_HOME` says
/// otherwise, as criterion itself decides.
pub fn criterion_dir() -> io::Result<PathBuf> {
    match std::env::var_os("CRITERION_HOME") {
        Some(home) => Ok(PathBuf::from(home)),
        None => Ok(target_dir()?.join("criterion")),
    }
}

/// Where the bench binary keeps its records.
pub fn records_dir() -> io::Result<PathBuf> {
    Ok(criterion_dir()?.join("rx-bench"))
}

/// A file name for `name` that is unique (a hash of the whole name) and still readable.
pub fn slug(name: &str) -> String {
    let readable: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(40)
        .collect();
    format!("{readable}-{:016x}", fnv1a(name))
}

fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Writes `record` to its file, replacing what an earlier run left.
pub fn write_record(record: &Record) -> io::Result<()> {
    let dir = records_dir()?.join("cases");
    fs::create_dir_all(&dir)?;
    let file = dir.join(format!(
        "{}.{}.json",
        slug(&format!("{}/{}", record.group, record.case)),
        record.implementation
    ));
    fs::write(file, serde_json::to_vec_pretty(record)?)
}

/// Every record the bench binary has written.
pub fn read_records() -> io::Result<Vec<Record>> {
    read_json_files(&records_dir()?.join("cases"))
}

/// Writes the memory records of one run, replacing the previous run's.
pub fn write_memory_records(records: &[MemoryRecord]) -> io::Result<()> {
    let dir = records_dir()?;
    fs::create_dir_all(&dir)?;
    fs::write(dir.join("memory.json"), serde_json::to_vec_pretty(records)?)
}

/// The memory records of the last run, if there was one.
pub fn read_memory_records() -> io::Result<Vec<MemoryRecord>> {
    match fs::read(records_dir()?.join("memory.json")) {
        Ok(bytes) => Ok(serde_json::from_slice(&bytes)?),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

fn read_json_files<T: for<'de> Deserialize<'de>>(dir: &Path) -> io::Result<Vec<T>> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    for entry in entries {
        let path = entry?.path();
        if path.extension().is_some_and(|ext| ext == "json") {
            out.push(serde_json::from_slice(&fs::read(&path)?)?);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_keep_distinct_names_apart() {
        let a = slug("Sources/from array of 1 - create + as_blocking + subscribe + new_thread");
        let b = slug("Sources/from array of 1000 - create + as_blocking + subscribe + new_thread");
        assert_ne!(a, b);
        assert!(
            a.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        );
    }
}
