// parallel.js: slabcast on more than one core (docs/parallel.md). createParallelWorld starts a
// pool of workers (Web Workers, or worker_threads in Node) around one world and answers its
// batch queries there, the rays of one call split across the workers, every answer bit for bit
// the single-threaded world's.
//
//   import { createParallelWorld } from 'slabcast/parallel';
//   const world = await createParallelWorld({ workers: 4 });
//   world.addAABBs(boxes);                        // changes: synchronous, as on a World
//   const { t, index } = await world.castRays(rays);
//   await world.dispose();
//
// Two memory modes, chosen at start (world.memoryMode):
//   'shared'  Node, or a cross-origin isolated page: one world in a shared WebAssembly.Memory
//             (slabcast-mt.wasm), queried by every worker in place (shared.js).
//   'copied'  elsewhere: every worker holds a replica, kept up to date by deltas (copied.js).
// Changes are checked on the calling thread by a real World (world.js), so bad input gets the
// same SlabcastError as on a World before anything reaches a worker; a change while a query is
// pending is refused. Queries are serialised: each sees every change made before it was called.
import { SlabcastError, fail, guardMethods } from './core/errors.js';
import { compileModule, instantiateCore } from './core/loader.js';
import { taBuffer, taByteLength, taCopy, taKind, taLength } from './core/typed.js';
import {
  batchItems, callerArray, checkOut, floatBatch, givenOrNew, isPlainObject, outRef, requireDisjoint, requireRoom,
} from './core/validate.js';
import { checkFilter, createWorld, readOptions as readQueryOptions, worldState } from './core/world.js';
import { CopiedEngine, Mirror } from './parallel/copied.js';
import { coreCount, sharedMemoryAllowed } from './parallel/env.js';
import { coreLists } from './parallel/lists.js';
import { FAULT, OUT, QUERY, isList } from './parallel/protocol.js';
import { SharedEngine } from './parallel/shared.js';

export { SlabcastError };

const MT_WASM = new URL('./slabcast-mt.wasm', import.meta.url);
/** Pages of the shared memory: 16 MiB to start, 2 GiB at most (the builds' own limits). */
const SHARED_PAGES = { initial: 256, maximum: 32768 };
const MAX_WORKERS = 64;
const OPTION_KEYS = ['workers', 'memory', 'wasm', 'sharedWasm', 'timeout', 'spin', 'inline'];
const INSIDE_NAME = ['solid', 'skip', 'exit'];
/** Batches of at most this many rays (an item of another query counts as QUERY's weight) run on the calling thread. */
const INLINE_DEFAULT = 256;
const FLOATS = { aabb: 6, obb: 15, sphere: 4, capsule: 7 };
const BATCH_NAME = { aabb: 'boxes', obb: 'obbs', sphere: 'spheres', capsule: 'capsules' };
const ADD = { aabb: 'addAABBs', obb: 'addOBBs', sphere: 'addSpheres', capsule: 'addCapsules' };
const UPDATE = { aabb: 'updateAABBs', obb: 'updateOBBs', sphere: 'updateSpheres', capsule: 'updateCapsules' };

/** The checked options, with defaults. */
async function readOptions(options) {
  if (!isPlainObject(options)) fail('options must be an object ({workers, memory, wasm, sharedWasm, timeout, spin, inline})', 'options');
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) fail(`options.${key} is not an option (${OPTION_KEYS.join(', ')})`, `options.${key}`);
  }
  let { workers, memory = 'auto', timeout = 10000, spin = 2000, inline = INLINE_DEFAULT } = options;
  if (workers === undefined) workers = Math.min(4, await coreCount());
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) fail(`options.workers must be an integer from 1 to ${MAX_WORKERS}`, 'options.workers');
  if (memory !== 'auto' && memory !== 'shared' && memory !== 'copied') fail("options.memory must be 'auto', 'shared' or 'copied'", 'options.memory');
  if (typeof timeout !== 'number' || !(timeout > 0)) fail('options.timeout must be a number of milliseconds > 0 (Infinity for none)', 'options.timeout');
  if (!Number.isInteger(spin) || spin < 0 || spin > 1e7) fail('options.spin must be an integer from 0 to 10000000', 'options.spin');
  if (!Number.isInteger(inline) || inline < 0 || inline > 2 ** 30) fail('options.inline must be an integer from 0 to 1073741824 (rays)', 'options.inline');
  const shared = sharedMemoryAllowed();
  if (memory === 'shared' && !shared) {
    fail("options.memory is 'shared' but this page cannot share memory with workers: it must be cross-origin isolated " +
      '(served with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp; docs/parallel.md)', 'options.memory');
  }
  const mode = memory === 'auto' ? (shared ? 'shared' : 'copied') : memory;
  return { workers, mode, timeout, spin, inline, wasm: options.wasm, sharedWasm: options.sharedWasm };
}

