/* The big screen: a display-only page for a projector or TV at the venue. It cycles through the
   standings, the live matches, the next fixtures and the bracket, each view split into pages
   that fit the screen (no scrolling, nothing to click). It reads two shared documents with
   their ETags: the live centre's (scoring/centre.py, every 2 s) and the screen's (standings,
   fixtures, bracket: fubaleague/web/screen.py, every 15 s). A lost connection keeps the last
   data on screen with a discreet "reconnecting…", and the polls go on until it is back.
   The pure part (the pages) is exported and unit-tested in Node (tests/js/screen.test.js). */
import { momentMark, statusText } from "./centre.js";
import { revalidate } from "./revalidate.js";

export const LIVE_MS = 2000;
export const SCREEN_MS = 15000;

/** @typedef {{title: string, rows: any[]}} TableDoc */
/** @typedef {{standings: TableDoc[], upcoming: any[], brackets: {title: string, svg: string}[]}} ScreenDoc */
/** @typedef {{view: string, title: string, items: any[]}} Page */
/** @typedef {{tableRows: number, columns: number, cards: number, fixtures: number}} Layout */

/**
 * How much a page holds at this size: the type scales with the screen's height (screen.css), so
 * a page holds as many rows on 1280×720 as on 1920×1080; a screen narrower than it is wide
 * enough for two columns of tables gets one.
 * @param {number} width @param {number} height
 * @returns {Layout}
 */
export function layoutFor(width, height) {
  const wide = width / height >= 1.3;
  return { tableRows: 16, columns: wide ? 2 : 1, cards: wide ? 6 : 4, fixtures: 15 };
}

/**
 * Tables packed into columns of at most ``budget`` rows (a title and a header count two rows),
 * a table longer than a column split into parts. Each column: [{table, from, to}].
 * @param {TableDoc[]} tables @param {number} budget
 * @returns {{title: string, rows: any[], part: boolean}[][]}
 */
export function packTables(tables, budget) {
  /** @type {{title: string, rows: any[], part: boolean}[][]} */
  const columns = [];
  let column = [], used = 0;
  const room = budget - 2;
  tables.forEach((t) => {
    for (let from = 0; from < Math.max(t.rows.length, 1); from += room) {
      const rows = t.rows.slice(from, from + room);
      const need = rows.length + 2;
      if (used + need > budget && column.length) { columns.push(column); column = []; used = 0; }
      column.push({ title: t.title, rows, part: t.rows.length > room });
      used += need;
    }
  });
  if (column.length) columns.push(column);
  return columns;
}

