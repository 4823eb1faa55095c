// Types for web/three.js, the three.js adapter (import 'slabcast/three'). Hand-written; keep in
// step with it. The module comment of web/three.js has the full semantics.
import type { BatchedMesh, Box3, Camera, Frustum, InstancedMesh, Layers, Matrix3, Object3D, Ray, Sphere, Vector3 } from 'three';
import type { Slabcast } from './slabcast.js';
import type { ParallelWorld } from './parallel.js';

/** createThreeWorld's options; any other key throws a SlabcastError naming it. */
export interface ThreeWorldOptions {
  /**
   * Meshes to track, by their geometry's bounding box through their matrixWorld (axis-aligned
   * without rotation, an oriented box with rotation). With `recursive` (the default), also every
   * Mesh below each, in three.js's traversal order; other objects (Group, Line, Points, Sprite...)
   * are skipped. Each mesh is tracked once. An InstancedMesh is one entry per instance slot
   * (instanceMatrix.count of them: slots at or past `count` never hit), instance i's box being the
   * geometry's bounding box through matrixWorld x getMatrixAt(i); a BatchedMesh is one entry per
   * instance id (maxInstanceCount of them: unused, deleted and invisible instances never hit),
   * its box getBoundingBoxAt(getGeometryIdAt(i)) through matrixWorld x getMatrixAt(i).
   */
  objects?: readonly Object3D[];
  /** Axis-aligned boxes, after the objects. An empty Box3 (min > max on some axis) never hits. */
  boxes?: readonly Box3[];
  /** Also track the meshes below `objects`, as Raycaster.intersectObjects(objects, recursive). Default true. */
  recursive?: boolean;
  /**
   * A matrixWorld with shear (non-orthogonal columns: a non-uniform scale under a rotated parent)
   * cannot be an oriented box. 'bound' (the default): use the world AABB of the 8 transformed
   * corners, a conservative bound that may report hits the sheared box has not (kindOf gives
   * 'bound'); 'throw': refuse the mesh.
   */
  shear?: 'bound' | 'throw';
  /**
   * An empty ParallelWorld (createParallelWorld from slabcast/parallel) to hold the entries: the
   * world's rays and sweeps then run on its workers and return Promises (ParallelThreeWorld).
   * Every box is stored as an OBB there (results agree with a synchronous world's to float32
   * rounding). dispose() leaves the ParallelWorld to the caller.
   */
  parallel?: ParallelWorld | null;
}

/**
 * What a query reads of a Raycaster: a THREE.Raycaster, or a plain object.
 * near and far bound the distance at which a box is entered, as three.js's per-triangle test does.
 */
export interface RaycasterLike {
  ray: Ray;
  /** Hits nearer than this are dropped (default 0). Must be >= 0. */
  near?: number;
  /** Hits farther than this are dropped (default Infinity). Must be >= 0. */
  far?: number;
  /**
   * A mesh counts only if object.layers.test(layers), as in three.js (the core skips the others:
   * layers.mask is the query mask). Box3 entries always count, even when layers.mask is 0.
   * Absent: every layer (a mesh whose layers.mask is 0 is still never hit).
   */
  layers?: Layers;
}

/**
 * A hit, in the shape of three.js's Intersection. Fields of three.js's Intersection that are not
 * reproduced are absent: faceIndex, face.a / b / c, face.materialIndex, uv, uv1, normal (the
 * interpolated vertex normal), barycoord.
 */
export interface ThreeWorldIntersection {
  /** Distance from the ray's origin to the point where the ray enters the box (0 when it starts inside). */
  distance: number;
  /** origin + t * direction on the caller's ray (world space). */
  point: Vector3;
  /** The mesh (the InstancedMesh or BatchedMesh for an instance), or null for a Box3 entry. */
  object: Object3D | null;
  /** The instance hit, on hits of an InstancedMesh only (as three.js's). */
  instanceId?: number;
  /** The instance id hit, on hits of a BatchedMesh only (as three.js's). */
  batchId?: number;
  /**
   * face.normal: the outward normal of the bounding-box face the ray enters, in the object's
   * local space (an instance's geometry's), as three.js's face.normal (for a box mesh: three.js's
   * face normal). World space for a Box3 entry. (0, 0, 0) when the ray starts inside the box.
   */
  face: { normal: Vector3 };
  /** slabcast extension: the same normal in world space (unit length, or (0, 0, 0) when the ray starts inside). */
  worldNormal: Vector3;
  /** slabcast extension: the entry's index (entries[index] is object, or box). */
  index: number;
  /** slabcast extension: the Box3 for a Box3 entry, else null. */
  box: Box3 | null;
}

