// One ray against one object from JS, as a game's loop over its objects calls it, beside
// three.js's Ray.intersectBox, in one process. 64 random rays, each tested against 1024 objects
// in turn (the ray reused, every object its own inputs): sc.raycastAABB with a different box
// Float32Array per call (and a different plain array, with the ray a Float32Array or a plain
// array), three.js Ray.intersectBox on the same
// boxes (their Box3 objects, the ray's Ray reused, into a reused Vector3), sc.raycastAABB with
// one repeated box array, and sc.raycast (plain objects and arrays in, a result object out)
// against an AABB, a sphere, an OBB, a capsule and a plane of about the box's place, each object
// its own. Most of those calls miss, as most of a game's objects do; a second table times rays
// aimed at each object (every call a hit), where sc.raycast's answer comes from the core; beside
// it, for the shapes whose hits the core answers, the core alone (a breakdown: the ray's and the
// shape's floats copied from arrays staged in advance into the scratch area as sc.raycast stages
// them, sc_wasm_raycast (an OBB: sc_wasm_raycast_obb_io) called, its hit word (answer) read: no
// input read or checked, no result object),
// so that the JavaScript's share of a hit is the difference.
//
// Timing: the process's CPU time (wall time outside Node); every row is run once per round, the rows interleaved (their order rotated each round)
// so that the machine's load falls on all alike; 1 warm-up round, then 8; ns per call is a row's
// best round, and each ratio is the median over the rounds of that round's ratio to its peer.
// Every answer is checked first: raycastAABB against three.js (hit or miss, the entry point
// within 1e-4) and against sc.raycast (the same point, bit for bit).
//
//   node web/bench/single.mjs        (npm run bench runs it too)
import * as THREE from 'three';
import { instantiateCore } from '../core/loader.js';
import { loadSlabcast } from '../slabcast.js';
import { rng } from './scenes.mjs';

const RAYS = 64;
const OBJECTS = 1024;
const ROUNDS = 8;
const SHAPES = ['sphere', 'obb', 'capsule', 'plane'];

const f3 = (v) => v.map(Math.fround);

/** OBJECTS objects of about the same place and size: a box and a shape of every type each, its own. */
function objects(r) {
  const out = [];
  for (let i = 0; i < OBJECTS; i++) {
    const c = [r() * 4 - 2, r() * 4 - 2, r() * 4 - 2];
    const h = [0.5 + r(), 0.5 + r(), 0.5 + r()];
    const min = f3(c.map((v, k) => v - h[k]));
    const max = f3(c.map((v, k) => v + h[k]));
    const a = r() * 6.283185307179586;
    out.push({
      center: c,
      boxF: new Float32Array([...min, ...max]),
      boxA: [...min, ...max],
      box3: new THREE.Box3(new THREE.Vector3(...min), new THREE.Vector3(...max)),
      aabb: { type: 'aabb', min: min.slice(), max: max.slice() },
      sphere: { type: 'sphere', center: c.slice(), radius: h[0] },
      obb: { type: 'obb', center: c.slice(), axes: [[Math.cos(a), Math.sin(a), 0], [-Math.sin(a), Math.cos(a), 0], [0, 0, 1]], half: h.slice() },
      capsule: { type: 'capsule', a: [c[0] - h[0], c[1], c[2]], b: [c[0] + h[0], c[1], c[2]], radius: h[1] },
      plane: { type: 'plane', normal: [0, 0.6, 0.8], d: c[2] },
    });
  }
  return out;
}

/** A ray (origin o, dir d) in every form a row takes, its own. */
function rayOf(o, d) {
  return {
    f32: new Float32Array([...o, ...d, Infinity]),
    arr: [...o, ...d, Infinity],
    obj: { origin: o.slice(), dir: d.slice() },
    three: new THREE.Ray(new THREE.Vector3(...o), new THREE.Vector3(...d)),
  };
}

/** RAYS random rays from the cube [-5, 5]^3 in random directions. */
function randomRays(r) {
  const out = [];
  for (let i = 0; i < RAYS; i++) {
    out.push(rayOf(f3([r() * 10 - 5, r() * 10 - 5, r() * 10 - 5]), f3([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1])));
  }
  return out;
}

/**
 * Milliseconds of this process's CPU time (Node: process.cpuUsage, user + system; time the process
 * waits for a core on a busy machine is not counted), or of wall time elsewhere.
 */
const now = typeof process !== 'undefined' && typeof process.cpuUsage === 'function'
  ? () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }
  : () => performance.now();

