// The slab method, explained: the per-axis intervals of a ray against a box, computed
// the way the core does it (src/sc_aabb.c, sc_slab_interval and its callers) so that a
// learner sees the very numbers behind slabcast's answer.
//
// Pure and dependency-free. Every operation is rounded to float32 with Math.fround
// (a double holds the exact product or sum of two float32 values closely enough that
// rounding it again to float32 gives the correctly rounded float32 result), divisions
// are real divisions (no reciprocal), and an axis whose direction component is 0 or -0
// is handled as "parallel" without ever computing 0 * infinity.
//
//   explainSlabs(ray, shape) -> explanation | null   (null: not a box)

const f = Math.fround;
const AXIS_NAMES = ['x', 'y', 'z'];
/** 2^126 and 2^-4: positions this large are scaled down first, as the core does. */
const HUGE = 8.5070592e37;
const HUGE_SCALE = 0.0625;

const dot = (a, b) => f(f(f(a[0] * b[0]) + f(a[1] * b[1])) + f(a[2] * b[2]));
const sub = (a, b) => [f(a[0] - b[0]), f(a[1] - b[1]), f(a[2] - b[2])];
const scale = (a, s) => [f(a[0] * s), f(a[1] * s), f(a[2] * s)];
const max3abs = (v) => Math.max(Math.abs(v[0]), Math.abs(v[1]), Math.abs(v[2]));
const vec = (v) => [f(v[0]), f(v[1]), f(v[2])];
/** -0 -> 0, as the core's sc_pz. */
const pz = (x) => x + 0;

function positionScale(vs) {
  for (const v of vs) if (max3abs(v) >= HUGE) return HUGE_SCALE;
  return 1;
}

/**
 * The slab explanation of `ray` against an AABB or OBB.
 *
 * Returns null for other shapes. Otherwise:
 * - frame: 'world' (AABB) or 'box' (OBB: the numbers are in the box's own frame,
 *   origin and direction projected on its axes, the slab i being [-half[i], half[i]]);
 * - o, d: the origin and direction in that frame; tmax;
 * - axes[i]: {axis, name, o, d, lo, hi, parallel, inside (parallel only: the origin is
 *   within the slab), t1 = (lo - o)/d, t2 = (hi - o)/d (not for parallel axes),
 *   near, far (the interval [near, far] of t inside the slab: -inf/+inf for a parallel
 *   axis that contains the origin, null for one that does not)};
 * - tEnter = the largest near, enterAxis (the first axis that gave it; -1 if none),
 *   tExit = the smallest far, exitAxis;
 * - overlap: the three intervals share at least one t (no parallel axis outside and
 *   tEnter <= tExit);
 * - hit, and reason: 'parallel-outside' | 'no-overlap' | 'behind' | 'beyond-tmax' | 'hit';
 * - t (on a hit: max(tEnter, 0)); flags: {parallel: [axes], parallelOutside: [axes],
 *   originInside (strictly: tEnter < 0 on a hit), originOnSurface (tEnter == 0 on a hit),
 *   flatCrossing (a hit where tEnter == tExit because the box has zero thickness on an
 *   axis the ray crosses, at a point strictly inside the other slabs: the ray crosses the flat
 *   box, docs/semantics.md), grazing (tEnter == tExit on any other hit: the line only touches
 *   the box at an edge or a corner)}.
 * @param {{origin: number[], dir: number[], tmax?: number}} ray
 * @param {object} shape
 */
