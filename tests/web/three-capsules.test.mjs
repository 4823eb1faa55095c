// The three.js adapter's capsules (issue 24, part 2): CapsuleGeometry meshes and
// userData.slabcast.shape 'capsule' as core capsules (and the fallback to the box under a
// non-uniform scale), overlapCapsule, castCapsule and castCapsules. Expected values are derived by
// hand for small scenes (the comments say how), or judged independently: for vertical capsules
// among axis-aligned boxes the distance between the capsule's segment and a box is exact in
// closed form (a vertical segment and a box are a product of intervals), which judges random
// sweeps and overlaps. Coordinates are small dyadic numbers, exact in float32.
import * as THREE from 'three';
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

function mesh(geometry, x, y, z, parent) {
  const m = new THREE.Mesh(geometry);
  m.position.set(x, y, z);
  parent.add(m);
  return m;
}

function thrown(f) {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SlabcastError);
    return e;
  }
  throw new Error('did not throw');
}

/** The distance between the vertical segment (x, y0..y1, z) and the box [mn, mx] (exact: a product of intervals). */
function segmentBoxDistance(x, y0, y1, z, mn, mx) {
  const dx = Math.max(mn.x - x, 0, x - mx.x);
  const dz = Math.max(mn.z - z, 0, z - mx.z);
  const dy = Math.max(mn.y - y1, 0, y0 - mx.y);
  return Math.hypot(dx, dy, dz);
}

