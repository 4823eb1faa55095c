// slabcast/figure's DOM-free parts (web/figure/model.mjs, geometry.mjs, options.mjs and the
// pure functions of handles.js): the readout values of a ray against a box, their text,
// the view's map to pixels, clipping, snapping, constraints, goals, and the errors of bad
// scenes and options. Every expected value is worked out by hand in the comment beside it
// from t = (wall - origin) / dir; none is read back from the code under test.
import { beforeAll, describe, expect, it } from 'vitest';
import { SlabcastError, loadSlabcast } from '../../web/slabcast.js';
import { computeFigure, formatValue, READOUT_NAMES } from '../../web/figure/model.mjs';
import { clipLine, constrain, makeTransform, snapValue, unit, zoomBounds } from '../../web/figure/geometry.mjs';
import { checkOptions, checkScene, goalHolds } from '../../web/figure/options.mjs';
import { applyHandle, handleLabel, handlePosition } from '../../web/figure/handles.js';
import { WASM, requireBuilt } from './helpers/artifacts.mjs';

const f = Math.fround;
const BOX = { type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] };
let sc;

beforeAll(async () => {
  requireBuilt(WASM);
  sc = await loadSlabcast();
});

const values = (origin, dir, box = BOX) => computeFigure(checkScene({ shapes: [box], rays: [{ origin, dir }] }), sc).values;

describe('readout values', () => {
  it('one slab: a ray along x from x = -4 enters at 3 and leaves at 5; y and z never stop it', () => {
    // x: (-1 - -4)/1 = 3, (1 - -4)/1 = 5; y, z: dir 0, origin 0.5 and 0 inside [-1, 1]: (-inf, inf).
    const v = values([-4, 0.5, 0], [1, 0, 0]);
    expect(v).toMatchObject({ hit: true, reason: 'hit', t: 3, t_enter: 3, t_exit: 5, tx_enter: 3, tx_exit: 5, enter_axis: 'x', exit_axis: 'x' });
    expect([v.ty_enter, v.ty_exit, v.tz_enter, v.tz_exit]).toEqual([-Infinity, Infinity, -Infinity, Infinity]);
    expect([v['point.x'], v['point.y'], v['point.z']]).toEqual([-1, 0.5, 0]);
    expect([v['normal.x'], v['normal.y'], v['normal.z']]).toEqual([-1, 0, 0]);
    expect([v['origin.x'], v['dir.x'], v['min.y'], v['max.z']]).toEqual([-4, 1, -1, 1]);
  });

  it('a diagonal ray: the intervals [2, 4] (x) and [1, 3] (y) overlap on [2, 3]', () => {
    // x: (-1 + 3)/1 = 2, (1 + 3)/1 = 4; y: (-1 + 2)/1 = 1, (1 + 2)/1 = 3; max near 2 (x), min far 3 (y).
    const v = values([-3, -2, 0], [1, 1, 0]);
    expect(v).toMatchObject({ hit: true, t: 2, t_enter: 2, t_exit: 3, tx_enter: 2, tx_exit: 4, ty_enter: 1, ty_exit: 3, enter_axis: 'x', exit_axis: 'y' });
  });

  it('a negative direction swaps the walls: enter through x = 1, leave through x = -1', () => {
    // (-1 - 3)/-1 = 4 and (1 - 3)/-1 = 2: the near end is 2 (the wall x = 1).
    const v = values([3, 0, 0], [-1, 0, 0]);
    expect(v).toMatchObject({ hit: true, tx_enter: 2, tx_exit: 4, t_enter: 2, t_exit: 4, 'point.x': 1, tx_wall_min: 4, tx_wall_max: 2 });
    expect([v.ty_wall_min, v.ty_wall_max]).toEqual([null, null]); // parallel: no wall is crossed
  });

  it('a miss whose intervals do not overlap: x [2, 4], y [2/3, 4/3]', () => {
    // origin (-3, -3), dir (1, 3): x: 2, 4; y: (-1 + 3)/3 = 2/3, (1 + 3)/3 = 4/3 (float32); 2 > 4/3.
    const v = values([-3, -3, 0], [1, 3, 0]);
    expect(v).toMatchObject({ hit: false, reason: 'no-overlap', t: null, t_enter: 2, t_exit: f(4 / 3), ty_enter: f(2 / 3), ty_exit: f(4 / 3) });
    expect(v['point.x']).toBe(null);
  });

  it('grazing the corner: x [2, 4] and y [1, 2] touch at t = 2', () => {
    // origin (-3, -3), dir (1, 2): y: (-1 + 3)/2 = 1, (1 + 3)/2 = 2; enter = exit = 2, at the corner (-1, 1).
    const v = values([-3, -3, 0], [1, 2, 0]);
    expect(v).toMatchObject({ hit: true, t_enter: 2, t_exit: 2, 'point.x': -1, 'point.y': 1 });
  });

  it('an origin inside the box: t_enter -1 is behind the origin, t = 0', () => {
    const v = values([0, 0, 0], [1, 0, 0]);
    expect(v).toMatchObject({ hit: true, t: 0, t_enter: -1, t_exit: 1 });
  });

  it('parallel to a slab and outside it: no interval on y, a miss with no t_enter', () => {
    const v = values([-3, 2, 0], [1, 0, 0]);
    expect(v).toMatchObject({ hit: false, reason: 'parallel-outside', ty_enter: null, ty_exit: null, t_enter: null, t_exit: null, tx_enter: 2, tx_exit: 4 });
  });

  it('the list of readout names has every value key', () => {
    expect(Object.keys(values([-4, 0.5, 0], [1, 0, 0])).sort()).toEqual([...READOUT_NAMES].sort());
  });
});

