/* The question on screen and its answers: dice faces, places and moves on the pitch, chips for
   the other options, the set-up editor (setup.js), and the usual answer ("done", "no") in the
   dock at the bottom.

   Nothing here decides what is legal: the server's pending question says it. pending.board (the
   engine's pitch input, docs/scorer-internals.md) lists the legal move sources and destinations, the answer
   areas and a reason in words for every other area; without it, an option whose value is an area
   code is a place and one of the form "FROM>TO" ("GK>TO", "+ball") a move. A move is a tap on
   FROM then on TO, or a drag. */
import { byId, clear, el } from "./dom.js";
import { chipCount, chipRow } from "./groups.js";
import { createSetup } from "./setup.js";

const MOVE = /^([A-Z]+(?:-[A-Z]+)?)>([A-Z]+(?:-[A-Z]+)?)(\+ball)?$/;

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

/* What the pending decision offers, sorted by how it is answered: places and moves on the pitch,
   chips, the usual answer. From pending.board when the server sends it (the engine's own checks,
   with a reason for every area that is not an answer), else from the options' values. */
export function choices(p, state, areas) {
  const codes = {};
  (areas || []).forEach((a) => { codes[a.code] = a; });
  const out = { places: {}, moves: {}, chips: [], def: null, answers: 0, why: {}, whyTo: {}, far: null, setup: false };
  const hasDefault = p.default !== null && p.default !== undefined;
  if (hasDefault) out.def = { value: p.default, label: p.default_label || String(p.default) };
  const options = p.options || [];
  const label = (value, fallback) => {
    const o = options.find((x) => same(x.value, value));
    return o ? o.label : fallback;
  };
  const addMove = (from, to, value, fallback) => {
    (out.moves[from] = out.moves[from] || {});
    (out.moves[from][to] = out.moves[from][to] || []).push({ value: value, label: label(value, fallback) });
  };
  const b = p.board;
  if (b) {
    out.why = b.why_not || {};
    out.whyTo = b.why_not_to || {};
    out.far = b.far || null;
    out.setup = b.kind === "setup";
    Object.keys(b.sources || {}).forEach((from) => b.sources[from].forEach((to) => addMove(from, to, from + ">" + to, "a player")));
    Object.keys(b.dribbles || {}).forEach((from) => b.dribbles[from].forEach((to) => addMove(from, to, from + ">" + to + "+ball", "with the ball")));
    if (b.keeper) b.keeper.to.forEach((to) => addMove(b.keeper.from, to, "GK>" + to, "the goalkeeper"));
    (b.areas || []).forEach((code) => { out.places[code] = { value: code, label: label(code, code) }; });
  }
  if (!b) out.setup = options.some((o) => o.value && typeof o.value === "object" && o.value.players);
  const onPitch = (v) => typeof v === "string" && (!!out.places[v] || /^[A-Z-]+>[A-Z-]+(\+ball)?$/.test(v));
  const gk = state && state.teams[p.actor] ? state.teams[p.actor].gk : null;
  options.forEach((o) => {
    const v = o.value;
    if (hasDefault && same(v, p.default)) return;
    if (out.setup) return; // set-ups are made on the board editor; the presets are its starting points
    if (b && onPitch(v)) return;
    if (!b && typeof v === "string" && codes[v]) { out.places[v] = o; return; }
    const m = !b && typeof v === "string" ? MOVE.exec(v) : null;
    if (m && codes[m[2]] && (codes[m[1]] || (m[1] === "GK" && gk))) {
      addMove(m[1] === "GK" ? gk : m[1], m[2], v, o.label);
      return;
    }
    out.chips.push(o);
  });
  out.rolls = rollsOf(p);
  addThen(out, p);
  let n = out.chips.length + Object.keys(out.places).length + (hasDefault ? 1 : 0);
  Object.keys(out.moves).forEach((f) => Object.keys(out.moves[f]).forEach((t) => { n += out.moves[f][t].length; }));
  out.answers = typeof p.only_answer === "boolean" ? (p.only_answer ? 1 : Math.max(n, 2)) : n;
  return out;
}

