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

const M = 9.094947017729282e-13; // 2^-40: the margin, relative to the size of the terms
const abs = Math.abs;
const fin = (a) => a - a === 0; // finite (NaN and infinities give NaN)

/** The ray is valid (sc_ray_check): finite origin and dir, dir not zero, tmax >= 0 (not NaN). */
function rayOk(r) {
  return fin(r[0]) && fin(r[1]) && fin(r[2]) && fin(r[3]) && fin(r[4]) && fin(r[5]) && r[6] >= 0 &&
    (r[3] !== 0 || r[4] !== 0 || r[5] !== 0);
}

/**
 * Whether the ray o + t d (t >= 0) certainly misses the ball |x - c| <= rad (c, rad doubles; the
 * sphere's own floats, or a ball holding a capsule): the origin outside (|m|^2 > rad^2, m = o - c)
 * and moving away (m.d > 0) or its line passing further than rad (|m x d|^2 > rad^2 d.d). Each
 * computed value is within 2^-50 of its terms' size of the exact one; only margins of 2^-40 of
 * that size decide.
 */
function ballMissed(r, cx, cy, cz, rad) {
  const dx = r[3];
  const dy = r[4];
  const dz = r[5];
  const mx = r[0] - cx;
  const my = r[1] - cy;
  const mz = r[2] - cz;
  const r2 = rad * rad;
  if (!((mx * mx + my * my + mz * mz) * (1 - 4 * M) > r2)) return false; // maybe inside
  const bd = mx * dx + my * dy + mz * dz;
  if (bd > M * (abs(mx * dx) + abs(my * dy) + abs(mz * dz))) return true; // moving away
  // |w| from below: w = m x d, each component within 2^-40 of its two terms
  const wx = abs(my * dz - mz * dy) - M * (abs(my * dz) + abs(mz * dy));
  const wy = abs(mz * dx - mx * dz) - M * (abs(mz * dx) + abs(mx * dz));
  const wz = abs(mx * dy - my * dx) - M * (abs(mx * dy) + abs(my * dx));
  const lx = wx > 0 ? wx : 0;
  const ly = wy > 0 ? wy : 0;
  const lz = wz > 0 ? wz : 0;
  return (lx * lx + ly * ly + lz * lz) * (1 - M) > r2 * (dx * dx + dy * dy + dz * dz) * (1 + M);
}

/** s: center, radius. 0 (a certain miss) or UNSURE. */
export function sphereRay(r, s) {
  const rad = s[3];
  if (!(rayOk(r) && fin(s[0]) && fin(s[1]) && fin(s[2]) && fin(rad) && rad >= 0)) return UNSURE;
  return ballMissed(r, s[0], s[1], s[2], rad) ? 0 : UNSURE;
}

/**
 * s: a, b, radius. 0 (a certain miss) or UNSURE. The capsule lies in the ball around (a + b) / 2
 * of radius |b - a| / 2 + radius, and in the infinite cylinder of that radius around the line
 * through a and b: a ray that certainly misses either misses the capsule.
 */
export function capsuleRay(r, s) {
  const ax = s[0];
  const ay = s[1];
  const az = s[2];
  const bx = s[3];
  const by = s[4];
  const bz = s[5];
  const rad = s[6];
  if (!(rayOk(r) && fin(ax) && fin(ay) && fin(az) && fin(bx) && fin(by) && fin(bz) && fin(rad) && rad >= 0)) return UNSURE;
  const ex = bx - ax;
  const ey = by - ay;
  const ez = bz - az;
  // The ball: its centre rounded (within 2^-53 of |a + b| per coordinate) and its radius raised
  // past that and past the rounding of the length.
  const half = 0.5 * Math.sqrt(ex * ex + ey * ey + ez * ez);
  const slack = M * (abs(ax) + abs(bx) + abs(ay) + abs(by) + abs(az) + abs(bz) + half);
  if (ballMissed(r, 0.5 * (ax + bx), 0.5 * (ay + by), 0.5 * (az + bz), (half + rad) * (1 + M) + slack)) return 0;
  // The cylinder: the lines o + t d and a + s e are further apart than rad when
  // |(a - o).(d x e)| > rad |d x e|; n = d x e and that dot within 2^-40 of their terms.
  const dx = r[3];
  const dy = r[4];
  const dz = r[5];
  const nx = dy * ez - dz * ey;
  const ny = dz * ex - dx * ez;
  const nz = dx * ey - dy * ex;
  const Nx = abs(dy * ez) + abs(dz * ey);
  const Ny = abs(dz * ex) + abs(dx * ez);
  const Nz = abs(dx * ey) + abs(dy * ex);
  const gx = ax - r[0];
  const gy = ay - r[1];
  const gz = az - r[2];
  const sd = gx * nx + gy * ny + gz * nz;
  const low = abs(sd) - M * (abs(gx) * Nx + abs(gy) * Ny + abs(gz) * Nz);
  if (!(low > 0)) return UNSURE;
  const hx = abs(nx) + M * Nx;
  const hy = abs(ny) + M * Ny;
  const hz = abs(nz) + M * Nz;
  return low * low * (1 - M) > rad * rad * (hx * hx + hy * hy + hz * hz) * (1 + M) ? 0 : UNSURE;
}

