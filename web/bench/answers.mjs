#!/usr/bin/env node
// Answer digests: the bit-identity check of issue 25 (docs/benchmarks.md, "Answer digests").
// For each scene family (FAMILIES: the main benchmark scene of tools/bench_scene.h at 1k, 10k and
// 100k boxes, and every family of web/bench/scenes.mjs at 10k), a world of the boxes answers N
// random rays (1M by default): castRays with normals and anyHit on every ray, castRaysBruteForce
// on the first `brute` of them. Each answer set is hashed (FNV-1a 64 over the little-endian bytes:
// every t as float32 bits, then every index as int32, then every normal as 3 float32; anyHit one
// byte a ray), in wasm through the JS World (web/slabcast.js) and natively through
// build/native/answers_digest (tools/answers_digest.c) on the same boxes and rays, written to a
// scene file. Beside them, one hash per case file (tests/cases/*.json) of the case runner's
// results document (`slabcast-cases run FILE`: the native runner and the wasm runner print the
// same bytes), native and wasm.
//
//   node web/bench/answers.mjs [--rays N] [--check FILE] [--record FILE] [--web DIR] [--native DIR]
//
// --check FILE: compare with the digests recorded in FILE (tests/answers/digests.json) for N rays;
// exit 1 on any difference. --record FILE: add (or replace) the digests for N rays in FILE,
// from the wasm build, after checking that the native build gives the same. --web DIR: the
// JS module and wasm to load (DIR/slabcast.js, DIR/cases.mjs; default web/); --native DIR: the
// native build directory holding answers_digest and slabcast-cases (default build/native).
// `npm run bench:answers` runs the 1M-ray check; tests/web/answers.test.mjs a smaller count.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadBenchScene } from './bench-scene.mjs';
import { SCENES, rng } from './scenes.mjs';
import { isMain } from './is-main.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DIGESTS_FILE = path.join(ROOT, 'tests/answers/digests.json');
export const CASES_DIR = path.join(ROOT, 'tests/cases');

// ---------------------------------------------------------------- FNV-1a 64
// The 64-bit state as four 16-bit limbs (exact in doubles): h ^= byte; h *= 2^40 + 0x1b3 (mod 2^64).
const OFFSET = [0x2325, 0x8422, 0x9ce4, 0xcbf2]; // 0xcbf29ce484222325, low limb first

/** A running FNV-1a 64 hash: update(bytes) as often as needed, then hex() (16 hex digits). */
export function fnv1a64() {
  let [h0, h1, h2, h3] = OFFSET;
  return {
    update(data) {
      const b = data instanceof Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      for (let i = 0; i < b.length; i++) {
        h0 ^= b[i];
        const r0 = h0 * 0x1b3;
        let r1 = h1 * 0x1b3;
        let r2 = h2 * 0x1b3 + h0 * 0x100;
        let r3 = h3 * 0x1b3 + h1 * 0x100;
        h0 = r0 & 0xffff;
        r1 += r0 >>> 16;
        h1 = r1 & 0xffff;
        r2 += r1 >>> 16;
        h2 = r2 & 0xffff;
        r3 += r2 >>> 16;
        h3 = r3 & 0xffff;
      }
      return this;
    },
    hex() {
      return [h3, h2, h1, h0].map((x) => x.toString(16).padStart(4, '0')).join('');
    },
  };
}

/** The "cast" stream of the first n rays: t, then index, then normal (as tools/answers_digest.c). */
export function castHash(r, n = r.t.length) {
  return fnv1a64().update(r.t.subarray(0, n)).update(r.index.subarray(0, n)).update(r.normal.subarray(0, 3 * n)).hex();
}

// ---------------------------------------------------------------- the scene families
/**
 * How many of the rays the brute-force kernel answers too: about 1000 box tests per ray of the run
 * (1e9 for 1M rays: every ray at 1k boxes, 100k at 10k, 10k at 100k), at least 100, at most all.
 */
