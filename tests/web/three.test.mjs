// slabcast/three (web/three.js) against three.js's own Raycaster on the same scenes.
//
// Scenes: BoxGeometry meshes (random, non-dyadic sizes, offsets, positions, rotations and scales,
// some under nested parents), rays whose origins lie outside every box in random directions,
// most aimed at some box. From outside, three.js's Mesh.raycast (FrontSide) reports one hit per
// box, at the entry face, and so does slabcast. Compared, ray by ray: the same objects in the
// same order, distances and points within the tolerance below, face.normal equal to three.js's.
//
// Tolerance. three.js computes in float64 (from the float32 vertex positions, which are exact
// here), so its answers are exact to ~1e-15; slabcast rounds its inputs to float32 and computes
// in float32. With u = 2^-24 (float32's unit roundoff), o the ray origin, C the largest
// coordinate magnitude of the box's world corners and D the distance:
//   - rounding the inputs moves the entry face plane, relative to the ray, by at most
//     u*|o| (origin) + u*C (box corners, or an OBB's centre, its half extents, and its axes,
//     which move a point at distance <= |o| + C from the centre by <= sqrt(3)*u*(|o| + C)),
//     and the direction's rounding (relative u) moves the point at distance D by u*D;
//   - the core's float32 arithmetic adds a few more roundings of the same quantities (the OBB
//     frame transform: a dot product, about 3u*(|o| + C) plus 3u*D for the direction; the slab's
//     subtraction and division: 2u relative);
// in all under 8u*(|o| + 2C + D) measured along the face normal. Along the ray that is divided
// by cos(theta), theta the angle between the ray and the face normal. The tests allow twice
// that: tol = 16u*(|o| + 2C + D) / |cos(theta)|. A point is origin + t*dir on the caller's ray:
// its error is the distance's.
//
// Ambiguous cases are decided by an independent float64 slab test in each mesh's local frame
// (the ray taken through three.js's inverse matrixWorld; the ray parameter is preserved by an
// affine map, so local t values are world distances): a box the ray grazes (|t_enter - t_exit|
// <= tol) may be reported by one side only; an entry within tol of an edge (the two largest slab
// entries within tol) may give either face's normal; an entry within tol of near or far may be
// kept by one side only; two hits whose distances are within their tolerances may come in either
// order. Such exemptions are counted and must stay rare (they are near-impossible with random
// floats: none is expected, a handful per 10^4 hits would still be legitimate).
import * as THREE from 'three';
import { beforeAll, describe, expect, test } from 'vitest';
import { rng } from '../../web/bench/scenes.mjs';
import { loadSlabcast, SlabcastError } from '../../web/slabcast.js';
import { createThreeWorld } from '../../web/three.js';

let sc;
beforeAll(async () => {
  sc = await loadSlabcast();
});

const U = 2 ** -24;

function thrown(fn) {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof SlabcastError)) throw new Error(`expected a SlabcastError, got ${e && e.message}`);
    return e;
  }
  throw new Error('expected a throw');
}

// ------------------------------------------------------------------ scenes

const material = new THREE.MeshBasicMaterial(); // FrontSide

function randomQuaternion(rand) {
  const e = new THREE.Euler(rand() * 6.283, rand() * 6.283, rand() * 6.283);
  return new THREE.Quaternion().setFromEuler(e);
}

/**
 * n box meshes under root. rotate: random orientations (OBB path); scale: random non-uniform
 * scales; nested: some meshes under one or two levels of rotated, uniformly scaled groups (so
 * that world matrices stay free of shear).
 */
function makeScene(rand, n, { rotate = false, scale = false, nested = false, spread = 30 } = {}) {
  const root = new THREE.Group();
  const parents = [root];
  if (nested) {
    for (let i = 0; i < 4; i++) {
      const g = new THREE.Group();
      g.position.set((rand() - 0.5) * spread, (rand() - 0.5) * spread, (rand() - 0.5) * spread);
      g.quaternion.copy(randomQuaternion(rand));
      g.scale.setScalar(0.6 + rand());
      const parent = parents[Math.floor(rand() * parents.length)];
      parent.add(g);
      parents.push(g);
    }
  }
  for (let i = 0; i < n; i++) {
    const geo = new THREE.BoxGeometry(0.2 + rand() * 2.3, 0.2 + rand() * 2.3, 0.2 + rand() * 2.3);
    if (rand() < 0.3) geo.translate(rand() - 0.5, rand() - 0.5, rand() - 0.5);
    const mesh = new THREE.Mesh(geo, material);
    mesh.name = `box${i}`;
    mesh.position.set((rand() - 0.5) * spread, (rand() - 0.5) * spread, (rand() - 0.5) * spread);
    if (rotate && rand() < 0.8) mesh.quaternion.copy(randomQuaternion(rand));
    if (scale) mesh.scale.set(0.4 + rand() * 1.7, 0.4 + rand() * 1.7, 0.4 + rand() * 1.7);
    const parent = parents[Math.floor(rand() * parents.length)];
    parent.add(mesh);
  }
  root.updateMatrixWorld(true);
  const meshes = [];
  root.traverse((o) => { if (o.isMesh) meshes.push(o); });
  return { root, meshes };
}

/** Float64 slab test of a world ray against a mesh's local bounding box (see the header). */
function oracle(mesh, origin, dir) {
  const inv = mesh.matrixWorld.clone().invert();
  const lo = origin.clone().applyMatrix4(inv);
  const ld = origin.clone().add(dir).applyMatrix4(inv).sub(lo);
  const bb = mesh.geometry.boundingBox;
  const o = lo.toArray();
  const d = ld.toArray();
  const mn = bb.min.toArray();
  const mx = bb.max.toArray();
  const entries = [];
  let tf = Infinity;
  for (let a = 0; a < 3; a++) {
    const t1 = (mn[a] - o[a]) / d[a];
    const t2 = (mx[a] - o[a]) / d[a];
    entries.push([Math.min(t1, t2), a]);
    tf = Math.min(tf, Math.max(t1, t2));
  }
  entries.sort((x, y) => y[0] - x[0]);
  const tn = entries[0][0];
  // world normal of the entry face: row `axis` of the inverse's linear part
  const axis = entries[0][1];
  const e = inv.elements;
  const nw = new THREE.Vector3(e[axis], e[axis + 4], e[axis + 8]).normalize();
  const cos = Math.abs(nw.dot(dir));
  const corners = new THREE.Box3().copy(bb).applyMatrix4(mesh.matrixWorld);
  const C = Math.max(...corners.min.toArray().map(Math.abs), ...corners.max.toArray().map(Math.abs));
  const inside = o.every((v, a) => v >= mn[a] && v <= mx[a]);
  return { tn, tn2: entries[1][0], tf, cos, C, inside, hit: tn <= tf && tf >= 0 };
}

function tolOf(origin, C, D, cos) {
  return (16 * U * (origin.length() + 2 * C + D)) / Math.max(cos, 1e-300);
}

/** Random rays from outside every box, most aimed at a box (unit directions). */
function makeRays(rand, meshes, count, spread = 30) {
  const rays = [];
  while (rays.length < count) {
    const o = new THREE.Vector3((rand() - 0.5) * spread * 1.6, (rand() - 0.5) * spread * 1.6, (rand() - 0.5) * spread * 1.6);
    let d;
    if (rand() < 0.8) {
      const target = meshes[Math.floor(rand() * meshes.length)];
      const p = new THREE.Vector3(rand() - 0.5, rand() - 0.5, rand() - 0.5).applyMatrix4(target.matrixWorld);
      d = p.sub(o);
    } else {
      d = new THREE.Vector3(rand() - 0.5, rand() - 0.5, rand() - 0.5);
    }
    if (d.lengthSq() < 1e-6) continue;
    d.normalize();
    // outside every box, and not within a tolerance of one
    if (meshes.some((m) => { const r = oracle(m, o, d); return r.inside || (r.tn <= 0 && r.tf >= 0); })) continue;
    rays.push(new THREE.Ray(o, d));
  }
  return rays;
}

