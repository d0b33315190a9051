// The local-first scorer's tap queue (static/scoring/js/queue.js) under Node's test runner, with a
// scripted engine, an in-memory store and a scripted server: one tap is one ordered batch, a 409
// of the phone's own events is no conflict, a repeat is answered as stored, a 422 keeps the bar's
// warning, app dice are rolled by the server online and by the phone only offline.
import { test } from "node:test";
import assert from "node:assert/strict";

import { createQueue, followLive } from "../../static/scoring/js/queue.js";
import { batchBody, compareStored, conflictText, fairFace, tapCount } from "../../static/scoring/js/taps.js";
import { tapOf } from "../../static/scoring/js/transport.js";

const ROLL = { kind: "roll", name: "movement", actor: "home", dice: 2, sides: 6 };
const ASK = { kind: "decision", name: "action", actor: "home" };

// An engine that takes everything except a decision "bad"; a roll is due after a decision "go".
function fakeEngine() {
  const events = [];
  const view = () => {
    const last = events[events.length - 1];
    const pending = last && last.choice === "go" ? ROLL : ASK;
    return { ok: true, seq: events.length, view: { state: { minute: String(3 + events.length) }, pending: pending } };
  };
  return {
    events: events,
    apply(event) {
      if (event.choice === "bad") return Promise.resolve({ ok: false, error: { message: "refused by the phone" } });
      events.push(event);
      return Promise.resolve(Object.assign(view(), { event: event }));
    },
    undo() { events.pop(); return Promise.resolve(view()); },
    open(header, names, list) { events.splice(0, events.length, ...list); return Promise.resolve(view()); },
    call(op, arg) { return Promise.resolve(op === "lines" ? arg.map(() => ({ text: "line" })) : {}); },
  };
}

function fakeStore() {
  const ops = new Map();
  return {
    ops: ops,
    saved: null,
    addOp(op) { ops.set(op.n, JSON.parse(JSON.stringify(op))); return Promise.resolve(); },
    removeOps(ns) { ns.forEach((n) => ops.delete(n)); return Promise.resolve(); },
    settle(n, record) { ops.delete(n); this.saved = JSON.parse(JSON.stringify(record)); return Promise.resolve(); },
    saveMatch(record) { this.saved = JSON.parse(JSON.stringify(record)); return Promise.resolve(); },
  };
}

// A server that stores batches on top of its head, rolls roll_for_me with 4 and 5, and lets a
// test answer a post its own way (answer(path, body, server) -> response or undefined).
function fakeServer() {
  const server = { events: [], posts: [], answer: null, unanswered: 0 };
  server.head = () => (server.events.length ? server.events[server.events.length - 1].client_id : "");
  server.store = (body) => {
    const rows = body.events.map((e, i) => ({
      seq: server.events.length + i + 1, client_id: e.client_id, side: "home",
      event: e.roll_for_me ? { roll: "movement", by: "home", dice: [4, 5], note: "rolled by the app" } : e.event,
      rolled_by_app: !!(e.roll_for_me || e.rolled_offline), rolled_offline: !!e.rolled_offline,
    }));
    server.events.push(...rows);
    return { ok: true, status: 201, body: { created: true, stored: rows, head: server.head(), seq: server.events.length, state: { seq: server.events.length } } };
  };
  server.post = (path, body) => {
    if (!server.online()) return Promise.reject(new Error("offline"));
    server.posts.push({ path: path, body: JSON.parse(JSON.stringify(body)) });
    // the post reaches the server, its answer never reaches the phone, which is offline then
    if (server.unanswered > 0) { server.unanswered -= 1; server.goOffline(); return Promise.reject(new Error("no answer")); }
    const own = server.answer && server.answer(path, body, server);
    if (own) return Promise.resolve(own);
    if (path === "/events") {
      if (body.after !== server.head()) return Promise.resolve(stale(server, body));
      return Promise.resolve(server.store(body));
    }
    return Promise.resolve({ ok: true, status: 201, body: {} });
  };
  server.getLog = () => Promise.resolve({ header: {}, events: JSON.parse(JSON.stringify(server.events)) });
  return server;
}

