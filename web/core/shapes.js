// shapes.js: one ray against a sphere, a capsule, an OBB or a plane in JavaScript, for raycast's
// common inputs, so that they need no call into wasm. Every answer given here is the core's
// (src/sc_sphere.c, sc_capsule.c, sc_obb.c, sc_plane.c) bit for bit; every input it cannot
// settle so goes to the core (UNSURE).
//
// - Sphere, capsule, OBB: certain misses only. The core classifies exactly (exactly summed
//   products of the float inputs, exact fallbacks), so its miss is the exact geometric miss; a
//   ray is answered here only when plain double arithmetic proves that miss with a margin
//   (2^-40 of the size of the terms, where the arithmetic errs by a few 2^-53 of it), and the
//   result is then {hit: false}, the core's. Hits and every near case go to the core.
// - Plane: the core's whole computation (sc__raycast_plane_valid) written out in double, which
//   JavaScript's numbers are (IEEE binary64, round to nearest, no fused operations: as the core
//   built with -ffp-contract=off), including the exactly summed products (sc_xsum_s, sc_two_prod).
//
// Inputs are Float32Arrays (the staged ray: origin, dir, tmax; the shape's floats in sc_shape's
// layout): the core's values exactly. Invalid inputs are never answered here (the core gives
// their error).

/** The answer when the core must decide. */
export const UNSURE = -1;

// 2^-40: the margin, relative to the size of the terms; and its factors (obbcast.js's OBB test
// uses the same ones: the same decisions)
export const M = 9.094947017729282e-13;
export const LO4 = 1 - 4 * M;
export const LO1 = 1 - M;
export const HI1 = 1 + M;
const abs = Math.abs;
const fin = (a) => a - a === 0; // finite (NaN and infinities give NaN)

/**
 * s: center, radius. 0 (a certain miss) or UNSURE. Validity is checked by a sum: a sum of a few
 * floats (each below 2^128) cannot overflow a double, so it is finite exactly when every float is
 * (summed as a tree, in any order: a chain of 20 additions would cost their latency, 20 x 4 cycles).
 */
export function sphereRay(r, s) {
  const ox = r[0], oy = r[1], oz = r[2], dx = r[3], dy = r[4], dz = r[5];
  const cx = s[0], cy = s[1], cz = s[2], rad = s[3];
  if (!(fin(((ox + oy) + (oz + dx)) + ((dy + dz) + (cx + cy)) + (cz + rad)) && r[6] >= 0 && rad >= 0 &&
        (dx !== 0 || dy !== 0 || dz !== 0))) return UNSURE;
  return ballMiss(ox - cx, oy - cy, oz - cz, dx, dy, dz, rad * rad) ? 0 : UNSURE;
}

/**
 * Whether the ray o + t d (t >= 0) certainly misses the ball |x - c| <= rad, given m = o - c
 * (each component within 2^-52 of its exact value) and r2 >= rad^2, the ray and the ball valid:
 * the origin outside (|m|^2 > rad^2) and moving away (m.d > 0) or its line passing further than
 * rad (|m x d|^2 > rad^2 d.d). Each computed value is within 2^-50 of |m|_1 |d|_1 (at least its
 * terms' size) of the exact one; only margins of 2^-40 of that size decide. Small (347 bytes of
 * bytecode, under V8's 460; 437 with a bound per term): V8 inlines it into each caller, so the
 * doubles it takes are not boxed.
 */
export function ballMiss(mx, my, mz, dx, dy, dz, r2) {
  if (!((mx * mx + my * my + mz * mz) * LO4 > r2)) return false; // maybe inside
  // every product m_i d_j is at most |m|_1 |d|_1 in size: e bounds the error of m.d and of each
  // component of m x d (a few 2^-53 of that, and m's own rounding)
  const e = M * (abs(mx) + abs(my) + abs(mz)) * (abs(dx) + abs(dy) + abs(dz));
  if (mx * dx + my * dy + mz * dz > e) return true; // moving away
  // |m x d| from below
  const wx = abs(my * dz - mz * dy) - e;
  const wy = abs(mz * dx - mx * dz) - e;
  const wz = abs(mx * dy - my * dx) - e;
  const l2 = (wx > 0 ? wx * wx : 0) + (wy > 0 ? wy * wy : 0) + (wz > 0 ? wz * wz : 0);
  return l2 * LO1 > r2 * (dx * dx + dy * dy + dz * dz) * HI1;
}

