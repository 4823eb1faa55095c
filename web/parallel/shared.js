// shared.js: the shared-memory engine of a parallel world. The world lives once, in a shared
// WebAssembly.Memory, and the main thread owns it: it alone allocates and changes it, and
// commits it before each job. Workers (one instance of slabcast-mt.wasm each, over the same
// memory, each with its own stack and scratch) only read it. A job's input and outputs are
// staged in that memory; the job is announced through a control SharedArrayBuffer with
// Atomics.notify, and its end awaited with Atomics.waitAsync: no structured cloning on the way.
import { SlabcastError } from '../core/errors.js';
import { taCopy, taExact, taSet } from '../core/typed.js';
import { requireRoom } from '../core/validate.js';
import { MAX_STAGE_BYTES, checkStageBytes } from '../core/loader.js';
import { checkBatchItems } from '../core/world.js';
import { listStage, readListStage, twoJobs, writeStarts } from './lists.js';
import { Pool } from './pool.js';
import {
  CMD, DONE, FAULT_KIND, FAULT_WORKER, GEN, HEADER, JOB, OP, OUT, PER_WORKER, REMAINING, controlBytes, isList, messageOffset,
} from './protocol.js';

/** Bytes of each worker's stack (the single-threaded build's whole stack is 64 KiB). */
export const STACK_BYTES = 256 * 1024;
/** The most items in one block (each worker's scratch orders blocks of up to this many). */
export const BLOCK_MAX = 8192;
/** The fewest items in one block. */
const BLOCK_MIN = 16;
const JOB_BYTES = 96;
/** The answer arrays' words in the job (sc_mt_job: t, index, normal, point, hit; closestObjects' distance goes in t). */
const JOB_SLOT = { t: 0, distance: 0, index: 1, normal: 2, point: 3, hit: 4 };
const SLOTS = 5;
/** A list query's first job gives each item room for at most this many hits in all. */
const LIST_HITS = 1 << 20;
const decoder = new TextDecoder();

export class SharedEngine {
  /**
   * @param core the main thread's Core (slabcast-mt.wasm over `memory`)
   * @param ws the WorldState of the main world (world.js)
   */
  constructor(core, ws, module, workers, timeout, spin) {
    this.core = core;
    this.ws = ws;
    this.module = module;
    this.count = workers;
    this.timeout = timeout;
    this.spin = spin;
    this.pool = null;
    this.slots = []; // per worker: { stack, scratch, result } (wasm addresses)
    this.job = 0;
    this.stagePtr = 0;
    this.stageBytes = 0;
    this.control = null;
    this.ctl = null;
    this.inFlight = false; // a job's workers may still touch the stage (a fault mid-job)
    this.room = new Map(); // list answers: the room per item for the next first job
  }

  alloc(bytes, what) {
    checkStageBytes(bytes);
    const p = this.core.call(this.core.ex.sc_wasm_alloc, bytes) >>> 0;
    if (p === 0) throw new SlabcastError(`out of memory: cannot allocate ${what} (${bytes} bytes) in wasm memory`);
    return p;
  }

  async start() {
    const ex = this.core.ex;
    if (typeof ex.sc_wasm_mt_work !== 'function') throw new SlabcastError('the shared-memory module is not slabcast-mt.wasm (no sc_wasm_mt_work)');
    if (this.job === 0) this.job = this.alloc(JOB_BYTES, 'the job');
    for (let k = 0; k < this.count; k++) {
      const stack = this.alloc(STACK_BYTES, 'a worker stack');
      const result = this.alloc(16, 'a result slot');
      const scratch = this.core.call(ex.sc_wasm_mt_scratch_create, BLOCK_MAX) >>> 0;
      if (scratch === 0) throw new SlabcastError('out of memory: cannot allocate a worker scratch in wasm memory');
      this.slots.push({ stack, scratch, result });
    }
    this.control = new SharedArrayBuffer(controlBytes(this.count));
    this.ctl = new Int32Array(this.control);
    this.pool = new Pool(this.count, this.timeout);
    const memory = this.core.memory;
    await this.pool.start((k) => {
      const s = this.slots[k];
      return [{
        type: 'init', mode: 'shared', module: this.module, memory, control: this.control, slot: k,
        workers: this.count, stackTop: (s.stack + STACK_BYTES) & ~15, scratch: s.scratch, result: s.result,
        gen: 0, spin: this.spin,
      }, []];
    });
  }

  /** Arms a fault (tests): on the next job, worker k throws or hangs. */
  injectFault(k, kind) {
    Atomics.store(this.ctl, FAULT_WORKER, k);
    Atomics.store(this.ctl, FAULT_KIND, kind);
  }

