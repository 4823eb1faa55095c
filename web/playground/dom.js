// DOM helpers and number text: makeDom(root) (ids looked up below one playground's root), el(...) to build elements, and numbers shown
// short (6 significant digits) with their exact float32 text in a title.
//
// Text only ever reaches the page through textContent / attribute values, never innerHTML.

import { formatFloat32 } from '../f32format.mjs';

/** The DOM of one playground: `$(id)` looks ids up below `root` (null: the page's whole
 * document), `host()` is the element that carries the playground's state classes and
 * attributes (data-view, stress, dropping) and its styles: the page's body, or a mounted
 * playground's root element, never the host page's body. Every playground on a page has its
 * own (createPage puts it on store.dom), so any number can live in one document. */
/** How many mounted playgrounds this page has made (their generated ids differ). */
let mounts = 0;

export function makeDom(root) {
  const prefix = root === null ? '' : `pg${++mounts}-`;
  return {
    root,
    /** An id for an element the code makes (a label's for, aria-describedby): unique on the
     * page, since several mounted playgrounds share one document. */
    uid: (id) => `${prefix}${id}`,
    $: (id) => (root === null ? document.getElementById(id) : root.querySelector(`#${CSS.escape(id)}`)),
    host: () => root ?? document.body,
    /** Whether event e happened in this playground (a mounted one: only below its root, so
     * keys and dropped files reach only the playground the reader is in). */
    owns: (e) => root === null || (e.target instanceof Node && root.contains(e.target)),
    /** The last list of refused pairs shown (notices.js). */
    reported: '',
  };
}

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