/** ns per call of each row, and each row's ratio to its peer, over interleaved rounds. */
function timeRows(rows, calls) {
  const names = Object.keys(rows);
  const ns = Object.fromEntries(names.map((k) => [k, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(j + round) % names.length];
      const t0 = now();
      rows[name]();
      const t = ((now() - t0) * 1e6) / calls;
      if (round > 0) ns[name].push(t); // round 0 warms up
    }
  }
  return ns;
}

const best = (a) => Math.min(...a);
function medianRatio(a, b) {
  const r = a.map((x, i) => x / b[i]).sort((x, y) => x - y);
  return r[r.length >> 1];
}

/**
 * Runs the comparison. Returns ns per call (best round) and ratios (median of the rounds' ratios):
 * { three, raycastAABB (a different box Float32Array per call), raycastAABBPlain (a plain array box),
 *   raycastAABBArrays (a plain array ray too), raycastAABBSame,
 *   raycast (AABB), shapes: {sphere, obb, capsule, plane}, ratio: {...}, hits: {...}, agree, n }.
 * hits.core and hits.coreRatio: the core alone (the breakdown) for the sphere, OBB and capsule;
 * core: a Core (core/loader.js) for it, else one is instantiated.
 */
export async function singleRayRows(sc, core = null) {
  const r = rng(0x51);
  const objs = objects(r);
  const rays = randomRays(r);
  const target = new Float32Array(9);
  const v = new THREE.Vector3();
  // Agreement first: hit or miss, and the entry point.
  let agree = 0;
  let hitCount = 0;
  for (const ray of rays) {
    for (const o of objs) {
      const a = sc.raycastAABB(ray.f32, o.boxF, target);
      const b = ray.three.intersectBox(o.box3, v);
      const c = sc.raycast(ray.obj, o.aabb);
      // three.js reports the exit point for a ray starting inside (slabcast: the origin, t = 0)
      const inside = a && c.t_enter < 0;
      const tp = inside ? [0, 1, 2].map((k) => ray.f32[k] + c.t_exit * ray.f32[3 + k]) : [target[3], target[4], target[5]];
      const same = a === (b !== null) && a === c.hit &&
        (!a || [0, 1, 2].every((k) => Math.abs(tp[k] - [v.x, v.y, v.z][k]) <= 1e-4 && target[3 + k] === c.point[k]));
      agree += same ? 1 : 0;
      hitCount += a ? 1 : 0;
    }
  }
  const loop = (f) => () => {
    for (let k = 0; k < RAYS; k++) for (let i = 0; i < OBJECTS; i++) f(rays[k], objs[i], k);
  };
  const rows = {
    three: loop((ray, o) => ray.three.intersectBox(o.box3, v)),
    raycastAABB: loop((ray, o) => sc.raycastAABB(ray.f32, o.boxF, target)),
    raycastAABBPlain: loop((ray, o) => sc.raycastAABB(ray.f32, o.boxA, target)),
    raycastAABBArrays: loop((ray, o) => sc.raycastAABB(ray.arr, o.boxA, target)),
    raycastAABBSame: loop((ray, o, k) => sc.raycastAABB(ray.f32, objs[k].boxF, target)),
    aabb: loop((ray, o) => sc.raycast(ray.obj, o.aabb)),
  };
  // Each row reads its object by a property name of its own, as the raycastAABB rows do (o[type]
  // in one shared closure is a megamorphic keyed load, 5-10 ns that only these rows would pay).
  rows.sphere = loop((ray, o) => sc.raycast(ray.obj, o.sphere));
  rows.obb = loop((ray, o) => sc.raycast(ray.obj, o.obb));
  rows.capsule = loop((ray, o) => sc.raycast(ray.obj, o.capsule));
  rows.plane = loop((ray, o) => sc.raycast(ray.obj, o.plane));
  const ns = timeRows(rows, RAYS * OBJECTS);

  // Every call a hit: a ray per object from outside, aimed at its centre.
  const aimed = objs.map((o) => {
    const dir = f3([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1]);
    const l = Math.hypot(...dir) || 1;
    return rayOf(f3(o.center.map((x, k) => x - (8 * dir[k]) / l)), dir);
  });
  const each = (f) => () => {
    for (let rep = 0; rep < 16; rep++) for (let i = 0; i < OBJECTS; i++) f(aimed[i], objs[i]);
  };
  const hitRows = { raycastAABB: each((ray, o) => sc.raycastAABB(ray.f32, o.boxF, target)), aabb: each((ray, o) => sc.raycast(ray.obj, o.aabb)) };
  hitRows.sphere = each((ray, o) => sc.raycast(ray.obj, o.sphere));
  hitRows.obb = each((ray, o) => sc.raycast(ray.obj, o.obb));
  hitRows.capsule = each((ray, o) => sc.raycast(ray.obj, o.capsule));
  hitRows.plane = each((ray, o) => sc.raycast(ray.obj, o.plane));
  // The breakdown: the core alone, on a core of its own (instantiated here unless given).
  const c = core ?? await instantiateCore();
  const CORE_SHAPES = ['sphere', 'obb', 'capsule'];
  const staged = stagedShapes(objs, aimed);
  // the OBB's hits go through sc_wasm_raycast_obb_io when the module has it, as sc.raycast's do
  const obbIo = typeof c.ex.sc_wasm_raycast_obb_io === 'function';
  for (const type of CORE_SHAPES) hitRows[`core:${type}`] = coreRow(c, staged[type], type === 'obb' && obbIo);
  const hns = timeRows(hitRows, 16 * OBJECTS);
  const hitsOf = (type) => objs.reduce((n, o, i) => n + (sc.raycast(aimed[i].obj, o[type]).hit ? 1 : 0), 0);

  return {
    three: best(ns.three),
    raycastAABB: best(ns.raycastAABB),
    raycastAABBPlain: best(ns.raycastAABBPlain),
    raycastAABBArrays: best(ns.raycastAABBArrays),
    raycastAABBSame: best(ns.raycastAABBSame),
    raycast: best(ns.aabb),
    shapes: Object.fromEntries(SHAPES.map((t) => [t, best(ns[t])])),
    ratio: {
      raycastAABB: medianRatio(ns.raycastAABB, ns.three),
      raycastAABBPlain: medianRatio(ns.raycastAABBPlain, ns.three),
      raycastAABBArrays: medianRatio(ns.raycastAABBArrays, ns.three),
      raycastAABBSame: medianRatio(ns.raycastAABBSame, ns.three),
      ...Object.fromEntries(['aabb', ...SHAPES].map((t) => [t, medianRatio(ns[t], ns.raycastAABB)])),
    },
    hits: {
      raycastAABB: best(hns.raycastAABB),
      shapes: Object.fromEntries(['aabb', ...SHAPES].map((t) => [t, best(hns[t])])),
      ratio: Object.fromEntries(['aabb', ...SHAPES].map((t) => [t, medianRatio(hns[t], hns.raycastAABB)])),
      count: Object.fromEntries(['aabb', ...SHAPES].map((t) => [t, hitsOf(t)])),
      core: Object.fromEntries(CORE_SHAPES.map((t) => [t, best(hns[`core:${t}`])])),
      coreRatio: Object.fromEntries(CORE_SHAPES.map((t) => [t, medianRatio(hns[`core:${t}`], hns.raycastAABB)])),
      coreHits: Object.fromEntries(CORE_SHAPES.map((t) => [t, coreHitsOf(c, staged[t])])),
      coreFn: Object.fromEntries(CORE_SHAPES.map((t) => [t, t === 'obb' && obbIo ? 'sc_wasm_raycast_obb_io' : 'sc_wasm_raycast'])),
    },
    hitRate: hitCount / (RAYS * OBJECTS),
    agree,
    n: RAYS * OBJECTS,
  };
}