/** @template T @param {T[]} items @param {number} n @returns {T[][]} */
export function chunk(items, n) {
  const out = [];
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

/**
 * Every page of the cycle, in order: standings, live matches, next fixtures, bracket; a view with
 * nothing to show has no page.
 * @param {import("./centre.js").CentreDoc|null} live @param {ScreenDoc|null} screen @param {Layout} layout
 * @returns {Page[]}
 */
export function buildPages(live, screen, layout) {
  /** @type {Page[]} */
  const pages = [];
  if (screen) {
    chunk(packTables(screen.standings, layout.tableRows), layout.columns).forEach((cols) =>
      pages.push({ view: "standings", title: "Standings", items: cols }));
  }
  const matches = live ? [...live.live, ...live.finished.slice(0, layout.cards)] : [];
  chunk(matches, layout.cards).forEach((cards) => pages.push({ view: "live", title: "Live matches", items: cards }));
  if (screen) {
    chunk(screen.upcoming, layout.fixtures).forEach((rows) => pages.push({ view: "upcoming", title: "Next fixtures", items: rows }));
    screen.brackets.forEach((b) => pages.push({ view: "bracket", title: b.title, items: [b] }));
  }
  return pages;
}

/**
 * The page to show after a data update: the same view and part when it still exists, else the
 * first page of the same view, else the first page.
 * @param {Page[]} pages @param {string} view @param {number} part  the page's index within its view
 * @returns {number}
 */
export function resumeAt(pages, view, part) {
  const ofView = pages.map((p, i) => (p.view === view ? i : -1)).filter((i) => i >= 0);
  if (!ofView.length) return 0;
  return ofView[Math.min(part, ofView.length - 1)];
}

/** "3 / 5" within the view, or "" for a view of one page. @param {Page[]} pages @param {number} at */
export function pageLabel(pages, at) {
  const view = pages[at].view;
  const same = pages.map((p, i) => (p.view === view ? i : -1)).filter((i) => i >= 0);
  return same.length > 1 ? same.indexOf(at) + 1 + " / " + same.length : "";
}

/** "Table 4", or "" for a fixture without a table. @param {number|null|undefined} table */
export function tableText(table) {
  return table ? "Table " + table : "";
}

/* ---- the page (browser only) ---- */

/** @param {string} tag @param {string} cls @param {string} [text] */
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** @param {{title: string, rows: any[], part: boolean}} t */
function tableEl(t) {
  const box = el("section", "screen-table");
  box.appendChild(el("h2", "", t.title + (t.part ? " (cont.)" : "")));
  const table = el("table", "");
  const head = el("tr", "");
  ["", "Team", "P", "W", "D", "L", "GD", "Pts"].forEach((h) => head.appendChild(el("th", "", h)));
  table.appendChild(head);
  t.rows.forEach((r) => {
    const tr = el("tr", "");
    const gd = r.goal_difference > 0 ? "+" + r.goal_difference : String(r.goal_difference);
    [r.position, r.team, r.played, r.won, r.drawn, r.lost, gd, r.points].forEach((v, i) =>
      tr.appendChild(el("td", i === 1 ? "screen-table__team" : "", String(v))));
    table.appendChild(tr);
  });
  box.appendChild(table);
  return box;
}

/** @param {import("./centre.js").MatchRow} m */
function cardEl(m) {
  const card = el("article", "screen-card screen-card--" + m.status);
  card.setAttribute("data-testid", "screen-match");
  [m.home, m.away].forEach((team, i) => {
    const row = el("p", "screen-card__row");
    row.append(el("span", "screen-card__team", team), el("strong", "screen-card__goals", m.score ? String(m.score[i]) : "–"));
    card.appendChild(row);
  });
  card.append(el("p", "screen-card__status", statusText(m)), el("p", "screen-card__last", m.last_text || ""));
  const goals = (m.moments || []).filter((x) => x.kind !== "var").slice(-2);
  goals.forEach((x) => card.appendChild(el("p", "screen-card__moment", momentMark(x.kind) + " " + x.text)));
  return card;
}

/** @param {Page} page @returns {HTMLElement} */
function pageEl(page) {
  const body = el("div", "screen-page screen-page--" + page.view);
  if (page.view === "standings") {
    page.items.forEach((/** @type {any[]} */ col) => {
      const c = el("div", "screen-col");
      col.forEach((t) => c.appendChild(tableEl(t)));
      body.appendChild(c);
    });
  } else if (page.view === "live") {
    page.items.forEach((m) => body.appendChild(cardEl(m)));
  } else if (page.view === "upcoming") {
    const table = el("table", "screen-fixtures");
    page.items.forEach((f) => {
      const tr = el("tr", "");
      tr.append(el("td", "screen-fixtures__when", f.when || "–"), el("td", "screen-fixtures__table", tableText(f.table)), el("td", "screen-fixtures__teams", f.home + " v " + f.away), el("td", "screen-fixtures__place", f.place));
      table.appendChild(tr);
    });
    body.appendChild(table);
  } else {
    body.innerHTML = page.items[0].svg; // the server's own SVG of the bracket (a template)
  }
  return body;
}

/** @param {HTMLElement} root */
export function startScreen(root) {
  const seconds = Number(root.getAttribute("data-seconds")) || 12;
  /** @param {string} id */
  const $ = (id) => /** @type {HTMLElement} */ (root.querySelector('[data-testid="' + id + '"]'));
  /** @type {{live: any, screen: ScreenDoc|null}} */
  const data = { live: null, screen: null };
  /** @type {Page[]} */
  let pages = [];
  let at = 0;
  const failed = { live: false, screen: false };

  const show = () => {
    const body = $("screen-body");
    if (!pages.length) {
      body.replaceChildren(el("p", "screen__empty", data.live || data.screen ? "Nothing to show yet." : "Loading…"));
      root.setAttribute("data-view", "");
      return;
    }
    const page = pages[at];
    body.replaceChildren(pageEl(page));
    $("screen-view-title").textContent = page.title;
    $("screen-page").textContent = pageLabel(pages, at);
    root.setAttribute("data-view", page.view);
    root.setAttribute("data-page", String(at));
  };
  const rebuild = () => {
    const current = pages[at];
    const part = current ? pages.slice(0, at).filter((p) => p.view === current.view).length : 0;
    pages = buildPages(data.live, data.screen, layoutFor(window.innerWidth, window.innerHeight));
    at = current ? resumeAt(pages, current.view, part) : 0;
    show();
  };
  const net = () => { $("screen-net").hidden = !(failed.live || failed.screen); };

  /** @param {"live"|"screen"} which @param {string} url @param {number} every */
  const poll = (which, url, every) => {
    /** @type {string|null} */
    let etag = null;
    const once = () => {
      revalidate(url, etag).then((r) => {
        if (r.status === 304) return null;
        if (!r.ok) throw new Error(String(r.status));
        etag = r.headers.get("ETag");
        return r.json();
      }).then((doc) => {
        failed[which] = false;
        if (doc) { data[which] = doc; rebuild(); }
      }).catch(() => { failed[which] = true; }).then(() => {
        net();
        window.setTimeout(once, failed[which] ? Math.min(every * 2, 10000) : every);
      });
    };
    once();
  };
  poll("live", root.getAttribute("data-doc-url"), LIVE_MS);
  poll("screen", root.getAttribute("data-screen-url"), SCREEN_MS);
  window.setInterval(() => {
    if (pages.length) { at = (at + 1) % pages.length; show(); }
  }, seconds * 1000);
  const clock = () => {
    $("screen-clock").textContent = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  };
  clock();
  window.setInterval(clock, 10000);
  window.addEventListener("resize", rebuild);
}

const screenRoot = typeof document === "undefined" ? null : document.querySelector('[data-testid="big-screen"]');
if (screenRoot) startScreen(/** @type {HTMLElement} */ (screenRoot));
