// The case-file logic of the wasm runner (web/bin/slabcast-cases.mjs), shared
// with the tests: reading a case file, running its cases through the JS API
// (web/slabcast.js) and checking them against their "expect".
//
// It follows docs/case-runner.md and, where that page leaves something open,
// the native runner (slabcast-cases.c in the repository): both runners must print
// byte-identical output for any file. Strings are handled as the C code sees
// them: byte strings (one byte per JS char), cut at the first NUL; output is
// built as a byte string and written as latin1 (see case-json.mjs).

import { parseCaseJson, utf8ToBytes } from './case-json.mjs';
import { formatFloat32 } from './f32format.mjs';
import { SlabcastError } from './slabcast.js';

export { parseCaseJson } from './case-json.mjs';
export { formatFloat32 } from './f32format.mjs';

export const FORMAT = 'slabcast-cases/1';
export const RESULTS_FORMAT = 'slabcast-results/1';
export const MAX_FILE_BYTES = 67108864;
export const MAX_CASES = 1000000;
const MAX_QUOTED = 64;

export const USAGE = 'usage: slabcast-cases run FILE | slabcast-cases check FILE\n';

/** A file-level refusal: the message (without the "slabcast-cases: " prefix), exit status 2. */
export class CaseFileError extends Error {
  constructor(message) {
    super(message);
    this.name = 'CaseFileError';
  }
}

// ------------------------------------------------------------------ output

/** A byte string as a JSON string literal, escaped as the native runner does. */
export function jsonString(s) {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) break;
    switch (c) {
      case 0x22: out += '\\"'; break;
      case 0x5c: out += '\\\\'; break;
      case 0x08: out += '\\b'; break;
      case 0x0c: out += '\\f'; break;
      case 0x0a: out += '\\n'; break;
      case 0x0d: out += '\\r'; break;
      case 0x09: out += '\\t'; break;
      default:
        out += c < 0x20 ? `\\u${c.toString(16).padStart(4, '0')}` : s[i];
    }
  }
  return `${out}"`;
}

/** At most 64 bytes of a byte string, backing off so as not to end inside a UTF-8 sequence. */
export function truncateQuoted(s) {
  let n = s.length;
  if (n > MAX_QUOTED) {
    n = MAX_QUOTED;
    while (n > 0 && (s.charCodeAt(n) & 0xc0) === 0x80) n--;
  }
  return s.slice(0, n);
}

const fmtNum = formatFloat32;
const fmtVec = (v) => `[${fmtNum(v[0])}, ${fmtNum(v[1])}, ${fmtNum(v[2])}]`;

// ------------------------------------------------------------------ reading

/** A case number: a JSON number rounded to float32, or "inf" / "-inf" / "nan". Else undefined. */
export function readNumber(v) {
  if (typeof v === 'number') return Math.fround(v);
  if (v === 'inf') return Infinity;
  if (v === '-inf') return -Infinity;
  if (v === 'nan') return NaN;
  return undefined;
}

/** An array of exactly 3 numbers as [x, y, z] float32 values, else undefined. */
export function readVec3(v) {
  if (!Array.isArray(v) || v.length !== 3) return undefined;
  const out = [];
  for (const e of v) {
    const x = readNumber(e);
    if (x === undefined) return undefined;
    out.push(x);
  }
  return out;
}

const isObject = (v) => v instanceof Map;
const member = (obj, key) => (isObject(obj) ? obj.get(key) : undefined);

class CaseError extends Error {}

function fail(message) {
  throw new CaseError(message);
}

/**
 * The query and its inputs of one case, checked in the order of docs/case-runner.md.
 * Returns {query, input, shape, scale, dir}; throws CaseError with the case's error text.
 */
