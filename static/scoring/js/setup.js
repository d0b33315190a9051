/* The set-up editor (rulebook 3, 3.3 and 3.3.1): any legal set-up, placed area by area on the
   board (a drag moves one player, a tapped area gets a − / + counter and "keeper"), with
   the presets as one-tap starting points. What is still wrong comes from the server
   (POST …/setup-check, which stores nothing) as the pieces are placed; the result goes out as
   the same `setup` decision the engine accepts. The editor counts pieces, it judges nothing. */
import { clear, el } from "./dom.js";

/** @typedef {import("./board.js").Draft} Draft */
/** @typedef {{gk: (string|null), players: Record<string, number>}} SetupChoice  the `setup` decision's value */

/**
 * A draft for `side` from a preset (a copy: editing it leaves the preset as it was).
 * @param {string} side
 * @param {SetupChoice} value
 * @returns {Draft}
 */
export function fromPreset(side, value) {
  return { side, players: Object.assign({}, value.players), gk: value.gk };
}

/**
 * The decision's value for a draft: the areas with players, the keeper's area.
 * @param {Draft} draft
 * @returns {SetupChoice}
 */
export function choiceOf(draft) {
  /** @type {Record<string, number>} */
  const players = {};
  Object.keys(draft.players).forEach((k) => { if (draft.players[k] > 0) players[k] = draft.players[k]; });
  return { gk: draft.gk, players };
}

/** @param {Draft} draft @returns {number} the outfield players placed */
export function placedCount(draft) {
  return Object.keys(draft.players).reduce((n, k) => n + draft.players[k], 0);
}

/**
 * A drag from area `a` to area `b` moves one player (the keeper when `a` has no other player): a
 * table rearranging a preset moves pieces, it does not count them again. Null: nothing to move.
 * @param {Draft} draft
 * @param {string} a
 * @param {string} b
 * @returns {Draft|null}
 */
export function moveOne(draft, a, b) {
  if (draft.players[a]) {
    return { ...draft, players: { ...draft.players, [a]: draft.players[a] - 1, [b]: (draft.players[b] || 0) + 1 } };
  }
  return draft.gk === a ? { ...draft, gk: b } : null;
}

/**
 * The first problem in a few words with its chapter (read at a glance); a tap shows every problem
 * in full.
 * @param {string[]} list  the server's problems
 * @param {string[]} shorts  each in a few words
 */
function problemLine(list, shorts) {
  const text = (shorts[0] || list[0]) + (list.length > 1 ? " · +" + (list.length - 1) : "");
  const line = el("p", { "class": "sc-problems", "data-testid": "sc-setup-problems", title: list.join("; "),
    role: "button", tabindex: "0", "aria-expanded": "false" }, text);
  line.addEventListener("click", () => {
    const open = line.getAttribute("aria-expanded") !== "true";
    line.setAttribute("aria-expanded", String(open));
    line.textContent = open ? list.join("; ") : text;
  });
  return line;
}

/**
 * The tapped area's counter: − n + and "keeper".
 * @param {string} name  the area's name
 * @param {Draft} draft
 * @param {string} code
 * @param {(fn: () => void) => void} change  applies an edit to the draft and redraws
 */
function stepper(name, draft, code, change) {
  const row = el("div", { "class": "sc-stepper", "data-testid": "sc-stepper" });
  row.appendChild(el("span", { "class": "sc-stepper__name" }, name));
  const minus = el("button", { type: "button", "class": "chip chip--small", "data-testid": "sc-setup-minus", "aria-label": "One player fewer" }, "−");
  const n = el("strong", { "data-testid": "sc-setup-n" }, String(draft.players[code] || 0));
  const plus = el("button", { type: "button", "class": "chip chip--small", "data-testid": "sc-setup-plus", "aria-label": "One player more" }, "+");
  minus.disabled = !draft.players[code];
  minus.addEventListener("click", () => change(() => { draft.players[code] = Math.max(0, (draft.players[code] || 0) - 1); }));
  plus.addEventListener("click", () => change(() => { draft.players[code] = (draft.players[code] || 0) + 1; }));
  row.appendChild(minus);
  row.appendChild(n);
  row.appendChild(plus);
  if (draft.gk !== code) {
    const gk = el("button", { type: "button", "class": "chip chip--small", "data-testid": "sc-setup-keeper", "aria-label": "The keeper here" }, "keeper");
    gk.addEventListener("click", () => change(() => { draft.gk = code; }));
    row.appendChild(gk);
  }
  return row;
}

/**
 * The count with the presets: one tap starts from a preset.
 * @param {Draft} draft
 * @param {any} q  the set-up question
 * @param {(value: SetupChoice) => void} pick
 */
