// The three.js adapter's batch calls against the core world's, on the same shapes, in one run:
// `node web/bench/three-adapter.mjs [boxes]` (default 10000). The scene: a seeded city of boxes,
// one mesh each, a fifth of them rotated (OBBs), tracked by createThreeWorld; beside it a core
// world holding the same boxes (AABBs / OBBs computed here from the same numbers). Each row times
// the adapter's call and the core call it wraps on the same inputs, a different input array per
// call (a ring of pre-made batches), and prints both and their ratio (the target: at
// most 1.3x). Rays, sphere / box / capsule sweeps, nearest objects, and the overlaps (frustum,
// box, sphere, capsule). Node only.
import * as THREE from 'three';
import { loadSlabcast } from '../slabcast.js';
import { createThreeWorld } from '../three.js';

const N = Number(process.argv[2] ?? 10000);
const RING = 16; // distinct input arrays, cycled
const BATCH = 1024; // rays / sweeps / points per batch call

let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
const span = 200;

/** The scene and its core twin. */
function makeScene(sc) {
  const scene = new THREE.Scene();
  const geom = new THREE.BoxGeometry(1, 1, 1);
  const aabbs = [];
  const obbs = [];
  for (let i = 0; i < N; i++) {
    const m = new THREE.Mesh(geom);
    const sx = 1 + 4 * rnd(), sy = 1 + 8 * rnd(), sz = 1 + 4 * rnd();
    m.scale.set(sx, sy, sz);
    m.position.set(span * rnd() - span / 2, sy / 2, span * rnd() - span / 2);
    const rotated = i % 5 === 0;
    if (rotated) m.rotation.y = rnd() * Math.PI;
    scene.add(m);
    m.updateMatrixWorld();
    if (rotated) {
      const e = m.matrixWorld.elements;
      const c = Math.cos(m.rotation.y), s = Math.sin(m.rotation.y);
      obbs.push(e[12], e[13], e[14], c, 0, -s, 0, 1, 0, s, 0, c, sx / 2, sy / 2, sz / 2);
    } else {
      const p = m.position;
      aabbs.push(p.x - sx / 2, p.y - sy / 2, p.z - sz / 2, p.x + sx / 2, p.y + sy / 2, p.z + sz / 2);
    }
  }
  const core = sc.createWorld();
  core.addAABBs(new Float32Array(aabbs));
  core.addOBBs(new Float32Array(obbs));
  core.build();
  return { scene, core };
}

/** RING batches of `per` floats per item made by item(i, a, o). */
function ring(per, item) {
  const out = [];
  for (let r = 0; r < RING; r++) {
    const a = new Float32Array(per * BATCH);
    for (let i = 0; i < BATCH; i++) item(a, per * i);
    out.push(a);
  }
  return out;
}

function dir(a, o) {
  const t = rnd() * 2 * Math.PI;
  const y = -0.3 * rnd();
  const l = Math.hypot(Math.cos(t), y, Math.sin(t));
  a[o] = Math.cos(t) / l; a[o + 1] = y / l; a[o + 2] = Math.sin(t) / l;
}
function origin(a, o) {
  a[o] = span * rnd() - span / 2; a[o + 1] = 1 + 10 * rnd(); a[o + 2] = span * rnd() - span / 2;
}

/**
 * ms per call of the adapter's call a(i) and the core's c(i): alternated call by call (the same
 * inputs, the same machine state: the machine may be shared), the best of reps rounds.
 */
function timePair(a, c, calls, reps = 7) {
  for (let i = 0; i < 3; i++) { a(i); c(i); } // warm up
  let ba = Infinity;
  let bc = Infinity;
  for (let r = 0; r < reps; r++) {
    let ta = 0;
    let tc = 0;
    for (let i = 0; i < calls; i++) {
      // which goes first alternates, so that neither always runs in the other's wake
      if (i & 1) {
        const t0 = performance.now();
        a(i);
        const t1 = performance.now();
        c(i);
        tc += performance.now() - t1;
        ta += t1 - t0;
      } else {
        const t0 = performance.now();
        c(i);
        const t1 = performance.now();
        a(i);
        ta += performance.now() - t1;
        tc += t1 - t0;
      }
    }
    ba = Math.min(ba, ta / calls);
    bc = Math.min(bc, tc / calls);
  }
  return [ba, bc];
}

const sc = await loadSlabcast();
const { scene, core } = makeScene(sc);
const tw = createThreeWorld(sc, { objects: [scene] });

