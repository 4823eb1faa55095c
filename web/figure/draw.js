// The figure's drawing: one SVG of the view's plane with the box and its walls (the slab
// lines of the two axes the view shows), the ray (solid when it hits, dashed when it
// misses; its line behind the origin dotted), each axis's interval of t drawn as a band
// along the ray, their overlap on the ray, and the entry and exit points. Intervals that
// run out of the view end in an arrow and fade, so they never look like rays.
//
// The layers are rebuilt on every update, except the handles (handles.js), which stay so
// that keyboard focus stays on them.
import { AXES } from './model.mjs';
import { VIEWS, clipLine } from './geometry.mjs';

export const SVG_NS = 'http://www.w3.org/2000/svg';
export const COLORS = Object.freeze({ x: '#e03131', y: '#2f9e44', z: '#1971c2', overlap: '#1f2933', ray: '#7048e8', box: '#495057', grid: '#e9ecef', text: '#343a40' });
const MINUS = '\u2212';

/** A new SVG element with attributes (and text). */
export function svgEl(name, attrs = {}, text = undefined) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A short number for a label in the drawing (at most 3 decimals, one minus sign). */
export function short(x) {
  if (x === Infinity) return '\u221e';
  if (x === -Infinity) return `${MINUS}\u221e`;
  const r = Math.round(x * 1000) / 1000;
  return String(Object.is(r, -0) ? 0 : r).replace('-', MINUS);
}

/** A nice grid step (1, 2 or 5 times a power of ten) at least minPx pixels wide. */
function gridStep(scale, minPx, snap) {
  if (snap && snap * scale >= minPx * 0.6) return snap * Math.max(1, Math.ceil(minPx * 0.6 / (snap * scale)));
  const raw = minPx / scale;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
}

function drawGrid(g, tf, view, snap) {
  const { u, v } = VIEWS[view];
  const step = gridStep(tf.scale, 48, snap);
  const { min, max } = tf.visible;
  for (let k = Math.ceil(min[0] / step); k * step <= max[0]; k++) {
    const x = tf.toPx([k * step, 0])[0];
    g.append(svgEl('line', { x1: x, y1: 0, x2: x, y2: tf.height, stroke: COLORS.grid, 'stroke-width': k === 0 ? 2 : 1 }));
    if (x < tf.width - 34) g.append(svgEl('text', { x: x + 2, y: tf.height - 4, class: 'fig-tick' }, short(k * step)));
  }
  for (let k = Math.ceil(min[1] / step); k * step <= max[1]; k++) {
    const y = tf.toPx([0, k * step])[1];
    g.append(svgEl('line', { x1: 0, y1: y, x2: tf.width, y2: y, stroke: COLORS.grid, 'stroke-width': k === 0 ? 2 : 1 }));
    if (y < tf.height - 16 && y > 40) g.append(svgEl('text', { x: 2, y: y - 3, class: 'fig-tick' }, short(k * step)));
  }
  // The axes' names in the tick rows: the first at the bottom right, the second at the top left.
  g.append(svgEl('text', { x: tf.width - 4, y: tf.height - 4, class: 'fig-axisname', 'text-anchor': 'end' }, `${AXES[u]} \u2192`));
  g.append(svgEl('text', { x: 3, y: 28, class: 'fig-axisname' }, `\u2191 ${AXES[v]}`));
}

