// Extreme inputs (docs/semantics.md, "Extreme inputs"), judged by the exact oracle with an
// allowance that does not grow with distance (tests/oracle/extreme-probes.mjs): far spheres and
// OBBs, subnormal components, entries past FLT_MAX. Fresh seeded probes, through the wasm module
// and the native runner, which must also agree byte for byte.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSlabcast } from '../../web/slabcast.js';
import { generate, judgeProbe } from '../oracle/extreme-probes.mjs';
import { requireBuilt } from './helpers/artifacts.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NATIVE = path.join(ROOT, 'build/native/slabcast-cases');
let sc;
let dir;

beforeAll(async () => {
  requireBuilt('web/slabcast.wasm');
  requireBuilt('build/native/slabcast-cases');
  sc = await loadSlabcast();
  dir = mkdtempSync(path.join(tmpdir(), 'slabcast-extreme-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs cases through the native runner and the wasm runner; returns the native results. */
function bothRunners(cases) {
  const file = path.join(dir, 'cases.json');
  writeFileSync(file, JSON.stringify({ format: 'slabcast-cases/1', cases }));
  const native = spawnSync(NATIVE, ['run', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wasm = spawnSync(process.execPath, [path.join(ROOT, 'web/bin/slabcast-cases.mjs'), 'run', file],
    { encoding: 'utf8', maxBuffer: 1 << 28 });
  expect(native.status, native.stderr).toBe(0);
  expect(wasm.status, wasm.stderr).toBe(0);
  expect(wasm.stdout === native.stdout, 'native and wasm output differ').toBe(true);
  return JSON.parse(native.stdout).results;
}

describe.each(['far', 'tiny', 'huge'])('%s probes', (family) => {
  it('are right by the exact oracle in the wasm module and the native runner', () => {
    const cases = generate(family, 20261125, 300);
    const wrong = [];
    const results = bothRunners(cases);
    cases.forEach((c, i) => {
      const r = sc.raycast(c.ray, c.shape);
      const res = { hit: r.hit, t: r.t, t_enter: r.t_enter, t_exit: r.t_exit, point: r.point && [...r.point] };
      for (const got of [res, results[i]]) {
        const p = judgeProbe(c, got);
        if (p.length) wrong.push(`${c.id} ${c.shape.type} ${c.note ?? ''}: ${p.join('; ')}`);
      }
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    // the family really probes what it says: hits and misses both occur
    const hits = results.filter((r) => r.hit).length;
    expect(hits).toBeGreaterThan(10);
    expect(hits).toBeLessThan(cases.length);
  });
});
