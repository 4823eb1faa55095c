// The playground's share link: a scene and its view settings as a URL fragment
// (encode), and back (decode, every link version ever written). Pure ES module.
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
// Link format, version 2 (what encode() writes for a scene without capsules):
// '#v2.' followed by base64url
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
//
// Link format, version 3 (what encode() writes for a scene with a capsule):
// '#v3.' and the version 2 bytes, where a shape may also have type byte
// 5 (capsule, SC_SHAPE_CAPSULE) followed by a b radius (7 float32s). Versions 1
// and 2 have no type byte 5. A scene without capsules is still written as
// version 2, so that pages from before capsules open its links.

import { MAX_RAYS, MAX_SHAPES, SHAPE_FIELDS, isObject, kindOf } from './scene.mjs';
import { validateState } from './scene-check.mjs';
import { MAX_STEP, PANELS, VIEWS, cloneUi, defaultUi, validateUi } from './ui-state.mjs';

/** Longest link fragment decode() looks at (the largest scene needs 6426). */
export const MAX_FRAGMENT_CHARS = 16384;

/** The newest link version, which encode() writes for a scene with a capsule (version 2 otherwise). */
export const LINK_VERSION = 3;

// The type byte of each shape type (sc_shape_type of src/slabcast.h), and back.
const TYPE_CODE = { aabb: 1, obb: 2, sphere: 3, plane: 4, capsule: 5 };
const TYPE_NAME = [undefined, 'aabb', 'obb', 'sphere', 'plane', 'capsule']; // by type byte
/** The last type byte of each link version. */
const LAST_TYPE = { 1: 4, 2: 4, 3: 5 };

/** Bytes of one shape's float32s. */
const shapeBytes = (type) => 4 * SHAPE_FIELDS[type].reduce((n, [, kind]) => n + (kind === 'num' ? 1 : kind === 'vec' ? 3 : 9), 0);

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
  for (const s of shapes) size += 1 + shapeBytes(s.type);
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
 * '#v2.<base64url>', or '#v3.<base64url>' when the scene holds a capsule. `ui` defaults to defaultUi(). Pure and deterministic.
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
  const version = state.shapes.some((sh) => sh.type === 'capsule') ? 3 : 2;
  return `#v${version}.${toBase64url(new Uint8Array(view.buffer))}`;
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

/** The scene part of a payload of link `version` (the whole of version 1); throws LinkError. */
function readScene(r, version) {
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
    if (code > LAST_TYPE[version]) {
      throw new LinkError(`shape ${i} has type byte ${code} (${type}), which version ${version} links do not have`);
    }
    r.need(shapeBytes(type), `shape ${i} (${type})`);
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
  const state = readScene(r, 1);
  r.end('the scene');
  return { state, ui: defaultUi() };
}

/** Version 2 or 3 payload -> {state, ui}; throws LinkError. */
function decodeWithUi(version, payload) {
  if (payload.length === 0) throw new LinkError(`the link has no scene data after "v${version}."`);
  const r = new Reader(fromBase64url(payload));
  const state = readScene(r, version);
  const ui = readUi(r);
  r.end('the view settings');
  return { state, ui };
}

// One decoder per link version, forever: encode() writes the newest and the older
// decoders stay here (upgrading what they read if needed) so that every link ever
// shared keeps opening.
const DECODERS = new Map([[1, decodeV1], [2, (p) => decodeWithUi(2, p)], [3, (p) => decodeWithUi(3, p)]]);
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
    if (!m) return { ok: false, error: 'this is not a slabcast scene link (it should start with "#v2." or "#v3.")' };
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
