// slabcast/three, overlaps: "which tracked objects share a point with this volume", for a
// Camera or Frustum (culling, selection), a Box3, a Sphere or an OBB (three's OBB addon). The core
// decides every pair exactly (docs/semantics.md, Overlaps; touching counts) against the entries'
// shapes (a mesh's box, or its opted-in sphere / OBB / AABB). Results, in ascending entry order,
// are result objects (results.js) written into options.target from 0 (its length becomes the
// count; result objects already in it are reused, and those it drops are kept by the world for
// the next call that needs more, so a frame-by-frame caller allocates nothing).
// options: { layers, exclude, target } (filters.js). overlapCapsule(start, end, radius) takes the
// capsule as two Vector3 and a radius (the points within radius of the segment start-end).

import { checkOptionKeys } from '../core/validate.js';
import { Frustum, Matrix4 } from 'three';
import { fail, isNum } from './errors.js';
import { coreOptions, readFilterOptions, withDisabled } from './filters.js';
import { nameEntry, targetArray } from './results.js';
import { live } from './sync.js';

const camScratch = { m: new Matrix4(), frustum: new Frustum() };

/** Reads a Vector3-like into dst[off..off+2] (each value once); throws naming field. */
export function readVector(v, field, dst, off) {
  if (v === null || typeof v !== 'object') fail(`${field} must be a Vector3`, field);
  const x = v.x;
  const y = v.y;
  const z = v.z;
  if (!isNum(x) || !isNum(y) || !isNum(z)) fail(`${field} must be a Vector3`, field);
  if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) fail(`${field} is not finite`, field);
  dst[off] = x;
  dst[off + 1] = y;
  dst[off + 2] = z;
}

function readOptions(state, options) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) fail('options must be an object ({layers?, exclude?, target?})', 'options');
  if (options.inside !== undefined) fail('options.inside does not apply to overlaps', 'options.inside');
  checkOptionKeys(options, ['layers', 'exclude', 'target']);
  const f = readFilterOptions(state, options, 'options');
  return { f, target: targetArray(options.target, 'options.target') };
}

/** The core overlap call(w, out, opts) under options; the result objects in target. */
function run(state, call, options, empty) {
  const w = live(state);
  const { f, target } = readOptions(state, options);
  if (empty) {
    target.length = 0;
    return target;
  }
  const qs = state.query;
  if (qs.overlapOut === undefined || qs.overlapOut.length < state.n) qs.overlapOut = new Int32Array(Math.max(1, state.n));
  const out = qs.overlapOut;
  const opts = coreOptions(state, f, 1);
  const total = withDisabled(state, f, () => call(w, out, opts));
  const count = Math.min(total, out.length); // (total <= n: every entry is one object)
  // result objects dropped from a target wait in the world's pool for the next one that grows
  if (qs.pool === undefined) qs.pool = [];
  const pool = qs.pool;
  const had = target.length;
  for (let i = 0; i < count; i++) {
    let r = i < had ? target[i] : undefined;
    if (r === null || typeof r !== 'object') r = pool.length > 0 ? pool.pop() : {};
    target[i] = nameEntry(state, out[i], r);
  }
  if (options !== undefined && options !== null && options.target === target) {
    for (let i = count; i < had && pool.length < state.n; i++) {
      const r = target[i];
      if (r !== null && typeof r === 'object') pool.push(r);
    }
  }
  target.length = count;
  return target;
}

/** world.overlapBox(box: Box3, options?) */
export function overlapBox(state, box, options) {
  if (box === null || typeof box !== 'object' || box.min === null || typeof box.min !== 'object' || box.max === null || typeof box.max !== 'object') {
    fail('box must be a Box3', 'box');
  }
  const mn = box.min;
  const mx = box.max;
  const v = [mn.x, mn.y, mn.z, mx.x, mx.y, mx.z];
  if (!v.every(isNum)) fail('box must be a Box3 of numbers', 'box');
  const empty = v[3] < v[0] || v[4] < v[1] || v[5] < v[2]; // three.js's isEmpty: overlaps nothing
  if (!empty && !v.every(Number.isFinite)) fail('box is not finite', 'box');
  return run(state, (w, out, o) => w.overlapAABB([v[0], v[1], v[2]], [v[3], v[4], v[5]], out, o), options, empty);
}

