/* The question's answers (static/scoring/js/answer.js): what the pitch highlights, the dice rows'
   names, the next decision's line and why a tap answers nothing. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { boardMarks, dieName, refusal, thenWhat } from "../../static/scoring/js/answer.js";

const NAMES = { home: "Peru", away: "Chile" };
const C = {
  places: { "A-PEN": { value: "A-PEN" } },
  moves: { "H-LM": { CENTRE: [{ value: "H-LM>CENTRE" }], "H-FRONT": [{ value: "H-LM>H-FRONT" }] } },
  thenPlaces: { "A-LCK": { value: "A-LCK" } },
  why: { "H-RM": "no Peru player there" },
  whyTo: { "H-LM": { "A-PEN": "too far (4.5)" } },
  far: null,
};
const AREAS = [{ code: "H-RM", name: "Peru right midfield" }, { code: "A-PEN", name: "Chile box" }];

test("before a move's first tap every place and move source is offered", () => {
  assert.deepEqual(boardMarks(C, null), { "A-PEN": "pick", "H-LM": "pick", "A-LCK": "pick" });
  assert.deepEqual(boardMarks(null, null), {});
});

test("after a move's first tap its destinations are the targets", () => {
  assert.deepEqual(boardMarks(C, "H-LM"), { "H-LM": "from", CENTRE: "target", "H-FRONT": "target" });
});

test("the dice rows are named by team at kick-off, ball and defence for both teams' rolls", () => {
  assert.deepEqual([0, 1].map((i) => dieName({ actor: "both", dice: 2, name: "kick_off" }, i, NAMES)), ["Peru", "Chile"]);
  assert.deepEqual([0, 1].map((i) => dieName({ actor: "both", dice: 2, name: "duel" }, i, NAMES)), ["Ball", "Defence"]);
  assert.equal(dieName({ actor: "home", dice: 2, name: "movement" }, 1, NAMES), "Die 2");
  assert.equal(dieName({ actor: "home", dice: 1, name: "movement" }, 0, NAMES), "Die");
});

test("the next decision's line names the team only when it is the other team's", () => {
  assert.equal(thenWhat({ text: "Peru: choose the action", actor: "home" }, "home"), "choose the action");
  assert.equal(thenWhat({ text: "Chile: play fiery coach?", actor: "away" }, "home"), "Chile: play fiery coach?");
});

test("a tap that answers nothing says why, as a source or, with a player picked, as a destination", () => {
  assert.equal(refusal(C, AREAS, "H-RM"), "Peru right midfield: no Peru player there");
  assert.equal(refusal(C, AREAS, "A-PEN", "H-LM"), "Chile box: too far (4.5)");
  assert.equal(refusal(C, AREAS, "CENTRE"), "That area is not an answer now: tap a highlighted area.");
});
