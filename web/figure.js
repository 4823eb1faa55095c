// slabcast/figure: a small interactive slab figure for prose, any number per page.
//
//   import { mountFigure } from 'slabcast/figure';
//   import 'slabcast/figure.css';
//   const fig = mountFigure(element, { shapes: [box], rays: [ray] }, { view: 'xy', snap: 'integer' });
//   await fig.ready;   // drawn (after the element first scrolled into view)
//   fig.destroy();
//
// One ray against one AABB, in a 2D SVG view of one plane: the box's walls, the ray (solid
// on a hit, dashed on a miss), each axis's interval of t along it, their overlap, the entry
// and exit. Every number is the core's (sc.raycast; the per-axis intervals from the slab
// steps, checked against the core). No three.js. It composes modules, one concern each:
//   figure/options.mjs   the scene and the options, checked (SlabcastError naming the field)
//   figure/model.mjs     the numbers: raycast, slab steps, readout values and their text
//   figure/geometry.mjs  the view's plane, pixels, clipping, snapping, constraints
//   figure/draw.js       the SVG drawing
//   figure/handles.js    dragging and the keyboard
//   figure/panel.js      the figure's own readout and legend, the page's bound readouts
//   figure/shared.js     the one wasm module all figures share
// docs/figure.md is the guide: options, readout names, the binding rule, goals.
import { SlabcastError } from './core/errors.js';
import { checkOptions, checkScene, goalHolds } from './figure/options.mjs';
import { computeFigure, subjectOf } from './figure/model.mjs';
import { defaultBounds, makeTransform } from './figure/geometry.mjs';
import { SVG_NS, drawFigure, svgEl } from './figure/draw.js';
import { applyHandle, createHandles } from './figure/handles.js';
import { boundReadouts, createPanel, fillReadouts } from './figure/panel.js';
import { sharedSlabcast } from './figure/shared.js';

export { READOUT_NAMES } from './figure/model.mjs';
export { SlabcastError };

let nextId = 1;

/** Show `error` as a readable message inside `element` (replacing an earlier one). */
function showError(element, error) {
  element.querySelector(':scope > .slabcast-figure-error')?.remove();
  const box = document.createElement('div');
  box.className = 'slabcast-figure-error';
  box.setAttribute('role', 'alert');
  box.textContent = `This figure cannot be shown: ${error.message}`;
  element.append(box);
}

/**
 * Mount a slab figure in `element` showing `scene` (a SceneInput: {shapes, rays, selected?};
 * the figure explains rays[selected.ray] against shapes[selected.shape], an AABB) with
 * `options` (docs/figure.md). Returns a handle at once; the figure starts when the element
 * first scrolls into view (options.start: 'now' to start at once). A bad element, scene or
 * option throws a SlabcastError naming it, and the message is left shown in the element.
 */
export function mountFigure(element, scene, options = undefined) {
  if (typeof Element === 'undefined' || !(element instanceof Element)) {
    throw new SlabcastError('mountFigure: element must be a DOM element', { field: 'element' });
  }
  let initial;
  let opts;
  try {
    if (!element.isConnected) throw new SlabcastError('mountFigure: element must be in the document', { field: 'element' });
    if (element.hasAttribute('data-figure')) throw new SlabcastError('mountFigure: element already holds a figure; destroy() it first', { field: 'element' });
    initial = checkScene(scene);
    opts = checkOptions(options);
  } catch (e) {
    if (!element.hasAttribute('data-figure')) showError(element, e);
    throw e;
  }
  element.querySelector(':scope > .slabcast-figure-error')?.remove();
  return createFigure(element, initial, opts);
}

