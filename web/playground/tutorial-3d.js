// The slab tutorial in 3D: the slab intervals as coloured lines beside the ray (offset
// sideways on screen), their t1 / t2 points, and the two planes of the current slab.

import * as THREE from 'three';
import { AXIS_COLORS, RAY_DRAW_LENGTH, rayColor } from './look.js';
import { GEO, along, disposeTree, lineMaterial, makeLine, setLine, vec3 } from './three-kit.js';

/** The range of t shown: the finite interval ends and a margin, within bounds. */
function tRange(ex, dirLen) {
  const finite = [0];
  for (const a of ex.axes) for (const v of [a.near, a.far]) if (v !== null && Number.isFinite(v)) finite.push(v);
  const tLo = Math.max(Math.min(...finite) - 1.5 / dirLen, -40 / dirLen);
  const tHi = Math.min(Math.max(...finite, RAY_DRAW_LENGTH / dirLen * 0.6) + 1.5 / dirLen, 60 / dirLen);
  return [tLo, tHi];
}

/** One quad (and its outline) of a slab's planes, at `side` (-1 or 1) along `axis`. */
function slabQuad(axis, side, half, margin) {
  const others = [0, 1, 2].filter((k) => k !== axis);
  const mat = new THREE.MeshBasicMaterial({
    color: AXIS_COLORS[axis], transparent: true, opacity: 0.16, side: THREE.DoubleSide, depthWrite: false,
  });
  const quad = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), mat);
  // PlaneGeometry spans local x-y with normal z: turn it so its normal is the slab axis.
  if (axis === 0) quad.rotation.y = Math.PI / 2;
  else if (axis === 1) quad.rotation.x = Math.PI / 2;
  const size = others.map((k) => 2 * half[k] + 2 * margin);
  // after the rotation the quad's local x/y map to the two other axes in order
  if (axis === 0) quad.scale.set(size[1], size[0], 1);
  else quad.scale.set(size[0], size[1], 1);
  quad.position.setComponent(axis, side * half[axis]);
  const edge = new THREE.LineSegments(new THREE.EdgesGeometry(new THREE.PlaneGeometry(1, 1)),
    new THREE.LineBasicMaterial({ color: AXIS_COLORS[axis], transparent: true, opacity: 0.55 }));
  edge.rotation.copy(quad.rotation);
  edge.scale.copy(quad.scale);
  edge.position.copy(quad.position);
  return [quad, edge];
}

export class SlabVisual {
  /** view: the View (its slabGroup holds the objects); shapes: the ShapeMeshes (a rotated
   * box's orientation). */
  constructor(view, shapes) {
    this.view = view;
    this.shapes = shapes;
    /** Markers (t1/t2 dots) and lines of the slab visual; rebuilt with the panel. */
    this.markers = [];
    this.lines = [];
    this.subject = null;
    view.beforeRender.push(() => this.place());
  }

  clear() {
    const group = this.view.slabGroup;
    for (const c of [...group.children]) {
      group.remove(c);
      disposeTree(c);
    }
    this.markers = [];
    this.lines = [];
    this.subject = null;
    this.view.setScreenSized('slab', []);
  }

