#!/usr/bin/env node
// Screenshots of the playable demo (web/demo/, docs/game-dev.md "The demo") at 1280x800 and
// 390x844, from the built site (dist/site/demo/): the character in the plaza after a few seconds
// of walking, with a picked object highlighted. Run after `npm run build` and
// `npm run build:site`:
//   node scripts/demo-screenshots.mjs
// Uses Debian's /usr/bin/chromium (SwiftShader WebGL) through playwright-core; writes
// docs/screenshots/demo-1280x800.png and demo-390x844.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createStaticServer } from '../web/bin/serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = path.join(ROOT, 'docs/screenshots');

const server = createStaticServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
});
try {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const page = await browser.newPage({ viewport: { width, height } });
    page.on('pageerror', (e) => console.error(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') console.error(`console: ${m.text()}`); });
    await page.goto(`${base}/demo/`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
    await page.evaluate(() => {
      const d = window.__demo;
      d.pause();
      // warm up (the first frames compile the code), then start the HUD's average afresh
      d.teleport(-4, 1, -2);
      for (let i = 0; i < 240; i++) d.step(1 / 60, { x: Math.sin(i / 30), z: Math.cos(i / 30) });
      d.pick(0.5, 0.5);
      d.render();
      d.teleport(2, 1, 3);
      d.view(-0.9, 0.32);
      // walk towards the crate for a second, then pick the wall beside the view's centre
      for (let i = 0; i < 60; i++) d.step(1 / 60, { x: 0.45, z: 0.6 });
      for (let i = 0; i < 30; i++) d.step(1 / 60);
    });
    await page.mouse.click(Math.round(width * 0.62), Math.round(height * 0.45));
    await page.evaluate(() => { window.__demo.step(1 / 60); window.__demo.render(); });
    const name = `demo-${width}x${height}.png`;
    await page.screenshot({ path: path.join(DOCS, name) });
    console.log(`wrote docs/screenshots/${name}`);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