/* The answers the engine follows at once by a roll (pending.rolls, rules_engine.lookahead): that
   roll by the answer's value (as JSON). */
function rollsOf(p) {
  const out = {};
  (p.rolls || []).forEach((r) => { out[JSON.stringify(r.choice)] = r.roll; });
  return out;
}

/* The decision the engine asks right after the usual answer (pending.then, rules_engine.lookahead):
   its areas on the pitch when this question leaves the pitch free, else its chips when they are
   not places. A tap on one answers both: the usual answer first, then this one. */
function addThen(out, p) {
  out.thenPlaces = {};
  out.thenChips = [];
  out.thenRolls = {};
  out.then = null;
  const t = p.then;
  if (!t || !out.def || out.setup) return;
  const tb = t.board;
  const pitchFree = !Object.keys(out.places).length && !Object.keys(out.moves).length;
  if (tb && (tb.areas || []).length) {
    if (!pitchFree || (tb.sources && Object.keys(tb.sources).length)) return;
    tb.areas.forEach((code) => {
      const o = (t.options || []).find((x) => x.value === code);
      out.thenPlaces[code] = { value: code, label: o ? o.label : code };
    });
  } else if (!tb && (t.options || []).length + out.chips.length <= 7) {
    out.thenChips = t.options.slice();
    out.thenRolls = rollsOf(t);
  } else {
    return;
  }
  out.then = t;
}

/* The question being answered, kept between renders (a poll of the same version keeps a move's
   first tap, an open kind of chips, the dice tapped so far and a picked answer's faces). */
/**
 * @typedef {object} Ask
 * @property {HTMLElement} root
 * @property {any} board  board.js
 * @property {{canWrite: boolean, names: Record<string, string>, send: Function, say: Function}} ctx
 * @property {HTMLElement|null} box  the answers under the question
 * @property {HTMLElement|null} dock  the usual answer's place in the dock
 * @property {any} data  the session state shown
 * @property {any} c  choices() of the pending decision
 * @property {string|null} from  the first tap of a move
 * @property {string|null} kind  the kind of answer open, when the server grouped the options (groups.js)
 * @property {(number|null)[]} dice  typed dice tapped so far
 * @property {number|null} autoAnswered  the version whose single legal answer the page sent
 * @property {{key: string, roll: any, faces: (number|null)[]}|null} held  typed dice: an answer picked by the first face of its roll
 * @property {boolean} appDice
 * @property {any} setup  the set-up editor (setup.js)
 */

/** @param {Ask} st */
function pending(st) { return st.data && st.data.status === "live" ? st.data.pending : null; }

/** @param {Ask} st @param {any} value @param {object} [opt] */
function decide(st, value, opt) {
  const q = pending(st);
  st.ctx.send({ event: { decide: q.name, by: q.actor, choice: value } }, opt);
}

// What the page sends without a tap is counted on the root (data-auto), for the tap bench.
/** @param {Ask} st @param {object} body */
function auto(st, body) {
  st.root.dataset.auto = String((+st.root.dataset.auto || 0) + 1);
  st.ctx.send(body, { auto: true });
}

// One tap on an answer of the next decision: the usual answer of this one, then that answer.
/** @param {Ask} st @param {any} value */
function decideThen(st, value) {
  const t = st.c.then;
  decide(st, st.c.def.value);
  st.ctx.send({ event: { decide: t.name, by: t.actor, choice: value } });
}

/** @param {Ask} st @param {any} o  an option @param {Record<string, string>|null} [extra] */
function chip(st, o, extra) {
  const b = el("button", Object.assign({
    type: "button", "class": "chip", "data-testid": "sc-option", "data-choice": JSON.stringify(o.value),
  }, extra || {}), o.label);
  // a chip of the next decision (data-then) answers the usual answer first
  b.addEventListener("click", () => (b.dataset.then ? decideThen(st, o.value) : decide(st, o.value)));
  return b;
}