describe('formatValue', () => {
  it('writes one minus sign, -0, infinities and float32 numbers as the core holds them', () => {
    expect(formatValue('t', -1.5)).toBe('\u22121.5');
    expect(formatValue('dir.x', -0)).toBe('\u22120');
    expect(formatValue('t', 0)).toBe('0');
    expect(formatValue('t', Infinity)).toBe('\u221e');
    expect(formatValue('t', -Infinity)).toBe('\u2212\u221e');
    expect(formatValue('t', f(0.1))).toBe('0.1');
    // float32(1/3) = 0.3333333432674408; its neighbours are 2^-25 (3e-8) away, so the
    // eight digits 0.33333334 read back as it, and seven (0.3333333) do not.
    expect(formatValue('t', f(1 / 3))).toBe('0.33333334');
    expect(formatValue('t', f(1 / 3), 2)).toBe('0.33');
    expect(formatValue('t', null)).toBe('\u2014');
    expect(formatValue('hit', true)).toBe('hit');
    expect(formatValue('hit', false)).toBe('miss');
    expect(formatValue('reason', 'no-overlap')).toBe('miss: the intervals do not overlap');
  });
});

describe('geometry', () => {
  it('makeTransform: one scale for both axes, the bounds centred, v upwards', () => {
    // bounds 4 x 2 in 400 x 100 px: scale min(100, 50) = 50; centre (2, 1) at (200, 50).
    const tf = makeTransform({ min: [0, 0], max: [4, 2] }, 400, 100);
    expect(tf.scale).toBe(50);
    expect(tf.toPx([2, 1])).toEqual([200, 50]);
    expect(tf.toPx([0, 0])).toEqual([100, 100]);
    expect(tf.toPlane([300, 0])).toEqual([4, 2]);
    expect(tf.visible).toEqual({ min: [-2, 0], max: [6, 2] });
  });

  it('zoomBounds: the visible rectangle scaled about the pointer, which stays put', () => {
    const tf = makeTransform({ min: [0, 0], max: [4, 2] }, 400, 100); // visible [-2, 0]..[6, 2]
    // deltaY 500 * ln 2 scales by 2 about (2, 1): [-6, -1]..[10, 3].
    const out = zoomBounds(tf, [2, 1], 500 * Math.LN2);
    [...out.min, ...out.max].forEach((x, i) => expect(x).toBeCloseTo([-6, -1, 10, 3][i], 12));
    // About a corner (6, 2), zooming in by 2: that corner stays; [2, 1]..[6, 2].
    const inn = zoomBounds(tf, [6, 2], -500 * Math.LN2);
    [...inn.min, ...inn.max].forEach((x, i) => expect(x).toBeCloseTo([2, 1, 6, 2][i], 12));
    // One step never scales by more than e.
    const far = zoomBounds(tf, [2, 1], 1e6);
    expect(far.max[0] - far.min[0]).toBeCloseTo(8 * Math.E, 12);
  });

  it('clipLine: the t range of a line inside a rectangle', () => {
    const rect = { min: [-2, -1], max: [2, 1] };
    expect(clipLine([0, 0], [1, 0], rect)).toEqual([-2, 2]);
    expect(clipLine([0, 0], [1, 1], rect)).toEqual([-1, 1]); // y leaves first
    expect(clipLine([0, 5], [1, 0], rect)).toBe(null);
    expect(clipLine([0, 0], [0, 0], rect)).toBe(null);
    expect(clipLine([-4, 0], [2, 0], rect)).toEqual([1, 3]);
  });

  it('snapValue: to the grid, as float32', () => {
    expect(snapValue(0.26, 0.25)).toBe(0.25);
    expect(snapValue(-0.74, 0.5)).toBe(-0.5);
    expect(snapValue(0.31, 0.1)).toBe(f(0.3));
    expect(snapValue(2.4999, 1)).toBe(2);
    expect(snapValue(0.1, 0)).toBe(f(0.1));
  });

  it('constrain: along an axis, free in the plane, along a line', () => {
    expect(constrain([5, 7, 9], [1, 2, 3], { axis: 1 }, 0, 'xy')).toEqual([1, 7, 3]);
    expect(constrain([5.3, 7.6, 9], [1, 2, 3], null, 1, 'xy')).toEqual([5, 8, 3]); // z is hidden: kept
    expect(constrain([5.3, 7.6, 9], [1, 2, 3], null, 1, 'xz')).toEqual([5, 2, 9]); // y is hidden: kept
    const line = { point: [0, 0, 0], dir: unit([1, 1, 0]) };
    // (2, 0, 0) projects on the line x = y at s = 2/sqrt(2): the point (1, 1, 0).
    expect(constrain([2, 0, 0], [0, 0, 0], { line }, 0, 'xy')).toEqual([1, 1, 0]);
    // With a step of sqrt(2) along the line: (2.5, 0, 0) projects at s = 2.5/sqrt(2) = 1.77,
    // 1.25 steps, snapped to 1 step: (1, 1, 0); (3.1, 0, 0) at 1.55 steps snaps to 2: (2, 2, 0).
    expect(constrain([2.5, 0, 0], [0, 0, 0], { line }, Math.SQRT2, 'xy')).toEqual([1, 1, 0]);
    expect(constrain([3.1, 0, 0], [0, 0, 0], { line }, Math.SQRT2, 'xy')).toEqual([2, 2, 0]);
  });
});

