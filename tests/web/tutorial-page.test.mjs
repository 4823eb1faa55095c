// docs/tutorial.html, the lesson: its figures (docs/tutorial-figures.mjs, slabcast/figure) and
// its prose. Every number the prose writes is a readout bound to a figure, and the number
// written in the page (what a reader sees before the figure starts) is the figure's own
// number at the start; the key numbers of each section are worked out by hand here from
// t = (wall - origin) / dir; section 7's frame figure gives the core's answer for the OBB to the digits shown.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSlabcast } from '../../web/slabcast.js';
import { computeFigure, formatValue, READOUT_NAMES } from '../../web/figure/model.mjs';
import { checkOptions, checkScene, goalHolds } from '../../web/figure/options.mjs';
import { FIGURES, OBB, OBB_RAY } from '../../docs/tutorial-figures.mjs';
import { ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';

const html = readFileSync(path.join(ROOT, 'docs/tutorial.html'), 'utf8');
const f = Math.fround;
let sc;

beforeAll(async () => {
  requireBuilt(WASM);
  sc = await loadSlabcast();
});

/** The figure ids and readouts of each section: {id, figures: [ids], outputs: [{for, name, digits, text}]}. */
function sections() {
  return [...html.matchAll(/<section id="([\w-]+)">([\s\S]*?)<\/section>/g)].map(([, id, body]) => ({
    id,
    figures: [...body.matchAll(/<div class="fig" id="([\w-]+)"><\/div>/g)].map((m) => m[1]),
    outputs: [...body.matchAll(/<output([^>]*)>([^<]*)<\/output>/g)].map(([, attrs, text]) => ({
      for: /data-figure-for="([^"]+)"/.exec(attrs)?.[1],
      name: /data-figure-value="([^"]+)"/.exec(attrs)?.[1],
      digits: /data-figure-digits="(\d+)"/.exec(attrs)?.[1],
      text,
    })),
  }));
}

const start = (id) => computeFigure(checkScene(FIGURES[id].scene), sc);

