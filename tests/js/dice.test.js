/* How the match's dice are rolled, as the two clubs agree it (static/scoring/js/dice.js): what a
   club is asked or told, and the word each button sends. */
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { build, installDocument } from "./fake-dom.js";
import { renderDice } from "../../static/scoring/js/dice.js";

const NAMES = { home: "Peru", away: "Chile" };

function panel() {
  return build(["div", {}, ["p", { "data-testid": "sc-dice" }], ["div", { "data-testid": "sc-dice-choice" }]]);
}

/** The line and the buttons shown to `side` for the session state `d`. */
function shown(d, side = "home", extra = {}) {
  const root = panel();
  renderDice(root, { status: "live", seq: 0, app_dice: false, ...d }, { canWrite: true, side, names: NAMES, waiting: false, ...extra });
  const box = root.querySelector("[data-testid=\"sc-dice-choice\"]");
  const say = box.querySelector("[data-testid=\"sc-dice-say\"]");
  return {
    hidden: box.hidden === true,
    fact: root.querySelector("[data-testid=\"sc-dice\"]").textContent,
    line: say ? say.textContent : null,
    buttons: box.querySelectorAll("button").map((b) => [b.textContent, b.getAttribute("data-dice"), b.getAttribute("aria-pressed")]),
  };
}

beforeEach(() => { installDocument(); });

test("before the first event nobody chose: table dice pressed, app dice offered", () => {
  const s = shown({});
  assert.equal(s.line, "Dice for the whole match:");
  assert.deepEqual(s.buttons, [["rolled at the table", "table", "true"], ["app dice", "app", "false"]]);
  assert.equal(s.fact, "Dice rolled at the table");
});

test("the other club chose app dice: agree or type our dice", () => {
  const s = shown({ app_dice: true, dice: { chosen_by: { side: "away" }, summary: "App dice (Chile)" } });
  assert.equal(s.line, "Chile chose app dice: the phone rolls every roll.");
  assert.deepEqual(s.buttons.map((b) => b[0]), ["agree", "we type our dice"]);
  assert.equal(s.fact, "App dice (Chile)");
});

test("after the first event a change asked by the other club is agreed or refused", () => {
  const s = shown({ seq: 12, app_dice: false, dice: { request: { side: "away", app_dice: true }, summary: "" } });
  assert.equal(s.line, "Chile asks for app dice from the next roll:");
  assert.deepEqual(s.buttons, [["agree", "app", null], ["keep dice rolled at the table", "table", null]]);
});

test("this club's own request waits for the other's answer, with no button", () => {
  const s = shown({ seq: 12, dice: { request: { side: "home", app_dice: true }, summary: "" } });
  assert.equal(s.line, "Asked Chile for app dice: waiting for its answer.");
  assert.deepEqual(s.buttons, []);
});

test("nothing is asked after the first event, of a spectator or while a tap is waiting", () => {
  assert.equal(shown({ seq: 3 }).hidden, true);
  assert.equal(shown({}, "home", { canWrite: false }).hidden, true);
  assert.equal(shown({}, "home", { waiting: true }).hidden, true);
  assert.equal(shown({ status: "full_time" }).hidden, true);
});
