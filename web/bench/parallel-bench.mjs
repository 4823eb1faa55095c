#!/usr/bin/env node
// The parallel world's benchmark (slabcast/parallel, docs/parallel.md): castRays on 1, 2 and 4
// workers, 10k and 100k boxes of the seeded bench scene (tools/bench_scene.h), 64k rays per
// call, both memory modes, in Node and in Chromium (web/bench/parallel.html served by
// web/bin/serve.mjs, cross-origin isolated for shared memory, plain for copied). Part of
// `npm run bench`; alone: node web/bench/parallel-bench.mjs [--no-browser]
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createStaticServer } from '../bin/serve.mjs';
import { createParallelWorld } from '../parallel.js';
import { loadSlabcast } from '../slabcast.js';
import { loadBenchScene } from './bench-scene.mjs';
import { formatListRows, formatParallelRows, listRows, parallelRows } from './parallel.mjs';
import { isMain } from './is-main.mjs';

const CHROMIUM = '/usr/bin/chromium';
const SIZES = [10000, 100000];
const RAYS = 65536;
const WORKERS = [1, 2, 4];

async function chromiumRows(scenes, log) {
  if (!existsSync(CHROMIUM)) {
    log(`Chromium: ${CHROMIUM} is missing; left out`);
    return [];
  }
  const { chromium } = await import('playwright-core');
  // the bench page and the library's modules as they are (web/), not the built site
  const server = createStaticServer({ root: fileURLToPath(new URL('..', import.meta.url)) });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'] });
  const rows = [];
  try {
    for (const [prefix, mode] of [['/isolated', 'shared'], ['', 'copied']]) {
      const page = await browser.newPage();
      await page.goto(`${base}${prefix}/bench/parallel.html`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
      for (const { boxes, rays } of scenes) {
        const r = await page.evaluate(async ({ boxes, rays, mode, workers }) => {
          const b = window.slabcastBench;
          return b.parallelRows({
            createParallelWorld: b.createParallelWorld, sc: b.sc, boxes: new Float32Array(boxes), rays: new Float32Array(rays),
            workers, modes: [mode], env: `Chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? ''}`,
          });
        }, { boxes: Array.from(boxes), rays: Array.from(rays), mode, workers: WORKERS });
        rows.push(...r);
      }
      await page.close();
    }
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
  return rows;
}

/** Runs the benchmark and prints its tables; returns the rows. */
export async function runParallelBench({ browser = true, log = console.log } = {}) {
  const sc = await loadSlabcast();
  const benchScene = await loadBenchScene();
  const scenes = SIZES.map((n) => benchScene(n, RAYS));
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const rows = [];
  for (const { boxes, rays } of scenes) {
    rows.push(...await parallelRows({
      createParallelWorld, sc, boxes, rays, workers: WORKERS, modes: ['shared', 'copied'], env: `Node ${process.version}`,
    }));
  }
  if (browser) rows.push(...await chromiumRows(scenes, log));
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  log(`\nslabcast/parallel: castRays on workers (${cores} cores; load average ${load}; ${os.cpus()[0]?.model ?? ''}):\n`);
  log(formatParallelRows(rows, cores));
  // closestObjects, castRayAll and overlaps on workers (Node, 10k boxes)
  const lists = await listRows({ createParallelWorld, sc, ...scenes[0], modes: ['shared', 'copied'], env: `Node ${process.version}` });
  log('\nslabcast/parallel: closestObjects, castRayAll and overlapSpheres on 2 workers, beside the World on this thread:\n');
  log(formatListRows(lists));
  return rows;
}

if (isMain(import.meta.url)) await runParallelBench({ browser: !process.argv.includes('--no-browser') });
