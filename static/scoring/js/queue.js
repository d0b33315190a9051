/* THE TAP QUEUE of the local-first scorer: what this phone entered, in order, until the server
   stored it (docs/scorer-internals.md, "The tap protocol").

   One tap is one op: every event the tap entered (the answer, the answer it implies, the roll's
   dice) and the answers the page gives by itself right after it, judged one by one by the phone's
   engine. Everything that touches the engine runs one job at a time (serial: a promise chain), so
   two taps never interleave and an op's place in the queue is fixed when it is queued. Ops are
   kept in IndexedDB (local-store.js) and posted one at a time, each as one batch naming the
   stored event it extends (taps.js batchBody), asking the light answer (the phone's engine draws
   the match; the server says only what the tap changed of the session). The server's answers:
     201/200  stored (200: it repeats what is stored): the op joins the phone's base, the light
              state is merged into the session state held; a roll the server made for it
              (roll_for_me) is applied by the phone's engine then;
     409      stale_head: if what is stored since is this phone's own (answers lost) or equal, the
              queue moves on; else a real other phone: the phone's unused taps go to a side
              branch, the phone shows the match as stored and says so until acknowledged;
     422      the server refused what this phone's engine accepted: the queue stops sending, the
              bar says so and keeps saying it; the phone goes on scoring on its own engine.
   App dice: online the server rolls (a trailing roll_for_me, the page waits for its dice);
   offline the phone rolls with crypto.getRandomValues (rolled_offline), but never for an op a
   post of which may have reached the server. This module knows no DOM: deps give it the engine,
   the store, the network and the screen (tests/js/queue.test.mjs runs it under Node). */
import {
  batchBody, compareStored, conflictText, dropStored, offlineRoll, refusalText, tapCount, uid,
} from "./taps.js";

const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000, 30000];

/* deps: { engine, store, post(path, body) -> Promise<{ok, status, body}> (rejects: no answer),
   getLog() -> Promise<{header, events}>, show() -> Promise, emit(kind, value), online() -> bool,
   side, random (tests), timer(fn, ms) }. record: { header, names, base, server }. */
export function createQueue(deps, record, ops) {
  const q = {
    deps: deps, record: record, ops: ops || [], view: null, chain: Promise.resolve(), jobs: 0,
    gathering: null, sending: false, blocked: null, offline: false, tries: 0, retry: null,
    lastUndo: null, stopped: false,
  };
  return {
    q: q,
    send: (body, opt) => gather(q, body, opt),
    undo: (reason) => serial(q, () => undoJob(q, reason || "")),
    finish: (body) => serial(q, () => queueOp(q, { kind: "finish", body: body || {} })),
    flush: () => flush(q),
    serial: (fn) => serial(q, fn),
    reopen: () => reopen(q),
    idle: () => idle(q),
    rolling: () => rolling(q),
    wentOffline: () => wentOffline(q),
    status: () => statusOf(q),
  };
}

function idle(q) { return q.jobs === 0 && !q.gathering; }
function emit(q, kind, value) { q.deps.emit(kind, value); }
function nextN(q) { return q.ops.length ? q.ops[q.ops.length - 1].n + 1 : Date.now(); }
function head(q) { const b = q.record.base; return b.length ? b[b.length - 1].client_id : ""; }
function awaitingRoll(op) {
  return op.kind === "tap" && op.items.length > 0 && !!op.items[op.items.length - 1].roll_for_me;
}
function rolling(q) { return q.ops.some(awaitingRoll); }
function appDice(q) { return !!(q.record.server && q.record.server.app_dice); }
function onlineNow(q) { return !q.offline && q.deps.online(); }

export function statusOf(q) {
  return {
    waiting: q.ops.length, taps: tapCount(q.ops), offline: q.offline || !q.deps.online(),
    blocked: q.blocked ? q.blocked.message : "", rolling: rolling(q),
    // a tap still being judged by the phone's engine (not yet an op): the page is not settled
    judging: !idle(q),
  };
}
function status(q) { emit(q, "status", statusOf(q)); }

