// The playground's scene state: the default scene, its schema, the shareable
// link (URL fragment) and the case-file export / import.
//
// Pure ES module: no DOM, no wasm instance, no globals; it runs unchanged in
// Node and in browsers. (web/cases.mjs, imported for the case-file reader,
// pulls in web/slabcast.js, but only to define things: nothing is loaded.)
//
// A scene is a plain object; every number in it is a float32 value (a JS
// number that Math.fround leaves unchanged):
//
//   {
//     shapes: [ // at most MAX_SHAPES
//       { type: 'aabb', min: [x,y,z], max: [x,y,z] },
//       { type: 'obb', center: [x,y,z], axes: [[..],[..],[..]], half: [hu,hv,hw] },
//       { type: 'sphere', center: [x,y,z], radius: r },
//       { type: 'plane', normal: [x,y,z], d: number },
//     ],
//     rays: [ { origin: [x,y,z], dir: [x,y,z], tmax: number } ], // at most MAX_RAYS; tmax may be Infinity
//     selected: { ray: index or -1, shape: index or -1 },
//   }
//
// Validity (validateState) is that of docs/semantics.md, except that OBB
// axes need not be orthonormal: such a scene can be shown, linked and exported
// (the core reports the error when it is raycast).
//
// Link format, version 1: '#v1.' followed by base64url (RFC 4648 section 5,
// no padding) of this little-endian byte string:
//
//   u32 shape count (<= MAX_SHAPES)   u32 ray count (<= MAX_RAYS)
//   i32 selected.ray                  i32 selected.shape
//   per shape: u8 type (1 aabb, 2 obb, 3 sphere, 4 plane: sc_shape_type of
//              src/slabcast.h), then its float32s in field order:
//              aabb min max (6), obb center axes[0..2] half (15),
//              sphere center radius (4), plane normal d (4)
//   per ray:   origin dir tmax (7 float32s)
//
// Floats are stored as their bits, so every float32 (-0, subnormals, an
// infinite tmax) survives the round trip and no number is ever formatted.
// The largest scene (64 OBBs, 32 rays) is 4816 bytes: a 6426-character fragment.
//
// Link format, version 2 (what encode() writes): '#v2.' followed by base64url
// of the version 1 bytes above, then the view settings (ui-state.mjs):
//
//   u8 view    0 '3d', 1 'top', 2 'front', 3 'side' (the order of VIEWS)
//   u8 step    0..MAX_STEP (0: no tutorial step open)
//   u8 flags   bit 0: handles locked      bit 1: panels.toolbar shows
//              bit 2: panels.hits shows   bit 3: panels.tutorial shows
//              bit 4: embed               bit 5: a camera follows
//              bits 6 and 7 are 0
//   if bit 5:  7 float64: camera position x y z, target x y z, zoom
//
// The camera is stored as float64 bits, so it comes back exactly. The default
// settings add 3 bytes; a camera adds 56 more. A version 1 link opens with the
// default settings (defaultUi()).

import { bytesToUtf8 } from '../case-json.mjs';
import { FORMAT, parseCaseJson, readNumber, readVec3 } from '../cases.mjs';
import { formatFloat32 } from '../f32format.mjs';
import { VERSION } from '../version.mjs';
import { MAX_STEP, PANELS, VIEWS, cloneUi, defaultUi, validateUi } from './ui-state.mjs';

export const MAX_SHAPES = 64;
export const MAX_RAYS = 32;
/** Longest link fragment decode() looks at (the largest scene needs 6426). */
export const MAX_FRAGMENT_CHARS = 16384;
/** Largest case file fromCaseFile() reads, in bytes (UTF-8). */
export const MAX_IMPORT_BYTES = 2097152;
/** Most cases fromCaseFile() reads from one file. */
export const MAX_IMPORT_CASES = 4096;

/** The link version that encode() writes. */
export const LINK_VERSION = 2;

// Field layout of each shape type: [name, kind] with kind 'vec' (3 floats),
// 'axes' (3 x 3 floats) or 'num' (1 float). Also the order of the binary form.
const SHAPE_FIELDS = {
  aabb: [['min', 'vec'], ['max', 'vec']],
  obb: [['center', 'vec'], ['axes', 'axes'], ['half', 'vec']],
  sphere: [['center', 'vec'], ['radius', 'num']],
  plane: [['normal', 'vec'], ['d', 'num']],
};
const TYPE_CODE = { aabb: 1, obb: 2, sphere: 3, plane: 4 };
const TYPE_NAME = [undefined, 'aabb', 'obb', 'sphere', 'plane']; // by type byte
const AXIS = ['x', 'y', 'z'];

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFloat32 = (v) => typeof v === 'number' && (Number.isNaN(v) || Math.fround(v) === v);