function countRow(draft, q, pick) {
  const outfield = q.board && q.board.outfield;
  const head = el("div", { "class": "sc-setup__head" });
  head.appendChild(el("span", { "class": "sc-setup__count", "data-testid": "sc-setup-count" },
    placedCount(draft) + (outfield ? "/" + outfield : "") + " placed" + (draft.gk ? "" : ", no keeper")));
  head.appendChild(el("span", { "class": "small muted" }, "presets"));
  (q.options || []).forEach((o, i) => {
    const b = el("button", { type: "button", "class": "chip chip--small", "data-testid": "sc-setup-preset",
      "aria-label": "Start from preset " + (i + 1) }, String(i + 1));
    b.addEventListener("click", () => pick(o.value));
    head.appendChild(b);
  });
  return head;
}

/**
 * The areas to tap while editing: every area but the corner spots, the selected one as "from".
 * @param {{code: string, corner_spot?: boolean}[]} areas
 * @param {string|null} selected
 * @returns {Record<string, string>}
 */
export function setupMarks(areas, selected) {
  /** @type {Record<string, string>} */
  const marks = {};
  areas.forEach((a) => { if (!a.corner_spot) marks[a.code] = "pick"; });
  if (selected) marks[selected] = "from";
  return marks;
}

/** @param {boolean} disabled @param {() => void} onClick */
function useButton(disabled, onClick) {
  const use = el("button", { type: "button", "class": "button dock-main", "data-testid": "sc-setup-use" }, "Use this set-up");
  use.disabled = disabled;
  use.addEventListener("click", onClick);
  return use;
}

/** @param {{code: string, name: string}[]} areas @param {string} code */
function areaName(areas, code) {
  const area = areas.find((a) => a.code === code);
  return area ? area.name : code;
}

const ON_A_SPOT = "Players are set up in the areas, not on the corner spots.";

export function createSetup({ board, check, decide, say }) {
  let key = null; // the question being edited (seq)
  /** @type {Draft|null} */
  let draft = null;
  let selected = null;
  let problems = null; // null: not checked yet
  let shorts = []; // each problem in a few words with its chapter (the server's)
  let checking = 0;
  let ui = null;

  function recheck() {
    const ticket = ++checking;
    problems = null;
    check(choiceOf(draft)).then((res) => {
      if (ticket !== checking) return; // a later change asked again
      problems = res && res.ok !== undefined ? (res.ok ? [] : res.problems || []) : null;
      shorts = (res && res.short) || [];
      paint();
    }, () => { if (ticket === checking) { problems = null; paint(); } });
  }
  function change(fn) {
    fn();
    board.draw(ui.data.state, ui.data.areas, draft);
    recheck();
    paint();
  }

  /* Three short rows under the pitch, so the editor fits a phone with the pitch in view: the
     count with the presets, what is still wrong (one line: the first problem, a tap shows all),
     and the tapped area's counter (or how to start). */
  function paint() {
    if (!ui) return;
    const { box, dock, data, q } = ui;
    clear(box);
    clear(dock);
    board.draw(data.state, data.areas, draft);
    board.mark(setupMarks(data.areas || [], selected));
    box.appendChild(countRow(draft, q, (value) => { selected = null; change(() => { draft = fromPreset(q.actor, value); }); }));
    if (problems && problems.length) box.appendChild(problemLine(problems, shorts));
    box.appendChild(selected ? stepper(areaName(data.areas, selected), draft, selected, change) : el("p", { "class": "sc-hint sc-setup__hint" },
      "Drag a player, or tap an area: − / +"));
    dock.appendChild(useButton(!!(problems && problems.length), () => decide(choiceOf(draft))));
  }
  return {
    /* Draw the editor for this set-up question (kept across polls of the same question). */
    render(box, dock, data, q) {
      const k = data.seq + ":" + q.actor;
      if (k !== key) {
        key = k;
        selected = null;
        problems = [];
        // the engine's starting point: the team's previous set-up of this kind, else the first preset
        draft = fromPreset(q.actor, q.options[(q.board && q.options[q.board.start]) ? q.board.start : 0].value);
        recheck();
      }
      ui = { box: box, dock: dock, data: data, q: q };
      paint();
    },
    onTap(code) {
      const area = ui && ui.data.areas.find((a) => a.code === code);
      if (!area || area.corner_spot) { say(ON_A_SPOT); return; }
      say(null);
      selected = selected === code ? null : code;
      paint();
    },
    /* A drag moves one player from an area to another (moveOne). */
    onDrag(a, b) {
      if (!ui || !draft) return;
      const to = ui.data.areas.find((x) => x.code === b);
      if (!to || to.corner_spot) { say(ON_A_SPOT); return; }
      say(null);
      selected = null;
      const moved = moveOne(draft, a, b);
      if (moved) change(() => { draft = moved; });
    },
    stop() { ui = null; key = null; },
  };
}
