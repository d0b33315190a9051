/* LOCAL-FIRST TRANSPORT: the rules engine on this phone answers every tap; the server is told later.

   Same interface as transport.js (main.js cannot tell them apart), plus `local` (true while the
   phone's engine answers) and the status fields `local` and `note`. Each tap is judged by the
   local engine (local-engine.js: Pyodide in a Web Worker running the server's own engine sources),
   written to IndexedDB (local-store.js) with its client id and sequence number, shown at once, and
   then sent in order whenever there is a connection (online/offline events, retries with backoff,
   on page start). The server still judges every event and stays the authority:
     201/200  stored (or a resend of a stored client id): the event joins the phone's base log;
     409      another device stored that sequence number first: this phone's waiting taps from there
              are posted as a side branch (kept on record, never applied), the phone moves to the
              match as stored and says which taps were not used;
     422      the server refused an event this phone's engine accepted: a bug in the build, shown as
              such; the taps stay on the phone and nothing more is sent.
   "Confirm this result" at full time is queued like a tap. If the engine cannot start (no Worker or
   WebAssembly, Pyodide or the engine failing to load) or the session's app dice have no seed (a
   session started before seeded app dice), the server-driven transport takes over and the bar says
   so (docs/scorer-internals.md). With app dice the phone's engine rolls the session's seeded dice
   for each event, the very dice the server rolls and checks for it. */
import { createTransport } from "./transport.js";
import { startEngine } from "./local-engine.js";
import { openStore } from "./local-store.js";

const POLL_MS = 1500;
const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000, 30000];
const ENGINE_START_MS = 30000;
const LINES = 12;
export const OFFLINE_CACHE = "fuba-scorer-v1";

function uid() {
  const a = new Uint8Array(12);
  window.crypto.getRandomValues(a);
  return Array.prototype.map.call(a, (b) => ("0" + b.toString(16)).slice(-2)).join("");
}

function getJSON(url, headers) {
  return fetch(url, { credentials: "same-origin", headers: Object.assign({ Accept: "application/json" }, headers || {}), cache: "no-cache" });
}

