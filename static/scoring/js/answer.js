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

export function createAsk(root, board, { canWrite, names, send, say, check }) {
  const box = byId(root, "sc-answer");
  const dock = byId(root, "sc-dock-answer");
  let data = null;
  let c = null;
  let from = null; // first tap of a move
  let kind = null; // the kind of answer open, when the server grouped the options (groups.js)
  let dice = [];
  let autoAnswered = null; // the version whose single legal answer the page sent
  let held = null; // typed dice: an answer picked by the first face of its roll, {key, then, roll, faces}
  let appDice = false;

  function p() { return data && data.status === "live" ? data.pending : null; }
  const setup = createSetup({ board: board, check: check, decide: (v) => decide(v), say: say });
  function decide(value, opt) {
    const q = p();
    send({ event: { decide: q.name, by: q.actor, choice: value } }, opt);
  }
  // What the page sends without a tap is counted on the root (data-auto), for the tap bench.
  function auto(body) {
    root.dataset.auto = String((+root.dataset.auto || 0) + 1);
    send(body, { auto: true });
  }
  // One tap on an answer of the next decision: the usual answer of this one, then that answer.
  function decideThen(value) {
    const t = c.then;
    decide(c.def.value);
    send({ event: { decide: t.name, by: t.actor, choice: value } });
  }
  function chip(o, extra) {
    const b = el("button", Object.assign({
      type: "button", "class": "chip", "data-testid": "sc-option", "data-choice": JSON.stringify(o.value),
    }, extra || {}), o.label);
    // a chip of the next decision (data-then) answers the usual answer first
    b.addEventListener("click", () => (b.dataset.then ? decideThen(o.value) : decide(o.value)));
    return b;
  }

  function markBoard() {
    const q = p();
    const marks = {};
    if (canWrite && q && q.kind === "decision" && c) {
      if (from) {
        marks[from] = "from";
        Object.keys(c.moves[from] || {}).forEach((to) => { marks[to] = "target"; });
      } else {
        Object.keys(c.places).forEach((code) => { marks[code] = "pick"; });
        Object.keys(c.moves).forEach((code) => { marks[code] = "pick"; });
        Object.keys(c.thenPlaces).forEach((code) => { marks[code] = "pick"; });
      }
    }
    board.mark(marks);
  }

  function dieRow(q, i) {
    const row = el("div", { "class": "sc-die", role: "group", "aria-label": dieName(q, i) });
    row.appendChild(el("span", { "class": "sc-die__label" }, dieName(q, i)));
    for (let f = 1; f <= q.sides; f++) {
      const b = el("button", {
        type: "button", "class": "face", "aria-pressed": String(dice[i] === f),
        "data-die": String(i), "data-face": String(f),
      }, String(f));
      b.addEventListener("click", () => face(q, i, f));
      row.appendChild(b);
    }
    return row;
  }
  function dieName(q, i) {
    if (q.actor === "both" && q.dice === 2) {
      if (q.name === "kick_off") return i === 0 ? names.home : names.away;
      return i === 0 ? "Ball" : "Defence";
    }
    return q.dice > 1 ? "Die " + (i + 1) : "Die";
  }
  // The roll goes out when its last die is tapped; a die tapped again before that is corrected.
  function face(q, i, f) {
    dice[i] = f;
    if (dice.every((x) => x !== null)) {
      const faces = dice.slice();
      dice = [];
      send({ event: { roll: q.name, by: q.actor, dice: faces } });
      return;
    }
    render(data);
  }
  function rollForMe() { dice = []; send({ roll_for_me: true }); }

  function dockButton(label, testid, onclick, extraClass) {
    const b = el("button", { type: "button", "class": "button dock-main" + (extraClass || ""), "data-testid": testid }, label);
    b.addEventListener("click", onclick);
    dock.appendChild(b);
  }

  /** @param {any} d  the session state @param {{waiting?: boolean}} [opts] */
  function render(d, { waiting } = {}) {
    if (!data || !d || data.version !== d.version) { from = null; kind = null; held = null; if (!data || !d || data.seq !== d.seq) dice = []; }
    data = d;
    if (!box) { board.mark({}); return; }
    clear(box);
    if (dock) clear(dock);
    const q = p();
    c = q && q.kind === "decision" ? choices(q, d.state, d.areas) : null;
    markBoard();
    root.classList.toggle("is-rolling", !!(q && q.kind === "roll"));
    root.classList.toggle("is-editing", !!(canWrite && c && c.setup));
    root.classList.remove("has-many", "has-rows");
    if (!canWrite || !q) return;
    if (waiting) {
      box.appendChild(el("p", { "class": "sc-wait", "data-testid": "sc-waiting" },
        "Saved on this phone: it goes to the server when the connection is back (Undo takes it back)."));
      return;
    }
    if (q.kind === "roll") {
      if (dice.length !== q.dice) dice = new Array(q.dice).fill(null);
      if (appDice) {
        // With app dice nobody rolls at the table: a roll that follows an entry (a roll or a
        // decision, with no question in between) is rolled with that entry's tap, once per
        // version. "Roll" is tapped for the first roll and after an undo (which must not roll
        // again by itself).
        const last = d.events[0];
        const undone = d.last_undo && d.last_undo.seq === d.seq + 1;
        if (last && !undone && autoAnswered !== d.version) {
          autoAnswered = d.version;
          auto({ roll_for_me: true });
          return;
        }
      } else {
        for (let i = 0; i < q.dice; i++) box.appendChild(dieRow(q, i));
      }
      dockButton(appDice ? "Roll" : "Roll for me", "sc-roll-for-me", rollForMe, appDice ? "" : " button--ghost");
      return;
    }
    // A question with exactly one legal answer, or a moot prompt (its other answers change
    // nothing in play: pending.auto_answer), is answered by the page (the log records it as any
    // decision); once per version, so a poll does not send it twice.
    const hasAuto = q.auto_answer !== null && q.auto_answer !== undefined;
    if ((hasAuto || c.answers === 1) && autoAnswered !== d.version) {
      autoAnswered = d.version;
      const first = (q.options || [])[0];
      const only = hasAuto ? q.auto_answer : first && (q.only_answer || !c.def) ? first.value : c.def.value;
      auto({ event: { decide: q.name, by: q.actor, choice: only } });
      return;
    }
    if (c.setup) { setup.render(box, dock, d, q); return; }
    setup.stop();
    if (from && c.moves[from]) {
      box.appendChild(el("p", { "class": "sc-hint" }, "Now tap where it goes."));
    }
    root.classList.toggle("has-many", chipCount(c.chips, kind) + c.thenChips.length > 4);
    let rows = 0;
    // with typed dice, answers followed at once by their roll get rows of faces, unless the
    // options come grouped by kind (more than 8: the kinds first, groups.js)
    const grouped = c.chips.some((o) => o.group);
    const withRolls = !appDice && !grouped && c.chips.some((o) => c.rolls[JSON.stringify(o.value)]);
    if (withRolls) rows += chipsAndRows(box, c.chips, c.rolls, false);
    else if (c.chips.length) {
      box.appendChild(chipRow(c.chips, kind, { chip: chip, toggle: (k) => { kind = k; render(data); } }));
    }
    if (rows) box.insertBefore(el("p", { "class": "sc-then" }, "Tap the answer, or the first die of its roll:"), box.firstChild);
    if (c.then) rows += thenBox(c);
    root.classList.toggle("has-rows", rows > 0);
    root.style.setProperty("--sc-rows", String(rows));
    if (c.def) dockButton(c.def.label, "sc-default", () => decide(c.def.value));
  }
  function thenBox(ch) {
    const t = ch.then;
    // the team is named when the next question is the other team's ("Or Brazil: choose …")
    const text = String(t.text || t.prompt || "");
    const what = t.actor === (p() || {}).actor ? text.replace(/^[^:]*:\s*/, "") : text;
    const onPitch = Object.keys(ch.thenPlaces).length > 0;
    const line = el("p", { "class": "sc-then", "data-testid": "sc-then" },
      "Or " + what + (onPitch ? " on the pitch" : ":"));
    box.appendChild(line);
    if (!ch.thenChips.length) return 0;
    const rows = chipsAndRows(box, ch.thenChips, ch.thenRolls, true);
    if (rows) line.textContent = "Or " + what + ", or the first die of its roll:";
    return rows;
  }

  /* Chips, and with typed dice a row for each answer the engine follows at once by a roll: its
     chip, then the faces of that roll's first die. A face answers the question (after the usual
     answer when ``then``) and enters the die; the roll goes out with its last die, so the answer
     costs no tap of its own. Returns the number of rows. */
  function chipsAndRows(into, options, rolls, then) {
    const plain = el("div", { "class": "chips" });
    const rowsBox = el("div", { "class": "sc-acts" });
    let rows = 0;
    options.forEach((o) => {
      const key = (then ? "then:" : "") + JSON.stringify(o.value);
      const r = appDice ? null : rolls[JSON.stringify(o.value)];
      const b = chip(o, then ? { "data-then": "1" } : null);
      if (!r) { plain.appendChild(b); return; }
      if (held && held.key !== key) return; // once a face is picked, its answer's row alone
      rows += 1;
      const row = el("div", { "class": "sc-act", role: "group", "data-act": key });
      row.appendChild(b);
      faces(row, o, r, then, 0);
      rowsBox.appendChild(row);
      if (held) {
        for (let i = 1; i < r.dice; i++) rowsBox.appendChild(nextDie(o, r, then, i));
        rows += r.dice - 1;
      }
    });
    if (plain.childNodes.length) into.appendChild(plain);
    if (rows) into.appendChild(rowsBox);
    return rows;
  }
  function nextDie(o, r, then, i) {
    const row = el("div", { "class": "sc-act", role: "group", "aria-label": dieName(r, i) });
    row.appendChild(el("span", { "class": "sc-act__label" }, dieName(r, i)));
    faces(row, o, r, then, i);
    return row;
  }
  // The faces of die ``i`` of an answer's roll, the one picked pressed.
  function faces(row, o, r, then, i) {
    for (let f = 1; f <= r.sides; f++) {
      const b = el("button", {
        type: "button", "class": "face", "aria-pressed": String(!!held && held.faces[i] === f),
        "data-testid": "sc-act-face", "data-act-die": String(i), "data-face": String(f),
      }, String(f));
      b.addEventListener("click", () => pick(o, r, then, i, f));
      row.appendChild(b);
    }
  }
  // A face of an answer's roll: the first picks the answer (another first face changes it); the
  // roll goes out, after the answer, when its last die has a face.
  function pick(o, r, then, i, f) {
    const key = (then ? "then:" : "") + JSON.stringify(o.value);
    if (!held || held.key !== key || i === 0) held = { key: key, roll: r, faces: new Array(r.dice).fill(null) };
    held.faces[i] = f;
    if (held.faces.every((x) => x !== null)) {
      const faces = held.faces.slice();
      held = null;
      if (then) decideThen(o.value); else decide(o.value);
      send({ event: { roll: r.name, by: r.actor, dice: faces } });
      return;
    }
    render(data);
  }

  // A tap that answers nothing says why in one line: the engine's reason when it gave one.
  function refuse(code, fromCode) {
    const area = (data.areas || []).find((a) => a.code === code);
    const name = area ? area.name : "that area";
    // With a player picked, the tap is about where it goes: why_not names what is wrong with an
    // area as a source ("no Canada player there"), not as a destination.
    const reason = fromCode
      ? (c.whyTo[fromCode] && c.whyTo[fromCode][code]) || c.far || c.why[code]
      : c.why[code];
    const text = reason ? name + ": " + reason : name + " is not an answer now: tap a highlighted area.";
    say(text.charAt(0).toUpperCase() + text.slice(1));
  }

  function onTap(code) {
    const q = p();
    if (!canWrite || !q || q.kind !== "decision" || !c) return;
    if (c.setup) { setup.onTap(code); return; }
    say(null);
    if (from) {
      if (code === from) { from = null; render(data); return; }
      const picked = (c.moves[from] || {})[code];
      if (picked) { move(picked); return; }
      if (c.moves[code]) { from = code; render(data); return; }
      refuse(code, from);
      return;
    }
    if (c.places[code]) { decide(c.places[code].value); return; }
    if (c.moves[code]) { from = code; render(data); return; }
    if (c.thenPlaces[code]) { decideThen(c.thenPlaces[code].value); return; }
    refuse(code);
  }
  function onDrag(a, b) {
    const q = p();
    if (!canWrite || !q || q.kind !== "decision" || !c) return;
    if (c.setup) { setup.onDrag(a, b); return; }
    say(null);
    const picked = (c.moves[a] || {})[b];
    if (picked) { from = a; move(picked); return; }
    if (c.moves[a]) refuse(b, a); else refuse(a);
  }
  // Two options for one from→to (with or without the ball): the chips ask which.
  function move(opts) {
    if (opts.length === 1) { from = null; decide(opts[0].value); return; }
    render(data);
    const wrap = el("div", { "class": "chips" });
    opts.forEach((o) => wrap.appendChild(chip(o)));
    box.appendChild(wrap);
  }

  return {
    render: render,
    onTap: onTap,
    onDrag: onDrag,
    setAppDice(on) { appDice = !!on; },
  };
}