function stale(server, body) {
  const since = server.events.filter((e) => e.seq > body.after_seq).map((e) => ({ seq: e.seq, client_id: e.client_id, minute: "9", side: "away", text: "9' Canada: pass" }));
  return { ok: false, status: 409, body: { error: { code: "stale_head", message: "stale", details: { head: server.head(), seq: server.events.length, stored_since: since } } } };
}

function setup(options) {
  const engine = fakeEngine();
  const store = fakeStore();
  const server = fakeServer();
  const seen = { status: [], refused: [], conflict: [], blocked: [], shown: 0 };
  let online = true;
  let onShow = null;
  const retries = [];
  server.online = () => online;
  server.goOffline = () => { online = false; };
  const deps = {
    engine: engine, store: store, side: "home", post: server.post, getLog: server.getLog,
    // a retry after a backoff waits for the test (retries.run()): a loop of them keeps no test alive
    online: () => online, timer: (fn, ms) => (ms > 0 ? (retries.push(fn), retries.length) : setTimeout(fn, 0)),
    emit: (kind, value) => seen[kind].push(value),
    show: () => { seen.shown += 1; if (onShow) onShow(); return Promise.resolve(); },
    random: (buf) => { buf[0] = 2; return buf; }, // every offline die shows 3
  };
  const record = { header: {}, names: {}, base: [], server: { app_dice: !!(options && options.appDice) } };
  const queue = createQueue(deps, record, []);
  queue.q.view = { ok: true, view: { state: { minute: "3" }, pending: ASK } };
  return {
    engine, store, server, seen, queue, q: queue.q,
    setOnline(v) { online = v; }, onShow(fn) { onShow = fn; },
    retry() { const fns = retries.splice(0); fns.forEach((fn) => fn()); },
  };
}

// Until the queue has posted everything and every job ran.
async function settled(t, { posts } = {}) {
  for (let i = 0; i < 500; i++) {
    await new Promise((r) => setTimeout(r, 2));
    const done = t.queue.idle() && !t.q.sending && (!t.q.ops.length || t.q.blocked || t.queue.status().offline);
    if (done && (posts === undefined || t.server.posts.length >= posts)) return;
  }
  throw new Error("the queue did not settle: " + JSON.stringify({ ops: t.q.ops.length, posts: t.server.posts.length }));
}

const decide = (choice) => ({ event: { decide: "action", by: "home", choice: choice } });

test("two events sent in one tick are one tap: one batch, in order", async () => {
  const t = setup();
  t.queue.send(decide("done"));
  t.queue.send(decide("pass"));
  await settled(t, { posts: 1 });
  assert.equal(t.server.posts.length, 1);
  const body = t.server.posts[0].body;
  assert.equal(body.after, "");
  assert.equal(body.after_seq, 0);
  assert.deepEqual(body.events.map((e) => e.event.choice), ["done", "pass"]);
  assert.equal(new Set(body.events.map((e) => e.client_id)).size, 2);
  assert.deepEqual(t.q.record.base.map((r) => r.event.choice), ["done", "pass"]);
  assert.equal(t.seen.conflict.length, 0);
});

test("a tap asks the light answer, merged into the session state the phone holds", async () => {
  const t = setup({ appDice: true });
  t.q.record.server = Object.assign(t.q.record.server, { tie: { legs: 2 }, status: "live", version: 4, seq: 0 });
  t.server.answer = (path, body, server) => {
    const res = server.store(body);
    res.body.state = { session: 1, status: "full_time", seq: server.events.length, head: server.head(), version: 5 };
    return res;
  };
  t.queue.send(decide("done"));
  await settled(t, { posts: 1 });
  assert.equal(t.server.posts[0].body.answer, "light");
  const held = t.q.record.server;
  // what the tap changed is taken, what it did not say is kept (the tie, the dice)
  assert.deepEqual([held.status, held.seq, held.version, held.head], ["full_time", 1, 5, t.server.head()]);
  assert.deepEqual([held.app_dice, held.tie], [true, { legs: 2 }]);
  assert.deepEqual(t.store.saved.server, held);
});

