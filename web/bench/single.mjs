// One ray against one AABB from JS, beside three.js's Ray.intersectBox, in one process:
// sc.raycastAABB (allocation-free, into a caller's Float32Array), sc.raycast (objects in, a fresh
// result object out) and THREE.Ray.intersectBox (into a reused Vector3). 4096 random pairs, each
// call made 100 times; ns per call is the median of 5 rounds. As a loop over a game's objects
// calls them, every pair owns its inputs: its own ray and box Float32Arrays, its own plain
// objects and arrays for sc.raycast, its own Ray and Box3; no array is passed twice in a row.
// Every result is checked against the others first (same hit or miss; the same entry point
// within 1e-4). sc.raycast is also timed against the other shape types (sphere, OBB, capsule,
// plane: each answered by one call into wasm), each pair again its own objects.
//
//   node web/bench/single.mjs        (npm run bench runs it too)
import * as THREE from 'three';
import { loadSlabcast } from '../slabcast.js';
import { rng } from './scenes.mjs';

const N = 4096;
const REPS = 100;

function pairs() {
  const r = rng(0x51);
  const out = [];
  for (let i = 0; i < N; i++) {
    const o = [r() * 10 - 5, r() * 10 - 5, r() * 10 - 5].map(Math.fround);
    const d = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1].map(Math.fround);
    const c = [r() * 4 - 2, r() * 4 - 2, r() * 4 - 2];
    const h = [0.5 + r(), 0.5 + r(), 0.5 + r()];
    const min = c.map((v, k) => Math.fround(v - h[k]));
    const max = c.map((v, k) => Math.fround(v + h[k]));
    out.push({
      ray: new Float32Array([...o, ...d, Infinity]),
      box: new Float32Array([...min, ...max]),
      obj: { ray: { origin: o, dir: d }, shape: { type: 'aabb', min, max } },
      three: { ray: new THREE.Ray(new THREE.Vector3(...o), new THREE.Vector3(...d)), box: new THREE.Box3(new THREE.Vector3(...min), new THREE.Vector3(...max)) },
    });
  }
  return out;
}

function nsPerCall(f) {
  const rounds = [];
  for (let round = 0; round < 6; round++) {
    const t0 = performance.now();
    for (let k = 0; k < REPS; k++) for (let i = 0; i < N; i++) f(i);
    const ns = ((performance.now() - t0) * 1e6) / (REPS * N);
    if (round > 0) rounds.push(ns); // round 0 warms up
  }
  rounds.sort((a, b) => a - b);
  return rounds[2];
}

/** For each pair, the same ray (its own objects) against a sphere, an OBB, a capsule and a plane of about the box's place. */
function otherShapes(ps) {
  const r = rng(0x52);
  return ps.map((p) => {
    const { ray, shape } = p.obj;
    const c = [0, 1, 2].map((k) => (shape.min[k] + shape.max[k]) / 2);
    const h = [0, 1, 2].map((k) => (shape.max[k] - shape.min[k]) / 2);
    const a = r() * 6.283185307179586;
    const own = () => ({ origin: ray.origin.slice(), dir: ray.dir.slice() });
    return {
      sphere: { ray: own(), shape: { type: 'sphere', center: c.slice(), radius: h[0] } },
      obb: { ray: own(), shape: { type: 'obb', center: c.slice(), axes: [[Math.cos(a), Math.sin(a), 0], [-Math.sin(a), Math.cos(a), 0], [0, 0, 1]], half: h.slice() } },
      capsule: { ray: own(), shape: { type: 'capsule', a: [c[0] - h[0], c[1], c[2]], b: [c[0] + h[0], c[1], c[2]], radius: h[1] } },
      plane: { ray: own(), shape: { type: 'plane', normal: [0, 0.6, 0.8], d: c[2] } },
    };
  });
}

/** Runs the comparison; returns { three, raycastAABB, raycast, shapes: {sphere, obb, capsule, plane} } in ns per call. */
export async function singleRayRows(sc) {
  const ps = pairs();
  const target = new Float32Array(9);
  const v = new THREE.Vector3();
  // Agreement first: hit or miss, and the entry point.
  let agree = 0;
  for (const p of ps) {
    const a = sc.raycastAABB(p.ray, p.box, target);
    const b = p.three.ray.intersectBox(p.three.box, v);
    const c = sc.raycast(p.obj.ray, p.obj.shape);
    // three.js reports the exit point for a ray starting inside (slabcast: the origin, t = 0)
    const inside = a && c.t_enter < 0;
    const tp = inside ? [0, 1, 2].map((k) => p.ray[k] + c.t_exit * p.ray[3 + k]) : [target[3], target[4], target[5]];
    const same = a === (b !== null) && a === c.hit &&
      (!a || [0, 1, 2].every((k) => Math.abs(tp[k] - [v.x, v.y, v.z][k]) <= 1e-4 && target[3 + k] === c.point[k]));
    agree += same ? 1 : 0;
  }
  const three = nsPerCall((i) => ps[i].three.ray.intersectBox(ps[i].three.box, v));
  const fast = nsPerCall((i) => sc.raycastAABB(ps[i].ray, ps[i].box, target));
  const objects = nsPerCall((i) => sc.raycast(ps[i].obj.ray, ps[i].obj.shape));
  const others = otherShapes(ps);
  const shapes = {};
  for (const type of ['sphere', 'obb', 'capsule', 'plane']) {
    shapes[type] = nsPerCall((i) => sc.raycast(others[i][type].ray, others[i][type].shape));
  }
  return { three, raycastAABB: fast, raycast: objects, shapes, agree, n: N };
}

export function printSingleRay(r) {
  console.log('\n## One ray against one AABB from JS (ns per call, median of 5 rounds of 100 x 4096 pairs)\n');
  console.log('| call | ns per call | vs three.js Ray.intersectBox |');
  console.log('|---|---:|---:|');
  console.log(`| three.js Ray.intersectBox (Vector3 target) | ${r.three.toFixed(1)} | 1.00x |`);
  console.log(`| sc.raycastAABB (Float32Array target) | ${r.raycastAABB.toFixed(1)} | ${(r.raycastAABB / r.three).toFixed(2)}x |`);
  console.log(`| sc.raycast (objects) | ${r.raycast.toFixed(1)} | ${(r.raycast / r.three).toFixed(2)}x |`);
  console.log('\n| sc.raycast (objects), other shapes | ns per call | vs sc.raycastAABB |');
  console.log('|---|---:|---:|');
  console.log(`| aabb | ${r.raycast.toFixed(1)} | ${(r.raycast / r.raycastAABB).toFixed(2)}x |`);
  for (const [type, ns] of Object.entries(r.shapes ?? {})) {
    console.log(`| ${type} | ${ns.toFixed(1)} | ${(ns / r.raycastAABB).toFixed(2)}x |`);
  }
  console.log(`\nagreement: ${r.agree}/${r.n} pairs (same hit or miss; the point within 1e-4 of three.js's (its exit point for a ray starting inside), raycastAABB's equal to sc.raycast's)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sc = await loadSlabcast();
  printSingleRay(await singleRayRows(sc));
}
