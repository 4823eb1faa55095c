// loader.js: finds, compiles and instantiates slabcast.wasm, and wraps the instance as a Core:
// its exports, its memory with heap views re-derived after every growth, calls that turn traps
// into SlabcastErrors, the core's status messages, and one staging area for batches.
//
// The core is a standalone WebAssembly module (built with `emcc --no-entry -sSTANDALONE_WASM`):
// it imports nothing it needs, so this file is its whole loader, in Node and in browsers.
import { SlabcastError, asSlabcastError } from './errors.js';

const utf8Decoder = new TextDecoder('utf-8');

const isNode = typeof process === 'object' && process !== null &&
  typeof process.versions === 'object' && process.versions !== null &&
  typeof process.versions.node === 'string';

async function readFileUrl(url) {
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

async function readUrl(url) {
  if (url.protocol === 'file:') return readFileUrl(url);
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

/** The bytes of options.wasm and where they came from (for messages). */
async function wasmBytes(src) {
  if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) return { bytes: src, from: 'options.wasm' };
  if (typeof Response !== 'undefined' && src instanceof Response) {
    if (!src.ok) throw new SlabcastError(`cannot fetch ${src.url}: HTTP ${src.status}`);
    return { bytes: new Uint8Array(await src.arrayBuffer()), from: src.url || 'the Response' };
  }
  if (typeof src === 'string' || src instanceof URL) {
    const url = toUrl(src);
    return { bytes: await readUrl(url), from: url.href };
  }
  throw new SlabcastError('options.wasm must be bytes, a URL, a path, a Response or a WebAssembly.Module');
}

/**
 * Refuses bytes that are not a wasm module. A server that answers the .wasm request with a page
 * (a dev server's index.html, a 404 page sent as 200) gets a message that says so, not only the
 * compiler's "expected magic word".
 */
function requireWasmMagic(bytes, from) {
  const head = bytes instanceof ArrayBuffer ? new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength))
    : new Uint8Array(bytes.buffer, bytes.byteOffset, Math.min(4, bytes.byteLength));
  if (head.length === 4 && head[0] === 0 && head[1] === 0x61 && head[2] === 0x73 && head[3] === 0x6d) return;
  const text = /^[\t\n\r\x20-\x7e]*$/.test(String.fromCharCode(...head)) && head.length > 0;
  throw new SlabcastError(`${from} is not a WebAssembly module (${bytes.byteLength} bytes${text ? ', starting with text' : ''}): ` +
    'if a server or bundler answered with a page, serve web/slabcast.wasm as application/wasm ' +
    'or pass its real location or bytes as options.wasm');
}

/**
 * The compiled module for options.wasm (bytes, URL, path, Response or Module); `fallback` is
 * the URL used when src is undefined or null (default: slabcast.wasm beside slabcast.js).
 */
export async function compileModule(src, fallback = new URL('../slabcast.wasm', import.meta.url)) {
  if (src === undefined || src === null) src = fallback;
  if (src instanceof WebAssembly.Module) return src;
  const { bytes, from } = await wasmBytes(src);
  requireWasmMagic(bytes, from);
  try {
    return await WebAssembly.compile(bytes);
  } catch (e) {
    throw new SlabcastError(`slabcast.wasm does not compile: ${e.message}`, { cause: e });
  }
}

const WASI_ENOSYS = 52;

/** A stub for an imported function: the core does no I/O and never exits. */
function importedFunction(ns, name) {
  if (name === 'emscripten_notify_memory_growth') return () => {}; // views are re-derived anyway
  if (name === 'proc_exit') return (code) => { throw new SlabcastError(`slabcast.wasm called proc_exit(${code})`); };
  if (ns.startsWith('wasi')) return () => WASI_ENOSYS;
  return () => { throw new SlabcastError(`slabcast.wasm called the missing import ${ns}.${name}`); };
}

