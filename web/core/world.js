// world.js: a world of many AABBs, OBBs, spheres and capsules in wasm memory behind a BVH, answering
// batches of rays or segments in one call. Batches are checked (validate.js), copied into the
// core's staging area, cast, and the results copied out into fresh arrays or the caller's.
import { SlabcastError, fail, guardMethods } from './errors.js';
import { taCopy, taExact, taKind, taLength, taSet } from './typed.js';
import {
  batchItems, callerArray, checkOptionKeys, checkOut, floatBatch, givenOrNew, isPlainObject, outRef, requireDisjoint,
} from './validate.js';

const KIND = { aabb: 1, obb: 2, sphere: 3, capsule: 5 }; // sc_shape_type, as everywhere in the core
const FLOATS = { aabb: 6, obb: 15, sphere: 4, capsule: 7 };
const BATCH_NAME = { aabb: 'boxes', obb: 'obbs', sphere: 'spheres', capsule: 'capsules' };
const KIND_NAME = ['removed', 'aabb', 'obb', 'sphere', undefined, 'capsule'];
const INSIDE = { solid: 0, skip: 1, exit: 2 }; // sc_inside
const FILTER_BYTES = 12; // sc_query_filter in wasm32: uint32 mask, int32 *exclude, int32 inside
const MAX_INDEX = 0x7fffffff;

const OPTION_KEYS = ['mask', 'exclude', 'inside'];

/**
 * The query options {mask, exclude, inside}, read once (their getters and Proxy traps run here),
 * or null for none (the default filter, at no cost). An unknown key is refused. Nothing is checked
 * against the batch yet: checkFilter does that once the call has run all the caller's code.
 */
export function readOptions(options) {
  if (options === undefined || options === null) return null;
  if (!isPlainObject(options)) fail('options must be an object ({mask, exclude, inside})', 'options');
  checkOptionKeys(options, OPTION_KEYS);
  return { mask: options.mask, exclude: options.exclude, inside: options.inside };
}

/**
 * The options readOptions read (o, or null), checked for n rays (docs/semantics.md, "Filters")
 * and turned in place into the filter {mask, exclude, inside} written to wasm: mask a uint32,
 * exclude an Int32Array of n (copied now) or null, inside a number. Runs no caller code.
 */
export function checkFilter(w, o, n) {
  if (o === null) return null;
  const { mask, exclude, inside } = o;
  let m = 0xFFFFFFFF;
  if (mask !== undefined) {
    if (!Number.isInteger(mask) || mask < -0x80000000 || mask > 0xFFFFFFFF) {
      fail('options.mask must be a 32-bit integer (0 to 0xFFFFFFFF, or a negative int32 such as ~bits)', 'options.mask');
    }
    m = mask >>> 0;
  }
  let rule = 0;
  if (inside !== undefined) {
    if (typeof inside !== 'string' || !Object.hasOwn(INSIDE, inside)) fail('options.inside must be \'solid\', \'skip\' or \'exit\'', 'options.inside');
    rule = INSIDE[inside];
  }
  let ex = null;
  if (exclude !== undefined && exclude !== null) {
    if (taKind(exclude) !== 'Int32Array') fail('options.exclude must be an Int32Array (one object index per ray, -1 for none)', 'options.exclude');
    const have = taLength(exclude);
    if (have < n) fail(`options.exclude must hold at least ${n} items (one per ray); it holds ${have}`, 'options.exclude');
    ex = taCopy(exclude, Int32Array, 0, n);
    const count = w.core.call(w.core.ex.sc_wasm_world_count, w.ptr);
    for (let i = 0; i < n; i++) {
      const v = ex[i];
      if (v < -1 || v >= count) fail(`options.exclude[${i}] is ${v}: not -1 or an object index (the world has ${count})`, 'options.exclude');
    }
  }
  o.mask = m;
  o.exclude = ex;
  o.inside = rule;
  return o;
}

/** Bytes a filter needs in the staging area (0 for none). */
const filterBytes = (f) => (f === null ? 0 : FILTER_BYTES + (f.exclude === null ? 0 : 4 * taLength(f.exclude)));

