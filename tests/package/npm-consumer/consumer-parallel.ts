// slabcast/parallel's types, as a consumer uses them (tests/web/package.test.mjs).
import { createParallelWorld, SlabcastError, type ListResult, type MemoryMode, type ParallelWorld, type RayAllResult } from 'slabcast/parallel';

async function frame(world: ParallelWorld, boxes: Float32Array, rays: Float32Array): Promise<Int32Array> {
  world.updateAABBs(0, boxes);
  const { index } = await world.castRays(rays, null, { mask: 1, inside: 'skip' });
  const hit: Uint8Array = await world.anyHit(rays);
  world.addCapsules([0, 0, 5, 0, 2, 5, 0.5]);
  const swept = await world.castCapsules(new Float32Array([0, -1, 0, 0, 1, 0, 0, 0, 1, 10, 0.25]));
  const contact: Float32Array = swept.point;
  void contact;
  // the lists of castRayAll and the overlaps: item i's entries are start[i] to start[i + 1] - 1
  const all: RayAllResult = await world.castRayAll(rays, { mask: 1 });
  const near: ListResult = await world.overlapSpheres(new Float32Array([0, 0, 0, 2]), { exclude: new Int32Array([0]) });
  const framed = await world.overlapFrustums(new Float32Array(24));
  const closest = await world.closestObjects(new Float32Array([0, 0, 0]), Infinity);
  const first: number = all.t.length > 0 ? all.index[all.start[0] ?? 0] ?? -1 : closest.index[0] ?? -1;
  void near;
  void framed;
  void first;
  return hit.length > 0 ? index : new Int32Array(0);
}

export async function main(): Promise<MemoryMode> {
  const world = await createParallelWorld({ workers: 2, memory: 'auto', timeout: 5000, inline: 0 });
  try {
    world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1]));
    await frame(world, new Float32Array([0, 0, 0, 2, 2, 2]), new Float32Array([-1, 0.5, 0.5, 1, 0, 0, Infinity]));
    return world.memoryMode;
  } catch (e) {
    if (e instanceof SlabcastError) throw new Error(e.message);
    throw e;
  } finally {
    await world.dispose();
  }
}