/**
 * Harmless stubs for whatever the standalone module imports. Should the core try I/O it gets
 * ENOSYS, or a trap (proc_exit).
 */
export function makeImports(module, memory = null) {
  const imports = {};
  for (const { module: ns, name, kind } of WebAssembly.Module.imports(module)) {
    imports[ns] ??= {};
    if (kind === 'function') imports[ns][name] = importedFunction(ns, name);
    else if (kind === 'memory') imports[ns][name] = memory ?? new WebAssembly.Memory({ initial: 256, maximum: 32768 });
    else if (kind === 'table') imports[ns][name] = new WebAssembly.Table({ initial: 16, element: 'anyfunc' });
    else if (kind === 'global') imports[ns][name] = 0;
  }
  return imports;
}

const REQUIRED_EXPORTS = [
  'sc_wasm_scratch', 'sc_wasm_scratch_bytes', 'sc_wasm_raycast', 'sc_wasm_linetest',
  'sc_wasm_closest_point', 'sc_wasm_contains', 'sc_wasm_status_message',
];

/** Bytes of the scratch area the single queries use (sc_wasm_scratch). */
export const SCRATCH_NEEDED = 256;

/** The instance's memory: exported, or else the one given as an import. */
function findMemory(ex, imports) {
  let memory = ex.memory;
  if (!(memory instanceof WebAssembly.Memory)) {
    memory = Object.values(imports).flatMap(Object.values).find((v) => v instanceof WebAssembly.Memory);
  }
  if (!(memory instanceof WebAssembly.Memory)) throw new SlabcastError('slabcast.wasm exports no memory');
  return memory;
}

/**
 * The most bytes one staging area may have: sc_wasm_alloc takes an int32, and slabcast's wasm
 * memory is at most 2 GiB (CMakeLists.txt, MAXIMUM_MEMORY). A larger count would wrap to a small
 * one on its way into wasm, and the area the JS side then wrote would be far larger than the
 * block the core gave: heap corruption.
 */
export const MAX_STAGE_BYTES = 0x7fff0000;

/**
 * Refuses a staging size that cannot be allocated in wasm memory, before anything is allocated
 * or copied: a SlabcastError (the call changed nothing).
 */
export function checkStageBytes(bytes) {
  if (!(Number.isSafeInteger(bytes) && bytes >= 0 && bytes <= MAX_STAGE_BYTES)) {
    throw new SlabcastError(`out of memory: the call needs ${bytes} bytes of wasm memory for its input and output, ` +
      `more than the ${MAX_STAGE_BYTES} slabcast can stage (its memory is at most 2 GiB); nothing was changed`);
  }
}

/**
 * One instance of the core. Its heap views (f32, i32, u8) are valid only until the next call
 * into wasm: call views() after every call that may allocate, and never keep a view.
 */
export class Core {
  constructor(ex, memory) {
    /** The instance's exports. */
    this.ex = ex;
    /** The instance's WebAssembly.Memory. */
    this.memory = memory;
    this.f32 = null;
    this.i32 = null;
    this.u8 = null;
    this.stackTop = undefined;
    this.scratch = 0;
    this.messages = new Map();
    this.stagePtr = 0;
    this.stageBytes = 0;
  }

  /** Runs the module's initialisers and finds its scratch area. */
  init() {
    const ex = this.ex;
    try {
      if (typeof ex._initialize === 'function') ex._initialize();
      this.stackTop = typeof ex.stackSave === 'function' ? ex.stackSave() : undefined;
    } catch (e) {
      throw new SlabcastError(`slabcast.wasm failed to initialize: ${e.message}`, { cause: e });
    }
    this.scratch = ex.sc_wasm_scratch() >>> 0;
    if (this.scratch % 16 !== 0 || ex.sc_wasm_scratch_bytes() < SCRATCH_NEEDED) {
      throw new SlabcastError('slabcast.wasm has an unexpected scratch area');
    }
    this.views();
  }

