/* The replay's steps (static/fubaleague/replay.js): the action kept marked through a turn's rolls,
   and the turn a frame belongs to. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { eventHash, frameFromHash, lastOnPitch, turnIndex } from "../../static/fubaleague/replay.js";
import { statusLine } from "../../static/fubaleague/live.js";

test("a roll keeps the same turn's last action on the pitch, a new turn does not", () => {
  const move = { kind: "move", areas: ["H-LM", "CENTRE"] };
  const frames = [
    { turn: 1, last: move },
    { turn: 1, last: { kind: "roll", areas: [] } },
    { turn: 1, last: null },
    { turn: 2, last: { kind: "roll", areas: [] } },
  ];
  assert.equal(lastOnPitch(frames, 0), move);
  assert.equal(lastOnPitch(frames, 2), move);
  assert.equal(lastOnPitch(frames, 3), null);
});

test("a frame belongs to the last turn line starting at or before it", () => {
  const feed = [{ first: 0 }, { first: 4 }, { first: 9 }];
  assert.equal(turnIndex(feed, 0), 0);
  assert.equal(turnIndex(feed, 8), 1);
  assert.equal(turnIndex(feed, 9), 2);
  assert.equal(turnIndex([{ first: 2 }], 1), -1);
});

test("the live panel says what a finished session waits for", () => {
  assert.equal(statusLine("full_time"), "Full time: the clubs confirm the result.");
  assert.equal(statusLine("abandoned"), "The scoring of this match was abandoned.");
  assert.equal(statusLine("submitted"), "The result is submitted.");
});

test("a link to a moment names the event the page shows, and opens at that frame", () => {
  assert.equal(eventHash(0), "#event-1");
  assert.equal(frameFromHash(eventHash(12), 40), 12);
  assert.equal(frameFromHash("#event-40", 40), 39);
  // a fragment naming no frame of this replay opens at the start
  assert.equal(frameFromHash("#event-41", 40), null);
  assert.equal(frameFromHash("#event-0", 40), null);
  assert.equal(frameFromHash("#replay", 40), null);
  assert.equal(frameFromHash("", 40), null);
});
