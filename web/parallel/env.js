// env.js: what the parallel world needs from its host, the same in Node (worker_threads) and
// in browsers (Web Workers): whether shared memory may be used, how many cores there are, and
// a worker behind one small interface (post, terminate, and message / error / exit callbacks).

export const isNode = typeof process === 'object' && process !== null &&
  typeof process.versions === 'object' && process.versions !== null &&
  typeof process.versions.node === 'string';

/**
 * A Node built-in module (Node only), taken with process.getBuiltinModule (Node 20.16+): no
 * import() of 'node:...', so bundlers see nothing to split or stub, and a bundled worker stays
 * one file (Vite's default worker format, iife, refuses a worker that splits into chunks).
 */
export const nodeBuiltin = (name) => process.getBuiltinModule(name);

/** Whether a shared WebAssembly.Memory can be given to workers: always in Node, else only in a cross-origin isolated page. */
export function sharedMemoryAllowed() {
  if (typeof SharedArrayBuffer !== 'function' || typeof Atomics !== 'object') return false;
  if (isNode) return true;
  return globalThis.crossOriginIsolated === true;
}

/** The number of logical cores (at least 1). */
export async function coreCount() {
  if (isNode) {
    const os = nodeBuiltin('node:os');
    const n = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    return Math.max(1, n | 0);
  }
  const n = globalThis.navigator?.hardwareConcurrency;
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/**
 * A worker running web/parallel/worker.js (`url` names it for Node; in browsers the worker is
 * created with the literal new Worker(new URL('./worker.js', import.meta.url), ...) that
 * bundlers such as Vite recognise and bundle, imports and all). Returns
 * {post(message, transfer), terminate(), onMessage, onError, onExit}: set the callbacks;
 * onError gets an Error, onExit an exit code. terminate() resolves when the worker has stopped
 * (Node) or has been told to stop (browsers, where that is all there is).
 */
export async function spawnWorker(url) {
  const handle = { onMessage: () => {}, onError: () => {}, onExit: () => {} };
  if (isNode) {
    const { Worker } = nodeBuiltin('node:worker_threads');
    const w = new Worker(url);
    w.on('message', (m) => handle.onMessage(m));
    w.on('error', (e) => handle.onError(e instanceof Error ? e : new Error(String(e))));
    w.on('messageerror', (e) => handle.onError(new Error(`a message could not be read: ${e?.message ?? e}`)));
    w.on('exit', (code) => handle.onExit(code));
    handle.post = (m, transfer = []) => w.postMessage(m, transfer);
    handle.terminate = () => w.terminate().then(() => {}, () => {});
    return handle;
  }
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  w.onmessage = (e) => handle.onMessage(e.data);
  w.onerror = (e) => {
    e.preventDefault?.();
    handle.onError(new Error(e.message || 'the worker script failed (an uncaught exception, or it could not be loaded)'));
  };
  w.onmessageerror = () => handle.onError(new Error('a message from the worker could not be read'));
  handle.post = (m, transfer = []) => w.postMessage(m, transfer);
  handle.terminate = () => { w.terminate(); return Promise.resolve(); };
  return handle;
}