test("taps queue strictly in order, each batch names the head the one before left", async () => {
  const t = setup();
  for (const c of ["a", "b", "c", "d"]) {
    t.queue.send(decide(c));
    await Promise.resolve(); // the next tap in the next tick, while the first is in flight
  }
  await settled(t, { posts: 4 });
  assert.deepEqual(t.server.events.map((e) => e.event.choice), ["a", "b", "c", "d"]);
  const posts = t.server.posts.map((p) => p.body);
  for (let i = 1; i < posts.length; i++) {
    assert.equal(posts[i].after, posts[i - 1].events[0].client_id);
    assert.equal(posts[i].after_seq, i);
  }
  assert.equal(t.store.ops.size, 0);
});

test("the page's automatic answer after a tap goes in the tap's batch", async () => {
  const t = setup();
  let once = true;
  t.onShow(() => { if (once) { once = false; t.queue.send(decide("only"), { auto: true }); } });
  t.queue.send(decide("pass"));
  await settled(t, { posts: 1 });
  assert.equal(t.server.posts.length, 1);
  assert.deepEqual(t.server.posts[0].body.events.map((e) => e.event.choice), ["pass", "only"]);
  assert.equal(t.q.ops.length, 0);
});

test("a 409 whose stored events are the phone's own lost answers is no conflict", async () => {
  const t = setup();
  // the first post is stored but its answer is lost; the phone then learns the head moved
  let lost = true;
  t.server.answer = (path, body, server) => {
    if (path !== "/events" || !lost) return undefined;
    lost = false;
    server.store(body);
    return { ok: false, status: 409, body: { error: { code: "stale_head", message: "stale", details: {} } } };
  };
  t.queue.send(decide("a"));
  await Promise.resolve();
  t.queue.send(decide("b"));
  await settled(t, { posts: 2 });
  assert.equal(t.seen.conflict.length, 0);
  assert.ok(!t.server.posts.some((p) => p.path === "/side-branches"));
  assert.deepEqual(t.server.events.map((e) => e.event.choice), ["a", "b"]);
  assert.deepEqual(t.q.record.base.map((r) => r.client_id), t.server.events.map((e) => e.client_id));
});

test("a repeat answered as stored (200) settles the tap without a word", async () => {
  const t = setup();
  t.server.answer = (path, body, server) => {
    if (path !== "/events") return undefined;
    const res = server.store(body);
    return { ok: true, status: 200, body: Object.assign(res.body, { created: false }) };
  };
  t.queue.send(decide("a"));
  await settled(t, { posts: 1 });
  assert.equal(t.q.ops.length, 0);
  assert.equal(t.seen.refused.length + t.seen.conflict.length, 0);
  assert.equal(t.q.record.base.length, 1);
});

