// slabcast oracle: an independent, exact-arithmetic reference for the query
// semantics of docs/semantics.md.
//
// Every input number is rounded to float32 (Math.fround) exactly as a runner
// does, then decoded bit by bit into an exact rational (BigInt numerator and
// denominator). All classification (hit / inside / which faces contain the
// hit point / sign of t_enter) is decided with exact rational arithmetic.
// The only inexact parts are the sphere's t values, points and normals (they
// need a square root) and the unit normals, which are produced as doubles for
// tolerance comparisons.
//
// Main entry points:
//   oracle(caseObj)        -> { error: true, message, ... } or
//                             { input, exact, result, scale, exactClass, dirLen }
//   evaluate(exactInput)   -> the query result for an exact input (used with nudges)
//   nudges(exactInput, scale) -> generator of inputs nudged by 1e-6 * scale
//
// Nothing here is derived from the project's C code.

// ---------------------------------------------------------------------------
// Exact rationals: { n: BigInt, d: BigInt }, d > 0, gcd(|n|, d) == 1.
// Plain objects and free functions keep this small and fast.
// ---------------------------------------------------------------------------

const mk = (n, d) => ({ n, d });
export const Q0 = mk(0n, 1n);
export const Q1 = mk(1n, 1n);

function gcd(a, b) {
  // a, b >= 0
  while (b !== 0n) {
    const r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/** Normalized rational n/d (d != 0). */
export function q(n, d = 1n) {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  if (n === 0n) return Q0;
  if (d === 1n) return mk(n, 1n);
  const an = n < 0n ? -n : n;
  let g;
  if ((d & (d - 1n)) === 0n) {
    // d is a power of two (the common case: float inputs are dyadic):
    // the gcd is the lowest set bit of n, capped at d.
    const low = an & -an;
    g = low < d ? low : d;
  } else {
    g = gcd(an, d);
  }
  return g === 1n ? mk(n, d) : mk(n / g, d / g);
}

export const qadd = (a, b) =>
  a.d === b.d ? q(a.n + b.n, a.d) : q(a.n * b.d + b.n * a.d, a.d * b.d);
export const qsub = (a, b) =>
  a.d === b.d ? q(a.n - b.n, a.d) : q(a.n * b.d - b.n * a.d, a.d * b.d);
export const qmul = (a, b) => q(a.n * b.n, a.d * b.d);
export const qdiv = (a, b) => {
  if (b.n === 0n) throw new Error('rational division by zero');
  return q(a.n * b.d, a.d * b.n);
};
export const qneg = (a) => mk(-a.n, a.d);
export const qabs = (a) => (a.n < 0n ? mk(-a.n, a.d) : a);
export const qsign = (a) => (a.n > 0n ? 1 : a.n < 0n ? -1 : 0);
export const qIsZero = (a) => a.n === 0n;
/** -1, 0 or 1 as a < b, a == b, a > b. */
export function qcmp(a, b) {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
}
export const qlt = (a, b) => qcmp(a, b) < 0;
export const qle = (a, b) => qcmp(a, b) <= 0;
export const qmax = (a, b) => (qcmp(a, b) >= 0 ? a : b);
export const qmin = (a, b) => (qcmp(a, b) <= 0 ? a : b);

const F64 = new DataView(new ArrayBuffer(8));

/** The exact value of a finite double (so also of a float32) as a rational. */
export function fromDouble(x) {
  if (!Number.isFinite(x)) throw new Error(`not finite: ${x}`);
  if (x === 0) return Q0; // -0 is 0
  F64.setFloat64(0, x);
  const hi = F64.getUint32(0);
  const lo = F64.getUint32(4);
  const negative = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e;
  if (biased === 0) {
    e = -1074; // subnormal
  } else {
    mant |= 1n << 52n;
    e = biased - 1075;
  }
  // value = mant * 2^e; make mant odd so that the result is normalized.
  while ((mant & 1n) === 0n) {
    mant >>= 1n;
    e += 1;
  }
  if (negative) mant = -mant;
  return e >= 0 ? mk(mant << BigInt(e), 1n) : mk(mant, 1n << BigInt(-e));
}

const bitLength = (x) => (x === 0n ? 0 : (x < 0n ? -x : x).toString(16).length * 4);

/** A rational rounded to a double (within an ulp or two; not necessarily correctly rounded). */
export function toNumber(a) {
  if (a.n === 0n) return 0;
  const nb = bitLength(a.n);
  const db = bitLength(a.d);
  if (nb < 1000 && db < 1000) return Number(a.n) / Number(a.d);
  // Scale so that the integer quotient has about 64 significant bits.
  const s = 64 - (nb - db);
  const r = s >= 0 ? (a.n << BigInt(s)) / a.d : a.n / (a.d << BigInt(-s));
  const half = Math.trunc(-s / 2);
  return Number(r) * 2 ** half * 2 ** (-s - half);
}

// Vectors of rationals.
export const vsub = (a, b) => [qsub(a[0], b[0]), qsub(a[1], b[1]), qsub(a[2], b[2])];
export const vadd = (a, b) => [qadd(a[0], b[0]), qadd(a[1], b[1]), qadd(a[2], b[2])];
export const vscale = (a, s) => [qmul(a[0], s), qmul(a[1], s), qmul(a[2], s)];
export const vdot = (a, b) => qadd(qadd(qmul(a[0], b[0]), qmul(a[1], b[1])), qmul(a[2], b[2]));
export const vIsZero = (a) => qIsZero(a[0]) && qIsZero(a[1]) && qIsZero(a[2]);
export const vnum = (a) => [toNumber(a[0]), toNumber(a[1]), toNumber(a[2])];

// Vectors of doubles.
const dlen = (v) => Math.hypot(v[0], v[1], v[2]);
const dunit = (v) => {
  const l = dlen(v);
  return [v[0] / l, v[1] / l, v[2] / l];
};

// ---------------------------------------------------------------------------
// Reading a case (docs/case-runner.md "Reading a case") into doubles that are
// float32 values. Structural problems give { error, message }.
// ---------------------------------------------------------------------------

export const QUERIES = ['raycast', 'linetest', 'closest_point', 'contains'];
export const SHAPES = ['aabb', 'obb', 'sphere', 'plane'];
// Capsules are read and validated here; their queries are in capsule.mjs (judge.mjs delegates).

class InputError extends Error {}
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSON number or "inf"/"-inf"/"nan", rounded to float32; undefined if mistyped. */
export function readNumber(v) {
  if (typeof v === 'number') return Math.fround(v);
  if (v === 'inf') return Infinity;
  if (v === '-inf') return -Infinity;
  if (v === 'nan') return NaN;
  return undefined;
}

function num(obj, key, name) {
  const x = readNumber(obj[key]);
  if (x === undefined) throw new InputError(`"${name}" must be a number`);
  return x;
}

function vec(obj, key, name) {
  const v = obj[key];
  const bad = () => new InputError(`"${name}" must be an array of 3 numbers`);
  if (!Array.isArray(v) || v.length !== 3) throw bad();
  const out = v.map(readNumber);
  if (out.some((x) => x === undefined)) throw bad();
  return out;
}

function obj(parent, key, name) {
  const v = parent[key];
  if (!isObj(v)) throw new InputError(`"${name}" must be an object`);
  return v;
}

/**
 * The case's input as float32-valued doubles:
 * { query, ray: {origin, dir, tmax}, segment: {a, b}, point, shape: {...} }
 * (only the fields of its query). tmax is Infinity when absent.
 * Throws InputError on a structural problem.
 */
export function readInput(c) {
  if (!isObj(c)) throw new InputError('case is not an object');
  if (typeof c.id !== 'string') throw new InputError('"id" must be a string');
  if (typeof c.query !== 'string') throw new InputError('"query" must be a string');
  if (!QUERIES.includes(c.query)) throw new InputError(`unknown query "${c.query}"`);
  const input = { query: c.query };
  if (c.query === 'raycast') {
    const r = obj(c, 'ray', 'ray');
    input.ray = {
      origin: vec(r, 'origin', 'ray.origin'),
      dir: vec(r, 'dir', 'ray.dir'),
      tmax: r.tmax === undefined ? Infinity : num(r, 'tmax', 'ray.tmax'),
    };
  } else if (c.query === 'linetest') {
    const s = obj(c, 'segment', 'segment');
    input.segment = { a: vec(s, 'a', 'segment.a'), b: vec(s, 'b', 'segment.b') };
  } else {
    input.point = vec(c, 'point', 'point');
  }
  const s = obj(c, 'shape', 'shape');
  if (typeof s.type !== 'string') throw new InputError('"shape.type" must be a string');
  if (s.type === 'aabb') {
    input.shape = { type: 'aabb', min: vec(s, 'min', 'shape.min'), max: vec(s, 'max', 'shape.max') };
  } else if (s.type === 'obb') {
    const center = vec(s, 'center', 'shape.center');
    const ax = s.axes;
    const badAxes = () => new InputError('"shape.axes" must be an array of 3 arrays of 3 numbers');
    if (!Array.isArray(ax) || ax.length !== 3) throw badAxes();
    const axes = [];
    for (let i = 0; i < 3; i++) {
      try {
        axes.push(vec(ax, i, 'shape.axes'));
      } catch {
        throw badAxes();
      }
    }
    input.shape = { type: 'obb', center, axes, half: vec(s, 'half', 'shape.half') };
  } else if (s.type === 'sphere') {
    input.shape = {
      type: 'sphere',
      center: vec(s, 'center', 'shape.center'),
      radius: num(s, 'radius', 'shape.radius'),
    };
  } else if (s.type === 'plane') {
    input.shape = { type: 'plane', normal: vec(s, 'normal', 'shape.normal'), d: num(s, 'd', 'shape.d') };
  } else if (s.type === 'capsule') {
    input.shape = { type: 'capsule', a: vec(s, 'a', 'shape.a'), b: vec(s, 'b', 'shape.b'), radius: num(s, 'radius', 'shape.radius') };
  } else {
    throw new InputError(`unknown shape type "${s.type}"`);
  }
  return input;
}

// ---------------------------------------------------------------------------
// Semantic validation (spec "Shapes" and "Rays, segments, points").
// ---------------------------------------------------------------------------

const allFinite = (v) => v.every(Number.isFinite);
const isZeroVec = (v) => v[0] === 0 && v[1] === 0 && v[2] === 0;

/** The orthonormality tolerance of OBB axes, as an exact rational 1/10000. */
const ORTHO_TOL = q(1n, 10000n);

/**
 * Returns null when valid, else { message, borderline } where borderline is
 * true when the only problem is an OBB axis check within a hair (1e-6) of
 * the 1e-4 threshold (a float32 implementation may decide either way there).
 * A borderline-valid OBB is reported through the `borderline` out-object.
 */
export function validate(input, out = {}) {
  const fail = (message) => ({ message, borderline: false });
  if (input.ray) {
    const { origin, dir, tmax } = input.ray;
    if (!allFinite(origin)) return fail('ray.origin is not finite');
    if (!allFinite(dir)) return fail('ray.dir is not finite');
    if (isZeroVec(dir)) return fail('ray.dir is zero');
    if (Number.isNaN(tmax) || tmax < 0) return fail('ray.tmax is NaN or negative');
  }
  if (input.segment) {
    if (!allFinite(input.segment.a)) return fail('segment.a is not finite');
    if (!allFinite(input.segment.b)) return fail('segment.b is not finite');
  }
  if (input.point && !allFinite(input.point)) return fail('point is not finite');
  const s = input.shape;
  if (s.type === 'aabb') {
    if (!allFinite(s.min) || !allFinite(s.max)) return fail('aabb is not finite');
    if (s.min.some((m, i) => m > s.max[i])) return fail('aabb.min > aabb.max');
  } else if (s.type === 'obb') {
    if (!allFinite(s.center)) return fail('obb.center is not finite');
    if (!s.axes.every(allFinite)) return fail('obb.axes is not finite');
    // Exact check of |ai.aj - kronecker(i,j)| <= 1e-4.
    const A = s.axes.map((a) => a.map(fromDouble));
    let worst = 0;
    let bad = false;
    for (let i = 0; i < 3; i++) {
      for (let j = i; j < 3; j++) {
        let dev = vdot(A[i], A[j]);
        if (i === j) dev = qsub(dev, Q1);
        dev = qabs(dev);
        if (qlt(ORTHO_TOL, dev)) bad = true;
        worst = Math.max(worst, toNumber(dev));
      }
    }
    const borderline = Math.abs(worst - 1e-4) <= 1e-6;
    if (bad) return { message: 'obb.axes are not orthonormal', borderline };
    out.borderline = borderline;
    if (!allFinite(s.half)) return fail('obb.half is not finite');
    if (s.half.some((h) => h < 0)) return fail('obb.half is negative');
  } else if (s.type === 'sphere') {
    if (!allFinite(s.center)) return fail('sphere.center is not finite');
    if (!Number.isFinite(s.radius)) return fail('sphere.radius is not finite');
    if (s.radius < 0) return fail('sphere.radius is negative');
  } else if (s.type === 'plane') {
    if (!allFinite(s.normal)) return fail('plane.normal is not finite');
    if (isZeroVec(s.normal)) return fail('plane.normal is zero');
    if (!Number.isFinite(s.d)) return fail('plane.d is not finite');
    if (input.query === 'contains') return fail('contains is not supported for planes');
  } else if (s.type === 'capsule') {
    if (!allFinite(s.a)) return fail('capsule.a is not finite');
    if (!allFinite(s.b)) return fail('capsule.b is not finite');
    if (!Number.isFinite(s.radius)) return fail('capsule.radius is not finite');
    if (s.radius < 0) return fail('capsule.radius is negative');
  }
  return null;
}

// ---------------------------------------------------------------------------
// Case-level facts used by the judge: scale and the "exact" class.
// ---------------------------------------------------------------------------

/** Every number of the input, in a fixed order (tmax only when finite). */
export function inputNumbers(input) {
  const out = [];
  if (input.ray) {
    out.push(...input.ray.origin, ...input.ray.dir);
    if (Number.isFinite(input.ray.tmax)) out.push(input.ray.tmax);
  }
  if (input.segment) out.push(...input.segment.a, ...input.segment.b);
  if (input.point) out.push(...input.point);
  const s = input.shape;
  if (s.type === 'aabb') out.push(...s.min, ...s.max);
  if (s.type === 'obb') out.push(...s.center, ...s.axes.flat(), ...s.half);
  if (s.type === 'sphere') out.push(...s.center, s.radius);
  if (s.type === 'plane') out.push(...s.normal, s.d);
  if (s.type === 'capsule') out.push(...s.a, ...s.b, s.radius);
  return out;
}

/** The largest magnitude among the finite inputs, at least 1. */
export function caseScale(input) {
  let m = 1;
  for (const x of inputNumbers(input)) if (Number.isFinite(x)) m = Math.max(m, Math.abs(x));
  return m;
}

/** A multiple of 1/2 with magnitude at most 64. */
export const isSmallDyadic = (x) => Number.isInteger(x * 2) && Math.abs(x) <= 64;

/** OBB axes that are a signed permutation of the world axes. */
export function isSignedPermutation(axes) {
  const used = new Set();
  for (const a of axes) {
    const nz = [0, 1, 2].filter((k) => a[k] !== 0);
    if (nz.length !== 1 || Math.abs(a[nz[0]]) !== 1) return false;
    used.add(nz[0]);
  }
  return used.size === 3;
}

const oneNonZero = (v) => v.filter((x) => x !== 0).length === 1;

/**
 * True when the spec's nudge allowance does NOT apply: box and plane cases of
 * small dyadic inputs (OBB axes a signed permutation), and sphere cases of
 * such inputs whose direction (ray dir, or segment b - a) is parallel to a
 * world axis.
 */
export function isExactClass(input) {
  if (!inputNumbers(input).every(isSmallDyadic)) return false;
  const s = input.shape;
  if (s.type === 'aabb' || s.type === 'plane') return true;
  if (s.type === 'obb') return isSignedPermutation(s.axes);
  // sphere
  if (input.ray) return oneNonZero(input.ray.dir);
  if (input.segment) {
    const { a, b } = input.segment;
    return oneNonZero([b[0] - a[0], b[1] - a[1], b[2] - a[2]]);
  }
  return false;
}

// ---------------------------------------------------------------------------
// Exact input: the same structure as the double input, with rationals
// (tmax: null for +infinity).
// ---------------------------------------------------------------------------

const qv = (v) => v.map(fromDouble);

export function toExact(input) {
  const ex = { query: input.query };
  if (input.ray) {
    const t = input.ray.tmax;
    ex.ray = { origin: qv(input.ray.origin), dir: qv(input.ray.dir), tmax: t === Infinity ? null : fromDouble(t) };
  }
  if (input.segment) ex.segment = { a: qv(input.segment.a), b: qv(input.segment.b) };
  if (input.point) ex.point = qv(input.point);
  const s = input.shape;
  if (s.type === 'aabb') ex.shape = { type: 'aabb', min: qv(s.min), max: qv(s.max) };
  if (s.type === 'obb') ex.shape = { type: 'obb', center: qv(s.center), axes: s.axes.map(qv), half: qv(s.half) };
  if (s.type === 'sphere') ex.shape = { type: 'sphere', center: qv(s.center), radius: fromDouble(s.radius) };
  if (s.type === 'plane') ex.shape = { type: 'plane', normal: qv(s.normal), d: fromDouble(s.d) };
  return ex;
}

// ---------------------------------------------------------------------------
// Geometry, exact.
// ---------------------------------------------------------------------------

/**
 * Box shapes as slabs in a frame: for axis i the box is lo_i <= (p . u_i) - off_i <= hi_i.
 * AABB: u_i = e_i, off = 0, [min_i, max_i]. OBB: u_i = axes[i], off_i = c . axes[i], [-h_i, h_i].
 * Returns [{ u, lo, hi, off }] with rationals.
 */
function slabsOf(shape) {
  if (shape.type === 'aabb') {
    const E = [
      [Q1, Q0, Q0],
      [Q0, Q1, Q0],
      [Q0, Q0, Q1],
    ];
    return E.map((u, i) => ({ u, lo: shape.min[i], hi: shape.max[i], off: Q0, axisIndex: i }));
  }
  return shape.axes.map((u, i) => ({
    u,
    lo: qneg(shape.half[i]),
    hi: shape.half[i],
    off: vdot(shape.center, u),
    axisIndex: i,
  }));
}

/**
 * The interval of t with o + t*d in the box: { empty: true } or
 * { enter, exit } where null stands for -inf / +inf (only when d is 0 in
 * every slab, i.e. a zero-length segment).
 */
function boxInterval(slabs, o, d) {
  let enter = null;
  let exit = null;
  for (const sl of slabs) {
    const s = qsub(vdot(o, sl.u), sl.off); // coordinate of o in the slab frame
    const v = vdot(d, sl.u);
    if (qIsZero(v)) {
      if (qlt(s, sl.lo) || qlt(sl.hi, s)) return { empty: true };
      continue;
    }
    let t1 = qdiv(qsub(sl.lo, s), v);
    let t2 = qdiv(qsub(sl.hi, s), v);
    if (qsign(v) < 0) [t1, t2] = [t2, t1];
    if (enter === null || qlt(enter, t1)) enter = t1;
    if (exit === null || qlt(t2, exit)) exit = t2;
    if (qlt(exit, enter)) return { empty: true };
  }
  return { empty: false, enter, exit };
}

/** Does [enter, exit] (null = infinite) meet [0, tmax] (tmax null = +inf)? */
function meets(iv, tmax) {
  if (iv.empty) return false;
  if (iv.exit !== null && qsign(iv.exit) < 0) return false;
  if (iv.enter !== null && tmax !== null && qlt(tmax, iv.enter)) return false;
  return true;
}

/** Is point p in the closed box? */
function boxContains(slabs, p) {
  for (const sl of slabs) {
    const s = qsub(vdot(p, sl.u), sl.off);
    if (qlt(s, sl.lo) || qlt(sl.hi, s)) return false;
  }
  return true;
}

/** The 6 faces of a box with their distance (double) to the exact point p. */
function boxFaces(slabs, p) {
  const faces = [];
  for (const sl of slabs) {
    const s = qsub(vdot(p, sl.u), sl.off);
    const un = vnum(sl.u);
    const len = dlen(un);
    const n = dunit(un);
    faces.push({ normal: n.map((x) => -x), dist: Math.abs(toNumber(qsub(s, sl.lo))) / len, exact: qcmp(s, sl.lo) === 0 });
    faces.push({ normal: n, dist: Math.abs(toNumber(qsub(s, sl.hi))) / len, exact: qcmp(s, sl.hi) === 0 });
  }
  return faces;
}

/**
 * Sphere quadratic along o + t*d: |m + t d|^2 - r^2 = A t^2 + 2 B t + C with
 * m = o - c. Returns { A, B, C } (rationals).
 */
function sphereQuad(sphere, o, d) {
  const m = vsub(o, sphere.center);
  return { A: vdot(d, d), B: vdot(m, d), C: qsub(vdot(m, m), qmul(sphere.radius, sphere.radius)) };
}

/** f(t) = A t^2 + 2 B t + C, exactly. */
const quadAt = ({ A, B, C }, t) => qadd(qmul(t, qadd(qmul(A, t), qmul(q(2n), B))), C);

/** Is min over t in [0, tmax] (tmax null = +inf) of the quadratic <= 0? (A >= 0) */
function quadMeets(Q, tmax) {
  if (qIsZero(Q.A)) return qsign(Q.C) <= 0; // a point (zero-length segment)
  let t = qdiv(qneg(Q.B), Q.A); // vertex
  if (qsign(t) < 0) t = Q0;
  if (tmax !== null && qlt(tmax, t)) t = tmax;
  return qsign(quadAt(Q, t)) <= 0;
}

const pointAt = (o, d, t) => vadd(o, vscale(d, t));

// ---------------------------------------------------------------------------
// The queries on an exact input. Numbers in results are doubles; exact facts
// (faces containing the point, the sign of t_enter) are flags.
// ---------------------------------------------------------------------------

/**
 * Raycast result:
 *   { hit: false } or
 *   { hit: true, t, tEnter, tExit, point, tEnterSign,
 *     faces: [{ normal, dist, exact }],  // candidate outward normals (box: 6; plane: 1 or 2)
 *     sphere?: { center, radius } }      // sphere: accept any normal of a surface point near `point`
 */
function raycast(ex) {
  const { origin: o, dir: d, tmax } = ex.ray;
  const shape = ex.shape;
  if (shape.type === 'aabb' || shape.type === 'obb') {
    const slabs = slabsOf(shape);
    const iv = boxInterval(slabs, o, d);
    if (!meets(iv, tmax)) return { hit: false };
    // d is non-zero, so some slab constrains t and enter/exit are finite.
    const t = qsign(iv.enter) > 0 ? iv.enter : Q0;
    const p = pointAt(o, d, t);
    return {
      hit: true,
      t: toNumber(t),
      tEnter: toNumber(iv.enter),
      tExit: toNumber(iv.exit),
      tEnterSign: qsign(iv.enter),
      point: vnum(p),
      faces: boxFaces(slabs, p),
    };
  }
  if (shape.type === 'sphere') {
    const Qd = sphereQuad(shape, o, d);
    const { A, B, C } = Qd;
    const D = qsub(qmul(B, B), qmul(A, C)); // quarter discriminant
    if (qsign(D) < 0 || !quadMeets(Qd, tmax)) return { hit: false };
    // Roots (-B -+ sqrt(D)) / A, computed without cancellation.
    const a = toNumber(A);
    const b = toNumber(B);
    const c = toNumber(C);
    const sq = Math.sqrt(toNumber(D));
    let tEnter;
    let tExit;
    if (qIsZero(D)) {
      tEnter = tExit = toNumber(qdiv(qneg(B), A)); // tangent: exact root
    } else if (b >= 0) {
      const qq = -b - sq; // < 0
      tEnter = qq / a;
      tExit = c / qq;
    } else {
      const qq = -b + sq; // > 0
      tEnter = c / qq;
      tExit = qq / a;
    }
    // Exact sign of t_enter (see README of the oracle): < 0 iff C < 0 or B > 0.
    const sC = qsign(C);
    const sB = qsign(B);
    const tEnterSign = sC < 0 || sB > 0 ? -1 : sC === 0 ? 0 : 1;
    if (tEnterSign === 0) tEnter = 0;
    let point;
    if (tEnterSign <= 0) point = vnum(o);
    else if (qIsZero(D)) point = vnum(pointAt(o, d, qdiv(qneg(B), A)));
    else {
      const on = vnum(o);
      const dn = vnum(d);
      point = on.map((x, i) => x + tEnter * dn[i]);
    }
    const center = vnum(shape.center);
    const radius = toNumber(shape.radius);
    const faces = [];
    if (radius > 0) {
      faces.push({ normal: point.map((x, i) => (x - center[i]) / radius), dist: 0, exact: true });
    }
    return {
      hit: true,
      t: Math.max(tEnter, 0),
      tEnter,
      tExit,
      tEnterSign,
      point,
      faces,
      sphere: { center, radius },
    };
  }
  // plane
  const nd = vdot(shape.normal, d);
  const dist0 = qsub(shape.d, vdot(shape.normal, o)); // d - n.o
  let t0;
  if (qIsZero(nd)) {
    if (!qIsZero(dist0)) return { hit: false };
    t0 = Q0;
  } else {
    t0 = qdiv(dist0, nd);
    if (qsign(t0) < 0 || (tmax !== null && qlt(tmax, t0))) return { hit: false };
  }
  const n = dunit(vnum(shape.normal));
  const faces = [];
  const snd = qsign(nd);
  if (snd <= 0) faces.push({ normal: n, dist: 0, exact: true });
  if (snd >= 0) faces.push({ normal: n.map((x) => -x), dist: 0, exact: true });
  const tn = toNumber(t0);
  return {
    hit: true,
    t: tn,
    tEnter: tn,
    tExit: tn,
    tEnterSign: qsign(t0),
    point: vnum(pointAt(o, d, t0)),
    faces,
    planeDirDot: toNumber(nd),
  };
}

function linetest(ex) {
  const { a, b } = ex.segment;
  const d = vsub(b, a);
  const shape = ex.shape;
  if (shape.type === 'aabb' || shape.type === 'obb') {
    const slabs = slabsOf(shape);
    if (vIsZero(d)) return { hit: boxContains(slabs, a) };
    return { hit: meets(boxInterval(slabs, a, d), Q1) };
  }
  if (shape.type === 'sphere') return { hit: quadMeets(sphereQuad(shape, a, d), Q1) };
  // plane: the signed offsets of the end points have opposite signs or one is 0
  const fa = qsign(qsub(vdot(shape.normal, a), shape.d));
  const fb = qsign(qsub(vdot(shape.normal, b), shape.d));
  return { hit: fa * fb <= 0 };
}

function contains(ex) {
  const shape = ex.shape;
  const p = ex.point;
  if (shape.type === 'aabb' || shape.type === 'obb') return { inside: boxContains(slabsOf(shape), p) };
  if (shape.type === 'sphere') return { inside: quadMeets(sphereQuad(shape, p, [Q0, Q0, Q0]), Q1) };
  throw new Error('contains on a plane is an error');
}

function closestPoint(ex) {
  const shape = ex.shape;
  const p = ex.point;
  const clamp = (x, lo, hi) => (qlt(x, lo) ? lo : qlt(hi, x) ? hi : x);
  if (shape.type === 'aabb') {
    return { point: vnum(p.map((x, i) => clamp(x, shape.min[i], shape.max[i]))) };
  }
  if (shape.type === 'obb') {
    // center + sum clamp((p - c) . a_i, -h_i, h_i) a_i
    const m = vsub(p, shape.center);
    let r = shape.center;
    for (let i = 0; i < 3; i++) {
      const s = clamp(vdot(m, shape.axes[i]), qneg(shape.half[i]), shape.half[i]);
      r = vadd(r, vscale(shape.axes[i], s));
    }
    return { point: vnum(r) };
  }
  if (shape.type === 'sphere') {
    const m = vsub(p, shape.center);
    const r2 = qmul(shape.radius, shape.radius);
    if (qle(vdot(m, m), r2)) return { point: vnum(p) };
    const c = vnum(shape.center);
    const mn = vnum(m);
    const len = dlen(mn);
    const r = toNumber(shape.radius);
    return { point: c.map((x, i) => x + (r * mn[i]) / len) };
  }
  // plane: p - ((n.p - d) / (n.n)) n
  const n = shape.normal;
  const k = qdiv(qsub(vdot(n, p), shape.d), vdot(n, n));
  return { point: vnum(vsub(p, vscale(n, k))) };
}

/** Evaluate the query of a (valid) exact input. */
export function evaluate(ex) {
  switch (ex.query) {
    case 'raycast':
      return raycast(ex);
    case 'linetest':
      return linetest(ex);
    case 'contains':
      return contains(ex);
    case 'closest_point':
      return closestPoint(ex);
  }
  throw new Error(`unknown query ${ex.query}`);
}

// ---------------------------------------------------------------------------
// Nudges: deterministic perturbations of an exact input by up to 1e-6 * scale
// per number, for the spec's classification allowance.
// ---------------------------------------------------------------------------

/** Deep-copy an exact input, applying f(value, path) to every rational leaf. */
function mapExact(ex, f) {
  const walk = (v, path) => {
    if (v === null || typeof v === 'string') return v;
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}.${i}`));
    if (typeof v.n === 'bigint') return f(v, path);
    const out = {};
    for (const k of Object.keys(v)) out[k] = walk(v[k], path ? `${path}.${k}` : k);
    return out;
  };
  return walk(ex, '');
}

/** A small deterministic PRNG (splitmix32-style), for the random sign patterns. */
function rng32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Keep sizes valid after a nudge (in place): min <= max, half, radius, tmax >= 0. */
function fixNudged(e) {
  const clampNonNeg = (x) => (qsign(x) < 0 ? Q0 : x);
  const s = e.shape;
  if (s.type === 'aabb') {
    for (let i = 0; i < 3; i++) {
      if (qlt(s.max[i], s.min[i])) {
        const mid = qdiv(qadd(s.min[i], s.max[i]), q(2n));
        s.min[i] = mid;
        s.max[i] = mid;
      }
    }
  }
  if (s.type === 'obb') s.half = s.half.map(clampNonNeg);
  if (s.type === 'sphere') s.radius = clampNonNeg(s.radius);
  if (e.ray && e.ray.tmax !== null) e.ray.tmax = clampNonNeg(e.ray.tmax);
  return e;
}

/**
 * For each input number in turn: [the input with it + eps, with it - eps]
 * (eps = 1e-6 * scale). Used by the judge to estimate, to first order, how
 * far a 1e-6 nudge can move each result value.
 */
export function* singleNudges(ex, scale) {
  const eps = fromDouble(1e-6 * scale);
  let count = 0;
  mapExact(ex, (v) => (count++, v));
  for (let k = 0; k < count; k++) {
    const pair = [1, -1].map((sgn) => {
      let i = 0;
      return fixNudged(mapExact(ex, (v) => (i++ === k ? qadd(v, sgn > 0 ? eps : qneg(eps)) : v)));
    });
    yield pair;
  }
}

/**
 * Yields nudged copies of `ex`: grow/shrink the shape, plane snaps (see
 * below), tmax +- eps, each query-vector component +- eps, the shape moved
 * +- eps per axis, and 16 random sign patterns over every number. Nudges
 * that would make the shape invalid (negative size) are clamped.
 */
export function* nudges(ex, scale) {
  const eps = fromDouble(1e-6 * scale);
  const add = (x, k) => (k === 0 ? x : qadd(x, k > 0 ? eps : qneg(eps)));
  const fix = fixNudged;
  // Grow / shrink the shape.
  for (const k of [1, -1]) {
    yield fix(
      mapExact(ex, (v, p) => {
        if (p.startsWith('shape.min')) return add(v, -k);
        if (p.startsWith('shape.max') || p.startsWith('shape.half') || p === 'shape.radius' || p === 'shape.d')
          return add(v, k);
        return v;
      }),
    );
  }
  // Planes: some flips need an exact coincidence (a ray lying in the plane,
  // an end point on it) that no +-eps step reaches. Snap the plane through
  // each query point (moving d by at most eps * (1 + |n|_1), i.e. a nudge of
  // d and of the point), and make a ray exactly parallel (moving each dir
  // component by at most eps).
  if (ex.shape.type === 'plane') {
    const n = ex.shape.normal;
    const slack = qmul(eps, qadd(Q1, qadd(qadd(qabs(n[0]), qabs(n[1])), qabs(n[2]))));
    const pts = ex.ray ? [ex.ray.origin] : ex.segment ? [ex.segment.a, ex.segment.b] : [ex.point];
    for (const p of pts) {
      const d = vdot(n, p);
      if (qle(qabs(qsub(d, ex.shape.d)), slack)) {
        yield { ...ex, shape: { ...ex.shape, d } };
      }
    }
    if (ex.ray) {
      const k = qdiv(vdot(n, ex.ray.dir), vdot(n, n));
      const step = vscale(n, k);
      if (!qIsZero(k) && step.every((x) => qle(qabs(x), eps))) {
        const dir = vsub(ex.ray.dir, step);
        if (!vIsZero(dir)) {
          yield { ...ex, ray: { ...ex.ray, dir } };
          const d = vdot(n, ex.ray.origin);
          if (qle(qabs(qsub(d, ex.shape.d)), slack)) yield { ...ex, ray: { ...ex.ray, dir }, shape: { ...ex.shape, d } };
        }
      }
    }
  }
  // tmax.
  if (ex.ray && ex.ray.tmax !== null) {
    for (const k of [1, -1]) yield fix(mapExact(ex, (v, p) => (p === 'ray.tmax' ? add(v, k) : v)));
  }
  // Each component of each query vector, and a translation of the shape.
  const vecPaths = [];
  if (ex.ray) vecPaths.push('ray.origin', 'ray.dir');
  if (ex.segment) vecPaths.push('segment.a', 'segment.b');
  if (ex.point) vecPaths.push('point');
  vecPaths.push('shape');
  const shapeMoves = { aabb: ['shape.min', 'shape.max'], obb: ['shape.center'], sphere: ['shape.center'], plane: [] };
  for (const vp of vecPaths) {
    for (let axis = 0; axis < 3; axis++) {
      for (const k of [1, -1]) {
        yield fix(
          mapExact(ex, (v, p) => {
            if (vp === 'shape') {
              if (ex.shape.type === 'plane') return p === `shape.normal.${axis}` ? add(v, k) : v;
              return shapeMoves[ex.shape.type].some((sp) => p === `${sp}.${axis}`) ? add(v, k) : v;
            }
            return p === `${vp}.${axis}` ? add(v, k) : v;
          }),
        );
      }
    }
  }
  // Random sign patterns over all numbers.
  const next = rng32(0x51ab);
  for (let i = 0; i < 16; i++) {
    yield fix(mapExact(ex, (v, p) => (p === 'ray.tmax' && v === null ? v : add(v, next() & 1 ? 1 : -1))));
  }
}

// ---------------------------------------------------------------------------
// The oracle for one case object.
// ---------------------------------------------------------------------------

/**
 * oracle(caseObj) ->
 *   { error: true, message, borderline, asValid? }       for invalid input, or
 *   { error: false, input, exact, result, scale, exactClass, dirLen, borderline }
 * `borderline`: the validity itself is within a hair of a threshold (OBB
 * orthonormality), so either an error or a result is accepted; `asValid`
 * is then the evaluation of the input as if it were valid.
 */
export function oracle(caseObj) {
  let input;
  try {
    input = readInput(caseObj);
  } catch (e) {
    if (e instanceof InputError) return { error: true, message: e.message, borderline: false };
    throw e;
  }
  const extra = {};
  const bad = validate(input, extra);
  if (bad) {
    const out = { error: true, message: bad.message, borderline: bad.borderline, input };
    // A borderline OBB may also be judged as valid: provide that evaluation too.
    if (bad.borderline) out.asValid = validOracle(input, true);
    return out;
  }
  // capsules: judged by capsule.mjs (judge.mjs), not by evaluate()
  if (input.shape.type === 'capsule') return { error: false, capsule: true, input, scale: caseScale(input) };
  return validOracle(input, !!extra.borderline);
}

function validOracle(input, borderline) {
  const exact = toExact(input);
  return {
    error: false,
    input,
    exact,
    result: evaluate(exact),
    scale: caseScale(input),
    exactClass: isExactClass(input),
    dirLen: input.ray ? dlen(input.ray.dir) : 1,
    borderline,
  };
}
