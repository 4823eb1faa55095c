// world.js: a world of many AABBs, OBBs and spheres in wasm memory behind a BVH, answering
// batches of rays or segments in one call. Batches are checked (validate.js), copied into the
// core's staging area, cast, and the results copied out into fresh arrays or the caller's.
import { SlabcastError, fail, guardMethods } from './errors.js';
import { taByteLength, taKind, taLength, taSet } from './typed.js';
import { callerArray, checkOut, floatBatch, isPlainObject, outArray, requireDisjoint } from './validate.js';

const KIND = { aabb: 1, obb: 2, sphere: 3 }; // sc_shape_type, as everywhere in the core
const FLOATS = { aabb: 6, obb: 15, sphere: 4 };
const BATCH_NAME = { aabb: 'boxes', obb: 'obbs', sphere: 'spheres' };
const KIND_NAME = ['removed', 'aabb', 'obb', 'sphere'];
const INSIDE = { solid: 0, skip: 1, exit: 2 }; // sc_inside
const FILTER_BYTES = 12; // sc_query_filter in wasm32: uint32 mask, int32 *exclude, int32 inside
const MAX_INDEX = 0x7fffffff;

/**
 * The query options {mask, exclude, inside} for n rays, checked (docs/semantics.md, "Filters"),
 * or null for none (the default filter, at no cost). exclude is copied (read once).
 */
export function readFilter(w, options, n) {
  if (options === undefined || options === null) return null;
  if (!isPlainObject(options)) fail('options must be an object ({mask, exclude, inside})', 'options');
  const { mask, exclude, inside } = options;
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
    ex = new Int32Array(n);
    taSet(ex, n === have ? exclude : new Int32Array(exclude.buffer, exclude.byteOffset, n));
    const count = w.core.call(w.core.ex.sc_wasm_world_count, w.ptr);
    for (let i = 0; i < n; i++) {
      const v = ex[i];
      if (v < -1 || v >= count) fail(`options.exclude[${i}] is ${v}: not -1 or an object index (the world has ${count})`, 'options.exclude');
    }
  }
  return { mask: m, exclude: ex, inside: rule };
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

/** Copies a checked batch into the staging area, `extra` bytes after it; returns its address. */
export function stageBatch(core, a, extra) {
  const p = core.stage(taByteLength(a) + extra);
  core.views();
  taSet(core.f32, a, p >> 2);
  return p;
}

