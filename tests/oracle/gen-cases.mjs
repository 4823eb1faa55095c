#!/usr/bin/env node
// slabcast case generator: deterministic, oracle-labelled case files.
//
//   node tests/oracle/gen-cases.mjs --seed N --count K --out FILE [--kind dyadic|general]
//
// --kind dyadic (default): small dyadic inputs (every number a multiple of
//   1/2 with magnitude <= 64, OBB axes a signed permutation of the world
//   axes), mostly built to land exactly on boundaries: grazing edges and
//   corners, origins on faces, rays sliding along faces, zero-thickness
//   boxes, tmax exactly at t_enter, tangent spheres, radius 0, rays in
//   planes... plus general random dyadic cases and a few invalid cases.
// --kind general: random float inputs (rotated OBBs etc.); only cases whose
//   answer is stable under the spec's 1e-6 nudges are kept.
//
// Every `expect` comes from the exact oracle (exact.mjs). A case outside the
// spec's exact class whose classification flips under a 1e-6 nudge gets only
// its exact class as `expect` (no numbers) and a "note" saying so.
// A summary of the counts per category is printed on stderr.

import { writeFileSync } from 'node:fs';
import { oracle, evaluate, nudges, inputNumbers, isSmallDyadic } from './exact.mjs';

// ---------------------------------------------------------------------------
// Arguments.
// ---------------------------------------------------------------------------

function parseArgs(argv) {
  const args = { seed: 1, count: 3000, out: null, kind: 'dyadic' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) usage(`missing value for ${a}`);
      return argv[++i];
    };
    if (a === '--seed') args.seed = Number(val());
    else if (a === '--count') args.count = Number(val());
    else if (a === '--out') args.out = val();
    else if (a === '--kind') args.kind = val();
    else usage(`unknown argument ${a}`);
  }
  if (!Number.isInteger(args.seed) || !Number.isInteger(args.count) || args.count < 1) usage('bad --seed or --count');
  if (!['dyadic', 'general'].includes(args.kind)) usage('bad --kind');
  if (!args.out) usage('--out is required');
  return args;
}

function usage(msg) {
  process.stderr.write(
    `gen-cases: ${msg}\nusage: node tests/oracle/gen-cases.mjs --seed N --count K --out FILE [--kind dyadic|general]\n`,
  );
  process.exit(2);
}

// ---------------------------------------------------------------------------
// Deterministic PRNG (splitmix32-style hash of a Weyl sequence) and helpers.
// ---------------------------------------------------------------------------

let rngState = 0;
function seedRng(seed) {
  rngState = (seed * 0x2545f491) | 0;
}
function rand() {
  rngState = (rngState + 0x9e3779b9) | 0;
  let z = rngState;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
}
/** Integer in [lo, hi]. */
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
/** Multiple of 1/2 in [lo, hi] (lo, hi multiples of 1/2). */
const half = (lo, hi) => int(Math.round(lo * 2), Math.round(hi * 2)) / 2;
/** Non-zero multiple of 1/2 with magnitude in [lo, hi]. */
const halfNZ = (lo, hi) => half(lo, hi) * (rand() < 0.5 ? -1 : 1);
const chance = (p) => rand() < p;
const pick = (arr) => arr[Math.floor(rand() * arr.length)];
const sign = () => (chance(0.5) ? 1 : -1);

// Vectors of numbers.
const add = (a, b) => a.map((x, i) => x + b[i]);
const sub = (a, b) => a.map((x, i) => x - b[i]);
const mul = (a, s) => a.map((x) => x * s);
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const isZero = (v) => v.every((x) => x === 0);
const unitAxis = (k, s = 1) => [0, 1, 2].map((i) => (i === k ? s : 0));
const otherAxes = (k) => [0, 1, 2].filter((i) => i !== k);

/** A random direction of halves; each component is 0 with probability pZero. Never zero. */
function randDir(pZero = 0.25, m = 4) {
  for (;;) {
    const d = [0, 1, 2].map(() => (chance(pZero) ? 0 : halfNZ(0.5, m)));
    if (!isZero(d)) return d;
  }
}

// ---------------------------------------------------------------------------
// Boxes in a frame: { min, max } (number triples). Used directly for AABBs
// and, centred (min = -h, max = h), as the local frame of OBBs.
// ---------------------------------------------------------------------------

/** A random box; `thin` axes (a list) get zero thickness. */
function randBox(thin = []) {
  const min = [0, 1, 2].map(() => half(-6, 6));
  const size = [0, 1, 2].map((i) => (thin.includes(i) ? 0 : chance(0.05) ? 0 : half(0.5, 6)));
  return { min, max: add(min, size) };
}

/** A centred box for an OBB's local frame. */
function randCentredBox(thin = []) {
  const h = [0, 1, 2].map((i) => (thin.includes(i) ? 0 : chance(0.05) ? 0 : half(0.5, 4)));
  return { min: mul(h, -1).map((x) => x + 0), max: h };
}

const randThin = () => {
  const axes = [0, 1, 2].sort(() => rand() - 0.5);
  return axes.slice(0, int(1, 3));
};

const pointIn = (box) => [0, 1, 2].map((i) => half(box.min[i], box.max[i]));
const pointNear = (box, m) => [0, 1, 2].map((i) => half(box.min[i] - m, box.max[i] + m));
/** A point strictly inside when the box is thick enough, else on its boundary. */
const pointInterior = (box) =>
  [0, 1, 2].map((i) =>
    box.max[i] - box.min[i] >= 1 ? half(box.min[i] + 0.5, box.max[i] - 0.5) : half(box.min[i], box.max[i]),
  );

