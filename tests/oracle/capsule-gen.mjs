// Capsule cases for the oracle tests (tests/oracle/capsule.mjs): random ones and adversarial
// ones (touching, one float in or out, rays parallel to the axis, through the caps, along the
// surface, degenerate capsules, huge and subnormal coordinates, origins inside). Deterministic
// for a seed. Each case is {id, query, ray | segment | point, shape} in the case-file format.
const f32 = Math.fround;
const F = new Float32Array(1);
const U = new Uint32Array(F.buffer);

/** The float32 next to x towards +inf (up) or -inf. */
export function nextFloat(x, up = true) {
  x = f32(x);
  if (x === 0) return up ? 1.401298464324817e-45 : -1.401298464324817e-45;
  F[0] = x;
  U[0] += (x > 0) === up ? 1 : -1;
  return F[0];
}

export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const v = (x, y, z) => [f32(x), f32(y), f32(z)];
const scaleV = (a, k) => a.map((x) => f32(x * k));
const cap = (a, b, radius) => ({ type: 'capsule', a, b, radius: f32(radius) });

/** Hand-built adversarial configurations, exact in float32 (id prefix, ray, shape). */
function adversarial() {
  const out = [];
  const add = (id, query, input, shape) => out.push({ id, query, ...input, shape });
  const z = cap(v(0, 0, 0), v(0, 0, 10), 1);
  // tangent to the cylinder, and one float in / out (radius, origin)
  for (const [tag, r] of [['', 1], ['-r-in', nextFloat(1, true)], ['-r-out', nextFloat(1, false)]]) {
    add(`tangent-cyl${tag}`, 'raycast', { ray: { origin: v(1, -5, 5), dir: v(0, 1, 0) } }, { ...z, radius: f32(r) });
    add(`tangent-cyl-seg${tag}`, 'linetest', { segment: { a: v(1, -5, 5), b: v(1, 5, 5) } }, { ...z, radius: f32(r) });
    add(`tangent-cap-a${tag}`, 'raycast', { ray: { origin: v(-5, 0, -1), dir: v(1, 0, 0) } }, { ...z, radius: f32(r) });
    add(`tangent-cap-b${tag}`, 'raycast', { ray: { origin: v(-5, 0, 11), dir: v(1, 0, 0), tmax: 10 } }, { ...z, radius: f32(r) });
    add(`contains-side${tag}`, 'contains', { point: v(1, 0, 3) }, { ...z, radius: f32(r) });
    add(`contains-cap${tag}`, 'contains', { point: v(0, 0, 11) }, { ...z, radius: f32(r) });
  }
  add('tangent-cyl-x-out', 'raycast', { ray: { origin: v(nextFloat(1, true), -5, 5), dir: v(0, 1, 0) } }, z);
  add('tangent-cyl-x-in', 'raycast', { ray: { origin: v(nextFloat(1, false), -5, 5), dir: v(0, 1, 0) } }, z);
  add('cap-end-b-out', 'raycast', { ray: { origin: v(0, 0, 20), dir: v(0, 0, -1), tmax: nextFloat(9, false) } }, z);
  add('cap-end-b-at-tmax', 'raycast', { ray: { origin: v(0, 0, 20), dir: v(0, 0, -1), tmax: 9 } }, z);
  add('axis-through-caps', 'raycast', { ray: { origin: v(0, 0, -5), dir: v(0, 0, 1) } }, z);
  add('parallel-inside', 'raycast', { ray: { origin: v(0.5, 0, -5), dir: v(0, 0, 2) } }, z);
  add('parallel-along-surface', 'raycast', { ray: { origin: v(1, 0, 5), dir: v(0, 0, 1) } }, z);
  add('parallel-along-surface-out', 'raycast', { ray: { origin: v(nextFloat(1, true), 0, 5), dir: v(0, 0, 1) } }, z);
  add('parallel-behind', 'raycast', { ray: { origin: v(0, 0.5, 12), dir: v(0, 0, 1) } }, z);
  add('origin-inside', 'raycast', { ray: { origin: v(0.25, 0.25, 4), dir: v(1, 2, 3) } }, z);
  add('origin-on-cap-leaving', 'raycast', { ray: { origin: v(0, 0, 11), dir: v(0, 0, 1) } }, z);
  add('origin-on-cap-entering', 'raycast', { ray: { origin: v(0, 0, 11), dir: v(0, 0, -1) } }, z);
  add('origin-on-side-entering', 'raycast', { ray: { origin: v(1, 0, 5), dir: v(-1, 0, 0) } }, z);
  add('origin-on-side-leaving', 'raycast', { ray: { origin: v(1, 0, 5), dir: v(1, 0.5, 0) } }, z);
  // a rotated axis (3, 4, 0) / 5 and points at exact distances (Pythagorean)
  const rot = cap(v(0, 0, 0), v(30, 40, 0), 5);
  add('rot-tangent', 'raycast', { ray: { origin: v(-4, 3, -7), dir: v(0, 0, 1) } }, rot);
  add('rot-tangent-in', 'raycast', { ray: { origin: v(-4, 3, -7), dir: v(0, 0, 1) } }, { ...rot, radius: nextFloat(5, true) });
  add('rot-tangent-out', 'raycast', { ray: { origin: v(-4, 3, -7), dir: v(0, 0, 1) } }, { ...rot, radius: nextFloat(5, false) });
  add('rot-along', 'raycast', { ray: { origin: v(-4, 3, 0), dir: v(3, 4, 0) } }, rot);
  add('rot-contains-on', 'contains', { point: v(-4, 3, 0) }, rot);
  add('rot-contains-out', 'contains', { point: v(nextFloat(-4, false), 3, 0) }, rot);
  add('rot-seg-touch', 'linetest', { segment: { a: v(-4, 3, -7), b: v(-4, 3, 7) } }, rot);
  add('rot-seg-short', 'linetest', { segment: { a: v(-4, 3, -7), b: v(-4, 3, nextFloat(0, false)) } }, rot);
  add('rot-seg-short-out', 'linetest', { segment: { a: v(-4, 3, -7), b: v(-4, 3, -1e-30) } }, rot);
  // radius 0: the segment itself
  const seg0 = cap(v(-1, 0, 0), v(1, 0, 0), 0);
  add('r0-cross', 'raycast', { ray: { origin: v(0.5, -3, 0), dir: v(0, 1, 0) } }, seg0);
  add('r0-cross-off', 'raycast', { ray: { origin: v(0.5, -3, 1.401298464324817e-45), dir: v(0, 1, 0) } }, seg0);
  add('r0-end', 'raycast', { ray: { origin: v(1, -3, 0), dir: v(0, 1, 0) } }, seg0);
  add('r0-past-end', 'raycast', { ray: { origin: v(nextFloat(1, true), -3, 0), dir: v(0, 1, 0) } }, seg0);
  add('r0-along', 'raycast', { ray: { origin: v(-5, 0, 0), dir: v(1, 0, 0) } }, seg0);
  add('r0-head-on', 'raycast', { ray: { origin: v(5, 0, 0), dir: v(-1, 0, 0), tmax: 4 } }, seg0);
  add('r0-head-on-short', 'raycast', { ray: { origin: v(5, 0, 0), dir: v(-1, 0, 0), tmax: nextFloat(4, false) } }, seg0);
  add('r0-contains-mid', 'contains', { point: v(0.25, 0, 0) }, seg0);
  add('r0-contains-off', 'contains', { point: v(0.25, 1e-45, 0) }, seg0);
  add('r0-seg-cross', 'linetest', { segment: { a: v(0, -1, -1), b: v(0, 1, 1) } }, seg0);
  add('r0-seg-miss', 'linetest', { segment: { a: v(0, -1, -1), b: v(0, 1, nextFloat(1, true)) } }, seg0);
  // a == b: a ball
  const ball = cap(v(1, 2, 3), v(1, 2, 3), 2);
  add('ball-tangent', 'raycast', { ray: { origin: v(3, 2, -5), dir: v(0, 0, 1) } }, ball);
  add('ball-through', 'raycast', { ray: { origin: v(1, 2, -5), dir: v(0, 0, 1) } }, ball);
  add('ball-point', 'raycast', { ray: { origin: v(1, 2, -5), dir: v(0, 0, 1) } }, { ...ball, radius: 0 });
  // huge and subnormal coordinates (the same shapes scaled by powers of two: exact)
  for (const [tag, k] of [['huge', 2 ** 100], ['tiny', 2 ** -140], ['mid', 2 ** -60]]) {
    const zc = cap(scaleV(z.a, k), scaleV(z.b, k), f32(z.radius * k));
    add(`${tag}-tangent-cyl`, 'raycast', { ray: { origin: scaleV(v(1, -5, 5), k), dir: v(0, 1, 0) } }, zc);
    add(`${tag}-tangent-cyl-out`, 'raycast', { ray: { origin: scaleV(v(1, -5, 5), k), dir: v(0, 1, 0) } }, { ...zc, radius: nextFloat(zc.radius, false) });
    add(`${tag}-cap`, 'raycast', { ray: { origin: scaleV(v(0, 0, 20), k), dir: v(0, 0, -1) } }, zc);
    add(`${tag}-oblique`, 'raycast', { ray: { origin: scaleV(v(5, 3, -2), k), dir: v(-1, -0.5, 0.75) } }, zc);
    add(`${tag}-contains`, 'contains', { point: scaleV(v(1, 0, 3), k) }, zc);
    add(`${tag}-closest`, 'closest_point', { point: scaleV(v(3, 4, 5), k) }, zc);
  }
  // thin: radius 2^-20 to 2^-60 of the length; rays at the side near b, and at the cap at b
  for (const [tag, r, L] of [['thin20', 2 ** -10, 2 ** 10], ['thin40', 2 ** -20, 2 ** 20], ['thin60', 2 ** -40, 2 ** 20]]) {
    const th = cap(v(0, 0, 0), v(L, 0, 0), r);
    add(`${tag}-side`, 'raycast', { ray: { origin: v(L * 0.999, r * 0.5, 5), dir: v(0.1, 0, -1) } }, th);
    add(`${tag}-cap`, 'raycast', { ray: { origin: v(L, r * 0.25, 5), dir: v(0, 0, -1) } }, th);
    add(`${tag}-tangent`, 'raycast', { ray: { origin: v(L * 0.5, r, 5), dir: v(0, 0, -1) } }, th);
    add(`${tag}-tangent-out`, 'raycast', { ray: { origin: v(L * 0.5, nextFloat(r, true), 5), dir: v(0, 0, -1) } }, th);
    add(`${tag}-closest`, 'closest_point', { point: v(L * 0.75, r * 3, r * 4) }, th);
  }
  // far: a unit capsule 1e30 away from the origin, the ray aimed at its side
  const far = cap(v(1e30, 0, 0), v(1e30, 0, 2), 1);
  add('far-tangent', 'raycast', { ray: { origin: v(0, 1, 1), dir: v(1, 0, 0) } }, far);
  add('far-tangent-out', 'raycast', { ray: { origin: v(0, nextFloat(1, true), 1), dir: v(1, 0, 0) } }, far);
  add('far-hit', 'raycast', { ray: { origin: v(0, 0.5, 1), dir: v(1, 0, 0) } }, far);
  return out;
}