function readCaseInput(c) {
  let scale = 1;
  const scaleNum = (v) => {
    if (Number.isFinite(v) && Math.abs(v) > scale) scale = Math.abs(v);
  };
  const scaleVec = (v) => v.forEach(scaleNum);
  const needObject = (v, path) => {
    if (!isObject(v)) fail(`"${path}" must be an object`);
    return v;
  };
  const needVec = (obj, key, path) => {
    const v = readVec3(member(obj, key));
    if (v === undefined) fail(`"${path}" must be an array of 3 numbers`);
    return v;
  };
  const needNum = (obj, key, path) => {
    const v = readNumber(member(obj, key));
    if (v === undefined) fail(`"${path}" must be a number`);
    return v;
  };

  const q = member(c, 'query');
  if (typeof q !== 'string') fail('"query" must be a string');
  let input;
  let dir = [0, 0, 0];
  if (q === 'raycast') {
    const ray = needObject(member(c, 'ray'), 'ray');
    const origin = needVec(ray, 'origin', 'ray.origin');
    dir = needVec(ray, 'dir', 'ray.dir');
    let tmax = Infinity;
    if (ray.has('tmax')) tmax = needNum(ray, 'tmax', 'ray.tmax');
    scaleVec(origin);
    scaleVec(dir);
    scaleNum(tmax);
    input = { origin, dir, tmax };
  } else if (q === 'linetest') {
    const seg = needObject(member(c, 'segment'), 'segment');
    const a = needVec(seg, 'a', 'segment.a');
    const b = needVec(seg, 'b', 'segment.b');
    scaleVec(a);
    scaleVec(b);
    input = { a, b };
  } else if (q === 'closest_point' || q === 'contains') {
    input = needVec(c, 'point', 'point');
    scaleVec(input);
  } else {
    fail(`unknown query "${truncateQuoted(q)}"`);
  }

  const sh = needObject(member(c, 'shape'), 'shape');
  const type = member(sh, 'type');
  if (typeof type !== 'string') fail('"shape.type" must be a string');
  let shape;
  if (type === 'aabb') {
    shape = { type, min: needVec(sh, 'min', 'shape.min'), max: needVec(sh, 'max', 'shape.max') };
    scaleVec(shape.min);
    scaleVec(shape.max);
  } else if (type === 'obb') {
    const center = needVec(sh, 'center', 'shape.center');
    const axesIn = member(sh, 'axes');
    const axes = Array.isArray(axesIn) && axesIn.length === 3 ? axesIn.map(readVec3) : null;
    if (axes === null || axes.includes(undefined)) fail('"shape.axes" must be an array of 3 arrays of 3 numbers');
    const half = needVec(sh, 'half', 'shape.half');
    shape = { type, center, axes, half };
    scaleVec(center);
    axes.forEach(scaleVec);
    scaleVec(half);
  } else if (type === 'sphere') {
    shape = { type, center: needVec(sh, 'center', 'shape.center'), radius: needNum(sh, 'radius', 'shape.radius') };
    scaleVec(shape.center);
    scaleNum(shape.radius);
  } else if (type === 'capsule') {
    shape = { type, a: needVec(sh, 'a', 'shape.a'), b: needVec(sh, 'b', 'shape.b'), radius: needNum(sh, 'radius', 'shape.radius') };
    scaleVec(shape.a);
    scaleVec(shape.b);
    scaleNum(shape.radius);
  } else if (type === 'plane') {
    shape = { type, normal: needVec(sh, 'normal', 'shape.normal'), d: needNum(sh, 'd', 'shape.d') };
    scaleVec(shape.normal);
    scaleNum(shape.d);
  } else {
    fail(`unknown shape type "${truncateQuoted(type)}"`);
  }
  return { query: q, input, shape, scale, dir };
}

// ------------------------------------------------------------------ running

/**
 * Run one read case through the API. Returns the result record:
 * {query, error?, hit?, t?, t_enter?, t_exit?, point?, normal?, inside?}.
 */
function runInput(api, { query, input, shape }) {
  try {
    switch (query) {
      case 'raycast': return { query, ...api.raycast(input, shape) };
      case 'linetest': return { query, ...api.linetest(input, shape) };
      case 'closest_point': return { query, ...api.closestPoint(input, shape) };
      default: return { query, ...api.contains(input, shape) };
    }
  } catch (e) {
    if (e instanceof SlabcastError) return { query, error: utf8ToBytes(e.message) };
    throw e;
  }
}

/**
 * Read and run every case of a parsed document's "cases" array.
 * Returns one entry per case: {id (byte string or null), caseObject, read (or null), result}.
 */
export function runCases(api, cases) {
  const seen = new Set();
  const out = [];
  for (const c of cases) {
    let id = null;
    let read = null;
    let result;
    if (!isObject(c)) {
      result = { error: 'case is not an object' };
    } else if (typeof c.get('id') !== 'string') {
      result = { error: '"id" must be a string' };
    } else {
      id = c.get('id');
      if (seen.has(id)) {
        result = { error: `duplicate id "${truncateQuoted(id)}"` };
      } else {
        seen.add(id);
        try {
          read = readCaseInput(c);
          result = runInput(api, read);
        } catch (e) {
          if (!(e instanceof CaseError)) throw e;
          result = { error: e.message };
        }
      }
    }
    out.push({ id, caseObject: c, read, result });
  }
  return out;
}

