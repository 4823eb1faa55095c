// Hostile input at the JS/wasm boundary of worlds (and the single query raycastAABB): sizes that
// do not fit wasm memory, arrays over resizable buffers that the caller's own code (a getter of
// the options, a Proxy) shrinks in the middle of a call, misspelt options, a DataView as `out`,
// and the repro module's handling of throwing getters and huge scenes.
//
// Every refused call must throw a SlabcastError that names what is wrong, before anything is
// copied or allocated, and the module must keep answering right afterwards: after each one the
// test casts rays whose answers are derived by hand (below) and compares them with those of a
// fresh module.
import * as THREE from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { instantiateCore } from '../../web/core/loader.js';
import { createWorld } from '../../web/core/world.js';
import { createParallelWorld } from '../../web/parallel.js';
import { createThreeWorld } from '../../web/three.js';
import { reproLink, toScene } from '../../web/repro.js';
import { MT_WASM, WASM, requireBuilt } from './helpers/artifacts.mjs';

beforeAll(() => {
  requireBuilt(WASM);
  requireBuilt(MT_WASM);
});

/** The error fn throws; fails unless it is a SlabcastError. */
function thrown(fn) {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof SlabcastError)) throw new Error(`expected a SlabcastError, got ${e?.constructor?.name}: ${e?.message}`);
    return e;
  }
  throw new Error('expected a SlabcastError, but nothing was thrown');
}

// The scene: BOXES unit boxes in a row along x, box k = [2k, 2k+1] x [0, 1] x [0, 1].
const BOXES = 100;
function boxes(count = BOXES) {
  const a = new Float32Array(6 * count);
  for (let k = 0; k < count; k++) a.set([2 * k, 0, 0, 2 * k + 1, 1, 1], 6 * k);
  return a;
}

// Rays along +z from z = -5 at x = (i mod 200) + 0.5, y = 0.5: for an even i mod 200 = 2k the
// ray passes through box k (x in [2k, 2k+1]) and enters its face z = 0 at t = 5; for an odd one
// x lies in a gap between two boxes and the ray misses.
const PROBES = 20000;
function probeRays() {
  const a = new Float32Array(7 * PROBES);
  for (let i = 0; i < PROBES; i++) a.set([(i % 200) + 0.5, 0.5, -5, 0, 0, 1, Infinity], 7 * i);
  return a;
}
function expectProbeAnswers({ t, index }) {
  for (let i = 0; i < PROBES; i++) {
    const x = i % 200;
    if (x % 2 === 0) {
      if (index[i] !== x / 2 || t[i] !== 5) throw new Error(`probe ${i}: index ${index[i]}, t ${t[i]}; want ${x / 2}, 5`);
    } else if (index[i] !== -1) {
      throw new Error(`probe ${i}: index ${index[i]}; want -1`);
    }
  }
}

let fresh; // the probe answers of a module that saw nothing hostile
beforeAll(async () => {
  const sc = await loadSlabcast();
  const w = sc.createWorld();
  w.addAABBs(boxes());
  fresh = w.castRays(probeRays());
  expectProbeAnswers(fresh);
});

/** The world (and a new one on the same module) still answer the probes as a fresh module does. */
function stillRight(sc, w) {
  for (const world of [w, sc.createWorld()]) {
    if (world.count === 0) world.addAABBs(boxes());
    const got = world.castRays(probeRays());
    expectProbeAnswers(got);
    expect(Buffer.compare(Buffer.from(got.t.buffer), Buffer.from(fresh.t.buffer))).toBe(0);
    expect(Buffer.compare(Buffer.from(got.normal.buffer), Buffer.from(fresh.normal.buffer))).toBe(0);
    expect(world.overlapAABB([0, 0, 0], [3, 1, 1])).toBe(2); // boxes 0 and 1
  }
}

async function boxWorld(count = BOXES) {
  const sc = await loadSlabcast();
  const w = sc.createWorld();
  w.addAABBs(boxes(count));
  return { sc, w };
}

