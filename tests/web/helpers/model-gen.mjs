// fast-check arbitraries for world-model.test.mjs: float32 coordinates from small dyadic to huge
// (1e30) and tiny (1e-30, subnormal), zero-size shapes, OBBs with the full allowed axis skew
// (Gram deviation just under 1e-4) and half extents up to 1000, query points aimed at objects
// (corners of an OBB's slab set, faces, centres; resolved against the model when run), filters.
import fc from 'fast-check';

const f = Math.fround;
/**
 * SLABCAST_MODEL_WITHOUT: features to leave out, comma-separated: 'skew' (skewed OBB axes),
 * 'hostile' (hostile hand-overs), 'huge' (the 2^30-entry out array and setMasks; 'hugemasks':
 * only the setMasks), and query
 * groups 'rays', 'sweeps', 'overlaps', 'closest', for finding which defect a failure belongs
 * to (docs/fuzzing.md).
 */
export const without = new Set((process.env.SLABCAST_MODEL_WITHOUT ?? '').split(',').filter(Boolean));
export const coord = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -40, max: 40 }).map((x) => x / 2) },
  { weight: 3, arbitrary: fc.double({ min: -100, max: 100, noNaN: true }).map(f) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e30, -1e30, 1e-30, -1e-30, 1.4e-45, -1.4e-45, 1e-40, 3e38, -3e38).map(f) },
);
const extent = fc.oneof(
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 16 }).map((x) => x / 2) },
  { weight: 2, arbitrary: fc.double({ min: 0, max: 1000, noNaN: true }).map(f) },
  { weight: 1, arbitrary: fc.constantFrom(1e-30, 1.4e-45, 1e30, 1e-6).map(f) },
);
export const vec = fc.tuple(coord, coord, coord);

const aabb = fc.tuple(vec, fc.tuple(extent, extent, extent)).map(([min, e]) => {
  const max = min.map((x, k) => { const v = f(x + e[k]); return Number.isFinite(v) ? v : x; });
  return [...min, ...max];
});
const sphere = fc.tuple(vec, extent).map(([c, r]) => [...c, r]);

const rot = (ax, th) => { // rotation matrix rows about a unit axis (Rodrigues), in double
  const [x, y, z] = ax; const c = Math.cos(th); const s = Math.sin(th); const C = 1 - c;
  return [[c + x * x * C, x * y * C - z * s, x * z * C + y * s], [y * x * C + z * s, c + y * y * C, y * z * C - x * s], [z * x * C - y * s, z * y * C + x * s, c + z * z * C]];
};
/** Axes rows: exact permutations, rotations, and the skew [[1,0,0],[s1,1,0],[0,s2,1]] (rotated). */
const perms = fc.constantFrom([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 0], [-1, 0, 0], [0, 0, 1]], [[0, 0, -1], [1, 0, 0], [0, -1, 0]]);
// without 'skew': exact permutations only (rounded rotations are skewed by about 1e-7 too)
const axes = without.has('skew') ? perms : fc.oneof(
  { weight: 1, arbitrary: perms },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom([1, 0, 0], [0, 0, 1], [0.6, 0.8, 0], [0.48, 0.6, 0.64]), fc.double({ min: 0, max: 6.3, noNaN: true })).map(([a, th]) => rot(a, th)) },
  { weight: 2, arbitrary: fc.tuple(fc.double({ min: -9.9e-5, max: 9.9e-5, noNaN: true }), fc.double({ min: -9.9e-5, max: 9.9e-5, noNaN: true }), fc.constantFrom(7e-5, 9.9e-5, -9.9e-5), fc.nat(2), fc.boolean())
    .map(([s1, s2, s3, which, rotated]) => {
      const sk = [[[1, 0, 0], [0, 1, 0], [0, s3, 1]], [[1, 0, 0], [s1, 1, 0], [0, s2, 1]], [[1, s3, 0], [0, 1, 0], [0, 0, 1]]][which];
      if (!rotated) return sk;
      const R = rot([0.6, 0.8, 0], 0.7); // rows of sk rotated by R: still within the Gram tolerance
      return sk.map((a) => [0, 1, 2].map((k) => R[k][0] * a[0] + R[k][1] * a[1] + R[k][2] * a[2]));
    }) },
).map((rows) => rows.map((r) => r.map(f)));
const big = fc.oneof(extent, fc.constantFrom(1000, 999.5, 1000, 700));
const obb = fc.tuple(vec, axes, fc.tuple(extent, big, extent))
  .map(([c, a, h]) => [...c, ...a.flat(), ...h]);

// a capsule: a, then b = a (a ball), a + an axis step, or a + any offset; the radius an extent
const capsule = fc.tuple(vec, fc.oneof(fc.constant([0, 0, 0]), fc.tuple(extent, fc.constant(0), fc.constant(0)), fc.tuple(coord, coord, coord).map((v) => v.map((x) => f(x / 8)))), extent)
  .map(([a, d, r]) => [...a, ...a.map((x, k) => { const v = f(x + d[k]); return Number.isFinite(v) ? v : x; }), r]);

export const shapeFloats = { aabb, obb, sphere, capsule };
export const kindArb = fc.constantFrom('aabb', 'obb', 'obb', 'sphere', 'capsule');