/** A float of random size: sign, mantissa, and an exponent in [lo, hi]. */
function randFloat(R, lo, hi) {
  const e = lo + Math.floor(R() * (hi - lo + 1));
  return f32((R() < 0.5 ? -1 : 1) * (1 + R()) * 2 ** e);
}

/** Random cases: capsules and queries around them, of mixed scales. */
function randomCases(R, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const scaleE = [0, 0, 0, 10, -10, 40, -40, 100][Math.floor(R() * 8)];
    const s = 2 ** scaleE;
    const rv = () => v(randFloat(R, -2, 3) * s, randFloat(R, -2, 3) * s, randFloat(R, -2, 3) * s);
    const a = rv();
    const b = R() < 0.1 ? a.slice() : R() < 0.2 ? [a[0], a[1], f32(a[2] + randFloat(R, -1, 3) * s)] : rv();
    const radius = R() < 0.05 ? 0 : f32(Math.abs(randFloat(R, -3, 2)) * s);
    const shape = cap(a, b, radius);
    const kind = R();
    const id = `random-${i}`;
    if (kind < 0.55) {
      // aim near a random point of the capsule's segment, offset by about the radius
      const w = R();
      const target = [0, 1, 2].map((k) => a[k] + w * (b[k] - a[k]) + (R() - 0.5) * 3 * radius);
      const origin = rv();
      let dir = v(target[0] - origin[0], target[1] - origin[1], target[2] - origin[2]);
      if (dir[0] === 0 && dir[1] === 0 && dir[2] === 0) dir = v(1, 0, 0);
      if (R() < 0.15) dir = v(b[0] - a[0], b[1] - a[1], b[2] - a[2]).map((x, k) => (x === 0 && k === 0 ? 1 : x));
      const tmax = R() < 0.5 ? undefined : f32(R() * 2);
      out.push({ id, query: 'raycast', ray: tmax === undefined ? { origin, dir } : { origin, dir, tmax }, shape });
    } else if (kind < 0.75) {
      out.push({ id, query: 'linetest', segment: { a: rv(), b: rv() }, shape });
    } else if (kind < 0.9) {
      const w = R();
      const p = [0, 1, 2].map((k) => f32(a[k] + w * (b[k] - a[k]) + (R() - 0.5) * 2.5 * radius));
      out.push({ id, query: 'contains', point: p, shape });
    } else {
      out.push({ id, query: 'closest_point', point: rv(), shape });
    }
  }
  return out;
}

