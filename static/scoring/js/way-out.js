/* The way out of a refused tap (issue 31): when the server refused what this phone's engine
   accepted, the live record stops where the server stopped, but the match was played on. The
   club sends the whole match as the phone holds it, as a turn log with its result, through the
   ordinary result submission (POST /api/v1/fixtures/{id}/submit-result, docs/turn-log-format.md):
   the server's validation replays it and its report says where the engines differ (turn, stage,
   rule). A live session holds its fixture's result, so the session is abandoned first, with the
   refusal as its reason (both clubs read it on the match page). */
import { postJSON } from "./http.js";


// /api/v1/scoring-sessions/12 -> /api/v1/fixtures/34/submit-result
export function submitUrl(apiUrl, fixture) {
  return apiUrl.replace(/scoring-sessions\/[^/]+\/?$/, "fixtures/" + fixture + "/submit-result");
}

// body: { home_penalties, away_penalties } when the tie went to a shoot-out.
export function wholeMatchReport(ctx, body) {
  const q = ctx.queue.q;
  const server = q.record.server || {};
  const result = q.view && q.view.view.result;
  if (!result) return Promise.resolve({ ok: false, status: 409, body: { error: { message: "The match is not over on this phone yet: play it to full time first." } } });
  const reason = "The server refused a tap this phone accepted (" + (q.blocked ? q.blocked.message : "") +
    "); the whole match is sent as a turn log for validation.";
  return ctx.engine.log().then((log) => postJSON(ctx.options.apiUrl + "/abandon", ctx.options.csrf, { reason: reason.slice(0, 500) })
    .then((res) => {
      if (!res.ok && res.status !== 409) return res;
      const report = Object.assign({
        home_goals: result.score.home, away_goals: result.score.away, extra_time: !!result.extra_time,
        turn_log: log,
      }, body || {});
      return postJSON(submitUrl(ctx.options.apiUrl, server.fixture), ctx.options.csrf, report);
    }));
}