/** What kind of value v is, for an error message: 'null', 'an array', 'a number', ... */
function kindOf(v) {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** A value for an error message: a number as JS prints it (-0 as -0), anything else by kind. */
function show(v) {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  return kindOf(v);
}

// ------------------------------------------------------------------ the default scene

/** A fresh copy of the default scene: each shape type, and rays that show a face hit, a grazing ray and an inside start. */
export function defaultState() {
  // cos 45 = sin 45, rounded to float32 (orthonormal within float32 rounding, far inside the 1e-4 of docs/semantics.md).
  const c = Math.fround(Math.SQRT1_2);
  return {
    shapes: [
      // A 2x2x2 cube standing on the floor.
      { type: 'aabb', min: [-3, -1, -1], max: [-1, 1, 1] },
      // A low slab on the floor; ray 2 starts inside it.
      { type: 'aabb', min: [1, -1, -1], max: [3, 0, 1] },
      // A cube turned 45 degrees about z (a diamond seen along z), just clear of the floor.
      { type: 'obb', center: [0, 0.5, -4], axes: [[c, c, 0], [-c, c, 0], [0, 0, 1]], half: [1, 1, 1] },
      // Ray 1, after grazing the cube, cuts through it off-centre.
      { type: 'sphere', center: [6, 0.5, 0], radius: 1 },
      // The floor y = -1 (normal . p = d).
      { type: 'plane', normal: [0, 1, 0], d: -1 },
    ],
    rays: [
      // Enters the cube through its x = -3 face at t = 3 (point [-3, 0.5, 0]), leaves at t = 5,
      // then reaches the floor at t = 6.
      { origin: [-6, 2, 0], dir: [1, -0.5, 0], tmax: Infinity },
      // Axis-parallel, sliding along the cube's top face y = 1: a boundary case, and a hit
      // (the solids are closed) over t in [3, 5]; then it crosses the sphere.
      { origin: [-6, 1, 0], dir: [1, 0, 0], tmax: Infinity },
      // Starts inside the slab (t = 0, t_enter = -1, normal [0,0,0]), and within tmax = 10
      // enters the turned cube through a slanted face at t = 6 - 2*sqrt(2) (about 3.17).
      { origin: [2, -0.5, 0], dir: [-0.5, 0, -1], tmax: 10 },
    ],
    selected: { ray: 0, shape: 0 },
  };
}

// ------------------------------------------------------------------ validation

/**
 * The problem with one shape's values, or null. `label` starts the message
 * ('shape 2 (obb)', 'case "x"'); `prefix` goes before field names ('', 'shape.').
 * The shape must already have the right structure (see structureError).
 */
function shapeValueError(shape, label, prefix) {
  const type = shape.type;
  for (const [name, kind] of SHAPE_FIELDS[type]) {
    const v = shape[name];
    const nums = kind === 'num' ? [[`${prefix}${name}`, v]]
      : kind === 'vec' ? v.map((x, i) => [`${prefix}${name}[${i}]`, x])
        : v.flatMap((row, i) => row.map((x, j) => [`${prefix}${name}[${i}][${j}]`, x]));
    for (const [field, x] of nums) {
      if (!Number.isFinite(x)) return `${label}: ${field} must be a finite number (it is ${show(x)})`;
    }
  }
  if (type === 'aabb') {
    for (let i = 0; i < 3; i++) {
      if (shape.min[i] > shape.max[i]) {
        return `${label}: ${prefix}min.${AXIS[i]} ${show(shape.min[i])} is greater than ${prefix}max.${AXIS[i]} ${show(shape.max[i])}`;
      }
    }
  } else if (type === 'obb') {
    for (let i = 0; i < 3; i++) {
      if (shape.half[i] < 0) return `${label}: ${prefix}half[${i}] must be >= 0 (it is ${show(shape.half[i])})`;
    }
  } else if (type === 'sphere') {
    if (shape.radius < 0) return `${label}: ${prefix}radius must be >= 0 (it is ${show(shape.radius)})`;
  } else if (shape.normal.every((x) => x === 0)) {
    return `${label}: ${prefix}normal must not be zero`;
  }
  return null;
}

/** The problem with one ray's values, or null (structure already checked). */
function rayValueError(ray, label, prefix) {
  for (const name of ['origin', 'dir']) {
    for (let i = 0; i < 3; i++) {
      const x = ray[name][i];
      if (!Number.isFinite(x)) return `${label}: ${prefix}${name}[${i}] must be a finite number (it is ${show(x)})`;
    }
  }
  if (ray.dir.every((x) => x === 0)) return `${label}: ${prefix}dir must not be zero`;
  if (!(ray.tmax >= 0)) return `${label}: ${prefix}tmax must be >= 0 or Infinity (it is ${show(ray.tmax)})`;
  return null;
}

const isVec = (v) => Array.isArray(v) && v.length === 3 && v.every(isFloat32);

/** Structural problem of a state shape (types, lengths, float32 numbers), or null. */
function shapeStructureError(shape, label) {
  if (!isObject(shape)) return `${label} is not an object`;
  if (typeof shape.type !== 'string' || !Object.hasOwn(SHAPE_FIELDS, shape.type)) {
    return `${label} has an unknown type ${typeof shape.type === 'string' ? JSON.stringify(shape.type.slice(0, 32)) : show(shape.type)}`;
  }
  const where = `${label} (${shape.type})`;
  for (const [name, kind] of SHAPE_FIELDS[shape.type]) {
    const v = shape[name];
    if (kind === 'num' && !isFloat32(v)) return `${where}: ${name} must be a float32 number`;
    if (kind === 'vec' && !isVec(v)) return `${where}: ${name} must be an array of 3 float32 numbers`;
    if (kind === 'axes' && !(Array.isArray(v) && v.length === 3 && v.every(isVec))) {
      return `${where}: ${name} must be an array of 3 arrays of 3 float32 numbers`;
    }
  }
  return null;
}

function rayStructureError(ray, label) {
  if (!isObject(ray)) return `${label} is not an object`;
  for (const name of ['origin', 'dir']) {
    if (!isVec(ray[name])) return `${label}: ${name} must be an array of 3 float32 numbers`;
  }
  if (!isFloat32(ray.tmax)) return `${label}: tmax must be a float32 number (Infinity for none)`;
  return null;
}

/**
 * What is wrong with a scene, as a message, or null when it is valid: the
 * structure, every number a float32 (store Math.fround'ed values), the limits,
 * the values (docs/semantics.md, OBB orthonormality aside) and the selection.
 * encode() refuses exactly the scenes this rejects; decode() applies it too.
 * @param {unknown} state
 * @returns {string | null}
 */
export function validateState(state) {
  if (!isObject(state)) return 'the scene is not an object';
  const { shapes, rays, selected } = state;
  if (!Array.isArray(shapes)) return 'the scene has no "shapes" array';
  if (!Array.isArray(rays)) return 'the scene has no "rays" array';
  if (shapes.length > MAX_SHAPES) return `too many shapes (${shapes.length}; the limit is ${MAX_SHAPES})`;
  if (rays.length > MAX_RAYS) return `too many rays (${rays.length}; the limit is ${MAX_RAYS})`;
  for (let i = 0; i < shapes.length; i++) {
    const e = shapeStructureError(shapes[i], `shape ${i}`) ??
      shapeValueError(shapes[i], `shape ${i} (${shapes[i].type})`, '');
    if (e) return e;
  }
  for (let i = 0; i < rays.length; i++) {
    const e = rayStructureError(rays[i], `ray ${i}`) ?? rayValueError(rays[i], `ray ${i}`, '');
    if (e) return e;
  }
  if (!isObject(selected)) return 'the scene has no "selected" object';
  for (const [key, n] of [['ray', rays.length], ['shape', shapes.length]]) {
    const v = selected[key];
    if (!(Number.isInteger(v) && v >= -1 && v < n)) {
      return `selected.${key} must be -1 or a ${key} index below ${n} (it is ${show(v)})`;
    }
  }
  return null;
}

// ------------------------------------------------------------------ copying and comparing

/** A deep copy of a scene (plain arrays and objects; -0 and Infinity kept). */
export function cloneState(state) {
  const copy = (v) => {
    if (Array.isArray(v)) return v.map(copy);
    if (isObject(v)) {
      const o = {};
      for (const k of Object.keys(v)) o[k] = copy(v[k]);
      return o;
    }
    return v;
  };
  return copy(state);
}

const sameNum = (a, b) => Object.is(a, b); // -0 differs from 0; bit-exact for float32 values
const sameVec = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameNum(x, b[i]));

