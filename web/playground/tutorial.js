// The slab tutorial panel: pick a ray and a box, see the slab method step by step
// (table, chart, summary, verdict, flags, the stepper), cross-checked against slabcast,
// and optionally drawn in 3D (tutorial-3d.js). The maths is slab.mjs; the words are
// tutorial-text.js; the chart is tutorial-chart.js.

import { crossCheck, explainSlabs } from './slab.mjs';
import { $, el, fmt, num, vecText } from './dom.js';
import { AX, LONG_NAME, rayName, shapeName } from './look.js';
import { STEP_COUNT, stepText, verdictShort } from './tutorial-text.js';
import { slabChart } from './tutorial-chart.js';

/** The selected ray and box, with the explanation, or {why} there is none. */
function slabSubject(state, results) {
  const i = state.selected.ray;
  const j = state.selected.shape;
  if (i < 0 || i >= state.rays.length) return { why: 'Select a ray (click it in the hit list or pick one above).' };
  if (j < 0 || j >= state.shapes.length) return { why: 'Select a box (click one in the view, or pick it above).' };
  const shape = state.shapes[j];
  if (shape.type !== 'aabb' && shape.type !== 'obb') {
    return { why: `The slab method is how rays meet boxes. ${shapeName(j, shape)} is a ${LONG_NAME[shape.type]}: pick a box to see it step by step.` };
  }
  const ray = state.rays[i];
  return { i, j, ray, shape, ex: explainSlabs(ray, shape), result: results[i]?.[j] };
}

function frameText(sub) {
  const { ex } = sub;
  const names = `${rayName(sub.i)} against ${shapeName(sub.j, sub.shape)}`;
  return ex.frame === 'box'
    ? `${names}, in the box's own frame (origin ${vecText(ex.o)}, dir ${vecText(ex.d)} along its axes)`
    : `${names}, in world coordinates`;
}

/** One row per slab: its planes, the interval of t inside it, its direction; the current step's row marked. */
function slabTable(ex, step) {
  const table = el('table', { class: 'slab-table' });
  table.append(el('thead', {}, el('tr', {},
    el('th', { text: 'slab' }), el('th', { text: 'planes' }), el('th', { text: 'inside for t in' }), el('th', { text: '' }))));
  const tbody = el('tbody');
  ex.axes.forEach((a, i) => {
    const tr = el('tr', { class: step === i + 1 ? 'current' : '', 'data-axis': AX[i] });
    const planes = el('td', { class: 'mono' });
    planes.append(num(a.lo), ' … ', num(a.hi));
    const interval = el('td', { class: 'mono', 'data-testid': `slab-interval-${AX[i]}` });
    if (a.near === null) interval.append('never');
    else interval.append('[', num(a.near), ', ', num(a.far), ']');
    const note = el('td', {
      class: 'mono',
      text: a.parallel ? (a.inside ? 'parallel, inside' : 'parallel, outside') : a.d > 0 ? 'dir +' : 'dir −',
    });
    note.style.color = 'var(--muted)';
    tr.append(el('td', {}, el('span', { class: `axis-chip axis-${i}`, text: ex.frame === 'box' ? `${AX[i]}′` : AX[i] })), planes, interval, note);
    tbody.append(tr);
  });
  table.append(tbody);
  return table;
}

function slabSummary(ex) {
  const summary = el('dl', { class: 'slab-summary' });
  const entry = el('dd', { 'data-testid': 'slab-enter' });
  entry.append(num(ex.tEnter), ex.enterAxis >= 0 ? ` (${AX[ex.enterAxis]})` : '');
  const exitDd = el('dd', { 'data-testid': 'slab-exit' });
  exitDd.append(num(ex.tExit), ex.exitAxis >= 0 ? ` (${AX[ex.exitAxis]})` : '');
  summary.append(el('dt', { text: 'largest entry' }), entry, el('dt', { text: 'smallest exit' }), exitDd,
    el('dt', { text: 'ray range' }), el('dd', { text: `[0, ${Number.isFinite(ex.tmax) ? fmt(ex.tmax) : '∞'}]` }));
  return summary;
}

function verdictEl(ex) {
  const [kind, why] = verdictShort(ex);
  return el('div', { class: `verdict ${kind}`, 'data-testid': 'slab-verdict', 'data-verdict': kind },
    el('b', { text: kind === 'hit' ? 'Hit' : 'Miss' }), why);
}

