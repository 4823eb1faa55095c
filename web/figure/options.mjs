// mountFigure's options and scene, checked (DOM-free): every problem is a SlabcastError
// naming the option ("options.snap must be ..."), and the checked options come back
// normalized with their defaults (docs/figure.md, "Options").
import { SlabcastError } from '../core/errors.js';
import { toScene } from '../repro.js';
import { AXES, READOUT_NAMES } from './model.mjs';
import { VIEWS, unit } from './geometry.mjs';

export const HANDLE_NAMES = Object.freeze(['origin', 'dir', 'min', 'max']);
const OPTION_KEYS = ['sc', 'wasm', 'view', 'handles', 'snap', 'step', 'goal', 'bounds', 'readout', 'legend', 'zoom', 'label', 'start'];
const GOAL_KEYS = ['label', 'when'];

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v) => (typeof v === 'string' ? JSON.stringify(v) : typeof v === 'function' ? 'a function' : Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : String(v));
const bad = (field, message) => new SlabcastError(`mountFigure: ${field} ${message}`, { field });
const isVec = (v, n) => Array.isArray(v) && v.length === n && v.every((x) => typeof x === 'number' && Number.isFinite(x));

/** The scene as toScene() makes it, whose selected shape is an AABB and selected ray exists. */
export function checkScene(scene) {
  let s;
  try {
    s = toScene(scene);
  } catch (e) {
    throw new SlabcastError(`mountFigure: ${e.message}`, { field: 'scene', cause: e });
  }
  if (s.selected.ray < 0) throw bad('scene', 'has no ray: a figure explains one ray (scene.rays[selected.ray])');
  if (s.selected.shape < 0) throw bad('scene', 'has no shape: a figure explains one box (scene.shapes[selected.shape])');
  const box = s.shapes[s.selected.shape];
  if (box.type !== 'aabb') {
    throw bad('scene', `selected shape is ${show(box.type)}: a figure explains an AABB ({type: 'aabb', min, max})`);
  }
  return s;
}

/** One handle's constraint: null (free in the view's plane), {axis} or {line: {point, dir (unit)}}; false: no handle. */
function checkHandle(name, spec, view) {
  const field = `options.handles.${name}`;
  if (spec === undefined || spec === true) return null;
  if (spec === false) return false;
  if (!isObject(spec)) throw bad(field, `must be true, false, {axis: 'x' | 'y' | 'z'} or {line: {point, dir}}, got ${show(spec)}`);
  const keys = Object.keys(spec);
  if (keys.length !== 1 || (keys[0] !== 'axis' && keys[0] !== 'line')) {
    throw bad(field, `must have exactly one of "axis" or "line", got keys ${keys.join(', ') || '(none)'}`);
  }
  if (keys[0] === 'axis') {
    const axis = AXES.indexOf(spec.axis);
    if (axis < 0) throw bad(`${field}.axis`, `must be 'x', 'y' or 'z', got ${show(spec.axis)}`);
    if (axis === VIEWS[view].w) throw bad(`${field}.axis`, `is ${show(spec.axis)}, the axis the view ${show(view)} does not show`);
    return { axis };
  }
  const { line } = spec;
  if (!isObject(line) || !isVec(line.point, 3) || !isVec(line.dir, 3)) {
    throw bad(`${field}.line`, 'must be {point: [x, y, z], dir: [x, y, z]} with finite numbers');
  }
  const dir = unit(line.dir);
  if (!dir) throw bad(`${field}.line.dir`, 'must not be zero');
  return { line: { point: line.point.slice(), dir } };
}

/** A goal's condition: a function (values, figure) -> boolean, or an object of readout names to values. */
function checkGoal(goal) {
  if (goal === undefined) return null;
  if (!isObject(goal)) throw bad('options.goal', `must be {label, when}, got ${show(goal)}`);
  const unknown = Object.keys(goal).filter((k) => !GOAL_KEYS.includes(k));
  if (unknown.length) throw bad('options.goal', `has unknown key ${unknown.join(', ')} (keys are label, when)`);
  if (typeof goal.label !== 'string' || goal.label.trim() === '') throw bad('options.goal.label', `must be a non-empty string, got ${show(goal.label)}`);
  const { when } = goal;
  if (typeof when === 'function') return { label: goal.label, when };
  if (!isObject(when) || Object.keys(when).length === 0) {
    throw bad('options.goal.when', `must be a function (values) => boolean or an object of readout names to values, got ${show(when)}`);
  }
  for (const [key, want] of Object.entries(when)) {
    if (key === 't_enter_equals_t_exit') {
      if (typeof want !== 'boolean') throw bad(`options.goal.when.${key}`, `must be true or false, got ${show(want)}`);
      continue;
    }
    if (!READOUT_NAMES.includes(key)) throw bad(`options.goal.when.${key}`, `is not a readout name (docs/figure.md lists them)`);
    const range = isObject(want) && typeof want.min === 'number' && typeof want.max === 'number' && Object.keys(want).length === 2;
    if (!range && !['number', 'boolean', 'string'].includes(typeof want) && want !== null) {
      throw bad(`options.goal.when.${key}`, `must be a number, a boolean, a string, null or {min, max}, got ${show(want)}`);
    }
  }
  return { label: goal.label, when: { ...when } };
}

