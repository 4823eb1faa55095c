// Model-based test of the whole JS world API (issue 22, item 2), with fast-check: random
// sequences of adds (AABBs, OBBs with the full allowed axis skew, spheres, capsules; zero-size,
// huge and tiny), updates, removes, setEnabled, setMasks and every query (castRays, castRaysBruteForce,
// anyHit, castRayAll, castSegments, castSpheres, castBoxes and their brute forces, the five
// overlaps (overlapCapsule too) and overlapBruteForce, closestObjects and its brute force) with random filters (mask,
// exclude, inside: solid / skip / exit), fed through plain and hostile arrays (resizable and
// shrunk by a getter, detached, subclassed, Proxies, a 2^30-entry out array, a huge setMasks).
//
// The model (helpers/model-world.mjs, model-checks.mjs) is built on the single queries
// (sc.raycast, sc.contains, sc.closestPoint) and the contract (docs/semantics.md: World queries,
// Filters, Overlaps, Nearest objects, Sweeps), never on the world's own kernels. Ray answers must
// be exact (nearest reported float32 t, ties to the lowest index); overlaps, nearest objects and
// sweeps are checked where the answer is certain (exact BigInt tests, certified witness points,
// clear separations, bounds from inner and outer shapes). A hostile call may throw SlabcastError
// or answer for the data really present; the next command checks the module still answers right.
//
// Each run gets a fresh instance of the module, so a corrupted heap cannot leak into the next run.
//   npx vitest run tests/web/world-model.test.mjs                 fixed seed, bounded runs
//   SLABCAST_MODEL_SEED=N SLABCAST_MODEL_RUNS=M npx vitest run tests/web/world-model.test.mjs
//   SLABCAST_MODEL_PATH=... (with the seed) replays one counterexample; scripts/fuzz.sh runs it
//   longer with a random seed; SLABCAST_MODEL_WITHOUT leaves features out (docs/fuzzing.md)
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { commandArbs } from './helpers/model-queries.mjs';
import { WorldModel } from './helpers/model-world.mjs';

// SLABCAST_MODEL_SEED, _RUNS, _TIME (seconds; stop starting new runs after it), _PATH (replay).
// Without them: the fixed seed, 600 runs, at most 45 s (npm test). scripts/fuzz.sh sets them.
const env = process.env;
const num = (name, dflt) => {
  if (env[name] === undefined || env[name] === '') return dflt;
  const v = Number(env[name]);
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`${name} must be a non-negative integer, not "${env[name]}"`);
  return v;
};
const SEED = num('SLABCAST_MODEL_SEED', 20261126);
const RUNS = num('SLABCAST_MODEL_RUNS', 600);
const TIME = num('SLABCAST_MODEL_TIME', env.SLABCAST_MODEL_RUNS ? 0 : 45) * 1000;
const PATH = env.SLABCAST_MODEL_PATH || undefined;
const REPLAY = env.SLABCAST_MODEL_REPLAY || undefined; // fc.commands' replayPath, with PATH

let wasm;
beforeAll(async () => {
  wasm = await WebAssembly.compile(readFileSync(new URL('../../web/slabcast.wasm', import.meta.url)));
});

/** A fresh module instance and world per run, and an empty model. */
async function fresh() {
  const sc = await loadSlabcast({ wasm });
  return { sc, w: sc.createWorld(), Err: SlabcastError };
}

describe('world model (fast-check)', () => {
  test(`random command sequences agree with the model (seed ${SEED}, ${RUNS} runs)`, async () => {
    const property = fc.asyncProperty(fc.commands(commandArbs(), { maxCommands: 40, size: 'medium', replayPath: REPLAY }), async (cmds) => {
      const real = await fresh();
      try {
        fc.modelRun(() => ({ model: new WorldModel(), real }), cmds);
      } finally {
        real.w.dispose();
      }
    });
    const params = { seed: SEED, numRuns: RUNS, endOnFailure: false, verbose: 1 };
    if (PATH) params.path = PATH;
    if (TIME) params.interruptAfterTimeLimit = TIME;
    const out = await fc.check(property, params);
    console.log(`world model: ${out.numRuns} runs, seed ${SEED}${out.interrupted ? ' (time limit reached)' : ''}`);
    let replay = '';
    if (out.failed) {
      // the seed, the path and the commands' replay path replay the shrunk counterexample
      const text = fc.stringify(out.counterexample);
      const rp = /replayPath="([^"]*)"/.exec(text)?.[1];
      replay = `SLABCAST_MODEL_SEED=${out.seed} SLABCAST_MODEL_PATH=${out.counterexamplePath}${rp ? ` SLABCAST_MODEL_REPLAY='${rp}'` : ''}`;
      console.error(`world model FAILED: ${replay}`);
      console.error(`counterexample: ${text}`);
      console.error(`error: ${out.errorInstance?.message ?? out.error}`);
    }
    expect(out.failed ? `${out.errorInstance?.message ?? out.error}\n${replay}` : null).toBe(null);
    expect(out.numRuns).toBeGreaterThan(0);
  }, TIME + 600_000);
});
