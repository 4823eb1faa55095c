// slabcast oracle for capsules: an independent, exact reference (BigInt rationals from
// exact.mjs) for the capsule's four single queries of docs/semantics.md ("Capsules").
//
// A capsule {a, b, radius} is the set of points within radius of the segment a-b. Everything
// here works from exact squared distances, which are rational: the nearest points of two
// segments (or a segment and a ray) minimise a convex quadratic over a box of parameters, so
// they are at a rational critical point or on an edge of the box, found by exact projections.
// The line's interval [t_enter, t_exit] = {t : dist(o + t d, segment) <= radius} is found by
// bisection on that exact distance (it is convex in t), to a relative precision far below
// anything judged. Nothing here is derived from src/.
import { fromDouble, q, qadd, qsub, qmul, qdiv, qcmp, qsign, Q0, Q1, toNumber, vsub, vadd, vscale, vdot, vIsZero } from './exact.mjs';

const f32 = Math.fround;
const qv = (v) => v.map((x) => fromDouble(f32(x)));
const clamp01 = (s, hi) => (qsign(s) < 0 ? Q0 : hi !== null && qcmp(s, hi) > 0 ? hi : s);

/** The exact squared distance from p to the piece s0 + s*d, s in [0, hi] (hi: a rational, or null for [0, inf)). */
export function dist2PointPiece(p, s0, d, hi = Q1) {
  const e = vsub(p, s0);
  const dd = vdot(d, d);
  if (qsign(dd) === 0) return vdot(e, e);
  const s = clamp01(qdiv(vdot(e, d), dd), hi);
  const f = vsub(e, vscale(d, s));
  return vdot(f, f);
}

/**
 * The exact squared distance between the pieces P = p0 + s*d1 (s in [0, hi1]; hi1 null: s >= 0)
 * and Q = q0 + t*d2 (t in [0, 1]). The minimum of |w + s d1 - t d2|^2 over the box is at the
 * unconstrained critical point when it lies in the box, else on an edge of the box; each edge is
 * a point against the other piece.
 */
export function dist2Pieces(p0, d1, hi1, q0, d2) {
  const cands = [dist2PointPiece(p0, q0, d2), dist2PointPiece(q0, p0, d1, hi1), dist2PointPiece(vadd(q0, d2), p0, d1, hi1)];
  if (hi1 !== null) cands.push(dist2PointPiece(vadd(p0, vscale(d1, hi1)), q0, d2));
  const a = vdot(d1, d1);
  const b = vdot(d1, d2);
  const c = vdot(d2, d2);
  const den = qsub(qmul(a, c), qmul(b, b));
  if (qsign(den) > 0) {
    const w = vsub(p0, q0);
    const d = vdot(d1, w);
    const e = vdot(d2, w);
    const s = qdiv(qsub(qmul(b, e), qmul(c, d)), den);
    const t = qdiv(qsub(qmul(a, e), qmul(b, d)), den);
    const sOk = qsign(s) >= 0 && (hi1 === null || qcmp(s, hi1) <= 0);
    if (sOk && qsign(t) >= 0 && qcmp(t, Q1) <= 0) {
      const g = vsub(vadd(w, vscale(d1, s)), vscale(d2, t));
      cands.push(vdot(g, g));
    }
  }
  return cands.reduce((m, x) => (qcmp(x, m) < 0 ? x : m));
}

/** An exact capsule {a, b, r, r2, u} from float inputs. */
export function exactCapsule(shape) {
  const a = qv(shape.a);
  const b = qv(shape.b);
  const r = fromDouble(f32(shape.radius));
  return { a, b, r, r2: qmul(r, r), u: vsub(b, a) };
}

/** -1, 0, 1: p strictly inside, on the surface, outside. */
export function side(p, cap) {
  return qsign(qsub(dist2PointPiece(p, cap.a, cap.u), cap.r2));
}

export const containsCapsule = (point, shape) => side(qv(point), exactCapsule(shape)) <= 0;

export function linetestCapsule(seg, shape) {
  const cap = exactCapsule(shape);
  const a = qv(seg.a);
  return qcmp(dist2Pieces(a, vsub(qv(seg.b), a), Q1, cap.a, cap.u), cap.r2) <= 0;
}

