// The npm package as a user gets it: `npm pack` makes the tarball, which is installed
// (offline: the tarball is all it needs) into fresh temporary projects, then
//   - Node imports it from an ES module project and from a CommonJS one, runs raycasts and
//     a world query, resolves the ./slabcast.wasm and ./package.json exports, and runs the
//     slabcast-cases bin;
//   - `tsc --noEmit` (TypeScript from this project's devDependencies) type-checks a
//     consumer (tests/package/npm-consumer/consumer.ts) with moduleResolution bundler,
//     node16, nodenext and node10, and fails on a file with deliberate type errors;
//   - when the package ships slabcast/three: with three and @types/three linked in from this
//     project's node_modules, a consumer of it type-checks and it finds a box mesh;
//   - Vite bundles a page that imports it (`vite build`, and the dev server), and headless
//     Chromium (/usr/bin/chromium) runs the page's raycast.
// Expected values are derived by hand: the ray (-3, 0.5, 0.25) + t (2, 0, 0) meets the x
// slab of the box [-1, 1]^3 at t = (-1 - -3) / 2 = 1 and leaves it at t = (1 - -3) / 2 = 2;
// y = 0.5 and z = 0.25 lie inside their slabs, so t = t_enter = 1, t_exit = 2, the entry
// point is (-1, 0.5, 0.25) on the -x face (normal (-1, 0, 0)); with tmax = 0.5 < 1 it misses.
// Nothing is downloaded.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticServer } from '../../web/bin/serve.mjs';
import { ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';

const FIXTURES = path.join(ROOT, 'tests/package/npm-consumer');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const CHROMIUM = '/usr/bin/chromium';

const HIT = {
  hit: true, t: 1, t_enter: 1, t_exit: 2, point: [-1, 0.5, 0.25], normal: [-1, 0, 0],
};

let tmp;
let tarball;
let packed; // npm pack --json: { filename, files: [{ path, size }], ... }
let esmApp; // "type": "module"
let cjsApp; // no "type": CommonJS

/** The environment for child processes, without the npm_* variables of an outer `npm test`. */
function childEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('npm_') || k === 'npm_config_cache' || k === 'npm_config_userconfig') env[k] = v;
  }
  return env;
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: childEnv(), timeout: 60_000 });
  if (r.error) throw r.error;
  return r;
}

function mustRun(cmd, args, cwd) {
  const r = run(cmd, args, cwd);
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited with ${r.status}:\n${r.stdout}\n${r.stderr}`);
  }
  return r;
}

/** A new empty project with the tarball installed (offline: no registry, no cache needed). */
function makeProject(name, pkg) {
  const dir = path.join(tmp, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name, private: true, ...pkg }, null, 2)}\n`);
  mustRun('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], dir);
  return dir;
}

const shipped = (file) => packed.files.some((f) => f.path === file);

