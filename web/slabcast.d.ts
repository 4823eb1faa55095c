// Types for web/slabcast.js (hand-written; keep in step with it).
// Semantics: docs/semantics.md (shipped in this package). Every number is rounded to float32 on the way in.

/** [x, y, z]. Arrays and typed arrays of length 3 are accepted as input. */
export type Vec3 = [number, number, number];
export type Vec3Input = readonly [number, number, number] | ArrayLike<number>;

/** Points origin + t*dir for 0 <= t <= tmax; dir need not be unit length. */
export interface Ray {
  origin: Vec3Input;
  dir: Vec3Input;
  /** Absent (undefined) means +Infinity. */
  tmax?: number;
}

/** Points a + s*(b-a) for 0 <= s <= 1. */
export interface Segment {
  a: Vec3Input;
  b: Vec3Input;
}

/** Closed axis-aligned box; min <= max on every axis. */
export interface Aabb {
  type: 'aabb';
  min: Vec3Input;
  max: Vec3Input;
}

/** Closed oriented box {p : |(p - center) . axes[i]| <= half[i]}; axes orthonormal within 1e-4. */
export interface Obb {
  type: 'obb';
  center: Vec3Input;
  axes: readonly [Vec3Input, Vec3Input, Vec3Input];
  half: Vec3Input;
}

/** Closed ball; radius 0 is a point. */
export interface Sphere {
  type: 'sphere';
  center: Vec3Input;
  radius: number;
}

/** The two-sided plane {x : normal . x = d}; normal need not be unit length. */
export interface Plane {
  type: 'plane';
  normal: Vec3Input;
  d: number;
}

/** Closed capsule: the points within radius of the segment a-b. a == b is a ball; radius 0 is the segment. */
export interface Capsule {
  type: 'capsule';
  a: Vec3Input;
  b: Vec3Input;
  radius: number;
}

export type Shape = Aabb | Obb | Sphere | Plane | Capsule;

export interface RaycastMiss {
  hit: false;
}

export interface RaycastHit {
  hit: true;
  /** max(t_enter, 0): the first point of the ray in the shape. */
  t: number;
  /** Entry of the whole line's interval (negative: the origin is inside). */
  t_enter: number;
  /** Exit of the whole line's interval. */
  t_exit: number;
  /** origin + t*dir. */
  point: Vec3;
  /** Outward unit normal at point; [0, 0, 0] when the origin is strictly inside. */
  normal: Vec3;
}

export type RaycastResult = RaycastMiss | RaycastHit;

/** A flat batch of floats (a Float64Array or an array is converted to float32 first). */
export type FloatBatch = Float32Array | Float64Array | readonly number[];

/** Nearest hits of a batch, one entry per ray or segment. */
export interface CastResult {
  /** max(t_enter, 0) of the nearest hit (for segments, in [0, 1] along a..b); 0 for a miss. */
  t: Float32Array;
  /** The object hit (ties go to the lowest index), or -1 for a miss. */
  index: Int32Array;
  /** 3 floats per entry: the outward normal at the hit; [0, 0, 0] for a miss or an origin inside. */
  normal: Float32Array;
}

/** First contacts of a batch of sweeps (World.castSpheres, World.castBoxes, World.castCapsules). */
export interface SweepResult extends CastResult {
  /** 3 floats per sweep: the contact point on the object; 0 for no contact. */
  point: Float32Array;
}

/** Every hit of one ray (World.castRayAll), nearest first. */
export interface CastAllResult extends CastResult {
  /** The number of hits; more than the arrays hold when the caller's arrays were too short. */
  count: number;
}

/** Caller-owned arrays to fill instead of allocating; each must hold at least the batch's size. */
export interface CastTarget {
  t?: Float32Array;
  index?: Int32Array;
  normal?: Float32Array;
}

/**
 * Which objects a world query may hit (docs/semantics.md, "Filters"). Removed and disabled
 * objects are never hit, with or without options. An own key that is not one of these three
 * throws a SlabcastError naming it ("options.exlude is not an option (mask, exclude, inside);
 * did you mean exclude?").
 */
