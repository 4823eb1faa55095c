// Sweeps, nearest objects and overlaps give the same bytes natively and in wasm: a seeded scene
// of AABBs, spheres, OBBs and capsules and a batch of each query are written to a file, the native build
// answers them (tests/native/query_dump.c) and the wasm build answers them here; every t,
// index, normal, point, distance and overlap list must be equal bit for bit.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { loadSlabcast } from '../../web/slabcast.js';
import { QUERY_DUMP, requireBuilt } from './helpers/artifacts.mjs';

let sc;
let tmp;
beforeAll(async () => {
  requireBuilt(QUERY_DUMP);
  sc = await loadSlabcast();
  tmp = mkdtempSync(path.join(tmpdir(), 'slabcast-queries-'));
});
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const f32 = (n, g) => Float32Array.from({ length: n }, g);

function sceneAndQueries(rand) {
  const u = (lo, hi) => Math.fround(lo + rand() * (hi - lo));
  const nA = 150;
  const nS = 100;
  const nO = 100;
  const aabbs = new Float32Array(6 * nA);
  for (let i = 0; i < nA; i++) {
    const c = [u(-30, 30), u(-30, 30), u(-30, 30)];
    const h = [u(0.1, 2), u(0.1, 2), u(0.1, 2)];
    aabbs.set([...c.map((v, k) => Math.fround(v - h[k])), ...c.map((v, k) => Math.fround(v + h[k]))], 6 * i);
  }
  const spheres = f32(4 * nS, (_, k) => (k % 4 === 3 ? u(0.1, 2) : u(-30, 30)));
  const obbs = new Float32Array(15 * nO);
  for (let i = 0; i < nO; i++) {
    const a = rand() * Math.PI;
    // every other OBB skewed within the contract's 1e-4: axes[1] leans out of the xy plane, so its
    // slab set is not the parallelepiped its axes span (world bounds, box sweeps: sc_obb_bounds.c,
    // sc_sweep_obb.c)
    const lean = i % 2 ? u(-9e-5, 9e-5) : 0;
    obbs.set([u(-30, 30), u(-30, 30), u(-30, 30), Math.cos(a), Math.sin(a), 0, -Math.sin(a), Math.cos(a), lean, 0, 0, 1, u(0.1, 2), u(0.1, 2), u(0.1, 2)], 15 * i);
  }
  const nC = 100;
  const capsules = new Float32Array(7 * nC);
  for (let i = 0; i < nC; i++) {
    const a = [u(-30, 30), u(-30, 30), u(-30, 30)];
    const b = i % 10 === 0 ? a : a.map((v) => Math.fround(v + u(-3, 3))); // some balls (a == b)
    capsules.set([...a, ...b, i % 7 === 0 ? 0 : u(0.1, 1.5)], 7 * i);
  }
  const m = 400;
  const dir = () => { let d; do { d = [u(-1, 1), u(-1, 1), u(-1, 1)]; } while (d.every((x) => x === 0)); return d; };
  const sw = new Float32Array(8 * m);
  const bw = new Float32Array(10 * m);
  const cw = new Float32Array(11 * m);
  for (let i = 0; i < m; i++) {
    const a = [u(-35, 35), u(-35, 35), u(-35, 35)];
    cw.set([...a, ...a.map((v) => Math.fround(v + u(-2, 2))), ...dir(), rand() < 0.3 ? u(1, 40) : Infinity, u(0, 1.5)], 11 * i);
    sw.set([u(-35, 35), u(-35, 35), u(-35, 35), ...dir(), rand() < 0.3 ? u(1, 40) : Infinity, u(0, 2)], 8 * i);
    bw.set([u(-35, 35), u(-35, 35), u(-35, 35), ...dir(), rand() < 0.3 ? u(1, 40) : Infinity, u(0, 2), u(0, 2), u(0, 2)], 10 * i);
  }
  const pts = f32(3 * m, () => u(-35, 35));
  const q = 60;
  const va = new Float32Array(6 * q);
  const vs = new Float32Array(4 * q);
  const vo = new Float32Array(15 * q);
  const vc = new Float32Array(7 * q);
  const vf = new Float32Array(24 * q);
  for (let i = 0; i < q; i++) {
    const c = [u(-30, 30), u(-30, 30), u(-30, 30)];
    const h = [u(0, 6), u(0, 6), u(0, 6)];
    va.set([...c.map((v, k) => Math.fround(v - h[k])), ...c.map((v, k) => Math.fround(v + h[k]))], 6 * i);
    vs.set([...c, u(0, 6)], 4 * i);
    vc.set([...c, ...c.map((v) => Math.fround(v + u(-5, 5))), u(0, 4)], 7 * i);
    const a = rand() * Math.PI;
    vo.set([...c, 1, 0, 0, 0, Math.cos(a), Math.sin(a), 0, -Math.sin(a), Math.cos(a), ...h], 15 * i);
    // a box-like frustum around c with one slanted side
    vf.set([1, 0, 0, h[0] - c[0], -1, 0, 0, c[0] + h[0], 0, 1, 0, h[1] - c[1], 0, -1, 0, c[1] + h[1], 0, 0.6, 0.8, h[2] - c[2], 0, 0, -1, c[2] + h[2]], 24 * i);
  }
  return { aabbs, spheres, obbs, capsules, nA, nS, nO, nC, m, sw, bw, cw, pts, q, va, vs, vo, vc, vf };
}

