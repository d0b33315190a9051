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
     t.send(body, opt)  one event of a tap: body is { event: {roll|decide, by, dice|choice} } or
                        { roll_for_me: true }; the sends of one tick are one tap, posted as one batch
                        (docs/scorer-internals.md, "The tap protocol"; client ids added here).
     t.undo(reason)     take back the last tap still waiting on this phone, else queue an undo.
     t.post(path, body) a one-off POST to apiUrl + path (finish, abandon):
                        Promise<{ ok, status, body }>; rejects when offline.
     t.waiting()        number of taps queued (0 when everything is stored).
     t.blocking()       the same: the answers wait for the server's next question.
     t.start()          first poll, then a poll every 1.5 s; sends what the phone kept across a reload.

   Taps are kept in localStorage (storeKey) until the server stored them, and sent one at a time in
   order, each naming the stored event it extends (`after`); the server answers each with the whole
   state. Spectators use the same object with no writes: polling live.json with ETags. */
import { batchBody, uid } from "./taps.js";
import { postJSON } from "./http.js";

const POLL_MS = 1500;

function post(apiUrl, csrf, path, body) {
  return postJSON(apiUrl + path, csrf, body);
}

// The sends of one tick as one tap: a roll the server makes ends it.
export function tapOf(bodies) {
  const items = [];
  for (const b of bodies) {
    items.push(b.body.roll_for_me ? { client_id: uid(), roll_for_me: true } : { client_id: uid(), event: b.body.event });
    if (b.body.roll_for_me) break;
  }
  return { kind: "tap", tap_id: uid(), items: items, auto: bodies.every((b) => b.auto) };
}

export function createTransport({ apiUrl, liveUrl, csrf, storeKey }) {
  const s = {
    data: null, etag: null, queue: load(storeKey), sending: false, offline: false, gathering: null,
    head: null, // the stored head (client id, seq) the next post extends; null: read it first
    listeners: { state: [], status: [], refused: [] },
  };
  const io = {
    post: (path, body) => post(apiUrl, csrf, path, body),
    log: () => fetch(apiUrl + "/log", { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-cache" })
      .then((r) => { if (!r.ok) throw new Error("log: HTTP " + r.status); return r.json(); }),
    save: () => { try { localStorage.setItem(storeKey, JSON.stringify(s.queue)); } catch (e) { /* private mode */ } },
  };
  return {
    local: false,
    onState(fn) { s.listeners.state.push(fn); },
    onStatus(fn) { s.listeners.status.push(fn); },
    onRefused(fn) { s.listeners.refused.push(fn); },
    // the server judges every tap here: no other phone's stretch to tell, no refusal to get round
    onConflict() {},
    sendWholeMatch: () => Promise.resolve({ ok: false, status: 409, body: { error: { message: "Only a phone scoring on its own engine sends the whole match." } } }),
    waiting() { return s.queue.length; },
    blocking() { return s.queue.length; },
    send(body, opt) { gather(s, io, body, opt); },
    undo(reason) { undo(s, io, reason); },
    post: io.post,
    start() {
      window.addEventListener("online", () => { s.offline = false; status(s); flush(s, io); });
      window.addEventListener("offline", () => { s.offline = true; status(s); });
      const first = poll(s, liveUrl).then(() => { if (s.queue.length) flush(s, io); });
      setInterval(() => { if (s.queue.length && !s.sending) flush(s, io); poll(s, liveUrl); }, POLL_MS);
      return first;
    },
  };
}

function load(storeKey) {
  try {
    // an older page's single events ("path"/"body") are dropped: their post shape is gone
    return JSON.parse(localStorage.getItem(storeKey) || "[]").filter((it) => it.kind === "tap" || (it.kind === "undo" && !it.path));
  } catch (e) { return []; }
}
function emit(s, kind, value) { s.listeners[kind].forEach((fn) => fn(value)); }
function status(s) { emit(s, "status", { waiting: s.queue.length, offline: s.offline || !navigator.onLine }); }
function accept(s, state) {
  if (state && typeof state.head === "string") s.head = { id: state.head, seq: state.seq };
  else if (state && s.head && state.seq !== s.head.seq) s.head = null;
  s.data = state;
  if (!s.queue.length) emit(s, "state", state);
  status(s);
}

function gather(s, io, body, opt) {
  if (!s.gathering) {
    s.gathering = [];
    Promise.resolve().then(() => {
      const tap = tapOf(s.gathering);
      s.gathering = null;
      s.queue.push(tap);
      io.save();
      status(s);
      flush(s, io);
    });
  }
  s.gathering.push({ body: body, auto: !!(opt && opt.auto) });
}

function undo(s, io, reason) {
  const last = s.queue[s.queue.length - 1];
  if (last && last.kind === "tap" && !(s.sending && s.queue.length === 1)) {
    s.queue.pop(); // a tap that never reached the server is simply taken back
    io.save();
    status(s);
    if (!s.queue.length && s.data) emit(s, "state", s.data);
    return;
  }
  s.queue.push({ kind: "undo", reason: reason || "" });
  io.save();
  status(s);
  flush(s, io);
}

// The stored head, read from the log when no answer gave it (start, after an undo).
function knownHead(s, io) {
  if (s.head) return Promise.resolve(s.head);
  return io.log().then((log) => {
    const last = log.events[log.events.length - 1];
    s.head = { id: last ? last.client_id : "", seq: log.events.length };
    return s.head;
  });
}

function flush(s, io) {
  if (s.sending || !s.queue.length) return;
  s.sending = true;
  const item = s.queue[0];
  knownHead(s, io).then((h) => (item.kind === "tap"
    ? io.post("/events", batchBody(item, h.id, h.seq))
    : io.post("/undo", { after: h.id, after_seq: h.seq, reason: item.reason })))
    .then((res) => answered(s, io, item, res), () => {
      s.sending = false;
      s.offline = true;
      status(s);
    });
}

function answered(s, io, item, res) {
  s.sending = false;
  s.offline = false;
  if (res.ok) {
    s.queue.shift();
    io.save();
    if (item.kind === "tap") s.head = { id: res.body.head, seq: res.body.seq };
    else s.head = null; // an undo answers the state: the head before it is read when needed
    accept(s, item.kind === "tap" ? res.body.state : res.body);
    flush(s, io);
    return;
  }
  const err = res.body && res.body.error;
  const details = (err && err.details) || {};
  s.queue = [];
  io.save();
  const stale = res.status === 409 && !!details.state;
  if (stale) {
    s.head = typeof details.head === "string" ? { id: details.head, seq: details.seq } : null;
    accept(s, details.state);
  } else status(s);
  emit(s, "refused", {
    message: err ? err.message : "The server refused this (" + res.status + ").",
    stale: stale,
    auto: !!item.auto,
  });
}

function poll(s, liveUrl) {
  const headers = { Accept: "application/json" };
  if (s.etag) headers["If-None-Match"] = s.etag;
  return fetch(liveUrl, { credentials: "same-origin", headers: headers, cache: "no-cache" }).then((r) => {
    if (r.status === 304) { if (s.offline) { s.offline = false; status(s); } return; }
    if (!r.ok) return;
    s.etag = r.headers.get("ETag");
    return r.json().then((d) => {
      s.offline = false;
      // A poll sent before a post may be answered after it: an older version is not taken
      // back (the page would ask an answered question again, and the next tap be refused).
      if (!s.sending && !s.queue.length && (!s.data || d.version > s.data.version)) accept(s, d);
      else status(s);
    });
  }, () => { s.offline = true; status(s); });
}