/** The main thread's core and world for a mode. */
async function mainWorld(o) {
  if (o.mode === 'shared') {
    const module = await compileModule(o.sharedWasm, MT_WASM);
    const memory = new WebAssembly.Memory({ ...SHARED_PAGES, shared: true });
    const core = await instantiateCore(module, memory);
    if (!(core.memory.buffer instanceof SharedArrayBuffer)) throw new SlabcastError('options.sharedWasm is not the shared-memory build (slabcast-mt.wasm)');
    return { module, core };
  }
  const module = await compileModule(o.wasm);
  return { module, core: await instantiateCore(module) };
}

/**
 * A new, empty world whose batch queries run on `workers` workers. Resolves when they have
 * started. options: {workers, memory: 'auto'|'shared'|'copied', wasm, sharedWasm, timeout}.
 */
export async function createParallelWorld(options = {}) {
  const o = await readOptions(options);
  const { module, core } = await mainWorld(o);
  const world = createWorld(core);
  const s = {
    o, core, world, ws: worldState(world), module,
    mirror: o.mode === 'copied' ? new Mirror() : null,
    engine: null, pending: 0, inlinePending: 0, tail: Promise.resolve(), disposed: false, failed: null, split: undefined,
  };
  s.engine = makeEngine(s);
  try {
    await s.engine.start();
  } catch (e) {
    await s.engine.stop(e);
    world.dispose();
    throw e;
  }
  return makeApi(s);
}

function makeEngine(s) {
  return s.o.mode === 'shared'
    ? new SharedEngine(s.core, s.ws, s.module, s.o.workers, s.o.timeout, s.o.spin)
    : new CopiedEngine(s.core, s.module, s.o.workers, s.o.timeout, s.mirror, s.split);
}

function live(s) {
  if (s.disposed) throw new SlabcastError('the parallel world has been disposed');
}

/** Changes are refused while a query is pending: the workers may be reading the world. */
function changing(s, what) {
  live(s);
  if (s.pending > 0) {
    throw new SlabcastError(`world.${what}: ${s.pending} ${s.pending === 1 ? 'query is' : 'queries are'} pending; ` +
      'await them before changing the world (nothing was changed)', { field: what });
  }
}

/**
 * A checked Float32Array of a change's data. Copied mode keeps it (mirror, delta), so it must be
 * our own copy: the caller may change theirs. Shared mode only passes it to the world.
 */
function changeData(s, data, per, name) {
  const a = floatBatch(data, per, name, s.core.memory);
  // taCopy, not a.slice(): a subclass's slice (or a species) could hand back other floats
  return a === data && s.mirror !== null ? taCopy(a, Float32Array, 0, batchItems(a, per, name) * per) : a;
}

function add(s, kind, data) {
  changing(s, ADD[kind]);
  const a = changeData(s, data, FLOATS[kind], BATCH_NAME[kind]);
  const first = s.world[ADD[kind]](a);
  if (s.mirror !== null) {
    s.mirror.add(kind, first, a);
    s.engine.record({ op: 'add', kind, first, data: a });
  }
  return first;
}

function update(s, kind, first, data) {
  changing(s, UPDATE[kind]);
  const a = changeData(s, data, FLOATS[kind], BATCH_NAME[kind]);
  s.world[UPDATE[kind]](first, a);
  if (s.mirror !== null) {
    s.mirror.update(kind, first, a);
    s.engine.record({ op: 'update', kind, first, data: a });
  }
}

