// raycastAABB's array paths (a Float32Array ray with an array box, and a ray and a box both
// arrays: web/core/queries.js raycastAABB reads them into locals) against hostile arrays: Proxies, index
// getters that change the other argument or call raycastAABB again, sparse arrays, lengths that
// change, prototypes with extra elements, non-numbers. Each element is read exactly once, the
// errors name what is wrong, and every answer is the core's (sc_wasm_raycast called directly by
// helpers/core-raycast.mjs, none of queries.js's code), bit for bit.
import { beforeAll, describe, expect, test } from 'vitest';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { coreAABB, coreRaycaster } from './helpers/core-raycast.mjs';

let sc;
let coreRaycast;
beforeAll(async () => {
  sc = await loadSlabcast();
  coreRaycast = await coreRaycaster();
});

/** The core's answer for plain values: the 9 floats raycastAABB writes, or null for a miss. */
function core(ray, box) {
  const r = coreAABB(coreRaycast, ray, box);
  expect(r.status).toBe(0);
  return r.floats;
}

/** raycastAABB's answer: the 9 floats written, or null (a miss, the target left alone). */
function answer(ray, box) {
  const target = new Float32Array(9).fill(NaN);
  const hit = sc.raycastAABB(ray, box, target);
  if (!hit) {
    expect(Array.from(target).every(Number.isNaN)).toBe(true);
    return null;
  }
  return Array.from(target);
}

function thrown(f) {
  try { f(); } catch (e) { return e; }
  return null;
}

function expectError(f, message) {
  const e = thrown(f);
  expect(e).toBeInstanceOf(SlabcastError);
  expect(e.message).toContain(message);
}

/** A Proxy over array a counting every property read (by key). */
function counted(a) {
  const reads = {};
  const p = new Proxy(a, { get(o, k, recv) { reads[String(k)] = (reads[String(k)] ?? 0) + 1; return Reflect.get(o, k, recv); } });
  return { p, reads };
}

// Enters x = 1 at t = 6 (from x = -5 along +x), leaves at x = 3 (t = 8): normal (-1, 0, 0).
const RAY = [-5, 0, 0, 1, 0, 0, Infinity];
const BOX = [1, -1, -1, 3, 1, 1];
const HIT = [6, 6, 8, 1, 0, 0, -1, 0, 0];

