// slab.js: one ray against one AABB in JavaScript, giving exactly the bits of the core's
// sc_raycast_aabb (src/sc_aabb.c: sc_slab_core, sc__raycast_aabb_valid, sc_aabb_hit) for the
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

const MARGIN = 9.094947017729282e-13; // 2^-40
const fin = (a) => (a > FLT_MAX ? FLT_MAX : a < -FLT_MAX ? -FLT_MAX : a);
const pz = (a) => a + 0; // -0 becomes +0, as sc_pz

/**
 * Whether sc_slab_close(a, b) may hold: rounded parameters too close for their order to be
 * trusted. A cheap superset of the core's test (|a - b| in double against 2^-20 of the larger,
 * plus the smallest subnormal for a product that rounds up; the core's is |fround(a - b)|
 * against 2^-21), so every pair the core would call close is sent to the core, which then
 * decides as it always does. Infinities are never close (NaN cannot reach it).
 */
function mayBeClose(a, b) {
  const aa = a < 0 ? -a : a;
  const ab = b < 0 ? -b : b;
  const m = aa > ab ? aa : ab;
  const d = a - b;
  return m !== Infinity && (d < 0 ? -d : d) <= m * 9.5367431640625e-7 + 1.401298464324817e-45;
}


const K = 1.000000000003638; // 1 + 2^-38: a product's margin (exact in double)

/**
 * Whether a ray (origin o, dir d, tmax) and a box [x0, x1] x [y0, y1] x [z0, z1] are valid and
 * ordinary, as slabAABB's first test asks, more strictly: the sum of the 12 coordinates' sizes
 * below 2^126 (so each is finite and below 2^126: the core rescales larger ones, which moves
 * subnormals, so its answer is then not the exact one; NaN fails the comparison; a larger sum
 * only sends the call to slabAABB), min <= max, tmax >= 0 (+Infinity passes). The dir may be zero
 * (certainMiss tests it). One comparison for the sizes instead of twelve branches. Small: V8
 * inlines it, so its 13 numbers are never boxed.
 */
export function ordinary(ox, oy, oz, dx, dy, dz, tmax, x0, y0, z0, x1, y1, z1) {
  const abs = Math.abs;
  const m = ((abs(ox) + abs(oy)) + (abs(oz) + abs(dx))) + ((abs(dy) + abs(dz)) + (abs(x0) + abs(y0))) + ((abs(z0) + abs(x1)) + (abs(y1) + abs(z1)));
  return m < HUGE && x0 <= x1 && y0 <= y1 && z0 <= z1 && tmax >= 0;
}

/**
 * Whether the ray (origin o, dir d, tmax) certainly misses the box [x0, x1] x [y0, y1] x [z0, z1]:
 * 13 float32 values (read from a Float32Array, or rounded by Math.fround) that ordinary()
 * accepts, passed as numbers so that no array is written or read again. True only when the dir
 * is not zero (the core's error) and the miss is certain: the core classifies these inputs
 * exactly, so it misses too. False leaves the call to slabAABB.
 *
 * Per axis, n and f: the distances from the origin to the near and far faces in the ray's sense
 * along it, a = |d| (a parallel axis, a = 0, takes the sense of +d: n > 0 or f < 0 exactly when
 * the origin is outside its slab, and the tests below then find the miss). A miss when the box
 * is behind (f < 0: a difference's sign is exact), or the near face of one axis past the far
 * face of another (n_i / a_i > f_j / a_j, multiplied out: n_i a_j > f_j a_i), or past tmax
 * (n_i > tmax a_i), with f_j and tmax raised by K: each side is within 3 roundings (2^-53 each)
 * of its exact value, so the computed n_i a_j > (f_j K) a_i makes the exact n_i a_j > f_j a_i
 * certain (a product that is exactly 0 is computed as 0). Small (about 360 bytes of bytecode, under
 * V8's 460): it is inlined into its caller, so its 13 numbers are never boxed.
 */
export function certainMiss(ox, oy, oz, dx, dy, dz, tmax, x0, y0, z0, x1, y1, z1) {
  let nx, fx, ax, ny, fy, ay, nz, fz, az;
  if (dx < 0) { nx = ox - x1; fx = ox - x0; ax = -dx; } else { nx = x0 - ox; fx = x1 - ox; ax = dx; }
  if (dy < 0) { ny = oy - y1; fy = oy - y0; ay = -dy; } else { ny = y0 - oy; fy = y1 - oy; ay = dy; }
  if (dz < 0) { nz = oz - z1; fz = oz - z0; az = -dz; } else { nz = z0 - oz; fz = z1 - oz; az = dz; }
  if (!(ax + ay + az > 0)) return false; // dir zero: the core's error
  if (fx < 0 || fy < 0 || fz < 0) return true;
  const gx = fx * K;
  const gy = fy * K;
  const gz = fz * K;
  // (short-circuit tests: measured against one branch for all of them, as fast for different boxes, faster for one repeated)
  if (nx * ay > gy * ax || nx * az > gz * ax || ny * ax > gx * ay || ny * az > gz * ay || nz * ax > gx * az || nz * ay > gy * az) return true;
  if (tmax === Infinity) return false;
  const tk = tmax * K;
  return nx > tk * ax || ny > tk * ay || nz > tk * az;
}

