// web/playground/state.mjs (scene.mjs, scene-check.mjs, link.mjs, case-file.mjs): the
// playground's scene state, its link and its case-file export / import. Expected
// values are derived independently of the code under test: float32 bit patterns
// are IEEE-754 constants, link bytes are laid out by hand from the format
// described in link.mjs, raycast answers are worked out from docs/semantics.md
// (the working is in the comments), and case files are read back with JSON.parse
// and replayed by both runners.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSlabcast } from '../../web/slabcast.js';
import {
  MAX_FRAGMENT_CHARS, MAX_IMPORT_BYTES, MAX_IMPORT_CASES, MAX_RAYS, MAX_SHAPES,
  cloneState, decode, defaultState, encode, fromCaseFile, sameState, toCaseFile, validateState,
} from '../../web/playground/state.mjs';
import { defaultUi } from '../../web/playground/ui-state.mjs';
import { NATIVE_RUNNER, ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';

const f = Math.fround;
const JS_RUNNER = path.join(ROOT, 'web/bin/slabcast-cases.mjs');

// ------------------------------------------------------------------ helpers

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** The float32 bit pattern of x. */
function bits(x) {
  f32[0] = x;
  return u32[0];
}
/** The float32 with bit pattern b. */
function fromBits(b) {
  u32[0] = b;
  return f32[0];
}

// IEEE-754 binary32 constants, by bit pattern.
const NEG_ZERO = fromBits(0x80000000);
const MIN_SUBNORMAL = fromBits(0x00000001); // 2^-149, "1e-45"
const MIN_NORMAL = fromBits(0x00800000); // 2^-126
const FLT_MAX = fromBits(0x7f7fffff); // 3.4028235e38
const TENTH = fromBits(0x3dcccccd); // float32 nearest to 0.1

/** Every number of a JSON-like value, in order (object keys sorted). */
function allNumbers(v) {
  const out = [];
  const walk = (x) => {
    if (typeof x === 'number') out.push(x);
    else if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') Object.keys(x).sort().forEach((k) => walk(x[k]));
  };
  walk(v);
  return out;
}

/** Every number of a JSON-like value as float32 bits. */
const allBits = (v) => allNumbers(v).map(bits);

/** A link fragment from hand-laid bytes (Node's own base64url, not the module's). */
const linkOf = (bytes, version = 1) => `#v${version}.${Buffer.from(bytes).toString('base64url')}`;

/** Little-endian byte writer for hand-built link payloads. */
function bytesOf(parts) {
  const out = [];
  const dv = new DataView(new ArrayBuffer(4));
  for (const [kind, ...values] of parts) {
    for (const v of values) {
      if (kind === 'u8') out.push(v);
      else {
        if (kind === 'u32') dv.setUint32(0, v, true);
        else if (kind === 'i32') dv.setInt32(0, v, true);
        else if (kind === 'f64') {
          const d8 = new DataView(new ArrayBuffer(8));
          d8.setFloat64(0, v, true);
          out.push(...new Uint8Array(d8.buffer));
          continue;
        } else dv.setFloat32(0, v, true);
        out.push(...new Uint8Array(dv.buffer));
      }
    }
  }
  return new Uint8Array(out);
}

/** mulberry32: a small seeded PRNG. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPECIALS = [0, NEG_ZERO, MIN_SUBNORMAL, -MIN_SUBNORMAL, MIN_NORMAL, FLT_MAX, -FLT_MAX, TENTH, 1, -1, 0.5];

/** A random finite float32: a special value, a small dyadic one or any finite bit pattern. */
function randomFloat(r) {
  const k = r();
  if (k < 0.25) return SPECIALS[Math.floor(r() * SPECIALS.length)];
  if (k < 0.5) return Math.round((r() - 0.5) * 64) / 4;
  for (;;) {
    const x = fromBits(Math.floor(r() * 2 ** 32));
    if (Number.isFinite(x)) return x;
  }
}

/** A random valid scene (OBB axes a signed permutation of the world axes, so orthonormal). */
function randomState(r, nShapes, nRays) {
  const vec = () => [randomFloat(r), randomFloat(r), randomFloat(r)];
  const nonZero = () => {
    const v = vec();
    return v.every((x) => x === 0) ? [0, 0, 1] : v;
  };
  const shapes = [];
  for (let i = 0; i < nShapes; i++) {
    const type = ['aabb', 'obb', 'sphere', 'plane', 'capsule'][Math.floor(r() * 5)];
    if (type === 'aabb') {
      const a = vec();
      const b = vec();
      shapes.push({ type, min: a.map((x, k) => (x <= b[k] ? x : b[k])), max: a.map((x, k) => (x <= b[k] ? b[k] : x)) });
    } else if (type === 'obb') {
      const s = () => (r() < 0.5 ? -1 : 1);
      shapes.push({ type, center: vec(), axes: [[0, s(), 0], [0, 0, s()], [s(), 0, NEG_ZERO]], half: vec().map(Math.abs) });
    } else if (type === 'sphere') {
      shapes.push({ type, center: vec(), radius: Math.abs(randomFloat(r)) });
    } else if (type === 'capsule') {
      shapes.push({ type, a: vec(), b: vec(), radius: Math.abs(randomFloat(r)) });
    } else {
      shapes.push({ type, normal: nonZero(), d: randomFloat(r) });
    }
  }
  const rays = [];
  for (let i = 0; i < nRays; i++) {
    rays.push({ origin: vec(), dir: nonZero(), tmax: r() < 0.5 ? Infinity : Math.abs(randomFloat(r)) });
  }
  return {
    shapes,
    rays,
    selected: { ray: nRays ? Math.floor(r() * nRays) : -1, shape: nShapes ? Math.floor(r() * nShapes) : -1 },
  };
}

/** A scene holding hand-picked awkward floats in every kind of field. */
function trickyState() {
  return {
    shapes: [
      { type: 'aabb', min: [NEG_ZERO, MIN_SUBNORMAL, -FLT_MAX], max: [0, TENTH, FLT_MAX] },
      { type: 'sphere', center: [MIN_NORMAL, -MIN_SUBNORMAL, NEG_ZERO], radius: NEG_ZERO },
      { type: 'obb', center: [f(16777217), -TENTH, 0], axes: [[0, 0, 1], [NEG_ZERO, 1, 0], [-1, 0, 0]], half: [0, NEG_ZERO, TENTH] },
      { type: 'plane', normal: [NEG_ZERO, MIN_SUBNORMAL, 0], d: NEG_ZERO },
      { type: 'capsule', a: [NEG_ZERO, TENTH, -MIN_SUBNORMAL], b: [MIN_NORMAL, f(16777217), 0], radius: TENTH },
    ],
    rays: [
      { origin: [NEG_ZERO, 0, TENTH], dir: [MIN_SUBNORMAL, NEG_ZERO, 1], tmax: Infinity },
      { origin: [-FLT_MAX, 0.5, NEG_ZERO], dir: [1, 0, 0], tmax: NEG_ZERO },
      { origin: [1, 2, 3], dir: [-TENTH, 0, 0], tmax: FLT_MAX },
    ],
    selected: { ray: 2, shape: -1 },
  };
}

const isFloat32 = (x) => Math.fround(x) === x || Number.isNaN(x);

// ------------------------------------------------------------------ tests

describe('limits', () => {
  it('exports the documented constants', () => {
    expect(MAX_SHAPES).toBe(64);
    expect(MAX_RAYS).toBe(32);
    expect(MAX_FRAGMENT_CHARS).toBe(16384);
    expect(MAX_IMPORT_BYTES).toBe(2 * 1024 * 1024);
    expect(MAX_IMPORT_CASES).toBe(4096);
  });
});

describe('defaultState', () => {
  it('is a valid scene with every shape type, three rays and the first pair selected', () => {
    const s = defaultState();
    expect(validateState(s)).toBeNull();
    expect(s.shapes.map((x) => x.type).sort()).toEqual(['aabb', 'aabb', 'obb', 'plane', 'sphere']);
    expect(s.rays).toHaveLength(3);
    expect(s.selected).toEqual({ ray: 0, shape: 0 });
    expect(allNumbers(s).every(isFloat32)).toBe(true);
    const floor = s.shapes.find((x) => x.type === 'plane');
    expect(floor).toEqual({ type: 'plane', normal: [0, 1, 0], d: -1 });
  });

  it('turns its OBB 45 degrees about z with the float32 of cos and sin', () => {
    const obb = defaultState().shapes.find((x) => x.type === 'obb');
    const c = f(Math.cos(Math.PI / 4));
    const s = f(Math.sin(Math.PI / 4));
    expect(obb.axes).toEqual([[c, s, 0], [-s, c, 0], [0, 0, 1]]);
    // docs/semantics.md: orthonormal within 1e-4.
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const dot = obb.axes[i].reduce((acc, x, k) => acc + x * obb.axes[j][k], 0);
        expect(Math.abs(dot - (i === j ? 1 : 0))).toBeLessThanOrEqual(1e-4);
      }
    }
  });

  it('is a fresh object on every call', () => {
    const a = defaultState();
    a.shapes[0].min[0] = 99;
    a.rays.pop();
    expect(defaultState().shapes[0].min[0]).not.toBe(99);
    expect(defaultState().rays).toHaveLength(3);
  });

});

