// slabcast/three, sweeps: "can this sphere / box move along this direction, and where does it
// first touch something". The shape's centre follows origin + s * direction / |direction|:
// distances are in world units whatever the direction's length (s = t * |direction| from the
// core's parameter t), and maxDistance bounds s. The box is axis-aligned (world axes; half
// extents a Vector3). The core computes the first contact in double precision from the float32
// inputs (docs/semantics.md, Sweeps); a shape touching an object at the start hits it at distance
// 0 with a zero normal (inside: 'skip' ignores those objects; 'exit' acts as 'solid').
// A capsule (the points within radius of the segment start-end) moves as a whole: start and end
// both follow + s * direction / |direction|.
//   single: castSphere / castBox / castCapsule -> { object, index, box, instanceId, batchId,
//           distance, point (the contact point on the object), normal (the object's outward unit
//           normal there, pointing at the moving shape) } or null;
//   batched: castSpheres / castBoxes / castCapsules on the core's layout (8 / 10 / 11 floats per
//           sweep: origin, direction, tmax, radius / half extents; a capsule's: a xyz, b xyz,
//           direction, tmax, radius; tmax in units of the direction, as the core takes it)
//           -> { distance, index, instanceId, point, normal, objects }.

import { checkOptionKeys } from '../core/validate.js';
import { fail, isNum } from './errors.js';
import { coreOptions, readFilterOptions, withDisabled } from './filters.js';
import { readVector } from './overlaps.js';
import { attachObjects, nameEntry } from './results.js';
import { live } from './sync.js';
import { Vector3 } from 'three';
import { norm3 } from './raycast.js';

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);
/** The smallest float32 >= x (x >= 0 or +Infinity). */
export function f32Up(x) {
  const f = Math.fround(x);
  if (f >= x || f === Infinity) return f;
  f32Scratch[0] = f;
  u32Scratch[0] += 1;
  return f32Scratch[0];
}

function readSweepOptions(state, options) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) fail('options must be an object ({maxDistance?, layers?, exclude?, inside?})', 'options');
  checkOptionKeys(options, ['maxDistance', 'layers', 'exclude', 'inside']);
  const f = readFilterOptions(state, options, 'options');
  const max = options.maxDistance === undefined ? Infinity : options.maxDistance;
  if (!isNum(max) || !(max >= 0)) fail('options.maxDistance must be a number >= 0 (or Infinity)', 'options.maxDistance');
  return { f, max };
}

/** The sweep kinds: floats per sweep, where the direction starts, the core's batch method. */
export const SWEEP = {
  sphere: { per: 8, dir: 3, method: 'castSpheres' },
  box: { per: 10, dir: 3, method: 'castBoxes' },
  capsule: { per: 11, dir: 6, method: 'castCapsules' },
};

function sweepScratch(state) {
  const qs = state.query;
  if (qs.sweep === undefined) {
    qs.sweep = { sphere: new Float32Array(8), box: new Float32Array(10), capsule: new Float32Array(11), q: new Float64Array(9),
      out: { t: new Float32Array(1), index: new Int32Array(1), normal: new Float32Array(3), point: new Float32Array(3) } };
  }
  return qs.sweep;
}

/** Reads a radius (finite, >= 0); throws naming it. */
function readRadius(r) {
  if (!isNum(r) || !(r >= 0) || r === Infinity) fail('radius must be a finite number >= 0', 'radius');
  return r;
}

/**
 * Reads one sweep of kind ('sphere': size is the radius; 'box': half extents) into the core's
 * floats (the world's scratch); returns { a, len, max, f, o }: the floats, the direction's
 * length, maxDistance, the filter and the core options.
 */