/**
 * Whether the ray o + t d (t >= 0) plainly enters the ball |x - c| < rad, given m = o - c and
 * r2 = rad^2: the origin inside, or c ahead (m.d < 0), and the line within rad / sqrt(2) of c.
 * Only a shortcut, never an answer: a shape that holds the ball is then hit (unless tmax ends the
 * ray first), so its miss tests are skipped and the core decides at once (UNSURE is right for
 * every input; plain double arithmetic is enough). On a hit the miss tests of an OBB cost about
 * 100 ns for nothing. (A capsule's, with the ball of its radius at the midpoint, did not pay in
 * web/bench/single.mjs: its hits no faster, its misses 4 ns slower.) Small: V8 inlines it into
 * obbRay and into obbcast.js's obbReadRay, which stay under V8's budget with it (its 7 doubles
 * are never boxed).
 */
export function entersBall(mx, my, mz, dx, dy, dz, r2) {
  // one branch (the caller's): on a miss whether m.d < 0 is a coin toss, a branch on it mispredicts
  const wx = my * dz - mz * dy;
  const wy = mz * dx - mx * dz;
  const wz = mx * dy - my * dx;
  return (((mx * dx + my * dy + mz * dz < 0) | (mx * mx + my * my + mz * mz < r2)) &
    (wx * wx + wy * wy + wz * wz < 0.5 * r2 * (dx * dx + dy * dy + dz * dz))) !== 0;
}

/**
 * s: a, b, radius. 0 (a certain miss) or UNSURE. The capsule lies in the ball around (a + b) / 2
 * of radius |b - a| / 2 + radius, and in the infinite cylinder of that radius around the line
 * through a and b: a ray that certainly misses either misses the capsule.
 */
export function capsuleRay(r, s) {
  const ox = r[0], oy = r[1], oz = r[2], dx = r[3], dy = r[4], dz = r[5];
  const ax = s[0];
  const ay = s[1];
  const az = s[2];
  const bx = s[3];
  const by = s[4];
  const bz = s[5];
  const rad = s[6];
  // valid: finite (sums of floats cannot overflow: see sphereRay), tmax >= 0, dir not zero, radius >= 0
  if (!(fin((((ox + oy) + (oz + dx)) + ((dy + dz) + (ax + ay))) + (((az + bx) + (by + bz)) + rad)) && r[6] >= 0 && rad >= 0 &&
        (dx !== 0 || dy !== 0 || dz !== 0))) return UNSURE;
  const ex = bx - ax;
  const ey = by - ay;
  const ez = bz - az;
  // The ball: its centre rounded (within 2^-53 of |a + b| per coordinate) and its radius raised
  // past that and past the rounding of the length.
  const half = 0.5 * Math.sqrt(ex * ex + ey * ey + ez * ez);
  const slack = M * (abs(ax) + abs(bx) + abs(ay) + abs(by) + abs(az) + abs(bz) + half);
  const rb = (half + rad) * (1 + M) + slack;
  if (ballMiss(ox - 0.5 * (ax + bx), oy - 0.5 * (ay + by), oz - 0.5 * (az + bz), dx, dy, dz, rb * rb)) return 0;
  // The cylinder: the lines o + t d and a + s e are further apart than rad when
  // |(a - o).(d x e)| > rad |d x e|; n = d x e and that dot within 2^-40 of their terms.
  const nx = dy * ez - dz * ey;
  const ny = dz * ex - dx * ez;
  const nz = dx * ey - dy * ex;
  const Nx = abs(dy * ez) + abs(dz * ey);
  const Ny = abs(dz * ex) + abs(dx * ez);
  const Nz = abs(dx * ey) + abs(dy * ex);
  const gx = ax - ox;
  const gy = ay - oy;
  const gz = az - oz;
  const sd = gx * nx + gy * ny + gz * nz;
  const low = abs(sd) - M * (abs(gx) * Nx + abs(gy) * Ny + abs(gz) * Nz);
  if (low > 0) {
    const hx = abs(nx) + M * Nx;
    const hy = abs(ny) + M * Ny;
    const hz = abs(nz) + M * Nz;
    if (low * low * (1 - M) > rad * rad * (hx * hx + hy * hy + hz * hz) * (1 + M)) return 0;
  }
  return capsuleParts(r, s);
}

