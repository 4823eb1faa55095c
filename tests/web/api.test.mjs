// The JS API (web/slabcast.js) on web/slabcast.wasm. Every expected value is
// derived by hand from docs/semantics.md (the derivation is in the comments).
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { WASM, requireBuilt } from './helpers/artifacts.mjs';

const WASM_URL = new URL('../../web/slabcast.wasm', import.meta.url);

let sc;
beforeAll(async () => {
  requireBuilt(WASM);
  sc = await loadSlabcast();
});

const box = { type: 'aabb', min: [0.5, 0.5, 0.5], max: [2, 2, 2] };

/** The error thrown by f (fails when f does not throw). */
function thrown(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

function expectUnit(v) {
  expect(Math.abs(Math.hypot(...v) - 1)).toBeLessThanOrEqual(1e-4);
}

/** Vectors compare as numbers (-0 equals 0). */
const sameVec = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** A result with every -0 turned into 0, for toEqual (which tells -0 from 0). */
const z = (v) => JSON.parse(JSON.stringify(v));

describe('loading', () => {
  it('exposes the API and the memory', () => {
    expect(typeof sc.raycast).toBe('function');
    expect(typeof sc.linetest).toBe('function');
    expect(typeof sc.closestPoint).toBe('function');
    expect(typeof sc.contains).toBe('function');
    expect(sc.memory).toBeInstanceOf(WebAssembly.Memory);
  });

  it('accepts bytes, a WebAssembly.Module, a URL and a path', async () => {
    const bytes = await readFile(WASM_URL);
    const ray = { origin: [-2, -2, -2], dir: [2, 2, 2] };
    for (const wasm of [bytes, new Uint8Array(bytes).buffer, new WebAssembly.Module(bytes), WASM_URL,
      WASM_URL.href, 'web/slabcast.wasm']) {
      const other = await loadSlabcast({ wasm });
      expect(other.raycast(ray, box).t).toBe(1.25);
    }
  });

  it('rejects with SlabcastError when the module is missing or broken', async () => {
    await expect(loadSlabcast({ wasm: new URL('./no-such.wasm', WASM_URL) })).rejects.toBeInstanceOf(SlabcastError);
    await expect(loadSlabcast({ wasm: new Uint8Array([0, 97, 115, 109, 9, 9]) })).rejects.toBeInstanceOf(SlabcastError);
    await expect(loadSlabcast({ wasm: 42 })).rejects.toBeInstanceOf(SlabcastError);
  });

  it('SlabcastError is an Error named SlabcastError', () => {
    const e = new SlabcastError('x');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('SlabcastError');
  });
});

describe('raycast', () => {
  it('hits the box (0.5..2)^3 from (-2,-2,-2) along (2,2,2) at t = 1.25', () => {
    // Each axis: slab [(0.5+2)/2, (2+2)/2] = [1.25, 2], so I = [1.25, 2]; point = -2 + 1.25*2 = 0.5.
    const r = sc.raycast({ origin: [-2, -2, -2], dir: [2, 2, 2] }, box);
    expect(r.hit).toBe(true);
    expect(r.t).toBe(1.25);
    expect(r.t_enter).toBe(1.25);
    expect(r.t_exit).toBe(2);
    expect(z(r.point)).toEqual([0.5, 0.5, 0.5]);
    // The min corner: the normal of any of the three faces there is accepted.
    expect([[-1, 0, 0], [0, -1, 0], [0, 0, -1]].some((n) => sameVec(n, r.normal))).toBe(true);
    expect(Object.keys(r)).toEqual(['hit', 't', 't_enter', 't_exit', 'point', 'normal']);
  });

  it('misses: returns only {hit: false}', () => {
    // x = 0 never enters [0.5, 2] with dir.x = 0.
    expect(z(sc.raycast({ origin: [0, 0, 0], dir: [0, 1, 0] }, box))).toEqual({ hit: false });
    // Behind the origin: from x = 3 along +x the x slab is [0.5-3, 2-3] = [-2.5, -1].
    expect(z(sc.raycast({ origin: [3, 1, 1], dir: [1, 0, 0] }, box))).toEqual({ hit: false });
  });

  it('origin inside: t = 0, t_enter < 0, normal [0, 0, 0]', () => {
    // x slab from x = 1 along +x: [(0.5-1)/1, (2-1)/1] = [-0.5, 1]; y, z: dir 0, inside.
    const r = sc.raycast({ origin: [1, 1, 1], dir: [1, 0, 0] }, box);
    expect(z(r)).toEqual({ hit: true, t: 0, t_enter: -0.5, t_exit: 1, point: [1, 1, 1], normal: [0, 0, 0] });
  });

  it('axis-parallel rays with -0 components behave like 0', () => {
    // From (-1, 1, 1) along +x: x slab [1.5, 3]; y and z are inside with dir 0.
    const plus = sc.raycast({ origin: [-1, 1, 1], dir: [1, 0, 0] }, box);
    const minus = sc.raycast({ origin: [-1, 1, 1], dir: [1, -0, -0] }, box);
    expect(z(plus)).toEqual({ hit: true, t: 1.5, t_enter: 1.5, t_exit: 3, point: [0.5, 1, 1], normal: [-1, 0, 0] });
    expect(sameVec(minus.point, plus.point) && sameVec(minus.normal, plus.normal)).toBe(true);
    expect([minus.hit, minus.t, minus.t_enter, minus.t_exit]).toEqual([true, 1.5, 1.5, 3]);
  });

  it('a -0 ray on the face plane of a box touching 0 hits (closed solid)', () => {
    // Box [0,1]^3, origin (-1, -0, 0.5) along (1, -0, 0): y = -0 == 0 lies on the face y = 0.
    // x slab [1, 2]; the ray runs along the face: I = [1, 2], point (0, 0, 0.5) on the edge x = y = 0.
    const unit = { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] };
    const r = sc.raycast({ origin: [-1, -0, 0.5], dir: [1, -0, 0] }, unit);
    expect([r.hit, r.t, r.t_enter, r.t_exit]).toEqual([true, 1, 1, 2]);
    expect(z(r.point)).toEqual([0, 0, 0.5]);
    expect([[-1, 0, 0], [0, -1, 0]].some((n) => sameVec(n, r.normal))).toBe(true);
    // Just outside the face: miss.
    expect(z(sc.raycast({ origin: [-1, -0.001, 0.5], dir: [1, -0, 0] }, unit))).toEqual({ hit: false });
  });

  it('grazes a corner: t_enter == t_exit', () => {
    // From (0,0,0) along (1,1,0) to the box [1,2]x[1,2]x[-1,1]: x and y slabs both [1, 2],
    // z inside: I = [1, 2]. Along (1,1,0) into [1,2]x[2,3]: x [1,2], y [2,3]: I = [2, 2].
    const r = sc.raycast({ origin: [0, 0, 0], dir: [1, 1, 0] }, { type: 'aabb', min: [1, 2, -1], max: [2, 3, 1] });
    expect([r.hit, r.t, r.t_enter, r.t_exit]).toEqual([true, 2, 2, 2]);
    expect(z(r.point)).toEqual([2, 2, 0]);
  });

  it('respects tmax (closed: t == tmax still hits)', () => {
    const ray = { origin: [-2, 1, 1], dir: [1, 0, 0] }; // enters at t = 2.5
    expect(sc.raycast({ ...ray, tmax: 2.5 }, box).hit).toBe(true);
    expect(sc.raycast({ ...ray, tmax: 2.4 }, box).hit).toBe(false);
    expect(sc.raycast({ ...ray, tmax: Infinity }, box).t).toBe(2.5);
  });

  it('measures t in units of dir', () => {
    // Sphere at 0 of radius 1 from (-3,0,0): along (1,0,0) I = [2, 4]; along (2,0,0) I = [1, 2].
    const sphere = { type: 'sphere', center: [0, 0, 0], radius: 1 };
    expect(z(sc.raycast({ origin: [-3, 0, 0], dir: [1, 0, 0] }, sphere)))
      .toEqual({ hit: true, t: 2, t_enter: 2, t_exit: 4, point: [-1, 0, 0], normal: [-1, 0, 0] });
    const r = sc.raycast({ origin: [-3, 0, 0], dir: [2, 0, 0] }, sphere);
    expect([r.t, r.t_enter, r.t_exit]).toEqual([1, 1, 2]);
  });

  it('obb: slabs in the box frame', () => {
    // axes u = +y (half 1), v = -x (half 2), w = +z (half 3): the world box [-2,2]x[-1,1]x[-3,3].
    const obb = { type: 'obb', center: [0, 0, 0], axes: [[0, 1, 0], [-1, 0, 0], [0, 0, 1]], half: [1, 2, 3] };
    const r = sc.raycast({ origin: [-5, 0, 0], dir: [1, 0, 0] }, obb);
    expect([r.hit, r.t, r.t_enter, r.t_exit]).toEqual([true, 3, 3, 7]);
    expect(z(r.point)).toEqual([-2, 0, 0]);
    expect(sameVec(r.normal, [-1, 0, 0])).toBe(true);
    expect(z(sc.raycast({ origin: [-5, 1.5, 0], dir: [1, 0, 0] }, obb))).toEqual({ hit: false });
  });

  it('plane: t0 = (d - n.o) / (n.dir); the normal faces the ray', () => {
    // n = (0,0,2), d = 2: the plane z = 1.
    const plane = { type: 'plane', normal: [0, 0, 2], d: 2 };
    // From z = 3 going down: t0 = (2 - 6) / -2 = 2; normal (0,0,1) (n.dir = -1 <= 0).
    const down = sc.raycast({ origin: [0, 0, 3], dir: [0, 0, -1] }, plane);
    expect(z(down)).toEqual({ hit: true, t: 2, t_enter: 2, t_exit: 2, point: [0, 0, 1], normal: [0, 0, 1] });
    // From z = -1 going up: t0 = (2 + 2) / 2 = 2; normal turned to (0,0,-1).
    const up = sc.raycast({ origin: [0, 0, -1], dir: [0, 0, 1] }, plane);
    expect(up.t).toBe(2);
    expect(sameVec(up.normal, [0, 0, -1])).toBe(true);
    // Parallel: hits at t = 0 only when the origin is on the plane.
    expect(sc.raycast({ origin: [5, 5, 1], dir: [1, 0, 0] }, plane)).toMatchObject({ hit: true, t: 0, point: [5, 5, 1] });
    expect(z(sc.raycast({ origin: [5, 5, 1.5], dir: [1, 0, 0] }, plane))).toEqual({ hit: false });
    // Behind the origin: t0 = -1 < 0.
    expect(z(sc.raycast({ origin: [0, 0, 2], dir: [0, 0, 1] }, plane))).toEqual({ hit: false });
  });

  it('normals of hits from outside are unit vectors', () => {
    const sphere = { type: 'sphere', center: [1, 2, 3], radius: 2 };
    const r = sc.raycast({ origin: [-5, 0.5, 2], dir: [1, 0.1, 0.05] }, sphere);
    expect(r.hit).toBe(true);
    expectUnit(r.normal);
  });
});

