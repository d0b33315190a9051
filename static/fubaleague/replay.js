/* Match replay: steps through frames computed server-side by the rules engine (replay.json):
   the pitch with the last action, score and clock, the feed grouped by turn, the key moments,
   autoplay at 1x/4x, goal and card marks on the slider, keys (arrows: event, shift+arrows: turn,
   space: play) and swipes on the pitch (short: event, long: turn). No rule logic here. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root || !window.FubaPitch) return;
  var pitch = new window.FubaPitch(root.querySelector("[data-pitch]"));
  var range = document.getElementById("replay-range");
  var $ = function (id) { return root.querySelector('[data-testid="' + id + '"]'); };
  var button = function (action) { return root.querySelector('[data-action="' + action + '"]'); };
  var data = null, pos = 0, timer = null, speed = 1;
  var STEP_MS = 800;  // one event a step at 1x: a turn of about 15 events in 12 s

  function teamName(side) { return data.teams && data.teams[side] ? data.teams[side].name : side; }

  /* The last action that concerned areas: a roll moves nothing on the pitch by itself, so the
     move, pass or shot before it in the same turn stays marked (as lichess keeps the last move). */
  function lastOnPitch(at) {
    var turn = data.frames[at].turn;
    for (var i = at; i >= 0 && data.frames[i].turn === turn; i--) {
      var last = data.frames[i].last;
      if (last && last.areas && last.areas.length) return last;
    }
    return null;
  }

  function draw(frame) {
    pitch.draw({
      codes: data.areas, home: frame.home, away: frame.away, ball: frame.ball, value: frame.value,
      gk: { home: frame.gk[0] >= 0 ? data.areas[frame.gk[0]] : null, away: frame.gk[1] >= 0 ? data.areas[frame.gk[1]] : null },
      last: lastOnPitch(pos)
    });
    $("replay-score").textContent = frame.score[0] + " – " + frame.score[1];
    $("replay-minute").textContent = frame.minute + "'";
    $("replay-turn").textContent = frame.turn;
    $("replay-ball").textContent = (frame.ball_name || "–") + " · value " + frame.value;
    $("replay-control").textContent = teamName(frame.control);
    var notes = frame.notes.map(function (n) { return n.text; }).filter(Boolean);
    $("replay-event").textContent = frame.text + (notes.length ? " — " + notes.join("; ") : "");
    // what the one line leaves out (a set-up's whole placement), under it
    $("replay-detail").textContent = frame.detail || "";
    $("replay-detail").hidden = !frame.detail;
    $("replay-position").textContent = "Event " + (pos + 1) + " of " + data.frames.length;
    range.value = pos;
    var end = pos === data.frames.length - 1;
    ["back", "first", "prev-turn"].forEach(function (a) { button(a).disabled = pos === 0; });
    ["forward", "last", "next-turn"].forEach(function (a) { button(a).disabled = end; });
    current($("replay-feed"), turnIndex());
  }

  function current(list, index) {
    var items = list.children;
    for (var i = 0; i < items.length; i++) {
      if (i === index) items[i].setAttribute("aria-current", "step"); else items[i].removeAttribute("aria-current");
    }
    var item = items[index];
    if (item && list.scrollHeight > list.clientHeight) list.scrollTop = item.offsetTop - list.offsetTop - list.clientHeight / 2;
  }

  function turnIndex() {
    var index = -1;
    data.feed.forEach(function (line, i) { if (line.first <= pos) index = i; });
    return index;
  }

  function go(i) {
    if (!data || !data.frames.length) return;
    pos = Math.max(0, Math.min(data.frames.length - 1, i));
    draw(data.frames[pos]);
    if (pos === data.frames.length - 1) pause();
  }

  function nextTurn() {
    for (var i = 0; i < data.feed.length; i++) if (data.feed[i].first > pos) return go(data.feed[i].first);
    go(data.frames.length - 1);
  }

  function prevTurn() {
    var t = turnIndex();
    var start = t >= 0 ? data.feed[t].first : 0;
    // At a turn's first event "previous turn" goes to the turn before, as a player expects.
    if (start < pos) return go(start);
    go(t > 0 ? data.feed[t - 1].first : 0);
  }

  function play() {
    if (timer || !data) return;
    if (pos === data.frames.length - 1) go(0);
    timer = window.setInterval(function () { go(pos + 1); }, STEP_MS / speed);
    var b = button("play");
    b.textContent = "❚❚ Pause"; b.setAttribute("aria-pressed", "true"); root.setAttribute("data-playing", "true");
  }

  function pause() {
    if (!timer) return;
    window.clearInterval(timer);
    timer = null;
    var b = button("play");
    b.textContent = "▶ Play"; b.setAttribute("aria-pressed", "false"); root.setAttribute("data-playing", "false");
  }

  function setSpeed() {
    speed = speed === 1 ? 4 : 1;
    button("speed").textContent = speed + "×";
    if (timer) { pause(); play(); }
  }

  var actions = {
    forward: function () { go(pos + 1); }, back: function () { go(pos - 1); },
    first: function () { go(0); }, last: function () { go(data.frames.length - 1); },
    "next-turn": nextTurn, "prev-turn": prevTurn,
    play: function () { if (timer) pause(); else play(); }, speed: setSpeed
  };

  root.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-action]");
    if (!btn || !data) return;
    var a = btn.getAttribute("data-action");
    if (a !== "play" && a !== "speed") pause();
    if (actions[a]) actions[a]();
  });
  range.addEventListener("input", function () { pause(); go(+range.value); });

  document.addEventListener("keydown", function (e) {
    if (!data || e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && t !== range) || t.isContentEditable) return;
    // The keys work wherever the page is, unless the focus is in another part of the page's forms.
    if (t !== document.body && !root.contains(t)) return;
    var handled = true;
    if (e.key === "ArrowRight") { pause(); if (e.shiftKey) nextTurn(); else go(pos + 1); }
    else if (e.key === "ArrowLeft") { pause(); if (e.shiftKey) prevTurn(); else go(pos - 1); }
    else if (e.key === " " && t.tagName !== "BUTTON") actions.play();
    else if (e.key === "Home") { pause(); go(0); }
    else if (e.key === "End") { pause(); go(data.frames.length - 1); }
    else handled = false;
    if (handled) e.preventDefault();
  });

  var touch = null;
  pitch.svg.addEventListener("touchstart", function (e) {
    if (e.touches.length === 1) touch = { x: e.touches[0].clientX, y: e.touches[0].clientY };
  }, { passive: true });
  pitch.svg.addEventListener("touchend", function (e) {
    if (!touch || !data) return;
    var dx = e.changedTouches[0].clientX - touch.x, dy = e.changedTouches[0].clientY - touch.y;
    touch = null;
    if (Math.abs(dx) < 30 || Math.abs(dx) < Math.abs(dy)) return;
    pause();
    var long = Math.abs(dx) > pitch.svg.getBoundingClientRect().width / 2;
    if (dx < 0) { if (long) nextTurn(); else go(pos + 1); }
    else if (long) prevTurn(); else go(pos - 1);
  }, { passive: true });

  function listItem(text, index, attrs) {
    var li = document.createElement("li");
    var b = document.createElement("button");
    b.type = "button"; b.className = "steplink"; b.textContent = text;
    b.addEventListener("click", function () { pause(); go(index); });
    for (var k in attrs || {}) li.setAttribute(k, attrs[k]);
    li.appendChild(b);
    return li;
  }

  function marks() {
    var box = $("replay-marks");
    var n = Math.max(1, data.frames.length - 1);
    data.marks.forEach(function (m) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "replay__mark replay__mark--" + m.kind;
      b.style.left = (100 * m.i / n) + "%";
      b.title = m.text; b.setAttribute("aria-label", m.text);
      b.setAttribute("data-testid", "replay-mark"); b.setAttribute("data-kind", m.kind);
      b.addEventListener("click", function () { pause(); go(m.i); });
      box.appendChild(b);
    });
  }

  fetch(root.getAttribute("data-replay-url"), { headers: { Accept: "application/json" } })
    .then(function (r) { return r.json(); })
    .then(function (json) {
      data = json;
      if (!data.frames || !data.frames.length) {
        $("replay-event").textContent = "This log cannot be replayed" + (data.error ? ": " + data.error.message : ".");
        return;
      }
      range.max = data.frames.length - 1;
      var feed = $("replay-feed"), moments = $("replay-notes");
      data.feed.forEach(function (line) { feed.appendChild(listItem(line.text, line.first, line.key ? { "class": "feed--key" } : {})); });
      data.moments.forEach(function (m) { moments.appendChild(listItem(m.text, m.i, { "data-kind": m.kind })); });
      marks();
      if (data.error) $("replay-event").textContent = "Replay stops at an error: " + data.error.message;
      go(0);
      root.setAttribute("data-ready", "true");
    })
    .catch(function () { $("replay-event").textContent = "The replay could not be loaded."; });
})();
