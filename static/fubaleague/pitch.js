/* Draws a match state on a FUBA pitch (templates/tournaments/partials/pitch.html, where the server
   writes the areas' names): pieces per area, the ball with its value, and the last action as an
   arrow from one area to another (or the areas it concerned, highlighted). Shared by the replay
   and the live panel. The states come from the server's engine snapshot: no rule logic here. */
(function () {
  "use strict";
  var svgNS = "http://www.w3.org/2000/svg";

  function node(tag, attrs, text) {
    var n = document.createElementNS(svgNS, tag);
    for (var k in attrs) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    return n;
  }

  function Pitch(svg) {
    this.svg = svg;
    this.id = svg.id;
    this.pieces = svg.querySelector("[data-pieces]");
    this.last = svg.querySelector("[data-last]");
    this.areas = {};
    var self = this;
    svg.querySelectorAll("[data-area]").forEach(function (el) { self.areas[el.getAttribute("data-area")] = el; });
  }

  Pitch.prototype.centre = function (code) {
    var el = this.areas[code];
    if (!el) return null;
    if (el.tagName === "circle") return { x: +el.getAttribute("cx"), y: +el.getAttribute("cy"), w: 18, h: 18 };
    var x = +el.getAttribute("x"), y = +el.getAttribute("y"), w = +el.getAttribute("width"), h = +el.getAttribute("height");
    return { x: x + w / 2, y: y + h / 2, w: w, h: h };
  };

  function clear(g) { while (g.firstChild) g.removeChild(g.firstChild); }

  function piece(side, count, gk, c, dx) {
    var g = node("g", {});
    g.appendChild(node("circle", { cx: c.x + dx, cy: c.y + 4, r: 9, "class": "piece-" + side + (gk ? " gk" : "") }));
    g.appendChild(node("text", { x: c.x + dx, y: c.y + 4, "class": "piece-text piece-text--" + side }, String(count)));
    return g;
  }

  /* state: {codes: area codes in board order, home: [count per area], away: [...],
     gk: {home: code|null, away: code|null}, ball: code, value: n, last: {kind, team, from, to, areas}} */
  Pitch.prototype.draw = function (state) {
    var self = this;
    clear(this.pieces);
    var involved = {};
    (state.last && state.last.areas || []).forEach(function (a) { involved[a] = true; });
    Object.keys(this.areas).forEach(function (code) {
      self.areas[code].classList.toggle("area--ball", code === state.ball);
      self.areas[code].classList.toggle("area--last", !!involved[code]);
    });
    state.codes.forEach(function (code, i) {
      var c = self.centre(code);
      if (!c) return;
      var h = state.home[i], a = state.away[i];
      var spread = c.w > 40 ? 13 : 0;
      if (h) self.pieces.appendChild(piece("home", h, state.gk.home === code, c, a ? -spread : 0));
      if (a) self.pieces.appendChild(piece("away", a, state.gk.away === code, c, h ? spread : 0));
    });
    var b = this.centre(state.ball);
    if (b) {
      // in the area's bottom right corner: its name runs along the top, its pieces in the middle
      var bx = b.x + (b.w > 40 ? b.w / 2 - 13 : 0), by = b.y + (b.h > 40 ? b.h / 2 - 12 : 0);
      this.pieces.appendChild(node("circle", { cx: bx, cy: by, r: 8, "class": "ball" }));
      this.pieces.appendChild(node("text", { x: bx, y: by, "class": "ball-value" }, String(state.value)));
    }
    this.drawLast(state.last);
  };

  Pitch.prototype.drawLast = function (last) {
    clear(this.last);
    if (!last || !last.from || !last.to || last.from === last.to) return;
    var a = this.centre(last.from), b = this.centre(last.to);
    if (!a || !b) return;
    var side = last.team === "away" ? "away" : "home";
    // Stop short of the centres so that the arrow's head does not hide the pieces there.
    var dx = b.x - a.x, dy = b.y - a.y, len = Math.sqrt(dx * dx + dy * dy) || 1, cut = Math.min(12, len / 4);
    this.last.appendChild(node("line", {
      x1: a.x + dx * cut / len, y1: a.y + dy * cut / len, x2: b.x - dx * cut / len, y2: b.y - dy * cut / len,
      "class": "arrow arrow--" + side + (last.kind === "shot" ? " arrow--shot" : ""),
      "marker-end": "url(#" + this.id + "-head-" + side + ")"
    }));
  };

  window.FubaPitch = Pitch;
})();
