/* OFFLINE STORE of the local-first scorer: IndexedDB, so that taps survive a reload, a browser
   restart or a phone running out of battery between a tap and its sending.

   Database "fuba-scorer", two object stores:
     matches  key session id: { session, header, names, digest, base, server }
              base: the session's events as stored by the server ([{seq, client_id, event, side,
              rolled_by_app}]), server: the last session state the server sent
     ops      key [session, n]: what this phone did and has not had stored yet, in order n:
              { kind: "event", client_id, expected_seq, event, minute } | { kind: "undo", expected_seq,
              reason } | { kind: "finish", body }
   Every write resolves once IndexedDB committed it: a tap is on the phone before it is sent. */

const DB = "fuba-scorer";

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("IndexedDB transaction aborted"));
  });
}

export function openStore(session) {
  const open = indexedDB.open(DB, 1);
  open.onupgradeneeded = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains("matches")) db.createObjectStore("matches", { keyPath: "session" });
    if (!db.objectStoreNames.contains("ops")) db.createObjectStore("ops", { keyPath: ["session", "n"] });
  };
  return request(open).then((db) => {
    const range = IDBKeyRange.bound([session, 0], [session, Number.MAX_SAFE_INTEGER]);
    return {
      loadMatch() {
        return request(db.transaction("matches").objectStore("matches").get(session));
      },
      saveMatch(record) {
        const tx = db.transaction("matches", "readwrite");
        tx.objectStore("matches").put(Object.assign({}, record, { session: session }));
        return done(tx);
      },
      loadOps() {
        return request(db.transaction("ops").objectStore("ops").getAll(range));
      },
      addOp(op) {
        const tx = db.transaction("ops", "readwrite");
        tx.objectStore("ops").put(Object.assign({}, op, { session: session }));
        return done(tx);
      },
      // An op stored by the server leaves the queue in the same transaction as the new base.
      settle(n, record) {
        const tx = db.transaction(["ops", "matches"], "readwrite");
        if (n !== null) tx.objectStore("ops").delete([session, n]);
        tx.objectStore("matches").put(Object.assign({}, record, { session: session }));
        return done(tx);
      },
      removeOps(ns) {
        const tx = db.transaction("ops", "readwrite");
        ns.forEach((n) => tx.objectStore("ops").delete([session, n]));
        return done(tx);
      },
    };
  });
}
