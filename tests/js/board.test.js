/* The scorer's board (static/scoring/js/board.js): a set-up being edited drawn through the one
   renderer, and taps and drags on areas reported as gestures. */
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { build, installDocument } from "./fake-dom.js";
import { HIT_UNITS, createBoard, draftState, spotHitBox } from "../../static/scoring/js/board.js";

const SVG = "http://www.w3.org/2000/svg";
const AREAS = [{ code: "H-PEN", name: "Peru penalty area" }, { code: "CENTRE", name: "centre" }, { code: "A-PEN", name: "Chile penalty area" }];
const CODES = AREAS.map((a) => a.code);

function scorerPitch() {
  return build(["svg", { "data-pitch": "" },
    ["rect", { "data-area": "H-PEN", x: 104, y: 354, width: 90, height: 68 }],
    ["rect", { "data-area": "CENTRE", x: 104, y: 184, width: 90, height: 68 }],
    ["rect", { "data-area": "A-PEN", x: 104, y: 14, width: 90, height: 68 }],
    ["g", { "data-pieces": "" }]], SVG);
}

function state() {
  return {
    teams: { home: { pieces: [1, 5, 0], gk: "H-PEN" }, away: { pieces: [0, 2, 4], gk: "A-PEN" } },
    ball: "CENTRE", value: 3, last: { kind: "move", team: "home", from: "H-PEN", to: "CENTRE", areas: ["H-PEN", "CENTRE"] },
  };
}

/** @type {any} */
let doc;
beforeEach(() => { doc = installDocument(); });

test("a draft replaces its side's pieces and keeper, the keeper counted in its area", () => {
  const draft = { side: "away", players: { CENTRE: 3, "A-PEN": 1 }, gk: "A-PEN" };
  const drawn = draftState(state(), CODES, draft);
  assert.deepEqual(drawn.teams.away, { pieces: [0, 3, 2], gk: "A-PEN" });
  assert.deepEqual(drawn.teams.home, state().teams.home);
});

test("a draft is drawn without the ball; the match state with it and the last move", () => {
  const svg = scorerPitch();
  const board = createBoard(/** @type {any} */ (svg), { onTap() {}, onDrag() {} });
  board.draw(state(), AREAS, { side: "home", players: { CENTRE: 10 }, gk: "H-PEN" });
  const layer = svg.querySelector("[data-pieces]");
  assert.equal(layer.querySelector("circle[class=\"ball\"]"), null);
  assert.deepEqual(layer.querySelectorAll("g").map((g) => g.textContent), ["1", "10", "2", "4"]);
  board.draw(state(), AREAS);
  assert.ok(layer.querySelector("circle[class=\"ball\"]"));
  // the scorer's pitch has no layer of its own for the arrow: it is drawn with the pieces
  assert.equal(layer.querySelectorAll("line").length, 1);
  assert.equal(svg.querySelector("[data-area=\"CENTRE\"]").getAttribute("aria-label"), "centre");
});

test("a press and release on one area is a tap, on two a drag", () => {
  const svg = scorerPitch();
  /** @type {string[]} */
  const seen = [];
  createBoard(/** @type {any} */ (svg), { onTap: (c) => seen.push("tap " + c), onDrag: (a, b) => seen.push("drag " + a + ">" + b) });
  const area = (/** @type {string} */ code) => svg.querySelector("[data-area=\"" + code + "\"]");
  // a touch's pointerup is aimed where it started: the area under its point counts
  doc.elementFromPoint = () => area("CENTRE");
  svg.dispatch("pointerdown", { target: area("CENTRE") });
  svg.dispatch("pointerup", { target: area("CENTRE") });
  svg.dispatch("pointerdown", { target: area("H-PEN") });
  svg.dispatch("pointerup", { target: area("H-PEN") });
  // a cancelled press is no gesture
  svg.dispatch("pointerdown", { target: area("A-PEN") });
  svg.dispatch("pointercancel");
  svg.dispatch("pointerup", { target: area("A-PEN") });
  assert.deepEqual(seen, ["tap CENTRE", "drag H-PEN>CENTRE"]);
});

