/* The one pitch renderer: draws a match state on a FUBA pitch for the scorer (static/scoring/js/
   board.js, which adds taps and drags on top), the live panel and the replay. The SVG is the
   server's (templates/tournaments/partials/pitch.html, templates/scoring/pitch.html: areas with
   data-area, a [data-pieces] layer and, for the spectators, a [data-last] layer with arrow heads).

   It draws the engine's snapshot, `state` in docs/scorer-internals.md: the pieces per area (in
   the areas' board order), the goalkeepers, the ball with its value, and `last`, the last action,
   as an arrow from one area to another and the areas it concerned highlighted. No rule logic here.
   The geometry is plain functions over numbers, so it is unit-tested in Node (tests/js/). */

const SVG_NS = "http://www.w3.org/2000/svg";

/** @typedef {{x: number, y: number, w: number, h: number}} Box  an area's centre and size */
/** @typedef {{pieces: number[], gk: (string|null)}} TeamOnPitch */
/** @typedef {{kind?: string, team?: string, from?: (string|null), to?: (string|null), areas?: string[]}} LastAction */
/**
 * The part of the engine's snapshot the pitch shows.
 * @typedef {{teams: {home: TeamOnPitch, away: TeamOnPitch}, ball: (string|null), value: (number|string),
 *   last?: (LastAction|null)}} PitchState
 */

export const PIECE_R = 10;
export const BALL_R = 9;
// A corner spot is drawn as a small circle: its pieces and ball sit at its centre at this size.
const SPOT_BOX = 18;

/**
 * An area's centre and size from its SVG attributes (a rect, or a circle for a corner spot).
 * @param {string} tag
 * @param {(name: string) => (string|null)} attr
 * @returns {Box}
 */
export function areaBox(tag, attr) {
  const n = (/** @type {string} */ name) => Number(attr(name));
  if (tag.toLowerCase() === "circle") return { x: n("cx"), y: n("cy"), w: SPOT_BOX, h: SPOT_BOX };
  const x = n("x"), y = n("y"), w = n("width"), h = n("height");
  return { x: x + w / 2, y: y + h / 2, w, h };
}

/**
 * Where the pieces of an area stand: side by side when both teams are there and the area is wide
 * enough, else at its centre (a corner spot).
 * @param {Box} box
 * @param {number} home  home pieces there
 * @param {number} away  away pieces there
 * @returns {{home: number, away: number}}  each side's x offset from the centre
 */
export function pieceOffsets(box, home, away) {
  const spread = home && away && box.w > 40 ? PIECE_R + 4 : 0;
  return { home: spread ? -spread : 0, away: spread };
}

/**
 * The ball's spot: the area's bottom right corner (its name runs along the top, its pieces in the
 * middle); a corner spot's centre.
 * @param {Box} box
 * @returns {{x: number, y: number}}
 */
export function ballSpot(box) {
  return {
    x: box.x + (box.w > 40 ? box.w / 2 - 13 : 0),
    y: box.y + (box.h > 40 ? box.h / 2 - 12 : 0),
  };
}

/**
 * The last action's arrow from one centre to another, stopped short of both so that its head
 * does not hide the pieces there; null when the two are one point.
 * @param {{x: number, y: number}} a
 * @param {{x: number, y: number}} b
 * @returns {{x1: number, y1: number, x2: number, y2: number} | null}
 */
export function arrowEnds(a, b) {
  const dx = b.x - a.x, dy = b.y - a.y;
  const len = Math.sqrt(dx * dx + dy * dy);
  if (!len) return null;
  const cut = Math.min(12, len / 4);
  return { x1: a.x + dx * cut / len, y1: a.y + dy * cut / len, x2: b.x - dx * cut / len, y2: b.y - dy * cut / len };
}

/**
 * The areas the last action concerned (highlighted), as a set of codes.
 * @param {LastAction|null|undefined} last
 * @returns {Set<string>}
 */
export function involvedAreas(last) {
  return new Set(last && last.areas ? last.areas : []);
}

/** @typedef {{turn: number, seq: number, last: LastAction}} Kept  the action kept marked */

/**
 * The action the pitch keeps marked: a roll moves nothing by itself, so the move, pass or shot
 * before it in the same turn stays marked (as lichess keeps the last move), until the next turn
 * or an undo that takes it back (the match is then before the seq it was marked at).
 * @param {Kept|null} kept  what was marked before
 * @param {{turn: number, seq: number, last?: (LastAction|null)}} now  the state shown
 * @returns {Kept|null}
 */