/**
 * capsuleRay's last test, for a valid capsule: a certain miss of its three parts (the capsule is
 * exactly their union): the balls of the radius around a and around b, and the finite cylinder F
 * of the points whose projection on the axis falls within a-b, s = (p - a).e in [0, E] (e = b - a,
 * E = e.e), within the radius of the axis: |(p - a) x e|^2 <= rad^2 E. Along the ray, s is
 * s0 + t s1, so the t of F lie in an interval [t1, t2] (bounded here from outside, and cut to
 * [0, tmax]); q(t) = |G + t K|^2 (G = (o - a) x e, K = d x e) is convex, so where it increases
 * at t1 (q' = 2 K.(G + t K) > 0) its least value on [t1, t2] is q(t1), and where it decreases
 * at t2, q(t2). That value above rad^2 E: the ray misses F. Each quantity carries a bound of
 * 2^-40 (twice that for the sums at t) of its terms' size. 0 or UNSURE.
 */
function capsuleParts(r, s) {
  const rad = s[6];
  const r2 = rad * rad;
  if (!ballMiss(r[0] - s[0], r[1] - s[1], r[2] - s[2], r[3], r[4], r[5], r2)) return UNSURE;
  if (!ballMiss(r[0] - s[3], r[1] - s[4], r[2] - s[5], r[3], r[4], r[5], r2)) return UNSURE;
  const ex = s[3] - s[0];
  const ey = s[4] - s[1];
  const ez = s[5] - s[2];
  const gx = r[0] - s[0];
  const gy = r[1] - s[1];
  const gz = r[2] - s[2];
  const dx = r[3];
  const dy = r[4];
  const dz = r[5];
  const E = ex * ex + ey * ey + ez * ez;
  const s0 = gx * ex + gy * ey + gz * ez;
  const es0 = M * (abs(gx * ex) + abs(gy * ey) + abs(gz * ez));
  const s1 = dx * ex + dy * ey + dz * ez;
  const es1 = M * (abs(dx * ex) + abs(dy * ey) + abs(dz * ez));
  const a1 = s1 < 0 ? -s1 : s1;
  if (!(a1 > 2 * es1)) return UNSURE; // s1's sign, or |s1| within a factor 2, not certain
  // t in F: s0 + t s1 in [0, E]; the numerators' bounds, then q / |s1| widened by 2 es1 / |s1| (as in obbSlabs)
  const en = es0 + M * E;
  const inv = 1 / a1;
  const k = 2 * es1 * inv + M;
  const n1 = (s1 > 0 ? -s0 : s0 - E) - en;
  const n2 = (s1 > 0 ? E - s0 : s0) + en;
  let t1 = n1 * inv;
  let t2 = n2 * inv;
  t1 -= (t1 < 0 ? -t1 : t1) * k;
  t2 += (t2 < 0 ? -t2 : t2) * k;
  if (t1 < 0) t1 = 0;
  if (t2 > r[6]) t2 = r[6];
  if (t1 > t2) return 0; // the ray is never over the segment: F missed, and both balls
  const c = rad * rad * E * (1 + 4 * M);
  const Gx = gy * ez - gz * ey;
  const Gy = gz * ex - gx * ez;
  const Gz = gx * ey - gy * ex;
  const Gmx = abs(gy * ez) + abs(gz * ey);
  const Gmy = abs(gz * ex) + abs(gx * ez);
  const Gmz = abs(gx * ey) + abs(gy * ex);
  const Kx = dy * ez - dz * ey;
  const Ky = dz * ex - dx * ez;
  const Kz = dx * ey - dy * ex;
  const eKx = M * (abs(dy * ez) + abs(dz * ey));
  const eKy = M * (abs(dz * ex) + abs(dx * ez));
  const eKz = M * (abs(dx * ey) + abs(dy * ex));
  for (let end = 0; end < 2; end++) {
    const t = end === 0 ? t1 : t2;
    const sg = end === 0 ? 1 : -1; // q must increase at t1, decrease at t2
    const Vx = Gx + t * Kx;
    const Vy = Gy + t * Ky;
    const Vz = Gz + t * Kz;
    const eVx = 2 * M * Gmx + 2 * t * eKx;
    const eVy = 2 * M * Gmy + 2 * t * eKy;
    const eVz = 2 * M * Gmz + 2 * t * eKz;
    const kv = Kx * Vx + Ky * Vy + Kz * Vz;
    const ekv = eKx * (abs(Vx) + eVx) + abs(Kx) * eVx + eKy * (abs(Vy) + eVy) + abs(Ky) * eVy + eKz * (abs(Vz) + eVz) +
      abs(Kz) * eVz + M * (abs(Kx * Vx) + abs(Ky * Vy) + abs(Kz * Vz));
    if (!(sg * kv > ekv * (1 + M))) continue;
    const lx = abs(Vx) - eVx;
    const ly = abs(Vy) - eVy;
    const lz = abs(Vz) - eVz;
    const q = (lx > 0 ? lx * lx : 0) + (ly > 0 ? ly * ly : 0) + (lz > 0 ? lz * lz : 0);
    if (q * (1 - M) > c) return 0;
  }
  return UNSURE;
}

