// Hostile input through every door of the JS API and both case runners.
//
// Every bad input must throw a SlabcastError whose message names what is wrong (and, for a
// structural problem, whose .field names the input); a rejected world call must leave the
// world exactly as it was; results held across memory growth must stay right; a disposed
// world must refuse every call; thousands of worlds must not grow memory. The good answers
// used as references are derived by hand from the geometry written next to them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { NATIVE_RUNNER, ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';

let sc;
beforeAll(async () => {
  requireBuilt(WASM);
  sc = await loadSlabcast();
});

/** The error fn throws; fails unless it is a SlabcastError. */
function thrown(fn) {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof SlabcastError)) {
      throw new Error(`expected a SlabcastError, got ${e && e.constructor ? e.constructor.name : typeof e}: ${e && e.message}`);
    }
    return e;
  }
  throw new Error('expected a SlabcastError, but nothing was thrown');
}

/** Checks fn throws a SlabcastError whose message matches `message` (and whose .field is `field`, when given). */
function expectBad(fn, message, field) {
  const e = thrown(fn);
  expect(e.message).toMatch(message);
  if (field !== undefined) expect(e.field).toBe(field);
  return e;
}

// The unit box [0,1]^3, and the one good query of each kind with its hand-derived answer.
const BOX = { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] };
// From (-1, 0.5, 0.5) along +x the ray enters the face x = 0 at t = 1 and leaves x = 1 at t = 2.
const RAY = { origin: [-1, 0.5, 0.5], dir: [1, 0, 0] };
const RAY_HIT = { hit: true, t: 1, t_enter: 1, t_exit: 2, point: [0, 0.5, 0.5], normal: [-1, 0, 0] };
const SEGMENT = { a: [-1, 0.5, 0.5], b: [0.5, 0.5, 0.5] }; // ends inside the box
const POINT = [2, 0.5, -3]; // closest point on the box: clamp each axis -> (1, 0.5, 0)

function goodAnswersStillRight() {
  expect(sc.raycast(RAY, BOX)).toEqual(RAY_HIT);
  expect(sc.linetest(SEGMENT, BOX)).toEqual({ hit: true });
  expect(sc.closestPoint(POINT, BOX)).toEqual({ point: [1, 0.5, 0] });
  expect(sc.contains(POINT, BOX)).toEqual({ inside: false });
  expect(sc.contains([1, 1, 1], BOX)).toEqual({ inside: true }); // a corner: closed solid
}

// Values that are not vectors of 3 numbers.
const hole = [1, , 3]; // eslint-disable-line no-sparse-arrays
const NOT_VEC = [
  ['undefined', undefined], ['null', null], ['true', true], ['0', 0], ['NaN', NaN], ['a string', 'abc'],
  ['a symbol', Symbol('s')], ['a bigint', 10n], ['{}', {}], ['an array-like object', { 0: 1, 1: 2, 2: 3, length: 3 }],
  ['[]', []], ['[1, 2]', [1, 2]], ['[1, 2, 3, 4]', [1, 2, 3, 4]], ['a string element', ['1', 2, 3]],
  ['an undefined element', [1, 2, undefined]], ['a hole', hole], ['a null element', [1, null, 3]],
  ['bigint elements', [1n, 2n, 3n]], ['a BigInt64Array', new BigInt64Array(3)], ['a DataView', new DataView(new ArrayBuffer(12))],
  ['a Float32Array(2)', new Float32Array(2)], ['a Float32Array(4)', new Float32Array(4)], ['a function', () => 0],
  ['a Map', new Map()], ['a Date', new Date(0)], ['nested arrays', [[1], [2], [3]]],
];
const NOT_NUM = [
  ['null', null], ['a string', '1'], ['[1]', [1]], ['{}', {}], ['true', true], ['a bigint', 1n], ['a symbol', Symbol('n')],
];
const NOT_OBJ = [
  ['undefined', undefined], ['null', null], ['1', 1], ['a string', 'x'], ['[]', []], ['a Float32Array', new Float32Array(7)],
  ['true', true], ['a symbol', Symbol('o')],
];
const NON_FINITE = [NaN, Infinity, -Infinity];

/** Copies of `obj` with obj[key] replaced by each value. */
const withField = (obj, key, value) => ({ ...obj, [key]: value });

