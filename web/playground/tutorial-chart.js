// The slab tutorial's chart: a small SVG of the three slab intervals, their overlap and
// the ray's own range [0, tmax] on a t axis, as far as the tutorial's step has got (an
// axis from its step on, the overlap from step 5; before step 1 the whole answer: every
// interval and their overlap, with t_enter and t_exit marked on the t axis).

import { fmt } from './dom.js';
import { AX, AXIS_COLORS } from './look.js';
import { chevron, fadeStroke } from './fade.js';

const NS = 'http://www.w3.org/2000/svg';
const W = 360;
const ROW_H = 17;
const LEFT = 44;
const RIGHT = 10;
const TOP = 6;
const ROWS = 4;

/** An <svg> and add(tag, attrs, text) that appends an element to it. */
function svgCanvas() {
  const H = TOP + ROWS * ROW_H + 22;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'slab-chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'the slab intervals on the t axis');
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  return { svg, add };
}

/** The t range shown: every finite interval end, 0 and tmax, with a margin. */
function tRange(ex) {
  const finite = [0];
  for (const a of ex.axes) for (const v of [a.near, a.far]) if (v !== null && Number.isFinite(v)) finite.push(v);
  if (Number.isFinite(ex.tmax)) finite.push(ex.tmax);
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (hi - lo < 1e-6) { lo -= 1; hi += 1; }
  const pad = (hi - lo) * 0.12;
  return [lo - pad, hi + pad];
}

/** The ray's range, one row per slab and the row of their overlap. */
function drawRows(add, ex, X, step, [lo, hi]) {
  add('rect', { x: X(0), y: TOP - 2, width: Math.max(X(ex.tmax) - X(0), 1), height: ROWS * ROW_H, fill: '#f1f3f5', rx: 3 });
  add('line', { x1: X(0), x2: X(0), y1: TOP - 2, y2: TOP + ROWS * ROW_H, stroke: '#868e96', 'stroke-dasharray': '3 2' });
  ex.axes.forEach((a, i) => {
    const y = TOP + i * ROW_H + ROW_H / 2;
    add('text', { x: 4, y: y + 4, 'font-size': 11, fill: AXIS_COLORS[i], 'font-weight': 700 }, ex.frame === 'box' ? `local ${AX[i]}` : AX[i]);
    if (step !== 0 && step < i + 2) return;
    if (a.near === null) {
      add('text', { x: LEFT + 4, y: y + 4, 'font-size': 10.5, fill: '#868e96' }, 'never inside (parallel, outside)');
      return;
    }
    // An interval that runs on past the axis (to ±∞: parallel, inside) fades and ends in a
    // chevron there, so that it does not read as a ray.
    const cutStart = a.near < lo;
    const cutEnd = a.far > hi;
    const p = [X(a.near) + (cutStart ? 6 : 0), y];
    const q = [X(a.far) - (cutEnd ? 6 : 0), y];
    const bar = add('line', { x1: p[0], x2: q[0], y1: y, y2: y, stroke: AXIS_COLORS[i], 'stroke-width': 6, 'stroke-linecap': cutStart || cutEnd ? 'butt' : 'round', 'data-row': AX[i] });
    if (!cutStart && !cutEnd) return;
    bar.setAttribute('stroke', fadeStroke(bar.parentNode, p, q, AXIS_COLORS[i], cutStart, cutEnd));
    bar.setAttribute('data-cut', [cutStart && 'start', cutEnd && 'end'].filter(Boolean).join(' '));
    if (cutEnd) bar.parentNode.append(chevron([q[0] + 2, y], [1, 0], 1, AXIS_COLORS[i], { 'data-for': AX[i], 'data-end': 'end' }));
    if (cutStart) bar.parentNode.append(chevron([p[0] - 2, y], [1, 0], -1, AXIS_COLORS[i], { 'data-for': AX[i], 'data-end': 'start' }));
  });
  const yO = TOP + 3 * ROW_H + ROW_H / 2;
  add('text', { x: 4, y: yO + 4, 'font-size': 11, fill: '#1f2933', 'font-weight': 700 }, 'all 3');
  if (step !== 0 && step < 5) return;
  if (ex.overlap) {
    add('line', { x1: X(ex.tEnter), x2: X(ex.tExit), y1: yO, y2: yO, stroke: '#1f2933', 'stroke-width': 6, 'stroke-linecap': 'round' });
  } else {
    add('text', { x: LEFT + 4, y: yO + 4, 'font-size': 10.5, fill: '#868e96' }, 'no overlap');
  }
}

/** A number with the minus sign U+2212, as in the step text. */
const num = (x) => fmt(x).replace(/^-/, '\u2212');

/** The t axis with its ticks (t_enter and t_exit where the overlap shows, t = 0, tmax) and,
 * where there is room, its two ends. A label that would overlap one already placed (in that
 * order) is left out; its tick stays. */
function drawAxis(add, ex, X, lo, hi, step) {
  const yA = TOP + ROWS * ROW_H + 6;
  add('line', { x1: LEFT, x2: W - RIGHT, y1: yA, y2: yA, stroke: '#adb5bd' });
  const ticks = [];
  if ((step === 0 || step >= 5) && ex.overlap) {
    ticks.push([ex.tEnter, `t_enter = ${num(ex.tEnter)}`, 't_enter'], [ex.tExit, `t_exit = ${num(ex.tExit)}`, 't_exit']);
  }
  ticks.push([0, 't = 0', 'zero']);
  if (Number.isFinite(ex.tmax) && ex.tmax <= hi) ticks.push([ex.tmax, 'tmax', 'tmax']);
  const placed = [];
  const free = (a, b) => placed.every(([c, d]) => b + 4 < c || d + 4 < a);
  for (const [t, label, name] of ticks) {
    if (!Number.isFinite(t)) continue;
    add('line', { x1: X(t), x2: X(t), y1: yA - 3, y2: yA + 3, stroke: '#495057' });
    const half = label.length * 2.9;
    const x = Math.min(Math.max(X(t), LEFT + half), W - RIGHT - half);
    if (!free(x - half, x + half)) continue;
    placed.push([x - half, x + half]);
    add('text', { x, y: yA + 14, 'font-size': 10, fill: '#495057', 'text-anchor': 'middle', 'data-tick': name }, label);
  }
  // The ends of the axis, where they do not crowd a tick's label.
  const right = `${num(hi)} →`;
  const left = `← ${num(lo)}`;
  if (free(W - RIGHT - right.length * 5.8, W - RIGHT)) add('text', { x: W - RIGHT, y: yA + 14, 'font-size': 10, fill: '#868e96', 'text-anchor': 'end' }, right);
  if (free(LEFT, LEFT + left.length * 5.8)) add('text', { x: LEFT, y: yA + 14, 'font-size': 10, fill: '#868e96', 'text-anchor': 'start' }, left);
}

/** The chart of an explanation from slab.mjs (explainSlabs) at tutorial step `step`. */
export function slabChart(ex, step) {
  const { svg, add } = svgCanvas();
  const [lo, hi] = tRange(ex);
  const X = (t) => LEFT + ((Math.min(Math.max(t, lo), hi) - lo) / (hi - lo)) * (W - LEFT - RIGHT);
  drawRows(add, ex, X, step, [lo, hi]);
  drawAxis(add, ex, X, lo, hi, step);
  return svg;
}