/** The box (its section by the view's plane) and its four walls, each in its axis's color. */
function drawBox(g, tf, view, box) {
  const { u, v } = VIEWS[view];
  const a = tf.toPx([box.min[u], box.min[v]]);
  const b = tf.toPx([box.max[u], box.max[v]]);
  g.append(svgEl('rect', {
    x: Math.min(a[0], b[0]), y: Math.min(a[1], b[1]), width: Math.abs(b[0] - a[0]), height: Math.abs(b[1] - a[1]),
    fill: '#f1f3f5', stroke: COLORS.box, 'stroke-width': 1.5, class: 'fig-box',
  }));
  const uName = AXES[u];
  const vName = AXES[v];
  const wallsU = [box.min[u], box.max[u]];
  const wallsV = [box.min[v], box.max[v]];
  wallsU.forEach((val, i) => {
    const x = tf.toPx([val, 0])[0];
    g.append(svgEl('line', { x1: x, y1: 0, x2: x, y2: tf.height, stroke: COLORS[uName], 'stroke-width': 1.2, 'stroke-dasharray': '5 4', opacity: 0.75, class: 'fig-wall', 'data-wall': `${uName}${i ? 'max' : 'min'}` }));
    // The two labels of one axis sit at the same edge; the second is skipped when they would touch.
    if (i === 0 || Math.abs(x - tf.toPx([wallsU[0], 0])[0]) > 56) {
      g.append(svgEl('text', { x: x + (i ? 3 : -3), y: 12, class: 'fig-wall-label', fill: COLORS[uName], 'text-anchor': i ? 'start' : 'end' }, `${uName} = ${short(val)}`));
    }
  });
  wallsV.forEach((val, i) => {
    const y = tf.toPx([0, val])[1];
    g.append(svgEl('line', { x1: 0, y1: y, x2: tf.width, y2: y, stroke: COLORS[vName], 'stroke-width': 1.2, 'stroke-dasharray': '5 4', opacity: 0.75, class: 'fig-wall', 'data-wall': `${vName}${i ? 'max' : 'min'}` }));
    if (i === 0 || Math.abs(y - tf.toPx([0, wallsV[0]])[1]) > 16) {
      g.append(svgEl('text', { x: tf.width - 4, y: y + (i ? -4 : 13), class: 'fig-wall-label', fill: COLORS[vName], 'text-anchor': 'end' }, `${vName} = ${short(val)}`));
    }
  });
}

/** An arrow head at px point p pointing along the screen unit vector s. */
function arrowHead(p, s, color, size = 7) {
  const n = [-s[1], s[0]];
  const pts = [p, [p[0] - s[0] * size + n[0] * size * 0.6, p[1] - s[1] * size + n[1] * size * 0.6], [p[0] - s[0] * size - n[0] * size * 0.6, p[1] - s[1] * size - n[1] * size * 0.6]];
  return svgEl('polygon', { points: pts.map((q) => q.join(',')).join(' '), fill: color });
}

/**
 * Draws everything but the handles into `layer` for the figure state `st`
 * ({scene, ray, box, ex, result, view, tf, snap}); returns the px points of interest.
 */