// Everything that touches the engine or the queue's order, one job at a time.
function serial(q, fn) {
  q.jobs += 1;
  // the page says it is busy from the job's start (a poll's events taken in, a 409 settled):
  // its seq may change in the job, and an answer the page gives by itself may follow
  if (q.jobs === 1 && !q.gathering) status(q);
  const run = q.chain.then(fn);
  q.chain = run.catch((err) => {
    emit(q, "refused", { message: "This phone could not keep this tap: " + err.message, stale: false, auto: false });
  }).then(() => {
    q.jobs -= 1;
    if (idle(q)) status(q); // the page says when its last tap is judged (data-judging)
    kick(q);
  });
  return run;
}
function kick(q) { q.deps.timer(() => flush(q), 0); }

/* send() calls made in one tick are one tap (answer.js sends an answer and the next answer, or
   an answer and its roll, from one click): they are committed together, after the jobs before. */
function gather(q, body, opt) {
  if (!q.gathering) {
    q.gathering = [];
    Promise.resolve().then(() => {
      const bodies = q.gathering;
      q.gathering = null;
      serial(q, () => commit(q, bodies));
    });
    // Said at once, in the tap's own click: until its op is queued the queue is empty, and a
    // page that still said "settled" then let the other phone take over on the seq this tap
    // is about to extend (the chaos bench's second conflicts under load, 2026-11-30).
    status(q);
  }
  q.gathering.push({ body: body, auto: !!(opt && opt.auto) });
}

// Whether a tap answers the question the engine asks now: a second tap on a question the tap
// before it already answered (a double tap, a tap while the page redraws) answers nothing.
function answersPending(q, body) {
  const p = q.view && q.view.view ? q.view.view.pending : null;
  if (!p) return false;
  if (body.roll_for_me) return p.kind === "roll";
  const e = body.event || {};
  const name = p.kind === "roll" ? e.roll : e.decide;
  return name === p.name && e.by === p.actor;
}

async function commit(q, bodies) {
  // While the server rolls this phone's dice the page waits: a tap on what it showed before
  // (its "Roll" again) would answer a question that is gone once the dice land.
  if (rolling(q) || !answersPending(q, bodies[0].body)) return;
  const user = bodies.some((b) => !b.auto);
  const last = q.ops[q.ops.length - 1];
  // The page's own answers join the tap they follow while it is still on the phone.
  const join = !user && last && last.kind === "tap" && !last.sent && !awaitingRoll(last);
  const state = q.view && q.view.view ? q.view.view.state : null;
  const op = join ? last : {
    n: nextN(q), kind: "tap", tap_id: uid(), items: [], taps: user ? 1 : 0,
    minute: state ? state.minute : "", sent: false,
  };
  const before = op.items.length;
  for (const b of bodies) {
    const item = await entry(q, b);
    if (!item) break;
    op.items.push(item);
    if (item.roll_for_me) break; // nothing follows a roll the server is still to make
  }
  if (op.items.length === before) return;
  if (!join) q.ops.push(op);
  q.lastUndo = null;
  await q.deps.store.addOp(op);
  status(q);
  await q.deps.show();
}

async function entry(q, b) {
  const body = b.body;
  if (body.roll_for_me) {
    const p = q.view && q.view.view.pending;
    if (!p || p.kind !== "roll") return null; // the roll was made meanwhile
    if (onlineNow(q)) return { client_id: uid(), roll_for_me: true };
    return applyItem(q, offlineRoll(p, q.deps.random), { rolled_offline: true }, b.auto);
  }
  if (appDice(q) && body.event && body.event.roll) {
    emit(q, "refused", { message: "This session uses app dice: the app rolls every roll.", stale: false, auto: b.auto });
    return null;
  }
  return applyItem(q, body.event, {}, b.auto);
}

async function applyItem(q, event, extra, auto) {
  const res = await q.deps.engine.apply(event);
  if (!res.ok) {
    emit(q, "refused", { message: res.error.message, stale: false, auto: auto });
    return null;
  }
  q.view = res;
  return Object.assign({ client_id: uid(), event: res.event }, extra);
}

