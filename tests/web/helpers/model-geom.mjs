// Geometry for the world model (world-model.test.mjs), independent of the world's kernels:
// exact membership tests in BigInt on the float32 inputs (OBBs as their slabs, as the contract
// defines them), the OBB's slab set as a parallelepiped (docs/semantics.md, Shapes), and
// distance bounds with stated margins. Nothing here calls the world.

const S = 2 ** 149; // every float32 times 2^149 is an integer
/** A float32 value (a JS number that is a float32) as the exact integer v * 2^149. */
export const big = (v) => BigInt(v * S);

export const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const norm = (a) => Math.hypot(a[0], a[1], a[2]);
export const f32v = (v) => v.map((x) => Math.fround(x));
/**
 * Three orthonormal axes: the rows of the rotation of a random unit quaternion, its four
 * components drawn from r (a uniform in [0, 1)) as r() - 0.5, then normalized.
 */
export function randomAxes(r) {
  let [w, x, y, z] = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
  const q = Math.hypot(w, x, y, z);
  [w, x, y, z] = [w / q, x / q, y / q, z / q];
  return [[1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)],
    [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)],
    [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)]];
}
const maxAbs = (arr) => arr.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

/** Whether the float32 point p is in the closed AABB (exact float comparisons). */
export const inAABB = (p, min, max) => [0, 1, 2].every((k) => min[k] <= p[k] && p[k] <= max[k]);

/** Exact: |p - c|^2 <= r^2 for float32 p, c, r. */
export function inBall(p, c, r) {
  let s = 0n;
  for (let k = 0; k < 3; k++) { const d = big(p[k]) - big(c[k]); s += d * d; }
  const R = big(r);
  return s <= R * R;
}

/** Exact: squared distance from float32 point c to the box [min, max] <= r^2. */
export function ballMeetsAABB(c, r, min, max) {
  let s = 0n;
  for (let k = 0; k < 3; k++) {
    const v = c[k] < min[k] ? min[k] : c[k] > max[k] ? max[k] : c[k];
    const d = big(v) - big(c[k]);
    s += d * d;
  }
  const R = big(r);
  return s <= R * R;
}

/** Exact: two balls share a point, |c1 - c2| <= r1 + r2. */
export function ballMeetsBall(c1, r1, c2, r2) {
  let s = 0n;
  for (let k = 0; k < 3; k++) { const d = big(c1[k]) - big(c2[k]); s += d * d; }
  const R = big(r1) + big(r2);
  return s <= R * R;
}

/**
 * Exact: the float32 point p is within r of the segment [a, b] (a closed capsule): with
 * w = p - a, v = b - a, the nearest parameter w.v / v.v clamped to [0, 1]; inside the segment
 * the squared distance is (|w|^2 |v|^2 - (w.v)^2) / |v|^2, compared with r^2 times |v|^2.
 */
export function inCapsule(p, a, b, r) {
  const w = [0, 1, 2].map((k) => big(p[k]) - big(a[k]));
  const v = [0, 1, 2].map((k) => big(b[k]) - big(a[k]));
  const wv = w[0] * v[0] + w[1] * v[1] + w[2] * v[2];
  const vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  const R2 = big(r) * big(r);
  if (wv <= 0n || vv === 0n) return inBall(p, a, r);
  if (wv >= vv) return inBall(p, b, r);
  const ww = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
  return ww * vv - wv * wv <= R2 * vv;
}

/** Exact: n . p + d >= 0 for float32 n, p, d. */
export function inHalfSpace(p, n, d) {
  let s = big(d) * BigInt(S);
  for (let k = 0; k < 3; k++) s += big(n[k]) * big(p[k]);
  return s >= 0n;
}

function inverse3(m) {
  const [a, b, c] = m;
  const cof = [
    [b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2], b[0] * c[1] - b[1] * c[0]],
    [c[1] * a[2] - c[2] * a[1], c[2] * a[0] - c[0] * a[2], c[0] * a[1] - c[1] * a[0]],
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]],
  ];
  const det = dot(a, cof[0]);
  // inverse = cof^T / det: column i of the inverse is cof[i] / det
  return cof.map((row) => row.map((x) => x / det));
}

/**
 * A shape's convex form: {kind, planes: [{n, d}] (inside n.x + d >= 0), verts, center, cols,
 * half, axes} for aabb, obb and frustum; {kind: 'ball', c, r} for spheres and balls.
 * OBB: the slab set |axes[i] . (x - center)| <= half[i], i.e. center + M u with |u_i| <= half_i,
 * M the inverse of the matrix whose rows are the axes (columns cols[i]).
 */
