// Capsules (docs/semantics.md, "Capsules") against the exact oracle (tests/oracle/capsule.mjs,
// BigInt rationals, not derived from src/): every class exact on adversarial and random cases,
// reported numbers within the stated bound, a == b bit-identical to the sphere, radius 0's
// normals, the JS errors, and native and wasm giving the same bytes on random capsule cases.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { capsuleCases, rng } from '../oracle/capsule-gen.mjs';
import { closestPointCapsule, judgeCapsule, raycastCapsule, segmentsWithin } from '../oracle/capsule.mjs';
import { capsuleCaseFile } from '../oracle/gen-capsule-cases.mjs';
import { NATIVE_RUNNER, ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';

const f32 = Math.fround;

/** Problems of the JS API's answer to case c against the oracle (tests/oracle/capsule.mjs judgeCapsule). */
function judge(sc, c) {
  const input = { query: c.query, shape: c.shape };
  let res;
  if (c.query === 'raycast') {
    input.ray = { ...c.ray, tmax: c.ray.tmax ?? Infinity };
    res = sc.raycast(c.ray, c.shape);
  } else if (c.query === 'linetest') {
    input.segment = c.segment;
    res = sc.linetest(c.segment, c.shape);
  } else {
    input.point = c.point;
    res = c.query === 'contains' ? sc.contains(c.point, c.shape) : sc.closestPoint(c.point, c.shape);
  }
  return judgeCapsule(input, res);
}

describe('capsules against the exact oracle', () => {
  let sc;
  beforeAll(async () => {
    requireBuilt(WASM);
    sc = await loadSlabcast();
  });

  it('adversarial and random cases: every class exact, every number within 2^-20 of the scale', () => {
    const cases = capsuleCases(7, 1500);
    const wrong = [];
    const counts = {};
    for (const c of cases) {
      counts[c.query] = (counts[c.query] ?? 0) + 1;
      const bad = judge(sc, c);
      if (bad.length) wrong.push(`${c.id}: ${bad.join('; ')}`);
    }
    console.log(`capsule oracle: ${cases.length} cases (${JSON.stringify(counts)}), ${wrong.length} wrong`);
    expect(wrong).toEqual([]);
  }, 120000);

  it('a == b is the sphere, bit for bit', () => {
    const R = rng(5);
    const r = () => f32((R() - 0.5) * 20);
    for (let i = 0; i < 2000; i++) {
      const center = [r(), r(), r()];
      const radius = i % 13 === 0 ? 0 : f32(Math.abs(r()) / 3);
      const ray = { origin: [r(), r(), r()], dir: [r(), r(), r()], tmax: i % 2 ? Infinity : Math.abs(r()) };
      const cap = { type: 'capsule', a: center, b: center, radius };
      const sph = { type: 'sphere', center, radius };
      expect(sc.raycast(ray, cap)).toEqual(sc.raycast(ray, sph));
      const p = [r(), r(), r()];
      expect(sc.closestPoint(p, cap)).toEqual(sc.closestPoint(p, sph));
      expect(sc.contains(p, cap)).toEqual(sc.contains(p, sph));
      expect(sc.linetest({ a: ray.origin, b: p }, cap)).toEqual(sc.linetest({ a: ray.origin, b: p }, sph));
    }
  });

  it('the oracle itself: hand-derived answers', () => {
    // points 5 apart (3-4-5), radii summed exactly; parallel segments sqrt(2) apart
    expect(segmentsWithin([0, 0, 0], [0, 0, 0], [3, 4, 0], [3, 4, 0], 2, 3)).toBe(true);
    expect(segmentsWithin([0, 0, 0], [0, 0, 0], [3, 4, 0], [3, 4, 0], 2, 2.9999998)).toBe(false);
    expect(segmentsWithin([0, 0, 0], [1, 0, 0], [2, 1, 0], [3, 1, 0], 1, 0.41421357)).toBe(true);
    expect(segmentsWithin([0, 0, 0], [1, 0, 0], [2, 1, 0], [3, 1, 0], 1, 0.41421353)).toBe(false);
    const z = { type: 'capsule', a: [0, 0, 0], b: [0, 0, 10], radius: 1 };
    const e = raycastCapsule({ origin: [0, 0, 20], dir: [0, 0, -1] }, z);
    expect([e.hit, e.t_enter, e.t_exit, e.normal]).toEqual([true, 9, 21, [0, 0, 1]]);
    const g = raycastCapsule({ origin: [5, 0, 5], dir: [-1, 0, 0] }, z);
    expect([g.t_enter, g.t_exit, g.point, g.normal]).toEqual([4, 6, [1, 0, 5], [1, 0, 0]]);
    expect(raycastCapsule({ origin: [1, -5, 5], dir: [0, 1, 0] }, { ...z, radius: 0.99999994 }).hit).toBe(false);
    expect(closestPointCapsule([3, 4, 5], z).point.map((x) => +x.toFixed(12))).toEqual([0.6, 0.8, 5]);
  });
});

describe('capsule errors in JS', () => {
  let sc;
  beforeAll(async () => {
    sc = await loadSlabcast();
  });
  const ray = { origin: [0, 0, -5], dir: [0, 0, 1] };
  const cap = { type: 'capsule', a: [0, 0, 0], b: [0, 0, 1], radius: 1 };
  it.each([
    [{ ...cap, a: [NaN, 0, 0] }, 'capsule.a is not finite'],
    [{ ...cap, b: [0, Infinity, 0] }, 'capsule.b is not finite'],
    [{ ...cap, b: [0, 1e39, 0] }, 'capsule.b is not finite'],
    [{ ...cap, radius: -1 }, 'capsule.radius is negative'],
    [{ ...cap, radius: NaN }, 'capsule.radius is not finite'],
    [{ ...cap, a: [0, 0] }, '"shape.a" must be an array of 3 numbers'],
    [{ ...cap, b: undefined }, '"shape.b" must be an array of 3 numbers'],
    [{ ...cap, radius: '1' }, '"shape.radius" must be a number'],
  ])('%j: %s', (shape, message) => {
    for (const call of [() => sc.raycast(ray, shape), () => sc.linetest({ a: [0, 0, 0], b: [1, 1, 1] }, shape),
      () => sc.contains([0, 0, 0], shape), () => sc.closestPoint([0, 0, 0], shape)]) {
      let err;
      try { call(); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(SlabcastError);
      expect(err.message).toBe(message);
    }
  });
});

describe('capsule cases: native and wasm runners give the same bytes', () => {
  let dir;
  beforeAll(() => {
    requireBuilt(NATIVE_RUNNER);
    requireBuilt(WASM);
    dir = mkdtempSync(path.join(tmpdir(), 'slabcast-capsule-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([[101, 600], [202, 600]])('random capsule cases, seed %i', (seed, count) => {
    const file = path.join(dir, `capsule-${seed}.json`);
    const cases = capsuleCaseFile(seed, count);
    writeFileSync(file, JSON.stringify({ format: 'slabcast-cases/1', cases }));
    const run = (cmd, args) => spawnSync(cmd, args, { cwd: ROOT, maxBuffer: 1 << 26 });
    const n = run(NATIVE_RUNNER, ['run', file]);
    const w = run(process.execPath, [path.join(ROOT, 'web/bin/slabcast-cases.mjs'), 'run', file]);
    expect(n.status).toBe(0);
    expect(w.status).toBe(0);
    expect(n.stdout.length).toBeGreaterThan(1000);
    expect(Buffer.compare(n.stdout, w.stdout)).toBe(0);
    // and both pass the oracle's expects
    const c = run(NATIVE_RUNNER, ['check', file]);
    expect(c.stdout.toString()).toMatch(new RegExp(`^${cases.length} passed, 0 failed$`, 'm'));
  }, 120000);
});