/** Nearest hits of a batch (castRays), one entry per ray. */
export interface ThreeCastResult {
  /** Distance to the nearest hit, or Infinity for a miss. */
  distance: Float32Array;
  /** The entry hit (entries[index]), or -1 for a miss. Ties go to the lowest index. */
  index: Int32Array;
  /**
   * The instance hit: an InstancedMesh's instanceId or a BatchedMesh's batchId (the object is
   * entries[index]); -1 for any other entry and for a miss.
   */
  instanceId: Int32Array;
  /** 3 floats per ray: the hit point in world space; 0 for a miss. */
  point: Float32Array;
  /** 3 floats per ray: the outward unit normal in world space; 0 for a miss or a ray starting inside. */
  normal: Float32Array;
  /** The entry per ray (entries[index]), null for a miss; made when first read, unless target.objects was given. */
  readonly objects: Array<Object3D | Box3 | null>;
}

/** castRays's options; any other key throws a SlabcastError naming it. */
export interface ThreeCastOptions {
  /** As Raycaster.near (default 0). */
  near?: number;
  /** As Raycaster.far (default Infinity). */
  far?: number;
  /** As Raycaster.layers (default: every layer; Box3 entries always count). */
  layers?: Layers;
  /** Objects the rays ignore (see ThreeExclude). */
  exclude?: ThreeExclude;
  /** A ray starting inside an entry: 'solid' (default) hits it at 0, 'skip' ignores it, 'exit' hits it where the ray leaves it. */
  inside?: ThreeInside;
  /** Caller-owned arrays to fill instead of allocating; each must hold at least the batch's size. */
  target?: Partial<Omit<ThreeCastResult, 'objects'>> & { objects?: Array<Object3D | Box3 | null> };
}

/** An entry a query ignores: a tracked mesh (an InstancedMesh / BatchedMesh: all its slots), any
 * Object3D with tracked meshes below it (all of them), a tracked Box3, or one instance. */
export type ThreeExcludeItem =
  | Object3D
  | Box3
  | { object: InstancedMesh; instanceId: number }
  | { object: BatchedMesh; batchId: number };

/**
 * What a query ignores: one item or a list. One entry in all is the core's per-query exclude (free);
 * more are disabled in the core world for the call and restored after it.
 */
export type ThreeExclude = ThreeExcludeItem | readonly ThreeExcludeItem[];

/** The core's rule for a ray (or a sweep) starting inside an entry (a sweep: touching it at 0; 'exit' acts as 'solid'). */
export type ThreeInside = 'solid' | 'skip' | 'exit';

/** intersect / intersectFirst's options (layers, near and far come from the raycaster). */
export interface ThreeRayOptions {
  exclude?: ThreeExclude;
  inside?: ThreeInside;
}

/**
 * An entry reported by the object queries (overlaps, sweeps, nearest), named as intersect's hits
 * name it. instanceId and batchId are always present (undefined when they do not apply), so that
 * reused result objects keep one shape.
 */
export interface ThreeWorldObject {
  /** The mesh (the InstancedMesh or BatchedMesh for an instance), or null for a Box3 entry. */
  object: Object3D | null;
  /** The entry's index (entries[index]). */
  index: number;
  /** The Box3 of a Box3 entry, else null. */
  box: Box3 | null;
  /** The InstancedMesh slot, or undefined. */
  instanceId: number | undefined;
  /** The BatchedMesh instance id, or undefined. */
  batchId: number | undefined;
}

/** Options of the overlap queries. */
export interface ThreeOverlapOptions {
  /** Only meshes on these layers (Box3 entries always count). Default: every layer. */
  layers?: Layers;
  exclude?: ThreeExclude;
  /**
   * The array to write the results into, from index 0 (its length becomes the count). Result
   * objects already in it are reused, and those it drops are kept by the world for the next call:
   * a caller that passes the same array every frame allocates nothing.
   */
  target?: ThreeWorldObject[];
}

/** three's OBB (three/examples/jsm/math/OBB.js), or the same fields. rotation's columns are the axes. */
export interface OBBLike {
  center: Vector3;
  halfSize: Vector3;
  rotation: Matrix3;
}

