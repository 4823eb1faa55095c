// An A/B of world.castRays between builds, in one process: each build's module (its own wasm
// instance) casts the benchmark's scene (bench-scene.mjs: n boxes, 100k rays), the builds
// interleaved round by round so that the machine's load falls on all alike. Every build's
// answers are first checked to be those of the first, bit for bit (t, index, normal). Timing: the
// process's CPU time per cast, each build's best round; the ratio is to the first build.
//
//   node web/bench/cast-ab.mjs [--sizes 10000,100000] [--rounds 9] BUILD BUILD...
//
// BUILD: a checkout (its web/slabcast.js and web/slabcast.wasm, as scripts/build.sh stages
// them), or a .wasm file (loaded by this checkout's web/slabcast.js), optionally named: name=BUILD.
// Needs build/wasm/slabcast-bench.wasm (npm run build). Separate processes see the machine's load
// change between them; here every build runs in each round, so a ratio of 1.03 is noise on a
// busy machine and a real change shows in every run.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadBenchScene } from './bench-scene.mjs';

const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt);
const sizes = opt('--sizes', '10000,100000').split(',').map(Number);
const rounds = Number(opt('--rounds', '9'));
const specs = argv.filter((a, i) => !a.startsWith('--') && !['--sizes', '--rounds'].includes(argv[i - 1]));
if (specs.length < 1 || !sizes.every((n) => Number.isInteger(n) && n > 0) || !(rounds >= 1)) {
  console.error('usage: node web/bench/cast-ab.mjs [--sizes 10000,100000] [--rounds 9] BUILD BUILD...');
  process.exit(2);
}

/** A build's name and its loaded API: a checkout's own loader and wasm, or a .wasm file with this checkout's loader. */
async function load(spec, k) {
  const eq = spec.indexOf('=');
  const name = eq > 0 ? spec.slice(0, eq) : `${k}:${path.basename(spec)}`;
  const where = path.resolve(eq > 0 ? spec.slice(eq + 1) : spec);
  const file = existsSync(where) && statSync(where).isFile();
  const root = file ? here : where;
  const wasm = file ? where : path.join(root, 'web/slabcast.wasm');
  // the query string gives each build a module instance of its own
  const mod = await import(`${pathToFileURL(path.join(root, 'web/slabcast.js')).href}?build=${k}`);
  return { name, api: await mod.loadSlabcast({ wasm: readFileSync(wasm) }) };
}

const builds = [];
for (const [k, spec] of specs.entries()) builds.push(await load(spec, k));
const scene = await loadBenchScene();
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const NRAYS = 100000;
const same = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

for (const n of sizes) {
  const { boxes, rays } = scene(n, NRAYS);
  const runs = builds.map(({ api }) => {
    const world = api.createWorld();
    world.addAABBs(boxes);
    world.commit();
    const out = world.castRays(rays); // warm-up, and the answers
    return { world, out, best: 0 };
  });
  for (const [k, r] of runs.entries()) {
    const a = runs[0].out;
    if (!same(r.out.t, a.t) || !same(r.out.index, a.index) || !same(r.out.normal, a.normal)) {
      console.error(`${n} boxes: ${builds[k].name}'s answers differ from ${builds[0].name}'s`);
      process.exitCode = 1;
    }
  }
  for (let round = 0; round < rounds; round++) {
    for (const r of runs) {
      const t0 = cpuMs();
      r.world.castRays(rays, r.out);
      r.best = Math.max(r.best, NRAYS / ((cpuMs() - t0) / 1e3));
    }
  }
  const cols = runs.map((r, k) => `${builds[k].name} ${(r.best / 1e6).toFixed(3)} M rays/s${k ? ` (${(r.best / runs[0].best).toFixed(3)}x)` : ''}`);
  console.log(`${n} boxes: ${cols.join('  ')}`);
  for (const r of runs) r.world.dispose();
}
