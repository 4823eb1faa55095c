// worker.js: one worker of a parallel world (web/parallel.js), the same module in Node
// worker_threads and in browser Web Workers (the shim below is the only difference).
//
// Shared mode: the worker instantiates slabcast-mt.wasm over the world's shared memory, points
// its own __stack_pointer at the stack the main thread allocated for it, says 'ready', and then
// waits on the control buffer with Atomics.wait: it never reads messages again. Each job it
// takes blocks of items with one atomic add (sc_wasm_mt_work) and counts itself done.
// Copied mode: the worker holds a replica world (slabcast.wasm); each job brings the changes
// since the last message and one slice of a batch in a buffer lent by the main thread (a job
// without options or changes is that buffer alone, its header saying the rest); the answers go
// back in that buffer (castRayAll's and the overlaps' lists in arrays of their own), all
// transferred. A worker with no part in a query gets its changes in a message of their own.
import { makeImports, instantiateCore } from '../core/loader.js';
import { createWorld } from '../core/world.js';
import { worldState } from '../core/world.js';
import { coreLists } from './lists.js';
import {
  CMD, DONE, FAULT, FAULT_KIND, FAULT_WORKER, GEN, HEADER, JOB, JOB_HEAD, MESSAGE_BYTES, OP, PER_WORKER, QUERY, QUERY_NAMES,
  REMAINING, isList, messageOffset, sliceLayout,
} from './protocol.js';

const isNode = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';
let port;
if (isNode) {
  // process.getBuiltinModule, not import(): no top-level await and nothing for a bundler to
  // split, so a bundled worker stays one file in any format (env.js, nodeBuiltin)
  const { parentPort } = process.getBuiltinModule('node:worker_threads');
  port = { post: (m, t) => parentPort.postMessage(m, t), close: () => parentPort.close() };
  parentPort.on('message', (m) => onMessage(m));
} else {
  port = { post: (m, t) => self.postMessage(m, t), close: () => self.close() };
  self.onmessage = (e) => onMessage(e.data);
}

const encoder = new TextEncoder();
let replica = null; // copied mode: { core, world }
let garbled = false; // copied mode: the next answer is malformed (fault injection)

function errorText(e) {
  return e !== null && typeof e === 'object' && typeof e.message === 'string' ? e.message : String(e);
}

function onMessage(m) {
  if (m instanceof ArrayBuffer) { runBare(m); return; }
  if (m === null || typeof m !== 'object') return;
  if (m.type === 'init' && m.mode === 'shared') initShared(m);
  else if (m.type === 'init' && m.mode === 'copied') initCopied(m);
  else if (m.type === 'job') runCopied(m);
  else if (m.type === 'changes') applyAlone(m);
  else if (m.type === 'fault') fault(m.kind);
  else if (m.type === 'exit') port.close();
}

/** Fault injection for the tests: an uncaught exception, or a worker that never answers. */
function fault(kind) {
  if (kind === FAULT.garble) garbled = true;
  if (kind === FAULT.throw) throw new Error('injected fault: the worker threw');
  if (kind === FAULT.hang) for (;;) { /* never answers */ }
}

// ------------------------------------------------------------------ shared mode

function initShared(m) {
  let ex;
  try {
    const instance = new WebAssembly.Instance(m.module, makeImports(m.module, m.memory));
    ex = instance.exports;
    if (typeof ex.sc_wasm_mt_work !== 'function' || typeof ex.stackRestore !== 'function') {
      throw new Error('the module is not the shared-memory build (slabcast-mt.wasm)');
    }
    ex.stackRestore(m.stackTop);
  } catch (e) {
    port.post({ type: 'error', message: `the worker could not start: ${errorText(e)}` });
    return;
  }
  port.post({ type: 'ready' });
  loopShared(ex, new Int32Array(m.control), new Uint8Array(m.control), m);
  port.close();
}

function loopShared(ex, ctl, bytes, m) {
  const { slot, workers, scratch, result } = m;
  const base = HEADER + PER_WORKER * slot;
  const msg = messageOffset(workers, slot);
  let seen = m.gen;
  for (;;) {
    // A short spin first: a frame's next call often comes within microseconds.
    let g = Atomics.load(ctl, GEN);
    for (let i = 0; g === seen && i < m.spin; i++) g = Atomics.load(ctl, GEN);
    if (g === seen) {
      Atomics.wait(ctl, GEN, seen);
      g = Atomics.load(ctl, GEN);
      if (g === seen) continue;
    }
    seen = g;
    const op = Atomics.load(ctl, OP);
    if (op === CMD.exit) return;
    if (op === CMD.job) {
      if (Atomics.load(ctl, FAULT_KIND) !== 0 && Atomics.load(ctl, FAULT_WORKER) === slot) fault(Atomics.load(ctl, FAULT_KIND));
      try {
        ctl[base + 2] = ex.sc_wasm_mt_work(Atomics.load(ctl, JOB), scratch, result);
        ctl[base] = 0;
      } catch (e) {
        const text = encoder.encode(errorText(e)).subarray(0, MESSAGE_BYTES);
        bytes.set(text, msg);
        ctl[base + 1] = text.length;
        ctl[base] = 1;
      }
    }
    if (Atomics.sub(ctl, REMAINING, 1) === 1) {
      Atomics.store(ctl, DONE, g);
      Atomics.notify(ctl, DONE);
    }
  }
}

// ------------------------------------------------------------------ copied mode

