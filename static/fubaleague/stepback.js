/* Stepping back through a live match's feed (issue 33, item 7), like lichess: the spectator
   steps turn by turn through what has been played (the pitch shows the end of that turn) while
   the match goes on; new entries meanwhile are counted ("3 new — back to live") and the view
   does not jump; one tap goes back to live. Pure: the live panel (live.js) draws it, and
   tests/js/stepback.test.js checks it. */

/** @typedef {{turn: number, minute: number, first: number, text: string, key?: boolean}} FeedLine */
/** A spectator's place: ``at`` a feed line (0 = the first turn) or null for live; ``seq`` the
    live document's seq when they stepped back (to count what came since).
    @typedef {{at: number|null, seq: number}} Cursor */

/** @type {Cursor} */
export const LIVE = { at: null, seq: 0 };

/**
 * One turn back: from live, the turn before the current one (the live pitch already shows the
 * current turn's end); never before the first turn.
 * @param {Cursor} cursor @param {number} lines  feed lines @param {number} seq  the live seq now
 * @returns {Cursor}
 */
export function stepBack(cursor, lines, seq) {
  if (lines < 1) return cursor;
  if (cursor.at === null) return { at: Math.max(0, lines - 2), seq };
  return { at: Math.max(0, cursor.at - 1), seq: cursor.seq };
}

/**
 * One turn forward; past the last line of the feed the spectator is live again.
 * @param {Cursor} cursor @param {number} lines
 * @returns {Cursor}
 */
export function stepForward(cursor, lines) {
  if (cursor.at === null) return cursor;
  return cursor.at + 1 >= lines ? LIVE : { at: cursor.at + 1, seq: cursor.seq };
}

/**
 * The frame that shows the end of feed line ``at``: the frame before the next line's first,
 * or the last frame for the last line.
 * @param {FeedLine[]} feed @param {number} at @param {number} frames  how many frames there are
 * @returns {number}
 */
export function frameOfLine(feed, at, frames) {
  const next = feed[at + 1];
  const end = next ? next.first - 1 : frames - 1;
  return Math.max(0, Math.min(end, frames - 1));
}

/** Entries recorded since the spectator stepped back. @param {Cursor} cursor @param {number} seq */
export function newSince(cursor, seq) {
  return cursor.at === null ? 0 : Math.max(0, seq - cursor.seq);
}

/** The button that returns to live. @param {number} count */
export function backLabel(count) {
  return count > 0 ? count + " new — back to live" : "Back to live";
}