export const bruteCount = (boxes, rays) => Math.min(rays, Math.max(100, Math.floor((rays * 1000) / boxes)));

/**
 * The families: { name, boxes, scene(benchScene, nrays) -> { boxes, rays } }. The main one from
 * tools/bench_scene.h (its wasm build, web/bench/bench-scene.mjs), the others from scenes.mjs
 * seeded as bench.mjs seeds them (rng(0xC0FFEE ^ n)).
 */
export const FAMILIES = [
  ...[1000, 10000, 100000].map((n) => ({ name: `bench ${n}`, boxes: n, scene: (bench, nrays) => bench(n, nrays) })),
  ...Object.entries(SCENES).map(([name, make]) => ({
    name: `${name} 10000`, boxes: 10000, scene: (bench, nrays) => make(10000, nrays, rng(0xC0FFEE ^ 10000)),
  })),
];

/** The wasm digests of one scene, through the JS World: as tools/answers_digest.c prints them. */
export function wasmDigest(sc, boxes, rays, brute) {
  const n = rays.length / 7;
  const world = sc.createWorld();
  try {
    world.addAABBs(boxes);
    world.build();
    const r = world.castRays(rays);
    const any = world.anyHit(rays);
    const b = world.castRaysBruteForce(rays.subarray(0, 7 * brute));
    const bits = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);
    const [t, bt, nr, bn] = [r.t, b.t, r.normal, b.normal].map(bits);
    let differ = 0;
    for (let i = 0; i < brute; i++) {
      differ += t[i] !== bt[i] || r.index[i] !== b.index[i] ||
        nr[3 * i] !== bn[3 * i] || nr[3 * i + 1] !== bn[3 * i + 1] || nr[3 * i + 2] !== bn[3 * i + 2] ? 1 : 0;
    }
    return {
      simd: sc.simd, boxes: boxes.length / 6, rays: n, brute, cast: castHash(r), any: fnv1a64().update(any).hex(),
      bvh_prefix: castHash(r, brute), brute_cast: castHash(b), bvh_vs_brute_differ: differ,
    };
  } finally {
    world.dispose();
  }
}

