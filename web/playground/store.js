// The state store: the one copy of the scene (scene.mjs's {shapes, rays, selected}) and
// what slabcast says about it (every ray x shape, the nearest hit per ray). The scene
// only changes through the named actions below; each action recomputes the hits and then
// tells every subscriber what happened. Rendering, the panels, URL sync (and later undo,
// links, tests) all read this same state; none keeps its own copy.
//
// A change passed to subscribers: {action, structure, problems, ...opts} where opts are
// the action's options, passed through untouched: live (a drag in progress), pending (part
// of a gesture that endEdit() will close), fromLink (the scene came from the URL), fit
// (frame the camera on it).
//
// Next to the scene the store holds the view settings (ui-state.mjs: view mode, tutorial
// step, locked handles, panels, camera, embed). They change only through setUi(); such a
// change does not recompute the hits and reaches subscribers with ui: true.

import { MAX_RAYS, MAX_SHAPES, cloneState, defaultState } from './scene.mjs';
import { rayName, shapeName } from './look.js';
import { cloneUi, defaultUi, validateUi } from './ui-state.mjs';

/** The ray as sc.raycast takes it. */
export const rayArg = (ray) => ({ origin: ray.origin, dir: ray.dir, tmax: ray.tmax });

export class Store {
  #state = defaultState();
  #ui = defaultUi();
  /** results[i][j]: sc.raycast(ray i, shape j) (or {hit: false, error}). */
  #results = [];
  /** nearest[i]: {shape: index or -1, result}. */
  #nearest = [];
  #core = null;
  #listeners = [];

  /** The scene: read it, never change it (use the actions). */
  get state() { return this.#state; }
  /** The view settings (ui-state.mjs): read them, never change them (use setUi). */
  get ui() { return this.#ui; }
  get results() { return this.#results; }
  get nearest() { return this.#nearest; }
  /** The loaded slabcast module (null until attachCore). */
  get core() { return this.#core; }

  attachCore(sc) {
    this.#core = sc;
  }

  /** listener(change, store) after every action; returns a function that unsubscribes. */
  subscribe(listener) {
    this.#listeners.push(listener);
    return () => { this.#listeners = this.#listeners.filter((l) => l !== listener); };
  }

  // ---------------------------------------------------------------- actions

  /** Merge patch into a copy of the view settings (panels merge key by key; every other
   * field, camera included, is replaced), validate the result and store it. Throws an Error naming what is wrong (and
   * changes nothing) when the patch is not an object or the result is not valid. */
  setUi(patch, opts = {}) {
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
      throw new Error('setUi: the patch must be an object');
    }
    if (typeof opts !== 'object' || opts === null) throw new Error('setUi: opts must be an object');
    const next = { ...cloneUi(this.#ui), ...patch };
    if (patch.panels !== undefined && typeof patch.panels === 'object' && patch.panels !== null) {
      next.panels = { ...this.#ui.panels, ...patch.panels };
    }
    validateUi(next);
    this.#ui = cloneUi(next);
    const change = { ...opts, action: 'setUi', structure: false, problems: [], ui: true };
    for (const l of this.#listeners) l(change, this);
  }

  setScene(next, opts = {}) {
    this.#state = cloneState(next);
    this.#changed('setScene', true, opts);
  }

  /** Add a shape and select it (nothing past MAX_SHAPES). */
  addShape(shape, opts = {}) {
    const s = this.#state;
    if (s.shapes.length >= MAX_SHAPES) return;
    s.shapes.push(cloneState(shape));
    s.selected.shape = s.shapes.length - 1;
    this.#changed('addShape', true, opts);
  }

  /** Add a ray and select it (nothing past MAX_RAYS). */
  addRay(ray, opts = {}) {
    const s = this.#state;
    if (s.rays.length >= MAX_RAYS) return;
    s.rays.push(cloneState(ray));
    s.selected.ray = s.rays.length - 1;
    this.#changed('addRay', true, opts);
  }

  /** Delete shape j; the selection moves to its neighbour. */
  deleteShape(j, opts = {}) {
    const s = this.#state;
    if (!(j >= 0 && j < s.shapes.length)) return;
    s.shapes.splice(j, 1);
    s.selected.shape = s.shapes.length ? Math.min(j, s.shapes.length - 1) : -1;
    this.#changed('deleteShape', true, opts);
  }

  /** Delete ray i; the selected ray stays selected (or its neighbour). */
  deleteRay(i, opts = {}) {
    const s = this.#state;
    if (!(i >= 0 && i < s.rays.length)) return;
    s.rays.splice(i, 1);
    const sel = s.selected.ray;
    s.selected.ray = s.rays.length === 0 ? -1 : sel > i ? sel - 1 : Math.min(sel, s.rays.length - 1);
    this.#changed('deleteRay', true, opts);
  }

  updateShape(j, shape, opts = {}) {
    if (!(j >= 0 && j < this.#state.shapes.length)) return;
    this.#state.shapes[j] = cloneState(shape);
    this.#changed('updateShape', false, opts);
  }

  updateRay(i, ray, opts = {}) {
    if (!(i >= 0 && i < this.#state.rays.length)) return;
    this.#state.rays[i] = cloneState(ray);
    this.#changed('updateRay', false, opts);
  }

  /** Select ray i (nothing when it is already selected or does not exist). */
  selectRay(i, opts = {}) {
    const s = this.#state;
    if (!(i >= 0 && i < s.rays.length) || s.selected.ray === i) return;
    s.selected.ray = i;
    this.#changed('selectRay', false, opts);
  }

  /** Select shape j (-1: none). */
  selectShape(j, opts = {}) {
    const s = this.#state;
    if (!(j >= -1 && j < s.shapes.length)) return;
    s.selected.shape = j;
    this.#changed('selectShape', false, opts);
  }

  /** A gesture (a drag) is over: the scene does not change, subscribers may settle it. */
  endEdit() {
    for (const l of this.#listeners) l({ action: 'endEdit', structure: false, problems: [] }, this);
  }

  // ---------------------------------------------------------------- derived

  #changed(action, structure, opts) {
    const problems = this.#computeHits();
    const change = { ...opts, action, structure, problems };
    for (const l of this.#listeners) l(change, this);
  }

  /** Every ray x shape through sc.raycast; the nearest per ray by t, ties to the lowest
   * index. Returns what slabcast refused, one line per pair. */
  #computeHits() {
    const problems = [];
    const { rays, shapes } = this.#state;
    this.#results = rays.map((ray, i) => shapes.map((shape, j) => {
      try {
        return this.#core.raycast(rayArg(ray), shape);
      } catch (e) {
        problems.push(`${rayName(i)} × ${shapeName(j, shape)}: ${e.message}`);
        return { hit: false, error: e.message };
      }
    }));
    this.#nearest = this.#results.map((row) => {
      let best = -1;
      row.forEach((r, j) => {
        if (r.hit && (best < 0 || r.t < row[best].t)) best = j;
      });
      return { shape: best, result: best >= 0 ? row[best] : { hit: false } };
    });
    return problems;
  }
}
