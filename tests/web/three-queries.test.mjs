// The three.js adapter's world queries beyond rays (issue 24, part 2): exclude and inside on rays,
// overlaps (Box3, Sphere, OBB, Camera / Frustum), sweeps (castSphere, castBox and their batches),
// nearest objects, and the userData.slabcast shape opt-in. Every answer is judged by an
// independent computation built from three.js itself (Box3.intersectsBox, Sphere.intersectsBox,
// Box3.distanceToPoint, Ray.intersectBox / intersectSphere on Minkowski-grown shapes, Frustum
// checks), or by values derived by hand for small scenes (the comments say how). Coordinates are
// small dyadic numbers, exact in float32, so that touching cases are exact.
import * as THREE from 'three';
import { OBB } from 'three/examples/jsm/math/OBB.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { createThreeWorld } from '../../web/three.js';
import { createParallelWorld } from '../../web/parallel.js';
import { MT_WASM, WASM } from './helpers/artifacts.mjs';

let sc;
beforeAll(async () => {
  sc = await loadSlabcast();
});

const V = (x, y, z) => new THREE.Vector3(x, y, z);
const unitBox = new THREE.BoxGeometry(1, 1, 1);

/** A box mesh of size (sx, sy, sz) centred at (x, y, z), its matrixWorld up to date. */
function boxMesh(x, y, z, sx = 1, sy = 1, sz = 1, parent = null) {
  const m = new THREE.Mesh(unitBox);
  m.position.set(x, y, z);
  m.scale.set(sx, sy, sz);
  if (parent) parent.add(m);
  m.updateMatrixWorld(true);
  return m;
}

/** The world box of an unrotated mesh, computed by three.js (Box3.setFromObject). */
const worldBox = (m) => new THREE.Box3().setFromObject(m, true);

function thrown(f) {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SlabcastError);
    return e;
  }
  throw new Error('did not throw');
}

/** A random city of axis-aligned box meshes on a 0.25 grid; returns { scene, meshes }. */
function randomCity(seed, n) {
  const r = rng(seed);
  const q = (v) => Math.round(v * 4) / 4;
  const scene = new THREE.Scene();
  const meshes = [];
  for (let i = 0; i < n; i++) {
    const m = boxMesh(q(40 * r() - 20), q(4 * r()), q(40 * r() - 20), q(0.5 + 3 * r()), q(0.5 + 3 * r()), q(0.5 + 3 * r()));
    scene.add(m);
    meshes.push(m);
  }
  scene.updateMatrixWorld(true);
  return { scene, meshes, r, q };
}