const TRIPLES = [[3, 4, 5], [5, 12, 13], [8, 15, 17], [7, 24, 25], [20, 21, 29]];

/** A vector with its components permuted (perm 0..5) and signed (bits of sg). */
function orient(x, perm, sg) {
  const P = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]][perm];
  return P.map((i, k) => (sg & (1 << k) ? -x[i] : x[i]));
}

/**
 * Near-tangent cases from Pythagorean triples (p, q, c): an axis along (p, q, 0), a point
 * (-q, p, 0) * m at distance c * m from it (the radius, exactly), rays and segments through that
 * point across the axis (tangent to the cylinder) and through the cap's tip a - (p, q, 0) * m
 * (tangent to the end ball), then moved off by one float of the radius or of a coordinate, or by
 * 2^-k of the scale; all of it oriented by a signed permutation and scaled by 2^E (huge to
 * subnormal), and offset far from the origin. Touching, one float in or out, exactly.
 */
function nearTangent(R, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const [p, q, c] = TRIPLES[Math.floor(R() * TRIPLES.length)];
    const m = 1 + Math.floor(R() * 4);
    const k = m + 1 + Math.floor(R() * 6); // the axis is (p, q, 0) * k long
    const E = [0, 0, 0, 20, -20, 90, -120, -135][Math.floor(R() * 8)];
    const perm = Math.floor(R() * 6);
    const sg = Math.floor(R() * 8);
    const off = R() < 0.3 ? [Math.floor(R() * 200) - 100, Math.floor(R() * 200) - 100, 0] : [0, 0, 0];
    const W = (x) => scaleV(orient(x, perm, sg), 2 ** E).map((t, j) => f32(t + orient(off, perm, sg)[j] * 2 ** E));
    const a = W([0, 0, 0]);
    const b = W([p * k, q * k, 0]);
    const onSide = R() < 0.6;
    // the touching point: on the cylinder (beside the axis at a fraction j/k of its length) or at the cap's tip
    const j = Math.floor(R() * (k + 1));
    const touch = onSide ? [-q * m + p * j, p * m + q * j, 0] : [-p * m, -q * m, 0];
    const across = onSide ? [0, 0, 1] : R() < 0.5 ? [0, 0, 1] : [-q, p, 0];
    const startT = 7;
    const origin0 = [0, 1, 2].map((t) => touch[t] - startT * across[t]);
    let radius = f32(c * m * 2 ** E);
    let origin = W(origin0);
    const dir = orient(across, perm, sg).map(f32);
    const nudge = Math.floor(R() * 4);
    if (nudge === 1) radius = nextFloat(radius, R() < 0.5);
    if (nudge === 2) {
      const t = Math.floor(R() * 3);
      origin = origin.slice();
      origin[t] = nextFloat(origin[t], R() < 0.5);
    }
    if (nudge === 3) {
      const t = Math.floor(R() * 3);
      origin = origin.slice();
      origin[t] = f32(origin[t] + (R() < 0.5 ? -1 : 1) * 2 ** (E - 10 - Math.floor(R() * 100)));
    }
    const shape = cap(a, b, radius);
    const id = `tangent-${i}-${onSide ? 'side' : 'tip'}-n${nudge}-e${E}`;
    const form = R();
    if (form < 0.5) {
      const tmax = R() < 0.5 ? undefined : R() < 0.5 ? f32(startT) : nextFloat(startT, false);
      out.push({ id, query: 'raycast', ray: tmax === undefined ? { origin, dir } : { origin, dir, tmax }, shape });
    } else if (form < 0.8) {
      const end = [0, 1, 2].map((t) => f32(origin[t] + 2 * startT * dir[t] * 2 ** E));
      out.push({ id, query: 'linetest', segment: { a: origin, b: R() < 0.2 ? origin : end }, shape });
    } else {
      out.push({ id, query: 'contains', point: W(touch).map((x, t) => (nudge >= 2 && t === 0 ? nextFloat(x, R() < 0.5) : x)), shape });
    }
  }
  return out;
}

/** The adversarial cases and n random ones from seed (a third of them near-tangent). */
export function capsuleCases(seed, n) {
  const R = rng(seed);
  const nt = Math.floor(n / 3);
  return [...adversarial(), ...nearTangent(R, nt), ...randomCases(R, n - nt)];
}
