// The core's own raycast of one ray against one shape, called directly (sc_wasm_raycast on the
// C structs of slabcast.h, written here by hand): a reference for sc.raycast and raycastAABB that
// shares none of web/core/queries.js's code (its JavaScript slab path, staging and views).
import { instantiateCore } from '../../../web/core/loader.js';
import { SlabcastError } from '../../../web/slabcast.js';

const TYPES = { aabb: 1, obb: 2, sphere: 3, plane: 4, capsule: 5 };

/** The float fields of a shape after its type word, in sc_shape's layout. */
function shapeFloats(s) {
  switch (s.type) {
    case 'aabb': return [...s.min, ...s.max];
    case 'obb': return [...s.center, ...s.axes[0], ...s.axes[1], ...s.axes[2], ...s.half];
    case 'sphere': return [...s.center, s.radius];
    case 'plane': return [...s.normal, s.d];
    default: return [...s.a, ...s.b, s.radius];
  }
}

/**
 * A function (origin, dir, tmax, shape) => {status, hit, t, t_enter, t_exit, point, normal}: the
 * raw sc_raycast_result of a fresh core instance (status 0 when valid).
 */
export async function coreRaycaster() {
  const core = await instantiateCore();
  const base = core.scratch;
  return (origin, dir, tmax, shape) => {
    const buf = core.memory.buffer;
    const f = new Float32Array(buf, base, 64);
    const i = new Int32Array(buf, base, 64);
    f.fill(0);
    f.set([...origin, ...dir, tmax], 0);
    i[16] = TYPES[shape.type];
    f.set(shapeFloats(shape), 17);
    core.ex.sc_wasm_raycast(base, base + 64, base + 128);
    const g = new Float32Array(core.memory.buffer, base, 64);
    const j = new Int32Array(core.memory.buffer, base, 64);
    return {
      status: j[32], hit: j[33] !== 0, t: g[34], t_enter: g[35], t_exit: g[36],
      point: [g[37], g[38], g[39]], normal: [g[40], g[41], g[42]],
    };
  };
}

/** Whether two answers are the same bit for bit: numbers by Object.is (so -0 is not 0), arrays element by element. */
export const same = (x, y) => (typeof x === 'number' ? Object.is(x, y)
  : Array.isArray(x) ? Array.isArray(y) && x.length === y.length && x.every((v, i) => same(v, y[i])) : x === y);

/**
 * The core's answer (coreRaycast: a coreRaycaster) for a ray of 7 floats and an AABB of 6 (arrays
 * or typed arrays), as {status, floats}: floats the 9 values raycastAABB writes (t, t_enter, t_exit,
 * point, normal) on a hit, else null.
 */
export function coreAABB(coreRaycast, ray, box) {
  const r = coreRaycast(Array.from(ray.slice(0, 3)), Array.from(ray.slice(3, 6)), ray[6],
    { type: 'aabb', min: Array.from(box.slice(0, 3)), max: Array.from(box.slice(3, 6)) });
  return { status: r.status, floats: r.status === 0 && r.hit ? [r.t, r.t_enter, r.t_exit, ...r.point, ...r.normal] : null };
}

/**
 * '' when sc.raycast(ray, shape) is the core's answer (coreRaycast: a coreRaycaster) bit for bit,
 * or its error with the core's status; else what differs. plain: the shape as plain arrays for the
 * core, when `shape` holds typed arrays or getters.
 */
export function compareRaycast(sc, coreRaycast, ray, shape, plain = shape) {
  return raycastDiff(sc, coreRaycast(ray.origin, ray.dir, ray.tmax ?? Infinity, plain), ray, shape);
}

/** compareRaycast against the core's answer `want` (a coreRaycaster's), already computed. */
export function raycastDiff(sc, want, ray, shape) {
  let got;
  try {
    got = sc.raycast(ray, shape);
  } catch (e) {
    return e instanceof SlabcastError && e.status === want.status && want.status !== 0 ? '' : `threw ${e.message}; core status ${want.status}`;
  }
  if (want.status !== 0) return `no error; core status ${want.status}`;
  if (!want.hit) return got.hit === false && Object.keys(got).length === 1 ? '' : `core misses, got ${JSON.stringify(got)}`;
  for (const k of ['hit', 't', 't_enter', 't_exit', 'point', 'normal']) {
    if (!same(got[k], want[k])) return `${k}: ${got[k]} vs core ${want[k]}`;
  }
  return '';
}