beforeAll(() => {
  requireBuilt(WASM);
  tmp = mkdtempSync(path.join(tmpdir(), 'slabcast-package-'));
  // --ignore-scripts: prepack (scripts/prepack.mjs) would only find the wasm up to date
  // (requireBuilt above); the tarball's contents are checked below.
  const r = mustRun('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], ROOT);
  [packed] = JSON.parse(r.stdout);
  tarball = path.join(tmp, packed.filename);
  esmApp = makeProject('esm-app', { type: 'module' });
  cjsApp = makeProject('cjs-app', {});
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('holds the module, its types, the wasm, the case runner, README, CHANGELOG, LICENSE and the docs, and nothing else', () => {
    const optional = ['CHANGELOG.md', 'web/three.js', 'web/three.d.ts'].filter((f) => existsSync(path.join(ROOT, f)));
    // The README links into docs/ and the types point at docs/semantics.md, so every page ships.
    const docs = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(docs).toContain('docs/semantics.md');
    // The library's own modules (web/core/) and the three.js adapter's (web/three/).
    const modules = (dir) => (existsSync(path.join(ROOT, dir))
      ? readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith('.js')).map((f) => `${dir}/${f}`) : []);
    expect(modules('web/core')).toContain('web/core/loader.js');
    const expected = [
      'LICENSE', 'README.md', 'package.json', ...docs,
      'web/slabcast.js', 'web/slabcast.d.ts', 'web/slabcast.wasm', ...modules('web/core'),
      'web/bin/slabcast-cases.mjs', 'web/cases.mjs', 'web/cases.d.ts', 'web/case-json.mjs', 'web/f32format.mjs',
      ...modules('web/three'), ...optional,
      'web/parallel.js', 'web/parallel.d.ts', 'web/slabcast-mt.wasm', ...modules('web/parallel'),
      // slabcast/repro and slabcast/playground: the playground's modules, its page (the markup
      // mountPlayground uses) and its stylesheet.
      'web/version.mjs', 'web/repro.js', 'web/repro.d.ts', 'web/mount.js', 'web/mount.d.ts', 'web/index.html',
      ...readdirSync(path.join(ROOT, 'web/playground')).map((f) => `web/playground/${f}`),
      // slabcast/figure: its entry, types, stylesheet and modules.
      'web/figure.js', 'web/figure.d.ts', 'web/figure.css',
      ...readdirSync(path.join(ROOT, 'web/figure')).map((f) => `web/figure/${f}`),
    ].sort();
    expect(packed.files.map((f) => f.path).sort()).toEqual(expected);
    expect(packed.name).toBe('slabcast');
    expect(packed.files.find((f) => f.path === 'web/slabcast.wasm').size).toBe(readFileSync(WASM).length);
  });

  it('ships every file that a shipped module imports', () => {
    for (const { path: file } of packed.files.filter((f) => /\.m?js$/.test(f.path))) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bnew URL\(\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);
      for (const s of specifiers) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), s));
        expect(shipped(target), `${file} imports ${s}`).toBe(true);
      }
    }
  });

  it('installs alone: no dependencies, three stays an optional peer, the wasm is the built one', () => {
    for (const app of [esmApp, cjsApp]) {
      expect(readdirSync(path.join(app, 'node_modules')).filter((f) => !f.startsWith('.'))).toEqual(['slabcast']);
    }
    const pkg = JSON.parse(readFileSync(path.join(esmApp, 'node_modules/slabcast/package.json'), 'utf8'));
    expect(pkg.private).toBeUndefined();
    expect(pkg.license).toBe('MIT');
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.peerDependenciesMeta).toEqual({ three: { optional: true } });
    const installed = readFileSync(path.join(esmApp, 'node_modules/slabcast/web/slabcast.wasm'));
    expect(installed.equals(readFileSync(WASM))).toBe(true);
    expect(readFileSync(path.join(esmApp, 'node_modules/slabcast/LICENSE'), 'utf8'))
      .toContain('Copyright (c) 2026 the slabcast authors');
  });

  it('says where it comes from, has no side effects on import, and exports the library, its types, the adapter and the case runner', () => {
    const pkg = JSON.parse(readFileSync(path.join(esmApp, 'node_modules/slabcast/package.json'), 'utf8'));
    // Only the stylesheets have side effects: a bundler must keep `import 'slabcast/figure.css'`.
    expect(pkg.sideEffects).toEqual(['*.css']);
    expect(pkg.repository).toEqual({ type: 'git', url: 'git+https://github.com/slabcast/slabcast.git' });
    expect(pkg.bugs).toEqual({ url: 'https://github.com/slabcast/slabcast/issues' });
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(Object.keys(pkg.exports).sort()).toEqual(['.', './cases', './figure', './figure.css', './package.json', './parallel', './playground', './playground.css', './repro', './slabcast.wasm', './three']);
    expect(shipped(path.posix.normalize(pkg.exports['./playground.css']))).toBe(true);
    expect(shipped(path.posix.normalize(pkg.exports['./figure.css']))).toBe(true);
    for (const entry of ['.', './three', './cases', './parallel', './repro', './playground', './figure']) {
      for (const file of [pkg.exports[entry].types, pkg.exports[entry].default]) {
        expect(shipped(path.posix.normalize(file)), `${entry} -> ${file}`).toBe(true);
      }
    }
    // The case runner is not part of the library: nothing the main entry loads imports it.
    for (const { path: file } of packed.files.filter((f) => /^web\/(slabcast|core\/)/.test(f.path) && f.path.endsWith('.js'))) {
      expect(readFileSync(path.join(ROOT, file), 'utf8'), file).not.toMatch(/cases\.mjs|case-json/);
    }
  });

  it('ships every file the README links to', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)/g)].map((m) => path.posix.normalize(m[1]));
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) expect(shipped(link), `README links ${link}`).toBe(true);
  });
});