describe('defaultState with the real slabcast', () => {
  let sc;
  beforeAll(async () => {
    requireBuilt(WASM);
    sc = await loadSlabcast();
  });

  it('teaches: a face hit, a ray grazing along a face, a ray starting inside', () => {
    const s = defaultState();
    const results = s.rays.map((ray) => s.shapes.map((shape) => sc.raycast(ray, shape)));
    // A face hit: some ray meets some box at t > 0 with an axis normal.
    const faceHit = results.flat().some((r, k) => r.hit && r.t > 0 && r.t_enter > 0 &&
      ['aabb', 'obb'].includes(s.shapes[k % s.shapes.length].type));
    expect(faceHit).toBe(true);
    // Ray 1 runs along a box face: the origin's coordinate on some axis with dir 0 equals
    // that box's min or max on that axis, and the closed box counts it as a hit.
    const grazing = s.rays.some((ray, i) => s.shapes.some((shape, j) => shape.type === 'aabb' &&
      [0, 1, 2].some((k) => ray.dir[k] === 0 && (ray.origin[k] === shape.min[k] || ray.origin[k] === shape.max[k])) &&
      results[i][j].hit));
    expect(grazing).toBe(true);
    // One ray starts strictly inside a box: t = 0 and t_enter < 0 (docs/semantics.md), normal zero.
    const inside = results.flat().find((r) => r.hit && r.t_enter < 0);
    expect(inside).toBeDefined();
    expect(inside.t).toBe(0);
    expect(inside.normal.map(Math.abs)).toEqual([0, 0, 0]);
  });

  it('ray 0 enters box 0 through its x = -3 face at t = 3', () => {
    // origin [-6, 2, 0], dir [1, -0.5, 0], box [-3,-1,-1]..[-1,1,1]:
    // x slab t in [3, 5]; y slab (2 - 0.5t in [-1, 1]) t in [2, 6]; z = 0 inside.
    // I = [3, 5]; point = [-6+3, 2-1.5, 0] = [-3, 0.5, 0] on the face x = -3.
    const s = defaultState();
    expect(s.rays[0]).toEqual({ origin: [-6, 2, 0], dir: [1, -0.5, 0], tmax: Infinity });
    expect(s.shapes[0]).toEqual({ type: 'aabb', min: [-3, -1, -1], max: [-1, 1, 1] });
    const r = sc.raycast(s.rays[0], s.shapes[0]);
    expect(r).toEqual({ hit: true, t: 3, t_enter: 3, t_exit: 5, point: [-3, 0.5, 0], normal: [-1, 0, 0] });
  });
});

