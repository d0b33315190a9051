/* The page's side of the local engine: starts the worker (static/scoring/local/engine-worker.js)
   and turns its messages into promises. startEngine() rejects when the engine cannot start (no
   Worker or WebAssembly, Pyodide or the bundle failing to load, out of memory, too slow): the
   scorer then works in the server-driven mode and says so. */

export function engineConfig(root) {
  var bundle = root.getAttribute("data-engine-bundle");
  if (!bundle) return null;
  return {
    worker: root.getAttribute("data-engine-worker"),
    pyodide: root.getAttribute("data-engine-pyodide"),
    bundle: bundle,
    digest: root.getAttribute("data-engine-digest"),
  };
}

export function startEngine(config, options) {
  var timeoutMs = (options && options.timeoutMs) || 60000;
  if (!config) return Promise.reject(new Error("this server offers no local engine"));
  if (typeof Worker === "undefined" || typeof WebAssembly === "undefined") {
    return Promise.reject(new Error("this browser cannot run the engine (no Web Worker or WebAssembly)"));
  }
  var worker = new Worker(config.worker);
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
  function call(op, arg) {
    return new Promise(function (resolve, reject) {
      var id = next++;
      waiting[id] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: id, op: op, arg: arg });
    });
  }
  var engine = {
    digest: config.digest,
    call: call,
    open: function (header, names, events) { return call("open", { header: header, names: names, events: events }); },
    apply: function (event) { return call("apply", event); },
    undo: function () { return call("undo"); },
    roll: function () {
      var a = new Uint32Array(1);
      crypto.getRandomValues(a);
      return call("roll", a[0]);
    },
    log: function () { return call("log"); },
    stop: function () { worker.terminate(); },
  };
  var timer;
  var timeout = new Promise(function (_, reject) {
    timer = setTimeout(function () { reject(new Error("the engine took longer than " + timeoutMs / 1000 + " s to start")); }, timeoutMs);
  });
  return Promise.race([call("init", { pyodide: config.pyodide, bundle: config.bundle, digest: config.digest }), timeout])
    .then(function (info) { clearTimeout(timer); engine.info = info; return engine; },
          function (err) { clearTimeout(timer); worker.terminate(); throw err; });
}