export interface QueryOptions {
  /** Hit only objects whose mask shares a bit with this one: (objectMask & mask) !== 0. Default: all bits. */
  mask?: number;
  /** One object index per ray (or segment) that it ignores, -1 for none: "skip my own collider". */
  exclude?: Int32Array;
  /**
   * An object that contains the ray's origin: 'solid' (default) reports it at t = 0 with a zero
   * normal; 'exit' reports where the ray leaves it (t_exit, the exit face's outward normal) when
   * that is within tmax; 'skip' ignores it.
   */
  inside?: 'solid' | 'exit' | 'skip';
}

/** An object's kind in a world; 'removed' once World.remove freed its index. */
export type ObjectKind = 'aabb' | 'obb' | 'sphere' | 'capsule' | 'removed';

/**
 * Many AABBs, OBBs and spheres in wasm memory, with a BVH, for batch queries. Every call
 * validates its input first and throws SlabcastError, leaving the world unchanged, on a
 * wrong array length, a NaN or infinity, a zero direction, min > max, a radius < 0 or an
 * index out of range. After dispose() every call throws; a second dispose() does nothing.
 */
export interface World {
  /** Adds AABBs: 6 floats each (minx, miny, minz, maxx, maxy, maxz). Returns the index of the first. */
  addAABBs(boxes: FloatBatch): number;
  /** Adds OBBs: 15 floats each (center, axes[0], axes[1], axes[2], half). Returns the index of the first. */
  addOBBs(obbs: FloatBatch): number;
  /** Adds spheres: 4 floats each (center, radius). Returns the index of the first. */
  addSpheres(spheres: FloatBatch): number;
  /** Adds capsules: 7 floats each (a xyz, b xyz, radius: the points within radius of the segment a-b). Returns the index of the first. */
  addCapsules(capsules: FloatBatch): number;
  /** Replaces the AABBs first, first + 1, ... (they must be AABBs). Queries commit by themselves. */
  updateAABBs(first: number, boxes: FloatBatch): void;
  /** Replaces the OBBs first, first + 1, ... (they must be OBBs). */
  updateOBBs(first: number, obbs: FloatBatch): void;
  /** Replaces the spheres first, first + 1, ... (they must be spheres). */
  updateSpheres(first: number, spheres: FloatBatch): void;
  /** Replaces the capsules first, first + 1, ... (they must be capsules). */
  updateCapsules(first: number, capsules: FloatBatch): void;
  /**
   * Makes the world ready for queries now: rebuilds the BVH after adds, refits it after updates,
   * else does nothing. Queries commit by themselves; call this to choose when the work is done.
   */
  commit(): void;
  /** Refits the BVH to moved objects now (queries do it by themselves when needed). */
  refit(): void;
  /** Rebuilds the BVH now (queries do it by themselves after adds). */
  build(): void;
  /**
   * Frees object `index`: it is never hit again and no other index changes. A later add of one
   * object may take the freed index. Takes effect at once. An index past the end throws
   * ("index 7 is outside the world (it has 4 objects)").
   */
  remove(index: number): void;
  /** Enables (non-zero) or disables (0) objects first, first + 1, ...; a disabled object is never hit. */
  setEnabled(first: number, flags: Uint8Array): void;
  /** Sets the 32-bit masks of objects first, first + 1, ... (every object starts with all bits). */
  setMasks(first: number, masks: Uint32Array): void;
  /** The kind of object `index`: 'aabb', 'obb', 'sphere', 'capsule', 'removed'; undefined past count. */
  kindOf(index: number): ObjectKind | undefined;
  /** Nearest hit per ray: 7 floats each (ox, oy, oz, dx, dy, dz, tmax; tmax may be Infinity). */
  castRays(rays: FloatBatch, out?: CastTarget | null, options?: QueryOptions): CastResult;
  /** castRays without the BVH (every object against every ray): the same results, for checks and benchmarks. */
  castRaysBruteForce(rays: FloatBatch, out?: CastTarget | null, options?: QueryOptions): CastResult;
  /** Nearest hit along each segment: 6 floats each (ax, ay, az, bx, by, bz). */
  castSegments(segments: FloatBatch, out?: CastTarget | null, options?: QueryOptions): CastResult;
  /**
   * Every object one ray hits within [0, tmax], nearest first (ties by index): the ray is 7 floats
   * (ox, oy, oz, dx, dy, dz, tmax), t is as castRays' (bit for bit the single query's). Without
   * `out`, the arrays hold exactly `count` hits; with `out`, its arrays (missing ones are allocated)
   * are filled up to the room of the smallest (normal: 3 floats per hit), and `count` may exceed it.
   */
  castRayAll(ray: FloatBatch, out?: CastTarget | null, options?: QueryOptions): CastAllResult;
  /**
   * Sphere sweeps: 8 floats each (origin xyz, dir xyz, tmax, radius). The first t in [0, tmax] at
   * which the sphere, its centre moving along the ray, touches an object (ties to the lowest index),
   * the object's outward normal there and the contact point on it. Already touching at t = 0: t = 0,
   * normal 0 ('skip' ignores such objects). Computed in double precision.
   */
  castSpheres(sweeps: FloatBatch, out?: (CastTarget & { point?: Float32Array }) | null, options?: QueryOptions): SweepResult;
  /** Box sweeps: 10 floats each (origin xyz, dir xyz, tmax, half extents xyz), an axis-aligned box; as castSpheres. */
  castBoxes(sweeps: FloatBatch, out?: (CastTarget & { point?: Float32Array }) | null, options?: QueryOptions): SweepResult;
  /**
   * Capsule sweeps: 11 floats each (a xyz, b xyz, dir xyz, tmax, radius): the capsule moves as
   * a + t dir, b + t dir; as castSpheres (the normal is the object's outward normal at the contact,
   * the point is on the object).
   */
  castCapsules(sweeps: FloatBatch, out?: (CastTarget & { point?: Float32Array }) | null, options?: QueryOptions): SweepResult;
  /** castSpheres without the BVH, for checks and benchmarks. */
  castSpheresBruteForce(sweeps: FloatBatch, out?: (CastTarget & { point?: Float32Array }) | null, options?: QueryOptions): SweepResult;
  /** castBoxes without the BVH, for checks and benchmarks. */
  castBoxesBruteForce(sweeps: FloatBatch, out?: (CastTarget & { point?: Float32Array }) | null, options?: QueryOptions): SweepResult;
  /** castCapsules without the BVH, for checks and benchmarks. */
  castCapsulesBruteForce(sweeps: FloatBatch, out?: (CastTarget & { point?: Float32Array }) | null, options?: QueryOptions): SweepResult;
  /**
   * The objects sharing a point with the closed box [min, max] (touching counts), in ascending
   * index order: the first out.length of them are written to out; returns how many there are (call
   * again with a longer out for the rest). options: mask, and exclude[0] (one index). Exact for
   * every pair of shapes but a capsule against an OBB or a frustum (docs/semantics.md, "Overlaps").
   */
  overlapAABB(min: Vec3Input, max: Vec3Input, out: Int32Array | null, options?: QueryOptions): number;
  /** As overlapAABB, for the closed ball (center, radius). */
  overlapSphere(center: Vec3Input, radius: number, out: Int32Array | null, options?: QueryOptions): number;
  /** As overlapAABB, for the closed capsule: the points within radius of the segment a-b. */
  overlapCapsule(a: Vec3Input, b: Vec3Input, radius: number, out: Int32Array | null, options?: QueryOptions): number;
  /** As overlapAABB, for an OBB: 15 numbers (center, axes[0], axes[1], axes[2], half). */
  overlapOBB(obb: FloatBatch, out: Int32Array | null, options?: QueryOptions): number;
  /**
   * As overlapAABB, for a frustum: 24 numbers, 6 planes (nx, ny, nz, d), inside where n.x + d >= 0
   * for all six: a three.js Frustum is frustum.planes.flatMap((p) => [...p.normal.toArray(), p.constant]).
   */
  overlapFrustum(planes: FloatBatch, out: Int32Array | null, options?: QueryOptions): number;
  /** Any overlap without the BVH (every object tested), for checks and benchmarks: 6, 4, 15, 7 or 24 numbers. */
  overlapBruteForce(kind: 'aabb' | 'sphere' | 'obb' | 'capsule' | 'frustum', floats: FloatBatch, out: Int32Array | null, options?: QueryOptions): number;
  /**
   * Per point (3 floats each): the nearest object within maxDistance (Infinity for any; ties to
   * the lowest index; -1 for none), the distance from the point to its closed solid (0 inside,
   * Infinity for none) and the closest point on it (the point itself inside). options: mask, and
   * exclude (one index per point).
   */
  closestObjects(points: FloatBatch, maxDistance: number, out?: { index?: Int32Array; distance?: Float32Array; point?: Float32Array } | null, options?: QueryOptions): { index: Int32Array; distance: Float32Array; point: Float32Array };
  /** closestObjects without the BVH, for checks and benchmarks. */
  closestObjectsBruteForce(points: FloatBatch, maxDistance: number, out?: { index?: Int32Array; distance?: Float32Array; point?: Float32Array } | null, options?: QueryOptions): { index: Int32Array; distance: Float32Array; point: Float32Array };
  /** Whether each ray hits anything within [0, tmax] (1) or not (0); stops at the first hit. */
  anyHit(rays: FloatBatch, out?: Uint8Array | null, options?: QueryOptions): Uint8Array;
  /**
   * The number of object indices, removed objects included: valid indices are 0 to count - 1, and
   * a removed index stays counted until a later add of one object reuses it. Size per-object
   * arrays (setMasks, setEnabled) with it.
   */
  readonly count: number;
  /** The number of objects that are not removed: count minus the removed ones. */
  readonly liveCount: number;
  /** Bytes of wasm memory the world holds. */
  readonly bytes: number;
  /** Whether dispose() has been called. */
  readonly disposed: boolean;
  /** Frees the world's memory. */
  dispose(): void;
  /** dispose(), for `using world = sc.createWorld()`. */
  [Symbol.dispose](): void;
}

