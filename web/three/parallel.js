// slabcast/three, parallel: the adapter on a ParallelWorld (slabcast/parallel), made with
// createThreeWorld(sc, { parallel }). The caller's empty ParallelWorld holds the entries (every
// box stored as an OBB, so that a mesh turning never needs a rebuild, which a parallel world
// cannot do synchronously); update() refuses while queries are pending and when an entry's shape
// changes between a sphere and a box. The queries the ParallelWorld runs on its workers are
// here, returning Promises that resolve with what the synchronous world returns:
//   intersectFirst, castRays (rays), castSphere, castBox, castSpheres, castBoxes (sweeps), and
//   castCapsule, castCapsules when the ParallelWorld has castCapsules.
// Bad input rejects with the SlabcastError the synchronous world throws. In parallel mode near
// must be 0, layers.mask must not be 0 and exclude must name one entry (their synchronous
// forms re-cast or toggle entries around the call, which a queued query cannot do); the other
// queries (intersect, overlaps, nearest objects) are refused: the ParallelWorld has none of them.

import { asSlabcastError, fail } from './errors.js';
import { coreOptions } from './filters.js';
import {
  accepts, castOutputs, flattenRays, makeHit, readCastOptions, readRaycaster, readRays, writeRay,
} from './raycast.js';
import { attachObjects } from './results.js';
import { SWEEP, batchOutputs, batchResult, readBatch, readSingle, singleHit } from './sweeps.js';
import { live } from './sync.js';

/** Refuses what a queued query cannot do: near > 0, layers.mask 0, an exclude of several entries. */
function plain(p, f) {
  if (p !== null && p.near > 0) fail('near must be 0 on a parallel world', 'near');
  if (f.boxesOnly) fail('layers.mask 0 is not supported on a parallel world', 'layers');
  if (f.runs !== null) fail('exclude must name a single entry on a parallel world', 'options.exclude');
}

/** The async method `name`: f's synchronous part under the lock; errors become rejections. */
function asyncMethod(state, name, f) {
  return function (...args) {
    if (state.busy !== null) {
      return Promise.reject(asSlabcastError(`world.${name}`, new Error(`the world is busy: called from inside world.${state.busy}`)));
    }
    state.busy = name;
    let p;
    try {
      p = f(...args);
    } catch (e) {
      return Promise.reject(asSlabcastError(`world.${name}`, e));
    } finally {
      state.busy = null;
    }
    return p.then((r) => r, (e) => { throw asSlabcastError(`world.${name}`, e); });
  };
}

/** A method the ParallelWorld cannot run. */
function refused(name) {
  return () => {
    fail(`world.${name} is not available on a parallel world (its workers run rays and sweeps only): use a world without options.parallel`, name);
  };
}

async function castRaysAsync(state, rays, opts = {}) {
  const w = live(state);
  const { p, target } = readCastOptions(state, opts);
  plain(p, p.f);
  const { nr, src } = readRays(rays);
  const out = castOutputs(target, nr);
  const flat = flattenRays({ lens: new Float64Array(0), flat: new Float32Array(0) }, src, nr, p.far);
  const srcCopy = Float64Array.from(src);
  const res = await w.castRays(flat.flat, null, coreOptions(state, p.f, nr));
  const hit = { k: -1, t: 0, n0: 0, n1: 0, n2: 0 };
  for (let i = 0; i < nr; i++) {
    hit.k = res.index[i];
    hit.t = res.t[i];
    hit.n0 = res.normal[3 * i];
    hit.n1 = res.normal[3 * i + 1];
    hit.n2 = res.normal[3 * i + 2];
    p.len = flat.lens[i];
    if (hit.k >= 0 && !(p.near <= p.far && accepts(state, hit.k, hit.t * p.len, p))) hit.k = -1; // (far rounded up)
    writeRay(state, out, i, hit, srcCopy, flat.lens[i]);
  }
  return attachObjects(state, out, target, nr);
}

async function intersectFirstAsync(state, raycaster, options) {
  const w = live(state);
  const qs = state.query;
  const p = readRaycaster(state, qs, raycaster, options);
  plain(p, p.f);
  if (!(p.near <= p.far)) return null;
  const q = Float64Array.from(qs.q);
  const one = await w.castRays(qs.ray7, null, qs.opts);
  const k = one.index[0];
  if (k < 0 || !accepts(state, k, one.t[0] * p.len, p)) return null;
  qs.q.set(q); // makeHit reads the ray from the scratch (a later call may have changed it)
  return makeHit(state, k, one.t[0], one.normal[0], one.normal[1], one.normal[2], p);
}

/** Refuses a capsule sweep on a ParallelWorld that has none. */
function sweepsOf(w, kind, name) {
  const method = SWEEP[kind].method;
  if (typeof w[method] !== 'function') fail(`world.${name} is not available on this parallel world (it has no ${method})`, name);
  return method;
}

async function singleAsync(state, kind, origin, direction, size, options) {
  const w = live(state);
  const method = sweepsOf(w, kind, kind === 'capsule' ? 'castCapsule' : 'castSphere');
  const { a, len, max, f, o } = readSingle(state, kind, origin, direction, size, options);
  plain(null, f);
  const r = await w[method](a, null, o);
  return singleHit(state, r, len, max);
}

async function batchAsync(state, kind, sweeps, options) {
  const w = live(state);
  const method = sweepsOf(w, kind, 'castCapsules');
  const b = readBatch(state, kind, sweeps, options);
  plain(null, b.f);
  b.lens = Float64Array.from(b.lens); // (the scratch may be reused before this resolves)
  const out = batchOutputs(state, b, false);
  const r = await w[method](sweeps, out, b.o);
  return batchResult(state, r, b);
}

/** The query methods of a ThreeWorld on a ParallelWorld. */
export function parallelMethods(state) {
  // each async function runs synchronously up to its first await: input is checked under the lock
  return {
    intersect: refused('intersect'),
    intersectFirst: asyncMethod(state, 'intersectFirst', (rc, opts) => intersectFirstAsync(state, rc, opts)),
    castRays: asyncMethod(state, 'castRays', (rays, opts) => castRaysAsync(state, rays, opts)),
    overlapFrustum: refused('overlapFrustum'),
    overlapBox: refused('overlapBox'),
    overlapSphere: refused('overlapSphere'),
    overlapOBB: refused('overlapOBB'),
    overlapCapsule: refused('overlapCapsule'),
    castSphere: asyncMethod(state, 'castSphere', (o, d, r, opts) => singleAsync(state, 'sphere', o, d, r, opts)),
    castBox: asyncMethod(state, 'castBox', (o, d, h, opts) => singleAsync(state, 'box', o, d, h, opts)),
    castCapsule: asyncMethod(state, 'castCapsule', (a, b, r, d, opts) => singleAsync(state, 'capsule', { start: a, end: b, radius: r }, d, undefined, opts)),
    castSpheres: asyncMethod(state, 'castSpheres', (s, opts) => batchAsync(state, 'sphere', s, opts)),
    castBoxes: asyncMethod(state, 'castBoxes', (s, opts) => batchAsync(state, 'box', s, opts)),
    castCapsules: asyncMethod(state, 'castCapsules', (s, opts) => batchAsync(state, 'capsule', s, opts)),
    closestObject: refused('closestObject'),
    closestObjects: refused('closestObjects'),
  };
}
