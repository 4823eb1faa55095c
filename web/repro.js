// slabcast/repro: turn a query that went wrong into something another person can open.
//
//   import { reproLink } from 'slabcast/repro';
//   const url = reproLink('https://slabcast.github.io/slabcast/', { shapes: [box], rays: [ray] });
//
// The pure codec of the playground (web/playground/state.mjs): links (encode / decode),
// case files (toCaseFile / fromCaseFile), and reproLink(base, scene) that puts a scene in
// a link to a playground page. No three.js, no DOM, no wasm: it runs in Node, in a game's
// worker, anywhere. docs/playground.md ("Reporting a bug") shows the whole flow.

import { decode, encode, fromCaseFile, toCaseFile, validateState } from './playground/state.mjs';
import { defaultUi, validateUi } from './playground/ui-state.mjs';

export { decode, encode, fromCaseFile, toCaseFile, validateState };
export { LINK_VERSION, MAX_RAYS, MAX_SHAPES } from './playground/state.mjs';
export { VERSION } from './version.mjs';

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JS value for an error message. */
function kindOf(v) {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** A copy of value with every number rounded to float32 (as slabcast rounds its inputs) and
 * array-likes (Float32Array, three.js-free tuples) turned into plain arrays. Objects are
 * copied key by key; anything else is kept for validateState to judge. */
function roundCopy(v, depth = 0) {
  if (depth > 8) return v;
  if (typeof v === 'number') return Math.fround(v);
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v, Math.fround);
  if (Array.isArray(v)) return v.map((x) => roundCopy(x, depth + 1));
  if (isObject(v)) {
    const o = {};
    for (const k of Object.keys(v)) o[k] = roundCopy(v[k], depth + 1);
    return o;
  }
  return v;
}

/**
 * A playground scene from what a game has: {shapes, rays, selected?} in the shapes and rays
 * of slabcast's JS API. Numbers are rounded to float32 (what slabcast computes with), a ray
 * without tmax gets Infinity, and a missing `selected` picks the first ray and shape.
 * Throws TypeError naming what is wrong.
 * @returns {object} a scene that validateState() accepts
 */
export function toScene(scene) {
  if (!isObject(scene)) throw new TypeError(`the scene must be an object {shapes, rays}, got ${kindOf(scene)}`);
  if (!Array.isArray(scene.shapes)) throw new TypeError('the scene must have a "shapes" array');
  if (!Array.isArray(scene.rays)) throw new TypeError('the scene must have a "rays" array');
  const copy = roundCopy({ shapes: scene.shapes, rays: scene.rays });
  copy.rays = copy.rays.map((r) => (isObject(r) && r.tmax === undefined ? { ...r, tmax: Infinity } : r));
  copy.selected = scene.selected === undefined
    ? { ray: copy.rays.length ? 0 : -1, shape: copy.shapes.length ? 0 : -1 }
    : roundCopy(scene.selected);
  const err = validateState(copy);
  if (err !== null) throw new TypeError(`the scene is not valid: ${err}`);
  return copy;
}

/**
 * The link that opens `scene` in the playground at `base`: base (an http or https URL,
 * without a fragment) followed by '#v2.…'. `scene` is {shapes, rays, selected?} (see
 * toScene); `ui` (optional) the view settings of web/playground/ui-state.mjs, e.g.
 * {view: 'top', step: 2, ...}, merged over the defaults. Throws TypeError naming the
 * argument that is wrong.
 * @param {string} base
 * @param {object} scene
 * @param {object} [ui]
 * @returns {string}
 */
export function reproLink(base, scene, ui = undefined) {
  if (typeof base !== 'string') throw new TypeError(`reproLink: base must be a URL string, got ${kindOf(base)}`);
  let url;
  try {
    url = new URL(base);
  } catch {
    throw new TypeError(`reproLink: base is not a URL: ${JSON.stringify(base.slice(0, 100))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`reproLink: base must be an http or https URL, got ${JSON.stringify(url.protocol)}`);
  }
  if (base.includes('#')) throw new TypeError('reproLink: base must not have a fragment (#...): the link puts the scene there');
  let state;
  try {
    state = toScene(scene);
  } catch (e) {
    throw new TypeError(`reproLink: ${e.message}`);
  }
  let settings = defaultUi();
  if (ui !== undefined) {
    if (!isObject(ui)) throw new TypeError(`reproLink: ui must be an object, got ${kindOf(ui)}`);
    settings = { ...settings, ...ui, panels: { ...settings.panels, ...(isObject(ui.panels) ? ui.panels : {}) } };
    if (ui.panels !== undefined && !isObject(ui.panels)) throw new TypeError('reproLink: ui.panels must be an object');
    try {
      validateUi(settings);
    } catch (e) {
      throw new TypeError(`reproLink: ui: ${e.message}`);
    }
  }
  return `${base}${encode(state, settings)}`;
}
