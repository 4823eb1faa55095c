// Writes the binary seed inputs of the fuzzers fuzz_queries and fuzz_world
// (tests/fuzz/corpus/fuzz_queries/*.bin, tests/fuzz/corpus/fuzz_world/*.bin). The byte layouts
// are those decoded by tools/fuzz/fuzz_queries.c and tools/fuzz/fuzz_world.c (docs/fuzzing.md).
// The seeds are checked in; run this again only after changing a layout:
//   node tests/fuzz/gen-seeds.mjs
// The case-file seeds (tests/fuzz/corpus/fuzz_cases/*.json) are plain files, written by hand.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** A growing byte string. */
class Bytes {
  constructor() { this.a = []; }
  u8(...v) { for (const x of v) this.a.push(x & 255); return this; }
  u32(v) { return this.u8(v, v >>> 8, v >>> 16, v >>> 24); }
  /** A value in value mode 0 (raw float32 bits). */
  raw(x) { const f = new Float32Array([x]); return this.u32(new Uint32Array(f.buffer)[0]); }
  /** A value in value mode 1 (a multiple of 1/2 in [-64, 64]; -0 from the sign bit). */
  dy(x) {
    if (Object.is(x, -0)) return this.u32(0x80000000 + ((128 - (0x80000000 % 257) + 257) % 257)); // 0, sign bit
    if (x * 2 !== Math.round(x * 2) || Math.abs(x) > 64) throw new Error(`not dyadic: ${x}`);
    return this.u32(x * 2 + 128);
  }
  /** A value in value mode 2 (a multiple of 2^-16). */
  fx(x) { return this.u32(Math.round(x * 65536) | 0); }
  vals(fn, ...xs) { for (const x of xs) this[fn](x); return this; }
  get buffer() { return Uint8Array.from(this.a); }
}

function writeSeeds(dir, seeds) {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith('.bin')) rmSync(path.join(dir, f));
  for (const [name, bytes] of Object.entries(seeds)) writeFileSync(path.join(dir, `${name}.bin`), bytes.buffer);
  console.log(`${dir}: ${Object.keys(seeds).length} seeds`);
}

// ------------------------------------------------------------------ fuzz_queries
// header: mode, flags, permutation, bogus shape type; then 49 values:
// ray origin, dir, tmax (7); segment a, b (6); point (3); aabb min, max (6);
// obb center, axes (9), half (15 in all); sphere center, radius (4); plane normal, d (4); quaternion (4)

function query(mode, flags, perm, type, fn, v) {
  const b = new Bytes().u8(mode, flags, perm, type);
  const all = [...v.ray, ...v.seg, ...v.point, ...v.aabb, ...v.obb, ...v.sphere, ...v.plane, ...(v.quat ?? [1, 0, 0, 0])];
  if (all.length !== 49) throw new Error(`49 values expected, got ${all.length}`);
  return b.vals(fn, ...all);
}