/** Options of the single sweeps. */
export interface ThreeSweepOptions {
  /** The farthest the shape's centre may travel, in world units (default Infinity). */
  maxDistance?: number;
  layers?: Layers;
  exclude?: ThreeExclude;
  /** An entry the shape already touches at the start: 'solid' (default) hits it at 0, 'skip' ignores it ('exit' acts as 'solid'). */
  inside?: ThreeInside;
}

/** The first contact of a single sweep. */
export interface ThreeSweepHit extends ThreeWorldObject {
  /** How far the shape's centre travelled, in world units (whatever the direction's length). */
  distance: number;
  /** The contact point on the object. */
  point: Vector3;
  /** The object's outward unit normal at the contact, pointing at the moving shape; (0, 0, 0) when touching at the start. */
  normal: Vector3;
}

/** A batch of sweeps (castSpheres / castBoxes / castCapsules): one entry per sweep. */
export interface ThreeSweepResult {
  /** t x |direction| (world units), or Infinity for none. */
  distance: Float32Array;
  /** The entry hit, or -1. */
  index: Int32Array;
  /** The InstancedMesh's instanceId or the BatchedMesh's batchId, else -1. */
  instanceId: Int32Array;
  /** 3 floats per sweep: the contact point on the object. */
  point: Float32Array;
  /** 3 floats per sweep: the object's outward unit normal at the contact. */
  normal: Float32Array;
  /** The entry (Mesh, InstancedMesh, BatchedMesh or Box3) per sweep, null for none; made when first read (from index), unless target.objects was given. */
  readonly objects: Array<Object3D | Box3 | null>;
}

/** Options of the batched sweeps (tmax is in each sweep). */
export interface ThreeSweepBatchOptions {
  layers?: Layers;
  exclude?: ThreeExclude;
  inside?: ThreeInside;
  /** Caller-owned arrays to fill (objects: an array, grown as needed). */
  target?: Partial<Omit<ThreeSweepResult, 'objects'>> & { objects?: Array<Object3D | Box3 | null> };
}

/** The nearest object to a point. */
export interface ThreeClosestHit extends ThreeWorldObject {
  /** The distance from the point to the entry's closed solid (0 inside). */
  distance: number;
  /** The closest point on the entry (the point itself inside). */
  point: Vector3;
}

/** A batch of nearest objects: one entry per point. */
export interface ThreeClosestResult {
  index: Int32Array;
  instanceId: Int32Array;
  /** Infinity for none. */
  distance: Float32Array;
  /** 3 floats per point. */
  point: Float32Array;
  readonly objects: Array<Object3D | Box3 | null>;
}

export interface ThreeClosestOptions {
  layers?: Layers;
  exclude?: ThreeExclude;
  /** closestObjects only: caller-owned arrays to fill. */
  target?: Partial<Omit<ThreeClosestResult, 'objects'>> & { objects?: Array<Object3D | Box3 | null> };
}

/**
 * What shape an entry is: 'aabb', 'obb', 'bound' (the world AABB of a sheared box, or of a rotated
 * one whose userData.slabcast.shape is 'aabb'), 'sphere' (userData.slabcast.shape 'sphere'),
 * 'capsule' (a CapsuleGeometry mesh, or userData.slabcast.shape 'capsule'), 'none' (never hits).
 */
export type ThreeWorldKind = 'aabb' | 'obb' | 'bound' | 'sphere' | 'capsule' | 'none';

/**
 * userData.slabcast of a mesh (an InstancedMesh / BatchedMesh: of all its instances): the shape it
 * opts into, re-read by update(). 'sphere': the geometry's boundingSphere through matrixWorld,
 * which must be a rotation and a uniform scale (else update / createThreeWorld throw, naming the
 * mesh). 'capsule': the capsule of the local bounding box (axis along its longest side, ties to
 * y; radius the larger other half extent; a CapsuleGeometry: its parameters) through
 * matrixWorld, which must be a rotation and a uniform scale likewise. A CapsuleGeometry mesh
 * without a shape is a capsule already (its box under a non-uniform scale).
 */
export interface ThreeSlabcastUserData {
  shape?: 'aabb' | 'obb' | 'sphere' | 'capsule';
}