describe('single queries: structural problems name the field', () => {
  const shapes = {
    aabb: BOX,
    obb: { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], half: [1, 1, 1] },
    sphere: { type: 'sphere', center: [0, 0, 0], radius: 1 },
    plane: { type: 'plane', normal: [0, 0, 1], d: 0 },
  };
  // Every query, with each of its inputs replaced in turn.
  const calls = [
    ['raycast', (input, shape) => sc.raycast(input, shape), RAY, [['ray.origin', 'origin'], ['ray.dir', 'dir']], 'ray'],
    ['linetest', (input, shape) => sc.linetest(input, shape), SEGMENT, [['segment.a', 'a'], ['segment.b', 'b']], 'segment'],
  ];

  it('every vector field of every input refuses every non-vector', () => {
    let n = 0;
    for (const [, call, good, fields] of calls) {
      for (const [field, key] of fields) {
        for (const [, bad] of NOT_VEC) {
          expectBad(() => call(withField(good, key, bad), BOX), `"${field}" must be an array of 3 numbers`, field);
          n++;
        }
      }
    }
    for (const [, bad] of NOT_VEC) {
      expectBad(() => sc.closestPoint(bad, BOX), '"point" must be an array of 3 numbers', 'point');
      expectBad(() => sc.contains(bad, BOX), '"point" must be an array of 3 numbers', 'point');
      n += 2;
    }
    for (const [type, shape] of Object.entries(shapes)) {
      for (const key of Object.keys(shape)) {
        if (key === 'type' || key === 'radius' || key === 'd' || key === 'axes') continue;
        for (const [, bad] of NOT_VEC) {
          expectBad(() => sc.raycast(RAY, withField(shape, key, bad)), `"shape.${key}" must be an array of 3 numbers`, `shape.${key}`);
          n++;
        }
      }
      void type;
    }
    expect(n).toBeGreaterThan(300);
    goodAnswersStillRight();
  });

  it('number fields refuse non-numbers; OBB axes must be 3 vectors', () => {
    for (const [, bad] of NOT_NUM) {
      expectBad(() => sc.raycast({ ...RAY, tmax: bad }, BOX), '"ray.tmax" must be a number', 'ray.tmax');
      expectBad(() => sc.raycast(RAY, withField(shapes.sphere, 'radius', bad)), '"shape.radius" must be a number', 'shape.radius');
      expectBad(() => sc.raycast(RAY, withField(shapes.plane, 'd', bad)), '"shape.d" must be a number', 'shape.d');
    }
    const badAxes = [undefined, null, [], [[1, 0, 0], [0, 1, 0]], [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]],
      [[1, 0, 0], [0, 1, 0], 'z'], [[1, 0, 0], [0, 1, 0], [0, 0]], new Float32Array(9), { 0: [1, 0, 0], 1: [0, 1, 0], 2: [0, 0, 1], length: 3 }];
    for (const bad of badAxes) {
      expectBad(() => sc.raycast(RAY, withField(shapes.obb, 'axes', bad)), '"shape.axes" must be an array of 3 arrays of 3 numbers', 'shape.axes');
    }
    goodAnswersStillRight();
  });

  it('inputs and shapes must be objects; shape.type a known string', () => {
    for (const [, bad] of NOT_OBJ) {
      expectBad(() => sc.raycast(bad, BOX), '"ray" must be an object', 'ray');
      expectBad(() => sc.linetest(bad, BOX), '"segment" must be an object', 'segment');
      expectBad(() => sc.raycast(RAY, bad), '"shape" must be an object', 'shape');
      expectBad(() => sc.closestPoint(POINT, bad), '"shape" must be an object', 'shape');
      expectBad(() => sc.contains(POINT, bad), '"shape" must be an object', 'shape');
    }
    for (const bad of [undefined, null, 1, {}, ['aabb'], Symbol('aabb')]) {
      expectBad(() => sc.raycast(RAY, { ...BOX, type: bad }), '"shape.type" must be a string', 'shape.type');
    }
    // Inherited names are not shape types.
    for (const bad of ['cone', '', 'AABB', 'aabb ', '__proto__', 'toString', 'constructor', 'hasOwnProperty']) {
      expectBad(() => sc.raycast(RAY, { ...BOX, type: bad }), /^unknown shape type "/, 'shape.type');
    }
    goodAnswersStillRight();
  });

  it('missing arguments', () => {
    expectBad(() => sc.raycast(), '"ray" must be an object', 'ray');
    expectBad(() => sc.raycast(RAY), '"shape" must be an object', 'shape');
    expectBad(() => sc.linetest(), '"segment" must be an object', 'segment');
    expectBad(() => sc.closestPoint(), '"point" must be an array of 3 numbers', 'point');
    expectBad(() => sc.contains(POINT), '"shape" must be an object', 'shape');
  });
});

describe('single queries: values the core refuses', () => {
  it('non-finite components in every vector of every input', () => {
    for (let i = 0; i < 3; i++) {
      for (const v of NON_FINITE) {
        const vec = (base) => base.map((x, k) => (k === i ? v : x));
        expectBad(() => sc.raycast({ ...RAY, origin: vec(RAY.origin) }, BOX), 'ray.origin is not finite');
        expectBad(() => sc.raycast({ ...RAY, dir: vec(RAY.dir) }, BOX), 'ray.dir is not finite');
        expectBad(() => sc.linetest({ ...SEGMENT, a: vec(SEGMENT.a) }, BOX), 'segment.a is not finite');
        expectBad(() => sc.linetest({ ...SEGMENT, b: vec(SEGMENT.b) }, BOX), 'segment.b is not finite');
        expectBad(() => sc.closestPoint(vec(POINT), BOX), 'point is not finite');
        expectBad(() => sc.contains(vec(POINT), BOX), 'point is not finite');
        expectBad(() => sc.raycast(RAY, { ...BOX, min: vec(BOX.min) }), 'shape.min or shape.max is not finite');
        expectBad(() => sc.raycast(RAY, { ...BOX, max: vec(BOX.max) }), 'shape.min or shape.max is not finite');
        expectBad(() => sc.raycast(RAY, { type: 'sphere', center: vec([0, 0, 0]), radius: 1 }), 'shape.center is not finite');
        expectBad(() => sc.raycast(RAY, { type: 'plane', normal: vec([0, 0, 1]), d: 0 }), 'shape.normal is not finite');
      }
    }
    goodAnswersStillRight();
  });

  it('zero directions, bad tmax, inverted boxes, negative sizes, bad axes and normals', () => {
    expectBad(() => sc.raycast({ ...RAY, dir: [0, -0, 0] }, BOX), 'ray.dir is zero');
    for (const tmax of [-1, -0.0001, NaN, -Infinity]) {
      expectBad(() => sc.raycast({ ...RAY, tmax }, BOX), 'ray.tmax is NaN or negative');
    }
    expectBad(() => sc.raycast(RAY, { ...BOX, min: [0, 2, 0] }), 'shape.min is greater than shape.max');
    for (const radius of [NaN, Infinity]) expectBad(() => sc.raycast(RAY, { type: 'sphere', center: [0, 0, 0], radius }), 'shape.radius is not finite');
    expectBad(() => sc.raycast(RAY, { type: 'sphere', center: [0, 0, 0], radius: -1 }), 'shape.radius is negative');
    const obb = { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], half: [1, 1, 1] };
    expectBad(() => sc.raycast(RAY, { ...obb, half: [1, -1, 1] }), 'shape.half is negative');
    expectBad(() => sc.raycast(RAY, { ...obb, axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1.1]] }), /not orthonormal/);
    expectBad(() => sc.raycast(RAY, { ...obb, axes: [[1, 0, 0], [1, 0, 0], [0, 0, 1]] }), /not orthonormal/);
    expectBad(() => sc.raycast(RAY, { ...obb, axes: [[1, 0, 0], [0, NaN, 0], [0, 0, 1]] }), 'shape.axes is not finite');
    expectBad(() => sc.raycast(RAY, { type: 'plane', normal: [0, 0, 0], d: 0 }), 'shape.normal is zero');
    expectBad(() => sc.raycast(RAY, { type: 'plane', normal: [0, 0, 1], d: NaN }), 'shape.d is not finite');
    expectBad(() => sc.contains(POINT, { type: 'plane', normal: [0, 0, 1], d: 0 }), 'contains is not defined for a plane');
    // Numbers past float32 become infinite on the way in, and are refused as such.
    expectBad(() => sc.closestPoint([1e39, 0, 0], BOX), 'point is not finite');
    goodAnswersStillRight();
  });

  it('errors carry the core status; statusMessage refuses non-integers', () => {
    const e = thrown(() => sc.raycast({ ...RAY, dir: [0, 0, 0] }, BOX));
    expect(Number.isInteger(e.status) && e.status > 0).toBe(true);
    expect(sc.statusMessage(e.status)).toBe('ray.dir is zero');
    for (const bad of [1.5, NaN, Infinity, '1', null, undefined, 2 ** 31, -(2 ** 31) - 1, 2 ** 40]) {
      expectBad(() => sc.statusMessage(bad), 'status must be a 32-bit integer', 'status');
    }
  });
});

