/* Table-side scorer and live view of a FUBA match (docs/scorer.md): the page's entry module.

   No rule logic here or in the modules it uses: the server's rules engine says what is asked,
   which answers are legal and how areas are named. The modules:
     transport.js  taps queued, sent in order, kept offline; polling (the seam a local-first
                   transport replaces: its interface is documented at its top)
     local-first.js the same interface with the rules engine on the phone (local-engine.js,
                   local-store.js): every tap answered at once, a whole match offline
     board.js      the pitch: pieces, ball, highlights, taps and drags on areas
     answer.js     the question's answers: dice faces, places and moves, chips, the dock button
     setup.js      the set-up editor: pieces placed area by area, checked by the server
     groups.js     chips the server grouped by kind (A3 substitution): the kinds, then a kind's options
     dice.js       how the dice are rolled: one club chooses, the other agrees (the "Dice" fact too)
     panels.js     score bar, facts, feed, undo note, full time, connection status
     fit.js        the pitch in the height a phone's screen leaves above the answers */
import { byId } from "./dom.js";
import { createAsk } from "./answer.js";
import { renderDice } from "./dice.js";
import { createBoard } from "./board.js";
import { createUndoAsk, undoneNow, withOwnUndo } from "./undo.js";
import { bar, conflictLine, feed, finalBox, netStatus, teamRows } from "./panels.js";
import { createTransport } from "./transport.js";
import { createLocalFirstTransport } from "./local-first.js";
import { engineConfig } from "./local-engine.js";
import { fitPitch } from "./fit.js";

// The shoot-out score typed in the full-time box, as the confirmation and the turn log send it.
function penalties(root) {
  const body = {};
  root.querySelectorAll("[data-pen]").forEach((i) => {
    if (i.value !== "") body[i.getAttribute("data-pen") + "_penalties"] = +i.value;
  });
  return body;
}

// A refused tap leaves the live record behind: at full time the whole match goes as a turn log
// (way-out.js), in place of a "Confirm" that could not go.
function wayOut(root, transport, d) {
  const button = root.querySelector('[data-action="send-log"]');
  if (!button) return;
  const blocked = !!d.blocked;
  button.hidden = !(blocked && d.status === "full_time");
  const confirmButton = byId(root, "sc-confirm");
  if (blocked && confirmButton) confirmButton.hidden = true;
}

function sendWholeMatch(root, transport, button, say) {
  button.disabled = true;
  transport.sendWholeMatch(penalties(root)).then((res) => {
    button.disabled = false;
    if (res.ok) {
      button.hidden = true;
      say("Sent: the server validates the whole match; its report on the match page says where the engines differ.");
      return;
    }
    say(res.body && res.body.error ? res.body.error.message : "The server refused this (" + res.status + ").");
  }, () => { button.disabled = false; say("No connection: try again when you are back online."); });
}

// Another phone's stretch said until OK; a refused match sent whole.
function recovery(root, transport, say) {
  transport.onConflict(({ message }) => conflictLine(root, message));
  root.addEventListener("click", (e) => {
    const t = e.target.closest("[data-action]");
    if (t && t.getAttribute("data-action") === "ack-conflict") conflictLine(root, null);
    if (t && t.getAttribute("data-action") === "send-log") sendWholeMatch(root, transport, t, say);
  });
}

// The page's transport: a club's phone scores on its own engine (local-first.js) when the server
// offers one, a spectator and the fallback on the server's (transport.js).
function openTransport(root, canWrite, names) {
  const options = {
    apiUrl: root.getAttribute("data-api-url"),
    liveUrl: root.getAttribute("data-live-url"),
    csrf: root.getAttribute("data-csrf"),
    storeKey: "fuba-scorer-queue-" + root.getAttribute("data-session"),
  };
  const engine = canWrite ? engineConfig(root) : null;
  return engine ? createLocalFirstTransport(Object.assign({}, options, {
    session: root.getAttribute("data-session"),
    side: root.getAttribute("data-side"),
    names: names,
    staticUrl: root.getAttribute("data-static-url"),
    serviceWorker: root.getAttribute("data-service-worker"),
    // for whoever must know the page opens without connection (tests reload it offline)
    offlineReady: () => { root.dataset.offline = "ready"; },
  }), engine) : createTransport(options);
}

// The one line under the question that says what went wrong (null: nothing).
function sayer(root) {
  return (message) => {
    const box = byId(root, "sc-error");
    if (!box) return;
    box.hidden = !message;
    box.textContent = message || "";
  };
}

const OFFLINE = "No connection: try again when you are back online.";

