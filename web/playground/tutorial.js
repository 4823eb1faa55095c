// The slab tutorial: pick a ray and a box and step through the slab method. The step is
// store.ui.step (0: not started; 1 .. STEP_COUNT), changed with setUi so links carry it.
// The stepper sits in the view (next to the 3D or 2D drawing); the panel shows the table,
// chart and summary as far as the current step has got, and the verdict only at the last
// step. Cross-checked against slabcast, and optionally drawn in 3D (tutorial-3d.js). The
// maths is slab.mjs; the words are tutorial-text.js; the chart is tutorial-chart.js.

import { crossCheck, explainSlabs } from './slab.mjs';
import { el, fmt, num, vecText } from './dom.js';
import { AX, LONG_NAME, rayName, shapeName } from './look.js';
import { STEP_COUNT, stepFlags, stepText, verdictShort } from './tutorial-text.js';
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
  const shown = (i) => step === 0 || step >= i + 2;
  const table = el('table', { class: 'slab-table' });
  table.append(el('thead', {}, el('tr', {},
    el('th', { text: 'slab' }), el('th', { text: 'planes' }), el('th', { text: 'inside for t in' }), el('th', { text: '' }))));
  const tbody = el('tbody');
  ex.axes.forEach((a, i) => {
    const tr = el('tr', { class: step === i + 2 ? 'current' : '', 'data-axis': AX[i] });
    const planes = el('td', { class: 'mono' });
    planes.append(num(a.lo), ' … ', num(a.hi));
    const interval = el('td', { class: 'mono', 'data-testid': `slab-interval-${AX[i]}` });
    if (!shown(i)) interval.append('…');
    else if (a.near === null) interval.append('never');
    else interval.append('[', num(a.near), ', ', num(a.far), ']');
    const note = el('td', {
      class: 'mono',
      text: !shown(i) ? '' : a.parallel ? (a.inside ? 'parallel, inside' : 'parallel, outside') : a.d > 0 ? 'dir +' : 'dir −',
    });
    note.style.color = 'var(--muted)';
    tr.append(el('td', {}, el('span', { class: `axis-chip axis-${i}`, text: ex.frame === 'box' ? `${AX[i]}′` : AX[i] })), planes, interval, note);
    tbody.append(tr);
  });
  table.append(tbody);
  return table;
}

/** The largest entry (from step 5), the smallest exit (from step 6) and the ray's range.
 * A ray parallel to a slab and outside it has neither: the summary says why it misses. */
function slabSummary(ex, step) {
  const summary = el('dl', { class: 'slab-summary' });
  if (step < 5) return '';
  const entry = el('dd', { 'data-testid': 'slab-enter' });
  const exitDd = el('dd', { 'data-testid': 'slab-exit' });
  if (ex.flags.parallelOutside.length) {
    const w = ex.frame === 'box' ? `local ${AX[ex.flags.parallelOutside[0]]}` : AX[ex.flags.parallelOutside[0]];
    entry.append(`none: the ray misses, because it is parallel to the ${w} slab and outside it`);
    exitDd.append('none: the ray is never inside the box');
  } else {
    entry.append(num(ex.tEnter), ex.enterAxis >= 0 ? ` (${AX[ex.enterAxis]})` : '');
    exitDd.append(num(ex.tExit), ex.exitAxis >= 0 ? ` (${AX[ex.exitAxis]})` : '');
  }
  summary.append(el('dt', { text: 'largest entry' }), entry);
  if (step >= 6) summary.append(el('dt', { text: 'smallest exit' }), exitDd);
  if (step >= STEP_COUNT) summary.append(el('dt', { text: 'ray range' }), el('dd', { text: `[0, ${Number.isFinite(ex.tmax) ? fmt(ex.tmax) : '∞'}]` }));
  return summary;
}

function verdictEl(ex) {
  const [kind, why] = verdictShort(ex);
  return el('div', { class: `verdict ${kind}`, 'data-testid': 'slab-verdict', 'data-verdict': kind },
    el('b', { text: kind === 'hit' ? 'Hit' : 'Miss' }), why);
}

