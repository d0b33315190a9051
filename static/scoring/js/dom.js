/* Small DOM helpers shared by the scorer's modules. */
const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An HTML element with these attributes and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>|null} [attrs]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs, text) {
  const n = document.createElement(tag);
  for (const k in attrs || {}) n.setAttribute(k, String(/** @type {Record<string, any>} */ (attrs)[k]));
  if (text !== undefined) n.textContent = text;
  return n;
}

/**
 * An SVG element with these attributes and text.
 * @param {string} tag
 * @param {Record<string, any>|null} [attrs]
 * @param {string} [text]
 * @returns {SVGElement}
 */
export function svg(tag, attrs, text) {
  const n = document.createElementNS(SVG_NS, tag);
  for (const k in attrs || {}) n.setAttribute(k, String(/** @type {Record<string, any>} */ (attrs)[k]));
  if (text !== undefined) n.textContent = text;
  return n;
}

/** @param {Node|null|undefined} node */
export function clear(node) {
  while (node && node.firstChild) node.removeChild(node.firstChild);
}

/**
 * The element with this data-testid inside root (the page's elements are named by test ids).
 * @param {ParentNode} root
 * @param {string} id
 * @returns {HTMLElement|null}
 */
export function byId(root, id) {
  return root.querySelector('[data-testid="' + id + '"]');
}

/** @param {ParentNode} root @param {string} id @param {string} text */
export function setText(root, id, text) {
  const n = byId(root, id);
  if (n) n.textContent = text;
}