describe('linetest, closestPoint, contains', () => {
  it('linetest: shares a point (closed solid, segment inside, touching corner)', () => {
    expect(z(sc.linetest({ a: [1, 1, 1], b: [1.5, 1.5, 1.5] }, box))).toEqual({ hit: true }); // wholly inside
    expect(z(sc.linetest({ a: [-1, -1, -1], b: [0, 0, 0] }, box))).toEqual({ hit: false });
    expect(z(sc.linetest({ a: [0, 0, 0], b: [0.5, 0.5, 0.5] }, box))).toEqual({ hit: true }); // ends on the corner
    expect(z(sc.linetest({ a: [3, 3, 3], b: [3, 3, 3] }, box))).toEqual({ hit: false }); // a point
    expect(z(sc.linetest({ a: [0, 0, 1], b: [0, 0, 3] }, { type: 'plane', normal: [0, 0, 1], d: 2 }))).toEqual({ hit: true });
  });

  it('closestPoint: clamps to the box, itself inside, projection on a plane', () => {
    expect(z(sc.closestPoint([3, 1, 1], box))).toEqual({ point: [2, 1, 1] });
    expect(z(sc.closestPoint([3, -4, 1], box))).toEqual({ point: [2, 0.5, 1] });
    expect(z(sc.closestPoint([1, 1.5, 1], box))).toEqual({ point: [1, 1.5, 1] });
    expect(z(sc.closestPoint([0, 0, 4], { type: 'sphere', center: [0, 0, 0], radius: 2 }))).toEqual({ point: [0, 0, 2] });
    // Plane z = 1 (n = (0,0,2), d = 2): (3,4,5) -> (3,4,1).
    expect(z(sc.closestPoint([3, 4, 5], { type: 'plane', normal: [0, 0, 2], d: 2 }))).toEqual({ point: [3, 4, 1] });
  });

  it('contains: boundary points are inside; planes are refused', () => {
    expect(z(sc.contains([2, 2, 2], box))).toEqual({ inside: true });
    expect(z(sc.contains([0.5, 1, -0], { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] }))).toEqual({ inside: true });
    expect(z(sc.contains([2.001, 1, 1], box))).toEqual({ inside: false });
    const obb = { type: 'obb', center: [0, 0, 0], axes: [[0, 1, 0], [-1, 0, 0], [0, 0, 1]], half: [1, 2, 3] };
    expect(z(sc.contains([2, 1, 3], obb))).toEqual({ inside: true });
    expect(z(sc.contains([2.5, 0, 0], obb))).toEqual({ inside: false });
    const e = thrown(() => sc.contains([0, 0, 0], { type: 'plane', normal: [0, 0, 1], d: 0 }));
    expect(e).toBeInstanceOf(SlabcastError);
    expect(e.message).toBe(sc.statusMessage(e.status));
    expect(e.message).toMatch(/plane/);
  });
});