/**
 * ray: 7 float32 values (origin, dir, tmax), box: 6 (min, max), both Float32Arrays. On a hit
 * writes t, t_enter, t_exit, point, normal into out[0..8] and returns 1; a miss returns 0;
 * FALLBACK when the core decides.
 *
 * sc_slab_core written out once per axis (a loop over the axes, or a helper per axis, costs
 * about twice as much in V8). Per axis that is not parallel: the near and far numerators
 * (bound - o) rounded to float32, each divided by d and rounded (one correctly rounded division
 * each, as the C code), then [tn, tf] narrowed, the axis that raised tn kept. A parallel axis
 * (d = 0 or -0) leaves the interval alone, or misses when o is outside the slab. A miss is
 * returned as soon as it is certain: a far end below 0 (its sign is exact: a quotient that
 * underflowed has gone to the core), or an interval already empty by more than rounding.
 * The C code tests every axis first, but a later axis can only narrow the interval, and an
 * input it would hand to double precision gives the same miss there.
 */
export function slabAABB(ray, box, out) {
  const ox = ray[0], oy = ray[1], oz = ray[2], dx = ray[3], dy = ray[4], dz = ray[5], tmax = ray[6];
  const x0 = box[0], y0 = box[1], z0 = box[2], x1 = box[3], y1 = box[4], z1 = box[5];
  // Valid and ordinary: finite and below 2^126 (the core does not rescale; NaN fails every
  // comparison), dir not zero, tmax >= 0 (NaN fails), min <= max.
  const abs = Math.abs;
  if (!(abs(ox) < HUGE && abs(oy) < HUGE && abs(oz) < HUGE && abs(dx) < HUGE && abs(dy) < HUGE && abs(dz) < HUGE &&
        x0 > -HUGE && x1 < HUGE && y0 > -HUGE && y1 < HUGE && z0 > -HUGE && z1 < HUGE &&
        x0 <= x1 && y0 <= y1 && z0 <= z1 && tmax >= 0) || (dx === 0 && dy === 0 && dz === 0)) return FALLBACK;
  // A certain miss without a division first (most rays miss most boxes). Per axis, n and f: the
  // distances from the origin to the near and far faces in the ray's sense along it (0 on a
  // parallel axis, which misses exactly when the origin is outside its slab), a = |d|. The box
  // behind (f < 0: a difference's sign is exact); or the near face of one axis past the far face
  // of another (n_i / a_i > f_j / a_j, multiplied out: n_i a_j > f_j a_i), or past tmax
  // (n_i > tmax a_i), by more than 2^-40 of the products (each within 2^-51 of the exact one).
  // The core classifies exactly: it misses too. Written out (V8 boxes the doubles passed to a
  // helper it does not inline); a parallel axis makes its tests 0 > 0 or NaN: false.
  let nx = 0, fx = 0, ny = 0, fy = 0, nz = 0, fz = 0;
  if (dx > 0) { nx = x0 - ox; fx = x1 - ox; } else if (dx < 0) { nx = ox - x1; fx = ox - x0; } else if (ox < x0 || ox > x1) return 0;
  if (dy > 0) { ny = y0 - oy; fy = y1 - oy; } else if (dy < 0) { ny = oy - y1; fy = oy - y0; } else if (oy < y0 || oy > y1) return 0;
  if (dz > 0) { nz = z0 - oz; fz = z1 - oz; } else if (dz < 0) { nz = oz - z1; fz = oz - z0; } else if (oz < z0 || oz > z1) return 0;
  if (fx < 0 || fy < 0 || fz < 0) return 0;
  const adx = abs(dx), ady = abs(dy), adz = abs(dz);
  let p = nx * ady, q = fy * adx;
  if (p - q > MARGIN * (abs(p) + q)) return 0;
  p = nx * adz; q = fz * adx;
  if (p - q > MARGIN * (abs(p) + q)) return 0;
  p = ny * adx; q = fx * ady;
  if (p - q > MARGIN * (abs(p) + q)) return 0;
  p = ny * adz; q = fz * ady;
  if (p - q > MARGIN * (abs(p) + q)) return 0;
  p = nz * adx; q = fx * adz;
  if (p - q > MARGIN * (abs(p) + q)) return 0;
  p = nz * ady; q = fy * adz;
  if (p - q > MARGIN * (abs(p) + q)) return 0;
  if (tmax !== Infinity && (nx - tmax * adx > MARGIN * (abs(nx) + tmax * adx) || ny - tmax * ady > MARGIN * (abs(ny) + tmax * ady) ||
      nz - tmax * adz > MARGIN * (abs(nz) + tmax * adz))) return 0;
  return slabQuotients(ray, box, out);
}