/** A point on face (axis, side) of the box (side -1: min, +1: max). */
function facePoint(box, axis, side, slack = 0) {
  const p = [0, 1, 2].map((i) => half(box.min[i] - slack, box.max[i] + slack));
  p[axis] = side < 0 ? box.min[axis] : box.max[axis];
  return p;
}

/**
 * A point on an edge (2 axes at bounds) or a corner (3 axes at bounds), with
 * the outward signs of the bound axes: { p, signs: [{ axis, s }] }.
 */
function edgeOrCorner(box, corner) {
  const p = pointIn(box);
  const axes = corner ? [0, 1, 2] : otherAxes(int(0, 2));
  const signs = axes.map((axis) => {
    const s = sign();
    p[axis] = s < 0 ? box.min[axis] : box.max[axis];
    return { axis, s };
  });
  return { p, signs };
}

/**
 * A direction that grazes an edge / corner: along it one bound axis leaves
 * the box forwards (s*d > 0) and another leaves it backwards (s*d < 0).
 */
function grazeDir(signs) {
  const d = randDir(0.3, 3);
  const [f, b] = [...signs].sort(() => rand() - 0.5);
  d[f.axis] = f.s * half(0.5, 3);
  d[b.axis] = -b.s * half(0.5, 3);
  return d;
}

// Raycast constructions in a box frame: each returns { ray } (tmax optional).
const boxRay = {
  random(box) {
    const ray = { origin: pointNear(box, 6), dir: randDir() };
    if (chance(0.3)) ray.tmax = half(0, 16);
    return ray;
  },
  aimed(box) {
    const target = pointIn(box);
    const origin = pointNear(box, 8);
    const d = sub(target, origin);
    const ray = { origin, dir: isZero(d) ? randDir() : d };
    if (chance(0.2)) ray.tmax = pick([1, 0.5, half(0, 4)]);
    return ray;
  },
  // Origin on a face; the direction component across it is 0/-0, inward or outward.
  face(box) {
    const axis = int(0, 2);
    const side = sign();
    const origin = facePoint(box, axis, side, chance(0.3) ? 2 : 0);
    const dir = randDir(0.35, 3);
    dir[axis] = pick([0, 0, -side * half(0.5, 3), side * half(0.5, 3)]);
    if (isZero(dir)) dir[otherAxes(axis)[0]] = halfNZ(0.5, 2);
    const ray = { origin, dir };
    if (chance(0.2)) ray.tmax = pick([0, 0.5, 1]);
    return ray;
  },
  // Through an edge or corner with a grazing direction; sometimes shifted by 1/2.
  graze(box) {
    const { p, signs } = edgeOrCorner(box, chance(0.5));
    const dir = grazeDir(signs);
    const k = int(0, 3);
    const origin = sub(p, mul(dir, k));
    if (chance(0.3)) origin[int(0, 2)] += pick([0.5, -0.5]);
    const ray = { origin, dir };
    if (chance(0.25)) ray.tmax = pick([k, Math.max(0, k - 0.5)]);
    return ray;
  },
  // Lying in a face plane (or 1/2 off it), moving parallel to it, often aimed
  // at a point of the face (or of its edges).
  slide(box) {
    const axis = int(0, 2);
    const side = sign();
    const origin = pointNear(box, 4);
    origin[axis] = (side < 0 ? box.min[axis] : box.max[axis]) + pick([0, 0, 0, 0.5, -0.5]);
    let dir = randDir(0.3, 3);
    if (chance(0.6)) dir = sub(facePoint(box, axis, side), origin);
    dir[axis] = 0;
    if (isZero(dir)) dir[otherAxes(axis)[int(0, 1)]] = halfNZ(0.5, 3);
    const ray = { origin, dir };
    if (chance(0.2)) ray.tmax = half(0, 8);
    return ray;
  },
  // Entering through a face at t = k exactly; tmax = k (hit) or k - 1/2 (miss).
  tmax(box) {
    const axis = int(0, 2);
    const side = sign();
    const p = facePoint(box, axis, side);
    const dir = randDir(0.3, 3);
    dir[axis] = -side * half(0.5, 3);
    const k = int(0, 4);
    const tmax = pick([k, k, k - 0.5, k + 0.5]);
    return { origin: sub(p, mul(dir, k)), dir, tmax: Math.max(0, tmax) };
  },
  // Origin inside or on the boundary.
  inside(box) {
    const ray = { origin: chance(0.5) ? pointInterior(box) : pointIn(box), dir: randDir() };
    if (chance(0.2)) ray.tmax = pick([0, 0.5, 2]);
    return ray;
  },
};

