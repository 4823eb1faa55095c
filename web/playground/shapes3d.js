// The shapes in 3D: one group per shape of the scene (mesh, edges, grid for a plane,
// label), placed from the scene's float32 numbers, highlighted when selected.

import * as THREE from 'three';
import { LineSegments2 } from 'three/addons/lines/LineSegments2.js';
import { LineSegmentsGeometry } from 'three/addons/lines/LineSegmentsGeometry.js';
import { PLANE_SIZE, SELECTED_EDGE, SHAPE_COLORS, SHAPE_EDGE_COLORS, shapeName } from './look.js';
import { GEO, disposeTree, lineMaterial, makeLabel } from './three-kit.js';
import { capsuleFrame } from './edits.js';

const _m = new THREE.Matrix4();
const Z = new THREE.Vector3(0, 0, 1);
const Y = new THREE.Vector3(0, 1, 0);
/** A zero-size box or sphere is valid; keep its matrix invertible. */
const TINY = 1e-4;

function shapeMaterial(type) {
  return new THREE.MeshStandardMaterial({
    color: SHAPE_COLORS[type],
    roughness: 0.55,
    metalness: 0.0,
    transparent: true,
    opacity: type === 'plane' ? 0.28 : 0.5,
    depthWrite: false,
    side: THREE.DoubleSide,
  });
}

/** The mesh of a shape (and its edges, or a plane's grid, added to obj). */
function shapeMesh(type, obj, material) {
  if (type === 'aabb' || type === 'obb') {
    const geo = new LineSegmentsGeometry().fromEdgesGeometry(GEO.boxEdges);
    const edges = new LineSegments2(geo, lineMaterial(SHAPE_EDGE_COLORS[type], 1.6));
    obj.add(edges);
    return { mesh: new THREE.Mesh(GEO.box, material), edges };
  }
  if (type === 'sphere') return { mesh: new THREE.Mesh(GEO.sphere, material), edges: null };
  if (type === 'capsule') {
    // Its geometry is made for its radius and length (placeCapsule); its segment a-b is drawn
    // as a line through it (the unit segment along y, scaled to the length).
    const geo = new LineSegmentsGeometry().setPositions([0, -0.5, 0, 0, 0.5, 0]);
    const edges = new LineSegments2(geo, lineMaterial(SHAPE_EDGE_COLORS.capsule, 1.6));
    obj.add(edges);
    return { mesh: new THREE.Mesh(new THREE.CapsuleGeometry(1, 1, 8, 24), material), edges };
  }
  const mesh = new THREE.Mesh(GEO.plane, material);
  const grid = new THREE.GridHelper(PLANE_SIZE, PLANE_SIZE, 0xb8955a, 0xcfb98c);
  grid.rotation.x = Math.PI / 2; // the grid helper lies in x-z; the plane's normal is local +z
  grid.material.transparent = true;
  grid.material.opacity = 0.55;
  grid.material.depthWrite = false;
  obj.add(grid);
  mesh.renderOrder = -1;
  return { mesh, edges: null };
}

/** A capsule: obj at the middle of a-b, its local y along a-b, unscaled (the gizmo's scale is
 * then a factor, edits.js scaledShape); the mesh's geometry is remade when the radius or the
 * length changed. */
function placeCapsule(s, obj, label, mesh, edges) {
  const { mid, half, axis } = capsuleFrame(s);
  obj.position.fromArray(mid);
  obj.quaternion.setFromUnitVectors(Y, new THREE.Vector3().fromArray(axis));
  obj.scale.set(1, 1, 1);
  const r = Math.max(s.radius, TINY);
  const key = `${r} ${half}`;
  if (mesh.userData.capsuleKey !== key) {
    mesh.geometry.dispose();
    mesh.geometry = new THREE.CapsuleGeometry(r, 2 * half, 8, 24);
    mesh.userData.capsuleKey = key;
  }
  edges.scale.set(1, Math.max(2 * half, TINY), 1);
  label.position.set(mid[0], Math.max(s.a[1], s.b[1]) + s.radius, mid[2]);
}

/** A draggable end point handle of capsule j ('a' or 'b'); an invisible bigger sphere (its
 * picker) makes it easy to grab, as the rays' handles (rays3d.js). */
function endHandle(j, end) {
  const handle = new THREE.Mesh(GEO.handle, new THREE.MeshStandardMaterial({ color: SHAPE_EDGE_COLORS.capsule, roughness: 0.35 }));
  handle.userData.handle = { kind: `cap-${end}`, shape: j };
  const picker = new THREE.Mesh(GEO.handle, new THREE.MeshBasicMaterial({ visible: false }));
  picker.scale.setScalar(1.9);
  picker.userData.handle = handle.userData.handle;
  handle.add(picker);
  handle.userData.picker = picker;
  return handle;
}