describe('hostile objects: getters, proxies, values that change between reads', () => {
  it('a throwing getter or Proxy becomes a SlabcastError with the cause kept', () => {
    const boom = new Error('boom');
    const cases = [
      () => sc.raycast({ get origin() { throw boom; }, dir: [1, 0, 0] }, BOX),
      () => sc.raycast(RAY, new Proxy({}, { get() { throw boom; } })),
      () => sc.raycast(RAY, { ...BOX, get type() { throw boom; } }),
      () => sc.linetest({ a: new Proxy([0, 0, 0], { get(t, k) { if (k === '1') throw boom; return Reflect.get(t, k); } }), b: [1, 1, 1] }, BOX),
      () => sc.closestPoint(new Proxy([1, 2, 3], { get(t, k) { if (k === 'length') throw boom; return Reflect.get(t, k); } }), BOX),
    ];
    for (const f of cases) {
      const e = expectBad(f, /boom/);
      expect(e.cause).toBe(boom);
    }
    goodAnswersStillRight();
  });

  it('each input is read once: a getter cannot pass the checks with one value and be written with another', () => {
    let reads = 0;
    const ray = {
      get origin() { reads++; return reads === 1 ? [-1, 0.5, 0.5] : 'not a vector'; },
      dir: [1, 0, 0],
    };
    expect(sc.raycast(ray, BOX)).toEqual(RAY_HIT);
    expect(reads).toBe(1);
    let typeReads = 0;
    const shape = { get type() { typeReads++; return typeReads === 1 ? 'aabb' : 'sphere'; }, min: [0, 0, 0], max: [1, 1, 1] };
    expect(sc.raycast(RAY, shape)).toEqual(RAY_HIT);
    expect(typeReads).toBe(1);
  });
});

describe('loading', () => {
  it('bad options reject with SlabcastError', async () => {
    const bad = [null, 5, 'slabcast.wasm', [], { wasm: 5 }, { wasm: {} }, { wasm: true },
      { wasm: new Uint8Array([1, 2, 3]) }, { wasm: new Uint8Array(0) }, { wasm: path.join(ROOT, 'no-such-file.wasm') },
      { wasm: new URL('file:///no/such/slabcast.wasm') }, { wasm: path.join(ROOT, 'package.json') }];
    for (const options of bad) {
      let error;
      try {
        await loadSlabcast(options);
      } catch (e) {
        error = e;
      }
      expect(error, `loadSlabcast(${String(options && options.wasm)})`).toBeInstanceOf(SlabcastError);
      expect(error.message.length).toBeGreaterThan(10);
    }
    // A server that answers the .wasm request with a page: the message says what happened.
    const page = new TextEncoder().encode('<!doctype html><html></html>');
    await expect(loadSlabcast({ wasm: page })).rejects.toThrow(/^options\.wasm is not a WebAssembly module \(28 bytes, starting with text\)/);
    await expect(loadSlabcast({ wasm: path.join(ROOT, 'package.json') })).rejects.toThrow(/package\.json is not a WebAssembly module/);
  });

});

// ----------------------------------------------------------------------------------- worlds

// Four objects along +x, one of each kind, and probe rays along +x with hand-derived hits:
//   0: AABB [0,1]^3           ray from x = -1   -> t = 1 (enters x = 0)
//   1: AABB [2,3]x[0,1]^2     ray from x = 1.5  -> t = 0.5 (enters x = 2)
//   2: sphere (5, .5, .5) r .5  ray from x = 4   -> t = 0.5 (reaches x = 4.5)
//   3: OBB centre (7,.5,.5), identity axes, half .5: ray from x = 6 -> t = 0.5 (x = 6.5)
//   a ray at y = 5 misses everything.
const BOXES = new Float32Array([0, 0, 0, 1, 1, 1, 2, 0, 0, 3, 1, 1]);
const SPHERES = new Float32Array([5, 0.5, 0.5, 0.5]);
const OBBS = new Float32Array([7, 0.5, 0.5, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5]);
const PROBES = new Float32Array([
  -1, 0.5, 0.5, 1, 0, 0, Infinity,
  1.5, 0.5, 0.5, 1, 0, 0, Infinity,
  4, 0.5, 0.5, 1, 0, 0, Infinity,
  6, 0.5, 0.5, 1, 0, 0, Infinity,
  -1, 5, 0.5, 1, 0, 0, Infinity,
]);
const PROBE_T = [1, 0.5, 0.5, 0.5];
const PROBE_INDEX = [0, 1, 2, 3, -1];