/** Exactly: are the segments a0-b0 and a1-b1 within r0 + r1 of each other (r0 + r1 taken exactly)? */
export function segmentsWithin(a0, b0, a1, b1, r0, r1) {
  const p = qv(a0);
  const qq = qv(a1);
  const R = qadd(fromDouble(f32(r0)), fromDouble(f32(r1)));
  return qcmp(dist2Pieces(p, vsub(qv(b0), p), Q1, qq, vsub(qv(b1), qq)), qmul(R, R)) <= 0;
}

const f = (o, d, t, cap) => qsub(dist2PointPiece(vadd(o, vscale(d, t)), cap.a, cap.u), cap.r2);

/** The t of the line's point nearest the segment (a minimiser of the convex f). */
function nearestT(o, d, cap) {
  const dd = vdot(d, d);
  const proj = (x) => qdiv(vdot(vsub(x, o), d), dd);
  const ts = [proj(cap.a), proj(vadd(cap.a, cap.u))];
  const a = dd;
  const b = vdot(d, cap.u);
  const c = vdot(cap.u, cap.u);
  const den = qsub(qmul(a, c), qmul(b, b));
  if (qsign(den) > 0) {
    const w = vsub(o, cap.a);
    const s = qdiv(qsub(qmul(b, vdot(cap.u, w)), qmul(c, vdot(d, w))), den);
    ts.push(s);
  }
  let best = ts[0];
  let fb = f(o, d, best, cap);
  for (const t of ts.slice(1)) {
    const ft = f(o, d, t, cap);
    if (qcmp(ft, fb) < 0) { best = t; fb = ft; }
  }
  return { t: best, f: fb };
}

/** A dyadic rational 2^k (k may be negative). */
const pow2 = (k) => (k >= 0 ? q(1n << BigInt(k)) : q(1n, 1n << BigInt(-k)));

/**
 * The boundary of {f <= 0} between tin (f <= 0) and tout (f > 0), by bisection: the last inside
 * point found, never beyond the exact end, after `bits` halvings of the bracket. Midpoints are
 * rounded to multiples of 2^-K (K: the bracket's width over 2^(bits + 8)) so that their
 * denominators stay small; they still lie strictly inside the shrinking bracket.
 */
function bisect(o, d, cap, tin, tout, bits) {
  let lo = tin; // f(lo) <= 0
  let hi = tout; // f(hi) > 0
  const w = qsub(hi, lo);
  const wlog = Math.floor(Math.log2(Math.abs(toNumber(w))));
  const K = BigInt(Math.max(0, bits + 8 - wlog));
  const snap = (x) => {
    const n = (x.n << K) / x.d; // truncated towards 0: within 2^-K of x
    return q(n, 1n << K);
  };
  for (let i = 0; i < bits; i++) {
    const mid = snap(qmul(qadd(lo, hi), q(1n, 2n)));
    if (qcmp(mid, qmin2(lo, hi)) <= 0 || qcmp(mid, qmax2(lo, hi)) >= 0) break; // converged to the grid
    if (qsign(f(o, d, mid, cap)) <= 0) lo = mid; else hi = mid;
  }
  return lo;
}

const qmin2 = (a, b) => (qcmp(a, b) <= 0 ? a : b);
const qmax2 = (a, b) => (qcmp(a, b) >= 0 ? a : b);

/** The step from tin outwards (sign +-1) to a point with f > 0: doubling from 1. */
function bracket(o, d, cap, tin, dir) {
  let k = 0;
  for (;;) {
    const t = qadd(tin, qmul(q(BigInt(dir)), pow2(k)));
    if (qsign(f(o, d, t, cap)) > 0) return t;
    k += 4;
  }
}

/**
 * The exact answer of raycast against a capsule: {hit} and, on a hit, t_enter, t_exit, t (as
 * doubles from rationals within 2^-90 relative of the exact values), the point at t, the
 * outward unit normal there (or [0, 0, 0] when t_enter < 0), and sideOrigin (-1, 0, 1).
 * The hit itself is exact: dist(ray piece, segment) <= radius.
 */
