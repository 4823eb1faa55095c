// slab.js: one ray against one AABB in JavaScript, giving exactly the bits of the core's
// sc_raycast_aabb (src/slabcast.c: sc_slab_core, sc__raycast_aabb_valid, sc_aabb_hit) for the
// common inputs, so that raycastAABB needs no call into wasm. Float32 arithmetic is done in
// double and rounded with Math.fround after each operation: for +, -, * and / of float32
// operands that is the correctly rounded float32 result (double has more than twice the bits),
// the same as the C code's. The double-precision steps are the C code's own, in its order.
// Inputs the fast path does not handle (invalid ones, coordinates of 2^126 or more, quotients
// that underflow, both slab ends past FLT_MAX, parameters too close for rounding to order them)
// return FALLBACK: the caller asks the core.


const FLT_MAX = 3.4028234663852886e38;
const FLT_MIN = 1.1754943508222875e-38; // 2^-126
const HUGE = 8.507059173023462e37; // 2^126 (SC_HUGE)

/** slabAABB's answer when the core must decide. */
export const FALLBACK = -1;

const fin = (a) => (a > FLT_MAX ? FLT_MAX : a < -FLT_MAX ? -FLT_MAX : a);
const pz = (a) => a + 0; // -0 becomes +0, as sc_pz

/** One axis of the slab test: updates st (tn, tf, ax); 0: the line misses, 1: go on, FALLBACK. */
function axisSlab(st, i, oi, di, lo, hi) {
  if (di === 0) return oi < lo || oi > hi ? 0 : 1; // parallel: inside the slab for all t, or none
  const n1 = Math.fround(lo - oi);
  const n2 = Math.fround(hi - oi);
  const t1 = Math.fround(n1 / di);
  const t2 = Math.fround(n2 / di);
  // a quotient that underflowed lost precision or its sign: the core decides in double
  if ((Math.abs(t1) < FLT_MIN && n1 !== 0) || (Math.abs(t2) < FLT_MIN && n2 !== 0)) return FALLBACK;
  const near = di > 0 ? t1 : t2;
  const far = di > 0 ? t2 : t1;
  if (near > st.tn) { st.tn = near; st.ax = i; }
  if (far < st.tf) st.tf = far;
  return 1;
}

const ordinary = (x) => x > -HUGE && x < HUGE; // finite and below 2^126: the core does not rescale

/** sc_slab_close: rounded parameters too close for their order to be trusted (2^-21 relative). */
function close(a, b) {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(Math.fround(a - b)) <= Math.max(Math.abs(a), Math.abs(b)) * 4.76837158203125e-7;
}
const st = { tn: -Infinity, tf: Infinity, ax: -1 };

/**
 * v: 13 float32 values (ray origin, dir, tmax, box min, max). On a hit writes t, t_enter, t_exit,
 * point, normal into out[0..8] and returns 1; a miss returns 0; FALLBACK when the core decides.
 */
export function slabAABB(v, out) {
  const ox = v[0], oy = v[1], oz = v[2], dx = v[3], dy = v[4], dz = v[5], tmax = v[6];
  const x0 = v[7], y0 = v[8], z0 = v[9], x1 = v[10], y1 = v[11], z1 = v[12];
  // Valid and ordinary: finite, dir not zero, tmax >= 0 (NaN fails), min <= max, below 2^126.
  if (!(ordinary(ox) && ordinary(oy) && ordinary(oz) && ordinary(dx) && ordinary(dy) && ordinary(dz))) return FALLBACK;
  if (!(ordinary(x0) && ordinary(y0) && ordinary(z0) && ordinary(x1) && ordinary(y1) && ordinary(z1))) return FALLBACK;
  if (!(tmax >= 0) || (dx === 0 && dy === 0 && dz === 0) || x0 > x1 || y0 > y1 || z0 > z1) return FALLBACK;
  st.tn = -Infinity;
  st.tf = Infinity;
  st.ax = -1;
  let k = axisSlab(st, 0, ox, dx, x0, x1);
  if (k === 1) k = axisSlab(st, 1, oy, dy, y0, y1);
  if (k === 1) k = axisSlab(st, 2, oz, dz, z0, z1);
  if (k !== 1) return k;
  const tn = st.tn;
  const tf = st.tf;
  // too close to tell from rounded parameters: the core decides from the exact ones
  if (close(tn, tf) || close(tn, tmax)) return FALLBACK;
  if (tn > tf) return 0;
  if (tn === Infinity) return FALLBACK; // both ends past FLT_MAX: the core rescales dir
  if (!(tf >= 0 && tn <= tmax)) return 0;
  hit(v, fin(tn), fin(tf), st.ax, tn >= 0, out);
  return 1;
}

/** sc_aabb_hit: the result from the interval [tn, tf] and the entry axis. */
function hit(v, tn, tf, axis, entering, out) {
  out[0] = tn > 0 ? tn : 0;
  out[1] = pz(tn);
  out[2] = pz(tf);
  let px = v[0];
  let py = v[1];
  let pzv = v[2];
  let nx = 0;
  let ny = 0;
  let nz = 0;
  if (entering && axis >= 0) {
    // The point from the unrounded parameter, in double; the entry axis set exactly.
    const da = v[3 + axis];
    const face = da > 0 ? v[7 + axis] : v[10 + axis];
    const td = (face - v[axis]) / da;
    px = Math.fround(fin(v[0] + td * v[3]));
    py = Math.fround(fin(v[1] + td * v[4]));
    pzv = Math.fround(fin(v[2] + td * v[5]));
    const s = da > 0 ? -1 : 1;
    if (axis === 0) { px = face; nx = s; } else if (axis === 1) { py = face; ny = s; } else { pzv = face; nz = s; }
  }
  // Clamped to the box (sc_minf(sc_maxf(p, min), max)), then -0 made +0.
  out[3] = pz(clamp(px, v[7], v[10]));
  out[4] = pz(clamp(py, v[8], v[11]));
  out[5] = pz(clamp(pzv, v[9], v[12]));
  out[6] = pz(nx);
  out[7] = pz(ny);
  out[8] = pz(nz);
}

function clamp(p, lo, hi) {
  const a = p > lo ? p : lo;
  return a < hi ? a : hi;
}
