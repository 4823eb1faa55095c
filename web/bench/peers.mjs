// The physics engines game developers pick for ray casts in the browser, measured beside slabcast
// by bench.mjs on the same seeded scene: Jolt (npm jolt-physics, the wasm build of JoltPhysics),
// rapier (@dimforge/rapier3d-compat), rapier-simd (@dimforge/rapier3d-simd-compat, the same engine
// built with wasm SIMD) and Havok (@babylonjs/havok). Each peer is one function that
// loads its engine and returns
//   { name, version, api, build(boxes), cast(rays) -> Float32Array t, dispose() }
// where boxes are 6 floats each (min xyz, max xyz; made static box bodies/colliders, centre + half
// extents) and rays 7 floats each (origin, unit direction, tmax, which is ignored: every peer casts
// RAY_LENGTH, longer than any path through the scene, i.e. what tmax = Infinity means there).
// t[i] is the distance to the nearest hit, Infinity on a miss. A peer whose package is missing or
// fails to load throws from its function; bench.mjs prints that and goes on.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Engines need a finite ray: longer than the diagonal of any bench scene (side 4*cbrt(n); n < 1e9). */
export const RAY_LENGTH = 1e4;

/** The installed version of an npm package (its own package.json), '?' when not found. */
export function version(pkg) {
  // the package's own package.json, found from its entry (some exports maps do not list it)
  try {
    let dir = dirname(require.resolve(pkg));
    for (;;) {
      const file = join(dir, 'package.json');
      if (existsSync(file)) {
        const meta = JSON.parse(readFileSync(file, 'utf8'));
        if (meta.name === pkg) return meta.version;
      }
      const up = dirname(dir);
      if (up === dir) return '?';
      dir = up;
    }
  } catch {
    return '?';
  }
}

// ---------------------------------------------------------------- Jolt
/** Jolt's wasm module, initialised. */
export async function loadJolt() {
  const { default: initJolt } = await import('jolt-physics/wasm-compat');
  return initJolt();
}

/**
 * A Jolt physics system holding one static BoxShape body (convex radius 0: an exact box) per box (6
 * floats: min xyz, max xyz), in order, then OptimizeBroadPhase. Queries are made as from a moving
 * object: pass bpFilter and objFilter. bodyIndex maps a BodyID's GetIndexAndSequenceNumber() to the
 * box's index. dispose() frees the system, its bodies and shapes.
 */
export function joltWorld(J, boxes) {
  const LAYER_STATIC = 0;
  const LAYER_MOVING = 1;
  const n = boxes.length / 6;
  const js = new J.JoltSettings();
  js.mMaxBodies = n + 16;
  js.mMaxBodyPairs = 1024;
  js.mMaxContactConstraints = 1024;
  // Jolt's usual two layers: static bodies, and moving ones (which see the static ones); the
  // queries are cast as if from a moving object.
  const pairs = new J.ObjectLayerPairFilterTable(2);
  pairs.EnableCollision(LAYER_MOVING, LAYER_STATIC);
  pairs.EnableCollision(LAYER_MOVING, LAYER_MOVING);
  const bpi = new J.BroadPhaseLayerInterfaceTable(2, 2);
  bpi.MapObjectToBroadPhaseLayer(LAYER_STATIC, new J.BroadPhaseLayer(0));
  bpi.MapObjectToBroadPhaseLayer(LAYER_MOVING, new J.BroadPhaseLayer(1));
  js.mObjectLayerPairFilter = pairs;
  js.mBroadPhaseLayerInterface = bpi;
  js.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bpi, 2, pairs, 2);
  const iface = new J.JoltInterface(js);
  J.destroy(js);
  const sys = iface.GetPhysicsSystem();
  const bi = sys.GetBodyInterface();
  const half = new J.Vec3();
  const pos = new J.RVec3();
  const rot = J.Quat.prototype.sIdentity();
  const bodyIndex = new Map();
  for (let i = 0; i < n; i++) {
    const b = 6 * i;
    half.Set((boxes[b + 3] - boxes[b]) / 2, (boxes[b + 4] - boxes[b + 1]) / 2, (boxes[b + 5] - boxes[b + 2]) / 2);
    pos.Set((boxes[b] + boxes[b + 3]) / 2, (boxes[b + 1] + boxes[b + 4]) / 2, (boxes[b + 2] + boxes[b + 5]) / 2);
    const shape = new J.BoxShape(half, 0); // BoxShape(halfExtent, convexRadius): ref-counted by the body
    const cs = new J.BodyCreationSettings(shape, pos, rot, J.EMotionType_Static, LAYER_STATIC);
    bodyIndex.set(bi.CreateAndAddBody(cs, J.EActivation_DontActivate).GetIndexAndSequenceNumber(), i);
    J.destroy(cs);
  }
  J.destroy(half);
  J.destroy(pos);
  sys.OptimizeBroadPhase();
  const bpFilter = new J.DefaultBroadPhaseLayerFilter(iface.GetObjectVsBroadPhaseLayerFilter(), LAYER_MOVING);
  const objFilter = new J.DefaultObjectLayerFilter(iface.GetObjectLayerPairFilter(), LAYER_MOVING);
  return {
    sys, bpFilter, objFilter, bodyIndex,
    dispose() {
      J.destroy(bpFilter);
      J.destroy(objFilter);
      J.destroy(iface); // the physics system, and with it every body and shape
    },
  };
}

