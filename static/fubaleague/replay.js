/* Match replay: steps through frames computed server-side by the rules engine (replay.json).
   No rule logic here: the script only draws pieces, ball and status of the current frame. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var svgNS = "http://www.w3.org/2000/svg";
  var layer = document.getElementById("pieces");
  var range = document.getElementById("replay-range");
  var areas = {};
  root.querySelectorAll("[data-area]").forEach(function (el) { areas[el.getAttribute("data-area")] = el; });
  var $ = function (id) { return root.querySelector('[data-testid="' + id + '"]'); };
  var data = null, pos = 0;

  function centre(name) {
    var el = areas[name];
    if (!el) return null;
    if (el.tagName === "circle") return { x: +el.getAttribute("cx"), y: +el.getAttribute("cy"), w: 18, h: 18 };
    var x = +el.getAttribute("x"), y = +el.getAttribute("y"), w = +el.getAttribute("width"), h = +el.getAttribute("height");
    return { x: x + w / 2, y: y + h / 2, w: w, h: h };
  }
  function node(tag, attrs, text) {
    var n = document.createElementNS(svgNS, tag);
    for (var k in attrs) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function piece(side, count, gk, c, dx) {
    var g = node("g", {});
    var cls = "piece-" + side + (gk ? " gk" : "");
    g.appendChild(node("circle", { cx: c.x + dx, cy: c.y + 4, r: 9, "class": cls }));
    g.appendChild(node("text", { x: c.x + dx, y: c.y + 4, "class": "piece-text piece-text--" + side }, String(count)));
    return g;
  }
  function draw(frame) {
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    Object.keys(areas).forEach(function (n) { areas[n].classList.toggle("area--ball", n === frame.ball); });
    data.areas.forEach(function (name, i) {
      var c = centre(name);
      if (!c) return;
      var h = frame.home[i], a = frame.away[i];
      var spread = c.w > 40 ? 13 : 0;
      if (h) layer.appendChild(piece("home", h, frame.gk[0] === i, c, a ? -spread : 0));
      if (a) layer.appendChild(piece("away", a, frame.gk[1] === i, c, h ? spread : 0));
    });
    var b = centre(frame.ball);
    if (b) {
      var by = b.y - Math.min(b.h / 2 - 10, 16);
      layer.appendChild(node("circle", { cx: b.x + (b.w > 40 ? 30 : 0), cy: by, r: 8, "class": "ball" }));
      layer.appendChild(node("text", { x: b.x + (b.w > 40 ? 30 : 0), y: by, "class": "ball-value" }, String(frame.value)));
    }
    $("replay-score").textContent = frame.score[0] + " – " + frame.score[1];
    $("replay-minute").textContent = frame.minute + "'";
    $("replay-turn").textContent = frame.turn;
    $("replay-stage").textContent = frame.stage;
    $("replay-ball").textContent = frame.ball + " (" + frame.control + ")";
    $("replay-value").textContent = frame.value;
    $("replay-event").textContent = frame.text + (frame.notes.length ? " — " + frame.notes.map(noteText).join("; ") : "");
    $("replay-position").textContent = "Event " + (pos + 1) + " of " + data.frames.length;
    range.value = pos;
    root.querySelector('[data-action="back"]').disabled = pos === 0;
    root.querySelector('[data-action="first"]').disabled = pos === 0;
    root.querySelector('[data-action="forward"]').disabled = pos === data.frames.length - 1;
    root.querySelector('[data-action="last"]').disabled = pos === data.frames.length - 1;
    root.querySelector('[data-action="next-turn"]').disabled = pos === data.frames.length - 1;
  }
  function noteText(n) {
    if (n.text) return n.text;
    var team = n.team && data.teams && data.teams[n.team] ? data.teams[n.team].name : n.team;
    var who = team ? team + " " : "";
    return who + String(n.kind).replace(/_/g, " ") + (n.minute ? " (" + n.minute + "')" : "");
  }
  function go(i) {
    if (!data || !data.frames.length) return;
    pos = Math.max(0, Math.min(data.frames.length - 1, i));
    draw(data.frames[pos]);
  }
  function nextTurn() {
    var t = data.frames[pos].turn;
    for (var i = pos + 1; i < data.frames.length; i++) if (data.frames[i].turn !== t) return go(i);
    go(data.frames.length - 1);
  }
  root.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-action]");
    if (!btn || !data) return;
    var a = btn.getAttribute("data-action");
    if (a === "forward") go(pos + 1);
    else if (a === "back") go(pos - 1);
    else if (a === "first") go(0);
    else if (a === "last") go(data.frames.length - 1);
    else if (a === "next-turn") nextTurn();
  });
  range.addEventListener("input", function () { go(+range.value); });
  root.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
    if (e.key === "ArrowRight") { go(pos + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { go(pos - 1); e.preventDefault(); }
  });
  fetch(root.getAttribute("data-replay-url"), { headers: { Accept: "application/json" } })
    .then(function (r) { return r.json(); })
    .then(function (json) {
      data = json;
      if (!data.frames || !data.frames.length) {
        $("replay-event").textContent = "This log cannot be replayed" + (data.error ? ": " + data.error.message : ".");
        return;
      }
      range.max = data.frames.length - 1;
      var notes = $("replay-notes");
      data.frames.forEach(function (f, i) {
        f.notes.forEach(function (n) {
          var li = document.createElement("li");
          var a = document.createElement("a");
          a.href = "#replay"; a.textContent = noteText(n) + " — turn " + f.turn;
          a.addEventListener("click", function (ev) { ev.preventDefault(); go(i); });
          li.appendChild(a); li.setAttribute("data-frame", i); notes.appendChild(li);
        });
      });
      if (data.error) $("replay-event").textContent = "Replay stops at an error: " + data.error.message;
      go(0);
      root.setAttribute("data-ready", "true");
    })
    .catch(function () { $("replay-event").textContent = "The replay could not be loaded."; });
})();
