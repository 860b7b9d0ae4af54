//! Writes `benches/REPORT.md`, `benches/results.csv` and `benches/chart.svg` from the results
//! of the last `cargo bench -p rx-benches`: criterion's estimates (the median), the records the
//! bench binary leaves beside them (status, allocations, notes), the memory figures, the
//! timer figures, the case list of `benches/cases.csv`, and RPP's figures from
//! `benches/rpp_same_machine.csv`.
//!
//! Run it after the benchmarks: `cargo run -p rx-benches --bin report`. It reads the results
//! of the same target directory, so pass the same `CARGO_TARGET_DIR` as to `cargo bench`.

use rx_benches::{IMPLEMENTATIONS, MemoryRecord, Record, ScalingPoint, Status};
use serde::Deserialize;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The ratio to the hand-written twin a synchronous case must stay within.
const HAND_TARGET: f64 = 1.25;
/// The ratio to hand-written for `immediate scheduler create worker + schedule`.
const SCHEDULER_TARGET: f64 = 2.0;
/// Below this difference two medians are not told apart: in one run on this kind of machine,
/// the same machine code measures up to this far apart (cases 1 and 2, or the hand-written,
/// rx and rxRust versions of a pipeline the compiler folds into the same instructions).
const NOISE_NS: f64 = 0.5;
/// Below this gap rx and the best peer count as tied.
const PEER_TIE_NS: f64 = 0.3;
/// A hand-written twin faster than this is the harness floor: a pipeline folded away.
const FLOOR_NS: f64 = 2.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let reference = read_reference(
        &manifest.join("cases.csv"),
        &manifest.join("rpp_same_machine.csv"),
    )?;
    let timings = read_criterion(&rx_benches::criterion_dir()?)?;
    let records: HashMap<(String, String, String), Record> = rx_benches::read_records()?
        .into_iter()
        .map(|r| {
            (
                (r.group.clone(), r.case.clone(), r.implementation.clone()),
                r,
            )
        })
        .collect();
    let memory = rx_benches::read_memory_records()?;
    let timers = read_timer_records()?;
    if timings.is_empty() {
        return Err(format!(
            "no criterion results under {}: run `cargo bench -p rx-benches` first, with the same \
             CARGO_TARGET_DIR",
            rx_benches::criterion_dir()?.display()
        )
        .into());
    }

    let runs = runs(&records, &memory, &timers)?;
    let suite = Suite::new(&reference, &timings, &records);
    let mut markdown = suite.markdown(&memory);
    timer_table(&mut markdown, &timers);
    if let Some(note) = mixed_runs_note(&runs) {
        eprintln!("warning: {note}");
        // Under the title, above everything it qualifies.
        let at = markdown.find("\n\n").map_or(0, |title| title + 2);
        markdown.insert_str(at, &format!("{note}\n\n"));
    }
    fs::write(manifest.join("REPORT.md"), markdown)?;
    write_scaling(&manifest, &timings)?;
    fs::write(manifest.join("chart.svg"), suite.chart())?;
    fs::write(manifest.join("results.csv"), suite.csv())?;
    println!(
        "wrote {}, {} and {}",
        manifest.join("REPORT.md").display(),
        manifest.join("results.csv").display(),
        manifest.join("chart.svg").display()
    );
    Ok(())
}

// ---------------------------------------------------------------- runs

/// Every measured record with the run that wrote it, named as the report names it: the
/// cases' implementations, the scaling points, the memory scenarios and the timers.
fn runs(
    records: &HashMap<(String, String, String), Record>,
    memory: &[MemoryRecord],
    timers: &[TimerRecord],
) -> io::Result<Vec<(u64, String)>> {
    let mut runs: Vec<(u64, String)> = records
        .values()
        .filter(|r| r.status == Status::Measured)
        .map(|r| (r.run, format!("{} ({})", r.case, r.implementation)))
        .collect();
    runs.extend(
        read_scaling_points()?
            .into_iter()
            .map(|p| (p.run, format!("scaling: {} ({})", p.case, p.label))),
    );
    runs.extend(
        memory
            .iter()
            .chain(&read_scaling_memory()?)
            .map(|m| (m.run, format!("memory: {} ({})", m.scenario, m.library))),
    );
    runs.extend(
        timers
            .iter()
            .map(|t| (t.run, format!("timers: {}", t.implementation))),
    );
    Ok(runs)
}

/// When the figures come from more than one run of the bench binary (a run filtered to a
/// few cases rewrites only theirs), the paragraph that says so and names the figures of the
/// smaller side, the latest run's or the earlier ones'; `None` when they all come from one
/// run.
fn mixed_runs_note(runs: &[(u64, String)]) -> Option<String> {
    let latest = runs.iter().map(|(run, _)| *run).max()?;
    let (mut newer, mut older): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    for (run, what) in runs {
        if *run == latest {
            newer.push(what);
        } else {
            older.push(what);
        }
    }
    if older.is_empty() {
        return None;
    }
    let distinct = runs
        .iter()
        .map(|(run, _)| run)
        .collect::<BTreeSet<_>>()
        .len();
    let (from_latest, from_earlier) = (newer.len(), older.len());
    let (side, named) = if from_earlier <= from_latest {
        ("the earlier ones", older)
    } else {
        ("the latest run's", newer)
    };
    Some(format!(
        "**Mixed runs**: these figures come from {distinct} runs of the suite, {from_latest} \
         of {} from the latest and {from_earlier} from earlier ones, each measured under \
         whatever load the machine had then; {side}: {}. Run `cargo bench -p rx-benches` in \
         full for a report from one run.",
        runs.len(),
        first_few(named)
    ))
}

/// The first few of `names` in order, and how many more there are.
fn first_few(mut names: Vec<&str>) -> String {
    const SHOWN: usize = 5;
    names.sort_unstable();
    let mut out = names[..names.len().min(SHOWN)].join("; ");
    if names.len() > SHOWN {
        let _ = write!(out, "; and {} more", names.len() - SHOWN);
    }
    out
}

// ---------------------------------------------------------------- inputs

/// One case: its row of `cases.csv`, with RPP's figure from `rpp_same_machine.csv`.
struct Reference {
    number: u32,
    group: String,
    case: String,
    rpp_ns: Option<f64>,
    note: Option<String>,
}

/// The data lines of a CSV file, split, without comments and the header line.
fn csv_rows(path: &Path) -> io::Result<Vec<Vec<String>>> {
    Ok(fs::read_to_string(path)?
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(split_csv)
        .collect())
}

fn read_reference(cases: &Path, rpp: &Path) -> io::Result<Vec<Reference>> {
    let rpp: HashMap<String, f64> = csv_rows(rpp)?
        .into_iter()
        .filter_map(|fields| Some((fields.first()?.clone(), fields.get(1)?.parse().ok()?)))
        .collect();
    let mut rows = Vec::new();
    for fields in csv_rows(cases)? {
        let field = |i: usize| fields.get(i).map(String::as_str).unwrap_or("");
        let number = field(0).parse().map_err(|_| bad_row(&fields.join(",")))?;
        rows.push(Reference {
            number,
            group: field(1).to_owned(),
            case: field(2).to_owned(),
            rpp_ns: rpp.get(field(2)).copied(),
            note: Some(field(3).to_owned()).filter(|n| !n.is_empty()),
        });
    }
    Ok(rows)
}

