/* The live panel of the match page: a spectator follows a match being scored at the table.
   Polls the session's live state (the same document the scorer reads, revalidated by its ETag)
   and draws the pitch with the last action, the score and clock, the question being answered,
   the latest entries, the feed by turn and the key moments. Read-only: no rule logic here. */
import { Pitch, keptAction } from "./pitch.js";
import { revalidate } from "./revalidate.js";
import { LIVE, backLabel, frameOfLine, newSince, stepBack, stepForward } from "./stepback.js";

const POLL_MS = 1500;
const DONE = ["submitted", "abandoned", "unconfirmed"];

// Set once by startLive, before any of the functions below runs.
/** @type {HTMLElement} the panel (templates/scoring/live_panel.html) */
let root;
/** @type {Pitch} */
let pitch;
/** @type {Record<string, string>} */
let names = {};
/** @type {string|null} */
let etag = null;
/** @type {string[]|null} */
let codes = null;
/** @type {Record<string, string>} */
const areaNames = {};
/** @type {number|null} */
let storyVersion = null;
/** @type {import("./pitch.js").Kept|null} */
let marked = null;
/** Where the spectator is in the feed (stepback.js): live, or stepped back to a turn.
    @type {import("./stepback.js").Cursor} */
let cursor = LIVE;
/** The last live document, drawn again on the way back to live. @type {any} */
let lastDoc = null;
/** The story with every moment's pitch, fetched when the spectator first steps back and kept
    (frozen) while they look back, so the view does not move under them. @type {any} */
let stepDoc = null;
/**
 * The panel's element with this test id: the template has them all, so a missing one is a bug.
 * @param {string} id
 * @returns {HTMLElement}
 */
function $(id) {
  const el = root.querySelector('[data-testid="' + id + '"]');
  if (!el) throw new Error("live panel: no " + id);
  return /** @type {HTMLElement} */ (el);
}

/** @param {string} name @returns {string} */
const attr = (name) => root.getAttribute(name) || "";

/** @param {any} d  the session state (live.json) */
function render(d) {
  lastDoc = d;
  root.setAttribute("data-seq", String(d.seq));
  root.setAttribute("data-status", d.status);
  if (cursor.at !== null) {
    // Stepped back: count what came in, move nothing.
    $("live-back").textContent = backLabel(newSince(cursor, d.seq));
    root.setAttribute("data-new", String(newSince(cursor, d.seq)));
    return;
  }
  if (!codes) {
    codes = d.areas.map((/** @type {{code: string}} */ a) => a.code);
    d.areas.forEach((/** @type {{code: string, name: string}} */ a) => { areaNames[a.code] = a.name; });
  }
  const st = d.state;
  $("live-score").textContent = st.score[0] + " – " + st.score[1];
  $("live-minute").textContent = st.minute + "'";
  $("live-turn").textContent = String(st.turn);
  const control = names[st.control] || st.control;
  $("live-ball").textContent = st.ball ? "Ball: " + areaNames[st.ball] + " · value " + st.value + " · " + control + " has it" : "";
  // A roll moves nothing by itself: the move, pass or shot before it this turn stays marked.
  marked = keptAction(marked, { turn: st.turn, seq: d.seq, last: st.last });
  pitch.draw({ ...st, last: marked ? marked.last : null }, codes || []);
  $("live-question").textContent = d.status === "live" ? d.question : statusLine(d.status);
  // The last entry only: the turn's line in the feed below tells the rest of it in words (a
  // spectator does not read the log's every "no more moves").
  fillList($("live-events"), d.events.slice(0, 1), (e) => e.text + (e.rolled_by_app ? " (rolled by the app)" : ""));
  if (d.version !== storyVersion) story(d.version);
}

/* The feed by turn and the key moments: built by the server from the whole log, once per
   version, and asked for only when the version moved. */
