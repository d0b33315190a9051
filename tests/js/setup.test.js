/* The set-up editor's draft (static/scoring/js/setup.js): presets copied, the decision's value,
   drags moving one piece, the areas offered. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { choiceOf, fromPreset, moveOne, placedCount, setupMarks } from "../../static/scoring/js/setup.js";

const PRESET = { gk: "H-PEN", players: { "H-LC": 3, "H-RC": 3, CENTRE: 4 } };

test("a draft from a preset is a copy: editing it leaves the preset as it was", () => {
  const draft = fromPreset("home", PRESET);
  draft.players.CENTRE = 0;
  assert.equal(PRESET.players.CENTRE, 4);
  assert.equal(draft.side, "home");
});

test("the decision's value lists the areas with players, and counts the outfield", () => {
  const draft = { side: "home", players: { "H-LC": 3, "H-RC": 0, CENTRE: 7 }, gk: "H-PEN" };
  assert.deepEqual(choiceOf(draft), { gk: "H-PEN", players: { "H-LC": 3, CENTRE: 7 } });
  assert.equal(placedCount(draft), 10);
});

test("a drag moves one player, or the keeper from an area without players, else nothing", () => {
  const draft = fromPreset("home", PRESET);
  assert.deepEqual(moveOne(draft, "CENTRE", "A-LM").players, { "H-LC": 3, "H-RC": 3, CENTRE: 3, "A-LM": 1 });
  assert.equal(draft.players.CENTRE, 4, "the draft dragged from is left as it was");
  assert.deepEqual(moveOne(draft, "H-PEN", "H-FRONT"), { ...draft, gk: "H-FRONT" });
  assert.equal(moveOne(draft, "A-PEN", "CENTRE"), null);
});

test("every area but the corner spots is offered, the selected one as the source", () => {
  const areas = [{ code: "H-PEN" }, { code: "CENTRE" }, { code: "C-HL", corner_spot: true }];
  assert.deepEqual(setupMarks(areas, null), { "H-PEN": "pick", CENTRE: "pick" });
  assert.deepEqual(setupMarks(areas, "CENTRE"), { "H-PEN": "pick", CENTRE: "from" });
});
