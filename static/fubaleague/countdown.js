/* A venue round's countdown (issue 33, item 6; docs/venue.md), on the big screen, the scorer
   and the fixture page. The server's clock document (/c/<slug>/clock.json) gives each round's
   start and end as absolute times and the server's own "now"; the time shown is the server's
   now plus the time elapsed on this device's monotonic clock since the document arrived, so a
   phone or TV whose clock is wrong still counts down to the right second, and a reload simply
   reads the document again. If the network drops, the count goes on from the last document.
   The pure part is exported and unit-tested in Node (tests/js/countdown.test.js). */

export const REFRESH_MS = 30000;
// A round that ended shows "time is up" this long, then the screen stops showing it.
export const OVER_SHOWN_MS = 15 * 60 * 1000;
// The next round is shown counting down when it starts within this time.
export const NEXT_SHOWN_MS = 12 * 60 * 60 * 1000;

/** @typedef {{stage: number, round: number, title: string, starts_at: string, ends_at: string}} RoundClock */
/** @typedef {{now: string, rounds: RoundClock[]}} ClockDoc */
/** @typedef {{phase: "before"|"running"|"over", seconds: number}} ClockState */

/** The server's time, carried forward by the device's monotonic clock (never its wall clock). */
export class ServerTime {
  /** @param {string} serverNow  ISO time the server sent @param {number} receivedAt  performance.now() then */
  constructor(serverNow, receivedAt) {
    this.base = Date.parse(serverNow);
    this.receivedAt = receivedAt;
  }

  /** @param {number} monotonicNow  performance.now() @returns {number} ms since the epoch */
  at(monotonicNow) {
    return this.base + Math.max(0, monotonicNow - this.receivedAt);
  }
}

/**
 * Where a round's clock stands at the server time ``nowMs``: before its start (seconds to the
 * start), running (seconds left), or over. Whole seconds, rounded up, so "0:00" shows only when
 * the time is really up.
 * @param {RoundClock} clock @param {number} nowMs
 * @returns {ClockState}
 */
export function clockState(clock, nowMs) {
  const start = Date.parse(clock.starts_at), end = Date.parse(clock.ends_at);
  if (nowMs < start) return { phase: "before", seconds: Math.ceil((start - nowMs) / 1000) };
  if (nowMs < end) return { phase: "running", seconds: Math.ceil((end - nowMs) / 1000) };
  return { phase: "over", seconds: 0 };
}

/** "4:05", "12:00", "1:02:03". @param {number} seconds @returns {string} */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const two = (/** @type {number} */ n) => (n < 10 ? "0" : "") + n;
  return h ? h + ":" + two(m) + ":" + two(sec) : m + ":" + two(sec);
}

/**
 * The round to show. With ``want`` (a fixture's stage and round): that round's clock, if it has
 * one. Otherwise the running round (the one ending first), else the next to start within
 * NEXT_SHOWN_MS, else one that ended less than OVER_SHOWN_MS ago; null when none.
 * @param {RoundClock[]} rounds @param {number} nowMs
 * @param {{stage: number, round: number}|null} [want]
 * @returns {RoundClock|null}
 */
export function pickClock(rounds, nowMs, want) {
  if (want) return rounds.find((r) => r.stage === want.stage && r.round === want.round) || null;
  const by = (/** @type {(r: RoundClock) => number} */ key) => (/** @type {RoundClock} */ a, /** @type {RoundClock} */ b) => key(a) - key(b);
  const start = (/** @type {RoundClock} */ r) => Date.parse(r.starts_at);
  const end = (/** @type {RoundClock} */ r) => Date.parse(r.ends_at);
  const running = rounds.filter((r) => start(r) <= nowMs && nowMs < end(r)).sort(by(end));
  if (running.length) return running[0];
  const next = rounds.filter((r) => nowMs < start(r) && start(r) - nowMs <= NEXT_SHOWN_MS).sort(by(start));
  if (next.length) return next[0];
  const over = rounds.filter((r) => end(r) <= nowMs && nowMs - end(r) < OVER_SHOWN_MS).sort(by((r) => -end(r)));
  return over.length ? over[0] : null;
}

/** The line on screen. @param {RoundClock} clock @param {ClockState} state @returns {string} */
export function clockWords(clock, state) {
  if (state.phase === "before") return clock.title + " starts in " + clockText(state.seconds);
  if (state.phase === "running") return clock.title + ": " + clockText(state.seconds) + " left";
  return clock.title + ": time is up";
}

/* ---- the page (browser only) ---- */

/**
 * Drive one countdown element: [data-round-clock] with data-clock-url, and for a fixture's own
 * round data-stage and data-round. It shows nothing (hidden) while there is no clock to show.
 * @param {HTMLElement} el
 */
export function startCountdown(el) {
  const url = el.getAttribute("data-clock-url") || "";
  const stage = Number(el.getAttribute("data-stage")), round = Number(el.getAttribute("data-round"));
  const want = stage && round ? { stage, round } : null;
  /** @type {ClockDoc|null} */
  let doc = null;
  /** @type {ServerTime|null} */
  let time = null;
  const tick = () => {
    if (!doc || !time) return;
    const now = time.at(performance.now());
    const clock = pickClock(doc.rounds, now, want);
    el.hidden = !clock;
    if (!clock) return;
    const state = clockState(clock, now);
    el.textContent = clockWords(clock, state);
    el.setAttribute("data-phase", state.phase);
    el.setAttribute("data-seconds", String(state.seconds));
  };
  const load = () => {
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then((r) => { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
      .then((d) => { doc = d; time = new ServerTime(d.now, performance.now()); tick(); })
      // Keep counting from the last document; the next refresh tries again.
      .catch(() => undefined)
      .then(() => { window.setTimeout(load, REFRESH_MS); });
  };
  load();
  window.setInterval(tick, 250);
}

if (typeof document !== "undefined") {
  document.querySelectorAll("[data-round-clock]").forEach((el) => startCountdown(/** @type {HTMLElement} */ (el)));
}