/** @param {number} version */
function story(version) {
  if (cursor.at !== null) return; // asked again on the way back to live
  storyVersion = version;
  fetch(attr("data-story-url"), { headers: { Accept: "application/json" }, cache: "no-cache" })
    .then((r) => { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
    .then((s) => {
      fillList($("live-feed"), s.feed.slice(-12).reverse(), (l) => l.text);
      fillList($("live-moments"), s.moments.slice(-20).reverse(), (m) => m.text);
      root.setAttribute("data-story", String(s.version));
    })
    .catch(() => { storyVersion = null; });
}

/* ---- stepping back through the feed (stepback.js) ---- */

function showMoment() {
  if (cursor.at === null || !stepDoc) return;
  const frames = stepDoc.frames || [];
  const line = stepDoc.feed[cursor.at];
  const frame = frames[frameOfLine(stepDoc.feed, cursor.at, frames.length)];
  if (frame) {
    pitch.draw(frame, codes || []);
    $("live-score").textContent = frame.score[0] + " – " + frame.score[1];
    $("live-minute").textContent = frame.minute + "'";
    $("live-turn").textContent = String(frame.turn);
    const control = names[frame.control] || frame.control;
    $("live-ball").textContent = frame.ball_name ? "Ball: " + frame.ball_name + " · value " + frame.value + " · " + control + " has it" : "";
  }
  // The feed as it stood then, that turn on top.
  const upTo = stepDoc.feed.slice(Math.max(0, cursor.at - 11), cursor.at + 1).reverse();
  fillList($("live-feed"), upTo, (/** @type {{text: string}} */ l) => l.text);
  const current = $("live-feed").firstElementChild;
  if (current) current.classList.add("feed--current");
  const moment = $("live-moment");
  moment.hidden = false;
  moment.textContent = line ? line.text : "";
  root.setAttribute("data-at", String(cursor.at));
  /** @type {HTMLButtonElement} */ ($("live-prev")).disabled = cursor.at === 0;
  /** @type {HTMLButtonElement} */ ($("live-next")).disabled = false;
  const back = $("live-back");
  back.hidden = false;
  back.textContent = backLabel(newSince(cursor, lastDoc ? lastDoc.seq : cursor.seq));
}

function goLive() {
  cursor = LIVE;
  stepDoc = null;
  storyVersion = null;
  $("live-moment").hidden = true;
  $("live-back").hidden = true;
  /** @type {HTMLButtonElement} */ ($("live-prev")).disabled = false;
  /** @type {HTMLButtonElement} */ ($("live-next")).disabled = true;
  root.removeAttribute("data-at");
  root.setAttribute("data-new", "0");
  if (lastDoc) render(lastDoc);
}

function previous() {
  if (stepDoc) {
    cursor = stepBack(cursor, stepDoc.feed.length, lastDoc ? lastDoc.seq : 0);
    showMoment();
    return;
  }
  const seq = lastDoc ? lastDoc.seq : 0;
  fetch(attr("data-story-url") + "?frames=1", { headers: { Accept: "application/json" }, cache: "no-cache" })
    .then((r) => { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
    .then((s) => {
      stepDoc = s;
      cursor = stepBack(LIVE, s.feed.length, seq);
      showMoment();
    })
    .catch(() => netStatus("Could not load the earlier moments, try again", true));
}

function next() {
  if (!stepDoc) return;
  cursor = stepForward(cursor, stepDoc.feed.length);
  if (cursor.at === null) goLive(); else showMoment();
}

/** @param {string} text @param {boolean} [bad] */
function netStatus(text, bad) {
  const el = $("live-net");
  el.textContent = text;
  el.classList.toggle("live__net--bad", !!bad);
}

function poll() {
  revalidate(attr("data-live-url"), etag).then((r) => {
    if (r.status === 304) return null;
    if (r.status === 403) {
      // Full time: the score and the log are public once both clubs have confirmed them.
      return r.json().then((body) => {
        root.setAttribute("data-status", "unconfirmed");
        $("live-question").textContent = body.error.message;
        return null;
      });
    }
    if (!r.ok) throw new Error(String(r.status));
    etag = r.headers.get("ETag");
    return r.json();
  }).then((d) => {
    if (d) render(d);
    netStatus("Up to date");
  }).catch(() => {
    netStatus("Connection lost, retrying…", true);
  }).then(() => {
    if (DONE.indexOf(attr("data-status")) < 0) {
      window.setTimeout(poll, document.visibilityState === "hidden" ? POLL_MS * 4 : POLL_MS);
    }
  });
}

/** @param {HTMLElement} el */
function startLive(el) {
  root = el;
  const svg = root.querySelector("[data-pitch]");
  if (!svg) return;
  pitch = new Pitch(/** @type {SVGSVGElement} */ (svg));
  names = { home: attr("data-home"), away: attr("data-away") };
  $("live-prev").addEventListener("click", previous);
  $("live-next").addEventListener("click", next);
  $("live-back").addEventListener("click", goLive);
  poll();
}

/** @param {string} status */
export function statusLine(status) {
  if (status === "full_time") return "Full time: the clubs confirm the result.";
  if (status === "abandoned") return "The scoring of this match was abandoned.";
  return "The result is submitted.";
}

/**
 * @template T
 * @param {Element} ol
 * @param {T[]} items
 * @param {(item: T) => string} text
 */
function fillList(ol, items, text) {
  while (ol.firstChild) ol.removeChild(ol.firstChild);
  items.forEach((it) => {
    const li = document.createElement("li");
    li.textContent = text(it);
    const entry = /** @type {any} */ (it);
    if (entry.seq) li.value = entry.seq;
    if (entry.key) li.className = "feed--key";
    ol.appendChild(li);
  });
}

const liveRoot = typeof document === "undefined" ? null : document.getElementById("live");
if (liveRoot) startLive(liveRoot);