/** The edge cases met up to `step`, as flags ('' when there are none). */
function flagsEl(ex, step) {
  const flags = el('div', { class: 'flags', 'data-testid': 'slab-flags' });
  for (let k = 1; k <= Math.min(step, STEP_COUNT); k++) {
    for (const { flag, text } of stepFlags(k, ex)) flags.append(el('span', { class: 'flag', 'data-flag': flag, text }));
  }
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
  }

  /** The step shown: store.ui.step within 0 .. STEP_COUNT. */
  get step() { return Math.min(this.store.ui.step, STEP_COUNT); }

  listen() {
    const { store } = this;
    this.store.dom.$('slab-back').addEventListener('click', () => this.go(Math.max(0, this.step - 1)));
    this.store.dom.$('slab-next').addEventListener('click', () => this.go(Math.min(STEP_COUNT, this.step + 1)));
    this.store.dom.$('slab-3d').addEventListener('change', () => { this.render(); this.requestRender(); });
    this.store.dom.$('slab-ray').addEventListener('change', (e) => store.selectRay(Number(e.target.value)));
    this.store.dom.$('slab-shape').addEventListener('change', (e) => this.gizmo.selectShape(Number(e.target.value), { showGizmo: this.gizmo.shown }));
  }

  /** Show step k (0: the start). */
  go(k) {
    this.store.setUi({ step: k });
  }

  /** After a store change. */
  onChange() {
    this.render();
    this.requestRender();
  }

  #renderSelectors(state) {
    const rs = this.store.dom.$('slab-ray');
    const ss = this.store.dom.$('slab-shape');
    rs.replaceChildren(...state.rays.map((_, i) => el('option', { value: String(i), text: rayName(i) })));
    ss.replaceChildren(el('option', { value: '-1', text: '(none)' }),
      ...state.shapes.map((s, j) => el('option', { value: String(j), text: shapeName(j, s) })));
    rs.value = String(state.selected.ray);
    ss.value = String(state.selected.shape);
  }

  #renderEmpty(why) {
    this.store.dom.$('slab-body').replaceChildren(el('p', { class: 'slab-empty', text: why }));
    this.store.dom.$('slab-warning').hidden = true;
    const stepEl = this.store.dom.$('slab-step');
    stepEl.replaceChildren(el('span', { class: 'step-title', text: 'The slab method, step by step' }), why);
    stepEl.dataset.step = '0';
    this.store.dom.$('slab-step-flags').replaceChildren();
    this.store.dom.$('slab-count').textContent = '';
    this.store.dom.$('slab-back').disabled = true;
    this.store.dom.$('slab-next').disabled = true;
  }

  #renderStepper(sub) {
    const { step } = this;
    const stepEl = this.store.dom.$('slab-step');
    const stepper = this.store.dom.$('slab-stepper');
    stepper.dataset.step = String(step);
    if (step === 0) {
      stepEl.replaceChildren(el('span', { class: 'step-title', text: 'The slab method, step by step' }),
        `How does ${rayName(sub.i)} meet ${shapeName(sub.j, sub.shape)}? Press Start to go through it one step at a time.`);
      this.store.dom.$('slab-step-flags').replaceChildren();
      this.store.dom.$('slab-count').textContent = `${STEP_COUNT} steps`;
      this.store.dom.$('slab-back').disabled = true;
      this.store.dom.$('slab-next').disabled = false;
      this.store.dom.$('slab-next').textContent = 'Start →';
    } else {
      const [title, text] = stepText(step, sub);
      stepEl.replaceChildren(el('span', { class: 'step-title', text: title }), text);
      this.store.dom.$('slab-step-flags').replaceChildren(...stepFlags(step, sub.ex).map(({ flag, text: t }) => el('span', { class: 'flag', 'data-flag': flag, text: t })));
      this.store.dom.$('slab-count').textContent = `${step} / ${STEP_COUNT}`;
      this.store.dom.$('slab-back').disabled = false;
      this.store.dom.$('slab-next').disabled = step === STEP_COUNT;
      this.store.dom.$('slab-next').textContent = 'Next →';
    }
    stepEl.dataset.step = String(step);
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
    const { step } = this;
    const frame = el('p', { class: 'slab-frame' });
    frame.textContent = frameText(sub);
    this.store.dom.$('slab-body').replaceChildren(frame, slabTable(ex, step), slabChart(ex, step), slabSummary(ex, step),
      step >= STEP_COUNT ? verdictEl(ex) : '', flagsEl(ex, step));
    const problem = crossCheckProblem(ex, sub.result);
    const warn = this.store.dom.$('slab-warning');
    warn.hidden = problem === null;
    warn.textContent = problem ?? '';
    this.#renderStepper(sub);
    if (this.store.dom.$('slab-3d').checked) this.visual.build(sub, step);
  }
}
