/* Small DOM helpers shared by the scorer's modules. */
const SVG_NS = "http://www.w3.org/2000/svg";

export function el(tag, attrs, text) {
  const n = document.createElement(tag);
  for (const k in attrs || {}) n.setAttribute(k, attrs[k]);
  if (text !== undefined) n.textContent = text;
  return n;
}

export function svg(tag, attrs, text) {
  const n = document.createElementNS(SVG_NS, tag);
  for (const k in attrs || {}) n.setAttribute(k, attrs[k]);
  if (text !== undefined) n.textContent = text;
  return n;
}

export function clear(node) {
  while (node && node.firstChild) node.removeChild(node.firstChild);
}

/* The element with this data-testid inside root (the page's elements are named by test ids). */
export function byId(root, id) {
  return root.querySelector('[data-testid="' + id + '"]');
}

export function setText(root, id, text) {
  const n = byId(root, id);
  if (n) n.textContent = text;
}