describe('handles (pure parts)', () => {
  const ray = { origin: [-4, 0, 0], dir: [2, 1, 0], tmax: Infinity };
  it('the direction tip is origin + dir; moving it changes dir only', () => {
    expect(handlePosition('dir', ray, BOX)).toEqual([-2, 1, 0]);
    expect(applyHandle('dir', [-1, 1, 0], ray, BOX).ray).toMatchObject({ origin: [-4, 0, 0], dir: [3, 1, 0] });
  });
  it('a tip on the origin (a zero direction) is refused', () => {
    expect(applyHandle('dir', [-4, 0, 0], ray, BOX)).toBe(null);
  });
  it('the corners never cross: min stays <= max', () => {
    expect(applyHandle('min', [2, -3, 0], ray, BOX).box).toMatchObject({ min: [1, -3, 0], max: [1, 1, 1] });
    expect(applyHandle('max', [0, -2, 1], ray, BOX).box).toMatchObject({ min: [-1, -1, -1], max: [0, -1, 1] });
  });
  it('the label a screen reader reads names the handle and its coordinates', () => {
    expect(handleLabel('origin', [-4, 0.5, 0])).toBe('Ray origin: x \u22124, y 0.5, z 0. Arrow keys move it.');
  });
});

describe('goals', () => {
  const graze = checkOptions({ goal: { label: 'graze', when: { t_enter_equals_t_exit: true, hit: true } } }).goal;
  it('t_enter_equals_t_exit holds for the grazing ray only', () => {
    expect(goalHolds(graze, values([-3, -3, 0], [1, 2, 0]))).toBe(true);
    expect(goalHolds(graze, values([-3, -2, 0], [1, 1, 0]))).toBe(false);
  });
  it('values and ranges of readouts; a function', () => {
    const at3 = checkOptions({ goal: { label: 'x', when: { t_enter: 3 } } }).goal;
    const range = checkOptions({ goal: { label: 'x', when: { t: { min: 2, max: 2.5 } } } }).goal;
    const fn = checkOptions({ goal: { label: 'x', when: (v) => v.hit && v.t_enter < 0 } }).goal;
    expect(goalHolds(at3, values([-4, 0.5, 0], [1, 0, 0]))).toBe(true);
    expect(goalHolds(at3, values([-3, 0.5, 0], [1, 0, 0]))).toBe(false); // t_enter 2
    expect(goalHolds(range, values([-3, 0.5, 0], [1, 0, 0]))).toBe(true);
    expect(goalHolds(range, values([-4, 0.5, 0], [1, 0, 0]))).toBe(false);
    expect(goalHolds(fn, values([0, 0, 0], [1, 0, 0]))).toBe(true);
    expect(goalHolds(fn, values([-4, 0.5, 0], [1, 0, 0]))).toBe(false);
  });
});

