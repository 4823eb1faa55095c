// raycastAABB, the allocation-free one-ray-one-box call, answers with exactly the bits of the
// core's raycast (which the oracle and the case files check): on every AABB raycast of the case
// files, and on random inputs built to reach every path of the JavaScript slab test
// (web/core/slab.js) and its fallbacks to the core: dyadic ties, axis-parallel rays with 0 and -0,
// origins on faces and inside, subnormal and huge values, quotients that underflow or overflow.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { ROOT } from './helpers/artifacts.mjs';
import { coreAABB, coreRaycaster } from './helpers/core-raycast.mjs';

let sc;
let coreRaycast;
beforeAll(async () => {
  sc = await loadSlabcast();
  coreRaycast = await coreRaycaster();
});

/**
 * The core's raycast of the same inputs (sc_wasm_raycast called directly: sc.raycast answers
 * AABBs with the same JavaScript slab path), as the 9 floats raycastAABB writes, or null for a
 * miss; an invalid input throws (as raycastAABB must).
 */
function reference(ray, box) {
  const r = coreAABB(coreRaycast, ray, box);
  if (r.status !== 0) throw new SlabcastError(sc.statusMessage(r.status), { status: r.status });
  return r.floats;
}

function same(ray, box, target) {
  target.fill(NaN);
  const hit = sc.raycastAABB(ray, box, target);
  const want = reference(ray, box);
  if (hit !== (want !== null)) return `hit ${hit}, core ${want !== null}`;
  if (!hit) return target.every(Number.isNaN) ? null : 'a miss wrote the target';
  for (let i = 0; i < 9; i++) if (!Object.is(target[i], want[i])) return `field ${i}: ${target[i]} vs core ${want[i]}`;
  return null;
}

const SPECIAL = [0, -0, 1, -1, 0.5, 2, 3, 1e-45, -1e-45, 1.1754942e-38, 1e-30, 1e30, 3.4028235e38, -3.4028235e38, 8.507059e37, 1.7014118e38, 1e-40];