export function convexOf(s) {
  if (s.type === 'sphere') return { kind: 'ball', c: s.center, r: s.radius };
  if (s.type === 'capsule') return { kind: 'capsule', a: s.a, b: s.b, r: s.radius, shape: s };
  if (s.type === 'frustum') return frustumConvex(s.planes);
  let center; let cols; let half; let axes;
  if (s.type === 'aabb') {
    center = [0, 1, 2].map((k) => (s.min[k] + s.max[k]) / 2);
    half = [0, 1, 2].map((k) => (s.max[k] - s.min[k]) / 2);
    axes = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
    cols = axes;
  } else {
    center = s.center; half = s.half; axes = s.axes; cols = inverse3(s.axes);
  }
  const verts = [];
  for (let m = 0; m < 8; m++) {
    const u = [0, 1, 2].map((i) => ((m >> i) & 1 ? half[i] : -half[i]));
    verts.push([0, 1, 2].map((k) => center[k] + cols[0][k] * u[0] + cols[1][k] * u[1] + cols[2][k] * u[2]));
  }
  const planes = [];
  for (let i = 0; i < 3; i++) {
    const ac = dot(axes[i], center);
    planes.push({ n: axes[i], d: half[i] - ac }, { n: axes[i].map((x) => -x), d: half[i] + ac });
  }
  return { kind: 'poly', type: s.type, planes, verts, center, cols, half, axes, shape: s };
}

/** A frustum's six planes, [near, far, left, right, bottom, top] pairs; vertices from triples. */
function frustumConvex(planes) {
  const verts = [];
  for (let m = 0; m < 8; m++) {
    const p = [0, 1, 2].map((i) => planes[2 * i + ((m >> i) & 1)]);
    const inv = inverse3(p.map((q) => q.n));
    const rhs = p.map((q) => -q.d);
    verts.push([0, 1, 2].map((k) => inv[0][k] * rhs[0] + inv[1][k] * rhs[1] + inv[2][k] * rhs[2]));
  }
  if (verts.some((v) => !v.every(Number.isFinite))) return null;
  const center = [0, 1, 2].map((k) => verts.reduce((a, v) => a + v[k], 0) / 8);
  return { kind: 'poly', type: 'frustum', planes, verts, center, axes: planes.map((q) => q.n), shape: { type: 'frustum', planes } };
}

/** Exact: the float32 point p is in the OBB's slabs |axes[i] . (p - center)| <= half[i]. */
export function inSlabs(p, s) {
  const d = [0, 1, 2].map((k) => big(p[k]) - big(s.center[k]));
  return s.axes.every((a, i) => {
    let v = 0n;
    for (let k = 0; k < 3; k++) v += big(a[k]) * d[k];
    if (v < 0n) v = -v;
    return v <= big(s.half[i]) * BigInt(S);
  });
}

/** Exact membership of a float32 point in a shape (JSON: aabb, obb, sphere). */
export function inShape(p, s) {
  if (s.type === 'aabb') return inAABB(p, s.min, s.max);
  if (s.type === 'obb') return inSlabs(p, s);
  if (s.type === 'capsule') return inCapsule(p, s.a, s.b, s.radius);
  return inBall(p, s.center, s.radius);
}

/** Exact membership of a float32 point in a convex form (no tolerance, no single query). */
export function member(sc, cv, p) {
  if (!p.every(Number.isFinite)) return false;
  if (cv.kind === 'ball') return inBall(p, cv.c, cv.r);
  if (cv.kind === 'capsule') return inCapsule(p, cv.a, cv.b, cv.r);
  const s = cv.shape;
  if (s.type === 'aabb') return inAABB(p, s.min, s.max);
  if (s.type === 'obb') return inSlabs(p, s);
  return s.planes.every((q) => inHalfSpace(p, q.n, q.d));
}

/** Largest magnitude of a convex form's numbers, for margins. */
export function scaleOf(cv) {
  if (cv.kind === 'ball') return Math.max(maxAbs(cv.c), cv.r);
  if (cv.kind === 'capsule') return Math.max(maxAbs(cv.a), maxAbs(cv.b), cv.r);
  return Math.max(maxAbs(cv.verts.flat()), maxAbs(cv.center));
}

/** [lo, hi] of the projection on direction n (double; error far below the margins used). */
function support(cv, n) {
  if (cv.kind === 'ball') { const c = dot(n, cv.c); const e = cv.r * norm(n); return [c - e, c + e]; }
  let lo = Infinity; let hi = -Infinity;
  for (const v of cv.verts) { const x = dot(n, v); lo = Math.min(lo, x); hi = Math.max(hi, x); }
  return [lo, hi];
}