describe('CapsuleGeometry meshes are capsules', () => {
  test('through a rotation: rays, the nearest point, the local face normal (hand-derived)', () => {
    const scene = new THREE.Scene();
    // radius 0.5, height 2: the segment (0, -1, 0)-(0, 1, 0); turned 90 degrees about z, its
    // local +y is world -x: the segment (1, 2, 3)-(-1, 2, 3) around the position (0, 2, 3)
    const cap = mesh(new THREE.CapsuleGeometry(0.5, 2, 4, 8), 0, 2, 3, scene);
    cap.rotation.z = Math.PI / 2;
    scene.updateMatrixWorld(true);
    const world = createThreeWorld(sc, { objects: [scene] });
    expect(world.kindOf(0)).toBe('capsule');
    // along -x from x = 10 at the axis' height: the end ball of centre (1, 2, 3) is entered at x = 1.5
    const hit = world.intersectFirst(new THREE.Raycaster(V(10, 2, 3), V(-1, 0, 0)));
    expect(hit.object).toBe(cap);
    expect(hit.distance).toBeCloseTo(8.5, 6);
    expect(hit.worldNormal.toArray().map((v) => Math.round(v * 1e6) / 1e6 + 0)).toEqual([1, 0, 0]);
    // face.normal is local: world +x is local -y after the turn
    expect(hit.face.normal.toArray().map((v) => Math.round(v * 1e6) / 1e6 + 0)).toEqual([0, -1, 0]);
    // straight down onto the middle of the side: the top of the tube, y = 2.5
    expect(world.intersectFirst(new THREE.Raycaster(V(0.25, 10, 3), V(0, -1, 0))).distance).toBeCloseTo(7.5, 6);
    // a box of the same mesh would be hit at its corner; the capsule is not (distance to the axis 0.5 * sqrt(2) > 0.5)
    expect(world.intersectFirst(new THREE.Raycaster(V(0.25, 10, 3.45), V(0, -1, 0)))).not.toBeNull();
    expect(world.intersectFirst(new THREE.Raycaster(V(1.4, 10, 3.45), V(0, -1, 0)))).toBeNull();
    // the nearest point of the capsule to (0, 4, 3): straight below on the tube, 1.5 away
    const near = world.closestObject(V(0, 4, 3), 10);
    expect(near.distance).toBeCloseTo(1.5, 6);
    expect(near.point.toArray().map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 2.5, 3]);
    world.dispose();
  });

  test('a uniform scale scales the capsule; a non-uniform one makes the mesh its box, and the opt-in refuses it', () => {
    const scene = new THREE.Scene();
    const geometry = new THREE.CapsuleGeometry(0.5, 1, 4, 8); // segment (0, -0.5, 0)-(0, 0.5, 0), top at 1
    const big = mesh(geometry, 0, 0, 0, scene);
    big.scale.setScalar(2); // radius 1, segment (0, -1, 0)-(0, 1, 0), top at y = 2
    const tall = mesh(geometry, 10, 0, 0, scene);
    tall.scale.set(1, 2, 1); // no capsule: its box [9.5, 10.5] x [-2, 2] x [-0.5, 0.5]
    scene.updateMatrixWorld(true);
    const world = createThreeWorld(sc, { objects: [scene] });
    expect([world.kindOf(0), world.kindOf(1)]).toEqual(['capsule', 'aabb']);
    expect(world.intersectFirst(new THREE.Raycaster(V(0, 10, 0), V(0, -1, 0))).distance).toBeCloseTo(8, 6);
    // the box's corner column is hit at its top, y = 2
    expect(world.intersectFirst(new THREE.Raycaster(V(10.45, 10, 0.45), V(0, -1, 0))).distance).toBe(8);
    // the same mesh opting into 'capsule' is refused, naming it and what to do
    tall.userData.slabcast = { shape: 'capsule' };
    const e = thrown(() => world.update());
    expect(e.message).toMatch(/objects\[0\]\.children\[1\]: userData\.slabcast\.shape 'capsule' needs a rotation and a uniform scale in its matrixWorld \(column lengths 1\.00000, 2\.00000, 1\.00000\); use 'obb'/);
    // refused update(): nothing changed
    expect(world.kindOf(1)).toBe('aabb');
    // back to a uniform scale, the opt-in holds: a capsule again
    tall.scale.setScalar(1);
    tall.updateMatrixWorld(true);
    world.update();
    expect(world.kindOf(1)).toBe('capsule');
    expect(world.intersectFirst(new THREE.Raycaster(V(10, 10, 0), V(0, -1, 0))).distance).toBeCloseTo(9, 6);
    world.dispose();
  });

  test('five radial segments: still the capsule of the parameters (its box reaches only 0.809 r on one side)', () => {
    const scene = new THREE.Scene();
    mesh(new THREE.CapsuleGeometry(0.5, 2, 4, 5), 0, 0, 0, scene);
    scene.updateMatrixWorld(true);
    const world = createThreeWorld(sc, { objects: [scene] });
    // the tube is the full radius 0.5 all round, where the pentagonal mesh's box is not: from -x
    // at the axis' height it is entered at x = -0.5
    expect(world.intersectFirst(new THREE.Raycaster(V(-10, 0, 0), V(1, 0, 0))).distance).toBeCloseTo(9.5, 6);
    expect(world.intersectFirst(new THREE.Raycaster(V(0, 0, -10), V(0, 0, 1))).distance).toBeCloseTo(9.5, 6);
    world.dispose();
  });

  test('a CapsuleGeometry moved by geometry.translate is the capsule of its bounding box', () => {
    const scene = new THREE.Scene();
    // radialSegments 8: the box is exactly the capsule's, [-0.5, 0.5] x [0, 3] x [-0.5, 0.5] after
    // the translation: feet at the origin
    const g = new THREE.CapsuleGeometry(0.5, 2, 4, 8).translate(0, 1.5, 0);
    mesh(g, 0, 0, 0, scene);
    scene.updateMatrixWorld(true);
    const world = createThreeWorld(sc, { objects: [scene] });
    expect(world.kindOf(0)).toBe('capsule');
    expect(world.intersectFirst(new THREE.Raycaster(V(0, 10, 0), V(0, -1, 0))).distance).toBeCloseTo(7, 5);
    expect(world.intersectFirst(new THREE.Raycaster(V(0, -10, 0), V(0, 1, 0))).distance).toBeCloseTo(10, 5);
    // the side at y = 1.5 (on the tube): x = 0.5
    expect(world.intersectFirst(new THREE.Raycaster(V(-10, 1.5, 0), V(1, 0, 0))).distance).toBeCloseTo(9.5, 5);
    world.dispose();
  });

  test('userData.slabcast.shape "capsule": the capsule of the bounding box (longest axis, ties to y)', () => {
    const scene = new THREE.Scene();
    // box 2 x 4 x 2: axis y, radius 1, segment half 2 - 1 = 1: (0, -1, 0)-(0, 1, 0)
    const post = mesh(new THREE.BoxGeometry(2, 4, 2), 0, 0, 0, scene);
    // box 6 x 1 x 1: axis x, radius 0.5, segment (-2.5, 0, 0)-(2.5, 0, 0) around (20, 0, 0)
    const beam = mesh(new THREE.BoxGeometry(6, 1, 1), 20, 0, 0, scene);
    // box 2 x 2 x 2: a tie, axis y; radius 1, segment half 0: a ball of radius 1 around (-20, 0, 0)
    const cube = mesh(new THREE.BoxGeometry(2, 2, 2), -20, 0, 0, scene);
    for (const m of [post, beam, cube]) m.userData.slabcast = { shape: 'capsule' };
    scene.updateMatrixWorld(true);
    const world = createThreeWorld(sc, { objects: [scene] });
    expect([0, 1, 2].map((i) => world.kindOf(i))).toEqual(['capsule', 'capsule', 'capsule']);
    const down = (x, z) => world.intersectFirst(new THREE.Raycaster(V(x, 10, z), V(0, -1, 0)));
    expect(down(0, 0).distance).toBeCloseTo(8, 6); // the top: 1 + 1
    expect(down(0.9, 0.9)).toBeNull(); // 0.9 * sqrt(2) from the axis: outside radius 1 (inside the box)
    // on the top ball: 1 + sqrt(1 - 0.81)
    expect(down(0.9, 0).distance).toBeCloseTo(10 - (1 + Math.sqrt(0.19)), 6);
    // the beam's end ball, centre (22.5, 0, 0): 0.4 from it, y = sqrt(0.25 - 0.16) = 0.3
    expect(down(22.9, 0).distance).toBeCloseTo(9.7, 6);
    expect(down(-20, 0).distance).toBeCloseTo(9, 6);
    expect(down(-19.3, 0.75)).toBeNull(); // sqrt(0.49 + 0.5625) > 1: outside the ball, inside the box
    world.dispose();
  });

  test('an InstancedMesh of a CapsuleGeometry: one capsule per instance, hits name the instance', () => {
    const scene = new THREE.Scene();
    const im = new THREE.InstancedMesh(new THREE.CapsuleGeometry(0.5, 1, 4, 8), undefined, 3);
    im.setMatrixAt(0, new THREE.Matrix4().makeTranslation(0, 1, 0));
    im.setMatrixAt(1, new THREE.Matrix4().makeTranslation(4, 1, 0));
    im.setMatrixAt(2, new THREE.Matrix4().makeScale(1, 3, 1).setPosition(8, 1, 0)); // non-uniform: its box
    scene.add(im);
    scene.updateMatrixWorld(true);
    const world = createThreeWorld(sc, { objects: [scene] });
    expect([0, 1, 2].map((i) => world.kindOf(i))).toEqual(['capsule', 'capsule', 'aabb']);
    // a capsule (0.25 around (-2, 0.5, 0)-(-2, 1.5, 0)) moving +x: the instance 0's tube at x = -0.5 meets it at x = -1.75
    const hit = world.castCapsule(V(-2, 0.5, 0), V(-2, 1.5, 0), 0.25, V(1, 0, 0), { maxDistance: 20 });
    expect([hit.object, hit.instanceId]).toEqual([im, 0]);
    expect(hit.distance).toBeCloseTo(1.25, 6);
    const next = world.castCapsule(V(-2, 0.5, 0), V(-2, 1.5, 0), 0.25, V(1, 0, 0), { exclude: { object: im, instanceId: 0 } });
    expect(next.instanceId).toBe(1);
    expect(next.distance).toBeCloseTo(5.25, 6);
    world.dispose();
  });
});