export function raycastCapsule(ray, shape) {
  const cap = exactCapsule(shape);
  const o = qv(ray.origin);
  const d = qv(ray.dir);
  const tmax = ray.tmax === undefined || ray.tmax === Infinity ? null : fromDouble(f32(ray.tmax));
  const hit = qcmp(dist2Pieces(o, d, tmax, cap.a, cap.u), cap.r2) <= 0;
  if (!hit) return { hit: false };
  const near = nearestT(o, d, cap); // f(near.t) <= 0: the line meets the capsule
  const lo = bracket(o, d, cap, near.t, -1);
  const hi = bracket(o, d, cap, near.t, 1);
  // halvings: the bracket's width, as a distance along the ray, down to 2^-64 of the capsule's
  // radius (its length for radius 0; the scale of the inputs for a point), so that points and
  // normals are resolved on the capsule's own scale, however thin it is
  const dl = Math.hypot(...ray.dir.map(f32));
  const un = cap.u.map(toNumber);
  let size = toNumber(cap.r) > 0 ? toNumber(cap.r) : Math.hypot(...un);
  if (!(size > 0)) size = Math.max(...[...shape.a, ...ray.origin, ...ray.dir].map((x) => Math.abs(f32(x))));
  const bits = Math.max(8, Math.ceil(Math.log2((Math.abs(toNumber(qsub(hi, lo))) * dl) / size)) + 64);
  const tEnter = bisect(o, d, cap, near.t, lo, bits);
  const tExit = bisect(o, d, cap, near.t, hi, bits);
  const so = side(o, cap);
  const tq = qsign(tEnter) > 0 ? tEnter : Q0;
  const point = vadd(o, vscale(d, tq));
  return {
    hit,
    sideOrigin: so,
    tEnterQ: tEnter,
    t_enter: toNumber(tEnter),
    t_exit: toNumber(tExit),
    t: toNumber(tq),
    point: point.map(toNumber),
    pointQ: point,
    normal: qsign(tEnter) < 0 ? [0, 0, 0] : outwardNormal(point, cap),
  };
}

/** The outward unit normal (doubles) at a point of the surface: from its nearest axis point. */
export function outwardNormal(p, cap) {
  const uu = vdot(cap.u, cap.u);
  let s = qsign(uu) === 0 ? Q0 : qdiv(vdot(vsub(p, cap.a), cap.u), uu);
  s = clamp01(s, Q1);
  const n = vsub(p, vadd(cap.a, vscale(cap.u, s))).map(toNumber);
  const l = Math.hypot(n[0], n[1], n[2]);
  return l > 0 ? n.map((x) => x / l) : null; // null: radius 0 (no unique normal)
}

/** The exact closest point (doubles; p itself when inside). */
export function closestPointCapsule(point, shape) {
  const cap = exactCapsule(shape);
  const p = qv(point);
  if (side(p, cap) <= 0) return { point: p.map(toNumber), inside: true };
  const uu = vdot(cap.u, cap.u);
  const s = clamp01(qsign(uu) === 0 ? Q0 : qdiv(vdot(vsub(p, cap.a), cap.u), uu), Q1);
  const foot = vadd(cap.a, vscale(cap.u, s));
  const m = vsub(p, foot);
  // foot + r * m / |m|, with |m| from a high-precision square root of the exact |m|^2
  const m2 = vdot(m, m);
  const scale = 1n << 200n;
  const len = sqrtQ(m2, scale); // |m| * 2^200, an integer
  const k = qdiv(qmul(cap.r, q(scale)), q(len));
  return { point: vadd(foot, vscale(m, k)).map(toNumber), inside: false };
}

/** floor(sqrt(x) * scale) for a rational x > 0 (scale a power of two). */
function sqrtQ(x, scale) {
  const n = (x.n * scale * scale) / x.d;
  if (n <= 0n) return 1n;
  let r = BigInt(Math.floor(Math.sqrt(Number(n)))) || 1n;
  for (let i = 0; i < 200; i++) {
    const nr = (r + n / r) >> 1n;
    if (nr === r || nr === r + 1n || nr === r - 1n) { r = nr; break; }
    r = nr;
  }
  while (r * r > n) r -= 1n;
  while ((r + 1n) * (r + 1n) <= n) r += 1n;
  return r;
}

export { vIsZero };

