/* LOCAL-FIRST TRANSPORT: the rules engine on this phone answers every tap; the server is told later.

   Same interface as transport.js (main.js cannot tell them apart), plus `local` (true while the
   phone's engine answers), onConflict / onBlocked, and the status fields `local` and `note`. Each
   tap is judged by the local engine (local-engine.js: Pyodide in a Web Worker running the
   server's own engine sources), queued as one op (queue.js: one tap, one batch, strictly in
   order, kept in IndexedDB by local-store.js), shown at once, and sent whenever there is a
   connection (online/offline events, retries with backoff, on page start). The server judges
   every batch again and stays the authority (queue.js says how each answer is read).
   "Confirm this result" at full time is queued like a tap. If the engine cannot start (no Worker
   or WebAssembly, Pyodide or the engine failing to load) the server-driven transport takes over
   and the bar says so (docs/scorer-internals.md). The phone never learns a future roll: online
   the server rolls app dice when they are due, offline the phone rolls them itself. */
import { createTransport } from "./transport.js";
import { startEngine } from "./local-engine.js";
import { openStore } from "./local-store.js";
import { catchUp, createQueue, followLive, localEvents } from "./queue.js";
import { wholeMatchReport } from "./way-out.js";
import { postJSON } from "./http.js";

const POLL_MS = 1500;
const ENGINE_START_MS = 30000;
const LINES = 12;
export const OFFLINE_CACHE = "fuba-scorer-v1";

// A request left hanging (the connection lost while it was on its way) counts as no answer.
const REQUEST_MS = 20000;
function deadline() { return typeof AbortSignal.timeout === "function" ? AbortSignal.timeout(REQUEST_MS) : undefined; }

function getJSON(url, headers) {
  return fetch(url, {
    credentials: "same-origin", headers: Object.assign({ Accept: "application/json" }, headers || {}),
    cache: "no-cache", signal: deadline(),
  });
}

function postWithin(url, csrf, body) {
  return postJSON(url, csrf, body, deadline());
}

// The network as the queue sees it: posts, the stored log, the session state.
function network(options) {
  return {
    post: (path, body) => postWithin(options.apiUrl + path, options.csrf, body),
    getLog: () => getJSON(options.apiUrl + "/log").then((r) => {
      if (!r.ok) throw new Error("log: HTTP " + r.status);
      return r.json();
    }),
    getState: () => getJSON(options.apiUrl).then((r) => (r.ok ? r.json() : null)),
  };
}

/* The session state as main.js knows it: the server's fields, the match from the local engine. */
function compose(ctx) {
  const q = ctx.queue.q;
  const server = q.record.server || {};
  const events = localEvents(q);
  return ctx.engine.call("lines", events.slice(-LINES).reverse()).then((lines) => {
    const v = q.view.view;
    let st = server.status || "live";
    if (st === "live" && !v.pending) st = "full_time";
    const undone = q.lastUndo || (server.seq === events.length ? server.last_undo : null);
    return Object.assign({}, server, {
      version: (server.version || 0) + "." + ctx.rev,
      seq: events.length,
      status: st,
      state: v.state,
      pending: v.pending,
      question: v.question,
      moments: v.moments,
      result: v.result || server.result || null,
      events: lines,
      last_undo: undone || null,
      // a level knockout tie at full time asks for the shoot-out score on the phone, offline too
      shootout: st === "full_time" ? shootoutDue(server, q.view) : false,
      confirmation_queued: q.ops.some((op) => op.kind === "finish"),
      blocked: q.blocked ? q.blocked.message : "",
    });
  });
}

// Whether full time leaves the knockout tie level: the phone's engine applies the tie rule the
// server's state names (`tie`, I-38), so the shoot-out is asked offline too; the server's word
// once it has seen this full time.
function shootoutDue(server, res) {
  if (server.status === "full_time" && typeof server.shootout === "boolean") return server.shootout;
  return !!res.shootout;
}

function show(ctx) {
  ctx.rev += 1;
  return compose(ctx).then((d) => { ctx.emit("state", d); prepareLater(ctx); });
}

// Copies of the match for the next question's lookahead (matchplay/scorer_local.py prepare), made
// one a message once the question is drawn: a tap waits for one copy at most.
function prepareLater(ctx) {
  if (ctx.preparing) return;
  ctx.preparing = true;
  const next = () => new Promise((ok) => setTimeout(ok, 0));
  const step = () => (!ctx.engine ? null
    : ctx.engine.call("prepare").then((r) => (r.missing > 0 ? next().then(step) : null)));
  next().then(step).catch(() => null).then(() => { ctx.preparing = false; });
}

