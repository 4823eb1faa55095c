// queries.js: the single queries (one ray, segment or point against one shape): inputs checked,
// written into the core's scratch area as the C structs of slabcast.h, one export called, and
// the result struct copied out into fresh JS objects (nothing returned aliases wasm memory).
// A ray against an AABB (raycastAABB, and raycast with an AABB) is answered in JavaScript by
// slab.js with the core's bits, the core deciding the inputs slab.js leaves to it.
import { SlabcastError, asSlabcastError, fail, truncateUtf8 } from './errors.js';
import { taBuffer, taKind, taLength } from './typed.js';
import { FALLBACK, certainMiss, ordinary, slabAABB, slabQuotients } from './slab.js';
import { capsuleRay, planeRay, sphereRay } from './shapes.js';
import { obbReadRay } from './obbcast.js';
import {
  capsuleInto, checkSegment, checkShape, obbInto, planeInto, requireNumber, requireObject, requireVec3, shapeType, sphereInto, vec3Into,
} from './validate.js';

/** sc_shape_type values of the C header slabcast.h. */
const SHAPE_TYPES = { aabb: 1, obb: 2, sphere: 3, plane: 4, capsule: 5 };

// Byte offsets inside the scratch area (sc_wasm_scratch, SC_WASM_SCRATCH_BYTES).
const IN_OFF = 0; //      sc_ray (28 bytes) / sc_segment (24) / sc_vec3 (12)
const SHAPE_OFF = 64; //  sc_shape (64)
const OUT_OFF = 128; //   sc_raycast_result (44) / sc_test_result (8) / sc_point_result (16)
const OUT_W = OUT_OFF >> 2;
const IO_OFF = 192; //    raycastAABB's 13 floats in, 9 out (sc_wasm_raycast_aabb_io)

function writeVec(f32, word, v) {
  f32[word] = v[0];
  f32[word + 1] = v[1];
  f32[word + 2] = v[2];
}

function readVec(f32, word) {
  return [f32[word], f32[word + 1], f32[word + 2]];
}

/** Writes a checked shape (the copy checkShape returns) as an sc_shape at word w of the views. */
function writeShape(f32, i32, w, shape) {
  for (let i = 0; i < 16; i++) i32[w + i] = 0;
  switch (shape.type) {
    case 'aabb':
      i32[w] = SHAPE_TYPES.aabb;
      writeVec(f32, w + 1, shape.min);
      writeVec(f32, w + 4, shape.max);
      break;
    case 'obb':
      i32[w] = SHAPE_TYPES.obb;
      writeVec(f32, w + 1, shape.center);
      writeVec(f32, w + 4, shape.axes[0]);
      writeVec(f32, w + 7, shape.axes[1]);
      writeVec(f32, w + 10, shape.axes[2]);
      writeVec(f32, w + 13, shape.half);
      break;
    case 'sphere':
      i32[w] = SHAPE_TYPES.sphere;
      writeVec(f32, w + 1, shape.center);
      f32[w + 4] = shape.radius;
      break;
    case 'plane':
      i32[w] = SHAPE_TYPES.plane;
      writeVec(f32, w + 1, shape.normal);
      f32[w + 4] = shape.d;
      break;
    case 'capsule':
      i32[w] = SHAPE_TYPES.capsule;
      writeVec(f32, w + 1, shape.a);
      writeVec(f32, w + 4, shape.b);
      f32[w + 7] = shape.radius;
      break;
  }
}

/**
 * Views of the scratch area alone (SCRATCH_WORDS words at core.scratch), for the single
 * queries. WebAssembly.Memory's buffer getter costs tens of ns (core.views() reads it and a
 * view's buffer on every call), so these are checked another way: growing a non-shared memory
 * detaches its old buffer, and a view of a detached buffer has length 0 (read through the
 * engine's own element read: f32[0] is undefined), so that means re-derive (through core.views(), which
 * also refreshes the core's views). A shared memory's buffers are never detached: an old one
 * stays a valid window on the same bytes, and the scratch area lies in every one of them.
 */