  /**
   * Re-derives the heap views when the memory has grown (its buffer is replaced).
   *
   * The core's allocator grows the memory by the pages it needs at that moment, so a program
   * that keeps allocating (many worlds) grew it a page at a time; every growth replaces the
   * ArrayBuffer, and the engine counts each new buffer as fresh external memory, so garbage
   * collections came once every few growths and each walked the whole heap: quadratic time
   * (25,000 worlds took a minute). When the memory has grown during a call, it is grown ahead
   * here by a quarter more (geometric), so n allocations cause O(log n) growths.
   */
  views() {
    let buf = this.memory.buffer;
    if (this.f32 !== null && this.f32.buffer === buf) return;
    if (this.f32 !== null) {
      const pages = buf.byteLength >>> 16;
      try {
        this.memory.grow(Math.max(16, pages >>> 2));
      } catch {
        // at the maximum: the allocator grows it (or fails) by itself
      }
      buf = this.memory.buffer;
    }
    this.f32 = new Float32Array(buf);
    this.i32 = new Int32Array(buf);
    this.u8 = new Uint8Array(buf);
  }

  /** Calls an export; a trap never reaches the caller as anything but a SlabcastError. */
  call(fn, ...args) {
    try {
      return fn(...args);
    } catch (e) {
      if (this.stackTop !== undefined) {
        try { this.ex.stackRestore(this.stackTop); } catch { /* ignore */ }
      }
      if (e instanceof SlabcastError) throw e;
      throw new SlabcastError(`slabcast.wasm trapped: ${e && e.message ? e.message : String(e)}`, { cause: e });
    }
  }

  /** The NUL-terminated UTF-8 string at byte address p. */
  cString(p) {
    this.views();
    const u8 = this.u8;
    let end = p;
    while (end < u8.length && u8[end] !== 0) end++;
    return utf8Decoder.decode(u8.slice(p, end));
  }

  /** The core's message for an sc_status (cached). */
  statusMessage(status) {
    let m = this.messages.get(status);
    if (m === undefined) {
      const p = this.call(this.ex.sc_wasm_status_message, status) >>> 0;
      m = p === 0 ? `status ${status}` : this.cString(p);
      this.messages.set(status, m);
    }
    return m;
  }

  /** Throws the core's message for a status other than SC_OK. */
  checkStatus(status) {
    if (status !== 0) throw new SlabcastError(this.statusMessage(status), { status });
  }

  /**
   * The byte address of a staging area of at least `bytes`, grown on demand and reused by
   * every world: inputs are copied in, the call runs, outputs are copied out. Never handed out.
   */
  stage(bytes) {
    checkStageBytes(bytes);
    if (bytes <= this.stageBytes) return this.stagePtr;
    const want = Math.min(Math.max(bytes, this.stageBytes * 2, 65536), MAX_STAGE_BYTES);
    if (this.stagePtr) this.call(this.ex.sc_wasm_free, this.stagePtr);
    this.stagePtr = 0;
    this.stageBytes = 0;
    const p = this.call(this.ex.sc_wasm_alloc, want) >>> 0;
    if (p === 0) throw new SlabcastError(`out of memory: cannot stage ${bytes} bytes in wasm memory`);
    this.stagePtr = p;
    this.stageBytes = want;
    return p;
  }
}

/**
 * Compiles and instantiates options.wasm (default: slabcast.wasm beside slabcast.js) as a Core.
 * memory: the WebAssembly.Memory to give a module that imports its memory (the shared-memory
 * build, web/parallel/); otherwise a new one.
 */
export async function instantiateCore(wasm, memory = null) {
  let module;
  try {
    module = await compileModule(wasm);
  } catch (e) {
    throw asSlabcastError(e, 'loadSlabcast');
  }
  const imports = makeImports(module, memory);
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
  const core = new Core(ex, findMemory(ex, imports));
  core.init();
  return core;
}
