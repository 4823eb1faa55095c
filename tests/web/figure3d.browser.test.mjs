// slabcast/figure's 3D view (options.view: '3d') in headless Chromium (SwiftShader WebGL),
// on tests/web/fixtures/figure3d.html: a 3D figure draws the ray and the box (the canvas is
// not blank); its readouts and goal are the 2D figure's for the same scene; a miss is
// dashed as in 2D; the wheel scrolls the page until the reader clicks in; destroy() frees
// the renderer and leaves no canvas; without three.js the figure shows a message in place;
// and a page of 2D figures never requests three.js (nor the 3D view's module).
import { describe, expect, it } from 'vitest';
import { openPage } from './helpers/browser.mjs';
import { useFigureBrowser } from './helpers/figure-browser.mjs';

const PAGE = '/tests/web/fixtures/figure3d.html';
const ctx = useFigureBrowser();

async function show(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await page.waitForSelector(`#${id}[data-figure="ready"]`, { timeout: 30_000 });
}

/** Pixels of figure id's canvas near the color [r, g, b] (within 40 per channel), and all pixels. */
const countColor = (page, id, rgb) => page.evaluate(([sel, [r, g, b]]) => {
  const src = document.querySelector(sel);
  const c = document.createElement('canvas');
  c.width = src.width;
  c.height = src.height;
  const ctx = c.getContext('2d');
  ctx.drawImage(src, 0, 0);
  const d = ctx.getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - r) < 40 && Math.abs(d[i + 1] - g) < 40 && Math.abs(d[i + 2] - b) < 40) n++;
  return { n, all: d.length / 4 };
}, [`#${id} canvas.fig-canvas`, rgb]);

const RAY = [0x70, 0x48, 0xe8]; // COLORS.ray, #7048e8
const BOX = [0x49, 0x50, 0x57]; // COLORS.box, #495057

