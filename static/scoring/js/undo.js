/* Undo at the table. A tap on Undo asks why beside the button (the reason is optional and said on
   both phones); a second tap on the same button, now "Take back", takes the last event back, so a
   table that gives no reason taps twice in one place. The ask closes by itself when the match moves
   on (another phone's event): the event it would take back is no longer the one shown.

   The phone that took an event back says so too ("Taken back: …"): the server's state carries the
   last undo (`last_undo`), the phone's own engine does not, so the page keeps its own until the
   next event. */
import { byId } from "./dom.js";

/** @typedef {{seq: number, text: string, reason: string}} Undone  as the state's last_undo */

/**
 * What an undo takes back now: the last event of the state shown (its line), with the reason.
 * @param {any} d  the session state shown
 * @param {string} reason
 * @returns {Undone|null}
 */
export function undoneNow(d, reason) {
  if (!d || !d.seq) return null;
  const last = d.events && d.events[0];
  return { seq: d.seq, text: last && last.seq === d.seq ? last.text : "the last event", reason: reason || "" };
}

/**
 * The state with this phone's own undo as its last undo, while that undo is the freshest thing
 * (the state's seq is the one before the event taken back) and the state says nothing fresher.
 * @param {any} d
 * @param {Undone|null} own
 */
export function withOwnUndo(d, own) {
  const fresh = (/** @type {Undone|null} */ u) => !!u && u.seq === d.seq + 1;
  if (fresh(d.last_undo) || !fresh(own)) return d;
  return { ...d, last_undo: own };
}

/**
 * @param {HTMLElement} root  the scorer
 * @param {{undo: (reason: string) => void}} deps  sends the undo (the transport)
 */
export function createUndoAsk(root, { undo }) {
  const button = /** @type {HTMLButtonElement|null} */ (root.querySelector('[data-action="undo"]'));
  const box = byId(root, "sc-undo-ask");
  const reason = /** @type {HTMLInputElement|null} */ (root.querySelector("[data-undo-reason]"));
  const dock = byId(root, "sc-dock");
  const label = button ? button.textContent : "";
  /** @type {number|null} the seq shown when the ask opened */
  let asking = null;

  function close() {
    asking = null;
    if (box) box.hidden = true;
    if (dock) dock.classList.remove("is-undoing");
    if (button) {
      button.textContent = label;
      button.setAttribute("aria-label", "Undo the last event");
      button.removeAttribute("aria-expanded");
    }
    if (reason) reason.value = "";
  }

  return {
    /** The Undo button was tapped: ask why, or take back when asked already. @param {number} seq */
    tap(seq) {
      if (asking === null && box && button) {
        asking = seq;
        box.hidden = false;
        if (dock) dock.classList.add("is-undoing");
        button.textContent = "↶ Take back";
        button.setAttribute("aria-label", "Take back the last event");
        button.setAttribute("aria-expanded", "true");
        return;
      }
      const why = reason ? reason.value.trim() : "";
      close();
      undo(why);
    },
    close,
    /** The state shown changed: an ask about another event closes. @param {number} seq */
    shown(seq) {
      if (asking !== null && asking !== seq) close();
    },
    isAsking: () => asking !== null,
  };
}
