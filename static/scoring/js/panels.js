/* What is read below the board: the score bar, the team facts, the feed of events, the key
   moments, the undo note and the full-time box. Words only: the server names everything. */
import { byId, clear, el, setText } from "./dom.js";

function cp(t) {
  const c = t.condition_points;
  return c.defence + " / " + c.midfield + " / " + c.forward + (t.tired ? " (tired)" : "");
}
function injuries(t) {
  if (!t.injuries.length) return "–";
  return t.injuries.map((i) => i.minute + "'" + (i.permanent ? " (out)" : " (" + i.out_minutes + " min)")).join(", ");
}
function skills(t) {
  return t.skills.length ? t.skills.map((s) => s.replace(/_/g, " ")).join(", ") : "–";
}

export function teamRows(root, st) {
  const body = byId(root, "sc-teams");
  if (!body) return;
  clear(body);
  const h = st.teams.home, a = st.teams.away;
  [["Cards", h.yellow_cards + " yellow, " + h.red_cards + " red", a.yellow_cards + " yellow, " + a.red_cards + " red"],
   ["Condition points (def / mid / att)", cp(h), cp(a)],
   ["Injuries", injuries(h), injuries(a)],
   ["Subs", String(h.substitutions), String(a.substitutions)],
   ["Skills left", skills(h), skills(a)]].forEach((r) => {
    const tr = el("tr");
    tr.appendChild(el("th", { scope: "row" }, r[0]));
    tr.appendChild(el("td", {}, r[1]));
    tr.appendChild(el("td", {}, r[2]));
    body.appendChild(tr);
  });
}

function list(root, id, items, text) {
  const ol = byId(root, id);
  if (!ol) return;
  clear(ol);
  items.forEach((it) => ol.appendChild(el("li", it.seq ? { value: String(it.seq) } : {}, text(it))));
}

export function feed(root, d) {
  list(root, "sc-events", d.events, (e) => e.text + (e.rolled_by_app ? " (rolled by the app)" : ""));
  list(root, "sc-moments", d.moments.slice().reverse(), (m) => m.text);
  const last = d.events.length ? d.events[0] : null;
  setText(root, "sc-last", last ? last.text : "");
  const lastLine = byId(root, "sc-last");
  if (lastLine) {
    // the app's roll lands with a short animation of the die (restarted for each new roll)
    if (last && lastLine.getAttribute("data-seq") !== String(last.seq)) {
      lastLine.classList.remove("sc-last--rolled");
      void lastLine.offsetWidth;
    }
    lastLine.classList.toggle("sc-last--rolled", !!(last && last.rolled_by_app));
    lastLine.setAttribute("data-seq", last ? String(last.seq) : "");
  }
  const undone = byId(root, "sc-last-undo");
  if (undone) {
    // said once, right after the undo: the next event takes it away
    const fresh = d.last_undo && d.last_undo.seq === d.seq + 1;
    undone.hidden = !fresh;
    undone.textContent = fresh
      ? "Taken back: " + d.last_undo.text + (d.last_undo.reason ? " (" + d.last_undo.reason + ")" : "") : "";
  }
}

export function bar(root, d, names) {
  const st = d.state;
  setText(root, "sc-score", st.score[0] + " – " + st.score[1]);
  setText(root, "sc-minute", st.minute + "'");
  setText(root, "sc-turn", String(st.turn));
  const ball = (d.areas || []).find((a) => a.code === st.ball);
  setText(root, "sc-ball", ball ? ball.name : "–");
  setText(root, "sc-value", String(st.value));
  setText(root, "sc-control", names[st.control] || st.control);
  setText(root, "sc-weather", st.weather ? String(st.weather).replace(/_/g, " ") : "fine");
  const p = d.pending;
  const question = d.status === "abandoned"
    ? "This session was abandoned" + (d.abandon_reason ? ": " + d.abandon_reason : ".")
    : (p ? p.text || d.question : d.question);
  setText(root, "sc-question", question);
  setText(root, "sc-rule", p ? (/^A\d/.test(p.rule) ? "advanced rule " + p.rule : "rule " + p.rule) : "");
  promptHint(root, d.status === "abandoned" ? null : p);
}

/**
 * An advanced rule's prompt ("use a condition point?") does not say what "yes" buys: the server's
 * hint says it in a few words under the question, its chapter opened by a tap on it.
 * @param {ParentNode} root
 * @param {{hint?: string|null, rule?: string}|null|undefined} p
 */
export function promptHint(root, p) {
  const box = byId(root, "sc-hint");
  if (!box) return;
  const hint = p && p.hint ? String(p.hint) : "";
  box.hidden = !hint;
  if (!hint) { box.removeAttribute("open"); return; }
  const rule = p && p.rule ? String(p.rule) : "";
  const tail = " (" + rule + ")";
  setText(root, "sc-hint-text", rule && hint.endsWith(tail) ? hint.slice(0, -tail.length) : hint);
  setText(root, "sc-hint-chapter", rule
    ? "FUBA rulebook, " + (/^A\d/.test(rule) ? "advanced rules, chapter " : "chapter ") + rule : "");
}

