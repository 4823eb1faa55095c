// copied.js: the copied-memory engine of a parallel world, for pages without cross-origin
// isolation (no SharedArrayBuffer). Every worker holds a replica world (slabcast.wasm). Changes
// are recorded as compact deltas (the checked floats of an add or update, an index, flags,
// masks) and go with the next query to every worker, their buffers transferred; the worker
// applies them, then answers its slice of the batch. A query goes to as many workers as its
// size repays (partsFor), the least busy first; the others get the changes alone. Each worker
// has one buffer that goes back and forth, transferred both ways: the main thread writes a
// header and the slice's items in it, the worker its answers (protocol.js, sliceLayout,
// JOB_HEAD), so a call allocates nothing per worker; a job without options or changes, and a
// fixed-size answer, is that buffer alone. The main thread keeps its own replica
// (it checks every change exactly as a world does and gives add's index) and a mirror of the
// objects (kinds, floats, masks, flags, freed slots), from which rebuilt workers are seeded.
import { SlabcastError } from '../core/errors.js';
import { taCopy, taExact, taSet } from '../core/typed.js';
import { requireRoom } from '../core/validate.js';
import { checkBatchItems, stageBatch } from '../core/world.js';
import { Pool } from './pool.js';
import { JOB_HEAD, QUERY_NAMES, isList, sliceLayout } from './protocol.js';
import { assembleLists } from './lists.js';

const F32 = new Float32Array(1); // a float's bits, for a job's header
const I32 = new Int32Array(F32.buffer);
const STRIDE = 15; // floats per object in the mirror (the largest kind, an OBB)
const FLOATS = { aabb: 6, obb: 15, sphere: 4, capsule: 7 };
const KINDS = ['removed', 'aabb', 'obb', 'sphere', undefined, 'capsule'];
const KIND_CODE = { aabb: 1, obb: 2, sphere: 3, capsule: 5 };
const INSIDE_NAME = ['solid', 'skip', 'exit'];

/** The objects of the world as JS arrays: enough to rebuild a replica with the same indices. */
export class Mirror {
  constructor() {
    this.count = 0;
    this.kinds = new Uint8Array(16);
    this.floats = new Float32Array(16 * STRIDE);
    this.masks = new Uint32Array(16);
    this.enabled = new Uint8Array(16);
    this.freed = []; // removed indices, in the order the core reuses them (last first)
  }

  grow(count) {
    if (count <= this.kinds.length) return;
    const cap = Math.max(count, 2 * this.kinds.length);
    const grow = (a, Type, per) => { const b = new Type(cap * per); b.set(a); return b; };
    this.kinds = grow(this.kinds, Uint8Array, 1);
    this.floats = grow(this.floats, Float32Array, STRIDE);
    this.masks = grow(this.masks, Uint32Array, 1);
    this.enabled = grow(this.enabled, Uint8Array, 1);
  }

  add(kind, first, data) {
    const per = FLOATS[kind];
    const n = data.length / per;
    if (n === 1 && first < this.count) {
      const at = this.freed.lastIndexOf(first);
      if (at >= 0) this.freed.splice(at, 1);
    }
    this.grow(first + n);
    for (let i = 0; i < n; i++) {
      const o = first + i;
      this.kinds[o] = KIND_CODE[kind];
      this.floats.fill(0, o * STRIDE, (o + 1) * STRIDE);
      this.floats.set(data.subarray(i * per, (i + 1) * per), o * STRIDE);
      this.masks[o] = 0xFFFFFFFF;
      this.enabled[o] = 1;
    }
    this.count = Math.max(this.count, first + n);
  }

  update(kind, first, data) {
    const per = FLOATS[kind];
    for (let i = 0; i < data.length / per; i++) this.floats.set(data.subarray(i * per, (i + 1) * per), (first + i) * STRIDE);
  }

  remove(index) {
    this.kinds[index] = 0;
    this.freed.push(index);
  }

  setEnabled(first, flags) { for (let i = 0; i < flags.length; i++) this.enabled[first + i] = flags[i] !== 0 ? 1 : 0; }

  setMasks(first, masks) { this.masks.set(masks, first); }

