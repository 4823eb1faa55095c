// The benchmark's scene lives outside the product: slabcast.wasm exports nothing of it, and
// build/wasm/slabcast-bench.wasm (tools/wasm_bench_scene.c) computes it. Its boxes are checked
// against an independent JS computation of tools/bench_scene.h's generator (xorshift32 and
// exact float32 steps) at sizes whose cube side 4*cbrt(n) is exact.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBenchScene } from '../../web/bench/bench-scene.mjs';
import { BENCH_WASM, WASM, requireBuilt } from './helpers/artifacts.mjs';

let benchScene;
beforeAll(async () => {
  requireBuilt(WASM);
  requireBuilt(BENCH_WASM);
  benchScene = await loadBenchScene(BENCH_WASM);
});

/** tools/bench_scene.h's boxes, computed here: each coordinate from the 24 high bits of xorshift32. */
function expectedBoxes(n, side) {
  let s = 0x12345678;
  const next = () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s;
  };
  const u = () => (next() >>> 8) / 16777216;
  const f = Math.fround;
  const out = new Float32Array(6 * n);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      const c = f(u() * side);
      const h = f(0.25 + u());
      out[6 * i + a] = f(c - h);
      out[6 * i + 3 + a] = f(c + h);
    }
  }
  return out;
}

describe('benchmark scene', () => {
  it('the product wasm holds no benchmark code', () => {
    const names = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(WASM))).map((e) => e.name);
    expect(names.filter((n) => /bench/i.test(n))).toEqual([]);
    expect(names).toContain('sc_wasm_world_cast_rays'); // the product is there
  });

  it('slabcast-bench.wasm computes tools/bench_scene.h', () => {
    for (const [n, side] of [[1, 4], [8, 8], [27, 12], [1000, 40]]) {
      const { boxes, rays } = benchScene(n, 0);
      expect(rays.length).toBe(0);
      expect(Array.from(boxes)).toEqual(Array.from(expectedBoxes(n, side)));
    }
  });

  it('rays are unit directions from inside the cube, tmax infinite, deterministic', () => {
    const a = benchScene(64, 500);
    const b = benchScene(64, 500);
    expect(Array.from(a.rays)).toEqual(Array.from(b.rays));
    for (let i = 0; i < 500; i++) {
      const r = a.rays.subarray(7 * i, 7 * i + 7);
      for (let k = 0; k < 3; k++) expect(r[k] >= 0 && r[k] < 16).toBe(true);
      expect(Math.abs(Math.hypot(r[3], r[4], r[5]) - 1)).toBeLessThan(1e-6);
      expect(r[6]).toBe(Infinity);
    }
  });

  it('refuses bad sizes', () => {
    for (const bad of [-1, 1.5, NaN, Infinity, '10', null, 2 ** 24 + 1]) {
      expect(() => benchScene(bad, 1)).toThrow('n must be an integer in [0, 16777216]');
      expect(() => benchScene(1, bad)).toThrow('nrays must be an integer in [0, 16777216]');
    }
  });
});