const I3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const querySeeds = {
  // dyadic: a box, a ray grazing its corner edge, tmax exactly at the entry
  'dyadic-grazing-corner': query(1, 1 | 4, 0, 9, 'dy', {
    ray: [0, 1, 0, 1, 1, 0, 1], seg: [0, 0, 0, 2, 2, 0], point: [1, 1.5, 0],
    aabb: [1, 1, -1, 2, 2, 1], obb: [1.5, 1.5, 0, ...I3, 0.5, 0.5, 1], sphere: [3, 1, 0, 1], plane: [1, 0, 0, 1],
  }),
  // dyadic, axis-parallel ray along a face (dir +x, -0 elsewhere), permutation OBB, zero-thickness box
  'dyadic-axis-parallel-on-face': query(1, 1 | 2 | 4 | 8 | 16, 3 | (5 << 3), 0, 'dy', {
    ray: [-1, 0, 1, 1, -0, -0, 0], seg: [-1, 0, 1, 3, 0, 1], point: [0, 0, 1],
    aabb: [0, 0, 0, 2, 0, 1], obb: [1, 0, 0.5, ...I3, 1, 0, 0.5], sphere: [1, 0, 2, 1], plane: [0, 0, 2, 2],
  }),
  // dyadic: origin inside everything, tangent sphere segment, plane through the origin
  'dyadic-origin-inside': query(1, 1 | 4 | 8, 0, 200, 'dy', {
    ray: [0.5, 0.5, 0.5, -2, 1, 0.5, 0], seg: [-2, 1, 0, 2, 1, 0], point: [0.5, 0.5, 0.5],
    aabb: [0, 0, 0, 1, 1, 1], obb: [0.5, 0.5, 0.5, ...I3, 0.5, 0.5, 0.5], sphere: [0, 0, 0, 1], plane: [1, 1, 1, 1.5],
  }),
  // fixed point: a rotated OBB (quaternion), general directions
  'fixed-rotated-obb': query(2, 1 | 2 | 4, 0, 1, 'fx', {
    ray: [-10.25, 3.125, 0.5, 1.5, -0.25, 0.125, 100], seg: [-5, -5, -5, 5, 5, 5], point: [2, 2, 2],
    aabb: [-1, -2, -3, 1, 2, 3], obb: [0.5, 0.25, 0, ...I3, 2, 1, 0.5], sphere: [4, 0, 0, 2.5],
    plane: [0.3, 0.4, 0.5, 1], quat: [0.9, 0.1, 0.3, -0.2],
  }),
  // raw bits: NaN, infinities, -0, subnormals, huge values
  'raw-hostile': query(0, 0, 0, 255, 'raw', {
    ray: [NaN, 0, -0, Infinity, 1e-45, -3e38, -1], seg: [3e38, -3e38, 1e-40, -1e-40, Infinity, 0],
    point: [-0, 1.17549435e-38, 2 ** 126], aabb: [2, 0, 0, 1, 0, 0], obb: [0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, -1, 1, 1],
    sphere: [0, 0, 0, -0], plane: [0, 0, 0, 1],
  }),
  // raw bits, valid but extreme: a tiny direction (t past FLT_MAX), huge boxes and spheres
  'raw-extreme-valid': query(0, 1 | 4 | 8, 0, 3, 'raw', {
    ray: [-41.5, 0, 0, 2e-44, 0, 0, Infinity], seg: [-3e38, 0, 0, 3e38, 1e-30, 0], point: [3e38, 3e38, 3e38],
    aabb: [-3e38, -1, -1, 3e38, 1, 1], obb: [1e30, 0, 0, ...I3, 1e30, 1e30, 1e30], sphere: [0, 0, 7.7e31, 7.7e31],
    plane: [1e-36, 1e-37, 0, 1e33],
  }),
};

// -------------------------------------------------------------------- fuzz_world
// opcodes (byte % 16): 0 create, 1-2 add AABBs, 3 add OBBs, 4 add spheres (capsules when
// flags & 48 == 16), 5-7 update AABBs / OBBs / spheres (7: capsules likewise), 8 refit, 9 build,
// 10-11 cast rays, 12 cast rays (+ a byte: large batch), 13 any-hit (then capsule sweeps and
// overlaps from its rays), 14 segments, 15 destroy.