/** Writes filter f at byte address p (4-aligned) of the core's memory; returns p, or 0 for none. */
function writeFilter(core, f, p) {
  if (f === null) return 0;
  const w = p >> 2;
  core.i32[w] = f.mask | 0;
  core.i32[w + 1] = f.exclude === null ? 0 : p + FILTER_BYTES;
  core.i32[w + 2] = f.inside;
  if (f.exclude !== null) taSet(core.i32, f.exclude, w + 3);
  return p;
}

/** The WorldState behind each World handle, for web/parallel/ (worldState). */
const states = new WeakMap();

/** The state ({core, ptr, ...}) of a World that createWorld returned; undefined for anything else. */
export const worldState = (api) => states.get(api);

/** Frees the world of a garbage-collected handle that was never disposed. */
const registries = new WeakMap();
function registryOf(core) {
  if (typeof FinalizationRegistry !== 'function') return null;
  let r = registries.get(core);
  if (r === undefined) {
    const destroy = core.ex.sc_wasm_world_destroy;
    r = new FinalizationRegistry((ptr) => { try { destroy(ptr); } catch { /* ignore */ } });
    registries.set(core, r);
  }
  return r;
}

/** The state of one world handle: its core, its sc_world pointer (0 once disposed), its lock. */
class WorldState {
  constructor(core, ptr) {
    this.core = core;
    this.ptr = ptr;
    this.token = {};
    this.busy = null;
  }

  /** The world's pointer, or a SlabcastError once it is disposed. */
  live() {
    if (this.ptr === 0) throw new SlabcastError('the world has been disposed');
    return this.ptr;
  }

  /** Throws for a status other than SC_OK, naming the batch item the core reported. */
  check(status, name) {
    throwStatus(this.core, status, name);
  }

  /** Checks a float batch against this core's memory. */
  batch(data, per, name) {
    return floatBatch(data, per, name, this.core.memory);
  }

  /**
   * The lock: while one of the world's calls runs, a getter, Proxy trap or callback of the
   * call's own input that reaches this world again (dispose, add, update, another query) is
   * refused before it changes anything, so no call ever runs on memory freed or moved under it.
   * `disposed` stays readable.
   */
  enter(key) {
    if (key === 'disposed') return false;
    if (this.busy !== null) {
      throw new SlabcastError(`world.${key}: the world is busy: called from inside world.${this.busy} ` +
        '(a getter, Proxy or callback of its input); nothing was changed', { field: key });
    }
    this.busy = key;
    return true;
  }

  leave() { this.busy = null; }
}

/** Throws the SlabcastError of a status other than SC_OK, naming the batch item the core reported. */
function throwStatus(core, status, name) {
  if (status === 0) return;
  const i = core.call(core.ex.sc_wasm_error_index);
  const where = i >= 0 ? `${name}[${i}]: ` : `${name}: `;
  throw new SlabcastError(where + core.statusMessage(status), { status, field: name });
}

/**
 * The core's checks of a batch query's items, without running it (sc_wasm_check_batch): op as
 * web/parallel/protocol.js's QUERY; the n items already at byte address ptr of core's memory.
 * Throws the error the World's query would throw for its first bad item. For slabcast/parallel,
 * which refuses bad items before any worker sees them.
 */
export function checkBatchItems(core, op, ptr, n, name) {
  throwStatus(core, core.call(core.ex.sc_wasm_check_batch, op, ptr, n), name);
}

/** Copies count items of type Type (Float32Array or Int32Array) at byte address ptr into target. */
function copyOut(core, target, Type, ptr, count) {
  taSet(target, new Type(core.memory.buffer, ptr, count));
}

/**
 * Copies the first `floats` floats of a checked batch (all of it by default) into the staging
 * area, `extra` bytes after them; returns its address. Exactly that many are copied, even from a
 * buffer another thread grows meanwhile; the size is checked before anything is allocated.
 */
export function stageBatch(core, a, extra, floats = taLength(a)) {
  const p = core.stage(4 * floats + extra);
  core.views();
  taSet(core.f32, taExact(a, Float32Array, 0, floats), p >> 2);
  return p;
}

