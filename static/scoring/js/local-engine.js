/* The page's side of the local engine: starts the worker (static/scoring/local/engine-worker.js)
   and turns its messages into promises. The page reads the worker's script, Pyodide's files and
   the engine bundle itself (through the service worker's cache when offline: a dedicated worker's
   own requests are not always routed through it) and hands them over as bytes; the worker is made
   from a blob of its script. startEngine() rejects when the engine cannot start (no
   Worker or WebAssembly, Pyodide or the bundle failing to load, out of memory, too slow): the
   scorer then works in the server-driven mode and says so. A memory snapshot of an earlier start
   on this phone makes later starts much faster (engine-snapshot.js). */
import { dropSnapshot, loadSnapshot, saveSnapshot } from "./engine-snapshot.js";

export function engineConfig(root) {
  var bundle = root.getAttribute("data-engine-bundle");
  if (!bundle) return null;
  return {
    worker: root.getAttribute("data-engine-worker"),
    pyodide: root.getAttribute("data-engine-pyodide"),
    bundle: bundle,
    digest: root.getAttribute("data-engine-digest"),
    stdlib: root.getAttribute("data-engine-stdlib") || "",
  };
}

const SCRIPTS = ["pyodide.js", "pyodide.asm.js"];

function bytes(url) {
  return fetch(url, { credentials: "same-origin" }).then(function (r) {
    if (!r.ok) throw new Error(url + ": HTTP " + r.status);
    return r.arrayBuffer();
  });
}

// Pyodide's WebAssembly compiled while the other files are read (a streamed compile, off the
// page's thread), handed to the worker as a module; its bytes where a streamed compile fails
// (a response without the WebAssembly type) or is missing.
function wasm(url) {
  if (typeof WebAssembly.compileStreaming !== "function") return bytes(url);
  return WebAssembly.compileStreaming(fetch(url, { credentials: "same-origin" })).catch(function () { return bytes(url); });
}

function transferable(files) {
  return Object.keys(files).map(function (u) { return files[u]; });
}

// What the worker takes (engine-worker.js). early(source, scripts, snapshot): called once the
// worker's script and Pyodide's two scripts are read ({absolute url: ArrayBuffer}) and this
// phone's snapshot found (a Blob or null), to start the worker, which starts reading the snapshot
// and runs the scripts while the rest is read (its promise is waited for). Then init's argument: the lock
// file, the engine bundle and the standard library as bytes, the compiled WebAssembly, this
// phone's snapshot as a Blob, unread (useSnapshot; null when none is kept; the bundle is not read
// when there is one). -> {init, ms: the time the reading took}
export function readEngineFiles(config, useSnapshot, early) {
  var t0 = performance.now();
  var pyodide = new URL(config.pyodide, location.href).href;
  var bundle = new URL(config.bundle, location.href).href;
  // The precompiled, trimmed standard library when the server built one, else Pyodide's own.
  var stdlib = config.stdlib ? new URL(config.stdlib, location.href).href : pyodide + "python_stdlib.zip";
  var urls = [pyodide + "pyodide-lock.json", stdlib];
  var snapshot = useSnapshot ? loadSnapshot(pyodide, config.digest) : Promise.resolve(null);
  var engine = snapshot.then(function (s) { return s ? null : bytes(bundle); });
  var wasmURL = pyodide + "pyodide.asm.wasm";
  var scripts = SCRIPTS.map(function (f) { return pyodide + f; });
  var started = Promise.all([snapshot, bytes(config.worker)].concat(scripts.map(bytes))).then(function (head) {
    var files = {};
    scripts.forEach(function (u, i) { files[u] = head[i + 2]; });
    return early(head[1], files, head[0]);
  });
  return Promise.all([started, snapshot, engine, wasm(wasmURL)].concat(urls.map(bytes))).then(function (all) {
    var files = {};
    urls.forEach(function (u, i) { files[u] = all[i + 4]; });
    if (all[2]) files[bundle] = all[2];
    var compiled = all[3] instanceof WebAssembly.Module ? all[3] : null;
    if (!compiled) files[wasmURL] = all[3];
    var init = { pyodide: pyodide, bundle: bundle, stdlib: stdlib, digest: config.digest, files: files, wasm: compiled, snapshot: all[1], makeSnapshot: useSnapshot };
    return { init: init, ms: performance.now() - t0 };
  });
}

