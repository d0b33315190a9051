/* This phone's memory snapshot of the local engine (static/scoring/js/engine-snapshot.js), on a
   stand-in for the browser's Cache Storage: one snapshot kept, handed out as an unread Blob. */
import { test } from "node:test";
import assert from "node:assert/strict";

// Cache Storage as the module uses it: open(name) -> {match, put, keys, delete}, keyed by URL.
class FakeCache {
  constructor() { this.entries = new Map(); }
  match(url) {
    var hit = this.entries.get(url);
    return Promise.resolve(hit ? new Response(hit) : undefined);
  }
  put(url, response) {
    return response.arrayBuffer().then((b) => { this.entries.set(url, b); });
  }
  keys() { return Promise.resolve([...this.entries.keys()].map((url) => ({ url }))); }
  delete(url) { return Promise.resolve(this.entries.delete(typeof url === "string" ? url : url.url)); }
}

const cache = new FakeCache();
globalThis.self = globalThis;
globalThis.location = /** @type {any} */ (new URL("https://fuba.test/score/1/"));
globalThis.caches = /** @type {any} */ ({ open: () => Promise.resolve(cache) });
const { dropSnapshot, loadSnapshot, saveSnapshot } = await import("../../static/scoring/js/engine-snapshot.js");

const PYODIDE = "https://fuba.test/static/pyodide/0.29.5/";

test("a saved snapshot comes back as a Blob of its bytes, for the worker to read", async () => {
  await saveSnapshot(PYODIDE, "d1", new Uint8Array([1, 2, 3, 250]));
  const blob = await loadSnapshot(PYODIDE, "d1");
  assert.ok(blob instanceof Blob);
  assert.deepEqual([...new Uint8Array(await blob.arrayBuffer())], [1, 2, 3, 250]);
});

test("another engine's or Pyodide's snapshot is not handed out, and a new one replaces it", async () => {
  await saveSnapshot(PYODIDE, "d1", new Uint8Array([1]));
  assert.equal(await loadSnapshot(PYODIDE, "d2"), null);
  assert.equal(await loadSnapshot("https://fuba.test/static/pyodide/0.30.0/", "d1"), null);
  await saveSnapshot(PYODIDE, "d2", new Uint8Array([2]));
  assert.equal(cache.entries.size, 1);
  assert.equal(await loadSnapshot(PYODIDE, "d1"), null);
  assert.deepEqual([...new Uint8Array(await (await loadSnapshot(PYODIDE, "d2")).arrayBuffer())], [2]);
});

test("a dropped snapshot is gone; without Cache Storage there is none and saving does nothing", async () => {
  await saveSnapshot(PYODIDE, "d3", new Uint8Array([3]));
  await dropSnapshot(PYODIDE, "d3");
  assert.equal(await loadSnapshot(PYODIDE, "d3"), null);
  const saved = globalThis.caches;
  delete globalThis.caches;
  try {
    assert.equal(await loadSnapshot(PYODIDE, "d3"), null);
    await saveSnapshot(PYODIDE, "d3", new Uint8Array([3]));
  } finally {
    globalThis.caches = saved;
  }
  assert.equal(cache.entries.size, 0);
});