describe('rays: exclude and inside', () => {
  // three boxes along -z: a at z in [-11, -9], b at [-21, -19], c at [-31, -29]
  function line() {
    const scene = new THREE.Scene();
    const group = new THREE.Group();
    scene.add(group);
    const a = boxMesh(0, 0, -10, 2, 2, 2, scene);
    const b = boxMesh(0, 0, -20, 2, 2, 2, group);
    const c = boxMesh(0, 0, -30, 2, 2, 2, group);
    scene.updateMatrixWorld(true);
    return { scene, group, a, b, c };
  }
  const down = () => new THREE.Raycaster(V(0, 0, 0), V(0, 0, -1));

  test('exclude one mesh, a list, a group: the others are hit as three.js hits them', () => {
    const { scene, group, a, b, c } = line();
    const tw = createThreeWorld(sc, { objects: [scene] });
    const rc = down();
    // three.js's own raycast over the meshes not excluded, one hit per mesh
    const three = (objs) => [...new Set(rc.intersectObjects(objs, false).map((h) => h.object))].map((o) => [rc.intersectObject(o)[0].distance, o]);
    const ours = (opts) => tw.intersect(rc, opts).map((h) => [h.distance, h.object]);
    expect(ours({ exclude: a })).toEqual(three([b, c]));
    expect(ours({ exclude: [a, c] })).toEqual(three([b]));
    expect(ours({ exclude: group })).toEqual(three([a]));
    expect(ours({ exclude: [a, group] })).toEqual([]);
    expect(tw.intersectFirst(rc, { exclude: [a, b] }).object).toBe(c);
    expect(tw.intersectFirst(rc, { exclude: a }).distance).toBe(19);
    // nothing stays excluded afterwards (the disabled flags are restored)
    expect(ours()).toEqual(three([a, b, c]));
    const rays = new Float32Array([0, 0, 0, 0, 0, -1, 0, 0, -15, 0, 0, -1]);
    expect(tw.castRays(rays, { exclude: [a, b] }).objects).toEqual([c, c]);
    expect(Array.from(tw.castRays(rays, { exclude: [a, b] }).index)).toEqual([tw.entries.indexOf(c), tw.entries.indexOf(c)]);
    expect(Array.from(tw.castRays(rays, { exclude: b }).distance)).toEqual([9, 14]);
    expect(tw.castRays(rays, { exclude: b }).objects).toEqual([a, c]);
    expect(tw.castRays(rays).objects).toEqual([a, b]);
    tw.dispose();
  });

  test('exclude instances: a whole InstancedMesh or {object, instanceId}', () => {
    const crowd = new THREE.InstancedMesh(unitBox, undefined, 3);
    for (let i = 0; i < 3; i++) crowd.setMatrixAt(i, new THREE.Matrix4().makeTranslation(0, 0, -4 * (i + 1)));
    crowd.updateMatrixWorld();
    const wall = boxMesh(0, 0, -20, 4, 4, 1);
    const tw = createThreeWorld(sc, { objects: [crowd, wall] });
    const rc = down();
    // unit boxes at z = -4, -8, -12: entered at 3.5, 7.5, 11.5; the wall at 19.5
    expect(tw.intersect(rc).map((h) => [h.distance, h.instanceId])).toEqual([[3.5, 0], [7.5, 1], [11.5, 2], [19.5, undefined]]);
    expect(tw.intersect(rc, { exclude: { object: crowd, instanceId: 1 } }).map((h) => h.distance)).toEqual([3.5, 11.5, 19.5]);
    expect(tw.intersect(rc, { exclude: [{ object: crowd, instanceId: 0 }, { object: crowd, instanceId: 2 }] }).map((h) => h.distance)).toEqual([7.5, 19.5]);
    expect(tw.intersect(rc, { exclude: crowd }).map((h) => h.distance)).toEqual([19.5]);
    expect(thrown(() => tw.intersect(rc, { exclude: { object: crowd, instanceId: 3 } })).field).toBe('options.exclude.instanceId');
    expect(thrown(() => tw.intersect(rc, { exclude: { object: wall, instanceId: 0 } })).field).toBe('options.exclude.object');
    tw.dispose();
  });

  test('inside: solid at 0, skip to the next, exit where the ray leaves (hand-derived)', () => {
    const { scene, a } = line();
    const tw = createThreeWorld(sc, { objects: [scene] });
    const rc = new THREE.Raycaster(V(0, 0, -10.5), V(0, 0, -1)); // inside a (z in [-11, -9])
    const solid = tw.intersectFirst(rc);
    expect([solid.object, solid.distance, solid.worldNormal.toArray()]).toEqual([a, 0, [0, 0, 0]]);
    expect(tw.intersectFirst(rc, { inside: 'skip' }).distance).toBe(8.5); // b's face at z = -19
    const exit = tw.intersectFirst(rc, { inside: 'exit' });
    // a is left through its face z = -11, 0.5 away; the outward normal there is -z
    expect([exit.object, exit.distance, exit.worldNormal.toArray(), exit.point.toArray()]).toEqual([a, 0.5, [0, 0, -1], [0, 0, -11]]);
    expect(tw.intersect(rc, { inside: 'exit' }).map((h) => h.distance)).toEqual([0.5, 8.5, 18.5]);
    const ray = new Float32Array([0, 0, -10.5, 0, 0, -1]);
    expect(Array.from(tw.castRays(ray, { inside: 'skip' }).distance)).toEqual([8.5]);
    expect(thrown(() => tw.intersectFirst(rc, { inside: 'through' })).field).toBe('options.inside');
    tw.dispose();
  });

  test('bad exclude items are refused naming the item', () => {
    const { scene } = line();
    const tw = createThreeWorld(sc, { objects: [scene] });
    const stranger = boxMesh(0, 0, 0);
    expect(thrown(() => tw.intersect(down(), { exclude: stranger })).field).toBe('options.exclude');
    expect(thrown(() => tw.castRays([down().ray], { exclude: [scene.children[1], 7] })).field).toBe('options.exclude[1]');
    expect(thrown(() => tw.intersect(down(), { exclude: new THREE.Box3() })).field).toBe('options.exclude');
    tw.dispose();
  });
});