function sameShape(a, b) {
  if (!isObject(a) || !isObject(b) || a.type !== b.type || !Object.hasOwn(SHAPE_FIELDS, a.type)) return false;
  return SHAPE_FIELDS[a.type].every(([name, kind]) => {
    if (kind === 'num') return sameNum(a[name], b[name]);
    if (kind === 'vec') return sameVec(a[name], b[name]);
    return Array.isArray(a[name]) && Array.isArray(b[name]) && a[name].length === 3 && b[name].length === 3 &&
      a[name].every((row, i) => sameVec(row, b[name][i]));
  });
}

function sameRay(a, b) {
  return isObject(a) && isObject(b) && sameVec(a.origin, b.origin) && sameVec(a.dir, b.dir) && sameNum(a.tmax, b.tmax);
}

/**
 * Whether two scenes are the same, bit for bit (-0 differs from 0): shapes,
 * rays and selection. Fields outside the schema are ignored. Never throws.
 */
export function sameState(a, b) {
  try {
    if (!isObject(a) || !isObject(b)) return false;
    const listSame = (x, y, same) => Array.isArray(x) && Array.isArray(y) && x.length === y.length &&
      x.every((v, i) => same(v, y[i]));
    return listSame(a.shapes, b.shapes, sameShape) && listSame(a.rays, b.rays, sameRay) &&
      isObject(a.selected) && isObject(b.selected) &&
      sameNum(a.selected.ray, b.selected.ray) && sameNum(a.selected.shape, b.selected.shape);
  } catch {
    return false;
  }
}