describe('invalid input throws SlabcastError naming the field', () => {
  const ray = { origin: [0, 0, 0], dir: [1, 0, 0] };
  const structural = [
    ['ray missing', () => sc.raycast(undefined, box), '"ray" must be an object', 'ray'],
    ['ray an array', () => sc.raycast([], box), '"ray" must be an object', 'ray'],
    ['origin short', () => sc.raycast({ origin: [0, 0], dir: [1, 0, 0] }, box), '"ray.origin" must be an array of 3 numbers', 'ray.origin'],
    ['dir a string', () => sc.raycast({ origin: [0, 0, 0], dir: [1, '0', 0] }, box), '"ray.dir" must be an array of 3 numbers', 'ray.dir'],
    ['tmax null', () => sc.raycast({ ...ray, tmax: null }, box), '"ray.tmax" must be a number', 'ray.tmax'],
    ['segment', () => sc.linetest({ a: [0, 0, 0] }, box), '"segment.b" must be an array of 3 numbers', 'segment.b'],
    ['point', () => sc.contains({ x: 1 }, box), '"point" must be an array of 3 numbers', 'point'],
    ['shape null', () => sc.raycast(ray, null), '"shape" must be an object', 'shape'],
    ['shape.type', () => sc.raycast(ray, { min: [0, 0, 0] }), '"shape.type" must be a string', 'shape.type'],
    ['unknown type', () => sc.raycast(ray, { type: 'cone' }), 'unknown shape type "cone"', 'shape.type'],
    ['shape.max', () => sc.raycast(ray, { type: 'aabb', min: [0, 0, 0] }), '"shape.max" must be an array of 3 numbers', 'shape.max'],
    ['radius', () => sc.raycast(ray, { type: 'sphere', center: [0, 0, 0], radius: '1' }), '"shape.radius" must be a number', 'shape.radius'],
    ['d', () => sc.raycast(ray, { type: 'plane', normal: [0, 0, 1] }), '"shape.d" must be a number', 'shape.d'],
    ['axes', () => sc.raycast(ray, { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0]], half: [1, 1, 1] }),
      '"shape.axes" must be an array of 3 arrays of 3 numbers', 'shape.axes'],
  ];
  for (const [name, f, message, field] of structural) {
    it(`structural: ${name}`, () => {
      const e = thrown(f);
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toBe(message);
      expect(e.field).toBe(field);
    });
  }

  it('input is checked before the shape', () => {
    expect(thrown(() => sc.raycast({ origin: [0, 0], dir: [1, 0, 0] }, { type: 'cone' })).message)
      .toBe('"ray.origin" must be an array of 3 numbers');
  });

  it('unknown shape type names are cut to 64 bytes of UTF-8', () => {
    const e = thrown(() => sc.raycast(ray, { type: 'é'.repeat(40) }));
    expect(e.message).toBe(`unknown shape type "${'é'.repeat(32)}"`);
  });

  const semantic = [
    ['NaN origin', () => sc.raycast({ origin: [NaN, 0, 0], dir: [1, 0, 0] }, box), /ray\.origin/],
    ['infinite dir', () => sc.raycast({ origin: [0, 0, 0], dir: [Infinity, 0, 0] }, box), /ray\.dir/],
    ['zero dir (-0 too)', () => sc.raycast({ origin: [0, 0, 0], dir: [0, -0, 0] }, box), /ray\.dir is zero/],
    ['float32 overflow: 1e39 is infinite', () => sc.raycast({ origin: [1e39, 0, 0], dir: [1, 0, 0] }, box), /ray\.origin/],
    ['negative tmax', () => sc.raycast({ ...ray, tmax: -1 }, box), /ray\.tmax/],
    ['NaN tmax', () => sc.raycast({ ...ray, tmax: NaN }, box), /ray\.tmax/],
    ['min > max', () => sc.raycast(ray, { type: 'aabb', min: [1, 0, 0], max: [0, 1, 1] }), /shape\.min/],
    ['negative radius', () => sc.raycast(ray, { type: 'sphere', center: [0, 0, 0], radius: -1 }), /shape\.radius/],
    ['zero plane normal', () => sc.raycast(ray, { type: 'plane', normal: [0, 0, 0], d: 1 }), /shape\.normal/],
    ['non-orthonormal axes', () => sc.raycast(ray, { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 2]], half: [1, 1, 1] }), /shape\.axes/],
    ['negative half', () => sc.raycast(ray, { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], half: [1, -1, 1] }), /shape\.half/],
    ['segment NaN', () => sc.linetest({ a: [0, 0, 0], b: [0, NaN, 0] }, box), /segment\.b/],
    ['point infinite', () => sc.closestPoint([0, 0, -Infinity], box), /point/],
  ];
  for (const [name, f, pattern] of semantic) {
    it(`semantic: ${name}`, () => {
      const e = thrown(f);
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toMatch(pattern);
      expect(Number.isInteger(e.status) && e.status > 0).toBe(true);
      expect(e.message).toBe(sc.statusMessage(e.status));
    });
  }

  it('an error does not disturb the next query', () => {
    thrown(() => sc.raycast({ origin: [0, 0, 0], dir: [0, 0, 0] }, box));
    expect(sc.raycast({ origin: [-2, -2, -2], dir: [2, 2, 2] }, box).t).toBe(1.25);
  });
});

