// slabcast/three: a three.js adapter for slabcast worlds.
//
//   import { loadSlabcast } from 'slabcast';
//   import { createThreeWorld } from 'slabcast/three';
//
//   const sc = await loadSlabcast();
//   const world = createThreeWorld(sc, { objects: [scene] });   // every Mesh under scene
//   scene.updateMatrixWorld();  world.update();                  // after moving things
//   const hits = world.intersect(raycaster);                     // like raycaster.intersectObjects(...)
//   const first = world.intersectFirst(raycaster);               // the nearest, or null
//   const { distance, index } = world.castRays(rays, { far: 50 }); // many rays, nearest each
//   world.dispose();
//
// What is tracked. Each Mesh (and SkinnedMesh) in `objects` (and, with recursive: true, the
// default, every Mesh below them, in three.js's traversal order) is one box: the bounding box of
// its geometry (geometry.boundingBox, computed when null; a SkinnedMesh's own boundingBox) taken
// through its matrixWorld:
//   - a matrixWorld without rotation (each column has one non-zero entry: scales, mirrors, exact
//     axis permutations) gives an axis-aligned box (the fast SIMD path);
//   - a rotation (orthogonal columns, within a cosine of 1e-6) gives an oriented box: centre,
//     unit axes from the matrix columns, half extents times the column lengths;
//   - shear (non-orthogonal columns: a non-uniform scale under a rotated parent) cannot be an
//     oriented box: by default the box is the world AABB of the 8 transformed corners (a
//     conservative bound: it may report hits the sheared box does not have; kindOf(i) is
//     'bound'), or with shear: 'throw' the call throws;
//   - a singular matrixWorld (a zero scale) or an empty bounding box (no vertices) never hits,
//     as in three.js, and keeps its index (kindOf(i) is 'none').
// Each Box3 in `boxes` is one axis-aligned box, after the objects; an empty Box3 (min > max on
// some axis, as new Box3() is) never hits and keeps its index.
// The set of tracked objects is fixed; update() re-reads their matrixWorld and bounding boxes
// (and the Box3s) and refits. Like Raycaster, it reads matrixWorld as it is: call
// scene.updateMatrixWorld() first when objects moved since the last render.
//
// Results follow three.js's Intersection: { distance, point, object, face: { normal } }, sorted
// by distance, ties in traversal order, plus index (the entry's index), box (the Box3 for box
// entries, else null) and worldNormal. object is null for box entries. face.normal is, as in
// three.js, in the object's local space: the normal of the local bounding-box face (for a box
// mesh, three.js's face normal); worldNormal is the unit outward normal in world space. Not
// reproduced (undefined): faceIndex, face.a/b/c, face.materialIndex, uv, uv1, normal (the
// interpolated vertex normal), barycoord, instanceId, batchId.
//
// Boxes are solids, not triangles. three.js's Mesh.raycast reports the triangles a ray crosses;
// with the default FrontSide material only those facing the ray. slabcast reports each box once,
// where the ray enters it:
//   - from outside a box mesh both give a hit at the entry face, at the same distance (to
//     float32 precision) with the same face normal; three.js lists the mesh twice when the ray
//     crosses the face's diagonal (the edge between its two triangles), slabcast once;
//   - a ray starting inside a box: three.js (FrontSide) reports nothing, slabcast reports the box
//     at distance 0 (point = origin, normals (0, 0, 0)) when near is 0;
//   - DoubleSide / BackSide materials: three.js also reports the exit (or only the exit) face;
//     slabcast ignores material.side;
//   - a mesh that is not a box is its bounding box: hits where the geometry has none;
//   - near and far apply to the entry distance: a box entered before near is not reported even
//     if the ray is still inside it at near (as three.js's FrontSide); one entered at or before
//     far is.
// Raycaster.layers is honoured per mesh (object.layers.test(raycaster.layers)), as three.js does;
// visibility is ignored, as three.js does. Points, Lines, Sprites and other non-meshes below the
// given objects are skipped, and so are InstancedMesh and BatchedMesh, which are refused when
// listed in `objects` (one box cannot stand for their instances: use boxes, one per instance).
// A mesh reachable twice (listed, and below another listed object) is tracked once.
//
// Numbers: the core works in float32. Boxes and rays are rounded to float32 on the way in;
// distance = t * |direction| and point = origin + t * direction are computed in float64 from the
// core's float32 t and the caller's ray.