fn bad_row(line: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("bad row in cases.csv: {line}"),
    )
}

/// Splits one CSV line: fields separated by commas, optionally in double quotes (`""` is a
/// quote inside them).
fn split_csv(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    fields.push(field);
    fields
}

#[derive(Deserialize)]
struct BenchmarkId {
    group_id: String,
    function_id: Option<String>,
    value_str: Option<String>,
}

#[derive(Deserialize)]
struct Estimates {
    median: Estimate,
}

#[derive(Deserialize)]
struct Estimate {
    point_estimate: f64,
}

/// The median time per op in ns, by (group, case, implementation), from every
/// `<criterion>/**/new/benchmark.json` and the `estimates.json` beside it.
fn read_criterion(dir: &Path) -> io::Result<HashMap<(String, String, String), f64>> {
    let mut out = HashMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry?.path();
            if !path.is_dir() {
                continue;
            }
            if path.file_name().is_some_and(|n| n == "new") {
                let (Ok(id), Ok(estimates)) = (
                    fs::read(path.join("benchmark.json")),
                    fs::read(path.join("estimates.json")),
                ) else {
                    continue;
                };
                let id: BenchmarkId = serde_json::from_slice(&id)?;
                let estimates: Estimates = serde_json::from_slice(&estimates)?;
                if let (Some(case), Some(implementation)) = (id.function_id, id.value_str) {
                    out.insert(
                        (id.group_id, case, implementation),
                        estimates.median.point_estimate,
                    );
                }
            } else {
                stack.push(path);
            }
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------- the suite's results

/// What the report shows of one implementation of one case.
#[derive(Clone, Debug, Default)]
struct Cell {
    median_ns: Option<f64>,
    status: Option<Status>,
    note: Option<String>,
    allocations: Option<f64>,
}

impl Cell {
    fn time(&self) -> String {
        match (self.median_ns, self.status) {
            (Some(ns), _) => format_ns(ns),
            (None, Some(Status::Missing)) => "missing".to_owned(),
            (None, Some(Status::NotApplicable)) => "n/a".to_owned(),
            (None, _) => "not run".to_owned(),
        }
    }

    fn allocations(&self) -> String {
        match (self.median_ns, self.allocations) {
            (Some(_), Some(a)) => format_count(a),
            _ => "".to_owned(),
        }
    }
}

struct Row<'a> {
    reference: &'a Reference,
    cells: Vec<Cell>,
}

impl Row<'_> {
    fn cell(&self, implementation: &str) -> &Cell {
        let i = IMPLEMENTATIONS
            .iter()
            .position(|&i| i == implementation)
            .expect("a known implementation");
        &self.cells[i]
    }

    /// The rxRust implementation rx is set against in this row: `Local`, or `Shared` in the
    /// thread-safe twins, which measure it in its own column instead.
    fn rxrust_peer(&self) -> &'static str {
        if self.cell("rxrust").median_ns.is_none() && self.cell("rxrust-shared").median_ns.is_some()
        {
            "rxrust-shared"
        } else {
            "rxrust"
        }
    }

    fn ratio(&self, a: &str, b: &str) -> Option<f64> {
        Some(self.cell(a).median_ns? / self.cell(b).median_ns?)
    }

    /// Whether `a` and `b` were both measured and are closer than the noise.
    fn tied(&self, a: &str, b: &str) -> bool {
        match (self.cell(a).median_ns, self.cell(b).median_ns) {
            (Some(a), Some(b)) => (a - b).abs() < NOISE_NS,
            _ => false,
        }
    }

    /// Whether `implementation` is within [`HAND_TARGET`] of the hand-written twin, or closer
    /// to it than the noise.
    fn near_hand(&self, implementation: &str) -> bool {
        self.ratio(implementation, "hand-written")
            .is_some_and(|x| x <= HAND_TARGET)
            || self.tied(implementation, "hand-written")
    }

    /// Whether the case runs to its end on the subscribing thread (all but the new_thread
    /// cases).
    fn synchronous(&self) -> bool {
        !self.reference.case.contains("new_thread")
    }
}

struct Suite<'a> {
    rows: Vec<Row<'a>>,
}

impl<'a> Suite<'a> {
    fn new(
        reference: &'a [Reference],
        timings: &HashMap<(String, String, String), f64>,
        records: &HashMap<(String, String, String), Record>,
    ) -> Self {
        let rows = reference
            .iter()
            .map(|reference| {
                let cells = IMPLEMENTATIONS
                    .iter()
                    .map(|&implementation| {
                        let key = (
                            reference.group.clone(),
                            reference.case.clone(),
                            implementation.to_owned(),
                        );
                        let record = records.get(&key);
                        let status = record.map(|r| r.status);
                        Cell {
                            // A timing left by an earlier version of the suite does not count
                            // for an implementation now declared missing or not applicable.
                            median_ns: timings
                                .get(&key)
                                .copied()
                                .filter(|_| status.is_none_or(|s| s == Status::Measured)),
                            status,
                            note: record.and_then(|r| r.note.clone()),
                            allocations: record.and_then(|r| r.allocations_per_iter),
                        }
                    })
                    .collect();
                Row { reference, cells }
            })
            .collect();
        Suite { rows }
    }

    fn groups(&self) -> Vec<&str> {
        let mut groups: Vec<&str> = Vec::new();
        for row in &self.rows {
            if !groups.contains(&row.reference.group.as_str()) {
                groups.push(&row.reference.group);
            }
        }
        groups
    }

