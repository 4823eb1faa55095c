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
// steps, checked against the core). No three.js: options.view '3d' loads figure/view3d.js,
// and three.js with it, by a dynamic import() when a 3D figure starts. It composes modules, one concern each:
//   figure/options.mjs   the scene and the options, checked (SlabcastError naming the field)
//   figure/model.mjs     the numbers: raycast, slab steps, readout values and their text
//   figure/geometry.mjs  the view's plane, pixels, clipping, snapping, constraints
//   figure/draw.js       the SVG drawing
//   figure/handles.js    dragging and the keyboard
//   figure/panel.js      the figure's own readout and legend, the page's bound readouts
//   figure/shared.js     the one wasm module all figures share
//   figure/view3d.js     the 3D view (three.js), loaded only by a 3D figure
// docs/figure.md is the guide: options, readout names, the binding rule, goals.
import { SlabcastError } from './core/errors.js';
import { checkOptions, checkScene, goalHolds } from './figure/options.mjs';
import { computeFigure, subjectOf } from './figure/model.mjs';
import { defaultBounds, makeTransform, zoomBounds } from './figure/geometry.mjs';
import { SVG_NS, declutter, drawFigure, svgEl } from './figure/draw.js';
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

/** The figure's elements inside `host`: root > body > (stage > svg, panel). */
function buildDom(host, opts) {
  const root = document.createElement('div');
  root.className = 'slabcast-figure';
  root.setAttribute('role', 'group');
  root.setAttribute('aria-label', opts.label);
  const stage = document.createElement('div');
  stage.className = 'fig-stage';
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'fig-svg');
  // A group, not an img: an img's children are presentational, and the handles must stay
  // buttons a screen reader reaches. The drawing's text (ticks, labels) is hidden from it:
  // the panel says the same in words.
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', opts.label);
  const defs = svgEl('defs');
  const drawing = svgEl('g', { class: 'fig-drawing', 'aria-hidden': 'true' });
  const handleLayer = svgEl('g', { class: 'fig-handles' });
  svg.append(defs, drawing, handleLayer);
  // A 3D figure draws into the canvas of figure/view3d.js instead.
  if (opts.view !== '3d') stage.append(svg);
  const panel = createPanel(opts);
  const body = document.createElement('div');
  body.className = 'fig-body';
  body.append(stage, panel.element);
  root.append(body);
  host.append(root);
  return { root, stage, svg, defs, drawing, handleLayer, panel };
}

/** One live figure: its scene, its drawing and its listeners (mountFigure's handle wraps it). */
class Figure {
  constructor(host, initial, opts) {
    this.host = host;
    this.initial = initial;
    this.opts = opts;
    this.idPrefix = `slabfig${nextId++}`;
    this.controller = new AbortController();
    this.scene = structuredClone(initial);
    this.bounds = opts.bounds;
    this.tf = null;
    this.state = null; // {result, ex, values}
    this.reached = false;
    this.destroyed = false;
    this.active = false; // clicked into: the wheel zooms
    this.sc = null;
    this.handles = null;
    this.view3d = null; // figure/view3d.js's view when opts.view is '3d'
    host.setAttribute('data-figure', 'loading');
    this.dom = buildDom(host, opts);
  }

  subject() { return subjectOf(this.scene); }

  /** Move handle `name` to world point p: true when the figure took it (the scene stays valid). */
  tryMove(name, p) {
    const { ray, box } = this.subject();
    const next = applyHandle(name, p, ray, box);
    if (!next) return false;
    const s = structuredClone(this.scene);
    s.rays[s.selected.ray] = next.ray;
    s.shapes[s.selected.shape] = next.box;
    let st;
    try {
      st = computeFigure(s, this.sc);
    } catch (e) {
      if (e instanceof SlabcastError) return false; // e.g. a value out of float32 range
      throw e;
    }
    const same = JSON.stringify(s) === JSON.stringify(this.scene);
    this.scene = s;
    this.state = st;
    if (!same) this.update();
    return true;
  }

  /** The SVG's size from the stage's, and the map from the plane to it. */
  layout() {
    const { stage, svg } = this.dom;
    const r = stage.getBoundingClientRect();
    const w = Math.max(1, Math.round(r.width));
    const h = Math.max(1, Math.round(r.height));
    if (this.view3d) { this.view3d.resize(w, h); return; }
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svg.setAttribute('width', w);
    svg.setAttribute('height', h);
    if (!this.bounds) { const { ray, box } = this.subject(); this.bounds = defaultBounds(ray, box, this.opts.view); }
    this.tf = makeTransform(this.bounds, w, h);
  }

  /** Draw, move the handles, fill the panel and the page's readouts, check the goal, tell the page. */
  update() {
    if (this.destroyed || !this.state) return;
    const { opts, state, host } = this;
    const { ray, box } = this.subject();
    if (this.view3d) this.view3d.update({ ray, box, result: state.result });
    else {
      drawFigure(this.dom.drawing, this.dom.defs, { tf: this.tf, view: opts.view, ray, box, ex: state.ex, result: state.result, snap: opts.snap, idPrefix: this.idPrefix });
      declutter(this.dom.drawing);
      this.handles.update();
    }
    const wasReached = this.reached;
    this.reached = goalHolds(opts.goal, state.values, { scene: structuredClone(this.scene), result: state.result, explanation: state.ex });
    this.dom.panel.update(state.values, state.ex, this.reached);
    this.dom.root.dataset.hit = String(state.values.hit);
    if (opts.goal) this.dom.root.dataset.goal = this.reached ? 'reached' : 'open';
    fillReadouts(boundReadouts(host), state.values);
    host.dispatchEvent(new CustomEvent('figurechange', { bubbles: true, detail: { values: { ...state.values } } }));
    if (this.reached && !wasReached) {
      host.dispatchEvent(new CustomEvent('figuregoal', { bubbles: true, detail: { label: opts.goal.label, values: { ...state.values } } }));
    }
  }

