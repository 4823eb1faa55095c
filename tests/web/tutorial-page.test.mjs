// docs/tutorial.html, the worked example page: its three embedded views link to the scenes
// its prose describes (written out here by hand), with relative ?embed URLs (so the page
// works under any path, e.g. GitHub Pages), and slabcast gives the answers the prose states.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../web/playground/state.mjs';
import { loadSlabcast } from '../../web/slabcast.js';
import { ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';

const html = readFileSync(path.join(ROOT, 'docs/tutorial.html'), 'utf8');
const c = Math.fround(Math.SQRT1_2);
const BOX = { type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] };

/** The iframes of a section: [{src, query, hash}]. */
function frames(id) {
  const start = html.indexOf(`<section id="${id}">`);
  expect(start, `section #${id}`).toBeGreaterThan(0);
  const section = html.slice(start, html.indexOf('</section>', start));
  return [...section.matchAll(/<iframe\b[^>]*\bsrc="([^"]+)"/g)].map((m) => {
    const src = m[1].replaceAll('&amp;', '&');
    const url = new URL(src, 'https://example.org/slabcast/tutorial.html');
    return { src, query: url.searchParams, hash: url.hash, path: url.pathname };
  });
}

let sc;
beforeAll(async () => {
  requireBuilt(WASM);
  sc = await loadSlabcast();
});

describe('docs/tutorial.html', () => {
  it('embeds three views of the playground with relative ?embed links', () => {
    const all = ['parallel', 'grazing', 'flat'].flatMap(frames);
    expect(all).toHaveLength(3);
    for (const f of all) {
      expect(f.src.startsWith('./?embed')).toBe(true);
      expect(f.path).toBe('/slabcast/'); // the playground beside the page, wherever it is served
      expect(f.query.get('panels')).toBe('hits,tutorial');
    }
    expect(html).not.toMatch(/(src|href)="\/(?!\/)/); // no root-relative URL
  });

  it('1: an axis-parallel ray hits at t = 3; the one above the box misses', () => {
    const [f] = frames('parallel');
    const d = decode(f.hash);
    expect(d.ok).toBe(true);
    expect(d.state).toEqual({
      shapes: [BOX],
      rays: [{ origin: [-4, 0.5, 0.25], dir: [1, 0, 0], tmax: Infinity }, { origin: [-4, 1.5, 0.25], dir: [1, 0, 0], tmax: Infinity }],
      selected: { ray: 0, shape: 0 },
    });
    // x slab: -4 + t in [-1, 1] -> t in [3, 5]; y = 0.5 and z = 0.25 are inside their slabs.
    expect(sc.raycast(d.state.rays[0], BOX)).toEqual({ hit: true, t: 3, t_enter: 3, t_exit: 5, point: [-1, 0.5, 0.25], normal: [-1, 0, 0] });
    // y = 1.5 is never inside the y slab.
    expect(sc.raycast(d.state.rays[1], BOX)).toEqual({ hit: false });
  });

  it('2: a ray touching an edge hits with t_enter = t_exit = 1; a ray on the top face hits from 3 to 5', () => {
    const [f] = frames('grazing');
    const d = decode(f.hash);
    expect(d.state.rays).toEqual([{ origin: [-2, 0, 0], dir: [1, 1, 0], tmax: Infinity }, { origin: [-4, 1, 0], dir: [1, 0, 0], tmax: Infinity }]);
    expect(d.state.shapes).toEqual([BOX]);
    // x: -2 + t in [-1, 1] -> [1, 3]; y: t in [-1, 1]: they share t = 1 only, at (-1, 1, 0).
    expect(sc.raycast(d.state.rays[0], BOX)).toMatchObject({ hit: true, t: 1, t_enter: 1, t_exit: 1, point: [-1, 1, 0] });
    expect(sc.raycast(d.state.rays[1], BOX)).toMatchObject({ hit: true, t: 3, t_enter: 3, t_exit: 5, point: [-1, 1, 0] });
  });

  it('3: a rotated box of zero thickness on the line y = x is hit at t = 2 with t_enter = t_exit', () => {
    const [f] = frames('flat');
    const d = decode(f.hash);
    const plate = { type: 'obb', center: [0, 0, 0], axes: [[c, c, 0], [-c, c, 0], [0, 0, 1]], half: [1.5, 0, 1] };
    expect(d.state.shapes).toEqual([plate]);
    expect(d.state.rays).toEqual([{ origin: [-2, 0, 0], dir: [1, 0, 0], tmax: Infinity }]);
    // The zero-width slab is v . p = 0 with v = (-c, c, 0): -(-2 + t) c = 0 -> t = 2, at the origin.
    expect(sc.raycast(d.state.rays[0], plate)).toMatchObject({ hit: true, t: 2, t_enter: 2, t_exit: 2, point: [0, 0, 0] });
    // "a height up to about ±1.06": the plate reaches 1.5 c = 1.0607 along y = x.
    expect(sc.raycast({ origin: [-2, 1.05, 0], dir: [1, 0, 0] }, plate).hit).toBe(true);
    expect(sc.raycast({ origin: [-2, 1.07, 0], dir: [1, 0, 0] }, plate).hit).toBe(false);
  });
});