// ------------------------------------------------------------------ comparison

/** Counts an ambiguous case (see the header); THREE_TEST_STATS=1 prints them. */
function exempt(stats, note) {
  stats.exempt++;
  stats.notes.push(note);
}

/**
 * Compares world.intersect with raycaster.intersectObject(root) on one raycaster. meshes: what a
 * ray may hit (objects with matrixWorld, geometry.boundingBox and name: meshes, or the instance
 * targets of instanceTargets); keyOf maps a hit (three.js's or slabcast's) to one of them.
 */
function compareOne(world, root, meshes, raycaster, stats, problems, keyOf = (h) => h.object) {
  const three = raycaster.intersectObject(root, true);
  const mine = world.intersect(raycaster);
  const { origin, direction } = raycaster.ray;
  const info = new Map(meshes.map((m) => [m, oracle(m, origin, direction)]));
  const tol = (m, D) => { const r = info.get(m); return tolOf(origin, r.C, D, r.cos); };
  const report = (msg) => { if (problems.length < 8) problems.push(`ray ${origin.toArray()} -> ${direction.toArray()} near ${raycaster.near} far ${raycaster.far}: ${msg}`); };

  const threeBy = new Map();
  for (const h of three) {
    const key = keyOf(h);
    if (threeBy.has(key)) { report(`three.js reports ${key.name} twice (a ray on a triangle edge?)`); return; }
    threeBy.set(key, h);
  }
  const mineBy = new Map(mine.map((h) => [keyOf(h), h]));
  if (mineBy.size !== mine.length) report('slabcast reports an object twice');
  const common = [];
  for (const m of meshes) {
    const a = threeBy.get(m);
    const b = mineBy.get(m);
    if (!a && !b) continue;
    const r = info.get(m);
    if (!a || !b) {
      const t = tol(m, Math.max(0, r.tn));
      const ambiguous = Math.abs(r.tn - r.tf) <= t || Math.abs(r.tn - raycaster.near) <= t || Math.abs(r.tn - raycaster.far) <= t;
      if (ambiguous) exempt(stats, `${m.name} reported by one side: enter ${r.tn}, exit ${r.tf}, near ${raycaster.near}, far ${raycaster.far}, tolerance ${t}`);
      else report(`${m.name}: ${a ? `three.js ${a.distance}` : 'three.js: miss'}, ${b ? `slabcast ${b.distance}` : 'slabcast: miss'} (f64 slab: enter ${r.tn}, exit ${r.tf})`);
      continue;
    }
    stats.hits++;
    const t = tol(m, a.distance);
    stats.maxRel = Math.max(stats.maxRel, Math.abs(a.distance - b.distance) / t);
    if (!(Math.abs(a.distance - b.distance) <= t)) report(`${m.name}: distance three.js ${a.distance}, slabcast ${b.distance}, tolerance ${t}`);
    if (!(a.point.distanceTo(b.point) <= t * 1.01 + 1e-12)) report(`${m.name}: point three.js ${a.point.toArray()}, slabcast ${b.point.toArray()}`);
    if (a.face.normal.distanceTo(b.face.normal) > 1e-6) {
      if (Math.abs(r.tn - r.tn2) <= t) exempt(stats, `${m.name} entered near an edge: slab entries ${r.tn}, ${r.tn2}, tolerance ${t}`);
      else report(`${m.name}: face.normal three.js ${a.face.normal.toArray()}, slabcast ${b.face.normal.toArray()}`);
    }
    // slabcast's world normal is three.js's face normal taken to world space
    const nw = a.face.normal.clone().applyNormalMatrix(new THREE.Matrix3().getNormalMatrix(m.matrixWorld));
    if (Math.abs(r.tn - r.tn2) > t && nw.distanceTo(b.worldNormal) > 1e-5) report(`${m.name}: worldNormal ${b.worldNormal.toArray()}, expected ${nw.toArray()}`);
    common.push(m);
  }
  // the same order: three.js's sequence restricted to the common objects against slabcast's
  const seqThree = three.map(keyOf).filter((o) => common.includes(o));
  const seqMine = mine.map(keyOf).filter((o) => common.includes(o));
  for (let i = 0; i < seqThree.length; i++) {
    if (seqThree[i] === seqMine[i]) continue;
    const a = seqThree[i];
    const b = seqMine[i];
    const da = threeBy.get(a).distance;
    const db = threeBy.get(b).distance;
    if (Math.abs(da - db) <= tol(a, da) + tol(b, db)) { exempt(stats, `order of ${a.name} and ${b.name}: ${da}, ${db}`); continue; }
    report(`order: three.js ${seqThree.map((o) => o.name)}, slabcast ${seqMine.map((o) => o.name)}`);
    break;
  }
  // sorted by distance, and intersectFirst is the first of intersect
  for (let i = 1; i < mine.length; i++) if (!(mine[i - 1].distance <= mine[i].distance)) report('slabcast not sorted by distance');
  const first = world.intersectFirst(raycaster);
  if (mine.length === 0 ? first !== null : !(first && keyOf(first) === keyOf(mine[0]) && first.distance === mine[0].distance)) {
    report(`intersectFirst ${first && keyOf(first).name} ${first && first.distance}, intersect[0] ${mine[0] && keyOf(mine[0]).name}`);
  }
}

function runScene(rand, sceneOptions, nMeshes, nRays, rayOptions = () => ({})) {
  const { root, meshes } = makeScene(rand, nMeshes, sceneOptions);
  const world = createThreeWorld(sc, { objects: [root] });
  const rays = makeRays(rand, meshes, nRays, sceneOptions.spread);
  const stats = { hits: 0, exempt: 0, maxRel: 0, notes: [] };
  const problems = [];
  const raycaster = new THREE.Raycaster();
  for (const ray of rays) {
    raycaster.ray.copy(ray);
    const { near = 0, far = Infinity } = rayOptions(rand);
    raycaster.near = near;
    raycaster.far = far;
    compareOne(world, root, meshes, raycaster, stats, problems);
  }
  return { world, root, meshes, rays, stats, problems };
}

function expectGood({ stats, problems }, minHits) {
  if (process.env.THREE_TEST_STATS) console.log(JSON.stringify(stats, null, 1));
  expect(problems).toEqual([]);
  expect(stats.hits).toBeGreaterThanOrEqual(minHits);
  expect(stats.exempt).toBeLessThanOrEqual(Math.max(2, stats.hits / 1000));
}

// ------------------------------------------------------------------ tests

