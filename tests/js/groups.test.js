/* The chips of a question in at most 8 (static/scoring/js/groups.js). */
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { installDocument } from "./fake-dom.js";
import { el } from "../../static/scoring/js/dom.js";
import { chipCount, chipRow } from "../../static/scoring/js/groups.js";

const CHIPS = [
  { value: "none", label: "no substitution" },
  { value: "sub:1", label: "fresh player for the left wing", short: "left wing", group: "fresh player" },
  { value: "sub:2", label: "fresh player for the centre", short: "centre", group: "fresh player" },
  { value: "f:442", label: "formation 4-4-2", short: "4-4-2", group: "formation" },
];

beforeEach(() => { installDocument(); });

/** @param {any} option @param {Record<string, string>} [attrs] */
const chip = (option, attrs) => el("button", { "data-value": option.value, ...(attrs || {}) }, option.label);

test("closed, the row shows the ungrouped options and one chip a kind", () => {
  assert.equal(chipCount(CHIPS, null), 3);
  const row = chipRow(CHIPS, null, { chip, toggle() {} });
  assert.deepEqual(row.children.map((c) => c.textContent), ["no substitution", "fresh player", "formation"]);
  assert.equal(row.children[1].getAttribute("data-choices"), JSON.stringify(["sub:1", "sub:2"]));
  assert.equal(row.children[1].getAttribute("aria-expanded"), "false");
});

test("an open kind shows its options by their short labels after the pressed kind", () => {
  assert.equal(chipCount(CHIPS, "fresh player"), 3);
  const row = chipRow(CHIPS, "fresh player", { chip, toggle() {} });
  assert.deepEqual(row.children.map((c) => c.textContent), ["fresh player", "left wing", "centre"]);
  assert.equal(row.children[0].getAttribute("aria-pressed"), "true");
  // the short label is shown, the whole one read out; the value sent is the option's own
  assert.equal(row.children[1].getAttribute("aria-label"), "fresh player for the left wing");
  assert.equal(row.children[1].getAttribute("data-value"), "sub:1");
});

test("a kind that is not among the chips shows the kinds", () => {
  assert.equal(chipCount(CHIPS, "no such kind"), 3);
  assert.equal(chipRow(CHIPS, "no such kind", { chip, toggle() {} }).children.length, 3);
});

test("a tap on a kind opens it, a tap on the open kind closes it", () => {
  /** @type {(string|null)[]} */
  const toggled = [];
  const toggle = (/** @type {string|null} */ kind) => toggled.push(kind);
  chipRow(CHIPS, null, { chip, toggle }).children[2].click();
  chipRow(CHIPS, "formation", { chip, toggle }).children[0].click();
  assert.deepEqual(toggled, ["formation", null]);
});
