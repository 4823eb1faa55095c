// Near-tangent rays and segments against spheres (issue 22, item 5): Pythagorean configurations,
// where the line's distance from the centre is exactly the radius, moved off tangency by one
// power of two between 2^-149 and 2^-20 (a coordinate that was 0 becomes +-2^-k, or a float
// coordinate moves by a few units in the last place). Every number is a float32, so the exact
// answer is the oracle's (tests/oracle/exact.mjs) and no allowance can apply: these cases are the
// ones a double-precision test gets wrong.
//
//   node tests/oracle/near-tangent.mjs --seed N --count K --out FILE [--expect]   (deterministic;
//   --expect writes each case's exact class, from the oracle, as its expect)
import { writeFileSync } from 'node:fs';
import { oracle } from './exact.mjs';

/** xorshift32: a small deterministic generator. */
function rng(seed) {
  let s = (seed >>> 0) || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

const TRIPLES = [[3, 4, 5], [5, 12, 13], [8, 15, 17], [7, 24, 25], [20, 21, 29], [12, 35, 37], [9, 40, 41]];
const f32 = Math.fround;

/** One case: a ray or a segment whose line passes (almost) tangent to a sphere. */
function makeCase(rand, i) {
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const [p, q, m] = pick(TRIPLES);
  const scale = 2 ** Math.floor(rand() * 8 - 3);
  const axis = Math.floor(rand() * 3);
  const [u, v] = [(axis + 1) % 3, (axis + 2) % 3];
  // The line: origin o, direction d along `axis` (optionally the in-plane Pythagorean direction).
  const o = [0, 0, 0];
  const d = [0, 0, 0];
  const c = [0, 0, 0];
  let r;
  const along = (rand() < 0.5 ? -1 : 1) * pick([1, 2, 0.5, 3]);
  if (rand() < 0.6) {
    // axis-parallel line; the centre off it by (p, q) * scale in the other two axes: distance m.
    d[axis] = along;
    c[u] = p * scale; c[v] = q * scale; c[axis] = pick([0, 7, -3, 40]) * scale;
    r = m * scale;
    o[axis] = c[axis] - Math.sign(along) * pick([10, 100, 2]) * m * scale;
  } else {
    // the direction (p, q) in the (u, v) plane, the centre off the line along (-q, p) * k: distance m k.
    const k = scale;
    d[u] = p * Math.sign(along); d[v] = q * Math.sign(along);
    const s = pick([10, 3, 50]) * Math.sign(along);
    c[u] = s * p - q * k; c[v] = s * q + p * k; c[axis] = pick([0, 5, -1]);
    o[axis] = c[axis];
    r = m * k;
  }
  // Off tangency: a zero coordinate of the origin (or the centre) becomes +-2^-e, or the radius
  // or a coordinate moves by an ulp-sized step; the third coordinate keeps the line in 3-D.
  const e = 20 + Math.floor(rand() * 130); // 2^-20 .. 2^-149
  const delta = (rand() < 0.5 ? -1 : 1) * 2 ** -e;
  const kind = Math.floor(rand() * 4);
  if (kind === 0) o[u] += delta;
  else if (kind === 1) o[v] += delta;
  else if (kind === 2) o[axis === 0 ? 1 : 0] = o[axis === 0 ? 1 : 0] === 0 ? delta : o[axis === 0 ? 1 : 0];
  else c[u] = f32(c[u] + delta) === c[u] ? c[u] + (delta > 0 ? 1 : -1) * ulp(c[u]) : f32(c[u] + delta);
  const all = [...o, ...d, ...c, r];
  if (!all.every((x) => f32(x) === x)) return null; // only float32 inputs (the oracle decodes float32)
  const shape = { type: 'sphere', center: c, radius: r };
  const id = `near-tangent-${i}`;
  if (rand() < 0.5) {
    const ray = { origin: o, dir: d };
    const tcut = rand();
    if (tcut < 0.3) {
      // tmax near the tangent point: the foot of the perpendicular, t0 = (c - o).d / d.d
      const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      const t0 = ((c[0] - o[0]) * d[0] + (c[1] - o[1]) * d[1] + (c[2] - o[2]) * d[2]) / dd;
      ray.tmax = f32(Math.abs(t0) * (1 + (rand() - 0.5) * 2 ** -20));
    }
    return { id, query: 'raycast', ray, shape };
  }
  const len = pick([1000, 200, 50]) * m * scale;
  const b = o.map((x, k) => f32(x + d[k] * len));
  return { id, query: 'linetest', segment: { a: o, b }, shape };
}

/** The distance from x to the next float32 away from zero (x a float32, not 0). */
function ulp(x) {
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  return 2 ** (Math.max(e, -126) - 23);
}

/** count deterministic near-tangent cases for seed. */
export function nearTangentCases(seed, count) {
  const rand = rng(seed);
  const cases = [];
  for (let i = 0; cases.length < count; ++i) {
    const c = makeCase(rand, i);
    if (c) cases.push(c);
  }
  return cases;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k, dflt) => {
    const i = process.argv.indexOf(k);
    return i >= 0 ? process.argv[i + 1] : dflt;
  };
  const seed = Number(arg('--seed', '1'));
  const count = Number(arg('--count', '3000'));
  const out = arg('--out');
  const cases = nearTangentCases(seed, count);
  if (process.argv.includes('--expect')) for (const c of cases) c.expect = { hit: oracle(c).result.hit };
  const comment = `Near-tangent rays and segments against spheres (tests/oracle/near-tangent.mjs --seed ${seed} --count ${count} --expect): Pythagorean configurations moved off tangency by 2^-149 to 2^-20. Each expect is the exact oracle's class (tests/oracle/exact.mjs); no allowance applies (issue 22).`;
  const doc = `{"format": "slabcast-cases/1",\n "comment": ${JSON.stringify(comment)},\n "cases": [\n${cases.map((c) => `  ${JSON.stringify(c)}`).join(',\n')}\n]}\n`;
  if (out) writeFileSync(out, doc);
  else process.stdout.write(doc);
}
