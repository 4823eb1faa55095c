#!/usr/bin/env node
// Screenshots of slabcast/figure for docs/figure.md, each figure on its own, at 1280x800 and
// 390x844: the test page with three figures (tests/web/fixtures/figures.html), the odd sizes
// (figure-sizes.html) and the lesson (docs/tutorial.html), or the pages given (paths served
// from the repository). Run after `npm run build` (it needs web/slabcast.wasm):
//   node scripts/figure-screenshots.mjs [page ...]
// Uses Debian's /usr/bin/chromium through playwright-core; writes docs/screenshots/figure-*.png.
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, createFigureServer } from '../tests/web/helpers/figure-server.mjs';

const DOCS = path.join(ROOT, 'docs/screenshots');
const pages = process.argv.slice(2).length ? process.argv.slice(2)
  : ['/tests/web/fixtures/figures.html', '/tests/web/fixtures/figure-sizes.html', '/tests/web/fixtures/figure3d.html', '/docs/tutorial.html'];
const server = createFigureServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'] });
try {
  for (const url of pages) {
    const stem = path.basename(url, '.html');
    // The odd-sizes page sets its elements' sizes itself: one viewport is enough.
    const viewports = stem === 'figure-sizes' ? [[1280, 800]] : [[1280, 800], [390, 844]];
    for (const [width, height] of viewports) {
      const page = await browser.newPage({ viewport: { width, height } });
      page.on('pageerror', (e) => console.error(`pageerror: ${e.message}`));
      page.on('console', (m) => { if (m.type() === 'error') console.error(`console: ${m.text()}`); });
      await page.goto(`${base}${url}`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
      const ids = await page.$$eval('[data-figure]', (els) => els.map((e) => e.id));
      for (const id of ids) {
        const el = page.locator(`#${id}`);
        await el.scrollIntoViewIfNeeded();
        await page.waitForSelector(`#${id}[data-figure="ready"]`, { timeout: 30_000 });
        const name = `figure-${stem}-${id}-${width}x${height}.png`;
        await el.screenshot({ path: path.join(DOCS, name) });
        console.log(`wrote docs/screenshots/${name}`);
      }
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
