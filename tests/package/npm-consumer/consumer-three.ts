// Type-checks the three.js adapter, slabcast/three, as a consumer sees it (three's types
// from @types/three). Checked by tests/web/package.test.mjs when the package ships
// web/three.d.ts.
import { Box3, BoxGeometry, InstancedMesh, Mesh, MeshBasicMaterial, Object3D, PerspectiveCamera, Raycaster, Sphere, Vector3 } from 'three';
import { OBB } from 'three/examples/jsm/math/OBB.js';
import { loadSlabcast } from 'slabcast';
import { createThreeWorld } from 'slabcast/three';
import type { ParallelThreeWorld, ThreeCastResult, ThreeSweepHit, ThreeWorld, ThreeWorldIntersection, ThreeWorldObject } from 'slabcast/three';
import { createParallelWorld } from 'slabcast/parallel';

type IsAny<T> = 0 extends 1 & T ? true : false;
const adapterIsTyped: IsAny<typeof createThreeWorld> = false;
void adapterIsTyped;

export async function nearest(): Promise<number> {
  const sc = await loadSlabcast();
  const mesh = new Mesh(new BoxGeometry(2, 2, 2));
  mesh.updateMatrixWorld();
  const world: ThreeWorld = createThreeWorld(sc, { objects: [mesh] });
  const raycaster = new Raycaster(new Vector3(-3, 0.5, 0.25), new Vector3(1, 0, 0));
  const hit: ThreeWorldIntersection | null = world.intersectFirst(raycaster);
  // @ts-expect-error intersectFirst may return null
  void hit.distance;
  const distance = hit ? hit.distance : Infinity;
  world.dispose();
  return distance;
}

export async function instances(): Promise<number> {
  const sc = await loadSlabcast();
  const crowd = new InstancedMesh(new BoxGeometry(1, 1, 1), new MeshBasicMaterial(), 10);
  crowd.updateMatrixWorld();
  const world = createThreeWorld(sc, { objects: [crowd] });
  const raycaster = new Raycaster(new Vector3(-3, 0.1, 0.2), new Vector3(1, 0, 0));
  raycaster.layers.set(1);
  const hits: ThreeWorldIntersection[] = world.intersect(raycaster);
  const ids: Array<number | undefined> = hits.map((h) => h.instanceId ?? h.batchId);
  // @ts-expect-error instanceId is absent on hits of other objects
  const id: number = hits[0].instanceId;
  void ids; void id;
  const batch = world.castRays([raycaster.ray], { layers: raycaster.layers });
  const first: Int32Array = batch.instanceId;
  world[Symbol.dispose]();
  return first[0] ?? -1;
}

export async function gameQueries(): Promise<number> {
  const sc = await loadSlabcast();
  const player = new Mesh(new BoxGeometry(1, 2, 1));
  const pickup = new Mesh(new BoxGeometry(1, 1, 1));
  pickup.userData.slabcast = { shape: 'sphere' };
  const world = createThreeWorld(sc, { objects: [player, pickup] });
  const raycaster = new Raycaster(new Vector3(0, 0, 0), new Vector3(0, 0, -1));
  const first: ThreeWorldIntersection | null = world.intersectFirst(raycaster, { exclude: player, inside: 'skip' });
  const all: ThreeWorldIntersection[] = world.intersect(raycaster, { exclude: [player] });
  const kept: ThreeWorldIntersection[] = world.intersect(raycaster, [], { inside: 'exit' });
  // @ts-expect-error inside takes 'solid' | 'skip' | 'exit'
  world.intersectFirst(raycaster, { inside: 'through' });
  const camera = new PerspectiveCamera();
  const seen: ThreeWorldObject[] = world.overlapFrustum(camera, { layers: camera.layers });
  const inBox = world.overlapBox(new Box3(), { target: seen });
  const inBall = world.overlapSphere(new Sphere(new Vector3(), 2), { exclude: { object: new InstancedMesh(new BoxGeometry(), undefined, 2), instanceId: 1 } });
  const inObb = world.overlapOBB(new OBB());
  const sweep: ThreeSweepHit | null = world.castSphere(new Vector3(), new Vector3(0, 0, -1), 0.5, { maxDistance: 3, exclude: player });
  const boxSweep = world.castBox(new Vector3(), new Vector3(1, 0, 0), new Vector3(0.5, 1, 0.5));
  // @ts-expect-error castBox takes half extents as a Vector3
  world.castBox(new Vector3(), new Vector3(1, 0, 0), 0.5);
  const sweeps = world.castSpheres(new Float32Array(8), { inside: 'skip' });
  const boxes = world.castBoxes(new Float32Array(10));
  const capsuleSweep: ThreeSweepHit | null = world.castCapsule(new Vector3(0, 0.5, 0), new Vector3(0, 1.5, 0), 0.4, new Vector3(1, 0, 0), { maxDistance: 3, exclude: player, inside: 'skip' });
  const capsuleSweeps = world.castCapsules(new Float32Array(11), { layers: camera.layers });
  const inCapsule: ThreeWorldObject[] = world.overlapCapsule(new Vector3(), new Vector3(0, 1, 0), 0.5, { target: seen });
  // @ts-expect-error castCapsule takes the direction after the radius
  world.castCapsule(new Vector3(), new Vector3(0, 1, 0), new Vector3(1, 0, 0), 0.5);
  const kind: 'capsule' | string = world.kindOf(0);
  const near = world.closestObject(new Vector3(), 5, { exclude: player });
  const nears = world.closestObjects(new Float32Array(3));
  const objects: Array<Object3D | Box3 | null> = sweeps.objects;
  world.dispose();
  return [first, all, kept, seen, inBox, inBall, inObb, sweep, boxSweep, boxes, capsuleSweep, capsuleSweeps, inCapsule, kind, near, nears, objects].length;
}

export async function onWorkers(): Promise<number> {
  const sc = await loadSlabcast();
  const par = await createParallelWorld({ workers: 2 });
  const mesh = new Mesh(new BoxGeometry(1, 1, 1));
  const world: ParallelThreeWorld = createThreeWorld(sc, { objects: [mesh], parallel: par });
  const hits: ThreeCastResult = await world.castRays(new Float32Array(6));
  const ball: ThreeSweepHit | null = await world.castSphere(new Vector3(), new Vector3(1, 0, 0), 0.5);
  const pill: ThreeSweepHit | null = await world.castCapsule(new Vector3(), new Vector3(0, 1, 0), 0.5, new Vector3(1, 0, 0));
  // @ts-expect-error a parallel world's castRays returns a Promise
  const sync: ThreeCastResult = world.castRays(new Float32Array(6));
  world.dispose();
  await par.dispose();
  return [hits, ball, pill, sync].length;
}