/**
 * A slabcast world of three.js meshes' bounding boxes and Box3s.
 *
 * Boxes are closed solids, not triangles: from outside, a box mesh gives the same single hit as
 * three.js's Raycaster (FrontSide) at its entry face; a ray that starts inside a box hits it at
 * distance 0 (three.js reports nothing); material.side is ignored (three.js with DoubleSide
 * also reports the exit face); a mesh that is not a box is its bounding box. Every call checks
 * its input and throws SlabcastError naming the field; a refused update() changes nothing.
 * After dispose() every query throws.
 */
export interface ThreeWorld {
  /**
   * The tracked meshes (indices 0 .. objectCount - 1; an InstancedMesh or BatchedMesh once per
   * instance slot, slot i at entries.indexOf(mesh) + i), then the boxes. Fixed for the world's life.
   */
  readonly entries: ReadonlyArray<Object3D | Box3>;
  /** The number of entries. */
  readonly count: number;
  /** The number of mesh entries (instance slots included). */
  readonly objectCount: number;
  /** Whether dispose() has been called. */
  readonly disposed: boolean;
  /** Whether the world runs on a ParallelWorld (see ParallelThreeWorld). */
  readonly parallel: boolean;
  /**
   * Re-reads every mesh's matrixWorld, bounding box (geometry.boundingBox, computed when null;
   * a SkinnedMesh's boundingBox) and layers.mask, every instance's matrix, visibility and
   * geometry (and InstancedMesh.count, which may change up to instanceMatrix.count), and every
   * Box3, then updates and refits the BVH (only the entries that changed are written; a mesh that
   * gains a rotation rebuilds it). matrixWorld is read as it is: call scene.updateMatrixWorld()
   * first when objects moved since the last render. All input is checked before anything
   * changes; a changed number of slots (a new instanceMatrix of another size, a BatchedMesh's
   * setInstanceCount) is refused: make a new world.
   */
  update(): void;
  /**
   * Every hit of the raycaster's ray, sorted by distance (ties in entry order), like
   * raycaster.intersectObjects(objects, recursive). Appends to target (default a new array) and,
   * when target was not empty, sorts all of it by distance, as three.js does. Returns target.
   */
  intersect<T = ThreeWorldIntersection>(raycaster: RaycasterLike, target?: Array<T | ThreeWorldIntersection> | null, options?: ThreeRayOptions): Array<T | ThreeWorldIntersection>;
  /** intersect(raycaster, [], options). */
  intersect(raycaster: RaycasterLike, options: ThreeRayOptions): ThreeWorldIntersection[];
  /** The nearest hit (intersect(raycaster, options)[0]), or null; faster than intersect. */
  intersectFirst(raycaster: RaycasterLike, options?: ThreeRayOptions): ThreeWorldIntersection | null;
  /**
   * The nearest hit of each ray: THREE.Ray objects, or 6 floats per ray (origin xyz, direction
   * xyz) in a Float32Array or Float64Array. One call for the whole batch.
   */
  castRays(rays: readonly Ray[] | Float32Array | Float64Array, options?: ThreeCastOptions): ThreeCastResult;
  /**
   * The entries that share a point with the camera's frustum (from projectionMatrix x
   * matrixWorldInverse as they are: camera.updateMatrixWorld() after moving it) or a Frustum's
   * six planes, in entry order. Exact (touching counts).
   */
  overlapFrustum(frustum: Camera | Frustum, options?: ThreeOverlapOptions): ThreeWorldObject[];
  /** The entries that share a point with the closed box (an empty Box3: none). */
  overlapBox(box: Box3, options?: ThreeOverlapOptions): ThreeWorldObject[];
  /** The entries that share a point with the closed ball (radius < 0: none). */
  overlapSphere(sphere: Sphere, options?: ThreeOverlapOptions): ThreeWorldObject[];
  /** The entries that share a point with the oriented box. */
  overlapOBB(obb: OBBLike, options?: ThreeOverlapOptions): ThreeWorldObject[];
  /** The entries that share a point with the capsule: the points within radius (>= 0) of the segment start-end. */
  overlapCapsule(start: Vector3, end: Vector3, radius: number, options?: ThreeOverlapOptions): ThreeWorldObject[];
  /** The first entry a sphere of radius touches moving from origin along direction, or null. */
  castSphere(origin: Vector3, direction: Vector3, radius: number, options?: ThreeSweepOptions): ThreeSweepHit | null;
  /** The first entry an axis-aligned box of halfExtents touches moving from origin along direction, or null. */
  castBox(origin: Vector3, direction: Vector3, halfExtents: Vector3, options?: ThreeSweepOptions): ThreeSweepHit | null;
  /**
   * The first entry a capsule (radius around the segment start-end) touches moving along
   * direction (both ends move together; distance in world units), or null.
   */
  castCapsule(start: Vector3, end: Vector3, radius: number, direction: Vector3, options?: ThreeSweepOptions): ThreeSweepHit | null;
  /** Sphere sweeps in the core's layout: 8 floats each (origin, direction, tmax in units of direction, radius). */
  castSpheres(sweeps: Float32Array | Float64Array | readonly number[], options?: ThreeSweepBatchOptions): ThreeSweepResult;
  /** Box sweeps in the core's layout: 10 floats each (origin, direction, tmax, half extents). */
  castBoxes(sweeps: Float32Array | Float64Array | readonly number[], options?: ThreeSweepBatchOptions): ThreeSweepResult;
  /** Capsule sweeps in the core's layout: 11 floats each (a xyz, b xyz, direction xyz, tmax in units of direction, radius). */
  castCapsules(sweeps: Float32Array | Float64Array | readonly number[], options?: ThreeSweepBatchOptions): ThreeSweepResult;
  /** The entry nearest point within maxDistance (default Infinity; ties to the lowest index), or null. */
  closestObject(point: Vector3, maxDistance?: number, options?: ThreeClosestOptions): ThreeClosestHit | null;
  /** closestObject for many points: 3 floats each. */
  closestObjects(points: Float32Array | Float64Array | readonly number[], maxDistance?: number, options?: ThreeClosestOptions): ThreeClosestResult;
  /** What kind of shape entry index is. */
  kindOf(index: number): ThreeWorldKind;
  /** Frees the world's wasm memory; a second call does nothing. */
  dispose(): void;
  /** dispose(), for `using world = createThreeWorld(sc, options)`. */
  [Symbol.dispose](): void;
}

