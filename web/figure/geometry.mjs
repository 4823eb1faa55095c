// The figure's plane geometry, DOM-free: which world axes a view shows, the map from world
// to SVG pixels, clipping the ray's line to the visible rectangle, snapping, and the
// constraints that keep a handle on an axis or a line.

/** The world axes (u: rightwards, v: upwards) each view shows, and the one it hides. */
export const VIEWS = Object.freeze({
  xy: { u: 0, v: 1, w: 2 },
  xz: { u: 0, v: 2, w: 1 },
  yz: { u: 1, v: 2, w: 0 },
});

/**
 * The rectangle of the plane a figure shows at first: the box, the ray's origin and the
 * tip of its direction, with a margin; at least `minSpan` wide and tall.
 * @returns {{min: number[], max: number[]}} in plane coordinates [u, v]
 */
export function defaultBounds(ray, box, view, minSpan = 2) {
  const { u, v } = VIEWS[view];
  const pts = [box.min, box.max, ray.origin, ray.origin.map((o, i) => o + ray.dir[i])];
  let min = [Infinity, Infinity];
  let max = [-Infinity, -Infinity];
  for (const p of pts) {
    const q = [p[u], p[v]];
    for (let k = 0; k < 2; k++) {
      if (!Number.isFinite(q[k])) continue;
      min[k] = Math.min(min[k], q[k]);
      max[k] = Math.max(max[k], q[k]);
    }
  }
  for (let k = 0; k < 2; k++) {
    if (!(min[k] <= max[k])) { min[k] = -1; max[k] = 1; }
    const span = Math.max(max[k] - min[k], minSpan);
    const mid = (min[k] + max[k]) / 2;
    min[k] = mid - span * 0.65;
    max[k] = mid + span * 0.65;
  }
  return { min, max };
}

/**
 * The map between the plane rectangle `bounds` and an SVG of width x height pixels: one
 * scale for both axes (squares stay square), the rectangle centred, v upwards.
 */
export function makeTransform(bounds, width, height) {
  const spanU = bounds.max[0] - bounds.min[0];
  const spanV = bounds.max[1] - bounds.min[1];
  const scale = Math.min(width / spanU, height / spanV);
  const cu = (bounds.min[0] + bounds.max[0]) / 2;
  const cv = (bounds.min[1] + bounds.max[1]) / 2;
  const toPx = (p) => [width / 2 + (p[0] - cu) * scale, height / 2 - (p[1] - cv) * scale];
  const toPlane = (q) => [cu + (q[0] - width / 2) / scale, cv - (q[1] - height / 2) / scale];
  /** The plane rectangle the whole SVG shows (wider than bounds on one axis). */
  const visible = { min: toPlane([0, height]), max: toPlane([width, 0]) };
  return { scale, toPx, toPlane, visible, width, height };
}

/**
 * The t range [t0, t1] of the line origin + t * dir (plane coordinates) inside the
 * rectangle rect, or null when it misses it. A direction with both components 0 gives null
 * (the line is a point of the plane). Liang-Barsky.
 */
export function clipLine(origin, dir, rect) {
  let t0 = -Infinity;
  let t1 = Infinity;
  if (dir[0] === 0 && dir[1] === 0) return null;
  for (let k = 0; k < 2; k++) {
    if (dir[k] === 0) {
      if (origin[k] < rect.min[k] || origin[k] > rect.max[k]) return null;
      continue;
    }
    let a = (rect.min[k] - origin[k]) / dir[k];
    let b = (rect.max[k] - origin[k]) / dir[k];
    if (a > b) [a, b] = [b, a];
    t0 = Math.max(t0, a);
    t1 = Math.min(t1, b);
  }
  return t0 <= t1 ? [t0, t1] : null;
}

/** x on the grid of step `step` (a float32); x itself when step is 0. */
export function snapValue(x, step) {
  if (!step) return Math.fround(x);
  const k = Math.round(x / step);
  // Rounded to 9 decimals first, so that a 0.1 grid gives the float32 nearest 0.3.
  return Math.fround(Number((k * step).toFixed(9)));
}

/**
 * Where a handle goes when the pointer asks for the world point `want` (3 numbers): moved
 * only along the constraint `c` ({axis: 0|1|2} or {line: {point, dir}} with dir a unit
 * vector, or null: free in the view's plane), then snapped with step `step`. The hidden
 * axis w keeps `from`'s value. Float32 numbers.
 */
export function constrain(want, from, c, step, view) {
  const { w } = VIEWS[view];
  if (c && c.axis !== undefined) {
    const out = from.slice();
    out[c.axis] = snapValue(want[c.axis], step);
    return out;
  }
  if (c && c.line) {
    const { point, dir } = c.line;
    let s = 0;
    for (let i = 0; i < 3; i++) s += (want[i] - point[i]) * dir[i];
    s = step ? Math.round(s / step) * step : s;
    return point.map((p, i) => Math.fround(Number((p + s * dir[i]).toFixed(9))));
  }
  return want.map((x, i) => (i === w ? from[i] : snapValue(x, step)));
}

/** The unit vector of d (3 numbers), or null for a zero or non-finite vector. */
export function unit(d) {
  const n = Math.hypot(d[0], d[1], d[2]);
  return n > 0 && Number.isFinite(n) ? d.map((x) => x / n) : null;
}

/**
 * The plane rectangle after a wheel step of deltaY (pixels; positive: out) about the plane
 * point c: the visible rectangle of tf scaled by exp(deltaY / 500), at most e-fold per step,
 * c staying where it is.
 */
export function zoomBounds(tf, c, deltaY) {
  const k = Math.exp(Math.max(-1, Math.min(1, deltaY * 0.002)));
  const b = tf.visible;
  return {
    min: [c[0] + (b.min[0] - c[0]) * k, c[1] + (b.min[1] - c[1]) * k],
    max: [c[0] + (b.max[0] - c[0]) * k, c[1] + (b.max[1] - c[1]) * k],
  };
}