describe('the same hits as three.js Raycaster', () => {
  test('axis-aligned box meshes (AABB path), translated and scaled', () => {
    const r = runScene(rng(11), { scale: true }, 200, 400);
    for (let i = 0; i < r.world.count; i++) expect(r.world.kindOf(i)).toBe('aabb');
    expectGood(r, 450);
    r.world.dispose();
  });

  test('rotated and scaled box meshes (OBB path)', () => {
    const r = runScene(rng(12), { rotate: true, scale: true }, 200, 400);
    const kinds = new Set(Array.from({ length: r.world.count }, (_, i) => r.world.kindOf(i)));
    expect(kinds).toEqual(new Set(['aabb', 'obb']));
    expectGood(r, 450);
    r.world.dispose();
  });

  test('nested parents (rotated, uniformly scaled groups)', () => {
    const r = runScene(rng(13), { rotate: true, scale: true, nested: true }, 200, 400);
    // every mesh with a rotation (its own or a parent's) is an oriented box; none is sheared
    r.meshes.forEach((m, i) => {
      const e = m.matrixWorld.elements;
      const rotated = [1, 2, 4, 6, 8, 9].some((j) => e[j] !== 0);
      expect(r.world.kindOf(i)).toBe(rotated ? 'obb' : 'aabb');
    });
    expect(r.meshes.filter((m) => m.parent !== r.root).length).toBeGreaterThan(100);
    expectGood(r, 400);
    r.world.dispose();
  });

  test('Raycaster near and far', () => {
    const r = runScene(rng(14), { rotate: true, scale: true }, 150, 500, (rand) => {
      const near = rand() < 0.5 ? 0 : rand() * 20;
      return { near, far: rand() < 0.3 ? Infinity : near + rand() * 25 };
    });
    expectGood(r, 230);
    r.world.dispose();
  });

  test('large coordinates and small boxes', () => {
    const r = runScene(rng(15), { rotate: true, scale: true, spread: 3000 }, 300, 300);
    expectGood(r, 100);
    r.world.dispose();
  });

  test('after moving, rotating and rescaling meshes: update()', () => {
    const rand = rng(16);
    const r = runScene(rand, { scale: true }, 150, 100);
    expectGood(r, 100);
    for (const m of r.meshes) {
      if (rand() < 0.5) m.position.x += rand() * 3;
      if (rand() < 0.3) m.quaternion.copy(randomQuaternion(rand)); // AABB -> OBB: a rebuild
      if (rand() < 0.3) m.scale.set(0.4 + rand(), 0.4 + rand(), 0.4 + rand());
    }
    r.root.updateMatrixWorld(true);
    r.world.update();
    expect(Array.from({ length: r.world.count }, (_, i) => r.world.kindOf(i))).toContain('obb');
    const stats = { hits: 0, exempt: 0, maxRel: 0, notes: [] };
    const problems = [];
    const raycaster = new THREE.Raycaster();
    for (const ray of makeRays(rand, r.meshes, 300)) {
      raycaster.ray.copy(ray);
      compareOne(r.world, r.root, r.meshes, raycaster, stats, problems);
    }
    expectGood({ stats, problems }, 300);
    // and back: small moves only (no kind change, an in-place update and refit)
    for (const m of r.meshes) m.position.y -= 0.37;
    r.root.updateMatrixWorld(true);
    r.world.update();
    for (const ray of makeRays(rand, r.meshes, 200)) {
      raycaster.ray.copy(ray);
      compareOne(r.world, r.root, r.meshes, raycaster, stats, problems);
    }
    expectGood({ stats, problems }, 500);
    r.world.dispose();
  });

  test('Raycaster.layers', () => {
    const rand = rng(17);
    const { root, meshes } = makeScene(rand, 120, { rotate: true });
    for (const m of meshes) if (rand() < 0.5) m.layers.set(1);
    const world = createThreeWorld(sc, { objects: [root] });
    const raycaster = new THREE.Raycaster();
    const stats = { hits: 0, exempt: 0, maxRel: 0, notes: [] };
    const problems = [];
    for (const [i, ray] of makeRays(rand, meshes, 300).entries()) {
      raycaster.ray.copy(ray);
      raycaster.layers.set(i % 3 === 0 ? 0 : 1);
      if (i % 3 === 2) raycaster.layers.enableAll();
      compareOne(world, root, meshes, raycaster, stats, problems);
    }
    expectGood({ stats, problems }, 150);
    world.dispose();
  });
});

describe('castRays: the nearest hit per ray, in a batch', () => {
  test('equals intersect()[0] for Ray[] and Float32Array input, with near, far and layers', () => {
    const rand = rng(21);
    const { root, meshes } = makeScene(rand, 300, { rotate: true, scale: true });
    for (const m of meshes) if (rand() < 0.2) m.layers.set(2);
    const world = createThreeWorld(sc, { objects: [root] });
    const rays = makeRays(rand, meshes, 600);
    const flat = new Float32Array(6 * rays.length);
    rays.forEach((r, i) => { flat.set([...r.origin.toArray(), ...r.direction.toArray()], 6 * i); });
    const layers = new THREE.Layers();
    for (const opts of [{}, { near: 5, far: 30 }, { far: 12 }, { layers }]) {
      const a = world.castRays(rays, opts);
      const b = world.castRays(flat, opts);
      const raycaster = new THREE.Raycaster();
      raycaster.near = opts.near ?? 0;
      raycaster.far = opts.far ?? Infinity;
      if (opts.layers) raycaster.layers = opts.layers;
      else raycaster.layers.enableAll(); // castRays without layers filters none
      let hits = 0;
      rays.forEach((r, i) => {
        // the Float32Array rays are the same rays rounded to float32
        raycaster.ray.set(new THREE.Vector3(flat[6 * i], flat[6 * i + 1], flat[6 * i + 2]), new THREE.Vector3(flat[6 * i + 3], flat[6 * i + 4], flat[6 * i + 5]));
        const first = world.intersect(raycaster)[0];
        if (!first) {
          expect(b.index[i]).toBe(-1);
          expect(b.distance[i]).toBe(Infinity);
          return;
        }
        hits++;
        expect(b.index[i]).toBe(first.index);
        expect(world.entries[b.index[i]]).toBe(first.object);
        expect(b.distance[i]).toBe(Math.fround(first.distance));
        expect(Array.from(b.point.subarray(3 * i, 3 * i + 3))).toEqual(first.point.toArray().map(Math.fround));
        expect(Array.from(b.normal.subarray(3 * i, 3 * i + 3))).toEqual(first.worldNormal.toArray());
      });
      expect(hits).toBeGreaterThan(100);
      // Ray[] input: the float64 rays; the same objects (these rays are nowhere near ambiguous)
      let same = 0;
      for (let i = 0; i < rays.length; i++) same += a.index[i] === b.index[i];
      expect(same).toBeGreaterThanOrEqual(rays.length - 1);
    }
    // caller's arrays
    const target = { distance: new Float32Array(rays.length), index: new Int32Array(rays.length), point: new Float32Array(3 * rays.length), normal: new Float32Array(3 * rays.length) };
    const r = world.castRays(rays, { target });
    expect(r.distance).toBe(target.distance);
    expect(r.index).toBe(target.index);
    world.dispose();
  });
});

describe('Box3 input', () => {
  test('the same hits as three.js Ray.intersectBox, empty boxes never hit', () => {
    const rand = rng(31);
    const boxes = [];
    for (let i = 0; i < 200; i++) {
      const c = new THREE.Vector3((rand() - 0.5) * 30, (rand() - 0.5) * 30, (rand() - 0.5) * 30);
      const h = new THREE.Vector3(0.1 + rand() * 1.5, 0.1 + rand() * 1.5, 0.1 + rand() * 1.5);
      boxes.push(i % 50 === 7 ? new THREE.Box3() : new THREE.Box3(c.clone().sub(h), c.clone().add(h)));
    }
    const world = createThreeWorld(sc, { boxes });
    expect(world.count).toBe(200);
    expect(world.objectCount).toBe(0);
    expect(world.kindOf(7)).toBe('none');
    expect(world.kindOf(8)).toBe('aabb');
    const raycaster = new THREE.Raycaster();
    const target = new THREE.Vector3();
    let hits = 0;
    for (let i = 0; i < 500; i++) {
      const b = boxes[Math.floor(rand() * boxes.length)];
      const o = new THREE.Vector3((rand() - 0.5) * 50, (rand() - 0.5) * 50, (rand() - 0.5) * 50);
      if (boxes.some((x) => x.containsPoint(o))) continue;
      const aim = b.isEmpty() ? new THREE.Vector3(rand(), rand(), rand()) : b.getCenter(new THREE.Vector3());
      raycaster.set(o, aim.sub(o).normalize());
      const want = [];
      boxes.forEach((x, k) => {
        if (!x.isEmpty() && raycaster.ray.intersectBox(x, target)) want.push([k, target.distanceTo(o)]);
      });
      want.sort((p, q) => p[1] - q[1]);
      const got = world.intersect(raycaster);
      expect(got.map((h) => h.index)).toEqual(want.map((w) => w[0]));
      got.forEach((h, j) => {
        const C = Math.max(...boxes[h.index].min.toArray().map(Math.abs), ...boxes[h.index].max.toArray().map(Math.abs));
        const cos = Math.abs(h.worldNormal.dot(raycaster.ray.direction));
        expect(Math.abs(h.distance - want[j][1])).toBeLessThanOrEqual(tolOf(o, C, want[j][1], cos));
        expect(h.object).toBe(null);
        expect(h.box).toBe(boxes[h.index]);
        expect(h.face.normal.toArray()).toEqual(h.worldNormal.toArray());
      });
      hits += got.length;
    }
    expect(hits).toBeGreaterThan(300);
    // a box emptied and refilled through update()
    boxes[8].makeEmpty();
    world.update();
    expect(world.kindOf(8)).toBe('none');
    boxes[8].set(new THREE.Vector3(100, 0, 0), new THREE.Vector3(101, 1, 1));
    world.update();
    raycaster.set(new THREE.Vector3(90, 0.5, 0.5), new THREE.Vector3(1, 0, 0));
    const [h] = world.intersect(raycaster);
    expect(h.index).toBe(8);
    expect(h.distance).toBe(10);
    expect(h.point.toArray()).toEqual([100, 0.5, 0.5]);
    expect(h.face.normal.toArray()).toEqual([-1, 0, 0]);
    world.dispose();
  });
});

