#!/usr/bin/env node
// npm run bench [-- SIZES...] [--no-scenes] [--no-three] [--no-browser] [--base DIR] : slabcast's world
// queries against three.js, three-mesh-bvh, the physics engines and Embree; last, the Targets table of
// issue 25 (web/bench/targets.mjs), every target's figure beside its peer's, from this run.
// --base DIR: a build of the commit before (scripts/bench-base.sh) whose BVH build times are measured
// in this run, alternated with this build's, for the "before" column; without it, the times recorded in
// web/bench/baseline.json. --no-browser: the parallel benchmark in Node only (no Chromium).
//
// One seeded scene family (tools/bench_scene.h: boxes of size 0.5..2.5 spread uniformly in a
// cube whose side grows with cbrt(n); 100k rays from random points in the cube in random unit
// directions), at 1k, 10k, 100k and 1M boxes. Measured side by side in this process:
//   - slabcast wasm: world.castRays (BVH) and world.castRaysBruteForce (the SIMD kernel);
//   - slabcast native: build/native/bench_world on the same scenes (same generator, same kernel);
//   - Embree 3 (native): build/native/bench_embree, beside slabcast native on the same scenes;
//   - Jolt, rapier, rapier-simd, Havok (wasm, npm): web/bench/peers.mjs, beside slabcast wasm;
//   - three.js Ray.intersectBox, brute force over every box, on a subset of the rays;
//   - three-mesh-bvh: raycastFirst over the same boxes as triangles (12 per box).
// Every three-mesh-bvh hit distance is checked against slabcast's t for rays whose origin is
// outside every box (from inside, three-mesh-bvh reports the exit face, slabcast t = 0).
// The physics engines' ray casts (web/bench/peers.mjs: Jolt, rapier, Havok, wasm builds from npm) on
// the same boxes and rays, each checked against slabcast's t on every ray it cast: see peerRows.
// Last, the three.js adapter (web/three.js, slabcast/three) against Raycaster.intersectObjects on
// scenes of box meshes (at the sizes up to 10k; --no-three skips it): see threeAdapterRows.
// At 10k boxes, sphere and capsule sweeps against Jolt's and rapier's shape casts: web/bench/sweep-peers.mjs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as THREE from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { loadSlabcast } from '../slabcast.js';
import { createThreeWorld } from '../three.js';
import { loadBenchScene } from './bench-scene.mjs';
import { BASELINE_FILE, loadApiFrom, nativeBuildBest, wasmBuildBest } from './build-times.mjs';
import { runParallelBench } from './parallel-bench.mjs';
import { printQueryRows, queryRows } from './queries.mjs';
import { printSingleRay } from './single.mjs';
import { PEERS, RAY_LENGTH } from './peers.mjs';
import { printSweepPeerRows, sweepPeerRows } from './sweep-peers.mjs';
import { SCENES, rng } from './scenes.mjs';
import { formatTargets, header, targetRows } from './targets.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const noScenes = argv.includes('--no-scenes');
const noThree = argv.includes('--no-three');
const noBrowser = argv.includes('--no-browser');
const baseDir = argv.includes('--base') ? path.resolve(argv[argv.indexOf('--base') + 1] ?? '.') : null;
const args = argv.filter((a, i) => argv[i - 1] !== '--base').map(Number).filter((n) => Number.isInteger(n) && n > 0);
const sizes = args.length ? args : [1000, 10000, 100000, 1000000];
const NRAYS = 100000;

const sc = await loadSlabcast();
const benchScene = await loadBenchScene();
const now = () => performance.now();

function nativeRows() {
  const bin = `${root}build/native/bench_world`;
  if (!existsSync(bin)) return new Map();
  const out = execFileSync(bin, sizes.map(String), { encoding: 'utf8', maxBuffer: 1 << 24 });
  return new Map(out.trim().split('\n').map((l) => JSON.parse(l)).map((r) => [r.boxes, r]));
}

// The native peer: build/native/bench_embree (tools/bench_embree.c, built when Embree 3 is
// installed) on the same scenes: slabcast's native world and Embree (boxes as user geometry) in one
// process, each hit checked against slabcast's.
// Its first line describes the machine and the ISA of both Embree devices: { machine, rows }.
function embreeRows() {
  const bin = `${root}build/native/bench_embree`;
  if (!existsSync(bin)) {
    console.log('Embree: build/native/bench_embree is not built (Embree 3 not found: Debian libembree-dev, then npm run build); left out');
    return { machine: null, rows: [] };
  }
  try {
    const out = execFileSync(bin, sizes.map(String), { encoding: 'utf8', maxBuffer: 1 << 24 });
    const lines = out.trim().split('\n').map((l) => JSON.parse(l));
    return { machine: lines.find((l) => l.machine) ?? null, rows: lines.filter((l) => !l.machine) };
  } catch (e) {
    console.log(`Embree: bench_embree failed, left out (${e.message.split('\n')[0]})`);
    return { machine: null, rows: [] };
  }
}

