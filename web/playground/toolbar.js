// The toolbar: the gizmo mode buttons and their hint, + Box / + Rotated box / + Sphere /
// + Capsule / + Ray, Delete and Reset, Undo / Redo, the view buttons (3D, Top, Front, Side: store.ui
// view), and their keyboard shortcuts (W, E, R, Escape, Delete; Ctrl+Z, Ctrl+Shift+Z and
// Ctrl+Y; 1 2 3 4 for the views).

import { MAX_RAYS, MAX_SHAPES, defaultState } from './scene.mjs';
import { shapeName } from './look.js';
import { newRay, newShape } from './edits.js';
import { MODES_FOR } from './gizmo.js';
import { clearError } from './notices.js';

/** The hint under the toolbar for the selected shape j of `type`. */
function modeHint(type, shown, name) {
  if (!type) return 'Click a shape to select it.';
  if (!shown) return `${name} selected · click a shape to move (W), rotate (E) or scale (R) it`;
  if (type === 'aabb') return `${name} selected · an AABB stays axis-aligned: move or scale it (a rotated box can turn)`;
  if (type === 'sphere') return `${name} selected · move it, or scale to change the radius`;
  if (type === 'plane') return `${name} selected · move it along its normal or tilt it`;
  if (type === 'capsule') return `${name} selected · move or rotate it; scale: along it for the length, across for the radius`;
  return `${name} selected · move, rotate (E) or scale (R) it`;
}

/** Show what the gizmo does ({type, mode, shown, index} from Gizmo's onApply) on the
 * buttons and the hint of the playground `dom`; the add buttons follow the limits of `state`. */
export function showToolState(dom, { type, mode, shown, index }, state) {
  const { $ } = dom;
  for (const b of dom.host().querySelectorAll('[data-mode]')) {
    const allowed = type ? MODES_FOR[type].includes(b.dataset.mode) : false;
    b.disabled = !allowed;
    b.classList.toggle('active', !!type && b.dataset.mode === mode);
  }
  $('mode-hint').textContent = modeHint(type, shown, type ? shapeName(index, state.shapes[index]) : '');
  $('delete').disabled = !type;
  for (const type of ['aabb', 'obb', 'sphere', 'capsule']) $(`add-${type}`).disabled = state.shapes.length >= MAX_SHAPES;
  $('add-ray').disabled = state.rays.length >= MAX_RAYS;
}

/** Show the view mode (store.ui.view) on the view buttons. */
export function showViewState(dom, ui) {
  for (const b of dom.host().querySelectorAll('[data-view]')) {
    const on = b.dataset.view === ui.view;
    b.classList.toggle('active', on);
    b.setAttribute('aria-pressed', String(on));
  }
  dom.host().dataset.view = ui.view;
}

/** Enable the Undo and Redo buttons as the history allows. */
export function showHistoryState(dom, history) {
  const { $ } = dom;
  $('undo').disabled = !history.canUndo;
  $('redo').disabled = !history.canRedo;
}

const VIEW_KEYS = { 1: '3d', 2: 'top', 3: 'front', 4: 'side' };

export class Toolbar {
  /** store: the Store; gizmo: the Gizmo; view: the View (new things go near the orbit
   * target); stress: the StressMode (no shortcuts while it is on); history: the History. */
  constructor({ store, gizmo, view, stress, history }) {
    Object.assign(this, { store, gizmo, view, stress, history });
  }

  listen() {
    for (const b of this.store.dom.host().querySelectorAll('[data-mode]')) b.addEventListener('click', () => this.gizmo.setMode(b.dataset.mode));
    this.store.dom.$('add-aabb').addEventListener('click', () => this.addShape('aabb'));
    this.store.dom.$('add-obb').addEventListener('click', () => this.addShape('obb'));
    this.store.dom.$('add-sphere').addEventListener('click', () => this.addShape('sphere'));
    this.store.dom.$('add-capsule').addEventListener('click', () => this.addShape('capsule'));
    this.store.dom.$('add-ray').addEventListener('click', () => this.addRay());
    this.store.dom.$('delete').addEventListener('click', () => this.deleteShape());
    this.store.dom.$('reset').addEventListener('click', () => {
      this.store.setScene(defaultState(), { fit: true });
      clearError(this.store.dom);
    });
    this.store.dom.$('undo').addEventListener('click', () => this.history.undo());
    this.store.dom.$('redo').addEventListener('click', () => this.history.redo());
    for (const b of this.store.dom.host().querySelectorAll('[data-view]')) b.addEventListener('click', () => this.setView(b.dataset.view));
    window.addEventListener('keydown', (e) => this.#onKey(e));
  }

  /** Show the scene in `view` ('3d', 'top', 'front' or 'side'). */
  setView(view) {
    if (this.stress.active && view !== '3d') return;
    this.store.setUi({ view });
  }

  #onKey(e) {
    if (!this.store.dom.owns(e)) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    if (this.stress.active) return;
    // Locked handles (view settings): nothing is edited; the view keys still work.
    const locked = this.store.ui.handles === 'locked';
    const key = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && !e.altKey) {
      if (locked) return;
      if (key === 'z' && !e.shiftKey) { e.preventDefault(); this.history.undo(); }
      else if ((key === 'z' && e.shiftKey) || key === 'y') { e.preventDefault(); this.history.redo(); }
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (VIEW_KEYS[key]) this.setView(VIEW_KEYS[key]);
    else if (locked) return;
    else if (key === 'w') this.gizmo.setMode('translate');
    else if (key === 'e') this.gizmo.setMode('rotate');
    else if (key === 'r') this.gizmo.setMode('scale');
    else if (key === 'escape') this.gizmo.hide();
    else if (key === 'delete') this.deleteShape();
  }

  /** A new shape near the orbit target, selected, with the gizmo on it. */
  addShape(type) {
    if (this.store.state.shapes.length >= MAX_SHAPES) return;
    const shape = newShape(type, this.view.orbit.target);
    this.gizmo.shown = true;
    this.store.addShape(shape);
  }

  addRay() {
    if (this.store.state.rays.length >= MAX_RAYS) return;
    this.store.addRay(newRay(this.store.state.rays.length, this.view.orbit.target));
  }

  deleteShape() {
    const j = this.store.state.selected.shape;
    if (j < 0) return;
    this.store.deleteShape(j);
  }
}
