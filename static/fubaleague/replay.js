/* Match replay: steps through frames computed server-side by the rules engine (replay.json):
   the pitch with the last action, score and clock, the feed grouped by turn, the key moments,
   autoplay at 1x/4x, goal and card marks on the slider, keys (arrows: event, shift+arrows: turn,
   space: play) and swipes on the pitch (short: event, long: turn). No rule logic here. */
import { Pitch } from "./pitch.js";

const STEP_MS = 800; // one event a step at 1x: a turn of about 15 events in 12 s

// Set once by startReplay, before any of the functions below runs.
/** @type {HTMLElement} */
let root;
/** @type {Pitch} */
let pitch;
/** @type {HTMLInputElement} */
let range;
/** @type {any} replay.json: {areas, teams, frames, feed, moments, marks, error} */
let data = null;
let pos = 0;
/** @type {number|null} */
let timer = null;
let speed = 1;

/**
 * The replay's element for this selector: the template has them all, so a missing one is a bug.
 * @param {string} selector
 */
function required(selector) {
  const el = root.querySelector(selector);
  if (!el) throw new Error("replay: no " + selector);
  return el;
}
/** @param {string} id @returns {HTMLElement} */
const $ = (id) => /** @type {HTMLElement} */ (required('[data-testid="' + id + '"]'));
/** @param {string} action @returns {HTMLButtonElement} */
const button = (action) => /** @type {HTMLButtonElement} */ (required('[data-action="' + action + '"]'));

/** @param {string} side */
function teamName(side) { return data.teams && data.teams[side] ? data.teams[side].name : side; }

/**
 * The last action that concerned areas: a roll moves nothing on the pitch by itself, so the move,
 * pass or shot before it in the same turn stays marked (as lichess keeps the last move).
 * @param {{turn: number, last: (import("./pitch.js").LastAction|null)}[]} frames
 * @param {number} at
 */
export function lastOnPitch(frames, at) {
  const turn = frames[at].turn;
  for (let i = at; i >= 0 && frames[i].turn === turn; i--) {
    const last = frames[i].last;
    if (last && last.areas && last.areas.length) return last;
  }
  return null;
}

/**
 * The feed line (a turn) that the frame at `at` belongs to; -1 before the first.
 * @param {{first: number}[]} feed
 * @param {number} at
 */
export function turnIndex(feed, at) {
  let index = -1;
  feed.forEach((line, i) => { if (line.first <= at) index = i; });
  return index;
}

/** @param {any} frame */
function draw(frame) {
  // a frame's pitch is in the engine snapshot's shape (matches/replay.py _frame)
  pitch.draw({ ...frame, last: lastOnPitch(data.frames, pos) }, data.areas);
  $("replay-score").textContent = frame.score[0] + " – " + frame.score[1];
  $("replay-minute").textContent = frame.minute + "'";
  $("replay-turn").textContent = frame.turn;
  $("replay-ball").textContent = (frame.ball_name || "–") + " · value " + frame.value;
  $("replay-control").textContent = teamName(frame.control);
  const notes = frame.notes.map((/** @type {{text: string}} */ n) => n.text).filter(Boolean);
  $("replay-event").textContent = frame.text + (notes.length ? " — " + notes.join("; ") : "");
  // what the one line leaves out (a set-up's whole placement), under it
  $("replay-detail").textContent = frame.detail || "";
  $("replay-detail").hidden = !frame.detail;
  $("replay-position").textContent = "Event " + (pos + 1) + " of " + data.frames.length;
  range.value = String(pos);
  const end = pos === data.frames.length - 1;
  ["back", "first", "prev-turn"].forEach((a) => { button(a).disabled = pos === 0; });
  ["forward", "last", "next-turn"].forEach((a) => { button(a).disabled = end; });
  markCurrent($("replay-feed"), turnIndex(data.feed, pos));
}

/** @param {HTMLElement} list @param {number} index */
function markCurrent(list, index) {
  const items = list.children;
  for (let i = 0; i < items.length; i++) {
    if (i === index) items[i].setAttribute("aria-current", "step"); else items[i].removeAttribute("aria-current");
  }
  const item = /** @type {HTMLElement} */ (items[index]);
  if (item && list.scrollHeight > list.clientHeight) list.scrollTop = item.offsetTop - list.offsetTop - list.clientHeight / 2;
}