describe('raycastAABB with array inputs reads each element once', () => {
  test('by hand: the same hit from every form of the inputs, and the core agrees', () => {
    expect(core(RAY, BOX)).toEqual(HIT);
    expect(answer(new Float32Array(RAY), BOX.slice())).toEqual(HIT);
    expect(answer(RAY.slice(), BOX.slice())).toEqual(HIT);
    expect(answer(RAY.slice(), new Float32Array(BOX))).toEqual(HIT);
    expect(answer(new Float64Array(RAY), BOX.slice())).toEqual(HIT);
  });

  test('a Proxy over an array box (Array.isArray is true for it): length and each element read once', () => {
    const { p, reads } = counted(BOX.slice());
    expect(answer(new Float32Array(RAY), p)).toEqual(HIT);
    expect(reads).toEqual({ length: 1, 0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 });
    const ray = counted(RAY.slice());
    const box = counted(BOX.slice());
    expect(answer(ray.p, box.p)).toEqual(HIT);
    expect(ray.reads).toEqual({ length: 1, 0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1 });
    expect(box.reads).toEqual({ length: 1, 0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 });
  });

  test('a Proxy whose elements change on every read: the values read once are the ones used', () => {
    // each read of an element answers a larger value: box[3] (max x) read twice would move the exit
    let n = 0;
    const box = new Proxy(BOX.slice(), { get(o, k) { if (k === '3') return 3 + n++; return o[k]; } });
    expect(answer(RAY.slice(), box)).toEqual(HIT);
    expect(n).toBe(1);
  });

  test('a box getter that changes a Float32Array ray: the ray is read as it is after the box', () => {
    const ray = new Float32Array(RAY);
    const box = BOX.slice();
    Object.defineProperty(box, 2, { get() { ray[0] = -9; return -1; }, enumerable: true });
    // from x = -9: enters at t = 10, leaves at 12
    expect(answer(ray, box)).toEqual([10, 10, 12, 1, 0, 0, -1, 0, 0]);
    expect(core([-9, 0, 0, 1, 0, 0, Infinity], BOX)).toEqual([10, 10, 12, 1, 0, 0, -1, 0, 0]);
  });

  test('a box getter that shrinks a Float32Array ray: the ray is judged after it', () => {
    const buffer = new ArrayBuffer(28, { maxByteLength: 28 });
    const ray = new Float32Array(buffer);
    ray.set(RAY);
    const box = BOX.slice();
    Object.defineProperty(box, 5, { get() { buffer.resize(24); return 1; }, enumerable: true });
    expectError(() => sc.raycastAABB(ray, box, new Float32Array(9)), 'ray must hold 7 floats; it holds 6');
  });

  test('a box getter that detaches a Float32Array ray\'s buffer: the ray is judged after it', () => {
    const ray = new Float32Array(RAY);
    const box = BOX.slice();
    Object.defineProperty(box, 3, { get() { structuredClone(ray.buffer, { transfer: [ray.buffer] }); return 3; }, enumerable: true });
    expectError(() => sc.raycastAABB(ray, box, new Float32Array(9)), 'ray must hold 7 floats; it holds 0');
  });

  test('a box getter that shrinks the target (checked by the call before): refused, nothing written', () => {
    const buffer = new ArrayBuffer(36, { maxByteLength: 36 });
    const target = new Float32Array(buffer);
    expect(sc.raycastAABB(new Float32Array(RAY), BOX.slice(), target)).toBe(true); // the target is remembered
    target.fill(7);
    const box = BOX.slice();
    Object.defineProperty(box, 0, { get() { buffer.resize(32); return 1; }, enumerable: true });
    expectError(() => sc.raycastAABB(new Float32Array(RAY), box, target), 'target must hold at least 9 floats; it holds 8');
    expect(Array.from(target)).toEqual(new Array(8).fill(7));
  });

  test('a box getter that changes an array ray already read: the values read are used', () => {
    const ray = RAY.slice();
    const box = BOX.slice();
    Object.defineProperty(box, 0, { get() { ray[0] = -9; ray.length = 2; return 1; }, enumerable: true });
    expect(answer(ray, box)).toEqual(HIT);
  });

  test('a ray getter that shortens the array box: the box is read after, and refused', () => {
    const box = BOX.slice();
    const ray = RAY.slice();
    Object.defineProperty(ray, 6, { get() { box.length = 5; return Infinity; }, enumerable: true });
    expectError(() => sc.raycastAABB(ray, box, new Float32Array(9)), 'box must be a Float32Array, a Float64Array or an array of 6 numbers');
  });

  test('a getter that empties its own array after its length was read: the rest read as holes', () => {
    const box = BOX.slice();
    Object.defineProperty(box, 1, { get() { box.length = 2; return -1; }, enumerable: true });
    // its length was 6 when read; elements 2.. are gone when they are read
    expectError(() => sc.raycastAABB(new Float32Array(RAY), box, new Float32Array(9)), 'box[2] must be a number');
  });

  test('sparse arrays: a hole is not a number; a hole filled by the prototype is read once from it', () => {
    // eslint-disable-next-line no-sparse-arrays
    expectError(() => sc.raycastAABB(new Float32Array(RAY), [1, -1, , 3, 1, 1], new Float32Array(9)), 'box[2] must be a number');
    // eslint-disable-next-line no-sparse-arrays
    expectError(() => sc.raycastAABB([-5, 0, 0, 1, , 0, Infinity], BOX.slice(), new Float32Array(9)), 'ray[4] must be a number');
    const proto = Object.create(Array.prototype);
    let reads = 0;
    Object.defineProperty(proto, 2, { get() { reads++; return -1; } });
    // eslint-disable-next-line no-sparse-arrays
    const box = [1, -1, , 3, 1, 1];
    Object.setPrototypeOf(box, proto);
    expect(Array.isArray(box)).toBe(true);
    expect(answer(new Float32Array(RAY), box)).toEqual(HIT);
    expect(reads).toBe(1);
  });

  test('an array of the right length whose prototype has more elements: only its own length counts', () => {
    const proto = Object.create(Array.prototype);
    Object.defineProperty(proto, 6, { get() { throw new Error('element 6 read'); } });
    Object.defineProperty(proto, 7, { get() { throw new Error('element 7 read'); } });
    const box = BOX.slice();
    Object.setPrototypeOf(box, proto);
    expect(answer(new Float32Array(RAY), box)).toEqual(HIT);
    const ray = RAY.slice();
    Object.setPrototypeOf(ray, proto);
    expect(answer(ray, box)).toEqual(HIT);
    // a 6-element ray is not made 7 by its prototype's element 6
    const short = RAY.slice(0, 6);
    Object.setPrototypeOf(short, proto);
    expectError(() => sc.raycastAABB(short, BOX.slice(), new Float32Array(9)), 'ray must be a Float32Array, a Float64Array or an array of 7 numbers');
  });

  test('wrong lengths and non-numbers are named, the ray before the box', () => {
    const t = new Float32Array(9);
    expectError(() => sc.raycastAABB(new Float32Array(RAY), BOX.slice(0, 5), t), 'box must be a Float32Array, a Float64Array or an array of 6 numbers');
    expectError(() => sc.raycastAABB(new Float32Array(RAY), [...BOX, 0], t), 'box must be a Float32Array, a Float64Array or an array of 6 numbers');
    expectError(() => sc.raycastAABB(RAY.slice(0, 6), BOX.slice(0, 5), t), 'ray must be a Float32Array, a Float64Array or an array of 7 numbers');
    expectError(() => sc.raycastAABB([...RAY.slice(0, 6), undefined], BOX.slice(), t), 'ray[6] must be a number');
    expectError(() => sc.raycastAABB([...RAY.slice(0, 6), '1'], ['x'], t), 'ray[6] must be a number');
    expectError(() => sc.raycastAABB(RAY.slice(), [1, -1, -1, 3, 1n, 1], t), 'box[4] must be a number');
    expectError(() => sc.raycastAABB(new Float32Array(RAY), [1, -1, { valueOf: () => 0 }, 3, 1, 1], t), 'box[2] must be a number');
    // a Float32Array ray of the wrong length, with an array box: the box first, then the ray
    expectError(() => sc.raycastAABB(new Float32Array(6), [1, -1, -1, 3, 1, null], t), 'box[5] must be a number');
    expectError(() => sc.raycastAABB(new Float32Array(8), BOX.slice(), t), 'ray must hold 7 floats; it holds 8');
    // an error thrown by the caller's getter becomes a SlabcastError naming the call
    const box = new Proxy(BOX.slice(), { get(o, k) { if (k === '4') throw new RangeError('no'); return o[k]; } });
    const e = thrown(() => sc.raycastAABB(new Float32Array(RAY), box, t));
    expect(e).toBeInstanceOf(SlabcastError);
    expect(e.message).toContain('raycastAABB');
  });

  test('invalid geometry in arrays gets the core message', () => {
    const t = new Float32Array(9);
    expectError(() => sc.raycastAABB([0, 0, 0, 0, 0, 0, 1], BOX.slice(), t), 'ray.dir is zero');
    expectError(() => sc.raycastAABB(new Float32Array(RAY), [3, -1, -1, 1, 1, 1], t), 'shape.min is greater than shape.max');
    expectError(() => sc.raycastAABB([0, 0, NaN, 1, 0, 0, 1], BOX.slice(), t), 'ray.origin is not finite');
  });

  test('an Array subclass with its own index getters: read once each', () => {
    let reads = 0;
    class Counting extends Array {
      get 3() { reads++; return 3; }
    }
    const box = Counting.from([1, -1, -1, 0, 1, 1]);
    // from() defined element 3 as an own data property: delete it so the class getter answers
    delete box[3];
    expect(answer(new Float32Array(RAY), box)).toEqual(HIT);
    expect(reads).toBe(1);
  });
});