export function createLocalFirstTransport(options, config) {
  const session = +options.session;
  const listeners = { state: [], status: [], refused: [] };
  const names = options.names;
  let engine = null;
  let store = null;
  let fallback = null;     // the server-driven transport, once the engine could not start
  let note = "";           // what the bar adds about the mode
  let record = null;       // { header, names, digest, base, server }
  let ops = [];            // this phone's taps not yet stored, in order
  let view = null;         // the local engine's view of base + ops
  let offline = !navigator.onLine;
  let sending = false;
  let blocked = false;     // a 422 on a tap the local engine accepted: stop, keep everything
  let tries = 0;
  let retry = null;
  let etag = null;
  let rev = 0;             // bumped by every local change: the page answers once per version
  const t = {};

  function emit(kind, value) { listeners[kind].forEach((fn) => fn(value)); }
  function status() {
    emit("status", { waiting: ops.length, offline: offline, local: !fallback, note: note });
  }
  function nextN() { return ops.length ? ops[ops.length - 1].n + 1 : Date.now(); }
  function liveEvents() {
    // The phone's match: the events the server stored, then its own taps and undos on top.
    const events = record.base.map((r) => ({ seq: r.seq, data: r.event, side: r.side, rolled_by_app: r.rolled_by_app }));
    ops.forEach((op) => {
      if (op.kind === "event") events.push({ seq: op.expected_seq, data: op.event, side: options.side || "home", rolled_by_app: !!op.rolled });
      else if (op.kind === "undo") events.pop();
    });
    return events;
  }
  function localSeq() { return liveEvents().length; }

  // The session state as main.js knows it: the server's fields, the match from the local engine.
  function compose() {
    const server = record.server || {};
    const events = liveEvents();
    return engine.call("lines", events.slice(-LINES).reverse()).then((lines) => {
      const v = view.view;
      const finishing = ops.some((op) => op.kind === "finish");
      let st = server.status || "live";
      if (st === "live" && !v.pending) st = "full_time";
      return Object.assign({}, server, {
        version: (server.version || 0) + "." + rev,
        seq: events.length,
        status: st,
        state: v.state,
        pending: v.pending,
        question: v.question,
        moments: v.moments,
        result: v.result || server.result || null,
        events: lines,
        confirmation_queued: finishing,
      });
    });
  }
  function show() { rev += 1; return compose().then((d) => { emit("state", d); prepareLater(); }); }
  // Copies of the match for the next question's lookahead (matches/scorer_local.py prepare), made
  // one a message once the question is drawn and a tap it triggers is posted: a tap waits for one
  // copy at most, and its question then needs no replay of the match.
  let preparing = false;
  function prepareLater() {
    if (preparing) return;
    preparing = true;
    const next = () => new Promise((ok) => setTimeout(ok, 0));
    const step = () => (!engine ? null
      : engine.call("prepare").then((r) => (r.missing > 0 ? next().then(step) : null)));
    next().then(step).catch(() => null).then(() => { preparing = false; });
  }
  function reopen() {
    // The knockout tie from the server's state: the engine narrows the extra-time question (I-38).
    const tie = (record.server || {}).tie;
    return engine.open(record.header, record.names, liveEvents().map((e) => e.data), tie).then((v) => {
      if (!v.ok) throw new Error("the phone's engine refused the stored events: " + v.error.message);
      view = v;
    });
  }
  function persist() { return store.saveMatch(record); }

  function post(path, body) {
    return fetch(options.apiUrl + path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": options.csrf, Accept: "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json().then((j) => ({ ok: r.ok, status: r.status, body: j }),
      () => ({ ok: r.ok, status: r.status, body: null })));
  }

  // The events the server stored after the phone's base (the other phone's entries).
  function catchUp() {
    return getJSON(options.apiUrl + "/log").then((r) => {
      if (!r.ok) throw new Error("log: HTTP " + r.status);
      return r.json();
    }).then((log) => {
      record.header = log.header;
      record.base = log.events;
      // Taps whose answer was lost but which the server stored: they are in the base now.
      const held = new Set(log.events.map((e) => e.client_id));
      const settled = ops.filter((o) => o.kind === "event" && held.has(o.client_id)).map((o) => o.n);
      if (settled.length) {
        ops = ops.filter((o) => settled.indexOf(o.n) < 0);
        return store.removeOps(settled).then(() => log);
      }
      return log;
    }).then(() => {
      return getJSON(options.apiUrl).then((r) => r.ok ? r.json() : record.server);
    }).then((server) => { record.server = server; return persist(); });
  }

  function later() {
    if (retry || blocked) return;
    const wait = BACKOFF_MS[Math.min(tries, BACKOFF_MS.length - 1)];
    tries += 1;
    retry = setTimeout(() => { retry = null; flush(); }, wait);
  }

  function flush() {
    if (sending || blocked || !ops.length || fallback) return;
    sending = true;
    const op = ops[0];
    const request = op.kind === "event"
      ? post("/events", { client_id: op.client_id, expected_seq: op.expected_seq, event: op.event })
      : op.kind === "undo"
        ? post("/undo", { expected_seq: op.expected_seq, reason: op.reason || "" })
        : post("/finish", op.body || {});
    request.then((res) => {
      offline = false;
      tries = 0;
      if (res.ok) return stored(op, res.body).then(() => true);
      if (res.status === 409 && op.kind !== "finish") return conflict().then(() => true);
      return refusedByServer(op, res).then(() => true);
    }, () => {
      // No answer: the server may have stored it all the same, so Undo no longer drops it
      // silently; the resend (same client id) or a queued undo settles it. The next try waits
      // for the backoff or the browser's "online" event.
      offline = true;
      later();
      if (op.kind === "event" && !op.sent) { op.sent = true; return store.addOp(op).then(() => false); }
      return false;
    }).then((goOn) => { sending = false; status(); if (goOn) flush(); }, (err) => {
      sending = false;
      emit("refused", { message: "This phone could not save the server's answer: " + err.message, stale: false, auto: false });
      status();
    });
  }

  function stored(op, server) {
    if (op.kind === "event") {
      record.base.push({ seq: op.expected_seq, client_id: op.client_id, event: op.event, side: options.side || "home", rolled_by_app: !!op.rolled });
    } else if (op.kind === "undo") {
      record.base.pop();
    }
    record.server = server;
    ops.shift();
    return store.settle(op.n, record).then(() => { if (op.kind === "finish") return show(); });
  }

  // Another device stored these sequence numbers first: the taps from here become a side branch.
  function conflict() {
    const taps = [];
    const firstEvent = ops.find((o) => o.kind === "event");
    ops.forEach((o) => {
      if (o.kind === "event") taps.push({ client_id: o.client_id, event: o.event });
    });
    const dropped = ops.map((o) => o.n);
    const branch = firstEvent && taps.length
      ? post("/side-branches", {
        branch_id: firstEvent.client_id, from_seq: firstEvent.expected_seq,
        from_minute: String(firstEvent.minute || ""), events: taps,
      })
      : Promise.resolve(null);
    return branch.then((res) => {
      if (res && !res.ok && !(res.status === 400 && res.body && res.body.error && res.body.error.code === "not_a_side_branch")) {
        throw new Error(res.body && res.body.error ? res.body.error.message : "side branch refused (" + res.status + ")");
      }
      ops = [];
      return store.removeOps(dropped).then(catchUp).then(reopen).then(show).then(() => {
        const message = res && res.ok ? res.body.side_branch.message
          : "The other phone had already recorded this part of the match; the screen shows the match as stored.";
        emit("refused", { message: message, stale: false, auto: false, branch: true });
      });
    });
  }

  function refusedByServer(op, res) {
    const err = res.body && res.body.error;
    const text = err ? err.message : "HTTP " + res.status;
    if (op.kind === "event" && res.status === 422) {
      blocked = true;
      emit("refused", {
        message: "Bug in this build: the server's engine refused a tap this phone's engine accepted (" + text +
          "). Your taps are kept on this phone and nothing more is sent; please report it.",
        stale: false, auto: false,
      });
      return Promise.resolve();
    }
    // A refused undo or confirmation: drop it, show the match as stored.
    ops.shift();
    return store.removeOps([op.n]).then(catchUp).then(reopen).then(show).then(() => {
      emit("refused", { message: text, stale: false, auto: false });
    });
  }

  function poll() {
    const headers = {};
    if (etag) headers["If-None-Match"] = etag;
    return getJSON(options.liveUrl, headers).then((r) => {
      const was = offline;
      offline = false;
      if (r.status === 304) { if (was) { status(); flush(); } return; }
      if (!r.ok) return;
      etag = r.headers.get("ETag");
      return r.json().then((d) => {
        if (ops.length || sending) { status(); flush(); return; }
        const newer = d.seq !== record.base.length || d.version !== (record.server || {}).version;
        if (!newer) return;
        if (d.seq === record.base.length) { record.server = d; return persist().then(show); }
        return catchUp().then(reopen).then(show);
      });
    }, () => { if (!offline) { offline = true; status(); } });
  }

  // Everything the scorer needs offline: this page, its modules and styles, Pyodide, the engine.
  function cacheShell() {
    if (!("caches" in window) || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(options.serviceWorker, { scope: "/score/" }).catch(() => {});
    const files = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
    const urls = new Set([location.pathname, config.worker, config.bundle].concat(files.map((f) => config.pyodide + f)));
    performance.getEntriesByType("resource").forEach((e) => {
      const u = new URL(e.name);
      if (u.origin === location.origin && u.pathname.startsWith(options.staticUrl)) urls.add(u.pathname);
    });
    document.querySelectorAll("script[src], link[rel=stylesheet]").forEach((n) => {
      urls.add(new URL(n.getAttribute("src") || n.getAttribute("href"), location.href).pathname);
    });
    caches.open(OFFLINE_CACHE).then((c) => Promise.all(Array.from(urls).map((u) =>
      c.match(u).then((hit) => (hit ? undefined : c.add(u))).catch(() => {})))).catch(() => {});
  }

  function useServer(reason) {
    note = "Server-driven mode: " + reason;
    engine = null;
    fallback = createTransport(options);
    ["state", "status", "refused"].forEach((kind) => {
      const name = "on" + kind[0].toUpperCase() + kind.slice(1);
      fallback[name]((v) => {
        if (kind === "status") emit(kind, Object.assign({}, v, { local: false, note: note }));
        else emit(kind, v);
      });
    });
    t.local = false;
    return fallback.start();
  }

  function begin() {
    note = "Starting the rules engine on this phone…";
    status();
    return openStore(session).then((s) => { store = s; return Promise.all([store.loadMatch(), store.loadOps()]); })
      .then(([saved, savedOps]) => {
        ops = (savedOps || []).sort((a, b) => a.n - b.n);
        if (saved && saved.digest !== config.digest && !ops.length) saved = null; // a newer engine: start again from the server
        record = saved || { header: null, names: names, digest: config.digest, base: [], server: null };
        record.digest = config.digest;
        const fresh = navigator.onLine ? catchUp().catch(() => { offline = true; }) : Promise.resolve();
        return Promise.all([startEngine(config, { timeoutMs: ENGINE_START_MS }), fresh]);
      })
      .then(([started]) => {
        engine = started;
        if (!record.header) throw new Error("the match has never been loaded on this phone and there is no connection");
        if (record.server && record.server.app_dice && !record.server.dice_seed) {
          engine.stop();
          return useServer("the server rolls the dice in this session, so each tap needs the connection.");
        }
        note = "";
        return reopen().then(show).then(() => {
          window.addEventListener("online", () => { offline = false; status(); flush(); });
          window.addEventListener("offline", () => { offline = true; status(); });
          setInterval(() => { if (!navigator.onLine) return; poll(); }, POLL_MS);
          status();
          flush();
          cacheShell();
        });
      })
      .catch((err) => {
        if (engine) engine.stop();
        return useServer("this phone could not start the rules engine (" + err.message + ").");
      });
  }

  // A tap: judged by the phone's engine, stored in IndexedDB, shown, then sent.
  function send(body, opt) {
    if (fallback) return fallback.send(body, opt);
    if (!engine || !view) return;
    // App dice: the engine rolls the session's seeded dice for this event, as the server would.
    const app = record.server && record.server.app_dice ? record.server.dice_seed : "";
    if (app && body.event && body.event.roll) {
      emit("refused", { message: "This session uses app dice: the app rolls every roll.", stale: false, auto: false });
      return;
    }
    const seq = localSeq() + 1;
    const rolled = !body.roll_for_me ? Promise.resolve({ ok: true, event: body.event })
      : app ? engine.call("app_dice", { seed: app, seq: seq }) : engine.roll();
    const minute = view.view.state ? view.view.state.minute : "";
    return rolled.then((r) => {
      if (!r.ok) throw new Error(r.error.message);
      return engine.apply(r.event);
    }).then((res) => {
      if (!res.ok) {
        emit("refused", { message: res.error.message, stale: false, auto: !!(opt && opt.auto) });
        return;
      }
      const byApp = !!(app && body.roll_for_me);
      const event = byApp ? Object.assign({}, res.event, { note: "rolled by the app" }) : res.event;
      const op = { n: nextN(), kind: "event", client_id: uid(), expected_seq: seq, event: event, minute: minute, rolled: byApp };
      view = res;
      ops.push(op);
      return store.addOp(op).then(() => { status(); flush(); return show(); });
    }).catch((err) => emit("refused", { message: err.message, stale: false, auto: false }));
  }

  function undo(reason) {
    if (fallback) return fallback.undo(reason);
    if (!engine || !localSeq()) return;
    const last = ops[ops.length - 1];
    let change;
    if (last && last.kind === "event" && !last.sent && !(sending && ops[0] === last)) {
      ops.pop(); // a tap that never reached the server is simply taken back
      change = store.removeOps([last.n]);
    } else {
      const op = { n: nextN(), kind: "undo", expected_seq: localSeq(), reason: reason || "" };
      ops.push(op);
      change = store.addOp(op);
    }
    return change.then(() => engine.undo()).then((v) => { view = v; status(); flush(); return show(); });
  }

  function postOrQueue(path, body) {
    if (fallback) return fallback.post(path, body);
    if (path === "/setup-check") {
      // the set-up editor's check, answered by the phone's engine as the server would
      return engine.call("setup_check", body.choice).then((r) => (r.ok
        ? { ok: true, status: 200, body: r.check }
        : { ok: false, status: 422, body: { error: r.error } }));
    }
    if (path !== "/finish" || (!ops.length && navigator.onLine && !offline)) {
      return post(path, body).then((res) => {
        // the dice word too: the phone's engine rolls app dice from the seed in the server's state
        if (!res.ok || path === "/abandon") return res;
        record.server = res.body;
        return persist().then(compose).then((d) => ({ ok: true, status: res.status, body: d }));
      });
    }
    // Full time without a connection: "Confirm this result" waits in the queue behind the taps.
    const op = { n: nextN(), kind: "finish", body: body || {} };
    ops.push(op);
    return store.addOp(op).then(() => { status(); flush(); return compose(); })
      .then((d) => ({ ok: true, status: 202, body: d }));
  }

  Object.assign(t, {
    local: true,
    onState(fn) { listeners.state.push(fn); },
    onStatus(fn) { listeners.status.push(fn); },
    onRefused(fn) { listeners.refused.push(fn); },
    waiting() { return fallback ? fallback.waiting() : ops.length; },
    send: send,
    undo: undo,
    post: postOrQueue,
    start: begin,
  });
  return t;
}
