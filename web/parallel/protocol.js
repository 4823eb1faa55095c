// protocol.js: the words the main thread and the workers of web/parallel/ share: the layout of
// the control buffer of shared mode, its operation codes, and the query kinds.

/** Query kinds, as sc_wasm_mt_work's job.op (src/slabcast_wasm_mt.c). */
export const QUERY = {
  castRays: { op: 0, per: 7, name: 'rays', sweep: false },
  anyHit: { op: 1, per: 7, name: 'rays', sweep: false },
  castSegments: { op: 2, per: 6, name: 'segments', sweep: false },
  castSpheres: { op: 3, per: 8, name: 'sweeps', sweep: true },
  castBoxes: { op: 4, per: 10, name: 'sweeps', sweep: true },
  castCapsules: { op: 5, per: 11, name: 'sweeps', sweep: true },
};

// The control buffer (an Int32Array over a SharedArrayBuffer), shared mode only.
export const GEN = 0; //       bumped by the main thread for each command; workers wait on it
export const OP = 1; //        the command: one of CMD
export const REMAINING = 2; // workers that have not finished the command
export const DONE = 3; //      set to GEN by the last worker to finish; the main thread waits on it
export const JOB = 4; //       wasm address of the job (sc_mt_job)
export const FAULT_WORKER = 5; // fault injection (tests): which worker
export const FAULT_KIND = 6; //   and what it does (FAULT)
export const HEADER = 8;
export const PER_WORKER = 4; // [status (0 ok, 1 exception), message bytes, blocks taken, spare]
export const MESSAGE_BYTES = 256; // per worker, after the words

export const CMD = { job: 1, exit: 2 };
/** Armed faults (tests): on the next job, worker FAULT_WORKER throws or never answers. */
export const FAULT = { throw: 1, hang: 2 };

/** Bytes of the control buffer for n workers. */
export const controlBytes = (n) => 4 * (HEADER + PER_WORKER * n) + MESSAGE_BYTES * n;
/** Byte offset of worker k's message area. */
export const messageOffset = (n, k) => 4 * (HEADER + PER_WORKER * n) + MESSAGE_BYTES * k;