// "Confirm": the result at full time, with the shoot-out score when the tie needs one.
function confirm(root, transport, button, { say, render }) {
  const body = penalties(root);
  button.disabled = true;
  transport.post("/finish", body).then((res) => {
    button.disabled = false;
    if (res.ok) { render(res.body); say(null); return; }
    const message = res.body && res.body.error ? res.body.error.message : "The server refused this.";
    say(message);
    if (/penalt|shoot-out/i.test(message)) {
      const pens = root.querySelector("[data-penalties]");
      if (pens) pens.hidden = false;
    }
  }, () => { button.disabled = false; say(OFFLINE); });
}

function abandon(root, transport, { say, render }) {
  const reason = root.querySelector("[data-abandon-reason]");
  if (!reason || !reason.value.trim()) { say("Say why the session is abandoned."); return; }
  transport.post("/abandon", { reason: reason.value }).then((res) => {
    if (res.ok) render(res.body); else say(res.body.error.message);
  }, () => say(OFFLINE));
}

// A club's word on the dice (dice.js), answered with the state.
function diceWord(transport, button, { say, render }) {
  transport.post("/dice", { app_dice: button.getAttribute("data-dice") === "app" }).then((res) => {
    if (!res.ok) { say(res.body && res.body.error ? res.body.error.message : "Refused."); return; }
    render(res.body);
  }, () => say(OFFLINE));
}

// Undo takes something back when there is an event or a waiting tap, and the session is open.
function undoable(root, transport, data) {
  const undo = root.querySelector('[data-action="undo"]');
  if (undo) {
    undo.disabled = !data || (data.seq === 0 && !transport.waiting()) ||
      data.status === "submitted" || data.status === "abandoned";
  }
}

// The screen stays awake while a club scores.
function stayAwake(canWrite) {
  const keepAwake = () => {
    if (!canWrite || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").catch(() => {});
  };
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();
}

function start(root) {
  const canWrite = root.getAttribute("data-can-write") === "1";
  const names = { home: root.getAttribute("data-home"), away: root.getAttribute("data-away") };
  const transport = openTransport(root, canWrite, names);
  // Taps block the answers while the server asks the next question or rolls this phone's dice.
  const waiting = () => ({ waiting: transport.blocking(), waitText: transport.local ? "Rolling the dice on the server…" : null });
  let data = null;
  const say = sayer(root);
  const pitch = root.querySelector("[data-pitch]");
  const board = pitch ? createBoard(pitch, {
    onTap: (code) => ask.onTap(code),
    onDrag: (a, b) => ask.onDrag(a, b),
  }) : { draw() {}, mark() {}, has: () => false };
  const ask = createAsk(root, board, {
    canWrite: canWrite,
    names: names,
    say: say,
    send: (body, opt) => { say(null); transport.send(body, opt); },
    check: (choice) => transport.post("/setup-check", { choice: choice }).then((res) => (res.ok ? res.body : null)),
  });

  // This phone's own last undo, shown as the server's is (undo.js).
  let ownUndo = null;
  const undoAsk = createUndoAsk(root, { undo: (reason) => { ownUndo = undoneNow(data, reason); transport.undo(reason); } });
  const fit = fitPitch(root);

  function render(state) {
    const d = withOwnUndo(state, ownUndo);
    undoAsk.shown(d.seq);
    data = d;
    root.setAttribute("data-seq", String(d.seq));
    root.setAttribute("data-status", d.status);
    ask.setAppDice(!!d.app_dice);
    bar(root, d, names);
    board.draw(d.state, d.areas, undefined, d.seq);
    teamRows(root, d.state);
    feed(root, d);
    finalBox(root, d, names);
    ask.render(d, waiting());
    wayOut(root, transport, d);
    diceChoice(d);
    undoButton();
    fit();
  }
  function diceChoice(d) {
    renderDice(root, d, { canWrite: canWrite, side: root.getAttribute("data-side"), names: names, waiting: transport.waiting() });
  }
  const undoButton = () => undoable(root, transport, data);

  transport.onState(render);
  transport.onStatus((s) => {
    netStatus(root, s, !!data);
    if (data && transport.blocking()) ask.render(data, waiting());
    if (data) wayOut(root, transport, data);
    undoButton();
    fit();
  });
  recovery(root, transport, say);
  transport.onRefused(({ message, stale, auto }) => {
    if (auto && stale) return; // the other phone answered the same one-answer question first
    say(stale ? "The other phone entered first: check the question and tap again." : message);
    if (data) render(data);
  });

  const page = { say, render };
  root.addEventListener("click", (e) => {
    const t = e.target.closest("[data-action]");
    if (!t) return;
    const action = t.getAttribute("data-action");
    if (action === "undo") undoAsk.tap(data ? data.seq : 0);
    else if (action === "undo-cancel") undoAsk.close();
    else if (action === "confirm") confirm(root, transport, t, page);
    else if (action === "dice") diceWord(transport, t, page);
    else if (action === "abandon") abandon(root, transport, page);
  });
  stayAwake(canWrite);
  transport.start();
  root.setAttribute("data-ready", "1");
}

const root = document.getElementById("scorer");
if (root) start(root);
