/* The dice pad: one row of faces per die of a roll, one tap per face (typed dice). The roll goes
   out when its last die is tapped; a die tapped again before that is corrected.

   A pad serves the pending roll, or the roll the engine asks right after the usual answer of the
   pending decision (pending.then of kind "roll", rules_engine.lookahead): then the faces entered
   send the usual answer first and the roll after it, as if tapped one by one. */
import { el } from "./dom.js";

export function createDicePad({ names, rerender }) {
  let faces = [];
  let key = null; // which roll the faces entered so far belong to

  function dieName(q, i) {
    if (q.actor === "both" && q.dice === 2) {
      if (q.name === "kick_off") return i === 0 ? names.home : names.away;
      return i === 0 ? "Ball" : "Defence";
    }
    return q.dice > 1 ? "Die " + (i + 1) : "Die";
  }
  function tap(q, i, f, onRoll) {
    faces[i] = f;
    if (faces.every((x) => x !== null)) {
      const entered = faces.slice();
      faces = [];
      key = null;
      onRoll(entered);
      return;
    }
    rerender();
  }
  function row(q, i, onRoll, extra) {
    const r = el("div", { "class": "sc-die", role: "group", "aria-label": dieName(q, i) });
    r.appendChild(el("span", { "class": "sc-die__label" }, dieName(q, i)));
    for (let f = 1; f <= q.sides; f++) {
      const b = el("button", Object.assign({
        type: "button", "class": "face", "aria-pressed": String(faces[i] === f),
        "data-die": String(i), "data-face": String(f),
      }, extra || {}), String(f));
      b.addEventListener("click", () => tap(q, i, f, onRoll));
      r.appendChild(b);
    }
    return r;
  }

  return {
    /* The rows of roll ``q`` into ``box``; ``onRoll(faces)`` once every die has a face. ``id``
       names the roll (a new one starts with no face entered); ``extra`` marks the buttons. */
    render(box, q, id, onRoll, extra) {
      if (key !== id || faces.length !== q.dice) { key = id; faces = new Array(q.dice).fill(null); }
      for (let i = 0; i < q.dice; i++) box.appendChild(row(q, i, onRoll, extra));
    },
    reset() { faces = []; key = null; },
  };
}