function add(w, kind, data) {
  const ptr = w.live();
  const core = w.core;
  const name = BATCH_NAME[kind];
  const a = w.batch(data, FLOATS[kind], name);
  const n = taLength(a) / FLOATS[kind];
  const p = stageBatch(core, a, 16);
  const firstPtr = p + taByteLength(a);
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
  const n = taLength(a) / FLOATS[kind];
  const p = stageBatch(core, a, 0);
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
  const a = w.batch(data, per, name);
  const n = taLength(a) / per;
  checkOut(out);
  const t = outArray(out, 't', Float32Array, n, core.memory);
  const index = outArray(out, 'index', Int32Array, n, core.memory);
  const normal = outArray(out, 'normal', Float32Array, 3 * n, core.memory);
  requireDisjoint([['t', t], ['index', index], ['normal', normal]]);
  const filter = readFilter(w, options, n);
  const p = stageBatch(core, a, 20 * n + filterBytes(filter));
  const tPtr = p + taByteLength(a);
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

/**
 * Sweeps a batch (spheres: 8 floats each, boxes: 10) and copies t, index, normal, point out.
 * out may hold any of the four arrays; the others are allocated.
 */
function sweep(w, box, brute, data, out, options) {
  const ptr = w.live();
  const core = w.core;
  const per = box ? 10 : 8;
  const a = w.batch(data, per, 'sweeps');
  const n = taLength(a) / per;
  checkOut(out);
  const t = outArray(out, 't', Float32Array, n, core.memory);
  const index = outArray(out, 'index', Int32Array, n, core.memory);
  const normal = outArray(out, 'normal', Float32Array, 3 * n, core.memory);
  const point = outArray(out, 'point', Float32Array, 3 * n, core.memory);
  requireDisjoint([['t', t], ['index', index], ['normal', normal], ['point', point]]);
  const filter = readFilter(w, options, n);
  const p = stageBatch(core, a, 32 * n + filterBytes(filter));
  const tPtr = p + taByteLength(a);
  const iPtr = tPtr + 4 * n;
  const nPtr = iPtr + 4 * n;
  const qPtr = nPtr + 12 * n;
  const fPtr = writeFilter(core, filter, qPtr + 12 * n);
  const status = core.call(core.ex.sc_wasm_world_sweeps, ptr, box ? 1 : 0, brute ? 1 : 0, p, n, tPtr, iPtr, nPtr, qPtr, fPtr);
  core.views();
  w.check(status, 'sweeps');
  copyOut(core, t, Float32Array, tPtr, n);
  copyOut(core, index, Int32Array, iPtr, n);
  copyOut(core, normal, Float32Array, nPtr, 3 * n);
  copyOut(core, point, Float32Array, qPtr, 3 * n);
  return { t, index, normal, point };
}

const OVERLAP = { aabb: [1, 6], sphere: [3, 4], obb: [2, 15], frustum: [0, 24] }; // [kind, floats]

/**
 * The objects overlapping a volume (floats: its OVERLAP layout), their indices ascending in out
 * (an Int32Array; only out.length are written); returns the total count.
 */
function overlap(w, kind, floats, name, out, options, brute) {
  const ptr = w.live();
  const core = w.core;
  const [k, per] = OVERLAP[kind];
  const a = w.batch(floats, per, name);
  if (taLength(a) !== per) fail(`${name} must hold ${per} numbers; it holds ${taLength(a)}`, name);
  const cap = out === undefined || out === null ? 0 : taLength(callerArray(out, Int32Array, 'out', 0, core.memory));
  const filter = readFilter(w, options, 1);
  const p = stageBatch(core, a, 4 + 4 * cap + filterBytes(filter));
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
  const n = taLength(a) / 3;
  if (typeof maxDistance !== 'number' || !(maxDistance >= 0)) fail('maxDistance must be a number >= 0 (Infinity for any distance)', 'maxDistance');
  if (out !== undefined && out !== null && (typeof out !== 'object' || Array.isArray(out) || taKind(out) !== undefined)) {
    fail('out must be an object of typed arrays ({index, distance, point})', 'out');
  }
  const index = outArray(out, 'index', Int32Array, n, core.memory);
  const distance = outArray(out, 'distance', Float32Array, n, core.memory);
  const point = outArray(out, 'point', Float32Array, 3 * n, core.memory);
  requireDisjoint([['index', index], ['distance', distance], ['point', point]]);
  const filter = readFilter(w, options, n);
  const p = stageBatch(core, a, 20 * n + filterBytes(filter));
  const iPtr = p + taByteLength(a);
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

/** The caller's castRayAll arrays ([key, array] pairs) and the hits they have room for. */
function castAllTargets(core, out) {
  checkOut(out);
  const given = [];
  let room = Infinity;
  for (const [key, Type, per] of [['t', Float32Array, 1], ['index', Int32Array, 1], ['normal', Float32Array, 3]]) {
    const v = out === undefined || out === null ? undefined : out[key];
    if (v === undefined) continue;
    given.push([key, callerArray(v, Type, `out.${key}`, 0, core.memory)]);
    room = Math.min(room, Math.floor(taLength(v) / per));
  }
  requireDisjoint(given);
  return { given, room };
}

function castRayAll(w, ray, out, options) {
  const ptr = w.live();
  const core = w.core;
  const a = w.batch(ray, 7, 'ray');
  if (taLength(a) !== 7) fail(`ray must hold 7 floats (origin xyz, dir xyz, tmax); it holds ${taLength(a)}`, 'ray');
  const { given, room: fixedRoom } = castAllTargets(core, out);
  const filter = readFilter(w, options, 1);
  const fixed = fixedRoom !== Infinity;
  let room = fixed ? fixedRoom : 16; // grown to the count and cast again when short
  for (;;) {
    const p = stageBatch(core, a, 4 + 20 * room + filterBytes(filter));
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
  const n = taLength(a) / 7;
  const hit = out === undefined || out === null ? new Uint8Array(n) : callerArray(out, Uint8Array, 'out', n, core.memory);
  const filter = readFilter(w, options, n);
  const p = stageBatch(core, a, 4 * n + filterBytes(filter));
  const hPtr = p + taByteLength(a);
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

function remove(w, index) {
  const ptr = w.live();
  requireIndex(index, 'index');
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
  const p = core.stage(Math.max(4, n * Type.BYTES_PER_ELEMENT));
  core.views();
  taSet(new Type(core.memory.buffer, p, n), values);
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
    /** Replaces AABBs first.. (they must be AABBs). */
    updateAABBs(first, boxes) { update(w, 'aabb', first, boxes); },
    /** Replaces OBBs first.. (they must be OBBs). */
    updateOBBs(first, obbs) { update(w, 'obb', first, obbs); },
    /** Replaces spheres first.. (they must be spheres). */
    updateSpheres(first, spheres) { update(w, 'sphere', first, spheres); },
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
    /** 'aabb', 'obb', 'sphere' or 'removed' for an index below count; undefined above. */
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
    castSpheres(sweeps, out, options) { return sweep(w, false, false, sweeps, out, options); },
    /** Box sweeps (10 floats each: origin, dir, tmax, half extents): first contact, normal, point. */
    castBoxes(sweeps, out, options) { return sweep(w, true, false, sweeps, out, options); },
    /** castSpheres without the BVH, for checks and benchmarks. */
    castSpheresBruteForce(sweeps, out, options) { return sweep(w, false, true, sweeps, out, options); },
    /** castBoxes without the BVH, for checks and benchmarks. */
    castBoxesBruteForce(sweeps, out, options) { return sweep(w, true, true, sweeps, out, options); },
    /** Objects overlapping the closed box [min, max], ascending into out; returns how many there are. */
    overlapAABB(min, max, out, options) {
      return overlap(w, 'aabb', [...vec3Arg(min, 'min'), ...vec3Arg(max, 'max')], 'box', out, options, false);
    },
    /** Objects overlapping the closed ball, ascending into out; returns how many there are. */
    overlapSphere(center, radius, out, options) {
      if (typeof radius !== 'number') fail('radius must be a number', 'radius');
      return overlap(w, 'sphere', [...vec3Arg(center, 'center'), radius], 'sphere', out, options, false);
    },
    /** Objects overlapping the OBB (15 numbers: center, axes[0..2], half), ascending into out. */
    overlapOBB(obb, out, options) { return overlap(w, 'obb', obb, 'obb', out, options, false); },
    /** Objects overlapping the frustum (24 numbers: 6 planes nx, ny, nz, d; inside n.x + d >= 0), ascending into out. */
    overlapFrustum(planes, out, options) { return overlap(w, 'frustum', planes, 'planes', out, options, false); },
    /** Any overlap query without the BVH ('aabb' 6, 'sphere' 4, 'obb' 15, 'frustum' 24 numbers), for checks and benchmarks. */
    overlapBruteForce(kind, floats, out, options) {
      if (typeof kind !== 'string' || !Object.hasOwn(OVERLAP, kind)) fail("kind must be 'aabb', 'sphere', 'obb' or 'frustum'", 'kind');
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
    /** The number of objects. */
    get count() { return core.call(ex.sc_wasm_world_count, w.live()) >>> 0; },
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
