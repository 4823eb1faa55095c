// The figure's numbers, DOM-free: what the core says about one ray and one box (sc.raycast),
// the slab steps behind it (web/playground/slab.mjs, the core's arithmetic in float32), and
// the readout values that prose binds to (docs/figure.md, "Readout names").
//
//   values = figureValues(scene, sc) -> {hit, t, t_enter, ..., tx_enter, ...}
//
// Every number here is the core's: t, t_enter, t_exit, point and normal come from
// sc.raycast; the per-axis intervals come from explainSlabs, which is checked against the
// core (crossCheck) on every update.
import { crossCheck, explainSlabs } from '../playground/slab.mjs';
import { formatFloat32 } from '../f32format.mjs';

export const AXES = ['x', 'y', 'z'];

/** The readout names a page can bind to, in the order docs/figure.md lists them. */
export const READOUT_NAMES = Object.freeze([
  'hit', 'reason', 't', 't_enter', 't_exit',
  ...AXES.flatMap((a) => [`t${a}_enter`, `t${a}_exit`]),
  ...AXES.flatMap((a) => [`t${a}_wall_min`, `t${a}_wall_max`]),
  'enter_axis', 'exit_axis',
  ...['origin', 'dir', 'min', 'max', 'point', 'normal'].flatMap((v) => AXES.map((a) => `${v}.${a}`)),
]);

/** What each reason means, in words a learner reads. */
export const REASON_TEXT = Object.freeze({
  hit: 'hit',
  'no-overlap': 'miss: the intervals do not overlap',
  'parallel-outside': 'miss: parallel to a slab, outside it',
  behind: 'miss: the box is behind the ray',
  'beyond-tmax': 'miss: the box is beyond tmax',
});

/** The ray and the box a figure explains: scene.rays[selected.ray] and scene.shapes[selected.shape]. */
export function subjectOf(scene) {
  return { ray: scene.rays[scene.selected.ray], box: scene.shapes[scene.selected.shape] };
}

/**
 * The figure's state for `scene` (a toScene() scene whose selected shape is an AABB), with
 * `sc` the loaded core: {result (sc.raycast's), ex (explainSlabs'), values (readouts)}.
 * Throws an Error when the slab steps and the core disagree (a bug, never shown silently).
 */
export function computeFigure(scene, sc) {
  const { ray, box } = subjectOf(scene);
  const result = sc.raycast(ray, box);
  const ex = explainSlabs(ray, box);
  const disagreement = crossCheck(ex, result);
  if (disagreement !== null) throw new Error(`the figure's slab steps disagree with the core: ${disagreement}`);
  return { result, ex, values: valuesOf(ray, box, result, ex) };
}

/** The readout values (numbers, booleans, strings; null: nothing to show) of one state. */
export function valuesOf(ray, box, result, ex) {
  const v = {
    hit: result.hit,
    reason: ex.reason,
    // On a hit these are the core's; on a miss the core gives none, and the slab steps'
    // interval ends are shown (they tell why it missed), null when there is no interval.
    t: result.hit ? result.t : null,
    t_enter: result.hit ? result.t_enter : finiteOrNull(ex.tEnter, ex.reason !== 'parallel-outside'),
    t_exit: result.hit ? result.t_exit : finiteOrNull(ex.tExit, ex.reason !== 'parallel-outside'),
    enter_axis: ex.enterAxis >= 0 ? AXES[ex.enterAxis] : null,
    exit_axis: ex.exitAxis >= 0 ? AXES[ex.exitAxis] : null,
  };
  for (const a of ex.axes) {
    v[`t${a.name}_enter`] = a.near;
    v[`t${a.name}_exit`] = a.far;
    // (min - origin) / dir and (max - origin) / dir, before sorting: null for a parallel axis.
    v[`t${a.name}_wall_min`] = a.parallel ? null : a.t1;
    v[`t${a.name}_wall_max`] = a.parallel ? null : a.t2;
  }
  AXES.forEach((a, i) => {
    v[`origin.${a}`] = ray.origin[i];
    v[`dir.${a}`] = ray.dir[i];
    v[`min.${a}`] = box.min[i];
    v[`max.${a}`] = box.max[i];
    v[`point.${a}`] = result.hit ? result.point[i] : null;
    v[`normal.${a}`] = result.hit ? result.normal[i] : null;
  });
  return v;
}

/** x when the interval exists (keep), else null. */
function finiteOrNull(x, keep) {
  return keep ? x : null;
}

const MINUS = '\u2212';

/**
 * A readout value as text: numbers as the shortest decimal that reads back as the same
 * float32 (or with `digits` decimals when given), one minus sign (U+2212), -0 as "−0",
 * infinities as ∞; booleans as "hit"/"miss" for `hit`, else "yes"/"no"; null as "—".
 */
export function formatValue(name, value, digits = undefined) {
  if (value === null || value === undefined) return '\u2014';
  if (typeof value === 'boolean') return name === 'hit' ? (value ? 'hit' : 'miss') : (value ? 'yes' : 'no');
  if (typeof value === 'string') return name === 'reason' ? REASON_TEXT[value] ?? value : value;
  if (value === Infinity) return '\u221e';
  if (value === -Infinity) return `${MINUS}\u221e`;
  if (Number.isNaN(value)) return 'NaN';
  if (Object.is(value, -0)) return `${MINUS}0`;
  const text = digits === undefined ? formatFloat32(Math.fround(value)) : value.toFixed(digits);
  // toFixed can give "-0.00" for a tiny negative value: that is −0.00, kept, with one minus sign.
  return text.replaceAll('-', MINUS);
}
