// Run from a project that installed the slabcast tarball: slabcast/parallel starts its workers
// from node_modules (worker.js and slabcast-mt.wasm found beside parallel.js) and answers.
import { createParallelWorld } from 'slabcast/parallel';

const out = {};
for (const memory of ['shared', 'copied']) {
  const world = await createParallelWorld({ workers: 2, memory });
  // Boxes [0,1]^3 and [4,5]x[0,1]^2; rays along +x from x = -2 at y = 0.5 and y = 3.
  world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1, 4, 0, 0, 5, 1, 1]));
  const r = await world.castRays(new Float32Array([-2, 0.5, 0.5, 1, 0, 0, Infinity, -2, 3, 0.5, 1, 0, 0, Infinity]));
  out[memory] = { mode: world.memoryMode, t: Array.from(r.t), index: Array.from(r.index) };
  await world.dispose();
}
console.log(JSON.stringify(out));