describe('D4: sizes past wasm memory', () => {
  it('overlapAABB with an out array of 2^30 + 16 answers right and corrupts nothing', async () => {
    const { sc, w } = await boxWorld();
    const out = new Int32Array(2 ** 30 + 16); // 4 GiB + 64 bytes: its byte count wraps in 32 bits
    out[1] = 77;
    // [0,1]^3 touches box 0 only (box 1 starts at x = 2)
    expect(w.overlapAABB([0, 0, 0], [1, 1, 1], out)).toBe(1);
    expect(out[0]).toBe(0);
    expect(out[1]).toBe(77); // only the count's items are written
    stillRight(sc, w);
  });

  it('setMasks / setEnabled with 2^30 + 8 values are refused before any copy, and nothing is corrupted', async () => {
    const { sc, w } = await boxWorld();
    const before = sc.memory.buffer.byteLength;
    let e = thrown(() => w.setMasks(0, new Uint32Array(2 ** 30 + 8)));
    expect(e.message).toMatch(/^masks holds 1073741832 values for objects from 0: past the end of the world \(it has 100 objects\)/);
    expect(e.field).toBe('masks');
    e = thrown(() => w.setEnabled(0, new Uint8Array(2 ** 30 + 8)));
    expect(e.field).toBe('flags');
    expect(sc.memory.buffer.byteLength).toBe(before);
    stillRight(sc, w);
  });

  it('setMasks(0, Uint32Array(2^26)) on a 4-object world does not grow wasm memory', async () => {
    const { sc, w } = await boxWorld(4);
    const before = sc.memory.buffer.byteLength;
    const e = thrown(() => w.setMasks(0, new Uint32Array(2 ** 26)));
    expect(e.message).toMatch(/past the end of the world \(it has 4 objects\)/);
    thrown(() => w.setEnabled(2, new Uint8Array(2 ** 26)));
    thrown(() => w.setMasks(5, new Uint32Array(0))); // first past the end, even for no values
    expect(sc.memory.buffer.byteLength).toBe(before);
    w.setMasks(2, new Uint32Array([0, 0])); // the last two: still allowed
    expect(w.overlapAABB([0, 0, 0], [7, 1, 1], undefined, { mask: 1 })).toBe(2);
  });

  it('castRayAll with huge out arrays stages only what the world can hit', async () => {
    const { sc, w } = await boxWorld();
    const before = sc.memory.buffer.byteLength;
    const t = new Float32Array(2 ** 30 + 16);
    const index = new Int32Array(2 ** 30 + 16);
    // along +x at y = z = 0.5 the ray crosses all 100 boxes: box k entered at x = 2k, t = 2k + 1
    const r = w.castRayAll(new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]), { t, index });
    expect(r.count).toBe(BOXES);
    for (let k = 0; k < BOXES; k++) expect([index[k], t[k]]).toEqual([k, 2 * k + 1]);
    expect(sc.memory.buffer.byteLength).toBe(before);
    stillRight(sc, w);
  });

  it('a batch length is checked before the batch is copied', async () => {
    const { sc, w } = await boxWorld();
    const before = sc.memory.buffer.byteLength;
    // a sparse array that claims 2^32 - 1 numbers (4294967295 = 7 * 613566756 + 3) and one of 2^24 + 1 rays
    const start = performance.now();
    expect(thrown(() => w.castRays(new Array(2 ** 32 - 1))).message).toBe('rays must hold 7 floats per item; its length 4294967295 is not a multiple of 7');
    expect(thrown(() => w.castRays(new Array(7 * (2 ** 24 + 1)))).message).toBe('rays holds too many items (the limit is 16777216)');
    expect(performance.now() - start).toBeLessThan(100);
    expect(sc.memory.buffer.byteLength).toBe(before);
    stillRight(sc, w);
  });

  it('the staging area refuses byte counts that do not fit wasm memory before allocating', async () => {
    const core = await instantiateCore();
    const w = createWorld(core);
    w.addAABBs(boxes());
    const ptr = core.stagePtr;
    const size = core.stageBytes;
    const bytes = core.memory.buffer.byteLength;
    for (const n of [2 ** 32 + 64, 2 ** 31, 2 ** 53, NaN, -1]) {
      expect(thrown(() => core.stage(n)).message).toMatch(/^out of memory: the call needs .* bytes of wasm memory/);
    }
    expect([core.stagePtr, core.stageBytes, core.memory.buffer.byteLength]).toEqual([ptr, size, bytes]);
    const got = w.castRays(probeRays());
    expectProbeAnswers(got);
  });
});