    fn markdown(&self, memory: &[MemoryRecord]) -> String {
        let mut md = String::new();
        let _ = writeln!(
            md,
            "# rx benchmarks: RPP's suite beside rxRust, futures and hand-written Rust"
        );
        let _ = writeln!(md);
        let _ = writeln!(
            md,
            "Generated by `cargo run -p rx-benches --bin report` from the results of \
             `cargo bench -p rx-benches`; do not edit by hand. {}",
            machine()
        );
        let _ = writeln!(md);
        let _ = writeln!(
            md,
            "Times are criterion's median time per op, in ns (warm-up {} ms, measurement \
             {} ms, {} samples per implementation). One op is RPP's: build the pipeline, \
             subscribe, run it to its end and tear it down, with `std::hint::black_box` on the \
             inputs and on every value the observer receives (the subject cases keep their \
             setup outside the op). Allocations per op come from a counting global allocator, \
             over {} ops (50 for the new_thread cases) outside criterion's timing. The \
             hand-written column is plain Rust doing the same work: the floor. rxRust is \
             1.0.0-rc.6 written as its docs write it (`Local`); futures streams are polled with \
             a no-op waker. **missing**: rx has no such operator yet. **n/a**: the library has \
             no such operator or scheduler, or no natural form for the case (the reason is in \
             the notes). Ratios below 1 favour rx.",
            rx_benches::WARM_UP_MS,
            rx_benches::MEASUREMENT_MS,
            rx_benches::SAMPLES,
            rx_benches::ALLOCATION_ITERS,
        );
        let _ = writeln!(md);
        let _ = writeln!(
            md,
            "The **RPP** column is ReactivePlusPlus v2 (commit 0928df12, built from source \
             with its CI flags) run with its own nanobench suite on a machine of the kind \
             this suite runs on (2 shared cores), three times: the median of the three, kept \
             in [`rpp_same_machine.csv`](rpp_same_machine.csv). RPP is C++ and is not built \
             by this suite, so that column is **not from this run**: compare it as a ratio \
             of the same order, not to the last digit. Cases 44 and 45 are not in that \
             version of RPP: the cases here are reconstructions from their names. \
             **rxrust Shared** is rxRust's thread-safe context, measured where rx's \
             thread-safe state meets rxRust's single-threaded `Local` (the thread-safe \
             twins of the subject cases, whose `Local` figure is the twin's): in those rows \
             rx/rxrust and the allocations are set against it. The same figures are in \
             [`results.csv`](results.csv)."
        );
        let _ = writeln!(md);
        let _ = writeln!(
            md,
            "How to reproduce, what is measured and how fairly: [README.md](README.md). Chart \
             of rx/rxRust per case: [chart.svg](chart.svg)."
        );
        let _ = writeln!(md);
        self.targets(&mut md);
        for group in self.groups() {
            self.table(&mut md, group);
        }
        memory_table(&mut md, memory);
        md
    }

