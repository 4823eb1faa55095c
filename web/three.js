// slabcast/three: a three.js adapter for slabcast worlds.
//
//   import { loadSlabcast } from 'slabcast';
//   import { createThreeWorld } from 'slabcast/three';
//
//   const sc = await loadSlabcast();
//   const world = createThreeWorld(sc, { objects: [scene] });   // every Mesh under scene
//   scene.updateMatrixWorld();  world.update();                  // after moving things
//   const hits = world.intersect(raycaster);                     // like raycaster.intersectObjects(...)
//   const first = world.intersectFirst(raycaster);               // the nearest, or null
//   const { distance, index, instanceId } = world.castRays(rays, { far: 50 }); // nearest each
//   world.intersectFirst(raycaster, { exclude: player });        // exclude / inside on every ray query
//   world.overlapFrustum(camera); world.overlapBox(box3);        // overlapSphere, overlapOBB too
//   world.castSphere(origin, direction, 0.5, { maxDistance: 3 }); // castBox; castSpheres / castBoxes
//   world.castCapsule(start, end, 0.4, direction, { exclude: player }); // castCapsules; overlapCapsule
//   world.closestObject(point, 10);                              // closestObjects
//   world.dispose();                                             // or: using world = createThreeWorld(...)
//
// The queries beyond rays (overlaps.js, sweeps.js, nearest.js) report entries as
// { object, index, box, instanceId, batchId } (results.js); filters (layers, exclude, inside) are
// in filters.js; a mesh's userData.slabcast.shape ('sphere' | 'capsule' | 'obb' | 'aabb') and
// CapsuleGeometry meshes (capsules without asking) in shapes.js; a ParallelWorld
// (options.parallel) in parallel.js.
//
// What is tracked. Each Mesh (and SkinnedMesh) in `objects` (and, with recursive: true, the
// default, every Mesh below them, in three.js's traversal order) is one box (an InstancedMesh or
// a BatchedMesh: one per instance, see Instances below): the bounding box of
// its geometry (geometry.boundingBox, computed when null; a SkinnedMesh's own boundingBox) taken
// through its matrixWorld:
//   - a matrixWorld without rotation (each column has one non-zero entry: scales, mirrors, exact
//     axis permutations) gives an axis-aligned box (the fast SIMD path);
//   - a rotation (orthogonal columns, within a cosine of 1e-6) gives an oriented box: centre,
//     unit axes from the matrix columns, half extents times the column lengths;
//   - shear (non-orthogonal columns: a non-uniform scale under a rotated parent) cannot be an
//     oriented box: by default the box is the world AABB of the 8 transformed corners (a
//     conservative bound: it may report hits the sheared box does not have; kindOf(i) is
//     'bound'), or with shear: 'throw' the call throws;
//   - a singular matrixWorld (a zero scale) or an empty bounding box (no vertices) never hits,
//     as in three.js, and keeps its index (kindOf(i) is 'none').
// Instances. An InstancedMesh is one entry per instance slot: instanceMatrix.count entries (its
// capacity), instance i's box being the geometry's bounding box through matrixWorld x
// getMatrixAt(i), converted as above; slots at or past mesh.count never hit ('none'), as
// three.js's raycast only visits instances below count. A BatchedMesh is one entry per instance
// id (maxInstanceCount entries), its box getBoundingBoxAt(getGeometryIdAt(i)) through
// matrixWorld x getMatrixAt(i); ids not yet used, deleted (read from _instanceInfo: there is
// no public test) and invisible (getVisibleAt) never hit, as three.js's BatchedMesh.raycast
// skips them. Slot i of a mesh is entry entries.indexOf(mesh) + i; entries repeats the mesh
// once per slot. So count changes, added and deleted instances keep every index stable; a
// changed number of slots (a new instanceMatrix of another size, BatchedMesh.setInstanceCount)
// is refused by update(): make a new world.
// Each Box3 in `boxes` is one axis-aligned box, after the objects; an empty Box3 (min > max on
// some axis, as new Box3() is) never hits and keeps its index.
// The set of tracked objects is fixed; update() re-reads their matrixWorld, bounding boxes,
// layers, instance matrices, InstancedMesh.count, BatchedMesh instances (and the Box3s) and
// refits. Like Raycaster, it reads matrixWorld as it is: call scene.updateMatrixWorld() first
// when objects moved since the last render. (three.js's own InstancedMesh.raycast keeps the
// bounding sphere of its first raycast: after moving instances it needs computeBoundingSphere();
// update() is all this world needs.) Entries that never hit are disabled in the core world.
//
// Results follow three.js's Intersection: { distance, point, object, face: { normal } }, sorted
// by distance, ties in traversal order (instances in id order), plus index (the entry's index),
// box (the Box3 for box entries, else null) and worldNormal. object is null for box entries, the
// InstancedMesh / BatchedMesh for an instance, whose hits carry instanceId (InstancedMesh) or
// batchId (BatchedMesh) exactly where three.js's do. face.normal is, as in three.js, in the
// object's local space (an instance's geometry's): the normal of the local bounding-box face
// (for a box mesh, three.js's face normal); worldNormal is the unit outward normal in world
// space. Not reproduced (undefined): faceIndex, face.a/b/c, face.materialIndex, uv, uv1, normal
// (the interpolated vertex normal), barycoord. castRays returns, per ray, index and instanceId
// (the InstancedMesh's instanceId or the BatchedMesh's batchId; -1 for other entries and misses).
//
// Boxes are solids, not triangles. three.js's Mesh.raycast reports the triangles a ray crosses;
// with the default FrontSide material only those facing the ray. slabcast reports each box once,
// where the ray enters it:
//   - from outside a box mesh both give a hit at the entry face, at the same distance (to
//     float32 precision) with the same face normal; three.js lists the mesh twice when the ray
//     crosses the face's diagonal (the edge between its two triangles), slabcast once;
//   - a ray starting inside a box: three.js (FrontSide) reports nothing, slabcast reports the box
//     at distance 0 (point = origin, normals (0, 0, 0)) when near is 0;
//   - DoubleSide / BackSide materials: three.js also reports the exit (or only the exit) face;
//     slabcast ignores material.side;
//   - a mesh that is not a box is its bounding box: hits where the geometry has none;
//   - near and far apply to the entry distance: a box entered before near is not reported even
//     if the ray is still inside it at near (as three.js's FrontSide); one entered at or before
//     far is.
// Layers are core masks: each mesh entry's mask is its object.layers.mask (an instance's, its
// mesh's), each Box3's every bit, re-read by update(); a query passes raycaster.layers.mask
// (castRays: options.layers) as the core's query mask, so the core skips meshes that fail
// three.js's object.layers.test(raycaster.layers). Box3 entries always count: with
// layers.mask 0, where no mesh passes, the query keeps only Box3 hits. Without layers every
// layer counts (a mesh on no layer, layers.mask 0, is never hit, as by any Raycaster).
// Object visibility is ignored, as three.js does. Points, Lines, Sprites and other non-meshes
// below the given objects are skipped. A mesh reachable twice (listed, and below another listed
// object) is tracked once.
//
// Numbers: the core works in float32. Boxes and rays are rounded to float32 on the way in;
// distance = t * |direction| and point = origin + t * direction are computed in float64 from the
// core's float32 t and the caller's ray.