const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** Whether a separating direction with a clear margin (1e-6 of the scale) proves no overlap. */
function clearlySeparated(A, B, scale) {
  const dirs = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  for (const cv of [A, B]) if (cv.kind === 'poly') dirs.push(...cv.axes);
  if (A.kind === 'poly' && B.kind === 'poly') for (const a of A.axes) for (const b of B.axes) dirs.push(cross(a, b));
  if (A.kind === 'ball' && B.kind === 'poly') dirs.push(...B.verts.map((v) => sub(v, A.c)), sub(B.center, A.c));
  if (B.kind === 'ball' && A.kind === 'poly') dirs.push(...A.verts.map((v) => sub(v, B.c)), sub(A.center, B.c));
  if (A.kind === 'ball' && B.kind === 'ball') dirs.push(sub(A.c, B.c));
  for (const n of dirs) {
    const l = norm(n);
    if (!(l > 0) || !Number.isFinite(l)) continue;
    const [a0, a1] = support(A, n); const [b0, b1] = support(B, n);
    const tol = 1e-6 * scale * l;
    if (a1 < b0 - tol || b1 < a0 - tol) return true;
  }
  return false;
}

/** Candidate common points of A and B (rounded to float32), to be certified by member(). */
function witnesses(A, B) {
  const out = [];
  const pts = (cv) => (cv.kind === 'ball' ? [cv.c] : [cv.center, ...cv.verts]);
  const clampInto = (cv, p) => {
    if (cv.kind === 'ball') {
      const d = sub(p, cv.c); const l = norm(d);
      if (!(l > cv.r)) return p;
      return [0, 1, 2].map((k) => cv.c[k] + (d[k] / l) * cv.r * (1 - 1e-6));
    }
    if (cv.type === 'aabb') return [0, 1, 2].map((k) => Math.min(Math.max(p[k], cv.shape.min[k]), cv.shape.max[k]));
    return null;
  };
  for (const [X, Y] of [[A, B], [B, A]]) {
    for (const p of pts(X)) {
      out.push(p);
      const q = clampInto(Y, p);
      if (q) out.push(q);
      if (X.kind === 'poly') {
        const c = X.center; // pulled towards the centre, then clamped
        for (const f of [1e-3, 0.5]) {
          const r = [0, 1, 2].map((k) => p[k] + (c[k] - p[k]) * f);
          out.push(r);
          const q2 = clampInto(Y, r); if (q2) out.push(q2);
        }
      }
    }
  }
  out.push([0, 1, 2].map((k) => ((A.kind === 'ball' ? A.c : A.center)[k] + (B.kind === 'ball' ? B.c : B.center)[k]) / 2));
  return out.map(f32v);
}

/**
 * Whether shapes A and B (convex forms) overlap: 'yes' (a float32 point certified in both),
 * 'no' (a clear separating direction, or an exact ball test), or '?' (within the margins).
 */
export function overlapClass(sc, A, B) {
  if (A === null || B === null) return '?';
  if (A.kind === 'capsule') return capsuleClass(sc, A, B);
  if (B.kind === 'capsule') return capsuleClass(sc, B, A);
  if (A.kind === 'ball' && B.kind === 'ball') return ballMeetsBall(A.c, A.r, B.c, B.r) ? 'yes' : 'no';
  const exactAabbBall = (P, Q) => P.kind === 'poly' && P.type === 'aabb' && Q.kind === 'ball';
  if (exactAabbBall(A, B)) return ballMeetsAABB(B.c, B.r, A.shape.min, A.shape.max) ? 'yes' : 'no';
  if (exactAabbBall(B, A)) return ballMeetsAABB(A.c, A.r, B.shape.min, B.shape.max) ? 'yes' : 'no';
  if (A.kind === 'poly' && B.kind === 'poly' && A.type === 'aabb' && B.type === 'aabb') {
    const a = A.shape; const b = B.shape;
    return [0, 1, 2].every((k) => a.min[k] <= b.max[k] && b.min[k] <= a.max[k]) ? 'yes' : 'no';
  }
  for (const p of witnesses(A, B)) if (member(sc, A, p) && member(sc, B, p)) return 'yes';
  const scale = Math.max(scaleOf(A), scaleOf(B), 1e-300);
  if (A.kind === 'ball' || B.kind === 'ball') {
    const [ball, P] = A.kind === 'ball' ? [A, B] : [B, A];
    const d = slabDistance(P, ball.c);
    if (d !== null && d.lower > ball.r + 1e-6 * scale) return 'no';
    if (d !== null && d.upper < ball.r - 1e-6 * scale && member(sc, P, f32v(d.point))) return 'yes';
  }
  return clearlySeparated(A, B, scale) ? 'no' : '?';
}

/**
 * Bounds on the distance from point q to an AABB or OBB slab set: with u = axes (q - center),
 * e_i = max(|u_i| - half_i, 0): lower = |e| / 1.001 (the axes map has norm <= sqrt(1 + 3e-4)),
 * upper = |q - (center + M clamp(u))|, that point being in the set.
 */