async function queueOp(q, op) {
  op.n = nextN(q);
  q.ops.push(op);
  await q.deps.store.addOp(op);
  status(q);
}

// The phone's events: the stored base, then its own taps and undos on top.
export function localEvents(q) {
  const side = q.deps.side || "home";
  const events = q.record.base.map((r) => ({ seq: r.seq, data: r.event, side: r.side, rolled_by_app: r.rolled_by_app }));
  q.ops.forEach((op) => {
    if (op.kind === "undo") events.pop();
    if (op.kind !== "tap") return;
    op.items.forEach((it) => {
      if (!it.roll_for_me) events.push({ seq: events.length + 1, data: it.event, side: side, rolled_by_app: !!it.rolled_offline });
    });
  });
  return events;
}

async function undoJob(q, reason) {
  if (rolling(q)) {
    emit(q, "refused", { message: "The dice are being rolled: undo once they are shown.", stale: false, auto: false });
    return;
  }
  const events = localEvents(q);
  if (!events.length) return;
  const last = q.ops[q.ops.length - 1];
  const lines = await q.deps.engine.call("lines", [events[events.length - 1]]);
  if (last && last.kind === "tap" && !last.sent) {
    last.items.pop(); // an event that never left the phone is simply taken back
    if (!last.items.length) { q.ops.pop(); await q.deps.store.removeOps([last.n]); }
    else await q.deps.store.addOp(last);
  } else {
    await queueOp(q, { kind: "undo", reason: reason });
  }
  q.view = await q.deps.engine.undo();
  q.lastUndo = { seq: events.length, text: lines.length ? lines[0].text : "", reason: reason };
  status(q);
  await q.deps.show();
}

export function reopen(q) {
  const r = q.record;
  const tie = (r.server || {}).tie;
  return q.deps.engine.open(r.header, r.names, localEvents(q).map((e) => e.data), tie).then((v) => {
    if (!v.ok) throw new Error("the phone's engine refused the stored events: " + v.error.message);
    q.view = v;
  });
}

// ------------------------------------------------------------------ sending

function bodyOf(q, op) {
  // the answer's state is light (what a tap changes of the session: status, seq, head, version,
  // participants, result, shootout): this phone's engine draws the match itself
  if (op.kind === "tap") return Object.assign(batchBody(op, head(q), q.record.base.length), { answer: "light" });
  if (op.kind === "undo") return { after: head(q), after_seq: q.record.base.length, reason: op.reason || "" };
  return op.body;
}
const PATHS = { tap: "/events", undo: "/undo", finish: "/finish" };

export function flush(q, retrying) {
  if (q.sending || q.blocked || q.stopped || !q.ops.length) return;
  // Known offline, nothing is posted (so an op never posted stays the phone's to take back or to
  // roll); the poll, the browser's "online" event or the backoff's retry try again.
  if (!q.deps.engine || !q.deps.online() || (q.offline && !retrying)) return;
  // The last op is sent once its tap is whole (the page's answers after it joined it).
  if (q.ops.length === 1 && !idle(q)) return;
  const op = q.ops[0];
  q.sending = true;
  const mark = op.kind === "tap" && !op.sent ? (op.sent = true, q.deps.store.addOp(op)) : Promise.resolve();
  mark.then(() => q.deps.post(PATHS[op.kind], bodyOf(q, op)))
    .then((res) => answered(q, op, res), () => unanswered(q))
    .then((goOn) => {
      q.sending = false;
      status(q);
      if (goOn) flush(q);
    }, () => {
      // The answer could not be followed up (the log unread, the side branch unsent): nothing
      // was dropped, the same post goes again later.
      q.sending = false;
      later(q);
      status(q);
    });
}

function unanswered(q) {
  // No answer: the server may have stored it all the same; the resend (same tap id) settles it.
  q.offline = true;
  later(q);
  wentOffline(q);
  return false;
}

function later(q) {
  if (q.retry || q.blocked) return;
  const wait = BACKOFF_MS[Math.min(q.tries, BACKOFF_MS.length - 1)];
  q.tries += 1;
  q.retry = q.deps.timer(() => { q.retry = null; flush(q, true); }, wait);
}

