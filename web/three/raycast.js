// slabcast/three, raycast: the query API in three.js's terms. Reads a Raycaster (ray, near, far,
// layers) or a batch of Rays, casts them through the core world with layers.mask as the query
// mask (the core skips meshes that fail three.js's layers test, and disabled entries), and turns
// the core's hits into what Raycaster.intersectObjects returns ({ distance, point, object,
// face: { normal }, instanceId / batchId }, plus index, box and worldNormal), keeping only hits
// whose entry distance is within [near, far]. exclude and inside (filters.js) go to the core:
// with inside 'exit' a ray starting in an entry hits it where it leaves it (distance, point and
// the exit face's outward normal), and near / far then apply to that distance.

import { Vector3 } from 'three';
import { checkOptionKeys } from '../core/validate.js';
import { fail, isNum } from './errors.js';
import { coreOptions, readFilterOptions, readLayers, withDisabled } from './filters.js';
import { K_BOUND, K_CAPSULE, K_SPHERE } from './shapes.js';
import { live } from './sync.js';
import { attachObjects } from './results.js';
import { readVector } from './overlaps.js';

/** Scratch for the queries of one world (state.query). */
export function createQueryScratch() {
  return {
    ray7: new Float32Array(7), // the current ray as the core takes it (origin, direction, tmax)
    allOut: { t: new Float32Array(64), index: new Int32Array(64), normal: new Float32Array(192) },
    one: { t: new Float32Array(1), index: new Int32Array(1), normal: new Float32Array(3) },
    q: new Float64Array(6), // origin, direction of the current query (float64)
    hit: { k: -1, t: 0, n0: 0, n1: 0, n2: 0 }, // castRays: the hit kept for one ray
    opts: null, // the core's query options for one ray (filters.js's coreOptions)
    lens: new Float64Array(0), // castRays: each ray's direction length
    flat: new Float32Array(0), // castRays: the rays as the core takes them
    batch: { t: new Float32Array(0), index: new Int32Array(0), normal: new Float32Array(0) }, // castRays: the core's results
  };
}

/** |(x, y, z)| (sqrt of the sum of squares: Math.hypot is several times slower in V8). */
export function norm3(x, y, z) {
  return Math.sqrt(x * x + y * y + z * z);
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);
/** The smallest float32 >= x (x >= 0 or +Infinity). */
function f32Up(x) {
  const f = Math.fround(x);
  if (f >= x || f === Infinity) return f;
  f32Scratch[0] = f;
  u32Scratch[0] += 1;
  return f32Scratch[0];
}

/**
 * near, far and layers of a raycaster or castRays options (prefix names them in errors), as
 * { near, far, mask, boxesOnly, f }: mask is the core query mask (layers.mask; every bit
 * without layers). layers.mask 0 passes no mesh, yet Box3 entries still count: then boxesOnly
 * is set and the query mask is every bit. f is the filter (filters.js) of layers and of
 * exclude / inside, read from ex (the options of intersect / intersectFirst; o itself for castRays).
 */
function readLimits(state, o, prefix, ex, exPrefix) {
  const near = o.near === undefined ? 0 : o.near;
  const far = o.far === undefined ? Infinity : o.far;
  if (!isNum(near) || !(near >= 0)) fail(`${prefix}.near must be a number >= 0`, `${prefix}.near`);
  if (!isNum(far) || !(far >= 0)) fail(`${prefix}.far must be a number >= 0 (or Infinity)`, `${prefix}.far`);
  const lay = readLayers(o, prefix);
  const f = readFilterOptions(state, { exclude: ex.exclude, inside: ex.inside }, exPrefix);
  f.mask = lay.mask;
  f.boxesOnly = lay.boxesOnly;
  return { near, far, mask: f.mask, boxesOnly: f.boxesOnly, f };
}

/** intersect / intersectFirst's options ({exclude?, inside?}), checked. */
function readRayOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) fail('options must be an object ({exclude?, inside?})', 'options');
  checkOptionKeys(options, ['exclude', 'inside']);
  return options;
}

/** Checks a raycaster-like; fills q, ray7, opts; returns {near, far, mask, boxesOnly, len, f}. */
export function readRaycaster(state, qs, rc, options) {
  if (rc === null || typeof rc !== 'object') fail('raycaster must be a Raycaster (or {ray, near?, far?, layers?})', 'raycaster');
  const ray = rc.ray;
  if (ray === null || typeof ray !== 'object') fail('raycaster.ray must be a Ray', 'raycaster.ray');
  readVector(ray.origin, 'raycaster.ray.origin', qs.q, 0);
  readVector(ray.direction, 'raycaster.ray.direction', qs.q, 3);
  const p = readLimits(state, rc, 'raycaster', readRayOptions(options), 'options');
  prepare(qs, p, 'raycaster.ray.direction');
  qs.opts = coreOptions(state, p.f, 1);
  return p;
}