describe('a BatchedMesh with userData.slabcast.shape "capsule"', () => {
  test('each instance is the capsule of its geometry\'s box', () => {
    const scene = new THREE.Scene();
    const bm = new THREE.BatchedMesh(2, 2000, 4000, new THREE.MeshBasicMaterial());
    const post = bm.addGeometry(new THREE.BoxGeometry(2, 4, 2)); // axis y, radius 1, segment half 1
    const a = bm.addInstance(post);
    const b = bm.addInstance(post);
    bm.setMatrixAt(a, new THREE.Matrix4().makeTranslation(0, 0, 0));
    bm.setMatrixAt(b, new THREE.Matrix4().makeTranslation(10, 0, 0));
    bm.userData.slabcast = { shape: 'capsule' };
    scene.add(bm);
    scene.updateMatrixWorld(true);
    const world = createThreeWorld(sc, { objects: [scene] });
    expect([world.kindOf(0), world.kindOf(1)]).toEqual(['capsule', 'capsule']);
    const down = (x, z) => world.intersectFirst(new THREE.Raycaster(V(x, 10, z), V(0, -1, 0)));
    expect(down(10.9, 0.9)).toBeNull(); // inside the box's corner column, outside the capsule
    const top = down(10, 0);
    expect([top.object, top.batchId, top.distance]).toEqual([bm, b, 8]);
    world.dispose();
  });
});

