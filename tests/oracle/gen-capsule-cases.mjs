// Writes a capsule case file whose `expect`s come from the exact oracle (tests/oracle/capsule.mjs),
// never from slabcast: the adversarial cases of capsule-gen.mjs, `count` random ones, and invalid
// capsules with the runners' messages (docs/case-runner.md, docs/semantics.md "Errors").
//   node tests/oracle/gen-capsule-cases.mjs [--seed N] [--count K] [--out FILE]
// tests/cases/capsule.json is `--seed 24 --count 150`.
import { writeFileSync } from 'node:fs';
import { capsuleCases } from './capsule-gen.mjs';
import { closestPointCapsule, containsCapsule, linetestCapsule, normalBound, raycastCapsule } from './capsule.mjs';

const FLT_MAX = 3.4028234663852886e38;
const sat = (x) => (x > FLT_MAX ? FLT_MAX : x < -FLT_MAX ? -FLT_MAX : x);

/** The oracle's expectation for one case (the fields the runner's check compares). */
export function expectFor(c) {
  const sh = c.shape;
  switch (c.query) {
    case 'raycast': {
      const e = raycastCapsule(c.ray, sh);
      if (!e.hit) return { hit: false };
      const out = { hit: true, t: sat(e.t), t_enter: sat(e.t_enter), t_exit: sat(e.t_exit), point: e.point.map(sat) };
      // a zero-radius capsule has no unique outward normal, and a very thin one's normal is only
      // held to 2^-48 |b - a| / radius (docs/semantics.md, "Capsules"): no expectation then
      if (e.normal !== null && normalBound(sh) <= 1e-5) out.normal = e.normal;
      return out;
    }
    case 'linetest': return { hit: linetestCapsule(c.segment, sh) };
    case 'contains': return { inside: containsCapsule(c.point, sh) };
    default: return { point: closestPointCapsule(c.point, sh).point.map(sat) };
  }
}

const cap = { type: 'capsule', a: [0, 0, 0], b: [0, 0, 1], radius: 1 };
const ray = { origin: [0, 0, -5], dir: [0, 0, 1] };
/** Invalid capsules: structural messages (the runners) and semantic ones (sc_status_message). */
export const INVALID = [
  ['invalid-capsule-a-nan', { ...cap, a: [0, 'nan', 0] }, 'capsule.a is not finite'],
  ['invalid-capsule-b-inf', { ...cap, b: [0, 0, 'inf'] }, 'capsule.b is not finite'],
  ['invalid-capsule-a-overflow', { ...cap, a: [1e39, 0, 0] }, 'capsule.a is not finite'],
  ['invalid-capsule-radius-negative', { ...cap, radius: -1 }, 'capsule.radius is negative'],
  ['invalid-capsule-radius-tiny-negative', { ...cap, radius: -1e-45 }, 'capsule.radius is negative'],
  ['invalid-capsule-radius-nan', { ...cap, radius: 'nan' }, 'capsule.radius is not finite'],
  ['invalid-capsule-a-missing', { type: 'capsule', b: [0, 0, 1], radius: 1 }, '"shape.a" must be an array of 3 numbers'],
  ['invalid-capsule-b-short', { ...cap, b: [0, 1] }, '"shape.b" must be an array of 3 numbers'],
  ['invalid-capsule-radius-string', { ...cap, radius: '1' }, '"shape.radius" must be a number'],
  ['invalid-capsule-radius-missing', { type: 'capsule', a: [0, 0, 0], b: [0, 0, 1] }, '"shape.radius" must be a number'],
];

export function capsuleCaseFile(seed, count) {
  const cases = capsuleCases(seed, count).map((c) => ({ ...c, expect: expectFor(c) }));
  for (const [id, shape, msg] of INVALID) cases.push({ id, query: 'raycast', ray, shape, expect: { error: msg } });
  return cases;
}

function main(argv) {
  const arg = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
  const seed = Number(arg('--seed', 24));
  const count = Number(arg('--count', 120));
  const cases = capsuleCaseFile(seed, count);
  const lines = cases.map((c) => `  ${JSON.stringify(c)}`);
  const text = `{"format": "slabcast-cases/1", "comment": "capsules; expects from tests/oracle/capsule.mjs (node tests/oracle/gen-capsule-cases.mjs --seed ${seed} --count ${count})", "cases": [\n${lines.join(',\n')}\n]}\n`;
  const out = arg('--out', null);
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
  process.stderr.write(`${cases.length} capsule cases\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
