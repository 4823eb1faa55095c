// slabcast/figure (web/figure.js) in headless Chromium, on a page with three figures and
// mounted playgrounds (tests/web/fixtures/figures.html), as a reader uses it: each figure
// starts when it scrolls into view; a pointer drag moves a handle by the pointer's motion
// (pressing changes nothing, 1 px registers) and changes only its own figure and readouts;
// the keyboard moves a focused handle; goals are reached and announced; the wheel over a
// figure scrolls the page unless the reader clicked into it or holds Ctrl; nothing
// overflows the figure's element at 1280x800 and 390x844; destroy() removes it; bad input
// is refused with a message in place.
import { describe, expect, it } from 'vitest';
import { openPage } from './helpers/browser.mjs';
import { useFigureBrowser } from './helpers/figure-browser.mjs';

const PAGE = '/tests/web/fixtures/figures.html';
const f = Math.fround;
/** The shortest decimal that reads back as the float32 x (toPrecision 1..9), with U+2212 for '-'. */
const f32text = (x) => {
  for (let p = 1; p <= 9; p++) {
    const s = x.toPrecision(p);
    if (f(Number(s)) === x) return String(Number(s)).replace('-', '\u2212');
  }
  throw new Error(`no float32 text for ${x}`);
};
const ctx = useFigureBrowser();

/** Every figure's values and every readout's text, to see what one action changed. */
const snapshot = (page) => page.evaluate(() => ({
  values: Object.fromEntries(Object.entries(window.figs).map(([k, fig]) => [k, fig.values])),
  outputs: [...document.querySelectorAll('[data-figure-value]')].map((o) => o.textContent),
}));

/** Scroll figure `id` into view and wait until it is drawn. */
async function show(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await page.waitForSelector(`#${id}[data-figure="ready"]`, { timeout: 30_000 });
}

/** The centre of figure id's handle `name`, in page pixels. */
async function handleCentre(page, id, name) {
  const b = await page.locator(`#${id} [data-handle="${name}"] circle`).first().boundingBox();
  return [b.x + b.width / 2, b.y + b.height / 2];
}