describe('bad scenes and options', () => {
  const err = (fn) => {
    try { fn(); } catch (e) { return e; }
    throw new Error('did not throw');
  };
  it('name what is wrong, as SlabcastErrors', () => {
    const cases = [
      [() => checkOptions({ view: 'zz' }), 'options.view', /must be 'xy', 'xz', 'yz' or '3d', got "zz"/],
      [() => checkOptions({ view: '3d', handles: { origin: true } }), 'options.handles', /a 3D figure has no handles/],
      [() => checkOptions({ view: '3d', handles: { origin: { axis: 'x' } } }), 'options.handles', /a 3D figure has no handles/],
      [() => checkOptions({ view: '3d', bounds: { min: [0, 0], max: [1, 1] } }), 'options.bounds', /not for view '3d'/],
      [() => checkOptions({ snap: -1 }), 'options.snap', /positive grid step/],
      [() => checkOptions({ snap: 'half' }), 'options.snap', /'integer'/],
      [() => checkOptions({ handles: { corner: true } }), 'options.handles', /unknown handle corner/],
      [() => checkOptions({ handles: { origin: { axis: 'z' } } }), 'options.handles.origin.axis', /the axis the view "xy" does not show/],
      [() => checkOptions({ handles: { origin: { line: { point: [0, 0, 0], dir: [0, 0, 0] } } } }), 'options.handles.origin.line.dir', /must not be zero/],
      [() => checkOptions({ goal: { when: { hit: true } } }), 'options.goal.label', /non-empty string/],
      [() => checkOptions({ goal: { label: 'g', when: { t_inside: 1 } } }), 'options.goal.when.t_inside', /not a readout name/],
      [() => checkOptions({ zoomm: true }), 'options', /unknown option zoomm/],
      [() => checkOptions({ bounds: { min: [1, 0], max: [0, 1] } }), 'options.bounds', /min < max/],
      [() => checkScene({ shapes: [{ type: 'sphere', center: [0, 0, 0], radius: 1 }], rays: [{ origin: [0, 0, -5], dir: [0, 0, 1] }] }), 'scene', /selected shape is "sphere": a figure explains an AABB/],
      [() => checkScene({ shapes: [BOX], rays: [] }), 'scene', /has no ray/],
      [() => checkScene({ shapes: [BOX] }), 'scene', /"rays" array/],
    ];
    for (const [fn, field, message] of cases) {
      const e = err(fn);
      expect(e).toBeInstanceOf(SlabcastError);
      expect(e.field).toBe(field);
      expect(e.message).toMatch(message);
      expect(e.message.startsWith('mountFigure: ')).toBe(true);
    }
  });
  it('defaults: view xy, every handle free, no snap, a 0.1 keyboard step', () => {
    expect(checkOptions(undefined)).toMatchObject({ view: 'xy', snap: 0, step: 0.1, handles: { origin: null, dir: null, min: null, max: null }, goal: null, readout: true, legend: true, zoom: true, start: 'visible' });
    expect(checkOptions({ snap: 'integer' })).toMatchObject({ snap: 1, step: 1 });
    // A 3D figure is for looking: no handles (false, not null: null is a free handle).
    expect(checkOptions({ view: '3d' })).toMatchObject({ view: '3d', handles: { origin: false, dir: false, min: false, max: false } });
    expect(checkOptions({ view: '3d', handles: { origin: false } }).handles.origin).toBe(false);
  });
});
