/* The big screen's pages (static/fubaleague/screen.js): tables packed into columns that fit, a
   long table split, every view in its order, the cycle resuming where it was after new data. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildPages, chunk, layoutFor, packTables, pageLabel, resumeAt } from "../../static/fubaleague/screen.js";

const table = (title, n) => ({ title, rows: Array.from({ length: n }, (_, i) => ({ position: i + 1, team: title + i })) });
const match = (fixture, status = "live") => ({ fixture, status, home: "A", away: "B", round: 1 });

test("groups of four share a column up to its rows, a title and header counting two", () => {
  const columns = packTables([table("A", 4), table("B", 4), table("C", 4)], 16);
  assert.deepEqual(columns.map((c) => c.map((t) => t.title)), [["A", "B"], ["C"]]);
  columns.flat().forEach((t) => assert.equal(t.part, false));
});

test("a league table longer than a column is split into parts, none over the budget", () => {
  const columns = packTables([table("League", 32)], 16);
  assert.equal(columns.length, 3);
  columns.forEach((c) => assert.ok(c.reduce((n, t) => n + t.rows.length + 2, 0) <= 16));
  assert.deepEqual(columns.map((c) => c[0].rows[0].position), [1, 15, 29]);
  assert.ok(columns.every((c) => c[0].part));
});

test("the cycle: standings, live matches, next fixtures, bracket; empty views have no page", () => {
  const layout = layoutFor(1920, 1080);
  const live = { version: "1", areas: [], live: Array.from({ length: 8 }, (_, i) => match(i)), finished: [] };
  const screen = {
    standings: [table("A", 4), table("B", 4), table("C", 4), table("D", 4), table("E", 4)],
    upcoming: Array.from({ length: 20 }, (_, i) => ({ fixture: i })),
    brackets: [{ title: "Knockout", svg: "<svg></svg>" }],
  };
  const pages = buildPages(live, screen, layout);
  assert.deepEqual(pages.map((p) => p.view), ["standings", "standings", "live", "live", "upcoming", "upcoming", "bracket"]);
  assert.equal(pages[2].items.length, 6);
  assert.deepEqual(buildPages(null, { standings: [], upcoming: [], brackets: [] }, layout), []);
});

test("1280x720 holds the same pages as 1920x1080; a portrait screen one column", () => {
  assert.deepEqual(layoutFor(1280, 720), layoutFor(1920, 1080));
  assert.equal(layoutFor(1080, 1920).columns, 1);
});

test("after new data the cycle stays on its view and part, or goes to the view's last page", () => {
  const pages = [{ view: "standings" }, { view: "live" }, { view: "live" }, { view: "upcoming" }].map((p) => ({ ...p, title: "", items: [] }));
  assert.equal(resumeAt(pages, "live", 1), 2);
  assert.equal(resumeAt(pages, "live", 5), 2);
  assert.equal(resumeAt(pages, "bracket", 0), 0);
  assert.equal(pageLabel(pages, 2), "2 / 2");
  assert.equal(pageLabel(pages, 0), "");
  assert.deepEqual(chunk([1, 2, 3], 2), [[1, 2], [3]]);
});