/**
 * The areas the pitch highlights for a decision: a move's destinations once its source is tapped,
 * else every place, move source and place of the next decision.
 * @param {any} c  choices()
 * @param {string|null} from
 * @returns {Record<string, string>}
 */
export function boardMarks(c, from) {
  /** @type {Record<string, string>} */
  const marks = {};
  if (!c) return marks;
  if (from) {
    marks[from] = "from";
    Object.keys(c.moves[from] || {}).forEach((to) => { marks[to] = "target"; });
    return marks;
  }
  [c.places, c.moves, c.thenPlaces].forEach((m) => Object.keys(m).forEach((code) => { marks[code] = "pick"; }));
  return marks;
}

/**
 * A die's name on its row: the team for the kick-off roll, ball and defence for the other rolls of
 * both teams, else its number.
 * @param {{actor: string, dice: number, name: string}} q  the roll
 * @param {number} i
 * @param {Record<string, string>} names
 */
export function dieName(q, i, names) {
  if (q.actor === "both" && q.dice === 2) {
    if (q.name === "kick_off") return i === 0 ? names.home : names.away;
    return i === 0 ? "Ball" : "Defence";
  }
  return q.dice > 1 ? "Die " + (i + 1) : "Die";
}

/** @param {Ask} st @param {any} q @param {number} i */
function dieRow(st, q, i) {
  const name = dieName(q, i, st.ctx.names);
  const row = el("div", { "class": "sc-die", role: "group", "aria-label": name });
  row.appendChild(el("span", { "class": "sc-die__label" }, name));
  for (let f = 1; f <= q.sides; f++) {
    const b = el("button", {
      type: "button", "class": "face", "aria-pressed": String(st.dice[i] === f),
      "data-die": String(i), "data-face": String(f),
    }, String(f));
    b.addEventListener("click", () => face(st, q, i, f));
    row.appendChild(b);
  }
  return row;
}

// The roll goes out when its last die is tapped; a die tapped again before that is corrected.
/** @param {Ask} st @param {any} q @param {number} i @param {number} f */
function face(st, q, i, f) {
  st.dice[i] = f;
  if (st.dice.every((x) => x !== null)) {
    const faces = st.dice.slice();
    st.dice = [];
    st.ctx.send({ event: { roll: q.name, by: q.actor, dice: faces } });
    return;
  }
  render(st, st.data);
}

/** @param {Ask} st @param {string} label @param {string} testid @param {() => void} onclick @param {string} [extraClass] */
function dockButton(st, label, testid, onclick, extraClass) {
  const b = el("button", { type: "button", "class": "button dock-main" + (extraClass || ""), "data-testid": testid }, label);
  b.addEventListener("click", onclick);
  st.dock.appendChild(b);
}

/**
 * @param {Ask} st
 * @param {any} d  the session state
 * @param {{waiting?: number|boolean, waitText?: string|null}} [opts]
 */
function render(st, d, { waiting, waitText } = {}) {
  const data = st.data;
  if (!data || !d || data.version !== d.version) {
    st.from = null; st.kind = null; st.held = null;
    if (!data || !d || data.seq !== d.seq) st.dice = [];
  }
  st.data = d;
  if (!st.box) { st.board.mark({}); return; }
  clear(st.box);
  if (st.dock) clear(st.dock);
  const q = pending(st);
  st.c = q && q.kind === "decision" ? choices(q, d.state, d.areas) : null;
  st.board.mark(st.ctx.canWrite && q && q.kind === "decision" ? boardMarks(st.c, st.from) : {});
  st.root.classList.toggle("is-rolling", !!(q && q.kind === "roll"));
  st.root.classList.toggle("is-editing", !!(st.ctx.canWrite && st.c && st.c.setup));
  st.root.classList.remove("has-many", "has-rows");
  if (!st.ctx.canWrite || !q) return;
  if (waiting) {
    st.box.appendChild(el("p", { "class": "sc-wait", "data-testid": "sc-waiting" }, waitText ||
      "Saved on this phone: it goes to the server when the connection is back (Undo takes it back)."));
    return;
  }
  if (q.kind === "roll") renderRoll(st, q, d);
  else renderDecision(st, q, d);
}

