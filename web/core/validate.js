// validate.js: the structural checks of every input, and the checks of the caller's arrays.
//
// Every input is read exactly once, into plain values: a getter or a Proxy cannot hand the
// checks one value and the writer another. Messages name the field at fault, in the order and
// words of docs/case-runner.md ('"ray.origin" must be an array of 3 numbers').
import { fail, truncateUtf8 } from './errors.js';
import { taBuffer, taByteLength, taByteOffset, taExact, taKind, taLength, taSet } from './typed.js';

/** The most items one batch may hold. */
export const MAX_BATCH_ITEMS = 16777216;

const isView = ArrayBuffer.isView;

/** An object that is not an array, a typed array or a DataView. */
export function isPlainObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isView(v);
}

/** The edit distance of two short strings (for "did you mean" in messages). */
function editDistance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/**
 * Refuses an own enumerable key of options (a plain object) that is not one of `keys`, naming
 * it (and the option it is closest to, when one is within two edits): a misspelt option must not
 * be ignored. A for-in loop, not Object.keys: no array per call; an inherited key is not refused.
 */
export function checkOptionKeys(options, keys, name = 'options') {
  for (const key in options) {
    if (keys.includes(key) || !Object.hasOwn(options, key)) continue;
    const shown = truncateUtf8(key);
    let hint = '';
    if (key.length <= 64) {
      const near = keys.filter((k) => editDistance(key, k) <= 2);
      if (near.length > 0) hint = `; did you mean ${near[0]}?`;
    }
    fail(`${name}.${shown} is not an option (${keys.join(', ')})${hint}`, `${name}.${shown}`);
  }
}

/**
 * The 3 numbers of v (an array or a typed array), copied; null when v is not such a vector.
 * Array.isArray first: an array is never a typed array, so the common case needs no brand check.
 */
function vec3Of(v) {
  let n;
  if (Array.isArray(v)) n = v.length;
  else if (taKind(v) !== undefined) n = taLength(v);
  else return null;
  if (n !== 3) return null;
  const x = v[0];
  const y = v[1];
  const z = v[2];
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') return null;
  return [x, y, z];
}

/**
 * requireVec3 without the copy: the 3 numbers of v stored into f[off..off+2] (a Float32Array:
 * rounded to float32 there, as when written to wasm memory), each element read once. The same
 * checks, in the same order, and the same error. An array is read here (small enough for V8 to
 * inline into each caller); anything else by typedVec3Into.
 */
export function vec3Into(v, name, f, off) {
  if (Array.isArray(v)) {
    if (v.length === 3) {
      const x = v[0];
      const y = v[1];
      const z = v[2];
      if (typeof x === 'number' && typeof y === 'number' && typeof z === 'number') {
        f[off] = x;
        f[off + 1] = y;
        f[off + 2] = z;
        return;
      }
    }
  } else if (typedVec3Into(v, f, off)) {
    return;
  }
  vec3Fail(name);
}

/** vec3Into of v that is not an array: a typed array of 3 numbers stored at f[off]; false for anything else. */
export function typedVec3Into(v, f, off) {
  if (taKind(v) === undefined || taLength(v) !== 3) return false;
  const x = v[0];
  const y = v[1];
  const z = v[2];
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') return false; // a BigInt64Array's
  f[off] = x;
  f[off + 1] = y;
  f[off + 2] = z;
  return true;
}

function vec3Fail(name) {
  fail(`"${name}" must be an array of 3 numbers`, name);
}

export function requireObject(v, name) {
  if (!isPlainObject(v)) fail(`"${name}" must be an object`, name);
}

/** The 3 numbers of v, copied, or a SlabcastError naming `name`. */
export function requireVec3(v, name) {
  const c = vec3Of(v);
  if (c === null) fail(`"${name}" must be an array of 3 numbers`, name);
  return c;
}

/** v when it is a number, else a SlabcastError naming `name`. */
export function requireNumber(v, name) {
  if (typeof v !== 'number') fail(`"${name}" must be a number`, name);
  return v;
}

function requireAxes(v, name) {
  const axes = Array.isArray(v) && v.length === 3 ? [vec3Of(v[0]), vec3Of(v[1]), vec3Of(v[2])] : null;
  if (axes === null || axes.includes(null)) fail(`"${name}" must be an array of 3 arrays of 3 numbers`, name);
  return axes;
}

/**
 * Structural checks of a shape, in the order of docs/case-runner.md: its type, then its fields
 * in layout order, each read once. Returns a plain copy: {type, ...fields}. One case per type
 * (not a loop over a table of fields): no field name is built per call.
 */