/** world.overlapSphere(sphere: Sphere, options?) */
export function overlapSphere(state, sphere, options) {
  if (sphere === null || typeof sphere !== 'object') fail('sphere must be a Sphere', 'sphere');
  const floats = new Float64Array(3);
  readVector(sphere.center, 'sphere.center', floats, 0);
  const r = sphere.radius;
  if (!isNum(r) || Number.isNaN(r) || r === Infinity) fail('sphere.radius must be a finite number', 'sphere.radius');
  const c = [floats[0], floats[1], floats[2]];
  return run(state, (w, out, o) => w.overlapSphere(c, r, out, o), options, r < 0); // radius < 0: three.js's empty sphere
}

/** world.overlapCapsule(start: Vector3, end: Vector3, radius, options?) */
export function overlapCapsule(state, start, end, radius, options) {
  const a = new Float64Array(3);
  const b = new Float64Array(3);
  readVector(start, 'start', a, 0);
  readVector(end, 'end', b, 0);
  if (!isNum(radius) || !(radius >= 0) || radius === Infinity) fail('radius must be a finite number >= 0', 'radius');
  return run(state, (w, out, o) => w.overlapCapsule(a, b, radius, out, o), options, false);
}

/** world.overlapOBB(obb: OBB, options?): center, halfSize, rotation (a Matrix3 whose columns are the axes). */
export function overlapOBB(state, obb, options) {
  if (obb === null || typeof obb !== 'object') fail('obb must be an OBB (three/examples/jsm/math/OBB.js)', 'obb');
  const floats = new Float32Array(15);
  readVector(obb.center, 'obb.center', floats, 0);
  readVector(obb.halfSize, 'obb.halfSize', floats, 12);
  const e = obb.rotation && obb.rotation.elements;
  if (!e || e.length !== 9) fail('obb.rotation must be a Matrix3', 'obb.rotation');
  for (let i = 0; i < 9; i++) {
    const x = e[i];
    if (!isNum(x) || !Number.isFinite(x)) fail('obb.rotation is not finite', 'obb.rotation');
    floats[3 + i] = x; // column-major: column c (axis c) is elements[3c .. 3c + 2]
  }
  return run(state, (w, out, o) => w.overlapOBB(floats, out, o), options, false);
}

/**
 * world.overlapFrustum(cameraOrFrustum, options?): a Camera's frustum from projectionMatrix x
 * matrixWorldInverse as they are (camera.updateMatrixWorld() / updateProjectionMatrix() after
 * changes; the renderer does the first each render), or a Frustum's six planes.
 */
export function overlapFrustum(state, src, options) {
  if (src === null || typeof src !== 'object') fail('frustum must be a Camera or a Frustum', 'frustum');
  let planes;
  if (src.isCamera === true) {
    const pm = src.projectionMatrix;
    const vi = src.matrixWorldInverse;
    if (!pm || !pm.isMatrix4 || !vi || !vi.isMatrix4) fail('frustum: the camera needs projectionMatrix and matrixWorldInverse (Matrix4)', 'frustum');
    camScratch.m.multiplyMatrices(pm, vi);
    planes = camScratch.frustum.setFromProjectionMatrix(camScratch.m, src.coordinateSystem).planes;
  } else if (Array.isArray(src.planes) && src.planes.length === 6) {
    planes = src.planes;
  } else {
    fail('frustum must be a Camera or a Frustum (six planes)', 'frustum');
  }
  const floats = new Float32Array(24);
  for (let i = 0; i < 6; i++) {
    const p = planes[i];
    if (p === null || typeof p !== 'object') fail(`frustum.planes[${i}] must be a Plane`, `frustum.planes[${i}]`);
    readVector(p.normal, `frustum.planes[${i}].normal`, floats, 4 * i);
    const c = p.constant;
    if (!isNum(c) || !Number.isFinite(c)) fail(`frustum.planes[${i}].constant is not finite`, `frustum.planes[${i}].constant`);
    floats[4 * i + 3] = c;
  }
  return run(state, (w, out, o) => w.overlapFrustum(floats, out, o), options, false);
}