/** Set obj's position, orientation and scale from the shape s; place its label. */
function placeObject(s, obj, label) {
  if (s.type === 'aabb') {
    obj.position.set((s.min[0] + s.max[0]) / 2, (s.min[1] + s.max[1]) / 2, (s.min[2] + s.max[2]) / 2);
    obj.quaternion.identity();
    obj.scale.set(Math.max(s.max[0] - s.min[0], TINY), Math.max(s.max[1] - s.min[1], TINY), Math.max(s.max[2] - s.min[2], TINY));
    label.position.set(obj.position.x, s.max[1], obj.position.z);
  } else if (s.type === 'obb') {
    obj.position.fromArray(s.center);
    const a = s.axes.map((v) => new THREE.Vector3().fromArray(v));
    // A left-handed set of axes describes the same box with one axis flipped.
    if (a[0].clone().cross(a[1]).dot(a[2]) < 0) a[2].negate();
    _m.makeBasis(a[0].normalize(), a[1].normalize(), a[2].normalize());
    obj.quaternion.setFromRotationMatrix(_m);
    obj.scale.set(Math.max(2 * s.half[0], TINY), Math.max(2 * s.half[1], TINY), Math.max(2 * s.half[2], TINY));
    const up = Math.abs(s.axes[0][1]) * s.half[0] + Math.abs(s.axes[1][1]) * s.half[1] + Math.abs(s.axes[2][1]) * s.half[2];
    label.position.set(s.center[0], s.center[1] + up, s.center[2]);
  } else if (s.type === 'sphere') {
    obj.position.fromArray(s.center);
    obj.quaternion.identity();
    const r = Math.max(s.radius, TINY);
    obj.scale.set(r, r, r);
    label.position.set(s.center[0], s.center[1] + s.radius, s.center[2]);
  } else {
    const n = new THREE.Vector3().fromArray(s.normal);
    const len2 = n.lengthSq();
    obj.position.copy(n).multiplyScalar(s.d / len2);
    obj.quaternion.setFromUnitVectors(Z, n.normalize());
    obj.scale.set(1, 1, 1);
    label.position.copy(obj.position);
  }
}

export class ShapeMeshes {
  constructor(view) {
    this.view = view;
    /** entries[j] for state.shapes[j]: {type, obj (what the gizmo moves), mesh, edges, label, material}. */
    this.entries = [];
    this.rebuildListeners = [];
  }

  /** Call fn before the objects are rebuilt (they are about to be disposed). */
  onRebuild(fn) {
    this.rebuildListeners.push(fn);
  }

  #createEntry(shape, j) {
    const obj = new THREE.Group();
    obj.userData.shapeIndex = j;
    const material = shapeMaterial(shape.type);
    const { mesh, edges } = shapeMesh(shape.type, obj, material);
    mesh.userData.shapeIndex = j;
    obj.add(mesh);
    const label = makeLabel(shapeName(j, shape), 'shape');
    this.view.scene.add(label); // positioned by hand (not scaled with the shape)
    this.view.shapeGroup.add(obj);
    // A capsule's end points: handles shown (and grabbed) while it is selected.
    const ends = shape.type === 'capsule' ? [endHandle(j, 'a'), endHandle(j, 'b')] : [];
    for (const h of ends) this.view.scene.add(h);
    return { type: shape.type, obj, mesh, edges, label, material, ends };
  }

  /** Place entry j from the shape s (the float32 numbers are the truth). */
  place(j, s, selected) {
    const e = this.entries[j];
    if (s.type === 'capsule') {
      placeCapsule(s, e.obj, e.label, e.mesh, e.edges);
      e.ends[0].position.fromArray(s.a);
      e.ends[1].position.fromArray(s.b);
      for (const h of e.ends) h.visible = selected;
    } else {
      placeObject(s, e.obj, e.label);
    }
    if (e.edges) e.edges.material.color.set(selected ? SELECTED_EDGE : SHAPE_EDGE_COLORS[s.type]);
    if (e.edges) e.edges.material.linewidth = selected ? 2.6 : 1.6;
    e.material.emissive.set(selected ? 0x3a2408 : 0x000000);
    e.label.inner.textContent = shapeName(j, s);
    e.label.inner.classList.toggle('selected', selected);
  }

  rebuild(shapes) {
    for (const fn of this.rebuildListeners) fn();
    for (const e of this.entries) {
      this.view.shapeGroup.remove(e.obj);
      this.view.scene.remove(e.label);
      disposeTree(e.obj);
      disposeTree(e.label);
      for (const h of e.ends) {
        this.view.scene.remove(h);
        disposeTree(h);
      }
    }
    this.entries = shapes.map((s, j) => this.#createEntry(s, j));
    this.view.setScreenSized('capsule-ends', this.entries.flatMap((e) => e.ends.map((h) => [h, 6.5])));
  }

  /** The invisible pickers of the shown end point handles (the selected capsule's). */
  pickers() {
    return this.entries.flatMap((e) => e.ends.filter((h) => h.visible).map((h) => h.userData.picker));
  }

  /** Bring the objects in line with `state`: rebuilt when `structure` is set or the shapes
   * no longer match them, else only placed again. */
  sync(state, structure) {
    const { entries } = this;
    if (structure || entries.length !== state.shapes.length || entries.some((e, j) => e.type !== state.shapes[j].type)) {
      this.rebuild(state.shapes);
    }
    state.shapes.forEach((s, j) => this.place(j, s, state.selected.shape === j));
  }

  setLabelsVisible(visible) {
    for (const e of this.entries) e.label.visible = visible;
  }
}