// ------------------------------------------------------------------ base64url

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_VALUE[B64.charCodeAt(i)] = i;

function toBase64url(bytes) {
  let out = '';
  let i = 0;
  for (; i + 3 <= bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
  }
  if (bytes.length - i === 1) {
    const n = bytes[i] << 16;
    out += B64[n >> 18] + B64[(n >> 12) & 63];
  } else if (bytes.length - i === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63];
  }
  return out;
}

/** Thrown inside decode(); turned into { ok: false, error }. */
class LinkError extends Error {}

/** Strict base64url: its alphabet only, no padding, no stray bits in the last character. */
function fromBase64url(s) {
  if (s.length % 4 === 1) throw new LinkError('the link data is damaged (its length is impossible for base64url: cut short?)');
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? B64_VALUE[c] : -1;
    if (v < 0) {
      throw new LinkError(`the link data is damaged: character ${JSON.stringify(s[i])} at position ${i} is not base64url`);
    }
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0) throw new LinkError('the link data is damaged (its last character has stray bits)');
  return out;
}

// ------------------------------------------------------------------ encode

const UI_LOCKED = 1;
const UI_TOOLBAR = 2;
const UI_HITS = 4;
const UI_TUTORIAL = 8;
const UI_EMBED = 16;
const UI_CAMERA = 32;
const PANEL_BIT = { toolbar: UI_TOOLBAR, hits: UI_HITS, tutorial: UI_TUTORIAL };

/** Bytes of the scene part (the whole of a version 1 payload). */
function sceneSize({ shapes, rays }) {
  let size = 16 + rays.length * 28;
  for (const s of shapes) size += s.type === 'obb' ? 61 : s.type === 'aabb' ? 25 : 17;
  return size;
}

/** Write the scene part at offset 0 of `view`; returns the offset after it. */
function writeScene(view, { shapes, rays, selected }) {
  let p = 0;
  const f32 = (x) => { view.setFloat32(p, x, true); p += 4; };
  const vec = (v) => { f32(v[0]); f32(v[1]); f32(v[2]); };
  view.setUint32(0, shapes.length, true);
  view.setUint32(4, rays.length, true);
  view.setInt32(8, selected.ray, true);
  view.setInt32(12, selected.shape, true);
  p = 16;
  for (const s of shapes) {
    view.setUint8(p++, TYPE_CODE[s.type]);
    for (const [name, kind] of SHAPE_FIELDS[s.type]) {
      if (kind === 'num') f32(s[name]);
      else if (kind === 'vec') vec(s[name]);
      else s[name].forEach(vec);
    }
  }
  for (const r of rays) {
    vec(r.origin);
    vec(r.dir);
    f32(r.tmax);
  }
  return p;
}

/** Write the view settings at offset p (see the top of this file). */
function writeUi(view, p, ui) {
  let flags = ui.handles === 'locked' ? UI_LOCKED : 0;
  for (const name of PANELS) if (ui.panels[name]) flags |= PANEL_BIT[name];
  if (ui.embed) flags |= UI_EMBED;
  if (ui.camera) flags |= UI_CAMERA;
  view.setUint8(p, VIEWS.indexOf(ui.view));
  view.setUint8(p + 1, ui.step);
  view.setUint8(p + 2, flags);
  p += 3;
  if (ui.camera) {
    const { position, target, zoom } = ui.camera;
    for (const x of [...position, ...target, zoom]) {
      view.setFloat64(p, x, true);
      p += 8;
    }
  }
  return p;
}

/**
 * The link fragment of a scene and its view settings, '#' included:
 * '#v2.<base64url>'. `ui` defaults to defaultUi(). Pure and deterministic.
 * Throws RangeError for a scene validateState() rejects or settings
 * validateUi() rejects (such a link could not be decoded).
 * @returns {string}
 */
export function encode(state, ui = defaultUi()) {
  const err = validateState(state);
  if (err !== null) throw new RangeError(`cannot encode the scene: ${err}`);
  try {
    validateUi(ui);
  } catch (e) {
    throw new RangeError(`cannot encode the view settings: ${e.message}`);
  }
  const size = sceneSize(state) + 3 + (ui.camera ? 56 : 0);
  const view = new DataView(new ArrayBuffer(size));
  const end = writeUi(view, writeScene(view, state), ui);
  if (end !== size) throw new Error(`encode: wrote ${end} bytes, expected ${size}`);
  return `#v${LINK_VERSION}.${toBase64url(new Uint8Array(view.buffer))}`;
}

