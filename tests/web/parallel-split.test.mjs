// slabcast/parallel, copied memory: a call is split across as many workers as its size repays
// (web/parallel/copied.js, partsFor: each worker's share at least SPLIT_ITEMS weighted items), so
// a small call goes to one worker, the least busy. Its answers are the World's bit for bit; the
// changes still reach the workers with no part in it (alone, in a 'changes' message); calls on
// different workers settle in the order they were called; a worker that dies, hangs, errors or
// answers a job it was never given fails the world with an error naming it.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { createParallelWorld, SlabcastError } from '../../web/parallel.js';
import { loadSlabcast } from '../../web/slabcast.js';
import { WASM, requireBuilt } from './helpers/artifacts.mjs';
import { addShapes, makeRays, makeScene } from './helpers/world-scenes.mjs';

const FAULT = Symbol.for('slabcast.parallel.fault');
const SPLIT = Symbol.for('slabcast.parallel.split');

let sc;
beforeAll(async () => {
  requireBuilt(WASM);
  sc = await loadSlabcast({ wasm: WASM });
});

const bytes = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
function expectSameResult(got, want, what) {
  for (const key of Object.keys(want)) {
    expect(got[key].length, `${what}.${key}`).toBe(want[key].length);
    expect(Buffer.compare(bytes(got[key]), bytes(want[key])), `${what}.${key}: bits differ`).toBe(0);
  }
}

const open = [];
async function worlds(options = {}) {
  const rand = rng(options.seed ?? 31);
  const shapes = makeScene(rand, options.objects ?? 400, { mixed: true });
  const single = sc.createWorld();
  const par = await createParallelWorld({ workers: 2, memory: 'copied', inline: 0, wasm: WASM, timeout: options.timeout ?? 10000 });
  open.push(single, par);
  addShapes(single, shapes);
  addShapes(par, shapes);
  return { rand, shapes, single, par };
}
afterEach(async () => {
  for (const w of open.splice(0)) await w.dispose();
});

/** Moves, removes, re-adds, masks and disables objects of both worlds alike. */
function change(rand, shapes, single, par, round) {
  const moved = shapes.map((s, i) => (i >= 60 && s.type === 'aabb' ? i : -1)).filter((i) => i >= 0).slice(0, 40);
  expect(moved.length).toBe(40);
  const boxes = moved.map(() => {
    const c = [0, 1, 2].map(() => rand() * 30 - 15);
    return new Float32Array([...c, ...c.map((v) => v + 0.5 + rand() * 3)]);
  });
  for (const w of [single, par]) {
    moved.forEach((i, k) => w.updateAABBs(i, boxes[k]));
    w.remove(10 + round);
    w.setMasks(100, new Uint32Array(50).fill(round % 2 === 0 ? 0b10 : 0b11));
    w.setEnabled(200, new Uint8Array(30).fill(round % 2));
  }
  const s = new Float32Array([round, 1, 2, 3]);
  expect(par.addSpheres(s)).toBe(single.addSpheres(s)); // into the slot just freed
}

