/* The one pitch renderer (static/fubaleague/pitch.js): its geometry, and what it draws for the
   engine's snapshot shape on a pitch like the server's. */
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { build, installDocument } from "./fake-dom.js";
import { Pitch, areaBox, arrowEnds, ballSpot, involvedAreas, keptAction, pieceOffsets } from "../../static/fubaleague/pitch.js";

const SVG = "http://www.w3.org/2000/svg";

/** A pitch as templates/tournaments/partials/pitch.html draws it: three areas and a corner spot. */
function spectatorPitch() {
  return build(["svg", { id: "live-pitch", "data-pitch": "" },
    ["defs", {},
      ["marker", { id: "live-pitch-head-home" }],
      ["marker", { id: "live-pitch-head-away" }]],
    ["rect", { "data-area": "H-PEN", x: 104, y: 354, width: 90, height: 68 }],
    ["rect", { "data-area": "CENTRE", x: 104, y: 184, width: 90, height: 68 }],
    ["rect", { "data-area": "A-PEN", x: 104, y: 14, width: 90, height: 68 }],
    ["circle", { "data-area": "C-HL", cx: 14, cy: 422, r: 9 }],
    ["g", { "data-last": "" }],
    ["g", { "data-pieces": "" }]], SVG);
}

/** @param {Partial<import("../../static/fubaleague/pitch.js").PitchState>} over */
function state(over = {}) {
  return {
    teams: { home: { pieces: [2, 1, 0, 0], gk: "H-PEN" }, away: { pieces: [0, 1, 3, 0], gk: "A-PEN" } },
    ball: "CENTRE", value: 4, last: null, ...over,
  };
}
const CODES = ["H-PEN", "CENTRE", "A-PEN", "C-HL"];

beforeEach(() => { installDocument(); });

test("an area's box is its rect's centre and size, a corner spot's its circle's centre", () => {
  const rect = { x: "104", y: "14", width: "90", height: "68" };
  assert.deepEqual(areaBox("rect", (n) => rect[n]), { x: 149, y: 48, w: 90, h: 68 });
  const spot = { cx: "14", cy: "422" };
  assert.deepEqual(areaBox("circle", (n) => spot[n]), { x: 14, y: 422, w: 18, h: 18 });
});

test("both teams in a wide area stand side by side; alone or on a spot, at the centre", () => {
  const wide = { x: 0, y: 0, w: 90, h: 68 };
  assert.deepEqual(pieceOffsets(wide, 2, 1), { home: -14, away: 14 });
  assert.deepEqual(pieceOffsets(wide, 2, 0), { home: 0, away: 0 });
  assert.deepEqual(pieceOffsets({ x: 0, y: 0, w: 18, h: 18 }, 1, 1), { home: 0, away: 0 });
});

test("the ball sits in its area's bottom right corner, at a corner spot's centre", () => {
  assert.deepEqual(ballSpot({ x: 149, y: 48, w: 90, h: 68 }), { x: 149 + 45 - 13, y: 48 + 34 - 12 });
  assert.deepEqual(ballSpot({ x: 14, y: 422, w: 18, h: 18 }), { x: 14, y: 422 });
});

test("the last action's arrow stops short of both centres, and is none between one point", () => {
  const ends = arrowEnds({ x: 0, y: 0 }, { x: 0, y: 100 });
  assert.deepEqual(ends, { x1: 0, y1: 12, x2: 0, y2: 88 });
  // a short arrow keeps three quarters of its length between its ends
  assert.deepEqual(arrowEnds({ x: 0, y: 0 }, { x: 20, y: 0 }), { x1: 5, y1: 0, x2: 15, y2: 0 });
  assert.equal(arrowEnds({ x: 3, y: 3 }, { x: 3, y: 3 }), null);
});

test("the areas an action concerned are a set, none without an action", () => {
  assert.deepEqual([...involvedAreas({ kind: "pass", areas: ["CENTRE", "A-PEN"] })], ["CENTRE", "A-PEN"]);
  assert.equal(involvedAreas(null).size, 0);
});