function answered(q, op, res) {
  q.offline = false;
  q.tries = 0;
  if (res.ok) return stored(q, op, res.body).then(() => true);
  if (res.status >= 500 || res.status === 429) { later(q); return false; }
  if (res.status === 409 && op.kind !== "finish" && isStale(res)) return stale(q, op, res);
  if (op.kind === "tap") { refusedTap(q, res); return false; }
  // A refused undo or confirmation: dropped, the match shown as stored, the reason said.
  q.ops.shift();
  return q.deps.store.removeOps([op.n]).then(() => catchUp(q)).then(() => serial(q, () => reopenAndShow(q)))
    .then(() => {
      const err = res.body && res.body.error;
      emit(q, "refused", { message: err ? err.message : "HTTP " + res.status, stale: false, auto: false });
      return true;
    });
}

function isStale(res) {
  const err = res.body && res.body.error;
  return !err || !err.code || err.code === "stale_head" || err.code === "stale_sequence";
}

async function stored(q, op, body) {
  const rows = op.kind === "tap" ? body.stored || [] : [];
  rows.forEach((r) => q.record.base.push({
    seq: r.seq, client_id: r.client_id, event: r.event, side: r.side,
    rolled_by_app: !!r.rolled_by_app, rolled_offline: !!r.rolled_offline,
  }));
  if (op.kind === "undo") q.record.base.pop();
  // a tap's light state is merged into the session state held (teams, areas, tie, dice… stay)
  q.record.server = op.kind === "tap" ? Object.assign({}, q.record.server, body.state) : body;
  q.ops.shift();
  await q.deps.store.settle(op.n, q.record);
  if (op.kind === "tap" && awaitingRoll(op)) {
    await serial(q, () => applyServerRoll(q, rows[rows.length - 1]));
  } else if (op.kind === "finish" || (op.kind === "tap" && rows.length !== op.items.length)) {
    await serial(q, () => reopenAndShow(q));
  }
}

// The dice the server rolled for this phone's roll_for_me, entered by the phone's engine.
async function applyServerRoll(q, row) {
  const res = row ? await q.deps.engine.apply(row.event) : { ok: false, error: { message: "no roll in the answer" } };
  if (!res.ok) {
    block(q, { reason: "the phone's engine refused the server's roll: " + res.error.message });
    return;
  }
  q.view = res;
  await q.deps.show();
}

async function reopenAndShow(q) {
  await reopen(q);
  await q.deps.show();
}

function block(q, details, message) {
  q.blocked = { details: details || {}, message: refusalText(details, message) };
  emit(q, "blocked", q.blocked);
  status(q);
}

function refusedTap(q, res) {
  const err = (res.body && res.body.error) || {};
  block(q, err.details || {}, err.message || "HTTP " + res.status);
}

// Offline with a roll the server was to make for a tap not yet posted: the phone rolls it.
function wentOffline(q) {
  const last = q.ops[q.ops.length - 1];
  if (!last || last.sent || !awaitingRoll(last)) return;
  serial(q, async () => {
    if (last.sent || !awaitingRoll(last) || q.ops[q.ops.length - 1] !== last) return;
    const p = q.view && q.view.view.pending;
    if (!p || p.kind !== "roll") return;
    const item = await applyItem(q, offlineRoll(p, q.deps.random), { rolled_offline: true }, true);
    if (!item) return;
    last.items[last.items.length - 1] = item;
    await q.deps.store.addOp(last);
    status(q);
    await q.deps.show();
  });
}

// ------------------------------------------------------------------ the match as stored

// The stored events (GET …/log) become the base; ops the server stored already leave the queue.
// The reads happen first, outside any job (a request that hangs must hold no tap back); the
// change of the record runs as a job of its own.
export async function catchUp(q) {
  const log = await q.deps.getLog();
  const state = q.deps.getState ? await q.deps.getState() : null;
  return serial(q, () => adoptLog(q, log, state));
}