const FLT_MAX = 3.4028234663852886e38;
const sat = (x) => (x > FLT_MAX ? FLT_MAX : x < -FLT_MAX ? -FLT_MAX : x);
/** The bound of docs/semantics.md ("Capsules") on t, t_enter, t_exit (times |dir|), point and normal. */
export const CAPSULE_BOUND = 2 ** -20;
/** The normal's bound: CAPSULE_BOUND + 2^-48 |b - a| / radius (thin capsules, docs/semantics.md). */
export function normalBound(shape) {
  const u = [0, 1, 2].map((i) => f32(shape.b[i]) - f32(shape.a[i]));
  const r = f32(shape.radius);
  return CAPSULE_BOUND + (r > 0 ? (2 ** -48 * Math.hypot(...u)) / r : 0);
}

/** The scale of a read input (exact.mjs readInput): the largest finite magnitude, at least 1. */
function scaleOf(input) {
  const nums = [...input.shape.a, ...input.shape.b, input.shape.radius];
  if (input.ray) nums.push(...input.ray.origin, ...input.ray.dir);
  if (input.segment) nums.push(...input.segment.a, ...input.segment.b);
  if (input.point) nums.push(...input.point);
  return Math.max(1, ...nums.map((x) => Math.abs(f32(x))).filter(Number.isFinite));
}

const isVec = (v) => Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x));

/**
 * Problems of a result (the runner's or the JS API's fields) for a valid capsule case, read as
 * exact.mjs readInput does ({query, ray | segment | point, shape}); empty when it is right: the
 * class exact, and every number within CAPSULE_BOUND as docs/semantics.md states.
 */
export function judgeCapsule(input, res) {
  const sh = input.shape;
  const scale = scaleOf(input);
  const bad = [];
  const near = (got, want, tol) => typeof got === 'number' && Math.abs(got - sat(want)) <= tol;
  if (input.query === 'raycast') {
    const ex = raycastCapsule(input.ray, sh);
    if (res.hit !== ex.hit) return [`hit: expected ${ex.hit}, got ${res.hit}`];
    if (!ex.hit) return bad;
    const dl = Math.hypot(...input.ray.dir.map(f32));
    for (const k of ['t', 't_enter', 't_exit']) {
      if (!near(res[k], ex[k], (CAPSULE_BOUND * scale) / dl)) bad.push(`${k}: expected ${ex[k]} (within 2^-20 of the scale), got ${res[k]}`);
    }
    if (!isVec(res.point) || !res.point.every((x, i) => near(x, ex.point[i], CAPSULE_BOUND * scale))) {
      bad.push(`point: expected ${JSON.stringify(ex.point)}, got ${JSON.stringify(res.point)}`);
    }
    const n = res.normal;
    if (!isVec(n)) return bad.concat([`normal: got ${JSON.stringify(n)}`]);
    if (ex.normal === null) {
      // radius 0: a unit vector facing the ray
      const d = input.ray.dir.map(f32);
      if (!(Math.abs(Math.hypot(...n) - 1) <= 1e-6 && n[0] * d[0] + n[1] * d[1] + n[2] * d[2] < 0)) {
        bad.push(`normal: expected a unit vector facing the ray (radius 0), got ${JSON.stringify(n)}`);
      }
    } else if (!n.every((x, i) => Math.abs(x - ex.normal[i]) <= normalBound(sh))) {
      bad.push(`normal: expected ${JSON.stringify(ex.normal)}, got ${JSON.stringify(n)}`);
    }
  } else if (input.query === 'linetest') {
    const want = linetestCapsule(input.segment, sh);
    if (res.hit !== want) bad.push(`hit: expected ${want}, got ${res.hit}`);
  } else if (input.query === 'contains') {
    const want = containsCapsule(input.point, sh);
    if (res.inside !== want) bad.push(`inside: expected ${want}, got ${res.inside}`);
  } else {
    const want = closestPointCapsule(input.point, sh).point;
    if (!isVec(res.point) || !res.point.every((x, i) => near(x, want[i], CAPSULE_BOUND * scale))) {
      bad.push(`point: expected ${JSON.stringify(want)}, got ${JSON.stringify(res.point)}`);
    }
  }
  return bad;
}