/** sc_shape's type word and floats (after it) of each object's sphere, OBB and capsule, and each aimed ray's 7 floats. */
function stagedShapes(objs, aimed) {
  const flat = {
    sphere: (s) => [3, ...s.center, s.radius],
    obb: (s) => [2, ...s.center, ...s.axes.flat(), ...s.half],
    capsule: (s) => [5, ...s.a, ...s.b, s.radius],
  };
  const out = {};
  for (const [type, f] of Object.entries(flat)) {
    out[type] = objs.map((o, i) => {
      const [code, ...floats] = f(o[type]);
      return { code, shape: new Float32Array(floats), ray: aimed[i].f32 };
    });
  }
  return out;
}

/**
 * The core alone for staged inputs (each its own arrays): per call, as queries.js's inCore, the
 * ray's 7 floats and the shape's type word and floats written to the scratch area (sc_ray at 0,
 * sc_shape at 64, the result at 128), sc_wasm_raycast called, the result's hit word read; io
 * (an OBB, as queries.js's obbInCore): the 22 floats at 0, sc_wasm_raycast_obb_io called, its
 * answer (1 for a hit) summed.
 */
function coreRow(core, items, io = false) {
  const ex = core.ex;
  const base = core.scratch;
  let sink = 0;
  return () => {
    core.views(); // once per round: the views of the memory as it is now
    const f32 = core.f32;
    const i32 = core.i32;
    const w = base >> 2;
    for (let rep = 0; rep < 16; rep++) {
      for (let i = 0; i < OBJECTS; i++) {
        const it = items[i];
        const ray = it.ray;
        const shape = it.shape;
        for (let k = 0; k < 7; k++) f32[w + k] = ray[k];
        if (io) {
          for (let k = 0; k < 15; k++) f32[w + 7 + k] = shape[k];
          sink += ex.sc_wasm_raycast_obb_io(base);
          continue;
        }
        i32[w + 16] = it.code;
        for (let k = 0; k < shape.length; k++) f32[w + 17 + k] = shape[k];
        ex.sc_wasm_raycast(base, base + 64, base + 128);
        sink += i32[w + 33];
      }
    }
    return sink;
  };
}