export async function adoptLog(q, log, state) {
  q.record.header = log.header;
  q.record.base = log.events;
  const held = new Set(log.events.map((e) => e.client_id));
  const settled = q.ops.filter((o) => o.kind === "tap" && o.items.every((it) => held.has(it.client_id))).map((o) => o.n);
  if (settled.length) {
    q.ops = q.ops.filter((o) => settled.indexOf(o.n) < 0);
    await q.deps.store.removeOps(settled);
  }
  if (state) q.record.server = state;
  await q.deps.store.saveMatch(q.record);
  return log;
}

/* A poll's answer (live.json) taken in: true once the phone holds the match it describes, false
   when it was put aside because the phone's own taps go first (the poll must read it again). */
export async function followLive(q, d) {
  if (q.ops.length || q.sending || !idle(q)) return false;
  const newer = d.seq !== q.record.base.length || d.version !== (q.record.server || {}).version;
  if (!newer) return true;
  // The same number of events is the same match only if it ends with the same event: the other
  // phone may have taken one back and entered another in one poll's time (a tap on top of the
  // old head would be refused and kept as a side branch, though nothing of this phone's was lost).
  if (d.seq === q.record.base.length && (d.head === undefined || d.head === head(q))) {
    return serial(q, async () => {
      if (q.ops.length) return false; // a tap came in meanwhile: it goes first
      q.record.server = d;
      await q.deps.store.saveMatch(q.record);
      await q.deps.show();
      return true;
    });
  }
  // the other phone's events: read first, then taken in one job (never a request in a job)
  const log = await q.deps.getLog();
  return serial(q, async () => {
    if (q.ops.length) return false;
    await adoptLog(q, log, d);
    await reopen(q);
    await q.deps.show();
    return true;
  });
}

/* 409: the post does not extend the stored head. What is stored since is read whole (GET …/log)
   and compared with what this phone holds, in a job of its own (no tap lands half way): its own
   lost answers, or the same events, are no conflict. */
async function stale(q, op, res) {
  const details = (res.body && res.body.error && res.body.error.details) || {};
  const log = await q.deps.getLog();
  return serial(q, () => settleStale(q, log, details));
}

async function settleStale(q, log, details) {
  const cmp = compareStored(log.events, q.record.base, q.ops);
  const known = Math.max(0, cmp.same - q.record.base.length);
  const left = dropStored(q.ops, known, uid);
  q.record.header = log.header;
  if (details.state) q.record.server = details.state;
  if (!cmp.own) return sideBranch(q, cmp, left, log, details);
  q.ops = left.ops;
  q.record.base = log.events;
  await q.deps.store.removeOps(left.removed);
  for (const o of q.ops) await q.deps.store.addOp(o);
  await q.deps.store.saveMatch(q.record);
  await reopenAndShow(q);
  return true;
}

async function sideBranch(q, cmp, left, log, details) {
  const unused = left.ops;
  const firstTap = unused.find((o) => o.kind === "tap");
  const items = [];
  unused.forEach((o) => { if (o.kind === "tap") o.items.forEach((it) => { if (!it.roll_for_me) items.push(it); }); });
  const from = q.record.base.length + (cmp.same > q.record.base.length ? cmp.same - q.record.base.length : 0) + 1;
  if (items.length) {
    const res = await q.deps.post("/side-branches", {
      branch_id: items[0].client_id, from_seq: from, from_minute: String(firstTap ? firstTap.minute : ""),
      events: items.map((it) => ({ client_id: it.client_id, event: it.event })),
    }); // no answer rejects: nothing dropped, the post is tried again later
    if (res.status >= 500) throw new Error("the side branch was not stored (HTTP " + res.status + ")");
  }
  const recorded = (details.stored_since || []).filter((r) => r.seq > cmp.same);
  const message = conflictText(tapCount(unused), firstTap ? firstTap.minute : "", recorded);
  const all = q.ops.map((o) => o.n);
  q.ops = [];
  q.record.base = log.events;
  await q.deps.store.removeOps(all);
  await q.deps.store.saveMatch(q.record);
  await reopenAndShow(q);
  emit(q, "conflict", { message: message, taps: tapCount(unused), recorded: recorded });
  return true;
}