function setRange(s, key, first, values, Type, name) {
  changing(s, key);
  // the range is checked before the values are copied (the world checks it again), as World does
  if (!Number.isInteger(first) || first < 0 || first > 0x7fffffff) fail('first must be an integer in [0, 2147483647]', 'first');
  if (taKind(values) !== Type.name) fail(`${name} must be a ${Type.name}`, name);
  const count = s.world.count;
  const n = taLength(values);
  if (first > count || n > count - first) {
    fail(`${name} holds ${n} value${n === 1 ? '' : 's'} for objects from ${first}: past the end of the world ` +
      `(it has ${count} object${count === 1 ? '' : 's'})`, name);
  }
  const copy = taCopy(values, Type, 0, n);
  s.world[key](first, copy);
  if (s.mirror === null) return;
  if (key === 'setEnabled') {
    s.mirror.setEnabled(first, copy);
    s.engine.record({ op: 'enabled', first, flags: copy });
  } else {
    s.mirror.setMasks(first, copy);
    s.engine.record({ op: 'masks', first, masks: copy });
  }
}

function remove(s, index) {
  changing(s, 'remove');
  s.world.remove(index);
  if (s.mirror !== null) {
    s.mirror.remove(index);
    s.engine.record({ op: 'remove', index });
  }
}

/** The caller's output arrays of a fixed-answer query, read (their getters run): refs by key, or out itself (anyHit). */
function outputRefs(q, out) {
  if (q.out === 'hit') return out;
  const keys = OUT[q.out].map(([key]) => key);
  checkOut(out, `{${keys.join(', ')}}`);
  const refs = {};
  for (const key of keys) refs[key] = outRef(out, key);
  return refs;
}

/** The output arrays of a fixed-answer query (refs: outputRefs'), checked as World's for n items (the caller's, or new ones). */
function outputs(s, q, refs, n) {
  const memory = s.core.memory;
  if (q.out === 'hit') {
    return { hit: refs === undefined || refs === null ? new Uint8Array(n) : callerArray(refs, Uint8Array, 'out', n, memory) };
  }
  const o = {};
  for (const [key, Type, per] of OUT[q.out]) o[key] = givenOrNew(refs[key], key, Type, per * n, memory);
  requireDisjoint(Object.entries(o));
  return o;
}

/** A query's options as a World (or a worker's) takes them, from the checked filter. */
const worldOptions = (f) => (f === null ? undefined
  : { mask: f.mask, inside: INSIDE_NAME[f.inside], exclude: f.exclude === null ? undefined : f.exclude });

/**
 * A small batch, on the calling thread: the main world's own call (its replica in copied mode);
 * lists as a worker runs them (lists.js, coreLists).
 */
function runInline(s, key, q, a, n, filter, outs, extra) {
  const w = s.world;
  const options = worldOptions(filter);
  if (!isList(q)) requireRoom(outs, n); // as the workers' answers: out arrays that shrank while it waited
  if (q.out === 'hit') w.anyHit(a, outs.hit, options);
  else if (key === 'closestObjects') w.closestObjects(a, extra, outs, options);
  else if (!isList(q)) w[key](a, outs, options);
  else return coreLists(s.core, s.ws.live(), q, a, n, filter);
  return undefined;
}

/** Whether typed array a's buffer is detached (a view over it cannot be made). */
function isDetached(a) {
  if (taByteLength(a) !== 0) return false;
  try {
    new Uint8Array(taBuffer(a), 0, 0); // eslint-disable-line no-new
    return false;
  } catch {
    return true;
  }
}

/** The checks of a call made when it is made: its items, out, options (World's order); throws SlabcastError. */
function checkCall(s, key, q, data, out, options, extra) {
  live(s);
  if (s.failed) throw s.failed;
  if (s.engine.pool?.failed) throw s.engine.pool.failed;
  // the caller's code (getters, Proxies of data, out, options) runs first, then every length is read
  const a = floatBatch(data, q.per, q.name, s.core.memory);
  if (isDetached(a)) fail(`${q.name} is a typed array whose buffer is detached (transferred or freed): it holds nothing to read`, q.name);
  if (key === 'closestObjects' && (typeof extra !== 'number' || !(extra >= 0))) {
    fail('maxDistance must be a number >= 0 (Infinity for any distance)', 'maxDistance');
  }
  const refs = isList(q) ? null : outputRefs(q, out);
  const o = readQueryOptions(options);
  const n = batchItems(a, q.per, q.name);
  const outs = isList(q) ? null : outputs(s, q, refs, n);
  const filter = checkFilter(s.ws, o, n);
  return { a, n, outs, filter };
}