export function readSingle(state, kind, origin, direction, size, options) {
  if (kind === 'capsule') return readCapsule(state, origin, direction, size, options);
  const box = kind === 'box';
  const { f, max } = readSweepOptions(state, options);
  const sw = sweepScratch(state);
  const a = sw[kind];
  readVector(origin, 'origin', sw.q, 0);
  readVector(direction, 'direction', sw.q, 3);
  for (let i = 0; i < 6; i++) a[i] = sw.q[i];
  if (a[3] === 0 && a[4] === 0 && a[5] === 0) fail('direction is zero (in float32)', 'direction');
  const len = norm3(sw.q[3], sw.q[4], sw.q[5]);
  a[6] = f32Up(max / len);
  if (box) {
    readVector(size, 'halfExtents', sw.q, 0);
    for (let i = 0; i < 3; i++) {
      if (!(sw.q[i] >= 0)) fail('halfExtents must be >= 0', 'halfExtents');
      a[7 + i] = sw.q[i];
    }
  } else {
    a[7] = readRadius(size);
  }
  return { a, len, max, f, o: coreOptions(state, f, 1) };
}

/** readSingle for a capsule: c = { start, end, radius } (Vector3, Vector3, number). */
function readCapsule(state, c, direction, _unused, options) {
  const { f, max } = readSweepOptions(state, options);
  const sw = sweepScratch(state);
  const a = sw.capsule;
  readVector(c.start, 'start', sw.q, 0);
  readVector(c.end, 'end', sw.q, 3);
  readVector(direction, 'direction', sw.q, 6);
  for (let i = 0; i < 9; i++) a[i] = sw.q[i];
  if (a[6] === 0 && a[7] === 0 && a[8] === 0) fail('direction is zero (in float32)', 'direction');
  const len = norm3(sw.q[6], sw.q[7], sw.q[8]);
  a[9] = f32Up(max / len);
  a[10] = readRadius(c.radius);
  return { a, len, max, f, o: coreOptions(state, f, 1) };
}

/** The single sweep's hit from the core's result r (one sweep), or null. */
export function singleHit(state, r, len, max) {
  const k = r.index[0];
  if (k < 0) return null;
  const distance = r.t[0] * len;
  if (distance > max) return null; // (tmax was rounded up to a float32)
  const hit = nameEntry(state, k, {});
  hit.distance = distance;
  hit.point = new Vector3(r.point[0], r.point[1], r.point[2]);
  hit.normal = new Vector3(r.normal[0], r.normal[1], r.normal[2]);
  return hit;
}

function single(state, kind, origin, direction, size, options) {
  const w = live(state);
  const { a, len, max, f, o } = readSingle(state, kind, origin, direction, size, options);
  const out = state.query.sweep.out;
  const method = SWEEP[kind].method;
  const r = withDisabled(state, f, () => w[method](a, out, o));
  return singleHit(state, r, len, max);
}

/** world.castSphere(origin, direction, radius, options?) */
export function castSphere(state, origin, direction, radius, options) {
  return single(state, 'sphere', origin, direction, radius, options);
}

/** world.castBox(origin, direction, halfExtents, options?) */
export function castBox(state, origin, direction, halfExtents, options) {
  return single(state, 'box', origin, direction, halfExtents, options);
}

/** world.castCapsule(start, end, radius, direction, options?) */
export function castCapsule(state, start, end, radius, direction, options) {
  return single(state, 'capsule', { start, end, radius }, direction, undefined, options);
}

function outArr(target, key, Type, length) {
  const a = target === undefined || target === null ? undefined : target[key];
  if (a === undefined) return new Type(length);
  if (!(a instanceof Type)) fail(`options.target.${key} must be a ${Type.name}`, `options.target.${key}`);
  if (a.length < length) fail(`options.target.${key} must hold at least ${length} items; it holds ${a.length}`, `options.target.${key}`);
  return a;
}

/**
 * Reads a batch of sweeps and its options: { per, n, f, o, target, distance, instanceId, lens }
 * (lens: each direction's length, read now).
 */