function add(w, kind, data) {
  const ptr = w.live();
  const core = w.core;
  const name = BATCH_NAME[kind];
  const a = w.batch(data, FLOATS[kind], name);
  const n = batchItems(a, FLOATS[kind], name);
  const p = stageBatch(core, a, 16, n * FLOATS[kind]);
  const firstPtr = p + 4 * n * FLOATS[kind];
  const status = core.call(core.ex.sc_wasm_world_add, ptr, KIND[kind], p, n, firstPtr);
  core.views();
  w.check(status, name);
  return n === 0 ? core.call(core.ex.sc_wasm_world_count, ptr) : core.i32[firstPtr >> 2];
}

function update(w, kind, first, data) {
  const ptr = w.live();
  const core = w.core;
  const name = BATCH_NAME[kind];
  if (!Number.isInteger(first) || first < 0 || first > 0x7fffffff) fail('first must be an integer in [0, 2147483647]', 'first');
  const a = w.batch(data, FLOATS[kind], name);
  const n = batchItems(a, FLOATS[kind], name);
  const p = stageBatch(core, a, 0, n * FLOATS[kind]);
  const status = core.call(core.ex.sc_wasm_world_update, ptr, KIND[kind], first, p, n);
  core.views();
  w.check(status, name);
}

/** Runs a BVH maintenance export (commit, refit, build). */
function maintain(w, fn, name) {
  const ptr = w.live();
  w.check(w.core.call(fn, ptr), name);
  w.core.views();
}

/** Casts a batch (rays: 7 floats each, segments: 6) and copies t, index, normal out. */
function cast(w, fn, data, per, name, out, options) {
  const ptr = w.live();
  const core = w.core;
  // The caller's code (getters, Proxies of data, out, options) runs first, then every length is read.
  const a = w.batch(data, per, name);
  checkOut(out);
  const outT = outRef(out, 't');
  const outIndex = outRef(out, 'index');
  const outNormal = outRef(out, 'normal');
  const o = readOptions(options);
  const n = batchItems(a, per, name);
  const t = givenOrNew(outT, 't', Float32Array, n, core.memory);
  const index = givenOrNew(outIndex, 'index', Int32Array, n, core.memory);
  const normal = givenOrNew(outNormal, 'normal', Float32Array, 3 * n, core.memory);
  requireDisjoint([['t', t], ['index', index], ['normal', normal]]);
  const filter = checkFilter(w, o, n);
  const p = stageBatch(core, a, 20 * n + filterBytes(filter), per * n);
  const tPtr = p + 4 * per * n;
  const iPtr = tPtr + 4 * n;
  const nPtr = iPtr + 4 * n;
  const fPtr = writeFilter(core, filter, nPtr + 12 * n);
  const status = core.call(fn, ptr, p, n, tPtr, iPtr, nPtr, fPtr);
  core.views();
  w.check(status, name);
  copyOut(core, t, Float32Array, tPtr, n);
  copyOut(core, index, Int32Array, iPtr, n);
  copyOut(core, normal, Float32Array, nPtr, 3 * n);
  return { t, index, normal };
}

const SWEEP_FLOATS = [8, 10, 11]; // per sweep of kind 0 sphere, 1 box, 2 capsule (sc_wasm_world_sweeps)

/**
 * Sweeps a batch (kind 0 spheres: 8 floats each, 1 boxes: 10, 2 capsules: 11) and copies t,
 * index, normal, point out. out may hold any of the four arrays; the others are allocated.
 */