/** A Float32Array over a resizable buffer holding `floats`, and a shrink to `keep` floats. */
function resizable(floats, keep) {
  const buffer = new ArrayBuffer(4 * floats.length, { maxByteLength: 4 * floats.length });
  const a = new Float32Array(buffer); // length-tracking
  a.set(floats);
  return { a, shrink: () => buffer.resize(4 * keep) };
}

/** Options whose mask getter runs `f` (the caller's code in the middle of the call). */
const optionsRunning = (f) => ({ get mask() { f(); return 0xFFFFFFFF; } });

describe('D5: a buffer shrunk by the caller during the call', () => {
  // Two rays along +x that miss everything (y = 10 and 20: the boxes span y in [0, 1]).
  const MISSES = [-1, 10, 0.5, 1, 0, 0, Infinity, -1, 20, 0.5, 1, 0, 0, Infinity];
  // The staging area first holds two rays that hit box 3 (x = 6.5): stale data would answer 3.
  const HITS = new Float32Array([6.5, 0.5, -5, 0, 0, 1, Infinity, 6.5, 0.5, -5, 0, 0, 1, Infinity]);

  it('castRays answers only for the rays that are there', async () => {
    const { sc, w } = await boxWorld();
    expect(Array.from(w.castRays(HITS).index)).toEqual([3, 3]);
    const { a, shrink } = resizable(MISSES, 7);
    const r = w.castRays(a, undefined, optionsRunning(shrink));
    expect(Array.from(r.index)).toEqual([-1]);
    expect(r.t.length).toBe(1);
    stillRight(sc, w);
  });

  it('every batch query reads its batch after the options', async () => {
    const { w } = await boxWorld();
    const cases = [
      // [method, floats per item, two items that miss, the answer's key, miss value]
      ['castRaysBruteForce', MISSES, 7, 'index'],
      ['anyHit', MISSES, 7, null],
      ['castSegments', [-1, 10, 0.5, 9, 10, 0.5, -1, 20, 0.5, 9, 20, 0.5], 6, 'index'],
      ['castSpheres', [-1, 10, 0.5, 1, 0, 0, Infinity, 0.1, -1, 20, 0.5, 1, 0, 0, Infinity, 0.1], 8, 'index'],
      ['castSpheresBruteForce', [-1, 10, 0.5, 1, 0, 0, Infinity, 0.1, -1, 20, 0.5, 1, 0, 0, Infinity, 0.1], 8, 'index'],
      ['castBoxes', [-1, 10, 0.5, 1, 0, 0, Infinity, 0.1, 0.1, 0.1, -1, 20, 0.5, 1, 0, 0, Infinity, 0.1, 0.1, 0.1], 10, 'index'],
      ['castBoxesBruteForce', [-1, 10, 0.5, 1, 0, 0, Infinity, 0.1, 0.1, 0.1, -1, 20, 0.5, 1, 0, 0, Infinity, 0.1, 0.1, 0.1], 10, 'index'],
      ['castCapsules', [-1, 10, 0.5, -1, 10, 0.6, 1, 0, 0, Infinity, 0.1, -1, 20, 0.5, -1, 20, 0.6, 1, 0, 0, Infinity, 0.1], 11, 'index'],
      ['castCapsulesBruteForce', [-1, 10, 0.5, -1, 10, 0.6, 1, 0, 0, Infinity, 0.1, -1, 20, 0.5, -1, 20, 0.6, 1, 0, 0, Infinity, 0.1], 11, 'index'],
    ];
    for (const [method, floats, per] of cases) {
      // stale staging that would hit box 3 at its second item: the same kind of batch through x = 6.5
      const hits = Float32Array.from(floats);
      for (let i = 0; i < 2; i++) { hits[per * i] = 6.5; hits[per * i + 1] = 0.5; }
      if (method.startsWith('castCapsules')) for (let i = 0; i < 2; i++) hits.set([6.5, 0.5, -5, 6.5, 0.5, -4, 0, 0, 1], 11 * i);
      else if (method === 'castSegments') for (let i = 0; i < 2; i++) { hits[6 * i + 3] = 6.5; hits[6 * i + 4] = 0.5; hits[6 * i + 2] = -5; hits[6 * i + 5] = 5; }
      else for (let i = 0; i < 2; i++) { hits[per * i + 2] = -5; hits[per * i + 3] = 0; hits[per * i + 5] = 1; }
      const warm = w[method](hits);
      expect(Array.from(method === 'anyHit' ? warm : warm.index), method).toEqual(method === 'anyHit' ? [1, 1] : [3, 3]);
      const { a, shrink } = resizable(floats, per);
      const r = w[method](a, undefined, optionsRunning(shrink));
      expect(Array.from(method === 'anyHit' ? r : r.index), method).toEqual(method === 'anyHit' ? [0] : [-1]);
    }
    // closestObjects: two points far from every box (y = 1000, 2000), none within 1
    const near = new Float32Array([6.5, 0.5, 0.5, 6.5, 0.5, 0.5]);
    expect(Array.from(w.closestObjects(near, 1).index)).toEqual([3, 3]);
    for (const method of ['closestObjects', 'closestObjectsBruteForce']) {
      const { a, shrink } = resizable([0.5, 1000, 0.5, 0.5, 2000, 0.5], 3);
      expect(Array.from(w[method](a, 1, undefined, optionsRunning(shrink)).index), method).toEqual([-1]);
    }
  });

  it('single-item queries refuse an item the options shrank', async () => {
    const { sc, w } = await boxWorld();
    const obb = resizable([0.5, 0.5, 0.5, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.1, 0.1, 0.1], 3);
    expect(thrown(() => w.overlapOBB(obb.a, undefined, optionsRunning(obb.shrink))).message).toMatch(/^obb must hold 15 numbers; it holds 3/);
    const ray = resizable([-1, 0.5, 0.5, 1, 0, 0, Infinity], 3);
    expect(thrown(() => w.castRayAll(ray.a, undefined, optionsRunning(ray.shrink))).message).toMatch(/^ray must hold 7 floats/);
    stillRight(sc, w);
  });

  it('output arrays shrunk by the options are refused before anything is written', async () => {
    const { w } = await boxWorld();
    const buffer = new ArrayBuffer(8, { maxByteLength: 8 });
    const t = new Float32Array(buffer);
    t.fill(42);
    const e = thrown(() => w.castRays(new Float32Array(MISSES), { t }, optionsRunning(() => buffer.resize(4))));
    expect(e.message).toMatch(/^out\.t must hold at least 2 items; it holds 1/);
    expect(t[0]).toBe(42);
    const hitBuffer = new ArrayBuffer(2, { maxByteLength: 2 });
    const hit = new Uint8Array(hitBuffer);
    expect(thrown(() => w.anyHit(new Float32Array(MISSES), hit, optionsRunning(() => hitBuffer.resize(1)))).message)
      .toMatch(/^out must hold at least 2 items; it holds 1/);
  });

  it('raycastAABB reads a Float32Array ray after the box Proxy ran', async () => {
    const sc = await loadSlabcast();
    const target = new Float32Array(9);
    // a ray the core must decide (a coordinate of 2^127: slab.js leaves it to the core), which hits:
    // it leaves its data in the core's io area, where a shrunk ray would be read from
    expect(sc.raycastAABB(new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]), new Float32Array([0, 0, 0, 1, 1, 2 ** 127]), target)).toBe(true);
    const { a, shrink } = resizable([-1, 0.5, 0.5, 1, 0, 0, Infinity], 0);
    const box = new Proxy([0, 0, 0, 1, 1, 2 ** 127], { get(o, k) { if (k === '0') shrink(); return o[k]; } });
    expect(thrown(() => sc.raycastAABB(a, box, target)).message).toMatch(/^raycastAABB: ray must hold 7 floats; it holds 0|^ray must hold 7 floats; it holds 0/);
  });
});