/**
 * s: center, axes (3 x 3), half. 0 (a certain miss) or UNSURE. In the box frame, for each axis i
 * whose dl_i = d.a_i has a certain sign s_i: u_i = s_i ol_i (ol_i = (o - c).a_i) and |dl_i| are
 * known within eo_i, ed_i, so the slab's near and far parameters, near_i = -(h_i + u_i) / |dl_i|
 * and far_i = (h_i - u_i) / |dl_i| (sc_obb_solve's (-+s_i h_i - ol_i) / dl_i), lie in intervals;
 * a miss the core finds (exactly) is certain when the largest near bound from below exceeds the
 * smallest far bound from above (two slabs' intervals disjoint: near_i > far_j), a far bound is
 * below 0 (the box behind), or a near bound is past tmax. An axis whose sign is not certain is
 * left out (no test uses it).
 */
export function obbRay(r, s) {
  const ox = r[0], oy = r[1], oz = r[2], dx = r[3], dy = r[4], dz = r[5];
  const c0 = s[0], c1 = s[1], c2 = s[2];
  const h0 = s[12];
  const h1 = s[13];
  const h2 = s[14];
  // The ray valid (sc_ray_check) and the box valid for certain (sc_obb_check): finite (a sum of
  // the floats, without overflow: NaN for an infinity or a NaN; the axes below), tmax >= 0,
  // dir not zero, half >= 0, and the axes orthonormal (below, checked before any miss is
  // returned, after the ball test: the axes' values are not live across it). Else the core decides.
  if (!(fin(((ox + oy) + (oz + dx)) + ((dy + dz) + (c0 + c1)) + ((c2 + h0) + (h1 + h2))) &&
        r[6] >= 0 && (dx !== 0 || dy !== 0 || dz !== 0) && h0 >= 0 && h1 >= 0 && h2 >= 0)) return UNSURE;
  // First its bounding ball (cheaper, and enough for most rays): c + sum_i l_i a_i with |l_i| <=
  // h_i has |sum_i l_i a_i|^2 <= (1 + 3e-4) sum_i h_i^2 for axes within 1e-4 of orthonormal; the
  // squared radius raised past the rounding of that sum (a few 2^-53). A certain miss only when
  // the axes pass the test below (the bound needs it, and the core would refuse the box otherwise).
  const ball = ballMiss(ox - c0, oy - c1, oz - c2, dx, dy, dz, (h0 * h0 + h1 * h1 + h2 * h2) * 1.0004 * (1 + 4 * M));
  // The ball of the smallest half-extent around the centre lies in the box (for orthonormal
  // axes; the core refuses others): a ray plainly into it hits.
  if (!ball) {
    const hm = h0 < h1 ? (h0 < h2 ? h0 : h2) : (h1 < h2 ? h1 : h2); // (its branches mispredict: not on a ball miss)
    if (entersBall(ox - c0, oy - c1, oz - c2, dx, dy, dz, hm * hm)) return UNSURE;
  }
  // The axes finite and each a_i.a_j within 0.99e-4 of 1 or 0 in double (the core's float32 dot
  // is within 1e-6 of it: it passes its 1e-4 test); NaN and infinities fail. (raycast runs these
  // steps in obbcast.js's obbReadRay, on the floats as it reads them; obbRay is their reference on
  // staged floats, and tests/web/raycast-obb-read.test.mjs holds the two to the same decisions.)
  const ax = s[3], ay = s[4], az = s[5], bx = s[6], by = s[7], bz = s[8], cx = s[9], cy = s[10], cz = s[11];
  const T = 0.99e-4;
  if (!(abs(ax * ax + ay * ay + az * az - 1) <= T && abs(bx * bx + by * by + bz * bz - 1) <= T &&
    abs(cx * cx + cy * cy + cz * cz - 1) <= T && abs(ax * bx + ay * by + az * bz) <= T &&
    abs(ax * cx + ay * cy + az * cz) <= T && abs(bx * cx + by * cy + bz * cz) <= T)) return UNSURE;
  return ball ? 0 : obbSlabs(r, s);
}