function sweep(w, kind, brute, data, out, options) {
  const ptr = w.live();
  const core = w.core;
  const per = SWEEP_FLOATS[kind];
  const a = w.batch(data, per, 'sweeps');
  checkOut(out, '{t, index, normal, point}');
  const refs = [outRef(out, 't'), outRef(out, 'index'), outRef(out, 'normal'), outRef(out, 'point')];
  const o = readOptions(options);
  const n = batchItems(a, per, 'sweeps');
  const t = givenOrNew(refs[0], 't', Float32Array, n, core.memory);
  const index = givenOrNew(refs[1], 'index', Int32Array, n, core.memory);
  const normal = givenOrNew(refs[2], 'normal', Float32Array, 3 * n, core.memory);
  const point = givenOrNew(refs[3], 'point', Float32Array, 3 * n, core.memory);
  requireDisjoint([['t', t], ['index', index], ['normal', normal], ['point', point]]);
  const filter = checkFilter(w, o, n);
  const p = stageBatch(core, a, 32 * n + filterBytes(filter), per * n);
  const tPtr = p + 4 * per * n;
  const iPtr = tPtr + 4 * n;
  const nPtr = iPtr + 4 * n;
  const qPtr = nPtr + 12 * n;
  const fPtr = writeFilter(core, filter, qPtr + 12 * n);
  const status = core.call(core.ex.sc_wasm_world_sweeps, ptr, kind, brute ? 1 : 0, p, n, tPtr, iPtr, nPtr, qPtr, fPtr);
  core.views();
  w.check(status, 'sweeps');
  copyOut(core, t, Float32Array, tPtr, n);
  copyOut(core, index, Int32Array, iPtr, n);
  copyOut(core, normal, Float32Array, nPtr, 3 * n);
  copyOut(core, point, Float32Array, qPtr, 3 * n);
  return { t, index, normal, point };
}

const OVERLAP = { aabb: [1, 6], sphere: [3, 4], obb: [2, 15], capsule: [5, 7], frustum: [0, 24] }; // [kind, floats]

/**
 * The objects overlapping a volume (floats: its OVERLAP layout), their indices ascending in out
 * (an Int32Array; only out.length are written); returns the total count.
 */
function overlap(w, kind, floats, name, out, options, brute) {
  const ptr = w.live();
  const core = w.core;
  const [k, per] = OVERLAP[kind];
  const a = w.batch(floats, per, name);
  const o = readOptions(options);
  if (taLength(a) !== per) fail(`${name} must hold ${per} numbers; it holds ${taLength(a)}`, name);
  // The count is at most the number of objects: room beyond that is never written (and a huge
  // out array must not size the staging area).
  const room = out === undefined || out === null ? 0 : taLength(callerArray(out, Int32Array, 'out', 0, core.memory));
  const cap = Math.min(room, core.call(core.ex.sc_wasm_world_count, ptr));
  const filter = checkFilter(w, o, 1);
  const p = stageBatch(core, a, 4 + 4 * cap + filterBytes(filter), per);
  const totalPtr = p + 4 * per;
  const oPtr = totalPtr + 4;
  const fPtr = writeFilter(core, filter, oPtr + 4 * cap);
  const status = core.call(core.ex.sc_wasm_world_overlap, ptr, k, p, oPtr, cap, totalPtr, fPtr, brute ? 1 : 0);
  core.views();
  w.check(status, name);
  const total = core.i32[totalPtr >> 2];
  if (cap > 0) copyOut(core, out, Int32Array, oPtr, Math.min(total, cap));
  return total;
}

/** A Vec3 argument (an array or typed array of 3 numbers), copied. */
function vec3Arg(v, name) {
  const kind = taKind(v);
  if (!(Array.isArray(v) || kind !== undefined) || (kind !== undefined ? taLength(v) : v.length) !== 3) {
    fail(`${name} must be an array of 3 numbers`, name);
  }
  const c = [v[0], v[1], v[2]];
  if (!c.every((x) => typeof x === 'number')) fail(`${name} must be an array of 3 numbers`, name);
  return c;
}

