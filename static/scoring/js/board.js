/* The pitch: pieces, the ball and its value, highlighted areas, and taps or drags on areas.

   The board knows no rules: which areas are legal comes from the question (answer.js), the areas'
   names from the server's vocabulary (state JSON "areas"). A gesture is reported as
   onTap(code) or onDrag(fromCode, toCode); a drag counts as one tap. */
import { clear, svg } from "./dom.js";

export function createBoard(svgEl, { onTap, onDrag }) {
  const shapes = {};
  svgEl.querySelectorAll("[data-area]").forEach((a) => { shapes[a.getAttribute("data-area")] = a; });
  const layer = svgEl.querySelector("[data-pieces]");
  let labelled = false;

  function centre(code) {
    const a = shapes[code];
    if (!a) return null;
    if (a.tagName === "circle") return { x: +a.getAttribute("cx"), y: +a.getAttribute("cy"), w: 18, h: 18 };
    const x = +a.getAttribute("x"), y = +a.getAttribute("y"), w = +a.getAttribute("width"), h = +a.getAttribute("height");
    return { x: x + w / 2, y: y + h / 2, w: w, h: h };
  }

  function piece(side, count, gk, c, dx) {
    const g = svg("g", { "class": "piece" });
    g.appendChild(svg("circle", { cx: c.x + dx, cy: c.y + 6, r: 10, "class": "piece-" + side + (gk ? " gk" : "") }));
    g.appendChild(svg("text", { x: c.x + dx, y: c.y + 6, "class": "piece-text piece-text--" + side }, String(count)));
    return g;
  }

  /* The areas' labels are drawn by the server in its words: the team whose half an area lies in
     over the area's words ("Peru" / "left wing"); a screen reader gets the whole name. */
  function label(areas) {
    if (labelled || !areas) return;
    labelled = true;
    areas.forEach((a) => {
      if (shapes[a.code]) shapes[a.code].setAttribute("aria-label", a.name);
    });
  }

  /* draft (a set-up being edited): { side, players: {code: n}, gk } drawn instead of that side's
     pieces; the keeper is counted with the players of its area, as the state's pieces are. */
  function draw(state, areas, draft) {
    label(areas);
    if (!layer || !areas) return;
    clear(layer);
    const home = state.teams.home, away = state.teams.away;
    const count = (side, team, a) => {
      if (!draft || draft.side !== side) return team.pieces[a.index];
      return (draft.players[a.code] || 0) + (draft.gk === a.code ? 1 : 0);
    };
    const keeper = (side, team) => (draft && draft.side === side ? draft.gk : team.gk);
    areas.forEach((a) => {
      const c = centre(a.code);
      if (!c) return;
      const h = count("home", home, a), w = count("away", away, a);
      const spread = c.w > 40 ? 14 : 0;
      if (h) layer.appendChild(piece("home", h, keeper("home", home) === a.code, c, w ? -spread : 0));
      if (w) layer.appendChild(piece("away", w, keeper("away", away) === a.code, c, h ? spread : 0));
    });
    if (draft) return;
    Object.keys(shapes).forEach((n) => shapes[n].classList.toggle("area--ball", n === state.ball));
    const b = centre(state.ball);
    if (b) {
      // in the area's bottom right corner: its name runs along the top ("edge of the box")
      const bx = b.x + (b.w > 40 ? b.w / 2 - 13 : 0), by = b.y + (b.h > 40 ? b.h / 2 - 13 : 0);
      layer.appendChild(svg("circle", { cx: bx, cy: by, r: 10, "class": "ball" }));
      layer.appendChild(svg("text", { x: bx, y: by, "class": "ball-value" }, String(state.value)));
    }
    const last = state.last;
    if (last && last.from && last.to && centre(last.from) && centre(last.to)) {
      const f = centre(last.from), t = centre(last.to);
      layer.appendChild(svg("line", { x1: f.x, y1: f.y, x2: t.x, y2: t.y, "class": "last-move" }));
    }
  }

  /* classes: { code: "pick" | "from" | "target" } */
  function mark(classes) {
    Object.keys(shapes).forEach((n) => {
      const s = shapes[n];
      s.classList.remove("area--pick", "area--from", "area--target");
      if (classes[n]) s.classList.add("area--" + classes[n]);
    });
    svgEl.classList.toggle("pitch--asking", Object.keys(classes).length > 0);
  }

  // The area under a pointer event: its target when that is an area (pieces let the pointer
  // through), else what lies at its point (a touch's pointerup is aimed at where it started).
  function areaAt(e) {
    let a = e.target && e.target.closest ? e.target.closest("[data-area]") : null;
    if (!a || e.type === "pointerup") {
      const hit = document.elementFromPoint(e.clientX, e.clientY);
      const under = hit && hit.closest && hit.closest("[data-area]");
      if (under) a = under;
    }
    return a && svgEl.contains(a) ? a.getAttribute("data-area") : null;
  }

  // Pointer events: a press and release on one area is a tap, on two areas a drag (pieces and the
  // ball are drawn above the areas and let the pointer through, see scorer.css).
  let down = null;
  svgEl.addEventListener("pointerdown", (e) => {
    const code = areaAt(e);
    if (!code) return;
    down = code;
    if (svgEl.releasePointerCapture && e.pointerId !== undefined) {
      try { svgEl.releasePointerCapture(e.pointerId); } catch (err) { /* not captured */ }
    }
  });
  svgEl.addEventListener("pointerup", (e) => {
    if (down === null) return;
    const from = down;
    down = null;
    const to = areaAt(e);
    if (!to) return;
    if (to === from) onTap(to);
    else onDrag(from, to);
  });
  svgEl.addEventListener("pointercancel", () => { down = null; });
  // keyboard: the areas are focusable buttons for those who do not tap
  Object.keys(shapes).forEach((n) => {
    shapes[n].setAttribute("tabindex", "0");
    shapes[n].setAttribute("role", "button");
    shapes[n].addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onTap(n); }
    });
  });

  return { draw: draw, mark: mark, has: (code) => !!shapes[code] };
}
