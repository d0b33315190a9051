"""The rules engine on the phone (docs/scorer-internals.md, "The local engine"), in headless Chromium.

The app runs as in production (gunicorn, DEBUG off, collectstatic's compressed files served by
whitenoise, the engine bundle built), and a page of its origin starts the scorer's engine the way
the scorer does (static/scoring/js/local-engine.js). Printed:

- bytes downloaded by a first visit's engine start (empty cache; what went over the wire, gzip
  where whitenoise has it), and per file;
- cold start of the engine with the files in the browser's cache (median and worst of 5 starts);
- a tap on the local engine: the time from applying an event to having the next question and the
  event lines (what the scorer waits for between two taps), over simulated matches;
- the size of the worker's WebAssembly memory after a match;
- the two timings again with the CPU throttled 4x (Chrome DevTools' CPU throttling rate, set on
  the page: whether Chromium applies it to the page's dedicated worker too is not documented,
  and the figures suggest it does not, so they are printed as measured, not as a throttled worker).

Targets (a club waits for the start once a match, and for a tap between every two): cold start
< 4 s (throttled < 10 s), tap p99 < 50 ms (throttled < 150 ms), worker memory < 150 MB.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import bench_web as web  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
MATCHES = 3
STARTS = 5

START = """async (cfg) => {
  const m = await import(cfg.module);
  const t0 = performance.now();
  window.__engine = await m.startEngine(cfg, {timeoutMs: 120000});
  return {ms: performance.now() - t0, worker_ms: window.__engine.info.ms};
}"""

# Each event as the scorer's tap applies it: the engine judges it, then the page asks for the
# event lines it draws (local-first.js compose()).
TAPS = """async (matches) => {
  const times = [];
  for (const m of matches) {
    await window.__engine.open(m.header, m.names, []);
    const rows = [];
    for (const [i, ev] of m.events.entries()) {
      const t0 = performance.now();
      const r = await window.__engine.apply(ev);
      rows.push({seq: i + 1, data: r.event, side: "home", rolled_by_app: false});
      await window.__engine.call("lines", rows.slice(-12).reverse());
      times.push(performance.now() - t0);
      if (!r.ok) throw new Error("refused: " + JSON.stringify(r.error));
    }
  }
  const memory = await window.__engine.call("memory");
  return {times, memory};
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def simulated(n: int) -> list[dict[str, Any]]:
    from rules_engine.api import play_random

    out = []
    for seed in range(1, n + 1):
        header = {
            "advanced_rules": "all",
            "teams": {
                "home": {"name": "Blue", "formation": "4-4-2"},
                "away": {"name": "Red", "formation": "3-5-2"},
            },
        }
        log = play_random(header, seed).to_log()
        events = log.pop("events")
        out.append({"header": log, "names": {"home": "Blue", "away": "Red"}, "events": events})
    return out


def prepare(env: dict[str, str]) -> dict[str, Any]:
    python = sys.executable
    subprocess.run(
        [python, "manage.py", "build_engine_bundle"], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL
    )
    subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    manifest = json.loads((ROOT / "build" / "web-engine" / "engine.json").read_text())
    return manifest


def run(base: str, manifest: dict[str, Any], version: str) -> list[list[str]]:
    from playwright.sync_api import sync_playwright

    cfg = {
        "module": f"{base}/static/scoring/js/local-engine.js",
        "worker": "/static/scoring/local/engine-worker.js",
        "pyodide": f"/static/pyodide/{version}/",
        "bundle": f"/score/engine/{manifest['file']}",
        "digest": manifest["digest"],
    }
    matches = simulated(MATCHES)
    rows: list[list[str]] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(180000)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        wire: dict[str, float] = {}
        urls: dict[str, str] = {}
        cdp.on("Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"]))
        cdp.on("Network.loadingFinished", lambda e: wire.__setitem__(e["requestId"], e["encodedDataLength"]))
        page.goto(f"{base}/static/fubaleague/site.css")
        wire.clear()
        urls.clear()
        first = page.evaluate(START, cfg)
        page.wait_for_timeout(500)
        by_file = sorted(
            ((urls.get(k, k).rsplit("/", 1)[-1], v) for k, v in wire.items()), key=lambda x: -x[1]
        )
        total = sum(wire.values())
        rows.append(["first visit: bytes over the wire", f"{total / 1e6:.2f} MB", "state it"])
        for name, size in by_file[:7]:
            rows.append([f"  {name}", f"{size / 1e6:.2f} MB", ""])
        rows.append(["first visit: engine start (download included)", f"{first['ms'] / 1000:.2f} s", ""])
        for rate, label, start_target, tap_target in (
            (1, "", "< 4 s", "< 50 ms"),
            (4, " (CPU 4x slower)", "< 10 s", "< 150 ms"),
        ):
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            starts = []
            for _ in range(STARTS):
                page.reload()
                starts.append(page.evaluate(START, cfg)["ms"])
            rows.append(
                [
                    f"cold start, files cached{label}",
                    f"median {statistics.median(starts) / 1000:.2f} s, worst {max(starts) / 1000:.2f} s",
                    start_target,
                ]
            )
            taps = page.evaluate(TAPS, matches)
            times = taps["times"]
            rows.append(
                [
                    f"tap to next question{label} ({len(times)} events)",
                    f"p50 {percentile(times, 0.5):.1f} ms, p99 {percentile(times, 0.99):.1f} ms",
                    tap_target,
                ]
            )
            if rate == 1:
                memory = taps["memory"]["wasm_bytes"]
                rows.append(
                    ["worker's WebAssembly memory after 3 matches", f"{memory / 1e6:.0f} MB", "< 150 MB"]
                )
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        browser.close()
    return rows


def main() -> int:
    if not Path(CHROMIUM).exists():
        return web.fail(f"{CHROMIUM} missing: apt-get install chromium (`make bench` installs it).")
    web.BENCH_NAME = "local_engine"
    env = web.bench_env()
    manifest = prepare(env)
    web.setup_django(env)
    from django.conf import settings

    version = settings.PYODIDE_VERSION
    port = web.free_port()
    server = web.start_gunicorn(env, port, 2)
    base = f"http://127.0.0.1:{port}"
    try:
        web.wait_ready(f"{base}/static/fubaleague/site.css", timeout=120)
        t0 = time.perf_counter()
        load_before = os.getloadavg()[0]
        rows = run(base, manifest, version)
        seconds = time.perf_counter() - t0
        load_after = os.getloadavg()[0]
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=15)
    width = max(len(r[0]) for r in rows)
    bundle = f"bundle {manifest['bytes'] / 1e3:.0f} kB"
    print(f"The local engine in headless Chromium ({seconds:.0f} s): Pyodide {version}, {bundle}")
    # On a shared machine the figures scale with the load: the run says what it was.
    print(f"load average {load_before:.1f} before, {load_after:.1f} after, on {os.cpu_count()} CPUs")
    print(f"{'measure'.ljust(width)}  {'figure':<34}  target")
    for name, figure, target in rows:
        print(f"{name.ljust(width)}  {figure:<34}  {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