describe('memory', () => {
  it('results are fresh copies, not views of wasm memory', () => {
    const ray = { origin: [-2, 1, 1], dir: [1, 0, 0] };
    const a = sc.raycast(ray, box);
    expect(Array.isArray(a.point) && Array.isArray(a.normal)).toBe(true);
    a.point[0] = 99;
    a.normal.length = 0;
    const b = sc.raycast(ray, box);
    expect(z(b.point)).toEqual([0.5, 1, 1]);
    expect(z(b.normal)).toEqual([-1, 0, 0]);
    expect(b.point).not.toBe(a.point);
    const p = sc.closestPoint([3, 1, 1], box);
    p.point[1] = -7;
    expect(z(sc.closestPoint([3, 1, 1], box).point)).toEqual([2, 1, 1]);
    // The inputs are not kept either.
    const input = [3, 1, 1];
    const q = sc.closestPoint(input, box);
    input[0] = -100;
    expect(z(q.point)).toEqual([2, 1, 1]);
  });

  it('keeps working after the memory grows', () => {
    const before = sc.memory.buffer;
    const pages = sc.memory.buffer.byteLength / 65536;
    sc.memory.grow(3);
    expect(sc.memory.buffer).not.toBe(before);
    expect(sc.memory.buffer.byteLength / 65536).toBe(pages + 3);
    expect(sc.raycast({ origin: [-2, -2, -2], dir: [2, 2, 2] }, box).t).toBe(1.25);
    sc.memory.grow(1);
    expect(z(sc.closestPoint([3, 1, 1], box))).toEqual({ point: [2, 1, 1] });
    expect(thrown(() => sc.raycast({ origin: [0, 0, 0], dir: [0, 0, 0] }, box)).message).toMatch(/ray\.dir is zero/);
    expect(z(sc.contains([1, 1, 1], box))).toEqual({ inside: true });
  });

  it('accepts typed arrays as vectors', () => {
    const r = sc.raycast({ origin: new Float64Array([-2, -2, -2]), dir: new Float32Array([2, 2, 2]) }, box);
    expect(r.t).toBe(1.25);
  });
});

