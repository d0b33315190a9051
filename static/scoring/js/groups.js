/* The chips of a question in at most 8: when the server grouped its options by kind (option.group,
   option.short: matchplay.scorer_view, e.g. the A3 substitution's "fresh player", "formation"),
   one chip a kind first; a tap on a kind shows that kind's options (their short labels) after it,
   pressed, and a tap on it again goes back. The page only follows the server's grouping: the
   values sent are the options' own. */
import { el } from "./dom.js";

/** @typedef {{value: any, label: string, short?: string, group?: string}} Option  a question's option */

/**
 * The chip row for `chips` with the kind `open` shown (null: the kinds). chip(option, attrs)
 * makes an option's button, toggle(kind) opens or closes a kind.
 * @param {Option[]} chips
 * @param {string|null} open
 * @param {{chip: (o: Option, attrs?: Record<string, string>) => HTMLElement, toggle: (kind: string|null) => void}} make
 */
export function chipRow(chips, open, { chip, toggle }) {
  const wrap = el("div", { "class": "chips" });
  const shown = open !== null && chips.some((o) => o.group === open) ? open : null;
  if (shown !== null) {
    wrap.appendChild(kindChip(chips, shown, true, toggle));
    chips.filter((o) => o.group === shown).forEach((o) => {
      wrap.appendChild(chip(Object.assign({}, o, { label: o.short || o.label }), { "aria-label": o.label }));
    });
    return wrap;
  }
  const done = new Set();
  chips.forEach((o) => {
    if (!o.group) { wrap.appendChild(chip(o)); return; }
    if (done.has(o.group)) return;
    done.add(o.group);
    wrap.appendChild(kindChip(chips, o.group, false, toggle));
  });
  return wrap;
}

/**
 * How many chips the row shows (for the page's layout).
 * @param {Option[]} chips
 * @param {string|null} open
 */
export function chipCount(chips, open) {
  const kinds = new Set(chips.filter((o) => o.group).map((o) => o.group));
  if (open !== null && kinds.has(open)) return 1 + chips.filter((o) => o.group === open).length;
  return chips.filter((o) => !o.group).length + kinds.size;
}

/**
 * @param {Option[]} chips
 * @param {string} kind
 * @param {boolean} pressed
 * @param {(kind: string|null) => void} toggle
 */
function kindChip(chips, kind, pressed, toggle) {
  const values = chips.filter((o) => o.group === kind).map((o) => o.value);
  const b = el("button", {
    type: "button", "class": "chip chip--kind", "data-testid": "sc-option", "data-group": kind,
    "data-choices": JSON.stringify(values), "aria-expanded": String(pressed), "aria-pressed": String(pressed),
  }, kind);
  b.addEventListener("click", () => toggle(pressed ? null : kind));
  return b;
}