describe('subclasses: only the engine\'s own accessors and copies are used', () => {
  it('options.exclude with a lying buffer getter excludes its own items', async () => {
    const { w } = await boxWorld();
    // the ray along +z at x = 6.5 passes through box 3 only
    const down = new Float32Array([6.5, 0.5, -5, 0, 0, 1, Infinity]);
    const decoy = new Int32Array([-1, -1]);
    class Lying extends Int32Array { get buffer() { return decoy.buffer; } }
    const exclude = new Lying([3, 0]); // longer than the batch: its first item is the one used
    expect(Array.from(w.castRays(down, undefined, { exclude }).index)).toEqual([-1]);
  });

  it('slabcast/parallel copied mode never calls a subclass\'s slice', async () => {
    const world = await createParallelWorld({ workers: 2, memory: 'copied', wasm: WASM });
    try {
      // slice() of these arrays answers other floats: boxes far away, rays that hit box 3
      class Sly extends Float32Array {
        slice() { return new Float32Array(this.length).fill(1000); }
      }
      const added = new Sly(boxes());
      world.addAABBs(added);
      const rays = new Sly(probeRays());
      expectProbeAnswers(await world.castRays(rays));
    } finally {
      await world.dispose();
    }
  }, 30000);
});

describe('slabcast/parallel: the same boundary', () => {
  for (const memory of ['copied', 'shared']) {
    it(`${memory}: a batch shrunk by the options, a misspelt option, a huge setMasks`, async () => {
      const world = await createParallelWorld({ workers: 2, memory, wasm: WASM, sharedWasm: MT_WASM });
      try {
        world.addAABBs(boxes());
        const { a, shrink } = resizable([-1, 10, 0.5, 1, 0, 0, Infinity, 6.5, 0.5, -5, 0, 0, 1, Infinity], 7);
        const r = await world.castRays(a, undefined, optionsRunning(shrink));
        expect(Array.from(r.index)).toEqual([-1]);
        await expect(world.castRays(a, undefined, { mask: 1, exlude: 3 })).rejects.toThrow(/options\.exlude is not an option/);
        expect(() => world.setMasks(0, new Uint32Array(2 ** 26))).toThrow(/past the end of the world \(it has 100 objects\)/);
        const probes = await world.castRays(probeRays());
        expectProbeAnswers(probes);
      } finally {
        await world.dispose();
      }
    }, 30000);
  }
});

