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
