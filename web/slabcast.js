// slabcast.js: the JavaScript face of the slabcast core (web/slabcast.wasm).
//
// One ES module, no dependencies, no bundler: it runs unchanged in Node (>= 20)
// and in browsers. The core is a standalone WebAssembly module (built with
// `emcc --no-entry -sSTANDALONE_WASM`); this file is its whole loader.
//
//   import { loadSlabcast } from './slabcast.js';
//   const sc = await loadSlabcast();
//   sc.raycast({ origin: [0, 0, -5], dir: [0, 0, 1] },
//              { type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] });
//   // -> { hit: true, t: 4, t_enter: 4, t_exit: 6, point: [0, 0, -1], normal: [0, 0, -1] }
//
// Inputs and outputs are the JSON shapes of docs/semantics.md (Case files), with plain JS
// numbers (every number is rounded to float32 on the way in). Inputs are copied
// into the module's scratch area as the C structs of slabcast.h (the C core's header), one export
// is called per query, and the result struct is copied out into fresh JS
// objects: nothing returned aliases wasm memory.
//
// Invalid input throws SlabcastError. Its message is the one the case runners
// print (docs/case-runner.md): structural problems name the field
// ('"ray.origin" must be an array of 3 numbers'), semantic ones are the core's
// sc_status_message ('ray.dir is zero').

/** Thrown for invalid input, for a module that cannot be loaded, and for wasm traps. */
export class SlabcastError extends Error {
  /**
   * @param {string} message
   * @param {{field?: string, status?: number, cause?: unknown}} [details]
   */
  constructor(message, details = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SlabcastError';
    /** The input field at fault, when known (e.g. 'ray.origin'). */
    this.field = details.field;
    /** The core's sc_status, for errors reported by the core. */
    this.status = details.status;
  }
}

/** sc_shape_type values of the C header slabcast.h. */
const SHAPE_TYPES = { aabb: 1, obb: 2, sphere: 3, plane: 4 };

/** Fields of each shape type, in the order in which they are checked and laid out. */
const SHAPE_FIELDS = {
  aabb: [['min', 'vec'], ['max', 'vec']],
  obb: [['center', 'vec'], ['axes', 'axes'], ['half', 'vec']],
  sphere: [['center', 'vec'], ['radius', 'num']],
  plane: [['normal', 'vec'], ['d', 'num']],
};

// Byte offsets inside the scratch area (sc_wasm_scratch, SC_WASM_SCRATCH_BYTES).
const IN_OFF = 0; //      sc_ray (28 bytes) / sc_segment (24) / sc_vec3 (12)
const SHAPE_OFF = 64; //  sc_shape (64)
const OUT_OFF = 128; //   sc_raycast_result (44) / sc_test_result (8) / sc_point_result (16)
const SCRATCH_NEEDED = 192;

/** Longest quoted name in a message, in UTF-8 bytes (docs/case-runner.md). */
const QUOTED_NAME_MAX_BYTES = 64;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8');

// Typed arrays are read through the engine's own accessors, captured here once, never through
// the array's own properties or its prototype chain: an array whose own `length` or
// `byteLength` was redefined (Object.defineProperty), a subclass that overrides them, or a
// later change to Float32Array.prototype cannot make slabcast read or write other bytes than
// the array really has. taKind is the brand check: the typed array's real kind, or undefined.
const apply = Reflect.apply;
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const typedArrayGetter = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
const TA_KIND = typedArrayGetter(Symbol.toStringTag);
const TA_LENGTH = typedArrayGetter('length');
const TA_BYTE_LENGTH = typedArrayGetter('byteLength');
const TA_BYTE_OFFSET = typedArrayGetter('byteOffset');
const TA_BUFFER = typedArrayGetter('buffer');
const TA_SET = TypedArrayPrototype.set;
const F32 = Float32Array;
const I32 = Int32Array;
const taKind = (a) => apply(TA_KIND, a, []);
const taLength = (a) => apply(TA_LENGTH, a, []);
const taByteLength = (a) => apply(TA_BYTE_LENGTH, a, []);
const taByteOffset = (a) => apply(TA_BYTE_OFFSET, a, []);
const taBuffer = (a) => apply(TA_BUFFER, a, []);
/** target.set(source, offset) with the engine's own set (source: a typed array or an array). */
const taSet = (target, source, offset = 0) => apply(TA_SET, target, [source, offset]);

/**
 * The longest prefix of `s` whose UTF-8 form has at most `max` bytes, cut at a
 * character boundary. Lone surrogates count as U+FFFD (3 bytes).
 * @param {string} s
 * @param {number} [max]
 */