/** One result line of the results document (without indentation). */
export function formatResult(id, r) {
  let s = `{"id": ${id === null ? 'null' : jsonString(id)}`;
  if (r.error !== undefined) {
    s += `, "error": ${jsonString(r.error)}`;
  } else if (r.query === 'raycast') {
    s += `, "hit": ${r.hit ? 'true' : 'false'}`;
    if (r.hit) {
      s += `, "t": ${fmtNum(r.t)}, "t_enter": ${fmtNum(r.t_enter)}, "t_exit": ${fmtNum(r.t_exit)}`;
      s += `, "point": ${fmtVec(r.point)}, "normal": ${fmtVec(r.normal)}`;
    }
  } else if (r.query === 'linetest') {
    s += `, "hit": ${r.hit ? 'true' : 'false'}`;
  } else if (r.query === 'contains') {
    s += `, "inside": ${r.inside ? 'true' : 'false'}`;
  } else {
    s += `, "point": ${fmtVec(r.point)}`;
  }
  return `${s}}`;
}

/** The results document (a byte string) for runCases' output. */
export function formatResults(entries) {
  let s = `{"format": "${RESULTS_FORMAT}", "results": [\n`;
  s += entries.map((e) => `  ${formatResult(e.id, e.result)}`).join(',\n');
  if (entries.length > 0) s += '\n';
  return `${s}]}\n`;
}

// ------------------------------------------------------------------ checking

/**
 * Compare one case's result with its expect object. Returns the failures as
 * [{field, want, got}] (want/got as printed); empty when the case passes.
 */
export function checkCase(expect, read, r) {
  const fails = [];
  const failField = (field, want, got) => fails.push({ field, want, got });
  if (!isObject(expect)) {
    failField('expect', '(an object)', '(not an object)');
    return fails;
  }
  const g = r.error !== undefined ? jsonString(r.error) : 'none';
  if (expect.has('error')) {
    const ee = expect.get('error');
    let w;
    if (typeof ee === 'string') w = jsonString(ee);
    else if (ee === true) w = 'true';
    else w = '(true or a string)';
    const ok = r.error !== undefined && (ee === true || (typeof ee === 'string' && r.error.includes(ee)));
    if (!ok) failField('error', w, g);
    return fails;
  }
  if (r.error !== undefined) {
    failField('error', 'none', g);
    return fails;
  }

  const ray = r.query === 'raycast';
  const hit = ray && r.hit;
  const checkBool = (field, have, got) => {
    if (!expect.has(field)) return;
    const e = expect.get(field);
    if (typeof e !== 'boolean') {
      failField(field, '(not a boolean)', have ? (got ? 'true' : 'false') : '(none)');
      return;
    }
    if (!have) failField(field, e ? 'true' : 'false', '(none)');
    else if (e !== got) failField(field, e ? 'true' : 'false', got ? 'true' : 'false');
  };
  const checkT = (field, have, got) => {
    if (!expect.has(field)) return;
    const gs = have ? fmtNum(got) : '(none)';
    const want = readNumber(expect.get(field));
    if (want === undefined) { failField(field, '(not a number)', gs); return; }
    const ws = fmtNum(want);
    if (!have) { failField(field, ws, gs); return; }
    const [dx, dy, dz] = read.dir;
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const tol = 1e-4 * read.scale;
    const err = Math.abs(got - want) * len;
    if (!(err <= tol) && !(got === want)) failField(field, ws, gs);
  };
  const checkVec = (field, have, got, tol) => {
    if (!expect.has(field)) return;
    const gs = have ? fmtVec(got) : '(none)';
    const want = readVec3(expect.get(field));
    if (want === undefined) { failField(field, '(not an array of 3 numbers)', gs); return; }
    const ws = fmtVec(want);
    if (!have) { failField(field, ws, gs); return; }
    for (let i = 0; i < 3; i++) {
      if (!(Math.abs(got[i] - want[i]) <= tol) && !(got[i] === want[i])) {
        failField(field, ws, gs);
        return;
      }
    }
  };

  checkBool('hit', ray || r.query === 'linetest', r.hit);
  checkBool('inside', r.query === 'contains', r.inside);
  checkT('t', hit, r.t);
  checkT('t_enter', hit, r.t_enter);
  checkT('t_exit', hit, r.t_exit);
  if (r.query === 'closest_point') checkVec('point', true, r.point, 1e-4 * read.scale);
  else checkVec('point', hit, r.point, 1e-4 * read.scale);
  checkVec('normal', hit, r.normal, 1e-4);
  return fails;
}

