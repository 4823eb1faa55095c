// Handles and dragging: picking what is under the pointer (a ray's origin or tip handle,
// the stress handle, a shape), the drag plane facing the camera, and the drags
// themselves, sent to the store as updateRay / updateShape (or to stress mode). Dragged
// points snap to the grid when snapping is on (snap.mjs); nothing drags while the
// handles are locked (store.ui.handles).

import * as THREE from 'three';
import { cloneState } from './scene.mjs';
import { fv, rayWithOrigin, rayWithTip, translatedShape } from './edits.js';
import { along, vec3 } from './three-kit.js';

export class Handles {
  /** view: the View; store: the Store; shapes, rays: the ShapeMeshes and RayMeshes;
   * gizmo: the Gizmo; stress: the StressMode; snap: the Snap settings. */
  constructor({ view, store, shapes, rays, gizmo, stress, snap }) {
    Object.assign(this, { view, store, shapes, rays, gizmo, stress, snap });
    this.raycaster = new THREE.Raycaster();
    this.ndc = new THREE.Vector2();
    /** The current drag: {kind: 'origin'|'tip'|'shape'|'stress'|'maybe-deselect', ...}. */
    this.drag = null;
  }

  /** The pointer listeners. Call after the gizmo is made and before the orbit controls. */
  listen() {
    const { container, canvas } = this.view;
    // Capture phase on the view: ray handles are grabbed before the gizmo and the orbit see the event.
    container.addEventListener('pointerdown', (e) => this.#grabHandle(e), true);
    // Bubble phase on the canvas, after the gizmo: a click on a shape selects it (and drags it in move mode).
    canvas.addEventListener('pointerdown', (e) => this.#grabShape(e));
    window.addEventListener('pointermove', (e) => this.#move(e));
    window.addEventListener('pointerup', (e) => this.#endDrag(e));
    window.addEventListener('pointercancel', (e) => this.#endDrag(e));
  }

  // ---------------------------------------------------------------- picking

  #setNdc(e) {
    const rect = this.view.canvas.getBoundingClientRect();
    this.ndc.set(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(this.ndc, this.view.camera);
  }

  /** The handle under the pointer event e ({kind, ray} or {kind: 'stress'}), or null
   * (while the handles are locked, only stress mode's handle can be grabbed). */
  pickHandle(e) {
    if (this.store.ui.handles === 'locked' && !this.stress.active) return null;
    this.#setNdc(e);
    const pickers = this.stress.active ? [this.stress.handle.userData.picker] : [...this.rays.pickers(), ...this.shapes.pickers()];
    const hit = this.raycaster.intersectObjects(pickers, false)[0];
    return hit ? hit.object.userData.handle : null;
  }

  /** The shape under the pointer event e: {index, point}, or null (null while locked). */
  pickShape(e) {
    if (this.store.ui.handles === 'locked') return null;
    this.#setNdc(e);
    const meshes = this.shapes.entries.map((s) => s.mesh);
    const hits = this.raycaster.intersectObjects(meshes, false);
    // A solid in front wins over the plane behind it; the plane only when nothing else is hit.
    const { shapes } = this.store.state;
    const solid = hits.find((h) => shapes[h.object.userData.shapeIndex].type !== 'plane');
    const hit = solid ?? hits[0];
    return hit ? { index: hit.object.userData.shapeIndex, point: hit.point } : null;
  }

  #dragPlaneThrough(point) {
    const n = new THREE.Vector3();
    this.view.camera.getWorldDirection(n);
    return new THREE.Plane().setFromNormalAndCoplanarPoint(n, point);
  }

  #pointOnDragPlane(e) {
    this.#setNdc(e);
    const p = new THREE.Vector3();
    return this.raycaster.ray.intersectPlane(this.drag.plane, p) ? p : null;
  }

  #capture(pointerId) {
    try { this.view.canvas.setPointerCapture(pointerId); } catch { /* not essential */ }
  }

  // ---------------------------------------------------------------- drags

  #grabHandle(e) {
    const { canvas } = this.view;
    if (e.target !== canvas || e.button !== 0 || !this.store.core) return;
    const handle = this.pickHandle(e);
    if (!handle) return;
    if (handle.kind !== 'stress' && this.store.ui.handles === 'locked') return;
    e.stopPropagation();
    e.preventDefault();
    const { state } = this.store;
    let start;
    if (handle.kind === 'stress') start = this.stress.handle.position.clone();
    else if (handle.kind === 'cap-a' || handle.kind === 'cap-b') start = vec3(state.shapes[handle.shape][handle.kind.slice(4)]);
    else {
      const ray = state.rays[handle.ray];
      start = handle.kind === 'origin' ? vec3(ray.origin) : along(ray, 1);
    }
    this.drag = { ...handle, pointerId: e.pointerId, plane: this.#dragPlaneThrough(start), start };
    const grab = this.#pointOnDragPlane(e);
    this.drag.grabOffset = grab ? start.clone().sub(grab) : new THREE.Vector3();
    if (handle.kind === 'origin' || handle.kind === 'tip') this.store.selectRay(handle.ray, { pending: true });
    this.#capture(e.pointerId);
    canvas.style.cursor = 'grabbing';
  }

  #grabShape(e) {
    const { store, gizmo } = this;
    if (e.button !== 0 || !store.core || this.stress.active || gizmo.dragging) return;
    const hit = this.pickShape(e);
    if (!hit) {
      this.drag = { kind: 'maybe-deselect', x: e.clientX, y: e.clientY };
      return;
    }
    e.stopImmediatePropagation(); // no orbiting
    if (store.state.selected.shape !== hit.index || !gizmo.shown) gizmo.selectShape(hit.index);
    if (gizmo.mode === 'translate' && store.ui.handles !== 'locked') {
      this.drag = {
        kind: 'shape', index: hit.index, pointerId: e.pointerId, plane: this.#dragPlaneThrough(hit.point),
        start: hit.point.clone(), shape0: cloneState(store.state.shapes[hit.index]), moved: false,
      };
      this.#capture(e.pointerId);
    }
  }

  #move(e) {
    const { drag, view } = this;
    if (!drag) {
      if (this.store.core && e.target === view.canvas && !this.gizmo.dragging) {
        view.canvas.style.cursor = this.pickHandle(e) ? 'grab' : '';
      }
      return;
    }
    if (drag.kind === 'maybe-deselect') return;
    const p = this.#pointOnDragPlane(e);
    if (!p) return;
    if (drag.kind === 'origin' || drag.kind === 'tip') {
      p.add(drag.grabOffset);
      p.set(this.snap.value(p.x), this.snap.value(p.y), this.snap.value(p.z));
      const ray = this.store.state.rays[drag.ray];
      const next = drag.kind === 'origin' ? rayWithOrigin(ray, p) : rayWithTip(ray, p);
      if (next) this.store.updateRay(drag.ray, next, { live: true });
    } else if (drag.kind === 'cap-a' || drag.kind === 'cap-b') {
      // An end point of the selected capsule (the other end stays).
      p.add(drag.grabOffset);
      p.set(this.snap.value(p.x), this.snap.value(p.y), this.snap.value(p.z));
      const s = this.store.state.shapes[drag.shape];
      if (s && s.type === 'capsule') this.store.updateShape(drag.shape, { ...cloneState(s), [drag.kind.slice(4)]: fv([p.x, p.y, p.z]) }, { live: true });
    } else if (drag.kind === 'shape') {
      drag.moved = true;
      const d = p.sub(drag.start);
      d.set(this.snap.value(d.x), this.snap.value(d.y), this.snap.value(d.z));
      this.store.updateShape(drag.index, translatedShape(drag.shape0, d), { live: true });
    } else if (drag.kind === 'stress') {
      p.add(drag.grabOffset);
      this.stress.moveCluster(p);
    }
  }

  #endDrag(e) {
    if (!this.drag) return;
    const d = this.drag;
    this.drag = null;
    this.view.canvas.style.cursor = '';
    try { this.view.canvas.releasePointerCapture(e.pointerId); } catch { /* fine */ }
    if (d.kind === 'maybe-deselect') {
      // A click (no drag) on empty space puts the gizmo away (the shape stays selected for the slab panel).
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 4 && this.gizmo.shown) this.gizmo.hide();
      return;
    }
    if (d.kind !== 'stress') this.store.endEdit();
  }
}