// ------------------------------------------------------------------ decode

/** Reads a payload's bytes in order; every read checks the length first (LinkError). */
class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.p = 0;
  }

  need(n, what) {
    if (this.p + n > this.bytes.length) throw new LinkError(`the link data is cut short (it ends inside ${what})`);
  }

  u8() { return this.view.getUint8(this.p++); }
  f32() { const x = this.view.getFloat32(this.p, true); this.p += 4; return x; }
  f64() { const x = this.view.getFloat64(this.p, true); this.p += 8; return x; }
  vec() { return [this.f32(), this.f32(), this.f32()]; }

  /** Nothing may follow what was read. */
  end(what) {
    const left = this.bytes.length - this.p;
    if (left !== 0) throw new LinkError(`the link data has ${left} unexpected byte(s) after ${what}`);
  }
}

/** The scene part of a payload (the whole of version 1); throws LinkError. */
function readScene(r) {
  r.need(16, 'the header');
  const nShapes = r.view.getUint32(0, true);
  const nRays = r.view.getUint32(4, true);
  // Counts are checked before anything is allocated or read.
  if (nShapes > MAX_SHAPES) throw new LinkError(`the link claims ${nShapes} shapes; the limit is ${MAX_SHAPES}`);
  if (nRays > MAX_RAYS) throw new LinkError(`the link claims ${nRays} rays; the limit is ${MAX_RAYS}`);
  const selected = { ray: r.view.getInt32(8, true), shape: r.view.getInt32(12, true) };
  r.p = 16;

  const shapes = [];
  for (let i = 0; i < nShapes; i++) {
    r.need(1, `shape ${i}`);
    const code = r.u8();
    const type = TYPE_NAME[code];
    if (type === undefined) throw new LinkError(`shape ${i} has an unknown type byte ${code}`);
    r.need(type === 'obb' ? 60 : type === 'aabb' ? 24 : 16, `shape ${i} (${type})`);
    const shape = { type };
    for (const [name, kind] of SHAPE_FIELDS[type]) {
      shape[name] = kind === 'num' ? r.f32() : kind === 'vec' ? r.vec() : [r.vec(), r.vec(), r.vec()];
    }
    shapes.push(shape);
  }
  const rays = [];
  for (let i = 0; i < nRays; i++) {
    r.need(28, `ray ${i}`);
    rays.push({ origin: r.vec(), dir: r.vec(), tmax: r.f32() });
  }
  return { shapes, rays, selected };
}

/** The view settings part of a version 2 payload; throws LinkError. */
function readUi(r) {
  r.need(3, 'the view settings');
  const viewCode = r.u8();
  const step = r.u8();
  const flags = r.u8();
  if (viewCode >= VIEWS.length) throw new LinkError(`the link has an unknown view code ${viewCode}`);
  if (step > MAX_STEP) throw new LinkError(`the link asks for tutorial step ${step}; the last is ${MAX_STEP}`);
  if (flags & 0xc0) throw new LinkError(`the link has unknown view flags (${flags})`);
  const ui = {
    view: VIEWS[viewCode],
    step,
    handles: flags & UI_LOCKED ? 'locked' : 'free',
    panels: Object.fromEntries(PANELS.map((name) => [name, (flags & PANEL_BIT[name]) !== 0])),
    camera: null,
    embed: (flags & UI_EMBED) !== 0,
  };
  if (flags & UI_CAMERA) {
    r.need(56, 'the camera');
    const n = [r.f64(), r.f64(), r.f64(), r.f64(), r.f64(), r.f64(), r.f64()];
    ui.camera = { position: n.slice(0, 3), target: n.slice(3, 6), zoom: n[6] };
  }
  try {
    validateUi(ui);
  } catch (e) {
    throw new LinkError(`the link holds invalid view settings: ${e.message}`);
  }
  return ui;
}

/** Version 1 payload (see the top of this file) -> {state, ui}; throws LinkError. */
function decodeV1(payload) {
  if (payload.length === 0) throw new LinkError('the link has no scene data after "v1."');
  const r = new Reader(fromBase64url(payload));
  const state = readScene(r);
  r.end('the scene');
  return { state, ui: defaultUi() };
}

/** Version 2 payload -> {state, ui}; throws LinkError. */
function decodeV2(payload) {
  if (payload.length === 0) throw new LinkError('the link has no scene data after "v2."');
  const r = new Reader(fromBase64url(payload));
  const state = readScene(r);
  const ui = readUi(r);
  r.end('the view settings');
  return { state, ui };
}

// One decoder per link version, forever: encode() writes the newest and the older
// decoders stay here (upgrading what they read if needed) so that every link ever
// shared keeps opening.
const DECODERS = new Map([[1, decodeV1], [2, decodeV2]]);
const READS = [...DECODERS.keys()].map((v) => `v${v}`).join(', ');