  /** The coloured t intervals along the ray (and the current slab's planes) at `step`. */
  build(sub, step) {
    const { ex, ray, shape } = sub;
    const dirLen = Math.hypot(...ray.dir);
    const [tLo, tHi] = tRange(ex, dirLen);
    const clip = (t) => Math.min(Math.max(t, tLo), tHi);
    // Steps (tutorial-text.js): 1 the idea, 2-4 the x, y, z slabs, 5 and 6 entry and exit, 7 the verdict.
    const showAxis = (i) => step === 0 || step > 4 || step >= i + 2;
    ex.axes.forEach((a, i) => {
      if (a.near === null || !showAxis(i)) return;
      this.#addLine(lineMaterial(AXIS_COLORS[i], step === i + 2 ? 7 : 5, { depthTest: false, opacity: 0.95 }), clip(a.near), clip(a.far), i + 1);
      if (!a.parallel) this.#addMarkers(a, i, tLo, tHi);
    });
    if ((step === 0 || step >= 5) && ex.overlap) {
      this.#addLine(lineMaterial('#1f2933', 5, { depthTest: false }), clip(ex.tEnter), clip(ex.tExit), 4);
    }
    // Faint backward extension of the line, so negative t has somewhere to be.
    if (tLo < 0) {
      const back = makeLine(lineMaterial(rayColor(sub.i), 1.5, { dashed: true, opacity: 0.35, dashSize: 0.1, gapSize: 0.12 }));
      this.view.slabGroup.add(back);
      this.lines.push({ line: back, t0: tLo, t1: 0, offset: 0 });
    }
    // The two planes of the current slab.
    if (step >= 2 && step <= 4) this.#addPlanes(shape, sub.j, step - 2);
    this.subject = { ray, dirLen };
    this.view.setScreenSized('slab', this.markers.map((m) => [m, 4]));
  }

  #addLine(material, t0, t1, offset) {
    const line = makeLine(material);
    line.renderOrder = 5;
    this.view.slabGroup.add(line);
    this.lines.push({ line, t0, t1, offset });
  }

  /** The dots where the ray crosses the two planes of slab i (within [tLo, tHi]). */
  #addMarkers(a, i, tLo, tHi) {
    for (const t of [a.t1, a.t2]) {
      if (t < tLo || t > tHi) continue;
      const dot = new THREE.Mesh(GEO.handle, new THREE.MeshBasicMaterial({ color: AXIS_COLORS[i], depthTest: false }));
      dot.renderOrder = 6;
      dot.userData.t = t;
      dot.userData.offset = i + 1;
      this.view.slabGroup.add(dot);
      this.markers.push(dot);
    }
  }

  /** The two planes of slab `axis` of shape j (a box or a rotated box). */
  #addPlanes(shape, j, axis) {
    let center;
    let quat = new THREE.Quaternion();
    let half;
    if (shape.type === 'aabb') {
      center = new THREE.Vector3((shape.min[0] + shape.max[0]) / 2, (shape.min[1] + shape.max[1]) / 2, (shape.min[2] + shape.max[2]) / 2);
      half = [0, 1, 2].map((k) => (shape.max[k] - shape.min[k]) / 2);
    } else {
      center = vec3(shape.center);
      quat = this.shapes.entries[j].obj.quaternion.clone();
      half = shape.half.slice();
    }
    const margin = Math.max(0.8, 0.6 * Math.max(...half));
    const group = new THREE.Group();
    group.position.copy(center);
    group.quaternion.copy(quat);
    for (const side of [-1, 1]) group.add(...slabQuad(axis, side, half, margin));
    this.view.slabGroup.add(group);
  }

  /** Screen-space offsets of the slab lines (they sit side by side next to the ray). */
  place() {
    if (!this.subject) return;
    const { view } = this;
    const { ray } = this.subject;
    const dir = vec3(ray.dir).normalize();
    const camDir = new THREE.Vector3();
    view.camera.getWorldDirection(camDir);
    const side = new THREE.Vector3().crossVectors(dir, camDir);
    if (side.lengthSq() < 1e-8) side.set(1, 0, 0).cross(dir);
    side.normalize();
    const perPx = view.worldPerPixel(along(ray, 0));
    for (const { line, t0, t1, offset } of this.lines) {
      const off = side.clone().multiplyScalar(offset * 7 * perPx);
      setLine(line, along(ray, t0).add(off), along(ray, t1).add(off));
    }
    for (const m of this.markers) {
      m.position.copy(along(ray, m.userData.t)).addScaledVector(side, m.userData.offset * 7 * view.worldPerPixel(m.position));
    }
  }
}