describe('Node', () => {
  it('an ES module project imports slabcast and gets the hand-derived answers', () => {
    copyFileSync(path.join(FIXTURES, 'node-esm.mjs'), path.join(esmApp, 'check.js'));
    const out = JSON.parse(mustRun(process.execPath, ['check.js'], esmApp).stdout);
    expect(out.hit).toEqual(HIT);
    expect(out.miss).toEqual({ hit: false });
    // Boxes [0,1]^3 and [4,5]x[0,1]^2; the ray (-2, 0.5, 0.5) + t (1, 0, 0) enters the first at x = 0.
    expect(out.world).toEqual({ t: 2, index: 0, normal: [-1, 0, 0] });
    expect(out.error).toEqual({ isSlabcastError: true, message: 'ray.dir is zero' });
    expect(out.wasm.url).toBe(new URL(`file://${path.join(esmApp, 'node_modules/slabcast/web/slabcast.wasm')}`).href);
    expect(out.wasm.magic).toEqual([0, 0x61, 0x73, 0x6d]); // "\0asm"
    expect(out.explicit).toEqual(HIT);
    expect(out.pkg).toEqual({ name: 'slabcast', version: '0.1.0', license: 'MIT' });
  });

  it('slabcast/parallel starts its workers from the installed package, in both memory modes', () => {
    copyFileSync(path.join(FIXTURES, 'node-parallel.mjs'), path.join(esmApp, 'check-parallel.js'));
    const out = JSON.parse(mustRun(process.execPath, ['check-parallel.js'], esmApp).stdout);
    // The first ray enters [0,1]^3 at x = 0 (t = 2); the second passes above both boxes (a miss: t 0, index -1).
    for (const mode of ['shared', 'copied']) expect(out[mode]).toEqual({ mode, t: [2, 0], index: [0, -1] });
  });

  it('slabcast/repro runs from the installed package in Node, with no three.js installed', () => {
    writeFileSync(path.join(esmApp, 'repro.js'), [
      "import { VERSION, decode, reproLink } from 'slabcast/repro';",
      "const scene = { shapes: [{ type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] }], rays: [{ origin: [-1, 0.5, 0.5], dir: [1, 0, 0] }] };",
      "const url = reproLink('https://slabcast.github.io/slabcast/', scene);",
      'const d = decode(new URL(url).hash);',
      'console.log(JSON.stringify({ url: url.slice(0, 40), ok: d.ok, shape: d.state.shapes[0], ray: d.state.rays[0], VERSION }));',
    ].join('\n'));
    const out = JSON.parse(mustRun(process.execPath, ['repro.js'], esmApp).stdout);
    expect(out).toEqual({
      url: 'https://slabcast.github.io/slabcast/#v2.',
      ok: true,
      shape: { type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] },
      ray: { origin: [-1, 0.5, 0.5], dir: [1, 0, 0], tmax: null }, // Infinity in JSON
      VERSION: '0.1.0',
    });
  });

  it('a CommonJS project loads it with await import()', () => {
    copyFileSync(path.join(FIXTURES, 'node-cjs.cjs'), path.join(cjsApp, 'check.js'));
    const out = JSON.parse(mustRun(process.execPath, ['check.js'], cjsApp).stdout);
    expect(out).toEqual({ module: 'object', hit: HIT });
  });

  it('the slabcast-cases bin runs from the installed package', () => {
    const bin = path.join(esmApp, 'node_modules/.bin/slabcast-cases');
    const r = run(bin, ['check', path.join(ROOT, 'tests/cases/aabb-boundaries.json')], esmApp);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\d+ passed, 0 failed\n$/m);
  });
});