/**
 * obbRay's slab intervals (see there), for a valid OBB: 0 or UNSURE. Without a branch on the data
 * (after the ball test, the rays that reach here are the bench's unpredictable ones): every axis
 * of certain sign (else obbSlabsLoop), each slab's near bound from below and far bound from above
 * as in obbSlabsLoop, then the largest near from below and the smallest far from above by
 * maxLow3 / minHigh3 (arithmetic, within M of their size, and moved past it).
 */
export function obbSlabs(r, s) {
  const mx = r[0] - s[0], my = r[1] - s[1], mz = r[2] - s[2], dx = r[3], dy = r[4], dz = r[5];
  const ax = s[3], ay = s[4], az = s[5], bx = s[6], by = s[7], bz = s[8], cx = s[9], cy = s[10], cz = s[11];
  const d0 = dx * ax + dy * ay + dz * az, d1 = dx * bx + dy * by + dz * bz, d2 = dx * cx + dy * cy + dz * cz;
  const ed0 = M * (abs(dx * ax) + abs(dy * ay) + abs(dz * az));
  const ed1 = M * (abs(dx * bx) + abs(dy * by) + abs(dz * bz));
  const ed2 = M * (abs(dx * cx) + abs(dy * cy) + abs(dz * cz));
  const A0 = abs(d0), A1 = abs(d1), A2 = abs(d2);
  if (!(A0 > 2 * ed0 && A1 > 2 * ed1 && A2 > 2 * ed2)) return obbSlabsLoop(r, s);
  const o0 = mx * ax + my * ay + mz * az, o1 = mx * bx + my * by + mz * bz, o2 = mx * cx + my * cy + mz * cz;
  const eo0 = M * (abs(mx * ax) + abs(my * ay) + abs(mz * az));
  const eo1 = M * (abs(mx * bx) + abs(my * by) + abs(mz * bz));
  const eo2 = M * (abs(mx * cx) + abs(my * cy) + abs(mz * cz));
  // u_i = s_i ol_i (s_i = +-1 from the comparisons, exact)
  const u0 = o0 * ((d0 > 0) - (d0 < 0)), u1 = o1 * ((d1 > 0) - (d1 < 0)), u2 = o2 * ((d2 > 0) - (d2 < 0));
  const i0 = 1 / A0, i1 = 1 / A1, i2 = 1 / A2;
  const k0 = 2 * ed0 * i0 + M, k1 = 2 * ed1 * i1 + M, k2 = 2 * ed2 * i2 + M;
  const n0 = -(s[12] + u0 + eo0) * i0, n1 = -(s[13] + u1 + eo1) * i1, n2 = -(s[14] + u2 + eo2) * i2;
  const f0 = (s[12] - u0 + eo0) * i0, f1 = (s[13] - u1 + eo1) * i1, f2 = (s[14] - u2 + eo2) * i2;
  const tn = maxLow3(n0 - abs(n0) * k0, n1 - abs(n1) * k1, n2 - abs(n2) * k2);
  const tf = minHigh3(f0 + abs(f0) * k0, f1 + abs(f1) * k1, f2 + abs(f2) * k2);
  // disjoint slabs, the box behind, or beyond tmax (tmax compared, not summed: it may be infinite)
  return ((tn > tf) | (tf < 0) | (tn > r[6])) !== 0 ? 0 : UNSURE;
}

/** A lower bound of max(a, b, c) (finite): (x + y + |x - y|) / 2 is within 2^-52 of max(|x|, |y|) of max(x, y). */
function maxLow3(a, b, c) {
  const m = (a + b + abs(a - b)) * 0.5;
  return (m + c + abs(m - c)) * 0.5 - M * (abs(a) + abs(b) + abs(c));
}

/** An upper bound of min(a, b, c) (finite), as maxLow3. */
function minHigh3(a, b, c) {
  const m = (a + b - abs(a - b)) * 0.5;
  return (m + c - abs(m - c)) * 0.5 + M * (abs(a) + abs(b) + abs(c));
}

