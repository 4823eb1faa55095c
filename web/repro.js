// slabcast/repro: turn a query that went wrong into something another person can open.
//
//   import { reproLink } from 'slabcast/repro';
//   const url = reproLink('https://slabcast.github.io/slabcast/', { shapes: [box], rays: [ray] });
//
// The pure codec of the playground (web/playground/state.mjs): links (encode / decode),
// case files (toCaseFile / fromCaseFile), and reproLink(base, scene) that puts a scene in
// a link to a playground page. No three.js, no DOM, no wasm: it runs in Node, in a game's
// worker, anywhere. docs/playground.md ("Reporting a bug") shows the whole flow.

import { MAX_RAYS, MAX_SHAPES, decode, encode, fromCaseFile, toCaseFile, validateState } from './playground/state.mjs';
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

/** The longest array, and the most keys of an object, that roundCopy copies: no part of a valid
 * scene is longer (MAX_SHAPES shapes, MAX_RAYS rays, vectors of 3). */
const MAX_COPY = Math.max(MAX_SHAPES, MAX_RAYS);

/** A copy of value with every number rounded to float32 (as slabcast rounds its inputs) and
 * array-likes (Float32Array, three.js-free tuples) turned into plain arrays. Objects are
 * copied key by key; anything else, and anything longer than MAX_COPY (never a valid part of
 * a scene: it is not copied, so a huge one costs nothing), is kept for validateState to judge. */
function roundCopy(v, depth = 0) {
  if (depth > 8) return v;
  if (typeof v === 'number') return Math.fround(v);
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return v.length > MAX_COPY ? v : Array.from(v, Math.fround);
  if (Array.isArray(v)) return v.length > MAX_COPY ? v : v.map((x) => roundCopy(x, depth + 1));
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length > MAX_COPY) return v;
    const o = {};
    for (const k of keys) o[k] = roundCopy(v[k], depth + 1);
    return o;
  }
  return v;
}

/** The errors toScene and reproLink make themselves (any other one came from the caller's code). */
const ours = new WeakSet();
function bad(message, cause) {
  const e = new TypeError(message, cause === undefined ? undefined : { cause });
  ours.add(e);
  return e;
}

/**
 * f(), with an exception from the caller's own code (a getter or Proxy of the scene that threw)
 * turned into a TypeError of this module that names `what` and keeps it as its cause.
 */
function guarded(f, what) {
  try {
    return f();
  } catch (e) {
    if (ours.has(e)) throw e;
    const message = e !== null && typeof e === 'object' && typeof e.message === 'string' ? e.message : String(e);
    throw bad(`${what} could not be read: its own code threw: ${message}`, e);
  }
}

/**
 * A playground scene from what a game has: {shapes, rays, selected?} in the shapes and rays
 * of slabcast's JS API. Numbers are rounded to float32 (what slabcast computes with), a ray
 * without tmax gets Infinity, and a missing `selected` picks the first ray and shape.
 * Throws TypeError naming what is wrong.
 * @returns {object} a scene that validateState() accepts
 */
export function toScene(scene) {
  return guarded(() => sceneOf(scene), 'the scene');
}

function sceneOf(scene) {
  if (!isObject(scene)) throw bad(`the scene must be an object {shapes, rays}, got ${kindOf(scene)}`);
  // each read once (a getter could answer differently twice), the counts checked before any copy
  const { shapes, rays, selected } = scene;
  if (!Array.isArray(shapes)) throw bad('the scene must have a "shapes" array');
  if (!Array.isArray(rays)) throw bad('the scene must have a "rays" array');
  const ns = shapes.length;
  const nr = rays.length;
  if (ns > MAX_SHAPES) throw bad(`the scene is not valid: too many shapes (${ns}; the limit is ${MAX_SHAPES})`);
  if (nr > MAX_RAYS) throw bad(`the scene is not valid: too many rays (${nr}; the limit is ${MAX_RAYS})`);
  const copy = {
    shapes: Array.from({ length: ns }, (_, i) => roundCopy(shapes[i], 2)),
    rays: Array.from({ length: nr }, (_, i) => roundCopy(rays[i], 2)),
  };
  copy.rays = copy.rays.map((r) => (isObject(r) && r.tmax === undefined ? { ...r, tmax: Infinity } : r));
  copy.selected = selected === undefined
    ? { ray: copy.rays.length ? 0 : -1, shape: copy.shapes.length ? 0 : -1 }
    : roundCopy(selected);
  const err = validateState(copy);
  if (err !== null) throw bad(`the scene is not valid: ${err}`);
  return copy;
}

/**
 * The link that opens `scene` in the playground at `base`: base (an http or https URL,
 * without a fragment) followed by '#v2.…' ('#v3.…' when it holds a capsule). `scene` is {shapes, rays, selected?} (see
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
    throw new TypeError(`reproLink: ${e.message}`, { cause: e.cause ?? e });
  }
  let settings = defaultUi();
  if (ui !== undefined) {
    if (!isObject(ui)) throw new TypeError(`reproLink: ui must be an object, got ${kindOf(ui)}`);
    const merged = guarded(() => {
      const panels = ui.panels;
      if (panels !== undefined && !isObject(panels)) throw bad('reproLink: ui.panels must be an object');
      return { ...settings, ...ui, panels: { ...settings.panels, ...(isObject(panels) ? panels : {}) } };
    }, 'reproLink: ui');
    try {
      validateUi(merged);
    } catch (e) {
      throw new TypeError(`reproLink: ui: ${e.message}`, { cause: e });
    }
    settings = merged;
  }
  return `${base}${encode(state, settings)}`;
}
