// What every browser test shares: Debian's Chromium through playwright-core (nothing is
// downloaded; SwiftShader gives headless WebGL2), a server listening on a free local port, and a
// page that records console errors and page errors and is waited on until the page says it is
// ready (<body data-ready="true">).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, headless, with software WebGL. */
export async function launchChromium() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });
}

/** Starts server on a free port of 127.0.0.1; resolves with its base URL (no trailing slash). */
export async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

/** Stops a server started by listen (nothing when it was never made). */
export function close(server) {
  return server ? new Promise((resolve) => server.close(resolve)) : Promise.resolve();
}

/**
 * A new page of browser at url (pageOptions as browser.newPage's; 1280x800 unless given), with
 * problems: the console errors and page errors it reports, and dialogs: the messages of the
 * dialogs it opened (each dismissed). ready: wait for <body data-ready="true"> (timeout ms).
 */
export async function openPage(browser, url, { ready = true, timeout = 30_000, ...pageOptions } = {}) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, ...pageOptions });
  const problems = [];
  const dialogs = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  await page.goto(url);
  if (ready) await page.waitForSelector('body[data-ready="true"]', { timeout });
  return { page, problems, dialogs };
}