class Scratch {
  constructor(core) {
    this.core = core;
    this.f32 = null;
    this.i32 = null;
  }

  /** Makes f32 and i32 views of the memory's current bytes. Call it after any code that may grow it. */
  fresh() {
    // f32[0] of a detached view is undefined (an element read past a typed array's length: the
    // engine's own answer, no prototype consulted), a number otherwise; cheaper than taLength.
    if (this.f32 !== null && this.f32[0] !== undefined) return;
    const core = this.core;
    core.views();
    const buffer = core.f32.buffer;
    this.f32 = new Float32Array(buffer, core.scratch, SCRATCH_WORDS);
    this.i32 = new Int32Array(buffer, core.scratch, SCRATCH_WORDS);
  }
}

const SCRATCH_WORDS = 64; // IN_OFF..OUT_OFF + 64 bytes: every struct run() uses

/**
 * Runs fn(in, shape, out) on the core with `write` filling the input struct (at word 0 of the
 * scratch views), then checks the status. Returns the word (in the scratch views) of the
 * result struct, valid until the next call.
 */
function run(core, sc, fn, shape, write) {
  const base = core.scratch;
  sc.fresh();
  write(sc.f32, IN_OFF >> 2);
  writeShape(sc.f32, sc.i32, SHAPE_OFF >> 2, shape);
  core.call(fn, base + IN_OFF, base + SHAPE_OFF, base + OUT_OFF);
  sc.fresh();
  const outWord = OUT_OFF >> 2;
  core.checkStatus(sc.i32[outWord]);
  return outWord;
}

/**
 * Reads n numbers of v (a Float32Array, a Float64Array or an array of exactly n numbers) into
 * vals: each element read once, before anything is written to wasm memory.
 */
function readFloats(v, n, name, vals, off) {
  const kind = taKind(v);
  if (kind === 'Float32Array' || kind === 'Float64Array') {
    if (taLength(v) !== n) fail(`${name} must hold ${n} floats; it holds ${taLength(v)}`, name);
  } else if (!Array.isArray(v) || v.length !== n) {
    fail(`${name} must be a Float32Array, a Float64Array or an array of ${n} numbers`, name);
  }
  for (let i = 0; i < n; i++) {
    const x = v[i];
    if (typeof x !== 'number') fail(`${name}[${i}] must be a number`, name);
    vals[off + i] = x;
  }
}

/** The engine's own brand check: v is a genuine Float32Array. */
const isFloat32Array = (v) => taKind(v) === 'Float32Array';

const BOX_SHAPE = 'box must be a Float32Array, a Float64Array or an array of 6 numbers';
const RAY_SHAPE = 'ray must be a Float32Array, a Float64Array or an array of 7 numbers';
const notNumber = (name, i) => fail(`${name}[${i}] must be a number`, name);

/**
 * raycastAABB's inputs that are not read by its fast paths (typed arrays of other kinds or
 * lengths, a Float64Array, an array ray with a typed box, anything else), read by readFloats (the
 * caller's code may run: getters, Proxy traps) and copied: copy(ray, box) leaves the arrays to use
 * in r and b (Float32Arrays no code of the caller's can change any more).
 */
class AABBInputs {
  constructor() {
    this.vals = new Float32Array(13); // rounded as the core takes them
    this.rayCopy = this.vals.subarray(0, 7);
    this.boxCopy = this.vals.subarray(7, 13);
    this.depth = 0;
    this.r = null;
    this.b = null;
  }