  /** The wheel zooms only after a click into the figure, or with Ctrl; otherwise the page scrolls. */
  onWheel(e) {
    if (!this.opts.zoom || (!this.active && !e.ctrlKey) || !this.tf) return;
    e.preventDefault();
    const r = this.dom.svg.getBoundingClientRect();
    this.bounds = zoomBounds(this.tf, this.tf.toPlane([e.clientX - r.left, e.clientY - r.top]), e.deltaY);
    this.layout();
    this.update();
  }

  async start() {
    const { opts } = this;
    this.sc = opts.sc ?? await sharedSlabcast(opts.wasm);
    if (this.destroyed) return;
    this.state = computeFigure(this.scene, this.sc);
    if (opts.view === '3d') await this.start3d();
    else this.startHandles();
    if (this.destroyed) return;
    this.layout();
    this.host.setAttribute('data-figure', 'ready');
    this.update();
    this.listen();
  }

  /** Load the 3D view (and with it three.js): only here, only for a 3D figure. */
  async start3d() {
    let mod;
    let view;
    try {
      mod = await import('./figure/view3d.js');
      if (this.destroyed) return;
      view = mod.createView3d(this.dom.stage, { isActive: () => this.active, signal: this.controller.signal });
    } catch (e) {
      throw new SlabcastError(`mountFigure: the 3D view could not start (it needs three.js, imported as 'three', and WebGL): ${e.message}`, { field: 'options.view', cause: e });
    }
    if (this.destroyed) { view.destroy(); return; }
    this.view3d = view;
    this.controller.signal.addEventListener('abort', () => { view.destroy(); this.view3d = null; });
  }

  startHandles() {
    const { opts, dom } = this;
    this.handles = createHandles({
      svg: dom.svg, layer: dom.handleLayer, view: opts.view, options: opts, signal: this.controller.signal,
      subject: () => this.subject(), transform: () => this.tf,
      move: (name, p) => this.tryMove(name, p), announce: (text) => dom.panel.announce(text),
    });
  }

  listen() {
    const { signal } = this.controller;
    const { root, stage, svg } = this.dom;
    const ro = new ResizeObserver(() => { if (!this.destroyed) { this.layout(); this.update(); } });
    ro.observe(stage);
    signal.addEventListener('abort', () => ro.disconnect());
    svg.addEventListener('wheel', (e) => this.onWheel(e), { passive: false, signal });
    root.addEventListener('pointerdown', () => { this.active = true; root.dataset.active = 'true'; }, { signal });
    document.addEventListener('pointerdown', (e) => {
      if (!root.contains(e.target)) { this.active = false; delete root.dataset.active; }
    }, { capture: true, signal });
  }

  /** Start now, or when the host first comes within 200 px of the viewport. */
  schedule(begin) {
    if (this.opts.start === 'now' || typeof IntersectionObserver === 'undefined') {
      begin();
      return;
    }
    const io = new IntersectionObserver((entries) => {
      if (entries.some((en) => en.isIntersecting)) { io.disconnect(); begin(); }
    }, { rootMargin: '200px' });
    io.observe(this.host);
    this.controller.signal.addEventListener('abort', () => io.disconnect());
  }

  /** Remove the figure; `error`: leave its message in the host instead. */
  destroy(error = null) {
    if (this.destroyed) return;
    this.destroyed = true;
    this.controller.abort();
    this.dom.root.remove();
    this.host.removeAttribute('data-figure');
    if (error) showError(this.host, error);
  }
}

function createFigure(host, initial, opts) {
  const fig = new Figure(host, initial, opts);
  let resolveReady;
  let rejectReady;
  const ready = new Promise((res, rej) => { resolveReady = res; rejectReady = rej; });
  ready.catch(() => {}); // an author who never awaits ready still sees the message in place
  fig.schedule(() => fig.start().then(resolveReady, (e) => {
    if (fig.destroyed) return resolveReady();
    const err = e instanceof SlabcastError ? e : new SlabcastError(`mountFigure: ${e.message}`, { cause: e });
    fig.destroy(err);
    rejectReady(err);
  }));
  return {
    element: fig.dom.root,
    ready,
    /** The readout values now (null before the figure started). */
    get values() { return fig.state ? { ...fig.state.values } : null; },
    /** The scene now (a copy), as toScene() gives it. */
    get scene() { return structuredClone(fig.scene); },
    /** Whether the goal holds now. */
    get goalReached() { return fig.reached; },
    /** Back to the scene the figure was mounted with. */
    reset() {
      fig.scene = structuredClone(fig.initial);
      if (fig.sc && !fig.destroyed) { fig.state = computeFigure(fig.scene, fig.sc); fig.update(); }
    },
    /** Remove the figure: its DOM, observers and listeners. Calling it again does nothing. */
    destroy() {
      fig.destroy();
      resolveReady();
    },
  };
}