describe('docs/tutorial.html', () => {
  it('has the sections of the lesson in order (6 in two parts), each with its figures and a "try it"', () => {
    expect(sections().map((s) => [s.id, s.figures])).toEqual([
      ['slab', ['fig-slab']], ['formula', ['fig-formula']], ['swap', ['fig-swap']], ['overlap', ['fig-overlap']],
      ['inside', ['fig-inside']], ['edges', ['fig-graze']], ['flat', ['fig-flat']], ['obb', ['fig-obb']],
    ]);
    expect(Object.keys(FIGURES).sort()).toEqual(sections().flatMap((s) => s.figures).sort());
    for (const s of sections()) expect((html.split(`<section id="${s.id}">`)[1].split('</section>')[0].match(/class="try"/g) ?? []).length).toBeGreaterThanOrEqual(s.figures.length);
    expect(html).toMatch(/<a href="\.\/">full playground<\/a>/);
    expect(html).not.toMatch(/<iframe/);
  });

  it('binds every number of the prose to its figure, and writes the number the figure starts with', () => {
    let count = 0;
    for (const s of sections()) {
      for (const o of s.outputs) {
        expect(READOUT_NAMES, `${s.id}: ${o.name}`).toContain(o.name);
        // One figure in the section: bound by the scope rule; two: each readout names its figure.
        const id = o.for ?? (s.figures.length === 1 ? s.figures[0] : null);
        expect(id, `${s.id}: ${o.name} must name its figure`).not.toBe(null);
        expect(s.figures).toContain(id);
        const { values } = start(id);
        expect(o.text, `${s.id}: ${o.name}`).toBe(formatValue(o.name, values[o.name], o.digits === undefined ? undefined : Number(o.digits)));
        count++;
      }
    }
    expect(count).toBeGreaterThan(60);
  });

  it('works out each section\'s numbers', () => {
    // 1: from x = -4 along x: (-1 + 4)/1 = 3 and (1 + 4)/1 = 5.
    expect(start('fig-slab').values).toMatchObject({ tx_enter: 3, tx_exit: 5, hit: true });
    // 2: (-4, -2) + t (2, 1): x (−1 + 4)/2 = 1.5, (1 + 4)/2 = 2.5; y (−1 + 2)/1 = 1, (1 + 2)/1 = 3; overlap [1.5, 2.5].
    expect(start('fig-formula').values).toMatchObject({ tx_wall_min: 1.5, tx_wall_max: 2.5, ty_wall_min: 1, ty_wall_max: 3, t_enter: 1.5, t_exit: 2.5 });
    // 3: from x = 3 going left: the wall -1 at (−1 − 3)/(−1) = 4, the wall 1 at 2: enter 2, exit 4.
    expect(start('fig-swap').values).toMatchObject({ tx_wall_min: 4, tx_wall_max: 2, tx_enter: 2, tx_exit: 4 });
    // 4: (-3, -2) + t (1, 1): x [2, 4], y [1, 3], z all of time; overlap [2, 3], in by x, out by y.
    expect(start('fig-overlap').values).toMatchObject({ tx_enter: 2, tx_exit: 4, ty_enter: 1, ty_exit: 3, tz_enter: -Infinity, tz_exit: Infinity, t_enter: 2, t_exit: 3, enter_axis: 'x', exit_axis: 'y' });
    // 5: from x = -3: enters at 2, t = 2.
    expect(start('fig-inside').values).toMatchObject({ t_enter: 2, t: 2 });
    // 6: y = 2 with no y motion: outside the y slab for ever.
    expect(start('fig-graze').values).toMatchObject({ hit: false, reason: 'parallel-outside', t_enter: null });
    // 6, flat box, before flattening: (-3, -2) + t (1, 1): y [1, 3], x [2, 4]: t = 2.
    expect(start('fig-flat').values).toMatchObject({ ty_enter: 1, ty_exit: 3, t: 2 });
  });

  it('7: the frame figure gives the core\'s answer for the OBB itself to the 4 digits shown: [2.2929, 3.7071]', () => {
    const frame = start('fig-obb').values;
    const world = sc.raycast(OBB_RAY, OBB);
    expect(world.hit).toBe(true);
    // The figure works in float32 in the frame (projected origin and direction); the core's OBB
    // query works with exact sums, so they may differ in the last bits (t_exit: 3.7071066 against
    // the core's 3.7071068): within 2 float32 steps, and the same in the 4 digits the prose shows.
    const ulp = (x) => f(x * (1 + 2 ** -23)) - x;
    expect(Math.abs(frame.t_enter - world.t_enter)).toBeLessThanOrEqual(2 * ulp(world.t_enter));
    expect(Math.abs(frame.t_exit - world.t_exit)).toBeLessThanOrEqual(2 * ulp(world.t_exit));
    expect([formatValue('t', frame.t_enter, 4), formatValue('t', frame.t_exit, 4)]).toEqual([formatValue('t', world.t_enter, 4), formatValue('t', world.t_exit, 4)]);
    // In the frame: y from 3/sqrt(2) = 2.1213 with speed -1/sqrt(2) crosses y = 0.5 at (2.1213 - 0.5) * sqrt(2) = 3 - 0.7071.
    expect(frame.t_enter).toBeCloseTo(3 - Math.SQRT1_2, 5);
    expect(frame.t_exit).toBeCloseTo(3 + Math.SQRT1_2, 5);
    expect(frame.enter_axis).toBe('y');
  });

  it('no figure starts with its goal reached, and each goal is reachable where the text says', () => {
    for (const id of Object.keys(FIGURES)) {
      const goal = checkOptions(FIGURES[id].options).goal;
      expect(goal, id).not.toBe(null);
      expect(goalHolds(goal, start(id).values), id).toBe(false);
    }
    const reached = (id, edit) => {
      const scene = checkScene(FIGURES[id].scene);
      edit(scene.rays[0], scene.shapes[0]);
      return goalHolds(checkOptions(FIGURES[id].options).goal, computeFigure(scene, sc).values);
    };
    expect(reached('fig-slab', (r) => { r.origin[0] = -2; })).toBe(true); // (−1 + 2)/1 = 1
    expect(reached('fig-formula', (r) => { r.dir[0] = 4; })).toBe(true); // (−1 + 4)/4 = 0.75
    expect(reached('fig-swap', (r) => { r.origin[0] = -3; r.dir[0] = 1; })).toBe(true);
    expect(reached('fig-overlap', (r) => { r.dir[1] = 2; })).toBe(true); // y [0.5, 1.5] before x [2, 4]
    expect(reached('fig-inside', (r) => { r.origin[0] = 0; })).toBe(true);
    expect(reached('fig-graze', (r) => { r.origin[1] = -1; r.dir[1] = 1; })).toBe(true); // y = x + 2 touches (−1, 1)
    expect(reached('fig-flat', (r, b) => { b.min[1] = 1; })).toBe(true);
    expect(reached('fig-obb', (r) => { r.origin[1] = f(1); })).toBe(true); // y [0.71, 2.12], x enters at 0.88
  });
});
