/* The rules engine on the phone: Pyodide in a Web Worker running the server's own engine sources
   (the bundle of scoring/web_engine.py; entry module matchplay.scorer_local). No rule is written
   here: every answer comes from the Python engine.

   Protocol (docs/scorer-internals.md, "The local engine"): the page posts {id, op, arg}; the worker answers
   {id, ok: true, result} or {id, ok: false, error}. Ops:
     scripts {files, snapshot}         run Pyodide's pyodide.js and pyodide.asm.js ({absolute url:
                                       ArrayBuffer}) before init, while the page reads the rest;
                                       start reading the snapshot's Blob (null: none) first
     init   {pyodide, bundle, stdlib, digest, files, wasm, snapshot, makeSnapshot}  start Pyodide and the
                                       engine bundle from the bytes in files ({absolute url: ArrayBuffer}),
                                       Pyodide's WebAssembly compiled by the page (wasm, a
                                       WebAssembly.Module) unless files hold its bytes, from a memory
                                       snapshot when given one (a Blob or its bytes; the bundle
                                       then not needed);
                                       makeSnapshot: take one
                                       -> {digest, python, stdlib, ms, phases, restored, snapshot}
     open   {header, names, events}    the match after these events -> {ok, seq, view}
     apply  {events, seed}             one tap, all or none (matchplay/tap.py apply_tap) -> {ok, seq, view,
                                       stored} or {ok: false, error{code, message, index, client_id,
                                       turn, stage, rule, reason}}
     undo                              the last event taken back -> {ok, seq, view}
     prepare                           one more copy of the match for the next question's
                                       lookahead, made while the scorer reads this one -> {ok, missing}
     lines  [{seq, data, side, rolled_by_app}]  events in words, as the server's state lists them
     setup_check <set-up>              the pending set-up judged -> {ok, check{seq, ok, problems, ...}}
     view / log                        the current view / the fuba-log/1 document held
     replay_digest {header, names, events}  digests of every pending question and the final view
     memory                            bytes of the interpreter's WebAssembly memory */
"use strict";

var py = null;
var entry = null;
var loadedDigest = null;
var loadedBundle = null;

// The page hands over Pyodide's files and the engine bundle as bytes (read through its service
// worker's cache, so this works offline); the worker serves them to Pyodide from memory.
var TYPES = { wasm: "application/wasm", json: "application/json", zip: "application/zip", js: "text/javascript" };

/** @param {Record<string, ArrayBuffer>} files @param {string} wasmURL @param {WebAssembly.Module | null} wasm */
function served(files, wasmURL, wasm) {
  var network = self.fetch.bind(self);
  // Pyodide fetches its WebAssembly and compiles it (instantiateStreaming); the page has compiled it
  // already, so that fetch is answered with a stand-in that is instantiated from the page's module.
  var standIn = wasm ? new Response(null, { status: 200, headers: { "Content-Type": TYPES.wasm } }) : null;
  self.fetch = function (input, init) {
    var url = input instanceof Request ? input.url : String(input);
    if (standIn && url === wasmURL) return Promise.resolve(standIn);
    var bytes = files[url];
    if (!bytes) return network(input, init);
    var type = TYPES[url.slice(url.lastIndexOf(".") + 1)] || "application/octet-stream";
    return Promise.resolve(new Response(bytes, { status: 200, headers: { "Content-Type": type } }));
  };
  if (!wasm) return;
  var compiled = wasm;
  var instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = function (source, imports) {
    return Promise.resolve(source).then(function (response) {
      if (response !== standIn) return instantiateStreaming(response, imports);
      return WebAssembly.instantiate(compiled, imports).then(function (instance) {
        return { instance: instance, module: compiled };
      });
    });
  };
}

function runScript(bytes) {
  var url = URL.createObjectURL(new Blob([bytes], { type: "text/javascript" }));
  try { importScripts(url); } finally { URL.revokeObjectURL(url); }
}

// The bundle's modules imported into the interpreter. Not after a snapshot restore: the snapshot
// holds every module of the bundle imported (the entry module imports them all at its import,
// tests/scoring/test_web_engine.py) and nothing of the engine reads a file, so the bundle is
// neither read nor unpacked then.
async function loadEngine() {
  var response = await fetch(loadedBundle);
  if (!response.ok) throw new Error("engine bundle " + loadedBundle + ": HTTP " + response.status);
  py.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/engine" });
  py.runPython("import sys\nif '/engine' not in sys.path: sys.path.insert(0, '/engine')");
  // The server's standard library carries the engine's modules compiled (scripts/pyodide-stdlib.mjs):
  // as /engine's __pycache__ they are imported without compiling the sources.
  py.runPython(UNPACK_COMPILED);
}

var UNPACK_COMPILED = [
  "import os, sys, zipfile",
  "with zipfile.ZipFile(f'/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip') as z:",
  "    for name in z.namelist():",
  "        if name.startswith('__engine__/'):",
  "            path = '/engine/' + name[len('__engine__/'):]",
  "            os.makedirs(os.path.dirname(path), exist_ok=True)",
  "            with open(path, 'wb') as f: f.write(z.read(name))",
].join("\n");