export function slabDistance(P, q) {
  if (P.kind !== 'poly' || P.type === 'frustum') return null;
  const dq = sub(q, P.center);
  const u = P.axes.map((a) => dot(a, dq));
  const e = u.map((x, i) => Math.max(Math.abs(x) - P.half[i], 0));
  const cu = u.map((x, i) => Math.min(Math.max(x, -P.half[i]), P.half[i]));
  const point = [0, 1, 2].map((k) => P.center[k] + P.cols[0][k] * cu[0] + P.cols[1][k] * cu[1] + P.cols[2][k] * cu[2]);
  return { lower: norm(e) / 1.001, upper: norm(sub(q, point)), point };
}

/** The distance from q to the segment [a, b] (double), and the segment's nearest point. */
export function segmentDistance(q, a, b) {
  const v = sub(b, a); const vv = dot(v, v);
  const u = vv > 0 ? Math.min(1, Math.max(0, dot(sub(q, a), v) / vv)) : 0;
  const point = [0, 1, 2].map((k) => a[k] + u * v[k]);
  return { d: norm(sub(q, point)), point };
}

/**
 * Bounds on the distance from the segment [a, b] to a convex form Q (a ball, a capsule, an AABB or
 * OBB slab set, a frustum) from n + 1 points p_i of the segment: lower = min_i lower(p_i) - h / 2
 * (every distance to a set is 1-Lipschitz and each point of the segment is within h / 2 of a
 * sample, h the spacing), upper = min_i upper(p_i), with the point of Q reaching it. A frustum's
 * lower bound at a point is its largest plane violation; it has no upper bound (Infinity).
 */
function segmentBounds(a, b, Q, n = 64) {
  const h = norm(sub(b, a)) / n;
  let lower = Infinity; let upper = Infinity; let point = null; let at = null;
  for (let i = 0; i <= n; i++) {
    const p = [0, 1, 2].map((k) => a[k] + (b[k] - a[k]) * (i / n));
    let d;
    if (Q.kind === 'capsule') { const s = segmentDistance(p, Q.a, Q.b); const x = Math.max(s.d - Q.r, 0); d = { lower: x, upper: x, point: null }; }
    else if (Q.kind === 'poly' && Q.type === 'frustum') {
      const g = Math.max(0, ...Q.planes.map((q) => -(dot(q.n, p) + q.d) / norm(q.n)));
      d = { lower: g, upper: Infinity, point: null };
    } else d = distanceBounds(Q, p);
    if (d === null) return null;
    lower = Math.min(lower, d.lower);
    if (d.upper < upper) { upper = d.upper; point = d.point; at = p; }
  }
  return { lower: lower - h / 2, upper, point, at };
}

/**
 * A capsule C against a convex form B: 'yes' when a float32 point is certified in both (exactly),
 * 'no' when the segment's distance to B is clearly above the radius, else '?' (margins of 1e-6 of
 * the scale, far above the double rounding of the bounds).
 */
function capsuleClass(sc, C, B) {
  const margin = 1e-6 * Math.max(scaleOf(C), B.kind === 'capsule' ? scaleOf(B) : B.kind === 'ball' ? scaleOf(B) : B.verts ? scaleOf(B) : 0, 1e-300);
  const bd = segmentBounds(C.a, C.b, B);
  if (bd === null) return '?';
  if (bd.lower > C.r + margin) return 'no';
  // witnesses: points of C's segment, their nearest points in B and the ends' balls' points
  const cands = [C.a, C.b, bd.at, bd.point].filter(Boolean);
  if (B.kind === 'ball') cands.push(segmentDistance(B.c, C.a, C.b).point, B.c);
  if (B.kind === 'capsule') for (const e of [B.a, B.b]) cands.push(e, segmentDistance(e, C.a, C.b).point);
  for (const p of cands.map(f32v)) if (member(sc, C, p) && member(sc, B, p)) return 'yes';
  return '?';
}

/** Bounds [lower, upper] on the distance from q to a shape (balls: exact up to double). */
export function distanceBounds(cv, q) {
  if (cv.kind === 'ball') { const d = Math.max(norm(sub(q, cv.c)) - cv.r, 0); return { lower: d, upper: d }; }
  if (cv.kind === 'capsule') {
    const s = segmentDistance(q, cv.a, cv.b);
    const d = Math.max(s.d - cv.r, 0);
    const point = s.d > cv.r ? [0, 1, 2].map((k) => s.point[k] + (q[k] - s.point[k]) * (cv.r / s.d)) : q;
    return { lower: d, upper: d, point };
  }
  return slabDistance(cv, q);
}
