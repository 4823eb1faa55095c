// Run as check-three.js in the "type": "module" temporary project, with three installed
// beside the packed slabcast: the adapter slabcast/three on one box mesh. Prints JSON.
import { BoxGeometry, Mesh, Raycaster, Vector3 } from 'three';
import { loadSlabcast } from 'slabcast';
import { createThreeWorld } from 'slabcast/three';

const sc = await loadSlabcast();
const mesh = new Mesh(new BoxGeometry(2, 2, 2));
mesh.updateMatrixWorld();
const world = createThreeWorld(sc, { objects: [mesh] });
const hit = world.intersectFirst(new Raycaster(new Vector3(-3, 0.5, 0.25), new Vector3(1, 0, 0)));
world.dispose();
console.log(JSON.stringify(hit && {
  distance: hit.distance,
  point: hit.point.toArray(),
  worldNormal: hit.worldNormal.toArray(),
  isTheMesh: hit.object === mesh,
}));
