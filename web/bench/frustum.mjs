// The core world's overlapFrustum on a game's camera frustum, in one run:
// `node web/bench/frustum.mjs [boxes]` (default 10000). The scene is three-adapter.mjs's seeded
// city (boxes over ~200 m, a fifth rotated: OBBs); the frusta: three.js PerspectiveCameras (fov 60,
// near 0.1, far 60) at random places looking along the street level. Prints, per call, the BVH
// query's time, the brute force's (every object tested, overlapBruteForce), how many objects
// are found, and checks that both give the same indices. Node only.
import * as THREE from 'three';
import { loadSlabcast } from '../slabcast.js';

const N = Number(process.argv[2] ?? 10000);
const FRUSTA = 16;

let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
const span = 200;

/** The city as a core world (the same numbers as three-adapter.mjs's scene). */
function makeWorld(sc) {
  const aabbs = [];
  const obbs = [];
  for (let i = 0; i < N; i++) {
    const sx = 1 + 4 * rnd(), sy = 1 + 8 * rnd(), sz = 1 + 4 * rnd();
    const p = [span * rnd() - span / 2, sy / 2, span * rnd() - span / 2];
    if (i % 5 === 0) {
      const a = rnd() * Math.PI;
      const c = Math.cos(a), s = Math.sin(a);
      obbs.push(...p, c, 0, -s, 0, 1, 0, s, 0, c, sx / 2, sy / 2, sz / 2);
    } else {
      aabbs.push(p[0] - sx / 2, p[1] - sy / 2, p[2] - sz / 2, p[0] + sx / 2, p[1] + sy / 2, p[2] + sz / 2);
    }
  }
  const w = sc.createWorld();
  w.addAABBs(new Float32Array(aabbs));
  w.addOBBs(new Float32Array(obbs));
  w.build();
  return w;
}

function frusta() {
  const out = [];
  for (let r = 0; r < FRUSTA; r++) {
    const c = new THREE.Vector3(span * rnd() - span / 2, 2, span * rnd() - span / 2);
    const cam = new THREE.PerspectiveCamera(60, 16 / 9, 0.1, 60);
    cam.position.copy(c);
    cam.lookAt(c.x + 2 * rnd() - 1, 1.5, c.z + 2 * rnd() - 1);
    cam.updateMatrixWorld();
    const m = new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
    const fr = new THREE.Frustum().setFromProjectionMatrix(m);
    out.push(new Float32Array(fr.planes.flatMap((p) => [...p.normal.toArray(), p.constant])));
  }
  return out;
}

/** Best of `reps` rounds of ms per call of f over the frusta. */
function time(f, reps) {
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    for (let i = 0; i < FRUSTA; i++) f(i);
    best = Math.min(best, (performance.now() - t0) / FRUSTA);
  }
  return best;
}

const sc = await loadSlabcast();
const w = makeWorld(sc);
const fs = frusta();
const a = new Int32Array(N);
const b = new Int32Array(N);
let found = 0;
for (let i = 0; i < FRUSTA; i++) {
  const n = w.overlapFrustum(fs[i], a);
  const m = w.overlapBruteForce('frustum', fs[i], b);
  if (n !== m || a.subarray(0, n).some((x, k) => x !== b[k])) throw new Error(`frustum ${i}: BVH and brute force differ`);
  found += n;
}
const bvh = time((i) => w.overlapFrustum(fs[i], a), 5);
const brute = time((i) => w.overlapBruteForce('frustum', fs[i], b), 2);
console.log(`overlapFrustum, ${N} boxes (${N / 5} OBBs), ${FRUSTA} camera frusta (fov 60, near 0.1, far 60)`);
console.log(`objects found per call: ${(found / FRUSTA).toFixed(1)} (BVH and brute force identical)`);
console.log(`BVH query:   ${bvh.toFixed(3)} ms per call`);
console.log(`brute force: ${brute.toFixed(3)} ms per call`);
w.dispose();