describe('TypeScript (tsc --noEmit)', () => {
  /** Writes tsconfig.NAME.json extending the fixture's tsconfig.json; returns tsc's result. */
  function tsc(name, compilerOptions, files) {
    for (const f of ['tsconfig.json', 'consumer.ts', 'consumer-bad.ts', 'consumer-three.ts', 'consumer-parallel.ts', 'consumer-repro.ts']) {
      copyFileSync(path.join(FIXTURES, f), path.join(esmApp, f));
    }
    const config = path.join(esmApp, `tsconfig.${name}.json`);
    writeFileSync(config, JSON.stringify({ extends: './tsconfig.json', compilerOptions, files }));
    return run(process.execPath, [TSC, '--noEmit', '--pretty', 'false', '-p', config], esmApp);
  }

  const variants = {
    bundler: { module: 'esnext', moduleResolution: 'bundler' },
    node16: { module: 'node16', moduleResolution: 'node16' },
    nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
    node10: { module: 'esnext', moduleResolution: 'node10' },
  };
  for (const [name, options] of Object.entries(variants)) {
    it(`consumer.ts and consumer-parallel.ts check with moduleResolution ${options.moduleResolution}`, () => {
      const r = tsc(name, options, ['consumer.ts', 'consumer-parallel.ts']);
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    });
  }

  for (const name of ['bundler', 'node16', 'node10']) {
    it(`consumer-repro.ts (slabcast/repro, slabcast/playground) checks with moduleResolution ${variants[name].moduleResolution}`, () => {
      const r = tsc(`repro-${name}`, variants[name], ['consumer-repro.ts']);
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    });
  }

  it('a consumer with type errors fails, on exactly its three errors', () => {
    const r = tsc('bad', variants.bundler, ['consumer-bad.ts']);
    expect(r.status).not.toBe(0);
    const errors = r.stdout.trim().split('\n').filter((l) => /error TS\d+/.test(l))
      .map((l) => l.match(/^consumer-bad\.ts\((\d+),\d+\): error (TS\d+)/)?.slice(1).join(' ') ?? l);
    expect(errors).toEqual(['8 TS2339', '9 TS2345', '10 TS2322']);
    expect(r.stdout).toContain("Property 'dir' is missing");
  });

  it('slabcast/three checks (with @types/three) and runs (with three) when the package ships it', (ctx) => {
    if (!shipped('web/three.d.ts')) ctx.skip();
    // three and @types/three come from this project's node_modules (devDependencies).
    const nm = path.join(esmApp, 'node_modules');
    mkdirSync(path.join(nm, '@types'), { recursive: true });
    if (!existsSync(path.join(nm, 'three'))) symlinkSync(path.join(ROOT, 'node_modules/three'), path.join(nm, 'three'));
    if (!existsSync(path.join(nm, '@types/three'))) symlinkSync(path.join(ROOT, 'node_modules/@types/three'), path.join(nm, '@types/three'));
    // Checking all of @types/three takes seconds: once in full (bundler), and with
    // skipLibCheck (resolution and the consumer's own code) under nodenext.
    for (const [name, extra] of [['bundler', {}], ['nodenext', { skipLibCheck: true }]]) {
      const r = tsc(`three-${name}`, { ...variants[name], ...extra }, ['consumer-three.ts']);
      expect(r.stdout + r.stderr, name).toBe('');
      expect(r.status).toBe(0);
    }
    // A BoxGeometry(2, 2, 2) spans [-1, 1]^3: the ray enters at x = -1, 2 from its origin.
    copyFileSync(path.join(FIXTURES, 'node-three.mjs'), path.join(esmApp, 'check-three.js'));
    const out = JSON.parse(mustRun(process.execPath, ['check-three.js'], esmApp).stdout);
    expect(out).toEqual({ distance: 2, point: [-1, 0.5, 0.25], worldNormal: [-1, 0, 0], isTheMesh: true });
  });
});

