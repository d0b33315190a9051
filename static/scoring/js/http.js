/* The scorer's one JSON POST: the queue, the server-driven transport and the way out of a refused
   tap all post the same way, and read a body that is not JSON (a proxy's error page) as null. */

/**
 * @param {string} url
 * @param {string} csrf
 * @param {unknown} body
 * @param {AbortSignal} [signal] a deadline, for a post that must not hold the queue for ever
 * @returns {Promise<{ok: boolean, status: number, body: any}>}
 */
export function postJSON(url, csrf, body, signal) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
    body: JSON.stringify(body),
    signal,
  }).then((r) => r.json().then((j) => ({ ok: r.ok, status: r.status, body: j }),
    () => ({ ok: r.ok, status: r.status, body: null })));
}