describe('castCapsule / castCapsules', () => {
  /** A wall (x from 4 to 5), a ball of radius 1 at (5, 3, 0) opted in, a vertical capsule mesh at (5, 1, -6). */
  function scene3() {
    const scene = new THREE.Scene();
    const wall = mesh(new THREE.BoxGeometry(1, 4, 2), 4.5, 1, 0, scene); // x 4..5, y -1..3, z -1..1
    wall.name = 'wall';
    const ball = mesh(new THREE.SphereGeometry(1, 16, 8), 5, 3, 3, scene);
    ball.name = 'ball';
    ball.userData.slabcast = { shape: 'sphere' };
    const post = mesh(new THREE.CapsuleGeometry(0.5, 2, 4, 8), 5, 1, -6, scene); // segment y 0..2 at (5, ., -6)
    post.name = 'post';
    scene.updateMatrixWorld(true);
    return { scene, wall, ball, post, world: createThreeWorld(sc, { objects: [scene] }) };
  }

  test('first contacts, hand-derived: a face, a ball off the segment\'s end, a parallel capsule', () => {
    const { wall, ball, post, world } = scene3();
    const east = V(1, 0, 0);
    // the capsule of radius 0.5 around (0, 0, 0)-(0, 2, 0) moving +x meets the face x = 4 at 3.5
    const h = world.castCapsule(V(0, 0, 0), V(0, 2, 0), 0.5, east, { maxDistance: 10 });
    expect(h.object).toBe(wall);
    expect(h.distance).toBeCloseTo(3.5, 6);
    expect(h.normal.toArray()).toEqual([-1, 0, 0]);
    expect(h.point.x).toBe(4);
    expect(h.point.y).toBeGreaterThanOrEqual(0);
    expect(h.point.y).toBeLessThanOrEqual(2);
    expect(world.castCapsule(V(0, 0, 0), V(0, 2, 0), 0.5, east, { maxDistance: 3 })).toBeNull();
    // a direction of length 2: distances stay in world units
    expect(world.castCapsule(V(0, 0, 0), V(0, 2, 0), 0.5, V(2, 0, 0)).distance).toBeCloseTo(3.5, 6);
    // at z = 3 the segment's top end (t, 2, 3) meets the ball (5, 3, 3), r 1: sqrt((5 - t)^2 + 1) = 1.5
    const b = world.castCapsule(V(0, 0, 3), V(0, 2, 3), 0.5, east);
    expect(b.object).toBe(ball);
    const t = 5 - Math.sqrt(1.25);
    expect(b.distance).toBeCloseTo(t, 5);
    // the normal points from the ball's centre at the moving end: (t - 5, -1, 0) / 1.5
    expect(b.normal.x).toBeCloseTo((t - 5) / 1.5, 5);
    expect(b.normal.y).toBeCloseTo(-1 / 1.5, 5);
    expect(b.point.x).toBeCloseTo(5 + (t - 5) / 1.5, 5);
    // at z = -6: two parallel vertical capsules of radius 0.5 touch when their axes are 1 apart: t = 4
    const c = world.castCapsule(V(0, 0, -6), V(0, 2, -6), 0.5, east);
    expect(c.object).toBe(post);
    expect(c.distance).toBeCloseTo(4, 6);
    expect(c.normal.toArray().map((v) => Math.round(v * 1e6) / 1e6 + 0)).toEqual([-1, 0, 0]);
    world.dispose();
  });

  test('exclude, layers and inside', () => {
    const { wall, ball, world } = scene3();
    const east = V(1, 0, 0);
    // starting against the wall (touching at x = 4): distance 0, a zero normal
    const touching = world.castCapsule(V(3.5, 0, 0), V(3.5, 2, 0), 0.5, east);
    expect([touching.object, touching.distance, touching.normal.toArray()]).toEqual([wall, 0, [0, 0, 0]]);
    expect(world.castCapsule(V(3.5, 0, 0), V(3.5, 2, 0), 0.5, east, { inside: 'skip' })).toBeNull();
    expect(world.castCapsule(V(0, 0, 0), V(0, 2, 0), 0.5, east, { exclude: wall })).toBeNull();
    wall.layers.set(2);
    world.update();
    const ground = new THREE.Layers(); // layer 0 only
    expect(world.castCapsule(V(0, 0, 0), V(0, 2, 0), 0.5, east, { layers: ground })).toBeNull();
    expect(world.castCapsule(V(0, 0, 3), V(0, 2, 3), 0.5, east, { layers: ground }).object).toBe(ball);
    world.dispose();
  });

  test('castCapsules: the core layout (11 floats), the same answers as castCapsule, objects and distances in world units', () => {
    const { wall, ball, post, world } = scene3();
    const sweeps = new Float32Array([
      0, 0, 0, 0, 2, 0, 2, 0, 0, 10, 0.5, // tmax in units of the direction (length 2): 20 m
      0, 0, 3, 0, 2, 3, 1, 0, 0, 10, 0.5,
      0, 0, -6, 0, 2, -6, 1, 0, 0, 10, 0.5,
      0, 0, 0, 0, 2, 0, -1, 0, 0, 10, 0.5, // away from everything
    ]);
    const r = world.castCapsules(sweeps);
    expect(r.objects).toEqual([wall, ball, post, null]);
    expect(r.distance[0]).toBeCloseTo(3.5, 6);
    expect(r.distance[3]).toBe(Infinity);
    expect(Array.from(r.instanceId)).toEqual([-1, -1, -1, -1]);
    for (let i = 0; i < 3; i++) {
      const s = sweeps.subarray(11 * i, 11 * i + 11);
      const one = world.castCapsule(V(s[0], s[1], s[2]), V(s[3], s[4], s[5]), s[10], V(s[6], s[7], s[8]));
      expect(r.distance[i]).toBe(Math.fround(one.distance));
      expect(Array.from(r.normal.subarray(3 * i, 3 * i + 3))).toEqual(one.normal.toArray().map(Math.fround));
    }
    expect(thrown(() => world.castCapsules(new Float32Array(10))).message).toMatch(/sweeps must hold 11 floats per sweep; its length 10 is not a multiple of 11/);
    world.dispose();
  });

  test('bad input is refused, naming it', () => {
    const { world } = scene3();
    expect(thrown(() => world.castCapsule(V(0, 0, 0), V(0, 1, 0), -1, V(1, 0, 0))).message).toMatch(/radius must be a finite number >= 0/);
    expect(thrown(() => world.castCapsule(V(0, 0, 0), V(0, 1, 0), 0.5, V(0, 0, 0))).message).toMatch(/direction is zero/);
    expect(thrown(() => world.castCapsule(null, V(0, 1, 0), 0.5, V(1, 0, 0))).message).toMatch(/start must be a Vector3/);
    expect(thrown(() => world.castCapsule(V(0, 0, 0), V(0, NaN, 0), 0.5, V(1, 0, 0))).message).toMatch(/end is not finite/);
    expect(thrown(() => world.castCapsule(V(0, 0, 0), V(0, 1, 0), 0.5, V(1, 0, 0), { far: 3 })).message).toMatch(/far/);
    expect(thrown(() => world.overlapCapsule(V(0, 0, 0), V(0, 1, 0), Infinity)).message).toMatch(/radius must be a finite number >= 0/);
    world.dispose();
  });

  test('random vertical capsules among random boxes: judged by the exact segment-box distance', () => {
    const r = rng(2424);
    const q = (v) => Math.round(v * 4) / 4;
    const scene = new THREE.Scene();
    const boxes = [];
    for (let i = 0; i < 150; i++) {
      const m = mesh(new THREE.BoxGeometry(q(0.5 + 3 * r()), q(0.5 + 3 * r()), q(0.5 + 3 * r())), q(40 * r() - 20), q(4 * r()), q(40 * r() - 20), scene);
      boxes.push(m);
    }
    scene.updateMatrixWorld(true);
    const bounds = boxes.map((m) => new THREE.Box3().setFromObject(m, true));
    const world = createThreeWorld(sc, { objects: [scene] });
    const clearance = (x, y0, y1, z) => Math.min(...bounds.map((b) => segmentBoxDistance(x, y0, y1, z, b.min, b.max)));
    let hits = 0;
    let checked = 0;
    for (let k = 0; k < 300; k++) {
      const x = q(40 * r() - 20), y = q(4 * r()), z = q(40 * r() - 20), h = q(0.25 + 2 * r()), rad = q(0.25 + r());
      if (clearance(x, y, y + h, z) <= rad) continue; // starts touching something: another test's case
      checked++;
      const a = 2 * Math.PI * r();
      const dir = V(Math.cos(a), 0, Math.sin(a));
      const hit = world.castCapsule(V(x, y, z), V(x, y + h, z), rad, dir, { maxDistance: 30 });
      const at = (s) => clearance(x + s * dir.x, y, y + h, z + s * dir.z);
      const end = hit === null ? 30 : hit.distance;
      // free along the way (sampled) up to the contact
      for (let j = 0; j < 40; j++) expect(at((end * j) / 40)).toBeGreaterThan(rad - 1e-4);
      if (hit !== null) {
        hits++;
        const b = bounds[hit.index];
        const px = x + end * dir.x, pz = z + end * dir.z;
        // touching the reported box at the contact
        expect(Math.abs(segmentBoxDistance(px, y, y + h, pz, b.min, b.max) - rad)).toBeLessThan(1e-4);
        // the overlap of the capsule just past the contact names it; just before, nothing
        const past = world.overlapCapsule(V(px + 1e-3 * dir.x, y, pz + 1e-3 * dir.z), V(px + 1e-3 * dir.x, y + h, pz + 1e-3 * dir.z), rad);
        expect(past.map((o) => o.index)).toContain(hit.index);
        const before = world.overlapCapsule(V(px - 1e-3 * dir.x, y, pz - 1e-3 * dir.z), V(px - 1e-3 * dir.x, y + h, pz - 1e-3 * dir.z), rad);
        expect(before).toEqual([]);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(hits).toBeGreaterThan(30);
    world.dispose();
  });
});

describe('overlapCapsule', () => {
  test('exact: touching counts; one float32 step less does not; names instances', () => {
    const scene = new THREE.Scene();
    const wall = mesh(new THREE.BoxGeometry(1, 4, 2), 4.5, 1, 0, scene); // x 4..5
    const im = new THREE.InstancedMesh(new THREE.CapsuleGeometry(0.5, 1, 4, 8), undefined, 2);
    im.setMatrixAt(0, new THREE.Matrix4().makeTranslation(-6, 1, 0));
    im.setMatrixAt(1, new THREE.Matrix4().makeTranslation(-10, 1, 0));
    scene.add(im);
    scene.updateMatrixWorld(true);
    const world = createThreeWorld(sc, { objects: [scene] });
    const a = V(0, 0, 0);
    const b = V(0, 2, 0);
    expect(world.overlapCapsule(a, b, 4).map((o) => o.object)).toEqual([wall]);
    const below = 4 - 2 ** -22; // the float32 just below 4
    expect(world.overlapCapsule(a, b, below)).toEqual([]);
    expect(world.overlapCapsule(a, b, 9.5 - 2 ** -20).map((o) => o.instanceId)).toEqual([undefined, 0]);
    // the instances: radius 0.5 around (x, 0.5..1.5, 0) for x = -6, -10; the segments are 10 apart
    // at most: radius 9.5 touches the second
    const both = world.overlapCapsule(a, b, 9.5);
    expect(both.map((o) => [o.object === im ? 'im' : o.object === wall ? 'wall' : '?', o.instanceId])).toEqual([['wall', undefined], ['im', 0], ['im', 1]]);
    expect(world.overlapCapsule(a, b, 9.5, { exclude: { object: im, instanceId: 1 } }).length).toBe(2);
    // a zero radius: the segment itself
    expect(world.overlapCapsule(V(3, 1, 0), V(4, 1, 0), 0).map((o) => o.object)).toEqual([wall]);
    world.dispose();
  });
});

describe('on a ParallelWorld', () => {
  for (const memory of ['copied', 'shared']) test(`${memory} memory: castCapsule / castCapsules resolve to the synchronous world's answers; overlapCapsule is refused`, async () => {
    const scene = new THREE.Scene();
    mesh(new THREE.BoxGeometry(1, 4, 2), 4.5, 1, 0, scene);
    mesh(new THREE.CapsuleGeometry(0.5, 2, 4, 8), 5, 1, -6, scene);
    scene.updateMatrixWorld(true);
    const pw = await createParallelWorld({ workers: 1, memory, wasm: WASM, sharedWasm: MT_WASM });
    try {
      const world = createThreeWorld(sc, { objects: [scene], parallel: pw });
      const sync = createThreeWorld(sc, { objects: [scene] });
      const one = await world.castCapsule(V(0, 0, -6), V(0, 2, -6), 0.5, V(1, 0, 0));
      const ref = sync.castCapsule(V(0, 0, -6), V(0, 2, -6), 0.5, V(1, 0, 0));
      expect([one.index, one.distance, one.normal.toArray()]).toEqual([ref.index, ref.distance, ref.normal.toArray()]);
      const sweeps = new Float32Array([0, 0, 0, 0, 2, 0, 1, 0, 0, 10, 0.5, 0, 0, -6, 0, 2, -6, 1, 0, 0, 10, 0.5]);
      const r = await world.castCapsules(sweeps);
      const s = sync.castCapsules(sweeps);
      expect(Array.from(r.distance)).toEqual(Array.from(s.distance));
      expect(Array.from(r.index)).toEqual(Array.from(s.index));
      expect(() => world.overlapCapsule(V(0, 0, 0), V(0, 1, 0), 1)).toThrow(/not available on a parallel world/);
      sync.dispose();
      world.dispose();
    } finally {
      pw.dispose();
    }
  });
});
