// Shape casts against the physics engines: slabcast's world.castSpheres and world.castCapsules
// beside Jolt's NarrowPhaseQuery.CastShape and rapier's World.castShape, on the benchmark's boxes
// (tools/bench_scene.h; 10000 by default) and the same sweeps, one thread. `npm run bench` prints it.
//
//   node web/bench/sweep-peers.mjs [boxes ...]      (default 10000)
//
// The sweeps (makeSweeps, seeded): SWEEP.count centres uniform in the scene's cube, each drawn again
// (up to 100 times) while the capsule's bounding box there touches a box, so that the shapes start
// apart from every box; unit directions uniform on the sphere; every sweep SWEEP.length long.
// Spheres: radius SWEEP.radius, centre c. Capsules: the same c, radius, and the segment
// a = c - (0, h, 0), b = c + (0, h, 0) with h = SWEEP.halfHeight: Jolt's and rapier's capsules lie
// along their local Y axis, unrotated here. All three report the first contact along the sweep as a
// distance (t in slabcast, the fraction times the length in Jolt, rapier's time of impact with a unit
// velocity) and the object hit.
//
// How each is called, as its users call it:
// - slabcast: one call for the whole batch, world.castSpheres(sweeps) / world.castCapsules(sweeps),
//   a new result each call; beside it the same sweeps one per call (subarray of one sweep, one `out`
//   reused), the way a game that casts one shape at a time calls it.
// - Jolt: per sweep a new RShapeCast (shape, unit scale, RMat44.sTranslation(centre), direction *
//   length; the constructor computes the swept bounds the broad phase reads, so it cannot be reused
//   by moving its fields), NarrowPhaseQuery.CastShape with default ShapeCastSettings and one
//   CastShapeClosestHitCollisionCollector (Reset per sweep), then J.destroy of the cast.
// - rapier: per sweep World.castShape(position, identity rotation, unit velocity, shape,
//   targetDistance 0, maxToi = length, stopAtPenetration true), plain objects reused.
//
// Margins. Boxes are exact in both peers: Jolt BoxShape with convex radius 0 (joltWorld), rapier
// cuboid (not a round cuboid). Jolt's SphereShape and CapsuleShape are their radius of convex radius
// around a point or segment, exact; the cast runs GJK with ShapeCastSettings.mCollisionTolerance
// (1e-4, the default, kept: it is how Jolt is used) so its contact may come up to about 1e-4 of
// separation early (more, measured along the sweep, at grazing angles). rapier is called with
// targetDistance 0, no margin; its TOI solver stops within its own tolerance. The agreement check
// below allows AGREE_T in t.
import { loadSlabcast } from '../slabcast.js';
import { loadBenchScene } from './bench-scene.mjs';
import { joltWorld, loadJolt, loadRapier, rapierWorld, version } from './peers.mjs';
import { rng } from './scenes.mjs';

/** The sweeps' parameters. */
export const SWEEP = { count: 10000, length: 10, radius: 0.25, halfHeight: 0.5 };
/** A peer agrees on a sweep when both miss, or both hit the same box with |t - slabcast t| <= AGREE_T. */
export const AGREE_T = 1e-3;