describe('raycastAABB called again from the caller\'s getters', () => {
  const inner = () => [0.5, 9, 0.25, 0, -1, 0, Infinity]; // down onto the unit box: t 8..9
  const INNER_HIT = [8, 8, 9, 0.5, 1, 0.25, 0, 1, 0];
  const UNIT = [0, 0, 0, 1, 1, 1];

  /** An array box whose element 4 calls raycastAABB(innerRay(), innerBox()) and keeps its answer. */
  function reentrant(innerRay, innerBox) {
    const got = { hit: null, target: new Float32Array(9) };
    const box = BOX.slice();
    Object.defineProperty(box, 4, { get() { got.hit = sc.raycastAABB(innerRay(), innerBox(), got.target); return 1; }, enumerable: true });
    return { box, got };
  }

  const forms = {
    'arrays': [inner, () => UNIT.slice()],
    'Float32Array ray, array box': [() => new Float32Array(inner()), () => UNIT.slice()],
    'Float32Arrays': [() => new Float32Array(inner()), () => new Float32Array(UNIT)],
    'Float64Array ray': [() => new Float64Array(inner()), () => UNIT.slice()],
    'array ray, Float32Array box': [inner, () => new Float32Array(UNIT)],
  };
  const outers = {
    'Float32Array ray': () => new Float32Array(RAY),
    'array ray': () => RAY.slice(),
    'Float64Array ray': () => new Float64Array(RAY),
  };
  for (const [outerName, outerRay] of Object.entries(outers)) {
    for (const [innerName, [innerRay, innerBox]] of Object.entries(forms)) {
      test(`outer: ${outerName} and an array box; inner: ${innerName}`, () => {
        const { box, got } = reentrant(innerRay, innerBox);
        expect(answer(outerRay(), box)).toEqual(HIT);
        expect(got.hit).toBe(true);
        expect(Array.from(got.target)).toEqual(INNER_HIT);
        expect(core(inner(), UNIT)).toEqual(INNER_HIT);
      });
    }
  }

  test('a miss nested in a hit and a hit nested in a miss', () => {
    // the inner call misses (ray away from the unit box): the outer hit stays right
    const { box, got } = reentrant(() => [0.5, 9, 0.25, 0, 1, 0, Infinity], () => UNIT.slice());
    expect(answer(RAY.slice(), box)).toEqual(HIT);
    expect(got.hit).toBe(false);
    // the outer call misses (ray pointing away), the inner hits
    const r2 = reentrant(inner, () => UNIT.slice());
    expect(answer([-5, 0, 0, -1, 0, 0, Infinity], r2.box)).toBe(null);
    expect(Array.from(r2.got.target)).toEqual(INNER_HIT);
  });
});
