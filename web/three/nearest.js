// slabcast/three, nearest: "which tracked object is nearest this point", within maxDistance
// (inclusive; Infinity for any). The distance is to the entry's closed solid (its box, or its
// opted-in sphere / OBB / AABB), 0 inside it; ties go to the lowest entry index; distances are
// compared in double precision by the core (docs/semantics.md, Nearest objects).
//   closestObject(point, maxDistance?, options?) -> { object, index, box, instanceId, batchId,
//     distance, point (the closest point on the object; the point itself inside) } or null;
//   closestObjects(points, maxDistance?, options?): 3 floats per point -> { index, instanceId,
//     distance (Infinity for none), point, objects }.
// options: { layers, exclude } (filters.js); the batch also takes target (caller-owned arrays).

import { checkOptionKeys } from '../core/validate.js';
import { Vector3 } from 'three';
import { fail, isNum } from './errors.js';
import { coreOptions, readFilterOptions, withDisabled } from './filters.js';
import { readVector } from './overlaps.js';
import { attachObjects, nameEntry } from './results.js';
import { live } from './sync.js';

function readOptions(state, maxDistance, options) {
  if (maxDistance === undefined) maxDistance = Infinity;
  if (!isNum(maxDistance) || !(maxDistance >= 0)) fail('maxDistance must be a number >= 0 (Infinity for any distance)', 'maxDistance');
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) fail('options must be an object ({layers?, exclude?})', 'options');
  if (options.inside !== undefined) fail('options.inside does not apply to closest objects', 'options.inside');
  checkOptionKeys(options, ['layers', 'exclude', 'target']);
  return readFilterOptions(state, options, 'options');
}

/** world.closestObject(point, maxDistance?, options?) */
export function closestObject(state, point, maxDistance, options) {
  const w = live(state);
  const f = readOptions(state, maxDistance, options);
  const qs = state.query;
  if (qs.near === undefined) {
    qs.near = { p: new Float32Array(3), q: new Float64Array(3),
      out: { index: new Int32Array(1), distance: new Float32Array(1), point: new Float32Array(3) } };
  }
  const nq = qs.near;
  readVector(point, 'point', nq.q, 0);
  nq.p.set(nq.q);
  const o = coreOptions(state, f, 1);
  const md = maxDistance === undefined ? Infinity : maxDistance;
  const r = withDisabled(state, f, () => w.closestObjects(nq.p, md, nq.out, o));
  const k = r.index[0];
  if (k < 0) return null;
  const hit = nameEntry(state, k, {});
  hit.distance = r.distance[0];
  hit.point = new Vector3(r.point[0], r.point[1], r.point[2]);
  return hit;
}

function outArr(target, key, Type, length) {
  const a = target === undefined || target === null ? undefined : target[key];
  if (a === undefined) return new Type(length);
  if (!(a instanceof Type)) fail(`options.target.${key} must be a ${Type.name}`, `options.target.${key}`);
  if (a.length < length) fail(`options.target.${key} must hold at least ${length} items; it holds ${a.length}`, `options.target.${key}`);
  return a;
}

/** world.closestObjects(points, maxDistance?, options?): 3 floats per point. */
export function closestObjects(state, points, maxDistance, options) {
  const w = live(state);
  const f = readOptions(state, maxDistance, options);
  if (!(points instanceof Float32Array || points instanceof Float64Array || Array.isArray(points))) {
    fail('points must be a Float32Array (3 floats per point)', 'points');
  }
  if (points.length % 3 !== 0) fail(`points must hold 3 floats per point; its length ${points.length} is not a multiple of 3`, 'points');
  const n = points.length / 3;
  const target = options === undefined || options === null ? undefined : options.target;
  if (target !== undefined && target !== null && typeof target !== 'object') fail('options.target must be an object', 'options.target');
  const out = {
    index: outArr(target, 'index', Int32Array, n),
    distance: outArr(target, 'distance', Float32Array, n),
    point: outArr(target, 'point', Float32Array, 3 * n),
  };
  const instanceId = outArr(target, 'instanceId', Int32Array, n);
  const o = coreOptions(state, f, n);
  const md = maxDistance === undefined ? Infinity : maxDistance;
  const r = withDisabled(state, f, () => w.closestObjects(points, md, out, o));
  const { index } = r;
  for (let i = 0; i < n; i++) {
    const k = index[i];
    instanceId[i] = k < 0 ? -1 : state.inst[k];
  }
  return attachObjects(state, { index, instanceId, distance: r.distance, point: r.point }, target, n);
}
