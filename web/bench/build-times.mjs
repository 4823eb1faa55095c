#!/usr/bin/env node
// BVH build times for the "BVH build time: no worse than today" target of issue 25, on the main
// benchmark scene (tools/bench_scene.h): wasm world.build() of fresh worlds (addAABBs untimed), and
// native build/native/bench_world's build_ms (its own best of three, or the best of its runs). With
// a second build (a checkout of the commit before, built: DIR/web/slabcast.js and
// DIR/build/native/bench_world), both are timed in the same process, alternated.
//
//   node web/bench/build-times.mjs [SIZES...] [--base DIR] [--record FILE]
//
// --record FILE writes the base's times (or this checkout's, without --base) to FILE
// (web/bench/baseline.json: the "before" column of bench.mjs's Targets table).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadBenchScene } from './bench-scene.mjs';
import { isMain } from './is-main.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BASELINE_FILE = path.join(ROOT, 'web/bench/baseline.json');

/** The loaded API of DIR/web/slabcast.js (a checkout's own JS module and wasm). */
export async function loadApiFrom(dir) {
  const { loadSlabcast } = await import(pathToFileURL(path.join(dir, 'web/slabcast.js')).href);
  return loadSlabcast();
}

/** How many wasm builds to time (the best is kept): 50 up to 1k boxes, 15 up to 10k (builds of a
 * millisecond or a few are easily disturbed), 3 above. */
export const buildReps = (n) => (n <= 1000 ? 50 : n <= 10000 ? 15 : 3);

/** Best of `reps` wasm builds of fresh worlds of the boxes, for each API, alternated: ms per API. */
export function wasmBuildBest(apis, boxes, reps = buildReps(boxes.length / 6)) {
  const best = apis.map(() => Infinity);
  for (let k = 0; k < reps; k++) {
    apis.forEach((sc, i) => {
      const w = sc.createWorld();
      w.addAABBs(boxes);
      const t0 = performance.now();
      w.build();
      best[i] = Math.min(best[i], performance.now() - t0);
      w.dispose();
    });
  }
  return best;
}

/** Native build ms by size: the best over `runs` runs of DIR/build/native/bench_world SIZES. */
export function nativeBuildBest(dir, sizes, runs = 1) {
  const bin = path.join(dir, 'build/native/bench_world');
  const best = {};
  for (let k = 0; k < runs; k++) {
    const out = execFileSync(bin, sizes.map(String), { encoding: 'utf8', maxBuffer: 1 << 24 });
    for (const r of out.trim().split('\n').map((l) => JSON.parse(l))) best[r.boxes] = Math.min(best[r.boxes] ?? Infinity, r.build_ms);
  }
  return best;
}

if (isMain(import.meta.url)) {
  const argv = process.argv.slice(2);
  const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const base = opt('--base') && path.resolve(opt('--base'));
  const record = opt('--record');
  const sizes = argv.filter((a, i) => /^\d+$/.test(a) && !['--base', '--record'].includes(argv[i - 1])).map(Number);
  if (!sizes.length) sizes.push(1000, 10000, 100000, 1000000);
  const benchScene = await loadBenchScene();
  const apis = [await loadApiFrom(ROOT), ...(base ? [await loadApiFrom(base)] : [])];
  const wasm = { here: {}, base: {} };
  for (const n of sizes) {
    const { boxes } = benchScene(n, 0);
    const [here, was] = wasmBuildBest(apis, boxes);
    wasm.here[n] = here;
    if (base) wasm.base[n] = was;
    console.log(`wasm ${n} boxes: ${here.toFixed(2)} ms${base ? `, base ${was.toFixed(2)} ms (${(here / was).toFixed(2)}x)` : ''}`);
  }
  // native: alternate the two programs, three runs each
  const nat = { here: {}, base: {} };
  for (let k = 0; k < 3; k++) {
    for (const [key, dir] of [['here', ROOT], ...(base ? [['base', base]] : [])]) {
      for (const [n, ms] of Object.entries(nativeBuildBest(dir, sizes))) nat[key][n] = Math.min(nat[key][n] ?? Infinity, ms);
    }
  }
  for (const n of sizes) console.log(`native ${n} boxes: ${nat.here[n].toFixed(2)} ms${base ? `, base ${nat.base[n].toFixed(2)} ms (${(nat.here[n] / nat.base[n]).toFixed(2)}x)` : ''}`);
  if (record) {
    const from = base ? 'base' : 'here';
    let commit = '?';
    try {
      commit = execFileSync('git', ['-C', base ?? ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    } catch { /* not a checkout */ }
    // A record of the same commit is merged: per size the lower time (the machine is shared, and a
    // slower run measures the load more than the build).
    let old = null;
    try { old = JSON.parse(readFileSync(record, 'utf8')); } catch { /* a new file */ }
    if (old?.commit !== commit) old = null;
    const merge = (o, prev) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(Math.min(v, prev?.[k] ?? Infinity) * 1000) / 1000]));
    writeFileSync(record, `${JSON.stringify({
      commit, date: new Date().toISOString(), runs: (old ? old.runs ?? 1 : 0) + 1,
      how: `node web/bench/build-times.mjs ${argv.join(' ')}: wasm best of 50 fresh builds up to 1k boxes, 15 up to 10k, 3 above; native best of 3 runs of bench_world (each its own best of 3); per size the best over the runs recorded`,
      wasm: merge(wasm[from], old?.wasm), native: merge(nat[from], old?.native),
    }, null, 2)}\n`);
    console.log(`recorded ${from} in ${record}`);
  }
}