describe('overlaps', () => {
  test('overlapBox and overlapSphere: exactly the meshes three.js finds (Box3.intersectsBox, Sphere.intersectsBox)', () => {
    const { scene, meshes, r, q } = randomCity(7, 300);
    const tw = createThreeWorld(sc, { objects: [scene] });
    const boxes = meshes.map(worldBox);
    const target = [];
    for (let t = 0; t < 200; t++) {
      const c = V(q(40 * r() - 20), q(4 * r()), q(40 * r() - 20));
      const h = V(q(6 * r()), q(3 * r()), q(6 * r()));
      const qb = new THREE.Box3(c.clone().sub(h), c.clone().add(h));
      const got = tw.overlapBox(qb, { target });
      expect(got).toBe(target);
      expect(got.map((x) => x.index)).toEqual(boxes.flatMap((b, i) => (b.intersectsBox(qb) ? [i] : [])));
      expect(got.every((x) => x.object === meshes[x.index] && x.box === null && x.instanceId === undefined)).toBe(true);
      const s = new THREE.Sphere(c, q(6 * r()));
      expect(tw.overlapSphere(s).map((x) => x.index)).toEqual(boxes.flatMap((b, i) => (s.intersectsBox(b) ? [i] : [])));
    }
    // touching counts: a box whose face is at x = 0 and a query box ending at x = 0
    const tw2 = createThreeWorld(sc, { objects: [boxMesh(0.5, 0, 0)] });
    expect(tw2.overlapBox(new THREE.Box3(V(-1, -1, -1), V(0, 1, 1))).length).toBe(1);
    expect(tw2.overlapBox(new THREE.Box3(V(-1, -1, -1), V(-(2 ** -20), 1, 1))).length).toBe(0);
    expect(tw2.overlapBox(new THREE.Box3()).length).toBe(0); // an empty Box3 holds nothing
    expect(tw2.overlapSphere(new THREE.Sphere(V(-1, 0, 0), 1)).length).toBe(1);
    expect(tw2.overlapSphere(new THREE.Sphere(V(-1, 0, 0), -1)).length).toBe(0); // three.js's empty sphere
    tw.dispose();
    tw2.dispose();
  });

  test('target is filled from 0 and its result objects are reused', () => {
    const { scene } = randomCity(3, 50);
    const tw = createThreeWorld(sc, { objects: [scene] });
    const target = [];
    const all = tw.overlapBox(new THREE.Box3(V(-99, -99, -99), V(99, 99, 99)), { target });
    expect(all.length).toBe(50);
    const first = target[0];
    tw.overlapBox(new THREE.Box3(V(-99, -99, -99), V(99, 99, 99)), { target });
    expect(target[0]).toBe(first);
    tw.overlapBox(new THREE.Box3(V(500, 0, 0), V(501, 1, 1)), { target });
    expect(target.length).toBe(0);
    tw.dispose();
  });

  test('overlapOBB: identity rotation as overlapBox; a rotated OBB against hand-derived boxes', () => {
    const { scene, meshes, r, q } = randomCity(11, 200);
    const tw = createThreeWorld(sc, { objects: [scene] });
    for (let t = 0; t < 50; t++) {
      const c = V(q(40 * r() - 20), q(4 * r()), q(40 * r() - 20));
      const h = V(q(6 * r()), q(3 * r()), q(6 * r()));
      const box = new THREE.Box3(c.clone().sub(h), c.clone().add(h));
      expect(tw.overlapOBB(new OBB(c, h)).map((x) => x.index)).toEqual(tw.overlapBox(box).map((x) => x.index));
    }
    tw.dispose();
    // a unit-half cube turned 45 degrees about y reaches x = sqrt(2) = 1.41421...
    const near = boxMesh(1.7, 0, 0, 0.6, 1, 1); // x in [1.4, 2]: overlaps
    const far = boxMesh(1.75, 0, 0, 0.5, 1, 1); // x in [1.5, 2]: does not
    const tw2 = createThreeWorld(sc, { objects: [near, far] });
    const obb = new OBB(V(0, 0, 0), V(1, 1, 1), new THREE.Matrix3().setFromMatrix4(new THREE.Matrix4().makeRotationY(Math.PI / 4)));
    expect(tw2.overlapOBB(obb).map((x) => x.object)).toEqual([near]);
    // a long OBB (half sizes 2, 0.5, 0.5) turned 45 degrees about y: makeRotationY's first column,
    // its long axis, is (cos, 0, -sin), so it reaches (1.2, 0, -1.2) (1.70 along it) and not
    // (1.2, 0, 1.2) (1.70 along its third axis, (sin, 0, cos), past 0.5)
    const onAxis = boxMesh(1.2, 0, -1.2, 0.2, 0.2, 0.2);
    const offAxis = boxMesh(1.2, 0, 1.2, 0.2, 0.2, 0.2);
    const tw3 = createThreeWorld(sc, { objects: [onAxis, offAxis] });
    const long = new OBB(V(0, 0, 0), V(2, 0.5, 0.5), new THREE.Matrix3().setFromMatrix4(new THREE.Matrix4().makeRotationY(Math.PI / 4)));
    expect(tw3.overlapOBB(long).map((x) => x.object)).toEqual([onAxis]);
    tw3.dispose();
    expect(thrown(() => tw2.overlapOBB({ center: V(0, 0, 0), halfSize: V(1, 1, 1) })).field).toBe('obb.rotation');
    tw2.dispose();
  });

  test('overlapFrustum: conservative three.js checks hold both ways (camera and Frustum)', () => {
    const { scene, meshes } = randomCity(5, 400);
    const tw = createThreeWorld(sc, { objects: [scene] });
    const r = rng(99);
    for (let t = 0; t < 30; t++) {
      const cam = new THREE.PerspectiveCamera(40 + 40 * r(), 0.5 + r(), 0.1 + r(), 5 + 30 * r());
      cam.position.set(40 * r() - 20, 5 * r(), 40 * r() - 20);
      cam.lookAt(40 * r() - 20, 0, 40 * r() - 20);
      cam.updateMatrixWorld();
      const fr = new THREE.Frustum().setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse));
      const got = tw.overlapFrustum(cam).map((x) => x.index);
      expect(tw.overlapFrustum(fr).map((x) => x.index)).toEqual(got);
      const set = new Set(got);
      for (let i = 0; i < meshes.length; i++) {
        const b = worldBox(meshes[i]);
        // every counted mesh passes three.js's conservative test
        if (set.has(i)) expect(fr.intersectsBox(b)).toBe(true);
        // every mesh whose 8 corners are inside is counted
        const corners = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => V(k & 1 ? b.max.x : b.min.x, k & 2 ? b.max.y : b.min.y, k & 4 ? b.max.z : b.min.z));
        if (corners.every((p) => fr.containsPoint(p))) expect(set.has(i)).toBe(true);
      }
    }
    tw.dispose();
  });

  test('layers and exclude on overlaps; instances are named by instanceId', () => {
    const crowd = new THREE.InstancedMesh(unitBox, undefined, 4);
    for (let i = 0; i < 4; i++) crowd.setMatrixAt(i, new THREE.Matrix4().makeTranslation(2 * i, 0, 0));
    crowd.updateMatrixWorld();
    const pillar = boxMesh(0, 0, 2);
    pillar.layers.set(2);
    const wall = new THREE.Box3(V(-1, -1, 4), V(1, 1, 5));
    const tw = createThreeWorld(sc, { objects: [crowd, pillar], boxes: [wall] });
    const all = new THREE.Box3(V(-9, -9, -9), V(9, 9, 9));
    expect(tw.overlapBox(all).map((x) => [x.index, x.instanceId])).toEqual([[0, 0], [1, 1], [2, 2], [3, 3], [4, undefined], [5, undefined]]);
    expect(tw.overlapBox(all, { layers: pillar.layers }).map((x) => x.index)).toEqual([4, 5]); // the Box3 counts on every layer
    const none = new THREE.Layers();
    none.disableAll();
    expect(tw.overlapBox(all, { layers: none }).map((x) => x.box)).toEqual([wall]);
    expect(tw.overlapBox(all, { exclude: [crowd, pillar] }).map((x) => x.index)).toEqual([5]);
    expect(tw.overlapBox(all, { exclude: { object: crowd, instanceId: 2 } }).map((x) => x.index)).toEqual([0, 1, 3, 4, 5]);
    expect(tw.overlapBox(all).length).toBe(6); // restored
    // a call the core refuses while entries are disabled restores them too
    const bad = { center: V(0, 0, 0), halfSize: V(-1, 1, 1), rotation: new THREE.Matrix3() };
    expect(thrown(() => tw.overlapOBB(bad, { exclude: [crowd, pillar] })).field).toBe('obb');
    expect(tw.overlapBox(all).length).toBe(6);
    expect(thrown(() => tw.overlapBox(all, { inside: 'skip' })).field).toBe('options.inside');
    tw.dispose();
  });
});