/** @param {Ask} st @param {any} q @param {any} d */
function renderRoll(st, q, d) {
  if (st.dice.length !== q.dice) st.dice = new Array(q.dice).fill(null);
  if (st.appDice) {
    // With app dice nobody rolls at the table: a roll that follows an entry (a roll or a
    // decision, with no question in between) is rolled with that entry's tap, once per
    // version. "Roll" is tapped for the first roll and after an undo (which must not roll
    // again by itself).
    const last = d.events[0];
    const undone = d.last_undo && d.last_undo.seq === d.seq + 1;
    if (last && !undone && st.autoAnswered !== d.version) {
      st.autoAnswered = d.version;
      auto(st, { roll_for_me: true });
      return;
    }
  } else {
    for (let i = 0; i < q.dice; i++) st.box.appendChild(dieRow(st, q, i));
  }
  const rollForMe = () => { st.dice = []; st.ctx.send({ roll_for_me: true }); };
  dockButton(st, st.appDice ? "Roll" : "Roll for me", "sc-roll-for-me", rollForMe, st.appDice ? "" : " button--ghost");
}

/** @param {Ask} st @param {any} q @param {any} d */
function renderDecision(st, q, d) {
  const c = st.c;
  // A question with exactly one legal answer, or a moot prompt (its other answers change
  // nothing in play: pending.auto_answer), is answered by the page (the log records it as any
  // decision); once per version, so a poll does not send it twice.
  const hasAuto = q.auto_answer !== null && q.auto_answer !== undefined;
  if ((hasAuto || c.answers === 1) && st.autoAnswered !== d.version) {
    st.autoAnswered = d.version;
    const first = (q.options || [])[0];
    const only = hasAuto ? q.auto_answer : first && (q.only_answer || !c.def) ? first.value : c.def.value;
    auto(st, { event: { decide: q.name, by: q.actor, choice: only } });
    return;
  }
  if (c.setup) { st.setup.render(st.box, st.dock, d, q); return; }
  st.setup.stop();
  if (st.from && c.moves[st.from]) {
    st.box.appendChild(el("p", { "class": "sc-hint" }, "Now tap where it goes."));
  }
  st.root.classList.toggle("has-many", chipCount(c.chips, st.kind) + c.thenChips.length > 4);
  let rows = 0;
  // with typed dice, answers followed at once by their roll get rows of faces, unless the
  // options come grouped by kind (more than 8: the kinds first, groups.js)
  const grouped = c.chips.some((o) => o.group);
  const withRolls = !st.appDice && !grouped && c.chips.some((o) => c.rolls[JSON.stringify(o.value)]);
  if (withRolls) rows += chipsAndRows(st, st.box, c.chips, c.rolls, false);
  else if (c.chips.length) {
    const toggle = (k) => { st.kind = k; render(st, st.data); };
    st.box.appendChild(chipRow(c.chips, st.kind, { chip: (o, extra) => chip(st, o, extra), toggle }));
  }
  if (rows) st.box.insertBefore(el("p", { "class": "sc-then" }, "Tap the answer, or the first die of its roll:"), st.box.firstChild);
  if (c.then) rows += thenBox(st, c);
  st.root.classList.toggle("has-rows", rows > 0);
  st.root.style.setProperty("--sc-rows", String(rows));
  if (c.def) dockButton(st, c.def.label, "sc-default", () => decide(st, c.def.value));
}

/**
 * The line that offers the next decision ("Or Brazil: choose …"): the team is named when the next
 * question is the other team's.
 * @param {{text?: string, prompt?: string, actor: string}} t  pending.then
 * @param {string|undefined} actor  who answers the question now
 */
export function thenWhat(t, actor) {
  const text = String(t.text || t.prompt || "");
  return t.actor === actor ? text.replace(/^[^:]*:\s*/, "") : text;
}

