/* Stepping back through a live match's feed (static/fubaleague/stepback.js): previous and next
   by turn, the frame each turn ends on, what came in meanwhile, and back to live. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LIVE, backLabel, frameOfLine, newSince, stepBack, stepForward } from "../../static/fubaleague/stepback.js";

const feed = [{ turn: 1, first: 1 }, { turn: 2, first: 4 }, { turn: 3, first: 9 }];

test("from live, previous shows the turn before the current one, never before the first", () => {
  const back = stepBack(LIVE, 3, 40);
  assert.deepEqual(back, { at: 1, seq: 40 });
  const first = stepBack(stepBack(back, 3, 45), 3, 50);
  assert.deepEqual(first, { at: 0, seq: 40 });
  assert.deepEqual(stepBack(LIVE, 1, 7), { at: 0, seq: 7 });
  assert.equal(stepBack(LIVE, 0, 7), LIVE);
});

test("next walks forward and past the last turn is live again", () => {
  const at0 = { at: 0, seq: 40 };
  assert.deepEqual(stepForward(at0, 3), { at: 1, seq: 40 });
  assert.equal(stepForward({ at: 2, seq: 40 }, 3), LIVE);
  assert.equal(stepForward(LIVE, 3), LIVE);
});

test("each turn shows the frame it ends on", () => {
  assert.equal(frameOfLine(feed, 0, 12), 3);
  assert.equal(frameOfLine(feed, 1, 12), 8);
  assert.equal(frameOfLine(feed, 2, 12), 11);
  // frames fetched before the last turn's entries: the last frame there is
  assert.equal(frameOfLine(feed, 2, 9), 8);
});

test("new entries while stepped back are counted, not shown", () => {
  const back = stepBack(LIVE, 3, 40);
  assert.equal(newSince(back, 40), 0);
  assert.equal(newSince(back, 43), 3);
  assert.equal(newSince(LIVE, 43), 0);
  assert.equal(backLabel(3), "3 new — back to live");
  assert.equal(backLabel(0), "Back to live");
});