describe('sweeps', () => {
  test('castBox: the nearest grown box three.js\'s Ray.intersectBox finds; distance in world units', () => {
    const { scene, meshes, r, q } = randomCity(21, 150);
    const tw = createThreeWorld(sc, { objects: [scene] });
    const boxes = meshes.map(worldBox);
    let hits = 0;
    for (let t = 0; t < 300; t++) {
      const o = V(q(40 * r() - 20), q(4 * r()), q(40 * r() - 20));
      const d = V(r() - 0.5, 0.2 * r() - 0.1, r() - 0.5);
      const h = V(q(0.25 + r()), q(0.25 + r()), q(0.25 + r()));
      const scaled = d.clone().multiplyScalar(3); // a longer direction changes nothing
      const got = tw.castBox(o, scaled, h, { maxDistance: 30 });
      const ray = new THREE.Ray(o, d.clone().normalize());
      let best = Infinity;
      for (const b of boxes) {
        const g = b.clone().expandByVector(h);
        const p = g.containsPoint(o) ? o : ray.intersectBox(g, new THREE.Vector3());
        if (p) best = Math.min(best, p.distanceTo(o));
      }
      if (best > 30) {
        expect(got).toBe(null);
        continue;
      }
      hits++;
      expect(got).not.toBe(null);
      expect(Math.abs(got.distance - best)).toBeLessThanOrEqual(1e-4 * Math.max(1, best));
      expect(worldBox(got.object).clone().expandByVector(h).distanceToPoint(o.clone().addScaledVector(d.clone().normalize(), got.distance))).toBeLessThanOrEqual(1e-4);
    }
    expect(hits).toBeGreaterThan(50);
    tw.dispose();
  });

  test('castSphere against spheres: Ray.intersectSphere on the grown sphere; normal and point (hand-derived)', () => {
    const r = rng(5);
    const scene = new THREE.Scene();
    const spheres = [];
    const geo = new THREE.SphereGeometry(1, 8, 6);
    for (let i = 0; i < 60; i++) {
      const m = new THREE.Mesh(geo);
      m.userData.slabcast = { shape: 'sphere' };
      m.position.set(30 * r() - 15, 0, 30 * r() - 15);
      const s = 0.5 + r();
      m.scale.setScalar(s);
      scene.add(m);
      spheres.push(m);
    }
    scene.updateMatrixWorld(true);
    const tw = createThreeWorld(sc, { objects: [scene] });
    for (let i = 0; i < 60; i++) expect(tw.kindOf(i)).toBe('sphere');
    for (let t = 0; t < 200; t++) {
      const o = V(30 * r() - 15, 0.5 * r(), 30 * r() - 15);
      const d = V(r() - 0.5, 0, r() - 0.5).normalize();
      const rad = 0.1 + r();
      const got = tw.castSphere(o, d, rad);
      const ray = new THREE.Ray(o, d);
      let best = Infinity;
      for (const m of spheres) {
        const gs = new THREE.Sphere(m.position, geo.boundingSphere.radius * m.scale.x + rad);
        const p = gs.containsPoint(o) ? o : ray.intersectSphere(gs, new THREE.Vector3());
        if (p) best = Math.min(best, p.distanceTo(o));
      }
      if (best === Infinity) expect(got).toBe(null);
      else expect(Math.abs(got.distance - best)).toBeLessThanOrEqual(1e-4 * Math.max(1, best));
    }
    tw.dispose();
    // hand-derived: a ball of radius 0.5 along -z towards a unit-radius sphere mesh at z = -5
    const ball = new THREE.Mesh(geo);
    ball.userData.slabcast = { shape: 'sphere' };
    ball.position.set(0, 0, -5);
    ball.updateMatrixWorld();
    const tw2 = createThreeWorld(sc, { objects: [ball] });
    const hit = tw2.castSphere(V(0, 0, 0), V(0, 0, -4), 0.5);
    // centres 1.5 apart at contact: distance 3.5; contact point (0, 0, -4); normal +z
    expect([hit.object, hit.distance, hit.point.toArray(), hit.normal.toArray()]).toEqual([ball, 3.5, [0, 0, -4], [0, 0, 1]]);
    expect(tw2.castSphere(V(0, 0, 0), V(0, 0, -1), 0.5, { maxDistance: 3.25 })).toBe(null);
    expect(tw2.castSphere(V(0, 0, 0), V(0, 0, -1), 0.5, { maxDistance: 3.5 }).distance).toBe(3.5);
    expect(tw2.castSphere(V(0, 0, 0), V(0, 0, -1), 0.5, { exclude: ball })).toBe(null);
    // starting in contact: solid at 0 with a zero normal, skip ignores it
    expect(tw2.castSphere(V(0, 0, -3.6), V(0, 0, -1), 0.5).distance).toBe(0);
    expect(tw2.castSphere(V(0, 0, -3.6), V(0, 0, -1), 0.5, { inside: 'skip' })).toBe(null);
    tw2.dispose();
  });

  test('castSpheres / castBoxes batches agree with the single calls; objects and instanceId', () => {
    const crowd = new THREE.InstancedMesh(unitBox, undefined, 3);
    for (let i = 0; i < 3; i++) crowd.setMatrixAt(i, new THREE.Matrix4().makeTranslation(0, 0, -4 * (i + 1)));
    crowd.updateMatrixWorld();
    const wall = boxMesh(3, 0, -6, 1, 4, 4);
    const tw = createThreeWorld(sc, { objects: [crowd, wall] });
    // sweep 0: along -z from the origin (radius 0.25): instance 0's face z = -3.5 at 3.25
    // sweep 1: along +x with a direction of length 2 from (0, 0, -6): the wall's face x = 2.5 at 2.25
    // sweep 2: along +y: nothing
    const sw = new Float32Array([0, 0, 0, 0, 0, -1, 100, 0.25, 0, 0, -6, 2, 0, 0, 100, 0.25, 0, 0, 0, 0, 1, 0, 100, 0.25]);
    const b = tw.castSpheres(sw);
    expect(Array.from(b.distance)).toEqual([3.25, 2.25, Infinity]);
    expect(Array.from(b.index)).toEqual([0, 3, -1]);
    expect(Array.from(b.instanceId)).toEqual([0, -1, -1]);
    expect(b.objects).toEqual([crowd, wall, null]);
    expect(Array.from(b.normal.subarray(0, 6))).toEqual([0, 0, 1, -1, 0, 0]);
    for (let i = 0; i < 2; i++) {
      const one = tw.castSphere(V(sw[8 * i], sw[8 * i + 1], sw[8 * i + 2]), V(sw[8 * i + 3], sw[8 * i + 4], sw[8 * i + 5]), 0.25);
      expect([one.distance, one.index]).toEqual([b.distance[i], b.index[i]]);
    }
    const bx = tw.castBoxes(new Float32Array([0, 0, 0, 0, 0, -1, 100, 0.25, 0.25, 0.5]), { exclude: { object: crowd, instanceId: 0 } });
    // instance 1's face z = -7.5, the box's half depth 0.5: 7
    expect([bx.distance[0], bx.instanceId[0]]).toEqual([7, 1]);
    expect(thrown(() => tw.castSpheres(new Float32Array(7))).field).toBe('sweeps');
    expect(thrown(() => tw.castSphere(V(0, 0, 0), V(0, 0, 0), 1)).field).toBe('direction');
    expect(thrown(() => tw.castSphere(V(0, 0, 0), V(0, 0, 1), -1)).field).toBe('radius');
    expect(thrown(() => tw.castBox(V(0, 0, 0), V(0, 0, 1), 1)).field).toBe('halfExtents');
    expect(thrown(() => tw.castSphere(V(0, 0, 0), V(0, 0, 1), 1, { maxDistance: -1 })).field).toBe('options.maxDistance');
    tw.dispose();
  });
});

