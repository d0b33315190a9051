/* The advanced rule's prompt hint under the question (static/scoring/js/panels.js promptHint):
   a few words of what "yes" does, its chapter behind a tap. */
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { build, installDocument } from "./fake-dom.js";
import { promptHint } from "../../static/scoring/js/panels.js";

function page() {
  return build(["div", {},
    ["details", { "data-testid": "sc-hint" },
      ["summary", { "data-testid": "sc-hint-text" }],
      ["p", { "data-testid": "sc-hint-chapter" }]]]);
}
const q = (/** @type {any} */ root, /** @type {string} */ id) => root.querySelector("[data-testid=\"" + id + "\"]");

beforeEach(() => { installDocument(); });

test("an advanced rule's prompt shows what it does, the chapter behind the tap", () => {
  const root = page();
  promptHint(/** @type {any} */ (root), {
    rule: "A1", hint: "Spend a condition point: the ball value moves one step more (A1)" });
  assert.equal(q(root, "sc-hint").hidden, false);
  assert.equal(q(root, "sc-hint-text").textContent, "Spend a condition point: the ball value moves one step more");
  assert.equal(q(root, "sc-hint-chapter").textContent, "FUBA rulebook, advanced rules, chapter A1");
});

test("a question without a hint hides the line and closes an open chapter", () => {
  const root = page();
  promptHint(/** @type {any} */ (root), { rule: "A11", hint: "Roll a die: 4-6 the condition point is not spent, 1 the coach is sent off (A11)" });
  q(root, "sc-hint").setAttribute("open", "");
  promptHint(/** @type {any} */ (root), { rule: "3.2", hint: null });
  assert.equal(q(root, "sc-hint").hidden, true);
  assert.equal(q(root, "sc-hint").hasAttribute("open"), false);
  promptHint(/** @type {any} */ (root), null);
  assert.equal(q(root, "sc-hint").hidden, true);
});
