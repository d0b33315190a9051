/* A small stand-in for the browser's document, enough for the modules' drawing code to run in
   Node's test runner: elements with attributes, children, text, classes and listeners, and
   querySelector(All) for the selectors the modules use ("[attr]", "[attr=\"value\"]", "tag",
   "tag[attr=\"value\"]"). Install it with installDocument() before calling drawing code. */

class FakeClassList {
  /** @param {FakeElement} el */
  constructor(el) { this.el = el; }
  get names() { return (this.el.getAttribute("class") || "").split(/\s+/).filter(Boolean); }
  /** @param {string[]} names */
  set names(names) { this.el.setAttribute("class", names.join(" ")); }
  contains(/** @type {string} */ name) { return this.names.includes(name); }
  add(/** @type {string[]} */ ...names) { this.names = [...new Set([...this.names, ...names])]; }
  remove(/** @type {string[]} */ ...names) { this.names = this.names.filter((n) => !names.includes(n)); }
  toggle(/** @type {string} */ name, /** @type {boolean} */ on) {
    if (on === undefined) on = !this.contains(name);
    if (on) this.add(name); else this.remove(name);
    return on;
  }
}

export class FakeElement {
  /** @param {string} tag @param {string|null} ns */
  constructor(tag, ns = null) {
    this.tagName = ns ? tag : tag.toUpperCase();
    this.namespaceURI = ns;
    /** @type {Map<string, string>} */
    this.attributes = new Map();
    /** @type {FakeElement[]} */
    this.children = [];
    /** @type {FakeElement|null} */
    this.parentNode = null;
    this.text = "";
    /** @type {Record<string, Function[]>} */
    this.listeners = {};
    this.classList = new FakeClassList(this);
  }

  setAttribute(/** @type {string} */ name, /** @type {any} */ value) { this.attributes.set(name, String(value)); }
  getAttribute(/** @type {string} */ name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  hasAttribute(/** @type {string} */ name) { return this.attributes.has(name); }
  removeAttribute(/** @type {string} */ name) { this.attributes.delete(name); }
  get id() { return this.getAttribute("id") || ""; }
  get firstChild() { return this.children[0] || null; }
  get textContent() { return this.text + this.children.map((c) => c.textContent).join(""); }
  set textContent(value) { this.children = []; this.text = String(value); }

  /** @param {FakeElement} child */
  appendChild(child) {
    child.parentNode = this;
    this.children.push(child);
    return child;
  }

  /** @param {FakeElement} child @param {FakeElement|null} before */
  insertBefore(child, before) {
    child.parentNode = this;
    const at = before ? this.children.indexOf(before) : -1;
    if (at < 0) this.children.push(child); else this.children.splice(at, 0, child);
    return child;
  }

  /** @param {FakeElement} child */
  removeChild(child) {
    this.children = this.children.filter((c) => c !== child);
    child.parentNode = null;
    return child;
  }

  addEventListener(/** @type {string} */ type, /** @type {Function} */ fn) { (this.listeners[type] ||= []).push(fn); }
  /** Calls the listeners of `type` with a minimal event. */
  dispatch(/** @type {string} */ type, /** @type {object} */ extra = {}) {
    const event = { type, target: this, preventDefault() {}, ...extra };
    (this.listeners[type] || []).forEach((fn) => fn(event));
  }
  click() { this.dispatch("click"); }

  /** @returns {FakeElement[]} every element under this one, depth first */
  descendants() { return this.children.flatMap((c) => [c, ...c.descendants()]); }
  querySelectorAll(/** @type {string} */ selector) { return this.descendants().filter((e) => matches(e, selector)); }
  querySelector(/** @type {string} */ selector) { return this.querySelectorAll(selector)[0] || null; }
  closest(/** @type {string} */ selector) {
    /** @type {FakeElement|null} */
    let e = this;
    while (e && !matches(e, selector)) e = e.parentNode;
    return e;
  }
  contains(/** @type {FakeElement} */ other) { return other === this || this.descendants().includes(other); }
}

const SELECTOR = /^([a-zA-Z]*)(?:\[([\w-]+)(?:="([^"]*)")?\])?$/;

/** @param {FakeElement} el @param {string} selector */
function matches(el, selector) {
  return selector.split(",").some((one) => {
    const m = SELECTOR.exec(one.trim());
    if (!m) throw new Error("fake-dom: selector not supported: " + one);
    const [, tag, attr, value] = m;
    if (tag && el.tagName.toLowerCase() !== tag.toLowerCase()) return false;
    if (attr && !el.hasAttribute(attr)) return false;
    return value === undefined || el.getAttribute(attr) === value;
  });
}

export function installDocument() {
  const doc = {
    createElement: (/** @type {string} */ tag) => new FakeElement(tag),
    createElementNS: (/** @type {string} */ ns, /** @type {string} */ tag) => new FakeElement(tag, ns),
  };
  /** @type {any} */ (globalThis).document = doc;
  return doc;
}

/**
 * An element tree from a compact description: [tag, {attrs}, ...children].
 * @param {[string, Record<string, any>, ...any[]]} spec
 * @param {string|null} [ns]
 * @returns {FakeElement}
 */
export function build([tag, attrs, ...children], ns = null) {
  const el = new FakeElement(tag, ns);
  Object.entries(attrs || {}).forEach(([k, v]) => el.setAttribute(k, v));
  children.forEach((c) => el.appendChild(build(c, ns)));
  return el;
}
