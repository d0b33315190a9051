// The drawn teams appear one by one, as at a draw ceremony; "Show all" skips ahead.
const items = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-step]"))]
  .sort((a, b) => Number(a.dataset.step) - Number(b.dataset.step));
const skip = document.querySelector("[data-reveal-all]");
if (items.length && document.querySelector("[data-reveal-fresh]")) {
  items.forEach((el) => el.classList.add("is-hidden"));
  let next = 0;
  const timer = setInterval(() => {
    if (next >= items.length) return clearInterval(timer);
    items[next++].classList.remove("is-hidden");
  }, 350);
  skip?.addEventListener("click", () => {
    clearInterval(timer);
    items.forEach((el) => el.classList.remove("is-hidden"));
  });
}