describe('nearest objects', () => {
  test('closestObject / closestObjects: the minimum of three.js\'s Box3.distanceToPoint', () => {
    const { scene, meshes, r } = randomCity(31, 200);
    const tw = createThreeWorld(sc, { objects: [scene] });
    const boxes = meshes.map(worldBox);
    const pts = new Float32Array(3 * 100);
    for (let i = 0; i < pts.length; i++) pts[i] = 50 * r() - 25;
    const batch = tw.closestObjects(pts, 3);
    for (let i = 0; i < 100; i++) {
      const p = V(pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]);
      const ds = boxes.map((b) => b.distanceToPoint(p));
      const best = Math.min(...ds);
      const one = tw.closestObject(p, 3);
      if (best > 3 + 1e-5) {
        expect(one).toBe(null);
        expect(batch.index[i]).toBe(-1);
        continue;
      }
      expect(Math.abs(one.distance - best)).toBeLessThanOrEqual(1e-5 * Math.max(1, best));
      expect(ds[one.index]).toBeLessThanOrEqual(best + 1e-5);
      expect(batch.index[i]).toBe(one.index);
      expect(batch.objects[i]).toBe(meshes[one.index]);
      expect(boxes[one.index].distanceToPoint(one.point)).toBeLessThanOrEqual(1e-5);
    }
    tw.dispose();
  });

  test('after moving a mesh and update(), every query sees it; exclude and layers', () => {
    const a = boxMesh(0, 0, 0);
    const b = boxMesh(5, 0, 0);
    b.layers.set(3);
    const tw = createThreeWorld(sc, { objects: [a, b] });
    // from (2, 0, 0): a's face x = 0.5 is 1.5 away, b's x = 4.5 is 2.5 away
    expect(tw.closestObject(V(2, 0, 0)).object).toBe(a);
    expect(tw.closestObject(V(2, 0, 0), Infinity, { exclude: a }).object).toBe(b);
    expect(tw.closestObject(V(2, 0, 0), Infinity, { layers: b.layers }).object).toBe(b);
    expect(tw.closestObject(V(2, 0, 0), 1)).toBe(null);
    a.position.set(-3, 0, 0);
    a.updateMatrixWorld();
    tw.update();
    const n = tw.closestObject(V(2, 0, 0));
    expect([n.object, n.distance, n.point.toArray()]).toEqual([b, 2.5, [4.5, 0, 0]]);
    expect(tw.overlapSphere(new THREE.Sphere(V(-3, 0, 0), 0.1)).map((x) => x.object)).toEqual([a]);
    expect(tw.castSphere(V(0, 0, 0), V(-1, 0, 0), 0.5).distance).toBe(2); // a's face x = -2.5
    expect(thrown(() => tw.closestObject(V(0, 0, 0), -1)).field).toBe('maxDistance');
    expect(thrown(() => tw.closestObject({ x: 0, y: 0 })).field).toBe('point');
    tw.dispose();
  });
});