// A hand-assembled module with the slabcast exports whose queries trap.
function trappingModule() {
  const uleb = (n) => {
    const out = [];
    do {
      let b = n & 0x7f;
      n >>>= 7;
      if (n) b |= 0x80;
      out.push(b);
    } while (n);
    return out;
  };
  const vec = (items) => [...uleb(items.length), ...items.flat()];
  const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];
  const name = (s) => [...uleb(s.length), ...Buffer.from(s)];
  const I32 = 0x7f;
  const types = vec([[0x60, 0, 1, I32], [0x60, 3, I32, I32, I32, 0], [0x60, 1, I32, 1, I32]]);
  const funcs = vec([[0], [0], [1], [1], [1], [1], [2]]);
  const memory = vec([[0, 1]]);
  const names = ['sc_wasm_scratch', 'sc_wasm_scratch_bytes', 'sc_wasm_raycast', 'sc_wasm_linetest',
    'sc_wasm_closest_point', 'sc_wasm_contains', 'sc_wasm_status_message'];
  const exports = vec([...names.map((n, i) => [...name(n), 0, i]), [...name('memory'), 2, 0]]);
  const body = (instrs) => [...uleb(instrs.length + 1), 0, ...instrs];
  const code = vec([
    body([0x41, 0x80, 0x08, 0x0b]), // i32.const 1024
    body([0x41, 0x80, 0x04, 0x0b]), // i32.const 512
    body([0x00, 0x0b]), body([0x00, 0x0b]), body([0x00, 0x0b]), body([0x00, 0x0b]), // unreachable
    body([0x41, 0x00, 0x0b]),
  ]);
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...section(1, types), ...section(3, funcs),
    ...section(5, memory), ...section(7, exports), ...section(10, code)]);
}

describe('traps', () => {
  it('a trap in the module surfaces as SlabcastError, every time', async () => {
    const bad = await loadSlabcast({ wasm: trappingModule() });
    // A ray that hits a sphere: raycast answers AABBs, planes and certain misses in JavaScript
    // (slab.js, shapes.js), without the core.
    const sphere = { type: 'sphere', center: [3, 0, 0], radius: 1 };
    for (let i = 0; i < 3; i++) {
      const e = thrown(() => bad.raycast({ origin: [0, 0, 0], dir: [1, 0, 0] }, sphere));
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.message).toMatch(/trap/);
      expect(e.cause).toBeInstanceOf(WebAssembly.RuntimeError);
    }
    expect(thrown(() => bad.contains([0, 0, 0], box))).toBeInstanceOf(SlabcastError);
  });

  it('a module without the slabcast exports is refused', async () => {
    const empty = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    await expect(loadSlabcast({ wasm: empty })).rejects.toThrow(/lacks the export/);
  });
});