test("the areas are buttons for the keyboard: Enter taps", () => {
  const svg = scorerPitch();
  /** @type {string[]} */
  const seen = [];
  createBoard(/** @type {any} */ (svg), { onTap: (c) => seen.push(c), onDrag() {} });
  const area = svg.querySelector("[data-area=\"A-PEN\"]");
  assert.equal(area.getAttribute("role"), "button");
  area.dispatch("keydown", { key: "Enter" });
  area.dispatch("keydown", { key: "x" });
  assert.deepEqual(seen, ["A-PEN"]);
});

test("mark highlights the question's areas and nothing else", () => {
  const svg = scorerPitch();
  const board = createBoard(/** @type {any} */ (svg), { onTap() {}, onDrag() {} });
  board.mark({ CENTRE: "from", "A-PEN": "target" });
  assert.ok(svg.querySelector("[data-area=\"CENTRE\"]").classList.contains("area--from"));
  assert.ok(svg.classList.contains("pitch--asking"));
  board.mark({});
  assert.ok(!svg.querySelector("[data-area=\"CENTRE\"]").classList.contains("area--from"));
  assert.ok(!svg.classList.contains("pitch--asking"));
});

test("a corner spot's tap target is a 44 px square on the pitch side of the spot", () => {
  const view = { width: 298, height: 436 };
  // top left and bottom right corners of the pitch (margin 14)
  assert.deepEqual(spotHitBox({ x: 14, y: 14 }, view), { x: 4.5, y: 4.5, width: HIT_UNITS, height: HIT_UNITS });
  assert.deepEqual(spotHitBox({ x: 284, y: 422 }, view), { x: 284 - 38 + 9.5, y: 422 - 38 + 9.5, width: 38, height: 38 });
  // never outside the drawing, where it could not be tapped
  assert.deepEqual(spotHitBox({ x: 2, y: 434 }, view), { x: 0, y: 436 - 38, width: 38, height: 38 });
});

test("a corner spot takes taps in its square only while it is an answer", () => {
  const svg = build(["svg", { viewBox: "0 0 298 436", "data-pitch": "" },
    ["rect", { "data-area": "A-LC", x: 14, y: 14, width: 90, height: 68 }],
    ["circle", { "data-area": "A-LCK", cx: 14, cy: 14, r: 9 }],
    ["g", { "data-pieces": "" }]], SVG);
  /** @type {string[]} */
  const seen = [];
  const board = createBoard(/** @type {any} */ (svg), { onTap: (c) => seen.push(c), onDrag() {} });
  const hit = svg.querySelector("[data-hit=\"A-LCK\"]");
  assert.ok(hit, "the spot has a square");
  assert.equal(svg.children.indexOf(hit), svg.children.indexOf(svg.querySelector("[data-pieces]")) - 1, "under the pieces");
  assert.ok(!hit.classList.contains("area-hit--on"));
  board.mark({ "A-LCK": "pick" });
  assert.ok(hit.classList.contains("area-hit--on"));
  doc.elementFromPoint = () => hit;
  svg.dispatch("pointerdown", { target: hit });
  svg.dispatch("pointerup", { target: hit });
  assert.deepEqual(seen, ["A-LCK"]);
  board.mark({ "A-LC": "pick" });
  assert.ok(!hit.classList.contains("area-hit--on"));
});

test("the scorer keeps the last move marked through the roll after it", () => {
  const svg = scorerPitch();
  const board = createBoard(/** @type {any} */ (svg), { onTap() {}, onDrag() {} });
  const lines = () => svg.querySelector("[data-pieces]").querySelectorAll("line").length;
  board.draw({ ...state(), turn: 5 }, AREAS, undefined, 20);
  assert.equal(lines(), 1);
  board.draw({ ...state(), turn: 5, last: { kind: "roll", team: "home", areas: [] } }, AREAS, undefined, 21);
  assert.equal(lines(), 1, "still marked after the roll");
  board.draw({ ...state(), turn: 5, last: { kind: "roll", team: "home", areas: [] } }, AREAS, undefined, 19);
  assert.equal(lines(), 0, "an undo before the move clears it");
});
