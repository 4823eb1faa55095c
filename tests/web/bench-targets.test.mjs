// The Targets table of `npm run bench` (web/bench/targets.mjs): each target judged at its threshold,
// on made-up results whose ratios are worked out by hand here, and a part that did not run shown as
// not measured rather than met.
import { describe, expect, it } from 'vitest';
import { formatTargets, targetRows } from '../../web/bench/targets.mjs';

const embree = {
  machine: { embree_isa: 'AVX512', embree_avx2_isa: 'AVX2' },
  rows: [
    // 1000 boxes: 5 M / 5 M = 1.00x (met, the threshold itself); 10000: 3.96 M / 4 M = 0.99x (not met)
    { boxes: 1000, slabcast_cpu_rays_per_s: 5e6, cpu_rays_per_s: 5e6, avx2_cpu_rays_per_s: 4e6, mismatches: 0, avx2_mismatches: 0 },
    { boxes: 10000, slabcast_cpu_rays_per_s: 3.96e6, cpu_rays_per_s: 4e6, avx2_cpu_rays_per_s: 3e6, mismatches: 0, avx2_mismatches: 0 },
  ],
};

const peer = (ratio) => ({ rays_s: 1e5, ratio, checked: 10, mismatches: 0 });
const rows = [
  { boxes: 10000, sc_best_rays_s: 3e6, bytes_per_box: 200, build_best_ms: 11, refit_bytes_same: true,
    peers: { Jolt: peer(15), rapier: peer(11), 'rapier-simd': peer(11.9) } },
  { boxes: 100000, sc_best_rays_s: 2e6, bytes_per_box: 180, build_best_ms: 100, refit_bytes_same: true,
    peers: { Jolt: peer(14.9), 'rapier-simd': { error: 'out of memory' } } },
];
const native = new Map([
  [10000, { build_ms: 5, bytes_per_box: 150, refit_allocs: 0, refit_frees: 0, refit_bytes_same: true }],
  [100000, { build_ms: 70, bytes_per_box: 201, refit_allocs: 1, refit_frees: 1, refit_bytes_same: true }],
]);
const before = { commit: 'abc1234', how: 'test', wasm: { 10000: 10, 100000: 100 }, native: { 10000: 5, 100000: 60 } };
const single = { three: 30, raycastAABB: 45, raycast: 90, shapes: { sphere: 135.3 }, agree: 4096, n: 4096 };
const parallel = [
  { env: 'Node', mode: 'copied', workers: 2, boxes: 10000, small: 256, latency_us: 100, single_us: 100, overhead_us: 50, path: 'default', same: true },
  { env: 'Node', mode: 'copied', workers: 2, boxes: 10000, small: 256, latency_us: 100.5, single_us: 100, overhead_us: 50.5, path: 'workers (inline: 0)', same: true },
  { env: 'Node', mode: 'copied', workers: 2, boxes: 100000, small: 256, latency_us: 160, single_us: 100, overhead_us: 110 },
  { env: 'Node', mode: 'shared', workers: 2, boxes: 10000, rays_per_s: 3.4e6, vs_one_worker: 1.7, vs_single: 1.6, same: true },
  { env: 'Node', mode: 'shared', workers: 2, boxes: 100000, rays_per_s: 3.3e6, vs_one_worker: 1.68, vs_single: 1.6, same: true },
];

const find = (out, what, at) => out.find((r) => r.what.startsWith(what) && r.at === at);

