// The playground page (web/index.html + web/playground/, built into dist/site) in headless Chromium:
// it loads and draws, a ray handle drags with real mouse events and every hit
// stays what slabcast computes, share links round-trip bit for bit, exported
// case files replay through both runners, imports and hostile links are handled,
// and stress mode runs. Screenshots go to test-results/playground/.
//
// Uses Debian's /usr/bin/chromium (SwiftShader WebGL); nothing is downloaded.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticServer } from '../../web/bin/serve.mjs';
import { formatFloat32 } from '../../web/f32format.mjs';
import { decode, defaultState, encode, sameState } from '../../web/playground/state.mjs';
import { loadSlabcast } from '../../web/slabcast.js';
import { NATIVE_RUNNER, ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';
import { close, launchChromium, listen, openPage as openBrowserPage } from './helpers/browser.mjs';
import { requireSite } from './helpers/site.mjs';

const SHOTS = path.join(ROOT, 'test-results/playground');
const JS_RUNNER = path.join(ROOT, 'web/bin/slabcast-cases.mjs');

let server;
let base;
let browser;
let sc;
let tmp;

beforeAll(async () => {
  requireBuilt(WASM);
  // The built site (dist/site), as npm start and GitHub Pages serve it.
  requireSite();
  mkdirSync(SHOTS, { recursive: true });
  tmp = mkdtempSync(path.join(tmpdir(), 'slabcast-playground-'));
  sc = await loadSlabcast({ wasm: WASM });
  server = createStaticServer();
  base = `${await listen(server)}/`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await close(server);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * A new page that records console errors, page errors and dialogs, opened at `hash`
 * and waited on until <body data-ready="true">.
 */
function openPage(hash = '') {
  return openBrowserPage(browser, base + hash, { timeout: 60_000 });
}

const shot = (page, name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

const playgroundState = (page) => page.evaluate(() => window.playground.state());
const playgroundHits = (page) => page.evaluate(() => window.playground.hits());
const hitListText = (page) => page.getByTestId('hit-list').textContent();

/** The nearest hit per ray computed here in Node with slabcast (ties: lowest shape index). */
function expectedHits(state) {
  return state.rays.map((ray, i) => {
    let best = -1;
    let bestResult = null;
    state.shapes.forEach((shape, j) => {
      const r = sc.raycast({ origin: ray.origin, dir: ray.dir, tmax: ray.tmax }, shape);
      if (r.hit && (best < 0 || r.t < bestResult.t)) {
        best = j;
        bestResult = r;
      }
    });
    if (best < 0) return { ray: i, shape: -1, hit: false };
    const { t, t_enter, t_exit, point, normal } = bestResult;
    return { ray: i, shape: best, hit: true, t, t_enter, t_exit, point, normal };
  });
}

const SHORT = { aabb: 'box', obb: 'obb', sphere: 'sphere', plane: 'plane', capsule: 'capsule' };

/** What the hit list must show for each ray: the target's name and the exact float32 text of t. */
async function checkHitList(page, state, hits) {
  const rows = await page.evaluate(() => [...document.querySelectorAll('[data-testid="hit-list"] > li')].map((li) => ({
    target: li.querySelector('.target')?.textContent,
    tTitle: li.querySelector('dd .num')?.getAttribute('title') ?? null,
  })));
  expect(rows.length).toBe(state.rays.length);
  hits.forEach((h, i) => {
    expect(rows[i].target).toBe(h.hit ? `${SHORT[state.shapes[h.shape].type]} ${h.shape}` : 'miss');
    if (h.hit) expect(rows[i].tTitle).toBe(formatFloat32(h.t));
  });
}

/** Real mouse drag from (x0, y0) by (dx, dy) in `steps` moves; `during` runs before the button is released. */
async function mouseDrag(page, x0, y0, dx, dy, steps = 10, during = null) {
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (let k = 1; k <= steps; k++) {
    await page.mouse.move(x0 + (dx * k) / steps, y0 + (dy * k) / steps);
    if (k === Math.ceil(steps / 2) && during) await during();
  }
  await page.mouse.up();
}

/** Whether the point is on the 3D canvas (not under an overlay such as the legend). */
const onCanvas = (page, x, y) => page.evaluate(([px, py]) => document.elementFromPoint(px, py)?.tagName === 'CANVAS', [x, y]);

/** How many pixels differ (any channel by more than 24) between two PNG screenshots, decoded by the page. */
function differingPixels(page, pngA, pngB) {
  return page.evaluate(async ([a, b]) => {
    const load = async (b64) => {
      const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
      const bmp = await createImageBitmap(blob);
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const g = c.getContext('2d');
      g.drawImage(bmp, 0, 0);
      return g.getImageData(0, 0, bmp.width, bmp.height);
    };
    const [A, B] = await Promise.all([load(a), load(b)]);
    let n = 0;
    for (let i = 0; i < A.data.length; i += 4) {
      if (Math.abs(A.data[i] - B.data[i]) > 24 || Math.abs(A.data[i + 1] - B.data[i + 1]) > 24 ||
          Math.abs(A.data[i + 2] - B.data[i + 2]) > 24) n++;
    }
    return { differing: n, total: A.data.length / 4 };
  }, [pngA.toString('base64'), pngB.toString('base64')]);
}

// base64url (no padding), for hand-made hostile links.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
function fromB64url(s) {
  const out = [];
  let acc = 0;
  let bits = 0;
  for (const ch of s) {
    acc = (acc << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) { bits -= 8; out.push((acc >> bits) & 0xff); }
  }
  return Uint8Array.from(out);
}
function toB64url(bytes) {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = ((acc << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 6) { bits -= 6; out += B64[(acc >> bits) & 63]; }
  }
  if (bits > 0) out += B64[(acc << (6 - bits)) & 63];
  return out;
}

/** The default scene's (version 2) link with the first float of shape 0 (aabb min.x) replaced by NaN. */
function nanLink() {
  const link = encode(defaultState());
  const bytes = fromB64url(link.slice('#v2.'.length));
  // header 16 bytes, then shape 0: type byte, then min.x
  new DataView(bytes.buffer).setUint32(17, 0x7fc00000, true);
  return `#v2.${toB64url(bytes)}`;
}

describe('playground page', () => {
  it('loads to data-ready without errors and draws the scene', async () => {
    const { page, problems, dialogs } = await openPage();
    try {
      expect(await page.getByTestId('error').isHidden()).toBe(true);
      const state = await playgroundState(page);
      expect(sameState(state, defaultState())).toBe(true);
      // The hits are slabcast's.
      const hits = await playgroundHits(page);
      expect(hits).toEqual(expectedHits(state));
      await checkHitList(page, state, hits);
      await page.waitForTimeout(100);
      await shot(page, '01-initial');
      // The WebGL canvas really drew: the view with and without it differ over a good part.
      const view = page.locator('#view');
      const withCanvas = await view.screenshot();
      await page.evaluate(() => {
        document.querySelector('#view canvas').style.visibility = 'hidden';
        document.querySelector('#view .labels').style.visibility = 'hidden';
      });
      const without = await view.screenshot();
      await page.evaluate(() => {
        document.querySelector('#view canvas').style.visibility = '';
        document.querySelector('#view .labels').style.visibility = '';
      });
      const { differing, total } = await differingPixels(page, withCanvas, without);
      expect(differing / total).toBeGreaterThan(0.05);
      expect(problems).toEqual([]);
      expect(dialogs).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('drags a ray tip with the mouse; every hit is recomputed by slabcast while dragging', async () => {
    const { page, problems } = await openPage();
    try {
      const before = await playgroundState(page);
      const hitsBefore = await playgroundHits(page);
      const listBefore = await hitListText(page);
      const handles = await page.evaluate(() => window.playground.handles());
      const byId = Object.fromEntries(handles.map((h) => [h.id, h]));
      const tip = byId['ray0-tip'];
      expect(await onCanvas(page, tip.x, tip.y)).toBe(true);
      // Drag the tip of ray 0 down by 60 px: it aims lower, into the floor in front of the box.
      let midHits = null;
      let midState = null;
      await mouseDrag(page, tip.x, tip.y, 10, 60, 10, async () => {
        midState = await playgroundState(page);
        midHits = await playgroundHits(page);
      });
      const after = await playgroundState(page);
      const hitsAfter = await playgroundHits(page);
      await shot(page, '02-after-tip-drag');

      // The ray's direction changed (only it), its origin and every shape stayed.
      expect(after.rays[0].origin).toEqual(before.rays[0].origin);
      expect(after.rays[0].dir).not.toEqual(before.rays[0].dir);
      expect(after.rays.slice(1)).toEqual(before.rays.slice(1));
      expect(after.shapes).toEqual(before.shapes);
      for (const x of after.rays[0].dir) expect(Math.fround(x)).toBe(x);
      // Mid-drag the hits were already recomputed (on pointer moves, not on release).
      expect(midState.rays[0].dir).not.toEqual(before.rays[0].dir);
      expect(midHits).toEqual(expectedHits(midState));
      // The hit list changed and matches slabcast computed here, independently.
      expect(hitsAfter[0]).not.toEqual(hitsBefore[0]);
      expect(hitsAfter).toEqual(expectedHits(after));
      expect(await hitListText(page)).not.toBe(listBefore);
      await checkHitList(page, after, hitsAfter);
      // The camera did not orbit: the other handles stayed put on screen.
      const handlesAfter = Object.fromEntries((await page.evaluate(() => window.playground.handles())).map((h) => [h.id, h]));
      expect(Math.abs(handlesAfter.shape3.x - byId.shape3.x)).toBeLessThan(0.5);
      expect(Math.abs(handlesAfter.shape3.y - byId.shape3.y)).toBeLessThan(0.5);
      // The link follows the scene.
      await page.waitForFunction(() => location.hash.startsWith('#v2.'));
      expect(await page.evaluate(() => location.hash)).toBe(encode(after));
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('drags every handle with the mouse; each drag moves what it grabbed and the hits stay slabcast\'s', async () => {
    const { page, problems } = await openPage();
    try {
      const ids = (await page.evaluate(() => window.playground.handles())).map((h) => h.id);
      const s0 = await playgroundState(page);
      expect(ids.length).toBe(2 * s0.rays.length + s0.shapes.length);
      for (const id of ids) {
        const h = (await page.evaluate(() => window.playground.handles())).find((x) => x.id === id);
        // every handle has a point where a press grabs it, on the canvas
        expect(h.grabbable, id).toBe(true);
        expect(await onCanvas(page, h.x, h.y)).toBe(true);
        const before = await playgroundState(page);
        await mouseDrag(page, h.x, h.y, 18, -14, 4);
        const after = await playgroundState(page);
        const m = /^ray(\d+)-(origin|tip)$/.exec(id);
        if (m) {
          const i = Number(m[1]);
          if (m[2] === 'origin') expect(after.rays[i].origin, id).not.toEqual(before.rays[i].origin);
          else expect(after.rays[i].dir, id).not.toEqual(before.rays[i].dir);
          expect(after.shapes, id).toEqual(before.shapes);
        } else {
          const j = Number(/^shape(\d+)$/.exec(id)[1]);
          expect(after.shapes[j], id).not.toEqual(before.shapes[j]);
          expect(after.rays, id).toEqual(before.rays);
          expect(after.shapes.filter((_, k) => k !== j), id).toEqual(before.shapes.filter((_, k) => k !== j));
        }
        expect(await playgroundHits(page), id).toEqual(expectedHits(after));
      }
      await checkHitList(page, await playgroundState(page), await playgroundHits(page));
      await shot(page, '02b-after-every-handle');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('drags a shape with the mouse and explains the slab method step by step', async () => {
    const { page, problems } = await openPage();
    try {
      const before = await playgroundState(page);
      const h = (await page.evaluate(() => window.playground.handles())).find((x) => x.id === 'shape3');
      expect(await onCanvas(page, h.x, h.y)).toBe(true);
      await mouseDrag(page, h.x, h.y, -40, 0, 6);
      const after = await playgroundState(page);
      expect(after.selected.shape).toBe(3);
      expect(after.shapes[3].type).toBe('sphere');
      expect(after.shapes[3].center[0]).toBeLessThan(before.shapes[3].center[0]);
      expect(after.shapes[3].radius).toBe(before.shapes[3].radius);
      expect(await playgroundHits(page)).toEqual(expectedHits(after));

      // Slab panel: ray 1 against box 0 (ray 1 runs along the top face: direction y = z = 0).
      await page.getByTestId('slab-ray').selectOption('1');
      await page.getByTestId('slab-shape').selectOption('0');
      const panel = page.getByTestId('slab-panel');
      expect(await page.getByTestId('slab-interval-x').textContent()).toBe('[3, 5]');
      expect(await page.getByTestId('slab-interval-y').textContent()).toBe('[−∞, ∞]');
      // Before the walk-through reaches its last step there is no verdict.
      expect(await page.locator('[data-testid="slab-verdict"]').count()).toBe(0);
      expect(await page.getByTestId('slab-warning').isHidden()).toBe(true);
      // Step through: each step has its own words; step k shows k / 7.
      const texts = [await page.getByTestId('slab-step').textContent()];
      for (let k = 1; k <= 7; k++) {
        await page.getByTestId('slab-next').click();
        texts.push(await page.getByTestId('slab-step').textContent());
        expect(await page.getByTestId('slab-count').textContent()).toBe(`${k} / 7`);
      }
      expect(new Set(texts).size).toBe(8);
      expect(texts[3]).toMatch(/^Step 3 of 7: the y slab.*parallel/);
      expect(texts[7]).toMatch(/^Step 7 of 7: the verdict.*Hit\./);
      expect(await page.getByTestId('slab-verdict').getAttribute('data-verdict')).toBe('hit');
      const flags = await panel.locator('[data-flag]').evaluateAll((els) => els.map((e) => e.dataset.flag));
      expect(flags).toEqual(['parallel', 'parallel']);
      expect(await page.getByTestId('slab-next').isDisabled()).toBe(true);
      await page.getByTestId('slab-back').click();
      expect(await page.getByTestId('slab-step').textContent()).toBe(texts[6]);
      expect(await page.locator('[data-testid="slab-verdict"]').count()).toBe(0);
      await page.getByTestId('slab-next').click();
      await page.getByTestId('slab-panel').scrollIntoViewIfNeeded();
      await shot(page, '03-slab-step');

      // Ray 2 starts inside box 1: flagged.
      await page.getByTestId('slab-ray').selectOption('2');
      await page.getByTestId('slab-shape').selectOption('1');
      const flags2 = await panel.locator('[data-flag]').evaluateAll((els) => els.map((e) => e.dataset.flag));
      expect(flags2).toContain('origin-inside');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('share link: the opened link shows the same scene bit for bit and the same hits', async () => {
    const { page, problems } = await openPage();
    try {
      // Change the scene first so the link is not just the default.
      const tip = (await page.evaluate(() => window.playground.handles())).find((x) => x.id === 'ray1-tip');
      await mouseDrag(page, tip.x, tip.y, 0, -45, 5);
      await page.getByTestId('share').click();
      const url = await page.getByTestId('share-url').inputValue();
      const state = await playgroundState(page);
      expect(url).toBe(`${base}${encode(state)}`);
      expect(await page.evaluate(() => location.hash)).toBe(encode(state));
      const list = await hitListText(page);
      const hits = await playgroundHits(page);

      const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const otherProblems = [];
      other.on('pageerror', (e) => otherProblems.push(e.message));
      try {
        await other.goto(url);
        await other.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
        const opened = await playgroundState(other);
        expect(sameState(opened, state)).toBe(true);
        expect(await hitListText(other)).toBe(list);
        expect(await playgroundHits(other)).toEqual(hits);
        expect(await other.getByTestId('error').isHidden()).toBe(true);
        await shot(other, '04-share-opened');
        // A link pasted over the current one (hashchange) opens too; a broken one leaves the scene.
        const def = defaultState();
        def.rays[0].tmax = 2.5;
        await other.evaluate((h) => { location.hash = h; }, encode(def));
        await other.waitForFunction(() => window.playground.state().rays[0].tmax === 2.5);
        expect(sameState(await playgroundState(other), def)).toBe(true);
        expect(await playgroundHits(other)).toEqual(expectedHits(def));
        await other.evaluate(() => { location.hash = '#v1.broken!'; });
        await other.getByTestId('error').waitFor({ state: 'visible' });
        expect(sameState(await playgroundState(other), def)).toBe(true);
        // The bad fragment is taken out of the address bar.
        expect(await other.evaluate(() => location.href)).toBe(base);
      } finally {
        await other.close();
      }
      expect(otherProblems).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('exports a case file that both runners replay and check', async () => {
    requireBuilt(NATIVE_RUNNER);
    const { page, problems } = await openPage();
    try {
      await page.getByTestId('export-case').click();
      const text = await page.getByTestId('case-json').inputValue();
      const doc = JSON.parse(text);
      expect(doc.format).toBe('slabcast-cases/1');
      expect(doc.generator).toMatch(/^slabcast \d+\.\d+\.\d+$/);
      expect(doc.cases.every((c) => c.observed && c.expect === undefined)).toBe(true);
      const state = await playgroundState(page);
      expect(doc.cases.length).toBe(state.rays.length * state.shapes.length);
      const link = page.getByTestId('download-case');
      expect(await link.getAttribute('download')).toBe('slabcast-cases.json');
      expect(await link.getAttribute('href')).toMatch(/^blob:/);
      // The reporter's step (docs/playground.md): observed becomes expect.
      const file = path.join(tmp, 'exported.json');
      writeFileSync(file, text.replaceAll('"observed": {', '"expect": {'));
      const native = spawnSync(NATIVE_RUNNER, ['check', file], { encoding: 'utf8' });
      expect({ status: native.status, stderr: native.stderr }).toEqual({ status: 0, stderr: '' });
      const wasm = spawnSync(process.execPath, [JS_RUNNER, 'check', file], { cwd: ROOT, encoding: 'utf8' });
      expect({ status: wasm.status, stderr: wasm.stderr }).toEqual({ status: 0, stderr: '' });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('imports a case file into the scene; a bad one leaves the scene as it was', async () => {
    const { page, problems, dialogs } = await openPage();
    try {
      const caseFile = {
        format: 'slabcast-cases/1',
        cases: [
          { id: 'a', query: 'raycast', ray: { origin: [-4, 0.5, 0.25], dir: [1, 0, 0] }, shape: { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] } },
          { id: 'b', query: 'raycast', ray: { origin: [-4, 0.5, 0.25], dir: [1, 0, 0] }, shape: { type: 'sphere', center: [3, 0.5, 0], radius: 0.5 } },
          { id: 'c', query: 'raycast', ray: { origin: [0.5, 4, 0.5], dir: [0, -1, 0], tmax: 2.5 }, shape: { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] } },
          // Grazes the box's edge x = 0, y = 0: t_enter = t_exit = 1.
          { id: 'e', query: 'raycast', ray: { origin: [1, -1, 0.5], dir: [-1, 1, 0] }, shape: { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] } },
          { id: 'd', query: 'linetest', segment: { a: [0, 0, 0], b: [1, 1, 1] }, shape: { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] } },
        ],
      };
      await page.locator('details.import summary').click();
      await page.getByTestId('import-json').fill(JSON.stringify(caseFile));
      await page.getByTestId('import').click();
      const state = await playgroundState(page);
      expect(state.shapes).toEqual([
        { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] },
        { type: 'sphere', center: [3, 0.5, 0], radius: 0.5 },
      ]);
      expect(state.rays).toEqual([
        { origin: [-4, 0.5, 0.25], dir: [1, 0, 0], tmax: Infinity },
        { origin: [0.5, 4, 0.5], dir: [0, -1, 0], tmax: 2.5 },
        { origin: [1, -1, 0.5], dir: [-1, 1, 0], tmax: Infinity },
      ]);
      const hits = await playgroundHits(page);
      expect(hits).toEqual(expectedHits(state));
      expect(hits.map((h) => h.shape)).toEqual([0, -1, 0]); // ray 1 stops 0.5 short of the box
      await checkHitList(page, state, hits);
      expect(await page.getByTestId('error').isHidden()).toBe(true);
      // The slab panel flags the grazing ray (t_enter = t_exit) and the one cut short by tmax
      // (at the last step of the walk-through, where the verdict is).
      for (let k = 1; k <= 7; k++) await page.getByTestId('slab-next').click();
      expect(await page.getByTestId('slab-count').textContent()).toBe('7 / 7');
      await page.getByTestId('slab-ray').selectOption('2');
      await page.getByTestId('slab-shape').selectOption('0');
      expect(await page.getByTestId('slab-panel').locator('[data-flag]').evaluateAll((els) => els.map((e) => e.dataset.flag)))
        .toEqual(['parallel', 'grazing']);
      expect(await page.getByTestId('slab-verdict').getAttribute('data-verdict')).toBe('hit');
      await page.getByTestId('slab-ray').selectOption('1');
      expect(await page.getByTestId('slab-verdict').textContent()).toContain('beyond tmax');
      expect(await page.getByTestId('slab-warning').isHidden()).toBe(true);
      await shot(page, '05-imported');

      // Bad imports: the notice, and the scene stays.
      const current = await playgroundState(page);
      for (const bad of ['{ not json', '{"format": "something-else", "cases": []}',
        JSON.stringify({ format: 'slabcast-cases/1', cases: [{ id: 'x', query: 'raycast', ray: { origin: [0, 0, 0], dir: [0, 0, 0] }, shape: { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] } }] }),
        `{"format": "slabcast-cases/1", "cases": [{"id": "<img src=x onerror=alert(1)>", "query": "raycast", "ray": {"origin": [0,0,0], "dir": [1,0,0]}, "shape": {"type": "<script>alert(2)</script>"}}]}`]) {
        await page.getByTestId('import-json').fill(bad);
        await page.getByTestId('import').click();
        const notice = page.getByTestId('error');
        expect(await notice.isVisible()).toBe(true);
        expect(await notice.getAttribute('role')).toBe('alert');
        expect((await notice.textContent()).length).toBeGreaterThan(10);
        expect(sameState(await playgroundState(page), current)).toBe(true);
      }
      expect(await page.evaluate(() => document.querySelectorAll('img, script:not([type]):not([src]):not([data-role="load-watch"])').length)).toBe(0);
      await shot(page, '06-bad-import');
      expect(dialogs).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('hostile or broken links: a notice, the default scene, no script, no dialog', async () => {
    const hostile = [
      ['percent', '#v1.%%%'],
      ['version', '#v9.abc'],
      ['huge', `#v1.${'A'.repeat(100000)}`],
      ['html', '#<img src=x onerror=alert(1)>'],
      ['nan', nanLink()],
      ['truncated', encode(defaultState()).slice(0, 40)],
    ];
    const expected = expectedHits(defaultState());
    // One page per link (a fresh load each), two at a time (a software GL on a shared machine).
    const open = async ([name, hash]) => {
      const { page, problems, dialogs } = await openPage(hash);
      try {
        const notice = page.getByTestId('error');
        const out = {
          name,
          visible: await notice.isVisible(),
          role: await notice.getAttribute('role'),
          text: await notice.textContent(),
          isDefault: sameState(await playgroundState(page), defaultState()),
          hits: await playgroundHits(page),
          images: await page.evaluate(() => document.querySelectorAll('img').length),
          address: await page.evaluate(() => location.href),
          problems,
          dialogs,
        };
        if (name === 'html' || name === 'nan') await shot(page, `07-hostile-${name}`);
        return out;
      } finally {
        await page.close();
      }
    };
    const results = [];
    for (let k = 0; k < hostile.length; k += 2) results.push(...await Promise.all(hostile.slice(k, k + 2).map(open)));
    for (const r of results) {
      expect({ name: r.name, visible: r.visible, role: r.role, isDefault: r.isDefault, images: r.images, problems: r.problems, dialogs: r.dialogs })
        .toEqual({ name: r.name, visible: true, role: 'alert', isDefault: true, images: 0, problems: [], dialogs: [] });
      expect(r.text).toMatch(/could not be opened/);
      expect(r.address, r.name).toBe(base);
      expect(r.hits).toEqual(expected);
    }
  });

  it('stress mode builds a world, shows the time per update, drags the cluster, and goes back', async () => {
    const { page, problems } = await openPage();
    try {
      const before = await playgroundState(page);
      const hitsBefore = await playgroundHits(page);
      await page.locator('label.switch').click();
      expect(await page.getByTestId('stress').isChecked()).toBe(true);
      const time = page.getByTestId('stress-time');
      await expect.poll(() => time.textContent()).toMatch(/^\d+(\.\d+)? ms per update$/);
      const ms1 = Number(await time.getAttribute('data-ms'));
      // the number on screen is the measured one, as the page rounds it
      expect(Number.isFinite(ms1) && ms1 > 0).toBe(true);
      expect(await time.textContent()).toBe(`${ms1.toFixed(2)} ms per update`);
      expect(await page.locator('#stress-sub').textContent()).toContain('castRays(1000 rays) over 10000 boxes');
      // The handle where it rests: read it until two reads two frames apart agree (the view may
      // still be resizing to the stress panel; a drag aimed at a moving handle grabs nothing).
      const stressHandle = async () => (await page.evaluate(async () => {
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return window.playground.handles();
      })).find((h) => h.id === 'stress-handle');
      let handle = await stressHandle();
      await expect.poll(async () => {
        const h = await stressHandle();
        const settled = h !== undefined && handle !== undefined && h.x === handle.x && h.y === handle.y;
        handle = h;
        return settled;
      }).toBe(true);
      const updatesBefore = Number(await time.getAttribute('data-updates'));
      await mouseDrag(page, handle.x, handle.y, 80, 30, 4);
      // The drag ran updates, one frame later (the average text alone may round to the same value).
      await expect.poll(async () => Number(await time.getAttribute('data-updates'))).toBeGreaterThan(updatesBefore);
      // The cluster (and its handle) followed the mouse.
      const moved = (await page.evaluate(() => window.playground.handles())).find((h) => h.id === 'stress-handle');
      expect(Math.hypot(moved.x - handle.x - 80, moved.y - handle.y - 30)).toBeLessThan(3);
      await shot(page, '08-stress');
      await page.locator('label.switch').click();
      expect(await page.getByTestId('stress').isChecked()).toBe(false);
      expect(await time.isHidden()).toBe(true);
      expect(sameState(await playgroundState(page), before)).toBe(true);
      expect(await playgroundHits(page)).toEqual(hitsBefore);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('a capsule in the playground', () => {
  /** Type `text` into the inspector field with test id `id` and commit it. */
  async function setField(page, id, text) {
    const input = page.getByTestId(id);
    await input.fill(text);
    await input.press('Enter');
  }

  it('adds a capsule, places it in front of box 0, and ray 0 hits it; its 2D handles move it', async () => {
    const { page, problems } = await openPage();
    try {
      const before = await playgroundState(page);
      await page.getByTestId('add-capsule').click();
      let s = await playgroundState(page);
      expect(s.shapes.length).toBe(before.shapes.length + 1);
      const j = s.shapes.length - 1;
      expect(s.shapes[j].type).toBe('capsule');
      expect(s.selected.shape).toBe(j);
      // A new capsule stands upright: b - a along +y.
      expect(s.shapes[j].a[0]).toBe(s.shapes[j].b[0]);
      expect(s.shapes[j].b[1]).toBeGreaterThan(s.shapes[j].a[1]);
      expect(await playgroundHits(page)).toEqual(expectedHits(s));

      // The capsule a = [-4.5, -1, 0], b = [-4.5, 3, 0], radius 0.5, through the inspector. Ray 0
      // (origin [-6, 2, 0], dir [1, -0.5, 0]) runs in the plane z = 0, where the capsule is the band
      // |x + 4.5| <= 0.5 for -1 <= y <= 3: it enters at x = -5, t = 1, y = 2 - 0.5 = 1.5 (inside
      // [-1, 3]), before box 0's face x = -3 at t = 3. Point [-5, 1.5, 0], normal [-1, 0, 0].
      for (const [field, v] of [['a-0', '-4.5'], ['a-1', '-1'], ['a-2', '0'], ['b-0', '-4.5'], ['b-1', '3'], ['b-2', '0'], ['radius', '0.5']]) {
        await setField(page, `inspect-shape-${field}`, v);
      }
      s = await playgroundState(page);
      expect(s.shapes[j]).toEqual({ type: 'capsule', a: [-4.5, -1, 0], b: [-4.5, 3, 0], radius: 0.5 });
      const hits = await playgroundHits(page);
      expect(hits[0]).toEqual({ ray: 0, shape: j, hit: true, t: 1, t_enter: 1, t_exit: 2, point: [-5, 1.5, 0], normal: [-1, 0, 0] });
      expect(hits).toEqual(expectedHits(s));
      await checkHitList(page, s, hits);
      expect(await page.getByTestId('hit-target-0').textContent()).toBe(`capsule ${j}`);
      await page.waitForTimeout(100);
      await shot(page, '09-capsule-3d');
      // The 3D view offers the capsule's end points as handles; dragging b moves b only.
      const h3 = Object.fromEntries((await page.evaluate(() => window.playground.handles())).map((h) => [h.id, h]));
      expect(h3[`shape${j}-a`].grabbable).toBe(true);
      expect(h3[`shape${j}-b`].grabbable).toBe(true);
      await mouseDrag(page, h3[`shape${j}-b`].x, h3[`shape${j}-b`].y, 30, 0, 4);
      let after = await playgroundState(page);
      expect(after.shapes[j].a).toEqual([-4.5, -1, 0]);
      expect(after.shapes[j].b).not.toEqual([-4.5, 3, 0]);
      expect(after.shapes[j].radius).toBe(0.5);
      expect(await playgroundHits(page)).toEqual(expectedHits(after));
      await page.getByTestId('undo').click();
      expect((await playgroundState(page)).shapes[j]).toEqual(s.shapes[j]);

      // The link holds the capsule (version 3) bit for bit.
      await page.waitForFunction(() => location.hash.startsWith('#v3.'));
      const link = decode(await page.evaluate(() => location.hash));
      expect(link.ok).toBe(true);
      expect(sameState(link.state, await playgroundState(page))).toBe(true);

      // Front view (x to the right, y up): the stadium outline and the a, b and radius handles.
      await page.getByTestId('view-front').click();
      expect(await page.locator(`[data-testid="view2d"] polygon[data-shape="${j}"]`).count()).toBe(1);
      const h2 = Object.fromEntries((await page.evaluate(() => window.playground.handles())).map((h) => [h.id, h]));
      for (const id of [`shape${j}-a`, `shape${j}-b`, `shape${j}-r`]) expect(h2[id]?.grabbable, id).toBe(true);
      // a and b are 4 apart in y: on screen, a is below b by 4 * scale pixels.
      const scale = Number(await page.getByTestId('view2d').getAttribute('data-scale'));
      expect(Math.abs(h2[`shape${j}-a`].y - h2[`shape${j}-b`].y - 4 * scale)).toBeLessThan(1);
      // Drag the radius handle 1 world unit further from the segment: the radius grows by about 1.
      await mouseDrag(page, h2[`shape${j}-r`].x, h2[`shape${j}-r`].y, scale, 0, 4);
      after = await playgroundState(page);
      expect(Math.abs(after.shapes[j].radius - 1.5)).toBeLessThan(0.05);
      expect(after.shapes[j].a).toEqual([-4.5, -1, 0]);
      expect(await playgroundHits(page)).toEqual(expectedHits(after));
      // Drag a by 2 world units to the right: a.x = -2.5, b and the radius stay.
      await mouseDrag(page, h2[`shape${j}-a`].x, h2[`shape${j}-a`].y, 2 * scale, 0, 4);
      const moved = await playgroundState(page);
      expect(Math.abs(moved.shapes[j].a[0] + 2.5)).toBeLessThan(0.05);
      expect(moved.shapes[j].a[1]).toBe(-1);
      expect(moved.shapes[j].b).toEqual([-4.5, 3, 0]);
      expect(moved.shapes[j].radius).toBe(after.shapes[j].radius);
      expect(await playgroundHits(page)).toEqual(expectedHits(moved));
      await shot(page, '10-capsule-front');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
