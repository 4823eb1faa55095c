#!/usr/bin/env node
// Screenshots of the playground for docs/playground.md: the default scene at 1280x800 and
// 390x844, and the 2D top view at a tutorial step. Run after `npm run build` and
// `npm run build:site` (it serves the built site, dist/site):
//   node scripts/playground-screenshots.mjs
// Uses Debian's /usr/bin/chromium (SwiftShader WebGL) through playwright-core; writes
// docs/screenshots/playground-1280x800.png, playground-390x844.png, playground-2d-top.png (and
// -390x844), and ?embed at 640x420 (playground-embed-640x420.png, -embed-panels-).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createStaticServer } from '../web/bin/serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = path.join(ROOT, 'docs/screenshots');

const server = createStaticServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
});
try {
  const shots = [
    ['playground-1280x800.png', 1280, 800, null],
    ['playground-390x844.png', 390, 844, null],
    ['playground-2d-top.png', 1280, 800, async (page) => {
      await page.getByTestId('view-top').click();
      for (let k = 0; k < 2; k++) await page.getByTestId('slab-next').click();
    }],
    ['playground-2d-top-390x844.png', 390, 844, async (page) => {
      await page.getByTestId('view-top').click();
      for (let k = 0; k < 2; k++) await page.getByTestId('slab-next').click();
    }],
    // As an author embeds it: ?embed at 640x420, with and without panels=.
    ['playground-embed-640x420.png', 640, 420, null, '?embed&view=top'],
    ['playground-embed-panels-640x420.png', 640, 420, null, '?embed&view=top&panels='],
  ];
  for (const [name, width, height, prepare, query = ''] of shots) {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.goto(`${base}${query}`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
    if (prepare) await prepare(page);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(DOCS, name) });
    await page.close();
    console.log(`wrote docs/screenshots/${name}`);
  }
} finally {
  await browser.close();
  server.close();
}