describe('Vite + Chromium', () => {
  let browser;
  let vite;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install chromium)`);
    for (const f of ['index.html', 'main.js', 'vite.config.js']) {
      copyFileSync(path.join(FIXTURES, f), path.join(esmApp, f));
    }
    vite = await import('vite');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** A Vite logger that collects warnings and errors instead of printing them. */
  function quietLogger(problems) {
    const logger = vite.createLogger('warn', { allowClearScreen: false });
    logger.warn = (msg) => problems.push(`warn: ${msg}`);
    logger.warnOnce = (msg) => problems.push(`warn: ${msg}`);
    logger.error = (msg) => problems.push(`error: ${msg}`);
    return logger;
  }

  /** Opens url, waits for the page's answer and returns it with the page's errors. */
  async function pageAnswer(url) {
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('response', (res) => {
      if (res.status() >= 400 && !res.url().endsWith('/favicon.ico')) problems.push(`HTTP ${res.status()} ${res.url()}`);
    });
    try {
      await page.goto(url);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
      const answer = JSON.parse(await page.textContent('#out'));
      return { answer, problems: problems.filter((p) => !p.includes('404 (Not Found)')) };
    } finally {
      await page.close();
    }
  }

  it('vite build bundles the page with slabcast.wasm as an asset, and Chromium runs its raycast', async () => {
    const problems = [];
    await vite.build({
      root: esmApp,
      configFile: path.join(esmApp, 'vite.config.js'),
      logLevel: 'warn',
      customLogger: quietLogger(problems),
    });
    expect(problems).toEqual([]);
    const assets = readdirSync(path.join(esmApp, 'dist/assets'));
    const wasm = assets.filter((f) => f.endsWith('.wasm') && !f.startsWith('slabcast-mt-'));
    expect(wasm).toHaveLength(1);
    expect(readFileSync(path.join(esmApp, 'dist/assets', wasm[0])).equals(readFileSync(WASM))).toBe(true);

    const server = createStaticServer({ root: path.join(esmApp, 'dist') });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { answer, problems: pageProblems } = await pageAnswer(`http://127.0.0.1:${server.address().port}/`);
      expect(pageProblems).toEqual([]);
      expect(answer).toEqual({ default: HIT, explicit: HIT, wasmUrl: `/assets/${wasm[0]}` });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('vite build bundles a page that mounts the playground (slabcast/playground + its CSS), and it runs', async () => {
    const app = makeProject('mount-app', { type: 'module' });
    // three is a peer dependency: this project's own (a devDependency).
    symlinkSync(path.join(ROOT, 'node_modules/three'), path.join(app, 'node_modules/three'));
    writeFileSync(path.join(app, 'index.html'), [
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mount</title></head><body>',
      '<div id="demo" style="width: 900px; height: 520px"></div><pre id="out">loading</pre>',
      '<script type="module" src="./main.js"></script></body></html>',
    ].join('\n'));
    writeFileSync(path.join(app, 'main.js'), [
      "import { mountPlayground } from 'slabcast/playground';",
      "import 'slabcast/playground.css';",
      "const out = document.getElementById('out');",
      'try {',
      "  const scene = { shapes: [{ type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] }], rays: [{ origin: [-3, 0.5, 0.25], dir: [2, 0, 0] }] };",
      "  const h = await mountPlayground(document.getElementById('demo'), scene, { handles: 'locked' });",
      "  out.textContent = JSON.stringify({ list: h.element.querySelector('[data-testid=\"hit-list\"]').textContent.includes('box 0'),",
      "    ui: h.store.ui.handles, ready: h.element.dataset.ready, canvas: !!h.element.querySelector('canvas') });",
      '} catch (e) {',
      '  out.textContent = JSON.stringify({ error: String(e && e.message ? e.message : e) });',
      '}',
      "document.body.dataset.ready = 'true';",
    ].join('\n'));
    const problems = [];
    await vite.build({
      root: app,
      configFile: false,
      logLevel: 'warn',
      customLogger: quietLogger(problems),
      build: { chunkSizeWarningLimit: 1000 },
    });
    // The case reader's on-demand node:fs (Node only) is the one expected message.
    expect(problems.filter((p) => !/"node:fs" has been externalized for browser compatibility/.test(p))).toEqual([]);
    const assets = readdirSync(path.join(app, 'dist/assets'));
    // slabcast.wasm, and slabcast-mt.wasm for stress mode's parallel worlds (fetched only then)
    expect(assets.filter((f) => f.endsWith('.wasm')).map((f) => f.replace(/-[\w-]{8}\.wasm$/, '')).sort()).toEqual(['slabcast', 'slabcast-mt']);
    expect(assets.filter((f) => f.endsWith('.html'))).toHaveLength(1); // the markup, fetched by mountPlayground
    const server = createStaticServer({ root: path.join(app, 'dist') });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { answer, problems: pageProblems } = await pageAnswer(`http://127.0.0.1:${server.address().port}/`);
      expect(pageProblems).toEqual([]);
      expect(answer).toEqual({ list: true, ui: 'locked', ready: 'true', canvas: true });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the Vite dev server (with optimizeDeps.exclude, as the README says) serves a working page', async () => {
    const problems = [];
    const server = await vite.createServer({
      root: esmApp,
      configFile: path.join(esmApp, 'vite.config.js'),
      logLevel: 'warn',
      customLogger: quietLogger(problems),
      server: { host: '127.0.0.1', port: 0, hmr: false, watch: null },
    });
    try {
      await server.listen();
      const { answer, problems: pageProblems } = await pageAnswer(server.resolvedUrls.local[0]);
      expect(pageProblems).toEqual([]);
      expect(answer.default).toEqual(HIT);
      expect(answer.explicit).toEqual(HIT);
      expect(problems).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
