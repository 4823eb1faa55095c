// docs/tutorial.html in headless Chromium, as a learner uses it (served from the repository,
// unbundled; site.browser.test.mjs loads the built page): every section's "try it" done by
// keyboard and by pointer drags reaches its goal, and the prose's numbers follow; at 1280x800
// and 390x844 nothing overflows a figure's element, the panel never covers the drawing, the
// readout shows, and the wheel over a figure scrolls the page.
import { describe, expect, it } from 'vitest';
import { openPage } from './helpers/browser.mjs';
import { useFigureBrowser } from './helpers/figure-browser.mjs';

const ctx = useFigureBrowser();

/**
 * Each "try it": the moves a reader makes, [handle, du, dv] in units of the view's plane (the
 * keyboard: one arrow press per step of the figure's snap; 'flip' is the swap figure's tip,
 * whose first step over the start is refused and stepped over), and the values after.
 */
const TRIES = {
  'fig-slab': { moves: [['origin', 2, 0]], keys: [['origin', 'ArrowRight', 4]], after: { 'origin.x': -2, tx_enter: 1 } },
  'fig-formula': { moves: [['dir', 2, 0]], keys: [['dir', 'ArrowRight', 2]], after: { 'dir.x': 4, tx_wall_min: 0.75 } },
  'fig-swap': { moves: [['origin', -6, 0], ['dir', 2, 0]], keys: [['origin', 'ArrowLeft', 6], ['dir', 'ArrowRight', 1]], after: { 'origin.x': -3, 'dir.x': 1, hit: true, tx_enter: 2 } },
  'fig-overlap': { moves: [['dir', 0, 1]], keys: [['dir', 'ArrowUp', 2]], after: { 'dir.y': 2, reason: 'no-overlap', ty_exit: 1.5, tx_enter: 2 } },
  'fig-inside': { moves: [['origin', 3, 0]], keys: [['origin', 'ArrowRight', 6]], after: { 'origin.x': 0, t_enter: -1, t: 0 } },
  'fig-graze': { moves: [['origin', 0, -3], ['dir', 0, 1]], keys: [['origin', 'ArrowDown', 3], ['dir', 'ArrowUp', 1]], after: { 'origin.y': -1, 'dir.y': 1, t_enter: 2, t_exit: 2, hit: true } },
  'fig-flat': { moves: [['min', 0, 2]], keys: [['min', 'ArrowUp', 4]], after: { 'min.y': 1, t_enter: 3, t_exit: 3, t: 3 } },
  'fig-obb': { moves: [['origin', 0, -1.1213]], keys: [['origin', 'ArrowDown', 2]], after: { 'origin.y': 1, enter_axis: 'x', hit: true } },
};

async function show(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await page.waitForSelector(`#${id}[data-figure="ready"]`, { timeout: 30_000 });
}

/** Pixels per unit of the plane in figure id (from its walls' lines and the box's size). */
async function scaleOf(page, id) {
  return page.evaluate((id) => {
    const v = window.figures[id].values;
    const a = document.querySelector(`#${id} [data-wall="xmin"]`).x1.baseVal.value;
    const b = document.querySelector(`#${id} [data-wall="xmax"]`).x1.baseVal.value;
    return (b - a) / (v['max.x'] - v['min.x']);
  }, id);
}

/** Drag handle `name` of figure id by (du, dv) units, grabbing it off centre, in small steps. */
async function drag(page, id, name, du, dv, scale) {
  const b = await page.locator(`#${id} [data-handle="${name}"] .fig-hit-area`).boundingBox();
  const x = b.x + b.width / 2 + 3;
  const y = b.y + b.height / 2 - 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + du * scale, y - dv * scale, { steps: 8 });
  await page.mouse.up();
}