test("another phone's stretch is a conflict: the line counts taps, not events", async () => {
  const t = setup();
  t.server.events.push({ seq: 1, client_id: "other-1", side: "away", event: { decide: "action", by: "away", choice: "x" }, rolled_by_app: false });
  t.queue.send(decide("done"));
  t.queue.send(decide("pass")); // one tap, two events
  await Promise.resolve();
  t.queue.send(decide("shoot"));
  await settled(t);
  assert.equal(t.seen.conflict.length, 1);
  const c = t.seen.conflict[0];
  assert.equal(c.taps, 2);
  assert.match(c.message, /^Your 2 taps from 3' were not used: the other phone had already recorded 9' \(9' Canada: pass\)/);
  const branch = t.server.posts.find((p) => p.path === "/side-branches");
  assert.deepEqual(branch.body.events.map((e) => e.event.choice), ["done", "pass", "shoot"]);
  assert.equal(branch.body.from_seq, 1);
  assert.deepEqual(t.q.record.base.map((r) => r.client_id), ["other-1"]);
  assert.equal(t.q.ops.length, 0);
});

test("a 422 stops sending and the warning stays while the phone scores on", async () => {
  const t = setup();
  t.server.answer = (path) => (path === "/events" ? {
    ok: false, status: 422,
    body: { error: { code: "illegal_event", message: "events[0]: no", details: { index: 0, turn: 4, stage: 3, rule: "4.5", reason: "expected a 'movement' roll" } } },
  } : undefined);
  t.queue.send(decide("a"));
  await settled(t, { posts: 1 });
  assert.ok(t.q.blocked);
  assert.match(t.queue.status().blocked, /turn 4, stage 3, rule 4.5/);
  t.queue.send(decide("b"));
  await settled(t);
  assert.equal(t.server.posts.length, 1, "nothing more is posted");
  assert.equal(t.q.ops.length, 2, "both taps kept on the phone");
  assert.deepEqual(t.engine.events.map((e) => e.choice), ["a", "b"]);
  assert.match(t.queue.status().blocked, /turn 4/);
  assert.equal(t.seen.blocked.length, 1);
});

test("app dice online: the server rolls (roll_for_me) and the phone enters its dice", async () => {
  const t = setup({ appDice: true });
  t.onShow(() => {
    const p = t.q.view.view.pending;
    if (p.kind === "roll" && !t.queue.rolling()) t.queue.send({ roll_for_me: true }, { auto: true });
  });
  t.queue.send(decide("go"));
  await settled(t, { posts: 1 });
  const body = t.server.posts[0].body;
  assert.equal(body.events.length, 2);
  assert.deepEqual(body.events[1], { client_id: body.events[1].client_id, roll_for_me: true });
  await settled(t);
  assert.deepEqual(t.engine.events[1].dice, [4, 5], "the server's dice, entered by the phone's engine");
  assert.ok(!JSON.stringify(t.server.posts).includes("seed"));
});

test("app dice offline: the phone rolls with the platform's randomness and says so", async () => {
  const t = setup({ appDice: true });
  t.setOnline(false);
  t.queue.send(decide("go"));
  await Promise.resolve();
  t.queue.send({ roll_for_me: true });
  await settled(t);
  assert.deepEqual(t.engine.events[1], { roll: "movement", by: "home", dice: [3, 3] });
  t.setOnline(true);
  t.q.offline = false;
  t.queue.flush();
  await settled(t, { posts: 2 });
  const rolled = t.server.posts[1].body.events[0];
  assert.equal(rolled.rolled_offline, true);
  assert.equal(rolled.roll_for_me, undefined);
});

test("a roll_for_me posted without an answer is never rolled on the phone: resent as it was", async () => {
  const t = setup({ appDice: true });
  t.server.unanswered = 1;
  t.queue.send(decide("go"));
  t.queue.send({ roll_for_me: true });
  await settled(t, { posts: 1 });
  assert.ok(t.q.offline);
  t.queue.wentOffline();
  await settled(t);
  assert.equal(t.engine.events.length, 1, "no local roll for a post the server may have");
  t.setOnline(true);
  t.q.offline = false;
  t.queue.flush();
  await settled(t, { posts: 2 });
  assert.deepEqual(t.server.posts[1].body, t.server.posts[0].body, "the same tap id and client ids");
  await settled(t);
  assert.deepEqual(t.engine.events[1].dice, [4, 5]);
});

test("a tap the phone's engine refuses is said and nothing is queued", async () => {
  const t = setup();
  t.queue.send(decide("bad"));
  await settled(t);
  assert.equal(t.q.ops.length, 0);
  assert.equal(t.seen.refused[0].message, "refused by the phone");
});

test("undo takes back an event still on the phone, and queues an undo of a stored one", async () => {
  const t = setup();
  t.queue.send(decide("a"));
  await settled(t, { posts: 1 });
  t.setOnline(false);
  t.q.offline = true;
  t.queue.send(decide("b"));
  await settled(t);
  await t.queue.undo("wrong");
  assert.equal(t.q.ops.length, 0);
  await t.queue.undo("wrong too");
  assert.deepEqual(t.q.ops.map((o) => o.kind), ["undo"]);
  t.server.answer = (path, body) => (path === "/undo" ? { ok: true, status: 200, body: { seq: 0, undo: body } } : undefined);
  t.setOnline(true);
  t.q.offline = false;
  t.queue.flush();
  await settled(t, { posts: 2 });
  const undo = t.server.posts[1];
  assert.equal(undo.path, "/undo");
  assert.equal(undo.body.after, t.server.posts[0].body.events[0].client_id);
  assert.equal(undo.body.after_seq, 1);
});

test("plain helpers: batch body, comparison, tap count, fair faces, the conflict line", () => {
  const op = { tap_id: "t", items: [{ client_id: "a", event: { decide: "x" } }, { client_id: "b", roll_for_me: true }] };
  assert.deepEqual(batchBody(op, "h", 7), { tap_id: "t", after: "h", after_seq: 7, events: [{ client_id: "a", event: { decide: "x" } }, { client_id: "b", roll_for_me: true }] });
  const base = [{ client_id: "1", event: { decide: "k" } }];
  const ops = [{ n: 1, kind: "tap", taps: 1, items: [{ client_id: "a", event: { decide: "x" } }] }];
  // the other phone's automatic entry: the same event under another client id
  assert.equal(compareStored([base[0], { client_id: "zz", event: { decide: "x", note: "n" } }], base, ops).own, true);
  assert.equal(compareStored([base[0], { client_id: "zz", event: { decide: "y" } }], base, ops).own, false);
  assert.equal(tapCount([...ops, { kind: "tap", taps: 0, items: [] }, { kind: "finish" }]), 1);
  const seen = new Set();
  const draws = [0xffffffff, 5, 0, 1, 2, 3, 4];
  for (let i = 0; i < 6; i++) seen.add(fairFace(6, (buf) => { buf[0] = draws.shift(); }));
  assert.deepEqual([...seen].sort(), [1, 2, 3, 4, 5, 6]);
  assert.equal(conflictText(1, "12", []).slice(0, 57), "Your 1 tap from 12' was not used: the other phone had cha");
});

test("the server-driven transport makes one tap of one tick's sends, a server roll last", () => {
  const tap = tapOf([{ body: decide("done"), auto: false }, { body: { roll_for_me: true }, auto: false }, { body: decide("late"), auto: true }]);
  assert.equal(tap.items.length, 2);
  assert.equal(tap.items[1].roll_for_me, true);
  assert.equal(tap.auto, false);
});

test("a second tap on a question already answered answers nothing (a double tap)", async () => {
  const t = setup();
  t.queue.send(decide("go")); // the engine asks for a roll next
  await Promise.resolve();
  t.queue.send(decide("go")); // the same button again, before the page redrew
  await settled(t, { posts: 1 });
  assert.equal(t.engine.events.length, 1);
  assert.equal(t.server.posts.length, 1);
  assert.equal(t.seen.refused.length, 0, "nothing to say: the page shows the next question");
});

test("a tap while the server rolls this phone's dice is not queued behind them", async () => {
  const t = setup({ appDice: true });
  t.server.unanswered = 1; // the roll's post is on its way, no answer yet
  t.queue.send(decide("go"));
  t.queue.send({ roll_for_me: true });
  await settled(t, { posts: 1 });
  t.queue.send({ roll_for_me: true }); // "Roll" tapped again on the page drawn before
  await settled(t);
  assert.equal(t.q.ops.length, 1);
  assert.equal(t.q.ops[0].items.length, 2);
});

test("a poll put aside while the phone's own tap goes is read again (its ETag not kept)", async () => {
  // The other phone stored the same automatic entry and one event more; this phone's post of
  // the entry is answered as stored (200), which leaves it one event behind the server.
  const t = setup();
  t.server.answer = (path, body, server) => {
    if (path !== "/events") return undefined;
    const res = server.store(body);
    server.events.push({ seq: 2, client_id: "other-1", side: "away", event: { decide: "action", by: "away", choice: "x" } });
    return { ok: true, status: 200, body: Object.assign(res.body, { created: false }) };
  };
  t.queue.send(decide("a"), { auto: true });
  const live = { seq: 2, version: 2 };
  assert.equal(await followLive(t.q, live), false); // busy with its own tap: read it again
  await settled(t, { posts: 1 });
  assert.equal(t.q.record.base.length, 1);
  assert.equal(await followLive(t.q, live), true);
  assert.deepEqual(t.q.record.base.map((r) => r.client_id).slice(1), ["other-1"]);
  assert.equal(await followLive(t.q, live), true); // nothing newer: held
});

test("a poll of the same length but another head (the other phone undid and entered) is taken in", async () => {
  // This phone holds a; the other phone took a back and entered b: the stored match has as many
  // events as the phone's, ending elsewhere. Taken for "nothing newer", the phone's next tap went
  // on top of a, was refused 409 and, compared with b, made a side branch of a tap nobody lost.
  const t = setup();
  t.queue.send(decide("a"));
  await settled(t, { posts: 1 });
  t.server.events.splice(0, 1, { seq: 1, client_id: "other-b", side: "away", event: { decide: "action", by: "away", choice: "b" } });
  assert.equal(await followLive(t.q, { seq: 1, version: 3, head: "other-b" }), true);
  assert.deepEqual(t.q.record.base.map((r) => r.client_id), ["other-b"]);
  assert.deepEqual(t.engine.events.map((e) => e.choice), ["b"]);
  t.queue.send(decide("c"));
  await settled(t, { posts: 2 });
  assert.equal(t.server.posts[1].body.after, "other-b");
  assert.equal(t.seen.conflict.length, 0);
  assert.ok(!t.server.posts.some((p) => p.path === "/side-branches"));
  assert.deepEqual(t.server.events.map((e) => e.event.choice), ["b", "c"]);
});

test("a tap still being judged is said (judging) and its end emits a status", async () => {
  // The chaos run handed over to the other phone when this phone's queue was empty but its last
  // taps were still being judged by its engine (no op yet): posted a moment later on the seq
  // both phones showed, they met the other phone's first tap there, a real second conflict.
  const t = setup();
  let release = null;
  const apply = t.engine.apply.bind(t.engine);
  t.engine.apply = (event) => new Promise((ok) => { release = () => ok(apply(event)); });
  t.queue.send(decide("a"));
  // said by the tap itself, before anything is awaited: the page's data-judging is set in the
  // click, so a hand-over can never read the page settled while this tap is still on its way
  assert.equal(t.seen.status[t.seen.status.length - 1].judging, true);
  for (let i = 0; i < 50 && !release; i++) await new Promise((r) => setTimeout(r, 1));
  assert.equal(t.q.ops.length, 0);
  assert.equal(t.queue.status().waiting, 0);
  assert.equal(t.queue.status().judging, true);
  t.engine.apply = apply;
  release();
  await settled(t, { posts: 1 });
  assert.equal(t.queue.status().judging, false);
  assert.equal(t.seen.status[t.seen.status.length - 1].judging, false);
  // any job on the engine (a poll's events taken in, a 409 settled) is said from its start: the
  // seq the page shows may change in it, and the page's own answer may follow
  let finish = null;
  const job = t.queue.serial(() => new Promise((ok) => { finish = ok; }));
  assert.equal(t.seen.status[t.seen.status.length - 1].judging, true);
  for (let i = 0; i < 50 && !finish; i++) await new Promise((r) => setTimeout(r, 1));
  finish();
  await job;
  await new Promise((r) => setTimeout(r, 1));
  assert.equal(t.seen.status[t.seen.status.length - 1].judging, false);
});