/** @param {Ask} st @param {any} ch  choices() */
function thenBox(st, ch) {
  const what = thenWhat(ch.then, (pending(st) || {}).actor);
  const onPitch = Object.keys(ch.thenPlaces).length > 0;
  const line = el("p", { "class": "sc-then", "data-testid": "sc-then" },
    "Or " + what + (onPitch ? " on the pitch" : ":"));
  st.box.appendChild(line);
  if (!ch.thenChips.length) return 0;
  const rows = chipsAndRows(st, st.box, ch.thenChips, ch.thenRolls, true);
  if (rows) line.textContent = "Or " + what + ", or the first die of its roll:";
  return rows;
}

/* Chips, and with typed dice a row for each answer the engine follows at once by a roll: its
   chip, then the faces of that roll's first die. A face answers the question (after the usual
   answer when ``then``) and enters the die; the roll goes out with its last die, so the answer
   costs no tap of its own. Returns the number of rows. */
/** @param {Ask} st @param {HTMLElement} into @param {any[]} options @param {Record<string, any>} rolls @param {boolean} then */
function chipsAndRows(st, into, options, rolls, then) {
  const plain = el("div", { "class": "chips" });
  const rowsBox = el("div", { "class": "sc-acts" });
  let rows = 0;
  options.forEach((o) => {
    const key = (then ? "then:" : "") + JSON.stringify(o.value);
    const r = st.appDice ? null : rolls[JSON.stringify(o.value)];
    const b = chip(st, o, then ? { "data-then": "1" } : null);
    if (!r) { plain.appendChild(b); return; }
    if (st.held && st.held.key !== key) return; // once a face is picked, its answer's row alone
    rows += 1;
    const row = el("div", { "class": "sc-act", role: "group", "data-act": key });
    row.appendChild(b);
    faces(st, row, o, r, then, 0);
    rowsBox.appendChild(row);
    if (st.held) {
      for (let i = 1; i < r.dice; i++) rowsBox.appendChild(nextDie(st, o, r, then, i));
      rows += r.dice - 1;
    }
  });
  if (plain.childNodes.length) into.appendChild(plain);
  if (rows) into.appendChild(rowsBox);
  return rows;
}

/** @param {Ask} st @param {any} o @param {any} r @param {boolean} then @param {number} i */
function nextDie(st, o, r, then, i) {
  const name = dieName(r, i, st.ctx.names);
  const row = el("div", { "class": "sc-act", role: "group", "aria-label": name });
  row.appendChild(el("span", { "class": "sc-act__label" }, name));
  faces(st, row, o, r, then, i);
  return row;
}

// The faces of die ``i`` of an answer's roll, the one picked pressed.
/** @param {Ask} st @param {HTMLElement} row @param {any} o @param {any} r @param {boolean} then @param {number} i */
function faces(st, row, o, r, then, i) {
  for (let f = 1; f <= r.sides; f++) {
    const b = el("button", {
      type: "button", "class": "face", "aria-pressed": String(!!st.held && st.held.faces[i] === f),
      "data-testid": "sc-act-face", "data-act-die": String(i), "data-face": String(f),
    }, String(f));
    b.addEventListener("click", () => pick(st, o, r, then, i, f));
    row.appendChild(b);
  }
}

// A face of an answer's roll: the first picks the answer (another first face changes it); the
// roll goes out, after the answer, when its last die has a face.
/** @param {Ask} st @param {any} o @param {any} r @param {boolean} then @param {number} i @param {number} f */
function pick(st, o, r, then, i, f) {
  const key = (then ? "then:" : "") + JSON.stringify(o.value);
  if (!st.held || st.held.key !== key || i === 0) st.held = { key, roll: r, faces: new Array(r.dice).fill(null) };
  st.held.faces[i] = f;
  if (st.held.faces.every((x) => x !== null)) {
    const faces = st.held.faces.slice();
    st.held = null;
    if (then) decideThen(st, o.value); else decide(st, o.value);
    st.ctx.send({ event: { roll: r.name, by: r.actor, dice: faces } });
    return;
  }
  render(st, st.data);
}