/**
 * Jolt: static BoxShape bodies (convex radius 0: exact boxes) added with BodyInterface.CreateAndAddBody,
 * then PhysicsSystem.OptimizeBroadPhase (what Jolt asks for after a bulk add): joltWorld. Rays: NarrowPhaseQuery.CastRay
 * with one RRayCast, RayCastSettings and CastRayClosestHitCollisionCollector reused (Reset per ray);
 * the JS binding has no overload that fills a RayCastResult directly. Solid boxes (the default
 * mTreatConvexAsSolid): from inside a box the fraction is 0.
 */
export async function jolt() {
  const J = await loadJolt();
  let world = null;
  let sys = null;
  let bpFilter = null;
  let objFilter = null;
  const ray = new J.RRayCast();
  const settings = new J.RayCastSettings();
  const collector = new J.CastRayClosestHitCollisionCollector();
  const bodyFilter = new J.BodyFilter();
  const shapeFilter = new J.ShapeFilter();

  function dispose() {
    if (!world) return;
    world.dispose();
    world = sys = bpFilter = objFilter = null;
  }

  return {
    name: 'Jolt',
    version: version('jolt-physics'),
    api: 'NarrowPhaseQuery.CastRay, closest-hit collector',
    build(boxes) {
      dispose();
      world = joltWorld(J, boxes);
      ({ sys, bpFilter, objFilter } = world);
    },
    cast(rays) {
      const nrays = rays.length / 7;
      const t = new Float32Array(nrays);
      const q = sys.GetNarrowPhaseQuery();
      const o = ray.get_mOrigin();
      const d = ray.get_mDirection();
      const hit = collector.get_mHit();
      for (let i = 0; i < nrays; i++) {
        const r = 7 * i;
        o.Set(rays[r], rays[r + 1], rays[r + 2]);
        d.Set(rays[r + 3] * RAY_LENGTH, rays[r + 4] * RAY_LENGTH, rays[r + 5] * RAY_LENGTH);
        collector.Reset();
        q.CastRay(ray, settings, collector, bpFilter, objFilter, bodyFilter, shapeFilter);
        t[i] = collector.HadHit() ? hit.get_mFraction() * RAY_LENGTH : Infinity;
      }
      return t;
    },
    dispose,
  };
}

// ---------------------------------------------------------------- rapier
/** The rapier packages: the plain build, and the SIMD build issue 25 measures against. */
export const RAPIER = '@dimforge/rapier3d-compat';
export const RAPIER_SIMD = '@dimforge/rapier3d-simd-compat';