  copy(ray, box) {
    // A getter may call raycastAABB again: a nested call copies into its own.
    const nested = this.depth !== 0;
    const v = nested ? new Float32Array(13) : this.vals;
    this.depth++;
    try {
      // The arguments that are not Float32Arrays are read first (their getters and Proxy traps
      // may run, and may shrink the buffer of a Float32Array argument); the Float32Arrays are
      // then judged as they are now, and nothing after that runs the caller's code.
      const rayTyped = isFloat32Array(ray);
      const boxTyped = isFloat32Array(box);
      let r = ray;
      let b = box;
      if (!rayTyped) {
        readFloats(ray, 7, 'ray', v, 0);
        r = nested ? v.subarray(0, 7) : this.rayCopy;
      }
      if (!boxTyped) {
        readFloats(box, 6, 'box', v, 7);
        b = nested ? v.subarray(7, 13) : this.boxCopy;
      }
      if (rayTyped && !(ray[7] === undefined && ray[6] !== undefined)) {
        readFloats(ray, 7, 'ray', v, 0); // the length error, or a copy
        r = nested ? v.subarray(0, 7) : this.rayCopy;
      }
      if (boxTyped && !(box[6] === undefined && box[5] !== undefined)) {
        readFloats(box, 6, 'box', v, 7);
        b = nested ? v.subarray(7, 13) : this.boxCopy;
      }
      this.r = r;
      this.b = b;
    } finally {
      this.depth--;
    }
  }
}

/**
 * The core's answer for a ray r (7 floats) and a box b (6), for the inputs slab.js leaves to it
 * (and for every error): 1 with the 9 result floats in res, 0, or the core's SlabcastError.
 */
function aabbInCore(core, r, b, res) {
  core.views();
  const w = (core.scratch + IO_OFF) >> 2;
  const f32 = core.f32;
  // element by element: exactly 13 floats, whatever another thread does to a shared buffer
  for (let i = 0; i < 7; i++) f32[w + i] = r[i];
  for (let i = 0; i < 6; i++) f32[w + 7 + i] = b[i];
  const k = core.ex.sc_wasm_raycast_aabb_io(core.scratch + IO_OFF);
  if (k < 0) core.checkStatus(-k);
  if (k === 1) res.set(core.f32.subarray(w, w + 9));
  return k;
}

/**
 * raycastAABB(ray, box, target): one ray (7 floats: origin, dir, tmax) against one box (6: min,
 * max), allocation-free. On a hit target (a Float32Array or Float64Array of at least 9) gets
 * t, t_enter, t_exit, point, normal and the call returns true; a miss returns false and leaves
 * target alone. Not wrapped by guardMethods (it is the fast path): its own try turns any other
 * exception into a SlabcastError.
 *
 * The 13 numbers are read into locals, each once, rounded to float32 as the core takes them: a
 * genuine Float32Array of exactly the right length (its elements cannot be redefined: r[7] ===
 * undefined and r[6] !== undefined say it holds 7) in place; an array (Array.isArray: a Proxy over
 * one too) as readFloats reads it (its length once, then each element once, in order, its type
 * checked as it is read: the same errors); anything else by AABBInputs. Most calls are settled
 * there by ordinary() and certainMiss() (slab.js, inlined: no array written or read again); the
 * rest are staged and answered by slabQuotients or slabAABB (JavaScript, the core's bits) and,
 * for the inputs they leave to the core, by sc_wasm_raycast_aabb_io. The last target checked is
 * remembered: a typed array never changes kind or buffer, so the same target passes again on one
 * read (its element 8, which a length-tracking view that shrank no longer has).
 */