describe('shapes: userData.slabcast', () => {
  test('sphere: boundingSphere through a uniform scale; a non-uniform scale is refused', () => {
    const geo = new THREE.SphereGeometry(1, 16, 12);
    const m = new THREE.Mesh(geo);
    m.userData.slabcast = { shape: 'sphere' };
    m.position.set(0, 0, -10);
    m.scale.setScalar(2);
    m.rotation.set(0.3, 0.2, 0.1);
    m.updateMatrixWorld();
    const tw = createThreeWorld(sc, { objects: [m] });
    expect(tw.kindOf(0)).toBe('sphere');
    // radius 2 (the geometry's bounding sphere, radius 1, times 2): entered at 8
    const h = tw.intersectFirst(new THREE.Raycaster(V(0, 0, 0), V(0, 0, -1)));
    expect(h.distance).toBeCloseTo(8, 5);
    expect(h.worldNormal.toArray().map((x) => Math.round(x * 1e6) / 1e6)).toEqual([0, 0, 1]);
    m.scale.set(1, 2, 1);
    m.updateMatrixWorld();
    const e = thrown(() => tw.update());
    expect(e.field).toBe('objects[0]');
    expect(e.message).toMatch(/uniform scale/);
    expect(tw.kindOf(0)).toBe('sphere'); // the refused update changed nothing
    m.userData.slabcast = { shape: 'obb' };
    tw.update();
    expect(tw.kindOf(0)).toBe('obb');
    m.userData.slabcast = { shape: 'ball' };
    expect(thrown(() => tw.update()).field).toBe('objects[0]');
    tw.dispose();
  });

  test('obb on an axis-aligned mesh, aabb on a rotated one (the AABB of its 8 corners), spheres of instances', () => {
    const a = boxMesh(0, 0, -5, 2, 2, 2);
    a.userData.slabcast = { shape: 'obb' };
    const b = new THREE.Mesh(unitBox);
    b.position.set(10, 0, 0);
    b.rotation.y = Math.PI / 4;
    b.userData.slabcast = { shape: 'aabb' };
    b.updateMatrixWorld();
    const crowd = new THREE.InstancedMesh(new THREE.SphereGeometry(0.5, 8, 6), undefined, 2);
    crowd.userData.slabcast = { shape: 'sphere' };
    crowd.setMatrixAt(0, new THREE.Matrix4().makeTranslation(-10, 0, 0));
    crowd.setMatrixAt(1, new THREE.Matrix4().makeTranslation(-20, 0, 0).scale(V(2, 2, 2)));
    crowd.updateMatrixWorld();
    const tw = createThreeWorld(sc, { objects: [a, b, crowd] });
    expect([0, 1, 2, 3].map((i) => tw.kindOf(i))).toEqual(['obb', 'bound', 'sphere', 'sphere']);
    expect(tw.intersectFirst(new THREE.Raycaster(V(0, 0, 0), V(0, 0, -1))).distance).toBeCloseTo(4, 5);
    // b's corners' AABB, by three.js: x in [10 - sqrt(1/2), 10 + sqrt(1/2)]
    const bb = new THREE.Box3().copy(unitBox.boundingBox).applyMatrix4(b.matrixWorld);
    expect(tw.overlapBox(new THREE.Box3(V(bb.max.x - 1e-3, -0.1, -0.1), V(11, 0.1, 0.1))).map((x) => x.object)).toEqual([b]);
    // instance 1: radius 0.5 x 2 = 1 at x = -20: a ball at x = -17.5 of radius 1.5 touches it
    expect(tw.overlapSphere(new THREE.Sphere(V(-17.5, 0, 0), 1.5)).map((x) => x.instanceId)).toEqual([1]);
    expect(tw.overlapSphere(new THREE.Sphere(V(-17.5, 0, 0), 1.49)).length).toBe(0);
    tw.dispose();
  });
});

