// Type-checks the three.js adapter, slabcast/three, as a consumer sees it (three's types
// from @types/three). Checked by tests/web/package.test.mjs when the package ships
// web/three.d.ts.
import { BoxGeometry, InstancedMesh, Mesh, MeshBasicMaterial, Raycaster, Vector3 } from 'three';
import { loadSlabcast } from 'slabcast';
import { createThreeWorld } from 'slabcast/three';
import type { ThreeWorld, ThreeWorldIntersection } from 'slabcast/three';

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
