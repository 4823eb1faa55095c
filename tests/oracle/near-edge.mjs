// Near-edge rays, segments and points against OBBs and AABBs (issue 22, item 5): lines that pass
// an edge of a box by 2^-30 to 2^-120 of its size, which a double-precision test cannot see.
// - OBBs whose axes tilt by eps = 2^-e ([[1,0,eps],[0,1,0],[-eps,0,1]], orthonormal within eps^2,
//   coordinates permuted): a line through the corner x' = h, y' = h at z = z0 misses or hits by
//   eps * z0; a point at x = h, z = z0 is outside or inside by eps * z0.
// - AABB segments from a = (+-2^-e, 0, z) to a corner of the box, whose b - a is not a float32
//   vector (linetest tests the exact segment, docs/semantics.md): they touch the box.
// Every number is a float32; the exact answer is the oracle's (tests/oracle/exact.mjs).
//
//   node tests/oracle/near-edge.mjs --seed N --count K --out FILE [--expect]
import { writeFileSync } from 'node:fs';
import { oracle } from './exact.mjs';

function rng(seed) {
  let s = (seed >>> 0) || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}
const f32 = Math.fround;

function obbCase(rand, pick, id) {
  const eps = 2 ** -(30 + Math.floor(rand() * 91));
  const h = pick([1, 2, 0.5, 3]);
  const z0 = pick([0.5, -0.5, 0.25, -0.75, 0]) * h;
  const perm = pick([[0, 1, 2], [1, 2, 0], [2, 0, 1]]);
  const P = (v) => { const o = [0, 0, 0]; perm.forEach((p, k) => { o[p] = v[k]; }); return o; };
  const axes = [P([1, 0, eps]), P([0, 1, 0]), P([-eps, 0, 1])];
  const center = P([pick([0, 4, -8]), pick([0, 2]), 0]);
  const shape = { type: 'obb', center, axes, half: [h, h, h] };
  const sx = pick([1, -1]);
  const sy = pick([1, -1]);
  // the corner of the x' = sx h and y' = sy h faces at z = z0 (in box coordinates; x' = x + eps z)
  const corner = [sx * h, sy * h, z0];
  const kind = rand();
  if (kind < 0.2) {
    return { id, query: 'contains', point: P(corner).map((x, k) => x + center[k]), shape };
  }
  // a line through the corner along (sx, -sy) or (-sx, sy) * L: tangent to the edge
  const L = pick([4, 2, 8]) * h;
  const dir = pick([[sx, -sy, 0], [-sx, sy, 0]]);
  const start = [corner[0] - dir[0] * L, corner[1] - dir[1] * L, corner[2]];
  const o = P(start).map((x, k) => x + center[k]);
  const d = P(dir);
  if (kind < 0.6) {
    const ray = { origin: o, dir: d };
    if (rand() < 0.3) ray.tmax = L * pick([1, 2]);
    return { id, query: 'raycast', ray, shape };
  }
  const b = P([corner[0] + dir[0] * L, corner[1] + dir[1] * L, corner[2]]).map((x, k) => x + center[k]);
  return { id, query: 'linetest', segment: { a: o, b }, shape };
}

function aabbCase(rand, pick, id) {
  const e = 30 + Math.floor(rand() * 91);
  const tiny = pick([1, -1]) * 2 ** -e;
  const h = pick([1, 2, 0.5]);
  const shape = { type: 'aabb', min: [h, h, -h], max: [2 * h, 2 * h, h] };
  // the segment from a = (tiny, 0, z) to the corner b = (h, 2h, z) of the box: it touches the box
  // (a hit), while a + t fl(b - a) = a + t (h, 2h) passes the corner by tiny (a miss when tiny < 0)
  const a = [tiny, 0, pick([0, 0.5, -0.25]) * h];
  const b = [h, 2 * h, a[2]];
  return { id, query: 'linetest', segment: { a, b }, shape };
}

/** count deterministic near-edge cases for seed. */
export function nearEdgeCases(seed, count) {
  const rand = rng(seed);
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const cases = [];
  for (let i = 0; cases.length < count; ++i) {
    const c = rand() < 0.75 ? obbCase(rand, pick, `near-edge-${i}`) : aabbCase(rand, pick, `near-edge-${i}`);
    const nums = JSON.stringify(c).match(/-?\d[\d.e+-]*/g).map(Number);
    if (nums.every((x) => f32(x) === x)) cases.push(c);
  }
  return cases;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k, dflt) => {
    const i = process.argv.indexOf(k);
    return i >= 0 ? process.argv[i + 1] : dflt;
  };
  const seed = Number(arg('--seed', '1'));
  const count = Number(arg('--count', '1000'));
  const cases = nearEdgeCases(seed, count);
  if (process.argv.includes('--expect')) {
    for (const c of cases) {
      const r = oracle(c).result;
      c.expect = c.query === 'contains' ? { inside: r.inside } : { hit: r.hit };
    }
  }
  const comment = `Near-edge rays, segments and points against OBBs with axes tilted by 2^-30 to 2^-120, and AABB segments whose b - a is not a float32 vector (tests/oracle/near-edge.mjs --seed ${seed} --count ${count} --expect). Each expect is the exact oracle's class (tests/oracle/exact.mjs); no allowance applies (issue 22).`;
  const doc = `{"format": "slabcast-cases/1",\n "comment": ${JSON.stringify(comment)},\n "cases": [\n${cases.map((c) => `  ${JSON.stringify(c)}`).join(',\n')}\n]}\n`;
  const out = arg('--out');
  if (out) writeFileSync(out, doc);
  else process.stdout.write(doc);
}