/**
 * slabAABB after its first test and its certain misses: the quotients, as the C code. For inputs
 * that pass slabAABB's first test (ordinary() passes fewer) with a dir that is not zero; it does
 * not need the certain misses out of the way (raycastAABB calls it after ordinary() and
 * certainMiss(), slabAABB after its own). ray and box are read again, as hit() reads them:
 * Float32Arrays that no code of the caller's can change in between (slabcast's staging, or the
 * caller's own, read with nothing run since).
 */
export function slabQuotients(ray, box, out) {
  const ox = ray[0], oy = ray[1], oz = ray[2], dx = ray[3], dy = ray[4], dz = ray[5], tmax = ray[6];
  const x0 = box[0], y0 = box[1], z0 = box[2], x1 = box[3], y1 = box[4], z1 = box[5];
  let tn = -Infinity;
  let tf = Infinity;
  let ax = -1;
  if (dx !== 0) {
    const a = Math.fround((dx > 0 ? x0 : x1) - ox);
    const b = Math.fround((dx > 0 ? x1 : x0) - ox);
    const near = Math.fround(a / dx);
    const far = Math.fround(b / dx);
    // a quotient below FLT_MIN from a non-zero numerator lost precision or its sign: the core
    if ((near < FLT_MIN && near > -FLT_MIN && a !== 0) || (far < FLT_MIN && far > -FLT_MIN && b !== 0)) return FALLBACK;
    if (far < 0) return 0;
    tn = near; tf = far; ax = 0;
  } else if (ox < x0 || ox > x1) return 0;
  if (dy !== 0) {
    const a = Math.fround((dy > 0 ? y0 : y1) - oy);
    const b = Math.fround((dy > 0 ? y1 : y0) - oy);
    const near = Math.fround(a / dy);
    const far = Math.fround(b / dy);
    if ((near < FLT_MIN && near > -FLT_MIN && a !== 0) || (far < FLT_MIN && far > -FLT_MIN && b !== 0)) return FALLBACK;
    if (far < 0) return 0;
    if (near > tn) { tn = near; ax = 1; }
    if (far < tf) tf = far;
    if (tn > tf && !mayBeClose(tn, tf)) return 0;
  } else if (oy < y0 || oy > y1) return 0;
  if (dz !== 0) {
    const a = Math.fround((dz > 0 ? z0 : z1) - oz);
    const b = Math.fround((dz > 0 ? z1 : z0) - oz);
    const near = Math.fround(a / dz);
    const far = Math.fround(b / dz);
    if ((near < FLT_MIN && near > -FLT_MIN && a !== 0) || (far < FLT_MIN && far > -FLT_MIN && b !== 0)) return FALLBACK;
    if (far < 0) return 0;
    if (near > tn) { tn = near; ax = 2; }
    if (far < tf) tf = far;
    if (tn > tf && !mayBeClose(tn, tf)) return 0;
  } else if (oz < z0 || oz > z1) return 0;
  // Parameters too close to order from their rounded values: the core decides from the exact
  // ones (sc_slab_hit_exact). Otherwise the rounded ones decide as the C code does.
  if (mayBeClose(tn, tf) || mayBeClose(tn, tmax)) return FALLBACK;
  if (tn > tf) return 0;
  if (tn === Infinity) return FALLBACK; // both ends past FLT_MAX: the core rescales dir
  if (!(tf >= 0 && tn <= tmax)) return 0;
  // (tn, tf handed over in out[1], out[2]: V8 boxes the doubles passed to a function it does not inline)
  out[1] = fin(tn);
  out[2] = fin(tf);
  hit(ray, box, ax, tn >= 0, out);
  return 1;
}

/** sc_aabb_hit: the result from the interval [tn, tf] (out[1], out[2], within +-FLT_MAX) and the entry axis. */
function hit(ray, box, axis, entering, out) {
  const tn = out[1];
  out[0] = tn > 0 ? tn : 0;
  out[1] = tn + 0; // -0 becomes +0, as sc_pz
  out[2] += 0;
  let px = ray[0];
  let py = ray[1];
  let pzv = ray[2];
  let nx = 0;
  let ny = 0;
  let nz = 0;
  if (entering && axis >= 0) {
    // The point from the unrounded parameter, in double; the entry axis set exactly.
    const da = ray[3 + axis];
    const face = da > 0 ? box[axis] : box[3 + axis];
    const td = (face - ray[axis]) / da;
    px = Math.fround(fin(ray[0] + td * ray[3]));
    py = Math.fround(fin(ray[1] + td * ray[4]));
    pzv = Math.fround(fin(ray[2] + td * ray[5]));
    const s = da > 0 ? -1 : 1;
    if (axis === 0) { px = face; nx = s; } else if (axis === 1) { py = face; ny = s; } else { pzv = face; nz = s; }
  }
  // Clamped to the box (sc_minf(sc_maxf(p, min), max)), then -0 made +0.
  out[3] = pz(clamp(px, box[0], box[3]));
  out[4] = pz(clamp(py, box[1], box[4]));
  out[5] = pz(clamp(pzv, box[2], box[5]));
  out[6] = pz(nx);
  out[7] = pz(ny);
  out[8] = pz(nz);
}

function clamp(p, lo, hi) {
  const a = p > lo ? p : lo;
  return a < hi ? a : hi;
}