/** rapier's wasm module (pkg: RAPIER or RAPIER_SIMD), initialised. */
export async function loadRapier(pkg = RAPIER) {
  const R = (await import(pkg)).default;
  // init() warns (console.warn) about its parameters in some versions; keep the table clean
  const warn = console.warn;
  console.warn = () => {};
  try { await R.init(); } finally { console.warn = warn; }
  return R;
}

/**
 * A rapier world holding one fixed cuboid collider per box (6 floats: min xyz, max xyz), in order,
 * after one step (the broad phase's BVH then holds them). colliderIndex maps a collider's handle to
 * the box's index.
 */
export function rapierWorld(R, boxes) {
  const world = new R.World({ x: 0, y: 0, z: 0 });
  const colliderIndex = new Map();
  const n = boxes.length / 6;
  for (let i = 0; i < n; i++) {
    const b = 6 * i;
    const desc = R.ColliderDesc.cuboid((boxes[b + 3] - boxes[b]) / 2, (boxes[b + 4] - boxes[b + 1]) / 2, (boxes[b + 5] - boxes[b + 2]) / 2)
      .setTranslation((boxes[b] + boxes[b + 3]) / 2, (boxes[b + 1] + boxes[b + 4]) / 2, (boxes[b + 2] + boxes[b + 5]) / 2);
    colliderIndex.set(world.createCollider(desc).handle, i);
  }
  world.step();
  return { world, colliderIndex };
}

/**
 * rapier: one fixed cuboid collider per box (ColliderDesc.cuboid, no rigid body), then one
 * world.step() so that the broad phase's BVH holds them (0.21 has no separate updateSceneQueries): rapierWorld.
 * Rays: world.castRay(ray, RAY_LENGTH, solid = true) with one Ray reused; solid: from inside a
 * box the time of impact is 0. rapierSimd: the same calls on the SIMD build.
 */
export function rapier() {
  return rapierPeer(RAPIER, 'rapier');
}

/** rapier's SIMD build (@dimforge/rapier3d-simd-compat), as rapier(). */
export function rapierSimd() {
  return rapierPeer(RAPIER_SIMD, 'rapier-simd');
}

async function rapierPeer(pkg, name) {
  const R = await loadRapier(pkg);
  let world = null;
  const ray = new R.Ray({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 });
  function dispose() {
    if (world) world.free();
    world = null;
  }
  return {
    name,
    version: version(pkg),
    api: 'World.castRay (solid)',
    build(boxes) {
      dispose();
      ({ world } = rapierWorld(R, boxes));
    },
    cast(rays) {
      const nrays = rays.length / 7;
      const t = new Float32Array(nrays);
      const o = ray.origin;
      const d = ray.dir;
      for (let i = 0; i < nrays; i++) {
        const r = 7 * i;
        o.x = rays[r]; o.y = rays[r + 1]; o.z = rays[r + 2];
        d.x = rays[r + 3]; d.y = rays[r + 4]; d.z = rays[r + 5];
        const hit = world.castRay(ray, RAY_LENGTH, true);
        t[i] = hit ? hit.timeOfImpact : Infinity;
      }
      return t;
    },
    dispose,
  };
}

// ---------------------------------------------------------------- Havok
/**
 * Havok: per box a box shape (HP_Shape_CreateBox, centred, the box's extents) on a STATIC body
 * placed at its centre (HP_Body_SetQTransform), added with HP_World_AddBody, then one
 * HP_World_Step (which builds the broad phase for queries). Rays:
 * HP_World_CastRayWithCollector into one query collector of capacity 1 (which keeps the closest
 * hit, as Babylon's HavokPlugin.raycast uses it), then HP_QueryCollector_GetCastRayResult.
 * HP_World_CastRay (structures laid out in wasm memory by the caller) is faster in principle, but
 * its memory layout is undocumented, so it is not used. From inside a box Havok reports the exit
 * face or nothing; bench.mjs leaves those rays out of the agreement count.
 */
