/* Undo at the table (static/scoring/js/undo.js): the reason asked beside the button after the
   tap, and the phone that took an event back saying so as the other phone does. */
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { build, installDocument } from "./fake-dom.js";
import { createUndoAsk, undoneNow, withOwnUndo } from "../../static/scoring/js/undo.js";

function scorer() {
  return build(["div", {},
    ["div", { "data-testid": "sc-dock" },
      ["button", { "data-action": "undo", "data-testid": "sc-undo" }],
      ["div", { "data-testid": "sc-undo-ask" },
        ["input", { "data-undo-reason": "" }],
        ["button", { "data-action": "undo-cancel" }]]]]);
}

beforeEach(() => { installDocument(); });

test("an undo takes back the last event shown, by its line", () => {
  const d = { seq: 7, events: [{ seq: 7, text: "Peru moved to the centre" }, { seq: 6, text: "…" }] };
  assert.deepEqual(undoneNow(d, "wrong area"), { seq: 7, text: "Peru moved to the centre", reason: "wrong area" });
  assert.equal(undoneNow({ seq: 0, events: [] }, ""), null);
});

test("the phone's own undo is shown until the next event, unless the server says something fresher", () => {
  const own = { seq: 7, text: "Peru moved", reason: "" };
  assert.deepEqual(withOwnUndo({ seq: 6, last_undo: null }, own).last_undo, own);
  // the next event: the undo is old news
  assert.equal(withOwnUndo({ seq: 7, last_undo: null }, own).last_undo, null);
  const server = { seq: 7, text: "Peru moved", reason: "wrong die", at: "now" };
  assert.equal(withOwnUndo({ seq: 6, last_undo: server }, own).last_undo, server);
});

test("a tap on Undo asks why beside it; the second tap takes back with the reason", () => {
  const root = scorer();
  /** @type {string[]} */
  const sent = [];
  const ask = createUndoAsk(/** @type {any} */ (root), { undo: (r) => sent.push(r) });
  const box = root.querySelector("[data-testid=\"sc-undo-ask\"]");
  const button = root.querySelector("[data-testid=\"sc-undo\"]");
  ask.tap(7);
  assert.equal(box.hidden, false);
  assert.equal(button.textContent, "↶ Take back");
  assert.ok(root.querySelector("[data-testid=\"sc-dock\"]").classList.contains("is-undoing"));
  assert.deepEqual(sent, []);
  /** @type {any} */ (root.querySelector("[data-undo-reason]")).value = " wrong die ";
  ask.tap(7);
  assert.deepEqual(sent, ["wrong die"]);
  assert.equal(box.hidden, true);
  assert.equal(/** @type {any} */ (root.querySelector("[data-undo-reason]")).value, "");
});

test("the ask closes without an undo when cancelled or when the match moves on", () => {
  const root = scorer();
  /** @type {string[]} */
  const sent = [];
  const ask = createUndoAsk(/** @type {any} */ (root), { undo: (r) => sent.push(r) });
  ask.tap(7);
  ask.close();
  assert.equal(ask.isAsking(), false);
  ask.tap(7);
  ask.shown(7);
  assert.equal(ask.isAsking(), true, "a poll of the same state keeps it open");
  ask.shown(8);
  assert.equal(ask.isAsking(), false, "another phone's event closes it");
  assert.deepEqual(sent, []);
});
