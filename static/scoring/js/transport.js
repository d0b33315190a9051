/* TRANSPORT: how the scorer's taps reach the server and the server's state reaches the page.

   Interface (the seam a local-first transport replaces; main.js uses nothing else of this module):

     const t = createTransport({ apiUrl, liveUrl, csrf, storeKey });
     t.onState(fn)      fn(state): a newer session state (the JSON of GET /api/v1/scoring-sessions/<id>),
                        after a post was answered or a poll found a new version, only while no tap is
                        waiting (a waiting tap answers the question on screen, not a newer one).
     t.onStatus(fn)     fn({ waiting, offline }): taps queued on this phone, connection lost or not.
     t.onRefused(fn)    fn({ message, stale, auto }): the server refused the first waiting tap; the taps
                        queued behind it are dropped (they answered a question no longer asked);
                        stale is true when another device wrote first (HTTP 409), auto when the
                        refused tap was one the page made itself (send(body, {auto: true})).
     t.send(body, opt)  queue one event: body is { event: {roll|decide, by, dice|choice} } or
                        { roll_for_me: true }; client_id and expected_seq are added here.
     t.undo(reason)     take back the last tap still waiting on this phone, else queue an undo.
     t.post(path, body) a one-off POST to apiUrl + path (finish, abandon):
                        Promise<{ ok, status, body }>; rejects when offline.
     t.waiting()        number of taps queued (0 when everything is stored).
     t.start()          first poll, then a poll every 1.5 s; sends what the phone kept across a reload.

   Taps are kept in localStorage (storeKey) until the server stored them, and sent one at a time in
   order; the server answers each with the whole state. Spectators use the same object with no
   writes: polling live.json with ETags (docs/scorer-internals.md). */

const POLL_MS = 1500;

function uid() {
  const a = new Uint8Array(12);
  window.crypto.getRandomValues(a);
  return Array.prototype.map.call(a, (b) => ("0" + b.toString(16)).slice(-2)).join("");
}

export function createTransport({ apiUrl, liveUrl, csrf, storeKey }) {
  let data = null; // last state from the server
  let etag = null;
  let queue = load(); // taps not yet stored by the server, in order
  let sending = false;
  let offline = false;
  const listeners = { state: [], status: [], refused: [] };

  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey) || "[]"); } catch (e) { return []; }
  }
  function save() {
    try { localStorage.setItem(storeKey, JSON.stringify(queue)); } catch (e) { /* private mode */ }
  }
  function emit(kind, value) { listeners[kind].forEach((fn) => fn(value)); }
  function status() { emit("status", { waiting: queue.length, offline: offline || !navigator.onLine }); }
  function accept(state) {
    data = state;
    if (!queue.length) emit("state", state);
    status();
  }
  function localSeq() {
    let s = data ? data.seq : 0;
    queue.forEach((it) => { s += it.kind === "event" ? 1 : -1; });
    return s;
  }

  function post(path, body) {
    return fetch(apiUrl + path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json().then((j) => ({ ok: r.ok, status: r.status, body: j }),
      () => ({ ok: r.ok, status: r.status, body: null })));
  }

  function flush() {
    if (sending || !queue.length) return;
    sending = true;
    const item = queue[0];
    post(item.path, item.body).then((res) => {
      sending = false;
      offline = false;
      if (res.ok) {
        queue.shift();
        save();
        accept(res.body);
        flush();
        return;
      }
      const err = res.body && res.body.error;
      queue = [];
      save();
      const stale = res.status === 409 && !!(err && err.details && err.details.state);
      if (stale) accept(err.details.state);
      else status();
      emit("refused", {
        message: err ? err.message : "The server refused this (" + res.status + ").",
        stale: stale,
        auto: !!item.auto,
      });
    }, () => {
      sending = false;
      offline = true;
      status();
    });
  }

  function poll() {
    const headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    return fetch(liveUrl, { credentials: "same-origin", headers: headers, cache: "no-cache" }).then((r) => {
      if (r.status === 304) { if (offline) { offline = false; status(); } return; }
      if (!r.ok) return;
      etag = r.headers.get("ETag");
      return r.json().then((d) => {
        offline = false;
        // A poll sent before a post may be answered after it: an older version is not taken
        // back (the page would ask an answered question again, and the next tap be refused).
        if (!sending && !queue.length && (!data || d.version > data.version)) accept(d);
        else status();
      });
    }, () => { offline = true; status(); });
  }

  return {
    onState(fn) { listeners.state.push(fn); },
    onStatus(fn) { listeners.status.push(fn); },
    onRefused(fn) { listeners.refused.push(fn); },
    waiting() { return queue.length; },
    send(body, opt) {
      const full = Object.assign({}, body, { client_id: uid(), expected_seq: localSeq() + 1 });
      queue.push({ kind: "event", path: "/events", body: full, auto: !!(opt && opt.auto) });
      save();
      status();
      flush();
    },
    undo(reason) {
      const last = queue[queue.length - 1];
      if (last && last.kind === "event" && !(sending && queue.length === 1)) {
        queue.pop(); // a tap that never reached the server is simply taken back
        save();
        status();
        if (!queue.length && data) emit("state", data);
        return;
      }
      queue.push({ kind: "undo", path: "/undo", body: { expected_seq: localSeq(), reason: reason || "" } });
      save();
      status();
      flush();
    },
    post: post,
    start() {
      window.addEventListener("online", () => { offline = false; status(); flush(); });
      window.addEventListener("offline", () => { offline = true; status(); });
      const first = poll().then(() => { if (queue.length) flush(); });
      setInterval(() => { if (queue.length && !sending) flush(); poll(); }, POLL_MS);
      return first;
    },
  };
}
