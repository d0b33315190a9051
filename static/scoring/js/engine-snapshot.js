/* A memory snapshot of the local engine, kept on this phone (Cache Storage, not the network): the
   interpreter right after the engine's modules were imported (Pyodide's makeMemorySnapshot). A
   start from it skips Python's start-up and the imports, most of a cold start (docs/scorer.md,
   "Measured: the local engine"). One snapshot is kept, keyed by Pyodide's URL and the engine's
   digest: a new engine or Pyodide gets a new key, and the older snapshot (about 21 MB) is dropped.
   It is handed out as a Blob, not read: Response.blob() of a cached response is a handle to the
   stored bytes, while Response.arrayBuffer() copies 21 MB in on the page's thread (at 4x CPU
   throttling that delayed every other file the page read by ~0.15 s). The worker reads the Blob,
   off the page's thread (engine-worker.js init). */

const CACHE = "fuba-engine-snapshot-v1";

function key(pyodide, digest) {
  return new URL("/score/engine/snapshot?pyodide=" + encodeURIComponent(pyodide) + "&digest=" + digest, location.href).href;
}

function open() {
  return "caches" in self ? caches.open(CACHE) : Promise.reject(new Error("no Cache Storage"));
}

export function loadSnapshot(pyodide, digest) {
  return open().then((c) => c.match(key(pyodide, digest)))
    .then((hit) => (hit ? hit.blob() : null))
    .catch(() => null);
}

export function saveSnapshot(pyodide, digest, bytes) {
  const wanted = key(pyodide, digest);
  return open().then((c) => c.keys().then((old) => Promise.all(old.filter((r) => r.url !== wanted).map((r) => c.delete(r))))
    .then(() => c.put(wanted, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }))))
    .catch(() => {});
}

export function dropSnapshot(pyodide, digest) {
  return open().then((c) => c.delete(key(pyodide, digest))).catch(() => {});
}