/**
 * The address's fragment for the replay at frame ``at``: the event number the page shows, so a
 * shared link opens at that moment.
 * @param {number} at
 * @returns {string}
 */
export function eventHash(at) { return "#event-" + (at + 1); }

/**
 * The frame a fragment names (``#event-<n>``, as eventHash writes it), or null when it names none
 * of the ``count`` frames.
 * @param {string} hash
 * @param {number} count
 * @returns {number|null}
 */
export function frameFromHash(hash, count) {
  const m = /^#event-(\d+)$/.exec(hash || "");
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= count ? n - 1 : null;
}

/** @param {number} i @param {boolean} [quiet]  leave the address as it is (the first frame drawn) */
function go(i, quiet) {
  if (!data || !data.frames.length) return;
  pos = Math.max(0, Math.min(data.frames.length - 1, i));
  draw(data.frames[pos]);
  if (pos === data.frames.length - 1) pause();
  // The address follows the step (no history entry a step): copying it links to this moment.
  if (!quiet && location.hash !== eventHash(pos)) history.replaceState(null, "", eventHash(pos));
}

function nextTurn() {
  const next = data.feed.find((/** @type {{first: number}} */ line) => line.first > pos);
  go(next ? next.first : data.frames.length - 1);
}

function prevTurn() {
  const t = turnIndex(data.feed, pos);
  const start = t >= 0 ? data.feed[t].first : 0;
  // At a turn's first event "previous turn" goes to the turn before, as a player expects.
  if (start < pos) return go(start);
  go(t > 0 ? data.feed[t - 1].first : 0);
}

function play() {
  if (timer || !data) return;
  if (pos === data.frames.length - 1) go(0);
  timer = window.setInterval(() => { go(pos + 1); }, STEP_MS / speed);
  const b = button("play");
  b.textContent = "❚❚ Pause"; b.setAttribute("aria-pressed", "true"); root.setAttribute("data-playing", "true");
}

function pause() {
  if (!timer) return;
  window.clearInterval(timer);
  timer = null;
  const b = button("play");
  b.textContent = "▶ Play"; b.setAttribute("aria-pressed", "false"); root.setAttribute("data-playing", "false");
}

function setSpeed() {
  speed = speed === 1 ? 4 : 1;
  button("speed").textContent = speed + "×";
  if (timer) { pause(); play(); }
}

/** @type {Record<string, () => void>} */
const actions = {
  forward: () => go(pos + 1), back: () => go(pos - 1),
  first: () => go(0), last: () => go(data.frames.length - 1),
  "next-turn": nextTurn, "prev-turn": prevTurn,
  play: () => { if (timer) pause(); else play(); }, speed: setSpeed,
};

/** @param {KeyboardEvent} e */
function onKey(e) {
  if (!data || e.altKey || e.ctrlKey || e.metaKey) return;
  const t = /** @type {HTMLElement} */ (e.target);
  if (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && t !== range) || t.isContentEditable) return;
  // The keys work wherever the page is, unless the focus is in another part of the page's forms.
  if (t !== document.body && !root.contains(t)) return;
  let handled = true;
  if (e.key === "ArrowRight") { pause(); if (e.shiftKey) nextTurn(); else go(pos + 1); }
  else if (e.key === "ArrowLeft") { pause(); if (e.shiftKey) prevTurn(); else go(pos - 1); }
  else if (e.key === " " && t.tagName !== "BUTTON") actions.play();
  else if (e.key === "Home") { pause(); go(0); }
  else if (e.key === "End") { pause(); go(data.frames.length - 1); }
  else handled = false;
  if (handled) e.preventDefault();
}

function listenToSwipes() {
  /** @type {{x: number, y: number}|null} */
  let touch = null;
  pitch.svg.addEventListener("touchstart", (e) => {
    if (e.touches.length === 1) touch = { x: e.touches[0].clientX, y: e.touches[0].clientY };
  }, { passive: true });
  pitch.svg.addEventListener("touchend", (e) => {
    if (!touch || !data) return;
    const dx = e.changedTouches[0].clientX - touch.x, dy = e.changedTouches[0].clientY - touch.y;
    touch = null;
    if (Math.abs(dx) < 30 || Math.abs(dx) < Math.abs(dy)) return;
    pause();
    const long = Math.abs(dx) > pitch.svg.getBoundingClientRect().width / 2;
    if (dx < 0) { if (long) nextTurn(); else go(pos + 1); }
    else if (long) prevTurn(); else go(pos - 1);
  }, { passive: true });
}