export function truncateUtf8(s, max = QUOTED_NAME_MAX_BYTES) {
  if (utf8Encoder.encode(s).length <= max) return s;
  let bytes = 0;
  let end = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + n > max) break;
    bytes += n;
    end += ch.length;
  }
  return s.slice(0, end);
}

function isPlainObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

// Every input is read exactly once, into plain values: a getter or a Proxy cannot
// hand the checks one value and the writer another.

/** The 3 numbers of v (an array or a typed array), copied; null when v is not such a vector. */
function vec3Of(v) {
  const typed = taKind(v) !== undefined;
  if (!(Array.isArray(v) || typed)) return null;
  if ((typed ? taLength(v) : v.length) !== 3) return null;
  const x = v[0];
  const y = v[1];
  const z = v[2];
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') return null;
  return [x, y, z];
}

function fail(message, field) {
  throw new SlabcastError(message, { field });
}

function requireObject(v, name) {
  if (!isPlainObject(v)) fail(`"${name}" must be an object`, name);
}

function requireVec3(v, name) {
  const c = vec3Of(v);
  if (c === null) fail(`"${name}" must be an array of 3 numbers`, name);
  return c;
}

function requireNumber(v, name) {
  if (typeof v !== 'number') fail(`"${name}" must be a number`, name);
  return v;
}

function requireAxes(v, name) {
  const axes = Array.isArray(v) && v.length === 3 ? [vec3Of(v[0]), vec3Of(v[1]), vec3Of(v[2])] : null;
  if (axes === null || axes.includes(null)) fail(`"${name}" must be an array of 3 arrays of 3 numbers`, name);
  return axes;
}

/**
 * Structural checks of a shape, in the order of docs/case-runner.md.
 * Returns a plain copy: {type, ...fields}.
 */
function checkShape(shape) {
  requireObject(shape, 'shape');
  const type = shape.type;
  if (typeof type !== 'string') fail('"shape.type" must be a string', 'shape.type');
  if (!Object.hasOwn(SHAPE_FIELDS, type)) {
    fail(`unknown shape type "${truncateUtf8(type)}"`, 'shape.type');
  }
  const copy = { type };
  for (const [key, kind] of SHAPE_FIELDS[type]) {
    const name = `shape.${key}`;
    const v = shape[key];
    copy[key] = kind === 'vec' ? requireVec3(v, name) : kind === 'num' ? requireNumber(v, name) : requireAxes(v, name);
  }
  return copy;
}

/** Returns a plain copy {origin, dir, tmax} (tmax defaults to Infinity). */
function checkRay(ray) {
  requireObject(ray, 'ray');
  const origin = requireVec3(ray.origin, 'ray.origin');
  const dir = requireVec3(ray.dir, 'ray.dir');
  const t = ray.tmax;
  const tmax = t === undefined ? Infinity : requireNumber(t, 'ray.tmax');
  return { origin, dir, tmax };
}

/** Returns a plain copy {a, b}. */
function checkSegment(segment) {
  requireObject(segment, 'segment');
  const a = requireVec3(segment.a, 'segment.a');
  const b = requireVec3(segment.b, 'segment.b');
  return { a, b };
}

/** e itself when it is a SlabcastError, else a SlabcastError about `what` caused by e. */
function asSlabcastError(e, what) {
  if (e instanceof SlabcastError) return e;
  const message = e !== null && typeof e === 'object' && typeof e.message === 'string' ? e.message : String(e);
  return new SlabcastError(`${what}: ${message}`, { cause: e });
}

/**
 * Wraps every method and getter of obj so that any exception that is not a SlabcastError
 * (a throwing getter or Proxy in the caller's input, say) reaches the caller as a
 * SlabcastError naming the call, with the original as its cause. With a lock, every call
 * enters it first (lock.enter(key) may refuse, or return false to run unlocked) and leaves it
 * when done. Returns obj.
 */
function guardMethods(obj, prefix, lock = null) {
  for (const key of Object.keys(obj)) {
    const d = Object.getOwnPropertyDescriptor(obj, key);
    const what = prefix + key;
    if (typeof d.value === 'function') {
      const f = d.value;
      d.value = {
        [key](...args) {
          const locked = lock !== null && lock.enter(key);
          try { return apply(f, this, args); } catch (e) { throw asSlabcastError(e, what); } finally { if (locked) lock.leave(); }
        },
      }[key];
    } else if (typeof d.get === 'function') {
      const g = d.get;
      d.get = function () {
        const locked = lock !== null && lock.enter(key);
        try { return apply(g, this, []); } catch (e) { throw asSlabcastError(e, what); } finally { if (locked) lock.leave(); }
      };
    } else {
      continue;
    }
    Object.defineProperty(obj, key, d);
  }
  return obj;
}

