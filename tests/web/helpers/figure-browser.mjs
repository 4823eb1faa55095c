// The set-up the slabcast/figure browser tests share: the figure server (figure-server.mjs) on a
// free port and Debian's Chromium, started before a file's tests and closed after them.
import { afterAll, beforeAll } from 'vitest';
import { WASM, requireBuilt } from './artifacts.mjs';
import { close, launchChromium, listen } from './browser.mjs';
import { createFigureServer } from './figure-server.mjs';

/** Registers the hooks; returns { base, browser }, filled once beforeAll has run. */
export function useFigureBrowser() {
  const ctx = { server: null, base: '', browser: null };
  beforeAll(async () => {
    requireBuilt(WASM);
    ctx.server = createFigureServer();
    ctx.base = await listen(ctx.server);
    ctx.browser = await launchChromium();
  });
  afterAll(async () => {
    await ctx.browser?.close();
    await close(ctx.server);
  });
  return ctx;
}
