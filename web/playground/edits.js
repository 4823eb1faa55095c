// Shape and ray edits in float32: the new records a drag, a gizmo or the toolbar makes
// from the old ones. Pure: they return new records and never touch the store.

import * as THREE from 'three';
import { cloneState } from './scene.mjs';
import { MAX_SIZE } from './look.js';

const f32 = Math.fround;
const Z = new THREE.Vector3(0, 0, 1);
const Y = new THREE.Vector3(0, 1, 0);
const _m = new THREE.Matrix4();

export const fv = (v) => [f32(v[0]), f32(v[1]), f32(v[2])];

/** The three columns of a rotation matrix (column-major: the rotated x, y, z axes). */
function axesOf(matrix) {
  const e = matrix.elements;
  return [fv([e[0], e[1], e[2]]), fv([e[4], e[5], e[6]]), fv([e[8], e[9], e[10]])];
}

/** s0 moved by the vector `delta` (a plane moves along its normal). */
export function translatedShape(s0, delta) {
  const s = cloneState(s0);
  const add = (v) => fv([v[0] + delta.x, v[1] + delta.y, v[2] + delta.z]);
  if (s.type === 'aabb') {
    s.min = add(s0.min);
    s.max = add(s0.max);
  } else if (s.type === 'obb' || s.type === 'sphere') {
    s.center = add(s0.center);
  } else if (s.type === 'capsule') {
    s.a = add(s0.a);
    s.b = add(s0.b);
  } else {
    const n = s0.normal;
    s.d = f32(s0.d + n[0] * delta.x + n[1] * delta.y + n[2] * delta.z);
  }
  return s;
}

/** s0 turned to the gizmo object's orientation `quaternion`; null when that gives no
 * plane normal. `position` is where the gizmo object was when the drag started. */
export function rotatedShape(s0, quaternion, position) {
  const s = cloneState(s0);
  if (s.type === 'obb') {
    s.axes = axesOf(_m.makeRotationFromQuaternion(quaternion));
  } else if (s.type === 'plane') {
    const n = Z.clone().applyQuaternion(quaternion).normalize();
    s.normal = fv([n.x, n.y, n.z]);
    if (s.normal.every((x) => x === 0)) return null;
    s.d = f32(s.normal[0] * position.x + s.normal[1] * position.y + s.normal[2] * position.z);
  } else if (s.type === 'capsule') {
    // The segment turned about its middle: the gizmo object's local y runs from a to b (shapes3d.js).
    const { mid, half } = capsuleFrame(s0);
    const y = Y.clone().applyQuaternion(quaternion).normalize();
    s.a = fv([mid[0] - y.x * half, mid[1] - y.y * half, mid[2] - y.z * half]);
    s.b = fv([mid[0] + y.x * half, mid[1] + y.y * half, mid[2] + y.z * half]);
  }
  return s;
}

/** A capsule's middle point, half length and unit axis from a to b (y when a = b). */
export function capsuleFrame(s) {
  const mid = [0, 1, 2].map((k) => (s.a[k] + s.b[k]) / 2);
  const d = [0, 1, 2].map((k) => s.b[k] - s.a[k]);
  const len = Math.hypot(...d);
  return { mid, half: len / 2, axis: len > 0 ? d.map((x) => x / len) : [0, 1, 0] };
}

/** s0 resized to the gizmo object's `scale`. Sizes stay within [0, MAX_SIZE] (grabbing
 * the gizmo right at its centre can give wild factors). */
export function scaledShape(s0, scale) {
  const s = cloneState(s0);
  const sx = Math.min(Math.abs(scale.x), MAX_SIZE);
  const sy = Math.min(Math.abs(scale.y), MAX_SIZE);
  const sz = Math.min(Math.abs(scale.z), MAX_SIZE);
  if (s.type === 'aabb') {
    const c = [(s0.min[0] + s0.max[0]) / 2, (s0.min[1] + s0.max[1]) / 2, (s0.min[2] + s0.max[2]) / 2];
    s.min = fv([c[0] - sx / 2, c[1] - sy / 2, c[2] - sz / 2]);
    s.max = fv([c[0] + sx / 2, c[1] + sy / 2, c[2] + sz / 2]);
  } else if (s.type === 'obb') {
    s.half = fv([sx / 2, sy / 2, sz / 2]);
  } else if (s.type === 'sphere') {
    // Uniform: take the component that moved most from the radius.
    const r0 = s0.radius;
    let best = r0;
    for (const c of [sx, sy, sz]) if (Math.abs(c - r0) > Math.abs(best - r0)) best = c;
    best = Math.min(best, MAX_SIZE / 2);
    s.radius = f32(best);
  } else if (s.type === 'capsule') {
    // The gizmo object is unscaled (shapes3d.js): its scale is a factor. Local y (a to b)
    // stretches the segment about its middle; x or z (whichever moved most) the radius.
    const { mid, half, axis } = capsuleFrame(s0);
    const h = Math.min(half * sy, MAX_SIZE / 2);
    s.a = fv(mid.map((c, k) => c - axis[k] * h));
    s.b = fv(mid.map((c, k) => c + axis[k] * h));
    const k = Math.abs(sx - 1) >= Math.abs(sz - 1) ? sx : sz;
    s.radius = f32(Math.min(s0.radius * k, MAX_SIZE / 2));
  }
  return s;
}

/** A new shape of `type` ('aabb', 'obb', 'sphere' or 'capsule') near the point `target`. */
export function newShape(type, target) {
  const t = target;
  const c = [Math.round(t.x * 2) / 2, Math.round(t.y * 2) / 2 + 1, Math.round(t.z * 2) / 2];
  if (type === 'aabb') return { type, min: fv([c[0] - 0.75, c[1] - 0.75, c[2] - 0.75]), max: fv([c[0] + 0.75, c[1] + 0.75, c[2] + 0.75]) };
  if (type === 'sphere') return { type, center: fv(c), radius: 0.75 };
  // Upright, as a character's capsule stands.
  if (type === 'capsule') return { type, a: fv([c[0], c[1] - 0.75, c[2]]), b: fv([c[0], c[1] + 0.75, c[2]]), radius: 0.5 };
  const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(0.35, 0.6, 0.2));
  return { type, center: fv(c), axes: axesOf(_m.makeRotationFromQuaternion(q)), half: [1, 0.5, 0.75] };
}

/** The k-th new ray near the point `target`. */
export function newRay(k, target) {
  const t = target;
  return { origin: fv([Math.round(t.x) - 6, Math.round(t.y) + 2.5 - (k % 3), Math.round(t.z) + (k % 2)]), dir: [1, -0.25, 0], tmax: Infinity };
}

/** The ray with its origin moved to point p (a THREE.Vector3). */
export function rayWithOrigin(ray, p) {
  return { ...ray, origin: [f32(p.x), f32(p.y), f32(p.z)] };
}

/** The ray aimed so that its tip (origin + dir) is at point p; null for a zero direction. */
export function rayWithTip(ray, p) {
  const d = [f32(p.x - ray.origin[0]), f32(p.y - ray.origin[1]), f32(p.z - ray.origin[2])];
  if (d.every((x) => x === 0)) return null; // a zero direction is not a ray
  return { ...ray, dir: d };
}