describe('targetRows', () => {
  const out = targetRows({ embree, rows, native, single, parallel, before, cores: 2 });

  it('native vs Embree: at least 1.0x against the faster of its two devices, the other in the notes', () => {
    expect(find(out, 'native castRays vs Embree', '1000 boxes')).toMatchObject({ ratio: '1.00x', met: true });
    const r = find(out, 'native castRays vs Embree', '10000 boxes');
    expect(r).toMatchObject({ ratio: '0.99x', met: false });
    expect(r.note).toContain('1.32x'); // 3.96 / 3
    // the AVX2 device faster than the default one (as on an AVX-512 CPU at 1k boxes): judged
    // against it, 7 / 8 = 0.88x, not met, though 7 / 7.2 = 0.97x against the default
    const fast = targetRows({ embree: { ...embree, rows: [{ boxes: 1000, slabcast_cpu_rays_per_s: 7e6, cpu_rays_per_s: 7.2e6,
      avx2_cpu_rays_per_s: 8e6, mismatches: 0, avx2_mismatches: 0 }] }, rows: [], native: new Map() });
    const f = find(fast, 'native castRays vs Embree', '1000 boxes');
    expect(f).toMatchObject({ ratio: '0.88x', met: false });
    expect(f.peer).toContain('isa=avx2');
    expect(f.note).toContain('0.97x');
  });

  it('wasm vs Jolt (15x) and rapier-simd (12x); a failed peer is not measured', () => {
    expect(find(out, 'wasm castRays vs Jolt', '10000 boxes').met).toBe(true);
    expect(find(out, 'wasm castRays vs Jolt', '100000 boxes').met).toBe(false);
    expect(find(out, 'wasm castRays vs rapier-simd', '10000 boxes')).toMatchObject({ ratio: '11.9x', met: false });
    expect(find(out, 'wasm castRays vs rapier-simd', '10000 boxes').note).toContain('rapier (no SIMD) 11.0x');
    expect(find(out, 'wasm castRays vs rapier-simd', '100000 boxes')).toMatchObject({ peer: 'failed', met: null });
  });

  it('single calls: raycastAABB <= 1.5x three.js, raycast <= 3x raycastAABB per shape', () => {
    expect(find(out, 'raycastAABB', '4096 calls')).toMatchObject({ ratio: '1.50x', met: true });
    expect(find(out, 'raycast (plain', 'aabb')).toMatchObject({ ratio: '2.00x', met: true });
    expect(find(out, 'raycast (plain', 'sphere')).toMatchObject({ ratio: '3.01x', met: false });
  });

  it('single calls: the 1.5x raycastAABB target judged on every array form measured', () => {
    // 44.7 / 30 = 1.49x (met); 46.2 / 30 = 1.54x (not met); the Float32Array box's 45 / 30 = 1.50x
    const o = targetRows({ rows: [], native: new Map(), single: { ...single, raycastAABBPlain: 44.7, raycastAABBArrays: 46.2 } });
    const form = (f) => o.find((r) => r.what.startsWith('raycastAABB') && r.what.includes(f) && r.at === '4096 calls');
    expect(form('Float32Array(6) box')).toMatchObject({ ratio: '1.50x', met: true });
    expect(form('a plain array box)')).toMatchObject({ ratio: '1.49x', met: true });
    expect(form('a plain array ray and box')).toMatchObject({ ratio: '1.54x', met: false });
  });

  it('single calls: the ratios single.mjs gives (median of its rounds) when it gives them, and its every-call-a-hit table', () => {
    const s2 = { ...single, ratio: { raycastAABB: 1.6, aabb: 2.9, sphere: 2.5 },
      hits: { raycastAABB: 60, shapes: { aabb: 100, sphere: 200 }, ratio: { aabb: 1.7, sphere: 3.2 }, count: { aabb: 1024, sphere: 1000 } } };
    const o = targetRows({ rows: [], native: new Map(), single: s2 });
    expect(find(o, 'raycastAABB', '4096 calls')).toMatchObject({ ratio: '1.60x', met: false });
    expect(find(o, 'raycast (plain arrays in, a result object out) vs raycastAABB', 'sphere')).toMatchObject({ ratio: '2.50x', met: true });
    expect(find(o, 'raycast (plain arrays in, a result object out) vs raycastAABB, every call', 'sphere')).toMatchObject({ ratio: '3.20x', met: false });
    expect(find(o, 'raycast (plain arrays in, a result object out) vs raycastAABB, every call', 'aabb')).toMatchObject({ ratio: '1.70x', met: true });
  });

  it('memory: the larger of wasm and native at most 200 B per box', () => {
    expect(find(out, 'memory per box', '10000 boxes').met).toBe(true);
    expect(find(out, 'memory per box', '100000 boxes').met).toBe(false); // native 201
  });

  it('build time against before, within 1.10x', () => {
    expect(find(out, 'BVH build time, wasm', '10000 boxes')).toMatchObject({ ratio: '1.10x', met: true });
    expect(find(out, 'BVH build time, native', '100000 boxes')).toMatchObject({ ratio: '1.17x', met: false });
  });

  it('refit in place: no allocation natively and the same bytes', () => {
    expect(find(out, 'refit in place', '10000 boxes').met).toBe(true);
    expect(find(out, 'refit in place', '100000 boxes').met).toBe(false);
  });

  it('parallel: copied <= 100 us per call (each path), shared >= 0.85x per core against 1 worker', () => {
    expect(find(out, 'parallel, copied', 'Node, 10000 boxes, default')).toMatchObject({ measured: '100.0 us', met: true });
    expect(find(out, 'parallel, copied', 'Node, 10000 boxes, workers (inline: 0)').met).toBe(false);
    expect(find(out, 'parallel, copied', 'Node, 100000 boxes').met).toBe(false);
    expect(find(out, 'parallel, shared', 'Node, 10000 boxes')).toMatchObject({ ratio: '0.85x', met: true });
    expect(find(out, 'parallel, shared', 'Node, 100000 boxes')).toMatchObject({ ratio: '0.84x', met: false });
  });

  it('parts that did not run are not measured, and the table counts them apart', () => {
    const bare = targetRows({ rows: [], native: new Map() });
    expect(bare.every((r) => r.met === null)).toBe(true);
    expect(formatTargets(bare)).toContain(`0 of 0 measured rows met (${bare.length} not measured)`);
    expect(formatTargets(out)).toMatch(/\| \*\*no\*\* \|/);
  });
});