/** @param {string} text @param {number} index @param {Record<string, string>} [attrs] */
function listItem(text, index, attrs) {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.type = "button"; b.className = "steplink"; b.textContent = text;
  b.addEventListener("click", () => { pause(); go(index); });
  Object.entries(attrs || {}).forEach(([k, v]) => li.setAttribute(k, v));
  li.appendChild(b);
  return li;
}

// Marks closer than this (px) would cover each other: a goal a minute after another could not be
// tapped, so the later one goes up a row.
const MARK_ROOM = 15;

function marks() {
  const box = $("replay-marks");
  const n = Math.max(1, data.frames.length - 1);
  const width = box.clientWidth || 320;
  /** @type {number[]} the right edge (px) of the last mark in each row */
  const rows = [];
  data.marks.forEach((/** @type {{i: number, kind: string, text: string}} */ m) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "replay__mark replay__mark--" + m.kind;
    b.style.left = (100 * m.i / n) + "%";
    if (m.kind !== "half_time" && m.kind !== "extra_time") {
      const at = width * m.i / n;
      let row = rows.findIndex((edge) => at >= edge);
      if (row < 0) row = rows.length;
      rows[row] = at + MARK_ROOM;
      if (row > 0) b.style.transform = "translateY(-" + row + "rem)";
    }
    b.title = m.text; b.setAttribute("aria-label", m.text);
    b.setAttribute("data-testid", "replay-mark"); b.setAttribute("data-kind", m.kind);
    b.addEventListener("click", () => { pause(); go(m.i); });
    box.appendChild(b);
  });
}

/** @param {any} json  replay.json */
function loaded(json) {
  data = json;
  if (!data.frames || !data.frames.length) {
    $("replay-event").textContent = "This log cannot be replayed" + (data.error ? ": " + data.error.message : ".");
    return;
  }
  range.max = String(data.frames.length - 1);
  const feed = $("replay-feed"), moments = $("replay-notes");
  data.feed.forEach((/** @type {{text: string, first: number, key?: boolean}} */ line) => { feed.appendChild(listItem(line.text, line.first, line.key ? { "class": "feed--key" } : {})); });
  data.moments.forEach((/** @type {{text: string, i: number, kind: string}} */ m) => { moments.appendChild(listItem(m.text, m.i, { "data-kind": m.kind })); });
  marks();
  if (data.error) $("replay-event").textContent = "Replay stops at an error: " + data.error.message;
  const linked = frameFromHash(location.hash, data.frames.length);
  go(linked === null ? 0 : linked, true);
  if (linked !== null) root.scrollIntoView();
  root.setAttribute("data-ready", "true");
}

/** @param {HTMLElement} el  the replay's section (templates/tournaments/match.html) */
function startReplay(el) {
  root = el;
  pitch = new Pitch(/** @type {SVGSVGElement} */ (required("[data-pitch]")));
  range = /** @type {HTMLInputElement} */ (document.getElementById("replay-range"));
  root.addEventListener("click", (e) => {
    const btn = /** @type {Element} */ (e.target).closest("[data-action]");
    if (!btn || !data) return;
    const a = btn.getAttribute("data-action") || "";
    if (a !== "play" && a !== "speed") pause();
    if (actions[a]) actions[a]();
  });
  range.addEventListener("input", () => { pause(); go(+range.value); });
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => {
    const at = data ? frameFromHash(location.hash, data.frames.length) : null;
    if (at !== null && at !== pos) { pause(); go(at, true); }
  });
  listenToSwipes();
  fetch(root.getAttribute("data-replay-url") || "", { headers: { Accept: "application/json" } })
    .then((r) => r.json())
    .then(loaded)
    .catch(() => { $("replay-event").textContent = "The replay could not be loaded."; });
}

const replayRoot = typeof document === "undefined" ? null : document.getElementById("replay");
if (replayRoot) startReplay(replayRoot);
