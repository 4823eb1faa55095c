// Whether a scene is valid (validateState), and the checks of one shape or ray
// that the case-file reader shares. Pure ES module.
//
// Validity is that of docs/semantics.md, except that OBB axes need not be
// orthonormal: such a scene can be shown, linked and exported (the core reports
// the error when it is raycast).

import { MAX_RAYS, MAX_SHAPES, SHAPE_FIELDS, isFloat32, isObject, show } from './scene.mjs';

const AXIS = ['x', 'y', 'z'];

/**
 * The problem with one shape's values, or null. `label` starts the message
 * ('shape 2 (obb)', 'case "x"'); `prefix` goes before field names ('', 'shape.').
 * The shape must already have the right structure (see shapeStructureError).
 */
export function shapeValueError(shape, label, prefix) {
  const type = shape.type;
  for (const [name, kind] of SHAPE_FIELDS[type]) {
    const v = shape[name];
    const nums = kind === 'num' ? [[`${prefix}${name}`, v]]
      : kind === 'vec' ? v.map((x, i) => [`${prefix}${name}[${i}]`, x])
        : v.flatMap((row, i) => row.map((x, j) => [`${prefix}${name}[${i}][${j}]`, x]));
    for (const [field, x] of nums) {
      if (!Number.isFinite(x)) return `${label}: ${field} must be a finite number (it is ${show(x)})`;
    }
  }
  if (type === 'aabb') {
    for (let i = 0; i < 3; i++) {
      if (shape.min[i] > shape.max[i]) {
        return `${label}: ${prefix}min.${AXIS[i]} ${show(shape.min[i])} is greater than ${prefix}max.${AXIS[i]} ${show(shape.max[i])}`;
      }
    }
  } else if (type === 'obb') {
    for (let i = 0; i < 3; i++) {
      if (shape.half[i] < 0) return `${label}: ${prefix}half[${i}] must be >= 0 (it is ${show(shape.half[i])})`;
    }
  } else if (type === 'sphere' || type === 'capsule') {
    if (shape.radius < 0) return `${label}: ${prefix}radius must be >= 0 (it is ${show(shape.radius)})`;
  } else if (shape.normal.every((x) => x === 0)) {
    return `${label}: ${prefix}normal must not be zero`;
  }
  return null;
}

/** The problem with one ray's values, or null (structure already checked). */
export function rayValueError(ray, label, prefix) {
  for (const name of ['origin', 'dir']) {
    for (let i = 0; i < 3; i++) {
      const x = ray[name][i];
      if (!Number.isFinite(x)) return `${label}: ${prefix}${name}[${i}] must be a finite number (it is ${show(x)})`;
    }
  }
  if (ray.dir.every((x) => x === 0)) return `${label}: ${prefix}dir must not be zero`;
  if (!(ray.tmax >= 0)) return `${label}: ${prefix}tmax must be >= 0 or Infinity (it is ${show(ray.tmax)})`;
  return null;
}

const isVec = (v) => Array.isArray(v) && v.length === 3 && v.every(isFloat32);

/** Structural problem of a state shape (types, lengths, float32 numbers), or null. */
function shapeStructureError(shape, label) {
  if (!isObject(shape)) return `${label} is not an object`;
  if (typeof shape.type !== 'string' || !Object.hasOwn(SHAPE_FIELDS, shape.type)) {
    return `${label} has an unknown type ${typeof shape.type === 'string' ? JSON.stringify(shape.type.slice(0, 32)) : show(shape.type)}`;
  }
  const where = `${label} (${shape.type})`;
  for (const [name, kind] of SHAPE_FIELDS[shape.type]) {
    const v = shape[name];
    if (kind === 'num' && !isFloat32(v)) return `${where}: ${name} must be a float32 number`;
    if (kind === 'vec' && !isVec(v)) return `${where}: ${name} must be an array of 3 float32 numbers`;
    if (kind === 'axes' && !(Array.isArray(v) && v.length === 3 && v.every(isVec))) {
      return `${where}: ${name} must be an array of 3 arrays of 3 float32 numbers`;
    }
  }
  return null;
}

function rayStructureError(ray, label) {
  if (!isObject(ray)) return `${label} is not an object`;
  for (const name of ['origin', 'dir']) {
    if (!isVec(ray[name])) return `${label}: ${name} must be an array of 3 float32 numbers`;
  }
  if (!isFloat32(ray.tmax)) return `${label}: tmax must be a float32 number (Infinity for none)`;
  return null;
}

/**
 * What is wrong with a scene, as a message, or null when it is valid: the
 * structure, every number a float32 (store Math.fround'ed values), the limits,
 * the values (docs/semantics.md, OBB orthonormality aside) and the selection.
 * encode() refuses exactly the scenes this rejects; decode() applies it too.
 * @param {unknown} state
 * @returns {string | null}
 */
export function validateState(state) {
  if (!isObject(state)) return 'the scene is not an object';
  const { shapes, rays, selected } = state;
  if (!Array.isArray(shapes)) return 'the scene has no "shapes" array';
  if (!Array.isArray(rays)) return 'the scene has no "rays" array';
  if (shapes.length > MAX_SHAPES) return `too many shapes (${shapes.length}; the limit is ${MAX_SHAPES})`;
  if (rays.length > MAX_RAYS) return `too many rays (${rays.length}; the limit is ${MAX_RAYS})`;
  for (let i = 0; i < shapes.length; i++) {
    const e = shapeStructureError(shapes[i], `shape ${i}`) ??
      shapeValueError(shapes[i], `shape ${i} (${shapes[i].type})`, '');
    if (e) return e;
  }
  for (let i = 0; i < rays.length; i++) {
    const e = rayStructureError(rays[i], `ray ${i}`) ?? rayValueError(rays[i], `ray ${i}`, '');
    if (e) return e;
  }
  if (!isObject(selected)) return 'the scene has no "selected" object';
  for (const [key, n] of [['ray', rays.length], ['shape', shapes.length]]) {
    const v = selected[key];
    if (!(Number.isInteger(v) && v >= -1 && v < n)) {
      return `selected.${key} must be -1 or a ${key} index below ${n} (it is ${show(v)})`;
    }
  }
  return null;
}