// Linetest constructions in a box frame: each returns { a, b }.
const boxSeg = {
  random(box) {
    return { a: pointNear(box, 5), b: pointNear(box, 5) };
  },
  inside(box) {
    return { a: pointIn(box), b: pointIn(box) };
  },
  cross(box) {
    const p = pointIn(box);
    const w = randDir(0.3, 2);
    return { a: sub(p, mul(w, int(1, 3))), b: add(p, mul(w, int(0, 3))) };
  },
  // Ends exactly on a face (hit), or 1/2 short of it (miss).
  endface(box) {
    const axis = int(0, 2);
    const side = sign();
    const b = facePoint(box, axis, side);
    const w = randDir(0.4, 2);
    w[axis] = side * half(0.5, 2); // outward
    const a = add(b, mul(w, int(1, 3)));
    if (chance(0.35)) b[axis] += side * 0.5;
    return chance(0.5) ? { a, b } : { a: b, b: a };
  },
  zero(box) {
    const r = rand();
    let p;
    if (r < 0.3) p = pointInterior(box);
    else if (r < 0.7) p = facePoint(box, int(0, 2), sign());
    else {
      p = facePoint(box, int(0, 2), sign());
      p[int(0, 2)] += pick([0.5, -0.5]);
    }
    return { a: p, b: [...p] };
  },
  graze(box) {
    const { p, signs } = edgeOrCorner(box, chance(0.5));
    const d = grazeDir(signs);
    const a = sub(p, mul(d, int(0, 2)));
    const b = add(p, mul(d, int(0, 2)));
    if (chance(0.25)) a[int(0, 2)] += pick([0.5, -0.5]);
    return { a, b };
  },
  slide(box) {
    const axis = int(0, 2);
    const side = sign();
    const a = pointNear(box, 3);
    const b = pointNear(box, 3);
    a[axis] = b[axis] = (side < 0 ? box.min[axis] : box.max[axis]) + pick([0, 0, 0.5, -0.5]);
    return { a, b };
  },
};

// Point constructions in a box frame (closest_point and contains).
const boxPoint = {
  random: (box) => pointNear(box, 5),
  inside: (box) => pointInterior(box),
  surface: (box) => (chance(0.5) ? facePoint(box, int(0, 2), sign()) : edgeOrCorner(box, chance(0.5)).p),
  outside(box) {
    const axis = int(0, 2);
    const side = sign();
    const p = facePoint(box, axis, side);
    p[axis] += side * pick([0.5, 0.5, 1, half(0.5, 4)]);
    return p;
  },
};

// ---------------------------------------------------------------------------
// Case builders per shape. Each returns { query, <input>, shape, cat }.
// ---------------------------------------------------------------------------

const RAY_CATS = Object.keys(boxRay);
const SEG_CATS = Object.keys(boxSeg);
const PT_CATS = Object.keys(boxPoint);

/** Build a query in a box frame: category names are "<cat>", "seg-<cat>", "closest-<cat>", "contains-<cat>". */
function frameQuery(box, query, cat) {
  if (query === 'raycast') return { ray: boxRay[cat](box) };
  if (query === 'linetest') return { segment: boxSeg[cat](box) };
  return { point: boxPoint[cat](box) };
}

const queryPrefix = { raycast: '', linetest: 'seg-', closest_point: 'closest-', contains: 'contains-' };

function aabbCase(query, cat, thin) {
  const box = thin ? randBox(randThin()) : randBox();
  return { query, ...frameQuery(box, query, cat), shape: { type: 'aabb', min: box.min, max: box.max } };
}

/** A random signed permutation: rows a_i = s_i e_{perm[i]}. */
function randSignedPerm() {
  const perm = [0, 1, 2].sort(() => rand() - 0.5);
  return perm.map((k) => unitAxis(k, sign()));
}

function obbCase(query, cat, thin) {
  const box = thin ? randCentredBox(randThin()) : randCentredBox();
  const axes = randSignedPerm();
  const center = [0, 1, 2].map(() => half(-8, 8));
  // Local -> world: p = c + sum local_i a_i (direction: without c).
  const toWorldDir = (l) => add(add(mul(axes[0], l[0]), mul(axes[1], l[1])), mul(axes[2], l[2]));
  const toWorld = (l) => add(center, toWorldDir(l));
  const local = frameQuery(box, query, cat);
  const c = { query };
  if (local.ray) {
    c.ray = { origin: toWorld(local.ray.origin), dir: toWorldDir(local.ray.dir) };
    if (local.ray.tmax !== undefined) c.ray.tmax = local.ray.tmax;
  }
  if (local.segment) c.segment = { a: toWorld(local.segment.a), b: toWorld(local.segment.b) };
  if (local.point) c.point = toWorld(local.point);
  c.shape = { type: 'obb', center, axes, half: box.max };
  return c;
}

// Pythagorean triples / 2: perpendicular offsets (d1, d2) with d1^2 + d2^2 = r^2.
const TRIPLES = [
  [1.5, 2, 2.5],
  [3, 4, 5],
  [2.5, 6, 6.5],
  [4, 7.5, 8.5],
  [0.5, 0, 0.5],
];

/** A point on a sphere exactly (axis point or Pythagorean point). */
function spherePoint(c, r) {
  const k = int(0, 2);
  if (chance(0.5) || r === 0) return add(c, unitAxis(k, sign() * r));
  // Scale a triple so that its hypotenuse is r when possible, else use the triple's own radius.
  const [x, y] = pick(TRIPLES.filter((t) => t[2] === r)) ?? [0, r];
  const [i, j] = otherAxes(k).sort(() => rand() - 0.5);
  const p = [...c];
  p[i] += sign() * x;
  p[j] += sign() * y;
  return p;
}

const SPHERE_CATS = {
  raycast: ['tangent', 'surface', 'tmax', 'zero', 'inside', 'aimed', 'random'],
  linetest: ['tangent', 'endsurf', 'inside', 'zero', 'random'],
  closest_point: ['random', 'inside', 'surface', 'center', 'zero'],
  contains: ['surface', 'inside', 'outside', 'random', 'zero'],
};