export function drawFigure(layer, defs, st) {
  layer.replaceChildren();
  defs.replaceChildren();
  const { tf, view, ray, box, ex, result } = st;
  const { u, v } = VIEWS[view];
  const grid = svgEl('g', { class: 'fig-grid' });
  drawGrid(grid, tf, view, st.snap);
  const boxG = svgEl('g', { class: 'fig-boxes' });
  drawBox(boxG, tf, view, box);
  layer.append(grid, boxG);

  const o2 = [ray.origin[u], ray.origin[v]];
  const d2 = [ray.dir[u], ray.dir[v]];
  const at = (t) => tf.toPx([o2[0] + t * d2[0], o2[1] + t * d2[1]]);
  const span = clipLine(o2, d2, tf.visible);
  const rayG = svgEl('g', { class: 'fig-ray' });
  layer.append(rayG);
  const pOrigin = tf.toPx(o2);
  if (!span) {
    // The ray runs along the hidden axis: it is a point of this plane.
    rayG.append(svgEl('circle', { cx: pOrigin[0], cy: pOrigin[1], r: 10, fill: 'none', stroke: COLORS.ray, 'stroke-width': 2 }));
    rayG.append(svgEl('text', { x: pOrigin[0] + 14, y: pOrigin[1] + 24, class: 'fig-note' }, 'the ray points straight out of this view'));
    return { origin: pOrigin };
  }
  const a = at(span[0]);
  const b = at(span[1]);
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const s = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
  // The lanes go on the side of the ray that faces the middle of the view (where there is room).
  let n = [s[1], -s[0]];
  const mid = [tf.width / 2 - pOrigin[0], tf.height / 2 - pOrigin[1]];
  if (n[0] * mid[0] + n[1] * mid[1] < 0) n = [-n[0], -n[1]];
  const off = (p, k) => [p[0] + n[0] * k, p[1] + n[1] * k];

  // The line behind the origin, dotted; the ray itself up to tmax: solid on a hit, dashed on a miss.
  const tEnd = Math.min(span[1], ray.tmax);
  if (span[0] < 0) {
    const p = at(Math.min(0, span[1]));
    rayG.append(svgEl('line', { x1: a[0], y1: a[1], x2: p[0], y2: p[1], stroke: COLORS.ray, 'stroke-width': 1.2, 'stroke-dasharray': '1 5', 'stroke-linecap': 'round', class: 'fig-behind' }));
  }
  if (tEnd > Math.max(span[0], 0)) {
    const p = at(Math.max(span[0], 0));
    const q = at(tEnd);
    rayG.append(svgEl('line', {
      x1: p[0], y1: p[1], x2: q[0], y2: q[1], stroke: COLORS.ray, 'stroke-width': 2.5,
      'stroke-dasharray': result.hit ? 'none' : '8 6', class: 'fig-ray-line', 'data-style': result.hit ? 'solid' : 'dashed',
    }));
    if (tEnd === span[1] && span[1] > 0) rayG.append(arrowHead(q, s, COLORS.ray, 10));
  }

  // Each axis's interval [near, far] along the ray, on its own lane beside it.
  const lanes = svgEl('g', { class: 'fig-lanes' });
  layer.append(lanes);
  drawLanes(lanes, defs, ex.axes, { span, at, off, s, n, idPrefix: st.idPrefix });

  const pts = { origin: pOrigin };
  if (ex.overlap) {
    const t0 = Math.max(ex.tEnter, span[0]);
    const t1 = Math.min(ex.tExit, span[1]);
    if (t0 <= t1) {
      const p = at(t0);
      const q = at(t1);
      layer.append(svgEl('line', { x1: p[0], y1: p[1], x2: q[0], y2: q[1], stroke: COLORS.overlap, 'stroke-width': 6, opacity: 0.85, 'stroke-linecap': 'round', class: 'fig-overlap' }));
    }
  }
  if (result.hit) {
    const marks = svgEl('g', { class: 'fig-marks' });
    layer.append(marks);
    const pe = at(result.t_enter);
    const px = at(result.t_exit);
    marks.append(svgEl('circle', { cx: px[0], cy: px[1], r: 5, fill: '#fff', stroke: COLORS.overlap, 'stroke-width': 2, class: 'fig-exit' }));
    marks.append(svgEl('circle', { cx: pe[0], cy: pe[1], r: 5, fill: COLORS.overlap, class: 'fig-enter' }));
    // Labels on the other side of the ray from the lanes; the exit's moves further out when they are close.
    const close = Math.hypot(px[0] - pe[0], px[1] - pe[1]) < 70;
    const le = off(pe, -16);
    const lx = off(px, close ? -32 : -16);
    marks.append(svgEl('text', { x: le[0], y: le[1] + 4, class: 'fig-mark-label', 'text-anchor': 'middle' }, `enter ${short(result.t_enter)}`));
    marks.append(svgEl('text', { x: lx[0], y: lx[1] + 4, class: 'fig-mark-label', 'text-anchor': 'middle' }, `exit ${short(result.t_exit)}`));
    pts.enter = pe;
    pts.exit = px;
  }
  return pts;
}

/** A chevron at p pointing along s (dir = 1) or against it (dir = -1). */
function chevron(p, s, dir) {
  const n = [-s[1], s[0]];
  const tip = [p[0] + s[0] * 6 * dir, p[1] + s[1] * 6 * dir];
  return [[p[0] + n[0] * 4, p[1] + n[1] * 4], tip, [p[0] - n[0] * 4, p[1] - n[1] * 4]].map((q) => q.join(',')).join(' ');
}

/** The intervals of `axes` as bands beside the ray (g.span: the visible t range; g.at(t): px;
 * g.off(p, k): p moved k px to the lanes' side; g.s, g.n: the ray's screen direction and the lanes' side). */