export function explainSlabs(ray, shape) {
  if (!shape || (shape.type !== 'aabb' && shape.type !== 'obb')) return null;
  const origin = vec(ray.origin);
  const dir = vec(ray.dir);
  const tmax = ray.tmax === undefined ? Infinity : f(ray.tmax);
  let o;
  let d;
  let lo;
  let hi;
  let s;
  if (shape.type === 'aabb') {
    const min = vec(shape.min);
    const max = vec(shape.max);
    s = positionScale([origin, min, max]);
    o = s === 1 ? origin : scale(origin, s);
    d = dir;
    lo = s === 1 ? min : scale(min, s);
    hi = s === 1 ? max : scale(max, s);
  } else {
    const center = vec(shape.center);
    const axes = shape.axes.map(vec);
    const half = vec(shape.half);
    s = positionScale([origin, center, half]);
    const m = sub(scale(origin, s), scale(center, s));
    o = [dot(m, axes[0]), dot(m, axes[1]), dot(m, axes[2])];
    d = [dot(dir, axes[0]), dot(dir, axes[1]), dot(dir, axes[2])];
    hi = scale(half, s);
    lo = scale(hi, -1);
  }

  const axes = [];
  let tEnter = -Infinity;
  let tExit = Infinity;
  let enterAxis = -1;
  let exitAxis = -1;
  let parallelOutside = false;
  for (let i = 0; i < 3; i++) {
    const info = { axis: i, name: AXIS_NAMES[i], o: o[i], d: d[i], lo: lo[i], hi: hi[i], parallel: false };
    if (d[i] === 0) {
      // Parallel to this slab: inside it for every t, or for none. Never (lo - o) / 0.
      info.parallel = true;
      info.inside = !(o[i] < lo[i] || o[i] > hi[i]);
      info.near = info.inside ? -Infinity : null;
      info.far = info.inside ? Infinity : null;
      if (!info.inside) parallelOutside = true;
    } else {
      info.t1 = f(f(lo[i] - o[i]) / d[i]);
      info.t2 = f(f(hi[i] - o[i]) / d[i]);
      info.near = d[i] > 0 ? info.t1 : info.t2;
      info.far = d[i] > 0 ? info.t2 : info.t1;
      if (info.near > tEnter) { tEnter = info.near; enterAxis = i; }
      if (info.far < tExit) { tExit = info.far; exitAxis = i; }
    }
    axes.push(info);
  }
  if (s !== 1) {
    tEnter = f(tEnter / s);
    tExit = f(tExit / s);
    for (const a of axes) {
      if (a.parallel) continue;
      a.t1 = f(a.t1 / s);
      a.t2 = f(a.t2 / s);
      a.near = f(a.near / s);
      a.far = f(a.far / s);
    }
  }
  tEnter = pz(tEnter);
  tExit = pz(tExit);

  const overlap = !parallelOutside && tEnter <= tExit;
  let reason;
  if (parallelOutside) reason = 'parallel-outside';
  else if (!(tEnter <= tExit)) reason = 'no-overlap';
  else if (!(tExit >= 0)) reason = 'behind';
  else if (!(tEnter <= tmax)) reason = 'beyond-tmax';
  else reason = 'hit';
  const hit = reason === 'hit';
  const parallel = axes.filter((a) => a.parallel).map((a) => a.axis);
  const single = hit && tEnter === tExit;
  // A flat axis (lo == hi) crossed transversally gives near == far; the ray crosses the flat
  // box there when the point is strictly inside the other two slabs (not on their rim).
  const flatCrossing = single && axes.some((a) => !a.parallel && a.lo === a.hi &&
    axes.every((b) => b === a || (b.parallel ? b.inside && b.o > b.lo && b.o < b.hi : b.near < a.near && a.near < b.far)));
  return {
    frame: shape.type === 'aabb' ? 'world' : 'box',
    o,
    d,
    tmax,
    axes,
    tEnter,
    tExit,
    enterAxis,
    exitAxis,
    overlap,
    hit,
    reason,
    t: hit ? (tEnter > 0 ? tEnter : 0) : null,
    flags: {
      parallel,
      parallelOutside: axes.filter((a) => a.parallel && !a.inside).map((a) => a.axis),
      originInside: hit && tEnter < 0,
      originOnSurface: hit && tEnter === 0,
      flatCrossing,
      grazing: single && !flatCrossing,
    },
  };
}

/**
 * Compare an explanation with slabcast's raycast result for the same ray and box.
 * Returns null when they agree (same verdict and, on a hit, the same t, t_enter and
 * t_exit bit for bit up to the sign of zero), else a short description.
 */
export function crossCheck(explanation, result) {
  if (!explanation || !result) return null;
  if (explanation.hit !== result.hit) {
    return `the slab steps say ${explanation.hit ? 'hit' : 'miss'}, slabcast says ${result.hit ? 'hit' : 'miss'}`;
  }
  if (!result.hit) return null;
  const same = (a, b) => a === b; // -0 === 0
  if (!same(explanation.tEnter, result.t_enter) || !same(explanation.tExit, result.t_exit) || !same(explanation.t, result.t)) {
    return `the slab steps give [${explanation.tEnter}, ${explanation.tExit}], slabcast [${result.t_enter}, ${result.t_exit}]`;
  }
  return null;
}
