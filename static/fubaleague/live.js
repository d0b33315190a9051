/* The live panel of the match page: a spectator follows a match being scored at the table.
   Polls the session's live state (the same document the scorer reads, revalidated by its ETag)
   and draws the pitch with the last action, the score and clock, the question being answered,
   the latest entries, the feed by turn and the key moments. Read-only: no rule logic here. */
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root || !window.FubaPitch) return;
  var pitch = new window.FubaPitch(root.querySelector("[data-pitch]"));
  var url = root.getAttribute("data-live-url");
  var names = { home: root.getAttribute("data-home"), away: root.getAttribute("data-away") };
  var POLL_MS = 1500;
  var storyUrl = root.getAttribute("data-story-url");
  var etag = null, codes = null, areaNames = {}, storyVersion = null, marked = null;
  var $ = function (id) { return root.querySelector('[data-testid="' + id + '"]'); };

  function list(id, items, text) {
    var ol = $(id);
    while (ol.firstChild) ol.removeChild(ol.firstChild);
    items.forEach(function (it) {
      var li = document.createElement("li");
      li.textContent = text(it);
      if (it.seq) li.value = it.seq;
      if (it.key) li.className = "feed--key";
      ol.appendChild(li);
    });
  }

  function render(d) {
    if (!codes) {
      codes = d.areas.map(function (a) { return a.code; });
      d.areas.forEach(function (a) { areaNames[a.code] = a.name; });
    }
    var st = d.state;
    root.setAttribute("data-seq", String(d.seq));
    root.setAttribute("data-status", d.status);
    $("live-score").textContent = st.score[0] + " – " + st.score[1];
    $("live-minute").textContent = st.minute + "'";
    $("live-turn").textContent = String(st.turn);
    var control = names[st.control] || st.control;
    $("live-ball").textContent = st.ball ? "Ball: " + areaNames[st.ball] + " · value " + st.value + " · " + control + " has it" : "";
    // A roll moves nothing by itself: the move, pass or shot before it this turn stays marked.
    if (st.last && st.last.areas && st.last.areas.length) marked = { turn: st.turn, last: st.last };
    pitch.draw({
      codes: codes, home: st.teams.home.pieces, away: st.teams.away.pieces, ball: st.ball, value: st.value,
      gk: { home: st.teams.home.gk, away: st.teams.away.gk },
      last: marked && marked.turn === st.turn ? marked.last : null
    });
    var now = d.status === "live" ? d.question : d.status === "full_time" ? "Full time: the clubs confirm the result." :
      d.status === "abandoned" ? "The scoring of this match was abandoned." : "The result is submitted.";
    $("live-question").textContent = now;
    // The last entry only: the turn's line in the feed below tells the rest of it in words (a
    // spectator does not read the log's every "no more moves").
    list("live-events", d.events.slice(0, 1), function (e) { return e.text + (e.rolled_by_app ? " (rolled by the app)" : ""); });
    if (d.version !== storyVersion) story(d.version);
  }

  /* The feed by turn and the key moments: built by the server from the whole log, once per
     version, and asked for only when the version moved. */
  function story(version) {
    storyVersion = version;
    fetch(storyUrl, { headers: { Accept: "application/json" }, cache: "no-cache" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
      .then(function (s) {
        list("live-feed", s.feed.slice(-12).reverse(), function (l) { return l.text; });
        list("live-moments", s.moments.slice(-20).reverse(), function (m) { return m.text; });
        root.setAttribute("data-story", String(s.version));
      })
      .catch(function () { storyVersion = null; });
  }

  function status(text, bad) {
    var el = $("live-net");
    el.textContent = text;
    el.classList.toggle("live__net--bad", !!bad);
  }

  function poll() {
    var headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, { headers: headers, cache: "no-cache" }).then(function (r) {
      if (r.status === 304) return null;
      if (r.status === 403) {
        // Full time: the score and the log are public once both clubs have confirmed them.
        return r.json().then(function (body) {
          root.setAttribute("data-status", "unconfirmed");
          $("live-question").textContent = body.error.message;
          return null;
        });
      }
      if (!r.ok) throw new Error(String(r.status));
      etag = r.headers.get("ETag");
      return r.json();
    }).then(function (d) {
      if (d) render(d);
      status("Up to date");
    }).catch(function () {
      status("Connection lost, retrying…", true);
    }).then(function () {
      if (["submitted", "abandoned", "unconfirmed"].indexOf(root.getAttribute("data-status")) < 0) {
        window.setTimeout(poll, document.visibilityState === "hidden" ? POLL_MS * 4 : POLL_MS);
      }
    });
  }
  poll();
})();
