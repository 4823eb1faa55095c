// Run as check.js in a temporary project with "type": "module" where the packed slabcast
// is installed: static import, a raycast, a world, an error, and the package's
// ./slabcast.wasm and ./package.json exports. Prints one JSON document.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadSlabcast, SlabcastError } from 'slabcast';

const sc = await loadSlabcast();
const box = { type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] };
const hit = sc.raycast({ origin: [-3, 0.5, 0.25], dir: [2, 0, 0] }, box);
const miss = sc.raycast({ origin: [-3, 0.5, 0.25], dir: [2, 0, 0], tmax: 0.5 }, box);

const world = sc.createWorld();
world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1, 4, 0, 0, 5, 1, 1]));
const cast = world.castRays(new Float32Array([-2, 0.5, 0.5, 1, 0, 0, Infinity]));
world.dispose();

let error = null;
try {
  sc.raycast({ origin: [0, 0, 0], dir: [0, 0, 0] }, { type: 'sphere', center: [0, 0, 0], radius: 1 });
} catch (e) {
  error = { isSlabcastError: e instanceof SlabcastError, message: e.message };
}

const wasmUrl = import.meta.resolve('slabcast/slabcast.wasm');
const wasmBytes = await readFile(new URL(wasmUrl));
const explicit = await loadSlabcast({ wasm: wasmBytes });
const pkg = createRequire(import.meta.url)('slabcast/package.json');

console.log(JSON.stringify({
  hit,
  miss,
  world: { t: cast.t[0], index: cast.index[0], normal: [...cast.normal] },
  error,
  wasm: { url: wasmUrl, magic: [...wasmBytes.subarray(0, 4)] },
  explicit: explicit.raycast({ origin: [-3, 0.5, 0.25], dir: [2, 0, 0] }, box),
  pkg: { name: pkg.name, version: pkg.version, license: pkg.license },
}));
