// The parallel world's benchmark rows (slabcast/parallel), the same code in Node and in a page
// (web/bench/parallel.html): rays/s of castRays on 1, 2, 4 workers in each memory mode, beside
// a single-threaded world on the same boxes and rays (and per core), and the latency of a small
// call, with the default options (on the calling thread) and on the workers (inline: 0).
// Every parallel answer is checked bit for bit against the single-threaded world's.
import { partsFor } from '../parallel/copied.js';

const now = () => performance.now();
const bits = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
function sameBits(a, b) {
  const x = bits(a);
  const y = bits(b);
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * Calls per second of an async (or sync) call: the best of three windows of at least `ms / 3`
 * each, after two warm-up calls (the best, as the other benchmarks: the machine may be shared).
 */
async function rate(call, ms) {
  await call();
  await call();
  let best = 0;
  for (let w = 0; w < 3; w++) {
    let calls = 0;
    const t0 = now();
    let t = t0;
    while (t - t0 < ms / 3) {
      await call();
      calls++;
      t = now();
    }
    best = Math.max(best, calls / ((t - t0) / 1000));
  }
  return best;
}

/**
 * rows for one scene: { env, mode, workers, boxes, rays_per_call, rays_per_s, vs_single,
 * vs_one_worker, same }, plus per mode two small-call rows (calls of `small` rays on 2 workers, with
 * the default options and with inline: 0): { latency_us, single_us, used (threads the call ran on), overhead_us, path, same }.
 * o: { createParallelWorld, sc (loadSlabcast()), boxes, rays, workers: [1, 2, 4], modes, env, ms, small, options }
 */
export async function parallelRows(o) {
  const { createParallelWorld, sc, boxes, rays } = o;
  const ms = o.ms ?? 900;
  const small = o.small ?? 256;
  const n = rays.length / 7;
  const single = sc.createWorld();
  single.addAABBs(boxes);
  const want = single.castRays(rays);
  const out = { t: new Float32Array(n), index: new Int32Array(n), normal: new Float32Array(3 * n) };
  const singleRate = n * await rate(() => single.castRays(rays, out), ms);
  const smallRays = rays.subarray(0, 7 * small);
  const smallOut = { t: new Float32Array(small), index: new Int32Array(small), normal: new Float32Array(3 * small) };
  const singleSmallUs = 1e6 / await rate(() => single.castRays(smallRays, smallOut), ms);
  const rows = [];
  for (const mode of o.modes) {
    let oneWorker = null;
    for (const workers of o.workers) {
      const world = await createParallelWorld({ workers, memory: mode, ...(o.options ?? {}) });
      try {
        world.addAABBs(boxes);
        const got = await world.castRays(rays);
        const same = sameBits(got.t, want.t) && sameBits(got.index, want.index) && sameBits(got.normal, want.normal);
        const r = n * await rate(() => world.castRays(rays, out), ms);
        if (workers === 1) oneWorker = r;
        rows.push({
          env: o.env, mode, workers, boxes: boxes.length / 6, rays_per_call: n, rays_per_s: r,
          single_rays_per_s: singleRate, vs_single: r / singleRate, vs_one_worker: oneWorker ? r / oneWorker : null, same,
        });
        if (workers === 2) {
          // the default (a batch this small runs on the calling thread), then forced onto the workers
          for (const inline of [undefined, 0]) {
            const w = inline === undefined ? world : await createParallelWorld({ workers, memory: mode, inline, ...(o.options ?? {}) });
            try {
              if (w !== world) w.addAABBs(boxes);
              const small1 = await w.castRays(smallRays);
              const sameSmall = sameBits(small1.t, want.t.subarray(0, small)) && sameBits(small1.index, want.index.subarray(0, small)) &&
                sameBits(small1.normal, want.normal.subarray(0, 3 * small));
              const latency = 1e6 / await rate(() => w.castRays(smallRays, smallOut), ms);
              // the threads the call runs on: the calling thread (default), else as many workers as
              // its size repays in copied memory (copied.js, partsFor), every worker in shared memory
              const used = inline !== 0 ? 1 : mode === 'copied' ? partsFor(small, workers) : workers;
              rows.push({
                env: o.env, mode, workers, boxes: boxes.length / 6, small, latency_us: latency, single_us: singleSmallUs, used,
                overhead_us: latency - singleSmallUs / used, path: inline === 0 ? 'workers (inline: 0)' : 'default', same: sameSmall,
              });
            } finally {
              if (w !== world) await w.dispose();
            }
          }
        }
      } finally {
        await world.dispose();
      }
    }
  }
  single.dispose();
  return rows;
}

/**
 * The other parallel queries on 2 workers against the World answering the same items on this
 * thread (its batch call for closestObjects, its call per item for castRayAll and overlapSpheres):
 * items per second, `items` per call, answers compared with the World's. rows: { env, mode,
 * boxes, query, items, per_s, world_per_s, same }.
 */
export async function listRows(o) {
  const { createParallelWorld, sc, boxes, rays } = o;
  const ms = o.ms ?? 600;
  const m = Math.min(o.items ?? 4096, rays.length / 7);
  const items = {
    closestObjects: rays.slice(0, 7 * m).filter((_, i) => i % 7 < 3),
    castRayAll: rays.subarray(0, 7 * m),
    overlapSpheres: rays.slice(0, 7 * m).map((v, i) => (i % 7 === 3 ? 0.5 : v)).filter((_, i) => i % 7 < 4),
  };
  const single = sc.createWorld();
  single.addAABBs(boxes);
  const room = new Int32Array(single.count);
  const worldCall = {
    closestObjects: () => single.closestObjects(items.closestObjects, 1),
    castRayAll: () => { for (let i = 0; i < m; i++) single.castRayAll(items.castRayAll.subarray(7 * i, 7 * i + 7)); },
    overlapSpheres: () => {
      const a = items.overlapSpheres;
      for (let i = 0; i < m; i++) single.overlapSphere([a[4 * i], a[4 * i + 1], a[4 * i + 2]], a[4 * i + 3], room);
    },
  };
  // the World's answers as the parallel world gives them (lists: a start per item, then the hits)
  const lists = (one) => {
    const start = new Int32Array(m + 1);
    const parts = [];
    for (let i = 0; i < m; i++) { parts.push(one(i)); start[i + 1] = start[i] + parts[i].index.length; }
    const join = (k, Type, per) => { const a = new Type(per * start[m]); parts.forEach((p, i) => a.set(p[k], per * start[i])); return a; };
    return parts[0]?.t ? { start, index: join('index', Int32Array, 1), t: join('t', Float32Array, 1), normal: join('normal', Float32Array, 3) }
      : { start, index: join('index', Int32Array, 1) };
  };
  const worldAnswers = {
    closestObjects: () => worldCall.closestObjects(),
    castRayAll: () => lists((i) => single.castRayAll(items.castRayAll.subarray(7 * i, 7 * i + 7))),
    overlapSpheres: () => lists((i) => {
      const a = items.overlapSpheres;
      return { index: room.slice(0, single.overlapSphere([a[4 * i], a[4 * i + 1], a[4 * i + 2]], a[4 * i + 3], room)) };
    }),
  };
  const rows = [];
  for (const mode of o.modes) {
    const world = await createParallelWorld({ workers: 2, memory: mode, ...(o.options ?? {}) });
    try {
      world.addAABBs(boxes);
      for (const query of Object.keys(items)) {
        const call = () => (query === 'closestObjects' ? world.closestObjects(items[query], 1) : world[query](items[query]));
        const got = await call();
        const want = worldAnswers[query]();
        const same = Object.keys(want).every((k) => sameBits(got[k], want[k]));
        rows.push({
          env: o.env, mode, boxes: boxes.length / 6, query, items: m, same,
          per_s: m * await rate(call, ms), world_per_s: m * await rate(worldCall[query], ms),
        });
      }
    } finally {
      await world.dispose();
    }
  }
  single.dispose();
  return rows;
}

/** A markdown table of listRows' rows. */
export function formatListRows(rows) {
  const lines = ['| where | memory | boxes | query | items per call | items/s on 2 workers | items/s, World on this thread | x World | same bits |',
    '| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | --- |'];
  for (const r of rows) {
    lines.push(`| ${r.env} | ${r.mode} | ${r.boxes} | ${r.query} | ${r.items} | ${fmt(r.per_s)} | ${fmt(r.world_per_s)} | ${(r.per_s / r.world_per_s).toFixed(2)}x | ${r.same ? 'yes' : '**NO**'} |`);
  }
  return lines.join('\n');
}

const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)} k` : x.toFixed(1));

/** Markdown tables of parallelRows' rows. */
export function formatParallelRows(rows, cores) {
  const lines = [];
  lines.push('| where | memory | boxes | workers | rays/s (64k rays per call) | x single-threaded world | x 1 worker | per core (x 1 worker / workers; target >= 0.85) | same bits |');
  lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of rows.filter((x) => x.rays_per_s !== undefined)) {
    const over = r.workers > cores ? ' (more than the cores)' : '';
    const perCore = r.vs_one_worker === null || r.workers > cores ? '-' : (r.vs_one_worker / r.workers).toFixed(2);
    lines.push(`| ${r.env} | ${r.mode} | ${r.boxes} | ${r.workers}${over} | ${fmt(r.rays_per_s)} | ${r.vs_single.toFixed(2)}x | ${r.vs_one_worker === null ? '-' : `${r.vs_one_worker.toFixed(2)}x`} | ${perCore} | ${r.same ? 'yes' : '**NO**'} |`);
  }
  lines.push('');
  lines.push('| where | memory | boxes | rays per call | workers | path | threads used | µs per call (target <= 100) | single-threaded World µs | overhead µs (call - single / threads used) | same bits |');
  lines.push('| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |');
  for (const r of rows.filter((x) => x.latency_us !== undefined)) {
    lines.push(`| ${r.env} | ${r.mode} | ${r.boxes} | ${r.small} | ${r.workers} | ${r.path} | ${r.used} | ${r.latency_us.toFixed(1)} | ${r.single_us.toFixed(1)} | ${r.overhead_us.toFixed(1)} | ${r.same ? 'yes' : '**NO**'} |`);
  }
  lines.push('');
  lines.push('"default": a call of at most options.inline rays (256) runs on the calling thread; "workers (inline: 0)": every call on the workers ' +
    '(in copied memory on as many as its size repays: one below 2 x 1024 rays).');
  return lines.join('\n');
}