describe('options and out', () => {
  let sc;
  let w;
  beforeAll(async () => ({ sc, w } = await boxWorld(4)));
  const ray = () => new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]);
  const sweep = () => new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity, 0.1, 0.1, 0.1]);
  const calls = {
    castRays: (o) => w.castRays(ray(), undefined, o),
    castRaysBruteForce: (o) => w.castRaysBruteForce(ray(), undefined, o),
    castSegments: (o) => w.castSegments(new Float32Array([0, 0, 0, 1, 1, 1]), undefined, o),
    castRayAll: (o) => w.castRayAll(ray(), undefined, o),
    castSpheres: (o) => w.castSpheres(sweep().subarray(0, 8), undefined, o),
    castBoxes: (o) => w.castBoxes(sweep(), undefined, o),
    castSpheresBruteForce: (o) => w.castSpheresBruteForce(sweep().subarray(0, 8), undefined, o),
    castBoxesBruteForce: (o) => w.castBoxesBruteForce(sweep(), undefined, o),
    castCapsules: (o) => w.castCapsules(new Float32Array([-1, 0.5, 0.5, -1, 0.5, 0.6, 1, 0, 0, Infinity, 0.1]), undefined, o),
    castCapsulesBruteForce: (o) => w.castCapsulesBruteForce(new Float32Array([-1, 0.5, 0.5, -1, 0.5, 0.6, 1, 0, 0, Infinity, 0.1]), undefined, o),
    overlapCapsule: (o) => w.overlapCapsule([0, 0, 0], [1, 1, 1], 0.5, undefined, o),
    overlapAABB: (o) => w.overlapAABB([0, 0, 0], [1, 1, 1], undefined, o),
    overlapSphere: (o) => w.overlapSphere([0, 0, 0], 1, undefined, o),
    overlapOBB: (o) => w.overlapOBB([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1], undefined, o),
    // the box [-10, 10]^3 as six planes (inside: n.x + d >= 0)
    overlapFrustum: (o) => w.overlapFrustum([1, 0, 0, 10, -1, 0, 0, 10, 0, 1, 0, 10, 0, -1, 0, 10, 0, 0, 1, 10, 0, 0, -1, 10], undefined, o),
    overlapBruteForce: (o) => w.overlapBruteForce('aabb', [0, 0, 0, 1, 1, 1], undefined, o),
    closestObjects: (o) => w.closestObjects([0, 0, 0], 1, undefined, o),
    closestObjectsBruteForce: (o) => w.closestObjectsBruteForce([0, 0, 0], 1, undefined, o),
    anyHit: (o) => w.anyHit(ray(), undefined, o),
  };

  it('every query refuses an unknown option key, naming it', () => {
    for (const [name, call] of Object.entries(calls)) {
      const e = thrown(() => call({ mask: 1, exlude: 3 }));
      expect(e.message, name).toBe('options.exlude is not an option (mask, exclude, inside); did you mean exclude?');
      expect(e.field, name).toBe('options.exlude');
      expect(thrown(() => call({ layers: 1 })).message, name).toBe('options.layers is not an option (mask, exclude, inside)');
      call({ mask: 1, inside: 'solid', exclude: undefined }); // the known ones still pass
    }
    // an inherited key is not the caller's typo: options built on a prototype still work
    expect(calls.castRays(Object.create({ mask: 1 })).index[0]).toBe(0);
  });

  it('the other options objects refuse unknown keys too: loadSlabcast, slabcast/three', async () => {
    await expect(loadSlabcast({ wams: WASM })).rejects.toThrow('options.wams is not an option (wasm); did you mean wasm?');
    const mesh = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1));
    mesh.updateMatrixWorld();
    expect(() => createThreeWorld(sc, { object: [mesh] }))
      .toThrow('options.object is not an option (objects, boxes, recursive, shear, parallel); did you mean objects?');
    const tw = createThreeWorld(sc, { objects: [mesh] });
    const ray = [new THREE.Ray(new THREE.Vector3(0, 0, -5), new THREE.Vector3(0, 0, 1))];
    expect(() => tw.castRays(ray, { lyers: 1 })).toThrow('options.lyers is not an option (near, far, layers, exclude, inside, target); did you mean layers?');
    expect(tw.castRays(ray, { far: 10 }).distance[0]).toBe(4.5); // the unit cube's face z = -0.5, from z = -5
    tw.dispose();
  });

  it('a DataView (or a typed array) as out is refused', () => {
    const outs = [new DataView(new ArrayBuffer(64)), new Float32Array(8)];
    const withOut = {
      castRays: (out) => w.castRays(ray(), out), castSegments: (out) => w.castSegments(new Float32Array(6), out),
      castRayAll: (out) => w.castRayAll(ray(), out), castSpheres: (out) => w.castSpheres(sweep().subarray(0, 8), out),
      castBoxes: (out) => w.castBoxes(sweep(), out), closestObjects: (out) => w.closestObjects([0, 0, 0], 1, out),
      anyHit: (out) => w.anyHit(ray(), out), overlapAABB: (out) => w.overlapAABB([0, 0, 0], [1, 1, 1], out),
    };
    for (const [name, call] of Object.entries(withOut)) {
      for (const out of outs) {
        const e = thrown(() => call(out));
        expect(e.message, name).toMatch(/^out must be (an object of typed arrays|a Uint8Array|a Int32Array)/);
        expect(e.field, name).toBe('out');
      }
    }
  });

  it('remove past the end names the index once; count and liveCount', async () => {
    const world = sc.createWorld();
    world.addAABBs(boxes(4));
    const e = thrown(() => world.remove(7));
    expect(e.message).toBe('index 7 is outside the world (it has 4 objects)');
    expect(e.field).toBe('index');
    // count: indices in use (removed ones too); liveCount: objects not removed
    expect([world.count, world.liveCount]).toEqual([4, 4]);
    world.remove(1);
    world.remove(3);
    expect([world.count, world.liveCount]).toEqual([4, 2]);
    expect(thrown(() => world.remove(1)).message).toBe('index: the object has been removed from the world');
    expect(world.addSpheres(new Float32Array([0, 5, 0, 1]))).toBe(3); // one object takes the last freed slot
    expect([world.count, world.liveCount]).toEqual([4, 3]);
    world.addAABBs(boxes(2)); // two objects go to the end
    expect([world.count, world.liveCount]).toEqual([6, 5]);
    world.dispose();
  });
});

