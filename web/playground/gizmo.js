// The TransformControls gizmo on the selected shape: whether it is shown, its mode
// (move, rotate, scale) and the shape edits it makes, sent to the store as updateShape.

import { TransformControls } from 'three/addons/controls/TransformControls.js';
import { cloneState } from './scene.mjs';
import { rotatedShape, scaledShape, translatedShape } from './edits.js';

/** The gizmo modes each shape type allows. */
export const MODES_FOR = {
  aabb: ['translate', 'scale'],
  obb: ['translate', 'rotate', 'scale'],
  sphere: ['translate', 'scale'],
  plane: ['translate', 'rotate'],
  capsule: ['translate', 'rotate', 'scale'],
};

export class Gizmo {
  /**
   * view: the View; store: the Store; shapes: the ShapeMeshes the gizmo moves.
   * onApply({type, mode, shown, index}) after every change of what the gizmo shows
   * (type null: no shape to work on).
   */
  constructor({ view, store, shapes, onApply }) {
    this.view = view;
    this.store = store;
    this.shapes = shapes;
    this.onApply = onApply;
    this.controls = new TransformControls(view.camera, view.canvas);
    this.controls.setSize(0.65);
    view.scene.add(this.controls.getHelper());
    this.mode = 'translate';
    /** Whether the gizmo is shown on the selected shape (after a click on it; Escape or a
     * click on empty space hides it). */
    this.shown = false;
    /** In stress mode there is no scene to edit. */
    this.suspended = false;
    /** The shape and the gizmo object's position when a gizmo drag started. */
    this.start = null;
    shapes.onRebuild(() => this.controls.detach());
    this.#listen();
  }

  get dragging() { return this.controls.dragging; }

  #listen() {
    const c = this.controls;
    c.addEventListener('mouseDown', () => {
      const { state } = this.store;
      const j = state.selected.shape;
      this.start = j >= 0 ? { index: j, shape: cloneState(state.shapes[j]), position: c.object.position.clone() } : null;
    });
    c.addEventListener('dragging-changed', (e) => {
      this.view.orbit.enabled = !e.value;
      if (!e.value) {
        this.start = null;
        this.store.endEdit();
      }
    });
    c.addEventListener('change', this.view.requestRender);
    c.addEventListener('objectChange', () => this.#onObjectChange());
  }

  /** The gizmo moved its object: turn that into the shape it now shows. */
  #onObjectChange() {
    if (!this.start) return;
    const { index, shape: s0, position } = this.start;
    const obj = this.shapes.entries[index].obj;
    let s = cloneState(s0);
    if (this.controls.mode === 'translate') s = translatedShape(s0, obj.position.clone().sub(position));
    else if (this.controls.mode === 'rotate') s = rotatedShape(s0, obj.quaternion, position);
    else if (this.controls.mode === 'scale') s = scaledShape(s0, obj.scale);
    if (!s) return;
    this.store.updateShape(index, s, { live: true });
  }

  /** Put the gizmo on the selected shape (or away), in a mode its type allows. */
  apply() {
    const { state } = this.store;
    const c = this.controls;
    const j = state.selected.shape;
    if (this.suspended || j < 0 || j >= state.shapes.length) {
      c.detach();
      this.onApply({ type: null, mode: null, shown: this.shown, index: j });
      return;
    }
    if (!this.shown) c.detach();
    const type = state.shapes[j].type;
    const mode = MODES_FOR[type].includes(this.mode) ? this.mode : 'translate';
    c.setMode(mode);
    c.setSpace(type === 'obb' || type === 'plane' || type === 'capsule' ? 'local' : 'world');
    c.showX = !(type === 'plane' && mode === 'translate');
    c.showY = !(type === 'plane' && mode === 'translate');
    c.showZ = !(type === 'plane' && mode === 'rotate');
    const obj = this.shapes.entries[j].obj;
    if (this.shown && c.object !== obj) c.attach(obj);
    this.onApply({ type, mode, shown: this.shown, index: j });
  }

  /** Show the gizmo in `mode` ('translate', 'rotate' or 'scale'). */
  setMode(mode) {
    this.mode = mode;
    this.shown = true;
    this.apply();
    this.view.requestRender();
  }

  hide() {
    this.shown = false;
    this.apply();
    this.view.requestRender();
  }

  /** Select shape j (-1: none), with the gizmo on it when showGizmo. */
  selectShape(j, { showGizmo = true } = {}) {
    if (!(j >= -1 && j < this.store.state.shapes.length)) return;
    this.shown = showGizmo && j >= 0;
    this.store.selectShape(j);
  }

  /** Snap the gizmo's moves to a grid of `size` (null: no snapping). */
  setSnap(size) {
    this.controls.setTranslationSnap(size);
  }

  /** Stress mode on (the gizmo goes away) or off (it comes back as it was). */
  setSuspended(suspended) {
    this.suspended = suspended;
    if (suspended) this.controls.detach();
    else this.apply();
  }
}