describe('documented differences and edge cases', () => {
  test('a ray starting inside a box: three.js (FrontSide) reports nothing, slabcast the box at distance 0', () => {
    const mesh = new THREE.Mesh(new THREE.BoxGeometry(2, 2, 2), material);
    mesh.updateMatrixWorld();
    const world = createThreeWorld(sc, { objects: [mesh] });
    const raycaster = new THREE.Raycaster(new THREE.Vector3(0.1, 0.2, 0.3), new THREE.Vector3(1, 0, 0));
    expect(raycaster.intersectObject(mesh)).toEqual([]);
    const [h] = world.intersect(raycaster);
    expect(h.distance).toBe(0);
    expect(h.object).toBe(mesh);
    expect(h.point.toArray()).toEqual([0.1, 0.2, 0.3]);
    expect(h.face.normal.toArray()).toEqual([0, 0, 0]);
    // with near > 0 the box, entered before near, is not reported (as three.js)
    raycaster.near = 0.5;
    expect(world.intersect(raycaster)).toEqual([]);
    expect(world.intersectFirst(raycaster)).toBe(null);
    world.dispose();
  });

  test('shear: the world AABB of the corners (a bound), or a throw', () => {
    const parent = new THREE.Group();
    parent.scale.set(3, 1, 1);
    const child = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), material);
    child.rotation.set(0, 0, 0.6);
    parent.add(child);
    parent.updateMatrixWorld(true);
    const world = createThreeWorld(sc, { objects: [parent] });
    expect(world.kindOf(0)).toBe('bound');
    // a bound: every ray three.js hits the sheared box with, slabcast hits no later
    const rand = rng(41);
    const raycaster = new THREE.Raycaster();
    let hits = 0;
    for (let i = 0; i < 300; i++) {
      const o = new THREE.Vector3(-8, (rand() - 0.5) * 4, (rand() - 0.5) * 2);
      raycaster.set(o, new THREE.Vector3(8, (rand() - 0.5) * 4, (rand() - 0.5) * 2).sub(o).normalize());
      const a = raycaster.intersectObject(parent)[0];
      const b = world.intersect(raycaster)[0];
      if (!a) continue;
      hits++;
      expect(b && b.object).toBe(child);
      expect(b.distance).toBeLessThanOrEqual(a.distance + 1e-5);
    }
    expect(hits).toBeGreaterThan(50);
    world.dispose();
    const e = thrown(() => createThreeWorld(sc, { objects: [parent], shear: 'throw' }));
    expect(e.message).toMatch(/objects\[0\]\.children\[0\].*shear/);
  });

  test('zero scale and empty geometry never hit (as in three.js), and come back through update()', () => {
    const a = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), material);
    a.scale.set(0, 1, 1);
    const b = new THREE.Mesh(new THREE.BufferGeometry().setAttribute('position', new THREE.Float32BufferAttribute([], 3)), material);
    const c = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), material);
    c.position.x = 5;
    c.rotation.y = 0.3;
    c.scale.set(0, 0, 0);
    for (const m of [a, b, c]) m.updateMatrixWorld();
    const world = createThreeWorld(sc, { objects: [a, b, c] });
    expect([0, 1, 2].map((i) => world.kindOf(i))).toEqual(['none', 'none', 'none']);
    const raycaster = new THREE.Raycaster(new THREE.Vector3(-10, 0.1, 0.2), new THREE.Vector3(1, 0, 0));
    expect(raycaster.intersectObjects([a, b, c])).toEqual([]);
    expect(world.intersect(raycaster)).toEqual([]);
    expect(world.castRays([raycaster.ray]).index[0]).toBe(-1);
    raycaster.set(new THREE.Vector3(-10, 0, 0), new THREE.Vector3(1, 0, 0)); // through the placeholders
    expect(world.intersect(raycaster)).toEqual([]);
    expect(world.intersectFirst(raycaster)).toBe(null);
    a.scale.set(1, 1, 1);
    c.scale.set(1, 1, 1);
    a.updateMatrixWorld();
    c.updateMatrixWorld();
    world.update();
    expect([0, 1, 2].map((i) => world.kindOf(i))).toEqual(['aabb', 'none', 'obb']);
    raycaster.set(new THREE.Vector3(-10, 0.1, 0.2), new THREE.Vector3(1, 0, 0));
    expect(world.intersect(raycaster).map((h) => h.object)).toEqual([a, c]);
    world.dispose();
  });

  test('each mesh once, in three.js traversal order; non-meshes skipped', () => {
    const group = new THREE.Group();
    const m1 = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), material);
    const m2 = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), material);
    const line = new THREE.Line(new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3(1, 1, 1)]));
    m1.add(m2);
    group.add(line, m1);
    group.updateMatrixWorld(true);
    const world = createThreeWorld(sc, { objects: [group, m2] });
    expect(world.entries).toEqual([m1, m2]);
    // two coincident boxes: a tie, in traversal order
    const raycaster = new THREE.Raycaster(new THREE.Vector3(-5, 0.1, 0.2), new THREE.Vector3(1, 0, 0));
    expect(world.intersect(raycaster).map((h) => h.object)).toEqual([m1, m2]);
    expect(raycaster.intersectObject(m1).map((h) => h.object)).toEqual([m1, m2]);
    // the target array: appended, then the whole array sorted by distance (as three.js)
    const target = [{ distance: 4.75, marker: true }];
    world.intersect(raycaster, target);
    expect(target.map((h) => h.marker ? 'marker' : h.object.name)).toEqual(['', '', 'marker']);
    // recursive: false tracks the listed meshes only
    const flat = createThreeWorld(sc, { objects: [m1], recursive: false });
    expect(flat.entries).toEqual([m1]);
    flat.dispose();
    world.dispose();
  });
});