export interface Slabcast {
  /** Ray against a shape. */
  raycast(ray: Ray, shape: Shape): RaycastResult;
  /** Whether the segment and the shape share a point (closed solids). */
  linetest(segment: Segment, shape: Shape): { hit: boolean };
  /** The point of the shape nearest to `point` (the point itself when inside a solid). */
  closestPoint(point: Vec3Input, shape: Shape): { point: Vec3 };
  /** Whether `point` lies in the closed solid. A plane throws SlabcastError (no inside). */
  /**
   * raycast for one ray (7 numbers: origin, dir, tmax) and one AABB (6: min, max), without
   * allocating: on a hit writes t, t_enter, t_exit, point (3), normal (3) into target (at least 9)
   * and returns true; a miss returns false and leaves target alone. raycast's answer, bit for bit.
   */
  raycastAABB(ray: Float32Array | Float64Array | readonly number[], box: Float32Array | Float64Array | readonly number[], target: Float32Array | Float64Array): boolean;
  contains(point: Vec3Input, shape: Shape): { inside: boolean };
  /** The core's message for an sc_status value. */
  statusMessage(status: number): string;
  /** A new, empty world for batch queries. */
  createWorld(): World;
  /** The SIMD backend of the world kernels: 'wasm-simd128' (or 'scalar', 'none'). */
  readonly simd: string;
  /** The module's memory. It may grow: never keep views of it across calls. */
  readonly memory: WebAssembly.Memory;
}

