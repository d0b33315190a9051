/* The pitch in the room a phone's screen leaves (static/scoring/js/fit.js): the height that puts
   the last answer just above the dock, whatever sits above the pitch or under it. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { pitchHeight } from "../../static/scoring/js/fit.js";

// 390x844, the dock 66 px: the pitch at 190 px from the top, 508 px high, the answers ending at
// 920 px (a question with its next decision's chips under the dock, issue 35)
const TALL = { viewport: 844, dock: 66, pitchTop: 190, pitchHeight: 508, answersBottom: 920 };

test("the pitch gives up what the answers need to end above the dock", () => {
  const h = pitchHeight(TALL);
  assert.equal(h, 508 - (920 - (844 - 66 - 6)));
  // drawn at that height, the answers end 6 px above the dock
  const bottom = TALL.answersBottom - TALL.pitchHeight + h;
  assert.equal(bottom, 844 - 66 - 6);
});

test("the pitch takes the room a short question leaves", () => {
  const h = pitchHeight({ viewport: 844, dock: 66, pitchTop: 150, pitchHeight: 300, answersBottom: 500 });
  assert.equal(h, 844 - 66 - 6 - 150 - 50);
});

test("the same height whatever the pitch is drawn at now (no creeping from render to render)", () => {
  const h = pitchHeight(TALL);
  const again = pitchHeight(Object.assign({}, TALL, { pitchHeight: h, answersBottom: TALL.answersBottom - 508 + h }));
  assert.equal(again, h);
});