  /** The deltas that rebuild this world in an empty replica (same indices, same freed slots). */
  snapshot() {
    const out = [];
    let i = 0;
    while (i < this.count) {
      const code = this.kinds[i] === 0 ? 1 : this.kinds[i]; // a freed slot: a placeholder box
      let j = i + 1;
      while (j < this.count && (this.kinds[j] === 0 ? 1 : this.kinds[j]) === code) j++;
      const kind = KINDS[code];
      const per = FLOATS[kind];
      const data = new Float32Array((j - i) * per);
      for (let o = i; o < j; o++) {
        // a freed slot's placeholder is the empty box at the origin (its old floats may be another kind's)
        if (this.kinds[o] !== 0) data.set(this.floats.subarray(o * STRIDE, o * STRIDE + per), (o - i) * per);
      }
      out.push({ op: 'add', kind, first: i, data });
      i = j;
    }
    if (this.count > 0) {
      out.push({ op: 'masks', first: 0, masks: this.masks.slice(0, this.count) });
      out.push({ op: 'enabled', first: 0, flags: this.enabled.slice(0, this.count) });
    }
    for (const index of this.freed) out.push({ op: 'remove', index });
    return out;
  }
}

/** A delta's own copy for one more worker, and the buffers it may transfer. */
function copyDelta(d) {
  if (d.data) return { ...d, data: d.data.slice() };
  if (d.flags) return { ...d, flags: d.flags.slice() };
  if (d.masks) return { ...d, masks: d.masks.slice() };
  return { ...d };
}
const buffersOf = (d) => (d.data ? [d.data.buffer] : d.flags ? [d.flags.buffer] : d.masks ? [d.masks.buffer] : []);

/**
 * Weighted items (an item counts as QUERY's weight, as for the inline option) a worker's share of
 * a call must reach before the call is split across one more worker. A smaller call goes to
 * fewer workers, one below 2 * SPLIT_ITEMS: each more worker costs a message each way, a wake-up
 * and a join, which a small share does not repay (docs/benchmarks.md, "copied memory latency").
 */
export const SPLIT_ITEMS = 1024;

/** How many of `workers` workers a call of `weighted` items uses: each at least `split` of them, at least one. */
export const partsFor = (weighted, workers, split = SPLIT_ITEMS) => Math.max(1, Math.min(workers, Math.floor(weighted / split)));

export class CopiedEngine {
  constructor(core, module, workers, timeout, mirror, split = SPLIT_ITEMS) {
    this.core = core;
    this.module = module;
    this.count = workers;
    this.timeout = timeout;
    this.mirror = mirror;
    this.pool = null;
    this.log = []; // deltas not yet sent
    this.nextId = 1;
    this.split = split;
    this.queues = []; // per worker: the jobs posted to it and not answered yet, oldest first
    this.order = []; // the jobs not settled yet, in the order of their calls (they settle in it)
    this.buffers = []; // per worker: its buffer while the main thread holds it, else null
    this.all = Array.from({ length: workers }, (_, k) => k);
  }

  async start() {
    this.pool = new Pool(this.count, this.timeout);
    this.buffers = new Array(this.count).fill(null);
    this.queues = Array.from({ length: this.count }, () => []);
    this.order = [];
    this.pool.onMessage = (k, m) => this.answer(k, m);
    await this.pool.start(() => [{ type: 'init', mode: 'copied', module: this.module }, []]);
    this.log = this.mirror.snapshot();
  }

  /** Records a delta (after the main replica accepted it); it goes with the next query. */
  record(d) { this.log.push(d); }

  injectFault(k, kind) { this.pool.workers[k].post({ type: 'fault', kind }); }

  /** Worker k's buffer, at least `bytes` long (its own when it is, else a new one). */
  buffer(k, bytes) {
    const b = this.buffers[k];
    this.buffers[k] = null;
    return b !== null && b.byteLength >= bytes ? b : new ArrayBuffer(Math.max(bytes, 2 * (b?.byteLength ?? 0)));
  }

  /** The `parts` workers a call goes to: every one, else those with the fewest jobs pending (the lowest index first). */
  pick(parts) {
    if (parts === this.count) return this.all;
    const q = this.queues;
    if (parts === 1) {
      let k = 0;
      for (let j = 1; j < this.count; j++) if (q[j].length < q[k].length) k = j;
      return [k];
    }
    return this.all.slice().sort((i, j) => q[i].length - q[j].length || i - j).slice(0, parts).sort((i, j) => i - j);
  }