  /** The address of a stage of at least `bytes` (workers are idle: only the main thread allocates). */
  stage(bytes) {
    checkStageBytes(bytes);
    if (bytes <= this.stageBytes) return this.stagePtr;
    const want = Math.min(Math.max(bytes, this.stageBytes * 2, 65536), MAX_STAGE_BYTES);
    if (this.stagePtr) this.core.call(this.core.ex.sc_wasm_free, this.stagePtr);
    this.stagePtr = 0;
    this.stageBytes = 0;
    this.stagePtr = this.alloc(want, 'the batch stage');
    this.stageBytes = want;
    return this.stagePtr;
  }

  /**
   * Runs query q (QUERY entry) on n items `a` (checked Float32Array) with `filter` (readFilter's),
   * into `outs` (q's OUT arrays). extra: closestObjects' maxDistance. Resolves when outs are filled;
   * for castRayAll and the overlaps (lists), resolves with the lists.
   */
  async run(q, a, n, filter, outs, extra) {
    if (this.pool.failed) throw this.pool.failed;
    const core = this.core;
    const ptr = this.ws.live();
    this.ws.check(core.call(core.ex.sc_wasm_world_commit, ptr), 'commit');
    if (isList(q)) return this.runLists(q, ptr, a, n, filter);
    // The stage: the items, each answer array (8-aligned), the exclude list.
    let at = 4 * q.per * n;
    const fields = OUT[q.out].map(([key, Type, per]) => {
      at = (at + 7) & ~7;
      const f = [key, Type, at, per * n];
      at += Type.BYTES_PER_ELEMENT * per * n;
      return f;
    });
    const xOff = (at + 15) & ~15;
    const base = this.stageItems(q, a, n, filter, xOff);
    const slots = new Array(SLOTS).fill(0);
    for (const [key, , off] of fields) slots[JOB_SLOT[key]] = base + off;
    this.writeJob(q, ptr, base, n, filter, xOff, slots, extra);
    await this.command(CMD.job, this.job, q.name);
    this.collect(q);
    requireRoom(outs, n);
    const buf = core.memory.buffer;
    for (const [key, Type, off, length] of fields) taSet(outs[key], new Type(buf, base + off, length));
    return undefined;
  }

  /**
   * Copies n items into the stage (with `after` bytes for answers first, then the exclude list),
   * checks them as a World does before any worker is woken; returns the stage's address.
   */
  stageItems(q, a, n, filter, after, extra = 0) {
    const core = this.core;
    const exclude = filter !== null && filter.exclude !== null;
    const base = this.stage(after + (exclude ? 4 * n : 0) + extra);
    core.views();
    taSet(core.f32, taExact(a, Float32Array, 0, q.per * n), base >> 2);
    checkBatchItems(core, q.op, base, n, q.name);
    if (exclude) taSet(core.i32, taExact(filter.exclude, Int32Array, 0, n), (base + after) >> 2);
    return base;
  }

  /** Writes the job (sc_mt_job): slots are the answer arrays' addresses by JOB_SLOT; lists: [start, total]. */
  writeJob(q, ptr, base, n, filter, xOff, slots, extra, lists = null) {
    const core = this.core;
    core.views();
    const j = this.job >> 2;
    const i32 = core.i32;
    const exclude = filter !== null && filter.exclude !== null;
    i32.fill(0, j, j + JOB_BYTES / 4);
    i32[j] = q.op;
    i32[j + 1] = ptr;
    i32[j + 2] = base;
    i32[j + 3] = n;
    i32[j + 4] = Math.min(BLOCK_MAX, Math.max(isList(q) ? 1 : BLOCK_MIN, Math.ceil(n / (4 * this.count))));
    for (let k = 0; k < SLOTS; k++) i32[j + 5 + k] = slots[k];
    i32[j + 10] = filter === null ? 0 : 1;
    i32[j + 11] = filter === null ? -1 : filter.mask | 0;
    i32[j + 12] = exclude ? base + xOff : 0;
    i32[j + 13] = filter === null ? 0 : filter.inside;
    core.f32[j + 16] = extra ?? 0;
    if (lists !== null) {
      i32[j + 17] = lists[0];
      i32[j + 18] = lists[1];
    }
  }

  /**
   * castRayAll and the overlaps: two jobs (lists.js, twoJobs), the first with room per item for
   * as many hits as the last call of the kind needed. Resolves with the lists.
   */
  async runLists(q, ptr, a, n, filter) {
    const guess = this.room.get(q.out) ?? 8;
    const room = Math.max(1, Math.min(guess, Math.floor(LIST_HITS / n)));
    const { list, hits } = await twoJobs(q, a, n, filter, room, (items, m, f, rooms, rm) => this.listJob(q, ptr, items, m, f, rooms, rm));
    this.room.set(q.out, Math.min(64, Math.ceil((2 * hits) / n) + 1));
    return list;
  }