/** From q: the float32 ray (tmax from far) in ray7; p (readLimits') with len, the direction's length. */
function prepare(qs, p, dirField) {
  const { q, ray7 } = qs;
  const len = norm3(q[3], q[4], q[5]);
  for (let a = 0; a < 6; a++) ray7[a] = q[a];
  if (ray7[3] === 0 && ray7[4] === 0 && ray7[5] === 0) fail(`${dirField} is zero (in float32)`, dirField);
  ray7[6] = f32Up(p.far / len);
  p.len = len;
  return p;
}

/**
 * Whether a hit of entry k at distance counts: within [near, far], and a Box3 entry when
 * layers.mask is 0. (The core skips inactive entries and meshes outside the layers.)
 */
export function accepts(state, k, distance, p) {
  if (distance < p.near || distance > p.far) return false;
  return !p.boxesOnly || state.isBox[k];
}

/** All hits of the ray in ray7 (in state.query.allOut) under the query options, count returned. */
function castAll(qs, w) {
  let r = w.castRayAll(qs.ray7, qs.allOut, qs.opts);
  if (r.count > qs.allOut.t.length) {
    const c = r.count;
    qs.allOut = { t: new Float32Array(c), index: new Int32Array(c), normal: new Float32Array(3 * c) };
    r = w.castRayAll(qs.ray7, qs.allOut, qs.opts);
  }
  return r.count;
}

/** The Intersection for entry k hit at parameter t with world normal (nx, ny, nz). */
export function makeHit(state, k, t, nx, ny, nz, p) {
  const q = state.query.q;
  const point = new Vector3(q[0] + t * q[3], q[1] + t * q[4], q[2] + t * q[5]);
  const worldNormal = new Vector3(nx, ny, nz);
  const normal = new Vector3();
  if (state.isBox[k] || (nx === 0 && ny === 0 && nz === 0)) normal.copy(worldNormal);
  else localNormal(state, k, nx, ny, nz, normal);
  const hit = {
    distance: t * p.len,
    point,
    object: state.isBox[k] ? null : state.entries[k],
    face: { normal },
    worldNormal,
    index: k,
    box: state.isBox[k] ? state.entries[k] : null,
  };
  // an instance: three.js's instanceId (InstancedMesh) or batchId (BatchedMesh)
  const id = state.inst[k];
  if (id >= 0) {
    if (state.entries[k].isBatchedMesh) hit.batchId = id;
    else hit.instanceId = id;
  }
  return hit;
}

/** Mesh k's face normal in local space for world normal n: proportional to M^T n. */
function localNormal(state, k, nx, ny, nz, normal) {
  const L = state.linear; // M, the linear part of matrixWorld, row-major
  const o = 9 * k;
  const lx = L[o] * nx + L[o + 3] * ny + L[o + 6] * nz;
  const ly = L[o + 1] * nx + L[o + 4] * ny + L[o + 7] * nz;
  const lz = L[o + 2] * nx + L[o + 5] * ny + L[o + 8] * nz;
  if (state.kinds[k] === K_BOUND || state.kinds[k] === K_SPHERE || state.kinds[k] === K_CAPSULE) {
    normal.set(lx, ly, lz).normalize();
    return;
  }
  // a face of the local box: exactly an axis
  const ax = Math.abs(lx);
  const ay = Math.abs(ly);
  const az = Math.abs(lz);
  if (ax >= ay && ax >= az) normal.set(Math.sign(lx), 0, 0);
  else if (ay >= az) normal.set(0, Math.sign(ly), 0);
  else normal.set(0, 0, Math.sign(lz));
}

/**
 * world.intersect(raycaster, target = [], options?): every accepted hit, appended, sorted by
 * distance. A plain object in place of target is the options.
 */
export function intersect(state, raycaster, target = [], options = undefined) {
  const w = live(state);
  if (target !== null && typeof target === 'object' && !Array.isArray(target) && options === undefined) {
    options = target;
    target = [];
  }
  if (target === null || target === undefined) target = [];
  if (!Array.isArray(target)) fail('target must be an array', 'target');
  const qs = state.query;
  const p = readRaycaster(state, qs, raycaster, options);
  const before = target.length;
  if (!(p.near <= p.far)) return target;
  const count = withDisabled(state, p.f, () => castAll(qs, w));
  const { t, index, normal } = qs.allOut;
  for (let i = 0; i < count; i++) {
    const k = index[i];
    if (!accepts(state, k, t[i] * p.len, p)) continue;
    target.push(makeHit(state, k, t[i], normal[3 * i], normal[3 * i + 1], normal[3 * i + 2], p));
  }
  if (before > 0 && target.length > before) target.sort((a, b) => a.distance - b.distance);
  return target;
}

