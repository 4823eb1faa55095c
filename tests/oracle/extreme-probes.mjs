// Probes for the extreme inputs of docs/semantics.md ("Extreme inputs"): far shapes, subnormal
// components, parameters past FLT_MAX. Generates seeded raycast cases and judges a result for
// each against the exact oracle:
//   - every classification must be the exact one (no allowance, at any distance; issue 22);
//   - every hit: t and point within the judge's tolerance, the point on the shape (its exact
//     distance to the shape's surface within 1e-4 of the shape's size), and a t past the float
//     range reported as FLT_MAX.
//
//   node tests/oracle/extreme-probes.mjs [--seed N] [--count K] [--family far|tiny|huge|all] [--out FILE]
// prints a summary and exits 1 when any probe is wrong. The module exports generate() and
// judgeProbe() for tests/web/extreme.test.mjs.
import { writeFileSync } from 'node:fs';
import {
  fromDouble, oracle, qsub, toNumber, vdot, vsub,
} from './exact.mjs';
// The seeded generator the benchmark's scenes use (xorshift32; no code under test).
import { rng } from '../../web/bench/scenes.mjs';

const F32_MAX = 3.4028234663852886e38;
const f = Math.fround;

/** A random unit vector (float32). */
function unit(r) {
  for (;;) {
    const v = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
    const l = Math.hypot(...v);
    if (l > 0.1 && l <= 1) return v.map((x) => f(x / l));
  }
}

/** An orthonormal frame (float32, orthonormal well within 1e-4). */
function frame(r) {
  const a = unit(r);
  let b = unit(r);
  const d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  b = b.map((x, i) => x - d * a[i]);
  const lb = Math.hypot(...b);
  b = b.map((x) => x / lb);
  const c = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  return [a, b.map(f), c.map(f)];
}

/** Far shapes: a sphere or an OBB of size s, the origin 1e3..1e30 sizes away, aimed at its rim. */
function farCase(r, i) {
  const size = f(10 ** (r() * 8 - 4));
  const dist = size * 10 ** (3 + r() * 27);
  const center = unit(r).map((x) => f(x * size * 10 ** (r() * 4 - 2)));
  const away = unit(r);
  const origin = away.map((x, k) => f(center[k] + x * dist));
  // aim at a point near the silhouette: centre + offset of about one size, perpendicular-ish
  const side = unit(r);
  const k = 1 + (r() - 0.5) * 0.02;
  const target = center.map((c, j) => c + side[j] * size * k);
  const dir = target.map((t, j) => f(t - origin[j]));
  const sphere = r() < 0.5;
  const shape = sphere
    ? { type: 'sphere', center, radius: size }
    : { type: 'obb', center, axes: frame(r), half: [size, f(size * (0.2 + r())), f(size * (0.2 + r()))] };
  return { id: `far-${i}`, query: 'raycast', ray: { origin, dir }, shape, note: `distance/size 1e${Math.log10(dist / size).toFixed(1)}` };
}

/** Subnormal direction components and plane normals. */
function tinyCase(r, i) {
  const sub = () => (r() < 0.5 ? -1 : 1) * f(2 ** -(127 + Math.floor(r() * 22)) * (1 + r()));
  const small = () => f((r() * 2 - 1) * 4);
  const kind = Math.floor(r() * 4);
  if (kind === 0) {
    // plane with a subnormal normal component next to a normal one, or all subnormal
    const normal = [sub(), r() < 0.5 ? sub() : small(), sub()];
    const d = r() < 0.3 ? 0 : f(sub() * (r() * 8));
    return { id: `tiny-${i}`, query: 'raycast', ray: { origin: [small(), small(), small()], dir: [small(), small(), small()] },
      shape: { type: 'plane', normal, d } };
  }
  if (kind === 1) {
    // ray with subnormal direction components against a plane
    return { id: `tiny-${i}`, query: 'raycast', ray: { origin: [small(), small(), small()], dir: [sub(), r() < 0.5 ? sub() : small(), sub()] },
      shape: { type: 'plane', normal: [small(), small(), small()], d: small() } };
  }
  if (kind === 2) {
    return { id: `tiny-${i}`, query: 'raycast', ray: { origin: [small(), small(), small()], dir: [sub(), sub(), r() < 0.5 ? sub() : small()] },
      shape: { type: 'sphere', center: [small(), small(), small()], radius: f(r() * 3) } };
  }
  return { id: `tiny-${i}`, query: 'raycast', ray: { origin: [small(), small(), small()], dir: [sub(), sub(), r() < 0.5 ? sub() : small()] },
    shape: { type: 'obb', center: [small(), small(), small()], axes: frame(r), half: [f(r() * 2), f(r() * 2), f(r() * 2)] } };
}