/** The special cases as flags ('' when there are none). */
function flagsEl(ex) {
  const flags = el('div', { class: 'flags', 'data-testid': 'slab-flags' });
  const flag = (name, text) => flags.append(el('span', { class: 'flag', 'data-flag': name, text }));
  for (const a of ex.axes) {
    if (a.parallel) flag('parallel', `parallel ${AX[a.axis]}: origin ${a.inside ? 'inside' : 'outside'} the slab`);
  }
  if (ex.flags.originInside) flag('origin-inside', 'origin inside the box');
  if (ex.flags.originOnSurface) flag('origin-on-surface', 'origin on the surface');
  if (ex.flags.grazing) flag('grazing', 'grazing: t_enter = t_exit');
  return flags.childElementCount ? flags : '';
}

/** The warning when slabcast refuses the box or disagrees with the steps (null: none). */
function crossCheckProblem(ex, result) {
  if (result && result.error) return `slabcast refuses this box: ${result.error}`;
  const c = crossCheck(ex, result);
  return c ? `The step-by-step numbers and slabcast disagree: ${c}. Please export the case file and report it.` : null;
}

export class Tutorial {
  /** store: the Store; visual: the SlabVisual; gizmo: the Gizmo (a shape picked here keeps
   * the gizmo as it is); requestRender: redraw the 3D view. */
  constructor({ store, visual, gizmo, requestRender }) {
    Object.assign(this, { store, visual, gizmo, requestRender });
    this.step = 0;
  }

  listen() {
    const { store } = this;
    $('slab-back').addEventListener('click', () => this.#go(Math.max(0, this.step - 1)));
    $('slab-next').addEventListener('click', () => this.#go(Math.min(STEP_COUNT - 1, this.step + 1)));
    $('slab-3d').addEventListener('change', () => { this.render(); this.requestRender(); });
    $('slab-ray').addEventListener('change', (e) => store.selectRay(Number(e.target.value)));
    $('slab-shape').addEventListener('change', (e) => this.gizmo.selectShape(Number(e.target.value), { showGizmo: this.gizmo.shown }));
  }

  #go(step) {
    this.step = step;
    this.render();
    this.requestRender();
  }

  /** After a store change. */
  onChange(change) {
    if (change.action === 'setScene') this.step = Math.min(this.step, STEP_COUNT - 1);
    this.render();
  }

  #renderSelectors(state) {
    const rs = $('slab-ray');
    const ss = $('slab-shape');
    rs.replaceChildren(...state.rays.map((_, i) => el('option', { value: String(i), text: rayName(i) })));
    ss.replaceChildren(el('option', { value: '-1', text: '(none)' }),
      ...state.shapes.map((s, j) => el('option', { value: String(j), text: shapeName(j, s) })));
    rs.value = String(state.selected.ray);
    ss.value = String(state.selected.shape);
  }

  #renderEmpty(why) {
    $('slab-body').replaceChildren(el('p', { class: 'slab-empty', text: why }));
    $('slab-warning').hidden = true;
    $('slab-stepper').hidden = true;
    $('slab-step').replaceChildren();
    $('slab-count').textContent = '';
    $('slab-back').disabled = true;
    $('slab-next').disabled = true;
  }

  #renderStepper(sub) {
    const { step } = this;
    $('slab-stepper').hidden = false;
    const [title, text] = stepText(step, sub);
    const stepEl = $('slab-step');
    stepEl.replaceChildren(el('span', { class: 'step-title', text: title }), text);
    stepEl.dataset.step = String(step);
    $('slab-count').textContent = `${step + 1} / ${STEP_COUNT}`;
    $('slab-back').disabled = step === 0;
    $('slab-next').disabled = step === STEP_COUNT - 1;
  }

  /** The whole panel (and the 3D visual) from the store's state. */
  render() {
    const { state, results } = this.store;
    this.#renderSelectors(state);
    const sub = slabSubject(state, results);
    this.visual.clear();
    if (!sub.ex) {
      this.#renderEmpty(sub.why);
      return;
    }
    const { ex } = sub;
    const frame = el('p', { class: 'slab-frame' });
    frame.textContent = frameText(sub);
    $('slab-body').replaceChildren(frame, slabTable(ex, this.step), slabChart(ex), slabSummary(ex), verdictEl(ex), flagsEl(ex));
    const problem = crossCheckProblem(ex, sub.result);
    const warn = $('slab-warning');
    warn.hidden = problem === null;
    warn.textContent = problem ?? '';
    this.#renderStepper(sub);
    if ($('slab-3d').checked) this.visual.build(sub, this.step);
  }
}