function concat(parts) {
  const bytes = parts.map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
  const out = new Uint8Array(bytes.reduce((s, b) => s + b.length, 0));
  let o = 0;
  for (const b of bytes) { out.set(b, o); o += b.length; }
  return out;
}

describe('native and wasm answer the new world queries with the same bits', () => {
  test('sweeps, nearest objects and overlaps on a seeded scene', () => {
    const S = sceneAndQueries(rng(0x5EED));
    const i32 = (...v) => Int32Array.from(v);
    const input = concat([i32(S.nA, S.nS, S.nO, S.nC), S.aabbs, S.spheres, S.obbs, S.capsules, i32(S.m), S.sw, S.bw, S.cw, S.pts,
      i32(S.q), S.va, S.vs, S.vo, S.vc, S.vf]);
    const inFile = path.join(tmp, 'in.bin');
    const outFile = path.join(tmp, 'out.bin');
    writeFileSync(inFile, input);
    execFileSync(QUERY_DUMP, [inFile, outFile]);
    const native = new Uint8Array(readFileSync(outFile));

    const w = sc.createWorld();
    w.addAABBs(S.aabbs);
    w.addSpheres(S.spheres);
    w.addOBBs(S.obbs);
    w.addCapsules(S.capsules);
    const parts = [];
    for (const r of [w.castSpheres(S.sw), w.castBoxes(S.bw), w.castCapsules(S.cw)]) parts.push(r.t, r.index, r.normal, r.point);
    const c = w.closestObjects(S.pts, Infinity);
    parts.push(c.index, c.distance, c.point);
    const n = S.nA + S.nS + S.nO + S.nC;
    const out = new Int32Array(n);
    const kinds = [['aabb', S.va, 6], ['sphere', S.vs, 4], ['obb', S.vo, 15], ['capsule', S.vc, 7], ['frustum', S.vf, 24]];
    let listed = 0;
    for (const [kind, vols, per] of kinds) {
      for (let i = 0; i < S.q; i++) {
        const v = vols.subarray(per * i, per * (i + 1));
        const total = kind === 'aabb' ? w.overlapAABB(v.subarray(0, 3), v.subarray(3, 6), out)
          : kind === 'sphere' ? w.overlapSphere(v.subarray(0, 3), v[3], out)
            : kind === 'obb' ? w.overlapOBB(v, out)
              : kind === 'capsule' ? w.overlapCapsule(v.subarray(0, 3), v.subarray(3, 6), v[6], out) : w.overlapFrustum(v, out);
        listed += total;
        parts.push(Int32Array.of(total), out.slice(0, total));
      }
    }
    const wasm = concat(parts);
    expect(wasm.length).toBe(native.length);
    let firstDiff = -1;
    for (let i = 0; i < wasm.length; i++) if (wasm[i] !== native[i]) { firstDiff = i; break; }
    expect(firstDiff).toBe(-1);
    // not vacuous: hits and overlaps happened
    expect(Array.from(parts[1]).filter((k) => k >= 0).length).toBeGreaterThan(50);
    expect(Array.from(parts[9]).filter((k) => k >= 0).length).toBeGreaterThan(50); // capsule sweeps
    expect(listed).toBeGreaterThan(100);
    w.dispose();
  });
});