/** Parameters past FLT_MAX: a tiny direction, tmax = +inf, the shape ahead. */
function hugeCase(r, i) {
  const tiny = f(2 ** -(100 + Math.floor(r() * 45)));
  const u = unit(r);
  const dir = u.map((x) => f(x * tiny));
  const origin = [f((r() * 2 - 1) * 4), f((r() * 2 - 1) * 4), f((r() * 2 - 1) * 4)];
  const ahead = f(4 + r() * 100);
  const center = origin.map((o, k) => f(o + u[k] * ahead + (r() - 0.5)));
  const kind = Math.floor(r() * 4);
  let shape;
  if (kind === 0) shape = { type: 'sphere', center, radius: f(1 + r()) };
  else if (kind === 1) shape = { type: 'obb', center, axes: frame(r), half: [f(1 + r()), f(1 + r()), f(1 + r())] };
  else if (kind === 2) shape = { type: 'aabb', min: center.map((c) => f(c - 1)), max: center.map((c) => f(c + 1)) };
  else shape = { type: 'plane', normal: unit(r), d: f(u.reduce((s, x, k) => s + x * center[k], 0)) };
  return { id: `huge-${i}`, query: 'raycast', ray: { origin, dir }, shape };
}

export const FAMILIES = { far: farCase, tiny: tinyCase, huge: hugeCase };

/** count seeded cases of a family ('all': a third of each). */
export function generate(family, seed, count) {
  const r = rng(seed);
  const fams = family === 'all' ? Object.keys(FAMILIES) : [family];
  const out = [];
  for (let i = 0; i < count; i++) out.push(FAMILIES[fams[i % fams.length]](r, i));
  return out;
}