/**
 * s: center, axes (3 x 3), half. 0 (a certain miss) or UNSURE. In the box frame (ol_i = (o - c).a_i,
 * dl_i = d.a_i, each within e_i, f_i), a miss the core's test finds (sc_obb_solve): the origin
 * beyond a slab and moving away from it (s_i ol_i > h_i, s_i the sign of dl_i), or the slabs'
 * intervals of two axes disjoint: s_i s_j (-s_i h_i dl_j - s_j h_j dl_i + ol_j dl_i - ol_i dl_j) > 0.
 */
export function obbRay(r, s) {
  const hx = s[12];
  const hy = s[13];
  const hz = s[14];
  if (!(rayOk(r) && obbOk(s))) return UNSURE;
  const mx = r[0] - s[0];
  const my = r[1] - s[1];
  const mz = r[2] - s[2];
  const dx = r[3];
  const dy = r[4];
  const dz = r[5];
  const ol = OL;
  const dl = DL;
  const eo = EO;
  const ed = ED;
  const sg = SG;
  for (let i = 0; i < 3; i++) {
    const a = s[3 + 3 * i];
    const b = s[4 + 3 * i];
    const c = s[5 + 3 * i];
    ol[i] = mx * a + my * b + mz * c;
    eo[i] = M * (abs(mx * a) + abs(my * b) + abs(mz * c));
    dl[i] = dx * a + dy * b + dz * c;
    ed[i] = M * (abs(dx * a) + abs(dy * b) + abs(dz * c));
    // the sign of dl_i when certain, else 0 (then no test below uses axis i)
    sg[i] = dl[i] > ed[i] ? 1 : dl[i] < -ed[i] ? -1 : 0;
  }
  const h = HF;
  h[0] = hx;
  h[1] = hy;
  h[2] = hz;
  for (let i = 0; i < 3; i++) {
    if (sg[i] !== 0 && sg[i] * ol[i] - eo[i] > h[i] * (1 + M)) return 0; // beyond the slab, moving away
  }
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      if (i === j || sg[i] === 0 || sg[j] === 0) continue;
      const si = sg[i];
      const sj = sg[j];
      const v = -si * h[i] * dl[j] - sj * h[j] * dl[i] + ol[j] * dl[i] - ol[i] * dl[j];
      // v's error: the products' factors' errors (e, f) and 2^-40 of their size
      const err = h[i] * ed[j] + h[j] * ed[i] + abs(ol[j]) * ed[i] + eo[j] * (abs(dl[i]) + ed[i]) +
        abs(ol[i]) * ed[j] + eo[i] * (abs(dl[j]) + ed[j]) +
        M * (h[i] * abs(dl[j]) + h[j] * abs(dl[i]) + abs(ol[j] * dl[i]) + abs(ol[i] * dl[j]));
      if (si * sj * v > err * (1 + M)) return 0;
    }
  }
  return UNSURE;
}
const OL = new Float64Array(3);
const DL = new Float64Array(3);
const EO = new Float64Array(3);
const ED = new Float64Array(3);
const SG = new Float64Array(3);
const HF = new Float64Array(3);

/**
 * The OBB is valid (sc_obb_check) for certain: finite, half >= 0, and each a_i.a_j within
 * 0.99e-4 of 1 or 0 in double (the core's float32 dot is within 1e-6 of the double one: it passes
 * its 1e-4 test). Anything else goes to the core, which decides.
 */