  /**
   * Runs query `name` (QUERY entry q) on n items `a` into `outs`, one slice per worker of the call
   * (partsFor). extra: closestObjects' maxDistance. Returns a Promise; for castRayAll and the
   * overlaps it resolves with the lists. Throws when an item is refused (before anything is posted).
   */
  run(q, name, a, n, filter, outs, extra) {
    const pool = this.pool;
    if (pool.failed) throw pool.failed;
    // the items, checked on this thread as a World checks them, before anything is posted
    checkBatchItems(this.core, q.op, stageBatch(this.core, a, 0, q.per * n), n, q.name);
    const parts = partsFor(n * q.weight, this.count, this.split);
    const ks = this.pick(parts);
    const starts = [0];
    for (let i = 1; i <= parts; i++) starts.push(Math.floor((n * i) / parts));
    const job = {
      id: this.nextId++, q, n, ks, starts, outs, answers: new Array(parts), left: parts, deadline: 0,
      resolve: null, reject: null, done: false, result: undefined, error: null,
    };
    const promise = new Promise((resolve, reject) => { job.resolve = resolve; job.reject = reject; });
    this.order.push(job);
    pool.track(job);
    try {
      this.send(job, name, a, filter, extra);
    } catch (e) {
      // some workers may have had their part or the changes: the replicas can no longer be trusted
      pool.fail(new SlabcastError(`parallel world: a query could not be sent to the workers: ${e?.message ?? e}`, { cause: e }));
    }
    return promise;
  }

  /**
   * Posts each worker of the job its part. The changes go to every worker, before its next job:
   * with its slice to a worker of the call, alone to the others. The last message takes the
   * deltas' own buffers, the others copies.
   */
  send(job, name, a, filter, extra) {
    const { ks } = job;
    const parts = ks.length;
    const changes = this.log;
    this.log = [];
    const last = changes.length > 0 ? this.count - 1 : ks[parts - 1];
    for (let k = 0, i = 0; k < this.count; k++) {
      const mine = i < parts && ks[i] === k;
      if (!mine && changes.length === 0) continue;
      const c = changes.length === 0 ? changes : k === last ? changes : changes.map(copyDelta);
      if (mine) {
        this.queues[k].push(job);
        this.post(k, job, i++, name, a, filter, extra, c);
      } else {
        const transfer = [];
        for (const d of c) transfer.push(...buffersOf(d));
        this.pool.workers[k].post({ type: 'changes', changes: c }, transfer);
      }
    }
  }

  /** Posts worker k part i of the job (its slice of the items), with the changes it has not seen. */
  post(k, job, i, name, a, filter, extra, changes) {
    const q = job.q;
    const s = job.starts[i];
    const m = job.starts[i + 1] - s;
    const buffer = this.buffer(k, sliceLayout(q, m).bytes);
    const head = new Int32Array(buffer, 0, JOB_HEAD / 4);
    head[0] = job.id;
    head[1] = QUERY_NAMES.indexOf(name);
    head[2] = m;
    F32[0] = extra ?? 0;
    head[3] = I32[0];
    if (m > 0) taSet(new Float32Array(buffer, JOB_HEAD, q.per * m), taExact(a, Float32Array, s * q.per, m * q.per));
    if (filter === null && changes.length === 0) {
      this.pool.workers[k].post(buffer, [buffer]); // the job is its buffer alone
      return;
    }
    const transfer = [buffer];
    for (const d of changes) transfer.push(...buffersOf(d));
    let options = null;
    if (filter !== null) {
      options = { mask: filter.mask, inside: INSIDE_NAME[filter.inside], exclude: undefined };
      if (filter.exclude !== null) {
        options.exclude = taCopy(filter.exclude, Int32Array, s, m);
        transfer.push(options.exclude.buffer);
      }
    }
    const message = { type: 'job', id: job.id, query: name, m, buffer };
    if (options !== null) message.options = options;
    if (extra !== undefined) message.extra = extra;
    if (changes.length > 0) message.changes = changes;
    this.pool.workers[k].post(message, transfer);
  }