describe('encode / decode', () => {
  it('writes #v2. followed by base64url without padding', () => {
    expect(encode(defaultState())).toMatch(/^#v2\.[A-Za-z0-9_-]+$/);
  });

  it('round-trips the default scene', () => {
    const s = defaultState();
    const d = decode(encode(s));
    expect(d.ok).toBe(true);
    expect(d.state).toEqual(defaultState());
    expect(sameState(d.state, s)).toBe(true);
  });

  it('has the documented length for the default scene', () => {
    // 16 header bytes + 2 AABBs (1 + 24 each) + OBB (1 + 60) + sphere (1 + 16) + plane (1 + 16)
    // + 3 rays (28 each) = 245 bytes, + 3 bytes of default view settings = 248 bytes
    // = 82 groups of 3 + 2: 82*4 + 3 = 331 base64url characters.
    expect(encode(defaultState())).toHaveLength('#v2.'.length + 331);
  });

  it('reads a link laid out by hand, and writes the same link', () => {
    const bytes = bytesOf([
      ['u32', 2, 1], ['i32', 0, -1],
      ['u8', 3], ['f32', 1, 2, 3, 0.5], // sphere
      ['u8', 4], ['f32', 0, 0, 1, -2], // plane
      ['f32', NEG_ZERO, 0, 0, 0, 0, -1, Infinity], // ray
    ]);
    const state = {
      shapes: [{ type: 'sphere', center: [1, 2, 3], radius: 0.5 }, { type: 'plane', normal: [0, 0, 1], d: -2 }],
      rays: [{ origin: [NEG_ZERO, 0, 0], dir: [0, 0, -1], tmax: Infinity }],
      selected: { ray: 0, shape: -1 },
    };
    const link = linkOf(bytes);
    const d = decode(link);
    expect(d.ok).toBe(true);
    expect(sameState(d.state, state)).toBe(true);
    expect(d.ui).toEqual(defaultUi());
    // Version 2: the same scene bytes, then view 0 (3d), step 0, flags 2|4|8 (every panel shows).
    const v2 = linkOf(new Uint8Array([...bytes, 0, 0, 14]), 2);
    expect(encode(state)).toBe(v2);
    expect(encode(state, defaultUi())).toBe(v2);
    expect(sameState(decode(v2).state, state)).toBe(true);
  });

  it('writes a scene with a capsule as version 3, laid out by hand, and reads it back', () => {
    // Type byte 5 (SC_SHAPE_CAPSULE), then a, b and the radius: 7 float32s.
    const scene = bytesOf([
      ['u32', 2, 0], ['i32', -1, 1],
      ['u8', 3], ['f32', 0, 0, 0, 1], // sphere
      ['u8', 5], ['f32', -1, 0.5, NEG_ZERO, 2, 0.5, 0, 0.25], // capsule
    ]);
    const state = {
      shapes: [{ type: 'sphere', center: [0, 0, 0], radius: 1 }, { type: 'capsule', a: [-1, 0.5, NEG_ZERO], b: [2, 0.5, 0], radius: 0.25 }],
      rays: [],
      selected: { ray: -1, shape: 1 },
    };
    const v3 = linkOf(new Uint8Array([...scene, 0, 0, 14]), 3);
    expect(encode(state)).toBe(v3);
    // 16 + 17 + 29 + 3 = 65 bytes: 21 groups of 3 + 2 = 87 characters.
    expect(v3).toHaveLength('#v3.'.length + 87);
    const d = decode(v3);
    expect(d.ok).toBe(true);
    expect(sameState(d.state, state)).toBe(true);
    expect(bits(d.state.shapes[1].a[2])).toBe(0x80000000);
    expect(d.ui).toEqual(defaultUi());
    // Without the capsule the same scene is a version 2 link, which pages from before capsules read.
    const noCapsule = { ...cloneState(state), shapes: [state.shapes[0]], selected: { ray: -1, shape: 0 } };
    expect(encode(noCapsule)).toMatch(/^#v2\./);
  });

  it('writes the view settings laid out by hand, the camera as float64 bits', () => {
    const state = {
      shapes: [{ type: 'sphere', center: [1, 2, 3], radius: 0.5 }],
      rays: [],
      selected: { ray: -1, shape: 0 },
    };
    const scene = [['u32', 1, 0], ['i32', -1, 0], ['u8', 3], ['f32', 1, 2, 3, 0.5]];
    const ui = {
      view: 'side', step: 5, handles: 'locked', panels: { toolbar: false, hits: true, tutorial: false },
      camera: { position: [0.1, -2, 1e300], target: [NEG_ZERO, 5e-324, 3], zoom: 1.5 }, embed: true,
    };
    // view 'side' = 3; flags: locked 1 + hits 4 + embed 16 + camera 32 = 53.
    const bytes = bytesOf([...scene, ['u8', 3, 5, 53], ['f64', 0.1, -2, 1e300, NEG_ZERO, 5e-324, 3, 1.5]]);
    const link = linkOf(bytes, 2);
    expect(encode(state, ui)).toBe(link);
    const d = decode(link);
    expect(d.ok).toBe(true);
    expect(d.ui).toEqual(ui);
    expect(Object.is(d.ui.camera.target[0], -0)).toBe(true);
    expect(sameState(d.state, state)).toBe(true);
    // Without a camera: 3 bytes, view 'top' = 1, flags toolbar 2 + tutorial 8 = 10.
    const ui2 = { ...defaultUi(), view: 'top', step: 64, panels: { toolbar: true, hits: false, tutorial: true } };
    expect(encode(state, ui2)).toBe(linkOf(bytesOf([...scene, ['u8', 1, 64, 10]]), 2));
    expect(decode(encode(state, ui2)).ui).toEqual(ui2);
  });

  it('still opens a version 1 link written by the old encoder, with the default view settings', () => {
    // The default scene as the version 1 encoder (commit 9a0f1d3) wrote it: a fixture, not made by this code.
    const OLD = '#v1.BQAAAAMAAAAAAAAAAAAAAAEAAEDAAACAvwAAgL8AAIC_AACAPwAAgD8BAACAPwAAgL8AAIC_AABAQAAAAAAAAIA_' +
      'AgAAAAAAAAA_AACAwPMENT_zBDU_AAAAAPMENb_zBDU_AAAAAAAAAAAAAAAAAACAPwAAgD8AAIA_AACAPwMAAMBAAAAAPwAAAAAAAIA_' +
      'BAAAAAAAAIA_AAAAAAAAgL8AAMDAAAAAQAAAAAAAAIA_AAAAvwAAAAAAAIB_AADAwAAAgD8AAAAAAACAPwAAAAAAAAAAAACAfwAAAEAA' +
      'AAC_AAAAAAAAAL8AAAAAAACAvwAAIEE';
    const d = decode(OLD);
    expect(d.ok).toBe(true);
    expect(sameState(d.state, defaultState())).toBe(true);
    expect(d.ui).toEqual(defaultUi());
    // The new link holds the same scene bytes and 3 more.
    const oldBytes = Buffer.from(OLD.slice(4), 'base64url');
    const newBytes = Buffer.from(encode(defaultState()).slice(4), 'base64url');
    expect([...newBytes.subarray(0, oldBytes.length)]).toEqual([...oldBytes]);
    expect([...newBytes.subarray(oldBytes.length)]).toEqual([0, 0, 14]);
  });

  it('refuses to encode invalid view settings', () => {
    for (const ui of [{ ...defaultUi(), view: 'iso' }, { ...defaultUi(), step: 65 }, { ...defaultUi(), step: 1.5 },
      { ...defaultUi(), camera: { position: [0, 0, NaN], target: [0, 0, 0], zoom: 1 } }, null]) {
      expect(() => encode(defaultState(), ui)).toThrow(/cannot encode the view settings/);
    }
  });

  it('keeps every awkward float32 bit for bit (-0, subnormals, FLT_MAX, 0.1f, Infinity tmax)', () => {
    const s = trickyState();
    const d = decode(encode(s));
    expect(d.ok).toBe(true);
    expect(allBits(d.state)).toEqual(allBits(s));
    // Spot checks against the IEEE-754 patterns themselves.
    const [aabb, sphere] = d.state.shapes;
    expect(aabb.min.map(bits)).toEqual([0x80000000, 0x00000001, 0xff7fffff]);
    expect(aabb.max.map(bits)).toEqual([0x00000000, 0x3dcccccd, 0x7f7fffff]);
    expect(bits(sphere.radius)).toBe(0x80000000);
    expect(d.state.rays.map((r) => bits(r.tmax))).toEqual([0x7f800000, 0x80000000, 0x7f7fffff]);
    expect(d.state.shapes[2].center[0]).toBe(16777216);
    const capsule = d.state.shapes[4];
    expect(capsule.a.map(bits)).toEqual([0x80000000, 0x3dcccccd, 0x80000001]);
    expect(capsule.b.map(bits)).toEqual([0x00800000, 0x4b800000, 0x00000000]); // 2^24: 16777217 rounds down
    expect(bits(capsule.radius)).toBe(0x3dcccccd);
  });

  it('round-trips random scenes exactly', () => {
    const r = rng(12345);
    for (let i = 0; i < 300; i++) {
      const s = randomState(r, Math.floor(r() * 10), Math.floor(r() * 6));
      const d = decode(encode(s));
      expect(d.ok).toBe(true);
      expect(sameState(d.state, s)).toBe(true);
      expect(allBits(d.state)).toEqual(allBits(s));
    }
  });

  it('fits the largest scene (64 OBBs, 32 rays) in a link', () => {
    const s = randomState(rng(7), 0, MAX_RAYS);
    for (let i = 0; i < MAX_SHAPES; i++) {
      s.shapes.push({ type: 'obb', center: [i, FLT_MAX, -TENTH], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], half: [1, 2, 3] });
    }
    s.selected = { ray: MAX_RAYS - 1, shape: MAX_SHAPES - 1 };
    const link = encode(s);
    // 16 + 64*61 + 32*28 = 4816 bytes + 3 = 4819 = 1606 groups of 3 + 1: 1606*4 + 2 = 6426 characters;
    // with a camera, 56 bytes more: 4875 = 1625 groups of 3: 6500 characters.
    expect(link).toHaveLength(4 + 6426);
    const ui = { ...defaultUi(), camera: { position: [1, 2, 3], target: [4, 5, 6], zoom: 2 } };
    expect(encode(s, ui)).toHaveLength(4 + 6500);
    expect(encode(s, ui).length).toBeLessThanOrEqual(MAX_FRAGMENT_CHARS);
    expect(link.length).toBeLessThanOrEqual(MAX_FRAGMENT_CHARS);
    const d = decode(link);
    expect(d.ok).toBe(true);
    expect(sameState(d.state, s)).toBe(true);
  });

  it('is pure and deterministic', () => {
    const s = trickyState();
    const before = allBits(s);
    const a = encode(s);
    expect(encode(s)).toBe(a);
    expect(encode(cloneState(s))).toBe(a);
    expect(allBits(s)).toEqual(before);
    expect(sameState(s, trickyState())).toBe(true);
  });

  it('accepts the fragment with or without #, a Location-like object and a URL', () => {
    const link = encode(defaultState());
    for (const input of [link, link.slice(1), { hash: link }, new URL(`https://example.org/play/${link}`)]) {
      const d = decode(input);
      expect(d.ok).toBe(true);
      expect(sameState(d.state, defaultState())).toBe(true);
    }
  });

  it('refuses to encode a scene it could not decode', () => {
    const bad = [
      (s) => { s.shapes[0].min[0] = NaN; },
      (s) => { s.shapes[0].min[0] = 0.1; }, // not a float32
      (s) => { s.rays[0].dir = [0, NEG_ZERO, 0]; },
      (s) => { s.selected.ray = 3; },
      (s) => { s.shapes[1] = { type: 'cone' }; },
      (s) => { while (s.shapes.length <= MAX_SHAPES) s.shapes.push(s.shapes[0]); },
    ];
    for (const spoil of bad) {
      const s = defaultState();
      spoil(s);
      expect(validateState(s)).toEqual(expect.any(String));
      expect(() => encode(s)).toThrow(RangeError);
    }
  });

  it('allows OBB axes that are not orthonormal (the core reports those)', () => {
    const s = defaultState();
    s.shapes[2].axes = [[1, 0, 0], [1, 0, 0], [0, 0, 2]];
    expect(validateState(s)).toBeNull();
    expect(sameState(decode(encode(s)).state, s)).toBe(true);
  });
});

describe('decode: hostile input', () => {
  const header = (nShapes, nRays) => ['u32', nShapes, nRays];
  const sel = (ray = -1, shape = -1) => ['i32', ray, shape];
  const aabb = (min, max) => [['u8', 1], ['f32', ...min, ...max]];
  const ray = (origin, dir, tmax) => [['f32', ...origin, ...dir, tmax]];
  const okBox = aabb([0, 0, 0], [1, 1, 1]);
  const okRay = ray([0, 0, -5], [0, 0, 1], Infinity);

  const throwingHash = {};
  Object.defineProperty(throwingHash, 'hash', { get() { throw new Error('boom'); } });

  /** [what, input, regex the error must match] */
  const HOSTILE = [
    ['null', null, /expected a link fragment/],
    ['undefined', undefined, /expected a link fragment/],
    ['a number', 42, /expected a link fragment .*number/],
    ['an array', ['#v1.AAAA'], /expected a link fragment/],
    ['an object without hash', {}, /expected a link fragment/],
    ['a hash that is not a string', { hash: 7 }, /expected a link fragment/],
    ['a hash getter that throws', throwingHash, /could not be read.*boom/],
    ['a foreign link', '#section-2', /not a slabcast scene link/],
    ['no version dot', '#v1', /not a slabcast scene link/],
    ['an unknown version', '#v9.AAAA', /^unknown link version 9 \(this page reads v1, v2, v3\)$/],
    ['version 0', '#v0.AAAA', /unknown link version 0/],
    ['a zero-padded version', '#v01.AAAA', /unknown link version 01/],
    ['a huge version', `#v${'9'.repeat(40)}.AAAA`, /unknown link version 9{12}\.\.\./],
    ['an empty payload', '#v1.', /no scene data/],
    ['a non-base64url character', '#v1.AAAA@AAA', /character "@" at position 4 is not base64url/],
    ['base64 padding', `${linkOf(bytesOf([header(0, 0), sel()]))}==`, /"=" .* not base64url/],
    ['standard base64 "+"', '#v1.AA+A', /"\+" .* not base64url/],
    ['a non-ASCII character', '#v1.AAAé', /"é" .* not base64url/],
    ['an impossible length', '#v1.AAAAA', /length is impossible/],
    ['stray bits in the last character', '#v1.AB', /stray bits/],
    ['a truncated header', linkOf(new Uint8Array(10)), /cut short .*header/],
    ['2^31 shapes', linkOf(bytesOf([header(2 ** 31, 0), sel()])), /claims 2147483648 shapes; the limit is 64/],
    ['2^32 - 1 rays', linkOf(bytesOf([header(0, 2 ** 32 - 1), sel()])), /claims 4294967295 rays; the limit is 32/],
    ['65 shapes', linkOf(bytesOf([header(65, 0), sel()])), /claims 65 shapes/],
    ['33 rays', linkOf(bytesOf([header(0, 33), sel()])), /claims 33 rays/],
    ['a truncated shape', linkOf(bytesOf([header(1, 0), sel(), ['u8', 1], ['f32', 0, 0, 0]])), /cut short .*shape 0 \(aabb\)/],
    ['a missing shape', linkOf(bytesOf([header(2, 0), sel(), ...okBox])), /cut short .*shape 1/],
    ['a truncated ray', linkOf(bytesOf([header(0, 1), sel(), ['f32', 0, 0, 0, 0]])), /cut short .*ray 0/],
    ['an unknown type byte', linkOf(bytesOf([header(1, 0), sel(), ['u8', 9], ['f32', 0, 0, 0, 1]])), /shape 0 has an unknown type byte 9/],
    ['type byte 0', linkOf(bytesOf([header(1, 0), sel(), ['u8', 0], ['f32', 0, 0, 0, 1]])), /unknown type byte 0/],
    ['trailing bytes', linkOf(bytesOf([header(1, 0), sel(), ...okBox, ['u8', 0]])), /1 unexpected byte/],
    ['a NaN coordinate', linkOf(bytesOf([header(1, 0), sel(), ...aabb([0, NaN, 0], [1, 1, 1])])), /shape 0 \(aabb\): min\[1\] must be a finite number \(it is NaN\)/],
    ['an infinite coordinate', linkOf(bytesOf([header(1, 0), sel(), ...aabb([0, 0, 0], [1, 1, Infinity])])), /max\[2\] must be a finite number \(it is Infinity\)/],
    ['min > max', linkOf(bytesOf([header(1, 0), sel(), ...aabb([0, 2, 0], [1, 1, 1])])), /min\.y 2 is greater than max\.y 1/],
    ['a negative radius', linkOf(bytesOf([header(1, 0), sel(), ['u8', 3], ['f32', 0, 0, 0, -1]])), /shape 0 \(sphere\): radius must be >= 0 \(it is -1\)/],
    ['a negative OBB half', linkOf(bytesOf([header(1, 0), sel(), ['u8', 2], ['f32', 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, -0.5, 1]])), /shape 0 \(obb\): half\[1\] must be >= 0/],
    ['a zero plane normal', linkOf(bytesOf([header(1, 0), sel(), ['u8', 4], ['f32', 0, NEG_ZERO, 0, 1]])), /shape 0 \(plane\): normal must not be zero/],
    ['a zero ray direction', linkOf(bytesOf([header(0, 1), sel(), ...ray([0, 0, 0], [0, 0, NEG_ZERO], 1)])), /ray 0: dir must not be zero/],
    ['a NaN ray origin', linkOf(bytesOf([header(0, 1), sel(), ...ray([NaN, 0, 0], [0, 0, 1], 1)])), /ray 0: origin\[0\] must be a finite number/],
    ['a NaN tmax', linkOf(bytesOf([header(0, 1), sel(), ...ray([0, 0, 0], [0, 0, 1], NaN)])), /ray 0: tmax must be >= 0 or Infinity \(it is NaN\)/],
    ['a -Infinity tmax', linkOf(bytesOf([header(0, 1), sel(), ...ray([0, 0, 0], [0, 0, 1], -Infinity)])), /tmax .*-Infinity/],
    ['a negative tmax', linkOf(bytesOf([header(0, 1), sel(), ...ray([0, 0, 0], [0, 0, 1], -1)])), /tmax must be >= 0/],
    ['a selected ray out of range', linkOf(bytesOf([header(0, 1), sel(1, -1), ...okRay])), /selected\.ray must be -1 or a ray index below 1 \(it is 1\)/],
    ['a selected shape below -1', linkOf(bytesOf([header(1, 0), sel(-1, -2), ...okBox])), /selected\.shape .*\(it is -2\)/],
    // Version 2: the view settings after the scene.
    ['an unknown version, naming all three', '#v4.AAAA', /^unknown link version 4 \(this page reads v1, v2, v3\)$/],
    ['v2 without view settings', linkOf(bytesOf([header(0, 0), sel()]), 2), /cut short .*the view settings/],
    ['v2 with a part of the view settings', linkOf(bytesOf([header(0, 0), sel(), ['u8', 0, 0]]), 2), /cut short .*the view settings/],
    ['v2 with an unknown view code', linkOf(bytesOf([header(0, 0), sel(), ['u8', 4, 0, 14]]), 2), /unknown view code 4/],
    ['v2 with a step past the last', linkOf(bytesOf([header(0, 0), sel(), ['u8', 0, 65, 14]]), 2), /tutorial step 65; the last is 64/],
    ['v2 with unknown flag bits', linkOf(bytesOf([header(0, 0), sel(), ['u8', 0, 0, 64 + 14]]), 2), /unknown view flags \(78\)/],
    ['v2 with a cut camera', linkOf(bytesOf([header(0, 0), sel(), ['u8', 0, 0, 46], ['f64', 1, 2, 3]]), 2), /cut short .*the camera/],
    ['v2 with a NaN camera', linkOf(bytesOf([header(0, 0), sel(), ['u8', 0, 0, 46], ['f64', 1, 2, NaN, 0, 0, 0, 1]]), 2), /invalid view settings: camera\.position/],
    ['v2 with a zero zoom', linkOf(bytesOf([header(0, 0), sel(), ['u8', 0, 0, 46], ['f64', 1, 2, 3, 0, 0, 0, 0]]), 2), /camera\.zoom must be a finite number above 0/],
    ['v2 with trailing bytes', linkOf(bytesOf([header(0, 0), sel(), ['u8', 0, 0, 14, 0]]), 2), /1 unexpected byte\(s\) after the view settings/],
    ['v2 with a camera flag and trailing', linkOf(bytesOf([header(0, 0), sel(), ['u8', 0, 0, 14], ['f64', 1, 2, 3, 0, 0, 0, 1]]), 2), /56 unexpected byte/],
    ['v2 with an empty payload', '#v2.', /no scene data after "v2\."/],
    // Version 3: capsules (type byte 5), which versions 1 and 2 do not have.
    ['a capsule in a v1 link', linkOf(bytesOf([header(1, 0), sel(), ['u8', 5], ['f32', 0, 0, 0, 0, 1, 0, 1]])), /^shape 0 has type byte 5 \(capsule\), which version 1 links do not have$/],
    ['a capsule in a v2 link', linkOf(bytesOf([header(1, 0), sel(), ['u8', 5], ['f32', 0, 0, 0, 0, 1, 0, 1], ['u8', 0, 0, 14]]), 2), /^shape 0 has type byte 5 \(capsule\), which version 2 links do not have$/],
    ['a truncated capsule', linkOf(bytesOf([header(1, 0), sel(), ['u8', 5], ['f32', 0, 0, 0, 0, 1, 0]]), 3), /cut short .*shape 0 \(capsule\)/],
    ['a capsule with a negative radius', linkOf(bytesOf([header(1, 0), sel(), ['u8', 5], ['f32', 0, 0, 0, 0, 1, 0, -1], ['u8', 0, 0, 14]]), 3), /shape 0 \(capsule\): radius must be >= 0 \(it is -1\)/],
    ['a capsule with a NaN end', linkOf(bytesOf([header(1, 0), sel(), ['u8', 5], ['f32', 0, 0, 0, 0, NaN, 0, 1], ['u8', 0, 0, 14]]), 3), /shape 0 \(capsule\): b\[1\] must be a finite number \(it is NaN\)/],
    ['type byte 6 in a v3 link', linkOf(bytesOf([header(1, 0), sel(), ['u8', 6], ['f32', 0, 0, 0, 1], ['u8', 0, 0, 14]]), 3), /shape 0 has an unknown type byte 6/],
    ['v3 without view settings', linkOf(bytesOf([header(0, 0), sel()]), 3), /cut short .*the view settings/],
    ['v3 with an empty payload', '#v3.', /no scene data after "v3\."/],
  ];

  for (const [what, input, re] of HOSTILE) {
    it(`refuses ${what}`, () => {
      let d;
      expect(() => { d = decode(input); }).not.toThrow();
      expect(d.ok).toBe(false);
      expect(typeof d.error).toBe('string');
      expect(d.error).toMatch(re);
      expect(d.state).toBeUndefined();
    });
  }


  it('says "no scene in the link" for an empty fragment', () => {
    expect(decode('')).toEqual({ ok: false, error: 'no scene in the link' });
    expect(decode('#')).toEqual({ ok: false, error: 'no scene in the link' });
    expect(decode({ hash: '' })).toEqual({ ok: false, error: 'no scene in the link' });
  });

  it('rejects a 10 MB fragment at once, before decoding anything', () => {
    // Made of characters that are not base64url: had anything been decoded before the length
    // check, the error would name the bad character, not the length.
    const huge = `#v1.${'!'.repeat(10 * 1024 * 1024)}`;
    const d = decode(huge);
    expect(d.ok).toBe(false);
    expect(d.error).toMatch(/too long \(10485764 characters; the limit is 16384\)/);
    expect(decode(`#v1.${'!'.repeat(64)}`).error).not.toMatch(/too long/);
    // One character over the cap is refused too; a valid link at the cap is not refused for length.
    expect(decode(`#v1.${'A'.repeat(MAX_FRAGMENT_CHARS - 3)}`).error).toMatch(/too long/);
    expect(decode(`#v1.${'A'.repeat(MAX_FRAGMENT_CHARS - 4)}`).error).not.toMatch(/too long/);
  });

  it('never throws on damaged links (random edits of valid ones)', () => {
    const r = rng(99);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/#.v \u0000\u00e9\ud800';
    for (let i = 0; i < 2000; i++) {
      let s = encode(randomState(r, Math.floor(r() * 4), Math.floor(r() * 3)));
      const edits = 1 + Math.floor(r() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(r() * s.length);
        const k = r();
        if (k < 0.3) s = s.slice(0, at); // truncate
        else if (k < 0.6) s = s.slice(0, at) + alphabet[Math.floor(r() * alphabet.length)] + s.slice(at + 1);
        else if (k < 0.8) s = s.slice(0, at) + s.slice(at + 1);
        else s = s.slice(0, at) + alphabet[Math.floor(r() * alphabet.length)] + s.slice(at);
      }
      const d = decode(s);
      if (d.ok) expect(validateState(d.state)).toBeNull();
      else expect(d.error).toEqual(expect.any(String));
    }
  });
});

describe('cloneState / sameState', () => {
  it('clones deeply, keeping -0 and Infinity', () => {
    const s = trickyState();
    const c = cloneState(s);
    expect(c).not.toBe(s);
    expect(c.shapes[0]).not.toBe(s.shapes[0]);
    expect(c.shapes[0].min).not.toBe(s.shapes[0].min);
    expect(allBits(c)).toEqual(allBits(s));
    expect(sameState(c, s)).toBe(true);
    c.shapes[2].axes[1][0] = 5;
    c.rays[0].origin[0] = 1;
    expect(s.shapes[2].axes[1][0]).toBe(NEG_ZERO);
    expect(Object.is(s.rays[0].origin[0], -0)).toBe(true);
  });

  it('tells -0 from 0 and notices any change', () => {
    const s = trickyState();
    const changes = [
      (x) => { x.shapes[0].min[0] = 0; }, // -0 -> 0
      (x) => { x.shapes[1].radius = 0; }, // -0 -> 0
      (x) => { x.shapes[3].d = 0; },
      (x) => { x.rays[0].tmax = FLT_MAX; },
      (x) => { x.rays[2].dir[0] = fromBits(bits(x.rays[2].dir[0]) + 1); }, // one ulp
      (x) => { x.shapes[2].axes[2][0] = 1; },
      (x) => { x.selected.ray = 1; },
      (x) => { x.selected.shape = 0; },
      (x) => { x.rays.pop(); },
      (x) => { x.shapes.reverse(); },
      (x) => { x.shapes[1] = { type: 'sphere', center: x.shapes[1].center, radius: x.shapes[1].radius, extra: 1 }; },
    ];
    changes.forEach((change, i) => {
      const c = cloneState(s);
      change(c);
      // The last change only adds a field outside the schema: still the same scene.
      expect(sameState(c, s)).toBe(i === changes.length - 1);
      expect(sameState(s, c)).toBe(i === changes.length - 1);
    });
  });

  it('returns false, never throws, for things that are not scenes', () => {
    const s = defaultState();
    for (const other of [null, undefined, 1, 'x', [], {}, { shapes: [], rays: [] }, { shapes: 1, rays: [], selected: {} }]) {
      expect(sameState(s, other)).toBe(false);
      expect(sameState(other, s)).toBe(false);
    }
  });
});

describe('toCaseFile', () => {
  let sc;
  let dir;
  beforeAll(async () => {
    requireBuilt(WASM);
    requireBuilt(NATIVE_RUNNER);
    sc = await loadSlabcast();
    dir = mkdtempSync(path.join(tmpdir(), 'slabcast-playground-state-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The reporter's step (docs/playground.md): every "observed" becomes the case's "expect". */
  const observedAsExpect = (text) => text.replaceAll('"observed": {', '"expect": {');

  /** Write text, with observed taken as expect, to a fresh temp file; both runners must
   * `check` it with exit status 0. */
  function replay(exported, name) {
    const text = observedAsExpect(exported);
    expect(text).not.toBe(exported);
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, text);
    // execFileSync throws on a non-zero exit status.
    const native = execFileSync(NATIVE_RUNNER, ['check', file], { encoding: 'latin1' });
    const wasm = execFileSync(process.execPath, [JS_RUNNER, 'check', file], { encoding: 'latin1' });
    return { native, wasm };
  }

  it('gives the hand-derived answer for a ray along x into the unit box', () => {
    // origin [-5,0,0], dir [1,0,0] vs [-1,-1,-1]..[1,1,1]: the x slab is t in [-1+5, 1+5] = [4, 6];
    // y = z = 0 lie inside their slabs. t = 4, point = [-5+4, 0, 0] = [-1, 0, 0], on the face
    // x = -1 whose outward normal is [-1, 0, 0].
    const s = {
      shapes: [{ type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] }],
      rays: [{ origin: [-5, 0, 0], dir: [1, 0, 0], tmax: Infinity }],
      selected: { ray: 0, shape: 0 },
    };
    const text = toCaseFile(s, sc.raycast);
    const doc = JSON.parse(text);
    expect(doc.format).toBe('slabcast-cases/1');
    expect(doc.cases).toHaveLength(1);
    const c = doc.cases[0];
    expect(c.id).toBe('ray0-shape0-aabb');
    expect(c.query).toBe('raycast');
    expect(c.ray).toEqual({ origin: [-5, 0, 0], dir: [1, 0, 0] }); // no tmax: +infinity
    expect(c.shape).toEqual({ type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] });
    expect(c.observed).toEqual({ hit: true, t: 4, t_enter: 4, t_exit: 6, point: [-1, 0, 0], normal: [-1, 0, 0] });
    expect(c.expect).toBeUndefined();
    expect(doc.generator).toBe(`slabcast ${JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}`);
    const { native, wasm } = replay(text, 'hand');
    expect(native).toBe('1 passed, 0 failed\n');
    expect(wasm).toBe(native);
  });

  it('writes a miss as hit: false only, and a finite tmax', () => {
    // origin [0,5,0] dir [0,1,0]: y grows away from the box [-1,1]^3; the y slab is t in [-6, -4] < 0.
    const s = {
      shapes: [{ type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] }],
      rays: [{ origin: [0, 5, 0], dir: [0, 1, 0], tmax: 2.5 }],
      selected: { ray: 0, shape: 0 },
    };
    const c = JSON.parse(toCaseFile(s, sc.raycast)).cases[0];
    expect(c.ray.tmax).toBe(2.5);
    expect(c.observed).toEqual({ hit: false });
  });

  it('writes a capsule case as {type: "capsule", a, b, radius} with the hand-derived hit, replayed by both runners', () => {
    // The capsule a = [0,-1,0], b = [0,1,0], radius 0.5; the ray from [-5,0,0] along +x meets the
    // segment's side (distance |x| from the y axis, 0 <= y <= ... within the segment) where |x| = 0.5:
    // it enters at x = -0.5 (t = 4.5), leaves at x = 0.5 (t = 5.5); the point [-0.5,0,0] lies beside the
    // segment's point [0,0,0], so the outward normal is [-1,0,0].
    const s = {
      shapes: [{ type: 'capsule', a: [0, -1, 0], b: [0, 1, 0], radius: 0.5 }],
      rays: [{ origin: [-5, 0, 0], dir: [1, 0, 0], tmax: Infinity }],
      selected: { ray: 0, shape: 0 },
    };
    const text = toCaseFile(s, sc.raycast);
    const c = JSON.parse(text).cases[0];
    expect(c.id).toBe('ray0-shape0-capsule');
    expect(c.shape).toEqual({ type: 'capsule', a: [0, -1, 0], b: [0, 1, 0], radius: 0.5 });
    expect(c.observed).toEqual({ hit: true, t: 4.5, t_enter: 4.5, t_exit: 5.5, point: [-0.5, 0, 0], normal: [-1, 0, 0] });
    const { native, wasm } = replay(text, 'capsule');
    expect(native).toBe('1 passed, 0 failed\n');
    expect(wasm).toBe(native);
    const back = fromCaseFile(text);
    expect(back.ok).toBe(true);
    expect(sameState(back.state, s)).toBe(true);
  });

  it('holds every ray x shape pair of the default scene and replays through both runners', () => {
    const s = defaultState();
    const text = toCaseFile(s, sc.raycast);
    const doc = JSON.parse(text);
    const ids = [];
    s.rays.forEach((_, i) => s.shapes.forEach((shape, j) => ids.push(`ray${i}-shape${j}-${shape.type}`)));
    expect(doc.cases.map((c) => c.id)).toEqual(ids);
    expect(new Set(doc.cases.map((c) => c.query))).toEqual(new Set(['raycast']));
    const { native, wasm } = replay(text, 'default');
    expect(native).toBe(`${ids.length} passed, 0 failed\n`);
    expect(wasm).toBe(native);
  });

  it('writes inputs that read back as the same float32s (-0 included)', () => {
    const s = trickyState();
    const doc = JSON.parse(toCaseFile(s, sc.raycast));
    const readBack = (v) => (Array.isArray(v) ? v.map(readBack) : f(v)); // as the runners: (float)strtod
    for (const c of doc.cases) {
      const [, i, j] = /^ray(\d+)-shape(\d+)-/.exec(c.id).map(Number);
      const ray = { origin: readBack(c.ray.origin), dir: readBack(c.ray.dir), tmax: 'tmax' in c.ray ? f(c.ray.tmax) : Infinity };
      expect(allBits(ray)).toEqual(allBits(s.rays[i]));
      const shape = Object.fromEntries(Object.entries(c.shape).map(([k, v]) => [k, k === 'type' ? v : readBack(v)]));
      expect(allBits(shape)).toEqual(allBits(s.shapes[j]));
    }
  });

  it('replays awkward and random scenes through both runners', () => {
    const scenes = [['tricky', trickyState()]];
    const r = rng(2024);
    for (let i = 0; i < 4; i++) scenes.push([`random${i}`, randomState(r, 12, 6)]);
    for (const [name, s] of scenes) {
      const text = toCaseFile(s, sc.raycast);
      const n = JSON.parse(text).cases.length;
      const { native, wasm } = replay(text, name);
      expect(native).toBe(`${n} passed, 0 failed\n`);
      expect(wasm).toBe(native);
    }
  });

  it('leaves out the pairs that raycast refuses and names them', () => {
    const s = defaultState();
    s.shapes[2].axes = [[1, 0, 0], [1, 0, 0], [0, 0, 1]]; // not orthonormal: the core refuses it
    const text = toCaseFile(s, sc.raycast);
    const doc = JSON.parse(text);
    expect(doc.cases).toHaveLength(3 * 4);
    expect(doc.cases.some((c) => c.shape.type === 'obb')).toBe(false);
    expect(doc.comment).toMatch(/ray0-shape2-obb, ray1-shape2-obb, ray2-shape2-obb/);
    replay(text, 'skipped');
    // Any throw counts, whatever raycast is.
    const picky = (ray, shape) => {
      if (shape.type === 'sphere') throw new Error('no spheres today');
      return sc.raycast(ray, shape);
    };
    expect(JSON.parse(toCaseFile(defaultState(), picky)).cases).toHaveLength(3 * 4);
  });

  it('does not pass as exported: without "expect" both runners skip every case', () => {
    const text = toCaseFile(defaultState(), sc.raycast);
    const file = path.join(dir, 'as-exported.json');
    writeFileSync(file, text);
    const native = execFileSync(NATIVE_RUNNER, ['check', file], { encoding: 'latin1' });
    const wasm = execFileSync(process.execPath, [JS_RUNNER, 'check', file], { encoding: 'latin1' });
    expect(native).toBe('0 passed, 0 failed, 15 skipped\n');
    expect(wasm).toBe(native);
    // With a wrong expectation set by the reporter, the case fails in both runners.
    const wrong = observedAsExpect(text).replace('"expect": {"hit": true, "t": 3,', '"expect": {"hit": true, "t": 2,');
    writeFileSync(file, wrong);
    for (const cmd of [[NATIVE_RUNNER, ['check', file]], [process.execPath, [JS_RUNNER, 'check', file]]]) {
      let out = '';
      try { execFileSync(cmd[0], cmd[1], { encoding: 'latin1' }); } catch (e) { out = e.stdout; expect(e.status).toBe(1); }
      expect(out).toMatch(/^FAIL "ray0-shape0-aabb": t expected 2, got 3\n14 passed, 1 failed\n$/);
    }
  });

  it('leaves a NaN result field out of observed, so the file can still pass', () => {
    const fake = () => ({ hit: true, t: 1, t_enter: 1, t_exit: 2, point: [NaN, 0, 0], normal: [1, 0, 0] });
    const doc = JSON.parse(toCaseFile(defaultState(), fake));
    expect(doc.cases[0].observed).toEqual({ hit: true, t: 1, t_enter: 1, t_exit: 2, normal: [1, 0, 0] });
    expect(doc.comment).toMatch(/ray0-shape0-aabb point/);
  });

  it('writes a file that fromCaseFile reads back into the same shapes and rays', () => {
    for (const s of [defaultState(), trickyState(), randomState(rng(5), 20, 8)]) {
      const back = fromCaseFile(toCaseFile(s, sc.raycast));
      expect(back.ok).toBe(true);
      expect(back.skipped).toBe(0);
      const expected = { ...cloneState(s), selected: { ray: 0, shape: 0 } };
      expect(sameState(back.state, expected)).toBe(true);
      expect(allBits(back.state.shapes)).toEqual(allBits(s.shapes));
      expect(allBits(back.state.rays)).toEqual(allBits(s.rays));
    }
  });
});

describe('fromCaseFile', () => {
  const SEEDS = path.join(ROOT, 'tests/cases/seeds.json');
  const INVALID = path.join(ROOT, 'tests/cases/invalid.json');

  /** A case file text from cases (plain objects); -0 is written as -0 (JSON.stringify would write 0). */
  const file = (cases, format = 'slabcast-cases/1') =>
    JSON.stringify({ format, cases }, (_, v) => (Object.is(v, -0) ? '@NEG0@' : v)).replaceAll('"@NEG0@"', '-0');
  const box = { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] };
  const rc = (id, ray, shape = box) => ({ id, query: 'raycast', ray, shape });
  const okRay = { origin: [0, 0, -5], dir: [0, 0, 1] };

  /** Read a JSON number as the runners do; "inf"/"-inf"/"nan" strings as their values. */
  const num = (v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : f(v));

  it('reads tests/cases/seeds.json: its raycast rays and shapes, other queries skipped', () => {
    const text = readFileSync(SEEDS, 'utf8');
    const doc = JSON.parse(text);
    const raycasts = doc.cases.filter((c) => c.query === 'raycast');
    const r = fromCaseFile(text);
    expect(r.ok).toBe(true);
    expect(r.skipped).toBe(doc.cases.length - raycasts.length);
    expect(validateState(r.state)).toBeNull();
    const { shapes, rays } = r.state;
    // Each raycast case's ray and shape is in the scene, bit for bit.
    const asRay = (x) => ({ origin: x.origin.map(num), dir: x.dir.map(num), tmax: 'tmax' in x ? num(x.tmax) : Infinity });
    const deep = (v) => (Array.isArray(v) ? v.map(deep) : num(v));
    const asShape = (x) => Object.fromEntries(Object.entries(x).map(([k, v]) => [k, k === 'type' ? v : deep(v)]));
    const sameBits = (a, b) => a.type === b.type && allBits(a).join() === allBits(b).join();
    for (const c of raycasts) {
      expect(rays.some((x) => sameBits(x, asRay(c.ray)))).toBe(true);
      expect(shapes.some((x) => sameBits(x, asShape(c.shape)))).toBe(true);
    }
    // No duplicates, and in order of first appearance.
    shapes.forEach((a, i) => shapes.forEach((b, j) => { if (i < j) expect(sameBits(a, b)).toBe(false); }));
    rays.forEach((a, i) => rays.forEach((b, j) => { if (i < j) expect(sameBits(a, b)).toBe(false); }));
    expect(sameBits(shapes[0], asShape(raycasts[0].shape))).toBe(true);
    expect(sameBits(rays[0], asRay(raycasts[0].ray))).toBe(true);
    expect(r.state.selected).toEqual({ ray: 0, shape: 0 });
  });

  it('accepts bytes as well as text', () => {
    const bytes = readFileSync(SEEDS);
    const a = fromCaseFile(new Uint8Array(bytes));
    const b = fromCaseFile(bytes.toString('utf8'));
    expect(a.ok).toBe(true);
    expect(sameState(a.state, b.state)).toBe(true);
  });

  it('keeps shapes that differ only by -0 apart, and merges identical ones', () => {
    const negBox = { type: 'aabb', min: [NEG_ZERO, 0, 0], max: [1, 1, 1] };
    const text = file([rc('a', okRay), rc('b', okRay, negBox), rc('c', okRay), rc('d', { ...okRay, tmax: 'inf' })]);
    const r = fromCaseFile(text);
    expect(r.ok).toBe(true);
    expect(r.state.shapes).toHaveLength(2);
    expect(bits(r.state.shapes[1].min[0])).toBe(0x80000000);
    expect(r.state.rays).toEqual([{ origin: [0, 0, -5], dir: [0, 0, 1], tmax: Infinity }]);
  });

  it('rounds numbers to float32 as the runners do', () => {
    const r = fromCaseFile(file([rc('a', { origin: [0.1, 1e-46, 16777217], dir: [0, 0, 1], tmax: 3.4028235e38 })]));
    expect(r.ok).toBe(true);
    expect(r.state.rays[0].origin.map(bits)).toEqual([0x3dcccccd, 0x00000000, 0x4b800000]);
    expect(bits(r.state.rays[0].tmax)).toBe(0x7f7fffff);
  });

  const many = (n, make) => Array.from({ length: n }, (_, i) => make(i));

  /** [what, input, regex] */
  const BAD = [
    ['null', null, /expected the text of a case file/],
    ['a number', 5, /expected the text of a case file/],
    ['not JSON', 'this is not json {', /not valid JSON/],
    ['an empty file', '', /not valid JSON/],
    ['a bare array', '[1, 2]', /not a slabcast case file/],
    ['a wrong format tag', file([rc('a', okRay)], 'slabcast-cases/2'), /"format" must be "slabcast-cases\/1"/],
    ['a results document', '{"format": "slabcast-results/1", "results": []}', /"format" must be/],
    ['no cases array', '{"format": "slabcast-cases/1", "cases": {}}', /no "cases" array/],
    ['no raycast cases', file([{ id: 'p', query: 'contains', point: [0, 0, 0], shape: box }]), /no raycast cases \(1 other case\(s\) skipped\)/],
    ['an empty case list', file([]), /no raycast cases/],
    ['a case without a query', file([{ id: 'q', ray: okRay, shape: box }]), /case "q": "query" must be a string/],
    ['a NaN origin', file([rc('nan-origin', { origin: ['nan', 0, 0], dir: [1, 0, 0] })]), /no usable raycast cases: case "nan-origin": ray\.origin\[0\] must be a finite number \(it is NaN\)/],
    ['an overflowing number', file([rc('big', { origin: [0, 1e39, 0], dir: [1, 0, 0] })]), /case "big": ray\.origin\[1\] must be a finite number \(it is Infinity\)/],
    ['a short vector', file([rc('short', { origin: [0, 0], dir: [1, 0, 0] })]), /case "short": "ray\.origin" must be an array of 3 numbers/],
    ['a missing dir', file([rc('nodir', { origin: [0, 0, 0] })]), /case "nodir": "ray\.dir" must be an array of 3 numbers/],
    ['a zero dir', file([rc('zero', { origin: [0, 0, 0], dir: [0, -0, 0] })]), /case "zero": ray\.dir must not be zero/],
    ['a negative tmax', file([rc('tm', { ...okRay, tmax: -1 })]), /case "tm": ray\.tmax must be >= 0/],
    ['a string tmax', file([rc('tm2', { ...okRay, tmax: 'far' })]), /case "tm2": "ray\.tmax" must be a number/],
    ['no shape', file([{ id: 'ns', query: 'raycast', ray: okRay }]), /case "ns": "shape" must be an object/],
    ['an unknown shape type', file([rc('cone', okRay, { type: 'cone' })]), /case "cone": unknown shape type "cone"/],
    ['min > max', file([rc('inv', okRay, { type: 'aabb', min: [0, 0, 2], max: [1, 1, 1] })]), /case "inv": shape\.min\.z 2 is greater than shape\.max\.z 1/],
    ['bad OBB axes', file([rc('ax', okRay, { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0]], half: [1, 1, 1] })]), /case "ax": "shape\.axes" must be an array of 3 arrays of 3 numbers/],
    ['a negative radius', file([rc('rad', okRay, { type: 'sphere', center: [0, 0, 0], radius: -2 })]), /case "rad": shape\.radius must be >= 0/],
    ['a zero plane normal', file([rc('pl', okRay, { type: 'plane', normal: [0, 0, 0], d: 1 })]), /case "pl": shape\.normal must not be zero/],
    ['a case without an id', file([{ query: 'raycast', ray: { origin: [0, 0, 0], dir: [0, 0, 0] }, shape: box }]), /case #1: ray\.dir must not be zero/],
    ['a file over 2 MiB', `${file([rc('a', okRay)])}${' '.repeat(MAX_IMPORT_BYTES)}`, /too large/],
    ['too many cases', file(many(MAX_IMPORT_CASES + 1, (i) => rc(`c${i}`, okRay))), /too many cases \(4097; the limit is 4096\)/],
  ];

  for (const [what, input, re] of BAD) {
    it(`fails clearly on ${what}`, () => {
      let r;
      expect(() => { r = fromCaseFile(input); }).not.toThrow();
      expect(r.ok).toBe(false);
      expect(r.error).toMatch(re);
    });
  }

  it('refuses a file over 2 MiB of multi-byte text', () => {
    // 1 200 000 two-byte characters: under the cap in UTF-16 units, over it in UTF-8 bytes.
    const text = `${file([rc('a', okRay)])}`.replace('"a"', `"${'é'.repeat(1200000)}"`);
    expect(text.length).toBeLessThan(MAX_IMPORT_BYTES);
    expect(fromCaseFile(text).error).toMatch(/too large \(\d+ bytes; the limit is 2097152\)/);
  });

  it('reads exactly 64 shapes and 32 rays', () => {
    const cases = many(64, (i) => rc(`s${i}`, { origin: [i % 32, 0, 0], dir: [0, 0, 1] }, { type: 'sphere', center: [i, 0, 0], radius: 1 }));
    const r = fromCaseFile(file(cases));
    expect(r.ok).toBe(true);
    expect(r.state.shapes).toHaveLength(64);
    expect(r.state.rays).toHaveLength(32);
  });

  it('leaves out what it cannot show, and says so', () => {
    // 65 different shapes over 32 rays, then a 33rd ray on shape 0, a non-object, an invalid
    // ray, a contains case.
    const cases = [
      ...many(65, (i) => rc(`s${i}`, { origin: [i % 32, 0, 0], dir: [0, 0, 1] }, { type: 'sphere', center: [i, 0, 0], radius: 1 })),
      rc('r32', { origin: [99, 0, 0], dir: [0, 0, 1] }, { type: 'sphere', center: [0, 0, 0], radius: 1 }),
      3,
      rc('zero', { origin: [0, 0, 0], dir: [0, 0, 0] }),
      { id: 'p', query: 'contains', point: [0, 0, 0], shape: box },
    ];
    const r = fromCaseFile(file(cases));
    expect(r.ok).toBe(true);
    expect(r.state.shapes).toHaveLength(64);
    expect(r.state.rays).toHaveLength(32);
    expect(r.overLimit).toBe(2); // s64 (a 65th shape) and r32 (a 33rd ray)
    expect(r.invalid).toBe(2); // the non-object and the zero direction
    expect(r.skipped).toBe(1);
    const notes = r.notes.join(' | ');
    expect(notes).toMatch(/2 invalid case\(s\) left out \(the first: case #67 is not an object\)/);
    expect(notes).toMatch(/2 case\(s\) left out: the playground holds 64 different shapes; case "s64"/);
    expect(notes).toMatch(/1 case\(s\) of other queries skipped/);
  });

  it('imports the valid raycast cases of tests/cases/invalid.json and counts the rest', () => {
    const text = readFileSync(INVALID, 'utf8');
    const doc = JSON.parse(text);
    const r = fromCaseFile(text);
    const raycasts = doc.cases.filter((c) => c && c.query === 'raycast').length;
    if (r.ok) {
      expect(r.invalid).toBeGreaterThan(0);
      expect(r.invalid).toBeLessThanOrEqual(raycasts);
      expect(validateState(r.state)).toBeNull();
    } else {
      expect(r.error).toMatch(/no usable raycast cases: case (".*"|#\d+): /);
    }
  });

  it('never throws on garbage', () => {
    const r = rng(3);
    const seeds = readFileSync(SEEDS, 'utf8');
    for (let i = 0; i < 300; i++) {
      let s = seeds;
      for (let e = 0; e < 4; e++) {
        const at = Math.floor(r() * s.length);
        s = s.slice(0, at) + '{}[]",:-0e9nul'[Math.floor(r() * 14)] + s.slice(at + 1);
      }
      const res = fromCaseFile(s);
      if (res.ok) expect(validateState(res.state)).toBeNull();
      else expect(res.error).toEqual(expect.any(String));
    }
  });
});