describe('docs/tutorial.html', () => {
  for (const mode of ['keyboard', 'pointer']) {
    it(`every "try it" reaches its goal by ${mode}, and the prose follows`, async () => {
      const { page, problems } = await openPage(ctx.browser, `${ctx.base}/docs/tutorial.html`);
      try {
        await page.evaluate(() => { window.goals = []; document.addEventListener('figuregoal', (e) => window.goals.push(e.target.id)); });
        for (const [id, t] of Object.entries(TRIES)) {
          await show(page, id);
          expect(await page.getAttribute(`#${id} .slabcast-figure`, 'data-goal'), id).toBe('open');
          if (mode === 'keyboard') {
            for (const [name, key, times] of t.keys) {
              await page.focus(`#${id} [data-handle="${name}"]`);
              for (let k = 0; k < times; k++) await page.keyboard.press(key);
            }
          } else {
            const scale = await scaleOf(page, id);
            for (const [name, du, dv] of t.moves) await drag(page, id, name, du, dv, scale);
          }
          const values = await page.evaluate((id) => window.figures[id].values, id);
          expect(values, id).toMatchObject(t.after);
          expect(await page.getAttribute(`#${id} .slabcast-figure`, 'data-goal'), id).toBe('reached');
          expect(await page.textContent(`#${id} [role="status"]`), id).toMatch(/^\u2713 Goal reached: /);
        }
        expect(await page.evaluate(() => window.goals)).toEqual(Object.keys(TRIES));
        // The prose follows: section 2's t for the wall x = -1 is the figure's 0.75; section 4's
        // overlap row shows none; section 6's flat box is hit at t = 3.
        expect(await page.textContent('#formula output[data-figure-value="tx_wall_min"]')).toBe('0.75');
        expect(await page.textContent('#formula output[data-figure-value="dir.x"]')).toBe('4');
        expect(await page.textContent('#overlap output[data-figure-value="t_exit"]')).toBe('1.5');
        expect(await page.textContent('#flat output[data-figure-for="fig-flat"][data-figure-value="t"]')).toBe('3');
        expect(await page.textContent('#inside output[data-figure-value="t_enter"]')).toBe('\u22121');
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }

  for (const [width, height] of [[1280, 800], [390, 844]]) {
    it(`at ${width}x${height}: nothing overflows, the panel never covers the drawing, and the wheel scrolls the page`, async () => {
      const { page, problems } = await openPage(ctx.browser, `${ctx.base}/docs/tutorial.html`, { viewport: { width, height } });
      try {
        for (const id of Object.keys(TRIES)) {
          await show(page, id);
          const r = await page.evaluate((id) => {
            const host = document.getElementById(id);
            const hb = host.getBoundingClientRect();
            const out = [];
            for (const el of host.querySelectorAll('.slabcast-figure, .fig-stage, .fig-panel, .fig-panel *')) {
              const b = el.getBoundingClientRect();
              if ((b.width === 0 && b.height === 0) || el.closest('.fig-live')) continue;
              if (b.left < hb.left - 1 || b.right > hb.right + 1 || b.top < hb.top - 1 || b.bottom > hb.bottom + 1) out.push(el.className || el.tagName);
            }
            const s = host.querySelector('.fig-stage').getBoundingClientRect();
            const p = host.querySelector('.fig-panel').getBoundingClientRect();
            const covered = !(p.left >= s.right - 1 || p.right <= s.left + 1 || p.top >= s.bottom - 1 || p.bottom <= s.top + 1);
            // Items in the panel side by side must not overlap each other.
            const items = [...host.querySelectorAll('.fig-int')].map((e) => e.getBoundingClientRect());
            let clash = false;
            for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) {
              const a = items[i]; const c = items[j];
              if (a.left < c.right - 1 && c.left < a.right - 1 && a.top < c.bottom - 1 && c.top < a.bottom - 1) clash = true;
            }
            const v = host.querySelector('.fig-verdict').getBoundingClientRect();
            // No two visible labels of the drawing overlap.
            const texts = [...host.querySelectorAll('svg text')].filter((t) => t.getAttribute('visibility') !== 'hidden').map((t) => [t.textContent, t.getBoundingClientRect()]);
            const labels = [];
            for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
              const [a, ra] = texts[i];
              const [b, rb] = texts[j];
              if (ra.left < rb.right - 1 && rb.left < ra.right - 1 && ra.top < rb.bottom - 1 && rb.top < ra.bottom - 1) labels.push(`${a} / ${b}`);
            }
            return { out, covered, clash, labels, verdict: v.height, stage: [s.width, s.height], page: document.documentElement.scrollWidth - document.documentElement.clientWidth };
          }, id);
          expect(r.out, id).toEqual([]);
          expect(r.covered, id).toBe(false);
          expect(r.clash, id).toBe(false);
          expect(r.labels, id).toEqual([]);
          expect(r.verdict, id).toBeGreaterThan(0);
          expect(r.stage[1], id).toBeGreaterThan(180);
          expect(r.page, id).toBeLessThanOrEqual(0);
        }
        // No figure covers another, or the prose of its section.
        const clashes = await page.evaluate(() => {
          const abs = (el) => { const b = el.getBoundingClientRect(); return { l: b.left + scrollX, r: b.right + scrollX, t: b.top + scrollY, b: b.bottom + scrollY }; };
          const hit = (a, c) => a.l < c.r - 1 && c.l < a.r - 1 && a.t < c.b - 1 && c.t < a.b - 1;
          const figs = [...document.querySelectorAll('[data-figure]')];
          const out = [];
          figs.forEach((f, i) => {
            figs.slice(i + 1).forEach((g) => { if (hit(abs(f), abs(g))) out.push(`${f.id} covers ${g.id}`); });
            for (const el of f.closest('section').querySelectorAll('p, h2, h3, .try')) {
              if (!f.contains(el) && hit(abs(f), abs(el))) out.push(`${f.id} covers "${el.textContent.slice(0, 30)}"`);
            }
          });
          return out;
        });
        expect(clashes).toEqual([]);
        // The wheel over a figure scrolls the page.
        await show(page, 'fig-overlap');
        const b = await page.locator('#fig-overlap svg').boundingBox();
        await page.mouse.move(b.x + b.width / 2, b.y + Math.min(b.height / 2, 100));
        const y0 = await page.evaluate(() => window.scrollY);
        await page.mouse.wheel(0, 300);
        await page.waitForFunction((y0) => window.scrollY > y0 + 100, y0);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
