/* A venue round's countdown (static/fubaleague/countdown.js): counted from the server's now and
   the device's monotonic clock, never the device's wall clock; which round a screen shows. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ServerTime, clockState, clockText, clockWords, pickClock, OVER_SHOWN_MS } from "../../static/fubaleague/countdown.js";

const T0 = Date.parse("2026-06-13T10:00:00Z");
const iso = (ms) => new Date(ms).toISOString();
const round = (stage, n, startMin, minutes) => ({
  stage, round: n, title: "Round " + n,
  starts_at: iso(T0 + startMin * 60000), ends_at: iso(T0 + (startMin + minutes) * 60000),
});

test("the server's now carried forward by the monotonic clock, whatever the device's time", () => {
  const time = new ServerTime(iso(T0), 5000);
  assert.equal(time.at(5000), T0);
  assert.equal(time.at(65000), T0 + 60000);
  // A monotonic clock never goes back; if a caller passes an earlier reading, the time holds.
  assert.equal(time.at(1000), T0);
});

test("before the start, running, time up: whole seconds rounded up", () => {
  const r = round(1, 2, 5, 45);
  assert.deepEqual(clockState(r, T0), { phase: "before", seconds: 300 });
  assert.deepEqual(clockState(r, T0 + 5 * 60000 - 1), { phase: "before", seconds: 1 });
  assert.deepEqual(clockState(r, T0 + 5 * 60000), { phase: "running", seconds: 2700 });
  assert.deepEqual(clockState(r, T0 + 50 * 60000 - 400), { phase: "running", seconds: 1 });
  assert.deepEqual(clockState(r, T0 + 50 * 60000), { phase: "over", seconds: 0 });
});

test("the time in words a player at a table reads", () => {
  assert.equal(clockText(0), "0:00");
  assert.equal(clockText(65), "1:05");
  assert.equal(clockText(45 * 60), "45:00");
  assert.equal(clockText(3723), "1:02:03");
  const r = round(1, 2, 0, 45);
  assert.equal(clockWords(r, { phase: "before", seconds: 90 }), "Round 2 starts in 1:30");
  assert.equal(clockWords(r, { phase: "running", seconds: 600 }), "Round 2: 10:00 left");
  assert.equal(clockWords(r, { phase: "over", seconds: 0 }), "Round 2: time is up");
});

test("a fixture's page shows its own round's clock only", () => {
  const rounds = [round(1, 1, -60, 45), round(1, 2, 0, 45), round(2, 2, 30, 45)];
  assert.equal(pickClock(rounds, T0, { stage: 2, round: 2 }), rounds[2]);
  assert.equal(pickClock(rounds, T0, { stage: 3, round: 1 }), null);
});

test("the big screen shows the running round, else the next, else the one just over", () => {
  const first = round(1, 1, 0, 45), second = round(1, 2, 60, 45);
  assert.equal(pickClock([second, first], T0 + 10 * 60000), first);
  assert.equal(pickClock([second, first], T0 + 50 * 60000), second);
  assert.equal(pickClock([first], T0 + 50 * 60000), first);
  assert.equal(pickClock([first], T0 + 45 * 60000 + OVER_SHOWN_MS), null);
  assert.equal(pickClock([], T0), null);
});