/**
 * Read a link fragment: a string (with or without the leading '#') or a
 * Location-like object with a string `hash`. Never throws. A version 1 link
 * gives the default view settings.
 * @returns {{ok: true, state: object, ui: object} | {ok: false, error: string}}
 */
export function decode(input) {
  try {
    let s;
    if (typeof input === 'string') s = input;
    else if (isObject(input) && typeof input.hash === 'string') s = input.hash;
    else {
      const what = isObject(input) ? 'an object without a string "hash"' : kindOf(input);
      return { ok: false, error: `expected a link fragment (a string or a location), got ${what}` };
    }
    // The size cap comes first: nothing longer is even looked at.
    if (s.length > MAX_FRAGMENT_CHARS) {
      return { ok: false, error: `the link is too long (${s.length} characters; the limit is ${MAX_FRAGMENT_CHARS})` };
    }
    if (s.startsWith('#')) s = s.slice(1);
    if (s === '') return { ok: false, error: 'no scene in the link' };
    const m = /^v(\d+)\./.exec(s);
    if (!m) return { ok: false, error: `this is not a slabcast scene link (it should start with "#v${LINK_VERSION}.")` };
    // Only canonical version numbers (no leading zeros) name a decoder.
    const decoder = /^[1-9]\d{0,8}$/.test(m[1]) ? DECODERS.get(Number(m[1])) : undefined;
    if (decoder === undefined) {
      const v = m[1].length > 12 ? `${m[1].slice(0, 12)}...` : m[1];
      return { ok: false, error: `unknown link version ${v} (this page reads ${READS})` };
    }
    const { state, ui } = decoder(s.slice(m[0].length));
    const err = validateState(state);
    if (err !== null) return { ok: false, error: `the link holds an invalid scene: ${err}` };
    return { ok: true, state, ui: cloneUi(ui) };
  } catch (e) {
    if (e instanceof LinkError) return { ok: false, error: e.message };
    // Anything else is a bug here or a hostile object (a throwing getter): still no throw.
    let why = 'unexpected error';
    try { why = String(e && e.message ? e.message : e); } catch { /* keep the default */ }
    return { ok: false, error: `the link could not be read (${why})` };
  }
}

// ------------------------------------------------------------------ case files

/**
 * A float32 as case-file text that both runners read back as the same float32
 * (they read a JSON number as (float)strtod, i.e. Math.fround(Number(s))).
 * formatFloat32's shortest text nearly always does; -0 is kept as "-0" (the
 * runners' output format prints it as 0) and, should the double rounding of a
 * shortest text ever land on the other float32, the exact double text is used.
 */
function numText(x) {
  x = Math.fround(x);
  if (Object.is(x, -0)) return '-0';
  const s = formatFloat32(x); // also "inf", "-inf", "nan" (as JSON strings)
  if (!Number.isFinite(x) || Object.is(Math.fround(Number(s)), x)) return s;
  return String(x);
}
const vecText = (v) => `[${numText(v[0])}, ${numText(v[1])}, ${numText(v[2])}]`;

function shapeText(s) {
  const parts = [`"type": "${s.type}"`];
  for (const [name, kind] of SHAPE_FIELDS[s.type]) {
    const v = s[name];
    const text = kind === 'num' ? numText(v) : kind === 'vec' ? vecText(v) : `[${v.map(vecText).join(', ')}]`;
    parts.push(`"${name}": ${text}`);
  }
  return `{${parts.join(', ')}}`;
}

function rayText(r) {
  // No tmax means +infinity (docs/semantics.md).
  const tmax = r.tmax === Infinity ? '' : `, "tmax": ${numText(r.tmax)}`;
  return `{"origin": ${vecText(r.origin)}, "dir": ${vecText(r.dir)}${tmax}}`;
}

/**
 * A case file (docs/semantics.md) with one raycast case per ray x shape pair, id
 * "ray<i>-shape<j>-<type>", its inputs written so that they read back as the
 * same float32s, and "observed" holding what `raycast` (slabcast's sc.raycast)
 * returned: hit and, on a hit, t, t_enter, t_exit, point, normal (a field
 * computed as NaN, which no check could match, is left out). A pair for which
 * raycast throws (invalid input, e.g. non-orthonormal OBB axes) is left out and
 * named in the file's "comment". The file records the slabcast version that
 * wrote it ("generator": "slabcast <version>").
 *
 * There is no "expect": the runners skip a case without one, so an exported
 * file never passes by itself. The reporter copies "observed" to "expect" and
 * corrects what is wrong (docs/playground.md, "Reporting a bug").
 * @param {object} state
 * @param {(ray: object, shape: object) => object} raycast
 * @returns {string}
 */