test("the pieces are drawn per area with their counts, the keepers ringed", () => {
  const svg = spectatorPitch();
  new Pitch(/** @type {any} */ (svg)).draw(state(), CODES);
  const pieces = svg.querySelector("[data-pieces]").querySelectorAll("g");
  const drawn = pieces.map((g) => [g.querySelector("circle").getAttribute("class"), g.textContent]);
  assert.deepEqual(drawn, [
    ["piece-home gk", "2"], ["piece-home", "1"], ["piece-away", "1"], ["piece-away gk", "3"],
  ]);
  // in CENTRE both teams: home to the left of the centre, away to the right
  const centre = pieces.slice(1, 3).map((g) => Number(g.querySelector("circle").getAttribute("cx")));
  assert.deepEqual(centre, [149 - 14, 149 + 14]);
});

test("the ball is drawn with its value and its area marked", () => {
  const svg = spectatorPitch();
  new Pitch(/** @type {any} */ (svg)).draw(state(), CODES);
  const ball = svg.querySelector("[data-pieces]").querySelector("circle[class=\"ball\"]");
  assert.equal(ball.getAttribute("cx"), String(149 + 45 - 13));
  assert.equal(svg.querySelector("[data-pieces]").querySelector("text[class=\"ball-value\"]").textContent, "4");
  assert.ok(svg.querySelector("[data-area=\"CENTRE\"]").classList.contains("area--ball"));
  assert.ok(!svg.querySelector("[data-area=\"H-PEN\"]").classList.contains("area--ball"));
});

test("the last action is an arrow in its team's colour with its head, its areas highlighted", () => {
  const svg = spectatorPitch();
  const pitch = new Pitch(/** @type {any} */ (svg));
  pitch.draw(state({ last: { kind: "shot", team: "away", from: "CENTRE", to: "H-PEN", areas: ["CENTRE", "H-PEN"] } }), CODES);
  const arrows = svg.querySelector("[data-last]").querySelectorAll("line");
  assert.equal(arrows.length, 1);
  assert.equal(arrows[0].getAttribute("class"), "arrow arrow--away arrow--shot");
  assert.equal(arrows[0].getAttribute("marker-end"), "url(#live-pitch-head-away)");
  assert.ok(svg.querySelector("[data-area=\"H-PEN\"]").classList.contains("area--last"));
  // the next state without an action clears the arrow and the highlight
  pitch.draw(state(), CODES);
  assert.equal(svg.querySelector("[data-last]").querySelectorAll("line").length, 0);
  assert.ok(!svg.querySelector("[data-area=\"H-PEN\"]").classList.contains("area--last"));
});

test("a keeper's move (no from) and a roll draw no arrow", () => {
  const svg = spectatorPitch();
  const pitch = new Pitch(/** @type {any} */ (svg));
  pitch.draw(state({ last: { kind: "move", team: "home", from: null, to: "H-PEN", areas: ["H-PEN"] } }), CODES);
  assert.equal(svg.querySelectorAll("line").length, 0);
  pitch.draw(state({ last: { kind: "roll", team: "home", areas: [] } }), CODES);
  assert.equal(svg.querySelectorAll("line").length, 0);
});

test("without the ball (a set-up being edited) neither the ball nor the last action is drawn", () => {
  const svg = spectatorPitch();
  new Pitch(/** @type {any} */ (svg)).draw(state({ last: { kind: "pass", team: "home", from: "H-PEN", to: "CENTRE", areas: ["H-PEN"] } }), CODES, { ball: false });
  assert.equal(svg.querySelectorAll("line").length, 0);
  assert.equal(svg.querySelector("circle[class=\"ball\"]"), null);
  assert.ok(!svg.querySelector("[data-area=\"CENTRE\"]").classList.contains("area--ball"));
});

test("an action stays marked through the rolls of its turn, not into the next turn or past an undo", () => {
  const pass = { kind: "pass", team: "home", from: "H-PEN", to: "CENTRE", areas: ["H-PEN", "CENTRE"] };
  const roll = { kind: "roll", team: "home", areas: [] };
  let kept = keptAction(null, { turn: 3, seq: 40, last: pass });
  assert.deepEqual(kept, { turn: 3, seq: 40, last: pass });
  kept = keptAction(kept, { turn: 3, seq: 41, last: roll });
  assert.equal(kept.last, pass, "the roll after it keeps the pass marked");
  assert.equal(keptAction(kept, { turn: 4, seq: 42, last: roll }), null, "a new turn clears it");
  assert.equal(keptAction(kept, { turn: 3, seq: 39, last: roll }), null, "an undo of the pass clears it");
});
