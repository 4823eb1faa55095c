// web/core/slab.js ordinary() and certainMiss(): raycastAABB's certain misses, decided in
// JavaScript before any staging. certainMiss may claim a miss only when the core (which classifies
// exactly) also answers a miss, with status 0: checked against the core itself (sc_wasm_raycast
// called directly by helpers/core-raycast.mjs, none of queries.js's or slab.js's code) on inputs
// built to sit on and next to the edges of what it may claim: rays through box edges and corners
// and one float32 step away, axis-parallel rays with 0 and -0, origins on faces, tmax ending on a
// face, coordinates of every size from subnormal to 2^126 and past it, and invalid inputs.
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { certainMiss, ordinary } from '../../web/core/slab.js';
import { coreAABB, coreRaycaster } from './helpers/core-raycast.mjs';

let coreRaycast;
beforeAll(async () => {
  coreRaycast = await coreRaycaster();
});

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** The float32 k steps from x (x a float32 value; k may be negative), through its bits. */
function step(x, k) {
  if (k === 0) return x;
  f32[0] = x;
  if (x === 0) { u32[0] = Math.abs(k); return k > 0 ? f32[0] : -f32[0]; }
  u32[0] += (x > 0) === (k > 0) ? Math.abs(k) : -Math.abs(k);
  return f32[0];
}

/** The claim for 13 float32 values (ray: 7, box: 6), and the core's answer for them. */
function judge(v) {
  const claim = ordinary(...v) && certainMiss(...v);
  const core = coreAABB(coreRaycast, v.slice(0, 7), v.slice(7));
  return { claim, status: core.status, hit: core.floats !== null };
}

