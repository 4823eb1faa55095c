// The 2D slab view: the scene seen straight along one axis (store.ui.view 'top' looks
// down -y, 'front' down -z, 'side' down -x), drawn as SVG over the 3D canvas. For the
// selected ray and box it shows each slab of the box as a band (for the top view, the x
// slab as a vertical band and the z slab as a horizontal one) and, along the ray, the
// stretch of t inside each slab as a coloured segment, plus their overlap [t_enter,
// t_exit]. Every one of those numbers comes from slab.mjs (explainSlabs), the same
// explanation the tutorial text uses. Ray origins and tips, box faces and whole shapes
// can be dragged in the view plane (snapped when snapping is on); empty space pans and the
// wheel zooms.
//
// The SVG is in CSS pixels (viewBox = its size). Screen x = sign_u * p[u], screen y =
// sign_v * p[v] (scaled and shifted); the depth axis is not shown.

import { explainSlabs } from './slab.mjs';
import { rayWithOrigin, rayWithTip, translatedShape } from './edits.js';
import { AX, AXIS_COLORS, RAY_DRAW_LENGTH, rayColor, rayName, shapeName } from './look.js';
import { cloneState } from './scene.mjs';
import { chevron, fadeStroke } from './fade.js';

const NS = 'http://www.w3.org/2000/svg';

/** For each 2D view: the world axis and sign of screen x (u) and screen y (v, down), the
 * depth axis, and the words for it. */
export const PLANES = Object.freeze({
  top: { u: [0, 1], v: [2, 1], depth: 1, words: 'Top view, looking down −y: x to the right, z downward', short: 'Top view (down −y): x →, z ↓' },
  front: { u: [0, 1], v: [1, -1], depth: 2, words: 'Front view, looking down −z: x to the right, y upward', short: 'Front view (down −z): x →, y ↑' },
  side: { u: [2, -1], v: [1, -1], depth: 0, words: 'Side view, looking down −x: z to the left, y upward', short: 'Side view (down −x): z ←, y ↑' },
});

/** The shape colours of the 2D view (fills are light; edges carry the contrast). */
const FILL = { aabb: '#dbe6f7', obb: '#e6dff7', sphere: '#d7f0eb', plane: '#efe4cc', capsule: '#f7dde7' };
const EDGE = { aabb: '#4f74b3', obb: '#7358b8', sphere: '#3f9c8b', plane: '#b8955a', capsule: '#b04a72' };