describe('raycastAABB gives the core raycast bit for bit', () => {
  test('every AABB raycast of the case files', () => {
    const target = new Float32Array(9);
    let n = 0;
    const problems = [];
    for (const file of readdirSync(path.join(ROOT, 'tests/cases')).filter((f) => f.endsWith('.json'))) {
      let doc;
      try { doc = JSON.parse(readFileSync(path.join(ROOT, 'tests/cases', file), 'utf8')); } catch { continue; }
      for (const c of doc.cases ?? []) {
        if (c === null || typeof c !== 'object') continue;
        const { ray, shape } = c;
        if (!ray || !shape || shape.type !== 'aabb' || c.query !== 'raycast') continue;
        const arr = (v) => (Array.isArray(v) ? v : []);
        const vals = [...arr(ray.origin), ...arr(ray.dir), ray.tmax ?? Infinity];
        const box = [...arr(shape.min), ...arr(shape.max)];
        if (vals.length !== 7 || box.length !== 6 || ![...vals, ...box].every((x) => typeof x === 'number')) continue;
        let msg;
        try { msg = same(vals, box, target); } catch (e) {
          // invalid input: the same error as the core's
          let core;
          try { reference(vals, box); } catch (e2) { core = e2; }
          msg = e instanceof SlabcastError && core && core.message === e.message ? null : `threw ${e.message}`;
        }
        n++;
        if (msg) problems.push(`${file} ${c.id}: ${msg}`);
      }
    }
    expect(problems).toEqual([]);
    expect(n).toBeGreaterThan(200);
  });

  test('random inputs: dyadic, continuous, special values', () => {
    const rand = rng(0xAAB);
    const target = new Float32Array(9);
    const problems = [];
    const dy = () => Math.floor(rand() * 33 - 16) / 4;
    const pick = () => SPECIAL[Math.floor(rand() * SPECIAL.length)];
    const val = (mode) => (mode === 0 ? dy() : mode === 1 ? (rand() - 0.5) * 20 : rand() < 0.5 ? pick() : dy());
    for (let k = 0; k < 60000 && problems.length < 5; k++) {
      const mode = k % 3;
      const lo = [val(mode), val(mode), val(mode)];
      const hi = lo.map((x) => (rand() < 0.15 ? x : Math.max(x, val(mode) + (mode === 2 ? 0 : Math.abs(val(mode))))));
      const o = [val(mode), val(mode), val(mode)];
      if (rand() < 0.2) { const a = Math.floor(rand() * 3); o[a] = rand() < 0.5 ? lo[a] : hi[a]; }
      const d = [val(mode), val(mode), val(mode)].map((x) => (rand() < 0.2 ? (rand() < 0.5 ? 0 : -0) : x));
      if (d.every((x) => x === 0)) d[0] = 1;
      const tmax = rand() < 0.3 ? Math.abs(val(mode)) : Infinity;
      const msg = same([...o, ...d, tmax], [...lo, ...hi], target);
      if (msg) problems.push(`ray ${[...o, ...d, tmax]} box ${[...lo, ...hi]}: ${msg}`);
    }
    expect(problems).toEqual([]);
  });

  test('arguments are checked; invalid geometry gets the core message', () => {
    const t = new Float32Array(9);
    const bad = (f, message) => {
      let e;
      try { f(); } catch (err) { e = err; }
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toContain(message);
    };
    const ray = [0, 0, 0, 1, 0, 0, Infinity];
    const box = [1, -1, -1, 2, 1, 1];
    bad(() => sc.raycastAABB(ray.slice(0, 6), box, t), 'ray must be a Float32Array, a Float64Array or an array of 7 numbers');
    bad(() => sc.raycastAABB(new Float32Array(6), box, t), 'ray must hold 7 floats');
    bad(() => sc.raycastAABB(ray, [1, 2, 3, 4, 5, '6'], t), 'box[5] must be a number');
    bad(() => sc.raycastAABB(ray, box, new Float32Array(8)), 'target must hold at least 9 floats');
    bad(() => sc.raycastAABB(ray, box, [0, 0, 0, 0, 0, 0, 0, 0, 0]), 'target must be a Float32Array or a Float64Array');
    bad(() => sc.raycastAABB([0, 0, 0, 0, 0, 0, 1], box, t), 'ray.dir is zero');
    bad(() => sc.raycastAABB(ray, [2, 0, 0, 1, 1, 1], t), 'shape.min is greater than shape.max');
    bad(() => sc.raycastAABB([0, 0, NaN, 1, 0, 0, 1], box, t), 'ray.origin is not finite');
    // a hit by hand: enters x = 1 at t = 1, leaves at 2, normal (-1, 0, 0)
    expect(sc.raycastAABB(ray, box, t)).toBe(true);
    expect(Array.from(t)).toEqual([1, 1, 2, 1, 0, 0, -1, 0, 0]);
    const f64 = new Float64Array(9).fill(7);
    expect(sc.raycastAABB([0, 0, 0, -1, 0, 0, Infinity], box, f64)).toBe(false);
    expect(Array.from(f64)).toEqual(new Array(9).fill(7)); // a miss leaves the target alone
  });

  test('typed arrays are judged by what they are, not by what they say', () => {
    const t = new Float32Array(9);
    const box = new Float32Array([1, -1, -1, 2, 1, 1]);
    const bad = (f, message) => {
      let e;
      try { f(); } catch (err) { e = err; }
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toContain(message);
    };
    // a Float32Array of 8 whose own length says 7 is still 8 long
    const long = new Float32Array([0, 0, 0, 1, 0, 0, Infinity, 5]);
    Object.defineProperty(long, 'length', { value: 7 });
    bad(() => sc.raycastAABB(long, box, t), 'ray must hold 7 floats');
    // a Float32Array box of 5 that says 6
    const short = new Float32Array([1, -1, -1, 2, 1]);
    Object.defineProperty(short, 'length', { value: 6 });
    bad(() => sc.raycastAABB(new Float32Array([0, 0, 0, 1, 0, 0, Infinity]), short, t), 'box must hold 6 floats');
    // the same target, checked once, then shrunk under it (a length-tracking view of a resizable
    // buffer): the next call sees it
    const buffer = new ArrayBuffer(36, { maxByteLength: 64 });
    const tracking = new Float32Array(buffer);
    const ray = new Float32Array([0, 0, 0, 1, 0, 0, Infinity]);
    expect(sc.raycastAABB(ray, box, tracking)).toBe(true);
    expect(Array.from(tracking)).toEqual([1, 1, 2, 1, 0, 0, -1, 0, 0]);
    buffer.resize(32);
    bad(() => sc.raycastAABB(ray, box, tracking), 'target must hold at least 9 floats; it holds 8');
  });
});
