// The playground's case files (docs/semantics.md): a scene exported as raycast
// cases (toCaseFile), and a scene read from a case file (fromCaseFile). Pure ES
// module. (web/cases.mjs, imported for the case-file reader, pulls in
// web/slabcast.js, but only to define things: nothing is loaded.)

import { bytesToUtf8 } from '../case-json.mjs';
import { FORMAT, parseCaseJson, readNumber, readVec3 } from '../cases.mjs';
import { formatFloat32 } from '../f32format.mjs';
import { VERSION } from '../version.mjs';
import { MAX_RAYS, MAX_SHAPES, SHAPE_FIELDS, kindOf } from './scene.mjs';
import { rayValueError, shapeValueError } from './scene-check.mjs';

/** Largest case file fromCaseFile() reads, in bytes (UTF-8). */
export const MAX_IMPORT_BYTES = 2097152;
/** Most cases fromCaseFile() reads from one file. */
export const MAX_IMPORT_CASES = 4096;

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
