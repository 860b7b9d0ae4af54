// Serves the page on localhost, runs it in a headless Chromium of its own (a fresh profile,
// nothing else open), waits for the page to post its figures back, and writes them as a
// markdown table: to stdout, and to RESULTS.md with `--write`. No dependencies beyond node.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const write = process.argv.includes("--write");
const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
const rxjsVersion = JSON.parse(readFileSync(join(here, "node_modules/rxjs/package.json"))).version;

const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const files = {
  "/": "index.html",
  "/rxjs.js": "node_modules/rxjs/dist/bundles/rxjs.umd.min.js",
};

let done;
const posted = new Promise((resolve) => { done = resolve; });

const server = createServer((request, response) => {
  const path = new URL(request.url, "http://localhost").pathname;
  if (request.method === "POST" && path === "/results") {
    let body = "";
    request.on("data", (chunk) => { body += chunk; });
    request.on("end", () => { response.end(); done(JSON.parse(body)); });
    return;
  }
  const file = normalize(files[path] ?? path.slice(1));
  if (file.startsWith("..")) { response.writeHead(403).end(); return; }
  try {
    const content = readFileSync(join(here, file));
    response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
    response.end(content);
  } catch {
    response.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/${only ? `?only=${encodeURIComponent(only)}` : ""}`;

const profile = mkdtempSync(join(tmpdir(), "rx-browser-bench-"));
const browser = spawn(chromium, [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-dev-shm-usage", `--user-data-dir=${profile}`, url,
], { stdio: ["ignore", "ignore", "pipe"] });
let browserLog = "";
browser.stderr.on("data", (chunk) => { browserLog += chunk; });

const timeout = setTimeout(() => done({ error: "no results within 10 minutes" }), 600_000);
const report = await posted;
clearTimeout(timeout);
browser.kill();
server.close();
await new Promise((resolve) => browser.once("exit", resolve));
rmSync(profile, { recursive: true, force: true });

if (report.error) {
  console.error(`the page failed: ${report.error}\n--- chromium ---\n${browserLog}`);
  process.exit(1);
}

const fmt = (ns) => (ns >= 100 ? ns.toFixed(0) : ns >= 10 ? ns.toFixed(1) : ns.toFixed(2));
const browserVersion = report.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? report.userAgent;
const lines = [
  `Chromium ${browserVersion} (headless), RxJS ${rxjsVersion}, rx ${process.env.RX_COMMIT ?? ""}`.trim()
    + `, ${new Date().toISOString().slice(0, 10)}. Per side, the median of 41 samples`
    + ` (each as many calls as fill 20 ms), after 5 warm-up calls.`,
  "",
  "| case | op | rx ns/op | RxJS ns/op | RxJS / rx |",
  "|---|---|---:|---:|---:|",
  ...report.results.map((r) =>
    `| ${r.name} | ${r.op} | ${fmt(r.rx_ns)} | ${fmt(r.rxjs_ns)} | ${(r.rxjs_ns / r.rx_ns).toFixed(1)}x |`),
];
const table = lines.join("\n");
console.log(table);
writeFileSync(join(here, "last-run.json"), JSON.stringify({ rxjsVersion, ...report }, null, 2));
if (write) {
  const results = join(here, "RESULTS.md");
  const text = readFileSync(results, "utf8");
  const start = "<!-- results -->\n";
  const end = "\n<!-- /results -->";
  const a = text.indexOf(start), b = text.indexOf(end);
  if (a < 0 || b < 0) throw new Error("RESULTS.md has no <!-- results --> markers");
  writeFileSync(results, text.slice(0, a + start.length) + table + text.slice(b));
}