describe('certainMiss claims only the core\'s misses', () => {
  test('rays through the edges and corners of boxes, and one or two float32 steps off them', () => {
    const rand = rng(0x5A1);
    const wrong = [];
    let claimed = 0;
    let n = 0;
    // a box of any size and place, dyadic or not; a point on one of its edges or corners; an
    // origin elsewhere; the dir from the origin to the point (rounded to float32), then nudged
    const size = () => 2 ** Math.floor(rand() * 40 - 20);
    for (let k = 0; k < 30000 && wrong.length < 5; k++) {
      const s = size();
      const lo = [0, 1, 2].map(() => Math.fround((rand() * 8 - 4) * s));
      const hi = lo.map((x) => Math.fround(x + (rand() < 0.5 ? Math.floor(rand() * 8 + 1) * s / 4 : rand() * 4 * s)));
      // the target: each coordinate at the box's min or max (a corner), or one inside (an edge)
      const inner = Math.floor(rand() * 4);
      const p = [0, 1, 2].map((a) => (a === inner ? lo[a] + rand() * (hi[a] - lo[a]) : rand() < 0.5 ? lo[a] : hi[a]));
      const far = size() * (1 + rand() * 8);
      const o = [0, 1, 2].map((a) => Math.fround(p[a] + (rand() * 2 - 1) * far));
      const d = [0, 1, 2].map((a) => Math.fround(p[a] - o[a]));
      if (d.every((x) => x === 0)) continue;
      const tmax = rand() < 0.7 ? Infinity : Math.fround(rand() < 0.5 ? 1 : rand() * 2);
      for (let m = 0; m < 4; m++) {
        const dn = d.map((x) => step(x, m === 0 ? 0 : Math.floor(rand() * 5) - 2));
        const on = o.map((x) => step(x, m < 2 ? 0 : Math.floor(rand() * 5) - 2));
        const v = [...on, ...dn, tmax, ...lo, ...hi];
        const j = judge(v);
        n++;
        if (j.claim) {
          claimed++;
          if (j.status !== 0 || j.hit) wrong.push(`${v}: certainMiss claimed a miss, the core ${j.status ? `status ${j.status}` : 'hit'}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // the test means something: many of these near misses are claimed, and many are not
    expect(claimed).toBeGreaterThan(n / 10);
    expect(claimed).toBeLessThan(n * 0.9);
  });

  test('axis-parallel rays (0 and -0), origins on faces, tmax on a face, every size of coordinate', () => {
    const rand = rng(0x5A2);
    const SPECIAL = [0, -0, 1, -1, 0.5, 2, 1e-45, -1e-45, 1.1754942e-38, 1e-30, 1e30, 3.4028235e38, -3.4028235e38,
      8.507059e37, 8.5070587e37, -8.5070587e37, 1.7014118e38, Infinity, -Infinity, NaN];
    const dy = () => Math.floor(rand() * 33 - 16) / 4;
    const val = (mode) => (mode === 0 ? dy() : mode === 1 ? Math.fround((rand() - 0.5) * 20) : rand() < 0.4 ? SPECIAL[Math.floor(rand() * SPECIAL.length)] : dy());
    const wrong = [];
    let claimed = 0;
    for (let k = 0; k < 60000 && wrong.length < 5; k++) {
      const mode = k % 3;
      const lo = [val(mode), val(mode), val(mode)];
      const hi = lo.map((x) => (rand() < 0.1 ? val(mode) : rand() < 0.15 ? x : Math.fround(x + Math.abs(val(mode)))));
      const o = [val(mode), val(mode), val(mode)];
      if (rand() < 0.3) { const a = Math.floor(rand() * 3); o[a] = rand() < 0.5 ? lo[a] : hi[a]; }
      const d = [val(mode), val(mode), val(mode)].map((x) => (rand() < 0.25 ? (rand() < 0.5 ? 0 : -0) : x));
      if (rand() < 0.02) d.fill(0);
      let tmax = rand() < 0.3 ? Math.abs(val(mode)) : Infinity;
      if (rand() < 0.05) tmax = rand() < 0.5 ? -1 : NaN;
      // tmax exactly at a near face along an axis (where that is a float)
      const a = Math.floor(rand() * 3);
      if (rand() < 0.2 && d[a] !== 0) { const t = Math.fround(((d[a] > 0 ? lo[a] : hi[a]) - o[a]) / d[a]); if (t >= 0) tmax = t; }
      const v = [...o, ...d, tmax, ...lo, ...hi].map(Math.fround);
      const j = judge(v);
      if (j.claim) {
        claimed++;
        if (j.status !== 0 || j.hit) wrong.push(`${v}: certainMiss claimed a miss, the core ${j.status ? `status ${j.status}` : 'hit'}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(claimed).toBeGreaterThan(10000);
  });

  test('by hand: ordinary() refuses what the core refuses or rescales; certainMiss() a zero dir', () => {
    const RAY = [-5, 0, 0, 1, 0, 0, Infinity];
    const BOX = [1, -1, -1, 3, 1, 1];
    const AWAY = [-5, 0, 0, -1, 0, 0, Infinity]; // pointing away from BOX: a certain miss
    expect(ordinary(...RAY, ...BOX)).toBe(true);
    expect(certainMiss(...RAY, ...BOX)).toBe(false); // it hits
    expect(certainMiss(...AWAY, ...BOX)).toBe(true);
    const with_ = (base, i, x) => { const v = [...base]; v[i] = x; return v; };
    const v = [...AWAY, ...BOX];
    for (let i = 0; i < 13; i++) {
      if (i === 6) continue; // tmax: below
      for (const bad of [NaN, Infinity, -Infinity, 2 ** 126, -(2 ** 126), 3.4028234663852886e38]) {
        expect(ordinary(...with_(v, i, bad)), `value ${i} = ${bad}`).toBe(false);
      }
      expect(ordinary(...with_(v, i, 2 ** 125)) || i >= 7, `value ${i} = 2^125`).toBe(true);
    }
    expect(ordinary(...with_(v, 6, -1))).toBe(false);
    expect(ordinary(...with_(v, 6, NaN))).toBe(false);
    expect(ordinary(...with_(v, 6, 0))).toBe(true);
    expect(ordinary(...with_(v, 7, 4))).toBe(false); // min x > max x
    expect(ordinary(...with_(v, 11, -2))).toBe(false); // max y < min y
    // a zero dir (0 or -0 on every axis): the core's error, never a miss, the origin outside or not
    expect(certainMiss(-5, 0, 0, 0, -0, 0, Infinity, ...BOX)).toBe(false);
    expect(certainMiss(2, 0, 0, -0, -0, -0, 1, ...BOX)).toBe(false);
    // a parallel axis with the origin outside its slab: a miss, and the core agrees
    expect(certainMiss(-5, 2, 0, 1, 0, 0, Infinity, ...BOX)).toBe(true);
    expect(coreAABB(coreRaycast, [-5, 2, 0, 1, 0, 0, Infinity], BOX).floats).toBe(null);
    // on the slab's face (y = 1): not a miss
    expect(certainMiss(-5, 1, 0, 1, 0, 0, Infinity, ...BOX)).toBe(false);
    // tmax ending exactly on the near face (t = 6): the core hits, so no claim; just short: a miss
    expect(certainMiss(-5, 0, 0, 1, 0, 0, 6, ...BOX)).toBe(false);
    expect(coreAABB(coreRaycast, [-5, 0, 0, 1, 0, 0, 6], BOX).floats).not.toBe(null);
    expect(certainMiss(-5, 0, 0, 1, 0, 0, Math.fround(6 - 2 ** -21), ...BOX)).toBe(true);
  });
});
