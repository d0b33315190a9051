/* The set-up editor (rulebook 3, 3.3 and 3.3.1): any legal set-up, placed area by area on the
   board (a drag moves one player, a tapped area gets a − / + counter and "keeper"), with
   the presets as one-tap starting points. What is still wrong comes from the server
   (POST …/setup-check, which stores nothing) as the pieces are placed; the result goes out as
   the same `setup` decision the engine accepts. The editor counts pieces, it judges nothing. */
import { clear, el } from "./dom.js";

export function createSetup({ board, check, decide, say }) {
  let key = null; // the question being edited (seq)
  let draft = null; // { side, players: {code: n}, gk }
  let selected = null;
  let problems = null; // null: not checked yet
  let shorts = []; // each problem in a few words with its chapter (the server's)
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
    const marks = {};
    (data.areas || []).forEach((a) => { if (!a.corner_spot) marks[a.code] = "pick"; });
    if (selected) marks[selected] = "from";
    board.mark(marks);
    const outfield = q.board && q.board.outfield;
    const head = el("div", { "class": "sc-setup__head" });
    head.appendChild(el("span", { "class": "sc-setup__count", "data-testid": "sc-setup-count" },
      placed() + (outfield ? "/" + outfield : "") + " placed" + (draft.gk ? "" : ", no keeper")));
    head.appendChild(el("span", { "class": "small muted" }, "presets"));
    (q.options || []).forEach((o, i) => {
      const b = el("button", { type: "button", "class": "chip chip--small", "data-testid": "sc-setup-preset",
        "aria-label": "Start from preset " + (i + 1) }, String(i + 1));
      b.addEventListener("click", () => { selected = null; change(() => { draft = fromPreset(q.actor, o.value); }); });
      head.appendChild(b);
    });
    box.appendChild(head);
    if (problems && problems.length) box.appendChild(problemLine(problems));
    box.appendChild(selected ? stepper() : el("p", { "class": "sc-hint sc-setup__hint" },
      "Drag a player, or tap an area: − / +"));
    const use = el("button", { type: "button", "class": "button dock-main", "data-testid": "sc-setup-use" }, "Use this set-up");
    use.disabled = !!(problems && problems.length);
    use.addEventListener("click", () => decide(choice()));
    dock.appendChild(use);
  }
  /* The first problem in a few words with its chapter (read at a glance); a tap shows every
     problem in full. */
  function problemLine(list) {
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
  function stepper() {
    const area = ui.data.areas.find((a) => a.code === selected);
    const row = el("div", { "class": "sc-stepper", "data-testid": "sc-stepper" });
    row.appendChild(el("span", { "class": "sc-stepper__name" }, area ? area.name : selected));
    const minus = el("button", { type: "button", "class": "chip chip--small", "data-testid": "sc-setup-minus", "aria-label": "One player fewer" }, "−");
    const n = el("strong", { "data-testid": "sc-setup-n" }, String(draft.players[selected] || 0));
    const plus = el("button", { type: "button", "class": "chip chip--small", "data-testid": "sc-setup-plus", "aria-label": "One player more" }, "+");
    minus.disabled = !draft.players[selected];
    minus.addEventListener("click", () => change(() => { draft.players[selected] = Math.max(0, (draft.players[selected] || 0) - 1); }));
    plus.addEventListener("click", () => change(() => { draft.players[selected] = (draft.players[selected] || 0) + 1; }));
    row.appendChild(minus);
    row.appendChild(n);
    row.appendChild(plus);
    if (draft.gk !== selected) {
      const gk = el("button", { type: "button", "class": "chip chip--small", "data-testid": "sc-setup-keeper", "aria-label": "The keeper here" }, "keeper");
      gk.addEventListener("click", () => change(() => { draft.gk = selected; }));
      row.appendChild(gk);
    }
    return row;
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
