// The built site (dist/site, npm run build:site): hashed assets, a gzip copy (level 9) beside
// every text file and the wasm, relative URLs only, three.js tree-shaken, the tutorial page
// bundled with slabcast/figure (no three.js); and scripts/site-size.mjs, which prints the
// first-load transfer of a page and fails over its budget.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/artifacts.mjs';
import { SITE, requireSite } from './helpers/site.mjs';

const SIZE_SCRIPT = path.join(ROOT, 'scripts/site-size.mjs');

/** Every file below dir, relative, '/' separated. */
function files(dir, prefix = '') {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    return e.isDirectory() ? files(dir, rel) : [rel];
  });
}

/** The playground page's own script (assets/index-HASH.js) among the site's files. */
function pageScript(list) {
  const js = list.filter((f) => /^assets\/index-[\w-]{8}\.js$/.test(f));
  expect(js).toHaveLength(1);
  return js[0];
}

beforeAll(() => requireSite());

describe('dist/site', () => {
  it('holds the page, the tutorial, hashed assets (the page script, stylesheet and wasm; the chunks stress mode loads on demand) and their .gz', () => {
    const all = files(SITE).sort();
    const plain = all.filter((f) => !f.endsWith('.gz'));
    expect(plain.filter((f) => !f.startsWith('assets/'))).toEqual(['demo/index.html', 'index.html', 'tutorial.html']);
    const assets = plain.filter((f) => f.startsWith('assets/'));
    // the page's own: one script, one stylesheet, slabcast.wasm
    const own = assets.filter((f) => /^assets\/(index|slabcast)-[\w-]{8}\./.test(f));
    expect(own.map((f) => path.extname(f)).sort()).toEqual(['.css', '.js', '.wasm']);
    // slabcast/parallel for stress mode's "rays/s on 1..N workers", loaded only when asked for:
    // its chunk, its bundled worker, slabcast-mt.wasm (and Vite's stub for node: imports)
    // slabcast/figure's 3D view (options.view '3d') with its tree-shaken three.js, loaded
    // only when a 3D figure starts (the tutorial has none: tests/web/site.browser.test.mjs)
    // the tutorial's own: one script and one stylesheet (its wasm is the page's slabcast.wasm)
    const tutorial = assets.filter((f) => /^assets\/tutorial-[\w-]{8}\./.test(f));
    expect(tutorial.map((f) => path.extname(f)).sort()).toEqual(['.css', '.js']);
    // the demo's own (web/demo/, vite.demo.config.mjs): one script (three.js and slabcast/three
    // bundled in) and one stylesheet; its wasm is the page's slabcast.wasm
    const demo = assets.filter((f) => /^assets\/demo-[\w-]{8}\./.test(f));
    expect(demo.map((f) => path.extname(f)).sort()).toEqual(['.css', '.js']);
    for (const f of assets.filter((a) => !own.includes(a) && !tutorial.includes(a) && !demo.includes(a))) {
      expect(f).toMatch(/^assets\/(parallel|worker|slabcast-mt|__vite-browser-external|view3d)-[\w-]{8}\.(js|wasm)$/);
    }
    for (const a of assets) expect(a).toMatch(/^assets\/[\w-]+-[\w-]{8}\.(js|css|wasm)$/);
    expect(all.filter((f) => f.endsWith('.gz')).sort()).toEqual(plain.map((f) => `${f}.gz`).sort());
  });

  it('bundles the tutorial (docs/tutorial.html) with slabcast/figure, its own script and stylesheet, relative URLs and no three.js', () => {
    const html = readFileSync(path.join(SITE, 'tutorial.html'), 'utf8');
    const urls = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    // the stylesheet first, then the rest (by kind, not by name: a name's order follows its content hash)
    const assets = urls.filter((u) => u.startsWith('./assets/'));
    expect([...assets.filter((u) => u.endsWith('.css')), ...assets.filter((u) => !u.endsWith('.css'))]).toEqual([
      expect.stringMatching(/^\.\/assets\/tutorial-[\w-]{8}\.css$/), expect.stringMatching(/^\.\/assets\/tutorial-[\w-]{8}\.js$/),
    ]);
    for (const u of urls) expect(u, u).toMatch(/^(\.\/|data:|https:\/\/github\.com\/slabcast\/)/);
    // The same prose: the sections of the source page, each with its figure's element.
    for (const id of ['fig-slab', 'fig-formula', 'fig-swap', 'fig-overlap', 'fig-inside', 'fig-graze', 'fig-flat', 'fig-obb']) {
      expect(html).toContain(`<div class="fig" id="${id}"></div>`);
    }
    const js = readFileSync(path.join(SITE, /\.\/(assets\/tutorial-[\w-]{8}\.js)/.exec(html)[1]), 'utf8');
    expect(js).toMatch(/new URL\("slabcast-[\w-]{8}\.wasm",import\.meta\.url\)/);
    expect(js).toContain('mountFigure: ');
    for (const three of ['WebGLRenderer', 'BufferGeometry', 'three.module']) expect(js, three).not.toContain(three);
    // Nothing of its own loaded later either, but the 3D view (a 3D figure's, never the
    // tutorial's): one chunk with the three.js it uses, tree-shaken.
    const later = [...js.matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
    expect(later, 'chunks loaded later').toEqual([expect.stringMatching(/^\.\/view3d-[\w-]{8}\.js$/)]);
    const view3d = readFileSync(path.join(SITE, 'assets', later[0].slice(2)), 'utf8');
    expect(view3d).toContain('WebGLRenderer');
    expect(/\bimport\(/.test(view3d), 'the 3D view loads nothing more').toBe(false);
    for (const unused of ['AnimationMixer', 'AudioListener', 'KeyframeTrack', 'Skeleton', 'CompressedTextureLoader']) expect(view3d, unused).not.toContain(unused);
  });

  it('has gzip level 9 copies of the same bytes', () => {
    for (const f of files(SITE).filter((x) => !x.endsWith('.gz'))) {
      const data = readFileSync(path.join(SITE, f));
      const gz = readFileSync(path.join(SITE, `${f}.gz`));
      expect(gunzipSync(gz).equals(data), f).toBe(true);
      expect(gz.length, f).toBe(gzipSync(data, { level: 9 }).length);
    }
  });

  it('uses relative URLs only (it works under any path, e.g. /slabcast/ on GitHub Pages)', () => {
    const html = readFileSync(path.join(SITE, 'index.html'), 'utf8');
    const urls = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const u of urls) expect(u, u).toMatch(/^(\.\/|data:)/);
    const js = pageScript(files(SITE));
    // The script finds the wasm beside itself, not at a fixed path.
    expect(readFileSync(path.join(SITE, js), 'utf8')).toMatch(/new URL\("slabcast-[\w-]{8}\.wasm",import\.meta\.url\)/);
    expect(html).toMatch(/<link rel="preload" href="\.\/assets\/slabcast-[\w-]{8}\.wasm" as="fetch"/);
  });

  it('bundles the demo (web/demo/index.html -> demo/index.html) with relative URLs into ../assets/', () => {
    const html = readFileSync(path.join(SITE, 'demo/index.html'), 'utf8');
    const urls = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls).toEqual(expect.arrayContaining([
      expect.stringMatching(/^\.\.\/assets\/demo-[\w-]{8}\.js$/), expect.stringMatching(/^\.\.\/assets\/demo-[\w-]{8}\.css$/),
    ]));
    for (const u of urls) expect(u, u).toMatch(/^(\.\.\/assets\/|\.\.\/$|data:)/);
    const js = readFileSync(path.join(SITE, /\.\.\/(assets\/demo-[\w-]{8}\.js)/.exec(html)[1]), 'utf8');
    expect(js).toMatch(/new URL\("slabcast-[\w-]{8}\.wasm",import\.meta\.url\)/);
    expect(js).toContain('WebGLRenderer');
  });

  it('bundles only the three.js the page uses', () => {
    const js = readFileSync(path.join(SITE, pageScript(files(SITE))), 'utf8');
    // Used by the page: the renderer, orbit controls, fat lines.
    for (const used of ['WebGLRenderer', 'LineMaterial']) expect(js).toContain(used);
    // Exported by three.js, never used by the page: gone.
    for (const unused of ['AnimationMixer', 'AudioListener', 'KeyframeTrack', 'Skeleton', 'CompressedTextureLoader']) {
      expect(js, unused).not.toContain(unused);
    }
  });
});