/**
 * A ThreeWorld on a ParallelWorld: rays and sweeps run on the workers and resolve with what a
 * ThreeWorld returns; bad input rejects with the same SlabcastError. near must be 0, layers.mask
 * not 0 and exclude a single entry; update() throws while queries are pending, and when a mesh's
 * shape changes between a sphere and a box. intersect, the overlaps and the nearest objects throw.
 */
export interface ParallelThreeWorld extends Omit<ThreeWorld, 'intersectFirst' | 'castRays' | 'castSphere' | 'castBox' | 'castCapsule' | 'castSpheres' | 'castBoxes' | 'castCapsules'> {
  readonly parallel: true;
  intersectFirst(raycaster: RaycasterLike, options?: ThreeRayOptions): Promise<ThreeWorldIntersection | null>;
  castRays(rays: readonly Ray[] | Float32Array | Float64Array, options?: ThreeCastOptions): Promise<ThreeCastResult>;
  castSphere(origin: Vector3, direction: Vector3, radius: number, options?: ThreeSweepOptions): Promise<ThreeSweepHit | null>;
  castBox(origin: Vector3, direction: Vector3, halfExtents: Vector3, options?: ThreeSweepOptions): Promise<ThreeSweepHit | null>;
  castSpheres(sweeps: Float32Array | Float64Array | readonly number[], options?: ThreeSweepBatchOptions): Promise<ThreeSweepResult>;
  castBoxes(sweeps: Float32Array | Float64Array | readonly number[], options?: ThreeSweepBatchOptions): Promise<ThreeSweepResult>;
  /** Rejects when the ParallelWorld has no castCapsules. */
  castCapsule(start: Vector3, end: Vector3, radius: number, direction: Vector3, options?: ThreeSweepOptions): Promise<ThreeSweepHit | null>;
  /** Rejects when the ParallelWorld has no castCapsules. */
  castCapsules(sweeps: Float32Array | Float64Array | readonly number[], options?: ThreeSweepBatchOptions): Promise<ThreeSweepResult>;
}

/**
 * Builds a slabcast world from meshes (by their bounding boxes) and Box3s; with options.parallel,
 * on that ParallelWorld.
 * @param sc the loaded core: await loadSlabcast()
 */
export function createThreeWorld(sc: Slabcast, options: ThreeWorldOptions & { parallel: ParallelWorld }): ParallelThreeWorld;
export function createThreeWorld(sc: Slabcast, options?: ThreeWorldOptions): ThreeWorld;