/** How many of the staged inputs the core alone hits (status 0 and the hit word set). */
function coreHitsOf(core, items) {
  let n = 0;
  const w = core.scratch >> 2;
  for (const it of items) {
    core.views();
    for (let k = 0; k < 7; k++) core.f32[w + k] = it.ray[k];
    core.i32[w + 16] = it.code;
    for (let k = 0; k < it.shape.length; k++) core.f32[w + 17 + k] = it.shape[k];
    core.ex.sc_wasm_raycast(core.scratch, core.scratch + 64, core.scratch + 128);
    n += core.i32[w + 32] === 0 && core.i32[w + 33] !== 0 ? 1 : 0;
  }
  return n;
}

export function printSingleRay(r) {
  const x = (v) => `${v.toFixed(2)}x`;
  console.log(`\n## One ray against one object from JS (${RAYS} rays x ${OBJECTS} objects, the ray reused; ns per call: best of ${ROUNDS} interleaved rounds; ratio: median of the rounds' ratios)\n`);
  console.log('| call | ns per call | ratio | peer |');
  console.log('|---|---:|---:|---|');
  console.log(`| three.js Ray.intersectBox (its Box3 per object, Vector3 target) | ${r.three.toFixed(1)} | 1.00x | |`);
  console.log(`| sc.raycastAABB, a different box Float32Array(6) per call | ${r.raycastAABB.toFixed(1)} | ${x(r.ratio.raycastAABB)} | three.js |`);
  console.log(`| sc.raycastAABB, a different box plain array per call | ${r.raycastAABBPlain.toFixed(1)} | ${x(r.ratio.raycastAABBPlain)} | three.js |`);
  console.log(`| sc.raycastAABB, a plain array ray and a different box plain array per call | ${r.raycastAABBArrays.toFixed(1)} | ${x(r.ratio.raycastAABBArrays)} | three.js |`);
  console.log(`| sc.raycastAABB, one repeated box array | ${r.raycastAABBSame.toFixed(1)} | ${x(r.ratio.raycastAABBSame)} | three.js |`);
  for (const [type, ns] of [['aabb', r.raycast], ...Object.entries(r.shapes)]) {
    console.log(`| sc.raycast (objects), ${type} | ${ns.toFixed(1)} | ${x(r.ratio[type])} | sc.raycastAABB |`);
  }
  console.log(`\n${(100 * r.hitRate).toFixed(1)}% of the AABB calls hit. Every call a hit (a ray per object aimed at its centre; the hits each shape got):\n`);
  console.log('| call | ns per call | vs sc.raycastAABB |');
  console.log('|---|---:|---:|');
  console.log(`| sc.raycastAABB | ${r.hits.raycastAABB.toFixed(1)} | 1.00x |`);
  for (const [type, ns] of Object.entries(r.hits.shapes)) {
    console.log(`| sc.raycast, ${type} (${r.hits.count[type]}/${OBJECTS} hits) | ${ns.toFixed(1)} | ${x(r.hits.ratio[type])} |`);
  }
  for (const [type, ns] of Object.entries(r.hits.core)) {
    console.log(`| of which the core: ${r.hits.coreFn[type]}, ${type}, inputs staged in advance (${r.hits.coreHits[type]}/${OBJECTS} hits) | ${ns.toFixed(1)} | ${x(r.hits.coreRatio[type])} |`);
  }
  console.log(`\nagreement: ${r.agree}/${r.n} calls (same hit or miss; the point within 1e-4 of three.js's (its exit point for a ray starting inside), raycastAABB's equal to sc.raycast's)`);
}

// Alone: the tables; with --json, the rows as one line of JSON (what bench.mjs reads: it runs this
// file in a process of its own, so that the other benchmarks' JIT feedback and heap weigh on
// neither side of these nanosecond comparisons).
if (import.meta.url === `file://${process.argv[1]}`) {
  const sc = await loadSlabcast();
  const rows = await singleRayRows(sc);
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
  else printSingleRay(rows);
}