/** obbRay's slab intervals (see there), for a valid OBB: 0 or UNSURE; an axis whose sign is not certain is left out. */
function obbSlabsLoop(r, s) {
  const mx = r[0] - s[0];
  const my = r[1] - s[1];
  const mz = r[2] - s[2];
  const dx = r[3];
  const dy = r[4];
  const dz = r[5];
  let tn = -Infinity;
  let tf = r[6];
  for (let i = 0; i < 3; i++) {
    const a = s[3 + 3 * i];
    const b = s[4 + 3 * i];
    const c = s[5 + 3 * i];
    const d = dx * a + dy * b + dz * c;
    const ed = M * (abs(dx * a) + abs(dy * b) + abs(dz * c));
    const ad = d < 0 ? -d : d;
    if (!(ad > 2 * ed)) continue; // the sign, or |dl_i| within a factor 2, not certain
    const o = mx * a + my * b + mz * c;
    const eo = M * (abs(mx * a) + abs(my * b) + abs(mz * c));
    const u = d < 0 ? -o : o;
    const h = s[12 + i];
    // q / |dl_i| for the exact |dl_i| within ad (1 +- ed/ad): within 2 ed/ad of q / ad, relative
    const inv = 1 / ad;
    const k = 2 * ed * inv + M;
    const near = -(h + u + eo) * inv; // the smallest numerator
    const far = (h - u + eo) * inv; // the largest
    const lo = near - (near < 0 ? -near : near) * k;
    const hi = far + (far < 0 ? -far : far) * k;
    if (lo > tn) tn = lo;
    if (hi < tf) tf = hi;
    if (tn > tf || tf < 0) return 0;
  }
  return UNSURE;
}


// ------------------------------------------------------------------ plane, exactly as the core

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // the word holding the exponent
const POW2 = new Float64Array(279); // POW2[e + 149] = 2^-e for e in [-149, 129] (normal doubles, exact)
for (let e = -149; e <= 129; e++) POW2[e + 149] = 2 ** -e;
const FLT_MAX = 3.4028234663852886e38;
const E = new Float64Array(24); // sc_expansion's components
const T = new Float64Array(16); // a term list (and its sum after it)

/**
 * sc_xsum_s(t, n): the exact sum of n doubles through an expansion (sc_exact.h), rounded as the
 * core; stored in t[n] (V8 boxes a double returned by a function it does not inline).
 */
function xsumS(t, n) {
  const e = E;
  let m = 0;
  for (let i = 0; i < n; i++) {
    let q = t[i];
    let k = 0;
    for (let j = 0; j < m; j++) {
      // sc_two_sum(q, e[j])
      const a = q;
      const b = e[j];
      const x = a + b;
      const bv = x - a;
      const av = x - bv;
      const err = (a - av) + (b - bv);
      q = x;
      if (err !== 0) e[k++] = err;
    }
    if (q !== 0) e[k++] = q;
    m = k;
  }
  let s = 0;
  for (let j = 0; j < m; j++) s += e[j];
  if (s === 0 && m > 0) s = e[m - 1] < 0 ? -abs(e[0]) : abs(e[0]); // copysign(e[0], e[m - 1]): e[m - 1] != 0
  t[n] = s;
}

/** sc_two_prod(a, b): the product and its error, into t[n], t[n + 1] (Dekker's, without FMA). */
function twoProd(a, b, t, n) {
  const split = 134217729.0;
  const x = a * b;
  const ca = split * a;
  const cb = split * b;
  const ah = ca - (ca - a);
  const al = a - ah;
  const bh = cb - (cb - b);
  const bl = b - bh;
  t[n] = x;
  t[n + 1] = ((ah * bh - x) + ah * bl + al * bh) + al * bl;
}

/**
 * s: normal, d. The core's sc__raycast_plane_valid: 0 (miss), or 1 with out[0..8] = t, t_enter,
 * t_exit, point, normal; UNSURE for an invalid input (the core's error).
 */