const rays6 = ring(6, (a, o) => { origin(a, o); dir(a, o + 3); });
const rays7 = rays6.map((r) => {
  const a = new Float32Array(7 * BATCH);
  for (let i = 0; i < BATCH; i++) { a.set(r.subarray(6 * i, 6 * i + 6), 7 * i); a[7 * i + 6] = 100; }
  return a;
});
const spheres = ring(8, (a, o) => { origin(a, o); dir(a, o + 3); a[o + 6] = 20; a[o + 7] = 0.5; });
const boxes = ring(10, (a, o) => { origin(a, o); dir(a, o + 3); a[o + 6] = 20; a[o + 7] = 0.4; a[o + 8] = 0.9; a[o + 9] = 0.4; });
// capsules standing up (1.2 m of segment, radius 0.4), swept like the spheres
const capsules = ring(11, (a, o) => {
  origin(a, o);
  a[o + 3] = a[o]; a[o + 4] = a[o + 1] + 1.2; a[o + 5] = a[o + 2];
  dir(a, o + 6);
  a[o + 9] = 20; a[o + 10] = 0.4;
});
const points = ring(3, origin);
const vols = [];
for (let r = 0; r < RING; r++) {
  const c = new THREE.Vector3(span * rnd() - span / 2, 2, span * rnd() - span / 2);
  const cam = new THREE.PerspectiveCamera(60, 16 / 9, 0.1, 60);
  cam.position.copy(c);
  cam.lookAt(c.x + 1, 1.5, c.z + rnd());
  cam.updateMatrixWorld();
  const fr = new THREE.Frustum().setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse));
  const planes = new Float32Array(fr.planes.flatMap((p) => [...p.normal.toArray(), p.constant]));
  const box = new THREE.Box3(c.clone().subScalar(15), c.clone().addScalar(15));
  const sphere = new THREE.Sphere(c.clone(), 15);
  const capA = new THREE.Vector3(c.x - 10, 2, c.z);
  const capB = new THREE.Vector3(c.x + 10, 2, c.z);
  vols.push({ cam, planes, box, sphere, capA, capB, capA3: capA.toArray(), capB3: capB.toArray() });
}
const ids = new Int32Array(N);
const target = [];
const far = { far: 100 };

const rows = [
  ['castRays (1024 rays)', (i) => tw.castRays(rays6[i % RING], far), (i) => core.castRays(rays7[i % RING])],
  ['castSpheres (1024 sweeps)', (i) => tw.castSpheres(spheres[i % RING]), (i) => core.castSpheres(spheres[i % RING])],
  ['castBoxes (1024 sweeps)', (i) => tw.castBoxes(boxes[i % RING]), (i) => core.castBoxes(boxes[i % RING])],
  ['castCapsules (1024 sweeps)', (i) => tw.castCapsules(capsules[i % RING]), (i) => core.castCapsules(capsules[i % RING])],
  ['closestObjects (1024 points)', (i) => tw.closestObjects(points[i % RING], 10), (i) => core.closestObjects(points[i % RING], 10)],
  ['overlapFrustum (camera)', (i) => tw.overlapFrustum(vols[i % RING].cam, { target }), (i) => core.overlapFrustum(vols[i % RING].planes, ids), 4],
  ['overlapBox (30 m)', (i) => tw.overlapBox(vols[i % RING].box, { target }), (i) => { const b = vols[i % RING].box; return core.overlapAABB(b.min.toArray(), b.max.toArray(), ids); }, 64],
  ['overlapSphere (r 15 m)', (i) => tw.overlapSphere(vols[i % RING].sphere, { target }), (i) => { const s = vols[i % RING].sphere; return core.overlapSphere(s.center.toArray(), s.radius, ids); }, 64],
  ['overlapCapsule (20 m, r 5 m)', (i) => tw.overlapCapsule(vols[i % RING].capA, vols[i % RING].capB, 5, { target }), (i) => core.overlapCapsule(vols[i % RING].capA3, vols[i % RING].capB3, 5, ids), 64],
];

console.log(`three.js adapter vs core world, ${N} boxes (${N / 5} rotated), median ms per call`);
console.log('call'.padEnd(32) + 'adapter'.padStart(10) + 'core'.padStart(10) + 'ratio'.padStart(8));
let worst = 0;
for (const [name, a, c, calls = 24] of rows) {
  const [ta, coreMs] = timePair(a, c, calls);
  const ratio = ta / coreMs;
  worst = Math.max(worst, ratio);
  console.log(name.padEnd(32) + ta.toFixed(3).padStart(10) + coreMs.toFixed(3).padStart(10) + `${ratio.toFixed(2)}x`.padStart(8));
}
console.log(`worst ratio ${worst.toFixed(2)}x (target: at most 1.3x)`);
tw.dispose();
core.dispose();
