// The playground's views and controls in headless Chromium (issue 15, part B): the 2D slab
// view (bands and intervals against numbers worked out by hand), the step-through (counter,
// verdict last, steps on screen), typed coordinates (the store holds their float32),
// undo / redo, keyboard handles, the phone and tablet layouts (nothing overlapping, no
// widening after a drag) and the contrast of every visible text.
//
// Expected values are worked out by hand from defaultState() (web/playground/scene.mjs):
//   ray 0: origin [-6, 2, 0], dir [1, -0.5, 0];  box 0: min [-3, -1, -1], max [-1, 1, 1].
//   x slab: x = -6 + t reaches -3 at t = 3 and -1 at t = 5          -> [3, 5]
//   y slab: y = 2 - 0.5 t reaches 1 at t = 2 and -1 at t = 6         -> [2, 6]
//   z slab: dir z = 0 and origin z = 0 lies in [-1, 1]: parallel    -> (-inf, inf)
//   overlap [max(3, 2), min(5, 6)] = [3, 5]: a hit at t = 3.
// Uses Debian's /usr/bin/chromium (SwiftShader WebGL); nothing is downloaded.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticServer } from '../../web/bin/serve.mjs';
import { defaultState, sameState } from '../../web/playground/state.mjs';
import { ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';
import { close, launchChromium, listen, openPage as openBrowserPage } from './helpers/browser.mjs';
import { requireSite } from './helpers/site.mjs';

const SHOTS = path.join(ROOT, 'test-results/playground');

let server;
let base;
let browser;

beforeAll(async () => {
  requireBuilt(WASM);
  requireSite(); // the built site (dist/site), as npm start serves it
  mkdirSync(SHOTS, { recursive: true });
  server = createStaticServer();
  base = `${await listen(server)}/`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await close(server);
});

function openPage({ width = 1280, height = 800, hash = '', touch = false } = {}) {
  return openBrowserPage(browser, base + hash, { viewport: { width, height }, hasTouch: touch, isMobile: touch });
}

const state = (page) => page.evaluate(() => window.playground.state());
const shot = (page, name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

async function mouseDrag(page, x0, y0, dx, dy, steps = 6) {
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (let k = 1; k <= steps; k++) await page.mouse.move(x0 + (dx * k) / steps, y0 + (dy * k) / steps);
  await page.mouse.up();
}

/** The attributes of the 2D view's bands, faces and segments, by test id. */
function view2d(page) {
  return page.evaluate(() => {
    const out = {};
    for (const e of document.querySelectorAll('[data-testid="view2d"] [data-testid]')) {
      const d = e.dataset;
      out[d.testid] = {
        lo: d.lo, hi: d.hi, t0: d.t0, t1: d.t1, px: d.px,
        x1: Number(e.getAttribute('x1')), y1: Number(e.getAttribute('y1')),
        x2: Number(e.getAttribute('x2')), y2: Number(e.getAttribute('y2')),
      };
    }
    return out;
  });
}

/** Centre (client px) of the 2D element matching `selector`. */
async function centre(page, selector) {
  const b = await page.locator(selector).boundingBox();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

const boxOf = (page, selector) => page.locator(selector).first().boundingBox();
const disjoint = (a, b) => a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5 || a.y + a.height <= b.y + 0.5 || b.y + b.height <= a.y + 0.5;
const inside = (a, b) => a.x >= b.x - 0.5 && a.y >= b.y - 0.5 && a.x + a.width <= b.x + b.width + 0.5 && a.y + a.height <= b.y + b.height + 0.5;

describe('2D slab view', () => {
  it('front view: the bands and the intervals along ray 0 are the hand-computed ones, on the right pixels', async () => {
    const { page, problems } = await openPage();
    try {
      await page.getByTestId('view-front').click();
      expect(await page.getByTestId('view2d').isVisible()).toBe(true);
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('#stage canvas')).visibility)).toBe('hidden');
      const v = await view2d(page);
      // Looking down -z: the x and y slabs are seen edge-on, the z slab is not drawn.
      expect([v['band-x'].lo, v['band-x'].hi]).toEqual(['-3', '-1']);
      expect([v['band-y'].lo, v['band-y'].hi]).toEqual(['-1', '1']);
      expect(v['band-z']).toBeUndefined();
      expect([v['seg-x'].t0, v['seg-x'].t1]).toEqual(['3', '5']);
      expect([v['seg-y'].t0, v['seg-y'].t1]).toEqual(['2', '6']);
      expect([v['seg-z'].t0, v['seg-z'].t1]).toEqual(['-Infinity', 'Infinity']);
      expect([v['seg-overlap'].t0, v['seg-overlap'].t1]).toEqual(['3', '5']);
      // The z interval (−∞, ∞) (ray 0 has dir z = 0, origin z = 0 inside [-1, 1]) runs out of
      // view at both ends: it fades there and ends in chevrons, so it does not read as a ray;
      // the finite x and y intervals do not. In the interval chart, its row does the same.
      const bars = await page.evaluate(() => {
        const q = (sel) => document.querySelector(`[data-testid="view2d"] ${sel}`);
        const seg = (ax) => q(`[data-testid="seg-${ax}"]`);
        const fade = (line) => {
          const m = /^url\(#(.+)\)$/.exec(line.getAttribute('stroke') ?? '');
          const grad = m && document.getElementById(m[1]);
          return grad ? [...grad.querySelectorAll('stop')].map((st) => Number(st.getAttribute('stop-opacity'))) : null;
        };
        const chevrons = (sel, attr) => [...document.querySelectorAll(`${sel} polyline.seg-more[data-for="${attr}"]`)].map((e) => e.dataset.end).sort();
        const row = document.querySelector('.slab-chart line[data-row="z"]');
        return {
          z: { cut: seg('z').dataset.cut, fade: fade(seg('z')), chevrons: chevrons('[data-testid="view2d"]', 'seg-z') },
          x: { cut: seg('x').dataset.cut ?? null, fade: fade(seg('x')), chevrons: chevrons('[data-testid="view2d"]', 'seg-x') },
          chartZ: { cut: row.dataset.cut, fade: fade(row), chevrons: chevrons('.slab-chart', 'z') },
          chartX: { cut: document.querySelector('.slab-chart line[data-row="x"]').dataset.cut ?? null, chevrons: chevrons('.slab-chart', 'x') },
        };
      });
      expect(bars.z).toEqual({ cut: 'start end', fade: [0.15, 1, 1, 0.15], chevrons: ['end', 'start'] });
      expect(bars.x).toEqual({ cut: null, fade: null, chevrons: [] });
      expect(bars.chartZ).toEqual({ cut: 'start end', fade: [0.15, 1, 1, 0.15], chevrons: ['end', 'start'] });
      expect(bars.chartX).toEqual({ cut: null, chevrons: [] });
      // Geometry: the x interval starts on the x = -3 face and ends on the x = -1 face (the
      // ray crosses them there); the y interval runs from the y = 1 face to the y = -1 face.
      const px = (id) => v[id].px.split(',').map(Number);
      expect(v['seg-x'].x1).toBeCloseTo(px('face-x-min')[0], 3);
      expect(v['seg-x'].x2).toBeCloseTo(px('face-x-max')[0], 3);
      expect(v['seg-y'].y1).toBeCloseTo(px('face-y-max')[1], 3);
      expect(v['seg-y'].y2).toBeCloseTo(px('face-y-min')[1], 3);
      // Screen x grows with world x, screen y shrinks with world y (front view, y up).
      expect(px('face-x-max')[0]).toBeGreaterThan(px('face-x-min')[0]);
      expect(px('face-y-max')[1]).toBeLessThan(px('face-y-min')[1]);
      // One world unit is `scale` pixels: the x slab is 2 wide.
      const scale = Number(await page.getByTestId('view2d').getAttribute('data-scale'));
      expect(px('face-x-max')[0] - px('face-x-min')[0]).toBeCloseTo(2 * scale, 3);
      await shot(page, '10-view2d-front');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('dragging the origin in the top view moves it in x and z only; the intervals follow, live', async () => {
    const { page, problems } = await openPage();
    try {
      await page.getByTestId('view-top').click();
      const v0 = await view2d(page);
      // Top view: x and z slabs are bands; y is not drawn.
      expect([v0['band-x'].lo, v0['band-x'].hi, v0['band-z'].lo, v0['band-z'].hi]).toEqual(['-3', '-1', '-1', '1']);
      expect(v0['band-y']).toBeUndefined();
      const scale = Number(await page.getByTestId('view2d').getAttribute('data-scale'));
      const o = await centre(page, '[data-handle="ray0-origin"]');
      await page.mouse.move(o.x, o.y);
      await page.mouse.down();
      await page.mouse.move(o.x + 20, o.y + 10);
      await page.mouse.move(o.x + 40, o.y + 20);
      const mid = await state(page); // live, before the button is released
      await page.mouse.up();
      const s = await state(page);
      expect(mid.rays[0].origin).toEqual(s.rays[0].origin);
      // 40 px right is +40/scale in x, 20 px down is +20/scale in z (top view: z grows downward); y stays.
      expect(s.rays[0].origin[0]).toBeCloseTo(-6 + 40 / scale, 1);
      expect(s.rays[0].origin[2]).toBeCloseTo(20 / scale, 1);
      expect(s.rays[0].origin[1]).toBe(2);
      expect(s.rays[0].dir).toEqual([1, -0.5, 0]);
      // x slab: t = (-3 - ox) / 1 and (-1 - ox) / 1, rounded to float32 once.
      const ox = s.rays[0].origin[0];
      const f = Math.fround;
      const v = await view2d(page);
      expect([Number(v['seg-x'].t0), Number(v['seg-x'].t1)]).toEqual([f(-3 - ox), f(-1 - ox)]);
      // z is still parallel (dir z = 0); the origin's z is inside [-1, 1] or not.
      const oz = s.rays[0].origin[2];
      if (oz >= -1 && oz <= 1) expect([v['seg-z'].t0, v['seg-z'].t1]).toEqual(['-Infinity', 'Infinity']);
      else expect(v['seg-z']).toBeUndefined();
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('a 2D drag moves a handle by the pointer\u2019s motion (the grab offset is kept), a 1 px drag registers, and handles() gives the 2D handles', async () => {
    const { page, problems } = await openPage();
    try {
      await page.getByTestId('view-top').click();
      const scale = Number(await page.getByTestId('view2d').getAttribute('data-scale'));
      const o = await centre(page, '[data-handle="ray0-origin"]');
      // window.playground.handles() in a 2D view: the drawn handle's centre, grabbable.
      const h = (await page.evaluate(() => window.playground.handles())).find((x) => x.id === 'ray0-origin');
      expect(h).toMatchObject({ grabbable: true, onScreen: true });
      expect(h.x).toBeCloseTo(o.x, 1);
      expect(h.y).toBeCloseTo(o.y, 1);
      const before = (await state(page)).rays[0].origin;
      // Press 4 px right of and 3 px below the centre, move 20 px right: the origin moves by
      // 20 px of x (20 / scale), not to the pointer; z (screen y in the top view) stays.
      await page.mouse.move(o.x + 4, o.y + 3);
      await page.mouse.down();
      await page.mouse.move(o.x + 14, o.y + 3);
      await page.mouse.move(o.x + 24, o.y + 3);
      await page.mouse.up();
      const after = (await state(page)).rays[0].origin;
      expect(after[0]).toBeCloseTo(before[0] + 20 / scale, 4);
      expect(after[2]).toBe(before[2]);
      expect(after[1]).toBe(before[1]);
      // A 1 px drag registers: 1 / scale in x.
      const o2 = await centre(page, '[data-handle="ray0-origin"]');
      await page.mouse.move(o2.x, o2.y);
      await page.mouse.down();
      await page.mouse.move(o2.x + 1, o2.y);
      await page.mouse.up();
      const one = (await state(page)).rays[0].origin;
      expect(one[0]).toBeCloseTo(after[0] + 1 / scale, 4);
      expect(one[0]).not.toBe(after[0]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('dragging a box face in the top view moves that face only (snapped to the grid when snapping is on)', async () => {
    const { page, problems } = await openPage();
    try {
      await page.getByTestId('snap-on').check();
      await page.getByTestId('snap-size').selectOption('0.5');
      await page.getByTestId('view-top').click();
      const v = await view2d(page);
      const [fx, fy] = v['face-x-max'].px.split(',').map(Number);
      const r = await page.getByTestId('view2d').boundingBox();
      const scale = Number(await page.getByTestId('view2d').getAttribute('data-scale'));
      // A point on the x = -1 face line, 30 px below the face centre's screen y (inside the view).
      await mouseDrag(page, r.x + fx, r.y + Math.min(fy + 30, r.height - 150), 1.6 * scale, 0);
      const s = await state(page);
      expect(s.shapes[0].max).toEqual([0.5, 1, 1]); // -1 + 1.6 = 0.6, snapped to the 0.5 grid
      expect(s.shapes[0].min).toEqual([-3, -1, -1]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('the step-through', () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    it(`counts k / 7, keeps the verdict for the last step and stays on screen at ${width}x${height}`, async () => {
      const { page, problems } = await openPage({ width, height });
      try {
        expect(await page.getByTestId('slab-count').textContent()).toBe('7 steps');
        for (let k = 1; k <= 7; k++) {
          await page.getByTestId('slab-next').click();
          expect(await page.getByTestId('slab-count').textContent()).toBe(`${k} / 7`);
          expect(await page.getByTestId('slab-step').textContent()).toMatch(new RegExp(`^Step ${k} of 7: `));
          expect(await page.locator('[data-testid="slab-verdict"]').count()).toBe(k === 7 ? 1 : 0);
          // The step box, its text and its buttons are inside the window without scrolling.
          expect(await page.evaluate(() => window.scrollY)).toBe(0);
          const b = await boxOf(page, '[data-testid="slab-stepper"]');
          expect(b.y).toBeGreaterThanOrEqual(0);
          expect(b.y + b.height).toBeLessThanOrEqual(height);
          expect(b.x + b.width).toBeLessThanOrEqual(width);
        }
        expect(await page.evaluate(() => document.querySelector('[data-testid="slab-verdict"]').dataset.verdict)).toBe('hit');
        expect(await page.getByTestId('slab-next').isDisabled()).toBe(true);
        if (width === 390) await shot(page, '11-steps-phone');
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }

  it('flags a parallel ray outside a slab at its step, and the summary says it misses because of that', async () => {
    const { page, problems } = await openPage();
    try {
      // Ray 1 (origin [-6, 1, 0], dir [1, 0, 0]) against box 1 (min [1, -1, -1], max [3, 0, 1]):
      // y is always 1, outside [-1, 0]: never inside the y slab.
      await page.getByTestId('slab-ray').selectOption('1');
      await page.getByTestId('slab-shape').selectOption('1');
      for (let k = 1; k <= 3; k++) await page.getByTestId('slab-next').click();
      expect(await page.getByTestId('slab-step').textContent()).toMatch(/^Step 3 of 7: the y slab/);
      expect(await page.getByTestId('slab-step-flags').locator('[data-flag]').evaluateAll((els) => els.map((e) => e.dataset.flag))).toEqual(['parallel']);
      await page.getByTestId('slab-next').click();
      await page.getByTestId('slab-next').click();
      expect(await page.getByTestId('slab-enter').textContent()).toBe('none: the ray misses, because it is parallel to the y slab and outside it');
      await page.getByTestId('slab-next').click();
      await page.getByTestId('slab-next').click();
      expect(await page.getByTestId('slab-verdict').getAttribute('data-verdict')).toBe('miss');
      expect(await page.getByTestId('slab-verdict').textContent()).toContain('parallel to a slab and outside it');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('teaching views (issue 23)', () => {
  it('before step 1 the chart shows the overlap with t_enter and t_exit ticks; the 2D view has a legend and draws a miss dashed; 3D labels do not overlap', async () => {
    const { page, problems } = await openPage();
    try {
      // Default scene: ray 0 from (-6, 2, 0) along (1, -0.5, 0) meets box 0 (x in [-3, -1]) on [3, 5]
      // (x: (-3 + 6) / 1 = 3, (-1 + 6) / 1 = 5; y: (1 - 2) / -0.5 = 2, (-1 - 2) / -0.5 = 6).
      const chart = await page.evaluate(() => {
        const svg = document.querySelector('.slab-chart');
        const ticks = Object.fromEntries([...svg.querySelectorAll('[data-tick]')].map((e) => [e.dataset.tick, e.textContent]));
        const rowY = 6 + 3 * 17 + 17 / 2; // the "all 3" row (tutorial-chart.js: TOP + 3 ROW_H + ROW_H / 2)
        const overlap = [...svg.querySelectorAll('line')].filter((l) => Number(l.getAttribute('y1')) === rowY && l.getAttribute('stroke') === '#1f2933').length;
        return { ticks, overlap, count: document.querySelector('[data-testid="slab-count"]').textContent };
      });
      expect(chart.count).toBe('7 steps');
      expect(chart.overlap).toBe(1);
      expect(chart.ticks).toMatchObject({ t_enter: 't_enter = 3', t_exit: 't_exit = 5' });

      // The 2D view explains its colours.
      await page.getByTestId('view-top').click();
      const legend = await page.evaluate(() => [...document.querySelectorAll('[data-testid="legend2d"] text')].map((e) => e.textContent));
      expect(legend).toEqual(['x slab: t inside it', 'y slab: t inside it', 'z slab: t inside it', 'all 3: [t_enter, t_exit]', 'dashed: misses / past hit']);
      const visible = await page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="legend2d"]')).display !== 'none');
      expect(visible).toBe(true);
      // Ray 0 aimed up (dir y = +0.5): from y = 2 it rises away from the boxes, the sphere and
      // the floor y = -1, so it misses everything; its 2D line is dashed, like the 3D one.
      const dirY = page.getByTestId('inspect-ray-dir-1');
      await dirY.fill('0.5');
      await dirY.press('Enter');
      expect((await page.evaluate(() => window.playground.hits()))[0].hit).toBe(false);
      const line = await page.evaluate(() => {
        const l = document.querySelector('[data-testid="view2d"] line.ray2d[data-ray="0"]');
        return { dash: l.getAttribute('stroke-dasharray'), miss: l.hasAttribute('data-miss') };
      });
      expect(line).toEqual({ dash: '6 4', miss: true });

      // 3D: no two visible labels overlap.
      await page.getByTestId('view-3d').click();
      await page.waitForTimeout(200);
      const clashes = await page.evaluate(() => {
        const rects = [...document.querySelectorAll('.labels .label3d')].filter((e) => getComputedStyle(e).visibility !== 'hidden' && e.getBoundingClientRect().width > 0).map((e) => e.getBoundingClientRect());
        let n = 0;
        for (let a = 0; a < rects.length; a++) for (let b = a + 1; b < rects.length; b++) {
          const p = rects[a]; const q = rects[b];
          if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) n++;
        }
        return { n, shown: rects.length };
      });
      expect(clashes.n).toBe(0);
      expect(clashes.shown).toBeGreaterThan(3);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('?embed at 640x420 (issue 23)', () => {
  for (const query of ['?embed&view=top', '?embed&view=top&panels=']) {
    it(`${query}: the step card does not cover the drawing, and the view reaches the frame's bottom`, async () => {
      const page = await browser.newPage({ viewport: { width: 640, height: 420 } });
      try {
        await page.goto(`${base}${query}`);
        await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
        const stage = await boxOf(page, '#stage');
        const view = await boxOf(page, '#view');
        const stepper = await page.evaluate(() => {
          const e = document.querySelector('[data-testid="slab-stepper"]');
          if (e.hidden || !e.offsetParent) return null;
          const r = e.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        });
        if (query.endsWith('panels=')) expect(stepper).toBeNull(); // no tutorial panel: no step card
        else expect(disjoint(stepper, stage)).toBe(true);
        // No blank band: the view ends within the layout's bottom padding (14 px) of the frame.
        expect(view.y + view.height).toBeGreaterThan(420 - 16);
        expect(view.y + view.height).toBeLessThanOrEqual(420);
        // Every ray origin of the scene is drawn on the stage; the selected one can be grabbed
        // (in the top view rays 0 and 1 start at the same x and z: ray 0's handle is on top).
        const handles = (await page.evaluate(() => window.playground.handles())).filter((x) => /origin$/.test(x.id));
        expect(handles.find((h) => h.id === 'ray0-origin').grabbable).toBe(true);
        for (const h of handles) {
          expect(h.y, h.id).toBeGreaterThan(stage.y);
          expect(h.y, h.id).toBeLessThan(stage.y + stage.height);
        }
      } finally {
        await page.close();
      }
    });
  }
});

describe('typed coordinates', () => {
  it('the store holds the float32 of what is typed; bad entries change nothing and say why', async () => {
    const { page, problems } = await openPage();
    try {
      const origin0 = page.getByTestId('inspect-ray-origin-0');
      await origin0.fill('0.1');
      await origin0.press('Enter');
      let s = await state(page);
      expect(s.rays[0].origin[0]).toBe(Math.fround(0.1)); // 0.100000001490116...
      expect(await page.getByTestId('inspect-ray-origin-0-f32').textContent()).toBe('= 0.100000001');
      // The hits follow (ray 0 now starts at x = 0.1: it misses box 0, which is behind it).
      const hits = await page.evaluate(() => window.playground.hits());
      expect(hits[0].shape).not.toBe(0);

      await origin0.fill('1e-45');
      await origin0.press('Enter');
      expect(await page.evaluate(() => window.playground.state().rays[0].origin[0])).toBe(2 ** -149);
      await origin0.fill('0x1p-126');
      await origin0.press('Enter');
      expect(await page.evaluate(() => window.playground.state().rays[0].origin[0])).toBe(2 ** -126);
      const dirZ = page.getByTestId('inspect-ray-dir-2');
      await dirZ.fill('-0');
      await dirZ.press('Enter');
      expect(await page.evaluate(() => Object.is(window.playground.state().rays[0].dir[2], -0))).toBe(true);
      const tmax = page.getByTestId('inspect-ray-tmax');
      await tmax.fill('2.5');
      await tmax.press('Enter');
      expect((await state(page)).rays[0].tmax).toBe(2.5);
      await tmax.fill('Infinity');
      await tmax.press('Enter');
      expect((await state(page)).rays[0].tmax).toBe(Infinity);

      // Bad entries: an inline error, nothing changed.
      s = await state(page);
      const cases = [
        ['inspect-ray-origin-1', 'abc', /"abc" is not a number/],
        ['inspect-ray-tmax', '-1', /must not be negative|must be 0 or more/],
        ['inspect-ray-origin-2', 'Infinity', /must be finite/],
        ['inspect-ray-origin-2', '1e39', /too large for a float32/],
        ['inspect-shape-min-0', '5', /min\.x 5 is greater than max\.x -1/],
      ];
      for (const [id, text, why] of cases) {
        const input = page.getByTestId(id);
        await input.fill(text);
        await input.press('Enter');
        expect(await input.getAttribute('aria-invalid'), id).toBe('true');
        const err = page.locator(`#${await input.getAttribute('id')} ~ .insp-error`);
        expect(await err.isVisible(), id).toBe(true);
        expect(await err.textContent(), id).toMatch(why);
        expect(await err.textContent(), id).toMatch(/Nothing was changed/);
        expect(sameState(await state(page), s), id).toBe(true);
        await input.press('Escape');
      }
      // A zero direction is refused.
      for (const k of [0, 1]) {
        const input = page.getByTestId(`inspect-ray-dir-${k}`);
        await input.fill('0');
        await input.press('Enter');
      }
      const err = page.locator('#insp-ray-dir-1 ~ .insp-error');
      expect(await err.textContent()).toMatch(/dir must not be zero/);
      expect((await state(page)).rays[0].dir[1]).toBe(-0.5);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('dragging a label scrubs the number (one undo step)', async () => {
    const { page, problems } = await openPage();
    try {
      const label = page.locator('label[for="insp-ray-origin-1"]');
      const b = await label.boundingBox();
      await mouseDrag(page, b.x + 10, b.y + b.height / 2, 50, 0, 5);
      const s = await state(page);
      expect(s.rays[0].origin[1]).toBe(Math.fround(2.5)); // 50 px at 0.01 per px
      expect(await page.getByTestId('inspect-ray-origin-1').inputValue()).toBe('2.5');
      await page.getByTestId('undo').click();
      expect((await state(page)).rays[0].origin[1]).toBe(2);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('undo and redo', () => {
  it('edit, reset, undo restores the edit, undo again the default, redo; keys too', async () => {
    const { page, problems } = await openPage();
    try {
      expect(await page.getByTestId('undo').isDisabled()).toBe(true);
      const input = page.getByTestId('inspect-ray-origin-0');
      await input.fill('-4');
      await input.press('Enter');
      const edited = await state(page);
      expect(edited.rays[0].origin).toEqual([-4, 2, 0]);
      await page.getByTestId('reset').click();
      expect(sameState(await state(page), defaultState())).toBe(true);
      await page.getByTestId('undo').click();
      expect(sameState(await state(page), edited)).toBe(true);
      await page.getByTestId('undo').click();
      expect(sameState(await state(page), defaultState())).toBe(true);
      expect(await page.getByTestId('undo').isDisabled()).toBe(true);
      await page.getByTestId('redo').click();
      expect(sameState(await state(page), edited)).toBe(true);
      // Keyboard (focus off the text fields).
      await page.locator('h1').click();
      await page.keyboard.press('Control+z');
      expect(sameState(await state(page), defaultState())).toBe(true);
      await page.keyboard.press('Control+Shift+Z');
      expect(sameState(await state(page), edited)).toBe(true);
      await page.keyboard.press('Control+z');
      await page.keyboard.press('Control+y');
      expect(sameState(await state(page), edited)).toBe(true);
      // A drag is one step.
      const tip = (await page.evaluate(() => window.playground.handles())).find((h) => h.id === 'ray1-tip');
      await mouseDrag(page, tip.x, tip.y, 0, -40, 8);
      expect((await state(page)).rays[1].dir).not.toEqual(edited.rays[1].dir);
      await page.keyboard.press('Control+z');
      expect(sameState(await state(page), edited)).toBe(true);
      // The link follows the undone scene.
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('keyboard', () => {
  it('the view is one tab stop; [ ] pick a handle, arrows move it by the grid step (Shift: ten)', async () => {
    const { page, problems } = await openPage();
    try {
      expect(await page.evaluate(() => document.querySelector('#stage canvas').tabIndex)).toBe(-1);
      await page.locator('#stage').focus();
      await page.keyboard.press('ArrowRight'); // ray 0 origin, +x by 0.25
      let s = await state(page);
      expect(s.rays[0].origin).toEqual([-5.75, 2, 0]);
      expect(await page.locator('#kbd-status').textContent()).toMatch(/ray 0 origin at \[-5\.75, 2, 0\]/);
      await page.keyboard.press('Shift+ArrowRight'); // +2.5
      await page.keyboard.press('ArrowUp'); // 3D: up is -z
      await page.keyboard.press('PageUp'); // +y
      s = await state(page);
      expect(s.rays[0].origin).toEqual([-3.25, 2.25, -0.25]);
      await page.keyboard.press(']'); // ray 0 tip
      await page.keyboard.press('ArrowLeft'); // dir x - 0.25
      s = await state(page);
      expect(s.rays[0].dir).toEqual([0.75, -0.5, 0]);
      expect(s.rays[0].origin).toEqual([-3.25, 2.25, -0.25]);
      for (let k = 0; k < 5; k++) await page.keyboard.press(']'); // ray1 o, ray1 t, ray2 o, ray2 t, shape 0
      await page.keyboard.press('ArrowRight');
      s = await state(page);
      expect(s.shapes[0]).toEqual({ type: 'aabb', min: [-2.75, -1, -1], max: [-0.75, 1, 1] });
      expect(s.selected.shape).toBe(0);
      // In the front view the arrows follow the screen: up is +y.
      await page.getByTestId('view-front').click();
      await page.locator('#stage').focus();
      await page.keyboard.press('ArrowUp');
      s = await state(page);
      expect(s.shapes[0]).toEqual({ type: 'aabb', min: [-2.75, -0.75, -1], max: [-0.75, 1.25, 1] });
      // Each key press is one undo step.
      await page.keyboard.press('Control+z');
      expect((await state(page)).shapes[0].min).toEqual([-2.75, -1, -1]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('layouts', () => {
  for (const [width, height] of [[390, 844], [768, 1024]]) {
    it(`${width}x${height}: nothing overlaps, every ray origin is on the visible canvas, a drag does not widen the page`, async () => {
      const { page, problems } = await openPage({ width, height, touch: true });
      try {
        const head = await boxOf(page, '.view-head');
        const toolbar = await boxOf(page, '.toolbar');
        const hint = await boxOf(page, '#mode-hint');
        const stage = await boxOf(page, '#stage');
        const canvas = await boxOf(page, '#stage canvas');
        const stepper = await boxOf(page, '[data-testid="slab-stepper"]');
        const panel = await boxOf(page, 'aside.panel');
        const view = await boxOf(page, '#view');
        expect(disjoint(toolbar, hint)).toBe(true);
        expect(disjoint(head, stage)).toBe(true);
        expect(inside(toolbar, head) && inside(hint, head)).toBe(true);
        // The step card is in the view, below the drawing, never on it (issue 23).
        expect(inside(stepper, view)).toBe(true);
        expect(disjoint(stepper, stage)).toBe(true);
        expect(disjoint(panel, view)).toBe(true);
        for (const b of [toolbar, hint, stage, stepper, view]) expect(b.x + b.width).toBeLessThanOrEqual(width + 0.5);
        expect(await page.evaluate(() => document.scrollingElement.scrollWidth)).toBeLessThanOrEqual(width);
        // Every ray origin of the default scene is on the canvas, on screen, and not under the step box.
        const handles = await page.evaluate(() => window.playground.handles());
        for (const h of handles.filter((x) => /origin$/.test(x.id))) {
          expect(h.x, h.id).toBeGreaterThan(canvas.x);
          expect(h.x, h.id).toBeLessThan(Math.min(canvas.x + canvas.width, width));
          expect(h.y, h.id).toBeGreaterThan(canvas.y);
          expect(h.y, h.id).toBeLessThan(Math.min(canvas.y + canvas.height, height, stepper.y));
          expect(h.grabbable, h.id).toBe(true);
        }
        // Touch-drag a ray tip; the page does not widen.
        const tip = handles.find((x) => x.id === 'ray0-tip');
        const before = await state(page);
        await mouseDrag(page, tip.x, tip.y, 30, 20, 5);
        expect((await state(page)).rays[0].dir).not.toEqual(before.rays[0].dir);
        expect(await page.evaluate(() => document.scrollingElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await page.evaluate(() => getComputedStyle(document.querySelector('#stage canvas')).touchAction)).toBe('none');
        await shot(page, `12-layout-${width}x${height}`);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});

/** For every visible element with its own text: the contrast of its colour against the
 * background behind it (WCAG 2 relative luminance). A background that is a gradient counts
 * as its worst stop; semi-transparent colours are blended over what is behind them. */
function contrastReport(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
    };
    const over = (top, bottom) => ({
      r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a), b: top.b * top.a + bottom.b * (1 - top.a), a: 1,
    });
    const lum = (c) => {
      const f = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    /** The possible backgrounds behind element e (several for a gradient). */
    const backgrounds = (e) => {
      const layers = [];
      for (let n = e; n; n = n.parentElement) {
        const cs = getComputedStyle(n);
        const img = cs.backgroundImage;
        if (img && img.includes('gradient')) {
          const stops = [...img.matchAll(/rgba?\([^)]+\)/g)].map((m) => parse(m[0]));
          layers.push({ stops });
          break;
        }
        const bg = parse(cs.backgroundColor);
        if (bg && bg.a > 0) {
          layers.push({ color: bg });
          if (bg.a >= 1) break;
        }
      }
      let bases = [{ r: 255, g: 255, b: 255, a: 1 }];
      const last = layers[layers.length - 1];
      if (last && last.stops) { bases = last.stops.map((s) => over(s, { r: 255, g: 255, b: 255, a: 1 })); layers.pop(); }
      else if (last && last.color.a >= 1) { bases = [last.color]; layers.pop(); }
      return bases.map((b) => layers.reduceRight((acc, l) => over(l.color, acc), b));
    };
    const out = [];
    for (const e of document.querySelectorAll('body *')) {
      if (!(e instanceof HTMLElement)) continue;
      const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own) continue;
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || e.closest('[hidden], .sr-only')) continue;
      const cs = getComputedStyle(e);
      if (cs.visibility === 'hidden' || Number(cs.opacity) === 0) continue;
      if (e.closest('button:disabled, [aria-disabled="true"]')) continue; // disabled controls are exempt
      const fg = parse(cs.color);
      const worst = Math.min(...backgrounds(e).map((bg) => ratio(over(fg, bg), bg)));
      out.push({ text: e.textContent.trim().slice(0, 40), tag: e.tagName, cls: e.className, ratio: Math.round(worst * 100) / 100 });
    }
    return out;
  });
}

describe('contrast', () => {
  it('every visible text reaches 4.5:1 (WCAG AA), at the start, in a 2D view and at the last step', async () => {
    const { page, problems } = await openPage();
    try {
      const low = [];
      const check = async (when) => {
        const report = await contrastReport(page);
        expect(report.length, when).toBeGreaterThan(40);
        for (const r of report) if (r.ratio < 4.5) low.push({ when, ...r });
      };
      await check('start');
      await page.getByTestId('view-top').click();
      for (let k = 0; k < 7; k++) await page.getByTestId('slab-next').click();
      await check('top view, step 7');
      expect(low).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('case files from the disk', () => {
  const caseFile = JSON.stringify({
    format: 'slabcast-cases/1',
    cases: [{ id: 'a', query: 'raycast', ray: { origin: [-4, 0.5, 0.25], dir: [1, 0, 0] }, shape: { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] } }],
  });

  it('the file picker and a drop load a case file through the import; a bad file changes nothing', async () => {
    const { page, problems } = await openPage();
    try {
      await page.getByTestId('import-file').setInputFiles({ name: 'one.json', mimeType: 'application/json', buffer: Buffer.from(caseFile) });
      await page.waitForFunction(() => window.playground.state().shapes.length === 1);
      let s = await state(page);
      expect(s.shapes).toEqual([{ type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] }]);
      expect(s.rays).toEqual([{ origin: [-4, 0.5, 0.25], dir: [1, 0, 0], tmax: Infinity }]);
      // Undo brings the scene before the import back.
      await page.getByTestId('undo').click();
      expect(sameState(await state(page), defaultState())).toBe(true);
      // A bad file: the notice names the file and the problem; the scene stays.
      await page.getByTestId('import-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{ nope') });
      await page.getByTestId('error').waitFor({ state: 'visible' });
      expect(await page.getByTestId('error').textContent()).toMatch(/The case file "bad\.json" could not be imported: the file is not valid JSON/);
      expect(sameState(await state(page), defaultState())).toBe(true);
      // Dropped on the page.
      await page.evaluate((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
        window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, cancelable: true }));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
      }, caseFile);
      await page.waitForFunction(() => window.playground.state().shapes.length === 1);
      s = await state(page);
      expect(s.rays[0].origin).toEqual([-4, 0.5, 0.25]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