export function readBatch(state, kind, sweeps, options) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) fail('options must be an object ({layers?, exclude?, inside?, target?})', 'options');
  if (options.maxDistance !== undefined) fail('options.maxDistance: a batch carries tmax in each sweep (the core\'s layout)', 'options.maxDistance');
  checkOptionKeys(options, ['layers', 'exclude', 'inside', 'target']);
  const f = readFilterOptions(state, options, 'options');
  const { per, dir } = SWEEP[kind];
  if (!(sweeps instanceof Float32Array || sweeps instanceof Float64Array || Array.isArray(sweeps))) {
    fail(`sweeps must be a Float32Array (${per} floats per sweep)`, 'sweeps');
  }
  if (sweeps.length % per !== 0) fail(`sweeps must hold ${per} floats per sweep; its length ${sweeps.length} is not a multiple of ${per}`, 'sweeps');
  const n = sweeps.length / per;
  const target = options.target;
  if (target !== undefined && target !== null && typeof target !== 'object') fail('options.target must be an object', 'options.target');
  const qs = state.query;
  if (qs.sweepLen === undefined || qs.sweepLen.length !== n) qs.sweepLen = new Float64Array(n);
  const lens = qs.sweepLen;
  for (let i = 0; i < n; i++) {
    const b = per * i;
    lens[i] = norm3(sweeps[b + dir], sweeps[b + dir + 1], sweeps[b + dir + 2]);
  }
  return {
    per, n, f, o: coreOptions(state, f, n), target, lens,
    distance: outArr(target, 'distance', Float32Array, n),
    instanceId: outArr(target, 'instanceId', Int32Array, n),
  };
}

/** The batch result from the core's r (t, index, normal, point) and what readBatch read. */
export function batchResult(state, r, b) {
  const { n, distance, instanceId, lens, target } = b;
  const { t, index } = r;
  const inst = state.inst;
  for (let i = 0; i < n; i++) {
    const k = index[i];
    distance[i] = k < 0 ? Infinity : t[i] * lens[i];
    instanceId[i] = k < 0 ? -1 : inst[k];
  }
  return attachObjects(state, { distance, index: r.index, instanceId, point: r.point, normal: r.normal }, target, n);
}

/** The caller's target arrays (or new ones) for the core's outputs; t is the world's scratch. */
export function batchOutputs(state, b, scratchT) {
  const { n, target } = b;
  const qs = state.query;
  let t;
  if (scratchT) {
    if (qs.sweepT === undefined || qs.sweepT.length < n) qs.sweepT = new Float32Array(Math.max(n, 1));
    t = qs.sweepT.length === n ? qs.sweepT : qs.sweepT.subarray(0, n);
  } else {
    t = new Float32Array(n);
  }
  return {
    t,
    index: outArr(target, 'index', Int32Array, n),
    normal: outArr(target, 'normal', Float32Array, 3 * n),
    point: outArr(target, 'point', Float32Array, 3 * n),
  };
}

/** The batched sweeps: the core's batch as is, the distances in world units, the objects. */
function batch(state, kind, sweeps, options) {
  const w = live(state);
  const b = readBatch(state, kind, sweeps, options);
  const out = batchOutputs(state, b, true);
  const method = SWEEP[kind].method;
  const r = withDisabled(state, b.f, () => w[method](sweeps, out, b.o));
  return batchResult(state, r, b);
}

/** world.castSpheres(sweeps, options?): 8 floats per sweep (origin, direction, tmax, radius). */
export function castSpheres(state, sweeps, options) {
  return batch(state, 'sphere', sweeps, options);
}

/** world.castBoxes(sweeps, options?): 10 floats per sweep (origin, direction, tmax, half extents). */
export function castBoxes(state, sweeps, options) {
  return batch(state, 'box', sweeps, options);
}

/** world.castCapsules(sweeps, options?): 11 floats per sweep (a, b, direction, tmax, radius). */
export function castCapsules(state, sweeps, options) {
  return batch(state, 'capsule', sweeps, options);
}