/** world.intersectFirst(raycaster, options?): the nearest accepted hit, or null. */
export function intersectFirst(state, raycaster, options) {
  live(state);
  const qs = state.query;
  const p = readRaycaster(state, qs, raycaster, options);
  if (!(p.near <= p.far)) return null;
  return withDisabled(state, p.f, () => firstAccepted(state, qs, p));
}

function firstAccepted(state, qs, p) {
  const w = live(state);
  const one = qs.one;
  w.castRays(qs.ray7, one, qs.opts);
  const k = one.index[0];
  if (k < 0) return null;
  if (accepts(state, k, one.t[0] * p.len, p)) return makeHit(state, k, one.t[0], one.normal[0], one.normal[1], one.normal[2], p);
  // the nearest is filtered out (before near, or a mesh when layers.mask is 0): the first that is not
  const count = castAll(qs, w);
  const { t, index, normal } = qs.allOut;
  for (let i = 0; i < count; i++) {
    if (accepts(state, index[i], t[i] * p.len, p)) return makeHit(state, index[i], t[i], normal[3 * i], normal[3 * i + 1], normal[3 * i + 2], p);
  }
  return null;
}

/**
 * world.castRays(rays, { near, far, layers, target }): the nearest accepted hit of each ray,
 * as { distance, index, instanceId, point, normal } arrays (index and instanceId -1 and
 * distance Infinity for none).
 */
export function castRays(state, rays, opts = {}) {
  const w = live(state);
  const { p, target } = readCastOptions(state, opts);
  const { nr, src } = readRays(rays);
  const out = castOutputs(target, nr);
  const qs = state.query;
  const { flat, lens } = flattenRays(qs, src, nr, p.far);
  const optsN = coreOptions(state, p.f, nr);
  qs.opts = coreOptions(state, p.f, 1); // for castAll (one ray)
  withDisabled(state, p.f, () => {
    const res = w.castRays(flat, batchOut(qs, nr), optsN);
    const hit = qs.hit;
    for (let i = 0; i < nr; i++) {
      p.len = lens[i];
      nearestAccepted(state, w, res, i, src, flat, p, hit);
      writeRay(state, out, i, hit, src, lens[i]);
    }
  });
  return attachObjects(state, out, target, nr);
}

const CAST_OPTION_KEYS = ['near', 'far', 'layers', 'exclude', 'inside', 'target'];

export function readCastOptions(state, opts) {
  if (opts === null || typeof opts !== 'object') fail('options must be an object ({near?, far?, layers?, exclude?, inside?, target?})', 'options');
  checkOptionKeys(opts, CAST_OPTION_KEYS);
  const p = readLimits(state, opts, 'options', opts, 'options');
  const target = opts.target;
  if (target !== undefined && target !== null && typeof target !== 'object') fail('options.target must be an object', 'options.target');
  return { p, target };
}

/** The rays (6 per ray: origin, direction): a typed array as is, Rays read once into float64. */
export function readRays(rays) {
  if (rays instanceof Float32Array || rays instanceof Float64Array) {
    if (rays.length % 6 !== 0) fail(`rays must hold 6 floats per ray (origin, direction); its length ${rays.length} is not a multiple of 6`, 'rays');
    return { nr: rays.length / 6, src: rays };
  }
  if (!Array.isArray(rays)) fail('rays must be an array of Ray or a Float32Array (6 floats per ray)', 'rays');
  const nr = rays.length;
  const src = new Float64Array(6 * nr);
  for (let i = 0; i < nr; i++) {
    const r = rays[i];
    if (r === null || typeof r !== 'object') fail(`rays[${i}] must be a Ray`, `rays[${i}]`);
    readVector(r.origin, `rays[${i}].origin`, src, 6 * i);
    readVector(r.direction, `rays[${i}].direction`, src, 6 * i + 3);
  }
  return { nr, src };
}

function outArr(target, key, Type, length) {
  const a = target === undefined || target === null ? undefined : target[key];
  if (a === undefined) return new Type(length);
  if (!(a instanceof Type)) fail(`options.target.${key} must be a ${Type.name}`, `options.target.${key}`);
  if (a.length < length) fail(`options.target.${key} must hold at least ${length} items; it holds ${a.length}`, `options.target.${key}`);
  return a;
}