const now = () => performance.now();
const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)} k` : x.toFixed(1));

/**
 * The seeded sweeps on a scene in the cube [0, side]^3, with world (holding the scene's boxes) to
 * reject starts: { centres, dirs (unit) : Float64Array of 3 each, spheres (8 floats each),
 * capsules (11 floats each), touching: how many starts still touch a box after 100 draws }.
 */
export function makeSweeps(world, side, { count, length, radius, halfHeight } = SWEEP, seed = 0x5EED24) {
  const rnd = rng(seed);
  const centres = new Float64Array(3 * count);
  const dirs = new Float64Array(3 * count);
  const spheres = new Float32Array(8 * count);
  const capsules = new Float32Array(11 * count);
  const found = new Int32Array(1);
  let touching = 0;
  for (let i = 0; i < count; i++) {
    let c;
    for (let k = 0; ; k++) {
      c = [rnd() * side, rnd() * side, rnd() * side].map(Math.fround);
      const lo = [c[0] - radius, c[1] - halfHeight - radius, c[2] - radius];
      const hi = [c[0] + radius, c[1] + halfHeight + radius, c[2] + radius];
      if (world.overlapAABB(lo, hi, found) === 0) break;
      if (k === 99) { touching++; break; }
    }
    let d;
    for (;;) {
      d = [rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1];
      const l = Math.hypot(...d);
      if (l <= 1 && l >= 0.1) { d = d.map((x) => Math.fround(x / l)); break; }
    }
    centres.set(c, 3 * i);
    dirs.set(d, 3 * i);
    spheres.set([...c, ...d, length, radius], 8 * i);
    capsules.set([c[0], c[1] - halfHeight, c[2], c[0], c[1] + halfHeight, c[2], ...d, length, radius], 11 * i);
  }
  return { centres, dirs, spheres, capsules, touching };
}

/**
 * Jolt's shape casts on the boxes: { name, version, api, castSpheres(S), castCapsules(S), dispose() },
 * S as makeSweeps returns it; each cast returns { t: Float64Array (Infinity on a miss), index: Int32Array }.
 */
export async function joltSweeps(boxes, { length, radius, halfHeight } = SWEEP) {
  const J = await loadJolt();
  const world = joltWorld(J, boxes);
  const q = world.sys.GetNarrowPhaseQuery();
  const sphere = new J.SphereShape(radius);
  const capsule = new J.CapsuleShape(halfHeight, radius);
  sphere.AddRef(); // held here, not by a body: RShapeCast keeps a plain pointer
  capsule.AddRef();
  const scale = new J.Vec3(1, 1, 1);
  const pos = new J.RVec3(0, 0, 0);
  const dir = new J.Vec3(0, 0, 0);
  const base = new J.RVec3(0, 0, 0);
  const settings = new J.ShapeCastSettings();
  const collector = new J.CastShapeClosestHitCollisionCollector();
  const bodyFilter = new J.BodyFilter();
  const shapeFilter = new J.ShapeFilter();
  const hit = collector.get_mHit();
  function cast(shape, { centres, dirs }) {
    const n = centres.length / 3;
    const t = new Float64Array(n);
    const index = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const k = 3 * i;
      pos.Set(centres[k], centres[k + 1], centres[k + 2]);
      dir.Set(dirs[k] * length, dirs[k + 1] * length, dirs[k + 2] * length);
      const sc = new J.RShapeCast(shape, scale, J.RMat44.prototype.sTranslation(pos), dir);
      collector.Reset();
      q.CastShape(sc, settings, base, collector, world.bpFilter, world.objFilter, bodyFilter, shapeFilter);
      J.destroy(sc);
      if (collector.HadHit()) {
        t[i] = hit.get_mFraction() * length;
        index[i] = world.bodyIndex.get(hit.get_mBodyID2().GetIndexAndSequenceNumber()) ?? -2;
      } else {
        t[i] = Infinity;
        index[i] = -1;
      }
    }
    return { t, index };
  }
  return {
    name: 'Jolt',
    version: version('jolt-physics'),
    api: 'NarrowPhaseQuery.CastShape (SphereShape / CapsuleShape, a new RShapeCast per sweep), closest-hit collector',
    castSpheres: (s) => cast(sphere, s),
    castCapsules: (s) => cast(capsule, s),
    dispose() {
      for (const o of [scale, pos, dir, base, settings, collector, bodyFilter, shapeFilter]) J.destroy(o);
      sphere.Release();
      capsule.Release();
      world.dispose();
    },
  };
}

/** rapier's shape casts on the boxes, as joltSweeps. */
export async function rapierSweeps(boxes, { length, radius, halfHeight } = SWEEP) {
  const R = await loadRapier();
  const { world, colliderIndex } = rapierWorld(R, boxes);
  const ball = new R.Ball(radius);
  const capsule = new R.Capsule(halfHeight, radius);
  const pos = { x: 0, y: 0, z: 0 };
  const vel = { x: 0, y: 0, z: 0 };
  const rot = { x: 0, y: 0, z: 0, w: 1 };
  function cast(shape, { centres, dirs }) {
    const n = centres.length / 3;
    const t = new Float64Array(n);
    const index = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const k = 3 * i;
      pos.x = centres[k]; pos.y = centres[k + 1]; pos.z = centres[k + 2];
      vel.x = dirs[k]; vel.y = dirs[k + 1]; vel.z = dirs[k + 2];
      const h = world.castShape(pos, rot, vel, shape, 0, length, true);
      if (h) {
        t[i] = h.time_of_impact;
        index[i] = colliderIndex.get(h.collider.handle) ?? -2;
      } else {
        t[i] = Infinity;
        index[i] = -1;
      }
    }
    return { t, index };
  }
  return {
    name: 'rapier',
    version: version('@dimforge/rapier3d-compat'),
    api: 'World.castShape (Ball / Capsule, targetDistance 0, stopAtPenetration)',
    castSpheres: (s) => cast(ball, s),
    castCapsules: (s) => cast(capsule, s),
    dispose() { world.free(); },
  };
}

/** The CPU time of this process so far, in ms (user + system): other processes on a shared machine do not add to it. */
const cpuNow = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };

/**
 * Times the contenders (name -> f) in ROUNDS interleaved rounds after one warm-up call each, so
 * that a busy spell of a shared machine falls on all of them: per name the best wall-clock ms, the
 * best CPU ms of the process, and f's last result.
 */
const ROUNDS = 7;
function timeRounds(contenders) {
  const out = {};
  for (const [name, f] of Object.entries(contenders)) out[name] = { ms: Infinity, cpu: Infinity, result: f() };
  for (let k = 0; k < ROUNDS; k++) {
    for (const [name, f] of Object.entries(contenders)) {
      const c0 = cpuNow();
      const t0 = now();
      out[name].result = f();
      const ms = now() - t0;
      const cpu = cpuNow() - c0;
      out[name].ms = Math.min(out[name].ms, ms);
      out[name].cpu = Math.min(out[name].cpu, cpu);
    }
  }
  return out;
}

/**
 * The separation (distance minus radius; negative: overlapping) between box b and the shape of sweep
 * i at distance t, in double precision, independent of every engine: the distance from the box to
 * the segment a + s (b - a), s in [0, 1] (a point for a sphere, halfHeight 0) is convex in s, so a
 * ternary search finds its minimum.
 */
export function separation(boxes, b, sweeps, i, t, { radius, halfHeight } = SWEEP) {
  const c = [0, 1, 2].map((k) => sweeps.centres[3 * i + k] + t * sweeps.dirs[3 * i + k]);
  const dist = (y) => {
    let d2 = 0;
    for (let k = 0; k < 3; k++) {
      const v = k === 1 ? c[1] + y : c[k];
      const x = v < boxes[6 * b + k] ? boxes[6 * b + k] - v : v > boxes[6 * b + 3 + k] ? v - boxes[6 * b + 3 + k] : 0;
      d2 += x * x;
    }
    return Math.sqrt(d2);
  };
  let lo = -halfHeight;
  let hi = halfHeight;
  for (let k = 0; k < 100 && hi > lo; k++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    if (dist(m1) <= dist(m2)) hi = m2; else lo = m1;
  }
  return dist((lo + hi) / 2) - radius;
}

/**
 * A peer's answers against slabcast's: { agree, checked, miss (hit against miss), object (another
 * box), t (same box, t off), maxDt (same box), sepMine, sepTheirs: the largest |separation| at the
 * reported t over the hits (0 when touching exactly) }.
 */
export function agreement(mine, theirs, boxes, sweeps, params, floats) {
  const out = { agree: 0, checked: mine.index.length, miss: 0, object: 0, t: 0, maxDt: 0, sepMine: 0, sepTheirs: 0 };
  for (let i = 0; i < out.checked; i++) {
    const a = mine.index[i];
    const b = theirs.index[i];
    if (a >= 0) out.sepMine = Math.max(out.sepMine, Math.abs(separation(boxes, a, sweeps, i, mine.t[i], { ...params, halfHeight: floats === 8 ? 0 : params.halfHeight })));
    if (b >= 0) out.sepTheirs = Math.max(out.sepTheirs, Math.abs(separation(boxes, b, sweeps, i, theirs.t[i], { ...params, halfHeight: floats === 8 ? 0 : params.halfHeight })));
    if (a < 0 && b < 0) { out.agree++; continue; }
    if ((a < 0) !== (b < 0)) { out.miss++; continue; }
    if (a !== b) { out.object++; continue; }
    const dt = Math.abs(mine.t[i] - theirs.t[i]);
    out.maxDt = Math.max(out.maxDt, dt);
    if (dt <= AGREE_T) out.agree++;
    else out.t++;
  }
  return out;
}

/** One row per shape (sphere, capsule) at n boxes: slabcast's rates, each peer's rate, ratio and agreement. */
export async function sweepPeerRows(sc, benchScene, n, params = SWEEP) {
  const { boxes } = benchScene(n, 0);
  const world = sc.createWorld();
  world.addAABBs(boxes);
  world.build();
  const sweeps = makeSweeps(world, 4 * Math.cbrt(n), params);
  const peers = [];
  for (const make of [joltSweeps, rapierSweeps]) {
    try {
      peers.push(await make(boxes, params));
    } catch (e) {
      console.log(`sweep peer ${make.name}: not loaded, left out (${e.message.split('\n')[0]})`);
    }
  }
  const m = params.count;
  const rows = [];
  for (const [shape, method, floats, data] of [['sphere', 'castSpheres', 8, sweeps.spheres], ['capsule', 'castCapsules', 11, sweeps.capsules]]) {
    const row = { shape, boxes: n, sweeps: m, touching: sweeps.touching, peers: {} };
    rows.push(row);
    const has = typeof world[method] === 'function';
    if (!has) row.missing = `world.${method} is not in this build`;
    const out = { t: new Float32Array(1), index: new Int32Array(1), normal: new Float32Array(3), point: new Float32Array(3) };
    const contenders = {};
    if (has) {
      contenders.batch = () => world[method](data);
      contenders.single = () => { for (let i = 0; i < m; i++) world[method](data.subarray(floats * i, floats * (i + 1)), out); };
    }
    for (const p of peers) contenders[p.name] = () => p[method](sweeps);
    const timed = timeRounds(contenders);
    if (has) {
      row.sc_per_s = m / (timed.batch.ms / 1e3);
      row.sc_cpu_per_s = m / (timed.batch.cpu / 1e3);
      row.sc_single_per_s = m / (timed.single.ms / 1e3);
      const res = timed.batch.result;
      let hits = 0;
      for (let i = 0; i < m; i++) hits += res.index[i] >= 0;
      row.hits = hits / m;
      row.res = res;
    }
    for (const p of peers) {
      const r = timed[p.name];
      const cell = { per_s: m / (r.ms / 1e3), cpu_per_s: m / (r.cpu / 1e3) };
      if (row.res) {
        Object.assign(cell, { ratio: row.sc_per_s / cell.per_s, single_ratio: row.sc_single_per_s / cell.per_s,
          cpu_ratio: row.sc_cpu_per_s / cell.cpu_per_s, ...agreement(row.res, r.result, boxes, sweeps, params, floats) });
      }
      row.peers[p.name] = cell;
    }
    delete row.res;
  }
  for (const p of peers) p.dispose();
  world.dispose();
  return { rows, peers: peers.map(({ name, version: v, api }) => ({ name, version: v, api })) };
}

export function printSweepPeerRows({ rows, peers }, params = SWEEP) {
  if (!rows.length) return;
  const names = peers.map((p) => p.name);
  console.log(`\nShape casts against the physics engines (web/bench/sweep-peers.mjs), one thread, the benchmark boxes: ${params.count} seeded sweeps of length ${params.length}, radius ${params.radius},`);
  console.log(`capsules of half-height ${params.halfHeight} along y (a = c - (0, h, 0), b = c + (0, h, 0)), starts apart from every box; per second, the best of ${ROUNDS} interleaved rounds.`);
  console.log(peers.map((p) => `${p.name} ${p.version}: ${p.api}`).join('; ') + '.');
  console.log('slabcast batch: one call for all the sweeps (world.castSpheres / castCapsules); one per call: a call per sweep. ratio = slabcast batch / the peer; in brackets slabcast one per call / the peer, and the batch ratio by the best CPU time of the process (what other jobs on a shared machine do not inflate).');
  console.log(`Agreement: both miss, or the same box with |t - slabcast t| <= ${AGREE_T}; disagreements by kind: hit vs miss, another box, same box with t off (max |dt| on the same box).`);
  console.log('max sep: the largest |separation| (distance minus radius) between the shape at the reported t and the box hit, over the hits, computed independently in double (0: touching exactly); the peer\'s, then slabcast\'s.\n');
  console.log(`| shape | boxes | slabcast batch /s | slabcast one per call /s | ${names.map((n) => `${n} /s | ratio`).join(' | ')} | ${names.map((n) => `${n} agreement`).join(' | ')} | hits |`);
  console.log(`| --- | ---: | ---: | ---: | ${names.map(() => '---: | ---:').join(' | ')} | ${names.map(() => '---').join(' | ')} | ---: |`);
  for (const r of rows) {
    const cells = names.map((n) => {
      const c = r.peers[n];
      if (!c) return '- | -';
      return `${fmt(c.per_s)} | ${c.ratio ? `**${c.ratio.toFixed(1)}x** (${c.single_ratio.toFixed(1)}x; CPU ${c.cpu_ratio.toFixed(1)}x)` : '-'}`;
    });
    const agree = names.map((n) => {
      const c = r.peers[n];
      if (!c || c.agree === undefined) return '-';
      return `${c.agree}/${c.checked} (${c.miss} hit vs miss, ${c.object} other box, ${c.t} t off; max dt ${c.maxDt.toExponential(1)}; max sep ${c.sepTheirs.toExponential(1)}, slabcast ${c.sepMine.toExponential(1)})`;
    });
    const sc = r.missing ? `${r.missing} | -` : `${fmt(r.sc_per_s)} | ${fmt(r.sc_single_per_s)}`;
    console.log(`| ${r.shape} | ${r.boxes} | ${sc} | ${cells.join(' | ')} | ${agree.join(' | ')} | ${r.hits === undefined ? '-' : `${(100 * r.hits).toFixed(1)}%`} |`);
  }
  const touching = rows[0].touching;
  if (touching) console.log(`\n${touching} sweeps start touching a box (no free start in 100 draws).`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sc = await loadSlabcast();
  const benchScene = await loadBenchScene();
  const sizes = process.argv.slice(2).map(Number).filter((x) => Number.isInteger(x) && x > 0);
  for (const n of sizes.length ? sizes : [10000]) printSweepPeerRows(await sweepPeerRows(sc, benchScene, n));
}