const W = {
  create: (b) => b.u8(0),
  // add: count, flags (mode | 4 all valid | 8 NULL when empty), then per object a byte (1: valid) and its values
  addAabbs: (b, mode, fn, boxes) => { b.u8(1, boxes.length, mode | 4); for (const x of boxes) b.u8(1).vals(fn, ...x); return b; },
  addSpheres: (b, mode, fn, sph) => { b.u8(4, sph.length, mode | 4); for (const x of sph) b.u8(1).vals(fn, ...x); return b; },
  // capsules: a, a byte (1: b as 3 values; else b = a + 0.125 * 3 int8 bytes, 2: b = a), radius
  capsule: (b, fn, c) => { b.u8(1).vals(fn, ...c.a).u8(c.how); if (c.how & 1) b.vals(fn, ...c.b); else b.u8(...c.steps.map((x) => x & 255)); return b.vals(fn, c.r); },
  addCapsules: (b, mode, fn, caps) => { b.u8(4, caps.length, mode | 4 | 16); for (const c of caps) W.capsule(b, fn, c); return b; },
  updateCapsules: (b, firstByte, mode, fn, caps) => { b.u8(7, firstByte, caps.length, mode | 4 | 16); for (const c of caps) W.capsule(b, fn, c); return b; },
  // OBBs: centre, a byte (2: signed permutation, bits 2-4 which, 5-7 signs; 0: a quaternion of 4 int8), half
  addObbs: (b, mode, fn, obbs) => {
    b.u8(3, obbs.length, mode | 4);
    for (const o of obbs) {
      b.u8(1).vals(fn, ...o.center).u8(o.how);
      if (o.quat) b.u8(...o.quat);
      b.vals(fn, ...o.half);
    }
    return b;
  },
  // update: first (a byte: >= 128 -> byte % count; 0 -> -1; 32 -> count; 64 -> count + 1; 96 -> INT_MIN),
  // count, flags, objects
  updateAabbs: (b, firstByte, mode, fn, boxes) => { b.u8(5, firstByte, boxes.length, mode | 4); for (const x of boxes) b.u8(1).vals(fn, ...x); return b; },
  refit: (b) => b.u8(8),
  build: (b) => b.u8(9),
  // rays: a byte (how: 0 as given; 1 aimed at an object, + a byte: which; 2 axis-parallel along
  // axis ((how >> 2) & 3) % 3, with 32: -0 elsewhere, with 64: from an object's point, + two
  // bytes; 128 tmax = inf), 7 values
  cast: (b, mode, fn, rays, { big } = {}) => {
    if (big !== undefined) b.u8(12, 1); else b.u8(10);
    b.u8(rays.length, mode);
    for (const r of rays) ray(b, fn, r);
    if (big !== undefined) b.u8(big);
    return b;
  },
  anyHit: (b, mode, fn, rays) => {
    b.u8(13, rays.length, mode);
    for (const r of rays) ray(b, fn, r);
    return b;
  },
  // segments: a byte (0 as given, 1 b at an object (+ a byte), 2 a point), 6 values
  segments: (b, mode, fn, segs) => {
    b.u8(14, segs.length, mode);
    for (const s of segs) {
      b.u8(s.how ?? 0).vals(fn, ...s.v);
      if (((s.how ?? 0) & 3) === 1) b.u8(s.target ?? 0);
    }
    return b;
  },
  destroy: (b) => b.u8(15),
  // a hostile count byte 0xF0 | k (0: -1, 1: INT_MIN, 2: INT_MAX, 3: MAX + 1, 4: MAX, 5: a negative
  // u32, 6+: a large u32), then the op's flags byte
  hostile: (b, op, k, u32 = 12345) => { b.u8(op, 0xf0 | k); if (k >= 5) b.u32(u32); return b.u8(0); },
};

function ray(b, fn, r) {
  const how = r.how ?? 0;
  b.u8(how).vals(fn, ...r.v);
  if ((how & 3) === 1) b.u8(r.target ?? 0);
  if ((how & 3) === 2 && how & 64) b.u8(r.target ?? 0, r.corner ?? 0);
}

function grid(n, step, size) {
  const out = [];
  for (let i = 0; i < n; ++i) {
    const x = (i % 4) * step - 4, y = Math.floor(i / 4) * step - 4;
    out.push([x, y, -1, x + size, y + size, 1]);
  }
  return out;
}

