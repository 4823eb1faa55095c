// protocol.js: the words the main thread and the workers of web/parallel/ share: the layout of
// the control buffer of shared mode, its operation codes, the query kinds, and where a copied
// worker writes a slice's answers in the buffer it lends back.

/**
 * Query kinds. op: sc_wasm_mt_work's job.op (src/slabcast_wasm_mt.c) and sc_wasm_check_batch's op;
 * per: floats per item; name: the batch's name in errors; out: the answers' layout (OUT);
 * kind: an overlap's sc_shape_type (0 a frustum); weight: what an item counts against the inline
 * option (a ray 1; a sweep, point, ray's every hit or volume 8: each costs several rays, measured
 * at 10k boxes: a sphere sweep about 3.5 rays, a nearest object 3 to 6, a castRayAll 8).
 */
export const QUERY = {
  castRays: { op: 0, per: 7, name: 'rays', out: 'cast', weight: 1 },
  anyHit: { op: 1, per: 7, name: 'rays', out: 'hit', weight: 1 },
  castSegments: { op: 2, per: 6, name: 'segments', out: 'cast', weight: 1 },
  castSpheres: { op: 3, per: 8, name: 'sweeps', out: 'sweep', weight: 8 },
  castBoxes: { op: 4, per: 10, name: 'sweeps', out: 'sweep', weight: 8 },
  castCapsules: { op: 5, per: 11, name: 'sweeps', out: 'sweep', weight: 8 },
  closestObjects: { op: 6, per: 3, name: 'points', out: 'closest', weight: 8 },
  castRayAll: { op: 7, per: 7, name: 'rays', out: 'all', weight: 8 },
  overlapFrustums: { op: 8, per: 24, name: 'frustums', out: 'overlap', kind: 0, weight: 8 },
  overlapAABBs: { op: 9, per: 6, name: 'boxes', out: 'overlap', kind: 1, weight: 8 },
  overlapOBBs: { op: 10, per: 15, name: 'obbs', out: 'overlap', kind: 2, weight: 8 },
  overlapSpheres: { op: 11, per: 4, name: 'spheres', out: 'overlap', kind: 3, weight: 8 },
  overlapCapsules: { op: 13, per: 7, name: 'capsules', out: 'overlap', kind: 5, weight: 8 },
};

/**
 * The fixed answers of one item, per layout: [key, typed array kind, elements per item]. 'all' and
 * 'overlap' have as many answers per item as it has hits: a list (start, then the hits' arrays).
 */
export const OUT = {
  cast: [['t', Float32Array, 1], ['index', Int32Array, 1], ['normal', Float32Array, 3]],
  sweep: [['t', Float32Array, 1], ['index', Int32Array, 1], ['normal', Float32Array, 3], ['point', Float32Array, 3]],
  hit: [['hit', Uint8Array, 1]],
  closest: [['index', Int32Array, 1], ['distance', Float32Array, 1], ['point', Float32Array, 3]],
  all: [['t', Float32Array, 1], ['index', Int32Array, 1], ['normal', Float32Array, 3]],
  overlap: [['index', Int32Array, 1]],
};

/** QUERY's names by code (a job's header names its query by its index here). */
export const QUERY_NAMES = Object.keys(QUERY);

/**
 * Copied mode: the bytes before a slice's items in the buffer lent to a worker, its header:
 * int32 words [the job's id, its query (QUERY_NAMES index), its items], then the float32
 * closestObjects' maxDistance. A job without options or changes is that buffer alone, and an
 * answer of fixed size comes back as that buffer alone, the header's id unchanged.
 */
export const JOB_HEAD = 16;

/** Whether a query's answers per item vary in number (castRayAll, overlaps). */
export const isList = (q) => q.out === 'all' || q.out === 'overlap';

/** The last layout of each query (a frame's calls are often the same size): shared, never changed. */
const layouts = new Map();

/**
 * Copied mode: where a slice of m items lies in the buffer lent to a worker: its header
 * (JOB_HEAD bytes), its input (m * per floats), then each fixed answer array at an 8-aligned
 * offset. [[key, Type, offset, length]], and the bytes the buffer needs (and m). List answers
 * travel as arrays of their own. The answer may be the one of the last call: read it, never change it.
 */
export function sliceLayout(q, m) {
  const last = layouts.get(q);
  if (last !== undefined && last.m === m) return last;
  let at = JOB_HEAD + 4 * q.per * m;
  const fields = [];
  if (!isList(q)) {
    for (const [key, Type, per] of OUT[q.out]) {
      at = (at + 7) & ~7;
      fields.push([key, Type, at, per * m]);
      at += Type.BYTES_PER_ELEMENT * per * m;
    }
  }
  const layout = { m, fields, bytes: Math.max(8, (at + 7) & ~7) };
  layouts.set(q, layout);
  return layout;
}

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
/**
 * Armed faults (tests): on the next job, worker FAULT_WORKER throws or never answers; garble
 * (copied mode): it answers with a malformed message.
 */
export const FAULT = { throw: 1, hang: 2, garble: 3 };

/** Bytes of the control buffer for n workers. */
export const controlBytes = (n) => 4 * (HEADER + PER_WORKER * n) + MESSAGE_BYTES * n;
/** Byte offset of worker k's message area. */
export const messageOffset = (n, k) => 4 * (HEADER + PER_WORKER * n) + MESSAGE_BYTES * k;