function svgEl(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The convex hull of 2D points [[x, y], ...] (monotone chain). */
function hull(points) {
  const p = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  const upper = [];
  for (const q of p.reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** The 8 corners of an OBB. */
function obbCorners(s) {
  const out = [];
  for (const a of [-1, 1]) for (const b of [-1, 1]) for (const c of [-1, 1]) {
    out.push([0, 1, 2].map((k) => s.center[k] + a * s.half[0] * s.axes[0][k] + b * s.half[1] * s.axes[1][k] + c * s.half[2] * s.axes[2][k]));
  }
  return out;
}

/** A capsule seen along an axis is the stadium around its projected segment with the same
 * radius: the convex hull of the two end circles (screen points a, b; radius rpx in pixels),
 * each as 32 points. */
export function stadium(a, b, rpx) {
  const pts = [];
  for (const c of [a, b]) {
    for (let k = 0; k < 32; k++) pts.push([c[0] + rpx * Math.cos((k * Math.PI) / 16), c[1] + rpx * Math.sin((k * Math.PI) / 16)]);
  }
  return hull(pts);
}

/** Distance from point p to the segment a-b (2D). */
function segmentDistance(p, a, b) {
  const d = [b[0] - a[0], b[1] - a[1]];
  const len2 = d[0] * d[0] + d[1] * d[1];
  const t = len2 > 0 ? Math.min(Math.max(((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2, 0), 1) : 0;
  return Math.hypot(p[0] - a[0] - t * d[0], p[1] - a[1] - t * d[1]);
}

/** The slabs of a box as world planes: [{axis, dir (unit world vector), base (a world
 * point where the box frame's coordinate is 0)}]; the planes are base + dir * lo / hi. */
function slabFrames(shape) {
  if (shape.type === 'aabb') return [0, 1, 2].map((i) => ({ axis: i, dir: [0, 1, 2].map((k) => (k === i ? 1 : 0)), base: [0, 0, 0] }));
  return [0, 1, 2].map((i) => ({ axis: i, dir: shape.axes[i], base: shape.center }));
}

/** The 2D legend's rows: [line style, words]. */
const LEGEND_ROWS = [
  ...[0, 1, 2].map((k) => [{ stroke: AXIS_COLORS[k], 'stroke-width': 4.5 }, `${AX[k]} slab: t inside it`]),
  [{ stroke: '#1f2933', 'stroke-width': 4.5 }, 'all 3: [t_enter, t_exit]'],
  [{ stroke: '#5c6773', 'stroke-width': 2.5, 'stroke-dasharray': '6 4' }, 'dashed: misses / past hit'],
];

const fmt = (x) => (x === Infinity ? 'Infinity' : x === -Infinity ? '-Infinity' : String(x));

export class View2D {
  /** container: the element the 3D canvas fills (the SVG goes over it); store: the Store;
   * snap: the Snap settings; view: the 3D View (its canvas is hidden while this shows). */
  constructor({ container, store, snap, view }) {
    Object.assign(this, { container, store, snap, view });
    this.svg = svgEl('svg', { class: 'view2d', 'data-testid': 'view2d', role: 'img' });
    this.svg.style.display = 'none';
    const labels = container.querySelector('.labels');
    if (labels) labels.after(this.svg);
    else container.prepend(this.svg);
    /** {scale (px per world unit), cu, cv (world u, v at the centre)}; null: fit on next draw. */
    this.frame = null;
    this.shownView = '3d';
    this.drag = null;
    /** The handle the keyboard moves ({kind: 'origin'|'tip'|'shape', index}) or null. */
    this.focus = null;
    this.size = [1, 1];
  }

  get active() { return this.store.ui.view !== '3d'; }
  get plane() { return PLANES[this.store.ui.view]; }

  listen() {
    this.svg.addEventListener('pointerdown', (e) => this.#down(e));
    window.addEventListener('pointermove', (e) => this.#move(e));
    window.addEventListener('pointerup', (e) => this.#up(e));
    window.addEventListener('pointercancel', (e) => this.#up(e));
    this.svg.addEventListener('wheel', (e) => this.#wheel(e), { passive: false });
    new ResizeObserver(() => { if (this.active) { this.frame = null; this.draw(); } }).observe(this.container);
  }

  /** After a store change. */
  onChange(change) {
    const view = this.store.ui.view;
    if (view !== this.shownView) {
      this.shownView = view;
      this.frame = null;
      const on = view !== '3d';
      this.svg.style.display = on ? '' : 'none';
      this.view.canvas.style.visibility = on ? 'hidden' : '';
      this.view.labelRenderer.domElement.style.visibility = on ? 'hidden' : '';
      this.svg.setAttribute('aria-label', on ? `${PLANES[view].words}; the slabs of the selected box and the selected ray's intervals` : '');
    }
    if (!this.active) return;
    if (change && change.fit && !this.drag) this.frame = null;
    this.draw();
  }

  // ---------------------------------------------------------------- coordinates

  /** Screen (SVG) point of the world point p. */
  toScreen(p) {
    const { u, v } = this.plane;
    const { scale, cu, cv } = this.frame;
    const [w, h] = this.size;
    return [w / 2 + scale * (u[1] * p[u[0]] - cu), h / 2 + scale * (v[1] * p[v[0]] - cv)];
  }

  /** World point with the in-plane coordinates of screen point (x, y) and the depth of `base`. */
  toWorld(x, y, base) {
    const { u, v } = this.plane;
    const { scale, cu, cv } = this.frame;
    const [w, h] = this.size;
    const p = base.slice();
    p[u[0]] = u[1] * ((x - w / 2) / scale + cu);
    p[v[0]] = v[1] * ((y - h / 2) / scale + cv);
    return p;
  }

  /** Client (CSS pixel) point of world point p. */
  toClient(p) {
    const r = this.svg.getBoundingClientRect();
    const [x, y] = this.toScreen(p);
    return { x: r.left + x, y: r.top + y };
  }

  #fit() {
    const { state } = this.store;
    const { u, v } = this.plane;
    const pts = [];
    for (const s of state.shapes) {
      if (s.type === 'aabb') pts.push(s.min, s.max);
      else if (s.type === 'obb') pts.push(...obbCorners(s));
      else if (s.type === 'sphere') pts.push(s.center.map((c) => c - s.radius), s.center.map((c) => c + s.radius));
      else if (s.type === 'capsule') for (const p of [s.a, s.b]) pts.push(p.map((c) => c - s.radius), p.map((c) => c + s.radius));
    }
    for (const r of state.rays) pts.push(r.origin, r.origin.map((o, k) => o + r.dir[k]));
    if (pts.length === 0) pts.push([-3, -3, -3], [3, 3, 3]);
    const us = pts.map((p) => u[1] * p[u[0]]);
    const vs = pts.map((p) => v[1] * p[v[0]]);
    const [uLo, uHi, vLo, vHi] = [Math.min(...us), Math.max(...us), Math.min(...vs), Math.max(...vs)];
    const [w, h] = this.size;
    const du = Math.max(uHi - uLo, 2);
    const dv = Math.max(vHi - vLo, 2);
    // The axes line and the legend take a band at the top, and the step card (wide layout:
    // it lies over the view's foot) one at the bottom: the scene fits between them.
    const top = Math.min(this.#legendBox().bottom, h / 2);
    const bottom = Math.min(this.#footBand(), (h - top) / 2);
    const avail = h - top - bottom;
    const scale = Math.min(Math.max(Math.min(w / du, avail / dv) * 0.78, 1e-3), 1e5);
    this.frame = { scale, cu: (uLo + uHi) / 2, cv: (vLo + vHi) / 2 - (top + avail / 2 - h / 2) / scale };
  }

  // ---------------------------------------------------------------- drawing

  draw() {
    const r = this.svg.getBoundingClientRect();
    this.size = [Math.max(r.width, 1), Math.max(r.height, 1)];
    const [w, h] = this.size;
    this.svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    if (!this.frame) this.#fit();
    this.svg.dataset.scale = String(this.frame.scale);
    this.svg.dataset.view = this.store.ui.view;
    const layers = ['grid', 'bands', 'shapes', 'rays', 'intervals', 'handles', 'text'].map((name) => svgEl('g', { class: `l-${name}` }));
    const [grid, bands, shapes, rays, intervals, handles, text] = layers;
    this.labels = [];
    this.#drawGrid(grid);
    const { state } = this.store;
    state.shapes.forEach((s, j) => this.#drawShape(shapes, s, j, j === state.selected.shape));
    const chosen = state.shapes[state.selected.shape];
    if (chosen && chosen.type === 'capsule') this.#drawCapsuleHandles(handles, chosen, state.selected.shape);
    // The selected ray last, so its handles are on top where rays overlap on screen.
    const order = state.rays.map((_, i) => i).sort((a, b) => (a === state.selected.ray) - (b === state.selected.ray));
    for (const i of order) this.#drawRay(rays, handles, state.rays[i], i, i === state.selected.ray);
    const i = state.selected.ray;
    const j = state.selected.shape;
    const ray = state.rays[i];
    const box = state.shapes[j];
    if (ray && box && (box.type === 'aabb' || box.type === 'obb')) {
      const ex = explainSlabs(ray, box);
      this.#drawBands(bands, handles, ex, box, j);
      this.#drawIntervals(intervals, ex, ray, i);
    }
    this.#drawText(text);
    this.svg.replaceChildren(...layers);
  }

  #drawGrid(g) {
    const [w, h] = this.size;
    const { scale } = this.frame;
    let step = this.snap.enabled ? this.snap.size : 0.5;
    while (step * scale < 14) step *= 2;
    const a = this.toWorld(0, 0, [0, 0, 0]);
    const b = this.toWorld(w, h, [0, 0, 0]);
    const { u, v } = this.plane;
    const lines = (axis, lo, hi, vertical) => {
      const from = Math.ceil(Math.min(lo, hi) / step);
      const to = Math.floor(Math.max(lo, hi) / step);
      for (let k = from; k <= to && to - from < 400; k++) {
        const p = [0, 0, 0];
        p[axis] = k * step;
        const [x, y] = this.toScreen(p);
        const major = k === 0;
        g.append(svgEl('line', vertical ? { x1: x, x2: x, y1: 0, y2: h } : { x1: 0, x2: w, y1: y, y2: y },
          { class: major ? 'grid-axis' : 'grid-line' }));
      }
    };
    lines(u[0], a[u[0]], b[u[0]], true);
    lines(v[0], a[v[0]], b[v[0]], false);
  }

  #drawShape(g, s, j, selected) {
    const attrs = { fill: FILL[s.type], stroke: EDGE[s.type], 'stroke-width': selected ? 2.5 : 1.5, 'data-handle': `shape${j}`, 'data-shape': j, class: `shape2d${selected ? ' selected' : ''}` };
    if (s.type === 'aabb') {
      const [x0, y0] = this.toScreen(s.min);
      const [x1, y1] = this.toScreen(s.max);
      g.append(svgEl('rect', { ...attrs, x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) }));
    } else if (s.type === 'obb') {
      const pts = hull(obbCorners(s).map((p) => this.toScreen(p)));
      g.append(svgEl('polygon', { ...attrs, points: pts.map((p) => p.join(',')).join(' ') }));
    } else if (s.type === 'sphere') {
      const [x, y] = this.toScreen(s.center);
      g.append(svgEl('circle', { ...attrs, cx: x, cy: y, r: s.radius * this.frame.scale }));
    } else if (s.type === 'capsule') {
      const a = this.toScreen(s.a);
      const b = this.toScreen(s.b);
      const pts = stadium(a, b, s.radius * this.frame.scale);
      g.append(svgEl('polygon', { ...attrs, points: pts.map((p) => p.join(',')).join(' ') }));
      g.lastChild.append(svgEl('title', {}, shapeName(j, s)));
      g.append(svgEl('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: EDGE.capsule, 'stroke-width': 1.2, 'stroke-dasharray': '4 3', 'pointer-events': 'none' }));
      return;
    } else {
      const { u, v, depth } = this.plane;
      const n = s.normal;
      const len = Math.hypot(...n);
      if (Math.abs(n[depth]) > 1e-6 * len) return; // seen face-on: it would cover everything
      const p0 = n.map((c) => (c * s.d) / (len * len));
      const t = [0, 0, 0];
      t[u[0]] = -n[v[0]];
      t[v[0]] = n[u[0]];
      const far = 1e4 / Math.max(this.frame.scale, 1e-3);
      const a = this.toScreen(p0.map((c, k) => c + t[k] * far));
      const b = this.toScreen(p0.map((c, k) => c - t[k] * far));
      g.append(svgEl('line', { ...attrs, x1: a[0], y1: a[1], x2: b[0], y2: b[1], 'stroke-width': selected ? 4 : 3 }));
    }
    g.lastChild.append(svgEl('title', {}, shapeName(j, s)));
  }

  /** The selected capsule's handles: its end points a and b, and its radius (a point at the
   * radius beside a, square to the segment on screen). */
  #drawCapsuleHandles(g, s, j) {
    const a = this.toScreen(s.a);
    const b = this.toScreen(s.b);
    const d = [b[0] - a[0], b[1] - a[1]];
    const n = Math.hypot(...d);
    const side = n > 1e-9 ? [-d[1] / n, d[0] / n] : [1, 0];
    const R = s.radius * this.frame.scale;
    const r = [a[0] + side[0] * R, a[1] + side[1] * R];
    const focus = (end) => this.focus && this.focus.kind === 'shape' && this.focus.index === j && this.focus.end === end;
    for (const [end, p] of [['a', a], ['b', b]]) {
      g.append(svgEl('circle', { cx: p[0], cy: p[1], r: 7, fill: '#fff', stroke: focus(end) ? '#1f2933' : EDGE.capsule, 'stroke-width': 3, 'data-handle': `shape${j}-${end}`, class: 'handle2d' }));
      g.lastChild.append(svgEl('title', {}, `${shapeName(j, s)}: end point ${end}`));
    }
    g.append(svgEl('line', { x1: a[0], y1: a[1], x2: r[0], y2: r[1], stroke: EDGE.capsule, 'stroke-width': 1, 'pointer-events': 'none' }));
    g.append(svgEl('rect', { x: r[0] - 5, y: r[1] - 5, width: 10, height: 10, fill: EDGE.capsule, stroke: '#fff', 'stroke-width': 1.5, 'data-handle': `shape${j}-r`, class: 'handle2d' }));
    g.lastChild.append(svgEl('title', {}, `${shapeName(j, s)}: radius ${s.radius}`));
  }

  /** The t range of `ray` on screen (clipped to the SVG, with a margin). */
  #screenRange(ray, m = 40) {
    const [w, h] = this.size;
    const o = this.toScreen(ray.origin);
    const t1 = this.toScreen(ray.origin.map((c, k) => c + ray.dir[k]));
    const d = [t1[0] - o[0], t1[1] - o[1]];
    let lo = -Infinity;
    let hi = Infinity;
    for (const [oc, dc, max] of [[o[0], d[0], w], [o[1], d[1], h]]) {
      if (Math.abs(dc) < 1e-9) continue;
      const a = (-m - oc) / dc;
      const b = (max + m - oc) / dc;
      lo = Math.max(lo, Math.min(a, b));
      hi = Math.min(hi, Math.max(a, b));
    }
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || lo > hi) {
      const dirLen = Math.hypot(...ray.dir);
      return [-RAY_DRAW_LENGTH / dirLen, RAY_DRAW_LENGTH / dirLen];
    }
    return [lo, hi];
  }

  #point(ray, t) {
    return this.toScreen(ray.origin.map((c, k) => c + t * ray.dir[k]));
  }

  #drawRay(g, handles, ray, i, selected) {
    const color = rayColor(i);
    const [lo, hi] = this.#screenRange(ray);
    const end = Math.min(ray.tmax, Math.max(hi, 1));
    const hit = this.store.nearest[i]?.result;
    const a = this.#point(ray, 0);
    const tHit = hit && hit.hit ? hit.t : null;
    const b = this.#point(ray, tHit ?? end);
    // A miss is dashed and dim, as in the 3D view (rays3d.js) and slabcast/figure.
    const miss = tHit === null ? { 'stroke-dasharray': '6 4', opacity: 0.6, 'data-miss': '' } : {};
    g.append(svgEl('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: color, 'stroke-width': selected ? 3.5 : 2.5, class: 'ray2d', 'data-ray': i, ...miss }));
    if (tHit !== null && end > tHit) {
      const c = this.#point(ray, end);
      g.append(svgEl('line', { x1: b[0], y1: b[1], x2: c[0], y2: c[1], stroke: color, 'stroke-width': 2, 'stroke-dasharray': '6 4', opacity: 0.6 }));
    }
    if (selected && lo < 0) {
      const c = this.#point(ray, lo);
      g.append(svgEl('line', { x1: c[0], y1: c[1], x2: a[0], y2: a[1], stroke: color, 'stroke-width': 1.2, 'stroke-dasharray': '2 4', opacity: 0.6 }));
    }
    if (Number.isFinite(ray.tmax)) {
      const c = this.#point(ray, ray.tmax);
      g.append(svgEl('circle', { cx: c[0], cy: c[1], r: 3.5, fill: '#44505c' }));
    }
    if (tHit !== null) g.append(svgEl('circle', { cx: b[0], cy: b[1], r: 4.5, fill: '#fff', stroke: '#1f2933', 'stroke-width': 2 }));
    const tip = this.#point(ray, 1);
    const focus = (kind) => this.focus && this.focus.kind === kind && this.focus.index === i;
    handles.append(svgEl('circle', { cx: a[0], cy: a[1], r: 8, fill: color, stroke: focus('origin') ? '#1f2933' : '#fff', 'stroke-width': focus('origin') ? 3 : 1.5, 'data-handle': `ray${i}-origin`, class: 'handle2d' }));
    handles.append(svgEl('circle', { cx: tip[0], cy: tip[1], r: 6.5, fill: '#fff', stroke: focus('tip') ? '#1f2933' : color, 'stroke-width': 3, 'data-handle': `ray${i}-tip`, class: 'handle2d' }));
    this.#label(handles, a, rayName(i));
  }

  /** A ray's name beside its origin a, at the first of four places that overlaps no label
   * drawn before it in this frame (none free: not drawn). */
  #label(g, a, text) {
    const w = 7 * text.length + 6;
    for (const [dx, dy] of [[10, -10], [10, 20], [-10 - w, -10], [-10 - w, 20]]) {
      const r = { x: a[0] + dx, y: a[1] + dy - 12, w, h: 15 };
      if (this.labels.some((k) => r.x < k.x + k.w && k.x < r.x + r.w && r.y < k.y + k.h && k.y < r.y + r.h)) continue;
      this.labels.push(r);
      g.append(svgEl('text', { x: r.x, y: a[1] + dy, class: 'ray-label2d', fill: '#1f2933' }, text));
      return;
    }
  }

  /** The slabs of the selected box whose planes are seen edge-on, as bands; AABB faces draggable. */
  #drawBands(g, handles, ex, box, j) {
    const { u, v, depth } = this.plane;
    const [w, h] = this.size;
    const L = 2 * Math.hypot(w, h);
    const step = this.store.ui.step;
    slabFrames(box).forEach((f, idx) => {
      const a = ex.axes[idx];
      if (Math.abs(f.dir[depth]) > 1e-6) return; // the slab's planes are not seen edge-on
      const dir2 = [u[1] * f.dir[u[0]], v[1] * f.dir[v[0]]];
      const n = Math.hypot(...dir2) || 1;
      const along = [-dir2[1] / n, dir2[0] / n];
      const face = (c) => this.toScreen(f.base.map((b, k) => b + f.dir[k] * c));
      const p = face(a.lo);
      const q = face(a.hi);
      const current = step >= 2 && step <= 4 ? step - 2 === idx : true;
      const quad = [
        [p[0] + along[0] * L, p[1] + along[1] * L], [p[0] - along[0] * L, p[1] - along[1] * L],
        [q[0] - along[0] * L, q[1] - along[1] * L], [q[0] + along[0] * L, q[1] + along[1] * L],
      ];
      const name = ex.frame === 'box' ? `local ${AX[idx]}` : AX[idx];
      g.append(svgEl('polygon', {
        points: quad.map((pt) => pt.join(',')).join(' '), fill: AXIS_COLORS[idx], opacity: current ? 0.16 : 0.06,
        'data-testid': `band-${AX[idx]}`, 'data-lo': fmt(a.lo), 'data-hi': fmt(a.hi), class: 'band',
      }, undefined));
      g.lastChild.append(svgEl('title', {}, `the ${name} slab: ${a.lo} to ${a.hi}`));
      for (const [side, pt] of [['min', p], ['max', q]]) {
        const attrs = { x1: pt[0] + along[0] * L, y1: pt[1] + along[1] * L, x2: pt[0] - along[0] * L, y2: pt[1] - along[1] * L };
        g.append(svgEl('line', { ...attrs, stroke: AXIS_COLORS[idx], 'stroke-width': current ? 1.6 : 1, 'stroke-dasharray': '5 4', opacity: current ? 0.9 : 0.45, 'data-testid': `face-${AX[idx]}-${side}`, 'data-px': `${pt[0]},${pt[1]}` }));
        if (box.type === 'aabb') {
          handles.append(svgEl('line', { ...attrs, stroke: 'transparent', 'stroke-width': 12, 'data-handle': `shape${j}-${AX[idx]}-${side}`, class: `face2d face-${idx}` }));
        }
      }
    });
  }

  /** Along the selected ray: each slab's [near, far] as a coloured segment (side by side),
   * and their overlap [t_enter, t_exit]. */
  #drawIntervals(g, ex, ray, i) {
    const [lo, hi] = this.#screenRange(ray);
    const clip = (t) => Math.min(Math.max(t, lo), hi);
    // An end that runs on out of view stops 28 px inside it, fades and ends in a chevron.
    const [loIn, hiIn] = this.#screenRange(ray, -28);
    const a = this.#point(ray, 0);
    const b = this.#point(ray, 1);
    const d = [b[0] - a[0], b[1] - a[1]];
    const n = Math.hypot(...d);
    if (n < 1e-6) {
      g.append(svgEl('text', { x: a[0] + 12, y: a[1] + 22, class: 'note2d', fill: '#1f2933' }, `${rayName(i)} points straight into this view: try another view`));
      return;
    }
    const side = [-d[1] / n, d[0] / n];
    const step = this.store.ui.step;
    const show = (idx) => step === 0 || step > 4 || step >= idx + 2;
    ex.axes.forEach((ax, idx) => {
      if (ax.near === null || !show(idx)) return;
      const off = (idx + 1) * 7;
      const cutStart = ax.near < loIn;
      const cutEnd = ax.far > hiIn;
      const p = this.#point(ray, cutStart ? loIn : clip(ax.near));
      const q = this.#point(ray, cutEnd ? hiIn : clip(ax.far));
      const shift = `translate(${side[0] * off} ${side[1] * off})`;
      const color = AXIS_COLORS[idx];
      const cut = [cutStart && 'start', cutEnd && 'end'].filter(Boolean).join(' ');
      g.append(svgEl('line', {
        x1: p[0], y1: p[1], x2: q[0], y2: q[1], transform: shift,
        stroke: cut ? fadeStroke(g, p, q, color, cutStart, cutEnd) : color, 'stroke-width': step === idx + 2 ? 6 : 4.5, 'stroke-linecap': cut ? 'butt' : 'round',
        'data-testid': `seg-${AX[idx]}`, 'data-t0': fmt(ax.near), 'data-t1': fmt(ax.far), class: 'seg2d', ...(cut && { 'data-cut': cut }),
      }));
      const s = [d[0] / n, d[1] / n];
      if (cutEnd) g.append(chevron([q[0] + s[0] * 3, q[1] + s[1] * 3], s, 1, color, { transform: shift, 'data-for': `seg-${AX[idx]}`, 'data-end': 'end' }));
      if (cutStart) g.append(chevron([p[0] - s[0] * 3, p[1] - s[1] * 3], s, -1, color, { transform: shift, 'data-for': `seg-${AX[idx]}`, 'data-end': 'start' }));
      if (!ax.parallel) {
        for (const t of [ax.t1, ax.t2]) {
          if (t < lo || t > hi) continue;
          const c = this.#point(ray, t);
          g.append(svgEl('circle', { cx: c[0], cy: c[1], r: 3, fill: AXIS_COLORS[idx], stroke: '#fff', 'stroke-width': 1 }));
        }
      }
    });
    if ((step === 0 || step >= 5) && ex.overlap) {
      const p = this.#point(ray, clip(ex.tEnter));
      const q = this.#point(ray, clip(ex.tExit));
      const off = 4 * 7;
      g.append(svgEl('line', {
        x1: p[0], y1: p[1], x2: q[0], y2: q[1], transform: `translate(${side[0] * off} ${side[1] * off})`,
        stroke: '#1f2933', 'stroke-width': 4.5, 'stroke-linecap': 'round',
        'data-testid': 'seg-overlap', 'data-t0': fmt(ex.tEnter), 'data-t1': fmt(ex.tExit), class: 'seg2d',
      }));
    }
  }

  /** How many pixels of the view's bottom the foot (the step card, the help line) covers: 0
   * when it sits below the drawing (the narrow layout). */
  #footBand() {
    const foot = this.store.dom.host().querySelector('.view-foot');
    if (!foot || !foot.offsetParent) return 0;
    const r = this.svg.getBoundingClientRect();
    const f = foot.getBoundingClientRect();
    return f.top < r.bottom && f.bottom > r.top ? Math.max(0, r.bottom - f.top) : 0;
  }

  /** The baseline of the axes line: below the mode hint when that covers the view's top. */
  #textY() {
    const svgTop = this.svg.getBoundingClientRect().top;
    let y = 18;
    const e = this.store.dom.$('mode-hint');
    if (e && e.offsetParent) {
      const r = e.getBoundingClientRect();
      if (r.bottom > svgTop) y = Math.max(y, r.bottom - svgTop + 16);
    }
    return y;
  }

  /** Where the legend goes: top right, level with the axes line, when both fit side by side;
   * else under the axes line. {x, y, width, height, bottom}. */
  #legendBox() {
    const y = this.#textY();
    const [w] = this.size;
    const width = 196;
    const height = LEGEND_ROWS.length * 15 + 8;
    const beside = w >= 12 + 6.6 * this.#axesWords().length + 16 + width + 8;
    const box = beside ? { x: w - width - 8, y: y - 13 } : { x: 8, y: y + 8 };
    return { ...box, width, height, bottom: box.y + height + 6 };
  }

  /** The axes line: the long words when they fit the view's width, else the short ones. */
  #axesWords() {
    const { words, short } = this.plane;
    return this.size[0] >= 24 + 6.6 * words.length ? words : short;
  }

  #drawText(g) {
    g.append(svgEl('text', { x: 12, y: this.#textY(), class: 'axes2d', fill: '#1f2933', 'data-testid': 'view2d-axes' }, this.#axesWords()));
    this.#drawLegend(g);
  }

  /** What the colours mean (the 3D legend is hidden in 2D): the x, y and z intervals, their
   * overlap, a missing ray. Top left, under the axes line. */
  #drawLegend(g) {
    const b = this.#legendBox();
    const legend = svgEl('g', { class: 'legend2d', 'data-testid': 'legend2d' });
    legend.append(svgEl('rect', { x: b.x, y: b.y, width: b.width, height: b.height, rx: 6, fill: '#fff', 'fill-opacity': 0.9, stroke: '#dde3ea' }));
    LEGEND_ROWS.forEach(([style, words], r) => {
      const y = b.y + 11 + r * 15;
      legend.append(svgEl('line', { x1: b.x + 8, x2: b.x + 30, y1: y, y2: y, 'stroke-linecap': 'round', ...style }));
      legend.append(svgEl('text', { x: b.x + 38, y: y + 4, class: 'legend2d-text', fill: '#1f2933' }, words));
    });
    g.append(legend);
  }

  // ---------------------------------------------------------------- dragging

  #down(e) {
    if (e.button !== 0 || !this.store.core) return;
    const target = e.target.closest?.('[data-handle]');
    const { state } = this.store;
    const locked = this.store.ui.handles === 'locked';
    const r = this.svg.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    e.preventDefault();
    try { this.svg.setPointerCapture(e.pointerId); } catch { /* not essential */ }
    if (!target) {
      this.drag = { kind: 'pan', x, y, frame: { ...this.frame } };
      return;
    }
    const id = target.dataset.handle;
    let m = /^ray(\d+)-(origin|tip)$/.exec(id);
    if (m) {
      const i = Number(m[1]);
      this.focus = { kind: m[2], index: i };
      this.store.selectRay(i, { pending: true });
      // Keep the grab offset: the handle moves by the pointer's motion from here, its centre
      // never jumps to the pointer.
      const ray = state.rays[i];
      const base = m[2] === 'origin' ? ray.origin.slice() : ray.origin.map((c, k) => c + ray.dir[k]);
      if (!locked) this.drag = { kind: m[2], index: i, base, grab: this.toWorld(x, y, base) };
      this.draw();
      return;
    }
    m = /^shape(\d+)-([abr])$/.exec(id);
    if (m) {
      const j = Number(m[1]);
      this.focus = { kind: 'shape', index: j, end: m[2] };
      if (!locked && state.shapes[j]?.type === 'capsule') {
        const shape0 = cloneState(state.shapes[j]);
        const base = m[2] === 'b' ? shape0.b : shape0.a;
        this.drag = { kind: m[2] === 'r' ? 'cap-radius' : 'cap-end', end: m[2], index: j, shape0, base, grab: this.toWorld(x, y, base) };
      }
      this.draw();
      return;
    }
    m = /^shape(\d+)(?:-([xyz])-(min|max))?$/.exec(id);
    if (!m) return;
    const j = Number(m[1]);
    this.focus = { kind: 'shape', index: j };
    if (state.selected.shape !== j) this.store.selectShape(j, { pending: true });
    if (locked) { this.draw(); return; }
    const shape0 = cloneState(state.shapes[j]);
    if (m[2]) this.drag = { kind: 'face', index: j, axis: AX.indexOf(m[2]), side: m[3], shape0, start: this.toWorld(x, y, [0, 0, 0]) };
    else this.drag = { kind: 'shape', index: j, shape0, start: this.toWorld(x, y, [0, 0, 0]) };
    this.draw();
  }

  #move(e) {
    const d = this.drag;
    if (!d) return;
    const r = this.svg.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    if (d.kind === 'pan') {
      const { scale } = d.frame;
      this.frame = { scale, cu: d.frame.cu - (x - d.x) / scale, cv: d.frame.cv - (y - d.y) / scale };
      this.draw();
      return;
    }
    d.moved = true;
    const { state } = this.store;
    const { u, v } = this.plane;
    const snapIn = (p) => { p[u[0]] = this.snap.value(p[u[0]]); p[v[0]] = this.snap.value(p[v[0]]); return p; };
    if (d.kind === 'origin' || d.kind === 'tip') {
      const ray = state.rays[d.index];
      if (!ray) return;
      const now = this.toWorld(x, y, d.base);
      const p = snapIn(d.base.map((c, k) => c + now[k] - d.grab[k]));
      const P = { x: p[0], y: p[1], z: p[2] };
      const next = d.kind === 'origin' ? rayWithOrigin(ray, P) : rayWithTip(ray, P);
      if (next) this.store.updateRay(d.index, next, { live: true });
    } else if (d.kind === 'cap-end') {
      const now = this.toWorld(x, y, d.base);
      const p = snapIn(d.base.map((c, k) => c + now[k] - d.grab[k]));
      this.store.updateShape(d.index, { ...cloneState(d.shape0), [d.end]: p.map(Math.fround) }, { live: true });
    } else if (d.kind === 'cap-radius') {
      // The radius is the pointer's distance from the segment as seen in this view (a capsule
      // seen along an axis is the stadium of that radius around its projected segment).
      const px = segmentDistance([x, y], this.toScreen(d.shape0.a), this.toScreen(d.shape0.b)) / this.frame.scale;
      const radius = Math.fround(Math.max(0, this.snap.value(px)));
      this.store.updateShape(d.index, { ...cloneState(d.shape0), radius }, { live: true });
    } else if (d.kind === 'face') {
      const s = cloneState(d.shape0);
      const face0 = (d.side === 'min' ? d.shape0.min : d.shape0.max)[d.axis];
      const val = Math.fround(this.snap.value(face0 + this.toWorld(x, y, [0, 0, 0])[d.axis] - d.start[d.axis]));
      if (d.side === 'min') s.min[d.axis] = Math.min(val, s.max[d.axis]);
      else s.max[d.axis] = Math.max(val, s.min[d.axis]);
      this.store.updateShape(d.index, s, { live: true });
    } else if (d.kind === 'shape') {
      const p = this.toWorld(x, y, [0, 0, 0]);
      const delta = [0, 1, 2].map((k) => p[k] - d.start[k]);
      delta[u[0]] = this.snap.value(delta[u[0]]);
      delta[v[0]] = this.snap.value(delta[v[0]]);
      this.store.updateShape(d.index, translatedShape(d.shape0, { x: delta[0], y: delta[1], z: delta[2] }), { live: true });
    }
  }

  #up(e) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    try { this.svg.releasePointerCapture(e.pointerId); } catch { /* fine */ }
    if (d.kind !== 'pan') this.store.endEdit();
  }

  #wheel(e) {
    if (!this.frame) return;
    e.preventDefault();
    const r = this.svg.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    const before = this.toWorld(x, y, [0, 0, 0]);
    const k = Math.exp(-Math.max(-300, Math.min(300, e.deltaY)) * 0.0015);
    this.frame.scale = Math.min(Math.max(this.frame.scale * k, 1e-3), 1e5);
    const after = this.toWorld(x, y, [0, 0, 0]);
    const { u, v } = this.plane;
    this.frame.cu += u[1] * (before[u[0]] - after[u[0]]);
    this.frame.cv += v[1] * (before[v[0]] - after[v[0]]);
    this.draw();
  }
}
