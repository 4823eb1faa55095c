// Keyboard control of the scene view: the view (#stage) is one tab stop; there, [ and ]
// pick the handle to move (each ray's origin and tip, then each shape), the arrow keys
// move it by one grid step (Shift: ten), PageUp / PageDown move it along the third axis.
// In the 3D view the arrows move along x (left / right) and z (up / down), PageUp /
// PageDown along y; in a 2D view they follow the screen. Every move is one store action
// (one undo step) and is described in an aria-live region.

import { translatedShape } from './edits.js';
import { AX, rayName, shapeName } from './look.js';
import { PLANES } from './view2d.js';

const f32 = Math.fround;
const round = (x) => f32(Number(x.toFixed(6)));
const vecText = (v) => `[${v.map((x) => String(Number(x.toPrecision(6)))).join(', ')}]`;

/** The handles in keyboard order. */
function handleList(state) {
  const out = [];
  state.rays.forEach((_, i) => out.push({ kind: 'origin', index: i }, { kind: 'tip', index: i }));
  state.shapes.forEach((_, j) => out.push({ kind: 'shape', index: j }));
  return out;
}

/** [axis, sign] a key moves along in `view`, or null. */
function keyAxis(key, view) {
  if (view === '3d') {
    return { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [2, -1], ArrowDown: [2, 1], PageUp: [1, 1], PageDown: [1, -1] }[key] ?? null;
  }
  const { u, v, depth } = PLANES[view];
  return {
    ArrowLeft: [u[0], -u[1]], ArrowRight: [u[0], u[1]], ArrowUp: [v[0], -v[1]], ArrowDown: [v[0], v[1]],
    PageUp: [depth, 1], PageDown: [depth, -1],
  }[key] ?? null;
}

export class Keyboard {
  /** store: the Store; snap: the Snap settings (its size is the step); view2d: the View2D
   * (it shows the handle being moved); stage: the focusable view element. */
  constructor({ store, snap, view2d, stage }) {
    Object.assign(this, { store, snap, view2d, stage });
    this.current = null;
  }

  listen() {
    this.stage.tabIndex = 0;
    this.stage.setAttribute('role', 'application');
    this.stage.setAttribute('aria-roledescription', 'scene view');
    this.stage.setAttribute('aria-label', 'Scene view. [ and ] pick a handle, arrow keys move it (Shift: ten steps), Page Up and Page Down move it along the third axis.');
    // The status line the screen reader hears: an id of its own in each mounted playground.
    this.status = this.store.dom.$('kbd-status');
    this.status.id = this.store.dom.uid('kbd-status');
    this.stage.setAttribute('aria-describedby', this.status.id);
    this.stage.addEventListener('keydown', (e) => this.#onKey(e));
    this.stage.addEventListener('focus', () => { if (!this.current) this.#pick(0, false); });
  }

  /** The handle the keys move, as {kind, index} (null: none yet). */
  get handle() { return this.current; }

  #say(text) {
    this.status.textContent = text;
  }

  #describe(h) {
    const { state } = this.store;
    if (!h) return 'Nothing to move.';
    if (h.kind === 'shape') {
      const s = state.shapes[h.index];
      const where = s.type === 'aabb' ? `from ${vecText(s.min)} to ${vecText(s.max)}` : s.type === 'plane' ? `normal ${vecText(s.normal)}, d ${s.d}`
        : s.type === 'capsule' ? `from ${vecText(s.a)} to ${vecText(s.b)}, radius ${s.radius}` : `centre ${vecText(s.center)}`;
      return `${shapeName(h.index, s)}, ${where}`;
    }
    const ray = state.rays[h.index];
    const p = h.kind === 'origin' ? ray.origin : ray.origin.map((c, k) => c + ray.dir[k]);
    return `${rayName(h.index)} ${h.kind} at ${vecText(p)}`;
  }

  /** Pick handle number k of the list (wrapping); select its ray or shape when `select`. */
  #pick(k, select = true) {
    const list = handleList(this.store.state);
    if (list.length === 0) { this.current = null; this.#say('Nothing to move.'); return; }
    const h = list[((k % list.length) + list.length) % list.length];
    this.current = h;
    this.view2d.focus = h;
    if (select) {
      if (h.kind === 'shape') this.store.selectShape(h.index);
      else this.store.selectRay(h.index);
    }
    if (this.view2d.active) this.view2d.draw();
    this.#say(`Moving ${this.#describe(h)}.`);
  }

  #indexOfCurrent() {
    const list = handleList(this.store.state);
    const c = this.current;
    return c ? list.findIndex((h) => h.kind === c.kind && h.index === c.index) : -1;
  }

  #onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (this.store.dom.host().classList.contains('stress')) return; // stress mode has no scene handles
    if (e.key === '[' || e.key === ']') {
      e.preventDefault();
      const k = this.#indexOfCurrent();
      this.#pick(k < 0 ? 0 : k + (e.key === ']' ? 1 : -1));
      return;
    }
    const axis = keyAxis(e.key, this.store.ui.view);
    if (!axis) return;
    e.preventDefault();
    if (this.store.ui.handles === 'locked') { this.#say('The handles are locked.'); return; }
    if (this.#indexOfCurrent() < 0) this.#pick(0);
    const h = this.current;
    if (!h) return;
    const amount = axis[1] * this.snap.size * (e.shiftKey ? 10 : 1);
    this.move(h, axis[0], amount);
  }

  /** Move handle h by `amount` along world axis `axis` (one store action). */
  move(h, axis, amount) {
    const { state } = this.store;
    if (h.kind === 'shape') {
      const s = state.shapes[h.index];
      if (!s) return;
      const delta = { x: 0, y: 0, z: 0 };
      delta[AX[axis]] = amount;
      const next = translatedShape(s, delta);
      if (s.type === 'aabb') { next.min = s.min.map((c, k) => (k === axis ? round(c + amount) : c)); next.max = s.max.map((c, k) => (k === axis ? round(c + amount) : c)); }
      else if (s.type === 'capsule') { next.a = s.a.map((c, k) => (k === axis ? round(c + amount) : c)); next.b = s.b.map((c, k) => (k === axis ? round(c + amount) : c)); }
      else if (s.type !== 'plane') next.center = s.center.map((c, k) => (k === axis ? round(c + amount) : c));
      this.store.updateShape(h.index, next);
    } else {
      const ray = state.rays[h.index];
      if (!ray) return;
      const next = { ...ray, origin: ray.origin.slice(), dir: ray.dir.slice() };
      if (h.kind === 'origin') next.origin[axis] = round(ray.origin[axis] + amount);
      else {
        next.dir[axis] = round(ray.dir[axis] + amount);
        if (next.dir.every((c) => c === 0)) { this.#say('A ray needs a direction: the tip cannot sit on the origin.'); return; }
      }
      this.store.updateRay(h.index, next);
    }
    this.#say(`Moved ${this.#describe(h)}.`);
  }
}