  /** One job of a list query on m items: `rooms` (m + 1 running totals) or `room` hits per item. */
  async listJob(q, ptr, a, m, filter, rooms, room) {
    const hits = rooms === null ? room * m : rooms[m];
    const L = listStage(q, m, hits);
    const base = this.stageItems(q, a, m, filter, L.x);
    writeStarts(this.core, base + L.s, m, rooms, room);
    const slots = new Array(SLOTS).fill(0);
    slots[JOB_SLOT.index] = base + L.i;
    if (L.all) { slots[JOB_SLOT.t] = base + L.t; slots[JOB_SLOT.normal] = base + L.n; }
    this.writeJob(q, ptr, base, m, filter, L.x, slots, 0, [base + L.s, base + L.c]);
    await this.command(CMD.job, this.job, q.name);
    this.collect(q);
    return readListStage(this.core, base, L, m, hits);
  }

  /** Announces a command to every worker and resolves when all have finished it. */
  command(op, job, what) {
    const ctl = this.ctl;
    const before = Atomics.load(ctl, DONE);
    const gen = Atomics.load(ctl, GEN) + 1;
    Atomics.store(ctl, OP, op);
    Atomics.store(ctl, JOB, job);
    Atomics.store(ctl, REMAINING, this.count);
    Atomics.store(ctl, GEN, gen);
    Atomics.notify(ctl, GEN);
    this.inFlight = true;
    const done = waitFor(ctl, DONE, before, gen).then(() => { this.inFlight = false; });
    return this.pool.wait(done, `world query (${what})`);
  }

  /** After a job: a worker's exception fails the pool; a refused item throws as world.js does (the first one). */
  collect(q) {
    const core = this.core;
    const ctl = this.ctl;
    core.views();
    const i32 = core.i32;
    let status = 0;
    let first = -1;
    for (let k = 0; k < this.count; k++) {
      const w = HEADER + PER_WORKER * k;
      if (ctl[w] !== 0) {
        const at = messageOffset(this.count, k);
        const text = decoder.decode(new Uint8Array(this.control).slice(at, at + ctl[w + 1]));
        const e = new SlabcastError(`parallel world: worker ${k} failed during a query: ${text}`);
        this.pool.fail(e);
        throw e;
      }
      const r = this.slots[k].result >> 2;
      const s = i32[r];
      const i = i32[r + 1];
      if (s !== 0 && (status === 0 || (i >= 0 && (first < 0 || i < first)))) { status = s; first = i; }
    }
    if (status !== 0) {
      const where = first >= 0 ? `${q.name}[${first}]: ` : `${q.name}: `;
      throw new SlabcastError(where + core.statusMessage(status), { status, field: q.name });
    }
  }

  /**
   * Stops the workers. After a fault mid-job (clean false) a terminated browser worker may
   * still run for a moment, so its stack, scratch and the stage are left allocated (leaked).
   */
  async stop(error) {
    const clean = !this.inFlight;
    if (this.pool !== null) {
      if (clean && !this.pool.failed && this.ctl !== null) {
        Atomics.store(this.ctl, OP, CMD.exit);
        Atomics.add(this.ctl, GEN, 1);
        Atomics.notify(this.ctl, GEN);
      }
      await this.pool.stop(error);
    }
    if (this.ctl !== null) {
      // Wake any waitAsync still pending on DONE, so that nothing keeps the process alive.
      Atomics.add(this.ctl, DONE, 1);
      Atomics.notify(this.ctl, DONE);
    }
    const ex = this.core.ex;
    if (clean) {
      for (const s of this.slots) {
        this.core.call(ex.sc_wasm_free, s.stack);
        this.core.call(ex.sc_wasm_free, s.result);
        this.core.call(ex.sc_wasm_mt_scratch_destroy, s.scratch);
      }
    } else {
      this.stagePtr = 0;
      this.stageBytes = 0;
      this.job = 0;
    }
    this.slots = [];
    this.inFlight = false;
    this.pool = null;
    this.ctl = null;
    this.control = null;
  }

  /** Frees what stop() kept (the job and the stage); the engine cannot start again. */
  free() {
    const ex = this.core.ex;
    if (this.stagePtr) this.core.call(ex.sc_wasm_free, this.stagePtr);
    if (this.job) this.core.call(ex.sc_wasm_free, this.job);
    this.stagePtr = 0;
    this.stageBytes = 0;
    this.job = 0;
  }
}

/**
 * Resolves once ctl[index] differs from `before` (and is `want`): Atomics.waitAsync where the
 * engine has it, else a poll on timers.
 */
function waitFor(ctl, index, before, want) {
  if (typeof Atomics.waitAsync === 'function') {
    const again = () => {
      if (Atomics.load(ctl, index) !== before) return Promise.resolve();
      const r = Atomics.waitAsync(ctl, index, before);
      return r.async ? r.value.then(again) : again();
    };
    return again().then(() => { if (Atomics.load(ctl, index) !== want) throw new SlabcastError('parallel world: the workers were stopped'); });
  }
  return new Promise((resolve, reject) => {
    const poll = () => {
      const v = Atomics.load(ctl, index);
      if (v === before) { setTimeout(poll, 0); return; }
      if (v === want) resolve(); else reject(new SlabcastError('parallel world: the workers were stopped'));
    };
    poll();
  });
}