// Everything the scorer needs offline: this page, its modules and styles, Pyodide, the engine.
// When both are in place (the worker active, every file tried) options.offlineReady is called:
// before then a reload without connection may find no page (the chaos run reloads offline).
function cacheShell(options, config) {
  if (!("caches" in window) || !("serviceWorker" in navigator)) return;
  const worker = navigator.serviceWorker.register(options.serviceWorker, { scope: "/score/" })
    .then(() => navigator.serviceWorker.ready).catch(() => null);
  // Pyodide's own standard library only when the server built none (config.stdlib).
  const files = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "pyodide-lock.json"]
    .concat(config.stdlib ? [] : ["python_stdlib.zip"]);
  const urls = new Set([location.pathname, config.worker, config.bundle].concat(files.map((f) => config.pyodide + f)));
  if (config.stdlib) urls.add(config.stdlib);
  performance.getEntriesByType("resource").forEach((e) => {
    const u = new URL(e.name);
    if (u.origin === location.origin && u.pathname.startsWith(options.staticUrl)) urls.add(u.pathname);
  });
  document.querySelectorAll("script[src], link[rel=stylesheet]").forEach((n) => {
    urls.add(new URL(n.getAttribute("src") || n.getAttribute("href"), location.href).pathname);
  });
  const cached = caches.open(OFFLINE_CACHE).then((c) => Promise.all(Array.from(urls).map((u) =>
    c.match(u).then((hit) => (hit ? undefined : c.add(u))).catch(() => {})))).catch(() => {});
  Promise.all([worker, cached]).then(() => { if (options.offlineReady) options.offlineReady(); });
}

function poll(ctx) {
  const q = ctx.queue.q;
  const headers = {};
  if (ctx.etag) headers["If-None-Match"] = ctx.etag;
  return getJSON(ctx.options.liveUrl, headers).then((r) => {
    const was = q.offline;
    q.offline = false;
    if (r.status === 304) { if (was) { ctx.status(); ctx.queue.flush(); } return; }
    if (!r.ok) return;
    // The ETag is kept only once the phone holds what it names: an answer put aside (the phone
    // busy with its own taps) is read again, or a 304 would keep the phone behind for good.
    const etag = r.headers.get("ETag");
    return r.json().then((d) => followLive(q, d)).then((held) => {
      if (held) ctx.etag = etag;
      else { ctx.status(); ctx.queue.flush(); }
    });
  }, () => { if (!q.offline) { q.offline = true; ctx.queue.wentOffline(); ctx.status(); } });
}

function useServer(ctx, reason) {
  ctx.note = "Server-driven mode: " + reason;
  ctx.engine = null;
  ctx.fallback = createTransport(ctx.options);
  ["state", "status", "refused"].forEach((kind) => {
    const name = "on" + kind[0].toUpperCase() + kind.slice(1);
    ctx.fallback[name]((v) => {
      if (kind === "status") ctx.emit(kind, Object.assign({}, v, { local: false, note: ctx.note }));
      else ctx.emit(kind, v);
    });
  });
  ctx.t.local = false;
  return ctx.fallback.start();
}

function loadRecord(ctx, store) {
  return Promise.all([store.loadMatch(), store.loadOps()]).then(([saved, savedOps]) => {
    const ops = (savedOps || []).filter((o) => o.kind !== "event").sort((a, b) => a.n - b.n);
    // a newer engine (or an op of an older page): start again from the server
    if (saved && (saved.digest !== ctx.config.digest || (savedOps || []).some((o) => o.kind === "event")) && !ops.length) saved = null;
    const record = saved || { header: null, names: ctx.options.names, digest: ctx.config.digest, base: [], server: null };
    record.digest = ctx.config.digest;
    return { record: record, ops: ops };
  });
}

function begin(ctx) {
  ctx.note = "Starting the rules engine on this phone…";
  ctx.status();
  // The engine starts at once, while this phone's record of the match is read (IndexedDB).
  const engineStart = startEngine(ctx.config, { timeoutMs: ENGINE_START_MS });
  engineStart.catch(() => {}); // answered below, or stopped when the record cannot be read
  return openStore(ctx.session).then((store) => loadRecord(ctx, store).then(({ record, ops }) => {
    ctx.queue = createQueue(queueDeps(ctx, store, engineStart), record, ops);
    const fresh = navigator.onLine ? catchUp(ctx.queue.q).catch(() => { ctx.queue.q.offline = true; }) : Promise.resolve();
    return Promise.all([engineStart, fresh]);
  })).then(([engine]) => {
    ctx.engine = engine;
    ctx.queue.q.deps.engine = engine;
    if (!ctx.queue.q.record.header) throw new Error("the match has never been loaded on this phone and there is no connection");
    ctx.note = "";
    return ctx.queue.serial(() => ctx.queue.reopen().then(() => show(ctx))).then(() => {
      window.addEventListener("online", () => { ctx.queue.q.offline = false; ctx.status(); ctx.queue.flush(); });
      window.addEventListener("offline", () => { ctx.queue.q.offline = true; ctx.queue.wentOffline(); ctx.status(); });
      setInterval(() => { if (navigator.onLine) poll(ctx); }, POLL_MS);
      ctx.status();
      ctx.queue.flush();
      cacheShell(ctx.options, ctx.config);
    });
  }).catch((err) => {
    engineStart.then((e) => e.stop(), () => {});
    return useServer(ctx, "this phone could not start the rules engine (" + err.message + ").");
  });
}

