// Types for web/slabcast.js (hand-written; keep in step with it).
// Semantics: shared/spec/CASES.md. Every number is rounded to float32 on the way in.

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

export type Shape = Aabb | Obb | Sphere | Plane;

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

export interface Slabcast {
  /** Ray against a shape. */
  raycast(ray: Ray, shape: Shape): RaycastResult;
  /** Whether the segment and the shape share a point (closed solids). */
  linetest(segment: Segment, shape: Shape): { hit: boolean };
  /** The point of the shape nearest to `point` (the point itself when inside a solid). */
  closestPoint(point: Vec3Input, shape: Shape): { point: Vec3 };
  /** Whether `point` lies in the closed solid. A plane throws SlabcastError (no inside). */
  contains(point: Vec3Input, shape: Shape): { inside: boolean };
  /** The core's message for an sc_status value. */
  statusMessage(status: number): string;
  /** The module's memory. It may grow: never keep views of it across calls. */
  readonly memory: WebAssembly.Memory;
}

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