// Pyodide's scripts, run as soon as the page has read them (op scripts), else by init.
var scriptsMs = null;
// The snapshot's bytes being read, from op scripts on (init waits for them).
/** @type {Promise<ArrayBuffer> | null} */
var reading = null;

/** @param {Blob | ArrayBuffer | null | undefined} snapshot */
function readSnapshot(snapshot) {
  return snapshot instanceof Blob ? snapshot.arrayBuffer() : Promise.resolve(snapshot);
}

/** @param {{files: Record<string, ArrayBuffer>, snapshot?: Blob | null}} arg @param {string} [pyodide] */
function scripts(arg, pyodide) {
  var t0 = performance.now();
  if (arg.snapshot) {
    reading = readSnapshot(arg.snapshot);
    reading.catch(function () {}); // a failed read fails init's restore, which the page handles
  }
  var names = Object.keys(arg.files);
  var base = pyodide || names[0].slice(0, names[0].lastIndexOf("/") + 1);
  runScript(arg.files[base + "pyodide.js"]);
  // Defines _createPyodideModule, so loadPyodide does not fetch pyodide.asm.js again.
  runScript(arg.files[base + "pyodide.asm.js"]);
  scriptsMs = performance.now() - t0;
  return { ms: scriptsMs };
}

async function init(arg) {
  // Each phase's time goes back to the page (docs/scorer.md: where the cold start goes).
  var start = performance.now();
  var t0 = start;
  // The page hands this phone's snapshot over unread (engine-snapshot.js): its 21 MB are read
  // here, from op scripts on; loadPyodide waits for them only where it sizes the memory.
  var restoring = arg.snapshot ? reading || readSnapshot(arg.snapshot) : null;
  reading = null;
  var phases = {};
  var mark = function (name) { var t = performance.now(); phases[name] = t - t0; t0 = t; };
  served(arg.files, arg.pyodide + "pyodide.asm.wasm", arg.wasm);
  if (scriptsMs === null) {
    scripts({ files: arg.files }, arg.pyodide);
    mark("scripts");
  } else {
    phases.scripts = scriptsMs; // run while the page read the other files
  }
  // A memory snapshot of an earlier start on this phone (the interpreter with the engine imported)
  // skips Python's start-up and the imports, most of a cold start (Pyodide's _loadSnapshot).
  var options = { indexURL: arg.pyodide };
  // The server's precompiled, trimmed standard library (scoring/web_engine.py), when it has one.
  if (arg.stdlib) options.stdLibURL = arg.stdlib;
  if (restoring) options._loadSnapshot = restoring;
  else if (arg.makeSnapshot) options._makeSnapshot = true;
  // pyodide.js (run by runScript above) defines loadPyodide on the worker's global scope
  py = await /** @type {any} */ (self).loadPyodide(options);
  mark(arg.snapshot ? "restore" : "pyodide");
  loadedBundle = arg.bundle;
  if (!arg.snapshot) {
    await loadEngine();
    mark("unpack");
  }
  entry = py.pyimport("matchplay.scorer_local");
  mark("import");
  var snapshot = null;
  if (!arg.snapshot && arg.makeSnapshot) {
    // Taken before any match is opened, with no Python handle held by JavaScript.
    entry.destroy();
    snapshot = py.makeMemorySnapshot();
    entry = py.pyimport("matchplay.scorer_local");
    mark("snapshot");
  }
  loadedDigest = arg.digest;
  return {
    digest: loadedDigest, python: py.runPython("import sys; sys.version.split()[0]"),
    // Where the standard library's modules come from: .pyc from the server's precompiled one.
    stdlib: py.runPython("import json; json.__file__"),
    ms: performance.now() - start, phases: phases, restored: !!arg.snapshot, snapshot: snapshot,
  };
}

function call(name, arg) {
  if (!entry) throw new Error("the engine is not loaded");
  var text = arg === undefined ? entry[name]() : entry[name](typeof arg === "string" || typeof arg === "number" ? arg : JSON.stringify(arg));
  return JSON.parse(text);
}

var ops = {
  scripts: scripts,
  init: init,
  open: function (arg) { return call("open_match", arg); },
  apply: function (arg) { return call("apply", arg); },
  undo: function () { return call("undo"); },
  prepare: function () { return call("prepare"); },
  view: function () { return call("view"); },
  lines: function (arg) { return call("lines", arg); },
  setup_check: function (arg) { return call("setup_check", arg); },
  log: function () { return call("log"); },
  replay_digest: function (arg) { return call("replay_digest", arg); },
  // The size of the WebAssembly memory: Pyodide has no public call for it, HEAP8 views all of it.
  memory: function () { return { wasm_bytes: py ? py._module.HEAP8.length : 0 }; },
};

self.onmessage = async function (e) {
  var msg = e.data || {};
  try {
    var op = ops[msg.op];
    if (!op) throw new Error("unknown op " + msg.op);
    var result = await op(msg.arg);
    var moved = result && result.snapshot ? [result.snapshot.buffer] : [];
    self.postMessage({ id: msg.id, ok: true, result: result }, moved);
  } catch (err) {
    self.postMessage({ id: msg.id, ok: false, error: String((err && err.message) || err) });
  }
};