/** The native digests of one scene: the scene written to a file, build/native/answers_digest run on it. */
export function nativeDigest(bin, boxes, rays, brute, dir) {
  const file = path.join(dir, 'scene.bin');
  const head = new Int32Array([boxes.length / 6, rays.length / 7, brute]);
  writeFileSync(file, Buffer.concat([head, boxes, rays].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))));
  const r = spawnSync(bin, [file], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.error) throw new Error(`${bin}: ${r.error.message} (build it: npm run build)`);
  if (r.status !== 0) throw new Error(`${bin} ${file}: exit ${r.status}: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout);
}

// ---------------------------------------------------------------- the case files
const caseFiles = () => readdirSync(CASES_DIR).filter((f) => f.endsWith('.json')).sort();

/** Per case file, the hash of the wasm runner's results document (runCaseFile of DIR/cases.mjs). */
export async function wasmCaseDigests(sc, runCaseFile) {
  const out = {};
  for (const f of caseFiles()) {
    const { stdout, code } = await runCaseFile(sc, 'run', path.join(CASES_DIR, f));
    if (code !== 0) throw new Error(`wasm runner: run ${f} exited ${code}`);
    out[f] = fnv1a64().update(Buffer.from(stdout, 'latin1')).hex();
  }
  return out;
}

/** Per case file, the hash of the native runner's results document (`slabcast-cases run FILE`). */
export function nativeCaseDigests(runner) {
  const out = {};
  for (const f of caseFiles()) {
    const r = spawnSync(runner, ['run', path.join(CASES_DIR, f)], { maxBuffer: 1 << 28 });
    if (r.error) throw new Error(`${runner}: ${r.error.message} (build it: npm run build)`);
    if (r.status !== 0) throw new Error(`${runner} run ${f}: exit ${r.status}`);
    out[f] = fnv1a64().update(r.stdout).hex();
  }
  return out;
}

/**
 * Everything, native and wasm: { families: { name: { wasm, native, ms } }, cases: { wasm, native } }.
 * o: { rays (per family), web (the directory of slabcast.js and cases.mjs), native (build dir),
 * families (names to keep; all by default), log }.
 */
export async function computeDigests(o = {}) {
  const nrays = o.rays ?? 1000000;
  const web = o.web ?? path.join(ROOT, 'web');
  const nativeDir = o.native ?? path.join(ROOT, 'build/native');
  const log = o.log ?? (() => {});
  const { loadSlabcast } = await import(pathToFileURL(path.join(web, 'slabcast.js')).href);
  const { runCaseFile } = await import(pathToFileURL(path.join(web, 'cases.mjs')).href);
  const sc = await loadSlabcast();
  const bench = await loadBenchScene();
  const dir = mkdtempSync(path.join(tmpdir(), 'slabcast-answers-'));
  const families = {};
  try {
    for (const f of FAMILIES.filter((x) => !o.families || o.families.includes(x.name))) {
      const t0 = performance.now();
      const { boxes, rays } = f.scene(bench, nrays);
      const brute = bruteCount(f.boxes, nrays);
      const t1 = performance.now();
      const wasm = wasmDigest(sc, boxes, rays, brute);
      const t2 = performance.now();
      const native = nativeDigest(path.join(nativeDir, 'answers_digest'), boxes, rays, brute, dir);
      const t3 = performance.now();
      families[f.name] = { wasm, native, ms: { scene: t1 - t0, wasm: t2 - t1, native: t3 - t2 } };
      log(`${f.name}: ${nrays} rays, brute ${brute}: wasm ${wasm.cast} (${(t2 - t1).toFixed(0)} ms), native ${native.cast} (${(t3 - t2).toFixed(0)} ms)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const t0 = performance.now();
  const cases = { wasm: await wasmCaseDigests(sc, runCaseFile), native: nativeCaseDigests(path.join(nativeDir, 'slabcast-cases')) };
  log(`case files: ${Object.keys(cases.wasm).length} (${(performance.now() - t0).toFixed(0)} ms)`);
  return { families, cases, simd: sc.simd };
}

const KEYS = ['cast', 'any', 'bvh_prefix', 'brute_cast'];
const pick = (d) => Object.fromEntries([['boxes', d.boxes], ['rays', d.rays], ['brute', d.brute], ...KEYS.map((k) => [k, d[k]])]);

/**
 * The differences between computed digests and a record ({ families, cases } of digests.json's
 * runs[N] and cases), as readable lines; [] when every digest matches: native = wasm = recorded,
 * BVH = brute force on the brute rays, and every case file recorded.
 */
export function compareDigests(got, record) {
  const bad = [];
  for (const [name, { wasm, native }] of Object.entries(got.families)) {
    const want = record.families?.[name];
    if (!want) { bad.push(`${name}: no recorded digest`); continue; }
    for (const [where, d] of [['wasm', wasm], ['native', native]]) {
      for (const k of ['boxes', 'rays', 'brute', ...KEYS]) {
        if (d[k] !== want[k]) bad.push(`${name}: ${where} ${k} ${d[k]}, recorded ${want[k]}`);
      }
      if (d.bvh_vs_brute_differ !== 0 || d.bvh_prefix !== d.brute_cast) {
        bad.push(`${name}: ${where} BVH differs from the brute force on ${d.bvh_vs_brute_differ} of ${d.brute} rays`);
      }
    }
  }
  for (const where of ['wasm', 'native']) {
    for (const [f, h] of Object.entries(got.cases[where])) {
      const want = record.cases?.[f];
      if (want === undefined) bad.push(`case file ${f}: no recorded digest (a new file: record it from the commit of the record)`);
      else if (h !== want) bad.push(`case file ${f}: ${where} ${h}, recorded ${want}`);
    }
  }
  return bad;
}

