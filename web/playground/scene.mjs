// The playground's scene: its schema, the default scene, deep copies and bit-exact
// comparison. Pure ES module: no DOM, no wasm instance, no globals.
//
// A scene is a plain object; every number in it is a float32 value (a JS
// number that Math.fround leaves unchanged):
//
//   {
//     shapes: [ // at most MAX_SHAPES
//       { type: 'aabb', min: [x,y,z], max: [x,y,z] },
//       { type: 'obb', center: [x,y,z], axes: [[..],[..],[..]], half: [hu,hv,hw] },
//       { type: 'sphere', center: [x,y,z], radius: r },
//       { type: 'plane', normal: [x,y,z], d: number },
//       { type: 'capsule', a: [x,y,z], b: [x,y,z], radius: r }, // the points within r of the segment a-b
//     ],
//     rays: [ { origin: [x,y,z], dir: [x,y,z], tmax: number } ], // at most MAX_RAYS; tmax may be Infinity
//     selected: { ray: index or -1, shape: index or -1 },
//   }
//
// Its validity is scene-check.mjs, its link link.mjs, its case files case-file.mjs
// (state.mjs gathers them all).

export const MAX_SHAPES = 64;
export const MAX_RAYS = 32;

// Field layout of each shape type: [name, kind] with kind 'vec' (3 floats),
// 'axes' (3 x 3 floats) or 'num' (1 float). Also the order of the binary form.
export const SHAPE_FIELDS = {
  aabb: [['min', 'vec'], ['max', 'vec']],
  obb: [['center', 'vec'], ['axes', 'axes'], ['half', 'vec']],
  sphere: [['center', 'vec'], ['radius', 'num']],
  plane: [['normal', 'vec'], ['d', 'num']],
  capsule: [['a', 'vec'], ['b', 'vec'], ['radius', 'num']],
};

export const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isFloat32 = (v) => typeof v === 'number' && (Number.isNaN(v) || Math.fround(v) === v);

/** What kind of value v is, for an error message: 'null', 'an array', 'a number', ... */
export function kindOf(v) {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** A value for an error message: a number as JS prints it (-0 as -0), anything else by kind. */
export function show(v) {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  return kindOf(v);
}

// ------------------------------------------------------------------ the default scene

/** A fresh copy of the default scene: each shape type, and rays that show a face hit, a grazing ray and an inside start. */
export function defaultState() {
  // cos 45 = sin 45, rounded to float32 (orthonormal within float32 rounding, far inside the 1e-4 of docs/semantics.md).
  const c = Math.fround(Math.SQRT1_2);
  return {
    shapes: [
      // A 2x2x2 cube standing on the floor.
      { type: 'aabb', min: [-3, -1, -1], max: [-1, 1, 1] },
      // A low slab on the floor; ray 2 starts inside it.
      { type: 'aabb', min: [1, -1, -1], max: [3, 0, 1] },
      // A cube turned 45 degrees about z (a diamond seen along z), just clear of the floor.
      { type: 'obb', center: [0, 0.5, -4], axes: [[c, c, 0], [-c, c, 0], [0, 0, 1]], half: [1, 1, 1] },
      // Ray 1, after grazing the cube, cuts through it off-centre.
      { type: 'sphere', center: [6, 0.5, 0], radius: 1 },
      // The floor y = -1 (normal . p = d).
      { type: 'plane', normal: [0, 1, 0], d: -1 },
    ],
    rays: [
      // Enters the cube through its x = -3 face at t = 3 (point [-3, 0.5, 0]), leaves at t = 5,
      // then reaches the floor at t = 6.
      { origin: [-6, 2, 0], dir: [1, -0.5, 0], tmax: Infinity },
      // Axis-parallel, sliding along the cube's top face y = 1: a boundary case, and a hit
      // (the solids are closed) over t in [3, 5]; then it crosses the sphere.
      { origin: [-6, 1, 0], dir: [1, 0, 0], tmax: Infinity },
      // Starts inside the slab (t = 0, t_enter = -1, normal [0,0,0]), and within tmax = 10
      // enters the turned cube through a slanted face at t = 6 - 2*sqrt(2) (about 3.17).
      { origin: [2, -0.5, 0], dir: [-0.5, 0, -1], tmax: 10 },
    ],
    selected: { ray: 0, shape: 0 },
  };
}

// ------------------------------------------------------------------ copying and comparing

/** A deep copy of a scene (plain arrays and objects; -0 and Infinity kept). */
export function cloneState(state) {
  const copy = (v) => {
    if (Array.isArray(v)) return v.map(copy);
    if (isObject(v)) {
      const o = {};
      for (const k of Object.keys(v)) o[k] = copy(v[k]);
      return o;
    }
    return v;
  };
  return copy(state);
}

const sameNum = (a, b) => Object.is(a, b); // -0 differs from 0; bit-exact for float32 values
const sameVec = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameNum(x, b[i]));

function sameShape(a, b) {
  if (!isObject(a) || !isObject(b) || a.type !== b.type || !Object.hasOwn(SHAPE_FIELDS, a.type)) return false;
  return SHAPE_FIELDS[a.type].every(([name, kind]) => {
    if (kind === 'num') return sameNum(a[name], b[name]);
    if (kind === 'vec') return sameVec(a[name], b[name]);
    return Array.isArray(a[name]) && Array.isArray(b[name]) && a[name].length === 3 && b[name].length === 3 &&
      a[name].every((row, i) => sameVec(row, b[name][i]));
  });
}

function sameRay(a, b) {
  return isObject(a) && isObject(b) && sameVec(a.origin, b.origin) && sameVec(a.dir, b.dir) && sameNum(a.tmax, b.tmax);
}

/**
 * Whether two scenes are the same, bit for bit (-0 differs from 0): shapes,
 * rays and selection. Fields outside the schema are ignored. Never throws.
 */
export function sameState(a, b) {
  try {
    if (!isObject(a) || !isObject(b)) return false;
    const listSame = (x, y, same) => Array.isArray(x) && Array.isArray(y) && x.length === y.length &&
      x.every((v, i) => same(v, y[i]));
    return listSame(a.shapes, b.shapes, sameShape) && listSame(a.rays, b.rays, sameRay) &&
      isObject(a.selected) && isObject(b.selected) &&
      sameNum(a.selected.ray, b.selected.ray) && sameNum(a.selected.shape, b.selected.shape);
  } catch {
    return false;
  }
}
