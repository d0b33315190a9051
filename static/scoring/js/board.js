/* The scorer's pitch: the one pitch renderer (static/fubaleague/pitch.js, also the live panel's and
   the replay's) draws the match state; this module adds a set-up being edited, the highlighted
   areas of a question, and taps or drags on areas.

   The board knows no rules: which areas are legal comes from the question (answer.js), the areas'
   names from the server's vocabulary (state JSON "areas"). A gesture is reported as
   onTap(code) or onDrag(fromCode, toCode); a drag counts as one tap. */
import { Pitch, keptAction } from "../../fubaleague/pitch.js";
import { svg } from "./dom.js";

/** @typedef {import("../../fubaleague/pitch.js").PitchState} PitchState */
/** @typedef {{code: string, name: string}} Area  one of the state JSON's "areas", in board order */
/** @typedef {{side: string, players: Record<string, number>, gk: (string|null)}} Draft  a set-up being edited */
/** @typedef {{onTap: (code: string) => void, onDrag: (from: string, to: string) => void}} Gestures */

/**
 * The state with a set-up being edited drawn instead of that side's pieces: the keeper is counted
 * with the players of its area, as the state's pieces are.
 * @param {PitchState} state
 * @param {string[]} codes  area codes in board order
 * @param {Draft} draft
 * @returns {PitchState}
 */
export function draftState(state, codes, draft) {
  const pieces = codes.map((code) => (draft.players[code] || 0) + (draft.gk === code ? 1 : 0));
  const side = /** @type {"home"|"away"} */ (draft.side);
  const teams = { ...state.teams, [side]: { ...state.teams[side], pieces, gk: draft.gk } };
  return { ...state, teams };
}

// A thumb's target: 44 CSS px (WCAG 2.5.5) is 38 of the pitch's units at a phone's usual scale
// (1.17 px a unit at 390x844); a corner spot is drawn 18 units wide.
export const HIT_UNITS = 38;

/**
 * The tap target of a corner spot: a square of `size` units with the spot at one corner, lying on
 * the pitch side (the spot sits on the pitch's corner, so a square centred on it would be half
 * outside the drawing and could not be tapped there).
 * @param {{x: number, y: number}} spot  its centre
 * @param {{width: number, height: number}} view  the pitch's viewBox size
 * @param {number} [size]
 * @returns {{x: number, y: number, width: number, height: number}}
 */
export function spotHitBox(spot, view, size = HIT_UNITS) {
  const inset = size / 4; // the spot's own middle stays inside the square
  const x = spot.x < view.width / 2 ? spot.x - inset : spot.x - size + inset;
  const y = spot.y < view.height / 2 ? spot.y - inset : spot.y - size + inset;
  const clamp = (/** @type {number} */ v, /** @type {number} */ max) => Math.max(0, Math.min(max - size, v));
  return { x: clamp(x, view.width), y: clamp(y, view.height), width: size, height: size };
}

/**
 * The corner spots' tap targets, over the areas and under the pieces: transparent, and taking a
 * tap only while their spot is an answer (area-hit--on), so that they never steal a tap from the
 * corner area under them.
 * @param {SVGSVGElement} svgEl
 * @param {Record<string, SVGElement>} shapes
 * @returns {Record<string, SVGElement>}
 */
function spotTargets(svgEl, shapes) {
  /** @type {Record<string, SVGElement>} */
  const hits = {};
  const vb = svgEl.getAttribute("viewBox");
  const [, , width, height] = (vb || "0 0 0 0").split(/\s+/).map(Number);
  const layer = svgEl.querySelector("[data-pieces]");
  const parent = layer && layer.parentNode;
  Object.keys(shapes).forEach((code) => {
    const s = shapes[code];
    if (s.tagName.toLowerCase() !== "circle" || !width || !parent) return;
    const box = spotHitBox({ x: Number(s.getAttribute("cx")), y: Number(s.getAttribute("cy")) }, { width, height });
    const hit = svg("rect", { ...box, "class": "area-hit", "data-hit": code, "aria-hidden": "true" });
    parent.insertBefore(hit, layer);
    hits[code] = hit;
  });
  return hits;
}

/**
 * The area code under a pointer event: its target when that is an area (pieces let the pointer
 * through), else what lies at its point (a touch's pointerup is aimed at where it started).
 * @param {Element} svgEl
 * @param {PointerEvent} e
 */