    fn table(&self, md: &mut String, group: &str) {
        let _ = writeln!(md, "## {group}");
        let _ = writeln!(md);
        let _ = writeln!(
            md,
            "| case | hand-written | rx | rxrust | rxrust Shared | futures | rx/hand | rx/rxrust | allocs rx | allocs rxrust | RPP |"
        );
        let _ = writeln!(md, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
        let mut notes: Vec<String> = Vec::new();
        for row in self.rows.iter().filter(|r| r.reference.group == group) {
            let r = row.reference;
            let mut marks = String::new();
            for (implementation, cell) in IMPLEMENTATIONS.iter().zip(&row.cells) {
                if let Some(note) = &cell.note {
                    // One line per note, naming every implementation it applies to.
                    let suffix = format!(": {note}");
                    let prefix = format!("{}. ", r.number);
                    match notes
                        .iter_mut()
                        .find(|n| n.starts_with(&prefix) && n.ends_with(&suffix))
                    {
                        Some(line) => {
                            let names = line.len() - suffix.len();
                            line.insert_str(names, &format!(", {implementation}"));
                        }
                        None => notes.push(format!("{prefix}{implementation}{suffix}")),
                    }
                    marks = " ¹".to_owned();
                }
            }
            if let Some(note) = &r.note {
                notes.push(format!("{}. {note}", r.number));
                marks = " ¹".to_owned();
            }
            let shared = row.cell("rxrust-shared");
            let _ = writeln!(
                md,
                "| {}. `{}`{} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                r.number,
                r.case,
                marks,
                row.cell("hand-written").time(),
                row.cell("rx").time(),
                row.cell("rxrust").time(),
                if shared.median_ns.is_some() {
                    shared.time()
                } else {
                    String::new()
                },
                row.cell("futures").time(),
                format_ratio(row.ratio("rx", "hand-written")),
                format_ratio(row.ratio("rx", row.rxrust_peer())),
                row.cell("rx").allocations(),
                row.cell(row.rxrust_peer()).allocations(),
                r.rpp_ns.map(format_ns).unwrap_or_else(|| "–".to_owned()),
            );
        }
        let _ = writeln!(md);
        if !notes.is_empty() {
            let _ = writeln!(md, "¹ Notes:");
            let _ = writeln!(md);
            for note in notes {
                let _ = writeln!(md, "- {note}");
            }
            let _ = writeln!(md);
        }
    }

    fn targets(&self, md: &mut String) {
        let _ = writeln!(md, "## Targets");
        let _ = writeln!(md);

        // Every synchronous case within 1.25x of its hand-written twin, with zero allocations.
        let sync: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| r.synchronous() && r.cell("rx").median_ns.is_some())
            .collect();
        let comparable: Vec<&Row> = sync
            .iter()
            .copied()
            .filter(|r| r.cell("hand-written").median_ns.is_some())
            .collect();
        let beyond = |r: &&Row| {
            r.ratio("rx", "hand-written")
                .is_some_and(|x| x > HAND_TARGET)
        };
        let noise: Vec<&Row> = comparable
            .iter()
            .copied()
            .filter(|r| beyond(r) && r.tied("rx", "hand-written"))
            .collect();
        let slow: Vec<&Row> = comparable
            .iter()
            .copied()
            .filter(|r| beyond(r) && !r.tied("rx", "hand-written"))
            .collect();
        let allocating: Vec<&Row> = sync
            .iter()
            .copied()
            .filter(|r| r.cell("rx").allocations.is_some_and(|a| a > 0.0))
            .collect();
        let missing: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| r.cell("rx").status == Some(Status::Missing))
            .collect();
        let _ = writeln!(
            md,
            "- **Synchronous cases within {HAND_TARGET}× of hand-written**: {} of {} met{}{}.",
            comparable.len() - slow.len(),
            comparable.len(),
            if noise.is_empty() {
                String::new()
            } else {
                format!(
                    " ({} of them by being within {NOISE_NS} ns of it, the noise of this \
                     floor, rather than within {HAND_TARGET}×: {})",
                    noise.len(),
                    noise
                        .iter()
                        .map(|r| format!(
                            "{} ({} against {} ns)",
                            r.reference.number,
                            r.cell("rx").time(),
                            r.cell("hand-written").time()
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            },
            list(&slow, |r| format!(
                "{} ({})",
                r.reference.number,
                format_ratio(r.ratio("rx", "hand-written"))
            ))
        );
        let _ = writeln!(
            md,
            "- **Synchronous cases with zero allocations**: {} of {} met{}.",
            sync.len() - allocating.len(),
            sync.len(),
            list(&allocating, |r| format!(
                "{} ({} per op)",
                r.reference.number,
                r.cell("rx").allocations()
            ))
        );

        // rx faster than rxRust in every case both can express.
        let both: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| r.ratio("rx", r.rxrust_peer()).is_some())
            .collect();
        // Where both compile to the hand-written code (a pipeline folded away), neither can be
        // faster: what separates them is noise.
        let at_floor = |r: &Row| {
            r.tied("rx", r.rxrust_peer())
                || r.cell("hand-written")
                    .median_ns
                    .is_some_and(|ns| ns < FLOOR_NS)
                    && ["rx", r.rxrust_peer()].iter().all(|i| r.near_hand(i))
        };
        let tied: Vec<&Row> = both.iter().copied().filter(|r| at_floor(r)).collect();
        let slower: Vec<&Row> = both
            .iter()
            .copied()
            .filter(|r| !at_floor(r) && r.ratio("rx", r.rxrust_peer()).is_some_and(|x| x >= 1.0))
            .collect();
        let _ = writeln!(
            md,
            "- **rx faster than rxRust**: {} of {} cases both express; {} tied (within \
             {NOISE_NS} ns of each other, or both within {HAND_TARGET}× or {NOISE_NS} ns of a \
             hand-written twin under {FLOOR_NS} ns, a pipeline folded away: {}){}.",
            both.len() - slower.len() - tied.len(),
            both.len(),
            tied.len(),
            tied.iter()
                .map(|r| r.reference.number.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            list(&slower, |r| format!(
                "{} ({})",
                r.reference.number,
                format_ratio(r.ratio("rx", r.rxrust_peer()))
            ))
        );

        // At or under the best peer: RPP (same kind of machine, not this run) or rxRust
        // (`Local`, or `Shared` in the thread-safe twins: `Row::rxrust_peer`).
        let peers: Vec<(&Row, f64, f64, &str)> = self
            .rows
            .iter()
            .filter_map(|r| {
                let rx = r.cell("rx").median_ns?;
                let rpp = r.reference.rpp_ns.map(|ns| (ns, "RPP"));
                let rxrust = r.cell(r.rxrust_peer()).median_ns.map(|ns| {
                    let name = if r.rxrust_peer() == "rxrust" {
                        "rxRust"
                    } else {
                        "rxRust Shared"
                    };
                    (ns, name)
                });
                let (best, name) = [rpp, rxrust]
                    .into_iter()
                    .flatten()
                    .min_by(|a, b| a.0.total_cmp(&b.0))?;
                Some((r, rx, best, name))
            })
            .collect();
        // RPP's figures come from another harness, whose floor is lower: where the
        // hand-written twin itself measures above the peer's figure, no implementation can
        // reach it in this run, and rx tying the twin is as close as this harness can tell.
        let at_harness_floor = |r: &Row, best: f64| {
            r.cell("hand-written")
                .median_ns
                .is_some_and(|hand| hand >= best && hand < FLOOR_NS)
                && r.near_hand("rx")
        };
        let (floor, above): (Vec<_>, Vec<_>) = peers
            .iter()
            .filter(|(_, rx, best, _)| rx - best >= PEER_TIE_NS)
            .partition(|(r, _, best, _)| at_harness_floor(r, *best));
        let _ = writeln!(
            md,
            "- **At or under the best peer** (RPP's figure or rxRust's, `Shared` in the \
             thread-safe twins; gaps under {PEER_TIE_NS} ns count as ties): {} of {}{}{}.",
            peers.len() - above.len() - floor.len(),
            peers.len(),
            if floor.is_empty() {
                String::new()
            } else {
                format!(
                    "; at this harness's floor, {} more: rx within {HAND_TARGET}× or \
                     {NOISE_NS} ns of a hand-written twin that itself measures above the \
                     peer's figure ({})",
                    floor.len(),
                    floor
                        .iter()
                        .map(|(r, _, _, _)| r.reference.number.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            },
            if above.is_empty() {
                String::new()
            } else {
                format!(
                    "; above it: {}",
                    above
                        .iter()
                        .map(|(r, rx, best, name)| format!(
                            "{} ({} against {name} {})",
                            r.reference.number,
                            format_ns(*rx),
                            format_ns(*best)
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        );

        // The immediate scheduler within 2x of hand-written.
        if let Some(row) = self.find("immediate scheduler create worker + schedule") {
            let ratio = row.ratio("rx", "hand-written");
            let _ = writeln!(
                md,
                "- **`immediate scheduler create worker + schedule` within {SCHEDULER_TARGET}× of \
                 hand-written**: {} ({}).",
                verdict(ratio.map(|x| x <= SCHEDULER_TARGET)),
                format_ratio(ratio)
            );
        }

        // 1000 items on a new thread cost about what starting the thread costs.
        let one = self.find("from array of 1 - create + as_blocking + subscribe + new_thread");
        let thousand =
            self.find("from array of 1000 - create + as_blocking + subscribe + new_thread");
        if let (Some(one), Some(thousand)) = (one, thousand)
            && let (Some(t1), Some(t1000)) =
                (one.cell("rx").median_ns, thousand.cell("rx").median_ns)
        {
            let per_item = (t1000 - t1) / 999.0;
            let _ = writeln!(
                md,
                "- **`from array of 1000 … new_thread` dominated by starting the thread**: {} \
                 — 1000 items take {} against {} for 1 item, so the 999 more items cost {} \
                 ({:.1} ns each) against {} for starting the thread, the subscription and the \
                 first item (met when the items cost less than the start).",
                verdict(Some(t1000 - t1 < t1)),
                format_ns(t1000),
                format_ns(t1),
                format_ns(t1000 - t1),
                per_item,
                format_ns(t1),
            );
        }
        let _ = writeln!(
            md,
            "- **Missing in rx**: {}.",
            if missing.is_empty() {
                "none".to_owned()
            } else {
                missing
                    .iter()
                    .map(|r| format!("{}. `{}`", r.reference.number, r.reference.case))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        );
        let _ = writeln!(md);
    }

    /// `results.csv`: ns per op and allocations per op by case, under RPP's names; empty
    /// where an implementation was not measured. `allocs_rxrust` is the allocations of the
    /// row's rxRust peer (`Shared`'s in the thread-safe twins).
    fn csv(&self) -> String {
        let mut out =
            String::from("case,hand,rx,rxrust,rxrust_shared,rpp,allocs_rx,allocs_rxrust\n");
        let ns = |v: Option<f64>| v.map(|v| format!("{v:.3}")).unwrap_or_default();
        for row in &self.rows {
            let time = |i: &str| ns(row.cell(i).median_ns);
            let allocs = |i: &str| {
                let cell = row.cell(i);
                cell.median_ns
                    .and(cell.allocations)
                    .map(format_count)
                    .unwrap_or_default()
            };
            let _ = writeln!(
                out,
                "\"{}\",{},{},{},{},{},{},{}",
                row.reference.case.replace('"', "\"\""),
                time("hand-written"),
                time("rx"),
                time("rxrust"),
                time("rxrust-shared"),
                ns(row.reference.rpp_ns),
                allocs("rx"),
                allocs(row.rxrust_peer()),
            );
        }
        out
    }

    fn find(&self, case: &str) -> Option<&Row<'a>> {
        self.rows.iter().find(|r| r.reference.case == case)
    }

    /// A horizontal bar per case both rx and rxRust ran: rx/rxRust on a log scale, 1 in the
    /// middle, bars to the left where rx is faster.
    fn chart(&self) -> String {
        let rows: Vec<(String, f64)> = self
            .rows
            .iter()
            .filter_map(|r| {
                let ratio = r.ratio("rx", r.rxrust_peer())?;
                let mut label = format!("{}. {}", r.reference.number, r.reference.case);
                if label.chars().count() > 72 {
                    label = label.chars().take(71).collect::<String>() + "…";
                }
                Some((label, ratio))
            })
            .collect();
        let (label_width, plot_width, row_height, top, bottom) = (470.0, 420.0, 20.0, 50.0, 40.0);
        let width = label_width + plot_width + 90.0;
        let height = top + bottom + row_height * rows.len() as f64;
        // log2 scale from 1/128 to 16.
        let (lo, hi) = (-7.0_f64, 4.0_f64);
        let x = |ratio: f64| {
            let l = ratio.log2().clamp(lo, hi);
            label_width + (l - lo) / (hi - lo) * plot_width
        };
        let mut svg = String::new();
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
        );
        let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="20" font-size="14" font-weight="bold">rx time / rxRust time per case (log scale; left of 1 = rx faster)</text>"#,
            10
        );
        for tick in -7..=4 {
            let ratio = 2f64.powi(tick);
            let tx = x(ratio);
            let label = if tick < 0 {
                format!("1/{}", 1 << -tick)
            } else {
                format!("{}", 1 << tick)
            };
            let stroke = if tick == 0 { "#000" } else { "#ddd" };
            let _ = writeln!(
                svg,
                r#"<line x1="{tx:.1}" y1="{}" x2="{tx:.1}" y2="{}" stroke="{stroke}"/>"#,
                top - 8.0,
                height - bottom + 4.0
            );
            let _ = writeln!(
                svg,
                r#"<text x="{tx:.1}" y="{}" text-anchor="middle">{label}</text>"#,
                height - bottom + 18.0
            );
        }
        for (i, (label, ratio)) in rows.iter().enumerate() {
            let y = top + i as f64 * row_height;
            let (x0, x1) = (x(1.0), x(*ratio));
            let (left, w) = if x1 < x0 {
                (x1, x0 - x1)
            } else {
                (x0, x1 - x0)
            };
            let color = if *ratio < 1.0 { "#2a9d4a" } else { "#d1495b" };
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                label_width - 8.0,
                y + 14.0,
                escape(label)
            );
            let _ = writeln!(
                svg,
                r#"<rect x="{left:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{color}"/>"#,
                y + 4.0,
                w.max(1.0),
                row_height - 8.0
            );
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
                label_width + plot_width + 8.0,
                y + 14.0,
                format_ratio(Some(*ratio))
            );
        }
        let _ = writeln!(svg, "</svg>");
        svg
    }
}

fn memory_table(md: &mut String, memory: &[MemoryRecord]) {
    let _ = writeln!(md, "## Memory held by live subscriptions");
    let _ = writeln!(md);
    if memory.is_empty() {
        let _ = writeln!(md, "Not measured yet: run the whole suite.");
        return;
    }
    let subscriptions = memory[0].subscriptions;
    let _ = writeln!(
        md,
        "{subscriptions} subscriptions alive at once, each `map | filter | subscribe`; the heap \
         they hold (the allocator's live-bytes delta) divided by {subscriptions}. The handle \
         `subscribe` returns is kept in a vector allocated beforehand: its size is the last \
         columns, held by the caller on top."
    );
    let _ = writeln!(md);
    let _ = writeln!(
        md,
        "| scenario | rx bytes/sub | rxrust bytes/sub | rx allocs/sub | rxrust allocs/sub | rx handle | rxrust handle |"
    );
    let _ = writeln!(md, "|---|--:|--:|--:|--:|--:|--:|");
    let mut scenarios: Vec<&str> = Vec::new();
    for record in memory {
        if !scenarios.contains(&record.scenario.as_str()) {
            scenarios.push(&record.scenario);
        }
    }
    let mut notes = Vec::new();
    for scenario in scenarios {
        let get = |library: &str| {
            memory
                .iter()
                .find(|r| r.scenario == scenario && r.library == library)
        };
        let (rx, rxrust) = (get("rx"), get("rxrust"));
        let bytes = |r: Option<&MemoryRecord>| {
            r.map(|r| format!("{:.0}", r.heap_bytes_per_subscription))
                .unwrap_or_default()
        };
        let allocs = |r: Option<&MemoryRecord>| {
            r.map(|r| format_count(r.allocations_per_subscription))
                .unwrap_or_default()
        };
        let handle = |r: Option<&MemoryRecord>| {
            r.map(|r| format!("{} B", r.handle_bytes))
                .unwrap_or_default()
        };
        for r in [rx, rxrust].into_iter().flatten() {
            if let Some(note) = &r.note {
                notes.push(format!("{scenario}, {}: {note}", r.library));
            }
        }
        for r in memory
            .iter()
            .filter(|r| r.scenario == scenario && r.library != "rx" && r.library != "rxrust")
        {
            notes.push(format!(
                "{scenario}, {}: {:.0} bytes and {} allocations per subscription, handle {} B{}",
                r.library,
                r.heap_bytes_per_subscription,
                format_count(r.allocations_per_subscription),
                r.handle_bytes,
                r.note
                    .as_deref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            ));
        }
        let _ = writeln!(
            md,
            "| {scenario} | {} | {} | {} | {} | {} | {} |",
            bytes(rx),
            bytes(rxrust),
            allocs(rx),
            allocs(rxrust),
            handle(rx),
            handle(rxrust)
        );
    }
    let _ = writeln!(md);
    for note in notes {
        let _ = writeln!(md, "- {note}");
    }
}

// ---------------------------------------------------------------- timers at scale

/// One implementation's row of `timers.json`, which `benches/timers.rs` writes.
#[derive(Deserialize)]
struct TimerRecord {
    implementation: String,
    timers: usize,
    schedule_ns: f64,
    cancel_ns: f64,
    /// Absent from records written before it was measured.
    #[serde(default)]
    first_schedule_ns: Option<f64>,
    allocations_per_schedule: f64,
    held_after_schedule_bytes: i64,
    held_after_cancel_bytes: i64,
    held_after_drop_bytes: i64,
    /// Absent from records written before it was measured.
    #[serde(default)]
    held_after_idle_bytes: Option<i64>,
    note: Option<String>,
    /// The run that measured it; absent (0) from records older than runs were recorded.
    #[serde(default)]
    run: u64,
}

/// The timer records of the last run that measured them, if any.
fn read_timer_records() -> io::Result<Vec<TimerRecord>> {
    match fs::read(rx_benches::records_dir()?.join("timers.json")) {
        Ok(bytes) => Ok(serde_json::from_slice(&bytes)?),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

fn timer_table(md: &mut String, timers: &[TimerRecord]) {
    let _ = writeln!(md);
    let _ = writeln!(md, "## Timers at scale");
    let _ = writeln!(md);
    let Some(first) = timers.first() else {
        let _ = writeln!(
            md,
            "Not measured yet: run `cargo bench -p rx-benches -- timers`."
        );
        return;
    };
    let _ = writeln!(
        md,
        "{} timers, each due an hour later and capturing 8 bytes, scheduled on one worker \
         (one queue) and then cancelled in the order they were scheduled; beside them \
         tokio-util's `DelayQueue<u64>` inserting and removing as many keys. Time per \
         schedule and per cancel: the loop's wall-clock time divided by the count, with the \
         counting allocator off; each implementation is measured in a process of its own, \
         three times in turn with the others, three rounds each, and the figure is the \
         median of the six rounds after each process's first. Beside it the first round of \
         a process (the median of the three), on a fresh worker or queue, where every \
         implementation touches memory new to its process (the later rounds reuse what the \
         earlier ones kept: a `DelayQueue` keeps its slab for good, rx keeps what its \
         cancelled timers used until its thread finds it unused for a \
         quarter of a second). Heap held (the allocator's live-bytes delta since just \
         before the first schedule, on a fresh worker or queue): after scheduling, after \
         cancelling every handle while the handles are still held, after dropping them \
         too, and after one second more with nothing scheduled.",
        thousands(first.timers as u64)
    );
    let _ = writeln!(md);
    let _ = writeln!(
        md,
        "| implementation | schedule ns | schedule ns, first round | cancel ns | allocs/timer | held after schedule | held after cancel | held after drop | held after 1 s idle |"
    );
    let _ = writeln!(md, "|---|--:|--:|--:|--:|--:|--:|--:|--:|");
    let mib = |bytes: i64| {
        if bytes.unsigned_abs() < 1 << 20 {
            format!("{bytes} B")
        } else {
            format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
        }
    };
    for r in timers {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.implementation,
            format_ns(r.schedule_ns),
            r.first_schedule_ns.map_or_else(String::new, format_ns),
            format_ns(r.cancel_ns),
            format_count(r.allocations_per_schedule),
            mib(r.held_after_schedule_bytes),
            mib(r.held_after_cancel_bytes),
            mib(r.held_after_drop_bytes),
            r.held_after_idle_bytes.map_or_else(String::new, mib),
        );
    }
    let _ = writeln!(md);
    for r in timers {
        if let Some(note) = &r.note {
            let _ = writeln!(md, "- {}: {note}", r.implementation);
        }
    }
}

// ---------------------------------------------------------------- formatting

fn format_ns(ns: f64) -> String {
    if ns < 10.0 {
        format!("{ns:.2}")
    } else if ns < 100.0 {
        format!("{ns:.1}")
    } else {
        thousands(ns.round() as u64)
    }
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn format_ratio(ratio: Option<f64>) -> String {
    match ratio {
        Some(r) if r < 0.1 => format!("{r:.3}×"),
        Some(r) => format!("{r:.2}×"),
        None => "".to_owned(),
    }
}

fn format_count(n: f64) -> String {
    if n == n.round() {
        format!("{n:.0}")
    } else {
        format!("{n:.2}")
    }
}

fn verdict(met: Option<bool>) -> &'static str {
    match met {
        Some(true) => "met",
        Some(false) => "**missed**",
        None => "not measured",
    }
}

fn list(rows: &[&Row], describe: impl Fn(&Row) -> String) -> String {
    if rows.is_empty() {
        String::new()
    } else {
        format!(
            "; missed by {}",
            rows.iter()
                .map(|r| describe(r))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The machine and toolchain the results come from, as far as they can be read.
fn machine() -> String {
    let info = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    // The first processor's value of `field`.
    let field = |name: &str| {
        info.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_owned())
        })
    };
    let mut cpu = field("model name").unwrap_or_else(|| "an unknown CPU".to_owned());
    // A virtual machine's model name often hides the generation; family and model tell it,
    // and figures from two generations are not comparable to the last digit.
    if let (Some(family), Some(model)) = (field("cpu family"), field("model")) {
        cpu = format!("{cpu} (family {family}, model {model})");
    }
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let rustc =
        std::process::Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
            .arg("--version")
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|v| v.trim().to_owned())
            .unwrap_or_else(|| "an unknown rustc".to_owned());
    format!("Machine: {cpu}, {cores} cores; {rustc}.")
}

// ---------------------------------------------------------------- scaling

/// The group criterion keeps the scaling results under.
const SCALING_GROUP: &str = "Scaling";

/// The columns of the scaling tables, in order; a label not listed comes after them.
const SCALING_LABELS: [&str; 6] = [
    "hand-written",
    "rx",
    "rx local",
    "rx inners alone",
    "rxrust",
    "rxrust Shared",
];

/// One implementation's points on one curve: N → (ns per unit, allocations per unit).
struct Series {
    label: String,
    note: Option<String>,
    points: std::collections::BTreeMap<usize, (f64, f64)>,
}

impl Series {
    /// The cost per unit at the largest N over that at the smallest: 1 for a flat curve.
    fn growth(&self) -> Option<f64> {
        let (_, first) = self.points.first_key_value()?;
        let (_, last) = self.points.last_key_value()?;
        (self.points.len() > 1).then(|| last.0 / first.0)
    }
}

struct ScalingCurve {
    name: String,
    unit: String,
    order: usize,
    series: Vec<Series>,
}

impl ScalingCurve {
    fn ns(&self) -> Vec<usize> {
        let mut ns: Vec<usize> = self
            .series
            .iter()
            .flat_map(|s| s.points.keys().copied())
            .collect();
        ns.sort_unstable();
        ns.dedup();
        ns
    }
}

fn read_scaling_points() -> io::Result<Vec<ScalingPoint>> {
    let dir = rx_benches::records_dir()?.join("scaling");
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut points = Vec::new();
    for entry in entries {
        let path = entry?.path();
        if path.extension().is_some_and(|ext| ext == "json") {
            points.push(serde_json::from_slice(&fs::read(&path)?)?);
        }
    }
    Ok(points)
}

fn read_scaling_memory() -> io::Result<Vec<MemoryRecord>> {
    match fs::read(rx_benches::records_dir()?.join("scaling-memory.json")) {
        Ok(bytes) => Ok(serde_json::from_slice(&bytes)?),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

/// The curves, from the points the bench recorded and criterion's medians; a point without
/// a timing (never run) is left out.
fn scaling_curves(
    points: &[ScalingPoint],
    timings: &HashMap<(String, String, String), f64>,
) -> Vec<ScalingCurve> {
    let mut curves: Vec<ScalingCurve> = Vec::new();
    for point in points {
        let key = (
            SCALING_GROUP.to_owned(),
            point.case.clone(),
            point.implementation.clone(),
        );
        let Some(ns) = timings.get(&key) else {
            continue;
        };
        let curve = match curves.iter().position(|c| c.name == point.curve) {
            Some(i) => &mut curves[i],
            None => {
                curves.push(ScalingCurve {
                    name: point.curve.clone(),
                    unit: point.unit.clone(),
                    order: point.order,
                    series: Vec::new(),
                });
                curves.last_mut().expect("just pushed")
            }
        };
        let series = match curve.series.iter().position(|s| s.label == point.label) {
            Some(i) => &mut curve.series[i],
            None => {
                curve.series.push(Series {
                    label: point.label.clone(),
                    note: point.note.clone(),
                    points: Default::default(),
                });
                curve.series.last_mut().expect("just pushed")
            }
        };
        series.points.insert(
            point.n,
            (ns / point.units_per_op, point.allocations_per_unit),
        );
    }
    curves.sort_by_key(|c| c.order);
    let rank = |label: &str| {
        SCALING_LABELS
            .iter()
            .position(|&l| l == label)
            .unwrap_or(SCALING_LABELS.len())
    };
    for curve in &mut curves {
        curve.series.sort_by_key(|s| rank(&s.label));
    }
    curves
}

/// Appends the Scaling section to `REPORT.md` and writes `scaling.svg`.
fn write_scaling(
    manifest: &Path,
    timings: &HashMap<(String, String, String), f64>,
) -> io::Result<()> {
    let curves = scaling_curves(&read_scaling_points()?, timings);
    let memory = read_scaling_memory()?;
    let report = manifest.join("REPORT.md");
    let mut md = fs::read_to_string(&report)?;
    scaling_markdown(&mut md, &curves, &memory);
    fs::write(&report, md)?;
    fs::write(manifest.join("scaling.svg"), scaling_chart(&curves))?;
    println!(
        "wrote the Scaling section and {}",
        manifest.join("scaling.svg").display()
    );
    Ok(())
}

fn scaling_markdown(md: &mut String, curves: &[ScalingCurve], memory: &[MemoryRecord]) {
    let _ = writeln!(md);
    let _ = writeln!(md, "## Scaling");
    let _ = writeln!(md);
    if curves.is_empty() && memory.is_empty() {
        let _ = writeln!(
            md,
            "Not measured yet: `cargo bench -p rx-benches -- Scaling`."
        );
        return;
    }
    let _ = writeln!(
        md,
        "The cost of one unit of work against N, in ns per unit: criterion's median time per \
         op (group `Scaling`: warm-up 100 ms, measurement 300 ms, 10 samples of equal \
         iteration counts) divided by the units one op does. A flat row is the goal; \
         **growth** is the cost per unit at the largest N over that at the smallest. \
         Allocations per unit come from the counting allocator, outside the timing. Chart \
         (log axes, rx beside rxRust): [scaling.svg](scaling.svg). What each curve measures: \
         `benches/scaling.rs`."
    );
    let _ = writeln!(md);
    for curve in curves {
        let _ = writeln!(md, "### {} (ns per {})", curve.name, curve.unit);
        let _ = writeln!(md);
        let mut header = String::from("| N |");
        let mut rule = String::from("|--:|");
        for series in &curve.series {
            let _ = write!(header, " {} |", series.label);
            rule.push_str("--:|");
        }
        for series in &curve.series {
            let _ = write!(header, " allocs {} |", series.label);
            rule.push_str("--:|");
        }
        let _ = writeln!(md, "{header}");
        let _ = writeln!(md, "{rule}");
        for n in curve.ns() {
            let mut line = format!("| {} |", thousands(n as u64));
            for series in &curve.series {
                let cell = series.points.get(&n).map(|p| format_ns(p.0));
                let _ = write!(line, " {} |", cell.unwrap_or_default());
            }
            for series in &curve.series {
                let cell = series.points.get(&n).map(|p| format_allocs(p.1));
                let _ = write!(line, " {} |", cell.unwrap_or_default());
            }
            let _ = writeln!(md, "{line}");
        }
        let mut line = String::from("| **growth** |");
        for series in &curve.series {
            let _ = write!(line, " {} |", format_ratio(series.growth()));
        }
        for _ in &curve.series {
            line.push_str(" |");
        }
        let _ = writeln!(md, "{line}");
        let _ = writeln!(md);
        for series in &curve.series {
            if let Some(note) = &series.note {
                let _ = writeln!(md, "- {}: {note}", series.label);
            }
        }
        let _ = writeln!(md);
    }
    scaling_memory_table(md, memory);
}

/// Allocations per unit: small fractions matter here (one allocation per 1,000 items).
fn format_allocs(n: f64) -> String {
    if n == n.round() {
        format!("{n:.0}")
    } else if n >= 0.01 {
        format!("{n:.2}")
    } else {
        format!("{n:.4}")
    }
}

fn scaling_memory_table(md: &mut String, memory: &[MemoryRecord]) {
    let _ = writeln!(md, "### Memory per live subscription");
    let _ = writeln!(md);
    if memory.is_empty() {
        let _ = writeln!(
            md,
            "Not measured yet: `cargo bench -p rx-benches -- Scaling`."
        );
        return;
    }
    let _ = writeln!(
        md,
        "{} subscriptions alive at once per scenario, each ending in a closure that captures \
         a counter; the heap they hold (the allocator's live-bytes delta) divided by {}, and \
         the allocations per subscription. The merge and zip scenarios subscribe to two \
         subjects each time, so their figures include two subject entries (the subject row \
         is one). Handles are kept in a vector allocated beforehand; their size is held by \
         the caller on top.",
        memory[0].subscriptions, memory[0].subscriptions
    );
    let _ = writeln!(md);
    let mut libraries: Vec<&str> = Vec::new();
    let mut scenarios: Vec<&str> = Vec::new();
    for record in memory {
        if !libraries.contains(&record.library.as_str()) {
            libraries.push(&record.library);
        }
        if !scenarios.contains(&record.scenario.as_str()) {
            scenarios.push(&record.scenario);
        }
    }
    let mut header = String::from("| scenario |");
    let mut rule = String::from("|---|");
    for library in &libraries {
        let _ = write!(header, " {library} bytes |");
        rule.push_str("--:|");
    }
    for library in &libraries {
        let _ = write!(header, " {library} allocs |");
        rule.push_str("--:|");
    }
    for library in &libraries {
        let _ = write!(header, " {library} handle |");
        rule.push_str("--:|");
    }
    let _ = writeln!(md, "{header}");
    let _ = writeln!(md, "{rule}");
    let mut notes = Vec::new();
    for scenario in &scenarios {
        let get = |library: &str| {
            memory
                .iter()
                .find(|r| r.scenario == *scenario && r.library == library)
        };
        let mut line = format!("| {scenario} |");
        for library in &libraries {
            let cell = get(library).map(|r| format!("{:.0}", r.heap_bytes_per_subscription));
            let _ = write!(line, " {} |", cell.unwrap_or_default());
        }
        for library in &libraries {
            let cell = get(library).map(|r| format_count(r.allocations_per_subscription));
            let _ = write!(line, " {} |", cell.unwrap_or_default());
        }
        for library in &libraries {
            let cell = get(library).map(|r| format!("{} B", r.handle_bytes));
            let _ = write!(line, " {} |", cell.unwrap_or_default());
            if let Some(note) = get(library).and_then(|r| r.note.as_ref()) {
                notes.push(format!("{scenario}, {library}: {note}"));
            }
        }
        let _ = writeln!(md, "{line}");
    }
    let _ = writeln!(md);
    for note in notes {
        let _ = writeln!(md, "- {note}");
    }
}

/// The colour of a series in the scaling chart.
fn scaling_colour(label: &str) -> &'static str {
    match label {
        "hand-written" => "#888888",
        "rx" => "#2a9d4a",
        "rx local" => "#1f6feb",
        "rx inners alone" => "#8fd19e",
        "rxrust" => "#d1495b",
        "rxrust Shared" => "#f4a259",
        _ => "#6a4c93",
    }
}

/// One panel per curve: ns per unit against N, both on log axes, a line per implementation.
fn scaling_chart(curves: &[ScalingCurve]) -> String {
    let (panel_w, panel_h, left, right, top, gap) = (560.0, 300.0, 70.0, 150.0, 50.0, 70.0);
    let width = left + panel_w + right;
    let height = top + (panel_h + gap) * curves.len().max(1) as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="10" y="22" font-size="14" font-weight="bold">Cost per unit against N (log axes; a flat line is the goal)</text>"#
    );
    for (i, curve) in curves.iter().enumerate() {
        let y0 = top + i as f64 * (panel_h + gap);
        scaling_panel(&mut svg, curve, left, y0, panel_w, panel_h);
    }
    let _ = writeln!(svg, "</svg>");
    svg
}

fn scaling_panel(svg: &mut String, curve: &ScalingCurve, x0: f64, y0: f64, w: f64, h: f64) {
    let ns = curve.ns();
    let values: Vec<f64> = curve
        .series
        .iter()
        .flat_map(|s| s.points.values().map(|p| p.0))
        .filter(|v| *v > 0.0)
        .collect();
    let _ = writeln!(
        svg,
        r#"<text x="{x0}" y="{:.1}" font-size="13" font-weight="bold">{} (ns per {})</text>"#,
        y0 + 14.0,
        escape(&curve.name),
        escape(&curve.unit)
    );
    let (Some(&n_min), Some(&n_max)) = (ns.first(), ns.last()) else {
        return;
    };
    if values.is_empty() {
        return;
    }
    let (plot_top, plot_h) = (y0 + 26.0, h - 46.0);
    let x_lo = (n_min as f64).log10().floor();
    let x_hi = (n_max as f64).log10().ceil().max(x_lo + 1.0);
    let v_min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let v_max = values.iter().copied().fold(0.0, f64::max);
    let y_lo = v_min.log10().floor();
    let y_hi = v_max.log10().ceil().max(y_lo + 1.0);
    let x = |n: f64| x0 + (n.log10() - x_lo) / (x_hi - x_lo) * w;
    let y = |v: f64| plot_top + plot_h - (v.log10() - y_lo) / (y_hi - y_lo) * plot_h;
    for decade in x_lo as i32..=x_hi as i32 {
        let tx = x(10f64.powi(decade));
        let _ = writeln!(
            svg,
            r##"<line x1="{tx:.1}" y1="{plot_top:.1}" x2="{tx:.1}" y2="{:.1}" stroke="#ddd"/>"##,
            plot_top + plot_h
        );
        let _ = writeln!(
            svg,
            r#"<text x="{tx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            plot_top + plot_h + 14.0,
            thousands(10u64.pow(decade as u32))
        );
    }
    for decade in y_lo as i32..=y_hi as i32 {
        let value = 10f64.powi(decade);
        let ty = y(value);
        let _ = writeln!(
            svg,
            r##"<line x1="{x0:.1}" y1="{ty:.1}" x2="{:.1}" y2="{ty:.1}" stroke="#ddd"/>"##,
            x0 + w
        );
        let label = if decade < 0 {
            format!("{value}")
        } else {
            thousands(value as u64)
        };
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{label}</text>"#,
            x0 - 6.0,
            ty + 4.0
        );
    }
    let _ = writeln!(
        svg,
        r##"<rect x="{x0:.1}" y="{plot_top:.1}" width="{w:.1}" height="{plot_h:.1}" fill="none" stroke="#000"/>"##
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">N</text>"#,
        x0 + w / 2.0,
        plot_top + plot_h + 30.0
    );
    for (i, series) in curve.series.iter().enumerate() {
        let colour = scaling_colour(&series.label);
        let dash = if series.label.starts_with("rxrust") || series.label == "hand-written" {
            r#" stroke-dasharray="5,3""#
        } else {
            ""
        };
        let path: Vec<String> = series
            .points
            .iter()
            .filter(|(_, p)| p.0 > 0.0)
            .map(|(&n, p)| format!("{:.1},{:.1}", x(n as f64), y(p.0)))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
            path.join(" ")
        );
        for point in &path {
            let (cx, cy) = point.split_once(',').expect("a point");
            let _ = writeln!(
                svg,
                r#"<circle cx="{cx}" cy="{cy}" r="3" fill="{colour}"/>"#
            );
        }
        let ly = plot_top + 12.0 + i as f64 * 16.0;
        let lx = x0 + w + 12.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="2"{dash}/>"#,
            lx + 20.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            lx + 26.0,
            ly + 4.0,
            escape(&series.label)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_from_one_run_says_nothing_of_runs_and_a_mixed_one_names_its_smaller_side() {
        let one = |run: u64, what: &str| (run, what.to_owned());
        assert_eq!(mixed_runs_note(&[]), None);
        assert_eq!(mixed_runs_note(&[one(7, "a (rx)"), one(7, "b (rx)")]), None);
        let note = mixed_runs_note(&[
            one(9, "c (rx)"),
            one(7, "b (rxrust)"),
            one(9, "d (rx)"),
            one(0, "a (rx)"),
        ])
        .expect("three runs");
        assert!(
            note.starts_with(
                "**Mixed runs**: these figures come from 3 runs of the suite, 2 of 4 from the \
                 latest and 2 from earlier ones,"
            ),
            "{note}"
        );
        assert!(
            note.contains("the earlier ones: a (rx); b (rxrust). Run"),
            "{note}"
        );
        // Where the latest run measured fewer, those are the ones named.
        let mut many: Vec<_> = (0..7).map(|i| one(1, &format!("case {i}"))).collect();
        many.push(one(2, "z (rx)"));
        let note = mixed_runs_note(&many).expect("two runs");
        assert!(
            note.contains("1 of 8 from the latest and 7 from earlier"),
            "{note}"
        );
        assert!(note.contains("the latest run's: z (rx). Run"), "{note}");
        let older: Vec<_> = (0..7)
            .map(|i| one(1, &format!("case {i}")))
            .chain((0..8).map(|i| one(2, &format!("new {i}"))))
            .collect();
        let note = mixed_runs_note(&older).expect("two runs");
        assert!(
            note.contains("the earlier ones: case 0; case 1; case 2; case 3; case 4; and 2 more."),
            "{note}"
        );
    }

    #[test]
    fn the_timer_section_has_a_row_per_implementation() {
        let json = r#"[{"implementation":"rx NewThread","timers":1000000,"schedule_ns":151.0,
            "cancel_ns":52.5,"allocations_per_schedule":1.0,
            "held_after_schedule_bytes":105943029,"held_after_cancel_bytes":64009669,
            "held_after_drop_bytes":13317,"note":"one worker"}]"#;
        let records: Vec<TimerRecord> = serde_json::from_str(json).unwrap();
        let mut md = String::new();
        timer_table(&mut md, &records);
        assert!(md.contains("1,000,000 timers"));
        assert!(
            md.contains("| rx NewThread | 151 |  | 52.5 | 1 | 101.0 MiB | 61.0 MiB | 13317 B |  |"),
            "{md}"
        );
        assert!(md.contains("- rx NewThread: one worker"));

        let mut empty = String::new();
        timer_table(&mut empty, &[]);
        assert!(empty.contains("Not measured yet"));
    }
}