function makeWorld() {
  const w = sc.createWorld();
  expect(w.addAABBs(BOXES)).toBe(0);
  expect(w.addSpheres(SPHERES)).toBe(2);
  expect(w.addOBBs(OBBS)).toBe(3);
  return w;
}

/** Everything observable about a world. */
function fingerprint(w) {
  const r = w.castRays(PROBES);
  const s = w.castSegments(new Float32Array([-1, 0.5, 0.5, 9, 0.5, 0.5]));
  return {
    count: w.count,
    bytes: w.bytes,
    t: Array.from(r.t),
    index: Array.from(r.index),
    normal: Array.from(r.normal),
    any: Array.from(w.anyHit(PROBES)),
    segment: [s.t[0], s.index[0]],
  };
}

describe('worlds: bad input is refused and leaves the world unchanged', () => {
  let w;
  let before;
  beforeAll(() => {
    w = makeWorld();
    before = fingerprint(w);
  });
  afterAll(() => w.dispose());

  it('the reference world answers as derived by hand', () => {
    expect(before.count).toBe(4);
    expect(before.index).toEqual(PROBE_INDEX);
    expect(before.t.slice(0, 4)).toEqual(PROBE_T);
    expect(before.any).toEqual([1, 1, 1, 1, 0]);
    expect(before.segment).toEqual([0.1, 0].map(Math.fround)); // x = 0 is 1/10 of the way from -1 to 9
  });

  const NOT_BATCH = [
    ['undefined', undefined], ['null', null], ['a number', 6], ['a string', '0,0,0,1,1,1'], ['{}', {}],
    ['an Int32Array', new Int32Array(6)], ['a Uint8Array', new Uint8Array(24)], ['a DataView', new DataView(new ArrayBuffer(24))],
    ['an ArrayBuffer', new ArrayBuffer(24)], ['a BigInt64Array', new BigInt64Array(6)], ['a symbol', Symbol('b')],
    ['an array-like object', { length: 6, 0: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 1 }], ['a Set', new Set([1, 2])],
  ];

  /** Runs each bad call, checks its error, then that the world did not change. */
  function refusedAll(list) {
    for (const [what, fn, message, field] of list) {
      const e = thrown(fn);
      expect(e.message, what).toMatch(message);
      if (field !== undefined) expect(e.field, what).toBe(field);
      expect(fingerprint(w), `after ${what}`).toEqual(before);
    }
  }

  it('adds: wrong types, lengths, elements, values; valid items before a bad one are not added', () => {
    const list = [];
    for (const [name, method, per] of [['boxes', 'addAABBs', 6], ['spheres', 'addSpheres', 4], ['obbs', 'addOBBs', 15]]) {
      for (const [label, bad] of NOT_BATCH) list.push([`${method}(${label})`, () => w[method](bad), `${name} must be a Float32Array`, name]);
      list.push([`${method} length`, () => w[method](new Float32Array(per + 1)), `multiple of ${per}`, name]);
      list.push([`${method} element`, () => w[method]([...new Array(per - 1).fill(0), '1']), `${name}[${per - 1}] must be a number`, name]);
      list.push([`${method} hole`, () => w[method](new Array(per)), `${name}[0] must be a number`, name]);
      list.push([`${method} too many`, () => w[method](new Array(per * (16777216 + 1))), 'too many items', name]);
    }
    // Values the core refuses, in the second item, after a valid first one.
    const twoBoxes = (i, v) => { const a = new Float32Array([4, 4, 4, 5, 5, 5, 4, 4, 4, 5, 5, 5]); a[6 + i] = v; return a; };
    for (let i = 0; i < 6; i++) {
      for (const v of NON_FINITE) list.push([`box field ${i} = ${v}`, () => w.addAABBs(twoBoxes(i, v)), /^boxes\[1\]: shape\.min or shape\.max is not finite/, 'boxes']);
    }
    list.push(['min > max', () => w.addAABBs(twoBoxes(0, 6)), /^boxes\[1\]: shape\.min is greater than shape\.max/, 'boxes']);
    list.push(['from Float64Array, past float32', () => w.addAABBs(new Float64Array([0, 0, 0, 1e39, 1, 1])), /^boxes\[0\]: .*not finite/, 'boxes']);
    list.push(['negative radius', () => w.addSpheres(new Float32Array([0, 0, 0, 1, 0, 0, 0, -1])), /^spheres\[1\]: shape\.radius is negative/, 'spheres']);
    list.push(['NaN radius', () => w.addSpheres(new Float32Array([0, 0, 0, NaN])), /^spheres\[0\]: shape\.radius is not finite/, 'spheres']);
    const badObb = OBBS.slice(); badObb[3] = 2; // axes[0] = (2, 0, 0)
    list.push(['OBB axes', () => w.addOBBs(badObb), /^obbs\[0\]: shape\.axes are not orthonormal/, 'obbs']);
    const negObb = OBBS.slice(); negObb[14] = -0.5;
    list.push(['OBB half', () => w.addOBBs(negObb), /^obbs\[0\]: shape\.half is negative/, 'obbs']);
    refusedAll(list);
  });

  it('updates: bad first, ranges outside the world, the wrong kind, bad data', () => {
    const list = [];
    for (const first of [-1, 1.5, NaN, Infinity, '0', null, undefined, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53]) {
      list.push([`updateAABBs(${String(first)})`, () => w.updateAABBs(first, BOXES.slice(0, 6)), 'first must be an integer in [0, 2147483647]', 'first']);
    }
    list.push(['past the end', () => w.updateOBBs(3, new Float32Array([...OBBS, ...OBBS])), /index range is outside the world/, 'obbs']);
    list.push(['at the end', () => w.updateAABBs(4, BOXES.slice(0, 6)), /index range is outside the world/, 'boxes']);
    list.push(['huge first', () => w.updateAABBs(2147483647, BOXES.slice(0, 6)), /index range is outside the world/, 'boxes']);
    list.push(['boxes over a sphere', () => w.updateAABBs(1, BOXES), /another kind/, 'boxes']);
    list.push(['a sphere over a box', () => w.updateSpheres(0, SPHERES), /another kind/, 'spheres']);
    list.push(['an OBB over a sphere', () => w.updateOBBs(2, OBBS), /another kind/, 'obbs']);
    list.push(['bad data', () => w.updateAABBs(0, new Float32Array([0, 0, 0, 1, 1, 1, 9, 9, 9, 0, 0, 0])), /^boxes\[1\]: shape\.min is greater/, 'boxes']);
    list.push(['NaN data', () => w.updateSpheres(2, new Float32Array([5, 0.5, NaN, 0.5])), /^spheres\[0\]: shape\.center is not finite/, 'spheres']);
    for (const [label, bad] of NOT_BATCH) list.push([`updateOBBs(3, ${label})`, () => w.updateOBBs(3, bad), 'obbs must be a Float32Array', 'obbs']);
    refusedAll(list);
  });

  it('casts: bad rays and segments, bad out arrays', () => {
    const one = PROBES.slice(0, 7);
    const list = [];
    for (const [method, name, per] of [['castRays', 'rays', 7], ['castRaysBruteForce', 'rays', 7], ['anyHit', 'rays', 7], ['castSegments', 'segments', 6]]) {
      for (const [label, bad] of NOT_BATCH) list.push([`${method}(${label})`, () => w[method](bad), `${name} must be a Float32Array`, name]);
      list.push([`${method} length`, () => w[method](new Float32Array(per + 2)), `multiple of ${per}`, name]);
      list.push([`${method} element`, () => w[method]([...new Array(per - 1).fill(1), {}]), `${name}[${per - 1}] must be a number`, name]);
    }
    const ray = (i, v) => { const a = new Float32Array([...one, ...one]); a[7 + i] = v; return a; };
    for (let i = 0; i < 3; i++) {
      for (const v of NON_FINITE) {
        list.push([`origin ${i} = ${v}`, () => w.castRays(ray(i, v)), /^rays\[1\]: ray\.origin is not finite/, 'rays']);
        list.push([`dir ${i} = ${v}`, () => w.anyHit(ray(3 + i, v)), /^rays\[1\]: ray\.dir is not finite/, 'rays']);
        list.push([`segment b ${i} = ${v}`, () => w.castSegments(new Float32Array([0, 0, 0, 1, 1, 1, 0, 0, 0, ...[1, 1, 1].map((x, k) => (k === i ? v : x))])), /^segments\[1\]: segment\.b is not finite/, 'segments']);
      }
    }
    list.push(['zero dir', () => w.castRays(new Float32Array([0, 0, 0, 0, -0, 0, 1])), /^rays\[0\]: ray\.dir is zero/, 'rays']);
    for (const tmax of [-1, NaN, -Infinity]) list.push([`tmax ${tmax}`, () => w.castRaysBruteForce(ray(6, tmax)), /^rays\[1\]: ray\.tmax is NaN or negative/, 'rays']);
    // out arrays
    const wasmView = () => new Float32Array(sc.memory.buffer, 0, 8);
    const shared = new Float32Array(8);
    for (const out of [5, 'out', [new Float32Array(1)], new Float32Array(4)]) {
      list.push([`out = ${String(out)}`, () => w.castRays(one, out), 'out must be an object of typed arrays', 'out']);
    }
    list.push(['out.t Float64Array', () => w.castRays(one, { t: new Float64Array(1) }), 'out.t must be a Float32Array', 'out.t']);
    list.push(['out.t array', () => w.castRays(one, { t: [0] }), 'out.t must be a Float32Array', 'out.t']);
    list.push(['out.index Uint32Array', () => w.castRays(one, { index: new Uint32Array(1) }), 'out.index must be a Int32Array', 'out.index']);
    list.push(['out.normal short', () => w.castSegments(new Float32Array(6).fill(1), { normal: new Float32Array(2) }), 'out.normal must hold at least 3 items; it holds 2', 'out.normal']);
    list.push(['out.t short', () => w.castRays(PROBES, { t: new Float32Array(4) }), 'out.t must hold at least 5 items; it holds 4', 'out.t']);
    list.push(['out.t in wasm memory', () => w.castRays(one, { t: wasmView() }), "out.t must not be a view of slabcast's wasm memory", 'out.t']);
    list.push(['out.normal in wasm memory', () => w.castRays(one, { normal: wasmView() }), "out.normal must not be a view of slabcast's wasm memory", 'out.normal']);
    list.push(['out.t and out.normal share bytes', () => w.castRays(one, { t: shared, normal: shared.subarray(0, 3) }), 'out.t and out.normal overlap', 'out.normal']);
    list.push(['out.index aliases out.t', () => w.castRays(one, { t: shared, index: new Int32Array(shared.buffer, 0, 1) }), 'out.t and out.index overlap', 'out.index']);
    list.push(['anyHit out Int8Array', () => w.anyHit(one, new Int8Array(1)), 'out must be a Uint8Array', 'out']);
    list.push(['anyHit out array', () => w.anyHit(one, [0]), 'out must be a Uint8Array', 'out']);
    list.push(['anyHit out short', () => w.anyHit(PROBES, new Uint8Array(2)), 'out must hold at least 5 items; it holds 2', 'out']);
    list.push(['anyHit out in wasm memory', () => w.anyHit(one, new Uint8Array(sc.memory.buffer, 0, 4)), "out must not be a view of slabcast's wasm memory", 'out']);
    list.push(['a throwing Proxy batch', () => w.castRays(new Proxy([...one], { get(t, k) { if (k === '3') throw new Error('trap door'); return Reflect.get(t, k); } })), /castRays: trap door/]);
    refusedAll(list);
    // A refused cast did not write into the caller's arrays either.
    const out = { t: new Float32Array([42]), index: new Int32Array([42]), normal: new Float32Array([42, 42, 42]) };
    thrown(() => w.castRays(new Float32Array([0, 0, 0, 0, 0, 0, 1]), out));
    expect([out.t[0], out.index[0], out.normal[0]]).toEqual([42, 42, 42]);
  });

  it('good calls still give the hand-derived answers', () => {
    const r = w.castRays(PROBES);
    expect(Array.from(r.index)).toEqual(PROBE_INDEX);
    expect(Array.from(r.t.subarray(0, 4))).toEqual(PROBE_T);
    goodAnswersStillRight();
  });
});