describe('slabcast/figure', () => {
  it('starts each figure when it scrolls into view; pointer drags move by the motion and change only their own figure', async () => {
    const { page, problems } = await openPage(ctx.browser, `${ctx.base}${PAGE}`);
    try {
      await page.waitForSelector('#fig1[data-figure="ready"]');
      // fig3 is below the fold (and beyond the 200 px margin): not started yet.
      expect(await page.getAttribute('#fig3', 'data-figure')).toBe('loading');
      expect(await page.evaluate(() => window.figs.fig3.values)).toBe(null);
      await show(page, 'fig2');
      const before = await snapshot(page);
      // fig2: origin (-3, -2, 0), dir (1, 1, 0): y interval (-1 + 2)/1 = 1 .. (1 + 2)/1 = 3.
      expect(before.values.fig2).toMatchObject({ 'origin.y': -2, ty_enter: 1, ty_exit: 3 });
      const tyOut = page.locator('output[data-figure-for="fig2"][data-figure-value="ty_enter"]');
      expect(await tyOut.textContent()).toBe('1');
      expect(await page.textContent('#ambiguous')).toBe('unchanged');

      // Grab the origin 4 px right and 3 px below its centre and press: nothing moves.
      const [cx, cy] = await handleCentre(page, 'fig2', 'origin');
      await page.mouse.move(cx + 4, cy + 3);
      await page.mouse.down();
      expect((await snapshot(page)).values.fig2['origin.y']).toBe(-2);
      // 1 px up registers: the origin is on the y axis constraint, x stays.
      await page.mouse.move(cx + 4, cy + 2);
      const one = (await snapshot(page)).values.fig2;
      expect(one['origin.y']).toBeGreaterThan(-2);
      expect(one['origin.x']).toBe(-3);
      const scale = await page.evaluate(() => {
        const svg = document.querySelector('#fig2 svg');
        return svg.getBoundingClientRect().width; // for the message only
      });
      expect(one['origin.y'] + 2, `1 px of a ${scale} px wide figure`).toBeLessThan(0.1);
      // 20 px further: the handle's centre follows the pointer's motion, keeping the grab offset.
      await page.mouse.move(cx + 4, cy - 18);
      const [nx, ny] = await handleCentre(page, 'fig2', 'origin');
      expect(Math.abs(nx - cx)).toBeLessThan(0.6); // on the y axis: no x motion
      expect(Math.abs(ny - (cy - 21))).toBeLessThan(0.6);
      await page.mouse.up();

      const after = await snapshot(page);
      const oy = after.values.fig2['origin.y'];
      // ty_enter = (-1 - oy) / 1 in float32; and the page's readout shows that number.
      expect(after.values.fig2.ty_enter).toBe(f(-1 - oy));
      expect(await tyOut.textContent()).toBe(f32text(after.values.fig2.ty_enter));
      // Only fig2 changed: fig1's values and its section's readouts are as they were.
      expect(after.values.fig1).toEqual(before.values.fig1);
      expect(after.values.fig3).toEqual(before.values.fig3);
      expect(after.outputs.slice(0, 3)).toEqual(before.outputs.slice(0, 3));
      expect(await page.textContent('#ambiguous')).toBe('unchanged');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('goals: by pointer (fig1, snap 0.5) and by keyboard (fig2 graze, fig3 origin inside), with figuregoal events', async () => {
    const { page, problems } = await openPage(ctx.browser, `${ctx.base}${PAGE}`);
    try {
      await page.evaluate(() => {
        window.goals = [];
        document.addEventListener('figuregoal', (e) => window.goals.push([e.target.id, e.detail.label]));
      });
      await show(page, 'fig1');
      const status = page.locator('#fig1 [role="status"]');
      expect(await status.textContent()).toBe('Try it: Make the ray miss');
      // Drag the origin (y 0.5) up by 1.2 units of y: snapped to the 0.5 grid, y = 1.5 > 1: a miss.
      const scale = await page.evaluate(() => {
        const g = document.querySelector('#fig1 [data-handle="max"]').transform.baseVal[0].matrix;
        const h = document.querySelector('#fig1 [data-handle="min"]').transform.baseVal[0].matrix;
        return (g.e - h.e) / 2; // the box is 2 wide: px per unit
      });
      const [cx, cy] = await handleCentre(page, 'fig1', 'origin');
      await page.mouse.move(cx - 2, cy + 2);
      await page.mouse.down();
      await page.mouse.move(cx - 2, cy + 2 - scale * 0.6, { steps: 3 });
      await page.mouse.move(cx - 2, cy + 2 - scale * 1.2, { steps: 3 });
      await page.mouse.up();
      const v1 = await page.evaluate(() => window.figs.fig1.values);
      expect(v1).toMatchObject({ 'origin.x': -4, 'origin.y': 1.5, hit: false, reason: 'parallel-outside' });
      expect(await status.textContent()).toBe('\u2713 Goal reached: Make the ray miss');
      expect(await page.getAttribute('#fig1 .slabcast-figure', 'data-goal')).toBe('reached');
      // The ray is dashed now that it misses.
      expect(await page.getAttribute('#fig1 .fig-ray-line', 'data-style')).toBe('dashed');

      // fig2 by keyboard: Tab reaches its handle; Shift+ArrowUp moves the origin from y -2 to -1:
      // the ray y = x + 2 touches the corner (-1, 1): x [2, 4], y [0, 2], t_enter = t_exit = 2.
      await show(page, 'fig2');
      await page.focus('#fig2 [data-handle="origin"]');
      expect(await page.getAttribute('#fig2 [data-handle="origin"]', 'aria-label')).toBe('Ray origin: x \u22123, y \u22122, z 0. Arrow keys move it.');
      await page.keyboard.press('Shift+ArrowUp');
      const v2 = await page.evaluate(() => window.figs.fig2.values);
      expect(v2).toMatchObject({ 'origin.y': -1, hit: true, t_enter: 2, t_exit: 2 });
      expect(await page.textContent('#fig2 [role="status"]')).toBe('\u2713 Goal reached: Make the ray graze the corner');
      expect(await page.getAttribute('#fig2 [data-handle="origin"]', 'aria-label')).toBe('Ray origin: x \u22123, y \u22121, z 0. Arrow keys move it.');
      expect(await page.textContent('#fig2 .fig-live')).toBe('Ray origin: x \u22123, y \u22121, z 0.');

      // fig3 (snap: integer) by keyboard: the origin (-3, 2) three right and two down: (0, 0), inside.
      await show(page, 'fig3');
      await page.focus('#fig3 [data-handle="origin"]');
      for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown']) await page.keyboard.press(key);
      const v3 = await page.evaluate(() => window.figs.fig3.values);
      // dir (2, -1): x (-1 - 0)/2 = -0.5 .. 0.5; y (1 - 0)/-1 = -1 .. 1: [-0.5, 0.5], t = 0.
      expect(v3).toMatchObject({ 'origin.x': 0, 'origin.y': 0, 'origin.z': 0.5, hit: true, t: 0, t_enter: -0.5, t_exit: 0.5 });
      expect(await page.evaluate(() => window.goals)).toEqual([
        ['fig1', 'Make the ray miss'], ['fig2', 'Make the ray graze the corner'], ['fig3', 'Put the ray\u2019s start inside the box'],
      ]);
      // Tab goes from handle to handle: the start, the tip, the corners.
      await page.focus('#fig3 [data-handle="origin"]');
      const order = [];
      for (let k = 0; k < 3; k++) {
        await page.keyboard.press('Tab');
        order.push(await page.evaluate(() => document.activeElement.dataset.handle));
      }
      expect(order).toEqual(['dir', 'min', 'max']);
      // A screen reader reaches the handles as buttons with their coordinates, and not the drawing's text.
      const aria = await page.locator('#fig3').ariaSnapshot();
      expect(aria).toContain('button "Ray origin: x 0, y 0, z 0.5. Arrow keys move it."');
      expect(aria).toContain('button "Box corner max: x 1, y 1, z 1. Arrow keys move it."');
      expect(aria).not.toContain('x = \u22121');
      expect(aria).toContain('status: "\u2713 Goal reached: Put the ray\u2019s start inside the box"');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('the wheel scrolls the page over a figure; it zooms only after a click into it, or with Ctrl', async () => {
    const { page, problems } = await openPage(ctx.browser, `${ctx.base}${PAGE}`);
    try {
      await show(page, 'fig1');
      await page.evaluate(() => window.scrollTo(0, 0));
      const box = await page.locator('#fig1 svg').boundingBox();
      const ticks = () => page.$$eval('#fig1 .fig-tick', (ts) => ts.map((t) => t.textContent).join(' '));
      const ticks0 = await ticks();
      await page.mouse.move(box.x + 20, box.y + box.height - 30);
      for (let k = 0; k < 5; k++) await page.mouse.wheel(0, 100);
      await page.waitForFunction(() => window.scrollY > 0);
      const y1 = await page.evaluate(() => window.scrollY);
      expect(y1).toBeGreaterThan(200);
      expect(await ticks()).toBe(ticks0);
      // A click into the figure (not on a handle): now the wheel zooms and the page stays.
      await page.waitForTimeout(600); // the wheel's smooth scrolling ends
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(100);
      const box2 = await page.locator('#fig1 svg').boundingBox();
      await page.mouse.click(box2.x + 20, box2.y + box2.height - 30);
      await page.mouse.wheel(0, 200);
      await page.waitForTimeout(200);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(await ticks()).not.toBe(ticks0);
      // A click elsewhere gives the wheel back to the page.
      await page.mouse.click(5, 5);
      await page.mouse.move(box2.x + 20, box2.y + box2.height - 30);
      await page.mouse.wheel(0, 200);
      await page.waitForFunction(() => window.scrollY > 0);
      // Ctrl + wheel zooms fig2 without a click.
      await show(page, 'fig2');
      const t2 = await page.$$eval('#fig2 .fig-tick', (ts) => ts.map((t) => t.textContent).join(' '));
      const b2 = await page.locator('#fig2 svg').boundingBox();
      const sy = await page.evaluate(() => window.scrollY);
      await page.mouse.move(b2.x + 30, b2.y + 30);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -200);
      await page.keyboard.up('Control');
      await page.waitForTimeout(200);
      expect(await page.evaluate(() => window.scrollY)).toBe(sy);
      expect(await page.$$eval('#fig2 .fig-tick', (ts) => ts.map((t) => t.textContent).join(' '))).not.toBe(t2);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  for (const [width, height] of [[1280, 800], [390, 844]]) {
    it(`nothing overflows a figure's element and the panel never covers the drawing at ${width}x${height}`, async () => {
      const { page, problems } = await openPage(ctx.browser, `${ctx.base}${PAGE}`, { viewport: { width, height } });
      try {
        for (const id of ['fig1', 'fig2', 'fig3']) {
          await show(page, id);
          const r = await page.evaluate((id) => {
            const host = document.getElementById(id);
            const hb = host.getBoundingClientRect();
            const out = [];
            for (const el of host.querySelectorAll('.slabcast-figure, .fig-stage, .fig-panel, .fig-panel *')) {
              const b = el.getBoundingClientRect();
              if (b.width === 0 && b.height === 0) continue;
              if (el.closest('.fig-live')) continue; // visually hidden on purpose
              if (b.left < hb.left - 1 || b.right > hb.right + 1 || b.top < hb.top - 1 || b.bottom > hb.bottom + 1) out.push(`${el.className || el.tagName}: ${JSON.stringify([b.left, b.top, b.right, b.bottom])} outside ${JSON.stringify([hb.left, hb.top, hb.right, hb.bottom])}`);
            }
            const s = host.querySelector('.fig-stage').getBoundingClientRect();
            const p = host.querySelector('.fig-panel').getBoundingClientRect();
            const overlap = !(p.left >= s.right - 1 || p.right <= s.left + 1 || p.top >= s.bottom - 1 || p.bottom <= s.top + 1);
            const verdict = host.querySelector('.fig-verdict').getBoundingClientRect();
            // No two visible labels of the drawing overlap (the "box 1" over "ray 2").
            const texts = [...host.querySelectorAll('svg text')].filter((t) => t.getAttribute('visibility') !== 'hidden')
              .map((t) => [t.textContent, t.getBoundingClientRect()]);
            const clashes = [];
            for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
              const [a, ra] = texts[i];
              const [b, rb] = texts[j];
              if (ra.left < rb.right - 1 && rb.left < ra.right - 1 && ra.top < rb.bottom - 1 && rb.top < ra.bottom - 1) clashes.push(`${a} / ${b}`);
            }
            return { out, overlap, clashes, stage: [s.width, s.height], verdict: verdict.height, scroll: host.scrollWidth - host.clientWidth };
          }, id);
          expect(r.out, id).toEqual([]);
          expect(r.overlap, id).toBe(false);
          expect(r.clashes, id).toEqual([]);
          expect(r.scroll, id).toBeLessThanOrEqual(0);
          expect(r.verdict, id).toBeGreaterThan(0);
          expect(r.stage[0], id).toBeGreaterThan(width < 500 ? 300 : 400);
          expect(r.stage[1], id).toBeGreaterThan(150);
        }
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }

  it('fits small, narrow, wide and square elements: inside them, the panel beside or below the drawing (scrolling when the element is too short)', async () => {
    const { page, problems } = await openPage(ctx.browser, `${ctx.base}/tests/web/fixtures/figure-sizes.html`);
    try {
      const r = await page.evaluate(() => Object.fromEntries(['tiny', 'narrow', 'wide', 'square'].map((id) => {
        const host = document.getElementById(id);
        const hb = host.getBoundingClientRect();
        const inside = (el) => { const b = el.getBoundingClientRect(); return b.left >= hb.left - 1 && b.right <= hb.right + 1 && b.top >= hb.top - 1 && b.bottom <= hb.bottom + 1; };
        const s = host.querySelector('.fig-stage').getBoundingClientRect();
        const p = host.querySelector('.fig-panel').getBoundingClientRect();
        return [id, {
          inside: ['.slabcast-figure', '.fig-stage', '.fig-panel'].every((q) => inside(host.querySelector(q))),
          beside: p.left >= s.right - 1, below: p.top >= s.bottom - 1,
          stage: [Math.round(s.width), Math.round(s.height)],
          scrolls: host.querySelector('.fig-panel').scrollHeight > host.querySelector('.fig-panel').clientHeight,
        }];
      })));
      for (const [id, x] of Object.entries(r)) {
        expect(x.inside, id).toBe(true);
        expect(x.beside || x.below, id).toBe(true);
        expect(x.stage[1], id).toBeGreaterThanOrEqual(99);
      }
      expect(r.wide.beside).toBe(true); // 900 px wide: the panel beside the drawing
      expect(r.narrow.below && r.square.below && r.tiny.below).toBe(true);
      expect(r.tiny.scrolls).toBe(true); // 200 px tall: the drawing keeps 100 px, the panel scrolls
      expect(r.narrow.scrolls).toBe(false); // no height set: the element grows to hold it all
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('works beside a mounted playground; destroy() removes a figure, which mounts again', async () => {
    const { page, problems } = await openPage(ctx.browser, `${ctx.base}${PAGE}`);
    try {
      await show(page, 'fig1');
      await page.evaluate(async () => {
        window.pg1 = await window.mountPlayground(document.getElementById('pg1'), { shapes: [{ type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] }], rays: [{ origin: [-5, 0, 0], dir: [1, 0, 0] }] }, { view: 'top', embed: true });
      });
      await page.locator('#fig1').scrollIntoViewIfNeeded();
      const pgState = await page.evaluate(() => JSON.stringify(window.pg1.store.state));
      await page.focus('#fig1 [data-handle="origin"]');
      await page.keyboard.press('ArrowRight');
      expect(await page.evaluate(() => window.figs.fig1.values['origin.x'])).toBe(-3.5);
      expect(await page.evaluate(() => JSON.stringify(window.pg1.store.state))).toBe(pgState);

      const gone = await page.evaluate(() => {
        window.figs.fig1.destroy();
        window.figs.fig1.destroy(); // again: nothing
        const host = document.getElementById('fig1');
        return { children: host.children.length, attr: host.hasAttribute('data-figure'), svgs: document.querySelectorAll('#fig1 svg').length };
      });
      expect(gone).toEqual({ children: 0, attr: false, svgs: 0 });
      // A wheel and a pointer press where it was do nothing wrong; it mounts again on the same element.
      await page.mouse.wheel(0, 100);
      const again = await page.evaluate(async () => {
        const fig = window.mountFigure(document.getElementById('fig1'), { shapes: [{ type: 'aabb', min: [0, 0, 0], max: [2, 2, 2] }], rays: [{ origin: [-1, 1, 1], dir: [1, 0, 0] }] }, { start: 'now' });
        await fig.ready;
        return fig.values.t_enter;
      });
      expect(again).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  // Issue 23 item 2: any number of playgrounds per page, beside figures; a drag in one
  // changes only that one (no figure's values, not the other playground).
  it('a second playground on the same page, beside three figures: each drag changes only its own', async () => {
    const { page, problems } = await openPage(ctx.browser, `${ctx.base}${PAGE}`);
    try {
      const n = await page.evaluate(async () => {
        const scene = { shapes: [{ type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] }], rays: [{ origin: [-5, 0, 0], dir: [1, 0, 0] }] };
        window.pg = [
          await window.mountPlayground(document.getElementById('pg1'), scene, { view: 'top', embed: true }),
          await window.mountPlayground(document.getElementById('pg2'), scene, { view: 'top', embed: true }),
        ];
        return document.querySelectorAll('[data-playground="mounted"]').length;
      });
      expect(n).toBe(2);
      const snapshot = () => page.evaluate(() => ({
        pg: window.pg.map((h) => h.store.state.rays[0].origin),
        figs: Object.values(window.figs).map((f) => JSON.stringify(f.values)),
      }));
      for (const id of ['fig1', 'fig2', 'fig3']) await show(page, id); // every figure started
      const before = await snapshot();
      for (const k of [0, 1]) {
        const p = await page.evaluate((i) => {
          const h = window.pg[i].element.querySelector('[data-handle="ray0-origin"]');
          h.scrollIntoView({ block: 'center' });
          const r = h.getBoundingClientRect();
          return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
        }, k);
        await page.mouse.move(p.x, p.y);
        await page.mouse.down();
        await page.mouse.move(p.x + 5, p.y - 25, { steps: 3 });
        await page.mouse.up();
        const now = await snapshot();
        expect(now.figs).toEqual(before.figs);
        expect(now.pg[k]).not.toEqual(before.pg[k]);
        if (k === 0) expect(now.pg[1]).toEqual(before.pg[1]);
      }
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('refuses a bad scene or option with a SlabcastError and leaves a readable message in the element', async () => {
    const { page, problems } = await openPage(ctx.browser, `${ctx.base}${PAGE}`);
    try {
      const r = await page.evaluate(() => {
        const el = document.createElement('div');
        el.id = 'bad';
        document.body.append(el);
        const tries = [
          () => window.mountFigure(el, { shapes: [{ type: 'sphere', center: [0, 0, 0], radius: 1 }], rays: [{ origin: [0, 0, -5], dir: [0, 0, 1] }] }),
          () => window.mountFigure(el, { shapes: [{ type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] }], rays: [{ origin: [0, 0, -5], dir: [0, 0, 1] }] }, { snap: 'big' }),
        ];
        return tries.map((t) => {
          try { t(); return 'no error'; } catch (e) {
            return { name: e.name, field: e.field, message: e.message, shown: el.querySelector('.slabcast-figure-error[role="alert"]')?.textContent, count: el.children.length, attr: el.hasAttribute('data-figure') };
          }
        });
      });
      expect(r[0]).toMatchObject({ name: 'SlabcastError', field: 'scene', count: 1, attr: false });
      expect(r[0].shown).toBe(`This figure cannot be shown: ${r[0].message}`);
      expect(r[0].message).toMatch(/selected shape is "sphere"/);
      expect(r[1]).toMatchObject({ name: 'SlabcastError', field: 'options.snap', count: 1, attr: false });
      expect(r[1].shown).toMatch(/options\.snap must be a grid step/);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
