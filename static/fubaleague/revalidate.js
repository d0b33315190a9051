/* A GET of a live document that revalidates with its last ETag: every reader of the live panel,
   the live centre and the big screen polls every second or two, and a 304 costs the server one
   query (and nothing at nginx's micro-cache). */

/**
 * @param {string} url
 * @param {string|null} etag the ETag of the copy the page holds, if any
 * @returns {Promise<Response>}
 */
export function revalidate(url, etag) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (etag) headers["If-None-Match"] = etag;
  return fetch(url, { headers, cache: "no-cache" });
}
