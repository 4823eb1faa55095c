// Types of slabcast/parallel (web/parallel.js): a world whose batch queries run on workers.
// docs/parallel.md says when to use it and what a page must serve for shared memory.
import type { CastResult, CastTarget, FloatBatch, ObjectKind, QueryOptions, SweepResult } from './slabcast.js';

export { SlabcastError } from './slabcast.js';

/** Where a parallel world's objects live: once, shared by every worker, or a replica per worker. */
export type MemoryMode = 'shared' | 'copied';

export interface ParallelWorldOptions {
  /** Workers (1 to 64). Default: the number of cores, at most 4. */
  workers?: number;
  /** 'auto' (default): 'shared' in Node and in cross-origin isolated pages, else 'copied'. 'shared' where the page cannot share is an error. */
  memory?: 'auto' | MemoryMode;
  /** The single-threaded build (copied mode): bytes, URL, path, Response or Module. Default: slabcast.wasm beside slabcast.js. */
  wasm?: ArrayBuffer | ArrayBufferView | URL | string | Response | WebAssembly.Module;
  /** The shared-memory build (shared mode). Default: slabcast-mt.wasm beside parallel.js. */
  sharedWasm?: ArrayBuffer | ArrayBufferView | URL | string | Response | WebAssembly.Module;
  /** Milliseconds for the workers to start and for each query (default 10000; Infinity for none). */
  timeout?: number;
  /** Shared mode: how many times an idle worker polls for the next job before it sleeps (default 2000). */
  spin?: number;
  /**
   * Batches of at most this many rays or segments run on the calling thread, in their turn, as a
   * World would run them: a message to a worker and back costs more than they do (default 256;
   * 0: every batch on the workers). An item of the other queries (a sweep, a point, a ray of
   * castRayAll, an overlap volume) counts as 8. In copied memory the calling thread's replica
   * builds its BVH on the first such call.
   */
  inline?: number;
}

/**
 * The answers of a batch whose items each have any number of them (castRayAll, the overlaps):
 * item i's are entries start[i] to start[i + 1] - 1 of the arrays.
 */
export interface ListResult {
  /** n + 1 entries: start[0] = 0, start[n] = the number of entries in all. */
  start: Int32Array;
  /** Object indices: for item i, those of its World call, in its order. */
  index: Int32Array;
}

/** castRayAll's lists: per ray, every hit nearest first (ties by index), as World.castRayAll. */
export interface RayAllResult extends ListResult {
  t: Float32Array;
  /** 3 floats per hit. */
  normal: Float32Array;
}

/** closestObjects' answers (as World.closestObjects). */
export interface ClosestResult {
  index: Int32Array;
  distance: Float32Array;
  point: Float32Array;
}

/**
 * A world whose batch queries run on workers, with answers bit for bit those of a World.
 * Changes are synchronous and checked as a World checks them; a change while a query is pending
 * throws. Each query sees every change made before it was called; queries settle in call order.
 * Small batches (options.inline) run on the calling thread.
 */
export interface ParallelWorld {
  readonly memoryMode: MemoryMode;
  readonly workers: number;
  /** Queries not yet settled. */
  readonly pending: number;
  /** The error that stopped the workers (a worker threw, exited or timed out): call rebuild(). */
  readonly failed: Error | null;
  readonly disposed: boolean;
  /** The number of object indices, removed objects included (World.count). */
  readonly count: number;
  /** The number of objects that are not removed (World.liveCount). */
  readonly liveCount: number;
  addAABBs(boxes: FloatBatch): number;
  addOBBs(obbs: FloatBatch): number;
  addSpheres(spheres: FloatBatch): number;
  addCapsules(capsules: FloatBatch): number;
  updateAABBs(first: number, boxes: FloatBatch): void;
  updateOBBs(first: number, obbs: FloatBatch): void;
  updateSpheres(first: number, spheres: FloatBatch): void;
  updateCapsules(first: number, capsules: FloatBatch): void;
  remove(index: number): void;
  setEnabled(first: number, flags: Uint8Array): void;
  setMasks(first: number, masks: Uint32Array): void;
  kindOf(index: number): ObjectKind | undefined;
  /**
   * Nearest hit per ray (7 floats each), split across the workers. With out, fills its arrays and
   * resolves with them. Bad input rejects with the World's SlabcastError before any worker sees it.
   */
  castRays(rays: FloatBatch, out?: CastTarget | null, options?: QueryOptions): Promise<CastResult>;
  /** Whether each ray hits anything (1 or 0 per ray). */
  anyHit(rays: FloatBatch, out?: Uint8Array | null, options?: QueryOptions): Promise<Uint8Array>;
  /** World.castSegments on the workers (6 floats each: ax, ay, az, bx, by, bz). */
  castSegments(segments: FloatBatch, out?: CastTarget | null, options?: QueryOptions): Promise<CastResult>;
  /** World.castSpheres on the workers (8 floats each: origin, dir, tmax, radius). */
  castSpheres(sweeps: FloatBatch, out?: (CastTarget & { point?: Float32Array }) | null, options?: QueryOptions): Promise<SweepResult>;
  /** World.castBoxes on the workers (10 floats each: origin, dir, tmax, half extents). */
  castBoxes(sweeps: FloatBatch, out?: (CastTarget & { point?: Float32Array }) | null, options?: QueryOptions): Promise<SweepResult>;
  /** World.castCapsules on the workers (11 floats each: a, b, dir, tmax, radius). */
  castCapsules(sweeps: FloatBatch, out?: (CastTarget & { point?: Float32Array }) | null, options?: QueryOptions): Promise<SweepResult>;
  /** World.closestObjects on the workers (3 floats per point); options.exclude: one index per point. */
  closestObjects(points: FloatBatch, maxDistance: number, out?: Partial<ClosestResult> | null, options?: QueryOptions): Promise<ClosestResult>;
  /**
   * World.castRayAll for each of a batch of rays (7 floats each), split across the workers.
   * options.exclude: one index per ray. No out argument: the lists' lengths are known only after.
   */
  castRayAll(rays: FloatBatch, options?: QueryOptions): Promise<RayAllResult>;
  /** World.overlapAABB for each box (6 floats: min xyz, max xyz); options.exclude: one index per box. */
  overlapAABBs(boxes: FloatBatch, options?: QueryOptions): Promise<ListResult>;
  /** World.overlapSphere for each ball (4 floats: center, radius). */
  overlapSpheres(spheres: FloatBatch, options?: QueryOptions): Promise<ListResult>;
  /** World.overlapOBB for each OBB (15 floats: center, axes[0..2], half). */
  overlapOBBs(obbs: FloatBatch, options?: QueryOptions): Promise<ListResult>;
  /** World.overlapCapsule for each capsule (7 floats: a xyz, b xyz, radius). */
  overlapCapsules(capsules: FloatBatch, options?: QueryOptions): Promise<ListResult>;
  /** World.overlapFrustum for each frustum (24 floats: 6 planes nx, ny, nz, d). */
  overlapFrustums(frustums: FloatBatch, options?: QueryOptions): Promise<ListResult>;
  /** Stops the workers and starts new ones, keeping the objects (after a fault). */
  rebuild(): Promise<void>;
  /** Ends the workers and frees the world; pending queries reject. */
  dispose(): Promise<void>;
}

/** Starts the workers of a new, empty parallel world. */
export function createParallelWorld(options?: ParallelWorldOptions): Promise<ParallelWorld>;