// ---------------------------------------------------------------------------
// Loading

const isNode = typeof process === 'object' && process !== null &&
  typeof process.versions === 'object' && process.versions !== null &&
  typeof process.versions.node === 'string';

async function readUrl(url) {
  if (url.protocol === 'file:') {
    if (!isNode) throw new SlabcastError(`cannot load ${url.href}: file URLs need Node`);
    // Not a literal specifier, so that bundlers for the browser (Vite, webpack) leave it alone.
    const fsName = 'node:fs/promises';
    const fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName);
    try {
      return await fs.readFile(url);
    } catch (e) {
      throw new SlabcastError(`cannot read ${url.href}: ${e.message}`, { cause: e });
    }
  }
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new SlabcastError(`cannot fetch ${url.href}: ${e.message}`, { cause: e });
  }
  if (!response.ok) {
    throw new SlabcastError(`cannot fetch ${url.href}: HTTP ${response.status}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

function toUrl(src) {
  if (src instanceof URL) return src;
  // A string: an absolute URL, else relative to the page (browsers) or a file path (Node).
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(src) && !/^[a-zA-Z]:[\\/]/.test(src)) return new URL(src);
  if (isNode) {
    const cwd = process.cwd().replace(/\\/g, '/');
    const base = new URL(`file://${cwd.startsWith('/') ? '' : '/'}${cwd}/`);
    return new URL(src.replace(/\\/g, '/'), base);
  }
  const base = typeof document !== 'undefined' && document.baseURI
    ? document.baseURI
    : (typeof location !== 'undefined' ? location.href : import.meta.url);
  return new URL(src, base);
}

/** The compiled module for options.wasm (bytes, URL, path, Response or Module). */
async function compileModule(src) {
  if (src === undefined || src === null) src = new URL('./slabcast.wasm', import.meta.url);
  if (src instanceof WebAssembly.Module) return src;
  let bytes;
  let from = 'options.wasm';
  if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) {
    bytes = src;
  } else if (typeof Response !== 'undefined' && src instanceof Response) {
    if (!src.ok) throw new SlabcastError(`cannot fetch ${src.url}: HTTP ${src.status}`);
    bytes = new Uint8Array(await src.arrayBuffer());
    from = src.url || 'the Response';
  } else if (typeof src === 'string' || src instanceof URL) {
    const url = toUrl(src);
    bytes = await readUrl(url);
    from = url.href;
  } else {
    throw new SlabcastError('options.wasm must be bytes, a URL, a path, a Response or a WebAssembly.Module');
  }
  // A server that answers the .wasm request with a page (a dev server's index.html, a 404 page
  // sent as 200) gets a message that says so, not only the compiler's "expected magic word".
  const head = bytes instanceof ArrayBuffer ? new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength))
    : new Uint8Array(bytes.buffer, bytes.byteOffset, Math.min(4, bytes.byteLength));
  if (!(head.length === 4 && head[0] === 0 && head[1] === 0x61 && head[2] === 0x73 && head[3] === 0x6d)) {
    const text = /^[\t\n\r\x20-\x7e]*$/.test(String.fromCharCode(...head)) && head.length > 0;
    throw new SlabcastError(`${from} is not a WebAssembly module (${bytes.byteLength} bytes${text ? ', starting with text' : ''}): ` +
      'if a server or bundler answered with a page, serve web/slabcast.wasm as application/wasm ' +
      'or pass its real location or bytes as options.wasm');
  }
  try {
    return await WebAssembly.compile(bytes);
  } catch (e) {
    throw new SlabcastError(`slabcast.wasm does not compile: ${e.message}`, { cause: e });
  }
}

const WASI_ENOSYS = 52;

/**
 * Harmless stubs for whatever the standalone module imports. The core does no
 * I/O and never exits; should it try, it gets ENOSYS or a trap (proc_exit).
 */
function makeImports(module) {
  const imports = {};
  for (const { module: ns, name, kind } of WebAssembly.Module.imports(module)) {
    imports[ns] ??= {};
    if (kind === 'function') {
      let f;
      if (name === 'emscripten_notify_memory_growth') {
        f = () => {}; // views are re-derived on every call anyway
      } else if (name === 'proc_exit') {
        f = (code) => { throw new SlabcastError(`slabcast.wasm called proc_exit(${code})`); };
      } else if (ns.startsWith('wasi')) {
        f = () => WASI_ENOSYS;
      } else {
        f = () => { throw new SlabcastError(`slabcast.wasm called the missing import ${ns}.${name}`); };
      }
      imports[ns][name] = f;
    } else if (kind === 'memory') {
      imports[ns][name] = new WebAssembly.Memory({ initial: 256, maximum: 32768 });
    } else if (kind === 'table') {
      imports[ns][name] = new WebAssembly.Table({ initial: 16, element: 'anyfunc' });
    } else if (kind === 'global') {
      imports[ns][name] = 0;
    }
  }
  return imports;
}