/** A sphere radius: often the hypotenuse of a triple, so that triple points lie on it. */
const sphereRadius = () => (chance(0.4) ? pick(TRIPLES)[2] : half(0.5, 6));

function sphereCase(query, cat) {
  const c = [0, 1, 2].map(() => half(-8, 8));
  let r = cat === 'zero' ? 0 : sphereRadius();
  const out = { query };
  // An axis-parallel line at perpendicular offset (dj on axis j, dl on axis l) from the centre.
  const axisLine = (offsets) => {
    const k = int(0, 2);
    const [j, l] = otherAxes(k).sort(() => rand() - 0.5);
    const [dj, dl] = offsets;
    const p = [...c];
    p[j] += sign() * dj;
    p[l] += sign() * dl;
    return { k, p };
  };
  if (query === 'raycast') {
    let ray;
    if (cat === 'tangent' || cat === 'zero') {
      // Perpendicular offset exactly r, or r -+ 1/2.
      const t = pick(TRIPLES.filter((x) => x[2] === r));
      const delta = pick([0, 0, 0.5, -0.5]);
      const offs = t && chance(0.5) ? [t[0], t[1]] : [Math.max(0, r + delta), 0];
      const { k, p } = axisLine(offs);
      const s = sign();
      const m = half(0.5, 3);
      const L = half(-4, 10);
      ray = { origin: add(p, unitAxis(k, -s * L)), dir: unitAxis(k, s * m) };
    } else if (cat === 'surface') {
      const origin = spherePoint(c, r);
      const m = sub(origin, c);
      const pickDir = rand();
      let dir;
      if (pickDir < 0.3 && m.filter((x) => x !== 0).length === 1) dir = mul(m.map(Math.sign), sign() * half(0.5, 2));
      else if (pickDir < 0.7) dir = unitAxis(int(0, 2), sign() * half(0.5, 2));
      else dir = randDir(0.2, 3);
      ray = { origin, dir };
    } else if (cat === 'tmax') {
      // Axis-parallel, entering at t = k exactly.
      const t = chance(0.5) ? pick(TRIPLES) : [0, r, r]; // [offset, half chord, radius]
      r = t[2];
      const { k: axis, p } = axisLine([t[0], 0]);
      const s = sign();
      const m = half(0.5, 2);
      const k = int(0, 4);
      const origin = add(p, unitAxis(axis, -s * (t[1] + k * m)));
      ray = { origin, dir: unitAxis(axis, s * m), tmax: Math.max(0, pick([k, k, k - 0.5])) };
    } else if (cat === 'inside') {
      ray = { origin: add(c, [0, 1, 2].map(() => half(-r / 2, r / 2))), dir: chance(0.5) ? randDir(0.6) : randDir(0) };
    } else if (cat === 'aimed') {
      const target = add(c, [0, 1, 2].map(() => half(-r / 2, r / 2)));
      const origin = add(c, [0, 1, 2].map(() => half(-10, 10)));
      const d = sub(target, origin);
      ray = { origin, dir: isZero(d) ? randDir() : d };
    } else {
      ray = { origin: add(c, [0, 1, 2].map(() => half(-10, 10))), dir: randDir(0.3) };
      if (chance(0.3)) ray.tmax = half(0, 16);
    }
    out.ray = ray;
  } else if (query === 'linetest') {
    let seg;
    if (cat === 'tangent') {
      const { k, p } = axisLine([r + pick([0, 0, 0.5, -0.5]), 0]);
      const a = add(p, unitAxis(k, half(-6, 6)));
      const b = add(p, unitAxis(k, half(-6, 6)));
      if (isZero(sub(a, b))) b[k] += 1;
      seg = { a, b };
    } else if (cat === 'endsurf') {
      const k = int(0, 2);
      const s = sign();
      const b = add(c, unitAxis(k, s * (r + pick([0, 0, 0.5]))));
      const a = add(b, unitAxis(k, s * half(0.5, 6)));
      seg = chance(0.5) ? { a, b } : { a: b, b: a };
    } else if (cat === 'inside') {
      const q = () => add(c, [0, 1, 2].map(() => half(-r / 2, r / 2)));
      seg = { a: q(), b: q() };
    } else if (cat === 'zero') {
      const p = chance(0.5) ? spherePoint(c, r) : add(c, [0, 1, 2].map(() => half(-r - 1, r + 1)));
      seg = { a: p, b: [...p] };
    } else {
      seg = { a: add(c, [0, 1, 2].map(() => half(-9, 9))), b: add(c, [0, 1, 2].map(() => half(-9, 9))) };
    }
    out.segment = seg;
  } else {
    let p;
    if (cat === 'surface') p = spherePoint(c, r);
    else if (cat === 'inside') p = add(c, [0, 1, 2].map(() => half(-r / 2, r / 2)));
    else if (cat === 'center') p = [...c];
    else if (cat === 'zero') p = chance(0.5) ? [...c] : add(c, randDir(0.5, 1)); // radius 0
    else if (cat === 'outside') {
      const k = int(0, 2);
      p = add(c, unitAxis(k, sign() * (r + pick([0.5, 1]))));
    } else p = add(c, [0, 1, 2].map(() => half(-9, 9)));
    out.point = p;
  }
  out.shape = { type: 'sphere', center: c, radius: r };
  return out;
}