describe('API contract', () => {
  test('invalid input throws SlabcastError naming the field; a refused update leaves the world unchanged', () => {
    const mesh = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), material);
    mesh.updateMatrixWorld();
    expect(thrown(() => createThreeWorld({}, { objects: [mesh] })).field).toBe('sc');
    expect(thrown(() => createThreeWorld(sc, { objects: mesh })).field).toBe('options.objects');
    expect(thrown(() => createThreeWorld(sc, { objects: [{}] })).message).toMatch(/objects\[0\] must be an Object3D/);
    expect(thrown(() => createThreeWorld(sc, { objects: [new THREE.Group()], recursive: false })).message).toMatch(/not a Mesh/);
    expect(thrown(() => createThreeWorld(sc, { boxes: [mesh] })).field).toBe('boxes[0]');
    expect(thrown(() => createThreeWorld(sc, { boxes: [new THREE.Box3(new THREE.Vector3(0, NaN, 0), new THREE.Vector3(1, 1, 1))] })).message).toMatch(/boxes\[0\]: .*not finite/);
    const noPos = new THREE.Mesh(new THREE.BufferGeometry(), material);
    noPos.name = 'ghost';
    expect(thrown(() => createThreeWorld(sc, { objects: [noPos] })).message).toMatch(/objects\[0\] \("ghost"\): its geometry has no position attribute/);
    // an InstancedMesh: one entry per instance slot, listed or below a listed object, once
    const inst = new THREE.InstancedMesh(new THREE.BoxGeometry(1, 1, 1), material, 4);
    const holder = new THREE.Group();
    holder.add(inst, mesh.clone());
    const slots = createThreeWorld(sc, { objects: [holder, inst] });
    expect(slots.count).toBe(5);
    expect(slots.entries).toEqual([inst, inst, inst, inst, holder.children[1]]);
    slots.dispose();
    expect(thrown(() => createThreeWorld(sc, { shear: 'maybe' })).field).toBe('options.shear');

    const world = createThreeWorld(sc, { objects: [mesh] });
    const raycaster = new THREE.Raycaster(new THREE.Vector3(-5, 0.1, 0.2), new THREE.Vector3(1, 0, 0));
    const before = world.intersect(raycaster);
    expect(before.length).toBe(1);
    expect(thrown(() => world.intersect({})).field).toBe('raycaster.ray');
    expect(thrown(() => world.intersect({ ray: new THREE.Ray(new THREE.Vector3(NaN, 0, 0), new THREE.Vector3(1, 0, 0)) })).field).toBe('raycaster.ray.origin');
    expect(thrown(() => world.intersect({ ray: new THREE.Ray(new THREE.Vector3(), new THREE.Vector3(0, 0, 0)) })).field).toBe('raycaster.ray.direction');
    expect(thrown(() => world.intersect({ ray: raycaster.ray, near: -1 })).field).toBe('raycaster.near');
    expect(thrown(() => world.intersect({ ray: raycaster.ray, far: NaN })).field).toBe('raycaster.far');
    expect(thrown(() => world.intersect(raycaster, 'x')).field).toBe('target');
    expect(thrown(() => world.castRays(new Float32Array(7))).field).toBe('rays');
    expect(thrown(() => world.castRays([{}])).field).toBe('rays[0].origin');
    expect(thrown(() => world.castRays(new Float32Array([0, 0, 0, 0, 0, 0]))).field).toBe('rays[0]');
    expect(thrown(() => world.castRays([raycaster.ray], { far: -1 })).field).toBe('options.far');
    expect(thrown(() => world.castRays([raycaster.ray], { target: { index: new Float32Array(1) } })).field).toBe('options.target.index');
    const buf = new Float32Array(8);
    expect(thrown(() => world.castRays([raycaster.ray], { target: { distance: buf.subarray(0, 1), point: buf.subarray(0, 3) } })).message).toMatch(/overlap/);
    expect(thrown(() => world.kindOf(1)).field).toBe('index');
    // a refused update: nothing changes
    mesh.matrixWorld.elements[12] = NaN;
    expect(thrown(() => world.update()).message).toMatch(/objects\[0\]: matrixWorld is not finite/);
    mesh.matrixWorld.elements[12] = 0;
    mesh.position.x = 100;
    mesh.updateMatrixWorld();
    mesh.geometry = new THREE.BufferGeometry();
    expect(thrown(() => world.update()).message).toMatch(/no position attribute/);
    const after = world.intersect(raycaster);
    expect(after.map((h) => h.distance)).toEqual(before.map((h) => h.distance));
    // a hostile getter reaches the caller as a SlabcastError
    const evil = { get ray() { throw new TypeError('boom'); } };
    expect(thrown(() => world.intersect(evil)).message).toMatch(/world\.intersect: boom/);
    world.dispose();
    expect(world.disposed).toBe(true);
    expect(thrown(() => world.intersect(raycaster)).message).toMatch(/disposed/);
    expect(() => world.dispose()).not.toThrow();
  });

  test('results own their vectors; the world is not changed by queries', () => {
    const mesh = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), material);
    mesh.updateMatrixWorld();
    const world = createThreeWorld(sc, { objects: [mesh] });
    const raycaster = new THREE.Raycaster(new THREE.Vector3(-5, 0.1, 0.2), new THREE.Vector3(1, 0, 0));
    const [a] = world.intersect(raycaster);
    const [b] = world.intersect(raycaster);
    expect(a.point).not.toBe(b.point);
    a.point.set(9, 9, 9);
    a.face.normal.set(9, 9, 9);
    expect(world.intersect(raycaster)[0].point.toArray()).toEqual([-0.5, 0.1, 0.2]);
    expect(world.intersect(raycaster)[0].face.normal.toArray()).toEqual([-1, 0, 0]);
    world.dispose();
  });
});

describe('hostile scenes', () => {
  const thrownBy = (f) => { try { f(); } catch (e) { return e; } return undefined; };
  const mesh = () => new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1));

  // Regression: these surfaced as raw TypeError / RangeError.
  test('a throwing getter in the scene: a SlabcastError naming createThreeWorld, with the cause', () => {
    const g = new THREE.Group();
    const boom = new Error('boom');
    Object.defineProperty(g, 'children', { get() { throw boom; } });
    const e = thrownBy(() => createThreeWorld(sc, { objects: [g] }));
    expect(e).toBeInstanceOf(SlabcastError);
    expect(e.message).toBe('createThreeWorld: boom');
    expect(e.cause).toBe(boom);
  });

  test('a cycle in the scene graph is named, not a stack overflow', () => {
    const a = new THREE.Group();
    const b = new THREE.Group();
    a.children.push(mesh(), b);
    b.children.push(a); // three's add() refuses this; a hand-made graph need not
    const e = thrownBy(() => createThreeWorld(sc, { objects: [a] }));
    expect(e).toBeInstanceOf(SlabcastError);
    expect(e.message).toMatch(/^objects\[0\]\.children\[1\]\.children\[0\] is reached twice below objects\[0\]: the scene graph has a cycle$/);
  });

  test('an 8000-deep graph gets a clear error, not a RangeError; 1000 levels are fine', () => {
    const chain = (depth) => {
      const root = new THREE.Group();
      let at = root;
      for (let i = 0; i < depth; i++) { const c = new THREE.Group(); at.children.push(c); at = c; }
      at.children.push(mesh());
      return root;
    };
    const e = thrownBy(() => createThreeWorld(sc, { objects: [chain(8000)] }));
    expect(e).toBeInstanceOf(SlabcastError);
    expect(e.message).toMatch(/the scene graph is deeper than 1000 levels$/);
    const w = createThreeWorld(sc, { objects: [chain(999)] });
    expect(w.count).toBe(1);
    w.dispose();
  });

  test('a throwing getter during update(): a SlabcastError naming world.update; the world still answers', () => {
    const m = mesh();
    m.updateMatrixWorld();
    const w = createThreeWorld(sc, { objects: [m] });
    Object.defineProperty(m, 'matrixWorld', { get() { throw new Error('no matrix'); }, configurable: true });
    const e = thrownBy(() => w.update());
    expect(e).toBeInstanceOf(SlabcastError);
    expect(e.message).toBe('world.update: no matrix');
    delete m.matrixWorld;
    const rc = new THREE.Raycaster(new THREE.Vector3(-5, 0, 0), new THREE.Vector3(1, 0, 0));
    expect(w.intersectFirst(rc).distance).toBe(4.5); // the unit box's face x = -0.5
    w.dispose();
  });

  // Regression: a dispose() reached from a getter while update() ran was undone by update,
  // which put a fresh world in place: a disposed world came back.
  test('disposed stays disposed: dispose from inside update is refused, and update after dispose throws', () => {
    const m = mesh();
    m.updateMatrixWorld();
    const w = createThreeWorld(sc, { objects: [m] });
    m.scale.set(2, 2, 2); // a change that update() must rebuild or refit for
    m.updateMatrixWorld();
    let inner;
    const geometry = m.geometry;
    Object.defineProperty(m, 'geometry', {
      get() { try { w.dispose(); } catch (e) { inner = e; } return geometry; }, configurable: true,
    });
    w.update();
    expect(inner).toBeInstanceOf(SlabcastError);
    expect(inner.message).toMatch(/^world\.dispose: the world is busy: called from inside world\.update/);
    expect(w.disposed).toBe(false);
    delete m.geometry;
    w.dispose();
    expect(w.disposed).toBe(true);
    expect(thrownBy(() => w.update()).message).toMatch(/disposed/);
    expect(w.disposed).toBe(true);
    const rc = new THREE.Raycaster(new THREE.Vector3(-5, 0, 0), new THREE.Vector3(1, 0, 0));
    expect(thrownBy(() => w.intersect(rc)).message).toMatch(/disposed/);
  });
});