/**
 * Why a tap answers nothing, in one line: the engine's reason when it gave one. With a player
 * picked the tap is about where it goes: why_not names what is wrong with an area as a source
 * ("no Canada player there"), not as a destination.
 * @param {any} c  choices()
 * @param {{code: string, name: string}[]} areas
 * @param {string} code  the area tapped
 * @param {string|null} [fromCode]  the move's source, when one is picked
 */
export function refusal(c, areas, code, fromCode) {
  const area = (areas || []).find((a) => a.code === code);
  const name = area ? area.name : "that area";
  const reason = fromCode
    ? (c.whyTo[fromCode] && c.whyTo[fromCode][code]) || c.far || c.why[code]
    : c.why[code];
  const text = reason ? name + ": " + reason : name + " is not an answer now: tap a highlighted area.";
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** @param {Ask} st */
function answersOnPitch(st) {
  const q = pending(st);
  return st.ctx.canWrite && q && q.kind === "decision" && st.c;
}

/** @param {Ask} st @param {string} code */
function onTap(st, code) {
  if (!answersOnPitch(st)) return;
  const c = st.c;
  if (c.setup) { st.setup.onTap(code); return; }
  st.ctx.say(null);
  const open = (/** @type {string|null} */ source) => { st.from = source; render(st, st.data); };
  if (st.from) {
    if (code === st.from) { open(null); return; }
    const picked = (c.moves[st.from] || {})[code];
    if (picked) { move(st, picked); return; }
    if (c.moves[code]) { open(code); return; }
    st.ctx.say(refusal(c, st.data.areas, code, st.from));
    return;
  }
  if (c.places[code]) { decide(st, c.places[code].value); return; }
  if (c.moves[code]) { open(code); return; }
  if (c.thenPlaces[code]) { decideThen(st, c.thenPlaces[code].value); return; }
  st.ctx.say(refusal(c, st.data.areas, code));
}

/** @param {Ask} st @param {string} a @param {string} b */
function onDrag(st, a, b) {
  if (!answersOnPitch(st)) return;
  const c = st.c;
  if (c.setup) { st.setup.onDrag(a, b); return; }
  st.ctx.say(null);
  const picked = (c.moves[a] || {})[b];
  if (picked) { st.from = a; move(st, picked); return; }
  st.ctx.say(c.moves[a] ? refusal(c, st.data.areas, b, a) : refusal(c, st.data.areas, a));
}

// Two options for one from→to (with or without the ball): the chips ask which.
/** @param {Ask} st @param {any[]} opts */
function move(st, opts) {
  if (opts.length === 1) { st.from = null; decide(st, opts[0].value); return; }
  render(st, st.data);
  const wrap = el("div", { "class": "chips" });
  opts.forEach((o) => wrap.appendChild(chip(st, o)));
  st.box.appendChild(wrap);
}

/**
 * The question on screen and its answers (this module's top comment).
 * @param {HTMLElement} root  the scorer
 * @param {any} board  board.js
 * @param {{canWrite: boolean, names: Record<string, string>, send: Function, say: Function, check: Function}} ctx
 */
export function createAsk(root, board, ctx) {
  /** @type {Ask} */
  const st = {
    root, board, ctx, box: byId(root, "sc-answer"), dock: byId(root, "sc-dock-answer"),
    data: null, c: null, from: null, kind: null, dice: [], autoAnswered: null, held: null, appDice: false, setup: null,
  };
  st.setup = createSetup({ board, check: ctx.check, decide: (v) => decide(st, v), say: ctx.say });
  return {
    /** @param {any} d @param {{waiting?: number|boolean, waitText?: string|null}} [opts] */
    render: (d, opts) => render(st, d, opts),
    onTap: (/** @type {string} */ code) => onTap(st, code),
    onDrag: (/** @type {string} */ a, /** @type {string} */ b) => onDrag(st, a, b),
    setAppDice(/** @type {boolean} */ on) { st.appDice = !!on; },
  };
}
