/* The pitch takes what a phone's screen has left (issue 35): the question, its hint and the
   answers keep their whole text and the pitch is drawn in the height that remains above the dock,
   so the player never scrolls the pitch away to reach an answer. The stylesheet's heights by kind
   of question (is-rolling, has-many, has-rows) are the first paint's guess; this measures the page
   as it is laid out: a long question on two lines, a hint, a line of errors, the next decision's
   chips. At desktop size the pitch stands beside the question and the stylesheet sizes it. */

// the stylesheet's side-by-side layout (scorer.css, @media (min-width: 56rem))
const WIDE = "(min-width: 56rem)";
// room left between the last answer and the dock, in px
const MARGIN = 6;

/**
 * The pitch's height for the room a phone's screen leaves, in px (the stylesheet's min-height
 * and max-height bound it).
 * @param {{viewport: number, dock: number, pitchTop: number, pitchHeight: number, answersBottom: number}} m
 *   the viewport's height, the fixed dock's, the pitch's top and height and the answers' bottom,
 *   the last two in page coordinates
 * @returns {number}
 */
export function pitchHeight(m) {
  const others = m.answersBottom - m.pitchTop - m.pitchHeight; // what sits between the pitch and the dock
  return Math.floor(m.viewport - m.dock - MARGIN - m.pitchTop - others);
}

/**
 * Keeps the scorer page's pitch in the room left on a phone: now, whenever the question, its
 * answers, the score bar or the dock change size, and when the screen turns. Returns fit(), to be
 * called after each render (so what is read right after a render is laid out already).
 * @param {HTMLElement} root  the scorer
 * @returns {() => void}
 */
export function fitPitch(root) {
  const pitch = /** @type {SVGSVGElement|null} */ (root.querySelector("svg[data-pitch]"));
  const answers = root.querySelector(".sc-answers");
  if (!pitch || !answers || !root.classList.contains("scorer--page")) return () => {};
  const dock = root.querySelector(".sc-dock");
  const wide = window.matchMedia(WIDE);
  let last = "";
  const fit = () => {
    let height = "";
    if (!wide.matches) {
      const p = pitch.getBoundingClientRect();
      const fixed = dock && getComputedStyle(dock).position === "fixed";
      height = pitchHeight({
        // the initial containing block: on a phone the screen with the browser's bars shown (as
        // 100svh), so the pitch does not jump when they hide on a scroll or a keyboard opens
        viewport: document.documentElement.clientHeight,
        dock: fixed ? dock.getBoundingClientRect().height : 0,
        pitchTop: p.top + window.scrollY,
        pitchHeight: p.height,
        answersBottom: answers.getBoundingClientRect().bottom + window.scrollY,
      }) + "px";
    }
    if (height === last) return;
    last = height;
    if (height) pitch.style.height = height;
    else pitch.style.removeProperty("height");
  };
  const watched = [".sc-bar", ".venue-line", ".sc-ask", ".sc-answers", ".sc-dock", ".sc-final"]
    .map((s) => root.querySelector(s)).filter((e) => e !== null);
  if (typeof ResizeObserver !== "undefined") {
    const observer = new ResizeObserver(fit);
    watched.forEach((e) => observer.observe(/** @type {Element} */ (e)));
  }
  window.addEventListener("resize", fit);
  wide.addEventListener("change", fit);
  fit();
  return fit;
}