// ------------------------------------------------------------------ instances

/** A box geometry of random size, sometimes off-centre, its bounding box computed. */
function randomBoxGeometry(rand) {
  const geo = new THREE.BoxGeometry(0.2 + rand() * 2.3, 0.2 + rand() * 2.3, 0.2 + rand() * 2.3);
  if (rand() < 0.3) geo.translate(rand() - 0.5, rand() - 0.5, rand() - 0.5);
  geo.computeBoundingBox();
  return geo;
}

/** A random instance matrix: translation within spread, often a rotation, a non-uniform scale. */
function randomInstanceMatrix(rand, spread) {
  const p = new THREE.Vector3((rand() - 0.5) * spread, (rand() - 0.5) * spread, (rand() - 0.5) * spread);
  const q = rand() < 0.7 ? randomQuaternion(rand) : new THREE.Quaternion();
  const s = new THREE.Vector3(0.4 + rand() * 1.4, 0.4 + rand() * 1.4, 0.4 + rand() * 1.4);
  return new THREE.Matrix4().compose(p, q, s);
}

/** A BatchedMesh of nGeo box geometries and capacity slots: some unused, deleted or hidden. */
function makeBatched(rand, capacity, nGeo, spread) {
  const bm = new THREE.BatchedMesh(capacity, 24 * nGeo, 36 * nGeo, material);
  const ids = [];
  for (let g = 0; g < nGeo; g++) ids.push(bm.addGeometry(randomBoxGeometry(rand)));
  const used = capacity - 1 - Math.floor(rand() * 5); // the last slots stay unused
  for (let i = 0; i < used; i++) {
    const id = bm.addInstance(ids[Math.floor(rand() * nGeo)]);
    bm.setMatrixAt(id, randomInstanceMatrix(rand, spread));
  }
  for (let i = 0; i < used; i++) {
    const r = rand();
    if (r < 0.1) bm.deleteInstance(i);
    else if (r < 0.2) bm.setVisibleAt(i, false);
  }
  return bm;
}

/**
 * InstancedMeshes (some with count below their capacity), BatchedMeshes (with unused, deleted
 * and hidden instances) and plain box meshes under root, half of them under a rotated, uniformly
 * scaled group; the meshes themselves are moved, rotated and uniformly scaled (no shear).
 */
function makeInstanceScene(rand, { instanced = 3, batched = 0, plain = 0, spread = 30 } = {}) {
  const root = new THREE.Group();
  const holder = new THREE.Group();
  holder.position.set(rand() - 0.5, rand() - 0.5, rand() - 0.5);
  holder.quaternion.copy(randomQuaternion(rand));
  holder.scale.setScalar(0.8 + rand() * 0.4);
  root.add(holder);
  const place = (o, name) => {
    o.name = name;
    o.position.set(rand() - 0.5, rand() - 0.5, rand() - 0.5);
    if (rand() < 0.5) o.quaternion.copy(randomQuaternion(rand));
    o.scale.setScalar(0.8 + rand() * 0.4);
    (rand() < 0.5 ? root : holder).add(o);
  };
  for (let i = 0; i < instanced; i++) {
    const cap = 20 + Math.floor(rand() * 40);
    const im = new THREE.InstancedMesh(randomBoxGeometry(rand), material, cap);
    for (let j = 0; j < cap; j++) im.setMatrixAt(j, randomInstanceMatrix(rand, spread));
    if (rand() < 0.6) im.count = Math.floor(cap * (0.5 + rand() * 0.5));
    place(im, `inst${i}`);
  }
  for (let i = 0; i < batched; i++) place(makeBatched(rand, 20 + Math.floor(rand() * 40), 3, spread), `batch${i}`);
  for (let i = 0; i < plain; i++) {
    const m = new THREE.Mesh(randomBoxGeometry(rand), material);
    m.position.set((rand() - 0.5) * spread, (rand() - 0.5) * spread, (rand() - 0.5) * spread);
    if (rand() < 0.5) m.quaternion.copy(randomQuaternion(rand));
    place(m, `box${i}`);
    m.position.multiplyScalar(spread / 2);
  }
  root.updateMatrixWorld(true);
  return root;
}

/**
 * What three.js's Raycaster can hit below root: each Mesh, each InstancedMesh instance below its
 * count, each active and visible BatchedMesh instance, with its world matrix as three.js's raycast
 * computes it (matrixWorld x the instance's matrix), its local bounding box and a name. keyOf
 * maps a hit (three.js's or slabcast's) to its target, and throws for a hit on anything else.
 */
function instanceTargets(root) {
  const targets = [];
  const byObject = new Map();
  const add = (list, i, name, matrixWorld, boundingBox) => {
    list[i] = { name, matrixWorld, geometry: { boundingBox } };
    targets.push(list[i]);
  };
  root.traverse((o) => {
    if (o.isInstancedMesh) {
      const list = [];
      for (let i = 0; i < o.count; i++) {
        add(list, i, `${o.name}#${i}`, new THREE.Matrix4().multiplyMatrices(o.matrixWorld, o.getMatrixAt(i, new THREE.Matrix4())), o.geometry.boundingBox);
      }
      byObject.set(o, list);
    } else if (o.isBatchedMesh) {
      const list = [];
      o._instanceInfo.forEach((info, i) => {
        if (!info.active || !info.visible) return;
        const box = o.getBoundingBoxAt(o.getGeometryIdAt(i), new THREE.Box3());
        add(list, i, `${o.name}#${i}`, o.getMatrixAt(i, new THREE.Matrix4()).premultiply(o.matrixWorld), box);
      });
      byObject.set(o, list);
    } else if (o.isMesh) {
      byObject.set(o, o);
      targets.push(o);
    }
  });
  const keyOf = (h) => {
    const t = byObject.get(h.object);
    const key = h.instanceId !== undefined ? t?.[h.instanceId] : h.batchId !== undefined ? t?.[h.batchId] : t;
    if (key === undefined || Array.isArray(key)) throw new Error(`a hit on nothing three.js can hit: ${h.object?.name} ${h.instanceId} ${h.batchId}`);
    return key;
  };
  return { targets, keyOf };
}

/** Compares world.intersect / intersectFirst with three.js on rays among the targets of root. */
function compareInstances(rand, world, root, nRays, limits = () => ({})) {
  const { targets, keyOf } = instanceTargets(root);
  const stats = { hits: 0, exempt: 0, maxRel: 0, notes: [] };
  const problems = [];
  const raycaster = new THREE.Raycaster();
  for (const ray of makeRays(rand, targets, nRays)) {
    raycaster.ray.copy(ray);
    const { near = 0, far = Infinity, mask } = limits(rand);
    raycaster.near = near;
    raycaster.far = far;
    if (mask !== undefined) raycaster.layers.mask = mask;
    compareOne(world, root, targets, raycaster, stats, problems, keyOf);
    // the instance fields are three.js's: instanceId on InstancedMesh hits, batchId on BatchedMesh hits
    for (const h of world.intersect(raycaster)) {
      const want = [h.object.isInstancedMesh === true, h.object.isBatchedMesh === true];
      if (want[0] !== ('instanceId' in h) || want[1] !== ('batchId' in h)) problems.push(`${h.object.name}: instance fields ${Object.keys(h)}`);
    }
  }
  return { stats, problems, targets, keyOf };
}