export function planeRay(r, s, out) {
  const nx = s[0];
  const ny = s[1];
  const nz = s[2];
  const pd = s[3];
  const ox = r[0];
  const oy = r[1];
  const oz = r[2];
  const dx = r[3];
  const dy = r[4];
  const dz = r[5];
  const tmax = r[6];
  // valid: finite (a sum of floats: see sphereRay), tmax >= 0, dir and normal not zero
  if (!(fin(((ox + oy) + (oz + dx)) + ((dy + dz) + (nx + ny)) + (nz + pd)) && tmax >= 0 && (dx !== 0 || dy !== 0 || dz !== 0) &&
        (nx !== 0 || ny !== 0 || nz !== 0))) return UNSURE;
  // A certain miss first, without the exact sums: denom = n.d and num = d - n.o (each term a
  // product of two floats, exact in double) summed in double are within a few 2^-53 of their
  // terms' size of the exact values; past a margin of 2^-40 of it their signs are the exact ones,
  // and opposite signs are the core's miss (num and denom nonzero, not of one sign: below).
  const p0 = nx * dx;
  const p1 = ny * dy;
  const p2 = nz * dz;
  const q0 = nx * ox;
  const q1 = ny * oy;
  const q2 = nz * oz;
  const da = p0 + p1 + p2;
  const na = pd - (q0 + q1 + q2);
  if ((da > 0) !== (na > 0) && abs(da) > M * (abs(p0) + abs(p1) + abs(p2)) &&
      abs(na) > M * (abs(q0) + abs(q1) + abs(q2) + abs(pd))) return 0;
  const t = T;
  t[0] = p0;
  t[1] = p1;
  t[2] = p2;
  xsumS(t, 3);
  const denom = t[3];
  t[0] = q0;
  t[1] = q1;
  t[2] = q2;
  t[3] = -pd;
  xsumS(t, 4);
  const num = -t[4]; // -sc__plane_side: d - n.o
  let tt;
  if (denom === 0) {
    if (num !== 0) return 0;
    tt = 0;
  } else {
    const ge0 = num === 0 || (num > 0) === (denom > 0);
    if (!ge0) return 0;
    if (tmax !== Infinity) {
      t[0] = -(nx * ox);
      t[1] = -(ny * oy);
      t[2] = -(nz * oz);
      t[3] = pd;
      twoProd(-tmax, nx * dx, t, 4);
      twoProd(-tmax, ny * dy, t, 6);
      twoProd(-tmax, nz * dz, t, 8);
      xsumS(t, 10);
      const diff = t[10]; // num - tmax*denom
      if (denom > 0 ? diff > 0 : diff < 0) return 0;
    }
    tt = num / denom;
    if (!(tt >= 0)) tt = 0;
  }
  // sc_dfin, then +0 for -0 (written out: V8 boxes a double passed to a helper it does not inline)
  let tf = tt > FLT_MAX ? FLT_MAX : Math.fround(tt);
  if (tf > tmax) tf = tmax;
  tf += 0;
  out[0] = tf;
  out[1] = tf;
  out[2] = tf;
  const px = ox + tt * dx;
  const py = oy + tt * dy;
  const pq = oz + tt * dz;
  out[3] = (px > FLT_MAX ? FLT_MAX : px < -FLT_MAX ? -FLT_MAX : Math.fround(px)) + 0;
  out[4] = (py > FLT_MAX ? FLT_MAX : py < -FLT_MAX ? -FLT_MAX : Math.fround(py)) + 0;
  out[5] = (pq > FLT_MAX ? FLT_MAX : pq < -FLT_MAX ? -FLT_MAX : Math.fround(pq)) + 0;
  // sc_unit_d(normal): scaled by the power of two that brings its largest component into
  // [0.5, 1) (exact: the components are floats, so every scaled one is a normal double), then
  // divided by its length; the normal faces the ray (n.dir <= 0).
  let m = abs(nx);
  if (abs(ny) > m) m = abs(ny);
  if (abs(nz) > m) m = abs(nz);
  // k = 2^-e for frexp's exponent e of m (m / 2^e in [0.5, 1)): e from m's bits (m is a
  // float32 value, a normal double: e in [-148, 129]), 2^-e from a table (2 ** -e calls pow,
  // about 40 ns for most e)
  F64[0] = m;
  const k = POW2[((U32[HI] >>> 20) & 0x7ff) - 1022 + 149];
  const x = nx * k;
  const y = ny * k;
  const z = nz * k;
  const len = Math.sqrt(x * x + y * y + z * z);
  const g = denom > 0 ? -1 : 1;
  out[6] = Math.fround(x / len) * g + 0;
  out[7] = Math.fround(y / len) * g + 0;
  out[8] = Math.fround(z / len) * g + 0;
  return 1;
}
