// The demo's city (web/demo/): a seeded grid of blocks of boxes, rotated boxes, spheres and
// capsule bollards around an open plaza, plus the plaza's landmarks that the browser test
// (tests/web/demo.browser.test.mjs) walks against: a long wall, a stair of low boxes and a
// platform to drop onto. Only three.js meshes: the collision is slabcast/three's view of them
// (boxes: their bounding boxes through matrixWorld; spheres: userData.slabcast.shape 'sphere';
// CapsuleGeometry bollards: capsules).
import {
  BoxGeometry, CapsuleGeometry, Color, Group, Mesh, MeshStandardMaterial, SphereGeometry,
} from 'three';

/** Blocks per side of the grid and their pitch (m); the 3x3 blocks in the middle are the plaza. */
export const GRID = 11;
export const PITCH = 14;
/** Half the plaza's side (m): no buildings within it. */
export const PLAZA = 1.5 * PITCH;

/** The plaza's landmarks, as world boxes [min xyz, max xyz] (axis-aligned). */
export const LANDMARKS = Object.freeze({
  /** A wall 1 m thick and 20 m long along z, 3 m high: walk into it (its face at x = 8). */
  wall: Object.freeze({ min: [8, 0, -10], max: [9, 3, 10] }),
  /** A platform 1.2 m high: drop onto it. */
  platform: Object.freeze({ min: [-14, 0, 8], max: [-9, 1.2, 13] }),
  /** Three low boxes, each 0.3 m above the last: step onto them. */
  stairs: Object.freeze([
    Object.freeze({ min: [-6, 0, -12], max: [-2, 0.3, -8] }),
    Object.freeze({ min: [-6, 0, -14], max: [-2, 0.6, -12] }),
    Object.freeze({ min: [-6, 0, -16], max: [-2, 0.9, -14] }),
  ]),
});

/** A small seeded generator (the city is the same on every load). */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const PALETTE = ['#c9d1dc', '#b8c4d6', '#d8cdbf', '#c2cfc0', '#d6c3c7', '#bfc9cf', '#e0d8c8'];

/**
 * Builds the city into a new Group: { group, ground, buildings (every mesh but the ground),
 * count }. Every mesh has a name (what picking shows) and its own place in the group.
 */
export function buildCity() {
  const rnd = random(24);
  const group = new Group();
  group.name = 'city';
  const unitBox = new BoxGeometry(1, 1, 1);
  const ball = new SphereGeometry(1, 24, 16);
  const bollard = new CapsuleGeometry(0.3, 0.6, 4, 12);
  const mats = PALETTE.map((c) => new MeshStandardMaterial({ color: new Color(c), roughness: 0.85 }));
  const ballMat = new MeshStandardMaterial({ color: new Color('#e8a33d'), roughness: 0.5 });
  const bollardMat = new MeshStandardMaterial({ color: new Color('#5b6b7f'), roughness: 0.6 });
  const landmarkMat = new MeshStandardMaterial({ color: new Color('#8fb0e8'), roughness: 0.7 });
  const buildings = [];
  const box = (name, min, max, mat, rotY = 0) => {
    const m = new Mesh(unitBox, mat);
    m.name = name;
    m.scale.set(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
    m.position.set((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2);
    m.rotation.y = rotY;
    group.add(m);
    buildings.push(m);
    return m;
  };
  const half = (GRID * PITCH) / 2;
  const ground = new Mesh(unitBox, new MeshStandardMaterial({ color: new Color('#9aa5b1'), roughness: 1 }));
  ground.name = 'ground';
  ground.scale.set(2 * half + 20, 1, 2 * half + 20);
  ground.position.set(0, -0.5, 0); // its top face is y = 0
  group.add(ground);

  box('wall', LANDMARKS.wall.min, LANDMARKS.wall.max, landmarkMat);
  box('platform', LANDMARKS.platform.min, LANDMARKS.platform.max, landmarkMat);
  LANDMARKS.stairs.forEach((s, i) => box(`step ${i + 1}`, s.min, s.max, landmarkMat));
  box('plaza crate', [4, 0, 10], [5.5, 1.5, 11.5], mats[2], Math.PI / 5);
  const fountain = new Mesh(ball, ballMat);
  fountain.name = 'plaza ball';
  fountain.scale.setScalar(1.5);
  fountain.position.set(-4, 1.5, 4);
  fountain.userData.slabcast = { shape: 'sphere' };
  group.add(fountain);
  buildings.push(fountain);

  for (let gx = 0; gx < GRID; gx++) {
    for (let gz = 0; gz < GRID; gz++) {
      const cx = (gx - (GRID - 1) / 2) * PITCH;
      const cz = (gz - (GRID - 1) / 2) * PITCH;
      if (Math.abs(cx) < PLAZA && Math.abs(cz) < PLAZA) continue;
      block(`block ${gx},${gz}`, cx, cz);
    }
  }

  /** One block: a few buildings, sometimes a rotated one or a ball on a roof, bollards at its corners. */
  function block(name, cx, cz) {
    const lot = PITCH - 4; // 4 m of street between blocks
    const n = 1 + Math.floor(rnd() * 3);
    for (let i = 0; i < n; i++) {
      const w = 2.5 + rnd() * (lot / 2 - 1.5);
      const d = 2.5 + rnd() * (lot / 2 - 1.5);
      const h = 2 + rnd() * 16;
      const x = cx + (rnd() - 0.5) * (lot - w);
      const z = cz + (rnd() - 0.5) * (lot - d);
      const rot = rnd() < 0.25 ? rnd() * Math.PI : 0;
      box(`${name} building ${i + 1}`, [x - w / 2, 0, z - d / 2], [x + w / 2, h, z + d / 2], mats[Math.floor(rnd() * mats.length)], rot);
      if (rnd() < 0.3) {
        const r = 0.8 + rnd() * 1.2;
        const s = new Mesh(ball, ballMat);
        s.name = `${name} dome ${i + 1}`;
        s.scale.setScalar(r);
        s.position.set(x, h + r * 0.6, z);
        s.userData.slabcast = { shape: 'sphere' };
        group.add(s);
        buildings.push(s);
      }
    }
    if (rnd() < 0.35) {
      const r = 0.6 + rnd() * 0.8;
      const s = new Mesh(ball, ballMat);
      s.name = `${name} ball`;
      s.scale.setScalar(r);
      s.position.set(cx + PITCH / 2 - 1, r, cz + PITCH / 2 - 1); // on the street corner
      s.userData.slabcast = { shape: 'sphere' };
      group.add(s);
      buildings.push(s);
    }
    if (rnd() < 0.5) {
      const c = new Mesh(bollard, bollardMat);
      c.name = `${name} bollard`;
      c.position.set(cx - lot / 2 - 0.8, 0.6, cz - lot / 2 - 0.8); // its bottom on the ground
      group.add(c);
      buildings.push(c);
    }
    if (rnd() < 0.5) {
      const h = 0.2 + rnd() * 0.25; // a kerb or bench: low enough to step onto
      box(`${name} bench`, [cx - 1.5, 0, cz + lot / 2 + 0.5], [cx + 1.5, h, cz + lot / 2 + 1.3], mats[0]);
    }
  }
  return { group, ground, buildings, count: buildings.length + 1 };
}