function makeRaycastAABB(core) {
  const res = new Float32Array(9);
  let checkedTarget = null;
  const checkTarget = (target) => {
    const kind = taKind(target);
    if (kind !== 'Float32Array' && kind !== 'Float64Array') fail('target must be a Float32Array or a Float64Array (9 floats: t, t_enter, t_exit, point, normal)', 'target');
    if (taLength(target) < 9) fail(`target must hold at least 9 floats; it holds ${taLength(target)}`, 'target');
    if (taBuffer(target) === core.memory.buffer) fail("target must not be a view of slabcast's wasm memory", 'target');
    checkedTarget = target;
  };
  // The inputs of the fast paths, for slabQuotients, slabAABB and the core when certainMiss has
  // not settled the call: stored only after all of the caller's code has run, and used before any
  // more can (AABBInputs has its own).
  const stage = new Float32Array(13);
  const stageRay = stage.subarray(0, 7);
  const stageBox = stage.subarray(7, 13);
  /**
   * The answer for the inputs in r and b (Float32Arrays no code of the caller's can change now);
   * checked: ordinary() holds and the dir is not zero (slabAABB's first tests: slabQuotients at once).
   */
  const answer = (r, b, target, checked) => {
    let k = checked ? slabQuotients(r, b, res) : slabAABB(r, b, res);
    if (k === FALLBACK) k = aabbInCore(core, r, b, res);
    if (k === 0) return false;
    for (let i = 0; i < 9; i++) target[i] = res[i];
    return true;
  };
  const inputs = new AABBInputs();
  const other = (ray, box, target) => {
    inputs.copy(ray, box);
    const r = inputs.r;
    const b = inputs.b;
    if (target !== checkedTarget || target[8] === undefined) checkTarget(target);
    return answer(r, b, target, false);
  };
  const fr = Math.fround;
  return function raycastAABB(ray, box, target) {
    try {
      let ox = 0, oy = 0, oz = 0, dx = 0, dy = 0, dz = 0, tm = 0, x0 = 0, y0 = 0, z0 = 0, x1 = 0, y1 = 0, z1 = 0;
      // The forms read here: two Float32Arrays of 7 and 6 (in place: no caller's code can run), a
      // Float32Array ray with an array box (the ray judged after the box's code ran), two arrays
      // (the ray read first); anything else by other().
      let boxArray = true;
      let rayRead = false;
      if (isFloat32Array(ray)) {
        if (!Array.isArray(box)) {
          if (!(isFloat32Array(box) && ray[7] === undefined && ray[6] !== undefined && box[6] === undefined && box[5] !== undefined)) return other(ray, box, target);
          boxArray = false;
          x0 = box[0]; y0 = box[1]; z0 = box[2]; x1 = box[3]; y1 = box[4]; z1 = box[5];
          ox = ray[0]; oy = ray[1]; oz = ray[2]; dx = ray[3]; dy = ray[4]; dz = ray[5]; tm = ray[6];
          rayRead = true;
        }
      } else if (Array.isArray(ray) && Array.isArray(box)) {
        if (ray.length !== 7) fail(RAY_SHAPE, 'ray');
        ox = ray[0];
        if (typeof ox !== 'number') notNumber('ray', 0);
        oy = ray[1];
        if (typeof oy !== 'number') notNumber('ray', 1);
        oz = ray[2];
        if (typeof oz !== 'number') notNumber('ray', 2);
        dx = ray[3];
        if (typeof dx !== 'number') notNumber('ray', 3);
        dy = ray[4];
        if (typeof dy !== 'number') notNumber('ray', 4);
        dz = ray[5];
        if (typeof dz !== 'number') notNumber('ray', 5);
        tm = ray[6];
        if (typeof tm !== 'number') notNumber('ray', 6);
        ox = fr(ox); oy = fr(oy); oz = fr(oz); dx = fr(dx); dy = fr(dy); dz = fr(dz); tm = fr(tm);
        rayRead = true;
      } else {
        return other(ray, box, target);
      }
      if (boxArray) {
        if (box.length !== 6) fail(BOX_SHAPE, 'box');
        x0 = box[0];
        if (typeof x0 !== 'number') notNumber('box', 0);
        y0 = box[1];
        if (typeof y0 !== 'number') notNumber('box', 1);
        z0 = box[2];
        if (typeof z0 !== 'number') notNumber('box', 2);
        x1 = box[3];
        if (typeof x1 !== 'number') notNumber('box', 3);
        y1 = box[4];
        if (typeof y1 !== 'number') notNumber('box', 4);
        z1 = box[5];
        if (typeof z1 !== 'number') notNumber('box', 5);
        x0 = fr(x0); y0 = fr(y0); z0 = fr(z0); x1 = fr(x1); y1 = fr(y1); z1 = fr(z1);
      }
      if (!rayRead) {
        // a Float32Array ray with an array box: judged after the box's code ran (its getters may
        // have shrunk or detached it)
        if (!(ray[7] === undefined && ray[6] !== undefined)) fail(`ray must hold 7 floats; it holds ${taLength(ray)}`, 'ray');
        ox = ray[0]; oy = ray[1]; oz = ray[2]; dx = ray[3]; dy = ray[4]; dz = ray[5]; tm = ray[6];
      }
      if (target !== checkedTarget || target[8] === undefined) checkTarget(target);
      // From here on none of the caller's code runs.
      const ok = ordinary(ox, oy, oz, dx, dy, dz, tm, x0, y0, z0, x1, y1, z1);
      if (ok && certainMiss(ox, oy, oz, dx, dy, dz, tm, x0, y0, z0, x1, y1, z1)) return false;
      stage[0] = ox; stage[1] = oy; stage[2] = oz; stage[3] = dx; stage[4] = dy; stage[5] = dz; stage[6] = tm;
      stage[7] = x0; stage[8] = y0; stage[9] = z0; stage[10] = x1; stage[11] = y1; stage[12] = z1;
      // ordinary inputs with a dir: slabAABB's own checks and certain misses have been done
      return answer(stageRay, stageBox, target, ok && (dx !== 0 || dy !== 0 || dz !== 0));
    } catch (e) {
      throw asSlabcastError(e, 'raycastAABB');
    }
  };
}