function drawLanes(lanes, defs, axes, g) {
  const { span, at, off, s, n } = g;
  axes.forEach((ax, k) => {
    if (ax.near === null) return;
    const lane = 7 + k * 7;
    const t0 = Math.max(ax.near, span[0]);
    const t1 = Math.min(ax.far, span[1]);
    if (!(t0 <= t1)) return;
    const p = off(at(t0), lane);
    const q = off(at(t1), lane);
    const color = COLORS[ax.name];
    const cutStart = ax.near < span[0];
    const cutEnd = ax.far > span[1];
    let stroke = color;
    if (cutStart || cutEnd) {
      const id = `${g.idPrefix}-fade-${ax.name}`;
      const grad = svgEl('linearGradient', { id, gradientUnits: 'userSpaceOnUse', x1: p[0], y1: p[1], x2: q[0], y2: q[1] });
      const fadeLen = Math.min(0.35, 60 / (Math.hypot(q[0] - p[0], q[1] - p[1]) || 1));
      grad.append(
        svgEl('stop', { offset: 0, 'stop-color': color, 'stop-opacity': cutStart ? 0.15 : 1 }),
        svgEl('stop', { offset: cutStart ? fadeLen : 0, 'stop-color': color, 'stop-opacity': 1 }),
        svgEl('stop', { offset: cutEnd ? 1 - fadeLen : 1, 'stop-color': color, 'stop-opacity': 1 }),
        svgEl('stop', { offset: 1, 'stop-color': color, 'stop-opacity': cutEnd ? 0.15 : 1 }),
      );
      defs.append(grad);
      stroke = `url(#${id})`;
    }
    const seg = svgEl('line', { x1: p[0], y1: p[1], x2: q[0], y2: q[1], stroke, 'stroke-width': 4, 'stroke-linecap': 'butt', class: 'fig-interval', 'data-axis': ax.name });
    lanes.append(seg);
    // Chevrons (not arrow heads: those belong to the ray) where the interval goes on out of view.
    if (cutEnd) lanes.append(svgEl('polyline', { points: chevron(q, s, 1), fill: 'none', stroke: color, 'stroke-width': 1.5, opacity: 0.6 }));
    if (cutStart) lanes.append(svgEl('polyline', { points: chevron(p, s, -1), fill: 'none', stroke: color, 'stroke-width': 1.5, opacity: 0.6 }));
    // The axis's name at the end that is in view: outside the band when the band starts in
    // view, else on it, a little further in for each lane so that names of lanes side by side
    // (two intervals running out of view together) do not sit on each other.
    const lab = cutStart && !cutEnd ? q : p;
    const cut = lab === p ? cutStart : cutEnd;
    const along = (lab === p ? -1 : 1) * (cut ? -(12 + 12 * k) : 9);
    lanes.append(svgEl('text', { x: lab[0] + s[0] * along + n[0] * 3, y: lab[1] + s[1] * along + n[1] * 3 + 4, class: 'fig-lane-label', fill: color, 'text-anchor': 'middle' }, ax.name));
  });
}

/** Labels by importance: a label that would overlap a more important one is hidden. */
const LABEL_ORDER = ['fig-mark-label', 'fig-note', 'fig-wall-label', 'fig-lane-label', 'fig-axisname', 'fig-tick'];

/**
 * Hide the labels of `layer` that overlap a more important label (LABEL_ORDER; the entry and
 * exit labels always stay), so that no two labels are drawn over each other.
 */
export function declutter(layer) {
  const kept = [];
  const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  for (const cls of LABEL_ORDER) {
    for (const t of layer.querySelectorAll(`text.${cls}`)) {
      const b = t.getBBox();
      const box = { x: b.x - 1, y: b.y - 1, width: b.width + 2, height: b.height + 2 };
      if (cls !== 'fig-mark-label' && kept.some((k) => overlaps(k, box))) t.setAttribute('visibility', 'hidden');
      else kept.push(box);
    }
  }
}