describe('slabcast/repro: hostile scenes', () => {
  const box = { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] };
  const ray = { origin: [-1, 0.5, 0.5], dir: [1, 0, 0] };

  it('a throwing getter becomes a TypeError of the module with the original as its cause', () => {
    const boom = new Error('boom');
    const scenes = [
      { get shapes() { throw boom; }, rays: [] },
      { shapes: [{ type: 'aabb', get min() { throw boom; }, max: [1, 1, 1] }], rays: [] },
      { shapes: [box], rays: [new Proxy({}, { ownKeys() { throw boom; } })] },
    ];
    for (const scene of scenes) {
      let e;
      try { toScene(scene); } catch (x) { e = x; }
      expect(e).toBeInstanceOf(TypeError);
      expect(e.message).toBe('the scene could not be read: its own code threw: boom');
      expect(e.cause).toBe(boom);
      try { reproLink('https://example.org/', scene); } catch (x) { e = x; }
      expect(e.message).toBe('reproLink: the scene could not be read: its own code threw: boom');
      expect(e.cause).toBe(boom);
    }
    let e;
    try { reproLink('https://example.org/', { shapes: [box], rays: [ray] }, { get view() { throw boom; } }); } catch (x) { e = x; }
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toBe('reproLink: ui could not be read: its own code threw: boom');
    expect(e.cause).toBe(boom);
  });

  it('a million shapes are refused at once, before any copy', () => {
    const shapes = Array.from({ length: 1e6 }, () => ({ ...box }));
    const rays = new Array(1e6).fill(ray);
    const min = new Float32Array(1e7);
    const start = performance.now();
    expect(() => toScene({ shapes, rays: [ray] })).toThrow('the scene is not valid: too many shapes (1000000; the limit is 64)');
    expect(() => reproLink('https://example.org/', { shapes: [box], rays }))
      .toThrow('reproLink: the scene is not valid: too many rays (1000000; the limit is 32)');
    // a field of ten million numbers is not copied either (validateState refuses it)
    expect(() => toScene({ shapes: [{ ...box, min }], rays: [] })).toThrow(/min must be an array of 3/);
    expect(performance.now() - start).toBeLessThan(100);
  });
});
