// floor.mjs: the rows of web/bench/parallel-floor.mjs, the same code in Node and in a page
// (web/bench/parallel-floor.html). What one call of `small` rays on a worker cannot go below,
// beside what it costs: a World on this thread; one bare worker holding a World, answering an
// ArrayBuffer transferred both ways (nothing cast: the messaging and waking alone; then the
// rays cast); and a parallel world in copied memory with inline: 0. µs per call, each the best
// of `rounds` windows of `ms` ms, the variants interleaved round by round (the machine may be shared).

const now = () => performance.now();
const isNode = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

async function spawn(module, boxes) {
  const url = new URL('./floor-worker.js', import.meta.url);
  let w;
  let on;
  if (isNode) {
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    w = new Worker(url);
    w.on('message', (m) => on(m));
  } else {
    w = new Worker(url, { type: 'module' });
    w.onmessage = (e) => on(e.data);
  }
  await new Promise((resolve) => { on = resolve; w.postMessage({ module, boxes }); });
  return {
    call(buffer) { return new Promise((resolve) => { on = resolve; w.postMessage(buffer, [buffer]); }); },
    end() { w.terminate(); },
  };
}

/**
 * o: { createParallelWorld, sc, boxes, rays (at least `small`), small = 256, workers = 2, rounds = 8, ms = 150, env }.
 * Returns { env, boxes, small, us: { world, echo, worker, parallel } }.
 */
export async function floorRows(o) {
  const { createParallelWorld, sc, boxes } = o;
  const small = o.small ?? 256;
  const rays = o.rays.subarray(0, 7 * small);
  const out = { t: new Float32Array(small), index: new Int32Array(small), normal: new Float32Array(3 * small) };
  const single = sc.createWorld();
  single.addAABBs(boxes);
  const module = await WebAssembly.compile(await (isNode
    ? process.getBuiltinModule('node:fs').promises.readFile(new URL('../slabcast.wasm', import.meta.url))
    : fetch(new URL('../slabcast.wasm', import.meta.url)).then((r) => r.arrayBuffer())));
  const worker = await spawn(module, boxes);
  let buffer = new ArrayBuffer(16 + 48 * small);
  const roundTrip = async (n) => {
    new Int32Array(buffer, 0, 1)[0] = n;
    if (n > 0) new Float32Array(buffer, 16, 7 * n).set(rays);
    buffer = await worker.call(buffer);
  };
  const par = await createParallelWorld({ workers: o.workers ?? 2, memory: 'copied', inline: 0 });
  par.addAABBs(boxes);
  const variants = {
    world: () => single.castRays(rays, out),
    echo: () => roundTrip(0),
    worker: () => roundTrip(small),
    parallel: () => par.castRays(rays, out),
  };
  const us = {};
  try {
    for (const [k, f] of Object.entries(variants)) { for (let i = 0; i < 200; i++) await f(); us[k] = Infinity; }
    for (let r = 0; r < (o.rounds ?? 8); r++) {
      for (const [k, f] of Object.entries(variants)) {
        let calls = 0;
        const t0 = now();
        let t = t0;
        while (t - t0 < (o.ms ?? 150)) { await f(); calls++; t = now(); }
        us[k] = Math.min(us[k], ((t - t0) * 1000) / calls);
      }
    }
  } finally {
    worker.end();
    await par.dispose();
    single.dispose();
  }
  return { env: o.env, boxes: boxes.length / 6, small, us };
}

/** A markdown table of floorRows' rows. */
export function formatFloorRows(rows) {
  const lines = ['| where | boxes | rays per call | World on this thread | bare worker, nothing cast | bare worker, rays cast | parallel world, copied, inline: 0 |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |'];
  for (const r of rows) {
    const u = r.us;
    lines.push(`| ${r.env} | ${r.boxes} | ${r.small} | ${u.world.toFixed(1)} µs | ${u.echo.toFixed(1)} µs | ${u.worker.toFixed(1)} µs | ${u.parallel.toFixed(1)} µs |`);
  }
  return lines.join('\n');
}
