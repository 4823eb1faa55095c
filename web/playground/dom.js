// DOM helpers and number text: $(id) (ids looked up below the playground's root), el(...) to build elements, and numbers shown
// short (6 significant digits) with their exact float32 text in a title.
//
// Text only ever reaches the page through textContent / attribute values, never innerHTML.

import { formatFloat32 } from '../f32format.mjs';

/** Where $() looks: the playground's root element (the page's document by default). One
 * playground is live in a document at a time (mount.js enforces it). */
let root = null;

/** Look ids up below `element` from now on (null: the whole document). */
export function setRoot(element) {
  root = element;
}

/** The element that carries the playground's state classes and attributes (data-view, stress,
 * dropping) and its styles: the page's body, or a mounted playground's root element. Never the
 * host page's body when mounted. */
export const host = () => root ?? document.body;

/** The element with this id in the playground. */
export const $ = (id) => (root === null ? document.getElementById(id) : root.querySelector(`#${CSS.escape(id)}`));

/** Up to 6 significant digits; -0 shows as 0; infinities as ∞. */
export function fmt(x) {
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (Number.isNaN(x)) return 'NaN';
  if (x === 0) return '0';
  return String(Number(x.toPrecision(6)));
}

/** The exact float32 text (the case runners' shortest round-trip form). */
export function exact(x) {
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (Object.is(x, -0)) return '-0';
  return formatFloat32(Math.fround(x)).replace(/"/g, '');
}

export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k === 'style') e.setAttribute('style', v);
    else if (k.startsWith('data-') || k === 'title' || k === 'role' || k === 'aria-label') e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/** A number as a span: short text, exact float32 in its title. */
export const num = (x) => el('span', { class: 'num', text: fmt(x), title: exact(x) });

/** A vector as [a, b, c] of number spans; the whole exact text in the title. */
export function vecEl(v) {
  const span = el('span', { class: 'vec', title: `[${Array.from(v, exact).join(', ')}]` });
  span.append('[');
  v.forEach((x, i) => {
    if (i) span.append(', ');
    span.append(num(x));
  });
  span.append(']');
  return span;
}

export const vecText = (v) => `[${Array.from(v, fmt).join(', ')}]`;