async function initCopied(m) {
  try {
    const core = await instantiateCore(m.module);
    replica = { core, world: createWorld(core) };
    port.post({ type: 'ready' });
  } catch (e) {
    port.post({ type: 'error', message: `the worker could not start: ${errorText(e)}` });
  }
}

const ADD = { aabb: 'addAABBs', obb: 'addOBBs', sphere: 'addSpheres', capsule: 'addCapsules' };
const UPDATE = { aabb: 'updateAABBs', obb: 'updateOBBs', sphere: 'updateSpheres', capsule: 'updateCapsules' };

/** Applies one change (a delta of web/parallel/copied.js) to the replica. */
function apply(world, d) {
  switch (d.op) {
    case 'add': {
      const first = world[ADD[d.kind]](d.data);
      if (first !== d.first) throw new Error(`replica out of step: an add gave index ${first}, the main world ${d.first}`);
      break;
    }
    case 'update': world[UPDATE[d.kind]](d.first, d.data); break;
    case 'remove': world.remove(d.index); break;
    case 'enabled': world.setEnabled(d.first, d.flags); break;
    case 'masks': world.setMasks(d.first, d.masks); break;
    default: throw new Error(`unknown change ${String(d.op)}`);
  }
}

/** A slice's fixed answers, written by the World call into views of the lent buffer. */
function answerFixed(world, q, name, input, m) {
  const outs = {};
  for (const [key, Type, at, length] of sliceLayout(q, m.m).fields) outs[key] = new Type(m.buffer, at, length);
  const options = m.options ?? undefined;
  if (m.m === 0) return;
  if (name === 'anyHit') world.anyHit(input, outs.hit, options);
  else if (name === 'closestObjects') world.closestObjects(input, m.extra, outs, options);
  else world[name](input, outs, options);
}

const INSIDE = { solid: 0, skip: 1, exit: 2 };

/** A job's options as the core's filter (numbers), or null. */
const listFilter = (o) => (o === null || o === undefined ? null
  : { mask: o.mask, inside: INSIDE[o.inside], exclude: o.exclude === undefined ? null : o.exclude });

/** A job that is its buffer alone (no options, no changes): the header says the rest. */
function runBare(buffer) {
  if (buffer.byteLength < JOB_HEAD) return; // not one of ours: no id to answer
  const h = new Int32Array(buffer, 0, JOB_HEAD / 4);
  runCopied({ type: 'job', id: h[0], query: QUERY_NAMES[h[1]], m: h[2], buffer, extra: new Float32Array(buffer, 12, 1)[0] });
}

/** Changes for a worker that has no part in a query: applied now; only a failure is answered. */
function applyAlone(m) {
  if (garbled) {
    garbled = false;
    port.post({ type: 'result', id: -1, ok: true, buffer: null }); // an answer to no job
    return;
  }
  const error = applyChanges(m.changes);
  if (error !== null) port.post({ type: 'failed', message: error });
}

/** Applies a message's changes to the replica; returns null, or what went wrong. */
function applyChanges(changes) {
  if (replica === null) return 'the worker has no world (not started)';
  try {
    if (changes !== undefined) for (const d of changes) apply(replica.world, d);
    return null;
  } catch (e) {
    return `a change could not be applied: ${errorText(e)}`;
  }
}

/** The answer to job m (its buffer goes back, transferred, with more to transfer in `transfer`). */
function reply(m, message, transfer = []) {
  message.type = 'result';
  message.id = m.id;
  message.buffer = m.buffer;
  if (m.buffer instanceof ArrayBuffer) transfer.push(m.buffer);
  port.post(message, transfer);
}

function runCopied(m) {
  if (garbled) {
    garbled = false;
    port.post({ type: 'result', id: m.id, ok: true, buffer: null, start: 'garbled', index: [1, 2] });
    return;
  }
  const q = Object.hasOwn(QUERY, m.query) ? QUERY[m.query] : null;
  if (replica === null || q === null || !(m.buffer instanceof ArrayBuffer) || !Number.isInteger(m.m) || m.m < 0 ||
      m.buffer.byteLength < sliceLayout(q, m.m).bytes) {
    const what = replica === null ? 'the worker has no world (not started)' : q === null ? `unknown query ${String(m.query)}`
      : 'a job without its items (a buffer of the slice)';
    reply(m, { ok: false, fatal: true, message: what });
    return;
  }
  const error = applyChanges(m.changes);
  if (error !== null) {
    reply(m, { ok: false, fatal: true, message: error });
    return;
  }
  const input = new Float32Array(m.buffer, JOB_HEAD, q.per * m.m);
  if (isList(q)) {
    answerLists(q, input, m);
    return;
  }
  try {
    answerFixed(replica.world, q, m.query, input, m);
    port.post(m.buffer, [m.buffer]); // the answers, in the job's buffer alone (its header's id unchanged)
  } catch (e) {
    refuse(m, e);
  }
}

/** A job of castRayAll or an overlap: its lists go back in arrays of their own. */
async function answerLists(q, input, m) {
  const { core, world } = replica;
  try {
    const r = await coreLists(core, worldState(world).live(), q, input, m.m, listFilter(m.options));
    reply(m, { ok: true, ...r }, Object.values(r).map((a) => a.buffer));
  } catch (e) {
    refuse(m, e);
  }
}

/** The answer to a job the replica refused (an item, with its status) or failed (fatal). */
function refuse(m, e) {
  const status = typeof e?.status === 'number' ? e.status : undefined;
  const index = status === undefined ? -1 : e.item ?? replica.core.call(replica.core.ex.sc_wasm_error_index);
  reply(m, { ok: false, fatal: status === undefined, status, index, message: errorText(e) });
}