export function checkShape(shape) {
  return checkShapeFields(shape, shapeType(shape));
}

/** shape.type of an object `shape`, read once: a string, else a SlabcastError. */
export function shapeType(shape) {
  requireObject(shape, 'shape');
  const type = shape.type;
  if (typeof type !== 'string') fail('"shape.type" must be a string', 'shape.type');
  return type;
}

/** checkShape after shapeType: the fields of a shape of type `type`, or an unknown type refused. */
export function checkShapeFields(shape, type) {
  switch (type) {
    case 'aabb': {
      const min = requireVec3(shape.min, 'shape.min');
      return { type, min, max: requireVec3(shape.max, 'shape.max') };
    }
    case 'obb': {
      const center = requireVec3(shape.center, 'shape.center');
      const axes = requireAxes(shape.axes, 'shape.axes');
      return { type, center, axes, half: requireVec3(shape.half, 'shape.half') };
    }
    case 'sphere': {
      const center = requireVec3(shape.center, 'shape.center');
      return { type, center, radius: requireNumber(shape.radius, 'shape.radius') };
    }
    case 'plane': {
      const normal = requireVec3(shape.normal, 'shape.normal');
      return { type, normal, d: requireNumber(shape.d, 'shape.d') };
    }
    case 'capsule': {
      const a = requireVec3(shape.a, 'shape.a');
      const b = requireVec3(shape.b, 'shape.b');
      return { type, a, b, radius: requireNumber(shape.radius, 'shape.radius') };
    }
    default:
      return fail(`unknown shape type "${truncateUtf8(type)}"`, 'shape.type');
  }
}

/** vec3Into's test without the error: whether v is a vector of 3 numbers (then stored at f[off]). */
function vec3Ok(v, f, off) {
  if (!Array.isArray(v)) return typedVec3Into(v, f, off);
  if (v.length !== 3) return false;
  const x = v[0];
  const y = v[1];
  const z = v[2];
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') return false;
  f[off] = x;
  f[off + 1] = y;
  f[off + 2] = z;
  return true;
}

// checkShapeFields without the copy, one function per type (each sees one kind of the caller's
// objects, so V8's property caches stay monomorphic however many types a program mixes): the
// fields read once, in the same order, with the same errors, stored into f (a Float32Array of at
// least 15: rounded to float32 there, as when written to wasm memory) in sc_shape's layout after
// its type word. Each returns the sc_shape_type value of slabcast.h.
export function obbInto(shape, f) {
  vec3Into(shape.center, 'shape.center', f, 0);
  const v = shape.axes;
  // as requireAxes: all three read (and checked) before the error
  const ok = Array.isArray(v) && v.length === 3 && vec3Ok(v[0], f, 3) & vec3Ok(v[1], f, 6) & vec3Ok(v[2], f, 9);
  if (!ok) fail('"shape.axes" must be an array of 3 arrays of 3 numbers', 'shape.axes');
  vec3Into(shape.half, 'shape.half', f, 12);
  return 2;
}
export function sphereInto(shape, f) {
  vec3Into(shape.center, 'shape.center', f, 0);
  f[3] = requireNumber(shape.radius, 'shape.radius');
  return 3;
}
export function planeInto(shape, f) {
  vec3Into(shape.normal, 'shape.normal', f, 0);
  f[3] = requireNumber(shape.d, 'shape.d');
  return 4;
}
export function capsuleInto(shape, f) {
  vec3Into(shape.a, 'shape.a', f, 0);
  vec3Into(shape.b, 'shape.b', f, 3);
  f[6] = requireNumber(shape.radius, 'shape.radius');
  return 5;
}

/** Returns a plain copy {origin, dir, tmax} (tmax defaults to Infinity). */
export function checkRay(ray) {
  requireObject(ray, 'ray');
  const origin = requireVec3(ray.origin, 'ray.origin');
  const dir = requireVec3(ray.dir, 'ray.dir');
  const t = ray.tmax;
  const tmax = t === undefined ? Infinity : requireNumber(t, 'ray.tmax');
  return { origin, dir, tmax };
}

/** Returns a plain copy {a, b}. */
export function checkSegment(segment) {
  requireObject(segment, 'segment');
  const a = requireVec3(segment.a, 'segment.a');
  const b = requireVec3(segment.b, 'segment.b');
  return { a, b };
}

/** A Float32Array copy of a plain array of numbers, each checked. */
function floatsOfArray(data, per, name) {
  const length = data.length;
  checkBatchLength(length, per, name); // before the copy: a sparse array may claim 2^32 - 1
  const a = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const v = data[i];
    if (typeof v !== 'number') fail(`${name}[${i}] must be a number`, name);
    a[i] = v;
  }
  return a;
}