/** A hit's result object: fresh arrays, the 9 floats of g from word o (t, t_enter, t_exit, point, normal). */
const hitOf = (g, o) => ({
  hit: true,
  t: g[o],
  t_enter: g[o + 1],
  t_exit: g[o + 2],
  point: [g[o + 3], g[o + 4], g[o + 5]],
  normal: [g[o + 6], g[o + 7], g[o + 8]],
});
const missed = () => ({ hit: false });

/** raycast's inCore(rayF, code, shapeF, n): the core's answer (sc_wasm_raycast) for the staged ray and shape (type code, n floats). */
function makeInCore(core, sc) {
  const fn = core.ex.sc_wasm_raycast;
  const inPtr = core.scratch + IN_OFF;
  const shapePtr = core.scratch + SHAPE_OFF;
  const outPtr = core.scratch + OUT_OFF;
  const SHAPE_W = SHAPE_OFF >> 2;
  return (rayF, code, shapeF, n) => {
    sc.fresh();
    const f32 = sc.f32;
    // written out (constant indices) for n = 4, 6, 7: loops of these copies cost tens of ns
    f32[0] = rayF[0]; f32[1] = rayF[1]; f32[2] = rayF[2]; f32[3] = rayF[3]; f32[4] = rayF[4]; f32[5] = rayF[5]; f32[6] = rayF[6];
    sc.i32[SHAPE_W] = code;
    f32[17] = shapeF[0]; f32[18] = shapeF[1]; f32[19] = shapeF[2]; f32[20] = shapeF[3];
    if (n > 4) {
      f32[21] = shapeF[4]; f32[22] = shapeF[5];
      if (n > 6) {
        f32[23] = shapeF[6];
        for (let i = 7; i < n; i++) f32[SHAPE_W + 1 + i] = shapeF[i]; // an OBB's (a module without sc_wasm_raycast_obb_io)
      }
    }
    try {
      fn(inPtr, shapePtr, outPtr);
    } catch (e) {
      core.call(() => { throw e; }); // a trap: the core's handling (stack restored, SlabcastError)
    }
    sc.fresh();
    const i32 = sc.i32;
    core.checkStatus(i32[OUT_W]);
    return i32[OUT_W + 1] === 0 ? { hit: false } : hitOf(sc.f32, OUT_W + 2);
  };
}