const REQUIRED_EXPORTS = [
  'sc_wasm_scratch', 'sc_wasm_scratch_bytes', 'sc_wasm_raycast', 'sc_wasm_linetest',
  'sc_wasm_closest_point', 'sc_wasm_contains', 'sc_wasm_status_message',
];

/**
 * Load the core and return the query API.
 * @param {{wasm?: ArrayBuffer | ArrayBufferView | URL | string | Response | WebAssembly.Module}} [options]
 */
export async function loadSlabcast(options = {}) {
  if (!isPlainObject(options)) throw new SlabcastError('options must be an object ({wasm?})', { field: 'options' });
  let module;
  try {
    module = await compileModule(options.wasm);
  } catch (e) {
    throw asSlabcastError(e, 'loadSlabcast');
  }
  const imports = makeImports(module);
  let instance;
  try {
    instance = await WebAssembly.instantiate(module, imports);
  } catch (e) {
    throw new SlabcastError(`slabcast.wasm does not instantiate: ${e.message}`, { cause: e });
  }
  const ex = instance.exports;
  for (const name of REQUIRED_EXPORTS) {
    if (typeof ex[name] !== 'function') throw new SlabcastError(`slabcast.wasm lacks the export ${name}`);
  }
  let memory = ex.memory;
  if (!(memory instanceof WebAssembly.Memory)) {
    memory = Object.values(imports).flatMap(Object.values)
      .find((v) => v instanceof WebAssembly.Memory);
  }
  if (!(memory instanceof WebAssembly.Memory)) throw new SlabcastError('slabcast.wasm exports no memory');

  let stackTop;
  try {
    if (typeof ex._initialize === 'function') ex._initialize();
    stackTop = typeof ex.stackSave === 'function' ? ex.stackSave() : undefined;
  } catch (e) {
    throw new SlabcastError(`slabcast.wasm failed to initialize: ${e.message}`, { cause: e });
  }

  const scratch = ex.sc_wasm_scratch() >>> 0;
  if (scratch % 16 !== 0 || ex.sc_wasm_scratch_bytes() < SCRATCH_NEEDED) {
    throw new SlabcastError('slabcast.wasm has an unexpected scratch area');
  }

  // Heap views, re-derived whenever the memory has grown (its buffer is replaced).
  //
  // The core's allocator grows the memory by the pages it needs at that moment, so a program
  // that keeps allocating (many worlds) grew it a page at a time; every growth replaces the
  // ArrayBuffer, and the engine counts each new buffer as fresh external memory, so garbage
  // collections came once every few growths and each walked the whole heap: quadratic time
  // (25,000 worlds took a minute). When the memory has grown during a call, it is grown ahead
  // here by a quarter more (geometric), so n allocations cause O(log n) growths.
  let f32 = null;
  let i32 = null;
  let u8 = null;
  function views() {
    let buf = memory.buffer;
    if (f32 === null || f32.buffer !== buf) {
      if (f32 !== null) {
        const pages = buf.byteLength >>> 16;
        try {
          memory.grow(Math.max(16, pages >>> 2));
        } catch {
          // at the maximum: the allocator grows it (or fails) by itself
        }
        buf = memory.buffer;
      }
      f32 = new Float32Array(buf);
      i32 = new Int32Array(buf);
      u8 = new Uint8Array(buf);
    }
  }

  // Call an export; a trap never reaches the caller as anything but a SlabcastError.
  function call(fn, ...args) {
    try {
      return fn(...args);
    } catch (e) {
      if (stackTop !== undefined) {
        try { ex.stackRestore(stackTop); } catch { /* ignore */ }
      }
      if (e instanceof SlabcastError) throw e;
      throw new SlabcastError(`slabcast.wasm trapped: ${e && e.message ? e.message : String(e)}`, { cause: e });
    }
  }

  const messages = new Map();
  function statusMessage(status) {
    let m = messages.get(status);
    if (m === undefined) {
      const p = call(ex.sc_wasm_status_message, status) >>> 0;
      views();
      let end = p;
      while (end < u8.length && u8[end] !== 0) end++;
      m = p === 0 ? `status ${status}` : utf8Decoder.decode(u8.slice(p, end));
      messages.set(status, m);
    }
    return m;
  }

  function checkStatus(status) {
    if (status !== 0) throw new SlabcastError(statusMessage(status), { status });
  }

  function writeVec(word, v) {
    f32[word] = v[0];
    f32[word + 1] = v[1];
    f32[word + 2] = v[2];
  }

  /** Writes a checked shape (the copy checkShape returns). */
  function writeShape(shape) {
    const w = (scratch + SHAPE_OFF) >> 2;
    for (let i = 0; i < 16; i++) i32[w + i] = 0;
    i32[w] = SHAPE_TYPES[shape.type];
    switch (shape.type) {
      case 'aabb':
        writeVec(w + 1, shape.min);
        writeVec(w + 4, shape.max);
        break;
      case 'obb':
        writeVec(w + 1, shape.center);
        writeVec(w + 4, shape.axes[0]);
        writeVec(w + 7, shape.axes[1]);
        writeVec(w + 10, shape.axes[2]);
        writeVec(w + 13, shape.half);
        break;
      case 'sphere':
        writeVec(w + 1, shape.center);
        f32[w + 4] = shape.radius;
        break;
      case 'plane':
        writeVec(w + 1, shape.normal);
        f32[w + 4] = shape.d;
        break;
    }
  }

  function readVec(word) {
    return [f32[word], f32[word + 1], f32[word + 2]];
  }


  // -------------------------------------------------------------------------
  // Worlds: many objects in wasm memory, one call per batch.

  const KIND = { aabb: 1, obb: 2, sphere: 3 }; // sc_shape_type, as everywhere in the core
  const FLOATS = { aabb: 6, obb: 15, sphere: 4 };
  const BATCH_NAME = { aabb: 'boxes', obb: 'obbs', sphere: 'spheres' };
  const hasWorld = typeof ex.sc_wasm_world_create === 'function';

  // One staging area, grown on demand and reused by every world: inputs are copied in,
  // the call runs, outputs are copied out. Never handed out.
  let stagePtr = 0;
  let stageBytes = 0;
  function stage(bytes) {
    if (bytes <= stageBytes) return stagePtr;
    const want = Math.max(bytes, stageBytes * 2, 65536);
    if (stagePtr) call(ex.sc_wasm_free, stagePtr);
    stagePtr = 0;
    stageBytes = 0;
    const p = call(ex.sc_wasm_alloc, want) >>> 0;
    if (p === 0) throw new SlabcastError(`out of memory: cannot stage ${bytes} bytes in wasm memory`);
    stagePtr = p;
    stageBytes = want;
    return p;
  }

  const MAX_BATCH_ITEMS = 16777216;

  /**
   * A Float32Array of a batch (the caller's own, or a copy), checked for type and length.
   * A batch that lives in slabcast's own wasm memory is copied: staging may grow the
   * memory, which detaches that buffer.
   */
  function floatBatch(data, per, name) {
    let a;
    const kind = taKind(data);
    if (kind === 'Float32Array' || kind === 'Float64Array') {
      // Our own copy when it lives in slabcast's memory (staging may grow it and detach it) or
      // needs converting; the caller's array itself otherwise (read only through taSet).
      a = kind === 'Float32Array' && taBuffer(data) !== memory.buffer ? data : new F32(taLength(data));
      if (a !== data) taSet(a, data);
    } else if (Array.isArray(data)) {
      const length = data.length;
      if (length % per === 0 && length / per > MAX_BATCH_ITEMS) {
        fail(`${name} holds too many items (the limit is ${MAX_BATCH_ITEMS})`, name);
      }
      a = new F32(length);
      for (let i = 0; i < length; i++) {
        const v = data[i];
        if (typeof v !== 'number') fail(`${name}[${i}] must be a number`, name);
        a[i] = v;
      }
    } else {
      fail(`${name} must be a Float32Array (${per} floats per item)`, name);
    }
    const length = taLength(a);
    if (length % per !== 0) fail(`${name} must hold ${per} floats per item; its length ${length} is not a multiple of ${per}`, name);
    if (length / per > MAX_BATCH_ITEMS) fail(`${name} holds too many items (the limit is ${MAX_BATCH_ITEMS})`, name);
    return a;
  }

  function checkOut(out) {
    if (out !== undefined && out !== null && (typeof out !== 'object' || Array.isArray(out) || taKind(out) !== undefined)) {
      fail('out must be an object of typed arrays ({t, index, normal})', 'out');
    }
  }

  /** Checks a caller's output array `name`: a Type, not a view of slabcast's memory, at least `length` long. */
  function callerArray(a, Type, name, length) {
    if (taKind(a) !== Type.name) fail(`${name} must be a ${Type.name}`, name);
    if (taBuffer(a) === memory.buffer) fail(`${name} must not be a view of slabcast's wasm memory`, name);
    const have = taLength(a);
    if (have < length) fail(`${name} must hold at least ${length} items; it holds ${have}`, name);
    return a;
  }

  /** out[key] when given (checked), else a new array; never a view of slabcast's memory. */
  function outArray(out, key, Type, length) {
    const a = out === undefined || out === null ? undefined : out[key];
    return a === undefined ? new Type(length) : callerArray(a, Type, `out.${key}`, length);
  }

  /** Refuses output arrays that share bytes: one result would overwrite another. */
  function requireDisjoint(named) {
    for (let i = 0; i < named.length; i++) {
      for (let j = i + 1; j < named.length; j++) {
        const [na, a] = named[i];
        const [nb, b] = named[j];
        if (taBuffer(a) !== taBuffer(b)) continue;
        const ao = taByteOffset(a);
        const bo = taByteOffset(b);
        if (ao < bo + taByteLength(b) && bo < ao + taByteLength(a)) {
          fail(`out.${na} and out.${nb} overlap`, `out.${nb}`);
        }
      }
    }
  }

  /** Copies count items of type Type (F32 or I32) at byte address ptr into the caller's array. */
  function copyOut(target, Type, ptr, count) {
    taSet(target, new Type(memory.buffer, ptr, count));
  }

  const registry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((ptr) => { try { ex.sc_wasm_world_destroy(ptr); } catch { /* ignore */ } })
    : null;

  function createWorld() {
    if (!hasWorld) throw new SlabcastError('this slabcast.wasm was built without worlds');
    let ptr = call(ex.sc_wasm_world_create) >>> 0;
    if (ptr === 0) throw new SlabcastError('out of memory: cannot create a world');
    const token = {};
    if (registry) registry.register(token, ptr, token);

    function live() {
      if (ptr === 0) throw new SlabcastError('the world has been disposed');
      return ptr;
    }

    function worldStatus(status, name) {
      if (status === 0) return;
      const i = call(ex.sc_wasm_error_index);
      const where = i >= 0 ? `${name}[${i}]: ` : `${name}: `;
      throw new SlabcastError(where + statusMessage(status), { status, field: name });
    }

    function add(kind, data) {
      const w = live();
      const name = BATCH_NAME[kind];
      const a = floatBatch(data, FLOATS[kind], name);
      const n = taLength(a) / FLOATS[kind];
      const bytes = taByteLength(a);
      const p = stage(bytes + 16);
      views();
      taSet(f32, a, p >> 2);
      const firstPtr = p + bytes;
      const status = call(ex.sc_wasm_world_add, w, KIND[kind], p, n, firstPtr);
      views();
      worldStatus(status, name);
      return n === 0 ? call(ex.sc_wasm_world_count, w) : i32[firstPtr >> 2];
    }

    function update(kind, first, data) {
      const w = live();
      const name = BATCH_NAME[kind];
      if (!Number.isInteger(first) || first < 0 || first > 0x7fffffff) fail('first must be an integer in [0, 2147483647]', 'first');
      const a = floatBatch(data, FLOATS[kind], name);
      const n = taLength(a) / FLOATS[kind];
      const p = stage(taByteLength(a));
      views();
      taSet(f32, a, p >> 2);
      const status = call(ex.sc_wasm_world_update, w, KIND[kind], first, p, n);
      views();
      worldStatus(status, name);
    }

    // Casts a batch (rays: 7 floats each, segments: 6) and copies t, index, normal out.
    function cast(fn, data, per, name, out) {
      const w = live();
      const a = floatBatch(data, per, name);
      const n = taLength(a) / per;
      checkOut(out);
      const t = outArray(out, 't', Float32Array, n);
      const index = outArray(out, 'index', Int32Array, n);
      const normal = outArray(out, 'normal', Float32Array, 3 * n);
      requireDisjoint([['t', t], ['index', index], ['normal', normal]]);
      const bytes = taByteLength(a);
      const p = stage(bytes + 20 * n);
      views();
      taSet(f32, a, p >> 2);
      const tPtr = p + bytes;
      const iPtr = tPtr + 4 * n;
      const nPtr = iPtr + 4 * n;
      const status = call(fn, w, p, n, tPtr, iPtr, nPtr);
      views();
      worldStatus(status, name);
      copyOut(t, F32, tPtr, n);
      copyOut(index, I32, iPtr, n);
      copyOut(normal, F32, nPtr, 3 * n);
      return { t, index, normal };
    }

    // The world is locked while one of its calls runs: a getter, Proxy trap or callback of the
    // call's own input that reaches this world again (dispose, add, update, another query) is
    // refused before it changes anything, so no call ever runs on memory freed or moved under
    // it. `disposed` stays readable.
    let busy = null;
    const lock = {
      enter(key) {
        if (key === 'disposed') return false;
        if (busy !== null) {
          throw new SlabcastError(`world.${key}: the world is busy: called from inside world.${busy} ` +
            '(a getter, Proxy or callback of its input); nothing was changed', { field: key });
        }
        busy = key;
        return true;
      },
      leave() { busy = null; },
    };

    return guardMethods({
      /** Adds AABBs (6 floats each: min xyz, max xyz); returns the index of the first. */
      addAABBs(boxes) { return add('aabb', boxes); },
      /** Adds OBBs (15 floats each: center, axes[0..2], half); returns the index of the first. */
      addOBBs(obbs) { return add('obb', obbs); },
      /** Adds spheres (4 floats each: center, radius); returns the index of the first. */
      addSpheres(spheres) { return add('sphere', spheres); },
      /** Replaces AABBs first.. (they must be AABBs). */
      updateAABBs(first, boxes) { update('aabb', first, boxes); },
      /** Replaces OBBs first.. (they must be OBBs). */
      updateOBBs(first, obbs) { update('obb', first, obbs); },
      /** Replaces spheres first.. (they must be spheres). */
      updateSpheres(first, spheres) { update('sphere', first, spheres); },
      /** Rebuilds the BVH after adds, refits it after updates (queries do it by themselves). */
      commit() { const w = live(); worldStatus(call(ex.sc_wasm_world_commit, w), 'commit'); views(); },
      /** Refits the BVH to moved objects now (queries do it by themselves when needed). */
      refit() { const w = live(); worldStatus(call(ex.sc_wasm_world_refit, w), 'refit'); views(); },
      /** Rebuilds the BVH now (queries do it by themselves after adds). */
      build() { const w = live(); worldStatus(call(ex.sc_wasm_world_build, w), 'build'); views(); },
      /** Nearest hit per ray (7 floats each: origin, dir, tmax). */
      castRays(rays, out) { return cast(ex.sc_wasm_world_cast_rays, rays, 7, 'rays', out); },
      /** castRays without the BVH (every object against every ray), for checks and benchmarks. */
      castRaysBruteForce(rays, out) { return cast(ex.sc_wasm_world_cast_rays_bruteforce, rays, 7, 'rays', out); },
      /** Nearest hit along each segment (6 floats each: a, b), t in [0, 1]. */
      castSegments(segments, out) { return cast(ex.sc_wasm_world_cast_segments, segments, 6, 'segments', out); },
      /**
       * Every object one ray (7 floats: origin, dir, tmax) hits within [0, tmax], nearest first
       * (ties by index), t as castRays'. count is the number of hits. With out, its arrays are
       * filled up to the room of the smallest (normal: 3 floats per hit) and count may exceed it.
       */
      castRayAll(ray, out) {
        const w = live();
        const a = floatBatch(ray, 7, 'ray');
        if (taLength(a) !== 7) fail(`ray must hold 7 floats (origin xyz, dir xyz, tmax); it holds ${taLength(a)}`, 'ray');
        checkOut(out);
        const given = [];
        let room = Infinity;
        for (const [key, Type, per] of [['t', Float32Array, 1], ['index', Int32Array, 1], ['normal', Float32Array, 3]]) {
          const v = out === undefined || out === null ? undefined : out[key];
          if (v === undefined) continue;
          given.push([key, callerArray(v, Type, `out.${key}`, 0)]);
          room = Math.min(room, Math.floor(taLength(v) / per));
        }
        requireDisjoint(given);
        const fixed = room !== Infinity;
        if (!fixed) room = 16; // grown to the count and cast again when short
        for (;;) {
          const p = stage(32 + 20 * room);
          views();
          taSet(f32, a, p >> 2);
          const totalPtr = p + 28;
          const tPtr = p + 32;
          const iPtr = tPtr + 4 * room;
          const nPtr = iPtr + 4 * room;
          const status = call(ex.sc_wasm_world_cast_ray_all, w, p, room, tPtr, iPtr, nPtr, totalPtr);
          views();
          worldStatus(status, 'ray');
          const count = i32[totalPtr >> 2];
          if (!fixed && count > room) { room = count; continue; }
          const m = Math.min(count, room);
          const res = Object.fromEntries(given);
          const t = res.t ?? new Float32Array(m);
          const index = res.index ?? new Int32Array(m);
          const normal = res.normal ?? new Float32Array(3 * m);
          copyOut(t, F32, tPtr, m);
          copyOut(index, I32, iPtr, m);
          copyOut(normal, F32, nPtr, 3 * m);
          return { t, index, normal, count };
        }
      },
      /** Whether each ray hits anything within [0, tmax] (stops at the first hit). */
      anyHit(rays, out) {
        const w = live();
        const a = floatBatch(rays, 7, 'rays');
        const n = taLength(a) / 7;
        const hit = out === undefined ? new Uint8Array(n) : callerArray(out, Uint8Array, 'out', n);
        const bytes = taByteLength(a);
        const p = stage(bytes + 4 * n);
        views();
        taSet(f32, a, p >> 2);
        const hPtr = p + bytes;
        const status = call(ex.sc_wasm_world_any_hit, w, p, n, hPtr);
        views();
        worldStatus(status, 'rays');
        for (let i = 0; i < n; i++) hit[i] = i32[(hPtr >> 2) + i];
        return hit;
      },
      /** The number of objects. */
      get count() { return call(ex.sc_wasm_world_count, live()) >>> 0; },
      /** Bytes of wasm memory the world holds. */
      get bytes() { return call(ex.sc_wasm_world_bytes, live()) >>> 0; },
      /** Whether dispose() has been called. */
      get disposed() { return ptr === 0; },
      /** Frees the world; later calls throw, a second dispose does nothing. */
      dispose() {
        if (ptr === 0) return;
        const p = ptr;
        ptr = 0;
        if (registry) registry.unregister(token);
        call(ex.sc_wasm_world_destroy, p);
      },
    }, 'world.', lock);
  }

  const inPtr = scratch + IN_OFF;
  const shapePtr = scratch + SHAPE_OFF;
  const outPtr = scratch + OUT_OFF;
  const outWord = outPtr >> 2;

  // A query of a point against a shape: checks, writes the inputs, calls fn, checks the status.
  // The result struct is left at outWord for the caller to read.
  function pointQuery(fn, point, shape) {
    const p = requireVec3(point, 'point');
    const s = checkShape(shape);
    views();
    writeVec(inPtr >> 2, p);
    writeShape(s);
    call(fn, inPtr, shapePtr, outPtr);
    views();
    checkStatus(i32[outWord]);
  }

  return guardMethods({
    /** The module's WebAssembly.Memory (grows; never cache views of it). */
    memory,

    /** A new, empty world of boxes, OBBs and spheres for batch queries. */
    createWorld,

    /** The SIMD backend of the world kernels ("wasm-simd128" or "scalar"). */
    get simd() {
      if (typeof ex.sc_wasm_world_simd !== 'function') return 'none';
      const p = call(ex.sc_wasm_world_simd) >>> 0;
      views();
      let end = p;
      while (u8[end] !== 0) end++;
      return utf8Decoder.decode(u8.slice(p, end));
    },

    /** The core's message for an sc_status value. */
    statusMessage(status) {
      if (!Number.isInteger(status) || status < -2147483648 || status > 2147483647) {
        fail('status must be a 32-bit integer', 'status');
      }
      return statusMessage(status);
    },

    raycast(ray, shape) {
      const r = checkRay(ray);
      const s = checkShape(shape);
      views();
      const w = inPtr >> 2;
      writeVec(w, r.origin);
      writeVec(w + 3, r.dir);
      f32[w + 6] = r.tmax;
      writeShape(s);
      call(ex.sc_wasm_raycast, inPtr, shapePtr, outPtr);
      views();
      checkStatus(i32[outWord]);
      if (i32[outWord + 1] === 0) return { hit: false };
      return {
        hit: true,
        t: f32[outWord + 2],
        t_enter: f32[outWord + 3],
        t_exit: f32[outWord + 4],
        point: readVec(outWord + 5),
        normal: readVec(outWord + 8),
      };
    },

    linetest(segment, shape) {
      const g = checkSegment(segment);
      const s = checkShape(shape);
      views();
      const w = inPtr >> 2;
      writeVec(w, g.a);
      writeVec(w + 3, g.b);
      writeShape(s);
      call(ex.sc_wasm_linetest, inPtr, shapePtr, outPtr);
      views();
      checkStatus(i32[outWord]);
      return { hit: i32[outWord + 1] !== 0 };
    },

    closestPoint(point, shape) {
      pointQuery(ex.sc_wasm_closest_point, point, shape);
      return { point: readVec(outWord + 1) };
    },

    contains(point, shape) {
      pointQuery(ex.sc_wasm_contains, point, shape);
      return { inside: i32[outWord + 1] !== 0 };
    },
  }, '');
}
