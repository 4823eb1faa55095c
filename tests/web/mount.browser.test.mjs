// mountPlayground (web/mount.js, slabcast/playground) in headless Chromium, as a page that
// uses the npm package without a bundler would: a host page of its own with an import map
// for three.js, served with web/ and node_modules/three by a plain node:http server written
// here. The playground goes into an element, shows the scene and settings given, leaves the
// address bar alone, and destroy() takes it away with its listeners; bad arguments are
// refused with clear errors.
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';
import { close, launchChromium, listen } from './helpers/browser.mjs';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };

const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/web/playground/playground.css">
<script type="importmap">{"imports": {"three": "/node_modules/three/build/three.module.js", "three/addons/": "/node_modules/three/examples/jsm/"}}</script>
</head><body>
<h1 id="host-title">A page about rays</h1>
<p><button id="host-button">the host's own button</button> <code id="host-code">code</code></p>
<div id="loading">the host's own element named loading</div>
<div id="demo" style="width: 900px; height: 520px; position: relative"></div>
<script type="module">
  import { mountPlayground } from '/web/mount.js';
  window.mountPlayground = mountPlayground;
  window.hostReady = true;
</script>
</body></html>`;

let server;
let base;
let browser;

beforeAll(async () => {
  requireBuilt(WASM);
  server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url, 'http://x');
    if (pathname === '/host.html') {
      res.writeHead(200, { 'Content-Type': TYPES['.html'] }).end(HOST_PAGE);
      return;
    }
    const file = path.join(ROOT, path.normalize(decodeURIComponent(pathname)));
    const ok = (file.startsWith(path.join(ROOT, 'web') + path.sep) || file.startsWith(path.join(ROOT, 'node_modules/three') + path.sep)) &&
      existsSync(file) && statSync(file).isFile();
    if (!ok) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  base = await listen(server);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await close(server);
});

const SCENE = {
  shapes: [{ type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] }, { type: 'sphere', center: [4, 0, 0], radius: 0.5 }],
  rays: [{ origin: [-5, 0.1, 0], dir: [1, 0, 0] }],
};

describe('mountPlayground', () => {
  it('puts the playground into an element, with the scene and settings given, and destroy() takes it away', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    try {
      await page.goto(`${base}/host.html#section-2`);
      await page.waitForFunction(() => window.hostReady === true);
      const result = await page.evaluate(async (scene) => {
        const handle = await window.mountPlayground(document.getElementById('demo'), scene, { view: 'top', step: 2, embed: true, panels: { tutorial: false } });
        window.handle = handle;
        return {
          state: handle.store.state,
          ui: handle.store.ui,
          ready: handle.element.dataset.ready,
          inDemo: document.getElementById('demo').contains(handle.element),
          canvas: !!handle.element.querySelector('#view canvas'),
          header: handle.element.querySelector('header.top').hidden,
          slabCard: handle.element.querySelector('#slab-card').hidden,
          hits: handle.element.querySelector('[data-testid="hit-list"]').textContent,
          hash: location.hash,
          hostLoading: !!document.getElementById('loading'),
        };
      }, SCENE);
      // The scene, rounded to float32 (0.1 -> Math.fround(0.1)); no tmax = Infinity; the first ray and shape selected.
      expect(result.state).toEqual({
        shapes: SCENE.shapes,
        rays: [{ origin: [-5, Math.fround(0.1), 0], dir: [1, 0, 0], tmax: Infinity }],
        selected: { ray: 0, shape: 0 },
      });
      expect(result.ui).toMatchObject({ view: 'top', step: 2, embed: true, handles: 'free', panels: { toolbar: true, hits: true, tutorial: false } });
      expect(result).toMatchObject({ ready: 'true', inDemo: true, canvas: true, header: true, slabCard: true, hash: '#section-2', hostLoading: true });
      // The ray meets the box first, at x = -1: t = 4.
      expect(result.hits).toMatch(/box 0/);

      // The host page keeps its own look: playground.css styles only what carries data-playground,
      // and the playground's state (view, stress) sits on its root, not on the host's body.
      const hostLook = await page.evaluate(() => {
        const cs = (e) => getComputedStyle(e);
        return {
          bodyMargin: cs(document.body).margin,
          bodyDisplay: cs(document.body).display,
          bodyView: document.body.dataset.view ?? null,
          buttonRadius: cs(document.getElementById('host-button')).borderRadius,
          buttonBg: cs(document.getElementById('host-button')).backgroundColor,
          codeFont: cs(document.getElementById('host-code')).fontFamily,
          rootView: window.handle.element.dataset.view,
          rootFlag: window.handle.element.dataset.playground,
        };
      });
      // the browser's defaults (Chromium): body margin 8px, block; a plain button; monospace code
      expect(hostLook).toEqual({
        bodyMargin: '8px', bodyDisplay: 'block', bodyView: null, buttonRadius: '0px',
        buttonBg: 'rgb(239, 239, 239)', codeFont: 'monospace', rootView: 'top', rootFlag: 'mounted',
      });

      // An edit reaches the store; the address bar is left alone.
      await page.evaluate(() => window.handle.store.setUi({ step: 3 }));
      expect(await page.evaluate(() => location.hash)).toBe('#section-2');

      await page.evaluate(() => window.handle.destroy());
      expect(await page.evaluate(() => document.getElementById('demo').children.length)).toBe(0);
      expect(await page.evaluate(() => document.getElementById('host-title').textContent)).toBe('A page about rays');
      // Its window listeners are gone: a Delete key press reaches nothing of it (and throws nothing).
      // (While mounted, Delete deletes the selected shape: see the lock test below.)
      await page.keyboard.press('Delete');
      await page.keyboard.press('w');
      expect(await page.evaluate(() => window.handle.store.state.shapes.length)).toBe(2);
      await page.evaluate(() => window.handle.destroy()); // a second destroy() does nothing

      // Mounted again after destroy(), locked.
      // Mounted again after destroy(): Delete deletes the selected shape; once locked, it does not.
      await page.evaluate(async (scene) => {
        window.handle2 = await window.mountPlayground(document.getElementById('demo'), scene);
      }, SCENE);
      // Keys reach a mounted playground only when the reader is in it (several can share a page).
      await page.keyboard.press('Delete');
      expect(await page.evaluate(() => window.handle2.store.state.shapes.length)).toBe(2);
      await page.evaluate(() => window.handle2.element.querySelector('#stage').focus());
      await page.keyboard.press('Delete');
      expect(await page.evaluate(() => window.handle2.store.state.shapes.length)).toBe(1);
      await page.evaluate(() => window.handle2.store.setUi({ handles: 'locked' }));
      expect(await page.evaluate(() => window.handle2.element.querySelector('.toolbar').inert)).toBe(true);
      await page.keyboard.press('Delete');
      expect(await page.evaluate(() => window.handle2.store.state.shapes.length)).toBe(1);
      await page.evaluate(() => window.handle2.destroy());
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('mounts two playgrounds on one page: each fits its 640x420 element and each drag changes only its own', async () => {
    // A wide window (1280 px): only the elements are narrow, so the narrow layout must come
    // from the element's width, not the window's.
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    try {
      await page.goto(`${base}/host.html`);
      await page.waitForFunction(() => window.hostReady === true);
      await page.evaluate(async (scene) => {
        document.getElementById('demo').remove();
        const make = (id) => {
          const div = document.createElement('div');
          div.id = id;
          div.style.cssText = 'width: 640px; height: 420px; position: relative';
          const after = document.createElement('p');
          after.id = `${id}-after`;
          after.textContent = 'the author\u2019s next paragraph';
          document.body.append(div, after);
          return div;
        };
        window.a = await window.mountPlayground(make('one'), scene, { view: 'top' });
        window.b = await window.mountPlayground(make('two'), scene, { view: 'top' });
      }, SCENE);
      const fit = await page.evaluate(() => [window.a, window.b].map((h) => {
        const box = h.element.parentElement.getBoundingClientRect();
        const next = document.getElementById(`${h.element.parentElement.id}-after`).getBoundingClientRect();
        const layout = h.element.querySelector('.layout');
        const out = [...h.element.querySelectorAll('*')].filter((e) => {
          if (!e.offsetParent && getComputedStyle(e).position !== 'fixed') return false;
          const r = e.getBoundingClientRect();
          // what scrolls inside the root is clipped by it; only count what is drawn past the element
          const clip = h.element.getBoundingClientRect();
          return r.width > 0 && (r.right > clip.right + 0.5 || r.left < clip.left - 0.5) && getComputedStyle(e).position === 'fixed';
        }).length;
        return {
          rootH: Math.round(h.element.getBoundingClientRect().height),
          rootBottom: Math.round(h.element.getBoundingClientRect().bottom),
          boxBottom: Math.round(box.bottom),
          nextTop: Math.round(next.top),
          columns: getComputedStyle(layout).gridTemplateColumns.split(' ').length,
          viewW: Math.round(h.element.querySelector('.view').getBoundingClientRect().width),
          out,
        };
      }));
      for (const f of fit) {
        // the root is the element's size and ends where the element ends, above the next paragraph
        expect(f.rootH).toBe(420);
        expect(f.rootBottom).toBe(f.boxBottom);
        expect(f.nextTop).toBeGreaterThanOrEqual(f.boxBottom);
        // the narrow layout: one column, the view as wide as the element (less the padding)
        expect(f.columns).toBe(1);
        expect(f.viewW).toBeGreaterThan(560);
        expect(f.out).toBe(0);
      }

      // The ids the code makes (a label's for, the view's aria-describedby) point into their own playground.
      const refs = await page.evaluate(() => [window.a, window.b].map((h) => {
        const fors = [...h.element.querySelectorAll('label[for]')].map((l) => document.getElementById(l.htmlFor));
        const status = document.getElementById(h.element.querySelector('#stage').getAttribute('aria-describedby'));
        return { labels: fors.length, own: fors.every((e) => e && h.element.contains(e)), status: !!status && h.element.contains(status) };
      }));
      for (const r of refs) expect(r).toMatchObject({ own: true, status: true });
      expect(refs[0].labels).toBeGreaterThan(0);

      // The wheel over a mounted playground scrolls the page: nothing zooms until the reader
      // clicked into it (or holds Ctrl).
      await page.evaluate(() => window.scrollTo(0, 0));
      const scaleOf = () => page.evaluate(() => Number(window.a.element.querySelector('[data-testid="view2d"]').dataset.scale));
      const scale0 = await scaleOf();
      const stageA = await page.evaluate(() => {
        const r = window.a.element.querySelector('#stage').getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      });
      await page.mouse.move(stageA.x, stageA.y);
      await page.mouse.wheel(0, 120);
      // it scrolls (what does not fit in the element scrolls inside it first, then the page)
      await page.waitForFunction(() => window.scrollY > 0 || window.a.element.scrollTop > 0);
      expect(await scaleOf()).toBe(scale0);
      await page.evaluate(() => { window.scrollTo(0, 0); window.a.element.scrollTop = 0; });
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -120);
      await page.keyboard.up('Control');
      const scale1 = await scaleOf();
      expect(scale1).toBeGreaterThan(scale0);
      expect(await page.evaluate(() => [window.scrollY, window.a.element.scrollTop])).toEqual([0, 0]);
      // Clicked into: the wheel zooms it.
      await page.mouse.click(stageA.x, stageA.y);
      await page.mouse.wheel(0, -120);
      await page.waitForFunction((s) => Number(window.a.element.querySelector('[data-testid="view2d"]').dataset.scale) > s, scale1);

      // Drag the first playground's ray origin in its 2D view: only its own scene changes.
      const before = await page.evaluate(() => [window.a.store.state.rays[0].origin, window.b.store.state.rays[0].origin]);
      const handleAt = (which) => page.evaluate((w) => {
        const h = window[w].element.querySelector('[data-handle="ray0-origin"]');
        h.scrollIntoView({ block: 'center' });
        const r = h.getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      }, which);
      let p = await handleAt('a');
      await page.mouse.move(p.x, p.y);
      await page.mouse.down();
      await page.mouse.move(p.x, p.y - 30, { steps: 4 });
      await page.mouse.up();
      const afterA = await page.evaluate(() => [window.a.store.state.rays[0].origin, window.b.store.state.rays[0].origin]);
      expect(afterA[0]).not.toEqual(before[0]);
      expect(afterA[1]).toEqual(before[1]);
      // And the second one's drag changes only the second.
      p = await handleAt('b');
      await page.mouse.move(p.x, p.y);
      await page.mouse.down();
      await page.mouse.move(p.x, p.y + 30, { steps: 4 });
      await page.mouse.up();
      const afterB = await page.evaluate(() => [window.a.store.state.rays[0].origin, window.b.store.state.rays[0].origin]);
      expect(afterB[0]).toEqual(afterA[0]);
      expect(afterB[1]).not.toEqual(before[1]);
      // Each keeps its own hit list and its own view setting.
      await page.evaluate(() => window.b.store.setUi({ view: 'front' }));
      expect(await page.evaluate(() => [window.a.element.dataset.view, window.b.element.dataset.view])).toEqual(['top', 'front']);
      // destroy() one leaves the other alive.
      await page.evaluate(() => window.a.destroy());
      expect(await page.evaluate(() => [!!document.querySelector('#one [data-playground]'), !!document.querySelector('#two [data-playground]')])).toEqual([false, true]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('refuses bad arguments with clear errors, and mounts nothing', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${base}/host.html`);
      await page.waitForFunction(() => window.hostReady === true);
      const errors = await page.evaluate(async (scene) => {
        const demo = document.getElementById('demo');
        const attempts = [
          () => window.mountPlayground(null, scene),
          () => window.mountPlayground(document.createElement('div'), scene),
          () => window.mountPlayground(demo, { shapes: [] }),
          () => window.mountPlayground(demo, { shapes: [{ type: 'cone' }], rays: [] }),
          () => window.mountPlayground(demo, scene, { view: 'iso' }),
          () => window.mountPlayground(demo, scene, { zoom: 2 }),
          () => window.mountPlayground(demo, scene, 'top'),
          () => window.mountPlayground(demo, scene, { markup: '/nope.html' }),
          () => window.mountPlayground(demo, scene, { markup: '/web/playground/playground.css' }),
          () => window.mountPlayground(demo, scene, { wasm: '/nope.wasm' }),
        ];
        const out = [];
        for (const f of attempts) {
          try {
            await f();
            out.push('no error');
          } catch (e) {
            out.push(e.message);
          }
        }
        return { out, children: demo.children.length };
      }, SCENE);
      expect(errors.out).toEqual([
        'mountPlayground: element must be a DOM element',
        'mountPlayground: element must be in the document',
        'mountPlayground: the scene must have a "rays" array',
        'mountPlayground: the scene is not valid: shape 0 has an unknown type "cone"',
        'mountPlayground: view must be one of 3d, top, front, side, got iso',
        'mountPlayground: unknown option zoom (options are view, step, handles, panels, camera, embed, wasm, markup)',
        'mountPlayground: options must be an object',
        expect.stringMatching(/^mountPlayground: cannot fetch the playground markup .*\/nope\.html: HTTP 404$/),
        expect.stringMatching(/is not the playground page/),
        expect.stringMatching(/cannot fetch .*nope\.wasm: HTTP 404/),
      ]);
      expect(errors.children).toBe(0);
    } finally {
      await page.close();
    }
  });
});
