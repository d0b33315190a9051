"""The JavaScript the local-engine benchmark runs in headless Chromium (bench/bench_local_engine.py).

START starts the engine as the scorer does (static/scoring/js/local-engine.js); MAIN_THREAD runs
the worker's own script on the page's main thread instead, because Chromium applies CDP's
``Emulation.setCPUThrottlingRate`` only to pages ("Operation is only supported for pages, not
workers" when sent to a dedicated worker's session); TAPS replays matches tap by tap.
"""

START = """async (cfg) => {
  const m = await import(cfg.module);
  const t0 = performance.now();
  window.__engine = await m.startEngine(cfg, {timeoutMs: 180000, snapshot: cfg.snapshot});
  return {ms: performance.now() - t0, info: window.__engine.info};
}"""

# The worker's script evaluated on this page, its messages answered in place: the same Pyodide,
# snapshot and engine calls as in the worker, on the thread the CPU throttling slows down.
MAIN_THREAD = """async (cfg) => {
  const m = await import(cfg.module);
  const t0 = performance.now();
  const waiting = {};
  let next = 1;
  let call = null;
  // The worker's script evaluated here as soon as it is read, and Pyodide's scripts run, while
  // the rest is read (the scorer's order: local-engine.js readEngineFiles, its early()).
  const early = (bytes, scripts, snapshot) => {
    const source = new TextDecoder().decode(bytes);
    self.postMessage = (msg) => { waiting[msg.id](msg); delete waiting[msg.id]; };
    // The worker loads Pyodide's scripts with importScripts, which a page has not.
    self.__runScript = (b) => (0, eval)(new TextDecoder().decode(b));
    const hook = "function runScript(bytes) {";
    if (!source.includes(hook)) throw new Error("engine-worker.js has no runScript(bytes)");
    (0, eval)(source.replace(hook, hook + " return self.__runScript(bytes);"));
    const handler = self.onmessage;
    self.onmessage = null;
    call = (op, arg) => new Promise((resolve, reject) => {
      const id = next++;
      waiting[id] = (msg) => (msg.ok ? resolve(msg.result) : reject(new Error(msg.error)));
      handler({data: {id, op, arg}});
    });
    return call("scripts", {files: scripts, snapshot});
  };
  const read = await m.readEngineFiles(cfg, cfg.snapshot !== false, early);
  const info = await call("init", {...read.init, makeSnapshot: false});
  info.phases = {files: read.ms, ...info.phases};
  window.__engine = {info, call, open: (header, names, events) => call("open", {header, names, events}),
                     apply: (event) => call("apply", {events: [{client_id: "", event}]}).then(
                       (r) => (r.ok ? Object.assign(r, {event: r.stored[0].event}) : r))};
  return {ms: performance.now() - t0, info};
}"""

# Each event as the scorer's tap applies it: the engine judges it, then the page asks for the
# event lines it draws (local-first.js compose()). Then, untimed as a tap (the scorer reads the
# question meanwhile), what the page asks once it has drawn the question: the copies of the match
# for the next question's lookahead (local-first.js prepareLater()), timed apart.
TAPS = """async (matches) => {
  const times = [];
  const idle = [];
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
      const t1 = performance.now();
      while ((await window.__engine.call("prepare")).missing > 0);
      idle.push(performance.now() - t1);
    }
  }
  const memory = await window.__engine.call("memory");
  return {times, idle, memory};
}"""
