// slabcast/three, filters: which entries a query may report, in three.js terms, turned into the
// core's query options { mask, exclude, inside } (and only those keys).
//   layers   a Layers: the core's query mask is layers.mask (each mesh entry's mask is its
//            layers.mask, each Box3's every bit). layers.mask 0 passes no mesh, yet Box3 entries
//            still count: the mesh entries are then disabled for the call.
//   exclude  one item or an array of items, each an Object3D (a tracked Mesh: its entry; an
//            InstancedMesh / BatchedMesh: all its slots; any other Object3D: every tracked mesh
//            below it, which must be at least one), a tracked Box3, or { object, instanceId } /
//            { object, batchId } (one slot). When the items name exactly one entry it becomes the
//            core's exclude (one index per query item, at no cost); more entries are disabled in
//            the core world for the call (setEnabled, one call per contiguous run of entries: an
//            instanced mesh's slots are one run) and restored in a finally block.
//   inside   'solid' | 'skip' | 'exit', passed to the core as is.
// A capsule entry kind, when the core has one, needs nothing here: filters name entries.

import { fail } from './errors.js';
import { live } from './sync.js';

/** The query mask without layers: every layer (a mesh whose layers.mask is 0 is never hit). */
export const ALL_BITS = 0xFFFFFFFF;

const INSIDE = ['solid', 'skip', 'exit'];

/** Scratch for the filters of one world (state.filter). */
export function createFilterScratch() {
  return {
    ranges: null, // Map: tracked object (Mesh, InstancedMesh, BatchedMesh, Box3) -> [first, count, first, count, ...]
    zeros: new Uint8Array(0), // setEnabled's flags for disabled runs
    ex: new Int32Array(0), // the core's exclude: one index per query item
  };
}

/** The runs of entries each tracked object owns (made once: the entries are fixed). */
function rangesOf(state) {
  const fs = state.filter;
  if (fs.ranges !== null) return fs.ranges;
  const map = new Map();
  const { entries, n } = state;
  let k = 0;
  while (k < n) {
    const obj = entries[k];
    let j = k + 1;
    while (j < n && entries[j] === obj && !state.isBox[k]) j++;
    const r = map.get(obj);
    if (r === undefined) map.set(obj, [k, j - k]);
    else r.push(k, j - k);
    k = j;
  }
  fs.ranges = map;
  return map;
}

/**
 * Reads layers (as readLimits did) into { mask, boxesOnly }: mask is the core query mask.
 * prefix names the options in errors.
 */
export function readLayers(o, prefix) {
  const layers = o.layers === undefined || o.layers === null ? null : o.layers;
  let mask = ALL_BITS;
  if (layers !== null) {
    mask = typeof layers === 'object' ? layers.mask : undefined;
    if (!Number.isInteger(mask)) fail(`${prefix}.layers must be a Layers (an integer mask)`, `${prefix}.layers`);
    mask >>>= 0;
  }
  const boxesOnly = mask === 0;
  return { mask: boxesOnly ? ALL_BITS : mask, boxesOnly };
}

/**
 * The filter of a query: layers, exclude and inside of o (undefined: none), checked.
 * Returns { mask, boxesOnly, inside, one, runs }: one is the single excluded entry (-1: none),
 * runs the [first, count] pairs to disable for the call (null: none).
 */
export function readFilterOptions(state, o, prefix) {
  const f = readLayers(o, prefix);
  const inside = o.inside === undefined ? undefined : o.inside;
  if (inside !== undefined && !INSIDE.includes(inside)) fail(`${prefix}.inside must be 'solid', 'skip' or 'exit'`, `${prefix}.inside`);
  f.inside = inside;
  f.one = -1;
  f.runs = null;
  const ex = o.exclude;
  if (ex === undefined || ex === null) return f;
  const runs = [];
  if (Array.isArray(ex)) {
    for (let i = 0; i < ex.length; i++) excludeItem(state, ex[i], `${prefix}.exclude[${i}]`, runs);
  } else {
    excludeItem(state, ex, `${prefix}.exclude`, runs);
  }
  if (runs.length === 2 && runs[1] === 1) f.one = runs[0];
  else if (runs.length > 0) f.runs = runs;
  return f;
}

/** Appends the [first, count] runs item names to runs; throws naming field. */
function excludeItem(state, item, field, runs) {
  if (item === null || typeof item !== 'object') fail(`${field} must be an Object3D, a Box3 or {object, instanceId | batchId}`, field);
  const map = rangesOf(state);
  const own = map.get(item);
  if (own !== undefined) {
    runs.push(...own);
    return;
  }
  if (item.isObject3D === true) {
    const before = runs.length;
    item.traverse((o) => {
      const r = o !== item ? map.get(o) : undefined;
      if (r !== undefined) runs.push(...r);
    });
    if (runs.length === before) fail(`${field} is not tracked by this world, nor is any mesh below it`, field);
    return;
  }
  if (item.isBox3 === true) fail(`${field} is a Box3 this world does not track`, field);
  const obj = item.object;
  const id = item.object && item.object.isBatchedMesh ? item.batchId : item.instanceId;
  const idName = item.object && item.object.isBatchedMesh ? 'batchId' : 'instanceId';
  const r = obj === null || typeof obj !== 'object' ? undefined : map.get(obj);
  if (r === undefined || !(obj.isInstancedMesh || obj.isBatchedMesh)) {
    fail(`${field}.object must be an InstancedMesh or BatchedMesh this world tracks`, `${field}.object`);
  }
  if (!Number.isInteger(id) || id < 0 || id >= r[1]) fail(`${field}.${idName} must be an integer in [0, ${r[1]})`, `${field}.${idName}`);
  runs.push(r[0] + id, 1);
}

/**
 * The core's options object for a query of n items under filter f (only the keys the core
 * takes; null when none is needed). The exclude array is the world's scratch.
 */
export function coreOptions(state, f, n) {
  // the default filter: no options at all (the core's fastest path)
  if (f.mask === ALL_BITS && f.inside === undefined && f.one < 0) return null;
  const o = { mask: f.mask };
  if (f.inside !== undefined) o.inside = f.inside;
  if (f.one >= 0) {
    const fs = state.filter;
    if (fs.ex.length < n) fs.ex = new Int32Array(Math.max(n, 2 * fs.ex.length));
    const ex = fs.ex.length === n ? fs.ex : fs.ex.subarray(0, n);
    ex.fill(f.one);
    o.exclude = ex;
  }
  return o;
}

/**
 * Runs query() with the entries of f.runs (and, for boxesOnly, every mesh entry) disabled in
 * the core world, restoring their flags afterwards (also when query throws). Returns its value.
 */
export function withDisabled(state, f, query) {
  if (f.runs === null && !(f.boxesOnly && state.nObjects > 0)) return query();
  const w = live(state);
  const runs = f.runs === null ? [] : f.runs.slice();
  if (f.boxesOnly && state.nObjects > 0) runs.push(0, state.nObjects);
  const fs = state.filter;
  let done = 0;
  try {
    for (; done < runs.length; done += 2) {
      const count = runs[done + 1];
      if (fs.zeros.length < count) fs.zeros = new Uint8Array(count);
      w.setEnabled(runs[done], count === fs.zeros.length ? fs.zeros : fs.zeros.subarray(0, count));
    }
    return query();
  } finally {
    for (let i = 0; i < done; i += 2) {
      const first = runs[i];
      w.setEnabled(first, state.enabled.subarray(first, first + runs[i + 1]));
    }
  }
}
