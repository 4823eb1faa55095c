// web/repro.js (slabcast/repro): the playground's pure codec for games and scripts.
// reproLink's output is compared with link bytes laid out by hand (Node's own base64url);
// the "Reporting a bug" example of docs/playground.md runs as written; and the module's
// whole import graph is read to show it never reaches three.js or the DOM.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checksOf, fencedBlocks, jsModuleSource, runJsModule } from '../docs/blocks.mjs';
import * as repro from '../../web/repro.js';
import { ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';

const BASE = 'https://slabcast.github.io/slabcast/';

/** Little-endian bytes: [['u32', ...], ['i32', ...], ['u8', ...], ['f32', ...], ['f64', ...]]. */
function bytesOf(parts) {
  const out = [];
  for (const [kind, ...values] of parts) {
    for (const v of values) {
      const size = { u8: 1, u32: 4, i32: 4, f32: 4, f64: 8 }[kind];
      const dv = new DataView(new ArrayBuffer(size));
      if (kind === 'u8') dv.setUint8(0, v);
      else if (kind === 'u32') dv.setUint32(0, v, true);
      else if (kind === 'i32') dv.setInt32(0, v, true);
      else if (kind === 'f32') dv.setFloat32(0, v, true);
      else dv.setFloat64(0, v, true);
      out.push(...new Uint8Array(dv.buffer));
    }
  }
  return Buffer.from(out);
}

describe('reproLink', () => {
  const box = { type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] };
  const ray = { origin: [-5, 0.1, 0], dir: [1, 0, 0] };

  it('writes base + #v2. + the scene laid out by hand (numbers rounded to float32, no tmax = Infinity)', () => {
    const bytes = bytesOf([
      ['u32', 1, 1], ['i32', 0, 0], // one shape, one ray, both selected
      ['u8', 1], ['f32', -1, -1, -1, 1, 1, 1],
      ['f32', -5, 0.1, 0, 1, 0, 0, Infinity], // setFloat32 rounds 0.1 as Math.fround does
      ['u8', 0, 0, 14], // 3d, step 0, every panel
    ]);
    expect(repro.reproLink(BASE, { shapes: [box], rays: [ray] })).toBe(`${BASE}#v2.${bytes.toString('base64url')}`);
    // Typed arrays are read as arrays; an explicit selection and view settings are kept.
    const withUi = repro.reproLink('http://localhost:8080/?embed', {
      shapes: [{ type: 'aabb', min: new Float32Array([-1, -1, -1]), max: new Float64Array([1, 1, 1]) }],
      rays: [{ ...ray, tmax: 10 }], selected: { ray: 0, shape: -1 },
    }, { view: 'front', step: 3, handles: 'locked', panels: { hits: false } });
    const bytes2 = bytesOf([
      ['u32', 1, 1], ['i32', 0, -1], ['u8', 1], ['f32', -1, -1, -1, 1, 1, 1], ['f32', -5, 0.1, 0, 1, 0, 0, 10],
      ['u8', 2, 3, 1 + 2 + 8], // front; locked + toolbar + tutorial
    ]);
    expect(withUi).toBe(`http://localhost:8080/?embed#v2.${bytes2.toString('base64url')}`);
  });

  it('decodes back to the same scene', () => {
    const url = repro.reproLink(BASE, { shapes: [box], rays: [ray] });
    const d = repro.decode(new URL(url).hash);
    expect(d.ok).toBe(true);
    expect(d.state.rays[0].origin).toEqual([-5, Math.fround(0.1), 0]);
    expect(d.state.shapes[0]).toEqual(box);
  });

  it('refuses a bad base with a clear error', () => {
    const scene = { shapes: [box], rays: [ray] };
    expect(() => repro.reproLink(undefined, scene)).toThrow('reproLink: base must be a URL string, got undefined');
    expect(() => repro.reproLink(new URL(BASE), scene)).toThrow('reproLink: base must be a URL string, got an object');
    expect(() => repro.reproLink('slabcast.github.io', scene)).toThrow('reproLink: base is not a URL: "slabcast.github.io"');
    expect(() => repro.reproLink('javascript:alert(1)', scene)).toThrow('base must be an http or https URL, got "javascript:"');
    expect(() => repro.reproLink(`${BASE}#v1.x`, scene)).toThrow('base must not have a fragment');
    for (const bad of [undefined, 5, 'x', new URL(BASE), `${BASE}#`]) {
      expect(() => repro.reproLink(bad, scene)).toThrow(TypeError);
    }
  });

  it('refuses a bad scene or bad settings with a clear error', () => {
    const cases = [
      [null, 'reproLink: the scene must be an object {shapes, rays}, got null'],
      [{ shapes: [box] }, 'reproLink: the scene must have a "rays" array'],
      [{ shapes: [{ type: 'cone' }], rays: [] }, 'reproLink: the scene is not valid: shape 0 has an unknown type "cone"'],
      [{ shapes: [box], rays: [{ origin: [0, 0, 0], dir: [0, 0, 0] }] }, 'reproLink: the scene is not valid: ray 0: dir must not be zero'],
      [{ shapes: [{ ...box, min: [2, 0, 0] }], rays: [] }, 'reproLink: the scene is not valid: shape 0 (aabb): min.x 2 is greater than max.x 1'],
      [{ shapes: [box], rays: [ray], selected: { ray: 4, shape: 0 } }, 'reproLink: the scene is not valid: selected.ray must be -1 or a ray index below 1 (it is 4)'],
      [{ shapes: Array(65).fill(box), rays: [] }, 'too many shapes (65; the limit is 64)'],
    ];
    for (const [scene, message] of cases) expect(() => repro.reproLink(BASE, scene)).toThrow(message);
    expect(() => repro.reproLink(BASE, { shapes: [box], rays: [ray] }, 'top')).toThrow('reproLink: ui must be an object, got a string');
    expect(() => repro.reproLink(BASE, { shapes: [box], rays: [ray] }, { view: 'iso' })).toThrow('reproLink: ui: view must be one of 3d, top, front, side, got iso');
    expect(() => repro.reproLink(BASE, { shapes: [box], rays: [ray] }, { panels: 'hits' })).toThrow('reproLink: ui.panels must be an object');
  });
});