export async function havok() {
  const { default: HavokPhysics } = await import('@babylonjs/havok');
  const wasmBinary = readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
  const H = await HavokPhysics({ wasmBinary });
  const ok = (res, what) => {
    const code = Array.isArray(res) ? res[0] : res;
    if (code !== H.Result.RESULT_OK) throw new Error(`Havok ${what} failed (${code?.value ?? code})`);
    return Array.isArray(res) ? res[1] : undefined;
  };
  let world = null;
  let bodies = [];
  let shapes = [];
  const collector = ok(H.HP_QueryCollector_Create(1), 'HP_QueryCollector_Create');
  const start = [0, 0, 0];
  const end = [0, 0, 0];
  const query = [start, end, [0xffffffff, 0xffffffff], false, [BigInt(0)]];
  function dispose() {
    if (!world) return;
    for (const b of bodies) { H.HP_World_RemoveBody(world, b); H.HP_Body_Release(b); }
    for (const s of shapes) H.HP_Shape_Release(s);
    H.HP_World_Release(world);
    world = null;
    bodies = [];
    shapes = [];
  }
  return {
    name: 'Havok',
    version: version('@babylonjs/havok'),
    api: 'HP_World_CastRayWithCollector, collector of 1',
    build(boxes) {
      dispose();
      world = ok(H.HP_World_Create(), 'HP_World_Create');
      const n = boxes.length / 6;
      const identity = [0, 0, 0, 1];
      for (let i = 0; i < n; i++) {
        const b = 6 * i;
        const shape = ok(H.HP_Shape_CreateBox([0, 0, 0], identity,
          [boxes[b + 3] - boxes[b], boxes[b + 4] - boxes[b + 1], boxes[b + 5] - boxes[b + 2]]), 'HP_Shape_CreateBox');
        const body = ok(H.HP_Body_Create(), 'HP_Body_Create');
        ok(H.HP_Body_SetShape(body, shape), 'HP_Body_SetShape');
        ok(H.HP_Body_SetMotionType(body, H.MotionType.STATIC), 'HP_Body_SetMotionType');
        ok(H.HP_Body_SetQTransform(body, [[(boxes[b] + boxes[b + 3]) / 2, (boxes[b + 1] + boxes[b + 4]) / 2,
          (boxes[b + 2] + boxes[b + 5]) / 2], identity]), 'HP_Body_SetQTransform');
        ok(H.HP_World_AddBody(world, body, false), 'HP_World_AddBody');
        shapes.push(shape);
        bodies.push(body);
      }
      // One step: Havok rebuilds its broad phase there (without it, queries on 100k bodies run
      // about 10x slower); a game has stepped its world before it casts rays.
      ok(H.HP_World_Step(world, 1 / 60), 'HP_World_Step');
    },
    cast(rays) {
      const nrays = rays.length / 7;
      const t = new Float32Array(nrays);
      for (let i = 0; i < nrays; i++) {
        const r = 7 * i;
        start[0] = rays[r]; start[1] = rays[r + 1]; start[2] = rays[r + 2];
        end[0] = rays[r] + rays[r + 3] * RAY_LENGTH;
        end[1] = rays[r + 1] + rays[r + 4] * RAY_LENGTH;
        end[2] = rays[r + 2] + rays[r + 5] * RAY_LENGTH;
        H.HP_World_CastRayWithCollector(world, collector, query);
        if (H.HP_QueryCollector_GetNumHits(collector)[1] > 0) {
          const [, [fraction]] = H.HP_QueryCollector_GetCastRayResult(collector, 0);
          t[i] = fraction * RAY_LENGTH;
        } else {
          t[i] = Infinity;
        }
      }
      return t;
    },
    dispose,
  };
}

/** The peers in table order. */
export const PEERS = [jolt, rapier, rapierSimd, havok];