describe('slabcast/figure, view 3d', () => {
  it('draws the ray and the box; its readouts and goal are the 2D figure\'s; a miss is dashed', async () => {
    const { page, problems } = await openPage(ctx.browser, `${ctx.base}${PAGE}`);
    try {
      await show(page, 'fig2d');
      await show(page, 'fig3d');
      expect(await page.locator('#fig3d svg.fig-svg').count()).toBe(0);
      expect(await page.locator('#fig3d [data-handle]').count()).toBe(0);
      const ray = await countColor(page, 'fig3d', RAY);
      const boxPx = await countColor(page, 'fig3d', BOX);
      expect(ray.n).toBeGreaterThan(100);
      expect(boxPx.n).toBeGreaterThan(100);
      expect(ray.n).toBeLessThan(ray.all / 4);
      const values = await page.evaluate(() => [window.figs.fig2d.values, window.figs.fig3d.values]);
      // Box [-1, 1]^3, origin (-3, -2, -1), dir (1, 1, 0.5): x gives [2, 4], y [1, 3], z [0, 4]:
      // it enters at max(2, 1, 0) = 2 (through x = -1) and leaves at min(4, 3, 4) = 3 (through y = 1).
      expect(values[1]).toMatchObject({ hit: true, t_enter: 2, t_exit: 3, tx_enter: 2, ty_exit: 3, tz_enter: 0, enter_axis: 'x', exit_axis: 'y' });
      expect(values[1]).toEqual(values[0]);
      const texts = (sel) => page.$$eval(`${sel} output[data-figure-value]`, (os) => os.map((o) => o.textContent));
      expect(await texts('#s3d')).toEqual(['2', '3', 'hit']);
      expect((await texts('#s3d')).slice(0, 2)).toEqual(await texts('#s2d'));
      expect(await page.getAttribute('#fig3d .slabcast-figure', 'data-goal')).toBe('reached');
      expect(await page.getAttribute('#fig3d canvas.fig-canvas', 'data-ray')).toBe('solid');
      // The panel (readout and legend) is the 2D figure's.
      expect(await page.textContent('#fig3d .fig-panel')).toBe(await page.textContent('#fig2d .fig-panel'));

      await show(page, 'fig3dmiss');
      expect(await page.evaluate(() => window.figs.fig3dmiss.values.hit)).toBe(false);
      expect(await page.getAttribute('#fig3dmiss canvas.fig-canvas', 'data-ray')).toBe('dashed');
      expect((await countColor(page, 'fig3dmiss', RAY)).n).toBeGreaterThan(30);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('lets the wheel scroll the page until the reader clicks in; then a drag turns the view', async () => {
    const { page, problems } = await openPage(ctx.browser, `${ctx.base}${PAGE}`);
    try {
      await show(page, 'fig3d');
      const canvas = page.locator('#fig3d canvas.fig-canvas');
      const b = await canvas.boundingBox();
      const cx = b.x + b.width / 2;
      const cy = b.y + b.height / 2;
      const y0 = await page.evaluate(() => scrollY);
      await page.mouse.move(cx, cy);
      await page.mouse.wheel(0, 200);
      await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(y0);
      const pixels = () => page.evaluate(() => document.querySelector('#fig3d canvas.fig-canvas').toDataURL());
      // A drag before a click turns nothing.
      const before = await pixels();
      const b2 = await canvas.boundingBox();
      await page.mouse.move(b2.x + b2.width / 2, b2.y + b2.height / 2);
      await page.mouse.down();
      await page.mouse.move(b2.x + b2.width / 2 + 60, b2.y + b2.height / 2, { steps: 4 });
      await page.mouse.up();
      expect(await pixels()).toBe(before);
      // Clicked in: a drag turns the camera, and the wheel zooms instead of scrolling.
      expect(await page.getAttribute('#fig3d .slabcast-figure', 'data-active')).toBe('true');
      await page.mouse.down();
      await page.mouse.move(b2.x + b2.width / 2 - 40, b2.y + b2.height / 2 + 20, { steps: 4 });
      await page.mouse.up();
      const turned = await pixels();
      expect(turned).not.toBe(before);
      const y1 = await page.evaluate(() => scrollY);
      await page.mouse.wheel(0, 200);
      await page.waitForTimeout(200);
      expect(await page.evaluate(() => scrollY)).toBe(y1);
      expect(await pixels()).not.toBe(turned);
      // The readouts did not change: looking is not editing.
      expect(await page.evaluate(() => window.figs.fig3d.values.t_enter)).toBe(2);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('destroy() frees the renderer: the WebGL context is lost and no canvas is left', async () => {
    const { page, problems } = await openPage(ctx.browser, `${ctx.base}${PAGE}`);
    try {
      await show(page, 'fig3d');
      const after = await page.evaluate(() => {
        const canvas = document.querySelector('#fig3d canvas.fig-canvas');
        const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
        const lostBefore = gl.isContextLost();
        window.figs.fig3d.destroy();
        return { lostBefore, lost: gl.isContextLost(), connected: canvas.isConnected, canvases: document.querySelectorAll('#fig3d canvas').length, attr: document.querySelector('#fig3d').getAttribute('data-figure') };
      });
      expect(after).toEqual({ lostBefore: false, lost: true, connected: false, canvases: 0, attr: null });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows a readable message in place when three.js cannot be loaded', async () => {
    const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.route('**/node_modules/three/**', (route) => route.abort());
      await page.goto(`${ctx.base}${PAGE}`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.locator('#fig3d').scrollIntoViewIfNeeded();
      const msg = page.locator('#fig3d .slabcast-figure-error');
      await msg.waitFor({ timeout: 30_000 });
      expect(await msg.textContent()).toMatch(/^This figure cannot be shown: mountFigure: the 3D view could not start \(it needs three\.js/);
      expect(await page.locator('#fig3d canvas').count()).toBe(0);
      // The 2D figure of the same page is unaffected.
      await show(page, 'fig2d');
    } finally {
      await page.close();
    }
  });

  it('a page of 2D figures requests neither three.js nor the 3D view', async () => {
    const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const urls = [];
    page.on('request', (r) => urls.push(r.url()));
    try {
      await page.goto(`${ctx.base}${PAGE}?only=2d`);
      await page.waitForSelector('body[data-ready="true"]');
      await show(page, 'fig2d');
      await page.mouse.wheel(0, 3000);
      await page.waitForTimeout(300);
      expect(urls.some((u) => u.endsWith('/web/figure.js'))).toBe(true);
      expect(urls.filter((u) => /three|view3d/.test(u))).toEqual([]);
      // The same page with its 3D figures does request them (the check above can fail).
      const urls3d = [];
      page.on('request', (r) => urls3d.push(r.url()));
      await page.goto(`${ctx.base}${PAGE}`);
      await show(page, 'fig3d');
      expect(urls3d.some((u) => u.endsWith('/web/figure/view3d.js'))).toBe(true);
      expect(urls3d.some((u) => u.endsWith('/node_modules/three/build/three.module.js'))).toBe(true);
    } finally {
      await page.close();
    }
  });
});
