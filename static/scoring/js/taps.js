/* What a tap is on the wire, and how a phone reads the server's answer to it (docs/scorer-internals.md,
   "The tap protocol"). Plain functions over plain data, no DOM and no network: the queue
   (queue.js) and the server-driven transport (transport.js) both use them, and the unit tests
   (tests/js) run them under Node.

   A tap op: { n, kind: "tap", tap_id, items, taps, minute, sent }
     items  [{ client_id, event } | { client_id, event, rolled_offline: true } |
             { client_id, roll_for_me: true }]: everything the tap entered, in order (a
             roll_for_me only last: the server rolls it when the events before it are stored)
     taps   how many of the user's own taps it holds (0: only the page's automatic answers)
     minute the match minute when it was tapped (what the "not used" line names)
     sent   true once a post of it may have reached the server (never rolled locally then) */

const HEX = "0123456789abcdef";

export function uid() {
  const a = new Uint8Array(12);
  globalThis.crypto.getRandomValues(a);
  let s = "";
  a.forEach((b) => { s += HEX[b >> 4] + HEX[b & 15]; });
  return s;
}

// One fair face from 1..sides with the platform's cryptographic randomness (rejection sampling:
// a plain modulo would favour the low faces).
export function fairFace(sides, random) {
  const draw = random || ((buf) => globalThis.crypto.getRandomValues(buf));
  const limit = Math.floor(0x100000000 / sides) * sides;
  const buf = new Uint32Array(1);
  for (;;) {
    draw(buf);
    if (buf[0] < limit) return (buf[0] % sides) + 1;
  }
}

// The phone's own roll of the pending roll, made only when no server can roll it (offline).
export function offlineRoll(pending, random) {
  const dice = [];
  for (let i = 0; i < pending.dice; i++) dice.push(fairFace(pending.sides, random));
  return { roll: pending.name, by: pending.actor, dice: dice };
}

// The body of POST …/events for a tap on top of the stored event ``head`` (seq ``seq``).
export function batchBody(op, head, seq) {
  return {
    tap_id: op.tap_id,
    after: head || "",
    after_seq: seq,
    events: op.items.map((it) => {
      if (it.roll_for_me) return { client_id: it.client_id, roll_for_me: true };
      const out = { client_id: it.client_id, event: it.event };
      if (it.rolled_offline) out.rolled_offline = true;
      return out;
    }),
  };
}

function withoutNote(event) {
  const out = Object.assign({}, event || {});
  delete out.note;
  return out;
}

function sameJSON(a, b) { return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b)); }
function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!v || typeof v !== "object") return v;
  const out = {};
  Object.keys(v).sort().forEach((k) => { out[k] = sortKeys(v[k]); });
  return out;
}

/* Whether a stored event (a row of GET …/log) is this item: the same client id, or the same
   event (the other phone's automatic entry), or, for a roll_for_me, the app's roll stored for
   that roll request. */
export function sameEvent(row, item) {
  if (row.client_id === item.client_id) return true;
  if (item.roll_for_me) return !!row.rolled_by_app && !!(row.event && row.event.roll);
  return sameJSON(withoutNote(row.event), withoutNote(item.event));
}

// The phone's match as items: the stored base, then its queued taps up to the first undo or
// confirmation (the part a stale post can be compared with), each item with the op it is in.
export function localItems(base, ops) {
  const out = base.map((r) => ({ client_id: r.client_id, event: r.event, op: null }));
  for (const op of ops) {
    if (op.kind !== "tap") break;
    op.items.forEach((it) => out.push(Object.assign({ op: op.n }, it)));
  }
  return out;
}

/* A stale post (409) read against the match as stored (rows of GET …/log): how many of the
   stored events this phone holds in the same order (``same``), and whether what is stored is
   all the phone's own (``own``: its answers were lost, nothing to tell anyone). */
export function compareStored(stored, base, ops) {
  const local = localItems(base, ops);
  let same = 0;
  while (same < stored.length && same < local.length && sameEvent(stored[same], local[same])) same += 1;
  return { same: same, own: same === stored.length && same >= base.length, local: local };
}

/* The ops left once the first ``count`` queued items are known stored: a partly stored op keeps
   its other items under a new tap id (the stored tap id answers as stored, whatever follows). */
export function dropStored(ops, count, newId) {
  let left = count;
  const kept = [];
  const removed = [];
  ops.forEach((op) => {
    if (left <= 0 || op.kind !== "tap") { kept.push(op); return; }
    if (op.items.length <= left) { left -= op.items.length; removed.push(op.n); return; }
    kept.push(Object.assign({}, op, { items: op.items.slice(left), tap_id: newId(), sent: false }));
    left = 0;
  });
  return { ops: kept, removed: removed };
}

// Taps the user made in these ops (the page's own answers are no taps of anyone's).
export function tapCount(ops) {
  return ops.reduce((n, op) => n + (op.kind === "tap" ? op.taps : op.kind === "undo" ? 1 : 0), 0);
}

/* The line a real conflict leaves until it is acknowledged: this phone's taps not used, from
   which minute, what the other phone recorded instead, and what to do. */
export function conflictText(taps, minute, recorded) {
  const yours = taps + " tap" + (taps === 1 ? "" : "s");
  const from = minute !== "" && minute !== undefined && minute !== null ? " from " + minute + "'" : "";
  const shown = recorded.slice(0, 2).map((r) => r.text).filter(Boolean);
  const more = recorded.length > 2 ? " and " + (recorded.length - 2) + " more" : "";
  const first = recorded.length ? recorded[0].minute : "";
  const last = recorded.length ? recorded[recorded.length - 1].minute : "";
  const span = first ? " " + first + "'" + (last && last !== first ? "–" + last + "'" : "") : "";
  const what = recorded.length
    ? "the other phone had already recorded" + span + " (" + shown.join("; ") + more + ")"
    : "the other phone had changed the match there";
  return "Your " + yours + from + (taps === 1 ? " was" : " were") + " not used: " + what + ". Carry on from the match as stored " +
    "and enter again what is missing; your taps are kept as a side branch.";
}

/* A refusal (422) of what this phone's engine accepted: where the engines differ, in words. */
export function refusalText(details, message) {
  const d = details || {};
  const where = [d.turn !== null && d.turn !== undefined ? "turn " + d.turn : "",
    d.stage !== null && d.stage !== undefined ? "stage " + d.stage : "",
    d.rule ? "rule " + d.rule : ""].filter(Boolean).join(", ");
  return "Not sent: the server refused a tap this phone accepted" + (where ? " (" + where + ")" : "") +
    ": " + (d.reason || message || "no reason given") + ". This phone keeps scoring; at full time " +
    "send the whole match for validation.";
}