/** The number of instance slots below root: InstancedMesh capacities, BatchedMesh maxInstanceCount. */
function slotsOf(root) {
  let n = 0;
  root.traverse((o) => {
    if (o.isInstancedMesh) n += o.instanceMatrix.count;
    else if (o.isBatchedMesh) n += o.maxInstanceCount;
    else if (o.isMesh) n += 1;
  });
  return n;
}

describe('InstancedMesh and BatchedMesh: one entry per instance, the same hits as three.js', () => {
  test('InstancedMesh (rotated, scaled instances; count below capacity) with plain meshes', () => {
    const rand = rng(51);
    const root = makeInstanceScene(rand, { instanced: 5, plain: 30 });
    const world = createThreeWorld(sc, { objects: [root] });
    expect(world.count).toBe(slotsOf(root));
    // slots at or past count never hit
    world.entries.forEach((o, k) => {
      if (o.isInstancedMesh && k - world.entries.indexOf(o) >= o.count) expect(world.kindOf(k)).toBe('none');
    });
    const kinds = new Set(Array.from({ length: world.count }, (_, k) => world.kindOf(k)));
    expect(kinds).toEqual(new Set(['aabb', 'obb', 'none']));
    const r = compareInstances(rand, world, root, 500);
    expectGood(r, 500);
    world.dispose();
  });

  test('BatchedMesh (several geometries; unused, deleted and hidden instances never hit)', () => {
    const rand = rng(52);
    const root = makeInstanceScene(rand, { instanced: 1, batched: 4, plain: 10 });
    const world = createThreeWorld(sc, { objects: [root] });
    expect(world.count).toBe(slotsOf(root));
    let dead = 0;
    world.entries.forEach((o, k) => {
      if (!o.isBatchedMesh) return;
      const i = k - world.entries.indexOf(o);
      const info = o._instanceInfo[i];
      if (!info || !info.active || !info.visible) {
        expect(world.kindOf(k)).toBe('none');
        dead++;
      }
    });
    expect(dead).toBeGreaterThan(10);
    const r = compareInstances(rand, world, root, 500);
    expectGood(r, 500);
    world.dispose();
  });

  test('Raycaster near and far', () => {
    const rand = rng(53);
    const root = makeInstanceScene(rand, { instanced: 3, batched: 2, plain: 10 });
    const world = createThreeWorld(sc, { objects: [root] });
    const r = compareInstances(rand, world, root, 600, (rnd) => {
      const near = rnd() < 0.5 ? 0 : rnd() * 20;
      return { near, far: rnd() < 0.3 ? Infinity : near + rnd() * 25 };
    });
    expectGood(r, 250);
    world.dispose();
  });

  test('update(): moved instances, count changes, deleted / added / hidden / shown batch instances', () => {
    const rand = rng(54);
    const root = makeInstanceScene(rand, { instanced: 3, batched: 2, plain: 5 });
    const world = createThreeWorld(sc, { objects: [root] });
    const entries = world.entries;
    root.traverse((o) => {
      if (o.isInstancedMesh) {
        for (let i = 0; i < o.instanceMatrix.count; i++) if (rand() < 0.5) o.setMatrixAt(i, randomInstanceMatrix(rand, 30));
        o.count = Math.floor(rand() * o.instanceMatrix.count);
        o.computeBoundingSphere(); // three.js keeps its sphere until told
      } else if (o.isBatchedMesh) {
        o._instanceInfo.forEach((info, i) => {
          if (!info.active) return;
          const r = rand();
          if (r < 0.2) o.deleteInstance(i);
          else if (r < 0.4) o.setVisibleAt(i, !o.getVisibleAt(i));
          else if (r < 0.7) o.setMatrixAt(i, randomInstanceMatrix(rand, 30));
        });
        while (o.instanceCount < o.maxInstanceCount) o.setMatrixAt(o.addInstance(0), randomInstanceMatrix(rand, 30));
      }
    });
    root.updateMatrixWorld(true);
    world.update();
    expect(world.entries).toBe(entries); // the same slots
    const r = compareInstances(rand, world, root, 500);
    expectGood(r, 500);
    world.dispose();
  });

  test('castRays: instanceId holds the instance (InstancedMesh) or the batch id (BatchedMesh), -1 otherwise', () => {
    const rand = rng(55);
    const root = makeInstanceScene(rand, { instanced: 3, batched: 2, plain: 20 });
    const world = createThreeWorld(sc, { objects: [root] });
    const { targets, keyOf } = instanceTargets(root);
    const rays = makeRays(rand, targets, 500);
    const raycaster = new THREE.Raycaster();
    let hits = 0;
    let exempt = 0;
    for (const opts of [{}, { near: 4, far: 25 }]) {
      const res = world.castRays(rays, opts);
      raycaster.near = opts.near ?? 0;
      raycaster.far = opts.far ?? Infinity;
      rays.forEach((ray, i) => {
        raycaster.ray.copy(ray);
        const three = raycaster.intersectObject(root, true);
        if (three.length === 0) {
          expect(res.index[i]).toBe(-1);
          expect(res.instanceId[i]).toBe(-1);
          return;
        }
        const want = three[0];
        const object = world.entries[res.index[i]];
        const id = res.instanceId[i];
        const got = object && keyOf({ object, instanceId: object.isInstancedMesh ? id : undefined, batchId: object.isBatchedMesh ? id : undefined });
        if (got !== keyOf(want)) {
          // only two hits at one distance (within 1e-4) may come in either order
          expect(three.some((h) => keyOf(h) === got && Math.abs(h.distance - want.distance) <= 1e-4 * want.distance)).toBe(true);
          exempt++;
        }
        if (!object.isInstancedMesh && !object.isBatchedMesh) expect(id).toBe(-1);
        expect(Math.abs(res.distance[i] - want.distance)).toBeLessThanOrEqual(1e-4 * want.distance);
        hits++;
      });
    }
    expect(hits).toBeGreaterThan(500);
    expect(exempt).toBeLessThanOrEqual(2);
    world.dispose();
  });

  test('the number of slots is fixed: a changed capacity or count past it is refused, nothing changes', () => {
    const im = new THREE.InstancedMesh(new THREE.BoxGeometry(1, 1, 1), material, 3);
    im.name = 'crowd';
    im.setMatrixAt(1, new THREE.Matrix4().makeTranslation(0, 0, -3));
    im.updateMatrixWorld();
    const world = createThreeWorld(sc, { objects: [im] });
    const raycaster = new THREE.Raycaster(new THREE.Vector3(0.1, 0.2, 10), new THREE.Vector3(0, 0, -1));
    // hand-derived: instances 0 and 2 at the origin (face z = 0.5), instance 1 at z = -3 (face -2.5)
    const expected = [[9.5, 0], [9.5, 2], [12.5, 1]];
    expect(raycaster.intersectObject(im).map((h) => [h.distance, h.instanceId])).toEqual(expected);
    expect(world.intersect(raycaster).map((h) => [h.distance, h.instanceId])).toEqual(expected);
    im.count = 4;
    expect(thrown(() => world.update()).message).toMatch(/objects\[0\] \("crowd"\): its count must be an integer in \[0, 3\]/);
    im.count = 3;
    im.instanceMatrix = new THREE.InstancedBufferAttribute(new Float32Array(16 * 5), 16);
    expect(thrown(() => world.update()).message).toMatch(/its instanceMatrix.count is 5, it was 3 when the world was made .*make a new world/);
    expect(world.intersect(raycaster).map((h) => [h.distance, h.instanceId])).toEqual(expected);
    world.dispose();
    const bm = makeBatched(rng(56), 6, 1, 4);
    const bw = createThreeWorld(sc, { objects: [bm] });
    expect(bw.count).toBe(6);
    bm.setInstanceCount(8);
    expect(thrown(() => bw.update()).message).toMatch(/maxInstanceCount is 8, it was 6/);
    bw.dispose();
    // slots that never hit are disabled in the core: a ray through their placeholder (a point at
    // the mesh's position) finds nothing, as three.js
    const few = new THREE.InstancedMesh(new THREE.BoxGeometry(1, 1, 1), material, 3);
    few.count = 1;
    few.setMatrixAt(0, new THREE.Matrix4().makeTranslation(0, 5, 0));
    few.position.set(1, 2, 3);
    few.updateMatrixWorld();
    const fw = createThreeWorld(sc, { objects: [few] });
    expect([0, 1, 2].map((k) => fw.kindOf(k))).toEqual(['aabb', 'none', 'none']);
    raycaster.set(new THREE.Vector3(-10, 2, 3), new THREE.Vector3(1, 0, 0));
    expect(raycaster.intersectObject(few)).toEqual([]);
    expect(fw.intersect(raycaster)).toEqual([]);
    expect(fw.castRays([raycaster.ray]).index[0]).toBe(-1);
    few.count = 3; // slots 1 and 2: identity matrices, the unit box at the mesh's position
    few.computeBoundingSphere(); // three.js keeps the sphere of its first raycast until told
    fw.update();
    raycaster.set(new THREE.Vector3(-10, 2.1, 3.2), new THREE.Vector3(1, 0, 0)); // off the face diagonals
    expect(raycaster.intersectObject(few).map((h) => [h.distance, h.instanceId])).toEqual([[10.5, 1], [10.5, 2]]);
    expect(fw.intersect(raycaster).map((h) => [h.distance, h.instanceId])).toEqual([[10.5, 1], [10.5, 2]]);
    fw.dispose();
    // a bad instance matrix names the slot
    const bad = new THREE.InstancedMesh(new THREE.BoxGeometry(1, 1, 1), material, 2);
    bad.instanceMatrix.array[16 + 13] = NaN;
    expect(thrown(() => createThreeWorld(sc, { objects: [bad] })).message).toMatch(/^objects\[0\] instance 1: instance matrix is not finite$/);
  });
});

