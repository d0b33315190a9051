/* How the match's dice are rolled, as the two clubs agree it (docs/scorer.md, "App dice").

   The server decides what a club's word does (scoring/dice.py); this module shows the state's
   `dice` and offers the one tap that answers it. Every button is an action "dice" with
   data-dice="app" or "table": the club's word, sent as POST …/dice (main.js).
     - nobody chose, before the first event: "rolled at the table" / "app dice";
     - the other club chose app dice and this club has not answered: "agree" / "we type our dice";
     - the other club asks for a change (after the first event): "agree" / "keep …";
     - this club waits for the other's answer: one line, no button.
   The "Dice" fact under the board says what stands, for everyone (spectators too). */
import { byId, clear, el, setText } from "./dom.js";

/** @param {boolean} app */
function mode(app) { return app ? "app dice" : "dice rolled at the table"; }

/**
 * @param {boolean} dice  app dice
 * @param {string} label
 * @param {string} testid
 * @param {boolean} [pressed]
 */
function button(dice, label, testid, pressed) {
  /** @type {Record<string, string>} */
  const attrs = { type: "button", class: "chip", "data-action": "dice", "data-dice": dice ? "app" : "table", "data-testid": testid };
  if (pressed !== undefined) attrs["aria-pressed"] = String(pressed);
  return el("button", attrs, label);
}

/**
 * What this club is asked or told now: [line, buttons], or null when nothing is.
 * @param {any} d  the session state
 * @param {string} side  this club's
 * @param {Record<string, string>} names
 * @returns {[string, HTMLElement[]] | null}
 */
function prompt(d, side, names) {
  const dice = d.dice || {};
  const other = side === "home" ? "away" : "home";
  const request = dice.request;
  const chosen = dice.chosen_by;
  if (request && request.side === other) {
    return [names[other] + " asks for " + mode(request.app_dice) + " from the next roll:",
      [button(request.app_dice, "agree", "sc-dice-agree"), button(d.app_dice, "keep " + mode(d.app_dice), "sc-dice-keep")]];
  }
  if (request) return ["Asked " + names[other] + " for " + mode(request.app_dice) + ": waiting for its answer.", []];
  if (d.app_dice && chosen && chosen.side === other && !dice.agreed_by) {
    const later = d.seq > 0 ? " (" + names[other] + " must agree to a change now)" : "";
    return [names[other] + " chose app dice: the phone rolls every roll." + later,
      [button(true, "agree", "sc-dice-agree"), button(false, "we type our dice", "sc-dice-refuse")]];
  }
  if (d.seq !== 0) return null;
  let line = "Dice for the whole match:";
  if (!d.app_dice && chosen && chosen.side === other) line = names[other] + " types its dice:";
  if (d.app_dice && chosen && chosen.side === side) {
    line = dice.agreed_by ? names[other] + " agreed to app dice." : "App dice until " + names[other] + " says no (before the first roll):";
  }
  return [line, [button(false, "rolled at the table", "sc-dice-table", !d.app_dice), button(true, "app dice", "sc-dice-app", !!d.app_dice)]];
}

/**
 * @param {HTMLElement} root  the scorer
 * @param {any} d  the session state
 * @param {{canWrite: boolean, side: string|null, names: Record<string, string>, waiting: number|boolean}} opts
 */
export function renderDice(root, d, opts) {
  setText(root, "sc-dice", d.dice ? d.dice.summary : (d.app_dice ? "App dice" : "Dice rolled at the table"));
  const box = byId(root, "sc-dice-choice");
  if (!box) return;
  const asked = opts.canWrite && opts.side && d.status === "live" && !opts.waiting ? prompt(d, opts.side, opts.names) : null;
  box.hidden = !asked;
  clear(box);
  if (!asked) return;
  box.appendChild(el("span", { class: "small", "data-testid": "sc-dice-say" }, asked[0]));
  asked[1].forEach((b) => box.appendChild(b));
}
