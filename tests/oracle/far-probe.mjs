#!/usr/bin/env node
// Far-shape probes: spheres and OBBs seen from 1e3 to 1e30 times their own size,
// with rays and segments aimed at their boundary (tangent, or just inside or
// outside it). docs/semantics.md ("far shapes"): the classification must not
// depend on the distance; like every classification it must be the exact one.
//
//   node tests/oracle/far-probe.mjs gen --seed N --count K --out FILE [--stable]
//       writes a case file; every `expect` is the exact oracle's class (hit only).
//       --stable keeps only cases whose class does not change when the shape grows
//       or shrinks by 1e-6 of its size (their expectation then holds without any
//       allowance: tests/cases/far.json is such a file).
//   node tests/oracle/far-probe.mjs judge CASES RESULTS
//       counts wrong classifications: a result is accepted when its class equals
//       the exact one (no allowance). Prints "N wrong of M"; exit 1 if N > 0.

import { readFileSync, writeFileSync } from 'node:fs';
import { oracle, evaluate, fromDouble, qadd, qmul, q } from './exact.mjs';

const f32 = Math.fround;

let state = 1;
function rand() {
  state = (state + 0x9e3779b9) | 0;
  let z = state;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const norm = (v) => {
  const l = Math.hypot(...v);
  return v.map((x) => x / l);
};
const randUnit = () => norm([rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1]);
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const add = (a, b) => a.map((x, i) => x + b[i]);
const sc = (a, s) => a.map((x) => x * s);

/** A random rotation as three float32 rows (orthonormal well within 1e-4). */
function randAxes() {
  const a = randUnit();
  const b = norm(cross(a, randUnit()));
  const c = cross(a, b);
  return [a, b, c].map((r) => r.map(f32));
}

/** One probe case: shape near the world origin or far from it, ray/segment from D sizes away. */
function probe(id) {
  const type = pick(['sphere', 'obb']);
  const size = f32((0.5 + rand() * 1.5) * 2 ** Math.floor(rand() * 7 - 3));
  const dist = size * 10 ** (3 + Math.floor(rand() * 28)); // 1e3 .. 1e30 sizes
  // The shape's centre: near the world origin, or itself far out (then the query
  // starts near the origin of the world, or further out still).
  const center = (rand() < 0.5 ? sc(randUnit(), size * 3) : sc(randUnit(), dist * rand())).map(f32);
  let shape;
  let target; // a point on (or a hair off) the boundary, relative to the centre
  const delta = pick([0, 1e-7, -1e-7, 1e-5, -1e-5, 1e-3, -1e-3, -0.1, -0.5]);
  if (type === 'sphere') {
    shape = { type: 'sphere', center, radius: size };
    target = sc(randUnit(), size * (1 + delta));
  } else {
    const axes = randAxes();
    const half = [size, f32(size * (0.25 + rand())), f32(size * (0.25 + rand()))];
    shape = { type: 'obb', center, axes, half };
    // an edge or a face point of the box, pushed out or in by delta
    const l = half.map((h) => (rand() < 0.7 ? pick([-1, 1]) : rand() * 2 - 1) * h * (1 + delta));
    target = add(add(sc(axes[0], l[0]), sc(axes[1], l[1])), sc(axes[2], l[2]));
  }
  const T = add(center, target);
  // Come from a direction perpendicular to the target offset (tangent-like rays).
  const w = norm(cross(target, randUnit()));
  const origin = add(T, sc(w, dist)).map(f32);
  const dir = norm(T.map((x, i) => x - origin[i])).map(f32);
  const query = pick(['raycast', 'raycast', 'linetest']);
  const c = { id, query, shape };
  if (query === 'raycast') {
    c.ray = { origin, dir };
    if (rand() < 0.3) c.ray.tmax = f32(dist * (1 + pick([0, 1e-7, -1e-7, 1e-4, -1e-4])));
  } else {
    const far = pick([0.5, 1, 2]);
    c.segment = { a: origin, b: origin.map((x, i) => f32(x + dir[i] * dist * (1 + far))) };
  }
  return c;
}

const shapeSize = (s) => (s.type === 'sphere' ? s.radius : Math.max(...s.half));
const classOf = (r) => (r.hit !== undefined ? r.hit : r.inside);

/** The exact classes of the case with its shape grown and shrunk by 1e-6 of its size. */
function grownShrunk(ora) {
  const eps = fromDouble(1e-6 * shapeSize(ora.input.shape));
  const out = [];
  for (const k of [1, -1]) {
    const ex = structuredClone(ora.exact);
    const e = k > 0 ? eps : qmul(eps, q(-1n));
    if (ex.shape.type === 'sphere') ex.shape.radius = qadd(ex.shape.radius, e);
    else ex.shape.half = ex.shape.half.map((h) => qadd(h, e));
    out.push(classOf(evaluate(ex)));
  }
  return out;
}

function gen(args) {
  state = args.seed | 0;
  const cases = [];
  let tries = 0;
  while (cases.length < args.count && tries < args.count * 20) {
    tries++;
    const c = probe(`far-${args.seed}-${tries}`);
    const ora = oracle(c);
    if (ora.error) continue;
    const cls = classOf(ora.result);
    if (args.stable && grownShrunk(ora).some((x) => x !== cls)) continue;
    c.expect = { hit: cls };
    cases.push(c);
  }
  const file = {
    format: 'slabcast-cases/1',
    comment:
      'Spheres and OBBs probed from 1e3 to 1e30 times their size away (tests/oracle/far-probe.mjs). ' +
      'Each expectation is the exact oracle class, and stays the same when the shape grows or shrinks ' +
      'by 1e-6 of its size: an implementation whose error grows with the distance fails them.',
    cases,
  };
  const text = `{\n  "format": ${JSON.stringify(file.format)},\n  "comment": ${JSON.stringify(file.comment)},\n  "cases": [\n${cases
    .map((c) => `    ${JSON.stringify(c)}`)
    .join(',\n')}\n  ]\n}\n`;
  writeFileSync(args.out, text);
  const hits = cases.filter((c) => c.expect.hit).length;
  process.stderr.write(`far-probe: ${cases.length} cases (${hits} hit, ${cases.length - hits} miss) from ${tries} tries\n`);
}

function judge(casesFile, resultsFile) {
  const cases = JSON.parse(readFileSync(casesFile, 'utf8')).cases;
  const raw = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const results = Array.isArray(raw) ? raw : raw.results;
  const byId = new Map(results.map((r) => [r.id, r]));
  let wrong = 0;
  let total = 0;
  const perDecade = new Map();
  for (const c of cases) {
    const ora = oracle(c);
    if (ora.error) continue;
    total++;
    const res = byId.get(c.id);
    const got = res ? classOf(res) : undefined;
    const want = classOf(ora.result);
    if (got === want) continue;
    wrong++;
    const o = c.ray ? c.ray.origin : c.segment.a;
    const cen = c.shape.center;
    const d = Math.hypot(o[0] - cen[0], o[1] - cen[1], o[2] - cen[2]) / shapeSize(c.shape);
    const dec = Math.floor(Math.log10(d));
    perDecade.set(dec, (perDecade.get(dec) ?? 0) + 1);
    if (wrong <= 5) process.stdout.write(`WRONG ${c.id}: ${c.query} ${c.shape.type} expected ${want}, got ${got} (distance ${d.toExponential(2)} sizes)\n`);
  }
  const dist = [...perDecade.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => `1e${k}:${v}`).join(' ');
  process.stdout.write(`${wrong} wrong of ${total}${dist ? ` (by distance/size: ${dist})` : ''}\n`);
  process.exit(wrong > 0 ? 1 : 0);
}

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'gen') {
  const args = { seed: 1, count: 1000, out: null, stable: false };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--seed') args.seed = Number(rest[++i]);
    else if (rest[i] === '--count') args.count = Number(rest[++i]);
    else if (rest[i] === '--out') args.out = rest[++i];
    else if (rest[i] === '--stable') args.stable = true;
    else throw new Error(`far-probe: unknown argument ${rest[i]}`);
  }
  if (!args.out) throw new Error('far-probe: --out is required');
  gen(args);
} else if (cmd === 'judge' && rest.length === 2) {
  judge(rest[0], rest[1]);
} else {
  process.stderr.write('usage: far-probe.mjs gen --seed N --count K --out FILE [--stable] | judge CASES RESULTS\n');
  process.exit(2);
}