/**
 * A Float32Array of a batch (the caller's own, or a copy), checked for type and length.
 * A batch that lives in slabcast's own wasm memory (`memory`) is copied: staging may grow the
 * memory, which detaches that buffer. The caller's array is only read through taSet.
 */
export function floatBatch(data, per, name, memory) {
  const kind = taKind(data);
  if (kind === 'Float32Array' || kind === 'Float64Array') {
    const length = taLength(data);
    checkBatchLength(length, per, name); // before any copy
    if (kind === 'Float32Array' && taBuffer(data) !== memory.buffer) return data;
    const a = new Float32Array(length);
    taSet(a, taExact(data, kind === 'Float32Array' ? Float32Array : Float64Array, 0, length));
    return a;
  }
  if (Array.isArray(data)) return floatsOfArray(data, per, name);
  return fail(`${name} must be a Float32Array (${per} floats per item)`, name);
}

/** Refuses a batch length that is not a multiple of per, or of more than MAX_BATCH_ITEMS items. */
function checkBatchLength(length, per, name) {
  if (length % per !== 0) fail(`${name} must hold ${per} floats per item; its length ${length} is not a multiple of ${per}`, name);
  if (length / per > MAX_BATCH_ITEMS) fail(`${name} holds too many items (the limit is ${MAX_BATCH_ITEMS})`, name);
}

/**
 * The number of items of a batch floatBatch checked, read again now (a resizable buffer may
 * have shrunk or grown since, under a getter of the call's other arguments) and checked again.
 * Call it after the last user code of the call has run.
 */
export function batchItems(a, per, name) {
  const length = taLength(a);
  checkBatchLength(length, per, name);
  return length / per;
}

/** `out`, when given, must be a plain object of typed arrays (not an array, typed array or DataView). */
export function checkOut(out, keys = '{t, index, normal}') {
  if (out !== undefined && out !== null && !isPlainObject(out)) {
    fail(`out must be an object of typed arrays (${keys})`, 'out');
  }
}

/** out[key] (a getter or Proxy of out may run): the caller's array to check later, or undefined. */
export const outRef = (out, key) => (out === undefined || out === null ? undefined : out[key]);

/** Checks a caller's output array `name`: a Type, not a view of slabcast's memory, at least `length` long. */
export function callerArray(a, Type, name, length, memory) {
  if (taKind(a) !== Type.name) fail(`${name} must be a ${Type.name}`, name);
  if (taBuffer(a) === memory.buffer) fail(`${name} must not be a view of slabcast's wasm memory`, name);
  const have = taLength(a);
  if (have < length) fail(`${name} must hold at least ${length} items; it holds ${have}`, name);
  return a;
}

/** out[key] when given (checked), else a new array; never a view of slabcast's memory. */
export function outArray(out, key, Type, length, memory) {
  return givenOrNew(outRef(out, key), key, Type, length, memory);
}

/** a (the caller's out.key, read by outRef) checked, or a new array when undefined. */
export function givenOrNew(a, key, Type, length, memory) {
  return a === undefined ? new Type(length) : callerArray(a, Type, `out.${key}`, length, memory);
}

/** Items each output array holds per query item. */
const OUT_PER = { t: 1, index: 1, hit: 1, distance: 1, normal: 3, point: 3 };

/**
 * For a query answered later (slabcast/parallel): refuses, before anything is written to them,
 * output arrays ({t, index, normal, point}, {index, distance, point} or {hit}) that no longer
 * have room for n items (a resizable buffer shrunk while the query was pending).
 */
export function requireRoom(outs, n) {
  for (const key in outs) {
    const need = OUT_PER[key] * n;
    const have = taLength(outs[key]);
    const name = key === 'hit' ? 'out' : `out.${key}`;
    if (have < need) fail(`${name} must hold at least ${need} items; it holds ${have} (it shrank while the query was pending)`, name);
  }
}

/** Refuses output arrays ([name, array] pairs) that share bytes: one result would overwrite another. */
export function requireDisjoint(named) {
  for (let i = 0; i < named.length; i++) {
    for (let j = i + 1; j < named.length; j++) {
      const [na, a] = named[i];
      const [nb, b] = named[j];
      if (taBuffer(a) !== taBuffer(b)) continue;
      const ao = taByteOffset(a);
      const bo = taByteOffset(b);
      if (ao < bo + taByteLength(b) && bo < ao + taByteLength(a)) {
        fail(`out.${na} and out.${nb} overlap`, `out.${nb}`);
      }
    }
  }
}