const PLANE_CATS = {
  raycast: ['attmax', 'parallel', 'origin', 'behind', 'random'],
  linetest: ['endpoint', 'cross', 'sameside', 'inplane', 'zero', 'random'],
  closest_point: ['random', 'onplane'],
  contains: ['error'],
};

function randPlaneNormal() {
  if (chance(0.4)) return unitAxis(int(0, 2), halfNZ(0.5, 3));
  for (;;) {
    const n = [0, 1, 2].map(() => (chance(0.2) ? 0 : half(-3, 3)));
    if (!isZero(n)) return n;
  }
}

/** A direction with n . d != 0 (crossing) or == 0 (parallel). */
function planeDir(n, parallel) {
  for (;;) {
    const d = parallel ? cross(n, randDir(0.3, 2)) : randDir(0.3, 3);
    if (isZero(d)) continue;
    if (parallel === (dot(n, d) === 0)) return d;
  }
}

function planeCase(query, cat) {
  const n = randPlaneNormal();
  const P = [0, 1, 2].map(() => half(-6, 6)); // a point of the plane
  const d = dot(n, P);
  const out = { query };
  const off = () => {
    // a point off the plane
    for (;;) {
      const q = add(P, randDir(0.3, 2));
      if (dot(n, q) !== d) return q;
    }
  };
  if (query === 'raycast') {
    if (cat === 'attmax') {
      const dir = planeDir(n, false);
      const k = int(1, 4);
      out.ray = { origin: sub(P, mul(dir, k)), dir };
      const tm = pick([k, k, k - 0.5, k + 0.5, undefined]);
      if (tm !== undefined) out.ray.tmax = tm;
    } else if (cat === 'parallel') {
      out.ray = { origin: chance(0.5) ? P : off(), dir: planeDir(n, true) };
    } else if (cat === 'origin') {
      out.ray = { origin: P, dir: planeDir(n, chance(0.2)) };
      if (chance(0.3)) out.ray.tmax = 0;
    } else if (cat === 'behind') {
      const dir = planeDir(n, false);
      out.ray = { origin: add(P, mul(dir, int(1, 3))), dir };
    } else {
      out.ray = { origin: add(P, [0, 1, 2].map(() => half(-6, 6))), dir: randDir(0.3) };
      if (chance(0.3)) out.ray.tmax = half(0, 8);
    }
  } else if (query === 'linetest') {
    if (cat === 'endpoint') out.segment = chance(0.5) ? { a: P, b: off() } : { a: off(), b: P };
    else if (cat === 'cross') {
      const dir = planeDir(n, false);
      out.segment = { a: sub(P, mul(dir, int(1, 3))), b: add(P, mul(dir, int(1, 3))) };
    } else if (cat === 'sameside') {
      const dir = planeDir(n, false);
      out.segment = { a: add(P, mul(dir, int(1, 2))), b: add(P, mul(dir, half(0.5, 3))) };
    } else if (cat === 'inplane') {
      out.segment = { a: P, b: add(P, planeDir(n, true)) };
    } else if (cat === 'zero') {
      const p = chance(0.5) ? P : off();
      out.segment = { a: p, b: [...p] };
    } else out.segment = { a: add(P, randDir(0.2, 5)), b: add(P, randDir(0.2, 5)) };
  } else if (query === 'closest_point') {
    out.point = cat === 'onplane' ? P : add(P, [0, 1, 2].map(() => half(-6, 6)));
  } else {
    out.point = off();
  }
  out.shape = { type: 'plane', normal: n, d };
  return out;
}

// ---------------------------------------------------------------------------
// Invalid cases: one builder per kind of error in the spec.
// ---------------------------------------------------------------------------