/** A 3D figure is for looking: it has no handles (drag in a 2D view) and no plane bounds. */
function check3d(o) {
  if (o.handles !== undefined && (!isObject(o.handles) || Object.values(o.handles).some((h) => h !== false))) {
    throw bad('options.handles', "is not for view '3d': a 3D figure has no handles (drag in a 2D view: 'xy', 'xz' or 'yz')");
  }
  if (o.bounds !== undefined) throw bad('options.bounds', "is not for view '3d': bounds are a 2D view's plane coordinates");
}

/** The options with their defaults, or a SlabcastError naming the first that is wrong. */
export function checkOptions(options) {
  if (options === undefined) options = {};
  if (!isObject(options)) throw bad('options', `must be an object, got ${show(options)}`);
  const unknown = Object.keys(options).filter((k) => !OPTION_KEYS.includes(k));
  if (unknown.length) throw bad('options', `has unknown option ${unknown.join(', ')} (options are ${OPTION_KEYS.join(', ')})`);
  const o = options;
  const view = o.view ?? 'xy';
  if (!Object.hasOwn(VIEWS, view) && view !== '3d') throw bad('options.view', `must be 'xy', 'xz', 'yz' or '3d', got ${show(view)}`);
  if (view === '3d') check3d(o);
  if (o.sc !== undefined && (!isObject(o.sc) || typeof o.sc.raycast !== 'function')) {
    throw bad('options.sc', 'must be the API loadSlabcast() resolves to');
  }
  if (o.handles !== undefined && !isObject(o.handles)) throw bad('options.handles', `must be an object {origin, dir, min, max}, got ${show(o.handles)}`);
  const handleSpecs = o.handles ?? {};
  const badHandle = Object.keys(handleSpecs).filter((k) => !HANDLE_NAMES.includes(k));
  if (badHandle.length) throw bad('options.handles', `has unknown handle ${badHandle.join(', ')} (handles are ${HANDLE_NAMES.join(', ')})`);
  const handles = Object.fromEntries(HANDLE_NAMES.map((n) => [n, view === '3d' ? false : checkHandle(n, handleSpecs[n], view)]));
  let snap = 0;
  if (o.snap === 'integer') snap = 1;
  else if (typeof o.snap === 'number') {
    if (!(o.snap > 0) || !Number.isFinite(o.snap)) throw bad('options.snap', `must be a positive grid step, got ${show(o.snap)}`);
    snap = o.snap;
  } else if (o.snap !== undefined && o.snap !== false) throw bad('options.snap', `must be a grid step (a positive number), 'integer' or false, got ${show(o.snap)}`);
  const step = o.step ?? (snap || 0.1);
  if (typeof step !== 'number' || !(step > 0) || !Number.isFinite(step)) throw bad('options.step', `must be a positive number, got ${show(o.step)}`);
  let bounds = null;
  if (o.bounds !== undefined) {
    if (!isObject(o.bounds) || !isVec(o.bounds.min, 2) || !isVec(o.bounds.max, 2) || !(o.bounds.min[0] < o.bounds.max[0]) || !(o.bounds.min[1] < o.bounds.max[1])) {
      throw bad('options.bounds', 'must be {min: [u, v], max: [u, v]} with min < max (the plane coordinates of the view)');
    }
    bounds = { min: o.bounds.min.slice(), max: o.bounds.max.slice() };
  }
  for (const k of ['readout', 'legend', 'zoom']) {
    if (o[k] !== undefined && typeof o[k] !== 'boolean') throw bad(`options.${k}`, `must be true or false, got ${show(o[k])}`);
  }
  if (o.label !== undefined && typeof o.label !== 'string') throw bad('options.label', `must be a string, got ${show(o.label)}`);
  if (o.start !== undefined && o.start !== 'visible' && o.start !== 'now') throw bad('options.start', `must be 'visible' or 'now', got ${show(o.start)}`);
  return {
    sc: o.sc ?? null,
    wasm: o.wasm,
    view,
    handles,
    snap,
    step,
    goal: checkGoal(o.goal),
    bounds,
    readout: o.readout ?? true,
    legend: o.legend ?? true,
    zoom: o.zoom ?? true,
    label: o.label ?? 'Slab figure: a ray and a box',
    start: o.start ?? 'visible',
  };
}

/** Whether the goal's condition holds for the readout values `values` (the figure's state in `figure`). */
export function goalHolds(goal, values, figure) {
  if (!goal) return false;
  if (typeof goal.when === 'function') return goal.when(values, figure) === true;
  for (const [key, want] of Object.entries(goal.when)) {
    if (key === 't_enter_equals_t_exit') {
      const same = values.t_enter !== null && values.t_enter === values.t_exit;
      if (same !== want) return false;
      continue;
    }
    const got = values[key];
    if (isObject(want)) {
      if (typeof got !== 'number' || !(got >= want.min && got <= want.max)) return false;
    } else if (typeof want === 'number') {
      if (typeof got !== 'number' || got !== Math.fround(want)) return false;
    } else if (got !== want) return false;
  }
  return true;
}
