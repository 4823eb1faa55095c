// Random adversarial world scenes for the world tests: dyadic coordinates (exact ties), axis-
// parallel rays with 0 and -0, origins on faces and inside boxes, duplicate and zero-thickness
// boxes, OBBs and spheres.
const DIRS = [0, -0, 1, -1, 0.5, -2, 3];

export function makeScene(rand, n, { mixed = false } = {}) {
  const shapes = [];
  const dy = (lim) => Math.floor(rand() * (4 * lim + 1) - 2 * lim) / 2;
  for (let i = 0; i < n; i++) {
    const k = mixed ? Math.floor(rand() * 3) : 0;
    if (i > 0 && rand() < 0.1) { shapes.push(shapes[i - 1]); continue; } // duplicates
    if (k === 0) {
      const min = [dy(12), dy(12), dy(12)];
      const max = min.map((v) => (rand() < 0.2 ? v : v + Math.floor(rand() * 8) / 2));
      shapes.push({ type: 'aabb', min, max });
    } else if (k === 1) {
      const perms = [
        [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 0], [-1, 0, 0], [0, 0, 1]],
        [[0, 0, -1], [1, 0, 0], [0, -1, 0]], [[0.70710677, 0.70710677, 0], [-0.70710677, 0.70710677, 0], [0, 0, 1]],
      ];
      shapes.push({
        type: 'obb', center: [dy(12), dy(12), dy(12)], axes: perms[Math.floor(rand() * perms.length)],
        half: [0, 1, 2].map(() => Math.floor(rand() * 6) / 2),
      });
    } else {
      shapes.push({ type: 'sphere', center: [dy(12), dy(12), dy(12)], radius: Math.floor(rand() * 8) / 2 });
    }
  }
  return shapes;
}

export function makeRays(rand, shapes, n) {
  const dy = (lim) => Math.floor(rand() * (4 * lim + 1) - 2 * lim) / 2;
  const rays = new Float32Array(7 * n);
  for (let i = 0; i < n; i++) {
    const mode = Math.floor(rand() * 4);
    const o = [dy(16), dy(16), dy(16)];
    const s = shapes[Math.floor(rand() * shapes.length)];
    if (mode === 1 && s.type === 'aabb') { // origin on a face plane
      const a = Math.floor(rand() * 3);
      o[a] = rand() < 0.5 ? s.min[a] : s.max[a];
    }
    let d;
    do {
      d = [0, 1, 2].map(() => (mode >= 2 ? DIRS[Math.floor(rand() * DIRS.length)] : dy(4)));
    } while (d[0] === 0 && d[1] === 0 && d[2] === 0);
    const tmax = rand() < 0.3 ? Math.floor(rand() * 40) / 2 : Infinity;
    rays.set([...o, ...d, tmax], 7 * i);
  }
  return rays;
}

export function addShapes(world, shapes) {
  for (const s of shapes) {
    if (s.type === 'aabb') world.addAABBs(new Float32Array([...s.min, ...s.max]));
    else if (s.type === 'obb') world.addOBBs(new Float32Array([...s.center, ...s.axes.flat(), ...s.half]));
    else world.addSpheres(new Float32Array([...s.center, s.radius]));
  }
}


/**
 * n random float32 objects in the cube [-half, half]^3: AABBs and spheres of sizes 0.2 to 2.2, and
 * OBBs turned about z by a random angle (axes rounded to float32, orthonormal within 1e-7).
 */
export function mixedFloatScene(rand, n, half = 20) {
  const f = Math.fround;
  const objs = [];
  for (let i = 0; i < n; i++) {
    const c = [rand() * 2 * half - half, rand() * 2 * half - half, rand() * 2 * half - half].map(f);
    const k = Math.floor(rand() * 3);
    if (k === 0) {
      const h = [0.2 + rand() * 2, 0.2 + rand() * 2, 0.2 + rand() * 2];
      objs.push({ type: 'aabb', min: c.map((v, a) => f(v - h[a])), max: c.map((v, a) => f(v + h[a])) });
    } else if (k === 1) {
      objs.push({ type: 'sphere', center: c, radius: f(0.2 + rand() * 2) });
    } else {
      const ang = rand() * Math.PI;
      const axes = [[Math.cos(ang), Math.sin(ang), 0], [-Math.sin(ang), Math.cos(ang), 0], [0, 0, 1]].map((v) => v.map(f));
      objs.push({ type: 'obb', center: c, axes, half: [0.2 + rand() * 2, 0.2 + rand() * 2, 0.2 + rand() * 2].map(f) });
    }
  }
  return objs;
}