/** Per point (3 floats each), the nearest object within maxDistance: index, distance, point. */
function closestObjects(w, points, maxDistance, out, options, brute) {
  const ptr = w.live();
  const core = w.core;
  const a = w.batch(points, 3, 'points');
  if (typeof maxDistance !== 'number' || !(maxDistance >= 0)) fail('maxDistance must be a number >= 0 (Infinity for any distance)', 'maxDistance');
  checkOut(out, '{index, distance, point}');
  const refs = [outRef(out, 'index'), outRef(out, 'distance'), outRef(out, 'point')];
  const o = readOptions(options);
  const n = batchItems(a, 3, 'points');
  const index = givenOrNew(refs[0], 'index', Int32Array, n, core.memory);
  const distance = givenOrNew(refs[1], 'distance', Float32Array, n, core.memory);
  const point = givenOrNew(refs[2], 'point', Float32Array, 3 * n, core.memory);
  requireDisjoint([['index', index], ['distance', distance], ['point', point]]);
  const filter = checkFilter(w, o, n);
  const p = stageBatch(core, a, 20 * n + filterBytes(filter), 3 * n);
  const iPtr = p + 12 * n;
  const dPtr = iPtr + 4 * n;
  const qPtr = dPtr + 4 * n;
  const fPtr = writeFilter(core, filter, qPtr + 12 * n);
  const status = core.call(core.ex.sc_wasm_world_closest_objects, ptr, p, n, Math.fround(maxDistance), iPtr, dPtr, qPtr, fPtr, brute ? 1 : 0);
  core.views();
  w.check(status, 'points');
  copyOut(core, index, Int32Array, iPtr, n);
  copyOut(core, distance, Float32Array, dPtr, n);
  copyOut(core, point, Float32Array, qPtr, 3 * n);
  return { index, distance, point };
}

const ALL_TARGETS = [['t', Float32Array, 1], ['index', Int32Array, 1], ['normal', Float32Array, 3]];

/**
 * The caller's castRayAll arrays ([key, array] pairs, read by outRef before the options) checked,
 * and the hits they have room for (Infinity when none is given).
 */
function castAllTargets(core, refs) {
  const given = [];
  let room = Infinity;
  ALL_TARGETS.forEach(([key, Type, per], k) => {
    const v = refs[k];
    if (v === undefined) return;
    given.push([key, callerArray(v, Type, `out.${key}`, 0, core.memory)]);
    room = Math.min(room, Math.floor(taLength(v) / per));
  });
  requireDisjoint(given);
  return { given, room };
}

function castRayAll(w, ray, out, options) {
  const ptr = w.live();
  const core = w.core;
  const a = w.batch(ray, 7, 'ray');
  checkOut(out);
  const refs = ALL_TARGETS.map(([key]) => outRef(out, key));
  const o = readOptions(options);
  if (taLength(a) !== 7) fail(`ray must hold 7 floats (origin xyz, dir xyz, tmax); it holds ${taLength(a)}`, 'ray');
  const { given, room: fixedRoom } = castAllTargets(core, refs);
  const filter = checkFilter(w, o, 1);
  const fixed = fixedRoom !== Infinity;
  // At most every object is hit once: room beyond the count is never written.
  const objects = core.call(core.ex.sc_wasm_world_count, ptr);
  let room = fixed ? Math.min(fixedRoom, objects) : Math.min(16, objects); // grown to the count and cast again when short
  for (;;) {
    const p = stageBatch(core, a, 4 + 20 * room + filterBytes(filter), 7);
    const totalPtr = p + 28;
    const tPtr = p + 32;
    const iPtr = tPtr + 4 * room;
    const nPtr = iPtr + 4 * room;
    const fPtr = writeFilter(core, filter, nPtr + 12 * room);
    const status = core.call(core.ex.sc_wasm_world_cast_ray_all, ptr, p, room, tPtr, iPtr, nPtr, totalPtr, fPtr);
    core.views();
    w.check(status, 'ray');
    const count = core.i32[totalPtr >> 2];
    if (!fixed && count > room) { room = count; continue; }
    const m = Math.min(count, room);
    const res = Object.fromEntries(given);
    const t = res.t ?? new Float32Array(m);
    const index = res.index ?? new Int32Array(m);
    const normal = res.normal ?? new Float32Array(3 * m);
    copyOut(core, t, Float32Array, tPtr, m);
    copyOut(core, index, Int32Array, iPtr, m);
    copyOut(core, normal, Float32Array, nPtr, 3 * m);
    return { t, index, normal, count };
  }
}