/**
 * raycast's castObb(rayF, shape, shapeF): an OBB's fields read and the answer: obbcast.js's
 * obbReadRay reads them and runs obbRay's miss test in one function (the floats staged into shapeF
 * only for the core), or, while most recent calls hit, obbInto reads them for the core at once.
 */
function makeCastObb(core, sc, inCore) {
  const inPtr = core.scratch + IN_OFF;
  // An OBB the JS miss tests leave to the core: sc_wasm_raycast_obb_io (22 floats in at word 0 of
  // the scratch area, 9 out, a number returned: no sc_shape, no result struct written and read
  // back), else sc_wasm_raycast (a slabcast.wasm built before that export).
  const obbIo = typeof core.ex.sc_wasm_raycast_obb_io === 'function' ? core.ex.sc_wasm_raycast_obb_io : null;
  const obbInCore = (rayF, shapeF) => {
    if (obbIo === null) return inCore(rayF, 2, shapeF, 15);
    sc.fresh();
    const f32 = sc.f32;
    // written out (constant indices): loops of these copies cost 40-60 ns, this about 10
    f32[0] = rayF[0]; f32[1] = rayF[1]; f32[2] = rayF[2]; f32[3] = rayF[3]; f32[4] = rayF[4]; f32[5] = rayF[5]; f32[6] = rayF[6];
    f32[7] = shapeF[0]; f32[8] = shapeF[1]; f32[9] = shapeF[2]; f32[10] = shapeF[3]; f32[11] = shapeF[4];
    f32[12] = shapeF[5]; f32[13] = shapeF[6]; f32[14] = shapeF[7]; f32[15] = shapeF[8]; f32[16] = shapeF[9];
    f32[17] = shapeF[10]; f32[18] = shapeF[11]; f32[19] = shapeF[12]; f32[20] = shapeF[13]; f32[21] = shapeF[14];
    let k = 0;
    try {
      k = obbIo(inPtr);
    } catch (e) {
      core.call(() => { throw e; }); // a trap: the core's handling (stack restored, SlabcastError)
    }
    if (k === 0) {
      obbHits = obbHits > 4 ? obbHits - 4 : 0;
      return missed();
    }
    if (k < 0) core.checkStatus(-k);
    obbHits = obbHits < 16 ? obbHits + 1 : 16;
    sc.fresh();
    return hitOf(sc.f32, 0);
  };
  // As the capsule's (castCapsule, in makeRaycast): obbRay's miss tests skipped while at least
  // about 80% of the recent calls hit (obbHits at 8 or over). On a hit they cost about 25 ns (the
  // ball tests before entersBall gives up); only which path answers changes. obbHits is a var and
  // obbReadRay a constant of this closure, as raycast's depth and vec3In (see there).
  var obbHits = 0; // eslint-disable-line no-var
  const readRay = obbReadRay;
  const castObb = (rayF, shape, shapeF) => {
    if (obbHits >= 8) obbInto(shape, shapeF);
    else if (readRay(rayF, shape, shapeF) === 0) {
      if (obbHits !== 0) obbHits = obbHits > 4 ? obbHits - 4 : 0; // no store while it stays 0 (most misses)
      return missed();
    }
    return obbInCore(rayF, shapeF);
  };
  return castObb;
}

/**
 * raycast(ray, shape): one ray against one shape of any type; {hit: false} or {hit: true, t,
 * t_enter, t_exit, point, normal} (fresh arrays). Like raycastAABB it guards itself (slabcast.js
 * adds it after guardMethods wrapped the others): its own try turns any other exception into a
 * SlabcastError named 'raycast', as the guard did, without the guard's rest arguments and apply.
 * The inputs are read once and checked (checkRay, checkShape: all of the caller's code has run)
 * before anything is written to the scratch area, through views re-derived after that code.
 */