const worldSeeds = {
  // dyadic boxes (touching, duplicates, zero thickness) and rays along faces, aimed and axis-parallel
  'dyadic-boxes-rays': (() => {
    const b = new Bytes();
    W.addAabbs(b, 1, 'dy', [...grid(8, 2, 2), [0, 0, 0, 0, 2, 2], [0, 0, 0, 0, 2, 2], [-4, -4, -1, -2, -2, 1]]);
    W.cast(b, 1, 'dy', [
      { how: 128, v: [-8, 0, 0, 1, 0, 0, 0] },
      { how: 2 | (0 << 2) | 128, v: [-8, -2, 1, 1, 0, 0, 0] },
      { how: 1, v: [10, 10, 10, 0, 0, 0, 64], target: 3 },
      { how: 0, v: [-4, -4, -1, 1, 1, 0.5, 2] },
      { how: 2 | (1 << 2) | 64 | 128, v: [0, 0, 0, 0, 1, 0, 0], target: 8, corner: 1 | 8 },
    ]);
    W.anyHit(b, 1, 'dy', [{ how: 128, v: [0, 0, 5, 0, 0, -1, 0] }, { how: 0, v: [0, 0, 5, 0, 0, 1, 3] }]);
    W.segments(b, 1, 'dy', [{ v: [-8, 1, 0, 8, 1, 0] }, { how: 2, v: [1, 1, 0, 0, 0, 0] }, { v: [-8, 9, 9, -7, 9, 9] }]);
    return b;
  })(),
  // every kind, then updates (in range, out of range, wrong kind), refit, build, casts
  'mixed-update-refit': (() => {
    const b = new Bytes();
    W.addAabbs(b, 2, 'fx', grid(4, 3.5, 1.25));
    W.addObbs(b, 2, 'fx', [
      { center: [0, 0, 5], how: 2 | (1 << 2) | (1 << 5), half: [1, 2, 0.5] },
      { center: [3, -2, 5], how: 0, quat: [100, 20, -30, 5], half: [0.5, 0.5, 2] },
    ]);
    W.addSpheres(b, 2, 'fx', [[0, 0, -5, 1], [2, 2, -5, 0], [-3, 1, 0, 2.5]]);
    W.cast(b, 2, 'fx', [{ how: 1, v: [0, 0, 20, 0, 0, 0, 100], target: 4 }, { how: 1 | 128, v: [20, 1, 1, 0, 0, 0, 0], target: 7 }]);
    // 9 objects: AABBs 0-3, OBBs 4-5, spheres 6-8; a first byte >= 128 picks byte % 9
    W.updateAabbs(b, 136, 2, 'fx', [[10, 10, 10, 11, 11, 11]]); // object 1
    W.updateAabbs(b, 130, 2, 'fx', [[0, 0, 0, 1, 1, 1]]); // object 4, an OBB: wrong kind
    W.updateAabbs(b, 64, 2, 'fx', [[0, 0, 0, 1, 1, 1]]); // count + 1: out of range
    W.refit(b);
    W.cast(b, 2, 'fx', [{ how: 1 | 128, v: [-20, 10.5, 10.5, 0, 0, 0, 0], target: 1 }]);
    W.build(b);
    W.segments(b, 2, 'fx', [{ how: 1, v: [9, 9, 9, 0, 0, 0], target: 5 }, { how: 2, v: [0, 0, -5, 0, 0, 0] }]);
    return b;
  })(),
  // hostile counts and NULL batches, a destroyed world, a new one
  'hostile-counts': (() => {
    const b = new Bytes();
    W.hostile(b, 1, 0); // add AABBs: -1
    W.hostile(b, 2, 1); // INT_MIN
    W.hostile(b, 3, 3); // MAX + 1
    W.hostile(b, 4, 4); // MAX, NULL data
    b.u8(5, 0, 0xf0 | 2, 0); // update from -1, INT_MAX objects
    W.hostile(b, 10, 0);
    W.hostile(b, 13, 2);
    W.hostile(b, 14, 5);
    W.addAabbs(b, 1, 'dy', [[0, 0, 0, 1, 1, 1]]);
    b.u8(1, 2, 1).u8(0).vals('dy', 0, 0, 0, -1, 1, 1).u8(0).vals('dy', 2, 2, 2, 3, 3, 3); // a bad box first: refused
    W.destroy(b);
    W.addAabbs(b, 1, 'dy', [[0, 0, 0, 1, 1, 1]]); // on a NULL world
    W.refit(b);
    W.create(b);
    W.addAabbs(b, 1, 'dy', [[0, 0, 0, 1, 1, 1]]);
    W.cast(b, 1, 'dy', [{ how: 128, v: [0.5, 0.5, -3, 0, 0, 1, 0] }]);
    return b;
  })(),
  // capsules among boxes and spheres: rays, segments and any-hit (with the capsule sweeps and
  // overlaps built from its rays: BVH = brute force), an update to a capsule and to a box (wrong kind)
  'capsules': (() => {
    const b = new Bytes();
    W.addAabbs(b, 1, 'dy', grid(6, 3, 1.5));
    W.addCapsules(b, 1, 'dy', [
      { a: [0, 0, 3], how: 0, steps: [16, 0, 0], r: 0.5 }, // along x, 2 long
      { a: [-3, 2, 0], how: 2, steps: [0, 0, 0], r: 1 }, // a ball
      { a: [2, -2, -3], how: 1, b: [2, 2, 3], r: 0 }, // a segment
      { a: [1, 1, 1], how: 0, steps: [8, -8, 4], r: 0.5 },
    ]);
    W.addSpheres(b, 1, 'dy', [[5, 5, 5, 1]]);
    W.cast(b, 1, 'dy', [
      { how: 1 | 128, v: [-10, 0, 3, 0, 0, 0, 0], target: 6 },
      { how: 1, v: [0, 10, 0, 0, 0, 0, 20], target: 7 },
      { how: 2 | (2 << 2) | 64 | 128, v: [0, 0, 0, 0, 0, 1, 0], target: 8, corner: 1 },
    ]);
    W.anyHit(b, 1, 'dy', [
      { how: 128, v: [-10, 0, 3, 1, 0, 0, 0] }, { how: 1, v: [0, 0, 10, 0, 0, 0, 30], target: 9 },
      { how: 128, v: [2, 0, -10, 0, 0, 1, 0] }, { how: 128, v: [-3, 2, 10, 0, 0, -1, 0] },
    ]);
    // 11 objects: boxes 0-5, capsules 6-9, sphere 10; a first byte >= 128 picks byte % 11
    W.updateCapsules(b, 134, 1, 'dy', [{ a: [0, 0, 4], how: 0, steps: [16, 0, 0], r: 1 }]); // object 2, a box: wrong kind
    W.updateCapsules(b, 128, 1, 'dy', [{ a: [0, 0, 4], how: 0, steps: [16, 0, 0], r: 1 }]); // object 7, a capsule
    W.segments(b, 1, 'dy', [{ v: [-10, 0, 4, 10, 0, 4] }, { how: 2, v: [-3, 2, 0, 0, 0, 0] }]);
    W.anyHit(b, 1, 'dy', [{ how: 128, v: [-10, 0, 4, 1, 0, 0, 0] }, { how: 1 | 128, v: [9, 9, 9, 0, 0, 0, 0], target: 7 }]);
    return b;
  })(),
  // extreme floats: far objects (2^80 and more), tiny directions, a large batch (reordered)
  'far-and-large-batch': (() => {
    const b = new Bytes();
    W.addAabbs(b, 0, 'raw', [[-1, -1, -1, 1, 1, 1], [1e25, 0, 0, 2e25, 1, 1], [-3e38, -1, -1, 3e38, 1, 1]]);
    W.addSpheres(b, 0, 'raw', [[0, 0, 7.7e31, 7.7e31], [5, 5, 5, 0]]);
    W.cast(b, 0, 'raw', [
      { how: 128, v: [-41.5, 0, 0, 2e-44, 0, 0, 0] },
      { how: 1 | 128, v: [1e30, 1e30, 1e30, 0, 0, 0, 0], target: 0 },
      { how: 128, v: [-1e26, 0.5, 0.5, 1, 0, 0, 0] },
    ], { big: 1 });
    W.segments(b, 0, 'raw', [{ v: [-3e38, 0, 0, 3e38, 0, 0] }, { v: [0, 0, -2.25e15, 0, 0, 0] }]);
    return b;
  })(),
};

writeSeeds(path.join(HERE, 'corpus/fuzz_queries'), querySeeds);
writeSeeds(path.join(HERE, 'corpus/fuzz_world'), worldSeeds);