function areaAt(svgEl, e) {
  const target = /** @type {Element} */ (e.target);
  const AREA = "[data-area], [data-hit]";
  let a = target && target.closest ? target.closest(AREA) : null;
  if (!a || e.type === "pointerup") {
    const hit = document.elementFromPoint(e.clientX, e.clientY);
    const under = hit && hit.closest && hit.closest(AREA);
    if (under) a = under;
  }
  return a && svgEl.contains(a) ? a.getAttribute("data-area") || a.getAttribute("data-hit") : null;
}

/**
 * Pointer events: a press and release on one area is a tap, on two areas a drag (pieces and the
 * ball are drawn above the areas and let the pointer through, see scorer.css); the keyboard: the
 * areas are focusable buttons for those who do not tap.
 * @param {SVGSVGElement} svgEl
 * @param {Record<string, SVGElement>} shapes
 * @param {Gestures} gestures
 */
function listen(svgEl, shapes, { onTap, onDrag }) {
  /** @type {string|null} */
  let down = null;
  svgEl.addEventListener("pointerdown", (e) => {
    const code = areaAt(svgEl, e);
    if (!code) return;
    down = code;
    if (svgEl.releasePointerCapture && e.pointerId !== undefined) {
      try { svgEl.releasePointerCapture(e.pointerId); } catch { /* not captured */ }
    }
  });
  svgEl.addEventListener("pointerup", (e) => {
    if (down === null) return;
    const from = down;
    down = null;
    const to = areaAt(svgEl, e);
    if (!to) return;
    if (to === from) onTap(to);
    else onDrag(from, to);
  });
  svgEl.addEventListener("pointercancel", () => { down = null; });
  Object.keys(shapes).forEach((n) => {
    shapes[n].setAttribute("tabindex", "0");
    shapes[n].setAttribute("role", "button");
    shapes[n].addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onTap(n); }
    });
  });
}

/**
 * @param {SVGSVGElement} svgEl  the scorer's pitch (templates/scoring/pitch.html)
 * @param {Gestures} gestures
 */
export function createBoard(svgEl, gestures) {
  const pitch = new Pitch(svgEl);
  const shapes = pitch.areas;
  const hits = spotTargets(svgEl, shapes);
  let labelled = false;
  /** @type {import("../../fubaleague/pitch.js").Kept|null} */
  let kept = null;

  /* The areas' labels are drawn by the server in its words: the team whose half an area lies in
     over the area's words ("Peru" / "left wing"); a screen reader gets the whole name. */
  /** @param {Area[]} areas */
  function label(areas) {
    if (labelled || !areas) return;
    labelled = true;
    areas.forEach((a) => {
      if (shapes[a.code]) shapes[a.code].setAttribute("aria-label", a.name);
    });
  }

  /**
   * @param {PitchState & {turn?: number}} state
   * @param {Area[]} areas
   * @param {Draft} [draft]  drawn instead of that side's pieces, without the ball
   * @param {number} [seq]  the state's seq: an action stays marked through the rolls after it
   *   (keptAction), as on the live panel and the replay
   */
  function draw(state, areas, draft, seq) {
    label(areas);
    if (!pitch.pieces || !areas) return;
    const codes = areas.map((a) => a.code);
    if (draft) { pitch.draw(draftState(state, codes, draft), codes, { ball: false }); return; }
    if (seq === undefined) { pitch.draw(state, codes); return; }
    kept = keptAction(kept, { turn: state.turn || 0, seq, last: state.last });
    pitch.draw({ ...state, last: kept ? kept.last : null }, codes);
  }

  /** @param {Record<string, string>} classes  {code: "pick" | "from" | "target"} */
  function mark(classes) {
    Object.keys(shapes).forEach((n) => {
      const s = shapes[n];
      s.classList.remove("area--pick", "area--from", "area--target");
      if (classes[n]) s.classList.add("area--" + classes[n]);
      if (hits[n]) hits[n].classList.toggle("area-hit--on", !!classes[n]);
    });
    svgEl.classList.toggle("pitch--asking", Object.keys(classes).length > 0);
  }

  listen(svgEl, shapes, gestures);
  return { draw, mark, has: (/** @type {string} */ code) => !!shapes[code] };
}