// The "before" build times: measured here against --base DIR's build (alternated),
// else web/bench/baseline.json. { commit, how, wasm: { n: ms }, native: { n: ms } }.
function recordedBefore() {
  try {
    const b = JSON.parse(readFileSync(BASELINE_FILE, 'utf8'));
    return { ...b, commit: b.commit.slice(0, 7), how: `recorded ${b.date.slice(0, 10)} (web/bench/baseline.json)` };
  } catch {
    return null;
  }
}

function boxGeometry(boxes) {
  const n = boxes.length / 6;
  const pos = new Float32Array(n * 8 * 3);
  const idx = new Uint32Array(n * 36);
  // corner k = (x bit 0, y bit 1, z bit 2); two triangles per face
  const faces = [[0, 2, 6, 4], [1, 5, 7, 3], [0, 4, 5, 1], [2, 3, 7, 6], [0, 1, 3, 2], [4, 6, 7, 5]];
  for (let i = 0; i < n; i++) {
    const b = 6 * i;
    for (let k = 0; k < 8; k++) {
      pos[(8 * i + k) * 3] = boxes[b + (k & 1 ? 3 : 0)];
      pos[(8 * i + k) * 3 + 1] = boxes[b + 1 + (k & 2 ? 3 : 0)];
      pos[(8 * i + k) * 3 + 2] = boxes[b + 2 + (k & 4 ? 3 : 0)];
    }
    let o = 36 * i;
    for (const [a, bq, c, d] of faces) {
      idx[o++] = 8 * i + a; idx[o++] = 8 * i + bq; idx[o++] = 8 * i + c;
      idx[o++] = 8 * i + a; idx[o++] = 8 * i + c; idx[o++] = 8 * i + d;
    }
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  g.setIndex(new THREE.BufferAttribute(idx, 1));
  return g;
}

function insideAny(boxes, o) {
  for (let b = 0; b < boxes.length; b += 6) {
    if (o[0] >= boxes[b] && o[0] <= boxes[b + 3] && o[1] >= boxes[b + 1] && o[1] <= boxes[b + 4] &&
        o[2] >= boxes[b + 2] && o[2] <= boxes[b + 5]) return true;
  }
  return false;
}

const fmt = (x, d = 2) => (x >= 1e9 ? `${(x / 1e9).toFixed(d)} G` : x >= 1e6 ? `${(x / 1e6).toFixed(d)} M`
  : x >= 1e3 ? `${(x / 1e3).toFixed(d)} k` : x.toFixed(d));

// ---------------------------------------------------------------- the physics engines
// Each peer (web/bench/peers.mjs) loaded once; one that fails says so and is left out.
async function loadPeers() {
  const loaded = [];
  for (const make of PEERS) {
    try {
      loaded.push({ ...(await make()), make });
    } catch (e) {
      console.log(`peer ${make.name}: not loaded, left out (${e.message.split('\n')[0]})`);
    }
  }
  return loaded;
}

// Per peer: build (bodies from the boxes, timed), a warm-up, then PEER_ROUNDS rounds, each one timed
// slabcast world.castRays of all NRAYS rays followed by one timed cast of the peer's, NRAYS rays or
// fewer for a slow peer (about 3 s per cast, at least 10000): rays/s either way, each side's best
// round. The ratio is slabcast's best over the peer's best in the same rounds, so that a change in
// the machine's load between the two measurements (a run on 2 shared cores moved a ratio by a
// third when slabcast was timed once before all the peers) weighs on both alike. Every ray cast
// is checked against slabcast's res: the same hit or miss, and |t - slabcast t| <= 1e-4 * max(1, t).
// Rays whose origin is inside a box (slabcast: a hit at t = 0, boxes are solid) are left out of the
// check and counted apart: Jolt and rapier (solid casts) report 0 there too, Havok the exit face.
const PEER_ROUNDS = 3;
async function peerRows(row, boxes, rays, res, world) {
  row.peers = {};
  if (!peers.length) return;
  // slabcast's best over every peer's rounds (the table's column; each ratio uses its own rounds')
  row.sc_best_rays_s = 0;
  const castSlabcast = () => {
    const t0 = now();
    world.castRays(rays, res);
    const rate = NRAYS / ((now() - t0) / 1e3);
    row.sc_best_rays_s = Math.max(row.sc_best_rays_s, rate);
    return rate;
  };
  for (const [j, peer] of peers.entries()) {
    const p = { version: peer.version };
    row.peers[peer.name] = p;
    try {
      let t0 = now();
      peer.build(boxes);
      p.build_ms = now() - t0;
      // warm-up (the JIT compiles the engine's bindings): batches of 2000 rays for 0.3 s at most
      const warm = Math.min(NRAYS, 2000);
      let guess = 0;
      for (let k = 0, start = now(); k < 8 && (k < 2 || now() - start < 300); k++) {
        t0 = now();
        peer.cast(rays.subarray(7 * warm * (k % 4), 7 * warm * (k % 4 + 1)));
        guess = warm / ((now() - t0) / 1e3);
      }
      const count = Math.min(NRAYS, Math.max(10000, Math.ceil((guess * 3) / 1000) * 1000));
      let t;
      p.rays_s = 0;
      p.sc_rays_s = 0;
      for (let k = 0; k < PEER_ROUNDS; k++) { // slabcast, then the peer; each side's best round
        p.sc_rays_s = Math.max(p.sc_rays_s, castSlabcast());
        t0 = now();
        t = peer.cast(rays.subarray(0, 7 * count));
        p.rays_s = Math.max(p.rays_s, count / ((now() - t0) / 1e3));
      }
      p.rays = count;
      let checked = 0;
      let wrong = 0;
      let inside = 0;
      for (let i = 0; i < count; i++) {
        const hit = res.index[i] >= 0;
        if (hit && res.t[i] === 0) { inside++; continue; }
        checked++;
        if (hit !== (t[i] !== Infinity) || (hit && !(Math.abs(t[i] - res.t[i]) <= 1e-4 * Math.max(1, res.t[i])))) wrong++;
      }
      Object.assign(p, { checked, mismatches: wrong, inside, ratio: p.sc_rays_s / p.rays_s });
    } catch (e) {
      p.error = e.message.split('\n')[0];
      console.log(`peer ${peer.name} at ${row.boxes} boxes: failed (${p.error})`);
      // An engine that aborted (out of wasm memory) stays unusable: drop it (and its memory) for a
      // fresh instance for the next size.
      try { peers[j] = { ...(await peer.make()), make: peer.make }; } catch { /* it loaded once */ }
    } finally {
      try { peer.dispose(); } catch { /* already reported */ }
    }
  }
}

const native = nativeRows();
const embree = embreeRows();
for (const line of header({ root, argv, embreeMachine: embree.machine, simd: sc.simd })) console.log(line);
// BVH build times are taken on fresh modules (this build's and --base's alike), so that what the
// other tables leave in `sc`'s memory weighs on neither side.
const buildApi = await loadApiFrom(root);
const baseApi = baseDir ? await loadApiFrom(baseDir) : null;
const before = baseDir
  ? { commit: execFileSync('git', ['-C', baseDir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(), how: `measured in this run (${baseDir})`, wasm: {}, native: {} }
  : recordedBefore();
// Native build times: the best over three runs of bench_world (each its own best of three builds),
// as web/bench/baseline.json was recorded; with --base, alternated with the base's bench_world.
for (let k = 0; k < 3; k++) {
  if (baseDir) for (const [n, ms] of Object.entries(nativeBuildBest(baseDir, sizes))) before.native[n] = Math.min(before.native[n] ?? Infinity, ms);
  if (k === 0 || !native.size) continue; // the first run is nativeRows' own
  for (const [n, ms] of Object.entries(nativeBuildBest(root, sizes))) native.get(Number(n)).build_ms = Math.min(native.get(Number(n)).build_ms, ms);
}
const peers = await loadPeers();
const rows = [];
for (const n of sizes) {
  const { boxes, rays } = benchScene(n, NRAYS);
  const row = { boxes: n };

  // slabcast wasm
  const world = sc.createWorld();
  let t0 = now();
  world.addAABBs(boxes);
  row.add_ms = now() - t0;
  t0 = now();
  world.build();
  row.build_ms = now() - t0;
  const moved = boxes.map((v) => v + 0.25);
  world.updateAABBs(0, moved);
  const bytesBefore = world.bytes;
  t0 = now();
  world.refit();
  row.refit_ms = now() - t0;
  row.refit_bytes_same = world.bytes === bytesBefore;
  // the build time of the Targets table: the best of several fresh builds (buildReps: 50 at 1k
  // boxes, 15 at 10k, 3 above), alternated with --base's (build-times.mjs)
  const builds = wasmBuildBest(baseApi ? [buildApi, baseApi] : [buildApi], boxes);
  row.build_best_ms = builds[0];
  if (baseApi) before.wasm[n] = builds[1];
  world.updateAABBs(0, boxes);
  world.refit();
  world.castRays(rays.subarray(0, 7 * 1000)); // warm up
  t0 = now();
  const res = world.castRays(rays);
  row.wasm_rays_s = NRAYS / ((now() - t0) / 1e3);
  const bruteRays = Math.max(1, Math.min(1000, Math.floor(2e7 / n)));
  t0 = now();
  const brute = world.castRaysBruteForce(rays.subarray(0, 7 * bruteRays));
  row.wasm_brute_tests_s = (bruteRays * n) / ((now() - t0) / 1e3);
  row.bytes_per_box = world.bytes / n;
  let agree = 0;
  for (let i = 0; i < bruteRays; i++) agree += brute.index[i] === res.index[i] && brute.t[i] === res.t[i];
  row.bvh_vs_brute = `${agree}/${bruteRays}`;
  let hits = 0;
  for (let i = 0; i < NRAYS; i++) hits += res.index[i] >= 0;
  row.hit_fraction = hits / NRAYS;

  // native
  const nat = native.get(n);
  row.native_rays_s = nat ? nat.rays_per_s : NaN;
  row.native_brute_tests_s = nat ? nat.brute_tests_per_s : NaN;

  // three.js brute force
  const ray = new THREE.Ray();
  const box = new THREE.Box3();
  const target = new THREE.Vector3();
  const threeRays = Math.max(1, Math.min(200, Math.floor(2e6 / n)));
  t0 = now();
  for (let i = 0; i < threeRays; i++) {
    const r = 7 * i;
    ray.origin.set(rays[r], rays[r + 1], rays[r + 2]);
    ray.direction.set(rays[r + 3], rays[r + 4], rays[r + 5]);
    let best = Infinity;
    for (let b = 0; b < boxes.length; b += 6) {
      box.min.set(boxes[b], boxes[b + 1], boxes[b + 2]);
      box.max.set(boxes[b + 3], boxes[b + 4], boxes[b + 5]);
      if (ray.intersectBox(box, target)) {
        const d = target.distanceTo(ray.origin);
        if (d < best) best = d;
      }
    }
  }
  const threeSec = (now() - t0) / 1e3;
  row.three_rays_s = threeRays / threeSec;
  row.three_tests_s = (threeRays * n) / threeSec;

  // three-mesh-bvh
  if (n <= 1000000) {
    const geometry = boxGeometry(boxes);
    t0 = now();
    const bvh = new MeshBVH(geometry);
    row.tmb_build_ms = now() - t0;
    const tmbRays = Math.min(NRAYS, 20000);
    let checked = 0;
    let wrong = 0;
    t0 = now();
    const hitsTmb = new Array(tmbRays);
    for (let i = 0; i < tmbRays; i++) {
      const r = 7 * i;
      ray.origin.set(rays[r], rays[r + 1], rays[r + 2]);
      ray.direction.set(rays[r + 3], rays[r + 4], rays[r + 5]);
      hitsTmb[i] = bvh.raycastFirst(ray, THREE.DoubleSide);
    }
    row.tmb_rays_s = tmbRays / ((now() - t0) / 1e3);
    for (let i = 0; i < Math.min(tmbRays, 2000); i++) {
      const o = [rays[7 * i], rays[7 * i + 1], rays[7 * i + 2]];
      if (n <= 100000 && insideAny(boxes, o)) continue;
      if (n > 100000) break;
      checked++;
      const h = hitsTmb[i];
      const sh = res.index[i] >= 0;
      if (!!h !== sh || (h && Math.abs(h.distance - res.t[i]) > 1e-3 * Math.max(1, h.distance))) wrong++;
    }
    row.tmb_agreement = checked ? `${checked - wrong}/${checked}` : 'n/a';
    geometry.dispose();
  }
  await peerRows(row, boxes, rays, res, world);
  world.dispose();
  row.speedup_vs_tmb = row.wasm_rays_s / row.tmb_rays_s;
  row.wasm_vs_native = row.wasm_rays_s / row.native_rays_s;
  rows.push(row);
  console.error(JSON.stringify(row));
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`\nslabcast benchmark: ${cpu}, ${os.cpus().length} cores, Node ${process.version}, wasm kernels ${sc.simd}`);
console.log(`scene: sc_bench_scene (uniform boxes 0.5..2.5, cube side 4*cbrt(n)), ${NRAYS} random rays, tmax = inf\n`);
console.log('| boxes | slabcast wasm rays/s | slabcast native rays/s | wasm/native | three-mesh-bvh rays/s | wasm / three-mesh-bvh | three.js brute rays/s | wasm brute box tests/s | native brute box tests/s | three.js brute box tests/s | build ms | refit ms | bytes/box | hits | BVH = brute | three-mesh-bvh agrees |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(`| ${r.boxes} | ${fmt(r.wasm_rays_s)} | ${fmt(r.native_rays_s)} | ${r.wasm_vs_native.toFixed(2)}x | ${fmt(r.tmb_rays_s)} | **${r.speedup_vs_tmb.toFixed(1)}x** | ${fmt(r.three_rays_s)} | ${fmt(r.wasm_brute_tests_s)} | ${fmt(r.native_brute_tests_s)} | ${fmt(r.three_tests_s)} | ${r.build_ms.toFixed(1)} | ${r.refit_ms.toFixed(2)} | ${r.bytes_per_box.toFixed(0)} | ${(100 * r.hit_fraction).toFixed(1)}% | ${r.bvh_vs_brute} | ${r.tmb_agreement ?? 'n/a'} |`);
}

// The physics engines beside slabcast (all wasm, this process, the same boxes and rays).
if (peers.length) {
  const names = peers.map((p) => p.name);
  console.log(`\nPhysics engines (web/bench/peers.mjs), nearest hit over the same static boxes, rays of length ${RAY_LENGTH} (past every box):`);
  console.log(peers.map((p) => `${p.name} ${p.version}: ${p.api}`).join('; ') + '.');
  console.log(`Rays/s: the best of ${PEER_ROUNDS} rounds, each a cast of one batch by slabcast (world.castRays, wasm) then by the peer; slabcast's column: its best over every peer's rounds. ratio = slabcast's best rays/s in the peer's rounds / the peer's best (above 1: slabcast is faster). Agreement: rays whose nearest t matches slabcast\'s within 1e-4 (relative), over the rays each peer cast;`);
  console.log('rays starting inside a box are left out (slabcast: t = 0, solid boxes) and counted apart. Build ms: bodies from the boxes (slabcast: addAABBs + build).\n');
  console.log(`| boxes | slabcast rays/s | ${names.map((n) => `${n} rays/s | ratio`).join(' | ')} | three-mesh-bvh rays/s | ratio | agreement | rays from inside (left out) | build ms: slabcast / ${names.join(' / ')} |`);
  console.log(`| ---: | ---: | ${names.map(() => '---: | ---:').join(' | ')} | ---: | ---: | --- | ---: | ---: |`);
  for (const r of rows) {
    const cells = names.map((n) => {
      const p = r.peers[n];
      if (!p || p.error) return 'failed | -';
      return `${fmt(p.rays_s)}${p.rays < NRAYS ? ` (${p.rays / 1000}k rays)` : ''} | **${p.ratio.toFixed(1)}x**`;
    });
    const agree = names.map((n) => {
      const p = r.peers[n];
      return p && !p.error ? `${n} ${p.checked - p.mismatches}/${p.checked} (${p.mismatches} mismatches)` : `${n} -`;
    });
    const inside = Math.max(...names.map((n) => r.peers[n]?.inside ?? 0));
    const builds = [(r.add_ms + r.build_ms).toFixed(0), ...names.map((n) => r.peers[n]?.build_ms?.toFixed(0) ?? '-')];
    console.log(`| ${r.boxes} | ${fmt(r.sc_best_rays_s)} | ${cells.join(' | ')} | ${fmt(r.tmb_rays_s)} | ${(r.sc_best_rays_s / r.tmb_rays_s).toFixed(1)}x | ${agree.join('; ')} | ${inside} | ${builds.join(' / ')} |`);
  }
}

if (embree.rows.length) {
  const m = embree.machine;
  console.log(`\nNative: slabcast (${m?.slabcast_simd ?? '?'}) against Embree ${embree.rows[0].embree} (build/native/bench_embree; boxes as one RTC_GEOMETRY_TYPE_USER geometry, slab-test callbacks), one thread casting:`);
  console.log(`two Embree devices in the process: the default (Embree picks ${m?.embree_isa ?? '?'} on this CPU) and rtcNewDevice("isa=avx2") (${m?.embree_avx2_isa ?? '?'}, what an AVX2 machine runs).`);
  console.log('Five rounds, each slabcast then both devices; per engine the best round. Rays/s by the thread\'s CPU time (what other jobs on the machine do not inflate); wall clock in brackets.');
  console.log('ratio = slabcast / Embree rtcIntersect1, by CPU time. rtcIntersect1M: the stream call on the default device. Agreement as above, rays from inside a box left out. Embree\'s build runs on every core (TBB).\n');
  console.log(`| boxes | slabcast native rays/s | Embree ${m?.embree_isa ?? 'default'} rtcIntersect1 | ratio | Embree isa=avx2 rtcIntersect1 | ratio | Embree rtcIntersect1M | agreement (default; avx2) | rays from inside (left out) | build ms: slabcast / Embree / Embree avx2 |`);
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |');
  for (const r of embree.rows) {
    console.log(`| ${r.boxes} | ${fmt(r.slabcast_cpu_rays_per_s)} (${fmt(r.slabcast_rays_per_s)}) | ${fmt(r.cpu_rays_per_s)} (${fmt(r.rays_per_s)}) | **${(r.slabcast_cpu_rays_per_s / r.cpu_rays_per_s).toFixed(2)}x** | ${fmt(r.avx2_cpu_rays_per_s)} (${fmt(r.avx2_rays_per_s)}) | **${(r.slabcast_cpu_rays_per_s / r.avx2_cpu_rays_per_s).toFixed(2)}x** | ${fmt(r.stream_cpu_rays_per_s)} (${fmt(r.stream_rays_per_s)}) | ${r.checked - r.mismatches}/${r.checked}; ${r.avx2_checked - r.avx2_mismatches}/${r.avx2_checked} | ${r.inside} | ${r.slabcast_build_ms.toFixed(1)} / ${r.build_ms.toFixed(1)} / ${r.avx2_build_ms.toFixed(1)} |`);
  }
}

// ---------------------------------------------------------------- other scene families
// wasm castRays (the first call includes the BVH build; then the best of three) against
// three-mesh-bvh raycastFirst, and every sampled hit checked against the brute-force kernel.
function tmbRate(boxes, rays, count) {
  const geometry = boxGeometry(boxes);
  const bvh = new MeshBVH(geometry);
  const ray = new THREE.Ray();
  const t0 = now();
  for (let i = 0; i < count; i++) {
    const r = 7 * i;
    ray.origin.set(rays[r], rays[r + 1], rays[r + 2]);
    ray.direction.set(rays[r + 3], rays[r + 4], rays[r + 5]);
    bvh.raycastFirst(ray, THREE.DoubleSide);
  }
  const rate = count / ((now() - t0) / 1e3);
  geometry.dispose();
  return rate;
}

const sceneSizes = sizes.filter((n) => n <= 100000);
if (!noScenes && sceneSizes.length) {
  const srows = [];
  for (const [name, make] of Object.entries(SCENES)) {
    for (const n of sceneSizes) {
      const { boxes, rays } = make(n, NRAYS, rng(0xC0FFEE ^ n));
      const world = sc.createWorld();
      world.addAABBs(boxes);
      let t0 = now();
      const first = world.castRays(rays);
      const firstRate = NRAYS / ((now() - t0) / 1e3);
      let best = Infinity;
      for (let k = 0; k < 3; k++) {
        t0 = now();
        world.castRays(rays, first);
        best = Math.min(best, now() - t0);
      }
      const rate = NRAYS / (best / 1e3);
      const sample = Math.min(NRAYS, Math.max(50, Math.floor(5e7 / n)));
      const brute = world.castRaysBruteForce(rays.subarray(0, 7 * sample));
      let agree = 0;
      for (let i = 0; i < sample; i++) agree += brute.index[i] === first.index[i] && brute.t[i] === first.t[i];
      let hits = 0;
      for (let i = 0; i < NRAYS; i++) hits += first.index[i] >= 0;
      const tmb = tmbRate(boxes, rays, 20000);
      world.dispose();
      const row = { scene: name, boxes: n, wasm_rays_s: rate, first_call_rays_s: firstRate, tmb_rays_s: tmb,
        speedup_vs_tmb: rate / tmb, first_call_vs_tmb: firstRate / tmb, hit_fraction: hits / NRAYS,
        bvh_vs_brute: `${agree}/${sample}` };
      console.error(JSON.stringify(row));
      srows.push(row);
    }
  }
  console.log('\nOther scene families (web/bench/scenes.mjs), 100000 rays each:\n');
  console.log('| scene | boxes | slabcast wasm rays/s | first call, with build | three-mesh-bvh rays/s | wasm / three-mesh-bvh | first call / three-mesh-bvh | hits | BVH = brute |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of srows) {
    console.log(`| ${r.scene} | ${r.boxes} | ${fmt(r.wasm_rays_s)} | ${fmt(r.first_call_rays_s)} | ${fmt(r.tmb_rays_s)} | **${r.speedup_vs_tmb.toFixed(1)}x** | ${r.first_call_vs_tmb.toFixed(1)}x | ${(100 * r.hit_fraction).toFixed(1)}% | ${r.bvh_vs_brute} |`);
  }
}

// ---------------------------------------------------------------- the three.js adapter
// Box meshes (one shared BoxGeometry(1, 1, 1), scaled and placed as sc_bench_scene's boxes;
// 'rotated': each also turned at random, the OBB path), rays from a sphere around the scene
// aimed at random points inside it (so that three.js, FrontSide, reports one hit per box crossed,
// as slabcast does). Measured: createThreeWorld, update() after every mesh moved,
// world.intersect(raycaster) (every hit, sorted: what raycaster.intersectObjects(meshes) returns),
// world.intersectFirst and world.castRays (a batch of Ray) against raycaster.intersectObjects.
// Agreement, on a sample: the same meshes in the same order, distances within 1e-4 (relative).
function threeAdapterRows(n, rotated) {
  const rnd = rng(0x7E1EE ^ n ^ (rotated ? 0xABC : 0));
  const { boxes } = benchScene(n, 0);
  const geometry = new THREE.BoxGeometry(1, 1, 1);
  const material = new THREE.MeshBasicMaterial();
  const meshes = [];
  for (let i = 0; i < n; i++) {
    const b = 6 * i;
    const mesh = new THREE.Mesh(geometry, material);
    mesh.position.set((boxes[b] + boxes[b + 3]) / 2, (boxes[b + 1] + boxes[b + 4]) / 2, (boxes[b + 2] + boxes[b + 5]) / 2);
    mesh.scale.set(boxes[b + 3] - boxes[b], boxes[b + 4] - boxes[b + 1], boxes[b + 5] - boxes[b + 2]);
    if (rotated) mesh.rotation.set(rnd() * 6.283, rnd() * 6.283, rnd() * 6.283);
    mesh.updateMatrixWorld();
    meshes.push(mesh);
  }
  const side = 4 * Math.cbrt(n);
  const nrays = 20000;
  const rays = [];
  for (let i = 0; i < nrays; i++) {
    let u;
    do { u = [rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1]; } while (Math.hypot(...u) > 1 || Math.hypot(...u) < 0.1);
    const l = Math.hypot(...u);
    const o = new THREE.Vector3(side / 2 + (u[0] / l) * side * 1.5, side / 2 + (u[1] / l) * side * 1.5, side / 2 + (u[2] / l) * side * 1.5);
    const d = new THREE.Vector3(rnd() * side, rnd() * side, rnd() * side).sub(o).normalize();
    rays.push(new THREE.Ray(o, d));
  }
  const row = { scene: rotated ? 'rotated' : 'axis-aligned', boxes: n };
  let t0 = now();
  const world = createThreeWorld(sc, { objects: meshes });
  row.build_ms = now() - t0;
  for (const m of meshes) { m.position.x += 0.125; m.updateMatrixWorld(); }
  t0 = now();
  world.update();
  row.update_ms = now() - t0;
  for (const m of meshes) { m.position.x -= 0.125; m.updateMatrixWorld(); }
  world.update();

  const raycaster = new THREE.Raycaster();
  const threeRays = Math.max(50, Math.min(2000, Math.floor(2e6 / n)));
  const threeHits = new Array(threeRays);
  t0 = now();
  for (let i = 0; i < threeRays; i++) {
    raycaster.ray.copy(rays[i]);
    threeHits[i] = raycaster.intersectObjects(meshes, false);
  }
  row.three_rays_s = threeRays / ((now() - t0) / 1e3);

  const mine = new Array(threeRays);
  for (let i = 0; i < 1000; i++) { raycaster.ray.copy(rays[i]); world.intersect(raycaster); } // warm up
  t0 = now();
  for (let i = 0; i < nrays; i++) {
    raycaster.ray.copy(rays[i]);
    const h = world.intersect(raycaster);
    if (i < threeRays) mine[i] = h;
  }
  row.intersect_rays_s = nrays / ((now() - t0) / 1e3);
  t0 = now();
  for (let i = 0; i < nrays; i++) {
    raycaster.ray.copy(rays[i]);
    world.intersectFirst(raycaster);
  }
  row.first_rays_s = nrays / ((now() - t0) / 1e3);
  world.castRays(rays.slice(0, 1000)); // warm up
  t0 = now();
  const batch = world.castRays(rays);
  row.batch_rays_s = nrays / ((now() - t0) / 1e3);

  let agree = 0;
  let hits = 0;
  for (let i = 0; i < threeRays; i++) {
    const a = threeHits[i];
    const b = mine[i];
    hits += a.length;
    const same = a.length === b.length && a.every((h, k) => h.object === b[k].object &&
      Math.abs(h.distance - b[k].distance) <= 1e-4 * Math.max(1, h.distance)) &&
      (a.length === 0 ? batch.index[i] === -1 : world.entries[batch.index[i]] === a[0].object);
    agree += same;
  }
  row.agreement = `${agree}/${threeRays}`;
  row.hits_per_ray = hits / threeRays;
  row.intersect_vs_three = row.intersect_rays_s / row.three_rays_s;
  row.first_vs_three = row.first_rays_s / row.three_rays_s;
  row.batch_vs_three = row.batch_rays_s / row.three_rays_s;
  world.dispose();
  geometry.dispose();
  return row;
}

const threeSizes = sizes.filter((n) => n <= 10000);
if (!noThree && threeSizes.length) {
  const trows = [];
  for (const rotated of [false, true]) {
    for (const n of threeSizes) {
      const row = threeAdapterRows(n, rotated);
      console.error(JSON.stringify(row));
      trows.push(row);
    }
  }
  console.log('\nThe three.js adapter (slabcast/three) against Raycaster.intersectObjects(meshes), box meshes, rays from outside:\n');
  console.log('| scene | box meshes | three.js intersectObjects rays/s | world.intersect rays/s | intersect / three.js | world.intersectFirst rays/s | intersectFirst / three.js | world.castRays (batch) rays/s | castRays / three.js | hits per ray | agrees with three.js | createThreeWorld ms | update() ms |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of trows) {
    console.log(`| ${r.scene} | ${r.boxes} | ${fmt(r.three_rays_s)} | ${fmt(r.intersect_rays_s)} | **${r.intersect_vs_three.toFixed(0)}x** | ${fmt(r.first_rays_s)} | ${r.first_vs_three.toFixed(0)}x | ${fmt(r.batch_rays_s)} | ${r.batch_vs_three.toFixed(0)}x | ${r.hits_per_ray.toFixed(2)} | ${r.agreement} | ${r.build_ms.toFixed(1)} | ${r.update_ms.toFixed(2)} |`);
  }
}

// One ray against one AABB from JS (web/bench/single.mjs), beside three.js's Ray.intersectBox: in a
// process of its own (as JMH forks per benchmark), where neither slabcast's nor three.js's calls
// carry the feedback and heap of the benchmarks above (measured in this process on 2026-11-27,
// raycastAABB was 1.37-1.78x three.js and three.js up to 25% slower than alone, where the same
// code gave 1.19-1.29x).
const single = JSON.parse(execFileSync(process.execPath, [fileURLToPath(new URL('./single.mjs', import.meta.url)), '--json'],
  { encoding: 'utf8', maxBuffer: 1 << 24 }).trim().split('\n').pop());
printSingleRay(single);

// Overlap, sweep and closest-object queries against brute force (web/bench/queries.mjs).
printQueryRows(sizes.filter((n) => n === 10000 || n === 100000).flatMap((n) => queryRows(sc, benchScene, n)));

// Sphere and capsule sweeps against Jolt's and rapier's shape casts at 10k boxes (web/bench/sweep-peers.mjs).
if (sizes.includes(10000)) printSweepPeerRows(await sweepPeerRows(sc, benchScene, 10000));

// The parallel world (slabcast/parallel) on 1, 2 and 4 workers, Node and Chromium (web/bench/parallel-bench.mjs).
const parallel = await runParallelBench({ browser: !noBrowser });

// The Targets table of issue 25 (web/bench/targets.mjs), from this run's figures.
console.log('\n## Targets (issue 25)\n');
for (const line of header({ root, argv, embreeMachine: embree.machine, simd: sc.simd })) console.log(line);
console.log(`before (BVH build time): ${before ? `${before.commit}, ${before.how}` : 'none (web/bench/baseline.json missing; or run with --base DIR)'}\n`);
console.log(formatTargets(targetRows({ embree, rows, native, single, parallel, before })));