/** loadSlabcast's options; any other key rejects with a SlabcastError naming it. */
export interface LoadOptions {
  /**
   * Where the core comes from: its bytes, a URL or path (in Node a relative path is
   * relative to the working directory), a fetch Response, or a compiled module.
   * Default: new URL('./slabcast.wasm', import.meta.url).
   */
  wasm?: ArrayBuffer | ArrayBufferView | URL | string | Response | WebAssembly.Module;
}

/** Load web/slabcast.wasm (or options.wasm) and return the query API. Rejects with SlabcastError. */
export function loadSlabcast(options?: LoadOptions): Promise<Slabcast>;

/**
 * Invalid input (the message names the field, as the case runners print it:
 * '"ray.origin" must be an array of 3 numbers', 'ray.dir is zero'), a module
 * that cannot be loaded, or a trap inside the module.
 */
export class SlabcastError extends Error {
  constructor(message: string, details?: { field?: string; status?: number; cause?: unknown });
  name: 'SlabcastError';
  /** The input field at fault, for structural errors (e.g. 'ray.origin'). */
  field?: string;
  /** The core's sc_status, for errors the core reported. */
  status?: number;
}

/** The longest prefix of s whose UTF-8 form has at most max (64) bytes, cut at a character boundary. */
export function truncateUtf8(s: string, max?: number): string;

declare global {
  // Symbol.dispose (explicit resource management), declared as TypeScript's own lib and
  // @types/node declare it, for projects whose lib setting predates it.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}