const okRay = () => ({ origin: [0, 0, -5], dir: [0, 0, 1] });
const okBox = () => ({ type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] });
const INVALID = {
  'origin-nan': () => ({ query: 'raycast', ray: { origin: [0, 'nan', 0], dir: [1, 0, 0] }, shape: okBox() }),
  'dir-inf': () => ({ query: 'raycast', ray: { origin: [0, 0, -5], dir: ['inf', 0, 1] }, shape: okBox() }),
  'dir-overflow': () => ({ query: 'raycast', ray: { origin: [0, 0, -5], dir: [0, 1e39, 1] }, shape: okBox() }),
  'dir-zero': () => ({ query: 'raycast', ray: { origin: [0, 0, -5], dir: [0, -0, 0] }, shape: okBox() }),
  'tmax-negative': () => ({ query: 'raycast', ray: { ...okRay(), tmax: -0.5 }, shape: okBox() }),
  'tmax-nan': () => ({ query: 'raycast', ray: { ...okRay(), tmax: 'nan' }, shape: okBox() }),
  'tmax-neg-inf': () => ({ query: 'raycast', ray: { ...okRay(), tmax: '-inf' }, shape: okBox() }),
  'tmax-string': () => ({ query: 'raycast', ray: { ...okRay(), tmax: '5' }, shape: okBox() }),
  'aabb-min-gt-max': () => ({ query: 'raycast', ray: okRay(), shape: { type: 'aabb', min: [-1, 1, -1], max: [1, 0.5, 1] } }),
  'aabb-nan': () => ({ query: 'contains', point: [0, 0, 0], shape: { type: 'aabb', min: [-1, -1, -1], max: [1, 'nan', 1] } }),
  'obb-not-orthonormal': () => ({
    query: 'raycast',
    ray: okRay(),
    shape: { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1.5, 0], [0, 0, 1]], half: [1, 1, 1] },
  }),
  'obb-skewed': () => ({
    query: 'contains',
    point: [0, 0, 0],
    shape: { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0.5, 1, 0], [0, 0, 1]], half: [1, 1, 1] },
  }),
  'obb-negative-half': () => ({
    query: 'linetest',
    segment: { a: [0, 0, 0], b: [1, 1, 1] },
    shape: { type: 'obb', center: [0, 0, 0], axes: [[0, 1, 0], [1, 0, 0], [0, 0, -1]], half: [1, -0.5, 1] },
  }),
  'obb-axes-mistyped': () => ({
    query: 'raycast',
    ray: okRay(),
    shape: { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0]], half: [1, 1, 1] },
  }),
  'sphere-negative-radius': () => ({ query: 'raycast', ray: okRay(), shape: { type: 'sphere', center: [0, 0, 0], radius: -1 } }),
  'sphere-inf-center': () => ({ query: 'closest_point', point: [1, 2, 3], shape: { type: 'sphere', center: ['-inf', 0, 0], radius: 1 } }),
  'plane-zero-normal': () => ({ query: 'raycast', ray: okRay(), shape: { type: 'plane', normal: [0, -0, 0], d: 1 } }),
  'plane-nan-d': () => ({ query: 'linetest', segment: { a: [0, 0, 0], b: [0, 0, 2] }, shape: { type: 'plane', normal: [0, 0, 1], d: 'nan' } }),
  'contains-plane': () => ({ query: 'contains', point: [0, 0, 0], shape: { type: 'plane', normal: [0, 1, 0], d: 0 } }),
  'missing-dir': () => ({ query: 'raycast', ray: { origin: [0, 0, 0] }, shape: okBox() }),
  'vector-too-short': () => ({ query: 'raycast', ray: { origin: [0, 0], dir: [1, 0, 0] }, shape: okBox() }),
  'number-as-string': () => ({ query: 'contains', point: [0, '1', 0], shape: okBox() }),
  'missing-shape': () => ({ query: 'contains', point: [0, 0, 0] }),
  'unknown-query': () => ({ query: 'sweep', ray: okRay(), shape: okBox() }),
  'unknown-shape': () => ({ query: 'raycast', ray: okRay(), shape: { type: 'cylinder', a: [0, 0, 0], b: [0, 0, 1], radius: 1 } }),
  'segment-nan': () => ({ query: 'linetest', segment: { a: [0, 0, 0], b: ['nan', 0, 0] }, shape: okBox() }),
  'point-inf': () => ({ query: 'closest_point', point: [0, 0, 'inf'], shape: okBox() }),
  'radius-mistyped': () => ({ query: 'contains', point: [0, 0, 0], shape: { type: 'sphere', center: [0, 0, 0], radius: [1] } }),
};

// ---------------------------------------------------------------------------
// General (non-dyadic) random cases.
// ---------------------------------------------------------------------------

const f32 = Math.fround;
const rnd = (lo, hi) => f32(lo + (hi - lo) * rand());
const rvec = (m) => [0, 1, 2].map(() => rnd(-m, m));

/** A random rotation's rows, rounded to float32 (orthonormal within ~1e-7). */
function randRotation() {
  let qv;
  do qv = [rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1];
  while (Math.hypot(...qv) < 0.1);
  const l = Math.hypot(...qv);
  const [w, x, y, z] = qv.map((v) => v / l);
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)],
    [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)],
    [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)],
  ].map((r) => r.map(f32));
}

function generalCase(query, type) {
  const m = pick([1, 10, 100, 1000]);
  let shape;
  let inside;
  if (type === 'aabb') {
    const a = rvec(m);
    const b = rvec(m);
    shape = { type, min: a.map((x, i) => Math.min(x, b[i])), max: a.map((x, i) => Math.max(x, b[i])) };
    inside = () => shape.min.map((x, i) => rnd(x, shape.max[i]));
  } else if (type === 'obb') {
    shape = { type, center: rvec(m), axes: randRotation(), half: [0, 1, 2].map(() => rnd(0, m)) };
    inside = () => {
      const l = shape.half.map((h) => rnd(-h, h));
      return shape.center.map((c, i) => f32(c + l[0] * shape.axes[0][i] + l[1] * shape.axes[1][i] + l[2] * shape.axes[2][i]));
    };
  } else if (type === 'sphere') {
    shape = { type, center: rvec(m), radius: rnd(0, m) };
    inside = () => shape.center.map((c) => rnd(c - shape.radius / 2, c + shape.radius / 2));
  } else {
    shape = { type, normal: rvec(1), d: rnd(-m, m) };
    inside = () => rvec(m);
  }
  const c = { query };
  const far = () => rvec(3 * m);
  if (query === 'raycast') {
    const o = far();
    const d = chance(0.6) ? sub(inside(), o).map(f32) : rvec(1);
    c.ray = { origin: o, dir: isZero(d) ? [1, 0, 0] : d };
    if (chance(0.3)) c.ray.tmax = rnd(0, 2);
  } else if (query === 'linetest') {
    c.segment = chance(0.5) ? { a: far(), b: far() } : { a: far(), b: inside() };
  } else c.point = chance(0.5) ? far() : inside();
  c.shape = shape;
  return c;
}