export function toCaseFile(state, raycast) {
  const lines = [];
  const left = [];
  const nanFields = [];
  state.rays.forEach((ray, i) => {
    state.shapes.forEach((shape, j) => {
      const id = `ray${i}-shape${j}-${shape.type}`;
      let r;
      try {
        r = raycast(ray, shape);
      } catch {
        left.push(id);
        return;
      }
      let observed = `"hit": ${r.hit ? 'true' : 'false'}`;
      if (r.hit) {
        for (const key of ['t', 't_enter', 't_exit', 'point', 'normal']) {
          const v = r[key];
          // NaN never equals anything, so a NaN field could never pass a check: it is left
          // out (this happens near the float32 range, e.g. point = origin + t*dir overflowing).
          if ([v].flat().some(Number.isNaN)) {
            nanFields.push(`${id} ${key}`);
            continue;
          }
          observed += `, "${key}": ${typeof v === 'number' ? numText(v) : vecText(v)}`;
        }
      }
      lines.push(`    {"id": "${id}", "query": "raycast", "ray": ${rayText(ray)}, "shape": ${shapeText(shape)},\n` +
        `     "observed": {${observed}}}`);
    });
  });
  let comment = 'Exported from the slabcast playground: every ray x shape pair of the scene, ' +
    'observed = what this build of slabcast computed. To make a test: copy "observed" to "expect" ' +
    'in each case, correct the fields that are wrong, and add the file to tests/cases.';
  if (left.length) comment += ` Left out (the query refused the input): ${left.join(', ')}.`;
  if (nanFields.length) comment += ` Not recorded (computed as NaN): ${nanFields.join(', ')}.`;
  return `{\n  "format": "${FORMAT}",\n  "generator": "slabcast ${VERSION}",\n  "comment": ${JSON.stringify(comment)},\n  "cases": [\n` +
    `${lines.join(',\n')}${lines.length ? '\n' : ''}  ]\n}\n`;
}

/** Thrown inside fromCaseFile(); turned into { ok: false, error }. */
class ImportError extends Error {}

const utf8Encoder = new TextEncoder();

/** The bytes of a case file given as text or bytes, size-capped. */
function importBytes(input) {
  let bytes;
  if (typeof input === 'string') {
    // UTF-8 never has fewer bytes than UTF-16 code units: a cheap early refusal.
    if (input.length > MAX_IMPORT_BYTES) throw new ImportError(`the file is too large (over ${MAX_IMPORT_BYTES} bytes)`);
    bytes = utf8Encoder.encode(input);
  } else if (input instanceof ArrayBuffer) {
    bytes = new Uint8Array(input);
  } else if (input instanceof Uint8Array) {
    bytes = input;
  } else {
    throw new ImportError(`expected the text of a case file, got ${kindOf(input)}`);
  }
  if (bytes.length > MAX_IMPORT_BYTES) {
    throw new ImportError(`the file is too large (${bytes.length} bytes; the limit is ${MAX_IMPORT_BYTES})`);
  }
  return bytes;
}

