/* The tournament live centre: every match of a competition being scored, from one JSON document
   shared by every reader (GET /c/<slug>/live.json, scoring/centre.py), revalidated with its ETag
   every 1.5 s. Each match is a card kept by its fixture and updated in place: score, minute, the
   last action in words and on a small pitch (the one pitch renderer), goals and cards. Finished
   matches show the result that counts; a match at full time waiting for the clubs shows no score.
   The pure part (what to show) is exported and unit-tested in Node (tests/js/centre.test.js). */
import { Pitch } from "./pitch.js";
import { revalidate } from "./revalidate.js";

export const POLL_MS = 1500;

/**
 * @typedef {{minute: (number|null), kind: string, text: string}} Moment
 * @typedef {{fixture: number, session: number, status: string, home: string, away: string,
 *   stage: string, group: string, round: number, round_name: string, score?: number[],
 *   minute?: (number|string), turn?: number, last_text?: string, question?: string, pitch?: any,
 *   moments?: Moment[], version?: number}} MatchRow
 * @typedef {{version: string, areas: string[], live: MatchRow[], finished: MatchRow[]}} CentreDoc
 */

/**
 * The matches a page shows: all, or one round's.
 * @param {CentreDoc} doc
 * @param {number|null} round
 * @returns {{live: MatchRow[], finished: MatchRow[]}}
 */
export function matchesFor(doc, round) {
  const keep = (/** @type {MatchRow} */ m) => !round || m.round === round;
  return { live: doc.live.filter(keep), finished: doc.finished.filter(keep) };
}

/** @param {MatchRow} m @returns {string} */
export function scoreText(m) {
  return m.score ? m.score[0] + " – " + m.score[1] : "–";
}

/** @param {MatchRow} m @returns {string} */
export function statusText(m) {
  if (m.status === "live") return (m.minute || 0) + "'";
  if (m.status === "unconfirmed") return "Full time: the clubs confirm the result";
  if (m.status === "final") return "Final";
  return "";
}

/** Where a match stands in its competition, in words. @param {MatchRow} m @returns {string} */
export function placeText(m) {
  return [m.stage, m.group ? "Group " + m.group : "", m.round_name].filter(Boolean).join(" · ");
}

/** @param {string} kind @returns {string} */
export function momentMark(kind) {
  if (kind === "goal") return "⚽";
  if (kind === "yellow") return "🟨";
  if (kind === "red" || kind === "second_yellow") return "🟥";
  if (kind === "var") return "📺";
  return "";
}

/**
 * The goals among a match's moments that were not in ``before`` (the same match's previous
 * row): the card flashes for a new goal.
 * @param {MatchRow|undefined} before
 * @param {MatchRow} now
 * @returns {boolean}
 */
export function newGoal(before, now) {
  if (!before || !before.score || !now.score) return false;
  return now.score[0] + now.score[1] > before.score[0] + before.score[1];
}

/* ---- the page (browser only) ---- */

/** @type {Map<number, {li: HTMLElement, pitch: Pitch|null, row: MatchRow|undefined}>} */
const cards = new Map();
let pitchCount = 0;

/** @param {HTMLElement} li @param {string} id */
const part = (li, id) => /** @type {HTMLElement} */ (li.querySelector('[data-part="' + id + '"]'));

/** A pitch cloned from the page's template, its ids made its own. @returns {SVGSVGElement} */
function newPitchSvg() {
  const tpl = /** @type {HTMLTemplateElement} */ (document.getElementById("centre-pitch"));
  const svg = /** @type {SVGSVGElement} */ (tpl.content.querySelector("svg").cloneNode(true));
  const id = "centre-pitch-" + ++pitchCount;
  svg.querySelectorAll("[id]").forEach((el) => el.setAttribute("id", el.id.replace("centre-pitch-svg", id)));
  svg.id = id;
  svg.setAttribute("aria-labelledby", id + "-title");
  svg.classList.add("centre-card__pitch");
  return svg;
}