/**
 * A point selector, resolved against the model at run time (targetPoint): an object (by number,
 * modulo the count), a place on it (corner / face / centre, by bits) and a fraction towards its
 * centre (negative: outside), or a free point.
 */
export const target = fc.record({
  free: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: vec }),
  obj: fc.nat(1000),
  bits: fc.nat(63),
  frac: fc.constantFrom(0, 0, 5e-4, 0.001, 0.3, -0.001, -1e-6),
  off: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: vec.map((v) => v.map((x) => x * 1e-3)) }),
});

/** Ray directions: axis-parallel with 0 and -0, diagonal, subnormal components, random. */
export const dir = fc.oneof(
  fc.constantFrom([1, 0, 0], [-1, 0, 0], [0, 1, -0], [0, -0, -1], [1, 1, 0], [1, -1, 1], [0.5, 1.4e-45, 0], [1e-30, 1, 0], [-3, 0.25, 2]),
  fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true })),
).map((d) => { const v = d.map(f); return v.some((x) => x !== 0) ? v : [1, 0, 0]; });

/** A ray aimed at a target: origin = aim - back * dir. */
export const raySpec = fc.record({
  aim: target, dir,
  back: fc.constantFrom(0, 0.5, 1, 5, 100, 1e-3, -2),
  tmax: fc.oneof({ weight: 3, arbitrary: fc.constant(Infinity) }, { weight: 2, arbitrary: fc.constantFrom(0, 0.5, 1, 4, 5, 1e6, 1e30) }),
});

/** A filter: mask, exclude selectors (-1 or an object number resolved modulo the count), inside. */
export const filterSpec = fc.option(fc.record({
  mask: fc.option(fc.constantFrom(0, 1, 2, 3, ~1, 0xFFFFFFFF, -1, 0x80000000), { nil: undefined }),
  exclude: fc.option(fc.array(fc.integer({ min: -1, max: 1000 }), { minLength: 1, maxLength: 8 }), { nil: undefined }),
  inside: fc.option(fc.constantFrom('solid', 'skip', 'exit'), { nil: undefined }),
}, { requiredKeys: [] }), { freq: 3, nil: null });

export const objMask = fc.constantFrom(0, 1, 2, 3, 0xFFFFFFFF, 0x80000000, 0xFFFFFFFE);

/**
 * How a batch is handed over: plain kinds, and hostile ones (docs/semantics.md, Errors: typed
 * arrays are read through their real buffer) - 'shrink' and 'detachLate' act from a getter on
 * the options object, after the batch was first seen.
 */
export const hostility = without.has('hostile') ? fc.constantFrom('f32', 'array', 'f64') : fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('f32', 'array', 'f64') },
  { weight: 4, arbitrary: fc.constantFrom('resizable', 'shrink', 'detach', 'detachLate', 'subclass', 'proxyArray', 'proxyOptions') },
);

/** The point a target selects in the model (float32), or its free point. */
export function targetPoint(model, tg) {
  const live = model.live();
  if (tg.free || live.length === 0) return (tg.free || [0, 0, 0]).map(f);
  const s = model.objs[live[tg.obj % live.length]].shape;
  let p; let c;
  const sign = (i) => ((tg.bits >> i) & 1 ? 1 : -1);
  if (s.type === 'aabb') {
    c = [0, 1, 2].map((k) => (s.min[k] + s.max[k]) / 2);
    p = [0, 1, 2].map((k) => (tg.bits & 8 && k === (tg.bits >> 4) % 3 ? c[k] : sign(k) > 0 ? s.max[k] : s.min[k]));
  } else if (s.type === 'sphere') {
    c = s.center;
    const d = [sign(0), tg.bits & 8 ? 0 : sign(1), sign(2)]; const l = Math.hypot(...d);
    p = c.map((x, k) => x + (s.radius * d[k]) / l);
  } else if (s.type === 'capsule') { // an end (bit 4: the other), pushed out by the radius
    const e = (tg.bits >> 4) & 1 ? s.b : s.a;
    c = [0, 1, 2].map((k) => (s.a[k] + s.b[k]) / 2);
    const d = [sign(0), tg.bits & 8 ? 0 : sign(1), sign(2)]; const l = Math.hypot(...d);
    p = e.map((x, k) => x + (s.radius * d[k]) / l);
  } else { // a corner of the slab set: solve axes . (x - c) = u for u = +-half
    c = s.center;
    const u = [0, 1, 2].map((i) => (tg.bits & 8 && i === (tg.bits >> 4) % 3 ? 0 : sign(i) * s.half[i]));
    p = solve(s.axes, u).map((x, k) => x + c[k]);
  }
  p = p.map((x, k) => x + (c[k] - x) * tg.frac + (tg.off ? tg.off[k] : 0));
  return p.map((x) => { const v = f(x); return Number.isFinite(v) ? v : 0; });
}

/** x with A x = u (A rows), by Cramer's rule in double. */
function solve(A, u) {
  const det = (m) => m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  const D = det(A);
  return [0, 1, 2].map((k) => det(A.map((row, i) => row.map((x, j) => (j === k ? u[i] : x)))) / D);
}
