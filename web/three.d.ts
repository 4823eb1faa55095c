// Types for web/three.js, the three.js adapter (import 'slabcast/three'). Hand-written; keep in
// step with it. The module comment of web/three.js has the full semantics.
import type { Box3, Layers, Object3D, Ray, Vector3 } from 'three';
import type { Slabcast } from './slabcast.js';

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
}

/** castRays's options; any other key throws a SlabcastError naming it. */
export interface ThreeCastOptions {
  /** As Raycaster.near (default 0). */
  near?: number;
  /** As Raycaster.far (default Infinity). */
  far?: number;
  /** As Raycaster.layers (default: every layer; Box3 entries always count). */
  layers?: Layers;
  /** Caller-owned arrays to fill instead of allocating; each must hold at least the batch's size. */
  target?: Partial<ThreeCastResult>;
}

/** What kind of box an entry is: 'aabb', 'obb', 'bound' (the AABB of a sheared box), 'none' (never hits). */
export type ThreeWorldKind = 'aabb' | 'obb' | 'bound' | 'none';

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
  intersect<T = ThreeWorldIntersection>(raycaster: RaycasterLike, target?: Array<T | ThreeWorldIntersection>): Array<T | ThreeWorldIntersection>;
  /** The nearest hit (intersect(raycaster)[0]), or null; faster than intersect. */
  intersectFirst(raycaster: RaycasterLike): ThreeWorldIntersection | null;
  /**
   * The nearest hit of each ray: THREE.Ray objects, or 6 floats per ray (origin xyz, direction
   * xyz) in a Float32Array or Float64Array. One call for the whole batch.
   */
  castRays(rays: readonly Ray[] | Float32Array | Float64Array, options?: ThreeCastOptions): ThreeCastResult;
  /** What kind of box entry index is. */
  kindOf(index: number): ThreeWorldKind;
  /** Frees the world's wasm memory; a second call does nothing. */
  dispose(): void;
  /** dispose(), for `using world = createThreeWorld(sc, options)`. */
  [Symbol.dispose](): void;
}

/**
 * Builds a slabcast world from meshes (by their bounding boxes) and Box3s.
 * @param sc the loaded core: await loadSlabcast()
 */
export function createThreeWorld(sc: Slabcast, options?: ThreeWorldOptions): ThreeWorld;
