// slabcast/three, sync: keeping the slabcast world in step with the scene. Builds the core world
// from every entry's record, mask and enabled flag, re-reads them on update() (all checked
// before anything changes; only changed runs are rewritten, then refit, or the world is rebuilt
// when a stored kind changes), disposes it, and locks the world during each call so that a
// getter of the scene cannot reach it again.
//
// The per-world state (made by createThreeWorld, passed to every function here):
//   sc, shear, entries, names, isBox, inst,         what is tracked (walk.js); inst: the
//     capacity, nObjects, n                         instance slot of each entry (-1: none)
//   shape                                           scratch for shapes.js (shape.inst: for
//                                                   instances.js)
//   data, kinds, stored, linear                     per entry: its 15 floats (AABB: the first
//                                                   6), its K_* kind, its stored kind (AABB,
//                                                   OBB, SPHERE or CAPSULE, as the core holds
//                                                   it), and for meshes
//                                                   the linear part of matrixWorld (9 floats;
//                                                   an instance's: matrixWorld x its matrix)
//   masks, enabled                                  per entry: its core mask (a mesh's
//                                                   layers.mask, a Box3's all bits) and whether
//                                                   it is enabled in the core (kind not none)
//   core                                            the core world, null once disposed
//   busy                                            the call in progress (the lock), or null
//   query                                           scratch for raycast.js

import { SlabcastError } from '../slabcast.js';
import { asSlabcastError, fail } from './errors.js';
import { computeInstance, startPass } from './instances.js';
import { AABB, CAPSULE, FLOATS, K_CAPSULE, K_NONE, K_OBB, K_SPHERE, OBB, SPHERE, aabbAsObb, computeEntry, placeholder } from './shapes.js';

/** A Box3 entry's mask: every layer. */
const ALL_BITS = 0xFFFFFFFF;

/**
 * Computes every entry's record and builds the state's first core world (state.parallel: fills
 * the caller's empty ParallelWorld instead).
 */
export function start(state) {
  const r = computeAll(state, null);
  adopt(state, r);
  state.core = state.parallel === null ? buildCore(state, r) : fillCore(state, state.parallel, r);
}

/** The core world; throws once disposed. */
export function live(state) {
  if (state.core === null) fail('the world has been disposed', 'world');
  return state.core;
}

/** update(): re-reads every entry, then rewrites what changed (or rebuilds) and refits. */
export function update(state) {
  const w = live(state);
  if (state.parallel !== null && state.parallel.pending > 0) {
    fail('the parallel world has queries pending: await them before update()', 'world');
  }
  const r = computeAll(state, state.stored); // validates everything before anything changes
  if (r.rebuild && state.parallel !== null) {
    const k = r.st.findIndex((v, i) => v !== state.stored[i]);
    fail(`${state.names[k]}: its shape changed kind (spheres, capsules and boxes are stored differently), which a parallel world cannot rebuild: make a new world`, state.names[k]);
  }
  if (r.rebuild) {
    const fresh = buildCore(state, r);
    w.dispose();
    state.core = fresh;
  } else {
    writeChanged(state, w, r);
  }
  adopt(state, r);
}

/** dispose(): frees the core world (once); a caller's ParallelWorld is left to the caller. */
export function dispose(state) {
  if (state.core === null) return;
  const w = state.core;
  state.core = null;
  if (state.parallel === null) w.dispose();
}

function adopt(state, r) {
  state.data = r.d;
  state.kinds = r.ks;
  state.stored = r.st;
  state.linear = r.lin;
  state.masks = r.mk;
  state.enabled = r.on;
}

/**
 * Everything for all entries into fresh arrays; throws (touching nothing) on bad input.
 * prevStored: the stored kinds the core holds (null for a new world); rebuild is true when
 * one of them has to change.
 */
function computeAll(state, prevStored) {
  const n = state.n;
  const r = {
    d: new Float32Array(15 * n), ks: new Uint8Array(n), st: new Uint8Array(n), lin: new Float64Array(9 * n),
    mk: new Uint32Array(n), on: new Uint8Array(n), rebuild: prevStored === null,
  };
  const row = new Float64Array(15);
  startPass(state.shape);
  for (let k = 0; k < n; k++) {
    row.fill(0);
    const kind = state.inst[k] >= 0 ? computeInstance(state, k, row, r.lin, 9 * k) : computeEntry(state, k, row, r.lin, 9 * k);
    r.ks[k] = kind;
    const s = storedKind(kind, prevStored === null ? -1 : prevStored[k], row, state.parallel !== null);
    if (prevStored !== null && prevStored[k] !== s) r.rebuild = true;
    r.st[k] = s;
    if (kind === K_NONE) placeholder(state.shape, state.isBox[k], s, row);
    r.d.set(row, 15 * k);
    r.mk[k] = state.isBox[k] ? ALL_BITS : layersMask(state.entries[k], state.names[k]);
    r.on[k] = kind === K_NONE ? 0 : 1;
  }
  return r;
}

/**
 * How an entry of kind is stored (AABB or OBB) when the core holds it as prev (-1: new). An OBB
 * the core holds stays an OBB when it becomes axis-aligned (row rewritten; no rebuild), and an
 * inactive entry keeps its stored kind.
 */