/** The spacing of float32 numbers at x: a result rounded to float32 may be off by half of it. */
function ulp32(x) {
  const a = Math.abs(x);
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

/** The shape's own size (largest half-extent or radius; 1 for planes). */
function sizeOf(shape) {
  if (shape.type === 'sphere') return shape.radius;
  if (shape.type === 'obb') return Math.max(...shape.half);
  if (shape.type === 'aabb') return Math.max(...shape.max.map((m, j) => (m - shape.min[j]) / 2));
  return 1;
}

/** How far (as a double) the point p lies from the shape's surface or inside it (0 = on it). */
function offSurface(shape, p) {
  const P = p.map((x) => fromDouble(x));
  if (shape.type === 'sphere') {
    const m = vsub(P, shape.center.map((x) => fromDouble(x)));
    return Math.abs(Math.sqrt(toNumber(vdot(m, m))) - shape.radius);
  }
  if (shape.type === 'plane') {
    const n = shape.normal.map((x) => fromDouble(x));
    return Math.abs(toNumber(qsub(vdot(n, P), fromDouble(shape.d)))) / Math.hypot(...shape.normal);
  }
  if (shape.type === 'aabb') {
    let out = 0;
    for (let j = 0; j < 3; j++) out = Math.max(out, shape.min[j] - p[j], p[j] - shape.max[j]);
    return Math.max(out, 0);
  }
  const m = vsub(P, shape.center.map((x) => fromDouble(x)));
  let out = 0;
  for (let j = 0; j < 3; j++) {
    const c = Math.abs(toNumber(vdot(m, shape.axes[j].map((x) => fromDouble(x)))));
    out = Math.max(out, c - shape.half[j]);
  }
  return Math.max(out, 0);
}

/**
 * Judges one raycast result ({hit, t, t_enter, t_exit, point, normal}) of a probe case.
 * Returns a list of problems (empty: right).
 */
export function judgeProbe(c, res) {
  const o = oracle(c);
  if (o.error) return res.error ? [] : [`expected an error (${o.message})`];
  if (res.error) return [`unexpected error ${res.error}`];
  const want = o.result;
  const problems = [];
  if (res.hit !== want.hit) return [`hit ${res.hit}, exact ${want.hit} (every class is exact: no allowance)`];
  if (!want.hit) return problems;
  const shape = o.input.shape;
  const scale = o.scale;
  const dirLen = o.dirLen;
  // t past the float range: FLT_MAX exactly; otherwise within the judge's tolerance along dir
  const wantT = want.t > F32_MAX ? F32_MAX : want.t;
  if (want.t > F32_MAX) {
    if (Math.fround(res.t) !== F32_MAX) problems.push(`t ${res.t}, exact ${want.t} is past FLT_MAX: must be FLT_MAX`);
  } else if (!(Math.abs(res.t - wantT) * dirLen <= 1e-4 * scale || Math.abs(res.t - wantT) <= ulp32(wantT))) {
    problems.push(`t ${res.t}, exact ${want.t}`);
  }
  for (const v of [res.t, res.t_enter, res.t_exit, ...res.point]) {
    if (!Number.isFinite(v)) problems.push(`a non-finite number ${v}`);
  }
  // the point is the exact point (within the tolerance) and on the shape (within its size's 1e-4)
  for (let j = 0; j < 3; j++) {
    const wp = Math.min(Math.max(want.point[j], -F32_MAX), F32_MAX);
    if (!(Math.abs(res.point[j] - wp) <= 1e-4 * scale || Math.abs(res.point[j] - wp) <= ulp32(wp))) problems.push(`point[${j}] ${res.point[j]}, exact ${want.point[j]}`);
  }
  if (shape.type !== 'plane' && want.tEnterSign >= 0) {
    const off = offSurface(shape, res.point);
    if (!(off <= 1e-4 * Math.max(sizeOf(shape), 1e-30) + 1e-4 * scale * 1e-3)) problems.push(`point ${res.point} is ${off} off the shape`);
  }
  return problems;
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const seed = Number(opt('seed', 1));
  const count = Number(opt('count', 3000));
  const family = opt('family', 'all');
  const cases = generate(family, seed, count);
  const out = opt('out', null);
  if (out) {
    writeFileSync(out, `${JSON.stringify({ format: 'slabcast-cases/1', cases }, null, 0)}\n`);
    return;
  }
  const { loadSlabcast } = await import('../../web/slabcast.js');
  const sc = await loadSlabcast();
  const wrong = {};
  let n = 0;
  for (const c of cases) {
    let res;
    try {
      const r = sc.raycast(c.ray, c.shape);
      res = { hit: r.hit, t: r.t, t_enter: r.t_enter, t_exit: r.t_exit, point: r.point && [...r.point], normal: r.normal && [...r.normal] };
    } catch (e) {
      res = { error: e.message };
    }
    const p = judgeProbe(c, res);
    if (p.length) {
      const fam = c.id.split('-')[0];
      wrong[fam] = (wrong[fam] ?? 0) + 1;
      if (n++ < 8) console.log(`WRONG ${c.id} ${c.shape.type} ${c.note ?? ''}: ${p.join('; ')}`);
    }
  }
  console.log(`${cases.length} probes (${family}, seed ${seed}): wrong ${JSON.stringify(wrong)}`);
  process.exitCode = n ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