// ---------------------------------------------------------------------------
// Labelling with the oracle.
// ---------------------------------------------------------------------------

/** Turn each zero input number into -0 with probability 1/2 (-0 must behave like 0). */
function sprinkleNegativeZero(c) {
  const walk = (v) => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        if (v[i] === 0 && chance(0.5)) v[i] = -0;
        else if (typeof v[i] === 'object') walk(v[i]);
      }
    } else if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        if (v[k] === 0 && chance(0.5)) v[k] = -0;
        else if (typeof v[k] === 'object') walk(v[k]);
      }
    }
  };
  for (const k of ['ray', 'segment', 'point', 'shape']) if (c[k]) walk(c[k]);
}

/** The classification field of a result. */
const classOf = (r) => (r.hit !== undefined ? r.hit : r.inside);

/**
 * How a case reacts to the 1e-6 nudges: 'flips' (classification changes),
 * 'drifts' (numbers move by more than a tenth of the tolerance) or 'stable'.
 */
function nudgeReaction(ora) {
  const tol = 1e-5 * ora.scale;
  const base = ora.result;
  let drifts = false;
  for (const ex of nudges(ora.exact, ora.scale)) {
    const r = evaluate(ex);
    if (ora.input.query !== 'closest_point' && classOf(r) !== classOf(base)) return 'flips';
    const close = (a, b) => a.every((x, i) => Math.abs(x - b[i]) <= tol);
    if (base.point && r.point && !close(base.point, r.point)) drifts = true;
    if (base.hit && r.hit) {
      for (const k of ['t', 'tEnter', 'tExit']) if (Math.abs(base[k] - r[k]) * ora.dirLen > tol) drifts = true;
    }
  }
  return drifts ? 'drifts' : 'stable';
}

/** Round an expected number for printing: exact dyadics stay exact, others get 12 digits. */
function expNum(x) {
  const s = String(x);
  return s.length > 14 ? Number(x.toPrecision(12)) : x;
}

/** The `expect` object of a valid case (or null when it must be left out). */
function expectOf(ora, reaction) {
  const r = ora.result;
  const q = ora.input.query;
  // a class that flips under a nudge is still required exactly (issue 22); the numbers are left out
  if (reaction === 'flips') return q === 'contains' ? { inside: r.inside } : { hit: r.hit };
  if (q === 'closest_point') return reaction === 'drifts' ? null : { point: r.point.map(expNum) };
  if (q === 'contains') return { inside: r.inside };
  if (q === 'linetest') return { hit: r.hit };
  const e = { hit: r.hit };
  if (!r.hit || reaction === 'drifts') return e;
  e.t = expNum(r.t);
  e.t_enter = expNum(r.tEnter);
  e.t_exit = expNum(r.tExit);
  e.point = r.point.map(expNum);
  if (r.tEnterSign < 0) e.normal = [0, 0, 0];
  else {
    const onFaces = r.faces.filter((f) => f.exact);
    if (onFaces.length === 1 && !(r.sphere && r.sphere.radius === 0)) e.normal = onFaces[0].normal.map(expNum);
  }
  return e;
}

// ---------------------------------------------------------------------------
// Output: one case per line; -0 is written as -0.
// ---------------------------------------------------------------------------

function toJson(v) {
  if (typeof v === 'number') {
    if (Object.is(v, -0)) return '-0';
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(toJson).join(', ')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}: ${toJson(v[k])}`)
      .join(', ')}}`;
  }
  return JSON.stringify(v);
}

// ---------------------------------------------------------------------------
// The plan: how many cases of each (shape, query, category).
// ---------------------------------------------------------------------------

/** [shape, query, category, weight, builder] for the dyadic kind. */
function dyadicPlan() {
  const plan = [];
  const rayW = { random: 3, aimed: 2, face: 4, graze: 5, slide: 4, tmax: 3, inside: 2 };
  const segW = { random: 2, inside: 1.5, cross: 1.5, endface: 3, zero: 2, graze: 3, slide: 2 };
  const ptW = { random: 2, inside: 1, surface: 3, outside: 2 };
  for (const [type, build, w] of [
    ['aabb', aabbCase, 1.2],
    ['obb', obbCase, 0.9],
  ]) {
    for (const cat of RAY_CATS) {
      plan.push([type, 'raycast', cat, rayW[cat] * w, () => build('raycast', cat, false)]);
      plan.push([type, 'raycast', `thin-${cat}`, rayW[cat] * w * 0.35, () => build('raycast', cat, true)]);
    }
    for (const cat of SEG_CATS) {
      plan.push([type, 'linetest', `seg-${cat}`, segW[cat] * w, () => build('linetest', cat, false)]);
      plan.push([type, 'linetest', `seg-thin-${cat}`, segW[cat] * w * 0.3, () => build('linetest', cat, true)]);
    }
    for (const cat of PT_CATS) {
      plan.push([type, 'closest_point', `closest-${cat}`, ptW[cat] * w * 0.6, () => build('closest_point', cat, chance(0.2))]);
      plan.push([type, 'contains', `contains-${cat}`, ptW[cat] * w * 0.8, () => build('contains', cat, chance(0.25))]);
    }
  }
  const sphW = { raycast: 4.5, linetest: 3.5, closest_point: 1.6, contains: 2.2 };
  for (const [query, cats] of Object.entries(SPHERE_CATS)) {
    for (const cat of cats) {
      plan.push(['sphere', query, `${queryPrefix[query]}${cat}`, sphW[query], () => sphereCase(query, cat)]);
    }
  }
  const plW = { raycast: 3.5, linetest: 2.2, closest_point: 2.5, contains: 1.5 };
  for (const [query, cats] of Object.entries(PLANE_CATS)) {
    for (const cat of cats) {
      plan.push(['plane', query, `${queryPrefix[query]}${cat}`, plW[query], () => planeCase(query, cat)]);
    }
  }
  return plan;
}