function parseArgs(argv) {
  const o = { rays: 1000000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--rays') o.rays = Number(val());
    else if (a === '--check') o.check = val();
    else if (a === '--record') o.record = val();
    else if (a === '--web') o.web = path.resolve(val());
    else if (a === '--native') o.native = path.resolve(val());
    else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(o.rays) || o.rays < 1 || o.rays > 4000000) throw new Error('--rays must be an integer in [1, 4000000]');
  return o;
}

async function main(argv) {
  const o = parseArgs(argv);
  const t0 = performance.now();
  const got = await computeDigests({ ...o, log: (s) => console.log(s) });
  console.log(`took ${((performance.now() - t0) / 1e3).toFixed(1)} s`);
  const mismatch = [];
  for (const [name, { wasm, native }] of Object.entries(got.families)) {
    for (const k of ['boxes', 'rays', 'brute', ...KEYS]) if (wasm[k] !== native[k]) mismatch.push(`${name}: ${k} wasm ${wasm[k]}, native ${native[k]}`);
    if (wasm.bvh_vs_brute_differ || native.bvh_vs_brute_differ) mismatch.push(`${name}: BVH differs from the brute force`);
  }
  for (const f of Object.keys(got.cases.wasm)) {
    if (got.cases.wasm[f] !== got.cases.native[f]) mismatch.push(`case file ${f}: wasm ${got.cases.wasm[f]}, native ${got.cases.native[f]}`);
  }
  if (o.record) {
    if (mismatch.length) throw new Error(`not recorded: native and wasm differ:\n${mismatch.join('\n')}`);
    let rec = {};
    try { rec = JSON.parse(readFileSync(o.record, 'utf8')); } catch { /* a new file */ }
    rec.format = 'slabcast-answer-digests/1';
    const web = o.web ?? path.join(ROOT, 'web');
    const git = spawnSync('git', ['-C', web, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
    rec.commit = git.status === 0 ? git.stdout.trim() : '?';
    rec.commands = { ...(rec.commands ?? {}), [o.rays]: `node web/bench/answers.mjs ${argv.join(' ')}` };
    rec.hash = 'FNV-1a 64 over little-endian bytes; per family: cast = t (float32) of every ray, then index (int32), then normal (3 float32); any = anyHit, one byte a ray; bvh_prefix and brute_cast = the cast stream of the first `brute` rays from the BVH and from castRaysBruteForce; cases = the results document of `slabcast-cases run FILE`';
    rec.runs = { ...(rec.runs ?? {}), [o.rays]: { families: Object.fromEntries(Object.entries(got.families).map(([k, v]) => [k, pick(v.wasm)])) } };
    rec.cases = got.cases.wasm;
    writeFileSync(o.record, `${JSON.stringify(rec, null, 2)}\n`);
    console.log(`recorded ${o.rays} rays in ${o.record} (native = wasm on every digest)`);
  }
  if (o.check) {
    const rec = JSON.parse(readFileSync(o.check, 'utf8'));
    const run = rec.runs?.[o.rays];
    if (!run) throw new Error(`${o.check} holds no digests for ${o.rays} rays (it has: ${Object.keys(rec.runs ?? {}).join(', ')})`);
    const bad = compareDigests(got, { families: run.families, cases: rec.cases });
    if (bad.length) {
      console.log(`DIFFERENT from ${o.check} (${rec.commit}):\n${bad.join('\n')}`);
      return 1;
    }
    console.log(`bit-identical to ${o.check} (${rec.commit}): ${Object.keys(got.families).length} families x ${o.rays} rays and ${Object.keys(got.cases.wasm).length} case files, native = wasm, BVH = brute force`);
  }
  if (mismatch.length) console.log(`native and wasm DIFFER:\n${mismatch.join('\n')}`);
  return mismatch.length ? 1 : 0;
}

if (isMain(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e) => { console.error(e.message); process.exitCode = 2; });
}
