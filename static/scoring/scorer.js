/* Table-side scorer and live view of a FUBA match (docs/scorer.md).
   No rule logic here: the server's rules engine says what is asked and which answers are legal;
   this script draws that, sends taps in order (queued while offline) and polls the live state. */
(function () {
  "use strict";
  var root = document.getElementById("scorer");
  if (!root) return;
  var svgNS = "http://www.w3.org/2000/svg";
  var canWrite = root.getAttribute("data-can-write") === "1";
  var apiUrl = root.getAttribute("data-api-url");
  var liveUrl = root.getAttribute("data-live-url");
  var csrf = root.getAttribute("data-csrf");
  var storeKey = "fuba-scorer-queue-" + root.getAttribute("data-session");
  var names = { home: root.getAttribute("data-home"), away: root.getAttribute("data-away") };
  var layer = root.querySelector("[data-pieces]");
  var areas = {};
  root.querySelectorAll("[data-area]").forEach(function (el) { areas[el.getAttribute("data-area")] = el; });

  var data = null;          // last state from the server
  var etag = null;
  var queue = load();       // taps not yet stored by the server, in order
  var sending = false;
  var offline = false;
  var dice = [];            // faces tapped for the pending roll
  var moveFrom = null;      // first tap of a move on the pitch

  function $(id) { return root.querySelector('[data-testid="' + id + '"]'); }
  function set(id, text) { var el = $(id); if (el) el.textContent = text; }
  function load() { try { return JSON.parse(localStorage.getItem(storeKey) || "[]"); } catch (e) { return []; } }
  function save() { try { localStorage.setItem(storeKey, JSON.stringify(queue)); } catch (e) { /* private mode */ } }
  function uid() {
    var a = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function el(tag, attrs, text) {
    var n = document.createElement(tag);
    for (var k in attrs) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function svg(tag, attrs, text) {
    var n = document.createElementNS(svgNS, tag);
    for (var k in attrs) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    return n;
  }

  /* ---------------------------------------------------------------- drawing */
  function centre(name) {
    var a = areas[name];
    if (!a) return null;
    if (a.tagName === "circle") return { x: +a.getAttribute("cx"), y: +a.getAttribute("cy"), w: 18, h: 18 };
    var x = +a.getAttribute("x"), y = +a.getAttribute("y"), w = +a.getAttribute("width"), h = +a.getAttribute("height");
    return { x: x + w / 2, y: y + h / 2, w: w, h: h };
  }
  function piece(side, count, gk, c, dx) {
    var g = svg("g", {});
    g.appendChild(svg("circle", { cx: c.x + dx, cy: c.y + 4, r: 9, "class": "piece-" + side + (gk ? " gk" : "") }));
    g.appendChild(svg("text", { x: c.x + dx, y: c.y + 4, "class": "piece-text piece-text--" + side }, String(count)));
    return g;
  }
  var AREAS = ["H-PEN", "H-LC", "H-RC", "H-FRONT", "H-LM", "H-RM", "CENTRE", "A-LM", "A-RM", "A-FRONT",
               "A-LC", "A-RC", "A-PEN", "H-LCK", "H-RCK", "A-LCK", "A-RCK"];
  function drawPitch(st) {
    if (!layer) return;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    Object.keys(areas).forEach(function (n) { areas[n].classList.toggle("area--ball", n === st.ball); });
    AREAS.forEach(function (name, i) {
      var c = centre(name);
      if (!c) return;
      var h = st.teams.home.pieces[i], a = st.teams.away.pieces[i];
      var spread = c.w > 40 ? 13 : 0;
      if (h) layer.appendChild(piece("home", h, st.teams.home.gk === name, c, a ? -spread : 0));
      if (a) layer.appendChild(piece("away", a, st.teams.away.gk === name, c, h ? spread : 0));
    });
    var b = centre(st.ball);
    if (b) {
      var bx = b.x + (b.w > 40 ? 30 : 0), by = b.y - Math.min(b.h / 2 - 10, 16);
      layer.appendChild(svg("circle", { cx: bx, cy: by, r: 8, "class": "ball" }));
      layer.appendChild(svg("text", { x: bx, y: by, "class": "ball-value" }, String(st.value)));
    }
  }
  function teamRows(st) {
    var body = $("sc-teams");
    if (!body) return;
    while (body.firstChild) body.removeChild(body.firstChild);
    var h = st.teams.home, a = st.teams.away;
    function cp(t) { var c = t.condition_points; return c.defence + " / " + c.midfield + " / " + c.forward + (t.tired ? " (tired)" : ""); }
    function inj(t) { return t.injuries.length ? t.injuries.map(function (i) { return i.minute + "'" + (i.permanent ? " (out)" : " (" + i.out_minutes + " min)"); }).join(", ") : "–"; }
    function skills(t) { return t.skills.length ? t.skills.map(function (s) { return s.replace(/_/g, " "); }).join(", ") : "–"; }
    [["Cards", h.yellow_cards + " yellow, " + h.red_cards + " red", a.yellow_cards + " yellow, " + a.red_cards + " red"],
     ["Condition points (def / mid / att)", cp(h), cp(a)],
     ["Injuries", inj(h), inj(a)],
     ["Subs", String(h.substitutions), String(a.substitutions)],
     ["Skills left", skills(h), skills(a)]].forEach(function (r) {
      var tr = el("tr");
      tr.appendChild(el("th", { scope: "row" }, r[0]));
      tr.appendChild(el("td", {}, r[1]));
      tr.appendChild(el("td", {}, r[2]));
      body.appendChild(tr);
    });
  }
  function list(id, items, text) {
    var ol = $(id);
    if (!ol) return;
    while (ol.firstChild) ol.removeChild(ol.firstChild);
    items.forEach(function (it) { ol.appendChild(el("li", it.seq ? { value: String(it.seq) } : {}, text(it))); });
  }
  function areaName(code) {
    if (!code) return "–";
    return code;
  }

  function render(d) {
    if (!data || data.seq !== d.seq || data.version !== d.version) { dice = []; moveFrom = null; }
    data = d;
    root.setAttribute("data-seq", String(d.seq));
    root.setAttribute("data-status", d.status);
    var st = d.state;
    set("sc-score", st.score[0] + " – " + st.score[1]);
    set("sc-minute", st.minute + "'");
    set("sc-turn", String(st.turn));
    set("sc-stage", String(st.stage).replace(/_/g, " "));
    set("sc-ball", areaName(st.ball));
    set("sc-value", String(st.value));
    set("sc-control", names[st.control] || st.control);
    set("sc-weather", st.weather ? String(st.weather).replace(/_/g, " ") : "fine");
    drawPitch(st);
    teamRows(st);
    list("sc-events", d.events, function (e) { return e.text + (e.rolled_by_app ? " (rolled by the app)" : ""); });
    list("sc-moments", d.moments.slice().reverse(), function (m) { return m.text; });
    var undone = $("sc-last-undo");
    if (undone) {
      undone.hidden = !d.last_undo;
      if (d.last_undo) undone.textContent = "Undone: " + d.last_undo.text + (d.last_undo.reason ? " — because: " + d.last_undo.reason : "");
    }
    var p = d.pending;
    set("sc-question", d.status === "abandoned" ? "This session was abandoned" + (d.abandon_reason ? ": " + d.abandon_reason : ".") : d.question);
    set("sc-rule", p ? "Rulebook " + ruleLabel(p.rule) + " · turn " + p.turn + ", stage " + String(p.stage).replace(/_/g, " ") : "");
    renderFinal(d);
    renderAnswer();
    status();
  }
  function ruleLabel(rule) { return /^A\d/.test(rule) ? "advanced rule " + rule : "chapter " + rule; }

  function renderFinal(d) {
    var box = $("sc-final");
    if (!box) return;
    box.hidden = !(d.status === "full_time" || d.status === "submitted");
    if (box.hidden) return;
    var score = d.state.score;
    var text = "Final score: " + names.home + " " + score[0] + "–" + score[1] + " " + names.away + ". ";
    var c = d.confirmations;
    if (d.status === "submitted") {
      text += d.submission && d.submission.status === "accepted" ? "Both clubs confirmed: the result counts." :
        "The result is submitted" + (d.participants.length < 2 ? "; the other club confirms or disputes it on the match page." : ".");
    } else {
      text += "Confirmed by: " + ([c.home ? names.home : null, c.away ? names.away : null].filter(Boolean).join(" and ") || "nobody yet") + ". ";
      text += d.participants.length === 2 ? "Both clubs scored this match: each confirms on its own device." : "Confirming submits the result to the other club.";
    }
    set("sc-final-text", text);
    var btn = $("sc-confirm");
    if (btn) {
      var side = root.getAttribute("data-side");
      btn.hidden = d.status !== "full_time" || !!(side && c[side]);
    }
  }

  /* ------------------------------------------------------------- answering */
  function button(label, attrs, onclick) {
    var b = el("button", Object.assign({ type: "button", "class": "button sc-opt" }, attrs), label);
    b.addEventListener("click", onclick);
    return b;
  }
  function renderAnswer() {
    var box = $("sc-answer");
    if (!box) return;
    while (box.firstChild) box.removeChild(box.firstChild);
    Object.keys(areas).forEach(function (n) { areas[n].classList.remove("area--pick", "area--from"); });
    var p = data && data.pending;
    var undo = root.querySelector('[data-action="undo"]');
    if (undo) undo.disabled = !data || (data.seq === 0 && !queue.some(isEvent)) || data.status === "submitted" || data.status === "abandoned";
    if (queue.length) {
      box.appendChild(el("p", { "class": "sc-wait", "data-testid": "sc-waiting" },
        "Your tap is saved on this phone and goes to the server as soon as the connection is back. " +
        "The next question comes from the server then (Undo takes the waiting tap back)."));
      return;
    }
    if (!p || data.status !== "live") return;
    if (p.kind === "roll") {
      if (dice.length !== p.dice) dice = new Array(p.dice).fill(null);
      for (var i = 0; i < p.dice; i++) box.appendChild(dieRow(p, i));
      var enter = button("Enter the dice", { "class": "button sc-big", "data-testid": "sc-enter-dice" }, function () {
        var faces = dice.slice();
        dice = [];
        tap({ event: { roll: p.name, by: p.actor, dice: faces } });
      });
      enter.disabled = dice.some(function (f) { return f === null; });
      var row = el("div", { "class": "sc-row" });
      row.appendChild(enter);
      row.appendChild(button("Roll for me", { "class": "button button--ghost sc-big", "data-testid": "sc-roll-for-me" }, function () {
        dice = [];
        tap({ roll_for_me: true });
      }));
      box.appendChild(row);
      return;
    }
    var decide = function (choice) { tap({ event: { decide: p.name, by: p.actor, choice: choice } }); };
    if (p.default !== null && p.default !== undefined) {
      box.appendChild(button(p.default_label || p.default, { "class": "button sc-big sc-default", "data-testid": "sc-default" },
        function () { decide(p.default); }));
    }
    var wrap = el("div", { "class": "sc-options" + (p.options.length > 8 ? " sc-options--many" : "") });
    var pickable = {};
    p.options.forEach(function (o) {
      if (o.value === p.default) return;
      wrap.appendChild(button(o.label, { "data-testid": "sc-option" }, function () { decide(o.value); }));
      if (typeof o.value === "string") {
        if (areas[o.value]) pickable[o.value] = o.value;
        var m = /^([A-Z-]+|GK)>([A-Z-]+)(\+ball)?$/.exec(o.value);
        if (m) (pickable[">" + (m[1] === "GK" ? data.state.teams[p.actor].gk : m[1])] = true);
      }
    });
    box.appendChild(wrap);
    if (Object.keys(pickable).length) {
      box.insertBefore(el("p", { "class": "small muted" }, "Or tap the pitch" + (Object.keys(pickable).some(function (k) { return k[0] === ">"; }) ? ": first the player's area, then where it goes." : ".")), wrap);
      Object.keys(pickable).forEach(function (k) {
        var name = k[0] === ">" ? k.slice(1) : k;
        if (areas[name]) areas[name].classList.add("area--pick");
      });
    }
  }
  function dieRow(p, i) {
    var row = el("div", { "class": "sc-die", role: "group", "aria-label": "Die " + (i + 1) });
    row.appendChild(el("span", { "class": "sc-die__label" }, p.dice > 1 ? dieName(p, i) : "Die"));
    for (var f = 1; f <= p.sides; f++) {
      (function (face) {
        var b = button(String(face), { "class": "button sc-face", "aria-pressed": String(dice[i] === face), "data-die": String(i), "data-face": String(face) },
          function () { dice[i] = face; renderAnswer(); });
        row.appendChild(b);
      })(f);
    }
    return row;
  }
  function dieName(p, i) {
    if (p.actor === "both" && p.dice === 2) {
      if (p.name === "kick_off") return i === 0 ? names.home : names.away;
      return i === 0 ? "Team with the ball" : "Defending team";
    }
    return "Die " + (i + 1);
  }
  function onArea(name) {
    var p = data && data.pending;
    if (!canWrite || queue.length || !p || p.kind !== "decision" || data.status !== "live") return;
    var values = p.options.map(function (o) { return o.value; });
    if (moveFrom === null && values.indexOf(name) >= 0) { tap({ event: { decide: p.name, by: p.actor, choice: name } }); return; }
    var gk = data.state.teams[p.actor] && data.state.teams[p.actor].gk;
    if (moveFrom === null) {
      var starts = values.some(function (v) { return typeof v === "string" && (v.indexOf(name + ">") === 0 || (gk === name && v.indexOf("GK>") === 0)); });
      if (starts) { moveFrom = name; areas[name].classList.add("area--from"); }
      return;
    }
    var from = moveFrom;
    moveFrom = null;
    areas[from].classList.remove("area--from");
    var pick = null;
    [from, "GK"].forEach(function (src) {
      if (pick || (src === "GK" && gk !== from)) return;
      [src + ">" + name, src + ">" + name + "+ball"].forEach(function (v) { if (!pick && values.indexOf(v) >= 0) pick = v; });
    });
    if (pick) tap({ event: { decide: p.name, by: p.actor, choice: pick } });
    else error("That move is not allowed now: choose one of the options.");
  }
  Object.keys(areas).forEach(function (n) { areas[n].addEventListener("click", function () { onArea(n); }); });

  /* -------------------------------------------------------------- sending */
  function isEvent(item) { return item.kind === "event"; }
  function localSeq() {
    var s = data ? data.seq : 0;
    queue.forEach(function (it) { s += it.kind === "event" ? 1 : -1; });
    return s;
  }
  function tap(body) {
    body.client_id = uid();
    body.expected_seq = localSeq() + 1;
    queue.push({ kind: "event", url: apiUrl + "/events", body: body });
    save();
    error(null);
    renderAnswer();
    status();
    flush();
  }
  function undo() {
    if (queue.length && isEvent(queue[queue.length - 1]) && !sending) {
      queue.pop();  // a tap that never reached the server is simply taken back
      save();
      renderAnswer();
      status();
      return;
    }
    var reason = root.querySelector("[data-undo-reason]");
    queue.push({ kind: "undo", url: apiUrl + "/undo", body: { expected_seq: localSeq(), reason: reason ? reason.value : "" } });
    if (reason) reason.value = "";
    save();
    status();
    flush();
  }
  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
      body: JSON.stringify(body)
    });
  }
  function flush() {
    if (sending || !queue.length) return;
    sending = true;
    var item = queue[0];
    post(item.url, item.body).then(function (r) {
      return r.json().then(function (j) { return { status: r.status, body: j }; }, function () { return { status: r.status, body: null }; });
    }).then(function (res) {
      sending = false;
      offline = false;
      if (res.status >= 200 && res.status < 300) {
        queue.shift();
        save();
        if (!queue.length) render(res.body); else { data = res.body; status(); }
        flush();
        return;
      }
      var err = res.body && res.body.error;
      queue = [];  // the taps after a refused one answered a question that is no longer asked
      save();
      if (res.status === 409 && err && err.details && err.details.state) {
        render(err.details.state);
        error("The match moved on (another device entered first): check the question and tap again.");
      } else {
        renderAnswer();
        status();
        error(err ? err.message : "The server refused this (" + res.status + ").");
      }
    }, function () {
      sending = false;
      offline = true;
      status();
    });
  }
  function status() {
    var waiting = queue.length;
    root.setAttribute("data-queue", String(waiting));
    var net = $("sc-net");
    if (!net) return;
    if (offline || !navigator.onLine) {
      net.textContent = "Offline" + (waiting ? " · " + waiting + " tap" + (waiting > 1 ? "s" : "") + " waiting" : "");
      net.className = "sc-net small sc-net--off";
    } else if (waiting) {
      net.textContent = "Sending " + waiting + " tap" + (waiting > 1 ? "s" : "") + "…";
      net.className = "sc-net small sc-net--busy";
    } else {
      net.textContent = data ? "Saved · event " + data.seq : "Connecting…";
      net.className = "sc-net small sc-net--ok";
    }
  }
  function error(message) {
    var box = $("sc-error");
    if (!box) return;
    box.hidden = !message;
    box.textContent = message || "";
  }

  /* -------------------------------------------------------------- polling */
  function poll() {
    var headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    return fetch(liveUrl, { credentials: "same-origin", headers: headers, cache: "no-cache" }).then(function (r) {
      if (r.status === 304) { if (offline) { offline = false; status(); } return; }
      if (!r.ok) return;
      etag = r.headers.get("ETag");
      return r.json().then(function (d) {
        offline = false;
        if (!sending && !queue.length && (!data || d.version !== data.version)) render(d);
        else status();
      });
    }, function () { offline = true; status(); });
  }
  function tick() {
    if (queue.length && !sending) flush();
    poll();
  }

  /* ------------------------------------------------------- buttons, wake */
  root.addEventListener("click", function (e) {
    var t = e.target.closest("[data-action]");
    if (!t) return;
    var action = t.getAttribute("data-action");
    if (action === "undo") undo();
    if (action === "confirm") {
      var body = {};
      root.querySelectorAll("[data-pen]").forEach(function (i) { if (i.value !== "") body[i.getAttribute("data-pen") + "_penalties"] = +i.value; });
      t.disabled = true;
      post(apiUrl + "/finish", body).then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); }).then(function (res) {
        t.disabled = false;
        if (res.ok) { render(res.body); error(null); return; }
        error(res.body.error.message);
        if (/penalt|shoot-out/i.test(res.body.error.message)) { var pens = root.querySelector("[data-penalties]"); if (pens) pens.hidden = false; }
      }, function () { t.disabled = false; error("No connection: try again when you are back online."); });
    }
    if (action === "abandon") {
      var reason = root.querySelector("[data-abandon-reason]");
      if (!reason || !reason.value.trim()) { error("Say why the session is abandoned."); return; }
      post(apiUrl + "/abandon", { reason: reason.value }).then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); }).then(function (res) {
        if (res.ok) render(res.body); else error(res.body.error.message);
      });
    }
  });
  var wake = null;
  function keepAwake() {
    if (!canWrite || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) { wake = l; }, function () { wake = null; });
  }
  document.addEventListener("visibilitychange", keepAwake);
  window.addEventListener("online", function () { offline = false; status(); flush(); });
  window.addEventListener("offline", function () { offline = true; status(); });
  keepAwake();
  poll().then(function () { if (queue.length) flush(); });
  setInterval(tick, 1500);
  root.setAttribute("data-ready", "1");
})();