function createFigure(host, initial, opts) {
  const idPrefix = `slabfig${nextId++}`;
  const controller = new AbortController();
  const { signal } = controller;
  let scene = structuredClone(initial);
  let bounds = opts.bounds;
  let tf = null;
  let state = null; // {result, ex, values}
  let reached = false;
  let destroyed = false;
  let active = false; // clicked into: the wheel zooms
  let sc = null;

  host.setAttribute('data-figure', 'loading');
  const root = document.createElement('div');
  root.className = 'slabcast-figure';
  root.setAttribute('role', 'group');
  root.setAttribute('aria-label', opts.label);
  const stage = document.createElement('div');
  stage.className = 'fig-stage';
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'fig-svg');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', opts.label);
  const defs = svgEl('defs');
  const drawing = svgEl('g', { class: 'fig-drawing' });
  const handleLayer = svgEl('g', { class: 'fig-handles' });
  svg.append(defs, drawing, handleLayer);
  stage.append(svg);
  const panel = createPanel(opts);
  const body = document.createElement('div');
  body.className = 'fig-body';
  body.append(stage, panel.element);
  root.append(body);
  host.append(root);

  const subject = () => subjectOf(scene);
  const fig = {
    svg, layer: handleLayer, view: opts.view, options: opts, signal, subject,
    transform: () => tf,
    move: (name, p) => tryMove(name, p),
    announce: (text) => panel.announce(text),
  };
  let handles = null;

  function tryMove(name, p) {
    const { ray, box } = subject();
    const next = applyHandle(name, p, ray, box);
    if (!next) return false;
    const s = structuredClone(scene);
    s.rays[s.selected.ray] = next.ray;
    s.shapes[s.selected.shape] = next.box;
    let st;
    try {
      st = computeFigure(s, sc);
    } catch (e) {
      if (e instanceof SlabcastError) return false; // e.g. a value out of float32 range
      throw e;
    }
    const same = JSON.stringify(s) === JSON.stringify(scene);
    scene = s;
    state = st;
    if (!same) update();
    return true;
  }

  function layout() {
    const r = stage.getBoundingClientRect();
    const w = Math.max(1, Math.round(r.width));
    const h = Math.max(1, Math.round(r.height));
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svg.setAttribute('width', w);
    svg.setAttribute('height', h);
    if (!bounds) { const { ray, box } = subject(); bounds = defaultBounds(ray, box, opts.view); }
    tf = makeTransform(bounds, w, h);
  }

  function update() {
    if (destroyed || !state) return;
    const { ray, box } = subject();
    drawFigure(drawing, defs, { tf, view: opts.view, ray, box, ex: state.ex, result: state.result, snap: opts.snap, idPrefix });
    handles.update();
    const wasReached = reached;
    reached = goalHolds(opts.goal, state.values, { scene: structuredClone(scene), result: state.result, explanation: state.ex });
    panel.update(state.values, state.ex, reached);
    root.dataset.hit = String(state.values.hit);
    if (opts.goal) root.dataset.goal = reached ? 'reached' : 'open';
    fillReadouts(boundReadouts(host), state.values);
    host.dispatchEvent(new CustomEvent('figurechange', { bubbles: true, detail: { values: { ...state.values } } }));
    if (reached && !wasReached) {
      host.dispatchEvent(new CustomEvent('figuregoal', { bubbles: true, detail: { label: opts.goal.label, values: { ...state.values } } }));
    }
  }

  function onWheel(e) {
    if (!opts.zoom || (!active && !e.ctrlKey) || !tf) return; // the page scrolls
    e.preventDefault();
    const r = svg.getBoundingClientRect();
    const c = tf.toPlane([e.clientX - r.left, e.clientY - r.top]);
    const k = Math.exp(Math.max(-1, Math.min(1, e.deltaY * 0.002)));
    const b = tf.visible;
    bounds = { min: [c[0] + (b.min[0] - c[0]) * k, c[1] + (b.min[1] - c[1]) * k], max: [c[0] + (b.max[0] - c[0]) * k, c[1] + (b.max[1] - c[1]) * k] };
    layout();
    update();
  }

  async function start() {
    sc = opts.sc ?? await sharedSlabcast(opts.wasm);
    if (destroyed) return;
    state = computeFigure(scene, sc);
    handles = createHandles(fig);
    layout();
    host.setAttribute('data-figure', 'ready');
    update();
    const ro = new ResizeObserver(() => { if (!destroyed) { layout(); update(); } });
    ro.observe(stage);
    signal.addEventListener('abort', () => ro.disconnect());
    svg.addEventListener('wheel', onWheel, { passive: false, signal });
    root.addEventListener('pointerdown', () => { active = true; root.dataset.active = 'true'; }, { signal });
    document.addEventListener('pointerdown', (e) => {
      if (!root.contains(e.target)) { active = false; delete root.dataset.active; }
    }, { capture: true, signal });
  }

  let resolveReady;
  let rejectReady;
  const ready = new Promise((res, rej) => { resolveReady = res; rejectReady = rej; });
  ready.catch(() => {}); // an author who never awaits ready still sees the message in place
  const begin = () => start().then(resolveReady, (e) => {
    if (destroyed) return resolveReady();
    const err = e instanceof SlabcastError ? e : new SlabcastError(`mountFigure: ${e.message}`, { cause: e });
    root.remove();
    host.removeAttribute('data-figure');
    showError(host, err);
    controller.abort();
    destroyed = true;
    rejectReady(err);
  });

  if (opts.start === 'now' || typeof IntersectionObserver === 'undefined') begin();
  else {
    const io = new IntersectionObserver((entries) => {
      if (entries.some((en) => en.isIntersecting)) { io.disconnect(); begin(); }
    }, { rootMargin: '200px' });
    io.observe(host);
    signal.addEventListener('abort', () => io.disconnect());
  }

  return {
    element: root,
    ready,
    /** The readout values now (null before the figure started). */
    get values() { return state ? { ...state.values } : null; },
    /** The scene now (a copy), as toScene() gives it. */
    get scene() { return structuredClone(scene); },
    /** Whether the goal holds now. */
    get goalReached() { return reached; },
    /** Back to the scene the figure was mounted with. */
    reset() {
      scene = structuredClone(initial);
      if (sc) { state = computeFigure(scene, sc); update(); }
    },
    /** Remove the figure: its DOM, observers and listeners. Calling it again does nothing. */
    destroy() {
      if (destroyed) return;
      destroyed = true;
      controller.abort();
      root.remove();
      host.removeAttribute('data-figure');
      resolveReady();
    },
  };
}