function anyHit(w, rays, out, options) {
  const ptr = w.live();
  const core = w.core;
  const a = w.batch(rays, 7, 'rays');
  const o = readOptions(options);
  const n = batchItems(a, 7, 'rays');
  const hit = out === undefined || out === null ? new Uint8Array(n) : callerArray(out, Uint8Array, 'out', n, core.memory);
  const filter = checkFilter(w, o, n);
  const p = stageBatch(core, a, 4 * n + filterBytes(filter), 7 * n);
  const hPtr = p + 28 * n;
  const fPtr = writeFilter(core, filter, hPtr + 4 * n);
  const status = core.call(core.ex.sc_wasm_world_any_hit, ptr, p, n, hPtr, fPtr);
  core.views();
  w.check(status, 'rays');
  const i32 = core.i32;
  for (let i = 0; i < n; i++) hit[i] = i32[(hPtr >> 2) + i];
  return hit;
}

/** A non-negative int32 `name`, or a SlabcastError. */
function requireIndex(v, name) {
  if (!Number.isInteger(v) || v < 0 || v > MAX_INDEX) fail(`${name} must be an integer in [0, ${MAX_INDEX}]`, name);
  return v;
}

/** The number of objects of the world (removed ones included: the indices in use). */
const countOf = (w, ptr) => w.core.call(w.core.ex.sc_wasm_world_count, ptr);

/** ' (it has 3 objects)' for messages. */
const has = (count) => ` (it has ${count} object${count === 1 ? '' : 's'})`;

function remove(w, index) {
  const ptr = w.live();
  requireIndex(index, 'index');
  const count = countOf(w, ptr);
  if (index >= count) fail(`index ${index} is outside the world${has(count)}`, 'index');
  w.check(w.core.call(w.core.ex.sc_wasm_world_remove, ptr, index), 'index');
}

/**
 * Per-object values first.. from a typed array of kind Type (Uint8Array flags, Uint32Array
 * masks), copied into the staging area and passed to fn.
 */
function setRange(w, fn, first, values, Type, name) {
  const ptr = w.live();
  const core = w.core;
  requireIndex(first, 'first');
  if (taKind(values) !== Type.name) fail(`${name} must be a ${Type.name}`, name);
  const n = taLength(values);
  // Checked before anything is staged: a range past the world is refused without copying it.
  const count = countOf(w, ptr);
  if (first > count || n > count - first) {
    fail(`${name} holds ${n} value${n === 1 ? '' : 's'} for objects from ${first}: past the end of the world${has(count)}`, name);
  }
  const p = core.stage(Math.max(4, n * Type.BYTES_PER_ELEMENT));
  core.views();
  taSet(new Type(core.memory.buffer, p, n), taExact(values, Type, 0, n));
  const status = core.call(fn, ptr, first, p, n);
  core.views();
  w.check(status, name);
}

function kindOf(w, index) {
  const ptr = w.live();
  requireIndex(index, 'index');
  const k = w.core.call(w.core.ex.sc_wasm_world_kind, ptr, index);
  return index < w.core.call(w.core.ex.sc_wasm_world_count, ptr) ? KIND_NAME[k] : undefined;
}

function dispose(w) {
  if (w.ptr === 0) return;
  const p = w.ptr;
  w.ptr = 0;
  registryOf(w.core)?.unregister(w.token);
  w.core.call(w.core.ex.sc_wasm_world_destroy, p);
}

