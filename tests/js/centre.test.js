/* The live centre's pure part (static/fubaleague/centre.js): which matches a page shows, the
   score and status in words, the marks of goals and cards, when a card flashes for a goal. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { matchesFor, momentMark, newGoal, placeText, scoreText, statusText } from "../../static/fubaleague/centre.js";

const row = (fixture, round, extra = {}) => ({
  fixture, session: fixture, status: "live", home: "Brazil", away: "Chile", stage: "Groups",
  group: "", round, round_name: "Round " + round, ...extra,
});

test("a round's page shows that round's matches only, the whole page every round's", () => {
  const doc = { version: "1.2.0", areas: [], live: [row(1, 1), row(2, 2)], finished: [row(3, 1, { status: "final" })] };
  assert.deepEqual(matchesFor(doc, 1).live.map((m) => m.fixture), [1]);
  assert.deepEqual(matchesFor(doc, 1).finished.map((m) => m.fixture), [3]);
  assert.deepEqual(matchesFor(doc, 2).finished, []);
  assert.deepEqual(matchesFor(doc, null).live.map((m) => m.fixture), [1, 2]);
});

test("a match at full time waiting for the clubs shows no score, a live one its minute", () => {
  assert.equal(scoreText(row(1, 1, { status: "unconfirmed" })), "–");
  assert.equal(statusText(row(1, 1, { status: "unconfirmed" })), "Full time: the clubs confirm the result");
  assert.equal(scoreText(row(1, 1, { score: [2, 0] })), "2 – 0");
  assert.equal(statusText(row(1, 1, { minute: 37 })), "37'");
  assert.equal(statusText(row(1, 1, { status: "final", score: [1, 1] })), "Final");
});

test("where a match stands names its stage, group and round", () => {
  assert.equal(placeText(row(1, 2, { group: "A" })), "Groups · Group A · Round 2");
  assert.equal(placeText(row(1, 3, { stage: "Final", round_name: "" })), "Final");
});

test("goals and cards get their marks, other moments none", () => {
  assert.equal(momentMark("goal"), "⚽");
  assert.equal(momentMark("yellow"), "🟨");
  assert.equal(momentMark("second_yellow"), "🟥");
  assert.equal(momentMark("injury"), "");
});

test("a card flashes when the goals went up since its last row, not on its first or a same score", () => {
  const before = row(1, 1, { score: [0, 0] });
  assert.equal(newGoal(before, row(1, 1, { score: [1, 0] })), true);
  assert.equal(newGoal(before, row(1, 1, { score: [0, 0] })), false);
  assert.equal(newGoal(undefined, row(1, 1, { score: [1, 0] })), false);
  assert.equal(newGoal(before, row(1, 1, { status: "unconfirmed" })), false);
});