// ------------------------------------------------------------------ layers

/** A random layers mask: often one or two of layers 0..3, sometimes none, all, or random bits. */
function randomMask(rand) {
  const r = rand();
  if (r < 0.1) return 0;
  if (r < 0.2) return 0xFFFFFFFF | 0; // Layers.enableAll()
  if (r < 0.3) return (rand() * 2 ** 32) | 0;
  if (r < 0.35) return 1 << 31;
  return (1 << Math.floor(rand() * 4)) | (rand() < 0.3 ? 1 << Math.floor(rand() * 4) : 0);
}

describe('three.js Layers are the core masks', () => {
  test('random layers on meshes, InstancedMeshes and BatchedMeshes and on the raycaster: three.js\'s hits', () => {
    const rand = rng(61);
    const root = makeInstanceScene(rand, { instanced: 3, batched: 2, plain: 40 });
    root.traverse((o) => { if (o.isMesh) o.layers.mask = randomMask(rand); });
    const world = createThreeWorld(sc, { objects: [root] });
    const r = compareInstances(rand, world, root, 600, (rnd) => ({ mask: randomMask(rnd) }));
    expectGood(r, 200);
    // layers changed: update() reads them again
    root.traverse((o) => { if (o.isMesh) o.layers.mask = randomMask(rand); });
    world.update();
    const r2 = compareInstances(rand, world, root, 600, (rnd) => ({ mask: randomMask(rnd), near: rnd() < 0.3 ? rnd() * 10 : 0 }));
    expectGood(r2, 150);
    world.dispose();
  });

  test('castRays options.layers: three.js\'s nearest hit', () => {
    const rand = rng(62);
    const root = makeInstanceScene(rand, { instanced: 2, batched: 1, plain: 60 });
    root.traverse((o) => { if (o.isMesh) o.layers.mask = randomMask(rand); });
    const world = createThreeWorld(sc, { objects: [root] });
    const { targets, keyOf } = instanceTargets(root);
    const rays = makeRays(rand, targets, 300);
    const raycaster = new THREE.Raycaster();
    let hits = 0;
    for (const mask of [1, 2, 0b1100, 1 << 31, -1]) {
      raycaster.layers.mask = mask;
      const res = world.castRays(rays, { layers: raycaster.layers });
      rays.forEach((ray, i) => {
        raycaster.ray.copy(ray);
        const want = raycaster.intersectObject(root, true)[0];
        if (!want) return expect(res.index[i]).toBe(-1);
        const object = world.entries[res.index[i]];
        const id = res.instanceId[i];
        expect(object).toBe(want.object);
        expect(keyOf({ object, instanceId: object.isInstancedMesh ? id : undefined, batchId: object.isBatchedMesh ? id : undefined })).toBe(keyOf(want));
        expect(Math.abs(res.distance[i] - want.distance)).toBeLessThanOrEqual(1e-4 * want.distance);
        hits++;
      });
    }
    expect(hits).toBeGreaterThan(300);
    world.dispose();
  });

  test('layers.mask 0: no mesh counts, as in three.js, but Box3 entries still do', () => {
    // hand-derived: the mesh spans x in [4, 6], the box x in [9, 10]; the ray runs along +x
    const mesh = new THREE.Mesh(new THREE.BoxGeometry(2, 2, 2), material);
    mesh.position.x = 5;
    mesh.updateMatrixWorld();
    const box = new THREE.Box3(new THREE.Vector3(9, -1, -1), new THREE.Vector3(10, 1, 1));
    const world = createThreeWorld(sc, { objects: [mesh], boxes: [box] });
    const raycaster = new THREE.Raycaster(new THREE.Vector3(0, 0.1, 0.2), new THREE.Vector3(1, 0, 0));
    const found = () => world.intersect(raycaster).map((h) => [h.distance, h.index]);
    expect(found()).toEqual([[4, 0], [9, 1]]);
    raycaster.layers.disableAll();
    expect(raycaster.intersectObject(mesh)).toEqual([]);
    expect(found()).toEqual([[9, 1]]);
    expect(world.intersectFirst(raycaster).index).toBe(1);
    const res = world.castRays([raycaster.ray], { layers: raycaster.layers });
    expect([res.index[0], res.distance[0], res.instanceId[0]]).toEqual([1, 9, -1]);
    // a mesh on no layer is never hit, whatever the raycaster's layers (and without layers)
    raycaster.layers.enableAll();
    mesh.layers.disableAll();
    expect(raycaster.intersectObject(mesh)).toEqual([]);
    expect(found()).toEqual([[4, 0], [9, 1]]); // not re-read yet
    world.update();
    expect(found()).toEqual([[9, 1]]);
    expect(world.castRays([raycaster.ray]).index[0]).toBe(1);
    // layer 31 (the sign bit of Layers.mask)
    mesh.layers.set(31);
    raycaster.layers.set(31);
    world.update();
    expect(raycaster.intersectObject(mesh).length).toBeGreaterThan(0);
    expect(found()).toEqual([[4, 0], [9, 1]]);
    world.dispose();
  });
});

describe('Symbol.dispose', () => {
  test('world[Symbol.dispose]() disposes the world (for `using world = createThreeWorld(...)`)', () => {
    const mesh = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), material);
    mesh.updateMatrixWorld();
    const world = createThreeWorld(sc, { objects: [mesh] });
    expect(typeof Symbol.dispose).toBe('symbol'); // Node >= 20.19 has it
    expect(typeof world[Symbol.dispose]).toBe('function');
    world[Symbol.dispose]();
    expect(world.disposed).toBe(true);
    const raycaster = new THREE.Raycaster(new THREE.Vector3(-5, 0, 0), new THREE.Vector3(1, 0, 0));
    expect(thrown(() => world.intersect(raycaster)).message).toMatch(/disposed/);
    expect(() => world[Symbol.dispose]()).not.toThrow();
  });
});