describe('scripts/site-size.mjs', () => {
  it('prints the gzip size of each first-load file and the total, within 400 KB', () => {
    const r = spawnSync(process.execPath, [SIZE_SCRIPT], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(expect.arrayContaining(['index.html', 'total']));
    const sizes = lines.slice(0, -1).map((l) => {
      const [file] = l.split(/\s+/);
      return { file, gz: Number(/gzip\s+(\d+) B/.exec(l)[1]) };
    });
    expect(sizes.map((s) => path.extname(s.file)).sort()).toEqual(['.css', '.html', '.js', '.wasm']);
    for (const s of sizes) expect(s.gz, s.file).toBe(readFileSync(path.join(SITE, `${s.file}.gz`)).length);
    const total = Number(/first load (\d+) B gzip/.exec(lines.at(-1))[1]);
    expect(total).toBe(sizes.reduce((n, s) => n + s.gz, 0));
    expect(total).toBeLessThanOrEqual(400_000);
  });

  it('--page tutorial.html: the tutorial\'s first load, within 150 KB, without three.js', () => {
    const r = spawnSync(process.execPath, [SIZE_SCRIPT, '--page', 'tutorial.html'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    const sizes = lines.slice(0, -1).map((l) => ({ file: l.split(/\s+/)[0], gz: Number(/gzip\s+(\d+) B/.exec(l)[1]) }));
    expect(sizes.map((x) => x.file)).toEqual([
      'tutorial.html', expect.stringMatching(/^assets\/tutorial-[\w-]{8}\.js$/), expect.stringMatching(/^assets\/tutorial-[\w-]{8}\.css$/), expect.stringMatching(/^assets\/slabcast-[\w-]{8}\.wasm$/),
    ]);
    for (const x of sizes) expect(x.gz, x.file).toBe(readFileSync(path.join(SITE, `${x.file}.gz`)).length);
    const total = Number(/first load (\d+) B gzip/.exec(lines.at(-1))[1]);
    expect(total).toBe(sizes.reduce((n, x) => n + x.gz, 0));
    expect(lines.at(-1)).toMatch(/budget 150\.0 KB/);
    expect(total).toBeLessThanOrEqual(150_000);
    console.log(`tutorial.html first load: ${total} B gzip`);
    const bad = spawnSync(process.execPath, [SIZE_SCRIPT, '--page', 'other.html'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--page must be one of index\.html, tutorial\.html, demo\/index\.html, got "other\.html"/);
  });

  it('--page demo/index.html: the demo\'s first load (its own script with three.js, its stylesheet, the wasm), within 300 KB', () => {
    const r = spawnSync(process.execPath, [SIZE_SCRIPT, '--page', 'demo/index.html'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    const sizes = lines.slice(0, -1).map((l) => ({ file: l.split(/\s+/)[0], gz: Number(/gzip\s+(\d+) B/.exec(l)[1]) }));
    // the page's URLs are relative to demo/: ../assets/ is the site's assets/
    expect(sizes.map((x) => x.file)).toEqual([
      'demo/index.html', expect.stringMatching(/^assets\/demo-[\w-]{8}\.js$/), expect.stringMatching(/^assets\/demo-[\w-]{8}\.css$/), expect.stringMatching(/^assets\/slabcast-[\w-]{8}\.wasm$/),
    ]);
    for (const x of sizes) expect(x.gz, x.file).toBe(readFileSync(path.join(SITE, `${x.file}.gz`)).length);
    const total = Number(/first load (\d+) B gzip/.exec(lines.at(-1))[1]);
    expect(total).toBe(sizes.reduce((n, x) => n + x.gz, 0));
    expect(total).toBeLessThanOrEqual(300_000);
    console.log(`demo/index.html first load: ${total} B gzip`);
  });

  it('fails over the budget, and when the site is missing', () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'slabcast-site-size-'));
    try {
      const copy = path.join(tmp, 'site');
      cpSync(SITE, copy, { recursive: true });
      const js = pageScript(files(copy));
      writeFileSync(path.join(copy, `${js}.gz`), Buffer.alloc(500_000)); // a first load over 400 KB
      const over = spawnSync(process.execPath, [SIZE_SCRIPT, copy], { encoding: 'utf8' });
      expect(over.status).toBe(1);
      expect(over.stderr).toMatch(/^site-size: the first load is \d+\.\d KB, over the 400\.0 KB budget\n$/);
      const missing = spawnSync(process.execPath, [SIZE_SCRIPT, path.join(tmp, 'nothing')], { encoding: 'utf8' });
      expect(missing.status).toBe(1);
      expect(missing.stderr).toMatch(/index\.html is missing: build the site first \(npm run build:site\)/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