describe('on a ParallelWorld (createThreeWorld(sc, { parallel }))', () => {
  for (const memory of ['copied', 'shared']) {
    test(`${memory} memory: rays and sweeps resolve to the synchronous world's answers; the rest is refused`, async () => {
      const par = await createParallelWorld({ workers: 2, memory, wasm: WASM, sharedWasm: MT_WASM });
      try {
        const { scene, meshes, r, q } = randomCity(41, 120);
        meshes[3].rotation.y = 0.5;
        meshes[4].userData.slabcast = { shape: 'sphere' };
        meshes[4].scale.setScalar(1.5);
        meshes[5].scale.setScalar(2);
        scene.updateMatrixWorld(true);
        const tw = createThreeWorld(sc, { objects: [scene] });
        const pw = createThreeWorld(sc, { objects: [scene], parallel: par });
        expect(pw.parallel).toBe(true);
        const rays = new Float32Array(6 * 64);
        const sweeps = new Float32Array(8 * 64);
        for (let i = 0; i < 64; i++) {
          const o = [40 * r() - 20, 4 * r(), 40 * r() - 20];
          const d = [r() - 0.5, 0.1 * r() - 0.05, r() - 0.5];
          rays.set([...o, ...d], 6 * i);
          sweeps.set([...o, ...d, 40, q(0.25 + r())], 8 * i);
        }
        const a = await pw.castRays(rays, { far: 30, exclude: meshes[0] });
        const b = tw.castRays(rays, { far: 30, exclude: meshes[0] });
        // (a parallel world holds every box as an OBB: distances agree to float32 rounding)
        expect(Array.from(a.index)).toEqual(Array.from(b.index));
        for (let i = 0; i < 64; i++) {
          if (a.index[i] < 0) expect(a.distance[i]).toBe(Infinity);
          else expect(Math.abs(a.distance[i] - b.distance[i])).toBeLessThanOrEqual(1e-5 * Math.max(1, b.distance[i]));
        }
        expect(a.objects).toEqual(b.objects);
        const c = await pw.castSpheres(sweeps, { inside: 'skip' });
        const d = tw.castSpheres(sweeps, { inside: 'skip' });
        expect(Array.from(c.index)).toEqual(Array.from(d.index));
        for (let i = 0; i < 64; i++) {
          if (d.index[i] < 0) expect(c.distance[i]).toBe(Infinity);
          else expect(Math.abs(c.distance[i] - d.distance[i])).toBeLessThanOrEqual(1e-5 * Math.max(1, d.distance[i]));
        }
        const rc = new THREE.Raycaster(V(-30, 1, 0), V(1, 0, 0));
        const first = await pw.intersectFirst(rc);
        const sync = tw.intersectFirst(rc);
        expect(sync).not.toBe(null);
        expect([first.object, Math.abs(first.distance - sync.distance) < 1e-5 * sync.distance]).toEqual([sync.object, true]);
        const ball = await pw.castSphere(V(-30, 1, 0), V(1, 0, 0), 0.5);
        const ball2 = tw.castSphere(V(-30, 1, 0), V(1, 0, 0), 0.5);
        expect([ball.index, Math.abs(ball.distance - ball2.distance) < 1e-5 * ball2.distance]).toEqual([ball2.index, true]);
        // moved, then updated: the parallel world sees it
        meshes[0].position.set(-25, 1, 0);
        meshes[0].updateMatrixWorld();
        pw.update();
        tw.update();
        // meshes[0] is now a box from x = -25 - sx / 2: the box sweep's face reaches it first
        const moved = await pw.castBox(V(-30, 1, 0), V(1, 0, 0), V(0.5, 0.5, 0.5));
        expect(moved.object).toBe(meshes[0]);
        expect(moved.distance).toBeCloseTo(5 - meshes[0].scale.x / 2 - 0.5, 5);
        // what a queued query cannot do is refused (rejected), naming it
        await expect(pw.castRays(rays, { exclude: [meshes[0], meshes[1]] })).rejects.toMatchObject({ field: 'options.exclude' });
        await expect(pw.castRays(rays, { near: 1 })).rejects.toMatchObject({ field: 'near' });
        await expect(pw.castSphere(V(0, 0, 0), V(0, 0, 0), 1)).rejects.toMatchObject({ field: 'direction' });
        expect(thrown(() => pw.overlapBox(new THREE.Box3())).field).toBe('overlapBox');
        expect(thrown(() => pw.intersect(rc)).field).toBe('intersect');
        expect(thrown(() => pw.closestObject(V(0, 0, 0))).field).toBe('closestObject');
        // update() while a query is pending is refused
        const pending = pw.castRays(rays);
        expect(thrown(() => pw.update()).field).toBe('world');
        await pending;
        // a mesh turning into a sphere cannot be rebuilt on a parallel world
        meshes[5].userData.slabcast = { shape: 'sphere' };
        expect(thrown(() => pw.update()).field).toMatch(/^objects\[0\]/);
        tw.dispose();
        pw.dispose();
        expect(par.disposed).toBe(false); // the ParallelWorld is the caller's
        expect(thrown(() => createThreeWorld(sc, { objects: [scene], parallel: par })).field).toBe('options.parallel');
      } finally {
        await par.dispose();
      }
    }, 60000);
  }
});