/**
 * Check every entry of runCases(). Returns {passed, failed, skipped, failures:
 * [{id, field, want, got}], failedIds: [id...], text} where text is the check
 * output (FAIL lines and the summary line) as a byte string.
 */
export function checkCases(entries) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures = [];
  const failedIds = [];
  let text = '';
  for (const { id, caseObject, read, result } of entries) {
    const hasExpect = isObject(caseObject) && caseObject.has('expect');
    if (!hasExpect) { skipped++; continue; }
    const fails = checkCase(caseObject.get('expect'), read, result);
    if (fails.length === 0) { passed++; continue; }
    failed++;
    failedIds.push(id);
    for (const f of fails) {
      failures.push({ id, ...f });
      text += `FAIL ${id === null ? 'null' : jsonString(id)}: ${f.field} expected ${f.want}, got ${f.got}\n`;
    }
  }
  text += `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
  return { passed, failed, skipped, failures, failedIds, text };
}

// ------------------------------------------------------------------ files

/**
 * The "cases" array of a case file's bytes, or a CaseFileError naming `name`
 * (the path as given on the command line).
 */
export function parseCaseFile(bytes, name) {
  const doc = parseCaseJson(bytes);
  if (doc === undefined) throw new CaseFileError(`${name} is not valid JSON`);
  if (member(doc, 'format') !== FORMAT) throw new CaseFileError(`${name}: "format" must be "${FORMAT}"`);
  const cases = member(doc, 'cases');
  if (!Array.isArray(cases)) throw new CaseFileError(`${name}: "cases" must be an array`);
  if (cases.length > MAX_CASES) {
    throw new CaseFileError(`${name}: too many cases (${cases.length}; the limit is ${MAX_CASES})`);
  }
  return cases;
}

/** glibc's strerror() texts for the errors that opening a file for reading can give. */
const STRERROR = {
  EPERM: 'Operation not permitted',
  ENOENT: 'No such file or directory',
  EIO: 'Input/output error',
  ENXIO: 'No such device or address',
  EBADF: 'Bad file descriptor',
  ENOMEM: 'Cannot allocate memory',
  EACCES: 'Permission denied',
  EFAULT: 'Bad address',
  EBUSY: 'Device or resource busy',
  ENODEV: 'No such device',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EINVAL: 'Invalid argument',
  ENFILE: 'Too many open files in system',
  EMFILE: 'Too many open files',
  ETXTBSY: 'Text file busy',
  EFBIG: 'File too large',
  ENOSPC: 'No space left on device',
  EROFS: 'Read-only file system',
  ENAMETOOLONG: 'File name too long',
  ELOOP: 'Too many levels of symbolic links',
  EOVERFLOW: 'Value too large for defined data type',
  EAGAIN: 'Resource temporarily unavailable',
  EINTR: 'Interrupted system call',
};

/**
 * Read a case file as the native runner does (Node only). Returns its bytes or
 * throws CaseFileError: cannot be opened, read error (e.g. a directory), too large.
 */
export async function readCaseFileBytes(path) {
  const fs = await import('node:fs');
  let fd;
  try {
    fd = fs.openSync(path, 'r');
  } catch (e) {
    throw new CaseFileError(`cannot read ${path}: ${STRERROR[e.code] ?? e.message}`);
  }
  try {
    const chunks = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(1 << 20);
      let n;
      try {
        n = fs.readSync(fd, chunk, 0, chunk.length, null);
      } catch {
        throw new CaseFileError(`cannot read ${path}: read error`);
      }
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > MAX_FILE_BYTES) {
        throw new CaseFileError(`${path} is too large (the limit is ${MAX_FILE_BYTES} bytes)`);
      }
    }
    return new Uint8Array(Buffer.concat(chunks, total));
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The whole runner: `mode` is 'run' or 'check'. Returns {stdout (byte string),
 * stderr (text), code} without touching the process.
 */
export async function runCaseFile(api, mode, path) {
  let cases;
  try {
    cases = parseCaseFile(await readCaseFileBytes(path), path);
  } catch (e) {
    if (e instanceof CaseFileError) return { stdout: '', stderr: `slabcast-cases: ${e.message}\n`, code: 2 };
    throw e;
  }
  const entries = runCases(api, cases);
  if (mode === 'check') {
    const c = checkCases(entries);
    return { stdout: c.text, stderr: '', code: c.failed ? 1 : 0, check: c };
  }
  return { stdout: formatResults(entries), stderr: '', code: 0 };
}