export function keptAction(kept, now) {
  if (now.last && now.last.areas && now.last.areas.length) return { turn: now.turn, seq: now.seq, last: now.last };
  return kept && kept.turn === now.turn && kept.seq <= now.seq ? kept : null;
}

/**
 * @param {string} tag
 * @param {Record<string, string|number>} attrs
 * @param {string} [text]
 */
function node(tag, attrs, text) {
  const n = document.createElementNS(SVG_NS, tag);
  for (const k in attrs) n.setAttribute(k, String(attrs[k]));
  if (text !== undefined) n.textContent = text;
  return n;
}

/** @param {Element|null} g */
function clear(g) {
  while (g && g.firstChild) g.removeChild(g.firstChild);
}

/**
 * @param {string} side
 * @param {number} count
 * @param {boolean} gk
 * @param {{x: number, y: number}} at
 */
function piece(side, count, gk, at) {
  const g = node("g", { "class": "piece" });
  g.appendChild(node("circle", { cx: at.x, cy: at.y, r: PIECE_R, "class": "piece-" + side + (gk ? " gk" : "") }));
  g.appendChild(node("text", { x: at.x, y: at.y, "class": "piece-text piece-text--" + side }, String(count)));
  return g;
}

export class Pitch {
  /** @param {SVGSVGElement} svg  the server's pitch (data-pitch) */
  constructor(svg) {
    this.svg = svg;
    this.id = svg.id;
    this.pieces = svg.querySelector("[data-pieces]");
    // The spectators' pitch has its own layer under the pieces for the arrow; the scorer's draws it
    // with the pieces.
    this.arrows = svg.querySelector("[data-last]") || this.pieces;
    /** @type {Record<string, SVGElement>} */
    this.areas = {};
    svg.querySelectorAll("[data-area]").forEach((el) => {
      const code = el.getAttribute("data-area");
      if (code) this.areas[code] = /** @type {SVGElement} */ (el);
    });
  }

  /** @param {string|null|undefined} code @returns {Box|null} */
  box(code) {
    const el = code ? this.areas[code] : null;
    return el ? areaBox(el.tagName, (name) => el.getAttribute(name)) : null;
  }

  /**
   * Draws the state: `codes` are the area codes in board order (the order of the pieces).
   * @param {PitchState} state
   * @param {string[]} codes
   * @param {{ball?: boolean}} [opts]  ball: false leaves the ball and the last action out (a set-up
   *   being edited)
   */
  draw(state, codes, opts) {
    const layer = this.pieces;
    if (!layer) return;
    const withBall = !opts || opts.ball !== false;
    clear(layer);
    if (this.arrows !== this.pieces) clear(this.arrows);
    const involved = involvedAreas(withBall ? state.last : null);
    Object.keys(this.areas).forEach((code) => {
      this.areas[code].classList.toggle("area--ball", withBall && code === state.ball);
      this.areas[code].classList.toggle("area--last", involved.has(code));
    });
    if (withBall) this.drawLast(state.last);
    const { home, away } = state.teams;
    codes.forEach((code, i) => {
      const box = this.box(code);
      if (!box) return;
      const h = home.pieces[i], a = away.pieces[i];
      const dx = pieceOffsets(box, h, a);
      if (h) layer.appendChild(piece("home", h, home.gk === code, { x: box.x + dx.home, y: box.y + 5 }));
      if (a) layer.appendChild(piece("away", a, away.gk === code, { x: box.x + dx.away, y: box.y + 5 }));
    });
    const b = withBall ? this.box(state.ball) : null;
    if (b) {
      const at = ballSpot(b);
      layer.appendChild(node("circle", { cx: at.x, cy: at.y, r: BALL_R, "class": "ball" }));
      layer.appendChild(node("text", { x: at.x, y: at.y, "class": "ball-value" }, String(state.value)));
    }
  }

  /** @param {LastAction|null|undefined} last */
  drawLast(last) {
    if (!last || !last.from || !last.to || !this.arrows) return;
    const a = this.box(last.from), b = this.box(last.to);
    const ends = a && b ? arrowEnds(a, b) : null;
    if (!ends) return;
    const side = last.team === "away" ? "away" : "home";
    const head = this.id ? this.svg.querySelector('marker[id="' + this.id + "-head-" + side + '"]') : null;
    this.arrows.appendChild(node("line", {
      ...ends,
      "class": "arrow arrow--" + side + (last.kind === "shot" ? " arrow--shot" : ""),
      ...(head ? { "marker-end": "url(#" + head.id + ")" } : {}),
    }));
  }
}
