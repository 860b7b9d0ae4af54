// The page's benchmark: each case in rx (the wasm module) and in RxJS 7 (its UMD bundle,
// `globalThis.rxjs`), run in turn, timed alike with `performance.now()` around one call.
// The results go back to the server that served the page (`drive.mjs`) as JSON.
import init, * as rx from "./pkg/rx_browser_bench.js";

const { range, Subject, of, timer, asyncScheduler } = globalThis.rxjs;
const { map, filter, scan, mergeMap, switchMap } = globalThis.rxjs.operators;

// Each case: `ops` operations per call (the unit of ns/op), and the same work in both.
const cases = [
  {
    name: "map/filter/scan, 1,000,000 values",
    op: "value",
    ops: 1_000_000,
    rx: () => rx.map_filter_scan(1_000_000),
    rxjs: () => {
      let last = 0;
      range(0, 1_000_000)
        .pipe(map((x) => x * 2), filter((x) => x % 3 === 0), scan((sum, x) => sum + x, 0))
        .subscribe((v) => { last = v; });
      return last;
    },
  },
  {
    name: "subject, 100 subscribers, 10,000 values",
    op: "delivery",
    ops: 100 * 10_000,
    rx: () => rx.subject_fan_out(100, 10_000),
    rxjs: () => {
      const subject = new Subject();
      let sum = 0;
      const subscriptions = [];
      for (let i = 0; i < 100; i++) subscriptions.push(subject.subscribe((v) => { sum += v; }));
      for (let v = 0; v < 10_000; v++) subject.next(v);
      for (const s of subscriptions) s.unsubscribe();
      return sum;
    },
  },
  {
    name: "flat_map / mergeMap to 2-value inners, 100,000 values",
    op: "inner",
    ops: 100_000,
    rx: () => rx.flat_map_churn(100_000),
    rxjs: () => {
      let sum = 0;
      range(0, 100_000).pipe(mergeMap((x) => of(x, x + 1))).subscribe((v) => { sum += v; });
      return sum;
    },
  },
  {
    name: "switch_map / switchMap to a live subject, 10,000 switches",
    op: "switch",
    ops: 10_000,
    rx: () => rx.switch_map_churn(10_000),
    rxjs: () => {
      const outer = new Subject();
      const inner = new Subject();
      let sum = 0;
      const subscription = outer
        .pipe(switchMap((x) => inner.pipe(map((v) => v + x))))
        .subscribe((v) => { sum += v; });
      for (let x = 0; x < 10_000; x++) {
        outer.next(x);
        inner.next(1);
      }
      subscription.unsubscribe();
      return sum;
    },
  },
  {
    name: "10,000 `timer(1 s)` subscribed, then disposed",
    op: "timer",
    ops: 10_000,
    rx: () => rx.timers_subscribe_dispose(10_000),
    rxjs: () => {
      let fired = 0;
      const subscriptions = [];
      for (let i = 0; i < 10_000; i++) subscriptions.push(timer(1000).subscribe(() => { fired++; }));
      for (const s of subscriptions) s.unsubscribe();
      return fired;
    },
  },
  {
    name: "10,000 tasks scheduled in 1 s on the setTimeout scheduler, then cancelled",
    op: "task",
    ops: 10_000,
    rx: () => rx.timers_schedule_cancel(10_000),
    rxjs: () => {
      let ran = 0;
      const subscriptions = [];
      for (let i = 0; i < 10_000; i++) {
        subscriptions.push(asyncScheduler.schedule(() => { ran++; }, 1000));
      }
      for (const s of subscriptions) s.unsubscribe();
      return ran;
    },
  },
];

const WARMUP = 5;
const SAMPLES = 41;
// A sample repeats a call until this many ms have passed: far above the clock's resolution
// (0.1 ms in a page that is not cross-origin isolated), and short, so that the two sides'
// samples interleave finely and a busy spell of the machine falls on both alike.
const SAMPLE_MS = 20;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// Lets the page breathe between calls: timers' callbacks (none should be left) and GC.
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

// ms per call of `f`, over as many calls as fill `SAMPLE_MS`.
function time(f) {
  const start = performance.now();
  let calls = 0;
  let elapsed;
  do {
    f();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < SAMPLE_MS);
  return elapsed / calls;
}

async function main() {
  await init();
  const only = new URLSearchParams(location.search).get("only");
  const results = [];
  for (const c of cases) {
    if (only && !c.name.includes(only)) continue;
    const [rxCheck, rxjsCheck] = [c.rx(), c.rxjs()];
    if (rxCheck !== rxjsCheck) {
      throw new Error(`${c.name}: rx returned ${rxCheck}, RxJS ${rxjsCheck}`);
    }
    for (let i = 0; i < WARMUP; i++) { c.rx(); c.rxjs(); await pause(); }
    const samples = { rx: [], rxjs: [] };
    for (let i = 0; i < SAMPLES; i++) {
      // Alternating, so that a slow spell of the machine falls on both alike.
      for (const side of i % 2 ? ["rxjs", "rx"] : ["rx", "rxjs"]) {
        samples[side].push(time(c[side]));
        await pause();
      }
    }
    results.push({
      name: c.name,
      op: c.op,
      ops: c.ops,
      checksum: rxCheck,
      rx_ns: (median(samples.rx) * 1e6) / c.ops,
      rxjs_ns: (median(samples.rxjs) * 1e6) / c.ops,
      rx_ms: samples.rx,
      rxjs_ms: samples.rxjs,
    });
    document.body.append(`${c.name}: done\n`);
  }
  return results;
}

main().then(
  (results) => fetch("/results", {
    method: "POST",
    body: JSON.stringify({ userAgent: navigator.userAgent, rxjs: globalThis.rxjs.config ? "7" : "?", results }),
  }),
  (error) => fetch("/results", { method: "POST", body: JSON.stringify({ error: String(error.stack || error) }) }),
);