describe('worlds: memory growth, dispose, many worlds', () => {
  it('results held across forced memory growth stay right, in returned and in caller-owned arrays', () => {
    const w = makeWorld();
    const held = w.castRays(PROBES);
    const out = { t: new Float32Array(5), index: new Int32Array(5), normal: new Float32Array(15) };
    w.castRays(PROBES, out);
    const single = sc.raycast(RAY, BOX);
    const size = sc.memory.buffer.byteLength;
    sc.memory.grow(8); // growth from outside
    const big = sc.createWorld(); // growth from inside: 300k boxes
    const boxes = new Float32Array(6 * 300000);
    for (let i = 0; i < boxes.length; i += 6) boxes.set([i, 0, 0, i + 1, 1, 1], i);
    big.addAABBs(boxes);
    big.castRays(new Float32Array(7 * 200000).map((_, i) => [i, 0.5, 0.5, 0, 0, 1, 1][i % 7]));
    expect(sc.memory.buffer.byteLength).toBeGreaterThan(size + 8 * 65536);
    for (const r of [held, out]) {
      expect(Array.from(r.index)).toEqual(PROBE_INDEX);
      expect(Array.from(r.t.subarray(0, 4))).toEqual(PROBE_T);
      expect(Array.from(r.normal.subarray(0, 3))).toEqual([-1, 0, 0]);
    }
    expect(single).toEqual(RAY_HIT);
    expect(Array.from(w.castRays(PROBES).index)).toEqual(PROBE_INDEX);
    big.dispose();
    w.dispose();
  });

  it('a batch that is itself a view of wasm memory is copied before staging can move it', async () => {
    // A fresh instance, so that no large free block exists: staging this batch must grow memory.
    const fresh = await loadSlabcast();
    const w = fresh.createWorld();
    w.addAABBs(BOXES);
    w.addSpheres(SPHERES);
    w.addOBBs(OBBS);
    const n = 60000; // 1.7 MB of rays; staging needs 48 bytes a ray, 2.9 MB
    const rays = new Float32Array(7 * n);
    for (let i = 0; i < n; i++) rays.set(PROBES.subarray(7 * (i % 5), 7 * (i % 5) + 7), 7 * i);
    // Place the batch in fresh pages at the top, past everything allocated so far.
    const top = fresh.memory.buffer.byteLength;
    fresh.memory.grow(Math.ceil(rays.byteLength / 65536));
    const view = new Float32Array(fresh.memory.buffer, top, rays.length);
    view.set(rays);
    const r = w.castRays(view);
    expect(fresh.memory.buffer.byteLength, 'staging grew the memory').toBeGreaterThan(top + rays.byteLength + 65536);
    const expected = [];
    for (let i = 0; i < n; i++) expected.push(PROBE_INDEX[i % 5]);
    expect(Array.from(r.index)).toEqual(expected);
    w.dispose();
  });

  it('after dispose every call throws, a second dispose does nothing', () => {
    const w = makeWorld();
    w.dispose();
    expect(w.disposed).toBe(true);
    const calls = {
      addAABBs: () => w.addAABBs(BOXES), addOBBs: () => w.addOBBs(OBBS), addSpheres: () => w.addSpheres(SPHERES),
      updateAABBs: () => w.updateAABBs(0, BOXES), updateOBBs: () => w.updateOBBs(3, OBBS), updateSpheres: () => w.updateSpheres(2, SPHERES),
      commit: () => w.commit(), refit: () => w.refit(), build: () => w.build(), castRays: () => w.castRays(PROBES),
      castRaysBruteForce: () => w.castRaysBruteForce(PROBES), castSegments: () => w.castSegments(new Float32Array(6)),
      anyHit: () => w.anyHit(PROBES), castRayAll: () => w.castRayAll(PROBES.slice(0, 7)), count: () => w.count, bytes: () => w.bytes,
      liveCount: () => w.liveCount,
      remove: () => w.remove(0), setEnabled: () => w.setEnabled(0, new Uint8Array(1)),
      setMasks: () => w.setMasks(0, new Uint32Array(1)), kindOf: () => w.kindOf(0),
      castSpheres: () => w.castSpheres(new Float32Array([0, 0, 0, 1, 0, 0, 1, 1])),
      castBoxes: () => w.castBoxes(new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 1, 1])),
      castSpheresBruteForce: () => w.castSpheresBruteForce(new Float32Array([0, 0, 0, 1, 0, 0, 1, 1])),
      castBoxesBruteForce: () => w.castBoxesBruteForce(new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 1, 1])),
      overlapAABB: () => w.overlapAABB([0, 0, 0], [1, 1, 1], new Int32Array(1)),
      overlapSphere: () => w.overlapSphere([0, 0, 0], 1, new Int32Array(1)),
      overlapOBB: () => w.overlapOBB(new Float32Array(15), new Int32Array(1)),
      overlapFrustum: () => w.overlapFrustum(new Float32Array(24), new Int32Array(1)),
      overlapBruteForce: () => w.overlapBruteForce('aabb', [0, 0, 0, 1, 1, 1], new Int32Array(1)),
      closestObjects: () => w.closestObjects([0, 0, 0], Infinity),
      closestObjectsBruteForce: () => w.closestObjectsBruteForce([0, 0, 0], Infinity),
      addCapsules: () => w.addCapsules(new Float32Array([0, 0, 0, 0, 1, 0, 0.5])),
      updateCapsules: () => w.updateCapsules(0, new Float32Array([0, 0, 0, 0, 1, 0, 0.5])),
      castCapsules: () => w.castCapsules(new Float32Array([0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0.5])),
      castCapsulesBruteForce: () => w.castCapsulesBruteForce(new Float32Array([0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0.5])),
      overlapCapsule: () => w.overlapCapsule([0, 0, 0], [0, 1, 0], 0.5, new Int32Array(1)),
    };
    // Every method of the world is in the list (a new method must be added here).
    const methods = Object.keys(w).filter((k) => !['dispose', 'disposed'].includes(k));
    for (const k of methods) expect(Object.hasOwn(calls, k) || typeof w[k] !== 'function', `${k} is checked after dispose`).toBe(true);
    for (const [name, f] of Object.entries(calls)) expectBad(f, 'the world has been disposed', undefined, name);
    expect(() => w.dispose()).not.toThrow();
    expect(() => w.dispose()).not.toThrow();
    expect(w.disposed).toBe(true);
    goodAnswersStillRight();
  });

  it('creating and disposing thousands of worlds does not grow memory', () => {
    const cycle = () => {
      const w = makeWorld();
      w.castRays(PROBES);
      w.dispose();
    };
    for (let i = 0; i < 200; i++) cycle(); // warm up the staging area and the free lists
    const size = sc.memory.buffer.byteLength;
    for (let i = 0; i < 5000; i++) cycle();
    expect(sc.memory.buffer.byteLength).toBe(size);
    // Many alive at once, then all disposed, twice: the second round reuses the first's memory.
    const round = () => {
      const ws = [];
      for (let i = 0; i < 1000; i++) ws.push(makeWorld());
      for (const w of ws) w.dispose();
    };
    round();
    const after = sc.memory.buffer.byteLength;
    round();
    round();
    expect(sc.memory.buffer.byteLength).toBe(after);
    goodAnswersStillRight();
  });
});