function queueDeps(ctx, store, engineStart) {
  const net = network(ctx.options);
  return Object.assign({
    engine: null, store: store, side: ctx.options.side || "home",
    show: () => show(ctx), emit: (kind, v) => (kind === "status" ? ctx.status() : ctx.emit(kind, v)),
    online: () => navigator.onLine, timer: (fn, ms) => setTimeout(fn, ms), ready: engineStart,
  }, net);
}

// "Confirm this result": posted at once when nothing waits, else queued behind the taps.
function postOrQueue(ctx, path, body) {
  if (ctx.fallback) return ctx.fallback.post(path, body);
  const q = ctx.queue.q;
  if (path === "/setup-check") {
    // the set-up editor's check, answered by the phone's engine as the server would
    return ctx.engine.call("setup_check", body.choice).then((r) => (r.ok
      ? { ok: true, status: 200, body: r.check }
      : { ok: false, status: 422, body: { error: r.error } }));
  }
  if (path === "/finish" && q.blocked) {
    return Promise.resolve({ ok: false, status: 409, body: { error: { code: "blocked", message:
      "The server refused a tap of this match (" + q.blocked.message + "), so it cannot be confirmed " +
      "live: send the whole match for validation with the button below." } } });
  }
  if (path !== "/finish" || (!q.ops.length && navigator.onLine && !q.offline)) {
    return network(ctx.options).post(path, body).then((res) => {
      if (!res.ok || path === "/abandon") return res;
      q.record.server = res.body;
      return q.deps.store.saveMatch(q.record).then(() => compose(ctx)).then((d) => ({ ok: true, status: res.status, body: d }));
    });
  }
  // Full time without a connection: "Confirm this result" waits in the queue behind the taps.
  return ctx.queue.finish(body).then(() => compose(ctx)).then((d) => ({ ok: true, status: 202, body: d }));
}

export function createLocalFirstTransport(options, config) {
  const listeners = { state: [], status: [], refused: [], conflict: [], blocked: [] };
  const ctx = {
    options: options, config: config, session: +options.session, engine: null, fallback: null,
    note: "", rev: 0, etag: null, preparing: false, queue: null, t: {},
    emit: (kind, value) => listeners[kind].forEach((fn) => fn(value)),
  };
  ctx.status = () => {
    const s = ctx.queue ? ctx.queue.status() : { waiting: 0, taps: 0, offline: !navigator.onLine, blocked: "", rolling: false };
    ctx.emit("status", Object.assign(s, { local: !ctx.fallback, note: ctx.note }));
  };
  const ready = () => !ctx.fallback && ctx.engine && ctx.queue && ctx.queue.q.view;
  return Object.assign(ctx.t, {
    local: true,
    onState(fn) { listeners.state.push(fn); },
    onStatus(fn) { listeners.status.push(fn); },
    onRefused(fn) { listeners.refused.push(fn); },
    onConflict(fn) { listeners.conflict.push(fn); },
    onBlocked(fn) { listeners.blocked.push(fn); },
    waiting() { return ctx.fallback ? ctx.fallback.waiting() : ctx.queue ? ctx.queue.q.ops.length : 0; },
    // the answers wait only for dice the server is rolling for this phone
    blocking() { return ctx.fallback ? ctx.fallback.waiting() : ctx.queue && ctx.queue.rolling() ? 1 : 0; },
    send(body, opt) { if (ctx.fallback) return ctx.fallback.send(body, opt); if (ready()) ctx.queue.send(body, opt); },
    undo(reason) { if (ctx.fallback) return ctx.fallback.undo(reason); if (ready()) return ctx.queue.undo(reason); },
    post: (path, body) => postOrQueue(ctx, path, body),
    // the way out of a refused tap: the whole match as a turn log, validated by the server
    sendWholeMatch: (body) => wholeMatchReport(ctx, body),
    start: () => begin(ctx),
  });
}