/** @param {MatchRow} m @param {string} matchUrl @param {boolean} withPitch */
function newCard(m, matchUrl, withPitch) {
  const li = document.createElement("li");
  li.className = "card centre-card";
  li.setAttribute("data-testid", "centre-match");
  li.setAttribute("data-fixture", String(m.fixture));
  li.innerHTML =
    '<p class="small muted centre-card__place" data-part="place"></p>' +
    '<p class="centre-card__bar"><span data-part="home"></span> <strong class="centre-card__score" data-part="score"></strong> <span data-part="away"></span></p>' +
    '<p class="small centre-card__status" data-part="status"></p>' +
    '<p class="centre-card__last" data-part="last"></p>' +
    '<div data-part="pitch"></div>' +
    '<ul class="centre-card__moments" data-part="moments"></ul>' +
    '<p class="small"><a data-part="link">Match page</a></p>';
  /** @type {HTMLAnchorElement} */ (part(li, "link")).href = matchUrl.replace("/0/", "/" + m.fixture + "/");
  const pitch = withPitch ? new Pitch(part(li, "pitch").appendChild(newPitchSvg())) : null;
  return { li, pitch, row: /** @type {MatchRow|undefined} */ (undefined) };
}

/** @param {{li: HTMLElement, pitch: Pitch|null, row: MatchRow|undefined}} card @param {MatchRow} m @param {string[]} areas */
function fillCard(card, m, areas) {
  const li = card.li;
  li.setAttribute("data-status", m.status);
  li.setAttribute("data-version", String(m.version || ""));
  part(li, "place").textContent = placeText(m);
  part(li, "home").textContent = m.home;
  part(li, "away").textContent = m.away;
  part(li, "score").textContent = scoreText(m);
  part(li, "status").textContent = statusText(m);
  part(li, "last").textContent = m.last_text ? "Last: " + m.last_text : "";
  // After full time the position stays the clubs' with the score until the result counts.
  part(li, "pitch").hidden = m.status !== "live";
  if (card.pitch && m.pitch) card.pitch.draw(m.pitch, areas);
  const ul = part(li, "moments");
  ul.replaceChildren(...(m.moments || []).slice().reverse().map((x) => {
    const item = document.createElement("li");
    item.className = "moment moment--" + x.kind;
    item.textContent = momentMark(x.kind) + " " + x.text;
    return item;
  }));
  if (newGoal(card.row, m)) {
    li.classList.remove("centre-card--goal");
    void li.offsetWidth; // restarts the flash
    li.classList.add("centre-card--goal");
  }
  card.row = m;
}

/** @param {HTMLElement} list @param {MatchRow[]} rows @param {string[]} areas @param {string} url @param {boolean} withPitch */
function fillList(list, rows, areas, url, withPitch) {
  const seen = new Set();
  rows.forEach((m) => {
    const key = m.fixture * 10 + (withPitch ? 1 : 0);
    seen.add(key);
    let card = cards.get(key);
    if (!card || card.li.getAttribute("data-status") === "unconfirmed" && m.status === "live") {
      if (card) card.li.remove();
      card = newCard(m, url, withPitch && m.status === "live");
      cards.set(key, card);
    }
    fillCard(card, m, areas);
    list.appendChild(card.li); // keeps the document's order
  });
  cards.forEach((card, key) => {
    if (card.li.parentElement === list && !seen.has(key)) { card.li.remove(); cards.delete(key); }
  });
}

/** @param {HTMLElement} root */
export function startCentre(root) {
  const round = Number(root.getAttribute("data-round")) || null;
  const url = root.getAttribute("data-doc-url");
  const matchUrl = root.getAttribute("data-match-url");
  /** @param {string} id */
  const $ = (id) => /** @type {HTMLElement} */ (root.querySelector('[data-testid="' + id + '"]'));
  /** @type {string|null} */
  let etag = null;
  /** @param {CentreDoc} doc */
  const render = (doc) => {
    const shown = matchesFor(doc, round);
    fillList($("centre-live"), shown.live, doc.areas, matchUrl, true);
    fillList($("centre-finished"), shown.finished, doc.areas, matchUrl, false);
    $("centre-none").hidden = shown.live.length > 0;
    $("centre-none-finished").hidden = shown.finished.length > 0;
    root.setAttribute("data-version", doc.version);
  };
  const poll = () => {
    revalidate(url, etag).then((r) => {
      if (r.status === 304) return null;
      if (!r.ok) throw new Error(String(r.status));
      etag = r.headers.get("ETag");
      return r.json();
    }).then((doc) => {
      if (doc) render(doc);
      $("centre-net").textContent = "Up to date";
      $("centre-net").classList.remove("live__net--bad");
    }).catch(() => {
      $("centre-net").textContent = "Connection lost, retrying…";
      $("centre-net").classList.add("live__net--bad");
    }).then(() => {
      window.setTimeout(poll, document.visibilityState === "hidden" ? POLL_MS * 4 : POLL_MS);
    });
  };
  poll();
}

const centreRoot = typeof document === "undefined" ? null : document.getElementById("live-centre");
if (centreRoot) startCentre(centreRoot);