/**
 * A query: checked now, run when the queries before it are done; resolves with its arrays.
 * extra: closestObjects' maxDistance. Batches of at most options.inline rays (QUERY's weight per
 * item) run on the calling thread (their turn still comes after the queries before them).
 */
function query(s, key, data, out, options, extra) {
  let a, n, outs, filter;
  const q = QUERY[key];
  try {
    ({ a, n, outs, filter } = checkCall(s, key, q, data, out, options, extra));
  } catch (e) {
    return Promise.reject(e instanceof SlabcastError ? e : new SlabcastError(`world.${key}: ${e?.message ?? e}`, { cause: e }));
  }
  if (n === 0) return Promise.resolve(isList(q) ? emptyList(q) : q.out === 'hit' ? outs.hit : outs);
  // Queued behind another query: keep our own copy of the input (the caller may reuse theirs).
  if (s.pending > 0 && a === data) a = taCopy(a, Float32Array, 0, n * q.per);
  const inline = n * q.weight <= s.o.inline;
  s.pending++;
  if (inline) s.inlinePending++;
  const engine = s.engine;
  const run = () => {
    if (s.disposed) return Promise.reject(new SlabcastError('the parallel world has been disposed'));
    if (inline) return Promise.resolve(runInline(s, key, q, a, n, filter, outs, extra));
    return s.o.mode === 'shared' ? engine.run(q, a, n, filter, outs, extra) : engine.run(q, key, a, n, filter, outs, extra);
  };
  // Copied mode sends at once (each worker answers its messages in order) unless a query for the
  // calling thread waits before it; else a query waits its turn.
  const now = s.pending === 1 || (s.o.mode === 'copied' && !inline && s.inlinePending === 0);
  let p;
  if (now) {
    try {
      p = run();
    } catch (e) {
      p = Promise.reject(e);
    }
  } else {
    p = s.tail.then(run, run);
  }
  const done = p.then((lists) => (isList(q) ? lists : q.out === 'hit' ? outs.hit : outs));
  const settle = () => { s.pending--; if (inline) s.inlinePending--; };
  // the next query's turn: after this one has settled (its handlers run before the caller's)
  s.tail = done.then(settle, () => {
    settle();
    if (engine.pool?.failed && !s.failed) s.failed = engine.pool.failed;
  });
  return done;
}

/** The answer of a list query of no items. */
function emptyList(q) {
  const out = { start: new Int32Array(1) };
  for (const [key, Type] of OUT[q.out]) out[key] = new Type(0);
  return out;
}

/** A list query (castRayAll, overlaps): items and options only, as they have no out arrays. */
function listQuery(s, key, args) {
  if (args.length > 2) {
    return Promise.reject(new SlabcastError(`world.${key} takes (${QUERY[key].name}, options): ` +
      'its answers are lists of any length, so it has no out argument', { field: key }));
  }
  return query(s, key, args[0], undefined, args[1]);
}

async function rebuild(s) {
  live(s);
  await s.engine.stop(new SlabcastError('parallel world: the workers were stopped by world.rebuild()'));
  s.engine.free();
  s.engine = makeEngine(s);
  s.failed = null;
  s.pending = 0;
  s.inlinePending = 0;
  s.tail = Promise.resolve();
  await s.engine.start();
}

async function dispose(s) {
  if (s.disposed) return;
  s.disposed = true;
  await s.engine.stop(new SlabcastError('the parallel world has been disposed'));
  s.engine.free();
  s.world.dispose();
}