function makeRaycast(core) {
  const sc = new Scratch(core);
  // The ray and the shape's fields read straight into float32 staging, rounded as the core takes
  // them (an AABB's 6 floats, or sc_shape's floats after its type word: at most 15, an OBB's).
  // A getter of one call's inputs may call raycast again: a nested call stages in its own.
  const rayStage = new Float32Array(7);
  const shapeStage = new Float32Array(15);
  const res = new Float32Array(9);
  // var, not let: V8 checks a let of an enclosing function for its temporal dead zone on every use
  var depth = 0; // eslint-disable-line no-var
  var last = 0; // eslint-disable-line no-var -- the previous call's shape type (sc_shape_type; 0 before the first)
  // validate.js's vec3Into as a constant of this closure (V8 folds it: a module binding is loaded
  // and checked on every call)
  const vec3In = vec3Into;
  const inCore = makeInCore(core, sc);
  // One function per type after the ray and the type are read: each reads the shape's fields
  // (in their order, with their errors) and answers, or asks the core. Each is optimized with an
  // inlining budget of its own (one raycast holding every type's path ran out of it: the AABB
  // path's helpers were calls). raycast itself stays over V8's 460 bytes of bytecode (718), so it
  // is not inlined into its callers: measured, that put the OBB path back over the budget.
  const castAABB = (rayF, shape, shapeF) => {
    vec3Into(shape.min, 'shape.min', shapeF, 0);
    vec3Into(shape.max, 'shape.max', shapeF, 3);
    // From here on none of the caller's code runs. slabAABB: the core's bits, as raycastAABB.
    const k = slabAABB(rayF, shapeF, res);
    if (k === 0) return missed();
    if (k === 1) return hitOf(res, 0);
    return inCore(rayF, 1, shapeF, 6);
  };
  // shapes.js: the core's answer where it is sure (sc_shape_type values written out: SHAPE_TYPES's
  // are property loads)
  const castSphere = (rayF, shape, shapeF) => {
    sphereInto(shape, shapeF);
    return sphereRay(rayF, shapeF) === 0 ? missed() : inCore(rayF, 3, shapeF, 4);
  };
  const castObb = makeCastObb(core, sc, inCore);
  // A capsule's miss tests cost about 50 ns on a hit and save about 125 on a miss (the core's
  // miss): worth running while fewer than about 70% of the calls hit. capsuleHits follows the
  // recent calls (up 1 on a hit, down 4 on a miss, within [0, 16]: it stays high only while at
  // least about 80% hit); while it is at least 8 the tests are skipped and the core answers every
  // call. Only which path answers changes: the core's answer, or a certain miss (the core's).
  let capsuleHits = 0;
  const castCapsule = (rayF, shape, shapeF) => {
    capsuleInto(shape, shapeF);
    if (capsuleHits < 8 && capsuleRay(rayF, shapeF) === 0) {
      capsuleHits = capsuleHits > 4 ? capsuleHits - 4 : 0;
      return missed();
    }
    const res = inCore(rayF, 5, shapeF, 7);
    capsuleHits = res.hit ? (capsuleHits < 16 ? capsuleHits + 1 : 16) : (capsuleHits > 4 ? capsuleHits - 4 : 0);
    return res;
  };
  const castPlane = (rayF, shape, shapeF) => {
    planeInto(shape, shapeF);
    const k = planeRay(rayF, shapeF, res);
    if (k === 0) return missed();
    if (k === 1) return hitOf(res, 0);
    return inCore(rayF, 4, shapeF, 4);
  };
  return function raycast(ray, shape) {
    const nested = depth !== 0;
    const rayF = nested ? new Float32Array(7) : rayStage;
    const shapeF = nested ? new Float32Array(15) : shapeStage;
    depth++;
    try {
      // checkRay and checkShape, reading each input once, in their order, with their errors
      // (requireObject and shapeType written out: Array.isArray and ArrayBuffer.isView are
      // constants in optimized code, validate.js's bindings are loaded and checked per call)
      if (typeof ray !== 'object' || ray === null || Array.isArray(ray) || ArrayBuffer.isView(ray)) fail('"ray" must be an object', 'ray');
      vec3In(ray.origin, 'ray.origin', rayF, 0);
      vec3In(ray.dir, 'ray.dir', rayF, 3);
      const t = ray.tmax;
      rayF[6] = t === undefined ? Infinity : requireNumber(t, 'ray.tmax');
      if (typeof shape !== 'object' || shape === null || Array.isArray(shape) || ArrayBuffer.isView(shape)) fail('"shape" must be an object', 'shape');
      // shape.type read at one of five places, picked by the previous call's type: V8 caches the
      // hidden classes each place has seen, up to four, and past that looks every call up in its
      // stub cache (about 40 instructions); a loop over shapes of one type finds the class at the
      // first compare. Each place loads from a variable of its own (V8 shares one cache between
      // the loads of one name from one variable).
      let type;
      switch (last) {
        case 1: { const s1 = shape; type = s1.type; break; }
        case 2: { const s2 = shape; type = s2.type; break; }
        case 3: { const s3 = shape; type = s3.type; break; }
        case 4: { const s4 = shape; type = s4.type; break; }
        default: type = shape.type;
      }
      if (typeof type !== 'string') fail('"shape.type" must be a string', 'shape.type');
      let res;
      switch (type) {
        case 'aabb': if (last !== 1) last = 1; res = castAABB(rayF, shape, shapeF); break;
        case 'sphere': if (last !== 3) last = 3; res = castSphere(rayF, shape, shapeF); break;
        case 'obb': if (last !== 2) last = 2; res = castObb(rayF, shape, shapeF); break;
        case 'capsule': if (last !== 5) last = 5; res = castCapsule(rayF, shape, shapeF); break;
        case 'plane': if (last !== 4) last = 4; res = castPlane(rayF, shape, shapeF); break;
        default: fail(`unknown shape type "${truncateUtf8(type)}"`, 'shape.type'); // as checkShape
      }
      // depth restored here and in the catch (a finally block costs a completion dispatch and
      // the pending message's save and restore on every call)
      depth--;
      return res;
    } catch (e) {
      depth--;
      throw asSlabcastError(e, 'raycast');
    }
  };
}

