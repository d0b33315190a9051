// New competition: only the advanced rules of the game system chosen are shown (the server
// renders the same choice; this follows a change of the select without a round trip).
const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("id_game_system"));
const lists = /** @type {NodeListOf<HTMLFieldSetElement>} */ (document.querySelectorAll("[data-rules-of]"));

function show() {
  if (!select) return;
  lists.forEach((list) => {
    list.hidden = list.dataset.rulesOf !== select.value;
  });
}

select?.addEventListener("change", show);
show();

// The places after a table apply to a league, Swiss rounds or a league phase only: shown (and
// sent) for those structures. A disabled fieldset's inputs are not posted, so a value typed for
// one structure is not refused when another is chosen; the server refuses places where they do
// not apply (tournaments.shapes) and renders the same choice without this script.
const structures = /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("input[name=structure]"));
const applies = /** @type {NodeListOf<HTMLFieldSetElement>} */ (document.querySelectorAll("[data-structures]"));

function showPlaces() {
  const chosen = [...structures].find((input) => input.checked)?.value ?? "";
  applies.forEach((set) => {
    const on = (set.dataset.structures ?? "").split(" ").includes(chosen);
    set.hidden = !on;
    set.disabled = !on;
  });
}

// Not run on load: the server rendered the choice, and keeps places it refused in view.
structures.forEach((input) => input.addEventListener("change", showPlaces));