describe('copied memory: calls split by their size', () => {
  test('small calls on one worker answer as a World; the changes meanwhile reach the other, as a split call shows', async () => {
    const { rand, shapes, single, par } = await worlds();
    const small = makeRays(rand, shapes, 300); // 300 rays: one worker (below 2 x 1024)
    const large = makeRays(rand, shapes, 6000); // both workers
    expectSameResult(await par.castRays(large), single.castRays(large), 'split, before');
    for (let round = 0; round < 4; round++) {
      change(rand, shapes, single, par, round);
      expectSameResult(await par.castRays(small), single.castRays(small), `small, round ${round}`);
      expectSameBits(await par.anyHit(small), single.anyHit(small), `small anyHit, round ${round}`);
    }
    // worker 1 had no part in the small calls: only the 'changes' messages kept its replica current
    expectSameResult(await par.castRays(large), single.castRays(large), 'split, after the changes');
    const f = { mask: 0b10, inside: 'skip', exclude: new Int32Array(300).map(() => Math.floor(rand() * single.count)) };
    expectSameResult(await par.castRays(small, undefined, f), single.castRays(small, undefined, f), 'small, filtered');
  });

  test('a small call runs on one worker only: a hung other worker does not stop it; a split call times out on it', async () => {
    const { rand, shapes, single, par } = await worlds({ timeout: 1200 });
    par[FAULT](1, 'hang'); // worker 1 loops forever from now on
    const small = makeRays(rand, shapes, 200);
    for (let round = 0; round < 3; round++) {
      change(rand, shapes, single, par, round);
      expectSameResult(await par.castRays(small), single.castRays(small), `round ${round}`);
    }
    const e = await par.castRays(makeRays(rand, shapes, 4096)).then(() => null, (x) => x);
    expect(e).toBeInstanceOf(SlabcastError);
    expect(e.message).toMatch(/world query \(rays\) timed out after 1200 ms; the workers were stopped/);
    await par.rebuild();
    const large = makeRays(rand, shapes, 5000);
    expectSameResult(await par.castRays(large), single.castRays(large), 'after rebuild');
  });

  test('calls in flight go to the least busy worker and settle in the order they were called', async () => {
    const { rand, shapes, single, par } = await worlds();
    const big = makeRays(rand, shapes, 200000);
    const small = makeRays(rand, shapes, 100);
    par[SPLIT](1e9); // every call on one worker: big on worker 0, small on the idle worker 1
    const settled = [];
    const pBig = par.castRays(big).then((r) => { settled.push('big'); return r; });
    const pSmall = par.castRays(small).then((r) => { settled.push('small'); return r; });
    const [rBig, rSmall] = await Promise.all([pBig, pSmall]);
    expect(settled).toEqual(['big', 'small']);
    expectSameResult(rBig, single.castRays(big), 'big');
    expectSameResult(rSmall, single.castRays(small), 'small');
  });

  test("a call made while another waits for one worker's answer does not take the buffer of the other's", async () => {
    const { rand, shapes, single, par } = await worlds({ objects: 1500 });
    const slow = makeRays(rand, shapes, 300000);
    const tiny = makeRays(rand, shapes, 50);
    const split = makeRays(rand, shapes, 3000);
    par[SPLIT](1e9);
    const p0 = par.castRays(tiny); // worker 0
    const p1 = par.castRays(slow); // worker 1, busy for a while
    par[SPLIT](1);
    const p2 = par.castRays(split); // both: worker 0 answers its half long before worker 1
    await p0;
    await new Promise((r) => setTimeout(r, 30)); // worker 0's half of p2 answered, worker 1 still on p1
    par[SPLIT](1e9);
    const p3 = par.castRays(tiny); // the least busy: worker 0, which has no buffer of its own now
    const [r1, r2, r3] = await Promise.all([p1, p2, p3]);
    expectSameResult(r1, single.castRays(slow), 'slow');
    expectSameResult(r2, single.castRays(split), 'split');
    expectSameResult(r3, single.castRays(tiny), 'tiny');
  });

  test("a small call's worker that throws, exits or hangs rejects it with an error naming the worker", async () => {
    const { rand, shapes, single, par } = await worlds({ timeout: 800 });
    const small = makeRays(rand, shapes, 256);
    for (const [kind, want] of [
      ['throw', /^parallel world: worker 0 failed: injected fault: the worker threw/],
      ['terminate', /^parallel world: worker 0 exited/],
      ['hang', /^parallel world: world query \(rays\) timed out after 800 ms/],
    ]) {
      par[FAULT](0, kind);
      const e = await par.castRays(small).then(() => null, (x) => x);
      expect(e, kind).toBeInstanceOf(SlabcastError);
      expect(e.message, kind).toMatch(want);
      expect(par.failed, kind).toBe(e);
      await expect(par.castRays(small)).rejects.toBe(e);
      await par.rebuild();
      expectSameResult(await par.castRays(small), single.castRays(small), `${kind}: after rebuild`);
    }
  });

  test('a worker that answers a job it was never given fails the world', async () => {
    const { rand, shapes, single, par } = await worlds();
    const small = makeRays(rand, shapes, 256);
    par[FAULT](1, 'garble'); // worker 1's next message: the changes alone, answered as if a job
    change(rand, shapes, single, par, 0);
    await par.castRays(small).catch(() => {}); // on worker 0: it may settle before worker 1's answer arrives
    for (let i = 0; i < 100 && par.failed === null; i++) await new Promise((r) => setTimeout(r, 10));
    expect(par.failed).toBeInstanceOf(SlabcastError);
    expect(par.failed.message).toBe('parallel world: worker 1 answered a job it was not given (none was pending)');
    await par.rebuild();
    expectSameResult(await par.castRays(small), single.castRays(small), 'after rebuild');
  });
});

function expectSameBits(got, want, what) {
  expect(got.length, what).toBe(want.length);
  expect(Buffer.compare(bytes(got), bytes(want)), `${what}: bits differ`).toBe(0);
}