/** The single queries of one core: raycastAABB, raycast, linetest, closestPoint, contains. */
export function createQueries(core) {
  const ex = core.ex;
  const sc = new Scratch(core);
  return {
    raycastAABB: typeof ex.sc_wasm_raycast_aabb_io === 'function' ? makeRaycastAABB(core)
      : () => { throw new SlabcastError('this slabcast.wasm has no raycastAABB (rebuild it)'); },
    raycast: makeRaycast(core),
    linetest(segment, shape) {
      const g = checkSegment(segment);
      const s = checkShape(shape);
      const out = run(core, sc, ex.sc_wasm_linetest, s, (f32, w) => {
        writeVec(f32, w, g.a);
        writeVec(f32, w + 3, g.b);
      });
      return { hit: sc.i32[out + 1] !== 0 };
    },

    closestPoint(point, shape) {
      const p = requireVec3(point, 'point');
      const s = checkShape(shape);
      const out = run(core, sc, ex.sc_wasm_closest_point, s, (f32, w) => writeVec(f32, w, p));
      return { point: readVec(sc.f32, out + 1) };
    },

    contains(point, shape) {
      const p = requireVec3(point, 'point');
      const s = checkShape(shape);
      const out = run(core, sc, ex.sc_wasm_contains, s, (f32, w) => writeVec(f32, w, p));
      return { inside: sc.i32[out + 1] !== 0 };
    },
  };
}
