// Overlap, sweep and closest-object queries against their brute-force forms (every object
// tested), on the benchmark's boxes (tools/bench_scene.h) at the given sizes: queries per second
// of each, the ratio, and whether the answers agree. `npm run bench` prints it.
//
//   node web/bench/queries.mjs [boxes ...]      (default 10000)
import { loadSlabcast } from '../slabcast.js';
import { loadBenchScene } from './bench-scene.mjs';

const now = () => performance.now();
const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : x >= 1e3 ? `${(x / 1e3).toFixed(2)} k` : x.toFixed(1));

/** Per second of f(), which does `count` queries: after a warm-up, the best of several samples,
 * each repeating f() for at least 20 ms (one call of 500 fast queries takes about a millisecond,
 * where one collection or a busy neighbour decides the figure); 7 samples, 3 when one call takes
 * over 100 ms, 1 over a second (the brute-force forms). */
function rate(f, count) {
  const t0 = now();
  f();
  const first = now() - t0;
  const samples = first > 1000 ? 1 : first > 100 ? 3 : 7;
  const reps = Math.max(1, Math.ceil(20 / Math.max(first, 0.01)));
  let best = Infinity;
  for (let k = 0; k < samples; k++) {
    const t1 = now();
    for (let r = 0; r < reps; r++) f();
    best = Math.min(best, (now() - t1) / reps);
  }
  return count / (best / 1e3);
}

/** One table row per query kind at n boxes. */
export function queryRows(sc, benchScene, n) {
  const { boxes, rays } = benchScene(n, 2000);
  const w = sc.createWorld();
  w.addAABBs(boxes);
  w.build();
  const m = 2000;
  const spheres = new Float32Array(8 * m);
  const cubes = new Float32Array(10 * m);
  const points = new Float32Array(3 * m);
  for (let i = 0; i < m; i++) {
    spheres.set([...rays.subarray(7 * i, 7 * i + 6), 50, 0.5], 8 * i);
    cubes.set([...rays.subarray(7 * i, 7 * i + 6), 50, 0.5, 0.5, 0.5], 10 * i);
    points.set(rays.subarray(7 * i, 7 * i + 3), 3 * i);
  }
  const rows = [];
  // The brute forms test every object per query: the batches run on the first mb queries only,
  // about 2.5M object tests per call at any n, so that 100k boxes take no longer than 10k; both
  // rates are per query, and the answers are compared on that subset.
  const mb = Math.max(16, Math.min(m, Math.round(2.5e6 / n)));
  const row = (name, count, countBrute, fast, brute, same) => {
    const a = rate(fast, count);
    const b = rate(brute, countBrute);
    rows.push({ query: name, boxes: n, per_s: a, brute_per_s: b, ratio: a / b, agree: same() });
  };
  const sameCasts = (x, y) => y.index.every((v, i) => v === x.index[i] && y.t[i] === x.t[i]);
  const sph = spheres.subarray(0, 8 * mb);
  const cub = cubes.subarray(0, 10 * mb);
  const pts = points.subarray(0, 3 * mb);
  row('castSpheres (radius 0.5, length 50)', m, mb, () => w.castSpheres(spheres), () => w.castSpheresBruteForce(sph),
    () => sameCasts(w.castSpheres(sph), w.castSpheresBruteForce(sph)));
  row('castBoxes (half 0.5, length 50)', m, mb, () => w.castBoxes(cubes), () => w.castBoxesBruteForce(cub),
    () => sameCasts(w.castBoxes(cub), w.castBoxesBruteForce(cub)));
  row('closestObjects (no limit)', m, mb, () => w.closestObjects(points, Infinity), () => w.closestObjectsBruteForce(pts, Infinity),
    () => { const x = w.closestObjects(pts, Infinity); const y = w.closestObjectsBruteForce(pts, Infinity); return x.index.every((v, i) => v === y.index[i]); });
  const out = new Int32Array(n);
  const q = 500;
  const centres = points.subarray(0, 3 * q);
  const at = (i) => centres.subarray(3 * i, 3 * i + 3);
  const each = (f, k) => () => { for (let i = 0; i < k; i++) f(at(i)); };
  // The brute form of an overlap runs on as many of the q queries as take about 0.3 s (timed on
  // the first; the exact OBB test is far slower per object than the others), at least 4.
  const brutes = (g) => {
    const t0 = now();
    g(at(0));
    const dt = now() - t0;
    return Math.max(4, Math.min(q, Math.round(300 / Math.max(dt, 1e-3))));
  };
  const list = (total) => out.slice(0, total);
  const overlapRow = (name, fast, brute) => {
    const k = brutes(brute);
    const same = () => {
      for (let i = 0; i < k; i++) {
        const a = list(fast(at(i)));
        const b = list(brute(at(i)));
        if (a.length !== b.length || a.some((v, j) => v !== b[j])) return false;
      }
      return true;
    };
    row(name, q, k, each(fast, q), each(brute, k), same);
  };
  const box = (c) => [c[0] - 3, c[1] - 3, c[2] - 3, c[0] + 3, c[1] + 3, c[2] + 3];
  overlapRow('overlapAABB (side 6)', (c) => w.overlapAABB(box(c).slice(0, 3), box(c).slice(3), out),
    (c) => w.overlapBruteForce('aabb', box(c), out));
  overlapRow('overlapSphere (radius 3)', (c) => w.overlapSphere(c, 3, out), (c) => w.overlapBruteForce('sphere', [...c, 3], out));
  const obb = (c) => [...c, 0.8, 0.6, 0, -0.6, 0.8, 0, 0, 0, 1, 3, 2, 1];
  overlapRow('overlapOBB (turned, 6 x 4 x 2)', (c) => w.overlapOBB(obb(c), out), (c) => w.overlapBruteForce('obb', obb(c), out));
  const frustum = (c) => [1, 0, 0, 4 - c[0], -1, 0, 0, c[0] + 4, 0, 1, 0, 4 - c[1], 0, -1, 0, c[1] + 4, 0, 0.6, 0.8, 4 - c[2], 0, 0, -1, c[2] + 4];
  overlapRow('overlapFrustum (8-unit box with a slanted plane)', (c) => w.overlapFrustum(frustum(c), out),
    (c) => w.overlapBruteForce('frustum', frustum(c), out));
  w.dispose();
  return rows;
}

export function printQueryRows(rows) {
  console.log('\nOverlap, sweep and closest-object queries (wasm) against their brute-force forms, the benchmark boxes:\n');
  console.log('| query | boxes | per second | brute force per second | ratio | same answers |');
  console.log('| --- | ---: | ---: | ---: | ---: | --- |');
  for (const r of rows) console.log(`| ${r.query} | ${r.boxes} | ${fmt(r.per_s)} | ${fmt(r.brute_per_s)} | **${r.ratio.toFixed(1)}x** | ${r.agree ? 'yes' : 'NO'} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sc = await loadSlabcast();
  const benchScene = await loadBenchScene();
  const sizes = process.argv.slice(2).map(Number).filter((x) => Number.isInteger(x) && x > 0);
  const rows = (sizes.length ? sizes : [10000]).flatMap((n) => queryRows(sc, benchScene, n));
  printQueryRows(rows);
}