// The adapter's modules, one concern each (web/three/):
//   walk.js     which objects are tracked: the scene walk, cycle and depth refusal, instance slots
//   shapes.js   an object's bounding box or a Box3 as an AABB / OBB record (kinds, placeholders)
//   instances.js  an InstancedMesh / BatchedMesh instance slot's box, or why it never hits
//   sync.js     the core world kept in step: build, update (records, masks, enabled flags),
//               dispose, the world lock
//   raycast.js  intersect / intersectFirst / castRays and the Raycaster-style results
//   filters.js  layers, exclude and inside as the core's query options (and disabled runs)
//   results.js  how the object queries name an entry; batch results' objects
//   overlaps.js overlapFrustum / overlapBox / overlapSphere / overlapOBB / overlapCapsule
//   sweeps.js   castSphere / castBox / castCapsule / castSpheres / castBoxes / castCapsules
//   nearest.js  closestObject / closestObjects
//   parallel.js the async queries on a ParallelWorld
//   errors.js   SlabcastError helpers shared by the others
// This file checks the options, makes the per-world state they share, and composes them.

import { asSlabcastError, fail } from './three/errors.js';
import { checkOptionKeys } from './core/validate.js';
import { castRays, createQueryScratch, intersect, intersectFirst } from './three/raycast.js';
import { createInstanceScratch } from './three/instances.js';
import { createShapeScratch, kindName } from './three/shapes.js';
import { dispose, live, locked, start, update } from './three/sync.js';
import { collectEntries } from './three/walk.js';
import { createFilterScratch } from './three/filters.js';
import { overlapBox, overlapCapsule, overlapFrustum, overlapOBB, overlapSphere } from './three/overlaps.js';
import { castBox, castBoxes, castCapsule, castCapsules, castSphere, castSpheres } from './three/sweeps.js';
import { closestObject, closestObjects } from './three/nearest.js';
import { parallelMethods } from './three/parallel.js';

/**
 * A world of the given meshes' (and instances') bounds and boxes (see the top of this file). Any exception
 * that is not a SlabcastError, from a throwing getter of the scene or a Proxy, becomes one
 * that names createThreeWorld, with the original as its cause.
 * @param {import('./slabcast.js').Slabcast} sc the loaded core (await loadSlabcast())
 * @param {{objects?: object[], boxes?: object[], recursive?: boolean, shear?: 'bound' | 'throw', parallel?: object}} [options]
 */
export function createThreeWorld(sc, options = {}) {
  try {
    return buildThreeWorld(sc, options);
  } catch (e) {
    throw asSlabcastError('createThreeWorld', e);
  }
}