describe('options: a misspelt key is refused, naming it (issue 22: unknown keys are not ignored)', () => {
  test('every query of the adapter', () => {
    const mesh = boxMesh(0, 0, 0);
    const scene = new THREE.Scene();
    scene.add(mesh);
    const world = createThreeWorld(sc, { objects: [scene] });
    const rc = new THREE.Raycaster(V(-5, 0, 0), V(1, 0, 0));
    const calls = {
      intersect: (o) => world.intersect(rc, [], o),
      intersectFirst: (o) => world.intersectFirst(rc, o),
      castRays: (o) => world.castRays([-5, 0, 0, 1, 0, 0], o),
      overlapBox: (o) => world.overlapBox(new THREE.Box3(V(-1, -1, -1), V(1, 1, 1)), o),
      overlapSphere: (o) => world.overlapSphere(new THREE.Sphere(V(0, 0, 0), 1), o),
      castSphere: (o) => world.castSphere(V(-5, 0, 0), V(1, 0, 0), 0.5, o),
      castBoxes: (o) => world.castBoxes([-5, 0, 0, 1, 0, 0, Infinity, 0.5, 0.5, 0.5], o),
      closestObject: (o) => world.closestObject(V(3, 0, 0), Infinity, o),
      closestObjects: (o) => world.closestObjects([3, 0, 0], Infinity, o),
    };
    for (const [name, call] of Object.entries(calls)) {
      const e = thrown(() => call({ exlude: mesh }));
      expect(e.message, name).toMatch(/^options\.exlude is not an option \(.*\); did you mean exclude\?$/);
      expect(e.field, name).toBe('options.exlude');
    }
    const e = thrown(() => createThreeWorld(sc, { object: [scene] }));
    expect(e.message).toMatch(/options\.object is not an option .*did you mean objects\?/);
    world.dispose();
  });
});
