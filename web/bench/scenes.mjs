// Further scene families for `npm run bench` (the main table uses tools/bench_scene.h).
// Each returns { boxes: Float32Array (6 per box), rays: Float32Array (7 per ray) }, seeded,
// so that a run can be repeated. They vary what makes a scene hard: density, empty space,
// rays from outside, short rays.

/** xorshift32 in [0, 1). */
export function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

function unitDir(rnd) {
  for (;;) {
    const x = rnd() * 2 - 1, y = rnd() * 2 - 1, z = rnd() * 2 - 1;
    const l = x * x + y * y + z * z;
    if (l <= 1 && l >= 0.01) {
      const k = 1 / Math.sqrt(l);
      return [x * k, y * k, z * k];
    }
  }
}

function randomBoxes(rnd, n, side, hmin, hmax, offset = 0) {
  const b = new Float32Array(6 * n);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      const c = offset + rnd() * side, h = hmin + rnd() * (hmax - hmin);
      b[6 * i + a] = c - h;
      b[6 * i + 3 + a] = c + h;
    }
  }
  return b;
}

function insideRays(rnd, nrays, side, tmax, offset = 0) {
  const r = new Float32Array(7 * nrays);
  for (let i = 0; i < nrays; i++) {
    const d = unitDir(rnd);
    r.set([offset + rnd() * side, offset + rnd() * side, offset + rnd() * side, d[0], d[1], d[2], tmax], 7 * i);
  }
  return r;
}

export const SCENES = {
  /** Boxes of half-size 0.1..0.6 in a fixed 100^3 cube: denser as n grows. */
  'fixed cube': (n, nrays, rnd) => ({
    boxes: randomBoxes(rnd, n, 100, 0.1, 0.6, -50),
    rays: insideRays(rnd, nrays, 100, Infinity, -50),
  }),
  /** A city: a square grid of boxes of random height; rays from street to roof level, near horizontal. */
  city: (n, nrays, rnd) => {
    const g = Math.ceil(Math.sqrt(n));
    const boxes = new Float32Array(6 * n);
    for (let i = 0; i < n; i++) {
      const x = (i % g) * 3, z = Math.floor(i / g) * 3;
      boxes.set([x, 0, z, x + 2, 1 + rnd() * 20, z + 2], 6 * i);
    }
    const rays = new Float32Array(7 * nrays);
    for (let i = 0; i < nrays; i++) {
      const d = unitDir(rnd);
      const l = Math.hypot(d[0], d[1] * 0.3, d[2]);
      rays.set([rnd() * g * 3, rnd() * 25, rnd() * g * 3, d[0] / l, (d[1] * 0.3) / l, d[2] / l, Infinity], 7 * i);
    }
    return { boxes, rays };
  },
  /** The city, with every ray straight down (ground checks: two axes parallel). */
  'city, rays down': (n, nrays, rnd) => {
    const { boxes } = SCENES.city(n, 0, rnd);
    const g = Math.ceil(Math.sqrt(n));
    const rays = new Float32Array(7 * nrays);
    for (let i = 0; i < nrays; i++) rays.set([rnd() * g * 3, 30, rnd() * g * 3, 0, -1, 0, Infinity], 7 * i);
    return { boxes, rays };
  },
  /** The main table's boxes; rays from a sphere around the scene aimed at points inside it. */
  outside: (n, nrays, rnd) => {
    const side = 4 * Math.cbrt(n);
    const boxes = randomBoxes(rnd, n, side, 0.25, 1.25);
    const rays = new Float32Array(7 * nrays);
    for (let i = 0; i < nrays; i++) {
      const u = unitDir(rnd);
      const o = u.map((v) => side / 2 + v * side * 1.5);
      const d = [rnd() * side - o[0], rnd() * side - o[1], rnd() * side - o[2]];
      const l = Math.hypot(...d);
      rays.set([...o, d[0] / l, d[1] / l, d[2] / l, Infinity], 7 * i);
    }
    return { boxes, rays };
  },
  /** The main table's boxes and rays, with tmax = 10 (short probes). */
  'short rays': (n, nrays, rnd) => {
    const side = 4 * Math.cbrt(n);
    return { boxes: randomBoxes(rnd, n, side, 0.25, 1.25), rays: insideRays(rnd, nrays, side, 10) };
  },
  /** Sparse: the main table's boxes spread 5x wider per axis; most rays miss everything. */
  sparse: (n, nrays, rnd) => {
    const side = 20 * Math.cbrt(n);
    return { boxes: randomBoxes(rnd, n, side, 0.25, 1.25), rays: insideRays(rnd, nrays, side, Infinity) };
  },
};