export function finalBox(root, d, names) {
  const box = byId(root, "sc-final");
  if (!box) return;
  box.hidden = !(d.status === "full_time" || d.status === "submitted");
  if (box.hidden) return;
  const score = d.state.score;
  const c = d.confirmations;
  const aet = d.result && d.result.extra_time ? " after extra time" : "";
  let text = "Final score: " + names.home + " " + score[0] + "–" + score[1] + " " + names.away + aet + ". ";
  if (d.status === "submitted") {
    const pens = d.shootout_score;
    if (pens) text += "Penalty shoot-out: " + names.home + " " + pens.home + "–" + pens.away + " " + names.away + ". ";
    text += d.submission && d.submission.status === "accepted" ? "Both clubs confirmed: the result counts."
      : "The result is submitted" + (d.participants.length < 2 ? "; the other club confirms or disputes it on the match page." : ".");
  } else {
    text += "Confirmed by: " + ([c.home ? names.home : null, c.away ? names.away : null].filter(Boolean).join(" and ") || "nobody yet") + ". ";
    text += d.participants.length === 2 ? "Both clubs scored this match: each confirms on its own device." : "Confirming submits the result to the other club.";
  }
  const side = root.getAttribute("data-side");
  const pens = root.querySelector("[data-penalties]");
  const shootout = d.status === "full_time" && d.shootout;
  // Waiting for the other club, a club that gave the shoot-out score may still correct it.
  const correcting = shootout && side && c[side] && d.participants.length === 2 && !c[side === "home" ? "away" : "home"];
  if (shootout) text += " " + shootoutText(d, names, side, correcting, aet ? "Level after extra time" : "Level at full time");
  if (pens) {
    if (d.status !== "full_time") pens.hidden = true;
    else if (shootout && side && (!c[side] || correcting)) { pens.hidden = false; prefill(pens, d.shootout_score); }
  }
  setText(root, "sc-final-text", text);
  const btn = byId(root, "sc-confirm");
  if (btn) {
    btn.hidden = d.status !== "full_time" || !!(side && c[side] && !correcting);
    if (!btn.hasAttribute("data-label")) btn.setAttribute("data-label", btn.textContent);
    btn.textContent = correcting ? "Change our shoot-out score" : btn.getAttribute("data-label");
  }
}

// A level knockout tie: every club's confirmation gives the shoot-out score, asked at once; when
// both clubs scored, the second is shown the first's score and must confirm the same one.
function shootoutText(d, names, side, correcting, level) {
  const given = d.shootout_score;
  const score = given ? names.home + " " + given.home + "–" + given.away + " " + names.away : "";
  if (correcting) {
    return "Your shoot-out score: " + score + ". The other club confirms the same score; if it is wrong, change it here.";
  }
  if (given && given.side !== side) {
    return level + ": " + names[given.side] + " gave the penalty shoot-out as " + score +
      ". Confirm it if you agree; if it is wrong, " + names[given.side] + " corrects it on its phone.";
  }
  return level + ": give the penalty shoot-out score." +
    (d.participants.length === 2 ? " The other club confirms the same score." : "");
}

// The shoot-out score given so far goes into the boxes once per score, so a number being typed is
// not overwritten by the next refresh of the same state.
function prefill(pens, given) {
  if (!given) return;
  const key = given.home + "-" + given.away;
  if (pens.getAttribute("data-filled") === key) return;
  pens.setAttribute("data-filled", key);
  pens.querySelectorAll("[data-pen]").forEach((i) => { i.value = String(given[i.getAttribute("data-pen")]); });
}

export function netStatus(root, { waiting, taps, offline, local, note, blocked, rolling, judging }, hasData) {
  root.setAttribute("data-queue", String(waiting));
  root.setAttribute("data-judging", judging ? "1" : "");
  root.setAttribute("data-engine", local ? "local" : "server");
  root.setAttribute("data-blocked", blocked ? "1" : "");
  const mode = byId(root, "sc-mode");
  if (mode) { mode.hidden = !note; mode.textContent = note || ""; }
  // A refusal of what this phone accepted stays in the bar until the match is sent another way.
  const alert = byId(root, "sc-blocked");
  if (alert) { alert.hidden = !blocked; alert.textContent = blocked || ""; }
  const net = byId(root, "sc-net");
  if (!net) return;
  const n = typeof taps === "number" ? taps : waiting;
  const count = n + " tap" + (n === 1 ? "" : "s");
  // short enough that both team names keep their place in the bar at 390 px
  net.title = offline && waiting ? count + (local ? " saved on this phone" : " waiting") : "";
  if (blocked) {
    net.textContent = "Not sent" + (waiting ? " · " + count + " kept" : "");
    net.className = "sc-net small sc-net--off";
  } else if (offline) {
    net.textContent = "Offline" + (waiting ? " · " + (n ? count + " " : "") + (local ? "saved" : "waiting") : "");
    net.className = "sc-net small sc-net--off";
  } else if (rolling) {
    net.textContent = "Rolling…";
    net.className = "sc-net small sc-net--busy";
  } else if (waiting) {
    net.textContent = "Sending" + (n ? " " + count : "") + "…";
    net.className = "sc-net small sc-net--busy";
  } else {
    net.textContent = hasData ? "Saved" : "Connecting…";
    net.className = "sc-net small sc-net--ok";
  }
}

// A real other phone's stretch: the line stays until the scorer taps OK.
export function conflictLine(root, message) {
  const box = byId(root, "sc-conflict");
  if (!box) return;
  box.hidden = !message;
  setText(root, "sc-conflict-text", message || "");
}