// options: timeoutMs; snapshot: false to start without this phone's memory snapshot (and take none).
export function startEngine(config, options) {
  if (!config) return Promise.reject(new Error("this server offers no local engine"));
  if (typeof Worker === "undefined" || typeof WebAssembly === "undefined") {
    return Promise.reject(new Error("this browser cannot run the engine (no Web Worker or WebAssembly)"));
  }
  var useSnapshot = !options || options.snapshot !== false;
  var engine = null;
  // the worker reads the snapshot and runs Pyodide's scripts while the page still reads the rest
  function early(source, scripts, snapshot) {
    var script = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    engine = connect(new Worker(script), config.digest);
    return engine.call("scripts", { files: scripts, snapshot: snapshot }, transferable(scripts));
  }
  return readEngineFiles(config, useSnapshot, early).then(function (read) {
    var init = read.init;
    return run(/** @type {any} */ (engine), init, options).then(function (started) {
      var made = started.info.snapshot;
      delete started.info.snapshot;
      // where the start went: reading the files here, then the worker's phases
      started.info.phases = Object.assign({ files: read.ms }, started.info.phases);
      if (made) saveSnapshot(init.pyodide, config.digest, made);
      return started;
    }, function (err) {
      if (!init.snapshot) throw err;
      // A snapshot this browser cannot restore: dropped, and the engine started without it.
      return dropSnapshot(init.pyodide, config.digest).then(function () { return startEngine(config, options); });
    });
  }, function (err) {
    if (engine) engine.stop();
    throw err;
  });
}

function connect(worker, digest) {
  var next = 1;
  var waiting = {};
  worker.onmessage = function (e) {
    var w = waiting[e.data.id];
    if (!w) return;
    delete waiting[e.data.id];
    if (e.data.ok) w.resolve(e.data.result); else w.reject(new Error(e.data.error));
  };
  worker.onerror = function (e) {
    var err = new Error("the engine stopped: " + (e.message || "worker error"));
    Object.keys(waiting).forEach(function (k) { waiting[k].reject(err); delete waiting[k]; });
  };
  function call(op, arg, transfer) {
    return new Promise(function (resolve, reject) {
      var id = next++;
      waiting[id] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: id, op: op, arg: arg }, transfer || []);
    });
  }
  var engine = {
    digest: digest,
    info: null,
    call: call,
    open: function (header, names, events, tie) {
      return call("open", { header: header, names: names, events: events, tie: tie || null });
    },
    // One tap (matchplay/scorer_local.py apply, the server's own apply): its entries
    // [{client_id, event} | {client_id, roll_for_me: true}] all or none; a roll_for_me is rolled
    // when due from crypto randomness -> {ok, seq, view, stored} or {ok: false, error}.
    tap: function (entries) {
      var a = new Uint32Array(1);
      crypto.getRandomValues(a);
      return call("apply", { events: entries, seed: a[0] });
    },
    // A tap of one event: the same call, its stored event as `event`.
    apply: function (event) {
      return engine.tap([{ client_id: "", event: event }]).then(function (r) {
        return r.ok ? Object.assign({}, r, { event: r.stored[0].event }) : r;
      });
    },
    undo: function () { return call("undo"); },
    log: function () { return call("log"); },
    stop: function () { worker.terminate(); },
  };
  return engine;
}

function run(engine, init, options) {
  var timeoutMs = (options && options.timeoutMs) || 60000;
  var timer;
  var timeout = new Promise(function (_, reject) {
    timer = setTimeout(function () { reject(new Error("the engine took longer than " + timeoutMs / 1000 + " s to start")); }, timeoutMs);
  });
  // the bytes move to the worker; the compiled module and the snapshot's Blob are shared with it
  var transfer = transferable(init.files);
  return Promise.race([engine.call("init", init, transfer), timeout])
    .then(function (info) { clearTimeout(timer); engine.info = info; return engine; },
          function (err) { clearTimeout(timer); engine.stop(); throw err; });
}