// ----------------------------------------------------------------------------------- runners

describe('case runners: malformed, truncated and huge files', () => {
  let dir;
  const JS_RUNNER = path.join(ROOT, 'web/bin/slabcast-cases.mjs');
  const runners = {
    native: (args) => spawnSync(NATIVE_RUNNER, args, { cwd: dir, maxBuffer: 1 << 26 }),
    wasm: (args) => spawnSync(process.execPath, [JS_RUNNER, ...args], { cwd: dir, maxBuffer: 1 << 26 }),
  };
  const valid = readFileSync(path.join(ROOT, 'tests/cases/aabb-boundaries.json'));
  const bad = {};

  beforeAll(() => {
    requireBuilt(NATIVE_RUNNER);
    dir = mkdtempSync(path.join(tmpdir(), 'slabcast-hostile-'));
    // Truncated copies of a valid file, cut at a spread of places.
    for (let k = 1; k <= 12; k++) bad[`truncated-${k}.json`] = valid.subarray(0, Math.floor((valid.length * k) / 13));
    bad['binary.json'] = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) & 0xff));
    bad['utf16.json'] = Buffer.from(`\ufeff${valid.toString('utf8')}`, 'utf16le');
    bad['many-cases.json'] = `{"format": "slabcast-cases/1", "cases": [${new Array(1000001).fill('{}').join(',')}]}`;
    bad['deep.json'] = `{"format": "slabcast-cases/1", "cases": ${'['.repeat(100000)}${']'.repeat(100000)}}`;
    for (const [name, content] of Object.entries(bad)) writeFileSync(path.join(dir, name), content);
    // Not a bad file: one bad case (a 1 MiB number) is a result, not a file error.
    writeFileSync(path.join(dir, 'long-number.json'), `{"format": "slabcast-cases/1", "cases": [${'9'.repeat(1 << 20)}]}`);
    writeFileSync(path.join(dir, 'huge.json'), '');
    truncateSync(path.join(dir, 'huge.json'), 67108864 + 1); // sparse: one byte past the cap
    mkdirSync(path.join(dir, 'a-directory.json'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const expected = () => ({
    ...Object.fromEntries(Object.keys(bad).filter((n) => n.startsWith('truncated') || n === 'binary.json' || n === 'utf16.json').map((n) => [n, 'is not valid JSON'])),
    'many-cases.json': 'too many cases (1000001; the limit is 1000000)',
    'huge.json': 'is too large (the limit is 67108864 bytes)',
  });

  for (const runner of ['native', 'wasm']) {
    it(`${runner}: every bad file gets a clear message and a non-zero exit`, () => {
      const names = [...Object.keys(bad), 'huge.json', 'a-directory.json', 'missing.json'];
      const want = expected();
      for (const name of names) {
        for (const mode of ['run', 'check']) {
          const r = runners[runner]([mode, name]);
          const stderr = r.stderr.toString('utf8');
          expect(r.status, `${runner} ${mode} ${name}: ${stderr}`).not.toBe(0);
          expect(r.status, `${runner} ${mode} ${name}`).not.toBe(null); // not killed by a signal
          expect(stderr, `${runner} ${mode} ${name}`).toMatch(new RegExp(`^slabcast-cases: (cannot (open|read) )?${name.replace('.', '\\.')}[: ]`));
          if (want[name]) expect(stderr, `${runner} ${mode} ${name}`).toContain(want[name]);
          expect(stderr.split('\n').length, 'one line').toBeLessThanOrEqual(2);
        }
      }
      const r = runners[runner](['run', 'long-number.json']);
      expect(r.status).toBe(0);
      expect(r.stdout.toString('utf8')).toContain('{"id": null, "error": "case is not an object"}');
    });
  }
});

describe('re-entry and lying typed arrays (the world is locked during a call)', () => {
  const BOX = [0, 0, 0, 1, 1, 1];
  const RAY = [-1, 0.5, 0.5, 1, 0, 0, Infinity]; // enters the unit box at x = 0: t = 1, index 0
  /** A world with one unit box, and a second world, untouched, whose answer is checked after. */
  function pair() {
    const w = sc.createWorld();
    w.addAABBs(new Float32Array(BOX));
    const other = sc.createWorld();
    other.addAABBs(new Float32Array([5, 0, 0, 6, 1, 1]));
    return { w, other };
  }
  /** An array of numbers whose element 0 runs `effect` when read. */
  function withGetter(values, effect) {
    const a = [...values];
    Object.defineProperty(a, 0, { get() { effect(); return values[0]; }, enumerable: true });
    return a;
  }
  const unchanged = (w, other) => {
    expect(w.count).toBe(1);
    const r = w.castRays(new Float32Array(RAY));
    expect([r.index[0], r.t[0]]).toEqual([0, 1]);
    const o = other.castRays(new Float32Array([0, 0.5, 0.5, 1, 0, 0, Infinity]));
    expect([o.index[0], o.t[0]]).toEqual([0, 5]);
  };

  // Regression: dispose() from a getter freed the world under the running call (another world's
  // answers were corrupted, or the instance trapped).
  const calls = {
    castRays: (w, input) => w.castRays(input(RAY)),
    castRaysBruteForce: (w, input) => w.castRaysBruteForce(input(RAY)),
    anyHit: (w, input) => w.anyHit(input(RAY)),
    castRayAll: (w, input) => w.castRayAll(input(RAY)),
    castSegments: (w, input) => w.castSegments(input([-1, 0.5, 0.5, 2, 0.5, 0.5])),
    castSpheres: (w, input) => w.castSpheres(input([...RAY, 0.1])),
    overlapAABB: (w, input) => w.overlapAABB(input([0, 0, 0]), [1, 1, 1], new Int32Array(2)),
    castRaysWithOptions: (w, input) => w.castRays(new Float32Array(RAY), undefined, { get mask() { return input([1])[0]; } }),
    addAABBs: (w, input) => w.addAABBs(input(BOX)),
    updateAABBs: (w, input) => w.updateAABBs(0, input(BOX)),
  };
  const reentries = {
    dispose: (w) => w.dispose(),
    addAABBs: (w) => w.addAABBs(new Float32Array(BOX)),
    updateAABBs: (w) => w.updateAABBs(0, new Float32Array([9, 9, 9, 10, 10, 10])),
    commit: (w) => w.commit(),
    castRays: (w) => w.castRays(new Float32Array(RAY)),
    count: (w) => w.count,
    remove: (w) => w.remove(0),
    setEnabled: (w) => w.setEnabled(0, new Uint8Array(1)),
    setMasks: (w) => w.setMasks(0, new Uint32Array(1)),
  };
  for (const [name, run] of Object.entries(calls)) {
    for (const [inner, reenter] of Object.entries(reentries)) {
      it(`world.${name} whose input getter calls world.${inner}: a busy SlabcastError, nothing changed`, () => {
        const { w, other } = pair();
        let inside;
        const e = thrown(() => run(w, (v) => withGetter(v, () => {
          try { reenter(w); inside = 'ran'; } catch (err) { inside = err; throw err; }
        })));
        expect(inside).toBeInstanceOf(SlabcastError);
        expect(inside.message).toMatch(new RegExp(`^world\\.${inner}: the world is busy: called from inside world\\.${name.replace(/WithOptions$/, '')}`));
        expect(e).toBeInstanceOf(SlabcastError);
        expect(e.message).toMatch(/the world is busy/);
        expect(w.disposed).toBe(false);
        unchanged(w, other);
        w.dispose();
        other.dispose();
      });
    }
  }

  it('an out getter that disposes the world is refused too; the world still answers', () => {
    const { w, other } = pair();
    const out = { get t() { w.dispose(); return new Float32Array(1); } };
    expect(thrown(() => w.castRays(new Float32Array(RAY), out)).message).toMatch(/busy/);
    unchanged(w, other);
  });

  it('a getter may use another world: each world has its own lock', () => {
    const { w, other } = pair();
    const r = w.castRays(withGetter(RAY, () => other.castRays(new Float32Array([0, 0.5, 0.5, 1, 0, 0, Infinity]))));
    expect([r.index[0], r.t[0]]).toEqual([0, 1]);
    unchanged(w, other);
  });

  // Regression: own `length` / `byteLength` on the instance made phantom boxes (the batch was
  // read as 1e6 floats) or sized writes by the lie.
  it('a Float32Array whose own length or byteLength lies adds exactly the boxes it holds', () => {
    for (const key of ['length', 'byteLength']) {
      const w = sc.createWorld();
      const a = new Float32Array(BOX);
      Object.defineProperty(a, key, { value: key === 'length' ? 6e6 : 24e6 });
      expect(w.addAABBs(a)).toBe(0);
      expect(w.count).toBe(1);
      const r = w.castRays(new Float32Array(RAY));
      expect([r.index[0], r.t[0]]).toEqual([0, 1]);
      w.dispose();
    }
  });

  it('a subclass that overrides length, or a fake with Float32Array.prototype, gets no say', () => {
    class Liar extends Float32Array { get length() { return 600; } }
    const w = sc.createWorld();
    expect(w.addAABBs(new Liar(BOX))).toBe(0);
    expect(w.count).toBe(1);
    const fake = Object.create(Float32Array.prototype);
    expect(thrown(() => w.addAABBs(fake)).message).toMatch(/boxes must be a Float32Array/);
    expect(w.count).toBe(1);
    w.dispose();
  });

  it('out arrays are sized by their real length; bytes around them stay as they were', () => {
    const w = sc.createWorld();
    w.addAABBs(new Float32Array(BOX));
    const buffer = new ArrayBuffer(64);
    const bytes = new Uint8Array(buffer);
    bytes.fill(0xab);
    const t = new Float32Array(buffer, 16, 1); // room for one ray
    Object.defineProperty(t, 'length', { value: 4 });
    const rays = new Float32Array([...RAY, ...RAY, ...RAY, ...RAY]);
    expect(thrown(() => w.castRays(rays, { t })).message).toMatch(/out\.t must hold at least 4 items; it holds 1/);
    expect(bytes.every((b) => b === 0xab)).toBe(true);
    // and with room for exactly one ray, only its 4 bytes change
    const one = w.castRays(new Float32Array(RAY), { t });
    expect(one.t).toBe(t);
    expect(new Float32Array(buffer, 16, 1)[0]).toBe(1);
    expect([...bytes.slice(0, 16), ...bytes.slice(20)].every((b) => b === 0xab)).toBe(true);
    w.dispose();
  });
});
