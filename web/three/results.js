// slabcast/three, results: what the object queries (overlaps, sweeps, nearest) report for an
// entry, in the terms of intersect's hits: { object, index, box, instanceId, batchId }. object is
// the Mesh / InstancedMesh / BatchedMesh (null for a Box3 entry), box the Box3 (else null),
// instanceId the InstancedMesh slot and batchId the BatchedMesh instance (undefined otherwise:
// the fields always exist, so that reused result objects keep one shape).

import { fail } from './errors.js';

/** Writes entry k's names into r (a fresh or reused result object); returns r. */
export function nameEntry(state, k, r) {
  const isBox = state.isBox[k];
  const obj = state.entries[k];
  r.object = isBox ? null : obj;
  r.index = k;
  r.box = isBox ? obj : null;
  const id = state.inst[k];
  r.instanceId = id >= 0 && !obj.isBatchedMesh ? id : undefined;
  r.batchId = id >= 0 && obj.isBatchedMesh ? id : undefined;
  return r;
}

/** The caller's target array (checked) or a new one; field names it in errors. */
export function targetArray(target, field) {
  if (target === undefined || target === null) return [];
  if (!Array.isArray(target)) fail(`${field} must be an array`, field);
  return target;
}

/**
 * Gives a batch result out its objects: per item, the entry (Mesh, InstancedMesh, BatchedMesh or
 * Box3) of out.index[i], null for none. Into the caller's target.objects (checked; grown to n)
 * at once; else made when out.objects is first read (a caller that only reads index pays
 * nothing), from out.index as it is then.
 */
export function attachObjects(state, out, target, n) {
  const a = target === undefined || target === null ? undefined : target.objects;
  const entries = state.entries;
  const fill = (arr) => {
    const index = out.index;
    for (let i = 0; i < n; i++) arr[i] = index[i] < 0 ? null : entries[index[i]];
    return arr;
  };
  if (a !== undefined) {
    if (!Array.isArray(a)) fail('options.target.objects must be an array', 'options.target.objects');
    if (a.length < n) a.length = n;
    out.objects = fill(a);
    return out;
  }
  let made = null;
  Object.defineProperty(out, 'objects', {
    get() {
      if (made === null) made = fill(new Array(n));
      return made;
    },
    enumerable: true,
    configurable: true,
  });
  return out;
}

/** The object (Mesh, InstancedMesh, BatchedMesh or Box3) of entry k, or null for k < 0. */
export function objectOf(state, k) {
  return k < 0 ? null : state.entries[k];
}