  /**
   * A message from worker k: the answer to its oldest job (an object, or for answers of fixed
   * size the job's buffer alone, its header's id unchanged), or a change it could not apply.
   */
  answer(k, m) {
    let id;
    if (m instanceof ArrayBuffer) {
      if (m.byteLength < JOB_HEAD) {
        this.pool.fail(new SlabcastError(`parallel world: worker ${k} answered with a buffer of ${m.byteLength} bytes, without a job's header`));
        return;
      }
      id = new Int32Array(m, 0, 1)[0];
      m = { ok: true, buffer: m };
    } else {
      if (m === null || typeof m !== 'object') return;
      if (m.type === 'failed') {
        this.pool.fail(new SlabcastError(`parallel world: worker ${k} failed: ${String(m.message)}`));
        return;
      }
      if (m.type !== 'result') return;
      id = m.id;
    }
    const job = this.queues[k][0];
    if (job === undefined || id !== job.id) {
      this.pool.fail(new SlabcastError(`parallel world: worker ${k} answered a job it was not given (${job === undefined ? 'none was pending' : 'out of order'})`));
      return;
    }
    this.queues[k].shift();
    job.answers[job.ks.length === this.count ? k : job.ks.indexOf(k)] = m;
    if (--job.left > 0) return;
    try {
      job.result = this.join(job);
    } catch (e) {
      job.error = e;
    }
    // the answers' buffers go back to their workers only now: a call made while this job waited
    // for another worker's answer must not take (and transfer away) one this join still reads
    for (let i = 0; i < job.ks.length; i++) {
      const b = job.answers[i].buffer;
      const k = job.ks[i];
      if (b instanceof ArrayBuffer && (this.buffers[k] === null || this.buffers[k].byteLength < b.byteLength)) this.buffers[k] = b;
    }
    // Queries settle in the order of their calls, though a later one may finish first on another
    // worker. A job stays tracked until it settles, so a failure of the pool rejects it too.
    job.done = true;
    while (this.order.length > 0 && this.order[0].done) {
      const j = this.order.shift();
      this.pool.untrack(j);
      if (j.error !== null) j.reject(j.error);
      else j.resolve(j.result);
    }
  }

  /** The answers of a job, checked (a worker's message is data from another thread) and copied into its outs. */
  join(job) {
    const { q, n, ks, starts, answers, outs } = job;
    this.refused(q, answers, starts, ks);
    if (isList(q)) return this.guard(() => assembleLists(q, answers, n, starts, ks));
    this.guard(() => {
      for (let i = 0; i < ks.length; i++) {
        const b = answers[i].buffer;
        const bytes = sliceLayout(q, starts[i + 1] - starts[i]).bytes;
        if (!(b instanceof ArrayBuffer) || b.byteLength < bytes) {
          throw new SlabcastError(`parallel world: worker ${ks[i]} answered ${q.name} without its buffer of ${bytes} bytes`);
        }
      }
    });
    requireRoom(outs, n);
    for (let i = 0; i < ks.length; i++) {
      const s = starts[i];
      const m = starts[i + 1] - s;
      const b = answers[i].buffer;
      for (const [key, Type, at, length] of sliceLayout(q, m).fields) taSet(outs[key], new Type(b, at, length), (length / m) * s);
    }
    return undefined;
  }

  /** f(), or the pool failed with the error f throws (a malformed answer from a worker). */
  guard(f) {
    try {
      return f();
    } catch (e) {
      this.pool.fail(e);
      throw e;
    }
  }

  /** A worker's failure fails the pool; a refused item throws as a World does (the first one). */
  refused(q, answers, starts, ks) {
    let status = 0;
    let first = -1;
    for (let i = 0; i < ks.length; i++) {
      const m = answers[i];
      if (m.ok) continue;
      if (m.fatal) {
        const e = new SlabcastError(`parallel world: worker ${ks[i]} failed during a query: ${m.message}`);
        this.pool.fail(e);
        throw e;
      }
      const at = m.index >= 0 ? starts[i] + m.index : -1;
      if (status === 0 || (at >= 0 && (first < 0 || at < first))) { status = m.status; first = at; }
    }
    if (status !== 0) {
      const where = first >= 0 ? `${q.name}[${first}]: ` : `${q.name}: `;
      throw new SlabcastError(where + this.core.statusMessage(status), { status, field: q.name });
    }
  }

  async stop(error) {
    if (this.pool !== null) await this.pool.stop(error);
    this.pool = null;
    this.queues = [];
    this.order = [];
    this.buffers = [];
  }

  free() {}
}