function obbOk(s) {
  for (let i = 0; i < 15; i++) if (!fin(s[i])) return false;
  if (!(s[12] >= 0 && s[13] >= 0 && s[14] >= 0)) return false;
  for (let i = 0; i < 3; i++) {
    for (let j = i; j < 3; j++) {
      const dot = s[3 + 3 * i] * s[3 + 3 * j] + s[4 + 3 * i] * s[4 + 3 * j] + s[5 + 3 * i] * s[5 + 3 * j];
      if (!(abs(dot - (i === j ? 1 : 0)) <= 0.99e-4)) return false;
    }
  }
  return true;
}

// ------------------------------------------------------------------ plane, exactly as the core

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // the word holding the exponent
const FLT_MAX = 3.4028234663852886e38;
const E = new Float64Array(24); // sc_expansion's components
const T = new Float64Array(16); // a term list

/** sc_xsum_s(t, n): the exact sum of n doubles through an expansion (sc_exact.h), rounded as the core. */
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
  if (s === 0 && m > 0) s = (e[m - 1] < 0 || Object.is(e[m - 1], -0)) ? -abs(e[0]) : abs(e[0]);
  return s;
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

/** frexp's exponent of a finite m > 0 that is a normal double: m / 2^e lies in [0.5, 1). */
function frexpExp(m) {
  F64[0] = m;
  return ((U32[HI] >>> 20) & 0x7ff) - 1022;
}

/** sc_dfin then the float32 rounding: a double reported as a float within +-FLT_MAX. */
const dfin = (a) => (a > FLT_MAX ? FLT_MAX : a < -FLT_MAX ? -FLT_MAX : Math.fround(a));
const pz = (a) => a + 0;

/**
 * s: normal, d. The core's sc__raycast_plane_valid: 0 (miss), or 1 with out[0..8] = t, t_enter,
 * t_exit, point, normal; UNSURE for an invalid input (the core's error).
 */
export function planeRay(r, s, out) {
  const nx = s[0];
  const ny = s[1];
  const nz = s[2];
  const pd = s[3];
  if (!(rayOk(r) && fin(nx) && fin(ny) && fin(nz) && fin(pd) && (nx !== 0 || ny !== 0 || nz !== 0))) return UNSURE;
  const ox = r[0];
  const oy = r[1];
  const oz = r[2];
  const dx = r[3];
  const dy = r[4];
  const dz = r[5];
  const tmax = r[6];
  const t = T;
  t[0] = nx * dx;
  t[1] = ny * dy;
  t[2] = nz * dz;
  const denom = xsumS(t, 3);
  t[0] = nx * ox;
  t[1] = ny * oy;
  t[2] = nz * oz;
  t[3] = -pd;
  const num = -xsumS(t, 4); // -sc__plane_side: d - n.o
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
      const diff = xsumS(t, 10); // num - tmax*denom
      if (denom > 0 ? diff > 0 : diff < 0) return 0;
    }
    tt = num / denom;
    if (!(tt >= 0)) tt = 0;
  }
  let tf = dfin(tt);
  if (tf > tmax) tf = tmax;
  tf = pz(tf);
  out[0] = tf;
  out[1] = tf;
  out[2] = tf;
  out[3] = pz(dfin(ox + tt * dx));
  out[4] = pz(dfin(oy + tt * dy));
  out[5] = pz(dfin(oz + tt * dz));
  // sc_unit_d(normal): scaled by the power of two that brings its largest component into
  // [0.5, 1) (exact: the components are floats, so every scaled one is a normal double), then
  // divided by its length; the normal faces the ray (n.dir <= 0).
  let m = abs(nx);
  if (abs(ny) > m) m = abs(ny);
  if (abs(nz) > m) m = abs(nz);
  const k = 2 ** -frexpExp(m);
  const x = nx * k;
  const y = ny * k;
  const z = nz * k;
  const len = Math.sqrt(x * x + y * y + z * z);
  const g = denom > 0 ? -1 : 1;
  out[6] = pz(Math.fround(x / len) * g);
  out[7] = pz(Math.fround(y / len) * g);
  out[8] = pz(Math.fround(z / len) * g);
  return 1;
}
