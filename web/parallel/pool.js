// pool.js: the workers of one parallel world: started with a deadline, watched for errors and
// exits, and failed as a whole: once any worker throws, exits or misses a deadline, every
// waiting query is rejected with the same clear error and the pool takes no more work until the
// world is rebuilt (web/parallel.js).
import { SlabcastError } from '../core/errors.js';
import { spawnWorker } from './env.js';

const WORKER_URL = new URL('./worker.js', import.meta.url);

export class Pool {
  /**
   * @param {number} count workers
   * @param {number} timeout milliseconds for start-up and for each query
   */
  constructor(count, timeout) {
    this.count = count;
    this.timeout = timeout;
    this.workers = [];
    this.failed = null; // the SlabcastError that stopped the pool
    this.stopping = false;
    this.waiters = new Set(); // { reject, deadline? } of everything waiting on the workers
    this.timer = null; // the watchdog of the tracked waiters' deadlines (track)
    this.onMessage = () => {};
  }

  /** Starts the workers; init(k) gives worker k's start message and its transfer list. */
  async start(init) {
    const ready = [];
    for (let k = 0; k < this.count; k++) {
      const h = await spawnWorker(WORKER_URL);
      this.workers.push(h);
      h.onError = (e) => this.fail(new SlabcastError(`parallel world: worker ${k} failed: ${e.message}`, { cause: e }));
      h.onExit = (code) => this.fail(new SlabcastError(`parallel world: worker ${k} exited (code ${code}) with work pending`));
      ready.push(new Promise((resolve, reject) => {
        h.onMessage = (m) => {
          if (m?.type === 'ready') { h.onMessage = (r) => this.onMessage(k, r); resolve(); }
          else if (m?.type === 'error') reject(new SlabcastError(`parallel world: worker ${k}: ${m.message}`));
        };
      }));
      const [message, transfer] = init(k);
      h.post(message, transfer);
    }
    try {
      await this.wait(Promise.all(ready), 'starting the workers');
    } catch (e) {
      await this.terminate();
      throw e;
    }
  }

  /** p, or a rejection when the pool fails or `timeout` passes first (then the pool fails). */
  wait(p, what) {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      const waiter = { reject };
      this.waiters.add(waiter);
      const timer = Number.isFinite(this.timeout) ? setTimeout(() => {
        this.fail(new SlabcastError(`parallel world: ${what} timed out after ${this.timeout} ms; ` +
          'the workers were stopped (call world.rebuild() to start new ones)'));
      }, this.timeout) : null;
      const settle = () => { if (timer !== null) clearTimeout(timer); this.waiters.delete(waiter); };
      p.then((v) => { settle(); resolve(v); }, (e) => { settle(); reject(e); });
      waiter.reject = (e) => { settle(); reject(e); };
    });
  }

  /**
   * Watches query job w ({ reject(error), q: its QUERY entry }) as wait() watches a promise, without
   * a timer or a promise of its own: w.deadline is set, and one watchdog timer serves every tracked
   * waiter. untrack(w) when it has settled.
   */
  track(w) {
    if (this.failed) { w.reject(this.failed); return; }
    this.waiters.add(w);
    if (!Number.isFinite(this.timeout)) return;
    w.deadline = performance.now() + this.timeout;
    if (this.timer === null) this.arm(this.timeout);
  }

  untrack(w) { this.waiters.delete(w); }

  arm(ms) {
    this.timer = setTimeout(() => this.expire(), ms);
    this.timer.unref?.(); // Node: the watchdog alone does not keep the process alive (the workers do)
  }

  /** The watchdog: fails the pool when the earliest deadline has passed, else waits for it. */
  expire() {
    this.timer = null;
    if (this.failed) return;
    let first = null;
    for (const w of this.waiters) if (w.deadline > 0 && (first === null || w.deadline < first.deadline)) first = w;
    if (first === null) return;
    const left = first.deadline - performance.now();
    if (left > 0) { this.arm(Math.ceil(left)); return; }
    this.fail(new SlabcastError(`parallel world: world query (${first.q.name}) timed out after ${this.timeout} ms; ` +
      'the workers were stopped (call world.rebuild() to start new ones)'));
  }

  /** Fails the pool (once): every waiter is rejected with `error`, and the workers are stopped. */
  fail(error) {
    if (this.failed || this.stopping) return;
    this.failed = error;
    for (const w of [...this.waiters]) w.reject(error);
    this.terminate();
  }

  /** Stops every worker; resolves when they have stopped (Node) or were told to (browsers). */
  async terminate() {
    this.stopping = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const all = this.workers.map((h) => {
      h.onError = () => {};
      h.onExit = () => {};
      h.onMessage = () => {};
      return h.terminate();
    });
    await Promise.all(all);
  }

  /** Rejects every waiter with `error` and stops the workers (dispose, rebuild). */
  async stop(error) {
    this.failed ??= error;
    for (const w of [...this.waiters]) w.reject(error);
    await this.terminate();
  }
}