/** A new, empty world on `core`: the World of slabcast.d.ts. */
export function createWorld(core) {
  const ex = core.ex;
  if (typeof ex.sc_wasm_world_create !== 'function') throw new SlabcastError('this slabcast.wasm was built without worlds');
  const ptr = core.call(ex.sc_wasm_world_create) >>> 0;
  if (ptr === 0) throw new SlabcastError('out of memory: cannot create a world');
  const w = new WorldState(core, ptr);
  registryOf(core)?.register(w.token, ptr, w.token);

  const api = guardMethods({
    /** Adds AABBs (6 floats each: min xyz, max xyz); returns the index of the first. */
    addAABBs(boxes) { return add(w, 'aabb', boxes); },
    /** Adds OBBs (15 floats each: center, axes[0..2], half); returns the index of the first. */
    addOBBs(obbs) { return add(w, 'obb', obbs); },
    /** Adds spheres (4 floats each: center, radius); returns the index of the first. */
    addSpheres(spheres) { return add(w, 'sphere', spheres); },
    /** Adds capsules (7 floats each: a xyz, b xyz, radius); returns the index of the first. */
    addCapsules(capsules) { return add(w, 'capsule', capsules); },
    /** Replaces AABBs first.. (they must be AABBs). */
    updateAABBs(first, boxes) { update(w, 'aabb', first, boxes); },
    /** Replaces OBBs first.. (they must be OBBs). */
    updateOBBs(first, obbs) { update(w, 'obb', first, obbs); },
    /** Replaces spheres first.. (they must be spheres). */
    updateSpheres(first, spheres) { update(w, 'sphere', first, spheres); },
    /** Replaces capsules first.. (they must be capsules). */
    updateCapsules(first, capsules) { update(w, 'capsule', first, capsules); },
    /** Rebuilds the BVH after adds, refits it after updates (queries do it by themselves). */
    commit() { maintain(w, ex.sc_wasm_world_commit, 'commit'); },
    /** Refits the BVH to moved objects now (queries do it by themselves when needed). */
    refit() { maintain(w, ex.sc_wasm_world_refit, 'refit'); },
    /** Rebuilds the BVH now (queries do it by themselves after adds). */
    build() { maintain(w, ex.sc_wasm_world_build, 'build'); },
    /** Frees object index: never hit again; no other index changes; a later add may reuse it. */
    remove(index) { remove(w, index); },
    /** Enables (non-zero) or disables (0) objects first.. ; a disabled object is never hit. */
    setEnabled(first, flags) { setRange(w, ex.sc_wasm_world_set_enabled, first, flags, Uint8Array, 'flags'); },
    /** Sets the 32-bit masks of objects first.. ; a query with options.mask m hits (mask & m) != 0. */
    setMasks(first, masks) { setRange(w, ex.sc_wasm_world_set_masks, first, masks, Uint32Array, 'masks'); },
    /** 'aabb', 'obb', 'sphere', 'capsule' or 'removed' for an index below count; undefined above. */
    kindOf(index) { return kindOf(w, index); },
    /** Nearest hit per ray (7 floats each: origin, dir, tmax); options {mask, exclude, inside}. */
    castRays(rays, out, options) { return cast(w, ex.sc_wasm_world_cast_rays, rays, 7, 'rays', out, options); },
    /** castRays without the BVH (every object against every ray), for checks and benchmarks. */
    castRaysBruteForce(rays, out, options) { return cast(w, ex.sc_wasm_world_cast_rays_bruteforce, rays, 7, 'rays', out, options); },
    /** Nearest hit along each segment (6 floats each: a, b), t in [0, 1]. */
    castSegments(segments, out, options) { return cast(w, ex.sc_wasm_world_cast_segments, segments, 6, 'segments', out, options); },
    /**
     * Every object one ray (7 floats: origin, dir, tmax) hits within [0, tmax], nearest first
     * (ties by index), t as castRays'. count is the number of hits. With out, its arrays are
     * filled up to the room of the smallest (normal: 3 floats per hit) and count may exceed it.
     */
    castRayAll(ray, out, options) { return castRayAll(w, ray, out, options); },
    /** Sphere sweeps (8 floats each: origin, dir, tmax, radius): first contact, normal, point. */
    castSpheres(sweeps, out, options) { return sweep(w, 0, false, sweeps, out, options); },
    /** Box sweeps (10 floats each: origin, dir, tmax, half extents): first contact, normal, point. */
    castBoxes(sweeps, out, options) { return sweep(w, 1, false, sweeps, out, options); },
    /**
     * Capsule sweeps (11 floats each: a xyz, b xyz, dir xyz, tmax, radius; the capsule moves as
     * a + t dir, b + t dir): first contact, normal, point.
     */
    castCapsules(sweeps, out, options) { return sweep(w, 2, false, sweeps, out, options); },
    /** castSpheres without the BVH, for checks and benchmarks. */
    castSpheresBruteForce(sweeps, out, options) { return sweep(w, 0, true, sweeps, out, options); },
    /** castBoxes without the BVH, for checks and benchmarks. */
    castBoxesBruteForce(sweeps, out, options) { return sweep(w, 1, true, sweeps, out, options); },
    /** castCapsules without the BVH, for checks and benchmarks. */
    castCapsulesBruteForce(sweeps, out, options) { return sweep(w, 2, true, sweeps, out, options); },
    /** Objects overlapping the closed box [min, max], ascending into out; returns how many there are. */
    overlapAABB(min, max, out, options) {
      return overlap(w, 'aabb', [...vec3Arg(min, 'min'), ...vec3Arg(max, 'max')], 'box', out, options, false);
    },
    /** Objects overlapping the closed ball, ascending into out; returns how many there are. */
    overlapSphere(center, radius, out, options) {
      if (typeof radius !== 'number') fail('radius must be a number', 'radius');
      return overlap(w, 'sphere', [...vec3Arg(center, 'center'), radius], 'sphere', out, options, false);
    },
    /** Objects overlapping the closed capsule (segment a-b, radius), ascending into out; returns how many there are. */
    overlapCapsule(a, b, radius, out, options) {
      if (typeof radius !== 'number') fail('radius must be a number', 'radius');
      return overlap(w, 'capsule', [...vec3Arg(a, 'a'), ...vec3Arg(b, 'b'), radius], 'capsule', out, options, false);
    },
    /** Objects overlapping the OBB (15 numbers: center, axes[0..2], half), ascending into out. */
    overlapOBB(obb, out, options) { return overlap(w, 'obb', obb, 'obb', out, options, false); },
    /** Objects overlapping the frustum (24 numbers: 6 planes nx, ny, nz, d; inside n.x + d >= 0), ascending into out. */
    overlapFrustum(planes, out, options) { return overlap(w, 'frustum', planes, 'planes', out, options, false); },
    /** Any overlap query without the BVH ('aabb' 6, 'sphere' 4, 'obb' 15, 'capsule' 7, 'frustum' 24 numbers), for checks and benchmarks. */
    overlapBruteForce(kind, floats, out, options) {
      if (typeof kind !== 'string' || !Object.hasOwn(OVERLAP, kind)) fail("kind must be 'aabb', 'sphere', 'obb', 'capsule' or 'frustum'", 'kind');
      return overlap(w, kind, floats, kind, out, options, true);
    },
    /**
     * Per point (3 floats each): the nearest object within maxDistance (index, -1 for none), the
     * distance to its closed solid (0 inside, Infinity for none) and the closest point on it.
     */
    closestObjects(points, maxDistance, out, options) { return closestObjects(w, points, maxDistance, out, options, false); },
    /** closestObjects without the BVH, for checks and benchmarks. */
    closestObjectsBruteForce(points, maxDistance, out, options) { return closestObjects(w, points, maxDistance, out, options, true); },
    /** Whether each ray hits anything within [0, tmax] (stops at the first hit). */
    anyHit(rays, out, options) { return anyHit(w, rays, out, options); },
    /**
     * The number of object indices (0 to count - 1): every object added, removed ones included
     * (a removed index is counted until a later add reuses it). See liveCount.
     */
    get count() { return core.call(ex.sc_wasm_world_count, w.live()) >>> 0; },
    /** The number of objects that are not removed (count minus the removed ones). */
    get liveCount() { return core.call(ex.sc_wasm_world_live_count, w.live()) >>> 0; },
    /** Bytes of wasm memory the world holds. */
    get bytes() { return core.call(ex.sc_wasm_world_bytes, w.live()) >>> 0; },
    /** Whether dispose() has been called. */
    get disposed() { return w.ptr === 0; },
    /** Frees the world; later calls throw, a second dispose does nothing. */
    dispose() { dispose(w); },
  }, 'world.', w);
  states.set(api, w);
  // `using world = sc.createWorld()` disposes it at the end of the block.
  if (typeof Symbol.dispose === 'symbol') {
    Object.defineProperty(api, Symbol.dispose, { value: api.dispose, configurable: true, writable: true });
  }
  return api;
}
