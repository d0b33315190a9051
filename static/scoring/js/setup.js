/* The set-up editor (rulebook 3, 3.3 and 3.3.1): any legal set-up, placed area by area on the
   board (a drag moves one player, a tapped area gets a − / + counter and "keeper here"), with
   the presets as one-tap starting points. What is still wrong comes from the server
   (POST …/setup-check, which stores nothing) as the pieces are placed; the result goes out as
   the same `setup` decision the engine accepts. The editor counts pieces, it judges nothing. */
import { clear, el } from "./dom.js";

export function createSetup({ board, check, decide, say }) {
  let key = null; // the question being edited (seq)
  let draft = null; // { side, players: {code: n}, gk }
  let selected = null;
  let problems = null; // null: not checked yet
  let checking = 0;
  let ui = null;

  function fromPreset(side, value) {
    return { side: side, players: Object.assign({}, value.players), gk: value.gk };
  }
  function choice() {
    const players = {};
    Object.keys(draft.players).forEach((k) => { if (draft.players[k] > 0) players[k] = draft.players[k]; });
    return { gk: draft.gk, players: players };
  }
  function placed() {
    return Object.keys(draft.players).reduce((n, k) => n + draft.players[k], 0);
  }
  function recheck() {
    const ticket = ++checking;
    problems = null;
    check(choice()).then((res) => {
      if (ticket !== checking) return; // a later change asked again
      problems = res && res.ok !== undefined ? (res.ok ? [] : res.problems || []) : null;
      paint();
    }, () => { if (ticket === checking) { problems = null; paint(); } });
  }
  function change(fn) {
    fn();
    board.draw(ui.data.state, ui.data.areas, draft);
    recheck();
    paint();
  }

  function paint() {
    if (!ui) return;
    const { box, dock, data, q } = ui;
    clear(box);
    clear(dock);
    board.draw(data.state, data.areas, draft);
    const marks = {};
    (data.areas || []).forEach((a) => { if (!a.corner_spot) marks[a.code] = "pick"; });
    if (selected) marks[selected] = "from";
    board.mark(marks);
    const outfield = q.board && q.board.outfield;
    const head = el("p", { "class": "sc-setup__count", "data-testid": "sc-setup-count" },
      placed() + (outfield ? " of " + outfield : "") + " players placed" + (draft.gk ? "" : ", no keeper"));
    box.appendChild(head);
    const list = el("ul", { "class": "sc-problems", "data-testid": "sc-setup-problems" });
    (problems || []).forEach((t) => list.appendChild(el("li", {}, t)));
    if (problems && problems.length) box.appendChild(list);
    if (selected) {
      const area = data.areas.find((a) => a.code === selected);
      const row = el("div", { "class": "sc-stepper", "data-testid": "sc-stepper" });
      row.appendChild(el("span", { "class": "sc-stepper__name" }, area ? area.name : selected));
      const minus = el("button", { type: "button", "class": "chip", "data-testid": "sc-setup-minus", "aria-label": "One player fewer" }, "−");
      const n = el("strong", { "data-testid": "sc-setup-n" }, String(draft.players[selected] || 0));
      const plus = el("button", { type: "button", "class": "chip", "data-testid": "sc-setup-plus", "aria-label": "One player more" }, "+");
      minus.disabled = !draft.players[selected];
      minus.addEventListener("click", () => change(() => { draft.players[selected] = Math.max(0, (draft.players[selected] || 0) - 1); }));
      plus.addEventListener("click", () => change(() => { draft.players[selected] = (draft.players[selected] || 0) + 1; }));
      row.appendChild(minus);
      row.appendChild(n);
      row.appendChild(plus);
      if (draft.gk !== selected) {
        const gk = el("button", { type: "button", "class": "chip", "data-testid": "sc-setup-keeper" }, "keeper here");
        gk.addEventListener("click", () => change(() => { draft.gk = selected; }));
        row.appendChild(gk);
      }
      box.appendChild(row);
    } else {
      box.appendChild(el("p", { "class": "sc-hint" }, "Drag a player to move him, tap an area to count its players, or start from a preset."));
    }
    const presets = el("div", { "class": "chips" });
    (q.options || []).forEach((o, i) => {
      const b = el("button", { type: "button", "class": "chip", "data-testid": "sc-setup-preset" }, "preset " + (i + 1));
      b.addEventListener("click", () => { selected = null; change(() => { draft = fromPreset(q.actor, o.value); }); });
      presets.appendChild(b);
    });
    box.appendChild(presets);
    const use = el("button", { type: "button", "class": "button dock-main", "data-testid": "sc-setup-use" }, "Use this set-up");
    use.disabled = !!(problems && problems.length);
    use.addEventListener("click", () => decide(choice()));
    dock.appendChild(use);
  }

  return {
    /* Draw the editor for this set-up question (kept across polls of the same question). */
    render(box, dock, data, q) {
      const k = data.seq + ":" + q.actor;
      if (k !== key) {
        key = k;
        selected = null;
        problems = [];
        draft = fromPreset(q.actor, q.options[0].value);
        recheck();
      }
      ui = { box: box, dock: dock, data: data, q: q };
      paint();
    },
    onTap(code) {
      const area = ui && ui.data.areas.find((a) => a.code === code);
      if (!area || area.corner_spot) { say("Players are set up in the areas, not on the corner spots."); return; }
      say(null);
      selected = selected === code ? null : code;
      paint();
    },
    /* A drag moves one player from an area to another (the keeper when the area has no other
       player): a table rearranging a preset moves pieces, it does not count them again. */
    onDrag(a, b) {
      if (!ui || !draft) return;
      const to = ui.data.areas.find((x) => x.code === b);
      if (!to || to.corner_spot) { say("Players are set up in the areas, not on the corner spots."); return; }
      say(null);
      selected = null;
      if (draft.players[a]) change(() => { draft.players[a] -= 1; draft.players[b] = (draft.players[b] || 0) + 1; });
      else if (draft.gk === a) change(() => { draft.gk = b; });
    },
    stop() { ui = null; key = null; },
  };
}