import { Vector3 } from 'three';
import { SlabcastError } from './slabcast.js';
import { fail, isNum } from './three/errors.js';
import { collectEntries } from './three/walk.js';
import {
  AABB, OBB, K_BOUND, K_NONE, K_OBB, aabbAsObb, computeEntry, createShapeScratch, kindName, placeholder,
} from './three/shapes.js';

/**
 * A world of the given meshes' bounds and boxes (see the top of this file). Any exception
 * that is not a SlabcastError, from a throwing getter of the scene or a Proxy, becomes one
 * that names createThreeWorld, with the original as its cause.
 */
export function createThreeWorld(sc, options = {}) {
  try {
    return buildThreeWorld(sc, options);
  } catch (e) {
    if (e instanceof SlabcastError) throw e;
    throw new SlabcastError(`createThreeWorld: ${e && e.message ? e.message : String(e)}`, { cause: e });
  }
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

/** Reads a Vector3-like {x, y, z} into dst[off..off+2]; throws naming field. */
function readVec(v, field, dst, off) {
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

/**
 * Creates a world of the given objects' and boxes' bounds in a new slabcast world.
 * @param {import('./slabcast.js').Slabcast} sc the loaded core (await loadSlabcast())
 * @param {{objects?: object[], boxes?: object[], recursive?: boolean, shear?: 'bound' | 'throw'}} [options]
 */
function buildThreeWorld(sc, options) {
  if (sc === null || typeof sc !== 'object' || typeof sc.createWorld !== 'function') {
    fail('sc must be the object loadSlabcast() resolves to', 'sc');
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    fail('options must be an object ({objects?, boxes?, recursive?, shear?})', 'options');
  }
  const { objects = [], boxes = [], recursive = true, shear = 'bound' } = options;
  if (!Array.isArray(objects)) fail('options.objects must be an array of Object3D', 'options.objects');
  if (!Array.isArray(boxes)) fail('options.boxes must be an array of Box3', 'options.boxes');
  if (typeof recursive !== 'boolean') fail('options.recursive must be a boolean', 'options.recursive');
  if (shear !== 'bound' && shear !== 'throw') fail('options.shear must be "bound" or "throw"', 'options.shear');

  const { entries, names, isBox, nObjects } = collectEntries(objects, boxes, recursive);
  const n = entries.length;

  // Per entry: the 15 floats of its box (AABB: the first 6), its kind, and for meshes the
  // linear part of matrixWorld (for face normals in local space).
  let data = new Float32Array(15 * n);
  let kinds = new Uint8Array(n); // K_AABB, K_OBB, K_BOUND, K_NONE
  let stored = new Uint8Array(n); // AABB or OBB: the kind in the core world
  let linear = new Float64Array(9 * n);

  const shapeState = { entries, names, isBox, shear, shape: createShapeScratch() };

  /** Everything for all entries into fresh arrays; throws (touching nothing) on bad input. */
  function computeAll(prevStored) {
    const d = new Float32Array(15 * n);
    const ks = new Uint8Array(n);
    const st = new Uint8Array(n);
    const lin = new Float64Array(9 * n);
    const row = new Float64Array(15);
    let rebuild = prevStored === null;
    for (let k = 0; k < n; k++) {
      row.fill(0);
      const kind = computeEntry(shapeState, k, row, lin, 9 * k);
      ks[k] = kind;
      let s;
      if (kind === K_OBB) s = OBB;
      else if (kind === K_NONE) s = prevStored === null ? AABB : prevStored[k];
      else s = AABB;
      // an OBB the core holds stays an OBB when it becomes axis-aligned (no rebuild)
      if (prevStored !== null && prevStored[k] === OBB && s === AABB && kind !== K_NONE) {
        aabbAsObb(row);
        s = OBB;
      }
      if (prevStored !== null && prevStored[k] !== s) rebuild = true;
      st[k] = s;
      if (kind === K_NONE) placeholder(shapeState.shape, isBox[k], s, row);
      d.set(row, 15 * k);
    }
    return { d, ks, st, lin, rebuild };
  }

  let core = null;

  /** A new core world holding every entry (runs of one kind added together). */
  function buildCore(d, st) {
    const w = sc.createWorld();
    try {
      let k = 0;
      while (k < n) {
        let j = k + 1;
        while (j < n && st[j] === st[k]) j++;
        const per = st[k] === AABB ? 6 : 15;
        const run = new Float32Array(per * (j - k));
        for (let i = k; i < j; i++) run.set(d.subarray(15 * i, 15 * i + per), per * (i - k));
        if (st[k] === AABB) w.addAABBs(run);
        else w.addOBBs(run);
        k = j;
      }
      w.build();
    } catch (e) {
      w.dispose();
      throw e;
    }
    return w;
  }

  {
    const r = computeAll(null);
    data = r.d;
    kinds = r.ks;
    stored = r.st;
    linear = r.lin;
    core = buildCore(data, stored);
  }

  function live() {
    if (core === null) fail('the world has been disposed', 'world');
    return core;
  }

  function update() {
    const w = live();
    const r = computeAll(stored); // validates everything before anything changes
    if (r.rebuild) {
      const fresh = buildCore(r.d, r.st);
      w.dispose();
      core = fresh;
    } else {
      // runs of changed entries of one stored kind
      let any = false;
      let k = 0;
      try {
        while (k < n) {
          if (!changed(r.d, k)) { k++; continue; }
          let j = k + 1;
          while (j < n && r.st[j] === r.st[k] && changed(r.d, j)) j++;
          const per = r.st[k] === AABB ? 6 : 15;
          const run = new Float32Array(per * (j - k));
          for (let i = k; i < j; i++) run.set(r.d.subarray(15 * i, 15 * i + per), per * (i - k));
          if (r.st[k] === AABB) w.updateAABBs(k, run);
          else w.updateOBBs(k, run);
          any = true;
          k = j;
        }
        if (any) w.refit();
      } catch (e) {
        // (not expected: everything was checked) put the world back as it was
        core = buildCore(data, stored);
        w.dispose();
        throw e;
      }
    }
    data = r.d;
    kinds = r.ks;
    stored = r.st;
    linear = r.lin;
  }

  function changed(d, k) {
    for (let i = 15 * k; i < 15 * k + 15; i++) if (!Object.is(d[i], data[i])) return true;
    return false;
  }

  // ------------------------------------------------------------------ queries
  const ray7 = new Float32Array(7);
  let allOut = { t: new Float32Array(64), index: new Int32Array(64), normal: new Float32Array(192) };
  const one = { t: new Float32Array(1), index: new Int32Array(1), normal: new Float32Array(3) };
  const q = new Float64Array(6); // origin, direction of the current query (float64)

  /** Checks a raycaster-like; fills q, ray7; returns {near, far, layers, len}. */
  function readRaycaster(rc) {
    if (rc === null || typeof rc !== 'object') fail('raycaster must be a Raycaster (or {ray, near?, far?, layers?})', 'raycaster');
    const ray = rc.ray;
    if (ray === null || typeof ray !== 'object') fail('raycaster.ray must be a Ray', 'raycaster.ray');
    readVec(ray.origin, 'raycaster.ray.origin', q, 0);
    readVec(ray.direction, 'raycaster.ray.direction', q, 3);
    const near = rc.near === undefined ? 0 : rc.near;
    const far = rc.far === undefined ? Infinity : rc.far;
    if (!isNum(near) || !(near >= 0)) fail('raycaster.near must be a number >= 0', 'raycaster.near');
    if (!isNum(far) || !(far >= 0)) fail('raycaster.far must be a number >= 0 (or Infinity)', 'raycaster.far');
    const layers = rc.layers === undefined || rc.layers === null ? null : rc.layers;
    if (layers !== null && (typeof layers !== 'object' || !isNum(layers.mask))) fail('raycaster.layers must be a Layers', 'raycaster.layers');
    return prepare(near, far, layers, 'raycaster.ray.direction');
  }

  /** From q: the float32 ray (tmax from far) in ray7; returns the query's parameters. */
  function prepare(near, far, layers, dirField) {
    const len = Math.hypot(q[3], q[4], q[5]);
    for (let a = 0; a < 6; a++) ray7[a] = q[a];
    if (ray7[3] === 0 && ray7[4] === 0 && ray7[5] === 0) fail(`${dirField} is zero (in float32)`, dirField);
    ray7[6] = f32Up(far / len);
    return { near, far, layers, len };
  }

  function accepts(k, distance, p) {
    if (kinds[k] === K_NONE || distance < p.near || distance > p.far) return false;
    if (p.layers !== null && !isBox[k]) {
      const l = entries[k].layers;
      if (l && typeof l.test === 'function' && !l.test(p.layers)) return false;
    }
    return true;
  }

  /** All hits of the ray in ray7 (in allOut), count returned. */
  function castAll(w) {
    let r = w.castRayAll(ray7, allOut);
    if (r.count > allOut.t.length) {
      const c = r.count;
      allOut = { t: new Float32Array(c), index: new Int32Array(c), normal: new Float32Array(3 * c) };
      r = w.castRayAll(ray7, allOut);
    }
    return r.count;
  }

  function makeHit(k, t, nx, ny, nz, p) {
    const point = new Vector3(q[0] + t * q[3], q[1] + t * q[4], q[2] + t * q[5]);
    const worldNormal = new Vector3(nx, ny, nz);
    const normal = new Vector3();
    if (isBox[k] || (nx === 0 && ny === 0 && nz === 0)) {
      normal.copy(worldNormal);
    } else {
      // local normal: proportional to M^T n (M the linear part of matrixWorld)
      const L = linear;
      const o = 9 * k;
      const lx = L[o] * nx + L[o + 3] * ny + L[o + 6] * nz;
      const ly = L[o + 1] * nx + L[o + 4] * ny + L[o + 7] * nz;
      const lz = L[o + 2] * nx + L[o + 5] * ny + L[o + 8] * nz;
      if (kinds[k] === K_BOUND) {
        normal.set(lx, ly, lz).normalize();
      } else {
        // a face of the local box: exactly an axis
        const ax = Math.abs(lx);
        const ay = Math.abs(ly);
        const az = Math.abs(lz);
        if (ax >= ay && ax >= az) normal.set(Math.sign(lx), 0, 0);
        else if (ay >= az) normal.set(0, Math.sign(ly), 0);
        else normal.set(0, 0, Math.sign(lz));
      }
    }
    return {
      distance: t * p.len,
      point,
      object: isBox[k] ? null : entries[k],
      face: { normal },
      worldNormal,
      index: k,
      box: isBox[k] ? entries[k] : null,
    };
  }

  function intersect(raycaster, target = []) {
    const w = live();
    if (!Array.isArray(target)) fail('target must be an array', 'target');
    const p = readRaycaster(raycaster);
    const before = target.length;
    if (!(p.near <= p.far)) return target;
    const count = castAll(w);
    const { t, index, normal } = allOut;
    for (let i = 0; i < count; i++) {
      const k = index[i];
      if (!accepts(k, t[i] * p.len, p)) continue;
      target.push(makeHit(k, t[i], normal[3 * i], normal[3 * i + 1], normal[3 * i + 2], p));
    }
    if (before > 0 && target.length > before) target.sort((a, b) => a.distance - b.distance);
    return target;
  }

  function intersectFirst(raycaster) {
    const w = live();
    const p = readRaycaster(raycaster);
    if (!(p.near <= p.far)) return null;
    w.castRays(ray7, one);
    const k = one.index[0];
    if (k < 0) return null;
    if (accepts(k, one.t[0] * p.len, p)) return makeHit(k, one.t[0], one.normal[0], one.normal[1], one.normal[2], p);
    // the nearest is filtered out (near, layers, an inactive entry): the first that is not
    const count = castAll(w);
    const { t, index, normal } = allOut;
    for (let i = 0; i < count; i++) {
      if (accepts(index[i], t[i] * p.len, p)) return makeHit(index[i], t[i], normal[3 * i], normal[3 * i + 1], normal[3 * i + 2], p);
    }
    return null;
  }

  function outArr(target, key, Type, length) {
    const a = target === undefined || target === null ? undefined : target[key];
    if (a === undefined) return new Type(length);
    if (!(a instanceof Type)) fail(`options.target.${key} must be a ${Type.name}`, `options.target.${key}`);
    if (a.length < length) fail(`options.target.${key} must hold at least ${length} items; it holds ${a.length}`, `options.target.${key}`);
    return a;
  }

  function castRays(rays, opts = {}) {
    const w = live();
    if (opts === null || typeof opts !== 'object') fail('options must be an object ({near?, far?, layers?, target?})', 'options');
    const near = opts.near === undefined ? 0 : opts.near;
    const far = opts.far === undefined ? Infinity : opts.far;
    if (!isNum(near) || !(near >= 0)) fail('options.near must be a number >= 0', 'options.near');
    if (!isNum(far) || !(far >= 0)) fail('options.far must be a number >= 0 (or Infinity)', 'options.far');
    const layers = opts.layers === undefined || opts.layers === null ? null : opts.layers;
    if (layers !== null && (typeof layers !== 'object' || !isNum(layers.mask))) fail('options.layers must be a Layers', 'options.layers');
    const target = opts.target;
    if (target !== undefined && target !== null && typeof target !== 'object') fail('options.target must be an object', 'options.target');

    // the rays, in float64 (for distances and points) and as the core's 7 floats
    let nr;
    let src;
    if (rays instanceof Float32Array || rays instanceof Float64Array) {
      if (rays.length % 6 !== 0) fail(`rays must hold 6 floats per ray (origin, direction); its length ${rays.length} is not a multiple of 6`, 'rays');
      nr = rays.length / 6;
      src = Float64Array.from(rays);
    } else if (Array.isArray(rays)) {
      nr = rays.length;
      src = new Float64Array(6 * nr);
      for (let i = 0; i < nr; i++) {
        const r = rays[i];
        if (r === null || typeof r !== 'object') fail(`rays[${i}] must be a Ray`, `rays[${i}]`);
        readVec(r.origin, `rays[${i}].origin`, src, 6 * i);
        readVec(r.direction, `rays[${i}].direction`, src, 6 * i + 3);
      }
    } else {
      fail('rays must be an array of Ray or a Float32Array (6 floats per ray)', 'rays');
    }
    const distance = outArr(target, 'distance', Float32Array, nr);
    const index = outArr(target, 'index', Int32Array, nr);
    const point = outArr(target, 'point', Float32Array, 3 * nr);
    const normal = outArr(target, 'normal', Float32Array, 3 * nr);
    const outs = [['distance', distance], ['index', index], ['point', point], ['normal', normal]];
    for (let i = 0; i < 4; i++) {
      for (let j = i + 1; j < 4; j++) {
        const a = outs[i][1];
        const b = outs[j][1];
        if (a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength) {
          fail(`options.target.${outs[i][0]} and options.target.${outs[j][0]} overlap`, `options.target.${outs[j][0]}`);
        }
      }
    }
    const lens = new Float64Array(nr);
    const flat = new Float32Array(7 * nr);
    for (let i = 0; i < nr; i++) {
      const o = 6 * i;
      for (let a = 0; a < 6; a++) {
        if (!Number.isFinite(src[o + a])) fail(`rays[${i}] is not finite`, `rays[${i}]`);
        flat[7 * i + a] = src[o + a];
      }
      if (flat[7 * i + 3] === 0 && flat[7 * i + 4] === 0 && flat[7 * i + 5] === 0) fail(`rays[${i}]: the direction is zero (in float32)`, `rays[${i}]`);
      lens[i] = Math.hypot(src[o + 3], src[o + 4], src[o + 5]);
      flat[7 * i + 6] = f32Up(far / lens[i]);
    }
    const res = w.castRays(flat);
    const p = { near, far, layers, len: 0 };
    for (let i = 0; i < nr; i++) {
      let k = res.index[i];
      let t = res.t[i];
      let n0 = res.normal[3 * i];
      let n1 = res.normal[3 * i + 1];
      let n2 = res.normal[3 * i + 2];
      p.len = lens[i];
      if (k >= 0 && !(near <= far && accepts(k, t * lens[i], p))) {
        k = -1;
        if (near <= far) {
          for (let a = 0; a < 6; a++) q[a] = src[6 * i + a];
          for (let a = 0; a < 7; a++) ray7[a] = flat[7 * i + a];
          const count = castAll(w);
          for (let j = 0; j < count; j++) {
            if (accepts(allOut.index[j], allOut.t[j] * lens[i], p)) {
              k = allOut.index[j];
              t = allOut.t[j];
              n0 = allOut.normal[3 * j];
              n1 = allOut.normal[3 * j + 1];
              n2 = allOut.normal[3 * j + 2];
              break;
            }
          }
        }
      }
      index[i] = k;
      if (k < 0) {
        distance[i] = Infinity;
        point.fill(0, 3 * i, 3 * i + 3);
        normal.fill(0, 3 * i, 3 * i + 3);
        continue;
      }
      const o = 6 * i;
      distance[i] = t * lens[i];
      point[3 * i] = src[o] + t * src[o + 3];
      point[3 * i + 1] = src[o + 1] + t * src[o + 4];
      point[3 * i + 2] = src[o + 2] + t * src[o + 5];
      normal[3 * i] = n0;
      normal[3 * i + 1] = n1;
      normal[3 * i + 2] = n2;
    }
    return { distance, index, point, normal };
  }

  function kindOf(index) {
    live();
    return kindName(kinds, n, index);
  }

  // Any exception that is not a SlabcastError (a throwing getter in the caller's scene, say)
  // reaches the caller as a SlabcastError naming the call. The world is locked during a call:
  // a getter of the scene that reaches it again (dispose, update, a query) is refused, so a
  // disposed world can never be revived by an update that was running.
  let busy = null;
  const guard = (name, f) => function (...args) {
    if (busy !== null) {
      throw new SlabcastError(`world.${name}: the world is busy: called from inside world.${busy} (a getter of the scene); nothing was changed`, { field: name });
    }
    busy = name;
    try {
      return f.apply(this, args);
    } catch (e) {
      if (e instanceof SlabcastError) throw e;
      throw new SlabcastError(`world.${name}: ${e && e.message ? e.message : String(e)}`, { cause: e });
    } finally {
      busy = null;
    }
  };

  return {
    /** The tracked meshes, then the boxes, by index (frozen). */
    entries: Object.freeze(entries.slice()),
    /** The number of entries (meshes + boxes). */
    get count() { return n; },
    /** The number of tracked meshes (entries 0..objectCount-1); boxes follow. */
    get objectCount() { return nObjects; },
    /** Whether dispose() has been called. */
    get disposed() { return core === null; },
    update: guard('update', update),
    intersect: guard('intersect', intersect),
    intersectFirst: guard('intersectFirst', intersectFirst),
    castRays: guard('castRays', castRays),
    kindOf: guard('kindOf', kindOf),
    dispose: guard('dispose', () => {
      if (core === null) return;
      const w = core;
      core = null;
      w.dispose();
    }),
  };
}