function generalPlan() {
  const plan = [];
  for (const type of ['aabb', 'obb', 'sphere', 'plane']) {
    for (const query of ['raycast', 'linetest', 'closest_point', 'contains']) {
      if (type === 'plane' && query === 'contains') continue;
      plan.push([type, query, `general-${queryPrefix[query]}random`, query === 'raycast' ? 3 : 1, () => generalCase(query, type)]);
    }
  }
  return plan;
}

// ---------------------------------------------------------------------------
// Main.
// ---------------------------------------------------------------------------

function main() {
  const args = parseArgs(process.argv.slice(2));
  seedRng(args.seed);
  const cases = [];
  const stats = new Map(); // "shape query cat" -> { n, yes, no, noExpect }
  const counters = new Map();
  const nextId = (prefix) => {
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    return `${prefix}-${String(n).padStart(4, '0')}`;
  };
  const note = (key, field) => {
    const s = stats.get(key) ?? { n: 0, yes: 0, no: 0, noExpect: 0, error: 0 };
    s.n++;
    if (field) s[field]++;
    stats.set(key, s);
  };

  // Invalid cases first (dyadic kind only): ~1.5% of the file, each kind at least once.
  const invalidKinds = Object.keys(INVALID);
  const nInvalid = args.kind === 'dyadic' ? Math.min(args.count, Math.max(invalidKinds.length, Math.round(args.count * 0.015))) : 0;
  for (let i = 0; i < nInvalid; i++) {
    const kind = invalidKinds[i % invalidKinds.length];
    const c = { id: nextId(`gen-invalid-${kind}`), ...INVALID[kind](), expect: { error: true } };
    const ora = oracle(c);
    if (!ora.error) throw new Error(`invalid builder ${kind} produced a valid case`);
    cases.push(c);
    note(`invalid - ${kind}`, 'error');
  }

  // Valid cases by weight.
  const plan = args.kind === 'dyadic' ? dyadicPlan() : generalPlan();
  const totalW = plan.reduce((s, p) => s + p[3], 0);
  const remaining = args.count - nInvalid;
  // Largest-remainder allocation so that the counts add up to `remaining`.
  const raw = plan.map((p) => (p[3] / totalW) * remaining);
  const alloc = raw.map(Math.floor);
  let left = remaining - alloc.reduce((s, x) => s + x, 0);
  const order = raw.map((x, i) => [x - Math.floor(x), i]).sort((a, b) => b[0] - a[0]);
  for (let i = 0; left > 0; i++, left--) alloc[order[i % order.length][1]]++;

  plan.forEach(([type, query, cat, , build], pi) => {
    const expectsError = type === 'plane' && query === 'contains'; // the spec: an error
    for (let made = 0; made < alloc[pi]; ) {
      let c = null;
      let ora = null;
      for (let attempt = 0; attempt < 200 && !c; attempt++) {
        const cand = build();
        sprinkleNegativeZero(cand);
        const o = oracle({ id: 'x', ...cand });
        if (!o.input) continue; // structurally broken (cannot happen for these builders)
        if (args.kind === 'dyadic' && !inputNumbers(o.input).every(isSmallDyadic)) continue;
        if (o.error !== expectsError) continue;
        c = cand;
        ora = o;
      }
      if (!c) throw new Error(`could not build a ${type} ${query} ${cat} case`);
      let expect;
      let reaction = 'stable';
      if (expectsError) expect = { error: true };
      else {
        reaction = ora.exactClass ? 'stable' : nudgeReaction(ora);
        if (args.kind === 'general' && reaction !== 'stable') continue; // keep only well-conditioned ones
        expect = expectOf(ora, reaction);
      }
      const full = { id: nextId(`gen-${type}-${cat}`), ...c };
      if (expect) full.expect = expect;
      if (reaction === 'flips') full.note = 'boundary case outside the exact class: a 1e-6 nudge flips the answer; the expect is the exact class, without numbers';
      cases.push(full);
      made++;
      const cls = expectsError ? undefined : classOf(ora.result);
      note(
        `${type} ${query} ${cat}`,
        expectsError ? 'error' : !expect ? 'noExpect' : cls === true ? 'yes' : cls === false ? 'no' : null,
      );
    }
  });

  const text = `{"format": "slabcast-cases/1", "cases": [\n${cases.map((c) => `  ${toJson(c)}`).join(',\n')}\n]}\n`;
  writeFileSync(args.out, text);

  // Summary on stderr.
  const lines = [`gen-cases: wrote ${cases.length} cases (${text.length} bytes) to ${args.out}`];
  lines.push('  shape/query/category: count (hit-or-inside / miss-or-outside / no expect / error)');
  for (const [k, s] of [...stats.entries()]) {
    lines.push(`  ${k}: ${s.n} (${s.yes} / ${s.no} / ${s.noExpect} / ${s.error})`);
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}

main();