/** The output arrays: the caller's (checked: types, lengths, no two overlapping) or new ones. */
export function castOutputs(target, nr) {
  const distance = outArr(target, 'distance', Float32Array, nr);
  const index = outArr(target, 'index', Int32Array, nr);
  const instanceId = outArr(target, 'instanceId', Int32Array, nr);
  const point = outArr(target, 'point', Float32Array, 3 * nr);
  const normal = outArr(target, 'normal', Float32Array, 3 * nr);
  const outs = [['distance', distance], ['index', index], ['instanceId', instanceId], ['point', point], ['normal', normal]];
  for (let i = 0; i < outs.length; i++) {
    for (let j = i + 1; j < outs.length; j++) {
      const a = outs[i][1];
      const b = outs[j][1];
      if (a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength) {
        fail(`options.target.${outs[i][0]} and options.target.${outs[j][0]} overlap`, `options.target.${outs[j][0]}`);
      }
    }
  }
  return { distance, index, instanceId, point, normal };
}

/** The core's results for nr rays: the world's scratch arrays (grown as needed). */
function batchOut(qs, nr) {
  const b = qs.batch;
  if (b.t.length !== nr) {
    b.t = new Float32Array(nr);
    b.index = new Int32Array(nr);
    b.normal = new Float32Array(3 * nr);
  }
  return b;
}

/** The core's 7 floats per ray (tmax from far) and each direction's length (the world's scratch). */
export function flattenRays(qs, src, nr, far) {
  if (qs.lens.length !== nr) {
    qs.lens = new Float64Array(nr);
    qs.flat = new Float32Array(7 * nr);
  }
  const lens = qs.lens;
  const flat = qs.flat;
  for (let i = 0; i < nr; i++) {
    const o = 6 * i;
    for (let a = 0; a < 6; a++) {
      if (!Number.isFinite(src[o + a])) fail(`rays[${i}] is not finite`, `rays[${i}]`);
      flat[7 * i + a] = src[o + a];
    }
    if (flat[7 * i + 3] === 0 && flat[7 * i + 4] === 0 && flat[7 * i + 5] === 0) fail(`rays[${i}]: the direction is zero (in float32)`, `rays[${i}]`);
    lens[i] = norm3(src[o + 3], src[o + 4], src[o + 5]);
    flat[7 * i + 6] = f32Up(far / lens[i]);
  }
  return { flat, lens };
}

/**
 * Into hit: ray i's nearest hit in res when accepted, else the first accepted of all its hits
 * (cast again), else k = -1.
 */
function nearestAccepted(state, w, res, i, src, flat, p, hit) {
  hit.k = res.index[i];
  hit.t = res.t[i];
  hit.n0 = res.normal[3 * i];
  hit.n1 = res.normal[3 * i + 1];
  hit.n2 = res.normal[3 * i + 2];
  const { near, far } = p;
  if (!(hit.k >= 0 && !(near <= far && accepts(state, hit.k, hit.t * p.len, p)))) return;
  hit.k = -1;
  if (!(near <= far)) return;
  const qs = state.query;
  for (let a = 0; a < 6; a++) qs.q[a] = src[6 * i + a];
  for (let a = 0; a < 7; a++) qs.ray7[a] = flat[7 * i + a];
  const count = castAll(qs, w);
  const all = qs.allOut;
  for (let j = 0; j < count; j++) {
    if (accepts(state, all.index[j], all.t[j] * p.len, p)) {
      hit.k = all.index[j];
      hit.t = all.t[j];
      hit.n0 = all.normal[3 * j];
      hit.n1 = all.normal[3 * j + 1];
      hit.n2 = all.normal[3 * j + 2];
      return;
    }
  }
}

/** Ray i's result (hit, or none when hit.k < 0) into the output arrays. */
export function writeRay(state, out, i, hit, src, len) {
  const { distance, index, instanceId, point, normal } = out;
  index[i] = hit.k;
  instanceId[i] = hit.k < 0 ? -1 : state.inst[hit.k];
  if (hit.k < 0) {
    distance[i] = Infinity;
    point.fill(0, 3 * i, 3 * i + 3);
    normal.fill(0, 3 * i, 3 * i + 3);
    return;
  }
  const o = 6 * i;
  const t = hit.t;
  distance[i] = t * len;
  point[3 * i] = src[o] + t * src[o + 3];
  point[3 * i + 1] = src[o + 1] + t * src[o + 4];
  point[3 * i + 2] = src[o + 2] + t * src[o + 5];
  normal[3 * i] = hit.n0;
  normal[3 * i + 1] = hit.n1;
  normal[3 * i + 2] = hit.n2;
}