function makeApi(s) {
  const api = guardMethods({
    /** 'shared' (one world in shared memory) or 'copied' (a replica per worker). */
    get memoryMode() { return s.o.mode; },
    /** The number of workers. */
    get workers() { return s.o.workers; },
    /** Queries not yet settled; changes are refused while it is above 0. */
    get pending() { return s.pending; },
    /** The error that stopped the workers (call rebuild()), or null. */
    get failed() { return s.failed ?? s.engine.pool?.failed ?? null; },
    /** Whether dispose() has been called. */
    get disposed() { return s.disposed; },
    /** The number of object indices, removed objects included (World.count). */
    get count() { live(s); return s.world.count; },
    /** The number of objects that are not removed (World.liveCount). */
    get liveCount() { live(s); return s.world.liveCount; },
    addAABBs(boxes) { return add(s, 'aabb', boxes); },
    addOBBs(obbs) { return add(s, 'obb', obbs); },
    addSpheres(spheres) { return add(s, 'sphere', spheres); },
    addCapsules(capsules) { return add(s, 'capsule', capsules); },
    updateAABBs(first, boxes) { update(s, 'aabb', first, boxes); },
    updateOBBs(first, obbs) { update(s, 'obb', first, obbs); },
    updateSpheres(first, spheres) { update(s, 'sphere', first, spheres); },
    updateCapsules(first, capsules) { update(s, 'capsule', first, capsules); },
    remove(index) { remove(s, index); },
    setEnabled(first, flags) { setRange(s, 'setEnabled', first, flags, Uint8Array, 'flags'); },
    setMasks(first, masks) { setRange(s, 'setMasks', first, masks, Uint32Array, 'masks'); },
    kindOf(index) { live(s); return s.world.kindOf(index); },
    castRays(rays, out, options) { return query(s, 'castRays', rays, out, options); },
    anyHit(rays, out, options) { return query(s, 'anyHit', rays, out, options); },
    castSegments(segments, out, options) { return query(s, 'castSegments', segments, out, options); },
    castSpheres(sweeps, out, options) { return query(s, 'castSpheres', sweeps, out, options); },
    castBoxes(sweeps, out, options) { return query(s, 'castBoxes', sweeps, out, options); },
    castCapsules(sweeps, out, options) { return query(s, 'castCapsules', sweeps, out, options); },
    closestObjects(points, maxDistance, out, options) { return query(s, 'closestObjects', points, out, options, maxDistance); },
    castRayAll(...args) { return listQuery(s, 'castRayAll', args); },
    overlapAABBs(...args) { return listQuery(s, 'overlapAABBs', args); },
    overlapSpheres(...args) { return listQuery(s, 'overlapSpheres', args); },
    overlapOBBs(...args) { return listQuery(s, 'overlapOBBs', args); },
    overlapCapsules(...args) { return listQuery(s, 'overlapCapsules', args); },
    overlapFrustums(...args) { return listQuery(s, 'overlapFrustums', args); },
    /** Stops the workers and starts new ones (after a fault); the world's objects are kept. */
    rebuild() { return rebuild(s); },
    /** Ends the workers and frees the world; pending queries reject. */
    dispose() { return dispose(s); },
  }, 'world.');
  // Fault injection for the tests (docs/parallel.md, "Faults"): on the next query, worker k throws
  // an uncaught exception ('throw'), never answers ('hang'), answers with a malformed message
  // ('garble', copied memory), or is terminated now ('terminate').
  Object.defineProperty(api, Symbol.for('slabcast.parallel.fault'), {
    value(k, kind) {
      if (!Number.isInteger(k) || k < 0 || k >= s.o.workers) fail('worker must be a worker index', 'worker');
      const pool = s.engine.pool;
      if (kind === 'terminate') { pool.workers[k].terminate().then(() => pool.workers[k].onExit?.(null)); return; }
      if (!Object.hasOwn(FAULT, kind)) fail("kind must be 'throw', 'hang', 'garble' or 'terminate'", 'kind');
      if (kind === 'garble' && s.o.mode !== 'copied') fail("kind 'garble' is for copied memory (shared-memory workers send no answers)", 'kind');
      s.engine.injectFault(k, FAULT[kind]);
    },
  });
  // For benchmarks and tests (copied memory): the weighted items a worker's share must reach
  // before a call is split across one more worker (copied.js, SPLIT_ITEMS; 1 splits every call).
  Object.defineProperty(api, Symbol.for('slabcast.parallel.split'), {
    value(items) {
      if (!Number.isInteger(items) || items < 1) fail('items must be an integer >= 1', 'items');
      if (s.o.mode !== 'copied') fail('the split is for copied memory (shared-memory workers take blocks of items as they go)', 'items');
      s.split = items;
      s.engine.split = items;
    },
  });
  if (typeof Symbol.asyncDispose === 'symbol') {
    Object.defineProperty(api, Symbol.asyncDispose, { value: api.dispose, configurable: true, writable: true });
  }
  return api;
}