/** A case's name for messages: its id (UTF-8, shortened) or its position. */
function caseLabel(c, index) {
  const id = c.get('id');
  if (typeof id !== 'string') return `case #${index + 1}`;
  const text = bytesToUtf8(id);
  return `case ${JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}...` : text)}`;
}

/** The ray and shape of a raycast case (a Map from parseCaseJson), checked; throws ImportError. */
function readRaycastCase(c, label) {
  const bad = (msg) => { throw new ImportError(`${label}: ${msg}`); };
  const obj = (v, field) => (v instanceof Map ? v : bad(`"${field}" must be an object`));
  const vec = (m, key, field) => readVec3(m.get(key)) ?? bad(`"${field}" must be an array of 3 numbers`);
  const num = (m, key, field) => readNumber(m.get(key)) ?? bad(`"${field}" must be a number`);

  const r = obj(c.get('ray'), 'ray');
  const ray = {
    origin: vec(r, 'origin', 'ray.origin'),
    dir: vec(r, 'dir', 'ray.dir'),
    tmax: r.has('tmax') ? num(r, 'tmax', 'ray.tmax') : Infinity,
  };
  const sh = obj(c.get('shape'), 'shape');
  const type = sh.get('type');
  if (typeof type !== 'string') bad('"shape.type" must be a string');
  if (!Object.hasOwn(SHAPE_FIELDS, type)) bad(`unknown shape type ${JSON.stringify(bytesToUtf8(type).slice(0, 32))}`);
  const shape = { type };
  for (const [name, kind] of SHAPE_FIELDS[type]) {
    const field = `shape.${name}`;
    if (kind === 'num') shape[name] = num(sh, name, field);
    else if (kind === 'vec') shape[name] = vec(sh, name, field);
    else {
      const v = sh.get(name);
      const axes = Array.isArray(v) && v.length === 3 ? v.map(readVec3) : null;
      if (axes === null || axes.includes(undefined)) bad(`"${field}" must be an array of 3 arrays of 3 numbers`);
      shape[name] = axes;
    }
  }
  const err = rayValueError(ray, label, 'ray.') ?? shapeValueError(shape, label, 'shape.');
  if (err !== null) throw new ImportError(err);
  return { ray, shape };
}

const bitsBuf = new Float32Array(1);
const bitsU32 = new Uint32Array(bitsBuf.buffer);
/** A key equal for bit-identical float32 lists (so -0 and 0 differ). */
function bitsKey(nums) {
  return nums.map((x) => { bitsBuf[0] = x; return bitsU32[0].toString(36); }).join(',');
}
const shapeKey = (s) => `${s.type}:${bitsKey(SHAPE_FIELDS[s.type].flatMap(([name]) => [s[name]].flat(2)))}`;
const rayKey = (r) => bitsKey([...r.origin, ...r.dir, r.tmax]);

/**
 * A scene from a case file (text or bytes): the distinct shapes and the
 * distinct rays (bit-exact) of its raycast cases, in order of first
 * appearance. Other queries are skipped, invalid raycast cases and cases past
 * MAX_SHAPES / MAX_RAYS are left out; all are counted and explained in notes.
 * A file that is not a case file, or has nothing to show, is refused. Never
 * throws.
 * @returns {{ok: true, state: object, skipped: number, invalid: number, overLimit: number, notes: string[]}
 *   | {ok: false, error: string}}
 */
export function fromCaseFile(input) {
  try {
    const doc = parseCaseJson(importBytes(input));
    if (doc === undefined) throw new ImportError('the file is not valid JSON');
    if (!(doc instanceof Map) || doc.get('format') !== FORMAT) {
      throw new ImportError(`this is not a slabcast case file ("format" must be "${FORMAT}")`);
    }
    const cases = doc.get('cases');
    if (!Array.isArray(cases)) throw new ImportError('the case file has no "cases" array');
    if (cases.length > MAX_IMPORT_CASES) {
      throw new ImportError(`the file has too many cases (${cases.length}; the limit is ${MAX_IMPORT_CASES})`);
    }
    // Cases that cannot be shown are left out, not fatal: an invalid raycast case, a case that
    // is not an object or has no query, and cases past the playground's shape / ray limits.
    // Each is counted and the first reason of each kind is kept for the notice. Only a file
    // with nothing to show is refused.
    const shapes = [];
    const rays = [];
    const shapeIndex = new Map();
    const rayIndex = new Map();
    let skipped = 0;
    let invalid = 0;
    let overLimit = 0;
    let firstInvalid = '';
    let firstOver = '';
    cases.forEach((c, index) => {
      let label = `case #${index + 1}`;
      try {
        if (!(c instanceof Map)) throw new ImportError(`${label} is not an object`);
        label = caseLabel(c, index);
        const query = c.get('query');
        if (typeof query !== 'string') throw new ImportError(`${label}: "query" must be a string`);
        if (query !== 'raycast') { skipped++; return; }
        const { ray, shape } = readRaycastCase(c, label);
        const sk = shapeKey(shape);
        const rk = rayKey(ray);
        const newShape = !shapeIndex.has(sk), newRay = !rayIndex.has(rk);
        if ((newShape && shapes.length === MAX_SHAPES) || (newRay && rays.length === MAX_RAYS)) {
          overLimit++;
          if (!firstOver) {
            firstOver = newShape && shapes.length === MAX_SHAPES
              ? `the playground holds ${MAX_SHAPES} different shapes; ${label} and later ones past that were left out`
              : `the playground holds ${MAX_RAYS} different rays; ${label} and later ones past that were left out`;
          }
          return;
        }
        if (newShape) { shapeIndex.set(sk, shapes.length); shapes.push(shape); }
        if (newRay) { rayIndex.set(rk, rays.length); rays.push(ray); }
      } catch (e) {
        if (!(e instanceof ImportError)) throw e;
        invalid++;
        if (!firstInvalid) firstInvalid = e.message;
      }
    });
    const notes = [];
    if (invalid) notes.push(`${invalid} invalid case(s) left out (the first: ${firstInvalid})`);
    if (overLimit) notes.push(`${overLimit} case(s) left out: ${firstOver}`);
    if (skipped) notes.push(`${skipped} case(s) of other queries skipped`);
    if (shapes.length === 0) {
      if (invalid) throw new ImportError(`the file has no usable raycast cases: ${firstInvalid}`);
      throw new ImportError(`the file has no raycast cases${skipped ? ` (${skipped} other case(s) skipped)` : ''}`);
    }
    const state = { shapes, rays, selected: { ray: 0, shape: 0 } };
    return { ok: true, state, skipped, invalid, overLimit, notes };
  } catch (e) {
    if (e instanceof ImportError) return { ok: false, error: e.message };
    let why = 'unexpected error';
    try { why = String(e && e.message ? e.message : e); } catch { /* keep the default */ }
    return { ok: false, error: `the case file could not be read (${why})` };
  }
}