describe('slabcast/repro', () => {
  it('exports the codec and the version of package.json', () => {
    for (const name of ['encode', 'decode', 'toCaseFile', 'fromCaseFile', 'reproLink', 'toScene', 'validateState']) {
      expect(typeof repro[name], name).toBe('function');
    }
    expect(repro.VERSION).toBe(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
    expect(repro.LINK_VERSION).toBe(3);
  });

  it('never imports three.js and never touches the DOM (its whole import graph)', () => {
    const seen = new Set();
    const visit = (file) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*(?:\/\*.*?\*\/\s*)*)['"]([^'"]+)['"]/g)].map((m) => m[1]);
      for (const s of specs) {
        // The case runner's file reading loads node:fs on demand (import('node:fs')), in Node only.
        if (s.startsWith('node:')) {
          expect(text, `${path.relative(ROOT, file)} imports ${s} statically`).toContain(`import('${s}')`);
          continue;
        }
        expect(s.startsWith('.'), `${path.relative(ROOT, file)} imports ${s}`).toBe(true);
        visit(path.resolve(path.dirname(file), s));
      }
    };
    visit(path.join(ROOT, 'web/repro.js'));
    const files = [...seen].map((f) => path.relative(ROOT, f)).sort();
    expect(files).toContain('web/playground/state.mjs');
    // Only the codec, the case reader and the library's definitions: no playground UI module
    // (those import three.js and use the DOM) and nothing of three.js.
    expect(files.filter((f) => f.startsWith('web/playground/'))).toEqual([
      'web/playground/case-file.mjs', 'web/playground/link.mjs', 'web/playground/scene-check.mjs',
      'web/playground/scene.mjs', 'web/playground/state.mjs', 'web/playground/ui-state.mjs',
    ]);
    expect(files.some((f) => /three/.test(f))).toBe(false);
    // And it ran here, in Node, with no DOM.
    expect(typeof document).toBe('undefined');
  });

  it('runs the "Reporting a bug" example of docs/playground.md as written', () => {
    requireBuilt(WASM);
    const md = readFileSync(path.join(ROOT, 'docs/playground.md'), 'utf8');
    const start = md.indexOf('\n## Reporting a bug');
    expect(start, 'docs/playground.md has a "## Reporting a bug" section').toBeGreaterThan(0);
    const section = md.slice(start);
    const blocks = fencedBlocks(section).filter((b) => b.lang === 'js');
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const { results } = runJsModule(jsModuleSource(blocks, ROOT, 'docs/playground.md'));
    const checks = blocks.flatMap((b) => checksOf(b.code));
    expect(checks.length).toBeGreaterThanOrEqual(7);
    expect(results.length).toBe(checks.length);
    const failed = results.filter((r) => !r.ok).map((r) => `${r.label}\n  actual:   ${r.actual ?? r.error}\n  expected: ${r.expected}`);
    expect(failed, failed.join('\n')).toEqual([]);
  });
});