function storedKind(kind, prev, row, parallel) {
  if (kind === K_OBB) return OBB;
  if (kind === K_SPHERE) return SPHERE;
  if (kind === K_CAPSULE) return CAPSULE;
  if (kind === K_NONE) return prev === -1 ? (parallel ? OBB : AABB) : prev;
  if (prev === OBB || parallel) { // an AABB the core holds as an OBB (a parallel world: every box)
    aabbAsObb(row);
    return OBB;
  }
  return AABB;
}

/** A mesh's layers.mask as a uint32 (read once); throws naming the mesh unless an integer. */
function layersMask(obj, name) {
  const layers = obj.layers;
  const mask = layers !== null && typeof layers === 'object' ? layers.mask : undefined;
  if (!Number.isInteger(mask)) fail(`${name}: layers.mask must be an integer (a Layers)`, name);
  return mask >>> 0;
}

/** The records of entries k..j-1 (all of stored kind st[k]) as the core takes them. */
function run(d, st, k, j) {
  const per = FLOATS[st[k]];
  const out = new Float32Array(per * (j - k));
  for (let i = k; i < j; i++) out.set(d.subarray(15 * i, 15 * i + per), per * (i - k));
  return out;
}

/** A new core world holding every entry of r (runs of one kind added together), masks, flags. */
function buildCore(state, r) {
  const w = state.sc.createWorld();
  try {
    fillCore(state, w, r);
    w.build();
  } catch (e) {
    w.dispose();
    throw e;
  }
  return w;
}

/** Adds every entry of r to the empty world w (a World or a ParallelWorld), masks and flags; returns w. */
function fillCore(state, w, r) {
  const { d, st, mk, on } = r;
  const n = st.length;
  {
    let k = 0;
    while (k < n) {
      let j = k + 1;
      while (j < n && st[j] === st[k]) j++;
      if (st[k] === AABB) w.addAABBs(run(d, st, k, j));
      else if (st[k] === SPHERE) w.addSpheres(run(d, st, k, j));
      else if (st[k] === CAPSULE) addCapsules(state, w, run(d, st, k, j), k);
      else w.addOBBs(run(d, st, k, j));
      k = j;
    }
    if (n > 0) {
      w.setMasks(0, mk);
      w.setEnabled(0, on);
    }
  }
  return w;
}

/** Adds a run of capsules (entries from k) to w; a ParallelWorld without capsules is refused naming the first. */
function addCapsules(state, w, caps, k) {
  if (typeof w.addCapsules !== 'function') {
    fail(`${state.names[k]} is a capsule (a CapsuleGeometry, or userData.slabcast.shape 'capsule'), which this parallel world cannot hold: give it userData.slabcast = { shape: 'obb' }`, state.names[k]);
  }
  w.addCapsules(caps);
}

/** Rewrites the runs of changed entries of one stored kind in w, then refits. */
function writeChanged(state, w, r) {
  const n = state.n;
  let any = false;
  let k = 0;
  try {
    while (k < n) {
      if (!changed(state.data, r.d, k)) { k++; continue; }
      let j = k + 1;
      while (j < n && r.st[j] === r.st[k] && changed(state.data, r.d, j)) j++;
      if (r.st[k] === AABB) w.updateAABBs(k, run(r.d, r.st, k, j));
      else if (r.st[k] === SPHERE) w.updateSpheres(k, run(r.d, r.st, k, j));
      else if (r.st[k] === CAPSULE) w.updateCapsules(k, run(r.d, r.st, k, j));
      else w.updateOBBs(k, run(r.d, r.st, k, j));
      any = true;
      k = j;
    }
    if (any && state.parallel === null) w.refit(); // (a ParallelWorld refits by itself)
    if (!sameArray(state.masks, r.mk)) w.setMasks(0, r.mk);
    if (!sameArray(state.enabled, r.on)) w.setEnabled(0, r.on);
  } catch (e) {
    if (state.parallel !== null) throw e; // (a pending query: the caller's to await first)
    // (not expected: everything was checked) put the world back as it was
    state.core = buildCore(state, { d: state.data, st: state.stored, mk: state.masks, on: state.enabled });
    w.dispose();
    throw e;
  }
}

function sameArray(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function changed(data, d, k) {
  for (let i = 15 * k; i < 15 * k + 15; i++) if (!Object.is(d[i], data[i])) return true;
  return false;
}

/**
 * The world method `name` running f under the world lock. Any exception that is not a
 * SlabcastError (a throwing getter in the caller's scene, say) reaches the caller as a
 * SlabcastError naming the call. A getter of the scene that reaches the world again during a
 * call (dispose, update, a query) is refused, so a disposed world can never be revived by an
 * update that was running.
 */
export function locked(state, name, f) {
  return function (...args) {
    if (state.busy !== null) {
      throw new SlabcastError(`world.${name}: the world is busy: called from inside world.${state.busy} (a getter of the scene); nothing was changed`, { field: name });
    }
    state.busy = name;
    try {
      return f.apply(this, args);
    } catch (e) {
      throw asSlabcastError(`world.${name}`, e);
    } finally {
      state.busy = null;
    }
  };
}