/** Checks sc and options; returns the options with their defaults. */
function readOptions(sc, options) {
  if (sc === null || typeof sc !== 'object' || typeof sc.createWorld !== 'function') {
    fail('sc must be the object loadSlabcast() resolves to', 'sc');
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    fail('options must be an object ({objects?, boxes?, recursive?, shear?, parallel?})', 'options');
  }
  checkOptionKeys(options, ['objects', 'boxes', 'recursive', 'shear', 'parallel']);
  const { objects = [], boxes = [], recursive = true, shear = 'bound', parallel = null } = options;
  if (parallel !== null && (typeof parallel !== 'object' || typeof parallel.addOBBs !== 'function' || typeof parallel.rebuild !== 'function')) {
    fail('options.parallel must be a ParallelWorld (createParallelWorld from slabcast/parallel)', 'options.parallel');
  }
  if (parallel !== null && parallel.count !== 0) fail(`options.parallel must be an empty ParallelWorld (it holds ${parallel.count} objects)`, 'options.parallel');
  if (!Array.isArray(objects)) fail('options.objects must be an array of Object3D', 'options.objects');
  if (!Array.isArray(boxes)) fail('options.boxes must be an array of Box3', 'options.boxes');
  if (typeof recursive !== 'boolean') fail('options.recursive must be a boolean', 'options.recursive');
  if (shear !== 'bound' && shear !== 'throw') fail('options.shear must be "bound" or "throw"', 'options.shear');
  return { objects, boxes, recursive, shear, parallel };
}

function buildThreeWorld(sc, options) {
  const { objects, boxes, recursive, shear, parallel } = readOptions(sc, options);
  const { entries, names, isBox, inst, capacity, nObjects } = collectEntries(objects, boxes, recursive);
  // the per-world state every module takes (described in sync.js)
  const state = {
    sc, shear, parallel, entries, names, isBox, inst, capacity, nObjects, n: entries.length,
    shape: Object.assign(createShapeScratch(), { inst: createInstanceScratch() }),
    data: null, kinds: null, stored: null, linear: null, masks: null, enabled: null,
    core: null,
    busy: null,
    query: createQueryScratch(),
    filter: createFilterScratch(),
  };
  start(state);
  const world = {
    /** The tracked meshes, then the boxes, by index (frozen). */
    entries: Object.freeze(entries.slice()),
    /** The number of entries (meshes + boxes). */
    get count() { return state.n; },
    /** The number of tracked meshes (entries 0..objectCount-1); boxes follow. */
    get objectCount() { return state.nObjects; },
    /** Whether dispose() has been called. */
    get disposed() { return state.core === null; },
    update: locked(state, 'update', () => update(state)),
    intersect: locked(state, 'intersect', (raycaster, target, opts) => intersect(state, raycaster, target, opts)),
    intersectFirst: locked(state, 'intersectFirst', (raycaster, opts) => intersectFirst(state, raycaster, opts)),
    castRays: locked(state, 'castRays', (rays, opts) => castRays(state, rays, opts)),
    overlapFrustum: locked(state, 'overlapFrustum', (frustum, opts) => overlapFrustum(state, frustum, opts)),
    overlapBox: locked(state, 'overlapBox', (box, opts) => overlapBox(state, box, opts)),
    overlapSphere: locked(state, 'overlapSphere', (sphere, opts) => overlapSphere(state, sphere, opts)),
    overlapOBB: locked(state, 'overlapOBB', (obb, opts) => overlapOBB(state, obb, opts)),
    overlapCapsule: locked(state, 'overlapCapsule', (a, b, r, opts) => overlapCapsule(state, a, b, r, opts)),
    castSphere: locked(state, 'castSphere', (o, d, r, opts) => castSphere(state, o, d, r, opts)),
    castBox: locked(state, 'castBox', (o, d, h, opts) => castBox(state, o, d, h, opts)),
    castCapsule: locked(state, 'castCapsule', (a, b, r, d, opts) => castCapsule(state, a, b, r, d, opts)),
    castSpheres: locked(state, 'castSpheres', (sweeps, opts) => castSpheres(state, sweeps, opts)),
    castBoxes: locked(state, 'castBoxes', (sweeps, opts) => castBoxes(state, sweeps, opts)),
    castCapsules: locked(state, 'castCapsules', (sweeps, opts) => castCapsules(state, sweeps, opts)),
    closestObject: locked(state, 'closestObject', (p, max, opts) => closestObject(state, p, max, opts)),
    closestObjects: locked(state, 'closestObjects', (ps, max, opts) => closestObjects(state, ps, max, opts)),
    /** Whether the queries run on a ParallelWorld (and return Promises). */
    get parallel() { return state.parallel !== null; },
    kindOf: locked(state, 'kindOf', (index) => {
      live(state);
      return kindName(state.kinds, state.n, index);
    }),
    dispose: locked(state, 'dispose', () => dispose(state)),
  };
  if (parallel !== null) Object.assign(world, parallelMethods(state));
  // `using world = createThreeWorld(...)` disposes it at the end of the block
  if (typeof Symbol.dispose === 'symbol') {
    Object.defineProperty(world, Symbol.dispose, { value: world.dispose, configurable: true, writable: true });
  }
  return world;
}
