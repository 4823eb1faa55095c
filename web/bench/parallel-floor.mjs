#!/usr/bin/env node
// What a call of 256 rays on a worker cannot go below, in Node and in Chromium (a plain page:
// copied memory), at 10k and 100k boxes of the bench scene: a World on this thread, a bare
// worker answering a transferred buffer (nothing cast, then the rays cast), and the parallel
// world in copied memory with inline: 0 (web/bench/floor.mjs). For docs/benchmarks.md, issue
// 25's copied-memory latency; not part of npm run bench.
//   node web/bench/parallel-floor.mjs [--no-browser] [--rounds N]
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createStaticServer } from '../bin/serve.mjs';
import { createParallelWorld } from '../parallel.js';
import { loadSlabcast } from '../slabcast.js';
import { loadBenchScene } from './bench-scene.mjs';
import { floorRows, formatFloorRows } from './floor.mjs';
import { isMain } from './is-main.mjs';

const CHROMIUM = '/usr/bin/chromium';

async function chromiumRows(scenes, rounds) {
  if (!existsSync(CHROMIUM)) return [];
  const { chromium } = await import('playwright-core');
  const server = createStaticServer({ root: fileURLToPath(new URL('..', import.meta.url)) });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  const rows = [];
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/bench/parallel-floor.html`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
    for (const { boxes, rays } of scenes) {
      rows.push(await page.evaluate(async ({ boxes, rays, rounds }) => {
        const f = window.slabcastFloor;
        return f.floorRows({ createParallelWorld: f.createParallelWorld, sc: f.sc, boxes: new Float32Array(boxes), rays: new Float32Array(rays),
          rounds, env: `Chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? ''}` });
      }, { boxes: Array.from(boxes), rays: Array.from(rays), rounds }));
    }
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
  return rows;
}

export async function runFloor({ browser = true, rounds = 8, log = console.log } = {}) {
  const sc = await loadSlabcast();
  const benchScene = await loadBenchScene();
  const scenes = [10000, 100000].map((n) => benchScene(n, 256));
  const rows = [];
  for (const { boxes, rays } of scenes) rows.push(await floorRows({ createParallelWorld, sc, boxes, rays, rounds, env: `Node ${process.version}` }));
  if (browser) rows.push(...await chromiumRows(scenes, rounds));
  log(`\nslabcast/parallel: one call of 256 rays, µs, best of ${rounds} interleaved windows ` +
    `(load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ${os.availableParallelism?.() ?? os.cpus().length} cores):\n`);
  log(formatFloorRows(rows));
  return rows;
}

if (isMain(import.meta.url)) {
  const at = process.argv.indexOf('--rounds');
  await runFloor({ browser: !process.argv.includes('--no-browser'), rounds: at > 0 ? Number(process.argv[at + 1]) : 8 });
}
